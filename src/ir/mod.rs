//! The intermediate representation: one loop, whatever format it came from.
//!
//! A [`Spec`] holds everything either format can say (see `../shared/spec/mapping.md` and the
//! guide's conversion table, `docs/src/formats.md`):
//!
//! * identity: name, version, description, license, readme, `$schema`, environment;
//! * [`LoopPattern`]: a general phase graph (AgentPM) or the fixed REAL / VEAL loop (MAS);
//! * [`Roles`] and [`Goal`]: the MAS agents, mission, success criteria, checks and ports;
//! * [`Graph`]: entry phase, phases with access intent and outcomes, transitions, approval
//!   checkpoints. A MAS loop is lowered to its three-phase graph here too, so that every back
//!   end draws and documents from one graph;
//! * [`Bounds`]: max steps, max attempts, escalation, error policy.
//!
//! Invariants: the front ends never judge validity, so a `Spec` may hold dangling ids;
//! [`crate::valid::validate`] checks them and returns the [`crate::valid::Info`] analysis
//! that back ends use. Everything is kept in source order (`Vec`s), so output is
//! deterministic. Optional fields keep the difference between "absent" and a default value
//! (an omitted access key is "no opinion", not `false`), which is what makes `X -> IR -> X`
//! exact.
//!
//! Provenance ([`provenance`]): each element carries an [`Origin`], the JSON Pointer of the
//! element in its source file, and the [`Spec`] carries a [`Provenance`] for its loop-level
//! fields. The front end that read the file records both, once; diagnostics and loss reports
//! read them and never rebuild pointers. They are not serialised and never affect equality.
//!
//! The IR owns every type it holds (no format model types): the front ends translate from
//! their models, the back ends into theirs. The policy enums (`policy.rs`) go the other way:
//! the format models use the IR's, since the formats spell them the same.

pub mod carried;
pub mod effective;
pub mod fixed;
mod policy;
pub mod provenance;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub use crate::format::Format;
pub use fixed::{FixedLoop, REAL, Recognised, Role, VEAL, max_steps_for};
pub use policy::{
    CheckType, ErrorPolicy, Escalation, Exhausted, PhaseAction, PhaseFailure, PortType, ToolAction,
    ToolFailure,
};
pub use provenance::{Field, Origin, PointerAt, Pointers, Provenance, SharedPointers};

/// Deserialise a value that is there, `null` included, as `Some`: for the fields passed
/// through untouched (`environment`, a port's `schema` and `default`), where a `null` that
/// is written is not the same as a key that is not (serde's default reads both as `None`).
pub(crate) fn present<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<serde_json::Value>, D::Error> {
    serde_json::Value::deserialize(d).map(Some)
}

/// Content equality of IR values: the same IR JSON. Provenance (an element's [`Origin`],
/// the loop's [`Provenance`]) says where a value was read from, not what it is, and is not
/// serialised, so a loop read from two files or formats can be the same loop. The IR types
/// that carry provenance have no `PartialEq`, so that `==` cannot ignore it silently: this
/// is the equality they have, named for what it compares.
pub fn same_content<T: Serialize>(a: &T, b: &T) -> bool {
    match (serde_json::to_value(a), serde_json::to_value(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// The regex patterns (JSON Schema `pattern`) of ids, names and versions, shared by the
/// IR's schema and the shape check. Not [`LoopPattern`], the shape of a loop.
pub mod id_pattern {
    /// A stable id (phase, outcome, checkpoint): upstream's
    /// `^[a-z](?:[a-z0-9]|-(?=[a-z0-9])){0,63}$` without the look-ahead, plus `maxLength: 64`.
    pub const STABLE_ID: &str = "^[a-z](?:-?[a-z0-9])*$";
    /// The stable-id pattern as the formats' documents write it (formats.md 1.4), which
    /// messages quote: [`STABLE_ID`] with its `maxLength`, in a form Rust's `regex` cannot
    /// compile (a look-ahead).
    pub const STABLE_ID_DOCUMENTED: &str = "^[a-z](?:[a-z0-9]|-(?=[a-z0-9])){0,63}$";
    /// Where a transition or a rejection goes (AgentPM `to`, `on_reject`): a
    /// [`STABLE_ID`] or one of the three terminals, so that a schema reader refuses
    /// `"$fail"`. loopconv's shape check leaves it to validation (`V009`, `V016`), which
    /// names the closest phase or terminal.
    pub const DESTINATION: &str = r"^(?:[a-z](?:-?[a-z0-9])*|\$(?:end|abort|handoff))$";
    /// MAS loop name and check id (the IR's loop name).
    pub const NAME: &str = "^[a-z][a-z0-9-]*$";
    /// AgentPM package name: a [`NAME`] of at most 64 characters.
    pub const PACKAGE_NAME: &str = "^[a-z][a-z0-9-]{0,63}$";
    /// Semantic version as upstream accepts it.
    pub const VERSION: &str =
        r"^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$";

    /// Whether `name` matches [`NAME`]: a lowercase letter, then lowercase letters, digits
    /// and hyphens.
    pub fn is_name(name: &str) -> bool {
        let b = name.as_bytes();
        b.first().is_some_and(u8::is_ascii_lowercase)
            && b.iter()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
    }

    /// Whether `name` matches [`PACKAGE_NAME`].
    pub fn is_package_name(name: &str) -> bool {
        is_name(name) && name.len() <= 64
    }

    /// Whether `id` matches [`STABLE_ID`], the pattern alone (no length): a [`NAME`] whose
    /// hyphens are single and not at the end.
    pub fn matches_stable_id(id: &str) -> bool {
        // Bytes, not `contains("--")`, which sets up a substring searcher for every id.
        is_name(id) && !id.as_bytes().windows(2).any(|pair| pair == b"--") && !id.ends_with('-')
    }

    /// `MAJOR.MINOR.PATCH` without leading zeros, then an optional `-pre` and `+build` of
    /// `[0-9A-Za-z.-]` (the pattern [`VERSION`]).
    pub fn is_version(text: &str) -> bool {
        let (core, build) = match text.split_once('+') {
            Some((c, b)) => (c, Some(b)),
            None => (text, None),
        };
        let (core, pre) = match core.split_once('-') {
            Some((c, p)) => (c, Some(p)),
            None => (core, None),
        };
        let number = |n: &str| {
            !n.is_empty()
                && n.bytes().all(|c| c.is_ascii_digit())
                && (n == "0" || !n.starts_with('0'))
        };
        let tag = |t: &str| {
            !t.is_empty()
                && t.bytes()
                    .all(|c| c.is_ascii_alphanumeric() || c == b'.' || c == b'-')
        };
        let parts: Vec<&str> = core.split('.').collect();
        parts.len() == 3
            && parts.iter().all(|p| number(p))
            && pre.is_none_or(tag)
            && build.is_none_or(tag)
    }

    /// A stable id (formats.md 1.4): [`STABLE_ID`] in 1 to 64 characters.
    pub fn is_stable_id(id: &str) -> bool {
        id.len() <= 64 && matches_stable_id(id)
    }

    /// The stable id an invalid id most likely means: lowercased, with `_`, `.` and spaces as
    /// single hyphens, no hyphen at either end (`Approve_Merge` -> `approve-merge`); `None`
    /// when that is not a stable id either, or is the id itself.
    pub fn repaired_id(id: &str) -> Option<String> {
        let mut out = String::with_capacity(id.len());
        for c in id.chars() {
            let c = match c {
                '_' | '.' | ' ' | '-' => '-',
                c => c.to_ascii_lowercase(),
            };
            if !(c == '-' && (out.is_empty() || out.ends_with('-'))) {
                out.push(c);
            }
        }
        while out.ends_with('-') {
            out.pop();
        }
        (out != id && is_stable_id(&out)).then_some(out)
    }
}

/// The shape of a loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, Default)]
#[serde(rename_all = "lowercase")]
#[schemars(rename = "Pattern")]
pub enum LoopPattern {
    /// Any phase graph (AgentPM).
    #[default]
    General,
    /// Read, Eval, Act, Loop: mission-driven, one actor.
    Real,
    /// Validate, Eval, Act, Loop: state-driven, a validator and an actor.
    Veal,
}

/// One loop in loopconv's intermediate representation.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, Default)]
#[serde(deny_unknown_fields)]
#[schemars(title = "loopconv IR loop")]
#[schemars(extend("allOf" = [
    {
        "if": {"properties": {"pattern": {"const": "real"}}, "required": ["pattern"]},
        "then": {"required": ["goal"], "properties": {"goal": {"required": ["mission"]}}}
    },
    {
        "if": {"properties": {"pattern": {"const": "veal"}}, "required": ["pattern"]},
        "then": {
            "required": ["roles", "goal"],
            "properties": {
                "roles": {"required": ["validator"]},
                "goal": {"required": ["checks"], "properties": {"checks": {"minItems": 1}}}
            }
        }
    },
    {
        "if": {
            "properties": {"bounds": {"properties": {"escalation": {"const": "fallback"}}, "required": ["escalation"]}},
            "required": ["bounds"]
        },
        "then": {"required": ["roles"], "properties": {"roles": {"required": ["fallback_agent"]}}}
    }
]))]
pub struct Spec {
    /// The format the loop was read from.
    pub source_format: Format,
    /// Loop (package) name.
    #[schemars(regex(pattern = id_pattern::NAME))]
    pub name: String,
    /// Package version (AgentPM); MAS loops have none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = id_pattern::VERSION))]
    pub version: Option<String>,
    /// Human-readable description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// `$schema` URI of an AgentPM manifest.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schema_uri: Option<String>,
    /// README path of an AgentPM package.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1))]
    pub readme: Option<String>,
    /// License metadata of an AgentPM package.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub license: Option<License>,
    /// AgentPM `environment`, passed through untouched.
    #[serde(
        default,
        deserialize_with = "crate::ir::present",
        skip_serializing_if = "Option::is_none"
    )]
    pub environment: Option<serde_json::Value>,
    /// General graph, REAL or VEAL.
    pub pattern: LoopPattern,
    /// Descriptive label (AgentPM `loop.archetype`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1), regex(pattern = r"\S"))]
    pub archetype: Option<String>,
    /// MAS agents.
    #[serde(default, skip_serializing_if = "Roles::is_empty")]
    pub roles: Roles,
    /// MAS goal: mission, success criteria, checks, ports.
    #[serde(default, skip_serializing_if = "Goal::is_empty")]
    pub goal: Goal,
    /// The phase graph.
    pub graph: Graph,
    /// Limits and failure handling.
    #[serde(default)]
    pub bounds: Bounds,
    /// Where the loop-level fields came from, recorded by the front end that read it.
    /// Never serialised, never compared.
    #[serde(skip)]
    #[schemars(skip)]
    pub provenance: Provenance,
}

/// AgentPM license metadata.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Default)]
#[serde(deny_unknown_fields)]
pub struct License {
    /// SPDX identifier.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1))]
    pub spdx: Option<String>,
    /// License file path.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1))]
    pub file: Option<String>,
}

/// The agents of a MAS loop.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Default)]
#[serde(deny_unknown_fields)]
pub struct Roles {
    /// The agent that acts (write access).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub actor: Option<String>,
    /// The agent that validates (read-only; VEAL).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub validator: Option<String>,
    /// The agent invoked by `escalation: fallback`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fallback_agent: Option<String>,
}

impl Roles {
    /// No role is set.
    pub fn is_empty(&self) -> bool {
        self.actor.is_none() && self.validator.is_none() && self.fallback_agent.is_none()
    }
}

/// The goal of a MAS loop.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, Default)]
#[serde(deny_unknown_fields)]
pub struct Goal {
    /// Goal statement (REAL).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mission: Option<String>,
    /// Description of success.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub success_criteria: Option<String>,
    /// Checks run by the validator (VEAL). `None` when the source had no `checks` key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checks: Option<Vec<Check>>,
    /// Data inputs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inputs: Option<Vec<Port>>,
    /// Data outputs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outputs: Option<Vec<Port>>,
}

impl Goal {
    /// Nothing is set.
    pub fn is_empty(&self) -> bool {
        same_content(self, &Goal::default())
    }
}

/// A MAS check.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, Default)]
#[serde(deny_unknown_fields)]
pub struct Check {
    /// Check id.
    #[schemars(regex(pattern = id_pattern::NAME))]
    pub id: String,
    /// What it checks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// `command`, `pattern`, `file` or `manual`.
    #[serde(default, rename = "type", skip_serializing_if = "Option::is_none")]
    pub kind: Option<CheckType>,
    /// Shell command (type command).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// Regex (type pattern).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pattern: Option<String>,
    /// Glob of files to search.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub files: Option<String>,
    /// File path (type file).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// Whether a failure makes the iteration NO-GO (default true).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub required: Option<bool>,
    /// Description of success.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<String>,
    /// Where it came from.
    #[serde(skip)]
    #[schemars(skip)]
    pub origin: Origin,
}

/// A MAS input or output port.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, Default)]
#[serde(deny_unknown_fields)]
pub struct Port {
    /// Port name.
    pub name: String,
    /// Data type.
    #[serde(default, rename = "type", skip_serializing_if = "Option::is_none")]
    pub kind: Option<PortType>,
    /// What it carries.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Whether it is required.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub required: Option<bool>,
    /// `step.output` reference.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// JSON Schema of the value, passed through.
    #[serde(
        default,
        deserialize_with = "crate::ir::present",
        skip_serializing_if = "Option::is_none"
    )]
    pub schema: Option<serde_json::Value>,
    /// Default value, passed through.
    #[serde(
        default,
        deserialize_with = "crate::ir::present",
        skip_serializing_if = "Option::is_none"
    )]
    pub default: Option<serde_json::Value>,
    /// Where it came from.
    #[serde(skip)]
    #[schemars(skip)]
    pub origin: Origin,
}

/// The phase graph.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, Default)]
#[serde(deny_unknown_fields)]
pub struct Graph {
    /// The phase a run starts in.
    #[schemars(regex(pattern = id_pattern::STABLE_ID), length(max = 64))]
    pub entry: String,
    /// Phases in authored order.
    #[schemars(length(min = 1))]
    pub phases: Vec<Phase>,
    /// Transitions in authored order.
    #[schemars(length(min = 1))]
    pub transitions: Vec<Transition>,
    /// Approval checkpoints in authored order (evaluated in this order). `None` when the
    /// source had no `checkpoints` key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checkpoints: Option<Vec<Checkpoint>>,
    /// Where `entry_phase` came from.
    #[serde(skip)]
    #[schemars(skip)]
    pub entry_origin: Origin,
}

/// A map keyed by ids, for lookups only (never iterated, so its order cannot reach an
/// output): hashed with a fixed-seed fast hash, since string-ordered maps spent most of the
/// graph analysis of a large loop comparing ids.
pub type IdMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::FixedState>;

/// A set of ids, for lookups only (see [`IdMap`]).
pub type IdSet<K> = std::collections::HashSet<K, foldhash::fast::FixedState>;

/// An empty [`IdMap`] with room for `n` entries.
pub fn id_map<K, V>(n: usize) -> IdMap<K, V> {
    IdMap::with_capacity_and_hasher(n, foldhash::fast::FixedState::default())
}

impl Graph {
    /// The transitions leaving each phase, indexed once (for writers that list a phase's
    /// transitions: a scan of all transitions per phase was quadratic).
    pub fn outgoing(&self) -> Outgoing<'_> {
        let mut by_from: IdMap<&str, Vec<&Transition>> = id_map(self.phases.len());
        for t in &self.transitions {
            by_from.entry(t.from.as_str()).or_default().push(t);
        }
        let mut first_on = id_map(0);
        for (&from, ts) in by_from.iter().filter(|(_, ts)| ts.len() > SCAN_TRANSITIONS) {
            for &t in ts {
                first_on.entry((from, t.on.as_str())).or_insert(t);
            }
        }
        Outgoing { by_from, first_on }
    }

    /// Each phase id's first declaration (what [`Spec::phase`] finds), indexed once, for
    /// callers that look many phases up: a scan per lookup was quadratic.
    pub fn first_phases(&self) -> IdMap<&str, &Phase> {
        let mut first: IdMap<&str, &Phase> = id_map(self.phases.len());
        for p in &self.phases {
            first.entry(p.id.as_str()).or_insert(p);
        }
        first
    }

    /// The phases at `indices` (indices into [`Graph::phases`], as the analysis names
    /// phases), in that order; an index past the end is skipped.
    pub fn phases_at<'a, 'i>(
        &'a self,
        indices: &'i [usize],
    ) -> impl Iterator<Item = &'a Phase> + use<'a, 'i> {
        indices.iter().filter_map(|&i| self.phases.get(i))
    }

    /// The ids of the phases at `indices` ([`Graph::phases_at`]).
    pub fn phase_ids<'a, 'i>(
        &'a self,
        indices: &'i [usize],
    ) -> impl Iterator<Item = &'a str> + use<'a, 'i> {
        self.phases_at(indices).map(|p| p.id.as_str())
    }
}

/// The transitions of a [`Graph`] by the phase they leave, each list in authored order.
#[derive(Debug)]
pub struct Outgoing<'a> {
    by_from: IdMap<&'a str, Vec<&'a Transition>>,
    /// The first transition on each outcome of a phase with more than
    /// [`SCAN_TRANSITIONS`] transitions: a scan of its list per outcome was quadratic
    /// (one phase of 14,000 outcomes took 3 s to write as XState).
    first_on: IdMap<(&'a str, &'a str), &'a Transition>,
}

/// A phase with more transitions than this has them indexed by outcome ([`Outgoing::on`]).
const SCAN_TRANSITIONS: usize = 16;

impl<'a> Outgoing<'a> {
    /// The transitions leaving `phase`, in authored order.
    pub fn from(&self, phase: &str) -> &[&'a Transition] {
        self.by_from.get(phase).map_or(&[], Vec::as_slice)
    }

    /// The first transition leaving `phase` on `outcome`.
    pub fn on(&self, phase: &str, outcome: &str) -> Option<&'a Transition> {
        let from = self.from(phase);
        if from.len() > SCAN_TRANSITIONS {
            let first_on: &IdMap<(&str, &str), &'a Transition> = &self.first_on;
            return first_on.get(&(phase, outcome)).copied();
        }
        from.iter().find(|t| t.on == outcome).copied()
    }
}

/// One phase: one execution of it is one step.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, Default)]
#[serde(deny_unknown_fields)]
pub struct Phase {
    /// Stable id.
    #[schemars(regex(pattern = id_pattern::STABLE_ID), length(max = 64))]
    pub id: String,
    /// What the phase must achieve (not blank).
    #[schemars(length(min = 1), regex(pattern = r"\S"))]
    pub objective: String,
    /// Access intent; `None` when the source had no `access` key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub access: Option<Access>,
    /// Declared outcomes; `None` means the single implicit outcome `complete`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1))]
    pub outcomes: Option<Vec<Outcome>>,
    /// Where it came from.
    #[serde(skip)]
    #[schemars(skip)]
    pub origin: Origin,
}

/// The implicit outcome of a phase that declares none.
pub const IMPLICIT_OUTCOME: &str = "complete";

impl Phase {
    /// The ids of the outcomes this phase can emit (declared, or the implicit `complete`).
    pub fn outcome_ids(&self) -> Vec<&str> {
        match &self.outcomes {
            Some(os) => os.iter().map(|o| o.id.as_str()).collect(),
            None => vec![IMPLICIT_OUTCOME],
        }
    }

    /// Whether this phase can emit `outcome` (without collecting its ids).
    pub fn has_outcome(&self, outcome: &str) -> bool {
        match &self.outcomes {
            Some(os) => os.iter().any(|o| o.id == outcome),
            None => outcome == IMPLICIT_OUTCOME,
        }
    }
}

/// Access intent: `None` in any field means "no opinion", which is not `false`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Default)]
#[serde(deny_unknown_fields)]
pub struct Access {
    /// May the phase call tools.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools: Option<bool>,
    /// May the phase read knowledge.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub knowledge: Option<bool>,
    /// Memory access.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory: Option<MemoryAccess>,
}

/// Memory access intent (at least one key).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Default)]
#[serde(deny_unknown_fields)]
#[schemars(extend("minProperties" = 1))]
pub struct MemoryAccess {
    /// May read memory.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read: Option<bool>,
    /// May write memory.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub write: Option<bool>,
}

/// A declared outcome.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, Default)]
#[serde(deny_unknown_fields)]
pub struct Outcome {
    /// Stable id.
    #[schemars(regex(pattern = id_pattern::STABLE_ID), length(max = 64))]
    pub id: String,
    /// What it means (not blank).
    #[schemars(length(min = 1), regex(pattern = r"\S"))]
    pub description: String,
    /// Where it came from.
    #[serde(skip)]
    #[schemars(skip)]
    pub origin: Origin,
}

/// Where a transition or a rejection goes: a phase or a terminal.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Destination {
    /// A phase id.
    Phase(String),
    /// A terminal.
    Terminal(Terminal),
}

impl Destination {
    /// Parse the text form (`$end`, `$abort`, `$handoff`, or a phase id).
    pub fn parse(s: &str) -> Destination {
        match Terminal::parse(s) {
            Some(t) => Destination::Terminal(t),
            None => Destination::Phase(s.to_owned()),
        }
    }

    /// The text form.
    pub fn as_str(&self) -> &str {
        match self {
            Destination::Phase(p) => p,
            Destination::Terminal(t) => t.as_str(),
        }
    }
}

impl Serialize for Destination {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Destination {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Ok(Destination::parse(&s))
    }
}

impl JsonSchema for Destination {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Target".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "A phase id or a terminal: `$end` (success), `$abort` (deliberate unsuccessful stop), `$handoff` (yield to an outside owner).",
            "type": "string"
        })
    }
}

/// The three terminals.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
pub enum Terminal {
    /// `$end`: success.
    #[serde(rename = "$end")]
    End,
    /// `$abort`: a deliberate unsuccessful stop.
    #[serde(rename = "$abort")]
    Abort,
    /// `$handoff`: yield to an outside owner.
    #[serde(rename = "$handoff")]
    Handoff,
}

impl Terminal {
    /// All terminals, in drawing order.
    pub const ALL: [Terminal; 3] = [Terminal::End, Terminal::Abort, Terminal::Handoff];

    /// Parse `$end` / `$abort` / `$handoff`.
    pub fn parse(s: &str) -> Option<Terminal> {
        match s {
            "$end" => Some(Terminal::End),
            "$abort" => Some(Terminal::Abort),
            "$handoff" => Some(Terminal::Handoff),
            _ => None,
        }
    }

    /// The text form.
    pub fn as_str(self) -> &'static str {
        match self {
            Terminal::End => "$end",
            Terminal::Abort => "$abort",
            Terminal::Handoff => "$handoff",
        }
    }

    /// What the terminal means, in words.
    pub fn meaning(self) -> &'static str {
        match self {
            Terminal::End => "success",
            Terminal::Abort => "failure",
            Terminal::Handoff => "hand-off",
        }
    }
}

/// A transition: when phase `from` emits outcome `on`, go to `to`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Transition {
    /// Source phase id.
    pub from: String,
    /// Outcome id.
    pub on: String,
    /// Target phase or terminal.
    pub to: Destination,
    /// The name of the final state `to` is, when `to` is a terminal whose final state
    /// has a name of its own (an XState machine's `success`, `done`): an annotation of the
    /// terminal, not another one (the run ends with the terminal's status). The XState
    /// back end writes the final state under this name, and `diff` reports a new one;
    /// the other back ends have no place for it. `None`: the terminal's own name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1))]
    pub final_state: Option<String>,
    /// Where it came from.
    #[serde(skip)]
    #[schemars(skip)]
    pub origin: Origin,
}

/// An approval checkpoint: suspend before entering `before_phase`; approval enters it,
/// rejection goes to `on_reject`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Checkpoint {
    /// Stable id.
    #[schemars(regex(pattern = id_pattern::STABLE_ID), length(max = 64))]
    pub id: String,
    /// The guarded phase.
    pub before_phase: String,
    /// Where a rejection goes.
    pub on_reject: Destination,
    /// The name of the final state `on_reject` is, when it is a terminal whose final
    /// state has a name of its own ([`Transition::final_state`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1))]
    pub final_state: Option<String>,
    /// Where it came from.
    #[serde(skip)]
    #[schemars(skip)]
    pub origin: Origin,
}

/// Limits and failure handling.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Default)]
#[serde(deny_unknown_fields)]
pub struct Bounds {
    /// Most phase executions in one run (AgentPM `limits.max_steps`). For a MAS loop this
    /// is derived: `3 * max_attempts - 1`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub max_steps: Option<u64>,
    /// MAS `max_attempts` as written (`None`: absent, meaning 3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub max_attempts: Option<u64>,
    /// MAS escalation as written (`None`: absent, meaning `human`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub escalation: Option<Escalation>,
    /// AgentPM error policy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_policy: Option<ErrorPolicy>,
}

impl Spec {
    /// The phase with this id (the first, if ids repeat).
    pub fn phase(&self, id: &str) -> Option<&Phase> {
        self.graph.phases.iter().find(|p| p.id == id)
    }

    /// Effective MAS max attempts (default 3).
    pub fn effective_max_attempts(&self) -> u64 {
        self.bounds.max_attempts.unwrap_or(3)
    }

    /// Effective MAS escalation (default `human`).
    pub fn effective_escalation(&self) -> Escalation {
        self.bounds.escalation.unwrap_or(Escalation::Human)
    }
}
