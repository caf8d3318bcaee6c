//! `loopconv paths`: test paths through a loop.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;

use loopconv::Format;

use super::io::emit;
use super::report::{load_valid, plural};
use super::{EXIT_PROBLEMS, Global, MessageFormat};

use loopconv::analysis::paths::{self as p, Path as Run};

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
}

pub(super) fn run(g: &Global, a: &PathsArgs) -> Result<ExitCode> {
    let Some(l) = load_valid(g, &a.input, a.from)? else {
        return Ok(ExitCode::from(EXIT_PROBLEMS));
    };
    let Some((spec, info)) = l.valid() else {
        return Ok(ExitCode::from(EXIT_PROBLEMS));
    };
    let found = p::paths(spec, info);
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

fn run_line(r: &Run) -> String {
    let mut s = String::new();
    for step in &r.steps {
        match step {
            loopconv::analysis::Step::Phase { phase, outcome, .. } => {
                s.push_str(&format!("{phase} --{outcome}--> "));
            }
            loopconv::analysis::Step::Checkpoint {
                checkpoint,
                decision,
                ..
            } => s.push_str(&format!("[{} {checkpoint}] ", decision.as_str())),
        }
    }
    s.push_str(&r.terminal);
    s
}

fn paths_text(found: &p::Paths) -> String {
    let mut s = String::from("shortest runs:\n");
    for r in &found.shortest {
        s.push_str(&format!(
            "  {:<9} {} step{}: {}\n",
            r.terminal,
            r.phase_steps,
            plural(r.phase_steps),
            run_line(r)
        ));
    }
    s.push_str(&format!(
        "covering runs ({} run{}, {} of {} transitions and decisions):\n",
        found.cover.len(),
        plural(found.cover.len()),
        found.covered,
        found.total
    ));
    for (i, r) in found.cover.iter().enumerate() {
        s.push_str(&format!("  {:>2}. {}\n", i + 1, run_line(r)));
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
