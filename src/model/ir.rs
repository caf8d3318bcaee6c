//! The IR's own JSON form: its model is [`crate::ir::Spec`] itself.

/// The model of the IR format.
pub type Model = crate::ir::Spec;

/// The JSON Schema of the IR format, generated from the types (the source of
/// `schemas/loopconv-ir.schema.json`, which a test keeps equal to it).
pub fn generated_schema() -> serde_json::Value {
    super::schema::generate::<Model>("https://loopconv.dev/schemas/loopconv-ir.schema.json")
}

/// `schemas/loopconv-ir.schema.json`, embedded.
pub(super) const COMMITTED_SCHEMA: &str = include_str!("../../schemas/loopconv-ir.schema.json");
