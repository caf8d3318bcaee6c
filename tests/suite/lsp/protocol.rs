//! Protocol tests: run `loopconv lsp` and talk JSON-RPC to it over its standard input and
//! output, as an editor does.

use crate::support;

use std::io::BufReader;
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use lsp_server::{Message, Notification, Request, RequestId, Response};
use serde_json::{Value, json};

/// How long a test waits for one message before failing (a hung server, not a speed test).
const PATIENCE: Duration = Duration::from_secs(20);

/// A language-server client over the server's standard input and output (also used by
/// `markup_safety::person_text`).
pub(crate) struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    inbox: Receiver<Message>,
    next_id: i32,
    /// Notifications received while waiting for something else.
    seen: Vec<Notification>,
    /// Answers to requests no one waited for (sent as raw bytes).
    answers: Vec<Response>,
    /// The server's answer to `initialize`.
    init: Value,
}

impl Client {
    pub(crate) fn start() -> Client {
        Client::start_with(b"")
    }

    /// [`Client::start`], with `raw` bytes written between the answer to `initialize` and
    /// `initialized`.
    fn start_with(raw: &[u8]) -> Client {
        let mut child = support::loopconv_process()
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start loopconv lsp");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, inbox) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            while let Ok(Some(m)) = Message::read(&mut r) {
                if tx.send(m).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        let mut c = Client {
            child,
            stdin,
            inbox,
            next_id: 0,
            seen: Vec::new(),
            answers: Vec::new(),
            init: Value::Null,
        };
        let init = c.request("initialize", json!({"capabilities": {}}));
        assert_eq!(init["serverInfo"]["name"], "loopconv");
        assert_eq!(init["capabilities"]["definitionProvider"], true);
        c.init = init;
        let stdin = c.stdin.as_mut().expect("stdin open");
        std::io::Write::write_all(stdin, raw).expect("write");
        c.notify("initialized", json!({}));
        c
    }

    fn send(&mut self, m: Message) {
        m.write(self.stdin.as_mut().expect("stdin open"))
            .expect("write to the server");
    }

    pub(crate) fn notify(&mut self, method: &str, params: Value) {
        self.send(Message::Notification(Notification::new(
            method.into(),
            params,
        )));
    }

    fn recv(&mut self) -> Message {
        match self.inbox.recv_timeout(PATIENCE) {
            Ok(m) => m,
            Err(RecvTimeoutError::Timeout) => panic!("the server did not answer"),
            Err(RecvTimeoutError::Disconnected) => panic!("the server exited"),
        }
    }

    /// Send a request and wait for its result (panics on an error response).
    pub(crate) fn request(&mut self, method: &str, params: Value) -> Value {
        match self.try_request(method, params) {
            Ok(v) => v,
            Err(e) => panic!("{method} failed: {e}"),
        }
    }

    fn try_request(&mut self, method: &str, params: Value) -> Result<Value, String> {
        self.next_id += 1;
        let id = RequestId::from(self.next_id);
        self.send(Message::Request(Request::new(
            id.clone(),
            method.into(),
            params,
        )));
        loop {
            match self.recv() {
                Message::Response(r) if r.id == id => {
                    return r.response_result.map_err(|e| e.message);
                }
                Message::Notification(n) => self.seen.push(n),
                Message::Response(r) => self.answers.push(r),
                Message::Request(_) => {}
            }
        }
    }

    /// Wait for the diagnostics of `uri` at `version`.
    pub(crate) fn diagnostics(&mut self, uri: &str, version: i32) -> Vec<Value> {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let found = self.seen.iter().rev().find(|n| {
                n.method == "textDocument/publishDiagnostics"
                    && n.params["uri"] == uri
                    && n.params["version"] == version
            });
            if let Some(n) = found {
                return n.params["diagnostics"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default();
            }
            assert!(
                Instant::now() < deadline,
                "no diagnostics for {uri} v{version}"
            );
            match self.recv() {
                Message::Notification(n) => self.seen.push(n),
                Message::Response(r) => self.answers.push(r),
                Message::Request(_) => {}
            }
        }
    }

    /// Wait for diagnostics of `uri` (of any version, or none: a file that is not open)
    /// that `want` accepts, published after the first `after` notifications seen.
    pub(crate) fn diagnostics_where(
        &mut self,
        uri: &str,
        after: usize,
        want: impl Fn(&[Value]) -> bool,
    ) -> Vec<Value> {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let found =
                self.seen.iter().skip(after).rev().find(|n| {
                    n.method == "textDocument/publishDiagnostics" && n.params["uri"] == uri
                });
            let ds = found.map(|n| {
                n.params["diagnostics"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default()
            });
            if let Some(ds) = ds.filter(|ds| want(ds)) {
                return ds;
            }
            assert!(
                Instant::now() < deadline,
                "no such diagnostics for {uri}: {:?}",
                self.seen
                    .iter()
                    .skip(after)
                    .filter(|n| n.params["uri"] == uri)
                    .collect::<Vec<_>>()
            );
            match self.recv() {
                Message::Notification(n) => self.seen.push(n),
                Message::Response(r) => self.answers.push(r),
                Message::Request(_) => {}
            }
        }
    }

    /// The error message of a request that must fail.
    pub(crate) fn try_request_err(&mut self, method: &str, params: Value) -> String {
        match self.try_request(method, params) {
            Ok(v) => panic!("{method} answered {v}, not an error"),
            Err(e) => e,
        }
    }

    /// The documents diagnostics were published for so far, in order.
    pub(crate) fn published_uris(&self) -> Vec<String> {
        (self.seen.iter())
            .filter(|n| n.method == "textDocument/publishDiagnostics")
            .map(|n| n.params["uri"].as_str().unwrap_or("").to_owned())
            .collect()
    }

    /// How many notifications were seen so far.
    pub(crate) fn seen_count(&self) -> usize {
        self.seen.len()
    }

    pub(crate) fn open(&mut self, uri: &str, text: &str) {
        let lang = if uri.ends_with(".json") {
            "json"
        } else {
            "yaml"
        };
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": lang, "version": 1, "text": text}}),
        );
    }

    pub(crate) fn change(&mut self, uri: &str, version: i32, text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]}),
        );
    }

    /// `shutdown`, `exit`, and the process ends with success.
    pub(crate) fn shutdown(mut self) {
        assert_eq!(self.request("shutdown", Value::Null), Value::Null);
        self.notify("exit", Value::Null);
        drop(self.stdin.take());
        let status = self.child.wait().expect("wait for the server");
        assert!(status.success(), "the server exited with {status}");
    }

    /// `text` (open as `uri`, whose diagnostics are `ds`) with the code action whose title
    /// has `titled` applied.
    fn apply_fix(&mut self, uri: &str, text: &str, ds: &[Value], titled: &str) -> String {
        let all =
            json!({"start": {"line": 0, "character": 0}, "end": {"line": 9999, "character": 0}});
        let acts = self.request(
            "textDocument/codeAction",
            json!({"textDocument": {"uri": uri}, "range": all, "context": {"diagnostics": ds}}),
        );
        let fix = acts
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["title"].as_str().unwrap().contains(titled))
            .unwrap_or_else(|| panic!("no code action titled {titled}: {acts}"));
        apply(text, &fix["edit"]["changes"][uri][0])
    }

    /// `exit` (after a `shutdown` already sent, or none), and the process ends with `code`.
    fn shutdown_after_shutdown(mut self, code: i32) {
        self.notify("exit", Value::Null);
        drop(self.stdin.take());
        let status = self.child.wait().expect("wait for the server");
        assert_eq!(status.code(), Some(code), "the server exited with {status}");
    }
}

/// The LSP position (UTF-16 columns) of the `nth` occurrence of `needle`, plus `shift`
/// characters. Lines end at `\n`, `\r\n` or a lone `\r`, as LSP counts them.
pub(crate) fn pos(text: &str, needle: &str, nth: usize, shift: usize) -> Value {
    let (at, _) = text.match_indices(needle).nth(nth).expect("needle in text");
    let starts = loopconv::text::line_starts(text);
    let line = starts.partition_point(|&s| s <= at) - 1;
    let start = starts[line];
    let col: usize = text[start..at].chars().map(char::len_utf16).sum();
    json!({"line": line, "character": col + shift})
}

pub(crate) fn at(uri: &str, p: Value) -> Value {
    json!({"textDocument": {"uri": uri}, "position": p})
}

fn example(name: &str) -> String {
    String::from_utf8(support::read(&support::examples().join(name))).expect("UTF-8")
}

const URI: &str = "file:///tmp/broken.json";

#[test]
fn diagnostics_have_code_range_link_and_related_information() {
    let mut c = Client::start();
    let text = example("invalid/V009-unknown-transition-target.json");
    c.open(URI, &text);
    let ds = c.diagnostics(URI, 1);
    let d = ds
        .iter()
        .find(|d| d["code"] == "V009")
        .expect("a V009 diagnostic");
    assert_eq!(d["severity"], 1);
    assert_eq!(d["source"], "loopconv");
    assert_eq!(d["range"]["start"], pos(&text, "\"$human\"", 0, 0));
    assert!(d["message"].as_str().unwrap().contains("$human"));
    let href = d["codeDescription"]["href"].as_str().unwrap();
    assert!(href.ends_with("/docs/src/codes/V009.md"), "{href}");

    let dup = "file:///tmp/dup.json";
    let text = example("invalid/V003-duplicate-phase-id.json");
    c.open(dup, &text);
    let ds = c.diagnostics(dup, 1);
    let d = ds
        .iter()
        .find(|d| d["code"] == "V003")
        .expect("a V003 diagnostic");
    let related = &d["relatedInformation"][0];
    assert_eq!(related["message"], "first declared here");
    let id = d["message"]
        .as_str()
        .unwrap()
        .split('`')
        .nth(1)
        .unwrap()
        .to_owned();
    let quoted = format!("\"{id}\"");
    assert_eq!(
        related["location"]["range"]["start"],
        pos(&text, &quoted, 0, 0)
    );
    c.shutdown();
}

/// A buffer that starts with a byte-order mark gets the diagnostics `check` gives the file,
/// `P009` with them.
#[test]
fn a_byte_order_mark_is_p009_as_in_check() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut c = Client::start();
    for (i, name) in [
        "agentpm/react-loop.json",
        "invalid/V009-unknown-transition-target.json",
        "mas/real-dependency-bump.yaml",
    ]
    .into_iter()
    .enumerate()
    {
        let text = format!("\u{feff}{}", example(name));
        let file = dir
            .path()
            .join(format!("bom{i}.{}", name.rsplit('.').next().unwrap()));
        std::fs::write(&file, &text).expect("write");
        let out = support::loopconv()
            .args(["check", "--format", "json"])
            .arg(&file)
            .output()
            .expect("run loopconv");
        let check: Vec<Value> = serde_json::from_slice(&out.stdout).expect("a JSON array");
        let uri = format!("file://{}", file.display());
        c.open(&uri, &text);
        let ds = c.diagnostics(&uri, 1);
        let codes = |ds: &[Value]| -> Vec<String> {
            let mut codes: Vec<String> = ds.iter().map(|d| d["code"].to_string()).collect();
            codes.sort();
            codes
        };
        assert_eq!(codes(&ds), codes(&check), "{name}");
        let p009 = ds.iter().find(|d| d["code"] == "P009").expect("P009");
        let cli = check.iter().find(|d| d["code"] == "P009").expect("P009");
        let message = format!(
            "{}\nhelp: {}",
            cli["message"].as_str().unwrap(),
            cli["help"].as_str().unwrap()
        );
        assert_eq!(p009["message"], message.as_str(), "{name}");
        assert_eq!(p009["severity"], 2, "a warning");
        assert_eq!(p009["range"]["start"], json!({"line": 0, "character": 0}));
    }
    c.shutdown();
}

/// A buffer that starts with a byte-order mark is kept as the client has it: the ranges on
/// its first line count the mark, a change there lands where the client made it, and the
/// mark is still reported after an edit.
#[test]
fn a_byte_order_mark_counts_in_positions_and_edits() {
    let one_line = r#"{"kind":"loop","name":"x","version":"0.1.0","description":"d","loop":{"entry_phase":"a","phases":[{"id":"a","objective":"A."}],"transitions":[{"from":"a","on":"complete","to":"$human"}]}}"#;
    let mut text = format!("\u{feff}{one_line}");
    let mut c = Client::start();
    let uri = "file:///tmp/bom-one-line.json";
    c.open(uri, &text);
    let ds = c.diagnostics(uri, 1);
    let v009 = ds.iter().find(|d| d["code"] == "V009").expect("V009");
    assert_eq!(
        v009["range"]["start"],
        pos(&text, "\"$human\"", 0, 0),
        "{v009:#}"
    );
    let p009 = ds.iter().find(|d| d["code"] == "P009").expect("P009");
    assert_eq!(
        p009["range"],
        json!({"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 1}})
    );

    let at = text.find("$human").expect("target");
    let change = edit(&mut text, at, at + "$human".len(), "$end");
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [change]}),
    );
    let codes = |ds: &[Value]| -> Vec<String> {
        ds.iter()
            .filter_map(|d| d["code"].as_str().map(str::to_owned))
            .collect()
    };
    let edited = c.diagnostics(uri, 2);
    assert_eq!(codes(&edited), ["P009", "F012"], "{edited:#?}");

    // The mark taken off by the client: `P009` goes, and the rest stays in place.
    let change = edit(&mut text, 0, '\u{feff}'.len_utf8(), "");
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 3}, "contentChanges": [change]}),
    );
    let edited = c.diagnostics(uri, 3);
    assert_eq!(codes(&edited), ["F012"], "{edited:#?}");

    // A text rejected before it is parsed (a NUL byte) is placed as the client has it.
    let nul = "\u{feff}{\"kind\": \0}";
    let uri = "file:///tmp/bom-nul.json";
    c.open(uri, nul);
    let ds = c.diagnostics(uri, 1);
    let p010 = ds.iter().find(|d| d["code"] == "P010").expect("P010");
    assert_eq!(p010["range"]["start"], pos(nul, "\0", 0, 0), "{p010:#}");
    c.shutdown();
}

#[test]
fn definition_references_hover_and_rename() {
    let mut c = Client::start();
    let text = example("agentpm/react-loop.json");
    c.open(URI, &text);
    c.diagnostics(URI, 1);
    let index = text_index(&text);
    let (target, decl) = index;
    let def = c.request("textDocument/definition", at(URI, target.clone()));
    assert_eq!(def["uri"], URI);
    assert_eq!(def["range"]["start"], decl);

    let refs = c.request(
        "textDocument/references",
        json!({"textDocument": {"uri": URI}, "position": target, "context": {"includeDeclaration": true}}),
    );
    assert!(refs.as_array().unwrap().len() >= 2, "{refs}");
    assert!(
        refs.as_array()
            .unwrap()
            .iter()
            .any(|l| l["range"]["start"] == decl)
    );

    let hover = c.request("textDocument/hover", at(URI, target.clone()));
    let value = hover["contents"]["value"].as_str().unwrap();
    assert!(value.contains("**phase `"), "{value}");
    assert!(value.contains("leads to:"), "{value}");

    let edit = c.request(
        "textDocument/rename",
        json!({"textDocument": {"uri": URI}, "position": target, "newName": "renamed"}),
    );
    let edits = edit["changes"][URI].as_array().unwrap();
    assert_eq!(edits.len(), refs.as_array().unwrap().len());
    assert!(edits.iter().all(|e| e["newText"] == "\"renamed\""));
    // A rename that would make the loop invalid is refused, saying why.
    let other = text_index(&text).0;
    let declared = serde_json::from_str::<Value>(&text).unwrap()["loop"]["entry_phase"]
        .as_str()
        .unwrap()
        .to_owned();
    for (new_name, why) in [
        (declared.as_str(), "declared already"),
        ("Bad_Name", "not a stable id"),
        ("", "not a stable id"),
        ("$end", "not a stable id"),
    ] {
        let refused = c.try_request(
            "textDocument/rename",
            json!({"textDocument": {"uri": URI}, "position": other, "newName": new_name}),
        );
        let e = refused.expect_err(new_name);
        assert!(e.contains(why), "{new_name}: {e}");
    }
    c.shutdown();
}

/// The position of the first transition `to` that names a phase, and of that phase's id.
fn text_index(text: &str) -> (Value, Value) {
    let v: Value = serde_json::from_str(text).unwrap();
    let t = v["loop"]["transitions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| !t["to"].as_str().unwrap().starts_with('$'))
        .unwrap();
    let to = t["to"].as_str().unwrap();
    let quoted = format!("\"{to}\"");
    // The phase's id (not an outcome's of the same name): the line after it is its objective.
    let decl_at = text
        .match_indices(&format!("\"id\": {quoted}"))
        .map(|(i, _)| i)
        .find(|&i| {
            text[i..]
                .lines()
                .nth(1)
                .is_some_and(|l| l.contains("\"objective\""))
        })
        .unwrap()
        + "\"id\": ".len();
    let to_at = text.find(&format!("\"to\": {quoted}")).unwrap() + "\"to\": ".len();
    let p = |at: usize| {
        let line = text[..at].matches('\n').count();
        let col = at - text[..at].rfind('\n').map_or(0, |i| i + 1);
        json!({"line": line, "character": col})
    };
    (p(to_at + 1), p(decl_at))
}

/// The names of a document-symbol answer, in order.
fn symbol_names(syms: &Value) -> Vec<&str> {
    syms.as_array()
        .expect("symbols")
        .iter()
        .map(|s| s["name"].as_str().expect("a name"))
        .collect()
}

/// The labels of a completion answer (a `CompletionList`), asserting it is complete.
pub(crate) fn labels(list: &Value) -> Vec<&str> {
    assert_eq!(list["isIncomplete"], false, "{list}");
    list["items"]
        .as_array()
        .expect("a completion list")
        .iter()
        .map(|i| i["label"].as_str().expect("a label"))
        .collect()
}

#[test]
fn completion_offers_phases_terminals_and_outcomes() {
    let mut c = Client::start();
    let text = example("invalid/broken-multi.json");
    c.open(URI, &text);
    c.diagnostics(URI, 1);
    // Half-typed: the new transition's `to` has only its opening quote.
    let half = text.replace(
        "{ \"from\": \"smoke-test\", \"on\": \"fail\", \"to\": \"$abort\" }",
        "{ \"from\": \"smoke-test\", \"on\": \"flaky\", \"to\": \"",
    );
    c.change(URI, 2, &half);
    let p = pos(&half, "\"to\": \"", 3, 7);
    let items = c.request("textDocument/completion", at(URI, p));
    assert_eq!(
        labels(&items),
        [
            "build",
            "Deploy_Staging",
            "smoke-test",
            "$end",
            "$abort",
            "$handoff"
        ]
    );
    let ds = c.diagnostics(URI, 2);
    assert!(ds.iter().any(|d| d["code"] == "P001"), "{ds:?}");

    let on = text.replace("\"on\": \"pass\"", "\"on\": \"\"");
    c.change(URI, 3, &on);
    let p = pos(&on, "\"on\": \"\"", 0, 7);
    let items = c.request("textDocument/completion", at(URI, p));
    assert_eq!(labels(&items), ["pass", "fail", "flaky"]);
    c.shutdown();
}

/// Every document symbol's selection (its name) is inside its range, as LSP requires, for
/// every example in every format and their conversions to XState and the IR.
#[test]
fn every_symbol_holds_its_selection() {
    fn key(p: &Value) -> (u64, u64) {
        (
            p["line"].as_u64().unwrap(),
            p["character"].as_u64().unwrap(),
        )
    }
    fn check(syms: &Value, file: &str) -> usize {
        let mut n = 0;
        for s in syms.as_array().into_iter().flatten() {
            let (r, sel) = (&s["range"], &s["selectionRange"]);
            assert!(key(&r["start"]) <= key(&sel["start"]), "{file}: {s:#}");
            assert!(key(&sel["end"]) <= key(&r["end"]), "{file}: {s:#}");
            n += 1 + check(&s["children"], file);
        }
        n
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let mut files = Vec::new();
    for folder in ["agentpm", "mas", "invalid"] {
        for e in std::fs::read_dir(support::repo().join("examples").join(folder)).expect("examples")
        {
            let path = e.expect("entry").path();
            let ext = path.extension().and_then(|x| x.to_str()).unwrap_or("");
            if !matches!(ext, "json" | "yaml" | "yml") {
                continue;
            }
            files.push(path.clone());
            if folder == "invalid" {
                continue;
            }
            for to in ["xstate", "ir"] {
                let out = dir.path().join(format!(
                    "{}.{to}.json",
                    path.file_stem().unwrap().to_string_lossy()
                ));
                let ok = support::loopconv()
                    .args(["convert", "--allow-lossy", "--to", to, "-o"])
                    .arg(&out)
                    .arg(&path)
                    .output()
                    .expect("run loopconv");
                if ok.status.success() {
                    files.push(out);
                }
            }
        }
    }
    let mut c = Client::start();
    let mut symbols = 0;
    for (i, file) in files.iter().enumerate() {
        let uri = format!(
            "file:///tmp/symbols/{i}/{}",
            file.file_name().unwrap().to_string_lossy()
        );
        // A buffer is text: the examples that are not UTF-8 are no editor's buffer.
        let Ok(text) = std::fs::read_to_string(file) else {
            continue;
        };
        c.open(&uri, &text);
        let syms = c.request(
            "textDocument/documentSymbol",
            json!({"textDocument": {"uri": uri}}),
        );
        symbols += check(&syms, &file.display().to_string());
    }
    assert!(symbols > 100, "{symbols} symbols in {} files", files.len());
    c.shutdown();
}

#[test]
fn symbols_and_code_actions() {
    let mut c = Client::start();
    let text = example("invalid/broken-multi.json");
    c.open(URI, &text);
    let ds = c.diagnostics(URI, 1);
    let syms = c.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": URI}}),
    );
    let names = symbol_names(&syms);
    assert_eq!(names, ["build", "Deploy_Staging", "smoke-test"]);
    assert_eq!(syms[2]["children"].as_array().unwrap().len(), 3);

    let all = json!({"start": {"line": 0, "character": 0}, "end": {"line": 9999, "character": 0}});
    let acts = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": URI}, "range": all, "context": {"diagnostics": ds}}),
    );
    let titles: Vec<&str> = acts
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["title"].as_str().unwrap())
        .collect();
    assert!(
        titles
            .iter()
            .any(|t| t.starts_with("add a transition for `smoke-test` on `flaky`")),
        "{titles:?}"
    );
    // Applying the added transition fixes V011 for `flaky`.
    let add = acts
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["title"].as_str().unwrap().contains("`flaky`"))
        .unwrap();
    let e = &add["edit"]["changes"][URI][0];
    let fixed = apply(&text, e);
    let v: Value = serde_json::from_str(&fixed).expect("still JSON");
    let last = v["loop"]["transitions"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .clone();
    assert_eq!(
        last,
        json!({"from": "smoke-test", "on": "flaky", "to": "$end"})
    );
    c.shutdown();
}

/// A file with Windows (`\r\n`) or classic Mac (a lone `\r`) line endings: the server
/// counts its lines as the client does, completes on its lines, and a fix adds lines
/// with the file's own line ending.
#[test]
fn a_files_own_line_endings_are_kept() {
    let yaml = "kind: loop\nname: x\nversion: 0.1.0\ndescription: d\nloop:\n  entry_phase: plan\n  phases:\n    - id: plan\n      objective: Plan.\n      outcomes:\n        - id: done\n          description: Done.\n        - id: stuck\n          description: Stuck.\n  transitions:\n    - from: plan\n      on: done\n      to: $end\n";
    let uri = "file:///tmp/endings.yaml";
    for nl in ["\n", "\r\n", "\r"] {
        let text = yaml.replace('\n', nl);
        let mut c = Client::start();
        c.open(uri, &text);
        let ds = c.diagnostics(uri, 1);
        let codes: Vec<&Value> = ds.iter().map(|d| &d["code"]).collect();
        // F020: an AgentPM manifest in YAML.
        assert_eq!(codes, ["F012", "F020", "V011"], "{ds:?}");
        assert_eq!(ds[2]["range"]["start"], pos(&text, "stuck", 0, 0), "{nl:?}");
        let items = c.request("textDocument/completion", at(uri, pos(&text, "$end", 0, 0)));
        assert!(labels(&items).contains(&"plan"), "{items}");

        let fixed = c.apply_fix(uri, &text, &ds, "`stuck`");
        assert_eq!(
            fixed.replace(nl, "\n"),
            format!("{yaml}    - from: \"plan\"\n      on: \"stuck\"\n      to: \"$end\"\n"),
            "{nl:?}"
        );
        assert!(!fixed.replace(nl, "").contains(['\r', '\n']), "{fixed:?}");
        c.shutdown();
    }
}

/// The fix adding a transition to a YAML loop whose `transitions` is a flow sequence adds
/// a flow item.
#[test]
fn a_fix_adds_a_flow_item_to_a_flow_sequence() {
    let head = "kind: loop\nname: x\nversion: 0.1.0\ndescription: d\nloop:\n  entry_phase: plan\n  phases:\n    - id: plan\n      objective: Plan.\n      outcomes:\n        - id: done\n          description: Done.\n        - id: stuck\n          description: Stuck.\n";
    let uri = "file:///tmp/flow.yaml";
    for transitions in [
        "  transitions: [{from: plan, on: done, to: $end}]\n",
        "  transitions: [\n    {from: plan, on: done, to: $end},  # the way out\n  ]\n",
    ] {
        let text = format!("{head}{transitions}");
        let mut c = Client::start();
        c.open(uri, &text);
        let ds = c.diagnostics(uri, 1);
        let fixed = c.apply_fix(uri, &text, &ds, "`stuck`");
        let l = loopconv::load(
            "flow.yaml",
            fixed.as_bytes(),
            &loopconv::LoadOptions::default(),
        );
        let codes: Vec<String> = l.diags.items().iter().map(|d| d.code.to_string()).collect();
        assert_eq!(codes, ["F012", "F020"], "{fixed}");
        c.shutdown();
    }
}

/// Two checkpoints before one phase (V017 is retired): no diagnostic, both checkpoints as
/// symbols in authored order, and both `before_phase` references found from the phase.
#[test]
fn several_checkpoints_before_one_phase_are_clean_and_indexed() {
    let mut c = Client::start();
    let uri = "file:///tmp/sign-off.json";
    let text = example("agentpm/code-review-sign-off.json");
    c.open(uri, &text);
    let ds = c.diagnostics(uri, 1);
    assert!(ds.is_empty(), "{ds:?}");
    let syms = c.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": uri}}),
    );
    let names = symbol_names(&syms);
    assert_eq!(
        names,
        [
            "gather",
            "review",
            "revise",
            "approve-revision",
            "security-sign-off"
        ]
    );
    let decl = pos(&text, "\"revise\"", 0, 1);
    let refs = c.request(
        "textDocument/references",
        json!({"textDocument": {"uri": uri}, "position": decl, "context": {"includeDeclaration": false}}),
    );
    let guards = refs
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| {
            let line = l["range"]["start"]["line"].as_u64().unwrap() as usize;
            text.lines().nth(line).unwrap().contains("before_phase")
        })
        .count();
    assert_eq!(guards, 2, "{refs}");
    c.shutdown();
}

/// Apply one text edit (ASCII text: columns are bytes).
/// `text` with one LSP text edit applied (positions on ASCII lines).
pub(crate) fn apply(text: &str, edit: &Value) -> String {
    let starts = loopconv::text::line_starts(text);
    let off = |p: &Value| {
        let line = p["line"].as_u64().unwrap() as usize;
        starts[line] + p["character"].as_u64().unwrap() as usize
    };
    let (a, b) = (off(&edit["range"]["start"]), off(&edit["range"]["end"]));
    format!(
        "{}{}{}",
        &text[..a],
        edit["newText"].as_str().unwrap(),
        &text[b..]
    )
}

#[test]
fn never_crashes_on_any_buffer() {
    let mut c = Client::start();
    let yaml = "file:///tmp/x.yaml";
    c.open(yaml, "name: x\ntype: REAL\n");
    c.diagnostics(yaml, 1);
    let buffers = [
        "",
        "{",
        "{\"loop\": {\"phases\": [{\"id\": ",
        "- - - [",
        "type: VEAL\nchecks: [{id: ",
        "\u{feff}",
        "\0\0",
        "{\"loop\": {\"transitions\": [{\"on\": 1, \"from\": {}}]}}",
        "loop:\n  phases:\n    - id: \u{1f600}\n  transitions:\n    - {from: \u{1f600}, on: ",
        "&a [*a, *a]",
        "{\"a\": \"\\ud800\"}",
    ];
    for (i, b) in buffers.iter().enumerate() {
        let v = i as i32 + 2;
        c.change(yaml, v, b);
        for method in [
            "textDocument/definition",
            "textDocument/hover",
            "textDocument/completion",
            "textDocument/references",
        ] {
            for line in 0..4 {
                for ch in [0, 3, 9, 40] {
                    let mut p = at(yaml, json!({"line": line, "character": ch}));
                    if method.ends_with("references") {
                        p["context"] = json!({"includeDeclaration": true});
                    }
                    c.request(method, p);
                }
            }
        }
        c.request(
            "textDocument/documentSymbol",
            json!({"textDocument": {"uri": yaml}}),
        );
        c.diagnostics(yaml, v);
    }
    c.shutdown();
}

impl Client {
    /// Every `publishDiagnostics` for `uri` received so far, in order: (version, count).
    fn published(&self, uri: &str) -> Vec<(Value, usize)> {
        self.seen
            .iter()
            .filter(|n| n.method == "textDocument/publishDiagnostics" && n.params["uri"] == uri)
            .map(|n| {
                let count = n.params["diagnostics"]
                    .as_array()
                    .map_or(usize::MAX, Vec::len);
                (n.params["version"].clone(), count)
            })
            .collect()
    }

    /// Wait until `uri` has had `n` publications.
    fn wait_published(&mut self, uri: &str, n: usize) {
        let deadline = Instant::now() + PATIENCE;
        while self.published(uri).len() < n {
            assert!(Instant::now() < deadline, "no publication {n} for {uri}");
            if let Message::Notification(n) = self.recv() {
                self.seen.push(n);
            }
        }
    }
}

/// The edit lifecycle (issue 22, item 7b): a burst of edits publishes diagnostics only for
/// the last version; no stale version after a newer one; fixing the file publishes an empty
/// list; `didClose` clears (an empty list).
#[test]
fn edit_lifecycle_publishes_the_last_version_and_clears() {
    let mut c = Client::start();
    let uri = "file:///tmp/lifecycle.json";
    let good = example("agentpm/react-loop.json");
    let bad = example("invalid/broken-multi.json");
    c.open(uri, &bad);
    let first = c.diagnostics(uri, 1);
    assert!(!first.is_empty(), "broken-multi.json has diagnostics");
    // A burst: versions 2..=20, well within the debounce of each other, the last broken.
    for v in 2..=20 {
        let text = if v % 2 == 0 { &bad } else { &good };
        c.change(uri, v, text);
    }
    let last = c.diagnostics(uri, 20);
    assert_eq!(
        last.len(),
        first.len(),
        "v20 is the broken text again: {last:?}"
    );
    // A round trip to the server: anything it published before answering is in `seen`.
    c.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": uri}}),
    );
    let versions: Vec<Value> = c.published(uri).into_iter().map(|(v, _)| v).collect();
    assert_eq!(
        versions,
        [json!(1), json!(20)],
        "only the burst's last version is published"
    );
    // Fixed: the fix publishes an empty list.
    c.change(uri, 21, &good);
    assert_eq!(
        c.diagnostics(uri, 21),
        Vec::<Value>::new(),
        "the fix clears"
    );
    // didClose: an empty list (without a version: the document is gone).
    c.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": uri}}),
    );
    let before = c.published(uri).len();
    c.wait_published(uri, before + 1);
    let all = c.published(uri);
    assert_eq!(
        all.last(),
        Some(&(Value::Null, 0)),
        "didClose publishes an empty list: {all:?}"
    );
    // Never a stale version after a newer one.
    let numbers: Vec<i64> = all.iter().filter_map(|(v, _)| v.as_i64()).collect();
    assert!(numbers.windows(2).all(|w| w[0] < w[1]), "{numbers:?}");
    c.shutdown();
}

/// The hostile inputs through the language server (issue 22, item 7c): hover and
/// completion at many places of every file answer, none with an error.
#[test]
fn hostile_inputs_hover_and_complete() {
    let mut c = Client::start();
    let mut hovers = 0;
    for f in support::loop_files(&support::examples().join("hostile")) {
        let text = String::from_utf8(support::read(&f)).expect("UTF-8");
        let ext = if support::rel(&f).ends_with(".json") {
            "json"
        } else {
            "yaml"
        };
        let uri = format!("file:///tmp/hostile.{ext}");
        c.open(&uri, &text);
        c.diagnostics(&uri, 1);
        let lines: Vec<&str> = text.lines().collect();
        let step = (lines.len() / 40).max(1);
        for (line, l) in lines.iter().enumerate().step_by(step) {
            let chars = l.encode_utf16().count();
            for ch in [0, chars / 2, chars] {
                let p = at(&uri, json!({"line": line, "character": ch}));
                let h = c.try_request("textDocument/hover", p.clone());
                let h =
                    h.unwrap_or_else(|e| panic!("{}: hover {line}:{ch}: {e}", support::rel(&f)));
                hovers += usize::from(!h.is_null());
                let items = c.try_request("textDocument/completion", p);
                let items = items.unwrap_or_else(|e| {
                    panic!("{}: completion {line}:{ch}: {e}", support::rel(&f))
                });
                assert!(
                    items.is_null() || items.is_array() || items.is_object(),
                    "{items}"
                );
            }
        }
        c.notify(
            "textDocument/didClose",
            json!({"textDocument": {"uri": uri}}),
        );
    }
    assert!(hovers > 0, "no hover anywhere: the positions miss every id");
    c.shutdown();
}

/// Hover text is Markdown built from user text: the objective and the outcome description
/// are escaped, so an objective cannot become an image, a link or raw HTML in the editor.
#[test]
fn hover_escapes_user_text() {
    let text = r#"{"kind": "loop", "name": "h", "version": "1.0.0", "description": "d",
 "loop": {"entry_phase": "work", "phases": [{"id": "work", "objective": "<img src=x onerror=alert(1)> [x](https://e.example) ![i](https://e.example/i.png) *em*",
  "outcomes": [{"id": "done", "description": "<b>bold</b> [y](https://e.example)"}]}],
  "transitions": [{"from": "work", "on": "done", "to": "$end"}]}}"#;
    let mut c = Client::start();
    c.open(URI, text);
    c.diagnostics(URI, 1);
    let hover = |c: &mut Client, needle: &str| {
        let offset = text.rfind(needle).expect("the id is in the text") + 1;
        let line = text[..offset].matches('\n').count();
        let col = text[..offset]
            .rsplit('\n')
            .next()
            .unwrap_or("")
            .encode_utf16()
            .count();
        let h = c.request(
            "textDocument/hover",
            at(URI, json!({"line": line, "character": col})),
        );
        h["contents"]["value"].as_str().expect("a hover").to_owned()
    };
    let phase = hover(&mut c, "\"work\", \"on\"");
    assert!(phase.contains("**phase `work`**"), "{phase}");
    let outcome = hover(&mut c, "\"done\", \"to\"");
    for value in [&phase, &outcome] {
        for raw in ["<img", "<b>", "[x](", "![i](", "[y]("] {
            assert!(!value.contains(raw), "{raw} in {value}");
        }
    }
    assert!(phase.contains("&lt;img"), "{phase}");
    c.shutdown();
}

/// Completion in a loop of 1,000 phases: the typed prefix filters, the best matches come
/// first, and the answer is bounded and marked incomplete when more ids match.
#[test]
fn completion_is_filtered_ranked_and_bounded() {
    let n = 1_000;
    let phases: Vec<String> = (0..n)
        .map(|i| format!(r#"{{"id": "p{i}", "objective": "o"}}"#))
        .collect();
    let transitions: Vec<String> = (0..n)
        .map(|i| format!(r#"{{"from": "p{i}", "on": "complete", "to": "$end"}}"#))
        .collect();
    let text = format!(
        r#"{{"kind": "loop", "name": "big", "version": "1.0.0", "description": "d",
"loop": {{"entry_phase": "p0", "phases": [{}],
"transitions": [{}]}}}}"#,
        phases.join(", "),
        transitions.join(", ")
    );
    let mut c = Client::start();
    c.open(URI, &text);
    c.diagnostics(URI, 1);
    let complete = |c: &mut Client, version: i32, typed: &str| {
        let edited = text.replacen(
            r#""entry_phase": "p0""#,
            &format!(r#""entry_phase": "{typed}"#),
            1,
        );
        c.change(URI, version, &edited);
        let p = pos(&edited, r#""entry_phase": ""#, 0, 16 + typed.len());
        c.request("textDocument/completion", at(URI, p))
    };
    let all = complete(&mut c, 2, "");
    assert_eq!(all["isIncomplete"], true);
    let items = all["items"].as_array().unwrap();
    assert_eq!(items.len(), 100);
    assert_eq!(items[0]["label"], "p0");

    let some = complete(&mut c, 3, "p99");
    // `p99` itself, then `p990`..`p999`, then the ids that hold `p`, `9`, `9` in order
    // (`p199`, `p909`, ...); nothing else.
    let got = labels(&some);
    let prefixed: Vec<String> = std::iter::once("p99".to_owned())
        .chain((990..1000).map(|i| format!("p{i}")))
        .collect();
    assert_eq!(got[..11], prefixed, "{got:?}");
    assert_eq!(got.len(), 28, "{got:?}");
    assert!(got[11..].iter().all(|l| !l.starts_with("p99")), "{got:?}");

    let fuzzy = complete(&mut c, 4, "P999");
    assert_eq!(labels(&fuzzy), ["p999"]);
    c.shutdown();
}

/// An XState machine gets its diagnostics like a loop of the other formats: the gate it
/// bypasses, at the target, with the code's page; the fixed machine is clean. Its targets
/// lead to their states.
#[test]
fn xstate_machines_get_diagnostics() {
    let mut c = Client::start();
    let uri = "file:///tmp/ship.xstate.json";
    let text = example("invalid/F019-xstate-checkpoint-gate.json");
    c.open(uri, &text);
    let ds = c.diagnostics(uri, 1);
    assert_eq!(ds.len(), 1, "{ds:#?}");
    assert_eq!(ds[0]["code"], "F019");
    assert_eq!(ds[0]["range"]["start"], pos(&text, "\"deploy\"", 0, 0));
    let href = ds[0]["codeDescription"]["href"].as_str().unwrap();
    assert!(href.ends_with("/docs/src/codes/F019.md"), "{href}");
    // A target jumps to the state's key.
    let target = pos(&text, "\"deploy\"", 0, 1);
    let def = c.request("textDocument/definition", at(uri, target));
    assert_eq!(def["range"]["start"], pos(&text, "\"deploy\": {", 0, 0));
    let fixed = text.replacen(
        r#""complete": "deploy""#,
        r#""complete": "approve-deploy""#,
        1,
    );
    c.change(uri, 2, &fixed);
    assert_eq!(c.diagnostics(uri, 2), Vec::<Value>::new());
    c.shutdown();
}

/// The `entry` of an IR file's graph is a reference to its entry phase: definition leads
/// to the phase, and a rename of the phase renames it too, leaving a clean file.
#[test]
fn the_ir_graph_entry_is_a_phase_reference() {
    let out = support::loopconv()
        .args(["convert", "--to", "ir"])
        .arg(support::examples().join("agentpm/code-review-sign-off.json"))
        .output()
        .expect("run loopconv");
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    let uri = "file:///tmp/code-review.ir.json";
    let mut c = Client::start();
    c.open(uri, &text);
    assert_eq!(c.diagnostics(uri, 1), Vec::<Value>::new());
    let entry = pos(&text, "\"entry\": \"gather\"", 0, "\"entry\": \"".len());
    let def = c.request("textDocument/definition", at(uri, entry.clone()));
    let decl = pos(&text, "\"id\": \"gather\"", 0, "\"id\": ".len());
    assert_eq!(def["range"]["start"], decl, "{def}");
    let edit = c.request(
        "textDocument/rename",
        json!({"textDocument": {"uri": uri}, "position": entry, "newName": "collect"}),
    );
    let mut edits = edit["changes"][uri].as_array().expect("edits").clone();
    edits.sort_by_key(|e| {
        let at = &e["range"]["start"];
        (at["line"].as_u64(), at["character"].as_u64())
    });
    let renamed = edits.iter().rev().fold(text, |t, e| apply(&t, e));
    assert!(renamed.contains("\"entry\": \"collect\""), "{renamed}");
    c.change(uri, 2, &renamed);
    assert_eq!(c.diagnostics(uri, 2), Vec::<Value>::new());
    c.shutdown();
}

/// The change of `text[from..to]` into `new`, as an editor sends it with incremental
/// synchronisation (UTF-16 positions in the text before the change), applied to `text`.
fn edit(text: &mut String, from: usize, to: usize, new: &str) -> Value {
    let position = |at: usize| {
        let line = text[..at].matches('\n').count();
        let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
        let col: usize = text[start..at].chars().map(char::len_utf16).sum();
        json!({"line": line, "character": col})
    };
    let change = json!({"range": {"start": position(from), "end": position(to)}, "text": new});
    text.replace_range(from..to, new);
    change
}

/// The server asks for incremental changes and applies them as the client did: after
/// changes in UTF-16 positions after an emoji, across lines and several in one
/// notification, its diagnostics and hover are those of the whole text opened afresh.
#[test]
fn incremental_changes_edit_the_text_as_the_client_did() {
    let mut text = "kind: loop\nname: x\nversion: 0.1.0\ndescription: d\nloop:\n  entry_phase: plan\n  phases:\n    - id: plan\n      objective: \"Plan \u{1f600} it.\"\n    - id: build\n      objective: Build.\n  transitions:\n    - {from: plan, on: complete, to: build}\n    - {from: build, on: complete, to: $end}\n".to_owned();
    let mut c = Client::start();
    // Incremental (2), not full (1).
    assert_eq!(c.init["capabilities"]["textDocumentSync"], 2, "{}", c.init);
    let uri = "file:///tmp/inc.yaml";
    c.open(uri, &text);
    let opened = c.diagnostics(uri, 1);
    // F012 (no `$schema`) and F020 (an AgentPM manifest in YAML) only.
    assert!(
        opened
            .iter()
            .all(|d| d["code"] == "F012" || d["code"] == "F020"),
        "{opened:#?}"
    );

    let it = text.find("it.\"").expect("it");
    let first = edit(&mut text, it, it + 2, "that");
    let build = text.rfind("to: build").expect("to") + 4;
    let second = edit(&mut text, build, build + 5, "biuld");
    let lines = text.find("    - id: build").expect("build");
    let end = text.find("  transitions").expect("transitions");
    let third = edit(
        &mut text,
        lines,
        end,
        "    - id: ship\n      objective: Ship.\n",
    );
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [first, second, third]}),
    );
    let edited = c.diagnostics(uri, 2);
    let codes: Vec<&str> = edited.iter().filter_map(|d| d["code"].as_str()).collect();
    assert!(codes.contains(&"V009"), "{edited:#?}");

    let fresh = "file:///tmp/fresh/inc.yaml";
    c.open(fresh, &text);
    let afresh = serde_json::to_string(&c.diagnostics(fresh, 1)).expect("JSON");
    let edited = serde_json::to_string(&edited).expect("JSON");
    assert_eq!(edited, afresh.replace(fresh, uri));

    let hover = c.request("textDocument/hover", at(uri, pos(&text, "plan\n", 1, 0)));
    let shown = hover["contents"]["value"].as_str().expect("a hover");
    assert!(shown.contains("Plan \u{1f600} that."), "{shown}");
    c.shutdown();
}

/// A message whose body is not JSON-RPC is skipped, said to the client
/// (`window/logMessage`), and the session goes on; after `shutdown` a request is
/// answered `InvalidRequest`, and `exit` ends the process with 0 after `shutdown`,
/// with 1 without it, as the protocol says.
#[test]
fn protocol_mistakes_do_not_end_the_session() {
    let mut c = Client::start();
    for body in ["{not json", "{}", "[1, 2]"] {
        let framed = format!("Content-Length: {}\r\n\r\n{body}", body.len());
        let stdin = c.stdin.as_mut().expect("stdin open");
        std::io::Write::write_all(stdin, framed.as_bytes()).expect("write");
    }
    // Still answering.
    let answer = c.try_request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": "file:///nowhere.json"}}),
    );
    assert!(answer.is_err_and(|e| e.contains("not open")));
    // And the client was told, once a skipped message.
    let told = c
        .seen
        .iter()
        .filter(|n| n.method == "window/logMessage")
        .filter(|n| {
            n.params["message"]
                .as_str()
                .is_some_and(|m| m.contains("skipped a message"))
        })
        .count();
    assert_eq!(told, 3, "{:?}", c.seen);
    assert_eq!(c.request("shutdown", Value::Null), Value::Null);
    let late = c.try_request(
        "textDocument/hover",
        at("file:///nowhere.json", json!({"line": 0, "character": 0})),
    );
    assert!(late.is_err_and(|e| e.contains("shutting down")));
    c.shutdown_after_shutdown(0);
    // `exit` with no `shutdown` before it.
    Client::start().shutdown_after_shutdown(1);
}

/// A message whose headers are malformed is skipped and said to the client
/// (`window/logMessage`), as one whose body is, and the session goes on: with a
/// `Content-Length`, its body is skipped; without a usable one, the input up to the next
/// `Content-Length` header.
#[test]
fn a_malformed_header_does_not_end_the_session() {
    let mut c = Client::start();
    let body = r#"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{}}"#;
    let broken = [
        format!("Content-Length: x\r\n\r\n{body}"),
        format!("Content-Type: text/plain\r\n\r\n{body}"),
        format!("Content-Length: {}\nno header\n\n{body}", body.len()),
        format!("{body}\r\n"),
    ];
    // Each followed by a good message, where the skipping of a body without a length ends
    // (two such bodies in a row are one run of bytes to skip).
    let noop = r#"{"jsonrpc":"2.0","method":"$/noop"}"#;
    for bytes in &broken {
        let framed = format!("{bytes}Content-Length: {}\r\n\r\n{noop}", noop.len());
        let stdin = c.stdin.as_mut().expect("stdin open");
        std::io::Write::write_all(stdin, framed.as_bytes()).expect("write");
    }
    // Still answering, and the client was told, once a skipped message.
    let uri = "file:///tmp/after-bad-headers.json";
    c.open(uri, &example("invalid/V009-unknown-transition-target.json"));
    assert!(c.diagnostics(uri, 1).iter().any(|d| d["code"] == "V009"));
    let told: Vec<&str> = c
        .seen
        .iter()
        .filter(|n| n.method == "window/logMessage")
        .filter_map(|n| n.params["message"].as_str())
        .filter(|m| m.contains("skipped a message: malformed LSP header"))
        .collect();
    assert_eq!(told.len(), broken.len(), "{told:#?}");
    c.shutdown();
}

/// A malformed message between the answer to `initialize` and `initialized` is skipped and
/// said, as later.
#[test]
fn a_malformed_message_before_initialized_does_not_end_the_session() {
    let body = r#"{"jsonrpc":"2.0","method":"$/noop"}"#;
    let raw = [
        format!("Content-Length: {}\r\nbogus\r\n\r\n{body}", body.len()),
        "Content-Length: 5\r\n\r\n{nope".to_owned(),
    ]
    .concat();
    let mut c = Client::start_with(raw.as_bytes());
    let uri = "file:///tmp/after-bad-start.json";
    c.open(uri, &example("invalid/V009-unknown-transition-target.json"));
    assert!(c.diagnostics(uri, 1).iter().any(|d| d["code"] == "V009"));
    let told = (c.seen.iter())
        .filter(|n| n.method == "window/logMessage")
        .filter(|n| {
            n.params["message"]
                .as_str()
                .is_some_and(|m| m.contains("skipped a message"))
        })
        .count();
    assert_eq!(told, 2);
    c.shutdown();
}

/// Definition across files: from a team step's `loop` to the `name` of that loop, in its
/// own file of the workspace (the nearest `specs/` folder above the team).
#[test]
fn definition_from_a_step_loop_to_the_loop_file() {
    let specs = support::examples().join("workspaces/mas-release/specs");
    let team = specs.join("teams/release.json");
    let uri = format!("file://{}", team.display());
    let text = String::from_utf8(support::read(&team)).expect("UTF-8");
    let mut c = Client::start();
    c.open(&uri, &text);
    c.diagnostics(&uri, 1);
    let def = c.request(
        "textDocument/definition",
        at(&uri, pos(&text, "\"docs-fix\" }", 0, 2)),
    );
    let want = format!("file://{}", specs.join("loops/docs-fix.yaml").display());
    assert_eq!(def["uri"], want.as_str(), "{def}");
    assert_eq!(
        def["range"]["start"],
        json!({"line": 0, "character": 6}),
        "{def}"
    );
    // Elsewhere in the team: nothing.
    let none = c.request(
        "textDocument/definition",
        at(&uri, pos(&text, "\"release\"", 0, 2)),
    );
    assert!(none.is_null(), "{none}");
    c.shutdown();
}

/// A request between the answer to `initialize` and `initialized` is answered with an
/// error (`ServerNotInitialized`, -32002), and the session goes on.
#[test]
fn a_request_before_initialized_is_answered_with_an_error_and_the_session_goes_on() {
    let body = r#"{"jsonrpc":"2.0","id":"early","method":"textDocument/hover","params":{"textDocument":{"uri":"file:///tmp/x.json"},"position":{"line":0,"character":0}}}"#;
    let raw = format!("Content-Length: {}\r\n\r\n{body}", body.len());
    let mut c = Client::start_with(raw.as_bytes());
    let uri = "file:///tmp/after-early-request.json";
    c.open(uri, &example("invalid/V009-unknown-transition-target.json"));
    assert!(c.diagnostics(uri, 1).iter().any(|d| d["code"] == "V009"));
    let early = (c.answers.iter())
        .find(|r| r.id == RequestId::from("early".to_owned()))
        .unwrap_or_else(|| panic!("no answer to the early request: {:?}", c.answers));
    let e = early.response_result.as_ref().expect_err("an error");
    assert_eq!(e.code, -32002, "{e:?}");
    assert!(e.message.contains("initialized"), "{e:?}");
    c.shutdown();
}
