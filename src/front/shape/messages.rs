//! The shape check's messages: what a wrong type, value or key is told, and the fixes
//! proposed; the traversal that finds them is in `mod.rs`.

use super::ShapeCheck;
use super::ptr::Ptr;
use super::rules::{Rules, Types};
use crate::diag::{Code, Diagnostic, EditTarget, Suggestion};
use crate::tree::{Member, Node, Syntax, Value};

/// A user's text in a message: escaped, cut to [`crate::diag::QUOTED_CHARS`] with its
/// full length ([`crate::diag::quote`]).
pub(super) fn quote(s: &str) -> String {
    let cut = crate::diag::cut(s);
    match cut {
        std::borrow::Cow::Borrowed(s) => format!("`{}`", s.escape_debug()),
        std::borrow::Cow::Owned(_) => {
            let head: String = s.chars().take(crate::diag::QUOTED_CHARS).collect();
            let (_, len) = cut.rsplit_once("… (").unwrap_or_default();
            format!("`{}…` ({len}", head.escape_debug())
        }
    }
}

/// The string `text` written without its quotes, when that is a value of the types `set`
/// (`"true"` where a boolean is wanted, `"3"` where an integer is).
fn unquoted_fits(text: &str, set: Types) -> Option<String> {
    let bare = text.trim();
    let value = match bare {
        "true" => Value::Bool(true),
        "false" => Value::Bool(false),
        _ => Value::Number(serde_json::from_str::<serde_json::Number>(bare).ok()?),
    };
    set.admits(&value).then(|| bare.to_owned())
}

/// How YAML spells a non-finite float.
pub(super) fn non_finite(f: f64) -> &'static str {
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

/// The boolean YAML 1.1 reads the word `text` as (`yes` is true), when it is one.
fn yaml11_boolean(text: &str) -> Option<bool> {
    YAML11_BOOLS
        .contains(&text)
        .then(|| matches!(text.to_lowercase().as_str(), "y" | "yes" | "on"))
}

/// The allowed name of `obj` that the unknown `key` most likely misspells (the "did you
/// mean" of `F001`), among those its object `members` do not give already (renaming `tp`
/// to a `to` that is there would give the key twice). Ties go to the first name in byte
/// order.
pub(super) fn nearest_property(key: &str, obj: &Rules, members: &[Member]) -> Option<&'static str> {
    let mut sorted: Vec<&'static str> = (obj.properties.unwrap_or_default().iter())
        .map(|(k, _)| k.text)
        .collect();
    sorted.sort_unstable();
    let near = |names: &[&'static str]| {
        crate::text::did_you_mean::closest(key, names.iter().copied(), |d, n| {
            d <= 2.max(n.len() / 4) && d < n.len()
        })
    };
    // The members are looked at only when a name is near: most unknown keys are not.
    let given = |name: &str| members.iter().any(|m| m.key == *name);
    match near(&sorted) {
        Some(name) if given(name) => {
            sorted.retain(|n| !given(n));
            near(&sorted)
        }
        other => other,
    }
}

/// Propose the valid id an invalid one most likely means (`Approve_Merge` ->
/// `approve-merge`), when there is one.
pub(super) fn with_repair(d: Diagnostic, text: &str, ptr: &Ptr<'_>) -> Diagnostic {
    match crate::ir::id_pattern::repaired_id(text) {
        Some(to) => {
            // The help line becomes the fix's: the advice it replaces stays as a note.
            let mut d = d;
            if let Some(help) = d.help.take() {
                d.notes.push(help);
            }
            d.with_suggestion(Suggestion::Set {
                target: EditTarget::value(ptr.to_string()),
                to,
            })
        }
        None => d,
    }
}

/// The expected form of a value of the wrong type that people often write another way
/// (checks as a mapping, an outcome or a port as a bare string, a mission as a list), as a
/// short example in the file's syntax; `None` for any other field.
fn expected_form(ptr: &Ptr<'_>, yaml: bool) -> Option<String> {
    // The list a value is (`checks`) or an item of (`checks[0]`).
    let (list, item) = match (ptr.last_key(), ptr.parent().last_key()) {
        (Some(key), _) => (key, false),
        (None, Some(key)) if !ptr.is_root() => (key, true),
        _ => return None,
    };
    let pick = |y: &str, j: &str| if yaml { y.to_owned() } else { j.to_owned() };
    let (what, one) = match list {
        "checks" => (
            "a check is a mapping with an `id` (and a `type` with what it runs), in a list",
            pick(
                "{id: tests, type: command, command: cargo test}",
                r#"{"id": "tests", "type": "command", "command": "cargo test"}"#,
            ),
        ),
        "outcomes" => (
            "an outcome is a mapping with an `id` and a `description`, in a list",
            pick(
                "{id: done, description: The work is finished.}",
                r#"{"id": "done", "description": "The work is finished."}"#,
            ),
        ),
        "inputs" | "outputs" => (
            "a port is a mapping with a `name` (and optionally a `type`), in a list",
            pick(
                "{name: report, type: file}",
                r#"{"name": "report", "type": "file"}"#,
            ),
        ),
        "mission" if !item => {
            return Some(if yaml {
                "a mission is one string; for several lines use a block scalar: `mission: |` then the lines indented below it".to_owned()
            } else {
                r#"a mission is one string: `"mission": "Add the feature and keep the tests green."` (join the parts, with `\n` between lines)"#.to_owned()
            });
        }
        _ => return None,
    };
    let field = if yaml {
        format!("{list}: [{one}]")
    } else {
        format!("\"{list}\": [{one}]")
    };
    let what = if yaml {
        what.to_owned()
    } else {
        what.replace("a mapping", "an object")
    };
    Some(if item {
        let dash = if yaml { "- " } else { "" };
        format!("{what}: `{dash}{one}` (the whole field: `{field}`)")
    } else {
        format!("{what}: `{field}`")
    })
}

/// `none`, or the number found.
pub(super) fn found_count(n: usize) -> String {
    if n == 0 {
        "none".to_owned()
    } else {
        n.to_string()
    }
}

impl ShapeCheck<'_> {
    /// Report `node`, which is none of `types`: out of line, so that the check of a value
    /// of the right type stays small enough to be inlined into [`Self::node`] (with it
    /// inline, checking a 10,000-phase loop took 1.6 % more instructions).
    #[cold]
    #[inline(never)]
    pub(super) fn wrong_type(
        &mut self,
        types: &[&str],
        set: Types,
        node: &Node,
        ptr: &Ptr<'_>,
    ) -> bool {
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
            Value::String(text) => format!("the string {}", quote(text)),
            other => other.type_name().to_owned(),
        };
        let name = ptr.field();
        if let Value::String(text) = &node.value
            && text.from_yaml()
            && !self.not_plain(node)
            && types.contains(&"boolean")
            && let Some(b) = yaml11_boolean(text)
        {
            let d = Diagnostic::new(
                Code::Yaml11Boolean,
                format!("`{name}` is the string {} here, not a boolean", quote(text)),
            )
            .with_help(format!(
                "YAML 1.1 read `{text}` as {b}, YAML 1.2 reads it as a string; write `{b}`"
            ))
            .at(ptr.to_string());
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
            if ptr.is_root() {
                format!("the document must be {want}, found {found}")
            } else {
                format!("`{name}` must be {want}, found {found}")
            },
        )
        .at(ptr.to_string());
        if ptr.is_top_key("loop") && matches!(node.value, Value::String(_)) {
            d = d.with_help(
                "in a loop manifest `loop` is the loop object itself; a string package reference belongs in an Agent manifest",
            );
        } else if ptr.is_root() {
            d = d.with_help("a loop file holds one JSON object or one YAML mapping");
        } else if matches!(node.value, Value::Null) {
            d = d.with_help("give the field a value, or leave it out");
        } else if let Value::String(text) = &node.value
            && let Some(bare) = unquoted_fits(text, set)
        {
            d = d.with_help(format!("remove the quotes: `{bare}`"));
        } else if let Value::String(text) = &node.value
            && types.contains(&"boolean")
            && let Some(b) = yaml11_boolean(text)
        {
            d = d.with_help(format!("a boolean is `true` or `false`: write `{b}`"));
        } else if let Some(form) = expected_form(ptr, self.doc.syntax == Syntax::Yaml) {
            d = d.with_help(form);
        } else if types.contains(&"string")
            && !matches!(node.value, Value::Object(_) | Value::Array(_))
        {
            d = d.with_help("quote the value to make it a string");
        }
        self.emit(d, false, true);
        false
    }

    pub(super) fn enum_diag(&self, node: &Node, ptr: &Ptr<'_>, allowed: &[&str]) -> Diagnostic {
        let list = allowed
            .iter()
            .map(|v| format!("`{v}`"))
            .collect::<Vec<_>>()
            .join(", ");
        let found = match &node.value {
            Value::String(text) => quote(text),
            _ => crate::diag::quote(&node.to_json().to_string()),
        };
        let expected = if allowed.len() == 1 {
            list
        } else {
            format!("one of {list}")
        };
        let mut d = Diagnostic::new(
            Code::InvalidValue,
            format!("`{}` must be {expected}, found {found}", ptr.field()),
        )
        .at(ptr.to_string());
        if let Value::String(text) = &node.value
            && allowed.iter().any(|a| a.eq_ignore_ascii_case(text))
        {
            d = d.with_help("values are case-sensitive");
        }
        d
    }

    /// `F002` for the required field `r`, located on the key of `m` that misspells it, with
    /// the rename as its suggestion.
    pub(super) fn misspelled_required(
        &self,
        d: Diagnostic,
        r: &str,
        m: &Member,
        ptr: &Ptr<'_>,
    ) -> Diagnostic {
        let child = ptr.key(&m.key).to_string();
        let mut d = d
            .with_note(format!("{} looks like `{r}` misspelled", quote(&m.key)))
            .with_suggestion(Suggestion::Replace {
                target: EditTarget::key(child.clone()),
                with: r.to_owned(),
            })
            .at(child);
        self.locate_on_key(&mut d, m);
        d
    }
}
