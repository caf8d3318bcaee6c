//! The Markdown checker: the page parsed with pulldown-cmark keeps the benign page's skeleton.

use super::md_visible;
use crate::markup_safety::cases::{Case, free_text};
use loopconv::back;
use loopconv::diag::{self};
use loopconv::ir::Spec;
use loopconv::valid::Info;
use serde_json::Value;
// ---------------------------------------------------------------------------------------
// Markdown.

use pulldown_cmark::{Event, Options as MdOptions, Parser, Tag, TagEnd};

pub(crate) fn md_options() -> MdOptions {
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
pub(crate) fn skeleton(md: &str) -> Vec<String> {
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
pub(crate) fn md_text(md: &str) -> String {
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
pub(crate) fn page(spec: &Spec, info: &Info, source: &str) -> Result<String, back::Error> {
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
pub(crate) const HEADINGS: &[&str] = loopconv::back::markdown::SECTION_HEADINGS;

/// The page structure of a benign case.
pub(crate) fn benign_skeleton(benign: &Case) -> Vec<String> {
    let (bspec, binfo) = benign.valid();
    let plain = page(bspec, binfo, "loops/hostile").expect("benign page renders");
    skeleton(&plain)
}

pub(crate) fn check_markdown(case: &Case, spec: &Spec, info: &Info, want: &[String]) {
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
    let entry = back::markdown::IndexEntry {
        name: spec.name.clone(),
        file_name: format!("{}.md", spec.name),
        description: spec.description.clone(),
        source,
    };
    let index = back::markdown::index(&[entry]).expect("index");
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
