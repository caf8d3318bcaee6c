//! The front ends free the located tree once their model is built (`TreeUse::Release`, the
//! default) and a later diagnostic reads the text again for its position. Reading every
//! input that way gives exactly what keeping the tree gives: the same loop, the same
//! diagnostics at the same positions, with the same suggestions.

use crate::support::{all_inputs, ir_json, read, rel};
use loopconv::diag::render_json;
use loopconv::{Format, LoadOptions, Loaded, TreeUse, load};

fn load_with(path: &std::path::Path, tree: TreeUse) -> Loaded {
    let opts = LoadOptions {
        tree,
        ..LoadOptions::default()
    };
    load(&rel(path), &read(path), &opts)
}

#[test]
fn freeing_the_tree_changes_nothing_a_reader_sees() {
    let (mut read_again, mut still_freed) = (0, 0);
    for path in all_inputs() {
        let kept = load_with(&path, TreeUse::Keep);
        let freed = load_with(&path, TreeUse::Release);
        let name = rel(&path);
        assert_eq!(
            render_json(freed.diags.items()),
            render_json(kept.diags.items()),
            "{name}: the diagnostics differ"
        );
        assert_eq!(
            freed.spec.as_ref().map(ir_json),
            kept.spec.as_ref().map(ir_json),
            "{name}: the loop differs"
        );
        if let (Some(doc), Some(_)) = (&freed.doc, &freed.spec) {
            let held = doc.holds_tree();
            (read_again, still_freed) = (
                read_again + usize::from(held),
                still_freed + usize::from(!held),
            );
            assert_eq!(
                doc.root(),
                kept.doc.as_ref().map(|d| d.root()).expect("kept"),
                "{name}: the tree read again differs"
            );
        }
    }
    // Both kinds are among the inputs: a diagnostic found after the front end (the tree was
    // read again for its position), and none (the tree is still freed).
    assert!(read_again > 0, "no input read its tree again");
    assert!(still_freed > 0, "no input freed its tree");
}

/// How many times [`count_release`] was called.
static RELEASES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

fn count_release() {
    RELEASES.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
}

/// `TreeUse::ReleaseThen` calls its function once the tree is freed: once for a loop of
/// each format, never when the tree is kept. (One test, so that no other test of this
/// binary calls the function while it counts.)
#[test]
fn the_function_after_release_is_called_once_the_tree_is_freed() {
    use std::sync::atomic::Ordering::SeqCst;
    let agentpm = read(&crate::support::examples().join("agentpm/react-loop.json"));
    let mas = read(&crate::support::examples().join("mas/veal-release-gate.yaml"));
    let xstate = written_as(Format::Xstate, &agentpm);
    let ir = written_as(Format::Ir, &agentpm);
    let inputs = [
        ("react-loop.json", agentpm),
        ("veal-release-gate.yaml", mas),
        ("react-loop.xstate.json", xstate),
        ("react-loop.ir.json", ir),
    ];
    let load_text = |name: &str, text: &[u8], tree| {
        let opts = LoadOptions {
            tree,
            ..LoadOptions::default()
        };
        load(name, text, &opts)
    };
    for (name, text) in &inputs {
        let before = RELEASES.load(SeqCst);
        let kept = load_text(name, text, TreeUse::Keep);
        assert!(kept.spec.is_some(), "{name}: no loop");
        assert_eq!(
            RELEASES.load(SeqCst),
            before,
            "{name}: called with the tree kept"
        );
        let freed = load_text(name, text, TreeUse::ReleaseThen(count_release));
        assert!(freed.spec.is_some(), "{name}: no loop");
        assert_eq!(RELEASES.load(SeqCst), before + 1, "{name}: not called once");
        assert!(
            freed.doc.as_ref().is_some_and(|d| !d.holds_tree()),
            "{name}: the tree is held"
        );
    }
}

/// A manifest written in `format`.
fn written_as(format: Format, manifest: &[u8]) -> Vec<u8> {
    let loaded = load("loop.json", manifest, &LoadOptions::default());
    let (spec, info) = loaded.valid().expect("a valid loop");
    let mut diags = loopconv::diag::Diagnostics::new("loop.json");
    let opts = loopconv::back::Options::default();
    loopconv::write(
        loopconv::Target::Loop(format),
        spec,
        info,
        &opts,
        &mut diags,
    )
    .expect("the loop in the format")
    .into_bytes()
}
