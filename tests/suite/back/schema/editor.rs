//! Editor schemas: the yaml-language-server modeline form of the guide (`docs/src/editors.md`)
//! (`# yaml-language-server: $schema=...`) works with the schema that `loopconv schema mas`
//! writes.
//!
//! The test does what an editor does with the modeline: it finds the comment, resolves the
//! schema path against the YAML file's folder, and validates the document with that schema
//! (the independent `jsonschema` crate, draft 2020-12 like the schema). A loop that
//! `loopconv check` accepts passes, a broken one fails on the field the guide names, and
//! the modeline comment does not change `loopconv check`'s verdict.

use std::path::{Path, PathBuf};

use crate::support::{loopconv, read, repo};
use serde_json::Value;

/// The schema path or URL of a `# yaml-language-server: $schema=...` modeline, if any.
fn modeline(text: &str) -> Option<&str> {
    text.lines()
        .filter_map(|l| l.trim_start().strip_prefix('#'))
        .filter_map(|l| l.trim_start().strip_prefix("yaml-language-server:"))
        .find_map(|l| l.trim_start().strip_prefix("$schema="))
        .map(str::trim)
}

/// Validate `file` as an editor would: with the schema its modeline names.
fn editor_verdict(file: &Path) -> Result<(), Vec<String>> {
    let text = String::from_utf8(read(file)).expect("utf-8");
    let target = modeline(&text).expect("the file has a modeline");
    let schema_path: PathBuf = file.parent().expect("a folder").join(target);
    let schema: Value = serde_json::from_slice(&read(&schema_path)).expect("schema JSON");
    let validator = jsonschema::draft202012::new(&schema).expect("the schema compiles");
    let doc: Value = serde_saphyr::from_str(&text).expect("YAML");
    let errors: Vec<String> = validator
        .iter_errors(&doc)
        .map(|e| format!("{}: {e}", e.instance_path))
        .collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

fn with_modeline(loop_file: &str) -> String {
    let body = String::from_utf8(read(&repo().join(loop_file))).expect("utf-8");
    format!("# yaml-language-server: $schema=../schemas/mas.schema.json\n{body}")
}

#[test]
fn modeline_with_the_written_mas_schema() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (schemas, loops) = (tmp.path().join("schemas"), tmp.path().join("loops"));
    std::fs::create_dir_all(&schemas).expect("mkdir");
    std::fs::create_dir_all(&loops).expect("mkdir");
    loopconv()
        .args(["schema", "mas", "-o"])
        .arg(schemas.join("mas.schema.json"))
        .assert()
        .success();

    let good = loops.join("release-gate.yaml");
    std::fs::write(&good, with_modeline("examples/mas/veal-release-gate.yaml")).expect("write");
    assert_eq!(editor_verdict(&good), Ok(()));
    loopconv().arg("check").arg(&good).assert().success();

    // A REAL loop without `mission` (V101): the editor flags it too, on `mission`.
    let bad = loops.join("missing-mission.yaml");
    std::fs::write(
        &bad,
        with_modeline("examples/invalid/V101-missing-mission.yaml"),
    )
    .expect("write");
    let errors = editor_verdict(&bad).expect_err("the schema rejects it");
    assert!(errors.iter().any(|e| e.contains("mission")), "{errors:#?}");
    loopconv().arg("check").arg(&bad).assert().code(1);
}

#[test]
fn modeline_parsing() {
    assert_eq!(
        modeline("name: x\n# yaml-language-server: $schema=../s.json\n"),
        Some("../s.json")
    );
    assert_eq!(modeline("# a comment\nname: x\n"), None);
}
