//! Reading: bytes to a validated [`Spec`].
//!
//! decode (limits, UTF-8) -> located tree (JSON or YAML syntax) -> format (named or
//! detected) -> the format's front end (shape, format warnings, lowering) -> validation ->
//! locate every diagnostic in the source. Every stage adds diagnostics to one sink and
//! later stages run whenever they can, so one run reports every problem.

use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::format::{DocKind, Format};
use crate::front::{self, TreeUse, vocabulary};
use crate::ir::Spec;
use crate::tree::{self, Document, ReadLimits, Syntax};
use crate::valid::{self, Info};

use super::{claimed_format, read_format_allowing};

/// How to read.
#[derive(Debug, Clone, Default)]
pub struct LoadOptions {
    /// The format, when the user named it; otherwise it is detected from the content.
    pub from: Option<Format>,
    /// Size, depth and count limits.
    pub limits: ReadLimits,
    /// Whether the located tree is kept once the front end has built its model: by default
    /// it is freed, and [`Document::root`] reads it again if asked for (the language server
    /// keeps it, since it indexes every document it analyses); `TreeUse::ReleaseThen` also
    /// calls a function once it is freed (the binary returns the memory to the system).
    pub tree: TreeUse,
    /// Whether a document that uses loops (a team, an Agent manifest, a lock:
    /// [`DocKind`]) is accepted as such, with its tree kept, for a project to read
    /// (`crate::project`); otherwise it is refused with `P015`, as a command that needs a
    /// loop must.
    pub documents: bool,
    /// Whether what a loop cannot hold but can do without is dropped, each loss a warning
    /// (`B001`), instead of one error that lists them (`--allow-lossy`; the XState front
    /// end reads a machine written by hand so: names that are no ids, missing
    /// descriptions, guards, actions, `context`).
    pub allow_lossy: bool,
}

/// The result of reading one file: whatever could be built, and every diagnostic.
#[derive(Debug, Default)]
pub struct Loaded {
    /// The detected or requested format.
    pub format: Option<Format>,
    /// What the document is, when that could be told: a loop of [`Self::format`], or a
    /// document that uses loops (then there is no format, spec or analysis).
    pub kind: Option<DocKind>,
    /// The located document, when the syntax was readable (it holds the source text).
    pub doc: Option<Document>,
    /// The decoded source text, when the bytes were readable but the syntax was not.
    text: Option<String>,
    /// The loop, when the shape allowed building it.
    pub spec: Option<Spec>,
    /// The analysis, when the loop was built.
    pub info: Option<Info>,
    /// Every problem found, located and sorted.
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

    /// The decoded source text, taken out (when the bytes were readable): what remains no
    /// longer holds it.
    pub fn take_text(&mut self) -> Option<String> {
        match &mut self.doc {
            Some(doc) => Some(doc.take_text()),
            None => self.text.take(),
        }
    }

    /// Give the diagnostics pushed since the read (a command's, a project's rules') their
    /// positions in the document, as the read gave its own.
    pub fn locate(&mut self) {
        if let Some(doc) = &self.doc {
            super::drive::locate(doc, &mut self.diags);
        }
    }

    /// The decoded source text, when the bytes were readable (for source snippets).
    pub fn text(&self) -> Option<&str> {
        match &self.doc {
            Some(doc) => Some(&doc.text),
            None => self.text.as_deref(),
        }
    }
}

/// Read one file.
pub fn load(path: &str, bytes: &[u8], opts: &LoadOptions) -> Loaded {
    let mut diags = Diagnostics::new(path);
    diags.set_limit(opts.limits.max_diagnostics);
    let text = tree::decode(bytes, &opts.limits, &mut diags);
    load_text(path, text, diags, opts)
}

/// [`load`] from a buffer the loop may keep (no copy of the input).
pub fn load_owned(path: &str, bytes: Vec<u8>, opts: &LoadOptions) -> Loaded {
    let mut diags = Diagnostics::new(path);
    diags.set_limit(opts.limits.max_diagnostics);
    let text = tree::decode_owned(bytes, &opts.limits, &mut diags);
    load_text(path, text, diags, opts)
}

/// [`load_owned`] for text that is already a string (an editor's buffer, which it may
/// keep): the text is handed back when it is rejected before parsing (too large, a NUL
/// byte, empty), so that its owner can still edit it.
pub fn load_string(path: &str, text: String, opts: &LoadOptions) -> (Loaded, Option<String>) {
    let mut diags = Diagnostics::new(path);
    diags.set_limit(opts.limits.max_diagnostics);
    match tree::decode_text(text, &opts.limits, &mut diags) {
        Ok(text) => (load_text(path, Some(text), diags, opts), None),
        Err(text) => (load_text(path, None, diags, opts), Some(text)),
    }
}

/// The stages after decoding, then every diagnostic located and sorted.
fn load_text(path: &str, text: Option<String>, diags: Diagnostics, opts: &LoadOptions) -> Loaded {
    let mut out = Loaded {
        diags,
        ..Loaded::default()
    };
    let mut other_format = None;
    if let Some(text) = text {
        read_into(path, text, opts, &mut out, &mut other_format);
    }
    out.locate();
    out.diags.sort();
    if let Some(claimed) = other_format
        && let Some(format) = out.format
    {
        out.diags.note_first_error(|| {
            format!(
                "the file looks like {}: `--from {format}` reads it as {}",
                with_article(claimed),
                with_article(format)
            )
        });
    }
    out
}

/// "an AgentPM loop manifest", "a multi-agent-spec loop".
fn with_article(f: Format) -> String {
    DocKind::Loop(f).with_article()
}

/// The stages, each run when the previous one produced something. `other_format` is set
/// to the format the document claims to be when `--from` reads it as another.
fn read_into(
    path: &str,
    text: String,
    opts: &LoadOptions,
    out: &mut Loaded,
    other_format: &mut Option<Format>,
) -> Option<()> {
    // A machine as `convert --to xstate --module js` (or `ts`) writes it: its JSON, at
    // the same places.
    let text = front::xstate::module_json(&text).unwrap_or(text);
    let doc = match syntax_for(path, &text) {
        Syntax::Json => {
            tree::parse_json_or_text(text, &vocabulary::KEYS, &opts.limits, &mut out.diags)
        }
        Syntax::Yaml => {
            tree::parse_yaml_or_text(text, &vocabulary::KEYS, &opts.limits, &mut out.diags)
        }
    };
    let doc = match doc {
        Ok(doc) => doc,
        Err(text) => {
            if named_json_but_yaml_like(path, &text) {
                out.diags.help_syntax_error(|| {
                    "this looks like YAML (it does not start with `{` or `[`), but the file is read as JSON because its name ends in `.json`: name it `.yaml` (or `.yml`), or write it as JSON".to_owned()
                });
            }
            out.text = Some(text);
            return None;
        }
    };
    let doc = out.doc.insert(doc);
    if opts.from.is_none()
        && let Some(kind) = front::kind::detect(doc.root())
    {
        out.kind = Some(kind);
        if !opts.documents {
            out.diags.push(not_a_loop(kind));
        }
        return None;
    }
    let format = match opts.from {
        Some(f) => f,
        None => detect(doc, &mut out.diags)?,
    };
    out.format = Some(format);
    out.kind = Some(DocKind::Loop(format));
    // What the file says it is, when `--from` says otherwise (asked before reading, which
    // can free the tree).
    *other_format = opts
        .from
        .and_then(|_| super::claimed_format(doc.root()))
        .filter(|&c| c != format);
    let spec = read_format_allowing(
        format,
        doc,
        &opts.limits,
        opts.tree,
        opts.allow_lossy,
        &mut out.diags,
    )?;
    out.info = Some(valid::validate(&spec, &mut out.diags));
    out.spec = Some(spec);
    Some(())
}

/// `P015`: a document that uses loops where a loop is needed.
fn not_a_loop(kind: DocKind) -> Diagnostic {
    Diagnostic::new(
        Code::NotALoop,
        format!("this is {}, not a loop", kind.with_article()),
    )
    .with_help(
        "`loopconv check` reads it with the loops it names; give this command one of those loops",
    )
    .at("")
}

/// Whether a file named `.json` starts like YAML (a letter, `#`, `-` or `%`), not like a
/// JSON document or a JSON value.
fn named_json_but_yaml_like(path: &str, text: &str) -> bool {
    let start = text.trim_start();
    let yaml_like = start.starts_with(|c: char| c.is_alphabetic() || matches!(c, '#' | '-' | '%'));
    path.to_ascii_lowercase().ends_with(".json")
        && yaml_like
        && !["true", "false", "null"]
            .iter()
            .any(|w| start.starts_with(w))
}

/// An AgentPM harness configuration (`agentpm.harness.json`): a `runtime` object and none
/// of the keys that mark a loop or another document.
fn is_harness_config(root: &crate::tree::Node) -> bool {
    let runtime = matches!(
        root.get("runtime").map(|n| &n.value),
        Some(crate::tree::Value::Object(_))
    );
    runtime
        && ["loop", "type", "states", "kind"]
            .iter()
            .all(|k| root.get(k).is_none())
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

/// Decide the format from the content, or say why it cannot be decided (`F003`, `P011`).
fn detect(doc: &Document, diags: &mut Diagnostics) -> Option<Format> {
    if doc.root().members().is_none() {
        diags.push(
            Diagnostic::new(
                Code::WrongType,
                format!(
                    "the document must be an object, found {}",
                    doc.root().value.type_name()
                ),
            )
            .with_help("a loop file holds one JSON object or one YAML mapping")
            .at(""),
        );
        return None;
    }
    if let Some(f) = claimed_format(doc.root()) {
        return Some(f);
    }
    if is_harness_config(doc.root()) {
        diags.push(
            Diagnostic::new(
                Code::UnknownFormat,
                "this is an AgentPM harness configuration (`runtime`), not a loop",
            )
            .with_help(
                "the harness runs an Agent and its loop with these settings (`runtime.limits.max_steps` may tighten a loop's `max_steps`, never loosen it); loopconv reads loops: give it the loop (`agent.json` with `kind: \"loop\"`), or leave this file out of the paths",
            )
            .at(""),
        );
        return None;
    }
    let why = match doc.root().get("type").and_then(|n| n.as_str()) {
        Some(t) => format!("`type` is `{t}`, not `REAL` or `VEAL`, and there is no `loop` object"),
        None => "it has no `loop` object (AgentPM), no `type: REAL|VEAL` (multi-agent-spec) and no `states` with an `initial` state (XState)"
            .to_owned(),
    };
    let names: Vec<String> = Format::ALL
        .iter()
        .map(|f| format!("`--from {}`", f.name()))
        .collect();
    diags.push(
        Diagnostic::new(
            Code::UnknownFormat,
            format!("cannot tell which loop format this is: {why}"),
        )
        .with_help(format!(
            "pass {}; a file that is no loop, found in a folder, is left out with `--exclude GLOB`",
            crate::text::list(&names, "or")
        ))
        .at(""),
    );
    None
}
