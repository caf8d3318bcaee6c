#!/usr/bin/env bash
# Whole-process performance of loopconv against reference tools, side by side in one run
# (hyperfine) per row, on the deterministic workloads of benches/workload (issues
# "Performance" and "Fast and bounded"; the goals are the issues' targets):
#
#   * `check` over the 10,000-file mixed corpus (and with 10 % broken files) vs `cat`
#   * `check`, `graph --mermaid`, `graph --dot` of the 10,000-phase loop vs Python's
#     `json.load` (and `jq empty`), and of every other 10,000-phase shape: no `$schema`
#     (one warning), errors in 1 % of the phases, one-word texts minified, long texts with
#     two checkpoints a phase, self-loops in tabs, the XState machine, and a MAS VEAL loop
#     of 10,000 checks in YAML (against `json.load` of the same loop as JSON)
#   * the warning's cost: `check` without `$schema` vs with (time and peak memory)
#   * `paths` with the default `--max-steps-listed` and with it 1,000 times higher
#   * `diff` of two 10,000-phase loops; `schema --outcomes` and `walk` of one
#   * `docs` and `convert --to ir` of the 10,000-file corpus into a fresh folder vs `cp -r`
#   * growth 1,000 -> 10,000 and 10,000 -> 100,000 phases (the 100,000-phase loop read
#     with raised limits: --max-input-bytes, --max-values, --max-phases)
#   * `check` of 1,000 AgentPM packages vs the AgentPM Python SDK's `load_loop` (when the
#     SDK is installed)
#   * `graph --mermaid` of one small file, and `--version`, vs `cat` of it, by the binary
#     measured and by one built without the MCP server (`--no-default-features --features
#     cli,lsp,templates`, or LOOPCONV_NOMCP=binary), in the same run: `loopconv` pays
#     nothing for `loopconv mcp` (issue 49; the server is the executable `loopconv-mcp`)
#   * the language server on a 10,000-phase loop: benches/lsp.rs (divan), an edit
#     (`analyse`, plus `diagnostics` when the bench has it) and `completion` vs
#     `check_from_scratch`; and `loopconv lsp` driven over JSON-RPC (scripts/lsp_probe.py):
#     an edit until its diagnostics (less the pause) and a completion (with its number of
#     items) vs `check` of the file as a process
#   * peak memory (GNU time, the median of 3 runs) against the file's size
#
# Usage: scripts/bench.sh [--install] [--runs N] [--seeds N] [--seed S]...
#   --install  apt-get install hyperfine jq time; pip install agentpm (once per machine)
#   --runs N   rounds of each row (default 5)
#   --seeds N  how many seeds to draw the random loops from (default 5), each new on every
#              run (from /dev/urandom) and printed; --seed S (repeatable) or SEEDS="S ..."
#              gives them instead, to run a seed again
# The seeded rows (issue 50, testkit/src/workload/random.rs): for each seed, a 10,000-phase loop
# whose shape is drawn from the seed (text lengths, id lengths and alphabets, outcome and
# checkpoint density, self-loops, key order, indentation, minified or not, `$schema` and
# errors or not), the same shape without `$schema` (one F012), and a pair for `diff`:
# `check`, `graph --mermaid`, `graph --dot` of each against `json.load`, `diff`
# against `json.load` of one, and `loopconv lsp`'s edit against `check`. Each such row of
# the table is the WORST of the seeds (its seed named), so no run can be tuned to.
# Environment: WORKLOAD=dir (default target/workload), LOOPCONV=binary (default: a dist
# build), LOOPCONV_NOMCP=binary (default: a build of the same profile without the `mcp`
# feature, into the same target folder, after LOOPCONV is linked aside), QUICK=1 (small workloads in target/workload-quick, 1 round, 1 seed, a release
# build, no `cargo bench --bench lsp`: proves that the script runs end to end, measures
# nothing worth keeping). Results: target/bench/results.md (a Markdown table with the
# ratios of the means and of the medians: an outlier sample, common on a shared virtual
# machine, moves the mean but not the median; `met` is `yes` when both are within the
# goal, `median` when only the median is, `no` otherwise; system time beside them) and the
# hyperfine JSON files beside it. The folder rows write into target/bench on the
# checkout's own file system, and every run of them starts after `sync` (hyperfine
# --prepare), so that no run pays for another's writeback. A missing tool stops the
# script; a missed goal never does (it is reported). Timings are for comparison within
# one run only. CI does not run this script.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
QUICK=${QUICK:-0}
RUNS=5
[ "$QUICK" = 1 ] && RUNS=1
NSEEDS=5
[ "$QUICK" = 1 ] && NSEEDS=1
read -r -a SEED_LIST <<<"${SEEDS:-}"
while [ $# -gt 0 ]; do
    case "$1" in
        --install)
            export DEBIAN_FRONTEND=noninteractive
            apt-get update && apt-get install -y hyperfine jq time
            python3 -m pip install --quiet agentpm
            shift ;;
        --runs) RUNS="$2"; shift 2 ;;
        --seeds) NSEEDS="$2"; shift 2 ;;
        --seed) SEED_LIST+=("$2"); shift 2 ;;
        *) echo "usage: scripts/bench.sh [--install] [--runs N] [--seeds N] [--seed S]..." >&2; exit 2 ;;
    esac
done
# One run of each command a round (see bench below).
ROUNDS=$RUNS
for tool in hyperfine jq python3 /usr/bin/time cargo cp cat find sync od; do
    command -v "$tool" >/dev/null || { echo "bench.sh: $tool is missing (run with --install)" >&2; exit 2; }
done
/usr/bin/time -f %M true 2>/dev/null || { echo "bench.sh: /usr/bin/time is not GNU time (run with --install)" >&2; exit 2; }

if [ "$QUICK" = 1 ]; then
    W="${WORKLOAD:-$ROOT/target/workload-quick}"
    GEN_SCALE=--quick
    PHASES=1000
else
    W="${WORKLOAD:-$ROOT/target/workload}"
    GEN_SCALE=
    PHASES=10000
fi
# The seeds of the random loops: given, or drawn anew on every run.
while [ ${#SEED_LIST[@]} -lt "$NSEEDS" ]; do
    SEED_LIST+=("$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')")
done
echo "bench.sh: seeds: ${SEED_LIST[*]} (run again with SEEDS=\"${SEED_LIST[*]}\")" >&2
OUT="$ROOT/target/bench"
mkdir -p "$OUT"
rm -f "$OUT"/*.json "$OUT"/*.txt "$OUT"/peak-* "$OUT"/seeds "$OUT"/phases
echo "${SEED_LIST[*]}" >"$OUT/seeds"
echo "$PHASES" >"$OUT/phases"
BUILT_HERE=0
[ -n "${LOOPCONV:-}" ] || BUILT_HERE=1
if [ -z "${LOOPCONV:-}" ] && [ "$QUICK" = 1 ]; then
    # With the generator: built apart, the binary and the example (which turns on the
    # dev-dependencies' features) were two builds of every dependency.
    cargo build --release --quiet --bin loopconv --example gen-workload
    LOOPCONV="$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')/release/loopconv"
elif [ -z "${LOOPCONV:-}" ]; then
    cargo build --profile dist --quiet
    LOOPCONV="$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')/dist/loopconv"
fi
[ -x "$LOOPCONV" ] || { echo "bench.sh: $LOOPCONV is not an executable" >&2; exit 2; }
# Every row measures this one binary: `cargo bench --bench lsp` below builds the crate's
# binary again, from the work tree, into target/release (the bench profile, built as `dist`), which once put another build under
# the rows that ran after it. A hard link keeps the file measured (the linker writes a new
# file, and cargo links it in place of the old one) and its pages in the page cache (a fresh
# copy of the binary mapped more of its own code: 0.5 MB more for a small loop); a copy
# where no link can be made.
MEASURED="$OUT/loopconv"
rm -f "$MEASURED"
ln "$LOOPCONV" "$MEASURED" 2>/dev/null || cp "$LOOPCONV" "$MEASURED"
LOOPCONV="$MEASURED"
# The same binary without the MCP server's feature, for the small-file rows (issue 49):
# built with the profile of the build above once its binary is linked aside (the build
# replaces the file at target/PROFILE/loopconv; only loopconv's own crate is built again),
# then that default build is put back in place (linked again, nothing compiled).
if [ -z "${LOOPCONV_NOMCP:-}" ]; then
    profile=dist
    [ "$QUICK" = 1 ] && profile=release
    TARGET_DIR="$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')"
    cargo build --profile "$profile" --quiet --bin loopconv --no-default-features --features cli,lsp,templates
    rm -f "$OUT/loopconv-nomcp"
    ln "$TARGET_DIR/$profile/loopconv" "$OUT/loopconv-nomcp" 2>/dev/null ||
        cp "$TARGET_DIR/$profile/loopconv" "$OUT/loopconv-nomcp"
    [ "$BUILT_HERE" = 0 ] || cargo build --profile "$profile" --quiet --bin loopconv
    LOOPCONV_NOMCP="$OUT/loopconv-nomcp"
fi
[ -x "$LOOPCONV_NOMCP" ] || { echo "bench.sh: $LOOPCONV_NOMCP is not an executable" >&2; exit 2; }
# The generator writes VERSION last: a folder of another layout (or half written) is redone.
GEN_VERSION=6
if [ "$(cat "$W/VERSION" 2>/dev/null)" != $GEN_VERSION ]; then
    rm -rf "$W"
    # shellcheck disable=SC2086 # empty or one word
    cargo run --release --quiet --example gen-workload -- $GEN_SCALE "$W"
fi
# The loops drawn from each seed (random.rs), in W/random/PHASES/seed-S.
for seed in "${SEED_LIST[@]}"; do
    dir="$W/random/$PHASES/seed-$seed"
    if [ "$(cat "$dir/VERSION" 2>/dev/null)" != $GEN_VERSION ]; then
        rm -rf "$dir"
        cargo run --release --quiet --example gen-workload -- --random "$seed" --phases "$PHASES" "$dir"
    fi
    echo "bench.sh: seed $seed: $(cat "$dir/shape.txt")" >&2
done

# 1,000 AgentPM packages laid out as AgentPM installs them (staged, then renamed: a run
# stopped half-way leaves no partial set). `sed` reads all of its input: `head` would
# stop `sort` with SIGPIPE, which pipefail turns into the script's exit.
PKG="$W/packages"
if [ ! -d "$PKG/.agentpm/loops" ]; then
    rm -rf "$PKG" "$PKG.tmp"
    find "$W/corpus" -name agent.json | sort | sed -n 1,1000p | while read -r f; do
        name=$(basename "$(dirname "$f")")
        mkdir -p "$PKG.tmp/.agentpm/loops/$name/1.0.0"
        cp "$f" "$PKG.tmp/.agentpm/loops/$name/1.0.0/agent.json"
    done
    mv "$PKG.tmp" "$PKG"
fi
cat >"$OUT/sdk_load.py" <<'PY'
import os, sys
from agentpm import load_loop
base = os.path.join(sys.argv[1], ".agentpm", "loops")
for name in sorted(os.listdir(base)):
    load_loop(f"{name}@1.0.0", loop_dir_override=base)
PY
L="$LOOPCONV"
SMALL="$ROOT/examples/agentpm/react-loop.json"
L1K="$W/loop-1000.json"
L10K="$W/loop-10000.json"
L100K="$W/loop-100000.json"
S="$W/shapes"
BIG="--max-input-bytes 256MiB --max-values 20000000 --max-phases 200000"
JSONLOAD="python3 -c 'import json,sys; json.load(open(sys.argv[1]))'"
RAISED=2000000 # --max-steps-listed for `paths`: 1,000 times the default

# A row's commands run in rounds, one run of each command a round (the first round after
# the warm-up runs), so that the commands compared take turns: a single hyperfine run
# times all runs of one command, then all of the next, and on a shared virtual machine
# the host's load moved by 20-40 % within a minute, which moved a ratio as much. The
# order reverses every other round, so that no command always runs right after the same
# one: on this project's virtual machine, the first run after Python's `json.load` of a
# large file often found no huge page the host still backed, and with a fixed order
# `check` of the 37 MB `long` loop, always run right after it, took 0.43-0.58 s in a third
# of its runs instead of 0.15-0.20 s (70 % of those runs' samples in the kernel's
# `clear_page_erms`, perf), while the commands after it never did. The rounds' samples are
# then pooled into one hyperfine result per command, in the order given
# (scripts/bench_report.py reads its mean, median and CPU time).
bench() { # name, then hyperfine options (-N, --prepare CMD, -n NAME each), then commands
    local name=$1; shift
    local options=() names=() commands=()
    while [ $# -gt 0 ]; do
        case $1 in
            -N) options+=("$1"); shift ;;
            --prepare) options+=("$1" "$2"); shift 2 ;;
            -n) names+=("$2"); shift 2 ;;
            *) commands+=("$1"); shift ;;
        esac
    done
    echo "bench.sh: $name" >&2
    local per=$((RUNS / ROUNDS > 0 ? RUNS / ROUNDS : 1)) warmup=${WARMUP:-1} round k
    local order=()
    : >"$OUT/$name.txt"
    for round in $(seq 1 "$ROUNDS"); do
        order=()
        for k in "${!commands[@]}"; do
            if ((round % 2)); then order+=("$k"); else order=("$k" "${order[@]}"); fi
        done
        local args=()
        for k in "${order[@]}"; do
            [ ${#names[@]} -eq 0 ] || args+=(-n "${names[k]}")
        done
        for k in "${order[@]}"; do args+=("${commands[k]}"); done
        echo "${order[*]}" >"$OUT/$name.round-$round.order"
        hyperfine --style basic --warmup "$warmup" --runs "$per" --ignore-failure \
            --export-json "$OUT/$name.round-$round.json" "${options[@]}" "${args[@]}" >>"$OUT/$name.txt"
        warmup=0
    done
    python3 - "$OUT/$name" "$ROUNDS" <<'PY'
import json, statistics, sys
base, rounds = sys.argv[1], int(sys.argv[2])
parts = []
for r in range(1, rounds + 1):
    order = [int(k) for k in open(f"{base}.round-{r}.order").read().split()]
    ran = json.load(open(f"{base}.round-{r}.json"))["results"]
    given = [None] * len(order)
    for position, k in enumerate(order):
        given[k] = ran[position]
    parts.append(given)
results = []
for per_command in zip(*parts):
    times = [t for r in per_command for t in r["times"]]
    weight = lambda key: sum(r[key] * len(r["times"]) for r in per_command) / len(times)
    results.append({
        "command": per_command[0]["command"],
        "mean": statistics.fmean(times),
        "median": statistics.median(times),
        "user": weight("user"),
        "system": weight("system"),
        "min": min(times),
        "max": max(times),
        "times": times,
    })
json.dump({"results": results}, open(f"{base}.json", "w"), indent=1)
PY
    rm -f "$OUT/$name".round-*.json "$OUT/$name".round-*.order
}
peak() { # name, then a command: the median of 3 peak resident sizes (KB) in peak-NAME
    local name=$1; shift
    for _ in 1 2 3; do
        /usr/bin/time -f %M -o "$OUT/time.tmp" "$@" >/dev/null 2>&1 || true
        tail -1 "$OUT/time.tmp"
    done | sort -n | sed -n 2p >"$OUT/peak-$name"
}

bench corpus "find '$W/corpus' -type f -exec cat {} + >/dev/null" "'$L' check '$W/corpus'"
bench broken "find '$W/corpus-broken' -type f -exec cat {} + >/dev/null" "'$L' check '$W/corpus-broken'"
# A multi-agent-spec workspace (1,000 teams of 10 loop steps, 10,000 loops, 1,000 agent
# specs) against the same loops alone: the cross-file rules' cost (goal: at most 1.3x).
bench workspace "'$L' check --no-workspace '$W/workspace/specs/loops'" "'$L' check '$W/workspace/specs'"
peak workspace "$L" check "$W/workspace/specs"
bench loop10k "$JSONLOAD '$L10K'" "jq empty '$L10K'" "'$L' check '$L10K'" \
    "'$L' graph --mermaid '$L10K'" "'$L' graph --dot '$L10K'"

# Every other shape: its reference (json.load of the file, or of the same loop as JSON),
# then check, graph --mermaid, graph --dot.
shapes=(warn errors short long self-loops xstate mas-yaml)
for shape in "${shapes[@]}"; do
    file="$S/$shape-10000.json" ref="$S/$shape-10000.json" extra=""
    case $shape in
        xstate) extra="--max-phases 20000" ;; # 10,403 states (phases, checkpoints, terminals)
        mas-yaml) file="$S/mas-10000.yaml" ref="$S/mas-10000.json" ;;
    esac
    bench "shape-$shape" "$JSONLOAD '$ref'" "'$L' check $extra '$file'" \
        "'$L' graph --mermaid $extra '$file'" "'$L' graph --dot $extra '$file'"
    peak "$shape-check" "$L" check $extra "$file"
    peak "$shape-mermaid" "$L" graph --mermaid $extra "$file"
    peak "$shape-dot" "$L" graph --dot $extra "$file"
done
bench warning "'$L' check '$L10K'" "'$L' check '$S/warn-10000.json'"
# The loops drawn from each seed (see Usage): each row's worst seed is in the table.
for seed in "${SEED_LIST[@]}"; do
    R="$W/random/$PHASES/seed-$seed"
    for kind in loop warn; do
        bench "seed-$seed-$kind" "$JSONLOAD '$R/$kind.json'" "'$L' check '$R/$kind.json'" \
            "'$L' graph --mermaid '$R/$kind.json'" "'$L' graph --dot '$R/$kind.json'"
    done
    bench "seed-$seed-diff" "$JSONLOAD '$R/a.json'" "'$L' diff '$R/a.json' '$R/b.json'"
done
bench paths "$JSONLOAD '$L10K'" "'$L' paths '$L10K'" "'$L' paths --max-steps-listed $RAISED '$L10K'"
peak paths "$L" paths "$L10K"
peak paths-raised "$L" paths --max-steps-listed "$RAISED" "$L10K"
bench diff "$JSONLOAD '$L10K'" "'$L' diff '$L10K' '$W/loop-10000-changed.json'"
peak diff "$L" diff "$L10K" "$W/loop-10000-changed.json"
bench schema-outcomes "$JSONLOAD '$L10K'" "'$L' schema --outcomes '$L10K'"
peak schema-outcomes "$L" schema --outcomes "$L10K"
# A run of the 10,000-phase loop from its entry to `$end`: every phase `advance`, every
# one of its 400 checkpoints approved.
outcomes=$(python3 -c 'print(",".join(["advance"] * 10000))')
approvals=$(python3 -c 'print(" ".join(f"--approve gate-{k}" for k in range(400)))')
bench walk -n "json.load" -n "walk" "$JSONLOAD '$L10K'" \
    "'$L' walk --runtime-max-steps 30000 --outcomes $outcomes $approvals '$L10K'"
# shellcheck disable=SC2086 # the approvals are words
peak walk "$L" walk --runtime-max-steps 30000 --outcomes "$outcomes" $approvals "$L10K"
# On the checkout's file system (OUT is under it), every run after `sync`: one `syncfs`
# pays for every earlier writer's dirty pages, and without it the rows measured 3.4 to
# 5.9x `cp -r` (issue 50), the writeback of the runs before.
FOLDER="$OUT/folder"
# No warm-up: the corpus was read just before, and each run takes seconds.
WARMUP=0 bench folder --prepare "rm -rf '$FOLDER'; sync" "cp -r '$W/corpus' '$FOLDER'" \
    "'$L' docs '$W/corpus' -o '$FOLDER'" "'$L' convert --to ir '$W/corpus' -o '$FOLDER'"
rm -rf "$FOLDER"
# The hostile shapes of issue 45 (testkit/src/workload/hostile.rs) at 1 MB and 10 MB, in one
# run: each against `check` of an ordinary loop of its size (the generator's, last of each
# size, goal <= 2; 10 MB is about 13,000 phases, hence --max-phases), against `check` of
# the plain loop (first of each size: the cheapest bytes, the reference until 2026-12-05,
# shown without a goal), and 1 MB -> 10 MB (goal <= 12). Some exit 1 (the shapes with
# errors): hyperfine ignores it.
H="$W/hostile"
hostile=()
for size in 1mb 10mb; do
    hostile+=("'$L' check '$H/plain-$size.json'" \
        "'$L' check '$H/outcomes-$size.json'" \
        "'$L' graph --mermaid '$H/repeated-keys-$size.json'" \
        "'$L' check '$H/long-ids-$size.json'" \
        "'$L' check --color always '$H/one-line-$size.json'" \
        "'$L' check --format sarif '$H/repeated-keys-$size.json'" \
        "'$L' diff --format markdown '$H/plain-$size.json' '$H/plain-changed-$size.json'" \
        "'$L' graph --dot '$H/outcomes-$size.json'" \
        "'$L' check --max-phases 20000 '$H/ordinary-$size.json'")
done
bench hostile "${hostile[@]}"
peak hostile-sarif "$L" check --format sarif "$H/repeated-keys-10mb.json"
growth=()
for cmd in check "graph --mermaid" "graph --dot"; do
    growth+=("'$L' $cmd '$L1K'" "'$L' $cmd '$L10K'" "'$L' $cmd $BIG '$L100K'")
done
bench growth "${growth[@]}"
if python3 -c 'import agentpm' 2>/dev/null; then
    bench packages "python3 '$OUT/sdk_load.py' '$PKG'" "'$L' check '$PKG/.agentpm/loops'"
fi
# Without a shell (-N): hyperfine's correction for the shell's start-up is as large as
# these commands and, on a busy machine, made `cat` take 0 s. A few milliseconds each: 60
# times the runs of the other rows (300 for --runs 5), after 20 warm-up runs, since five
# samples of a process's start-up on a shared machine moved the ratio by a third.
# `--version` beside it, and both by the binary built without the MCP server: neither pays
# for it (issue 49: the server is another executable, `loopconv-mcp`).
LN=$LOOPCONV_NOMCP
WARMUP=20 RUNS=$((RUNS * 60)) bench small -N "cat '$SMALL'" "'$L' graph --mermaid '$SMALL'" "'$L' --version" \
    "'$LN' graph --mermaid '$SMALL'" "'$LN' --version"
for cmd in check mermaid dot; do
    case $cmd in check) args=(check) ;; *) args=(graph "--$cmd") ;; esac
    peak "loop-$cmd" "$L" "${args[@]}" "$L10K"
done
# The language server on a 10,000-phase loop (benches/lsp.rs, divan): its medians and means.
# Not in the quick mode: the bench profile is a fat-LTO build of its own.
if [ "$QUICK" = 1 ]; then
    echo "bench.sh: lsp (divan) left out in the quick mode" >&2
else
    echo "bench.sh: lsp" >&2
    LOOPCONV_BENCH_PHASES=10000 DIVAN_SAMPLE_COUNT=$((RUNS < 10 ? 10 : RUNS)) \
        cargo bench --quiet --bench lsp >"$OUT/lsp.txt" 2>"$OUT/lsp.err" ||
        { cat "$OUT/lsp.err" >&2; echo "bench.sh: cargo bench --bench lsp failed" >&2; exit 2; }
fi

# The same as an editor sees it: `loopconv lsp` over JSON-RPC on the generator's
# 10,000-phase loop (scripts/lsp_probe.py): an edit until its diagnostics, less the
# server's pause after edits (DEBOUNCE in src/lsp), and a completion, with its items.
# At least 15 edits: with 5, the run of 2026-12-05 17:48 gave a median of 1.72x `check`,
# where 15 edits, twice, gave 1.12x and 1.22x right after.
echo "bench.sh: lsp_probe" >&2
PAUSE_MS=$(sed -n 's/.*DEBOUNCE: Duration = Duration::from_millis(\([0-9]*\)).*/\1/p' src/lsp/*.rs | sed -n 1p)
if [ -z "$PAUSE_MS" ]; then
    echo "bench.sh: no DEBOUNCE found in src/lsp: the edit's time includes the pause" >&2
    PAUSE_MS=0
fi
python3 "$ROOT/scripts/lsp_probe.py" "$L" "$L10K" "$((RUNS < 15 ? 15 : RUNS))" "$PAUSE_MS" >"$OUT/lsp-probe.json"
# And on each seed's loop without `$schema`, against `check` of it (row seed-S-warn).
for seed in "${SEED_LIST[@]}"; do
    python3 "$ROOT/scripts/lsp_probe.py" "$L" "$W/random/$PHASES/seed-$seed/warn.json" \
        "$((RUNS < 15 ? 15 : RUNS))" "$PAUSE_MS" >"$OUT/seed-$seed-lsp-probe.json"
done

python3 "$ROOT/scripts/bench_report.py" "$OUT" "$W"
