//! Arbitrary bytes loaded (format detected, both syntaxes); a valid loop goes through every
//! back end: Mermaid in both styles, DOT, PlantUML, Markdown, and the AgentPM, MAS and IR
//! writers (which read their own output back and validate it).
#![no_main]

use libfuzzer_sys::fuzz_target;
use loopconv::back::{self, ConvertOptions};
use loopconv::diag::{Diagnostics, Severity};
use loopconv::format::{self, Format, LoadOptions, load};

fuzz_target!(|data: &[u8]| {
    for name in ["fuzz.json", "fuzz.yaml"] {
        let l = load(name, data, &LoadOptions::default());
        let Some((spec, info)) = l.valid() else {
            continue;
        };
        for style in [back::mermaid::Style::Flowchart, back::mermaid::Style::State] {
            let _ = back::mermaid::write(spec, info, &back::mermaid::Options { style });
        }
        for legend in [false, true] {
            let _ = back::dot::write(spec, info, &back::dot::Options { legend });
        }
        let _ = back::plantuml::write(spec, info);
        let md = back::markdown::Options::default();
        let page = back::markdown::write(spec, info, name, &md);
        assert!(page.is_ok(), "{page:?}");
        let entry = back::markdown::IndexEntry {
            name: spec.name.clone(),
            file_name: format!("{}.md", spec.name),
            description: spec.description.clone(),
            source: name.to_owned(),
        };
        assert!(back::markdown::index(&[entry], &md).is_ok());
        let opts = ConvertOptions {
            allow_lossy: true,
            actor: Some("actor".into()),
            validator: Some("validator".into()),
            ..ConvertOptions::default()
        };
        for to in Format::ALL {
            let mut diags = Diagnostics::new(name);
            let out = format::write(spec, info, to, &opts, &mut diags);
            assert!(out.is_ok(), "{to:?}: {out:?}");
            // With --allow-lossy and the agent flags, every valid loop converts, and the
            // output passes loopconv's own validation (no B004).
            let errors: Vec<_> = diags
                .items()
                .iter()
                .filter(|d| d.severity == Severity::Error)
                .collect();
            assert!(errors.is_empty(), "{to:?}: {errors:?}");
        }
    }
});
