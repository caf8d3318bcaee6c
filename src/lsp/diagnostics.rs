//! loopconv's diagnostics as LSP diagnostics, and the code actions their help computes.

use std::collections::HashMap;
use std::sync::LazyLock;

use lsp_types::{
    CodeAction, CodeActionKind, CodeDescription, Diagnostic as LspDiagnostic,
    DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString, Range, TextEdit,
    Uri, WorkspaceEdit,
};
use regex::Regex;

use super::features::Text;
use super::index::{Index, Span};
use crate::diag::{Code, Diagnostic, Severity};
use crate::tree::Syntax;

/// Where the code table is documented: every diagnostic's code description links here.
pub const CODE_TABLE_URL: &str = "https://github.com/loopconv/loopconv#diagnostics";

/// The byte range a loopconv diagnostic points at (the start of the file when it has no
/// position).
pub fn span_of(d: &Diagnostic) -> Span {
    d.location
        .pos
        .map_or((0, 0), |p| (p.start, p.end.max(p.start)))
}

/// Convert one diagnostic; `related` adds the first declaration of a duplicate.
pub fn to_lsp(t: &Text, index: &Index, uri: &Uri, d: &Diagnostic) -> LspDiagnostic {
    let span = span_of(d);
    // Read by people in the editor: without the characters `text::lines` drops.
    let message = crate::text::lines(&d.full_message()).into_owned();
    let related = first_declaration(index, d.code, span).map(|first| {
        vec![DiagnosticRelatedInformation {
            location: Location::new(uri.clone(), t.range(first)),
            message: "first declared here".to_owned(),
        }]
    });
    LspDiagnostic {
        range: t.range(span),
        severity: Some(match d.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
            Severity::Note => DiagnosticSeverity::INFORMATION,
        }),
        code: Some(NumberOrString::String(d.code.as_str().to_owned())),
        code_description: CODE_TABLE_URL
            .parse()
            .ok()
            .map(|href| CodeDescription { href }),
        source: Some("loopconv".to_owned()),
        message,
        related_information: related,
        tags: None,
        data: None,
    }
}

/// For a duplicate id (`V003`, `V005`, `V014`), the first declaration of the same id.
fn first_declaration(index: &Index, code: Code, at: Span) -> Option<Span> {
    let inside = |s: Span| s.0 <= at.0 && at.0 < s.1.max(s.0 + 1);
    match code {
        Code::DuplicatePhase => {
            let dup = index.phases.iter().find(|p| inside(p.id_span))?;
            let first = index.phase(&dup.id)?.id_span;
            (first != dup.id_span).then_some(first)
        }
        Code::DuplicateOutcome => index.phases.iter().find_map(|p| {
            let dup = p.outcomes.iter().find(|o| inside(o.id_span))?;
            let first = p.outcomes.iter().find(|o| o.id == dup.id)?.id_span;
            (first != dup.id_span).then_some(first)
        }),
        Code::DuplicateCheckpoint => {
            let dup = index.checkpoints.iter().find(|c| inside(c.id_span))?;
            let first = index.checkpoints.iter().find(|c| c.id == dup.id)?.id_span;
            (first != dup.id_span).then_some(first)
        }
        _ => None,
    }
}

static DID_YOU_MEAN: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"did you mean `([^`]+)`\?").expect("valid regex"));
static ADD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"add \{"from": "((?:[^"\\]|\\.)*)", "on": "((?:[^"\\]|\\.)*)""#)
        .expect("valid regex")
});

/// The quick fixes for the diagnostics touching `range`: replace an unknown id with the
/// suggestion, add the missing transition.
pub fn code_actions(
    t: &Text,
    index: &Index,
    syntax: Syntax,
    uri: &Uri,
    diags: &[Diagnostic],
    range: Range,
) -> Vec<CodeAction> {
    let lsp_edit = |edits: Vec<TextEdit>| WorkspaceEdit::new(HashMap::from([(uri.clone(), edits)]));
    let mut out = Vec::new();
    for d in diags {
        let r = t.range(span_of(d));
        if r.end < range.start || range.end < r.start {
            continue;
        }
        let help = d.help.as_deref().unwrap_or("");
        if let Some(c) = DID_YOU_MEAN.captures(help) {
            let new = serde_json::to_string(&c[1]).unwrap_or_default();
            out.push(action(
                format!("replace with `{}`", &c[1]),
                d,
                lsp_edit(vec![TextEdit::new(r, new)]),
            ));
        }
        if d.code == Code::MissingTransition {
            let Some(c) = ADD.captures(help) else {
                continue;
            };
            if let Some(edit) = add_transition(t, index, syntax, &c[1], &c[2]) {
                out.push(action(
                    format!("add a transition for `{}` on `{}`", &c[1], &c[2]),
                    d,
                    lsp_edit(vec![edit]),
                ));
            }
        }
    }
    out
}

fn action(title: String, d: &Diagnostic, edit: WorkspaceEdit) -> CodeAction {
    CodeAction {
        title: format!("{title} ({})", d.code),
        kind: Some(CodeActionKind::QUICKFIX),
        edit: Some(edit),
        is_preferred: Some(d.code != Code::MissingTransition),
        ..CodeAction::default()
    }
}

/// The edit adding `{from, on, to: "$end"}` after the last transition (the author then
/// picks the target).
fn add_transition(
    t: &Text,
    index: &Index,
    syntax: Syntax,
    from: &str,
    on: &str,
) -> Option<TextEdit> {
    let last = index.transitions.last()?;
    let line_start = t.text[..last.span.0].rfind('\n').map_or(0, |i| i + 1);
    let indent: String = t.text[line_start..last.span.0]
        .chars()
        .map(|c| if c == '-' { ' ' } else { c })
        .take_while(|c| c.is_whitespace())
        .collect();
    let (from, on) = (unescape(from), unescape(on));
    let q = |s: &str| serde_json::to_string(s).unwrap_or_default();
    let (at, text) = match syntax {
        Syntax::Json => (
            last.span.1,
            format!(
                ",\n{indent}{{ \"from\": {}, \"on\": {}, \"to\": \"$end\" }}",
                q(&from),
                q(&on)
            ),
        ),
        Syntax::Yaml => {
            let end = t.text[last.span.1..]
                .find('\n')
                .map_or(t.text.len(), |i| last.span.1 + i);
            let dash = indent.len().saturating_sub(2);
            let pad = " ".repeat(dash);
            (
                end,
                format!(
                    "\n{pad}- from: {}\n{pad}  on: {}\n{pad}  to: \"$end\"",
                    q(&from),
                    q(&on)
                ),
            )
        }
    };
    let pos = t.range((at, at));
    Some(TextEdit::new(pos, text))
}

fn unescape(s: &str) -> String {
    serde_json::from_str(&format!("\"{s}\"")).unwrap_or_else(|_| s.to_owned())
}
