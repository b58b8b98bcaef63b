//! Errors in data files, reported with miette: file, line, column, caret, help.

use std::sync::Arc;

use miette::{Diagnostic, MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents};
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
        let start = floor_char(&text, (start as usize).min(len));
        // A caret, not a page: long spans are cut to a few hundred bytes.
        let end = floor_char(&text, (end as usize).clamp(start, len).min(start + 400));
        let message = message.into();
        DataError {
            label: short_label(&message),
            message,
            src: Src { name: path, text },
            span: Some((start, end - start).into()),
            help,
        }
    }
}

fn floor_char(text: &str, mut i: usize) -> usize {
    i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Columns beyond this are shown from a window of their line.
const WIDE: usize = 2_000;

/// A file's text as miette reads it. A label far along a very long line (card
/// text generated into one line, say) is shown from a window of that line that
/// starts at the label, with the real line and column in its heading.
#[derive(Debug, Clone)]
pub struct Src {
    pub name: String,
    pub text: Arc<String>,
}

impl SourceCode for Src {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let text = self.text.as_str();
        let start = floor_char(text, span.offset());
        let line_start = text[..start].rfind('\n').map(|i| i + 1).unwrap_or(0);
        let name = self.name.clone();
        if start - line_start <= WIDE {
            let c = text.read_span(span, context_lines_before, context_lines_after)?;
            // The column in characters, not bytes (a line of Japanese).
            let at = floor_char(text, c.span().offset());
            let from = text[..at].rfind('\n').map_or(0, |i| i + 1);
            return Ok(Box::new(MietteSpanContents::new_named(
                name,
                c.data(),
                *c.span(),
                c.line(),
                text[from..at].chars().count(),
                c.line_count(),
            )));
        }
        let line = text[..line_start].matches('\n').count();
        let line_end = text[start..]
            .find('\n')
            .map(|i| start + i)
            .unwrap_or(text.len());
        let end = floor_char(text, (start + span.len().max(200)).min(line_end));
        Ok(Box::new(MietteSpanContents::new_named(
            name,
            &text.as_bytes()[start..end],
            (start, end - start).into(),
            line,
            text[line_start..start].chars().count(),
            1,
        )))
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
    pub src: Src,
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
            src: Src {
                name: "<input>".into(),
                text: Arc::new(String::new()),
            },
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
