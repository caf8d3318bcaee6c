//! Text meant for a person: the one definition of the characters that must not reach a
//! reader as they are, the clean-ups built on it, and the escaping loop and escapers that
//! more than one output shares.
//!
//! A leaf module: it imports no other module of the crate.
//!
//! # What is dropped ([`is_dropped`])
//!
//! * control characters (C0, DEL, C1) other than whitespace (whitespace is folded or kept
//!   as a line break, by the output);
//! * invisible format characters: the Unicode `Default_Ignorable_Code_Point` set (every
//!   bidirectional control — the Arabic letter mark, LRM/RLM, the embeddings and overrides
//!   `U+202A..U+202E`, the isolates `U+2066..U+2069` —, the zero-width space, the word
//!   joiner and invisible operators, the byte-order mark, soft hyphen, the Hangul fillers,
//!   the tag characters, the shorthand and musical format controls, the reserved ranges),
//!   and the interlinear annotation controls (`U+FFF9..U+FFFB`, `Cf` but not
//!   default-ignorable: they hide or move text), **except** what correct text needs and
//!   which hides nothing on its own: the zero-width non-joiner and joiner (`U+200C`,
//!   `U+200D`: Persian, Indic scripts, emoji sequences), the combining grapheme joiner
//!   (`U+034F`) and the variation selectors (`U+180B..U+180D`, `U+180F`, `U+FE00..U+FE0F`,
//!   `U+E0100..U+E01EF`: they choose the glyph of the character before them);
//! * noncharacters (`U+FDD0..U+FDEF` and the last two code points of every plane), which
//!   XML forbids (an SVG or a Graphviz HTML-like label holding one is rejected).
//!
//! The visible `Cf` characters are kept: the prepended concatenation marks (the Arabic
//! number signs `U+0600..U+0605`, `U+06DD`, the Syriac abbreviation mark, the Kaithi number
//! signs, ...), which draw a sign over the digits after them, and the Egyptian hieroglyph
//! format controls, which draw the arrangement of the signs. Every other control, format
//! character or separator (General_Category `Cc`, `Cf`, `Zl`, `Zp`) is dropped or is
//! whitespace; the markup-safety tests check both sets against the Unicode Character
//! Database on every code point. The line and paragraph separators
//! (`U+2028`, `U+2029`) are whitespace: folded into a space in one-line text, a line break
//! in text of several lines ([`lines`]).
//!
//! # Who uses what
//!
//! * [`clean`]: one line, whitespace folded (diagram labels, diff text); [`clean_upto`]
//!   the same as far as a label or tooltip shows it;
//! * [`one_line`]: one line, each control character a space (Markdown);
//! * [`lines`]: lines kept (SARIF and GitHub messages, language-server hover);
//! * [`terminal`]: each such character shown as `?`, byte offsets kept (terminal
//!   diagnostics and their source snippets);
//! * [`markdown`]: the Markdown escapers of the documentation pages and the diff comment;
//! * [`did_you_mean`]: the known name closest to an unknown one (the shape check's and
//!   validation's help).
//!
//! The loop formats (IR, AgentPM, MAS) and the JSON outputs are data, not display: they keep
//! every string exactly.

use std::borrow::Cow;

pub mod did_you_mean;
pub mod markdown;

/// Is `c` dropped from text meant for a person (see the [module](self) documentation)?
pub fn is_dropped(c: char) -> bool {
    if u32::from(c) < 0xA0 {
        return c.is_control() && !c.is_whitespace();
    }
    is_invisible(c) || is_noncharacter(c)
}

/// The invisible format characters that [`is_dropped`] drops.
fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}'
            | '\u{061C}'
            | '\u{115F}'
            | '\u{1160}'
            | '\u{17B4}'
            | '\u{17B5}'
            | '\u{180E}'
            | '\u{200B}'
            | '\u{200E}'
            | '\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{206F}'
            | '\u{3164}'
            | '\u{FEFF}'
            | '\u{FFA0}'
            | '\u{FFF0}'..='\u{FFFB}'
            | '\u{1BCA0}'..='\u{1BCA3}'
            | '\u{1D173}'..='\u{1D17A}'
            | '\u{E0000}'..='\u{E00FF}'
            | '\u{E01F0}'..='\u{E0FFF}'
    )
}

/// A noncharacter: `U+FDD0..U+FDEF` or the last two code points of a plane.
fn is_noncharacter(c: char) -> bool {
    ('\u{FDD0}'..='\u{FDEF}').contains(&c) || u32::from(c) & 0xFFFE == 0xFFFE
}

/// A line break other than `\n`: CR, VT, FF, NEL and the line and paragraph separators.
fn is_other_line_break(c: char) -> bool {
    matches!(
        c,
        '\r' | '\u{0B}' | '\u{0C}' | '\u{85}' | '\u{2028}' | '\u{2029}'
    )
}

/// Whether every byte of `s` is printable ASCII (space to `~`): nothing to drop or
/// replace.
fn is_printable_ascii(s: &str) -> bool {
    printable_ascii_run(s.as_bytes()) == s.len()
}

/// Fold whitespace runs (including newlines and tabs) into one space, trim both ends and
/// drop the [`is_dropped`] characters. Borrowed when nothing changes.
pub fn clean(s: &str) -> Cow<'_, str> {
    clean_upto(s, usize::MAX).0
}

/// [`clean`] as far as its first `max_chars` characters: a prefix of `clean(s)` that holds
/// them (all of it when it is shorter), and `true` when it is all of `clean(s)` (`false`:
/// it may go on). Text shown cut (a tooltip, the first lines of a label) costs its shown
/// part, not the whole text.
pub fn clean_upto(s: &str, max_chars: usize) -> (Cow<'_, str>, bool) {
    // Plain ASCII is one byte a character, and [`clean`] leaves it as it is: when the
    // first `max_chars` characters and the one after them are plain (that one no space, so
    // no space before it is trimmed), they begin `clean(s)`, and the rest of a long text
    // is never read.
    if let Some(window) = s.get(..max_chars.saturating_add(1))
        && window.len() < s.len()
        && is_plain_ascii(window)
    {
        return (Cow::Borrowed(&s[..max_chars]), false);
    }
    if is_plain_ascii(s) {
        return match s.get(..max_chars) {
            Some(head) if head.len() < s.len() => (Cow::Borrowed(head), false),
            _ => (Cow::Borrowed(s), true),
        };
    }
    let mut fold = Fold::new(s, max_chars);
    let whole = fold.run();
    (fold.into_text(whole), whole)
}

/// How many bytes at the start of `b` are printable ASCII: 16 at a time in a loop the
/// compiler vectorises, then one at a time (a byte at a time was most of the time of
/// cleaning long texts).
fn printable_ascii_run(b: &[u8]) -> usize {
    let printable = |c: &u8| (0x20..0x7F).contains(c);
    let whole = b
        .chunks_exact(16)
        .take_while(|chunk| chunk.iter().fold(true, |all, c| all & printable(c)))
        .count()
        * 16;
    whole + b[whole..].iter().take_while(|c| printable(c)).count()
}

/// Printable ASCII with single spaces between words: [`clean`] leaves it as it is. Passes
/// the compiler vectorises.
fn is_plain_ascii(s: &str) -> bool {
    let b = s.as_bytes();
    is_printable_ascii(s)
        && b.first() != Some(&b' ')
        && b.last() != Some(&b' ')
        && !has_double_space(b)
}

/// Whether two spaces follow each other, in a pass the compiler vectorises (`contains`
/// set up a substring searcher for every text: 2 % of drawing a large loop).
fn has_double_space(b: &[u8]) -> bool {
    b.iter()
        .zip(b.iter().skip(1))
        .fold(false, |found, (x, y)| found | ((*x == b' ') & (*y == b' ')))
}

/// [`clean`]'s one pass over its text. The output is a slice of the text while nothing
/// has changed (most text), copied only from the first change on; runs of kept
/// characters (words) are copied whole.
struct Fold<'s> {
    text: &'s str,
    max_chars: usize,
    /// The output, once it differs from `text[..same]`.
    out: Option<String>,
    /// While `out` is `None`, the output is `text[..same]`.
    same: usize,
    /// Characters written.
    count: usize,
    /// Whitespace seen since the last kept character, after one.
    space: bool,
}

impl<'s> Fold<'s> {
    fn new(text: &'s str, max_chars: usize) -> Self {
        Fold {
            text,
            max_chars,
            out: None,
            same: 0,
            count: 0,
            space: false,
        }
    }

    /// Fold until the text ends (true) or `max_chars` characters are written with more
    /// to come (false).
    fn run(&mut self) -> bool {
        let b = self.text.as_bytes();
        let mut at = 0;
        while at < b.len() {
            let end = at + printable_ascii_run(&b[at..]);
            if !self.ascii(at, end) {
                return false;
            }
            at = end;
            let Some(c) = self.text[at..].chars().next() else {
                break;
            };
            if is_dropped(c) {
                // Nothing written, and no space either.
            } else if c.is_whitespace() {
                self.space = self.count > 0;
            } else if !self.word(at, c.len_utf8(), 1) {
                return false;
            }
            at += c.len_utf8();
        }
        true
    }

    /// Fold the printable ASCII `text[from..to]`: its words between single spaces are one
    /// piece, unless two spaces follow each other somewhere (rare: then a word at a time).
    /// False when `max_chars` was reached with more to come.
    fn ascii(&mut self, from: usize, to: usize) -> bool {
        let part = &self.text[from..to];
        if part.starts_with(' ') {
            self.space = self.count > 0;
        }
        let words = part.trim_matches(' ');
        if words.is_empty() {
            return true;
        }
        let mut at = from + (part.len() - part.trim_start_matches(' ').len());
        if !words.contains("  ") {
            if !self.word(at, words.len(), words.len()) {
                return false;
            }
        } else {
            for w in words.split(' ') {
                if !w.is_empty() && !self.word(at, w.len(), w.len()) {
                    return false;
                }
                self.space = true;
                at += w.len() + 1;
            }
        }
        self.space = part.ends_with(' ');
        true
    }

    /// Write the kept text `text[at..at + len]` of `chars` characters, after the pending
    /// space; false when `max_chars` was reached with more to come.
    fn word(&mut self, at: usize, len: usize, chars: usize) -> bool {
        if self.space {
            if self.count == self.max_chars {
                return false;
            }
            self.write_space(at);
        }
        let room = self.max_chars - self.count;
        if chars > room {
            let cut = self.text[at..]
                .char_indices()
                .nth(room)
                .map_or(len, |(i, _)| i);
            self.write(at, cut, room);
            return false;
        }
        self.write(at, len, chars);
        true
    }

    /// Write the single space between two words; the next word starts at `next`.
    fn write_space(&mut self, next: usize) {
        self.space = false;
        self.count += 1;
        match &mut self.out {
            None if next == self.same + 1 && self.text.as_bytes()[self.same] == b' ' => {
                self.same += 1;
            }
            None => self.out = Some(format!("{} ", &self.text[..self.same])),
            Some(out) => out.push(' '),
        }
    }

    /// Write the `chars` characters of `text[at..at + len]`.
    fn write(&mut self, at: usize, len: usize, chars: usize) {
        self.count += chars;
        let piece = &self.text[at..at + len];
        match &mut self.out {
            None if at == self.same => self.same += len,
            None => {
                let mut out = String::with_capacity(self.text.len().min(self.max_chars));
                out.push_str(&self.text[..self.same]);
                out.push_str(piece);
                self.out = Some(out);
            }
            Some(out) => out.push_str(piece),
        }
    }

    /// The output: borrowed while it is the text unchanged (or, when cut, its start).
    fn into_text(self, whole: bool) -> Cow<'s, str> {
        match self.out {
            Some(out) => Cow::Owned(out),
            None if !whole || self.same == self.text.len() => {
                Cow::Borrowed(&self.text[..self.same])
            }
            None => Cow::Owned(self.text[..self.same].to_owned()),
        }
    }
}

/// One line: every control character (newlines and tabs included) and line separator
/// becomes a space, the [`is_dropped`] characters are dropped; nothing is trimmed or
/// folded. Borrowed when nothing changes.
pub fn one_line(s: &str) -> Cow<'_, str> {
    let changed = |c: char| c.is_control() || is_dropped(c) || is_other_line_break(c);
    if is_printable_ascii(s) || !s.chars().any(changed) {
        return Cow::Borrowed(s);
    }
    Cow::Owned(
        s.chars()
            .filter(|&c| c.is_control() || !is_dropped(c))
            .map(|c| {
                if c.is_control() || is_other_line_break(c) {
                    ' '
                } else {
                    c
                }
            })
            .collect(),
    )
}

/// Text of several lines: the [`is_dropped`] characters dropped, `\r\n` and every other
/// line break (CR, VT, FF, NEL, `U+2028`, `U+2029`) made `\n`; tabs kept. Borrowed when
/// nothing changes.
pub fn lines(s: &str) -> Cow<'_, str> {
    let printable = |b: u8| (0x20..0x7F).contains(&b) || b == b'\n' || b == b'\t';
    let changed = |c: char| is_dropped(c) || is_other_line_break(c);
    if s.bytes().all(printable) || !s.chars().any(changed) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\r' && chars.peek() == Some(&'\n') {
            continue;
        }
        if is_other_line_break(c) {
            out.push('\n');
        } else if !is_dropped(c) {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Whether the byte at `i` ends a line: a newline, or a carriage return that no newline
/// follows (a line break of its own, as YAML and editors count it: classic Mac line
/// endings); `\r\n` ends a line at its newline.
pub fn is_line_break(b: &[u8], i: usize) -> bool {
    match b.get(i) {
        Some(b'\n') => true,
        Some(b'\r') => b.get(i + 1) != Some(&b'\n'),
        _ => false,
    }
}

/// Whether `b` has a carriage return that no newline follows.
pub fn has_lone_cr(b: &[u8]) -> bool {
    memchr::memchr_iter(b'\r', b).any(|i| is_line_break(b, i))
}

/// The line breaks ([`is_line_break`]) among the bytes `from..to` of `b`, in order.
pub fn line_breaks(b: &[u8], from: usize, to: usize) -> impl Iterator<Item = usize> + '_ {
    memchr::memchr2_iter(b'\n', b'\r', &b[from..to])
        .map(move |i| from + i)
        .filter(|&i| is_line_break(b, i))
}

/// Where each line of `text` starts ([`is_line_break`]).
///
/// Counted first and allocated once: grown by doubling, each larger copy of the list took
/// fresh memory (with huge pages, a fresh 2 MiB page each), and the first position in a
/// 10,000-phase loop made the process 9.7 MB larger, for a list of 0.6 MB. memchr:
/// `match_indices` of a newline was a third of the cost of a first diagnostic's position
/// in a large file.
pub fn line_starts(text: &str) -> Vec<usize> {
    let b = text.as_bytes();
    if has_lone_cr(b) {
        let breaks = line_breaks(b, 0, b.len());
        return std::iter::once(0).chain(breaks.map(|i| i + 1)).collect();
    }
    let newlines = memchr::memchr_iter(b'\n', b).count();
    let mut starts = Vec::with_capacity(newlines + 1);
    starts.push(0);
    starts.extend(memchr::memchr_iter(b'\n', b).map(|i| i + 1));
    starts
}

/// The start of the line holding byte `offset` of `text` ([`is_line_break`]).
pub fn line_start(text: &str, offset: usize) -> usize {
    let b = text.as_bytes();
    let mut end = offset.min(b.len());
    while let Some(i) = memchr::memrchr2(b'\n', b'\r', &b[..end]) {
        if is_line_break(b, i) {
            return i + 1;
        }
        end = i;
    }
    0
}

/// The end of the line holding byte `offset` of `text`: where its line break starts (the
/// `\r` of a `\r\n`), or the end of the text.
pub fn line_end(text: &str, offset: usize) -> usize {
    let from = offset.min(text.len());
    memchr::memchr2(b'\n', b'\r', &text.as_bytes()[from..]).map_or(text.len(), |i| from + i)
}

/// The start of the line after the one holding byte `offset` (the end of the text when
/// it is the last).
pub fn next_line_start(text: &str, offset: usize) -> usize {
    let end = line_end(text, offset);
    let b = text.as_bytes();
    match b.get(end) {
        Some(b'\r') if b.get(end + 1) == Some(&b'\n') => end + 2,
        Some(_) => end + 1,
        None => end,
    }
}

/// The line ending `text` uses: that of its first line break (`\n` when it has none), for
/// an edit that adds lines to it.
pub fn line_ending(text: &str) -> &'static str {
    let end = line_end(text, 0);
    match &text.as_bytes()[end..] {
        [b'\r', b'\n', ..] => "\r\n",
        [b'\r', ..] => "\r",
        _ => "\n",
    }
}

/// Text for a terminal: every control character (but newlines and tabs when `keep_lines`),
/// line separator and [`is_dropped`] character becomes `?`, padded with spaces to its byte
/// length, so byte offsets into the text stay valid (a source snippet's labels point into
/// it) and no escape sequence, reordering or hidden character reaches the terminal.
/// Borrowed when nothing changes.
pub fn terminal(s: &str, keep_lines: bool) -> Cow<'_, str> {
    let shown_as_is = |c: char| {
        let kept_line = keep_lines && matches!(c, '\n' | '\r' | '\t');
        kept_line || !(c.is_control() || is_dropped(c) || is_other_line_break(c))
    };
    if is_printable_ascii(s) || s.chars().all(shown_as_is) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if shown_as_is(c) {
            out.push(c);
        } else {
            out.push('?');
            out.extend(std::iter::repeat_n(' ', c.len_utf8() - 1));
        }
    }
    Cow::Owned(out)
}

/// Append `s` to `out` escaped: runs of bytes that `stop` does not select are copied
/// whole, and each character starting at a byte that `stop` selects is written by
/// `code`, which is also given the character after it. Runs are found by `first_byte`,
/// many bytes at a time, so text with an escape every few words costs little more than
/// text without one. `stop` should select a character's first byte whenever it selects a
/// later one (every byte from 0x80 on, or only some first bytes, such as 0xC2); a
/// character of which it selects only a later byte is coded whole.
pub fn escape_runs(
    out: &mut String,
    s: &str,
    stop: impl Fn(u8) -> bool,
    mut code: impl FnMut(&mut String, char, Option<char>),
) {
    let mut rest = s;
    while let Some(run) = first_byte(rest.as_bytes(), &stop) {
        // A `stop` that selects a later byte of a character alone codes the character.
        let run = (0..=run)
            .rev()
            .find(|&i| rest.is_char_boundary(i))
            .unwrap_or(0);
        let (copied, coded) = rest.split_at(run);
        out.push_str(copied);
        rest = coded;
        let mut chars = rest.chars();
        let Some(c) = chars.next() else {
            break;
        };
        rest = chars.as_str();
        code(out, c, rest.chars().next());
    }
    out.push_str(rest);
}

/// The index of the first byte of `b` that `special` selects. The bytes are looked at 64
/// at a time without stopping inside a block, so that the compiler checks a block at
/// once; then the block holding the first one is looked at a byte at a time. (A byte at
/// a time throughout was eight instructions a byte, a tenth of drawing a loop whose long
/// objectives hold a non-ASCII letter every few words.) The bytes after the last whole
/// block are checked as a block too, padded with the first byte (which `special` did not
/// select): most texts drawn are shorter than a block or end in part of one, and a byte
/// at a time there was fourteen instructions a byte (the escaping of the DOT of a loop
/// with 30,000 checkpoints took 142 M instructions, 94 M after; callgrind, issue 50). A
/// block's bytes are folded into a byte, not a `bool`: the compiler checks a block of
/// the `bool` form at once only for some `special`s.
fn first_byte(b: &[u8], special: impl Fn(u8) -> bool) -> Option<usize> {
    const BLOCK: usize = 64;
    let any = |block: &[u8]| {
        block
            .iter()
            .fold(0u8, |found, &x| found | u8::from(special(x)))
            != 0
    };
    // A text where every character is coded (CJK in Mermaid) stops at its first byte.
    let &pad = b.first()?;
    if special(pad) {
        return Some(0);
    }
    let clean_blocks = b
        .chunks_exact(BLOCK)
        .take_while(|block| !any(block))
        .count();
    let at = clean_blocks * BLOCK;
    let rest = &b[at..];
    if rest.len() < BLOCK {
        let mut block = [pad; BLOCK];
        block[..rest.len()].copy_from_slice(rest);
        if !any(&block) {
            return None;
        }
    }
    rest.iter().position(|&x| special(x)).map(|i| at + i)
}

/// The byte offset of character `n` (from 0) of `s`, if it has that many: the bytes that
/// start a character counted a block at a time, which the compiler checks at once (a byte
/// at a time through `char_indices` was several instructions a byte).
pub fn char_start(s: &str, n: usize) -> Option<usize> {
    const BLOCK: usize = 64;
    let starts = |b: &u8| (*b as i8) >= -0x40; // not 0b10xx_xxxx, a continuation byte
    let mut seen = 0;
    for (k, block) in s.as_bytes().chunks(BLOCK).enumerate() {
        // A sum of 0s and 1s, which the compiler turns into vector instructions (a
        // `filter(..).count()` it did not).
        let here: usize = block.iter().map(|b| usize::from(starts(b))).sum();
        if seen + here > n {
            let (at, _) = (block.iter().enumerate())
                .filter(|(_, b)| starts(b))
                .nth(n - seen)?;
            return Some(k * BLOCK + at);
        }
        seen += here;
    }
    None
}

/// Append the decimal digits of `n` (without `write!`, whose formatting machinery was a
/// tenth of the time of writing a large drawing).
pub fn push_decimal(out: &mut String, n: usize) {
    let mut buf = [0u8; 20];
    // One copy of the digits (ASCII, so always UTF-8): a `push` of each was 35 M of the
    // 1,533 M instructions of drawing a loop of 30,000 checkpoints in DOT (21 M after).
    out.push_str(std::str::from_utf8(decimal_digits(n, &mut buf)).unwrap_or_default());
}

/// The ASCII decimal digits of `n`, written into the end of `buf` with no allocation
/// (the out-of-memory message has none to use).
pub fn decimal_digits(mut n: usize, buf: &mut [u8; 20]) -> &[u8] {
    let mut at = buf.len();
    loop {
        at -= 1;
        buf[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    &buf[at..]
}

/// `1 step`, `3 steps`: a count with its noun.
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `a`, `a or b`, `a, b or c` (with `conjunction` = `or`); empty for no items.
pub fn list(items: &[String], conjunction: &str) -> String {
    match items.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} {conjunction} {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// Whether two texts are equal, byte by byte: usable in a `const fn` (where `==` is not),
/// and for a few bytes cheaper than `==`, which calls libc's `memcmp`.
pub const fn same_text(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

#[cfg(test)]
mod tests {

    use super::{
        Cow, char_start, clean, clean_upto, escape_runs, is_dropped, lines, one_line, terminal,
    };
    use proptest::strategy::Strategy;
    /// Every character of Unicode's `Default_Ignorable_Code_Point` list (DerivedCoreProperties)
    /// is dropped but the joiners and variation selectors kept on purpose.
    #[test]
    fn default_ignorables_are_dropped_but_the_joiners_and_selectors() {
        let ignorable = [
            0xAD..=0xAD,
            0x34F..=0x34F,
            0x61C..=0x61C,
            0x115F..=0x1160,
            0x17B4..=0x17B5,
            0x180B..=0x180F,
            0x200B..=0x200F,
            0x202A..=0x202E,
            0x2060..=0x206F,
            0x3164..=0x3164,
            0xFE00..=0xFE0F,
            0xFEFF..=0xFEFF,
            0xFFA0..=0xFFA0,
            0xFFF0..=0xFFF8,
            0x1BCA0..=0x1BCA3,
            0x1D173..=0x1D17A,
            0xE0000..=0xE0FFF,
        ];
        let kept = |u: u32| {
            matches!(u, 0x200C | 0x200D | 0x34F | 0x180B..=0x180D | 0x180F)
                || (0xFE00..=0xFE0F).contains(&u)
                || (0xE0100..=0xE01EF).contains(&u)
        };
        let mut checked = 0;
        for u in ignorable.into_iter().flatten() {
            let c = char::from_u32(u).expect("a scalar value");
            assert_eq!(is_dropped(c), !kept(u), "U+{u:04X}");
            checked += 1;
        }
        assert!(checked > 4000);
    }

    #[test]
    fn controls_noncharacters_and_annotations_are_dropped_visible_text_is_not() {
        for c in [
            '\0', '\u{7}', '\u{1B}', '\u{7F}', '\u{9B}', '\u{FFF9}', '\u{FFFB}',
        ] {
            assert!(is_dropped(c), "{c:?}");
        }
        for c in ['\u{FDD0}', '\u{FDEF}', '\u{FFFE}', '\u{FFFF}', '\u{10FFFF}'] {
            assert!(is_dropped(c), "{c:?}");
        }
        for c in [
            ' ', '\n', '\t', '\u{85}', 'a', 'é', '日', '🚀', '\u{A0}', '\u{600}', '\u{2028}',
            '\u{FFFD}', '\u{E000}',
        ] {
            assert!(!is_dropped(c), "{c:?}");
        }
    }

    #[test]
    fn text_is_borrowed_exactly_when_cleaning_changes_nothing() {
        let pieces = [
            "a",
            " ",
            "  ",
            "\t",
            "\n",
            "é",
            "日本",
            "\u{202E}",
            "\u{200B}",
            "\u{00A0}",
            "\u{3000}",
            "\u{7F}",
            "\u{85}",
            "x y",
            "\u{FFFF}",
            "\u{2028}",
            "\u{E0041}",
        ];
        let mut seed = 11u64;
        for _ in 0..20_000 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let n = (seed >> 60) as usize;
            let s: String = (0..n)
                .map(|k| pieces[((seed >> (4 * k % 56)) as usize) % pieces.len()])
                .collect();
            assert_eq!(
                matches!(clean(&s), Cow::Borrowed(_)),
                fold_by_char(&s) == s,
                "{s:?}"
            );
            assert_eq!(clean(&s), fold_by_char(&s), "{s:?}");
            for out in [
                one_line(&s),
                lines(&s),
                terminal(&s, true),
                terminal(&s, false),
            ] {
                assert!(!out.contains(['\u{202E}', '\u{200B}', '\u{E0041}', '\u{FFFF}']));
                assert_eq!(matches!(out, Cow::Borrowed(_)), out == s, "{s:?} {out:?}");
            }
            assert_eq!(terminal(&s, true).len(), s.len());
        }
    }

    #[test]
    fn clean_folds_whitespace_and_drops_controls() {
        assert_eq!(clean("  a\n\tb  \r\n c "), "a b c");
        assert_eq!(clean("x\u{202E}y\u{0007}z"), "xyz");
        assert_eq!(
            clean("a\u{061C}b\u{FFFF}c\u{FFFE}d\u{FDD0}e\u{10FFFF}f"),
            "abcdef"
        );
        assert_eq!(clean("a\u{2028}b"), "a b");
        assert_eq!(clean(""), "");
    }

    #[test]
    fn each_output_keeps_lines_as_it_needs() {
        assert_eq!(one_line("a\nb\u{202E}\tc\u{2029}d\u{1B}e"), "a b c d e");
        assert_eq!(lines("a\r\nb\u{2028}c\u{200B}\td\u{1B}"), "a\nb\nc\td");
        assert_eq!(terminal("a\u{202E}\n\u{1B}[31m", true), "a?  \n?[31m");
        assert_eq!(terminal("a\nb", false), "a?b");
    }

    #[test]
    fn escape_runs_codes_a_character_whose_later_byte_alone_stops() {
        let mut out = String::new();
        // `é` is C3 A9; the stop selects only its second byte.
        escape_runs(
            &mut out,
            "aé日b",
            |b| b == 0xA9,
            |o, c, _| {
                o.push('[');
                o.push(c);
                o.push(']');
            },
        );
        assert_eq!(out, "a[é]日b");
    }

    #[test]
    fn escape_runs_copies_runs_and_codes_the_rest() {
        let mut out = String::new();
        escape_runs(
            &mut out,
            "a<b>é",
            |b| b == b'<' || b == b'>',
            |o, c, next| {
                o.push_str(if c == '<' { "&lt;" } else { "&gt;" });
                o.extend(next.map(|_| '|'));
            },
        );
        assert_eq!(out, "a&lt;|b&gt;|é");
    }
    /// The fold as first written, a character at a time: the oracle for the run-based one.
    fn fold_by_char(s: &str) -> String {
        let mut out = String::new();
        let mut space = false;
        for c in s.chars() {
            if is_dropped(c) {
                continue;
            }
            if c.is_whitespace() {
                space = !out.is_empty();
                continue;
            }
            if space {
                out.push(' ');
                space = false;
            }
            out.push(c);
        }
        out
    }

    /// Text over an alphabet with every class of character `clean` treats apart.
    fn mixed_text() -> impl proptest::strategy::Strategy<Value = String> {
        const PIECES: &[&str] = &[
            "a",
            "Zz",
            "word",
            " ",
            "  ",
            "\t",
            "\n",
            "\r\n",
            "\u{1B}",
            "\u{7F}",
            "\u{85}",
            "\u{A0}",
            "é",
            "日本",
            "\u{200B}",
            "\u{200D}",
            "\u{202E}",
            "\u{2028}",
            "\u{3000}",
            "\u{FEFF}",
            "\u{FFFF}",
            "\u{1F600}",
            "\u{E0001}",
            "\u{0301}",
        ];
        proptest::collection::vec(proptest::sample::select(PIECES), 0..40).prop_map(|p| p.concat())
    }

    /// Text that is mostly plain ASCII, where `clean_upto` reads only what it shows.
    fn ascii_text() -> impl proptest::strategy::Strategy<Value = String> {
        const PIECES: &[&str] = &["a", "Zz", "word", " ", " ", "  ", "\t", "é"];
        proptest::collection::vec(proptest::sample::select(PIECES), 0..40).prop_map(|p| p.concat())
    }

    use proptest::prelude::{TestCaseError, prop_assert, prop_assert_eq, proptest};

    /// `clean_upto(s, max)` is a prefix of `clean(s)`: all of it when it says so, else
    /// `max` characters of it.
    fn clean_upto_is_a_prefix_of_clean(s: &str, max: usize) -> Result<(), TestCaseError> {
        let full = clean(s);
        let (part, whole) = clean_upto(s, max);
        prop_assert!(full.starts_with(&*part), "{:?} of {:?}", part, full);
        if whole {
            prop_assert_eq!(&*part, &*full);
        } else {
            prop_assert_eq!(part.chars().count(), max);
        }
        Ok(())
    }

    proptest! {
        /// `escape_runs` codes exactly the characters its `stop` selects, wherever they are
        /// in the 64-byte blocks it scans: with every non-ASCII byte selected, or only the
        /// first byte 0xC2 (of U+0080 to U+00BF, as the DOT back end does).
        #[test]
        fn escape_runs_is_the_escape_a_character_at_a_time(
            pieces in proptest::collection::vec(
                proptest::sample::select(&[
                    "a", "word ", "<", ">", "é", "©", "\u{85}", "日本", "0123456789abcdef",
                    "a run of sixty-four bytes and more, to fill a whole block of them",
                ][..]),
                0..40,
            ),
            lead_only in proptest::bool::ANY,
        ) {
            let s = pieces.concat();
            let mut out = String::new();
            let stop = |b: u8| b == b'<' || if lead_only { b == 0xC2 } else { b >= 0x80 };
            escape_runs(&mut out, &s, stop, |o, c, _| {
                o.push('[');
                o.push(c);
                o.push(']');
            });
            let coded = |c: char| {
                c == '<' || if lead_only { ('\u{80}'..='\u{bf}').contains(&c) } else { !c.is_ascii() }
            };
            let want: String = s
                .chars()
                .map(|c| if coded(c) { format!("[{c}]") } else { c.to_string() })
                .collect();
            prop_assert_eq!(out, want);
        }

        #[test]
        fn clean_upto_of_ascii_is_a_prefix_of_clean_and_says_whether_it_is_all(
            s in ascii_text(),
            max in 0usize..60,
        ) {
            clean_upto_is_a_prefix_of_clean(&s, max)?;
        }

        /// `char_start` finds what `char_indices` finds, across the blocks it counts.
        #[test]
        fn char_start_is_the_nth_char_index(s in mixed_text(), n in 0usize..300) {
            prop_assert_eq!(char_start(&s, n), s.char_indices().nth(n).map(|(at, _)| at));
        }

        #[test]
        fn clean_is_the_fold_a_character_at_a_time(s in mixed_text()) {
            let cleaned = clean(&s);
            prop_assert_eq!(matches!(cleaned, Cow::Borrowed(_)), cleaned == s);
            prop_assert_eq!(cleaned.into_owned(), fold_by_char(&s));
        }

        #[test]
        fn clean_upto_is_a_prefix_of_clean_and_says_whether_it_is_all(
            s in mixed_text(),
            max in 0usize..30,
        ) {
            clean_upto_is_a_prefix_of_clean(&s, max)?;
        }
    }
}
