//! JSON Schema (draft 2020-12) generation from the model types, shared by every format.
//!
//! Each format's module calls [`generate`] once for its root type; `front::shape` checks
//! input against the result and `loopconv schema` publishes it, so the published schema and
//! the checker cannot drift apart.

use schemars::JsonSchema;
use schemars::generate::SchemaSettings;

/// The schema of `T` with `$id` = `id`, cleaned for strict validators.
pub fn generate<T: JsonSchema>(id: &str) -> serde_json::Value {
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
