//! The README shows real output: its Mermaid block is what `loopconv graph` draws today.

use std::path::Path;

#[test]
fn readme_diagram_is_current() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
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

    let bytes = std::fs::read(root.join(file)).expect("example file");
    let loaded = loopconv::format::load(file, &bytes, &Default::default());
    let (spec, info) = loaded.valid().expect("the README example is valid");
    let drawn = loopconv::back::mermaid::write(spec, info, &Default::default());
    assert_eq!(
        block, drawn,
        "README diagram is stale: paste `loopconv graph {file}`"
    );
}
