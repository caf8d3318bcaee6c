//! Mermaid diagrams: `flowchart TD` (the default) or `stateDiagram-v2`.
//!
//! Both styles draw the [`Drawing`] made from the IR and [`Info`]:
//!
//! * a start marker pointing at the entry (its first gate when it is guarded);
//! * each phase with its id, its objective (shortened and wrapped), its access intent and,
//!   in REAL/VEAL loops, its role; terminals as distinct shapes coloured by meaning
//!   (`$end` green double circle, `$abort` red circle, `$handoff` amber flag);
//! * approval gates (hexagons; `<<choice>>` states in the state style) on the way into
//!   their phase, with an `approve` edge and a dashed `reject` edge;
//! * every transition labelled with its outcome; the shortest successful run is drawn
//!   with thick arrows, unreachable phases dashed grey, trapped phases with a red border.
//!
//! Escaping: node ids are generated (`p0`, `g0`, `t_end`), never taken from user text.
//! Every user string goes through [`escape`], which turns each ASCII character other than
//! letters, digits, space and `.,-_/()+=!?'@` into a Mermaid entity code (`#35;`,
//! `#quot;`-style numeric codes). Mermaid decodes those only after parsing, into HTML
//! entities, so `<img src=x onerror=alert(1)>` is drawn as text and can never become
//! markup, and `-->`, `|`, `%%`, `end` or `classDef` can never be read as syntax. Mermaid
//! then sanitises each label (which turns the codes of harmless characters back into the
//! characters) and rewrites a few sequences of the result (`$$` math, `fa:fa-` icons,
//! `\n`, its entity placeholders): a word joiner keeps those apart ([`JOINER`]).
//! Output is deterministic: the same loop gives byte-identical text.

use std::fmt::Write as _;

use super::{Error, Options};
use crate::back::support::chunks::Output;
use crate::back::support::diagram::{
    DiagramEdge, DiagramNode, Drawing, EdgeKind, Gates, NodeId, NodeKind, NodeMark, START_ID, Text,
    Tooltips,
};
use crate::diag::Diagnostics;
use crate::ir::{Spec, Terminal};
use crate::text::escape_runs;
use crate::valid::Info;

crate::format::enum_with_all! {
/// Diagram style.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Style {
    /// `flowchart TD`.
    #[default]
    Flowchart,
    /// `stateDiagram-v2`.
    State,
}
    /// Every style, in the order declared (the command line's `--style` values).
    const ALL;
}

impl Style {
    /// The name on the command line (`graph --style`).
    pub fn name(self) -> &'static str {
        match self {
            Style::Flowchart => "flowchart",
            Style::State => "state",
        }
    }
}

/// Write the diagram in the style of `opts.style`.
pub fn write(
    spec: &Spec,
    info: &Info,
    opts: &Options,
    _diags: &mut Diagnostics,
) -> Result<String, Error> {
    let d = Drawing::new(spec, info, Tooltips::Omitted).for_agent(opts.agent.as_ref());
    let style = opts.style;
    Ok(d.text(NODE_SYNTAX, EDGE_SYNTAX, |d, out| draw_into(d, style, out)))
}

/// The diagram in a style.
pub fn draw(spec: &Spec, info: &Info, style: Style) -> String {
    let d = Drawing::new(spec, info, Tooltips::Omitted);
    d.text(NODE_SYNTAX, EDGE_SYNTAX, |d, out| draw_into(d, style, out))
}

/// The diagram in the style of `opts.style` (for `opts.agent`, when given), handed to
/// `sink` as it is written (never held whole).
pub fn draw_to(
    spec: &Spec,
    info: &Info,
    opts: &Options,
    sink: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let d = Drawing::new(spec, info, Tooltips::Omitted).for_agent(opts.agent.as_ref());
    d.stream(sink, |d, out| draw_into(d, opts.style, out))
}

fn draw_into(d: &Drawing, style: Style, out: &mut Output) {
    match style {
        Style::Flowchart => flowchart(d, out),
        Style::State => state(d, out),
    }
}

/// WORD JOINER (U+2060): invisible, and written between two characters of user text that
/// Mermaid would otherwise read as one of its text-level syntaxes (`joined`).
pub const JOINER: char = '\u{2060}';

/// Whether `c` followed by `next` starts a sequence that Mermaid rewrites in the *decoded*
/// text of a label, after sanitising it (so after entity codes are gone, and coding the
/// characters does not help): `$$…$$` becomes KaTeX math, `fa:fa-car` an icon element
/// (`<i class="fa fa-car">`), `\n` a line break, and its entity placeholders `ﬂ°°60¶ß` /
/// `ﬂ°lt¶ß` entities (`&#60;`). Rendering showed each of them with mermaid-cli 12.
fn joined(c: char, next: Option<char>) -> bool {
    matches!(
        (c, next),
        ('$', Some('$'))
            | (':', Some('f'))
            | ('\\', Some('n'))
            | ('ﬂ', Some('°'))
            | ('¶', Some('ß'))
    )
}

/// Escape free text for any Mermaid label, edge label, state description or
/// accessibility text. An empty text becomes a no-break space, so that a label is never
/// empty.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    escape_into(&mut out, s);
    out
}

/// [`escape`], appended to `out`: runs of letters, digits and safe punctuation are copied
/// whole, every other character is looked at on its own.
pub fn escape_into(out: &mut String, s: &str) {
    if s.is_empty() {
        out.push_str("#160;");
        return;
    }
    escape_runs(
        out,
        s,
        |b| !is_safe(b),
        |out, c, next| {
            escape_char(out, c);
            if joined(c, next) {
                out.push(JOINER);
            }
        },
    );
}

/// The ASCII characters written as they are: letters, digits, space and
/// `.,-_/()+=!?'@`.
fn is_safe(b: u8) -> bool {
    b.is_ascii_alphanumeric()
        || matches!(
            b,
            b' ' | b'.'
                | b','
                | b'-'
                | b'_'
                | b'/'
                | b'('
                | b')'
                | b'+'
                | b'='
                | b'!'
                | b'?'
                | b'\''
                | b'@'
        )
}

/// One character that [`is_safe`] does not pass: other ASCII characters (and `°`, `¶`,
/// `ß`, which make up Mermaid's internal entity placeholders `fl°°` and `¶ß`, so that user
/// text can never forge one) as entity codes, control characters as spaces, the rest as
/// they are.
fn escape_char(out: &mut String, c: char) {
    let coded = c.is_ascii() || matches!(c, '°' | '¶' | 'ß');
    if c.is_control() {
        out.push(' ');
    } else if !coded {
        out.push(c);
    } else {
        out.push('#');
        crate::text::push_decimal(out, u32::from(c) as usize);
        out.push(';');
    }
}

/// The front-matter title as a double-quoted YAML scalar. Mermaid draws it as plain text
/// but decodes no entity codes there, so instead of escaping, every character outside
/// letters, digits, space and `.,-_/()+=!?'@·:` is dropped (the exact text is in
/// `accTitle`). This keeps markup characters out of the diagram source entirely.
fn yaml_title(s: &str) -> String {
    let kept: String = s
        .chars()
        .map(|c| {
            let ok = c.is_alphanumeric()
                || matches!(
                    c,
                    ' ' | '.'
                        | ','
                        | '-'
                        | '_'
                        | '/'
                        | '('
                        | ')'
                        | '+'
                        | '='
                        | '!'
                        | '?'
                        | '\''
                        | '@'
                        | '·'
                        | ':'
                );
            if ok { c } else { ' ' }
        })
        .collect();
    format!("\"{}\"", crate::text::clean(&kept))
}

/// Colours: one palette for both styles and for the DOT back end's conventions.
const CLASS_DEFS: &[(&str, &str)] = &[
    (
        "phase",
        "fill:#f8fafc,stroke:#475569,stroke-width:1.5px,color:#0f172a",
    ),
    (
        "bound",
        "fill:#ccfbf1,stroke:#0d9488,stroke-width:2.5px,color:#134e4a",
    ),
    ("entry", "stroke:#1d4ed8,stroke-width:3px"),
    (
        "gate",
        "fill:#ede9fe,stroke:#7c3aed,stroke-width:1.5px,color:#3b0764",
    ),
    (
        "success",
        "fill:#dcfce7,stroke:#16a34a,stroke-width:2px,color:#14532d",
    ),
    (
        "failure",
        "fill:#fee2e2,stroke:#dc2626,stroke-width:2px,color:#7f1d1d",
    ),
    (
        "handoff",
        "fill:#fef3c7,stroke:#d97706,stroke-width:2px,color:#78350f",
    ),
    (
        "start",
        "fill:#0f172a,stroke:#0f172a,color:#ffffff,font-size:11px",
    ),
    (
        "unreachable",
        "fill:#f1f5f9,stroke:#94a3b8,stroke-dasharray:5 4,color:#64748b",
    ),
    (
        "trap",
        "stroke:#dc2626,stroke-width:2.5px,stroke-dasharray:6 3",
    ),
];

/// The [`CLASS_DEFS`] of a node, most general first (later class definitions win), as
/// bits: bit `k` for `CLASS_DEFS[k]`.
fn class_bits(n: &NodeMark) -> u16 {
    let kind = match n.kind {
        NodeKind::Phase => "phase",
        NodeKind::Gate => "gate",
        NodeKind::Terminal(Terminal::End) => "success",
        NodeKind::Terminal(Terminal::Abort) => "failure",
        NodeKind::Terminal(Terminal::Handoff) => "handoff",
    };
    let unreachable = !n.reachable && !matches!(n.kind, NodeKind::Terminal(_));
    [
        Some(kind),
        n.bound.then_some("bound"),
        n.entry.then_some("entry"),
        unreachable.then_some("unreachable"),
        n.trap.then_some("trap"),
    ]
    .into_iter()
    .flatten()
    .map(class_bit)
    .fold(0, |bits, b| bits | b)
}

/// The bit of a class of [`CLASS_DEFS`].
fn class_bit(name: &str) -> u16 {
    CLASS_DEFS
        .iter()
        .position(|(c, _)| *c == name)
        .map_or(0, |k| 1 << k)
}

fn header(d: &Drawing, kind: &str, out: &mut String) {
    let title = match &d.subtitle {
        Some(s) => format!("{} · {}", d.title, s),
        None => d.title.to_string(),
    };
    // Mermaid wraps flowchart HTML labels at 200px by default, which would re-wrap the
    // lines already wrapped here; a wider wrapping width keeps them as written. (A state
    // diagram has no such setting: its front matter is the title only.)
    let config = if kind.starts_with("flowchart") {
        "config:\n  flowchart:\n    wrappingWidth: 400\n"
    } else {
        ""
    };
    let _ = writeln!(
        out,
        "---\ntitle: {}\n{config}---\n{kind}",
        yaml_title(&title)
    );
    let _ = writeln!(out, "  accTitle: {}", escape(&title));
    if let Some(desc) = &d.description {
        let _ = writeln!(out, "  accDescr: {}", escape(desc));
    }
}

/// `class a,b name` lines, one per class used, in [`CLASS_DEFS`] order, for the nodes that
/// `styled` selects (and the start marker when `with_start`).
fn class_lines(
    d: &Drawing,
    with_start: bool,
    styled: impl Fn(&NodeMark) -> bool,
    out: &mut String,
) {
    let mut bits: Vec<(NodeId, u16)> = Vec::with_capacity(d.nodes_at_most());
    d.for_each_mark(|m| {
        if styled(&m) {
            bits.push((m.id, class_bits(&m)));
        }
    });
    for (k, (name, style)) in CLASS_DEFS.iter().enumerate() {
        let mut ids = bits
            .iter()
            .filter(|(_, b)| b & (1 << k) != 0)
            .map(|(id, _)| *id)
            .peekable();
        let start = *name == "start" && with_start && d.start.is_some();
        if ids.peek().is_none() && !start {
            continue;
        }
        let _ = write!(out, "  classDef {name} {style}\n  class ");
        let mut first = true;
        for id in ids.chain(start.then_some(NodeId::Start)) {
            if !first {
                out.push(',');
            }
            first = false;
            id.push_to(out);
        }
        let _ = writeln!(out, " {name}");
    }
}

/// The HTML label of a flowchart node (markup is ours, text is escaped).
fn push_node_label(out: &mut String, n: &DiagramNode) {
    let (open, close) = match n.kind {
        NodeKind::Gate => ("<small>", "</small>"),
        NodeKind::Phase | NodeKind::Terminal(_) => ("<b>", "</b>"),
    };
    out.push_str(open);
    escape_into(out, &n.title);
    out.push_str(close);
    for l in &n.lines {
        out.push_str("<br/>");
        escape_into(out, l);
    }
    if n.kind == NodeKind::Phase {
        for extra in n.extras() {
            out.push_str("<br/><small>");
            escape_into(out, extra);
            out.push_str("</small>");
        }
    }
}

/// About how many bytes a node's and an edge's syntax take, beside their text.
const NODE_SYNTAX: usize = 64;
const EDGE_SYNTAX: usize = 32;

fn flowchart(d: &Drawing, out: &mut Output) {
    header(d, "flowchart TD", out);
    if d.start.is_some() {
        let _ = writeln!(out, "  {START_ID}((\"start\"))");
    }
    d.write_nodes(out, NODE_SYNTAX, flowchart_node);
    d.write_edges(out, EDGE_SYNTAX, flowchart_edge);
    class_lines(d, true, |_| true, out);
}

fn flowchart_node(n: &DiagramNode, out: &mut String) {
    let (open, close) = match n.kind {
        NodeKind::Phase => ("(", ")"),
        NodeKind::Gate => ("{{", "}}"),
        NodeKind::Terminal(Terminal::End) => ("(((", ")))"),
        NodeKind::Terminal(Terminal::Abort) => ("((", "))"),
        NodeKind::Terminal(Terminal::Handoff) => (">", "]"),
    };
    out.push_str("  ");
    n.id.push_to(out);
    out.push_str(open);
    out.push('"');
    push_node_label(out, n);
    out.push('"');
    out.push_str(close);
    out.push('\n');
}

fn flowchart_edge(e: &DiagramEdge, out: &mut String) {
    let arrow = match (e.kind, e.success_path) {
        (EdgeKind::Reject, _) => " -.->",
        (_, true) => " ==>",
        (_, false) => " -->",
    };
    out.push_str("  ");
    e.from.push_to(out);
    out.push_str(arrow);
    if !e.label.is_empty() {
        out.push_str("|\"");
        escape_into(out, &e.label);
        if let Some(note) = &e.note {
            out.push_str("<br/><small>");
            escape_into(out, note);
            out.push_str("</small>");
        }
        out.push_str("\"|");
    }
    out.push(' ');
    e.to.push_to(out);
    out.push('\n');
}

fn state(d: &Drawing, out: &mut Output) {
    header(d, "stateDiagram-v2", out);
    let _ = writeln!(out, "  direction TB");
    d.write_nodes(out, NODE_SYNTAX, state_node);
    let gates = d.gates();
    d.write_edges(out, EDGE_SYNTAX, |e, out| state_edge(e, &gates, out));
    // Choice states take no classes; give the others theirs.
    class_lines(d, false, |n| n.kind != NodeKind::Gate, out);
}

fn state_node(n: &DiagramNode, out: &mut String) {
    if n.kind == NodeKind::Gate {
        out.push_str("  state ");
        n.id.push_to(out);
        out.push_str(" <<choice>>\n");
        return;
    }
    out.push_str("  state \"");
    escape_into(out, &n.title);
    out.push_str("\" as ");
    n.id.push_to(out);
    out.push('\n');
    for l in n.lines.iter().map(|l| l.as_ref()).chain(n.extras()) {
        out.push_str("  ");
        n.id.push_to(out);
        out.push_str(" : ");
        escape_into(out, l);
        out.push('\n');
    }
}

fn state_edge(e: &DiagramEdge, gates: &Gates, out: &mut String) {
    let label: Text = match (gates.edge_label(e), &e.note) {
        (Some(label), _) => Text::Owned(label),
        (None, Some(note)) => Text::Owned(format!("{} · {}", e.label, note)),
        (None, None) => Text::Borrowed(&e.label),
    };
    out.push_str("  ");
    match e.kind {
        EdgeKind::Start => out.push_str("[*]"),
        _ => e.from.push_to(out),
    }
    out.push_str(" --> ");
    e.to.push_to(out);
    if !label.is_empty() {
        out.push_str(" : ");
        escape_into(out, &label);
    }
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::{JOINER, Style, draw, escape, yaml_title};
    use crate::pipeline::{LoadOptions, load};

    /// `Style::ALL` and `Style::name` are the command line's `--style` values, in its order.
    #[cfg(feature = "cli")]
    #[test]
    fn every_style_is_named_as_the_command_line_names_it() {
        use clap::ValueEnum as _;
        let clap: Vec<(Style, String)> = (Style::value_variants().iter())
            .map(|&s| {
                (
                    s,
                    s.to_possible_value()
                        .expect("a value")
                        .get_name()
                        .to_owned(),
                )
            })
            .collect();
        let ours: Vec<(Style, String)> = Style::ALL.map(|s| (s, s.name().to_owned())).to_vec();
        assert_eq!(ours, clap);
    }

    const HOSTILE: &[&str] = &[
        "\"quotes\" and 'single'",
        "[brackets] {braces} (parens)",
        "# hash %% comment --> arrow | pipe",
        "<b>bold</b> <img src=x onerror=alert(1)> <script>alert(1)</script>",
        "back\\slash",
        "multi\nline\r\ntext",
        "{{ template }} {% raw %}",
        "&amp; &lt; entities",
        "`code`",
        "end",
        "subgraph",
        "style",
        "classDef",
        ";semi:colon~tilde*star$dollar$$x$$",
        "fl°°60¶ß forged placeholder",
    ];

    #[test]
    fn escape_leaves_no_syntax() {
        for s in HOSTILE {
            let e = escape(s);
            for bad in [
                '"', '<', '>', '[', ']', '{', '}', '|', '%', '`', '\\', '\n', '\r', '&', ';', ':',
                '$', '~', '*', '°', '¶', 'ß',
            ] {
                let stray = e.match_indices(bad).any(|(i, _)| {
                    !(bad == ';'
                        && e[..i]
                            .rsplit('#')
                            .next()
                            .is_some_and(|c| c.chars().all(|c| c.is_ascii_digit())))
                });
                assert!(!stray, "{s:?} -> {e:?} keeps {bad:?}");
            }
            // Every `#` starts an entity code.
            for (i, _) in e.match_indices('#') {
                let rest = &e[i + 1..];
                let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
                assert!(
                    !digits.is_empty() && rest[digits.len()..].starts_with(';'),
                    "{e:?}"
                );
            }
        }
        assert_eq!(escape("a # b"), "a #35; b");
        assert_eq!(escape("C:\\new \\n"), "C#58;#92;\u{2060}new #92;\u{2060}n");
        assert_eq!(escape("$$x$$"), "#36;\u{2060}#36;x#36;\u{2060}#36;");
        assert_eq!(escape("fa:fa-car"), "fa#58;\u{2060}fa-car");
        assert_eq!(escape("ﬂ°°60¶ß"), "ﬂ\u{2060}#176;#176;60#182;\u{2060}#223;");
        assert_eq!(escape("<img>"), "#60;img#62;");
        assert_eq!(escape("日本語のテキスト"), "日本語のテキスト");
        assert_eq!(escape("مرحبا بالعالم"), "مرحبا بالعالم");
        assert_eq!(escape("emoji 🚀🔥"), "emoji 🚀🔥");
        assert_eq!(escape(""), "#160;");
    }

    /// Mermaid's decoding of entity codes, for the round trip below.
    fn decode(s: &str) -> String {
        let mut out = String::new();
        let mut rest = s;
        while let Some(i) = rest.find('#') {
            out.push_str(&rest[..i]);
            let tail = &rest[i + 1..];
            let end = tail.find(';').unwrap_or(0);
            let code: u32 = tail[..end].parse().unwrap_or(0);
            out.push(char::from_u32(code).unwrap_or('\u{FFFD}'));
            rest = &tail[end + 1..];
        }
        out.push_str(rest);
        out
    }

    proptest::proptest! {
        #[test]
        fn escape_round_trips_and_keeps_syntax_out(s in "\\PC*|[\"#%<>|\\\\`&;:\\[\\]{}()\n a-z°¶ßﬂ$-]*") {
            let e = escape(&s);
            // Only letters, digits, space, entity codes and harmless punctuation.
            for c in e.chars() {
                proptest::prop_assert!(
                    !c.is_ascii() || c.is_ascii_alphanumeric() || " .,-_/()+=!?'@#;".contains(c),
                    "{:?} -> {:?}", s, e
                );
            }
            let expected: String = s.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
            if !s.is_empty() {
                // Word joiners apart (inserted, and never needed where the text has one).
                let unjoined = |t: &str| t.replace(JOINER, "");
                proptest::prop_assert_eq!(unjoined(&decode(&e)), unjoined(&expected));
                // What Mermaid rewrites after decoding never appears.
                let d = decode(&e);
                for bad in ["$$", ":f", "\\n", "ﬂ°", "¶ß"] {
                    proptest::prop_assert!(!d.contains(bad), "{:?} -> {:?}", s, e);
                }
            }
        }
    }

    #[test]
    fn yaml_title_is_quoted_and_plain() {
        assert_eq!(yaml_title("a \"b\" \\ c\nd <img> é"), "\"a b c d img é\"");
    }

    fn hostile_loop() -> String {
        let obj = |s: &str| serde_json::to_string(s).unwrap_or_default();
        let long = "long ".repeat(100);
        format!(
            r#"{{
  "kind": "loop", "name": "hostile", "version": "1.0.0",
  "description": {desc},
  "loop": {{
    "entry_phase": "first",
    "phases": [
      {{ "id": "first", "objective": {o1},
         "access": {{ "tools": false, "memory": {{ "read": true }} }},
         "outcomes": [
           {{ "id": "ok", "description": {o2} }},
           {{ "id": "end", "description": {o3} }},
           {{ "id": "subgraph", "description": "x" }}
         ] }},
      {{ "id": "second", "objective": {o4} }}
    ],
    "transitions": [
      {{ "from": "first", "on": "ok", "to": "second" }},
      {{ "from": "first", "on": "end", "to": "$abort" }},
      {{ "from": "first", "on": "subgraph", "to": "$handoff" }},
      {{ "from": "second", "on": "complete", "to": "$end" }}
    ],
    "checkpoints": [
      {{ "id": "approve-it", "type": "approval", "before_phase": "second", "on_reject": "first" }}
    ]
  }}
}}"#,
            desc = obj("# hash %% comment --> arrow | pipe"),
            o1 = obj("<b>bold</b> <img src=x onerror=alert(1)> <script>alert(1)</script>"),
            o2 = obj("\"quotes\" and 'single' [brackets] {braces}"),
            o3 = obj(&long),
            o4 = obj("back\\slash\nmulti-line 日本語 🚀 `code` end classDef"),
        )
    }

    fn render(src: &str, style: Style) -> String {
        let l = load("hostile.json", src.as_bytes(), &LoadOptions::default());
        let Some((spec, info)) = l.valid() else {
            panic!("invalid test loop: {:?}", l.diags);
        };
        draw(spec, info, style)
    }

    #[test]
    fn hostile_text_never_reaches_the_syntax() {
        let src = hostile_loop();
        for style in [Style::Flowchart, Style::State] {
            let out = render(&src, style);
            for bad in ["<img", "<script", "onerror=alert(1)>", "%%", "\\"] {
                assert!(
                    !out.contains(bad),
                    "{style:?} output contains {bad:?}:\n{out}"
                );
            }
            // Quotes only delimit our own labels: an even number on every line.
            for line in out.lines() {
                assert_eq!(line.matches('"').count() % 2, 0, "{line}");
            }
            assert!(out.contains("日本語"), "{out}");
        }
    }

    #[test]
    fn output_is_deterministic_and_ids_are_generated() {
        let src = hostile_loop();
        for style in [Style::Flowchart, Style::State] {
            let a = render(&src, style);
            let b = render(&src, style);
            assert_eq!(a, b);
        }
        let f = render(&src, Style::Flowchart);
        assert!(f.contains("  p0(\"<b>first</b>"), "{f}");
        assert!(
            f.contains("  g0{{\"<small>approval</small><br/>approve-it\"}}"),
            "{f}"
        );
        assert!(
            f.contains("  t_end(((\"<b>#36;end</b><br/>success\")))"),
            "{f}"
        );
        assert!(f.contains("  g0 -.->|\"reject\"| p0"), "{f}");
        assert!(f.contains("  start ==> p0"), "{f}");
        assert!(f.contains("<small>no tools · mem r</small>"), "{f}");
        let s = render(&src, Style::State);
        assert!(s.contains("  state g0 <<choice>>"), "{s}");
        assert!(s.contains("  [*] --> p0"), "{s}");
    }
}
