//! Scaffolds: a valid, complete loop for each well-known pattern, ready to edit.
//!
//! The four AgentPM archetypes (ReAct, plan-and-solve, plan-execute-replan, Reflexion) are
//! phase graphs with outcomes, access, limits, an error policy and an approval checkpoint
//! where the pattern acts on the world from a decision (ReAct's action, a new plan). Each
//! carries the loop-architecture card (seed 003): `$end` only through a phase that tests
//! the success check, a failed check records its reason and loops back, and an outcome
//! `no-progress` stops at `$abort` (the harness counts; budgets are the harness's too);
//! VEAL and REAL are multi-agent-spec loops with checks, ports and escalation. The
//! templates live in `templates/scaffolds/` (embedded); `__NAME__` is the loop's name.

use crate::format::Format;

/// A loop pattern that `loopconv new` can scaffold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Archetype {
    /// Think, act (after approval), observe; a proposed answer is checked (AgentPM).
    React,
    /// Plan once, solve step by step, verify (AgentPM).
    PlanAndSolve,
    /// Plan (approved once per plan), execute, replan; the goal is checked (AgentPM).
    PlanExecuteReplan,
    /// Attempt, evaluate, reflect into memory (AgentPM).
    Reflexion,
    /// Validate, evaluate, act: a validator, checks and an actor (multi-agent-spec).
    Veal,
    /// Read, evaluate, act toward a mission (multi-agent-spec).
    Real,
}

impl Archetype {
    /// Every archetype.
    pub const ALL: [Archetype; 6] = [
        Archetype::React,
        Archetype::PlanAndSolve,
        Archetype::PlanExecuteReplan,
        Archetype::Reflexion,
        Archetype::Veal,
        Archetype::Real,
    ];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Archetype::React => "react",
            Archetype::PlanAndSolve => "plan-and-solve",
            Archetype::PlanExecuteReplan => "plan-execute-replan",
            Archetype::Reflexion => "reflexion",
            Archetype::Veal => "veal",
            Archetype::Real => "real",
        }
    }

    /// The format the scaffold is written in.
    pub fn format(self) -> Format {
        match self {
            Archetype::Veal | Archetype::Real => Format::Mas,
            Archetype::React
            | Archetype::PlanAndSolve
            | Archetype::PlanExecuteReplan
            | Archetype::Reflexion => Format::Agentpm,
        }
    }

    fn template(self) -> &'static str {
        match self {
            Archetype::React => include_str!("../templates/scaffolds/react.json"),
            Archetype::PlanAndSolve => include_str!("../templates/scaffolds/plan-and-solve.json"),
            Archetype::PlanExecuteReplan => {
                include_str!("../templates/scaffolds/plan-execute-replan.json")
            }
            Archetype::Reflexion => include_str!("../templates/scaffolds/reflexion.json"),
            Archetype::Veal => include_str!("../templates/scaffolds/veal.yaml"),
            Archetype::Real => include_str!("../templates/scaffolds/real.yaml"),
        }
    }
}

/// A loop name both formats accept: lowercase kebab-case, at most 64 characters.
pub fn valid_name(name: &str) -> bool {
    crate::ir::id_pattern::is_package_name(name)
}

/// The scaffold of `archetype` named `name`, in its own format; `None` when the name is
/// not lowercase kebab-case of at most 64 characters.
pub fn scaffold(archetype: Archetype, name: &str) -> Option<String> {
    valid_name(name).then(|| archetype.template().replace("__NAME__", name))
}
