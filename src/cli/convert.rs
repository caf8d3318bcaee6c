//! `loopconv convert`: one file, or a folder mirrored all-or-none.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Result, bail};
use clap::Args;

use loopconv::back;
use loopconv::back::xstate::ModuleLanguage;
use loopconv::{Format, Loaded, Target};

use super::io::{
    Inputs, emit, expand, folder_pool, is_stdio, map_on_readers, refuse_input_as_output,
    refuse_unused_stdin_name, same_file, write_all_atomic,
};
use super::report::{
    errors_in_brief, first_then_rest, left_out_not_a_loop, load_document, load_file,
    mark_collisions, output_taken, plural, report_loaded, summary,
};
use super::{EXIT_PROBLEMS, Global, SearchArgs};

#[derive(Debug, Args)]
pub(super) struct ConvertArgs {
    #[command(flatten)]
    pub(super) g: Global,
    #[command(flatten)]
    pub(super) search: SearchArgs,
    /// Input file or folder (`-` for standard input).
    #[arg(value_name = "INPUT")]
    pub(super) input: PathBuf,
    /// Target: a loop format, or `langgraph` (a Python module that runs the loop).
    #[arg(long, short = 't', value_enum, value_name = "FORMAT")]
    to: ConvertTo,
    /// Output file or folder (`-` or absent: standard output; required for a folder). An
    /// existing output is replaced, atomically: it is generated, and made again by the same
    /// command (never the input: see `--in-place`).
    #[arg(long, short = 'o', value_name = "PATH")]
    output: Option<PathBuf>,
    /// Input format.
    #[arg(
        long,
        short = 'f',
        value_enum,
        value_name = "FORMAT",
        help_heading = "Input"
    )]
    from: Option<Format>,
    /// MAS `actor` for a loop that does not name one.
    #[arg(long, value_name = "AGENT")]
    actor: Option<String>,
    /// MAS `validator` for a VEAL loop that does not name one.
    #[arg(long, value_name = "AGENT")]
    validator: Option<String>,
    /// MAS `fallback_agent`: escalation to `$handoff` becomes `fallback` to this agent.
    #[arg(long, value_name = "AGENT")]
    fallback_agent: Option<String>,
    /// AgentPM `version` for a loop that has none (default 0.1.0).
    #[arg(long = "set-version", value_name = "VERSION")]
    pkg_version: Option<String>,
    /// Allow the output path to be the input path.
    #[arg(long)]
    in_place: bool,
    /// With `--to xstate`: write the machine as a JavaScript or TypeScript module
    /// (`createMachine({...})`), for Stately's "Import from code".
    #[arg(long, value_enum, value_name = "LANGUAGE")]
    module: Option<ModuleLanguage>,
    /// Converting a folder: write every file that converts even when others fail; those
    /// are left out and listed with why, and the exit code is 1. Without it, one failure
    /// means no file is written.
    #[arg(long)]
    keep_going: bool,
}

/// What `--to` takes: [`Target::CONVERTED`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct ConvertTo(pub(super) Target);

impl clap::ValueEnum for ConvertTo {
    fn value_variants<'a>() -> &'a [Self] {
        const ALL: [ConvertTo; Target::CONVERTED.len()] = {
            let mut all = [ConvertTo(Target::LangGraph); Target::CONVERTED.len()];
            let mut i = 0;
            while i < all.len() {
                all[i] = ConvertTo(Target::CONVERTED[i]);
                i += 1;
            }
            all
        };
        &ALL
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.0.name()))
    }
}

pub(super) fn convert_opts(a: &ConvertArgs) -> back::Options {
    back::Options {
        allow_lossy: a.g.allow_lossy,
        actor: a.actor.clone(),
        validator: a.validator.clone(),
        fallback_agent: a.fallback_agent.clone(),
        version: a.pkg_version.clone(),
        ..back::Options::default()
    }
}

/// Convert one loaded file; `None` when it cannot be converted (diagnostics say why).
pub(crate) fn convert_loaded(
    l: &mut Loaded,
    to: Target,
    opts: &back::Options,
    module: Option<ModuleLanguage>,
) -> Result<Option<String>> {
    if l.valid().is_none() {
        return Ok(None);
    }
    let (Some(spec), Some(info)) = (&l.spec, &l.info) else {
        return Ok(None);
    };
    let mut text = loopconv::write(to, spec, info, opts, &mut l.diags)?;
    if let Some(language) = module {
        text = back::xstate::module(&text, language);
    }
    l.locate();
    l.diags.sort();
    Ok((!l.diags.has_errors()).then_some(text))
}

pub(super) fn run(g: &Global, a: &ConvertArgs) -> Result<ExitCode> {
    refuse_unused_stdin_name(g, [a.input.as_path()])?;
    let to = a.to.0;
    let opts = convert_opts(a);
    if a.module.is_some() && to != Target::Loop(Format::Xstate) {
        bail!("--module writes an XState machine as code: it needs --to xstate");
    }
    if !is_stdio(&a.input) && a.input.is_dir() {
        return convert_folder(g, a, to, &opts);
    }
    if !a.in_place {
        refuse_input_as_output(a.output.as_deref(), [a.input.as_path()])
            .map_err(|e| anyhow::anyhow!("{e} (pass --in-place to allow)"))?;
    }
    let mut l = load_file(g, &a.input, a.from)?;
    let text = convert_loaded(&mut l, to, &opts, a.module)?;
    if g.strict {
        l.diags.make_strict();
    }
    report_loaded(g, &l);
    match text {
        Some(t) if !l.diags.has_errors() => {
            emit(a.output.as_deref(), &t)?.report(g);
            Ok(ExitCode::SUCCESS)
        }
        _ => {
            let lossy = l.diags.items().iter().any(|d| d.code.is_loss());
            summary(
                g,
                format_args!(
                    "converted nothing: nothing was written{}",
                    if lossy && !a.g.allow_lossy {
                        " (pass --allow-lossy to write the output anyway, with these losses as warnings)"
                    } else {
                        ""
                    }
                ),
            );
            Ok(ExitCode::from(EXIT_PROBLEMS))
        }
    }
}

/// One file of a folder conversion: the source, what loading it found, the converted text
/// and where it goes (`None` when it failed).
type Converted<'a> = (&'a PathBuf, Loaded, Option<String>, Option<PathBuf>);

/// Convert every file of a folder before reporting any, so that a name collision is
/// reported with the file that collides.
/// A file converted, or left out as a document that uses loops (and what it is).
type LeftOut<'a> = std::result::Result<Converted<'a>, (&'a PathBuf, loopconv::format::DocKind)>;

fn convert_each<'a>(
    g: &Global,
    a: &ConvertArgs,
    files: &'a [PathBuf],
    out: &Path,
    opts: &back::Options,
) -> Result<Vec<Converted<'a>>> {
    // Converted in parallel, kept in input order; the first failure in that order stops it.
    // A document that uses loops (a team, an Agent manifest) is no loop to convert: left
    // out, and said so.
    let converted = map_on_readers(&folder_pool()?, files, |f| -> Result<LeftOut<'a>> {
        let mut l = load_document(g, f, a.from, true)?;
        if let Some(kind) = l
            .kind
            .filter(|k| !matches!(k, loopconv::format::DocKind::Loop(_)))
        {
            return Ok(Err((f, kind)));
        }
        let text = convert_loaded(&mut l, a.to.0, opts, a.module)?;
        if g.strict {
            l.diags.make_strict();
        }
        let dest = match (&text, &l.spec) {
            (Some(_), Some(spec)) if !l.diags.has_errors() => {
                let dest = mirrored(&a.input, f, out, a.to.0, &spec.name);
                Some(match a.module {
                    Some(language) => dest.with_extension(language.extension()),
                    None => dest,
                })
            }
            _ => None,
        };
        Ok(Ok((f, l, text, dest)))
    });
    let mut out = Vec::with_capacity(files.len());
    for c in converted {
        match c? {
            Ok(c) => out.push(c),
            Err((f, kind)) => left_out_not_a_loop(g, &f.display().to_string(), kind),
        }
    }
    Ok(out)
}

/// Why a file of a folder conversion was left out: its errors in brief, or that its
/// output is another file's.
fn first_error(l: &Loaded) -> String {
    errors_in_brief(l).unwrap_or_else(|| "its output is another file's".to_owned())
}

/// Where a converted file goes in the mirrored output folder.
pub(super) fn mirrored(root: &Path, file: &Path, out: &Path, to: Target, name: &str) -> PathBuf {
    let rel = file.strip_prefix(root).unwrap_or(file);
    let mut dir = rel.parent().map(Path::to_path_buf).unwrap_or_default();
    // An AgentPM package folder (`pkg/agent.json`) is replaced by the new file or folder.
    let name_of = |f: Format| {
        rel.file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| f.is_package_file(n))
    };
    if Format::ALL.into_iter().any(name_of) {
        dir = dir.parent().map(Path::to_path_buf).unwrap_or_default();
    }
    out.join(dir).join(to.file_in_folder(name))
}

/// Where the folder `out` is within the folder `input`, as a path relative to it, when it
/// is one of its subfolders and exists: the files of an earlier conversion there are not
/// inputs (converting `dir` into `dir/out` again read them back and wrote `dir/out/out`).
fn folder_within(input: &Path, out: &Path) -> Option<PathBuf> {
    let (input, out) = (input.canonicalize().ok()?, out.canonicalize().ok()?);
    let inside = out.strip_prefix(&input).ok()?;
    (!inside.as_os_str().is_empty()).then(|| inside.to_path_buf())
}

/// The loop files of the folder to convert, and those left out because they are in the
/// output folder within it (an earlier conversion's: converting `dir` into `dir/out`
/// again read them back and wrote `dir/out/out`).
fn inputs_of_folder(a: &ConvertArgs, out: &Path) -> Result<(Vec<PathBuf>, Vec<PathBuf>)> {
    let mut files = expand(std::slice::from_ref(&a.input), &a.search)?;
    let Some(inside) = folder_within(&a.input, out) else {
        return Ok((files, Vec::new()));
    };
    let in_output = |f: &PathBuf| {
        f.strip_prefix(&a.input)
            .is_ok_and(|r| r.starts_with(&inside))
    };
    let left_out = files.iter().filter(|f| in_output(f)).cloned().collect();
    files.retain(|f| !in_output(f));
    Ok((files, left_out))
}

/// The files a folder conversion reads and those it leaves out, as [`Inputs`], found once
/// and only when a destination exists (a `stat` per file).
struct InputSets<'a> {
    files: &'a [PathBuf],
    left_out: &'a [PathBuf],
    converted: std::cell::OnceCell<Inputs>,
    left_out_ids: std::cell::OnceCell<Inputs>,
}

impl<'a> InputSets<'a> {
    fn new(files: &'a [PathBuf], left_out: &'a [PathBuf]) -> Self {
        InputSets {
            files,
            left_out,
            converted: std::cell::OnceCell::new(),
            left_out_ids: std::cell::OnceCell::new(),
        }
    }

    fn converted(&self) -> &Inputs {
        (self.converted).get_or_init(|| Inputs::of(self.files.iter().map(PathBuf::as_path)))
    }

    fn left_out(&self) -> &Inputs {
        (self.left_out_ids).get_or_init(|| Inputs::of(self.left_out.iter().map(PathBuf::as_path)))
    }
}

/// Whether writing the conversion of `f` (loaded as `l`) to the existing `dest` would
/// replace another loop of the folder: another file being converted, or a file left out of
/// the inputs because it is in the output folder, unless it holds the same loop (an
/// earlier conversion's output). `Some((taken, note))` for its `B006`. `f` itself is
/// replaced only under `--in-place` (else a usage error).
fn replaced_input(
    a: &ConvertArgs,
    f: &Path,
    l: &Loaded,
    dest: &Path,
    inputs: &InputSets,
) -> Result<Option<(String, String)>> {
    if same_file(f, dest) {
        if a.in_place {
            return Ok(None);
        }
        bail!(
            "{} would overwrite its input (pass --in-place to allow)",
            dest.display()
        );
    }
    if inputs.converted().contains(dest) {
        return Ok(Some((
            "which is another input file of the folder".to_owned(),
            "under --in-place each file may replace only itself".to_owned(),
        )));
    }
    if inputs.left_out().contains(dest) {
        let name = |l: &Loaded| l.spec.as_ref().map(|s| s.name.clone());
        let there = loopconv::load(
            &dest.display().to_string(),
            &std::fs::read(dest).unwrap_or_default(),
            &loopconv::LoadOptions::default(),
        );
        if name(&there) != name(l) {
            let other =
                name(&there).map_or_else(|| "no loop".to_owned(), |n| format!("loop `{n}`"));
            return Ok(Some((
                format!("which holds {other}"),
                format!(
                    "{} is in the output folder, so it is no input of this conversion, but it is a loop file of the folder",
                    dest.display()
                ),
            )));
        }
    }
    Ok(None)
}

pub(super) fn convert_folder(
    g: &Global,
    a: &ConvertArgs,
    to: Target,
    opts: &back::Options,
) -> Result<ExitCode> {
    let Some(out) = a.output.as_deref().filter(|o| !is_stdio(o)) else {
        bail!("converting a folder needs an output folder: pass -o DIR");
    };
    if same_file(&a.input, out) && !a.in_place {
        bail!(
            "the output folder is the input folder; refusing to write into it (pass --in-place to allow)"
        );
    }
    let (files, left_out) = inputs_of_folder(a, out)?;
    let mut results = convert_each(g, a, &files, out, opts)?;
    let inputs = InputSets::new(&files, &left_out);
    let mut dests: Vec<(String, &mut Loaded, Option<String>)> = (results.iter_mut())
        .map(|(f, l, _, d)| {
            let dest = d.as_ref().map(|d| d.display().to_string());
            (f.display().to_string(), l, dest)
        })
        .collect();
    let mut first = mark_collisions(&mut dests, "file", &[]);
    drop(dests);
    // A destination that exists may be a loop of the folder (only one that exists can).
    let collided: std::collections::HashSet<usize> = first.iter().copied().collect();
    for (i, (f, l, text, dest)) in results.iter_mut().enumerate() {
        let (Some(_), Some(dest)) = (text, dest) else {
            continue;
        };
        if collided.contains(&i) || !dest.exists() {
            continue;
        }
        if let Some((taken, note)) = replaced_input(a, f, l, dest, &inputs)? {
            output_taken(l, "file", &dest.display().to_string(), &taken, note);
            first.push(i);
        }
    }
    // The files that cannot be written first, then each file's report in order.
    for i in first_then_rest(&first, results.len()) {
        report_loaded(g, &results[i].1);
    }
    let mut planned: Vec<(PathBuf, String)> = Vec::new();
    let mut planned_dests = std::collections::HashSet::new();
    let (mut ok, mut lossy, mut failed) = (Vec::new(), Vec::new(), Vec::new());
    let mut why = Vec::new();
    for (f, l, text, dest) in results {
        let (Some(t), Some(dest)) = (text, dest) else {
            failed.push(f.display().to_string());
            why.push(format!("{}: {}", f.display(), first_error(&l)));
            continue;
        };
        if l.diags.has_errors() || !planned_dests.insert(dest.clone()) {
            failed.push(f.display().to_string());
            why.push(format!("{}: {}", f.display(), first_error(&l)));
            continue;
        }
        if l.diags.items().iter().any(|d| d.code.is_loss()) {
            lossy.push(f.display().to_string());
        }
        ok.push(f.display().to_string());
        planned.push((dest, t));
    }
    if !failed.is_empty() && a.keep_going {
        write_all_atomic(Some(out), &planned)?.report(g);
        summary(
            g,
            format_args!(
                "converted {} of {} file{} to {} in {}; left out {}:",
                ok.len(),
                files.len(),
                plural(files.len()),
                to.name(),
                out.display(),
                failed.len()
            ),
        );
        for w in &why {
            summary(g, format_args!("  {w}"));
        }
        return Ok(ExitCode::from(EXIT_PROBLEMS));
    }
    if !failed.is_empty() {
        summary(
            g,
            format_args!(
                "converted nothing: {} of {} file{} failed ({}); no file was written",
                failed.len(),
                files.len(),
                plural(files.len()),
                failed.join(", ")
            ),
        );
        return Ok(ExitCode::from(EXIT_PROBLEMS));
    }
    write_all_atomic(Some(out), &planned)?.report(g);
    converted_summary(g, &ok, &lossy, to, out, &left_out);
    Ok(ExitCode::SUCCESS)
}

/// The last line of a folder conversion: what was converted, what was lossy, and the
/// files of the output folder left out of the inputs.
fn converted_summary(
    g: &Global,
    ok: &[String],
    lossy: &[String],
    to: Target,
    out: &Path,
    left_out: &[PathBuf],
) {
    summary(
        g,
        format_args!(
            "converted {} file{} to {} in {} ({} lossy{}){}",
            ok.len(),
            plural(ok.len()),
            to.name(),
            out.display(),
            lossy.len(),
            if lossy.is_empty() {
                String::new()
            } else {
                format!(": {}", lossy.join(", "))
            },
            if left_out.is_empty() {
                String::new()
            } else {
                format!(
                    "; {} file{} already in {} left out of the inputs",
                    left_out.len(),
                    plural(left_out.len()),
                    out.display()
                )
            }
        ),
    );
}
