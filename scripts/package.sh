#!/usr/bin/env bash
# Build every package of loopconv for this machine into DIR:
#   scripts/package.sh DIR
# writes the wheel (maturin, python/pyproject.toml), the sdist, the npm package `loopconv`
# and this platform's npm package (@loopconv/cli-..., with the wheel's binary in it), and
# the release archive of this platform with its checksum. One release build: the wheel's.
# Every package holds both executables: `loopconv`, and `loopconv-mcp` beside it (the MCP
# server, which `loopconv mcp` runs from its own folder).
#
# The release workflow builds the other platforms' wheels and uses the pieces:
#   scripts/package.sh --npm-main DIR
#   scripts/package.sh --npm-platform BINARY TARGET DIR
#   scripts/package.sh --archive BINARY TARGET DIR
#   scripts/package.sh --binary-from-wheel WHEEL DIR     (prints the binary's path)
# where BINARY is the path of `loopconv`, with `loopconv-mcp` beside it (as
# --binary-from-wheel extracts them).
#   scripts/package.sh --version                         (Cargo.toml's, the only one)
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

die() { echo "package.sh: $*" >&2; exit 1; }

# python3, or python where there is no python3 (Windows runners).
PYTHON=$(command -v python3 || command -v python) || die "no python3 on PATH"

# Cargo.toml's version, read the way the pre-commit placeholder reads it.
cargo_version() {
  "$PYTHON" -c 'import sys; sys.path.insert(0, sys.argv[1]); import placeholder_backend as b; print(b.cargo_version(sys.argv[2]))' \
    "$ROOT/python" "$ROOT/Cargo.toml"
}

# One row of npm/platforms.tsv by Rust target: "package os cpu libc".
platform_row() {
  awk -F'\t' -v t="$1" '$1 == t { print $2, $3, $4, $5; found = 1 } END { exit !found }' \
    "$ROOT/npm/platforms.tsv" || die "no npm package for target $1 in npm/platforms.tsv"
}

abs_dir() { mkdir -p "$1" && (cd "$1" && pwd); }

build_wheel() {
  (cd "$ROOT/python" && maturin build --profile dist --locked --out "$1")
}

# maturin first looks for a Cargo.toml in python/ and says "error: manifest path
# `Cargo.toml` does not exist", then builds from pyproject.toml's manifest-path: harmless.
build_sdist() {
  (cd "$ROOT/python" && maturin sdist --out "$1")
}

# The executables inside a wheel (its .data/scripts/: loopconv and loopconv-mcp),
# extracted into DIR; prints the path of loopconv.
binary_from_wheel() {
  "$PYTHON" - "$1" "$2" <<'PY'
import os, sys, zipfile
wheel, out = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(wheel) as z:
    scripts = [n for n in z.namelist() if ".data/scripts/" in n]
    found = {}
    for name in ("loopconv", "loopconv-mcp"):
        names = [n for n in scripts if os.path.basename(n) in (name, name + ".exe")]
        if len(names) != 1:
            sys.exit(f"expected one {name} executable in {wheel}, found {names}")
        path = os.path.join(out, os.path.basename(names[0]))
        with z.open(names[0]) as src, open(path, "wb") as dst:
            dst.write(src.read())
        os.chmod(path, 0o755)
        found[name] = path
    print(found["loopconv"].replace(os.sep, "/"))
PY
}

# The MCP server's executable beside loopconv's at $1 (loopconv-mcp[.exe]); fails when
# it is missing.
server_beside() {
  local bin=$1 dir ext=""
  dir=$(dirname "$bin")
  case "$bin" in *.exe) ext=.exe ;; esac
  [ -f "$dir/loopconv-mcp$ext" ] || die "no loopconv-mcp$ext beside $bin (the MCP server ships with loopconv)"
  printf '%s\n' "$dir/loopconv-mcp$ext"
}

npm_main() {
  local want have
  want=$(cargo_version)
  have=$(node -p 'require(process.argv[1]).version' "$ROOT/npm/loopconv/package.json")
  [ "$want" = "$have" ] || die "npm/loopconv/package.json has version $have, Cargo.toml $want"
  (cd "$ROOT/npm/loopconv" && npm pack --silent --pack-destination "$1" >/dev/null)
}

# The platform package of TARGET around BINARY (and loopconv-mcp beside it), packed into
# DIR.
npm_platform() {
  local bin=$1 target=$2 out=$3 pkg os cpu libc version stage server ext=""
  read -r pkg os cpu libc < <(platform_row "$target")
  version=$(cargo_version)
  server=$(server_beside "$bin")
  case "$target" in *windows*) ext=.exe ;; esac
  stage=$(mktemp -d)
  mkdir -p "$stage/bin"
  cp "$bin" "$stage/bin/loopconv$ext"
  cp "$server" "$stage/bin/loopconv-mcp$ext"
  chmod 755 "$stage/bin/loopconv$ext" "$stage/bin/loopconv-mcp$ext"
  node - "$stage/package.json" "$pkg" "$version" "$os" "$cpu" "$libc" "$target" "$ext" <<'JS'
const [file, name, version, os, cpu, libc, target, ext] = process.argv.slice(2);
const pkg = {
  name, version,
  description: `The loopconv binary for ${target}; install the package loopconv, which runs it`,
  license: "MIT OR Apache-2.0",
  repository: { type: "git", url: "git+https://github.com/loopconv/loopconv.git" },
  os: [os], cpu: [cpu],
  ...(libc === "-" ? {} : { libc: [libc] }),
  files: [`bin/loopconv${ext}`, `bin/loopconv-mcp${ext}`],
  preferUnplugged: true,
};
require("node:fs").writeFileSync(file, JSON.stringify(pkg, null, 2) + "\n");
JS
  (cd "$stage" && npm pack --silent --pack-destination "$out" >/dev/null)
  rm -rf "$stage"
}

# loopconv-TARGET.tar.gz (.zip on Windows) with loopconv-TARGET/loopconv[.exe],
# loopconv-TARGET/loopconv-mcp[.exe] and the README, and its .sha256 beside it: the
# archives `cargo binstall` downloads.
archive() {
  local bin=$1 target=$2 out=$3 name="loopconv-$2" stage server ext=""
  server=$(server_beside "$bin")
  case "$target" in *windows*) ext=.exe ;; esac
  stage=$(mktemp -d)
  mkdir -p "$stage/$name"
  cp "$bin" "$stage/$name/loopconv$ext"
  cp "$server" "$stage/$name/loopconv-mcp$ext"
  cp "$ROOT/README.md" "$stage/$name/"
  case "$target" in
    *windows*) (cd "$stage" && "$PYTHON" -m zipfile -c "$out/$name.zip" "$name") ; file="$name.zip" ;;
    *) tar -C "$stage" -czf "$out/$name.tar.gz" "$name" ; file="$name.tar.gz" ;;
  esac
  (cd "$out" && "$PYTHON" -c 'import hashlib,sys; f=sys.argv[1]; print(hashlib.sha256(open(f,"rb").read()).hexdigest() + "  " + f)' "$file" > "$file.sha256")
  rm -rf "$stage"
}

host_target() { rustc -vV | sed -n 's/^host: //p'; }

all() {
  local out wheel tmp bin target
  out=$(abs_dir "$1")
  build_wheel "$out"
  build_sdist "$out"
  wheel=$(ls -t "$out"/loopconv-*.whl | head -1)
  tmp=$(mktemp -d)
  bin=$(binary_from_wheel "$wheel" "$tmp")
  target=$(host_target)
  npm_main "$out"
  npm_platform "$bin" "$target" "$out"
  archive "$bin" "$target" "$out"
  rm -rf "$tmp"
  echo "packages of loopconv $(cargo_version) for $target in $out:"
  ls -1 "$out"
}

case "${1:-}" in
  --version) cargo_version ;;
  --npm-main) npm_main "$(abs_dir "$2")" ;;
  --npm-platform) npm_platform "$2" "$3" "$(abs_dir "$4")" ;;
  --archive) archive "$2" "$3" "$(abs_dir "$4")" ;;
  --binary-from-wheel) binary_from_wheel "$2" "$(abs_dir "$3")" ;;
  ""|-*) die "usage: scripts/package.sh DIR (or one of the options in its header)" ;;
  *) all "$1" ;;
esac
