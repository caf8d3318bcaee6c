//! `loopconv completions` and `loopconv man`: the completion scripts are produced for every
//! shell and bash sources its script without error; `man -l` renders the page without
//! warnings.

use crate::support;

use std::process::Command;

use crate::support::loopconv;

fn stdout_of(args: &[&str]) -> String {
    let out = loopconv().args(args).assert().success();
    String::from_utf8(out.get_output().stdout.clone()).expect("utf-8")
}

#[test]
fn completions_for_every_shell() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let text = stdout_of(&["completions", shell]);
        assert!(text.contains("loopconv"), "{shell}");
        assert!(
            text.contains("explain"),
            "{shell}: subcommands are completed"
        );
    }
}

#[test]
fn bash_sources_the_completion_script() {
    let text = stdout_of(&["completions", "bash"]);
    let tmp = tempfile::tempdir().expect("tempdir");
    let path = tmp.path().join("loopconv.bash");
    std::fs::write(&path, text).expect("write");
    // Source it, then ask the completion function for `loopconv ch<TAB>`.
    let script = format!(
        "set -e; source {}; complete -p loopconv; COMP_WORDS=(loopconv ch); COMP_CWORD=1; COMP_LINE='loopconv ch'; COMP_POINT=11; _loopconv loopconv ch loopconv; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        path.display()
    );
    let out = Command::new("bash")
        .args(["--norc", "--noprofile", "-c", &script])
        .output()
        .expect("bash runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && stderr.is_empty(), "{stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.lines().any(|l| l == "check"), "{stdout}");
}

#[test]
fn man_page_renders_without_warnings() {
    let have_man = Command::new("man").arg("--version").output().is_ok();
    if support::skip_without_tool(have_man, "man (man-db)") {
        return;
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    // Every page the main page names (`loopconv-check(1)`, ...) is there: `loopconv man
    // check`.
    let main = loopconv().arg("man").output().expect("runs");
    let main = String::from_utf8(main.stdout).expect("UTF-8");
    let named: Vec<&str> = main
        .lines()
        .filter_map(|l| l.strip_prefix("loopconv\\-")?.strip_suffix("(1)"))
        .collect();
    assert!(named.contains(&"check") && named.len() > 5, "{main}");
    for command in named {
        let out = loopconv().args(["man", command]).output().expect("runs");
        let page = String::from_utf8(out.stdout).expect("UTF-8");
        assert!(out.status.success(), "{command}");
        assert!(
            page.contains(&format!(".TH loopconv-{command} 1")),
            "{command}: {page}"
        );
        assert!(
            command == "help" || page.contains(".SH OPTIONS"),
            "{command}: {page}"
        );
    }
    let page = tmp.path().join("loopconv.1");
    loopconv().args(["man", "-o"]).arg(&page).assert().success();
    let out = Command::new("man")
        .arg("-l")
        .arg(&page)
        .env("MANWIDTH", "80")
        .env("MAN_KEEP_FORMATTING", "0")
        .env("MANROFFOPT", "-ww")
        .env("MANPAGER", "cat")
        .env("PAGER", "cat")
        .output()
        .expect("man runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.trim().is_empty(), "warnings: {stderr}");
    // Without a terminal, man may still embolden with overstrike (`N\x08N`): undo it.
    let mut text = String::new();
    for c in String::from_utf8_lossy(&out.stdout).chars() {
        if c == '\u{8}' {
            text.pop();
        } else {
            text.push(c);
        }
    }
    for part in ["NAME", "loopconv", "SYNOPSIS", "SUBCOMMANDS", "explain"] {
        assert!(text.contains(part), "missing {part}:\n{text}");
    }
}
