//! Diagnostics for people: `error[V012]: ...`, with a snippet of the source (codespan).

use std::fmt::Write as _;
use std::ops::Range;

use crate::text::terminal;

use super::{Diagnostic, Label, Location, Severity, snippet};

/// Render diagnostics for people: `error[V012]: ...` with a source snippet when the source
/// text is available. Each snippet reads and sanitises only the lines it shows
/// (`snippet::Window`), so a diagnostic costs its lines, not its file.
pub fn render_human(diags: &[Diagnostic], source: Option<&str>, color: bool) -> String {
    use codespan_reporting::term::{self, termcolor};

    let mut out = String::new();
    for d in diags {
        let d = for_terminal(d);
        let (window, notes) = snippet_of(&d, source);
        let labelled = window.is_some();
        let window = window.unwrap_or_else(|| snippet::Window::empty(&d.location.file));
        let cs = codespan_diagnostic(&d, notes).with_labels(
            d.location
                .pos
                .filter(|_| labelled)
                .map(|p| {
                    codespan_reporting::diagnostic::Label::primary((), window.local(p.start..p.end))
                })
                .into_iter()
                .collect(),
        );
        let mut buf = termcolor::Buffer::no_color();
        let mut cbuf = termcolor::Buffer::ansi();
        let config = term::Config::default();
        let target: &mut termcolor::Buffer = if color { &mut cbuf } else { &mut buf };
        if term::emit(target, &config, &window, &cs).is_ok() {
            out.push_str(&String::from_utf8_lossy(target.as_slice()));
        } else {
            let _ = writeln!(out, "{}[{}]: {}", d.severity.as_str(), d.code, d.message);
        }
    }
    out
}

/// The diagnostic's texts made safe for one terminal line each: control, bidirectional and
/// invisible characters never reach the terminal (a pointer names user keys too).
fn for_terminal(d: &Diagnostic) -> Diagnostic {
    Diagnostic {
        message: one_terminal_line(&d.message),
        notes: d.notes.iter().map(|n| one_terminal_line(n)).collect(),
        labels: d
            .labels
            .iter()
            .map(|l| Label {
                message: one_terminal_line(&l.message),
                location: Location {
                    file: one_terminal_line(&l.location.file),
                    pointer: one_terminal_line(&l.location.pointer),
                    ..l.location.clone()
                },
            })
            .collect(),
        help: d.help_text().as_deref().map(one_terminal_line),
        suggestions: Vec::new(),
        location: Location {
            file: one_terminal_line(&d.location.file),
            pointer: one_terminal_line(&d.location.pointer),
            ..d.location.clone()
        },
        ..d.clone()
    }
}

/// The lines a diagnostic shows, or, when a snippet would print too much (a long line of
/// minified JSON, a tall object) or there is no source, the notes that say where it is.
fn snippet_of<'a>(
    d: &'a Diagnostic,
    source: Option<&'a str>,
) -> (Option<snippet::Window<'a>>, Vec<String>) {
    let Some(p) = d.location.pos else {
        let note = format!(
            "in {}{}",
            d.location.file,
            pointer_suffix(&d.location.pointer)
        );
        return (None, vec![note]);
    };
    if let Some(src) = source
        && p.start <= p.end
        && p.end <= src.len()
    {
        let r = clamp_range(src, p.start..p.end);
        if let Some(w) = snippet::Window::around(&d.location.file, src, r, p.line) {
            return (Some(w), Vec::new());
        }
    }
    let mut notes = vec![format!(
        "at {}:{}:{}{}",
        d.location.file,
        p.line,
        p.column,
        pointer_suffix(&d.location.pointer)
    )];
    if let Some(src) = source.filter(|s| p.start <= s.len()) {
        let at = clamp_range(src, p.start..p.start).start;
        // The excerpt shows 40 bytes either side: its line's ends matter no further (a
        // minified file's one line was read to both ends for every diagnostic).
        let near = 41;
        let line = snippet::line_start_within(src, at, near).unwrap_or(at.saturating_sub(near + 1))
            ..snippet::line_end_within(src, at, near).unwrap_or(at + near + 1);
        notes.push(format!(
            "near: {}",
            one_terminal_line(&excerpt(src, line, at))
        ));
    }
    (None, notes)
}

/// The codespan form of a diagnostic, without labels: the code, the message, then the
/// `notes` given (where it is), the other places (`also at line 3, column 7: ...`), the diagnostic's
/// own notes and its help.
fn codespan_diagnostic(
    d: &Diagnostic,
    mut notes: Vec<String>,
) -> codespan_reporting::diagnostic::Diagnostic<()> {
    use codespan_reporting::diagnostic::Diagnostic as CsDiag;
    notes.extend(d.labels.iter().map(|l| label_note(l, &d.location.file)));
    notes.extend(d.notes.iter().cloned());
    if let Some(h) = &d.help {
        notes.push(format!("help: {h}"));
    }
    match d.severity {
        Severity::Error => CsDiag::error(),
        Severity::Warning => CsDiag::warning(),
        Severity::Note => CsDiag::note(),
    }
    .with_code(d.code.as_str())
    .with_message(&d.message)
    .with_notes(notes)
}

/// A label as a note: `also at line 3, column 7: message`, or `also at other.json:3:7:
/// message` for a label in another file than the diagnostic's (its text is already made
/// safe).
pub(crate) fn label_note(l: &Label, file: &str) -> String {
    let other =
        (l.location.file != file && !l.location.file.is_empty()).then_some(&l.location.file);
    match (l.location.pos, other) {
        (Some(p), None) => format!(
            "also at line {}, column {}: {}",
            p.line, p.column, l.message
        ),
        (Some(p), Some(f)) => format!("also at {f}:{}:{}: {}", p.line, p.column, l.message),
        (None, Some(f)) => format!("also in {f}: {}", l.message),
        (None, None) => format!("also at {}: {}", l.location.pointer, l.message),
    }
}

/// `s` for one line of a terminal ([`terminal`]: control, bidirectional and invisible
/// characters, newlines included, shown as `?`).
fn one_terminal_line(s: &str) -> String {
    terminal(s, false).into_owned()
}

/// Up to 40 bytes either side of `at` within the line `line`, on character boundaries.
fn excerpt(src: &str, line: Range<usize>, at: usize) -> String {
    let r = clamp_range(
        src,
        at.saturating_sub(40).max(line.start)..(at + 40).min(line.end),
    );
    let text = src
        .get(r.clone())
        .unwrap_or("")
        .trim_end_matches(['\n', '\r']);
    format!(
        "{}{}{}",
        if r.start > line.start { "…" } else { "" },
        text,
        if r.end < line.end { "…" } else { "" }
    )
}

fn pointer_suffix(p: &str) -> String {
    if p.is_empty() {
        String::new()
    } else {
        format!(" ({p})")
    }
}

fn clamp_range(src: &str, r: Range<usize>) -> Range<usize> {
    let mut s = r.start.min(src.len());
    let mut e = r.end.min(src.len());
    while s > 0 && !src.is_char_boundary(s) {
        s -= 1;
    }
    while e < src.len() && !src.is_char_boundary(e) {
        e += 1;
    }
    s..e.max(s)
}
