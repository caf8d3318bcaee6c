//! Text meant for a person never carries a right-to-left override (U+202E), a pop
//! directional formatting (U+202C) or a zero-width space (U+200B) from the loop, whatever
//! the output: terminal diagnostics (with their source snippets), SARIF and GitHub
//! messages, `docs` pages, diagrams in every style, `diff` in its text and Markdown forms,
//! `walk`, `paths`, `explain`, and the language server's hover, completion and diagnostics.
//! The loop formats (IR, AgentPM, MAS, XState) and the JSON forms are data: they keep the text
//! exactly.

use std::path::{Path, PathBuf};

use loopconv::{Format, Target};
use serde_json::{Value, json};

use crate::lsp::protocol::{Client, pos};

/// The characters that must not reach a reader.
const HIDDEN: [char; 3] = ['\u{202E}', '\u{202C}', '\u{200B}'];
/// Right-to-left override, pop directional formatting, zero-width space.
const RLO: &str = "\u{202E}";
const PDF: &str = "\u{202C}";
const ZWSP: &str = "\u{200B}";

/// The loop description, the objective and an outcome description, each with hidden
/// characters.
const DESCRIPTION: &str = "Loop description \u{202E}live\u{202C} with a \u{200B}hidden space.";
const OBJECTIVE: &str = "Run \u{202E}gnp.tset\u{202C} and \u{200B}check.";
const OUTCOME: &str = "Finished \u{202E}edoc\u{202C}\u{200B} cleanly.";

/// An AgentPM loop with the hostile texts; `extra` is added to the phase, on the line of
/// its objective (a key that makes the file invalid, for a diagnostic quoting the line).
fn hostile_loop(objective: &str, extra: &str) -> String {
    format!(
        r#"{{
  "$schema": "https://raw.githubusercontent.com/agentpm-dev/cli/refs/heads/main/schemas/agentpm.manifest.schema.json",
  "kind": "loop",
  "name": "bidi-loop",
  "version": "0.1.0",
  "description": "{DESCRIPTION}",
  "loop": {{
    "entry_phase": "work",
    "limits": {{ "max_steps": 5 }},
    "phases": [
      {{
        "id": "work",
        "objective": "{objective}"{extra},
        "outcomes": [
          {{ "id": "done", "description": "{OUTCOME}" }},
          {{ "id": "again", "description": "Once {ZWSP}more." }}
        ]
      }},
      {{
        "id": "review",
        "objective": "Review the {RLO}result{PDF}.",
        "outcomes": [{{ "id": "ok", "description": "Accepted {ZWSP}." }}]
      }}
    ],
    "transitions": [
      {{ "from": "work", "on": "done", "to": "review" }},
      {{ "from": "work", "on": "again", "to": "work" }},
      {{ "from": "review", "on": "ok", "to": "$end" }}
    ]
  }}
}}
"#
    )
}

/// A fresh folder for one test's files.
fn folder(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("person_text")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create the test folder");
    dir
}

/// Write `text` as `name` in `dir`; its path.
fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write the loop");
    path
}

/// `text` holds none of [`HIDDEN`].
fn assert_clean(text: &str, what: &str) {
    for c in HIDDEN {
        assert!(
            !text.contains(c),
            "{what}: U+{:04X} in\n{text}",
            u32::from(c)
        );
    }
}

/// Run the binary; its exit code, stdout and stderr.
fn run(args: &[&str]) -> (i32, String, String) {
    let out = crate::support::loopconv()
        .args(args)
        .output()
        .expect("run loopconv");
    let text = |b: Vec<u8>| String::from_utf8(b).expect("UTF-8 output");
    (
        out.status.code().unwrap_or(-1),
        text(out.stdout),
        text(out.stderr),
    )
}

fn path_str(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

#[test]
fn the_hostile_loop_is_valid_and_holds_the_characters() {
    let text = hostile_loop(OBJECTIVE, "");
    for c in HIDDEN {
        assert!(text.contains(c));
    }
    let l = loopconv::load("bidi.json", text.as_bytes(), &Default::default());
    let (spec, _) = l.valid().expect("a valid loop");
    assert_eq!(spec.description.as_deref(), Some(DESCRIPTION));
    assert_eq!(spec.graph.phases[0].objective, OBJECTIVE);
}

#[test]
fn terminal_sarif_and_github_diagnostics_show_no_hidden_character() {
    let dir = folder("check");
    let bad = write(
        &dir,
        "bad.json",
        &hostile_loop(OBJECTIVE, ", \"bo\u{202E}gus\u{200B}\": 1"),
    );
    let (code, _, human) = run(&["check", path_str(&bad)]);
    assert_eq!(code, 1, "{human}");
    // The snippet quotes the objective's line: shown, with `?` for each hidden character.
    assert!(human.contains("error[F001]"), "{human}");
    // Each hidden character of the snippet is a `?` padded to its byte length.
    assert!(
        human.contains("Run ?  gnp.tset?   and ?  check."),
        "{human}"
    );
    assert_clean(&human, "check (human)");
    // (`--format markdown` is `diff`'s only: `check` refuses it.)
    for format in ["github", "sarif", "human"] {
        let (_, out, err) = run(&["check", "--format", format, path_str(&bad)]);
        assert!(
            out.contains("F001") || err.contains("F001"),
            "{format}: {out}{err}"
        );
        assert_clean(&out, format);
        assert_clean(&err, format);
    }
    let (_, sarif, _) = run(&["check", "--format", "sarif", path_str(&bad)]);
    let log: Value = serde_json::from_str(&sarif).expect("a SARIF log");
    let messages: Vec<&str> = log["runs"][0]["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| r["message"]["text"].as_str().expect("a message"))
        .collect();
    // The message names the key with its hidden characters written out.
    assert!(
        messages.iter().any(|m| m.contains("bo\\u{202e}gus")),
        "{messages:?}"
    );
}

#[test]
fn pages_and_diagrams_show_no_hidden_character_and_the_loop_formats_keep_them() {
    let text = hostile_loop(OBJECTIVE, "");
    let l = loopconv::load("bidi.json", text.as_bytes(), &Default::default());
    let (spec, info) = l.valid().expect("a valid loop");
    let written = crate::support::write_every_target(
        "bidi.json",
        spec,
        info,
        &crate::support::lossy_options(),
    );
    let mut people = 0;
    let mut data = 0;
    for w in &written {
        let out = w
            .text
            .as_ref()
            .unwrap_or_else(|e| panic!("{}: {e}", w.label));
        match w.target {
            Target::Mermaid | Target::Dot | Target::PlantUml | Target::Markdown => {
                assert!(
                    out.replace("<U+002E>", ".").contains("gnp.tset"),
                    "{}: the objective is drawn",
                    w.label
                );
                assert_clean(out, &w.label);
                people += 1;
            }
            Target::Loop(format) => {
                let back = loopconv::load(&w.label, out.as_bytes(), &Default::default());
                let (spec, _) = back
                    .valid()
                    .unwrap_or_else(|| panic!("{}: {:?}", w.label, back.diags.items()));
                if format == Format::Mas {
                    // MAS has fixed phases: the mission outlines the graph, with the exact
                    // texts.
                    let mission = spec.goal.mission.as_deref().unwrap_or_default();
                    assert!(mission.contains(OBJECTIVE), "{}: {mission:?}", w.label);
                    assert!(mission.contains(DESCRIPTION), "{}: {mission:?}", w.label);
                } else {
                    assert_eq!(spec.graph.phases[0].objective, OBJECTIVE, "{}", w.label);
                    let outcome = spec.graph.phases[0].outcomes.as_ref().expect("outcomes");
                    assert_eq!(outcome[0].description, OUTCOME, "{}", w.label);
                }
                assert_eq!(
                    spec.description.as_deref(),
                    Some(DESCRIPTION),
                    "{}",
                    w.label
                );
                data += 1;
            }
            // A program: user text is kept exactly, in literals that escape every
            // character outside printable ASCII (`back::langgraph`), so none is hidden.
            Target::LangGraph => {
                assert!(out.is_ascii(), "{}: a character outside ASCII", w.label);
                data += 1;
            }
            Target::Schema => {}
        }
    }
    // Every Mermaid style, DOT with and without a legend, PlantUML, Markdown; every loop
    // format and the LangGraph program.
    assert!(people >= 6, "{people} outputs for people");
    assert_eq!(data, Format::ALL.len() + 1);
}

#[test]
fn graph_docs_and_convert_commands() {
    let dir = folder("commands");
    let file = write(&dir, "bidi.json", &hostile_loop(OBJECTIVE, ""));
    let drawings: [&[&str]; 4] = [
        &["--style", "flowchart"],
        &["--style", "state"],
        &["--to", "dot"],
        &["--to", "plantuml"],
    ];
    for args in drawings {
        let mut all = vec!["graph", path_str(&file)];
        all.extend(args);
        let (code, out, err) = run(&all);
        assert_eq!(code, 0, "{all:?}: {err}");
        // PlantUML writes the `.` as `<U+002E>`.
        let shown = out.replace("<U+002E>", ".");
        assert!(shown.contains("gnp.tset"), "{all:?}: {out}");
        assert_clean(&out, &format!("{all:?}"));
    }
    let pages = dir.join("pages");
    let (code, _, err) = run(&["docs", path_str(&file), "-o", path_str(&pages)]);
    assert_eq!(code, 0, "{err}");
    let mut read = 0;
    for page in crate::support::files_under(&pages) {
        let text = String::from_utf8(crate::support::read(&page)).expect("UTF-8 page");
        assert_clean(&text, &page.display().to_string());
        read += usize::from(text.contains("gnp.tset"));
    }
    assert_eq!(read, 1, "one page shows the objective");
    for to in ["ir", "agentpm", "mas"] {
        let (code, out, err) = run(&[
            "convert",
            path_str(&file),
            "--to",
            to,
            "--allow-lossy",
            "--actor",
            "actor",
            "--validator",
            "validator",
        ]);
        assert_eq!(code, 0, "convert --to {to}: {err}");
        let back = loopconv::load("converted", out.as_bytes(), &Default::default());
        let (spec, _) = back.valid().expect("a valid conversion");
        assert_eq!(spec.description.as_deref(), Some(DESCRIPTION), "--to {to}");
        assert!(out.contains(OBJECTIVE), "convert --to {to}: {out}");
    }
}

#[test]
fn diff_in_every_format() {
    let dir = folder("diff");
    let old = write(&dir, "old.json", &hostile_loop("Run the tests.", ""));
    let new = write(&dir, "new.json", &hostile_loop(OBJECTIVE, ""));
    let (_, text, err) = run(&["diff", path_str(&old), path_str(&new)]);
    assert!(text.contains("gnp.tset"), "{text}{err}");
    assert_clean(&text, "diff (text)");
    let (_, md, err) = run(&[
        "diff",
        "--format",
        "markdown",
        path_str(&old),
        path_str(&new),
    ]);
    assert!(md.contains("gnp.tset"), "{md}{err}");
    assert!(md.contains("```mermaid"), "{md}");
    assert_clean(&md, "diff (markdown)");
    // The JSON form is data: the new objective exactly.
    let (_, json, err) = run(&["diff", "--format", "json", path_str(&old), path_str(&new)]);
    let v: Value = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}: {json}{err}"));
    let objective = v["changes"]
        .as_array()
        .expect("changes")
        .iter()
        .find(|c| c["element"] == "objective")
        .expect("the objective changed");
    assert_eq!(objective["new"], json!(OBJECTIVE));
}

#[test]
fn walk_paths_and_explain() {
    let dir = folder("walk");
    let file = write(&dir, "bidi.json", &hostile_loop(OBJECTIVE, ""));
    let (code, out, err) = run(&["walk", path_str(&file), "--outcomes", "again,done,ok"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("run ended after 3 steps"), "{out}");
    assert_clean(&out, "walk");
    // A user's outcome quoted in the error.
    let (code, out, err) = run(&[
        "walk",
        path_str(&file),
        "--outcomes",
        "do\u{202E}ne\u{200B}",
    ]);
    assert_ne!(code, 0);
    // The script's error is on stderr (stdout holds only the run).
    assert!(err.contains("do") && err.contains("ne"), "{out}{err}");
    assert_clean(&out, "walk (error)");
    assert_clean(&err, "walk (error)");
    let (code, out, err) = run(&["paths", path_str(&file)]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("work --done--> review --ok--> $end"), "{out}");
    assert_clean(&out, "paths");
    let (code, out, err) = run(&["explain", "V0\u{202E}12\u{200B}"]);
    assert_ne!(code, 0);
    assert!(
        err.contains("V0") && err.contains("is not a loopconv"),
        "{err}"
    );
    assert_clean(&out, "explain");
    assert_clean(&err, "explain");
}

#[test]
fn language_server_hover_completion_and_diagnostics() {
    const URI: &str = "file:///tmp/bidi.json";
    let text = hostile_loop(OBJECTIVE, ", \"bo\u{202E}gus\u{200B}\": 1");
    let mut c = Client::start();
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": URI, "languageId": "json", "version": 1, "text": text}}),
    );
    let ds = c.diagnostics(URI, 1);
    assert!(ds.iter().any(|d| d["code"] == "F001"), "{ds:?}");
    assert_clean(
        &serde_json::to_string(&ds).expect("JSON"),
        "LSP diagnostics",
    );

    // Hover on `work` in `"from": "work"`: the phase with its objective.
    let at = |p: Value| json!({"textDocument": {"uri": URI}, "position": p});
    let hover = c.request(
        "textDocument/hover",
        at(pos(&text, "\"from\": \"work\"", 0, 10)),
    );
    let value = hover["contents"]["value"].as_str().expect("hover text");
    assert!(value.contains("**phase `work`**"), "{value}");
    assert!(value.contains("gnp.tset"), "{value}");
    assert_clean(value, "hover (phase)");
    // Hover on `done` in `"on": "done"`: the outcome with its description.
    let hover = c.request(
        "textDocument/hover",
        at(pos(&text, "\"on\": \"done\"", 0, 8)),
    );
    let value = hover["contents"]["value"].as_str().expect("hover text");
    assert!(value.contains("edoc"), "{value}");
    assert_clean(value, "hover (outcome)");

    // Completion of a `to`: the phases, with their objectives as details.
    let half = text.replace(
        "{ \"from\": \"review\", \"on\": \"ok\", \"to\": \"$end\" }",
        "{ \"from\": \"review\", \"on\": \"ok\", \"to\": \"",
    );
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": URI, "version": 2}, "contentChanges": [{"text": half}]}),
    );
    let items = c.request(
        "textDocument/completion",
        at(pos(&half, "\"to\": \"", 2, 7)),
    );
    let items = items["items"].as_array().expect("completion items");
    let work = items
        .iter()
        .find(|i| i["label"] == "work")
        .unwrap_or_else(|| panic!("`work` offered: {items:?}"));
    assert!(
        work["detail"]
            .as_str()
            .expect("a detail")
            .contains("gnp.tset")
    );
    assert_clean(&serde_json::to_string(items).expect("JSON"), "completion");
    c.shutdown();
}
