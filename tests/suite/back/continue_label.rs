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

/// The back ends that are programs or data, and the schemas of the formats that hold an
/// escalation, label `continue` too.
#[test]
fn continue_is_labelled_in_every_back_end_and_schema() {
    let l = loopconv::load(
        "qa-fix.yaml",
        CONTINUE.as_bytes(),
        &loopconv::LoadOptions::default(),
    );
    let (spec, info) = l.valid().expect("valid");
    let label = "the loop ends, issues unresolved (not a success)";
    let render = |target| {
        let mut diags = loopconv::diag::Diagnostics::new("qa-fix.yaml");
        back::render(target, spec, info, &back::Options::default(), &mut diags)
            .unwrap_or_else(|e| panic!("{target:?}: {e:?}"))
    };
    let graph = render(Target::LangGraph);
    assert!(
        graph.contains(
            "\"escalate\": \"$end\",  # status ended: escalation continue ends, issues unresolved (no success)"
        ),
        "{graph}"
    );
    for format in [
        loopconv::Format::Xstate,
        loopconv::Format::Ir,
        loopconv::Format::Agentpm,
    ] {
        let out = render(Target::Loop(format));
        assert!(out.contains(label), "{format:?}: {out}");
    }
    for format in [loopconv::Format::Ir, loopconv::Format::Xstate] {
        let schema = loopconv::model::schema(format);
        let text = schema["$defs"]["Escalation"]["description"]
            .as_str()
            .unwrap_or_default()
            .replace('\n', " ");
        assert!(
            text.contains("`continue` ends the loop with its issues unresolved"),
            "{format:?}: {text}"
        );
    }
    // Another escalation keeps its plain words.
    let human = CONTINUE.replace("escalation: continue", "escalation: human");
    let l = loopconv::load(
        "qa-fix.yaml",
        human.as_bytes(),
        &loopconv::LoadOptions::default(),
    );
    let (spec, info) = l.valid().expect("valid");
    let mut diags = loopconv::diag::Diagnostics::new("qa-fix.yaml");
    let graph = back::render(
        Target::LangGraph,
        spec,
        info,
        &back::Options::default(),
        &mut diags,
    )
    .expect("LangGraph");
    assert!(!graph.contains("issues unresolved"), "{graph}");
}

/// The multi-agent-spec schema states its defaults as `default` keywords, not only in
/// prose, so that editors offer them.
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
