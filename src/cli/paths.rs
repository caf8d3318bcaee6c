//! `loopconv paths`: test paths through a loop.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;

use loopconv::Format;

use super::io::{emit_streamed, refuse_input_as_output, refuse_unused_stdin_name};
use super::report::load_valid;
use super::{EXIT_PROBLEMS, Global, MessageFormat};
use loopconv::text::count;

use loopconv::analysis::paths::{self as p, Junction, Path as Run};
use loopconv::analysis::{RUNTIME_MAX_STEPS, Runtime, Step};

#[derive(Debug, Args)]
pub(super) struct PathsArgs {
    #[command(flatten)]
    pub(super) g: Global,
    /// Loop file (`-` for standard input).
    pub(super) input: PathBuf,
    /// Input format.
    #[arg(long, value_enum, help_heading = "Input")]
    from: Option<Format>,
    /// Output file (default: standard output).
    #[arg(long, short = 'o')]
    output: Option<PathBuf>,
    /// The runtime's step ceiling, as for `walk`: `fits_max_steps` compares each run with
    /// the stricter of it and the loop's `max_steps`.
    /// [default: the harness's, or the configuration's `runtime-max-steps`]
    #[arg(long, value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..))]
    runtime_max_steps: Option<u64>,
    /// List covering runs only while the steps they spell out add up to at most N (steps
    /// shared with an earlier run are not spelled out again); the rest are counted in a
    /// closing line (JSON: `omitted`).
    #[arg(long, value_name = "N", default_value_t = MAX_STEPS_LISTED)]
    max_steps_listed: usize,
}

/// The default of `--max-steps-listed`: a CI log's worth of runs.
pub(crate) const MAX_STEPS_LISTED: usize = 2_000;

pub(super) fn run(g: &Global, a: &PathsArgs) -> Result<ExitCode> {
    refuse_unused_stdin_name(g, [a.input.as_path()])?;
    refuse_input_as_output(a.output.as_deref(), [a.input.as_path()])?;
    let Some(mut l) = load_valid(g, &a.input, a.from)? else {
        return Ok(ExitCode::from(EXIT_PROBLEMS));
    };
    // The diagnostics are reported: the source and its located tree are not read again,
    // and their memory serves the runs.
    l.doc = None;
    let Some((spec, info)) = l.valid() else {
        return Ok(ExitCode::from(EXIT_PROBLEMS));
    };
    let rt = Runtime {
        max_steps: (a.runtime_max_steps)
            .or(g.settings.runtime_max_steps)
            .unwrap_or(RUNTIME_MAX_STEPS),
    };
    let options = p::Options {
        max_steps_listed: a.max_steps_listed,
        ..p::Options::default()
    };
    let found = p::plan(spec, info, rt, options);
    let json = matches!(g.format, MessageFormat::Json);
    // Each covering run is built and written as it comes: none is held.
    emit_streamed(a.output.as_deref(), |w| {
        if json {
            serde_json::to_writer_pretty(&mut *w, &found)?;
            w.write_all(b"\n")?;
        } else {
            write_text(w, &found, a.max_steps_listed)?;
        }
        Ok(())
    })?
    .report(g);
    Ok(ExitCode::SUCCESS)
}

/// A run on one line: `a --x--> [approve c] b --y--> $end`; the failures of one phase
/// execution as one group: `a !! tool failure: retry 1 of 2, fail_phase !! phase failure:
/// abort`. Steps shared with an earlier run: `(as run 3) b --y--> …` begins as run 3 does
/// up to the first `b` it spells out; `… --y--> c (then as run 2)` ends as run 2 does
/// after the last `c` it spells out (a checkpoint: `[c]`).
fn run_line(r: &Run) -> String {
    let mut s = String::new();
    if let Some(shared) = &r.shared_prefix {
        s.push_str(&format!("(as run {}) ", shared.run));
    }
    s.push_str(&steps_text(&r.steps, None));
    run_end(&mut s, r);
    over_the_limit(&mut s, r);
    s
}

/// The mark of a run longer than the effective `max_steps` (JSON's `fits_max_steps:
/// false`): the harness stops it before its end, so `walk` of it ends `limit_reached`.
fn over_the_limit(s: &mut String, r: &Run) {
    if !r.fits_max_steps {
        s.push_str(&format!(
            "  [over max_steps: {}, so the harness stops it first: limit_reached]",
            count(r.phase_steps, "step", "steps")
        ));
    }
}

/// A shortest run, whose steps are not bounded by the covering runs' listing: one longer
/// than `bound` steps shows its first and last `bound / 2` with the count between (a run
/// through a 10,000-phase chain was one line of 200 KB).
fn shortest_line(r: &Run, bound: usize) -> String {
    let n = r.steps.len();
    let keep = (bound / 2).max(1);
    if n <= bound.max(2) {
        return run_line(r);
    }
    let (head, tail) = (&r.steps[..keep], &r.steps[n - keep..]);
    let mut s = steps_text(head, None);
    s.push_str(&format!(
        "… {} not shown (pass `--max-steps-listed {n}` to spell it out) … ",
        count(n - 2 * keep, "step", "steps")
    ));
    s.push_str(&steps_text(tail, head.last()));
    run_end(&mut s, r);
    over_the_limit(&mut s, r);
    s
}

/// The steps of a run as text, `prev` the step before the first (for a failure group).
fn steps_text<'a>(steps: &'a [Step], mut prev: Option<&'a Step>) -> String {
    let mut s = String::new();
    for step in steps {
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
    s
}

/// One step alone, as a run writes it, with where it goes: `eval --no-go--> act`,
/// `[approve deploy] ship`.
fn step_line(step: &Step) -> String {
    let text = steps_text(std::slice::from_ref(step), None);
    match step {
        Step::Phase { to, .. } | Step::Checkpoint { to, .. } => format!("{text}{to}"),
        Step::Failure { .. } => text.trim_end().to_owned(),
    }
}

/// How a run ends: the terminal, the run it ends as, or its status.
fn run_end(s: &mut String, r: &Run) {
    match (&r.shared_suffix, &r.terminal) {
        (Some(shared), _) => {
            let at = match &shared.at {
                Junction::Phase(id) => id.clone(),
                Junction::Checkpoint(id) => format!("[{id}]"),
            };
            s.push_str(&format!("{at} (then as run {})", shared.run));
        }
        (None, Some(t)) => s.push_str(t),
        (None, None) => s.push_str(&format!("(run {})", r.status.as_str())),
    }
}

/// Write a line read by people: without the characters `text::lines` drops.
fn line(w: &mut dyn Write, text: &str) -> std::io::Result<()> {
    w.write_all(loopconv::text::lines(text).as_bytes())
}

fn write_text(w: &mut dyn Write, found: &p::Listing, bound: usize) -> std::io::Result<()> {
    line(w, "shortest runs:\n")?;
    for r in &found.shortest {
        line(
            w,
            &format!(
                "  {:<9} {}: {}\n",
                r.terminal.as_deref().unwrap_or_default(),
                count(r.phase_steps, "step", "steps"),
                shortest_line(r, bound)
            ),
        )?;
    }
    line(
        w,
        &format!(
            "covering runs ({}, {} of {} transitions and decisions):\n",
            count(found.runs(), "run", "runs"),
            found.covered,
            found.total
        ),
    )?;
    for (i, r) in found.cover().enumerate() {
        line(w, &format!("  {:>2}. {}\n", i + 1, run_line(&r)))?;
    }
    if found.omitted.runs > 0 {
        line(
            w,
            &format!(
                "  … {} ({}) not listed: pass `--max-steps-listed {}` to list them all\n",
                count(found.omitted.runs, "more run", "more runs"),
                count(found.omitted.steps, "step", "steps"),
                found.omitted.bound_for_all
            ),
        )?;
    }
    if !found.failures.is_empty() {
        line(
            w,
            "failure runs (as the error policy, or the harness default, ends them):\n",
        )?;
        for (i, r) in found.failures.iter().enumerate() {
            line(w, &format!("  {:>2}. {}\n", i + 1, run_line(r)))?;
        }
    }
    if !found.uncovered.is_empty() {
        line(w, "not coverable:\n")?;
        for u in &found.uncovered {
            line(w, &format!("  {}: {}\n", step_line(&u.step), u.reason))?;
        }
    }
    Ok(())
}
