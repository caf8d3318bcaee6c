//! Byte offsets to LSP positions and back (LSP counts columns in UTF-16 code units), and
//! a document's text as the client's changes edit it.

use lsp_types::{Position, Range, TextDocumentContentChangeEvent};

/// Line starts of one text, for converting between byte offsets and LSP positions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Utf16Lines {
    starts: Vec<usize>,
    /// UTF-16 units the client's first line has before the text indexed: 1 for a
    /// byte-order mark, which the client's buffer holds and the analysed text does not.
    lead: u32,
}

impl Utf16Lines {
    /// Index `text`. A line ends at `\n`, `\r\n` or a lone `\r`, as LSP counts them
    /// ([`crate::text::is_line_break`]).
    pub fn new(text: &str) -> Self {
        Utf16Lines {
            starts: crate::text::line_starts(text),
            lead: 0,
        }
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
        let col: usize = text[start..offset].chars().map(char::len_utf16).sum();
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
        let line = text.get(start..end).unwrap_or("");
        let lead = if pos.line == 0 { self.lead } else { 0 };
        let character = pos.character.saturating_sub(lead) as usize;
        let mut units = 0usize;
        for (i, c) in line.char_indices() {
            if units >= character || c == '\n' || c == '\r' {
                return start + i;
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
    use super::*;

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
