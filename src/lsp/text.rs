//! Byte offsets to LSP positions and back (LSP counts columns in UTF-16 code units).

use lsp_types::{Position, Range};

/// Line starts of one text, for converting between byte offsets and LSP positions.
#[derive(Debug, Clone)]
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    /// Index `text`.
    pub fn new(text: &str) -> Self {
        let starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        LineIndex { starts }
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
        Position::new(to_u32(line), to_u32(col))
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
        let mut units = 0usize;
        for (i, c) in line.char_indices() {
            if units >= pos.character as usize || c == '\n' || c == '\r' {
                return start + i;
            }
            units += c.len_utf16();
        }
        end
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
        let idx = LineIndex::new(text);
        let x = text.find('x').unwrap();
        assert_eq!(idx.position(text, x), Position::new(1, 3));
        assert_eq!(idx.offset(text, Position::new(1, 3)), x);
        assert_eq!(idx.offset(text, Position::new(1, 99)), text.len() - 1);
        assert_eq!(idx.offset(text, Position::new(9, 0)), text.len());
        // Inside a multi-byte character: moved back to its start.
        assert_eq!(idx.position(text, x - 1), Position::new(1, 1));
    }
}
