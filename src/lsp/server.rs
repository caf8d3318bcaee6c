//! The protocol loop and the document store.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::{Duration, Instant};

use crossbeam_channel::RecvTimeoutError;
use lsp_server::{
    Connection, ErrorCode, Message, Notification, ProtocolError, Request, RequestId, Response,
};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, Notification as _,
    PublishDiagnostics,
};
use lsp_types::{
    CompletionOptions, OneOf, PublishDiagnosticsParams, ServerCapabilities,
    TextDocumentSyncCapability, TextDocumentSyncKind,
};

use super::documents::{Doc, Server};
use super::requests;

/// How long the edits of a document must pause before its diagnostics are published.
pub const DEBOUNCE: Duration = Duration::from_millis(150);

/// The capabilities loopconv's server offers.
pub fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(
            TextDocumentSyncKind::INCREMENTAL,
        )),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        hover_provider: Some(lsp_types::HoverProviderCapability::Simple(true)),
        document_symbol_provider: Some(OneOf::Left(true)),
        rename_provider: Some(OneOf::Left(true)),
        code_action_provider: Some(lsp_types::CodeActionProviderCapability::Simple(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec!["\"".into(), ":".into(), " ".into()]),
            ..CompletionOptions::default()
        }),
        ..ServerCapabilities::default()
    }
}

/// How a session ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// `exit` after `shutdown`, or the client hung up after `shutdown`.
    Cleanly,
    /// `exit` without `shutdown`, or the client hung up first: the process exits with 1,
    /// as the protocol says.
    WithoutShutdown,
}

/// Why a session ended before `exit`: the protocol was broken.
#[derive(Debug)]
pub struct SessionError(String);

impl std::fmt::Display for SessionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SessionError {}

impl From<ProtocolError> for SessionError {
    fn from(e: ProtocolError) -> SessionError {
        SessionError(e.to_string())
    }
}

/// Serve one client until it sends `exit` (or hangs up). After `shutdown` every request
/// but `exit` is answered `InvalidRequest`.
pub fn serve(conn: &Connection) -> Result<Ended, SessionError> {
    let caps = serde_json::json!({
        "capabilities": capabilities(),
        "serverInfo": {"name": "loopconv", "version": env!("CARGO_PKG_VERSION")},
    });
    let (id, _params) = conn.initialize_start()?;
    finish_initialize(conn, id, caps)?;
    let mut server = Server::default();
    let mut shut_down = false;
    let ended = |shut_down: bool| {
        Ok(if shut_down {
            Ended::Cleanly
        } else {
            Ended::WithoutShutdown
        })
    };
    loop {
        let msg = match server.next_due() {
            Some(due) => match conn
                .receiver
                .recv_timeout(due.saturating_duration_since(Instant::now()))
            {
                Ok(m) => Some(m),
                Err(RecvTimeoutError::Timeout) => None,
                Err(RecvTimeoutError::Disconnected) => return ended(shut_down),
            },
            None => match conn.receiver.recv() {
                Ok(m) => Some(m),
                Err(_) => return ended(shut_down),
            },
        };
        match msg {
            None => server.publish_due(conn, Instant::now()),
            Some(Message::Request(req)) if shut_down => send(
                conn,
                Message::Response(Response::new_err(
                    req.id,
                    ErrorCode::InvalidRequest as i32,
                    "the server is shutting down: only `exit` is answered".to_owned(),
                )),
            ),
            Some(Message::Request(req)) if req.method == "shutdown" => {
                shut_down = true;
                send(conn, Message::Response(Response::new_ok(req.id, ())));
            }
            Some(Message::Request(req)) => {
                let resp = server.respond(req);
                send(conn, Message::Response(resp));
            }
            Some(Message::Notification(n)) if n.method == "exit" => return ended(shut_down),
            Some(Message::Notification(n)) if n.method == super::transport::SKIPPED => {
                log_skipped(conn, &n);
            }
            Some(Message::Notification(n)) => server.notify(conn, n),
            Some(Message::Response(_)) => {}
        }
    }
}

/// Answer `initialize` and wait for `initialized`, as `lsp_server`'s `initialize_finish`
/// does, except that a message the reader skipped meanwhile (a malformed one) is said to
/// the client and the wait goes on: `initialize_finish` ended the session on it.
fn finish_initialize(
    conn: &Connection,
    id: RequestId,
    result: serde_json::Value,
) -> Result<(), SessionError> {
    send(conn, Message::Response(Response::new_ok(id, result)));
    loop {
        match conn.receiver.recv() {
            Ok(Message::Notification(n)) if n.method == "initialized" => return Ok(()),
            Ok(Message::Notification(n)) if n.method == super::transport::SKIPPED => {
                log_skipped(conn, &n);
            }
            // A request before `initialized` is answered with an error, and the wait goes
            // on: the session does not end on it.
            Ok(Message::Request(req)) => send(
                conn,
                Message::Response(Response::new_err(
                    req.id,
                    ErrorCode::ServerNotInitialized as i32,
                    format!(
                        "`{}` before the `initialized` notification: send `initialized` first",
                        crate::diag::cut(&req.method)
                    ),
                )),
            ),
            Ok(Message::Notification(n)) if n.method == "exit" => {
                return Err(SessionError(
                    "`exit` before the `initialized` notification".to_owned(),
                ));
            }
            // Any other notification before `initialized` is dropped, as the protocol
            // allows, and said.
            Ok(Message::Notification(n)) => log(
                conn,
                format!(
                    "loopconv ignored `{}`, sent before the `initialized` notification",
                    crate::diag::cut(&n.method)
                ),
            ),
            Ok(Message::Response(_)) => {}
            Err(_) => return Err(SessionError("disconnected channel".to_owned())),
        }
    }
}

/// Tell the client that the reader skipped a message, and why (`window/logMessage`).
fn log_skipped(conn: &Connection, n: &Notification) {
    let message = format!(
        "loopconv skipped a message: {}",
        n.params.as_str().unwrap_or("")
    );
    log(conn, message);
}

/// A warning to the client's log (`window/logMessage`).
fn log(conn: &Connection, message: String) {
    let params = lsp_types::LogMessageParams {
        typ: lsp_types::MessageType::WARNING,
        message,
    };
    send(
        conn,
        Message::Notification(Notification::new("window/logMessage".into(), params)),
    );
}

/// Send `textDocument/publishDiagnostics`.
fn publish_params(conn: &Connection, params: PublishDiagnosticsParams) {
    send(
        conn,
        Message::Notification(Notification::new(PublishDiagnostics::METHOD.into(), params)),
    );
}

fn send(conn: &Connection, msg: Message) {
    // The client went away: the next receive ends the loop.
    let _ = conn.sender.send(msg);
}

impl Server {
    fn next_due(&self) -> Option<Instant> {
        self.docs.values().filter_map(|(_, d)| d.due).min()
    }

    /// Publish the diagnostics of every document whose edits paused.
    fn publish_due(&mut self, conn: &Connection, now: Instant) {
        let keys: Vec<String> = self
            .docs
            .iter()
            .filter(|(_, (_, d))| d.due.is_some_and(|t| t <= now))
            .map(|(k, _)| k.clone())
            .collect();
        for k in keys {
            self.publish(conn, &k);
        }
    }

    /// Publish the diagnostics of the document at `key`, and, in a workspace, of every
    /// file whose diagnostics across files changed with it.
    fn publish(&mut self, conn: &Connection, key: &str) {
        for params in super::across::after_edit(self, key) {
            publish_params(conn, params);
        }
    }

    fn notify(&mut self, conn: &Connection, n: Notification) {
        match n.method.as_str() {
            DidOpenTextDocument::METHOD => {
                let Ok(p) =
                    serde_json::from_value::<lsp_types::DidOpenTextDocumentParams>(n.params)
                else {
                    return;
                };
                let key = p.text_document.uri.as_str().to_owned();
                let doc = Doc::new(p.text_document.text, p.text_document.version);
                self.docs.insert(key.clone(), (p.text_document.uri, doc));
                self.publish(conn, &key);
            }
            DidChangeTextDocument::METHOD => {
                let Ok(p) =
                    serde_json::from_value::<lsp_types::DidChangeTextDocumentParams>(n.params)
                else {
                    return;
                };
                let Some((_, doc)) = self.docs.get_mut(p.text_document.uri.as_str()) else {
                    return;
                };
                // Incremental synchronisation: ranges replaced, in order (a change
                // without a range holds the whole text).
                if !p.content_changes.is_empty() {
                    doc.edit(p.content_changes);
                    doc.version = p.text_document.version;
                    doc.due = Some(Instant::now() + DEBOUNCE);
                }
            }
            DidCloseTextDocument::METHOD => {
                let Ok(p) =
                    serde_json::from_value::<lsp_types::DidCloseTextDocumentParams>(n.params)
                else {
                    return;
                };
                if self.docs.remove(p.text_document.uri.as_str()).is_some() {
                    let path = super::workspace::file_path(&p.text_document.uri);
                    let params =
                        PublishDiagnosticsParams::new(p.text_document.uri, Vec::new(), None);
                    publish_params(conn, params);
                    // The file as it is on disk takes the buffer's place in its workspace.
                    for params in
                        path.map_or_else(Vec::new, |p| super::across::after_close(self, &p))
                    {
                        publish_params(conn, params);
                    }
                }
            }
            _ => {}
        }
    }

    /// Answer a request; a handler that panics answers with an internal error.
    fn respond(&mut self, req: Request) -> Response {
        let id = req.id.clone();
        match catch_unwind(AssertUnwindSafe(|| requests::handle(self, &req))) {
            Ok(Ok(v)) => Response::new_ok(id, v),
            Ok(Err((code, msg))) => Response::new_err(id, code as i32, msg),
            Err(_) => Response::new_err(
                id,
                ErrorCode::InternalError as i32,
                format!(
                    "loopconv failed on `{}` (a bug; please report it)",
                    req.method
                ),
            ),
        }
    }
}
