#!/usr/bin/env bash
# The packages as a user installs them, without a Rust toolchain (issue 21):
#   scripts/test-packages.sh DIST
#   scripts/test-packages.sh --built DIST
# builds every package of this machine into DIST (scripts/package.sh; with --built, DIST
# already holds what `scripts/package.sh DIST` wrote: `.ci/run` builds them while its tests
# run), then, with `cargo` absent from PATH:
#   1. pip: a fresh virtual environment, `pip install --no-index --find-links DIST
#      loopconv`, then `loopconv check examples` and `python -m loopconv --version`; and
#      `uvx loopconv --version` from DIST;
#   2. pre-commit: the real `pre-commit run --all-files` with this repository's
#      `language: python` hooks (PIP_FIND_LINKS=DIST, PIP_NO_INDEX=1) fails on a broken
#      loop and passes once it is fixed and its docs are generated;
#   3. npm: `npm install` of the packed tarballs (offline), then `npx loopconv check
#      examples`, its exit codes, the LOOPCONV_BINARY override, `npx loopconv lsp` and
#      `npx loopconv mcp`;
#   4. the GitHub Action's script (scripts/action.sh) installs from DIST and checks;
# and, with cargo, that the sdist builds a working wheel (the dependencies of the wheel's
# build are reused). `loopconv mcp` (which runs the `loopconv-mcp` beside `loopconv`) answers
# an MCP handshake, lists its tools and checks a loop from the wheel (`loopconv`, `python -m
# loopconv`, uvx), the npm packages and the release archive. Every step fails the script;
# nothing is skipped.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
built=0
if [ "${1:-}" = --built ]; then built=1; shift; fi
[ $# -eq 1 ] || { echo "usage: scripts/test-packages.sh [--built] DIST" >&2; exit 2; }
mkdir -p "$1"
DIST=$(cd "$1" && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

step() { printf '\n--> %s\n' "$*"; }
fail() { echo "test-packages: FAIL: $*" >&2; exit 1; }

# Runs "$@" and fails unless it exits with $want; its output is kept in $WORK/out.
expect_exit() {
  local want=$1 code=0
  shift
  "$@" >"$WORK/out" 2>&1 || code=$?
  if [ "$code" -ne "$want" ]; then
    cat "$WORK/out"
    fail "exit $code, wanted $want: $*"
  fi
}
expect_output() { grep -q -- "$1" "$WORK/out" || { cat "$WORK/out"; fail "no '$1' in the output"; }; }

# PATH without the folders that hold cargo (rustup's bin folder), checked.
path_without_cargo() {
  local dir out=""
  local IFS=:
  for dir in $PATH; do
    [ -n "$dir" ] && [ ! -e "$dir/cargo" ] && out="${out:+$out:}$dir"
  done
  printf '%s\n' "$out"
}
NOCARGO=$(path_without_cargo)
if PATH=$NOCARGO command -v cargo >/dev/null; then fail "cargo is still on the reduced PATH"; fi
for tool in python3 node npm npx git pre-commit uvx; do
  PATH=$NOCARGO command -v "$tool" >/dev/null || fail "$tool is not on PATH without cargo"
done

if [ "$built" = 1 ]; then
  step "the packages scripts/package.sh built in $DIST"
else
  step "scripts/package.sh $DIST"
  rm -rf "${DIST:?}"/*
  bash "$ROOT/scripts/package.sh" "$DIST"
fi
VERSION=$(bash "$ROOT/scripts/package.sh" --version)
TARGET=$(rustc -vV | sed -n 's/^host: //p')
NPM_PLATFORM=$(awk -F'\t' -v t="$TARGET" '$1 == t { print $2 }' "$ROOT/npm/platforms.tsv")
NPM_PLATFORM_TGZ="$DIST/$(printf '%s' "$NPM_PLATFORM" | sed 's/^@//; s#/#-#')-$VERSION.tgz"
for f in "$DIST"/loopconv-"$VERSION"-*.whl "$DIST/loopconv-$VERSION.tar.gz" \
  "$DIST/loopconv-$VERSION.tgz" "$NPM_PLATFORM_TGZ" "$DIST/loopconv-$TARGET.tar.gz"; do
  [ -f "$f" ] || fail "package.sh did not write $f"
done
(cd "$DIST" && sha256sum -c "loopconv-$TARGET.tar.gz.sha256") || fail "archive checksum"
# Listed first: `grep -q` stops at the first match, and tar, still writing, would fail.
tar -tzf "$DIST/loopconv-$TARGET.tar.gz" >"$WORK/archive-list"
for exe in loopconv loopconv-mcp; do
  grep -qx "loopconv-$TARGET/$exe" "$WORK/archive-list" ||
    fail "the archive has no loopconv-$TARGET/$exe (the path of [package.metadata.binstall])"
done

# An MCP session with COMMAND... (`loopconv mcp` as a package installs it), in the
# current folder: the initialize handshake, the tool list, and `check` of a loop of
# examples/; then standard input is closed and the server must exit 0.
cat >"$WORK/mcp_session.py" <<'PY'
import json, signal, subprocess, sys
signal.alarm(120)
p = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
def send(m):
    p.stdin.write(json.dumps(m) + "\n")
    p.stdin.flush()
def read():
    line = p.stdout.readline()
    if not line:
        sys.exit(f"the server closed its output (exit {p.wait()})")
    return json.loads(line)
send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {},
    "clientInfo": {"name": "test-packages", "version": "1"}}})
init = read()
assert init["result"]["serverInfo"]["name"] == "loopconv", init
send({"jsonrpc": "2.0", "method": "notifications/initialized"})
send({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
tools = [t["name"] for t in read()["result"]["tools"]]
assert "check" in tools and "graph" in tools, tools
send({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
    "name": "check", "arguments": {"path": "examples/agentpm/react-loop.json"}}})
checked = read()["result"]
assert checked["isError"] is False and checked["structuredContent"]["ok"], checked
p.stdin.close()
code = p.wait()
assert code == 0, f"exit {code}"
print(f"mcp session: {len(tools)} tools, check ok, exit 0")
PY
mcp_session() { expect_exit 0 python3 "$WORK/mcp_session.py" "$@"; expect_output "mcp session: "; }

# A copy of the examples, so that nothing runs in the repository.
cp -r "$ROOT/examples" "$WORK/examples"
BROKEN=examples/invalid/V006-unknown-entry-phase.json
GOOD=examples/agentpm/react-loop.json

step "pip: fresh virtual environment, no index, no cargo"
PATH=$NOCARGO python3 -m venv "$WORK/venv"
PATH=$NOCARGO "$WORK/venv/bin/python" -m pip install --quiet --disable-pip-version-check \
  --no-index --find-links "$DIST" loopconv
VENV_PATH="$WORK/venv/bin:$NOCARGO"
cd "$WORK"
expect_exit 0 env PATH="$VENV_PATH" loopconv check examples
expect_exit 0 env PATH="$VENV_PATH" python -m loopconv --version
expect_output "loopconv $VERSION"
expect_exit 1 env PATH="$VENV_PATH" python -m loopconv check --color never "$BROKEN"
expect_output V006
expect_exit 0 env PATH="$VENV_PATH" python -c 'import loopconv, os; assert os.path.isfile(loopconv.find_loopconv_bin())'
[ -x "$WORK/venv/bin/loopconv-mcp" ] || fail "the wheel installed no loopconv-mcp"
mcp_session env PATH="$VENV_PATH" loopconv mcp
mcp_session env PATH="$VENV_PATH" python -m loopconv mcp
echo "ok: loopconv $VERSION from the wheel, python -m loopconv, exit codes, loopconv mcp"

step "uvx: run the wheel without installing it, no index, no cargo"
expect_exit 0 env PATH="$NOCARGO" UV_CACHE_DIR="$WORK/uv-cache" UV_TOOL_DIR="$WORK/uv-tools" \
  uvx --offline --no-index --find-links "$DIST" loopconv --version
expect_output "loopconv $VERSION"
mcp_session env PATH="$NOCARGO" UV_CACHE_DIR="$WORK/uv-cache" UV_TOOL_DIR="$WORK/uv-tools" \
  uvx --offline --no-index --find-links "$DIST" loopconv mcp
echo "ok: uvx loopconv, uvx loopconv mcp"

step "pre-commit: the language: python hooks from a built wheel, no index, no cargo"
# The hook repository: this work tree as it is (committed or not), in a git repository of
# its own, so that pre-commit clones what is being tested.
HOOKS="$WORK/hooks-repo"
mkdir -p "$HOOKS"
(cd "$ROOT" && git ls-files -z --cached --others --exclude-standard |
  xargs -0 -I{} sh -c '[ -e "{}" ] && cp --parents "{}" "$0"' "$HOOKS")
git_q() { git -C "$1" -c user.name=t -c user.email=t@example.com "${@:2}"; }
git_q "$HOOKS" init -q
git_q "$HOOKS" add -A
git_q "$HOOKS" commit -q -m hooks
REV=$(git -C "$HOOKS" rev-parse HEAD)
USER_REPO="$WORK/user-repo"
mkdir -p "$USER_REPO/loops"
git_q "$USER_REPO" init -q
cat >"$USER_REPO/.pre-commit-config.yaml" <<YAML
repos:
  - repo: $HOOKS
    rev: $REV
    hooks:
      - id: loopconv-check
        files: ^loops/
      - id: loopconv-docs
        args: [loops, -o, docs]
YAML
cp "$ROOT/$BROKEN" "$USER_REPO/loops/loop.json"
git_q "$USER_REPO" add -A
pre_commit() {
  (cd "$USER_REPO" && env PATH="$NOCARGO" PIP_FIND_LINKS="$DIST" PIP_NO_INDEX=1 \
    PRE_COMMIT_HOME="$WORK/pre-commit-home" pre-commit run --all-files --color never)
}
expect_exit 1 pre_commit
expect_output V006
cp "$ROOT/$GOOD" "$USER_REPO/loops/loop.json"
(cd "$USER_REPO" && PATH="$VENV_PATH" loopconv docs loops -o docs >/dev/null)
git_q "$USER_REPO" add -A
expect_exit 0 pre_commit
expect_output "loopconv check"
# The hooks ran the wheel's binary, installed by the placeholder's requirement.
ls "$WORK"/pre-commit-home/repo*/py_env-*/bin/loopconv >/dev/null 2>&1 ||
  fail "no loopconv binary in pre-commit's environment"
echo "ok: pre-commit fails on the broken loop, passes on the fixed one"

step "npm: install of the packed tarballs (offline), npx, no cargo"
NPM_PROJECT="$WORK/npm-project"
mkdir -p "$NPM_PROJECT"
cd "$NPM_PROJECT"
printf '{"name": "npm-project", "version": "1.0.0", "private": true}\n' >package.json
PATH=$NOCARGO npm install --offline --no-audit --no-fund --cache "$WORK/npm-cache" \
  "$DIST/loopconv-$VERSION.tgz" "$NPM_PLATFORM_TGZ" >"$WORK/out" 2>&1 ||
  { cat "$WORK/out"; fail "npm install"; }
[ -e node_modules/.bin/loopconv ] || fail "npm installed no loopconv command"
cp -r "$WORK/examples" examples
expect_exit 0 env PATH="$NOCARGO" npx --offline loopconv check examples
expect_exit 0 env PATH="$NOCARGO" npx --offline loopconv --version
expect_output "loopconv $VERSION"
expect_exit 1 env PATH="$NOCARGO" npx --offline loopconv check --color never "$BROKEN"
expect_output V006
printf '#!/bin/sh\necho "override $*"\nexit 3\n' >"$WORK/fake-loopconv"
chmod +x "$WORK/fake-loopconv"
expect_exit 3 env PATH="$NOCARGO" LOOPCONV_BINARY="$WORK/fake-loopconv" npx --offline loopconv check x
expect_output "override check x"
# The language server through the shim: stdin and stdout reach the binary unchanged.
lsp_session() {
  local msg
  for msg in '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"rootUri":null,"capabilities":{}}}' \
    '{"jsonrpc":"2.0","method":"initialized","params":{}}' \
    '{"jsonrpc":"2.0","id":2,"method":"shutdown","params":null}' \
    '{"jsonrpc":"2.0","method":"exit","params":null}'; do
    printf 'Content-Length: %d\r\n\r\n%s' "${#msg}" "$msg"
  done
}
lsp_session >"$WORK/lsp-in"
expect_exit 0 env PATH="$NOCARGO" sh -c 'npx --offline loopconv lsp <"$1"' sh "$WORK/lsp-in"
expect_output '"capabilities"'
expect_output '"id":2'
mcp_session env PATH="$NOCARGO" npx --offline loopconv mcp
echo "ok: npx loopconv from the tarballs, exit codes, LOOPCONV_BINARY, loopconv lsp, loopconv mcp"

step "the release archive: loopconv mcp runs the loopconv-mcp beside it"
mkdir -p "$WORK/archive"
tar -C "$WORK/archive" -xzf "$DIST/loopconv-$TARGET.tar.gz"
cd "$WORK"
mcp_session env PATH="$NOCARGO" "$WORK/archive/loopconv-$TARGET/loopconv" mcp
echo "ok: loopconv mcp from the archive"

step "the GitHub Action's script: install from DIST, check, SARIF, docs"
export RUNNER_TEMP="$WORK/runner-temp" GITHUB_PATH="$WORK/github-path" GITHUB_OUTPUT="$WORK/github-output"
mkdir -p "$RUNNER_TEMP"
: >"$GITHUB_PATH"
: >"$GITHUB_OUTPUT"
cd "$WORK"
action() { env PATH="$ACTION_PATH" PIP_NO_INDEX=1 PIP_FIND_LINKS="$DIST" "$@" bash "$ROOT/scripts/action.sh" "${ACTION_STEP:?}"; }
ACTION_PATH=$NOCARGO ACTION_STEP=install expect_exit 0 action
expect_output "loopconv $VERSION"
ACTION_PATH="$(cat "$GITHUB_PATH"):$NOCARGO"
ACTION_STEP=check expect_exit 0 action LOOPCONV_PATHS="examples/agentpm examples/mas"
ACTION_STEP=check expect_exit 1 action LOOPCONV_PATHS="examples/agentpm $BROKEN"
expect_output "::error file=$BROKEN,line="
ACTION_STEP=sarif expect_exit 0 action LOOPCONV_PATHS="$BROKEN"
grep -q "^sarif-file=$RUNNER_TEMP/loopconv.sarif$" "$GITHUB_OUTPUT" || fail "no sarif-file output"
python3 -c 'import json,sys; log=json.load(open(sys.argv[1])); assert log["version"] == "2.1.0"; assert any(r["ruleId"] == "V006" for r in log["runs"][0]["results"])' \
  "$RUNNER_TEMP/loopconv.sarif" || fail "the SARIF log has no V006 result"
mkdir -p "$WORK/action-loops" && cp "$ROOT/$GOOD" "$WORK/action-loops/"
ACTION_STEP=docs expect_exit 1 action LOOPCONV_DOCS="action-loops -o action-docs"
(PATH="$ACTION_PATH" loopconv docs action-loops -o action-docs >/dev/null)
ACTION_STEP=docs expect_exit 0 action LOOPCONV_DOCS="action-loops -o action-docs"
echo "ok: the action's install, check (annotations), SARIF and docs steps"

step "the sdist builds a working wheel (pip and maturin's PEP 517 backend, as a user would)"
# In Cargo's target folder of this repository, so that the registry dependencies the
# wheel's release build compiled are reused. The sdist's files are touched: Cargo compiles
# the crate again from them, instead of finding them older than its last build.
TARGET_DIR=$(cd "$ROOT" && cargo metadata --format-version 1 --no-deps --offline |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
mkdir -p "$WORK/sdist"
tar -C "$WORK/sdist" -xzf "$DIST/loopconv-$VERSION.tar.gz"
find "$WORK/sdist" -type f -exec touch {} +
CARGO_TARGET_DIR=$TARGET_DIR python3 -m pip wheel -v --disable-pip-version-check --no-deps \
  --no-index --no-build-isolation --wheel-dir "$WORK/from-sdist" \
  "$WORK/sdist/loopconv-$VERSION" >"$WORK/out" 2>&1 || { cat "$WORK/out"; fail "the sdist does not build"; }
expect_output "Compiling loopconv v$VERSION ($WORK/sdist/loopconv-$VERSION)"
BIN=$(bash "$ROOT/scripts/package.sh" --binary-from-wheel "$WORK"/from-sdist/loopconv-*.whl "$WORK/from-sdist")
expect_exit 0 "$BIN" check "$WORK/examples"
expect_exit 0 "$BIN" --version
expect_output "loopconv $VERSION"
mcp_session "$BIN" mcp
echo "ok: the sdist builds"

echo
echo "test-packages: 7 passed, 0 failed"
