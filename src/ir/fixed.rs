//! The fixed loops of multi-agent-spec, REAL and VEAL, as one table (mapping.md).
//!
//! The acronym becomes the graph: each letter but L is one phase, L is the back edge.
//! VEAL is `validate -> eval -> act -> validate`, REAL is `read -> eval -> act -> read`;
//! `eval` emits the success outcome (`$end`), the retry outcome (`act`) or `escalate` (the
//! escalation target). The MAS front end builds its graph from this table, the MAS back
//! end recognises the shape in a general graph with it, and the diagram model reads the
//! roles of the phases from it.

use super::{Destination, Escalation, LoopPattern, Spec, Terminal};

/// One fixed loop: phase ids and `eval`'s outcomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FixedLoop {
    /// `LoopPattern::Real` or `LoopPattern::Veal`.
    pub pattern: LoopPattern,
    /// The first phase, the entry (`read` / `validate`).
    pub first: &'static str,
    /// Whether the validator runs the first phase (VEAL).
    pub first_is_validator: bool,
    /// The evaluation phase.
    pub eval: &'static str,
    /// The acting phase (the actor's).
    pub act: &'static str,
    /// `eval`'s success outcome (to `$end`) and its description.
    pub success: (&'static str, &'static str),
    /// `eval`'s retry outcome (to `act`) and its description.
    pub retry: (&'static str, &'static str),
    /// `eval`'s escalation outcome (to the escalation target).
    pub escalate: &'static str,
}

/// Validate, Eval, Act, Loop.
pub const VEAL: FixedLoop = FixedLoop {
    pattern: LoopPattern::Veal,
    first: "validate",
    first_is_validator: true,
    eval: "eval",
    act: "act",
    success: ("go", "Every required check passed (GO)."),
    retry: (
        "no-go",
        "A required check failed (NO-GO); the actor corrects the state.",
    ),
    escalate: "escalate",
};

/// Read, Eval, Act, Loop.
pub const REAL: FixedLoop = FixedLoop {
    pattern: LoopPattern::Real,
    first: "read",
    first_is_validator: false,
    eval: "eval",
    act: "act",
    success: ("mission-complete", "The mission is complete."),
    retry: (
        "act",
        "The mission is not complete; the actor works toward it.",
    ),
    escalate: "escalate",
};

/// The phase ids of a general graph that has a fixed loop's shape.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recognised {
    /// The fixed loop.
    pub fixed: FixedLoop,
    /// The graph's first phase (`read` / `validate` up to naming).
    pub first: String,
    /// The graph's evaluation phase.
    pub eval: String,
    /// The graph's acting phase.
    pub act: String,
    /// Where `escalate` goes.
    pub escalate_to: Terminal,
}

impl FixedLoop {
    /// Both fixed loops.
    pub const ALL: [FixedLoop; 2] = [VEAL, REAL];

    /// The fixed loop of a pattern (`None` for a general graph).
    pub fn of(pattern: LoopPattern) -> Option<FixedLoop> {
        match pattern {
            LoopPattern::Veal => Some(VEAL),
            LoopPattern::Real => Some(REAL),
            LoopPattern::General => None,
        }
    }

    /// `eval`'s three outcome ids, sorted.
    fn eval_outcomes(&self) -> [&'static str; 3] {
        let mut ids = [self.success.0, self.retry.0, self.escalate];
        ids.sort_unstable();
        ids
    }

    /// The role that runs a phase of this loop (`validator` / `actor`), if any.
    pub fn role_of(&self, phase_id: &str) -> Option<Role> {
        if phase_id == self.first && self.first_is_validator {
            Some(Role::Validator)
        } else if phase_id == self.act {
            Some(Role::Actor)
        } else {
            None
        }
    }

    /// Recognise a fixed loop's shape in a general graph (up to phase naming): three
    /// phases `first -> eval -> act -> first`, `first` and `act` with the implicit outcome,
    /// `eval` with exactly this loop's outcomes, success to `$end`, retry to `act`,
    /// escalation to a terminal; no checkpoints.
    pub fn recognise(spec: &Spec) -> Option<Recognised> {
        let g = &spec.graph;
        if g.phases.len() != 3
            || g.transitions.len() != 5
            || g.checkpoints.as_ref().is_some_and(|c| !c.is_empty())
        {
            return None;
        }
        let first = spec.phase(&g.entry).filter(|p| p.outcomes.is_none())?;
        let Destination::Phase(eval_id) = next(spec, &first.id, super::IMPLICIT_OUTCOME)? else {
            return None;
        };
        let eval = spec.phase(eval_id)?;
        let mut outs: Vec<&str> = eval
            .outcomes
            .as_ref()?
            .iter()
            .map(|o| o.id.as_str())
            .collect();
        outs.sort_unstable();
        let fixed = FixedLoop::ALL
            .into_iter()
            .find(|f| outs == f.eval_outcomes())?;
        if next(spec, &eval.id, fixed.success.0)? != &Destination::Terminal(Terminal::End) {
            return None;
        }
        let Destination::Phase(act_id) = next(spec, &eval.id, fixed.retry.0)? else {
            return None;
        };
        let act = spec.phase(act_id).filter(|p| p.outcomes.is_none())?;
        let Destination::Terminal(escalate_to) = next(spec, &eval.id, fixed.escalate)? else {
            return None;
        };
        if next(spec, &act.id, super::IMPLICIT_OUTCOME)? != &Destination::Phase(first.id.clone()) {
            return None;
        }
        let distinct = first.id != eval.id && eval.id != act.id && first.id != act.id;
        distinct.then(|| Recognised {
            fixed,
            first: first.id.clone(),
            eval: eval.id.clone(),
            act: act.id.clone(),
            escalate_to: *escalate_to,
        })
    }
}

/// The one target of `from` on `on`, when there is exactly one.
fn next<'a>(spec: &'a Spec, from: &str, on: &str) -> Option<&'a Destination> {
    let mut ts = spec
        .graph
        .transitions
        .iter()
        .filter(|t| t.from == from && t.on == on);
    let t = ts.next()?;
    ts.next().is_none().then_some(&t.to)
}

/// An agent role of a fixed loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// The agent that acts.
    Actor,
    /// The agent that validates (VEAL).
    Validator,
}

impl Escalation {
    /// Where an escalation goes in the graph: `human` and `fallback` hand off, `abort`
    /// aborts, `continue` ends.
    pub fn target(self) -> Terminal {
        match self {
            Escalation::Human | Escalation::Fallback => Terminal::Handoff,
            Escalation::Abort => Terminal::Abort,
            Escalation::Continue => Terminal::End,
        }
    }
}

/// The steps of `attempts` attempts: one attempt is one pass through the three phases and
/// the last failed attempt escalates from `eval`, so `3 * attempts - 1` (saturating, at
/// least 1).
pub fn max_steps_for(attempts: u64) -> u64 {
    attempts.saturating_mul(3).saturating_sub(1).max(1)
}
