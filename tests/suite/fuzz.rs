//! The fuzz targets on stable (cargo-fuzz needs nightly): each target's body
//! (`testkit/src/bodies/`, the same code `fuzz/fuzz_targets/` hands to libFuzzer) runs over every
//! file of `examples/`, `tests/regressions/` and `tests/fixtures/xstate-wild/` as a seed, and over a fixed number of
//! mutations of each (bit flips, cuts, inserted bytes, splices of two seeds). The mutations
//! come from a fixed seed: the run is bounded by count, not time, and the same every time.

use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};

use crate::support::{examples, files_under, rel, repo};
use loopconv_testkit::bodies;

/// Mutations per seed file.
const MUTATIONS: usize = 6;

/// xorshift64*: a small deterministic generator, enough to pick mutations.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number below `n` (0 when `n` is 0).
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            return 0;
        }
        (self.next() % n as u64) as usize
    }
}

/// Every seed file, with its name as a user would type it.
fn seeds() -> Vec<(String, Vec<u8>)> {
    let mut files = files_under(&examples());
    files.extend(files_under(&repo().join("tests/regressions")));
    files.extend(files_under(&repo().join("tests/fixtures/xstate-wild")));
    let seeds: Vec<_> = files
        .into_iter()
        .filter(|p| p.file_name().is_some_and(|n| n != "README.md"))
        .map(|p| (rel(&p), crate::support::read(&p)))
        .collect();
    assert!(seeds.len() > 50, "only {} seed files", seeds.len());
    seeds
}

/// One mutation of `seed`, the name saying which.
fn mutate(rng: &mut Rng, seed: &[u8], other: &[u8]) -> (String, Vec<u8>) {
    let mut v = seed.to_vec();
    let at = rng.below(v.len() + 1);
    let name = match rng.below(4) {
        0 if !v.is_empty() => {
            let i = at.min(v.len() - 1);
            v[i] ^= 1 << rng.below(8);
            format!("bit flip at {i}")
        }
        1 => {
            v.truncate(at);
            format!("cut at {at}")
        }
        2 => {
            let bytes = [
                b'{', b'}', b'[', b':', b'"', b'\n', b'-', b'&', b'*', 0, 0xff,
            ];
            let b = bytes[rng.below(bytes.len())];
            v.insert(at, b);
            format!("byte {b:#04x} inserted at {at}")
        }
        _ => {
            let from = rng.below(other.len() + 1);
            v.truncate(at);
            v.extend_from_slice(&other[from..]);
            format!("spliced at {at} with another seed from {from}")
        }
    };
    (name, v)
}

/// Run one target over every seed and its mutations; a panic names the input.
fn run_target(target: &str) {
    let (_, run) = bodies::ALL
        .iter()
        .find(|(name, _)| *name == target)
        .expect("a fuzz target");
    let seeds = seeds();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for (k, (name, bytes)) in seeds.iter().enumerate() {
        let other = &seeds[(k + 1) % seeds.len()].1;
        let mut inputs = vec![("as is".to_owned(), bytes.clone())];
        inputs.extend((0..MUTATIONS).map(|_| mutate(&mut rng, bytes, other)));
        for (how, input) in inputs {
            if let Err(panic) = catch_unwind(AssertUnwindSafe(|| run(&input))) {
                eprintln!("fuzz target {target} failed on {name}, {how}");
                resume_unwind(panic);
            }
        }
    }
}

#[test]
fn every_target_is_tested() {
    let names: Vec<&str> = bodies::ALL.iter().map(|(n, _)| *n).collect();
    let manifest =
        std::fs::read_to_string(repo().join("fuzz/Cargo.toml")).expect("fuzz/Cargo.toml");
    let bins = manifest.matches("[[bin]]").count();
    assert_eq!(
        names.len(),
        bins,
        "fuzz/Cargo.toml has {bins} targets: {names:?}"
    );
    for n in names {
        assert!(manifest.contains(&format!("name = \"{n}\"")), "{n}");
    }
}

#[test]
fn json_front() {
    run_target("json_front");
}

#[test]
fn yaml_front() {
    run_target("yaml_front");
}

#[test]
fn check() {
    run_target("check");
}

#[test]
fn graph() {
    run_target("graph");
}

#[test]
fn roundtrip() {
    run_target("roundtrip");
}

#[test]
fn report() {
    run_target("report");
}

#[test]
fn lsp() {
    run_target("lsp");
}

#[test]
fn workspace() {
    run_target("workspace");
}
