//! multi-agent-spec agent specs (formats.md 3.1): Markdown whose `---` front matter is YAML
//! naming the agent. Only the identity is read; the rest passes through unjudged.

use std::path::Path;

use crate::diag::{Code, Diagnostic, Diagnostics, Pos};
use crate::front::vocabulary;
use crate::tree::{self, ReadLimits};

use super::At;

/// An agent spec, as the project's rules see it.
#[derive(Debug, Clone)]
pub struct AgentSpec {
    /// The front matter's `name`.
    pub name: String,
    /// The namespace: the front matter's `namespace`, else the subfolder of `agents/`.
    pub namespace: Option<String>,
    /// Where the name is.
    pub name_at: At,
}

impl AgentSpec {
    /// Whether `reference` names this agent: by its name, or qualified by its namespace.
    pub fn is(&self, reference: &str) -> bool {
        reference == self.name
            || self.namespace.as_deref().is_some_and(|ns| {
                reference.strip_prefix(ns).and_then(|r| r.strip_prefix('/')) == Some(&self.name)
            })
    }

    /// The name teams use: qualified by the namespace when there is one.
    pub fn qualified(&self) -> String {
        match &self.namespace {
            Some(ns) => format!("{ns}/{}", self.name),
            None => self.name.clone(),
        }
    }
}

/// Read an agent spec's front matter; its problems (`W011`, YAML syntax) are in the
/// diagnostics, which name `file`. The YAML is read in place: the text up to the closing
/// `---`, with the opening one made a comment, so that lines and columns are the file's.
pub fn read_agent_spec(
    file: &str,
    path: &Path,
    text: &str,
    limits: &ReadLimits,
) -> (Option<AgentSpec>, Diagnostics) {
    let mut diags = Diagnostics::new(file);
    let Some(front) = front_matter(text) else {
        let mut d = Diagnostic::new(
            Code::AgentSpecFrontMatter,
            "the agent spec does not start with a `---` YAML front matter",
        )
        .with_help("start the file with `---`, a line `name: <agent>`, and `---`")
        .at("");
        d.location.pos = Some(Pos::START);
        diags.push(d);
        return (None, diags);
    };
    let yaml = format!("#--{}", &text[3..front]);
    let Some(doc) = tree::parse_yaml(yaml, &vocabulary::KEYS, limits, &mut diags) else {
        return (None, diags);
    };
    let name = doc
        .root()
        .get("name")
        .and_then(|n| n.as_str())
        .map(str::to_owned);
    let spec = match name.filter(|n| !n.trim().is_empty()) {
        Some(name) => Some(AgentSpec {
            name,
            namespace: namespace(&doc, path),
            name_at: At::of(file, &doc, "/name", false),
        }),
        None => {
            diags.push(
                Diagnostic::new(
                    Code::AgentSpecFrontMatter,
                    "the agent spec's front matter has no `name`",
                )
                .with_help("add a line `name: <agent>`: teams and loops refer to the agent by it")
                .at(""),
            );
            None
        }
    };
    diags.locate_missing(&doc);
    diags.sort();
    (spec, diags)
}

/// The end of the front matter (the start of its closing `---` line), when the text opens
/// with one.
fn front_matter(text: &str) -> Option<usize> {
    let rest = text.strip_prefix("---")?;
    if !rest.starts_with('\n') && !rest.starts_with("\r\n") {
        return None;
    }
    let mut at = 3;
    for line in text[3..].split_inclusive('\n') {
        if at > 3 && line.trim_end() == "---" {
            return Some(at);
        }
        at += line.len();
    }
    None
}

/// The front matter's `namespace`, else the folders between `agents/` and the file.
fn namespace(doc: &tree::Document, path: &Path) -> Option<String> {
    if let Some(ns) = doc.root().get("namespace").and_then(|n| n.as_str()) {
        return Some(ns.to_owned());
    }
    let parts: Vec<&str> = path
        .parent()?
        .components()
        .filter_map(|c| c.as_os_str().to_str())
        .collect();
    let below = parts.iter().rposition(|&p| p == "agents")?;
    let ns = parts[below + 1..].join("/");
    (!ns.is_empty()).then_some(ns)
}
