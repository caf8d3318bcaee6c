//! Arbitrary bytes loaded (format detected, both syntaxes); a valid loop goes through every
//! back end of `Target::ALL` in every variant: Mermaid in both styles, DOT with and without
//! a legend, PlantUML, Markdown (and the index), the schemas, and the AgentPM, MAS and IR writers
//! (which read their own output back and validate it).

use loopconv::Target;
use loopconv::back::{self, mermaid::Style};
use loopconv::diag::{Diagnostics, Severity};
use loopconv::{Format, LoadOptions, load};

/// The options of each variant of a back end (an exhaustive match: a new back end or style
/// must be added here).
fn variants(target: Target, base: &back::Options) -> Vec<back::Options> {
    match target {
        Target::Mermaid => [Style::Flowchart, Style::State]
            .map(|style| back::Options {
                style,
                ..base.clone()
            })
            .to_vec(),
        Target::Dot => [false, true]
            .map(|legend| back::Options {
                legend,
                ..base.clone()
            })
            .to_vec(),
        Target::Schema => Format::ALL
            .map(|f| back::Options {
                schema: Some(f),
                ..base.clone()
            })
            .to_vec(),
        Target::Loop(Format::Ir)
        | Target::Loop(Format::Agentpm)
        | Target::Loop(Format::Mas)
        | Target::Loop(Format::Xstate)
        | Target::PlantUml
        | Target::Markdown
        | Target::LangGraph => {
            vec![base.clone()]
        }
    }
}

/// One fuzz input: panics on a bug, returns on anything else.
pub fn run(data: &[u8]) {
    for name in ["fuzz.json", "fuzz.yaml"] {
        let l = load(name, data, &LoadOptions::default());
        let Some((spec, info)) = l.valid() else {
            continue;
        };
        let base = back::Options {
            allow_lossy: true,
            actor: Some("actor".into()),
            validator: Some("validator".into()),
            source: name.to_owned(),
            ..back::Options::default()
        };
        for target in Target::ALL {
            for opts in variants(target, &base) {
                let mut diags = Diagnostics::new(name);
                let out = loopconv::write(target, spec, info, &opts, &mut diags);
                assert!(out.is_ok(), "{target}: {out:?}");
                // With --allow-lossy and the agent flags, every valid loop converts, and the
                // output passes loopconv's own validation (no B004).
                let errors: Vec<_> = diags
                    .items()
                    .iter()
                    .filter(|d| d.severity == Severity::Error)
                    .collect();
                assert!(errors.is_empty(), "{target}: {errors:?}");
            }
        }
        let entry = back::markdown::IndexEntry {
            name: spec.name.clone(),
            file_name: format!("{}.md", spec.name),
            description: spec.description.clone(),
            source: name.to_owned(),
        };
        assert!(back::markdown::index(&[entry]).is_ok());
    }
}
