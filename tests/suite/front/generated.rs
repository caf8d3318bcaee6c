//! Generated inputs beyond the valid, small loops (issue 22, item 6): invalid ids,
//! duplicates, dangling references, several checkpoints on one phase, loops of a few
//! hundred phases, and MAS YAML written the way people write it (block scalars, flow
//! style, comments, anchors and aliases, quoted and unquoted scalars), generated as text so
//! that a bug shared by loopconv's reader and writer cannot cancel out.

use crate::back::properties::all_back_ends;
use crate::support::generators::{
    agentpm_spec, always_invalid, apply_defect, config, convert_opts, defect, errors,
    hand_written_mas, load_ok, long_spec, write,
};
use crate::support::ir_json;

use loopconv::diag::Severity;
use loopconv::{Format, LoadOptions, Target, load};
use proptest::prelude::{TestCaseError, prop_assert, prop_assert_eq, proptest};

/// Every diagnostic is coded and located: a pointer, and a line and column within the text.
fn located(l: &loopconv::Loaded, text: &str) -> Result<(), TestCaseError> {
    let lines = u32::try_from(text.lines().count()).unwrap_or(u32::MAX) + 1;
    for d in l.diags.items() {
        prop_assert!(!d.code.as_str().is_empty(), "{d:?}");
        let p = d.location.pos;
        prop_assert!(p.is_some(), "not located: {d:?}\n{text}");
        let p = p.expect("checked");
        prop_assert!(p.line >= 1 && p.column >= 1 && p.line <= lines, "{d:?}");
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(64))]

    /// A defective AgentPM manifest: never a panic; every diagnostic located and coded; an
    /// id, duplicate or dangling defect is an error; several checkpoints on one phase are
    /// valid (V017 is retired), and a loop that validates converts and re-reads.
    #[test]
    fn defective_loops_are_diagnosed_or_convert(spec in agentpm_spec(), d in defect(), opts in convert_opts()) {
        let text = write(Target::Loop(Format::Agentpm), &spec);
        let mut v: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        apply_defect(&mut v, &d);
        let text = serde_json::to_string_pretty(&v).expect("JSON");
        let l = load("defect.json", text.as_bytes(), &LoadOptions::default());
        located(&l, &text)?;
        let has_errors = l.diags.items().iter().any(|d| d.severity == Severity::Error);
        if always_invalid(&d) {
            prop_assert!(has_errors, "{d:?} not diagnosed:\n{text}");
        } else {
            prop_assert!(!has_errors, "{d:?} is valid:\n{:#?}", l.diags.items());
        }
        if l.valid().is_some() {
            all_back_ends(&l, &opts)?;
        }
    }

    /// MAS YAML written by hand reads as the loop it spells (compared with the IR of the
    /// loop the generator meant), without any error, and converts to every format.
    #[test]
    fn hand_written_mas_yaml_reads_as_written(h in hand_written_mas(), opts in convert_opts()) {
        let l = load("hand.yaml", h.yaml.as_bytes(), &LoadOptions::default());
        let errs = errors(&l.diags);
        prop_assert!(errs.is_empty(), "{errs:#?}\n{}", h.yaml);
        let spec = l.spec.as_ref().expect("a loop");
        prop_assert_eq!(
            ir_json(spec),
            ir_json(&loopconv::front::mas::lower(&h.expected)),
            "{}",
            h.yaml
        );
        all_back_ends(&l, &opts)?;
    }
}

proptest! {
    #![proptest_config(config(16))]

    /// Loops of 50 to 300 phases validate, go through every back end and read back.
    #[test]
    fn long_loops_go_through_every_back_end(spec in long_spec(50, 300), opts in convert_opts()) {
        let text = write(Target::Loop(Format::Agentpm), &spec);
        let l = load_ok("long.json", &text, None)?;
        prop_assert_eq!(l.spec.as_ref().map(|s| s.graph.phases.len()), Some(spec.graph.phases.len()));
        prop_assert_eq!(l.spec.as_ref().map(ir_json), Some(ir_json(&spec)));
        all_back_ends(&l, &opts)?;
    }
}
