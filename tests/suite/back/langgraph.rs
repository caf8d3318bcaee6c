//! The LangGraph back end (`convert --to langgraph`) through the real library:
//! `scripts/langgraph_check.py` imports and compiles every generated module, compares its
//! `get_graph()` edges with loopconv's transitions and gates, runs every `loopconv paths`
//! run through it (interrupts resumed with approvals and rejections) against `loopconv
//! walk`, and checks with Python's `ast` that user text stays in literals.

use std::path::{Path, PathBuf};

use crate::support::{ROOT, corpus, examples, loop_files, loopconv};

/// Whether `python3` can import LangGraph (installed by `scripts/install-tools.sh`).
fn have_langgraph() -> bool {
    std::process::Command::new("python3")
        .args(["-c", "import langgraph.graph"])
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

/// The example folders, the corpus (when present) and the breakout loop, written to `dir`.
fn inputs(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = ["agentpm", "mas", "hostile"]
        .iter()
        .flat_map(|d| loop_files(&examples().join(d)))
        .collect();
    files.extend(corpus().map(|d| loop_files(&d)).unwrap_or_default());
    let breakout = dir.join("breakout.json");
    std::fs::write(&breakout, BREAKOUT).expect("write the breakout loop");
    files.push(breakout);
    files
}

#[test]
fn every_generated_module_runs_like_loopconv_walk_in_the_real_langgraph() {
    if crate::support::skip_without_tool(
        have_langgraph(),
        "LangGraph (python3 -m pip install langgraph)",
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
    // breakout loop are checked, not skipped; only an invalid corpus file may be.
    assert!(report.contains(": self-test ok\n"), "{report}");
    for f in &files {
        let line = report
            .lines()
            .filter(|l| !l.ends_with(": self-test ok"))
            .find(|l| l.starts_with(&format!("{}: ", f.display())))
            .unwrap_or_else(|| panic!("no verdict for {}:\n{report}", f.display()));
        let from_corpus = !f.starts_with(examples()) && !f.starts_with(dir.path());
        assert!(
            line.contains(": ok (")
                || (from_corpus && line.ends_with("skipped (loopconv does not accept it)")),
            "{line}"
        );
    }
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
    assert!(module.contains("def phase_import(state: State) -> str:"));
    assert!(module.contains("def phase_class(state: State) -> str:"));
    assert!(module.contains(r#"graph.add_node("gate.run", _gate("gate.run", "run", "run"))"#));
}
