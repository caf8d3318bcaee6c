use super::{Error, IndexEntry, Options, SECTION_HEADINGS, effective_steps, index, tidy, write};
use crate::diag::Diagnostics;
use crate::ir::{Destination, Spec, Terminal};
use crate::ir::{Graph, Outcome, Phase, Transition};
use crate::text::markdown::{block, code, inline};
use crate::text::one_line;
use proptest::strategy::Strategy;

const HOSTILE: &str = "| pipe\n<img src=x onerror=alert(1)>\n{{ x }}\n{% if %}\n[link](javascript:alert(1))\n# heading\n- item\n*em* _em_ `code` ~~del~~ $x$ & &amp;";

fn spec(description: &str) -> Spec {
    Spec {
        name: "hostile".to_owned(),
        description: Some(description.to_owned()),
        archetype: Some(description.to_owned()),
        graph: Graph {
            entry: "work".to_owned(),
            phases: vec![Phase {
                id: "work".to_owned(),
                objective: description.to_owned(),
                outcomes: Some(vec![Outcome {
                    id: "done".to_owned(),
                    description: description.to_owned(),
                    ..Outcome::default()
                }]),
                ..Phase::default()
            }],
            transitions: vec![Transition {
                from: "work".to_owned(),
                on: "done".to_owned(),
                to: Destination::Terminal(Terminal::End),
                final_state: None,
                origin: Default::default(),
            }],
            ..Graph::default()
        },
        ..Spec::default()
    }
}

fn page(spec: &Spec, opts: &Options) -> Result<String, Error> {
    let mut diags = Diagnostics::new("test");
    let info = crate::valid::validate(spec, &mut diags);
    let opts = Options {
        source: "loops/hostile.json".to_owned(),
        ..opts.clone()
    };
    write(spec, &info, &opts, &mut diags)
}

use pulldown_cmark::{Event, Options as MdOptions, Parser, Tag, TagEnd};

/// Every extension a renderer might enable, so that escaping holds for all of them.
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
}

fn events(md: &str) -> Vec<Event<'_>> {
    Parser::new_ext(md, md_options()).collect()
}

/// Events that user text must never produce.
fn is_markup(e: &Event<'_>) -> bool {
    matches!(
        e,
        Event::Html(_)
            | Event::InlineHtml(_)
            | Event::InlineMath(_)
            | Event::DisplayMath(_)
            | Event::FootnoteReference(_)
            | Event::TaskListMarker(_)
            | Event::SoftBreak
            | Event::Rule
            | Event::Start(
                Tag::Link { .. }
                    | Tag::Image { .. }
                    | Tag::Emphasis
                    | Tag::Strong
                    | Tag::Strikethrough
                    | Tag::Superscript
                    | Tag::Subscript
                    | Tag::Heading { .. }
                    | Tag::List(_)
                    | Tag::BlockQuote(_)
                    | Tag::CodeBlock(_)
                    | Tag::HtmlBlock
                    | Tag::FootnoteDefinition(_)
                    | Tag::DefinitionList
                    | Tag::MetadataBlock(_)
            )
    )
}

/// The text of the first table cell, and whether anything but text was produced.
fn cell_text(cell: &str) -> (String, Vec<String>) {
    let md = format!("| h |\n|---|\n| {cell} |\n");
    let (mut text, mut bad, mut in_cell, mut cells) = (String::new(), Vec::new(), false, 0);
    for e in events(&md) {
        match &e {
            Event::Start(Tag::TableCell) => {
                cells += 1;
                in_cell = cells == 2;
            }
            Event::End(TagEnd::TableCell) => in_cell = false,
            Event::Text(t) if in_cell => text.push_str(t),
            Event::Code(t) if in_cell => text.push_str(t),
            Event::Start(Tag::Table(_) | Tag::TableHead | Tag::TableRow)
            | Event::End(_)
            | Event::Text(_) => {}
            other => bad.push(format!("{other:?}")),
        }
    }
    if cells != 2 {
        bad.push(format!("{cells} cells"));
    }
    (text, bad)
}

/// The paragraphs of a block, with hard breaks as `\n`, and anything else produced.
fn block_text(md: &str) -> (String, Vec<String>) {
    let (mut paras, mut bad) = (Vec::<String>::new(), Vec::new());
    for e in events(md) {
        match &e {
            Event::Start(Tag::Paragraph) => paras.push(String::new()),
            Event::Text(t) => paras
                .last_mut()
                .map_or_else(|| bad.push(t.to_string()), |p| p.push_str(t)),
            Event::HardBreak => paras
                .last_mut()
                .map_or_else(|| bad.push("break".into()), |p| p.push('\n')),
            Event::End(TagEnd::Paragraph) => {}
            other => bad.push(format!("{other:?}")),
        }
    }
    (paras.join("\n\n"), bad)
}

/// What `block` should read as: trimmed lines, hard breaks, blank-line paragraphs.
fn block_expected(s: &str) -> String {
    let text = s.replace("\r\n", "\n").replace('\r', "\n");
    let mut paras: Vec<Vec<String>> = vec![Vec::new()];
    for line in text.split('\n') {
        let line = one_line(line).trim().to_owned();
        if line.is_empty() {
            if paras.last().is_some_and(|p| !p.is_empty()) {
                paras.push(Vec::new());
            }
        } else if let Some(p) = paras.last_mut() {
            p.push(line);
        }
    }
    paras
        .iter()
        .filter(|p| !p.is_empty())
        .map(|p| p.join("\n"))
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// Strip the fenced diagram: its content is Mermaid, not Markdown.
fn without_fences(md: &str) -> String {
    let mut out = String::new();
    let mut in_fence = false;
    for l in md.lines() {
        if l.starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if !in_fence {
            out.push_str(l);
            out.push('\n');
        }
    }
    out
}

#[test]
fn urls_are_not_autolinked() {
    let out = inline("see https://example.com/x and WWW.example.com, a: b, w.x");
    assert_eq!(
        out,
        "see https\\://example.com/x and WWW\\.example.com, a: b, w.x"
    );
}

#[test]
fn hostile_text_is_escaped_and_literal() {
    let out = page(&spec(HOSTILE), &Options::default()).expect("renders");
    let md = without_fences(&out);
    // Never raw HTML, never a live link, never evaluated as a template.
    assert!(!md.contains("<img"), "{out}");
    assert!(md.contains("&lt;img src=x onerror=alert(1)&gt;"), "{out}");
    assert!(md.contains("\\[link\\](javascript:alert(1))"), "{out}");
    assert!(md.contains("{{ x }}"), "{out}");
    assert!(md.contains("{% if %}"), "{out}");
    assert!(md.contains("\\| pipe"), "{out}");
    assert!(md.contains("\\# heading"), "{out}");
    assert!(md.contains("&amp;amp;"), "{out}");
    // Rendered, the page has no HTML, link, image or emphasis at all, and only the
    // template's own headings.
    let mut headings = Vec::new();
    let mut in_heading = false;
    for e in events(&md) {
        match &e {
            Event::Start(Tag::Heading { .. }) => {
                in_heading = true;
                headings.push(String::new());
            }
            Event::End(TagEnd::Heading(_)) => in_heading = false,
            Event::Text(t) if in_heading => {
                headings.last_mut().into_iter().for_each(|h| h.push_str(t))
            }
            Event::Html(_) | Event::InlineHtml(_) => panic!("raw HTML: {e:?}\n{out}"),
            Event::Start(Tag::Link { .. } | Tag::Image { .. } | Tag::Emphasis | Tag::Strong) => {
                panic!("markup from user text: {e:?}\n{out}")
            }
            _ => {}
        }
    }
    assert_eq!(
        headings,
        [
            "hostile",
            "Diagram",
            "Phases",
            "Outcomes",
            "Transitions",
            "Limits",
            "Analysis"
        ]
    );
    // The description reads exactly as written, line for line.
    let desc = block(HOSTILE);
    assert!(out.contains(&desc));
    assert_eq!(block_text(&desc), (block_expected(HOSTILE), vec![]));
    // In table cells the text stays on one line and reads as written.
    let cell = inline(HOSTILE);
    assert!(!cell.contains('\n'));
    assert!(
        out.lines()
            .any(|l| l.starts_with("| ") && l.contains(&cell)),
        "{out}"
    );
    assert_eq!(
        cell_text(&cell),
        (one_line(HOSTILE).trim().to_owned(), vec![])
    );
}

/// Every valid example and corpus loop: its page holds no markup from user text, only
/// the template's headings, and the index links only to the pages.
#[test]
fn example_pages_are_clean() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in [
        "examples/agentpm",
        "examples/mas",
        "../shared/corpus/agentpm",
        "../shared/corpus/mas",
    ] {
        if let Ok(rd) = std::fs::read_dir(root.join(dir)) {
            files.extend(rd.flatten().map(|e| e.path()));
        }
    }
    files.sort();
    let mut entries = Vec::new();
    for f in &files {
        let Ok(bytes) = std::fs::read(f) else {
            continue;
        };
        let name = f.display().to_string();
        let l = crate::pipeline::load(&name, &bytes, &Default::default());
        let Some((spec, info)) = l.valid() else {
            continue;
        };
        let opts = Options {
            source: name.clone(),
            ..Options::default()
        };
        let mut diags = Diagnostics::new(&name);
        let out = write(spec, info, &opts, &mut diags).expect("renders");
        assert_eq!(out, write(spec, info, &opts, &mut diags).expect("renders"));
        assert!(
            !out.contains("\n\n\n") && !out.lines().any(|l| l.ends_with(' ')),
            "{name}"
        );
        let md = without_fences(&out);
        let (mut in_heading, mut heading, mut first) = (false, String::new(), true);
        for e in events(&md) {
            match &e {
                Event::Start(Tag::Heading { .. }) => {
                    in_heading = true;
                    heading.clear();
                }
                Event::End(TagEnd::Heading(_)) => {
                    in_heading = false;
                    assert!(
                        first || SECTION_HEADINGS.contains(&heading.as_str()),
                        "{name}: heading {heading:?}"
                    );
                    first = false;
                }
                Event::Text(t) if in_heading => heading.push_str(t),
                Event::Code(t) if in_heading => heading.push_str(t),
                e if is_markup(e)
                    && !matches!(e, Event::Start(Tag::Heading { .. }) | Event::Rule) =>
                {
                    panic!("{name}: {e:?}")
                }
                _ => {}
            }
        }
        entries.push(IndexEntry {
            name: spec.name.clone(),
            file_name: format!("{}.md", spec.name),
            description: spec.description.clone(),
            source: name,
        });
    }
    assert!(
        entries.len() >= 3,
        "too few loops to check: {}",
        entries.len()
    );
    let idx = index(&entries).expect("renders");
    let links: Vec<String> = events(&idx)
        .into_iter()
        .filter_map(|e| match e {
            Event::Start(Tag::Link { dest_url, .. }) => Some(dest_url.to_string()),
            _ => None,
        })
        .collect();
    let expected: Vec<String> = entries.iter().map(|e| e.file_name.clone()).collect();
    assert_eq!(links, expected);
    assert!(
        !events(&idx)
            .iter()
            .any(|e| matches!(e, Event::Html(_) | Event::InlineHtml(_)))
    );
}

fn hostile_strings() -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::prop;
    let tokens = vec![
        "a",
        "b",
        "x1",
        "é",
        "あ",
        " ",
        "  ",
        "    ",
        "\t",
        "\n",
        "\r\n",
        "\r",
        "\n\n",
        "-",
        "+",
        "=",
        "1.",
        "2)",
        "#",
        "##",
        ">",
        "<",
        "&",
        "|",
        "\\",
        "`",
        "``",
        "```",
        "~",
        "~~",
        "~~~",
        "*",
        "**",
        "_",
        "__",
        "[",
        "]",
        "(",
        ")",
        "!",
        "$",
        "$$",
        "^",
        ":",
        ":::",
        "{",
        "}",
        "{{",
        "}}",
        "{%",
        "%}",
        "%",
        "'",
        "\"",
        ".",
        "<img src=x onerror=alert(1)>",
        "<!--",
        "&amp;",
        "&#60;",
        "&lt;",
        "[^1]",
        "[[w]]",
        "[x](javascript:alert(1))",
        "![i](x)",
        "<http://x.y>",
        "---",
        "***",
        "- [ ]",
        "\u{0}",
        "\u{7f}",
        "\u{85}",
        "\u{2028}",
        "\u{202E}",
        "\u{200B}",
        "\u{FFFF}",
        "\\|",
        "|\\",
    ];
    prop::collection::vec(prop::sample::select(tokens), 0..24).prop_map(|v| v.concat())
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]

    #[test]
    fn inline_reads_as_written_in_a_table_cell(s in hostile_strings()) {
        let (text, bad) = cell_text(&inline(&s));
        proptest::prop_assert!(bad.is_empty(), "{:?} -> {:?}: {:?}", s, inline(&s), bad);
        proptest::prop_assert_eq!(text, one_line(&s).trim().to_owned());
    }

    #[test]
    fn code_reads_as_written_in_a_table_cell(s in hostile_strings()) {
        let (text, bad) = cell_text(&code(&s));
        proptest::prop_assert!(bad.is_empty(), "{:?} -> {:?}: {:?}", s, code(&s), bad);
        let line = one_line(&s);
        // A code span keeps inner spaces; the fallback to text trims.
        proptest::prop_assert!(text == line || text == line.trim(), "{:?} -> {:?} reads {:?}", s, code(&s), text);
    }

    #[test]
    fn block_reads_as_written(s in hostile_strings()) {
        let md = block(&s);
        let (text, bad) = block_text(&md);
        proptest::prop_assert!(bad.is_empty(), "{:?} -> {:?}: {:?}", s, md, bad);
        proptest::prop_assert_eq!(text, block_expected(&s));
        proptest::prop_assert!(!events(&md).iter().any(is_markup));
    }
}

#[test]
fn output_is_stable() {
    let s = spec("A loop.");
    assert_eq!(
        page(&s, &Options::default()).ok(),
        page(&s, &Options::default()).ok()
    );
}

#[test]
fn custom_template_overrides() {
    let opts = Options {
        template: Some(
            "# {{ name }}\n{% for p in phases %}- {{ p.id }}: {{ p.objective }}\n{% endfor %}"
                .to_owned(),
        ),
        ..Options::default()
    };
    let out = page(&spec("Do {{ x }} *now*"), &opts).expect("renders");
    assert_eq!(out, "# hostile\n- `work`: Do {{ x }} \\*now\\*\n");
}

#[test]
fn custom_template_can_extend_the_built_in_one() {
    let opts = Options {
        template: Some(
            "{% extends \"loop.md.j2\" %}{% block diagram %}(no diagram){% endblock %}".to_owned(),
        ),
        ..Options::default()
    };
    let out = page(&spec("A loop."), &opts).expect("renders");
    assert!(out.starts_with("# hostile\n"), "{out}");
    assert!(out.contains("(no diagram)"), "{out}");
    assert!(!out.contains("```mermaid"), "{out}");
}

#[test]
fn undefined_variable_is_a_template_error() {
    let opts = Options {
        template: Some("# {{ name }}\n{{ no_such_variable }}\n".to_owned()),
        ..Options::default()
    };
    match page(&spec("A loop."), &opts) {
        Err(Error::Template { source, .. }) => {
            assert!(source.to_string().contains("undefined"), "{source}")
        }
        other => panic!("expected a template error, got {other:?}"),
    }
    let opts = Options {
        template: Some("{% if phases[0].no_such_field %}x{% endif %}".to_owned()),
        ..Options::default()
    };
    assert!(matches!(
        page(&spec("A loop."), &opts),
        Err(Error::Template { .. })
    ));
}

#[test]
fn syntax_error_in_template_is_a_template_error() {
    let opts = Options {
        template: Some("{% for %}".to_owned()),
        ..Options::default()
    };
    assert!(matches!(
        page(&spec("A loop."), &opts),
        Err(Error::Template { .. })
    ));
}

#[test]
fn index_links_every_page() {
    let entries = vec![
        IndexEntry {
            name: "a-loop".to_owned(),
            file_name: "a-loop.md".to_owned(),
            description: Some("First | one\nsecond line".to_owned()),
            source: "x/a.json".to_owned(),
        },
        IndexEntry {
            name: "b".to_owned(),
            file_name: "javascript:alert(1).md".to_owned(),
            description: None,
            source: "x/b.yaml".to_owned(),
        },
    ];
    let out = index(&entries).expect("renders");
    assert!(out.contains("[a-loop](a-loop.md)"), "{out}");
    assert!(out.contains("First \\| one second line"), "{out}");
    assert!(out.contains("(javascript%3Aalert%281%29.md)"), "{out}");
}

#[test]
fn code_spans() {
    assert_eq!(code("go test ./..."), "`go test ./...`");
    assert_eq!(code("a`b"), "``a`b``");
    assert_eq!(code("`a"), "`` `a ``");
    assert_eq!(code("a | b"), "`a \\| b`");
    assert_eq!(code("a\\|b"), "a\\\\\\|b");
    assert_eq!(code("x\ny"), "`x y`");
}

#[test]
fn blocks_keep_lines() {
    assert_eq!(block("a\nb\n\n\nc"), "a\\\nb\n\nc");
    assert_eq!(block("- one\n1. two\n=="), "\\- one\\\n1\\. two\\\n\\==");
    assert_eq!(block("  \n "), "");
}

#[test]
fn tidy_collapses_blank_lines_outside_fences() {
    assert_eq!(
        tidy("\n\na\n\n\n\nb\n```\n\n\n```\n\n"),
        "a\n\nb\n```\n\n\n```\n"
    );
}

/// The effective step limit names which bound holds: the runtime's ceiling without a loop
/// limit or above it, the loop's under it.
#[test]
fn the_effective_step_limit_names_the_bound_that_holds() {
    assert_eq!(
        effective_steps(None),
        "100: the runtime's ceiling (the loop sets none)"
    );
    assert_eq!(
        effective_steps(Some(8)),
        "8: the loop's, under the runtime's ceiling of 100"
    );
    assert_eq!(
        effective_steps(Some(500)),
        "100: the runtime's ceiling, below the loop's 500"
    );
}
