//! Determinism (issue 4, item 4): the same input gives the same bytes.
//!
//! * in one process: every back end (AgentPM, MAS, IR, Mermaid in both styles, DOT with and
//!   without legend, PlantUML, Markdown page and index) run twice on every example and corpus file,
//!   each time from a fresh read, and the diagnostics of every file rendered twice;
//! * across processes: `loopconv check --format json` (and the human form, and
//!   `convert --to ir`) run twice over the examples and the corpus. Each process hashes
//!   with its own random keys, so any output that depended on `HashMap` order would differ.

use std::path::{Path, PathBuf};
use std::process::Command;

use loopconv::back::{self, ConvertOptions};
use loopconv::diag::{self, Diagnostics};
use loopconv::format::{self, Format, LoadOptions, load};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn loop_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = rd.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            loop_files(&p, out);
        } else if p
            .extension()
            .is_some_and(|e| e == "json" || e == "yaml" || e == "yml")
        {
            out.push(p);
        }
    }
}

/// Every example and corpus file, valid or not.
fn inputs() -> Vec<PathBuf> {
    let mut v = Vec::new();
    loop_files(&Path::new(ROOT).join("examples"), &mut v);
    loop_files(&Path::new(ROOT).join("../shared/corpus"), &mut v);
    v
}

/// Everything loopconv produces for one file, from a fresh read: rendered diagnostics, and
/// for a valid loop every back end's output (and its conversion diagnostics).
fn outputs(path: &Path) -> Vec<(String, String)> {
    let name = path.display().to_string();
    let bytes = std::fs::read(path).expect("read");
    let l = load(&name, &bytes, &LoadOptions::default());
    let source = l.doc.as_ref().map(|d| d.text.as_str());
    let mut out = vec![
        (
            "json diagnostics".to_owned(),
            diag::render_json(l.diags.items()),
        ),
        (
            "human diagnostics".to_owned(),
            diag::render_human(l.diags.items(), source, false),
        ),
    ];
    let Some((spec, info)) = l.valid() else {
        return out;
    };
    for (label, style) in [
        ("mermaid flowchart", back::mermaid::Style::Flowchart),
        ("mermaid state", back::mermaid::Style::State),
    ] {
        out.push((
            label.to_owned(),
            back::mermaid::write(spec, info, &back::mermaid::Options { style }),
        ));
    }
    for legend in [false, true] {
        out.push((
            format!("dot legend={legend}"),
            back::dot::write(spec, info, &back::dot::Options { legend }),
        ));
    }
    out.push(("plantuml".to_owned(), back::plantuml::write(spec, info)));
    let md = back::markdown::Options::default();
    out.push((
        "markdown".to_owned(),
        back::markdown::write(spec, info, &name, &md).expect("markdown"),
    ));
    let entry = back::markdown::IndexEntry {
        name: spec.name.clone(),
        file_name: format!("{}.md", spec.name),
        description: spec.description.clone(),
        source: name.clone(),
    };
    out.push((
        "markdown index".to_owned(),
        back::markdown::index(&[entry], &md).expect("index"),
    ));
    let opts = ConvertOptions {
        allow_lossy: true,
        actor: Some("actor".into()),
        validator: Some("validator".into()),
        ..ConvertOptions::default()
    };
    for to in Format::ALL {
        let mut diags = Diagnostics::new(&name);
        let text = format::write(spec, info, to, &opts, &mut diags).expect("write");
        out.push((to.name().to_owned(), text));
        out.push((
            format!("{} conversion diagnostics", to.name()),
            diag::render_json(diags.items()),
        ));
    }
    out
}

#[test]
fn every_back_end_twice_gives_the_same_bytes() {
    let files = inputs();
    assert!(!files.is_empty(), "no example or corpus file");
    for f in &files {
        let a = outputs(f);
        let b = outputs(f);
        assert_eq!(a.len(), b.len(), "{}", f.display());
        for ((label, x), (_, y)) in a.iter().zip(&b) {
            assert!(x == y, "{}: {label} differs between two runs", f.display());
        }
    }
}

fn run(args: &[&str]) -> (Option<i32>, Vec<u8>, Vec<u8>) {
    let out = Command::new(env!("CARGO_BIN_EXE_loopconv"))
        .current_dir(ROOT)
        .env("NO_COLOR", "1")
        .args(args)
        .output()
        .expect("run loopconv");
    (out.status.code(), out.stdout, out.stderr)
}

#[test]
fn check_in_two_processes_gives_the_same_output() {
    let mut dirs = vec!["examples".to_owned()];
    if Path::new(ROOT).join("../shared/corpus").is_dir() {
        dirs.push("../shared/corpus".to_owned());
    }
    let dirs: Vec<&str> = dirs.iter().map(String::as_str).collect();
    let json: Vec<&str> = ["check", "--format", "json"]
        .into_iter()
        .chain(dirs.iter().copied())
        .collect();
    let a = run(&json);
    let b = run(&json);
    assert_eq!(a.0, Some(1), "the examples include invalid files");
    assert!(!a.1.is_empty(), "no JSON output");
    serde_json::from_slice::<serde_json::Value>(&a.1).expect("one JSON document");
    assert!(
        a == b,
        "`check --format json` differs between two processes"
    );
    let human: Vec<&str> = ["check", "--color", "never"]
        .into_iter()
        .chain(dirs.iter().copied())
        .collect();
    assert!(
        run(&human) == run(&human),
        "`check` differs between two processes"
    );
}

#[test]
fn convert_in_two_processes_gives_the_same_output() {
    let mut files = Vec::new();
    loop_files(&Path::new(ROOT).join("examples/agentpm"), &mut files);
    loop_files(&Path::new(ROOT).join("examples/mas"), &mut files);
    for f in files {
        let p = f.to_str().expect("utf-8 path");
        for to in ["ir", "agentpm", "mas"] {
            let args = [
                "convert",
                p,
                "--to",
                to,
                "--allow-lossy",
                "--actor",
                "a",
                "--validator",
                "v",
            ];
            let a = run(&args);
            assert!(
                a == run(&args),
                "{p} --to {to} differs between two processes"
            );
        }
    }
}
