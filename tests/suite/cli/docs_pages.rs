//! `docs` pages do not depend on the machine: a loop's source is named relative to the
//! root of its repository (else the current folder), so pages generated from an absolute
//! path, from a relative one, from another folder of the repository, or in two checkouts
//! are the same bytes, and `docs --check` passes on either.

use std::path::Path;

use crate::support::{examples, loopconv};

/// Copy `examples/agentpm` into `dir/checkout/examples/agentpm`.
fn checkout(dir: &Path) -> std::path::PathBuf {
    let root = dir.join("checkout");
    let to = root.join("examples/agentpm");
    std::fs::create_dir_all(&to).expect("mkdir");
    for e in std::fs::read_dir(examples().join("agentpm")).expect("examples") {
        let p = e.expect("entry").path();
        std::fs::copy(&p, to.join(p.file_name().expect("a name"))).expect("copy");
    }
    root
}

fn pages(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<_> = std::fs::read_dir(dir)
        .expect("pages")
        .map(|e| {
            let p = e.expect("entry").path();
            let name = p
                .file_name()
                .expect("a name")
                .to_string_lossy()
                .into_owned();
            (name, std::fs::read(&p).expect("a page"))
        })
        .collect();
    out.sort();
    out
}

#[test]
fn pages_name_the_source_relative_to_the_current_folder() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (one, two) = (
        checkout(&tmp.path().join("a")),
        checkout(&tmp.path().join("b")),
    );
    // The same loops by an absolute path in one checkout, a relative one in the other.
    let absolute = one.join("examples/agentpm");
    loopconv()
        .current_dir(&one)
        .args(["docs", absolute.to_str().expect("utf-8"), "-o", "pages"])
        .assert()
        .success();
    loopconv()
        .current_dir(&two)
        .args(["docs", "examples/agentpm", "-o", "pages"])
        .assert()
        .success();
    let (a, b) = (pages(&one.join("pages")), pages(&two.join("pages")));
    assert!(
        a.len() > 2,
        "pages were written: {:?}",
        a.iter().map(|p| &p.0).collect::<Vec<_>>()
    );
    assert_eq!(
        a, b,
        "the pages depend on the checkout or on how the path was given"
    );
    let index = String::from_utf8_lossy(&a.iter().find(|p| p.0 == "index.md").expect("index").1)
        .into_owned();
    assert!(index.contains("`examples/agentpm/"), "{index}");
    assert!(
        !index.contains(&*tmp.path().to_string_lossy()),
        "an absolute path leaked: {index}"
    );
    // `--check` in one checkout accepts the pages of the other, given either way.
    loopconv()
        .current_dir(&two)
        .args([
            "docs",
            two.join("examples/agentpm").to_str().expect("utf-8"),
            "-o",
            "pages",
            "--check",
        ])
        .assert()
        .success();
}

/// In a repository, the folder `docs` runs in does not matter: from the root, from a
/// sub-folder and from outside, the pages are the same, and name the source from the
/// root.
#[test]
fn in_a_repository_pages_name_the_source_from_its_root() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = checkout(tmp.path());
    std::fs::create_dir(root.join(".git")).expect("mkdir .git");
    let abs = |p: &str| root.join(p).to_str().expect("utf-8").to_owned();
    let runs = [
        (root.clone(), "examples/agentpm".to_owned(), "one"),
        (root.join("examples"), "agentpm".to_owned(), "../two"),
        (
            tmp.path().to_path_buf(),
            abs("examples/agentpm"),
            &*abs("three"),
        ),
    ];
    for (cwd, input, out) in &runs {
        loopconv()
            .current_dir(cwd)
            .args(["docs", input, "-o", out])
            .assert()
            .success();
    }
    let one = pages(&root.join("one"));
    assert_eq!(one, pages(&root.join("two")));
    assert_eq!(one, pages(&root.join("three")));
    let index = String::from_utf8_lossy(&one.iter().find(|p| p.0 == "index.md").expect("index").1)
        .into_owned();
    assert!(
        index.contains("`examples/agentpm/react-loop.json`"),
        "{index}"
    );
    loopconv()
        .current_dir(root.join("examples/agentpm"))
        .args(["docs", ".", "-o", "../../one", "--check"])
        .assert()
        .success();
}
