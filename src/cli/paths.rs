//! `loopconv paths`: test paths through a loop.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;

use loopconv::Format;

use super::io::emit;
use super::report::load_valid;
use super::{EXIT_PROBLEMS, Global, MessageFormat};
use loopconv::text::count;

use loopconv::analysis::paths::{self as p, Path as Run};
use loopconv::analysis::{RUNTIME_MAX_STEPS, Runtime, Step};

#[derive(Debug, Args)]
pub(super) struct PathsArgs {
    #[command(flatten)]
    pub(super) g: Global,
    /// Loop file (`-` for standard input).
    input: PathBuf,
    /// Input format.
    #[arg(long, value_enum, help_heading = "Input")]
    from: Option<Format>,
    /// Output file (default: standard output).
    #[arg(long, short = 'o')]
    output: Option<PathBuf>,
    /// The runtime's step ceiling, as for `walk`: `fits_max_steps` compares each run with
    /// the stricter of it and the loop's `max_steps`.
    #[arg(long, value_name = "N", default_value_t = RUNTIME_MAX_STEPS,
          value_parser = clap::value_parser!(u64).range(1..))]
    runtime_max_steps: u64,
}

pub(super) fn run(g: &Global, a: &PathsArgs) -> Result<ExitCode> {
    let Some(l) = load_valid(g, &a.input, a.from)? else {
        return Ok(ExitCode::from(EXIT_PROBLEMS));
    };
    let Some((spec, info)) = l.valid() else {
        return Ok(ExitCode::from(EXIT_PROBLEMS));
    };
    let rt = Runtime {
        max_steps: a.runtime_max_steps,
    };
    let found = p::paths(spec, info, rt);
    let text = match g.format {
        MessageFormat::Json => {
            let mut t = serde_json::to_string_pretty(&found)?;
            t.push('\n');
            t
        }
        // Read by people: without the characters `text::lines` drops.
        _ => loopconv::text::lines(&paths_text(&found)).into_owned(),
    };
    emit(a.output.as_deref(), &text)?;
    Ok(ExitCode::SUCCESS)
}

/// A run on one line: `a --x--> [approve c] b --y--> $end`; the failures of one phase
/// execution as one group: `a !! tool failure: retry 1 of 2, fail_phase !! phase failure:
/// abort`.
fn run_line(r: &Run) -> String {
    let mut s = String::new();
    let mut prev: Option<&Step> = None;
    for step in &r.steps {
        let text = match step {
            Step::Phase { outcome, .. } if matches!(prev, Some(Step::Failure { .. })) => {
                format!(" --{outcome}--> ")
            }
            Step::Phase { phase, outcome, .. } => format!("{phase} --{outcome}--> "),
            Step::Checkpoint {
                checkpoint,
                decision,
                ..
            } => format!("[{} {checkpoint}] ", decision.as_str()),
            Step::Failure {
                phase,
                failure,
                action,
                retry,
                ..
            } => {
                let retry = retry
                    .map(|(i, m)| format!(" {i} of {m}"))
                    .unwrap_or_default();
                match prev {
                    Some(Step::Failure { failure: f, .. }) if f == failure => {
                        format!(", {action}{retry}")
                    }
                    Some(Step::Failure { .. }) => {
                        format!(" !! {}: {action}{retry}", failure.text())
                    }
                    _ => format!("{phase} !! {}: {action}{retry}", failure.text()),
                }
            }
        };
        s.push_str(&text);
        prev = Some(step);
    }
    if matches!(prev, Some(Step::Failure { .. })) {
        s.push(' ');
    }
    match &r.terminal {
        Some(t) => s.push_str(t),
        None => s.push_str(&format!("(run {})", r.status.as_str())),
    }
    s
}

fn paths_text(found: &p::Paths) -> String {
    let mut s = String::from("shortest runs:\n");
    for r in &found.shortest {
        s.push_str(&format!(
            "  {:<9} {}: {}\n",
            r.terminal.as_deref().unwrap_or_default(),
            count(r.phase_steps, "step", "steps"),
            run_line(r)
        ));
    }
    s.push_str(&format!(
        "covering runs ({}, {} of {} transitions and decisions):\n",
        count(found.cover.len(), "run", "runs"),
        found.covered,
        found.total
    ));
    for (i, r) in found.cover.iter().enumerate() {
        s.push_str(&format!("  {:>2}. {}\n", i + 1, run_line(r)));
    }
    if !found.failures.is_empty() {
        s.push_str("failure runs (as the error policy, or the harness default, ends them):\n");
        for (i, r) in found.failures.iter().enumerate() {
            s.push_str(&format!("  {:>2}. {}\n", i + 1, run_line(r)));
        }
    }
    if !found.uncovered.is_empty() {
        s.push_str("not coverable:\n");
        for u in &found.uncovered {
            s.push_str(&format!(
                "  {}: {}\n",
                serde_json::to_string(&u.step).unwrap_or_default(),
                u.reason
            ));
        }
    }
    s
}
