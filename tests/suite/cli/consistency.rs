//! Issue 8, "a newcomer's first hour": consistent commands and clean output streams. One
//! test (or a few) per numbered item of the issue; each failed before its fix.

use crate::support::{self, loopconv, repo, stderr};
use assert_cmd::Command;
use predicates::prelude::{PredicateBooleanExt, predicate};
use std::path::{Path, PathBuf};

const REACT: &str = "examples/agentpm/react-loop.json";

const REAL: &str = "examples/mas/real-dependency-bump.yaml";

fn stderr_of(cmd: &mut Command) -> String {
    String::from_utf8_lossy(&cmd.output().expect("run").stderr).into_owned()
}

// 1. Streams: results on stdout, diagnostics on stderr (except `check --format json`).

#[test]
fn convert_json_diagnostics_do_not_pollute_the_output() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = loopconv()
        .args([
            "convert",
            "--format",
            "json",
            REAL,
            "--to",
            "agentpm",
            "--allow-lossy",
        ])
        .output()
        .expect("run");
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("\"B001\""),
        "warnings as JSON on stderr: {stderr}"
    );
    let file = dir.path().join("out.json");
    std::fs::write(&file, &out.stdout).expect("write");
    loopconv().arg("check").arg(&file).assert().success();
}

#[test]
fn graph_and_docs_json_diagnostics_go_to_stderr() {
    let out = loopconv()
        .args([
            "graph",
            "--format",
            "json",
            "examples/invalid/F010-missing-kind.json",
        ])
        .output()
        .expect("run");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.starts_with("---\n"),
        "stdout is the diagram only: {stdout}"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("\"F010\""));
}

#[test]
fn check_json_report_is_on_stdout_even_when_clean() {
    loopconv()
        .args(["check", "--format", "json", REACT])
        .assert()
        .success()
        .stdout("[]\n")
        .stderr("");
}

#[test]
fn every_command_keeps_diagnostics_off_stdout() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let cases: Vec<Vec<String>> = vec![
        vec!["check".into(), REACT.into()],
        vec!["graph".into(), REACT.into()],
        vec![
            "convert".into(),
            REAL.into(),
            "--to".into(),
            "agentpm".into(),
            "--allow-lossy".into(),
        ],
        vec![
            "docs".into(),
            "examples/agentpm".into(),
            "-o".into(),
            d.join("docs").display().to_string(),
        ],
        vec!["schema".into(), "mas".into()],
    ];
    for args in cases {
        let out = loopconv().args(&args).output().expect("run");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            !stdout.contains("warning[B")
                && !stdout.contains("\u{250c}\u{2500}")
                && !stdout.contains("checked 1 file")
                && !stdout.contains(" pages to "),
            "{args:?} printed diagnostics on stdout: {stdout}"
        );
    }
}

// 3. `$schema` is not loss; a refused conversion says nothing was written.

#[test]
fn schema_uri_is_not_reported_as_loss() {
    let err = stderr_of(loopconv().args([
        "convert",
        REACT,
        "--to",
        "mas",
        "--actor",
        "dev",
        "--allow-lossy",
    ]));
    assert!(!err.contains("$schema"), "{err}");
}

#[test]
fn refused_conversion_says_nothing_was_written() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("dev-loop.yaml");
    loopconv()
        .args(["convert", REACT, "--to", "mas", "--actor", "dev", "-o"])
        .arg(&out)
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "converted nothing: nothing was written",
        ))
        .stderr(predicate::str::contains("--allow-lossy"));
    assert!(!out.exists());
}

// 5. A YAML syntax error's snippet points where the message says.

#[test]
fn yaml_syntax_error_snippet_points_at_the_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    let f = dir.path().join("bad.yaml");
    std::fs::write(
        &f,
        "name: x\ntype: REAL\nmission: m\nactor: a\nbroken: [unclosed, list\nnext: 1\n",
    )
    .expect("write");
    let json = loopconv()
        .args(["check", "--format", "json"])
        .arg(&f)
        .output()
        .expect("run");
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).expect("json");
    let line = v[0]["location"]["line"].as_u64().expect("line");
    assert!(line > 1, "{v}");
    let human = stderr_of(loopconv().args(["check", "--color", "never"]).arg(&f));
    assert!(human.contains(&format!("bad.yaml:{line}:")), "{human}");
    assert!(!human.contains("bad.yaml:1:1"), "{human}");
}

// 6. Folder walking: ignore rules, --exclude, named hidden paths, no files is an error.

#[test]
fn check_examples_skips_the_invalid_folder() {
    loopconv().args(["check", "examples"]).assert().success();
    loopconv()
        .args(["check", "examples/invalid"])
        .assert()
        .code(1);
}

#[test]
fn check_skips_ignored_folders_like_target_and_node_modules() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    std::fs::write(d.join(".gitignore"), "/target\nnode_modules\n").expect("write");
    for sub in ["target/debug", "tools/node_modules/x"] {
        std::fs::create_dir_all(d.join(sub)).expect("mkdir");
        std::fs::write(d.join(sub).join("bad.json"), "{").expect("write");
    }
    std::fs::copy(repo().join(REACT), d.join("loop.json")).expect("copy");
    loopconv()
        .current_dir(d)
        .args(["check", "."])
        .assert()
        .success()
        .stderr(predicate::str::contains("checked 1 file"));
}

#[test]
fn repository_gitignore_lists_target_and_node_modules() {
    let gi = std::fs::read_to_string(repo().join(".gitignore")).expect(".gitignore");
    assert!(gi.lines().any(|l| l == "/target"));
    assert!(gi.contains("node_modules"));
}

#[test]
fn exclude_skips_and_named_hidden_paths_are_read() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let loops = d.join(".agentpm/loops/react");
    std::fs::create_dir_all(&loops).expect("mkdir");
    std::fs::copy(repo().join(REACT), loops.join("agent.json")).expect("copy");
    std::fs::write(d.join(".agentpm/loops/broken.json"), "{").expect("write");
    loopconv()
        .current_dir(d)
        .args(["check", ".agentpm/loops"])
        .assert()
        .code(1);
    loopconv()
        .current_dir(d)
        .args(["check", ".agentpm/loops", "--exclude", "broken.json"])
        .assert()
        .success()
        .stderr(predicate::str::contains("checked 1 file"));
    // Walking the parent skips the hidden folder: no loop files there.
    loopconv()
        .current_dir(d)
        .args(["check", "."])
        .assert()
        .code(2);
}

#[test]
fn a_folder_without_loop_files_is_an_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    loopconv()
        .arg("check")
        .arg(dir.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no loop files found"));
}

// 7. A name collision is printed first and names both files: `B006` on the later file's
// `name`, in the form `--format` asks for.

#[test]
fn name_collision_comes_first_and_names_both_files() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    std::fs::create_dir_all(d.join("in")).expect("mkdir");
    std::fs::copy(repo().join(REAL), d.join("in/one.yaml")).expect("copy");
    std::fs::copy(repo().join(REAL), d.join("in/two.yaml")).expect("copy");
    for args in [
        vec![
            "convert",
            "in",
            "--to",
            "agentpm",
            "--allow-lossy",
            "-o",
            "out",
        ],
        vec!["docs", "in", "-o", "docs"],
    ] {
        let err = stderr_of(loopconv().current_dir(d).args(&args));
        let mut lines = err.lines();
        let (first, at) = (lines.next().unwrap_or(""), lines.next().unwrap_or(""));
        assert!(
            first.starts_with("error[B006]:")
                && first.contains("in/one.yaml")
                && at.contains("in/two.yaml:3:7"),
            "{args:?}: {err}"
        );
        let json = stderr_of(
            loopconv()
                .current_dir(d)
                .args(&args)
                .args(["--format", "json"]),
        );
        let reports: Vec<serde_json::Value> = serde_json::Deserializer::from_str(&json)
            .into_iter()
            .collect::<Result<_, _>>()
            .unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}): {json}"));
        let b006: Vec<&serde_json::Value> = (reports.iter())
            .flat_map(|r| r.as_array().into_iter().flatten())
            .filter(|d| d["code"] == "B006")
            .collect();
        assert_eq!(b006.len(), 1, "{args:?}: {json}");
        assert_eq!(b006[0]["location"]["file"], "in/two.yaml");
    }
    assert!(!d.join("out").exists() && !d.join("docs").exists());
}

// 8. `convert --set-version`; the global `--version` works after any subcommand.

#[test]
fn set_version_and_version_flags() {
    let out = loopconv()
        .args([
            "convert",
            REAL,
            "--to",
            "agentpm",
            "--allow-lossy",
            "--set-version",
            "2.0.0",
        ])
        .output()
        .expect("run");
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("\"version\": \"2.0.0\""));
    for cmd in ["convert", "check"] {
        loopconv()
            .args([cmd, "--version"])
            .assert()
            .success()
            .stdout(
                predicate::str::starts_with("loopconv-convert ")
                    .or(predicate::str::starts_with("loopconv-check "))
                    .or(predicate::str::starts_with("loopconv ")),
            );
    }
}

// 9. Help: only options that do something, readable value names, `-f` everywhere, 64MiB.

#[test]
fn help_is_consistent() {
    let help = |cmd: &str| {
        String::from_utf8_lossy(
            &loopconv()
                .args([cmd, "--help"])
                .output()
                .expect("run")
                .stdout,
        )
        .into_owned()
    };
    // `schema FILE --outcomes` reads a loop: it takes the limits of one.
    let schema = help("schema");
    assert!(
        schema.contains("--max-input-bytes") && schema.contains("--max-diagnostics"),
        "{schema}"
    );
    let convert = help("convert");
    for cryptic in ["<A>", "<V>", "<F>", "<X>"] {
        assert!(!convert.contains(cryptic), "{convert}");
    }
    assert!(convert.contains("--actor <AGENT>") && convert.contains("--set-version <VERSION>"));
    for cmd in ["check", "convert", "graph", "docs"] {
        let h = help(cmd);
        assert!(h.contains("-f, --from <FORMAT>"), "{cmd}: {h}");
        assert!(
            h.contains("[default: 64MiB]") && !h.contains("67108864"),
            "{cmd}: {h}"
        );
    }
    loopconv()
        .args(["check", REACT, "--max-input-bytes", "1KiB"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("P004"));
}

#[test]
fn stdin_name_labels_diagnostics() {
    loopconv()
        .args([
            "check",
            "-",
            "--stdin-name",
            "mine.json",
            "--color",
            "never",
        ])
        .write_stdin(
            std::fs::read(repo().join("examples/invalid/F010-missing-kind.json")).expect("read"),
        )
        .assert()
        .stderr(predicate::str::contains("mine.json:"));
}

/// `diff` names the loop read from standard input by `--stdin-name` in every format.
#[test]
fn stdin_name_names_the_diffed_loop() {
    let old = repo().join("examples/agentpm/react-loop.json");
    let new = std::fs::read_to_string(&old)
        .expect("read")
        .replace("\"max_steps\": 10", "\"max_steps\": 11");
    for (format, shown) in [
        ("human", "mine.json"),
        ("json", "\"new\": \"mine.json\""),
        ("github", "file=mine.json"),
        ("sarif", "\"uri\": \"mine.json\""),
        ("markdown", "mine.json"),
    ] {
        let out = loopconv()
            .args(["diff", "--stdin-name", "mine.json", "--format", format])
            .arg(&old)
            .arg("-")
            .write_stdin(new.clone())
            .output()
            .expect("run loopconv");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains(shown), "{format}: {text}");
        assert!(
            !text.contains("\"-\"") && !text.contains("file=-"),
            "{format}: {text}"
        );
    }
}

/// `--stdin-name` with no `-` among the inputs is a usage error (exit 2) that says what to
/// do, in every command that takes it.
#[test]
fn stdin_name_without_standard_input_is_a_usage_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    let site = dir.path().join("site");
    let site = site.to_str().expect("utf-8 path");
    for args in [
        vec!["check", REACT],
        vec!["convert", REACT, "--to", "ir"],
        vec!["graph", REACT],
        vec!["docs", REACT, "-o", site],
        vec!["diff", REACT, REACT],
        vec!["paths", REACT],
        vec!["walk", REACT, "--outcomes", "done"],
    ] {
        let out = loopconv()
            .args(&args)
            .args(["--stdin-name", "mine.json"])
            .output()
            .expect("run loopconv");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("--stdin-name mine.json names standard input, but no input is `-`")
                && err.contains("pass `-` to read standard input, or drop --stdin-name"),
            "{args:?}: {err}"
        );
        assert!(out.stdout.is_empty(), "{args:?}: nothing is written");
    }
    // `new` reads no input, so it takes no `--stdin-name`, nor the limits of an input.
    let help = loopconv().args(["new", "--help"]).output().expect("run");
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(help.contains("--format"), "{help}");
    for flag in [
        "--stdin-name",
        "--max-input-bytes",
        "--max-phases",
        "--max-values",
    ] {
        loopconv()
            .args(["new", "--archetype", "react", "--name", "x", flag, "1"])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(format!(
                "unexpected argument '{flag}'"
            )));
        assert!(!help.contains(flag), "{flag}: {help}");
    }
    // With `-` among the inputs it names standard input, as before.
    loopconv()
        .args(["diff", REACT, "-", "--stdin-name", "mine.json"])
        .write_stdin(std::fs::read(repo().join(REACT)).expect("read"))
        .assert()
        .success();
}

// 12. One message per cause.

#[test]
fn missing_file_message_is_the_same_everywhere() {
    for args in [
        vec!["check", "nope.json"],
        vec!["graph", "nope.json"],
        vec!["convert", "nope.json", "--to", "ir"],
        vec!["docs", "nope.json", "-o", "/tmp/loopconv-never"],
    ] {
        loopconv()
            .args(&args)
            .assert()
            .code(2)
            .stderr(predicate::eq("error: nope.json: no such file or folder\n"));
    }
}

#[test]
fn graph_of_a_folder_is_a_clear_error() {
    loopconv()
        .args(["graph", "examples/agentpm"])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("is a folder").and(predicate::str::contains("os error").not()),
        );
}

#[cfg(unix)]
#[test]
fn unwritable_target_does_not_show_the_temporary_file() {
    // Two failures that hold for every user, root included (permissions do not stop root):
    // a folder where the output file should go (the rename of the staged file fails), and
    // a regular file where its parent folder should be.
    let dir = tempfile::tempdir().expect("tempdir");
    let blocked = dir.path().join("loop.mmd");
    std::fs::create_dir_all(blocked.join("inside")).expect("mkdir");
    let not_a_dir = dir.path().join("file");
    std::fs::write(&not_a_dir, "x").expect("write");
    for (target, named) in [(blocked, "loop.mmd"), (not_a_dir.join("loop.mmd"), "file")] {
        let out = loopconv()
            .args(["graph", REACT, "-o"])
            .arg(&target)
            .output()
            .expect("run loopconv");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{}: {err}", target.display());
        assert!(
            err.contains(named) && !err.contains(".loopconv-") && !err.contains("os error"),
            "{err}"
        );
    }
    let left: Vec<_> = crate::support::files_under(dir.path())
        .into_iter()
        .filter(|p| p.to_string_lossy().contains(".loopconv-"))
        .collect();
    assert!(left.is_empty(), "staging files left behind: {left:?}");
}

/// A file system that refuses the output file (`/proc`) gets the OS's own words, in one
/// style.
#[cfg(target_os = "linux")]
#[test]
fn a_refused_output_says_what_the_os_said() {
    for (args, what) in [
        (
            &["graph", REACT, "-o", "/proc/loopconv-test.mmd"][..],
            "writing",
        ),
        (
            &["docs", REACT, "-o", "/proc/loopconv-test-docs"],
            "creating folder",
        ),
    ] {
        let out = loopconv().args(args).output().expect("run loopconv");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        let reason = err
            .lines()
            .find_map(|l| l.strip_prefix("error: "))
            .and_then(|l| l.rsplit_once(": "))
            .map(|(head, reason)| {
                assert!(head.starts_with(what), "{err}");
                reason.to_owned()
            })
            .unwrap_or_default();
        assert!(
            ["no such file or directory", "permission denied"].contains(&reason.as_str()),
            "{err}"
        );
    }
}

/// Under `--format json`, stderr holds only JSON.
#[test]
fn json_stderr_holds_no_summary_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = |name: &str| dir.path().join(name).to_str().expect("utf-8").to_owned();
    let (ir, pages, mas) = (out("ir"), out("pages"), out("mas"));
    let runs = [
        vec!["convert", "examples/agentpm", "--to", "ir", "-o", &ir],
        vec!["docs", "examples/agentpm", "-o", &pages],
        vec!["docs", "examples/agentpm", "-o", &pages, "--check"],
        vec!["convert", "examples/agentpm", "--to", "mas", "-o", &mas],
    ];
    for args in runs {
        let run = loopconv()
            .args(&args)
            .args(["--format", "json"])
            .output()
            .expect("run loopconv");
        let err = String::from_utf8_lossy(&run.stderr);
        let mut rest = serde_json::Deserializer::from_str(&err).into_iter::<serde_json::Value>();
        assert!(
            rest.all(|v| v.is_ok_and(|v| v.is_array())),
            "{args:?}: {err}"
        );
    }
}

/// `--help` lists the exit codes, as the guide's table.
#[test]
fn help_lists_the_exit_codes() {
    let guide = std::fs::read_to_string(crate::support::repo().join("docs/src/usage.md"))
        .expect("usage.md");
    for args in [
        &["--help"][..],
        &["check", "--help"],
        &["convert", "--help"],
    ] {
        let out = loopconv().args(args).output().expect("run loopconv");
        let help = String::from_utf8_lossy(&out.stdout);
        assert!(help.contains("Exit codes:"), "{args:?}: {help}");
        for code in ["0", "1", "2"] {
            assert!(help.contains(&format!("\n  {code}  ")), "{args:?}: {code}");
            assert!(guide.contains(&format!("| {code} | ")), "usage.md: {code}");
        }
    }
}

/// `diff - -` is a usage error (exit 2): standard input can be read once.
#[test]
fn diff_of_standard_input_twice_is_a_usage_error() {
    let out = loopconv()
        .args(["diff", "-", "-"])
        .write_stdin(std::fs::read(REACT).expect("example"))
        .output()
        .expect("run loopconv");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("standard input"), "{err}");
    assert!(!err.contains("P008"), "{err}");
}

/// `-o` naming a pipe (or `/dev/null`, a terminal) writes into it; the atomic rename of a
/// staged file would replace it with a regular file (`-o /dev/null` run as root once
/// turned the machine's `/dev/null` into a file that every later program read back).
#[cfg(unix)]
#[test]
fn output_into_a_pipe_writes_into_it_and_leaves_it_a_pipe() {
    use std::os::unix::fs::{FileTypeExt as _, OpenOptionsExt as _};
    let dir = tempfile::tempdir().expect("tempdir");
    let fifo = dir.path().join("out.fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo");
    assert!(made.success());
    for streamed in [&["graph", "--mermaid"][..], &["paths"]] {
        // Opened without waiting for a writer, so that a run that replaces the pipe
        // instead of writing into it leaves nothing to read rather than a hung test.
        let mut reader = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(&fifo)
            .expect("open the pipe");
        let out = loopconv()
            .args(streamed)
            .arg(REACT)
            .arg("-o")
            .arg(&fifo)
            .output()
            .expect("run loopconv");
        assert!(out.status.success(), "{out:?}");
        let mut read = Vec::new();
        std::io::Read::read_to_end(&mut reader, &mut read).expect("read the pipe");
        let alone = loopconv().args(streamed).arg(REACT).output().expect("run");
        assert_eq!(read, alone.stdout, "{streamed:?}");
        let kind = std::fs::symlink_metadata(&fifo).expect("stat").file_type();
        assert!(kind.is_fifo(), "{streamed:?} replaced the pipe: {kind:?}");
    }
}

/// `-o` naming a link never writes through it: a link to a file, dangling or leading into
/// a missing folder is replaced by the output, and said so; the file it led to is
/// unchanged. A link to a pipe or device (`-o /dev/stdout`) is still written through
/// (`output_into_a_pipe_writes_the_pipe` above).
#[cfg(unix)]
#[test]
fn output_through_a_link_replaces_the_link() {
    let dir = tempfile::tempdir().expect("tempdir");
    let outside = tempfile::tempdir().expect("tempdir");
    let victim = outside.path().join("victim.sh");
    std::fs::write(&victim, "untouched\n").expect("write");
    let alone = loopconv().args(["graph", REACT]).output().expect("run");
    let links = [
        ("to-file.mmd", victim.clone()),
        ("dangling.mmd", outside.path().join("new.mmd")),
        ("nowhere.mmd", outside.path().join("missing/x.mmd")),
    ];
    for (name, to) in &links {
        let link = dir.path().join(name);
        std::os::unix::fs::symlink(to, &link).expect("symlink");
        let out = loopconv()
            .args(["graph", REACT, "-o"])
            .arg(&link)
            .output()
            .expect("run");
        assert!(out.status.success(), "{name}: {out:?}");
        let kind = std::fs::symlink_metadata(&link).expect("stat").file_type();
        assert!(kind.is_file(), "{name}: the link was kept: {kind:?}");
        assert_eq!(std::fs::read(&link).expect("read"), alone.stdout, "{name}");
        let said = stderr(&out);
        assert!(
            said.contains("replaced the symbolic link") && said.contains(&*to.to_string_lossy()),
            "{name}: {said}"
        );
    }
    assert_eq!(std::fs::read(&victim).expect("read"), b"untouched\n");
    assert!(!outside.path().join("new.mmd").exists());
    let files: Vec<_> = std::fs::read_dir(outside.path()).expect("ls").collect();
    assert_eq!(files.len(), 1, "something was written outside: {files:?}");
}

/// Links planted in an output folder, at every page or converted file's path and in the
/// place of a subfolder, each pointing outside: `docs` and folder `convert` replace each
/// link, say so, and nothing outside changes.
#[cfg(unix)]
#[test]
fn output_folders_never_follow_planted_links() {
    let outside = tempfile::tempdir().expect("tempdir");
    let victim = outside.path().join(".bashrc");
    std::fs::write(&victim, "# mine\n").expect("write");
    let elsewhere = outside.path().join("elsewhere");
    std::fs::create_dir(&elsewhere).expect("mkdir");
    let snapshot = |dir: &Path| -> Vec<(PathBuf, Vec<u8>)> {
        let mut all: Vec<_> = support::files_under(dir)
            .into_iter()
            .map(|f| (f.clone(), std::fs::read(&f).expect("read")))
            .collect();
        all.sort();
        all
    };
    let before = snapshot(outside.path());
    let loops = tempfile::tempdir().expect("tempdir");
    std::fs::copy(REACT, loops.path().join("react-loop.json")).expect("copy");
    // docs: react-loop.md and index.md; convert: react-loop.yaml and sub/ (a folder).
    let runs: [(&[&str], &[&str], &str); 2] = [
        (&["docs"], &["react-loop.md", "index.md"], ""),
        (&["convert", "--to", "ir"], &["react-loop.ir.json"], "sub"),
    ];
    for (command, files, folder) in runs {
        let out_dir = tempfile::tempdir().expect("tempdir");
        for f in files {
            std::os::unix::fs::symlink(&victim, out_dir.path().join(f)).expect("symlink");
        }
        if !folder.is_empty() {
            std::os::unix::fs::symlink(&elsewhere, out_dir.path().join(folder)).expect("symlink");
        }
        if !folder.is_empty() {
            // A loop in a subfolder, so that the folder is written.
            std::fs::create_dir_all(loops.path().join(folder)).expect("mkdir");
            std::fs::copy(REACT, loops.path().join(folder).join("react-loop.json")).expect("copy");
        }
        let out = loopconv()
            .args(command)
            .arg(loops.path())
            .arg("-o")
            .arg(out_dir.path())
            .output()
            .expect("run");
        assert!(out.status.success(), "{command:?}: {out:?}");
        let said = stderr(&out);
        for f in files.iter().chain((!folder.is_empty()).then_some(&folder)) {
            let kind = std::fs::symlink_metadata(out_dir.path().join(f))
                .expect("stat")
                .file_type();
            assert!(!kind.is_symlink(), "{command:?}: {f} is still a link");
            assert!(
                said.contains(&format!("{}", out_dir.path().join(f).display())),
                "{command:?}: {f} not reported: {said}"
            );
        }
        assert_eq!(
            snapshot(outside.path()),
            before,
            "{command:?} wrote outside"
        );
    }
}

// 13. Colour conventions.

#[test]
fn colour_follows_the_conventions() {
    let bad = "examples/invalid/F010-missing-kind.json";
    let coloured = |envs: &[(&str, &str)]| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_loopconv"));
        c.current_dir(repo())
            .env_remove("NO_COLOR")
            .env_remove("CLICOLOR_FORCE")
            .env_remove("TERM");
        for (k, v) in envs {
            c.env(k, v);
        }
        stderr_of(c.args(["check", bad])).contains('\u{1b}')
    };
    assert!(coloured(&[("CLICOLOR_FORCE", "1")]));
    assert!(
        coloured(&[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "")]),
        "an empty NO_COLOR is not set"
    );
    assert!(!coloured(&[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]));
    assert!(!coloured(&[("CLICOLOR_FORCE", "0")]));
    assert!(!coloured(&[]), "stderr is not a terminal");
}

// 14. README and guide: `--locked`, no "seed 000", a way to see a diagram.

#[test]
fn readme_install_is_locked_and_speaks_plainly() {
    let read = |p: &str| std::fs::read_to_string(repo().join(p)).expect(p);
    assert!(read("README.md").contains("cargo install --locked loopconv"));
    assert!(read("docs/src/installation.md").contains("cargo install --locked --path ."));
    let intro = read("docs/src/introduction.md");
    assert!(intro.contains("mermaid.live") && intro.contains("dot -Tsvg"));
    for file in crate::support::documentation_files() {
        let text = std::fs::read_to_string(&file).expect("a documentation file");
        assert!(!text.contains("seed 000"), "{}", file.display());
    }
}

/// Under `--format json`, `diff`, `paths` and `walk` print their diagnostics on standard
/// error as the JSON array `check --format json` prints (here the `F010` warning of a loop
/// without `kind`), and nothing for people: one document, for `diff` too, whose two files
/// are not two arrays one after the other, which no JSON reader takes.
#[test]
fn diff_paths_and_walk_json_diagnostics_are_json_on_stderr() {
    let f = "examples/invalid/F010-missing-kind.json";
    let runs: [&[&str]; 3] = [
        &["diff", f, f],
        &["paths", f],
        &["walk", f, "--outcomes", "no-such-outcome"],
    ];
    for args in runs {
        let out = loopconv()
            .args(args)
            .args(["--format", "json"])
            .output()
            .expect("run");
        let err: serde_json::Value = serde_json::from_slice(&out.stderr).unwrap_or_else(|e| {
            panic!(
                "{args:?}: stderr is no JSON ({e}): {}",
                String::from_utf8_lossy(&out.stderr)
            )
        });
        let codes: Vec<&str> = (err.as_array().expect("an array").iter())
            .map(|d| d["code"].as_str().expect("a code"))
            .collect();
        assert!(
            codes.iter().all(|c| *c == "F010") && !codes.is_empty(),
            "{args:?}: {err:#}"
        );
        serde_json::from_slice::<serde_json::Value>(&out.stdout)
            .unwrap_or_else(|e| panic!("{args:?}: stdout is no JSON ({e})"));
    }
}
