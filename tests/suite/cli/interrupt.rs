//! A `convert` killed midway leaves no partial or truncated output: every output file that
//! exists is complete (it was renamed into place whole), and nothing else is left but hidden
//! `.loopconv-*.tmp` staging files.

use std::process::Stdio;
use std::time::Duration;

use crate::support::{files_under, loopconv_process as loopconv};

#[test]
fn killed_folder_conversion_leaves_no_partial_file() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let src = tmp.path().join("loops");
    std::fs::create_dir_all(&src).expect("mkdir");
    // Enough loops that the conversion is still running when it is killed.
    let long = "x".repeat(20_000);
    for i in 0..400 {
        let yaml = format!(
            "name: loop-{i}\ntype: REAL\nactor: dev\nmission: \"{long} {i}\"\nmax_attempts: 2\n"
        );
        std::fs::write(src.join(format!("loop-{i}.yaml")), yaml).expect("write");
    }
    let out = tmp.path().join("out");
    // Kill it at several moments: early, midway, late.
    for delay in [20, 80, 200] {
        let _ = std::fs::remove_dir_all(&out);
        let mut child = loopconv()
            .args(["convert", "--to", "agentpm", "--allow-lossy", "-o"])
            .arg(&out)
            .arg(&src)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn");
        std::thread::sleep(Duration::from_millis(delay));
        let _ = child.kill();
        let _ = child.wait();
        if !out.exists() {
            continue;
        }
        for f in files_under(&out) {
            let name = f.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            if name.starts_with(".loopconv-") && name.ends_with(".tmp") {
                continue; // a staging file, never a target
            }
            assert_eq!(name, "agent.json", "unexpected file {}", f.display());
            let text = std::fs::read_to_string(&f).expect("read output");
            let v: serde_json::Value = serde_json::from_str(&text)
                .unwrap_or_else(|e| panic!("{} is partial or truncated: {e}", f.display()));
            assert_eq!(v["kind"], "loop", "{}", f.display());
            assert!(text.ends_with("}\n"), "{} is truncated", f.display());
        }
    }
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

    let status = loopconv()
        .args(["convert", "--to", "agentpm", "--allow-lossy", "-o"])
        .arg(&out)
        .arg(&src)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("run");
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
