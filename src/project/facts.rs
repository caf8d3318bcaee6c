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

/// A loop, as the project's rules see it.
#[derive(Debug, Clone)]
pub struct LoopFacts {
    /// Its format.
    pub format: Format,
    /// Its `name` (an XState machine's `id`).
    pub name: String,
    /// Where the name is.
    pub name_at: At,
    /// Its package version (AgentPM).
    pub version: Option<String>,
    /// Its phase ids, in authored order.
    pub phases: Vec<String>,
    /// The agents it names (multi-agent-spec), each located.
    pub roles: Vec<(Role, String, At)>,
    /// Whether it has errors of its own.
    pub broken: bool,
}

impl LoopFacts {
    /// The facts of a loop that could be built (with or without errors). Their places are
    /// pointers, located when a diagnostic needs them (the loop's tree is gone).
    pub fn of(loaded: &Loaded) -> Option<LoopFacts> {
        let (spec, format) = (loaded.spec.as_ref()?, loaded.format?);
        let file = loaded.diags.file();
        let name_key = match format {
            Format::Xstate => "/id",
            Format::Agentpm | Format::Mas | Format::Ir => "/name",
        };
        let roles = [
            (Role::Actor, &spec.roles.actor),
            (Role::Validator, &spec.roles.validator),
            (Role::FallbackAgent, &spec.roles.fallback_agent),
        ];
        let roles = (format == Format::Mas)
            .then_some(roles)
            .into_iter()
            .flatten()
            .filter_map(|(role, name)| {
                let at = At::unlocated(file, &format!("/{}", role.key()));
                Some((role, name.clone()?, at))
            })
            .collect();
        Some(LoopFacts {
            format,
            name: spec.name.clone(),
            name_at: At::unlocated(file, name_key),
            version: spec.version.clone(),
            phases: spec.graph.phases.iter().map(|p| p.id.clone()).collect(),
            roles,
            broken: loaded.diags.has_errors(),
        })
    }
}
