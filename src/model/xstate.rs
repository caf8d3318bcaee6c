//! XState v5 machine configs (JSON), the subset a loop is: flat states, events with one
//! target each, final states, and loopconv's fields in `meta`.
//!
//! A phase is a state (its objective the `description`, its access intent in `meta`), each
//! outcome an event whose target is the transition's `to` (the outcome's description is the
//! transition's `description`), each approval checkpoint a state tagged `checkpoint` with
//! `APPROVE` and `REJECT` events, and each terminal a final state whose `output.status` is
//! the run status. The machine's `meta` holds what a state chart has no place for (package
//! fields, limits, error policy, the REAL/VEAL fields), so a loop goes through XState and
//! back exactly. The features of XState a loop cannot hold (parallel and nested states,
//! guards, actions, delays, invoked actors) are not in this model: the front end names them
//! (`F018`).

mod calls;
mod enforce;

pub use calls::{Call, CallKind, Counter, Eventless, Json, Params, Shape};
pub use enforce::{
    Enforcement, PHASE_FAILURE, STEP_CEILING, TOOL_FAILURE, enforce, enforcement, unenforce,
};

use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::format::Format;
use crate::ir::{
    Access, ErrorPolicy, Escalation, Goal, License, LoopPattern, Roles, Terminal, id_pattern,
};

/// The event that approves a checkpoint.
pub const APPROVE: &str = "APPROVE";
/// The event that rejects a checkpoint.
pub const REJECT: &str = "REJECT";
/// The tag of a checkpoint's gate state (`back::xstate` writes it; the phase limit
/// leaves tagged states out).
pub const CHECKPOINT_TAG: &str = "checkpoint";

/// An XState machine config.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "XState machine (loopconv subset)")]
pub struct Machine {
    /// Machine id: the loop's name (a name, `^[a-z][a-z0-9-]*$`; the front end checks it,
    /// and names a machine without one, so that a hand-written machine's other problems
    /// are reported with it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Package version (AgentPM).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = id_pattern::VERSION))]
    pub version: Option<String>,
    /// The loop's description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The state a run starts in: the entry phase, or its first checkpoint's gate.
    pub initial: String,
    /// loopconv's counters (`steps`, REAL/VEAL `attempts`, tool `retries`), which its
    /// guards read ([`enforce`]); any other `context` is not a loop's (`F018`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<serde_json::Value>,
    /// loopconv's loop-level fields.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<MachineMeta>,
    /// Phases, then gates, then final states.
    #[schemars(length(min = 1))]
    pub states: States,
}

/// A machine's states by key, in the order they are written (hashed with the fixed-seed
/// hash of `ir::IdMap`: the standard one was 3 % of reading a large machine).
pub type States = IndexMap<String, State, foldhash::fast::FixedState>;

/// A state's events by name, in the order they are written: a list of pairs, read and
/// written as a JSON object. A state has a handful of events; an `IndexMap` per state (a
/// hash table beside the list) was a tenth of the page faults of reading a 10,000-phase
/// machine, and no reader looks an event up by name.
#[derive(Debug, Clone, Default)]
pub struct Events(Vec<(String, On)>);

impl Events {
    /// The events of `pairs`, in order; a name given twice keeps its first place and its
    /// last value (as a JSON object read by serde_json, or an `IndexMap`).
    pub fn from_pairs(pairs: Vec<(String, On)>) -> Events {
        let n = pairs.len();
        Events(super::last_values(pairs, n))
    }

    /// Keep the events `keep` accepts, each as `keep` leaves it, in order.
    pub fn retain_mut(&mut self, mut keep: impl FnMut(&str, &mut On) -> bool) {
        self.0.retain_mut(|(name, on)| keep(name, on));
    }

    /// Whether there is no event.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The events, in order.
    pub fn iter(&self) -> impl Iterator<Item = (&String, &On)> {
        self.0.iter().map(|(name, on)| (name, on))
    }

    /// The events, in order, as owned pairs.
    pub fn into_pairs(self) -> Vec<(String, On)> {
        self.0
    }

    /// The events, in order, each `On` writable.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (&String, &mut On)> {
        self.0.iter_mut().map(|(name, on)| (&*name, on))
    }
}

impl<'a> IntoIterator for &'a Events {
    type Item = (&'a String, &'a On);
    type IntoIter = std::iter::Map<
        std::slice::Iter<'a, (String, On)>,
        fn(&'a (String, On)) -> (&'a String, &'a On),
    >;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter().map(|(name, on)| (name, on))
    }
}

impl<'a> IntoIterator for &'a mut Events {
    type Item = (&'a String, &'a mut On);
    type IntoIter = std::iter::Map<
        std::slice::IterMut<'a, (String, On)>,
        fn(&'a mut (String, On)) -> (&'a String, &'a mut On),
    >;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter_mut().map(|(name, on)| (&*name, on))
    }
}

impl Serialize for Events {
    fn serialize<S: serde::Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        ser.collect_map(self.iter())
    }
}

impl<'de> Deserialize<'de> for Events {
    fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        de.deserialize_map(EventsVisitor)
    }
}

/// An object of events.
struct EventsVisitor;

impl<'de> serde::de::Visitor<'de> for EventsVisitor {
    type Value = Events;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("an object of events")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Events, A::Error> {
        // The hint is the reader's count; bounded, so that no hint can reserve much.
        let mut pairs = Vec::with_capacity(map.size_hint().unwrap_or(0).min(64));
        while let Some(pair) = map.next_entry()? {
            pairs.push(pair);
        }
        Ok(Events::from_pairs(pairs))
    }
}

/// The schema of an object of events: that of the map it is read as.
impl JsonSchema for Events {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        <EventsMap as JsonSchema>::schema_name()
    }

    fn schema_id() -> std::borrow::Cow<'static, str> {
        <EventsMap as JsonSchema>::schema_id()
    }

    fn inline_schema() -> bool {
        <EventsMap as JsonSchema>::inline_schema()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        <EventsMap as JsonSchema>::json_schema(generator)
    }
}

/// The map [`Events`] is read and written as.
type EventsMap = IndexMap<String, On>;

/// The loop-level fields a state chart has no place for.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MachineMeta {
    /// The format the loop was first written in (default `xstate`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_format: Option<Format>,
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
    /// `general` (default), `real` or `veal`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pattern: Option<LoopPattern>,
    /// AgentPM `loop.archetype`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1), regex(pattern = r"\S"))]
    pub archetype: Option<String>,
    /// The REAL/VEAL agents.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub roles: Option<Roles>,
    /// The REAL/VEAL mission, success criteria, checks and ports.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub goal: Option<Goal>,
    /// Most phase executions in one run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub max_steps: Option<u64>,
    /// REAL/VEAL `max_attempts` as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub max_attempts: Option<u64>,
    /// REAL/VEAL escalation as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub escalation: Option<Escalation>,
    /// AgentPM error policy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_policy: Option<ErrorPolicy>,
    /// The loop declares an empty list of checkpoints (`checkpoints: []`), which no gate
    /// state can say.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub empty_checkpoints: Option<bool>,
    /// The transitions in authored order, when that is not the order of the states and
    /// their events.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transition_order: Option<Vec<TransitionKey>>,
    /// What the machine's counters and guards enforce, and what they cannot ([`enforce`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enforcement: Option<String>,
}

/// A transition named by its phase and outcome.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TransitionKey {
    /// The phase it leaves.
    pub from: String,
    /// Its outcome.
    pub on: String,
}

/// A state: a phase, a checkpoint's gate, or a terminal.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct State {
    /// `final` for a terminal; loopconv refuses the other kinds but `atomic`.
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<StateType>,
    /// A phase's objective.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// `["checkpoint"]` on a checkpoint's gate (XState also takes one tag as a string;
    /// any other tag is not a loop's, and is dropped only with `--allow-lossy`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Tags>,
    /// The state's own id, for `#id` targets.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// A phase's access intent; a gate's checkpoint id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<StateMeta>,
    /// A phase's entry actions: loopconv's counters ([`enforce`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entry: Option<Json<Vec<Call>>>,
    /// A phase's eventless transition to the step limit ([`enforce`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub always: Option<Json<Vec<Eventless>>>,
    /// The events: a phase's outcomes, a gate's `APPROVE` and `REJECT`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub on: Option<Events>,
    /// A final state's run status.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output: Option<Output>,
}

/// The kind of a state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum StateType {
    /// A state without children (the default).
    Atomic,
    /// A state with child states.
    Compound,
    /// A state whose child states are all active at once.
    Parallel,
    /// A pseudo-state remembering a parent's last child.
    History,
    /// A state where the machine stops.
    Final,
}

/// A state's tags: one string or a list of them (written as a list).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Tags(pub Vec<String>);

impl Tags {
    /// The tags of a checkpoint's gate.
    pub fn checkpoint() -> Tags {
        Tags(vec![CHECKPOINT_TAG.to_owned()])
    }

    /// Whether the state is tagged `checkpoint`.
    pub fn is_checkpoint(&self) -> bool {
        self.0.iter().any(|t| t == CHECKPOINT_TAG)
    }
}

impl<'de> Deserialize<'de> for Tags {
    fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        OneOrMany::deserialize(de).map(|t| Tags(t.into_vec()))
    }
}

impl JsonSchema for Tags {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Tags".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        <OneOrMany as JsonSchema>::json_schema(generator)
    }
}

/// One string or a list of them, as XState writes tags and targets.
#[derive(Debug, Clone, JsonSchema)]
#[serde(untagged)]
enum OneOrMany {
    /// One.
    One(String),
    /// A list.
    Many(Vec<String>),
}

impl OneOrMany {
    fn into_vec(self) -> Vec<String> {
        match self {
            OneOrMany::One(s) => vec![s],
            OneOrMany::Many(v) => v,
        }
    }
}

/// What serde's untagged enum said of a value that is neither (the message is kept).
const NEITHER: &str = "data did not match any variant of untagged enum OneOrMany";

// Read by the kind of value, not as serde's untagged enum, which buffered every target
// (30,000 in a 10,000-phase machine) before trying each variant.
impl<'de> Deserialize<'de> for OneOrMany {
    fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        de.deserialize_any(OneOrManyVisitor)
    }
}

/// A string or a list of strings; anything else is [`NEITHER`].
struct OneOrManyVisitor;

impl<'de> serde::de::Visitor<'de> for OneOrManyVisitor {
    type Value = OneOrMany;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a string or a list of strings")
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<OneOrMany, E> {
        Ok(OneOrMany::One(v.to_owned()))
    }

    fn visit_string<E: serde::de::Error>(self, v: String) -> Result<OneOrMany, E> {
        Ok(OneOrMany::One(v))
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<OneOrMany, A::Error> {
        let mut many = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(16));
        loop {
            match seq.next_element::<String>() {
                Ok(Some(s)) => many.push(s),
                Ok(None) => return Ok(OneOrMany::Many(many)),
                Err(_) => return Err(serde::de::Error::custom(NEITHER)),
            }
        }
    }

    fn visit_bool<E: serde::de::Error>(self, _: bool) -> Result<OneOrMany, E> {
        Err(E::custom(NEITHER))
    }

    fn visit_i64<E: serde::de::Error>(self, _: i64) -> Result<OneOrMany, E> {
        Err(E::custom(NEITHER))
    }

    fn visit_u64<E: serde::de::Error>(self, _: u64) -> Result<OneOrMany, E> {
        Err(E::custom(NEITHER))
    }

    fn visit_f64<E: serde::de::Error>(self, _: f64) -> Result<OneOrMany, E> {
        Err(E::custom(NEITHER))
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<OneOrMany, E> {
        Err(E::custom(NEITHER))
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, _: A) -> Result<OneOrMany, A::Error> {
        Err(serde::de::Error::custom(NEITHER))
    }
}

/// A transition's targets: the key of one state (or `#id`), as loopconv writes it, or a
/// list of them, as XState also takes (one is the same as the key alone; several are a
/// parallel machine's); none for a targetless transition.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Targets(pub Vec<String>);

impl Targets {
    /// The one target `key`.
    pub fn one(key: impl Into<String>) -> Targets {
        Targets(vec![key.into()])
    }

    /// The first target.
    pub fn first(&self) -> Option<&str> {
        self.0.first().map(String::as_str)
    }

    /// Whether there is no target.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl Serialize for Targets {
    fn serialize<S: serde::Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        match self.0.as_slice() {
            [one] => ser.serialize_str(one),
            many => many.serialize(ser),
        }
    }
}

impl<'de> Deserialize<'de> for Targets {
    fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        OneOrMany::deserialize(de).map(|t| Targets(t.into_vec()))
    }
}

impl JsonSchema for Targets {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Targets".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        <OneOrMany as JsonSchema>::json_schema(generator)
    }
}

/// A state's `meta`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StateMeta {
    /// A phase's access intent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub access: Option<Access>,
    /// A gate's checkpoint id (default: the state's key).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checkpoint: Option<String>,
    /// A final state of loopconv's enforcement (the step limit, a failure), no terminal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enforced: Option<bool>,
}

// Read by the kind of value (a string, an object, an array), not as serde's untagged
// enum, which buffers every event's value and tries each variant in turn (a tenth of
// reading a large machine). (Not a doc comment: the schema's description is the line below.)
/// What an event does: go to a state, with or without a description.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum On {
    /// The target state's key.
    Target(String),
    /// A transition object.
    Transition(Transition),
    /// Several candidate transitions, chosen by guards: not a loop's (one is the same
    /// as that transition alone). XState takes a target's key as a candidate too.
    Candidates(#[schemars(with = "Vec<Candidate>")] Vec<Transition>),
}

/// A candidate transition as it may be written: a target's key or a transition object.
#[derive(JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum Candidate {
    /// The target state's key.
    Target(String),
    /// A transition object.
    Transition(Transition),
}

impl<'de> Deserialize<'de> for On {
    fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        de.deserialize_any(OnVisitor)
    }
}

/// The kinds of value an event is.
struct OnVisitor;

impl<'de> serde::de::Visitor<'de> for OnVisitor {
    type Value = On;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a target state's key, a transition object or a list of them")
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<On, E> {
        Ok(On::Target(v.to_owned()))
    }

    fn visit_string<E: serde::de::Error>(self, v: String) -> Result<On, E> {
        Ok(On::Target(v))
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<On, A::Error> {
        Transition::deserialize(serde::de::value::MapAccessDeserializer::new(map))
            .map(On::Transition)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<On, A::Error> {
        let mut candidates = Vec::new();
        while let Some(on) = seq.next_element::<On>()? {
            candidates.push(match on {
                On::Target(key) => Transition::to(key),
                On::Transition(t) => t,
                On::Candidates(_) => {
                    return Err(serde::de::Error::custom(
                        "a candidate transition is a target or a transition object",
                    ));
                }
            });
        }
        Ok(On::Candidates(candidates))
    }
}

impl On {
    /// The target state's key (the first candidate's, for several).
    pub fn target(&self) -> Option<&str> {
        match self {
            On::Target(t) => Some(t),
            On::Transition(t) => t.target.first(),
            On::Candidates(c) => c.first().and_then(|t| t.target.first()),
        }
    }
}

/// A transition object.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Transition {
    /// The target state's key (or several, or none: not a loop's).
    #[serde(default, skip_serializing_if = "Targets::is_empty")]
    pub target: Targets,
    /// The outcome's description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// loopconv's guard on a counter ([`enforce`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub guard: Option<Box<Json<Call>>>,
    /// loopconv's counting action ([`enforce`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub actions: Option<Box<Json<Vec<Call>>>>,
    /// `true` on an outcome that goes back to its own phase: one more step ([`enforce`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reenter: Option<Box<serde_json::Value>>,
}

impl Transition {
    /// The transition to `key` and nothing else.
    pub fn to(key: impl Into<String>) -> Transition {
        Transition {
            target: Targets::one(key),
            ..Transition::default()
        }
    }
}

/// A final state's output.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Output {
    /// The run status the terminal ends a run with.
    pub status: Status,
}

/// The run status of a terminal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// `$end`: success.
    Ended,
    /// `$abort`: a deliberate unsuccessful stop.
    Aborted,
    /// `$handoff`: yield to an outside owner.
    HandedOff,
    /// The step limit ran out (a final state of loopconv's enforcement, no terminal).
    LimitReached,
    /// A failure failed the run (a final state of loopconv's enforcement, no terminal).
    Failed,
}

impl Status {
    /// The run status a terminal ends a run with.
    pub fn of(t: Terminal) -> Status {
        match t {
            Terminal::End => Status::Ended,
            Terminal::Abort => Status::Aborted,
            Terminal::Handoff => Status::HandedOff,
        }
    }

    /// The terminal that ends a run with this status (none for the step limit and a
    /// failed run).
    pub fn terminal(self) -> Option<Terminal> {
        match self {
            Status::Ended => Some(Terminal::End),
            Status::Aborted => Some(Terminal::Abort),
            Status::HandedOff => Some(Terminal::Handoff),
            Status::LimitReached | Status::Failed => None,
        }
    }
}

/// The key of a terminal's final state (`end`, `abort`, `handoff`) when no phase has it.
pub fn terminal_key(t: Terminal) -> &'static str {
    match t {
        Terminal::End => "end",
        Terminal::Abort => "abort",
        Terminal::Handoff => "handoff",
    }
}

/// The key the XState back end gives the final state of terminal `t` when the loop names
/// it nothing of its own ([`crate::ir::Transition::final_state`]): [`terminal_key`] if
/// no other state has it (`taken`), else `end-terminal`, `end-terminal-2`, ... The front
/// end reads a final state under any other key as a name of its own.
pub fn final_key(t: Terminal, taken: impl Fn(&str) -> bool) -> String {
    let base = terminal_key(t);
    let mut key = base.to_owned();
    let mut n = 1;
    while taken(&key) {
        key = if n == 1 {
            format!("{base}-terminal")
        } else {
            format!("{base}-terminal-{n}")
        };
        n += 1;
    }
    key
}

/// The JSON Schema of the XState machines loopconv reads, generated from the types (the source of
/// `schemas/xstate.schema.json`, which a test keeps equal to it).
pub fn generated_schema() -> serde_json::Value {
    super::schema::generate::<Machine>("https://loopconv.dev/schemas/xstate.schema.json")
}

/// `schemas/xstate.schema.json`, embedded.
pub(super) const COMMITTED_SCHEMA: &str = include_str!("../../schemas/xstate.schema.json");

#[cfg(test)]
mod tests {
    use super::{Events, On};

    fn names_and_targets(events: &Events) -> Vec<(&str, &str)> {
        events
            .iter()
            .map(|(name, on)| (name.as_str(), on.target().unwrap_or("")))
            .collect()
    }

    /// A name given twice keeps its first place and its last value, as serde_json's
    /// `IndexMap` did, for a few events (compared) and many (indexed).
    #[test]
    fn a_repeated_event_keeps_its_first_place_and_last_value() {
        for filler in [0, 40] {
            let mut pairs = vec![("a".to_owned(), On::Target("x".to_owned()))];
            pairs.extend((0..filler).map(|i| (format!("e{i}"), On::Target("f".to_owned()))));
            pairs.push(("b".to_owned(), On::Target("y".to_owned())));
            pairs.push(("a".to_owned(), On::Target("z".to_owned())));
            let events = Events::from_pairs(pairs);
            let got = names_and_targets(&events);
            assert_eq!(got.len(), filler + 2);
            assert_eq!(got[0], ("a", "z"));
            assert_eq!(got[filler + 1], ("b", "y"));
        }
        let read: Events = serde_json::from_str(r#"{"a": "x", "b": "y", "a": "z"}"#).unwrap();
        assert_eq!(names_and_targets(&read), [("a", "z"), ("b", "y")]);
        let written = serde_json::to_string(&read).unwrap();
        assert_eq!(written, r#"{"a":"z","b":"y"}"#);
    }
}
