//! The work of each tool, on a blocking thread: the library's pipeline, as the command of
//! the same name runs it.

use std::path::{Path, PathBuf};

use rmcp::model::CallToolResult;
use serde::Serialize;

use loopconv::analysis::Runtime;
use loopconv::format::DocKind;
use loopconv::ir::Spec;
use loopconv::valid::Info;
use loopconv::{Format, Loaded, Target, back, diag};

use super::files::Roots;
use super::types::{
    CheckOut, ConvertOut, Diagnostics, DiffOut, GraphOut, Object, PathsOut, SchemaOut, WalkOut,
    object,
};
use super::{Input, Source, answer, diagnostics_of, load, refused};
use crate::cli::Global;

pub(super) fn check_work(input: Input, g: &Global, roots: &Roots) -> CallToolResult {
    let (files, all) = match input.source {
        // Files and folders as `check` reads them, with the workspace around them when it
        // lies inside the roots (the nearest `specs/` folder may be above them: its files
        // are not read then, as under `check --no-workspace`).
        Source::Path(path) => {
            let workspace = crate::cli::project::workspace_of(&path)
                .is_some_and(|w| roots.readable(&w.to_string_lossy()).is_ok());
            match crate::cli::check::diagnostics(g, vec![path], input.from, workspace) {
                Ok(found) => found,
                Err(e) => return refused(format!("{e:#}")),
            }
        }
        text => match load(text, input.from, g) {
            Ok(l) => (1, l.diags.into_items()),
            Err(e) => return refused(e),
        },
    };
    let diagnostics = diagnostics_of(&all);
    let ok = diagnostics.errors == 0;
    answer(
        &CheckOut {
            ok,
            files,
            diagnostics,
        },
        !ok,
    )
}

/// Run a tool's `work` on its loop: a mistake in the call (an unreadable input) refused,
/// a loop with errors answered with its diagnostics, a valid one given to `work` with the
/// tool's output made so far (by `empty`, holding the diagnostics).
fn with_valid<T: Serialize>(
    input: Input,
    g: &Global,
    empty: impl FnOnce(Diagnostics) -> T,
    work: impl FnOnce(&Loaded, &Spec, &Info, T) -> CallToolResult,
) -> CallToolResult {
    match load(input.source, input.from, g) {
        Ok(l) => with_loaded(&l, empty, work),
        Err(e) => refused(e),
    }
}

/// [`with_valid`] of a loop already read.
fn with_loaded<T: Serialize>(
    l: &Loaded,
    empty: impl FnOnce(Diagnostics) -> T,
    work: impl FnOnce(&Loaded, &Spec, &Info, T) -> CallToolResult,
) -> CallToolResult {
    let out = empty(diagnostics_of(l.diags.items()));
    match l.valid() {
        Some((spec, info)) => work(l, spec, info, out),
        None => answer(&out, true),
    }
}

/// What the `graph` tool draws, as `loopconv graph` draws it: a loop, or from a path, a
/// multi-agent-spec team's workflow with its loops, or an AgentPM Agent's loop marked
/// with its bindings. A team's loops and an Agent's are found in its workspace when that
/// lies inside the roots (as `check` reads it); otherwise a team's loops are drawn as
/// boxes, and an Agent's loop does not resolve.
pub(super) struct GraphJob {
    pub(super) input: Input,
    pub(super) language: Target,
    pub(super) style: Option<back::mermaid::Style>,
    pub(super) roots: Roots,
}

pub(super) fn graph_work(job: GraphJob, g: &Global) -> CallToolResult {
    let GraphJob {
        input,
        language,
        style,
        roots,
    } = job;
    let l = match input.source {
        Source::Path(path) => {
            let l = match crate::cli::report::load_document(g, &path, input.from, true) {
                Ok(l) => l,
                Err(e) => return refused(format!("{e:#}")),
            };
            let context: Vec<PathBuf> = crate::cli::project::workspace_of(&path)
                .filter(|w| roots.readable(&w.to_string_lossy()).is_ok())
                .into_iter()
                .collect();
            let documents = Documents {
                path: &path,
                context: &context,
                language,
                style,
            };
            match l.kind {
                Some(DocKind::MasTeam) => return documents.team(l, g),
                Some(DocKind::AgentpmAgent) => return documents.agent(l, g),
                Some(DocKind::Loop(_)) | None => l,
                // Refused as what it is (`P015`), as by `loopconv graph`.
                Some(_) => match load(Source::Path(path), input.from, g) {
                    Ok(l) => l,
                    Err(e) => return refused(e),
                },
            }
        }
        text => match load(text, input.from, g) {
            Ok(l) => l,
            Err(e) => return refused(e),
        },
    };
    let style = style.unwrap_or(back::mermaid::Style::Flowchart);
    with_loaded(
        &l,
        |d| graph_out(language, d),
        |l, spec, info, out| {
            let opts = back::Options {
                style,
                ..back::Options::default()
            };
            drawn(l, spec, info, &opts, language, out)
        },
    )
}

fn graph_out(language: Target, d: Diagnostics) -> GraphOut {
    GraphOut {
        language: language.name().to_owned(),
        diagram: None,
        diagnostics: d,
    }
}

/// The drawing of a valid loop, in `out`.
fn drawn(
    l: &Loaded,
    spec: &Spec,
    info: &Info,
    opts: &back::Options,
    language: Target,
    mut out: GraphOut,
) -> CallToolResult {
    let mut diags = diag::Diagnostics::new(l.diags.file());
    match loopconv::write(language, spec, info, opts, &mut diags) {
        Ok(text) => {
            out.diagram = Some(text);
            answer(&out, false)
        }
        Err(e) => refused(format!("drawing: {e}")),
    }
}

/// A team or an Agent manifest to draw from its file.
struct Documents<'a> {
    path: &'a Path,
    context: &'a [PathBuf],
    language: Target,
    style: Option<back::mermaid::Style>,
}

impl Documents<'_> {
    fn team(&self, l: Loaded, g: &Global) -> CallToolResult {
        let language = match crate::cli::graph::team_language(self.language, self.style) {
            Ok(language) => language,
            Err(_) => {
                return refused("a team is drawn as a Mermaid flowchart: drop `style: state`");
            }
        };
        let team = crate::cli::graph::Team {
            input: self.path,
            context: self.context,
            language,
            collapse_loops: false,
        };
        let mut seen = Vec::new();
        let drawn = team.draw(g, l, &mut |l| seen.extend_from_slice(l.diags.items()));
        let mut out = graph_out(self.language, diagnostics_of(&seen));
        match drawn {
            Ok(Some(text)) => {
                out.diagram = Some(text);
                answer(&out, false)
            }
            Ok(None) => answer(&out, true),
            Err(e) => refused(format!("{e:#}")),
        }
    }

    fn agent(&self, l: Loaded, g: &Global) -> CallToolResult {
        let mut seen = Vec::new();
        let found = crate::cli::graph::agent_loop(g, self.path, self.context, l, &mut |l| {
            seen.extend_from_slice(l.diags.items());
        });
        let out = graph_out(self.language, diagnostics_of(&seen));
        let (lp, view) = match found {
            Ok(Some(found)) => found,
            Ok(None) => return answer(&out, true),
            Err(e) => return refused(format!("{e:#}")),
        };
        let Some((spec, info)) = lp.valid() else {
            return answer(&out, true);
        };
        let opts = back::Options {
            style: self.style.unwrap_or(back::mermaid::Style::Flowchart),
            agent: Some(view),
            ..back::Options::default()
        };
        drawn(&lp, spec, info, &opts, self.language, out)
    }
}

pub(super) struct ConvertJob {
    pub(super) input: Input,
    pub(super) to: Target,
    pub(super) opts: back::Options,
    pub(super) module: Option<back::xstate::ModuleLanguage>,
    pub(super) output: Option<(String, PathBuf)>,
}

pub(super) fn convert_work(job: ConvertJob, g: &Global) -> CallToolResult {
    let mut l = match load(job.input.source, job.input.from, g) {
        Ok(l) => l,
        Err(e) => return refused(e),
    };
    let text = match crate::cli::convert::convert_loaded(&mut l, job.to, &job.opts, job.module) {
        Ok(t) => t,
        Err(e) => return refused(format!("converting: {e:#}")),
    };
    let items = l.diags.items();
    let losses: Vec<Object> = items
        .iter()
        .filter(|d| d.code.is_loss())
        .map(object)
        .collect();
    let mut out = ConvertOut {
        to: job.to.name().to_owned(),
        text: None,
        written: None,
        losses,
        diagnostics: diagnostics_of(items),
    };
    let Some(text) = text else {
        return answer(&out, true);
    };
    if let Some((shown, real)) = &job.output {
        if let Err(e) = crate::cli::io::write_atomic(real, &text) {
            return refused(format!("writing {shown}: {e:#}"));
        }
        out.written = Some(shown.clone());
    }
    out.text = Some(text);
    answer(&out, false)
}

pub(super) fn paths_work(input: Input, rt: Runtime, listed: usize, g: &Global) -> CallToolResult {
    use loopconv::analysis::paths as p;
    let empty = |d| PathsOut {
        paths: None,
        diagnostics: d,
    };
    with_valid(input, g, empty, |_, spec, info, mut out| {
        let options = p::Options {
            max_steps_listed: listed,
            ..p::Options::default()
        };
        out.paths = Some(object(&p::plan(spec, info, rt, options)));
        answer(&out, false)
    })
}

pub(super) fn walk_work(
    input: Input,
    script: loopconv::analysis::walk::Script,
    rt: Runtime,
    g: &Global,
) -> CallToolResult {
    let empty = |d| WalkOut {
        status: None,
        run: None,
        script_error: None,
        diagnostics: d,
    };
    with_valid(
        input,
        g,
        empty,
        |_, spec, info, mut out| match loopconv::analysis::walk::walk(spec, info, &script, rt) {
            Ok(mut run) => {
                out.status = Some(run.status.as_str().to_owned());
                run.reason = crate::cli::walk::as_data(&run.reason);
                out.run = Some(object(&run));
                answer(&out, false)
            }
            Err(e) => {
                let message = crate::cli::walk::as_data(&e.message);
                out.script_error = Some(message.clone());
                out.run = Some(object(
                    &serde_json::json!({"error": message, "steps": e.steps}),
                ));
                answer(&out, true)
            }
        },
    )
}

pub(super) fn diff_work(old: Input, new: Input, g: &Global) -> CallToolResult {
    use loopconv::analysis::diff as d;
    let (lo, ln) = match (load(old.source, old.from, g), load(new.source, new.from, g)) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) | (_, Err(e)) => return refused(e),
    };
    let mut items = lo.diags.items().to_vec();
    items.extend_from_slice(ln.diags.items());
    let mut out = DiffOut {
        changes: None,
        breaking: 0,
        text: None,
        diagnostics: diagnostics_of(&items),
    };
    let (Some((os, _)), Some((ns, _))) = (lo.valid(), ln.valid()) else {
        return answer(&out, true);
    };
    let changes = d::diff(os, ns);
    let (of, nf) = (lo.diags.file(), ln.diags.file());
    out.changes = serde_json::from_str(&back::diff::json(&changes, of, nf)).ok();
    out.text = Some(back::diff::text(&changes, of, nf));
    out.breaking = changes.breaking();
    answer(&out, false)
}

pub(super) fn outcome_schema_work(input: Input, g: &Global) -> CallToolResult {
    use loopconv::analysis::outcome_schema::{first_declarations, outcome_schema};
    let empty = |d| SchemaOut {
        schema: None,
        diagnostics: d,
    };
    with_valid(input, g, empty, |_, spec, _, mut out| {
        let phases = first_declarations(spec);
        out.schema = Some(object(&outcome_schema(spec, &phases)));
        answer(&out, false)
    })
}

pub(super) fn format_schema(format: Format) -> Object {
    serde_json::from_str(back::schema::schema_text(format)).unwrap_or_default()
}
