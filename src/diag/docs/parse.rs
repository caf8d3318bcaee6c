//! The long forms of the `P` codes (parse and limits): the bytes are not a well-formed JSON
//! or YAML document, or break a limit.

use super::{Code, CodeDoc, Example, How, ReadLimit, ex, limit};

/// One entry per code of the family, in the order of [`Code::ALL`].
pub(super) const DOCS: &[CodeDoc] = &[
    CodeDoc {
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
    CodeDoc {
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
    CodeDoc {
        code: Code::MultipleDocuments,
        checks: "A YAML file holds one document (no second document after `---`).",
        why: "A loop file describes one loop; a second document would be silently ignored by most tools.",
        fix: "Split the documents into one file each.",
        example: ex(concat!(apm!(), "---\n", meta!()), apm!()),
    },
    CodeDoc {
        code: Code::TooLarge,
        checks: "The input is no larger than `--max-input-bytes` (64 MiB by default) and holds no more values (objects, arrays and scalars) than `--max-values` (1,000,000 by default).",
        why: "A size limit keeps a hostile or mistaken input (a log file, a binary) from exhausting memory.",
        fix: "Check that the file is the loop you meant; raise `--max-input-bytes` or `--max-values` if it really is that large.",
        example: limit(apm!(), ReadLimit::Bytes(64)),
    },
    CodeDoc {
        code: Code::TooDeep,
        checks: "Arrays and objects are nested no deeper than the limit (128 levels).",
        why: "Deep nesting is never needed by a loop and is a classic way to exhaust the stack of a parser.",
        fix: "Flatten the structure; no loop format nests deeply.",
        example: limit(
            "{\"a\": {\"b\": {\"c\": {\"d\": 1}}}}\n",
            ReadLimit::Depth(3),
        ),
    },
    CodeDoc {
        code: Code::AliasLimit,
        checks: "YAML anchors and aliases expand to no more than 100,000 events.",
        why: "Nested aliases grow exponentially (the \"billion laughs\" attack): a few lines can expand to gigabytes.",
        fix: "Write the values out, or use fewer levels of aliases.",
        example: Some(Example {
            bad: "a: &a [x, x, x, x, x, x, x, x, x, x]
b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]
c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]
d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]
e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]
f: [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]
",
            good: None,
            how: How::Check,
        }),
    },
    CodeDoc {
        code: Code::InvalidUtf8,
        checks: "The input is UTF-8, as JSON and YAML 1.2 require.",
        why: "A file in another encoding (Latin-1, UTF-16) shows wrong characters in every tool that reads it as UTF-8.",
        fix: "Save the file as UTF-8 (here: the `é` of the description was saved as Latin-1).",
        example: Some(Example {
            bad: concat!(
                head!(),
                "name: triage\nversion: 0.1.0\ndescription: Trier un problème.\n",
                body!()
            ),
            good: None,
            how: How::Latin1,
        }),
    },
    CodeDoc {
        code: Code::EmptyInput,
        checks: "The input holds a document (not only whitespace and comments).",
        why: "An empty file is usually a failed generation step or a wrong path.",
        fix: "Write the loop, or remove the file.",
        example: ex("# the loop comes here\n", apm!()),
    },
    CodeDoc {
        code: Code::ByteOrderMark,
        checks: "The input does not start with a byte-order mark (U+FEFF).",
        why: "JSON (RFC 8259) forbids a byte-order mark, and some parsers reject it; loopconv skips it and warns.",
        fix: "Save the file as UTF-8 without a byte-order mark.",
        example: ex(concat!("\u{feff}", apm!()), apm!()),
    },
    CodeDoc {
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
    CodeDoc {
        code: Code::UnknownFormat,
        checks: "The content tells which format the file is: an AgentPM manifest (`kind`, `loop`), a multi-agent-spec loop (`type: REAL` or `VEAL`) or loopconv's IR.",
        why: "Without a format, no rule can be checked; the file may not be a loop at all.",
        fix: "Write the format's keys, or name the format with `--from`.",
        example: ex("name: triage\nsteps: [read, sort]\n", apm!()),
    },
    CodeDoc {
        code: Code::NonStringKey,
        checks: "Every mapping key is a string.",
        why: "JSON allows only string keys; a YAML number or list as a key cannot be converted and usually is a typo.",
        fix: "Quote the key, or remove it.",
        example: Some(Example {
            bad: concat!(apm!(), "? [a, b]\n: pair\n"),
            good: Some(apm!()),
            how: How::Check,
        }),
    },
    CodeDoc {
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
            ReadLimit::Phases(1),
        ),
    },
    CodeDoc {
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
    CodeDoc {
        code: Code::NotALoop,
        checks: "A command that needs one loop (`graph`, `convert`, `paths`, `walk`, `diff`, `docs` of a file) is given a loop, not a document that uses loops: a multi-agent-spec team or agent spec, an AgentPM Agent or Template manifest, or an `agent.lock`. `graph` and `docs` take a team and an Agent manifest too (a team's workflow, an Agent's loop), and `graph` says this of an Agent manifest that names no `loop`.",
        why: "Such a document names loops but holds none; reading it as a loop would report every one of its fields as wrong instead of saying what it is.",
        fix: "Give the command the loop the document names (a team step's `loop`, an Agent's `loop`), or check the document with `loopconv check`, which reads it with its loops.",
        example: None,
    },
    CodeDoc {
        code: Code::TooManyDiagnostics,
        checks: "A file's report holds at most `--max-diagnostics` diagnostics (200 by default); the others are counted by code in this one note at its end, which takes the severity of the worst of them. The exit code and the summary's counts are the whole file's. SARIF and the language server get the same cap.",
        why: "A generated or hostile file can repeat one mistake a million times: its whole report took gigabytes of memory and a 637 MB SARIF log, while the first few hundred diagnostics tell all there is to fix.",
        fix: "Fix the diagnostics shown (often one cause repeated), or raise `--max-diagnostics` to see more.",
        example: limit(
            concat!(
                head!(),
                "name: triage\nname: sort\nname: label\nversion: 0.1.0\ndescription: Sort an incoming issue.\n",
                body!()
            ),
            ReadLimit::Diagnostics(1),
        ),
    },
];
