//! `loopconv new`: every scaffold passes `check --strict` and every back end; conversions
//! only where exact; bad names and overwrites are refused.

use crate::support::*;
use loopconv::scaffold::Archetype;
use predicates::prelude::PredicateBooleanExt as _;
use serde_json::Value;

#[test]
fn every_scaffold_passes_check_strict_and_every_back_end() {
    let dir = tempfile::tempdir().unwrap();
    for (a, f) in new_scaffolds(dir.path()) {
        loopconv()
            .args(["check", "--strict"])
            .arg(&f)
            .assert()
            .success();
        let l = load_file(&f);
        assert!(l.diags.is_empty(), "{}: {:?}", a.name(), l.diags.items());
        let (spec, info) = l.valid().unwrap();
        assert_eq!(spec.name, format!("{}-demo", a.name()));
        for w in write_every_target(a.name(), spec, info, &lossy_options()) {
            assert!(w.text.is_ok(), "{} {}: {:?}", a.name(), w.label, w.text);
            assert!(!w.diags.has_errors(), "{} {}", a.name(), w.label);
        }
        // Every reachable terminal of each scaffold is `$end` or a deliberate stop, and
        // success fits its budget.
        assert!(info.success_fits_budget(), "{}", a.name());
    }
}

#[test]
fn new_converts_only_where_exact() {
    for a in Archetype::ALL {
        let out = loopconv()
            .args(["new", "--archetype", a.name(), "--name", "x", "--to", "ir"])
            .assert()
            .success();
        let ir: Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
        assert_eq!(ir["name"], "x");
    }
    // A ReAct graph is not a REAL/VEAL loop, and a VEAL loop's agents and checks have no
    // place in AgentPM: both refuse, with exit 1 and the reason.
    loopconv()
        .args(["new", "--archetype", "react", "--name", "x", "--to", "mas"])
        .assert()
        .code(1)
        .stderr(predicates::str::contains("without losing data"))
        // The losses' help lines named `convert`'s flags, which `new` refuses.
        .stderr(predicates::str::contains("pass `--").not());
    loopconv()
        .args([
            "new",
            "--archetype",
            "veal",
            "--name",
            "x",
            "--to",
            "agentpm",
        ])
        .assert()
        .code(1)
        .stderr(predicates::str::contains("B001"));
}

#[test]
fn new_refuses_bad_names_and_overwrites() {
    loopconv()
        .args(["new", "--archetype", "react", "--name", "Bad Name"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("kebab-case"));
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("a.json");
    std::fs::write(&f, "keep").unwrap();
    loopconv()
        .args(["new", "--archetype", "react", "--name", "a", "-o"])
        .arg(&f)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--force"));
    assert_eq!(std::fs::read_to_string(&f).unwrap(), "keep");
}
