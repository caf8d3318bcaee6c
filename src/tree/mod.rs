//! A located document tree: JSON or YAML parsed into values that remember where they are.
//!
//! Every node keeps its byte range, and every object member the byte range of its key, so that
//! any later stage can point a diagnostic at the exact key or value through a JSON Pointer
//! ([`Document::locate`]). JSON is read by a small recursive-descent parser with a depth
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
mod yaml;

pub use decode::{MAX_INPUT_BYTES, ReadLimits, decode, decode_owned, decode_text};
pub use json::{parse_json, parse_json_or_text};
pub use key::{Key, Vocabulary};
pub use node::{Document, KeyType, Member, Node, Span, Syntax, Value, escape_ptr};
pub use yaml::{READER_STACK, declare_reader_stack, parse_yaml, parse_yaml_or_text};
