//! AgentPM loop manifests: the read path (shape, warnings `F010`, `F012`, `F013`, `F020`, the
//! dependency-key hint) and the lowering into the IR. Every field has a place in the IR,
//! so the lowering is lossless.

use super::{FrontEnd, any_value, has_key};
use crate::diag::{Code, Diagnostic, Diagnostics, Suggestion};
use crate::format::Format;
use crate::front::shape::{Profile, UnknownKey};
use crate::ir::{self, Destination, Field, LoopPattern, Origin, Provenance, Spec};
use crate::model::agentpm as m;
use crate::tree::{Document, Member, Node, Syntax};

/// A document with a `loop` object, or with `kind: "loop"`, is an AgentPM manifest (the
/// kind names the package type, formats.md 1.1: a manifest whose `loop` is misspelled is
/// still one, and its reader then says what is missing).
pub fn claims(root: &Node) -> bool {
    has_key(root, "loop") || root.get("kind").and_then(|n| n.as_str()) == Some("loop")
}

/// How a manifest is read: its format warnings, then the lowering (lossless).
pub static FRONT_END: FrontEnd<m::Manifest> = FrontEnd {
    format: Format::Agentpm,
    phases: Some((&["loop", "phases"], any_value)),
    consumes_tree: true,
    prepare,
    warn: |man, _, diags| warn_package_fields(man, diags),
    lower: |man, _| lower(man),
    fold_losses: None,
};

/// The format warnings on the tree (`F020`, `F010`) and the shape check's profile.
fn prepare(doc: &Document, diags: &mut Diagnostics) -> Profile {
    // A manifest recognised by its content (not one read so by `--from`) in YAML.
    if doc.syntax == Syntax::Yaml && claims(doc.root()) {
        // JSON in a file named `.yaml` is read as YAML, which it also is: AgentPM could read
        // the text, under its name `agent.json`.
        let json_text = doc
            .text
            .trim_start_matches('\u{feff}')
            .trim_start()
            .starts_with('{');
        warn_yaml(json_text, diags);
    }
    // formats.md 1.6: a manifest without `kind` is read as a loop, with a warning.
    let kind_optional = has_key(doc.root(), "loop");
    if kind_optional && !has_key(doc.root(), "kind") {
        warn_missing_kind(diags);
    }
    Profile {
        optional_root_keys: if kind_optional { &["kind"] } else { &[] },
        unknown_key: Some(dependency_key),
        // `dependency_key` says more of some keys, always as an `F001` error.
        unknown_key_is_f001: true,
        ..Profile::default()
    }
}

/// `F020`: an AgentPM loop manifest in YAML. AgentPM reads a package's `agent.json` (a
/// loop package is `agent.json` and a README, seed 001), as JSON only; loopconv reads the
/// same data from YAML, so that a loop can be drafted there, and says it must be JSON to
/// be published or installed. Only a loop manifest: an Agent manifest is no loop, and is
/// not read here.
fn warn_yaml(json_text: bool, diags: &mut Diagnostics) {
    let d = if json_text {
        Diagnostic::new(
            Code::AgentpmYaml,
            "this AgentPM loop manifest is JSON in a file named as YAML, but AgentPM reads `agent.json`",
        )
        .with_help("name the file `agent.json`")
    } else {
        Diagnostic::new(
            Code::AgentpmYaml,
            "this AgentPM loop manifest is written in YAML, but AgentPM reads manifests as JSON only",
        )
        .with_note("loopconv reads the same data from YAML; `agentpm lint`, `publish` and `install` read `agent.json`")
        .with_help("write it as JSON: `loopconv convert FILE --to agentpm -o agent.json` writes the same loop")
    };
    diags.push(d.at(""));
}

/// `F010`: no `kind`.
fn warn_missing_kind(diags: &mut Diagnostics) {
    diags.push(
        Diagnostic::new(
            Code::MissingKind,
            "the manifest has no `kind`; reading it as `kind: \"loop\"`",
        )
        .with_suggestion(Suggestion::AddKey {
            object: String::new(),
            key: "kind".to_owned(),
            value: "loop".into(),
        })
        .at_key(""),
    );
}

/// Keys that make a manifest something other than a loop package.
const DEPENDENCY_KEYS: &[&str] = &[
    "tools",
    "skills",
    "knowledge",
    "memory",
    "profiles",
    "agents",
    "bindings",
    "templates",
    "display_name",
];

/// The reason for a limit other than `max_steps` (seed 001, "Limits and error policy").
const LIMITS: &str = "`limits.max_steps` is the only limit a loop declares: model-call, tool-call, action and repair limits (and budgets) are runtime-only settings of the harness that runs it";

/// The reason for a package key on a phase.
const PHASE_PACKAGES: &str = "a phase says only what it intends to use, in `access` (`access: {tools: true}`): which packages are available in a phase is the Agent's binding (`bindings.phases.<phase-id>`) and the runtime's, not the loop's";

/// What an unknown key that configures the runtime is about, and where the AgentPM docs
/// put it (seed 001, "Runtime concerns deliberately absent here" and "Limits and error
/// policy"), or `None` for any other key. The rule: a key is a runtime key when one of its
/// words (split at `_` and `-`, any case) names one of those concerns: model or provider
/// selection, prompt assembly, the packages available in a phase, MCP host, port,
/// transport or process, consumer-context files, approval UI, controller routing and
/// resume, the memory store, and every limit but `max_steps`. Any other unknown key is a
/// plain `F001` with the allowed fields and the closest of them.
fn runtime_concern(key: &str, parent: &str) -> Option<&'static str> {
    let k = key.to_ascii_lowercase().replace('-', "_");
    let has = |words: &[&str]| k.split('_').any(|part| words.contains(&part));
    let in_limits = parent == "/loop/limits";
    // A phase (`/loop/phases/N`), where `tools`, `knowledge` and `memory` are `access` keys.
    let in_phase =
        parent.starts_with("/loop/phases/") && !parent["/loop/phases/".len()..].contains('/');
    // A misspelt `max_steps` keeps its did-you-mean.
    if in_limits && !k.contains("step") && strsim::damerau_levenshtein(&k, "max_steps") > 2 {
        return Some(LIMITS);
    }
    let reason = if has(&[
        "model",
        "models",
        "provider",
        "providers",
        "temperature",
        "llm",
    ]) {
        "a loop is metadata only and does not choose a model: model and provider selection belong to the runtime that runs it (the AgentPM harness)"
    } else if has(&["prompt", "prompts", "system", "instructions", "template"]) {
        "a loop does not assemble prompts (a phase's `objective` says what it must achieve): prompt assembly belongs to the runtime that runs it (the AgentPM harness)"
    } else if in_phase
        && has(&[
            "tools",
            "skills",
            "knowledge",
            "memory",
            "packages",
            "bindings",
        ])
    {
        PHASE_PACKAGES
    } else if has(&[
        "mcp",
        "transport",
        "host",
        "port",
        "servers",
        "server",
        "process",
        "stdio",
    ]) {
        "a loop does not start MCP servers: MCP host, port, transport and process configuration belong to the runtime that runs it (the AgentPM harness)"
    } else if has(&["context"]) {
        "a loop does not read consumer context: consumer-context file contents belong to the runtime that runs it (the AgentPM harness)"
    } else if has(&[
        "approver",
        "approvers",
        "controller",
        "resume",
        "ui",
        "routing",
        "route",
    ]) {
        "a checkpoint says only where an approval is asked and where a rejection goes: the approval UI, controller routing and resume mechanics belong to the runtime that runs it (the AgentPM harness)"
    } else if has(&["store", "backend", "retention"]) {
        "a loop says only whether a phase reads or writes memory (`access.memory`): live memory-store behaviour belongs to the runtime that runs it (the AgentPM harness)"
    } else if has(&[
        "calls", "call", "budget", "tokens", "cost", "actions", "repairs", "repair",
    ]) && (k.starts_with("max") || has(&["limit", "limits", "budget", "calls"]))
    {
        LIMITS
    } else {
        return None;
    };
    Some(reason)
}

/// An unknown key that configures the runtime, anywhere in the manifest: named with the
/// reason the AgentPM docs give.
fn runtime_key(key: &str, pointer: &str) -> Option<Diagnostic> {
    let parent = crate::pointer::Pointer::new(pointer)
        .parent()
        .as_str()
        .to_owned();
    let why = runtime_concern(key, &parent)?;
    let where_ = if parent.is_empty() {
        "at the top level".to_owned()
    } else {
        format!("in `{}`", crate::pointer::field_path(&parent))
    };
    Some(
        Diagnostic::new(
            Code::UnknownField,
            format!(
                "unknown field `{}` {where_}: a loop package does not configure its runtime",
                key.escape_debug()
            ),
        )
        .with_note(why)
        .with_help(if why == PHASE_PACKAGES {
            "say the phase's intent in its `access`, and bind the packages in the Agent that uses the loop"
        } else {
            "remove it from the loop and set it in the harness configuration (`agentpm.harness.json`) or the runtime that runs the loop"
        })
        .at_key(pointer),
    )
}

/// An unknown top-level key that declares dependencies: a loop package cannot. An unknown
/// key anywhere that configures the runtime: a loop package does not.
fn dependency_key(key: &str, pointer: &str, _: &[Member]) -> UnknownKey {
    if let Some(d) = runtime_key(key, pointer) {
        return UnknownKey::Instead(Box::new(d));
    }
    let top_level = pointer.rfind('/') == Some(0);
    if !top_level || !DEPENDENCY_KEYS.contains(&key) {
        return UnknownKey::Unknown;
    }
    UnknownKey::Instead(Box::new(
        Diagnostic::new(
            Code::UnknownField,
            format!(
                "unknown field `{}` at the top level: a loop package cannot declare `{key}`",
                key.escape_debug()
            ),
        )
        .with_help("a loop is a dependency leaf; declare dependencies in an Agent package that uses this loop")
        .at_key(pointer),
    ))
}

/// `F012` (no `$schema`: not given, nor given unreadably, which is reported already) and
/// `F013` (blank description).
fn warn_package_fields(man: &m::Manifest, diags: &mut Diagnostics) {
    if man.schema.is_none() && !diags.rejected().contains(|| "/$schema".to_owned()) {
        diags.push(
            Diagnostic::new(
                Code::MissingSchema,
                "the manifest has no `$schema`: editors may lack completion and validation",
            )
            .with_suggestion(Suggestion::AddKey {
                object: String::new(),
                key: "$schema".to_owned(),
                value: m::UPSTREAM_SCHEMA_URI.into(),
            })
            .at_key(""),
        );
    }
    if man.description.trim().is_empty() {
        diags.push(
            Diagnostic::new(Code::BlankDescription, "`description` is empty or blank")
                .with_help("registries show the description as the package summary")
                .at("/description"),
        );
    }
}

/// Where each loop-level field is in a manifest (MAS-only fields: the loop object).
pub fn pointer(field: Field) -> &'static str {
    match field {
        Field::Name => "/name",
        Field::Description => "/description",
        Field::Version => "/version",
        Field::SchemaUri => "/$schema",
        Field::Readme => "/readme",
        Field::License => "/license",
        Field::Environment => "/environment",
        Field::Archetype => "/loop/archetype",
        Field::Entry => "/loop/entry_phase",
        Field::Phases => "/loop/phases",
        Field::Transitions => "/loop/transitions",
        Field::Checkpoints => "/loop/checkpoints",
        Field::MaxSteps => "/loop/limits/max_steps",
        Field::ErrorPolicy => "/loop/error_policy",
        Field::ToolFailure => "/loop/error_policy/tool_failure",
        Field::Pattern
        | Field::Actor
        | Field::Validator
        | Field::FallbackAgent
        | Field::Mission
        | Field::SuccessCriteria
        | Field::Checks
        | Field::Inputs
        | Field::Outputs
        | Field::Escalation
        | Field::MaxAttempts => "/loop",
    }
}

/// Lower a manifest (consumed: its strings move into the IR, so a large loop is not held
/// twice).
pub fn lower(man: m::Manifest) -> Spec {
    let l = man.loop_;
    let root = Origin::new("/loop");
    Spec {
        source_format: Format::Agentpm,
        name: man.name,
        version: Some(man.version),
        description: Some(man.description),
        schema_uri: man.schema,
        readme: man.readme,
        license: man.license.map(|l| ir::License {
            spdx: l.spdx,
            file: l.file,
        }),
        environment: man.environment,
        pattern: LoopPattern::General,
        archetype: l.archetype,
        roles: ir::Roles::default(),
        goal: ir::Goal::default(),
        graph: ir::Graph {
            entry: l.entry_phase,
            entry_origin: root.child("entry_phase"),
            phases: lower_phases(l.phases, &root.child("phases")),
            transitions: lower_transitions(l.transitions, &root.child("transitions")),
            checkpoints: l
                .checkpoints
                .map(|cs| lower_checkpoints(cs, &root.child("checkpoints"))),
        },
        bounds: ir::Bounds {
            max_steps: l.limits.as_ref().and_then(|x| x.max_steps),
            max_attempts: None,
            escalation: None,
            error_policy: l.error_policy.clone(),
        },
        provenance: Provenance::new(Format::Agentpm, pointer),
    }
}

fn lower_phases(phases: Vec<m::Phase>, at: &Origin) -> Vec<ir::Phase> {
    phases
        .into_iter()
        .enumerate()
        .map(|(i, p)| {
            let po = at.item(i);
            ir::Phase {
                id: p.id,
                objective: p.objective,
                access: p.access.map(|a| ir::Access {
                    tools: a.tools,
                    knowledge: a.knowledge,
                    memory: a.memory.map(|mm| ir::MemoryAccess {
                        read: mm.read,
                        write: mm.write,
                    }),
                }),
                outcomes: p
                    .outcomes
                    .map(|os| lower_outcomes(os, &po.child("outcomes"))),
                origin: po,
            }
        })
        .collect()
}

fn lower_outcomes(outcomes: Vec<m::Outcome>, at: &Origin) -> Vec<ir::Outcome> {
    outcomes
        .into_iter()
        .enumerate()
        .map(|(j, o)| ir::Outcome {
            id: o.id,
            description: o.description,
            origin: at.item(j),
        })
        .collect()
}

fn lower_transitions(transitions: Vec<m::Transition>, at: &Origin) -> Vec<ir::Transition> {
    transitions
        .into_iter()
        .enumerate()
        .map(|(i, t)| ir::Transition {
            to: Destination::parse(&t.to),
            from: t.from,
            on: t.on,
            final_state: None,
            origin: at.item(i),
        })
        .collect()
}

fn lower_checkpoints(checkpoints: Vec<m::Checkpoint>, at: &Origin) -> Vec<ir::Checkpoint> {
    checkpoints
        .into_iter()
        .enumerate()
        .map(|(i, c)| ir::Checkpoint {
            on_reject: Destination::parse(&c.on_reject),
            id: c.id,
            before_phase: c.before_phase,
            final_state: None,
            origin: at.item(i),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{UnknownKey, dependency_key};
    use crate::diag::{Code, Severity};

    /// What the shape check's `unknown_key_is_f001` relies on: whatever the key and
    /// wherever it is, the rule says nothing more or says an `F001` error.
    #[test]
    fn every_unknown_key_it_describes_is_an_f001_error() {
        for pointer in [
            "/dependencies",
            "/model",
            "/loop/limits/max_tokens",
            "/loop/limits/max_step",
            "/loop/phases/0/tools",
            "/loop/phases/0/outcomes/0/system_prompt",
            "/loop/mcp_servers",
            "/loop/x",
        ] {
            let key = pointer.rsplit('/').next().unwrap_or_default();
            match dependency_key(key, pointer, &[]) {
                UnknownKey::Unknown => {}
                UnknownKey::Instead(d) => assert!(
                    d.code == Code::UnknownField && d.severity == Severity::Error,
                    "{pointer}: {d:?}"
                ),
                UnknownKey::Explained => panic!("{pointer}: explained away"),
            }
        }
    }
}
