

class State(TypedDict, total=False):
    """The run's state: the script, the phases run and how the run ended.

    Add keys of your own here; a phase function writes them by returning
    `(outcome, {key: value})`.
    """

    script: list[str]  # the outcomes and failures the default phase functions return, in order
    cursor: int  # how much of the script the phase functions have taken
    trace: list[str]  # the phases run so far, in order (one step each, a failed one too)
    outcome: str  # the outcome of the phase that ran last
    decision: str  # the decision of the checkpoint passed last: "approve" or "reject"
    failure: str  # how the run failed, when a failure ended it: "tool_failure", "phase_failure"
    status: str  # how the run ended: "ended", "aborted", "handed_off", "failed", "limit_reached"
    memory: dict[str, Any]  # free for the phase functions: return (outcome, {"memory": ...})


# What a phase function returns: an outcome, or an outcome and a state update.
Outcome = str | tuple[str, dict[str, Any]]
# The keys the graph itself writes: a phase function's update cannot set them.
RESERVED = frozenset({"script", "cursor", "trace", "outcome", "decision", "failure", "status"})


class Node(Protocol):
    """A node of the graph: a state in, a state update out."""

    def __call__(self, state: State) -> dict[str, Any]: ...


class StepLimitReached(Exception):
    """The run has used its MAX_STEPS phase executions (loopconv walk: `limit_reached`)."""


class ToolFailure(Exception):
    """Raise it in a phase function when a tool call fails: error_policy.tool_failure decides."""


class PhaseFailure(Exception):
    """Raise it in a phase function when the phase fails: error_policy.phase_failure decides."""


def scripted(state: State) -> str:
    """The script's next token: an outcome, or a failure (`@tool-failure`, `@phase-failure`)."""
    script = state.get("script", [])
    k = state.get("cursor", 0)
    if k >= len(script):
        raise LookupError(f"the script has no outcome for phase execution {len(state.get('trace', [])) + 1}")
    token = script[k]
    if token == "@tool-failure":
        raise ToolFailure(f"scripted tool failure (script token {k + 1})")
    if token == "@phase-failure":
        raise PhaseFailure(f"scripted phase failure (script token {k + 1})")
    return token


def _escalated(phase: str, outcome: str, trace: list[str]) -> str:
    """REAL/VEAL: the failing verdict of the last of `max_attempts` evaluations escalates."""
    if ATTEMPTS is None or phase != ATTEMPTS["phase"]:
        return outcome
    attempt = trace.count(phase) + 1
    failing = outcome in (ATTEMPTS["retry"], ATTEMPTS["escalate"])
    if failing and attempt >= ATTEMPTS["max_attempts"]:
        return str(ATTEMPTS["escalate"])
    if outcome == ATTEMPTS["escalate"]:
        raise ValueError(f"`escalate` before the last attempt (attempt {attempt})")
    return outcome


def _phase(phase: str, run: Callable[[State], Outcome]) -> Node:
    """The node of a phase: one step; `run` (the phase function) chooses the outcome.

    A ToolFailure runs the phase function again while TOOL_RETRIES last (consecutive
    failures in one execution are retries of the same call); the last one, and a
    PhaseFailure, go to the node's error handler (`_failed`).
    """

    def node(state: State) -> dict[str, Any]:
        trace = state.get("trace", [])
        if len(trace) >= MAX_STEPS:
            raise StepLimitReached(f"no step left for phase `{phase}` (MAX_STEPS is {MAX_STEPS})")
        cursor = state.get("cursor", 0)
        retries = 0
        while True:
            try:
                result = run({**state, "cursor": cursor})
            except ToolFailure:
                cursor += 1
                retries += 1
                if retries <= TOOL_RETRIES:
                    continue
                raise
            cursor += 1
            break
        outcome, extra = (result, {}) if isinstance(result, str) else result
        if RESERVED & extra.keys():
            raise ValueError(f"phase `{phase}` cannot set {sorted(RESERVED & extra.keys())}")
        outcome = _escalated(phase, outcome, trace)
        if outcome not in OUTCOMES[phase]:
            raise ValueError(f"`{outcome}` is not an outcome of phase `{phase}`")
        return {**extra, "trace": [*trace, phase], "cursor": cursor, "outcome": outcome}

    return node


def _failed(state: State, error: NodeError) -> Command[str]:
    """The error handler of every phase node: the loop's error_policy, as `loopconv walk`.

    StepLimitReached ends the run `limit_reached`; a ToolFailure takes TOOL_FAILURE's
    action; a PhaseFailure (and a ToolFailure that fails the phase) takes PHASE_FAILURE's.
    Any other exception is not the loop's to handle and ends the invoke.
    """
    exc = error.error
    if isinstance(exc, StepLimitReached):
        return Command(update={"status": "limit_reached"}, goto=END)
    if isinstance(exc, ToolFailure):
        failure, action = "tool_failure", TOOL_FAILURE
    elif isinstance(exc, PhaseFailure):
        failure, action = "phase_failure", "fail_phase"
    else:
        raise exc
    if action == "fail_phase":
        action = PHASE_FAILURE
    status = {"abort": "aborted", "handoff": "handed_off", "fail_run": "failed"}[action]
    trace = [*state.get("trace", []), error.node]
    return Command(update={"trace": trace, "failure": failure, "status": status}, goto=END)


# LangGraph gives an error handler its NodeError through a parameter `error: NodeError`,
# which the type stubs of `add_node` do not list: the handler is passed as Any.
FAILED: Any = _failed


def _gate(checkpoint: str, phase: str) -> Node:
    """The node of an approval checkpoint: pause the run until a person decides.

    Resume with `Command(resume="approve")` (go on towards the phase) or
    `Command(resume="reject")` (go where the checkpoint's `on_reject` says).
    """

    def node(state: State) -> dict[str, Any]:
        decision = interrupt({"checkpoint": checkpoint, "before_phase": phase})
        if decision not in ("approve", "reject"):
            raise ValueError(f"checkpoint `{checkpoint}` takes \"approve\" or \"reject\", not {decision!r}")
        return {"decision": decision}

    return node


def _terminal(status: str) -> Node:
    """The node of a terminal (`$end`, `$abort`, `$handoff`): the run's status."""

    def node(state: State) -> dict[str, Any]:
        return {"status": status}

    return node


def _outcome(state: State) -> str:
    return state["outcome"]


def _decision(state: State) -> str:
    return state["decision"]
