//! Markup safety (issue 4, item 5): hostile strings in every free-text field are drawn and
//! written as literal text by every back end, and user text is never evaluated by minijinja.
//!
//! * [`HOSTILE`] is the corpus, in one place: Mermaid, DOT and PlantUML syntax, HTML and
//!   script tags, Markdown table/link/heading syntax, template syntax (`{{ }}`, `{% %}`),
//!   YAML and JSON look-alikes, control characters, bidirectional controls, zero-width
//!   characters, noncharacters, non-Latin scripts and emoji; [`long_string`] adds a 100 KB
//!   string.
//! * For each string, three loops hold it in **every** free-text field at once (an AgentPM
//!   manifest, a VEAL and a REAL multi-agent-spec loop; see [`agentpm_matrix`] and
//!   [`mas_matrix`]). Each loop is read through `loopconv::load` and sent through
//!   every back end:
//!   - Mermaid (both styles): every line has one of the forms the writer emits, user text
//!     inside labels is only letters, digits, harmless punctuation and `#NN;` entity codes,
//!     and every label decodes back to the (cleaned, shortened) original;
//!   - DOT: a small tokenizer accepts the whole output (quoted strings with only `\"` and
//!     `\\` escapes and `&amp;` as the only entity; HTML-like labels with only the writer's
//!     tags and escaped text); labels and tooltips decode back to the original; and, when
//!     `dot` is installed, Graphviz renders every output without a warning;
//!   - PlantUML: every line has one of the forms the writer emits, user text is only
//!     letters, digits, spaces and `<U+XXXX>` codes, and every label decodes back to the
//!     original; when `plantuml` is installed, PlantUML renders every output without an
//!     error, and each title, state text and edge label is drawn as text in the SVG;
//!   - Markdown: parsed with pulldown-cmark, the page has exactly the block and inline
//!     structure of the same loop with harmless text (no HTML, link, image, heading, list,
//!     emphasis... from user text), every field reads as written, and the template was not
//!     evaluated (`{{ 7*7 }}` is not `49`, `range(3)` is not expanded);
//!   - AgentPM, MAS and IR: the output read back holds the exact strings;
//!   - terminal diagnostics (`render_human`) of loops made invalid around the hostile text
//!     hold no control character other than newline.
//! * The committed examples in `examples/hostile/` (rendered by `scripts/conformance.sh`
//!   through the real Graphviz, Mermaid and PlantUML) are generated from the same corpus by
//!   [`hostile_examples_are_up_to_date`]; regenerate them with
//!   `LOOPCONV_BLESS=1 cargo test --test markup_safety` and commit the diff.

mod common;

use std::collections::BTreeMap;

use loopconv::back::support::diagram::{self, Diagram, NodeKind};
use loopconv::back::{self, dot, markdown, mermaid, plantuml};
use loopconv::diag::{self, Severity};
use loopconv::ir::Spec;
use loopconv::model::agentpm as am;
use loopconv::model::mas as mm;
use loopconv::valid::Info;
use loopconv::{Format, LoadOptions, Loaded};
use serde_json::{Value, json};

// ---------------------------------------------------------------------------------------
// The corpus.

/// Hostile strings, by category. Control characters, bidirectional marks and other
/// invisible characters are written as escapes; [`hostile`] adds the string of every C0
/// control character and the 100 KB string.
pub const HOSTILE: &[(&str, &str)] = &[
    // Mermaid syntax: arrows, comments, class and style statements, links, directives,
    // entity codes, line injection, Mermaid's own entity placeholders.
    ("mermaid", "-->"),
    ("mermaid", "---"),
    ("mermaid", "%% comment"),
    ("mermaid", "a:::hot"),
    ("mermaid", "[*] --> p0"),
    ("mermaid", "end"),
    ("mermaid", "subgraph x"),
    ("mermaid", "classDef x fill:red"),
    ("mermaid", "style p0 fill:#f00,stroke-width:9px"),
    ("mermaid", "click p0 href \"javascript:alert(1)\""),
    ("mermaid", "state x <<choice>>"),
    ("mermaid", "#35; #quot; #60;b#62;"),
    ("mermaid", "%%{init: {\"securityLevel\": \"loose\"}}%%"),
    ("mermaid", "x\"]) --> evil((\"y"),
    ("mermaid", "ok\n  click p0 call alert(1)\n  p0 --> p1"),
    ("mermaid", "a|\"b\"|c --x d o--o e"),
    ("mermaid", "`**markdown string**`"),
    ("mermaid", "fa:fa-car <br/> <br>"),
    ("mermaid", "note right of p0 : x"),
    ("mermaid", "accTitle: x\naccDescr { y }"),
    ("mermaid", "fl°°60¶ß ﬂ°°60¶ß"),
    ("mermaid", "C:\\new\\table \\n"),
    // DOT syntax: breaking out of a quoted string, escapes Graphviz expands, HTML-like
    // labels, entities Graphviz decodes, braces, edges, comments.
    ("dot", "\"; node [shape=box]; \""),
    ("dot", "\\\""),
    ("dot", "\\\\"),
    ("dot", "trailing backslash \\"),
    ("dot", "<<b>x</b>>"),
    ("dot", "}"),
    ("dot", "{"),
    ("dot", "a -> b; c -- d"),
    ("dot", "]; x [label=<<I>hi</I>>]; y ["),
    ("dot", "\\N \\G \\E \\T \\H \\L \\l \\r"),
    ("dot", "<TABLE><TR><TD>cell</TD></TR></TABLE>"),
    ("dot", "&amp; &lt; &#60;b&#62; &#x3c; &nbsp;"),
    ("dot", "digraph G { a -> b }"),
    ("dot", "/* comment */ // comment\n# comment"),
    // PlantUML syntax: diagram delimiters, preprocessor directives and functions, creole,
    // its HTML-like tags, sprites, icons and emoji, the Unicode notation and entities it
    // decodes (`&#92;` and `&#36;` used to crash it), links, escapes, line breaks,
    // stereotypes and the characters it reads as quotes, state syntax, colours and arrow
    // styles, comments, sub-diagrams, its private-use marker characters.
    ("plantuml", "@startuml\n@enduml"),
    ("plantuml", "@enduml @startuml x"),
    ("plantuml", "!include /etc/passwd"),
    ("plantuml", "!define X Y !$v = 1 $v !pragma layout smetana"),
    ("plantuml", "%date() %version() %getenv(\"HOME\")"),
    (
        "plantuml",
        "**bold** //italic// \"\"mono\"\" --strike-- __under__ ~~wave~~",
    ),
    ("plantuml", "~**not bold** ~~ ~@startuml ~@start"),
    (
        "plantuml",
        "<b>b</b> <color:red>red</color> <size:40>big</size> <back:red>bg</back> <u>u</u>",
    ),
    (
        "plantuml",
        "<img:http://evil.example/x.png> <$sprite> <&star> <:1f600:> <:smile:>",
    ),
    ("plantuml", "<U+1F600> &#128512; &#92; &#36; &lt;b&gt;"),
    ("plantuml", "[[http://evil.example link]] [[{tip} x]]"),
    ("plantuml", "a\\nb \\t tab \\l \\r \\\\ end\\"),
    (
        "plantuml",
        "<<choice>> \u{ab}stereo\u{bb} \u{201c}curly\u{201d} \u{2018}single\u{2019}",
    ),
    ("plantuml", "p0 : desc\np0 --> p1 : x\n[*] --> p0"),
    (
        "plantuml",
        "#red;line:blue;line.dashed -[#red,dashed]-> [*]",
    ),
    ("plantuml", "state \"x\" as y {\n}"),
    ("plantuml", "== head == ---- .... |= table | * list # num"),
    ("plantuml", "' comment /' block '/"),
    ("plantuml", "{{ salt }} {{\n}}"),
    ("plantuml", "\u{e000}\u{ee00}\u{eeff}\u{e100} private"),
    // HTML and script.
    ("html", "<img src=x onerror=alert(1)>"),
    ("html", "<script>alert(1)</script>"),
    ("html", "<svg onload=alert(1)>"),
    ("html", "<a href=\"javascript:alert(1)\">x</a>"),
    ("html", "&lt;img&gt;"),
    ("html", "&#60;script&#62;"),
    ("html", "<iframe src=\"javascript:alert(1)\"></iframe>"),
    ("html", "<style>*{display:none}</style>"),
    ("html", "\"><script>alert(1)</script>"),
    ("html", "' onmouseover='alert(1)"),
    ("html", "<![CDATA[x]]> <?xml version=\"1.0\"?>"),
    ("html", "<foreignObject><div>x</div></foreignObject>"),
    ("html", "<b>bold</b> <i>it</i> <u>u</u>"),
    // Markdown: tables, links, images, headings, rules, emphasis, code, HTML comments,
    // lists, quotes, reference definitions, footnotes, math, setext headings, autolinks.
    ("markdown", "| a | b |"),
    ("markdown", "|---|---|"),
    ("markdown", "[link](javascript:alert(1))"),
    ("markdown", "![img](x)"),
    ("markdown", "# heading"),
    ("markdown", "***"),
    ("markdown", "***bold***"),
    ("markdown", "`code`"),
    ("markdown", "```"),
    ("markdown", "```js\nalert(1)\n```"),
    ("markdown", "<!-- comment -->"),
    ("markdown", "\\"),
    ("markdown", "- item\n1. item\n> quote"),
    ("markdown", "[x]: http://evil.example \"t\"\n[x]"),
    ("markdown", "footnote[^1]\n[^1]: note"),
    ("markdown", "$x^2$ $$y$$ ~~del~~ ~sub~ ^sup^"),
    ("markdown", "    indented code"),
    ("markdown", "title\n==="),
    ("markdown", "<http://evil.example>"),
    ("markdown", "- [ ] task"),
    ("markdown", "a\\|b \\| c"),
    ("markdown", "term\n: definition"),
    ("markdown", "[[wiki]]"),
    // Template syntax: minijinja expressions, statements, comments, raw blocks, and other
    // engines' syntax.
    ("template", "{{ 7*7 }}"),
    ("template", "{% for x in range(3) %}x{% endfor %}"),
    ("template", "{# c #}"),
    ("template", "{{ config }}"),
    ("template", "{% raw %}{{ name }}{% endraw %}"),
    ("template", "{% include 'loop.md.j2' %}"),
    ("template", "{{ name }} {{ phases }} {{ self }}"),
    ("template", "{%- if true -%}yes{%- endif -%}"),
    ("template", "{{"),
    ("template", "${7*7} #{7*7} <%= 7*7 %>"),
    // YAML and JSON look-alikes (the MAS and AgentPM writers must quote them).
    ("yaml", "yes"),
    ("yaml", "no"),
    ("yaml", "on"),
    ("yaml", "null"),
    ("yaml", "~"),
    ("yaml", "true"),
    ("yaml", "1e3"),
    ("yaml", "0x1F"),
    ("yaml", ".inf"),
    ("yaml", "- a"),
    ("yaml", "? q"),
    ("yaml", ": c"),
    ("yaml", "&anchor x"),
    ("yaml", "*alias"),
    ("yaml", "<<: *x"),
    ("yaml", "!!python/object:os.system"),
    ("yaml", "key: value"),
    ("yaml", " leading and trailing "),
    ("yaml", "..."),
    ("yaml", "%YAML 1.2"),
    ("yaml", "'"),
    ("yaml", "\""),
    ("yaml", "@x `y`"),
    ("yaml", "a #not a comment"),
    ("yaml", "[1, 2]"),
    ("yaml", "{a: 1}"),
    ("yaml", "line\n  indented\n\ttab"),
    // Control characters (NUL included: an escaped `\u0000` in JSON is not a NUL byte).
    ("control", "\u{0}nul"),
    ("control", "\u{7f}del"),
    ("control", "\u{1b}[31mred\u{1b}[0m"),
    ("control", "\u{1b}]0;title\u{7}"),
    ("control", "\u{1b}[2J\u{1b}[H clear"),
    ("control", "back\u{8}\u{8}\u{8}space"),
    ("control", "\u{85}nel \u{9b}31m csi"),
    ("control", "tab\there"),
    ("control", "new\nline"),
    ("control", "cr\rreturn crlf\r\n"),
    ("control", "\u{b}vt\u{c}ff"),
    // Bidirectional controls (Trojan Source).
    ("bidi", "\u{202e}evil\u{202c}"),
    ("bidi", "invoice\u{202e}fdp.exe"),
    ("bidi", "\u{200f}rlm \u{200e}lrm \u{61c}alm"),
    (
        "bidi",
        "\u{2066}lri\u{2069} \u{2067}rli\u{2069} \u{2068}fsi\u{2069}",
    ),
    (
        "bidi",
        "\u{202a}lre\u{202c} \u{202b}rle\u{202c} \u{202d}lro\u{202c}",
    ),
    (
        "bidi",
        "if level != \"user\u{202e} \u{2066}// admin\u{2069} \u{2066}\" {",
    ),
    // Zero-width and other invisible characters.
    ("zero-width", "zero\u{200b}width"),
    ("zero-width", "in\u{feff}side"),
    ("zero-width", "\u{200c}zwnj\u{200d}zwj\u{2060}wj"),
    // Non-Latin scripts, emoji, combining marks, look-alikes, separators, noncharacters.
    ("unicode", "日本語のテキスト"),
    ("unicode", "مرحبا بالعالم"),
    ("unicode", "עברית"),
    ("unicode", "emoji 🚀🔥 👨‍👩‍👧 🏳️‍🌈"),
    ("unicode", "Ελληνικά Кириллица हिन्दी"),
    ("unicode", "e\u{301}\u{301}\u{301} Z\u{335}\u{321}a\u{336}"),
    ("unicode", "＜script＞ ‹img› ≺"),
    ("unicode", "\u{2028}ls\u{2029}ps"),
    ("unicode", "\u{fffd} \u{e000} \u{10fffd}"),
    ("unicode", "\u{fffe}\u{ffff} \u{fdd0} \u{1ffff}"),
    ("unicode", "nbsp\u{a0}\u{202f}\u{3000}"),
    ("unicode", "°¶ß µ"),
];

/// Every C0 control character but newline and tab (and NUL, in [`HOSTILE`] apart).
fn c0_controls() -> String {
    let mut s = String::from("c0:");
    s.extend(
        (1u8..0x20)
            .filter(|b| !matches!(b, b'\n' | b'\t'))
            .map(char::from),
    );
    s.push_str(":end");
    s
}

/// A 100 KB (102,400 bytes at most) string cycling through the whole corpus.
pub fn long_string() -> String {
    const MAX: usize = 100 * 1024;
    let mut s = String::from("100 KB: ");
    'fill: loop {
        for (_, h) in HOSTILE {
            for c in h.chars().chain([' ']) {
                if s.len() + c.len_utf8() > MAX {
                    break 'fill;
                }
                s.push(c);
            }
        }
    }
    s
}

/// The whole corpus: (category, string).
fn hostile() -> Vec<(&'static str, String)> {
    let mut v: Vec<(&'static str, String)> =
        HOSTILE.iter().map(|(c, s)| (*c, (*s).to_owned())).collect();
    v.push(("control", c0_controls()));
    v.push(("long", long_string()));
    v
}

// ---------------------------------------------------------------------------------------
// What "literal text" means, written independently of the back ends.

/// Dropped from drawn and Markdown text: controls (whitespace controls are folded instead),
/// Unicode's default-ignorable code points but the joiners and variation selectors (the
/// bidirectional controls, zero-width space, word joiner and invisible operators, byte-order
/// mark, soft hyphen, Hangul fillers, tags, ...), the interlinear annotation controls and
/// the noncharacters.
fn invisible(c: char) -> bool {
    (c.is_control() && !c.is_whitespace())
        || matches!(
            c,
            '\u{00AD}'
                | '\u{061C}'
                | '\u{115F}'
                | '\u{1160}'
                | '\u{17B4}'
                | '\u{17B5}'
                | '\u{180E}'
                | '\u{200B}'
                | '\u{200E}'
                | '\u{200F}'
                | '\u{202A}'..='\u{202E}'
                | '\u{2060}'..='\u{206F}'
                | '\u{3164}'
                | '\u{FEFF}'
                | '\u{FFA0}'
                | '\u{FFF0}'..='\u{FFFB}'
                | '\u{1BCA0}'..='\u{1BCA3}'
                | '\u{1D173}'..='\u{1D17A}'
                | '\u{E0000}'..='\u{E00FF}'
                | '\u{E01F0}'..='\u{E0FFF}'
        )
        || (0xFDD0..=0xFDEF).contains(&u32::from(c))
        || u32::from(c) & 0xFFFE == 0xFFFE
}

fn visible(s: &str) -> String {
    let kept: String = s
        .chars()
        .filter(|&c| !invisible(c))
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    kept.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The text as it must read in Markdown: controls become spaces, the other invisible
/// characters are dropped, whitespace is folded.
fn md_visible(s: &str) -> String {
    let kept: String = s
        .chars()
        .filter(|&c| c.is_control() || !invisible(c))
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    kept.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn no_space(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

/// `shown` is `full` (whitespace apart), or a prefix of it ending with `…`.
fn assert_shortened(shown: &str, full: &str, what: &str) {
    let (s, f) = (no_space(shown), no_space(full));
    if s == f {
        return;
    }
    let cut = s.strip_suffix(diagram::ELLIPSIS);
    assert!(
        cut.is_some_and(|c| f.starts_with(c)),
        "{what}: {shown:?} is neither {full:?} nor a shortening of it"
    );
}

// ---------------------------------------------------------------------------------------
// Loops holding a hostile string in every free-text field.

fn agentpm_matrix(s: &str) -> am::Manifest {
    let outcome = |id: &str| am::Outcome {
        id: id.to_owned(),
        description: s.to_owned(),
    };
    let transition = |from: &str, on: &str, to: &str| am::Transition {
        from: from.to_owned(),
        on: on.to_owned(),
        to: to.to_owned(),
    };
    am::Manifest {
        schema: Some(s.to_owned()),
        kind: Some(am::Kind::Loop),
        name: "hostile".to_owned(),
        version: "1.0.0".to_owned(),
        description: s.to_owned(),
        readme: Some(s.to_owned()),
        license: Some(am::License {
            spdx: Some(s.to_owned()),
            file: Some(s.to_owned()),
        }),
        environment: Some(
            json!({ "vars": { "HOSTILE": { "required": true, "description": s, "default": s } } }),
        ),
        loop_: am::Loop {
            archetype: Some(s.to_owned()),
            entry_phase: "first".to_owned(),
            limits: Some(am::Limits { max_steps: Some(9) }),
            phases: vec![
                am::Phase {
                    id: "first".to_owned(),
                    objective: s.to_owned(),
                    access: Some(am::Access {
                        tools: Some(true),
                        knowledge: Some(false),
                        memory: Some(am::Memory {
                            read: Some(true),
                            write: None,
                        }),
                    }),
                    outcomes: Some(vec![outcome("ok"), outcome("stop")]),
                },
                am::Phase {
                    id: "second".to_owned(),
                    objective: s.to_owned(),
                    access: None,
                    outcomes: Some(vec![outcome("done"), outcome("escalate")]),
                },
            ],
            transitions: vec![
                transition("first", "ok", "second"),
                transition("first", "stop", "$abort"),
                transition("second", "done", "$end"),
                transition("second", "escalate", "$handoff"),
            ],
            checkpoints: Some(vec![am::Checkpoint {
                id: "approve-second".to_owned(),
                kind: am::CheckpointType::Approval,
                before_phase: "second".to_owned(),
                on_reject: "first".to_owned(),
            }]),
            error_policy: None,
        },
    }
}

fn check(id: &str, kind: mm::CheckType, s: &str) -> mm::Check {
    let when = |k: mm::CheckType| (kind == k).then(|| s.to_owned());
    mm::Check {
        id: id.to_owned(),
        description: Some(s.to_owned()),
        kind: Some(kind),
        command: when(mm::CheckType::Command),
        pattern: when(mm::CheckType::Pattern),
        files: matches!(kind, mm::CheckType::Pattern | mm::CheckType::File).then(|| s.to_owned()),
        file: when(mm::CheckType::File),
        required: Some(kind != mm::CheckType::Manual),
        expected: Some(s.to_owned()),
    }
}

fn port(s: &str, kind: mm::PortType, default: Value) -> mm::Port {
    mm::Port {
        name: s.to_owned(),
        kind: Some(kind),
        description: Some(s.to_owned()),
        required: Some(true),
        from: Some(s.to_owned()),
        schema: Some(json!({ "type": "string", "description": s, "enum": [s] })),
        default: Some(default),
    }
}

fn mas_matrix(s: &str, kind: mm::LoopType) -> mm::Loop {
    use mm::CheckType as C;
    mm::Loop {
        name: "hostile".to_owned(),
        kind,
        description: Some(s.to_owned()),
        validator: (kind == mm::LoopType::Veal).then(|| s.to_owned()),
        actor: s.to_owned(),
        mission: Some(s.to_owned()),
        max_attempts: Some(2),
        escalation: Some(mm::Escalation::Fallback),
        fallback_agent: Some(s.to_owned()),
        success_criteria: Some(s.to_owned()),
        checks: Some(vec![
            check("by-command", C::Command, s),
            check("by-pattern", C::Pattern, s),
            check("by-file", C::File, s),
            check("by-hand", C::Manual, s),
        ]),
        inputs: Some(vec![port(s, mm::PortType::String, json!(s))]),
        outputs: Some(vec![port(
            s,
            mm::PortType::Object,
            json!({ "text": s, "list": [s, 1, true, null] }),
        )]),
    }
}

/// Every free-text value of a loop, by field: what must round-trip exactly.
fn free_text(spec: &Spec) -> Vec<(String, Value)> {
    let mut v: Vec<(String, Value)> = Vec::new();
    fn put_in(v: &mut Vec<(String, Value)>, k: &str, x: Option<&String>) {
        if let Some(x) = x {
            v.push((k.to_owned(), Value::String(x.clone())));
        }
    }
    macro_rules! put {
        ($k:expr, $x:expr $(,)?) => {
            put_in(&mut v, $k, $x)
        };
    }
    put!("description", spec.description.as_ref());
    put!("archetype", spec.archetype.as_ref());
    put!("readme", spec.readme.as_ref());
    put!("$schema", spec.schema_uri.as_ref());
    if let Some(l) = &spec.license {
        put!("license.spdx", l.spdx.as_ref());
        put!("license.file", l.file.as_ref());
    }
    put!("actor", spec.roles.actor.as_ref());
    put!("validator", spec.roles.validator.as_ref());
    put!("fallback_agent", spec.roles.fallback_agent.as_ref());
    put!("mission", spec.goal.mission.as_ref());
    put!("success_criteria", spec.goal.success_criteria.as_ref());
    for (i, c) in spec.goal.checks.iter().flatten().enumerate() {
        put!(&format!("checks.{i}.description"), c.description.as_ref());
        put!(&format!("checks.{i}.command"), c.command.as_ref());
        put!(&format!("checks.{i}.pattern"), c.pattern.as_ref());
        put!(&format!("checks.{i}.files"), c.files.as_ref());
        put!(&format!("checks.{i}.file"), c.file.as_ref());
        put!(&format!("checks.{i}.expected"), c.expected.as_ref());
    }
    for (key, ports) in [
        ("inputs", &spec.goal.inputs),
        ("outputs", &spec.goal.outputs),
    ] {
        for (i, p) in ports.iter().flatten().enumerate() {
            put!(&format!("{key}.{i}.name"), Some(&p.name));
            put!(&format!("{key}.{i}.description"), p.description.as_ref());
            put!(&format!("{key}.{i}.from"), p.from.as_ref());
            if let Some(d) = &p.default {
                v.push((format!("{key}.{i}.default"), d.clone()));
            }
            if let Some(d) = &p.schema {
                v.push((format!("{key}.{i}.schema"), d.clone()));
            }
        }
    }
    if spec.source_format == Format::Agentpm {
        for (i, p) in spec.graph.phases.iter().enumerate() {
            put!(&format!("phases.{i}.objective"), Some(&p.objective));
            for (j, o) in p.outcomes.iter().flatten().enumerate() {
                put!(
                    &format!("phases.{i}.outcomes.{j}.description"),
                    Some(&o.description),
                );
            }
        }
    }
    if let Some(e) = &spec.environment {
        v.push(("environment".to_owned(), e.clone()));
    }
    v
}

/// One loop of the matrix, read through the whole front end.
struct Case {
    label: String,
    hostile: String,
    source: String,
    loaded: Loaded,
}

impl Case {
    fn new(label: String, hostile: &str, path: &str, source: String) -> Case {
        let loaded = loopconv::load(path, source.as_bytes(), &LoadOptions::default());
        Case {
            label,
            hostile: hostile.to_owned(),
            source,
            loaded,
        }
    }

    fn valid(&self) -> (&Spec, &Info) {
        let (spec, info) = self.loaded.valid().unwrap_or_else(|| {
            panic!(
                "{}: the hostile loop is not valid: {:#?}",
                self.label,
                self.loaded.diags.items()
            )
        });
        (spec, info)
    }
}

fn to_json<T: serde::Serialize>(v: &T) -> String {
    let mut s = serde_json::to_string_pretty(v).expect("serialises");
    s.push('\n');
    s
}

/// The loops of one string: AgentPM, VEAL and REAL, each with the string in every
/// free-text field. The 100 KB string only goes into the AgentPM loop (the MAS loops would
/// hold it some twenty times over; `examples/hostile/mas-100kb.yaml` has a 100 KB mission).
fn cases_for(category: &str, s: &str) -> Vec<Case> {
    let label = if s.len() > 200 {
        format!("{category} ({} bytes)", s.len())
    } else {
        format!("{category} {s:?}")
    };
    if category == "long" {
        // In four fields only: each field costs a few hundred milliseconds at this size.
        let mut m = agentpm_matrix("long");
        m.description = s.to_owned();
        m.loop_.phases[0].objective = s.to_owned();
        m.loop_.phases[1]
            .outcomes
            .iter_mut()
            .flatten()
            .for_each(|o| o.description = s.to_owned());
        m.license = Some(am::License {
            spdx: None,
            file: Some(s.to_owned()),
        });
        return vec![Case::new(
            format!("{label} AgentPM"),
            s,
            "hostile.json",
            to_json(&m),
        )];
    }
    let mut out = vec![Case::new(
        format!("{label} AgentPM"),
        s,
        "hostile.json",
        to_json(&agentpm_matrix(s)),
    )];
    for kind in [mm::LoopType::Veal, mm::LoopType::Real] {
        let l = mas_matrix(s, kind);
        // YAML through serde-saphyr (independent of loopconv's MAS writer).
        let yaml = serde_saphyr::to_string(&l).expect("MAS loop serialises");
        out.push(Case::new(
            format!("{label} {kind:?}"),
            s,
            "hostile.yaml",
            yaml,
        ));
    }
    out
}

// ---------------------------------------------------------------------------------------
// Mermaid.

/// Mermaid's decoding of the entity codes the writer emits (`#60;` -> `<`).
fn mermaid_decode(s: &str) -> String {
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
fn is_escaped_text(s: &str) -> bool {
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
                && (!invisible(c) || c == mermaid::JOINER)
                && !matches!(c, '°' | '¶' | 'ß')
        };
        if !ok {
            return false;
        }
        i += 1;
    }
    true
}

const MERMAID_TAGS: &[&str] = &["<b>", "</b>", "<br/>", "<small>", "</small>"];

/// The text pieces of a label made of escaped text and the writer's own tags.
fn label_pieces(label: &str) -> Option<Vec<String>> {
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

/// Text without word joiners (the Mermaid writer adds some; see `mermaid::JOINER`).
fn unjoined(s: &str) -> String {
    s.replace(mermaid::JOINER, "")
}

/// The drawing with every text [`unjoined`], to compare with decoded Mermaid labels.
fn without_joiners<'a>(d: &Diagram<'a>) -> Diagram<'a> {
    let mut d = d.clone();
    let u = |s: &mut String| *s = unjoined(s);
    let t = |s: &mut diagram::Text| *s = unjoined(s).into();
    t(&mut d.title);
    d.subtitle.iter_mut().for_each(u);
    d.description.iter_mut().for_each(t);
    for n in &mut d.nodes {
        t(&mut n.title);
        n.lines.iter_mut().for_each(t);
        n.access.iter_mut().for_each(u);
        n.role.iter_mut().for_each(u);
    }
    for e in &mut d.edges {
        t(&mut e.label);
        e.note.iter_mut().for_each(u);
    }
    d
}

fn is_node_id(s: &str) -> bool {
    let num = |p: &str| {
        s.strip_prefix(p)
            .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
    };
    num("p") || num("g") || matches!(s, "t_end" | "t_abort" | "t_handoff" | "start")
}

/// Check every line of a Mermaid output; returns the decoded pieces of each labelled
/// thing: `node:<id>`, `edge:<from>-<to>` (in order), `acc:title`, `acc:descr`,
/// `state:<id>` (state descriptions).
fn check_mermaid(out: &str, what: &str) -> BTreeMap<String, Vec<Vec<String>>> {
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

/// The pieces of a node label as the writer lays them out, from the [`Diagram`].
fn node_pieces(n: &diagram::DiagramNode) -> Vec<String> {
    let mut v = vec![n.title.to_string()];
    v.extend(n.lines.iter().map(|l| l.to_string()));
    if n.kind == NodeKind::Phase {
        v.extend(n.access.iter().cloned());
        v.extend(n.role.iter().cloned());
    }
    v.retain(|p| !p.is_empty());
    v
}

fn check_mermaid_both(case: &Case, spec: &Spec, info: &Info, d: &Diagram) {
    let d = &without_joiners(d);
    let title = match &d.subtitle {
        Some(s) => format!("{} · {}", d.title, s),
        None => d.title.to_string(),
    };
    for style in [mermaid::Style::Flowchart, mermaid::Style::State] {
        let what = format!("{} {style:?}", case.label);
        let out = mermaid::draw(spec, info, style);
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
                mermaid::Style::Flowchart => {
                    let got = found.get(&format!("node:{}", n.id));
                    assert_eq!(got, Some(&vec![node_pieces(n)]), "{what}: node {}", n.id);
                }
                mermaid::Style::State if n.kind != NodeKind::Gate => {
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
                mermaid::Style::State => {}
            }
        }
        // Edge labels: the outcome, and the escalation note with the fallback agent.
        for e in &d.edges {
            if e.label.is_empty() {
                continue;
            }
            let from = if style == mermaid::Style::State && e.from == diagram::NodeId::Start {
                "[*]".to_owned()
            } else {
                e.from.to_string()
            };
            let got = found
                .get(&format!("edge:{from}-{}", e.to))
                .unwrap_or_else(|| panic!("{what}: no edge {from} -> {}\n{out}", e.to));
            let gate = d.node(e.from).filter(|n| n.kind == NodeKind::Gate);
            let expected: Vec<String> = match (style, gate, &e.note) {
                (mermaid::Style::Flowchart, _, _) => [e.label.to_string()]
                    .into_iter()
                    .chain(e.note.clone())
                    .collect(),
                (mermaid::Style::State, Some(g), _) => {
                    vec![format!("{} · {}", e.label, g.lines.join(" "))]
                }
                (mermaid::Style::State, None, Some(note)) => vec![format!("{} · {note}", e.label)],
                (mermaid::Style::State, None, None) => vec![e.label.to_string()],
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

/// The drawing relates to the original text: phase labels and roles are the visible text,
/// whole or shortened.
fn check_diagram_text(case: &Case, spec: &Spec, d: &Diagram) {
    let what = &case.label;
    let s = &case.hostile;
    assert_eq!(diagram::clean(s), visible(s), "{what}: clean");
    for (i, p) in spec.graph.phases.iter().enumerate() {
        let Some(n) = d.node(diagram::NodeId::Phase(i)) else {
            continue;
        };
        assert_shortened(&n.lines.join(" "), &visible(&p.objective), what);
        if spec.source_format == Format::Agentpm
            && visible(s).chars().count() <= diagram::LINE_WIDTH
            && !visible(s).is_empty()
        {
            assert_eq!(
                n.lines.iter().map(|l| l.to_string()).collect::<Vec<_>>(),
                vec![visible(s)],
                "{what}: short objective drawn whole"
            );
        }
    }
    for (role, value) in [
        ("validator: ", &spec.roles.validator),
        ("actor: ", &spec.roles.actor),
    ] {
        let Some(v) = value else { continue };
        let shown = d
            .nodes
            .iter()
            .filter_map(|n| n.role.as_deref())
            .find_map(|r| r.strip_prefix(role))
            .unwrap_or_else(|| panic!("{what}: no {role}line"));
        assert_shortened(shown, &visible(v), what);
    }
    if let Some(f) = &spec.roles.fallback_agent {
        let note = d
            .edges
            .iter()
            .find_map(|e| e.note.as_deref())
            .and_then(|n| n.strip_prefix("escalation: fallback → "))
            .unwrap_or_else(|| panic!("{what}: no fallback note"));
        assert_shortened(note, &visible(f), what);
    }
    if let Some(desc) = &d.description {
        assert_shortened(
            desc,
            &visible(spec.description.as_deref().unwrap_or("")),
            what,
        );
    }
}

// ---------------------------------------------------------------------------------------
// DOT.

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Id(String),
    Punct(&'static str),
    /// A quoted string, decoded as Graphviz draws it.
    Str(String),
    /// An HTML-like label: the decoded text pieces.
    Html(Vec<String>),
}

const DOT_TAGS: &[&str] = &["<B>", "</B>", "<BR/>", "</FONT>"];

/// Decode the entities the writer emits in HTML-like labels; `None` on any other `&`.
fn html_decode(s: &str) -> Option<String> {
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
fn dot_tokens(out: &str, what: &str) -> Vec<Tok> {
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
fn dot_statements(toks: &[Tok], what: &str) -> Vec<(String, BTreeMap<String, Tok>)> {
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

fn check_dot(case: &Case, spec: &Spec, info: &Info, d: &Diagram) -> String {
    let what = format!("{} DOT", case.label);
    let out = dot::draw(spec, info, true);
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
fn render_with_graphviz(dots: &[(String, String)]) {
    use std::io::Write as _;
    use std::process::{Command, Stdio};
    let Ok(mut child) = Command::new("dot")
        .arg("-Tsvg")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    else {
        eprintln!("`dot` is not installed: Graphviz rendering skipped");
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
fn check_svg_tags(svg: &str) {
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

// ---------------------------------------------------------------------------------------
// PlantUML.

/// PlantUML's decoding of the Unicode notation the writer emits (`<U+003C>` -> `<`): one
/// pass, like `StringUtils.manageUnicodeNotationUplus`, into a Java (UTF-16) string, where
/// two surrogate codes make up one character above U+FFFF.
fn plantuml_decode(s: &str) -> String {
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
fn is_plantuml_text(s: &str) -> bool {
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
const PLANTUML_TAGS: &[&str] = &[
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
fn plantuml_pieces(label: &str) -> Option<Vec<String>> {
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
fn is_plantuml_arrow(a: &str) -> bool {
    a == "-->"
        || a.strip_prefix("-[")
            .and_then(|s| s.strip_suffix("]->"))
            .is_some_and(|s| {
                s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "#,=".contains(c))
            })
}

/// A skin line or inline style: only ASCII letters, digits, spaces and `#;:.{}`.
fn is_plantuml_style(s: &str) -> bool {
    s.chars()
        .all(|c| c.is_ascii_alphanumeric() || " #;:.{}".contains(c))
}

/// An edge line, `from ARROW to [: label]` between node ids: its `edge:<from>-<to>` key and
/// its label.
fn plantuml_edge(line: &str) -> Option<(String, &str)> {
    let mut words = line.splitn(3, ' ');
    let (from, arrow, rest) = (words.next()?, words.next()?, words.next()?);
    let (to, label) = rest.split_once(" : ").unwrap_or((rest, ""));
    let ok = is_plantuml_arrow(arrow) && (is_node_id(from) || from == "[*]") && is_node_id(to);
    ok.then(|| (format!("edge:{from}-{to}"), label))
}

/// Check every line of a PlantUML output; returns the decoded pieces of each labelled
/// thing: `title`, `state-title:<id>`, `state:<id>` (descriptions), `choice:<id>`,
/// `edge:<from>-<to>` (in order).
fn check_plantuml_lines(out: &str, what: &str) -> BTreeMap<String, Vec<Vec<String>>> {
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
fn plantuml_expected(d: &Diagram) -> BTreeMap<String, Vec<Vec<String>>> {
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
        let from = if e.from == diagram::NodeId::Start {
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
struct Puml {
    label: String,
    source: String,
    texts: Vec<String>,
}

fn check_plantuml(case: &Case, spec: &Spec, info: &Info, d: &Diagram) -> Puml {
    let what = format!("{} PlantUML", case.label);
    let d = &without_joiners(d);
    let out = plantuml::draw(spec, info);
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
fn svg_text(svg: &str) -> String {
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
fn squeezed(s: &str) -> String {
    s.chars()
        .filter(|&c| !c.is_whitespace() && !invisible(c) && c != '\u{2060}')
        .collect()
}

/// Run `plantuml -pipe` on some diagrams: its exit status, SVGs (one per diagram) and
/// standard error; `None` when `plantuml` is not installed.
fn run_plantuml(pumls: &[Puml]) -> Option<(bool, Vec<String>, String)> {
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
fn render_with_plantuml(pumls: &[Puml]) {
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
            eprintln!("`plantuml` is not installed: PlantUML rendering skipped");
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

// ---------------------------------------------------------------------------------------
// Markdown.

use pulldown_cmark::{Event, Options as MdOptions, Parser, Tag, TagEnd};

fn md_options() -> MdOptions {
    MdOptions::ENABLE_TABLES
        | MdOptions::ENABLE_FOOTNOTES
        | MdOptions::ENABLE_STRIKETHROUGH
        | MdOptions::ENABLE_TASKLISTS
        | MdOptions::ENABLE_MATH
        | MdOptions::ENABLE_GFM
        | MdOptions::ENABLE_DEFINITION_LIST
        | MdOptions::ENABLE_SUPERSCRIPT
        | MdOptions::ENABLE_SUBSCRIPT
        | MdOptions::ENABLE_WIKILINKS
        | MdOptions::ENABLE_HEADING_ATTRIBUTES
}

/// The structure of a page: every event but text, code, breaks and paragraphs (user text
/// decides how many paragraphs and line breaks a description has, nothing else).
fn skeleton(md: &str) -> Vec<String> {
    Parser::new_ext(md, md_options())
        .filter_map(|e| match e {
            Event::Text(_)
            | Event::Code(_)
            | Event::HardBreak
            | Event::SoftBreak
            | Event::Start(Tag::Paragraph)
            | Event::End(TagEnd::Paragraph) => None,
            Event::Start(Tag::CodeBlock(k)) => Some(format!("code block {k:?}")),
            Event::Start(Tag::Heading { level, .. }) => Some(format!("heading {level:?}")),
            other => Some(format!("{other:?}")),
        })
        .collect()
}

/// The text a reader sees, whitespace folded, with block and cell boundaries as spaces;
/// the Mermaid code block is left out.
fn md_text(md: &str) -> String {
    let mut s = String::new();
    let mut in_code_block = false;
    for e in Parser::new_ext(md, md_options()) {
        match e {
            Event::Start(Tag::CodeBlock(_)) => in_code_block = true,
            Event::End(TagEnd::CodeBlock) => in_code_block = false,
            Event::Text(t) | Event::Code(t) if !in_code_block => s.push_str(&t),
            Event::Start(_) | Event::End(_) | Event::HardBreak | Event::SoftBreak => s.push(' '),
            _ => {}
        }
    }
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The Markdown page of a loop, as `loopconv docs` writes it for `source`.
fn page(spec: &Spec, info: &Info, source: &str) -> Result<String, back::Error> {
    let opts = back::Options {
        source: source.to_owned(),
        ..back::Options::default()
    };
    let mut diags = diag::Diagnostics::new(source);
    let page = loopconv::write(loopconv::Target::Markdown, spec, info, &opts, &mut diags)?;
    assert!(diags.is_empty(), "{source}: {:#?}", diags.items());
    Ok(page)
}

/// The headings the built-in template writes (the first is the loop name).
const HEADINGS: &[&str] = loopconv::back::markdown::SECTION_HEADINGS;

/// The page structure of a benign case.
fn benign_skeleton(benign: &Case) -> Vec<String> {
    let (bspec, binfo) = benign.valid();
    let plain = page(bspec, binfo, "loops/hostile").expect("benign page renders");
    skeleton(&plain)
}

fn check_markdown(case: &Case, spec: &Spec, info: &Info, want: &[String]) {
    let what = format!("{} Markdown", case.label);
    // The source file name is user text too (`loopconv docs` shows it as given).
    let source = format!("loops/{}.json", case.hostile);
    let page = page(spec, info, &source).unwrap_or_else(|e| panic!("{what}: {e}"));
    // Same structure as the page of the same loop with harmless text (unless nothing of the
    // text is visible: then optional sections are left out).
    let got = skeleton(&page);
    if got != want && !md_visible(&case.hostile).is_empty() {
        let at = got
            .iter()
            .zip(want)
            .position(|(a, b)| a != b)
            .unwrap_or(got.len().min(want.len()));
        panic!(
            "{what}: user text changed the page structure at event {at}: {:?} instead of {:?}\n{page}",
            got.get(at),
            want.get(at)
        );
    }
    // Defence in depth: nothing the template does not write itself.
    let mut heading: Option<String> = None;
    let mut headings = Vec::new();
    for e in Parser::new_ext(&page, md_options()) {
        match &e {
            Event::Html(_) | Event::InlineHtml(_) => panic!("{what}: raw HTML {e:?}\n{page}"),
            Event::Start(Tag::Link { .. } | Tag::Image { .. }) => {
                panic!("{what}: link or image {e:?}\n{page}")
            }
            Event::Start(Tag::Heading { .. }) => heading = Some(String::new()),
            Event::End(TagEnd::Heading(_)) => headings.extend(heading.take()),
            Event::Text(t) | Event::Code(t) => {
                if let Some(h) = heading.as_mut() {
                    h.push_str(t);
                }
            }
            _ => {}
        }
    }
    assert_eq!(
        headings.first().map(String::as_str),
        Some("hostile"),
        "{what}"
    );
    for h in &headings[1..] {
        assert!(HEADINGS.contains(&h.as_str()), "{what}: heading {h:?}");
    }
    // Every free-text field reads as written (invisible characters dropped, whitespace
    // folded), so no part of it was taken as markup or template code.
    let text = md_text(&page);
    for (field, value) in free_text(spec) {
        if matches!(field.as_str(), "$schema" | "environment") {
            continue; // not on the page
        }
        let shown = match &value {
            Value::String(s) => s.clone(),
            v => serde_json::to_string(v).expect("JSON"),
        };
        let expected = md_visible(&shown);
        if expected.is_empty() {
            continue;
        }
        assert!(
            text.contains(&expected),
            "{what}: {field} does not read as written: {expected:?}\n{page}"
        );
    }
    // Never evaluated by minijinja.
    if case.hostile.contains("{{ 7*7 }}") {
        assert!(text.contains("{{ 7*7 }}") && !text.contains("49"), "{what}");
    }
    if case.hostile.contains("range(3) %}x{% endfor") {
        assert!(!text.contains("xxx") && text.contains("range(3)"), "{what}");
    }
    let src = md_visible(&source);
    assert!(text.contains(&src), "{what}: source {src:?}");
    // The index: one link, to the page; the description and source read as written.
    let entry = markdown::IndexEntry {
        name: spec.name.clone(),
        file_name: format!("{}.md", spec.name),
        description: spec.description.clone(),
        source,
    };
    let index = markdown::index(&[entry]).expect("index");
    let mut links = Vec::new();
    for e in Parser::new_ext(&index, md_options()) {
        match e {
            Event::Html(_) | Event::InlineHtml(_) | Event::Start(Tag::Image { .. }) => {
                panic!("{what}: index {e:?}\n{index}")
            }
            Event::Start(Tag::Link { dest_url, .. }) => links.push(dest_url.to_string()),
            _ => {}
        }
    }
    assert_eq!(links, ["hostile.md"], "{what}: index links");
    let text = md_text(&index);
    assert!(text.contains(&src), "{what}: index source");
    let desc = md_visible(spec.description.as_deref().unwrap_or(""));
    assert!(text.contains(&desc), "{what}: index description {desc:?}");
}

// ---------------------------------------------------------------------------------------
// Loop formats and terminal output.

fn check_round_trips(case: &Case, spec: &Spec, info: &Info) {
    let own = match spec.source_format {
        Format::Agentpm => Format::Agentpm,
        _ => Format::Mas,
    };
    let expected = free_text(spec);
    assert!(
        expected
            .iter()
            .any(|(_, v)| v.as_str() == Some(case.hostile.as_str())),
        "{}: the hostile text is in no field",
        case.label
    );
    for to in [own, Format::Ir] {
        let what = format!("{} -> {}", case.label, to.name());
        let mut diags = diag::Diagnostics::new("test");
        let out = loopconv::write(
            loopconv::Target::Loop(to),
            spec,
            info,
            &back::Options::default(),
            &mut diags,
        )
        .unwrap_or_else(|e| panic!("{what}: {e}"));
        assert!(
            diags.items().iter().all(|d| is_interop(d.code)),
            "{what}: {:?}",
            diags.items()
        );
        let path = format!("out.{}", to.extension());
        let back = loopconv::load(&path, out.as_bytes(), &LoadOptions::default());
        let (bspec, _) = back
            .valid()
            .unwrap_or_else(|| panic!("{what}: output invalid: {:?}\n{out}", back.diags.items()));
        assert_eq!(free_text(bspec), expected, "{what}\n{out}");
        assert!(
            back.diags
                .items()
                .iter()
                .all(|d| d.severity != Severity::Error),
            "{what}"
        );
    }
}

/// Terminal output: no control character but newline, whatever the user text.
fn assert_terminal_clean(out: &str, what: &str) {
    for (i, c) in out.char_indices() {
        assert!(
            c == '\n' || !c.is_control(),
            "{what}: control character {c:?} at {i} in\n{out}"
        );
    }
}

fn check_terminal(case: &Case) {
    let s = &case.hostile;
    // The loop itself, and versions of it broken right at the hostile text.
    let mut sources: Vec<(String, String)> = vec![("hostile.json".into(), case.source.clone())];
    let mut m = serde_json::to_value(agentpm_matrix(s)).expect("JSON");
    m["loop"]["transitions"][0]["to"] = json!(s); // V009: unknown target
    m["loop"]["phases"][1]["id"] = json!(s); // F005: invalid id
    m["loop"][s.as_str()] = json!(s); // F001: unknown field named by the text
    m["name"] = json!(s); // F004: invalid name
    sources.push((
        "broken.json".into(),
        serde_json::to_string_pretty(&m).expect("JSON"),
    ));
    let mut y = serde_json::to_value(mas_matrix(s, mm::LoopType::Veal)).expect("JSON");
    y["escalation"] = json!(s); // F007: invalid value
    y[s.as_str()] = json!(1); // F001
    sources.push((
        "broken.yaml".into(),
        serde_saphyr::to_string(&y).expect("YAML"),
    ));
    for (path, src) in &sources {
        let l = loopconv::load(path, src.as_bytes(), &LoadOptions::default());
        if path.starts_with("broken") {
            assert!(l.diags.has_errors(), "{}: {path} is not broken", case.label);
        }
        for color in [false, true] {
            let out = diag::render_human(l.diags.items(), l.text(), color);
            let what = format!("{} {path} (color {color})", case.label);
            if color {
                // Only the renderer's own SGR sequences.
                let mut plain = String::new();
                let mut rest = out.as_str();
                while let Some(i) = rest.find('\u{1b}') {
                    plain.push_str(&rest[..i]);
                    let tail = &rest[i + 1..];
                    let len = tail
                        .strip_prefix('[')
                        .and_then(|t| {
                            t.find('m').filter(|&k| {
                                t[..k].bytes().all(|b| b.is_ascii_digit() || b == b';')
                            })
                        })
                        .unwrap_or_else(|| panic!("{what}: escape sequence not from the renderer"));
                    rest = &tail[len + 2..];
                }
                plain.push_str(rest);
                assert_terminal_clean(&plain, &what);
            } else {
                assert_terminal_clean(&out, &what);
            }
        }
        let json = diag::render_json(l.diags.items());
        assert!(
            serde_json::from_str::<Value>(&json).is_ok(),
            "{path}: JSON diagnostics"
        );
    }
}

// ---------------------------------------------------------------------------------------
// The matrix.

fn run_case(
    case: &Case,
    benign: &[String],
    dots: &mut Vec<(String, String)>,
    pumls: &mut Vec<Puml>,
) {
    let (spec, info) = case.valid();
    // A valid loop reads without a single warning (but the interoperability one).
    assert!(
        case.loaded.diags.items().iter().all(|d| is_interop(d.code)),
        "{}: {:?}",
        case.label,
        case.loaded.diags.items()
    );
    let d = Diagram::new(spec, info);
    check_diagram_text(case, spec, &d);
    check_mermaid_both(case, spec, info, &d);
    dots.push((case.label.clone(), check_dot(case, spec, info, &d)));
    pumls.push(check_plantuml(case, spec, info, &d));
    check_markdown(case, spec, info, benign);
    check_round_trips(case, spec, info);
    if case.hostile.len() < 1000 {
        check_terminal(case);
    }
}

#[test]
fn hostile_strings_in_every_field_stay_literal_text() {
    let started = std::time::Instant::now();
    let benign: Vec<Vec<String>> = cases_for("benign", "plain text")
        .iter()
        .map(benign_skeleton)
        .collect();
    let all = hostile();
    // Two threads: the matrix has a few hundred loops.
    let (dots, pumls): (Vec<(String, String)>, Vec<Puml>) = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..2)
            .map(|k| {
                let (benign, all) = (&benign, &all);
                scope.spawn(move || {
                    let (mut dots, mut pumls) = (Vec::new(), Vec::new());
                    // The 100 KB string (last) first, the others dealt round-robin.
                    for (cat, s) in all.iter().rev().skip(k).step_by(2) {
                        for (case, b) in cases_for(cat, s).iter().zip(benign) {
                            run_case(case, b, &mut dots, &mut pumls);
                        }
                    }
                    (dots, pumls)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("matrix thread"))
            .fold((Vec::new(), Vec::new()), |(mut d, mut p), (d2, p2)| {
                d.extend(d2);
                p.extend(p2);
                (d, p)
            })
    });
    assert_eq!(dots.len(), all.len() * 3 - 2);
    render_with_graphviz(&dots);
    render_with_plantuml(&pumls);
    eprintln!(
        "{} hostile strings x 3 loops x every back end in {:?}",
        all.len(),
        started.elapsed()
    );
}

#[test]
fn corpus_covers_every_category() {
    let cats: std::collections::BTreeSet<&str> = HOSTILE.iter().map(|(c, _)| *c).collect();
    for c in [
        "mermaid",
        "dot",
        "plantuml",
        "html",
        "markdown",
        "template",
        "yaml",
        "control",
        "bidi",
        "zero-width",
        "unicode",
    ] {
        assert!(cats.contains(c), "{c}");
    }
    let long = long_string();
    assert!(
        long.len() <= 100 * 1024 && long.len() > 100 * 1024 - 8,
        "{}",
        long.len()
    );
    // Every C0 control but newline and tab, somewhere.
    let all: String = hostile().into_iter().map(|(_, s)| s).collect();
    for b in 0u8..0x20 {
        assert!(all.contains(char::from(b)), "{b:#x}");
    }
}

// ---------------------------------------------------------------------------------------
// The committed examples (`examples/hostile/`).

fn strings_of(cats: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = HOSTILE
        .iter()
        .filter(|(c, _)| cats.contains(c))
        .map(|(_, s)| (*s).to_owned())
        .collect();
    if cats.contains(&"control") {
        v.push(c0_controls());
    }
    v
}

/// An AgentPM loop with one phase per string (its objective and outcome descriptions hold
/// the string), the strings joined in the description, and the package fields hostile too.
fn agentpm_example(name: &str, cats: &[&str], strings: &[String], archetype: &str) -> am::Manifest {
    let n = strings.len();
    let id = |i: usize| format!("s{:02}", i + 1);
    let mut phases = Vec::new();
    let mut transitions = Vec::new();
    let t = |from: String, on: &str, to: String| am::Transition {
        from,
        on: on.to_owned(),
        to,
    };
    for (i, s) in strings.iter().enumerate() {
        let next = if i + 1 < n {
            id(i + 1)
        } else {
            "$end".to_owned()
        };
        let mut outcomes = vec![am::Outcome {
            id: "next".to_owned(),
            description: s.clone(),
        }];
        transitions.push(t(id(i), "next", next));
        if i % 4 == 1 {
            outcomes.push(am::Outcome {
                id: "stop".to_owned(),
                description: strings[(i + 1) % n].clone(),
            });
            transitions.push(t(id(i), "stop", "$abort".to_owned()));
        }
        if i % 7 == 3 {
            outcomes.push(am::Outcome {
                id: "escalate".to_owned(),
                description: strings[(i + 2) % n].clone(),
            });
            transitions.push(t(id(i), "escalate", "$handoff".to_owned()));
        }
        let access = match i % 4 {
            0 => None,
            1 => Some(am::Access {
                tools: Some(true),
                knowledge: Some(true),
                memory: Some(am::Memory {
                    read: Some(true),
                    write: Some(true),
                }),
            }),
            2 => Some(am::Access {
                tools: Some(false),
                knowledge: None,
                memory: Some(am::Memory {
                    read: Some(true),
                    write: None,
                }),
            }),
            _ => Some(am::Access {
                tools: None,
                knowledge: Some(false),
                memory: None,
            }),
        };
        phases.push(am::Phase {
            id: id(i),
            objective: s.clone(),
            access,
            outcomes: Some(outcomes),
        });
    }
    let description = format!(
        "Generated by tests/markup_safety.rs: every free-text field of this loop holds hostile strings ({}).\n{}",
        cats.join(", "),
        strings.join("\n")
    );
    am::Manifest {
        schema: Some(am::UPSTREAM_SCHEMA_URI.to_owned()),
        kind: Some(am::Kind::Loop),
        name: name.to_owned(),
        version: "1.0.0".to_owned(),
        description,
        readme: Some(strings[2 % n].clone()),
        license: Some(am::License {
            spdx: Some(strings[3 % n].clone()),
            file: Some(strings[4 % n].clone()),
        }),
        environment: None,
        loop_: am::Loop {
            archetype: Some(archetype.to_owned()),
            entry_phase: id(0),
            limits: Some(am::Limits {
                max_steps: Some(n as u64 + 2),
            }),
            phases,
            transitions,
            checkpoints: Some(
                [
                    (n > 3).then(|| am::Checkpoint {
                        id: "approve-early".to_owned(),
                        kind: am::CheckpointType::Approval,
                        before_phase: id(2),
                        on_reject: id(0),
                    }),
                    Some(am::Checkpoint {
                        id: "approve-last".to_owned(),
                        kind: am::CheckpointType::Approval,
                        before_phase: id(n - 1),
                        on_reject: "$abort".to_owned(),
                    }),
                ]
                .into_iter()
                .flatten()
                .collect(),
            ),
            error_policy: None,
        },
    }
}

struct MasRoles<'a> {
    validator: Option<&'a str>,
    actor: &'a str,
    fallback: &'a str,
}

fn mas_example(
    name: &str,
    kind: mm::LoopType,
    roles: &MasRoles<'_>,
    text: [&[&str]; 5],
) -> mm::Loop {
    use mm::CheckType as C;
    let [mission, criteria, checks, inputs, outputs] = text.map(strings_of);
    let kinds = [C::Command, C::Pattern, C::File, C::Manual];
    let types = [
        mm::PortType::String,
        mm::PortType::Number,
        mm::PortType::Boolean,
        mm::PortType::Object,
        mm::PortType::Array,
        mm::PortType::File,
    ];
    let all: Vec<String> = HOSTILE.iter().map(|(_, s)| (*s).to_owned()).collect();
    mm::Loop {
        name: name.to_owned(),
        kind,
        description: Some(format!(
            "Generated by tests/markup_safety.rs: every free-text field of this loop holds hostile strings.\n{}",
            all.join("\n")
        )),
        validator: roles.validator.map(str::to_owned),
        actor: roles.actor.to_owned(),
        mission: Some(mission.join("\n")),
        max_attempts: Some(3),
        escalation: Some(mm::Escalation::Fallback),
        fallback_agent: Some(roles.fallback.to_owned()),
        success_criteria: Some(criteria.join("\n")),
        checks: Some(
            checks
                .iter()
                .enumerate()
                .map(|(i, s)| check(&format!("check-{:02}", i + 1), kinds[i % 4], s))
                .collect(),
        ),
        inputs: Some(
            inputs
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    let mut p = port(s, types[i % types.len()], json!(s));
                    p.required = Some(i % 2 == 0);
                    p
                })
                .collect(),
        ),
        outputs: Some(
            outputs
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    let mut p = port(
                        s,
                        types[(i + 3) % types.len()],
                        json!({ "text": s, "list": [s, i, true, null] }),
                    );
                    p.schema = Some(json!({ "title": s, "type": "object" }));
                    p
                })
                .collect(),
        ),
    }
}

/// The files of `examples/hostile/`: name and content.
fn hostile_examples() -> Vec<(String, String)> {
    let json = |m: &am::Manifest| {
        let mut s = serde_json::to_string_pretty(m).expect("JSON");
        s.push('\n');
        s
    };
    let yaml = |l: &mm::Loop| {
        format!(
            "# Generated by tests/markup_safety.rs (LOOPCONV_BLESS=1 cargo test --test markup_safety);\n# do not edit. Every free-text field holds hostile strings.\n{}",
            serde_saphyr::to_string(l).expect("YAML")
        )
    };
    let mut files = Vec::new();
    for (name, cats, archetype) in [
        (
            "agentpm-mermaid-dot",
            &["mermaid", "dot"][..],
            "--> %% end \"; node [shape=box]",
        ),
        (
            "agentpm-html-markdown",
            &["html", "markdown"][..],
            "<i>archetype</i> | # [x](y)",
        ),
        (
            "agentpm-template-yaml",
            &["template", "yaml"][..],
            "{{ 7*7 }} {% if x %}",
        ),
        (
            "agentpm-invisible",
            &["control", "bidi", "zero-width"][..],
            "\u{1b}[31marche\u{202e}type\u{200b}",
        ),
        ("agentpm-unicode", &["unicode"][..], "日本語 🚀 مرحبا"),
        (
            "agentpm-plantuml",
            &["plantuml"][..],
            "@enduml **archetype** <b>x</b> !include y",
        ),
    ] {
        let strings = strings_of(cats);
        files.push((
            format!("{name}.json"),
            json(&agentpm_example(name, cats, &strings, archetype)),
        ));
    }
    let long = long_string();
    let short: Vec<String> = strings_of(&["html"]);
    let strings = vec![long.clone(), short[0].clone(), short[1].clone()];
    // The 100 KB string is the first phase's objective and its outcome's description.
    let mut m = agentpm_example(
        "agentpm-100kb",
        &["long"],
        &strings,
        "100 KB <b>strings</b>",
    );
    m.description = "An AgentPM loop whose first objective and outcome description are a 100 KB hostile string.".to_owned();
    m.license = Some(am::License {
        spdx: Some(short[2].clone()),
        file: Some(short[3].clone()),
    });
    files.push(("agentpm-100kb.json".to_owned(), json(&m)));

    let veal = mas_example(
        "mas-veal",
        mm::LoopType::Veal,
        &MasRoles {
            validator: Some("<img src=x onerror=alert(1)>"),
            actor: "<script>alert(1)</script>",
            fallback: "{{ 7*7 }} \u{202e}evil\u{202c} #35; 日本語",
        },
        [
            &["mermaid"],
            &["markdown"],
            &["html", "dot", "template", "control", "bidi"],
            &["yaml"],
            &["unicode", "zero-width"],
        ],
    );
    files.push(("mas-veal.yaml".to_owned(), yaml(&veal)));
    let real = mas_example(
        "mas-real",
        mm::LoopType::Real,
        &MasRoles {
            validator: None,
            actor: "<svg onload=alert(1)> --> end",
            fallback: "\"; node [shape=box]; \" \\N |x|",
        },
        [
            &["html"],
            &["template"],
            &["dot", "mermaid", "plantuml"],
            &["markdown", "control"],
            &["yaml", "bidi", "unicode"],
        ],
    );
    files.push(("mas-real.yaml".to_owned(), yaml(&real)));
    let mut big = mas_example(
        "mas-100kb",
        mm::LoopType::Real,
        &MasRoles {
            validator: None,
            actor: "<b>100 KB</b> actor",
            fallback: "fallback {{ 7*7 }}",
        },
        [
            &["html"],
            &["template"],
            &["dot"],
            &["markdown"],
            &["unicode"],
        ],
    );
    big.mission = Some(long);
    big.description = Some("A REAL loop whose mission is a 100 KB hostile string.".to_owned());
    files.push(("mas-100kb.yaml".to_owned(), yaml(&big)));
    files
}

#[test]
fn hostile_examples_are_up_to_date() {
    let dir = common::examples().join("hostile");
    let bless = std::env::var("LOOPCONV_BLESS").is_ok_and(|v| v == "1");
    let mut stale = Vec::new();
    for (name, text) in hostile_examples() {
        let path = dir.join(&name);
        // Valid, with no warning at all (`loopconv check --strict` clean).
        let l = loopconv::load(&name, text.as_bytes(), &LoadOptions::default());
        // Interoperability warnings (F015: a port `schema` in YAML) are allowed.
        assert!(
            l.valid().is_some() && l.diags.items().iter().all(|d| is_interop(d.code)),
            "{name}: {:#?}",
            l.diags.items()
        );
        if bless {
            std::fs::create_dir_all(&dir).expect("creating examples/hostile");
            std::fs::write(&path, &text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            continue;
        }
        if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
            stale.push(name);
        }
    }
    assert!(
        stale.is_empty(),
        "examples/hostile/{{{}}} are missing or stale: run `LOOPCONV_BLESS=1 cargo test --test markup_safety` and commit the result",
        stale.join(",")
    );
}

/// The committed examples go through the same checks as the matrix (their hostile text is
/// many strings at once, so only the checks that do not need one string are run).
#[test]
fn hostile_examples_stay_literal_text() {
    let dir = common::examples().join("hostile");
    let (mut dots, mut pumls) = (Vec::new(), Vec::new());
    for (name, _) in hostile_examples() {
        let path = dir.join(&name);
        let Ok(source) = std::fs::read_to_string(&path) else {
            continue; // reported by hostile_examples_are_up_to_date
        };
        let case = Case::new(format!("examples/hostile/{name}"), "", &name, source);
        let (spec, info) = case.valid();
        let d = Diagram::new(spec, info);
        check_mermaid_both(&case, spec, info, &d);
        dots.push((name.clone(), check_dot(&case, spec, info, &d)));
        pumls.push(check_plantuml(&case, spec, info, &d));
        check_round_trips_all(&case, spec, info);
        let page = page(spec, info, &name).expect("renders");
        for e in Parser::new_ext(&page, md_options()) {
            assert!(
                !matches!(
                    e,
                    Event::Html(_)
                        | Event::InlineHtml(_)
                        | Event::Start(Tag::Link { .. } | Tag::Image { .. })
                ),
                "{name}: {e:?}"
            );
        }
        let text = md_text(&page);
        for (field, value) in free_text(spec) {
            let shown = match &value {
                Value::String(s) => s.clone(),
                v => serde_json::to_string(v).expect("JSON"),
            };
            if field == "$schema" || md_visible(&shown).is_empty() {
                continue;
            }
            // Multi-line fields are paragraphs with line breaks: compare line by line.
            for line in shown.lines() {
                let v = md_visible(line);
                assert!(v.is_empty() || text.contains(&v), "{name}: {field}: {v:?}");
            }
        }
    }
    render_with_graphviz(&dots);
    render_with_plantuml(&pumls);
}

fn check_round_trips_all(case: &Case, spec: &Spec, info: &Info) {
    let own = match spec.source_format {
        Format::Agentpm => Format::Agentpm,
        _ => Format::Mas,
    };
    for to in [own, Format::Ir] {
        let mut diags = diag::Diagnostics::new("test");
        let out = loopconv::write(
            loopconv::Target::Loop(to),
            spec,
            info,
            &back::Options::default(),
            &mut diags,
        )
        .expect("writes");
        assert!(
            diags.items().iter().all(|d| is_interop(d.code)),
            "{}: {:?}",
            case.label,
            diags.items()
        );
        let back = loopconv::load(
            &format!("x.{}", to.extension()),
            out.as_bytes(),
            &LoadOptions::default(),
        );
        let (bspec, _) = back.valid().expect("output valid");
        assert_eq!(
            free_text(bspec),
            free_text(spec),
            "{} -> {}",
            case.label,
            to.name()
        );
    }
}

/// The interoperability warnings (a port `schema` in multi-agent-spec YAML, read or written).
fn is_interop(code: loopconv::diag::Code) -> bool {
    matches!(
        code,
        loopconv::diag::Code::YamlPortSchema | loopconv::diag::Code::WrittenPortSchema
    )
}
