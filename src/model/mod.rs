//! Serde types that mirror each file format exactly.
//!
//! They are used both to read (after the structural check of `valid::shape`) and to write,
//! so JSON and YAML are always produced through serde, never through templates. Every
//! constraint of the format is written here as a schemars attribute, and the JSON Schemas
//! that loopconv publishes (`loopconv schema`) and checks input against are generated from
//! these types: one source of truth.

pub mod agentpm;
pub mod mas;

/// A stable id (phase, outcome, checkpoint): upstream's
/// `^[a-z](?:[a-z0-9]|-(?=[a-z0-9])){0,63}$` without the look-ahead, plus `maxLength: 64`.
pub const STABLE_ID_PATTERN: &str = "^[a-z](?:-?[a-z0-9])*$";
/// AgentPM package name.
pub const AGENTPM_NAME_PATTERN: &str = "^[a-z][a-z0-9-]{0,63}$";
/// MAS loop name and check id.
pub const MAS_NAME_PATTERN: &str = "^[a-z][a-z0-9-]*$";
/// Semantic version as upstream accepts it.
pub const VERSION_PATTERN: &str =
    r"^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$";
