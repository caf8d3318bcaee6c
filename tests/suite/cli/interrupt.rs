//! Folder outputs are all or nothing: a new target folder appears complete or not at all,
//! even when `convert` is killed with `kill -9` at any moment; a write that would fail (a
//! folder where a file must go, a file where a folder must go) is found before anything is
//! written; a run that fails validation leaves the target folder as it was.

use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::support::{files_under, loopconv_process as loopconv};

/// Every entry below `dir` (folders too, hidden ones included), relative, sorted; empty when
/// `dir` does not exist.
fn entries_under(dir: &Path) -> Vec<String> {
    fn collect(root: &Path, dir: &Path, out: &mut Vec<String>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let p = e.path();
            let rel = p.strip_prefix(root).unwrap_or(&p);
            out.push(rel.to_string_lossy().replace('\\', "/"));
            if p.is_dir() {
                collect(root, &p, out);
            }
        }
    }
    let mut out = Vec::new();
    collect(dir, dir, &mut out);
    out.sort();
    out
}

/// Every file below `dir` with its contents, relative paths, sorted; `None` when `dir` does
/// not exist.
fn contents_under(dir: &Path) -> Option<Vec<(String, Vec<u8>)>> {
    std::fs::symlink_metadata(dir).ok()?;
    let files = files_under(dir)
        .into_iter()
        .map(|f| {
            let rel = f.strip_prefix(dir).unwrap_or(&f);
            let bytes = std::fs::read(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            (rel.to_string_lossy().replace('\\', "/"), bytes)
        })
        .collect();
    Some(files)
}

/// A folder of `n` small REAL loops, `loop-0.yaml` to `loop-{n-1}.yaml`.
fn loop_folder(dir: &Path, n: usize) {
    std::fs::create_dir_all(dir).expect("mkdir");
    for i in 0..n {
        let yaml = format!(
            "name: loop-{i}\ntype: REAL\nactor: dev\nmission: \"m {i}\"\nmax_attempts: 2\n"
        );
        std::fs::write(dir.join(format!("loop-{i}.yaml")), yaml).expect("write");
    }
}

/// `convert SRC --to agentpm --allow-lossy -o OUT`, not yet run.
fn convert(src: &Path, out: &Path) -> std::process::Command {
    let mut c = loopconv();
    c.arg("convert")
        .arg(src)
        .args(["--to", "agentpm", "--allow-lossy", "-o"])
        .arg(out)
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    c
}

/// Whatever a killed run left beside the target is hidden staging (`.loopconv-*.tmp`);
/// removed, so that the next run starts clean.
fn remove_staging(parent: &Path, keep: &[&str]) {
    for e in std::fs::read_dir(parent).expect("read_dir").flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if keep.contains(&name.as_str()) {
            continue;
        }
        assert!(
            name.starts_with(".loopconv-") && name.ends_with(".tmp"),
            "a killed run left {name} beside the target"
        );
        std::fs::remove_dir_all(e.path()).expect("remove staging");
    }
}

/// `kill -9` at many moments of a large folder conversion into a new folder: the target is
/// then absent or holds exactly what a run to the end writes, never part of it.
#[test]
fn killed_folder_conversion_leaves_the_new_target_absent_or_complete() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let src = tmp.path().join("loops");
    loop_folder(&src, 2000);
    let reference = tmp.path().join("reference");
    let started = Instant::now();
    let status = convert(&src, &reference).status().expect("run");
    let whole = started.elapsed();
    assert_eq!(status.code(), Some(0));
    let expected = contents_under(&reference).expect("the reference output");
    assert_eq!(expected.len(), 2000, "one agent.json per loop");

    let out = tmp.path().join("out");
    let (mut absent, mut complete) = (0, 0);
    // Timed kills across the whole run, and one the moment the target folder appears
    // (`None`): the moment a partial folder would be seen.
    let moments = [5, 20, 40, 60, 80, 95].map(|pct| Some(whole * pct / 100));
    for moment in moments.into_iter().chain([None]) {
        let mut child = convert(&src, &out).spawn().expect("spawn");
        match moment {
            Some(delay) => std::thread::sleep(delay),
            None => {
                let deadline = Instant::now() + whole * 4;
                while std::fs::symlink_metadata(&out).is_err() && Instant::now() < deadline {
                    std::thread::sleep(Duration::from_micros(200));
                }
            }
        }
        child.kill().expect("kill");
        child.wait().expect("wait");
        match contents_under(&out) {
            None => absent += 1,
            Some(found) => {
                assert!(
                    found == expected,
                    "killed after {moment:?}: {} holds {} of the {} files, or other contents",
                    out.display(),
                    found.len(),
                    expected.len()
                );
                complete += 1;
                std::fs::remove_dir_all(&out).expect("remove");
            }
        }
        remove_staging(tmp.path(), &["loops", "reference"]);
    }
    assert!(
        absent > 0,
        "no kill came before the end ({complete} complete)"
    );
    assert!(
        complete > 0,
        "no kill came after the rename ({absent} absent)"
    );
}

/// A folder where one output file must go (`docs-refresh/agent.json`): exit 2, naming it,
/// and nothing is written, not even the outputs that could have been; the same for `docs`.
#[test]
fn a_folder_in_the_way_of_one_output_writes_nothing() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("packages");
    std::fs::create_dir_all(out.join("docs-refresh/agent.json")).expect("mkdir");
    let run = loopconv()
        .args([
            "convert",
            "examples/mas",
            "--to",
            "agentpm",
            "--allow-lossy",
        ])
        .args(["--actor", "a", "--validator", "v", "-o"])
        .arg(&out)
        .output()
        .expect("run");
    let err = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{err}");
    assert!(err.contains("docs-refresh/agent.json"), "{err}");
    assert_eq!(
        entries_under(&out),
        ["docs-refresh", "docs-refresh/agent.json"],
        "{err}"
    );

    let docs = tmp.path().join("docs");
    std::fs::create_dir_all(docs.join("index.md")).expect("mkdir");
    let run = loopconv()
        .args(["docs", "examples", "-o"])
        .arg(&docs)
        .output()
        .expect("run");
    let err = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{err}");
    assert!(err.contains("index.md"), "{err}");
    assert_eq!(entries_under(&docs), ["index.md"], "{err}");
}

/// A regular file where a folder must be (works as root, which ignores permission bits):
/// above the new target folder, or inside an existing one below which another output would
/// go first. Exit 2, and nothing is created, not even an empty folder.
#[test]
fn a_file_in_the_way_of_an_output_folder_writes_nothing() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let blocker = tmp.path().join("file");
    std::fs::write(&blocker, "a file\n").expect("write");
    let run = loopconv()
        .args([
            "convert",
            "examples/mas",
            "--to",
            "agentpm",
            "--allow-lossy",
        ])
        .args(["--actor", "a", "--validator", "v", "-o"])
        .arg(blocker.join("packages"))
        .output()
        .expect("run");
    let err = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{err}");
    assert_eq!(entries_under(tmp.path()), ["file"], "{err}");
    assert_eq!(std::fs::read_to_string(&blocker).expect("read"), "a file\n");

    // An existing target whose `sub` is a file: `alpha/agent.json` (first in order) is not
    // written either, and no `alpha` folder is left.
    let src = tmp.path().join("src");
    std::fs::create_dir_all(src.join("sub")).expect("mkdir");
    for (path, name) in [("alpha.yaml", "alpha"), ("sub/beta.yaml", "beta")] {
        let yaml = format!("name: {name}\ntype: REAL\nactor: dev\nmission: m\n");
        std::fs::write(src.join(path), yaml).expect("write");
    }
    let out = tmp.path().join("out");
    std::fs::create_dir(&out).expect("mkdir");
    std::fs::write(out.join("sub"), "a file\n").expect("write");
    let run = convert(&src, &out)
        .stderr(Stdio::piped())
        .output()
        .expect("run");
    let err = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{err}");
    assert!(err.contains("sub"), "{err}");
    assert_eq!(entries_under(&out), ["sub"], "{err}");
}

#[test]
fn failed_validation_leaves_the_target_folder_as_it_was() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let src = tmp.path().join("loops");
    std::fs::create_dir_all(&src).expect("mkdir");
    std::fs::write(
        src.join("good.yaml"),
        "name: good\ntype: REAL\nactor: dev\nmission: m\n",
    )
    .expect("write");
    std::fs::write(src.join("bad.yaml"), "name: Bad\ntype: REAL\nactor: dev\n").expect("write");
    let out = tmp.path().join("out");
    std::fs::create_dir_all(out.join("good")).expect("mkdir");
    std::fs::write(out.join("good/agent.json"), "old contents\n").expect("write");
    std::fs::write(out.join("keep.txt"), "unrelated\n").expect("write");

    let status = convert(&src, &out).status().expect("run");
    assert_eq!(status.code(), Some(1));
    assert_eq!(
        files_under(&out),
        vec![out.join("good/agent.json"), out.join("keep.txt")]
    );
    assert_eq!(
        std::fs::read_to_string(out.join("good/agent.json")).expect("read"),
        "old contents\n"
    );

    // docs: a failing loop means no page at all.
    let docs = tmp.path().join("docs");
    let status = loopconv()
        .args(["docs", "-o"])
        .arg(&docs)
        .arg(&src)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("run");
    assert_eq!(status.code(), Some(1));
    assert!(
        !docs.exists(),
        "docs wrote something despite an invalid loop"
    );
}
