//! Renderings of a [`Diff`]: plain text, JSON and a Markdown pull-request comment with a
//! Mermaid diagram of the new loop (added parts green, removed parts red and dashed,
//! changed parts amber).

use std::collections::BTreeSet;
use std::fmt::Write as _;

use serde::Serialize;

use crate::analysis::diff::{Change, Diff, Impact, Kind};
use crate::ir::Spec;

/// The JSON form: the two files, the counts and every change.
pub fn json(diff: &Diff, old_file: &str, new_file: &str) -> String {
    #[derive(Serialize)]
    struct Out<'a> {
        old: &'a str,
        new: &'a str,
        breaking: usize,
        compatible: usize,
        renames: &'a std::collections::BTreeMap<String, String>,
        changes: &'a [Change],
    }
    let out = Out {
        old: old_file,
        new: new_file,
        breaking: diff.breaking(),
        compatible: diff.changes.len() - diff.breaking(),
        renames: &diff.renames,
        changes: &diff.changes,
    };
    let mut s = serde_json::to_string_pretty(&out).unwrap_or_default();
    s.push('\n');
    s
}

fn kind(k: Kind) -> &'static str {
    match k {
        Kind::Added => "added",
        Kind::Removed => "removed",
        Kind::Changed => "changed",
        Kind::Renamed => "renamed",
    }
}

fn impact(i: Impact) -> &'static str {
    match i {
        Impact::Breaking => "breaking",
        Impact::Compatible => "compatible",
    }
}

fn values(c: &Change) -> String {
    match (&c.old, &c.new) {
        (Some(o), Some(n)) => format!(": {o} → {n}"),
        (Some(o), None) => format!(": was {o}"),
        (None, Some(n)) => format!(": {n}"),
        (None, None) => String::new(),
    }
}

/// The text form: a summary line, then one line per change.
pub fn text(diff: &Diff, old_file: &str, new_file: &str) -> String {
    let mut s = format!(
        "{old_file} → {new_file}: {} change{}, {} breaking\n",
        diff.changes.len(),
        if diff.changes.len() == 1 { "" } else { "s" },
        diff.breaking()
    );
    for c in &diff.changes {
        let _ = writeln!(
            s,
            "{:<10} {} {} `{}`{} ({})",
            impact(c.impact),
            kind(c.kind),
            c.element,
            c.id,
            clean(&values(c), 200),
            c.reason
        );
    }
    s
}

/// One line of at most `max` characters, without control characters.
fn clean(s: &str, max: usize) -> String {
    let mut out: String = s
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(max)
        .collect();
    if s.chars().count() > max {
        out.push('…');
    }
    out
}

/// Markdown for a table cell: HTML and Markdown specials neutralised.
fn cell(s: &str) -> String {
    let mut out = String::new();
    for c in clean(s, 160).chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '|' | '`' | '*' | '_' | '[' | ']' | '\\' | '#' | '~' | '$' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

/// The Markdown form: a summary, a table of changes and the Mermaid diagram.
pub fn markdown(diff: &Diff, old: &Spec, new: &Spec, old_file: &str, new_file: &str) -> String {
    let b = diff.breaking();
    let mut s = format!(
        "### Loop changes: `{}`\n\n",
        cell(&new.name).replace('`', "")
    );
    let verdict = if b > 0 {
        "⚠️ **breaking**"
    } else {
        "✅ compatible"
    };
    let _ = writeln!(
        s,
        "{verdict}: {} change{}, {b} breaking ({} → {}).\n",
        diff.changes.len(),
        if diff.changes.len() == 1 { "" } else { "s" },
        cell(old_file),
        cell(new_file)
    );
    if !diff.changes.is_empty() {
        s.push_str("| impact | change | element | id | why |\n|---|---|---|---|---|\n");
        for c in &diff.changes {
            let _ = writeln!(
                s,
                "| {} | {} | {} | {}{} | {} |",
                impact(c.impact),
                kind(c.kind),
                c.element,
                cell(&c.id),
                cell(&values(c)),
                cell(&c.reason)
            );
        }
        s.push('\n');
    }
    s.push_str("```mermaid\n");
    s.push_str(&mermaid(diff, old, new));
    s.push_str("```\n");
    s
}

/// Mermaid text for an id: letters, digits and `-` as they are, everything else as an
/// entity code.
fn m(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c.to_string()
            } else {
                format!("#{};", u32::from(c))
            }
        })
        .collect()
}

struct Marks {
    added: BTreeSet<String>,
    removed: BTreeSet<String>,
    changed: BTreeSet<String>,
    edges_added: BTreeSet<(String, String)>,
    edges_changed: BTreeSet<(String, String)>,
}

fn marks(diff: &Diff) -> Marks {
    let mut mk = Marks {
        added: BTreeSet::new(),
        removed: BTreeSet::new(),
        changed: BTreeSet::new(),
        edges_added: BTreeSet::new(),
        edges_changed: BTreeSet::new(),
    };
    for c in &diff.changes {
        let phase = c.id.split(['/', ' ']).next().unwrap_or("").to_owned();
        let edge = || {
            let mut it = c.id.split(" --");
            let from = it.next().unwrap_or("").to_owned();
            let on = it.next().unwrap_or("").trim_end_matches("-->").to_owned();
            (from, on)
        };
        match (c.element, c.kind) {
            ("phase", Kind::Added) => {
                mk.added.insert(c.id.clone());
            }
            ("phase", Kind::Removed) => {
                mk.removed.insert(c.id.clone());
            }
            ("phase", Kind::Renamed) | ("objective" | "access", _) => {
                mk.changed.insert(phase);
            }
            ("outcome", Kind::Added) => {
                let on = c.id.split('/').nth(1).unwrap_or("").to_owned();
                mk.edges_added.insert((phase.clone(), on));
                mk.changed.insert(phase);
            }
            ("outcome", _) => {
                mk.changed.insert(phase);
            }
            ("transition", Kind::Added) => {
                mk.edges_added.insert(edge());
            }
            ("transition", Kind::Changed) => {
                mk.edges_changed.insert(edge());
            }
            _ => {}
        }
    }
    mk
}

fn mermaid(diff: &Diff, old: &Spec, new: &Spec) -> String {
    let mk = marks(diff);
    let mut s = String::from("flowchart TD\n");
    let node = |id: &str| format!("n_{}", m(id).replace(['#', ';'], "_"));
    for p in &new.graph.phases {
        let _ = writeln!(s, "  {}(\"{}\")", node(&p.id), m(&p.id));
    }
    for id in &mk.removed {
        let _ = writeln!(s, "  {}(\"{}\")", node(id), m(id));
    }
    let removed = removed_transitions(diff, old, new);
    for t in crate::ir::Terminal::ALL {
        let used = new
            .graph
            .transitions
            .iter()
            .any(|x| x.to.as_str() == t.as_str())
            || removed.iter().any(|x| x.2 == t.as_str());
        if used {
            let _ = writeln!(s, "  {}((\"{}\"))", node(t.as_str()), m(t.as_str()));
        }
    }
    let mut links: Vec<(&'static str, usize)> = Vec::new();
    let mut n = 0usize;
    let _ = writeln!(s, "  start((\"start\")) --> {}", node(&new.graph.entry));
    n += 1;
    for t in &new.graph.transitions {
        let key = (t.from.clone(), t.on.clone());
        let _ = writeln!(
            s,
            "  {} -->|\"{}\"| {}",
            node(&t.from),
            m(&t.on),
            node(t.to.as_str())
        );
        if mk.added.contains(&t.from) || mk.edges_added.contains(&key) {
            links.push(("added", n));
        } else if mk.edges_changed.contains(&key) {
            links.push(("changed", n));
        }
        n += 1;
    }
    for t in removed {
        let _ = writeln!(s, "  {} -.->|\"{}\"| {}", node(&t.0), m(&t.1), node(&t.2));
        links.push(("removed", n));
        n += 1;
    }
    styles(&mut s, &mk, &links, node);
    s
}

/// Old transitions whose phase and outcome no longer lead anywhere in the new loop, with
/// renamed ids.
fn removed_transitions(diff: &Diff, old: &Spec, new: &Spec) -> Vec<(String, String, String)> {
    let map = |s: &str| diff.renames.get(s).cloned().unwrap_or_else(|| s.to_owned());
    old.graph
        .transitions
        .iter()
        .map(|t| (map(&t.from), t.on.clone(), map(t.to.as_str())))
        .filter(|(from, on, _)| {
            !new.graph
                .transitions
                .iter()
                .any(|t| t.from == *from && t.on == *on)
        })
        .collect()
}

fn styles(s: &mut String, mk: &Marks, links: &[(&str, usize)], node: impl Fn(&str) -> String) {
    s.push_str("  classDef added fill:#dcfce7,stroke:#16a34a,stroke-width:2px\n");
    s.push_str(
        "  classDef removed fill:#fee2e2,stroke:#dc2626,stroke-width:2px,stroke-dasharray:5 5\n",
    );
    s.push_str("  classDef changed fill:#fef3c7,stroke:#d97706,stroke-width:2px\n");
    for (class, set) in [
        ("added", &mk.added),
        ("removed", &mk.removed),
        ("changed", &mk.changed),
    ] {
        let ids: Vec<String> = set.iter().map(|id| node(id)).collect();
        if !ids.is_empty() {
            let _ = writeln!(s, "  class {} {class}", ids.join(","));
        }
    }
    for (class, i) in links {
        let style = match *class {
            "added" => "stroke:#16a34a,stroke-width:2px",
            "removed" => "stroke:#dc2626,stroke-width:2px,stroke-dasharray:5 5",
            _ => "stroke:#d97706,stroke-width:2px",
        };
        let _ = writeln!(s, "  linkStyle {i} {style}");
    }
}
