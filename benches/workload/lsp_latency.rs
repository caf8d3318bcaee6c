//! The language server's latency end to end, as an editor sees it, beside `check` of the
//! same file (used by the benchmarks; not a user-facing command):
//! `cargo run --release --example lsp-latency -- target/release/loopconv FILE [ROUNDS]`.
//!
//! Starts `loopconv lsp`, opens FILE, then each round: one character typed (a change of a
//! range, or the whole text when the server asks for it) and the time until its
//! diagnostics arrive, less the server's pause (`loopconv::lsp::DEBOUNCE`); a completion
//! request right after a keystroke; the whole text sent again. Then `loopconv check FILE` as a new
//! process, ROUNDS times. Prints the median and the fastest of each, and the ratios of the
//! medians to `check`'s.

use std::io::BufReader;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use lsp_server::{Message, Notification, Request, RequestId};
use serde_json::{Value, json};

struct Server {
    /// Whether the server takes incremental changes (else each change is the whole text).
    incremental: bool,
    child: Child,
    stdin: ChildStdin,
    inbox: Receiver<(Instant, Message)>,
    id: i32,
}

impl Server {
    fn send(&mut self, m: Message) {
        m.write(&mut self.stdin).expect("write to the server");
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(Message::Notification(Notification::new(
            method.into(),
            params,
        )));
    }

    /// Send a request; the time until its answer, and the answer.
    fn request(&mut self, method: &str, params: Value) -> (Duration, Value) {
        self.id += 1;
        let id = RequestId::from(self.id);
        let start = Instant::now();
        self.send(Message::Request(Request::new(
            id.clone(),
            method.into(),
            params,
        )));
        loop {
            match self.inbox.recv().expect("the server answers") {
                (at, Message::Response(r)) if r.id == id => {
                    return (at - start, r.response_result.unwrap_or_default());
                }
                _ => {}
            }
        }
    }

    /// When the diagnostics of `version` arrived.
    fn diagnostics(&mut self, version: i32) -> Instant {
        loop {
            if let (at, Message::Notification(n)) = self.inbox.recv().expect("diagnostics")
                && n.method == "textDocument/publishDiagnostics"
                && n.params["version"] == version
            {
                return at;
            }
        }
    }

    fn change(&mut self, version: i32, change: Value) {
        let params =
            json!({"textDocument": {"uri": URI, "version": version}, "contentChanges": [change]});
        self.notify("textDocument/didChange", params);
    }
}

const URI: &str = "file:///tmp/latency.json";

fn start(binary: &str) -> Server {
    let mut child = Command::new(binary)
        .arg("lsp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start the server");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, inbox) = channel();
    std::thread::spawn(move || {
        let mut r = BufReader::new(stdout);
        while let Ok(Some(m)) = Message::read(&mut r) {
            if tx.send((Instant::now(), m)).is_err() {
                break;
            }
        }
    });
    let stdin = child.stdin.take().expect("stdin");
    let mut s = Server {
        incremental: false,
        child,
        stdin,
        inbox,
        id: 0,
    };
    let (_, init) = s.request("initialize", json!({"capabilities": {}}));
    s.incremental = init["capabilities"]["textDocumentSync"] == 2;
    s.notify("initialized", json!({}));
    s
}

/// The median and the fastest, in milliseconds.
fn summary(times: &mut [Duration]) -> (f64, f64) {
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    (ms(times[times.len() / 2]), ms(times[0]))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [binary, file, rest @ ..] = &args[..] else {
        eprintln!("usage: lsp-latency LOOPCONV FILE [ROUNDS]");
        std::process::exit(2);
    };
    let rounds: i32 = rest.first().and_then(|r| r.parse().ok()).unwrap_or(10);
    let text = std::fs::read_to_string(file).expect("FILE is readable text");
    let mut s = start(binary);
    let open =
        json!({"textDocument": {"uri": URI, "languageId": "json", "version": 1, "text": text}});
    s.notify("textDocument/didOpen", open);
    s.diagnostics(1);
    // A character typed in the last reference (`"to": "p…` gets another `p`, then loses it).
    let at = text.rfind("\"to\": \"").map_or(0, |i| i + 7);
    let line = text[..at].matches('\n').count();
    let col = text[text[..at].rfind('\n').map_or(0, |i| i + 1)..at]
        .encode_utf16()
        .count();
    let pos = |c: usize| json!({"line": line, "character": c});
    let typed = format!("{}p{}", &text[..at], &text[at..]);
    // A keystroke: `p` typed (or deleted again), as a range or as the whole text.
    let keystroke = |incremental: bool, insert: bool| match (incremental, insert) {
        (true, true) => json!({"range": {"start": pos(col), "end": pos(col)}, "text": "p"}),
        (true, false) => json!({"range": {"start": pos(col), "end": pos(col + 1)}, "text": ""}),
        (false, true) => json!({ "text": typed }),
        (false, false) => json!({ "text": text }),
    };
    let (mut incremental, mut full, mut completion) = (Vec::new(), Vec::new(), Vec::new());
    let mut items = Value::Null;
    for r in 0..rounds {
        let v = 2 + 5 * r;
        // A keystroke and its diagnostics, and the keystroke undone.
        let start = Instant::now();
        s.change(v, keystroke(s.incremental, true));
        incremental.push(s.diagnostics(v) - start - loopconv::lsp::DEBOUNCE);
        s.change(v + 1, keystroke(s.incremental, false));
        s.diagnostics(v + 1);
        // A keystroke and a completion right after it (a prefix every phase id has).
        s.change(v + 2, keystroke(s.incremental, true));
        let took;
        (took, items) = s.request(
            "textDocument/completion",
            json!({"textDocument": {"uri": URI}, "position": pos(col + 1)}),
        );
        completion.push(took);
        s.diagnostics(v + 2);
        s.change(v + 3, keystroke(s.incremental, false));
        s.diagnostics(v + 3);
        // The same text again, whole.
        let start = Instant::now();
        s.change(v + 4, keystroke(false, false));
        full.push(s.diagnostics(v + 4) - start - loopconv::lsp::DEBOUNCE);
    }
    s.request("shutdown", Value::Null);
    s.notify("exit", Value::Null);
    let status = s.child.wait().expect("the server exits");
    assert!(status.success(), "the server exited with {status}");
    let mut check: Vec<Duration> = (0..rounds)
        .map(|_| {
            let start = Instant::now();
            Command::new(binary)
                .args(["check", file.as_str()])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .expect("run check");
            start.elapsed()
        })
        .collect();
    let (check_ms, check_min) = summary(&mut check);
    let sync = if s.incremental {
        "incremental"
    } else {
        "whole text"
    };
    println!("the server's synchronisation: {sync}");
    let count = items["items"].as_array().map_or(0, Vec::len);
    println!(
        "completion: {count} items, incomplete: {}",
        items["isIncomplete"]
    );
    println!("check, a new process:         median {check_ms:7.1} ms, fastest {check_min:7.1} ms");
    for (name, times) in [
        ("edit (a keystroke), beyond the pause", &mut incremental),
        ("edit (full text), beyond the pause", &mut full),
        ("completion after a keystroke", &mut completion),
    ] {
        let (median, min) = summary(times);
        println!(
            "{name:<37} median {median:7.1} ms, fastest {min:7.1} ms, {:.2}x check",
            median / check_ms
        );
    }
}
