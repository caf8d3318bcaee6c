//! The prose loopconv writes for people reads as a person wrote it: every diagnostic that
//! the examples (and the corpus, when present) produce on reading and on conversion, and
//! every entry of the documentation table, is free of "(s)" plurals, doubled words, empty
//! lists and text cut in the middle of a word.

use std::collections::BTreeSet;
use std::path::Path;

use loopconv::diag::Code;
use loopconv::diag::docs;
use serde_json::Value;

use crate::support::{self, all_inputs, lossy_options, write_every_target};

/// Words after which a sentence cannot end: a text ending in one was cut off.
const DANGLING: &[&str] = &[
    "a", "an", "the", "of", "to", "and", "or", "with", "in", "for", "from", "declares", "is",
    "are", "at", "by", "as", "than",
];

/// The text with its `code spans` replaced by a placeholder word, so that quoted input
/// (which may hold anything) is not judged as prose; an ellipsis standing for a value
/// (`"to": ...`) is a placeholder word too.
fn prose(text: &str) -> String {
    let mut out = String::new();
    for (i, part) in text.split('`').enumerate() {
        out.push_str(if i % 2 == 0 { part } else { "CODE" });
    }
    out.replace(": ...", ": VALUE")
}

/// The words of a text: runs of letters, digits, `-` and `'`.
fn words(text: &str) -> BTreeSet<String> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '-' || c == '\''))
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// What is wrong with one text a person reads, given the source text it may quote.
pub(crate) fn faults(text: &str, source: &str) -> Vec<&'static str> {
    let p = prose(text);
    let mut out = Vec::new();
    if p.contains("(s)") || p.contains("(es)") {
        out.push("a \"(s)\" plural");
    }
    if doubled_word(&p) {
        out.push("a doubled word");
    }
    if empty_list(&p) {
        out.push("an empty list");
    }
    if cut_mid_word(text, source) {
        out.push("text cut in the middle of a word");
    }
    if cut_off(&p) {
        out.push("a sentence that stops short");
    }
    out
}

/// Two equal words in a row ("the the"), not separated by punctuation.
fn doubled_word(p: &str) -> bool {
    let tokens: Vec<&str> = p.split_whitespace().collect();
    tokens.windows(2).any(|w| {
        let first_ends_clean = w[0].chars().last().is_some_and(char::is_alphabetic);
        let bare = |t: &str| {
            t.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        };
        first_ends_clean && bare(w[0]) == bare(w[1]) && bare(w[0]) != "code"
    })
}

/// A colon followed by nothing, or list punctuation around nothing.
fn empty_list(p: &str) -> bool {
    let t = p.trim_end();
    t.ends_with(':')
        || [
            ": ,", ": .", ": ;", ":,", ":.", ", ,", ",,", "()", "( )", ": )",
        ]
        .iter()
        .any(|bad| p.contains(bad))
}

/// A text that ends in whitespace or in a word after which no sentence ends.
fn cut_off(p: &str) -> bool {
    if p.ends_with(' ') || p.ends_with('\t') {
        return true;
    }
    let last = p.split_whitespace().last().unwrap_or("");
    DANGLING.contains(&last)
}

/// An ellipsis right after a fragment that is not a whole word of the text or its source:
/// "comman…" where the source says "command".
fn cut_mid_word(text: &str, source: &str) -> bool {
    let known: BTreeSet<String> = words(source).union(&words(text)).cloned().collect();
    for (at, _) in text.match_indices('…').chain(text.match_indices("...")) {
        let before = &text[..at];
        let fragment: String = before
            .chars()
            .rev()
            .take_while(|c| c.is_alphanumeric())
            .collect::<Vec<char>>()
            .into_iter()
            .rev()
            .collect();
        if fragment.is_empty() {
            continue;
        }
        // The fragment counts as whole when it is a word somewhere else too (the ellipsis
        // closes a word), not only a prefix of a longer one.
        let whole =
            known.contains(&fragment.to_lowercase()) && !source_has_only_longer(source, &fragment);
        if !whole {
            return true;
        }
    }
    false
}

/// Whether every occurrence of `fragment` in `source` continues with more letters.
fn source_has_only_longer(source: &str, fragment: &str) -> bool {
    let hits: Vec<usize> = source.match_indices(fragment).map(|(i, _)| i).collect();
    !hits.is_empty()
        && hits.iter().all(|&i| {
            source[i + fragment.len()..]
                .chars()
                .next()
                .is_some_and(char::is_alphanumeric)
        })
}

/// The person-facing texts of a list of diagnostics in their JSON form: message, help,
/// notes and the labels' messages.
fn texts(json: &Value) -> Vec<String> {
    let mut out = Vec::new();
    collect(json, &mut out);
    out
}

fn collect(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, v) in m {
                match (k.as_str(), v) {
                    ("message" | "help", Value::String(s)) => out.push(s.clone()),
                    ("notes", Value::Array(a)) => {
                        out.extend(a.iter().filter_map(Value::as_str).map(str::to_owned));
                    }
                    ("location" | "pointer" | "file", _) => {}
                    _ => collect(v, out),
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|v| collect(v, out)),
        _ => {}
    }
}

/// Every diagnostic text reading `path` produces, and, when it is valid, converting it to
/// every target.
fn diagnostic_texts(path: &Path) -> Vec<String> {
    let loaded = support::load_file(path);
    let mut all =
        texts(&serde_json::to_value(loaded.diags.items()).expect("diagnostics serialise"));
    if let Some((spec, info)) = loaded.valid() {
        for w in write_every_target(&support::rel(path), spec, info, &lossy_options()) {
            let json = serde_json::to_value(w.diags.items()).expect("diagnostics serialise");
            all.extend(texts(&json));
        }
    }
    all
}

/// Fails with every text that reads badly.
pub(crate) fn assert_reads_well(bad: &[String]) {
    assert!(
        bad.is_empty(),
        "{} texts read badly:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

/// Record each fault of `text` (from `origin`, quoting `source`) in `bad`.
pub(crate) fn report(bad: &mut Vec<String>, origin: &str, text: &str, source: &str) {
    for fault in faults(text, source) {
        bad.push(format!("{origin}: {fault}: {text:?}"));
    }
}

#[test]
fn every_diagnostic_of_the_inputs_reads_well() {
    let inputs = all_inputs();
    assert!(inputs.len() > 50, "the examples are there");
    let mut bad = Vec::new();
    let mut judged = 0;
    for path in &inputs {
        let source = String::from_utf8_lossy(&support::read(path)).into_owned();
        for text in diagnostic_texts(path) {
            judged += 1;
            report(&mut bad, &support::rel(path), &text, &source);
        }
    }
    assert!(judged > 100, "only {judged} texts were judged");
    assert_reads_well(&bad);
}

#[test]
fn the_documentation_table_reads_well() {
    let mut bad = Vec::new();
    for &code in Code::ALL {
        let doc = code.doc();
        for (part, text) in [
            ("summary", code.summary()),
            ("checks", doc.checks),
            ("why", doc.why),
            ("fix", doc.fix),
        ] {
            report(&mut bad, &format!("{code} {part}"), text, "");
        }
        if let Some(ex) = doc.example {
            let loaded = loopconv::load(
                docs::example_file_name(ex.bad),
                ex.bad.as_bytes(),
                &loopconv::LoadOptions::default(),
            );
            let json = serde_json::to_value(loaded.diags.items()).expect("diagnostics serialise");
            for text in texts(&json) {
                report(&mut bad, &format!("{code} example"), &text, ex.bad);
            }
        }
    }
    // The retired codes' pages too.
    for r in loopconv::diag::retired::RETIRED {
        for (part, text) in [
            ("summary", r.summary),
            ("checked", r.checked),
            ("retired_in", r.retired_in),
            ("retired", r.retired),
            ("why", r.why),
            ("instead", r.instead),
        ] {
            report(&mut bad, &format!("{} {part}", r.code), text, "");
        }
    }
    assert_reads_well(&bad);
}

/// The judge finds each fault it is meant to find, and passes good prose.
#[test]
fn the_judge_finds_each_fault() {
    let cases: &[(&str, &str, &[&str])] = &[
        ("must have at least 1 item(s)", "", &["a \"(s)\" plural"]),
        ("the the phase", "", &["a doubled word"]),
        (
            "the run reached `$end` with outcomes left over: ",
            "",
            &["an empty list", "a sentence that stops short"],
        ),
        ("`a` declares ", "", &["a sentence that stops short"]),
        (
            "run `comman…`",
            "command: cargo test",
            &["text cut in the middle of a word"],
        ),
        ("run `cargo…`", "command: cargo test", &[]),
        ("phases `a`, `b` and `c` can never stop", "", &[]),
        ("`x` `x` are quoted ids", "", &[]),
        ("that, that is fine", "", &[]),
        (r#"add {"from": "read", "on": "done", "to": ...}"#, "", &[]),
    ];
    for (text, source, want) in cases {
        assert_eq!(&faults(text, source), want, "{text:?}");
    }
}
