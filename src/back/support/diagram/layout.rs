//! The layout of a drawing's text: labels shortened and wrapped to a width in columns
//! (Unicode scalar values, never a split character; CJK and emoji two columns), each
//! borrowing its input when it has nothing to change.

use std::borrow::Cow;

use crate::text::clean;

/// Text of a drawing: borrowed from the IR when cleaning and shortening left it as written
/// (most text), owned when they changed it.
pub type Text<'a> = Cow<'a, str>;

/// The ellipsis appended to shortened text.
pub const ELLIPSIS: char = '…';

/// `s` cleaned (see [`clean`]) and cut to at most `max_chars` characters, ending with `…`
/// when something was cut. The cut prefers a word boundary in the last third.
pub fn shorten(s: &str, max_chars: usize) -> Text<'_> {
    // One character more than is kept says whether to cut.
    shorten_clean(
        crate::text::clean_upto(s, max_chars.saturating_add(1)).0,
        max_chars,
    )
}

/// [`shorten`] of text already cleaned.
pub(super) fn shorten_clean(s: Text<'_>, max_chars: usize) -> Text<'_> {
    if s.len() <= max_chars {
        return s;
    }
    if max_chars == 0 {
        return Cow::Borrowed("");
    }
    // Where the kept characters end, and whether there is one more than `max_chars`:
    // counted a block of bytes at a time (a byte at a time through an iterator was 68 M
    // instructions for the 600-character tooltips of 10,000 long objectives in DOT).
    let Some(keep_end) = crate::text::char_start(&s, max_chars - 1) else {
        return s;
    };
    let more = (s.as_bytes()[keep_end + 1..].iter()).any(|&b| !is_continuation(b));
    if !more {
        return s;
    }
    Cow::Owned(cut_before(&s[..keep_end]))
}

/// `keep`, the characters a shortened text may keep, cut at a word boundary in its last
/// third when there is one, ending with `…`.
pub(super) fn cut_before(keep: &str) -> String {
    let min = keep.len() * 2 / 3;
    let cut = match keep.rfind(' ') {
        Some(i) if i >= min && i > 0 => &keep[..i],
        _ => keep,
    };
    let mut out = cut.trim_end().to_owned();
    out.push(ELLIPSIS);
    out
}

/// Whether a byte of UTF-8 continues a character (`10xxxxxx`) rather than starting one.
fn is_continuation(b: u8) -> bool {
    b & 0xC0 == 0x80
}

/// `s` cleaned and wrapped into lines of at most `width` columns (breaking at spaces,
/// splitting words longer than a line; wide characters such as CJK and most emoji count as
/// two columns), at most `max_lines` lines; the last line ends with `…` when text was left
/// out. An empty text gives no lines.
pub fn wrap(s: &str, width: usize, max_lines: usize) -> Vec<Text<'_>> {
    wrap_clean(&clean(s), width, max_lines)
}

/// [`wrap`] of text already cleaned: its lines borrow what `text` borrows.
fn wrap_clean<'t>(text: &Text<'t>, width: usize, max_lines: usize) -> Vec<Text<'t>> {
    wrap_part(text, true, width, max_lines).unwrap_or_default()
}

/// [`wrap`] of a prefix of cleaned text (see [`crate::text::clean_upto`]; `whole` when it
/// is all of it): `None` when the prefix ends before the lines are known.
pub(super) fn wrap_part<'t>(
    text: &Text<'t>,
    whole: bool,
    width: usize,
    max_lines: usize,
) -> Option<Vec<Text<'t>>> {
    let width = width.max(2);
    match text {
        Cow::Borrowed(text) => wrapped(text, whole, width, max_lines, Cow::Borrowed),
        Cow::Owned(text) => wrapped(text, whole, width, max_lines, |l| Cow::Owned(l.to_owned())),
    }
}

/// The lines of cleaned `text` (see [`wrap_part`]), each made a [`Text`] by `line`.
pub(super) fn wrapped<'t, 'o>(
    text: &'t str,
    whole: bool,
    width: usize,
    max_lines: usize,
    line: impl Fn(&'t str) -> Text<'o>,
) -> Option<Vec<Text<'o>>> {
    let (all, stop) = first_fit(text, width, max_lines);
    // A stop at a word followed by more of the prefix saw only whole words.
    if !whole && stop.is_none_or(|end| end >= text.len()) {
        return None;
    }
    let truncated = all.len() > max_lines;
    let mut lines: Vec<Text<'o>> = all
        .into_iter()
        .take(max_lines)
        .filter(|l| !l.is_empty())
        .map(line)
        .collect();
    if truncated && let Some(last) = lines.last_mut() {
        end_with_ellipsis(last.to_mut(), width);
    }
    Some(lines)
}

/// The display width of a character (two columns for CJK and most emoji).
fn char_width(c: char) -> usize {
    unicode_width::UnicodeWidthChar::width(c).unwrap_or(0)
}

/// The display width of a text.
pub(super) fn display_width(s: &str) -> usize {
    s.chars().map(char_width).sum()
}

/// First-fit wrapping of cleaned text (see [`clean`]: words separated by single spaces),
/// as `textwrap` does it with `break_words` and no hyphenation (a test compares the two):
/// words go on a line while they fit, a word wider than a line is split into pieces that
/// fit. Stops after `max_lines + 1` lines, which is enough to know that text was left out
/// (wrapping all of a long objective with textwrap was a tenth of the time of drawing a
/// large loop). Also returns where the word it stopped at ends (`None` when it placed
/// every word).
pub(super) fn first_fit(text: &str, width: usize, max_lines: usize) -> (Vec<&str>, Option<usize>) {
    let mut fit = FirstFit {
        text,
        width,
        max_lines,
        lines: Vec::with_capacity(max_lines.min(8) + 1),
        line: None,
        used: 0,
    };
    let mut offset = 0;
    // Split as bytes: `str::split(' ')` set up a searcher per word, a tenth of drawing.
    for word in text.as_bytes().split(|&b| b == b' ') {
        let start = offset;
        offset += word.len() + 1;
        // A space is one byte of its own, so each piece is whole characters.
        let word = &text[start..start + word.len()];
        let space = usize::from(start + word.len() < text.len());
        if !fit.word(word, start, space) {
            return (fit.lines, Some(start + word.len()));
        }
    }
    if let Some((from, to)) = fit.line {
        fit.lines.push(&text[from..to]);
    }
    (fit.lines, None)
}

/// The lines of [`first_fit`] under construction.
pub(super) struct FirstFit<'t> {
    text: &'t str,
    width: usize,
    max_lines: usize,
    lines: Vec<&'t str>,
    /// The current line: where its first piece starts and its last ends.
    line: Option<(usize, usize)>,
    /// Its width, with the space after each piece.
    used: usize,
}

impl FirstFit<'_> {
    /// Place a word starting at byte `at` (one piece when it fits on a line, else pieces
    /// of at most a line); false once more than `max_lines` lines are complete.
    fn word(&mut self, word: &str, at: usize, space: usize) -> bool {
        if word.is_empty() {
            return true;
        }
        if word.len() <= self.width && word.is_ascii() {
            return self.piece(at, at + word.len(), word.len(), space);
        }
        let (mut from, mut used) = (0, 0);
        for (i, c) in word.char_indices() {
            let w = char_width(c);
            if used > 0 && used + w > self.width {
                if !self.piece(at + from, at + i, used, 0) {
                    return false;
                }
                from = i;
                used = 0;
            }
            used += w;
        }
        from >= word.len() || self.piece(at + from, at + word.len(), used, space)
    }

    /// Place the piece `start..end` of `piece_width` columns, then `space` columns.
    fn piece(&mut self, start: usize, end: usize, piece_width: usize, space: usize) -> bool {
        if let Some((from, to)) = self.line
            && self.used + piece_width > self.width
        {
            self.lines.push(&self.text[from..to]);
            if self.lines.len() > self.max_lines {
                return false;
            }
            self.line = None;
            self.used = 0;
        }
        self.line = Some((self.line.map_or(start, |(from, _)| from), end));
        self.used += piece_width + space;
        true
    }
}

/// Cut `line` so that it and a final `…` fit in `width` columns, then add the `…`.
pub(super) fn end_with_ellipsis(line: &mut String, width: usize) {
    while display_width(line) + 1 > width {
        line.pop();
    }
    let kept = line.trim_end().len();
    line.truncate(kept);
    line.push(ELLIPSIS);
}
