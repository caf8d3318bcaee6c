//! The entries, one per code, in the order of [`Code::ALL`].

use super::{Code, Doc, Limit, convert, ex, limit};

/// Every entry.
pub(super) const DOCS: &[Doc] = &[
    // ---- P: parse and limits ----
    Doc {
        code: Code::Syntax,
        checks: "The file parses as JSON (RFC 8259) or YAML 1.2: brackets balance, strings are closed, JSON has no trailing commas or comments.",
        why: "Nothing else can be checked in a file that does not parse; the position shows where the parser gave up.",
        fix: "Correct the syntax at the reported position (here: remove the trailing comma).",
        example: ex(
            concat!(
                json_head!(),
                "    {\"from\": \"read\", \"on\": \"complete\", \"to\": \"$end\"},\n  ]}\n}\n"
            ),
            concat!(
                json_head!(),
                "    {\"from\": \"read\", \"on\": \"complete\", \"to\": \"$end\"}\n  ]}\n}\n"
            ),
        ),
    },
    Doc {
        code: Code::DuplicateKey,
        checks: "No mapping (JSON object or YAML mapping) repeats a key.",
        why: "Parsers disagree on a repeated key: some keep the first value, some the last, some reject the file. The loop would mean different things to different tools.",
        fix: "Keep one of the keys.",
        example: ex(
            concat!(
                head!(),
                "name: triage\nname: sort\nversion: 0.1.0\ndescription: Sort an incoming issue.\n",
                body!()
            ),
            apm!(),
        ),
    },
    Doc {
        code: Code::MultipleDocuments,
        checks: "A YAML file holds one document (no second document after `---`).",
        why: "A loop file describes one loop; a second document would be silently ignored by most tools.",
        fix: "Split the documents into one file each.",
        example: ex(concat!(apm!(), "---\n", meta!()), apm!()),
    },
    Doc {
        code: Code::TooLarge,
        checks: "The input is no larger than `--max-input-bytes` (64 MiB by default) and holds no more values (objects, arrays and scalars) than `--max-values` (1,000,000 by default).",
        why: "A size limit keeps a hostile or mistaken input (a log file, a binary) from exhausting memory.",
        fix: "Check that the file is the loop you meant; raise `--max-input-bytes` or `--max-values` if it really is that large.",
        example: limit(apm!(), Limit::Bytes(64)),
    },
    Doc {
        code: Code::TooDeep,
        checks: "Arrays and objects are nested no deeper than the limit (128 levels).",
        why: "Deep nesting is never needed by a loop and is a classic way to exhaust the stack of a parser.",
        fix: "Flatten the structure; no loop format nests deeply.",
        example: limit("{\"a\": {\"b\": {\"c\": {\"d\": 1}}}}\n", Limit::Depth(3)),
    },
    Doc {
        code: Code::AliasLimit,
        checks: "YAML anchors and aliases expand to no more than 100,000 events.",
        why: "Nested aliases grow exponentially (the \"billion laughs\" attack): a few lines can expand to gigabytes.",
        fix: "Write the values out, or use fewer levels of aliases.",
        example: Some(super::Example {
            bad: "a: &a [x, x, x, x, x, x, x, x, x, x]
b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]
c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]
d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]
e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]
f: [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]
",
            good: None,
            how: super::How::Check,
        }),
    },
    Doc {
        code: Code::InvalidUtf8,
        checks: "The input is UTF-8, as JSON and YAML 1.2 require.",
        why: "A file in another encoding (Latin-1, UTF-16) shows wrong characters in every tool that reads it as UTF-8.",
        fix: "Save the file as UTF-8 (here: the `é` of the description was saved as Latin-1).",
        example: Some(super::Example {
            bad: concat!(
                head!(),
                "name: triage\nversion: 0.1.0\ndescription: Trier un problème.\n",
                body!()
            ),
            good: None,
            how: super::How::Latin1,
        }),
    },
    Doc {
        code: Code::EmptyInput,
        checks: "The input holds a document (not only whitespace and comments).",
        why: "An empty file is usually a failed generation step or a wrong path.",
        fix: "Write the loop, or remove the file.",
        example: ex("# the loop comes here\n", apm!()),
    },
    Doc {
        code: Code::ByteOrderMark,
        checks: "The input does not start with a byte-order mark (U+FEFF).",
        why: "JSON (RFC 8259) forbids a byte-order mark, and some parsers reject it; loopconv skips it and warns.",
        fix: "Save the file as UTF-8 without a byte-order mark.",
        example: ex(concat!("\u{feff}", apm!()), apm!()),
    },
    Doc {
        code: Code::NulByte,
        checks: "The input contains no NUL byte.",
        why: "A NUL byte is never part of a text file: it marks a binary or corrupted file, and cuts strings short in C-based tools.",
        fix: "Remove the NUL byte (shown here as `\\0`).",
        example: ex(
            concat!(
                head!(),
                "name: triage\nversion: 0.1.0\ndescription: Sort an\0 incoming issue.\n",
                body!()
            ),
            apm!(),
        ),
    },
    Doc {
        code: Code::UnknownFormat,
        checks: "The content tells which format the file is: an AgentPM manifest (`kind`, `loop`), a multi-agent-spec loop (`type: REAL` or `VEAL`) or loopconv's IR.",
        why: "Without a format, no rule can be checked; the file may not be a loop at all.",
        fix: "Write the format's keys, or name the format with `--from`.",
        example: ex("name: triage\nsteps: [read, sort]\n", apm!()),
    },
    Doc {
        code: Code::NonStringKey,
        checks: "Every mapping key is a string.",
        why: "JSON allows only string keys; a YAML number or list as a key cannot be converted and usually is a typo.",
        fix: "Quote the key, or remove it.",
        example: Some(super::Example {
            bad: concat!(apm!(), "? [a, b]\n: pair\n"),
            good: Some(apm!()),
            how: super::How::Check,
        }),
    },
    Doc {
        code: Code::TooManyPhases,
        checks: "The loop declares no more phases than `--max-phases` (10,000 by default).",
        why: "A limit keeps a generated or hostile loop from making the graph analysis and the drawings unreasonably slow.",
        fix: "Split the loop into smaller loops, or raise `--max-phases` for a generated loop that is meant to be that large.",
        example: limit(
            apm!(
                "  entry_phase: read
  phases:
    - {id: read, objective: Read the issue.}
    - {id: sort, objective: Label the issue.}
  transitions:
    - {from: read, on: complete, to: sort}
    - {from: sort, on: complete, to: $end}
"
            ),
            Limit::Phases(1),
        ),
    },
    Doc {
        code: Code::JsonDuplicateKey,
        checks: "No JSON object repeats a key. Upstream's JSON readers keep the last value, so loopconv does too, with a warning (an error under `--strict`).",
        why: "A repeated key is almost always a mistake (a merge, a copy-paste), and the value that wins is the one further down, which a reader easily misses.",
        fix: "Keep one of the keys.",
        example: ex(
            r#"{
  "kind": "loop",
  "$schema": "https://raw.githubusercontent.com/agentpm-dev/cli/refs/heads/main/schemas/agentpm.manifest.schema.json",
  "name": "triage",
  "name": "sort",
  "version": "0.1.0",
  "description": "Sort an incoming issue.",
  "loop": {"entry_phase": "read", "phases": [{"id": "read", "objective": "Read the issue."}], "transitions": [{"from": "read", "on": "complete", "to": "$end"}]}
}
"#,
            r#"{
  "kind": "loop",
  "$schema": "https://raw.githubusercontent.com/agentpm-dev/cli/refs/heads/main/schemas/agentpm.manifest.schema.json",
  "name": "triage",
  "version": "0.1.0",
  "description": "Sort an incoming issue.",
  "loop": {"entry_phase": "read", "phases": [{"id": "read", "objective": "Read the issue."}], "transitions": [{"from": "read", "on": "complete", "to": "$end"}]}
}
"#,
        ),
    },
    // ---- F: format shape ----
    Doc {
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
    Doc {
        code: Code::MissingField,
        checks: "Every key the format requires is present.",
        why: "The runtime cannot run a phase without an objective, or a loop without an entry phase.",
        fix: "Add the missing key.",
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
    Doc {
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
    Doc {
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
    Doc {
        code: Code::InvalidId,
        checks: "Phase, outcome and checkpoint ids match their pattern: lowercase kebab-case, at most 64 characters.",
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
    Doc {
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
    Doc {
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
    Doc {
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
    Doc {
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
    Doc {
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
    Doc {
        code: Code::Yaml11Boolean,
        checks: "A boolean is written `true` or `false`, not in a YAML 1.1 spelling (`yes`, `no`, `on`, `off`).",
        why: "YAML 1.1 tools read `no` as false and YAML 1.2 tools as the string \"no\": the loop means different things to different tools.",
        fix: "Write `true` or `false`.",
        example: ex(
            veal!("checks:\n  - {id: spelling, type: command, command: typos, required: no}\n"),
            veal!("checks:\n  - {id: spelling, type: command, command: typos, required: false}\n"),
        ),
    },
    Doc {
        code: Code::MissingSchema,
        checks: "An AgentPM manifest names its JSON Schema in `$schema`.",
        why: "Editors use `$schema` for completion and validation while the loop is written.",
        fix: "Add the AgentPM manifest schema's URL.",
        example: ex(concat!("kind: loop\n", meta!(), body!()), apm!()),
    },
    Doc {
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
    Doc {
        code: Code::EmptyString,
        checks: "A string that must say something (a readme, a license, a command) is not empty.",
        why: "An empty value is a half-written edit; the format forbids it.",
        fix: "Fill it in, or remove the key when it is optional.",
        example: ex(concat!(head!(), meta!(), "readme: \"\"\n", body!()), apm!()),
    },
    Doc {
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
    Doc {
        code: Code::YamlDirective,
        checks: "A YAML loop file has no `%YAML` directive.",
        why: "The multi-agent-spec Go SDK's YAML reader refuses a `%YAML 1.2` directive, although it is valid YAML.",
        fix: "Remove the `%YAML` line (and the `---` that follows it, if nothing else needs it).",
        example: ex(
            concat!("%YAML 1.2\n---\n", real!("mission: Add the feature.\n")),
            real!("mission: Add the feature.\n"),
        ),
    },
    // ---- V: AgentPM lint rules ----
    Doc {
        code: Code::BlankArchetype,
        checks: "`loop.archetype`, when present, is not empty or blank.",
        why: "The archetype names the loop's pattern (review-revise, plan-execute) for people and tools.",
        fix: "Name the pattern, or remove the key.",
        example: ex(
            apm!(
                "  archetype: \" \"
  entry_phase: read
  phases:
    - {id: read, objective: Read the issue.}
  transitions:
    - {from: read, on: complete, to: $end}
"
            ),
            apm!(),
        ),
    },
    Doc {
        code: Code::BlankObjective,
        checks: "Every phase objective says something (not empty or blank).",
        why: "The objective is the agent's instruction for the phase: a blank one leaves the agent guessing.",
        fix: "Write what the phase must achieve.",
        example: ex(
            apm!(
                "  entry_phase: read
  phases:
    - {id: read, objective: \" \"}
  transitions:
    - {from: read, on: complete, to: $end}
"
            ),
            apm!(),
        ),
    },
    Doc {
        code: Code::DuplicatePhase,
        checks: "No two phases share an id.",
        why: "A transition to a repeated id is ambiguous: the runtime would enter one of the two phases.",
        fix: "Rename one of the phases (the diagnostic points at the second and names the first).",
        example: ex(
            apm!(
                "  entry_phase: read
  phases:
    - {id: read, objective: Read the issue.}
    - {id: read, objective: Read the linked pull request.}
  transitions:
    - {from: read, on: complete, to: $end}
"
            ),
            apm!(),
        ),
    },
    Doc {
        code: Code::BlankOutcomeDescription,
        checks: "Every outcome description says something.",
        why: "The description tells the agent when to choose the outcome; a blank one makes the choice arbitrary.",
        fix: "Say when the phase ends with this outcome.",
        example: ex(
            apm!(
                "  entry_phase: read
  phases:
    - id: read
      objective: Read the issue.
      outcomes:
        - {id: clear, description: \" \"}
  transitions:
    - {from: read, on: clear, to: $end}
"
            ),
            apm!(
                "  entry_phase: read
  phases:
    - id: read
      objective: Read the issue.
      outcomes:
        - {id: clear, description: The issue says what is wrong.}
  transitions:
    - {from: read, on: clear, to: $end}
"
            ),
        ),
    },
    Doc {
        code: Code::DuplicateOutcome,
        checks: "A phase declares each outcome id once.",
        why: "Two outcomes with one id cannot lead to two places: one description would be ignored.",
        fix: "Rename or merge the outcomes.",
        example: ex(
            apm!(
                "  entry_phase: read
  phases:
    - id: read
      objective: Read the issue.
      outcomes:
        - {id: clear, description: The issue says what is wrong.}
        - {id: clear, description: The issue has steps to reproduce.}
  transitions:
    - {from: read, on: clear, to: $end}
"
            ),
            apm!(
                "  entry_phase: read
  phases:
    - id: read
      objective: Read the issue.
      outcomes:
        - {id: clear, description: The issue says what is wrong.}
  transitions:
    - {from: read, on: clear, to: $end}
"
            ),
        ),
    },
    Doc {
        code: Code::UnknownEntryPhase,
        checks: "`entry_phase` names a declared phase.",
        why: "The run starts at the entry phase: with a dangling one it cannot start.",
        fix: "Name a declared phase (the help suggests the closest id).",
        example: ex(
            apm!(
                "  entry_phase: reed
  phases:
    - {id: read, objective: Read the issue.}
  transitions:
    - {from: read, on: complete, to: $end}
"
            ),
            apm!(),
        ),
    },
    Doc {
        code: Code::UnknownTransitionSource,
        checks: "Every transition's `from` names a declared phase.",
        why: "A transition from nowhere never fires, and the phase it was meant for has no way out.",
        fix: "Name a declared phase (the help suggests the closest id).",
        example: ex(
            apm!(
                "  entry_phase: read
  phases:
    - {id: read, objective: Read the issue.}
  transitions:
    - {from: read, on: complete, to: $end}
    - {from: reed, on: complete, to: $end}
"
            ),
            apm!(),
        ),
    },
    Doc {
        code: Code::UnknownOutcome,
        checks: "Every transition's `on` is an outcome of its `from` phase (a phase without declared outcomes has the one outcome `complete`).",
        why: "The phase can never end with that outcome, so the transition never fires.",
        fix: "Use one of the phase's outcomes, or declare the outcome.",
        example: ex(
            apm!(
                "  entry_phase: read
  phases:
    - {id: read, objective: Read the issue.}
  transitions:
    - {from: read, on: done, to: $end}
"
            ),
            apm!(),
        ),
    },
    Doc {
        code: Code::UnknownTransitionTarget,
        checks: "Every transition's `to` is a declared phase or a terminal (`$end`, `$abort`, `$handoff`).",
        why: "A run that takes the transition has nowhere to go.",
        fix: "Name a declared phase or a terminal (the help suggests the closest).",
        example: ex(
            apm!(
                "  entry_phase: read
  phases:
    - {id: read, objective: Read the issue.}
  transitions:
    - {from: read, on: complete, to: $ned}
"
            ),
            apm!(),
        ),
    },
    Doc {
        code: Code::DuplicateTransition,
        checks: "Each (phase, outcome) pair has at most one transition.",
        why: "Two transitions for one outcome make the next phase ambiguous.",
        fix: "Keep one transition, or give the phase another outcome.",
        example: ex(
            apm!(
                "  entry_phase: read
  phases:
    - {id: read, objective: Read the issue.}
  transitions:
    - {from: read, on: complete, to: $end}
    - {from: read, on: complete, to: $handoff}
"
            ),
            apm!(),
        ),
    },
    Doc {
        code: Code::MissingTransition,
        checks: "Each (phase, outcome) pair has a transition.",
        why: "A run whose phase ends with an outcome that has no transition is stuck.",
        fix: "Add the transition (`{from: PHASE, on: OUTCOME, to: ...}`), or remove the outcome.",
        example: ex(
            apm!(
                "  entry_phase: read
  phases:
    - id: read
      objective: Read the issue.
      outcomes:
        - {id: clear, description: The issue says what is wrong.}
        - {id: unclear, description: The issue needs more information.}
  transitions:
    - {from: read, on: clear, to: $end}
"
            ),
            apm!(
                "  entry_phase: read
  phases:
    - id: read
      objective: Read the issue.
      outcomes:
        - {id: clear, description: The issue says what is wrong.}
        - {id: unclear, description: The issue needs more information.}
  transitions:
    - {from: read, on: clear, to: $end}
    - {from: read, on: unclear, to: $handoff}
"
            ),
        ),
    },
    Doc {
        code: Code::UnreachablePhase,
        checks: "Every phase can be reached from the entry phase.",
        why: "An unreachable phase is dead code: usually a transition to it is missing or points elsewhere.",
        fix: "Add a transition to the phase, or remove it.",
        example: ex(
            apm!(
                "  entry_phase: read
  phases:
    - {id: read, objective: Read the issue.}
    - {id: label, objective: Label the issue.}
  transitions:
    - {from: read, on: complete, to: $end}
    - {from: label, on: complete, to: $end}
"
            ),
            apm!(
                "  entry_phase: read
  phases:
    - {id: read, objective: Read the issue.}
    - {id: label, objective: Label the issue.}
  transitions:
    - {from: read, on: complete, to: label}
    - {from: label, on: complete, to: $end}
"
            ),
        ),
    },
    Doc {
        code: Code::NoTerminalReachable,
        checks: "Some terminal (`$end`, `$abort`, `$handoff`) can be reached from the entry phase.",
        why: "A loop that can never stop runs until its step limit, every time.",
        fix: "Add a transition to a terminal.",
        example: ex(
            apm!(
                "  entry_phase: read
  phases:
    - {id: read, objective: Read the issue.}
  transitions:
    - {from: read, on: complete, to: read}
"
            ),
            apm!(),
        ),
    },
    Doc {
        code: Code::DuplicateCheckpoint,
        checks: "No two checkpoints share an id.",
        why: "Approvals are recorded by checkpoint id: two checkpoints with one id cannot be told apart.",
        fix: "Rename one of the checkpoints.",
        example: ex(
            apm!(
                "  entry_phase: read
  phases:
    - {id: read, objective: Read the issue.}
    - {id: label, objective: Label the issue.}
  transitions:
    - {from: read, on: complete, to: label}
    - {from: label, on: complete, to: $end}
  checkpoints:
    - {id: approve, type: approval, before_phase: read, on_reject: $abort}
    - {id: approve, type: approval, before_phase: label, on_reject: $abort}
"
            ),
            apm!(
                "  entry_phase: read
  phases:
    - {id: read, objective: Read the issue.}
    - {id: label, objective: Label the issue.}
  transitions:
    - {from: read, on: complete, to: label}
    - {from: label, on: complete, to: $end}
  checkpoints:
    - {id: approve-read, type: approval, before_phase: read, on_reject: $abort}
    - {id: approve-label, type: approval, before_phase: label, on_reject: $abort}
"
            ),
        ),
    },
    Doc {
        code: Code::UnknownCheckpointPhase,
        checks: "Every checkpoint's `before_phase` names a declared phase.",
        why: "A checkpoint before a phase that does not exist never asks for approval: the phase it was meant to guard runs unguarded.",
        fix: "Name a declared phase (the help suggests the closest id).",
        example: ex(
            apm!(
                "  entry_phase: read
  phases:
    - {id: read, objective: Read the issue.}
  transitions:
    - {from: read, on: complete, to: $end}
  checkpoints:
    - {id: approve, type: approval, before_phase: reed, on_reject: $abort}
"
            ),
            apm!(
                "  entry_phase: read
  phases:
    - {id: read, objective: Read the issue.}
  transitions:
    - {from: read, on: complete, to: $end}
  checkpoints:
    - {id: approve, type: approval, before_phase: read, on_reject: $abort}
"
            ),
        ),
    },
    Doc {
        code: Code::UnknownRejectTarget,
        checks: "Every checkpoint's `on_reject` is a declared phase or a terminal.",
        why: "A rejected approval must lead somewhere; otherwise the run is stuck at the checkpoint.",
        fix: "Name a declared phase or a terminal.",
        example: ex(
            apm!(
                "  entry_phase: read
  phases:
    - {id: read, objective: Read the issue.}
  transitions:
    - {from: read, on: complete, to: $end}
  checkpoints:
    - {id: approve, type: approval, before_phase: read, on_reject: $stop}
"
            ),
            apm!(
                "  entry_phase: read
  phases:
    - {id: read, objective: Read the issue.}
  transitions:
    - {from: read, on: complete, to: $end}
  checkpoints:
    - {id: approve, type: approval, before_phase: read, on_reject: $abort}
"
            ),
        ),
    },
    Doc {
        code: Code::DuplicateCheckpointPhase,
        checks: "At most one approval checkpoint guards each phase.",
        why: "Two approvals before one phase have two reject targets: which one applies is undefined.",
        fix: "Merge the checkpoints into one.",
        example: ex(
            apm!(
                "  entry_phase: read
  phases:
    - {id: read, objective: Read the issue.}
  transitions:
    - {from: read, on: complete, to: $end}
  checkpoints:
    - {id: approve, type: approval, before_phase: read, on_reject: $abort}
    - {id: sign-off, type: approval, before_phase: read, on_reject: $handoff}
"
            ),
            apm!(
                "  entry_phase: read
  phases:
    - {id: read, objective: Read the issue.}
  transitions:
    - {from: read, on: complete, to: $end}
  checkpoints:
    - {id: approve, type: approval, before_phase: read, on_reject: $abort}
"
            ),
        ),
    },
    Doc {
        code: Code::RetryWithoutMaxRetries,
        checks: "A tool-failure policy with `action: retry` says how often (`max_retries`).",
        why: "Without a bound, a failing tool is retried forever.",
        fix: "Add `max_retries`.",
        example: ex(
            apm!(
                "  entry_phase: read
  phases:
    - {id: read, objective: Read the issue.}
  transitions:
    - {from: read, on: complete, to: $end}
  error_policy:
    tool_failure: {action: retry, on_exhausted: abort}
"
            ),
            apm!(
                "  entry_phase: read
  phases:
    - {id: read, objective: Read the issue.}
  transitions:
    - {from: read, on: complete, to: $end}
  error_policy:
    tool_failure: {action: retry, max_retries: 2, on_exhausted: abort}
"
            ),
        ),
    },
    Doc {
        code: Code::RetryWithoutOnExhausted,
        checks: "A tool-failure policy with `action: retry` says what happens when the retries run out (`on_exhausted`).",
        why: "Otherwise the behaviour after the last retry is up to each runtime.",
        fix: "Add `on_exhausted`.",
        example: ex(
            apm!(
                "  entry_phase: read
  phases:
    - {id: read, objective: Read the issue.}
  transitions:
    - {from: read, on: complete, to: $end}
  error_policy:
    tool_failure: {action: retry, max_retries: 2}
"
            ),
            apm!(
                "  entry_phase: read
  phases:
    - {id: read, objective: Read the issue.}
  transitions:
    - {from: read, on: complete, to: $end}
  error_policy:
    tool_failure: {action: retry, max_retries: 2, on_exhausted: abort}
"
            ),
        ),
    },
    Doc {
        code: Code::MaxRetriesWithoutRetry,
        checks: "`max_retries` appears only with `action: retry`.",
        why: "A retry count on a policy that never retries suggests the author meant `retry`.",
        fix: "Use `action: retry` (with `on_exhausted`), or remove `max_retries`.",
        example: ex(
            apm!(
                "  entry_phase: read
  phases:
    - {id: read, objective: Read the issue.}
  transitions:
    - {from: read, on: complete, to: $end}
  error_policy:
    tool_failure: {action: abort, max_retries: 2}
"
            ),
            apm!(
                "  entry_phase: read
  phases:
    - {id: read, objective: Read the issue.}
  transitions:
    - {from: read, on: complete, to: $end}
  error_policy:
    tool_failure: {action: abort}
"
            ),
        ),
    },
    Doc {
        code: Code::OnExhaustedWithoutRetry,
        checks: "`on_exhausted` appears only with `action: retry`.",
        why: "Only retries can be exhausted; the key suggests the author meant `retry`.",
        fix: "Use `action: retry` (with `max_retries`), or remove `on_exhausted`.",
        example: ex(
            apm!(
                "  entry_phase: read
  phases:
    - {id: read, objective: Read the issue.}
  transitions:
    - {from: read, on: complete, to: $end}
  error_policy:
    tool_failure: {action: abort, on_exhausted: abort}
"
            ),
            apm!(
                "  entry_phase: read
  phases:
    - {id: read, objective: Read the issue.}
  transitions:
    - {from: read, on: complete, to: $end}
  error_policy:
    tool_failure: {action: abort}
"
            ),
        ),
    },
    Doc {
        code: Code::MissingPhaseFailure,
        checks: "When a tool failure can fail the phase (`action: fail_phase`, or `on_exhausted: fail_phase`), `error_policy.phase_failure` says what happens next.",
        why: "A failed phase with no policy leaves the run's next step undefined.",
        fix: "Add `phase_failure` (`abort` or `handoff`).",
        example: ex(
            apm!(
                "  entry_phase: read
  phases:
    - {id: read, objective: Read the issue.}
  transitions:
    - {from: read, on: complete, to: $end}
  error_policy:
    tool_failure: {action: fail_phase}
"
            ),
            apm!(
                "  entry_phase: read
  phases:
    - {id: read, objective: Read the issue.}
  transitions:
    - {from: read, on: complete, to: $end}
  error_policy:
    tool_failure: {action: fail_phase}
    phase_failure: {action: abort}
"
            ),
        ),
    },
    Doc {
        code: Code::TrapCycle,
        checks: "No reachable phase is a trap: from every phase the run can enter, some terminal can still be reached.",
        why: "A run that enters a trap cycle never stops until its step limit, even though other paths of the loop do stop.",
        fix: "Give a phase of the cycle a way out (an outcome leading to a terminal or out of the cycle).",
        example: ex(
            apm!(
                "  entry_phase: read
  phases:
    - id: read
      objective: Read the issue.
      outcomes:
        - {id: clear, description: The issue says what is wrong.}
        - {id: unclear, description: The issue needs more information.}
    - {id: ask, objective: Ask the author.}
    - {id: wait, objective: Wait for the answer.}
  transitions:
    - {from: read, on: clear, to: $end}
    - {from: read, on: unclear, to: ask}
    - {from: ask, on: complete, to: wait}
    - {from: wait, on: complete, to: ask}
"
            ),
            apm!(
                "  entry_phase: read
  phases:
    - id: read
      objective: Read the issue.
      outcomes:
        - {id: clear, description: The issue says what is wrong.}
        - {id: unclear, description: The issue needs more information.}
    - {id: ask, objective: Ask the author.}
    - {id: wait, objective: Wait for the answer.}
  transitions:
    - {from: read, on: clear, to: $end}
    - {from: read, on: unclear, to: ask}
    - {from: ask, on: complete, to: wait}
    - {from: wait, on: complete, to: read}
"
            ),
        ),
    },
    Doc {
        code: Code::MaxStepsTooSmall,
        checks: "`limits.max_steps` is at least the number of steps of the shortest run from the entry phase to `$end`.",
        why: "With a smaller limit, every run is cut off before it can succeed.",
        fix: "Raise `max_steps` to at least the shortest successful run (the message says how long it is).",
        example: ex(
            apm!(
                "  entry_phase: read
  limits: {max_steps: 1}
  phases:
    - {id: read, objective: Read the issue.}
    - {id: label, objective: Label the issue.}
  transitions:
    - {from: read, on: complete, to: label}
    - {from: label, on: complete, to: $end}
"
            ),
            apm!(
                "  entry_phase: read
  limits: {max_steps: 2}
  phases:
    - {id: read, objective: Read the issue.}
    - {id: label, objective: Label the issue.}
  transitions:
    - {from: read, on: complete, to: label}
    - {from: label, on: complete, to: $end}
"
            ),
        ),
    },
    Doc {
        code: Code::NoSuccessPath,
        checks: "`$end` (success) can be reached from the entry phase.",
        why: "A loop that can only abort or hand off never succeeds on its own.",
        fix: "Add a transition to `$end`.",
        example: ex(
            apm!(
                "  entry_phase: read
  phases:
    - {id: read, objective: Read the issue.}
  transitions:
    - {from: read, on: complete, to: $abort}
"
            ),
            apm!(),
        ),
    },
    // ---- V: multi-agent-spec ----
    Doc {
        code: Code::MissingMission,
        checks: "A REAL loop has a `mission`.",
        why: "The mission is the actor's task: a REAL loop without one has nothing to do.",
        fix: "Add `mission`.",
        example: ex(real!(), real!("mission: Implement the feature.\n")),
    },
    Doc {
        code: Code::MissingValidator,
        checks: "A VEAL loop names its `validator` agent.",
        why: "The validator runs the checks: without one, nothing judges the actor's work.",
        fix: "Add `validator`.",
        example: ex(
            "name: lint-fix\ntype: VEAL\ndescription: Keep the lints clean.\nactor: fixer\nchecks:\n  - {id: clippy, type: command, command: cargo clippy}\n",
            veal!("checks:\n  - {id: clippy, type: command, command: cargo clippy}\n"),
        ),
    },
    Doc {
        code: Code::MissingChecks,
        checks: "A VEAL loop has at least one check.",
        why: "A VEAL loop validates against its checks: with none, every attempt passes.",
        fix: "Add `checks`.",
        example: ex(
            veal!(),
            veal!("checks:\n  - {id: clippy, type: command, command: cargo clippy}\n"),
        ),
    },
    Doc {
        code: Code::MissingFallbackAgent,
        checks: "`escalation: fallback` comes with a `fallback_agent`.",
        why: "The escalation hands the loop to the fallback agent: without one there is nobody to hand it to.",
        fix: "Add `fallback_agent`, or choose another escalation.",
        example: ex(
            real!("mission: Implement the feature.\nescalation: fallback\n"),
            real!(
                "mission: Implement the feature.\nescalation: fallback\nfallback_agent: senior-developer\n"
            ),
        ),
    },
    Doc {
        code: Code::DuplicateCheckId,
        checks: "No two checks of a VEAL loop share an id.",
        why: "Results are reported per check id: two checks with one id cannot be told apart.",
        fix: "Rename one of the checks.",
        example: ex(
            veal!(
                "checks:\n  - {id: tests, type: command, command: go test ./...}\n  - {id: tests, type: command, command: go test -race ./...}\n"
            ),
            veal!(
                "checks:\n  - {id: tests, type: command, command: go test ./...}\n  - {id: race, type: command, command: go test -race ./...}\n"
            ),
        ),
    },
    // ---- B: conversion ----
    Doc {
        code: Code::LostField,
        checks: "A conversion carries every field of the source into the target format.",
        why: "A field the target cannot hold would be dropped silently: the converted loop would do less than the original.",
        fix: "Convert to a format that holds the field (the IR holds everything), or accept the loss with `--allow-lossy`.",
        example: convert(
            veal!("checks:\n  - {id: clippy, type: command, command: cargo clippy}\n"),
            "agentpm",
            None,
        ),
    },
    Doc {
        code: Code::InexactBound,
        checks: "A bound (a step limit, an attempt count) converts exactly between the formats' units.",
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
            "mas",
            Some("triager"),
        ),
    },
    Doc {
        code: Code::MissingRoleFlag,
        checks: "A conversion to multi-agent-spec knows every agent name the target requires (`actor`, `validator`).",
        why: "AgentPM loops do not name agents, and multi-agent-spec requires them: loopconv will not invent a name.",
        fix: "Pass the name with `--actor` (and `--validator` for a VEAL loop).",
        example: convert(apm!(), "mas", None),
    },
    Doc {
        code: Code::InvalidOutput,
        checks: "Every file loopconv writes in a loop format reads back and validates without errors.",
        why: "It guards against loopconv writing a file that its own reader, or the format's tools, would reject.",
        fix: "This is a loopconv bug: please report it with the input file.",
        example: None,
    },
    Doc {
        code: Code::WrittenPortSchema,
        checks: "A multi-agent-spec loop that loopconv writes as YAML has no port with a `schema`.",
        why: "The multi-agent-spec Go SDK cannot load a YAML loop whose port has a `schema` (see `F015`): the converted file would be valid but unusable there.",
        fix: "Keep the loop as JSON for the Go SDK, or drop the port's `schema` before converting.",
        example: convert(
            r#"{"name": "lint-fix", "type": "VEAL", "description": "Keep the lints clean.", "validator": "linter", "actor": "fixer", "checks": [{"id": "clippy", "type": "command", "command": "cargo clippy"}], "inputs": [{"name": "report", "type": "object", "schema": {"type": "object"}}]}
"#,
            "mas",
            None,
        ),
    },
];
