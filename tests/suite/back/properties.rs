//! Property tests (issue 4, item 1):
//!
//! * (a) generated valid loops, AgentPM-style phase graphs built as `ir::Spec` values and
//!   REAL/VEAL loops built as `model::mas::Loop` values written to YAML and read back, go
//!   through every back end (agentpm, mas with `--allow-lossy` and the agent flags, ir,
//!   mermaid in both styles, dot with and without legend, plantuml, markdown page and index, the
//!   schemas: every variant of `Target::ALL`, from `support`) without
//!   panicking, and every loop-format output loads again without errors;
//! * (b) `X -> IR -> X` holds for generated AgentPM and MAS loops (write, load, compare the
//!   `Spec`s; MAS compared with `escalation` spelled out, as the writer always writes it);
//! * (c) invalid mutations of the valid example and corpus files (drop a required key,
//!   duplicate a key, change a value's type, re-point an id, remove an outcome) always give
//!   a diagnostic with a line and column; garbage bytes and truncation always give a
//!   diagnostic; nothing ever panics.
//!
//! Case counts are modest so that `cargo test` stays quick on two cores.

use crate::support::generators::{
    agentpm_spec, config, convert_opts, errors, load_ok, mas_loop, mixed_ir, write,
};
use crate::support::{self, ir_json};

use loopconv::back;
use loopconv::diag::{Diagnostics, Severity};
use loopconv::ir::{LoopPattern, Spec};
use loopconv::{Format, Target};
use loopconv::{LoadOptions, Loaded, load};
use proptest::prelude::{TestCaseError, prop_assert, prop_assert_eq, proptest};

// ------------------------------------------------------------------ helpers

/// The loop with the MAS defaults spelled out: the MAS writer always writes `escalation`.
pub(crate) fn effective(spec: &Spec) -> Spec {
    let mut s = spec.clone();
    if matches!(s.pattern, LoopPattern::Real | LoopPattern::Veal) {
        s.bounds.escalation = Some(s.effective_escalation());
    }
    s
}

/// Every back end, the way the CLI calls them (every variant of `Target::ALL`, and the
/// Markdown index); loop-format outputs are read back.
pub(crate) fn all_back_ends(l: &Loaded, opts: &back::Options) -> Result<(), TestCaseError> {
    let (spec, info) = l.valid().expect("a valid loop");
    for w in support::write_every_target("gen", spec, info, opts) {
        let label = &w.label;
        let errs = errors(&w.diags);
        prop_assert!(
            errs.is_empty(),
            "{label} with --allow-lossy and the agent flags: {errs:#?}"
        );
        let text = match w.text {
            Ok(text) => text,
            Err(e) => return Err(TestCaseError::fail(format!("{label}: {e:?}"))),
        };
        prop_assert!(!text.is_empty(), "{label}");
        if let Some(to) = w.target.format() {
            let path = format!("out.{}", to.extension());
            load_ok(&path, &text, None)?;
        }
    }
    let entry = back::markdown::IndexEntry {
        name: spec.name.clone(),
        file_name: format!("{}.md", spec.name),
        description: spec.description.clone(),
        source: "gen".into(),
    };
    prop_assert!(back::markdown::index(&[entry]).is_ok());
    Ok(())
}

// ------------------------------------------------------------------ (a) and (b)

proptest! {
    #![proptest_config(config(128))]

    /// (b) AgentPM -> IR -> AgentPM, and (a) every back end on the loop.
    #[test]
    fn agentpm_round_trip_and_back_ends(spec in agentpm_spec(), opts in convert_opts()) {
        let text = write(Target::Loop(Format::Agentpm), &spec);
        let l = load_ok("gen.json", &text, None)?;
        let back = l.spec.clone().expect("spec");
        prop_assert_eq!(ir_json(&back), ir_json(&spec), "AgentPM -> IR -> AgentPM changed the loop:\n{}", text);
        // The IR's own JSON form is lossless too.
        let ir = write(Target::Loop(Format::Ir), &back);
        let again = load_ok("gen.ir.json", &ir, None)?;
        prop_assert_eq!(again.spec.as_ref().map(ir_json), Some(ir_json(&spec)));
        through_xstate(&l)?;
        all_back_ends(&l, &opts)?;
    }

    /// (b) MAS -> IR -> MAS (the generated loop written as YAML first), and (a) every back
    /// end on the loop.
    #[test]
    fn mas_round_trip_and_back_ends(lp in mas_loop(), opts in convert_opts()) {
        let yaml = back::mas::to_yaml(&lp).expect("yaml");
        let l = load_ok("gen.yaml", &yaml, None)?;
        let spec = l.spec.clone().expect("spec");
        prop_assert_eq!(ir_json(&spec), ir_json(&loopconv::front::mas::lower(&lp)));
        let (s, info) = l.valid().expect("valid");
        let mut diags = Diagnostics::new("gen");
        let out = loopconv::write(Target::Loop(Format::Mas), s, info, &back::Options::default(), &mut diags)
            .expect("mas writer");
        prop_assert!(errors(&diags).is_empty(), "{:#?}", errors(&diags));
        let back = load_ok("back.yaml", &out, None)?;
        prop_assert_eq!(
            ir_json(&effective(back.spec.as_ref().expect("spec"))),
            ir_json(&effective(&spec)),
            "MAS -> IR -> MAS changed the loop:\n{}\n---\n{}",
            yaml,
            out
        );
        let ir = write(Target::Loop(Format::Ir), &spec);
        let again = load_ok("gen.ir.json", &ir, None)?;
        prop_assert_eq!(again.spec.as_ref().map(ir_json), Some(ir_json(&spec)));
        through_xstate(&l)?;
        all_back_ends(&l, &opts)?;
    }
}

/// A valid loop written as an XState machine reads back into the same loop (the
/// transitions' authored order included, whatever the generator chose).
fn through_xstate(l: &Loaded) -> Result<(), TestCaseError> {
    let Some((spec, _)) = l.valid() else {
        return Ok(());
    };
    let machine = write(Target::Loop(Format::Xstate), spec);
    let back = load_ok("gen.xstate.json", &machine, None)?;
    prop_assert_eq!(
        back.spec.as_ref().map(ir_json),
        Some(ir_json(spec)),
        "IR -> XState -> IR changed the loop:\n{}",
        machine
    );
    Ok(())
}

proptest! {
    #![proptest_config(config(128))]

    /// (a) for IR input: whatever mix of fields an IR file holds, reading never panics, and
    /// a valid one goes through every back end.
    #[test]
    fn mixed_ir_through_every_back_end(spec in mixed_ir(), opts in convert_opts()) {
        let ir = serde_json::to_string_pretty(&spec).expect("the IR serialises");
        let l = load("mixed.ir.json", ir.as_bytes(), &LoadOptions::default());
        if l.valid().is_some() {
            prop_assert_eq!(l.spec.as_ref().map(ir_json), Some(ir_json(&spec)));
            all_back_ends(&l, &opts)?;
        } else {
            // The IR that loopconv serialised always parses and has the IR's shape: an
            // invalid one breaks a validation rule (a `V` or `B` code, with a pointer into
            // the document), never the syntax or the shape (`P`, `F`).
            let errors: Vec<_> = l.diags.items().iter().filter(|d| d.severity == Severity::Error).collect();
            prop_assert!(!errors.is_empty(), "invalid without an error: {:?}", l.diags.items());
            for d in errors {
                let code = d.code.as_str();
                prop_assert!(!code.starts_with('P') && !code.starts_with('F'), "{d:?}");
            }
        }
    }
}
