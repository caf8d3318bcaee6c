//! Structural validation: a located tree against the JSON Schema generated from `model`.
//!
//! The schemas that `loopconv schema` publishes are the single source of truth for a
//! format's shape. This module interprets the subset of JSON Schema 2020-12 those schemas use
//! (`$ref`, `type`, `const`, `enum`, `pattern`, `minLength`, `maxLength`, `minimum`,
//! `minItems`, `minProperties`, `properties`, `required`, `additionalProperties`, `items`,
//! `allOf`, `anyOf`, `oneOf`, `not`) over the located tree, so that every problem is reported
//! (not only the first), with a stable code, the field's name and the key's or value's line
//! and column. The schemas' conditionals (`if`/`then`/`else`: retry needs `max_retries`,
//! VEAL needs a validator, ...) are rules of the format with their own `V` codes; they are
//! checked on the IR by `valid::refs`, so they hold for IR input too. It does not descend into a value of the wrong type, so
//! one mistake gives one diagnostic. A test checks that an independent validator (the
//! `jsonschema` crate) reaches the same verdict on every example.

use std::collections::{BTreeSet, HashMap};
use std::sync::{LazyLock, Mutex};

use regex::Regex;
use serde_json::Value as J;

use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::tree::{Document, Node, Value, escape_ptr};

/// The outcome of a shape check.
#[derive(Debug, Default)]
pub struct Verdict {
    /// The document has the schema's shape.
    pub ok: bool,
    /// Pointers of unknown keys. With them removed ([`crate::tree::Node::to_json_without`]),
    /// a document whose only problems are unknown keys and bad values still deserialises,
    /// so the semantic checks can run and report everything in one go.
    pub unknown: BTreeSet<String>,
    /// Whole numbers written as floats (`3.0`, `1e1`, YAML `3.`) where the schema wants an
    /// integer, with their integer value: JSON Schema and the Go SDK count them as integers,
    /// so the front end hands the model the integer ([`Verdict::integers_into`]).
    pub integers: Vec<(String, serde_json::Number)>,
}

impl Verdict {
    /// Replace, in `json` (the document as JSON), each whole float at an integer field by
    /// its integer.
    pub fn integers_into(&self, json: &mut J) {
        for (ptr, n) in &self.integers {
            if let Some(v) = json.pointer_mut(ptr) {
                *v = J::Number(n.clone());
            }
        }
    }
}

/// What a format's front end tells the shape check about its format.
#[derive(Debug, Clone, Copy, Default)]
pub struct Profile {
    /// Top-level keys that the schema requires but whose absence the front end reports
    /// itself (AgentPM's `kind`, a warning).
    pub optional_root_keys: &'static [&'static str],
    /// A diagnostic for an unknown top-level key (its name and pointer), when the format
    /// has a better one than "unknown field".
    pub unknown_root_key: Option<fn(&str, &str) -> Option<Diagnostic>>,
    /// The largest integer the format's reference runtime can hold, and who that is
    /// (multi-agent-spec: the Go SDK's `int`); `None`: the largest `u64`.
    pub max_integer: Option<(u64, &'static str)>,
}

/// Check `doc` against `schema`, pushing a diagnostic for each problem.
pub fn check(
    doc: &Document,
    schema: &'static J,
    profile: &Profile,
    diags: &mut Diagnostics,
) -> Verdict {
    let mut s = Shape {
        root: schema,
        doc,
        profile,
        diags,
        unknown: BTreeSet::new(),
        refs: Vec::new(),
        regexes: Vec::new(),
        integers: Vec::new(),
    };
    let ok = s.node(schema, &doc.root, "", true);
    Verdict {
        ok,
        unknown: s.unknown,
        integers: s.integers,
    }
}

struct Shape<'a> {
    root: &'static J,
    doc: &'a Document,
    profile: &'a Profile,
    refs: Vec<(&'static str, Option<&'static J>)>,
    regexes: Vec<(&'static str, Option<&'static Regex>)>,
    diags: &'a mut Diagnostics,
    unknown: BTreeSet<String>,
    integers: Vec<(String, serde_json::Number)>,
}

/// `loop.phases[1].id` from `/loop/phases/1/id`.
pub fn field_path(ptr: &str) -> String {
    let mut out = String::new();
    for seg in ptr.split('/').skip(1) {
        let seg = seg.replace("~1", "/").replace("~0", "~");
        if !seg.is_empty() && seg.bytes().all(|b| b.is_ascii_digit()) {
            out.push_str(&format!("[{seg}]"));
        } else {
            if !out.is_empty() {
                out.push('.');
            }
            out.push_str(&seg);
        }
    }
    if out.is_empty() {
        "the document".to_owned()
    } else {
        out
    }
}

fn quote(s: &str) -> String {
    let short: String = s.chars().take(80).collect();
    let more = if s.chars().count() > 80 { "…" } else { "" };
    format!("`{}{more}`", short.escape_debug())
}

/// Whether the schema's `type` admits integers.
fn wants_integer(t: Option<&J>) -> bool {
    match t {
        Some(J::String(s)) => s == "integer",
        Some(J::Array(a)) => a.iter().any(|t| t == "integer"),
        _ => false,
    }
}

/// A float with no fractional part (`3.0`, `1e1`, `-0.0`; also `1e308`, which is then out
/// of range).
fn is_whole(n: &serde_json::Number) -> bool {
    n.as_f64()
        .is_some_and(|f| f.is_finite() && f.fract() == 0.0)
}

/// The exact integer value of a number, when it is whole and within `i64::MIN..=u64::MAX`.
fn exact_integer(n: &serde_json::Number) -> Option<i128> {
    const TWO_63: f64 = 9_223_372_036_854_775_808.0;
    if let Some(u) = n.as_u64() {
        return Some(i128::from(u));
    }
    if let Some(i) = n.as_i64() {
        return Some(i128::from(i));
    }
    let f = n.as_f64()?;
    // `as` is exact here: `f` is whole and within range.
    (is_whole(n) && (-TWO_63..2.0 * TWO_63).contains(&f)).then_some(f as i128)
}

/// How YAML spells a non-finite float.
fn non_finite(f: f64) -> &'static str {
    if f.is_nan() {
        ".nan"
    } else if f > 0.0 {
        ".inf"
    } else {
        "-.inf"
    }
}

const YAML11_BOOLS: &[&str] = &[
    "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "on", "On", "ON", "off", "Off",
    "OFF",
];

/// A schema pattern compiled once per process. The patterns come from the generated
/// schemas, so there are a handful and keeping them for the process's lifetime is bounded.
fn compiled(pat: &'static str) -> Option<&'static Regex> {
    static CACHE: LazyLock<Mutex<HashMap<&'static str, Option<&'static Regex>>>> =
        LazyLock::new(|| Mutex::new(HashMap::new()));
    *CACHE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .entry(pat)
        .or_insert_with(|| Regex::new(pat).ok().map(|re| &*Box::leak(Box::new(re))))
}

impl Shape<'_> {
    fn emit(&mut self, mut d: Diagnostic, key: bool, report: bool) {
        if report {
            d.location.on_key |= key;
            self.diags.push(d);
        }
    }

    /// Whether `text` matches the schema pattern `pat` (`None` when the pattern does not
    /// compile). The schemas hold a handful of patterns, all `&'static` strings of the
    /// generated schema: each is compiled once per process (and kept for its lifetime), and
    /// found by its address in this check's small list (no hashing, allocation or cache
    /// set-up per value checked).
    fn matches(&mut self, pat: &'static str, text: &str) -> Option<bool> {
        let found = self.regexes.iter().find(|(p, _)| std::ptr::eq(*p, pat));
        let re = match found {
            Some((_, re)) => *re,
            None => {
                let re = compiled(pat);
                self.regexes.push((pat, re));
                re
            }
        };
        re.map(|re| re.is_match(text))
    }

    /// The schema a `$ref` points at, resolved once per check (by the reference's address).
    fn lookup(&mut self, r: &'static str) -> Option<&'static J> {
        if let Some((_, target)) = self.refs.iter().find(|(p, _)| std::ptr::eq(*p, r)) {
            return *target;
        }
        let target = r.strip_prefix('#').and_then(|path| self.root.pointer(path));
        self.refs.push((r, target));
        target
    }

    fn node(&mut self, schema: &'static J, node: &Node, ptr: &str, report: bool) -> bool {
        let schema = match schema.get("$ref").and_then(J::as_str) {
            Some(r) => match self.lookup(r) {
                Some(s) => s,
                None => return true,
            },
            None => schema,
        };
        let Some(obj) = schema.as_object() else {
            // `true` / `false` schemas.
            return schema.as_bool().unwrap_or(true);
        };
        if !self.number_kind_ok(obj, node, ptr, report) {
            return false;
        }
        let mut ok = self.value_ok(obj, node, ptr, report);
        if let Value::Array(items) = &node.value {
            ok &= self.array(obj, items, ptr, report);
        }
        if let Value::Object(members) = &node.value {
            ok &= self.object(obj, members, ptr, report);
        }
        ok & self.combinators(obj, node, ptr, report)
    }

    /// `type`, then the number rules that stop the check of a value: not finite (a
    /// pass-through value JSON cannot hold), or not an integer where one is wanted.
    fn number_kind_ok(
        &mut self,
        obj: &'static serde_json::Map<String, J>,
        node: &Node,
        ptr: &str,
        report: bool,
    ) -> bool {
        if let Some(t) = obj.get("type")
            && !self.type_ok(t, node, ptr, report)
        {
            return false;
        }
        if let Value::NonFinite(f) = node.value {
            let d = Diagnostic::new(
                Code::OutOfRange,
                format!(
                    "`{}` is {}, which no JSON number can hold",
                    field_path(ptr),
                    non_finite(f)
                ),
            )
            .with_help("write a finite number, or quote the value to make it a string")
            .at(ptr);
            self.emit(d, false, report);
            return false;
        }
        match &node.value {
            Value::Number(n) if wants_integer(obj.get("type")) => {
                self.integer(node, n, ptr, report)
            }
            _ => true,
        }
    }

    /// `const`, `enum`, the string rules and `minimum`.
    fn value_ok(
        &mut self,
        obj: &'static serde_json::Map<String, J>,
        node: &Node,
        ptr: &str,
        report: bool,
    ) -> bool {
        let mut ok = true;
        if let Some(c) = obj.get("const")
            && node.to_json() != *c
        {
            ok = false;
            let d = self.enum_diag(node, ptr, std::slice::from_ref(c));
            self.emit(d, false, report);
        }
        if let Some(J::Array(vals)) = obj.get("enum")
            && !vals.contains(&node.to_json())
        {
            ok = false;
            let d = self.enum_diag(node, ptr, vals);
            self.emit(d, false, report);
        }
        if let Value::String { text, .. } = &node.value {
            ok &= self.string(obj, text, ptr, report);
        }
        if let Value::Number(n) = &node.value
            && let Some(min) = obj.get("minimum").and_then(J::as_f64)
            && n.as_f64().is_some_and(|v| v < min)
        {
            ok = false;
            let d = Diagnostic::new(
                Code::OutOfRange,
                format!("`{}` must be at least {min}, found {n}", field_path(ptr)),
            )
            .at(ptr);
            self.emit(d, false, report);
        }
        ok
    }

    /// `minItems`, then every item against `items`.
    fn array(
        &mut self,
        obj: &'static serde_json::Map<String, J>,
        items: &[Node],
        ptr: &str,
        report: bool,
    ) -> bool {
        let mut ok = true;
        if let Some(min) = obj.get("minItems").and_then(J::as_u64)
            && (items.len() as u64) < min
        {
            ok = false;
            let d = Diagnostic::new(
                Code::EmptyCollection,
                format!(
                    "`{}` must have at least {min} item(s), found none",
                    field_path(ptr)
                ),
            )
            .at(ptr);
            self.emit(d, false, report);
        }
        if let Some(item_schema) = obj.get("items") {
            for (i, it) in items.iter().enumerate() {
                ok &= self.node(item_schema, it, &format!("{ptr}/{i}"), report);
            }
        }
        ok
    }

    /// `allOf`, `anyOf`, `oneOf` and `not`.
    fn combinators(
        &mut self,
        obj: &'static serde_json::Map<String, J>,
        node: &Node,
        ptr: &str,
        report: bool,
    ) -> bool {
        let mut ok = true;
        if let Some(J::Array(all)) = obj.get("allOf") {
            for s in all {
                ok &= self.node(s, node, ptr, report);
            }
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(J::Array(alts)) = obj.get(key) {
                let matches = alts
                    .iter()
                    .filter(|s| self.node(s, node, ptr, false))
                    .count();
                let good = if key == "anyOf" {
                    matches >= 1
                } else {
                    matches == 1
                };
                if !good {
                    ok = false;
                    let d = Diagnostic::new(
                        Code::WrongType,
                        format!(
                            "`{}` does not have any of the allowed forms",
                            field_path(ptr)
                        ),
                    )
                    .at(ptr);
                    self.emit(d, false, report);
                }
            }
        }
        if let Some(n) = obj.get("not")
            && self.node(n, node, ptr, false)
        {
            ok = false;
            let d = Diagnostic::new(
                Code::WrongType,
                format!("`{}` has a form that is not allowed", field_path(ptr)),
            )
            .at(ptr);
            self.emit(d, false, report);
        }
        ok
    }

    fn type_ok(&mut self, t: &J, node: &Node, ptr: &str, report: bool) -> bool {
        let types: Vec<&str> = match t {
            J::String(s) => vec![s.as_str()],
            J::Array(a) => a.iter().filter_map(J::as_str).collect(),
            _ => return true,
        };
        let ok = types.iter().any(|t| match (*t, &node.value) {
            ("object", Value::Object(_))
            | ("array", Value::Array(_))
            | ("string", Value::String { .. })
            | ("boolean", Value::Bool(_))
            | ("null", Value::Null) => true,
            ("number", Value::Number(_)) => true,
            ("integer", Value::Number(n)) => n.is_u64() || n.is_i64() || is_whole(n),
            _ => false,
        });
        if ok || !report {
            return ok;
        }
        let want = types
            .iter()
            .map(|t| match *t {
                "object" => "an object",
                "array" => "an array",
                "string" => "a string",
                "boolean" => "a boolean",
                "integer" => "an integer",
                "number" => "a number",
                "null" => "null",
                other => other,
            })
            .collect::<Vec<_>>()
            .join(" or ");
        let found = match &node.value {
            Value::Number(n) => format!("the number {n}"),
            Value::NonFinite(f) => format!("{} (not a finite number)", non_finite(*f)),
            Value::String { text, .. } => format!("the string {}", quote(text)),
            other => other.type_name().to_owned(),
        };
        let name = field_path(ptr);
        if let Value::String { text, plain: true } = &node.value
            && types.contains(&"boolean")
            && YAML11_BOOLS.contains(&text.as_str())
        {
            let lower = text.to_lowercase();
            let b = matches!(lower.as_str(), "y" | "yes" | "on");
            let d = Diagnostic::new(
                Code::Yaml11Boolean,
                format!("`{name}` is the string {} here, not a boolean", quote(text)),
            )
            .with_help(format!(
                "YAML 1.1 read `{text}` as {b}, YAML 1.2 reads it as a string; write `{b}`"
            ))
            .at(ptr);
            self.emit(d, false, true);
            return false;
        }
        // `.inf` where a number is wanted is a value out of range, not a wrong type.
        let numeric = types.iter().any(|t| matches!(*t, "integer" | "number"));
        let infinite = matches!(node.value, Value::NonFinite(f) if f.is_infinite());
        let mut d = Diagnostic::new(
            if numeric && infinite {
                Code::OutOfRange
            } else {
                Code::WrongType
            },
            if ptr.is_empty() {
                format!("the document must be {want}, found {found}")
            } else {
                format!("`{name}` must be {want}, found {found}")
            },
        )
        .at(ptr);
        if ptr == "/loop" && matches!(node.value, Value::String { .. }) {
            d = d.with_help(
                "in a loop manifest `loop` is the loop object itself; a string package reference belongs in an Agent manifest",
            );
        } else if ptr.is_empty() {
            d = d.with_help("a loop file holds one JSON object or one YAML mapping");
        } else if types.contains(&"string")
            && !matches!(node.value, Value::Object(_) | Value::Array(_))
        {
            d = d.with_help("quote the value to make it a string");
        }
        self.emit(d, false, true);
        false
    }

    /// Integer semantics: a whole number written as a float counts (and is recorded for
    /// the model); an integer beyond what the runtime can hold is out of range (`F008`).
    fn integer(&mut self, node: &Node, n: &serde_json::Number, ptr: &str, report: bool) -> bool {
        let (max, who) = self
            .profile
            .max_integer
            .unwrap_or((u64::MAX, "loopconv and the runtimes"));
        match exact_integer(n) {
            Some(v) if v <= i128::from(max) => {
                if !(n.is_u64() || n.is_i64()) && report {
                    let int = u64::try_from(v)
                        .map(serde_json::Number::from)
                        .or_else(|_| i64::try_from(v).map(serde_json::Number::from));
                    if let Ok(int) = int {
                        self.integers.push((ptr.to_owned(), int));
                    }
                }
                true
            }
            _ => {
                let written = self
                    .doc
                    .text
                    .get(node.span.0..node.span.1)
                    .map(str::trim)
                    .filter(|t| !t.is_empty())
                    .map_or_else(|| n.to_string(), str::to_owned);
                let d = Diagnostic::new(
                    Code::OutOfRange,
                    format!(
                        "`{}` is {written}, outside the integers {who} can hold (at most {max})",
                        field_path(ptr)
                    ),
                )
                .with_help(format!("use an integer from 1 to {max}"))
                .at(ptr);
                self.emit(d, false, report);
                false
            }
        }
    }

    fn enum_diag(&self, node: &Node, ptr: &str, allowed: &[J]) -> Diagnostic {
        let list = allowed
            .iter()
            .map(|v| match v {
                J::String(s) => format!("`{s}`"),
                other => format!("`{other}`"),
            })
            .collect::<Vec<_>>()
            .join(", ");
        let found = match &node.value {
            Value::String { text, .. } => quote(text),
            _ => format!("`{}`", node.to_json()),
        };
        let mut d = Diagnostic::new(
            Code::InvalidValue,
            format!("`{}` must be one of {list}, found {found}", field_path(ptr)),
        )
        .at(ptr);
        if let Value::String { text, .. } = &node.value
            && allowed
                .iter()
                .filter_map(J::as_str)
                .any(|a| a.eq_ignore_ascii_case(text))
        {
            d = d.with_help("values are case-sensitive");
        }
        d
    }

    fn string(
        &mut self,
        obj: &'static serde_json::Map<String, J>,
        text: &str,
        ptr: &str,
        report: bool,
    ) -> bool {
        let mut ok = true;
        let last = ptr.rsplit('/').next().unwrap_or("");
        let is_id = matches!(last, "id" | "entry_phase" | "entry");
        // Blank archetype, objective and outcome description are lint rules with their own
        // codes (V001, V002, V004), checked on the IR.
        if matches!(last, "archetype" | "objective")
            || (last == "description" && ptr.contains("/outcomes/"))
        {
            return true;
        }
        let len = text.chars().count() as u64;
        if let Some(min) = obj.get("minLength").and_then(J::as_u64)
            && len < min
        {
            ok = false;
            let d = Diagnostic::new(
                Code::EmptyString,
                format!("`{}` must not be empty", field_path(ptr)),
            )
            .at(ptr);
            self.emit(d, false, report);
            return ok;
        }
        if let Some(max) = obj.get("maxLength").and_then(J::as_u64)
            && len > max
        {
            ok = false;
            let d = Diagnostic::new(
                if is_id {
                    Code::InvalidId
                } else {
                    Code::InvalidName
                },
                format!(
                    "`{}` is {len} characters long, more than {max}",
                    field_path(ptr)
                ),
            )
            .at(ptr);
            self.emit(d, false, report);
        }
        if let Some(pat) = obj.get("pattern").and_then(J::as_str)
            && self.matches(pat, text) == Some(false)
        {
            ok = false;
            let (code, help) = if pat == crate::ir::pattern::VERSION {
                (
                    Code::InvalidVersion,
                    "use a semantic version such as `0.1.0` (no leading zeros, optional `-pre` and `+build`)",
                )
            } else if pat == crate::ir::pattern::STABLE_ID {
                (
                    Code::InvalidId,
                    "stable ids are lowercase kebab-case: start with a letter, then letters, digits and single hyphens, no trailing hyphen",
                )
            } else if is_id {
                (
                    Code::InvalidId,
                    "ids are lowercase kebab-case, starting with a letter",
                )
            } else {
                (
                    Code::InvalidName,
                    "names are lowercase kebab-case: start with a letter, then letters, digits and hyphens",
                )
            };
            let mut d = Diagnostic::new(
                code,
                format!(
                    "`{}` {} does not match the pattern `{pat}`",
                    field_path(ptr),
                    quote(text)
                ),
            )
            .with_help(help)
            .at(ptr);
            if text.contains("{{") {
                d = d.with_note("this looks like an unrendered template placeholder");
            }
            self.emit(d, false, report);
        }
        ok
    }

    fn object(
        &mut self,
        obj: &'static serde_json::Map<String, J>,
        members: &[crate::tree::Member],
        ptr: &str,
        report: bool,
    ) -> bool {
        let mut ok = true;
        let props = obj.get("properties").and_then(J::as_object);
        if let Some(J::Array(req)) = obj.get("required") {
            for r in req.iter().filter_map(J::as_str) {
                if members.iter().any(|m| m.key == r) {
                    continue;
                }
                if ptr.is_empty() && self.profile.optional_root_keys.contains(&r) {
                    continue;
                }
                ok = false;
                let what = if ptr.is_empty() {
                    "the document".to_owned()
                } else {
                    format!("`{}`", field_path(ptr))
                };
                let d = Diagnostic::new(
                    Code::MissingField,
                    format!("{what} is missing the required field `{r}`"),
                )
                .at(ptr);
                self.emit(d, true, report);
            }
        }
        let closed = obj.get("additionalProperties") == Some(&J::Bool(false));
        let extra = obj.get("additionalProperties").filter(|s| s.is_object());
        for m in members {
            let child = format!("{ptr}/{}", escape_ptr(&m.key));
            ok &= self.property_name(obj, m, &child, report);
            match props.and_then(|p| p.get(&m.key)) {
                Some(s) => ok &= self.node(s, &m.value, &child, report),
                None if extra.is_some() => {
                    if let Some(s) = extra {
                        ok &= self.node(s, &m.value, &child, report);
                    }
                }
                None if closed => {
                    ok = false;
                    if report {
                        self.unknown.insert(child.clone());
                    }
                    // A YAML non-string key is already reported by the parser (P012):
                    // one mistake, one diagnostic.
                    let non_string = m.non_string.is_some();
                    let mut d = self.unknown_key(&m.key, &child, ptr, props);
                    // Locate through the member itself: resolving the pointer scans the
                    // object's keys, which is quadratic for an object with many unknown keys.
                    d.location.pos = Some(self.doc.pos(m.key_span));
                    self.emit(d, true, report && !non_string);
                }
                None => {}
            }
        }
        if let Some(min) = obj.get("minProperties").and_then(J::as_u64)
            && (members.len() as u64) < min
        {
            ok = false;
            let d = Diagnostic::new(
                Code::EmptyCollection,
                format!(
                    "`{}` must have at least {min} key(s), found none",
                    field_path(ptr)
                ),
            )
            .with_help("omit the object to express no opinion, or set `read` and/or `write`")
            .at(ptr);
            self.emit(d, false, report);
        }
        ok
    }

    /// `propertyNames: {pattern}` (the environment's variable names): `F004` on the key.
    fn property_name(
        &mut self,
        obj: &'static serde_json::Map<String, J>,
        m: &crate::tree::Member,
        child: &str,
        report: bool,
    ) -> bool {
        let Some(pat) = obj
            .get("propertyNames")
            .and_then(|p| p.get("pattern"))
            .and_then(J::as_str)
        else {
            return true;
        };
        if self.matches(pat, &m.key) != Some(false) {
            return true;
        }
        let mut d = Diagnostic::new(
            Code::InvalidName,
            format!(
                "the name {} in `{}` does not match the pattern `{pat}`",
                quote(&m.key),
                field_path(child.rsplit_once('/').map_or("", |(p, _)| p))
            ),
        )
        .with_help(
            "environment variable names are upper case: a letter, then letters, digits and `_`",
        )
        .at(child);
        d.location.pos = Some(self.doc.pos(m.key_span));
        self.emit(d, true, report);
        false
    }

    fn unknown_key(
        &self,
        key: &str,
        child: &str,
        parent: &str,
        props: Option<&serde_json::Map<String, J>>,
    ) -> Diagnostic {
        // (YAML non-string keys are reported as P012 instead; see `Member::non_string`.)
        let shown = quote(key);
        let where_ = if parent.is_empty() {
            "at the top level".to_owned()
        } else {
            format!("in `{}`", field_path(parent))
        };
        if let Some(special) = self.profile.unknown_root_key.filter(|_| parent.is_empty())
            && let Some(d) = special(key, child)
        {
            return d;
        }
        if parent == "/loop" && matches!(key, "name" | "version") {
            // formats.md 1.1: `{"name": "@scope/pkg"}` is a package reference.
            return Diagnostic::new(
                Code::UnknownField,
                format!("unknown field {shown} {where_}: `loop` here is a package reference"),
            )
            .with_help(
                "in a loop manifest `loop` is the loop object itself (`entry_phase`, `phases`, `transitions`); a package reference `{\"name\": ...}` belongs in an Agent manifest",
            )
            .at(child);
        }
        let names: Vec<&str> = props
            .map(|p| p.keys().map(String::as_str).collect())
            .unwrap_or_default();
        // Ties go to the first name in byte order.
        let mut sorted = names.clone();
        sorted.sort_unstable();
        let best =
            super::refs::did_you_mean(key, sorted, |d, n| d <= 2.max(n.len() / 4) && d < n.len());
        let mut d = Diagnostic::new(
            Code::UnknownField,
            format!("unknown field {shown} {where_}"),
        )
        .at(child);
        d = match best {
            Some(help) => d.with_help(help),
            None => d.with_help(format!(
                "allowed fields here: {}",
                names
                    .iter()
                    .map(|n| format!("`{n}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        };
        d
    }
}
