//! A [`Json`] stands for the JSON value it was read from, whichever way it is held: the
//! same value, written the same, compared as `serde_json::Value`s compare; typed exactly
//! when the value has the shape enforcement writes, its keys in that order.

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::{Call, Eventless, Json, Shape};
use crate::diag::Diagnostics;
use crate::front::to_model;
use crate::front::vocabulary::KEYS;
use crate::tree::{ReadLimits, parse_json};

/// Each text: whether it is of the shape, as a `Json<Vec<Call>>` (`entry`, `actions`).
const ACTIONS: &[(&str, bool)] = &[
    (
        r#"[{"type": "count", "params": {"counter": "steps"}}]"#,
        true,
    ),
    (
        r#"[{"type": "count", "params": {"counter": "attempts"}}, {"type": "reset", "params": {"counter": "retries"}}]"#,
        true,
    ),
    ("[]", true),
    (
        r#"[{"params": {"counter": "steps"}, "type": "count"}]"#,
        false,
    ),
    (
        r#"[{"type": "count", "params": {"counter": "steps"}, "x": 1}]"#,
        false,
    ),
    (
        r#"[{"type": "count", "params": {"counter": "steps"}}, "log"]"#,
        false,
    ),
    (
        r#"["log", {"type": "count", "params": {"counter": "steps"}}]"#,
        false,
    ),
    (
        r#"[{"type": "tally", "params": {"counter": "steps"}}]"#,
        false,
    ),
    (
        r#"[{"type": "count", "params": {"counter": "days"}}]"#,
        false,
    ),
    (r#"[{"type": "count", "params": {"counter": 7}}]"#, false),
    (
        r#"[{"type": "count", "params": {"max": 3, "counter": "steps"}}]"#,
        false,
    ),
    (r#"[{"type": "count", "params": {}}]"#, false),
    (r#"[{"type": "count"}]"#, false),
    (r#"[{"type": null, "params": {"counter": "steps"}}]"#, false),
    ("[{}]", false),
    ("[null, true, 1, -1, 1.5, \"s\", [], {}]", false),
    (r#""log""#, false),
    ("{}", false),
    (
        r#"{"type": "count", "params": {"counter": "steps"}}"#,
        false,
    ),
    ("3", false),
];

/// Each text: whether it is of the shape, as a `Json<Call>` (`guard`).
const GUARDS: &[(&str, bool)] = &[
    (
        r#"{"type": "above", "params": {"counter": "steps", "max": 100}}"#,
        true,
    ),
    (
        r#"{"type": "below", "params": {"counter": "retries", "max": 0}}"#,
        true,
    ),
    (
        r#"{"type": "reached", "params": {"counter": "attempts"}}"#,
        true,
    ),
    (
        r#"{"type": "above", "params": {"counter": "steps", "max": -1}}"#,
        false,
    ),
    (
        r#"{"type": "above", "params": {"counter": "steps", "max": 100.0}}"#,
        false,
    ),
    (
        r#"{"type": "above", "params": {"counter": "steps", "max": 1e2}}"#,
        false,
    ),
    (
        r#"{"type": "above", "params": {"counter": "steps", "max": "100"}}"#,
        false,
    ),
    (
        r#"{"type": "above", "params": {"counter": "steps", "max": 100, "by": 1}}"#,
        false,
    ),
    (r#"{"type": "above", "params": [1]}"#, false),
    (r#""isReady""#, false),
    (r#"{"type": "isReady"}"#, false),
];

/// Each text: whether it is of the shape, as a `Json<Vec<Eventless>>` (`always`).
const ALWAYS: &[(&str, bool)] = &[
    (
        r#"[{"target": "limit-reached", "guard": {"type": "above", "params": {"counter": "steps", "max": 30000}}}]"#,
        true,
    ),
    (
        r#"[{"guard": {"type": "above", "params": {"counter": "steps", "max": 3}}, "target": "x"}]"#,
        false,
    ),
    (
        r#"[{"target": "x", "guard": {"type": "above", "params": {"counter": "steps", "max": 3}}, "actions": []}]"#,
        false,
    ),
    (r#"[{"target": "x"}]"#, false),
    (r#"[{"target": ["x"], "guard": "g"}]"#, false),
    (r#"[{"target": "x", "guard": "g"}]"#, false),
    (r#"{"target": "x"}"#, false),
    (r#""x""#, false),
];

/// Texts with a key given twice, as `Json<Vec<Call>>` and `Json<Call>`: the same values as
/// serde_json reads them, typed or not (the tree hands over each key once, with its last
/// value, where serde_json's own reader hands over each occurrence).
const REPEATED: &[&str] = &[
    r#"[{"type": "count", "type": "reset", "params": {"counter": "steps"}}]"#,
    r#"[{"type": "count", "params": {"counter": "steps", "counter": "retries"}}]"#,
    r#"[{"type": "count", "params": {"counter": "steps"}, "type": 1}]"#,
];
const REPEATED_GUARDS: &[&str] = &[
    r#"{"type": "above", "params": {"counter": "steps", "max": 1, "max": 2}}"#,
    r#"{"type": "above", "params": {"counter": "steps", "max": 100}, "params": 1}"#,
];

/// `text` read through the located tree, as the front end reads a machine.
fn through_tree<T: DeserializeOwned>(text: &str) -> T {
    let mut diags = Diagnostics::new("t.json");
    let doc = parse_json(text.to_owned(), &KEYS, &ReadLimits::default(), &mut diags).expect("JSON");
    to_model::from_node(doc.root(), to_model::Edits::default()).expect("read")
}

/// The checks of one text read as `Json<T>`, both through serde_json and the tree;
/// `typed`, whether it is held typed (`None`: either).
fn check<T>(text: &str, typed: Option<bool>)
where
    T: Shape + PartialEq + Serialize + std::fmt::Debug,
{
    let value: Value = serde_json::from_str(text).expect("JSON");
    let written = serde_json::to_string(&value).expect("written");
    for json in [
        serde_json::from_str::<Json<T>>(text).expect("read"),
        through_tree::<Json<T>>(text),
        serde_json::from_value::<Json<T>>(value.clone()).expect("read"),
    ] {
        if let Some(typed) = typed {
            assert_eq!(matches!(json, Json::Typed(_)), typed, "{text}");
        }
        assert_eq!(json.to_json(), value, "{text}");
        assert_eq!(
            serde_json::to_string(&json).expect("written"),
            written,
            "{text}"
        );
        assert_eq!(json, Json::Other(value.clone()), "{text}");
        assert_eq!(Json::Other(value.clone()), json, "{text}");
    }
}

/// Every pair compares as the two JSON values compare.
fn pairs<T>(texts: &[(&str, bool)])
where
    T: Shape + PartialEq + std::fmt::Debug,
{
    for (a, _) in texts {
        for (b, _) in texts {
            let (va, vb): (Value, Value) = (
                serde_json::from_str(a).expect("JSON"),
                serde_json::from_str(b).expect("JSON"),
            );
            let ja: Json<T> = through_tree(a);
            let jb: Json<T> = through_tree(b);
            assert_eq!(ja == jb, va == vb, "{a} == {b}");
        }
    }
}

#[test]
fn actions_read_as_the_json_they_are() {
    for (text, typed) in ACTIONS {
        check::<Vec<Call>>(text, Some(*typed));
    }
    for text in REPEATED {
        check::<Vec<Call>>(text, None);
    }
    pairs::<Vec<Call>>(ACTIONS);
}

#[test]
fn guards_read_as_the_json_they_are() {
    for (text, typed) in GUARDS {
        check::<Call>(text, Some(*typed));
    }
    for text in REPEATED_GUARDS {
        check::<Call>(text, None);
    }
    pairs::<Call>(GUARDS);
}

#[test]
fn eventless_transitions_read_as_the_json_they_are() {
    for (text, typed) in ALWAYS {
        check::<Vec<Eventless>>(text, Some(*typed));
    }
    pairs::<Vec<Eventless>>(ALWAYS);
}

/// The same keys in another order are the same value, held typed on one side only.
#[test]
fn keys_in_another_order_are_the_same_value() {
    let typed: Json<Call> =
        through_tree(r#"{"type": "above", "params": {"counter": "steps", "max": 5}}"#);
    let other: Json<Call> =
        through_tree(r#"{"params": {"max": 5, "counter": "steps"}, "type": "above"}"#);
    assert!(matches!(typed, Json::Typed(_)) && matches!(other, Json::Other(_)));
    assert_eq!(typed, other);
}
