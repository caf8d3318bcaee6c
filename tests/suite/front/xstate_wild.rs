//! XState machines as people write them (`tests/fixtures/xstate-wild/`): camelCase states,
//! UPPER_CASE events, no descriptions, guards, actions, `context`, nested states, `#id`
//! targets, XState v4 flags.
//!
//! - `flat/`: a flat machine reads with `--allow-lossy`: no error, each loss a located
//!   `B001` warning (the report and the loop read are snapshots); without the flag, one
//!   `B001` error names every loss at its place, and nothing else is reported.
//! - `refused/`: a machine that uses what a loop cannot hold gets every problem in one
//!   pass, each refused construct an `F018` at its place and no `V` code that only follows
//!   from it (the report without the flag is a snapshot).

use std::path::Path;

use crate::support::rel;
use loopconv::diag::{self, Code, Diagnostic, Severity};
use loopconv::{LoadOptions, Loaded};

fn load(path: &Path, allow_lossy: bool) -> (Loaded, String) {
    let text = std::fs::read_to_string(path).expect("read");
    let name = path
        .file_name()
        .expect("name")
        .to_string_lossy()
        .into_owned();
    let opts = LoadOptions {
        allow_lossy,
        ..LoadOptions::default()
    };
    let l = loopconv::load(&name, text.as_bytes(), &opts);
    (l, text)
}

/// The report as a person sees it, with each label's place.
fn report(items: &[Diagnostic], text: &str) -> String {
    diag::render_human(items, Some(text), false)
}

/// The loop read: its name, phases and transitions, checkpoints.
fn the_loop(l: &Loaded) -> String {
    let (spec, _) = l.valid().expect("valid");
    let mut out = format!("name: {}\nentry: {}\n", spec.name, spec.graph.entry);
    for p in &spec.graph.phases {
        out.push_str(&format!("phase {}: {}\n", p.id, p.objective));
        for o in p.outcomes.iter().flatten() {
            out.push_str(&format!("  outcome {}: {}\n", o.id, o.description));
        }
    }
    // A terminal with the final state it is named by (`$end at done`).
    let at = |to: &str, name: &Option<String>| match name {
        Some(name) => format!("{to} at {name}"),
        None => to.to_owned(),
    };
    for t in &spec.graph.transitions {
        let to = at(t.to.as_str(), &t.final_state);
        out.push_str(&format!("{} --{}--> {to}\n", t.from, t.on));
    }
    for c in spec.graph.checkpoints.iter().flatten() {
        out.push_str(&format!(
            "checkpoint {} before {} (reject: {})\n",
            c.id,
            c.before_phase,
            at(c.on_reject.as_str(), &c.final_state)
        ));
    }
    out
}

fn is_v_code(d: &Diagnostic) -> bool {
    d.code.as_str().starts_with('V')
}

#[test]
fn every_flat_machine_reads_with_a_loss_report() {
    let mut seen = 0;
    insta::glob!("../../fixtures/xstate-wild/flat", "*.json", |path| {
        seen += 1;
        let name = rel(path);
        let (lossy, text) = load(path, true);
        assert_eq!(lossy.format, Some(loopconv::Format::Xstate), "{name}");
        let items = lossy.diags.items();
        let others: Vec<&Diagnostic> = items
            .iter()
            .filter(|d| !(d.code == Code::LostField && d.severity == Severity::Warning))
            .collect();
        assert!(
            others.is_empty(),
            "{name}: only B001 warnings expected:\n{}",
            report(items, &text)
        );
        assert!(
            !items.is_empty(),
            "{name}: a machine written by hand loses something"
        );
        insta::assert_snapshot!(
            "lossy",
            format!("{}\n{}", report(items, &text), the_loop(&lossy))
        );

        let (strict, _) = load(path, false);
        let errors = strict.diags.items();
        assert_eq!(errors.len(), 1, "{name}:\n{}", report(errors, &text));
        let one = &errors[0];
        assert_eq!((one.code, one.severity), (Code::LostField, Severity::Error));
        assert!(one.help.as_deref().unwrap_or("").contains("--allow-lossy"));
        assert_eq!(
            one.labels.len() + 1,
            items.len(),
            "{name}: every loss is named"
        );
        assert!(one.labels.iter().all(|l| l.location.pos.is_some()));
    });
    assert!(seen >= 20, "{seen} flat machines");
}

#[test]
fn every_other_machine_gets_all_its_problems_in_one_pass() {
    let mut seen = 0;
    insta::glob!("../../fixtures/xstate-wild/refused", "*.json", |path| {
        seen += 1;
        let name = rel(path);
        for lossy in [false, true] {
            let (l, text) = load(path, lossy);
            let items = l.diags.items();
            assert!(
                items.iter().any(|d| d.code == Code::XstateUnsupported),
                "{name}: refused by name:\n{}",
                report(items, &text)
            );
            assert!(
                !items.iter().any(is_v_code),
                "{name}: a V code follows from a refused construct:\n{}",
                report(items, &text)
            );
            assert!(items.iter().all(|d| d.location.pos.is_some()), "{name}");
            let losses = items.iter().filter(|d| d.code == Code::LostField).count();
            if lossy {
                let others = items
                    .iter()
                    .filter(|d| d.code != Code::XstateUnsupported && d.code != Code::LostField);
                assert_eq!(others.count(), 0, "{name}:\n{}", report(items, &text));
            } else {
                assert!(losses <= 1, "{name}: the losses are one error");
                insta::assert_snapshot!("strict", report(items, &text));
            }
        }
    });
    assert!(seen >= 12, "{seen} refused machines");
}

/// What `convert --to xstate --module js` (or `ts`) writes reads back as the loop it came
/// from.
#[test]
fn a_module_reads_back() {
    let input = crate::support::examples().join("agentpm/code-review-sign-off.json");
    let direct = std::fs::read(&input).expect("read");
    let original = loopconv::load("loop.json", &direct, &LoadOptions::default());
    let (spec, info) = original.valid().expect("valid");
    for language in [
        loopconv::back::xstate::ModuleLanguage::Js,
        loopconv::back::xstate::ModuleLanguage::Ts,
    ] {
        let mut d = loopconv::diag::Diagnostics::default();
        let json = loopconv::back::render(
            loopconv::Target::Loop(loopconv::Format::Xstate),
            spec,
            info,
            &loopconv::back::Options::default(),
            &mut d,
        )
        .expect("render");
        let module = loopconv::back::xstate::module(&json, language);
        let back = loopconv::load("machine.js", module.as_bytes(), &LoadOptions::default());
        let (again, _) = back.valid().unwrap_or_else(|| {
            panic!("{:#?}", back.diags.items());
        });
        assert!(loopconv::ir::same_content(spec, again), "{language:?}");
        // A diagnostic points into the module as written.
        let broken = module.replacen("\"initial\": \"gather\"", "\"initial\": \"nowhere\"", 1);
        let l = loopconv::load("machine.js", broken.as_bytes(), &LoadOptions::default());
        let d = &l.diags.items()[0];
        let line = broken
            .lines()
            .position(|l| l.contains("\"initial\""))
            .expect("line");
        assert_eq!(d.location.pos.expect("located").line as usize, line + 1);
    }
}

/// The fixtures are XState: the real `xstate` (`tools/node_modules`) creates each machine
/// and resolves every target of it (the v4 flags and typegen keys are ignored by XState
/// v5).
#[test]
fn every_fixture_is_xstate() {
    let node = std::process::Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    let tools = crate::support::repo().join("tools");
    let xstate = tools.join("node_modules/xstate/package.json").exists();
    if crate::support::skip_without_tool(node && xstate, "node with tools/node_modules/xstate") {
        return;
    }
    // Each state node's transitions, initial state and eventless transitions, resolved:
    // XState throws for a target that names no state.
    const CHECK: &str = r#"
import { createMachine } from "xstate";
import { readFileSync } from "node:fs";
const walk = (node) => {
  void node.transitions;
  void node.initial;
  void node.always;
  for (const child of Object.values(node.states)) walk(child);
};
for (const file of process.argv.slice(1)) {
  try {
    walk(createMachine(JSON.parse(readFileSync(file, "utf8"))).root);
  } catch (e) {
    throw new Error(`${file}: ${e.message}`);
  }
}
"#;
    let root = crate::support::repo().join("tests/fixtures/xstate-wild");
    let mut files: Vec<std::path::PathBuf> = ["flat", "refused"]
        .iter()
        .flat_map(|d| std::fs::read_dir(root.join(d)).expect("fixtures"))
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    assert!(files.len() >= 30, "{} fixtures", files.len());
    let out = std::process::Command::new("node")
        .current_dir(&tools)
        .args(["--input-type=module", "-e", CHECK])
        .args(&files)
        .output()
        .expect("node");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
