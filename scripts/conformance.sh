#!/usr/bin/env bash
# Conformance: draw every loop with loopconv and render the drawings with the real
# renderers, Graphviz (`dot -Tsvg`), Mermaid's own renderer (mermaid-cli, in headless
# Chromium) and PlantUML (`plantuml -tsvg`, headless Java), failing on any render error or
# on user text that became markup.
#
# Usage:
#   scripts/conformance.sh [--install] [DIR...]
#
# Renders every loop file (*.json, *.yaml, *.yml) under examples/ and under each DIR
# (never examples/invalid/; a file reached twice is rendered once), and every scaffold of
# `loopconv new` (generated into the output folder, each checked with `check --strict`):
#   * `loopconv graph --dot`               -> dot -Tsvg
#   * `loopconv graph --style flowchart`   -> mmdc
#   * `loopconv graph --style state`       -> mmdc
#   * `loopconv graph --plantuml`          -> plantuml -tsvg
#   * every ```mermaid block of the pages written by `loopconv docs` -> mmdc
# Files under examples/ must be valid loops; files under a DIR that loopconv rejects
# (a corpus may hold invalid files on purpose) are reported as skipped.
# Every SVG is then parsed as XML and must hold no <script>, <img>, <iframe>, <object>
# or <embed> element and no on* event attribute, its raw text no `<img` or `<script`, and
# it must not be Mermaid's or PlantUML's picture of an error. Hostile loops (every file
# under examples/hostile/, and files named *hostile*) must also show their hostile text
# drawn as text: each phase objective short enough to be shown whole (AgentPM loops) and
# each short agent name (actor, validator, fallback agent) must appear literally in the
# drawn text of each of the loop's SVGs (titles, descriptions and styles apart; compared
# without whitespace and invisible characters, which the drawings drop or fold), and no
# <i>, <u> or nested <svg> element may appear.
#
# Installation (once per machine; `scripts/install-tools.sh` or `--install` runs the
# `install_tools` function below, which does exactly this):
#   apt-get update && apt-get install -y graphviz chromium plantuml
#   cd tools && PUPPETEER_SKIP_DOWNLOAD=1 npm ci
# tools/package.json pins @mermaid-js/mermaid-cli; tools/puppeteer.json points it at
# Debian's /usr/bin/chromium (no browser download). Optional, for nicer non-Latin text in
# PNGs only: apt-get install -y fonts-noto-cjk fonts-noto-color-emoji.
#
# Environment:
#   LOOPCONV=path        use this binary instead of `cargo build --release`
#   CONFORMANCE_OUT=dir  keep the generated sources and SVGs there (default: a temp dir,
#                        removed on success)
#   JOBS=n               parallel mmdc processes (default 2)
#
# The last line is `conformance: N passed, M failed, K skipped`; the exit code is 0 only
# when nothing failed.

set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# Install Graphviz, Chromium and PlantUML (Debian) unless all three are there, then
# mermaid-cli as pinned by tools/package-lock.json (puppeteer's own browser download is
# skipped).
install_tools() {
    if ! command -v dot >/dev/null || ! command -v chromium >/dev/null ||
        ! command -v plantuml >/dev/null; then
        export DEBIAN_FRONTEND=noninteractive
        apt-get update
        apt-get install -y graphviz chromium plantuml
    fi
    # The node tools once per lock file: `npm ci` (about 500 MB) runs only when
    # tools/package-lock.json differs from the copy left in node_modules by the last
    # install, and its downloads stay in a cache folder for the next fresh install.
    local lock="$ROOT/tools/package-lock.json" stamp="$ROOT/tools/node_modules/.loopconv-installed-lock"
    if ! cmp -s "$lock" "$stamp"; then
        (cd "$ROOT/tools" && PUPPETEER_SKIP_DOWNLOAD=1 npm ci --no-audit --no-fund \
            --prefer-offline --cache "${LOOPCONV_NPM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/loopconv-npm}")
        cp "$lock" "$stamp"
    fi
    # Neovim: the language server's end-to-end test with a real client (tests/suite/lsp/nvim.rs).
    if ! command -v nvim >/dev/null; then
        export DEBIAN_FRONTEND=noninteractive
        apt-get update
        apt-get install -y neovim
    fi
}

# Run PlantUML to SVG, headless (no display needed), reading UTF-8, without the source
# embedded in the SVG; the arguments are the files (or `-pipe`) and further options.
plantuml_svg() {
    JAVA_TOOL_OPTIONS="${JAVA_TOOL_OPTIONS:+$JAVA_TOOL_OPTIONS }-Djava.awt.headless=true" \
        plantuml -tsvg -charset UTF-8 -nometadata "$@"
}

# Whether an SVG written by PlantUML is its picture of an error rather than the diagram:
# PlantUML draws errors (syntax errors, exceptions, Graphviz missing or failing) as green
# text on black, and exits 0 for some of them.
plantuml_error_image() {
    grep -qE 'background:#000000|fill="#33FF02"|Syntax Error\?|An error has occur+ed|Cannot find Graphviz' "$1"
}

# Find loop files under a folder (absolute paths, sorted), never under examples/invalid.
list_loops() {
    local dir
    dir=$(cd "$1" && pwd -P)
    find "$dir" -path "$ROOT/examples/invalid" -prune -o -type f \
        \( -name '*.json' -o -name '*.yaml' -o -name '*.yml' \) -print | LC_ALL=C sort
}

# Write each ```mermaid block of the given Markdown pages to DIR/docs-<n>-<page>-<k>.mmd and
# print the names (without .mmd), in order.
extract_blocks() {
    local dir=$1
    shift
    python3 - "$dir" "$@" <<'PY'
import pathlib, sys
outdir, pages = pathlib.Path(sys.argv[1]), sys.argv[2:]
for n, page in enumerate(pages, 1):
    cur, k = None, 0
    for line in pathlib.Path(page).read_text(encoding="utf-8").splitlines():
        if cur is None and line.strip() == "```mermaid":
            cur = []
        elif cur is not None and line.strip() == "```":
            k += 1
            name = f"docs-{n:03d}-{pathlib.Path(page).stem}-{k}"
            (outdir / f"{name}.mmd").write_text("\n".join(cur) + "\n", encoding="utf-8")
            print(name)
            cur = None
        elif cur is not None:
            cur.append(line)
PY
}

# Check SVGs: well-formed XML, no active markup, no raw <img / <script; hostile files
# must show their text. An SVG `<svg dir>/NNN-name.<kind>.svg` is the drawing of a hostile
# loop when `<svg dir>/../src/NNN-name.diagram.json` (its drawing model) exists: the marker
# texts come from there. Prints one line per failure; exit status = number of failures.
check_svgs() {
    python3 - "$@" <<'PY'
import json, pathlib, re, sys, unicodedata
import xml.etree.ElementTree as ET
BAD_TAGS = {"script", "img", "iframe", "object", "embed", "image"}
# Hostile loops: user markup that would show as these elements.
HOSTILE_TAGS = {"i", "u", "svg"}
# Text that is not drawn: accessibility title and description, CSS.
NOT_DRAWN = {"title", "desc", "style"}

def squeeze(s):
    """Text without whitespace and invisible characters (controls, format characters such
    as bidirectional marks, unassigned code points and noncharacters): the drawings drop
    or fold those, and wrapping may break lines anywhere."""
    return "".join(c for c in s
                   if not c.isspace() and unicodedata.category(c) not in ("Cc", "Cf", "Cn"))

def markers(model_path):
    """Texts a hostile loop must show whole, as loopconv's drawing model says (the hidden
    `loopconv diagram-model` command, so the wrapping and shortening margins are the Rust
    side's own): each phase objective whose wrapped lines do not end with the ellipsis, and
    each agent name on a role line that was not shortened."""
    model = json.loads(model_path.read_text(encoding="utf-8"))
    out = []
    for node in model.get("nodes", []):
        if node.get("kind") != "phase":
            continue
        lines = node.get("lines", [])
        if lines and not lines[-1].endswith("\u2026"):
            out.append(" ".join(lines))
        role = node.get("role") or ""
        name = role.split(": ", 1)[-1]
        if name and not name.endswith("\u2026"):
            out.append(name)
    for edge in model.get("edges", []):
        note = edge.get("note") or ""
        if " \u2192 " in note and not note.endswith("\u2026"):
            out.append(note.split(" \u2192 ", 1)[1])
    return out

def drawn_text(root):
    parent = {c: p for p in root.iter() for c in p}
    for el in list(root.iter()):
        if el.tag.rsplit("}", 1)[-1].lower() in NOT_DRAWN and el in parent:
            parent[el].remove(el)
    return "".join(root.itertext())

fails = 0
for path in sys.argv[1:]:
    raw = open(path, encoding="utf-8").read()
    problems = []
    if re.search(r"<\s*(img|script)\b", raw, re.I):
        problems.append("raw <img or <script in the SVG")
    try:
        root = ET.fromstring(raw)
    except ET.ParseError as e:
        problems.append(f"not well-formed XML: {e}")
        root = None
    text = ""
    if root is not None:
        for el in root.iter():
            tag = el.tag.rsplit("}", 1)[-1].lower()
            if tag in BAD_TAGS:
                problems.append(f"<{tag}> element")
            for k, v in el.attrib.items():
                name = k.rsplit("}", 1)[-1].lower()
                if name.startswith("on"):
                    problems.append(f"event attribute {name}=")
                if name == "href" and v.strip().lower().startswith("javascript:"):
                    problems.append("javascript: link")
        text = "".join(root.itertext())
    if "Syntax error in text" in text:
        problems.append("Mermaid drew a syntax-error diagram")
    if path.endswith(".plantuml.svg") and (
        re.search(r'background:#000000|fill="#33FF02"', raw)
        or re.search(r"Syntax Error\?|An error has occur+ed|Cannot find Graphviz", text)
    ):
        problems.append("PlantUML drew an error image")
    if "hostile" in path.rsplit("/", 1)[-1] and "/docs-" not in path:
        for needle in ("<img src=x", "日本語"):
            if needle not in text:
                problems.append(f"hostile text {needle!r} is not drawn as text")
    svg = pathlib.Path(path)
    stem = re.sub(r"\.(dot|flowchart|state|plantuml)\.svg$", "", svg.name)
    model = svg.parent.parent / "src" / f"{stem}.diagram.json"
    if model.exists() and root is not None:
        drawn = squeeze(drawn_text(root))
        for m in markers(model):
            if squeeze(m) not in drawn:
                problems.append(f"hostile text {m!r} is not drawn as text")
        for el in root.iter():
            tag = el.tag.rsplit("}", 1)[-1].lower()
            if tag in HOSTILE_TAGS and el is not root:
                problems.append(f"<{tag}> element from user text")
    for p in problems:
        print(f"  FAIL {path}: {p}")
    fails += bool(problems)
sys.exit(min(fails, 100))
PY
}

main() {
    if [[ ${1:-} == --install ]]; then
        install_tools
        shift
    fi
    local start_time=$SECONDS
    local mmdc="$ROOT/tools/node_modules/.bin/mmdc"
    local pconf="$ROOT/tools/puppeteer.json"
    for tool in dot plantuml python3; do
        command -v "$tool" >/dev/null || {
            echo "conformance: \`$tool\` not found; run: $0 --install" >&2
            exit 2
        }
    done
    [[ -x $mmdc ]] || {
        echo "conformance: $mmdc not found; run: $0 --install" >&2
        exit 2
    }

    local bin=${LOOPCONV:-}
    if [[ -z $bin ]]; then
        (cd "$ROOT" && cargo build --release --quiet)
        bin="${CARGO_TARGET_DIR:-$ROOT/target}/release/loopconv"
    fi
    [[ -x $bin ]] || {
        echo "conformance: loopconv binary $bin not found" >&2
        exit 2
    }

    local out=${CONFORMANCE_OUT:-}
    local keep=1
    if [[ -z $out ]]; then
        out=$(mktemp -d -t loopconv-conformance.XXXXXX)
        keep=0
    fi
    mkdir -p "$out"
    rm -rf "${out:?}"/{src,svg,docs,batch,scaffolds}
    mkdir -p "$out/src" "$out/svg" "$out/docs" "$out/batch"

    local passed=0 failed=0 skipped=0
    local -a files=() valid=()
    local -A listed=()
    local f
    while IFS= read -r f; do
        # examples/workspaces/ holds the documents that use loops beside their loops: a team
        # and an Agent manifest are drawn, a lock is no drawing (P015), so they are optional.
        case $f in
            */examples/workspaces/*) files+=("$f|optional") ;;
            *) files+=("$f|required") ;;
        esac
        listed[$f]=1
    done < <(list_loops "$ROOT/examples")
    # Every `loopconv new` scaffold, generated here: it must pass `check --strict` and
    # render like any example.
    mkdir -p "$out/scaffolds"
    local arch ext
    for arch in react plan-and-solve plan-execute-replan reflexion veal real; do
        case $arch in veal | real) ext=yaml ;; *) ext=json ;; esac
        f="$out/scaffolds/$arch-scaffold.$ext"
        "$bin" new --archetype "$arch" --name "$arch-scaffold" -o "$f" --force
        "$bin" check --strict --color never "$f" >/dev/null 2>&1 || {
            echo "conformance: the $arch scaffold fails check --strict:" >&2
            "$bin" check --strict --color never "$f" >&2
            exit 1
        }
        files+=("$f|required")
        listed[$f]=1
    done
    for dir in "$@"; do
        [[ -d $dir ]] || {
            echo "conformance: $dir is not a folder" >&2
            exit 2
        }
        # A folder given twice (or examples/ itself) is rendered once.
        while IFS= read -r f; do
            [[ -n ${listed[$f]:-} ]] && continue
            files+=("$f|optional")
            listed[$f]=1
        done < <(list_loops "$dir")
    done

    echo "conformance: ${#files[@]} loop files; output in $out"
    # (Resolved like list_loops' paths.)
    local hostile_dir
    hostile_dir=$(cd "$ROOT/examples/hostile" 2>/dev/null && pwd -P) || hostile_dir="$ROOT/examples/hostile"
    # 1. Generate the drawings.
    local -a dots=() mermaids=() pumls=()
    local i=0 entry kind name
    for entry in "${files[@]}"; do
        f=${entry%|*}
        kind=${entry##*|}
        i=$((i + 1))
        name=$(printf '%03d-%s' "$i" "$(basename "$f" | tr -c 'A-Za-z0-9._\n-' '_')")
        if ! "$bin" graph --dot "$f" -o "$out/src/$name.dot" 2>"$out/src/$name.err"; then
            if [[ $kind == optional ]]; then
                echo "  skip $f (not a valid loop)"
                skipped=$((skipped + 1))
            else
                echo "  FAIL $f: loopconv graph failed:"
                sed 's/^/    /' "$out/src/$name.err"
                failed=$((failed + 1))
            fi
            continue
        fi
        valid+=("$f")
        dots+=("$name")
        # Hostile loops: their drawing model names the texts the SVGs must show (check_svgs).
        if [[ $f == "$hostile_dir/"* || $(basename "$f") == *hostile* ]]; then
            "$bin" diagram-model "$f" >"$out/src/$name.diagram.json" 2>>"$out/src/$name.err" || {
                echo "  FAIL $f: loopconv diagram-model failed"
                failed=$((failed + 1))
            }
        fi
        local style
        for style in flowchart state; do
            if "$bin" graph --style "$style" "$f" -o "$out/src/$name.$style.mmd" \
                2>"$out/src/$name.err"; then
                mermaids+=("$name.$style")
            elif [[ $style == state ]] && grep -q 'a team is drawn as a Mermaid flowchart' "$out/src/$name.err"; then
                : # a team (examples/workspaces, the corpus's workspaces) has one Mermaid style
            else
                echo "  FAIL $f: loopconv graph --style $style failed"
                failed=$((failed + 1))
            fi
        done
        if "$bin" graph --plantuml "$f" -o "$out/src/$name.plantuml.puml" 2>"$out/src/$name.err"; then
            pumls+=("$name.plantuml")
        else
            echo "  FAIL $f: loopconv graph --plantuml failed"
            failed=$((failed + 1))
        fi
    done

    # 2. Graphviz.
    for name in "${dots[@]}"; do
        if dot -Tsvg "$out/src/$name.dot" -o "$out/svg/$name.dot.svg" 2>"$out/src/$name.dot.err" &&
            ! grep -qi 'error' "$out/src/$name.dot.err"; then
            passed=$((passed + 1))
        else
            echo "  FAIL $name.dot: dot -Tsvg:"
            sed 's/^/    /' "$out/src/$name.dot.err"
            failed=$((failed + 1))
            rm -f "$out/svg/$name.dot.svg"
        fi
    done

    # 3. PlantUML: one JVM renders every diagram (JOBS threads) into svg/<name>.svg.
    # PlantUML still writes an SVG (a picture of the error) for a diagram it cannot draw;
    # it exits non-zero on syntax errors but 0 on some others (Graphviz missing, internal
    # exceptions): a diagram passes only with an SVG that is not an error image, and the
    # whole run only with exit code 0. A failing diagram is rendered alone again to show
    # PlantUML's message.
    if ((${#pumls[@]} > 0)); then
        local -a pfiles=()
        local prc=0 pbad=0
        for name in "${pumls[@]}"; do pfiles+=("$out/src/$name.puml"); done
        plantuml_svg -nbthread "${JOBS:-2}" -o "$out/svg" "${pfiles[@]}" \
            >"$out/src/plantuml.log" 2>&1 || prc=$?
        for name in "${pumls[@]}"; do
            if [[ -s $out/svg/$name.svg ]] && ! plantuml_error_image "$out/svg/$name.svg"; then
                passed=$((passed + 1))
            else
                echo "  FAIL $name.puml: plantuml -tsvg:"
                { plantuml_svg -pipe <"$out/src/$name.puml" 2>&1 >/dev/null || true; } |
                    grep -v '^Picked up' | head -n 20 | sed 's/^/    /' || true
                failed=$((failed + 1))
                pbad=$((pbad + 1))
                rm -f "$out/svg/$name.svg"
            fi
        done
        if ((prc != 0 && pbad == 0)); then
            echo "  FAIL plantuml exited with $prc:"
            head -n 20 "$out/src/plantuml.log" | sed 's/^/    /'
            failed=$((failed + 1))
        fi
    fi

    # 4. Docs pages: their ```mermaid blocks join the Mermaid diagrams. One `docs` run
    # per loop, since different folders may hold loops of the same name (one page each).
    local -a pages=()
    i=0
    for f in "${valid[@]}"; do
        i=$((i + 1))
        if "$bin" docs "$f" -o "$out/docs/$i" >"$out/docs/$i.log" 2>&1; then
            while IFS= read -r name; do pages+=("$name"); done < <(find "$out/docs/$i" -name '*.md' | LC_ALL=C sort)
        else
            echo "  FAIL loopconv docs $f:"
            sed 's/^/    /' "$out/docs/$i.log"
            failed=$((failed + 1))
        fi
    done
    # A block identical to a `graph` output already queued is the same diagram: it is
    # counted as passing with that one rather than rendered twice.
    local -A seen=()
    local n=0 same=0 sum
    for name in "${mermaids[@]}"; do
        sum=$(sha256sum <"$out/src/$name.mmd")
        seen[$sum]=$name
    done
    if ((${#pages[@]} > 0)); then
        while IFS= read -r name; do
            n=$((n + 1))
            sum=$(sha256sum <"$out/src/$name.mmd")
            if [[ -n ${seen[$sum]:-} ]]; then
                same=$((same + 1))
                passed=$((passed + 1))
            else
                seen[$sum]=$name
                mermaids+=("$name")
            fi
        done < <(extract_blocks "$out/src" "${pages[@]}")
    fi
    echo "conformance: $n Mermaid blocks in ${#pages[@]} docs pages ($same identical to a graph output)"

    # 5. Mermaid: the diagrams are dealt round-robin into JOBS Markdown files, each
    # rendered by one mmdc (one browser start) into <batch>-<k>.svg; batches run in
    # parallel. A failed batch is retried one diagram at a time to name the culprit.
    local jobs=${JOBS:-2} b
    local -a batch_names=()
    for ((b = 0; b < jobs; b++)); do
        batch_names[b]=""
        : >"$out/batch/batch$b.md"
    done
    i=0
    for name in "${mermaids[@]}"; do
        b=$((i % jobs))
        {
            echo '```mermaid'
            cat "$out/src/$name.mmd"
            echo '```'
            echo
        } >>"$out/batch/batch$b.md"
        batch_names[b]+="$name "
        i=$((i + 1))
    done
    local -a pids=()
    for ((b = 0; b < jobs; b++)); do
        [[ -n ${batch_names[b]} ]] || continue
        "$mmdc" -q -p "$pconf" -i "$out/batch/batch$b.md" -o "$out/batch/out$b.md" \
            >"$out/batch/mmdc$b.log" 2>&1 &
        pids[b]=$!
    done
    for ((b = 0; b < jobs; b++)); do
        [[ -n ${batch_names[b]} ]] || continue
        local k=0 ok=1
        wait "${pids[b]}" || ok=0
        for name in ${batch_names[b]}; do
            k=$((k + 1))
            if [[ $ok == 1 && -s $out/batch/out$b-$k.svg ]]; then
                mv "$out/batch/out$b-$k.svg" "$out/svg/$name.svg"
                passed=$((passed + 1))
            else
                # Render it alone to find out what failed.
                if "$mmdc" -q -p "$pconf" -i "$out/src/$name.mmd" -o "$out/svg/$name.svg" \
                    >"$out/src/$name.mmdc.log" 2>&1; then
                    passed=$((passed + 1))
                else
                    echo "  FAIL $name.mmd: mmdc:"
                    head -n 20 "$out/src/$name.mmdc.log" | sed 's/^/    /'
                    failed=$((failed + 1))
                    rm -f "$out/svg/$name.svg"
                fi
            fi
        done
    done

    # 6. The SVGs themselves.
    local -a svgs=()
    while IFS= read -r f; do svgs+=("$f"); done < <(find "$out/svg" -name '*.svg' | LC_ALL=C sort)
    if ((${#svgs[@]} > 0)); then
        local bad=0
        check_svgs "${svgs[@]}" || bad=$?
        passed=$((passed - bad))
        failed=$((failed + bad))
    fi

    echo "conformance: ${#svgs[@]} SVGs checked in $((SECONDS - start_time))s"
    if ((failed == 0 && keep == 0)); then
        rm -rf "$out"
    elif ((failed > 0)); then
        echo "conformance: sources and SVGs kept in $out"
    fi
    echo "conformance: $passed passed, $failed failed, $skipped skipped"
    ((failed == 0))
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
    main "$@"
fi
