//! The DOT checker: a tokenizer of the output, and the real Graphviz renderer.

use super::invisible;
use crate::markup_safety::cases::Case;
use crate::markup_safety::diagram::node_pieces;
use loopconv::back;
use loopconv::back::support::diagram::{Diagram, NodeKind};
use loopconv::ir::Spec;
use loopconv::valid::Info;
use std::collections::BTreeMap;
// ---------------------------------------------------------------------------------------
// Markdown.

// ---------------------------------------------------------------------------------------
// DOT.

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Tok {
    Id(String),
    Punct(&'static str),
    /// A quoted string, decoded as Graphviz draws it.
    Str(String),
    /// An HTML-like label: the decoded text pieces.
    Html(Vec<String>),
}

pub(crate) const DOT_TAGS: &[&str] = &["<B>", "</B>", "<BR/>", "</FONT>"];

/// Decode the entities the writer emits in HTML-like labels; `None` on any other `&`.
pub(crate) fn html_decode(s: &str) -> Option<String> {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        let tail = &rest[i..];
        let (ent, c) = [
            ("&amp;", '&'),
            ("&lt;", '<'),
            ("&gt;", '>'),
            ("&quot;", '"'),
            ("&#39;", '\''),
        ]
        .into_iter()
        .find(|(e, _)| tail.starts_with(e))?;
        out.push(c);
        rest = &tail[ent.len()..];
    }
    out.push_str(rest);
    Some(out)
}

/// Tokenize the whole DOT output; panics on anything the writer should not produce.
pub(crate) fn dot_tokens(out: &str, what: &str) -> Vec<Tok> {
    let fail = |msg: &str, at: usize| -> ! {
        let end = (at + 80).min(out.len());
        let start = at.min(end);
        panic!(
            "{what}: {msg} at byte {at}: {:?}\n",
            out.get(start..end).unwrap_or("")
        )
    };
    let b = out.as_bytes();
    let mut toks = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b' ' || c == b'\n' {
            i += 1;
        } else if c.is_ascii_alphanumeric() || c == b'_' || c == b'.' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b"_.".contains(&b[i])) {
                i += 1;
            }
            if start == i {
                fail("stray character", i);
            }
            toks.push(Tok::Id(out[start..i].to_owned()));
        } else if out[i..].starts_with("->") {
            toks.push(Tok::Punct("->"));
            i += 2;
        } else if let Some(p) = ["{", "}", "[", "]", ";", ",", "="]
            .into_iter()
            .find(|p| out[i..].starts_with(p))
        {
            toks.push(Tok::Punct(p));
            i += 1;
        } else if c == b'"' {
            // Only `\"` and `\\` escapes; no raw control character; `&` only in `&amp;`.
            let mut s = String::new();
            let mut j = i + 1;
            let chars = out[j..].char_indices();
            let mut esc = false;
            let mut closed = None;
            for (k, ch) in chars {
                match (esc, ch) {
                    (true, '"' | '\\') => {
                        s.push(ch);
                        esc = false;
                    }
                    (true, _) => fail("escape other than \\\" or \\\\ in a quoted string", j + k),
                    (false, '\\') => esc = true,
                    (false, '"') => {
                        closed = Some(j + k);
                        break;
                    }
                    (false, ch) if ch.is_control() || invisible(ch) => {
                        fail("control or invisible character in a quoted string", j + k)
                    }
                    (false, ch) => s.push(ch),
                }
            }
            let Some(end) = closed else {
                fail("unclosed string", i)
            };
            j = end + 1;
            // Graphviz decodes entities: only `&amp;` may be there.
            let mut decoded = String::new();
            let mut rest = s.as_str();
            while let Some(k) = rest.find('&') {
                decoded.push_str(&rest[..k]);
                if !rest[k..].starts_with("&amp;") {
                    fail("an entity other than &amp; in a quoted string", i);
                }
                decoded.push('&');
                rest = &rest[k + 5..];
            }
            decoded.push_str(rest);
            toks.push(Tok::Str(decoded));
            i = j;
        } else if c == b'<' {
            // HTML-like label: `<` content `>` with the writer's tags only.
            let mut j = i + 1;
            let mut pieces = Vec::new();
            let mut text = String::new();
            loop {
                let rest = &out[j..];
                if rest.starts_with('>') {
                    j += 1;
                    break;
                }
                let tag = DOT_TAGS
                    .iter()
                    .find(|t| rest.starts_with(**t))
                    .map(|t| t.len())
                    .or_else(|| {
                        let font = "<FONT POINT-SIZE=\"9\" COLOR=\"#";
                        let r = rest.strip_prefix(font)?;
                        (r.get(..6)?.bytes().all(|b| b.is_ascii_hexdigit())
                            && r.get(6..)?.starts_with("\">"))
                        .then_some(font.len() + 8)
                    });
                if let Some(len) = tag {
                    if !text.is_empty() {
                        pieces.push(
                            html_decode(&text)
                                .unwrap_or_else(|| fail("bad entity in an HTML label", j)),
                        );
                        text.clear();
                    }
                    j += len;
                    continue;
                }
                let Some(ch) = rest.chars().next() else {
                    fail("unclosed HTML label", i)
                };
                if matches!(ch, '<' | '"' | '\n') || ch.is_control() || invisible(ch) {
                    fail("raw markup character in an HTML label", j);
                }
                // Graphviz expands `\N`, `\G`, `\\`... in HTML-like labels too: every
                // backslash of the text must be doubled.
                if ch == '\\' {
                    if !rest.starts_with("\\\\") {
                        fail("single backslash in an HTML label", j);
                    }
                    j += 1;
                }
                text.push(ch);
                j += ch.len_utf8();
            }
            if !text.is_empty() {
                pieces.push(
                    html_decode(&text).unwrap_or_else(|| fail("bad entity in an HTML label", j)),
                );
            }
            toks.push(Tok::Html(pieces));
            i = j;
        } else {
            fail("unexpected character", i);
        }
    }
    toks
}

/// Statements: the head (`graph`, `node`, `edge`, an id, or `a -> b`) and its attributes.
pub(crate) fn dot_statements(toks: &[Tok], what: &str) -> Vec<(String, BTreeMap<String, Tok>)> {
    let id = |t: &Tok| match t {
        Tok::Id(s) => Some(s.clone()),
        _ => None,
    };
    assert_eq!(
        toks.get(..3),
        Some(
            &[
                Tok::Id("digraph".into()),
                Tok::Id("loop".into()),
                Tok::Punct("{")
            ][..]
        ),
        "{what}"
    );
    assert_eq!(toks.last(), Some(&Tok::Punct("}")), "{what}");
    let mut stmts = Vec::new();
    let mut i = 3;
    let end = toks.len() - 1;
    while i < end {
        // The legend cluster, when drawn, is not user text; skip it.
        if toks[i] == Tok::Id("subgraph".into()) {
            let mut depth = 0;
            while i < end {
                match &toks[i] {
                    Tok::Punct("{") => depth += 1,
                    Tok::Punct("}") => {
                        depth -= 1;
                        if depth == 0 {
                            i += 1;
                            break;
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
            continue;
        }
        let mut head = id(&toks[i]).unwrap_or_else(|| panic!("{what}: statement at {:?}", toks[i]));
        i += 1;
        while toks.get(i) == Some(&Tok::Punct("->")) {
            let to = toks
                .get(i + 1)
                .and_then(id)
                .unwrap_or_else(|| panic!("{what}: edge target"));
            head = format!("{head} -> {to}");
            i += 2;
        }
        let mut attrs = BTreeMap::new();
        if toks.get(i) == Some(&Tok::Punct("[")) {
            i += 1;
            loop {
                let k = toks
                    .get(i)
                    .and_then(id)
                    .unwrap_or_else(|| panic!("{what}: attribute name"));
                assert_eq!(toks.get(i + 1), Some(&Tok::Punct("=")), "{what}");
                let v = toks
                    .get(i + 2)
                    .cloned()
                    .unwrap_or_else(|| panic!("{what}: value"));
                attrs.insert(k, v);
                i += 3;
                match toks.get(i) {
                    Some(Tok::Punct(",")) => i += 1,
                    Some(Tok::Punct("]")) => {
                        i += 1;
                        break;
                    }
                    other => panic!("{what}: after an attribute: {other:?}"),
                }
            }
        }
        assert_eq!(toks.get(i), Some(&Tok::Punct(";")), "{what}: after {head}");
        i += 1;
        stmts.push((head, attrs));
    }
    stmts
}

pub(crate) fn check_dot(case: &Case, spec: &Spec, info: &Info, d: &Diagram) -> String {
    let what = format!("{} DOT", case.label);
    let out = back::dot::draw(spec, info, true);
    let toks = dot_tokens(&out, &what);
    let stmts = dot_statements(&toks, &what);
    let attrs_of = |head: &str| -> &BTreeMap<String, Tok> {
        &stmts
            .iter()
            .find(|(h, _)| h == head)
            .unwrap_or_else(|| panic!("{what}: no statement {head}\n{out}"))
            .1
    };
    let graph = attrs_of("graph");
    let mut title = vec![d.title.to_string()];
    title.extend(d.subtitle.clone());
    assert_eq!(graph.get("label"), Some(&Tok::Html(title)), "{what}");
    assert_eq!(
        graph.get("tooltip"),
        d.description
            .as_ref()
            .map(|x| Tok::Str(x.to_string()))
            .as_ref(),
        "{what}"
    );
    for n in &d.nodes {
        let a = attrs_of(&n.id.to_string());
        let mut pieces = node_pieces(n);
        if n.kind == NodeKind::Gate {
            pieces = [n.title.to_string()]
                .into_iter()
                .chain(n.lines.iter().map(|l| l.to_string()))
                .collect();
        }
        assert_eq!(a.get("label"), Some(&Tok::Html(pieces)), "{what}: {}", n.id);
        assert_eq!(
            a.get("tooltip"),
            Some(&Tok::Str(n.tooltip.to_string())),
            "{what}: {}",
            n.id
        );
    }
    for e in &d.edges {
        let head = format!("{} -> {}", e.from, e.to);
        let label = match (&e.note, e.label.is_empty()) {
            (_, true) => None,
            (None, false) => Some(Tok::Str(e.label.to_string())),
            (Some(n), false) => Some(Tok::Html(vec![e.label.to_string(), n.clone()])),
        };
        let found = stmts.iter().any(|(h, a)| {
            *h == head
                && a.get("tooltip") == e.tooltip.as_ref().map(|t| Tok::Str(t.to_string())).as_ref()
                && a.get("label") == label.as_ref()
        });
        assert!(
            found,
            "{what}: edge {head} with {label:?} and {:?}\n{out}",
            e.tooltip
        );
    }
    out
}

/// Render DOT texts with the real Graphviz, all at once (one `dot` process reads any number
/// of graphs); skipped when `dot` is not installed.
pub(crate) fn render_with_graphviz(dots: &[(String, String)]) {
    use std::io::Write as _;
    use std::process::{Command, Stdio};
    let Ok(mut child) = Command::new("dot")
        .arg("-Tsvg")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    else {
        crate::support::skip_without_tool(false, "Graphviz (dot)");
        return;
    };
    let input: String = dots.iter().map(|(_, d)| d.as_str()).collect();
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().expect("dot runs");
    writer
        .join()
        .expect("writer thread")
        .expect("writing to dot");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && stderr.trim().is_empty(),
        "dot -Tsvg failed on the hostile loops: {stderr}"
    );
    let svg = String::from_utf8_lossy(&out.stdout);
    let count = svg.matches("</svg>").count();
    assert_eq!(count, dots.len(), "one SVG per graph");
    check_svg_tags(&svg);
}

/// Every tag of an SVG (or several): only Graphviz's own elements, no event attribute.
pub(crate) fn check_svg_tags(svg: &str) {
    const BAD: &[&str] = &[
        "script",
        "img",
        "image",
        "iframe",
        "object",
        "embed",
        "foreignobject",
        "style",
    ];
    for part in svg.split('<').skip(1) {
        if part.starts_with(['!', '?', '/']) {
            continue;
        }
        let name_end = part
            .find(|c: char| c.is_whitespace() || c == '>' || c == '/')
            .unwrap_or(part.len());
        let name = part[..name_end].to_ascii_lowercase();
        assert!(!BAD.contains(&name.as_str()), "<{name}> element in an SVG");
        // Attributes: name="value" (values are quoted, so text inside them is skipped).
        let mut rest = part[name_end..].trim_start();
        while let Some((attr, after)) = rest.split_once('=') {
            if attr.contains('>') {
                break;
            }
            let attr = attr.trim().to_ascii_lowercase();
            assert!(!attr.starts_with("on"), "event attribute {attr} in an SVG");
            let q = after.chars().next().expect("quoted value");
            assert!(q == '"' || q == '\'', "unquoted attribute {attr}");
            let close = after[1..].find(q).expect("closed value");
            let value = &after[1..1 + close];
            assert!(!value.contains('<'), "raw < in attribute {attr}");
            if attr.ends_with("href") {
                assert!(
                    !value.trim().to_ascii_lowercase().starts_with("javascript:"),
                    "{value}"
                );
            }
            rest = after[close + 2..].trim_start();
        }
    }
}
