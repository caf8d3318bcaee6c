//! Lines and columns: where a byte range of the source is, for diagnostics.

use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::{Mutex, OnceLock};

use crate::diag::Pos;

/// Where each line of a text starts and the character marks, built when a position is first
/// asked for: a file without diagnostics never needs them (they were a twentieth of the time
/// of reading a large loop).
#[derive(Debug)]
pub(super) struct LineIndex {
    line_starts: OnceLock<Vec<usize>>,
    char_marks: OnceLock<Vec<usize>>,
    /// Bytes read so far to find positions without the line starts.
    scanned: AtomicUsize,
    /// The start of the last line read from the text and its number, with no carriage
    /// return before its end: a later position is counted on from there.
    cursor: Mutex<(usize, usize)>,
}

impl Clone for LineIndex {
    fn clone(&self) -> LineIndex {
        LineIndex {
            line_starts: self.line_starts.clone(),
            char_marks: self.char_marks.clone(),
            scanned: AtomicUsize::new(self.scanned.load(Relaxed)),
            cursor: Mutex::new(self.cursor.lock().map_or((0, 0), |c| *c)),
        }
    }
}

impl LineIndex {
    /// The index of a text, with its line starts when the parser already has them.
    pub(super) fn new(line_starts: Option<Vec<usize>>) -> LineIndex {
        LineIndex {
            line_starts: line_starts.map_or_else(OnceLock::new, OnceLock::from),
            char_marks: OnceLock::new(),
            scanned: AtomicUsize::new(0),
            cursor: Mutex::new((0, 0)),
        }
    }

    /// Position of a byte range of `text` (the text this index is of). The character
    /// marks are built only for a column far into a long line (they cost a pass over the
    /// whole text, which a warning on line 1 of a large file must not pay).
    pub(super) fn pos(&self, text: &str, span: (usize, usize)) -> Pos {
        let marks = || self.char_marks.get_or_init(|| char_marks(text)).as_slice();
        let start = span.0.min(text.len());
        let line = match self.line_starts.get() {
            Some(starts) => Line::of(starts, start, text.len()),
            None if let Some(line) = self.counted_on(text, start) => line,
            None if self.scan_is_cheaper(start, text.len()) => {
                let line = Line::scanned(text, start);
                // The rest of the line was read too: on one long line (minified JSON), as
                // much as the text again.
                self.scanned
                    .fetch_add(line.end.saturating_sub(start), Relaxed);
                line
            }
            None => Line::of(
                self.line_starts.get_or_init(|| line_starts(text)),
                start,
                text.len(),
            ),
        };
        pos_on(text, line, Some(&marks), span)
    }

    /// The line of byte `start`, read from the text on from the last line read, when it is
    /// at or after that line and no carriage return comes before its end, while the text
    /// read so far (each line to its end) is less than the text: the positions of a
    /// document's diagnostics, asked in its order, then cost one pass over it in all. Each
    /// was read from the start of the text before, and from the sixth on the line starts of
    /// the whole text were built (61 M of the 210 M instructions of locating 100 errors in
    /// a 35 MB loop; callgrind, issue 50).
    fn counted_on(&self, text: &str, start: usize) -> Option<Line> {
        let mut cursor = self.cursor.lock().ok()?;
        let (from, number) = *cursor;
        let b = text.as_bytes();
        let between = b.get(from..start)?;
        let end = memchr::memchr(b'\n', &b[start..]).map_or(b.len(), |i| start + i);
        let read = self
            .scanned
            .fetch_add(end - from, Relaxed)
            .saturating_add(end - from);
        if read > b.len() || memchr::memchr(b'\r', &b[from..end]).is_some() {
            return None;
        }
        let line = Line {
            number: number + memchr::memchr_iter(b'\n', between).count(),
            start: memchr::memrchr(b'\n', between).map_or(from, |i| from + i + 1),
            end,
        };
        *cursor = (line.start, line.number);
        Some(line)
    }

    /// Whether the line of byte `start` is found by reading the text up to it (and on to
    /// the end of its line) instead of building the line starts: while the positions found
    /// so far have read less than the text in all. The first diagnostics of a file (a warning on its first line) then
    /// cost what they read, and many cost one pass and the list (which for a 10,000-phase
    /// loop is 0.6 MB: more than a warning may add).
    fn scan_is_cheaper(&self, start: usize, len: usize) -> bool {
        let before = self.scanned.fetch_add(start, Relaxed);
        before.saturating_add(start) <= len
    }
}

/// The line a byte is on: its 0-based number, the byte it starts at and the byte that ends
/// it (its newline, or the end of the text).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Line {
    number: usize,
    start: usize,
    end: usize,
}

impl Line {
    /// The line of byte `at`, from the line starts of a text of `len` bytes.
    fn of(starts: &[usize], at: usize, len: usize) -> Line {
        let number = match starts.binary_search(&at) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        Line {
            number,
            start: starts.get(number).copied().unwrap_or(0),
            end: (starts.get(number + 1)).map_or(len, |e| e.saturating_sub(1)),
        }
    }

    /// The line of byte `at` of `text`, read from the text (no further than the end of
    /// that line).
    fn scanned(text: &str, at: usize) -> Line {
        let b = text.as_bytes();
        let (before, after) = b.split_at(at.min(b.len()));
        let end = memchr::memchr(b'\n', after).map_or(b.len(), |i| before.len() + i);
        if memchr::memchr(b'\r', &b[..end]).is_some() {
            return Line::scanned_with_returns(b, before.len());
        }
        Line {
            number: memchr::memchr_iter(b'\n', before).count(),
            start: memchr::memrchr(b'\n', before).map_or(0, |i| i + 1),
            end,
        }
    }

    /// [`Line::scanned`] of a text with carriage returns before the end of the line: a lone
    /// one is a line break of its own ([`crate::text::is_line_break`]).
    fn scanned_with_returns(b: &[u8], at: usize) -> Line {
        use crate::text::line_breaks;
        let (mut number, mut start) = (0, 0);
        for i in line_breaks(b, 0, at) {
            number += 1;
            start = i + 1;
        }
        let end = line_breaks(b, at, b.len()).next().unwrap_or(b.len());
        Line { number, start, end }
    }
}

/// Where each line starts.
pub(super) use crate::text::line_starts;

/// Bytes per entry of [`char_marks`].
const CHAR_MARK_BLOCK: usize = 4096;

/// `marks[k]` = number of characters that start before byte `k * CHAR_MARK_BLOCK`, so that
/// a column on a very long line (minified JSON) costs one block, not the whole line: without
/// them, many diagnostics on one long line were quadratic.
fn char_marks(text: &str) -> Vec<usize> {
    let mut marks = Vec::with_capacity(text.len() / CHAR_MARK_BLOCK + 1);
    let mut n = 0;
    for block in text.as_bytes().chunks(CHAR_MARK_BLOCK) {
        marks.push(n);
        n += block.iter().filter(|b| (**b & 0xC0) != 0x80).count();
    }
    marks
}

/// Characters that start before byte `at` (a character boundary).
fn chars_before(text: &str, marks: &[usize], at: usize) -> usize {
    let k = (at / CHAR_MARK_BLOCK).min(marks.len().saturating_sub(1));
    let from = k * CHAR_MARK_BLOCK;
    let tail = text.as_bytes().get(from..at).unwrap_or(&[]);
    marks.get(k).copied().unwrap_or(0) + tail.iter().filter(|b| (**b & 0xC0) != 0x80).count()
}

pub(super) fn pos_of(text: &str, starts: &[usize], span: (usize, usize)) -> Pos {
    let line = Line::of(starts, span.0.min(text.len()), text.len());
    pos_on(text, line, None, span)
}

/// Position of a byte range that starts on `line`.
fn pos_on<'m>(
    text: &str,
    line: Line,
    marks: Option<&dyn Fn() -> &'m [usize]>,
    span: (usize, usize),
) -> Pos {
    let start = span.0.min(text.len());
    let column = match marks {
        Some(m) if start - line.start > CHAR_MARK_BLOCK && text.is_char_boundary(start) => {
            let m = m();
            chars_before(text, m, start) - chars_before(text, m, line.start)
        }
        _ => text.get(line.start..start).unwrap_or("").chars().count(),
    } + 1;
    // Highlight at most to the end of the first line.
    let end = span.1.clamp(start, line.end.max(start));
    Pos {
        line: u32::try_from(line.number + 1).unwrap_or(u32::MAX),
        column: u32::try_from(column).unwrap_or(u32::MAX),
        start,
        end: if end == start {
            (start + 1).min(text.len())
        } else {
            end
        },
    }
}

#[cfg(test)]
mod tests {
    use super::{Line, LineIndex, line_starts};
    use proptest::prelude::{prop_assert_eq, proptest};

    proptest! {
        /// Reading a line from the text finds what the line starts find, for any byte of
        /// any text (newlines, lone carriage returns, CRLF, long lines, multi-byte
        /// characters, the end).
        #[test]
        fn a_scanned_line_is_the_indexed_line(
            text in "(\\PC{0,12}(\n|\r|\r\n)?){0,12}",
            at in 0usize..200,
        ) {
            let at = at.min(text.len());
            prop_assert_eq!(Line::scanned(&text, at), Line::of(&line_starts(&text), at, text.len()));
        }

        /// Positions are the same whichever way each is found (the first few by reading
        /// the text, the rest through the line starts).
        #[test]
        fn positions_do_not_depend_on_how_lines_are_found(
            text in "(\\PC{0,12}(\n|\r|\r\n)?){0,12}",
            spans in proptest::collection::vec((0usize..200, 0usize..8), 1..6),
        ) {
            let lazy = LineIndex::new(None);
            let built = LineIndex::new(Some(line_starts(&text)));
            for (at, width) in spans {
                let mut at = at.min(text.len());
                while !text.is_char_boundary(at) {
                    at -= 1;
                }
                let span = (at, (at + width).min(text.len()));
                prop_assert_eq!(lazy.pos(&text, span), built.pos(&text, span));
            }
        }

        /// Positions asked in the text's order, each counted on from the line of the one
        /// before while no carriage return is read, are those the line starts give.
        #[test]
        fn positions_in_order_are_counted_on_from_the_last(
            text in "(\\PC{0,12}(\n|\n|\r|\r\n)?){0,40}",
            ats in proptest::collection::vec(0usize..600, 1..30),
        ) {
            let lazy = LineIndex::new(None);
            let built = LineIndex::new(Some(line_starts(&text)));
            let mut ats: Vec<usize> = ats.into_iter().map(|at| at.min(text.len())).collect();
            ats.sort_unstable();
            for mut at in ats {
                while !text.is_char_boundary(at) {
                    at -= 1;
                }
                let span = (at, (at + 1).min(text.len()));
                prop_assert_eq!(lazy.pos(&text, span), built.pos(&text, span));
            }
        }
    }
}
