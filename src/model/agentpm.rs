//! AgentPM loop manifests (`kind: "loop"`, usually `agent.json`), field for field.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::ir::id_pattern;

// The error policy is the IR's type (re-exported, so that a manifest is written with this
// module's names): the IR took its fields, spellings and rules from AgentPM's
// `error_policy`, so one definition serves both (and both schemas).
pub use crate::ir::{ErrorPolicy, Exhausted, PhaseAction, PhaseFailure, ToolAction, ToolFailure};

/// The `$schema` URI upstream publishes for manifests.
pub const UPSTREAM_SCHEMA_URI: &str = "https://raw.githubusercontent.com/agentpm-dev/cli/refs/heads/main/schemas/agentpm.manifest.schema.json";

/// An AgentPM loop manifest.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "AgentPM loop manifest", transform = require_kind)]
pub struct Manifest {
    /// JSON Schema URI for editors.
    #[serde(rename = "$schema", default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<String>,
    /// Package kind: always `loop`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<Kind>,
    /// Package name.
    #[schemars(regex(pattern = id_pattern::PACKAGE_NAME))]
    pub name: String,
    /// Package version (semantic version).
    #[schemars(regex(
        pattern = r"^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$"
    ))]
    pub version: String,
    /// Registry/package summary.
    pub description: String,
    /// README path.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1))]
    pub readme: Option<String>,
    /// License metadata.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub license: Option<License>,
    /// Environment variables, checked against upstream's shape and passed through untouched.
    #[serde(
        default,
        deserialize_with = "crate::ir::present",
        skip_serializing_if = "Option::is_none"
    )]
    #[schemars(schema_with = "environment_schema")]
    pub environment: Option<serde_json::Value>,
    /// The loop.
    #[serde(rename = "loop")]
    pub loop_: Loop,
}

/// The upstream schema's `environment` block, exactly: `{vars?: {NAME: {required,
/// description, default?}}}` with names `^[A-Z][A-Z0-9_]*$`, a boolean `required`, string
/// `description` and `default`, and no other keys.
fn environment_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({
        "description": "Environment variables the loop needs (upstream's `environment` block).",
        "type": "object",
        "additionalProperties": false,
        "properties": {
            "vars": {
                "type": "object",
                "propertyNames": { "pattern": ENV_VAR_NAME },
                "additionalProperties": {
                    "type": "object",
                    "additionalProperties": false,
                    "required": ["required", "description"],
                    "properties": {
                        "required": { "type": "boolean" },
                        "description": { "type": "string" },
                        "default": { "type": "string" }
                    }
                }
            }
        }
    })
}

/// Upstream's pattern for environment variable names.
pub const ENV_VAR_NAME: &str = "^[A-Z][A-Z0-9_]*$";

/// `kind` is optional in the model only so that files without it (seed 000) can be read
/// with a warning; the schema requires it.
fn require_kind(schema: &mut schemars::Schema) {
    if let Some(serde_json::Value::Array(req)) = schema.get_mut("required") {
        req.insert(0, serde_json::Value::String("kind".to_owned()));
    }
}

/// The package kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum Kind {
    /// A loop package.
    #[serde(rename = "loop")]
    Loop,
}

/// License metadata.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct License {
    /// SPDX identifier.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1))]
    pub spdx: Option<String>,
    /// License file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1))]
    pub file: Option<String>,
}

/// The `loop` object.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Loop {
    /// Descriptive label only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1), regex(pattern = r"\S"))]
    pub archetype: Option<String>,
    /// The phase a run starts in.
    #[schemars(regex(pattern = id_pattern::STABLE_ID), length(max = 64))]
    pub entry_phase: String,
    /// Loop-wide limits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limits: Option<Limits>,
    /// Phases.
    #[schemars(length(min = 1))]
    #[serde(deserialize_with = "super::sized_vec")]
    pub phases: Vec<Phase>,
    /// Transitions.
    #[schemars(length(min = 1))]
    #[serde(deserialize_with = "super::sized_vec")]
    pub transitions: Vec<Transition>,
    /// Approval checkpoints.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checkpoints: Option<Vec<Checkpoint>>,
    /// Failure handling.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_policy: Option<ErrorPolicy>,
}

/// Loop-wide limits.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Limits {
    /// Most phase executions in one run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub max_steps: Option<u64>,
}

/// A phase.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Phase {
    /// Stable id.
    #[schemars(regex(pattern = id_pattern::STABLE_ID), length(max = 64))]
    pub id: String,
    /// What the phase must achieve (not blank).
    #[schemars(length(min = 1), regex(pattern = r"\S"))]
    pub objective: String,
    /// Access intent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub access: Option<Access>,
    /// Declared outcomes (absent: the implicit `complete`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1))]
    pub outcomes: Option<Vec<Outcome>>,
}

/// Access intent; an omitted key means "no opinion".
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Access {
    /// Tools.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools: Option<bool>,
    /// Knowledge.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub knowledge: Option<bool>,
    /// Memory.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory: Option<MemoryAccess>,
}

// The IR's `MemoryAccess` by the same name; the schema keeps AgentPM's, `Memory`.
/// Memory access: at least one key.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Memory", extend("minProperties" = 1))]
pub struct MemoryAccess {
    /// Read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read: Option<bool>,
    /// Write.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub write: Option<bool>,
}

/// A declared outcome.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Outcome {
    /// Stable id.
    #[schemars(regex(pattern = id_pattern::STABLE_ID), length(max = 64))]
    pub id: String,
    /// What it means (not blank).
    #[schemars(length(min = 1), regex(pattern = r"\S"))]
    pub description: String,
}

/// A transition.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Transition {
    /// Source phase.
    pub from: String,
    /// Outcome.
    pub on: String,
    /// Target phase or terminal (`$end`, `$abort`, `$handoff`).
    #[schemars(regex(pattern = id_pattern::DESTINATION))]
    pub to: String,
}

/// An approval checkpoint.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Checkpoint {
    /// Stable id.
    #[schemars(regex(pattern = id_pattern::STABLE_ID), length(max = 64))]
    pub id: String,
    /// Always `approval`.
    #[serde(rename = "type")]
    pub kind: CheckpointType,
    /// The guarded phase.
    pub before_phase: String,
    /// Where a rejection goes: a phase or a terminal (`$end`, `$abort`, `$handoff`).
    #[schemars(regex(pattern = id_pattern::DESTINATION))]
    pub on_reject: String,
}

/// Checkpoint type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CheckpointType {
    /// Human approval.
    Approval,
}

/// The JSON Schema of AgentPM loop manifests, generated from the types (the source of
/// `schemas/agentpm.schema.json`, which a test keeps equal to it).
pub fn generated_schema() -> serde_json::Value {
    super::schema::generate::<Manifest>("https://loopconv.dev/schemas/agentpm.schema.json")
}

/// `schemas/agentpm.schema.json`, embedded.
pub(super) const COMMITTED_SCHEMA: &str = include_str!("../../schemas/agentpm.schema.json");
