//! The `loopconv` binary: exit codes (0 clean, 1 problems, 2 usage or I/O error), the
//! corpus, `--strict`, lossy conversions, standard input and output, `--format json`,
//! folder conversion, the size limit, `schema` and `graph`.
//!
//! Every command runs in the crate root, so paths are the ones a user would type there:
//! `examples/...` and the shared corpus at `../shared/corpus/...`.

use crate::support;

use crate::support::{
    corpus, files_under, load_file, loop_files, loopconv, repo, stderr, stdout_json,
};
use predicates::prelude::predicate;
use serde_json::Value;
use std::path::PathBuf;

/// A corpus file, as a user would name it (`../shared/corpus/...`), when ../shared is here.
fn shared_file(path: &str) -> Option<String> {
    support::shared_path(path).map(|p| support::rel(&p))
}

const TEMPLATE: &str = "cli-init-template.loop_agent.json";

#[test]
fn exit_code_0_for_a_clean_file() {
    loopconv()
        .args(["check", "examples/agentpm/react-loop.json"])
        .assert()
        .success()
        .stderr(predicate::str::contains("0 errors, 0 warnings"));
}

#[test]
fn exit_code_1_for_problems() {
    loopconv()
        .args(["check", "examples/invalid/V012-unreachable-phase.json"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("error[V012]"));
}

#[test]
fn exit_code_2_for_a_missing_file() {
    loopconv()
        .args(["check", "examples/agentpm/no-such-loop.json"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no-such-loop.json"));
}

#[test]
fn exit_code_2_for_usage_errors() {
    loopconv()
        .args([
            "check",
            "--no-such-flag",
            "examples/agentpm/react-loop.json",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--no-such-flag"));
    loopconv().assert().code(2);
    loopconv()
        .args([
            "convert",
            "examples/agentpm/react-loop.json",
            "--to",
            "yaml",
        ])
        .assert()
        .code(2);
}

/// Every corpus file passes except the unrendered upstream template, which fails with exactly
/// one error naming `name` at 4:11.
#[test]
fn corpus_check() {
    let Some(corpus) = corpus() else {
        return; // recorded, and named at the end of the run
    };
    let files = loop_files(&corpus);
    assert!(files.len() >= 7, "{files:?}");
    for f in files {
        let rel = support::rel(&f);
        let out = loopconv()
            .args(["check", &rel, "--format", "json"])
            .output()
            .expect("runs");
        let diags = stdout_json(&out);
        let diags = diags.as_array().expect("an array");
        if rel.ends_with(TEMPLATE) {
            assert_eq!(out.status.code(), Some(1), "{rel}");
            assert_eq!(diags.len(), 1, "{rel}: {diags:#?}");
            let d = &diags[0];
            assert_eq!(d["severity"], "error");
            assert!(
                d["message"].as_str().expect("message").contains("`name`"),
                "{d}"
            );
            assert_eq!(d["location"]["pointer"], "/name");
            assert_eq!(
                (
                    d["location"]["line"].as_u64(),
                    d["location"]["column"].as_u64()
                ),
                (Some(4), Some(11))
            );
            // The human form names the same place.
            loopconv()
                .args(["check", &rel])
                .assert()
                .code(1)
                .stderr(predicate::str::contains(format!("{rel}:4:11")))
                .stderr(predicate::str::contains("`name`"))
                .stderr(predicate::str::contains("1 error,"));
        } else {
            assert_eq!(out.status.code(), Some(0), "{rel}: {}", stderr(&out));
            assert!(diags.is_empty(), "{rel}: {diags:#?}");
        }
    }
}

/// Seed 000 (no `kind`) is read with a warning, which `--strict` makes an error.
#[test]
fn seed_without_kind_warns_and_fails_under_strict() {
    let Some(seed_000) = shared_file("seeds/000_569ad6a5b24f8e1e.txt") else {
        return; // recorded, and named at the end of the run
    };
    let out = loopconv()
        .args(["check", seed_000.as_str(), "--from", "agentpm"])
        .output()
        .expect("runs");
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(
        err.contains("warning[F010]") && err.contains("`kind`"),
        "{err}"
    );
    assert!(!err.contains("error["), "{err}");
    assert!(err.contains(" 0 errors"), "{err}");

    let out = loopconv()
        .args(["check", seed_000.as_str(), "--from", "agentpm", "--strict"])
        .output()
        .expect("runs");
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("error[F010]"), "{err}");
}

/// Converting a VEAL loop to AgentPM loses fields: without `--allow-lossy` it fails, names
/// every lost field, and writes nothing.
#[test]
fn lossy_conversion_fails_and_writes_nothing() {
    let Some(qa_fix) = shared_file("corpus/mas/mas-guide-qa-fix.yaml") else {
        return; // recorded, and named at the end of the run
    };
    let tmp = tempfile::tempdir().expect("tempdir");
    let target = tmp.path().join("qa-fix.json");
    let out = loopconv()
        .args(["convert", qa_fix.as_str(), "--to", "agentpm", "-o"])
        .arg(&target)
        .output()
        .expect("runs");
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    for field in ["/actor", "/validator", "/checks", "/success_criteria"] {
        assert!(
            err.contains(&format!("(`{field}`)")),
            "{field} is not named:\n{err}"
        );
    }
    assert!(err.contains("--allow-lossy"), "{err}");
    assert!(
        !target.exists(),
        "a failed conversion wrote {}",
        target.display()
    );
    assert!(
        files_under(tmp.path()).is_empty(),
        "{:?}",
        files_under(tmp.path())
    );

    // The same list as JSON: one B001 error per lost field, each with a position.
    let out = loopconv()
        .args([
            "convert",
            qa_fix.as_str(),
            "--to",
            "agentpm",
            "--format",
            "json",
        ])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    // Diagnostics go to stderr: stdout is for the result, and nothing was converted.
    assert!(out.stdout.is_empty(), "nothing on stdout");
    let diags: Value = serde_json::from_slice(&out.stderr).expect("stderr is one JSON array");
    let mut pointers: Vec<&str> = diags
        .as_array()
        .expect("array")
        .iter()
        .map(|d| {
            assert_eq!(d["code"], "B001", "{d}");
            assert_eq!(d["severity"], "error", "{d}");
            assert!(d["location"]["line"].is_u64(), "{d}");
            d["location"]["pointer"].as_str().expect("pointer")
        })
        .collect();
    pointers.sort_unstable();
    assert_eq!(
        pointers,
        ["/actor", "/checks", "/success_criteria", "/validator"]
    );
}

/// With `--allow-lossy` the same conversion writes a file that passes `check`, with
/// `max_steps = 3 * max_attempts - 1 = 8`.
#[test]
fn allow_lossy_writes_a_valid_file() {
    let Some(qa_fix) = shared_file("corpus/mas/mas-guide-qa-fix.yaml") else {
        return; // recorded, and named at the end of the run
    };
    let tmp = tempfile::tempdir().expect("tempdir");
    let target = tmp.path().join("qa-fix.json");
    let out = loopconv()
        .args([
            "convert",
            qa_fix.as_str(),
            "--to",
            "agentpm",
            "--allow-lossy",
            "-o",
        ])
        .arg(&target)
        .output()
        .expect("runs");
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(
        err.contains("warning[B001]") && !err.contains("error["),
        "{err}"
    );
    loopconv()
        .arg("check")
        .arg(&target)
        .assert()
        .success()
        .stderr(predicate::str::contains("0 errors, 0 warnings"));
    let v: Value =
        serde_json::from_str(&std::fs::read_to_string(&target).expect("written")).expect("JSON");
    assert_eq!(v["kind"], "loop");
    assert_eq!(v["name"], "qa-fix");
    assert_eq!(v["loop"]["limits"]["max_steps"], 8);
    assert_eq!(v["loop"]["entry_phase"], "validate");
}

/// `-` reads standard input and writes standard output.
#[test]
fn stdin_and_stdout() {
    let yaml = std::fs::read_to_string(repo().join("examples/mas/veal-release-gate.yaml"))
        .expect("example");
    let out = loopconv()
        .args(["convert", "-", "--to", "ir", "-o", "-"])
        .write_stdin(yaml.clone())
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let ir = stdout_json(&out);
    assert_eq!(ir["source_format"], "mas");
    assert_eq!(ir["name"], "release-gate");

    // The IR from stdout converts back from stdin.
    let out = loopconv()
        .args(["convert", "-", "--to", "mas"])
        .write_stdin(out.stdout.clone())
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    assert!(
        text.starts_with("name: release-gate\ntype: VEAL\n"),
        "{text}"
    );

    // Diagnostics about standard input name it `-`.
    let out = loopconv()
        .args(["check", "-", "--format", "json"])
        .write_stdin("{\"kind\": \"loop\",}")
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let diags = stdout_json(&out);
    assert_eq!(diags[0]["code"], "P001");
    assert_eq!(diags[0]["location"]["file"], "-");
    assert_eq!(
        (
            diags[0]["location"]["line"].as_u64(),
            diags[0]["location"]["column"].as_u64()
        ),
        // At the trailing comma, the cause.
        (Some(1), Some(16))
    );
}

/// `--format json` prints one JSON array on stdout, also for several files and for none.
#[test]
fn format_json_is_one_array() {
    let out = loopconv()
        .args([
            "check",
            "examples/invalid/V012-unreachable-phase.json",
            "examples/agentpm/react-loop.json",
            "examples/invalid/F011-yaml11-boolean.yaml",
            "--format",
            "json",
        ])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let diags = stdout_json(&out);
    let items = diags.as_array().expect("one array");
    let got: Vec<(&str, &str)> = items
        .iter()
        .map(|d| {
            (
                d["code"].as_str().expect("code"),
                d["location"]["file"].as_str().expect("file"),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("V012", "examples/invalid/V012-unreachable-phase.json"),
            ("F011", "examples/invalid/F011-yaml11-boolean.yaml")
        ]
    );
    for d in items {
        for key in ["severity", "code", "message", "location"] {
            assert!(d.get(key).is_some(), "{key} missing in {d}");
        }
    }

    let out = loopconv()
        .args([
            "check",
            "examples/agentpm/react-loop.json",
            "--format",
            "json",
        ])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout_json(&out), Value::Array(Vec::new()));
}

/// `-o` naming an input file, by any of its names (itself, `./` in the path, a symbolic
/// link, a hard link), is refused by every command that writes one (exit 2) and the file
/// is left alone.
#[test]
fn output_equal_to_input_is_refused() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let input = tmp.path().join("react-loop.json");
    let original = std::fs::read(repo().join("examples/agentpm/react-loop.json")).expect("example");
    std::fs::write(&input, &original).expect("copy");
    let other = tmp.path().join("other.json");
    std::fs::write(&other, &original).expect("copy");
    let same = tmp.path().join(".").join("react-loop.json");
    let hard = tmp.path().join("hard.json");
    std::fs::hard_link(&input, &hard).expect("hard link");
    let mut names = vec![input.clone(), same, hard.clone()];
    #[cfg(unix)]
    {
        let soft = tmp.path().join("soft.json");
        std::os::unix::fs::symlink(&input, &soft).expect("symbolic link");
        names.push(soft);
    }
    let input_s = input.to_str().expect("UTF-8 path");
    let other_s = other.to_str().expect("UTF-8 path");
    let commands: [&[&str]; 8] = [
        &["convert", input_s, "--to", "agentpm"],
        &["graph", input_s],
        &["graph", input_s, "--dot"],
        &["paths", input_s],
        &["diff", input_s, other_s],
        &["diff", other_s, input_s],
        &["schema", "--outcomes", input_s],
        &["docs", input_s],
    ];
    for args in commands {
        for output in &names {
            // `docs` writes `<loop name>.md` into its `-o` folder: a loop file of that name.
            let (output, named) = if args[0] == "docs" {
                let page = tmp.path().join("react-loop.md");
                std::fs::rename(&input, &page).expect("rename");
                (tmp.path().to_path_buf(), page)
            } else {
                (output.clone(), input.clone())
            };
            let args: Vec<&std::ffi::OsStr> = args
                .iter()
                .map(|a| {
                    if *a == input_s {
                        named.as_os_str()
                    } else {
                        a.as_ref()
                    }
                })
                .collect();
            loopconv()
                .args(&args)
                .arg("-o")
                .arg(&output)
                .assert()
                .code(2)
                .stderr(predicate::str::contains("refusing to overwrite"));
            assert_eq!(
                std::fs::read(&named).expect("still there"),
                original,
                "{args:?}"
            );
            if named != input {
                std::fs::rename(&named, &input).expect("rename back");
            }
        }
    }
    let mut expected = vec![hard, input, other];
    #[cfg(unix)]
    expected.push(tmp.path().join("soft.json"));
    expected.sort();
    assert_eq!(files_under(tmp.path()), expected);
}

/// A folder converts to `DIR/<loop name>/agent.json` per loop; one failing file makes it
/// write nothing.
#[test]
fn folder_conversion() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out_dir = tmp.path().join("agentpm");
    let out = loopconv()
        .args([
            "convert",
            "examples/mas",
            "--to",
            "agentpm",
            "--allow-lossy",
            "--actor",
            "a",
            "--validator",
            "v",
            "-o",
        ])
        .arg(&out_dir)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));

    let sources: Vec<PathBuf> = loop_files(&repo().join("examples/mas"))
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    let mut expected = Vec::new();
    for src in &sources {
        let name = load_file(src).spec.expect("a loop").name;
        let agent = out_dir.join(&name).join("agent.json");
        let v: Value = serde_json::from_str(
            &std::fs::read_to_string(&agent).unwrap_or_else(|e| panic!("{}: {e}", agent.display())),
        )
        .expect("JSON");
        assert_eq!(v["name"], name.as_str());
        loopconv().arg("check").arg(&agent).assert().success();
        expected.push(agent);
    }
    expected.sort();
    assert_eq!(
        files_under(&out_dir),
        expected,
        "exactly one agent.json per loop"
    );

    // A folder with one broken loop: nothing is written.
    let src = tmp.path().join("src");
    std::fs::create_dir(&src).expect("mkdir");
    for f in &sources {
        std::fs::copy(f, src.join(f.file_name().expect("name"))).expect("copy");
    }
    std::fs::copy(
        repo().join("examples/invalid/V102-missing-validator.yaml"),
        src.join("zz-broken.yaml"),
    )
    .expect("copy");
    let out_dir = tmp.path().join("out2");
    let out = loopconv()
        .arg("convert")
        .arg(&src)
        .args([
            "--to",
            "agentpm",
            "--allow-lossy",
            "--actor",
            "a",
            "--validator",
            "v",
            "-o",
        ])
        .arg(&out_dir)
        .output()
        .expect("runs");
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("error[V102]") && err.contains("zz-broken.yaml"),
        "{err}"
    );
    assert!(
        files_under(&out_dir).is_empty(),
        "wrote {:?}",
        files_under(&out_dir)
    );
}

/// A folder converted into one of its own subfolders, twice: the second run reads the
/// sources only, not what the first wrote (which nested `out/out` one level deeper per
/// run), and writes the same files.
#[test]
fn converting_a_folder_into_its_own_subfolder_reads_only_the_sources() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let src = tmp.path().join("loops");
    std::fs::create_dir(&src).expect("mkdir");
    for f in ["agentpm/react-loop.json", "agentpm/reflexion.json"] {
        let from = crate::support::examples().join(f);
        std::fs::copy(&from, src.join(from.file_name().expect("name"))).expect("copy");
    }
    let out_dir = src.join("ir");
    for run in 1..=2 {
        let out = loopconv()
            .arg("convert")
            .arg(&src)
            .args(["--to", "ir", "-o"])
            .arg(&out_dir)
            .output()
            .expect("runs");
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(0), "run {run}: {err}");
        assert!(err.contains("converted 2 files"), "run {run}: {err}");
    }
    let written: Vec<PathBuf> = files_under(&out_dir);
    assert_eq!(written.len(), 2, "{written:?}");
    assert!(
        written
            .iter()
            .all(|f| f.parent() == Some(out_dir.as_path())),
        "{written:?}"
    );
}

/// P004 (input too large) needs a 64 MiB file by default; a small limit shows it.
#[test]
fn max_input_bytes_gives_p004() {
    let out = loopconv()
        .args([
            "check",
            "examples/agentpm/react-loop.json",
            "--max-input-bytes",
            "100",
            "--format",
            "json",
        ])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let diags = stdout_json(&out);
    let items = diags.as_array().expect("array");
    assert_eq!(items.len(), 1, "{items:#?}");
    assert_eq!(items[0]["code"], "P004");
    assert_eq!(items[0]["severity"], "error");
    // The input was not read: the diagnostic is about the whole file, at 1:1 (so that
    // SARIF and GitHub annotations place it on the file).
    assert_eq!(items[0]["location"]["line"], 1, "{}", items[0]);
    assert_eq!(items[0]["location"]["column"], 1, "{}", items[0]);
    assert!(
        items[0]["message"]
            .as_str()
            .expect("message")
            .contains("100")
    );

    loopconv()
        .args([
            "check",
            "examples/agentpm/react-loop.json",
            "--max-input-bytes",
            "100",
        ])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("error[P004]"));
    // The file itself is fine.
    loopconv()
        .args([
            "check",
            "examples/agentpm/react-loop.json",
            "--max-input-bytes",
            "100000",
        ])
        .assert()
        .success();
}

/// Several inputs: the first bad path in argument order is the error (a folder without loop
/// files before a missing file, and the other way round), nothing is reported before it,
/// standard input is not read when a folder fails, and two `-` read standard input once.
#[test]
fn the_first_bad_input_in_argument_order_is_the_error() {
    let empty = tempfile::tempdir().expect("temp dir");
    let empty_dir = empty.path().to_string_lossy().into_owned();
    let missing = "examples/agentpm/no-such-loop.json";
    let good = "examples/agentpm/react-loop.json";
    for (args, want) in [
        (
            vec![good, empty_dir.as_str(), missing],
            "no loop files found",
        ),
        (
            vec![good, missing, empty_dir.as_str()],
            "no-such-loop.json: no such file",
        ),
        (vec!["-", empty_dir.as_str()], "no loop files found"),
    ] {
        let out = loopconv()
            .arg("check")
            .args(&args)
            .write_stdin("this is not read")
            .output()
            .expect("run loopconv");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = stderr(&out);
        assert!(err.contains(want), "{args:?}: {err}");
        assert!(
            !err.contains("checked"),
            "{args:?}: nothing is reported: {err}"
        );
    }
    // Standard input is named by `--stdin-name` in every diagnostic (it is read once:
    // `- -` is a usage error, `each_input_is_read_once`).
    let out = loopconv()
        .args(["check", "--format", "json", "--stdin-name", "in.json", "-"])
        .write_stdin("{}")
        .output()
        .expect("run loopconv");
    let diags = stdout_json(&out);
    // Every diagnostic names its file (`location.file`); a missing name counts as a wrong one.
    let files: Vec<&str> = diags
        .as_array()
        .map(|a| {
            a.iter()
                .map(|d| d["location"]["file"].as_str().unwrap_or("<no file>"))
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(out.status.code(), Some(1), "{diags:#}");
    assert!(!files.is_empty(), "no diagnostics: {diags:#}");
    assert!(files.iter().all(|f| *f == "in.json"), "{files:?}");
}

#[test]
fn max_input_bytes_above_4_gib_is_a_usage_error() {
    let out = loopconv()
        .args([
            "check",
            "--max-input-bytes",
            "8GiB",
            "examples/agentpm/react-loop.json",
        ])
        .output()
        .expect("run loopconv");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("at most 4 GiB"), "{}", stderr(&out));
    loopconv()
        .args([
            "check",
            "--max-input-bytes",
            "4GiB",
            "examples/agentpm/react-loop.json",
        ])
        .assert()
        .success();
}

/// A reader that stops reading (`loopconv ... | head`) ends loopconv quietly: exit 0 and
/// no error on standard error (the loop's own warnings aside), in text and streamed JSON.
#[test]
fn a_closed_pipe_ends_the_command_quietly() {
    use std::io::Read as _;
    let dir = tempfile::tempdir().expect("a temporary folder");
    let chain = dir.path().join("chain.json");
    std::fs::write(&chain, support::generators::chain(1_000)).expect("written");
    let chain = chain.to_str().expect("UTF-8");
    let commands: [&[&str]; 3] = [
        &[
            "convert",
            "--to",
            "ir",
            "examples/hostile/agentpm-100kb.json",
        ],
        &["paths", "--max-steps-listed", "1000000", chain],
        &[
            "paths",
            "--format",
            "json",
            "--max-steps-listed",
            "1000000",
            chain,
        ],
    ];
    for args in commands {
        let mut child = support::loopconv_process()
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("starts");
        let mut stdout = child.stdout.take().expect("piped");
        let mut first = [0u8; 16];
        stdout.read_exact(&mut first).expect("some output");
        drop(stdout);
        let out = child.wait_with_output().expect("ends");
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("error"), "{args:?}: {stderr}");
    }
}

/// Output that cannot be written (standard output on a full disk) is an error, exit 2,
/// for output written at once and for output still buffered when the command ends (the
/// runtime's own exit drops a failed final flush silently).
#[test]
#[cfg(target_os = "linux")]
fn a_full_standard_output_is_an_error() {
    let commands: [&[&str]; 3] = [
        &["graph", "--mermaid", "examples/agentpm/react-loop.json"],
        &["graph", "--dot", "examples/agentpm/react-loop.json"],
        &[
            "convert",
            "--to",
            "ir",
            "examples/hostile/agentpm-100kb.json",
        ],
    ];
    for args in commands {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full opens");
        let out = support::loopconv_process()
            .args(args)
            .stdout(full)
            .output()
            .expect("runs");
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("No space left on device"),
            "{args:?}: {}",
            stderr(&out)
        );
    }
}

/// The read-back check of a conversion judges the output's validity, not the size limits
/// of an untrusted input: a loop within `--max-phases` converts to XState, whose machine
/// has a state per phase and per checkpoint. An output nested deeper than loopconv reads
/// is still not written, with the reason, and no `--allow-lossy` hint (that is for
/// `B001`, `B002`).
#[test]
fn the_read_back_check_judges_validity_not_the_inputs_limits() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let machine = tmp.path().join("m.json");
    loopconv()
        .args([
            "convert",
            "examples/agentpm/code-review-sign-off.json",
            "--to",
            "xstate",
        ])
        .args(["--max-phases", "4", "-o"])
        .arg(&machine)
        .assert()
        .success();
    let states = std::fs::read_to_string(&machine).expect("written");
    let v: Value = serde_json::from_str(&states).expect("JSON");
    let count = v["states"].as_object().expect("states").len();
    assert!(count > 4, "{count} states");

    let mut schema = serde_json::json!({});
    for _ in 0..124 {
        schema = serde_json::json!({ "a": schema });
    }
    let deep = serde_json::json!({
        "name": "deep", "type": "REAL", "actor": "dev", "mission": "Ship it.",
        "inputs": [{"name": "x", "schema": schema}]
    });
    let input = tmp.path().join("deep.json");
    std::fs::write(&input, deep.to_string()).expect("write");
    loopconv().arg("check").arg(&input).assert().success();
    let out = tmp.path().join("deep.ir.json");
    let run = loopconv()
        .arg("convert")
        .arg(&input)
        .args(["--to", "ir", "--allow-lossy", "-o"])
        .arg(&out)
        .output()
        .expect("runs");
    assert_eq!(run.status.code(), Some(1));
    let err = stderr(&run);
    assert!(
        err.contains("B004") && err.contains("nest it less"),
        "{err}"
    );
    assert!(!err.contains("report this loopconv bug"), "{err}");
    assert!(!err.contains("pass --allow-lossy"), "{err}");
    assert!(!out.exists());
}

/// A folder conversion never replaces a loop file of the folder it reads: not another
/// input's file (under `--in-place`, where each file may replace only itself), and not a
/// loop in the output folder within it, which is left out of the inputs (so that a re-run
/// does not read its own outputs), unless that file holds the same loop, as an earlier
/// run's output does: `B006` on the loop's name, exit 1, nothing written.
#[test]
fn a_folder_conversion_never_replaces_another_loop_of_its_folder() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let react = repo().join("examples/agentpm/react-loop.json");
    let docs = std::fs::read(repo().join("examples/mas/real-docs-refresh.yaml")).expect("example");
    let convert = |input: &std::path::Path, out: &std::path::Path, extra: &[&str]| {
        loopconv()
            .arg("convert")
            .arg(input)
            .args(["--to", "mas", "--actor", "dev", "--allow-lossy", "-o"])
            .arg(out)
            .args(extra)
            .output()
            .expect("runs")
    };
    // A hand-written loop in the output folder, where the conversion's output would go.
    let y = tmp.path().join("y");
    std::fs::create_dir_all(y.join("out")).expect("mkdir");
    std::fs::copy(&react, y.join("react-loop.json")).expect("copy");
    std::fs::write(y.join("out/react-loop.yaml"), &docs).expect("write");
    let run = convert(&y, &y.join("out"), &[]);
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    assert!(
        stderr(&run).starts_with("error[B006]: loop `react-loop` writes the file")
            && stderr(&run).contains("which holds loop `docs-refresh`"),
        "{}",
        stderr(&run)
    );
    assert_eq!(
        std::fs::read(y.join("out/react-loop.yaml")).expect("kept"),
        docs
    );
    // An earlier output of the same loop is replaced, and the summary says what was left
    // out.
    std::fs::remove_file(y.join("out/react-loop.yaml")).expect("rm");
    assert_eq!(convert(&y, &y.join("out"), &[]).status.code(), Some(0));
    let again = convert(&y, &y.join("out"), &[]);
    assert_eq!(again.status.code(), Some(0), "{}", stderr(&again));
    assert!(
        stderr(&again).contains("1 file already in"),
        "{}",
        stderr(&again)
    );
    // Under --in-place, another input named like this file's output.
    let b = tmp.path().join("b");
    std::fs::create_dir_all(&b).expect("mkdir");
    std::fs::copy(&react, b.join("react-loop.json")).expect("copy");
    std::fs::write(b.join("react-loop.yaml"), &docs).expect("write");
    let run = convert(&b, &b, &["--in-place", "--format", "json"]);
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    let json = stderr(&run);
    let reports: Vec<Value> = serde_json::Deserializer::from_str(&json)
        .into_iter()
        .collect::<Result<_, _>>()
        .unwrap_or_else(|e| panic!("not JSON ({e}): {json}"));
    let b006: Vec<&Value> = (reports.iter())
        .flat_map(|r| r.as_array().into_iter().flatten())
        .filter(|d| d["code"] == "B006")
        .collect();
    assert_eq!(b006.len(), 1, "{json}");
    let message = b006[0]["message"].as_str().unwrap_or_default();
    assert!(message.contains("another input file"), "{json}");
    assert_eq!(
        std::fs::read(b.join("react-loop.yaml")).expect("kept"),
        docs
    );
}

/// A file named twice (by any of its names) is read and reported once; standard input
/// named twice is a usage error.
#[test]
fn each_input_is_read_once() {
    let bad = "examples/invalid/V009-unknown-transition-target.json";
    let out = loopconv()
        .args(["check", bad, &format!("./{bad}"), "--format", "json"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let once = loopconv()
        .args(["check", bad, "--format", "json"])
        .output()
        .expect("runs");
    assert_eq!(stdout_json(&out), stdout_json(&once));
    let out = loopconv()
        .args(["check", "-", "-"])
        .write_stdin("{}")
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("can be read once"),
        "{}",
        stderr(&out)
    );
}

/// The human `paths` output marks each run longer than the effective `max_steps` (JSON's
/// `fits_max_steps: false`), as `walk` of it ends `limit_reached`; runs that fit carry no
/// mark.
#[test]
fn paths_marks_the_runs_over_max_steps() {
    let over = loopconv()
        .args(["paths"])
        .arg(support::examples().join("invalid/V024-max-steps-too-small.json"))
        .output()
        .expect("run");
    let text = String::from_utf8_lossy(&over.stdout);
    let runs: Vec<&str> = (text.lines()).filter(|l| l.contains("-->")).collect();
    assert!(!runs.is_empty(), "{text}");
    for r in runs {
        assert!(r.contains("[over max_steps: "), "{r}");
    }
    let fits = loopconv()
        .args(["paths"])
        .arg(support::examples().join("agentpm/code-review-sign-off.json"))
        .output()
        .expect("run");
    let text = String::from_utf8_lossy(&fits.stdout);
    assert!(!text.contains("over max_steps"), "{text}");
}
