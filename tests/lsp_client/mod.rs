//! A language client for `fuda lsp`, shared by its test and its benchmark:
//! the binary runs as a child process, spoken to as an editor does
//! (JSON-RPC framed by `Content-Length`). Each wait reads at most a few
//! messages; its time limit is only a last guard against a server that
//! never answers.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use serde_json::{Value, json};

/// The last guard: a message that has not come by then never will.
pub const GUARD: Duration = Duration::from_secs(120);
/// How many messages a step may read before the one it waits for.
pub const MESSAGES: usize = 8;

pub struct Client {
    /// The user's cache folder, where copies of built-in files go.
    pub cache: tempfile::TempDir,
    child: Child,
    stdin: ChildStdin,
    from: Receiver<Value>,
    next_id: i64,
}

impl Client {
    pub fn start(args: &[&str]) -> Client {
        let cache = tempfile::tempdir().unwrap();
        let mut child = Command::new(env!("CARGO_BIN_EXE_fuda"))
            .args(args)
            .env("XDG_CACHE_HOME", cache.path())
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("fuda lsp starts");
        let stdin = child.stdin.take().unwrap();
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let (tx, from) = channel();
        std::thread::spawn(move || {
            loop {
                let mut len = None;
                loop {
                    let mut line = String::new();
                    if out.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(v) = line.strip_prefix("Content-Length: ") {
                        len = v.parse::<usize>().ok();
                    }
                }
                let mut body = vec![0; len.expect("a Content-Length header")];
                if out.read_exact(&mut body).is_err() {
                    return;
                }
                if tx.send(serde_json::from_slice(&body).unwrap()).is_err() {
                    return;
                }
            }
        });
        let mut c = Client {
            cache,
            child,
            stdin,
            from,
            next_id: 0,
        };
        let id = c.request(
            "initialize",
            json!({"processId": null, "rootUri": null, "capabilities": {}}),
        );
        let caps = c.response(id);
        assert_eq!(caps["capabilities"]["hoverProvider"], true, "{caps}");
        c.notify("initialized", json!({}));
        c
    }

    pub fn send(&mut self, msg: Value) {
        let body = msg.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    pub fn request(&mut self, method: &str, params: Value) -> i64 {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        id
    }

    /// The first message that `want` accepts, among the next few.
    pub fn wait(&mut self, what: &str, want: impl Fn(&Value) -> bool) -> Value {
        let mut seen = Vec::new();
        for _ in 0..MESSAGES {
            let msg = self
                .from
                .recv_timeout(GUARD)
                .unwrap_or_else(|_| panic!("no {what}; read {seen:#?}"));
            if want(&msg) {
                return msg;
            }
            seen.push(msg);
        }
        panic!("no {what} among {MESSAGES} messages: {seen:#?}");
    }

    pub fn response(&mut self, id: i64) -> Value {
        let msg = self.wait(&format!("response {id}"), |m| m["id"] == id);
        assert!(msg.get("error").is_none(), "{msg}");
        msg["result"].clone()
    }

    pub fn ask(&mut self, method: &str, params: Value) -> Value {
        let id = self.request(method, params);
        self.response(id)
    }

    /// The next diagnostics published for `uri`.
    pub fn diagnostics(&mut self, uri: &str) -> Vec<Value> {
        let msg = self.wait(&format!("diagnostics for {uri}"), |m| {
            m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri
        });
        msg["params"]["diagnostics"].as_array().unwrap().clone()
    }

    pub fn open(&mut self, uri: &str, text: &str) {
        let doc = json!({"uri": uri, "languageId": "yaml", "version": 1, "text": text});
        self.notify("textDocument/didOpen", json!({"textDocument": doc}));
    }

    pub fn change(&mut self, uri: &str, version: i64, text: &str) {
        let params = json!({
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"text": text}],
        });
        self.notify("textDocument/didChange", params);
    }

    pub fn stop(mut self) {
        self.ask("shutdown", Value::Null);
        self.notify("exit", Value::Null);
        let status = self.child.wait().unwrap();
        assert!(status.success(), "{status}");
    }
}

pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .canonicalize()
        .unwrap()
}

pub fn file_uri(path: &Path) -> String {
    let mut s = String::from("file://");
    for b in path.to_str().unwrap().bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'/' | b'-' | b'_' | b'.' => {
                s.push(b as char)
            }
            _ => s.push_str(&format!("%{b:02X}")),
        }
    }
    s
}

/// The protocol's position of byte offset `off`: line, and UTF-16 column.
pub fn pos(text: &str, off: usize) -> Value {
    let line_start = text[..off].rfind('\n').map_or(0, |i| i + 1);
    let line = text[..line_start].matches('\n').count();
    json!({"line": line, "character": text[line_start..off].encode_utf16().count()})
}

/// The byte offset of a protocol position.
pub fn offset(text: &str, p: &Value) -> usize {
    let line = p["line"].as_u64().unwrap() as usize;
    let line_start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
    let mut units = p["character"].as_u64().unwrap() as usize;
    let mut at = line_start;
    for c in text[line_start..].chars() {
        if units == 0 {
            break;
        }
        units -= c.len_utf16();
        at += c.len_utf8();
    }
    at
}

pub fn doc_at(uri: &str, text: &str, off: usize) -> Value {
    json!({"textDocument": {"uri": uri}, "position": pos(text, off)})
}
