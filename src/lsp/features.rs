//! The language features, as pure functions of a document's text, line index, [`Index`]
//! and (when the loop could be built) its [`Info`].

use std::collections::HashMap;
use std::fmt::Write as _;

use lsp_types::{
    CompletionItem, CompletionItemKind, CompletionList, DocumentSymbol, Hover, HoverContents,
    Location, MarkupContent, MarkupKind, Range, SymbolKind, TextEdit, Uri, WorkspaceEdit,
};

use super::complete::Context;
use super::index::{ByteRange, Index, RefKind, Symbol};
use super::text::Utf16Lines;
use crate::ir::{Spec, Terminal};
use crate::text::markdown as md;
use crate::tree::Document;
use crate::valid::Info;

/// One open document's text with its line index, for converting ranges.
pub struct DocumentText<'a> {
    /// The text.
    pub text: &'a str,
    /// Its line index.
    pub lines: &'a Utf16Lines,
}

impl DocumentText<'_> {
    /// The LSP range of a byte range.
    pub fn range(&self, span: ByteRange) -> Range {
        self.lines.range(self.text, span)
    }
}

/// Go to definition: the declaration of the phase or outcome at `offset`.
pub fn definition(t: &DocumentText, index: &Index, offset: usize) -> Option<Range> {
    let (sym, _) = index.symbol_at(offset)?;
    index.declaration(&sym).map(|s| t.range(s))
}

/// Find references: every place the phase at `offset` is written (its declarations only
/// when `with_decl`).
pub fn references(t: &DocumentText, index: &Index, offset: usize, with_decl: bool) -> Vec<Range> {
    let Some((Symbol::Phase(id), _)) = index.symbol_at(offset) else {
        return Vec::new();
    };
    let decls: Vec<ByteRange> = index
        .phases
        .iter()
        .filter(|p| p.id == id)
        .map(|p| p.id_span)
        .collect();
    index
        .phase_occurrences(&id)
        .into_iter()
        .filter(|s| with_decl || !decls.contains(s))
        .map(|s| t.range(s))
        .collect()
}

/// Rename the phase at `offset` everywhere in the file; refused, with the reason, when
/// there is no phase there or the rename would make the loop invalid (the new id is not a
/// stable id, or names another declared phase).
pub fn rename(
    t: &DocumentText,
    index: &Index,
    uri: &Uri,
    offset: usize,
    new: &str,
) -> Result<WorkspaceEdit, String> {
    let Some((Symbol::Phase(id), _)) = index.symbol_at(offset) else {
        return Err("no phase to rename here".to_owned());
    };
    if !crate::ir::id_pattern::is_stable_id(new) {
        return Err(format!(
            "`{}` is not a stable id: a lowercase letter, then lowercase letters, digits and single hyphens, at most 64 characters",
            crate::text::one_line(new)
        ));
    }
    if new != id && index.phase(new).is_some() {
        return Err(format!(
            "phase `{new}` is declared already: the loop would declare it twice"
        ));
    }
    let quoted = serde_json::to_string(new).map_err(|e| e.to_string())?;
    let edits = index
        .phase_occurrences(&id)
        .into_iter()
        .map(|s| TextEdit::new(t.range(s), quoted.clone()))
        .collect();
    Ok(WorkspaceEdit::new(HashMap::from([(uri.clone(), edits)])))
}

/// Hover on a phase, outcome or terminal: what it is and where it leads (`doc`, the tree
/// the index was built from, gives a phase's access block; `analysed`, the loop read from
/// it and its analysis, whether the phase is reachable).
pub fn hover(
    t: &DocumentText,
    index: &Index,
    doc: Option<&Document>,
    analysed: Option<(&Spec, &Info)>,
    offset: usize,
) -> Option<Hover> {
    let (sym, span) = index.symbol_at(offset)?;
    let text = match &sym {
        Symbol::Phase(id) => phase_hover(index, doc, analysed, id)?,
        Symbol::Outcome { phase, id } => outcome_hover(index, phase, id),
        Symbol::Terminal(id) => match Terminal::parse(id) {
            Some(term) => format!("terminal {}: {}", md::code(id), md::inline(term.meaning())),
            None => format!(
                "{} is not a terminal (`$end`, `$abort` or `$handoff`)",
                md::code(id)
            ),
        },
    };
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            // Read by people: without the characters `text::lines` drops; the user text in
            // it is escaped Markdown (`text::markdown`), so it cannot become a link or markup.
            value: crate::text::lines(&text).into_owned(),
        }),
        range: Some(t.range(span)),
    })
}

fn phase_hover(
    index: &Index,
    doc: Option<&Document>,
    analysed: Option<(&Spec, &Info)>,
    id: &str,
) -> Option<String> {
    let p = index.phase(id)?;
    let mut s = format!("**phase {}**\n\n", md::code(id));
    if let Some(o) = &p.objective {
        let _ = writeln!(s, "{}\n", md::block(o));
    }
    let access = p.access.zip(doc).and_then(|(a, d)| d.root().find(a));
    if let Some(a) = access {
        let _ = writeln!(s, "access: {}\n", md::code(&a.to_json().to_string()));
    }
    let outs = index.outcome_ids(id);
    let _ = writeln!(s, "outcomes: {}\n", ticked(&outs));
    let _ = writeln!(s, "leads to:");
    for t in index.transitions_from(id) {
        let on = t.on.as_deref().unwrap_or("?");
        let to = t.to.as_deref().unwrap_or("?");
        let _ = writeln!(s, "- on {} → {}", md::code(on), md::code(to));
    }
    if let Some((spec, info)) = analysed {
        let phase = info.phase_index(&spec.graph, id);
        let at = |phases: &[usize]| phase.is_some_and(|i| phases.contains(&i));
        if at(&info.unreachable_phases) {
            s.push_str("\n(unreachable from the entry phase)\n");
        }
        if at(&info.trap_phases) {
            s.push_str("\n(no terminal can be reached from it)\n");
        }
    }
    Some(s)
}

fn outcome_hover(index: &Index, phase: &str, id: &str) -> String {
    let mut s = format!(
        "**outcome {}** of phase {}\n\n",
        md::code(id),
        md::code(phase)
    );
    let desc = index
        .phase(phase)
        .and_then(|p| p.outcomes.iter().find(|o| o.id == id))
        .and_then(|o| o.description.clone());
    if let Some(d) = desc {
        let _ = writeln!(s, "{}\n", md::block(&d));
    }
    for t in index.transitions_from(phase) {
        if t.on.as_deref() == Some(id) {
            let _ = writeln!(s, "leads to {}", md::code(t.to.as_deref().unwrap_or("?")));
        }
    }
    s
}

/// Text of a symbol or completion item, read by people: without the characters
/// [`crate::text::lines`] drops.
fn shown(s: &str) -> String {
    crate::text::lines(s).into_owned()
}

fn ticked(ids: &[&str]) -> String {
    ids.iter()
        .map(|i| md::code(i))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Document symbols: the phases with their outcomes, then the checkpoints. A symbol's
/// range spans its name too (an XState state's or event's key is before its value, which
/// the index's span is): LSP wants the selection inside the range, and VS Code drops an
/// outline where it is not.
#[allow(deprecated)] // `DocumentSymbol::deprecated` must be written.
pub fn symbols(t: &DocumentText, index: &Index) -> Vec<DocumentSymbol> {
    let sym =
        |name: &str, kind, span: ByteRange, sel: ByteRange, detail: Option<String>, children| {
            let span = (span.0.min(sel.0), span.1.max(sel.1));
            DocumentSymbol {
                name: if name.is_empty() {
                    "?".to_owned()
                } else {
                    shown(name)
                },
                detail: detail.as_deref().map(shown),
                kind,
                tags: None,
                deprecated: None,
                range: t.range(span),
                selection_range: t.range(sel),
                children,
            }
        };
    let phases = index.phases.iter().map(|p| {
        let outs = p
            .outcomes
            .iter()
            .map(|o| {
                sym(
                    &o.id,
                    SymbolKind::EVENT,
                    o.span,
                    o.id_span,
                    o.description.clone(),
                    None,
                )
            })
            .collect();
        sym(
            &p.id,
            SymbolKind::FUNCTION,
            p.span,
            p.id_span,
            p.objective.clone(),
            Some(outs),
        )
    });
    let checkpoints = index.checkpoints.iter().map(|c| {
        let detail = Some("approval checkpoint".to_owned());
        sym(&c.id, SymbolKind::KEY, c.span, c.id_span, detail, None)
    });
    phases.chain(checkpoints).collect()
}

/// A location in this document.
pub fn location(t: &DocumentText, uri: &Uri, span: ByteRange) -> Location {
    Location::new(uri.clone(), t.range(span))
}

/// The most completion items one answer holds: an editor shows a few dozen, and a loop of
/// 10,000 phases would otherwise send them all on every keystroke. When more match, the
/// list is marked incomplete and the editor asks again as the user types.
pub const MAX_COMPLETIONS: usize = 100;

/// How well a candidate matches what was typed: lower is better; `None` when it does not.
/// Ids that start with the typed text come first (exact case, then any case), then ids that
/// contain it, then ids that hold its characters in order.
fn match_rank(candidate: &str, typed: &str) -> Option<u8> {
    if candidate.starts_with(typed) {
        return Some(0);
    }
    let (c, t) = (candidate.to_lowercase(), typed.to_lowercase());
    if c.starts_with(&t) {
        Some(1)
    } else if c.contains(&t) {
        Some(2)
    } else {
        let mut rest = c.chars();
        t.chars().all(|x| rest.any(|y| y == x)).then_some(3)
    }
}

/// One candidate of a completion: the id, its kind and where its detail comes from.
struct Candidate<'a> {
    id: &'a str,
    kind: CompletionItemKind,
    detail: Option<&'a str>,
}

/// Completion of a phase, terminal or outcome reference at byte `offset`: the candidates
/// that match the typed part of the id, best first, at most [`MAX_COMPLETIONS`] of them.
pub fn completion(t: &DocumentText, index: &Index, offset: usize) -> CompletionList {
    let none = CompletionList {
        is_incomplete: false,
        items: Vec::new(),
    };
    let Some(ctx) = super::complete::context(t.text, offset) else {
        return none;
    };
    let typed = t
        .text
        .get(ctx.replace.0..offset.max(ctx.replace.0))
        .unwrap_or("");
    let outcome_of = ctx.from.clone().unwrap_or_default();
    let candidates = candidates(index, &ctx, &outcome_of);
    let mut ranked: Vec<(u8, usize, &Candidate<'_>)> = candidates
        .iter()
        .enumerate()
        .filter_map(|(i, c)| match_rank(c.id, typed).map(|r| (r, i, c)))
        .collect();
    ranked.sort_by_key(|&(r, i, _)| (r, i));
    let is_incomplete = ranked.len() > MAX_COMPLETIONS;
    ranked.truncate(MAX_COMPLETIONS);
    let range = t.range(ctx.replace);
    let items = ranked
        .iter()
        .enumerate()
        .map(|(order, (_, _, c))| completion_item(&ctx, range, c, order))
        .collect();
    CompletionList {
        is_incomplete,
        items,
    }
}

/// Every id the reference at the cursor may name, in source order: the outcomes of the
/// transition's `from` for an `on`, else the phases, then the terminals where allowed.
fn candidates<'a>(index: &'a Index, ctx: &Context, from: &'a str) -> Vec<Candidate<'a>> {
    if ctx.kind == RefKind::On {
        return index
            .outcome_ids(from)
            .into_iter()
            .map(|id| Candidate {
                id,
                kind: CompletionItemKind::ENUM_MEMBER,
                detail: None,
            })
            .collect();
    }
    let phases = index.first_declarations().into_iter().map(|p| Candidate {
        id: &p.id,
        kind: CompletionItemKind::FUNCTION,
        detail: p.objective.as_deref(),
    });
    let terminals = Terminal::ALL
        .into_iter()
        .filter(|_| ctx.kind.allows_terminal())
        .map(|term| Candidate {
            id: term.as_str(),
            kind: CompletionItemKind::CONSTANT,
            detail: Some(term.meaning()),
        });
    phases.chain(terminals).collect()
}

/// The item for one candidate; `order` keeps the ranking in editors that sort by
/// `sortText`.
fn completion_item(ctx: &Context, range: Range, c: &Candidate<'_>, order: usize) -> CompletionItem {
    let new_text = if ctx.quoted || ctx.json_needs_quotes {
        serde_json::to_string(c.id).unwrap_or_default()
    } else {
        c.id.to_owned()
    };
    let new_text = if ctx.quoted {
        new_text.trim_matches('"').to_owned()
    } else {
        new_text
    };
    let detail = match (ctx.kind, c.detail) {
        (RefKind::On, _) => Some(format!(
            "outcome of `{}`",
            ctx.from.as_deref().unwrap_or("")
        )),
        (_, d) => d.map(str::to_owned),
    };
    // The label and detail are read by people; the edit inserts the id exactly (and the
    // editor filters by it when the label had to drop characters).
    let shown_label = shown(c.id);
    CompletionItem {
        filter_text: (shown_label != c.id).then(|| c.id.to_owned()),
        label: shown_label,
        kind: Some(c.kind),
        detail: detail.as_deref().map(shown),
        sort_text: Some(format!("{order:04}")),
        text_edit: Some(lsp_types::CompletionTextEdit::Edit(TextEdit::new(
            range, new_text,
        ))),
        ..CompletionItem::default()
    }
}

#[cfg(test)]
mod tests {
    use super::{HoverContents, hover};
    use crate::lsp::DocumentAnalysis;

    fn hover_text(path: &str, text: &str, at: &str) -> String {
        let a = DocumentAnalysis::new(path, text);
        let offset = text.find(at).expect("in the text") + 1;
        let h = hover(
            &a.text(),
            &a.index,
            a.loaded.doc.as_ref(),
            a.loaded.spec.as_ref().zip(a.loaded.info.as_ref()),
            offset,
        )
        .expect("a hover");
        match h.contents {
            HoverContents::Markup(m) => m.value,
            other => panic!("{other:?}"),
        }
    }

    /// The access block is read from the tree when hovered, as compact JSON, in either
    /// syntax.
    #[test]
    fn a_phase_hover_shows_its_access_block() {
        let json = r#"{"kind": "loop", "name": "x", "version": "0.1.0", "description": "d",
  "loop": {"entry_phase": "plan",
    "phases": [{"id": "plan", "objective": "Plan.", "access": {"tools": ["a", "b"], "network": false}}],
    "transitions": [{"from": "plan", "on": "complete", "to": "$end"}]}}"#;
        let shown = hover_text("x.json", json, "\"plan\", \"obj");
        assert!(
            shown.contains(r#"access: `{"tools":["a","b"],"network":false}`"#),
            "{shown}"
        );
        let yaml = "kind: loop\nname: x\nversion: 0.1.0\ndescription: d\nloop:\n  entry_phase: plan\n  phases:\n    - id: plan\n      objective: Plan.\n      access:\n        tools: [a]\n  transitions:\n    - {from: plan, on: complete, to: $end}\n";
        let shown = hover_text("x.yaml", yaml, " plan\n      objective");
        assert!(shown.contains(r#"access: `{"tools":["a"]}`"#), "{shown}");
        let none = json.replace(r#", "access": {"tools": ["a", "b"], "network": false}"#, "");
        let shown = hover_text("x.json", &none, "\"plan\", \"obj");
        assert!(!shown.contains("access"), "{shown}");
    }
}
