//! loopconv's diagnostics as LSP diagnostics, and the code actions built from their
//! suggestions.

use std::collections::HashMap;

use lsp_types::{
    CodeAction, CodeActionKind, CodeDescription, Diagnostic as LspDiagnostic,
    DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString, Range, Uri,
    WorkspaceEdit,
};

use super::features::DocumentText;
use super::fixes::{Fix, fix};
use super::index::{ByteRange, Index};
use crate::diag::{Code, Diagnostic, Diagnostics, Severity, Suggestion};
use crate::tree::Document;

/// The byte range a loopconv diagnostic points at (the start of the file when it has no
/// position).
pub fn span_of(d: &Diagnostic) -> ByteRange {
    d.location
        .pos
        .map_or((0, 0), |p| (p.start, p.end.max(p.start)))
}

/// Convert one diagnostic; `related` adds the first declaration of a duplicate and the
/// diagnostic's labels (the other places of the same problem).
pub fn to_lsp(t: &DocumentText, index: &Index, uri: &Uri, d: &Diagnostic) -> LspDiagnostic {
    let span = span_of(d);
    let mut related: Vec<DiagnosticRelatedInformation> = first_declaration(index, d.code, span)
        .map(|first| DiagnosticRelatedInformation {
            location: Location::new(uri.clone(), t.range(first)),
            message: "first declared here".to_owned(),
        })
        .into_iter()
        .collect();
    related.extend(d.labels.iter().filter_map(|l| {
        let p = l.location.pos?;
        Some(DiagnosticRelatedInformation {
            location: Location::new(uri.clone(), t.range((p.start, p.end.max(p.start)))),
            message: crate::text::lines(&l.message).into_owned(),
        })
    }));
    placed(d, t.range(span), related)
}

/// One diagnostic at `range`, with the other places it concerns (`related`, each already
/// a location: in this file or another).
pub fn placed(
    d: &Diagnostic,
    range: Range,
    related: Vec<DiagnosticRelatedInformation>,
) -> LspDiagnostic {
    // Read by people in the editor: without the characters `text::lines` drops.
    let message = crate::text::lines(&d.full_message()).into_owned();
    LspDiagnostic {
        range,
        severity: Some(match d.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
            Severity::Note => DiagnosticSeverity::INFORMATION,
        }),
        code: Some(NumberOrString::String(d.code.as_str().to_owned())),
        // The code's page in the guide, as SARIF's `helpUri`.
        code_description: crate::diag::docs::help_uri(d.code)
            .parse()
            .ok()
            .map(|href| CodeDescription { href }),
        source: Some("loopconv".to_owned()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        tags: None,
        data: None,
    }
}

/// Help lines that tell a command-line user to pass a flag, said instead for an editor,
/// which passes none: `P011`'s help names `--from` (and `--exclude`), which the server
/// cannot be given.
pub(crate) fn help_for_editor(diags: &mut Diagnostics) {
    for d in diags.items_mut() {
        if d.code == Code::UnknownFormat {
            d.help = Some(UNKNOWN_FORMAT_HELP.to_owned());
        }
    }
}

/// `P011`'s help in an editor: the keys that make each format's front end claim the file
/// ([`crate::pipeline::claimed_format`]; the file's name chooses only JSON or YAML).
const UNKNOWN_FORMAT_HELP: &str = "write the keys that say which loop format this is (loopconv \
    reads the format from the content, not from the file's name or `$schema`): `kind: loop` \
    (AgentPM), `type: REAL` or `VEAL` (multi-agent-spec), `states` with `initial` (XState), \
    or `source_format` with `graph` (loopconv's IR)";

/// For a duplicate id (`V003`, `V005`, `V014`), the first declaration of the same id.
fn first_declaration(index: &Index, code: Code, at: ByteRange) -> Option<ByteRange> {
    let inside = |s: ByteRange| s.0 <= at.0 && at.0 < s.1.max(s.0 + 1);
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

/// The quick fixes for the diagnostics touching `range`: one per suggestion whose edit can
/// be made in this document (replace an unknown id, add the missing transition, ...).
pub fn code_actions(
    t: &DocumentText,
    index: &Index,
    doc: Option<&Document>,
    uri: &Uri,
    diags: &[Diagnostic],
    range: Range,
) -> Vec<CodeAction> {
    let mut out = Vec::new();
    for d in diags {
        let r = t.range(span_of(d));
        if r.end < range.start || range.end < r.start {
            continue;
        }
        for s in &d.suggestions {
            if let Some(f) = fix(t, index, doc, s) {
                let preferred =
                    d.suggestions.len() == 1 && !matches!(s, Suggestion::AddTransition { .. });
                out.push(action(f, d, uri, preferred));
            }
        }
    }
    out
}

fn action(f: Fix, d: &Diagnostic, uri: &Uri, preferred: bool) -> CodeAction {
    CodeAction {
        title: format!("{} ({})", f.title, d.code),
        kind: Some(CodeActionKind::QUICKFIX),
        edit: Some(WorkspaceEdit::new(HashMap::from([(uri.clone(), f.edits)]))),
        is_preferred: Some(preferred),
        ..CodeAction::default()
    }
}

#[cfg(test)]
mod tests {
    use super::{Code, CodeAction, Diagnostic, NumberOrString, Range, Uri, code_actions, to_lsp};
    use crate::lsp::DocumentAnalysis;
    use lsp_types::Position;

    /// An unknown entry phase close to `plan`, a missing transition and a retry count on a
    /// policy that does not retry.
    const LOOP: &str = r#"{
  "kind": "loop",
  "name": "x",
  "version": "0.1.0",
  "description": "A loop.",
  "loop": {
    "entry_phase": "plna",
    "phases": [
      { "id": "plan", "objective": "Plan." },
      { "id": "build", "objective": "Build." }
    ],
    "transitions": [
      { "from": "plan", "on": "complete", "to": "build" }
    ],
    "error_policy": { "tool_failure": { "action": "abort", "max_retries": 2 } }
  }
}
"#;

    fn actions(a: &DocumentAnalysis, diags: &[Diagnostic]) -> Vec<CodeAction> {
        let uri: Uri = "file:///tmp/x.json".parse().expect("uri");
        let all = Range::new(Position::new(0, 0), Position::new(u32::MAX, 0));
        code_actions(&a.text(), &a.index, a.loaded.doc.as_ref(), &uri, diags, all)
    }

    fn new_texts(acts: &[CodeAction]) -> Vec<(String, String)> {
        acts.iter()
            .flat_map(|a| {
                let changes = a.edit.as_ref().and_then(|e| e.changes.as_ref());
                changes.into_iter().flat_map(|c| c.values().flatten())
            })
            .map(|e| (format!("{:?}", e.range), e.new_text.clone()))
            .collect()
    }

    #[test]
    fn labels_are_related_information() {
        let text = LOOP.replace(
            r#"{ "from": "plan", "on": "complete", "to": "build" }"#,
            r#"{ "from": "plna", "on": "complete", "to": "build" }"#,
        );
        let a = DocumentAnalysis::new("x.json", &text);
        let uri: Uri = "file:///tmp/x.json".parse().expect("uri");
        let d = a
            .loaded
            .diags
            .items()
            .iter()
            .find(|d| d.code == Code::UnknownEntryPhase)
            .expect("V006");
        let lsp = to_lsp(&a.text(), &a.index, &uri, d);
        let related = lsp.related_information.expect("the label");
        assert_eq!(related.len(), 1);
        assert_eq!(related[0].message, "`plna` again, as a transition's `from`");
        assert_eq!(related[0].location.range.start.line, 12);
    }

    /// `P011`'s help says what an editor user can do: write the format's keys.
    #[test]
    fn unknown_format_help_names_the_keys_not_a_flag() {
        let uri: Uri = "file:///tmp/notes.yaml".parse().expect("uri");
        let a = DocumentAnalysis::new("/tmp/notes.yaml", "name: triage\nsteps: [read, sort]\n");
        let ds = a.diagnostics(&uri);
        let p011 = ds
            .iter()
            .find(|d| d.code == Some(NumberOrString::String("P011".into())))
            .expect("P011");
        let help = p011.message.split("\nhelp: ").nth(1).expect("a help line");
        assert!(!help.contains("--"), "{help}");
        for keys in [
            "`kind: loop`",
            "`type: REAL` or `VEAL`",
            "`states` with `initial`",
        ] {
            assert!(help.contains(keys), "{help}");
        }
        // The command line's help is its own.
        let cli = crate::load(
            "notes.yaml",
            b"name: triage\n",
            &crate::LoadOptions::default(),
        );
        let help = cli.diags.items()[0].help.as_deref().expect("help");
        assert!(help.contains("`--from agentpm`"), "{help}");
    }

    #[test]
    fn code_actions_do_not_depend_on_the_wording() {
        let a = DocumentAnalysis::new("x.json", LOOP);
        let diags = a.loaded.diags.items();
        let before = actions(&a, diags);
        let titles: Vec<&str> = before.iter().map(|a| a.title.as_str()).collect();
        assert_eq!(
            titles,
            [
                "add `$schema` (F012)",
                "replace with `plan` (V006)",
                "add a transition for `build` on `complete` (V011)",
                "remove `max_retries` (V020)",
            ]
        );
        let texts = new_texts(&before);
        assert_eq!(texts[1].1, "\"plan\"");
        assert_eq!(texts[3].1, "");
        // Every message and help line reworded (even into text the old regexes parsed):
        // the same actions, the same edits.
        let reworded: Vec<Diagnostic> = diags
            .iter()
            .cloned()
            .map(|mut d| {
                d.message = "reworded".to_owned();
                d.notes = vec!["did you mean `gather`?".to_owned()];
                d.help =
                    Some(r#"did you mean `x`? add {"from": "a", "on": "b", "to": ...}"#.into());
                d
            })
            .collect();
        assert_eq!(actions(&a, &reworded), before);
        // Help text without suggestions proposes nothing.
        let bare: Vec<Diagnostic> = reworded
            .into_iter()
            .map(|mut d| {
                d.suggestions.clear();
                d
            })
            .collect();
        assert_eq!(actions(&a, &bare), []);
    }
}
