#!/usr/bin/env bash
# The steps of the GitHub Action (action.yml at the repository's root), one subcommand each:
#   action.sh version   the version to install: $LOOPCONV_VERSION, or this checkout's
#                       Cargo.toml's (the action's own tag)
#   action.sh install   pip install loopconv==VERSION into a fresh virtual environment in
#                       $RUNNER_TEMP and put its bin folder on $GITHUB_PATH (pip's own
#                       variables apply: PIP_INDEX_URL, PIP_FIND_LINKS, PIP_NO_INDEX)
#   action.sh sarif     loopconv check --skip-unknown --format sarif $LOOPCONV_PATHS into
#                       $RUNNER_TEMP/loopconv.sarif; `sarif-file` on $GITHUB_OUTPUT
#   action.sh check     loopconv check --skip-unknown --format github $LOOPCONV_PATHS (annotations)
#   action.sh docs      loopconv docs --check $LOOPCONV_DOCS
# Exit codes are loopconv's: 1 for problems found, 2 for a usage or I/O error. CI runs
# this script (scripts/test-packages.sh) with a locally built wheel.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

die() { echo "::error title=loopconv action::$*" >&2; exit 2; }

version() {
  if [ -n "${LOOPCONV_VERSION:-}" ]; then
    printf '%s\n' "$LOOPCONV_VERSION"
  else
    bash "$HERE/scripts/package.sh" --version
  fi
}

python_cmd() {
  local p
  for p in python3 python; do
    if command -v "$p" >/dev/null; then printf '%s\n' "$p"; return; fi
  done
  die "no python3 on PATH (add actions/setup-python before this action)"
}

install() {
  : "${RUNNER_TEMP:?RUNNER_TEMP is not set}" "${GITHUB_PATH:?GITHUB_PATH is not set}"
  local v venv bin
  v=$(version)
  venv="$RUNNER_TEMP/loopconv-venv"
  "$(python_cmd)" -m venv "$venv"
  bin="$venv/bin"
  [ -d "$bin" ] || bin="$venv/Scripts"   # Windows
  "$bin/python" -m pip install --quiet --disable-pip-version-check "loopconv==$v"
  "$bin/loopconv" --version
  printf '%s\n' "$bin" >> "$GITHUB_PATH"
}

# WORDS: $1 split on spaces into the array WORDS (word splitting on purpose, no
# globbing; bash 3.2 of macOS has no mapfile).
split_words() {
  set -f
  # shellcheck disable=SC2206
  WORDS=($1)
  set +f
}

sarif() {
  : "${RUNNER_TEMP:?RUNNER_TEMP is not set}" "${GITHUB_OUTPUT:?GITHUB_OUTPUT is not set}"
  local file="$RUNNER_TEMP/loopconv.sarif" code=0
  split_words "${LOOPCONV_PATHS:-.}"
  loopconv check --skip-unknown --format sarif "${WORDS[@]}" > "$file" || code=$?
  # Problems found (1) still give a log to upload; a usage or I/O error (2) does not.
  [ "$code" -le 1 ] || exit "$code"
  printf 'sarif-file=%s\n' "$file" >> "$GITHUB_OUTPUT"
}

check() {
  split_words "${LOOPCONV_PATHS:-.}"
  loopconv check --skip-unknown --format github "${WORDS[@]}"
}

docs() {
  split_words "${LOOPCONV_DOCS:?LOOPCONV_DOCS is empty}"
  loopconv docs --check "${WORDS[@]}"
}

case "${1:-}" in
  version | install | sarif | check | docs) "$1" ;;
  *) die "usage: action.sh version|install|sarif|check|docs" ;;
esac
