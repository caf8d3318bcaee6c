//! `loopconv walk`.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;

use loopconv::Format;

use super::io::{emit_streamed, refuse_unused_stdin_name};
use super::report::{eprintln, load_valid};
use super::{EXIT_PROBLEMS, EXIT_USAGE, Global, MessageFormat};

use loopconv::analysis::walk::{self as w, Script};
use loopconv::analysis::{Decision, RUNTIME_MAX_STEPS, Runtime, Status, Step};
use loopconv::text::count;

#[derive(Debug, Args)]
pub(super) struct WalkLoopArgs {
    #[command(flatten)]
    pub(super) g: Global,
    /// Loop file (`-` for standard input).
    pub(super) input: PathBuf,
    /// The outcomes of the phase executions, in order (comma-separated; spaces around
    /// each are ignored). `@tool-failure`
    /// is a failing tool call in the current phase (retried as `error_policy` says),
    /// `@phase-failure` a failure of the phase itself; no outcome id starts with `@`.
    /// Empty (`--outcomes ''`, or none) for a run of no phase step, such as a rejection
    /// at the entry's checkpoint, as `paths` lists it.
    #[arg(long, value_delimiter = ',')]
    outcomes: Vec<String>,
    /// The runtime's step ceiling (the harness's `runtime.limits.max_steps`): the run stops
    /// `limit_reached` after the stricter of it and the loop's `max_steps`.
    /// [default: the harness's, or the configuration's `runtime-max-steps`]
    #[arg(long, value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..))]
    runtime_max_steps: Option<u64>,
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

/// `walk --help`'s list of exit codes (the same as [`exit_code`]; a test compares them).
pub(super) const EXIT_HELP: &str = "\
Exit codes (run statuses of the AgentPM harness):
  0  ended              the run reached `$end` (a REAL/VEAL `continue` escalation too)
  3  aborted            `$abort`, or an error policy's `abort`
  4  handed_off         `$handoff`, an error policy's `handoff`, or a REAL/VEAL escalation to a person or the fallback agent
  5  limit_reached      the effective `max_steps` (the stricter of the loop's and `--runtime-max-steps`) ran out
  6  approval_required  a checkpoint has no decision scripted
  7  failed             a phase failed and the loop has no `error_policy.phase_failure`
  1  the loop has errors;  2  usage error, or a script that does not fit the loop";

/// The exit code of each run status (the guide's "Scripted runs", `docs/src/authoring.md`; `walk --help`). Script
/// mistakes exit 2 (usage), a loop with errors 1.
pub(super) fn exit_code(s: Status) -> u8 {
    match s {
        Status::Ended => 0,
        Status::Aborted => 3,
        Status::HandedOff => 4,
        Status::LimitReached => 5,
        Status::ApprovalRequired => 6,
        Status::Failed => 7,
    }
}

pub(super) fn run(g: &Global, a: &WalkLoopArgs) -> Result<ExitCode> {
    refuse_unused_stdin_name(g, [a.input.as_path()])?;
    let Some(mut l) = load_valid(g, &a.input, a.from)? else {
        return Ok(ExitCode::from(EXIT_PROBLEMS));
    };
    // The diagnostics are reported: the source and its located tree are not read again,
    // and their memory serves the runs.
    l.doc = None;
    let Some((spec, info)) = l.valid() else {
        return Ok(ExitCode::from(EXIT_PROBLEMS));
    };
    let script = Script {
        // `--outcomes ''` is no outcome at all (a zero-step run), not one empty outcome;
        // spaces around an outcome are not part of it (`"act, complete"`).
        outcomes: if a.outcomes.iter().all(|o| o.trim().is_empty()) && a.outcomes.len() <= 1 {
            Vec::new()
        } else {
            a.outcomes.iter().map(|o| o.trim().to_owned()).collect()
        },
        decisions: decisions(a),
    };
    let rt = Runtime {
        max_steps: (a.runtime_max_steps)
            .or(g.settings.runtime_max_steps)
            .unwrap_or(RUNTIME_MAX_STEPS),
    };
    let result = w::walk(spec, info, &script, rt);
    let json = matches!(g.format, MessageFormat::Json);
    let code = match &result {
        Ok(r) => exit_code(r.status),
        Err(_) => EXIT_USAGE,
    };
    // Written as it is rendered, step by step (the trace is as long as the script).
    emit_streamed(None, |w| {
        match &result {
            Ok(r) if json => {
                let mut run = r.clone();
                run.reason = as_data(&run.reason);
                serde_json::to_writer_pretty(&mut *w, &run)?;
            }
            Ok(r) => write_trace(w, &r.steps, &run_end(r))?,
            Err(e) if json => serde_json::to_writer_pretty(
                &mut *w,
                &serde_json::json!({"error": as_data(&e.message), "steps": e.steps}),
            )?,
            // The steps made, then the error on standard error, as every command's.
            // (Each step's line ends with its newline.)
            Err(e) => return Ok(write_trace(w, &e.steps, "")?),
        }
        w.write_all(b"\n")?;
        Ok(())
    })?
    .report(g);
    if let Err(e) = &result
        && !json
    {
        eprintln!("error: {}", loopconv::text::lines(&e.message).trim_end());
    }
    Ok(ExitCode::from(code))
}

/// The last lines of a trace: `run ended: …`, why, and what the script did not use.
fn run_end(r: &w::Run) -> String {
    let mut s = format!(
        "run {} after {} (max_steps {}): {}",
        r.status.as_str(),
        count(r.phase_steps, "step", "steps"),
        r.max_steps,
        r.reason,
    );
    const SHOWN: usize = 10;
    if !r.unused.is_empty() {
        let mut shown: Vec<String> = r.unused.iter().take(SHOWN).cloned().collect();
        if r.unused.len() > SHOWN {
            shown.push(format!("{} more", r.unused.len() - SHOWN));
        }
        s.push_str(&format!(
            "\nnot used by the run: {}",
            loopconv::text::list(&shown, "and")
        ));
    }
    s
}

/// Whether a step continues the phase execution of the step before it: every step after a
/// failure does (a retried tool call goes on, a failed one fails the phase).
fn continues(prev: Option<&Step>) -> bool {
    matches!(prev, Some(Step::Failure { .. }))
}

/// Write the trace: one line per step, then `last`. Read by people: without the characters
/// `text::lines` drops (the JSON form is data, kept exact).
fn write_trace(w: &mut dyn Write, steps: &[Step], last: &str) -> std::io::Result<()> {
    let mut n = 0;
    let mut prev = None;
    for step in steps {
        let number = |n: &mut usize| {
            if continues(prev) {
                "     ".to_owned()
            } else {
                *n += 1;
                format!("{n:>3}. ")
            }
        };
        let line = match step {
            Step::Phase { phase, outcome, to } => {
                let k = number(&mut n);
                format!("{k}{phase} → {outcome} → {to}\n")
            }
            Step::Checkpoint {
                checkpoint,
                decision,
                to,
            } => format!(
                "     checkpoint {checkpoint}: {} → {to}\n",
                decision.as_str()
            ),
            Step::Failure {
                phase,
                failure,
                action,
                rule,
                retry,
            } => {
                let k = number(&mut n);
                let retry = retry
                    .map(|(i, m)| format!(" {i} of {m}"))
                    .unwrap_or_default();
                format!(
                    "{k}{phase} ✗ {} → {action}{retry} ({rule})\n",
                    failure.text()
                )
            }
        };
        w.write_all(loopconv::text::lines(&line).as_bytes())?;
        prev = Some(step);
    }
    w.write_all(loopconv::text::lines(last).trim_end().as_bytes())
}

/// A sentence for a data output (`--format json`): the code spans it marks for people
/// (`` `act` ``) quoted plainly (`'act'`), since data carries no Markdown.
pub(crate) fn as_data(sentence: &str) -> String {
    sentence.replace('`', "'")
}
