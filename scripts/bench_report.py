"""The table of scripts/bench.sh: target/bench/results.md, from the hyperfine JSON files,
the peak memory files and divan's output of benches/lsp.rs in OUT.

Usage: python3 scripts/bench_report.py OUT WORKLOAD

A row is left out (and named on stderr) when its measurement is missing; a missed goal
is reported in the `met` column, never an error. `met` compares the ratios of the means
and of the medians of wall-clock time with the goal; the ratio of CPU time (user and
system, the means) is beside them, steadier on a busy machine (but a folder command runs
on every core, so its CPU time is more than its wall-clock time), and the system time of
each side (the means), which a writer to the file system pays in the kernel.

The seeded rows (OUT/seeds: the seeds of the random loops) are each the worst of the
seeds: the seed whose ratio of means is the largest, named in the row.
"""

import json
import os
import re
import sys

OUT, W = sys.argv[1], sys.argv[2]
S = os.path.join(W, "shapes")
rows = []
missing = []


def results(name):
    """(mean, median, mean CPU time, mean system time) of each command of one hyperfine
    run, in order."""
    path = os.path.join(OUT, name + ".json")
    if not os.path.exists(path):
        return []
    return [(r["mean"], r["median"], r["user"] + r["system"], r["system"])
            for r in json.load(open(path))["results"]]


try:
    SEEDS = open(os.path.join(OUT, "seeds")).read().split()
except OSError:
    SEEDS = []
try:
    PHASES = f'{int(open(os.path.join(OUT, "phases")).read()):,}'
except (OSError, ValueError):
    PHASES = "10,000"
SEEDS_NOTE = f"worst of {len(SEEDS)} seed{'s' if len(SEEDS) != 1 else ''}"


def met(ratio_mean, ratio_median, goal):
    """`yes`, `median` (only the median is within the goal) or `no`; empty without goal."""
    m = re.match(r"<= ([\d.]+)", goal)
    if not m:
        return ""
    bound = float(m.group(1))
    if ratio_mean <= bound and ratio_median <= bound:
        return "yes"
    return "median" if ratio_median <= bound else "**no**"


def fmt(r):
    """A ratio: two decimals, three significant digits below 0.1."""
    return f"{r:.2f}" if r >= 0.1 else f"{r:.3g}"


def secs(t):
    return f"{t * 1000:.1f} ms" if t < 0.01 else f"{t:.3f} s"


def measure(name, num, den):
    """Command `num` against command `den` of the hyperfine run `name`: (ratio of means,
    ratio of medians, the row's cells but the label and goal), or a reason it is missing."""
    r = results(name)
    if len(r) <= max(num, den):
        return "not measured"
    (a, am, acpu, asys), (b, bm, bcpu, bsys) = r[num], r[den]
    if b <= 0 or bm <= 0:
        return "the reference took 0 s"
    rm, rmed = a / b, am / bm
    cpu = fmt(acpu / bcpu) if bcpu > 0 else ""
    system = f"{secs(asys)} / {secs(bsys)}"
    return rm, rmed, (secs(a), secs(b), fmt(rm), fmt(rmed), cpu, system)


def ratio(label, name, num, den, goal=""):
    """A row: command `num` against command `den` of the hyperfine run `name`."""
    m = measure(name, num, den)
    if isinstance(m, str):
        missing.append(label if m == "not measured" else f"{label} ({m})")
        return
    rm, rmed, cells = m
    rows.append((label, *cells, goal, met(rm, rmed, goal)))


def worst(label, name, num, den, goal=""):
    """A seeded row: `ratio` of the hyperfine runs `seed-S-NAME`, the worst of the seeds."""
    found = []
    for seed in SEEDS:
        m = measure(f"seed-{seed}-{name}", num, den)
        if isinstance(m, str):
            missing.append(f"{label}, seed {seed}")
        else:
            found.append((m[0], seed, m))
    if not found:
        return
    _, seed, (rm, rmed, cells) = max(found)
    rows.append((f"{label} ({SEEDS_NOTE}: {seed})", *cells, goal, met(rm, rmed, goal)))


def peak_mb(name):
    path = os.path.join(OUT, "peak-" + name)
    try:
        return int(open(path).read().strip()) / 1024
    except (OSError, ValueError):
        return None


def size_mb(path):
    return os.path.getsize(path) / 2**20


def memory(label, name, *paths, goal="<= 10"):
    """A row: peak memory of `name` against the size of its input `paths`."""
    mb = peak_mb(name)
    if mb is None:
        missing.append(label)
        return
    size = sum(size_mb(p) for p in paths)
    r = mb / size
    rows.append((label, f"{mb:.0f} MB", f"{size:.1f} MB", f"{r:.1f}", "", "", "", goal, met(r, r, goal)))


L10K = os.path.join(W, "loop-10000.json")
ratio("check 10,000-file corpus / cat", "corpus", 1, 0, "<= 3")
# Issue "Loops among their users": the cross-file rules' cost, and the workspace's memory
# against all its files.
ratio("check of a workspace (1,000 teams, 10,000 loops, 1,000 agents) / its loops alone",
      "workspace", 1, 0, "<= 1.3")
WORKSPACE = os.path.join(W, "workspace", "specs")
memory("peak memory, check of that workspace / its files' size", "workspace",
       *[os.path.join(d, f) for d, _, fs in os.walk(WORKSPACE) for f in fs])
ratio("check 10,000-file corpus, 10 % broken / cat", "broken", 1, 0, "<= 3")
for i, what in [(2, "check"), (3, "graph --mermaid"), (4, "graph --dot")]:
    ratio(f"{what} 10,000 phases / python json.load", "loop10k", i, 0, "<= 0.5")
for what in ["check", "mermaid", "dot"]:
    memory(f"peak memory, {what} 10,000 phases / file size", f"loop-{what}", L10K)

SHAPES = [
    ("warn", "warn-10000.json", "no `$schema` (one F012 warning)"),
    ("errors", "errors-10000.json", "errors in 1 % of the phases (100: V009, V011)"),
    ("short", "short-10000.json", "one-word texts, half without outcomes, minified, keys sorted"),
    ("long", "long-10000.json", "120-200-word objectives, 2 checkpoints a phase, 4 spaces, keys reversed"),
    ("self-loops", "self-loops-10000.json", "every retry a self-loop, tabs"),
    ("xstate", "xstate-10000.json", "XState machine of the 10,000-phase loop (--max-phases 20000)"),
    ("mas-yaml", "mas-10000.yaml", "MAS VEAL loop of 10,000 checks, YAML (reference: json.load of it as JSON)"),
]
for shape, file, what in SHAPES:
    # A MAS loop is not a 10,000-phase loop (the goal) and its reference is JSON's
    # reader on another text: the row is shown without a goal.
    goal = "" if shape == "mas-yaml" else "<= 0.5"
    for i, cmd in [(1, "check"), (2, "graph --mermaid"), (3, "graph --dot")]:
        ratio(f"{cmd}, {what} / json.load", f"shape-{shape}", i, 0, goal)
    path = os.path.join(S, file)
    for cmd in ["check", "mermaid", "dot"]:
        memory(f"peak memory, {cmd}, {shape} / file size", f"{shape}-{cmd}", path)

ratio("warning's cost: check without `$schema` / with", "warning", 1, 0, "<= 1.10")
without, with_ = peak_mb("warn-check"), peak_mb("loop-check")
if without is not None and with_ is not None:
    delta = without - with_
    rows.append(("warning's cost: peak memory without `$schema` - with", f"{without:.1f} MB",
                 f"{with_:.1f} MB", f"{delta:+.1f} MB", "", "", "", "<= +1 MB", "yes" if delta <= 1 else "**no**"))
else:
    missing.append("warning's memory")

# The loops drawn from the seeds (random.rs): each row the worst seed.
for kind, what in [("loop", "random shape"), ("warn", "random shape, no `$schema`")]:
    for i, cmd in [(1, "check"), (2, "graph --mermaid"), (3, "graph --dot")]:
        worst(f"{cmd} {PHASES} phases, {what} / json.load", kind, i, 0, "<= 0.5")
worst(f"diff of two {PHASES}-phase loops, random shape / json.load of one", "diff", 1, 0, "<= 1")

ratio("paths 10,000 phases (default bound) / json.load", "paths", 1, 0, "<= 2")
ratio("paths 10,000 phases, --max-steps-listed 2000000 / json.load", "paths", 2, 0, "<= 2")
memory("peak memory, paths (default bound) / file size", "paths", L10K)
memory("peak memory, paths --max-steps-listed 2000000 / file size", "paths-raised", L10K)
ratio("diff of two 10,000-phase loops / json.load of one", "diff", 1, 0, "<= 1")
memory("peak memory, diff / size of both files", "diff", L10K, os.path.join(W, "loop-10000-changed.json"))
ratio("schema --outcomes 10,000 phases / json.load", "schema-outcomes", 1, 0)
memory("peak memory, schema --outcomes / file size", "schema-outcomes", L10K, goal="")
ratio("walk 10,000 phases to $end / json.load", "walk", 1, 0)
memory("peak memory, walk / file size", "walk", L10K, goal="")
ratio("docs of the 10,000-file corpus / cp -r", "folder", 1, 0, "<= 3")
ratio("convert --to ir of the 10,000-file corpus / cp -r", "folder", 2, 0, "<= 3")

for i, what in [(0, "check"), (3, "graph --mermaid"), (6, "graph --dot")]:
    ratio(f"growth 1,000 -> 10,000 phases, {what}", "growth", i + 1, i, "<= 12")
    ratio(f"growth 10,000 -> 100,000 phases, {what}", "growth", i + 2, i + 1, "<= 12")
# The hostile shapes (issue 45): 9 commands per size, 1 MB then 10 MB; the first of each
# size is `check` of the plain loop (the cheapest bytes: shown, without a goal), the last
# `check` of an ordinary loop (the generator's): the goal's reference.
HOSTILE = ["check, one phase of many outcomes", "graph --mermaid, one key repeated",
           "check, long undeclared ids", "check, many diagnostics on one line",
           "check --format sarif, one key repeated", "diff --format markdown",
           "graph --dot, one phase of many outcomes"]
for base, size in [(0, "1 MB"), (9, "10 MB")]:
    ratio(f"check of an ordinary loop, {size} / check of a plain loop", "hostile", base + 8, base)
for k, what in enumerate(HOSTILE, start=1):
    for base, size in [(0, "1 MB"), (9, "10 MB")]:
        ratio(f"{what}, {size} / check of an ordinary loop", "hostile", base + k, base + 8, "<= 2")
        ratio(f"{what}, {size} / check of a plain loop", "hostile", base + k, base)
    ratio(f"growth 1 MB -> 10 MB, {what}", "hostile", 9 + k, k, "<= 12")
memory("peak memory, check --format sarif of one key repeated (10 MB) / file size",
       "hostile-sarif", os.path.join(W, "hostile", "repeated-keys-10mb.json"))
if os.path.exists(os.path.join(OUT, "packages.json")):
    ratio("check 1,000 packages / AgentPM SDK load_loop", "packages", 1, 0, "<= 0.15")
ratio("graph --mermaid small file / cat", "small", 1, 0, "<= 2.5")
ratio("loopconv --version / cat", "small", 2, 0)
ratio("graph --mermaid small file / cat, built without mcp", "small", 3, 0)
ratio("loopconv --version / cat, built without mcp", "small", 4, 0)
ratio("graph --mermaid small file: default build / without mcp", "small", 1, 3, "<= 1.05")
ratio("loopconv --version: default build / without mcp", "small", 2, 4, "<= 1.05")

UNITS = {"ns": 1e-9, "µs": 1e-6, "us": 1e-6, "ms": 1e-3, "s": 1.0}
TIME = r"([\d.]+) (ns|µs|us|ms|s)\s*│"


def divan(path):
    """{bench name: (median, mean)} of divan's table (leaf names; the first of a name wins)."""
    out = {}
    try:
        lines = open(path, encoding="utf-8").read().splitlines()
    except OSError:
        return out
    pattern = re.compile(r"^[│├╰─ ]*([\w:.-]+)\s+" + TIME + r"\s*" + TIME + r"\s*" + TIME + r"\s*" + TIME)
    for line in lines:
        m = pattern.match(line)
        if m:
            t = [float(m.group(k)) * UNITS[m.group(k + 1)] for k in (2, 4, 6, 8)]
            out.setdefault(m.group(1), (t[2], t[3]))
    return out


lsp = divan(os.path.join(OUT, "lsp.txt"))
base = lsp.get("check_from_scratch")
if base and "analyse" in lsp:
    parts = ["analyse"] + (["diagnostics"] if "diagnostics" in lsp else [])
    med = sum(lsp[p][0] for p in parts)
    mean = sum(lsp[p][1] for p in parts)
    rows.append((f"language server, 10,000 phases: an edit ({' + '.join(parts)}) / check_from_scratch",
                 secs(mean), secs(base[1]), fmt(mean / base[1]), fmt(med / base[0]), "", "", "<= 1.5",
                 met(mean / base[1], med / base[0], "<= 1.5")))
else:
    missing.append("language server edit")
if base and "completion" in lsp:
    med, mean = lsp["completion"]
    rows.append(("language server, 10,000 phases: completion / check_from_scratch", secs(mean), secs(base[1]),
                 fmt(mean / base[1]), fmt(med / base[0]), "", "", "<= 0.5", met(mean / base[1], med / base[0], "<= 0.5")))
else:
    missing.append("language server completion")

def probe_rows(probe_file, check_run, check_index, what, seed_note=""):
    """The rows of one `lsp_probe.py` run against `check` (command `check_index` of the
    hyperfine run `check_run`), and the edit's ratio of means."""
    probe_path = os.path.join(OUT, probe_file)
    check = results(check_run)
    if not (os.path.exists(probe_path) and len(check) > check_index):
        return None
    probe = json.load(open(probe_path))
    mean, med = probe["edit_mean"] - probe["pause"], probe["edit_median"] - probe["pause"]
    cmean, cmed = check[check_index][0], check[check_index][1]
    pause = f"{probe['pause'] * 1000:.0f} ms"
    edit = (f"loopconv lsp, {what}: an edit until its diagnostics, less the {pause} pause"
            f" / check of the file{seed_note}", secs(mean), secs(cmean), fmt(mean / cmean), fmt(med / cmed), "",
            "", "<= 1.5", met(mean / cmean, med / cmed, "<= 1.5"))
    mean, med = probe["completion_mean"], probe["completion_median"]
    completion = (f"loopconv lsp, {what}: completion / check of the file{seed_note}", secs(mean), secs(cmean),
                  fmt(mean / cmean), fmt(med / cmed), "", "", "<= 0.5", met(mean / cmean, med / cmed, "<= 0.5"))
    n = probe["completion_items"]
    items = (f"loopconv lsp, {what}: completion items{seed_note}", str(n), "", "", "", "", "", "<= 200",
             "yes" if n <= 200 else "**no**")
    return (mean / cmean, edit, completion, items)


# The generator's loop: its `check` is command 2 of the row loop10k (command 1 is jq).
fixed = probe_rows("lsp-probe.json", "loop10k", 2, "10,000-phase loop")
if fixed:
    rows.extend(fixed[1:])
else:
    missing.append("loopconv lsp probe")
# Each seed's loop without `$schema`, against `check` of it (row seed-S-warn): the worst
# edit, and the worst completion.
seeded = [(seed, probe_rows(f"seed-{seed}-lsp-probe.json", f"seed-{seed}-warn", 1,
                            f"{PHASES} phases, random shape, no `$schema`", f" ({SEEDS_NOTE}: {seed})"))
          for seed in SEEDS]
seeded = [(seed, r) for seed, r in seeded if r]
if seeded:
    worst_edit = max(seeded, key=lambda sr: sr[1][0])[1]
    worst_completion = max(seeded, key=lambda sr: float(sr[1][2][3]))[1]
    worst_items = max(seeded, key=lambda sr: int(sr[1][3][1]))[1]
    rows.extend([worst_edit[1], worst_completion[2], worst_items[3]])
if len(seeded) < len(SEEDS):
    missing.append("loopconv lsp probe of a seed's loop")

with open(os.path.join(OUT, "results.md"), "w") as f:
    f.write("| workload | loopconv (mean) | reference (mean) | ratio of means | ratio of medians"
            " | ratio of CPU time | system time (loopconv / reference) | goal | met |\n")
    f.write("|---|---|---|---|---|---|---|---|---|\n")
    for row in rows:
        f.write("| " + " | ".join(row) + " |\n")
print(open(os.path.join(OUT, "results.md")).read())
if missing:
    print("bench_report.py: not measured: " + "; ".join(missing), file=sys.stderr)
