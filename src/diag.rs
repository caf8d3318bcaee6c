//! Diagnostics: stable codes, severities, locations and rendering.
//!
//! Every problem loopconv finds in user input is a [`Diagnostic`] with a [`Code`].
//! Codes are frozen: a code's string, its kebab-case name and its one-line summary never
//! change meaning, and a retired code is never reused. A retired code is not a [`Code`]
//! (so no diagnostic can carry it) but a [`Retired`] entry that keeps its string and name
//! reserved (the build fails if a `Code` takes them) and that `loopconv explain` documents. The prefix letter tells the stage:
//!
//! * `P` parse: the bytes are not a well-formed JSON or YAML document, or break a limit;
//! * `F` format: the document does not have the shape its format requires (types, required
//!   and unknown keys, patterns, enums, minimums);
//! * `V` validation: the loop's meaning is wrong (references, graph, policy rules);
//! * `B` back end: a conversion cannot carry a field, or a flag it needs is missing.
//!
//! The library never prints. [`render_human`] and [`render_json`] turn diagnostics into text
//! for the binary to print.

use serde::Serialize;

pub mod docs;
pub(crate) mod github;
mod human;
pub mod pages;
mod rejected;
pub mod retired;
pub(crate) mod sarif;
mod snippet;
mod suggest;

pub use github::render_github;
pub use human::render_human;
pub(crate) use rejected::{Rejected, Rejection};
pub use retired::Retired;
pub use sarif::render_sarif;
pub use suggest::{EditTarget, Suggestion};

/// How bad a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The input is wrong: commands fail with exit code 1.
    Error,
    /// The input is accepted, but something is probably not what the author meant
    /// (an error under `--strict`).
    Warning,
    /// Extra information.
    Note,
}

impl Severity {
    /// The lowercase word, as the outputs print it: `error`, `warning`, `note`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        }
    }
}

macro_rules! codes {
    ($( $(#[$doc:meta])* $variant:ident = ($code:literal, $name:literal, $sev:ident, $summary:literal), )*) => {
        /// A stable diagnostic code. Its long form is [`Code::doc`]; the guide's code table and pages are
        /// generated from both ([`docs::code_table`], [`docs::checks_table`]).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Code {
            $( $(#[$doc])* #[doc = $summary] $variant, )*
        }

        impl Code {
            /// Every code, in table order.
            pub const ALL: &'static [Code] = &[ $( Code::$variant, )* ];

            /// The frozen code string, e.g. `V012`.
            pub const fn as_str(self) -> &'static str {
                match self { $( Code::$variant => $code, )* }
            }

            /// The frozen kebab-case name, e.g. `unreachable-phase`.
            pub const fn name(self) -> &'static str {
                match self { $( Code::$variant => $name, )* }
            }

            /// The default severity of diagnostics with this code.
            pub fn severity(self) -> Severity {
                match self { $( Code::$variant => Severity::$sev, )* }
            }

            /// One line saying what the code means.
            pub fn summary(self) -> &'static str {
                match self { $( Code::$variant => $summary, )* }
            }
        }
    };
}

codes! {
    // ---- P: parse and limits ----
    Syntax = ("P001", "syntax-error", Error, "the file is not well-formed JSON or YAML"),
    DuplicateKey = ("P002", "duplicate-key", Error, "a mapping repeats a key"),
    MultipleDocuments = ("P003", "multiple-documents", Error, "a YAML file holds more than one document"),
    TooLarge = ("P004", "input-too-large", Error, "the input is larger than the size limit"),
    TooDeep = ("P005", "nesting-too-deep", Error, "arrays and objects are nested deeper than the limit"),
    AliasLimit = ("P006", "alias-limit", Error, "YAML anchors and aliases expand beyond the limit"),
    InvalidUtf8 = ("P007", "invalid-utf8", Error, "the input is not valid UTF-8"),
    EmptyInput = ("P008", "empty-input", Error, "the input holds no document"),
    ByteOrderMark = ("P009", "byte-order-mark", Warning, "the input starts with a byte-order mark"),
    NulByte = ("P010", "nul-byte", Error, "the input contains a NUL byte"),
    UnknownFormat = ("P011", "unknown-format", Error, "the file's format cannot be decided from its content"),
    NonStringKey = ("P012", "non-string-key", Error, "a mapping key is not a string"),
    TooManyPhases = ("P013", "too-many-phases", Error, "the loop declares more phases than the limit"),
    JsonDuplicateKey = ("P014", "json-duplicate-key", Warning, "a JSON object repeats a key (upstream readers keep the last value, as loopconv does)"),
    NotALoop = ("P015", "not-a-loop", Error, "the file uses loops (a team, an agent spec, an Agent or Template manifest, a lock) but is no loop, where a loop is needed"),
    TooManyDiagnostics = ("P016", "too-many-diagnostics", Note, "the file has more diagnostics than the limit; the others are counted, not shown"),
    // ---- F: format shape ----
    UnknownField = ("F001", "unknown-field", Error, "a key that the format does not define"),
    MissingField = ("F002", "missing-field", Error, "a required key is missing"),
    WrongType = ("F003", "wrong-type", Error, "a value has the wrong type"),
    InvalidName = ("F004", "invalid-name", Error, "a name does not match the format's name pattern"),
    InvalidId = ("F005", "invalid-id", Error, "an id does not match its pattern (stable ids: lowercase kebab-case, at most 64 characters)"),
    InvalidVersion = ("F006", "invalid-version", Error, "a version is not a semantic version X.Y.Z"),
    InvalidValue = ("F007", "invalid-value", Error, "a value is not one of the values the field allows"),
    OutOfRange = ("F008", "out-of-range", Error, "a number is below the field's minimum"),
    EmptyCollection = ("F009", "empty-collection", Error, "an array or object that must not be empty is empty"),
    MissingKind = ("F010", "missing-kind", Warning, "an AgentPM loop without `kind: \"loop\"`"),
    Yaml11Boolean = ("F011", "yaml11-boolean", Error, "a YAML 1.1 boolean spelling (yes/no/on/off) where a boolean is expected"),
    MissingSchema = ("F012", "missing-schema-uri", Note, "an AgentPM manifest without `$schema` (editors may lack completion; no reader needs it)"),
    BlankDescription = ("F013", "blank-description", Warning, "the package description is empty or blank"),
    EmptyString = ("F014", "empty-string", Error, "a string that must not be empty is empty"),
    YamlPortSchema = ("F015", "yaml-port-schema", Warning, "a multi-agent-spec YAML file has a port `schema`, which the Go SDK cannot load from YAML"),
    YamlDirective = ("F016", "yaml-directive", Warning, "a `%YAML` directive, which the multi-agent-spec Go SDK's YAML reader refuses"),
    JsonFloatInteger = ("F017", "json-float-integer", Warning, "a multi-agent-spec JSON file writes an integer field as a float (`3.0`), which the Go SDK cannot decode"),
    XstateUnsupported = ("F018", "xstate-unsupported", Error, "an XState machine uses a feature a loop cannot hold (parallel or nested states, guards, actions, delays, invoked actors)"),
    XstateGate = ("F019", "xstate-checkpoint-gate", Error, "an XState checkpoint gate is bypassed, out of order, or lacks its `APPROVE` or `REJECT` event"),
    AgentpmYaml = ("F020", "agentpm-yaml", Warning, "an AgentPM loop manifest written in YAML, which AgentPM cannot read (it reads manifests as JSON only)"),
    // ---- V: AgentPM lint rules 1-22 (formats.md 1.5) ----
    BlankArchetype = ("V001", "blank-archetype", Error, "`archetype` is empty or blank"),
    BlankObjective = ("V002", "blank-objective", Error, "a phase objective is empty or blank"),
    DuplicatePhase = ("V003", "duplicate-phase-id", Error, "two phases share an id"),
    BlankOutcomeDescription = ("V004", "blank-outcome-description", Error, "an outcome description is empty or blank"),
    DuplicateOutcome = ("V005", "duplicate-outcome-id", Error, "a phase declares the same outcome twice"),
    UnknownEntryPhase = ("V006", "unknown-entry-phase", Error, "`entry_phase` names no declared phase"),
    UnknownTransitionSource = ("V007", "unknown-transition-source", Error, "a transition's `from` names no declared phase"),
    UnknownOutcome = ("V008", "unknown-outcome", Error, "a transition's `on` is not an outcome of its `from` phase"),
    UnknownTransitionTarget = ("V009", "unknown-transition-target", Error, "a transition's `to` is neither a phase nor a terminal"),
    DuplicateTransition = ("V010", "duplicate-transition", Error, "a (phase, outcome) pair has more than one transition"),
    MissingTransition = ("V011", "missing-transition", Error, "a (phase, outcome) pair has no transition"),
    UnreachablePhase = ("V012", "unreachable-phase", Error, "a phase cannot be reached from the entry phase"),
    NoTerminalReachable = ("V013", "no-terminal-reachable", Error, "no terminal can be reached from the entry phase"),
    DuplicateCheckpoint = ("V014", "duplicate-checkpoint-id", Error, "two checkpoints share an id"),
    UnknownCheckpointPhase = ("V015", "unknown-checkpoint-phase", Error, "a checkpoint's `before_phase` names no declared phase"),
    UnknownRejectTarget = ("V016", "unknown-reject-target", Error, "a checkpoint's `on_reject` is neither a phase nor a terminal"),
    // V017 `duplicate-checkpoint-phase` is retired: see `retired::RETIRED`.
    RetryWithoutMaxRetries = ("V018", "retry-without-max-retries", Error, "`action: retry` without `max_retries`"),
    RetryWithoutOnExhausted = ("V019", "retry-without-on-exhausted", Error, "`action: retry` without `on_exhausted`"),
    MaxRetriesWithoutRetry = ("V020", "max-retries-without-retry", Error, "`max_retries` on a tool-failure action other than retry"),
    OnExhaustedWithoutRetry = ("V021", "on-exhausted-without-retry", Error, "`on_exhausted` on a tool-failure action other than retry"),
    MissingPhaseFailure = ("V022", "missing-phase-failure", Error, "tool failure can fail a phase but `phase_failure` is missing"),
    // ---- V: beyond upstream ----
    TrapCycle = ("V023", "trap-cycle", Warning, "phases from which no terminal can be reached"),
    MaxStepsTooSmall = ("V024", "max-steps-too-small", Warning, "`max_steps` is shorter than the shortest path from the entry to `$end`"),
    NoSuccessPath = ("V025", "no-success-path", Warning, "`$end` cannot be reached from the entry phase"),
    // ---- V: multi-agent-spec rules (formats.md 2) ----
    MissingMission = ("V101", "missing-mission", Error, "a REAL loop without `mission`"),
    MissingValidator = ("V102", "missing-validator", Error, "a VEAL loop without `validator`"),
    MissingChecks = ("V103", "missing-checks", Error, "a VEAL loop without checks"),
    MissingFallbackAgent = ("V104", "missing-fallback-agent", Error, "`escalation: fallback` without `fallback_agent`"),
    DuplicateCheckId = ("V105", "duplicate-check-id", Warning, "two checks share an id"),
    CheckCannotRun = ("V106", "check-cannot-run", Warning, "a check lacks what its type runs (a `pattern` check's valid regex, a `command` check's command, a `file` check's file, a non-empty `files`), or a `manual` check has a command that never runs"),
    UnusedFallbackAgent = ("V107", "unused-fallback-agent", Warning, "`fallback_agent` is given, but `escalation` is not `fallback`: the agent is never invoked"),
    // ---- B: conversion ----
    LostField = ("B001", "lost-field", Error, "the target format cannot hold this field (allowed with `--allow-lossy`)"),
    InexactBound = ("B002", "inexact-bound", Error, "a bound cannot be converted exactly and was rounded (allowed with `--allow-lossy`)"),
    MissingRoleFlag = ("B003", "missing-role-flag", Error, "the target needs an agent name that the source cannot carry; pass it as a flag"),
    InvalidOutput = ("B004", "invalid-output", Error, "the generated output failed validation (a loopconv bug, or an input nested too deep for the target format)"),
    WrittenPortSchema = ("B005", "written-port-schema", Warning, "the written multi-agent-spec YAML has a port `schema`, which the Go SDK cannot load from YAML"),
    OutputCollision = ("B006", "output-collision", Error, "a loop's output in a folder is taken: another loop of the same name writes it, or it is another loop's file"),
    // ---- W: workspaces, the documents that use loops (formats.md 3) ----
    UnknownStepLoop = ("W001", "unknown-step-loop", Error, "a team workflow step's `loop` names no loop of the project"),
    StepAgentAndLoop = ("W002", "step-agent-and-loop", Error, "a workflow step has both `agent` and `loop`, or neither"),
    UnknownStepDependency = ("W003", "unknown-step-dependency", Error, "a step's `depends_on` names no step of its workflow"),
    StepDependencyCycle = ("W004", "step-dependency-cycle", Error, "workflow steps depend on each other in a cycle"),
    UnknownTeamAgent = ("W005", "unknown-team-agent", Error, "a team's roster, orchestrator or agent step names an agent with no spec in the project"),
    LoopAgentWithoutSpec = ("W006", "loop-agent-without-spec", Warning, "a loop's `actor`, `validator` or `fallback_agent` names an agent with no spec in the project"),
    DuplicateLoopName = ("W007", "duplicate-loop-name", Error, "two loops of one project share a name"),
    TeamPrerequisite = ("W008", "team-prerequisite", Error, "a self-directed workflow (`crew`, `swarm`, `council`) lacks what its type needs"),
    TeamPortShape = ("W009", "team-port-shape", Warning, "a step's `inputs` or `outputs` are not Port objects (strings, or a map of names)"),
    DuplicateStepName = ("W010", "duplicate-step-name", Error, "two steps of one workflow share a name"),
    AgentSpecFrontMatter = ("W011", "agent-spec-front-matter", Error, "an agent spec has no YAML front matter with a `name`"),
    UnresolvedLoop = ("W101", "unresolved-loop", Error, "an Agent's or Template's `loop` resolves to no loop package (the harness's `missing_loop_package`)"),
    ResolvedNotALoop = ("W102", "resolved-not-a-loop", Error, "an Agent's `loop` resolves to a package that is not a loop"),
    LockedVersionNotAdmitted = ("W103", "locked-version-not-admitted", Error, "the version `agent.lock` pins for the loop is not one the reference admits"),
    BindingsWithoutLoop = ("W104", "bindings-without-loop", Error, "`bindings.phases` without a top-level `loop`"),
    UnknownPhaseBinding = ("W105", "unknown-phase-binding", Warning, "a bound phase is no phase of the resolved loop (the harness ignores it: `unknown_phase_binding`)"),
    RangeOutsideSchema = ("W106", "range-outside-schema", Warning, "a loop reference's version is a range, which AgentPM's own manifest schema rejects"),
    UnusableLock = ("W107", "unusable-lock", Error, "`agent.lock` is not a version 3 lock file"),
    LoopSource = ("W108", "loop-source", Note, "where an Agent's loop was found (the lock, an installed package, or a local source)"),
}

impl Code {
    /// Whether the code reports a loss of a conversion (`B001`, `B002`): an error that
    /// `--allow-lossy` turns into a warning.
    pub fn is_loss(self) -> bool {
        matches!(self, Code::LostField | Code::InexactBound)
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A position in a source file: 1-based line and column (in characters), plus the byte range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Pos {
    /// 1-based line.
    pub line: u32,
    /// 1-based column, counted in characters.
    pub column: u32,
    /// Byte offset of the start.
    #[serde(skip)]
    pub start: usize,
    /// Byte offset one past the end.
    #[serde(skip)]
    pub end: usize,
}

impl Pos {
    /// The start of the file (1:1): where a diagnostic about the whole file points (an
    /// empty file, a byte-order mark).
    pub const START: Pos = Pos {
        line: 1,
        column: 1,
        start: 0,
        end: 0,
    };
}

/// Where a diagnostic points.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Location {
    /// The file as the user named it (`-` for standard input).
    pub file: String,
    /// The bytes of the file's name, when `file` cannot hold them: a name that is not
    /// UTF-8, which `file` shows with U+FFFD. SARIF's URIs are made of them
    /// ([`Diagnostics::set_file_bytes`]).
    #[serde(skip)]
    pub file_bytes: Option<Vec<u8>>,
    /// JSON Pointer to the offending key or value (empty for the whole document).
    pub pointer: String,
    /// Line and column, when known.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub pos: Option<Pos>,
    /// Whether the pointer names a key to point at (a missing or unknown field) rather
    /// than its value.
    #[serde(skip)]
    pub on_key: bool,
}

/// Another place a diagnostic concerns (rustc's secondary label): the same undeclared name
/// used again, say. SARIF carries labels as `relatedLocations`, the language server as
/// `relatedInformation`, the human output as `also at line L, column C` notes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Label {
    /// What is at this place (lowercase, no final period).
    pub message: String,
    /// Where (the file and position are filled in by the sink, like the diagnostic's).
    pub location: Location,
}

/// One problem found in an input or a conversion.
///
/// Its JSON form (`--format json`) is `{severity, code, name, message, location: {file,
/// pointer, line?, column?}, labels?: [{message, location}], notes?, help?}`, where `name`
/// is the code's kebab-case name and `help` is [`Diagnostic::help_text`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// Error, warning or note.
    pub severity: Severity,
    /// The stable code.
    pub code: Code,
    /// What is wrong, naming the field (lowercase, no final period).
    pub message: String,
    /// Where.
    pub location: Location,
    /// The other places of the same problem, in authored order.
    pub labels: Vec<Label>,
    /// Extra facts (a cycle, a path).
    pub notes: Vec<String>,
    /// Advice that is not an edit (how to fix it, when there is something useful to say);
    /// the help line of a diagnostic with suggestions is theirs.
    pub help: Option<String>,
    /// The fixes it proposes, as alternatives (most have none or one).
    pub suggestions: Vec<Suggestion>,
}

impl Serialize for Diagnostic {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Json<'a> {
            severity: Severity,
            code: &'a str,
            name: &'a str,
            message: &'a str,
            location: &'a Location,
            #[serde(skip_serializing_if = "<[Label]>::is_empty")]
            labels: &'a [Label],
            #[serde(skip_serializing_if = "<[String]>::is_empty")]
            notes: &'a [String],
            #[serde(skip_serializing_if = "Option::is_none")]
            help: Option<String>,
        }
        Json {
            severity: self.severity,
            code: self.code.as_str(),
            name: self.code.name(),
            message: &self.message,
            location: &self.location,
            labels: &self.labels,
            notes: &self.notes,
            help: self.help_text(),
        }
        .serialize(s)
    }
}

impl Diagnostic {
    /// The help line: the suggestions' (as alternatives) when there are any, otherwise
    /// the advice.
    pub fn help_text(&self) -> Option<String> {
        suggest::help_text(&self.suggestions).or_else(|| self.help.clone())
    }

    /// The message with its notes and help on lines of their own (`note: …`, `help: …`),
    /// for the plain-text consumers: SARIF, GitHub annotations, the language server.
    pub fn full_message(&self) -> String {
        let mut text = self.message.clone();
        for n in &self.notes {
            text.push_str("\nnote: ");
            text.push_str(n);
        }
        if let Some(h) = self.help_text() {
            text.push_str("\nhelp: ");
            text.push_str(&h);
        }
        text
    }

    /// A diagnostic with the code's default severity.
    pub fn new(code: Code, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: code.severity(),
            code,
            message: message.into(),
            location: Location::default(),
            labels: Vec::new(),
            notes: Vec::new(),
            help: None,
            suggestions: Vec::new(),
        }
    }

    /// Set the advice (for a fix that is an edit, use [`Diagnostic::with_suggestion`]).
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Propose a fix (another call adds an alternative).
    pub fn with_suggestion(mut self, s: Suggestion) -> Self {
        self.suggestions.push(s);
        self
    }

    /// Add a note.
    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    /// Add another place of the same problem: the value at `pointer`.
    pub fn with_label(mut self, pointer: impl Into<String>, message: impl Into<String>) -> Self {
        self.labels.push(Label {
            message: message.into(),
            location: Location {
                pointer: pointer.into(),
                ..Location::default()
            },
        });
        self
    }

    /// [`Self::with_label`] on the key of the member at `pointer`, not its value.
    pub fn with_key_label(
        mut self,
        pointer: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        self = self.with_label(pointer, message);
        if let Some(l) = self.labels.last_mut() {
            l.location.on_key = true;
        }
        self
    }

    /// Point at the value at `pointer` (the file and position are filled in by the sink).
    pub fn at(mut self, pointer: impl Into<String>) -> Self {
        self.location.pointer = pointer.into();
        self
    }

    /// Point at the key of the member at `pointer` (a missing, unknown or duplicate field),
    /// or at its value when it is not an object member.
    pub fn at_key(mut self, pointer: impl Into<String>) -> Self {
        self.location.pointer = pointer.into();
        self.location.on_key = true;
        self
    }
}

/// Name the file of `at`: `file`, and its bytes when `file` cannot hold them.
fn name_file(at: &mut Location, file: &str, bytes: &Option<Vec<u8>>) {
    file.clone_into(&mut at.file);
    at.file_bytes.clone_from(bytes);
}

/// [`name_file`] for a label, unless it already names its file (a label into another file
/// of the project).
fn name_label_file(at: &mut Location, file: &str, bytes: &Option<Vec<u8>>) {
    if at.file.is_empty() {
        name_file(at, file, bytes);
    }
}

/// Resolves JSON Pointers to positions in one source file.
pub trait Locate {
    /// Get ready to locate `pointers` (all at once when that is cheaper than one by one).
    fn prepare(&self, pointers: &[&str]) {
        let _ = pointers;
    }

    /// Position of the key (when `key` is true and the pointer names an object member) or of
    /// the value at `pointer`; falls back to the nearest ancestor that has a position.
    fn locate(&self, pointer: &str, key: bool) -> Option<Pos>;

    /// Position of exactly the key or value at `pointer` (no fallback), and the position
    /// just past it: `None` when the pointer names nothing.
    fn locate_exact(&self, pointer: &str, key: bool) -> Option<(Pos, Pos)>;
}

/// The most diagnostics of one file that are kept by default ([`Diagnostics::set_limit`],
/// `--max-diagnostics`): a report of hundreds is already more than anyone reads, and a
/// hostile file of a million repeated keys made a 637 MB SARIF log.
pub const DEFAULT_MAX_DIAGNOSTICS: usize = 200;

/// An append-only collection of diagnostics for one file.
///
/// With a limit ([`Self::set_limit`]) it keeps the first diagnostics up to the limit and
/// counts the others by code and severity: its last item ([`Self::items`]) is then one
/// `P016` that says how many were left out and of which codes, so that every output
/// (human, JSON, SARIF, GitHub, the language server) is bounded and says so.
/// [`Self::count`] and [`Self::has_errors`] count the ones left out too: the verdict is
/// the whole file's. A diagnostic left out is only counted: the summary is made when the
/// diagnostics are next read.
#[derive(Debug, Default, Clone)]
pub struct Diagnostics {
    file: String,
    /// [`Location::file_bytes`].
    file_bytes: Option<Vec<u8>>,
    /// The diagnostics kept (the summary is not one).
    items: Vec<Diagnostic>,
    /// The most diagnostics kept (`None`: all).
    limit: Option<usize>,
    /// The diagnostics left out, by code and severity.
    omitted: std::collections::BTreeMap<(Code, Severity), usize>,
    /// What [`Self::items`] reads when some were left out: the diagnostics kept, then the
    /// summary. Made on the first read after a change and forgotten at every change, so
    /// that leaving a diagnostic out costs a count (the summary was made anew after each
    /// one: thousands of instructions each, for a file with a million problems).
    report: std::sync::OnceLock<Vec<Diagnostic>>,
    /// What the errors kept reject ([`Self::reject`]), for validation to read.
    rejected: Rejected,
}

/// Every warning made an error (`--strict`).
pub fn make_strict(diags: &mut [Diagnostic]) {
    for d in diags {
        if d.severity == Severity::Warning {
            d.severity = Severity::Error;
        }
    }
}

impl Diagnostics {
    /// An empty sink for diagnostics about `file`.
    pub fn new(file: impl Into<String>) -> Self {
        Diagnostics {
            file: file.into(),
            file_bytes: None,
            items: Vec::new(),
            limit: None,
            omitted: std::collections::BTreeMap::new(),
            report: std::sync::OnceLock::new(),
            rejected: Rejected::default(),
        }
    }

    /// Forget the report made for [`Self::items`] (the diagnostics or their counts changed).
    fn changed(&mut self) {
        self.report.take();
    }

    /// Keep at most `limit` diagnostics (at least one); the others are counted and said in
    /// one `P016` at the end. Diagnostics kept so far beyond the limit are left out now.
    pub fn set_limit(&mut self, limit: usize) {
        let limit = limit.max(1);
        self.limit = Some(limit);
        if self.items.len() > limit {
            for d in self.items.split_off(limit) {
                *self.omitted.entry((d.code, d.severity)).or_default() += 1;
            }
        }
        self.changed();
    }

    /// Count `n` more diagnostics of `code` as left out, without making them (a parser
    /// that stopped recording repeats at the limit).
    pub fn omit(&mut self, code: Code, n: usize) {
        if n == 0 {
            return;
        }
        *self.omitted.entry((code, code.severity())).or_default() += n;
        self.changed();
    }

    /// How many more diagnostics the file has than are kept.
    pub fn omitted(&self) -> usize {
        self.omitted.values().sum()
    }

    /// Whether a diagnostic is room for one more (always without a limit): a producer of
    /// many can stop making them and [`Self::omit`] the rest.
    pub fn has_room(&self) -> bool {
        self.limit.is_none_or(|l| self.items.len() < l)
    }

    /// The `P016` that says how many diagnostics were left out, and of which codes (at
    /// most one clause per code: its length is bounded whatever the input).
    fn summary(&self) -> Diagnostic {
        #[cfg(test)]
        tests::SUMMARIES.with(|n| n.set(n.get() + 1));
        let total = self.omitted();
        let mut by_code: Vec<(Code, usize)> = Vec::new();
        for (&(code, _), &n) in &self.omitted {
            match by_code.last_mut() {
                Some((c, m)) if *c == code => *m += n,
                _ => by_code.push((code, n)),
            }
        }
        by_code.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let codes: Vec<String> = (by_code.iter())
            .map(|(c, n)| format!("{} {c} {}", thousands(*n), c.name()))
            .collect();
        let worst = (self.omitted.keys().map(|&(_, s)| s).min()).unwrap_or(Severity::Note);
        let mut errors = 0;
        let mut warnings = 0;
        for (&(_, s), &n) in &self.omitted {
            match s {
                Severity::Error => errors += n,
                Severity::Warning => warnings += n,
                Severity::Note => {}
            }
        }
        let mut d = Diagnostic::new(
            Code::TooManyDiagnostics,
            format!(
                "{} more diagnostic{} left out after the first {} ({} error{}, {} warning{}): {}",
                thousands(total),
                if total == 1 { "" } else { "s" },
                thousands(self.items.len()),
                thousands(errors),
                if errors == 1 { "" } else { "s" },
                thousands(warnings),
                if warnings == 1 { "" } else { "s" },
                codes.join(", ")
            ),
        )
        .with_help("fix these first, or raise the limit with `--max-diagnostics`");
        d.severity = worst;
        name_file(&mut d.location, &self.file, &self.file_bytes);
        d
    }

    /// The file these diagnostics are about.
    pub fn file(&self) -> &str {
        &self.file
    }

    /// Give the file's name as bytes, for a name that is not UTF-8 (the file's name as
    /// given shows it with U+FFFD): SARIF's URIs then keep every byte. For the diagnostics
    /// so far and those pushed later.
    pub fn set_file_bytes(&mut self, bytes: Vec<u8>) {
        self.file_bytes = Some(bytes);
        self.changed();
        for d in &mut self.items {
            name_file(&mut d.location, &self.file, &self.file_bytes);
            for l in d.labels.iter_mut().filter(|l| l.location.file == self.file) {
                name_file(&mut l.location, &self.file, &self.file_bytes);
            }
        }
    }

    /// Add a diagnostic whose position is already known (or absent). Beyond the limit
    /// ([`Self::set_limit`]) it is only counted.
    pub fn push(&mut self, mut d: Diagnostic) {
        if !self.has_room() {
            self.omit_one(&d);
            return;
        }
        name_file(&mut d.location, &self.file, &self.file_bytes);
        for l in &mut d.labels {
            name_label_file(&mut l.location, &self.file, &self.file_bytes);
        }
        self.items.push(d);
        self.changed();
    }

    /// Add an error of the front end that rejects what it points at ([`Rejected`]): the
    /// rejection is recorded with the error when the error is kept.
    pub(crate) fn reject(&mut self, d: Diagnostic, what: Rejection) {
        if self.has_room() && d.severity == Severity::Error {
            self.rejected.record(&d.location.pointer, what);
        }
        self.push(d);
    }

    /// What the front end rejected ([`Self::reject`]).
    pub(crate) fn rejected(&self) -> &Rejected {
        &self.rejected
    }

    /// Take out the record of what the front end rejected, to read beside pushing more
    /// ([`Self::restore_rejected`] puts it back).
    pub(crate) fn take_rejected(&mut self) -> Rejected {
        std::mem::take(&mut self.rejected)
    }

    /// Put back the record [`Self::take_rejected`] took out.
    pub(crate) fn restore_rejected(&mut self, rejected: Rejected) {
        self.rejected = rejected;
    }

    /// Count `d` as left out.
    fn omit_one(&mut self, d: &Diagnostic) {
        *self.omitted.entry((d.code, d.severity)).or_default() += 1;
        self.changed();
    }

    /// Give a position to every diagnostic that has none yet, resolving its pointer with
    /// `map` (the one place where pointers become lines and columns), and to every
    /// suggestion's target.
    pub fn locate_missing(&mut self, map: &dyn Locate) {
        self.changed();
        map.prepare(&self.unlocated());
        for d in &mut self.items {
            if d.location.pos.is_none() {
                d.location.pos = map.locate(&d.location.pointer, d.location.on_key);
            }
            for l in d.labels.iter_mut().filter(|l| l.location.pos.is_none()) {
                l.location.pos = map.locate(&l.location.pointer, l.location.on_key);
            }
            for t in d.suggestions.iter_mut().flat_map(Suggestion::targets_mut) {
                if t.pos.is_none() {
                    let found = map.locate_exact(&t.pointer, t.key);
                    (t.pos, t.end) = (found.map(|f| f.0), found.map(|f| f.1));
                }
            }
        }
    }

    /// The pointers [`Self::locate_missing`] has yet to resolve.
    fn unlocated(&self) -> Vec<&str> {
        let mut out = Vec::new();
        for d in &self.items {
            if d.location.pos.is_none() {
                out.push(d.location.pointer.as_str());
            }
            let labels = d.labels.iter().filter(|l| l.location.pos.is_none());
            out.extend(labels.map(|l| l.location.pointer.as_str()));
            let targets = d.suggestions.iter().flat_map(Suggestion::targets);
            out.extend(
                targets
                    .filter(|t| t.pos.is_none())
                    .map(|t| t.pointer.as_str()),
            );
        }
        out
    }

    /// True when any diagnostic is an error (one left out too).
    pub fn has_errors(&self) -> bool {
        self.items.iter().any(|d| d.severity == Severity::Error)
            || self.omitted.keys().any(|&(_, s)| s == Severity::Error)
    }

    /// Number of diagnostics with the given severity, those left out included (the `P016`
    /// that counts them is not one).
    pub fn count(&self, sev: Severity) -> usize {
        let kept = self.items.iter();
        let omitted = (self.omitted.iter()).filter(|((_, s), _)| *s == sev);
        kept.filter(|d| d.severity == sev).count() + omitted.map(|(_, n)| n).sum::<usize>()
    }

    /// All diagnostics: those kept, then the `P016` summary when some were left out.
    pub fn items(&self) -> &[Diagnostic] {
        if self.omitted.is_empty() {
            return &self.items;
        }
        self.report.get_or_init(|| {
            let mut all = Vec::with_capacity(self.items.len() + 1);
            all.extend_from_slice(&self.items);
            all.push(self.summary());
            all
        })
    }

    /// Keep only the diagnostics `keep` accepts (a later stage that finds one explained by
    /// another: one cause, one diagnostic).
    pub(crate) fn retain(&mut self, keep: impl FnMut(&Diagnostic) -> bool) {
        self.items.retain(keep);
        self.changed();
    }

    /// The diagnostics kept, to amend (a later stage that knows more of a cause).
    pub(crate) fn items_mut(&mut self) -> &mut [Diagnostic] {
        self.changed();
        &mut self.items
    }

    /// Take out the diagnostics `pick` picks, in order, keeping the others (and the file,
    /// the limit and the counts of those left out).
    pub fn extract(&mut self, pick: impl Fn(&Diagnostic) -> bool) -> Vec<Diagnostic> {
        let (picked, kept) = std::mem::take(&mut self.items)
            .into_iter()
            .partition(|d| pick(d));
        self.items = kept;
        self.changed();
        picked
    }

    /// Take the diagnostics out (the summary last, as [`Self::items`]).
    pub fn into_items(mut self) -> Vec<Diagnostic> {
        if !self.omitted.is_empty() {
            let summary = self.summary();
            self.items.push(summary);
        }
        self.items
    }

    /// Give the syntax error (`P001`) a help line when it has none: a reader that knows
    /// more than the parser (which syntax the file's name chose) says what it knows.
    pub fn help_syntax_error(&mut self, help: impl FnOnce() -> String) {
        self.changed();
        let syntax = self.items.iter_mut().find(|d| d.code == Code::Syntax);
        if let Some(d) = syntax.filter(|d| d.help.is_none()) {
            d.help = Some(help());
        }
    }

    /// Add a note to the first error (once sorted, [`Self::sort`]): what explains them
    /// all, such as a `--from` that names another format than the file's.
    pub fn note_first_error(&mut self, note: impl FnOnce() -> String) {
        self.changed();
        let first = self
            .items
            .iter_mut()
            .find(|d| d.severity == Severity::Error);
        if let Some(d) = first {
            d.notes.push(note());
        }
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty() && self.omitted.is_empty()
    }

    /// Turn warnings into errors (`--strict`), those left out too.
    pub fn make_strict(&mut self) {
        self.changed();
        make_strict(&mut self.items);
        let omitted = std::mem::take(&mut self.omitted);
        for ((code, sev), n) in omitted {
            let sev = if sev == Severity::Warning {
                Severity::Error
            } else {
                sev
            };
            *self.omitted.entry((code, sev)).or_default() += n;
        }
    }

    /// Sort into the documented, deterministic order: by position in the file (documents
    /// without positions last), then code, then message. Identical diagnostics are merged.
    pub fn sort(&mut self) {
        self.changed();
        self.items.sort_by(|a, b| {
            let ka = a
                .location
                .pos
                .map(|p| (0, p.line, p.column))
                .unwrap_or((1, 0, 0));
            let kb = b
                .location
                .pos
                .map(|p| (0, p.line, p.column))
                .unwrap_or((1, 0, 0));
            ka.cmp(&kb)
                .then_with(|| a.location.pointer.cmp(&b.location.pointer))
                .then_with(|| a.code.cmp(&b.code))
                .then_with(|| a.message.cmp(&b.message))
        });
        self.items.dedup();
    }
}

/// How many characters of a user's text a message quotes ([`quote`], [`cut`]).
pub const QUOTED_CHARS: usize = 80;

/// A user's text as a message shows it: whole when it has at most [`QUOTED_CHARS`]
/// characters, otherwise its start, an ellipsis and its full length (`aaaa… (10,000,000
/// characters)`), so that no message grows with the input (an out-of-range number of
/// 10 MB of digits was quoted whole).
pub fn cut(text: &str) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(QUOTED_CHARS) {
        None => std::borrow::Cow::Borrowed(text),
        Some((end, _)) => std::borrow::Cow::Owned(format!(
            "{}… ({} characters)",
            &text[..end],
            thousands(text.chars().count())
        )),
    }
}

/// [`cut`] in backticks, the length outside them: `` `aaaa…` (10,000,000 characters) ``.
pub fn quote(text: &str) -> String {
    match text.char_indices().nth(QUOTED_CHARS) {
        None => format!("`{text}`"),
        Some((end, _)) => format!(
            "`{}…` ({} characters)",
            &text[..end],
            thousands(text.chars().count())
        ),
    }
}

/// `n` with a comma between thousands (`990,000`), as the messages write counts.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Render diagnostics as one JSON array (for `--format json`).
pub fn render_json(diags: &[Diagnostic]) -> String {
    let mut s = serde_json::to_string_pretty(diags).unwrap_or_else(|_| "[]".to_owned());
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::{Code, Diagnostic, Diagnostics, Pos, Severity, render_human};
    use std::cell::Cell;
    use std::collections::BTreeSet;

    thread_local! {
        /// How many `P016` summaries this test's thread made.
        pub(super) static SUMMARIES: Cell<usize> = const { Cell::new(0) };
    }

    #[test]
    fn a_diagnostic_beyond_the_limit_is_counted_and_summarised_when_read() {
        let made = SUMMARIES.with(Cell::get);
        let mut ds = Diagnostics::new("f");
        ds.set_limit(2);
        for i in 0..10_000 {
            let code = [Code::UnknownField, Code::JsonDuplicateKey][i % 2];
            ds.push(Diagnostic::new(code, "x"));
        }
        // Counted only: no summary made until the diagnostics are read, then one.
        assert_eq!(SUMMARIES.with(Cell::get), made);
        let items = ds.items();
        assert_eq!(items.len(), 3);
        assert_eq!(ds.items().len(), 3);
        assert_eq!(SUMMARIES.with(Cell::get), made + 1);
        let last = &items[2];
        assert_eq!(last.code, Code::TooManyDiagnostics);
        assert_eq!(last.severity, Severity::Error);
        assert!(
            last.message.starts_with(
                "9,998 more diagnostics left out after the first 2 (4,999 errors, 4,999 warnings)"
            ),
            "{}",
            last.message
        );
        // A change after a read is in the next read.
        ds.push(Diagnostic::new(Code::UnknownField, "x"));
        assert!(ds.items()[2].message.starts_with("9,999 more"));
        assert_eq!(
            (ds.count(Severity::Error), ds.count(Severity::Warning)),
            (5_001, 5_000)
        );
        assert!(ds.has_errors() && !ds.is_empty());
        let all = ds.into_items();
        assert_eq!(all.last().map(|d| d.code), Some(Code::TooManyDiagnostics));
        assert_eq!(all.len(), 3);
    }

    #[test]
    fn codes_unique() {
        let codes: BTreeSet<_> = Code::ALL.iter().map(|c| c.as_str()).collect();
        let names: BTreeSet<_> = Code::ALL.iter().map(|c| c.name()).collect();
        assert_eq!(codes.len(), Code::ALL.len(), "duplicate code string");
        assert_eq!(names.len(), Code::ALL.len(), "duplicate code name");
        for c in Code::ALL {
            let s = c.as_str();
            assert_eq!(s.len(), 4, "{s}");
            assert!(matches!(&s[..1], "P" | "F" | "V" | "B" | "W"), "{s}");
            assert!(
                !c.summary().ends_with('.'),
                "{s} summary ends with a period"
            );
        }
    }

    #[test]
    fn human_rendering_neutralises_control_characters() {
        let src = "{\"a\": \"\u{1b}[31mred\u{0}\"}\n";
        let mut d = Diagnostic::new(Code::WrongType, "bad \u{1b}[2J value");
        d.location.file = "f.json".into();
        d.location.pos = Some(Pos {
            line: 1,
            column: 7,
            start: 6,
            end: 17,
        });
        let out = render_human(&[d.clone()], Some(src), false);
        assert!(!out.contains('\u{1b}') && !out.contains('\u{0}'), "{out}");
        assert!(out.contains("?[31mred?"), "{out}");
        // Without a position, the note names the pointer, which holds user keys.
        d.location.pos = None;
        d.location.pointer = "/loop/\u{1b}[2Jkey".into();
        let out = render_human(&[d], Some(src), false);
        assert!(!out.contains('\u{1b}'), "{out}");
        assert!(out.contains("/loop/?[2Jkey"), "{out}");
    }

    #[test]
    fn sort_is_by_position_then_code() {
        let mut ds = Diagnostics::new("f");
        let mut a = Diagnostic::new(Code::UnknownField, "b");
        a.location.pos = Some(Pos {
            line: 3,
            column: 1,
            start: 0,
            end: 0,
        });
        let mut b = Diagnostic::new(Code::MissingField, "a");
        b.location.pos = Some(Pos {
            line: 1,
            column: 5,
            start: 0,
            end: 0,
        });
        ds.push(a);
        ds.push(b.clone());
        ds.push(b);
        ds.sort();
        assert_eq!(ds.items().len(), 2);
        assert_eq!(ds.items()[0].code, Code::MissingField);
    }
}
