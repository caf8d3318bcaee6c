#!/usr/bin/env bash
# Fuzz loopconv with cargo-fuzz (libFuzzer): scripts/fuzz.sh SECONDS [TARGET...]
#
# Runs each target (default: all eight) for SECONDS, one after the other, seeded from
# examples/ and ../shared/corpus (copied into fuzz/corpus/<target>/ at run time; that folder
# is gitignored). Installs cargo-fuzz if it is missing, the version scripts/install-tools.sh
# pins. Builds on the stable toolchain with RUSTC_BOOTSTRAP=1 (cargo-fuzz passes
# nightly-only flags: `-Zsanitizer=address`, whose runtime the stable toolchain ships for
# x86_64 Linux, and the coverage instrumentation libFuzzer reads).
#
# A unit that runs longer than FUZZ_TIMEOUT seconds (default 10) is a finding, as a crash
# is. Under load, raise it: the P006 alias-limit example (a seed) costs about 5 s of CPU per
# unit of `check` under AddressSanitizer (it loads the input 16 times), 20 s on a machine
# at a load of 12 on 2 cores, where `check` and `lsp` stopped on it at 10 s.
#
# Exits non-zero when a target crashes; the crashing input is left in
# fuzz/artifacts/<target>/. Turn it into a regression file under tests/regressions/.
# Each target's last libFuzzer status line (exec count, coverage) is printed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."

secs=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(json_front yaml_front check graph roundtrip report lsp workspace)

export RUSTC_BOOTSTRAP=1
version=$(sed -n 's/^CARGO_FUZZ_VERSION=//p' scripts/install-tools.sh)
if ! cargo fuzz --version 2>/dev/null | grep -qx "cargo-fuzz $version"; then
  echo "==> installing cargo-fuzz $version"
  cargo install cargo-fuzz --locked --version "$version"
fi

echo "==> building fuzz targets"
(cd fuzz && cargo fuzz build)

seed() {
  local dir="fuzz/corpus/$1"
  shift
  mkdir -p "$dir"
  local src f
  for src in examples ../shared/corpus tests/regressions; do
    [ -d "$src" ] || continue
    while IFS= read -r -d '' f; do
      case "$f" in
        *.json | *.yaml | *.yml | *.txt | *.bin) ;;
        *) continue ;;
      esac
      local keep=0 ext
      for ext in "$@"; do
        if [[ "$f" == *"$ext" ]]; then keep=1; fi
      done
      if [ "$keep" = 1 ]; then
        cp -f "$f" "$dir/seed-$(echo "$f" | tr '/.' '__')"
      fi
    done < <(find "$src" -type f -print0)
  done
  return 0
}

status=0
summary=()
for t in "${targets[@]}"; do
  case "$t" in
    json_front) seed "$t" .json .bin ;;
    yaml_front) seed "$t" .yaml .yml .bin ;;
    *) seed "$t" .json .yaml .yml .bin ;;
  esac
  log="fuzz/$t.log"
  echo "==> fuzzing $t for ${secs}s (log: $log)"
  start=$(date +%s)
  if (cd fuzz && cargo fuzz run "$t" -- -max_total_time="$secs" -max_len=65536 \
        -timeout="${FUZZ_TIMEOUT:-10}" -rss_limit_mb=4096 -print_final_stats=1) >"$log" 2>&1; then
    result=ok
  else
    result=CRASH
    status=1
    grep -E "panicked|ERROR|SUMMARY|Test unit written|Base64" "$log" | head -20 || true
  fi
  took=$(( $(date +%s) - start ))
  execs=$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -Eo '[0-9]+$' | tail -1 || true)
  last=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
  summary+=("$t: $result, ${took}s, ${execs:-?} execs | $last")
done

echo
echo "==> summary"
printf '%s\n' "${summary[@]}"
exit "$status"
