//! The hostile shapes of issue 45, each of about a given size: inputs within the default
//! limits that were quadratic somewhere (`scripts/bench.sh` times them at 1 MB and 10 MB
//! against `check` of an ordinary loop of the same size, [`ordinary`], and shows them
//! against the cheapest one, [`plain`], too).

/// The head of an AgentPM loop named `name`, up to its `loop` object's members.
fn head(name: &str) -> String {
    format!(
        r#"{{"$schema": "https://raw.githubusercontent.com/agentpm-dev/cli/refs/heads/main/schemas/agentpm.manifest.schema.json", "kind": "loop", "name": "{name}", "version": "0.1.0", "description": "A hostile shape.", "loop": {{"#
    )
}

/// A chain of phases `p0 -> p1 -> ... -> $end`, each with one outcome and an objective
/// of about a kilobyte (10 MB is then within the default limit of 10,000 phases), of
/// about `bytes`; with `back`, every phase but the first has a second outcome, `back`, to
/// the phase before it (a transition added per phase, for `diff`).
fn chain(name: &str, bytes: usize, back: bool) -> String {
    let n = (bytes / 1_150).max(2);
    let text =
        "Read the issue, find the files it names, and write down what to change. ".repeat(13);
    let mut s = head(name);
    s.push_str(r#""entry_phase": "p0", "phases": ["#);
    for i in 0..n {
        if i > 0 {
            s.push_str(", ");
        }
        s.push_str(&format!(
            r#"{{"id": "p{i}", "objective": "Step {i}: {text}", "outcomes": [{{"id": "done", "description": "Step {i} is done."}}"#
        ));
        if back && i > 0 {
            s.push_str(r#", {"id": "back", "description": "Go back."}"#);
        }
        s.push_str("]}");
    }
    s.push_str(r#"], "transitions": ["#);
    for i in 0..n {
        if i > 0 {
            s.push_str(", ");
        }
        let to = if i + 1 < n {
            format!("p{}", i + 1)
        } else {
            "$end".to_owned()
        };
        s.push_str(&format!(
            r#"{{"from": "p{i}", "on": "done", "to": "{to}"}}"#
        ));
        if back && i > 0 {
            s.push_str(&format!(
                r#", {{"from": "p{i}", "on": "back", "to": "p{}"}}"#,
                i - 1
            ));
        }
    }
    s.push_str("]}}\n");
    s
}

/// A plain valid loop of about `bytes`, of the cheapest bytes a loop has (few values, long
/// texts): the rows' first reference, kept beside [`ordinary`].
pub fn plain(bytes: usize) -> String {
    chain("plain", bytes, false)
}

/// An ordinary loop of about `bytes`: the generator's loop of `loop-10000.json`
/// ([`super::agentpm_loop`]: three outcomes a phase, a checkpoint every 25 phases, 24-word
/// objectives), with as many phases as fit (about 808 bytes a phase; 10 MB is then about
/// 13,000 phases, over the default limit of 10,000). The reference of the rows' goal.
pub fn ordinary(bytes: usize) -> String {
    super::agentpm_loop("ordinary", (bytes / 808).max(2), 42)
}

/// The same loop with a `back` outcome and transition on every phase but the first (for
/// `diff`).
pub fn plain_changed(bytes: usize) -> String {
    chain("plain", bytes, true)
}

/// One phase with as many outcomes as fit, each with its transition (valid).
pub fn one_phase_outcomes(bytes: usize) -> String {
    let n = (bytes / 95).max(1);
    let mut s = head("wide");
    s.push_str(r#""entry_phase": "a", "phases": [{"id": "a", "objective": "Act.", "outcomes": ["#);
    for i in 0..n {
        if i > 0 {
            s.push_str(", ");
        }
        s.push_str(&format!(r#"{{"id": "o{i}", "description": "Outcome."}}"#));
    }
    s.push_str(r#"]}], "transitions": ["#);
    for i in 0..n {
        if i > 0 {
            s.push_str(", ");
        }
        s.push_str(&format!(r#"{{"from": "a", "on": "o{i}", "to": "$end"}}"#));
    }
    s.push_str("]}}\n");
    s
}

/// A valid loop whose `loop` object repeats one key as often as fits (`P014` warnings).
pub fn repeated_keys(bytes: usize) -> String {
    let n = (bytes / 21).max(1);
    let mut s = head("repeats");
    for _ in 0..n {
        s.push_str(r#""entry_phase": "a", "#);
    }
    s.push_str(r#""phases": [{"id": "a", "objective": "Act."}], "transitions": [{"from": "a", "on": "complete", "to": "$end"}]}}"#);
    s.push('\n');
    s
}

/// Transitions to long phase ids that are not declared (each a did-you-mean against the
/// declared ones), 1,000 characters each.
pub fn long_invalid_ids(bytes: usize) -> String {
    let n = (bytes / 1_050).max(1);
    let mut s = head("long-ids");
    s.push_str(r#""entry_phase": "a", "phases": [{"id": "a", "objective": "Act.", "outcomes": ["#);
    for i in 0..n {
        if i > 0 {
            s.push_str(", ");
        }
        s.push_str(&format!(r#"{{"id": "o{i}", "description": "O."}}"#));
    }
    s.push_str(r#"]}], "transitions": ["#);
    let long = "x".repeat(1_000);
    for i in 0..n {
        if i > 0 {
            s.push_str(", ");
        }
        s.push_str(&format!(
            r#"{{"from": "a", "on": "o{i}", "to": "{long}{i}"}}"#
        ));
    }
    s.push_str("]}}\n");
    s
}

/// A minified loop (one line) whose one phase has as many unknown keys as fit: a
/// diagnostic each, all on one long line.
pub fn one_line_diagnostics(bytes: usize) -> String {
    let n = (bytes / 12).max(1);
    let mut s = head("one-line");
    s.push_str(r#""entry_phase": "a", "phases": [{"id": "a", "objective": "Act.""#);
    for i in 0..n {
        s.push_str(&format!(r#", "u{i}": 0"#));
    }
    s.push_str(r#"}], "transitions": [{"from": "a", "on": "complete", "to": "$end"}]}}"#);
    s
}
