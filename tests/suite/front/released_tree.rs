//! The front ends free the located tree once their model is built (`TreeUse::Release`, the
//! default) and a later diagnostic reads the text again for its position. Reading every
//! input that way gives exactly what keeping the tree gives: the same loop, the same
//! diagnostics at the same positions, with the same suggestions.

use crate::support::{all_inputs, ir_json, read, rel};
use loopconv::diag::render_json;
use loopconv::{LoadOptions, Loaded, TreeUse, load};

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
