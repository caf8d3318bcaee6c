//! `loopconv schema --outcomes`: a valid schema that accepts only the loop's real results.

use crate::support::{examples, load_file, loopconv, new_scaffolds};
use serde_json::{Value, json};

#[test]
fn outcome_schema_is_a_valid_schema_that_accepts_only_real_results() {
    let dir = tempfile::tempdir().unwrap();
    let mut files: Vec<_> = new_scaffolds(dir.path())
        .into_iter()
        .map(|(_, f)| f)
        .collect();
    files.push(examples().join("agentpm/react-loop.json"));
    for f in &files {
        let out = loopconv()
            .args(["schema", "--outcomes"])
            .arg(f)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", f.display());
        let schema: Value = serde_json::from_slice(&out.stdout).unwrap();
        jsonschema::draft202012::meta::validate(&schema).unwrap();
        let v = jsonschema::draft202012::new(&schema).unwrap();
        let l = load_file(f);
        let (spec, _) = l.valid().unwrap();
        for p in &spec.graph.phases {
            for o in p.outcome_ids() {
                let ok = json!({"phase": p.id, "outcome": o, "summary": "extra keys are allowed"});
                assert!(v.is_valid(&ok), "{}: {ok}", f.display());
            }
            assert!(!v.is_valid(&json!({"phase": p.id, "outcome": "no-such-outcome"})));
            assert!(!v.is_valid(&json!({"phase": p.id})));
        }
        assert!(!v.is_valid(&json!({"phase": "no-such-phase", "outcome": "complete"})));
    }
    let react = examples().join("agentpm/react-loop.json");
    let out = loopconv()
        .args(["schema", "--outcomes"])
        .arg(&react)
        .output()
        .unwrap();
    let schema: Value = serde_json::from_slice(&out.stdout).unwrap();
    let v = jsonschema::draft202012::new(&schema).unwrap();
    // `act` is an outcome of `reason`, not of `reflect`.
    assert!(v.is_valid(&json!({"phase": "reason", "outcome": "act"})));
    assert!(!v.is_valid(&json!({"phase": "reflect", "outcome": "act"})));
    insta::assert_snapshot!(
        "outcome_schema_react",
        String::from_utf8(out.stdout).unwrap()
    );
    // The format schemas still work.
    loopconv().args(["schema", "mas"]).assert().success();
    loopconv().args(["schema", "nope"]).assert().code(2);
}
