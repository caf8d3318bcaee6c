//! The long forms of the XState front end's codes (`F018`, `F019`, raised by
//! `crate::front::xstate`): machines that are not a loop.

use super::{Code, CodeDoc, ex};

/// One entry per code of the family, in the order of [`Code::ALL`].
pub(super) const DOCS: &[CodeDoc] = &[
    CodeDoc {
        code: Code::XstateUnsupported,
        checks: "An XState machine uses only what a loop can say: flat states, events with one target each, final states, `description`, `tags` and `meta`.",
        why: "A loop is a flat phase graph whose outcomes each lead to one place. Parallel and nested states, history states, guards, actions, delayed and eventless transitions, invoked actors and context have no counterpart in either loop format; reading them as a loop would drop them silently.",
        fix: "Flatten the machine: one state per phase, one event per outcome, a final state per terminal. Keep the behaviour the loop cannot express in the agent's own code.",
        example: ex(
            r#"{"id": "triage", "initial": "read", "states": {
  "read": {"description": "Read the issue.", "type": "parallel", "states": {"a": {}, "b": {}}, "on": {"complete": "end"}},
  "end": {"type": "final", "output": {"status": "ended"}}
}}
"#,
            r#"{"id": "triage", "initial": "read", "states": {
  "read": {"description": "Read the issue.", "on": {"complete": "end"}},
  "end": {"type": "final", "output": {"status": "ended"}}
}}
"#,
        ),
    },
    CodeDoc {
        code: Code::XstateGate,
        checks: "Every way into a phase guarded by approval checkpoints goes through its first gate, the gates form one chain (each approves into the next, the last into the phase), and each gate has exactly the events `APPROVE` and `REJECT`. The chain is the checkpoints' order; the order of the keys of `states` plays no part. When two gates approve into the same state they form no chain, and they are taken in the order they are listed.",
        why: "The runtime evaluates a phase's checkpoints every time the phase is entered. A transition that targets the phase itself, or a later gate, skips an approval the loop requires.",
        fix: "Target the phase's first gate state, and chain its gates with `APPROVE`.",
        example: ex(
            r#"{"id": "ship", "initial": "build", "states": {
  "build": {"description": "Build the release.", "on": {"complete": "deploy"}},
  "deploy": {"description": "Deploy the release.", "on": {"complete": "end"}},
  "approve-deploy": {"tags": ["checkpoint"], "on": {"APPROVE": "deploy", "REJECT": "abort"}},
  "end": {"type": "final", "output": {"status": "ended"}},
  "abort": {"type": "final", "output": {"status": "aborted"}}
}}
"#,
            r#"{"id": "ship", "initial": "build", "states": {
  "build": {"description": "Build the release.", "on": {"complete": "approve-deploy"}},
  "deploy": {"description": "Deploy the release.", "on": {"complete": "end"}},
  "approve-deploy": {"tags": ["checkpoint"], "on": {"APPROVE": "deploy", "REJECT": "abort"}},
  "end": {"type": "final", "output": {"status": "ended"}},
  "abort": {"type": "final", "output": {"status": "aborted"}}
}}
"#,
        ),
    },
];
