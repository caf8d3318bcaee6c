//! The checkpoint gates of a machine: the phase each guards, the order of their chains,
//! `F019` for a gate out of place, and where a reference to a state leads.

use super::super::loss;
use super::super::state_origin;
use super::{Lowering, Role, target_pointer, terminal_index};
use crate::diag::{Code, Diagnostic, EditTarget, Suggestion};
use crate::ir::{self, Destination, IdMap};
use crate::model::xstate as m;

impl<'a> Lowering<'a> {
    /// The events of state `key`, in order.
    pub(super) fn events(
        &self,
        key: &str,
    ) -> impl Iterator<Item = (&'a String, &'a m::On)> + use<'a> {
        self.states
            .get(key)
            .and_then(|s| s.on.as_ref())
            .into_iter()
            .flatten()
    }

    /// `F019` when gate `gate` has no event `name` (`APPROVE` or `REJECT`).
    pub(super) fn missing_gate_event(&mut self, gate: &str, name: &str) {
        if self.events(gate).any(|(e, _)| e.as_str() == name) {
            return;
        }
        self.diags.push(
            Diagnostic::new(
                Code::XstateGate,
                format!(
                    "the checkpoint gate `{}` has no `{name}` event",
                    gate.escape_debug()
                ),
            )
            .with_help("a gate has two events: `APPROVE` into the guarded phase (or the next gate) and `REJECT` to where a rejection goes")
            .at_key(state_origin(gate).pointer()),
        );
    }

    /// The phase each gate guards (following `APPROVE` through later gates), each guarded
    /// phase's gates in the order of their chain ([`Lowering::chain_order`]), `F019` for a
    /// gate approving into the wrong place and for an event a gate does not take.
    pub(super) fn chain_gates(&mut self) {
        let gates = self.keys_of(|r| *r == Role::Gate);
        for &(_, g) in &gates {
            self.stray_gate_events(g);
            let phase = self.guarded_phase(g);
            self.guarded.insert(g, phase);
            if let Some(p) = phase {
                self.gates_of.entry(p).or_default().push(g);
            }
        }
        let mut chains = std::mem::take(&mut self.gates_of);
        for (p, listed) in &mut chains {
            if let Some(chain) = self.chain_order(p, listed) {
                *listed = chain;
            }
        }
        self.gates_of = chains;
        // Each gate's place in its phase's chain, found once (a search of the chains for
        // each gate was quadratic in the number of gates).
        let mut place: IdMap<&'a str, usize> = ir::id_map(gates.len());
        for chain in self.gates_of.values() {
            for (i, g) in chain.iter().enumerate() {
                place.insert(g, i);
            }
        }
        for &(_, g) in &gates {
            let Some(p) = self.guarded.get(g).copied().flatten() else {
                continue;
            };
            let next = (self.gates_of.get(p))
                .zip(place.get(g))
                .and_then(|(chain, i)| chain.get(i + 1))
                .copied();
            self.check_approval(g, p, next.unwrap_or(p));
        }
    }

    /// The gates of phase `p` (`listed`, in the order of the states) in the order of their
    /// chain, read from the `APPROVE` events backwards from the phase: the one gate that
    /// approves into `p` is the last, the one that approves into it the one before, and so
    /// on. The order of the keys of `states` plays no part: editors reorder keys freely,
    /// and the chain is what a person edits. `None` when the gates form no single chain
    /// (two approve into the same state): they are then taken as listed, and `F019` says
    /// which gate approves into the wrong place.
    pub(super) fn chain_order(&self, p: &'a str, listed: &[&'a str]) -> Option<Vec<&'a str>> {
        let mut into: IdMap<&'a str, Vec<&'a str>> = ir::id_map(listed.len());
        for &g in listed {
            if let Some((target, _)) = self.approval(g) {
                into.entry(target).or_default().push(g);
            }
        }
        let mut chain = Vec::with_capacity(listed.len());
        let mut at = p;
        while let Some(before) = into.get(at) {
            let [g] = before.as_slice() else {
                return None;
            };
            if chain.contains(g) {
                return None;
            }
            chain.push(*g);
            at = g;
        }
        (chain.len() == listed.len()).then(|| {
            chain.reverse();
            chain
        })
    }

    /// The phase a gate's `APPROVE` leads to, through later gates; `None` (after `F019`)
    /// when it leads to no phase.
    pub(super) fn guarded_phase(&mut self, gate: &'a str) -> Option<&'a str> {
        let mut at = gate;
        let mut seen = vec![gate];
        loop {
            let (next, _) = self.approval(at)?;
            match self.roles.get(next) {
                Some(Role::Phase) => return Some(next),
                Some(Role::Gate) if !seen.contains(&next) => {
                    seen.push(next);
                    at = next;
                }
                _ => {
                    if at == gate {
                        self.approves_into_no_phase(gate, next);
                    }
                    return None;
                }
            }
        }
    }

    /// A gate's `APPROVE` event and its target.
    pub(super) fn approval(&self, gate: &str) -> Option<(&'a str, &'a m::On)> {
        let (_, on) = self.events(gate).find(|(e, _)| e.as_str() == m::APPROVE)?;
        Some((on.target()?, on))
    }

    pub(super) fn approves_into_no_phase(&mut self, gate: &str, target: &str) {
        self.diags.push(
            Diagnostic::new(
                Code::XstateGate,
                format!(
                    "the checkpoint gate `{}` approves into `{}`, which is not a phase",
                    gate.escape_debug(),
                    target.escape_debug()
                ),
            )
            .with_help("`APPROVE` goes into the phase the checkpoint guards, or into the next gate before it")
            .at(state_origin(gate).child("on").pointer_to(m::APPROVE)),
        );
    }

    /// `F019` for each event of a gate but `APPROVE` and `REJECT`, and for a missing one.
    pub(super) fn stray_gate_events(&mut self, gate: &'a str) {
        let stray: Vec<&'a String> = self
            .events(gate)
            .map(|(e, _)| e)
            .filter(|e| *e != m::APPROVE && *e != m::REJECT)
            .collect();
        for e in stray {
            self.diags.push(
                Diagnostic::new(
                    Code::XstateGate,
                    format!(
                        "the checkpoint gate `{}` has an event `{}`: a gate takes only `APPROVE` and `REJECT`",
                        gate.escape_debug(),
                        e.escape_debug()
                    ),
                )
                .with_suggestion(Suggestion::RemoveKey {
                    target: EditTarget::key(state_origin(gate).child("on").pointer_to(e)),
                })
                .at_key(state_origin(gate).child("on").pointer_to(e)),
            );
        }
        self.missing_gate_event(gate, m::APPROVE);
        self.missing_gate_event(gate, m::REJECT);
    }

    /// `F019` when gate `g` of phase `p` does not approve into `expected`, the next gate of
    /// the phase's chain (or `p`, for the last).
    pub(super) fn check_approval(&mut self, g: &'a str, p: &'a str, expected: &'a str) {
        let Some((actual, on)) = self.approval(g) else {
            return;
        };
        if actual == expected {
            return;
        }
        let ptr = target_pointer(g, m::APPROVE, on);
        self.diags.push(
            Diagnostic::new(
                Code::XstateGate,
                format!(
                    "the checkpoint gate `{}` approves into `{}`, but the gates before `{}` form no single chain (two approve into the same state), so they are taken in the order they are listed, and it approves into `{}`",
                    g.escape_debug(),
                    actual.escape_debug(),
                    p.escape_debug(),
                    expected.escape_debug()
                ),
            )
            .with_suggestion(Suggestion::Set {
                target: EditTarget::value(ptr.clone()),
                to: expected.to_owned(),
            })
            .at(ptr),
        );
    }

    /// Where a reference to state `key` (at `ptr`, written out only for a diagnostic) leads
    /// in the loop: a phase (through its gates), a terminal, or, for a key that names no
    /// state, the key itself (the validator reports it). `F019` when it skips a gate.
    pub(super) fn destination(
        &mut self,
        key: &'a str,
        ptr: impl FnOnce() -> String,
    ) -> Destination {
        match self.roles.get(key).copied() {
            Some(Role::Terminal(t)) => {
                self.targeted.insert(key);
                Destination::Terminal(t)
            }
            Some(Role::Phase) => {
                self.through_first_gate(key, key, ptr);
                Destination::Phase(self.phase_id(key))
            }
            Some(Role::Gate) => match self.guarded.get(key).copied().flatten() {
                Some(p) => {
                    self.through_first_gate(key, p, ptr);
                    Destination::Phase(self.phase_id(p))
                }
                None => Destination::Phase(key.to_owned()),
            },
            None => Destination::Phase(key.to_owned()),
        }
    }

    /// The name of final state `key` the loop keeps: `None` for a key that is no final
    /// state's or its terminal's own ([`Lowering::final_keys`]).
    pub(super) fn final_state(&self, key: &str) -> Option<String> {
        match self.roles.get(key) {
            Some(Role::Terminal(t)) if self.final_keys[terminal_index(*t)] != key => {
                Some(key.to_owned())
            }
            _ => None,
        }
    }

    /// A loss for each final state no transition or rejection targets: the loop holds a
    /// final state only as where a run ends.
    pub(super) fn untargeted_finals(&mut self) {
        let states = self.states;
        for key in states.keys() {
            let is_final = matches!(self.roles.get(key.as_str()), Some(Role::Terminal(_)));
            if is_final && !self.targeted.contains(key.as_str()) {
                self.diags.push(loss(
                    state_origin(key).pointer(),
                    format!(
                        "the final state `{}` is the target of no transition: dropped",
                        key.escape_debug()
                    ),
                ));
            }
        }
    }

    /// `F019` when a reference to `target` enters guarded phase `phase` elsewhere than
    /// through its first gate.
    pub(super) fn through_first_gate(
        &mut self,
        target: &str,
        phase: &str,
        ptr: impl FnOnce() -> String,
    ) {
        let Some(first) = self.gates_of.get(phase).and_then(|g| g.first()).copied() else {
            return;
        };
        if target == first {
            return;
        }
        let ptr = ptr();
        let skipped: Vec<String> = self.gates_of[phase]
            .iter()
            .take_while(|g| **g != target)
            .map(|g| format!("`{}`", self.checkpoint_id(g).escape_debug()))
            .collect();
        self.diags.push(
            Diagnostic::new(
                Code::XstateGate,
                format!(
                    "this target skips the checkpoint {} before `{}`: every way into a guarded phase goes through its first gate",
                    crate::text::list(&skipped, "and"),
                    phase.escape_debug()
                ),
            )
            .with_suggestion(Suggestion::Set {
                target: EditTarget::value(ptr.clone()),
                to: first.to_owned(),
            })
            .at(ptr),
        );
    }

    /// A gate's checkpoint id: `meta.checkpoint`, else its key.
    pub(super) fn checkpoint_id(&self, gate: &'a str) -> &'a str {
        self.states.get_key_value(gate).map_or(gate, |(k, s)| {
            s.meta
                .as_ref()
                .and_then(|m| m.checkpoint.as_deref())
                .unwrap_or(k)
        })
    }
}
