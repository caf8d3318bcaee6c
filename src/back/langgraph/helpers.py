

class State(TypedDict, total=False):
    """The run's state: the script, the phases run and how the run ended."""

    script: list[str]  # the outcomes the default phase functions return, in order
    trace: list[str]  # the phases run so far, in order (one step each)
    outcome: str  # the outcome of the phase that ran last
    decision: str  # the decision of the checkpoint passed last: "approve" or "reject"
    status: str  # set when the run reaches a terminal: "ended", "aborted", "handed_off"


class StepLimitReached(Exception):
    """The run has used its MAX_STEPS phase executions (loopconv walk: `limit_reached`)."""


class ToolFailure(Exception):
    """Raise it in a phase function when a tool call fails: RETRY (if any) retries the phase."""


def scripted(state: State) -> str:
    """The script's outcome for this phase execution: one outcome per phase run so far."""
    script = state.get("script", [])
    k = len(state.get("trace", []))
    if k >= len(script):
        raise LookupError(f"the script has no outcome for phase execution {k + 1}")
    return script[k]


def _escalated(phase: str, outcome: str, trace: list[str]) -> str:
    """REAL/VEAL: the failing verdict of the last of `max_attempts` evaluations escalates."""
    if ATTEMPTS is None or phase != ATTEMPTS["phase"]:
        return outcome
    attempt = trace.count(phase) + 1
    failing = outcome in (ATTEMPTS["retry"], ATTEMPTS["escalate"])
    if failing and attempt >= ATTEMPTS["max_attempts"]:
        return ATTEMPTS["escalate"]
    if outcome == ATTEMPTS["escalate"]:
        raise ValueError(f"`escalate` before the last attempt (attempt {attempt})")
    return outcome


def _phase(phase: str, run: Callable[[State], str]) -> Callable[[State], dict[str, Any]]:
    """The node of a phase: one step; `run` (the phase function) chooses the outcome."""

    def node(state: State) -> dict[str, Any]:
        trace = state.get("trace", [])
        if len(trace) >= MAX_STEPS:
            raise StepLimitReached(f"no step left for phase `{phase}` (MAX_STEPS is {MAX_STEPS})")
        outcome = _escalated(phase, run(state), trace)
        if outcome not in OUTCOMES[phase]:
            raise ValueError(f"`{outcome}` is not an outcome of phase `{phase}`")
        update: dict[str, Any] = {"trace": [*trace, phase], "outcome": outcome}
        if (phase, outcome) in ENDS:
            update["status"] = ENDS[(phase, outcome)]
        return update

    return node


def _gate(node_name: str, checkpoint: str, phase: str) -> Callable[[State], dict[str, Any]]:
    """The node of an approval checkpoint: pause the run until a person decides.

    Resume with `Command(resume="approve")` (go on towards the phase) or
    `Command(resume="reject")` (go where the checkpoint's `on_reject` says).
    """

    def node(state: State) -> dict[str, Any]:
        decision = interrupt({"checkpoint": checkpoint, "before_phase": phase})
        if decision not in ("approve", "reject"):
            raise ValueError(f"checkpoint `{checkpoint}` takes \"approve\" or \"reject\", not {decision!r}")
        update: dict[str, Any] = {"decision": decision}
        if (node_name, decision) in ENDS:
            update["status"] = ENDS[(node_name, decision)]
        return update

    return node


def _outcome(state: State) -> str:
    return state["outcome"]


def _decision(state: State) -> str:
    return state["decision"]
