//! The values loopconv's enforcement writes in a machine ([`enforce`](super::enforce)): a
//! phase state's `entry` and `always`, a transition's `guard` and `actions`. Each is read
//! into a type of the shape enforcement writes ([`Call`], [`Eventless`], a list of them)
//! when it has that shape, its keys in the order enforcement writes them, and held as a
//! `serde_json::Value` otherwise ([`Json`]), so that a hand-written guard or action is kept
//! as it was read.
//!
//! A machine of 10,000 phase states holds 20,000 of them: read as `serde_json::Value`s
//! (an `IndexMap` with a SipHash table for every object, a `String` for every key), then
//! compared with what enforcement writes and dropped, they were about 130 M of the 980 M
//! instructions of its `check`. Typed, one is read without allocating (an `always`
//! allocates its target), and compared field by field.
//!
//! A [`Json`] compares as the JSON value it stands for (objects as maps, as
//! `serde_json::Value` does), and is written as that value.

use std::marker::PhantomData;

use schemars::JsonSchema;
use serde::de::value::{
    BoolDeserializer, F64Deserializer, I64Deserializer, I128Deserializer, MapAccessDeserializer,
    SeqAccessDeserializer, U64Deserializer, U128Deserializer,
};
use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// A value in one of the places enforcement writes: of the shape it writes, typed (`T`),
/// or any other JSON value, as read.
#[derive(Debug, Clone)]
pub enum Json<T> {
    /// Of the shape enforcement writes, its keys in the order it writes them.
    Typed(T),
    /// Anything else: a hand-written action, a guard of another shape, the same keys in
    /// another order.
    Other(Value),
}

impl<T: Shape> Json<T> {
    /// The JSON value this stands for.
    pub fn to_json(&self) -> Value {
        match self {
            Json::Typed(t) => t.to_json(),
            Json::Other(v) => v.clone(),
        }
    }
}

/// As JSON values: objects as maps (as `serde_json::Value`s compare), whichever way
/// each side is held.
impl<T: Shape + PartialEq> PartialEq for Json<T> {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Json::Typed(a), Json::Typed(b)) => a == b,
            (Json::Other(a), Json::Other(b)) => a == b,
            (Json::Typed(t), Json::Other(v)) | (Json::Other(v), Json::Typed(t)) => {
                t.to_json() == *v
            }
        }
    }
}

impl<T: Serialize> Serialize for Json<T> {
    fn serialize<S: serde::Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        match self {
            Json::Typed(t) => t.serialize(ser),
            Json::Other(v) => v.serialize(ser),
        }
    }
}

impl<'de, T: Shape> Deserialize<'de> for Json<T> {
    fn deserialize<D: de::Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        de.deserialize_any(ShapeVisitor(PhantomData))
    }
}

/// The schema of any JSON value, as the places enforcement writes had as
/// `serde_json::Value`s (a hand-written machine may hold anything there).
impl<T> JsonSchema for Json<T> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        <Value as JsonSchema>::schema_name()
    }

    fn schema_id() -> std::borrow::Cow<'static, str> {
        <Value as JsonSchema>::schema_id()
    }

    fn inline_schema() -> bool {
        <Value as JsonSchema>::inline_schema()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        <Value as JsonSchema>::json_schema(generator)
    }
}

/// A shape enforcement writes: how a JSON value of it is read, and the value it is.
/// Each reader returns [`Json::Other`] with the value as `serde_json` reads it as soon
/// as the value leaves the shape.
pub trait Shape: Sized {
    /// The JSON value.
    fn to_json(&self) -> Value;

    /// A string of the shape.
    fn from_str(_text: &str) -> Option<Self> {
        None
    }

    /// A non-negative integer of the shape.
    fn from_u64(_n: u64) -> Option<Self> {
        None
    }

    /// An object, read.
    fn from_map<'de, A: MapAccess<'de>>(map: A) -> Result<Json<Self>, A::Error> {
        Value::deserialize(MapAccessDeserializer::new(map)).map(Json::Other)
    }

    /// An array, read.
    fn from_seq<'de, A: SeqAccess<'de>>(seq: A) -> Result<Json<Self>, A::Error> {
        Value::deserialize(SeqAccessDeserializer::new(seq)).map(Json::Other)
    }
}

/// Reads a [`Json`]: each kind of value by `T`'s reader, or as `serde_json` reads it.
struct ShapeVisitor<T>(PhantomData<T>);

impl<'de, T: Shape> Visitor<'de> for ShapeVisitor<T> {
    type Value = Json<T>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E: de::Error>(self, b: bool) -> Result<Json<T>, E> {
        Value::deserialize(BoolDeserializer::new(b)).map(Json::Other)
    }

    fn visit_i64<E: de::Error>(self, n: i64) -> Result<Json<T>, E> {
        Value::deserialize(I64Deserializer::new(n)).map(Json::Other)
    }

    fn visit_i128<E: de::Error>(self, n: i128) -> Result<Json<T>, E> {
        Value::deserialize(I128Deserializer::new(n)).map(Json::Other)
    }

    fn visit_u64<E: de::Error>(self, n: u64) -> Result<Json<T>, E> {
        match T::from_u64(n) {
            Some(t) => Ok(Json::Typed(t)),
            None => Value::deserialize(U64Deserializer::new(n)).map(Json::Other),
        }
    }

    fn visit_u128<E: de::Error>(self, n: u128) -> Result<Json<T>, E> {
        Value::deserialize(U128Deserializer::new(n)).map(Json::Other)
    }

    fn visit_f64<E: de::Error>(self, n: f64) -> Result<Json<T>, E> {
        Value::deserialize(F64Deserializer::new(n)).map(Json::Other)
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<Json<T>, E> {
        Ok(T::from_str(text)
            .map_or_else(|| Json::Other(Value::String(text.to_owned())), Json::Typed))
    }

    fn visit_string<E: de::Error>(self, text: String) -> Result<Json<T>, E> {
        Ok(T::from_str(&text).map_or(Json::Other(Value::String(text)), Json::Typed))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Json<T>, E> {
        Ok(Json::Other(Value::Null))
    }

    fn visit_none<E: de::Error>(self) -> Result<Json<T>, E> {
        Ok(Json::Other(Value::Null))
    }

    fn visit_some<D: de::Deserializer<'de>>(self, de: D) -> Result<Json<T>, D::Error> {
        Value::deserialize(de).map(Json::Other)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Json<T>, A::Error> {
        T::from_map(map)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Json<T>, A::Error> {
        T::from_seq(seq)
    }
}

/// A key read where the key `name` is expected: `Ok` when it is that key, else the key
/// (`name` `None` expects none: the end of the object).
struct Expect(Option<&'static str>);

impl<'de> DeserializeSeed<'de> for Expect {
    type Value = Result<(), String>;

    fn deserialize<D: de::Deserializer<'de>>(self, de: D) -> Result<Self::Value, D::Error> {
        de.deserialize_str(self)
    }
}

impl Visitor<'_> for Expect {
    type Value = Result<(), String>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a key")
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<Self::Value, E> {
        Ok(if self.0 == Some(key) {
            Ok(())
        } else {
            Err(key.to_owned())
        })
    }
}

/// The next member of an object, read where the member `name` of shape `T` is expected.
enum Next<T> {
    /// The member `name`, of shape `T`.
    Typed(T),
    /// Another key, or `name` with a value of another shape: the key and the value.
    Untyped(String, Value),
    /// No more members.
    End,
}

/// The next member of `map`, where the member `name` of shape `T` is expected.
fn next<'de, T: Shape, A: MapAccess<'de>>(
    map: &mut A,
    name: &'static str,
) -> Result<Next<T>, A::Error> {
    match map.next_key_seed(Expect(Some(name)))? {
        None => Ok(Next::End),
        Some(Err(key)) => Ok(Next::Untyped(key, map.next_value()?)),
        Some(Ok(())) => Ok(match map.next_value::<Json<T>>()? {
            Json::Typed(t) => Next::Typed(t),
            Json::Other(v) => Next::Untyped(name.to_owned(), v),
        }),
    }
}

/// The member after the last one expected, if any: its key and value.
fn extra<'de, A: MapAccess<'de>>(map: &mut A) -> Result<Option<(String, Value)>, A::Error> {
    match map.next_key_seed(Expect(None))? {
        None => Ok(None),
        Some(Ok(())) => Err(de::Error::custom("a key expected where none is")),
        Some(Err(key)) => Ok(Some((key, map.next_value()?))),
    }
}

/// The object read so far (`read`, then `pending`), and, when `pending` is a member, the
/// rest of `map`: as `serde_json` reads it (a key given twice keeps its first place and
/// its last value).
fn other<'de, T, A: MapAccess<'de>>(
    read: Vec<(&'static str, Value)>,
    pending: Option<(String, Value)>,
    mut map: A,
) -> Result<Json<T>, A::Error> {
    let mut object = Map::new();
    for (key, value) in read {
        object.insert(key.to_owned(), value);
    }
    if let Some((key, value)) = pending {
        object.insert(key, value);
        while let Some((key, value)) = map.next_entry::<String, Value>()? {
            object.insert(key, value);
        }
    }
    Ok(Json::Other(Value::Object(object)))
}

/// What a guard or an action does: its `type`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CallKind {
    /// The action that adds one to a counter.
    Count,
    /// The action that sets a counter to 0.
    Reset,
    /// The guard: the counter is above `max`.
    Above,
    /// The guard: the counter is below `max`.
    Below,
    /// The guard: the counter is at least `max`.
    Reached,
}

impl CallKind {
    const ALL: [CallKind; 5] = [
        CallKind::Count,
        CallKind::Reset,
        CallKind::Above,
        CallKind::Below,
        CallKind::Reached,
    ];

    /// The name as written.
    pub fn as_str(self) -> &'static str {
        match self {
            CallKind::Count => "count",
            CallKind::Reset => "reset",
            CallKind::Above => "above",
            CallKind::Below => "below",
            CallKind::Reached => "reached",
        }
    }
}

impl Shape for CallKind {
    fn to_json(&self) -> Value {
        Value::String(self.as_str().to_owned())
    }

    fn from_str(text: &str) -> Option<Self> {
        CallKind::ALL.into_iter().find(|k| k.as_str() == text)
    }
}

/// A counter in `context`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Counter {
    /// The phase executions of a run.
    Steps,
    /// The REAL/VEAL `eval`'s executions.
    Attempts,
    /// The tool failures retried in the current phase execution.
    Retries,
}

impl Counter {
    const ALL: [Counter; 3] = [Counter::Steps, Counter::Attempts, Counter::Retries];

    /// The name as written.
    pub fn as_str(self) -> &'static str {
        match self {
            Counter::Steps => "steps",
            Counter::Attempts => "attempts",
            Counter::Retries => "retries",
        }
    }
}

impl Shape for Counter {
    fn to_json(&self) -> Value {
        Value::String(self.as_str().to_owned())
    }

    fn from_str(text: &str) -> Option<Self> {
        Counter::ALL.into_iter().find(|c| c.as_str() == text)
    }
}

impl Shape for u64 {
    fn to_json(&self) -> Value {
        Value::from(*self)
    }

    fn from_u64(n: u64) -> Option<Self> {
        Some(n)
    }
}

impl Shape for String {
    fn to_json(&self) -> Value {
        Value::String(self.clone())
    }

    fn from_str(text: &str) -> Option<Self> {
        Some(text.to_owned())
    }
}

/// A guard's or an action's parameters: `{"counter": ..., "max": ...}` (an action has no
/// `max`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Params {
    /// The counter.
    pub counter: Counter,
    /// A guard's bound.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<u64>,
}

impl Shape for Params {
    fn to_json(&self) -> Value {
        let mut object = Map::new();
        object.insert("counter".to_owned(), self.counter.to_json());
        if let Some(max) = self.max {
            object.insert("max".to_owned(), Value::from(max));
        }
        Value::Object(object)
    }

    fn from_map<'de, A: MapAccess<'de>>(mut map: A) -> Result<Json<Self>, A::Error> {
        let counter = match next::<Counter, A>(&mut map, "counter")? {
            Next::Typed(c) => c,
            Next::Untyped(key, value) => return other(Vec::new(), Some((key, value)), map),
            Next::End => return other(Vec::new(), None, map),
        };
        let read = |counter: Counter| vec![("counter", counter.to_json())];
        let max = match next::<u64, A>(&mut map, "max")? {
            Next::Typed(max) => max,
            Next::Untyped(key, value) => return other(read(counter), Some((key, value)), map),
            Next::End => return Ok(Json::Typed(Params { counter, max: None })),
        };
        match extra(&mut map)? {
            None => Ok(Json::Typed(Params {
                counter,
                max: Some(max),
            })),
            Some(pending) => {
                let mut read = read(counter);
                read.push(("max", Value::from(max)));
                other(read, Some(pending), map)
            }
        }
    }
}

/// A guard or an action on a counter: `{"type": ..., "params": {...}}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Call {
    /// What it does.
    #[serde(rename = "type")]
    pub kind: CallKind,
    /// On which counter, and up to which bound.
    pub params: Params,
}

impl Call {
    /// The guard `kind` on `counter` with bound `max`.
    pub fn guard(kind: CallKind, counter: Counter, max: u64) -> Call {
        Call {
            kind,
            params: Params {
                counter,
                max: Some(max),
            },
        }
    }

    /// The action `kind` on `counter`.
    pub fn action(kind: CallKind, counter: Counter) -> Call {
        Call {
            kind,
            params: Params { counter, max: None },
        }
    }
}

impl Shape for Call {
    fn to_json(&self) -> Value {
        let mut object = Map::new();
        object.insert("type".to_owned(), self.kind.to_json());
        object.insert("params".to_owned(), self.params.to_json());
        Value::Object(object)
    }

    fn from_map<'de, A: MapAccess<'de>>(mut map: A) -> Result<Json<Self>, A::Error> {
        let kind = match next::<CallKind, A>(&mut map, "type")? {
            Next::Typed(k) => k,
            Next::Untyped(key, value) => return other(Vec::new(), Some((key, value)), map),
            Next::End => return other(Vec::new(), None, map),
        };
        // What was read, as JSON, made only when the object leaves the shape.
        let read = || vec![("type", kind.to_json())];
        let params = match next::<Params, A>(&mut map, "params")? {
            Next::Typed(p) => p,
            Next::Untyped(key, value) => return other(read(), Some((key, value)), map),
            Next::End => return other(read(), None, map),
        };
        match extra(&mut map)? {
            None => Ok(Json::Typed(Call { kind, params })),
            Some(pending) => {
                let mut read = read();
                read.push(("params", params.to_json()));
                other(read, Some(pending), map)
            }
        }
    }
}

/// An eventless transition to a state under a guard: `{"target": ..., "guard": {...}}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Eventless {
    /// The state's key.
    pub target: String,
    /// When it is taken.
    pub guard: Call,
}

impl Shape for Eventless {
    fn to_json(&self) -> Value {
        let mut object = Map::new();
        object.insert("target".to_owned(), Value::String(self.target.clone()));
        object.insert("guard".to_owned(), self.guard.to_json());
        Value::Object(object)
    }

    fn from_map<'de, A: MapAccess<'de>>(mut map: A) -> Result<Json<Self>, A::Error> {
        let target = match next::<String, A>(&mut map, "target")? {
            Next::Typed(t) => t,
            Next::Untyped(key, value) => return other(Vec::new(), Some((key, value)), map),
            Next::End => return other(Vec::new(), None, map),
        };
        let read = |target: String| vec![("target", Value::String(target))];
        let guard = match next::<Call, A>(&mut map, "guard")? {
            Next::Typed(g) => g,
            Next::Untyped(key, value) => return other(read(target), Some((key, value)), map),
            Next::End => return other(read(target), None, map),
        };
        match extra(&mut map)? {
            None => Ok(Json::Typed(Eventless { target, guard })),
            Some(pending) => {
                let mut read = read(target);
                read.push(("guard", guard.to_json()));
                other(read, Some(pending), map)
            }
        }
    }
}

impl<T: Shape> Shape for Vec<T> {
    fn to_json(&self) -> Value {
        Value::Array(self.iter().map(Shape::to_json).collect())
    }

    fn from_seq<'de, A: SeqAccess<'de>>(mut seq: A) -> Result<Json<Self>, A::Error> {
        // The hint is the reader's count; bounded, so that no hint can reserve much.
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(8));
        while let Some(item) = seq.next_element::<Json<T>>()? {
            match item {
                Json::Typed(t) => items.push(t),
                Json::Other(v) => {
                    let mut values: Vec<Value> = items.iter().map(Shape::to_json).collect();
                    values.push(v);
                    while let Some(v) = seq.next_element::<Value>()? {
                        values.push(v);
                    }
                    return Ok(Json::Other(Value::Array(values)));
                }
            }
        }
        Ok(Json::Typed(items))
    }
}

#[cfg(test)]
mod tests;
