//! `loopconv new`.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Result, bail};
use clap::Args;

use loopconv::back;
use loopconv::diag::{self, Diagnostics};
use loopconv::{Format, LoadOptions, Target};

use super::io::{emit, is_stdio};
use super::report::{eprintln, report};
use super::{EXIT_PROBLEMS, Global, Options};

use loopconv::scaffold::{Archetype, scaffold};

#[derive(Debug, Args)]
pub(super) struct NewArgs {
    /// How diagnostics are shown ([`Options`]): `new` reads no input.
    #[command(flatten)]
    pub(super) g: Options,
    /// The loop pattern.
    #[arg(long, value_enum)]
    archetype: Archetype,
    /// The loop's name (lowercase kebab-case, at most 64 characters).
    #[arg(long)]
    name: String,
    /// Write it in another format (only where the conversion is exact; default: AgentPM
    /// for the graph archetypes, multi-agent-spec for VEAL and REAL).
    #[arg(long, value_enum)]
    to: Option<Format>,
    /// Output file (default: standard output). An existing file is kept unless `--force`:
    /// a new loop is a source to edit, not generated output that the command makes again.
    #[arg(long, short = 'o')]
    output: Option<PathBuf>,
    /// Overwrite an existing output file.
    #[arg(long)]
    force: bool,
}

/// What `new` makes: the scaffold in the format asked for, or the losses that keep it
/// from being written in that format.
pub(crate) enum Made {
    Text(String),
    Lossy(Diagnostics),
}

/// The scaffold of `archetype` named `name`, in `to` (its native format when `None`).
/// `new` and the MCP server's `new` tool both make it here.
pub(crate) fn make(archetype: Archetype, name: &str, to: Option<Format>) -> Result<Made> {
    let Some(text) = scaffold(archetype, name) else {
        bail!(
            "`--name {name}`: a loop name is lowercase kebab-case: a letter, then letters, digits and hyphens, at most 64 characters"
        );
    };
    let native = archetype.format();
    let shown = format!("<{} scaffold>", archetype.name());
    let l = loopconv::load(
        &shown,
        text.as_bytes(),
        &LoadOptions {
            from: Some(native),
            ..LoadOptions::default()
        },
    );
    let Some((spec, info)) = l.valid() else {
        bail!(
            "the {} scaffold does not validate (a loopconv bug): {}",
            archetype.name(),
            diag::render_human(l.diags.items(), l.text(), false)
        );
    };
    let target = to.unwrap_or(native);
    if target == native {
        return Ok(Made::Text(text));
    }
    let mut diags = Diagnostics::new(&shown);
    let out = loopconv::write(
        Target::Loop(target),
        spec,
        info,
        &back::Options::default(),
        &mut diags,
    );
    if diags.has_errors() {
        return Ok(Made::Lossy(without_flag_help(diags, &shown)));
    }
    Ok(Made::Text(out?))
}

pub(super) fn run(g: &Global, a: &NewArgs) -> Result<ExitCode> {
    let made = make(a.archetype, &a.name, a.to)?;
    if let Some(out) = &a.output
        && !is_stdio(out)
        && out.exists()
        && !a.force
    {
        bail!("{} exists; pass --force to overwrite it", out.display());
    }
    match made {
        Made::Text(text) => {
            emit(a.output.as_deref(), &text)?.report(g);
            Ok(ExitCode::SUCCESS)
        }
        Made::Lossy(losses) => {
            report(g, &losses, None);
            let native = a.archetype.format();
            eprintln!(
                "the {} scaffold cannot be written as {} without losing data; write it as {} and convert it with `loopconv convert --allow-lossy`",
                a.archetype.name(),
                a.to.unwrap_or(native).name(),
                native.name()
            );
            Ok(ExitCode::from(EXIT_PROBLEMS))
        }
    }
}

/// The losses of writing a scaffold in another format, without their help lines: those
/// name `convert`'s flags (`--allow-lossy`, `--actor`), which `new` does not take; the
/// closing line says how to go on instead.
fn without_flag_help(diags: Diagnostics, name: &str) -> Diagnostics {
    let mut out = Diagnostics::new(name);
    for mut d in diags.into_items() {
        d.help = None;
        d.suggestions.clear();
        out.push(d);
    }
    out
}
