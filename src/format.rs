//! Formats, detection and the read pipeline.
//!
//! [`load`] takes bytes to a validated [`Spec`]: decode (limits, UTF-8) -> located tree
//! (JSON or YAML syntax) -> format detection -> shape check against the format's schema ->
//! serde model -> front end -> validation. Every stage adds diagnostics to one sink and
//! later stages run whenever they can, so one run reports every problem.

use crate::back::schema::{self, Which};
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::ir::{Origin, ReadAs, SourceFormat, Spec};
use crate::tree::{self, Document, Limits, Syntax, Value};
use crate::valid::{self, Info, shape};
use crate::{front, model};

/// A loop format loopconv reads and writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Format {
    /// AgentPM loop manifest (JSON).
    Agentpm,
    /// multi-agent-spec REAL/VEAL loop (YAML).
    Mas,
    /// loopconv's IR (JSON).
    Ir,
}

impl Format {
    /// All formats.
    pub const ALL: [Format; 3] = [Format::Agentpm, Format::Mas, Format::Ir];

    /// CLI name.
    pub fn name(self) -> &'static str {
        match self {
            Format::Agentpm => "agentpm",
            Format::Mas => "mas",
            Format::Ir => "ir",
        }
    }

    /// Parse a CLI name.
    pub fn from_name(s: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name() == s)
    }

    /// The usual file extension of the format's files.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Agentpm => "json",
            Format::Mas => "yaml",
            Format::Ir => "ir.json",
        }
    }

    fn schema(self) -> Which {
        match self {
            Format::Agentpm => Which::Agentpm,
            Format::Mas => Which::Mas,
            Format::Ir => Which::Ir,
        }
    }
}

/// How to read.
#[derive(Debug, Clone, Default)]
pub struct LoadOptions {
    /// The format, when the user named it; otherwise it is detected from the content.
    pub from: Option<Format>,
    /// Size, depth and count limits.
    pub limits: Limits,
}

/// The result of reading one file: whatever could be built, and every diagnostic.
#[derive(Debug, Default)]
pub struct Loaded {
    /// The detected or requested format.
    pub format: Option<Format>,
    /// The decoded source text, when the bytes were readable (for source snippets even
    /// when the syntax was not).
    pub text: Option<String>,
    /// The located document, when the syntax was readable.
    pub doc: Option<Document>,
    /// The loop, when the shape allowed building it.
    pub spec: Option<Spec>,
    /// The analysis, when the loop was built.
    pub info: Option<Info>,
    /// Every problem found, sorted.
    pub diags: Diagnostics,
}

impl Loaded {
    /// The loop and analysis, when the file had no errors.
    pub fn valid(&self) -> Option<(&Spec, &Info)> {
        if self.diags.has_errors() {
            return None;
        }
        Some((self.spec.as_ref()?, self.info.as_ref()?))
    }
}

/// Decide the syntax: by extension, else by the first character.
fn syntax_for(path: &str, text: &str) -> Syntax {
    let lower = path.to_ascii_lowercase();
    if lower.ends_with(".yaml") || lower.ends_with(".yml") {
        Syntax::Yaml
    } else if lower.ends_with(".json") || text.trim_start().starts_with(['{', '[']) {
        Syntax::Json
    } else {
        Syntax::Yaml
    }
}

const MAS_KEYS: &[&str] = &[
    "actor",
    "validator",
    "mission",
    "checks",
    "max_attempts",
    "escalation",
];

/// Decide the format from the content.
fn detect(doc: &Document) -> Result<Format, Box<Diagnostic>> {
    let Some(members) = doc.root.members() else {
        return Err(Box::new(
            Diagnostic::new(
                Code::WrongType,
                format!(
                    "the document must be an object, found {}",
                    doc.root.value.type_name()
                ),
            )
            .with_help("a loop file holds one JSON object or one YAML mapping"),
        ));
    };
    let has = |k: &str| members.iter().any(|m| m.key == k);
    if has("loop") {
        return Ok(Format::Agentpm);
    }
    if has("source_format") && has("graph") {
        return Ok(Format::Ir);
    }
    let ty = doc.root.get("type").and_then(|n| n.as_str());
    if matches!(ty, Some("REAL" | "VEAL")) || (has("type") && MAS_KEYS.iter().any(|k| has(k))) {
        return Ok(Format::Mas);
    }
    let why = match ty {
        Some(t) => format!("`type` is `{t}`, not `REAL` or `VEAL`, and there is no `loop` object"),
        None => "it has no `loop` object (AgentPM) and no `type: REAL|VEAL` (multi-agent-spec)"
            .to_owned(),
    };
    Err(Box::new(
        Diagnostic::new(
            Code::UnknownFormat,
            format!("cannot tell which loop format this is: {why}"),
        )
        .with_help("pass `--from agentpm`, `--from mas` or `--from ir`"),
    ))
}

/// Read one file.
pub fn load(path: &str, bytes: &[u8], opts: &LoadOptions) -> Loaded {
    let mut out = Loaded {
        diags: Diagnostics::new(path),
        ..Loaded::default()
    };
    load_into(path, bytes, opts, &mut out);
    out.diags.sort();
    out
}

fn load_into(path: &str, bytes: &[u8], opts: &LoadOptions, out: &mut Loaded) {
    let diags = &mut out.diags;
    let Some(text) = tree::decode(bytes, &opts.limits, diags) else {
        return;
    };
    out.text = Some(text.clone());
    let doc = match syntax_for(path, &text) {
        Syntax::Json => tree::parse_json(text, &opts.limits, diags),
        Syntax::Yaml => tree::parse_yaml(text, &opts.limits, diags),
    };
    let Some(doc) = doc else { return };
    let format = match opts.from {
        Some(f) => f,
        None => match detect(&doc) {
            Ok(f) => f,
            Err(mut d) => {
                d.location.pos = Some(doc.pos(doc.root.span));
                diags.push(*d);
                out.doc = Some(doc);
                return;
            }
        },
    };
    out.format = Some(format);
    if let Some(phases) = phases_node(&doc, format)
        && phases > opts.limits.max_phases
    {
        let ptr = match format {
            Format::Ir => "/graph/phases",
            _ => "/loop/phases",
        };
        diags.push_at(
            Diagnostic::new(
                Code::TooManyPhases,
                format!(
                    "the loop declares {phases} phases, more than the limit of {}",
                    opts.limits.max_phases
                ),
            )
            .at(ptr),
            &doc,
            true,
        );
        out.doc = Some(doc);
        return;
    }
    let verdict = shape::check(&doc, schema::value(format.schema()), diags);
    if !verdict.ok && diags.items().iter().any(|d| is_fatal_shape(d.code)) {
        // Wrong types or missing fields: the model cannot be built without guessing.
        out.doc = Some(doc);
        return;
    }
    let json = doc.root.to_json_without(&verdict.unknown);
    let spec = match format {
        Format::Agentpm => serde_json::from_value::<model::agentpm::Manifest>(json)
            .map(|m| front::agentpm::lower(&m)),
        Format::Mas => {
            serde_json::from_value::<model::mas::Loop>(json).map(|m| front::mas::lower(&m))
        }
        Format::Ir => serde_json::from_value::<Spec>(json).map(with_ir_origins),
    };
    let spec = match spec {
        Ok(s) => s,
        Err(e) => {
            // The shape check accepted something serde did not: report, never panic.
            diags.push(
                Diagnostic::new(
                    Code::WrongType,
                    format!(
                        "the document does not have the {} shape: {e}",
                        format.name()
                    ),
                )
                .with_help("this is probably a loopconv bug; please report it with the file"),
            );
            out.doc = Some(doc);
            return;
        }
    };
    if format == Format::Agentpm {
        package_warnings(&spec, &doc, diags);
    }
    let info = valid::validate(&spec, Some(&doc), diags);
    out.spec = Some(spec);
    out.info = Some(info);
    out.doc = Some(doc);
}

fn is_fatal_shape(code: Code) -> bool {
    matches!(
        code,
        Code::WrongType
            | Code::MissingField
            | Code::Yaml11Boolean
            | Code::InvalidValue
            | Code::OutOfRange
            | Code::NonStringKey
    )
}

fn phases_node(doc: &Document, format: Format) -> Option<usize> {
    let node = match format {
        Format::Agentpm => doc.root.get("loop")?.get("phases")?,
        Format::Ir => doc.root.get("graph")?.get("phases")?,
        Format::Mas => return None,
    };
    match &node.value {
        Value::Array(a) => Some(a.len()),
        _ => None,
    }
}

fn package_warnings(spec: &Spec, doc: &Document, diags: &mut Diagnostics) {
    if spec.schema_uri.is_none() {
        diags.push_at(
            Diagnostic::new(
                Code::MissingSchema,
                "the manifest has no `$schema`: editors may lack completion and validation",
            )
            .with_help(format!(
                "add `\"$schema\": \"{}\"`",
                model::agentpm::UPSTREAM_SCHEMA_URI
            ))
            .at(""),
            doc,
            true,
        );
    }
    if spec
        .description
        .as_deref()
        .is_some_and(|d| d.trim().is_empty())
    {
        diags.push_at(
            Diagnostic::new(Code::BlankDescription, "`description` is empty or blank")
                .with_help("registries show the description as the package summary")
                .at("/description"),
            doc,
            false,
        );
    }
}

/// Give an IR read from JSON the origins of its own elements.
fn with_ir_origins(mut spec: Spec) -> Spec {
    let g = Origin::new("/graph");
    spec.graph.entry_origin = g.child("entry");
    for (i, p) in spec.graph.phases.iter_mut().enumerate() {
        p.origin = g.child("phases").child(i);
        for (j, o) in p.outcomes.iter_mut().flatten().enumerate() {
            o.origin = p.origin.child("outcomes").child(j);
        }
    }
    for (i, t) in spec.graph.transitions.iter_mut().enumerate() {
        t.origin = g.child("transitions").child(i);
    }
    for (i, c) in spec.graph.checkpoints.iter_mut().flatten().enumerate() {
        c.origin = g.child("checkpoints").child(i);
    }
    for (i, c) in spec.goal.checks.iter_mut().flatten().enumerate() {
        c.origin = Origin::new(format!("/goal/checks/{i}"));
    }
    for (key, ports) in [
        ("inputs", &mut spec.goal.inputs),
        ("outputs", &mut spec.goal.outputs),
    ] {
        for (i, p) in ports.iter_mut().flatten().enumerate() {
            p.origin = Origin::new(format!("/goal/{key}/{i}"));
        }
    }
    spec.read_as = ReadAs(SourceFormat::Ir);
    spec
}

/// Write a loop in a loop format, then read the output back and validate it: a conversion
/// never hands out a file that loopconv itself would reject (`B004`).
pub fn write(
    spec: &Spec,
    info: &Info,
    to: Format,
    opts: &crate::back::ConvertOptions,
    diags: &mut Diagnostics,
) -> Result<String, crate::back::Error> {
    let text = match to {
        Format::Agentpm => crate::back::agentpm::write(spec, opts, diags)?,
        Format::Mas => crate::back::mas::write(spec, info, opts, diags)?,
        Format::Ir => crate::back::ir::write(spec)?,
    };
    if diags.has_errors() {
        return Ok(text);
    }
    let name = format!("<{} output>", to.name());
    let back = load(
        &name,
        text.as_bytes(),
        &LoadOptions {
            from: Some(to),
            ..LoadOptions::default()
        },
    );
    let problems: Vec<String> = back
        .diags
        .items()
        .iter()
        .filter(|d| d.severity == crate::diag::Severity::Error)
        .map(|d| format!("{}: {}", d.code, d.message))
        .collect();
    if !problems.is_empty() {
        let mut d = Diagnostic::new(
            Code::InvalidOutput,
            format!(
                "the generated {} output does not pass validation",
                to.name()
            ),
        )
        .with_help("nothing was written; please report this loopconv bug with the input file");
        for p in problems {
            d = d.with_note(p);
        }
        diags.push(d);
    }
    Ok(text)
}
