//! End-to-end run with a real client: headless Neovim (`editors/nvim/e2e.lua`) opens a
//! broken loop with `loopconv lsp`, receives its diagnostics, jumps to a definition and
//! completes an id; and on a workspace (`e2e-workspace.lua`), follows a loop from a team to
//! its file and renames it in both. Skipped, with a notice, when `nvim` is not installed
//! (`scripts/install-tools.sh` installs it, so `.ci/run` runs it).

use crate::support;

use std::process::Command;

use serde_json::Value;

/// Run headless Neovim on `script`, with the file in the environment variable `var`; what
/// it saw, checked to have attached without errors. `None` (the skip recorded) without
/// `nvim`.
fn run_nvim(script: &str, var: &str, file: &std::path::Path) -> Option<Value> {
    let have_nvim = Command::new("nvim").arg("--version").output().is_ok();
    if crate::support::skip_without_tool(have_nvim, "Neovim (nvim)") {
        return None;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out.json");
    let status = Command::new("nvim")
        .args(["--headless", "--clean", "-c"])
        .arg(format!("luafile {script}"))
        .current_dir(support::ROOT)
        .env("LOOPCONV_BIN", env!("CARGO_BIN_EXE_loopconv"))
        .env(var, file)
        .env("LOOPCONV_OUT", &out)
        .env("XDG_STATE_HOME", dir.path())
        .env("XDG_DATA_HOME", dir.path())
        .status()
        .expect("run nvim");
    assert!(status.success(), "nvim exited with {status}");
    let text = std::fs::read_to_string(&out).expect("nvim wrote its results");
    let got: Value = serde_json::from_str(&text).expect("JSON results");
    assert_eq!(got["errors"], serde_json::json!([]), "{got}");
    assert_eq!(got["attached"], true, "{got}");
    Some(got)
}

#[test]
fn neovim_gets_diagnostics_definition_and_completion() {
    let file = support::examples().join("invalid/V009-unknown-transition-target.json");
    let Some(got) = run_nvim("editors/nvim/e2e.lua", "LOOPCONV_FILE", &file) else {
        return;
    };
    let diags = got["diagnostics"].as_array().expect("diagnostics");
    let v009 = diags
        .iter()
        .find(|d| d["code"] == "V009")
        .unwrap_or_else(|| panic!("no V009 among {diags:?}"));
    let source = support::read(&file);
    let source = String::from_utf8(source).unwrap();
    let human = source
        .lines()
        .position(|l| l.contains("\"$human\""))
        .unwrap();
    assert_eq!(v009["lnum"], human);

    // The first `"to": "<phase>"` is `"to": "review"`: the jump lands on its declaration.
    let def = &got["definition"];
    assert!(
        def["text"].as_str().unwrap().contains("\"id\": \"review\""),
        "{def}"
    );
    assert_ne!(def["line"], got["from_line"]);

    let labels: Vec<&str> = got["completion"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    assert_eq!(
        labels,
        ["gather", "review", "revise", "$end", "$abort", "$handoff"]
    );
}

/// The same client on a workspace: definition from a team step's `loop` into the loop's
/// file, references of the loop's name in both files, a rename applied to both buffers, and
/// the completion of loop names.
#[test]
fn neovim_follows_a_loop_across_the_files_of_a_workspace() {
    let specs = support::examples().join("workspaces/mas-release/specs");
    let team = specs.join("teams/release.json");
    let Some(got) = run_nvim("editors/nvim/e2e-workspace.lua", "LOOPCONV_TEAM", &team) else {
        return;
    };
    let lp = specs.join("loops/docs-fix.yaml");
    let lp = lp.to_str().unwrap();
    assert_eq!(got["definition"]["file"], lp, "{got}");
    assert_eq!(got["definition"]["text"], "name: docs-fix", "{got}");
    let refs: Vec<(&str, u64)> = (got["references"].as_array().unwrap().iter())
        .map(|r| (r["file"].as_str().unwrap(), r["line"].as_u64().unwrap()))
        .collect();
    let step = got["step_line"].as_u64().unwrap();
    assert_eq!(refs, [(lp, 0), (team.to_str().unwrap(), step)], "{got}");
    assert_eq!(got["renamed_loop"], "name: docs-check", "{got}");
    assert!(
        (got["renamed_step"].as_str().unwrap()).contains(r#""loop": "docs-check""#),
        "{got}"
    );
    assert_eq!(
        got["completion"],
        serde_json::json!(["docs-check", "qa-fix"]),
        "{got}"
    );
}
