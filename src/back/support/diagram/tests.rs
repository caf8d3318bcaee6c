use super::layout::{cut_before, display_width, end_with_ellipsis};
use super::{Cow, Drawing, ELLIPSIS, NodeId, NodeKind, Tooltips, access_summary};
use super::{shorten, shorten_clean, wrap, wrap_part};
use crate::ir::Access;
use crate::ir::Terminal;
use crate::text::clean;

/// [`wrap`] as textwrap does it, on the whole cleaned text: the oracle for `first_fit`.
fn wrap_whole(s: &str, width: usize, max_lines: usize) -> Vec<String> {
    let width = width.max(2);
    let text = clean(s);
    let opts = textwrap::Options::new(width)
        .break_words(true)
        .word_splitter(textwrap::WordSplitter::NoHyphenation)
        .wrap_algorithm(textwrap::WrapAlgorithm::FirstFit);
    let wrapped = textwrap::wrap(&text, opts);
    let truncated = wrapped.len() > max_lines;
    let mut lines: Vec<String> = wrapped
        .into_iter()
        .take(max_lines)
        .map(|l| l.into_owned())
        .filter(|l| !l.is_empty())
        .collect();
    if truncated && let Some(last) = lines.last_mut() {
        end_with_ellipsis(last, width);
    }
    lines
}

#[test]
fn wrapping_a_prefix_gives_the_lines_of_the_whole_text() {
    let words = [
        "a",
        "word",
        "日本語",
        "🚀🔥",
        "x",
        "longlonglonglonglonglonglonglonglonglong",
        "  ",
        "\n",
        "é",
    ];
    let mut seed = 7u64;
    for _ in 0..3000 {
        let mut text = String::new();
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let n = (seed >> 33) as usize % 80;
        for k in 0..n {
            let w = words[((seed >> (k % 40)) as usize + k * 7) % words.len()];
            text.push_str(w);
            if (seed >> (k % 50)) & 1 == 0 {
                text.push(' ');
            }
        }
        for (width, lines) in [(2, 1), (5, 2), (34, 2), (40, 3)] {
            let whole = wrap_whole(&text, width, lines);
            assert_eq!(wrap(&text, width, lines), whole, "{text:?} {width} {lines}");
            // The lines of a cleaned prefix, when it holds enough to know them.
            for shown in [0, 3, 20, 70, 140] {
                let (part, all) = crate::text::clean_upto(&text, shown);
                if let Some(got) = wrap_part(&part, all, width, lines) {
                    assert_eq!(got, whole, "{text:?} {width} {lines} from {shown}");
                }
            }
        }
    }
}

#[test]
fn wrap_counts_wide_characters_as_two_columns() {
    let lines = wrap("日本語のテキスト 🚀🔥🚀🔥🚀🔥 end", 10, 3);
    assert_eq!(lines, ["日本語のテ", "キスト", "🚀🔥🚀🔥…"]);
    for l in &lines {
        assert!(display_width(l) <= 10, "{l}");
    }
    assert_eq!(
        wrap("style p0 fill:#f00,stroke-width:9px", 34, 2),
        ["style p0", "fill:#f00,stroke-width:9px"]
    );
}

#[test]
fn shorten_counts_characters_not_bytes() {
    assert_eq!(shorten("日本語のテキスト", 100), "日本語のテキスト");
    assert_eq!(shorten("日本語のテキスト", 4), "日本語…");
    assert_eq!(shorten("emoji 🚀🔥", 7), "emoji…");
    let long = "word ".repeat(100);
    let s = shorten(&long, 60);
    assert!(s.chars().count() <= 60);
    assert!(s.ends_with(ELLIPSIS));
    assert_eq!(shorten("abc", 0), "");
    assert_eq!(shorten("abc", 1), "…");
}

#[test]
fn wrap_breaks_at_spaces_and_bounds_lines() {
    assert_eq!(wrap("one two three", 7, 3), vec!["one two", "three"]);
    assert_eq!(wrap("", 10, 2), Vec::<String>::new());
    let long = "x".repeat(500);
    let w = wrap(&long, 10, 2);
    assert_eq!(w.len(), 2);
    assert!(w.iter().all(|l| l.chars().count() <= 10));
    assert!(w[1].ends_with(ELLIPSIS));
    let w = wrap("aaa bbb ccc ddd eee", 7, 2);
    assert_eq!(w, vec!["aaa bbb", "ccc dd…"]);
    assert_eq!(wrap("a\nb", 10, 2), vec!["a b"]);
}

#[test]
fn access_summary_keeps_no_opinion_apart_from_false() {
    use crate::ir::MemoryAccess;
    assert_eq!(access_summary(None), None);
    assert_eq!(access_summary(Some(&Access::default())), None);
    let a = Access {
        tools: Some(true),
        knowledge: Some(true),
        memory: Some(MemoryAccess {
            read: Some(true),
            write: Some(true),
        }),
    };
    assert_eq!(
        access_summary(Some(&a)).as_deref(),
        Some("tools · knowledge · mem r/w")
    );
    let a = Access {
        tools: Some(false),
        knowledge: None,
        memory: Some(MemoryAccess {
            read: Some(true),
            write: None,
        }),
    };
    assert_eq!(
        access_summary(Some(&a)).as_deref(),
        Some("no tools · mem r")
    );
}

/// Drawing never panics, whatever the loop: every example, the broken ones included
/// (whatever part of them could be read), in every diagram back end.
#[test]
fn every_example_draws_without_panicking() {
    use crate::pipeline::{LoadOptions, load};
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let mut dirs = vec![root];
    let mut drawn = 0;
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let path = e.path();
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            let Ok(bytes) = std::fs::read(&path) else {
                continue;
            };
            let l = load(&path.to_string_lossy(), &bytes, &LoadOptions::default());
            if let (Some(spec), Some(info)) = (&l.spec, &l.info) {
                let drawing = Drawing::new(spec, info, Tooltips::Built);
                let gates: Vec<NodeId> = drawing.gates().ids().collect();
                let d = drawing.into_diagram();
                for e in &d.edges {
                    assert!(e.from == NodeId::Start || d.node(e.from).is_some());
                    assert!(d.node(e.to).is_some());
                }
                let gate_nodes = d.nodes.iter().filter(|n| n.kind == NodeKind::Gate);
                let mut drawn_gates: Vec<NodeId> = gate_nodes.map(|n| n.id).collect();
                drawn_gates.sort_by_key(|id| format!("{id}"));
                let mut gates = gates;
                gates.sort_by_key(|id| format!("{id}"));
                assert_eq!(gates, drawn_gates, "{}", path.display());
                for style in [
                    crate::back::mermaid::Style::Flowchart,
                    crate::back::mermaid::Style::State,
                ] {
                    assert!(!crate::back::mermaid::draw(spec, info, style).is_empty());
                }
                assert!(crate::back::dot::draw(spec, info, true).ends_with("}\n"));
                let puml = crate::back::plantuml::draw(spec, info);
                assert!(puml.ends_with("@enduml\n"));
                drawn += 1;
            }
        }
    }
    assert!(drawn > 10, "only {drawn} examples drawn");
}

/// [`shorten_clean`] as first written, counting the characters and then decoding up to
/// the cut: the oracle for the one pass over character starts (the cut itself is shared).
fn shorten_by_counting(s: &str, max_chars: usize) -> String {
    if s.chars().count() <= max_chars {
        return s.to_owned();
    }
    if max_chars == 0 {
        return String::new();
    }
    let keep_end = s
        .char_indices()
        .nth(max_chars - 1)
        .map_or(s.len(), |(i, _)| i);
    cut_before(&s[..keep_end])
}

proptest::proptest! {
    #[test]
    fn shortening_finds_the_cut_as_counting_does(
        s in "([a-z]{1,6}|é|日本|🚀|ß)( ([a-z]{1,6}|é|日本|🚀|ß)){0,30}",
        max_chars in 0usize..200,
    ) {
        proptest::prop_assert_eq!(
            shorten_clean(Cow::Borrowed(&s), max_chars).into_owned(),
            shorten_by_counting(&s, max_chars)
        );
    }
}

/// A loop drawn for an Agent: titled with the Agent's name, its reference before the
/// loop's kind, each bound phase (its first declaration) marked with what is bound to it;
/// a phase the loop lacks marks nothing, and without an Agent nothing changes.
#[test]
fn a_loop_drawn_for_an_agent_marks_its_bound_phases() {
    use crate::pipeline::{LoadOptions, load};
    let src = r#"{"kind": "loop", "name": "l", "version": "1.0.0", "description": "d", "loop": {
        "entry_phase": "a", "limits": {"max_steps": 4},
        "phases": [{"id": "a", "objective": "A."}, {"id": "b", "objective": "B."}],
        "transitions": [{"from": "a", "on": "complete", "to": "b"},
                        {"from": "b", "on": "complete", "to": "$end"}]}}"#;
    let l = load("l.json", src.as_bytes(), &LoadOptions::default());
    let (spec, info) = l.valid().expect("a valid loop");
    let agent = crate::back::AgentView {
        name: "my-agent".to_owned(),
        reference: "@o/l@1.0.0".to_owned(),
        bound: vec![
            ("b".to_owned(), "tools @o/search".to_owned()),
            ("nope".to_owned(), "memory @o/m".to_owned()),
            ("b".to_owned(), "skills @o/second".to_owned()),
        ],
    };
    let plain = Drawing::new(spec, info, Tooltips::Omitted).for_agent(None);
    assert_eq!(plain.title, "l");
    let plain = plain.into_diagram();
    assert!(plain.nodes.iter().all(|n| n.binding.is_none()));
    let d = Drawing::new(spec, info, Tooltips::Omitted).for_agent(Some(&agent));
    assert_eq!(d.title, "my-agent");
    assert_eq!(d.subtitle.as_deref(), Some("loop @o/l@1.0.0 · max 4 steps"));
    let mut marks = Vec::new();
    d.for_each_mark(|m| marks.push((m.id, m.bound)));
    assert_eq!(
        marks,
        [
            (NodeId::Phase(0), false),
            (NodeId::Phase(1), true),
            (NodeId::Terminal(Terminal::End), false)
        ]
    );
    let d = d.into_diagram();
    let b = d.node(NodeId::Phase(1)).expect("b");
    assert_eq!(b.binding.as_deref(), Some("bound: tools @o/search"));
    assert_eq!(b.extras().last(), Some("bound: tools @o/search"));
    assert!(
        d.node(NodeId::Phase(0))
            .is_some_and(|a| a.binding.is_none())
    );
}
