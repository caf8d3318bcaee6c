//! The README shows real output: its Mermaid block is what `loopconv graph` draws today, and
//! its code table is the one the diagnostic registry generates.

mod common;

use loopconv::Target;
use loopconv::back;
use loopconv::diag::{Diagnostics, docs};

#[test]
fn readme_diagram_is_current() {
    let root = common::repo();
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README.md");
    let start = readme
        .find("<!-- graph:start ")
        .expect("graph:start marker");
    let rest = &readme[start + "<!-- graph:start ".len()..];
    let (file, rest) = rest.split_once(" -->").expect("marker end");
    let body = rest.split_once("```mermaid\n").expect("mermaid fence").1;
    let block = body
        .split_once("```\n<!-- graph:end -->")
        .expect("graph:end marker")
        .0;

    let loaded = common::load_file(&root.join(file));
    let (spec, info) = loaded.valid().expect("the README example is valid");
    // `loopconv graph` with its defaults.
    let mut diags = Diagnostics::new(file);
    let drawn = loopconv::write(
        Target::Mermaid,
        spec,
        info,
        &back::Options::default(),
        &mut diags,
    )
    .expect("mermaid");
    assert!(diags.is_empty(), "{:#?}", diags.items());
    assert_eq!(
        block, drawn,
        "README diagram is stale: paste `loopconv graph {file}`"
    );
}

/// The code table lists every code of the registry, as `docs::code_table` renders it;
/// `LOOPCONV_BLESS=1` (exactly `1`) rewrites it.
#[test]
fn readme_code_table_is_current() {
    common::readme_region_is_current(
        "<!-- codes:start",
        "<!-- codes:end -->",
        &docs::code_table(),
        "LOOPCONV_BLESS=1 cargo test --test readme",
    );
}
