//! Request dispatch: parse the parameters, find the document, call the feature.

use lsp_server::{ErrorCode, Request};
use lsp_types::request::{
    CodeActionRequest, Completion, DocumentSymbolRequest, GotoDefinition, HoverRequest, References,
    Rename, Request as _,
};
use lsp_types::{
    CodeActionOrCommand, CompletionResponse, DocumentSymbolResponse, GotoDefinitionResponse,
    Position, TextDocumentIdentifier, Uri,
};
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::documents::{Doc, DocumentAnalysis, Server};
use super::features;

/// A failed request: the JSON-RPC error code and message.
pub(super) type Failure = (ErrorCode, String);

fn params<P: DeserializeOwned>(req: &Request) -> Result<P, Failure> {
    serde_json::from_value(req.params.clone())
        .map_err(|e| (ErrorCode::InvalidParams, format!("invalid parameters: {e}")))
}

fn json<T: serde::Serialize>(v: T) -> Result<Value, Failure> {
    serde_json::to_value(v).map_err(|e| (ErrorCode::InternalError, e.to_string()))
}

fn not_open() -> Failure {
    (
        ErrorCode::InvalidParams,
        "the document is not open".to_owned(),
    )
}

/// An open document, as it is (analysed or not).
fn doc<'a>(s: &'a Server, doc: &TextDocumentIdentifier) -> Result<&'a Doc, Failure> {
    s.docs
        .get(doc.uri.as_str())
        .map(|(_, d)| d)
        .ok_or_else(not_open)
}

/// The analysis of a document and the byte offset of `pos`.
fn at<'a>(
    s: &'a mut Server,
    doc: &TextDocumentIdentifier,
    pos: Option<Position>,
) -> Result<(&'a DocumentAnalysis, usize, Uri), Failure> {
    let (uri, d) = s.docs.get_mut(doc.uri.as_str()).ok_or_else(not_open)?;
    let uri = uri.clone();
    let a = d.analysis(&uri);
    let offset = pos.map_or(0, |p| a.lines.offset(a.source(), p));
    Ok((a, offset, uri))
}

/// Handle one request: each method has its handler.
pub(super) fn handle(s: &mut Server, req: &Request) -> Result<Value, Failure> {
    let handler: fn(&mut Server, &Request) -> Result<Value, Failure> = match req.method.as_str() {
        GotoDefinition::METHOD => definition,
        References::METHOD => references,
        HoverRequest::METHOD => hover,
        Completion::METHOD => completion,
        DocumentSymbolRequest::METHOD => document_symbols,
        Rename::METHOD => rename,
        CodeActionRequest::METHOD => code_actions,
        _ => {
            return Err((
                ErrorCode::MethodNotFound,
                format!("unsupported request `{}`", req.method),
            ));
        }
    };
    handler(s, req)
}

/// `textDocument/definition`: the declaration of the phase or outcome at the position, or
/// the loop a team step names.
fn definition(s: &mut Server, req: &Request) -> Result<Value, Failure> {
    let p: lsp_types::GotoDefinitionParams = params(req)?;
    let tp = p.text_document_position_params;
    let (a, off, uri) = at(s, &tp.text_document, Some(tp.position))?;
    let r = features::definition(&a.text(), &a.index, off);
    let here = r.map(|r| lsp_types::Location::new(uri.clone(), r));
    // A team step's `loop`, an Agent's `loop` or bound phase: in another file of the
    // workspace.
    let found = here.or_else(|| super::links::definition(s, uri.as_str(), off));
    json(found.map(GotoDefinitionResponse::Scalar))
}

/// `textDocument/references`: every place that names the phase or outcome at the position.
fn references(s: &mut Server, req: &Request) -> Result<Value, Failure> {
    let p: lsp_types::ReferenceParams = params(req)?;
    let tp = p.text_document_position;
    let (a, off, uri) = at(s, &tp.text_document, Some(tp.position))?;
    let rs = features::references(&a.text(), &a.index, off, p.context.include_declaration);
    let locs: Vec<_> = rs
        .into_iter()
        .map(|r| lsp_types::Location::new(uri.clone(), r))
        .collect();
    if !locs.is_empty() {
        return json(locs);
    }
    // A loop's name, in the loop or in a team step: across the workspace.
    let across = super::links::references(s, uri.as_str(), off, p.context.include_declaration);
    json(across.unwrap_or_default())
}

/// `textDocument/hover`: what the symbol at the position is and what validation knows of it.
fn hover(s: &mut Server, req: &Request) -> Result<Value, Failure> {
    let p: lsp_types::HoverParams = params(req)?;
    let tp = p.text_document_position_params;
    let (a, off, _) = at(s, &tp.text_document, Some(tp.position))?;
    json(features::hover(
        &a.text(),
        &a.index,
        a.loaded.doc.as_ref(),
        a.loaded.spec.as_ref().zip(a.loaded.info.as_ref()),
        off,
    ))
}

/// `textDocument/completion`: the ids that fit at the position.
fn completion(s: &mut Server, req: &Request) -> Result<Value, Failure> {
    let p: lsp_types::CompletionParams = params(req)?;
    let tp = p.text_document_position;
    // The text as edited and the index of the last version that parsed: no
    // analysis of an edit while the user types.
    let d = doc(s, &tp.text_document)?;
    let t = d.text();
    let off = t.lines.offset(t.text, tp.position);
    // Loop names in a team, bound phase ids in an Agent manifest.
    if let Some(list) = super::links::completion(s, tp.text_document.uri.as_str(), off) {
        return json(CompletionResponse::List(list));
    }
    let d = doc(s, &tp.text_document)?;
    let t = d.text();
    json(CompletionResponse::List(features::completion(
        &t,
        &d.last_index,
        off,
    )))
}

/// `textDocument/documentSymbol`: the phases and their outcomes, nested.
fn document_symbols(s: &mut Server, req: &Request) -> Result<Value, Failure> {
    let p: lsp_types::DocumentSymbolParams = params(req)?;
    let (a, _, _) = at(s, &p.text_document, None)?;
    json(DocumentSymbolResponse::Nested(features::symbols(
        &a.text(),
        &a.index,
    )))
}

/// `textDocument/rename`: a phase or outcome renamed at every place that names it.
fn rename(s: &mut Server, req: &Request) -> Result<Value, Failure> {
    let p: lsp_types::RenameParams = params(req)?;
    let tp = p.text_document_position;
    let (_, off, uri) = at(s, &tp.text_document, Some(tp.position))?;
    // A loop's name: the loop and the steps that run it, across the workspace.
    if let Some(r) = super::links::rename(s, uri.as_str(), off, &p.new_name) {
        return r.map_or_else(|why| Err((ErrorCode::InvalidRequest, why)), json);
    }
    let (a, off, uri) = at(s, &tp.text_document, Some(tp.position))?;
    match features::rename(&a.text(), &a.index, &uri, off, &p.new_name) {
        Ok(edit) => json(edit),
        Err(why) => Err((ErrorCode::InvalidRequest, why)),
    }
}

/// `textDocument/codeAction`: the fixes the diagnostics in the range propose.
fn code_actions(s: &mut Server, req: &Request) -> Result<Value, Failure> {
    let p: lsp_types::CodeActionParams = params(req)?;
    let (a, _, uri) = at(s, &p.text_document, None)?;
    let t = a.text();
    let acts = super::diagnostics::code_actions(
        &t,
        &a.index,
        a.loaded.doc.as_ref(),
        &uri,
        a.loaded.diags.items(),
        p.range,
    );
    json(
        acts.into_iter()
            .map(CodeActionOrCommand::CodeAction)
            .collect::<Vec<_>>(),
    )
}
