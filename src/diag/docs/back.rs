//! The long forms of the `B` codes (back end): a conversion cannot carry a field, a flag it
//! needs is missing, or an output fails its own check. The multi-agent-spec interoperability
//! warning `B005` is in [`super::interop`].

use super::{Code, CodeDoc, convert};
use crate::format::{Format, Target};

/// One entry per code of the family, in the order of [`Code::ALL`].
pub(super) const DOCS: &[CodeDoc] = &[
    CodeDoc {
        code: Code::LostField,
        checks: "A conversion carries every field of the source into the target format; reading an XState machine written by hand keeps all of it in the loop (names that are no stable ids, missing descriptions, guards, actions, `context`, final states without a status are losses: one error that names each at its place, or with `--allow-lossy` a warning each).",
        why: "A field the target cannot hold would be dropped silently: the converted loop would do less than the original.",
        fix: "Convert to a format that holds the field (the IR holds everything), write the machine the way a loop is (stable ids, descriptions, no guards or actions), or accept the loss with `--allow-lossy`.",
        example: convert(
            veal!("checks:\n  - {id: clippy, type: command, command: cargo clippy}\n"),
            Target::Loop(Format::Agentpm),
            None,
        ),
    },
    CodeDoc {
        code: Code::InexactBound,
        checks: "A bound (a step limit, an attempt count) converts exactly between the formats' units. A graph without `max_steps` has none to convert: its runs stop at the runtime's ceiling (100 steps), and the MAS loop written from it gets the default `max_attempts` of 3 (8 steps).",
        why: "A rounded bound lets the converted loop run longer or shorter than the original.",
        fix: "Choose a bound that converts exactly, or accept the rounding with `--allow-lossy`.",
        example: convert(
            apm!(
                "  entry_phase: triage
  limits: {max_steps: 10}
  phases:
    - id: triage
      objective: Label the issue.
      outcomes:
        - {id: labelled, description: The issue has its label.}
        - {id: unclear, description: The issue needs more information.}
    - {id: ask, objective: Ask the author.}
  transitions:
    - {from: triage, on: labelled, to: $end}
    - {from: triage, on: unclear, to: ask}
    - {from: ask, on: complete, to: triage}
"
            ),
            Target::Loop(Format::Mas),
            Some("triager"),
        ),
    },
    CodeDoc {
        code: Code::MissingRoleFlag,
        checks: "A conversion to multi-agent-spec knows every agent name the target requires (`actor`, `validator`).",
        why: "AgentPM loops do not name agents, and multi-agent-spec requires them: loopconv will not invent a name.",
        fix: "Pass the name with `--actor` (and `--validator` for a VEAL loop).",
        example: convert(apm!(), Target::Loop(Format::Mas), None),
    },
    CodeDoc {
        code: Code::InvalidOutput,
        checks: "Every file loopconv writes in a loop format reads back and validates without errors.",
        why: "It guards against loopconv writing a file that its own reader, or the format's tools, would reject.",
        fix: "When the notes say the output is nested too deep (`P005`), the input nests a value (a port `schema`) nearly as deep as loopconv reads, and the target format wraps it in more levels: nest it less. Otherwise this is a loopconv bug: please report it with the input file.",
        example: None,
    },
    CodeDoc {
        code: Code::OutputCollision,
        checks: "`convert` and `docs` of a folder name each output after its loop (`NAME.md`, `NAME/agent.json`, ...), so no two loops of the folder share a `name`, no loop is named like the index page (`index`), and no output of a folder conversion replaces another loop file of the folder. The diagnostic is on the (later) loop's `name`; its note names the other file.",
        why: "One output would overwrite the other: a page or a converted loop would be lost.",
        fix: "Rename one of the loops, or leave one out with `--exclude`.",
        example: None,
    },
];
