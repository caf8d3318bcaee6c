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

use super::documents::{DocumentAnalysis, Server};
use super::features;
use super::index::Index;

/// A failed request: the JSON-RPC error code and message.
pub(super) type Failure = (ErrorCode, String);

fn params<P: DeserializeOwned>(req: &Request) -> Result<P, Failure> {
    serde_json::from_value(req.params.clone())
        .map_err(|e| (ErrorCode::InvalidParams, format!("invalid parameters: {e}")))
}

fn json<T: serde::Serialize>(v: T) -> Result<Value, Failure> {
    serde_json::to_value(v).map_err(|e| (ErrorCode::InternalError, e.to_string()))
}

/// The analysis of a document, its last parsed index and the byte offset of `pos`.
fn at<'a>(
    s: &'a mut Server,
    doc: &TextDocumentIdentifier,
    pos: Option<Position>,
) -> Result<(&'a DocumentAnalysis, &'a Index, usize, Uri), Failure> {
    let Some((uri, d)) = s.docs.get_mut(doc.uri.as_str()) else {
        return Err((
            ErrorCode::InvalidParams,
            "the document is not open".to_owned(),
        ));
    };
    let uri = uri.clone();
    d.analysis(&uri);
    let d: &'a _ = d;
    let a = d
        .current()
        .ok_or((ErrorCode::InternalError, "no analysis".to_owned()))?;
    let offset = pos.map_or(0, |p| a.lines.offset(&a.text, p));
    Ok((a, &d.last_index, offset, uri))
}

/// Handle one request.
pub(super) fn handle(s: &mut Server, req: &Request) -> Result<Value, Failure> {
    match req.method.as_str() {
        GotoDefinition::METHOD => {
            let p: lsp_types::GotoDefinitionParams = params(req)?;
            let tp = p.text_document_position_params;
            let (a, _, off, uri) = at(s, &tp.text_document, Some(tp.position))?;
            let r = features::definition(&a.text(), &a.index, off);
            json(r.map(|r| GotoDefinitionResponse::Scalar(lsp_types::Location::new(uri, r))))
        }
        References::METHOD => {
            let p: lsp_types::ReferenceParams = params(req)?;
            let tp = p.text_document_position;
            let (a, _, off, uri) = at(s, &tp.text_document, Some(tp.position))?;
            let rs = features::references(&a.text(), &a.index, off, p.context.include_declaration);
            let locs: Vec<_> = rs
                .into_iter()
                .map(|r| lsp_types::Location::new(uri.clone(), r))
                .collect();
            json(locs)
        }
        HoverRequest::METHOD => {
            let p: lsp_types::HoverParams = params(req)?;
            let tp = p.text_document_position_params;
            let (a, _, off, _) = at(s, &tp.text_document, Some(tp.position))?;
            json(features::hover(
                &a.text(),
                &a.index,
                a.loaded.info.as_ref(),
                off,
            ))
        }
        Completion::METHOD => {
            let p: lsp_types::CompletionParams = params(req)?;
            let tp = p.text_document_position;
            let (a, last, off, _) = at(s, &tp.text_document, Some(tp.position))?;
            let index = if a.loaded.doc.is_some() {
                &a.index
            } else {
                last
            };
            json(CompletionResponse::List(features::completion(
                &a.text(),
                index,
                off,
            )))
        }
        DocumentSymbolRequest::METHOD => {
            let p: lsp_types::DocumentSymbolParams = params(req)?;
            let (a, _, _, _) = at(s, &p.text_document, None)?;
            json(DocumentSymbolResponse::Nested(features::symbols(
                &a.text(),
                &a.index,
            )))
        }
        Rename::METHOD => {
            let p: lsp_types::RenameParams = params(req)?;
            let tp = p.text_document_position;
            let (a, _, off, uri) = at(s, &tp.text_document, Some(tp.position))?;
            match features::rename(&a.text(), &a.index, &uri, off, &p.new_name) {
                Some(edit) => json(edit),
                None => Err((
                    ErrorCode::InvalidRequest,
                    "no phase to rename here (or the new id is empty or starts with `$`)"
                        .to_owned(),
                )),
            }
        }
        CodeActionRequest::METHOD => {
            let p: lsp_types::CodeActionParams = params(req)?;
            let (a, _, _, uri) = at(s, &p.text_document, None)?;
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
        _ => Err((
            ErrorCode::MethodNotFound,
            format!("unsupported request `{}`", req.method),
        )),
    }
}
