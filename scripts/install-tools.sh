#!/usr/bin/env bash
# Install the real renderers that scripts/conformance.sh uses, and the tools of the
# code-scanning, pre-commit and man-page tests (at the end):
#   apt-get update && apt-get install -y graphviz chromium plantuml
#                                             (skipped when all three exist)
#   cd tools && PUPPETEER_SKIP_DOWNLOAD=1 npm ci                 (mermaid-cli, pinned)
#   apt-get install -y neovim                  (skipped when nvim exists; tests/suite/lsp/nvim.rs)
# mermaid-cli drives Debian's /usr/bin/chromium through tools/puppeteer.json.
set -euo pipefail
# shellcheck source=scripts/conformance.sh
source "$(dirname "${BASH_SOURCE[0]}")/conformance.sh"
install_tools

# The tools of the code-scanning, pre-commit and shell-integration tests:
#   Microsoft's SARIF Multitool comes with `npm ci` above (tools/package.json, pinned);
#   pre-commit (PyPI, pinned) for tests/suite/cli/precommit.rs;
#   man-db and groff for tests/suite/cli/shell.rs (`man -l` of `loopconv man`).
PRE_COMMIT_VERSION=4.7.0
if ! pre-commit --version 2>/dev/null | grep -qx "pre-commit $PRE_COMMIT_VERSION"; then
    python3 -m pip install --quiet "pre-commit==$PRE_COMMIT_VERSION" ||
        python3 -m pip install --quiet --break-system-packages "pre-commit==$PRE_COMMIT_VERSION"
fi
if ! command -v man >/dev/null || ! command -v groff >/dev/null; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update
    apt-get install -y man-db groff
fi
