//! The long forms of the `W` codes: the documents that use loops (multi-agent-spec teams
//! and agent specs, AgentPM Agents, Templates and locks) checked against the loops of their
//! project (formats.md 3). Their inputs are several files, so their examples are the
//! workspaces under `examples/workspaces/` (`loopconv check FOLDER`), not one file.

use super::{Code, CodeDoc};

/// One entry per code of the family, in the order of [`Code::ALL`].
pub(super) const DOCS: &[CodeDoc] = &[
    CodeDoc {
        code: Code::UnknownStepLoop,
        checks: "Every `loop` of a team workflow step names a loop of the project: the `name` of a loop file in the workspace (`specs/loops/`), not its file name.",
        why: "Nothing upstream resolves `step.loop`: a misspelt or renamed loop is found only when the workflow runs and reaches that step.",
        fix: "Name an existing loop (the message offers the closest name), or add the loop to `specs/loops/`.",
        example: None,
    },
    CodeDoc {
        code: Code::StepAgentAndLoop,
        checks: "Each workflow step has exactly one of `agent` and `loop` (the team schema calls them mutually exclusive).",
        why: "A step with both runs one of them depending on the runtime; a step with neither does nothing.",
        fix: "Keep the one the step is meant to run: an agent for one turn of work, a loop for a bounded validate-and-fix cycle.",
        example: None,
    },
    CodeDoc {
        code: Code::UnknownStepDependency,
        checks: "Every name in a step's `depends_on` is the `name` of a step of the same workflow.",
        why: "A dependency on a step that does not exist can never be met: the step would never run.",
        fix: "Name an existing step (the message offers the closest name), or remove the dependency.",
        example: None,
    },
    CodeDoc {
        code: Code::StepDependencyCycle,
        checks: "The steps' `depends_on` form no cycle.",
        why: "Steps that wait for each other never start.",
        fix: "Remove one dependency of the cycle the message lists.",
        example: None,
    },
    CodeDoc {
        code: Code::UnknownTeamAgent,
        checks: "When the project holds agent specs, every roster agent, the orchestrator and every agent step names one of them (by the front matter's `name`, qualified by its folder when it has one), as upstream's `ValidateAgentReferences` does.",
        why: "A team that names an agent without a spec cannot be loaded by the multi-agent-spec SDK.",
        fix: "Add the agent spec under `specs/agents/`, or correct the name (the message offers the closest one).",
        example: None,
    },
    CodeDoc {
        code: Code::LoopAgentWithoutSpec,
        checks: "When the project holds agent specs, a loop's `actor`, `validator` and `fallback_agent` each name one of them.",
        why: "The loop runs these agents; without a spec the team cannot start them. A warning, since the agent may be defined elsewhere.",
        fix: "Add the agent's spec under `specs/agents/`, or correct the name.",
        example: None,
    },
    CodeDoc {
        code: Code::DuplicateLoopName,
        checks: "No two loops of a multi-agent-spec project share a `name`.",
        why: "A step names a loop by its `name`; upstream's loader silently keeps the last of two, so which one runs depends on file order.",
        fix: "Rename one of the loops (and the steps that mean it), or remove the copy.",
        example: None,
    },
    CodeDoc {
        code: Code::TeamPrerequisite,
        checks: "A self-directed workflow has what its type needs (`Team.Validate`): `crew` a `collaboration.lead` or an `orchestrator`, `swarm` a `collaboration.task_queue` or `self_claim`, `council` a `collaboration.consensus`.",
        why: "Without it the runtime has nobody to lead, nothing to claim work from, or no rule to agree by.",
        fix: "Add the field the message names.",
        example: None,
    },
    CodeDoc {
        code: Code::TeamPortShape,
        checks: "A step's `inputs` and `outputs` are arrays of Port objects (`{name, type, from?, ...}`), as the team schema's Port definition requires.",
        why: "The upstream example team writes `outputs` as strings and `inputs` as a map; loopconv reads them, but the published schema and the Go SDK's typed ports do not.",
        fix: "Write each port as an object: `{\"name\": \"report\", \"type\": \"string\"}`, and an input's source as `\"from\": \"step.output\"`.",
        example: None,
    },
    CodeDoc {
        code: Code::DuplicateStepName,
        checks: "No two steps of one workflow share a `name`.",
        why: "`depends_on` and an input's `from` name steps: with two of one name they are ambiguous.",
        fix: "Give each step its own name.",
        example: None,
    },
    CodeDoc {
        code: Code::AgentSpecFrontMatter,
        checks: "An agent spec (Markdown under `agents/`) starts with a `---` YAML front matter holding a non-empty `name`.",
        why: "The name in the front matter is the agent's identity: teams and loops refer to it, and the SDK loads nothing without it.",
        fix: "Start the file with `---`, a line `name: <agent>`, and `---`.",
        example: None,
    },
    CodeDoc {
        code: Code::UnresolvedLoop,
        checks: "An Agent's top-level `loop` (or a Template's `template.dependencies.loop`) resolves: through `agent.lock`'s root `loop`, then the installed package `.agentpm/loops/<owner>/<name>/<version>/agent.json`, then a local source `loops/<name>/agent.json`.",
        why: "The AgentPM harness refuses to start such an Agent (`missing_loop_package`); its lint does not look.",
        fix: "Run `agentpm install`, or correct the reference (the message offers the closest loop name).",
        example: None,
    },
    CodeDoc {
        code: Code::ResolvedNotALoop,
        checks: "The package an Agent's `loop` resolves to is a loop manifest (`kind: \"loop\"`).",
        why: "The harness runs the phases of the resolved loop; any other package has none.",
        fix: "Point `loop` at a loop package.",
        example: None,
    },
    CodeDoc {
        code: Code::LockedVersionNotAdmitted,
        checks: "The version `agent.lock` pins for the Agent's loop is one its reference admits (an exact version, `X.Y`, `^`, `~` or `*`).",
        why: "A stale lock runs another loop than the manifest asks for.",
        fix: "Run `agentpm install` again to refresh the lock, or change the reference.",
        example: None,
    },
    CodeDoc {
        code: Code::BindingsWithoutLoop,
        checks: "An Agent with `bindings.phases` has a top-level `loop`.",
        why: "Phase bindings bind packages to phases of the Agent's loop; without a loop they bind to nothing (the AgentPM spec requires `loop`).",
        fix: "Add the `loop` the bindings are for, or remove `bindings.phases`.",
        example: None,
    },
    CodeDoc {
        code: Code::UnknownPhaseBinding,
        checks: "Every key of `bindings.phases` is a phase id of the resolved loop.",
        why: "The harness ignores a binding for a phase the loop lacks (`unknown_phase_binding`), so the packages it binds are never available where they were meant.",
        fix: "Bind an existing phase (the message offers the closest id), or update the loop.",
        example: None,
    },
    CodeDoc {
        code: Code::RangeOutsideSchema,
        checks: "A loop reference's version is an exact version; a range (`^0.2`, `~1.2`, `1.x`, `*`) is read, but AgentPM's manifest schema rejects it.",
        why: "`agentpm install` writes caret ranges, so real manifests hold them, yet a schema-validating tool refuses the file.",
        fix: "Pin the exact version, as `agentpm new` does.",
        example: None,
    },
    CodeDoc {
        code: Code::UnusableLock,
        checks: "`agent.lock` is a JSON object with `lockfile_version: 3`, `packages` and `roots`.",
        why: "AgentPM refuses an older lock that holds a loop dependency (\"regenerate agent.lock v3\"), and a lock that does not parse pins nothing.",
        fix: "Regenerate it with `agentpm install`.",
        example: None,
    },
    CodeDoc {
        code: Code::LoopSource,
        checks: "Says where an Agent's loop was found: pinned by `agent.lock` and installed, installed without a lock, or a local source that is not installed yet.",
        why: "A loop found in a local source runs only after `agentpm install`; the note shows which file the checks used.",
        fix: "Nothing to fix: a note.",
        example: None,
    },
];
