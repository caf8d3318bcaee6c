//! `--format github`: GitHub Actions workflow commands, one per diagnostic, so that problems
//! appear as annotations on the lines of a pull request.
//!
//! `::error file=F,line=L,col=C,title=CODE name::message` (`::warning`, `::notice`). The
//! message carries the notes and the help on further lines. Values are escaped as the
//! Actions runner expects: `%`, CR and LF everywhere, and `:` and `,` in properties too.

use super::{Diagnostic, Severity};

/// Render diagnostics as GitHub Actions workflow commands (one line each).
pub fn render_github(diags: &[Diagnostic]) -> String {
    let mut out = String::new();
    for d in diags {
        out.push_str(&command(d));
        out.push('\n');
    }
    out
}

fn command(d: &Diagnostic) -> String {
    let kind = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "notice",
    };
    let mut props = vec![format!("file={}", property(&d.location.file))];
    if let Some(p) = d.location.pos {
        props.push(format!("line={}", p.line));
        props.push(format!("col={}", p.column));
    }
    props.push(format!(
        "title={}",
        property(&format!("{} {}", d.code, d.code.name()))
    ));
    // The annotation is read by people: without the characters `text::lines` drops.
    // An annotation has one place: the labels' places are named in its text.
    let mut message = d.full_message();
    for l in &d.labels {
        match l.location.pos {
            Some(_) => message.push_str(&format!(
                "\n{}",
                super::human::label_note(l, &d.location.file)
            )),
            None => message.push_str(&format!("\nalso: {}", l.message)),
        }
    }
    let message = crate::text::lines(&message).into_owned();
    format!("::{kind} {}::{}", props.join(","), data(&message))
}

/// Escape a command's message.
pub(crate) fn data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escape a property value. A control character other than CR and LF (an ESC in a file's
/// name, which a terminal showing the log would obey) is written as `%XX` too: the runner
/// leaves the text as it is, and no raw control byte reaches the log.
pub(crate) fn property(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in data(s).chars() {
        match c {
            ':' => out.push_str("%3A"),
            ',' => out.push_str("%2C"),
            c if c.is_control() => {
                let mut buf = [0; 4];
                for b in c.encode_utf8(&mut buf).bytes() {
                    out.push_str(&format!("%{b:02X}"));
                }
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::diag::{Code, Diagnostics, Pos};
    use crate::diag::{Diagnostic, render_github};

    #[test]
    fn escapes_properties_and_data() {
        let mut ds = Diagnostics::new("a,b:c%.json");
        let mut d = Diagnostic::new(Code::UnknownEntryPhase, "50% of\nit").with_help("use `read`");
        d.location.pos = Some(Pos {
            line: 3,
            column: 7,
            ..Pos::default()
        });
        ds.push(d);
        assert_eq!(
            render_github(ds.items()),
            "::error file=a%2Cb%3Ac%25.json,line=3,col=7,title=V006 unknown-entry-phase::50%25 of%0Ait%0Ahelp: use `read`\n"
        );
    }

    /// A control character in a file's name (ESC, which a terminal showing the log would
    /// obey) is escaped, not written raw: no ESC byte goes through.
    #[test]
    fn escapes_control_characters_in_file_names() {
        let mut ds = Diagnostics::new("a\u{1b}[31mred\u{7}\u{85}.json");
        ds.push(Diagnostic::new(Code::UnknownEntryPhase, "x"));
        let out = render_github(ds.items());
        assert!(
            out.starts_with("::error file=a%1B[31mred%07%C2%85.json,"),
            "{out}"
        );
        assert!(!out.chars().any(|c| c.is_control() && c != '\n'), "{out:?}");
    }
}
