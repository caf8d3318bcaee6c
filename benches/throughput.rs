//! Throughput of the read pipeline, stage by stage, and of every back end, with divan's
//! statistics (fastest, slowest, median and mean of the samples, and MB/s of input).
//!
//! `cargo bench --bench throughput` runs every benchmark: about a minute and a half on a
//! 2-core machine, since each benchmark stops at its group's sample count or time ceiling,
//! whichever comes first. A filter (a regular expression on the path, such as
//! `corpus_1000::4_load` or `5_write::mermaid flowchart`) picks some; divan's environment
//! variables (or flags) change the sampling. `DIVAN_MAX_TIME` is the ceiling per benchmark
//! and `DIVAN_SAMPLE_COUNT` the number of samples, so lowering either gives a quick run;
//! `DIVAN_MIN_TIME` is a floor (more samples for steadier numbers), not a limit:
//!
//! ```text
//! cargo bench --bench throughput -- --list              # the tree of benchmarks
//! cargo bench --bench throughput -- agentpm_10000       # one workload
//! cargo bench --bench throughput -- 'write::mermaid'    # one back end on every workload
//! DIVAN_MAX_TIME=0.2 cargo bench --bench throughput     # a quick run (about 0.2 s each)
//! DIVAN_SAMPLE_COUNT=100 DIVAN_MIN_TIME=5 cargo bench --bench throughput -- corpus
//! ```
//!
//! Each workload is a group (its sample count and time ceiling are set on the group):
//!
//! * `examples`: every loop file of `examples/` and of the conformance corpus
//!   (`../shared/corpus`, when present), except `invalid/`, hostile files included;
//! * `agentpm_1000`, `agentpm_10000`: one generated AgentPM loop of 1,000 and 10,000 phases
//!   (`testkit/src/workload`, seed 42);
//! * `corpus_1000`: 1,000 files of the generated mixed corpus (AgentPM and MAS, 1-6 KB);
//! * `diagnostics_10000`: the 10,000-phase loop without `$schema` (one `F012` warning) and
//!   the one with errors in 1 % of its phases (100 errors; `5_write` writes only the
//!   other, the one valid loop);
//! * `shapes_10000`: loops shaped unlike the others (`testkit/src/workload/shapes.rs`): one-word
//!   texts minified with sorted keys, self-loops in tabs, and a MAS VEAL loop of 10,000
//!   checks (YAML).
//!
//! and in each, one iteration runs a stage over every file of the workload:
//!
//! * `1_read`: `tree::decode` and the syntax's parser (`tree::parse_json`, or
//!   `tree::parse_yaml` for a `.yaml` file), into the located tree;
//! * `2_front`: `Format::read` (the format's front end: shape check, format warnings,
//!   lowering into the IR) of every file that parsed, its format detected beforehand;
//! * `3_validate`: `valid::validate` (references, policy and graph analysis) of every loop
//!   that was built;
//! * `4_load`: the whole of `loopconv::load` (what `loopconv check` does per file);
//! * `5_write`: `loopconv::write` of every valid loop, once per back end of `Target::ALL` in
//!   every variant (`tests/common`'s `variants`: Mermaid styles, DOT with a legend, the
//!   schema of every format), with `--allow-lossy`; a loop format's output is read back
//!   and validated, as the CLI does. A new back end is measured without editing this file.
//!
//! Throughput is in bytes of input (the bytes of the files that reached the stage) and in
//! files (`item/s`; for the single loops, loops per second).

use loopconv_testkit::{support as common, workload};

use std::fmt;
use std::hint::black_box;

use divan::Bencher;
use divan::counter::{BytesCount, ItemsCount};
use loopconv::diag::Diagnostics;
use loopconv::front::vocabulary::KEYS;
use loopconv::ir::Spec;
use loopconv::tree::{self, Document, ReadLimits};
use loopconv::valid::{self, Info};
use loopconv::{Format, LoadOptions, Loaded, TreeUse};
use loopconv::{Target, back};

/// The binary's allocator, so that the numbers are the ones `loopconv` gets.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    divan::main();
}

/// One input file.
struct File {
    name: String,
    bytes: Vec<u8>,
}

/// A workload and what each stage starts from, computed once when a benchmark of its group
/// first runs.
struct Workload {
    files: Vec<File>,
    /// Every file that parsed, with its detected format and its size.
    /// Each file's tree (behind a lock: the front end takes it mutably, and keeps it).
    docs: Vec<(Format, std::sync::Mutex<Document>, usize)>,
    /// Every loop that was built, with its file's size.
    specs: Vec<(Spec, usize)>,
    /// Every valid loop (no errors), read by `load`.
    valid: Vec<Loaded>,
}

impl Workload {
    fn new(files: Vec<File>) -> Workload {
        let limits = ReadLimits::default();
        let mut docs: Vec<_> = files
            .iter()
            .filter_map(|f| {
                let doc = read(f, &limits, &mut Diagnostics::new(&f.name))?;
                Some((
                    loopconv::pipeline::claimed_format(doc.root())?,
                    doc,
                    f.bytes.len(),
                ))
            })
            .collect();
        let specs = docs
            .iter_mut()
            .filter_map(|(format, doc, size)| {
                let spec = loopconv::pipeline::read_format(
                    *format,
                    doc,
                    &limits,
                    TreeUse::Keep,
                    &mut Diagnostics::new("bench"),
                )?;
                Some((spec, *size))
            })
            .collect();
        let docs = (docs.into_iter())
            .map(|(format, doc, size)| (format, std::sync::Mutex::new(doc), size))
            .collect();
        let opts = LoadOptions::default();
        let valid = files
            .iter()
            .map(|f| loopconv::load(&f.name, &f.bytes, &opts))
            .filter(|l| l.valid().is_some())
            .collect();
        Workload {
            files,
            docs,
            specs,
            valid,
        }
    }

    fn bytes(&self) -> usize {
        self.files.iter().map(|f| f.bytes.len()).sum()
    }

    fn valid_loops(&self) -> impl Iterator<Item = (&Spec, &Info)> {
        self.valid.iter().filter_map(Loaded::valid)
    }
}

/// The examples and the corpus, as `tests/common` finds them, except `invalid/`.
fn examples() -> Vec<File> {
    common::all_inputs()
        .iter()
        .filter(|p| !p.components().any(|c| c.as_os_str() == "invalid"))
        .filter_map(|p| {
            Some(File {
                name: common::rel(p),
                bytes: std::fs::read(p).ok()?,
            })
        })
        .collect()
}

/// One generated AgentPM loop of `phases` phases.
fn agentpm_loop(phases: usize) -> Vec<File> {
    let name = format!("loop-{phases}");
    vec![File {
        bytes: workload::agentpm_loop(&name, phases, 42).into_bytes(),
        name: format!("{name}/agent.json"),
    }]
}

/// The 10,000-phase loops with diagnostics: one warning, and errors in 1 % of the phases.
fn diagnostics_loops() -> Vec<File> {
    let faults = |no_schema, error_every| workload::Faults {
        no_schema,
        error_every,
    };
    [("warn", faults(true, 0)), ("errors", faults(false, 100))]
        .into_iter()
        .map(|(name, faults)| File {
            bytes: workload::agentpm_loop_with(name, 10_000, 42, faults).into_bytes(),
            name: format!("{name}-10000/agent.json"),
        })
        .collect()
}

/// Loops of 10,000 phases (or checks) shaped unlike [`workload::agentpm_loop`].
fn odd_shapes() -> Vec<File> {
    use workload::shapes::{Shape, mas_checks, shaped_loop};
    let mut files: Vec<File> = [("short", Shape::SHORT), ("self-loops", Shape::SELF_LOOPS)]
        .into_iter()
        .map(|(name, shape)| File {
            bytes: shaped_loop(name, 10_000, 7, &shape).into_bytes(),
            name: format!("{name}-10000/agent.json"),
        })
        .collect();
    files.push(File {
        bytes: mas_checks("mas-10000", 10_000, 11).to_yaml().into_bytes(),
        name: "mas-10000.yaml".to_owned(),
    });
    files
}

/// The first `n` files of the generated mixed corpus.
fn corpus(n: usize) -> Vec<File> {
    workload::corpus(n, false, 1)
        .into_iter()
        .map(|(name, text)| File {
            name,
            bytes: text.into_bytes(),
        })
        .collect()
}

/// The read stage of one file: decode, then the parser its extension names.
fn read(file: &File, limits: &ReadLimits, diags: &mut Diagnostics) -> Option<Document> {
    let text = tree::decode(&file.bytes, limits, diags)?;
    if file.name.ends_with(".yaml") || file.name.ends_with(".yml") {
        tree::parse_yaml(text, &KEYS, limits, diags)
    } else {
        tree::parse_json(text, &KEYS, limits, diags)
    }
}

/// One back end in one variant, named by its label (`mermaid flowchart`, `schema mas`).
struct Backend {
    target: Target,
    label: String,
    opts: back::Options,
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.label)
    }
}

/// Every back end of `Target::ALL` in every variant, with the options that let every valid
/// loop convert to every format.
fn backends() -> Vec<Backend> {
    let base = back::Options {
        source: "bench".into(),
        ..common::lossy_options()
    };
    common::variants(&base)
        .into_iter()
        .map(|(target, label, opts)| Backend {
            target,
            label,
            opts,
        })
        .collect()
}

/// The benchmarks, the same for every workload.
mod stage {
    use super::{
        Bencher, BytesCount, Diagnostics, ItemsCount, LoadOptions, ReadLimits, TreeUse, valid,
    };

    use super::{Backend, Workload, black_box};

    pub fn read(bencher: Bencher, w: &Workload) {
        let limits = ReadLimits::default();
        bencher
            .counter(BytesCount::new(w.bytes()))
            .counter(ItemsCount::new(w.files.len()))
            .bench(|| {
                for f in &w.files {
                    black_box(super::read(f, &limits, &mut Diagnostics::new(&f.name)));
                }
            });
    }

    pub fn front(bencher: Bencher, w: &Workload) {
        let limits = ReadLimits::default();
        bencher
            .counter(BytesCount::new(w.docs.iter().map(|d| d.2).sum::<usize>()))
            .counter(ItemsCount::new(w.docs.len()))
            .bench(|| {
                for (format, doc, _) in &w.docs {
                    let mut diags = Diagnostics::new("bench");
                    let mut doc = doc
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner);
                    black_box(loopconv::pipeline::read_format(
                        *format,
                        &mut doc,
                        &limits,
                        TreeUse::Keep,
                        &mut diags,
                    ));
                    black_box(diags);
                }
            });
    }

    pub fn validate(bencher: Bencher, w: &Workload) {
        bencher
            .counter(BytesCount::new(w.specs.iter().map(|s| s.1).sum::<usize>()))
            .counter(ItemsCount::new(w.specs.len()))
            .bench(|| {
                for (spec, _) in &w.specs {
                    let mut diags = Diagnostics::new("bench");
                    black_box(valid::validate(spec, &mut diags));
                    black_box(diags);
                }
            });
    }

    pub fn load(bencher: Bencher, w: &Workload) {
        let opts = LoadOptions::default();
        bencher
            .counter(BytesCount::new(w.bytes()))
            .counter(ItemsCount::new(w.files.len()))
            .bench(|| {
                for f in &w.files {
                    black_box(loopconv::load(&f.name, &f.bytes, &opts));
                }
            });
    }

    pub fn write(bencher: Bencher, w: &Workload, backend: &Backend) {
        let bytes: usize = w.valid.iter().filter_map(|l| l.text().map(str::len)).sum();
        bencher
            .counter(BytesCount::new(bytes))
            .counter(ItemsCount::new(w.valid.len()))
            .bench(|| {
                for (spec, info) in w.valid_loops() {
                    let mut diags = Diagnostics::new("bench");
                    let text =
                        loopconv::write(backend.target, spec, info, &backend.opts, &mut diags);
                    black_box((text.ok(), diags));
                }
            });
    }
}

/// A group of the five benchmarks on one workload, built on first use.
macro_rules! workload {
    ($(#[$doc:meta])* $group:ident = $files:expr, sample_count = $n:expr, max_time = $t:expr) => {
        $(#[$doc])*
        #[divan::bench_group(sample_count = $n, max_time = $t)]
        mod $group {
            use super::{Backend, Bencher, Workload, backends, stage};
            use std::sync::LazyLock;

            static WORKLOAD: LazyLock<Workload> = LazyLock::new(|| Workload::new($files));

            #[divan::bench(name = "1_read")]
            fn read(bencher: Bencher) {
                stage::read(bencher, &WORKLOAD);
            }

            #[divan::bench(name = "2_front")]
            fn front(bencher: Bencher) {
                stage::front(bencher, &WORKLOAD);
            }

            #[divan::bench(name = "3_validate")]
            fn validate(bencher: Bencher) {
                stage::validate(bencher, &WORKLOAD);
            }

            #[divan::bench(name = "4_load")]
            fn load(bencher: Bencher) {
                stage::load(bencher, &WORKLOAD);
            }

            #[divan::bench(name = "5_write", args = backends())]
            fn write(bencher: Bencher, backend: &Backend) {
                stage::write(bencher, &WORKLOAD, backend);
            }
        }
    };
}

workload!(
    /// The bundled examples and the corpus (a few dozen files, hostile ones included).
    examples = super::examples(), sample_count = 50, max_time = 2.0
);
workload!(
    /// One AgentPM loop of 1,000 phases (about 0.8 MB).
    agentpm_1000 = super::agentpm_loop(1000), sample_count = 50, max_time = 2.0
);
workload!(
    /// One AgentPM loop of 10,000 phases (about 7.8 MB).
    agentpm_10000 = super::agentpm_loop(10_000), sample_count = 20, max_time = 4.0
);
workload!(
    /// 1,000 files of the mixed corpus (AgentPM and MAS).
    corpus_1000 = super::corpus(1000), sample_count = 30, max_time = 3.0
);
workload!(
    /// The 10,000-phase loop with one warning, and with 100 errors (about 16 MB).
    diagnostics_10000 = super::diagnostics_loops(), sample_count = 10, max_time = 2.0
);
workload!(
    /// One-word texts minified, self-loops in tabs, a MAS loop of 10,000 checks (19 MB).
    shapes_10000 = super::odd_shapes(), sample_count = 10, max_time = 2.0
);
