//! The LangGraph back end (`convert --to langgraph`) through the real library:
//! `scripts/langgraph_check.py` imports and compiles every generated module, compares its
//! `get_graph()` edges with loopconv's transitions and gates, runs every `loopconv paths`
//! run through it (interrupts resumed with approvals and rejections, failure runs through
//! the error policy) against `loopconv walk`, and checks with Python's `ast` that user text
//! stays in literals; every module passes `ruff check` and `mypy --strict`.
//!
//! The agreement check: for every example and corpus loop, the scaffold of every archetype
//! of `loopconv new`, and loops for every error policy, `max_steps` above 100 and VEAL
//! attempts, 60 random scripts per loop (1,000 in `.ci/run`, `LOOPCONV_RANDOM_SCRIPTS`;
//! fixed seed 48; a script drawn again is run once) end with the same status in `loopconv
//! walk`, in the LangGraph program and in a live XState actor of `convert --to xstate`
//! (`scripts/xstate_check.mjs`). The random scripts are walked by one `loopconv mcp`
//! server (the first five of each loop by the command line too, which must agree) and run
//! on one compiled graph per loop: about 9 minutes for 1,000 under a load of 12 on 2
//! cores, a third of what one process per script took.

use std::path::{Path, PathBuf};

use crate::support::{ROOT, corpus, examples, loop_files, loopconv};

/// Whether `python3` can import LangGraph (installed by `scripts/install-tools.sh`).
fn have_langgraph() -> bool {
    std::process::Command::new("python3")
        .args(["-c", "import langgraph.graph"])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Whether `tool --version` runs.
fn have(tool: &str) -> bool {
    std::process::Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// A loop whose objectives and descriptions try to leave their Python literals.
const BREAKOUT: &str = r#"{
  "kind": "loop",
  "name": "breakout",
  "version": "1.0.0",
  "description": "\"\"\"\nimport os\nos.system('echo pwned')\n\"\"\"",
  "loop": {
    "entry_phase": "import",
    "phases": [
      {"id": "import", "objective": "Ends \"\"\" then \\ and \nimport os\nos.system('x') #"},
      {"id": "class", "objective": "Line\u2028separator\u2029paragraph\u0085next\r\nCRLF\u0000nul \\"},
      {"id": "run", "objective": "'''\\\"\"\"\\", "outcomes": [
        {"id": "done", "description": "\"\"\"); import os; (\"\"\""},
        {"id": "again", "description": "\\\n\u2028#"}
      ]}
    ],
    "transitions": [
      {"from": "import", "on": "complete", "to": "class"},
      {"from": "class", "on": "complete", "to": "run"},
      {"from": "run", "on": "done", "to": "$end"},
      {"from": "run", "on": "again", "to": "import"}
    ],
    "checkpoints": [
      {"id": "run", "type": "approval", "before_phase": "run", "on_reject": "$abort"}
    ]
  }
}
"#;

/// A general loop with `error_policy` `policy` (JSON) and `max_steps` `max`: `work` loops
/// on itself or ends at any of the three terminals, behind a checkpoint that a rejection
/// sends to `$abort`.
fn policy_loop(name: &str, policy: &str, max: u64) -> String {
    format!(
        r#"{{
  "kind": "loop", "name": "{name}", "version": "1.0.0", "description": "Policies.",
  "loop": {{
    "entry_phase": "plan",
    "limits": {{"max_steps": {max}}},
    "phases": [
      {{"id": "plan", "objective": "Plan.", "outcomes": [{{"id": "go", "description": "Go."}}]}},
      {{"id": "work", "objective": "Work.", "outcomes": [
        {{"id": "again", "description": "Again."}}, {{"id": "done", "description": "Done."}},
        {{"id": "give-up", "description": "Give up."}}, {{"id": "escalate", "description": "Hand off."}}
      ]}}
    ],
    "transitions": [
      {{"from": "plan", "on": "go", "to": "work"}},
      {{"from": "work", "on": "again", "to": "work"}},
      {{"from": "work", "on": "done", "to": "$end"}},
      {{"from": "work", "on": "give-up", "to": "$abort"}},
      {{"from": "work", "on": "escalate", "to": "$handoff"}}
    ],
    "checkpoints": [{{"id": "start-work", "type": "approval", "before_phase": "work", "on_reject": "$abort"}}]
    {policy}
  }}
}}
"#
    )
}

/// Loops that exercise every error policy (each tool action, each `on_exhausted`, each
/// `phase_failure`, the harness defaults), a `max_steps` above walk's default ceiling of
/// 100, and a VEAL loop whose `max_attempts` gives a bound above 100 (3 x 40 - 1).
fn policy_loops(dir: &Path) -> Vec<PathBuf> {
    let policies = [
        ("defaults", "", 12),
        (
            "tool-abort",
            r#", "error_policy": {"tool_failure": {"action": "abort"}, "phase_failure": {"action": "handoff"}}"#,
            12,
        ),
        (
            "tool-handoff",
            r#", "error_policy": {"tool_failure": {"action": "handoff"}}"#,
            12,
        ),
        (
            "tool-fail-phase",
            r#", "error_policy": {"tool_failure": {"action": "fail_phase"}, "phase_failure": {"action": "abort"}}"#,
            12,
        ),
        (
            "retry-abort",
            r#", "error_policy": {"tool_failure": {"action": "retry", "max_retries": 2, "on_exhausted": "abort"}}"#,
            12,
        ),
        (
            "retry-handoff",
            r#", "error_policy": {"tool_failure": {"action": "retry", "max_retries": 1, "on_exhausted": "handoff"}, "phase_failure": {"action": "abort"}}"#,
            12,
        ),
        (
            "retry-fail-phase",
            r#", "error_policy": {"tool_failure": {"action": "retry", "max_retries": 3, "on_exhausted": "fail_phase"}, "phase_failure": {"action": "handoff"}}"#,
            12,
        ),
        ("many-steps", "", 150),
    ];
    let mut files: Vec<PathBuf> = policies
        .iter()
        .map(|(name, policy, max)| {
            let file = dir.join(format!("{name}.json"));
            std::fs::write(&file, policy_loop(name, policy, *max)).expect("write a policy loop");
            file
        })
        .collect();
    let veal = dir.join("veal-forty.yaml");
    std::fs::write(
        &veal,
        "name: veal-forty\ntype: VEAL\ndescription: Forty attempts.\nvalidator: checker\nactor: fixer\nmax_attempts: 40\nescalation: human\nsuccess_criteria: Every check passes.\nchecks:\n  - id: tests\n    description: The test suite passes.\n    type: command\n    command: cargo test\n",
    )
    .expect("write the VEAL loop");
    files.push(veal);
    let three = dir.join("veal-three.yaml");
    std::fs::write(
        &three,
        "name: veal-three\ntype: VEAL\ndescription: Three attempts.\nvalidator: checker\nactor: fixer\nmax_attempts: 3\nescalation: human\nsuccess_criteria: Every check passes.\nchecks:\n  - id: tests\n    description: The test suite passes.\n    type: command\n    command: cargo test\n",
    )
    .expect("write the VEAL loop");
    files.push(three);
    files
}

/// Whether node has xstate and @xstate/graph (`tools/node_modules`, `npm ci`).
fn have_xstate() -> bool {
    let modules = Path::new(ROOT).join("tools/node_modules");
    have("node")
        && ["xstate", "@xstate/graph"]
            .iter()
            .all(|p| modules.join(p).join("package.json").exists())
}

/// The scaffold of each archetype of `loopconv new` (`scaffold::Archetype::ALL`), written to
/// `dir` in the archetype's format.
fn scaffolds(dir: &Path) -> Vec<PathBuf> {
    (loopconv::scaffold::Archetype::ALL.iter())
        .map(|&a| {
            let name = format!("scaffold-{}", a.name());
            let text = loopconv::scaffold::scaffold(a, &name).expect("a scaffold");
            let file = dir.join(format!("{name}.{}", a.format().extension()));
            std::fs::write(&file, text).expect("write a scaffold");
            file
        })
        .collect()
}

/// The example folders, the corpus (when present), the breakout loop, the policy loops and
/// the scaffolds of `loopconv new`, written to `dir`.
fn inputs(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = ["agentpm", "mas", "hostile"]
        .iter()
        .flat_map(|d| loop_files(&examples().join(d)))
        .collect();
    files.extend(corpus().map(|d| loop_files(&d)).unwrap_or_default());
    let breakout = dir.join("breakout.json");
    std::fs::write(&breakout, BREAKOUT).expect("write the breakout loop");
    files.push(breakout);
    files.extend(policy_loops(dir));
    files.extend(scaffolds(dir));
    files
}

#[test]
fn every_generated_module_runs_like_loopconv_walk_in_the_real_langgraph() {
    if crate::support::skip_without_tool(
        have_langgraph() && have("ruff") && have("mypy") && have_xstate(),
        "LangGraph, ruff, mypy and node with xstate (scripts/install-tools.sh)",
    ) {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let files = inputs(dir.path());
    let out = std::process::Command::new("python3")
        .arg(Path::new(ROOT).join("scripts/langgraph_check.py"))
        .arg(env!("CARGO_BIN_EXE_loopconv"))
        .args(&files)
        .current_dir(ROOT)
        .output()
        .expect("run python3");
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{report}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The checks can fail (a tampered module is caught), and every example and the
    // breakout loop are checked, not skipped; only an invalid corpus file may be. Every
    // module passes `ruff check` and `mypy --strict`.
    assert!(report.contains(": self-test ok\n"), "{report}");
    assert!(
        report.contains("\nlint: ruff and mypy --strict ok ("),
        "{report}"
    );
    for f in &files {
        let line = report
            .lines()
            .filter(|l| !l.ends_with(": self-test ok"))
            .find(|l| l.starts_with(&format!("{}: ", f.display())))
            .unwrap_or_else(|| panic!("no verdict for {}:\n{report}", f.display()));
        let from_corpus = !f.starts_with(examples()) && !f.starts_with(dir.path());
        assert!(
            (line.contains(": ok (")
                && line.contains(" random scripts agree in walk, LangGraph and XState"))
                || (from_corpus && line.ends_with("skipped (loopconv does not accept it)")),
            "{line}"
        );
    }
    // A VEAL loop with max_attempts 3 escalates only after its third NO-GO, in XState too
    // (@xstate/graph's shortest path to the escalation).
    let three = report
        .lines()
        .find(|l| l.contains("veal-three.yaml: "))
        .unwrap_or_default();
    assert!(
        three.contains("escalation to handed_off only after 3 failed evaluations"),
        "{three}"
    );
}

/// Without Python: the breakout loop's text is escaped in its literals (that it adds no
/// statement is checked by Python's `ast` above: a docstring keeps its line breaks, so
/// `import os` may start a line inside one).
#[test]
fn breakout_text_stays_inside_its_literals() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("breakout.json");
    std::fs::write(&file, BREAKOUT).expect("write");
    let out = loopconv()
        .args(["convert", "--to", "langgraph"])
        .arg(&file)
        .output()
        .expect("run loopconv");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let module = String::from_utf8(out.stdout).expect("UTF-8");
    assert!(
        module.is_ascii(),
        "every character outside ASCII is escaped"
    );
    assert!(!module.contains('\r'));
    // One-line literals hold no line break: the description's `import os` is escaped.
    assert!(
        module.contains(r#""description": "\"\"\"\nimport os\nos.system('echo pwned')\n\"\"\"","#),
        "{module}"
    );
    // The objectives' docstrings keep the line breaks, with every quote escaped.
    assert!(module.contains(r#""""Ends \"\"" then \\ and "#), "{module}");
    assert!(module.contains(r"Line\u2028separator\u2029paragraph\u0085next\r"));
    assert!(module.contains("def phase_import(state: State) -> Outcome:"));
    assert!(module.contains("def phase_class(state: State) -> Outcome:"));
    assert!(module.contains(r#"graph.add_node("gate.run", _gate("run", "run"))"#));
}

/// A folder whose loops are named after the standard library and the modules a program
/// imports converts to modules that never shadow them: all of them import in one
/// interpreter, next to the real `email`, `json`, `typing`, `logging` and `langgraph`, and
/// each runs.
#[test]
fn folder_modules_never_shadow_what_they_import() {
    if crate::support::skip_without_tool(
        have_langgraph(),
        "LangGraph (python3 -m pip install langgraph)",
    ) {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let loops = dir.path().join("loops");
    std::fs::create_dir(&loops).expect("mkdir");
    let names = ["email", "json", "typing", "logging", "langgraph"];
    for name in names {
        std::fs::write(
            loops.join(format!("{name}.json")),
            policy_loop(name, "", 12),
        )
        .expect("write");
    }
    let out = dir.path().join("out");
    let conv = loopconv()
        .args(["convert", "--to", "langgraph"])
        .arg(&loops)
        .arg("-o")
        .arg(&out)
        .output()
        .expect("run loopconv");
    assert!(
        conv.status.success(),
        "{}",
        String::from_utf8_lossy(&conv.stderr)
    );
    let mut written: Vec<String> = std::fs::read_dir(&out)
        .expect("read out")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    written.sort();
    assert_eq!(
        written,
        [
            "loop_email.py",
            "loop_json.py",
            "loop_langgraph.py",
            "loop_logging.py",
            "loop_typing.py"
        ]
    );
    let script = r#"
import sys
sys.path.insert(0, sys.argv[1])
import loop_email, loop_json, loop_typing, loop_logging, loop_langgraph
import email.message, json, typing, logging, langgraph.graph
assert not json.__file__.startswith(sys.argv[1]), json.__file__
assert not email.__file__.startswith(sys.argv[1]), email.__file__
for m in (loop_email, loop_json, loop_typing, loop_logging, loop_langgraph):
    state = m.run(["go", "again", "done"], {"start-work": ["approve", "approve"]})
    assert state["status"] == "ended", state
print("ok")
"#;
    let py = std::process::Command::new("python3")
        .args(["-c", script])
        .arg(&out)
        .current_dir(dir.path())
        .output()
        .expect("run python3");
    assert!(
        py.status.success() && String::from_utf8_lossy(&py.stdout).trim() == "ok",
        "{}{}",
        String::from_utf8_lossy(&py.stdout),
        String::from_utf8_lossy(&py.stderr)
    );
}
