//! The long forms of the `V` codes (validation): the loop's meaning is wrong (references,
//! graph, policy rules).

use super::{Code, CodeDoc, ex};

/// One entry per code of the family, in the order of [`Code::ALL`].
pub(super) const DOCS: &[CodeDoc] = &[
    // ---- V: AgentPM lint rules ----
    CodeDoc {
        code: Code::BlankArchetype,
        checks: "`loop.archetype`, when present, is not empty or blank.",
        why: "The archetype names the loop's pattern (review-revise, plan-execute) for people and tools.",
        fix: "Name the pattern, or remove the key.",
        example: ex(
            apm!(
                "  archetype: \" \"
  entry_phase: read
  phases:
    - {id: read, objective: Read the issue.}
  transitions:
    - {from: read, on: complete, to: $end}
"
            ),
            apm!(),
        ),
    },
    CodeDoc {
        code: Code::BlankObjective,
        checks: "Every phase objective says something (not empty or blank).",
        why: "The objective is the agent's instruction for the phase: a blank one leaves the agent guessing.",
        fix: "Write what the phase must achieve.",
        example: ex(
            apm!(
                "  entry_phase: read
  phases:
    - {id: read, objective: \" \"}
  transitions:
    - {from: read, on: complete, to: $end}
"
            ),
            apm!(),
        ),
    },
    CodeDoc {
        code: Code::DuplicatePhase,
        checks: "No two phases share an id. A phase renamed into another phase's id, whose old id the references still name, is this one diagnostic, on the renamed declaration, with \"did you mean\" the old id (not also `V009` for the references).",
        why: "A transition to a repeated id is ambiguous: the runtime would enter one of the two phases.",
        fix: "Rename one of the phases (the diagnostic points at the second and names the first).",
        example: ex(
            apm!(
                "  entry_phase: read
  phases:
    - {id: read, objective: Read the issue.}
    - {id: read, objective: Read the linked pull request.}
  transitions:
    - {from: read, on: complete, to: $end}
"
            ),
            apm!(),
        ),
    },
    CodeDoc {
        code: Code::BlankOutcomeDescription,
        checks: "Every outcome description says something.",
        why: "The description tells the agent when to choose the outcome; a blank one makes the choice arbitrary.",
        fix: "Say when the phase ends with this outcome.",
        example: ex(
            apm!(
                "  entry_phase: read
  phases:
    - id: read
      objective: Read the issue.
      outcomes:
        - {id: clear, description: \" \"}
  transitions:
    - {from: read, on: clear, to: $end}
"
            ),
            apm!(
                "  entry_phase: read
  phases:
    - id: read
      objective: Read the issue.
      outcomes:
        - {id: clear, description: The issue says what is wrong.}
  transitions:
    - {from: read, on: clear, to: $end}
"
            ),
        ),
    },
    CodeDoc {
        code: Code::DuplicateOutcome,
        checks: "A phase declares each outcome id once.",
        why: "Two outcomes with one id cannot lead to two places: one description would be ignored.",
        fix: "Rename or merge the outcomes.",
        example: ex(
            apm!(
                "  entry_phase: read
  phases:
    - id: read
      objective: Read the issue.
      outcomes:
        - {id: clear, description: The issue says what is wrong.}
        - {id: clear, description: The issue has steps to reproduce.}
  transitions:
    - {from: read, on: clear, to: $end}
"
            ),
            apm!(
                "  entry_phase: read
  phases:
    - id: read
      objective: Read the issue.
      outcomes:
        - {id: clear, description: The issue says what is wrong.}
  transitions:
    - {from: read, on: clear, to: $end}
"
            ),
        ),
    },
    CodeDoc {
        code: Code::UnknownEntryPhase,
        checks: "`entry_phase` names a declared phase.",
        why: "The run starts at the entry phase: with a dangling one it cannot start.",
        fix: "Name a declared phase (the help suggests the closest id).",
        example: ex(
            apm!(
                "  entry_phase: reed
  phases:
    - {id: read, objective: Read the issue.}
  transitions:
    - {from: read, on: complete, to: $end}
"
            ),
            apm!(),
        ),
    },
    CodeDoc {
        code: Code::UnknownTransitionSource,
        checks: "Every transition's `from` names a declared phase.",
        why: "A transition from nowhere never fires, and the phase it was meant for has no way out.",
        fix: "Name a declared phase (the help suggests the closest id).",
        example: ex(
            apm!(
                "  entry_phase: read
  phases:
    - {id: read, objective: Read the issue.}
  transitions:
    - {from: read, on: complete, to: $end}
    - {from: reed, on: complete, to: $end}
"
            ),
            apm!(),
        ),
    },
    CodeDoc {
        code: Code::UnknownOutcome,
        checks: "Every transition's `on` is an outcome of its `from` phase (a phase without declared outcomes has the one outcome `complete`). The transitions on one unknown outcome of a phase are one diagnostic, labelled at each; so are all the transitions that leave a phase declaring no `outcomes` on outcomes it would have to declare: its outcome list is what is missing.",
        why: "The phase can never end with that outcome, so the transition never fires.",
        fix: "Use one of the phase's outcomes, or declare the outcome.",
        example: ex(
            apm!(
                "  entry_phase: read
  phases:
    - {id: read, objective: Read the issue.}
  transitions:
    - {from: read, on: done, to: $end}
"
            ),
            apm!(),
        ),
    },
    CodeDoc {
        code: Code::UnknownTransitionTarget,
        checks: "Every transition's `to` is a declared phase or a terminal (`$end`, `$abort`, `$handoff`).",
        why: "A run that takes the transition has nowhere to go.",
        fix: "Name a declared phase or a terminal (the help suggests the closest).",
        example: ex(
            apm!(
                "  entry_phase: read
  phases:
    - {id: read, objective: Read the issue.}
  transitions:
    - {from: read, on: complete, to: $ned}
"
            ),
            apm!(),
        ),
    },
    CodeDoc {
        code: Code::DuplicateTransition,
        checks: "Each (phase, outcome) pair has at most one transition.",
        why: "Two transitions for one outcome make the next phase ambiguous.",
        fix: "Keep one transition, or give the phase another outcome.",
        example: ex(
            apm!(
                "  entry_phase: read
  phases:
    - {id: read, objective: Read the issue.}
  transitions:
    - {from: read, on: complete, to: $end}
    - {from: read, on: complete, to: $handoff}
"
            ),
            apm!(),
        ),
    },
    CodeDoc {
        code: Code::MissingTransition,
        checks: "Each (phase, outcome) pair has a transition. A phase that declares no `outcomes` but is left on outcomes it would have to declare (`V008`) is not also reported for its implicit `complete`: its outcome list is what is missing.",
        why: "A run whose phase ends with an outcome that has no transition is stuck.",
        fix: "Add the transition (`{from: PHASE, on: OUTCOME, to: ...}`), or remove the outcome.",
        example: ex(
            apm!(
                "  entry_phase: read
  phases:
    - id: read
      objective: Read the issue.
      outcomes:
        - {id: clear, description: The issue says what is wrong.}
        - {id: unclear, description: The issue needs more information.}
  transitions:
    - {from: read, on: clear, to: $end}
"
            ),
            apm!(
                "  entry_phase: read
  phases:
    - id: read
      objective: Read the issue.
      outcomes:
        - {id: clear, description: The issue says what is wrong.}
        - {id: unclear, description: The issue needs more information.}
  transitions:
    - {from: read, on: clear, to: $end}
    - {from: read, on: unclear, to: $handoff}
"
            ),
        ),
    },
    CodeDoc {
        code: Code::UnreachablePhase,
        checks: "Every phase can be reached from the entry phase. A branch cut off by one missing transition is one diagnostic, at its first phase, labelled at each phase reached only through it.",
        why: "An unreachable phase is dead code: usually a transition to it is missing or points elsewhere.",
        fix: "Add a transition to the phase, or remove it.",
        example: ex(
            apm!(
                "  entry_phase: read
  phases:
    - {id: read, objective: Read the issue.}
    - {id: label, objective: Label the issue.}
  transitions:
    - {from: read, on: complete, to: $end}
    - {from: label, on: complete, to: $end}
"
            ),
            apm!(
                "  entry_phase: read
  phases:
    - {id: read, objective: Read the issue.}
    - {id: label, objective: Label the issue.}
  transitions:
    - {from: read, on: complete, to: label}
    - {from: label, on: complete, to: $end}
"
            ),
        ),
    },
    CodeDoc {
        code: Code::NoTerminalReachable,
        checks: "Some terminal (`$end`, `$abort`, `$handoff`) can be reached from the entry phase.",
        why: "A loop that can never stop runs until its step limit, every time.",
        fix: "Add a transition to a terminal.",
        example: ex(
            apm!(
                "  entry_phase: read
  phases:
    - {id: read, objective: Read the issue.}
  transitions:
    - {from: read, on: complete, to: read}
"
            ),
            apm!(),
        ),
    },
    CodeDoc {
        code: Code::DuplicateCheckpoint,
        checks: "No two checkpoints share an id.",
        why: "Approvals are recorded by checkpoint id: two checkpoints with one id cannot be told apart.",
        fix: "Rename one of the checkpoints.",
        example: ex(
            apm!(
                "  entry_phase: read
  phases:
    - {id: read, objective: Read the issue.}
    - {id: label, objective: Label the issue.}
  transitions:
    - {from: read, on: complete, to: label}
    - {from: label, on: complete, to: $end}
  checkpoints:
    - {id: approve, type: approval, before_phase: read, on_reject: $abort}
    - {id: approve, type: approval, before_phase: label, on_reject: $abort}
"
            ),
            apm!(
                "  entry_phase: read
  phases:
    - {id: read, objective: Read the issue.}
    - {id: label, objective: Label the issue.}
  transitions:
    - {from: read, on: complete, to: label}
    - {from: label, on: complete, to: $end}
  checkpoints:
    - {id: approve-read, type: approval, before_phase: read, on_reject: $abort}
    - {id: approve-label, type: approval, before_phase: label, on_reject: $abort}
"
            ),
        ),
    },
    CodeDoc {
        code: Code::UnknownCheckpointPhase,
        checks: "Every checkpoint's `before_phase` names a declared phase.",
        why: "A checkpoint before a phase that does not exist never asks for approval: the phase it was meant to guard runs unguarded.",
        fix: "Name a declared phase (the help suggests the closest id).",
        example: ex(
            apm!(
                "  entry_phase: read
  phases:
    - {id: read, objective: Read the issue.}
  transitions:
    - {from: read, on: complete, to: $end}
  checkpoints:
    - {id: approve, type: approval, before_phase: reed, on_reject: $abort}
"
            ),
            apm!(
                "  entry_phase: read
  phases:
    - {id: read, objective: Read the issue.}
  transitions:
    - {from: read, on: complete, to: $end}
  checkpoints:
    - {id: approve, type: approval, before_phase: read, on_reject: $abort}
"
            ),
        ),
    },
    CodeDoc {
        code: Code::UnknownRejectTarget,
        checks: "Every checkpoint's `on_reject` is a declared phase or a terminal.",
        why: "A rejected approval must lead somewhere; otherwise the run is stuck at the checkpoint.",
        fix: "Name a declared phase or a terminal.",
        example: ex(
            apm!(
                "  entry_phase: read
  phases:
    - {id: read, objective: Read the issue.}
  transitions:
    - {from: read, on: complete, to: $end}
  checkpoints:
    - {id: approve, type: approval, before_phase: read, on_reject: $stop}
"
            ),
            apm!(
                "  entry_phase: read
  phases:
    - {id: read, objective: Read the issue.}
  transitions:
    - {from: read, on: complete, to: $end}
  checkpoints:
    - {id: approve, type: approval, before_phase: read, on_reject: $abort}
"
            ),
        ),
    },
    CodeDoc {
        code: Code::RetryWithoutMaxRetries,
        checks: "A tool-failure policy with `action: retry` says how often (`max_retries`).",
        why: "Without a bound, a failing tool is retried forever.",
        fix: "Add `max_retries`.",
        example: ex(
            apm!(
                "  entry_phase: read
  phases:
    - {id: read, objective: Read the issue.}
  transitions:
    - {from: read, on: complete, to: $end}
  error_policy:
    tool_failure: {action: retry, on_exhausted: abort}
"
            ),
            apm!(
                "  entry_phase: read
  phases:
    - {id: read, objective: Read the issue.}
  transitions:
    - {from: read, on: complete, to: $end}
  error_policy:
    tool_failure: {action: retry, max_retries: 2, on_exhausted: abort}
"
            ),
        ),
    },
    CodeDoc {
        code: Code::RetryWithoutOnExhausted,
        checks: "A tool-failure policy with `action: retry` says what happens when the retries run out (`on_exhausted`).",
        why: "Otherwise the behaviour after the last retry is up to each runtime.",
        fix: "Add `on_exhausted`.",
        example: ex(
            apm!(
                "  entry_phase: read
  phases:
    - {id: read, objective: Read the issue.}
  transitions:
    - {from: read, on: complete, to: $end}
  error_policy:
    tool_failure: {action: retry, max_retries: 2}
"
            ),
            apm!(
                "  entry_phase: read
  phases:
    - {id: read, objective: Read the issue.}
  transitions:
    - {from: read, on: complete, to: $end}
  error_policy:
    tool_failure: {action: retry, max_retries: 2, on_exhausted: abort}
"
            ),
        ),
    },
    CodeDoc {
        code: Code::MaxRetriesWithoutRetry,
        checks: "`max_retries` appears only with `action: retry`. When `on_exhausted` is left behind too, the one diagnostic is this one, labelled at both members (not also `V021`).",
        why: "A retry count on a policy that never retries suggests the author meant `retry`.",
        fix: "Use `action: retry` (with `on_exhausted`), or remove `max_retries`.",
        example: ex(
            apm!(
                "  entry_phase: read
  phases:
    - {id: read, objective: Read the issue.}
  transitions:
    - {from: read, on: complete, to: $end}
  error_policy:
    tool_failure: {action: abort, max_retries: 2}
"
            ),
            apm!(
                "  entry_phase: read
  phases:
    - {id: read, objective: Read the issue.}
  transitions:
    - {from: read, on: complete, to: $end}
  error_policy:
    tool_failure: {action: abort}
"
            ),
        ),
    },
    CodeDoc {
        code: Code::OnExhaustedWithoutRetry,
        checks: "`on_exhausted` appears only with `action: retry`.",
        why: "Only retries can be exhausted; the key suggests the author meant `retry`.",
        fix: "Use `action: retry` (with `max_retries`), or remove `on_exhausted`.",
        example: ex(
            apm!(
                "  entry_phase: read
  phases:
    - {id: read, objective: Read the issue.}
  transitions:
    - {from: read, on: complete, to: $end}
  error_policy:
    tool_failure: {action: abort, on_exhausted: abort}
"
            ),
            apm!(
                "  entry_phase: read
  phases:
    - {id: read, objective: Read the issue.}
  transitions:
    - {from: read, on: complete, to: $end}
  error_policy:
    tool_failure: {action: abort}
"
            ),
        ),
    },
    CodeDoc {
        code: Code::MissingPhaseFailure,
        checks: "When a tool failure can fail the phase (`action: fail_phase`, or `on_exhausted: fail_phase`), `error_policy.phase_failure` says what happens next.",
        why: "The policy names tool failures that fail the phase but not what a failed phase then does; the harness falls back to its default, which ends the run `failed` whatever the author meant, and upstream `agentpm lint` rejects the file.",
        fix: "Add `phase_failure` (`abort` or `handoff`).",
        example: ex(
            apm!(
                "  entry_phase: read
  phases:
    - {id: read, objective: Read the issue.}
  transitions:
    - {from: read, on: complete, to: $end}
  error_policy:
    tool_failure: {action: fail_phase}
"
            ),
            apm!(
                "  entry_phase: read
  phases:
    - {id: read, objective: Read the issue.}
  transitions:
    - {from: read, on: complete, to: $end}
  error_policy:
    tool_failure: {action: fail_phase}
    phase_failure: {action: abort}
"
            ),
        ),
    },
    CodeDoc {
        code: Code::TrapCycle,
        checks: "No reachable phase is a trap: from every phase the run can enter, some terminal can still be reached.",
        why: "A run that enters a trap cycle never stops until its step limit, even though other paths of the loop do stop.",
        fix: "Give a phase of the cycle a way out (an outcome leading to a terminal or out of the cycle).",
        example: ex(
            apm!(
                "  entry_phase: read
  phases:
    - id: read
      objective: Read the issue.
      outcomes:
        - {id: clear, description: The issue says what is wrong.}
        - {id: unclear, description: The issue needs more information.}
    - {id: ask, objective: Ask the author.}
    - {id: wait, objective: Wait for the answer.}
  transitions:
    - {from: read, on: clear, to: $end}
    - {from: read, on: unclear, to: ask}
    - {from: ask, on: complete, to: wait}
    - {from: wait, on: complete, to: ask}
"
            ),
            apm!(
                "  entry_phase: read
  phases:
    - id: read
      objective: Read the issue.
      outcomes:
        - {id: clear, description: The issue says what is wrong.}
        - {id: unclear, description: The issue needs more information.}
    - {id: ask, objective: Ask the author.}
    - {id: wait, objective: Wait for the answer.}
  transitions:
    - {from: read, on: clear, to: $end}
    - {from: read, on: unclear, to: ask}
    - {from: ask, on: complete, to: wait}
    - {from: wait, on: complete, to: read}
"
            ),
        ),
    },
    CodeDoc {
        code: Code::MaxStepsTooSmall,
        checks: "`limits.max_steps` is at least the number of steps of the shortest run from the entry phase to `$end`.",
        why: "With a smaller limit, every run is cut off before it can succeed.",
        fix: "Raise `max_steps` to at least the shortest successful run (the message says how long it is).",
        example: ex(
            apm!(
                "  entry_phase: read
  limits: {max_steps: 1}
  phases:
    - {id: read, objective: Read the issue.}
    - {id: label, objective: Label the issue.}
  transitions:
    - {from: read, on: complete, to: label}
    - {from: label, on: complete, to: $end}
"
            ),
            apm!(
                "  entry_phase: read
  limits: {max_steps: 2}
  phases:
    - {id: read, objective: Read the issue.}
    - {id: label, objective: Label the issue.}
  transitions:
    - {from: read, on: complete, to: label}
    - {from: label, on: complete, to: $end}
"
            ),
        ),
    },
    CodeDoc {
        code: Code::NoSuccessPath,
        checks: "`$end` (success) can be reached from the entry phase.",
        why: "A loop that can only abort or hand off never succeeds on its own.",
        fix: "Add a transition to `$end`.",
        example: ex(
            apm!(
                "  entry_phase: read
  phases:
    - {id: read, objective: Read the issue.}
  transitions:
    - {from: read, on: complete, to: $abort}
"
            ),
            apm!(),
        ),
    },
    // ---- V: multi-agent-spec ----
    CodeDoc {
        code: Code::MissingMission,
        checks: "A REAL loop has a `mission`.",
        why: "The mission is the actor's task: a REAL loop without one has nothing to do.",
        fix: "Add `mission`.",
        example: ex(real!(), real!("mission: Implement the feature.\n")),
    },
    CodeDoc {
        code: Code::MissingValidator,
        checks: "A VEAL loop names its `validator` agent.",
        why: "The validator runs the checks: without one, nothing judges the actor's work.",
        fix: "Add `validator`.",
        example: ex(
            "name: lint-fix\ntype: VEAL\ndescription: Keep the lints clean.\nactor: fixer\nchecks:\n  - {id: clippy, type: command, command: cargo clippy}\n",
            veal!("checks:\n  - {id: clippy, type: command, command: cargo clippy}\n"),
        ),
    },
    CodeDoc {
        code: Code::MissingChecks,
        checks: "A VEAL loop has at least one check.",
        why: "A VEAL loop validates against its checks: with none, every attempt passes.",
        fix: "Add `checks`.",
        example: ex(
            veal!(),
            veal!("checks:\n  - {id: clippy, type: command, command: cargo clippy}\n"),
        ),
    },
    CodeDoc {
        code: Code::MissingFallbackAgent,
        checks: "`escalation: fallback` comes with a `fallback_agent`.",
        why: "The escalation hands the loop to the fallback agent: without one there is nobody to hand it to.",
        fix: "Add `fallback_agent`, or choose another escalation.",
        example: ex(
            real!("mission: Implement the feature.\nescalation: fallback\n"),
            real!(
                "mission: Implement the feature.\nescalation: fallback\nfallback_agent: senior-developer\n"
            ),
        ),
    },
    CodeDoc {
        code: Code::DuplicateCheckId,
        checks: "No two checks of a VEAL loop share an id.",
        why: "Results are reported per check id: two checks with one id cannot be told apart.",
        fix: "Rename one of the checks.",
        example: ex(
            veal!(
                "checks:\n  - {id: tests, type: command, command: go test ./...}\n  - {id: tests, type: command, command: go test -race ./...}\n"
            ),
            veal!(
                "checks:\n  - {id: tests, type: command, command: go test ./...}\n  - {id: race, type: command, command: go test -race ./...}\n"
            ),
        ),
    },
    CodeDoc {
        code: Code::CheckCannotRun,
        checks: "Each check has what its type runs: a `pattern` check a `pattern` that is a valid regular expression, a `command` check a `command`, a `file` check a `file`; `files`, when given, is not empty; a `manual` check has no `command`.",
        why: "The fields are optional in the schema, so such a check passes every validator, but the runtime has nothing to run (or, for a `manual` check, a person performs it and the command never runs): a required check that cannot run makes every iteration NO-GO, an optional one checks nothing.",
        fix: "Add the missing field (a regular expression in RE2 syntax for `pattern`, with special characters escaped), remove the empty `files`, or give a `manual` check's command its own `command` check.",
        example: ex(
            veal!("checks:\n  - {id: no-todo, type: pattern, files: \"src/**/*.go\"}\n"),
            veal!(
                "checks:\n  - {id: no-todo, type: pattern, pattern: \"TODO\\\\(\", files: \"src/**/*.go\"}\n"
            ),
        ),
    },
    CodeDoc {
        code: Code::UnusedFallbackAgent,
        checks: "`fallback_agent` is given only with `escalation: fallback`.",
        why: "Only the `fallback` escalation invokes the fallback agent: with any other escalation (or none, which is `human`) the agent named is never invoked, which usually means the escalation was meant to be `fallback`.",
        fix: "Set `escalation: fallback`, or remove `fallback_agent`.",
        example: ex(
            real!(
                "mission: Implement the feature.\nescalation: human\nfallback_agent: senior-developer\n"
            ),
            real!(
                "mission: Implement the feature.\nescalation: fallback\nfallback_agent: senior-developer\n"
            ),
        ),
    },
];
