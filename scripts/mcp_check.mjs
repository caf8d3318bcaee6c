// The MCP server through a second client: the official TypeScript SDK's
// (`@modelcontextprotocol/client`, pinned in tools/package.json), which validates every
// structured result against the tool's output schema. Run by tests/suite/cli/mcp.rs:
//   node scripts/mcp_check.mjs path/to/loopconv
// from the repository's root (the server's working directory, its root when the client
// announces none).
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import assert from "node:assert/strict";

const require = createRequire(new URL("../tools/package.json", import.meta.url));
const { Client } = await import(require.resolve("@modelcontextprotocol/client"));
const { StdioClientTransport } = await import(require.resolve("@modelcontextprotocol/client/stdio"));

const loopconv = process.argv[2];
const ok = (what) => console.log(`ok: ${what}`);
const cli = (...args) => {
  try {
    return JSON.parse(execFileSync(loopconv, args, { encoding: "utf8" }));
  } catch (e) {
    return JSON.parse(e.stdout);
  }
};

const client = new Client({ name: "loopconv-check", version: "1.0.0" });
await client.connect(new StdioClientTransport({ command: loopconv, args: ["mcp"], stderr: "inherit" }));
ok(`initialize (${client.getServerVersion().name})`);

const { tools } = await client.listTools();
assert.equal(tools.length, 10);
for (const t of tools) assert.equal(t.outputSchema?.type, "object", t.name);
ok(`${tools.length} tools, each with an output schema`);

const broken = "examples/invalid/V009-unknown-transition-target.json";
const r = await client.callTool({ name: "check", arguments: { path: broken } });
assert.equal(r.isError, true);
assert.deepEqual(r.structuredContent.diagnostics, cli("check", "--format", "json", broken));
ok("check of a broken loop: isError, the diagnostics of `check --format json`, valid against the output schema");

const good = "examples/agentpm/code-review-sign-off.json";
const g = await client.callTool({ name: "graph", arguments: { path: good, language: "dot" } });
assert.equal(g.isError ?? false, false);
assert.match(g.structuredContent.diagram, /^digraph /);
ok("graph: DOT");

const bad = await client.callTool({ name: "graph", arguments: { path: good, colour: "red" } });
assert.equal(bad.isError, true);
assert.match(bad.content[0].text, /unknown argument `colour`/);
ok("bad arguments: a tool error, and the session goes on");

const calls = Array.from({ length: 50 }, (_, i) =>
  client.callTool({ name: "check", arguments: { path: i % 2 ? good : broken } }));
const answers = await Promise.all(calls);
assert.equal(answers.filter((a) => a.isError).length, 25);
ok("50 concurrent calls, all answered");

await client.close();
console.log("all checks passed");
