//! Arbitrary bytes read as a `.json` file with the format detected from the content: the
//! decoder, the JSON parser (depth limit, duplicates, escapes, numbers), format detection,
//! the shape check, the front ends and validation.

use loopconv::{LoadOptions, load};

/// One fuzz input: panics on a bug, returns on anything else.
pub fn run(data: &[u8]) {
    let l = load("fuzz.json", data, &LoadOptions::default());
    // Whatever the input, a file that does not load must say why.
    assert!(l.valid().is_some() || !l.diags.is_empty());
}
