//! Retired codes: rules loopconv no longer applies, kept so that their strings and names
//! are never reused and `loopconv explain` can still say what they were (the way ruff
//! documents its removed rules).
//!
//! A retired code is deliberately not a [`Code`]: no [`super::Diagnostic`] can carry it, so
//! the compiler rules out emitting it, and SARIF rules and the language server (which list
//! `Code::ALL`) never see it. A check evaluated at compile time makes the reservation hold: a `Code` that takes
//! a retired string or name, or a retired entry given twice, stops the build.

use super::Code;

/// One retired code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Retired {
    /// The code string, reserved (e.g. `V017`).
    pub code: &'static str,
    /// The kebab-case name, reserved.
    pub name: &'static str,
    /// What the code reported, in the words of its one-line summary.
    pub summary: &'static str,
    /// What the rule checked.
    pub checked: &'static str,
    /// When it was retired, in one short clause (the code tables' wording).
    pub retired_in: &'static str,
    /// When and by what it was retired, in full.
    pub retired: &'static str,
    /// Why it was retired.
    pub why: &'static str,
    /// What an author does now.
    pub instead: &'static str,
}

/// Every retired code, in code order.
pub const RETIRED: &[Retired] = &[Retired {
    code: "V017",
    name: "duplicate-checkpoint-phase",
    summary: "two approval checkpoints guard the same phase",
    retired_in: "retired in loopconv 0.1.0: allowed since the AgentPM harness release",
    checked: "At most one approval checkpoint guarded each phase (upstream lint rule 17).",
    retired: "Retired in loopconv 0.1.0, following the AgentPM harness release (agentpm-dev/cli `specs/2026-08-20-harness/spec.md`, \"Multiple checkpoints per phase\"), which removed the one-checkpoint-per-phase lint on purpose. Lint versions before the harness release still report it.",
    why: "The Loops documentation says: \"Multiple approval checkpoints may target the same before_phase. Compatible runtimes evaluate matching checkpoints in the authored loop.checkpoints order before entering that phase.\" The harness evaluates them in that order: all must approve before the phase is entered, and the first rejection stops the evaluation and follows its own `on_reject`, consuming no step. Each rejection has its own target, so nothing is undefined, and the published JSON Schema has always accepted such files.",
    instead: "Nothing to change: several approvers before one phase (a reviewer, then a security sign-off) are valid. `loopconv walk` evaluates them in authored order and `loopconv paths` covers each one's approval and rejection.",
}];

/// The retired entry with this code string or name (any case).
pub fn lookup(text: &str) -> Option<&'static Retired> {
    let t = text.trim();
    RETIRED
        .iter()
        .find(|r| r.code.eq_ignore_ascii_case(t) || r.name.eq_ignore_ascii_case(t))
}

// Evaluated in every build: retired strings and names are reserved.
const _: () = reserved();

/// Panics (at compile time) when a `Code` takes a retired string or name, or a code is
/// retired twice.
const fn reserved() {
    let mut r = 0;
    while r < RETIRED.len() {
        let mut c = 0;
        while c < Code::ALL.len() {
            assert!(
                !crate::text::same_text(Code::ALL[c].as_str(), RETIRED[r].code),
                "a Code reuses a retired code string"
            );
            assert!(
                !crate::text::same_text(Code::ALL[c].name(), RETIRED[r].name),
                "a Code reuses a retired code name"
            );
            c += 1;
        }
        let mut other = r + 1;
        while other < RETIRED.len() {
            assert!(
                !crate::text::same_text(RETIRED[other].code, RETIRED[r].code),
                "a code is retired twice"
            );
            other += 1;
        }
        r += 1;
    }
}
