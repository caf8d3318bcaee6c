//! Loops among their users (formats.md 3): teams, agent specs, Agent manifests and locks
//! checked with the loops they name, across files.

use std::collections::BTreeSet;
use std::path::Path;

use loopconv::diag::Code;

use crate::support::{self, loopconv, stdout_json};

const MAS: &str = "examples/workspaces/mas-release/specs";
const AGENTPM: &str = "examples/workspaces/agentpm-notes";

/// A copy of a workspace to break (a multi-agent-spec one in a folder named `specs`, as
/// its layout wants), and the folder to run in.
struct Copy(#[allow(dead_code)] tempfile::TempDir, std::path::PathBuf);

impl Copy {
    fn path(&self) -> &Path {
        &self.1
    }
}

fn copy(from: &str) -> Copy {
    copy_from(&support::repo().join(from))
}

/// A copy of the workspace at `from` (a folder of the repository or of `../shared`).
fn copy_from(from: &Path) -> Copy {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().join(from.file_name().expect("a name"));
    for f in support::files_under(from) {
        let rel = f.strip_prefix(from).expect("below");
        let to = dir.join(rel);
        std::fs::create_dir_all(to.parent().expect("parent")).expect("mkdir");
        std::fs::copy(&f, &to).expect("copy");
    }
    Copy(tmp, dir)
}

/// `docs . -o OUT` (and `extra`) run in the workspace folder `ws`.
fn docs_into(ws: &Path, out: &Path, extra: &[&str]) -> std::process::Output {
    loopconv()
        .current_dir(ws)
        .args(["docs", ".", "-o"])
        .arg(out)
        .args(extra)
        .output()
        .expect("run")
}

/// Edit a file of a copied workspace.
fn edit(dir: &Path, file: &str, from: &str, to: &str) {
    let p = dir.join(file);
    let text = std::fs::read_to_string(&p).expect("read");
    assert!(text.contains(from), "{file} has no {from:?}");
    std::fs::write(&p, text.replacen(from, to, 1)).expect("write");
}

/// `check --format json` of `paths` in `dir`: the exit code and the diagnostics' codes.
fn codes(dir: &Path, paths: &[&str]) -> (i32, Vec<(String, String)>) {
    let out = loopconv()
        .current_dir(dir)
        .args(["check", "--format", "json"])
        .args(paths)
        .output()
        .expect("run");
    let json = stdout_json(&out);
    let found = (json.as_array().expect("an array").iter())
        .map(|d| {
            (
                d["code"].as_str().expect("code").to_owned(),
                d["location"]["file"].as_str().expect("file").to_owned(),
            )
        })
        .collect();
    (out.status.code().expect("exit code"), found)
}

#[test]
fn the_example_workspaces_check_clean() {
    let (code, found) = codes(&support::repo().join(MAS), &["."]);
    assert_eq!((code, found), (0, vec![]));
    let (code, found) = codes(&support::repo().join(AGENTPM), &["."]);
    assert_eq!(code, 0);
    assert_eq!(found, [("W108".to_owned(), "./agent.json".to_owned())]);
}

/// The seed's team example (a `chain` with loop steps, formats.md 3.1) checks clean beside
/// loops named `qa-fix` and `docs-fix`; renaming one loop gives one error in the team file,
/// with a did-you-mean and a label at the loop's name in the other file.
#[test]
fn a_renamed_loop_is_one_error_in_the_team_file() {
    let ws = copy(MAS);
    edit(
        ws.path(),
        "loops/docs-fix.yaml",
        "name: docs-fix",
        "name: docs-fixes",
    );
    let out = loopconv()
        .current_dir(ws.path())
        .args(["check", "--format", "json", "."])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(1));
    let json = stdout_json(&out);
    let all = json.as_array().expect("array");
    assert_eq!(all.len(), 1, "{json:#}");
    let d = &all[0];
    assert_eq!(d["code"], "W001");
    assert_eq!(d["location"]["file"], "./teams/release.json");
    assert_eq!(d["location"]["pointer"], "/workflow/steps/2/loop");
    assert_eq!(d["help"], "did you mean `docs-fixes`?");
    assert_eq!(d["labels"][0]["location"]["file"], "./loops/docs-fix.yaml");
    assert_eq!(d["labels"][0]["location"]["line"], 1);
    // One file of the workspace finds the rest: the team alone gets the same error.
    let (code, found) = codes(ws.path(), &["teams/release.json"]);
    assert_eq!(code, 1);
    assert_eq!(
        found,
        [("W001".to_owned(), "teams/release.json".to_owned())]
    );
    // Unless it is read alone.
    let out = loopconv()
        .current_dir(ws.path())
        .args(["check", "--no-workspace", "teams/release.json"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
}

#[test]
fn a_step_with_agent_and_loop_is_one_error() {
    let ws = copy(MAS);
    edit(
        ws.path(),
        "teams/release.json",
        r#""name": "validate-scope", "agent": "pm""#,
        r#""name": "validate-scope", "agent": "pm", "loop": "qa-fix""#,
    );
    let (code, found) = codes(ws.path(), &["."]);
    assert_eq!(code, 1);
    assert_eq!(
        found,
        [("W002".to_owned(), "./teams/release.json".to_owned())]
    );
}

/// Each team rule, one diagnostic per cause.
#[test]
fn team_rules() {
    let cases: &[(&str, &str, &str, &str)] = &[
        (
            "teams/release.json",
            r#"{ "name": "tag-release", "agent": "release" }"#,
            r#"{ "name": "tag-release", "agent": "release", "depends_on": ["qa-fixx"] }"#,
            "W003",
        ),
        (
            "teams/release.json",
            r#"{ "name": "validate-scope", "agent": "pm" }"#,
            r#"{ "name": "validate-scope", "agent": "pm", "depends_on": ["tag-release"] }, { "name": "x", "agent": "pm", "depends_on": ["x"] }"#,
            "W004",
        ),
        (
            "teams/release.json",
            r#""agents": ["pm","#,
            r#""agents": ["pmm","#,
            "W005",
        ),
        ("loops/qa-fix.yaml", "actor: fixer", "actor: fixerr", "W006"),
        (
            "loops/docs-fix.yaml",
            "name: docs-fix",
            "name: qa-fix",
            "W007",
        ),
        (
            "teams/release.json",
            r#""type": "chain""#,
            r#""type": "crew""#,
            "W008",
        ),
        (
            "teams/release.json",
            r#"{ "name": "validate-scope", "agent": "pm" }"#,
            r#"{ "name": "validate-scope", "agent": "pm", "outputs": ["scope"] }"#,
            "W009",
        ),
        (
            "teams/release.json",
            r#"{ "name": "tag-release", "agent": "release" }"#,
            r#"{ "name": "qa-fix", "agent": "release" }"#,
            "W010",
        ),
        (
            "agents/pm.md",
            "---\nname: pm\n",
            "---\ntitle: pm\n",
            "W011",
        ),
    ];
    for (file, from, to, want) in cases {
        let ws = copy(MAS);
        edit(ws.path(), file, from, to);
        let (code, found) = codes(ws.path(), &["."]);
        let got: Vec<&str> = found
            .iter()
            .map(|(c, _)| c.as_str())
            .filter(|c| *c != "W005" || *want == "W005")
            .collect();
        assert!(got.contains(want), "{want}: {found:?}");
        let want_code = Code::ALL
            .iter()
            .find(|c| c.as_str() == *want)
            .expect("a code");
        let errors = matches!(want_code.severity(), loopconv::diag::Severity::Error);
        assert_eq!(code, i32::from(errors), "{want}: {found:?}");
        if *want != "W011" {
            assert_eq!(
                got.iter().filter(|c| *c == want).count(),
                1,
                "{want}: {found:?}"
            );
        }
    }
}

/// Each AgentPM rule.
#[test]
fn agent_rules() {
    let cases: &[(&str, &str, &str, &str)] = &[
        (
            "agent.json",
            "@acme/notes-loop@0.2.0",
            "@acme/notes-lop@0.2.0",
            "W101",
        ),
        (
            "agent.json",
            "@acme/notes-loop@0.2.0",
            "@acme/notes-loop@0.3.0",
            "W103",
        ),
        (
            "agent.json",
            r#""loop": "@acme/notes-loop@0.2.0","#,
            "",
            "W104",
        ),
        (
            "agent.json",
            r#""summarize": {"#,
            r#""summarise": {"#,
            "W105",
        ),
        (
            "agent.json",
            "@acme/notes-loop@0.2.0",
            "@acme/notes-loop@^0.2",
            "W106",
        ),
        (
            "agent.lock",
            r#""lockfile_version": 3"#,
            r#""lockfile_version": 2"#,
            "W107",
        ),
    ];
    for (file, from, to, want) in cases {
        let ws = copy(AGENTPM);
        edit(ws.path(), file, from, to);
        let (_, found) = codes(ws.path(), &["."]);
        let got: BTreeSet<&str> = found.iter().map(|(c, _)| c.as_str()).collect();
        assert!(got.contains(want), "{want}: {found:?}");
    }
    // W102: the local source is an Agent, not a loop.
    let ws = copy(AGENTPM);
    edit(
        ws.path(),
        "loops/notes-loop/agent.json",
        r#""kind": "loop""#,
        r#""kind": "agent""#,
    );
    let (code, found) = codes(ws.path(), &["agent.json"]);
    assert_eq!(code, 1);
    assert!(found.iter().any(|(c, _)| c == "W102"), "{found:?}");
}

/// The corpus's workspaces (formats.md 3): the multi-agent-spec team checks clean with the
/// one warning its README lists, and the AgentPM Agent resolves its loop from the local
/// source, which `check` says.
#[test]
fn corpus_workspaces() {
    let Some(corpus) = support::corpus() else {
        return;
    };
    let specs = corpus.join("workspaces/mas-agent-team-release/specs");
    let (code, found) = codes(&specs, &["."]);
    assert_eq!(code, 0);
    assert_eq!(
        found,
        [("W006".to_owned(), "./loops/qa-fix.yaml".to_owned())]
    );
    let m16 = corpus.join("workspaces/agentpm-m16-harness-workspace");
    let out = loopconv()
        .current_dir(&m16)
        .args(["check", "agent.json"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let said = support::stderr(&out);
    assert!(
        said.contains("W108") && said.contains("local source loops/m16-reference-loop/agent.json"),
        "{said}"
    );
}

/// A command that needs a loop, given a team, says what the file is (`P015`), once.
#[test]
fn a_team_is_no_loop_to_convert() {
    let out = loopconv()
        .args([
            "convert",
            "--to",
            "agentpm",
            &format!("{MAS}/teams/release.json"),
        ])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(1));
    let said = support::stderr(&out);
    assert!(
        said.contains("P015") && said.contains("multi-agent-spec team"),
        "{said}"
    );
    assert_eq!(said.matches("error[").count(), 1, "{said}");
}

/// Every `W` code is produced by one of the workspaces above (the codes' registry lists no
/// single-file example for them).
#[test]
fn every_workspace_code_is_tested() {
    let text = include_str!("workspaces.rs");
    for code in Code::ALL.iter().filter(|c| c.as_str().starts_with('W')) {
        let quoted = format!("\"{}\"", code.as_str());
        assert!(text.contains(&quoted), "no workspace test produces {code}");
    }
}

/// `graph` of a team draws its workflow with each loop step's phases inside, in every
/// diagram language, and Graphviz and PlantUML accept it; `--collapse-loops` draws one box
/// per loop.
#[test]
fn a_team_is_drawn_with_its_loops_inside() {
    let team = format!("{MAS}/teams/release.json");
    for (flag, group) in [
        ("--mermaid", "subgraph s1["),
        ("--dot", "subgraph cluster_s1"),
        ("--plantuml", "as s1 {"),
    ] {
        let out = loopconv()
            .args(["graph", flag, &team])
            .output()
            .expect("run");
        assert!(out.status.success(), "{flag}: {out:?}");
        let text = String::from_utf8(out.stdout).expect("utf-8");
        assert!(text.contains(group), "{flag}: {text}");
        for phase in ["validate", "eval", "act", "release"] {
            assert!(text.contains(phase), "{flag}: no {phase} in {text}");
        }
        let collapsed = loopconv()
            .args(["graph", flag, "--collapse-loops", &team])
            .output()
            .expect("run");
        let collapsed = String::from_utf8(collapsed.stdout).expect("utf-8");
        assert!(
            !collapsed.contains(group) && !collapsed.contains("eval"),
            "{flag}: {collapsed}"
        );
    }
    let dot = loopconv()
        .args(["graph", "--dot", &team])
        .output()
        .expect("run")
        .stdout;
    if !support::skip_without_tool(which("dot"), "dot (Graphviz)") {
        let mut child = std::process::Command::new("dot")
            .arg("-Tsvg")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("dot");
        std::io::Write::write_all(&mut child.stdin.take().expect("stdin"), &dot).expect("write");
        let out = child.wait_with_output().expect("dot");
        assert!(out.status.success() && out.stderr.is_empty(), "{out:?}");
        let svg = String::from_utf8_lossy(&out.stdout);
        assert!(
            svg.contains("<svg") && svg.contains(">eval<") && svg.contains("$end"),
            "{svg}"
        );
    }
}

/// Whether a command is on the PATH.
fn which(tool: &str) -> bool {
    std::process::Command::new(tool).arg("-V").output().is_ok()
}

/// `docs` of a workspace writes a page per team (its workflow, its steps linked to their
/// loops' pages), a "Used by" section on each loop's page, and the teams in the index;
/// `docs --check` passes, and fails once a loop is renamed.
#[test]
fn docs_of_a_workspace_links_teams_and_loops() {
    let ws = copy(MAS);
    let out_dir = tempfile::tempdir().expect("tempdir");
    let docs = |extra: &[&str]| docs_into(ws.path(), out_dir.path(), extra);
    let out = docs(&[]);
    assert!(out.status.success(), "{out:?}");
    let read = |p: &str| std::fs::read_to_string(out_dir.path().join(p)).expect(p);
    let team = read("team-release.md");
    assert!(
        team.contains("| `qa-fix` | loop [qa-fix](qa-fix.md) | `validate-scope` |"),
        "{team}"
    );
    assert!(team.contains("```mermaid\nflowchart TD"), "{team}");
    let qa = read("qa-fix.md");
    assert!(
        qa.contains("## Used by\n\n- team [release](team-release.md), step `qa-fix`\n\n---"),
        "{qa}"
    );
    assert!(read("index.md").contains("- [release](team-release.md)"));
    assert!(docs(&["--check"]).status.success());
    edit(
        ws.path(),
        "loops/docs-fix.yaml",
        "name: docs-fix",
        "name: docs-fixes",
    );
    assert_eq!(docs(&["--check"]).status.code(), Some(1));
}

/// `graph LANGUAGE FILE` run in `dir`: the exit code, standard output and standard error.
fn graph(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = loopconv()
        .current_dir(dir)
        .arg("graph")
        .args(args)
        .output()
        .expect("run");
    let said = support::stderr(&out);
    (
        out.status.code().expect("exit code"),
        String::from_utf8(out.stdout).expect("utf-8"),
        said,
    )
}

/// Render `source` with a real renderer (`dot -Tsvg`, `plantuml -pipe -tsvg`), unless it
/// is not installed (the skip is named): it must draw it without an error and show
/// `shown` as text.
fn renders(tool: &str, source: &str, shown: &[&str]) {
    let (bin, args, name): (&str, &[&str], &str) = match tool {
        "dot" => ("dot", &["-Tsvg"], "dot (Graphviz)"),
        _ => (
            "plantuml",
            &["-pipe", "-tsvg", "-charset", "UTF-8", "-nometadata"],
            "PlantUML (plantuml)",
        ),
    };
    if support::skip_without_tool(which(bin), name) {
        return;
    }
    let mut child = std::process::Command::new(bin)
        .args(args)
        .env("JAVA_TOOL_OPTIONS", "-Djava.awt.headless=true")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect(bin);
    std::io::Write::write_all(&mut child.stdin.take().expect("stdin"), source.as_bytes())
        .expect("write");
    let out = child.wait_with_output().expect(bin);
    // Graphviz writes `-` as `&#45;`.
    let svg = String::from_utf8_lossy(&out.stdout).replace("&#45;", "-");
    assert!(
        out.status.success() && svg.contains("<svg"),
        "{tool}: {out:?}"
    );
    assert!(
        !svg.contains("Syntax Error") && !svg.contains("An error has occured"),
        "{tool}: {svg}"
    );
    for s in shown {
        assert!(svg.contains(s), "{tool}: no {s:?} in {svg}");
    }
}

/// `graph` of an Agent manifest draws its loop, resolved as `check` resolves it, titled
/// with the Agent's name, each bound phase marked (a class or colour) and labelled with
/// what is bound to it, in every diagram language; Graphviz and PlantUML draw it.
#[test]
fn an_agent_is_drawn_with_its_bound_phases_marked() {
    let dir = support::repo().join(AGENTPM);
    for (flags, marked) in [
        (&["--mermaid"][..], "class p1 bound"),
        (&["--mermaid", "--style", "state"][..], "class p1 bound"),
        (&["--dot"][..], "fillcolor=\"#ccfbf1\""),
        (&["--plantuml"][..], "as p1 #ccfbf1"),
    ] {
        let mut args = flags.to_vec();
        args.push("agent.json");
        let (code, text, said) = graph(&dir, &args);
        assert_eq!(code, 0, "{flags:?}: {said}");
        assert!(text.contains(marked), "{flags:?}: {text}");
        let bound = match flags[0] {
            "--mermaid" => "bound#58; memory @acme/notes-memory",
            "--dot" => "bound: memory @acme/notes-memory",
            _ => "bound<U+003A> memory <U+0040>acme<U+002F>notes<U+002D>memory",
        };
        assert_eq!(text.matches(bound).count(), 1, "{flags:?}: {text}");
        let title = match flags[0] {
            "--plantuml" => "title <b>notes<U+002D>agent</b>",
            "--dot" => "label=<<B>notes-agent</B>",
            _ => "accTitle: notes-agent · loop @acme/notes-loop@0.2.0",
        };
        assert!(text.contains(title), "{flags:?}: {text}");
        // Where the loop came from, as `check` says it.
        assert!(
            said.contains("note[W108]") && !said.contains("error"),
            "{said}"
        );
        if flags.len() == 1 {
            insta::assert_snapshot!(format!("agent_notes{}", flags[0].replace("--", "_")), text);
        }
    }
    let (_, dot, _) = graph(&dir, &["--dot", "agent.json"]);
    renders(
        "dot",
        &dot,
        &[">notes-agent<", "bound: memory @acme/notes-memory"],
    );
    let (_, puml, _) = graph(&dir, &["--plantuml", "agent.json"]);
    renders(
        "plantuml",
        &puml,
        &["notes-agent", "bound: memory @acme/notes-memory"],
    );
}

/// The corpus's AgentPM workspace (a copy made here): its Agent's loop, read from the
/// local source, drawn with `remember` bound to the memory package; Graphviz and PlantUML
/// draw it.
#[test]
fn the_corpus_agent_is_drawn() {
    let Some(corpus) = support::corpus() else {
        return;
    };
    let ws = copy_from(&corpus.join("workspaces/agentpm-m16-harness-workspace"));
    let (code, dot, said) = graph(ws.path(), &["--dot", "agent.json"]);
    assert_eq!(code, 0, "{said}");
    assert!(
        said.contains("local source loops/m16-reference-loop/agent.json"),
        "{said}"
    );
    assert!(
        dot.contains("label=<<B>m16-reference-harness-agent</B>")
            && dot.contains("bound: memory @zack/m16-reference-memory"),
        "{dot}"
    );
    renders("dot", &dot, &["bound: memory @zack/m16-reference-memory"]);
    let (code, puml, _) = graph(ws.path(), &["--plantuml", "agent.json"]);
    assert_eq!(code, 0);
    renders("plantuml", &puml, &["m16-reference-harness-agent"]);
    let (code, mermaid, _) = graph(ws.path(), &["agent.json"]);
    assert_eq!(code, 0);
    assert!(mermaid.contains("class p0 bound"), "{mermaid}");
}

/// An Agent whose loop does not resolve gets `check`'s diagnostic (one, located), not a
/// drawing; one without a `loop`, one diagnostic that says so; one whose loop has errors,
/// the loop's errors; a bound phase the loop lacks is a warning, and the rest is drawn.
#[test]
fn an_agent_that_cannot_be_drawn_says_why() {
    let ws = copy(AGENTPM);
    edit(
        ws.path(),
        "agent.json",
        "notes-loop@0.2.0",
        "notes-lop@0.2.0",
    );
    let (code, text, said) = graph(ws.path(), &["agent.json"]);
    assert_eq!((code, text.as_str()), (1, ""), "{said}");
    let checked = loopconv()
        .current_dir(ws.path())
        .args(["check", "agent.json"])
        .output()
        .expect("run");
    let first = |s: &str| s.split("\n\n").next().unwrap_or_default().to_owned();
    assert_eq!(first(&said), first(&support::stderr(&checked)));
    assert_eq!(said.matches("error[").count(), 1, "{said}");
    assert!(
        said.contains("error[W101]") && said.contains("agent.json:7:11"),
        "{said}"
    );

    let ws = copy(AGENTPM);
    edit(
        ws.path(),
        "agent.json",
        r#""loop": "@acme/notes-loop@0.2.0","#,
        "",
    );
    edit(ws.path(), "agent.json", r#""summarize": {"#, r#""x": {"#);
    let (code, _, said) = graph(ws.path(), &["agent.json"]);
    // Bindings without a loop: the reader's one error.
    assert_eq!(code, 1);
    assert_eq!(said.matches("error[").count(), 1, "{said}");
    assert!(said.contains("error[W104]"), "{said}");
    edit(ws.path(), "agent.json", r#""bindings""#, r#""other""#);
    let (code, _, said) = graph(ws.path(), &["agent.json"]);
    assert_eq!(code, 1);
    assert_eq!(said.matches("error[").count(), 1, "{said}");
    assert!(
        said.contains("error[P015]: this AgentPM Agent manifest names no `loop`")
            && said.contains("agent.json:1:1"),
        "{said}"
    );

    let ws = copy(AGENTPM);
    edit(
        ws.path(),
        "loops/notes-loop/agent.json",
        r#""to": "$end""#,
        r#""to": "$ennd""#,
    );
    let (code, text, said) = graph(ws.path(), &["agent.json"]);
    assert_eq!((code, text.as_str()), (1, ""), "{said}");
    assert!(
        said.contains("error[V009]") && said.contains("nothing drawn: the Agent's loop"),
        "{said}"
    );

    let ws = copy(AGENTPM);
    edit(
        ws.path(),
        "agent.json",
        r#""summarize": {"#,
        r#""summarise": {"#,
    );
    let (code, text, said) = graph(ws.path(), &["--dot", "agent.json"]);
    assert_eq!(code, 0, "{said}");
    assert!(said.contains("warning[W105]"), "{said}");
    assert!(
        !text.contains("bound:") && text.contains("summarize"),
        "{text}"
    );
}

/// An Agent's name and bindings are user text: escaped in every language like a loop's.
#[test]
fn an_agents_text_stays_text() {
    let ws = copy(AGENTPM);
    let hostile = r#"<img src=x onerror=alert(1)> \"q\" %% --> @enduml ../../x"#;
    edit(
        ws.path(),
        "agent.json",
        r#""name": "notes-agent""#,
        &format!(r#""name": "{hostile}""#),
    );
    edit(
        ws.path(),
        "agent.json",
        r#""package": "@acme/notes-memory""#,
        r#""package": "<script>alert(1)</script> ]]} end""#,
    );
    for flag in ["--mermaid", "--dot", "--plantuml"] {
        let (code, text, said) = graph(ws.path(), &[flag, "agent.json"]);
        assert_eq!(code, 0, "{flag}: {said}");
        for bad in ["<img", "<script", "-->"] {
            assert!(!text.contains(bad), "{flag}: {bad} in {text}");
        }
        if flag == "--dot" {
            renders("dot", &text, &["&lt;script&gt;"]);
        }
        if flag == "--plantuml" {
            assert_eq!(text.matches("@enduml").count(), 1, "{text}");
            renders("plantuml", &text, &[]);
        }
    }
    // The Agent's page: its name makes no path (`/` and `..`), and stays text.
    let out_dir = tempfile::tempdir().expect("tempdir");
    let out = docs_into(ws.path(), out_dir.path(), &[]);
    assert!(out.status.success(), "{out:?}");
    let pages: Vec<_> = support::files_under(out_dir.path());
    assert_eq!(pages.len(), 3, "{pages:?}");
    let page = pages
        .iter()
        .find(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("agent-"))
        })
        .expect("the Agent's page");
    let text = std::fs::read_to_string(page).expect("read");
    for bad in ["<img", "<script"] {
        assert!(!text.contains(bad), "{bad} in {text}");
    }
}

/// A team's name makes no path either: `/` and `..` in it become `-` in its page's
/// name.
#[test]
fn a_team_name_makes_no_path() {
    let ws = copy(MAS);
    edit(
        ws.path(),
        "teams/release.json",
        r#""name": "release""#,
        r#""name": "x/../../../evil""#,
    );
    let out_dir = tempfile::tempdir().expect("tempdir");
    let out = docs_into(ws.path(), out_dir.path(), &[]);
    assert!(out.status.success(), "{out:?}");
    assert!(out_dir.path().join("team-x-..-..-..-evil.md").is_file());
    let outside = out_dir.path().parent().expect("parent");
    assert!(!outside.join("evil.md").exists() && !outside.join("team-evil.md").exists());
}

/// `docs` of an AgentPM workspace: a page per Agent with a loop (its name, description,
/// loop linked to its page, bindings, the loop drawn with the bound phases marked), the
/// Agent in its loop's "Used by" and in the index; `docs --check` passes, and fails once a
/// binding changes; a bound phase the loop lacks is flagged on the page.
#[test]
fn docs_of_a_workspace_writes_agent_pages() {
    let ws = copy(AGENTPM);
    let out_dir = tempfile::tempdir().expect("tempdir");
    let docs = |extra: &[&str]| docs_into(ws.path(), out_dir.path(), extra);
    let out = docs(&[]);
    assert!(out.status.success(), "{out:?}");
    let read = |p: &str| std::fs::read_to_string(out_dir.path().join(p)).expect(p);
    let agent = read("agent-notes-agent.md");
    for want in [
        "# Agent notes-agent\n\nKeeps a running summary of notes with the notes loop.\n",
        "Runs the loop [notes-loop](notes-loop.md) (`@acme/notes-loop@0.2.0`, from `loops/notes-loop/agent.json`).",
        "```mermaid\n---\ntitle: \"notes-agent · loop @acme/notes-loop@0.2.0",
        "class p1 bound",
        "| phase | bound |\n|---|---|\n| `summarize` | memory @acme/notes-memory |\n",
    ] {
        assert!(agent.contains(want), "no {want:?} in {agent}");
    }
    insta::assert_snapshot!("agent_notes_page", agent);
    let notes = read("notes-loop.md");
    assert!(
        notes.contains("## Used by\n\n- Agent [notes-agent](agent-notes-agent.md)\n\n---"),
        "{notes}"
    );
    assert!(read("index.md").contains("## Agents\n\n- [notes-agent](agent-notes-agent.md)\n"));
    assert!(docs(&["--check"]).status.success());
    edit(
        ws.path(),
        "agent.json",
        r#""summarize": {"#,
        r#""summarise": {"#,
    );
    assert_eq!(docs(&["--check"]).status.code(), Some(1));
    assert!(docs(&[]).status.success());
    assert!(
        read("agent-notes-agent.md")
            .contains("| `summarise` | memory @acme/notes-memory **(no phase of the loop"),
    );
    // An Agent whose loop does not resolve: `check`'s error, and no page.
    edit(
        ws.path(),
        "agent.json",
        "notes-loop@0.2.0",
        "notes-lop@0.2.0",
    );
    let out = docs(&["--check"]);
    assert_eq!(out.status.code(), Some(1));
    let said = support::stderr(&out);
    assert!(said.contains("error[W101]"), "{said}");
}

/// `docs` of (a copy of) the corpus's AgentPM workspace: the Agent's page links the loop
/// read from the local source, with `remember` bound; `--check` passes.
#[test]
fn docs_of_the_corpus_agent() {
    let Some(corpus) = support::corpus() else {
        return;
    };
    let ws = copy_from(&corpus.join("workspaces/agentpm-m16-harness-workspace"));
    let out_dir = tempfile::tempdir().expect("tempdir");
    let docs = |extra: &[&str]| docs_into(ws.path(), out_dir.path(), extra);
    let out = docs(&[]);
    assert!(out.status.success(), "{out:?}");
    let page = std::fs::read_to_string(out_dir.path().join("agent-m16-reference-harness-agent.md"))
        .expect("the Agent's page");
    assert!(
        page.contains("Runs the loop [m16-reference-loop](m16-reference-loop.md)")
            && page.contains("| `remember` | memory @zack/m16-reference-memory |")
            && page.contains("class p0 bound"),
        "{page}"
    );
    assert!(docs(&["--check"]).status.success());
}
