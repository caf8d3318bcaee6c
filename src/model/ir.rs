//! The IR's own JSON form: its model is [`crate::ir::Spec`] itself.

use std::sync::LazyLock;

/// The model of the IR format.
pub type Model = crate::ir::Spec;

/// The JSON Schema of the IR format (generated once).
pub fn schema() -> &'static serde_json::Value {
    static SCHEMA: LazyLock<serde_json::Value> = LazyLock::new(|| {
        super::schema::generate::<Model>("https://loopconv.dev/schemas/loopconv-ir.schema.json")
    });
    &SCHEMA
}
