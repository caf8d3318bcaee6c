//! A located document tree: JSON or YAML parsed into values that remember where they are.
//!
//! Every node keeps its byte range, and every object member the byte range of its key, so that
//! any later stage can point a diagnostic at the exact key or value through a JSON Pointer
//! (`Document::locate`). JSON is read by a small recursive-descent parser with a depth
//! limit; YAML by `serde-saphyr` (through its `Spanned` wrapper), with duplicate keys passed
//! through so that all of them are reported, YAML 1.2 booleans only, and budgets against
//! alias bombs.
//!
//! The parts: `node` (the values, their spans and the document), `key` (object keys, shared
//! when known), `lines` (lines and columns of byte ranges), `decode` (bytes to text, and the
//! limits), `json` and `yaml` (the two parsers), `duplicates` (the duplicate keys both
//! parsers report).

mod decode;
mod duplicates;
mod json;
mod key;
mod lines;
mod node;
mod scan;
mod string;
mod yaml;

pub use decode::{
    DEFAULT_MAX_DEPTH, MAX_INPUT_BYTES, ReadLimits, decode, decode_owned, decode_text,
};
pub use json::{parse_json, parse_json_or_text};
pub use key::{Key, Vocabulary};
pub use node::{Document, KeyType, Member, Node, Span, Syntax, Value};
pub use string::{SourceText, Str};
pub use yaml::{READER_STACK, declare_reader_stack, parse_yaml, parse_yaml_or_text};

#[cfg(test)]
mod tests {
    use super::{Document, ReadLimits, Span, Vocabulary, parse_json, parse_yaml, scan};
    use crate::diag::{Diagnostics, Locate};
    use proptest::prelude::{Just, Strategy, prop, prop_assert_eq, prop_oneof, proptest};

    static WORDS: Vocabulary = Vocabulary::new(&["a", "b"]);

    /// Pointers into both texts below: members, items, keys, a missing one.
    const POINTERS: &[&str] = &["", "/a", "/b", "/b/1", "/b/1/c~1d", "/b/9", "/zz", "/b/0"];

    /// A freed tree, read again from the text, is the tree the parser built, and every
    /// position found through it is the same.
    fn released_tree_reads_back_the_same(doc: Option<Document>) {
        let mut doc = doc.expect("the text parses");
        let before = doc.root().clone();
        let located: Vec<_> = (POINTERS.iter())
            .flat_map(|p| [(doc.locate(p, false), doc.locate_exact(p, true))])
            .collect();
        doc.release_tree();
        assert!(!doc.holds_tree());
        assert_eq!(doc.root(), &before);
        assert!(doc.holds_tree());
        doc.release_tree();
        let again: Vec<_> = (POINTERS.iter())
            .flat_map(|p| [(doc.locate(p, false), doc.locate_exact(p, true))])
            .collect();
        assert_eq!(again, located);
    }

    #[test]
    fn a_released_json_tree_reads_back_the_same() {
        let text =
            "{\"a\": 1.5e3,\n \"b\": [null, {\"c/d\": \"\\u00e9\\n\", \"a\": true}],\n \"a\": -2}";
        let mut d = Diagnostics::new("t.json");
        released_tree_reads_back_the_same(parse_json(
            text.to_owned(),
            &WORDS,
            &ReadLimits::default(),
            &mut d,
        ));
    }

    #[test]
    fn a_released_yaml_tree_reads_back_the_same() {
        let text = "a: &x 1\nb:\n  - ~\n  - c/d: \"é\\n\"\n    a: *x\n    1: yes\na: .inf\n";
        let mut d = Diagnostics::new("t.yaml");
        released_tree_reads_back_the_same(parse_yaml(
            text.to_owned(),
            &WORDS,
            &ReadLimits::default(),
            &mut d,
        ));
    }

    /// Keys as written: plain, escaped (`\/`, `\u0061`), repeated.
    const KEYS: &[&str] = &["a", "b", "a/b", "~", "\\u0061", "a\\/b", "c", ""];
    /// Pointer steps: the keys (escaped for a pointer) and indices.
    const STEPS: &[&str] = &[
        "a", "b", "a~1b", "~0", "c", "", "0", "1", "01", "+1", "9", "x",
    ];

    /// JSON text: objects (keys from [`KEYS`], duplicates included), arrays and scalars,
    /// with whitespace anywhere.
    fn json_text() -> impl Strategy<Value = String> {
        let ws = prop::sample::select(vec!["", " ", "\n  ", "\t"]);
        let leaf = prop_oneof![
            Just("null".to_owned()),
            Just("true".to_owned()),
            Just("-1.5e3".to_owned()),
            Just("\"x\\\"]}\"".to_owned()),
            Just("\"{[\"".to_owned()),
        ];
        leaf.prop_recursive(4, 40, 5, move |inner| {
            let member = (prop::sample::select(KEYS), ws.clone(), inner.clone())
                .prop_map(|(k, w, v)| format!("{w}\"{k}\"{w}:{w}{v}{w}"));
            prop_oneof![
                prop::collection::vec(member, 0..5).prop_map(|ms| format!("{{{}}}", ms.join(","))),
                prop::collection::vec(inner, 0..5).prop_map(|vs| format!("[{}]", vs.join(", "))),
            ]
        })
    }

    fn pointer() -> impl Strategy<Value = String> {
        prop::collection::vec(prop::sample::select(STEPS), 0..4)
            .prop_map(|steps| steps.iter().map(|s| format!("/{s}")).collect())
    }

    proptest! {
        /// One pass over the text finds what descending the tree finds, for every pointer.
        #[test]
        fn scanning_the_text_finds_what_descending_the_tree_finds(
            text in json_text(),
            pointers in prop::collection::vec(pointer(), 1..8),
        ) {
            let mut d = Diagnostics::new("t.json");
            let doc = parse_json(text.clone(), &WORDS, &ReadLimits::default(), &mut d)
                .expect("the generated text is JSON");
            let refs: Vec<&str> = pointers.iter().map(String::as_str).collect();
            let scanned = scan::find_all(&text, &refs);
            let range = |s: Span| (s.start(), s.end());
            for (p, f) in refs.iter().zip(scanned) {
                let (value, nearest) = doc.find(p);
                let descended = (value.map(|(v, k)| (range(v), k.map(range))), range(nearest));
                prop_assert_eq!((f.value, f.nearest), descended, "{} in {}", p, text);
            }
        }
    }
}
