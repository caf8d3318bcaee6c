#!/usr/bin/env bash
# Helpers of .ci/run, in a file of their own so that tests/suite/cli/ci.rs can call them.

# The release binary's path: under the target folder Cargo really uses, which honours
# CARGO_TARGET_DIR and `build.target-dir` (CI caches often move it), not `target/`.
loopconv_bin() {
  local dir
  dir=$(cargo metadata --format-version 1 --no-deps --offline 2>/dev/null \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])') \
    || dir=${CARGO_TARGET_DIR:-target}
  printf '%s/release/loopconv\n' "$dir"
}

# Fail with a clear message when the binary is not where it should be.
require_bin() {
  if [ ! -x "$1" ]; then
    echo "error: no loopconv binary at $1 (did \`cargo build --release\` fail?)" >&2
    return 1
  fi
}
