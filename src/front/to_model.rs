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

use crate::tree::{Document, Member, Node, Value};

/// A node's identity within one document: its address. A node does not move while a
/// shape check and the deserialisation of its verdict run: [`from_node`] changes nothing,
/// and [`from_tree`] reads each node once, in place, before taking it out (only the root
/// moves, and its address is taken first).
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

    /// The skipped values among `members`, in order: the run of the sorted list between
    /// the first member's value and the last's. The members lie in one block of memory,
    /// in order, and every other node in another: every address in that run is the value
    /// of one of them.
    fn skips_among(&self, members: &[Member]) -> &[NodeAddr] {
        let (Some(first), Some(last)) = (members.first(), members.last()) else {
            return &[];
        };
        let (lo, hi) = (node_addr(&first.value), node_addr(&last.value));
        let start = self.skip.partition_point(|&a| a < lo);
        let end = start + self.skip[start..].partition_point(|&a| a <= hi);
        &self.skip[start..end]
    }

    fn number(&self, node: &Node) -> Option<&serde_json::Number> {
        self.number_at(node_addr(node))
    }

    /// The number to read for the node that was at `addr`.
    fn number_at(&self, addr: NodeAddr) -> Option<&serde_json::Number> {
        if self.numbers.is_empty() {
            return None;
        }
        let i = (self.numbers)
            .binary_search_by_key(&addr, |(id, _)| *id)
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

/// Deserialise `T` from the tree of `doc`, consuming it (the document is left as
/// [`Document::release_tree`] leaves it): each value is freed once read, and each string
/// is moved into the model, not copied. Reading a loop then never holds its whole tree and
/// its whole model at once (for a 10,000-phase loop of one-word texts, the model was 2.9 MB
/// beside a tree of 7.5 MB). `edits` name the nodes by their addresses in the tree, where
/// each still is when it is read (only the root moves, and its address is taken first).
pub fn from_tree<T: de::DeserializeOwned>(doc: &mut Document, edits: Edits) -> Result<T, Error> {
    let edits = edits.sorted();
    let addr = node_addr(doc.root());
    T::deserialize(OwnedDe {
        node: doc.take_tree(),
        addr,
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
            Value::String(text) => visitor.visit_borrowed_str(text.as_str()),
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
            Value::String(text) => {
                visitor.visit_enum(IntoDeserializer::<Error>::into_deserializer(text.as_str()))
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
        Value::String(text) => de::Unexpected::Str(text.as_str()),
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
    entries: Entries<'de>,
    value: Option<&'de Node>,
    de: NodeDe<'de, 'e>,
}

/// The members of an object that are read, in order.
enum Entries<'de> {
    /// As written: a few members, none left out, no key repeated (most objects: a list
    /// of them made for each of the 150,000 objects of a 10,000-phase XState machine was
    /// a tenth of its deserialisation).
    Written(std::slice::Iter<'de, Member>),
    /// As [`read_order`] gives them.
    Read(std::vec::IntoIter<(&'de str, &'de Node)>),
}

impl<'de> Iterator for Entries<'de> {
    type Item = (&'de str, &'de Node);

    fn next(&mut self) -> Option<Self::Item> {
        match self {
            Entries::Written(members) => members.next().map(|m| (m.key.as_str(), &m.value)),
            Entries::Read(entries) => entries.next(),
        }
    }
}

/// Whether `members` are read as they are written: a few of them (compared pairwise;
/// a larger object goes through [`read_order`]), none left out, no key repeated.
fn read_as_written(members: &[Member], edits: &Edits) -> bool {
    members.len() <= FEW_MEMBERS
        && edits.skips_among(members).is_empty()
        && (members.iter().enumerate()).all(|(i, m)| members[..i].iter().all(|p| p.key != m.key))
}

/// The most members of an object that [`read_as_written`] compares pairwise.
const FEW_MEMBERS: usize = 8;

/// The members of an object that are read, in the order they are read, as `read` gives
/// each (with its index): each key at its first position, with the member of its last
/// occurrence, skipped members left out (how serde_json reads an object). Both
/// deserialisers read an object in this order.
fn read_order<'m, V>(
    members: &'m [Member],
    edits: &Edits,
    read: impl Fn(usize, &'m Member) -> V,
) -> Vec<(&'m str, V)> {
    // The skipped values among these members, walked beside them in address order (a
    // search of the whole list for each member was most of reading an object of many
    // unknown keys).
    let skipped = edits.skips_among(members);
    let mut next = skipped.iter().peekable();
    let kept = (members.iter().enumerate())
        .filter(|(_, m)| {
            let at = node_addr(&m.value);
            while next.next_if(|&&s| s < at).is_some() {}
            next.next_if(|&&s| s == at).is_none()
        })
        .map(|(i, m)| (m.key.as_str(), read(i, m)));
    crate::model::last_values(kept, members.len() - skipped.len())
}

impl<'de, 'e> Members<'de, 'e> {
    fn new(members: &'de [Member], de: NodeDe<'de, 'e>) -> Self {
        let entries = if read_as_written(members, de.edits) {
            Entries::Written(members.iter())
        } else {
            Entries::Read(read_order(members, de.edits, |_, m| &m.value).into_iter())
        };
        Members {
            entries,
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

/// A node taken out of the tree, with the address it had there (see [`from_tree`]).
struct OwnedDe<'e> {
    node: Node,
    addr: NodeAddr,
    edits: &'e Edits,
}

/// Take the node in `slot` out of its tree (a null is left in its place), with its address.
fn take<'e>(slot: &mut Node, edits: &'e Edits) -> OwnedDe<'e> {
    let addr = node_addr(slot);
    let null = Node {
        value: Value::Null,
        span: slot.span,
    };
    OwnedDe {
        node: std::mem::replace(slot, null),
        addr,
        edits,
    }
}

impl<'de> de::Deserializer<'de> for OwnedDe<'_> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.node.value {
            Value::Null | Value::NonFinite(_) => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(b),
            Value::Number(n) => {
                let n = self.edits.number_at(self.addr).unwrap_or(&n);
                n.deserialize_any(visitor).map_err(de::Error::custom)
            }
            Value::String(text) => visitor.visit_string(text.into_string()),
            Value::Array(items) => visitor.visit_seq(OwnedItems {
                items: items.into_vec(),
                next: 0,
                edits: self.edits,
            }),
            Value::Object(members) => visitor.visit_map(OwnedMembers::new(members, self.edits)),
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
        match self.node.value {
            // The models' enums are unit variants written as strings.
            Value::String(text) => visitor.visit_enum(
                IntoDeserializer::<Error>::into_deserializer(text.into_string()),
            ),
            other => Err(de::Error::invalid_type(unexpected(&other), &"a string")),
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

/// An array's items, each taken out as it is read.
struct OwnedItems<'e> {
    items: Vec<Node>,
    next: usize,
    edits: &'e Edits,
}

impl<'de> SeqAccess<'de> for OwnedItems<'_> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        let Some(slot) = self.items.get_mut(self.next) else {
            return Ok(None);
        };
        self.next += 1;
        seed.deserialize(take(slot, self.edits)).map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len() - self.next)
    }
}

/// An object's members as [`Members`] gives them, each value taken out as it is read.
struct OwnedMembers<'e> {
    members: Vec<Member>,
    /// The members read, by index ([`read_order`]).
    order: std::vec::IntoIter<usize>,
    value: Option<usize>,
    edits: &'e Edits,
}

impl<'e> OwnedMembers<'e> {
    fn new(members: Box<[Member]>, edits: &'e Edits) -> Self {
        let order: Vec<usize> = (read_order(&members, edits, |i, _| i).into_iter())
            .map(|(_, i)| i)
            .collect();
        OwnedMembers {
            order: order.into_iter(),
            members: members.into_vec(),
            value: None,
            edits,
        }
    }
}

impl<'de> MapAccess<'de> for OwnedMembers<'_> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        let Some(i) = self.order.next() else {
            return Ok(None);
        };
        self.value = Some(i);
        let key = self.members[i].key.as_str();
        seed.deserialize(IntoDeserializer::<Error>::into_deserializer(key))
            .map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        match self.value.take().and_then(|i| self.members.get_mut(i)) {
            Some(m) => seed.deserialize(take(&mut m.value, self.edits)),
            None => Err(de::Error::custom("a value without a key")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Edits, from_node, from_tree};
    use crate::diag::Diagnostics;
    use crate::front::vocabulary::KEYS;
    use crate::tree::{Document, Node, Value};
    use crate::tree::{ReadLimits, parse_json};
    use proptest::prelude::{Just, Strategy, prop, prop_assert_eq, prop_oneof, proptest};
    use serde::de::{self, MapAccess, SeqAccess, Visitor};

    /// JSON text with repeated keys (`a`, `b` and `xa`, which the edits leave out) and
    /// whole floats (which the edits read as integers).
    fn json_text() -> impl Strategy<Value = String> {
        let leaf = prop_oneof![
            Just("null".to_owned()),
            Just("true".to_owned()),
            (-5i64..5).prop_map(|n| n.to_string()),
            (-5i64..5).prop_map(|n| format!("{n}.0")),
            Just("2.5".to_owned()),
            "[a-z\\\\\"é]{0,4}|[a-z ]{20,30}"
                .prop_map(|s| serde_json::to_string(&s).unwrap_or_default()),
        ];
        leaf.prop_recursive(4, 40, 5, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..5)
                    .prop_map(|v| format!("[{}]", v.join(","))),
                prop::collection::vec((prop::sample::select(KEYS_USED.to_vec()), inner), 0..24)
                    .prop_map(|ms| {
                        let ms: Vec<String> =
                            ms.iter().map(|(k, v)| format!("\"{k}\":{v}")).collect();
                        format!("{{{}}}", ms.join(","))
                    }),
            ]
        })
    }

    /// The keys of the generated objects: a few, so that they repeat, and enough for an
    /// object of more than 16 keys (whose repeats are found by hashing).
    const KEYS_USED: &[&str] = &[
        "a", "b", "xa", "k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8", "k9", "k10", "k11",
        "k12", "k13", "k14", "k15", "k16", "k17",
    ];

    /// Everything a deserialiser hands over, in order, as text: unlike a JSON value, it
    /// shows the order of the members and every repeated key.
    #[derive(Debug, PartialEq)]
    struct Trace(String);

    impl<'de> de::Deserialize<'de> for Trace {
        fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Trace, D::Error> {
            d.deserialize_any(TraceVisitor)
        }
    }

    struct TraceVisitor;

    impl<'de> Visitor<'de> for TraceVisitor {
        type Value = Trace;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("anything")
        }
        fn visit_unit<E>(self) -> Result<Trace, E> {
            Ok(Trace("null".into()))
        }
        fn visit_bool<E>(self, b: bool) -> Result<Trace, E> {
            Ok(Trace(b.to_string()))
        }
        fn visit_u64<E>(self, n: u64) -> Result<Trace, E> {
            Ok(Trace(format!("u{n}")))
        }
        fn visit_i64<E>(self, n: i64) -> Result<Trace, E> {
            Ok(Trace(format!("i{n}")))
        }
        fn visit_f64<E>(self, n: f64) -> Result<Trace, E> {
            Ok(Trace(format!("f{n:?}")))
        }
        fn visit_str<E>(self, s: &str) -> Result<Trace, E> {
            Ok(Trace(format!("{s:?}")))
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Trace, A::Error> {
            let mut out = String::from("[");
            while let Some(Trace(t)) = seq.next_element()? {
                out.push_str(&t);
                out.push(',');
            }
            Ok(Trace(out + "]"))
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Trace, A::Error> {
            let mut out = String::from("{");
            while let Some(k) = map.next_key::<String>()? {
                let Trace(v) = map.next_value()?;
                out.push_str(&format!("{k:?}:{v},"));
            }
            Ok(Trace(out + "}"))
        }
    }

    /// Leave out every member named `xa`; read every whole float as an integer.
    fn edits(node: &Node, out: &mut Edits) {
        match &node.value {
            Value::Object(ms) => ms.iter().for_each(|m| {
                if m.key.as_str() == "xa" {
                    out.skip(&m.value);
                }
                edits(&m.value, out);
            }),
            Value::Array(items) => items.iter().for_each(|n| edits(n, out)),
            Value::Number(n) => {
                if let Some(f) = n.as_f64().filter(|f| f.fract() == 0.0 && !n.is_i64()) {
                    out.replace_number(node, serde_json::Number::from(f as i64));
                }
            }
            _ => {}
        }
    }

    fn parsed(text: &str) -> Option<Document> {
        let mut diags = Diagnostics::new("t.json");
        parse_json(text.to_owned(), &KEYS, &ReadLimits::default(), &mut diags)
    }

    proptest! {
        /// Consuming the tree reads the model that reading it in place does, edits and
        /// repeated keys included.
        #[test]
        fn consuming_the_tree_reads_what_borrowing_it_does(text in json_text()) {
            let Some(mut doc) = parsed(&text) else { return Ok(()) };
            let mut borrowed_edits = Edits::default();
            edits(doc.root(), &mut borrowed_edits);
            let borrowed = from_node::<Trace>(doc.root(), borrowed_edits);
            let mut owned_edits = Edits::default();
            edits(doc.root(), &mut owned_edits);
            let owned = from_tree::<Trace>(&mut doc, owned_edits);
            prop_assert_eq!(borrowed.map_err(|e| e.to_string()), owned.map_err(|e| e.to_string()));
        }
    }

    #[derive(Debug, PartialEq, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Probe {
        a: Option<u64>,
        kind: Kind,
        name: Option<String>,
        list: Vec<String>,
        #[serde(default)]
        gone: Option<bool>,
    }

    #[derive(Debug, PartialEq, serde::Deserialize)]
    #[serde(rename_all = "lowercase")]
    enum Kind {
        One,
        Two,
    }

    #[test]
    fn a_model_reads_the_same_from_the_tree_consumed() {
        let text = r#"{"a":3.0,"kind":"two","xa":{"deep":[1]},"name":"more than twenty-one bytes",
            "list":["x","a text of more than twenty-one bytes"],"gone":null,"a":4.0}"#;
        let mut doc = parsed(text).unwrap();
        let mut e = Edits::default();
        edits(doc.root(), &mut e);
        let borrowed: Probe = from_node(doc.root(), e).unwrap();
        let mut e = Edits::default();
        edits(doc.root(), &mut e);
        let owned: Probe = from_tree(&mut doc, e).unwrap();
        assert_eq!(borrowed, owned);
        assert_eq!(owned.a, Some(4));
        assert_eq!(owned.kind, Kind::Two);
        assert_eq!(owned.list[1], "a text of more than twenty-one bytes");
        assert_eq!(owned.gone, None);
    }

    #[test]
    fn the_edits_and_the_last_of_repeated_keys_apply_when_the_tree_is_consumed() {
        let mut doc = parsed(r#"{"a":1.0,"xa":2,"b":[{"a":"x","a":"y"}],"a":3.0}"#).unwrap();
        let mut e = Edits::default();
        edits(doc.root(), &mut e);
        let v: serde_json::Value = from_tree(&mut doc, e).unwrap();
        assert_eq!(v.to_string(), r#"{"a":3,"b":[{"a":"y"}]}"#);
    }
}
