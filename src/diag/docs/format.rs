//! The long forms of the `F` codes (format shape): the document does not have the shape its
//! format requires. The multi-agent-spec interoperability warnings `F015` and `F016` are in
//! [`super::interop`].

use super::{Code, CodeDoc, ex};

/// One entry per code of the family, in the order of [`Code::ALL`].
pub(super) const DOCS: &[CodeDoc] = &[
    CodeDoc {
        code: Code::UnknownField,
        checks: "Every key is one the format defines at that place.",
        why: "A misspelt key is silently ignored by the runtime: here the step limit would not apply at all.",
        fix: "Correct the key (the help names the closest known key), or remove it.",
        example: ex(
            apm!(
                "  entry_phase: read
  limits: {max_step: 5}
  phases:
    - {id: read, objective: Read the issue.}
  transitions:
    - {from: read, on: complete, to: $end}
"
            ),
            apm!(
                "  entry_phase: read
  limits: {max_steps: 5}
  phases:
    - {id: read, objective: Read the issue.}
  transitions:
    - {from: read, on: complete, to: $end}
"
            ),
        ),
    },
    CodeDoc {
        code: Code::MissingField,
        checks: "Every key the format requires is present. When an unknown key of the same object looks like the missing one misspelled (`objectve`), this is the one diagnostic, on that key, with the rename as its fix (not also `F001`).",
        why: "The runtime cannot run a phase without an objective, or a loop without an entry phase.",
        fix: "Add the missing key, or correct the spelling of the key meant to be it.",
        example: ex(
            apm!(
                "  entry_phase: read
  phases:
    - {id: read}
  transitions:
    - {from: read, on: complete, to: $end}
"
            ),
            apm!(),
        ),
    },
    CodeDoc {
        code: Code::WrongType,
        checks: "Every value has the type the format requires (string, integer, boolean, array, object).",
        why: "A quoted number or a list where one value is expected is rejected or misread by the runtime.",
        fix: "Write the value with the right type (here: `5`, not `\"5\"`).",
        example: ex(
            apm!(
                "  entry_phase: read
  limits: {max_steps: \"5\"}
  phases:
    - {id: read, objective: Read the issue.}
  transitions:
    - {from: read, on: complete, to: $end}
"
            ),
            apm!(
                "  entry_phase: read
  limits: {max_steps: 5}
  phases:
    - {id: read, objective: Read the issue.}
  transitions:
    - {from: read, on: complete, to: $end}
"
            ),
        ),
    },
    CodeDoc {
        code: Code::InvalidName,
        checks: "A package or loop name matches the format's name pattern (AgentPM: lowercase kebab-case, at most 64 characters).",
        why: "Names become file names, registry entries and URLs; the registry rejects other spellings.",
        fix: "Use lowercase letters, digits and hyphens, starting with a letter.",
        example: ex(
            concat!(
                head!(),
                "name: Triage_Issue\nversion: 0.1.0\ndescription: Sort an incoming issue.\n",
                body!()
            ),
            apm!(),
        ),
    },
    CodeDoc {
        code: Code::InvalidId,
        checks: "Phase, outcome and checkpoint ids and `entry_phase` are stable ids: they match `^[a-z](?:[a-z0-9]|-(?=[a-z0-9])){0,63}$` (1 to 64 characters: a lowercase letter, then lowercase letters, digits and single hyphens, not ending in a hyphen); a multi-agent-spec check id matches `^[a-z][a-z0-9-]*$`. A terminal (`$end`) is not an id. An invalid phase id is the one error: references to it, written as it or validly, are not reported again (an `entry_phase` written as it included), and its fix renames every reference written as it.",
        why: "Ids are stable references (transitions, logs, metrics); one spelling keeps them unambiguous.",
        fix: "Rename the id in kebab-case, and every reference to it.",
        example: ex(
            apm!(
                "  entry_phase: Read_Issue
  phases:
    - {id: Read_Issue, objective: Read the issue.}
  transitions:
    - {from: Read_Issue, on: complete, to: $end}
"
            ),
            apm!(
                "  entry_phase: read-issue
  phases:
    - {id: read-issue, objective: Read the issue.}
  transitions:
    - {from: read-issue, on: complete, to: $end}
"
            ),
        ),
    },
    CodeDoc {
        code: Code::InvalidVersion,
        checks: "A version is a semantic version `X.Y.Z` (with optional pre-release and build).",
        why: "Registries and dependency resolution compare versions as semantic versions.",
        fix: "Write all three numbers, e.g. `1.0.0`.",
        example: ex(
            concat!(
                head!(),
                "name: triage\nversion: \"1.0\"\ndescription: Sort an incoming issue.\n",
                body!()
            ),
            apm!(),
        ),
    },
    CodeDoc {
        code: Code::InvalidValue,
        checks: "A value is one of the values its field allows (an enum).",
        why: "The runtime does not know other values: here a phase failure cannot be retried, only aborted or handed off.",
        fix: "Use one of the values the message lists.",
        example: ex(
            apm!(
                "  entry_phase: read
  phases:
    - {id: read, objective: Read the issue.}
  transitions:
    - {from: read, on: complete, to: $end}
  error_policy:
    phase_failure: {action: retry}
"
            ),
            apm!(
                "  entry_phase: read
  phases:
    - {id: read, objective: Read the issue.}
  transitions:
    - {from: read, on: complete, to: $end}
  error_policy:
    phase_failure: {action: abort}
"
            ),
        ),
    },
    CodeDoc {
        code: Code::OutOfRange,
        checks: "A number is at least the field's minimum (a step limit or an attempt count is at least 1).",
        why: "A loop limited to zero steps or attempts can never run.",
        fix: "Use a number at or above the minimum.",
        example: ex(
            apm!(
                "  entry_phase: read
  limits: {max_steps: 0}
  phases:
    - {id: read, objective: Read the issue.}
  transitions:
    - {from: read, on: complete, to: $end}
"
            ),
            apm!(
                "  entry_phase: read
  limits: {max_steps: 1}
  phases:
    - {id: read, objective: Read the issue.}
  transitions:
    - {from: read, on: complete, to: $end}
"
            ),
        ),
    },
    CodeDoc {
        code: Code::EmptyCollection,
        checks: "An array or object that must not be empty has an element (phases, a phase's memory access).",
        why: "An empty value here says nothing and is usually a half-written edit; the format forbids it.",
        fix: "Fill it in, or remove the key.",
        example: ex(
            apm!(
                "  entry_phase: read
  phases:
    - id: read
      objective: Read the issue.
      access: {memory: {}}
  transitions:
    - {from: read, on: complete, to: $end}
"
            ),
            apm!(
                "  entry_phase: read
  phases:
    - id: read
      objective: Read the issue.
      access: {memory: {read: true}}
  transitions:
    - {from: read, on: complete, to: $end}
"
            ),
        ),
    },
    CodeDoc {
        code: Code::MissingKind,
        checks: "An AgentPM loop manifest says `kind: \"loop\"`.",
        why: "AgentPM reads a manifest without `kind` as another kind of package; loopconv assumes a loop and warns.",
        fix: "Add `kind: loop`.",
        example: ex(
            concat!(
                "$schema: https://raw.githubusercontent.com/agentpm-dev/cli/refs/heads/main/schemas/agentpm.manifest.schema.json\n",
                meta!(),
                body!()
            ),
            apm!(),
        ),
    },
    CodeDoc {
        code: Code::Yaml11Boolean,
        checks: "A boolean is written `true` or `false`, not in a YAML 1.1 spelling (`yes`, `no`, `on`, `off`).",
        why: "YAML 1.1 tools read `no` as false and YAML 1.2 tools as the string \"no\": the loop means different things to different tools.",
        fix: "Write `true` or `false`.",
        example: ex(
            veal!("checks:\n  - {id: spelling, type: command, command: typos, required: no}\n"),
            veal!("checks:\n  - {id: spelling, type: command, command: typos, required: false}\n"),
        ),
    },
    CodeDoc {
        code: Code::MissingSchema,
        checks: "An AgentPM manifest names its JSON Schema in `$schema`.",
        why: "Editors use `$schema` for completion and validation while the loop is written.",
        fix: "Add the AgentPM manifest schema's URL.",
        example: ex(concat!("kind: loop\n", meta!(), body!()), apm!()),
    },
    CodeDoc {
        code: Code::BlankDescription,
        checks: "The package description is not empty or blank.",
        why: "The description is what registries and generated documentation show about the loop.",
        fix: "Say in a sentence what the loop does.",
        example: ex(
            concat!(
                head!(),
                "name: triage\nversion: 0.1.0\ndescription: \" \"\n",
                body!()
            ),
            apm!(),
        ),
    },
    CodeDoc {
        code: Code::EmptyString,
        checks: "A string that must say something (a readme, a license, a command) is not empty.",
        why: "An empty value is a half-written edit; the format forbids it.",
        fix: "Fill it in, or remove the key when it is optional.",
        example: ex(concat!(head!(), meta!(), "readme: \"\"\n", body!()), apm!()),
    },
];
