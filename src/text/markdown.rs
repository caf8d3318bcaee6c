//! User text in Markdown (GitHub-flavoured): the escapers of the documentation pages
//! (`docs`) and of the pull-request comment (`diff --format markdown`). Each first makes
//! the text one line ([`one_line`]: control characters become spaces, the characters that
//! [`super::is_dropped`] selects are dropped, so a right-to-left override cannot reorder
//! the text after it and a check command cannot read as something else than what runs).

use super::one_line;

/// The longest run of `ch` in `s` (a fence must be longer).
pub fn longest_run(s: &str, ch: char) -> usize {
    let (mut best, mut cur) = (0, 0);
    for c in s.chars() {
        if c == ch {
            cur += 1;
            best = best.max(cur);
        } else {
            cur = 0;
        }
    }
    best
}

/// Escape one line of text whose first character may start a Markdown line.
fn escape_line(line: &str, out: &mut String) {
    // Block starts: `-`, `+` (lists, rules), `=` (setext headings), `:` (definition lists,
    // containers), `1.`/`1)` (ordered lists). `#`, `*`, `>`, `|`, backticks and tildes are
    // escaped wherever they are.
    let digits = line.chars().take_while(char::is_ascii_digit).count();
    if matches!(line.chars().next(), Some('-' | '+' | '=' | ':')) {
        out.push('\\');
    }
    escape_chars(line, digits, out);
}

/// Escape the inline specials of `text` (a whole line when `digits`, the number of digits
/// it starts with, is given; else text inside a line or a table cell, with 0).
fn escape_chars(text: &str, digits: usize, out: &mut String) {
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        match c {
            // GitHub's autolink extension turns `scheme://` and `www.` into links; an escape
            // inside the pattern keeps them text.
            ':' if chars.get(i + 1..i + 3) == Some(&['/', '/'][..]) => out.push_str("\\:"),
            '.' if i >= 3 && chars[i - 3..i].iter().all(|w| w.eq_ignore_ascii_case(&'w')) => {
                out.push_str("\\.");
            }
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\\' | '`' | '*' | '_' | '[' | ']' | '|' | '#' | '~' | '$' | '^' => {
                out.push('\\');
                out.push(c);
            }
            '.' | ')' if digits > 0 && i == digits => {
                out.push('\\');
                out.push(c);
            }
            _ => out.push(c),
        }
    }
}

/// User text as inline Markdown on one line, safe anywhere, including a table cell:
/// newlines and other control characters become spaces, the ends are trimmed, `<`, `>`
/// and `&` become entities (no raw HTML), and every character that could start a link,
/// an image, emphasis, code, a heading, a list, a table cell or math is backslash-escaped.
/// Rendered, the result reads exactly as the text.
pub fn inline(s: &str) -> String {
    let line = one_line(s);
    let mut out = String::with_capacity(line.len() + 8);
    escape_line(line.trim(), &mut out);
    out
}

/// User text inside a table cell (never at the start of a line, so no block can start):
/// as [`inline`], without trimming and without the escapes of a line start.
pub fn cell(s: &str) -> String {
    let text = one_line(s);
    let mut out = String::with_capacity(text.len() + 8);
    escape_chars(&text, 0, &mut out);
    out
}

/// User text as Markdown paragraphs: blank lines separate paragraphs, each other line
/// break is kept as a hard line break (`\` at the end of the line), each line is trimmed
/// and escaped as by [`inline`]. Empty when the text is blank.
pub fn block(s: &str) -> String {
    let text = s.replace("\r\n", "\n").replace('\r', "\n");
    let mut paragraphs: Vec<Vec<String>> = vec![Vec::new()];
    for line in text.split('\n') {
        let line = one_line(line);
        let line = line.trim();
        if line.is_empty() {
            if paragraphs.last().is_some_and(|p| !p.is_empty()) {
                paragraphs.push(Vec::new());
            }
            continue;
        }
        let mut esc = String::with_capacity(line.len() + 8);
        escape_line(line, &mut esc);
        if let Some(p) = paragraphs.last_mut() {
            p.push(esc);
        }
    }
    paragraphs
        .iter()
        .filter(|p| !p.is_empty())
        .map(|p| p.join("\\\n"))
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// User text as a code span, safe in a table cell: newlines become spaces, the fence is
/// longer than any run of backticks inside, and `|` is escaped for GFM tables. Text that a
/// code span cannot carry exactly inside a table (a backslash before a `|`) falls back to
/// [`inline`]. Empty text gives an empty string.
pub fn code(s: &str) -> String {
    let text = one_line(s);
    if text.trim().is_empty() {
        return inline(&text);
    }
    if text.contains("\\|") {
        return inline(&text);
    }
    let fence = "`".repeat(longest_run(&text, '`') + 1);
    let pad = text.starts_with('`')
        || text.ends_with('`')
        || (text.starts_with(' ') && text.ends_with(' '));
    let pad = if pad { " " } else { "" };
    format!("{fence}{pad}{}{pad}{fence}", text.replace('|', "\\|"))
}

#[cfg(test)]
mod tests {

    use super::{cell, inline};
    #[test]
    fn a_cell_escapes_inline_syntax_but_not_line_starts() {
        assert_eq!(cell(": 3 → 5"), ": 3 → 5");
        assert_eq!(inline(": 3 → 5"), "\\: 3 → 5");
        assert_eq!(
            cell("a|b <i> `c` x^2 http://e"),
            "a\\|b &lt;i&gt; \\`c\\` x\\^2 http\\://e"
        );
        assert_eq!(cell(" 1. x\u{202E}y\u{200B}\n"), " 1. xy ");
    }
}
