#!/usr/bin/env node
// Runs the loopconv binary of this platform's package (@loopconv/cli-OS-CPU[-LIBC], an
// optional dependency that npm installed because its os, cpu and libc match), or the one
// LOOPCONV_BINARY names, with this process's arguments, streams and exit code.
"use strict";

const { spawnSync } = require("node:child_process");

function isMusl() {
  try {
    return !process.report.getReport().header.glibcVersionRuntime;
  } catch {
    return false;
  }
}

function platformPackage() {
  const { platform, arch } = process;
  if (platform === "linux") {
    return `@loopconv/cli-linux-${arch}-${isMusl() ? "musl" : "gnu"}`;
  }
  return `@loopconv/cli-${platform}-${arch}`;
}

// Why there is no binary, named by its cause: a platform loopconv ships no package for
// (no optional dependency would ever match), or a package npm did not install (optional
// dependencies omitted, or an install copied from another platform).
function missingBinary(pkg) {
  let shipped = [];
  try {
    shipped = Object.keys(require("../package.json").optionalDependencies || {});
  } catch {
    // The list is unknown: say what can be said without it.
  }
  const where = `${process.platform} ${process.arch}${process.platform === "linux" ? (isMusl() ? " musl" : " glibc") : ""}`;
  if (shipped.length > 0 && !shipped.includes(pkg)) {
    return (
      `loopconv: there is no prebuilt loopconv for this platform (${where}); the npm ` +
      `package ships ${shipped.map((p) => p.replace("@loopconv/cli-", "")).join(", ")}.\n` +
      "  Build it (cargo install --locked loopconv, Rust 1.89 or newer) and set " +
      "LOOPCONV_BINARY to the binary.\n"
    );
  }
  return (
    `loopconv: the package ${pkg}, which holds the binary for this platform (${where}), ` +
    "is not installed: npm leaves optional dependencies out with --no-optional, " +
    "--omit=optional or `optional=false`, and node_modules copied from another platform " +
    "holds another platform's package.\n" +
    "  Reinstall here without those options, or set LOOPCONV_BINARY to a loopconv binary.\n"
  );
}

function binaryPath() {
  const fromEnv = process.env.LOOPCONV_BINARY;
  if (fromEnv) {
    if (!require("node:fs").existsSync(fromEnv)) {
      process.stderr.write(`loopconv: LOOPCONV_BINARY is ${fromEnv}, which does not exist.\n`);
      process.exit(2);
    }
    return fromEnv;
  }
  const pkg = platformPackage();
  const exe = process.platform === "win32" ? "loopconv.exe" : "loopconv";
  try {
    return require.resolve(`${pkg}/bin/${exe}`);
  } catch {
    process.stderr.write(missingBinary(pkg));
    process.exit(2);
  }
}

function main() {
  const bin = binaryPath();
  const run = spawnSync(bin, process.argv.slice(2), { stdio: "inherit", windowsHide: true });
  if (run.error) {
    process.stderr.write(`loopconv: cannot run ${bin}: ${run.error.message}\n`);
    process.exit(2);
  }
  if (run.signal) {
    process.kill(process.pid, run.signal);
  }
  process.exit(run.status ?? 2);
}

main();
