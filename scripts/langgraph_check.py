#!/usr/bin/env python3
"""Check `loopconv convert --to langgraph` with the real LangGraph library.

Usage: langgraph_check.py LOOPCONV FILE...

For each loop file that loopconv accepts (an invalid one is reported and skipped):
  * the generated module holds only the top-level statements the generator writes, every
    phase function's docstring is the exact objective, and `LOOP` is the exact IR
    (`ast`, without running the module);
  * the module imports, `build_graph()` compiles, and `get_graph()` has exactly the edges
    loopconv's transitions and gates give (computed here from `loopconv convert --to ir`);
  * every run of `loopconv paths` (the shortest run to each terminal and the covering
    runs), driven with `invoke` and each interrupt resumed with `Command(resume=...)`,
    runs the same phases in the same order and ends with the same status as
    `loopconv walk` with the same script; a run whose script has checkpoint decisions is
    also run without them, which must stop at the same checkpoint (`approval_required`);
    and a run that never chooses a terminal, which runs out of steps the same way.

First, a self-test on the first file: a generated module with an added import, a changed
phase function or a changed entry edge must fail the checks. Prints one line per file and
exits 1 when any check fails.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

from langgraph.types import Command

# The top-level names the generator writes, besides one `phase_*` function per phase.
NAMES = {
    "LOOP", "MAX_STEPS", "GATES", "RECURSION_LIMIT", "TOOL_RETRIES", "TOOL_FAILURE",
    "PHASE_FAILURE", "ATTEMPTS", "OUTCOMES", "Outcome", "RESERVED", "FAILED", "Node",
    "State", "StepLimitReached", "ToolFailure", "PhaseFailure", "scripted", "_escalated",
    "_phase", "_failed", "_gate", "_terminal", "_outcome", "_decision", "build_graph",
    "config", "run",
}
IMPORTS = {
    ("__future__", ("annotations",)),
    ("collections.abc", ("Callable",)),
    ("typing", ("Any", "Protocol", "TypedDict")),
    ("langchain_core.runnables", ("RunnableConfig",)),
    ("langgraph.checkpoint.base", ("BaseCheckpointSaver",)),
    ("langgraph.checkpoint.memory", ("MemorySaver",)),
    ("langgraph.errors", ("NodeError",)),
    ("langgraph.graph", ("END", "START", "StateGraph")),
    ("langgraph.graph.state", ("CompiledStateGraph",)),
    ("langgraph.types", ("Command", "interrupt")),
}


class Failed(Exception):
    pass


def loopconv(bin_: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([bin_, *args], capture_output=True, text=True, check=False)


def check_source(source: str, ir: dict) -> None:
    """Only the generator's statements; each objective and the IR come back exactly."""
    tree = ast.parse(source)
    body = tree.body
    if not (isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)):
        raise Failed("the module does not start with its docstring")
    phases = {p["id"]: p for p in ir["graph"]["phases"]}
    functions = {}
    for node in body[1:]:
        if isinstance(node, ast.ImportFrom):
            key = (node.module, tuple(a.name for a in node.names))
            if key not in IMPORTS:
                raise Failed(f"unexpected import at line {node.lineno}: {ast.unparse(node)}")
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = [t.id for t in targets if isinstance(t, ast.Name)]
            if len(names) != 1 or names[0] not in NAMES:
                raise Failed(f"unexpected assignment at line {node.lineno}")
            if names[0] == "LOOP" and ast.literal_eval(node.value) != ir:
                raise Failed("LOOP is not the loop's IR")
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            if node.name in NAMES:
                continue
            if not (isinstance(node, ast.FunctionDef) and node.name.startswith("phase_")):
                raise Failed(f"unexpected definition `{node.name}` at line {node.lineno}")
            if len(node.body) != 2 or not isinstance(node.body[1], ast.Return):
                raise Failed(f"`{node.name}` is not a docstring and a return")
            functions[node.name] = ast.get_docstring(node, clean=False)
        else:
            raise Failed(f"unexpected statement at line {node.lineno}: {type(node).__name__}")
    objectives = sorted(p["objective"] for p in phases.values())
    if sorted(functions.values()) != objectives or len(functions) != len(phases):
        raise Failed("the phase functions' docstrings are not the objectives")


def expected_edges(ir: dict) -> set[tuple[str, str, str | None]]:
    """(source, target, label) of every edge loopconv's graph has, gates included."""
    g = ir["graph"]
    declared = {p["id"] for p in g["phases"]}
    chains: dict[str, list[str]] = {}
    for c in g.get("checkpoints") or []:
        if c["before_phase"] in declared:
            chains.setdefault(c["before_phase"], []).append("gate." + c["id"])

    def land(to: str) -> str:
        if to.startswith("$"):
            return to  # each terminal is a node of its own, which goes to END
        return (chains.get(to) or [to])[0]

    edges = {("__start__", land(g["entry"]), None)}
    reached = {t["to"] for t in g["transitions"]} | {c["on_reject"] for c in g.get("checkpoints") or []}
    edges |= {(t, "__end__", None) for t in reached if t.startswith("$")}
    for t in g["transitions"]:
        edges.add((t["from"], land(t["to"]), t["on"]))
    for c in g.get("checkpoints") or []:
        chain = chains.get(c["before_phase"], [])
        gate = "gate." + c["id"]
        if gate in chain:
            k = chain.index(gate)
            edges.add((gate, chain[k + 1] if k + 1 < len(chain) else c["before_phase"], "approve"))
            edges.add((gate, land(c["on_reject"]), "reject"))
    return edges


def check_edges(module, ir: dict) -> None:
    """get_graph() has every (source, target) pair, and each pair reached by one outcome
    only is labelled with it (LangGraph draws one edge per pair, and leaves out a label
    that is the target's name)."""
    want = expected_edges(ir)
    got = {(e.source, e.target): e.data for e in module.build_graph().get_graph().edges}
    pairs = {(s, t) for s, t, _ in want}
    if set(got) != pairs:
        raise Failed(f"edges differ: missing {sorted(pairs - set(got))}, extra {sorted(set(got) - pairs)}")
    for s, t in pairs:
        labels = {None if label == t else label for s2, t2, label in want if (s2, t2) == (s, t)}
        if len(labels) == 1 and got[(s, t)] != next(iter(labels)):
            raise Failed(f"edge {s} -> {t} is labelled {got[(s, t)]!r}, not {labels}")


def graph_run(module, outcomes: list[str], decisions: list[list[str]], thread: str, graph=None) -> dict:
    """Run the compiled graph, resuming each interrupt with Command(resume=decision).
    Failures (`@tool-failure`, `@phase-failure`) and the step limit end the run through the
    phase nodes' error handler, never as an exception out of invoke. `graph` is a graph
    `module.build_graph()` compiled before, reused across runs (each run has its own
    thread); without it, one is compiled for this run (after the phase functions were
    replaced, as check_updates does)."""
    graph = graph or module.build_graph()
    cfg = module.config(thread)
    left: dict[str, list[str]] = {}
    for checkpoint, decision in decisions:
        left.setdefault(checkpoint, []).append(decision)
    command = {"script": outcomes, "trace": [], "cursor": 0}
    while True:
        graph.invoke(command, cfg)
        snapshot = graph.get_state(cfg)
        waiting = [i.value["checkpoint"] for t in snapshot.tasks for i in t.interrupts]
        if not waiting:
            return dict(snapshot.values)
        if not left.get(waiting[0]):
            return {**snapshot.values, "status": "approval_required", "checkpoint": waiting[0]}
        command = Command(resume=left[waiting[0]].pop(0))


class Walker:
    """`loopconv walk --format json` for the agreement's random scripts, answered by one
    `loopconv mcp` server for the whole check (the runs of `paths` go through the command
    line): its `walk` tool runs the same walk and answers the same JSON as the command line
    (scripts/mcp_check.py compares them, and so does `agreement` for its first scripts).
    A loop's scripts are sent at once and answered as the server goes, instead of one
    process of the debug binary per script (15 to 30 ms each, 1,000 scripts a loop in
    `.ci/run`). The server reads the files inside the roots this client announces, the
    folders of the files checked. Without a server (no `mcp` feature), the command line
    walks them."""

    def __init__(self, bin_: str, files: list[str]) -> None:
        self.roots = [{"uri": uri} for uri in sorted({Path(f).resolve().parent.as_uri() for f in files})]
        self.next_id = 0
        self.lock = threading.Lock()
        try:
            self.server: subprocess.Popen[str] | None = subprocess.Popen(
                [bin_, "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                text=True, encoding="utf-8",
            )
            init = self.ids(1)
            self.send({"jsonrpc": "2.0", "id": init[0], "method": "initialize", "params": {
                "protocolVersion": "2025-06-18", "capabilities": {"roots": {}},
                "clientInfo": {"name": "langgraph_check", "version": "1"},
            }})
            self.answers(init)
            self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        except (OSError, ValueError, Failed):
            self.close()

    def ids(self, n: int) -> list[int]:
        self.next_id += n
        return list(range(self.next_id - n + 1, self.next_id + 1))

    def send(self, message: dict) -> None:
        with self.lock:
            self.server.stdin.write(json.dumps(message) + "\n")
            self.server.stdin.flush()

    def answers(self, ids: list[int]) -> list[dict]:
        """The results of the requests `ids`, in that order; the server's own requests
        (its roots) are answered on the way."""
        results: dict[int, dict] = {}
        while len(results) < len(ids):
            line = self.server.stdout.readline()
            if not line:
                raise Failed("loopconv mcp ended")
            m = json.loads(line)
            if "method" in m and "id" in m:
                self.send({"jsonrpc": "2.0", "id": m["id"], "result": {"roots": self.roots}}
                          if m["method"] == "roots/list" else
                          {"jsonrpc": "2.0", "id": m["id"], "error": {"code": -32601, "message": m["method"]}})
            elif m.get("id") in ids:
                if "error" in m:
                    raise Failed(f"loopconv mcp: {m['error']}")
                results[m["id"]] = m["result"]
        return [results[i] for i in ids]

    def walks(self, file: str, scripts: list[tuple[list[str], list[list[str]]]], max_steps: int) -> list[dict] | None:
        """walk's JSON for each script, or None without a server. The requests are
        written by a thread of their own while the answers are read, so that neither pipe
        fills up."""
        if self.server is None:
            return None
        path = str(Path(file).resolve())
        ids = self.ids(len(scripts))

        def write() -> None:
            for i, (outcomes, decisions) in zip(ids, scripts):
                self.send({"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {"name": "walk", "arguments": {
                    "path": path, "outcomes": outcomes, "runtime_max_steps": max_steps,
                    "decisions": [{"checkpoint": c, "decision": d} for c, d in decisions],
                }}})

        writer = threading.Thread(target=write)
        writer.start()
        try:
            results = self.answers(ids)
        finally:
            writer.join()
        runs = [(r.get("structuredContent") or {}).get("run") for r in results]
        for run, result, script in zip(runs, results, scripts):
            if run is None:
                raise Failed(f"loopconv mcp walk {file} {script}: {result}")
        return runs

    def close(self) -> None:
        server, self.server = getattr(self, "server", None), None
        if server is not None:
            server.stdin.close()
            server.wait()


WALKER: Walker | None = None


def walk(bin_: str, file: str, outcomes: list[str], decisions: list[list[str]], max_steps: int) -> dict:
    """`loopconv walk` under a runtime ceiling of the module's MAX_STEPS: the loop's own
    `max_steps` whatever its size (above walk's default ceiling of 100 too)."""
    args = ["walk", file, "--format", "json", "--runtime-max-steps", str(max_steps)]
    if outcomes:
        args += ["--outcomes", ",".join(outcomes)]
    for checkpoint, decision in decisions:
        args += [f"--{decision}", checkpoint]
    p = loopconv(bin_, *args)
    if not p.stdout.strip():
        raise Failed(f"loopconv walk {args} printed nothing: {p.stderr}")
    return json.loads(p.stdout)


def endless_run(ir: dict, limit: int) -> tuple[list[str], list[list[str]]] | None:
    """A run that never chooses a terminal, every gate approved, one phase longer than the
    step limit (walk: `limit_reached`, the graph: StepLimitReached); `None` when some phase
    on the way has no transition to a phase."""
    g = ir["graph"]
    gates: dict[str, list[str]] = {}
    for c in g.get("checkpoints") or []:
        gates.setdefault(c["before_phase"], []).append(c["id"])
    outcomes, decisions, at = [], [], g["entry"]
    for _ in range(limit + 1):
        decisions += [[c, "approve"] for c in gates.get(at, [])]
        t = next((t for t in g["transitions"] if t["from"] == at and not t["to"].startswith("$")), None)
        if t is None:
            return None
        outcomes.append(t["on"])
        at = t["to"]
    return outcomes, decisions


def walk_phases(steps: list[dict]) -> list[str]:
    """The phases walk ran: one per outcome, and the failed phase when a failure ended the
    run (the graph's trace holds a failed phase too)."""
    phases = [s["phase"] for s in steps if "outcome" in s]
    if steps and "failure" in steps[-1]:
        phases.append(steps[-1]["phase"])
    return phases


def whole_cover(paths: dict) -> list[dict]:
    """The covering runs in full (docs/src/authoring.md, "Shared steps"): a run's
    `shared_prefix` {run, steps} stands for the first `steps` steps of run `run` (from 1),
    its `shared_suffix` for that run's last `steps` steps; outcomes and decisions follow."""
    whole: list[list[dict]] = []
    runs = []
    for r in paths["cover"]:
        steps = []
        if "shared_prefix" in r:
            steps += whole[r["shared_prefix"]["run"] - 1][: r["shared_prefix"]["steps"]]
        steps += r["steps"]
        if "shared_suffix" in r:
            earlier = whole[r["shared_suffix"]["run"] - 1]
            steps += earlier[len(earlier) - r["shared_suffix"]["steps"] :]
        whole.append(steps)
        outcomes = [s["outcome"] for s in steps if "outcome" in s]
        decisions = [[s["checkpoint"], s["decision"]] for s in steps if "checkpoint" in s]
        runs.append({**r, "steps": steps, "outcomes": outcomes, "decisions": decisions})
    return runs


def check_runs(bin_: str, file: str, module, ir: dict) -> int:
    """Every run of `loopconv paths`, through walk and through the graph; the count."""
    p = loopconv(bin_, "paths", file, "--format", "json", "--runtime-max-steps", str(module.MAX_STEPS))
    paths = json.loads(p.stdout)
    runs = [(r["outcomes"], r["decisions"]) for r in paths["shortest"] + whole_cover(paths)]
    runs += [(o, []) for o, d in list(runs) if d]
    runs += [(r["outcomes"], r["decisions"]) for r in paths.get("failures", [])]
    endless = endless_run(ir, module.MAX_STEPS)
    if endless is not None:
        runs.append(endless)
    checked = 0
    for n, (outcomes, decisions) in enumerate(runs):
        want = walk(bin_, file, outcomes, decisions, module.MAX_STEPS)
        if "status" not in want and (outcomes, decisions) == endless:
            # The run ended before the step limit (REAL/VEAL: the last attempt escalates),
            # and walk calls the outcomes left over a script mistake.
            continue
        checked += 1
        got = graph_run(module, list(outcomes), decisions, f"run-{n}")
        phases = walk_phases(want["steps"])
        if got.get("trace", []) != phases or got.get("status") != want["status"]:
            raise Failed(
                f"run {outcomes} {decisions}: walk ran {phases} ({want['status']}), "
                f"the graph {got.get('trace')} ({got.get('status')})"
            )
        if want.get("checkpoint") != got.get("checkpoint"):
            raise Failed(f"run {outcomes}: walk waits at {want.get('checkpoint')}, the graph at {got.get('checkpoint')}")
    return checked


def load_module(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # as an import does: the State's annotations are read there
    spec.loader.exec_module(module)
    return module


def check_file(bin_: str, file: str, out: Path, k: int) -> str:
    ir_run = loopconv(bin_, "convert", file, "--to", "ir")
    if ir_run.returncode != 0:
        return "skipped (loopconv does not accept it)"
    ir = json.loads(ir_run.stdout)
    path = out / f"loop_{k}.py"
    conv = loopconv(bin_, "convert", file, "--to", "langgraph", "-o", str(path))
    if conv.returncode != 0:
        raise Failed(f"convert --to langgraph failed: {conv.stderr}")
    check_source(path.read_text(encoding="utf-8"), ir)
    module = load_module(path, f"loop_{k}")
    check_edges(module, ir)
    n = check_runs(bin_, file, module, ir)
    check_updates(bin_, file, module)
    agreed = agreement(bin_, file, module, ir, out, k)
    return f"ok ({len(ir['graph']['phases'])} phases, {n} runs, {agreed})"


# Random scripts per loop (`LOOPCONV_RANDOM_SCRIPTS`, default 60; `.ci/run` sets 1,000;
# the seed is fixed, so a run is reproducible, and the first 60 of 1,000 are the 60): each
# is run by `loopconv walk`, by the LangGraph program and, when node has xstate
# (tools/node_modules), by a live XState actor of `convert --to xstate`, and the three must
# end with the same status.
RANDOM = int(os.environ.get("LOOPCONV_RANDOM_SCRIPTS") or 60)
SEED = 48


def random_script(ir: dict, rng: random.Random, limit: int) -> tuple[list[str], list[list[str]]]:
    """A script that follows the loop: at each phase an outcome that has a transition, now
    and then a tool failure (retried while the policy allows; in a phase that calls tools)
    or a phase failure; at each
    gate an approval or a rejection; REAL/VEAL attempts counted, so the failing verdict at
    the last attempt escalates as walk does; at most `limit` + 1 phases (the last one
    finds no step left). Now and then the last decision is left out (`approval_required`)."""
    g = ir["graph"]
    gates: dict[str, list[dict]] = {}
    for c in g.get("checkpoints") or []:
        gates.setdefault(c["before_phase"], []).append(c)
    edges: dict[str, dict[str, str]] = {}
    for t in g["transitions"]:
        edges.setdefault(t["from"], {}).setdefault(t["on"], t["to"])
    policy = (ir.get("bounds") or {}).get("error_policy") or {}
    tool = policy.get("tool_failure") or {}
    retries = tool.get("max_retries", 0) if tool.get("action") == "retry" else 0
    fixed = ir.get("pattern") in ("real", "veal")
    attempts_max = (ir.get("bounds") or {}).get("max_attempts") or 3
    outcomes: list[str] = []
    decisions: list[list[str]] = []
    at, steps, attempts = g["entry"], 0, 0
    while not at.startswith("$"):
        rejected = None
        for c in gates.get(at, []):
            d = rng.choice(["approve", "approve", "reject"])
            decisions.append([c["id"], d])
            if d == "reject":
                rejected = c["on_reject"]
                break
        if rejected is not None:
            at = rejected
            continue
        if steps >= limit:
            break
        steps += 1
        roll = rng.random()
        if roll < 0.06:
            outcomes.append("@phase-failure")
            break
        # A phase whose access says `tools: false` calls no tool (walk refuses the failure).
        phase = next((p for p in g["phases"] if p["id"] == at), {})
        calls_tools = (phase.get("access") or {}).get("tools") is not False
        if roll < 0.14 and calls_tools:
            n = rng.randint(1, retries + 1)
            outcomes += ["@tool-failure"] * n
            if n > retries:
                break
        choices = [o for o in edges.get(at, {}) if not (fixed and at == "eval" and o == "escalate")]
        if not choices:
            break
        o = rng.choice(choices)
        if fixed and at == "eval":
            attempts += 1
            failing = o in ("no-go", "act")
            if failing and attempts >= attempts_max:
                outcomes.append(o)
                at = edges[at]["escalate"]
                continue
        outcomes.append(o)
        at = edges[at][o]
    if decisions and rng.random() < 0.1:
        decisions.pop()
    return outcomes, decisions


def agreement(bin_: str, file: str, module, ir: dict, out: Path, k: int) -> str:
    """`RANDOM` scripts drawn; a script drawn again (a small loop has few) is run once:
    the same script in walk, the program and an actor ends the same way again."""
    rng = random.Random(f"{SEED}:{ir['name']}")
    graph = module.build_graph()
    scripts = []
    seen: set[str] = set()
    for _ in range(RANDOM):
        outcomes, decisions = random_script(ir, rng, module.MAX_STEPS)
        key = json.dumps([outcomes, decisions])
        if key not in seen:
            seen.add(key)
            scripts.append((outcomes, decisions))
    wants = (WALKER and WALKER.walks(file, scripts, module.MAX_STEPS)) or \
        [walk(bin_, file, outcomes, decisions, module.MAX_STEPS) for outcomes, decisions in scripts]
    walks = []
    for n, ((outcomes, decisions), want) in enumerate(zip(scripts, wants)):
        # The server's walk is the command line's: the first scripts go through both.
        if n < 5 and want != (cli := walk(bin_, file, outcomes, decisions, module.MAX_STEPS)):
            raise Failed(f"random script {outcomes} {decisions}: loopconv mcp's walk {want}, the command line's {cli}")
        if "status" not in want:
            raise Failed(f"random script {outcomes} {decisions} does not fit the loop: {want}")
        got = graph_run(module, list(outcomes), decisions, f"random-{n}", graph)
        if got.get("status") != want["status"] or got.get("trace", []) != walk_phases(want["steps"]):
            raise Failed(f"random script {outcomes} {decisions}: walk {want['status']} {walk_phases(want['steps'])}, "
                         f"LangGraph {got.get('status')} {got.get('trace')}")
        walks.append({"outcomes": outcomes, "decisions": decisions, "walk": want})
    statuses = sorted({w["walk"]["status"] for w in walks})
    xstate = xstate_agrees(bin_, file, walks, out, k, module.MAX_STEPS)
    return (f"{RANDOM} random scripts agree in walk, LangGraph{xstate} "
            f"({len(walks)} distinct; {', '.join(statuses)})")


def xstate_agrees(bin_: str, file: str, walks: list[dict], out: Path, k: int, max_steps: int) -> str:
    """The same scripts sent to a live XState actor (scripts/xstate_check.mjs); "" when
    node has no xstate, which the Rust test then notices (it asks for XState)."""
    tools = Path(__file__).resolve().parent.parent / "tools" / "node_modules" / "xstate"
    if not tools.exists():
        return ""
    files = {}
    for name, args in [("machine", ["convert", file, "--to", "xstate"]), ("ir", ["convert", file, "--to", "ir"]),
                       ("paths", ["paths", file, "--format", "json", "--runtime-max-steps", str(max_steps)])]:
        p = loopconv(bin_, *args)
        files[name] = out / f"x{k}.{name}.json"
        files[name].write_text(p.stdout, encoding="utf-8")
    files["walks"] = out / f"x{k}.walks.json"
    files["walks"].write_text(json.dumps(walks), encoding="utf-8")
    script = Path(__file__).resolve().parent / "xstate_check.mjs"
    args = [a for name, f in files.items() for a in (f"--{name}", str(f))]
    p = subprocess.run(["node", str(script), *args], capture_output=True, text=True, check=False)
    if p.returncode != 0:
        raise Failed(f"XState: {p.stderr.strip()}")
    escalation = [line[3:] for line in p.stdout.splitlines() if line.startswith("ok escalation")]
    return " and XState" + "".join(f"; {e}" for e in escalation)


def check_updates(bin_: str, file: str, module) -> None:
    """A phase function may return a state update beside its outcome: each phase, wrapped
    to count its runs in `memory`, runs the first shortest run as before, and the count
    is the trace's length; an update of a key the graph writes is refused."""
    paths = json.loads(loopconv(bin_, "paths", file, "--format", "json").stdout)
    if not paths["shortest"]:
        return
    run = paths["shortest"][0]
    names = [n for n in dir(module) if n.startswith("phase_")]
    saved = {n: getattr(module, n) for n in names}

    def counting(f):
        def phase(state):
            memory = state.get("memory") or {}
            return f(state), {"memory": {"runs": memory.get("runs", 0) + 1}}
        return phase

    try:
        for n in names:
            setattr(module, n, counting(saved[n]))
        got = graph_run(module, list(run["outcomes"]), run["decisions"], "updates")
        runs = (got.get("memory") or {}).get("runs", 0)
        if runs != len(got.get("trace", [])) or got.get("status") != run["status"]:
            raise Failed(f"a phase's state update was lost: memory {got.get('memory')}, trace {got.get('trace')}")
        for n in names:
            setattr(module, n, lambda state, f=saved[n]: (f(state), {"status": "ended"}))
        try:
            graph_run(module, list(run["outcomes"]), run["decisions"], "reserved")
        except ValueError:
            pass
        else:
            raise Failed("a phase function's update of `status` was taken")
    finally:
        for n in names:
            setattr(module, n, saved[n])


def lint(out: Path) -> str:
    """Every generated module passes `ruff check` (its defaults, no configuration read)
    and `mypy --strict`."""
    modules = sorted(str(p) for p in out.glob("loop_*.py"))
    ruff = subprocess.run(["ruff", "check", "--isolated", "--no-cache", "--output-format", "concise", *modules],
                          capture_output=True, text=True, check=False)
    if ruff.returncode != 0:
        raise Failed(f"ruff check: {ruff.stdout}{ruff.stderr}")
    mypy = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", *modules],
                          capture_output=True, text=True, check=False)
    if mypy.returncode != 0:
        raise Failed(f"mypy --strict: {mypy.stdout}{mypy.stderr}")
    return f"ruff and mypy --strict ok ({len(modules)} modules)"


def must_fail(what: str, check) -> None:
    try:
        check()
    except Failed:
        return
    raise Failed(f"self-test: the check missed {what}")


def self_test(bin_: str, file: str, out: Path) -> str:
    """The checks can fail: an added import, a changed phase function and a changed entry
    edge in a generated module are each caught."""
    ir = json.loads(loopconv(bin_, "convert", file, "--to", "ir").stdout)
    path = out / "tampered.py"
    loopconv(bin_, "convert", file, "--to", "langgraph", "-o", str(path))
    source = path.read_text(encoding="utf-8")
    must_fail("an added import", lambda: check_source(source + "\nimport os\n", ir))
    changed = source.replace("    return scripted(state)", "    x = 1\n    return scripted(state)", 1)
    must_fail("a changed phase function", lambda: check_source(changed, ir))
    path.write_text(source.replace("graph.add_edge(START, ", "graph.add_edge(START, END)  # ", 1), encoding="utf-8")
    must_fail("a changed entry edge", lambda: check_edges(load_module(path, "tampered"), ir))
    return "self-test ok"


def main(argv: list[str]) -> int:
    global WALKER
    bin_, files = argv[1], argv[2:]
    WALKER = Walker(bin_, files)
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        try:
            print(f"{files[0]}: {self_test(bin_, files[0], Path(tmp))}")
        except Failed as e:
            failed += 1
            print(f"{files[0]}: FAILED: {e}")
        for k, file in enumerate(files):
            try:
                print(f"{file}: {check_file(bin_, file, Path(tmp), k)}")
            except Failed as e:
                failed += 1
                print(f"{file}: FAILED: {e}")
        try:
            print(f"lint: {lint(Path(tmp))}")
        except Failed as e:
            failed += 1
            print(f"lint: FAILED: {e}")
    WALKER.close()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
