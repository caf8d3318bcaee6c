//! The library's example in `src/lib.rs` (its crate documentation), run as a test: the
//! same lines, compared with the documentation's, so that they cannot drift apart. It
//! runs here, not as a doc-test (`doctest = false`), so that `cargo test` ends with the
//! suite's line about the checks it skipped.

use crate::support;

#[test]
fn the_crate_documentations_example_runs() -> Result<(), loopconv::back::Error> {
    use loopconv::{Format, LoadOptions, Target, back, diag::Diagnostics};

    let yaml = r#"
    name: release-gate
    type: VEAL
    actor: fixer
    validator: auditor
    checks:
      - id: tests
        type: command
        command: cargo test
    "#;
    let loaded = loopconv::load(
        "release-gate.yaml",
        yaml.as_bytes(),
        &LoadOptions::default(),
    );
    assert_eq!(loaded.format, Some(loopconv::Format::Mas));
    let Some((spec, info)) = loaded.valid() else {
        panic!("invalid loop: {:?}", loaded.diags.items());
    };
    // The analysis names phases by their index in the loop's graph.
    let reachable: Vec<&str> = spec.graph.phase_ids(&info.reachable_phases).collect();
    assert_eq!(reachable, ["validate", "eval", "act"]);

    let mut diags = Diagnostics::new("release-gate.yaml");
    let mermaid = loopconv::write(
        Target::Mermaid,
        spec,
        info,
        &back::Options::default(),
        &mut diags,
    )?;
    assert!(mermaid.contains("flowchart TD"));

    // Converting to AgentPM loses the agent names: an error unless lossy output is allowed.
    let opts = back::Options {
        allow_lossy: true,
        ..back::Options::default()
    };
    let manifest = loopconv::write(Target::Loop(Format::Agentpm), spec, info, &opts, &mut diags)?;
    assert!(manifest.contains("\"entry_phase\": \"validate\""));
    assert!(!diags.has_errors());
    Ok(())
}

/// The example above is the one in `src/lib.rs`, word for word (rustfmt may wrap its lines).
#[test]
fn the_example_is_the_documentations() {
    let lib = String::from_utf8(support::read(&support::repo().join("src/lib.rs"))).unwrap();
    let doc: Vec<&str> = (lib.lines())
        .filter_map(|l| l.strip_prefix("//!"))
        .map(|l| l.strip_prefix(' ').unwrap_or(l))
        .skip_while(|l| *l != "# Example")
        .skip_while(|l| *l != "```")
        .skip(1)
        .take_while(|l| *l != "```")
        .filter(|l| !l.starts_with("# "))
        .collect();
    let here = String::from_utf8(support::read(
        &support::repo().join("tests/suite/library.rs"),
    ))
    .unwrap();
    let test: Vec<&str> = (here.lines())
        .skip_while(|l| !l.starts_with("fn the_crate_documentations_example_runs"))
        .skip(1)
        .take_while(|l| *l != "    Ok(())")
        .map(|l| l.strip_prefix("    ").unwrap_or(l))
        .collect();
    // Compared without whitespace and the trailing commas rustfmt adds where it wraps.
    let words = |lines: &[&str]| {
        let joined: String = lines.concat().split_whitespace().collect();
        joined
            .replace(",)", ")")
            .replace(",]", "]")
            .replace(",}", "}")
    };
    assert_eq!(
        words(&doc),
        words(&test),
        "tests/suite/library.rs and the example in src/lib.rs differ"
    );
}
