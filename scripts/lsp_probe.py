"""The language server as an editor sees it (used by scripts/bench.sh): `loopconv lsp` on
one loop file over JSON-RPC, measuring the time from an edit to its diagnostics (which
includes the server's pause after edits, printed separately) and a completion's time and
number of items, RUNS times each. Prints one JSON object.

Usage: python3 scripts/lsp_probe.py LOOPCONV FILE RUNS PAUSE_MS
"""

import json
import re
import statistics
import subprocess
import sys
import time

loopconv, path, runs, pause_ms = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
text = open(path, encoding="utf-8").read()
uri = "file://" + path
server = subprocess.Popen([loopconv, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
next_id = 0


def send(message):
    body = json.dumps(dict(message, jsonrpc="2.0")).encode()
    server.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    server.stdin.flush()


def receive():
    length = 0
    while True:
        line = server.stdout.readline()
        if not line:
            sys.exit("lsp_probe.py: the server stopped")
        if line in (b"\r\n", b"\n"):
            break
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    return json.loads(server.stdout.read(length))


def request(method, params):
    global next_id
    next_id += 1
    send({"id": next_id, "method": method, "params": params})
    while True:
        message = receive()
        if message.get("id") == next_id and "method" not in message:
            return message


def diagnostics():
    """Wait for the next diagnostics of the file."""
    while True:
        message = receive()
        if message.get("method") == "textDocument/publishDiagnostics" and message["params"]["uri"] == uri:
            return message["params"]["diagnostics"]


def position(offset):
    """The LSP position of a character offset: its line, and UTF-16 code units before it."""
    line = text.count("\n", 0, offset)
    before = text[text.rfind("\n", 0, offset) + 1:offset]
    return {"line": line, "character": len(before.encode("utf-16-le")) // 2}


def last_value(key, phase=False):
    """The offset of the first character of the last string value of `key` (any layout:
    minified, spaces or tabs around the colon); with `phase`, the last that names a
    phase (not a terminal such as `$end`)."""
    found = [m.end() for m in re.finditer(r'"%s"\s*:\s*"' % re.escape(key), text)
             if not (phase and text.startswith("$", m.end()))]
    if not found:
        sys.exit(f"lsp_probe.py: no {key} in {path}")
    return found[-1]


init = request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
sync = init["result"]["capabilities"].get("textDocumentSync")
incremental = (sync.get("change") if isinstance(sync, dict) else sync) == 2
send({"method": "initialized", "params": {}})
send({"method": "textDocument/didOpen",
      "params": {"textDocument": {"uri": uri, "languageId": "json", "version": 1, "text": text}}})
diagnostics()
edits, completions, items = [], [], []
# An edit: the first character of the last objective replaced (a range when the server
# takes incremental changes, else the whole text).
at = last_value("objective")
for k in range(runs):
    typed = "xy"[k % 2]
    if incremental:
        change = {"range": {"start": position(at), "end": position(at + 1)}, "text": typed}
    else:
        change = {"text": text[:at] + typed + text[at + 1:]}
    start = time.perf_counter()
    send({"method": "textDocument/didChange",
          "params": {"textDocument": {"uri": uri, "version": k + 2}, "contentChanges": [change]}})
    diagnostics()
    edits.append(time.perf_counter() - start)
# A completion inside the last transition's `to` value that names a phase (its first
# character typed).
to = last_value("to", phase=True) + 1
for _ in range(runs):
    start = time.perf_counter()
    answer = request("textDocument/completion", {"textDocument": {"uri": uri}, "position": position(to)})
    completions.append(time.perf_counter() - start)
    result = answer.get("result") or []
    items.append(len(result["items"] if isinstance(result, dict) else result))
request("shutdown", None)
send({"method": "exit"})
server.wait(timeout=10)
print(json.dumps({
    "pause": pause_ms / 1000,
    "edit_median": statistics.median(edits), "edit_mean": statistics.mean(edits),
    "completion_median": statistics.median(completions), "completion_mean": statistics.mean(completions),
    "completion_items": max(items), "incremental": incremental,
}))
