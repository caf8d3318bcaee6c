#!/usr/bin/env bash
# Whole-process performance of loopconv against reference tools, side by side in one run
# (hyperfine), on the deterministic workloads of benches/workload (issue "Performance"):
#
#   * `check` over the 10,000-file mixed corpus          vs `cat` of the same files
#   * `check`, `graph --mermaid`, `graph --dot` of the 10,000-phase loop
#                                                         vs Python's `json.load`, `jq empty`
#   * `check` over the same corpus with 10 % broken files  vs `cat` of the same files
#   * growth 1,000 -> 10,000 and 10,000 -> 100,000 phases (ratio of the means; the
#     100,000-phase loop is read with raised limits: --max-input-bytes, --max-values,
#     --max-phases)
#   * `check` of 1,000 AgentPM packages (.agentpm/loops/NAME/VERSION/agent.json)
#                                                         vs the AgentPM Python SDK's
#                                                           `load_loop` over the same, in one process
#   * `graph --mermaid` of one small file                 vs `cat` of it
#   * peak memory (`/usr/bin/time -v`) of `check`, `graph --mermaid` and `graph --dot` on
#     the 10,000-phase loop
#
# Usage: scripts/bench.sh [--install] [--runs N]
#   --install  apt-get install hyperfine jq time; pip install agentpm (once per machine)
# Environment: WORKLOAD=dir (default target/workload), LOOPCONV=binary (default: a release
# build). Results: target/bench/results.md (a Markdown table with the ratios of the means
# and of the medians: an outlier sample, common on a shared virtual machine, moves the
# mean but not the median) and the hyperfine JSON files beside it. Timings are for
# comparison within one run only.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
RUNS=5
while [ $# -gt 0 ]; do
    case "$1" in
        --install)
            export DEBIAN_FRONTEND=noninteractive
            apt-get update && apt-get install -y hyperfine jq time
            python3 -m pip install --quiet agentpm
            shift ;;
        --runs) RUNS="$2"; shift 2 ;;
        *) echo "usage: scripts/bench.sh [--install] [--runs N]" >&2; exit 2 ;;
    esac
done
for tool in hyperfine jq python3 /usr/bin/time; do
    command -v "$tool" >/dev/null || { echo "bench.sh: $tool is missing (run with --install)" >&2; exit 2; }
done

W="${WORKLOAD:-$ROOT/target/workload}"
OUT="$ROOT/target/bench"
mkdir -p "$OUT"
if [ -z "${LOOPCONV:-}" ]; then
    cargo build --release --quiet
    LOOPCONV="$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')/release/loopconv"
fi
if [ ! -f "$W/loop-100000.json" ]; then
    cargo run --release --quiet --example gen-workload -- "$W"
fi

# 1,000 AgentPM packages laid out as AgentPM installs them.
PKG="$W/packages"
if [ ! -d "$PKG/.agentpm/loops" ]; then
    find "$W/corpus" -name agent.json | sort | head -1000 | while read -r f; do
        name=$(basename "$(dirname "$f")")
        mkdir -p "$PKG/.agentpm/loops/$name/1.0.0"
        cp "$f" "$PKG/.agentpm/loops/$name/1.0.0/agent.json"
    done
fi
cat >"$OUT/sdk_load.py" <<'PY'
import os, sys
from agentpm import load_loop
base = os.path.join(sys.argv[1], ".agentpm", "loops")
for name in sorted(os.listdir(base)):
    load_loop(f"{name}@1.0.0", loop_dir_override=base)
PY
SMALL="$ROOT/examples/agentpm/react-loop.json"
L1K="$W/loop-1000.json"
L10K="$W/loop-10000.json"
L100K="$W/loop-100000.json"
BIG="--max-input-bytes 256MiB --max-values 20000000 --max-phases 200000"

bench() { # name, then commands
    local name=$1; shift
    hyperfine --style basic --warmup 1 --runs "$RUNS" --ignore-failure \
        --export-json "$OUT/$name.json" "$@" >"$OUT/$name.txt"
}
bench corpus "find '$W/corpus' -type f -exec cat {} + >/dev/null" "'$LOOPCONV' check '$W/corpus'"
bench broken "find '$W/corpus-broken' -type f -exec cat {} + >/dev/null" "'$LOOPCONV' check '$W/corpus-broken'"
bench loop10k "python3 -c 'import json,sys; json.load(open(sys.argv[1]))' '$L10K'" \
    "jq empty '$L10K'" "'$LOOPCONV' check '$L10K'" \
    "'$LOOPCONV' graph --mermaid '$L10K'" "'$LOOPCONV' graph --dot '$L10K'"
growth=()
for cmd in check "graph --mermaid" "graph --dot"; do
    growth+=("'$LOOPCONV' $cmd '$L1K'" "'$LOOPCONV' $cmd '$L10K'" "'$LOOPCONV' $cmd $BIG '$L100K'")
done
bench growth "${growth[@]}"
if python3 -c 'import agentpm' 2>/dev/null; then
    bench packages "python3 '$OUT/sdk_load.py' '$PKG'" "'$LOOPCONV' check '$PKG/.agentpm/loops'"
fi
bench small "cat '$SMALL'" "'$LOOPCONV' graph --mermaid '$SMALL'"
for cmd in check mermaid dot; do
    case $cmd in check) args=(check) ;; *) args=(graph "--$cmd") ;; esac
    /usr/bin/time -v "$LOOPCONV" "${args[@]}" "$L10K" 2>"$OUT/memory-$cmd.txt" >/dev/null || true
done

python3 - "$OUT" "$L10K" <<'PY'
import json, os, re, sys
out, l10k = sys.argv[1], sys.argv[2]
def means(name):
    p = os.path.join(out, name + ".json")
    if not os.path.exists(p):
        return []
    return [(r["command"], r["mean"], r["median"]) for r in json.load(open(p))["results"]]
rows = []
def ratio(label, name, num, den, goal):
    m = means(name)
    if len(m) > max(num, den):
        rows.append((label, m[num][1], m[den][1], m[num][1] / m[den][1], m[num][2] / m[den][2], goal))
ratio("check 10,000-file corpus / cat", "corpus", 1, 0, "<= 3")
ratio("check 10,000-file corpus, 10 % broken / cat", "broken", 1, 0, "<= 3")
for i, what in [(2, "check"), (3, "graph --mermaid"), (4, "graph --dot")]:
    ratio(f"{what} 10,000 phases / python json.load", "loop10k", i, 0, "<= 0.5")
for i, what in [(0, "check"), (3, "graph --mermaid"), (6, "graph --dot")]:
    ratio(f"growth 1,000 -> 10,000 phases, {what}", "growth", i + 1, i, "<= 12")
    ratio(f"growth 10,000 -> 100,000 phases, {what}", "growth", i + 2, i + 1, "<= 12")
ratio("check 1,000 packages / AgentPM SDK load_loop", "packages", 1, 0, "<= 0.15")
ratio("graph --mermaid small file / cat", "small", 1, 0, "<= 3")
def peak_kb(cmd):
    mem = open(os.path.join(out, f"memory-{cmd}.txt")).read()
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", mem)
    return int(m.group(1)) if m else None
with open(os.path.join(out, "results.md"), "w") as f:
    f.write("| workload | loopconv (mean) | reference (mean) | ratio of means | ratio of medians | goal |\n|---|---|---|---|---|---|\n")
    for label, a, b, r, rm, goal in rows:
        f.write(f"| {label} | {a:.3f} s | {b:.3f} s | {r:.2f} | {rm:.2f} | {goal} |\n")
    size = os.path.getsize(l10k)
    for cmd, what in [("check", "check"), ("mermaid", "graph --mermaid"), ("dot", "graph --dot")]:
        kb = peak_kb(cmd)
        if kb:
            f.write(f"| peak memory, {what} 10,000 phases / file size | {kb / 1024:.0f} MB | {size / 2**20:.1f} MB | {kb * 1024 / size:.1f} | | <= 10 |\n")
print(open(os.path.join(out, "results.md")).read())
PY
