//! Errors in data files, reported with miette: file, line, column, caret, help.

use std::sync::Arc;

use miette::{Diagnostic, NamedSource, SourceSpan};
use thiserror::Error;

/// Every file read while loading a game, kept so errors can quote them.
#[derive(Debug, Default, Clone)]
pub struct Sources {
    pub files: Vec<(String, Arc<String>)>,
}

impl Sources {
    pub fn add(&mut self, path: String, text: String) -> u32 {
        self.files.push((path, Arc::new(text)));
        (self.files.len() - 1) as u32
    }
    pub fn text(&self, file: u32) -> &str {
        self.files
            .get(file as usize)
            .map(|(_, t)| t.as_str())
            .unwrap_or("")
    }
    pub fn path(&self, file: u32) -> &str {
        self.files
            .get(file as usize)
            .map(|(p, _)| p.as_str())
            .unwrap_or("<unknown>")
    }

    /// An error pointing at `start..end` of a file.
    pub fn error(
        &self,
        file: u32,
        start: u32,
        end: u32,
        message: impl Into<String>,
        help: Option<String>,
    ) -> DataError {
        let (path, text) = self
            .files
            .get(file as usize)
            .cloned()
            .unwrap_or_else(|| ("<unknown>".into(), Arc::new(String::new())));
        let len = text.len();
        let start = (start as usize).min(len);
        let end = (end as usize).clamp(start, len);
        let message = message.into();
        DataError {
            label: short_label(&message),
            message,
            src: NamedSource::new(path, text),
            span: Some((start, end - start).into()),
            help,
        }
    }
}

fn short_label(message: &str) -> String {
    let m = message.split(':').next().unwrap_or(message);
    if m.len() > 40 {
        "here".into()
    } else {
        m.to_string()
    }
}

/// A problem in the game's data (rules, cards, scripts, scenarios).
#[derive(Debug, Error, Diagnostic)]
#[error("{message}")]
pub struct DataError {
    pub message: String,
    #[source_code]
    pub src: NamedSource<Arc<String>>,
    #[label("{label}")]
    pub span: Option<SourceSpan>,
    pub label: String,
    #[help]
    pub help: Option<String>,
}

impl DataError {
    /// An error about something that is not in a file (a command-line value).
    pub fn plain(message: impl Into<String>, help: Option<String>) -> DataError {
        DataError {
            message: message.into(),
            src: NamedSource::new("<input>", Arc::new(String::new())),
            span: None,
            label: String::new(),
            help,
        }
    }
}

/// Several errors found in one pass over the data.
#[derive(Debug, Error, Diagnostic)]
#[error("{} error(s) in the game data", errors.len())]
pub struct DataErrors {
    #[related]
    pub errors: Vec<DataError>,
}
