//! What the project's rules need of a loop: its name, phases and agents, located.

use crate::format::Format;
use crate::pipeline::Loaded;

use super::At;

/// The agent roles of a multi-agent-spec loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// `actor`.
    Actor,
    /// `validator`.
    Validator,
    /// `fallback_agent`.
    FallbackAgent,
}

impl Role {
    /// The field that names the agent.
    pub fn key(self) -> &'static str {
        match self {
            Role::Actor => "actor",
            Role::Validator => "validator",
            Role::FallbackAgent => "fallback_agent",
        }
    }
}

/// A loop, as the project's rules see it: a few owned strings, its places derived on
/// demand from its format (a loop's places are pointers, located only when a diagnostic
/// points there). Kept small on purpose: a workspace holds one for each of its loops, to
/// the end of the run (an `At` a place made each loop cost about 1.7 KB instead).
#[derive(Debug, Clone)]
pub struct LoopFacts {
    /// Its format.
    pub format: Format,
    /// Its `name` (an XState machine's `id`).
    pub name: String,
    /// Its package version (AgentPM).
    pub version: Option<String>,
    /// Its phase ids, in authored order.
    pub phases: Vec<String>,
    /// The agents it names (multi-agent-spec).
    pub roles: Vec<(Role, String)>,
    /// Whether it has errors of its own.
    pub broken: bool,
}

impl LoopFacts {
    /// The facts of a loop that could be built (with or without errors).
    pub fn of(loaded: &Loaded) -> Option<LoopFacts> {
        let (spec, format) = (loaded.spec.as_ref()?, loaded.format?);
        let roles = [
            (Role::Actor, &spec.roles.actor),
            (Role::Validator, &spec.roles.validator),
            (Role::FallbackAgent, &spec.roles.fallback_agent),
        ];
        let roles = (format == Format::Mas)
            .then_some(roles)
            .into_iter()
            .flatten()
            .filter_map(|(role, name)| Some((role, name.clone()?)))
            .collect();
        Some(LoopFacts {
            format,
            name: spec.name.clone(),
            version: spec.version.clone(),
            phases: spec.graph.phases.iter().map(|p| p.id.clone()).collect(),
            roles,
            broken: loaded.diags.has_errors(),
        })
    }

    /// The pointer to its name: `/name`, an XState machine's `/id`.
    pub fn name_pointer(&self) -> &'static str {
        match self.format {
            Format::Xstate => "/id",
            Format::Agentpm | Format::Mas | Format::Ir => "/name",
        }
    }

    /// Where its name is, in `file` (its member's).
    pub fn name_at(&self, file: &str) -> At {
        At::unlocated(file, self.name_pointer())
    }

    /// Where the agent of `role` is named, in `file` (its member's).
    pub fn role_at(role: Role, file: &str) -> At {
        At::unlocated(file, &format!("/{}", role.key()))
    }
}
