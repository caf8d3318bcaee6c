//! The Mermaid checker: a tokenizer of the drawn output; every label is literal text.

use super::invisible;
use crate::markup_safety::cases::Case;
use crate::markup_safety::diagram::{node_pieces, unjoined, without_joiners};
use loopconv::back;
use loopconv::back::support::diagram::{Diagram, NodeKind};
use loopconv::ir::Spec;
use loopconv::valid::Info;
use std::collections::BTreeMap;
// ---------------------------------------------------------------------------------------
// Markdown.

// ---------------------------------------------------------------------------------------
// Mermaid.

/// Mermaid's decoding of the entity codes the writer emits (`#60;` -> `<`).
pub(crate) fn mermaid_decode(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find('#') {
        out.push_str(&rest[..i]);
        let tail = &rest[i + 1..];
        let end = tail.find(';').expect("entity code ends with ;");
        let code: u32 = tail[..end].parse().expect("numeric entity code");
        out.push(char::from_u32(code).expect("valid code"));
        rest = &tail[end + 1..];
    }
    out.push_str(rest);
    out
}

/// Escaped Mermaid text: letters, digits, space, harmless punctuation, `#NN;` codes, and
/// non-ASCII characters other than controls and Mermaid's placeholder characters.
pub(crate) fn is_escaped_text(s: &str) -> bool {
    if s.is_empty() {
        return false;
    }
    let b: Vec<char> = s.chars().collect();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == '#' {
            let digits = b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
            if digits == 0 || b.get(i + 1 + digits) != Some(&';') {
                return false;
            }
            i += digits + 2;
            continue;
        }
        let ok = if c.is_ascii() {
            c.is_ascii_alphanumeric() || " .,-_/()+=!?'@".contains(c)
        } else {
            // The writer's own word joiners are the one invisible character it writes.
            !c.is_control()
                && (!invisible(c) || c == loopconv::back::mermaid::JOINER)
                && !matches!(c, '°' | '¶' | 'ß')
        };
        if !ok {
            return false;
        }
        i += 1;
    }
    true
}

pub(crate) const MERMAID_TAGS: &[&str] = &["<b>", "</b>", "<br/>", "<small>", "</small>"];

/// The text pieces of a label made of escaped text and the writer's own tags.
pub(crate) fn label_pieces(label: &str) -> Option<Vec<String>> {
    let mut pieces = Vec::new();
    let mut cur = String::new();
    let mut rest = label;
    while !rest.is_empty() {
        if let Some(t) = MERMAID_TAGS.iter().find(|t| rest.starts_with(**t)) {
            if !cur.is_empty() {
                pieces.push(std::mem::take(&mut cur));
            }
            rest = &rest[t.len()..];
            continue;
        }
        let c = rest.chars().next()?;
        cur.push(c);
        rest = &rest[c.len_utf8()..];
    }
    if !cur.is_empty() {
        pieces.push(cur);
    }
    if !pieces.iter().all(|p| is_escaped_text(p)) {
        return None;
    }
    let decoded: Vec<String> = pieces.iter().map(|p| mermaid_decode(p)).collect();
    // Mermaid rewrites these in the decoded text (math, icons, line breaks, its entity
    // placeholders): they must never be there. The writer breaks them with a word joiner.
    for d in &decoded {
        for bad in ["$$", ":fa-", "\\n", "ﬂ°", "¶ß"] {
            assert!(!d.contains(bad), "{bad:?} in the decoded label {d:?}");
        }
    }
    Some(decoded.iter().map(|d| unjoined(d)).collect())
}

pub(crate) fn is_node_id(s: &str) -> bool {
    let num = |p: &str| {
        s.strip_prefix(p)
            .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
    };
    num("p") || num("g") || matches!(s, "t_end" | "t_abort" | "t_handoff" | "start")
}

/// Check every line of a Mermaid output; returns the decoded pieces of each labelled
/// thing: `node:<id>`, `edge:<from>-<to>` (in order), `acc:title`, `acc:descr`,
/// `state:<id>` (state descriptions).
pub(crate) fn check_mermaid(out: &str, what: &str) -> BTreeMap<String, Vec<Vec<String>>> {
    let mut found: BTreeMap<String, Vec<Vec<String>>> = BTreeMap::new();
    let mut add = |k: String, v: Vec<String>| found.entry(k).or_default().push(v);
    let bad = |line: &str| -> ! { panic!("{what}: unexpected Mermaid line {line:?}\n{out}") };
    let fixed = [
        "---",
        "config:",
        "  flowchart:",
        "    wrappingWidth: 400",
        "flowchart TD",
        "stateDiagram-v2",
        "  direction TB",
        "  start((\"start\"))",
    ];
    for line in out.lines() {
        if fixed.contains(&line) {
            continue;
        }
        if let Some(t) = line
            .strip_prefix("title: \"")
            .and_then(|t| t.strip_suffix('"'))
        {
            let ok = t
                .chars()
                .all(|c| c.is_alphanumeric() || " .,-_/()+=!?'@·:".contains(c));
            if !ok {
                bad(line);
            }
            continue;
        }
        if let Some(t) = line.strip_prefix("  accTitle: ") {
            add(
                "acc:title".into(),
                label_pieces(t).unwrap_or_else(|| bad(line)),
            );
            continue;
        }
        if let Some(t) = line.strip_prefix("  accDescr: ") {
            add(
                "acc:descr".into(),
                label_pieces(t).unwrap_or_else(|| bad(line)),
            );
            continue;
        }
        if let Some(t) = line.strip_prefix("  classDef ") {
            let ok = t
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || " :#.,-".contains(c));
            if !ok {
                bad(line);
            }
            continue;
        }
        if let Some(t) = line.strip_prefix("  class ") {
            let mut parts = t.split(' ');
            let ok = parts
                .next()
                .is_some_and(|ids| ids.split(',').all(is_node_id))
                && parts
                    .next()
                    .is_some_and(|c| c.chars().all(|c| c.is_ascii_lowercase()))
                && parts.next().is_none();
            if !ok {
                bad(line);
            }
            continue;
        }
        if let Some(t) = line.strip_prefix("  state ") {
            if let Some(id) = t.strip_suffix(" <<choice>>") {
                if !is_node_id(id) {
                    bad(line);
                }
                continue;
            }
            // state "title" as id
            let Some((title, id)) = t.strip_prefix('"').and_then(|t| t.rsplit_once("\" as "))
            else {
                bad(line)
            };
            if !is_node_id(id) {
                bad(line);
            }
            add(
                format!("state-title:{id}"),
                label_pieces(title).unwrap_or_else(|| bad(line)),
            );
            continue;
        }
        let Some(t) = line.strip_prefix("  ") else {
            bad(line)
        };
        // Edges: `a ARROW b`, `a ARROW|"label"| b` (flowchart), `a --> b : label` (state).
        let mut matched = false;
        for arrow in [" --> ", " ==> ", " -.-> ", " -->|\"", " ==>|\"", " -.->|\""] {
            let Some((from, rest)) = t.split_once(arrow) else {
                continue;
            };
            let from_ok = is_node_id(from) || from == "[*]";
            if !from_ok {
                continue;
            }
            matched = true;
            if arrow.ends_with('"') {
                let Some((label, to)) = rest.rsplit_once("\"| ") else {
                    bad(line)
                };
                if !is_node_id(to) {
                    bad(line);
                }
                add(
                    format!("edge:{from}-{to}"),
                    label_pieces(label).unwrap_or_else(|| bad(line)),
                );
            } else if let Some((to, label)) = rest.split_once(" : ") {
                if !is_node_id(to) {
                    bad(line);
                }
                add(
                    format!("edge:{from}-{to}"),
                    label_pieces(label).unwrap_or_else(|| bad(line)),
                );
            } else if !is_node_id(rest) {
                bad(line);
            }
            break;
        }
        if matched {
            continue;
        }
        // State descriptions: `id : text`.
        if let Some((id, desc)) = t.split_once(" : ")
            && is_node_id(id)
        {
            add(
                format!("state:{id}"),
                label_pieces(desc).unwrap_or_else(|| bad(line)),
            );
            continue;
        }
        // Flowchart nodes: `id OPEN"label"CLOSE`.
        let shapes = [
            ("(((\"", "\")))"),
            ("((\"", "\"))"),
            ("(\"", "\")"),
            ("{{\"", "\"}}"),
            (">\"", "\"]"),
        ];
        let node = shapes.iter().find_map(|(open, close)| {
            let (id, rest) = t.split_once(open)?;
            let label = rest.strip_suffix(close)?;
            is_node_id(id).then(|| (id.to_owned(), label.to_owned()))
        });
        let Some((id, label)) = node else { bad(line) };
        add(
            format!("node:{id}"),
            label_pieces(&label).unwrap_or_else(|| bad(line)),
        );
    }
    found
}

pub(crate) fn check_mermaid_both(case: &Case, spec: &Spec, info: &Info, d: &Diagram) {
    let d = &without_joiners(d);
    let title = match &d.subtitle {
        Some(s) => format!("{} · {}", d.title, s),
        None => d.title.to_string(),
    };
    for style in [back::mermaid::Style::Flowchart, back::mermaid::Style::State] {
        let what = format!("{} {style:?}", case.label);
        let out = back::mermaid::draw(spec, info, style);
        let found = check_mermaid(&out, &what);
        assert_eq!(
            found.get("acc:title"),
            Some(&vec![vec![title.clone()]]),
            "{what}"
        );
        let descr: Vec<Vec<String>> = d.description.iter().map(|x| vec![x.to_string()]).collect();
        assert_eq!(
            found.get("acc:descr").cloned().unwrap_or_default(),
            descr,
            "{what}"
        );
        for n in &d.nodes {
            match style {
                back::mermaid::Style::Flowchart => {
                    let got = found.get(&format!("node:{}", n.id));
                    assert_eq!(got, Some(&vec![node_pieces(n)]), "{what}: node {}", n.id);
                }
                back::mermaid::Style::State if n.kind != NodeKind::Gate => {
                    let got = found.get(&format!("state-title:{}", n.id));
                    assert_eq!(
                        got,
                        Some(&vec![vec![n.title.to_string()]]),
                        "{what}: {}",
                        n.id
                    );
                    let mut lines: Vec<Vec<String>> =
                        n.lines.iter().map(|l| vec![l.to_string()]).collect();
                    lines.extend(n.access.iter().chain(&n.role).map(|l| vec![l.clone()]));
                    let got = found
                        .get(&format!("state:{}", n.id))
                        .cloned()
                        .unwrap_or_default();
                    assert_eq!(got, lines, "{what}: state {}", n.id);
                }
                back::mermaid::Style::State => {}
            }
        }
        // Edge labels: the outcome, and the escalation note with the fallback agent.
        for e in &d.edges {
            if e.label.is_empty() {
                continue;
            }
            let from = if style == back::mermaid::Style::State
                && e.from == back::support::diagram::NodeId::Start
            {
                "[*]".to_owned()
            } else {
                e.from.to_string()
            };
            let got = found
                .get(&format!("edge:{from}-{}", e.to))
                .unwrap_or_else(|| panic!("{what}: no edge {from} -> {}\n{out}", e.to));
            let gate = d.node(e.from).filter(|n| n.kind == NodeKind::Gate);
            let expected: Vec<String> = match (style, gate, &e.note) {
                (back::mermaid::Style::Flowchart, _, _) => [e.label.to_string()]
                    .into_iter()
                    .chain(e.note.clone())
                    .collect(),
                (back::mermaid::Style::State, Some(g), _) => {
                    vec![format!("{} · {}", e.label, g.lines.join(" "))]
                }
                (back::mermaid::Style::State, None, Some(note)) => {
                    vec![format!("{} · {note}", e.label)]
                }
                (back::mermaid::Style::State, None, None) => vec![e.label.to_string()],
            };
            assert!(
                got.contains(&expected),
                "{what}: edge {from} -> {}: {got:?}",
                e.to
            );
        }
        // (The front-matter title is plain text: only `:` of all the syntax survives there.)
        for line in out.lines().filter(|l| !l.starts_with("title: ")) {
            for bad in [
                "<img",
                "<script",
                "<svg",
                "<a ",
                "<iframe",
                "%%{",
                "javascript:",
            ] {
                assert!(!line.contains(bad), "{what}: {bad}\n{out}");
            }
        }
    }
}
