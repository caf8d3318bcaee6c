//! Arbitrary bytes read as a `.yaml` file with the format detected from the content: the
//! decoder, serde-saphyr with loopconv's budgets, the located YAML tree, detection, the
//! shape check, the front ends and validation.

use loopconv::{LoadOptions, load};

/// One fuzz input: panics on a bug, returns on anything else.
pub fn run(data: &[u8]) {
    let l = load("fuzz.yaml", data, &LoadOptions::default());
    assert!(l.valid().is_some() || !l.diags.is_empty());
}
