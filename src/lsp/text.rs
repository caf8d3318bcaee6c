//! Byte offsets to LSP positions and back (LSP counts columns in UTF-16 code units), and
//! a document's text as the client's changes edit it.

use std::sync::OnceLock;

use lsp_types::{Position, Range, TextDocumentContentChangeEvent};

/// Line starts of one text, for converting between byte offsets and LSP positions.
#[derive(Debug, Clone)]
pub struct Utf16Lines {
    starts: Vec<usize>,
    /// UTF-16 units the client's first line has before the text indexed: 1 for a
    /// byte-order mark, which the client's buffer holds and the analysed text does not.
    lead: u32,
    /// The UTF-16 units before every [`BLOCK`]-th byte of the text, built when a column
    /// far into a long line is first asked for (and dropped by an edit): a column is then
    /// counted from the block it is in, not from its line's start. Counted from the line's
    /// start, every position on a minified loop (one line of 10-40 MB) read the text up to
    /// it: the diagnostics of 100 errors read it 200 times (issue 50).
    marks: OnceLock<Vec<usize>>,
}

/// Equal when the line starts and lead are (the marks follow from the text).
impl PartialEq for Utf16Lines {
    fn eq(&self, other: &Utf16Lines) -> bool {
        self.starts == other.starts && self.lead == other.lead
    }
}

impl Eq for Utf16Lines {}

/// Bytes between two marks of [`Utf16Lines::marks`], and the longest stretch of a line
/// that is counted without them.
const BLOCK: usize = 4096;

/// UTF-16 units of the characters that start in `bytes`: one for every byte that is not
/// a continuation byte, and one more for a character of four bytes (a surrogate pair).
/// Counted a byte at a time without branches, which the compiler vectorises.
fn utf16_units(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .map(|&b| usize::from((b & 0xC0) != 0x80) + usize::from(b >= 0xF0))
        .sum()
}

impl Utf16Lines {
    /// Index `text`. A line ends at `\n`, `\r\n` or a lone `\r`, as LSP counts them
    /// ([`crate::text::is_line_break`]).
    pub fn new(text: &str) -> Self {
        Utf16Lines {
            starts: crate::text::line_starts(text),
            lead: 0,
            marks: OnceLock::new(),
        }
    }

    /// The UTF-16 units of `text[from..to]` (both character boundaries, `from <= to`):
    /// read whole when short, else from the marks ([`Self::marks`]).
    fn units_between(&self, text: &str, from: usize, to: usize) -> usize {
        let b = text.as_bytes();
        if to - from <= BLOCK {
            return utf16_units(&b[from..to]);
        }
        self.units_before(text, to) - self.units_before(text, from)
    }

    /// The UTF-16 units of `text[..at]`, from the marks.
    fn units_before(&self, text: &str, at: usize) -> usize {
        let b = text.as_bytes();
        let marks = self
            .marks
            .get_or_init(|| {
                let mut total = 0;
                let mut marks = Vec::with_capacity(b.len() / BLOCK + 1);
                for block in b.chunks(BLOCK) {
                    marks.push(total);
                    total += utf16_units(block);
                }
                marks
            })
            .as_slice();
        let k = (at / BLOCK).min(marks.len().saturating_sub(1));
        marks.get(k).copied().unwrap_or(0) + utf16_units(&b[(k * BLOCK).min(at)..at])
    }

    /// The index of a text that the client's buffer has after `lead` more UTF-16 units on
    /// its first line (a byte-order mark the analysis took off): positions on that line
    /// count them.
    pub fn with_lead(mut self, lead: u32) -> Self {
        self.lead = lead;
        self
    }

    /// [`Utf16Lines::with_lead`]'s units.
    pub fn lead(&self) -> u32 {
        self.lead
    }

    /// Follow an edit of the text: the bytes `start..end` replaced by `inserted`, giving
    /// `edited`. The line starts after the edit move; those it touched are found again in
    /// `edited` from the byte before it (a `\r` there ends a line or not by what follows
    /// it); no scan of the rest of the text.
    pub fn replace(&mut self, edited: &str, (start, end): (usize, usize), inserted: &str) {
        self.marks = OnceLock::new();
        let removed_from = self.starts.partition_point(|&s| s < start.max(1));
        let removed_to = self.starts.partition_point(|&s| s <= end);
        for s in &mut self.starts[removed_to..] {
            *s = *s - (end - start) + inserted.len();
        }
        let b = edited.as_bytes();
        let window_end = (start + inserted.len()).min(b.len());
        let added =
            crate::text::line_breaks(b, start.saturating_sub(1).min(window_end), window_end)
                .map(|i| i + 1);
        self.starts.splice(removed_from..removed_to, added);
    }

    /// The LSP position of byte `offset` (clamped to the text, moved back to a character
    /// boundary).
    pub fn position(&self, text: &str, offset: usize) -> Position {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = match self.starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        let start = self.starts.get(line).copied().unwrap_or(0).min(offset);
        let col = self.units_between(text, start, offset);
        let lead = if line == 0 { self.lead } else { 0 };
        Position::new(to_u32(line), to_u32(col).saturating_add(lead))
    }

    /// The LSP range of a byte range.
    pub fn range(&self, text: &str, span: (usize, usize)) -> Range {
        Range::new(
            self.position(text, span.0),
            self.position(text, span.1.max(span.0)),
        )
    }

    /// The byte offset of an LSP position (a position past the end of its line or of the
    /// text is clamped).
    pub fn offset(&self, text: &str, pos: Position) -> usize {
        let Some(&start) = self.starts.get(pos.line as usize) else {
            return text.len();
        };
        let end = self
            .starts
            .get(pos.line as usize + 1)
            .copied()
            .unwrap_or(text.len());
        let lead = if pos.line == 0 { self.lead } else { 0 };
        let character = pos.character.saturating_sub(lead) as usize;
        // Far into a long line: from the last mark the column does not pass (the marks
        // are at byte multiples of BLOCK, maybe inside a character: moved back to its
        // start, whose units the count from the line's start then holds).
        let mut from = start;
        if end - start > BLOCK {
            let before_line = self.units_before(text, start);
            let (mut lo, mut hi) = (start / BLOCK + 1, end / BLOCK + 1);
            while lo < hi {
                let mid = lo + (hi - lo) / 2;
                let mut at = (mid * BLOCK).min(end);
                while !text.is_char_boundary(at) {
                    at -= 1;
                }
                if self.units_before(text, at) - before_line <= character {
                    lo = mid + 1;
                    from = from.max(at);
                } else {
                    hi = mid;
                }
            }
        }
        let mut units = self.units_between(text, start, from);
        let line = text.get(from..end).unwrap_or("");
        for (i, c) in line.char_indices() {
            if units >= character || c == '\n' || c == '\r' {
                return from + i;
            }
            units += c.len_utf16();
        }
        end
    }
}

/// A document's text and its line index, edited by the client's changes.
#[derive(Debug, Clone)]
pub struct Source {
    /// The text.
    pub text: String,
    /// Its line index.
    pub lines: Utf16Lines,
}

impl Source {
    /// Index `text`.
    pub fn new(text: String) -> Source {
        Source {
            lines: Utf16Lines::new(&text),
            text,
        }
    }

    /// Apply one change: the whole text, or a range (in UTF-16 positions of the text as
    /// the previous changes left it; clamped to the text) replaced.
    pub fn apply(&mut self, change: TextDocumentContentChangeEvent) {
        let Some(range) = change.range else {
            *self = Source::new(change.text);
            return;
        };
        let a = self.lines.offset(&self.text, range.start);
        let b = self.lines.offset(&self.text, range.end);
        let span = (a.min(b), a.max(b));
        self.text.replace_range(span.0..span.1, &change.text);
        self.lines.replace(&self.text, span, &change.text);
    }
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::{Position, TextDocumentContentChangeEvent};

    use super::{BLOCK, Range, Source, Utf16Lines};
    #[test]
    fn columns_are_utf16_units() {
        let text = "a\n\u{e9}\u{1f600}x\n";
        let idx = Utf16Lines::new(text);
        let x = text.find('x').unwrap();
        assert_eq!(idx.position(text, x), Position::new(1, 3));
        assert_eq!(idx.offset(text, Position::new(1, 3)), x);
        assert_eq!(idx.offset(text, Position::new(1, 99)), text.len() - 1);
        assert_eq!(idx.offset(text, Position::new(9, 0)), text.len());
        // Inside a multi-byte character: moved back to its start.
        assert_eq!(idx.position(text, x - 1), Position::new(1, 1));
    }

    /// On a line much longer than a block (a minified file), with characters of 1 to 4
    /// bytes across the blocks' edges, positions and offsets agree with counting from the
    /// line's start, and an edit drops the marks of the text before it.
    #[test]
    fn columns_far_into_a_long_line_count_from_the_marks() {
        let mut text = String::from("x\n");
        for i in 0..3 * BLOCK {
            text.push_str(["a", "\u{e9}", "\u{65e5}", "\u{1f680}"][i % 7 % 4]);
        }
        text.push_str("\nend");
        let idx = Utf16Lines::new(&text);
        let line = &text[2..text.rfind('\n').unwrap()];
        let mut units = 0u32;
        for (i, _) in line.char_indices().step_by(97) {
            let prefix: u32 = line[..i].chars().map(|c| c.len_utf16() as u32).sum();
            units = units.max(prefix);
            assert_eq!(
                idx.position(&text, 2 + i),
                Position::new(1, prefix),
                "byte {i}"
            );
            assert_eq!(
                idx.offset(&text, Position::new(1, prefix)),
                2 + i,
                "column {prefix}"
            );
        }
        let end = text.rfind('\n').unwrap();
        assert_eq!(idx.offset(&text, Position::new(1, units + 1_000_000)), end);
        // An edit at the start: the marks of the old text are not used for the new one.
        let mut s = Source {
            text: text.clone(),
            lines: idx,
        };
        s.apply(TextDocumentContentChangeEvent {
            range: Some(Range::new(Position::new(1, 0), Position::new(1, 0))),
            range_length: None,
            text: "\u{1f680}".to_owned(),
        });
        let fresh = Utf16Lines::new(&s.text);
        let at = s.text.rfind('\n').unwrap() - 1;
        assert_eq!(s.lines.position(&s.text, at), fresh.position(&s.text, at));
    }

    #[test]
    fn a_line_ends_at_a_newline_a_crlf_or_a_lone_carriage_return() {
        let text = "a\rb\r\nc\nd";
        let idx = Utf16Lines::new(text);
        for (c, line) in [('a', 0), ('b', 1), ('c', 2), ('d', 3)] {
            let at = text.find(c).unwrap();
            assert_eq!(idx.position(text, at), Position::new(line, 0));
            assert_eq!(idx.offset(text, Position::new(line, 0)), at);
        }
        // The end of a line is before its line break, both bytes of a `\r\n`.
        assert_eq!(
            idx.offset(text, Position::new(1, 9)),
            text.find('\r').unwrap() + 2
        );
    }

    fn change(range: ((u32, u32), (u32, u32)), text: &str) -> TextDocumentContentChangeEvent {
        let ((l0, c0), (l1, c1)) = range;
        TextDocumentContentChangeEvent {
            range: Some(Range::new(Position::new(l0, c0), Position::new(l1, c1))),
            range_length: None,
            text: text.to_owned(),
        }
    }

    #[test]
    fn changes_patch_the_text_in_utf16_positions() {
        let mut s = Source::new("a\n\u{e9}\u{1f600}x\ny\n".to_owned());
        // After the emoji (two UTF-16 units): before `x`.
        s.apply(change(((1, 3), (1, 3)), "Z"));
        assert_eq!(s.text, "a\n\u{e9}\u{1f600}Zx\ny\n");
        // A range over a line break, replaced by two lines.
        s.apply(change(((0, 1), (1, 1)), "1\n2\n"));
        assert_eq!(s.text, "a1\n2\n\u{1f600}Zx\ny\n");
        // Reversed and past-the-end positions are clamped, never a panic.
        s.apply(change(((9, 0), (3, 0)), "!"));
        assert_eq!(s.text, "a1\n2\n\u{1f600}Zx\n!");
        assert_eq!(s.lines, Utf16Lines::new(&s.text));
        // Without a range: the whole text.
        s.apply(TextDocumentContentChangeEvent {
            range: None,
            range_length: None,
            text: "new\n".to_owned(),
        });
        assert_eq!(
            (s.text.as_str(), &s.lines),
            ("new\n", &Utf16Lines::new("new\n"))
        );
    }

    #[test]
    fn the_line_index_follows_every_edit() {
        let texts = [
            "",
            "\n",
            "ab\ncd\n\nef",
            "\u{e9}\n\u{1f600}\r\nz",
            "a\rb\r\nc\r",
            "\r\r\n\n",
        ];
        let inserts = ["", "x", "\n", "\r", "\r\n", "a\nb\n", "\u{e9}\n", "a\rb"];
        for text in texts {
            let bounds: Vec<usize> = (0..=text.len())
                .filter(|&i| text.is_char_boundary(i))
                .collect();
            for &a in &bounds {
                for &b in bounds.iter().filter(|&&b| b >= a) {
                    for ins in inserts {
                        let mut edited = text.to_owned();
                        edited.replace_range(a..b, ins);
                        let mut idx = Utf16Lines::new(text);
                        idx.replace(&edited, (a, b), ins);
                        assert_eq!(idx, Utf16Lines::new(&edited), "{text:?} {a}..{b} {ins:?}");
                    }
                }
            }
        }
    }
}
