//! `loopconv graph` and the hidden `loopconv diagram-model`.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context as _, Result, bail};
use clap::Args;

use loopconv::back::team::Language;
use loopconv::back::{self, mermaid::Style};
use loopconv::diag::{Code, Diagnostic, Diagnostics};
use loopconv::format::DocKind;
use loopconv::project::{Facts, Member, Project};
use loopconv::{Format, Loaded, Target};

use super::io::{emit, emit_streamed, plain_io, refuse_input_as_output, refuse_unused_stdin_name};
use super::report::{free_at_exit, load_document, load_file, report_loaded};
use super::{EXIT_PROBLEMS, Global};

#[derive(Debug, Args)]
pub(super) struct GraphArgs {
    #[command(flatten)]
    pub(super) g: Global,
    /// Loop file (`-` for standard input); or a multi-agent-spec team (its workflow, with
    /// its loops inside) or an AgentPM Agent manifest (its loop, with the bound phases
    /// marked), drawn with the loops of its workspace.
    pub(super) input: PathBuf,
    /// The diagram language.
    #[arg(long, short = 't', value_name = "LANGUAGE", value_parser = diagram_target(), default_value = "mermaid")]
    to: Target,
    /// Mermaid (the default); the same as `--to mermaid`.
    #[arg(long, conflicts_with_all = ["dot", "to"])]
    mermaid: bool,
    /// Graphviz DOT; the same as `--to dot`.
    #[arg(long, conflicts_with = "to")]
    dot: bool,
    /// PlantUML state diagram; the same as `--to plantuml`.
    #[arg(long, conflicts_with_all = ["mermaid", "dot", "to"])]
    plantuml: bool,
    /// Draw an SVG picture instead of diagram source, through Graphviz's `dot` (which must
    /// be installed); the same as `--dot | dot -Tsvg`.
    #[arg(long, conflicts_with_all = ["mermaid", "plantuml", "to"])]
    svg: bool,
    /// Mermaid diagram style (Mermaid only; flowchart when absent).
    #[arg(long, value_enum)]
    style: Option<Style>,
    /// Output file (`-` or absent: standard output). An existing file is replaced,
    /// atomically: a drawing is generated, and made again by the same command.
    #[arg(long, short = 'o', value_name = "PATH")]
    output: Option<PathBuf>,
    /// A team: draw each loop step as one box instead of the loop's phases.
    #[arg(long)]
    collapse_loops: bool,
    /// Input format.
    #[arg(
        long,
        short = 'f',
        value_enum,
        value_name = "FORMAT",
        help_heading = "Input"
    )]
    from: Option<Format>,
    /// Draw a loop that has errors, as far as it can be read, and exit 1: in DOT (and
    /// `--svg`) a transition to an undeclared target is a red dashed edge to a red node,
    /// and a phase with a broken outcome (no transition, an unknown one) is outlined in
    /// red; other languages draw what was read, unmarked. A loop whose shape could not be
    /// read is not drawn.
    #[arg(long)]
    allow_invalid: bool,
}

/// The values of `graph --to`: the diagram back ends.
pub(super) fn diagram_target() -> impl clap::builder::TypedValueParser<Value = Target> {
    use clap::builder::TypedValueParser as _;
    let names: Vec<&'static str> = Target::ALL
        .into_iter()
        .filter(|t| t.is_diagram())
        .map(Target::name)
        .collect();
    clap::builder::PossibleValuesParser::new(names).map(|name| {
        Target::ALL
            .into_iter()
            .find(|t| t.name() == name)
            .unwrap_or(Target::Mermaid)
    })
}

pub(super) fn run(g: &Global, a: &GraphArgs) -> Result<ExitCode> {
    refuse_unused_stdin_name(g, [a.input.as_path()])?;
    let target = match (a.mermaid, a.dot, a.plantuml) {
        (true, _, _) => Target::Mermaid,
        (_, true, _) => Target::Dot,
        _ if a.svg => Target::Dot,
        (_, _, true) => Target::PlantUml,
        _ => a.to,
    };
    if a.style.is_some() && target != Target::Mermaid {
        bail!(
            "--style chooses a Mermaid diagram style; {} has only one (drop --style, or draw Mermaid)",
            target.name()
        );
    }
    refuse_input_as_output(a.output.as_deref(), [a.input.as_path()])?;
    let mut l = load_document(g, &a.input, a.from, true)?;
    match l.kind {
        Some(DocKind::MasTeam) => return graph_team(g, a, target, l),
        Some(DocKind::AgentpmAgent) => return graph_agent(g, a, target, l),
        Some(DocKind::Loop(_)) | None => {}
        // Refused as what it is (`P015`).
        Some(_) => l = load_file(g, &a.input, a.from)?,
    }
    report_loaded(g, &l);
    // Drawing reads only the IR and its analysis: the source and its tree are freed first,
    // so a large loop is not held twice.
    l.doc = None;
    crate::cli::memory::return_freed_memory();
    let valid = l.valid().is_some();
    let (spec, info) = match (&l.spec, &l.info) {
        (Some(s), Some(i)) if valid || a.allow_invalid => (s, i),
        _ if a.allow_invalid => {
            super::report::summary(
                g,
                format_args!("nothing drawn: the loop's shape could not be read"),
            );
            return Ok(ExitCode::from(EXIT_PROBLEMS));
        }
        _ => return Ok(ExitCode::from(EXIT_PROBLEMS)),
    };
    let opts = back::Options {
        style: a.style.unwrap_or(Style::Flowchart),
        ..back::Options::default()
    };
    if !valid {
        // Drawn whole, then marked (a DOT statement may set a node's attributes again).
        let mut diags = Diagnostics::new(l.diags.file());
        let mut text = loopconv::write(target, spec, info, &opts, &mut diags)?;
        if target == Target::Dot {
            text = mark_faults(&text, spec);
        }
        if a.svg {
            text = dot_to_svg(&text)?;
        }
        emit(a.output.as_deref(), &text)?.report(g);
        return Ok(ExitCode::from(EXIT_PROBLEMS));
    }
    write_drawing(g, a, target, (spec, info), &opts, l.diags.file())?;
    free_at_exit(l);
    Ok(ExitCode::SUCCESS)
}

/// Write the drawing of a valid loop: as SVG through Graphviz with `--svg`, else streamed
/// as it is drawn, so that the drawing is never held whole. `file` names the loop in the
/// diagnostics of the write.
fn write_drawing(
    g: &Global,
    a: &GraphArgs,
    target: Target,
    (spec, info): (&loopconv::ir::Spec, &loopconv::valid::Info),
    opts: &back::Options,
    file: &str,
) -> Result<()> {
    if a.svg {
        let mut diags = Diagnostics::new(file);
        let text = dot_to_svg(&loopconv::write(target, spec, info, opts, &mut diags)?)?;
        emit(a.output.as_deref(), &text)?.report(g);
        free_at_exit(text);
        return Ok(());
    }
    emit_streamed(a.output.as_deref(), |w| {
        match back::draw_to(target, spec, info, opts, w) {
            Some(written) => Ok(written?),
            None => bail!("internal: {} is not a drawing", target.name()),
        }
    })?
    .report(g);
    Ok(())
}

/// The language a team's workflow is drawn in for `target` (a team is a Mermaid
/// flowchart, never a state diagram).
pub(crate) fn team_language(target: Target, style: Option<Style>) -> Result<Language> {
    Ok(match target {
        Target::Dot => Language::Dot,
        Target::PlantUml => Language::PlantUml,
        // `graph --to` offers the diagrams alone (`diagram_target`): a new diagram target
        // needs its arm here.
        Target::Mermaid
        | Target::Loop(_)
        | Target::Markdown
        | Target::Schema
        | Target::LangGraph => {
            if style == Some(Style::State) {
                bail!("a team is drawn as a Mermaid flowchart: drop --style state")
            }
            Language::Mermaid
        }
    })
}

/// Draw a team's workflow with the loops its steps name, found in its workspace.
fn graph_team(g: &Global, a: &GraphArgs, target: Target, l: Loaded) -> Result<ExitCode> {
    let language = team_language(target, a.style)?;
    let context: Vec<PathBuf> = super::project::workspace_of(&a.input).into_iter().collect();
    let team = Team {
        input: &a.input,
        context: &context,
        language,
        collapse_loops: a.collapse_loops,
    };
    let Some(text) = team.draw(g, l, &mut |l| report_loaded(g, l))? else {
        return Ok(ExitCode::from(EXIT_PROBLEMS));
    };
    let text = if a.svg { dot_to_svg(&text)? } else { text };
    emit(a.output.as_deref(), &text)?.report(g);
    Ok(ExitCode::SUCCESS)
}

/// A team to draw: its file, the workspaces its loops are found in, how it is drawn.
pub(crate) struct Team<'a> {
    pub(crate) input: &'a Path,
    pub(crate) context: &'a [PathBuf],
    pub(crate) language: Language,
    pub(crate) collapse_loops: bool,
}

impl Team<'_> {
    /// The team's workflow (its document read as `l`) with the loops its steps name,
    /// found in the workspaces of `context` (a loop with errors, or not found, is one
    /// box); `None` when the team has errors. The team's diagnostics are given to `seen`,
    /// which reports them.
    pub(crate) fn draw(
        &self,
        g: &Global,
        mut l: Loaded,
        seen: &mut dyn FnMut(&Loaded),
    ) -> Result<Option<String>> {
        let member = Member::of(self.input, &mut l);
        seen(&l);
        let Some(member) = member.filter(|_| !l.diags.has_errors()) else {
            return Ok(None);
        };
        let Facts::Team(team) = &member.facts else {
            bail!("internal: a team without its facts");
        };
        let reported = [super::project::normal(self.input)].into_iter().collect();
        let pool = super::io::folder_pool()?;
        let project = Project::new(super::project::context(g, self.context, &reported, &pool)?);
        // Each loop a step names, read once (a loop with errors is drawn as one box).
        let mut loops: Vec<(String, Loaded)> = Vec::new();
        for (name, _) in team.steps.iter().filter_map(|s| s.loop_name.as_ref()) {
            if loops.iter().any(|(n, _)| n == name) {
                continue;
            }
            if let Some(path) = project.loop_path(name) {
                loops.push((name.clone(), load_file(g, path, None)?));
            }
        }
        let graph_of = |name: &str| {
            (loops.iter())
                .find(|(n, _)| n == name)
                .and_then(|(_, l)| l.valid())
                .map(|(spec, _)| &spec.graph)
        };
        let drawing = loopconv::project::team_drawing(team, &graph_of);
        Ok(Some(back::team::draw(
            &drawing,
            self.language,
            self.collapse_loops,
        )))
    }
}

/// Draw the loop of an AgentPM Agent manifest, resolved as `check` resolves it (the lock,
/// an installed package, the local source), titled with the Agent's name and each bound
/// phase marked with what is bound to it. An Agent whose loop does not resolve, or that
/// names none, gets the diagnostic (located in the manifest) instead of a drawing; a loop
/// with errors, its own.
fn graph_agent(g: &Global, a: &GraphArgs, target: Target, l: Loaded) -> Result<ExitCode> {
    if a.collapse_loops {
        bail!(
            "--collapse-loops draws a team's loop steps as boxes; an Agent's loop is drawn whole (drop --collapse-loops)"
        );
    }
    let context = super::project::roots_of([a.input.as_path()]);
    let found = agent_loop(g, &a.input, &context, l, &mut |l| report_loaded(g, l))?;
    let Some((lp, view)) = found else {
        return Ok(ExitCode::from(EXIT_PROBLEMS));
    };
    let Some((spec, info)) = lp.valid() else {
        super::report::summary(
            g,
            format_args!(
                "nothing drawn: the Agent's loop {} has errors",
                lp.diags.file()
            ),
        );
        return Ok(ExitCode::from(EXIT_PROBLEMS));
    };
    let opts = back::Options {
        style: a.style.unwrap_or(Style::Flowchart),
        agent: Some(view),
        ..back::Options::default()
    };
    write_drawing(g, a, target, (spec, info), &opts, lp.diags.file())?;
    Ok(ExitCode::SUCCESS)
}

/// The loop of the AgentPM Agent manifest at `input` (its document read as `l`), resolved
/// as `check` resolves it with the workspaces of `context`, read, and the view that titles
/// its drawing; `None` when the Agent names no loop or its loop does not resolve (the
/// manifest's diagnostics say why). The manifest's diagnostics (with the project's rules'
/// in it), then the loop's, are given to `seen`, which reports them; the loop may have
/// errors.
pub(crate) fn agent_loop(
    g: &Global,
    input: &Path,
    context: &[PathBuf],
    mut l: Loaded,
    seen: &mut dyn FnMut(&Loaded),
) -> Result<Option<(Loaded, back::AgentView)>> {
    let member = Member::of(input, &mut l);
    let Some(member) = member else {
        seen(&l);
        return Ok(None);
    };
    let Facts::Manifest(manifest) = &member.facts else {
        bail!("internal: an Agent manifest without its facts");
    };
    if manifest.loop_ref.is_none() {
        // A `loop` that is there but unreadable, or bindings without one, was reported
        // by the manifest's reader: one cause, one diagnostic.
        if !l.diags.has_errors() {
            l.diags.push(
                Diagnostic::new(
                    Code::NotALoop,
                    "this AgentPM Agent manifest names no `loop`: there is no loop to draw",
                )
                .with_help("add the loop it runs (`\"loop\": \"@owner/name@X.Y.Z\"`), or give `graph` a loop file")
                .at(""),
            );
            l.locate();
        }
        seen(&l);
        return Ok(None);
    }
    let file = member.file.clone();
    let stem = (input.file_stem())
        .map_or_else(|| "agent".to_owned(), |s| s.to_string_lossy().into_owned());
    let view = loopconv::project::agent_view(manifest, &stem);
    // The context `check` reads: the rest of the Agent's workspace.
    let reported = [super::project::normal(input)].into_iter().collect();
    let (project, found) =
        super::project::project_with_context(g, context, &reported, vec![member.clone()])?;
    // The project's diagnostics in the manifest, as `check` gives them.
    let found = (found.into_iter())
        .filter(|d| d.location.file == file)
        .filter(|d| !g.settings.silences(d, Some(input)));
    for d in found {
        l.diags.push(d);
    }
    l.diags.sort();
    seen(&l);
    // A loop, or the errors above say why not (`W101`, `W102`).
    let resolved = (project.resolved_loop(0)).filter(|(m, _)| matches!(m.facts, Facts::Loop(_)));
    let (Some((found, _)), false) = (resolved, l.diags.has_errors()) else {
        return Ok(None);
    };
    let lp = load_file(g, &found.path.clone(), None)?;
    seen(&lp);
    Ok(Some((lp, view)))
}

/// The faults of an invalid loop marked in its DOT drawing: each transition to a target
/// that is neither a phase nor a terminal is a red dashed edge from its phase to a red
/// node named after the target, and each phase with an outcome that has no transition, or
/// a transition on an outcome it does not declare, is outlined in red. Node ids are the
/// back end's (`p0` is the first phase); ids of phases declared twice are the first's.
fn mark_faults(dot: &str, spec: &loopconv::ir::Spec) -> String {
    use loopconv::ir::Destination;
    let phases = &spec.graph.phases;
    let node = |id: &str| {
        phases
            .iter()
            .position(|p| p.id == id)
            .map(|i| format!("p{i}"))
    };
    let quote = |s: &str| {
        let s: String = loopconv::text::one_line(s)
            .chars()
            .flat_map(|c| match c {
                '"' | '\\' => vec!['\\', c],
                c => vec![c],
            })
            .collect();
        format!("\"{s}\"")
    };
    let mut marks = String::new();
    let mut broken = std::collections::BTreeSet::new();
    let mut missing = 0;
    for t in &spec.graph.transitions {
        let Some(from) = node(&t.from) else { continue };
        if let Destination::Phase(to) = &t.to
            && node(to).is_none()
        {
            let label = quote(&format!("{to}?"));
            marks.push_str(&format!(
                "  x{missing} [label={label}, shape=box, style=\"dashed,filled\", color=\"#dc2626\", fillcolor=\"#fee2e2\", fontcolor=\"#991b1b\", tooltip={}];\n  {from} -> x{missing} [label={}, style=dashed, color=\"#dc2626\", fontcolor=\"#dc2626\", penwidth=2, tooltip={}];\n",
                quote(&format!("undeclared target `{to}`")),
                quote(&t.on),
                quote(&format!("{} on {} goes to `{to}`, which is neither a phase nor a terminal", t.from, t.on)),
            ));
            missing += 1;
        }
    }
    for (i, p) in phases.iter().enumerate() {
        let declared: Vec<&str> = match &p.outcomes {
            Some(o) => o.iter().map(|o| o.id.as_str()).collect(),
            None => vec!["complete"],
        };
        let on: Vec<&str> = (spec.graph.transitions.iter())
            .filter(|t| t.from == p.id)
            .map(|t| t.on.as_str())
            .collect();
        let unhandled = declared.iter().any(|o| !on.contains(o));
        let unknown = on.iter().any(|o| !declared.contains(o));
        if (unhandled || unknown) && node(&p.id) == Some(format!("p{i}")) {
            broken.insert(i);
        }
    }
    for i in broken {
        marks.push_str(&format!(
            "  p{i} [color=\"#dc2626\", penwidth=3, fillcolor=\"#fee2e2\"];\n"
        ));
    }
    match dot.rfind('}') {
        Some(end) if !marks.is_empty() => format!("{}{marks}{}", &dot[..end], &dot[end..]),
        _ => dot.to_owned(),
    }
}

/// Render DOT source as SVG with Graphviz's `dot` (`LOOPCONV_DOT` names another binary).
pub(super) fn dot_to_svg(dot: &str) -> Result<String> {
    use std::process::{Command, Stdio};
    let bin = std::env::var_os("LOOPCONV_DOT").unwrap_or_else(|| "dot".into());
    // A child inherits the process's huge-page switch: it gets the system's setting.
    crate::cli::memory::allow_huge_pages();
    let child = Command::new(&bin)
        .arg("-Tsvg")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => bail!(
            "--svg needs Graphviz's `dot`, which is not installed (apt-get install graphviz, \
             brew install graphviz); or draw Mermaid and paste it into https://mermaid.live"
        ),
        Err(e) => bail!("running dot: {}", plain_io(&e)),
    };
    if let Some(mut stdin) = child.stdin.take() {
        stdin
            .write_all(dot.as_bytes())
            .map_err(|e| anyhow::anyhow!("running dot: {}", plain_io(&e)))?;
    }
    let out = child
        .wait_with_output()
        .map_err(|e| anyhow::anyhow!("running dot: {}", plain_io(&e)))?;
    if !out.status.success() {
        bail!(
            "dot failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    String::from_utf8(out.stdout).context("dot wrote something that is not UTF-8")
}
