//! Invalid mutations of the valid example and corpus files (drop a required key, duplicate a
//! key, change a value's type, re-point an id, remove an outcome), garbage and truncation:
//! always a located diagnostic, never a panic.

use crate::support::doc_tree::{M, pattern};
use crate::support::generators::{config, errors, write};
use crate::support::{self, ir_json};
use loopconv::Target;
use loopconv::{Format, LoadOptions, Loaded, load};
use proptest::prelude::{Strategy, TestCaseError, any, prop, prop_assert, proptest};
use std::sync::LazyLock;

/// A valid input file: its name, text and format.
#[derive(Debug, Clone)]
pub(crate) struct Sample {
    pub(crate) name: String,
    pub(crate) text: String,
    pub(crate) format: Format,
    pub(crate) yaml: bool,
    pub(crate) tree: M,
}

/// Every valid file of `examples/` and `../shared/corpus` (when present), plus each one's
/// IR form: the seeds of the mutations.
pub(crate) static SAMPLES: LazyLock<Vec<Sample>> = LazyLock::new(|| {
    let mut out = Vec::new();
    for f in support::all_inputs() {
        let Ok(text) = std::fs::read_to_string(&f) else {
            continue;
        };
        let name = f.display().to_string();
        let l = load(&name, text.as_bytes(), &LoadOptions::default());
        let (Some((spec, _)), Some(format), Some(doc)) = (l.valid(), l.format, &l.doc) else {
            continue;
        };
        let yaml = doc.syntax == loopconv::tree::Syntax::Yaml;
        out.push(Sample {
            name: name.clone(),
            tree: M::from_node(doc.root()),
            text,
            format,
            yaml,
        });
        let ir = write(Target::Loop(Format::Ir), spec);
        let l = load("x.ir.json", ir.as_bytes(), &LoadOptions::default());
        let doc = l.doc.expect("the IR reads back");
        out.push(Sample {
            name: format!("{name} (as IR)"),
            tree: M::from_node(doc.root()),
            text: ir,
            format: Format::Ir,
            yaml: false,
        });
    }
    out
});

/// Keys whose absence is always reported: required by the format, or (AgentPM `kind`,
/// `$schema`) a warning.
pub(crate) fn required(s: &Sample, ptr_pattern: &str) -> bool {
    let agentpm = [
        "/kind",
        "/$schema",
        "/name",
        "/version",
        "/description",
        "/loop",
        "/loop/entry_phase",
        "/loop/phases",
        "/loop/transitions",
        "/loop/phases/*/id",
        "/loop/phases/*/objective",
        "/loop/phases/*/outcomes/*/id",
        "/loop/phases/*/outcomes/*/description",
        "/loop/transitions/*/from",
        "/loop/transitions/*/on",
        "/loop/transitions/*/to",
        "/loop/checkpoints/*/id",
        "/loop/checkpoints/*/type",
        "/loop/checkpoints/*/before_phase",
        "/loop/checkpoints/*/on_reject",
        "/loop/error_policy/tool_failure/action",
        "/loop/error_policy/tool_failure/max_retries",
        "/loop/error_policy/tool_failure/on_exhausted",
        "/loop/error_policy/phase_failure/action",
    ];
    let ir = [
        "/source_format",
        "/name",
        "/pattern",
        "/graph",
        "/graph/entry",
        "/graph/phases",
        "/graph/transitions",
        "/graph/phases/*/id",
        "/graph/phases/*/objective",
        "/graph/phases/*/outcomes/*/id",
        "/graph/phases/*/outcomes/*/description",
        "/graph/transitions/*/from",
        "/graph/transitions/*/on",
        "/graph/transitions/*/to",
        "/graph/checkpoints/*/id",
        "/graph/checkpoints/*/before_phase",
        "/graph/checkpoints/*/on_reject",
        "/goal/checks/*/id",
        "/goal/inputs/*/name",
        "/goal/outputs/*/name",
        "/bounds/error_policy/tool_failure/action",
        "/bounds/error_policy/tool_failure/max_retries",
        "/bounds/error_policy/tool_failure/on_exhausted",
        "/bounds/error_policy/phase_failure/action",
    ];
    let mas = [
        "/name",
        "/type",
        "/actor",
        "/checks/*/id",
        "/inputs/*/name",
        "/outputs/*/name",
    ];
    let get = |p: &str| match &s.tree {
        M::Obj(o) => o.iter().find(|(k, _)| k == p).map(|(_, v)| v.clone()),
        _ => None,
    };
    let ty = get("type");
    let veal = ty == Some(M::Str("VEAL".into()));
    let real = ty == Some(M::Str("REAL".into()));
    let fallback = get("escalation") == Some(M::Str("fallback".into()));
    match s.format {
        Format::Agentpm => agentpm.contains(&ptr_pattern),
        Format::Ir => {
            let pat = match &s.tree {
                M::Obj(o) => o
                    .iter()
                    .find(|(k, _)| k == "pattern")
                    .map(|(_, v)| v.clone()),
                _ => None,
            };
            ir.contains(&ptr_pattern)
                || (pat == Some(M::Str("real".into())) && ptr_pattern == "/goal/mission")
                || (pat == Some(M::Str("veal".into()))
                    && matches!(ptr_pattern, "/roles/validator" | "/goal/checks"))
        }
        Format::Xstate => matches!(ptr_pattern, "/id" | "/initial" | "/states"),
        Format::Mas => {
            mas.contains(&ptr_pattern)
                || (real && ptr_pattern == "/mission")
                || (veal && matches!(ptr_pattern, "/validator" | "/checks"))
                || (fallback && ptr_pattern == "/fallback_agent")
        }
    }
}

/// Values of any type: changing their type is not an error.
pub(crate) fn free_form(ptr: &str) -> bool {
    ptr.starts_with("/environment") || ptr.contains("/schema") || ptr.contains("/default")
}

/// Fields that name a phase or outcome (or, in MAS, an enumerated value).
pub(crate) fn reference(s: &Sample, pat: &str) -> bool {
    match s.format {
        Format::Agentpm => matches!(
            pat,
            "/loop/entry_phase"
                | "/loop/transitions/*/from"
                | "/loop/transitions/*/on"
                | "/loop/transitions/*/to"
                | "/loop/checkpoints/*/before_phase"
                | "/loop/checkpoints/*/on_reject"
        ),
        Format::Ir => matches!(
            pat,
            "/graph/entry"
                | "/graph/transitions/*/from"
                | "/graph/transitions/*/on"
                | "/graph/transitions/*/to"
                | "/graph/checkpoints/*/before_phase"
                | "/graph/checkpoints/*/on_reject"
        ),
        Format::Mas => matches!(pat, "/type" | "/escalation" | "/checks/*/type"),
        Format::Xstate => pat == "/initial" || pat.starts_with("/states/"),
    }
}

#[derive(Debug, Clone, Copy)]
pub(crate) enum Mutation {
    DropKey,
    DuplicateKey,
    ChangeType,
    Repoint,
    RemoveOutcome,
}

/// Apply a mutation at the `pick`-th candidate; `None` when the sample has no candidate.
pub(crate) fn mutate(
    s: &Sample,
    m: Mutation,
    pick: usize,
    variant: usize,
) -> Option<(String, String)> {
    let nodes = s.tree.pointers();
    let mut tree = s.tree.clone();
    let what;
    match m {
        Mutation::DropKey => {
            let c: Vec<&String> = nodes
                .iter()
                .map(|(p, _)| p)
                .filter(|p| !p.is_empty() && required(s, &pattern(p)))
                .collect();
            let ptr = c.get(pick % c.len().max(1))?;
            let (parent, last) = tree.parent_mut(ptr)?;
            let key = last.replace("~1", "/").replace("~0", "~");
            let M::Obj(o) = parent else { return None };
            o.retain(|(k, _)| *k != key);
            what = format!("drop {ptr}");
        }
        Mutation::DuplicateKey => {
            let c: Vec<&String> = nodes
                .iter()
                .map(|(p, _)| p)
                .filter(|p| !p.is_empty())
                .filter(|p| {
                    let mut t = s.tree.clone();
                    matches!(t.parent_mut(p), Some((M::Obj(_), _)))
                })
                .collect();
            let ptr = c.get(pick % c.len().max(1))?;
            let (parent, last) = tree.parent_mut(ptr)?;
            let key = last.replace("~1", "/").replace("~0", "~");
            let M::Obj(o) = parent else { return None };
            let i = o.iter().position(|(k, _)| *k == key)?;
            let dup = o[i].clone();
            o.insert(i + 1 + variant % (o.len() - i), dup);
            what = format!("duplicate {ptr}");
        }
        Mutation::ChangeType => {
            let c: Vec<&(String, M)> = nodes.iter().filter(|(p, _)| !free_form(p)).collect();
            let (ptr, old) = c.get(pick % c.len().max(1))?;
            let options: Vec<M> = match old {
                M::Str(_) => vec![
                    M::Num("7".into()),
                    M::Bool(true),
                    M::Arr(vec![]),
                    M::Obj(vec![]),
                ],
                M::Num(_) => vec![M::Str("1".into()), M::Bool(false), M::Arr(vec![])],
                M::Bool(b) => vec![M::Str(b.to_string()), M::Num("1".into())],
                M::Null => vec![M::Str("x".into())],
                M::Arr(_) => vec![M::Obj(vec![]), M::Str("x".into()), M::Num("0".into())],
                M::Obj(_) => vec![M::Arr(vec![]), M::Str("x".into()), M::Bool(true)],
            };
            let new = options[variant % options.len()].clone();
            *tree.get_mut(ptr)? = new.clone();
            what = format!("change {ptr} from {old:?} to {new:?}");
        }
        Mutation::Repoint => {
            let c: Vec<&String> = nodes
                .iter()
                .map(|(p, _)| p)
                .filter(|p| reference(s, &pattern(p)))
                .collect();
            let ptr = c.get(pick % c.len().max(1))?;
            let new = ["no-such-phase", "$nowhere", "NOT-A-VALUE"][variant % 3];
            *tree.get_mut(ptr)? = M::Str(new.into());
            what = format!("re-point {ptr} to {new}");
        }
        Mutation::RemoveOutcome => {
            let phases_ptr = match s.format {
                Format::Agentpm => "/loop/phases",
                Format::Ir => "/graph/phases",
                Format::Mas | Format::Xstate => return None,
            };
            let transitions_ptr = phases_ptr.replace("phases", "transitions");
            let M::Arr(phases) = tree.get_mut(phases_ptr)? else {
                return None;
            };
            let i = pick % phases.len().max(1);
            let phase = phases.get_mut(i)?;
            let M::Obj(fields) = phase else { return None };
            let id = fields
                .iter()
                .find(|(k, _)| k == "id")
                .map(|(_, v)| v.clone())?;
            match fields.iter_mut().find(|(k, _)| k == "outcomes") {
                Some((_, M::Arr(outs))) if !outs.is_empty() => {
                    let j = variant % outs.len();
                    outs.remove(j);
                    what = format!("remove outcome {j} of phase {i}");
                }
                _ => {
                    let M::Arr(ts) = tree.get_mut(&transitions_ptr)? else {
                        return None;
                    };
                    let j = ts.iter().position(|t| {
                        matches!(t, M::Obj(f) if f.iter().any(|(k, v)| k == "from" && *v == id))
                    })?;
                    ts.remove(j);
                    what = format!("remove transition {j} (the implicit outcome of phase {i})");
                }
            }
        }
    }
    (tree != s.tree).then(|| (tree.render(s.yaml), what))
}

/// The byte spans (opening quote, closing quote) of the double-quoted scalars of a
/// rendering, escapes taken into account.
pub(crate) fn string_spans(text: &str) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut open = None;
    let mut escaped = false;
    for (i, b) in text.bytes().enumerate() {
        match (open, b) {
            (None, b'"') => open = Some(i),
            (Some(_), _) if escaped => escaped = false,
            (Some(_), b'\\') => escaped = true,
            (Some(o), b'"') => {
                spans.push((o, i));
                open = None;
            }
            _ => {}
        }
    }
    spans
}

pub(crate) fn line_count(text: &str) -> u32 {
    u32::try_from(text.lines().count()).unwrap_or(u32::MAX) + 1
}

pub(crate) fn positions_in_range(l: &Loaded, text: &str) -> Result<(), TestCaseError> {
    for d in l.diags.items() {
        if let Some(p) = d.location.pos {
            prop_assert!(p.line >= 1 && p.column >= 1, "{d:?}");
            prop_assert!(p.line <= line_count(text), "{d:?} past the end");
        }
    }
    Ok(())
}

pub(crate) fn ext(s: &Sample) -> &'static str {
    match (s.format, s.yaml) {
        (Format::Ir, _) => "ir.json",
        (_, true) => "yaml",
        (_, false) => "json",
    }
}

/// A valid sample, or `None` when `examples/` and the corpus hold none (a checkout without
/// them): the mutation properties then have nothing to mutate and pass.
pub(crate) fn sample() -> impl Strategy<Value = Option<Sample>> {
    (0..SAMPLES.len().max(1)).prop_map(|i| SAMPLES.get(i).cloned())
}

proptest! {
    #![proptest_config(config(256))]

    /// Structural mutations always give a located diagnostic.
    #[test]
    fn mutations_are_located(
        s in sample(),
        m in prop::sample::select(vec![
            Mutation::DropKey,
            Mutation::DuplicateKey,
            Mutation::ChangeType,
            Mutation::Repoint,
            Mutation::RemoveOutcome,
        ]),
        pick in any::<usize>(),
        variant in any::<usize>(),
        from_flag in any::<bool>(),
    ) {
        let Some(s) = s else { return Ok(()) };
        let Some((text, what)) = mutate(&s, m, pick, variant) else {
            return Ok(());
        };
        let path = format!("mutant.{}", ext(&s));
        let from = from_flag.then_some(s.format);
        let l = load(&path, text.as_bytes(), &LoadOptions { from, ..LoadOptions::default() });
        // Against the unmutated rendering, read the same way: a sample that already has
        // warnings must not make this pass; the mutation must add a located diagnostic.
        let base_text = s.tree.render(s.yaml);
        let base = load(&path, base_text.as_bytes(), &LoadOptions { from, ..LoadOptions::default() });
        // Counted, not only compared: a key already given twice, duplicated once more, is
        // a second diagnostic of the same kind (positions move with every mutation, so they
        // cannot tell a new diagnostic from an old one).
        let key = |d: &loopconv::diag::Diagnostic| (d.code, d.location.pointer.clone(), d.message.clone());
        let count = |ds: &[loopconv::diag::Diagnostic], k: &(loopconv::diag::Code, String, String)| {
            ds.iter().filter(|d| d.location.pos.is_some() && key(d) == *k).count()
        };
        let (after, before) = (l.diags.items(), base.diags.items());
        prop_assert!(
            after.iter().any(|d| d.location.pos.is_some() && count(after, &key(d)) > count(before, &key(d))),
            "{} ({what}, from {from:?}): no new located diagnostic: {:#?}\n{text}",
            s.name,
            l.diags.items()
        );
        positions_in_range(&l, &text)?;
    }

    /// Garbage bytes (at least one that cannot be in a UTF-8 text file) are diagnosed;
    /// any printable garbage never panics.
    #[test]
    fn garbage_is_diagnosed(
        s in sample(),
        at in any::<usize>(),
        junk in prop::collection::vec(any::<u8>(), 0..16),
        bad in prop::sample::select(vec![0x00u8, 0xC0, 0xF8, 0xFE, 0xFF]),
        ascii in "[ -~\t\n]{1,12}",
    ) {
        let Some(s) = s else { return Ok(()) };
        let path = format!("garbage.{}", ext(&s));
        let at = at % (s.text.len() + 1);
        let mut bytes = s.text.as_bytes().to_vec();
        let mut g = junk.clone();
        g.insert(junk.len() / 2, bad);
        bytes.splice(at..at, g);
        let l = load(&path, &bytes, &LoadOptions::default());
        prop_assert!(!l.diags.is_empty(), "{}: garbage at byte {at} not diagnosed", s.name);
        let mut bytes = s.text.as_bytes().to_vec();
        bytes.splice(at..at, ascii.bytes());
        let l = load(&path, &bytes, &LoadOptions::default());
        if let Some(doc) = &l.doc {
            positions_in_range(&l, &doc.text)?;
        }
    }

    /// A truncated file is diagnosed: JSON cut before its last character, YAML cut inside
    /// a quoted scalar (a YAML file cut at a line break can still be a valid loop).
    #[test]
    fn truncation_is_diagnosed(s in sample(), cut in any::<usize>()) {
        let Some(s) = s else { return Ok(()) };
        let path = format!("cut.{}", ext(&s));
        let text = if s.yaml { s.tree.render(true) } else { s.text.clone() };
        let cut_at = if s.yaml {
            // Somewhere after the opening quote, up to and including the closing one.
            let strings = string_spans(&text);
            match strings.get(cut % strings.len().max(1)) {
                Some(&(open, close)) => open + 1 + (cut / 7) % (close - open),
                None => return Ok(()),
            }
        } else {
            let last = text.trim_end().len();
            cut % last.max(1)
        };
        let bytes = &text.as_bytes()[..cut_at];
        let l = load(&path, bytes, &LoadOptions::default());
        prop_assert!(
            !l.diags.is_empty(),
            "{}: cut at byte {cut_at} not diagnosed:\n{}",
            s.name,
            String::from_utf8_lossy(bytes)
        );
        // Any other cut never panics.
        let l = load(&path, &s.text.as_bytes()[..cut % (s.text.len() + 1)], &LoadOptions::default());
        if let Some(doc) = &l.doc {
            positions_in_range(&l, &doc.text)?;
        }
    }
}

/// The mutation machinery itself: the renderings of an unmutated sample load as the same
/// loop, so a diagnostic on a mutant comes from the mutation.
#[test]
fn renderings_of_samples_are_valid() {
    // The corpus holds valid loops: with it present, the mutations have seeds.
    if support::corpus().is_some() {
        assert!(!SAMPLES.is_empty(), "no valid sample found");
    }
    for s in SAMPLES.iter() {
        let text = s.tree.render(s.yaml);
        let path = format!("render.{}", ext(s));
        let l = load(&path, text.as_bytes(), &LoadOptions::default());
        let errs = errors(&l.diags);
        assert!(errs.is_empty(), "{}: {errs:#?}\n{text}", s.name);
        let orig = load(&s.name, s.text.as_bytes(), &LoadOptions::default());
        assert_eq!(
            l.spec.as_ref().map(ir_json),
            orig.spec.as_ref().map(ir_json),
            "{}",
            s.name
        );
    }
}

/// The mutation oracle cannot pass vacuously: some samples already carry located warnings
/// (so "some located diagnostic" would hold for any mutant of them), and for every sample
/// the unmutated rendering adds no new located diagnostic over its baseline, which is
/// what `mutations_are_located` requires of a mutant.
#[test]
fn the_mutation_oracle_needs_a_new_diagnostic() {
    let mut with_warnings = 0;
    for s in SAMPLES.iter() {
        let path = format!("mutant.{}", ext(s));
        let text = s.tree.render(s.yaml);
        let a = load(&path, text.as_bytes(), &LoadOptions::default());
        let b = load(&path, text.as_bytes(), &LoadOptions::default());
        with_warnings += usize::from(a.diags.items().iter().any(|d| d.location.pos.is_some()));
        let before: Vec<_> = a
            .diags
            .items()
            .iter()
            .map(|d| (d.code, d.location.pointer.clone(), d.message.clone()))
            .collect();
        assert!(
            b.diags.items().iter().all(|d| before.contains(&(
                d.code,
                d.location.pointer.clone(),
                d.message.clone()
            ))),
            "{}: reading twice differs",
            s.name
        );
    }
    assert!(
        with_warnings > 0,
        "no sample has a located warning: the baseline is untested"
    );
}
