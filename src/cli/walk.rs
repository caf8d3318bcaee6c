//! `loopconv walk`.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;

use loopconv::Format;

use super::io::emit;
use super::report::{code, load_valid, plural};
use super::{EXIT_PROBLEMS, Global, MessageFormat};

use loopconv::analysis::walk::{self as w, Script};
use loopconv::analysis::{Decision, Step};

#[derive(Debug, Args)]
pub(super) struct WalkLoopArgs {
    #[command(flatten)]
    pub(super) g: Global,
    /// Loop file (`-` for standard input).
    input: PathBuf,
    /// The outcomes of the phase executions, in order (comma-separated).
    #[arg(long, value_delimiter = ',', required = true)]
    outcomes: Vec<String>,
    /// Approve checkpoint ID (repeat for each time it is reached; a checkpoint takes its
    /// `--approve`/`--reject` decisions in command-line order).
    #[arg(long, value_name = "ID")]
    approve: Vec<String>,
    /// Reject checkpoint ID (repeatable, like `--approve`).
    #[arg(long, value_name = "ID")]
    reject: Vec<String>,
    /// Input format.
    #[arg(long, value_enum, help_heading = "Input")]
    from: Option<Format>,
}

/// The checkpoint decisions in command-line order. clap keeps each flag's values apart,
/// so the order across `--approve` and `--reject` is read from the raw arguments; when
/// they disagree with clap's (they cannot, short of an abbreviation clap does not allow),
/// all approvals come first.
fn decisions(a: &WalkLoopArgs) -> Vec<(String, Decision)> {
    let mut out = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) => (f.to_owned(), Some(v.to_owned())),
            None => (arg.clone(), None),
        };
        let d = match flag.as_str() {
            "--approve" => Decision::Approve,
            "--reject" => Decision::Reject,
            "--" => break,
            _ => continue,
        };
        if let Some(id) = inline.or_else(|| args.next()) {
            out.push((id, d));
        }
    }
    let count = |d: Decision| out.iter().filter(|(_, x)| *x == d).count();
    if count(Decision::Approve) != a.approve.len() || count(Decision::Reject) != a.reject.len() {
        out = a
            .approve
            .iter()
            .map(|id| (id.clone(), Decision::Approve))
            .collect();
        out.extend(a.reject.iter().map(|id| (id.clone(), Decision::Reject)));
    }
    out
}

pub(super) fn run(g: &Global, a: &WalkLoopArgs) -> Result<ExitCode> {
    let Some(l) = load_valid(g, &a.input, a.from)? else {
        return Ok(ExitCode::from(EXIT_PROBLEMS));
    };
    let Some((spec, info)) = l.valid() else {
        return Ok(ExitCode::from(EXIT_PROBLEMS));
    };
    let script = Script {
        outcomes: a.outcomes.clone(),
        decisions: decisions(a),
    };
    let result = w::walk(spec, info, &script);
    let json = matches!(g.format, MessageFormat::Json);
    let (text, ok) = match &result {
        Ok(t) if json => (serde_json::to_string_pretty(t)?, true),
        Ok(t) => (
            trace_text(
                &t.steps,
                &format!(
                    "reached {} after {} step{}{}",
                    t.terminal,
                    t.phase_steps,
                    plural(t.phase_steps),
                    bound(t.max_steps)
                ),
            ),
            true,
        ),
        Err(e) if json => (
            serde_json::to_string_pretty(
                &serde_json::json!({"error": e.message, "steps": e.steps}),
            )?,
            false,
        ),
        Err(e) => (
            trace_text(&e.steps, &format!("error: {}", e.message)),
            false,
        ),
    };
    // The trace is read by people: without the characters `text::lines` drops (the JSON
    // form is data, kept exact).
    let text = if json {
        text
    } else {
        loopconv::text::lines(&text).into_owned()
    };
    emit(None, &format!("{}\n", text.trim_end()))?;
    Ok(code(!ok))
}

fn bound(max: Option<u64>) -> String {
    max.map(|m| format!(" (max_steps {m})")).unwrap_or_default()
}

fn trace_text(steps: &[Step], last: &str) -> String {
    let mut s = String::new();
    let mut n = 0;
    for step in steps {
        match step {
            Step::Phase { phase, outcome, to } => {
                n += 1;
                s.push_str(&format!("{n:>3}. {phase} → {outcome} → {to}\n"));
            }
            Step::Checkpoint {
                checkpoint,
                decision,
                to,
            } => {
                s.push_str(&format!(
                    "     checkpoint {checkpoint}: {} → {to}\n",
                    decision.as_str()
                ));
            }
        }
    }
    s.push_str(last);
    s
}
