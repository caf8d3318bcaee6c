

def config(thread_id: str = "loopconv") -> RunnableConfig:
    """The run configuration: RECURSION_LIMIT and the checkpointer's thread."""
    return {"recursion_limit": RECURSION_LIMIT, "configurable": {"thread_id": thread_id}}


def run(
    script: list[str],
    decisions: dict[str, list[str]] | None = None,
    thread_id: str = "loopconv",
) -> dict[str, Any]:
    """Run the graph with a script of outcomes, answering each checkpoint's interrupt.

    `script` holds outcomes and failures (`@tool-failure`, `@phase-failure`), as
    `loopconv walk --outcomes` does. `decisions` maps a checkpoint id to its decisions
    ("approve" or "reject"), taken in order. The result is the final state; its `status`
    is "approval_required" (and `checkpoint` names it) when a checkpoint has no decision
    left.
    """
    graph = build_graph()
    cfg = config(thread_id)
    left = {k: list(v) for k, v in (decisions or {}).items()}
    command: Any = {"script": list(script), "trace": [], "cursor": 0}
    while True:
        graph.invoke(command, cfg)
        snapshot = graph.get_state(cfg)
        waiting = [i.value["checkpoint"] for t in snapshot.tasks for i in t.interrupts]
        if not waiting:
            return dict(snapshot.values)
        checkpoint = waiting[0]
        if not left.get(checkpoint):
            return {**snapshot.values, "status": "approval_required", "checkpoint": checkpoint}
        command = Command(resume=left[checkpoint].pop(0))
