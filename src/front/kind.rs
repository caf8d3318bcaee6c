//! Which documents are not loops but use them (formats.md 3): detection by content, before
//! any loop format is tried, so that a team or an Agent manifest is named for what it is
//! instead of being read as a broken loop.

use crate::format::DocKind;
use crate::tree::{Node, Value};

/// The kind of a document that uses loops, or `None` for anything else (a loop, or a
/// document of no known kind). Agent specs are Markdown and are not detected here.
pub fn detect(root: &Node) -> Option<DocKind> {
    match root.get("kind").and_then(Node::as_str) {
        Some("agent") => return Some(DocKind::AgentpmAgent),
        Some("template") => return Some(DocKind::AgentpmTemplate),
        _ => {}
    }
    if root.get("lockfile_version").is_some() && root.get("loop").is_none() {
        return Some(DocKind::AgentLock);
    }
    is_team(root).then_some(DocKind::MasTeam)
}

/// A multi-agent-spec team: a `workflow` object, or a roster of agents beside a `name`,
/// with none of the keys that mark a loop (`type`, `loop`, `states`, `graph`).
fn is_team(root: &Node) -> bool {
    let loop_like = ["type", "loop", "states", "graph", "actor", "validator"]
        .iter()
        .any(|k| root.get(k).is_some());
    let workflow = matches!(
        root.get("workflow").map(|n| &n.value),
        Some(Value::Object(_))
    );
    let roster = matches!(root.get("agents").map(|n| &n.value), Some(Value::Array(_)))
        && root.get("name").is_some();
    !loop_like && (workflow || roster)
}
