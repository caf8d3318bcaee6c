//! Deterministic benchmark workloads (not a user-facing command): large AgentPM loops and
//! a mixed corpus of realistic loop files. The same seed always gives the same bytes.
//!
//! * [`agentpm_loop`]: one AgentPM loop of `n` phases, three outcomes each (advance, retry,
//!   escalate), an approval checkpoint every 25 phases, long objectives, `max_steps`;
//! * [`corpus`]: `n` files of 1-6 KB, about 60 % AgentPM and 40 % MAS (VEAL and REAL), some
//!   with warnings; with `broken`, every tenth file has an error (a dangling transition, an
//!   unknown field, a missing check, a bad id);
//! * [`agentpm_loop_with`]: the same loop with [`Faults`] (no `$schema`, errors in 1 % of
//!   the phases), and [`changed_loop`], the 10,000-phase loop with a few changes;
//! * [`shapes`]: loops laid out and shaped unlike [`agentpm_loop`], and a large MAS loop;
//! * [`random`]: loops whose shape is drawn from a seed (issue 50).
#![allow(dead_code)]

pub mod hostile;
pub mod random;
pub mod shapes;

use std::fmt::Write as _;

/// A small deterministic generator (SplitMix64).
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next value.
    #[allow(
        clippy::should_implement_trait,
        reason = "an endless generator, called by this name in the benches and generators"
    )]
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A value below `n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const WORDS: &[&str] = &[
    "read",
    "the",
    "alert",
    "and",
    "recent",
    "deploys",
    "classify",
    "severity",
    "gather",
    "evidence",
    "from",
    "dashboards",
    "logs",
    "traces",
    "then",
    "decide",
    "whether",
    "to",
    "mitigate",
    "escalate",
    "or",
    "close",
    "incident",
    "summarise",
    "findings",
    "for",
    "owner",
    "verify",
    "error",
    "rate",
    "latency",
    "budget",
    "rollback",
    "change",
    "plan",
    "review",
];

/// A sentence of `n` words.
fn words(rng: &mut Rng, n: usize) -> String {
    let mut s = String::new();
    for i in 0..n {
        if i > 0 {
            s.push(' ');
        }
        s.push_str(WORDS[rng.below(WORDS.len())]);
    }
    s.push('.');
    s
}

/// One AgentPM loop of `phases` phases (at least 2) as pretty-enough JSON.
pub fn agentpm_loop(name: &str, phases: usize, seed: u64) -> String {
    agentpm_loop_with(name, phases, seed, Faults::NONE)
}

/// What is wrong with a loop of [`agentpm_loop_with`]: everything else is the bytes of
/// [`agentpm_loop`].
#[derive(Clone, Copy, Debug)]
pub struct Faults {
    /// Leave out `$schema` (one `F012` warning).
    pub no_schema: bool,
    /// Every `error_every`-th phase (phases 50, 150, 250, ... for 100) has one error, of
    /// two kinds in turn: its `escalate` transition goes to an undeclared phase (`V`), its
    /// `retry` outcome has no transition (`V011`). Neither cuts the chain of `advance`
    /// transitions, so each error has one cause and no follow-on errors. (A shape error,
    /// such as a missing `objective`, stops `check` before validation: it would hide the
    /// others, so it is not one of them.)
    pub error_every: usize,
}

impl Faults {
    /// No fault: the bytes of [`agentpm_loop`].
    pub const NONE: Faults = Faults {
        no_schema: false,
        error_every: 0,
    };
}

/// The kind of error phase `i` has under `faults`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Fault {
    UndeclaredTarget,
    NoTransition,
}

impl Faults {
    /// The error of phase `i`, if it has one.
    pub fn of(&self, i: usize) -> Option<Fault> {
        let k = self.error_every;
        if k == 0 || i % k != k / 2 {
            return None;
        }
        Some(match (i / k) % 2 {
            0 => Fault::UndeclaredTarget,
            _ => Fault::NoTransition,
        })
    }
}

const SCHEMA: &str = "https://raw.githubusercontent.com/agentpm-dev/cli/refs/heads/main/schemas/agentpm.manifest.schema.json";

/// [`agentpm_loop`] with `faults`.
pub fn agentpm_loop_with(name: &str, phases: usize, seed: u64, faults: Faults) -> String {
    let mut rng = Rng::new(seed);
    let phases = phases.max(2);
    let id = |i: usize| format!("p{i:06}");
    let mut out = String::with_capacity(phases * 700);
    out.push_str("{\n");
    if !faults.no_schema {
        let _ = writeln!(out, "  \"$schema\": \"{SCHEMA}\",");
    }
    let _ = write!(
        out,
        "  \"kind\": \"loop\",\n  \"name\": \"{name}\",\n  \"version\": \"1.0.0\",\n  \"description\": \"Generated loop of {phases} phases.\",\n  \"loop\": {{\n    \"archetype\": \"generated\",\n    \"entry_phase\": \"{}\",\n    \"limits\": {{ \"max_steps\": {} }},\n    \"phases\": [\n",
        id(0),
        phases * 3
    );
    for i in 0..phases {
        let objective = words(&mut rng, 24);
        let _ = write!(
            out,
            "      {{ \"id\": \"{}\", \"objective\": \"{objective}\", \"access\": {{ \"tools\": {}, \"knowledge\": true, \"memory\": {{ \"read\": true, \"write\": {} }} }}, \"outcomes\": [\n        {{ \"id\": \"advance\", \"description\": \"{}\" }},\n        {{ \"id\": \"retry\", \"description\": \"{}\" }},\n        {{ \"id\": \"escalate\", \"description\": \"{}\" }}\n      ] }}{}\n",
            id(i),
            i % 3 != 0,
            i % 2 == 0,
            words(&mut rng, 8),
            words(&mut rng, 8),
            words(&mut rng, 6),
            if i + 1 < phases { "," } else { "" }
        );
    }
    out.push_str("    ],\n    \"transitions\": [\n");
    for i in 0..phases {
        let next = if i + 1 < phases {
            id(i + 1)
        } else {
            "$end".to_owned()
        };
        let back = id(i.saturating_sub(1));
        let last = i + 1 == phases;
        let retry = match faults.of(i) {
            Some(Fault::NoTransition) => String::new(),
            _ => format!(
                "      {{ \"from\": \"{}\", \"on\": \"retry\", \"to\": \"{back}\" }},\n",
                id(i)
            ),
        };
        let escalate = match faults.of(i) {
            Some(Fault::UndeclaredTarget) => format!("missing-{i:06}"),
            _ => "$handoff".to_owned(),
        };
        let _ = writeln!(
            out,
            "      {{ \"from\": \"{0}\", \"on\": \"advance\", \"to\": \"{next}\" }},\n{retry}      {{ \"from\": \"{0}\", \"on\": \"escalate\", \"to\": \"{escalate}\" }}{1}",
            id(i),
            if last { "" } else { "," }
        );
    }
    out.push_str("    ],\n    \"checkpoints\": [\n");
    let gated: Vec<usize> = (1..phases).step_by(25).collect();
    for (k, &i) in gated.iter().enumerate() {
        let _ = writeln!(
            out,
            "      {{ \"id\": \"gate-{k}\", \"type\": \"approval\", \"before_phase\": \"{}\", \"on_reject\": \"$abort\" }}{}",
            id(i),
            if k + 1 < gated.len() { "," } else { "" }
        );
    }
    out.push_str("    ]\n  }\n}\n");
    out
}

/// The [`agentpm_loop`] of 10,000 phases with a few changes, for `diff`: one objective
/// reworded, one `retry` retargeted, one outcome (and its transition) removed, one
/// checkpoint removed, and a larger `max_steps`.
pub fn changed_loop(name: &str, seed: u64) -> String {
    let phases = 10_000;
    let mut text = agentpm_loop(name, phases, seed);
    let p = |i: usize| format!("p{i:06}");
    let objective = format!("{{ \"id\": \"{}\", \"objective\": \"", p(1234));
    edit(&mut text, &objective, &format!("{objective}Reworded: "));
    let retry = |to: usize| {
        format!(
            "{{ \"from\": \"{}\", \"on\": \"retry\", \"to\": \"{}\" }}",
            p(4000),
            p(to)
        )
    };
    edit(&mut text, &retry(3999), &retry(3000));
    let escalate = format!(
        "{{ \"from\": \"{}\", \"on\": \"escalate\", \"to\": \"$handoff\" }},\n      ",
        p(7000)
    );
    edit(&mut text, &escalate, "");
    let phase = text
        .find(&format!("{{ \"id\": \"{}\", ", p(7000)))
        .expect("the phase");
    let outcome = phase
        + text[phase..]
            .find("},\n        { \"id\": \"escalate\"")
            .expect("its outcome");
    let end = outcome + text[outcome..].find(" }\n").expect("its end");
    text.replace_range(outcome + 1..end + 2, "");
    let gate = format!(
        "      {{ \"id\": \"gate-100\", \"type\": \"approval\", \"before_phase\": \"{}\", \"on_reject\": \"$abort\" }},\n",
        p(2501)
    );
    edit(&mut text, &gate, "");
    let steps = |n: usize| format!("\"max_steps\": {n} }}");
    edit(&mut text, &steps(phases * 3), &steps(phases * 4));
    text
}

/// Replace the first `from` in `text` (which must be there) with `to`.
fn edit(text: &mut String, from: &str, to: &str) {
    let at = text
        .find(from)
        .unwrap_or_else(|| panic!("no {from} in the loop"));
    text.replace_range(at..at + from.len(), to);
}

/// A MAS loop (VEAL or REAL) of a few KB.
fn mas_loop(name: &str, rng: &mut Rng, broken: bool) -> String {
    let veal = rng.below(2) == 0;
    let mut out = format!(
        "name: {name}\ntype: {}\ndescription: {}\nactor: fixer-{}\n",
        if veal { "VEAL" } else { "REAL" },
        words(rng, 12),
        rng.below(100)
    );
    if veal {
        let _ = writeln!(out, "validator: auditor-{}", rng.below(100));
        out.push_str("checks:\n");
        let checks = if broken { 0 } else { 2 + rng.below(8) };
        for c in 0..checks {
            let _ = writeln!(
                out,
                "  - id: check-{c}\n    type: command\n    command: cargo test --package crate-{c}\n    description: {}",
                words(rng, 10)
            );
        }
        if checks == 0 {
            out.push_str("  []\n");
        }
    } else {
        let _ = writeln!(out, "mission: {}", words(rng, 30));
    }
    let _ = writeln!(
        out,
        "success_criteria: {}\nmax_attempts: {}\nescalation: human",
        words(rng, 15),
        2 + rng.below(5)
    );
    out
}

/// A small AgentPM loop (3-15 phases); `broken` adds a dangling transition.
fn small_agentpm(name: &str, rng: &mut Rng, broken: bool) -> String {
    let phases = 3 + rng.below(6);
    let mut text = agentpm_loop(name, phases, rng.next());
    if rng.below(4) == 0 {
        // A warning: no `$schema` (F012).
        let start = text.find("  \"$schema\"").unwrap_or(0);
        let end = text[start..].find('\n').map_or(start, |e| start + e + 1);
        text.replace_range(start..end, "");
    }
    if broken {
        text = text.replacen("\"to\": \"$handoff\"", "\"to\": \"no-such-phase\"", 1);
    }
    text
}

/// `n` loop files (name, text), mixed AgentPM (`NAME/agent.json`) and MAS (`NAME.yaml`);
/// with `broken`, every tenth has an error.
pub fn corpus(n: usize, broken: bool, seed: u64) -> Vec<(String, String)> {
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|i| {
            let name = format!("loop-{i:05}");
            let bad = broken && i % 10 == 9;
            if rng.below(5) < 3 {
                let text = small_agentpm(&name, &mut rng, bad);
                (format!("{name}/agent.json"), text)
            } else {
                let text = mas_loop(&name, &mut rng, bad);
                (format!("{name}.yaml"), text)
            }
        })
        .collect()
}
