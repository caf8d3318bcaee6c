//! The guide's code reference (`docs/src/codes/`), generated from the registry the way ruff
//! generates its rule pages: one page per code, active or retired, an index, and the
//! entries of the book's table of contents. A test writes them (`LOOPCONV_BLESS=1`) and
//! fails when the committed pages differ, so a page cannot drift from `loopconv explain`:
//! a page is the text `explain` prints, under the same title.

use std::fmt::Write as _;

use super::docs::{self, Row};

/// The file name of a code's page, e.g. `V012.md`.
pub fn page_file(row: Row) -> String {
    format!("{}.md", row.code())
}

/// The page of one code (Markdown): what `loopconv explain` prints, with the command that
/// prints it and a link back to the index in place of the link to the page itself.
pub fn code_page(row: Row) -> String {
    let (body, status) = match row {
        Row::Active(c) => (docs::explain_body(c), ""),
        Row::Retired(r) => (docs::retired_body(r), " (retired codes stay reserved)"),
    };
    let (title, rest) = body.split_once('\n').unwrap_or((body.as_str(), ""));
    format!(
        "{title}\n\n<small>`loopconv explain {}` prints this page{status} · [every code](index.md)</small>\n{rest}",
        row.code()
    )
}

/// The index of the code reference: what the prefixes mean, then one row per code.
pub fn code_index() -> String {
    format!(
        "# Diagnostic codes

Every diagnostic loopconv reports has a stable code: `P` parse and limits, `F` format
shape, `V` validation, `B` conversion. A code's string, name and meaning never change,
and a retired code is never reused. Each page says what the rule checks, why it matters,
a failing example with the command that shows the code, and the fix; `loopconv explain
CODE` prints the same text. SARIF rules (`helpUri`) and the language server's code
descriptions link here.

These pages are generated from the registry in `src/diag/docs/` (`LOOPCONV_BLESS=1 cargo
test --test suite valid::pages` rewrites them); edit the registry, not the pages.

{}",
        docs::checks_table()
    )
}

/// The book's table of contents entries of the code reference, one per code under the
/// index, indented for `docs/src/SUMMARY.md`.
pub fn summary_entries() -> String {
    let mut out = String::from("- [Diagnostic codes](codes/index.md)\n");
    for row in docs::rows() {
        let _ = writeln!(
            out,
            "  - [{} {}](codes/{})",
            row.code(),
            row.name(),
            page_file(row)
        );
    }
    out
}
