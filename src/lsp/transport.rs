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

/// The notification the reader sends the server in place of a message it skipped, with
/// the reason: one whose headers are malformed (a header line that is no `Name: value`, a
/// missing or bad `Content-Length`) or whose body is not JSON-RPC. The server tells the
/// client (`window/logMessage`), and one bad message does not end the session.
pub const SKIPPED: &str = "$/loopconv/skipped";

/// Read messages until the input ends, the server goes away, or `exit` arrives.
pub fn read_all(input: &mut impl BufRead, to_server: &Sender<Message>) -> io::Result<()> {
    let mut reader = Reader::new(input);
    loop {
        let msg = match reader.read() {
            Ok(Some(msg)) => msg,
            Ok(None) => break,
            Err(e) if is_skipped(&e) => {
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

/// Whether `e` says a message was skipped (the next message can still be read).
fn is_skipped(e: &io::Error) -> bool {
    e.get_ref().is_some_and(|inner| inner.is::<Malformed>())
}

/// A message skipped: its headers are malformed, or its body is not a JSON-RPC message.
#[derive(Debug)]
struct Malformed(String);

impl std::fmt::Display for Malformed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Malformed {}

fn malformed(what: String) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        Malformed(format!("malformed LSP payload: {what}")),
    )
}

/// The largest body read: a message holding the largest text loopconv reads
/// ([`MAX_INPUT_BYTES`](crate::tree::MAX_INPUT_BYTES)) with each byte escaped in two (a `"`,
/// `\` or line break of the text is two bytes in a JSON string), and a mebibyte for the
/// rest of the message. A longer `Content-Length` is no message the server could use:
/// reserving it fails or takes the machine's memory, and skipping that many bytes waits for
/// bytes no client sends, so every later message would be lost.
const MAX_BODY_BYTES: u64 = 2 * crate::tree::MAX_INPUT_BYTES as u64 + (1 << 20);

fn malformed_header(what: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        Malformed(format!("malformed LSP header: {what}")),
    )
}

/// The messages of an input, one after another, each read once from its bytes.
pub struct Reader<R> {
    input: R,
    /// The body of the last message read (one buffer, reused).
    body: Vec<u8>,
    /// The first header line of the next message, when it was found at the end of a line
    /// of other bytes (the body of a message whose length was unknown).
    next_header: Option<Vec<u8>>,
}

/// What the header block of one message said.
#[derive(Default)]
struct Headers {
    /// Its `Content-Length`.
    len: Option<usize>,
    /// The first thing wrong with it.
    problem: Option<String>,
}

impl<R: BufRead> Reader<R> {
    /// A reader of `input`.
    pub fn new(input: R) -> Self {
        Reader {
            input,
            body: Vec::new(),
            next_header: None,
        }
    }

    /// One message; `None` at the end of the input. A message whose headers are malformed
    /// or whose body is not a JSON-RPC message is skipped, and is an error after which the
    /// next message can still be read: with a `Content-Length`, its body is skipped;
    /// without one (or with one that is not a number, or longer than any body read), the
    /// input is skipped up to the next
    /// `Content-Length` header. The input ending inside a body is the one error of the
    /// framing that ends the reading: there is no next message to find.
    pub fn read(&mut self) -> io::Result<Option<Message>> {
        let Some(headers) = self.headers()? else {
            return Ok(None);
        };
        let len = match headers {
            Headers {
                len: Some(len),
                problem: None,
            } => len,
            Headers {
                len: Some(len),
                problem: Some(p),
            } => {
                self.skip_body(len)?;
                return Err(malformed_header(&p));
            }
            Headers { len: None, problem } => {
                if self.next_header.is_none() {
                    self.skip_to_next_message()?;
                }
                let p = problem.unwrap_or_else(|| "no Content-Length".to_owned());
                return Err(malformed_header(&format!(
                    "{p} (skipped to the next `Content-Length`)"
                )));
            }
        };
        self.body.clear();
        if self.body.try_reserve(len).is_err() {
            self.skip_body(len)?;
            return Err(malformed_header(&format!(
                "a body of {len} bytes, more than can be held"
            )));
        }
        let got = (&mut self.input)
            .take(len as u64)
            .read_to_end(&mut self.body)?;
        if got < len {
            return Err(invalid("the input ended inside a message"));
        }
        let wire: Wire =
            serde_json::from_slice(&self.body).map_err(|e| malformed(e.to_string()))?;
        wire.message().map(Some)
    }

    /// The header block of one message, up to its blank line; `None` at the end of the
    /// input. A line among the headers that is no header is a problem, and the block goes
    /// on. Bytes that are no header before the first header, or before a `Content-Length`
    /// header, end the block: they are the rest of a message whose length was unknown (or
    /// no message), and what follows them is the next message.
    fn headers(&mut self) -> io::Result<Option<Headers>> {
        let mut h = Headers::default();
        let mut seen = false;
        loop {
            let mut line = match self.next_header.take() {
                Some(next) => next,
                None => {
                    let mut line = Vec::new();
                    self.input.read_until(b'\n', &mut line)?;
                    line
                }
            };
            if !line.ends_with(b"\n") {
                // The input ended (inside a header line or before one).
                return Ok(None);
            }
            let header = without_line_break(&line, &mut h);
            if header.is_empty() {
                return Ok(Some(h));
            }
            if read_header(header, &mut h) {
                seen = true;
                continue;
            }
            let next = length_header_at(&line);
            if seen && next.is_none() {
                note(&mut h, || {
                    format!("a header line that is no `Name: value`: {}", quoted(header))
                });
                continue;
            }
            if let Some(at) = next {
                self.next_header = Some(line.split_off(at));
            }
            h.len = None;
            h.problem = Some(format!("bytes that are no header: {}", quoted(&line)));
            return Ok(Some(h));
        }
    }

    /// Skip the body of a message whose length is known.
    fn skip_body(&mut self, len: usize) -> io::Result<()> {
        let skipped = io::copy(&mut (&mut self.input).take(len as u64), &mut io::sink())?;
        if skipped < len as u64 {
            return Err(invalid("the input ended inside a message"));
        }
        Ok(())
    }

    /// Skip the body of a message whose length is unknown: up to the next line that ends
    /// with a `Content-Length` header, which starts the next message. A JSON body holds no
    /// such line: outside its strings there is no such word, and inside them no line break.
    fn skip_to_next_message(&mut self) -> io::Result<()> {
        let mut line = Vec::new();
        loop {
            line.clear();
            if self.input.read_until(b'\n', &mut line)? == 0 {
                return Ok(());
            }
            if let Some(at) = length_header_at(&line) {
                self.next_header = Some(line.split_off(at));
                return Ok(());
            }
        }
    }
}

/// A header line without its line break, `\r\n` (a bare `\n` is a problem).
fn without_line_break<'a>(line: &'a [u8], h: &mut Headers) -> &'a [u8] {
    if let Some(header) = line.strip_suffix(b"\r\n") {
        return header;
    }
    let header = line.strip_suffix(b"\n").unwrap_or(line);
    note(h, || {
        format!("a header line ends without `\\r`: {}", quoted(header))
    });
    header
}

/// One header line (without its line break) into `h`: its `Content-Length`, or a
/// problem with its value; `false` when it is no `Name: value`.
fn read_header(header: &[u8], h: &mut Headers) -> bool {
    let text = String::from_utf8_lossy(header);
    let Some((name, value)) = text.split_once(": ") else {
        return false;
    };
    if name.is_empty() || !name.bytes().all(is_name_byte) {
        return false;
    }
    if name.eq_ignore_ascii_case("Content-Length") {
        match body_len(value) {
            Ok(len) => h.len = Some(len),
            Err(problem) => {
                h.len = None;
                note(h, || problem);
            }
        }
    }
    true
}

/// The length a `Content-Length` value gives, or what is wrong with it: it is no number,
/// or a length longer than any body read ([`MAX_BODY_BYTES`]), which is skipped as a
/// missing length is (up to the next `Content-Length`).
fn body_len(value: &str) -> Result<usize, String> {
    let Ok(len) = value.trim().parse::<u64>() else {
        let value = quoted(value.as_bytes());
        return Err(format!("Content-Length is not a length: {value}"));
    };
    match usize::try_from(len) {
        Ok(n) if len <= MAX_BODY_BYTES => Ok(n),
        _ => Err(format!(
            "Content-Length {len} is more than the longest body read ({MAX_BODY_BYTES} bytes)"
        )),
    }
}

/// The most characters of a message's bytes quoted in a problem.
const QUOTED_CHARS: usize = 80;

/// `bytes` quoted in a problem: their first [`QUOTED_CHARS`] characters (a byte that is no
/// UTF-8 is one `U+FFFD`), then, when there are more, the number of bytes: 2 MB of junk
/// before a header make a short `window/logMessage`. The cut is between characters, never
/// inside one.
fn quoted(bytes: &[u8]) -> String {
    let mut chars = bytes.utf8_chunks().flat_map(|chunk| {
        let invalid = (!chunk.invalid().is_empty()).then_some(char::REPLACEMENT_CHARACTER);
        chunk.valid().chars().chain(invalid)
    });
    let text: String = chars.by_ref().take(QUOTED_CHARS).collect();
    match chars.next() {
        Some(_) => format!("{text:?}… ({} bytes)", bytes.len()),
        None => format!("{text:?}"),
    }
}

/// A byte of a header's name (an HTTP token, RFC 9110).
fn is_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// Keep the first problem of a header block.
fn note(h: &mut Headers, problem: impl FnOnce() -> String) {
    if h.problem.is_none() {
        h.problem = Some(problem());
    }
}

/// Where a line ends with a `Content-Length: N` header (its name in any case, then
/// digits and the line break), if it does.
fn length_header_at(line: &[u8]) -> Option<usize> {
    const NAME: &[u8] = b"content-length: ";
    let lower = line.to_ascii_lowercase();
    let at = memchr::memmem::rfind(&lower, NAME)?;
    let rest = &line[at + NAME.len()..];
    let digits = rest
        .strip_suffix(b"\r\n")
        .or_else(|| rest.strip_suffix(b"\n"))?;
    (!digits.is_empty() && digits.iter().all(u8::is_ascii_digit)).then_some(at)
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
    use super::Message;

    use super::{MAX_BODY_BYTES, QUOTED_CHARS, Reader, SKIPPED, io, quoted, read_all};
    fn frame(body: &str) -> Vec<u8> {
        format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
    }

    fn read_one(bytes: &[u8]) -> io::Result<Option<Message>> {
        Reader::new(io::BufReader::new(bytes)).read()
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

    /// A message whose headers are malformed is skipped, and the next one is read (the
    /// session goes on): with a `Content-Length`, its body is skipped; without a usable
    /// one, the input up to the next `Content-Length`.
    #[test]
    fn a_malformed_header_skips_one_message() {
        let good = |n: usize| frame(&format!(r#"{{"jsonrpc":"2.0","method":"m{n}"}}"#));
        let body = r#"{"jsonrpc":"2.0","method":"lost"}"#;
        let broken: [Vec<u8>; 11] = [
            format!("Content-Length: {}\n\n{body}", body.len()).into_bytes(),
            format!("Content-Length: x\r\n\r\n{body}").into_bytes(),
            format!("Content-Type: x\r\n\r\n{body}").into_bytes(),
            format!("Content-Length {}\r\n\r\n{body}", body.len()).into_bytes(),
            format!("Content-Length: {}\r\nno colon\r\n\r\n{body}", body.len()).into_bytes(),
            format!("\u{feff}Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes(),
            b"Content-Length: -1\r\n\r\n{\n  \"a\": 1\n}\n".to_vec(),
            format!("{body}\r\n").into_bytes(),
            b"\xff\xfe: \x80\r\n\r\n".to_vec(),
            // Longer than any body read: nothing is reserved for it, and no later message
            // is lost waiting for that many bytes.
            format!("Content-Length: {}\r\n\r\n{body}", u64::MAX).into_bytes(),
            format!("Content-Length: {}\r\n\r\n{body}", MAX_BODY_BYTES + 1).into_bytes(),
        ];
        // Bytes before a message's headers are skipped, and the message is read.
        let kept = |i: usize| i == 5;
        for (i, bad) in broken.iter().enumerate() {
            let mut bytes = good(0);
            bytes.extend(bad);
            bytes.extend(good(1));
            bytes.extend(good(2));
            let (tx, rx) = crossbeam_channel::unbounded();
            read_all(&mut io::BufReader::new(&bytes[..]), &tx).expect("read");
            let got: Vec<String> = rx
                .try_iter()
                .map(|m| match m {
                    Message::Notification(n) if n.method == SKIPPED => {
                        let why = n.params.as_str().unwrap_or_default().to_owned();
                        assert!(why.starts_with("malformed LSP header: "), "{i}: {why}");
                        "skipped".to_owned()
                    }
                    Message::Notification(n) => n.method,
                    other => format!("{other:?}"),
                })
                .collect();
            let want: &[&str] = if kept(i) {
                &["m0", "skipped", "lost", "m1", "m2"]
            } else {
                &["m0", "skipped", "m1", "m2"]
            };
            assert_eq!(got, want, "{i}: {bad:?}");
        }
    }

    /// The bytes of a skipped message are quoted up to `QUOTED_CHARS` characters, cut
    /// between characters, however much junk comes before a header.
    #[test]
    fn a_skipped_message_quotes_few_of_its_bytes() {
        let mut bytes = vec![b'x'; 2_000_000];
        bytes.extend(b"\r\n");
        bytes.extend(frame(r#"{"jsonrpc":"2.0","method":"m"}"#));
        let (tx, rx) = crossbeam_channel::unbounded();
        read_all(&mut io::BufReader::new(&bytes[..]), &tx).expect("read");
        let got: Vec<Message> = rx.try_iter().collect();
        let [Message::Notification(skipped), Message::Notification(m)] = &got[..] else {
            panic!("{got:?}");
        };
        assert_eq!((skipped.method.as_str(), m.method.as_str()), (SKIPPED, "m"));
        let why = skipped.params.as_str().unwrap_or_default();
        let want = format!("\"{}\"… (2000002 bytes)", "x".repeat(QUOTED_CHARS));
        assert!(why.contains(&want), "{why}");
        assert!(why.len() < 300, "{}", why.len());

        let e = "é".repeat(QUOTED_CHARS + 1);
        let want = format!("\"{}\"… ({} bytes)", "é".repeat(QUOTED_CHARS), e.len());
        assert_eq!(quoted(e.as_bytes()), want);
        assert_eq!(quoted(b"a\xffb"), "\"a\u{fffd}b\"");
        assert_eq!(quoted(&e.as_bytes()[..3]), "\"é\u{fffd}\"");
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
