//! Serde types that mirror each file format exactly.
//!
//! They are used both to read (after the structural check of `front::shape`) and to write,
//! so JSON and YAML are always produced through serde, never through templates. Every
//! constraint of the format is written here as a schemars attribute, and the JSON Schemas
//! that loopconv publishes (`loopconv schema`) and checks input against are generated from
//! these types ([`schema`]): one source of truth.

pub mod agentpm;
pub mod ir;
pub mod mas;
pub mod schema;
pub mod xstate;

use crate::format::Format;

/// The JSON Schema of a format's model: what its shape check and `loopconv schema` use.
pub fn schema(format: Format) -> &'static serde_json::Value {
    match format {
        Format::Agentpm => agentpm::schema(),
        Format::Mas => mas::schema(),
        Format::Ir => ir::schema(),
        Format::Xstate => xstate::schema(),
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
