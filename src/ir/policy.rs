//! The IR's own enums and policies: check and port types, escalation, error policy.
//!
//! They mean what the formats' fields of the same names mean (formats.md), with the same
//! values spelled the same way, so there is one definition of each: the format models use
//! these types directly (AgentPM's `error_policy`; multi-agent-spec's `escalation`, check
//! `type` and port `type`), and the front and back ends copy them across unchanged. The
//! names and documentation are those of all three JSON Schemas. A value only one format
//! has would need a type of that format's own (as MAS `type: REAL|VEAL` is
//! `model::mas::LoopType`, two of the IR's three patterns).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Escalation policy, when `max_attempts` is reached: `human` stops and asks a person,
/// `abort` stops and fails the workflow, `continue` ends the loop with its issues
/// unresolved (at `$end`, no success), `fallback` invokes `fallback_agent`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Escalation {
    /// Stop and ask a person.
    Human,
    /// Stop and fail the workflow.
    Abort,
    /// End the loop with its issues unresolved and let the workflow proceed (the run
    /// reaches `$end`, which here is no success).
    Continue,
    /// Invoke `fallback_agent`.
    Fallback,
}

impl Escalation {
    /// Text form.
    pub fn as_str(self) -> &'static str {
        match self {
            Escalation::Human => "human",
            Escalation::Abort => "abort",
            Escalation::Continue => "continue",
            Escalation::Fallback => "fallback",
        }
    }
}

/// Check type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum CheckType {
    /// Run a command.
    Command,
    /// Search for a regex.
    Pattern,
    /// Check a file.
    File,
    /// A person checks.
    Manual,
}

impl CheckType {
    /// Text form.
    pub fn as_str(self) -> &'static str {
        match self {
            CheckType::Command => "command",
            CheckType::Pattern => "pattern",
            CheckType::File => "file",
            CheckType::Manual => "manual",
        }
    }
}

/// Port data type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum PortType {
    /// String.
    String,
    /// Number.
    Number,
    /// Boolean.
    Boolean,
    /// Object.
    Object,
    /// Array.
    Array,
    /// File.
    File,
}

impl PortType {
    /// Text form.
    pub fn as_str(self) -> &'static str {
        match self {
            PortType::String => "string",
            PortType::Number => "number",
            PortType::Boolean => "boolean",
            PortType::Object => "object",
            PortType::Array => "array",
            PortType::File => "file",
        }
    }
}

/// Failure handling.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ErrorPolicy {
    /// What a failing tool call does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_failure: Option<ToolFailure>,
    /// What a failed phase does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phase_failure: Option<PhaseFailure>,
}

/// Tool-failure policy: `retry` needs `max_retries` and `on_exhausted`; the other actions
/// take neither.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(extend(
    "if" = {"properties": {"action": {"const": "retry"}}, "required": ["action"]},
    "then" = {"required": ["max_retries", "on_exhausted"]},
    "else" = {"not": {"anyOf": [{"required": ["max_retries"]}, {"required": ["on_exhausted"]}]}}
))]
pub struct ToolFailure {
    /// The action.
    pub action: ToolAction,
    /// Retries before `on_exhausted` applies (retry only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub max_retries: Option<u64>,
    /// What happens when retries run out (retry only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub on_exhausted: Option<Exhausted>,
}

/// Tool-failure actions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ToolAction {
    /// Retry the tool call.
    Retry,
    /// Fail the phase (then `phase_failure` applies).
    FailPhase,
    /// Abort the run.
    Abort,
    /// Hand off.
    Handoff,
}

/// What happens when retries run out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Exhausted {
    /// Fail the phase.
    FailPhase,
    /// Abort the run.
    Abort,
    /// Hand off.
    Handoff,
}

/// Phase-failure policy.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PhaseFailure {
    /// The action.
    pub action: PhaseAction,
}

/// Phase-failure actions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PhaseAction {
    /// Abort the run.
    Abort,
    /// Hand off.
    Handoff,
}

impl ToolAction {
    /// Text form.
    pub fn as_str(self) -> &'static str {
        match self {
            ToolAction::Retry => "retry",
            ToolAction::FailPhase => "fail_phase",
            ToolAction::Abort => "abort",
            ToolAction::Handoff => "handoff",
        }
    }
}
impl Exhausted {
    /// Text form.
    pub fn as_str(self) -> &'static str {
        match self {
            Exhausted::FailPhase => "fail_phase",
            Exhausted::Abort => "abort",
            Exhausted::Handoff => "handoff",
        }
    }
}
impl PhaseAction {
    /// Text form.
    pub fn as_str(self) -> &'static str {
        match self {
            PhaseAction::Abort => "abort",
            PhaseAction::Handoff => "handoff",
        }
    }
}
