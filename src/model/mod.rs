//! Serde types that mirror each file format exactly.
//!
//! They are used both to read (after the structural check of `front::shape`) and to write,
//! so JSON and YAML are always produced through serde, never through templates. Every
//! constraint of the format is written here as a schemars attribute, and the JSON Schemas
//! that loopconv publishes (`loopconv schema`) and checks input against are generated from
//! these types ([`schema`](fn@schema)): one source of truth.

pub mod agentpm;
pub mod ir;
pub mod mas;
pub mod schema;
pub mod xstate;

use crate::format::Format;

/// The JSON Schema of a format's model, parsed from the committed file of `schemas/` (a
/// file that does not parse, which a test reports, falls back to the generated one). No
/// command needs it: the shape check reads the schema compiled into Rust
/// (`front::shape::tables`) and `loopconv schema` prints [`committed_schema_text`]; it
/// is here for the tests and for library users who validate with another tool.
pub fn schema(format: Format) -> &'static serde_json::Value {
    use std::sync::LazyLock;
    type Cached = LazyLock<serde_json::Value>;
    static AGENTPM: Cached = LazyLock::new(|| committed(Format::Agentpm));
    static MAS: Cached = LazyLock::new(|| committed(Format::Mas));
    static IR: Cached = LazyLock::new(|| committed(Format::Ir));
    static XSTATE: Cached = LazyLock::new(|| committed(Format::Xstate));
    match format {
        Format::Agentpm => &AGENTPM,
        Format::Mas => &MAS,
        Format::Ir => &IR,
        Format::Xstate => &XSTATE,
    }
}

fn committed(format: Format) -> serde_json::Value {
    serde_json::from_str(committed_schema_text(format)).unwrap_or_else(|_| generated_schema(format))
}

/// The committed file of `schemas/` for a format, as `loopconv schema` prints it: a test
/// keeps it equal to [`generated_schema`], pretty-printed, with a final newline.
pub fn committed_schema_text(format: Format) -> &'static str {
    match format {
        Format::Agentpm => agentpm::COMMITTED_SCHEMA,
        Format::Mas => mas::COMMITTED_SCHEMA,
        Format::Ir => ir::COMMITTED_SCHEMA,
        Format::Xstate => xstate::COMMITTED_SCHEMA,
    }
}

/// The JSON Schema of a format's model, generated from its types (schemars): the source
/// of `schemas/` and so of [`schema`](fn@schema).
pub fn generated_schema(format: Format) -> serde_json::Value {
    match format {
        Format::Agentpm => agentpm::generated_schema(),
        Format::Mas => mas::generated_schema(),
        Format::Ir => ir::generated_schema(),
        Format::Xstate => xstate::generated_schema(),
    }
}

/// Deserialise a list at the size its deserialiser announces (loopconv's tree knows it
/// exactly), not by growing: serde's own `Vec` starts from at most 1 MiB of elements and
/// doubles, which for the 30,000 transitions of a large loop copied the list twice and
/// left a third of it unused. The announced size is trusted up to 2^20 elements.
pub(crate) fn sized_vec<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::Deserialize<'de>,
{
    struct Sized<T>(std::marker::PhantomData<T>);
    impl<'de, T: serde::Deserialize<'de>> serde::de::Visitor<'de> for Sized<T> {
        type Value = Vec<T>;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a list")
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
            let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1 << 20));
            while let Some(item) = seq.next_element()? {
                out.push(item);
            }
            Ok(out)
        }
    }
    d.deserialize_seq(Sized(std::marker::PhantomData))
}

/// Objects with up to this many pairs find a repeated key by comparing keys; larger ones
/// (a fuzzed object had 200,000 keys) through a hash index.
const FEW_KEYS: usize = 16;

/// An object's pairs as serde_json holds them: each key once, at its first place, with the
/// value of its last occurrence. `n` is how many pairs there are at most: it chooses how
/// repeated keys are found and sizes the list once.
pub(crate) fn last_values<K, V>(pairs: impl IntoIterator<Item = (K, V)>, n: usize) -> Vec<(K, V)>
where
    K: Eq + std::hash::Hash + Clone,
{
    use std::collections::hash_map::Entry;
    let mut out: Vec<(K, V)> = Vec::with_capacity(n);
    let mut index = (n > FEW_KEYS).then(|| std::collections::HashMap::with_capacity(n));
    for (key, value) in pairs {
        let at = match &mut index {
            None => out.iter().position(|(k, _)| *k == key),
            Some(index) => match index.entry(key.clone()) {
                Entry::Occupied(e) => Some(*e.get()),
                Entry::Vacant(e) => {
                    e.insert(out.len());
                    None
                }
            },
        };
        match at {
            Some(at) => out[at].1 = value,
            None => out.push((key, value)),
        }
    }
    out
}
