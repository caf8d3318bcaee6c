//! The language server on a workspace (formats.md 3): the rules across files run on every
//! edit and reach the file they point into; definition, references, rename and completion
//! follow a loop's name and an Agent's bound phases from file to file. The edits are
//! buffers only: the example workspaces on disk are never written.

use std::path::PathBuf;

use serde_json::{Value, json};

use super::protocol::{Client, apply, at, labels, pos};
use crate::support;

fn mas() -> PathBuf {
    support::examples().join("workspaces/mas-release/specs")
}

fn agentpm() -> PathBuf {
    support::examples().join("workspaces/agentpm-notes")
}

fn uri(p: &std::path::Path) -> String {
    format!("file://{}", p.display())
}

fn read(p: &std::path::Path) -> String {
    String::from_utf8(support::read(p)).expect("UTF-8")
}

/// The 0-based line of the first line of `text` holding `needle`.
fn line_of(text: &str, needle: &str) -> usize {
    (text.lines().position(|l| l.contains(needle))).unwrap_or_else(|| panic!("no {needle:?}"))
}

fn codes(ds: &[Value]) -> Vec<&str> {
    ds.iter().filter_map(|d| d["code"].as_str()).collect()
}

/// Renaming a loop in its buffer gives the team that runs it `W001`, published for the
/// team (open or not), with a label in the loop's file; naming it back clears it.
#[test]
fn a_loop_renamed_in_its_buffer_gives_the_team_w001_and_back() {
    let (team, lp) = (
        mas().join("teams/release.json"),
        mas().join("loops/docs-fix.yaml"),
    );
    let (team_uri, loop_uri) = (uri(&team), uri(&lp));
    let loop_text = read(&lp);
    let mut c = Client::start();
    c.open(&team_uri, &read(&team));
    assert_eq!(codes(&c.diagnostics(&team_uri, 1)), Vec::<&str>::new());
    c.open(&loop_uri, &loop_text);
    c.diagnostics(&loop_uri, 1);

    let mark = c.seen_count();
    c.change(
        &loop_uri,
        2,
        &loop_text.replacen("name: docs-fix", "name: docs-fixes", 1),
    );
    let ds = c.diagnostics_where(&team_uri, mark, |ds| !ds.is_empty());
    assert_eq!(codes(&ds), ["W001"], "{ds:?}");
    let w001 = &ds[0];
    assert!(
        w001["message"].as_str().unwrap().contains("docs-fix"),
        "{w001}"
    );
    let related = &w001["relatedInformation"][0];
    assert_eq!(related["location"]["uri"], loop_uri.as_str(), "{w001}");
    assert_eq!(
        related["location"]["range"]["start"],
        json!({"line": 0, "character": 6})
    );

    let mark = c.seen_count();
    c.change(&loop_uri, 3, &loop_text);
    let ds = c.diagnostics_where(&team_uri, mark, |_| true);
    assert_eq!(codes(&ds), Vec::<&str>::new(), "{ds:?}");
    c.shutdown();
}

/// A team that is not open gets its cross-file diagnostics too (without a version), and
/// they are cleared when the loop's buffer closes and the file on disk counts again.
#[test]
fn a_closed_team_gets_its_diagnostics_and_loses_them_when_the_loop_closes() {
    let (team, lp) = (
        mas().join("teams/release.json"),
        mas().join("loops/qa-fix.yaml"),
    );
    let (team_uri, loop_uri) = (uri(&team), uri(&lp));
    let mut c = Client::start();
    c.open(
        &loop_uri,
        &read(&lp).replacen("name: qa-fix", "name: qa-fox", 1),
    );
    let ds = c.diagnostics_where(&team_uri, 0, |ds| !ds.is_empty());
    assert_eq!(codes(&ds), ["W001"], "{ds:?}");
    let mark = c.seen_count();
    c.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": loop_uri}}),
    );
    let ds = c.diagnostics_where(&team_uri, mark, |_| true);
    assert_eq!(codes(&ds), Vec::<&str>::new(), "{ds:?}");
    c.shutdown();
}

/// References of a loop name, from the loop and from a step; rename from a step edits
/// the loop's name and the step; a rename to a taken or invalid name is refused.
#[test]
fn references_and_rename_of_a_loop_across_files() {
    let (team, lp) = (
        mas().join("teams/release.json"),
        mas().join("loops/docs-fix.yaml"),
    );
    let (team_uri, loop_uri) = (uri(&team), uri(&lp));
    let (team_text, loop_text) = (read(&team), read(&lp));
    let mut c = Client::start();
    c.open(&team_uri, &team_text);
    c.diagnostics(&team_uri, 1);
    c.open(&loop_uri, &loop_text);
    c.diagnostics(&loop_uri, 1);

    let refs = c.request(
        "textDocument/references",
        json!({"textDocument": {"uri": loop_uri}, "position": pos(&loop_text, "docs-fix", 0, 1),
               "context": {"includeDeclaration": true}}),
    );
    let uris: Vec<&str> = refs
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["uri"].as_str().unwrap())
        .collect();
    assert_eq!(uris, [loop_uri.as_str(), team_uri.as_str()], "{refs}");
    assert_eq!(refs[1]["range"]["start"]["line"], 11, "{refs}");

    let step = pos(&team_text, "\"docs-fix\" }", 0, 2);
    let mut params = at(&team_uri, step.clone());
    params["newName"] = json!("docs-check");
    let edit = c.request("textDocument/rename", params);
    let team_after = apply(&team_text, &edit["changes"][&team_uri][0]);
    assert!(
        team_after.contains(r#"{ "name": "docs-fix", "loop": "docs-check" }"#),
        "{team_after}"
    );
    let loop_after = apply(&loop_text, &edit["changes"][&loop_uri][0]);
    assert!(loop_after.starts_with("name: docs-check\n"), "{loop_after}");

    for (new, why) in [("qa-fix", "exists already"), ("Docs Fix", "no loop name")] {
        let mut params = at(&team_uri, step.clone());
        params["newName"] = json!(new);
        let err = c.try_request_err("textDocument/rename", params);
        assert!(err.contains(why), "{new}: {err}");
    }
    c.shutdown();
}

/// Completion of the workspace's loop names after a step's `"loop": "`.
#[test]
fn completion_of_loop_names_in_a_team() {
    let team = mas().join("teams/release.json");
    let team_uri = uri(&team);
    let text = read(&team).replacen(r#""loop": "qa-fix""#, r#""loop": "q"#, 1);
    let mut c = Client::start();
    c.open(&team_uri, &read(&team));
    c.diagnostics(&team_uri, 1);
    c.change(&team_uri, 2, &text);
    let list = c.request(
        "textDocument/completion",
        at(&team_uri, pos(&text, r#""loop": "q"#, 0, 10)),
    );
    assert_eq!(labels(&list), ["docs-fix", "qa-fix"], "{list}");
    assert_eq!(list["items"][1]["textEdit"]["newText"], "qa-fix", "{list}");
    c.shutdown();
}

/// An Agent manifest: definition from its `loop` to the loop the lock pins, from a bound
/// phase to the phase; completion of the loop's phase ids among `bindings.phases` keys.
#[test]
fn an_agents_loop_and_bound_phases_lead_to_the_loop() {
    let agent = agentpm().join("agent.json");
    let lp = agentpm().join("loops/notes-loop/agent.json");
    let (agent_uri, loop_uri) = (uri(&agent), uri(&lp));
    let text = read(&agent);
    let loop_text = read(&lp);
    let mut c = Client::start();
    c.open(&agent_uri, &text);
    c.diagnostics(&agent_uri, 1);

    let def = c.request(
        "textDocument/definition",
        at(&agent_uri, pos(&text, "@acme/notes-loop", 0, 3)),
    );
    assert_eq!(def["uri"], loop_uri.as_str(), "{def}");
    assert_eq!(
        def["range"]["start"]["line"],
        line_of(&loop_text, r#""name": "notes-loop""#),
        "{def}"
    );

    let def = c.request(
        "textDocument/definition",
        at(&agent_uri, pos(&text, "\"summarize\"", 0, 2)),
    );
    assert_eq!(def["uri"], loop_uri.as_str(), "{def}");
    assert_eq!(
        def["range"]["start"]["line"],
        line_of(&loop_text, r#""id": "summarize""#),
        "{def}"
    );

    let typed = text.replacen(r#""phases": {"#, r#""phases": { "re"#, 1);
    c.change(&agent_uri, 2, &typed);
    let list = c.request(
        "textDocument/completion",
        at(&agent_uri, pos(&typed, r#"{ "re"#, 0, 5)),
    );
    assert_eq!(labels(&list), ["read", "summarize"], "{list}");
    assert_eq!(list["items"][0]["textEdit"]["newText"], "read", "{list}");
    c.shutdown();
}

/// A loop outside any workspace is analysed alone, as before: no diagnostics for other
/// files.
#[test]
fn a_loop_outside_a_workspace_publishes_for_itself_only() {
    let lp = support::examples().join("invalid/V009-unknown-transition-target.json");
    let u = uri(&lp);
    let mut c = Client::start();
    c.open(&u, &read(&lp));
    assert!(codes(&c.diagnostics(&u, 1)).contains(&"V009"));
    let _ = c.request(
        "textDocument/hover",
        at(&u, json!({"line": 0, "character": 0})),
    );
    assert_eq!(c.published_uris(), [u.as_str()]);
    c.shutdown();
}
