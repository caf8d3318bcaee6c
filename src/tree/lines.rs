//! Lines and columns: where a byte range of the source is, for diagnostics.

use std::sync::OnceLock;

use crate::diag::Pos;

/// Where each line of a text starts and the character marks, built when a position is first
/// asked for: a file without diagnostics never needs them (they were a twentieth of the time
/// of reading a large loop).
#[derive(Debug, Clone)]
pub(super) struct LineIndex {
    line_starts: OnceLock<Vec<usize>>,
    char_marks: OnceLock<Vec<usize>>,
}

impl LineIndex {
    /// The index of a text, with its line starts when the parser already has them.
    pub(super) fn new(line_starts: Option<Vec<usize>>) -> LineIndex {
        LineIndex {
            line_starts: line_starts.map_or_else(OnceLock::new, OnceLock::from),
            char_marks: OnceLock::new(),
        }
    }

    /// Position of a byte range of `text` (the text this index is of). The character
    /// marks are built only for a column far into a long line (they cost a pass over the
    /// whole text, which a warning on line 1 of a large file must not pay).
    pub(super) fn pos(&self, text: &str, span: (usize, usize)) -> Pos {
        let marks = || self.char_marks.get_or_init(|| char_marks(text)).as_slice();
        pos_in(
            text,
            self.line_starts.get_or_init(|| line_starts(text)),
            Some(&marks),
            span,
        )
    }
}

/// Where each line starts (memchr: `match_indices` of a newline was a third of the cost
/// of a first diagnostic's position in a large file).
pub(super) fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0)
        .chain(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1))
        .collect()
}

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
    pos_in(text, starts, None, span)
}

fn pos_in<'m>(
    text: &str,
    starts: &[usize],
    marks: Option<&dyn Fn() -> &'m [usize]>,
    span: (usize, usize),
) -> Pos {
    let start = span.0.min(text.len());
    let line_idx = match starts.binary_search(&start) {
        Ok(i) => i,
        Err(i) => i.saturating_sub(1),
    };
    let line_start = starts.get(line_idx).copied().unwrap_or(0);
    let column = match marks {
        Some(m) if start - line_start > CHAR_MARK_BLOCK && text.is_char_boundary(start) => {
            let m = m();
            chars_before(text, m, start) - chars_before(text, m, line_start)
        }
        _ => text.get(line_start..start).unwrap_or("").chars().count(),
    } + 1;
    // Highlight at most to the end of the first line.
    let line_end = starts
        .get(line_idx + 1)
        .map(|e| e.saturating_sub(1))
        .unwrap_or(text.len());
    let end = span.1.clamp(start, line_end.max(start));
    Pos {
        line: u32::try_from(line_idx + 1).unwrap_or(u32::MAX),
        column: u32::try_from(column).unwrap_or(u32::MAX),
        start,
        end: if end == start {
            (start + 1).min(text.len())
        } else {
            end
        },
    }
}
