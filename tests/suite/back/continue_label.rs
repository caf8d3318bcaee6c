//! The `continue` escalation ends a REAL/VEAL loop at `$end` with its issues unresolved:
//! every back end that says what the escalation does labels it so, instead of drawing or
//! describing it as a success (seed 004: "proceed despite unresolved issues").

use loopconv::{Target, back};

const CONTINUE: &str = "name: qa-fix
type: VEAL
validator: qa
actor: fixer
escalation: continue
checks:
  - id: tests
    type: command
    command: go test ./...
";

#[test]
fn continue_is_labelled_ends_issues_unresolved() {
    let l = loopconv::load(
        "qa-fix.yaml",
        CONTINUE.as_bytes(),
        &loopconv::LoadOptions::default(),
    );
    let (spec, info) = l.valid().expect("valid");
    for target in [
        Target::Mermaid,
        Target::Dot,
        Target::PlantUml,
        Target::Markdown,
    ] {
        let mut diags = loopconv::diag::Diagnostics::new("qa-fix.yaml");
        let out = back::render(target, spec, info, &back::Options::default(), &mut diags)
            .unwrap_or_else(|e| panic!("{target:?}: {e:?}"));
        // PlantUML escapes `,` and `:`; compare the words.
        let words = out.replace("<U+002C>", ",").replace("<U+003A>", ":");
        assert!(words.contains("issues unresolved"), "{target:?}: {out}");
    }
    let schema = loopconv::model::schema(loopconv::Format::Mas);
    let text = serde_json::to_string(schema).unwrap();
    assert!(text.contains("issues unresolved"), "{text}");
    assert!(text.contains("no success"), "{text}");
}

/// The multi-agent-spec schema states its defaults as `default` keywords, not only in
/// prose, so that editors offer them (before: "(default 3)" in the description alone).
#[test]
fn the_mas_schema_gives_its_defaults() {
    let schema = loopconv::model::schema(loopconv::Format::Mas);
    assert_eq!(schema["properties"]["max_attempts"]["default"], 3);
    assert_eq!(schema["properties"]["escalation"]["default"], "human");
    assert_eq!(
        schema["$defs"]["Check"]["properties"]["required"]["default"],
        true
    );
}
