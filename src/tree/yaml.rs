//! The YAML adapter over serde-saphyr: its spanned values turned into the tree, its errors
//! into loopconv's codes, read on a thread with a big stack.

use serde::de::{self, MapAccess, SeqAccess, Visitor};
use serde_saphyr::Spanned;

use crate::diag::{Code, Diagnostic, Diagnostics, Pos};

use super::decode::{MAX_VALUES_HELP, ReadLimits};
use super::duplicates::{Dups, report_duplicates};
use super::key::{Key, Vocabulary};
use super::lines::{line_starts, pos_of};
use super::node::{Document, KeyType, Member, Node, Reread, Span, Syntax, Value};
use super::string::{SourceText, Str};
use crate::pointer;

struct YNode(Value);

impl<'de> de::Deserialize<'de> for YNode {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(YVisitor).map(YNode)
    }
}

struct YVisitor;

fn span_of<T>(s: &Spanned<T>) -> Span {
    let sp = s.referenced.span();
    let start = usize::try_from(sp.byte_offset().unwrap_or(0)).unwrap_or(0);
    let len = usize::try_from(sp.byte_len().unwrap_or(0)).unwrap_or(0);
    Span::new(start, start.saturating_add(len))
}

/// The span of a node holding `value`, whose own span the parser gives as `span`: a
/// collection's span is its first token's, so it is stretched to the end of its last item
/// (a flow collection's, to its closing bracket, by [`close_flow_collections`]), as a JSON
/// collection's span is the whole collection.
fn node_span(span: Span, value: &Value) -> Span {
    let last = match value {
        Value::Array(items) => items.last().map(|n| n.span),
        Value::Object(members) => members.last().map(|m| m.value.span),
        _ => None,
    };
    match last {
        Some(last) if last.end() > span.end() => Span::new(span.start(), last.end()),
        _ => span,
    }
}

/// Stretch the span of each flow collection (`[a, b]`, `{a: 1}`) in `node` to its closing
/// bracket, past the end of its last item where [`node_span`] leaves it (the visitor that
/// builds the tree has no text to look in).
fn close_flow_collections(node: &mut Node, text: &str) {
    let children: &mut [Node] = match &mut node.value {
        Value::Array(items) => items,
        Value::Object(members) => {
            for m in members.iter_mut() {
                close_flow_collections(&mut m.value, text);
            }
            &mut []
        }
        _ => return,
    };
    for child in children.iter_mut() {
        close_flow_collections(child, text);
    }
    // The last item may be a flow collection whose end just moved.
    node.span = node_span(node.span, &node.value);
    let closer = match text.as_bytes().get(node.span.start()) {
        Some(b'[') => b']',
        Some(b'{') => b'}',
        _ => return,
    };
    if let Some(end) = closing_bracket(text, node.span.end(), closer) {
        node.span = Span::new(node.span.start(), end);
    }
}

/// The end of the flow collection's closing `closer` that follows its last item, which
/// ends at `from`: past spaces, line breaks, commas and comments.
fn closing_bracket(text: &str, from: usize, closer: u8) -> Option<usize> {
    let b = text.as_bytes();
    let mut i = from.min(b.len());
    while let Some(&c) = b.get(i) {
        match c {
            b' ' | b'\t' | b'\r' | b'\n' | b',' => i += 1,
            b'#' => i = crate::text::next_line_start(text, i),
            _ if c == closer => return Some(i + 1),
            _ => return None,
        }
    }
    None
}

impl<'de> Visitor<'de> for YVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a YAML value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }
    fn visit_i128<E: de::Error>(self, v: i128) -> Result<Value, E> {
        i64::try_from(v)
            .map(|v| Value::Number(v.into()))
            .or_else(|_| u64::try_from(v).map(|v| Value::Number(v.into())))
            .map_err(|_| E::custom("integer out of range"))
    }
    fn visit_u128<E: de::Error>(self, v: u128) -> Result<Value, E> {
        u64::try_from(v)
            .map(|v| Value::Number(v.into()))
            .map_err(|_| E::custom("integer out of range"))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(v)
            .map(Value::Number)
            .unwrap_or(Value::NonFinite(v)))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(Str::new(v, true)))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(Str::from_string(v, true)))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: de::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(YVisitor)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(n) = seq.next_element::<Spanned<YNode>>()? {
            let span = node_span(span_of(&n), &n.value.0);
            items.push(Node {
                value: n.value.0,
                span,
            });
        }
        Ok(Value::Array(items.into_boxed_slice()))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut members = Vec::new();
        while let Some(k) = map.next_key::<Spanned<YNode>>()? {
            let key_span = span_of(&k);
            // Keep going on a non-string key: it is reported later (P012).
            let key = match k.value.0 {
                Value::String(text) => yaml_key_of(&text),
                other => {
                    if let Some(t) = KeyType::of(&other) {
                        NON_STRING_KEYS.with_borrow_mut(|keys| keys.push((key_span, t)));
                    }
                    yaml_key(other.to_json_text())
                }
            };
            let v = map.next_value::<Spanned<YNode>>()?;
            let span = node_span(span_of(&v), &v.value.0);
            members.push(Member {
                key,
                key_span,
                value: Node {
                    value: v.value.0,
                    span,
                },
            });
        }
        Ok(Value::Object(members.into_boxed_slice()))
    }
}

/// Parse YAML text into a [`Document`]: exactly one document, YAML 1.2 booleans, duplicate
/// keys reported (all of them), anchors and aliases bounded; keys that are words of `keys`
/// share them.
pub fn parse_yaml(
    text: String,
    keys: &'static Vocabulary,
    limits: &ReadLimits,
    diags: &mut Diagnostics,
) -> Option<Document> {
    parse_yaml_or_text(text, keys, limits, diags).ok()
}

/// [`parse_yaml`], handing the text back when it is not a document.
pub fn parse_yaml_or_text(
    text: String,
    keys: &'static Vocabulary,
    limits: &ReadLimits,
    diags: &mut Diagnostics,
) -> Result<Document, String> {
    let starts = line_starts(&text);
    match read_documents(&text, keys, limits) {
        Ok((docs, non_string)) => {
            let Some(root) = one_root(docs, &text, &starts, diags) else {
                return Err(text);
            };
            let reread = Reread {
                root: reread_root,
                keys,
                limits: *limits,
            };
            let text = SourceText::new(text);
            let doc = Document::new(text, Syntax::Yaml, root, Some(starts), reread)
                .with_non_string_keys(non_string);
            let mut dups = Dups::new(limits.max_diagnostics);
            collect_yaml_issues(doc.root(), "", &mut dups, &doc, diags);
            report_duplicates(&doc, dups, diags);
            Ok(doc)
        }
        Err(e) => {
            let (code, message, help) = classify_yaml_error(&e, &text, limits);
            let mut d = Diagnostic::new(code, message);
            if let Some(h) = help {
                d = d.with_help(h);
            }
            if let Some(loc) = e.location() {
                let pos = yaml_error_pos(&text, &starts, &loc);
                d.location.pos = Some(pos);
                if code == Code::Syntax && d.message.contains("tab") {
                    d = at_indenting_tab(d, &text, &starts, pos.line);
                } else if code == Code::Syntax && d.help.is_none() {
                    d = with_yaml_hint(d, &text, &starts, pos.line);
                }
            }
            diags.push(d);
            Err(text)
        }
    }
}

thread_local! {
    /// The words that keys share while YAML is read on this thread: serde's `Deserialize`,
    /// which `Spanned` requires of the values it wraps, takes no parameter to pass them in.
    static YAML_KEYS: std::cell::Cell<Option<&'static Vocabulary>> =
        const { std::cell::Cell::new(None) };
    /// The keys that are not strings, found while YAML is read on this thread.
    static NON_STRING_KEYS: std::cell::RefCell<Vec<(Span, KeyType)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// The key for `text`, sharing the word of the vocabulary being read with.
fn yaml_key(text: String) -> Key {
    match YAML_KEYS.get() {
        Some(keys) => keys.key_from(text),
        None => Key::from(text),
    }
}

/// The key for a string key's text: a known key is looked up before anything is copied.
fn yaml_key_of(text: &str) -> Key {
    match YAML_KEYS.get() {
        Some(keys) => keys.key(text),
        None => Key::new(text),
    }
}

/// The root of a YAML text read before ([`Document::release_tree`]); `None` if it no
/// longer holds one document.
fn reread_root(text: &SourceText, keys: &'static Vocabulary, limits: &ReadLimits) -> Option<Node> {
    let (docs, _) = read_documents(text, keys, limits).ok()?;
    one_root(docs, text, &line_starts(text), &mut Diagnostics::new(""))
}

/// serde-saphyr's documents of `text`, read with loopconv's options on a big stack.
/// The documents of `text`, and the keys in them that are not strings.
type Read = (Vec<Spanned<YNode>>, Vec<(Span, KeyType)>);

fn read_documents(
    text: &str,
    keys: &'static Vocabulary,
    limits: &ReadLimits,
) -> Result<Read, serde_saphyr::Error> {
    let limits = *limits;
    with_big_stack(|| {
        let mut opts = serde_saphyr::Options::default();
        opts.budget = Some(yaml_budget(&limits));
        opts.duplicate_keys = serde_saphyr::DuplicateKeyPolicy::PassThrough;
        opts.strict_booleans = true;
        // `.inf` and `.nan` are well-formed YAML: the shape check reports them on their field.
        opts.non_finite_float_policy = serde_saphyr::NonFiniteFloatPolicy::PassThrough;
        opts.alias_limits.max_total_replayed_events = limits.max_alias_events;
        opts.alias_limits.max_replay_stack_depth = 32;
        let outer = YAML_KEYS.replace(Some(keys));
        NON_STRING_KEYS.take();
        let docs =
            serde_saphyr::from_str_multiple_with_options::<Spanned<YNode>, Vec<_>>(text, opts);
        YAML_KEYS.set(outer);
        let non_string = NON_STRING_KEYS.take();
        docs.map(|docs| (docs, non_string))
    })
}

/// The root of the one document of `text`; `None` (reported) for several or none.
fn one_root(
    mut docs: Vec<Spanned<YNode>>,
    text: &str,
    starts: &[usize],
    diags: &mut Diagnostics,
) -> Option<Node> {
    if docs.len() > 1 {
        let second = span_of(&docs[1]);
        let mut d = Diagnostic::new(
            Code::MultipleDocuments,
            format!(
                "the file holds {} YAML documents; a loop file holds one",
                docs.len()
            ),
        )
        .with_help("split the loops into one file each (upstream reads only the first document)");
        d.location.pos = Some(pos_of(text, starts, second.into()));
        diags.push(d);
        return None;
    }
    match docs.pop() {
        Some(root) => {
            let span = node_span(span_of(&root), &root.value.0);
            let mut root = Node {
                value: root.value.0,
                span,
            };
            close_flow_collections(&mut root, text);
            Some(root)
        }
        // serde-saphyr drops null documents: `null` or `~` is a document whose root is null
        // (reported as "must be an object"), not an empty file.
        None => match yaml_null_root(text) {
            Some((start, end)) => Some(Node {
                value: Value::Null,
                span: Span::new(start, end),
            }),
            None => {
                let mut d = Diagnostic::new(Code::EmptyInput, "the YAML file holds no document");
                d.location.pos = Some(crate::diag::Pos::START);
                diags.push(d);
                None
            }
        },
    }
}

/// Where a YAML error is: its byte offset when serde-saphyr gives one that agrees with its
/// line, else the byte its line and column name, so that the snippet points where the
/// message's line and column say.
fn yaml_error_pos(text: &str, starts: &[usize], loc: &serde_saphyr::Location) -> Pos {
    let by_offset = loc
        .span()
        .byte_offset()
        .and_then(|o| usize::try_from(o).ok())
        .map(|o| pos_of(text, starts, (o, o + 1)));
    match by_offset {
        Some(p) if loc.line() == 0 || u64::from(p.line) == loc.line() => p,
        _ => {
            let at = offset_of(text, starts, loc.line(), loc.column());
            pos_of(text, starts, (at, at + 1))
        }
    }
}

/// A tab where YAML wants spaces: the parser reports it where the scalar or block before
/// it began (`found a tab at line 6` for a tab that starts line 7), so the diagnostic is
/// moved to the first tab that indents a line, from the reported line on, when there is
/// one, and says how to fix it.
fn at_indenting_tab(mut d: Diagnostic, text: &str, starts: &[usize], line: u32) -> Diagnostic {
    let from = usize::try_from(line.saturating_sub(1)).unwrap_or(usize::MAX);
    let indenting_tab = starts.iter().skip(from).find_map(|&start| {
        let rest = &text[start..];
        let indent = rest.len() - rest.trim_start_matches([' ', '\t']).len();
        rest[..indent].find('\t').map(|i| start + i)
    });
    if let Some(at) = indenting_tab {
        d.location.pos = Some(pos_of(text, starts, (at, at + 1)));
        d.message = "a tab indents this line; YAML indents with spaces only".to_owned();
    }
    d.with_help("replace the tab with spaces")
}

/// The help, placed at the cause, for the common YAML mistakes whose parser message names
/// none: a first line indented (reported on the next line), an unquoted `: ` in a value,
/// and a list item's fields not indented under its first key.
fn with_yaml_hint(mut d: Diagnostic, text: &str, starts: &[usize], line: u32) -> Diagnostic {
    let line_text = |n: u32| -> &str {
        let i = usize::try_from(n.saturating_sub(1)).unwrap_or(usize::MAX);
        let Some(&start) = starts.get(i) else {
            return "";
        };
        let rest = &text[start..];
        rest[..rest.find('\n').unwrap_or(rest.len())].trim_end_matches('\r')
    };
    let indent = |l: &str| l.len() - l.trim_start_matches(' ').len();
    // The first line that holds something.
    let first = (1..=u32::try_from(starts.len()).unwrap_or(u32::MAX))
        .find(|&n| !line_text(n).trim().is_empty() && !line_text(n).trim_start().starts_with('#'));
    if let Some(n) = first
        && n < line
        && indent(line_text(n)) > 0
        && indent(line_text(line)) < indent(line_text(n))
    {
        let start = starts[usize::try_from(n - 1).unwrap_or(0)];
        d.location.pos = Some(pos_of(text, starts, (start, start + indent(line_text(n)))));
        d.message = format!("line {n} is indented, so the lines after it do not line up with it");
        return d.with_help(
            "the top-level keys start at column 1: remove the spaces before the first key",
        );
    }
    let here = line_text(line);
    if d.message.contains("mapping values are not allowed") {
        let body = here.trim_start().trim_start_matches("- ");
        if let Some((key, value)) = body.split_once(": ")
            && value.contains(": ")
            && !value.trim_start().starts_with(['"', '\''])
        {
            let value = value.trim().replace('\\', "\\\\").replace('"', "\\\"");
            return d.with_help(format!(
                "a value holding `: ` must be quoted: `{key}: \"{value}\"`"
            ));
        }
    }
    if d.message.contains("expected '-' indicator") {
        // The item this line belongs to: the nearest line above that starts with `- `.
        let item = (1..line)
            .rev()
            .map(line_text)
            .find(|l| l.trim_start().starts_with("- "));
        if let Some(item) = item {
            let under = indent(item) + 2;
            let key = here.trim_start();
            return d.with_help(format!(
                "a list item's fields line up with its first key, past the `-`: indent this line to column {} (`{}{}`)",
                under + 1,
                " ".repeat(under),
                key
            ));
        }
    }
    d
}

/// The byte at a 1-based line and (character) column, clamped to the text.
fn offset_of(text: &str, starts: &[usize], line: u64, column: u64) -> usize {
    let idx = usize::try_from(line.saturating_sub(1)).unwrap_or(usize::MAX);
    let Some(&line_start) = starts.get(idx).or(starts.last()) else {
        return 0;
    };
    let skip = usize::try_from(column.saturating_sub(1)).unwrap_or(usize::MAX);
    let rest = text.get(line_start..).unwrap_or("");
    let line_len = rest.find('\n').unwrap_or(rest.len());
    let within = rest[..line_len]
        .char_indices()
        .nth(skip)
        .map_or(line_len, |(i, _)| i);
    line_start + within
}

/// serde-saphyr's budget with loopconv's limits.
fn yaml_budget(limits: &ReadLimits) -> serde_saphyr::Budget {
    let mut budget = serde_saphyr::Budget::default();
    budget.max_depth = limits.max_depth;
    budget.max_nodes = limits.max_nodes;
    // Scalar text is at most the input (aliases are bounded on their own): the budget's
    // 64 MiB default refused a larger input that the size limit let in, such as a valid
    // 34 MB loop's multi-agent-spec output read back.
    budget.max_total_scalar_bytes = budget.max_total_scalar_bytes.max(limits.max_bytes);
    budget.max_events = budget.max_events.max(limits.max_nodes.saturating_mul(2));
    budget.max_documents = 64;
    budget
}

/// Stack for reading YAML: reserved address space, touched only as deep as the input goes.
const YAML_STACK: usize = 64 * 1024 * 1024;

thread_local! {
    /// Whether this thread's stack is at least [`YAML_STACK`] bytes.
    static BIG_STACK: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The stack size a thread needs to read YAML without starting a thread of its own.
pub const READER_STACK: usize = YAML_STACK;

/// Declare that the calling thread's stack is at least [`READER_STACK`] bytes, so that
/// reading YAML on it runs in place instead of on a new thread (a thread per YAML file was
/// a fifth of the time of checking a folder). Call it only from a thread started with
/// such a stack: deep YAML would overflow a smaller one.
pub fn declare_reader_stack() {
    BIG_STACK.set(true);
}

/// Run `f` on a thread with a [`YAML_STACK`] stack. Reading YAML recurses once per nesting
/// level through serde-saphyr's generic code, which in an unoptimised build takes over
/// 16 KiB of stack per level: 128 levels (the depth limit) overflowed the 2 MiB stack of a
/// test thread before the budget could report P005. Falls back to the caller's thread
/// if no thread can be started.
fn with_big_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    if BIG_STACK.get() {
        return f();
    }
    let mut f = Some(f);
    let result = std::thread::scope(|s| {
        let spawned = std::thread::Builder::new()
            .name("loopconv-yaml".into())
            .stack_size(YAML_STACK)
            .spawn_scoped(s, || f.take().map(|f| f()));
        match spawned {
            Ok(h) => match h.join() {
                Ok(r) => r,
                Err(panic) => std::panic::resume_unwind(panic),
            },
            Err(_) => None,
        }
    });
    match (result, f) {
        (Some(r), _) => r,
        (None, Some(f)) => f(),
        (None, None) => unreachable!("the closure ran or is still here"),
    }
}

/// The span of the first content of a YAML text that serde-saphyr read as no document: a
/// scalar null (`null`, `~`, `--- null`), or `None` when it holds only comments, directives
/// and document markers.
fn yaml_null_root(text: &str) -> Option<(usize, usize)> {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let mut rest = line.trim_end_matches(['\n', '\r']);
        let mut at = offset;
        let body = rest.trim_start();
        at += rest.len() - body.len();
        rest = body;
        if rest.starts_with('%') {
            offset += line.len();
            continue;
        }
        for marker in ["---", "..."] {
            if rest == marker
                || rest.starts_with(&format!("{marker} "))
                || rest.starts_with(&format!("{marker}\t"))
            {
                let body = rest[3..].trim_start();
                at += rest.len() - body.len();
                rest = body;
            }
        }
        if !rest.is_empty() && !rest.starts_with('#') {
            let end = rest.find(" #").unwrap_or(rest.len());
            return Some((at, at + rest[..end].trim_end().len().max(1)));
        }
        offset += line.len();
    }
    None
}

/// A YAML reading error as loopconv reports it: its code, message and help.
type YamlProblem = (Code, String, Option<&'static str>);

/// The code, message and help for a YAML reading error. Limits are recognised from the
/// error's variant (the parser's own nesting limit only from its message), so that a deep
/// or bombing input gets its limit code, never a generic syntax error.
fn classify_yaml_error(e: &serde_saphyr::Error, text: &str, limits: &ReadLimits) -> YamlProblem {
    use serde_saphyr::Error as E;
    let inner = innermost(e);
    let raw = inner.to_string();
    let first_line = raw.lines().next().unwrap_or("").trim();
    match inner {
        E::Budget { breach, .. } => budget_breach(breach, text, limits, first_line),
        E::AliasReplayCounterOverflow { .. }
        | E::AliasReplayLimitExceeded { .. }
        | E::AliasExpansionLimitExceeded { .. }
        | E::AliasReplayStackDepthExceeded { .. } => alias_limit(format!(
            "anchors and aliases expand beyond the limit of {} replayed events",
            limits.max_alias_events
        )),
        _ if first_line.to_lowercase().contains("recursion limit") => too_deep(limits),
        _ => (Code::Syntax, yaml_message(first_line), None),
    }
}

/// The error proper, out of its snippet and alias-location wrappers.
fn innermost(e: &serde_saphyr::Error) -> &serde_saphyr::Error {
    use serde_saphyr::Error as E;
    let mut inner = e;
    loop {
        inner = match inner {
            E::WithSnippet { error, .. } => error.as_ref(),
            #[allow(deprecated)]
            E::AliasError { error, .. } => error.as_ref(),
            _ => return inner,
        };
    }
}

/// `P005`: nested deeper than the limit.
fn too_deep(limits: &ReadLimits) -> YamlProblem {
    (
        Code::TooDeep,
        format!(
            "sequences and mappings are nested more than {} levels deep",
            limits.max_depth
        ),
        Some("loop files need only a few levels; this input is not a loop"),
    )
}

/// An alias limit, saying `what`.
fn alias_limit(what: String) -> YamlProblem {
    (
        Code::AliasLimit,
        what,
        Some("anchors and aliases expand beyond the limit (an alias bomb?); write the values out"),
    )
}

/// The problem for a breach of serde-saphyr's budget (a size counts as an alias limit when
/// the text uses anchors and aliases).
fn budget_breach(
    breach: &serde_saphyr::budget::BudgetBreach,
    text: &str,
    limits: &ReadLimits,
    first_line: &str,
) -> YamlProblem {
    use serde_saphyr::budget::BudgetBreach as B;
    let budget = yaml_budget(limits);
    let aliased = text.contains('&') && text.contains('*');
    let too_large = |what: String| {
        if aliased {
            alias_limit(format!("anchors and aliases expand to {what}"))
        } else {
            (
                Code::TooLarge,
                format!("the YAML document is too large to be a loop: it has {what}"),
                Some(MAX_VALUES_HELP),
            )
        }
    };
    match breach {
        B::Depth { .. } => too_deep(limits),
        B::Aliases { .. } => alias_limit(format!(
            "the YAML uses more than {} aliases",
            budget.max_aliases
        )),
        B::Anchors { .. } => alias_limit(format!(
            "the YAML defines more than {} anchors",
            budget.max_anchors
        )),
        B::ScalarBytes { .. } => too_large(format!(
            "more than {} bytes of scalar text",
            budget.max_total_scalar_bytes
        )),
        B::Nodes { .. } => too_large(format!("more than {} nodes", budget.max_nodes)),
        B::Events { .. } => too_large(format!("more than {} parser events", budget.max_events)),
        B::Documents { documents } => (
            Code::MultipleDocuments,
            format!(
                "the file holds more than {} YAML documents; a loop file holds one",
                documents.saturating_sub(1)
            ),
            Some("split the loops into one file each (upstream reads only the first document)"),
        ),
        _ => alias_limit(format!(
            "the YAML exceeds loopconv's parsing budget ({})",
            yaml_message(first_line)
        )),
    }
}

fn yaml_message(first: &str) -> String {
    // serde-saphyr prefixes messages with a location; keep the description only.
    let msg = first
        .trim_start_matches("error: ")
        .trim_start_matches("Error: ");
    let msg = strip_line_column(msg);
    let msg = strip_trailing_at(msg).to_owned();
    let mut msg = if msg.is_empty() {
        "invalid YAML".to_owned()
    } else {
        msg
    };
    if let Some(c) = msg.get(..1) {
        let lower = c.to_lowercase();
        msg.replace_range(..1, &lower);
    }
    msg.trim_end_matches('.').to_owned()
}

/// `rest at line 3, column 8` -> `rest` (the diagnostic carries the position itself).
fn strip_trailing_at(msg: &str) -> &str {
    let Some((rest, at)) = msg.rsplit_once(" at line ") else {
        return msg;
    };
    let Some((line, column)) = at.split_once(", column ") else {
        return msg;
    };
    let number = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if number(line) && number(column) {
        rest
    } else {
        msg
    }
}

/// `line 3 column 8: rest` -> `rest` (the diagnostic carries the position itself).
fn strip_line_column(msg: &str) -> &str {
    let digits = |s: &str| s.find(|c: char| !c.is_ascii_digit()).filter(|&n| n > 0);
    let Some(rest) = msg.strip_prefix("line ") else {
        return msg;
    };
    let Some(n) = digits(rest) else { return msg };
    let Some(rest) = rest[n..].strip_prefix(" column ") else {
        return msg;
    };
    let Some(n) = digits(rest) else { return msg };
    rest[n..].strip_prefix(": ").unwrap_or(msg)
}

fn collect_yaml_issues(
    node: &Node,
    ptr: &str,
    dups: &mut Dups,
    doc: &Document,
    diags: &mut Diagnostics,
) {
    match &node.value {
        Value::Object(ms) => {
            // First span of each key (a hash index: scanning earlier members is quadratic).
            let mut seen: std::collections::HashMap<&str, Span> = std::collections::HashMap::new();
            for m in ms {
                let non_string = doc.non_string_key(m.key_span);
                if let Some(t) = non_string {
                    let mut d = Diagnostic::new(
                        Code::NonStringKey,
                        format!("a mapping key is {}, not a string", t.name()),
                    )
                    .with_help("loop files use string keys; quote the key");
                    d.location.pos = Some(doc.pos(m.key_span));
                    d.location.pointer = ptr.to_owned();
                    diags.push(d);
                }
                // Non-string keys are reported once, as P012 above: two `{}` keys are not
                // also a duplicate (one mistake, one diagnostic).
                match seen.entry(m.key.as_str()) {
                    _ if non_string.is_some() => {}
                    std::collections::hash_map::Entry::Occupied(first) => {
                        let first = *first.get();
                        dups.push(|| (ptr.to_owned(), m.key.to_string(), m.key_span, first));
                    }
                    std::collections::hash_map::Entry::Vacant(v) => {
                        v.insert(m.key_span);
                    }
                }
                collect_yaml_issues(
                    &m.value,
                    &format!("{ptr}/{}", pointer::escape(&m.key)),
                    dups,
                    doc,
                    diags,
                );
            }
        }
        Value::Array(items) => {
            for (i, n) in items.iter().enumerate() {
                collect_yaml_issues(n, &format!("{ptr}/{i}"), dups, doc, diags);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::{Code, Diagnostics};
    use crate::diag::Locate;
    use crate::tree::{ReadLimits, Vocabulary, parse_yaml};

    static WORDS: Vocabulary = Vocabulary::new(&["a", "b"]);

    #[test]
    fn yaml_basic_and_duplicates() {
        let mut d = Diagnostics::new("t.yaml");
        let doc = parse_yaml(
            "a: 1\nb:\n  - x\n  - yes\na: 3\n".into(),
            &WORDS,
            &ReadLimits::default(),
            &mut d,
        )
        .unwrap();
        assert_eq!(d.items().len(), 1, "{:?}", d.items());
        assert_eq!(d.items()[0].code, Code::DuplicateKey);
        let p = doc.locate("/b/1", false).unwrap();
        assert_eq!((p.line, p.column), (4, 5));
        assert_eq!(
            doc.root().get("b").unwrap().to_json(),
            serde_json::json!(["x", "yes"])
        );
    }

    /// A collection's span is the whole collection, as in JSON: a block one to the end of
    /// its last item, a flow one to its closing bracket, past comments and a trailing
    /// comma (the parser gives only its first token).
    #[test]
    fn collections_span_to_their_end() {
        let cases = [
            ("a:\n  - x\n  - y\nb: 1\n", "a", "- x\n  - y"),
            ("a: {k: 1, l: [x, y]}\n", "a", "{k: 1, l: [x, y]}"),
            ("a: [\n  x, # c\n  y,\n  ]\n", "a", "[\n  x, # c\n  y,\n  ]"),
            ("a: []\nb: {}\n", "a", "[]"),
            ("a: []\nb: {}\n", "b", "{}"),
            ("b:\n  a: [x]", "b", "a: [x]"),
        ];
        for (text, key, spanned) in cases {
            let mut d = Diagnostics::new("t.yaml");
            let doc = parse_yaml(text.into(), &WORDS, &ReadLimits::default(), &mut d).unwrap();
            let span = doc.root().get(key).unwrap().span;
            assert_eq!(&text[span.start()..span.end()], spanned, "{text:?}");
        }
    }

    #[test]
    fn yaml_multi_document() {
        let mut d = Diagnostics::new("t.yaml");
        assert!(
            parse_yaml(
                "a: 1\n---\nb: 2\n".into(),
                &WORDS,
                &ReadLimits::default(),
                &mut d
            )
            .is_none()
        );
        assert_eq!(d.items()[0].code, Code::MultipleDocuments);
    }
}
