//! `loopconv check --from X` on arbitrary bytes: every format forced on every input, with
//! both syntaxes, with and without `--allow-lossy`, plus the human and JSON renderings of
//! the diagnostics.

use loopconv::diag;
use loopconv::{Format, LoadOptions, load};

/// One fuzz input: panics on a bug, returns on anything else.
pub fn run(data: &[u8]) {
    for name in ["fuzz.json", "fuzz.yaml"] {
        for (from, allow_lossy) in Format::ALL
            .into_iter()
            .flat_map(|f| [(f, false), (f, true)])
        {
            let opts = LoadOptions {
                from: Some(from),
                allow_lossy,
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
            let human = diag::render_human(l.diags.items(), l.text(), false);
            for d in l.diags.items() {
                assert!(human.contains(d.code.as_str()), "{d:?} not in {human}");
            }
            let json = diag::render_json(l.diags.items());
            assert!(
                serde_json::from_str::<serde_json::Value>(&json).is_ok(),
                "the JSON rendering parses: {json}"
            );
        }
    }
}
