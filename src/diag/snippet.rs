//! The source lines one diagnostic shows, cut out of the file.
//!
//! A snippet shows the lines its label covers, so rendering a diagnostic reads and
//! sanitises those lines only, never the whole file, however large (issue 19). A
//! [`Window`] is the whole lines around a label, made safe for a terminal
//! ([`crate::text::terminal`], which keeps byte offsets), and it answers codespan's
//! [`Files`] questions with the file's real line numbers.

use std::borrow::Cow;
use std::ops::Range;

use codespan_reporting::files::{Error, Files};

use crate::text::{is_line_break as is_break, terminal};

/// Longest source line shown as a snippet, in bytes; a longer line (minified JSON) is shown
/// as an excerpt around the position instead.
pub const MAX_SNIPPET_LINE: usize = 240;

/// Most lines one snippet shows (a label on a large object shows its position instead).
const MAX_SNIPPET_LINES: usize = 16;

/// The whole lines of a source around one label, sanitised for a terminal.
pub struct Window<'a> {
    name: &'a str,
    text: Cow<'a, str>,
    /// Byte offset of `text` in the source.
    base: usize,
    /// 0-based number of the window's first line in the source.
    first_line: usize,
    /// Where each line of `text` starts, relative to `text`.
    starts: Vec<usize>,
}

impl<'a> Window<'a> {
    /// The lines of `src` that hold `range` (which must lie in `src` on character
    /// boundaries), the first of them being line `line` (1-based). `None` when a line is
    /// longer than [`MAX_SNIPPET_LINE`] or the range spans more than
    /// [`MAX_SNIPPET_LINES`] lines: a snippet would then print too much.
    pub fn around(name: &'a str, src: &'a str, range: Range<usize>, line: u32) -> Option<Self> {
        let (start, end) = (range.start, range.end.max(range.start));
        // No line of a snippet is longer than MAX_SNIPPET_LINE, so the ends of its lines
        // are looked for no further: on a minified loop of one 8 MB line each diagnostic
        // read the line three times before giving up, 336 M of the 1,133 M instructions of
        // checking one with 100 errors (issue 50).
        let reach = MAX_SNIPPET_LINE + 1;
        if end - start > MAX_SNIPPET_LINES * MAX_SNIPPET_LINE {
            return None;
        }
        let from = line_start_within(src, start, reach)?;
        let to = line_end_within(src, end, reach)?;
        let raw = src.get(from..to)?;
        let b = raw.as_bytes();
        let breaks = memchr::memchr2_iter(b'\n', b'\r', b).filter(|&i| is_break(b, i));
        let starts: Vec<usize> = std::iter::once(0)
            .chain(breaks.map(|i| i + 1))
            .filter(|&i| i < raw.len() || i == 0)
            .collect();
        let too_long = starts
            .iter()
            .zip(starts.iter().skip(1).chain(std::iter::once(&raw.len())))
            .any(|(a, b)| b - a > MAX_SNIPPET_LINE);
        if too_long || starts.len() > MAX_SNIPPET_LINES {
            return None;
        }
        Some(Window {
            name,
            text: terminal(raw, true),
            base: from,
            first_line: usize::try_from(line).ok()?.checked_sub(1)?,
            starts,
        })
    }

    /// A window with no lines, for a diagnostic that shows none.
    pub fn empty(name: &'a str) -> Self {
        Window {
            name,
            text: Cow::Borrowed(""),
            base: 0,
            first_line: 0,
            starts: vec![0],
        }
    }

    /// A range of the source as a range of the window.
    pub fn local(&self, range: Range<usize>) -> Range<usize> {
        let clamp = |i: usize| i.saturating_sub(self.base).min(self.text.len());
        clamp(range.start)..clamp(range.end.max(range.start))
    }
}

/// Where the line holding byte `at` starts (a lone carriage return ends a line too),
/// looking back at most `reach` bytes: `None` when it starts further back.
pub fn line_start_within(src: &str, at: usize, reach: usize) -> Option<usize> {
    let b = src.as_bytes();
    let at = at.min(b.len());
    let lo = at.saturating_sub(reach);
    let found = memchr::memrchr2_iter(b'\n', b'\r', &b[lo..at])
        .map(|i| lo + i)
        .find(|&i| is_break(b, i));
    match found {
        Some(i) => Some(i + 1),
        None if lo == 0 => Some(0),
        None => None,
    }
}

/// Where the line holding byte `at` ends (its line break included), looking ahead at
/// most `reach` bytes: `None` when it ends further on.
pub fn line_end_within(src: &str, at: usize, reach: usize) -> Option<usize> {
    let b = src.as_bytes();
    let at = at.min(b.len());
    let hi = at.saturating_add(reach).min(b.len());
    let found = memchr::memchr2_iter(b'\n', b'\r', &b[at..hi])
        .map(|i| at + i)
        .find(|&i| is_break(b, i));
    match found {
        Some(i) => Some(i + 1),
        None if hi == b.len() => Some(b.len()),
        None => None,
    }
}

impl<'a> Files<'a> for Window<'a> {
    type FileId = ();
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, (): ()) -> Result<&'a str, Error> {
        Ok(self.name)
    }

    fn source(&'a self, (): ()) -> Result<&'a str, Error> {
        Ok(&self.text)
    }

    fn line_index(&'a self, (): (), byte_index: usize) -> Result<usize, Error> {
        let i = match self.starts.binary_search(&byte_index) {
            Ok(i) => i,
            Err(next) => next.saturating_sub(1),
        };
        Ok(self.first_line + i)
    }

    fn line_range(&'a self, (): (), line_index: usize) -> Result<Range<usize>, Error> {
        let i = line_index
            .checked_sub(self.first_line)
            .filter(|&i| i < self.starts.len())
            .ok_or(Error::LineTooLarge {
                given: line_index,
                max: self.first_line + self.starts.len().saturating_sub(1),
            })?;
        let start = self.starts[i];
        let end = self.starts.get(i + 1).copied().unwrap_or(self.text.len());
        Ok(start..end)
    }
}

#[cfg(test)]
mod tests {

    use super::{Window, is_break, line_end_within, line_start_within};
    use codespan_reporting::files::Files;
    #[test]
    fn a_window_is_the_lines_of_its_label_with_their_numbers() {
        let src = "one\ntwo \u{1b}x\nthree\n";
        let at = src.find("two").unwrap();
        let w = Window::around("f", src, at..at + 3, 2).unwrap();
        assert_eq!(w.source(()).unwrap(), "two ?x\n");
        assert_eq!(w.local(at..at + 3), 0..3);
        assert_eq!(w.line_index((), 0).unwrap(), 1);
        assert_eq!(w.line_range((), 1).unwrap(), 0..w.source(()).unwrap().len());
        assert!(w.line_range((), 0).is_err());
    }

    #[test]
    fn long_lines_and_tall_labels_have_no_window() {
        let long = format!("{{\"a\": \"{}\"}}", "x".repeat(400));
        assert!(Window::around("f", &long, 2..3, 1).is_none());
        let tall = "{\n".repeat(40);
        assert!(Window::around("f", &tall, 0..tall.len(), 1).is_none());
        assert!(Window::around("f", "", 0..0, 1).is_some());
    }

    /// The bounded searches find a line's ends as a search of the whole text does, when
    /// they are within reach, and say so when they are not: every offset of texts with
    /// each kind of line break at many distances.
    #[test]
    fn line_ends_within_reach_agree_with_the_whole_text() {
        let whole_start =
            |b: &[u8], at: usize| (0..at).rev().find(|&i| is_break(b, i)).map_or(0, |i| i + 1);
        let whole_end = |b: &[u8], at: usize| {
            (at..b.len())
                .find(|&i| is_break(b, i))
                .map_or(b.len(), |i| i + 1)
        };
        for brk in ["\n", "\r", "\r\n"] {
            let src = format!(
                "ab{brk}{}{brk}{brk}xyz{brk}{}",
                "c".repeat(9),
                "d".repeat(5)
            );
            let b = src.as_bytes();
            for at in 0..=src.len() {
                for reach in [0, 1, 3, 8, 40] {
                    let start = whole_start(b, at);
                    let within = at <= reach || start > at - reach;
                    let found = line_start_within(&src, at, reach);
                    assert_eq!(found, within.then_some(start), "{src:?} start {at} {reach}");
                    let end = whole_end(b, at);
                    let within = at + reach >= b.len() || end - 1 < at + reach;
                    let found = line_end_within(&src, at, reach);
                    assert_eq!(found, within.then_some(end), "{src:?} end {at} {reach}");
                }
            }
        }
    }
}
