#!/usr/bin/env bash
# Install the real renderers that scripts/conformance.sh uses:
#   apt-get update && apt-get install -y graphviz chromium plantuml
#                                             (skipped when all three exist)
#   cd tools && PUPPETEER_SKIP_DOWNLOAD=1 npm ci                 (mermaid-cli, pinned)
#   apt-get install -y neovim                  (skipped when nvim exists; tests/nvim.rs)
# mermaid-cli drives Debian's /usr/bin/chromium through tools/puppeteer.json.
set -euo pipefail
# shellcheck source=scripts/conformance.sh
source "$(dirname "${BASH_SOURCE[0]}")/conformance.sh"
install_tools
