//! JSON Schema (draft 2020-12) for each format, generated with schemars from the model and
//! IR types. The committed `schemas/*.json` files are exactly this output (a test
//! regenerates and compares them), and `valid::shape` checks input against the same values.

use std::sync::LazyLock;

use schemars::JsonSchema;
use schemars::generate::SchemaSettings;

/// Which schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Which {
    /// AgentPM loop manifests.
    Agentpm,
    /// multi-agent-spec REAL/VEAL loops.
    Mas,
    /// loopconv's IR JSON.
    Ir,
}

impl Which {
    /// All schemas.
    pub const ALL: [Which; 3] = [Which::Agentpm, Which::Mas, Which::Ir];

    /// The committed file name under `schemas/`.
    pub fn file_name(self) -> &'static str {
        match self {
            Which::Agentpm => "agentpm.schema.json",
            Which::Mas => "mas.schema.json",
            Which::Ir => "loopconv-ir.schema.json",
        }
    }
}

fn generate<T: JsonSchema>(id: &str) -> serde_json::Value {
    let schema = SchemaSettings::draft2020_12()
        .into_generator()
        .into_root_schema_for::<T>();
    let mut v = schema.to_value();
    strip_null(&mut v);
    strip_rust_formats(&mut v);
    // `$schema` and `$id` first, as readers expect them.
    if let serde_json::Value::Object(obj) = &mut v {
        let mut head = serde_json::Map::new();
        if let Some(s) = obj.remove("$schema") {
            head.insert("$schema".to_owned(), s);
        }
        head.insert("$id".to_owned(), serde_json::Value::String(id.to_owned()));
        head.append(obj);
        *obj = head;
    }
    v
}

/// schemars annotates Rust integer types with non-standard formats (`uint64`, ...), which
/// strict validators (ajv's default mode) reject as unknown; `minimum` already says what
/// matters, so drop them.
fn strip_rust_formats(v: &mut serde_json::Value) {
    use serde_json::Value as J;
    match v {
        J::Object(obj) => {
            const RUST: &[&str] = &[
                "int8", "int16", "int32", "int64", "int128", "uint8", "uint16", "uint32", "uint64",
                "uint128", "uint", "int", "float", "double",
            ];
            let rust = obj
                .get("format")
                .and_then(J::as_str)
                .is_some_and(|f| RUST.contains(&f));
            if rust {
                obj.remove("format");
            }
            obj.values_mut().for_each(strip_rust_formats);
        }
        J::Array(items) => items.iter_mut().for_each(strip_rust_formats),
        _ => {}
    }
}

/// Optional fields are written only when present and `null` is never valid in either
/// format, so remove the `null` alternative schemars adds for `Option<T>`.
fn strip_null(v: &mut serde_json::Value) {
    use serde_json::Value as J;
    if let J::Object(obj) = v {
        if let Some(J::Array(types)) = obj.get_mut("type") {
            types.retain(|t| t != "null");
            if types.len() == 1 {
                let t = types.remove(0);
                obj.insert("type".to_owned(), t);
            }
        }
        if let Some(J::Array(vals)) = obj.get_mut("enum") {
            vals.retain(|t| !t.is_null());
        }
        let null_branch = |s: &J| s.get("type") == Some(&J::String("null".to_owned()));
        if let Some(J::Array(alts)) = obj.get("anyOf")
            && alts.len() == 2
            && alts.iter().any(null_branch)
        {
            let keep = alts.iter().find(|s| !null_branch(s)).cloned();
            obj.remove("anyOf");
            if let Some(J::Object(inner)) = keep {
                for (k, val) in inner {
                    obj.entry(k).or_insert(val);
                }
            }
        }
        // An enum whose variants are documented comes out as `oneOf` of `const`s; an `enum`
        // says the same and gives better messages.
        if let Some(J::Array(alts)) = obj.get("oneOf") {
            let consts: Option<Vec<J>> = alts.iter().map(|a| a.get("const").cloned()).collect();
            if let Some(consts) = consts {
                obj.remove("oneOf");
                obj.insert("type".to_owned(), J::String("string".to_owned()));
                obj.insert("enum".to_owned(), J::Array(consts));
            }
        }
        for (_, child) in obj.iter_mut() {
            strip_null(child);
        }
    } else if let J::Array(items) = v {
        for i in items {
            strip_null(i);
        }
    }
}

static AGENTPM: LazyLock<serde_json::Value> = LazyLock::new(|| {
    generate::<crate::model::agentpm::Manifest>("https://loopconv.dev/schemas/agentpm.schema.json")
});
static MAS: LazyLock<serde_json::Value> = LazyLock::new(|| {
    generate::<crate::model::mas::Loop>("https://loopconv.dev/schemas/mas.schema.json")
});
static IR: LazyLock<serde_json::Value> = LazyLock::new(|| {
    generate::<crate::ir::Spec>("https://loopconv.dev/schemas/loopconv-ir.schema.json")
});

/// The schema as a JSON value (generated once).
pub fn value(which: Which) -> &'static serde_json::Value {
    match which {
        Which::Agentpm => &AGENTPM,
        Which::Mas => &MAS,
        Which::Ir => &IR,
    }
}

/// The schema as pretty JSON text with a trailing newline.
pub fn write(which: Which) -> String {
    let mut s = serde_json::to_string_pretty(value(which)).unwrap_or_default();
    s.push('\n');
    s
}
