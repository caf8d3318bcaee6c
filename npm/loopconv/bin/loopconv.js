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

function binaryPath() {
  if (process.env.LOOPCONV_BINARY) {
    return process.env.LOOPCONV_BINARY;
  }
  const pkg = platformPackage();
  const exe = process.platform === "win32" ? "loopconv.exe" : "loopconv";
  try {
    return require.resolve(`${pkg}/bin/${exe}`);
  } catch {
    process.stderr.write(
      `loopconv: the package ${pkg} is not installed, so there is no binary for this ` +
        `platform (${process.platform} ${process.arch}).\n` +
        "  Reinstall without --no-optional / --omit=optional, or set LOOPCONV_BINARY to " +
        "a loopconv binary (pip install loopconv, cargo install loopconv).\n",
    );
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
