//! Projects: the documents of one run, and the rules that span them (formats.md 3).
//!
//! Loops live inside bigger documents: a multi-agent-spec team's workflow names loops by
//! their `name` and agents by their spec, and an AgentPM Agent names its loop by a package
//! reference resolved through `agent.lock` or the install folder. Each document is read
//! once, through the [`crate::pipeline`] (loops) or by its kind's reader here (teams, agent
//! specs, Agent and Template manifests, locks), and leaves a [`Member`]: the few facts the
//! cross-file rules need, each with its position already resolved, so that no tree or
//! source text is kept. [`Project::check`] then runs the rules (`rules.rs`), one function
//! each, and returns diagnostics that name the file they point into.
//!
//! This module is the one above the pipeline: nothing below imports it.

mod agent_spec;
mod agentpm;
mod at;
mod facts;
mod locate;
mod rules;
mod team;
mod words;

use std::path::{Path, PathBuf};

pub use agent_spec::read_agent_spec;
pub use at::At;
pub use facts::{LoopFacts, Role};
pub use locate::{locate, unlocated_files};
pub use rules::normal;

use crate::diag::Diagnostic;
use crate::format::DocKind;
use crate::pipeline::Loaded;

/// One document of a project: its file, and what the rules need of it.
#[derive(Debug, Clone)]
pub struct Member {
    /// The file's name as diagnostics show it.
    pub file: String,
    /// The file's path, for resolving references relative to it.
    pub path: PathBuf,
    /// What the document holds.
    pub facts: Facts,
}

/// The facts of one document, by its kind. The documents that use loops are boxed, so that
/// the many loops of a workspace each take the size of a loop's facts, not of a team's.
#[derive(Debug, Clone)]
pub enum Facts {
    /// A loop.
    Loop(LoopFacts),
    /// A multi-agent-spec team.
    Team(Box<team::Team>),
    /// A multi-agent-spec agent spec.
    Agent(Box<agent_spec::AgentSpec>),
    /// An AgentPM Agent or Template manifest.
    Manifest(Box<agentpm::Manifest>),
    /// An `agent.lock`.
    Lock(Box<agentpm::Lock>),
}

impl Member {
    /// The member a loaded document makes, with the problems its own reader finds pushed
    /// into `loaded.diags` (located). `None` when the document is neither a loop that could
    /// be built nor a document that uses loops.
    pub fn of(path: &Path, loaded: &mut Loaded) -> Option<Member> {
        let file = loaded.diags.file().to_owned();
        let facts = match loaded.kind? {
            DocKind::Loop(_) => Facts::Loop(LoopFacts::of(loaded)?),
            DocKind::MasTeam => Facts::Team(Box::new(team::read(loaded)?)),
            DocKind::AgentpmAgent | DocKind::AgentpmTemplate => {
                Facts::Manifest(Box::new(agentpm::read_manifest(loaded)?))
            }
            DocKind::AgentLock => Facts::Lock(Box::new(agentpm::read_lock(loaded)?)),
            DocKind::MasAgent => return None,
        };
        Some(Member {
            file,
            path: path.to_path_buf(),
            facts,
        })
    }

    /// The member of an agent spec read by [`read_agent_spec`].
    pub fn agent(file: &str, path: &Path, spec: agent_spec::AgentSpec) -> Member {
        Member {
            file: file.to_owned(),
            path: path.to_path_buf(),
            facts: Facts::Agent(Box::new(spec)),
        }
    }

    /// What the document is.
    pub fn kind(&self) -> DocKind {
        match &self.facts {
            Facts::Loop(l) => DocKind::Loop(l.format),
            Facts::Team(_) => DocKind::MasTeam,
            Facts::Agent(_) => DocKind::MasAgent,
            Facts::Manifest(m) if m.template => DocKind::AgentpmTemplate,
            Facts::Manifest(_) => DocKind::AgentpmAgent,
            Facts::Lock(_) => DocKind::AgentLock,
        }
    }
}

/// The documents of one run.
#[derive(Debug, Default)]
pub struct Project {
    members: Vec<Member>,
}

impl Project {
    /// A project of these documents, in the order given (the order of the diagnostics).
    pub fn new(members: Vec<Member>) -> Project {
        Project { members }
    }

    /// The documents.
    pub fn members(&self) -> &[Member] {
        &self.members
    }

    /// Every cross-file rule over the project: diagnostics in member order, each naming
    /// (and located in) the file it points into.
    pub fn check(&self) -> Vec<Diagnostic> {
        rules::run(self)
    }
}

impl Project {
    /// Put `member` in the place of the member of its path, or add it last: an editor's
    /// buffer in place of the file read from disk.
    pub fn put(&mut self, member: Member) {
        match self.members.iter().position(|m| m.path == member.path) {
            Some(i) => self.members[i] = member,
            None => self.members.push(member),
        }
    }

    /// Take out the member of `path`.
    pub fn remove(&mut self, path: &Path) -> Option<Member> {
        let i = self.members.iter().position(|m| m.path == path)?;
        Some(self.members.remove(i))
    }

    /// The index of the member of `path`.
    pub fn position(&self, path: &Path) -> Option<usize> {
        self.members.iter().position(|m| m.path == path)
    }

    /// The member that the loop of the Agent or Template manifest at index `i` resolves to
    /// (the lock's pin, the highest installed version, a local source, as `check` resolves
    /// it), and how it was found.
    pub fn resolved_loop(&self, i: usize) -> Option<(&Member, String)> {
        let (j, how) = rules::resolved_loop(self, i)?;
        Some((&self.members[j], how))
    }
}

/// Whether `dir`, named `name` (its last component, of its absolute form), is the folder of
/// a workspace: a `specs` folder (multi-agent-spec), or one holding an `agent.lock` or an
/// AgentPM Agent manifest `agent.json`. Used by `check` and the language server alike.
pub fn is_workspace_root(dir: &Path, name: Option<&std::ffi::OsStr>) -> bool {
    name.is_some_and(|n| n == "specs")
        || dir.join("agent.lock").is_file()
        || is_agent_manifest(&dir.join("agent.json"))
}

/// Whether `path` is an AgentPM Agent manifest (a file of at most 1 MiB whose kind is
/// detected as one; a loop package's `agent.json` is not).
pub fn is_agent_manifest(path: &Path) -> bool {
    let small = std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() <= 1 << 20);
    small
        && std::fs::read(path).is_ok_and(|bytes| {
            let opts = crate::pipeline::LoadOptions {
                documents: true,
                ..crate::pipeline::LoadOptions::default()
            };
            let l = crate::pipeline::load_owned(&path.to_string_lossy(), bytes, &opts);
            l.kind == Some(DocKind::AgentpmAgent)
        })
}

/// Whether `p` is a multi-agent-spec agent spec by its place: a Markdown file below a
/// folder named `agents`.
pub fn is_agent_spec_path(p: &Path) -> bool {
    p.extension().is_some_and(|e| e == "md")
        && p.parent()
            .is_some_and(|d| d.components().any(|c| c.as_os_str() == "agents"))
}

impl Project {
    /// The file of the loop named `name`, the first of its name.
    pub fn loop_path(&self, name: &str) -> Option<&Path> {
        self.members.iter().find_map(|m| match &m.facts {
            Facts::Loop(l) if l.name == name => Some(m.path.as_path()),
            _ => None,
        })
    }
}

/// How the loop of an Agent manifest is drawn ([`crate::back::AgentView`]): titled with
/// the Agent's name (`fallback` when it has none), its loop reference below, and each
/// bound phase with what it binds.
pub fn agent_view(manifest: &agentpm::Manifest, fallback: &str) -> crate::back::AgentView {
    let reference = manifest
        .loop_ref
        .as_ref()
        .map_or_else(String::new, |r| match &r.version {
            Some(v) => format!("{}@{v}", r.scoped()),
            None => r.scoped(),
        });
    crate::back::AgentView {
        name: manifest.name.clone().unwrap_or_else(|| fallback.to_owned()),
        reference,
        bound: (manifest.bound_phases.iter())
            .zip(&manifest.binds)
            .map(|((id, _), what)| (id.clone(), what.clone()))
            .collect(),
    }
}

/// The drawing of a team ([`crate::back::team`]): its steps in order, each after the steps
/// it depends on, or, in a `chain`, `sequential` or `orchestrated` workflow without
/// `depends_on`, after the step before it; `graph_of` gives the graph of a loop by name.
pub fn team_drawing<'t, 'g: 't>(
    team: &'t team::Team,
    graph_of: &dyn Fn(&str) -> Option<&'g crate::ir::Graph>,
) -> crate::back::team::Team<'t> {
    use crate::back::team::{Runs, Step};
    let index = |name: &str| {
        team.steps
            .iter()
            .position(|s| s.name.as_deref() == Some(name))
    };
    let any_dependency = team.steps.iter().any(|s| !s.depends_on.is_empty());
    let ordered = matches!(
        team.workflow_type.as_deref(),
        None | Some("chain" | "sequential" | "orchestrated")
    );
    let steps = (team.steps.iter().enumerate())
        .map(|(i, s)| {
            let after = if any_dependency {
                s.depends_on.iter().filter_map(|(d, _)| index(d)).collect()
            } else if ordered && i > 0 {
                vec![i - 1]
            } else {
                Vec::new()
            };
            let runs = match (&s.agent, &s.loop_name) {
                (_, Some((name, _))) => Runs::Loop(name, graph_of(name)),
                (Some((agent, _)), None) => Runs::Agent(agent),
                (None, None) => Runs::Nothing,
            };
            Step {
                name: s.name.as_deref().unwrap_or("?"),
                runs,
                after,
            }
        })
        .collect();
    crate::back::team::Team {
        name: team.name.as_deref().unwrap_or("team"),
        steps,
    }
}
