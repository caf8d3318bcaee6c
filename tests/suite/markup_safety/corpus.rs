//! The hostile strings, by category.

// ---------------------------------------------------------------------------------------
// Markdown.

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
    // decodes (`&#92;` and `&#36;` among them, which can crash it), links, escapes, line breaks,
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
pub(crate) fn c0_controls() -> String {
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
pub(crate) fn hostile() -> Vec<(&'static str, String)> {
    let mut v: Vec<(&'static str, String)> =
        HOSTILE.iter().map(|(c, s)| (*c, (*s).to_owned())).collect();
    v.push(("control", c0_controls()));
    v.push(("long", long_string()));
    v
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
