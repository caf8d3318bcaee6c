//! multi-agent-spec REAL/VEAL loops (`specs/loops/*.yaml`), field for field.
//!
//! The schema published by loopconv fixes upstream's `fallback_agent` bug: the requirement
//! applies only when `escalation` is present and equals `fallback`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::ir::id_pattern;

// The escalation policy, check types and port types are the IR's (re-exported, so that a
// loop is written with this module's names): the IR took them from multi-agent-spec, with
// the same values, so one definition serves both (and both schemas). `LoopType` stays
// here: REAL and VEAL are two of the IR's three `LoopPattern`s.
pub use crate::ir::{CheckType, Escalation, PortType};

/// A REAL or VEAL loop.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "multi-agent-spec loop")]
#[schemars(extend("allOf" = [
    {
        "if": {"properties": {"escalation": {"const": "fallback"}}, "required": ["escalation"]},
        "then": {"required": ["fallback_agent"]}
    },
    {
        "if": {"properties": {"type": {"const": "REAL"}}, "required": ["type"]},
        "then": {"required": ["mission"]}
    },
    {
        "if": {"properties": {"type": {"const": "VEAL"}}, "required": ["type"]},
        "then": {"required": ["validator", "checks"], "properties": {"checks": {"minItems": 1}}}
    }
]))]
pub struct Loop {
    /// Loop identifier (kebab-case).
    #[schemars(regex(pattern = id_pattern::NAME))]
    pub name: String,
    /// `REAL` or `VEAL`.
    #[serde(rename = "type")]
    pub kind: LoopType,
    /// Human-readable description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Agent that validates state, read-only (VEAL).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub validator: Option<String>,
    /// Agent that performs actions.
    pub actor: String,
    /// Goal statement (REAL).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mission: Option<String>,
    /// Maximum iterations (default 3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1), extend("default" = 3))]
    pub max_attempts: Option<u64>,
    /// Policy when `max_attempts` is reached (default `human`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(
        extend("default" = "human"),
        description = "Policy when `max_attempts` is reached (default `human`): `human` stops and asks a person, `abort` stops and fails the workflow, `continue` ends the loop with its issues unresolved and lets the workflow proceed (no success), `fallback` invokes `fallback_agent`."
    )]
    pub escalation: Option<Escalation>,
    /// Agent invoked by `escalation: fallback`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fallback_agent: Option<String>,
    /// Description of success.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub success_criteria: Option<String>,
    /// Validation checks (VEAL).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checks: Option<Vec<Check>>,
    /// Data inputs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inputs: Option<Vec<Port>>,
    /// Data outputs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outputs: Option<Vec<Port>>,
}

/// Loop type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum LoopType {
    /// Read, Eval, Act, Loop.
    #[serde(rename = "REAL")]
    Real,
    /// Validate, Eval, Act, Loop.
    #[serde(rename = "VEAL")]
    Veal,
}

/// A validation check.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Check {
    /// Check identifier (kebab-case).
    #[schemars(regex(pattern = id_pattern::NAME))]
    pub id: String,
    /// What it checks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Check type.
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<CheckType>,
    /// Shell command (type command).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// Regex (type pattern).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pattern: Option<String>,
    /// Glob of files to check.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub files: Option<String>,
    /// File path (type file).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// A failure makes the iteration NO-GO (default true).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("default" = true))]
    pub required: Option<bool>,
    /// Description of success.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<String>,
}

/// An input or output port.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Port {
    /// Port name.
    pub name: String,
    /// Data type.
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
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
    /// JSON Schema of the value.
    #[serde(
        default,
        deserialize_with = "crate::ir::present",
        skip_serializing_if = "Option::is_none"
    )]
    pub schema: Option<serde_json::Value>,
    /// Default value.
    #[serde(
        default,
        deserialize_with = "crate::ir::present",
        skip_serializing_if = "Option::is_none"
    )]
    pub default: Option<serde_json::Value>,
}

/// The help of the warnings about a port `schema` in YAML (`F015`, `B005`).
pub const PORT_SCHEMA_HELP: &str = "the Go SDK loads the JSON form of this file (`loopconv convert --to mas` writes YAML; keep a JSON copy for Go), or drop the `schema`";

impl Loop {
    /// JSON Pointers (relative to the loop) of the ports that carry a non-null `schema`:
    /// the multi-agent-spec Go SDK's `Port` decodes `schema` as raw JSON
    /// (`json.RawMessage`), which its YAML reader cannot fill, so such a YAML file does not
    /// load there (the JSON form of the same loop does).
    pub fn port_schemas(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (key, ports) in [("inputs", &self.inputs), ("outputs", &self.outputs)] {
            for (i, p) in ports.iter().flatten().enumerate() {
                if p.schema.as_ref().is_some_and(|s| !s.is_null()) {
                    out.push(format!("/{key}/{i}/schema"));
                }
            }
        }
        out
    }
}

/// The JSON Schema of multi-agent-spec loops, generated from the types (the source of
/// `schemas/mas.schema.json`, which a test keeps equal to it).
pub fn generated_schema() -> serde_json::Value {
    super::schema::generate::<Loop>("https://loopconv.dev/schemas/mas.schema.json")
}

/// `schemas/mas.schema.json`, embedded.
pub(super) const COMMITTED_SCHEMA: &str = include_str!("../../schemas/mas.schema.json");
