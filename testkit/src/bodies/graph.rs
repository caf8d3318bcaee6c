//! Arbitrary bytes loaded (format detected, both syntaxes); a valid loop goes through every
//! back end of `Target::ALL` in every variant: Mermaid in both styles, DOT with and without
//! a legend, PlantUML, Markdown (and the index), the schemas, and the AgentPM, MAS and IR writers
//! (which read their own output back and validate it).

use loopconv::back;
use loopconv::diag::{Diagnostics, Severity};
use loopconv::{LoadOptions, load};

use crate::variants::variants;

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
        for (target, _, opts) in variants(&base) {
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
        let entry = back::markdown::IndexEntry {
            name: spec.name.clone(),
            file_name: format!("{}.md", spec.name),
            description: spec.description.clone(),
            source: name.to_owned(),
        };
        assert!(back::markdown::index(&[entry]).is_ok());
    }
}
