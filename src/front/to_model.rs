//! Deserialise a model straight from the located tree, without building a
//! `serde_json::Value` copy of the document first (that copy was a third of the memory and a
//! tenth of the time of reading a large loop).
//!
//! It behaves like `serde_json::from_value(node.to_json())`: `null` (and a non-finite YAML
//! float) is `None`, numbers keep their JSON representation, and of duplicate keys the
//! last value wins at the first key's position. [`Edits`] leaves out the members the shape
//! check found unknown and hands the model whole floats as integers.

use serde::de::{self, DeserializeSeed, IntoDeserializer, MapAccess, SeqAccess, Visitor};
use serde::forward_to_deserialize_any;

use crate::tree::{Member, Node, Value};

/// A node's identity within one document: its address. The tree is not changed while
/// a shape check and the deserialisation of its verdict run, so addresses are stable.
pub type NodeAddr = usize;

/// The address of `node`.
pub fn node_addr(node: &Node) -> NodeAddr {
    std::ptr::from_ref(node) as NodeAddr
}

/// Changes applied while deserialising: members to leave out (by their value's
/// [`NodeAddr`]) and numbers to replace.
#[derive(Debug, Default)]
pub struct Edits {
    /// The values of members to leave out, sorted.
    skip: Vec<NodeAddr>,
    /// Numbers to read as another number (a whole float as an integer), sorted by node.
    numbers: Vec<(NodeAddr, serde_json::Number)>,
}

impl Edits {
    /// No edit: the document is read as it is written.
    pub fn is_empty(&self) -> bool {
        self.skip.is_empty() && self.numbers.is_empty()
    }

    /// Leave out the member whose value is `value`.
    pub fn skip(&mut self, value: &Node) {
        self.skip.push(node_addr(value));
    }

    /// Read the number `node` as `n`.
    pub fn replace_number(&mut self, node: &Node, n: serde_json::Number) {
        self.numbers.push((node_addr(node), n));
    }

    /// Sort for lookups; called once, before deserialising.
    fn sorted(mut self) -> Self {
        self.skip.sort_unstable();
        self.numbers.sort_unstable_by_key(|(id, _)| *id);
        self
    }

    fn skips(&self, value: &Node) -> bool {
        !self.skip.is_empty() && self.skip.binary_search(&node_addr(value)).is_ok()
    }

    fn number(&self, node: &Node) -> Option<&serde_json::Number> {
        if self.numbers.is_empty() {
            return None;
        }
        let i = self
            .numbers
            .binary_search_by_key(&node_addr(node), |(id, _)| *id)
            .ok()?;
        Some(&self.numbers[i].1)
    }
}

/// The error of a deserialisation from the tree.
pub type Error = de::value::Error;

/// Deserialise `T` from `node` with `edits` applied.
pub fn from_node<'de, T: de::Deserialize<'de>>(node: &'de Node, edits: Edits) -> Result<T, Error> {
    let edits = edits.sorted();
    T::deserialize(NodeDe {
        node,
        edits: &edits,
    })
}

#[derive(Clone, Copy)]
struct NodeDe<'de, 'e> {
    node: &'de Node,
    edits: &'e Edits,
}

impl<'de, 'e> NodeDe<'de, 'e> {
    fn of(&self, node: &'de Node) -> Self {
        NodeDe {
            node,
            edits: self.edits,
        }
    }
}

impl<'de> de::Deserializer<'de> for NodeDe<'de, '_> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match &self.node.value {
            Value::Null | Value::NonFinite(_) => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(*b),
            Value::Number(n) => {
                let n = self.edits.number(self.node).unwrap_or(n);
                n.deserialize_any(visitor).map_err(de::Error::custom)
            }
            Value::String { text, .. } => visitor.visit_borrowed_str(text),
            Value::Array(items) => visitor.visit_seq(Items {
                items: items.iter(),
                de: self,
            }),
            Value::Object(members) => visitor.visit_map(Members::new(members, self)),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.node.value {
            Value::Null | Value::NonFinite(_) => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match &self.node.value {
            // The models' enums are unit variants written as strings.
            Value::String { text, .. } => {
                visitor.visit_enum(IntoDeserializer::<Error>::into_deserializer(&**text))
            }
            other => Err(de::Error::invalid_type(unexpected(other), &"a string")),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_unit()
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct seq tuple tuple_struct map struct identifier
    }
}

fn unexpected(v: &Value) -> de::Unexpected<'_> {
    match v {
        Value::Null | Value::NonFinite(_) => de::Unexpected::Unit,
        Value::Bool(b) => de::Unexpected::Bool(*b),
        Value::Number(_) => de::Unexpected::Other("a number"),
        Value::String { text, .. } => de::Unexpected::Str(text),
        Value::Array(_) => de::Unexpected::Seq,
        Value::Object(_) => de::Unexpected::Map,
    }
}

struct Items<'de, 'e> {
    items: std::slice::Iter<'de, Node>,
    de: NodeDe<'de, 'e>,
}

impl<'de> SeqAccess<'de> for Items<'de, '_> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        match self.items.next() {
            Some(n) => seed.deserialize(self.de.of(n)).map(Some),
            None => Ok(None),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}

/// An object's members as serde_json would hold them: each key once, at its first
/// position, with the value of its last occurrence; skipped members left out.
struct Members<'de, 'e> {
    entries: std::vec::IntoIter<(&'de str, &'de Node)>,
    value: Option<&'de Node>,
    de: NodeDe<'de, 'e>,
}

impl<'de, 'e> Members<'de, 'e> {
    fn new(members: &'de [Member], de: NodeDe<'de, 'e>) -> Self {
        let kept = (members.iter())
            .filter(|m| !de.edits.skips(&m.value))
            .map(|m| (m.key.as_str(), &m.value));
        Members {
            entries: crate::model::last_values(kept, members.len()).into_iter(),
            value: None,
            de,
        }
    }
}

impl<'de> MapAccess<'de> for Members<'de, '_> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        let Some((key, value)) = self.entries.next() else {
            return Ok(None);
        };
        self.value = Some(value);
        seed.deserialize(IntoDeserializer::<Error>::into_deserializer(key))
            .map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        match self.value.take() {
            Some(v) => seed.deserialize(self.de.of(v)),
            None => Err(de::Error::custom("a value without a key")),
        }
    }
}
