//! AgentPM Agents, Templates and locks (formats.md 3.2): the loop reference, the phase
//! bindings and the lock's pin, read from the located tree. Only the loop part of a
//! manifest is judged; the rest passes through.

use crate::diag::{Code, Diagnostic};
use crate::pipeline::Loaded;
use crate::tree::{Document, Node, Value};

use super::At;

/// A package reference: `@owner/name`, `@owner/name@version`, or `{name, version?}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackageRef {
    /// The owner, without `@`.
    pub owner: String,
    /// The package name.
    pub name: String,
    /// The version or range, when given.
    pub version: Option<String>,
    /// Where the reference is.
    pub at: At,
}

impl PackageRef {
    /// `@owner/name`.
    pub fn scoped(&self) -> String {
        format!("@{}/{}", self.owner, self.name)
    }

    /// Parse `@owner/name[@version]`.
    fn parse(text: &str, version: Option<String>, at: At) -> Option<PackageRef> {
        let rest = text.strip_prefix('@')?;
        let (owner, rest) = rest.split_once('/')?;
        let (name, inline) = match rest.split_once('@') {
            Some((n, v)) => (n, Some(v.to_owned())),
            None => (rest, None),
        };
        let ok = |s: &str| {
            !s.is_empty()
                && s.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b))
        };
        (ok(owner) && ok(name)).then(|| PackageRef {
            owner: owner.to_owned(),
            name: name.to_owned(),
            version: inline.or(version),
            at,
        })
    }
}

/// An Agent or Template manifest, as the project's rules see it.
#[derive(Debug, Clone)]
pub struct Manifest {
    /// A Template (its loop is `template.dependencies.loop`).
    pub template: bool,
    /// Its name.
    pub name: Option<String>,
    /// The loop it names, when it names a readable one.
    pub loop_ref: Option<PackageRef>,
    /// The bound phases (`bindings.phases` keys), each located.
    pub bound_phases: Vec<(String, At)>,
    /// What each bound phase binds, in the order of `bound_phases`, in one line: each kind
    /// of package and the packages (`memory @zack/m16-reference-memory`).
    pub binds: Vec<String>,
    /// Its `description`.
    pub description: Option<String>,
}

/// An `agent.lock`, as the project's rules see it.
#[derive(Debug, Clone)]
pub struct Lock {
    /// The pinned loop of its root (`roots.*.loop`): `@owner/name` and version.
    pub root_loop: Option<(String, String, At)>,
}

/// Read an Agent or Template manifest; its own problems (`W104`, `W106`, a malformed
/// reference) go into `loaded.diags`, located.
pub fn read_manifest(loaded: &mut Loaded) -> Option<Manifest> {
    let doc = loaded.doc.as_ref()?;
    let file = loaded.diags.file().to_owned();
    let root = doc.root();
    let template = root.get("kind").and_then(Node::as_str) == Some("template");
    let pointer = if template {
        "/template/dependencies/loop"
    } else {
        "/loop"
    };
    let mut diags = Vec::new();
    let loop_node = if template {
        root.get("template")
            .and_then(|t| t.get("dependencies"))
            .and_then(|d| d.get("loop"))
    } else {
        root.get("loop")
    };
    let loop_ref = loop_node.and_then(|n| reference(&file, doc, n, pointer, &mut diags));
    let bound_phases = bound_phases(&file, doc);
    if loop_node.is_none() && !bound_phases.is_empty() {
        diags.push(
            Diagnostic::new(
                Code::BindingsWithoutLoop,
                "`bindings.phases` binds packages to phases, but the Agent names no `loop`",
            )
            .with_help("add the `loop` the bindings are for (`\"loop\": \"@owner/name@X.Y.Z\"`), or remove `bindings.phases`")
            .at_key("/bindings/phases"),
        );
    }
    if let Some(r) = &loop_ref
        && let Some(v) = r.version.as_deref()
        && !is_schema_version(v)
    {
        diags.push(r.at.place(
            Diagnostic::new(
                Code::RangeOutsideSchema,
                format!("the loop's version `{v}` is a range; AgentPM's manifest schema allows only a version `X.Y[.Z][-pre][+build]`"),
            )
            .with_help("pin the exact version, as `agentpm new` does; `agentpm install` wrote the range"),
        ));
    }
    let name = root.get("name").and_then(Node::as_str).map(str::to_owned);
    let description = (root.get("description").and_then(Node::as_str)).map(str::to_owned);
    let binds = (root.get("bindings").and_then(|b| b.get("phases")))
        .and_then(Node::members)
        .unwrap_or_default()
        .iter()
        .map(|m| binding_summary(&m.value))
        .collect();
    for d in diags {
        loaded.diags.push(d);
    }
    loaded.locate();
    loaded.diags.sort();
    Some(Manifest {
        template,
        name,
        loop_ref,
        bound_phases,
        binds,
        description,
    })
}

/// What one phase binding holds, in one line: each key (the kind of package: `memory`,
/// `tools`, `skills`...) and the packages under it, each a string or an object's `package`
/// or `name` (`memory @zack/m16-reference-memory · tools @acme/search`). A value of another
/// shape is named by its key alone; nothing at all is `nothing`.
pub fn binding_summary(binding: &Node) -> String {
    let package = |n: &Node| -> Option<String> {
        match &n.value {
            Value::String(s) => Some(s.to_string()),
            Value::Object(_) => (n.get("package").or_else(|| n.get("name")))
                .and_then(Node::as_str)
                .map(str::to_owned),
            _ => None,
        }
    };
    let parts: Vec<String> = match &binding.value {
        Value::Object(members) => members
            .iter()
            .map(|m| {
                let packages: Vec<String> = match &m.value.value {
                    Value::Array(items) => items.iter().filter_map(package).collect(),
                    _ => package(&m.value).into_iter().collect(),
                };
                if packages.is_empty() {
                    m.key.to_string()
                } else {
                    format!("{} {}", &*m.key, packages.join(", "))
                }
            })
            .collect(),
        _ => package(binding).into_iter().collect(),
    };
    if parts.is_empty() {
        "nothing".to_owned()
    } else {
        parts.join(" · ")
    }
}

/// The reference at `node`: a string, or `{name, version?}`; a malformed one is reported.
fn reference(
    file: &str,
    doc: &Document,
    node: &Node,
    pointer: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<PackageRef> {
    let (text, version, at) = match &node.value {
        Value::String(s) => (s.to_string(), None, At::of(file, doc, pointer, false)),
        Value::Object(_) => {
            let name_at = format!("{pointer}/name");
            let version = node
                .get("version")
                .and_then(Node::as_str)
                .map(str::to_owned);
            match node.get("name").and_then(Node::as_str) {
                Some(n) => (n.to_owned(), version, At::of(file, doc, &name_at, false)),
                None => {
                    diags.push(
                        Diagnostic::new(Code::MissingField, "the loop reference has no `name`")
                            .with_help(
                                "write `{\"name\": \"@owner/name\", \"version\": \"X.Y.Z\"}`",
                            )
                            .at(pointer),
                    );
                    return None;
                }
            }
        }
        other => {
            diags.push(
                Diagnostic::new(
                    Code::WrongType,
                    format!("the loop reference must be a string `@owner/name[@version]` or an object `{{name, version}}`, found {}", other.type_name()),
                )
                .at(pointer),
            );
            return None;
        }
    };
    let parsed = PackageRef::parse(&text, version, at.clone());
    if parsed.is_none() {
        diags.push(
            at.place(
                Diagnostic::new(
                    Code::InvalidValue,
                    format!(
                        "`{}` is not a package reference `@owner/name[@version]`",
                        super::words::quote(&text)
                    ),
                )
                .with_help(
                    "name the loop package with its owner: `@owner/name` or `@owner/name@X.Y.Z`",
                ),
            ),
        );
    }
    parsed
}

/// The keys of `bindings.phases`, each located (on the key).
fn bound_phases(file: &str, doc: &Document) -> Vec<(String, At)> {
    let phases = doc.root().get("bindings").and_then(|b| b.get("phases"));
    let Some(members) = phases.and_then(Node::members) else {
        return Vec::new();
    };
    members
        .iter()
        .map(|m| {
            let key: &str = &m.key;
            let pointer = format!("/bindings/phases/{}", crate::pointer::escape(key));
            (key.to_owned(), At::of(file, doc, &pointer, true))
        })
        .collect()
}

/// A version the manifest schema allows: `X.Y[.Z][-pre][+build]`.
fn is_schema_version(v: &str) -> bool {
    let (core, _) = v.split_once('+').unwrap_or((v, ""));
    let (core, _) = core.split_once('-').unwrap_or((core, ""));
    let parts: Vec<&str> = core.split('.').collect();
    (2..=3).contains(&parts.len())
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
}

/// Read a lock; one that is not version 3 gets `W107`.
pub fn read_lock(loaded: &mut Loaded) -> Option<Lock> {
    let doc = loaded.doc.as_ref()?;
    let file = loaded.diags.file().to_owned();
    let root = doc.root();
    let version = root.get("lockfile_version");
    let v3 = matches!(version.map(|n| &n.value), Some(Value::Number(n)) if n.as_u64() == Some(3));
    if !v3 {
        let found = match version.map(|n| &n.value) {
            None => "none".to_owned(),
            Some(Value::Number(n)) => super::words::quote(&n.to_string()),
            Some(other) => other.type_name().to_owned(),
        };
        loaded.diags.push(
            Diagnostic::new(
                Code::UnusableLock,
                format!("`lockfile_version` must be 3, found {found}: AgentPM refuses an older lock with a loop dependency"),
            )
            .with_help("regenerate agent.lock v3 with `agentpm install`")
            .at("/lockfile_version"),
        );
        loaded.locate();
        return Some(Lock { root_loop: None });
    }
    let roots = root
        .get("roots")
        .and_then(Node::members)
        .unwrap_or_default();
    let root_loop = roots.iter().find_map(|m| {
        let key = m.value.get("loop")?.as_str()?;
        let pointer = format!("/roots/{}/loop", crate::pointer::escape(&m.key));
        let (scoped, version) = key.strip_prefix("loop:")?.rsplit_once('@')?;
        Some((
            scoped.to_owned(),
            version.to_owned(),
            At::of(&file, doc, &pointer, false),
        ))
    });
    Some(Lock { root_loop })
}

#[cfg(test)]
mod tests {
    use super::binding_summary;
    use crate::diag::Diagnostics;
    use crate::front::vocabulary::KEYS;
    use crate::tree::{ReadLimits, parse_json};

    fn summary(json: &str) -> String {
        let mut diags = Diagnostics::new("t.json");
        let doc =
            parse_json(json.to_owned(), &KEYS, &ReadLimits::default(), &mut diags).expect("JSON");
        binding_summary(doc.root())
    }

    /// Each kind of package and its packages: strings, objects' `package` or `name`; a
    /// value of another shape by its key; nothing as `nothing`.
    #[test]
    fn a_binding_in_one_line() {
        assert_eq!(
            summary(
                r#"{"memory": [{"package": "@z/m", "spaces": ["a"]}], "tools": ["@z/t", {"name": "@z/u"}]}"#
            ),
            "memory @z/m · tools @z/t, @z/u"
        );
        assert_eq!(summary(r#"{"skills": {"package": "@z/s"}}"#), "skills @z/s");
        assert_eq!(
            summary(r#"{"profiles": 3, "knowledge": []}"#),
            "profiles · knowledge"
        );
        assert_eq!(summary("{}"), "nothing");
        assert_eq!(summary(r#""@z/x""#), "@z/x");
        assert_eq!(summary("null"), "nothing");
    }
}
