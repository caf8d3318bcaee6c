//! The PlantUML checker: the output's lines, and the real PlantUML renderer.

use super::invisible;
use crate::markup_safety::cases::Case;
use crate::markup_safety::diagram::{unjoined, without_joiners};
use crate::markup_safety::dot::check_svg_tags;
use crate::markup_safety::mermaid::is_node_id;
use loopconv::back;
use loopconv::back::support::diagram::{Diagram, NodeKind};
use loopconv::ir::Spec;
use loopconv::valid::Info;
use std::collections::BTreeMap;
// ---------------------------------------------------------------------------------------
// Markdown.

// ---------------------------------------------------------------------------------------
// PlantUML.

/// PlantUML's decoding of the Unicode notation the writer emits (`<U+003C>` -> `<`): one
/// pass, like `StringUtils.manageUnicodeNotationUplus`, into a Java (UTF-16) string, where
/// two surrogate codes make up one character above U+FFFF.
pub(crate) fn plantuml_decode(s: &str) -> String {
    let mut units: Vec<u16> = Vec::new();
    let mut rest = s;
    while let Some(i) = rest.find("<U+") {
        units.extend(rest[..i].encode_utf16());
        let tail = &rest[i + 3..];
        let end = tail.find('>').expect("a code ends with >");
        let code = u32::from_str_radix(&tail[..end], 16).expect("hex code");
        match u16::try_from(code) {
            Ok(unit) => units.push(unit),
            Err(_) => {
                let c = char::from_u32(code).expect("valid code");
                units.extend(c.encode_utf16(&mut [0; 2]).iter());
            }
        }
        rest = &tail[end + 1..];
    }
    units.extend(rest.encode_utf16());
    String::from_utf16(&units).expect("no lone surrogate")
}

/// Escaped PlantUML text: letters and digits (of any script), spaces and `<U+XXXX>` codes
/// (four or five hex digits), nothing else: no character that PlantUML's preprocessor,
/// diagram parser, `~` escapes or creole parser reads.
pub(crate) fn is_plantuml_text(s: &str) -> bool {
    let mut rest = s;
    loop {
        let (plain, code) = match rest.find("<U+") {
            Some(i) => (&rest[..i], Some(&rest[i + 3..])),
            None => (rest, None),
        };
        if !plain.chars().all(|c| c == ' ' || c.is_alphanumeric()) {
            return false;
        }
        let Some(code) = code else {
            return !s.is_empty();
        };
        let Some(end) = code.find('>') else {
            return false;
        };
        let hex = &code[..end];
        if !(4..=5).contains(&hex.len()) || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
            return false;
        }
        rest = &code[end + 1..];
    }
}

/// The writer's own creole markup around escaped text (and `\n`, a line break).
pub(crate) const PLANTUML_TAGS: &[&str] = &[
    "<b>",
    "</b>",
    "<size:10>",
    "<size:12>",
    "</size>",
    "<color:#475569>",
    "</color>",
    "\\n",
];

/// The decoded text pieces of a PlantUML label made of escaped text and the writer's tags.
pub(crate) fn plantuml_pieces(label: &str) -> Option<Vec<String>> {
    let mut pieces = Vec::new();
    let mut cur = String::new();
    let mut rest = label;
    while !rest.is_empty() {
        if let Some(t) = PLANTUML_TAGS.iter().find(|t| rest.starts_with(**t)) {
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
    if !pieces.iter().all(|p| is_plantuml_text(p)) {
        return None;
    }
    let decoded: Vec<String> = pieces.iter().map(|p| plantuml_decode(p)).collect();
    // PlantUML rewrites these in the decoded text (`~@start` to `@start`, `\t` to a tab):
    // they must never be there. The writer breaks them with a word joiner.
    for d in &decoded {
        for bad in ["~@start", "\\t"] {
            assert!(!d.contains(bad), "{bad:?} in the decoded label {d:?}");
        }
    }
    Some(decoded.iter().map(|d| unjoined(d)).collect())
}

/// An arrow the writer emits: `-->` or `-[style]->` with a style of its own words.
pub(crate) fn is_plantuml_arrow(a: &str) -> bool {
    a == "-->"
        || a.strip_prefix("-[")
            .and_then(|s| s.strip_suffix("]->"))
            .is_some_and(|s| {
                s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "#,=".contains(c))
            })
}

/// A skin line or inline style: only ASCII letters, digits, spaces and `#;:.{}`.
pub(crate) fn is_plantuml_style(s: &str) -> bool {
    s.chars()
        .all(|c| c.is_ascii_alphanumeric() || " #;:.{}".contains(c))
}

/// An edge line, `from ARROW to [: label]` between node ids: its `edge:<from>-<to>` key and
/// its label.
pub(crate) fn plantuml_edge(line: &str) -> Option<(String, &str)> {
    let mut words = line.splitn(3, ' ');
    let (from, arrow, rest) = (words.next()?, words.next()?, words.next()?);
    let (to, label) = rest.split_once(" : ").unwrap_or((rest, ""));
    let ok = is_plantuml_arrow(arrow) && (is_node_id(from) || from == "[*]") && is_node_id(to);
    ok.then(|| (format!("edge:{from}-{to}"), label))
}

/// Check every line of a PlantUML output; returns the decoded pieces of each labelled
/// thing: `title`, `state-title:<id>`, `state:<id>` (descriptions), `choice:<id>`,
/// `edge:<from>-<to>` (in order).
pub(crate) fn check_plantuml_lines(out: &str, what: &str) -> BTreeMap<String, Vec<Vec<String>>> {
    let mut found: BTreeMap<String, Vec<Vec<String>>> = BTreeMap::new();
    let mut add = |k: String, v: Vec<String>| found.entry(k).or_default().push(v);
    let bad = |line: &str| -> ! { panic!("{what}: unexpected PlantUML line {line:?}\n{out}") };
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.first(), Some(&"@startuml"), "{what}");
    assert_eq!(lines.last(), Some(&"@enduml"), "{what}");
    for &line in &lines[1..lines.len() - 1] {
        let pieces = |t: &str| plantuml_pieces(t).unwrap_or_else(|| bad(line));
        if line == "hide empty description"
            || (line.starts_with("skinparam ") || line.starts_with("  ") || line == "}")
                && is_plantuml_style(line)
        {
            continue;
        }
        if let Some(t) = line.strip_prefix("title ") {
            add("title".into(), pieces(t));
            continue;
        }
        if let Some(t) = line.strip_prefix("state ") {
            if let Some(id) = t.strip_suffix(" <<choice>>") {
                if !is_node_id(id) {
                    bad(line);
                }
                add(format!("choice:{id}"), Vec::new());
                continue;
            }
            // state "title" as id [style]
            let Some((title, rest)) = t.strip_prefix('"').and_then(|t| t.rsplit_once("\" as "))
            else {
                bad(line)
            };
            let (id, style) = rest.split_once(' ').unwrap_or((rest, ""));
            if !is_node_id(id) || !is_plantuml_style(style) {
                bad(line);
            }
            add(format!("state-title:{id}"), pieces(title));
            continue;
        }
        if let Some((key, label)) = plantuml_edge(line) {
            let label = if label.is_empty() {
                Vec::new()
            } else {
                pieces(label)
            };
            add(key, label);
            continue;
        }
        // State descriptions: `id : text`.
        let Some((id, desc)) = line.split_once(" : ").filter(|(id, _)| is_node_id(id)) else {
            bad(line)
        };
        add(format!("state:{id}"), pieces(desc));
    }
    found
}

/// The texts a PlantUML drawing must show: the title, each state's title and description
/// lines, each edge's label.
pub(crate) fn plantuml_expected(d: &Diagram) -> BTreeMap<String, Vec<Vec<String>>> {
    let mut want: BTreeMap<String, Vec<Vec<String>>> = BTreeMap::new();
    let mut add = |k: String, v: Vec<String>| want.entry(k).or_default().push(v);
    add(
        "title".into(),
        [d.title.to_string()]
            .into_iter()
            .chain(d.subtitle.clone())
            .collect(),
    );
    for n in &d.nodes {
        if n.kind == NodeKind::Gate {
            add(format!("choice:{}", n.id), Vec::new());
            continue;
        }
        add(format!("state-title:{}", n.id), vec![n.title.to_string()]);
        for l in n.lines.iter().map(|l| l.as_ref()).chain(n.extras()) {
            add(format!("state:{}", n.id), vec![l.to_string()]);
        }
    }
    for e in &d.edges {
        let from = if e.from == back::support::diagram::NodeId::Start {
            "[*]".to_owned()
        } else {
            e.from.to_string()
        };
        let gate = d.node(e.from).filter(|n| n.kind == NodeKind::Gate);
        let label = match (gate, e.label.is_empty()) {
            (_, true) => Vec::new(),
            (Some(g), false) => vec![format!("{} · {}", e.label, g.lines.join(" "))],
            (None, false) => [e.label.to_string()]
                .into_iter()
                .chain(e.note.clone())
                .collect(),
        };
        add(format!("edge:{from}-{}", e.to), label);
    }
    want
}

/// One PlantUML output to render, with the texts its drawing must show.
pub(crate) struct Puml {
    pub(crate) label: String,
    pub(crate) source: String,
    pub(crate) texts: Vec<String>,
}

pub(crate) fn check_plantuml(case: &Case, spec: &Spec, info: &Info, d: &Diagram) -> Puml {
    let what = format!("{} PlantUML", case.label);
    let d = &without_joiners(d);
    let out = back::plantuml::draw(spec, info);
    let found = check_plantuml_lines(&out, &what);
    let want = plantuml_expected(d);
    for (k, v) in &want {
        assert_eq!(found.get(k), Some(v), "{what}: {k}\n{out}");
    }
    assert_eq!(found.len(), want.len(), "{what}: {found:?}");
    let texts = want.into_values().flatten().flatten().collect();
    Puml {
        label: what,
        source: out,
        texts,
    }
}

/// The drawn text of an SVG written by PlantUML: the content of its `<text>` elements,
/// entities decoded.
pub(crate) fn svg_text(svg: &str) -> String {
    let mut out = String::new();
    for part in svg.split("<text").skip(1) {
        let Some((_, rest)) = part.split_once('>') else {
            continue;
        };
        let content = rest.split("</text>").next().unwrap_or("");
        let mut r = content;
        while let Some(i) = r.find('&') {
            out.push_str(&r[..i]);
            let end = r[i..].find(';').expect("entity ends with ;") + i;
            let ent = &r[i + 1..end];
            let c = match ent {
                "lt" => '<',
                "gt" => '>',
                "amp" => '&',
                "quot" => '"',
                "apos" => '\'',
                _ => ent
                    .strip_prefix('#')
                    .and_then(|n| n.parse::<u32>().ok())
                    .and_then(char::from_u32)
                    .unwrap_or_else(|| panic!("unknown entity &{ent};")),
            };
            out.push(c);
            r = &r[end + 1..];
        }
        out.push_str(r);
        out.push(' ');
    }
    out
}

/// Text without whitespace and invisible characters (which the drawings drop or fold, and
/// which SVG writers may split or trim), for comparing drawn text.
pub(crate) fn squeezed(s: &str) -> String {
    s.chars()
        .filter(|&c| !c.is_whitespace() && !invisible(c) && c != '\u{2060}')
        .collect()
}

/// Run `plantuml -pipe` on some diagrams: its exit status, SVGs (one per diagram) and
/// standard error; `None` when `plantuml` is not installed.
pub(crate) fn run_plantuml(pumls: &[Puml]) -> Option<(bool, Vec<String>, String)> {
    use std::io::Write as _;
    use std::process::{Command, Stdio};
    let mut child = Command::new("plantuml")
        .args(["-tsvg", "-pipe", "-charset", "UTF-8", "-nometadata"])
        .env("JAVA_TOOL_OPTIONS", "-Djava.awt.headless=true")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .ok()?;
    let input: String = pumls.iter().map(|p| p.source.as_str()).collect();
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().expect("plantuml runs");
    writer
        .join()
        .expect("writer thread")
        .expect("writing to plantuml");
    let svgs = String::from_utf8_lossy(&out.stdout)
        .split_inclusive("</svg>")
        .filter(|s| s.contains("<svg"))
        .map(str::to_owned)
        .collect();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    Some((out.status.success(), svgs, stderr))
}

/// Render PlantUML texts with the real PlantUML (two `plantuml -pipe` processes, each
/// reading half of the diagrams); skipped when `plantuml` is not installed. Every diagram
/// must render without an error image, with only PlantUML's own SVG elements, showing its
/// texts.
pub(crate) fn render_with_plantuml(pumls: &[Puml]) {
    let half = pumls.len().div_ceil(2).max(1);
    let runs: Vec<_> = std::thread::scope(|scope| {
        let handles: Vec<_> = pumls
            .chunks(half)
            .map(|chunk| scope.spawn(move || (chunk, run_plantuml(chunk))))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("plantuml thread"))
            .collect()
    });
    for (chunk, run) in runs {
        let Some((ok, svgs, stderr)) = run else {
            crate::support::skip_without_tool(false, "PlantUML (plantuml)");
            return;
        };
        assert_eq!(svgs.len(), chunk.len(), "one SVG per diagram: {stderr}");
        for (p, svg) in chunk.iter().zip(&svgs) {
            let drawn = svg_text(svg);
            assert!(
                !svg.contains("background:#000000") && !svg.contains("#33FF02"),
                "{}: PlantUML drew an error image: {drawn}",
                p.label
            );
            check_svg_tags(svg);
            let drawn = squeezed(&drawn);
            for t in &p.texts {
                assert!(
                    drawn.contains(&squeezed(t)),
                    "{}: {t:?} is not drawn as text",
                    p.label
                );
            }
        }
        assert!(ok, "plantuml -pipe failed on the hostile loops: {stderr}");
    }
}
