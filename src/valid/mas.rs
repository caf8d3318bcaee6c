//! Pass 1, the multi-agent-spec rules (formats.md section 2, `V101`-`V107`): a REAL loop's
//! mission, a VEAL loop's validator and checks, the fallback agent, the actor, check ids,
//! checks that can never run, and a fallback agent that is never invoked. Called from
//! [`super::refs::check`], after the AgentPM rules.

use super::Sink as _;
use super::{blank, earlier};
use crate::diag::{Code, Diagnostic, Diagnostics, Rejected};
use crate::ir::{Escalation, Field, IdMap, LoopPattern, Spec};
use crate::pointer::Pointer;

/// Where a missing loop-level field goes in the file's format: the pointer of the object
/// that lacks it (the document for MAS, `/roles` or `/goal` for the IR), and the field's
/// path as people read it (`validator`, `roles.validator`).
fn missing_field(spec: &Spec, field: Field) -> (String, String) {
    let ptr = spec.provenance.pointer(field);
    let object = Pointer::new(&ptr).parent().as_str().to_owned();
    (object, crate::pointer::field_path(&ptr))
}

/// MAS rule `V101`: a REAL loop has a mission.
pub(super) fn real_has_mission(spec: &Spec, flagged: &Rejected, sink: &mut Diagnostics) {
    if spec.pattern == LoopPattern::Real && spec.goal.mission.as_deref() == Some("") {
        sink.value(
            empty_role(Code::MissingMission, "mission", "the goal statement")
                .at(spec.provenance.pointer(Field::Mission)),
        );
    }
    if spec.pattern == LoopPattern::Real
        && spec.goal.mission.is_none()
        && !flagged.contains(|| spec.provenance.pointer(Field::Mission))
    {
        let (object, path) = missing_field(spec, Field::Mission);
        sink.key(
            Diagnostic::new(Code::MissingMission, "REAL loop has no `mission`")
                .with_help(format!(
                    "a REAL loop is mission-driven: add `{path}` with the goal statement"
                ))
                .at(object),
        );
    }
}

/// MAS rules `V102` and `V103`: a VEAL loop has a validator and at least one check.
pub(super) fn veal_has_validator_and_checks(
    spec: &Spec,
    flagged: &Rejected,
    sink: &mut Diagnostics,
) {
    if spec.pattern != LoopPattern::Veal {
        return;
    }
    if spec.roles.validator.as_deref() == Some("") {
        sink.value(
            empty_role(
                Code::MissingValidator,
                "validator",
                "the read-only agent that runs the checks",
            )
            .at(spec.provenance.pointer(Field::Validator)),
        );
    }
    let unread = |field| flagged.contains(|| spec.provenance.pointer(field));
    if spec.roles.validator.is_none() && !unread(Field::Validator) {
        let (object, path) = missing_field(spec, Field::Validator);
        sink.key(
            Diagnostic::new(Code::MissingValidator, "VEAL loop has no `validator`")
                .with_help(format!(
                    "a VEAL loop needs the read-only agent that runs the checks: add `{path}`"
                ))
                .at(object),
        );
    }
    if spec.goal.checks.as_ref().is_none_or(Vec::is_empty) && !unread(Field::Checks) {
        let (object, path) = missing_field(spec, Field::Checks);
        let d = Diagnostic::new(Code::MissingChecks, "VEAL loop has no checks").with_help(format!(
            "a VEAL loop is validation-driven: add at least one check under `{path}`"
        ));
        match spec.goal.checks {
            Some(_) => sink.value(d.at(spec.provenance.pointer(Field::Checks))),
            None => sink.key(d.at(object)),
        }
    }
}

/// MAS rule `V104`: `escalation: fallback` names a `fallback_agent`.
pub(super) fn fallback_has_agent(spec: &Spec, flagged: &Rejected, sink: &mut Diagnostics) {
    let fallback = spec.bounds.escalation == Some(Escalation::Fallback);
    if fallback && spec.roles.fallback_agent.as_deref() == Some("") {
        sink.value(
            empty_role(
                Code::MissingFallbackAgent,
                "fallback_agent",
                "the agent that `escalation: fallback` invokes",
            )
            .at(spec.provenance.pointer(Field::FallbackAgent)),
        );
    }
    let unread = || flagged.contains(|| spec.provenance.pointer(Field::FallbackAgent));
    if fallback && spec.roles.fallback_agent.is_none() && !unread() {
        sink.value(
            Diagnostic::new(
                Code::MissingFallbackAgent,
                "`escalation: fallback` but no `fallback_agent`",
            )
            .with_help(
                "name the agent to invoke in `fallback_agent:`, or choose another escalation",
            )
            .at(spec.provenance.pointer(Field::Escalation)),
        );
    }
}

/// An empty role or goal string: the Go SDK's `Validate()` treats `''` as missing.
fn empty_role(code: Code, field: &str, what: &str) -> Diagnostic {
    Diagnostic::new(
        code,
        format!(
            "`{field}` is empty; the multi-agent-spec Go SDK treats an empty `{field}` as missing"
        ),
    )
    .with_help(format!("name {what} in `{field}:`"))
}

/// Go SDK rule "loop actor is required": a REAL or VEAL loop's `actor` is not empty
/// (`F014`; a missing `actor` is `F002` from the shape check).
pub(super) fn actor_not_empty(spec: &Spec, sink: &mut Diagnostics) {
    if matches!(spec.pattern, LoopPattern::Real | LoopPattern::Veal)
        && spec.roles.actor.as_deref() == Some("")
    {
        sink.value(
            Diagnostic::new(
                Code::EmptyString,
                "`actor` is empty; the multi-agent-spec Go SDK reports \"loop actor is required\"",
            )
            .with_help("name the agent that performs the actions in `actor:`")
            .at(spec.provenance.pointer(Field::Actor)),
        );
    }
}

/// MAS rule `V105`: check ids are unique.
pub(super) fn unique_check_ids(spec: &Spec, sink: &mut Diagnostics) {
    let mut first: IdMap<&str, usize> = IdMap::default();
    for (i, c) in spec.goal.checks.iter().flatten().enumerate() {
        if let Some(j) = earlier(&mut first, &c.id, i) {
            sink.value(
                Diagnostic::new(
                    Code::DuplicateCheckId,
                    format!("check id `{}` is used twice", c.id),
                )
                .with_note(format!("first used by check {}", j + 1))
                .with_help("give each check a unique id so reports can tell them apart")
                .at(c.origin.pointer_to("id")),
            );
        }
    }
}

/// MAS rule `V106`: each check has what its type runs. The fields are optional, so this is
/// a warning: such a check passes the schema and the SDK, and never runs. A field whose
/// value was reported already (a wrong type) is not judged.
pub(super) fn checks_can_run(spec: &Spec, flagged: &Rejected, sink: &mut Diagnostics) {
    use crate::ir::CheckType;
    for c in spec.goal.checks.iter().flatten() {
        // A key the format does not define (`check:` for `command:`) is the cause.
        if flagged.has_unknown_key(|| c.origin.pointer()) {
            continue;
        }
        let id = &c.id;
        let unread = |key: &str| flagged.contains(|| c.origin.pointer_to(key));
        let absent = |v: &Option<String>, key: &str| v.as_deref().is_none_or(blank) && !unread(key);
        let missing = |kind: &str, key: &str, help: &str| {
            Diagnostic::new(
                Code::CheckCannotRun,
                format!("{kind} check `{id}` has no `{key}`: it can never run"),
            )
            .with_help(help.to_owned())
            .at(c.origin.pointer())
        };
        match c.kind {
            Some(CheckType::Pattern) if absent(&c.pattern, "pattern") => sink.value(missing(
                "`pattern`",
                "pattern",
                "add `pattern: REGEX`, the regular expression to search for (and `files: GLOB`, the files it searches)",
            )),
            Some(CheckType::Pattern) => {
                if let Some(p) = c.pattern.as_deref()
                    && let Err(e) = regex_syntax::ParserBuilder::new()
                        .unicode(false)
                        .utf8(false)
                        .build()
                        .parse(p)
                {
                    let why = match &e {
                        regex_syntax::Error::Parse(e) => e.kind().to_string(),
                        regex_syntax::Error::Translate(e) => e.kind().to_string(),
                        _ => e.to_string(),
                    };
                    sink.value(
                        Diagnostic::new(
                            Code::CheckCannotRun,
                            format!(
                                "check `{id}`'s `pattern` is not a valid regular expression: {why}"
                            ),
                        )
                        .with_help("the runtime compiles it as a regular expression (RE2 syntax): escape a literal `(`, `[`, `*`, `+`, `?` or `\\` with `\\`")
                        .at(c.origin.pointer_to("pattern")),
                    );
                }
            }
            Some(CheckType::Command) if absent(&c.command, "command") => sink.value(missing(
                "`command`",
                "command",
                "add `command: COMMAND`, the shell command that passes with exit code 0",
            )),
            Some(CheckType::File) if absent(&c.file, "file") => sink.value(missing(
                "`file`",
                "file",
                "add `file: PATH`, the file that must exist",
            )),
            Some(CheckType::Manual) if c.command.is_some() => sink.key(
                Diagnostic::new(
                    Code::CheckCannotRun,
                    format!("manual check `{id}` has a `command`, which never runs: a person performs a manual check"),
                )
                .with_help("remove `command`, or make it a `type: command` check")
                .at(c.origin.pointer_to("command")),
            ),
            _ => {}
        }
        if c.files.as_deref().is_some_and(blank) && !unread("files") {
            sink.value(
                Diagnostic::new(
                    Code::CheckCannotRun,
                    format!("check `{id}` has an empty `files`: it searches no file"),
                )
                .with_help("write a glob (`files: \"src/**/*.go\"`), or remove `files`")
                .at(c.origin.pointer_to("files")),
            );
        }
    }
}

/// MAS rule `V107`: `fallback_agent` is invoked only by `escalation: fallback`.
pub(super) fn fallback_agent_used(spec: &Spec, flagged: &Rejected, sink: &mut Diagnostics) {
    // An empty agent is as good as none (the Go SDK's reading), not judged upstream.
    let Some(agent) = spec.roles.fallback_agent.as_deref().filter(|a| !blank(a)) else {
        return;
    };
    let unread = |f| flagged.contains(|| spec.provenance.pointer(f));
    let escalation = spec.bounds.escalation.unwrap_or(Escalation::Human);
    if escalation == Escalation::Fallback
        || unread(Field::Escalation)
        || unread(Field::FallbackAgent)
    {
        return;
    }
    sink.key(
        Diagnostic::new(
            Code::UnusedFallbackAgent,
            format!(
                "`fallback_agent` `{agent}` is never invoked: `escalation` is `{}`",
                escalation.as_str()
            ),
        )
        .with_help("set `escalation: fallback` to hand the loop to it when attempts run out, or remove `fallback_agent`")
        .at(spec.provenance.pointer(Field::FallbackAgent)),
    );
}
