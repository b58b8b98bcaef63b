//! `fuda lsp`: a language server for rules, card, mod and scenario files.
//! It loads each open file's game as `fuda check` does, from the editor's
//! unsaved texts, and answers from what the loader compiled. A client of
//! the kernel's public API (the loader, the operations table, the events'
//! sites): it holds no knowledge of the language of its own.
//!
//! Synchronous: one thread reads messages in order. After a change, the
//! game loads again once the messages queued behind it are read, so a burst
//! of keystrokes costs one load.

mod diagnostics;
mod features;
mod meaning;
mod text;
mod workspace;

use std::collections::{BTreeSet, HashMap};
use std::path::PathBuf;
use std::process::ExitCode;

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, DidSaveTextDocument,
    Notification as _, PublishDiagnostics,
};
use lsp_types::request::{
    CodeActionRequest, Completion, GotoDefinition, HoverRequest, References, Request as _,
};
use lsp_types::{
    CodeActionProviderCapability, CompletionOptions, CompletionResponse, Diagnostic,
    GotoDefinitionResponse, Hover, HoverContents, HoverProviderCapability, MarkupContent,
    MarkupKind, OneOf, PublishDiagnosticsParams, ServerCapabilities, ServerInfo,
    TextDocumentSyncCapability, TextDocumentSyncKind, Uri,
};
use serde_json::Value;

use workspace::{Key, Workspace};

/// Serves on stdin and stdout until the client says `exit`.
pub fn run(data: Option<PathBuf>) -> ExitCode {
    let (conn, io) = Connection::stdio();
    let caps = ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(["@", "(", ".", " ", "\""].map(String::from).to_vec()),
            ..CompletionOptions::default()
        }),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        code_action_provider: Some(CodeActionProviderCapability::Simple(true)),
        ..ServerCapabilities::default()
    };
    let init = serde_json::json!({
        "capabilities": caps,
        "serverInfo": ServerInfo { name: "fuda".into(), version: Some(env!("CARGO_PKG_VERSION").into()) },
    });
    let served = conn
        .initialize_start()
        .and_then(|(id, _)| conn.initialize_finish(id, init))
        .map_err(|e| e.to_string())
        .and_then(|()| Server::new(data).serve(&conn));
    drop(conn);
    let joined = io.join().map_err(|e| e.to_string());
    match served.and(joined) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            crate::errln!("fuda lsp: {e}");
            ExitCode::from(1)
        }
    }
}

struct Server {
    ws: Workspace,
    /// What each game last published, by file: a file's list is the union
    /// over the games it belongs to.
    published: HashMap<String, HashMap<Key, Vec<Diagnostic>>>,
}

impl Server {
    fn new(data: Option<PathBuf>) -> Server {
        Server {
            ws: Workspace::new(data),
            published: HashMap::new(),
        }
    }

    fn serve(mut self, conn: &Connection) -> Result<(), String> {
        for msg in &conn.receiver {
            match msg {
                Message::Request(req) => {
                    if conn.handle_shutdown(&req).map_err(|e| e.to_string())? {
                        return Ok(());
                    }
                    // Answers read the texts as they are now.
                    self.reload(conn)?;
                    let resp = self.request(req);
                    conn.sender.send(resp.into()).map_err(|e| e.to_string())?;
                }
                Message::Notification(n) => self.notify(n),
                Message::Response(_) => {}
            }
            if conn.receiver.is_empty() {
                self.reload(conn)?;
            }
        }
        Ok(())
    }

    fn notify(&mut self, n: Notification) {
        let uri_of = |v: &Value| -> Option<(String, PathBuf)> {
            let s = v.pointer("/textDocument/uri")?.as_str()?;
            let uri: Uri = s.parse().ok()?;
            Some((s.to_string(), text::path_of(&uri)?))
        };
        let Some((uri, path)) = uri_of(&n.params) else {
            return;
        };
        let p = &n.params;
        match n.method.as_str() {
            DidOpenTextDocument::METHOD => {
                if let Some(t) = p.pointer("/textDocument/text").and_then(Value::as_str) {
                    self.ws.open(&uri, path, t.to_string());
                }
            }
            DidChangeTextDocument::METHOD => {
                // Full sync: the last change holds the whole text.
                let changes = p.pointer("/contentChanges").and_then(Value::as_array);
                let text = changes.and_then(|c| c.last()?.get("text")?.as_str());
                if let Some(t) = text {
                    self.ws.open(&uri, path, t.to_string());
                }
            }
            DidCloseTextDocument::METHOD => self.ws.close(&uri),
            // The saved file now says what the buffer said.
            DidSaveTextDocument::METHOD => {}
            _ => {}
        }
    }

    /// Loads the changed games again and publishes what changed.
    fn reload(&mut self, conn: &Connection) -> Result<(), String> {
        let dirty = std::mem::take(&mut self.ws.dirty);
        let mut touched: BTreeSet<String> = BTreeSet::new();
        for key in dirty {
            self.ws.load(&key);
            // Each open file of the game hears again, if only that it is
            // clean; errors outside any file go to the first of them.
            let open: Vec<String> = (self.ws.docs.iter())
                .filter(|(_, d)| self.ws.keys(&d.path).contains(&key))
                .map(|(u, _)| u.clone())
                .collect();
            let fallback = open.first().cloned();
            touched.extend(open);
            let errors = self.ws.games.get(&key).and_then(|g| g.errors.as_ref());
            let mut now = match (errors, &fallback) {
                (Some(e), Some(f)) => diagnostics::by_file(e, f),
                _ => HashMap::new(),
            };
            for (uri, by_key) in self.published.iter_mut() {
                let mine = now.remove(uri).unwrap_or_default();
                let changed = by_key
                    .get(&key)
                    .map_or(!mine.is_empty(), |old| *old != mine);
                if changed {
                    touched.insert(uri.clone());
                    by_key.insert(key.clone(), mine);
                }
            }
            for (uri, mine) in now {
                touched.insert(uri.clone());
                (self.published.entry(uri).or_default()).insert(key.clone(), mine);
            }
        }
        for u in touched {
            let diagnostics: Vec<Diagnostic> = (self.published.get(&u).into_iter())
                .flat_map(|m| m.values().flatten().cloned())
                .collect();
            let Ok(uri) = u.parse::<Uri>() else { continue };
            let params = PublishDiagnosticsParams {
                uri,
                diagnostics,
                version: None,
            };
            let note = Notification::new(PublishDiagnostics::METHOD.into(), params);
            conn.sender.send(note.into()).map_err(|e| e.to_string())?;
        }
        Ok(())
    }
}

/// A result as the protocol sends it.
fn json(v: impl serde::Serialize) -> Result<Value, String> {
    serde_json::to_value(v).map_err(|e| e.to_string())
}

impl Server {
    fn request(&mut self, req: Request) -> Response {
        let id = req.id.clone();
        match self.answer(&req) {
            Ok(v) => Response::new_ok(id, v),
            Err(e) => Response::new_err(id, ErrorCode::InvalidParams as i32, e),
        }
    }

    fn answer(&mut self, req: &Request) -> Result<Value, String> {
        let p = &req.params;
        let str_at = |ptr: &str| p.pointer(ptr).and_then(Value::as_str).map(str::to_string);
        let uri_s = str_at("/textDocument/uri").ok_or("no textDocument.uri")?;
        let uri: Uri = uri_s.parse().map_err(|_| "a bad uri")?;
        // A file not open is read as saved.
        let (path, text) = match self.ws.docs.get(&uri_s) {
            Some(d) => (d.path.clone(), d.text.to_string()),
            None => {
                let path = text::path_of(&uri).ok_or("not a file: uri")?;
                let text = crate::data::confine::read_given(&path)?;
                (path, text)
            }
        };
        let pos: Option<lsp_types::Position> = p
            .get("position")
            .and_then(|v| serde_json::from_value(v.clone()).ok());
        let off = pos.map(|pos| text::offset(&text, pos)).unwrap_or(0);
        if req.method == CodeActionRequest::METHOD {
            let range: lsp_types::Range =
                serde_json::from_value(p["range"].clone()).map_err(|e| e.to_string())?;
            let diags: Vec<Diagnostic> =
                serde_json::from_value(p["context"]["diagnostics"].clone())
                    .map_err(|e| e.to_string())?;
            let near: Vec<Diagnostic> = (diags.into_iter())
                .filter(|d| diagnostics::touches(&d.range, &range))
                .collect();
            return json(diagnostics::fixes(&uri, &near));
        }
        let Some((key, data)) = self.ws.data(&path) else {
            return Ok(Value::Null);
        };
        match req.method.as_str() {
            Completion::METHOD => json(CompletionResponse::Array(features::complete(
                &data, &text, off,
            ))),
            HoverRequest::METHOD => match features::hover(&data, &text, off) {
                Some((a, b, md)) => json(Hover {
                    contents: HoverContents::Markup(MarkupContent {
                        kind: MarkupKind::Markdown,
                        value: md,
                    }),
                    range: Some(text::range(&text, a, b)),
                }),
                None => Ok(Value::Null),
            },
            GotoDefinition::METHOD => json(GotoDefinitionResponse::Array(features::definition(
                &data, &text, off,
            ))),
            References::METHOD => json(features::references(&data, &text, off, &key.folder)),
            m => Err(format!("fuda lsp does not answer {m}")),
        }
    }
}
