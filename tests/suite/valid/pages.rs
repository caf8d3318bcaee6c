//! The guide's code reference (`docs/src/codes/`): one page per code, active or retired,
//! generated from the registry (`loopconv::diag::pages`), an index, and the book's table of
//! contents entries; the committed files are current (`LOOPCONV_BLESS=1` rewrites them),
//! nothing else is in the folder, and every link the tool writes (SARIF `helpUri`, the
//! language server's code descriptions, `explain`) names a page that exists.

use std::collections::BTreeSet;

use loopconv::diag::Code;
use loopconv::diag::docs::{self, Row};
use loopconv::diag::pages;

use crate::support;

const BLESS: &str = "LOOPCONV_BLESS=1 cargo test --test suite valid::pages";

#[test]
fn every_code_has_a_current_page() {
    let rows = docs::rows();
    assert!(rows.len() > Code::ALL.len(), "the retired codes have rows");
    for row in rows {
        let file = format!("docs/src/codes/{}", pages::page_file(row));
        support::file_is_current(&file, &pages::code_page(row), BLESS);
    }
    support::file_is_current("docs/src/codes/index.md", &pages::code_index(), BLESS);
}

#[test]
fn the_book_lists_every_code_page() {
    support::region_is_current(
        "docs/src/SUMMARY.md",
        "<!-- codes:start",
        "<!-- codes:end -->",
        &pages::summary_entries(),
        BLESS,
    );
}

/// No page of a code that no longer exists (a stale page would still be published).
#[test]
fn the_code_folder_holds_only_generated_pages() {
    let mut want: BTreeSet<String> = docs::rows().into_iter().map(pages::page_file).collect();
    want.insert("index.md".to_owned());
    let have: BTreeSet<String> = std::fs::read_dir(support::repo().join("docs/src/codes"))
        .expect("docs/src/codes")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(have, want);
}

/// A page shows what the code checks, why, a failing example and the fix, as `explain`.
#[test]
fn a_page_is_what_explain_prints() {
    let page = pages::code_page(Row::Active(Code::UnreachablePhase));
    for part in [
        "# V012 unreachable-phase (error)",
        "`loopconv explain V012` prints this page",
        "## What it checks",
        "## Why it matters",
        "## Example",
        "## Fix",
        "[every code](index.md)",
    ] {
        assert!(page.contains(part), "missing {part:?} in:\n{page}");
    }
    let explained = docs::explain(Code::UnreachablePhase);
    let (_, body) = explained.split_once('\n').expect("a title");
    let body = body.split("\nMore: ").next().expect("the text");
    assert!(page.contains(body.trim()), "{page}\n---\n{explained}");
    let retired = docs::find("V017").expect("V017");
    assert!(pages::code_page(retired).contains("(retired)"));
}

/// Every code's link (SARIF `helpUri`, LSP code description, `explain`) is its page.
#[test]
fn every_help_link_names_its_page() {
    for &code in Code::ALL {
        let uri = docs::help_uri(code);
        let file = uri.strip_prefix(docs::CODES_URL).expect("under CODES_URL");
        assert_eq!(file, format!("{code}.md"));
        assert!(
            support::repo().join("docs/src/codes").join(file).is_file(),
            "{uri}"
        );
        assert!(docs::explain(code).contains(&uri), "{code}");
    }
}
