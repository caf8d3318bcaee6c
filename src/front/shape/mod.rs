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

#[cfg(test)]
mod compile;
mod messages;
mod ptr;
mod rules;
#[rustfmt::skip]
mod tables;
#[cfg(test)]
mod tests;

use crate::diag::{Code, Diagnostic, Diagnostics, EditTarget, Rejection, Suggestion};
use crate::front::to_model::Edits;
use crate::text::count;
use crate::tree::{Document, Member, Node, Value};
use messages::{found_count, nearest_property, non_finite, quote, with_repair};
use ptr::Ptr;
use rules::{Additional, Id, Rules, Schema, Types};

/// The outcome of a shape check.
#[derive(Debug, Default)]
pub struct Verdict {
    /// The document has the schema's shape.
    pub ok: bool,
    /// How to deserialise the model from the tree ([`crate::front::to_model::from_node`]): the
    /// unknown keys left out, so that a document whose only problems are unknown keys and
    /// bad values still deserialises and the semantic checks can run and report everything
    /// in one go; and whole numbers written as floats (`3.0`, `1e1`, YAML `3.`) where the
    /// schema wants an integer read as that integer (JSON Schema and the Go SDK count them
    /// as integers).
    pub edits: Edits,
    /// A problem leaves no model to build without guessing (a required field missing or
    /// of the wrong type, an item of the wrong type).
    pub unreadable: bool,
}

/// What a format's front end tells the shape check about its format.
#[derive(Debug, Clone, Copy, Default)]
pub struct Profile {
    /// Top-level keys that the schema requires but whose absence the front end reports
    /// itself (AgentPM's `kind`, a warning).
    pub optional_root_keys: &'static [&'static str],
    /// What the format says of a key its schema does not allow (given the key, its
    /// pointer and the members of the object holding it), when it has something better to
    /// say than "unknown field".
    pub unknown_key: Option<UnknownKeyRule>,
    /// Every key [`Self::unknown_key`] describes is an `F001` error, as the shape check's
    /// own "unknown field" is (the rule explains none away and gives no other code): beyond
    /// the report's limit ([`Diagnostics::has_room`]) an unknown key is then counted as one
    /// without asking the rule, whose pointer and word tests cost more than reading the key.
    pub unknown_key_is_f001: bool,
    /// The largest integer the format's reference runtime can hold, and who that is
    /// (multi-agent-spec: the Go SDK's `int`); `None`: the largest `u64`.
    pub max_integer: Option<(u64, &'static str)>,
}

/// A format's rule for a key its schema does not allow: given the key, its pointer and the
/// members of the object holding it.
pub type UnknownKeyRule = fn(&str, &str, &[Member]) -> UnknownKey;

/// What a format's front end says of a key its schema does not allow.
#[derive(Debug)]
pub enum UnknownKey {
    /// Nothing special: the shape check's "unknown field".
    Unknown,
    /// This diagnostic instead.
    Instead(Box<Diagnostic>),
    /// Nothing: another key's diagnostic already explains it (one cause, one diagnostic).
    Explained,
}

/// Check `doc` against the schema of `format`'s model (`loopconv schema`), pushing a
/// diagnostic for each problem.
pub fn check(
    doc: &Document,
    format: crate::format::Format,
    profile: &Profile,
    diags: &mut Diagnostics,
) -> Verdict {
    let schema = tables::compiled(format);
    let mut s = ShapeCheck {
        schema,
        doc,
        profile,
        diags,
        edits: Edits::default(),
        fatal: 0,
        unknown_omitted: 0,
    };
    let ok = s.node(schema.root(), doc.root(), &Ptr::Root, true);
    s.diags.omit(Code::UnknownField, s.unknown_omitted);
    Verdict {
        ok,
        edits: s.edits,
        unreadable: s.fatal > 0,
    }
}

/// Problems after which a value cannot be read into the model.
fn is_fatal(code: Code) -> bool {
    matches!(
        code,
        Code::WrongType
            | Code::MissingField
            | Code::Yaml11Boolean
            | Code::InvalidValue
            | Code::OutOfRange
            | Code::NonStringKey
    )
}

/// What a problem the shape check reports rejects ([`Rejection`]), if anything: the value
/// it points at, when the value cannot be read as a name, a list or a field; the key, when
/// the format does not define it (with the field it misspells, when the report renames
/// it); the machine, when it uses an XState feature a loop cannot hold.
fn rejection(d: &Diagnostic) -> Option<Rejection> {
    match d.code {
        Code::InvalidId
        | Code::InvalidName
        | Code::EmptyString
        | Code::WrongType
        | Code::EmptyCollection
        | Code::Yaml11Boolean
        | Code::InvalidValue
        | Code::OutOfRange => Some(Rejection::Value),
        Code::XstateUnsupported => Some(Rejection::Machine),
        Code::UnknownField => Some(Rejection::UnknownKey {
            meant: match d.suggestions.first() {
                Some(Suggestion::Replace { target, with }) if target.key => Some(with.clone()),
                _ => None,
            },
        }),
        _ => None,
    }
}

/// One run of the shape check over a document: what it reads and what it collects.
struct ShapeCheck<'a> {
    schema: &'static Schema,
    doc: &'a Document,
    profile: &'a Profile,
    diags: &'a mut Diagnostics,
    edits: Edits,
    /// The problems reported so far after which a value cannot be read ([`is_fatal`]),
    /// but for those of optional fields left out.
    fatal: usize,
    /// Unknown keys beyond the report's limit: counted, not described, and left out of the
    /// report at the end in one go (describing each, and the report's summary after each,
    /// was 26,000 instructions a key: 3 s for a 10 MB object of unknown keys).
    unknown_omitted: usize,
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

/// Whether `node` equals the schema value `v` (`const`, `enum`): the schemas' values are
/// strings.
fn same(node: &Node, v: &str) -> bool {
    matches!(&node.value, Value::String(text) if text.as_str() == v)
}

impl ShapeCheck<'_> {
    fn emit(&mut self, mut d: Diagnostic, key: bool, report: bool) {
        if report {
            d.location.on_key |= key;
            self.fatal += usize::from(is_fatal(d.code));
            match rejection(&d) {
                Some(what) => self.diags.reject(d, what),
                None => self.diags.push(d),
            }
        }
    }

    /// Check `node` against the rules with index `id`.
    fn node_at(&mut self, id: Id, node: &Node, ptr: &Ptr<'_>, report: bool) -> bool {
        self.node(self.schema.get(id), node, ptr, report)
    }

    fn node(&mut self, obj: &'static Rules, node: &Node, ptr: &Ptr<'_>, report: bool) -> bool {
        if let Some(b) = obj.boolean {
            // `true` / `false` schemas.
            return b;
        }
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
        obj: &'static Rules,
        node: &Node,
        ptr: &Ptr<'_>,
        report: bool,
    ) -> bool {
        if let Some(t) = obj.types
            && !self.type_ok(t, obj.type_set, node, ptr, report)
        {
            return false;
        }
        if let Value::NonFinite(f) = node.value {
            let d = Diagnostic::new(
                Code::OutOfRange,
                format!(
                    "`{}` is {}, which no JSON number can hold",
                    ptr.field(),
                    non_finite(f)
                ),
            )
            .with_help("write a finite number, or quote the value to make it a string")
            .at(ptr.to_string());
            self.emit(d, false, report);
            return false;
        }
        match &node.value {
            Value::Number(n) if obj.wants_integer() => self.integer(node, n, ptr, report),
            _ => true,
        }
    }

    /// `const`, `enum`, the string rules and `minimum`.
    fn value_ok(&mut self, obj: &'static Rules, node: &Node, ptr: &Ptr<'_>, report: bool) -> bool {
        let mut ok = true;
        if let Some(c) = obj.constant
            && !same(node, c)
        {
            ok = false;
            let d = self.enum_diag(node, ptr, &[c]);
            self.emit(d, false, report);
        }
        if let Some(vals) = obj.enumeration
            && !vals.iter().any(|v| same(node, v))
        {
            ok = false;
            let d = self.enum_diag(node, ptr, vals);
            self.emit(d, false, report);
        }
        if let Value::String(text) = &node.value {
            ok &= self.string(obj, text, ptr, report);
        }
        if let Value::Number(n) = &node.value
            && let Some(min) = obj.minimum
            && n.as_f64().is_some_and(|v| v < min)
        {
            ok = false;
            let d = Diagnostic::new(
                Code::OutOfRange,
                format!(
                    "`{}` must be at least {min}, found {}",
                    ptr.field(),
                    crate::diag::cut(&n.to_string())
                ),
            )
            .at(ptr.to_string());
            self.emit(d, false, report);
        }
        ok
    }

    /// `minItems`, then every item against `items`.
    fn array(&mut self, obj: &'static Rules, items: &[Node], ptr: &Ptr<'_>, report: bool) -> bool {
        let mut ok = true;
        if let Some(min) = obj.min_items
            && (items.len() as u64) < min
        {
            ok = false;
            let d = Diagnostic::new(
                Code::EmptyCollection,
                format!(
                    "`{}` must have at least {}, found {}",
                    ptr.field(),
                    count(usize::try_from(min).unwrap_or(usize::MAX), "item", "items"),
                    found_count(items.len())
                ),
            )
            .at(ptr.to_string());
            self.emit(d, false, report);
        }
        if let Some(item_schema) = obj.items {
            for (i, it) in items.iter().enumerate() {
                ok &= self.node_at(item_schema, it, &ptr.index(i), report);
            }
        }
        ok
    }

    /// `allOf`, `anyOf`, `oneOf` and `not`.
    fn combinators(
        &mut self,
        obj: &'static Rules,
        node: &Node,
        ptr: &Ptr<'_>,
        report: bool,
    ) -> bool {
        // Most schema objects have none: the loop below is not set up for every value.
        if obj.all_of.is_empty()
            && obj.any_of.is_empty()
            && obj.one_of.is_empty()
            && obj.not.is_none()
        {
            return true;
        }
        let mut ok = true;
        for s in obj.all_of {
            ok &= self.node_at(*s, node, ptr, report);
        }
        for (any, alts) in [(true, obj.any_of), (false, obj.one_of)] {
            if !alts.is_empty() {
                let matches = alts
                    .iter()
                    .filter(|s| self.node_at(**s, node, ptr, false))
                    .count();
                let good = if any { matches >= 1 } else { matches == 1 };
                if !good
                    && matches == 0
                    && let Some(only) = self.only_form_of_its_type(alts, node)
                {
                    // One form takes a value of this type: its own diagnostics say more
                    // than "none of the forms".
                    ok &= self.node_at(only, node, ptr, report);
                } else if !good {
                    ok = false;
                    let d = Diagnostic::new(
                        Code::WrongType,
                        format!("`{}` does not have any of the allowed forms", ptr.field()),
                    )
                    .at(ptr.to_string());
                    self.emit(d, false, report);
                }
            }
        }
        if let Some(n) = obj.not
            && self.node_at(n, node, ptr, false)
        {
            ok = false;
            let d = Diagnostic::new(
                Code::WrongType,
                format!("`{}` has a form that is not allowed", ptr.field()),
            )
            .at(ptr.to_string());
            self.emit(d, false, report);
        }
        ok
    }

    /// The one alternative whose `type` takes `node`'s type, if exactly one does.
    fn only_form_of_its_type(&self, alts: &[Id], node: &Node) -> Option<Id> {
        let mut of_type = alts.iter().filter(|s| {
            let rules = self.schema.get(**s);
            rules.types.is_some() && rules.type_set.admits(&node.value)
        });
        match (of_type.next(), of_type.next()) {
            (Some(only), None) => Some(*only),
            _ => None,
        }
    }

    fn type_ok(
        &mut self,
        types: &[&str],
        set: Types,
        node: &Node,
        ptr: &Ptr<'_>,
        report: bool,
    ) -> bool {
        let ok = set.admits(&node.value);
        if ok || !report {
            return ok;
        }
        self.wrong_type(types, set, node, ptr)
    }

    /// Integer semantics: a whole number written as a float counts (and is recorded for
    /// the model); an integer beyond what the runtime can hold is out of range (`F008`).
    fn integer(
        &mut self,
        node: &Node,
        n: &serde_json::Number,
        ptr: &Ptr<'_>,
        report: bool,
    ) -> bool {
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
                        self.edits.replace_number(node, int);
                    }
                }
                true
            }
            _ => {
                let written = self
                    .doc
                    .text
                    .get(node.span.start()..node.span.end())
                    .map(str::trim)
                    .filter(|t| !t.is_empty())
                    .map_or_else(|| n.to_string(), str::to_owned);
                let d = Diagnostic::new(
                    Code::OutOfRange,
                    format!(
                        "`{}` is {written}, outside the integers {who} can hold (at most {max})",
                        ptr.field()
                    ),
                )
                .with_help(format!("use an integer from 1 to {max}"))
                .at(ptr.to_string());
                self.emit(d, false, report);
                false
            }
        }
    }

    fn string(&mut self, obj: &'static Rules, text: &str, ptr: &Ptr<'_>, report: bool) -> bool {
        let mut ok = true;
        let last = ptr.last_key().unwrap_or("");
        let is_id = matches!(last, "id" | "entry_phase" | "entry");
        // Blank archetype, objective and outcome description are lint rules with their own
        // codes (V001, V002, V004), checked on the IR.
        if matches!(last, "archetype" | "objective")
            || (last == "description" && ptr.below_key("outcomes"))
        {
            return true;
        }
        // A destination (`to`, `on_reject`) is a reference: validation judges it against
        // the declared phases and the terminals and names the closest (`$fail`: did you
        // mean `$abort`?), where the pattern could only say it does not match.
        if obj.pattern == Some(rules::TextPattern::Destination) {
            return true;
        }
        if is_id && obj.pattern == Some(rules::TextPattern::KebabSingleHyphens) {
            return self.stable_id(obj, text, ptr, report);
        }
        if let Some(min) = obj.min_length
            && fewer_chars(text, min)
        {
            ok = false;
            let d = Diagnostic::new(
                Code::EmptyString,
                format!("`{}` must not be empty", ptr.field()),
            )
            .at(ptr.to_string());
            self.emit(d, false, report);
            return ok;
        }
        if let Some(max) = obj.max_length
            && more_chars(text, max)
        {
            let len = text.chars().count();
            ok = false;
            let d = Diagnostic::new(
                if is_id {
                    Code::InvalidId
                } else {
                    Code::InvalidName
                },
                format!(
                    "`{}` is {len} characters long, more than {max}",
                    ptr.field()
                ),
            )
            .at(ptr.to_string());
            self.emit(d, false, report);
        }
        if let Some(pat) = obj.pattern
            && !pat.matches(text)
        {
            ok = false;
            let (code, help) = if pat == rules::TextPattern::SemVer {
                (
                    Code::InvalidVersion,
                    "use a semantic version such as `0.1.0` (no leading zeros, optional `-pre` and `+build`)",
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
                    "`{}` {} does not match the pattern `{}`",
                    ptr.field(),
                    quote(text),
                    pat.source()
                ),
            )
            .with_help(help)
            .at(ptr.to_string());
            if text.contains("{{") {
                d = d.with_note("this looks like an unrendered template placeholder");
            }
            if code == Code::InvalidId {
                d = with_repair(d, text, ptr);
            }
            self.emit(d, false, report);
        }
        ok
    }

    /// A stable id (formats.md 1.4: phase, outcome and checkpoint ids, `entry_phase`): one
    /// rule, the documents' pattern, which holds the length limit too, so one diagnostic
    /// (`F005`, or `F014` when empty) whatever is wrong with it.
    fn stable_id(&mut self, obj: &Rules, text: &str, ptr: &Ptr<'_>, report: bool) -> bool {
        let max = obj.max_length.unwrap_or(64);
        let matches = obj.pattern.is_none_or(|p| p.matches(text));
        if matches && !more_chars(text, max) {
            return true;
        }
        let len = text.chars().count();
        let field = ptr.field();
        let d = if len == 0 && obj.min_length.is_some() {
            Diagnostic::new(Code::EmptyString, format!("`{field}` must not be empty"))
        } else if len == 0 {
            Diagnostic::new(
                Code::InvalidId,
                format!("`{field}` is empty, not a stable id"),
            )
        } else if TERMINALS.contains(&text) {
            let what = if ptr.last_key() == Some("id") {
                "the name of a terminal, which an id cannot be"
            } else {
                "a terminal, where a run ends, not a phase"
            };
            Diagnostic::new(Code::InvalidId, format!("`{field}` `{text}` is {what}"))
                .with_help("a run starts in a declared phase and ends at a terminal: name a phase")
        } else if matches {
            Diagnostic::new(
                Code::InvalidId,
                format!("`{field}` is {len} characters long; a stable id has at most {max}"),
            )
        } else {
            let d = Diagnostic::new(
                Code::InvalidId,
                format!("`{field}` {} is not a stable id", quote(text)),
            );
            with_repair(d, text, ptr)
        };
        let d = if d.code == Code::EmptyString || TERMINALS.contains(&text) {
            d
        } else {
            d.with_note(format!(
                "a stable id matches `{}`: 1 to {max} characters, a lowercase letter, then lowercase letters, digits and single hyphens, not ending in a hyphen",
                crate::ir::id_pattern::STABLE_ID_DOCUMENTED
            ))
        };
        let d = if text.contains("{{") {
            d.with_note("this looks like an unrendered template placeholder")
        } else {
            d
        };
        self.emit(d.at(ptr.to_string()), false, report);
        false
    }

    fn object(
        &mut self,
        obj: &'static Rules,
        members: &[Member],
        ptr: &Ptr<'_>,
        report: bool,
    ) -> bool {
        let (mut ok, misspelled) = self.required(obj, members, ptr, report);
        let shadowed = if self.doc.may_repeat_keys() {
            shadowed_members(members)
        } else {
            Vec::new()
        };
        for (i, m) in members.iter().enumerate() {
            if shadowed.binary_search(&i).is_ok() {
                // A key given twice (`P014`): only its last value is read, by loopconv as by
                // serde_json, Go and Python, so only the last is checked.
                continue;
            }
            let child = ptr.key(&m.key);
            ok &= self.property_name(obj, m, &child, report);
            match (obj.property(&m.key), obj.additional) {
                (Some(s), _) if report => ok &= self.property(obj, s, m, &child),
                (Some(s), _) | (None, Additional::Schema(s)) => {
                    ok &= self.node_at(s, &m.value, &child, report);
                }
                (None, Additional::Closed) if misspelled.contains(&i) => {
                    // Reported with the required field it misspells (`F002`).
                    ok = false;
                    if report {
                        self.edits.skip(&m.value);
                    }
                }
                (None, Additional::Closed) => {
                    ok = false;
                    self.unknown(obj, m, members, &child, report);
                }
                (None, Additional::Open) => {}
            }
        }
        if let Some(min) = obj.min_properties
            && (members.len() as u64) < min
        {
            ok = false;
            let d = Diagnostic::new(
                Code::EmptyCollection,
                format!(
                    "`{}` must have at least {}, found {}",
                    ptr.field(),
                    count(usize::try_from(min).unwrap_or(usize::MAX), "key", "keys"),
                    found_count(members.len())
                ),
            )
            .with_help("omit the object to express no opinion, or set `read` and/or `write`")
            .at(ptr.to_string());
            self.emit(d, false, report);
        }
        ok
    }

    /// The member `m` of `obj`, a property of schema `s`. An optional one that holds a
    /// scalar that cannot be read is left out of the model, so that the rest is still read
    /// and checked (looked at only once it failed: most members do not).
    fn property(&mut self, obj: &Rules, s: Id, m: &Member, child: &Ptr<'_>) -> bool {
        let fatal = self.fatal;
        let ok = self.node_at(s, &m.value, child, true);
        if self.fatal > fatal
            && !obj.required.iter().any(|r| r.is(&m.key))
            && self.schema.admits_only_scalars(s)
        {
            self.fatal = fatal;
            self.edits.skip(&m.value);
        }
        ok
    }

    /// `required`: a missing field is reported on the object's key, or on the unknown key
    /// that misspells it (one mistake, one diagnostic: not also `F001` for that key, whose
    /// index is returned).
    fn required(
        &mut self,
        obj: &Rules,
        members: &[Member],
        ptr: &Ptr<'_>,
        report: bool,
    ) -> (bool, Vec<usize>) {
        let mut ok = true;
        let mut misspelled = Vec::new();
        for r in obj.required {
            if members.iter().any(|m| r.is(&m.key)) {
                continue;
            }
            let r = r.text;
            if ptr.is_root() && self.profile.optional_root_keys.contains(&r) {
                continue;
            }
            ok = false;
            let what = if ptr.is_root() {
                "the document".to_owned()
            } else {
                format!("`{}`", ptr.field())
            };
            let d = Diagnostic::new(
                Code::MissingField,
                format!("{what} is missing the required field `{r}`"),
            );
            match self.misspelling_of(r, obj, members, ptr, &misspelled) {
                Some(i) => {
                    misspelled.push(i);
                    let d = self.misspelled_required(d, r, &members[i], ptr);
                    self.emit(d, true, report);
                }
                None => self.emit(d.at(ptr.to_string()), true, report),
            }
        }
        (ok, misspelled)
    }

    /// The member whose unknown key is, most likely, the required field `r` misspelled: the
    /// first whose closest allowed name is `r` (and that is not already taken for another).
    fn misspelling_of(
        &self,
        r: &str,
        obj: &Rules,
        members: &[Member],
        ptr: &Ptr<'_>,
        taken: &[usize],
    ) -> Option<usize> {
        if !matches!(obj.additional, Additional::Closed) {
            return None;
        }
        members.iter().enumerate().position(|(i, m)| {
            !taken.contains(&i)
                && obj.property(&m.key).is_none()
                && self.is_plain_unknown(m, members, &ptr.key(&m.key))
                && nearest_property(&m.key, obj, members) == Some(r)
        })
    }

    /// Whether the format's own hook has nothing to say about the unknown key of `m` (a
    /// key it explains otherwise is not a misspelling).
    fn is_plain_unknown(&self, m: &Member, members: &[Member], child: &Ptr<'_>) -> bool {
        let special = self.profile.unknown_key.map_or(UnknownKey::Unknown, |f| {
            f(&m.key, &child.to_string(), members)
        });
        matches!(special, UnknownKey::Unknown) && !is_package_reference(&m.key, &child.parent())
    }

    /// A key the closed object does not allow: left out of the model, and reported.
    fn unknown(
        &mut self,
        obj: &Rules,
        m: &Member,
        siblings: &[Member],
        child: &Ptr<'_>,
        report: bool,
    ) {
        if report {
            self.edits.skip(&m.value);
        }
        // A YAML non-string key is already reported by the parser (P012): one mistake,
        // one diagnostic.
        let reported = report && self.doc.non_string_key(m.key_span).is_none();
        // Beyond the report's limit, a key whose diagnostic is an `F001` whatever the
        // format's rule says is only counted: no pointer is written and no rule asked.
        if !self.diags.has_room()
            && (self.profile.unknown_key.is_none() || self.profile.unknown_key_is_f001)
        {
            self.unknown_omitted += usize::from(reported);
            return;
        }
        let special = self.profile.unknown_key.map_or(UnknownKey::Unknown, |f| {
            f(&m.key, &child.to_string(), siblings)
        });
        let mut d = match special {
            UnknownKey::Explained => return,
            UnknownKey::Instead(d) => *d,
            UnknownKey::Unknown if !self.diags.has_room() => {
                self.unknown_omitted += usize::from(reported);
                return;
            }
            UnknownKey::Unknown => {
                self.unknown_key(&m.key, &child.to_string(), &child.parent(), obj, siblings)
            }
        };
        self.locate_on_key(&mut d, m);
        self.emit(d, true, reported);
    }

    /// Whether the scalar `node` is written other than plain: quoted, a block scalar or
    /// tagged (`"yes"`, `>-` then `yes`, `!!str yes`: a string in YAML 1.1 too).
    fn not_plain(&self, node: &Node) -> bool {
        let text = &self.doc.text;
        if matches!(text.as_bytes().get(node.span.start()), Some(b'"' | b'\'')) {
            return true;
        }
        // A block scalar's or a tagged scalar's span starts at its text: the indicator or
        // the tag is the word before it.
        let before = text.get(..node.span.start()).unwrap_or_default();
        let word = before.split_whitespace().next_back().unwrap_or_default();
        let block = word.starts_with(['|', '>'])
            && word[1..]
                .chars()
                .all(|c| matches!(c, '-' | '+' | '1'..='9'));
        block || word.starts_with('!')
    }

    /// Put `d` and its suggestions' targets on the key of `m`, located through the member
    /// itself: resolving the pointer scans the object's keys, which is quadratic for an
    /// object with many unknown keys.
    fn locate_on_key(&self, d: &mut Diagnostic, m: &Member) {
        // A diagnostic beyond the report's limit is only counted: not located (a column
        // counts the characters before it on its line, and on one minified line the
        // columns of 87,000 unknown keys took 26 s).
        if !self.diags.has_room() {
            return;
        }
        let (pos, end) = self.doc.span_ends(m.key_span);
        d.location.pos = Some(pos);
        for t in d.suggestions.iter_mut().flat_map(Suggestion::targets_mut) {
            (t.pos, t.end) = (Some(pos), Some(end));
        }
    }

    /// `propertyNames: {pattern}` (the environment's variable names): `F004` on the key.
    fn property_name(&mut self, obj: &Rules, m: &Member, child: &Ptr<'_>, report: bool) -> bool {
        let Some(pat) = obj.property_names else {
            return true;
        };
        if pat.matches(&m.key) {
            return true;
        }
        let mut d = Diagnostic::new(
            Code::InvalidName,
            format!(
                "the name {} in `{}` does not match the pattern `{}`",
                quote(&m.key),
                child.parent().field(),
                pat.source()
            ),
        )
        .with_help(
            "environment variable names are upper case: a letter, then letters, digits and `_`",
        )
        .at(child.to_string());
        d.location.pos = Some(self.doc.pos(m.key_span));
        self.emit(d, true, report);
        false
    }

    fn unknown_key(
        &self,
        key: &str,
        child: &str,
        parent: &Ptr<'_>,
        obj: &Rules,
        siblings: &[Member],
    ) -> Diagnostic {
        // (YAML non-string keys are reported as P012 instead; see `Document::non_string_key`.)
        let shown = quote(key);
        let where_ = if parent.is_root() {
            "at the top level".to_owned()
        } else {
            format!("in `{}`", parent.field())
        };
        if is_package_reference(key, parent) {
            return Diagnostic::new(
                Code::UnknownField,
                format!("unknown field {shown} {where_}: `loop` here is a package reference"),
            )
            .with_help(
                "in a loop manifest `loop` is the loop object itself (`entry_phase`, `phases`, `transitions`); a package reference `{\"name\": ...}` belongs in an Agent manifest",
            )
            .at(child);
        }
        let names: Vec<&str> = obj
            .properties
            .unwrap_or_default()
            .iter()
            .map(|(k, _)| k.text)
            .collect();
        let best = nearest_property(key, obj, siblings);
        let mut d = Diagnostic::new(
            Code::UnknownField,
            format!("unknown field {shown} {where_}"),
        )
        .at(child);
        d = match best {
            Some(name) => d.with_suggestion(Suggestion::Replace {
                target: EditTarget::key(child),
                with: name.to_owned(),
            }),
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

/// Whether the unknown `key` in the object at `parent` is a package reference's (`name` and
/// `version` in `loop`: formats.md 1.1, `{"name": "@scope/pkg"}`).
fn is_package_reference(key: &str, parent: &Ptr<'_>) -> bool {
    parent.is_top_key("loop") && matches!(key, "name" | "version")
}

/// The terminals' names (targets, never ids).
const TERMINALS: &[&str] = &["$end", "$abort", "$handoff"];

/// The indices of the members whose key is given again later in the object (sorted):
/// linear in the object's size, whatever it holds.
fn shadowed_members(members: &[Member]) -> Vec<usize> {
    const SCAN: usize = 16;
    if members.len() <= SCAN {
        return (0..members.len())
            .filter(|&i| members[i + 1..].iter().any(|n| n.key == members[i].key))
            .collect();
    }
    let mut last: foldhash::HashMap<&str, usize> =
        foldhash::HashMap::with_capacity_and_hasher(members.len(), Default::default());
    for (i, m) in members.iter().enumerate() {
        last.insert(&m.key, i);
    }
    (0..members.len())
        .filter(|&i| last.get(&*members[i].key) != Some(&i))
        .collect()
}

/// Whether `text` has fewer than `min` characters. Counted only when its length in bytes
/// leaves it open (a character is 1 to 4 bytes): counting every string's characters,
/// ids of up to 64 characters among them, was 4 % of checking a 10,000-phase loop of
/// long ids (26 M of 612 M instructions, callgrind; issue 50).
fn fewer_chars(text: &str, min: u64) -> bool {
    let bytes = text.len() as u64;
    if bytes < min {
        return true;
    }
    if bytes >= min.saturating_mul(4) {
        return false;
    }
    (text.chars().count() as u64) < min
}

/// Whether `text` has more than `max` characters (counted only when its length in bytes
/// leaves it open, as [`fewer_chars`]).
fn more_chars(text: &str, max: u64) -> bool {
    text.len() as u64 > max && text.chars().count() as u64 > max
}

#[cfg(test)]
mod char_count_tests {
    use super::{fewer_chars, more_chars};

    /// The byte-length shortcuts give the answer of counting the characters, for texts of
    /// 1- to 4-byte characters around the bounds.
    #[test]
    fn shortcuts_agree_with_counting() {
        for unit in ["a", "é", "日", "🚀"] {
            for n in 0..12 {
                let text = unit.repeat(n);
                let chars = text.chars().count() as u64;
                for bound in 0..12 {
                    assert_eq!(
                        fewer_chars(&text, bound),
                        chars < bound,
                        "{text:?} < {bound}"
                    );
                    assert_eq!(
                        more_chars(&text, bound),
                        chars > bound,
                        "{text:?} > {bound}"
                    );
                }
            }
        }
    }
}
