//! `X -> IR -> X` round trips (`../shared/spec/mapping.md`), and null values kept by them.

use crate::back::roundtrip::{agentpm_inputs, files_in, mas_inputs, x_ir_x};
use crate::support;
use loopconv::Format;
use std::path::PathBuf;

#[test]
fn agentpm_ir_agentpm() {
    for path in agentpm_inputs() {
        x_ir_x(&path, Format::Agentpm);
    }
}

/// A `null` written in a pass-through field (a port's `schema` or `default`) is not the same
/// as a missing key: it survives `X -> IR -> X` (found by the `roundtrip` fuzz target).
/// (`environment: null` was the third such case; upstream rejects it, and so does loopconv
/// now: `tests/regressions/agentpm-environment-null.json` is an `F003`.)
#[test]
fn null_values_survive_the_round_trip() {
    let dir = support::repo().join("tests/regressions");
    let mas: Vec<PathBuf> = files_in(&dir, "yaml")
        .into_iter()
        .filter(|p| p.to_string_lossy().contains("-null-dropped."))
        .collect();
    assert_eq!(mas.len(), 2, "the null regression files");
    for path in mas {
        x_ir_x(&path, Format::Mas);
    }
}

#[test]
fn mas_ir_mas() {
    for path in mas_inputs() {
        x_ir_x(&path, Format::Mas);
    }
}
