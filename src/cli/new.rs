//! `loopconv new`.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Result, bail};
use clap::Args;

use loopconv::back;
use loopconv::diag::Diagnostics;
use loopconv::{Format, LoadOptions, Target};

use super::io::{emit, is_stdio};
use super::report::{eprintln, report, report_loaded};
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
    /// Output file (default: standard output). An existing file is kept unless `--force`.
    #[arg(long, short = 'o')]
    output: Option<PathBuf>,
    /// Overwrite an existing output file.
    #[arg(long)]
    force: bool,
}

pub(super) fn run(g: &Global, a: &NewArgs) -> Result<ExitCode> {
    let Some(text) = scaffold(a.archetype, &a.name) else {
        bail!(
            "`--name {}`: a loop name is lowercase kebab-case: a letter, then letters, digits and hyphens, at most 64 characters",
            a.name
        );
    };
    if let Some(out) = &a.output
        && !is_stdio(out)
        && out.exists()
        && !a.force
    {
        bail!("{} exists; pass --force to overwrite it", out.display());
    }
    let native = a.archetype.format();
    let name = format!("<{} scaffold>", a.archetype.name());
    let l = loopconv::load(
        &name,
        text.as_bytes(),
        &LoadOptions {
            from: Some(native),
            ..LoadOptions::default()
        },
    );
    let Some((spec, info)) = l.valid() else {
        report_loaded(g, &l);
        bail!(
            "the {} scaffold does not validate (a loopconv bug)",
            a.archetype.name()
        );
    };
    let target = a.to.unwrap_or(native);
    if target == native {
        emit(a.output.as_deref(), &text)?.report(g);
        return Ok(ExitCode::SUCCESS);
    }
    let mut diags = Diagnostics::new(&name);
    let out = loopconv::write(
        Target::Loop(target),
        spec,
        info,
        &back::Options::default(),
        &mut diags,
    );
    if diags.has_errors() {
        report(g, &without_flag_help(diags, &name), None);
        eprintln!(
            "the {} scaffold cannot be written as {} without losing data; write it as {} and convert it with `loopconv convert --allow-lossy`",
            a.archetype.name(),
            target.name(),
            native.name()
        );
        return Ok(ExitCode::from(EXIT_PROBLEMS));
    }
    emit(a.output.as_deref(), &out?)?.report(g);
    Ok(ExitCode::SUCCESS)
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
