//! One cause, one diagnostic (issue 18 item 2): a declaration that is itself wrong is the
//! one error, the checks resting on it stay silent, references to one undeclared name are
//! one diagnostic with a label at every place, and a did-you-mean only offers valid
//! declared ids. Each single-cause input is pinned to its exact diagnostics (code, line,
//! column, message and help line); the counts before this change are in the comments.

use loopconv::diag::{Code, Diagnostic, Suggestion, render_json, render_sarif};
use loopconv::lsp::DocumentAnalysis;
use loopconv::lsp::diagnostics::code_actions;
use loopconv::{LoadOptions, load};
use lsp_types::{Position, Range, Uri};

/// A valid loop: every case below is one edit of it.
const BASE: &str = r#"kind: loop
$schema: https://raw.githubusercontent.com/agentpm-dev/cli/refs/heads/main/schemas/agentpm.manifest.schema.json
name: triage
version: 0.1.0
description: Triage an issue.
loop:
  entry_phase: investigate
  phases:
    - id: investigate
      objective: Find the cause.
      outcomes:
        - id: found
          description: The cause is known.
        - id: stuck
          description: No progress.
    - id: fix
      objective: Fix it.
      outcomes:
        - id: done
          description: Fixed.
        - id: again
          description: Look again.
  transitions:
    - from: investigate
      on: found
      to: fix
    - from: investigate
      on: stuck
      to: $handoff
    - from: fix
      on: done
      to: $end
    - from: fix
      on: again
      to: investigate
"#;

/// The fix phase's outcomes, as `BASE` writes them.
const FIX_OUTCOMES: &str = "      outcomes:
        - id: done
          description: Fixed.
        - id: again
          description: Look again.
";

/// The diagnostics of `text` read as `loop.yaml`, but for `F020`: the AgentPM cases are
/// written in YAML to be short, and each would also be told that AgentPM reads JSON only
/// (`the_base_loop_is_valid` shows it once).
fn diagnostics(text: &str) -> Vec<Diagnostic> {
    let mut all = load("loop.yaml", text.as_bytes(), &LoadOptions::default())
        .diags
        .into_items();
    all.retain(|d| d.code != Code::AgentpmYaml);
    all
}

/// `CODE line:column message | help` of every diagnostic, in the documented order.
fn pinned(text: &str) -> Vec<String> {
    diagnostics(text)
        .iter()
        .map(|d| {
            let p = d.location.pos.expect("every diagnostic is located");
            let help = d.help_text().map(|h| format!(" | {h}")).unwrap_or_default();
            format!("{} {}:{} {}{help}", d.code, p.line, p.column, d.message)
        })
        .collect()
}

/// `text` with every located target's text replaced by `with` (a fix applied as an editor
/// applies it).
fn replaced_at(text: &str, targets: &[loopconv::diag::EditTarget], with: &str) -> String {
    let mut spans: Vec<(usize, usize)> = targets
        .iter()
        .map(|t| t.pos.map(|p| (p.start, p.end)).expect("located"))
        .collect();
    spans.sort_unstable();
    let mut fixed = text.to_owned();
    for (start, end) in spans.into_iter().rev() {
        fixed.replace_range(start..end, with);
    }
    fixed
}

/// `BASE` with `from` replaced by `to` (which must occur).
fn edit(from: &str, to: &str) -> String {
    assert!(BASE.contains(from), "{from:?} is not in the base loop");
    BASE.replace(from, to)
}

/// `BASE` with the `loop` member `key`'s list replaced by `value`.
fn replace_list(key: &str, value: &str) -> String {
    let head = format!("  {key}:\n");
    let start = BASE.find(&head).expect("the list is in the base loop");
    let rest = &BASE[start + head.len()..];
    let end = rest.find("\n  t").map_or(rest.len(), |i| i + 1);
    format!("{}  {key}: {value}\n{}", &BASE[..start], &rest[end..])
}

#[test]
fn the_base_loop_is_valid() {
    assert_eq!(pinned(BASE), Vec::<String>::new());
    // Its only diagnostic: the AgentPM manifest is written in YAML.
    let all = load("loop.yaml", BASE.as_bytes(), &LoadOptions::default()).diags;
    assert_eq!(
        all.items().iter().map(|d| d.code).collect::<Vec<_>>(),
        [Code::AgentpmYaml]
    );
}

const STABLE_ID_NOTE: &str = "a stable id matches `^[a-z](?:[a-z0-9]|-(?=[a-z0-9])){0,63}$`: 1 to 64 characters, a lowercase letter, then lowercase letters, digits and single hyphens, not ending in a hyphen";

/// Case 1: a phase id written `Investigate`, referenced as `investigate` (entry, two
/// `from`, one `to`). Before: 7 errors (V006, F005, two V011, two V007, V009), five of
/// them "did you mean `Investigate`?".
#[test]
fn an_invalid_phase_id_referenced_validly_is_one_error() {
    let text = edit("- id: investigate", "- id: Investigate");
    assert_eq!(
        pinned(&text),
        ["F005 9:11 `loop.phases[0].id` `Investigate` is not a stable id | set `id: investigate`"]
    );
    let d = &diagnostics(&text)[0];
    assert_eq!(d.notes, [STABLE_ID_NOTE]);
}

/// Case 2: a phase id declared twice, the transitions written for the second copy.
/// Before: 5 errors (V011 and three V008 against the first copy, and V003).
#[test]
fn a_phase_declared_twice_is_one_error() {
    assert_eq!(
        pinned(DUPLICATE),
        ["V003 15:11 phase id `review` is declared twice | give each phase a unique id"]
    );
}

const DUPLICATE: &str = r#"kind: loop
$schema: https://raw.githubusercontent.com/agentpm-dev/cli/refs/heads/main/schemas/agentpm.manifest.schema.json
name: review
version: 0.1.0
description: Review a change.
loop:
  entry_phase: gather
  phases:
    - id: gather
      objective: Collect the diff.
    - id: review
      objective: Read the diff.
    - id: revise
      objective: Apply the changes.
    - id: review
      objective: Review the diff.
      outcomes:
        - id: approve
          description: Good.
        - id: request-changes
          description: Needs work.
        - id: escalate
          description: Needs a person.
  transitions:
    - from: gather
      on: complete
      to: review
    - from: review
      on: approve
      to: $end
    - from: review
      on: request-changes
      to: revise
    - from: review
      on: escalate
      to: $handoff
    - from: revise
      on: complete
      to: review
"#;

/// Case 3: `phases: []`. Before: 8 errors (F009, and V006, V007 and V009 for every
/// reference).
#[test]
fn an_empty_phase_list_is_one_error() {
    assert_eq!(
        pinned(&replace_list("phases", "[]")),
        ["F009 8:11 `loop.phases` must have at least 1 item, found none"]
    );
}

/// Case 4: `transitions: []`. Before: 7 errors (F009, four V011, V012, V013).
#[test]
fn an_empty_transition_list_is_one_error() {
    assert_eq!(
        pinned(&replace_list("transitions", "[]")),
        ["F009 23:16 `loop.transitions` must have at least 1 item, found none"]
    );
}

/// Case 5: `outcomes: []` with the transitions still on `complete` and `again`. Before: 3
/// errors, one ending in the cut-off help "`fix` declares ".
#[test]
fn an_empty_outcome_list_is_one_error() {
    let text = edit(FIX_OUTCOMES, "      outcomes: []\n").replace("on: done", "on: complete");
    assert_eq!(
        pinned(&text),
        ["F009 18:17 `loop.phases[1].outcomes` must have at least 1 item, found none"]
    );
}

/// Case 6: a typo in a transition's `on`. Before: 2 errors (V008 and the "missing"
/// V011 for `found`).
#[test]
fn a_typo_in_on_counts_for_the_outcome() {
    assert_eq!(
        pinned(&edit("on: found", "on: fond")),
        ["V008 25:11 phase `investigate` has no outcome `fond` | did you mean `found`?"]
    );
}

/// Case 7: a typo in a transition's `from`. Before: 2 errors (V007 and the "missing"
/// V011 for `done`).
#[test]
fn a_typo_in_from_counts_for_the_phase() {
    let text = edit("from: fix\n      on: done", "from: fx\n      on: done");
    assert_eq!(
        pinned(&text),
        ["V007 30:13 transition `from` `fx` is not a declared phase | did you mean `fix`?"]
    );
}

/// Case 8: `entry_phase: "$end"`. Before: 2 errors (F005 and V006).
#[test]
fn a_terminal_as_the_entry_is_one_error() {
    assert_eq!(
        pinned(&edit("entry_phase: investigate", "entry_phase: $end")),
        [
            "F005 7:16 `loop.entry_phase` `$end` is a terminal, where a run ends, not a phase | a run starts in a declared phase and ends at a terminal: name a phase"
        ]
    );
}

/// A declaration of the wrong type: the list, and one phase (one error each, before too).
#[test]
fn a_declaration_of_the_wrong_type_is_one_error() {
    assert_eq!(
        pinned(&replace_list("phases", "{}")),
        ["F003 8:11 `loop.phases` must be an array, found an object"]
    );
    let text = edit(
        &format!("    - id: fix\n      objective: Fix it.\n{FIX_OUTCOMES}"),
        "    - fix\n",
    );
    assert_eq!(
        pinned(&text),
        ["F003 16:7 `loop.phases[1]` must be an object, found the string `fix`"]
    );
}

/// References to one undeclared name are one diagnostic with a label at every other
/// place. Before: 6 errors (V006, two V007, V009 and two "missing" V011).
#[test]
fn one_undeclared_name_is_one_diagnostic_with_labels() {
    let text = BASE
        .replace("entry_phase: investigate", "entry_phase: investigat")
        .replace("from: investigate", "from: investigat")
        .replace("to: investigate", "to: investigat");
    assert_eq!(
        pinned(&text),
        [
            "V006 7:16 `entry_phase` `investigat` is not a declared phase | did you mean `investigate`? (at each of the 4 places)"
        ]
    );
    let ds = diagnostics(&text);
    let labels: Vec<(u32, u32, &str)> = ds[0]
        .labels
        .iter()
        .map(|l| {
            let p = l.location.pos.expect("labels are located");
            (p.line, p.column, l.message.as_str())
        })
        .collect();
    assert_eq!(
        labels,
        [
            (24, 13, "`investigat` again, as a transition's `from`"),
            (27, 13, "`investigat` again, as a transition's `from`"),
            (35, 11, "`investigat` again, as a transition's `to`"),
        ]
    );
    // The machine outputs carry the labels: JSON `labels`, SARIF `relatedLocations`.
    let json: serde_json::Value = serde_json::from_str(&render_json(&ds)).expect("JSON");
    assert_eq!(json[0]["labels"][2]["location"]["line"], 35);
    let sarif: serde_json::Value = serde_json::from_str(&render_sarif(&ds)).expect("SARIF");
    let related = &sarif["runs"][0]["results"][0]["relatedLocations"];
    assert_eq!(related.as_array().map(Vec::len), Some(3));
    assert_eq!(
        related[0]["physicalLocation"]["region"]["startLine"], 24,
        "{related}"
    );
    assert_eq!(
        related[0]["message"]["text"],
        "`investigat` again, as a transition's `from`"
    );
}

/// The fix of a name used at several places is one fix that edits every place: applied
/// (from its located targets, and as the language server's quick fix), the loop is valid.
#[test]
fn the_fix_of_a_grouped_name_edits_every_place() {
    let text = BASE
        .replace("entry_phase: investigate", "entry_phase: investigat")
        .replace("from: investigate", "from: investigat")
        .replace("to: investigate", "to: investigat");
    let ds = diagnostics(&text);
    let [Suggestion::ReplaceAll { targets, with }] = &ds[0].suggestions[..] else {
        panic!("one ReplaceAll: {:?}", ds[0].suggestions);
    };
    assert_eq!(with, "investigate");
    let fixed = replaced_at(&text, targets, with);
    assert_eq!(fixed, BASE);
    let a = DocumentAnalysis::new("loop.yaml", &text);
    let uri: Uri = "file:///tmp/loop.yaml".parse().expect("uri");
    let all = Range::new(Position::new(0, 0), Position::new(u32::MAX, 0));
    let actions = code_actions(
        &a.text(),
        &a.index,
        a.loaded.doc.as_ref(),
        &uri,
        a.loaded.diags.items(),
        all,
    );
    assert_eq!(
        actions.iter().map(|c| c.title.as_str()).collect::<Vec<_>>(),
        ["replace with `investigate` at each of the 4 places (V006)"]
    );
    let edits = actions[0]
        .edit
        .as_ref()
        .and_then(|e| e.changes.as_ref())
        .map(|c| c.values().flatten().count());
    assert_eq!(edits, Some(4));
    let sarif: serde_json::Value = serde_json::from_str(&render_sarif(&ds)).expect("SARIF");
    let change = &sarif["runs"][0]["results"][0]["fixes"][0]["artifactChanges"][0];
    assert_eq!(change["replacements"].as_array().map(Vec::len), Some(4));
}

/// A did-you-mean never offers an invalid id: `investigat` is two edits from the invalid
/// `Investigate`'s repair, so it is a second mistake, reported with the valid ids only
/// and a note about the invalid one. Before: 7 errors, five "did you mean `Investigate`?".
#[test]
fn a_did_you_mean_offers_only_valid_ids() {
    let text = BASE
        .replace("- id: investigate", "- id: Investigate")
        .replace("entry_phase: investigate", "entry_phase: investigat")
        .replace("from: investigate", "from: investigat")
        .replace("to: investigate", "to: investigat");
    assert_eq!(
        pinned(&text),
        [
            "V006 7:16 `entry_phase` `investigat` is not a declared phase | declared phases: `fix`",
            "F005 9:11 `loop.phases[0].id` `Investigate` is not a stable id | set `id: investigate`",
        ]
    );
    assert_eq!(
        diagnostics(&text)[0].notes,
        ["phase `Investigate` is declared, but its id is not a valid stable id"]
    );
}

/// Transitions on one unknown outcome of one phase are one diagnostic; the outcome they
/// may have meant counts, and the one left without a transition is reported. Before: 4
/// errors (two V008, two V011).
#[test]
fn one_unknown_outcome_is_one_diagnostic() {
    let text = edit("on: found", "on: fond").replace("on: stuck", "on: fond");
    assert_eq!(
        pinned(&text),
        [
            "V011 14:15 outcome `stuck` of phase `investigate` has no transition | add {\"from\": \"investigate\", \"on\": \"stuck\", \"to\": ...}",
            "V008 25:11 phase `investigate` has no outcome `fond` | did you mean `found`? (at each of the 2 places)",
        ]
    );
    let ds = diagnostics(&text);
    let lines: Vec<Option<u32>> = ds[1]
        .labels
        .iter()
        .map(|l| l.location.pos.map(|p| p.line))
        .collect();
    assert_eq!(lines, [Some(28)]);
}

/// An invalid outcome id, referenced validly by its transition: one error.
#[test]
fn an_invalid_outcome_id_referenced_validly_is_one_error() {
    assert_eq!(
        pinned(&edit("- id: found", "- id: Found")),
        ["F005 12:15 `loop.phases[0].outcomes[0].id` `Found` is not a stable id | set `id: found`"]
    );
}

/// Two independent mistakes are still two diagnostics.
#[test]
fn independent_mistakes_are_each_reported() {
    let text = edit("on: found", "on: fond").replace("objective: Fix it.", "objective: \" \"");
    assert_eq!(
        pinned(&text),
        [
            "V002 17:18 phase `fix` has a blank `objective` | say what the phase must achieve",
            "V008 25:11 phase `investigate` has no outcome `fond` | did you mean `found`?",
        ]
    );
}

/// A VEAL loop with one check: the MAS cases edit it.
const VEAL: &str = "name: qa-fix
type: VEAL
validator: qa
actor: code-fixer
checks:
  - id: tests
    type: command
    command: go test ./...
";

/// `yes` where a boolean is wanted: unquoted, YAML 1.1 read it as a boolean (`F011`);
/// quoted, it was a string in YAML 1.1 too, so it is the wrong type (`F003`), not a YAML
/// 1.1 boolean.
#[test]
fn a_quoted_yes_is_a_string_in_every_yaml() {
    let with = |value: &str| VEAL.to_owned() + &format!("    required: {value}\n");
    assert_eq!(
        pinned(&with("yes")),
        [
            "F011 9:15 `checks[0].required` is the string `yes` here, not a boolean | YAML 1.1 read `yes` as true, YAML 1.2 reads it as a string; write `true`"
        ]
    );
    for quoted in ["\"yes\"", "'Off'"] {
        let bare = quoted.trim_matches(['"', '\'']);
        let b = bare == "yes";
        assert_eq!(
            pinned(&with(quoted)),
            [format!(
                "F003 9:15 `checks[0].required` must be a boolean, found the string `{bare}` | a boolean is `true` or `false`: write `{b}`"
            )]
        );
    }
    // A block scalar or a tagged scalar is a string in YAML 1.1 too.
    for (written, at) in [(">-\n      yes", "10:7"), ("!!str yes", "9:21")] {
        assert_eq!(
            pinned(&with(written)),
            [format!(
                "F003 {at} `checks[0].required` must be a boolean, found the string `yes` | a boolean is `true` or `false`: write `true`"
            )]
        );
    }
}

/// The MAS equivalents: empty checks, a bad check id, a check of the wrong type, checks
/// of the wrong type.
#[test]
fn mas_declarations_give_one_error_each() {
    assert_eq!(pinned(VEAL), Vec::<String>::new());
    let empty = VEAL.split("checks:").next().unwrap_or_default().to_owned() + "checks: []\n";
    assert_eq!(
        pinned(&empty),
        [
            "V103 5:9 VEAL loop has no checks | a VEAL loop is validation-driven: add at least one check under `checks`"
        ]
    );
    assert_eq!(
        pinned(&VEAL.replace("id: tests", "id: Tests")),
        [
            "F005 6:9 `checks[0].id` `Tests` does not match the pattern `^[a-z][a-z0-9-]*$` | set `id: tests`"
        ]
    );
    let string_check = VEAL.split("  - id").next().unwrap_or_default().to_owned() + "  - tests\n";
    assert_eq!(
        pinned(&string_check),
        [
            "F003 6:5 `checks[0]` must be an object, found the string `tests` | a check is a mapping with an `id` (and a `type` with what it runs), in a list: `- {id: tests, type: command, command: cargo test}` (the whole field: `checks: [{id: tests, type: command, command: cargo test}]`)"
        ]
    );
    let object = VEAL.split("checks:").next().unwrap_or_default().to_owned() + "checks: {}\n";
    assert_eq!(
        pinned(&object),
        [
            "F003 5:9 `checks` must be an array, found an object | a check is a mapping with an `id` (and a `type` with what it runs), in a list: `checks: [{id: tests, type: command, command: cargo test}]`"
        ]
    );
}

/// A required key misspelled (`objectve`, `entry_phse`, `loops`): one `F002`, on the
/// misspelled key, whose fix renames it; not also `F001` for the same key. Before: `F002`
/// on the enclosing object and `F001` on the key, two diagnostics for one typo.
#[test]
fn a_misspelled_required_key_is_one_error_on_that_key() {
    let cases = [
        (
            edit("objective: Fix it.", "objectve: Fix it."),
            "F002 17:7 `loop.phases[1]` is missing the required field `objective` | did you mean `objective`?",
        ),
        (
            edit("entry_phase: investigate", "entry_phse: investigate"),
            "F002 7:3 `loop` is missing the required field `entry_phase` | did you mean `entry_phase`?",
        ),
        (
            edit("loop:\n", "loops:\n"),
            "F002 6:1 the document is missing the required field `loop` | did you mean `loop`?",
        ),
    ];
    for (text, want) in cases {
        assert_eq!(pinned(&text), [want], "{text}");
        let d = &diagnostics(&text)[0];
        let Some(Suggestion::Replace { target, with }) = d.suggestions.first() else {
            panic!("a rename: {d:?}");
        };
        assert!(target.key, "{d:?}");
        assert_eq!(&d.location.pointer, &target.pointer);
        assert!(d.notes[0].ends_with("misspelled"), "{:?}", d.notes);
        assert!(!with.is_empty());
    }
    // A key that misspells nothing missing is still `F001`, and the missing key `F002`.
    let text = edit("objective: Fix it.", "goal: Fix it.");
    let codes: Vec<String> = diagnostics(&text)
        .iter()
        .map(|d| d.code.to_string())
        .collect();
    assert_eq!(codes, ["F002", "F001"]);
}

/// A `from` with two neighbouring letters swapped (`fxi` for `fix`) counts for the phase it
/// misspells, as a one-letter typo does: one `V007`, not also `V011` for the outcome its
/// transition was written for (plain Levenshtein counted the swap as two edits).
#[test]
fn a_swapped_pair_of_letters_counts_for_the_phase_it_misspells() {
    let text = edit(
        "    - from: fix\n      on: done",
        "    - from: fxi\n      on: done",
    );
    let codes: Vec<String> = diagnostics(&text)
        .iter()
        .map(|d| d.code.to_string())
        .collect();
    assert_eq!(codes, ["V007"], "{:?}", pinned(&text));
}

/// A phase whose `outcomes` were forgotten, with transitions on the outcomes it should
/// declare: one `V008` for the phase (one forgotten list), labelled at every transition,
/// whose help says what to declare; no `V011` for the implicit `complete`.
#[test]
fn a_forgotten_outcome_list_is_one_error() {
    let text = edit(FIX_OUTCOMES, "");
    assert_eq!(
        pinned(&text),
        [
            "V008 26:11 phase `fix` declares no `outcomes`, but transitions leave it on `done` and `again` | declare `done` and `again` in the `outcomes` of `fix` (without them, its only outcome is the implicit `complete`)",
        ]
    );
    let d = &diagnostics(&text)[0];
    let labels: Vec<(&str, &str)> = d
        .labels
        .iter()
        .map(|l| (l.location.pointer.as_str(), l.message.as_str()))
        .collect();
    assert_eq!(
        labels,
        [(
            "/loop/transitions/3/on",
            "another transition leaves it on `again`"
        )]
    );
}

/// An optional field of the wrong type is left out, and the rest of the loop is still
/// checked: all problems at once.
#[test]
fn an_optional_field_of_the_wrong_type_hides_no_other_problem() {
    let text = edit("version: 0.1.0", "version: 0.1.0\nreadme: 5")
        .replace("entry_phase: investigate", "entry_phase: investigat");
    assert_eq!(
        pinned(&text),
        [
            "F003 5:9 `readme` must be a string, found the number 5 | quote the value to make it a string",
            "V006 8:16 `entry_phase` `investigat` is not a declared phase | did you mean `investigate`?",
        ]
    );
    let text = VEAL.replace(
        "validator: qa",
        "validator: qa\nmax_attempts: \"3\"\nescalation: fallback",
    );
    assert_eq!(
        pinned(&text),
        [
            "F003 4:15 `max_attempts` must be an integer, found the string `3` | remove the quotes: `3`",
            "V104 5:13 `escalation: fallback` but no `fallback_agent` | name the agent to invoke in `fallback_agent:`, or choose another escalation",
        ]
    );
    // A required field of the wrong type still leaves nothing to check.
    let codes: Vec<String> = diagnostics(&VEAL.replace("actor: code-fixer", "actor: 5"))
        .iter()
        .map(|d| d.code.to_string())
        .collect();
    assert_eq!(codes, ["F003"]);
}

/// A field a rule requires, given but unreadable (the wrong type, or its key misspelled),
/// is reported once: not also as missing.
#[test]
fn a_required_by_rule_field_given_unreadably_is_not_also_missing() {
    let cases = [
        (VEAL.replace("validator: qa", "validtor: qa"), "F001"),
        (VEAL.replace("validator: qa", "validator: 5"), "F003"),
        (VEAL.replace("checks:", "chekcs:"), "F001"),
        (
            VEAL.replace("type: VEAL", "type: REAL\nmision: Ship it."),
            "F001",
        ),
        (
            VEAL.replace(
                "validator: qa",
                "validator: qa\nescalation: fallback\nfallback_agnet: oncall",
            ),
            "F001",
        ),
    ];
    for (text, code) in cases {
        let codes: Vec<String> = diagnostics(&text)
            .iter()
            .map(|d| d.code.to_string())
            .collect();
        assert_eq!(codes, [code], "{:?}", pinned(&text));
    }
    // The rule still holds when the field is simply absent.
    let codes: Vec<String> = diagnostics(&VEAL.replace("validator: qa\n", ""))
        .iter()
        .map(|d| d.code.to_string())
        .collect();
    assert_eq!(codes, ["V102"]);
}

/// An unknown key one edit from a field its object gives already (`tp` beside `to`) is no
/// misspelling of it: `F001` offers no rename that would give the key twice, and the
/// field it is near is still checked.
#[test]
fn an_unknown_key_near_a_given_field_hides_nothing() {
    let text = edit(
        "      on: done\n      to: $end\n",
        "      on: done\n      to: nowhere\n      tp: fix\n",
    );
    let ds = diagnostics(&text);
    let codes: Vec<String> = ds.iter().map(|d| d.code.to_string()).collect();
    assert_eq!(codes, ["V009", "F001"], "{:?}", pinned(&text));
    assert!(ds[1].suggestions.is_empty(), "{:?}", ds[1]);
    // Without the `to`, the same key is its misspelling.
    let text = edit(
        "      on: done\n      to: $end\n",
        "      on: done\n      tp: $end\n",
    );
    let ds = diagnostics(&text);
    assert_eq!(ds.len(), 1, "{:?}", pinned(&text));
    assert_eq!(ds[0].help_text().as_deref(), Some("did you mean `to`?"));
}

/// A `$schema` given unreadably (the wrong type, or under a misspelled key) is reported
/// once, not also as missing (`F012`, before).
#[test]
fn a_schema_given_unreadably_is_not_also_missing() {
    let schema_line = BASE.lines().nth(1).expect("the $schema line");
    let codes = |line: &str| -> Vec<String> {
        diagnostics(&edit(schema_line, line))
            .iter()
            .map(|d| d.code.to_string())
            .collect()
    };
    assert_eq!(codes("$schema: 42"), ["F003"]);
    assert_eq!(codes(&schema_line.replace("$schema", "$shema")), ["F001"]);
    assert_eq!(codes("description2: x"), ["F012", "F001"]);
}

/// A member of `error_policy` given unreadably is reported once, and the rules that need
/// it judge only the members that are really missing.
#[test]
fn an_error_policy_member_given_unreadably_is_not_also_missing() {
    let codes = |policy: &str| -> Vec<String> {
        let text = edit(
            "  transitions:\n",
            &format!("  error_policy:\n{policy}  transitions:\n"),
        );
        diagnostics(&text)
            .iter()
            .map(|d| d.code.to_string())
            .collect()
    };
    let retry = |members: &str| {
        format!(
            "    tool_failure:\n      action: retry\n{members}    phase_failure:\n      action: abort\n"
        )
    };
    // The quoted `max_retries` is the one error.
    let quoted = retry("      max_retries: \"3\"\n      on_exhausted: fail_phase\n");
    assert_eq!(codes(&quoted), ["F003"]);
    // `on_exhausted` is missing besides: that is a second mistake, said once.
    let quoted_alone = retry("      max_retries: \"3\"\n");
    assert_eq!(codes(&quoted_alone), ["V019", "F003"]);
    // A misspelled member is the one error, and the other is still required.
    let misspelled = retry("      max_retires: 3\n      on_exhausted: abort\n");
    assert_eq!(codes(&misspelled), ["F001"]);
    let both_missing = retry("");
    assert_eq!(codes(&both_missing), ["V018", "V019"]);
    // A misspelled `phase_failure` is not also missing (`V022`).
    let policy =
        "    tool_failure:\n      action: fail_phase\n    phase_failur:\n      action: abort\n";
    assert_eq!(codes(policy), ["F001"]);
    let no_phase_failure = "    tool_failure:\n      action: fail_phase\n";
    assert_eq!(codes(no_phase_failure), ["V022"]);
    // An action changed from `retry` that left both retry members behind is one mistake:
    // one diagnostic, labelled at the second member.
    let left_behind =
        "    tool_failure:\n      action: abort\n      max_retries: 2\n      on_exhausted: abort\n";
    let text = edit(
        "  transitions:\n",
        &format!("  error_policy:\n{left_behind}  transitions:\n"),
    );
    assert_eq!(
        pinned(&text),
        [
            "V020 26:7 `max_retries` and `on_exhausted` are only allowed with `action: retry`, not `action: abort` | set `action: retry`"
        ]
    );
    // The label is on the second member's key, as the diagnostic is on the first's.
    let labels = &diagnostics(&text)[0].labels;
    assert_eq!(labels.len(), 1);
    let at = labels[0].location.pos.map(|p| (p.line, p.column));
    assert_eq!(at, Some((27, 7)), "{labels:?}");
    let one = "    tool_failure:\n      action: abort\n      on_exhausted: abort\n";
    assert_eq!(codes(one), ["V021"]);
}

/// A phase renamed in its declaration only (its references still name the old id, and
/// nothing names the new one) is one diagnostic, whose "did you mean" is the new name at
/// every place; no rule judges the renamed phase as if it had no transitions.
#[test]
fn a_phase_renamed_in_its_declaration_only_is_one_error() {
    let codes = |text: &str| -> Vec<String> {
        diagnostics(text)
            .iter()
            .map(|d| d.code.to_string())
            .collect()
    };
    let entry = edit("- id: investigate", "- id: research");
    assert_eq!(codes(&entry), ["V006"], "{:?}", pinned(&entry));
    let d = &diagnostics(&entry)[0];
    assert_eq!(d.labels.len(), 3, "{d:?}");
    assert_eq!(
        d.help_text().as_deref(),
        Some("did you mean `research`? (at each of the 4 places)")
    );
    let target = edit("- id: fix", "- id: repair");
    assert_eq!(codes(&target), ["V009"], "{:?}", pinned(&target));
    // Renamed to an invalid id with no valid form: the id is the one error (one with a
    // valid form, `Repair_It`, makes the references a second mistake, as
    // `a_did_you_mean_offers_only_valid_ids` shows).
    let invalid = edit("- id: fix", "- id: rëpair");
    assert_eq!(codes(&invalid), ["F005"], "{:?}", pinned(&invalid));
    // With a second undeclared name, the transitions that leave `fix` on exactly the
    // outcomes `repair` has no transition for still name the rename.
    let two = edit("- id: fix", "- id: repair").replace("to: $handoff", "to: escalate");
    assert_eq!(
        pinned(&two),
        [
            "V009 26:11 transition `to` `fix` is neither a declared phase nor a terminal | did you mean `repair`? (at each of the 3 places)",
            "V009 29:11 transition `to` `escalate` is neither a declared phase nor a terminal | declared phases: `investigate`, `repair`",
        ]
    );
    assert_eq!(
        diagnostics(&two)[0].notes,
        [
            "phase `repair` has no transition for its outcomes `done` and `again`: these transitions are probably meant for it"
        ]
    );
}

/// A phase whose implicit `complete` has no transition is one error: the terminal and the
/// phases out of reach behind it are its consequence.
#[test]
fn a_missing_transition_is_not_also_an_unreachable_terminal() {
    let text = edit(FIX_OUTCOMES, "")
        .replace("    - from: fix\n      on: done\n      to: $end\n", "")
        .replace(
            "    - from: fix\n      on: again\n      to: investigate\n",
            "",
        )
        .replace("to: $handoff", "to: fix");
    assert_eq!(
        pinned(&text),
        [
            "V011 16:11 phase `fix` has no transition for its implicit outcome `complete` | add {\"from\": \"fix\", \"on\": \"complete\", \"to\": ...}"
        ]
    );
}

/// Transitions on `complete` (or another unknown outcome) from a phase that declares
/// outcomes, as many as its outcomes left without a transition, are one error each: the
/// outcome it was meant for is named, and not reported again.
#[test]
fn a_transition_on_the_wrong_outcome_is_one_error() {
    let text = edit("on: stuck", "on: complete");
    assert_eq!(
        pinned(&text),
        ["V008 28:11 phase `investigate` has no outcome `complete` | did you mean `stuck`?"]
    );
    assert_eq!(
        diagnostics(&text)[0].notes,
        [
            "outcome `stuck` of `investigate` has no transition: this transition is probably meant for it"
        ]
    );
}

/// A transition whose `from` names no declared phase, on the one outcome some phase has no
/// transition for, is one error that names that phase.
#[test]
fn a_transition_from_an_undeclared_phase_is_one_error() {
    let text = edit(
        "    - from: fix\n      on: done",
        "    - from: work\n      on: done",
    );
    assert_eq!(
        pinned(&text),
        ["V007 30:13 transition `from` `work` is not a declared phase | did you mean `fix`?"]
    );
    assert_eq!(
        diagnostics(&text)[0].notes,
        [
            "phase `fix` has no transition for its outcome `done`: this transition is probably meant for it"
        ]
    );
}

/// A misspelled optional list (`outcome` for `outcomes`) is one error, the `F001` renaming
/// it: its transitions are not also reported on outcomes the phase "does not declare".
#[test]
fn a_misspelled_outcome_list_is_one_error() {
    let text = edit(
        "      outcomes:\n        - id: done",
        "      outcome:\n        - id: done",
    );
    let codes: Vec<String> = diagnostics(&text)
        .iter()
        .map(|d| d.code.to_string())
        .collect();
    assert_eq!(codes, ["F001"], "{:?}", pinned(&text));
}

/// A terminal one edit from a real one (`$ned`, `$END`, `$abrot`) gets it as its "did you
/// mean", as `end` without its `$` does.
#[test]
fn a_misspelled_terminal_gets_its_did_you_mean() {
    for (written, meant) in [
        ("$ned", "$end"),
        ("$END", "$end"),
        ("$abrot", "$abort"),
        ("$hand-off", "$handoff"),
    ] {
        let text = edit("to: $end", &format!("to: \"{written}\""));
        let d = &diagnostics(&text)[0];
        assert_eq!(d.code.to_string(), "V009");
        assert_eq!(
            d.help_text().as_deref(),
            Some(format!("did you mean `{meant}`?").as_str()),
            "{written}"
        );
    }
}

/// The help of a wrong type fits the value: a quoted boolean or number is told to lose its
/// quotes, a null to get a value.
#[test]
fn a_wrong_type_help_fits_the_value() {
    let cases = [
        (
            VEAL.replace("validator: qa", "validator: qa\nmax_attempts: \"4\""),
            "remove the quotes: `4`",
        ),
        (
            VEAL.replace("type: VEAL", "type: VEAL\ndescription: ~"),
            "give the field a value, or leave it out",
        ),
        (
            VEAL.replace(
                "command: go test ./...",
                "command: go test ./...\n    required: \"false\"",
            ),
            "remove the quotes: `false`",
        ),
        (
            VEAL.replace("validator: qa", "validator: 5"),
            "quote the value to make it a string",
        ),
    ];
    for (text, help) in cases {
        let d = &diagnostics(&text)[0];
        assert_eq!(d.code.to_string(), "F003", "{d:?}");
        assert_eq!(d.help_text().as_deref(), Some(help), "{text}");
    }
}

/// A missing role in an IR file is placed and named as the IR writes it: on `roles`,
/// "add `roles.validator`".
#[test]
fn a_missing_role_is_named_as_the_format_writes_it() {
    let veal = loopconv::load("v.yaml", VEAL.as_bytes(), &loopconv::LoadOptions::default());
    let (spec, info) = veal.valid().expect("valid");
    let mut d = loopconv::diag::Diagnostics::new("v.json");
    let ir = loopconv::write(
        loopconv::Target::Loop(loopconv::Format::Ir),
        spec,
        info,
        &loopconv::back::Options::default(),
        &mut d,
    )
    .expect("IR");
    let mut v: serde_json::Value = serde_json::from_str(&ir).expect("JSON");
    v["roles"]
        .as_object_mut()
        .expect("roles")
        .remove("validator");
    let text = serde_json::to_string_pretty(&v).expect("JSON");
    let l = load("v.json", text.as_bytes(), &LoadOptions::default());
    let [d] = l.diags.items() else {
        panic!("one diagnostic: {:?}", l.diags.items());
    };
    assert_eq!(d.code.to_string(), "V102");
    assert_eq!(d.location.pointer, "/roles");
    assert!(
        d.help_text()
            .is_some_and(|h| h.ends_with("add `roles.validator`")),
        "{d:?}"
    );
}

/// A `--from` naming another format than the file's is one mistake: the first error says
/// so. A file that claims no format gets no such note.
#[test]
fn a_wrong_from_is_named_on_the_first_error() {
    let read = |text: &str, from| {
        let opts = LoadOptions {
            from: Some(from),
            ..LoadOptions::default()
        };
        load("loop.yaml", text.as_bytes(), &opts).diags.into_items()
    };
    let ds = read(BASE, loopconv::Format::Mas);
    assert!(ds.len() > 1, "{ds:?}");
    let note = "the file looks like an AgentPM loop manifest: `--from mas` reads it as a multi-agent-spec loop";
    assert_eq!(ds[0].notes, [note]);
    assert!(ds[1..].iter().all(|d| !d.notes.iter().any(|n| n == note)));
    let ds = read(VEAL, loopconv::Format::Agentpm);
    assert_eq!(
        ds[0].notes,
        [
            "the file looks like a multi-agent-spec loop: `--from agentpm` reads it as an AgentPM loop manifest"
        ]
    );
    // The right format, or a document that claims none: no note (the one diagnostic of
    // the right format: the manifest is written in YAML).
    let right = read(BASE, loopconv::Format::Agentpm);
    assert_eq!(
        right.iter().map(|d| d.code).collect::<Vec<_>>(),
        [Code::AgentpmYaml]
    );
    assert!(right[0].notes.iter().all(|n| !n.contains("looks like")));
    let neither = read("name: x\n", loopconv::Format::Mas);
    assert!(neither.iter().all(|d| d.notes.is_empty()), "{neither:?}");
}

/// One transition that cuts off a branch is one diagnostic: `V012` at the first phase of
/// each way into the unreachable part, labelled at every phase reached only through it.
/// A cycle is entered at its first phase.
#[test]
fn a_cut_off_branch_is_one_unreachable_diagnostic() {
    let text = r#"kind: loop
$schema: https://raw.githubusercontent.com/agentpm-dev/cli/refs/heads/main/schemas/agentpm.manifest.schema.json
name: cut
version: 0.1.0
description: A branch cut off.
loop:
  entry_phase: plan
  phases:
    - {id: plan, objective: Plan.}
    - {id: build, objective: Build.}
    - id: test
      objective: Test.
      outcomes:
        - {id: complete, description: Passed.}
        - {id: failed, description: Failed.}
    - {id: orphan, objective: Nobody comes here.}
  transitions:
    - {from: plan, on: complete, to: $end}
    - {from: build, on: complete, to: test}
    - {from: test, on: complete, to: $end}
    - {from: test, on: failed, to: build}
    - {from: orphan, on: complete, to: $end}
  checkpoints:
    - {id: sign-off, type: approval, before_phase: test, on_reject: $abort}
"#;
    let ds = diagnostics(text);
    let summary: Vec<(String, String, Vec<String>)> = ds
        .iter()
        .map(|d| {
            let labels = d.labels.iter().map(|l| l.message.clone()).collect();
            (d.code.to_string(), d.message.clone(), labels)
        })
        .collect();
    assert_eq!(
        summary,
        [
            (
                "V012".to_owned(),
                "phase `build` cannot be reached from the entry phase `plan`".to_owned(),
                vec!["`test` is reached only through `build`".to_owned()]
            ),
            (
                "V012".to_owned(),
                "phase `orphan` cannot be reached from the entry phase `plan`".to_owned(),
                vec![]
            ),
        ]
    );
    // Two ways into one cut-off part: a phase beyond both is labelled once, naming both
    // (not only the way found last).
    let two_ways = text
        .replace("    - {id: orphan, objective: Nobody comes here.}\n", "    - {id: orphan, objective: Nobody comes here.}\n    - {id: side, objective: Another way in.}\n")
        .replace("    - {from: orphan, on: complete, to: $end}\n", "    - {from: orphan, on: complete, to: $end}\n    - {from: side, on: complete, to: test}\n")
        .replace("{from: test, on: failed, to: build}", "{from: test, on: failed, to: $abort}");
    let labels: Vec<(String, Vec<String>)> = diagnostics(&two_ways)
        .iter()
        .map(|d| {
            (
                d.message.clone(),
                d.labels.iter().map(|l| l.message.clone()).collect(),
            )
        })
        .collect();
    assert_eq!(
        labels,
        [
            (
                "phase `build` cannot be reached from the entry phase `plan`".to_owned(),
                vec!["`test` is reached only through `build` or `side`".to_owned()]
            ),
            (
                "phase `orphan` cannot be reached from the entry phase `plan`".to_owned(),
                vec![]
            ),
            (
                "phase `side` cannot be reached from the entry phase `plan`".to_owned(),
                vec![]
            ),
        ]
    );
}

/// A phase renamed in its declaration only, into the id of another phase, is one mistake:
/// one `V003` on the renamed declaration (first or second), whose did-you-mean is the old
/// id the references still name.
#[test]
fn a_phase_renamed_into_another_phases_id_is_one_error() {
    let codes = |text: &str| -> Vec<String> {
        diagnostics(text)
            .iter()
            .map(|d| d.code.to_string())
            .collect()
    };
    // The second phase renamed into the first's id: reported on the second.
    let second = edit("- id: fix", "- id: investigate");
    assert_eq!(
        pinned(&second),
        ["V003 16:11 phase id `investigate` is declared twice | did you mean `fix`?"]
    );
    // The first renamed into the second's id: reported on the first, where the rename is.
    let first = edit("- id: investigate", "- id: fix");
    assert_eq!(
        pinned(&first),
        ["V003 9:11 phase id `fix` is declared twice | did you mean `investigate`?"]
    );
    let d = &diagnostics(&first)[0];
    assert_eq!(
        d.notes,
        ["also declared as phase 2; the references name `investigate`, which no phase declares"]
    );
    // A duplicate besides a typo of a declared id is two mistakes, each said as before.
    let both = edit(
        "  transitions:\n",
        "    - id: fix\n      objective: Fix it again.\n  transitions:\n",
    )
    .replace("to: fix", "to: fixx");
    assert_eq!(codes(&both), ["V003", "V009"], "{:?}", pinned(&both));
    assert_eq!(
        diagnostics(&both)[1].help_text().as_deref(),
        Some("did you mean `fix`?")
    );
}

/// A phase's invalid id, written the same way in `entry_phase` and the references, is one
/// `F005`, and its fix renames every place.
#[test]
fn an_invalid_phase_id_is_one_error_whose_fix_renames_every_place() {
    let text = BASE.replace("investigate", "Investigate");
    let ds = diagnostics(&text);
    let codes: Vec<String> = ds.iter().map(|d| d.code.to_string()).collect();
    assert_eq!(codes, ["F005"], "{:?}", pinned(&text));
    let [Suggestion::ReplaceAll { targets, with }] = &ds[0].suggestions[..] else {
        panic!("one ReplaceAll: {:?}", ds[0].suggestions);
    };
    assert_eq!(with, "investigate");
    let fixed = replaced_at(&text, targets, &format!("\"{with}\""));
    assert!(diagnostics(&fixed).is_empty(), "{fixed}");
}

/// A document beside a loop that is no loop is named for what it is, in one diagnostic: an
/// Agent manifest (`P015` from a command that needs a loop) and a harness configuration.
#[test]
fn an_agent_manifest_or_a_harness_config_is_named_for_what_it_is() {
    let agent = r#"{"kind": "agent", "name": "triage", "version": "0.1.0", "description": "An agent.", "loop": "@acme/triage@0.1.0"}"#;
    let ds = load("agent.json", agent.as_bytes(), &LoadOptions::default())
        .diags
        .into_items();
    assert_eq!(ds.len(), 1, "{ds:?}");
    assert_eq!(ds[0].code.to_string(), "P015");
    assert!(ds[0].message.contains("AgentPM Agent manifest"), "{ds:?}");
    let harness = r#"{"runtime": {"limits": {"max_steps": 50}}}"#;
    let ds = load(
        "agentpm.harness.json",
        harness.as_bytes(),
        &LoadOptions::default(),
    )
    .diags
    .into_items();
    assert_eq!(ds.len(), 1, "{ds:?}");
    assert_eq!(
        ds[0].message,
        "this is an AgentPM harness configuration (`runtime`), not a loop"
    );
    assert!(
        ds[0]
            .help_text()
            .is_some_and(|h| h.contains("never loosen")),
        "{ds:?}"
    );
}
