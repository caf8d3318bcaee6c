//! The README is a front door (issue 21): short, with the quick start's two commands, a
//! picture that exists, and links that all lead somewhere in the repository.

use crate::support;

fn readme() -> String {
    std::fs::read_to_string(support::repo().join("README.md")).expect("README.md")
}

#[test]
fn the_readme_is_under_300_lines() {
    let lines = readme().lines().count();
    assert!(
        lines < 300,
        "README.md has {lines} lines: move detail to docs/src/"
    );
}

#[test]
fn the_quick_start_has_its_two_commands() {
    let text = readme();
    let quick = text.split("## Quick start").nth(1).expect("a Quick start");
    assert!(
        quick.contains("cargo run --release -- graph examples/"),
        "{quick}"
    );
    assert!(quick.contains("\ncargo test\n"), "{quick}");
}

/// Every relative link and image of the README names a file of the repository (an
/// anchor after `#` is left to the reader).
#[test]
fn every_readme_link_names_a_file() {
    let text = readme();
    let mut seen = 0;
    for target in text.split("](").skip(1).filter_map(|s| s.split_once(')')) {
        let target = target.0.split('#').next().unwrap_or_default();
        if target.is_empty() || target.contains("://") {
            continue;
        }
        seen += 1;
        assert!(
            support::repo().join(target).exists(),
            "README links {target}"
        );
    }
    assert!(seen >= 15, "only {seen} relative links");
    assert!(text.contains("](docs/src/codes/index.md)"));
    assert!(text.contains("](ARCHITECTURE.md)"));
}

/// Every chapter in `docs/src/` is in the book's table of contents (mdBook builds only
/// the pages SUMMARY.md lists, so a chapter left out would never be published).
#[test]
fn the_book_lists_every_chapter() {
    let summary = std::fs::read_to_string(support::repo().join("docs/src/SUMMARY.md"))
        .expect("docs/src/SUMMARY.md");
    let chapters: Vec<_> = support::documentation_files()
        .into_iter()
        .filter(|p| p.parent().is_some_and(|d| d.ends_with("docs/src")))
        .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .filter(|n| n != "SUMMARY.md")
        .collect();
    assert!(chapters.len() >= 10, "{chapters:?}");
    for name in chapters {
        assert!(
            summary.contains(&format!("]({name})")),
            "SUMMARY.md lacks {name}"
        );
    }
}
