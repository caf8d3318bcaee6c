#!/usr/bin/env python3
"""Drive `loopconv mcp` with the official MCP Python client (`mcp` from PyPI).

Usage: mcp_check.py LOOPCONV_BINARY

Run from the repository root (the client announces it and a fresh temporary folder as its
roots). Every tool is called on the examples and its structured result compared with the
command line's JSON output; then the failures: a broken loop, bad arguments, a path outside
the roots, a 100 MB text, and 100 calls at once. Prints one `ok: ...` line per check and
exits non-zero on the first failure.
"""

import asyncio
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time

from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client

LOOPCONV = sys.argv[1]
ROOT = pathlib.Path.cwd()

TOOLS = {"check", "explain", "list_codes", "graph", "convert", "paths", "walk", "diff", "schema", "new"}
WRITERS = {"convert", "new"}


def ok(what):
    print(f"ok: {what}", flush=True)


def cli(*args, json_out=True):
    """The command line's output (parsed JSON unless json_out is False)."""
    out = subprocess.run([LOOPCONV, *args], capture_output=True, text=True, cwd=ROOT)
    return json.loads(out.stdout) if json_out else out.stdout


def structured(result, *, error=False):
    assert bool(result.is_error) == error, f"isError {result.is_error}, wanted {error}: {result}"
    assert result.structured_content is not None, result
    return result.structured_content


def refused(result, *words):
    assert result.is_error, result
    text = " ".join(c.text for c in result.content if isinstance(c, types.TextContent))
    for w in words:
        assert w in text, f"{w!r} not in {text!r}"
    return text


async def main():
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="loopconv-mcp-"))
    outside = pathlib.Path(tempfile.mkdtemp(prefix="loopconv-outside-"))
    (outside / "secret.json").write_text("{}")

    logs = []

    async def roots(_context):
        return types.ListRootsResult(
            roots=[types.Root(uri=ROOT.as_uri()), types.Root(uri=tmp.as_uri())]
        )

    params = StdioServerParameters(command=LOOPCONV, args=["mcp"], cwd=str(ROOT))
    async with stdio_client(params) as (read, write):
        async def logged(params):
            logs.append(params)

        async with ClientSession(read, write, list_roots_callback=roots, logging_callback=logged) as s:
            init = await s.initialize()
            assert init.server_info.name == "loopconv", init
            ok(f"initialize ({init.protocol_version})")

            tools = {t.name: t for t in (await s.list_tools()).tools}
            assert set(tools) == TOOLS, sorted(tools)
            for name, t in tools.items():
                assert t.input_schema.get("type") == "object", (name, t.input_schema)
                assert t.output_schema and t.output_schema.get("type") == "object", name
                read_only = bool(t.annotations and t.annotations.read_only_hint)
                assert read_only == (name not in WRITERS), (name, t.annotations)
            ok(f"{len(tools)} tools, each with input and output schemas; readOnlyHint on the read-only ones")

            call = s.call_tool
            good = "examples/agentpm/code-review-sign-off.json"
            mas = "examples/mas/veal-release-gate.yaml"

            # check: a valid loop, a broken one (path and text), a folder.
            r = structured(await call("check", {"path": good}))
            assert r["ok"] and r["files"] == 1 and r["diagnostics"] == cli("check", "--format", "json", good)
            ok("check of a valid loop")
            for broken in sorted((ROOT / "examples/invalid").iterdir())[:12]:
                rel = str(broken.relative_to(ROOT))
                want = cli("check", "--format", "json", rel)
                if not any(d["severity"] == "error" for d in want):
                    continue
                r = structured(await call("check", {"path": rel}), error=True)
                assert r["diagnostics"] == want, (rel, r["diagnostics"], want)
                r = structured(
                    await call("check", {"text": broken.read_text(), "file_name": rel}), error=True
                )
                assert r["diagnostics"] == want, rel
            ok("check of broken loops: the diagnostics of `check --format json`, by path and by text")
            r = structured(await call("check", {"path": "examples/invalid"}), error=True)
            assert r["diagnostics"] == cli("check", "--format", "json", "examples/invalid")
            assert r["files"] > 10
            ok(f"check of a folder ({r['files']} files)")
            # Workspaces: the rules that span files, as `check` finds the workspace around a path.
            spaces = ["examples/workspaces", *sorted(
                str(p.relative_to(ROOT)) for p in (ROOT / "examples/workspaces").rglob("*") if p.suffix in (".json", ".yaml")
            )]
            codes = set()
            for path in spaces:
                want = cli("check", "--format", "json", path)
                failed = any(d["severity"] == "error" for d in want)
                r = structured(await call("check", {"path": path}), error=failed)
                assert r["diagnostics"] == want, (path, r["diagnostics"], want)
                codes |= {d["code"] for d in want}
            assert any(c.startswith("W") for c in codes), codes
            ok(f"check of workspaces and their files ({len(spaces)} paths; {', '.join(sorted(codes))})")

            # explain, list_codes.
            r = structured(await call("explain", {"code": "V012"}))
            assert r["code"] == "V012" and r["text"] == cli("explain", "V012", json_out=False)
            codes = structured(await call("list_codes", {}))["codes"]
            assert any(c["code"] == "V012" for c in codes) and len(codes) > 30
            ok(f"explain and list_codes ({len(codes)} codes)")

            # graph, in each language.
            for lang in ["mermaid", "dot", "plantuml"]:
                r = structured(await call("graph", {"path": good, "language": lang}))
                assert r["diagram"] == cli("graph", "--to", lang, good, json_out=False), lang
            ok("graph: mermaid, dot, plantuml as `loopconv graph`")

            # convert to every target; a lossy one refused, then allowed.
            for to in ["agentpm", "mas", "ir", "xstate", "langgraph"]:
                want = cli("convert", "--to", to, "--allow-lossy", "--actor", "coder", good, json_out=False)
                r = structured(await call("convert", {"path": good, "to": to, "allow_lossy": True, "actor": "coder"}))
                assert r["text"] == want and r["written"] is None, to
            r = structured(await call("convert", {"path": mas, "to": "agentpm"}), error=True)
            assert r["text"] is None and r["losses"] and all(d["severity"] == "error" for d in r["losses"])
            r = structured(await call("convert", {"path": mas, "to": "agentpm", "allow_lossy": True}))
            assert r["text"] and r["losses"] and all(d["severity"] == "warning" for d in r["losses"])
            out = tmp / "converted.yaml"
            r = structured(await call("convert", {"path": good, "to": "mas", "allow_lossy": True, "actor": "coder", "output": str(out)}))
            assert r["written"] == str(out) and out.read_text() == r["text"]
            wrote = [m for m in logs if m.level == "info" and m.data == f"wrote {out}"]
            assert wrote and wrote[0].logger == "loopconv", logs
            await s.set_logging_level("warning")
            logs.clear()
            structured(await call("convert", {"path": good, "to": "mas", "allow_lossy": True, "actor": "coder", "output": str(tmp / "quiet.yaml")}))
            assert not logs, logs
            ok("logging: the file written is said at info (MCP logging, not stdout), and nothing below the level the client set")
            ok("convert: every target, a lossy conversion refused with its loss report, a file written inside the roots")

            # paths, walk, diff, schema, new.
            r = structured(await call("paths", {"path": good}))
            assert r["paths"] == cli("paths", "--format", "json", good)
            outcomes = ["complete", "approve"]
            r = structured(await call("walk", {"path": good, "outcomes": outcomes}))
            assert r["run"] == cli("walk", "--format", "json", "--outcomes", ",".join(outcomes), good)
            assert r["status"] == r["run"]["status"]
            other = "examples/agentpm/incident-response.json"
            r = structured(await call("diff", {"old": {"path": good}, "new": {"path": other}}))
            assert r["changes"] == cli("diff", "--format", "json", good, other)
            r = structured(await call("schema", {"format": "agentpm"}))
            assert r["schema"] == cli("schema", "agentpm")
            r = structured(await call("schema", {"outcomes_of": {"path": good}}))
            assert r["schema"] == cli("schema", "--outcomes", good)
            r = structured(await call("new", {"archetype": "react", "name": "my-loop"}))
            assert r["text"] == cli("new", "--archetype", "react", "--name", "my-loop", json_out=False)
            ok("paths, walk, diff, schema, new as the command line")

            # resources and the prompt.
            res = (await s.list_resources()).resources
            uris = {str(x.uri) for x in res}
            assert "loopconv://codes/V012" in uris and any(u.startswith("loopconv://schemas/") for u in uris)
            page = (await s.read_resource("loopconv://codes/V012")).contents[0].text
            assert page == cli("explain", "V012", json_out=False)
            prompts = (await s.list_prompts()).prompts
            assert [p.name for p in prompts] == ["draft-loop"]
            msg = (await s.get_prompt("draft-loop", {"description": "review a pull request"})).messages[0]
            assert "review a pull request" in msg.content.text and "check" in msg.content.text
            ok(f"{len(res)} resources (schemas, code pages) and the draft-loop prompt")

            # Bad arguments: tool errors, and the session goes on.
            refused(await call("check", {"path": 5}), "bad arguments")
            refused(await call("check", {"pth": good}), "unknown argument", "`pth`")
            refused(await call("check", {}), "`path`", "`text`")
            refused(await call("graph", {"path": good, "language": "svg"}), "not a diagram language")
            refused(await call("explain", {"code": "X999"}), "not a loopconv diagnostic code")
            assert structured(await call("check", {"path": good}))["ok"]
            ok("bad arguments are tool errors, and the session goes on")

            # Paths outside the roots: refused, for reading and writing.
            refused(await call("check", {"path": str(outside / "secret.json")}), "outside the client's roots")
            refused(await call("check", {"path": "../" * 12 + "etc/passwd"}), "outside the client's roots")
            refused(
                await call("convert", {"path": good, "to": "mas", "allow_lossy": True, "output": str(outside / "x.yaml")}),
                "outside the client's roots",
            )
            assert not (outside / "x.yaml").exists()
            ok("paths outside the roots are refused (read and write)")

            # A 100 MB text: refused by the input limit (64 MiB, as the command line's).
            big = '{"kind": "loop", "name": "' + "x" * (100 * 1024 * 1024) + '"}'
            start = time.monotonic()
            r = structured(await call("check", {"text": big}), error=True)
            took = time.monotonic() - start
            codes = {d["code"] for d in r["diagnostics"]}
            assert len(r["diagnostics"]) == 1 and "more than the limit" in r["diagnostics"][0]["message"], r
            del big
            ok(f"a 100 MB text is refused by the limit ({sorted(codes)[0]}, {took:.1f} s)")

            # 100 calls at once: every one answered, each with its own result.
            draft = (ROOT / good).read_text()
            calls = [
                call("check", {"text": draft, "file_name": f"draft-{i}.json"}) for i in range(100)
            ]
            results = await asyncio.gather(*calls)
            names = [structured(r)["files"] for r in results]
            assert len(names) == 100
            broken = (ROOT / "examples/invalid/V003-duplicate-phase-id.json").read_text()
            mixed = await asyncio.gather(
                *[call("check", {"text": broken if i % 2 else draft, "file_name": f"{i}.json"}) for i in range(100)]
            )
            for i, r in enumerate(mixed):
                d = structured(r, error=bool(i % 2))
                assert all(x["location"]["file"] == f"{i}.json" for x in d["diagnostics"]), i
            ok("100 concurrent calls, all answered (twice: valid, and valid and broken mixed)")
    print("all checks passed")


if __name__ == "__main__":
    asyncio.run(main())
