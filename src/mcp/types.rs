//! The inputs and outputs of the tools, with their JSON Schemas.

use std::sync::Arc;

use rmcp::handler::server::common::{schema_for_output, schema_for_type};
use rmcp::model::JsonObject;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

// as nullable (`["string", "null"]`, which some clients' schema dialects reject): it may be
// left out.

/// A JSON object: a diagnostic, or the JSON output of a command.
pub(super) type Object = serde_json::Map<String, Value>;

/// `value` as a JSON object (every value given here serialises as one).
pub(super) fn object<T: Serialize + ?Sized>(value: &T) -> Object {
    match serde_json::to_value(value) {
        Ok(Value::Object(m)) => m,
        _ => Object::new(),
    }
}

/// A loop: a file inside the client's roots, or its text.
#[derive(Debug, Default, Deserialize, JsonSchema)]
pub(super) struct LoopIn {
    /// A loop file (for `check`, also a folder), relative to the first root or absolute;
    /// it must lie inside the client's roots. Give this or `text`.
    #[serde(default)]
    #[schemars(with = "String")]
    pub(super) path: Option<String>,
    /// The loop's text itself (JSON or YAML), to check a draft before writing it. Give this
    /// or `path`.
    #[serde(default)]
    #[schemars(with = "String")]
    pub(super) text: Option<String>,
    /// The input format (`agentpm`, `mas`, `ir`, `xstate`); detected from the content when
    /// absent.
    #[serde(default)]
    #[schemars(with = "String")]
    pub(super) format: Option<String>,
    /// The name `text` gets in diagnostics (default `<text>`).
    #[serde(default)]
    #[schemars(with = "String")]
    pub(super) file_name: Option<String>,
}

/// The diagnostics of an input, as `loopconv check --format json` writes them.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct Diagnostics {
    /// Every diagnostic: code, severity, message, file, line and column, help and typed
    /// fixes.
    pub(super) diagnostics: Vec<Object>,
    pub(super) errors: usize,
    pub(super) warnings: usize,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub(super) struct CheckIn {
    #[serde(flatten)]
    pub(super) input: LoopIn,
    /// Treat warnings as errors.
    #[serde(default)]
    pub(super) strict: bool,
}

#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct CheckOut {
    /// No errors (under `strict`, no warnings either).
    pub(super) ok: bool,
    /// How many loop files were checked.
    pub(super) files: usize,
    #[serde(flatten)]
    pub(super) diagnostics: Diagnostics,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub(super) struct ExplainIn {
    /// A code (`V012`) or its name (`unreachable-phase`).
    pub(super) code: String,
}

#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct ExplainOut {
    pub(super) code: String,
    pub(super) name: String,
    /// The code's page (Markdown): what it checks, why, a failing example and the fix.
    pub(super) text: String,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub(super) struct Nothing {}

#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct CodeRow {
    pub(super) code: String,
    pub(super) name: String,
    pub(super) summary: String,
    pub(super) retired: bool,
}

#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct ListCodesOut {
    pub(super) codes: Vec<CodeRow>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub(super) struct GraphIn {
    #[serde(flatten)]
    pub(super) input: LoopIn,
    /// `mermaid` (default), `dot` or `plantuml`.
    #[serde(default)]
    #[schemars(with = "String")]
    pub(super) language: Option<String>,
    /// The Mermaid diagram style (Mermaid only).
    #[serde(default)]
    #[schemars(with = "String")]
    pub(super) style: Option<String>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct GraphOut {
    pub(super) language: String,
    /// The diagram's source; absent when the loop has errors.
    pub(super) diagram: Option<String>,
    #[serde(flatten)]
    pub(super) diagnostics: Diagnostics,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub(super) struct ConvertIn {
    #[serde(flatten)]
    pub(super) input: LoopIn,
    /// The target: `agentpm`, `mas`, `ir`, `xstate` or `langgraph`.
    pub(super) to: String,
    /// Convert even when the target cannot hold some fields, and read an XState machine
    /// written by hand without what a loop cannot hold (the losses are then warnings).
    #[serde(default)]
    pub(super) allow_lossy: bool,
    /// MAS `actor` for a loop that does not name one.
    #[serde(default)]
    #[schemars(with = "String")]
    pub(super) actor: Option<String>,
    /// MAS `validator` for a VEAL loop that does not name one.
    #[serde(default)]
    #[schemars(with = "String")]
    pub(super) validator: Option<String>,
    /// MAS `fallback_agent`.
    #[serde(default)]
    #[schemars(with = "String")]
    pub(super) fallback_agent: Option<String>,
    /// AgentPM `version` for a loop that has none.
    #[serde(default)]
    #[schemars(with = "String")]
    pub(super) set_version: Option<String>,
    /// With `to: xstate`: a `js` or `ts` module instead of JSON.
    #[serde(default)]
    #[schemars(with = "String")]
    pub(super) module: Option<String>,
    /// Write the result to this file (inside the roots; an existing file is replaced
    /// atomically). Without it nothing is written and the text is returned.
    #[serde(default)]
    #[schemars(with = "String")]
    pub(super) output: Option<String>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct ConvertOut {
    pub(super) to: String,
    /// The converted text (absent when the conversion was refused).
    pub(super) text: Option<String>,
    /// The file written, when `output` was given.
    pub(super) written: Option<String>,
    /// The loss report: the diagnostics of what the target cannot hold (errors unless
    /// `allow_lossy`).
    pub(super) losses: Vec<Object>,
    #[serde(flatten)]
    pub(super) diagnostics: Diagnostics,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub(super) struct PathsIn {
    #[serde(flatten)]
    pub(super) input: LoopIn,
    /// The runtime's step ceiling (default 50).
    #[serde(default)]
    #[schemars(with = "u64")]
    pub(super) runtime_max_steps: Option<u64>,
    /// List covering runs while the steps they spell out add up to at most this (default
    /// 2000).
    #[serde(default)]
    #[schemars(with = "usize")]
    pub(super) max_steps_listed: Option<usize>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct PathsOut {
    /// `loopconv paths --format json`: the shortest run to each terminal and the covering
    /// runs.
    pub(super) paths: Option<Object>,
    #[serde(flatten)]
    pub(super) diagnostics: Diagnostics,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub(super) struct WalkDecision {
    /// The checkpoint's id.
    pub(super) checkpoint: String,
    /// `approve` or `reject`.
    pub(super) decision: String,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub(super) struct WalkIn {
    #[serde(flatten)]
    pub(super) input: LoopIn,
    /// The outcomes of the phase executions, in order; `@tool-failure` and `@phase-failure`
    /// are failures.
    pub(super) outcomes: Vec<String>,
    /// Checkpoint decisions, in the order they are taken.
    #[serde(default)]
    pub(super) decisions: Vec<WalkDecision>,
    /// The runtime's step ceiling (default 50).
    #[serde(default)]
    #[schemars(with = "u64")]
    pub(super) runtime_max_steps: Option<u64>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct WalkOut {
    /// The run's status (`ended`, `aborted`, `handed_off`, `limit_reached`,
    /// `approval_required`, `failed`); absent when the script does not fit the loop.
    pub(super) status: Option<String>,
    /// `loopconv walk --format json`: the steps and why the run stopped.
    pub(super) run: Option<Object>,
    /// Why the script does not fit the loop.
    pub(super) script_error: Option<String>,
    #[serde(flatten)]
    pub(super) diagnostics: Diagnostics,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub(super) struct DiffIn {
    /// The old loop.
    pub(super) old: LoopIn,
    /// The new loop (any format).
    pub(super) new: LoopIn,
}

#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct DiffOut {
    /// `loopconv diff --format json`: every change and whether it breaks callers.
    pub(super) changes: Option<Object>,
    /// How many changes can break callers.
    pub(super) breaking: usize,
    /// The changes as text for people.
    pub(super) text: Option<String>,
    #[serde(flatten)]
    pub(super) diagnostics: Diagnostics,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub(super) struct SchemaIn {
    /// A format (`agentpm`, `mas`, `ir`, `xstate`): its JSON Schema. Give this or
    /// `outcomes_of`.
    #[serde(default)]
    #[schemars(with = "String")]
    pub(super) format: Option<String>,
    /// A loop: the JSON Schema of the results its phases return.
    #[serde(default)]
    #[schemars(with = "LoopIn")]
    pub(super) outcomes_of: Option<LoopIn>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct SchemaOut {
    pub(super) schema: Option<Object>,
    #[serde(flatten)]
    pub(super) diagnostics: Diagnostics,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub(super) struct NewIn {
    /// The pattern: `react`, `plan-and-solve`, `plan-execute-replan`, `reflexion`, `veal`,
    /// `real`.
    pub(super) archetype: String,
    /// The loop's name (lowercase kebab-case).
    pub(super) name: String,
    /// Write it in this format (only where the conversion is exact).
    #[serde(default)]
    #[schemars(with = "String")]
    pub(super) format: Option<String>,
    /// Write the scaffold to this file (inside the roots; an existing file is kept). Without
    /// it the text is returned.
    #[serde(default)]
    #[schemars(with = "String")]
    pub(super) output: Option<String>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct NewOut {
    pub(super) format: String,
    pub(super) text: Option<String>,
    pub(super) written: Option<String>,
    #[serde(flatten)]
    pub(super) diagnostics: Diagnostics,
}

/// The input schema of a tool taking `T`.
pub(super) fn input_schema<T: JsonSchema + std::any::Any>() -> Arc<JsonObject> {
    standard(&schema_for_type::<T>())
}

/// The output schema of a tool answering `T`.
pub(super) fn output_schema<T: JsonSchema + std::any::Any>() -> Arc<JsonObject> {
    standard(&schema_for_output::<T>())
}

/// A schema without the `format`s JSON Schema does not define: schemars writes `uint`,
/// `uint64` or `double` for Rust's numbers, which a validating client ignores with a
/// warning for each (the TypeScript SDK's Ajv); their bounds stay as `minimum`.
fn standard(schema: &JsonObject) -> Arc<JsonObject> {
    let mut v = Value::Object(schema.clone());
    drop_formats(&mut v);
    match v {
        Value::Object(m) => Arc::new(m),
        _ => Arc::new(JsonObject::new()),
    }
}

/// The `format` keywords of `v` that JSON Schema (2020-12) does not define, removed.
fn drop_formats(v: &mut Value) {
    const DEFINED: [&str; 19] = [
        "date-time",
        "date",
        "time",
        "duration",
        "email",
        "idn-email",
        "hostname",
        "idn-hostname",
        "ipv4",
        "ipv6",
        "uri",
        "uri-reference",
        "iri",
        "iri-reference",
        "uuid",
        "uri-template",
        "json-pointer",
        "relative-json-pointer",
        "regex",
    ];
    match v {
        Value::Object(m) => {
            let unknown = m
                .get("format")
                .and_then(Value::as_str)
                .is_some_and(|f| !DEFINED.contains(&f));
            if unknown {
                m.remove("format");
            }
            m.values_mut().for_each(drop_formats);
        }
        Value::Array(items) => items.iter_mut().for_each(drop_formats),
        _ => {}
    }
}
