//! Limits and hostile inputs (issue 4, item 3): each gives exit code 1 through the CLI (2 for
//! an I/O error), never a crash (101) or a hang, and a precise diagnostic:
//!
//! | input | code |
//! |---|---|
//! | larger than `--max-input-bytes` (default 64 MiB) | P004 |
//! | more than 1,000,000 values (JSON or YAML) | P004 |
//! | arrays/objects nested 100,000 deep (JSON, YAML flow, YAML block) | P005 |
//! | a ~1 KB billion-laughs YAML file, and an alias-multiplied scalar | P006 |
//! | invalid UTF-8 | P007, at its line and column |
//! | empty or whitespace-only | P008 |
//! | a byte-order mark | P009 warning; the file is read and positions are unchanged |
//! | a NUL byte | P010, at its line and column |
//! | more phases than the limit | P013 |
//! | a bare scalar, `null` or an array | F003 "the document must be an object" |
//! | CRLF line endings | same loop, same lines and columns as LF |
//!
//! Inputs are generated in a temporary folder; none is committed. The tests assert
//! behaviour only: the guide's timings were measured by hand (`time`), never here.

use crate::support;

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::support::{all_inputs, loopconv, loopconv_process, repo};
use loopconv::diag::{Code, Severity};
use loopconv::{LoadOptions, load};
use serde_json::Value;

const MIB: usize = 1024 * 1024;

/// A file in a fresh temporary folder (kept alive by the returned guard).
fn temp_file(name: &str, bytes: &[u8]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join(name);
    std::fs::write(&path, bytes).expect("write temp file");
    (dir, path)
}

/// `loopconv check --format json FILE [ARGS]`: exit code and the diagnostics.
fn check(path: &Path, args: &[&str]) -> (i32, Vec<Value>) {
    let out = loopconv()
        .args(["check", "--format", "json"])
        .args(args)
        .arg(path)
        .output()
        .expect("run loopconv");
    (code_of(&out), diags_of(&out))
}

fn code_of(out: &Output) -> i32 {
    let code = out.status.code().expect("exited normally, not by a signal");
    assert_ne!(
        code,
        101,
        "loopconv panicked:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    code
}

fn diags_of(out: &Output) -> Vec<Value> {
    match serde_json::from_slice::<Value>(&out.stdout) {
        Ok(Value::Array(a)) => a,
        _ => panic!(
            "stdout is not a JSON array:\n{}\nstderr:\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    }
}

fn codes(diags: &[Value]) -> Vec<&str> {
    diags.iter().filter_map(|d| d["code"].as_str()).collect()
}

fn line_col(d: &Value) -> (u64, u64) {
    (
        d["location"]["line"]
            .as_u64()
            .unwrap_or_else(|| panic!("no line: {d:#}")),
        d["location"]["column"]
            .as_u64()
            .unwrap_or_else(|| panic!("no column: {d:#}")),
    )
}

/// Run `check` on `bytes` saved as `name`; expect exit 1 and exactly the codes given.
fn rejects(name: &str, bytes: &[u8], expected: &[&str]) -> Vec<Value> {
    let (_dir, path) = temp_file(name, bytes);
    let (code, diags) = check(&path, &[]);
    assert_eq!(code, 1, "{name}: exit code; {diags:#?}");
    assert_eq!(codes(&diags), expected, "{name}: {diags:#?}");
    diags
}

fn example(rel: &str) -> Vec<u8> {
    support::read(&repo().join(rel))
}

/// A small valid AgentPM loop.
const VALID_AGENTPM: &str = r#"{
  "$schema": "https://raw.githubusercontent.com/agentpm-dev/cli/refs/heads/main/schemas/agentpm.manifest.schema.json",
  "kind": "loop",
  "name": "tiny",
  "version": "1.0.0",
  "description": "A tiny loop.",
  "loop": {
    "entry_phase": "work",
    "phases": [{"id": "work", "objective": "Do the work."}],
    "transitions": [{"from": "work", "on": "complete", "to": "$end"}]
  }
}
"#;

// ------------------------------------------------------------------ size

#[test]
fn input_one_byte_over_64_mib_is_p004() {
    let mut bytes = VALID_AGENTPM.as_bytes().to_vec();
    bytes.resize(64 * MIB + 1, b' ');
    let diags = rejects("big.json", &bytes, &["P004"]);
    let msg = diags[0]["message"].as_str().unwrap_or("");
    assert!(
        msg.contains("67108865") && msg.contains("67108864"),
        "{msg}"
    );
    assert!(
        diags[0]["help"]
            .as_str()
            .unwrap_or("")
            .contains("--max-input-bytes")
    );
}

#[test]
fn input_of_exactly_64_mib_is_read() {
    // A valid loop padded with trailing spaces to exactly the limit.
    let mut bytes = VALID_AGENTPM.as_bytes().to_vec();
    bytes.resize(64 * MIB, b' ');
    let (_dir, path) = temp_file("exact.json", &bytes);
    let (code, diags) = check(&path, &[]);
    assert_eq!(code, 0, "{diags:#?}");
    assert!(!codes(&diags).contains(&"P004"));
}

#[test]
fn max_input_bytes_flag_and_stdin() {
    let bytes = VALID_AGENTPM.as_bytes();
    let (_dir, path) = temp_file("small.json", bytes);
    let at = bytes.len().to_string();
    let under = (bytes.len() - 1).to_string();
    assert_eq!(check(&path, &["--max-input-bytes", &at]).0, 0);
    let (code, diags) = check(&path, &["--max-input-bytes", &under]);
    assert_eq!((code, codes(&diags)), (1, vec!["P004"]));
    // Standard input is read only up to the limit plus one byte.
    let mut big = VALID_AGENTPM.as_bytes().to_vec();
    big.resize(64 * MIB + 1, b' ');
    let mut child = loopconv_process()
        .args(["check", "--format", "json", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        use std::io::Write as _;
        // The reader may stop early: a broken pipe is fine.
        let _ = stdin.write_all(&big);
    });
    let out = child.wait_with_output().expect("wait");
    writer.join().expect("the writer thread");
    assert_eq!(code_of(&out), 1);
    assert_eq!(codes(&diags_of(&out)), vec!["P004"]);
}

#[test]
fn too_many_values_is_p004() {
    // Small in bytes, huge in values: 33 million of them fit in 64 MiB and took 6.5 GB to
    // read before the value limit (1,000,000 by default).
    let zeros = format!("[{}0]", "0,".repeat(1_000_000));
    let diags = rejects("zeros.json", zeros.as_bytes(), &["P004"]);
    let msg = diags[0]["message"].as_str().unwrap_or("");
    assert!(msg.contains("more than 1000000 values"), "{msg}");
    line_col(&diags[0]);
    // The same limit for YAML, and inside a loop field (a small limit keeps this quick).
    let limits = loopconv::tree::ReadLimits {
        max_nodes: 1000,
        ..loopconv::tree::ReadLimits::default()
    };
    let opts = LoadOptions {
        limits,
        ..LoadOptions::default()
    };
    let zeros = format!("[{}0]", "0,".repeat(1000));
    let inside = format!(
        "{{\"name\": \"x\", \"type\": \"REAL\", \"actor\": \"a\", \"mission\": \"m\", \"inputs\": [{{\"name\": \"p\", \"default\": {zeros}}}]}}"
    );
    let keys: String = (0..1000).map(|i| format!("k{i}: 1\n")).collect();
    for (name, text) in [
        ("zeros.yaml", zeros.clone()),
        ("inside.json", inside.clone()),
        ("inside.yaml", inside),
        ("keys.yaml", keys),
    ] {
        let l = load(name, text.as_bytes(), &opts);
        let codes: Vec<Code> = l.diags.items().iter().map(|d| d.code).collect();
        assert_eq!(
            codes,
            vec![Code::TooLarge],
            "{name}: {:#?}",
            l.diags.items()
        );
        let d = &l.diags.items()[0];
        assert!(
            d.message.contains("too large to be a loop"),
            "{name}: {}",
            d.message
        );
        assert!(d.location.pos.is_some(), "{name}");
    }
}

#[test]
fn closed_output_pipe_is_not_a_crash() {
    // 20,000 unknown keys: megabytes of diagnostics for a reader that has gone away
    // (`loopconv check ... | head -1`): the binary stops writing, without a panic (`print!`
    // panics there, exit 101).
    let keys: Vec<String> = (0..20_000).map(|i| format!("\"k{i}\": 1")).collect();
    let text = VALID_AGENTPM.replacen('{', &format!("{{{},", keys.join(",")), 1);
    let (_dir, path) = temp_file("noisy.json", text.as_bytes());
    for args in [
        vec!["check", "--format", "json"],
        vec!["check", "--color", "never"],
    ] {
        let mut child = loopconv_process()
            .args(&args)
            .arg(&path)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("spawn");
        drop(child.stdout.take());
        drop(child.stderr.take());
        let status = child.wait().expect("wait");
        assert_eq!(status.code(), Some(1), "{args:?}");
    }
}

#[test]
fn missing_file_is_an_io_error() {
    let out = loopconv()
        .args(["check", "no/such/file.json"])
        .output()
        .expect("run");
    assert_eq!(code_of(&out), 2);
}

// ------------------------------------------------------------------ nesting

const DEEP: usize = 100_000;

#[test]
fn deep_json_is_p005() {
    let open = "[".repeat(DEEP);
    let balanced = format!("{}{}", "[".repeat(DEEP), "]".repeat(DEEP));
    let objects = format!("{}1{}", "{\"a\":".repeat(DEEP), "}".repeat(DEEP));
    let inside = format!("{{\"name\": {}}}", "[".repeat(DEEP));
    for (name, text) in [
        ("open.json", open),
        ("balanced.json", balanced),
        ("objects.json", objects),
        ("inside.json", inside),
    ] {
        let diags = rejects(name, text.as_bytes(), &["P005"]);
        let d = &diags[0];
        assert!(
            d["message"]
                .as_str()
                .unwrap_or("")
                .contains("nested more than 128 levels"),
            "{name}: {d:#}"
        );
        assert_eq!(line_col(d).0, 1, "{name}");
    }
}

#[test]
fn deep_yaml_is_p005() {
    let flow = "[".repeat(DEEP);
    let flow_maps = "{a: ".repeat(DEEP);
    // Block nesting: compact nested sequences (`- - - x`) 100,000 deep, and indented
    // mappings 2,000 deep (indentation makes deeper files quadratic in size).
    let compact = format!("{}x\n", "- ".repeat(DEEP));
    let indented: String = (0..2000)
        .map(|i| format!("{}a:\n", " ".repeat(i)))
        .collect();
    for (name, text) in [
        ("flow.yaml", flow),
        ("flow-maps.yaml", flow_maps),
        ("compact.yaml", compact),
        ("indented.yaml", indented),
    ] {
        let diags = rejects(name, text.as_bytes(), &["P005"]);
        let d = &diags[0];
        assert!(
            d["message"]
                .as_str()
                .unwrap_or("")
                .contains("nested more than 128 levels"),
            "{name}: {d:#}"
        );
        line_col(d);
    }
}

#[test]
fn nesting_within_the_limit_reaches_the_shape_check() {
    // 100 levels is allowed by the parser; the value is then just the wrong type.
    let text = format!(
        "{{\"kind\": \"loop\", \"name\": {}1{}}}",
        "[".repeat(100),
        "]".repeat(100)
    );
    let opts = LoadOptions {
        from: Some(loopconv::Format::Agentpm),
        ..LoadOptions::default()
    };
    let l = load("ok.json", text.as_bytes(), &opts);
    assert!(l.diags.items().iter().all(|d| d.code != Code::TooDeep));
    assert!(l.diags.items().iter().any(|d| d.code == Code::WrongType));
}

#[test]
fn deep_input_in_the_library_does_not_overflow_a_test_thread_stack() {
    // Test threads have 2 MiB stacks; the depth limit must protect them too.
    for (name, text) in [
        ("a.json", "[".repeat(DEEP)),
        ("a.yaml", "[".repeat(DEEP)),
        ("b.yaml", format!("{}x\n", "- ".repeat(DEEP))),
        ("c.json", format!("{}{}", "[".repeat(127), "]".repeat(127))),
        ("c.yaml", format!("{}{}", "[".repeat(127), "]".repeat(127))),
    ] {
        let l = load(name, text.as_bytes(), &LoadOptions::default());
        assert!(l.diags.has_errors(), "{name}");
    }
}

// ------------------------------------------------------------------ aliases

/// The classic billion laughs: nine levels of nine aliases, about 1 KB.
fn billion_laughs() -> String {
    let mut s = String::from("lol0: &l0 \"lol\"\n");
    for i in 1..10 {
        let refs = vec![format!("*l{}", i - 1); 9].join(", ");
        s.push_str(&format!("lol{i}: &l{i} [{refs}]\n"));
    }
    s
}

#[test]
fn billion_laughs_is_p006() {
    let bomb = billion_laughs();
    assert!(bomb.len() < 1200, "{} bytes", bomb.len());
    let diags = rejects("bomb.yaml", bomb.as_bytes(), &["P006"]);
    let d = &diags[0];
    assert!(
        d["message"].as_str().unwrap_or("").contains("alias"),
        "{d:#}"
    );
    assert!(
        d["help"].as_str().unwrap_or("").contains("alias bomb"),
        "{d:#}"
    );
    line_col(d);
    // Also when the format is forced and the bomb hides inside a loop field.
    let inside = format!(
        "name: x\ntype: REAL\nactor: a\nmission: m\ninputs:\n  - name: p\n    default:\n{}",
        bomb.lines()
            .map(|l| format!("      {l}\n"))
            .collect::<String>()
    );
    let (_dir, path) = temp_file("inside.yaml", inside.as_bytes());
    let (code, diags) = check(&path, &["--from", "mas"]);
    assert_eq!((code, codes(&diags)), (1, vec!["P006"]));
}

#[test]
fn alias_multiplied_scalar_is_p006() {
    // 100 KB of text referenced 1,000 times: 100 MB if expanded.
    let s = format!(
        "a: &a \"{}\"\nb: [{}]\n",
        "x".repeat(100_000),
        vec!["*a"; 1000].join(",")
    );
    let diags = rejects("scalar-bomb.yaml", s.as_bytes(), &["P006"]);
    assert!(diags[0]["message"].as_str().unwrap_or("").contains("alias"));
}

#[test]
fn a_few_aliases_are_fine() {
    let s = "name: x\ntype: REAL\nactor: &who builder\nmission: m\nfallback_agent: *who\n";
    let (_dir, path) = temp_file("alias.yaml", s.as_bytes());
    let (code, diags) = check(&path, &[]);
    assert_eq!(code, 0, "{diags:#?}");
}

// ------------------------------------------------------------------ phases

fn many_phases(n: usize) -> String {
    let phases: Vec<String> = (0..n)
        .map(|i| format!("{{\"id\": \"p{i}\", \"objective\": \"o\"}}"))
        .collect();
    let transitions: Vec<String> = (0..n)
        .map(|i| {
            let to = if i + 1 < n {
                format!("p{}", i + 1)
            } else {
                "$end".into()
            };
            format!("{{\"from\": \"p{i}\", \"on\": \"complete\", \"to\": \"{to}\"}}")
        })
        .collect();
    format!(
        "{{\"kind\": \"loop\", \"name\": \"many\", \"version\": \"1.0.0\", \"description\": \"d\",\n\"loop\": {{\"entry_phase\": \"p0\",\n\"phases\": [{}],\n\"transitions\": [{}]}}}}\n",
        phases.join(",\n"),
        transitions.join(",\n")
    )
}

#[test]
fn too_many_phases_is_p013() {
    let diags = rejects("many.json", many_phases(10_001).as_bytes(), &["P013"]);
    let d = &diags[0];
    assert!(
        d["message"].as_str().unwrap_or("").contains("10001"),
        "{d:#}"
    );
    assert_eq!(line_col(d).0, 3, "points at the phases array: {d:#}");
    // At the limit the loop is read (a warning about `$schema` only).
    let (_dir, path) = temp_file("limit.json", many_phases(10_000).as_bytes());
    let (code, diags) = check(&path, &[]);
    assert_eq!(code, 0, "{:?}", codes(&diags));
}

#[test]
fn max_phases_and_max_values_flags_raise_and_lower_the_limits() {
    // Over the default phase limit: P013, naming the flag; with the limit raised it is read.
    let (_dir, path) = temp_file("many.json", many_phases(10_001).as_bytes());
    let (code, diags) = check(&path, &[]);
    assert_eq!((code, codes(&diags)), (1, vec!["P013"]));
    let help = diags[0]["help"].as_str().unwrap_or("");
    assert!(help.contains("--max-phases"), "{help}");
    let (code, diags) = check(&path, &["--max-phases", "20000"]);
    assert_eq!(code, 0, "{:?}", codes(&diags));
    // Lowered below what a small example needs: P013 and P004, each naming its limit.
    let react = repo().join("examples/agentpm/react-loop.json");
    let (code, diags) = check(&react, &["--max-phases", "1"]);
    assert_eq!((code, codes(&diags)), (1, vec!["P013"]));
    let (code, diags) = check(&react, &["--max-values", "10"]);
    assert_eq!((code, codes(&diags)), (1, vec!["P004"]));
    let msg = diags[0]["message"].as_str().unwrap_or("");
    assert!(msg.contains("more than 10 values"), "{msg}");
    let help = diags[0]["help"].as_str().unwrap_or("");
    assert!(help.contains("--max-values"), "{help}");
    // The value limit can be raised past its default.
    let zeros = format!("[{}0]", "0,".repeat(1_000_000));
    let (_dir, path) = temp_file("zeros.json", zeros.as_bytes());
    let (_, diags) = check(&path, &["--max-values", "2000000"]);
    assert_eq!(codes(&diags), vec!["F003"], "read, then not an object");
    // Not a number: a usage error.
    let out = loopconv()
        .args(["check", "--max-phases", "many"])
        .arg(&react)
        .output()
        .expect("run loopconv");
    assert_eq!(code_of(&out), 2);
}

// ------------------------------------------------------------------ encoding

#[test]
fn invalid_utf8_is_p007_with_position() {
    let mut bytes = b"{\n  \"kind\": \"loop\",\n  \"name\": \"caf".to_vec();
    bytes.extend_from_slice(&[0xC3, 0x28]);
    bytes.extend_from_slice(b"\"\n}\n");
    let diags = rejects("latin1.json", &bytes, &["P007"]);
    assert_eq!(line_col(&diags[0]), (3, 15));
    let diags = rejects("latin1.yaml", b"name: \xff\xfe\n", &["P007"]);
    assert_eq!(line_col(&diags[0]), (1, 7));
    // UTF-16 (with its byte-order mark) is not UTF-8 either.
    let utf16: Vec<u8> = "\u{feff}{}"
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    rejects("utf16.json", &utf16, &["P007"]);
}

#[test]
fn byte_order_mark_is_a_warning_and_keeps_positions() {
    // A valid loop with a BOM: read, exit 0, one P009 warning.
    let mut bytes = "\u{feff}".as_bytes().to_vec();
    bytes.extend_from_slice(VALID_AGENTPM.as_bytes());
    let (_dir, path) = temp_file("bom.json", &bytes);
    let (code, diags) = check(&path, &[]);
    assert_eq!(code, 0, "{diags:#?}");
    assert_eq!(codes(&diags), vec!["P009"]);
    assert_eq!(diags[0]["severity"], "warning");
    assert_eq!(line_col(&diags[0]), (1, 1));
    // With an error in it: the same line and column as without the BOM.
    for (name, text) in [
        ("bad.json", VALID_AGENTPM.replace("\"tiny\"", "5")),
        (
            "bad.yaml",
            "name: x\ntype: REAL\nactor: 5\nmission: m\n".to_owned(),
        ),
    ] {
        let (_d1, plain) = temp_file(name, text.as_bytes());
        let (_d2, bom) = temp_file(name, format!("\u{feff}{text}").as_bytes());
        let (c1, d1) = check(&plain, &[]);
        let (c2, d2) = check(&bom, &[]);
        assert_eq!((c1, c2), (1, 1));
        let strip = |d: &[Value]| -> Vec<(String, u64, u64)> {
            d.iter()
                .filter(|d| d["code"] != "P009")
                .map(|d| (d["code"].to_string(), line_col(d).0, line_col(d).1))
                .collect()
        };
        assert_eq!(strip(&d1), strip(&d2), "{name}");
        assert!(codes(&d2).contains(&"P009"));
    }
}

#[test]
fn nul_byte_is_p010_with_position() {
    let diags = rejects("nul.json", b"{\n  \"name\": \"a\0b\"\n}\n", &["P010"]);
    assert_eq!(line_col(&diags[0]), (2, 13));
    let diags = rejects("nul.yaml", b"name: x\ntype: REAL\0\n", &["P010"]);
    assert_eq!(line_col(&diags[0]), (2, 11));
}

#[test]
fn empty_and_whitespace_only_are_p008() {
    for name in ["e.json", "e.yaml"] {
        for text in ["", " ", "\n\n", " \t\r\n  \n"] {
            rejects(name, text.as_bytes(), &["P008"]);
        }
    }
    // A YAML file of comments and document markers holds no document.
    rejects("c.yaml", b"# just a comment\n---\n", &["P008"]);
}

#[test]
fn document_that_is_not_an_object_is_f003() {
    for (name, text, found) in [
        ("s.json", "42", "a number"),
        ("s.json", "\"loop\"", "a string"),
        ("s.json", "true", "a boolean"),
        ("n.json", "null", "null"),
        ("a.json", "[1, 2]", "an array"),
        ("a.json", "[]", "an array"),
        ("s.yaml", "hello", "a string"),
        ("s.yaml", "42\n", "a number"),
        ("n.yaml", "null\n", "null"),
        ("n.yaml", "~\n", "null"),
        ("n.yaml", "--- null\n", "null"),
        ("a.yaml", "- a\n- b\n", "an array"),
        ("a.yaml", "[]\n", "an array"),
    ] {
        let diags = rejects(name, text.as_bytes(), &["F003"]);
        let d = &diags[0];
        assert_eq!(
            d["message"],
            format!("the document must be an object, found {found}"),
            "{name} {text:?}"
        );
        line_col(d);
        // Forcing a format gives the same verdict.
        let (_dir, path) = temp_file(name, text.as_bytes());
        for from in ["agentpm", "mas", "ir"] {
            let (code, diags) = check(&path, &["--from", from]);
            assert_eq!(code, 1, "{name} --from {from}");
            assert!(
                codes(&diags).contains(&"F003"),
                "{name} --from {from}: {diags:#?}"
            );
        }
    }
}

// ------------------------------------------------------------------ line endings

/// What must not change with line endings: code, severity, pointer, line and column.
type DiagKey = (Code, Severity, String, Option<(u32, u32)>);

fn to_crlf(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len() * 2);
    for &b in bytes {
        if b == b'\n' {
            out.push(b'\r');
        }
        out.push(b);
    }
    out
}

/// Every input with its line breaks rewritten by `rewrite` is the same loop with the same
/// diagnostics at the same lines and columns.
fn same_loop_and_positions(rewrite: fn(&[u8]) -> Vec<u8>, what: &str) {
    let mut compared = 0;
    for f in all_inputs() {
        let lf = std::fs::read(&f).expect("read");
        if lf.contains(&b'\r') {
            continue;
        }
        let name = f.file_name().and_then(|n| n.to_str()).unwrap_or("x.json");
        let a = load(name, &lf, &LoadOptions::default());
        let b = load(name, &rewrite(&lf), &LoadOptions::default());
        let key = |l: &loopconv::Loaded| -> Vec<DiagKey> {
            l.diags
                .items()
                .iter()
                .map(|d| {
                    (
                        d.code,
                        d.severity,
                        d.location.pointer.clone(),
                        d.location.pos.map(|p| (p.line, p.column)),
                    )
                })
                .collect()
        };
        assert_eq!(key(&a), key(&b), "{}: {what}", f.display());
        assert_eq!(
            a.spec
                .as_ref()
                .map(|s| serde_json::to_value(s).expect("the IR serialises")),
            b.spec
                .as_ref()
                .map(|s| serde_json::to_value(s).expect("the IR serialises")),
            "{}: {what} changed the loop",
            f.display()
        );
        compared += 1;
    }
    assert!(compared > 0, "no example or corpus file found");
}

#[test]
fn crlf_gives_the_same_loop_and_positions() {
    same_loop_and_positions(to_crlf, "CRLF");
}

/// A lone carriage return is a line break (YAML's and editors' rule; classic Mac files):
/// the positions of such a file are on the lines an editor shows.
#[test]
fn cr_gives_the_same_loop_and_positions() {
    same_loop_and_positions(
        |b| {
            b.iter()
                .map(|&c| if c == b'\n' { b'\r' } else { c })
                .collect()
        },
        "CR",
    );
}

#[test]
fn crlf_positions_by_hand() {
    let text = "name: x\r\ntype: REAL\r\nactor: 5\r\nmission: [1]\r\n";
    let diags = rejects("crlf.yaml", text.as_bytes(), &["F003", "F003"]);
    assert_eq!(line_col(&diags[0]), (3, 8));
    assert_eq!(line_col(&diags[1]), (4, 10));
    let json = VALID_AGENTPM.replace("\"tiny\"", "5").replace('\n', "\r\n");
    let diags = rejects("crlf.json", json.as_bytes(), &["F003"]);
    assert_eq!(line_col(&diags[0]), (4, 11));
}

// ------------------------------------------------------------------ every command

#[test]
fn hostile_inputs_never_crash_any_command() {
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("deep.json", "[".repeat(DEEP).into_bytes()),
        (
            "deep.yaml",
            format!("{}x\n", "- ".repeat(DEEP)).into_bytes(),
        ),
        ("bomb.yaml", billion_laughs().into_bytes()),
        ("nul.json", b"{\0}".to_vec()),
        ("utf8.json", b"{\"a\": \"\xff\"}".to_vec()),
        ("empty.yaml", Vec::new()),
        ("null.yaml", b"null\n".to_vec()),
        ("array.json", b"[]".to_vec()),
        ("bom.json", b"\xef\xbb\xbf".to_vec()),
        (
            "example.json",
            example("examples/invalid/P001-syntax-error.json"),
        ),
    ];
    for (name, bytes) in &cases {
        let (dir, path) = temp_file(name, bytes);
        let out_dir = dir.path().join("out");
        let p = path.to_str().expect("utf-8 path");
        let o = out_dir.to_str().expect("utf-8 path");
        for args in [
            vec!["check", p],
            vec!["convert", p, "--to", "mas", "--allow-lossy", "--actor", "a"],
            vec!["convert", p, "--to", "agentpm"],
            vec!["convert", p, "--to", "ir"],
            vec!["graph", p],
            vec!["graph", p, "--dot"],
            vec!["docs", p, "-o", o],
        ] {
            let out = loopconv().args(&args).output().expect("run");
            assert_eq!(
                code_of(&out),
                1,
                "{name}: {args:?}\n{}",
                String::from_utf8_lossy(&out.stderr)
            );
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(
                err.contains("error["),
                "{name}: {args:?}: no diagnostic:\n{err}"
            );
        }
    }
}
