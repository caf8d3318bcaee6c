//! MCP logging (`notifications/message`): nothing but the protocol reaches standard output,
//! so what the server has to tell beside a result (a file it wrote) goes to the client's log.
//!
//! The protocol's next revision deprecates logging (SEP-2577, and rmcp marks its types
//! deprecated); today's clients still take it (the Python SDK's `logging_callback`, the
//! editors' MCP logs), so the server keeps sending it, at the levels the client asks for.
#![allow(deprecated)]

use std::sync::Mutex;

use rmcp::RoleServer;
use rmcp::model::{LoggingLevel, LoggingMessageNotificationParam};
use rmcp::service::RequestContext;
use serde_json::Value;

/// The least severe level the client wants (`info` until it sets one).
pub(super) struct Log {
    least: Mutex<LoggingLevel>,
}

impl Default for Log {
    fn default() -> Log {
        Log {
            least: Mutex::new(LoggingLevel::Info),
        }
    }
}

impl Log {
    /// `logging/setLevel`.
    pub(super) fn set(&self, level: LoggingLevel) {
        *self
            .least
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = level;
    }

    /// An `info` message.
    pub(super) async fn info(&self, ctx: &RequestContext<RoleServer>, message: String) {
        self.send(ctx, LoggingLevel::Info, message).await;
    }

    /// A `notice` message.
    pub(super) async fn notice(&self, ctx: &RequestContext<RoleServer>, message: String) {
        self.send(ctx, LoggingLevel::Notice, message).await;
    }

    async fn send(&self, ctx: &RequestContext<RoleServer>, level: LoggingLevel, message: String) {
        let least = *self
            .least
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if rank(level) < rank(least) {
            return;
        }
        let param = LoggingMessageNotificationParam::new(level, Value::String(message))
            .with_logger("loopconv");
        // A client that went away learns nothing: the call ends anyway.
        let _ = ctx.peer.notify_logging_message(param).await;
    }
}

/// A level's place in the protocol's order, from `debug` to `emergency`.
fn rank(level: LoggingLevel) -> u8 {
    match level {
        LoggingLevel::Debug => 0,
        LoggingLevel::Info => 1,
        LoggingLevel::Notice => 2,
        LoggingLevel::Warning => 3,
        LoggingLevel::Error => 4,
        LoggingLevel::Critical => 5,
        LoggingLevel::Alert => 6,
        LoggingLevel::Emergency => 7,
    }
}
