//! A document tree of the tests' own (`M`), independent of loopconv's, with its JSON and
//! YAML writers: the mutation tests edit a loaded file through it and write it back.

use loopconv::tree::{Node, Value as TV};

// ------------------------------------------------------------------ (c) mutations

/// A document as a mutable tree that keeps duplicate keys and key order.
#[derive(Debug, Clone, PartialEq)]
pub enum M {
    Null,
    Bool(bool),
    Num(String),
    Str(String),
    Arr(Vec<M>),
    Obj(Vec<(String, M)>),
}

impl M {
    pub fn from_node(n: &Node) -> M {
        match &n.value {
            TV::Null => M::Null,
            TV::Bool(b) => M::Bool(*b),
            TV::Number(x) => M::Num(x.to_string()),
            TV::NonFinite(f) => M::Num(f.to_string()),
            TV::String(text) => M::Str(text.to_string()),
            TV::Array(a) => M::Arr(a.iter().map(M::from_node).collect()),
            TV::Object(ms) => M::Obj(
                ms.iter()
                    .map(|m| (m.key.to_string(), M::from_node(&m.value)))
                    .collect(),
            ),
        }
    }

    pub fn scalar(&self, yaml: bool) -> Option<String> {
        Some(match self {
            M::Null => "null".into(),
            M::Bool(b) => b.to_string(),
            M::Num(n) => n.clone(),
            M::Str(s) if yaml => quote_yaml(s),
            M::Str(s) => quote(s),
            M::Arr(a) if a.is_empty() => "[]".into(),
            M::Obj(o) if o.is_empty() => "{}".into(),
            _ => return None,
        })
    }

    pub fn json(&self, indent: usize, out: &mut String) {
        if let Some(s) = self.scalar(false) {
            out.push_str(&s);
            return;
        }
        let pad = " ".repeat(indent + 2);
        match self {
            M::Arr(a) => {
                out.push_str("[\n");
                for (i, v) in a.iter().enumerate() {
                    out.push_str(&pad);
                    v.json(indent + 2, out);
                    out.push_str(if i + 1 < a.len() { ",\n" } else { "\n" });
                }
                out.push_str(&" ".repeat(indent));
                out.push(']');
            }
            M::Obj(o) => {
                out.push_str("{\n");
                for (i, (k, v)) in o.iter().enumerate() {
                    out.push_str(&pad);
                    out.push_str(&quote(k));
                    out.push_str(": ");
                    v.json(indent + 2, out);
                    out.push_str(if i + 1 < o.len() { ",\n" } else { "\n" });
                }
                out.push_str(&" ".repeat(indent));
                out.push('}');
            }
            _ => unreachable!("scalars are written above"),
        }
    }

    /// Block YAML with every string double-quoted (JSON escapes are YAML escapes).
    pub fn yaml(&self, indent: usize, out: &mut String) {
        if let Some(s) = self.scalar(true) {
            out.push(' ');
            out.push_str(&s);
            out.push('\n');
            return;
        }
        out.push('\n');
        let pad = " ".repeat(indent);
        match self {
            M::Arr(a) => {
                for v in a {
                    out.push_str(&pad);
                    out.push('-');
                    v.yaml(indent + 2, out);
                }
            }
            M::Obj(o) => {
                for (k, v) in o {
                    out.push_str(&pad);
                    out.push_str(&quote_yaml(k));
                    out.push(':');
                    v.yaml(indent + 2, out);
                }
            }
            _ => unreachable!("scalars are written above"),
        }
    }

    pub fn render(&self, yaml: bool) -> String {
        let mut out = String::new();
        if yaml {
            self.yaml(0, &mut out);
            // The root starts on a new line; drop it.
            out.remove(0);
            if out.starts_with(' ') {
                out.remove(0);
            }
        } else {
            self.json(0, &mut out);
            out.push('\n');
        }
        out
    }

    /// Every node with its JSON Pointer, in document order.
    pub fn descend<'a>(&'a self, ptr: String, out: &mut Vec<(String, &'a M)>) {
        out.push((ptr.clone(), self));
        match self {
            M::Arr(a) => {
                for (i, v) in a.iter().enumerate() {
                    v.descend(format!("{ptr}/{i}"), out);
                }
            }
            M::Obj(o) => {
                for (k, v) in o {
                    v.descend(format!("{ptr}/{}", loopconv::pointer::escape(k)), out);
                }
            }
            _ => {}
        }
    }

    pub fn pointers(&self) -> Vec<(String, M)> {
        let mut v = Vec::new();
        self.descend(String::new(), &mut v);
        v.into_iter().map(|(p, m)| (p, m.clone())).collect()
    }

    /// The parent container of the node at `ptr` and the node's last segment.
    pub fn parent_mut(&mut self, ptr: &str) -> Option<(&mut M, String)> {
        let (parent, last) = ptr.rsplit_once('/')?;
        let mut node = self;
        for seg in parent.split('/').skip(1) {
            node = child_mut(node, seg)?;
        }
        Some((node, last.to_owned()))
    }

    pub fn get_mut(&mut self, ptr: &str) -> Option<&mut M> {
        let mut node = self;
        for seg in ptr.split('/').skip(1) {
            node = child_mut(node, seg)?;
        }
        Some(node)
    }
}

pub fn child_mut<'a>(node: &'a mut M, seg: &str) -> Option<&'a mut M> {
    let key = seg.replace("~1", "/").replace("~0", "~");
    match node {
        M::Arr(a) => a.get_mut(seg.parse::<usize>().ok()?),
        // A repeated key: its last value is the one read (`P014`), so the one to change.
        M::Obj(o) => o.iter_mut().rev().find(|(k, _)| *k == key).map(|(_, v)| v),
        _ => None,
    }
}

pub fn quote(s: &str) -> String {
    serde_json::to_string(s).expect("a string serialises")
}

/// A YAML double-quoted scalar: JSON's escapes, plus `\u` escapes for what YAML does not
/// allow unescaped (DEL, C1 controls, U+FFFE, U+FFFF).
pub fn quote_yaml(s: &str) -> String {
    let mut out = String::from('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() || matches!(c, '\u{feff}' | '\u{fffe}' | '\u{ffff}') => {
                out.push_str(&format!("\\u{:04x}", u32::from(c)));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `/loop/phases/3/id` -> `/loop/phases/*/id`.
pub fn pattern(ptr: &str) -> String {
    ptr.split('/')
        .map(|s| {
            if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
                "*"
            } else {
                s
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}
