//! The long forms of the interoperability warnings: the multi-agent-spec ones (`F015`,
//! `F016` and `F017`, raised by `crate::front::interop`, and `B005`, by `crate::back::mas`):
//! files the format allows but the multi-agent-spec Go SDK cannot load; and `F020`
//! (`crate::front::agentpm`): an AgentPM manifest in YAML, which AgentPM cannot read.

use super::{Code, CodeDoc, convert, ex};
use crate::format::{Format, Target};

/// One entry per code of the family, in the order of [`Code::ALL`].
pub(super) const DOCS: &[CodeDoc] = &[
    CodeDoc {
        code: Code::YamlPortSchema,
        checks: "A multi-agent-spec loop written in YAML has no port with a `schema`.",
        why: "The multi-agent-spec Go SDK decodes a port's `schema` as raw JSON, which its YAML reader cannot fill: the SDK refuses such a file although the schema allows it.",
        fix: "Write the loop as JSON (the SDK reads a port `schema` there), or drop the `schema`.",
        example: ex(
            veal!(
                "checks:\n  - {id: clippy, type: command, command: cargo clippy}\ninputs:\n  - name: report\n    type: object\n    schema: {type: object}\n"
            ),
            veal!(
                "checks:\n  - {id: clippy, type: command, command: cargo clippy}\ninputs:\n  - name: report\n    type: object\n"
            ),
        ),
    },
    CodeDoc {
        code: Code::YamlDirective,
        checks: "A YAML loop file has no `%YAML` directive.",
        why: "The multi-agent-spec Go SDK's YAML reader refuses a `%YAML 1.2` directive, although it is valid YAML.",
        fix: "Remove the `%YAML` line (and the `---` that follows it, if nothing else needs it).",
        example: ex(
            concat!("%YAML 1.2\n---\n", real!("mission: Add the feature.\n")),
            real!("mission: Add the feature.\n"),
        ),
    },
    CodeDoc {
        code: Code::JsonFloatInteger,
        checks: "A multi-agent-spec loop written in JSON spells its integer fields (`max_attempts`) as integers, not as floats such as `3.0` or `3e0`.",
        why: "The multi-agent-spec Go SDK decodes `max_attempts` into a Go `int` with `encoding/json`, which refuses any number written with a fraction or an exponent, even a whole one. loopconv, the schema and the Python readers accept `3.0` as 3, so the file is valid but the Go SDK cannot load it.",
        fix: "Write the number without a fraction or exponent: `3`, not `3.0`.",
        example: ex(
            r#"{"name": "docs-refresh", "type": "REAL", "actor": "doc-writer", "mission": "Every public function has a doc comment.", "max_attempts": 3.0}
"#,
            r#"{"name": "docs-refresh", "type": "REAL", "actor": "doc-writer", "mission": "Every public function has a doc comment.", "max_attempts": 3}
"#,
        ),
    },
    CodeDoc {
        code: Code::AgentpmYaml,
        checks: "An AgentPM loop manifest (a file with `kind: loop` or a `loop` object) is written in JSON. An Agent manifest, a multi-agent-spec loop and a loop read in YAML with `--from agentpm` (one that is no manifest by its content) are not judged.",
        why: "AgentPM reads a package's manifest, `agent.json`, as JSON only: `agentpm lint`, `publish` and `install` cannot read a YAML manifest. loopconv reads the same data from YAML, so a loop can be drafted there, and warns that it must be JSON before it is published.",
        fix: "Write the manifest as JSON (`loopconv convert loop.yaml --to agentpm -o agent.json` writes the same loop).",
        example: ex(
            apm!(),
            concat!(
                json_head!(),
                "    {\"from\": \"read\", \"on\": \"complete\", \"to\": \"$end\"}\n  ]}\n}\n"
            ),
        ),
    },
    CodeDoc {
        code: Code::WrittenPortSchema,
        checks: "A multi-agent-spec loop that loopconv writes as YAML has no port with a `schema`.",
        why: "The multi-agent-spec Go SDK cannot load a YAML loop whose port has a `schema` (see `F015`): the converted file would be valid but unusable there.",
        fix: "Keep the loop as JSON for the Go SDK, or drop the port's `schema` before converting.",
        example: convert(
            r#"{"name": "lint-fix", "type": "VEAL", "description": "Keep the lints clean.", "validator": "linter", "actor": "fixer", "checks": [{"id": "clippy", "type": "command", "command": "cargo clippy"}], "inputs": [{"name": "report", "type": "object", "schema": {"type": "object"}}]}
"#,
            Target::Loop(Format::Mas),
            None,
        ),
    },
];
