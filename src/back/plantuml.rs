//! PlantUML state diagrams.
//!
//! Draws the same [`Drawing`] as the Mermaid and DOT back ends, with the same conventions:
//! the start `[*]` pointing at the entry (its first gate when it is guarded); each phase a
//! state with its id as title and its objective (shortened and wrapped), access intent and,
//! in REAL/VEAL loops, role as description lines; the entry with a thick blue border;
//! approval gates as `<<choice>>` states whose edges say `approve · id` and (dashed)
//! `reject · id`; terminals as states coloured by meaning (`$end` green, `$abort` red,
//! `$handoff` amber); the shortest successful run with thick dark arrows; unreachable phases
//! dashed grey, trapped phases dashed red. Styles are PlantUML's inline state colours
//! (`#fill;line:color;line.dashed`) and arrow styles (`-[#color,dashed]->`).
//!
//! Escaping: node ids are generated (`p0`, `g0`, `t_end`), never taken from user text.
//! Every user string goes through [`escape`], which keeps spaces, letters and digits and
//! writes every other character as PlantUML's Unicode notation `<U+XXXX>`. PlantUML decodes
//! that notation only when it draws a piece of text, after the preprocessor (`!include`,
//! `%date()`, `$var`, `@enduml`), the diagram syntax (quotes, `:`, `#colour`, `<<stereotype>>`,
//! `«»` and curly quotes, which it reads as quotes and stereotypes), `~` escapes, `\n`
//! and the creole parser (`**bold**`, `<b>`, `<img:…>`, `[[link]]`) have all run, so none of
//! them ever sees a character of user text other than a letter, digit or space. The
//! numeric entities `&#NN;` that PlantUML also decodes are not used: it decodes them with
//! `Matcher.appendReplacement`, so `&#92;` (`\`) and `&#36;` (`$`) crash the renderer, and
//! it decodes them *before* the Unicode notation, so a decoded `<U+1F600>` would be decoded
//! again. After decoding, PlantUML still rewrites `~@start` to `@start` and (newer
//! versions) `\t` to a tab: an invisible word joiner ([`JOINER`]) keeps those pairs apart.
//! Output is deterministic: the same loop gives byte-identical text.

use std::fmt::Write as _;

use super::{Error, Options};
use crate::back::support::chunks::Output;
use crate::back::support::diagram::{
    DiagramEdge, DiagramNode, Drawing, EdgeKind, Gates, NodeKind, Tooltips,
};
use crate::diag::Diagnostics;
use crate::ir::{Spec, Terminal};
use crate::valid::Info;

/// Write the diagram.
pub fn write(
    spec: &Spec,
    info: &Info,
    opts: &Options,
    _diags: &mut Diagnostics,
) -> Result<String, Error> {
    Ok(Drawing::new(spec, info, Tooltips::Omitted)
        .for_agent(opts.agent.as_ref())
        .text(NODE_SYNTAX, EDGE_SYNTAX, diagram))
}

/// The diagram.
pub fn draw(spec: &Spec, info: &Info) -> String {
    Drawing::new(spec, info, Tooltips::Omitted).text(NODE_SYNTAX, EDGE_SYNTAX, diagram)
}

/// The diagram (for `opts.agent`, when given), handed to `sink` as it is written (never
/// held whole).
pub fn draw_to(
    spec: &Spec,
    info: &Info,
    opts: &Options,
    sink: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    Drawing::new(spec, info, Tooltips::Omitted)
        .for_agent(opts.agent.as_ref())
        .stream(sink, diagram)
}

/// WORD JOINER (U+2060) in Unicode notation: invisible, and written between two characters
/// of user text that PlantUML rewrites after decoding (`joined`).
pub const JOINER: &str = "<U+2060>";

/// Whether `c` followed by `next` starts a sequence that PlantUML rewrites in the decoded
/// text (so coding the characters does not help): `~@start` becomes `@start`, and `\t` a tab
/// in recent versions (`StringUtils.manageTildeArobaseStart`, `manageEscapedTabs`).
fn joined(c: char, next: Option<char>) -> bool {
    matches!((c, next), ('~', Some('@')) | ('\\', Some('t')))
}

/// Escape free text for a PlantUML state name, state description, edge label or title.
/// Spaces, letters and digits (of any script) are kept; control characters become spaces
/// (line breaks would end the line); every other character is written `<U+XXXX>`. The
/// notation takes at most five hex digits, so a character above U+FFFFF (the last
/// private-use plane) is written as its two UTF-16 surrogates: PlantUML (Java) decodes each
/// to one UTF-16 unit of its string, and the two make up the character again. An empty text
/// becomes a no-break space, so that a name is never empty.
pub fn escape(s: &str) -> String {
    if s.is_empty() {
        return "<U+00A0>".to_owned();
    }
    let mut out = String::with_capacity(s.len() * 2);
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == ' ' || c.is_alphanumeric() {
            out.push(c);
        } else if c.is_control() {
            out.push(' ');
        } else if u32::from(c) > 0xF_FFFF {
            for unit in c.encode_utf16(&mut [0; 2]) {
                let _ = write!(out, "<U+{unit:04X}>");
            }
        } else {
            let _ = write!(out, "<U+{:04X}>", u32::from(c));
        }
        if joined(c, chars.peek().copied()) {
            out.push_str(JOINER);
        }
    }
    out
}

/// Colours of the edges and small text: the palette of the Mermaid and DOT back ends (the
/// states' colours are in [`SKIN`] and [`node_style`]).
mod color {
    pub const INK: &str = "#0f172a";
    pub const SLATE: &str = "#475569";
    pub const GATE: &str = "#7c3aed";
    pub const BOUND_INK: &str = "#134e4a";
}

/// Look of the whole diagram. Choice states take no inline colour in PlantUML 1.2020, so
/// gates get theirs from the activity-diamond parameters, which they use.
const SKIN: &str = "\
hide empty description
skinparam backgroundColor #ffffff
skinparam shadowing false
skinparam state {
  BackgroundColor #f8fafc
  BorderColor #475569
  BorderThickness 1.5
  FontColor #0f172a
  FontSize 13
  AttributeFontColor #0f172a
  AttributeFontSize 11
  ArrowColor #475569
  ArrowFontColor #475569
  ArrowFontSize 10
  StartColor #0f172a
}
skinparam ActivityDiamondBackgroundColor #ede9fe
skinparam ActivityDiamondBorderColor #7c3aed
";

/// The inline style of a phase or terminal state, if it differs from the skin.
fn node_style(n: &DiagramNode) -> Option<&'static str> {
    match n.kind {
        NodeKind::Phase if n.trap => Some("#f8fafc;line:dc2626;line.dashed"),
        NodeKind::Phase if !n.reachable => Some("#f1f5f9;line:94a3b8;line.dashed;text:64748b"),
        NodeKind::Phase if n.entry && n.binding.is_some() => Some("#ccfbf1;line:1d4ed8;line.bold"),
        NodeKind::Phase if n.entry => Some("#f8fafc;line:1d4ed8;line.bold"),
        NodeKind::Phase if n.binding.is_some() => Some("#ccfbf1;line:0d9488;line.bold;text:134e4a"),
        NodeKind::Phase | NodeKind::Gate => None,
        NodeKind::Terminal(Terminal::End) => Some("#dcfce7;line:16a34a;line.bold;text:14532d"),
        NodeKind::Terminal(Terminal::Abort) => Some("#fee2e2;line:dc2626;line.bold;text:7f1d1d"),
        NodeKind::Terminal(Terminal::Handoff) => Some("#fef3c7;line:d97706;line.bold;text:78350f"),
    }
}

/// Smaller slate text (the creole markup is ours, the text is escaped).
fn small(s: &str, size: u8) -> String {
    format!(
        "<size:{size}><color:{}>{}</color></size>",
        color::SLATE,
        escape(s)
    )
}

/// `@startuml`, the skin and the title: the loop name in bold, its kind and bound below.
/// About how many bytes a state's and a transition's syntax take beside their text.
const NODE_SYNTAX: usize = 128;
const EDGE_SYNTAX: usize = 64;

fn header(d: &Drawing, out: &mut String) {
    out.push_str("@startuml\n");
    out.push_str(SKIN);
    let _ = write!(out, "title <b>{}</b>", escape(&d.title));
    if let Some(s) = &d.subtitle {
        let _ = write!(out, "\\n{}", small(s, 12));
    }
    out.push('\n');
}

fn node(n: &DiagramNode, out: &mut String) {
    if n.kind == NodeKind::Gate {
        let _ = writeln!(out, "state {} <<choice>>", n.id);
        return;
    }
    let _ = write!(out, "state \"{}\" as {}", escape(&n.title), n.id);
    if let Some(style) = node_style(n) {
        let _ = write!(out, " {style}");
    }
    out.push('\n');
    for l in &n.lines {
        let _ = writeln!(out, "{} : {}", n.id, escape(l));
    }
    for extra in [&n.access, &n.role].into_iter().flatten() {
        let _ = writeln!(out, "{} : {}", n.id, small(extra, 10));
    }
    if let Some(binding) = &n.binding {
        let _ = writeln!(
            out,
            "{} : <size:10><color:{}>{}</color></size>",
            n.id,
            color::BOUND_INK,
            escape(binding)
        );
    }
}

/// The arrow of an edge: dashed violet for a rejection, thick dark on the shortest
/// successful run, violet for an approval, plain otherwise.
fn arrow(e: &DiagramEdge) -> String {
    match (e.kind, e.success_path) {
        (EdgeKind::Reject, _) => format!("-[{},dashed]->", color::GATE),
        (_, true) => format!("-[{},thickness=3]->", color::INK),
        (EdgeKind::Approve, false) => format!("-[{}]->", color::GATE),
        (EdgeKind::Start | EdgeKind::Transition, false) => "-->".to_owned(),
    }
}

/// The label of an edge, escaped: a gate's edges carry its checkpoint id (a choice state
/// has no label of its own); a note goes on a second, smaller line.
fn edge_label(e: &DiagramEdge, gates: &Gates) -> String {
    if let Some(label) = gates.edge_label(e) {
        return escape(&label);
    }
    let mut s = escape(&e.label);
    if let Some(note) = &e.note {
        let _ = write!(s, "\\n{}", small(note, 10));
    }
    s
}

fn diagram(d: &Drawing, out: &mut Output) {
    header(d, out);
    d.for_each_node(|n| {
        node(n, out);
        out.item_written();
    });
    let gates = d.gates();
    d.for_each_edge(|e| {
        match e.kind {
            EdgeKind::Start => out.push_str("[*]"),
            _ => e.from.push_to(out),
        }
        let _ = write!(out, " {} {}", arrow(e), e.to);
        if !e.label.is_empty() {
            let _ = write!(out, " : {}", edge_label(e, &gates));
        }
        out.push('\n');
        out.item_written();
    });
    out.push_str("@enduml\n");
}

#[cfg(test)]
mod tests {
    use super::{draw, escape};
    use crate::pipeline::{LoadOptions, load};

    const HOSTILE: &[&str] = &[
        "\"quotes\" and 'single' “curly” «guillemets»",
        "**bold** //italic// \"\"mono\"\" --strike-- __under__ ~~wave~~ ~escaped",
        "<b>bold</b> <color:red>red</color> <img:http://x/y.png> <U+1F600> &#60;b&#62;",
        "[[http://x link]] \\n \\t back\\slash",
        "@startuml @enduml !include /etc/passwd !define X %date() $var ~@start",
        "<<choice>> p0 : colon #red ;semi | pipe == head ----",
        "multi\nline\r\ntext\ttab",
    ];

    #[test]
    fn escape_leaves_no_syntax() {
        for s in HOSTILE {
            let e = escape(s);
            // Outside the `<U+XXXX>` codes: only letters, digits and spaces.
            let mut rest = e.as_str();
            while let Some(i) = rest.find("<U+") {
                assert!(rest[..i].chars().all(|c| c == ' ' || c.is_alphanumeric()));
                let tail = &rest[i + 3..];
                let end = tail.find('>').unwrap_or(0);
                assert!((4..=5).contains(&end), "{e:?}");
                assert!(tail[..end].chars().all(|c| c.is_ascii_hexdigit()), "{e:?}");
                rest = &tail[end + 1..];
            }
            assert!(
                rest.chars().all(|c| c == ' ' || c.is_alphanumeric()),
                "{e:?}"
            );
        }
        assert_eq!(escape("a # b"), "a <U+0023> b");
        assert_eq!(escape("<b>"), "<U+003C>b<U+003E>");
        assert_eq!(escape("~@start"), "<U+007E><U+2060><U+0040>start");
        assert_eq!(escape("\\t"), "<U+005C><U+2060>t");
        assert_eq!(escape("«x»"), "<U+00AB>x<U+00BB>");
        assert_eq!(escape("日本語のテキスト"), "日本語のテキスト");
        assert_eq!(escape("emoji 🚀"), "emoji <U+1F680>");
        assert_eq!(escape("\u{10FFFD}"), "<U+DBFF><U+DFFD>");
        assert_eq!(escape("a\nb"), "a b");
        assert_eq!(escape(""), "<U+00A0>");
    }

    /// PlantUML's decoding of a piece of text, in its order (`AtomText`): the Unicode
    /// notation into a Java (UTF-16) string, then the rewrites of the decoded text.
    fn decode(s: &str) -> String {
        let mut units: Vec<u16> = Vec::new();
        let mut rest = s;
        while let Some(i) = rest.find("<U+") {
            units.extend(rest[..i].encode_utf16());
            let tail = &rest[i + 3..];
            let end = tail.find('>').unwrap_or(0);
            let code = u32::from_str_radix(&tail[..end], 16).unwrap_or(0xFFFD);
            let c = char::from_u32(code);
            match (u16::try_from(code), c) {
                (Ok(unit), _) => units.push(unit),
                (Err(_), Some(c)) => units.extend(c.encode_utf16(&mut [0; 2]).iter()),
                (Err(_), None) => units.push(0xFFFD),
            }
            rest = &tail[end + 1..];
        }
        units.extend(rest.encode_utf16());
        let out = String::from_utf16_lossy(&units);
        out.replace("~@start", "@start").replace("\\t", "\t")
    }

    proptest::proptest! {
        #[test]
        fn escape_round_trips_and_keeps_syntax_out(s in "\\PC*|[\"#%<>|\\\\~@&;:\\[\\]{}()*/\n a-tU+0-9«»$!-]*") {
            let e = escape(&s);
            // Only letters, digits, space and codes: nothing PlantUML parses before drawing.
            let outside = e.split("<U+").map(|p| p.split_once('>').map_or(p, |(_, r)| r));
            for part in outside.skip(1).chain(e.split("<U+").take(1)) {
                proptest::prop_assert!(
                    part.chars().all(|c| c == ' ' || c.is_alphanumeric()),
                    "{:?} -> {:?}", s, e
                );
            }
            proptest::prop_assert!(!e.contains("&#"));
            if !s.is_empty() {
                let expected: String = s.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
                let unjoined = |t: &str| t.replace('\u{2060}', "");
                proptest::prop_assert_eq!(unjoined(&decode(&e)), unjoined(&expected));
            }
        }
    }

    fn hostile_loop() -> String {
        let obj = |s: &str| serde_json::to_string(s).unwrap_or_default();
        format!(
            r#"{{
  "kind": "loop", "name": "hostile", "version": "1.0.0", "description": "d",
  "loop": {{
    "entry_phase": "first",
    "phases": [
      {{ "id": "first", "objective": {o1},
         "access": {{ "tools": false, "memory": {{ "read": true }} }},
         "outcomes": [ {{ "id": "ok", "description": "d" }}, {{ "id": "fail", "description": "d" }} ] }},
      {{ "id": "second", "objective": {o2} }}
    ],
    "transitions": [
      {{ "from": "first", "on": "ok", "to": "second" }},
      {{ "from": "first", "on": "fail", "to": "$abort" }},
      {{ "from": "second", "on": "complete", "to": "$end" }}
    ],
    "checkpoints": [
      {{ "id": "approve-it", "type": "approval", "before_phase": "second", "on_reject": "first" }}
    ]
  }}
}}"#,
            o1 = obj("@enduml !include x **b** <b>bold</b> <img:x.png> [[http://x]]"),
            o2 = obj("%date() $x back\\slash \\n 日本語 🚀 ~~w~~ «s»"),
        )
    }

    /// A VEAL loop with hostile agent names (drawn as role lines and escalation note).
    const HOSTILE_MAS: &str = r##"
name: hostile
type: VEAL
description: "d"
validator: "qa <img:x.png> **b** ~@start"
actor: "fixer \" ] ; } -> x $x"
escalation: fallback
fallback_agent: "<color:red>fb</color> %date()"
success_criteria: "# hash"
checks:
  - id: build
    type: command
    command: "echo"
"##;

    fn render(src: &str) -> String {
        let name = if src.starts_with('{') {
            "hostile.json"
        } else {
            "hostile.yaml"
        };
        let l = load(name, src.as_bytes(), &LoadOptions::default());
        let Some((spec, info)) = l.valid() else {
            panic!("invalid test loop: {:?}", l.diags);
        };
        draw(spec, info)
    }

    #[test]
    fn hostile_text_never_reaches_the_syntax() {
        for src in [hostile_loop(), HOSTILE_MAS.to_owned()] {
            let out = render(&src);
            for bad in [
                "<img",
                "<b>bold",
                "<color:red",
                "[[",
                "%date",
                "$x",
                "\\slash",
                "**b",
                "~~",
                "«",
                "!include",
                "~@",
            ] {
                assert!(!out.contains(bad), "output contains {bad:?}:\n{out}");
            }
            // Quotes only delimit our state names: two or none on every line.
            for line in out.lines() {
                assert!(matches!(line.matches('"').count(), 0 | 2), "{line}");
            }
            assert_eq!(out.matches("@enduml").count(), 1, "{out}");
            assert!(out.ends_with("@enduml\n"), "{out}");
        }
        let out = render(&hostile_loop());
        assert!(out.contains("日本語"), "{out}");
        let mas = render(HOSTILE_MAS);
        assert!(mas.contains("validator<U+003A> qa <U+003C>img"), "{mas}");
        assert!(
            mas.contains("escalation<U+003A> fallback <U+2192> <U+003C>color"),
            "{mas}"
        );
    }

    #[test]
    fn output_is_deterministic_and_ids_are_generated() {
        let src = hostile_loop();
        let s = render(&src);
        assert_eq!(s, render(&src));
        assert!(s.starts_with("@startuml\n"), "{s}");
        assert!(
            s.contains("\nstate \"first\" as p0 #f8fafc;line:1d4ed8;line.bold\n"),
            "{s}"
        );
        assert!(s.contains("\nstate g0 <<choice>>\n"), "{s}");
        assert!(
            s.contains("\nstate \"<U+0024>end\" as t_end #dcfce7;line:16a34a"),
            "{s}"
        );
        assert!(s.contains("\n[*] -[#0f172a,thickness=3]-> p0\n"), "{s}");
        assert!(
            s.contains("\ng0 -[#7c3aed,dashed]-> p0 : reject <U+00B7> approve<U+002D>it\n"),
            "{s}"
        );
        assert!(s.contains("\np0 --> t_abort : fail\n"), "{s}");
        assert!(
            s.contains("p0 : <size:10><color:#475569>no tools <U+00B7> mem r</color></size>"),
            "{s}"
        );
    }
}
