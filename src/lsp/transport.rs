//! Standard input and output as a [`Connection`], with a reader that parses each message
//! once, straight from its bytes.
//!
//! `lsp_server`'s own reader goes through serde's buffering of an untagged enum: a
//! `didChange` or `didOpen` holding a 7.8 MB text was copied four times (the bytes, the
//! buffered content, the JSON value, the parameters) before the server saw it. This one
//! reads the body into one reused buffer and deserializes it into the message's fields.

use std::io::{self, BufRead, Read as _, Write};
use std::thread::{self, JoinHandle};

use crossbeam_channel::{Receiver, Sender, bounded};
use lsp_server::{Connection, Message, Notification, Request, RequestId, Response, ResponseError};
use serde::Deserialize;
use serde_json::Value;

/// The reader and writer threads of [`stdio`].
pub struct IoThreads {
    reader: JoinHandle<io::Result<()>>,
    writer: JoinHandle<io::Result<()>>,
}

impl IoThreads {
    /// Wait for both threads; the first I/O error, if any (a thread that panicked is one).
    pub fn join(self) -> io::Result<()> {
        let panicked = |_| Err(io::Error::other("a language server I/O thread panicked"));
        let reader = self.reader.join().unwrap_or_else(panicked);
        let writer = self.writer.join().unwrap_or_else(panicked);
        reader.and(writer)
    }
}

/// A connection over standard input and output.
pub fn stdio() -> (Connection, IoThreads) {
    let (to_writer, from_server) = bounded::<Message>(0);
    let writer = thread::spawn(move || write_all(&from_server, &mut io::stdout().lock()));
    let (to_server, from_reader) = bounded::<Message>(0);
    let reader = thread::spawn(move || read_all(&mut io::stdin().lock(), &to_server));
    let conn = Connection {
        sender: to_writer,
        receiver: from_reader,
    };
    (conn, IoThreads { reader, writer })
}

fn write_all(from_server: &Receiver<Message>, out: &mut impl Write) -> io::Result<()> {
    from_server.iter().try_for_each(|m| m.write(out))
}

/// The notification the reader sends the server in place of a message whose body is not
/// JSON-RPC (its framing intact: the next message can still be read), with the reason: the
/// server tells the client (`window/logMessage`), and one bad message does not end the
/// session.
pub const SKIPPED: &str = "$/loopconv/skipped";

/// Read messages until the input ends, the server goes away, or `exit` arrives.
pub fn read_all(input: &mut impl BufRead, to_server: &Sender<Message>) -> io::Result<()> {
    let mut body = Vec::new();
    loop {
        let msg = match read(input, &mut body) {
            Ok(Some(msg)) => msg,
            Ok(None) => break,
            Err(e) if is_malformed_body(&e) => {
                Message::Notification(Notification::new(SKIPPED.to_owned(), e.to_string()))
            }
            Err(e) => return Err(e),
        };
        let exit = matches!(&msg, Message::Notification(n) if n.method == "exit");
        if to_server.send(msg).is_err() || exit {
            break;
        }
    }
    Ok(())
}

/// Whether `e` says a message's body, read in full, is not JSON-RPC (the next message can
/// still be read).
fn is_malformed_body(e: &io::Error) -> bool {
    e.get_ref().is_some_and(|inner| inner.is::<Malformed>())
}

/// A message whose body, read in full, is not a JSON-RPC message.
#[derive(Debug)]
struct Malformed(String);

impl std::fmt::Display for Malformed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "malformed LSP payload: {}", self.0)
    }
}

impl std::error::Error for Malformed {}

fn malformed(what: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, Malformed(what))
}

/// One message, its body read into `body`; `None` at the end of the input. A body that is
/// not a JSON-RPC message is an error, as for `lsp_server`.
pub fn read(input: &mut impl BufRead, body: &mut Vec<u8>) -> io::Result<Option<Message>> {
    let Some(len) = content_length(input)? else {
        return Ok(None);
    };
    body.clear();
    body.try_reserve(len).map_err(io::Error::other)?;
    let got = input.take(len as u64).read_to_end(body)?;
    if got < len {
        return Err(invalid("the input ended inside a message"));
    }
    let wire: Wire = serde_json::from_slice(body).map_err(|e| malformed(e.to_string()))?;
    wire.message().map(Some)
}

/// The headers of one message: its `Content-Length`; `None` at the end of the input.
fn content_length(input: &mut impl BufRead) -> io::Result<Option<usize>> {
    let mut len = None;
    let mut line = String::new();
    loop {
        line.clear();
        if input.read_line(&mut line)? == 0 {
            return Ok(None);
        }
        let Some(header) = line.strip_suffix("\r\n") else {
            return Err(invalid(&format!("malformed header: {line:?}")));
        };
        if header.is_empty() {
            return len.map(Some).ok_or_else(|| invalid("no Content-Length"));
        }
        let (name, value) = header
            .split_once(": ")
            .ok_or_else(|| invalid(&format!("malformed header: {header:?}")))?;
        if name.eq_ignore_ascii_case("Content-Length") {
            len = Some(value.trim().parse().map_err(io::Error::other)?);
        }
    }
}

fn invalid(msg: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, msg.to_owned())
}

/// Every field a JSON-RPC message may have; which are present tells what it is.
#[derive(Deserialize)]
struct Wire {
    id: Option<RequestId>,
    method: Option<String>,
    #[serde(default)]
    params: Value,
    result: Option<Value>,
    error: Option<ResponseError>,
}

impl Wire {
    fn message(self) -> io::Result<Message> {
        Ok(match (self.id, self.method) {
            (Some(id), Some(method)) => Message::Request(Request {
                id,
                method,
                params: self.params,
            }),
            (None, Some(method)) => Message::Notification(Notification {
                method,
                params: self.params,
            }),
            (Some(id), None) => Message::Response(Response {
                id,
                response_result: match self.error {
                    Some(e) => Err(e),
                    None => Ok(self.result.unwrap_or(Value::Null)),
                },
            }),
            (None, None) => {
                return Err(malformed(
                    "a message with neither `id` nor `method`".to_owned(),
                ));
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(body: &str) -> Vec<u8> {
        format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
    }

    fn read_one(bytes: &[u8]) -> io::Result<Option<Message>> {
        read(&mut io::BufReader::new(bytes), &mut Vec::new())
    }

    /// Each kind of message reads as `lsp_server`'s own reader reads it.
    #[test]
    fn messages_read_as_lsp_server_reads_them() {
        let bodies = [
            r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#,
            r#"{"jsonrpc":"2.0","id":"a","method":"shutdown"}"#,
            r#"{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"text":"a\"\n\u00e9"}}"#,
            r#"{"jsonrpc":"2.0","method":"exit"}"#,
            r#"{"jsonrpc":"2.0","id":3,"result":{"x":[1]}}"#,
            r#"{"jsonrpc":"2.0","id":4,"result":null}"#,
            r#"{"jsonrpc":"2.0","id":5,"error":{"code":-32601,"message":"no"}}"#,
        ];
        for body in bodies {
            let bytes = frame(body);
            let ours = read_one(&bytes).expect("read").expect("a message");
            let theirs = Message::read(&mut io::BufReader::new(&bytes[..]))
                .expect("read")
                .expect("a message");
            assert_eq!(format!("{ours:?}"), format!("{theirs:?}"), "{body}");
        }
    }

    #[test]
    fn broken_input_is_an_error_or_the_end() {
        assert!(read_one(b"").expect("the end").is_none());
        for bytes in [
            &b"Content-Length: 10\r\n\r\n{}"[..],
            b"Content-Length: 2\n\n{}",
            b"Content-Type: x\r\n\r\n{}",
            b"Content-Length: x\r\n\r\n{}",
            b"Content-Length: 2\r\n\r\n[]",
            b"Content-Length: 2\r\n\r\n{}",
        ] {
            assert!(read_one(bytes).is_err(), "{bytes:?}");
        }
    }

    #[test]
    fn messages_follow_each_other_until_exit() {
        let mut bytes = frame(r#"{"jsonrpc":"2.0","method":"a"}"#);
        bytes.extend(frame(r#"{"jsonrpc":"2.0","method":"exit"}"#));
        bytes.extend(frame(r#"{"jsonrpc":"2.0","method":"after"}"#));
        let (tx, rx) = crossbeam_channel::unbounded();
        read_all(&mut io::BufReader::new(&bytes[..]), &tx).expect("read");
        let methods: Vec<String> = rx
            .try_iter()
            .map(|m| match m {
                Message::Notification(n) => n.method,
                other => format!("{other:?}"),
            })
            .collect();
        assert_eq!(methods, ["a", "exit"]);
    }
}
