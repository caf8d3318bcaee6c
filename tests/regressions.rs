//! Regression inputs: every file in `tests/regressions/` is an input that once crashed
//! loopconv or exposed a bug (found by `scripts/fuzz.sh`, the property tests or the limit
//! tests; `tests/regressions/README.md` lists each one and its fix).
//!
//! Each file is read the way every fuzz target reads it (as `.json` and `.yaml`, format
//! detected and forced to each of agentpm, mas and ir), its diagnostics are rendered, and
//! when it is a valid loop it goes through every back end and conversion. Nothing may
//! panic, and each file must give at least one diagnostic (from reading it or, for a valid
//! loop, from converting it), so that none of them is silently accepted.

use std::path::{Path, PathBuf};

use loopconv::back::{self, ConvertOptions};
use loopconv::diag::{self, Diagnostic, Diagnostics, Severity};
use loopconv::format::{self, Format, LoadOptions, Loaded, load};

fn files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/regressions");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.file_name().is_some_and(|n| n != "README.md"))
        .collect();
    v.sort();
    assert!(!v.is_empty(), "no regression file");
    v
}

fn render(l: &Loaded) {
    let source = l.doc.as_ref().map(|d| d.text.as_str());
    let _ = diag::render_human(l.diags.items(), source, false);
    let _ = diag::render_human(l.diags.items(), source, true);
    let _ = diag::render_json(l.diags.items());
    for d in l.diags.items() {
        if let (Some(p), Some(doc)) = (d.location.pos, &l.doc) {
            assert!(
                p.line >= 1 && p.column >= 1 && p.start <= doc.text.len(),
                "{d:?}"
            );
        }
    }
}

/// Every back end on a valid loop; returns the conversion diagnostics.
fn back_ends(name: &str, l: &Loaded) -> Vec<Diagnostic> {
    let Some((spec, info)) = l.valid() else {
        return Vec::new();
    };
    for style in [back::mermaid::Style::Flowchart, back::mermaid::Style::State] {
        let _ = back::mermaid::write(spec, info, &back::mermaid::Options { style });
    }
    for legend in [false, true] {
        let _ = back::dot::write(spec, info, &back::dot::Options { legend });
    }
    back::markdown::write(spec, info, name, &back::markdown::Options::default())
        .unwrap_or_else(|e| panic!("{name}: markdown: {e}"));
    let mut all = Vec::new();
    for (allow_lossy, flags) in [(false, false), (true, true)] {
        let opts = ConvertOptions {
            allow_lossy,
            actor: flags.then(|| "actor".to_owned()),
            validator: flags.then(|| "validator".to_owned()),
            ..ConvertOptions::default()
        };
        for to in Format::ALL {
            let mut diags = Diagnostics::new(name);
            let out = format::write(spec, info, to, &opts, &mut diags);
            let out = out.unwrap_or_else(|e| panic!("{name} -> {}: {e}", to.name()));
            if allow_lossy {
                let errors: Vec<_> = diags
                    .items()
                    .iter()
                    .filter(|d| d.severity == Severity::Error)
                    .collect();
                assert!(errors.is_empty(), "{name} -> {}: {errors:#?}", to.name());
                // What loopconv writes, it reads back without errors.
                let back = load(
                    &format!("out.{}", to.extension()),
                    out.as_bytes(),
                    &LoadOptions::default(),
                );
                assert!(
                    !back.diags.has_errors(),
                    "{name} -> {}: {:#?}",
                    to.name(),
                    back.diags.items()
                );
            }
            all.extend(diags.into_items());
        }
    }
    all
}

#[test]
fn regression_inputs() {
    for f in files() {
        let name = f.display().to_string();
        let bytes = std::fs::read(&f).expect("read");
        // As the fuzz targets read it: both syntaxes, every `--from`.
        for path in ["fuzz.json", "fuzz.yaml", name.as_str()] {
            for from in [
                None,
                Some(Format::Agentpm),
                Some(Format::Mas),
                Some(Format::Ir),
            ] {
                let l = load(
                    path,
                    &bytes,
                    &LoadOptions {
                        from,
                        ..LoadOptions::default()
                    },
                );
                render(&l);
                assert!(
                    l.valid().is_some() || !l.diags.is_empty(),
                    "{name} as {path}, from {from:?}"
                );
                back_ends(&name, &l);
            }
        }
        let l = load(&name, &bytes, &LoadOptions::default());
        let conversions = back_ends(&name, &l);
        assert!(
            !l.diags.is_empty() || !conversions.is_empty(),
            "{name}: no diagnostic at all"
        );
    }
}

/// `IR -> IR` is byte for byte for a valid IR file (a float once came back one ulp off).
#[test]
fn ir_regression_files_round_trip_exactly() {
    for f in files()
        .into_iter()
        .filter(|f| f.to_string_lossy().ends_with(".ir.json"))
    {
        let text = std::fs::read_to_string(&f).expect("read");
        let l = load(
            &f.display().to_string(),
            text.as_bytes(),
            &LoadOptions::default(),
        );
        let Some((spec, _)) = l.valid() else { continue };
        let out = back::ir::write(spec).expect("ir");
        assert_eq!(out, text, "{}", f.display());
    }
}

/// Two non-string keys that are equal are one mistake each (P012), not also a duplicate.
#[test]
fn non_string_keys_are_not_also_duplicates() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/regressions/non-string-keys.yaml");
    let bytes = std::fs::read(&path).expect("read");
    let l = load("k.yaml", &bytes, &LoadOptions::default());
    let codes: Vec<&str> = l.diags.items().iter().map(|d| d.code.as_str()).collect();
    assert_eq!(
        codes.iter().filter(|c| **c == "P012").count(),
        2,
        "{codes:?}"
    );
    assert!(!codes.contains(&"P002"), "{codes:?}");
}
