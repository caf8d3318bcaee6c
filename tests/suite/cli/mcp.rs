//! `loopconv mcp`, the Model Context Protocol server: driven by the official Python client
//! (`scripts/mcp_check.py`: every tool against the command line, a broken loop, bad
//! arguments, paths outside the roots, a 100 MB text, 100 concurrent calls), and by raw
//! JSON-RPC lines for what a client library never sends (broken messages).

use std::io::{BufRead as _, BufReader, Write as _};
use std::path::Path;
use std::process::Stdio;

use serde_json::{Value, json};

use crate::support::{ROOT, loopconv_process};

/// Whether `python3` can import the MCP SDK (installed by `scripts/install-tools.sh`).
fn have_mcp() -> bool {
    std::process::Command::new("python3")
        .args(["-c", "import mcp.client.stdio"])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// A second client: the official TypeScript SDK's, which validates every structured result
/// against the tool's output schema, and calls concurrently.
#[test]
fn the_official_typescript_client_validates_the_results() {
    let node = std::process::Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    let client =
        Path::new(ROOT).join("tools/node_modules/@modelcontextprotocol/client/package.json");
    if crate::support::skip_without_tool(
        node && client.exists(),
        "node with tools/node_modules/@modelcontextprotocol/client (scripts/install-tools.sh)",
    ) {
        return;
    }
    let out = std::process::Command::new("node")
        .arg(Path::new(ROOT).join("scripts/mcp_check.mjs"))
        .arg(env!("CARGO_BIN_EXE_loopconv"))
        .current_dir(ROOT)
        .output()
        .expect("run node");
    let report = String::from_utf8_lossy(&out.stdout);
    let errors = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{report}\n{errors}");
    assert!(report.contains("all checks passed"), "{report}");
    assert!(!errors.contains("unknown format"), "{errors}");
}

#[test]
fn the_official_python_client_drives_every_tool() {
    if crate::support::skip_without_tool(
        have_mcp(),
        "the MCP Python SDK (python3 -m pip install mcp==2.3.0)",
    ) {
        return;
    }
    let out = std::process::Command::new("python3")
        .arg(Path::new(ROOT).join("scripts/mcp_check.py"))
        .arg(env!("CARGO_BIN_EXE_loopconv"))
        .current_dir(ROOT)
        .output()
        .expect("run python3");
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{report}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for check in [
        "ok: initialize",
        "ok: 10 tools, each with input and output schemas",
        "ok: check of broken loops: the diagnostics of `check --format json`",
        "ok: check of a folder",
        "ok: convert: every target, a lossy conversion refused",
        "ok: paths, walk, diff, schema, new as the command line",
        "ok: bad arguments are tool errors, and the session goes on",
        "ok: paths outside the roots are refused",
        "ok: a 100 MB text is refused by the limit",
        "ok: 100 concurrent calls, all answered",
        "ok: logging: the file written is said at info",
        "all checks passed",
    ] {
        assert!(report.contains(check), "no `{check}` in:\n{report}");
    }
}

/// A server on standard input and output, spoken to a line at a time.
struct Session {
    child: std::process::Child,
    input: std::process::ChildStdin,
    output: BufReader<std::process::ChildStdout>,
}

impl Session {
    fn start() -> Session {
        Session::start_with(&[])
    }

    /// `loopconv mcp ARGS`.
    fn start_with(args: &[&str]) -> Session {
        let mut child = loopconv_process()
            .arg("mcp")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start loopconv mcp");
        let input = child.stdin.take().expect("stdin");
        let output = BufReader::new(child.stdout.take().expect("stdout"));
        let mut s = Session {
            child,
            input,
            output,
        };
        s.send(
            &json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "suite", "version": "1"}}}),
        );
        let init = s.read();
        assert_eq!(init["result"]["serverInfo"]["name"], "loopconv", "{init}");
        s.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        s
    }

    fn send_line(&mut self, line: &str) {
        writeln!(self.input, "{line}").expect("write to the server");
        self.input.flush().expect("flush");
    }

    fn send(&mut self, message: &Value) {
        self.send_line(&message.to_string());
    }

    /// The next line of standard output, which must be one JSON-RPC message.
    fn read(&mut self) -> Value {
        let mut line = String::new();
        self.output
            .read_line(&mut line)
            .expect("read from the server");
        let v: Value = serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("not a JSON message on stdout ({e}): {line:?}"));
        assert_eq!(v["jsonrpc"], "2.0", "{v}");
        v
    }

    fn call(&mut self, id: u64, tool: &str, arguments: Value) -> Value {
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": tool, "arguments": arguments}}));
        let r = self.read();
        assert_eq!(r["id"], id, "{r}");
        r
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn a_malformed_message_gets_a_json_rpc_error_and_the_session_goes_on() {
    let mut s = Session::start();
    s.send_line("{this is not json");
    let e = s.read();
    assert_eq!(e["error"]["code"], -32700, "{e}");
    assert!(e["id"].is_null(), "{e}");
    s.send_line(r#"{"jsonrpc":"2.0","id":41,"method":7}"#);
    let e = s.read();
    assert_eq!(e["error"]["code"], -32600, "{e}");
    assert_eq!(e["id"], 41, "{e}");
    s.send(&json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}));
    let tools = s.read();
    let names: Vec<&str> = tools["result"]["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert_eq!(names.len(), 10, "{names:?}");
}

#[test]
fn a_broken_loop_is_a_tool_result_with_its_diagnostics_not_a_protocol_error() {
    let file = "examples/invalid/V003-duplicate-phase-id.json";
    let want: Value = serde_json::from_slice(
        &crate::support::loopconv()
            .args(["check", "--format", "json", file])
            .output()
            .expect("run check")
            .stdout,
    )
    .expect("JSON");
    let mut s = Session::start();
    let r = s.call(1, "check", json!({"path": file}));
    assert_eq!(r["result"]["isError"], true, "{r}");
    assert_eq!(r["result"]["structuredContent"]["diagnostics"], want);
    // Arguments of the wrong type, an unknown argument: tool errors too.
    let r = s.call(2, "graph", json!({"path": 5}));
    assert_eq!(r["result"]["isError"], true, "{r}");
    let r = s.call(3, "graph", json!({"path": file, "colour": "red"}));
    assert_eq!(r["result"]["isError"], true, "{r}");
    let r = s.call(
        4,
        "graph",
        json!({"path": "examples/agentpm/react-loop.json"}),
    );
    assert_eq!(r["result"]["isError"], false, "{r}");
    let diagram = r["result"]["structuredContent"]["diagram"]
        .as_str()
        .expect("a diagram");
    assert!(
        diagram.starts_with("flowchart") || diagram.contains("flowchart"),
        "{diagram}"
    );
}

#[test]
fn without_roots_the_working_directory_is_the_root() {
    let mut s = Session::start();
    let r = s.call(1, "check", json!({"path": "/etc/hostname"}));
    assert_eq!(r["result"]["isError"], true, "{r}");
    let text = r["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default();
    assert!(text.contains("outside the client's roots"), "{text}");
    let r = s.call(2, "check", json!({"path": "../shared"}));
    assert_eq!(r["result"]["isError"], true, "{r}");
    let r = s.call(3, "check", json!({"path": "examples/agentpm"}));
    assert_eq!(r["result"]["structuredContent"]["ok"], true, "{r}");
}

/// `loopconv` links none of the server: no code of rmcp or tokio is in its executable
/// (each names its crate in its symbols and panic locations, as in `loopconv-mcp`), so
/// that no command pays for it at start-up. Before, the server was a module of `loopconv`.
#[test]
fn loopconv_links_none_of_the_server() {
    let mention = |exe: &str, word: &str| {
        let bytes = std::fs::read(exe).expect("read the executable");
        memchr::memmem::find(&bytes, word.as_bytes()).is_some()
    };
    for word in ["rmcp", "tokio"] {
        assert!(
            mention(env!("CARGO_BIN_EXE_loopconv-mcp"), word),
            "the check finds {word} where it is"
        );
        assert!(
            !mention(env!("CARGO_BIN_EXE_loopconv"), word),
            "loopconv links {word}"
        );
    }
}

/// `loopconv mcp` runs the `loopconv-mcp` beside it with its arguments; without one (and
/// none on `PATH`) it says what to install, and exits 2.
#[test]
fn loopconv_mcp_runs_the_server_beside_it_or_says_what_to_install() {
    // The limit given to `loopconv mcp` is the server's.
    let text = std::fs::read_to_string(Path::new(ROOT).join("examples/agentpm/react-loop.json"))
        .expect("an example");
    let mut s = Session::start_with(&["--max-input-bytes", "100"]);
    let r = s.call(1, "check", json!({"text": text}));
    assert_eq!(r["result"]["isError"], true, "{r}");
    assert!(r.to_string().contains("P004"), "{r}");
    let mut s = Session::start();
    let r = s.call(1, "check", json!({"text": text}));
    assert_eq!(r["result"]["isError"], false, "{r}");
    // Its help and its argument errors are loopconv's own.
    let help = crate::support::loopconv()
        .args(["mcp", "--help"])
        .output()
        .expect("run loopconv mcp --help");
    let text = String::from_utf8_lossy(&help.stdout);
    assert!(help.status.success(), "{help:?}");
    assert!(
        text.contains("Usage: loopconv mcp") && text.contains("--max-input-bytes"),
        "{text}"
    );
    let r = crate::support::loopconv()
        .args(["mcp", "--max-phases", "x"])
        .output()
        .expect("run loopconv mcp");
    let said = String::from_utf8_lossy(&r.stderr);
    assert_eq!(r.status.code(), Some(2), "{said}");
    assert!(said.contains("--max-phases"), "{said}");
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("a temp dir");
    let alone = dir
        .path()
        .join(format!("loopconv{}", std::env::consts::EXE_SUFFIX));
    if std::fs::hard_link(env!("CARGO_BIN_EXE_loopconv"), &alone).is_err() {
        std::fs::copy(env!("CARGO_BIN_EXE_loopconv"), &alone).expect("copy loopconv");
    }
    let out = std::process::Command::new(&alone)
        .arg("mcp")
        .env("PATH", dir.path())
        .stdin(Stdio::null())
        .output()
        .expect("run loopconv mcp");
    let said = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(
        said.contains("`loopconv-mcp`") && said.contains("pip install loopconv"),
        "{said}"
    );
    assert!(out.stdout.is_empty(), "{out:?}");
}

/// The `graph` tool draws a multi-agent-spec team's workflow with its loops inside, and an
/// AgentPM Agent's loop marked with its bindings, exactly as `loopconv graph` draws them
/// (both found in the file's workspace), in every diagram language. Before, both were
/// refused as no loop (`P015`).
#[test]
fn graph_draws_a_team_and_an_agent_as_the_command_line_does() {
    let mut s = Session::start();
    let mut id = 0;
    for file in [
        "examples/workspaces/mas-release/specs/teams/release.json",
        "examples/workspaces/agentpm-notes/agent.json",
    ] {
        for language in ["mermaid", "dot", "plantuml"] {
            let want = crate::support::loopconv()
                .args(["graph", "--to", language, file])
                .output()
                .expect("run graph");
            assert!(want.status.success(), "{file} {language}: {want:?}");
            id += 1;
            let r = s.call(id, "graph", json!({"path": file, "language": language}));
            assert_eq!(r["result"]["isError"], false, "{file} {language}: {r}");
            let got = &r["result"]["structuredContent"];
            assert_eq!(
                got["diagram"].as_str(),
                Some(String::from_utf8_lossy(&want.stdout).as_ref()),
                "{file} {language}"
            );
            assert_eq!(got["errors"], 0, "{got}");
        }
    }
    // A team is a flowchart; the state style is refused, and the session goes on.
    let team = "examples/workspaces/mas-release/specs/teams/release.json";
    let r = s.call(99, "graph", json!({"path": team, "style": "state"}));
    assert_eq!(r["result"]["isError"], true, "{r}");
    let r = s.call(100, "graph", json!({"path": team}));
    let diagram = r["result"]["structuredContent"]["diagram"].as_str();
    assert!(diagram.is_some_and(|d| d.contains("subgraph s1[")), "{r}");
}
