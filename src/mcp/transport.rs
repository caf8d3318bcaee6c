//! Standard input and output as the server's transport: one JSON-RPC message a line.
//!
//! rmcp's own stdio transport drops a line that is not JSON without a word (to avoid an
//! error storm with a peer that echoes errors back); the protocol asks for a JSON-RPC
//! error (`-32700`, parse error, with a null id), so that a client that sent a broken
//! message learns it instead of waiting for an answer. This transport answers every line
//! that is not a message: a parse error for what is not JSON, an invalid request (with the
//! message's id when it has one) for JSON that is not a message, and then goes on reading.
//! Only messages reach standard output, each written whole under one lock.

use std::sync::Arc;

use rmcp::RoleServer;
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use tokio::io::{AsyncBufReadExt as _, AsyncWriteExt as _, BufReader, Stdin, Stdout};
use tokio::sync::Mutex;

/// Standard input, read a line at a time, and standard output, shared by the responses
/// the server sends concurrently.
pub(super) struct Stdio {
    input: BufReader<Stdin>,
    /// The line read so far: kept across calls, since a read cancelled half-way (the
    /// service polls `receive` beside its other work) resumes where it stopped.
    line: Vec<u8>,
    output: Arc<Mutex<Option<Stdout>>>,
}

impl Stdio {
    pub(super) fn new() -> Stdio {
        Stdio {
            input: BufReader::new(tokio::io::stdin()),
            line: Vec::new(),
            output: Arc::new(Mutex::new(Some(tokio::io::stdout()))),
        }
    }
}

/// Write one line to `output` and flush it.
async fn write_line(output: &Mutex<Option<Stdout>>, mut line: Vec<u8>) -> std::io::Result<()> {
    line.push(b'\n');
    let mut out = output.lock().await;
    let Some(out) = out.as_mut() else {
        return Err(std::io::Error::new(
            std::io::ErrorKind::NotConnected,
            "the transport is closed",
        ));
    };
    out.write_all(&line).await?;
    out.flush().await
}

/// The JSON-RPC error answering a line that is not a message: a parse error for text that
/// is not JSON, an invalid request (with the id it carries, if any) for JSON that is not
/// a message.
pub(super) fn error_for(line: &[u8]) -> serde_json::Value {
    let (code, message, id) = match serde_json::from_slice::<serde_json::Value>(line) {
        Err(e) => (-32700, format!("Parse error: {e}"), serde_json::Value::Null),
        Ok(v) => {
            let id = v
                .get("id")
                .filter(|id| id.is_string() || id.is_number())
                .cloned()
                .unwrap_or(serde_json::Value::Null);
            let why = match serde_json::from_value::<RxJsonRpcMessage<RoleServer>>(v) {
                Err(e) => e.to_string(),
                Ok(_) => "not a message".to_owned(),
            };
            (-32600, format!("Invalid request: {why}"), id)
        }
    };
    serde_json::json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

impl Transport<RoleServer> for Stdio {
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let output = Arc::clone(&self.output);
        async move {
            let line = serde_json::to_vec(&item).map_err(std::io::Error::other)?;
            write_line(&output, line).await
        }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            match self.input.read_until(b'\n', &mut self.line).await {
                Ok(0) => return None,
                Ok(_) => {}
                Err(_) => return None,
            }
            if !self.line.ends_with(b"\n") {
                // The last line, without its line break: read as a whole message.
                if self.line.is_empty() {
                    return None;
                }
            }
            let line = std::mem::take(&mut self.line);
            let text = line.strip_suffix(b"\n").unwrap_or(&line);
            let text = text.strip_suffix(b"\r").unwrap_or(text);
            if text.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            match serde_json::from_slice::<RxJsonRpcMessage<RoleServer>>(text) {
                Ok(message) => return Some(message),
                Err(_) => {
                    let error = serde_json::to_vec(&error_for(text)).unwrap_or_default();
                    if write_line(&self.output, error).await.is_err() {
                        return None;
                    }
                }
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        let mut out = self.output.lock().await;
        if let Some(mut o) = out.take() {
            o.flush().await?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::error_for;

    #[test]
    fn a_line_that_is_not_json_is_a_parse_error_with_a_null_id() {
        let e = error_for(b"{not json");
        assert_eq!(e["error"]["code"], -32700);
        assert!(e["id"].is_null());
    }

    #[test]
    fn json_that_is_not_a_message_is_an_invalid_request_with_its_id() {
        let e = error_for(br#"{"jsonrpc":"2.0","id":7,"method":42}"#);
        assert_eq!(e["error"]["code"], -32600);
        assert_eq!(e["id"], 7);
        let e = error_for(b"[1,2]");
        assert_eq!(e["error"]["code"], -32600);
        assert!(e["id"].is_null());
    }
}
