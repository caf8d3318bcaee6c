//! Renderings of a [`Diff`]: plain text, JSON and a Markdown pull-request comment with a
//! Mermaid diagram of the new loop (added parts green, removed parts red and dashed,
//! changed parts amber).
//!
//! The text, Markdown and Mermaid forms are read by people: their user text goes through
//! [`crate::text`] (one line, without control, bidirectional or invisible characters) and
//! the Markdown and Mermaid escapers shared with `docs` and `graph`. The JSON form is data
//! for programs: it keeps every id and value exactly.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::fmt::Write as _;

use serde::Serialize;

use super::mermaid;
use crate::analysis::diff::{Change, ChangeKind, Diff, Impact, Subject};
use crate::ir::Spec;
use crate::text::{self, markdown};

/// The JSON form: the two files, the counts and every change.
pub fn json(diff: &Diff, old_file: &str, new_file: &str) -> String {
    #[derive(Serialize)]
    struct Wire<'a> {
        old: &'a str,
        new: &'a str,
        breaking: usize,
        compatible: usize,
        renames: &'a std::collections::BTreeMap<String, String>,
        changes: &'a [Change],
    }
    let out = Wire {
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

fn kind(k: ChangeKind) -> &'static str {
    match k {
        ChangeKind::Added => "added",
        ChangeKind::Removed => "removed",
        ChangeKind::Changed => "changed",
        ChangeKind::Renamed => "renamed",
    }
}

fn impact(i: Impact) -> &'static str {
    match i {
        Impact::Breaking => "breaking",
        Impact::Compatible => "compatible",
    }
}

/// The values of a change for people, on one line and at most about `max` characters:
/// an edit of a long text shows the part that changed ([`excerpts`]).
fn values(c: &Change, max: usize) -> String {
    let mut out = String::new();
    values_into(&mut out, c, max);
    out
}

/// [`values`], appended to `out`.
fn values_into(out: &mut String, c: &Change, max: usize) {
    match (&c.old, &c.new) {
        (Some(o), Some(n)) => {
            let (o, n) = excerpts(o, n, max);
            for part in [": ", &o, " → ", &n] {
                out.push_str(part);
            }
        }
        (Some(o), None) => {
            out.push_str(": was ");
            cut_into(out, &text::one_line(o), max);
        }
        (None, Some(n)) => {
            out.push_str(": ");
            cut_into(out, &text::one_line(n), max);
        }
        (None, None) => {}
    }
}

/// Characters of context shown before the first changed character of a long text.
const CONTEXT: usize = 30;

/// The old and new text, each on one line, together at most about `max` characters:
/// when they are longer, each side gets half (or what the other leaves), and both start a
/// few words ([`CONTEXT`] characters) before the first character that differs, marked
/// `…`, so the edit shows however far into the text it is.
fn excerpts(old: &str, new: &str, max: usize) -> (String, String) {
    let (o, n) = (text::one_line(old), text::one_line(new));
    // In byte offsets: a change of a long text costs what it shows, not its length
    // several times over (each text was once collected into characters, and what follows
    // the start copied and cleaned again).
    let (o_len, n_len) = (o.chars().count(), n.chars().count());
    if o_len + n_len <= max {
        return (o.into_owned(), n.into_owned());
    }
    // The first byte that differs, at a character's start: the common prefix is the same
    // bytes in both, so an offset in it is a character boundary of both.
    let mut same = (o.bytes().zip(n.bytes()))
        .take_while(|(a, b)| a == b)
        .count();
    while !o.is_char_boundary(same) {
        same -= 1;
    }
    let mut start = o[..same]
        .char_indices()
        .rev()
        .nth(CONTEXT - 1)
        .map_or(0, |(at, _)| at);
    // From the start of a word: after the first space or comma between the start and the
    // change.
    if start > 0
        && let Some(at) = o[start..same].find([' ', ','])
    {
        start += at + 1;
    }
    let start_chars = o[..start].chars().count();
    let half = (max / 2).max(1);
    // What the other side leaves, at least half.
    let budget = |other: usize| (max.saturating_sub(other.saturating_sub(start_chars))).max(half);
    let side = |line: &str, max: usize| {
        let rest = cut(&line[start..], max);
        if start > 0 {
            format!("…{rest}")
        } else {
            rest
        }
    };
    (side(&o, budget(n_len)), side(&n, budget(o_len)))
}

/// The text form: a summary line, then one line per change.
pub fn text(diff: &Diff, old_file: &str, new_file: &str) -> String {
    let mut s = format!(
        "{} → {}: {} change{}, {} breaking\n",
        text::one_line(old_file),
        text::one_line(new_file),
        diff.changes.len(),
        if diff.changes.len() == 1 { "" } else { "s" },
        diff.breaking()
    );
    // Each line written into the one text (a `format!` of each line and of each of its
    // parts was a fifth of the instructions of a diff with 37,000 changes).
    for c in &diff.changes {
        let i = impact(c.impact);
        s.push_str(i);
        s.extend(std::iter::repeat_n(
            ' ',
            10usize.saturating_sub(i.len()) + 1,
        ));
        describe_into(&mut s, c);
        s.push('\n');
    }
    s
}

/// One change for people: `removed phase `x`: was ... (why)`.
fn describe(c: &Change) -> String {
    let mut out = String::new();
    describe_into(&mut out, c);
    out
}

/// [`describe`], appended to `out`.
fn describe_into(out: &mut String, c: &Change) {
    for part in [kind(c.kind), " ", c.subject.element(), " `"] {
        out.push_str(part);
    }
    // Written in place, and cleaned only when it has to be.
    let at = out.len();
    c.subject.push_id(out);
    if let std::borrow::Cow::Owned(id) = text::one_line(&out[at..]) {
        out.truncate(at);
        out.push_str(&id);
    }
    out.push('`');
    values_into(out, c, 200);
    for part in [" (", c.reason, ")"] {
        out.push_str(part);
    }
}

/// The GitHub Actions form: one workflow command per change on the new file, `::error`
/// for a breaking change and `::notice` for a compatible one, so that `diff --format
/// github` in a workflow annotates the pull request.
pub fn github(diff: &Diff, new_file: &str) -> String {
    use crate::diag::github::{data, property};
    let mut s = String::new();
    for c in &diff.changes {
        let (command, title) = match c.impact {
            Impact::Breaking => ("error", "loopconv diff: breaking change"),
            Impact::Compatible => ("notice", "loopconv diff: compatible change"),
        };
        let _ = writeln!(
            s,
            "::{command} file={},title={}::{}",
            property(new_file),
            property(title),
            data(&describe(c))
        );
    }
    s
}

/// The SARIF 2.1.0 form: one result per change on the new file, by the rules
/// `breaking-change` (level error) and `compatible-change` (level note), for code
/// scanning. `new_file` is the new file's name as bytes (a name that is not UTF-8 keeps
/// its bytes in the URI).
pub fn sarif(diff: &Diff, new_file: &[u8]) -> String {
    use serde_sarif::sarif::{
        ArtifactLocation, Location, Message, MultiformatMessageString, PhysicalLocation,
        ReportingDescriptor, Result as SarifResult, ResultLevel, ToolComponent,
    };
    let rule = |id: &str, text: &str| {
        ReportingDescriptor::builder()
            .id(id)
            .short_description(MultiformatMessageString::builder().text(text).build())
            .build()
    };
    let rules = vec![
        rule(
            "breaking-change",
            "a change that can break the loop's callers",
        ),
        rule(
            "compatible-change",
            "a change that keeps the loop's callers working",
        ),
    ];
    let results: Vec<SarifResult> = diff
        .changes
        .iter()
        .map(|c| {
            let (id, index, level) = match c.impact {
                Impact::Breaking => ("breaking-change", 0, ResultLevel::Error),
                Impact::Compatible => ("compatible-change", 1, ResultLevel::Note),
            };
            let at = ArtifactLocation::builder()
                .uri(crate::diag::sarif::uri(new_file))
                .build();
            SarifResult::builder()
                .rule_id(id)
                .rule_index(index)
                .level(level)
                .message(Message::builder().text(describe(c)).build())
                .locations(vec![
                    Location::builder()
                        .physical_location(
                            PhysicalLocation::builder().artifact_location(at).build(),
                        )
                        .build(),
                ])
                .build()
        })
        .collect();
    let driver = ToolComponent::builder()
        .name("loopconv diff")
        .version(env!("CARGO_PKG_VERSION"))
        .information_uri(crate::diag::docs::README_URL)
        .rules(rules)
        .build();
    crate::diag::sarif::log(driver, results)
}

/// One line ([`text::one_line`]) of at most `max` characters, shortened at a word
/// boundary with `…`, never inside a word: a text without a space in its first `max`
/// characters is shown whole.
fn shown(s: &str, max: usize) -> String {
    cut(&text::one_line(s), max)
}

/// [`shown`] of a text already on one line.
fn cut(line: &str, max: usize) -> String {
    let mut out = String::new();
    cut_into(&mut out, line, max);
    out
}

/// [`cut`], appended to `out`.
fn cut_into(out: &mut String, line: &str, max: usize) {
    let Some(cut) = text::char_start(line, max) else {
        out.push_str(line);
        return;
    };
    // The last space at or before the cut: the words before it are shown whole.
    let space = if line.as_bytes()[cut] == b' ' {
        Some(cut)
    } else {
        line[..cut].rfind(' ')
    };
    match space.map(|at| line[..at].trim_end()) {
        Some(kept) if !kept.is_empty() => {
            out.push_str(kept);
            out.push('…');
        }
        _ => out.push_str(line),
    }
}

/// Markdown for a table cell: at most 160 characters, escaped by [`markdown::cell`].
fn cell(s: &str) -> String {
    markdown::cell(&shown(s, 160))
}

/// The Markdown form: a summary, a table of changes and the Mermaid diagram.
pub fn markdown(diff: &Diff, old: &Spec, new: &Spec, old_file: &str, new_file: &str) -> String {
    let b = diff.breaking();
    let mut s = format!("### Loop changes: {}\n\n", markdown::code(&new.name));
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
                c.subject.element(),
                cell(&c.subject.id()),
                markdown::cell(&values(c, 160)),
                cell(c.reason)
            );
        }
        s.push('\n');
    }
    s.push_str("```mermaid\n");
    s.push_str(&mermaid(diff, old, new));
    s.push_str("```\n");
    s
}

/// A Mermaid label: the text cleaned ([`text::clean`]) and escaped as the drawings escape
/// theirs ([`mermaid::escape`]).
fn label(s: &str) -> String {
    mermaid::escape(&text::clean(s))
}

/// The Mermaid node id of a loop id: `n_`, then its letters, digits and `-` as they are
/// and every other character as `_`, its code point, `_` (ids are not shown, so they keep
/// every character apart). Written into `out`, one character at a time.
fn node_into(out: &mut String, id: &str) {
    out.push_str("n_");
    for c in id.chars() {
        if c.is_ascii_alphanumeric() || c == '-' {
            out.push(c);
        } else {
            let _ = write!(out, "_{}_", u32::from(c));
        }
    }
}

/// [`node_into`] as a string of its own.
fn node(id: &str) -> String {
    let mut s = String::with_capacity(id.len() + 2);
    node_into(&mut s, id);
    s
}

/// The nodes and edges the changes mark, by the ids they name (borrowed from the diff and
/// the loops). The node sets are ordered (the `class` lines list them in order); the
/// edges are only looked up, by hash.
struct Marks<'a> {
    added: BTreeSet<&'a str>,
    removed: BTreeSet<&'a str>,
    changed: BTreeSet<&'a str>,
    edges_added: HashSet<(&'a str, &'a str)>,
    edges_changed: HashSet<(&'a str, &'a str)>,
}

fn marks<'a>(diff: &'a Diff, old: &'a Spec, new: &'a Spec) -> Marks<'a> {
    let mut mk = Marks {
        added: BTreeSet::new(),
        removed: BTreeSet::new(),
        changed: BTreeSet::new(),
        edges_added: HashSet::new(),
        edges_changed: HashSet::new(),
    };
    for c in &diff.changes {
        mark(&mut mk, c);
    }
    // Once every added and removed phase is known. Each loop's checkpoints are looked up
    // by id in a map made once (a scan of them for each changed checkpoint was quadratic).
    // The first checkpoint of an id, as a scan finds it.
    let guards = |spec: &'a Spec| {
        let mut by_id: HashMap<&'a str, &'a str> = HashMap::new();
        for c in spec.graph.checkpoints.iter().flatten() {
            by_id.entry(&c.id).or_insert(&c.before_phase);
        }
        by_id
    };
    let (old_guards, new_guards) = (guards(old), guards(new));
    for c in &diff.changes {
        if let Subject::Checkpoint(id) = &c.subject {
            let before = old_guards.get(id.as_str()).map(|&p| renamed(diff, p));
            for phase in [new_guards.get(id.as_str()).copied(), before]
                .into_iter()
                .flatten()
            {
                if !mk.added.contains(phase) && !mk.removed.contains(phase) {
                    mk.changed.insert(phase);
                }
            }
        }
    }
    mk
}

/// An old loop's phase id as the new loop names it (renames applied).
fn renamed<'a>(diff: &'a Diff, id: &'a str) -> &'a str {
    diff.renames.get(id).map_or(id, String::as_str)
}

/// Mark the nodes and edges that `c` changes.
fn mark<'a>(mk: &mut Marks<'a>, c: &'a Change) {
    match (&c.subject, c.kind) {
        (Subject::Phase(id), ChangeKind::Added) => {
            mk.added.insert(id);
        }
        (Subject::Phase(id), ChangeKind::Removed) => {
            mk.removed.insert(id);
        }
        (Subject::Phase(id), ChangeKind::Renamed)
        | (Subject::Objective(id) | Subject::Access(id) | Subject::CheckpointOrder(id), _) => {
            mk.changed.insert(id);
        }
        (Subject::Outcome { phase, outcome }, ChangeKind::Added) => {
            mk.edges_added.insert((phase, outcome));
            mk.changed.insert(phase);
        }
        (Subject::Outcome { phase, .. }, _) => {
            mk.changed.insert(phase);
        }
        (Subject::Transition { from, on }, ChangeKind::Added) => {
            mk.edges_added.insert((from, on));
        }
        (Subject::Transition { from, on }, ChangeKind::Changed) => {
            mk.edges_changed.insert((from, on));
        }
        _ => {}
    }
}

fn mermaid(diff: &Diff, old: &Spec, new: &Spec) -> String {
    let mk = marks(diff, old, new);
    let mut s = String::from("flowchart TD\n");
    let node_line = |s: &mut String, id: &str, open: &str, close: &str| {
        s.push_str("  ");
        node_into(s, id);
        let _ = writeln!(s, "{open}\"{}\"{close}", label(id));
    };
    for p in &new.graph.phases {
        node_line(&mut s, &p.id, "(", ")");
    }
    for id in &mk.removed {
        node_line(&mut s, id, "(", ")");
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
            node_line(&mut s, t.as_str(), "((", "))");
        }
    }
    let mut links: Vec<(&'static str, usize)> = Vec::new();
    let mut n = 0usize;
    s.push_str("  start((\"start\")) --> ");
    node_into(&mut s, &new.graph.entry);
    s.push('\n');
    n += 1;
    for t in &new.graph.transitions {
        edge(&mut s, (&t.from, &t.on, t.to.as_str()), "-->");
        let key = (t.from.as_str(), t.on.as_str());
        if mk.added.contains(key.0) || mk.edges_added.contains(&key) {
            links.push(("added", n));
        } else if mk.edges_changed.contains(&key) {
            links.push(("changed", n));
        }
        n += 1;
    }
    for t in removed {
        edge(&mut s, t, "-.->");
        links.push(("removed", n));
        n += 1;
    }
    styles(&mut s, &mk, &links);
    s
}

/// One edge line: `  from ARROW|"on"| to`.
fn edge(s: &mut String, (from, on, to): (&str, &str, &str), arrow: &str) {
    s.push_str("  ");
    node_into(s, from);
    let _ = write!(s, " {arrow}|\"{}\"| ", label(on));
    node_into(s, to);
    s.push('\n');
}

/// Old transitions whose phase and outcome no longer lead anywhere in the new loop, with
/// renamed ids. The new loop's transitions are looked up by hash: a scan of them for each
/// old transition made `diff --format markdown` quadratic (two 10 MB loops: 18x the time
/// of two 1 MB loops).
fn removed_transitions<'a>(
    diff: &'a Diff,
    old: &'a Spec,
    new: &'a Spec,
) -> Vec<(&'a str, &'a str, &'a str)> {
    let kept: HashSet<(&str, &str)> = (new.graph.transitions.iter())
        .map(|t| (t.from.as_str(), t.on.as_str()))
        .collect();
    (old.graph.transitions.iter())
        .map(|t| {
            (
                renamed(diff, &t.from),
                t.on.as_str(),
                renamed(diff, t.to.as_str()),
            )
        })
        .filter(|(from, on, _)| !kept.contains(&(*from, *on)))
        .collect()
}

fn styles(s: &mut String, mk: &Marks<'_>, links: &[(&str, usize)]) {
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

#[cfg(test)]
mod tests {
    use super::shown;

    /// A long objective edited near its end shows the edit on both sides: each value is
    /// cut to an excerpt around the change, so the new one shows too.
    #[test]
    fn a_long_edited_text_shows_the_changed_part() {
        let words = "the loop keeps going through every phase and reads every note ".repeat(6);
        let (old, new) = (format!("{words}then stops."), format!("{words}then ships."));
        let (o, n) = super::excerpts(&old, &new, 200);
        assert!(o.starts_with('…') && o.ends_with("then stops."), "{o}");
        assert!(n.starts_with('…') && n.ends_with("then ships."), "{n}");
        assert!(o.chars().count() + n.chars().count() <= 202, "{o} {n}");
        let (o, n) = super::excerpts("short", "shorter", 100);
        assert_eq!((o.as_str(), n.as_str()), ("short", "shorter"));
    }

    /// The excerpts in byte offsets are the excerpts the character-by-character version
    /// made (kept here as the reference), on texts with multi-byte characters, control
    /// characters, commas and edits at every distance from the start.
    #[test]
    fn excerpts_are_those_of_the_character_version() {
        fn by_chars(old: &str, new: &str, max: usize) -> (String, String) {
            let (o, n) = (crate::text::one_line(old), crate::text::one_line(new));
            let (oc, nc): (Vec<char>, Vec<char>) = (o.chars().collect(), n.chars().collect());
            if oc.len() + nc.len() <= max {
                return (o.into_owned(), n.into_owned());
            }
            let same = oc.iter().zip(&nc).take_while(|(a, b)| a == b).count();
            let mut start = same.saturating_sub(super::CONTEXT);
            if start > 0
                && let Some(at) = oc[start..same].iter().position(|c| matches!(c, ' ' | ','))
            {
                start += at + 1;
            }
            let half = (max / 2).max(1);
            let budget =
                |other: &[char]| (max.saturating_sub(other.len().saturating_sub(start))).max(half);
            let side = |chars: &[char], max: usize| {
                let rest: String = chars[start.min(chars.len())..].iter().collect();
                let rest = shown(&rest, max);
                if start > 0 {
                    format!("…{rest}")
                } else {
                    rest
                }
            };
            (side(&oc, budget(&nc)), side(&nc, budget(&oc)))
        }
        let base =
            "réunir les notes, puis\tlire chaque étape\u{200b} et écrire le plan; ".repeat(5);
        for cut in (0..base.len())
            .filter(|&k| base.is_char_boundary(k))
            .step_by(7)
        {
            for (edit, max) in [("X", 200), ("é, ", 60), ("", 40), ("zzzz", 1)] {
                let new = format!("{}{edit}{}", &base[..cut], &base[cut..]);
                let mut end = base.len() - cut / 3;
                while !base.is_char_boundary(end) {
                    end -= 1;
                }
                let old = &base[..end];
                assert_eq!(
                    super::excerpts(old, &new, max),
                    by_chars(old, &new, max),
                    "{cut} {edit:?} {max}"
                );
            }
        }
    }

    #[test]
    fn a_long_text_is_shortened_between_words() {
        assert_eq!(shown("run the command now", 9), "run the…");
        assert_eq!(shown("run the command now", 7), "run the…");
        assert_eq!(shown("run the", 7), "run the");
        assert_eq!(shown("commandcommand", 4), "commandcommand");
        assert_eq!(shown("é é é é", 3), "é é…");
    }
}
