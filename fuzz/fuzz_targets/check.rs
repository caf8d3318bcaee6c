//! `loopconv check --from X` on arbitrary bytes: every format forced on every input, with
//! both syntaxes, plus the human and JSON renderings of the diagnostics.
#![no_main]

use libfuzzer_sys::fuzz_target;
use loopconv::diag;
use loopconv::{Format, LoadOptions, load};

fuzz_target!(|data: &[u8]| {
    for name in ["fuzz.json", "fuzz.yaml"] {
        for from in Format::ALL {
            let opts = LoadOptions {
                from: Some(from),
                ..LoadOptions::default()
            };
            let l = load(name, data, &opts);
            assert!(l.valid().is_some() || !l.diags.is_empty());
            for d in l.diags.items() {
                if let (Some(p), Some(doc)) = (d.location.pos, &l.doc) {
                    assert!(
                        p.start <= doc.text.len() && p.line >= 1 && p.column >= 1,
                        "{d:?}"
                    );
                }
            }
            let _ = diag::render_human(l.diags.items(), l.text(), false);
            let _ = diag::render_json(l.diags.items());
        }
    }
});
