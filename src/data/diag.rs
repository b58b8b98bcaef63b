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

    /// An error at a compiled span (at least one character wide).
    pub fn at_span(
        &self,
        span: crate::lang::ir::Span,
        message: impl Into<String>,
        help: Option<String>,
    ) -> DataError {
        self.error(
            span.file,
            span.start,
            span.end.max(span.start + 1),
            message,
            help,
        )
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
        let message = shown(message.into());
        DataError {
            label: short_label(&message),
            message,
            src: Src { name: path, text },
            span: Some((start, end - start).into()),
            help: help.map(shown),
        }
    }
}

/// A message as printed: names from data (a card's, a player's answer)
/// may hold escape sequences, which must not reach the terminal.
fn shown(message: String) -> String {
    match crate::out::printable(&message) {
        std::borrow::Cow::Borrowed(_) => message,
        std::borrow::Cow::Owned(s) => s,
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
        let line_end = text[start..]
            .find('\n')
            .map(|i| start + i)
            .unwrap_or(text.len());
        if start - line_start <= WIDE {
            let c = text.read_span(span, context_lines_before, context_lines_after)?;
            // A very long line (this one or one around it) is shown as a
            // window of this line from its start: each error would print it.
            if c.data().len() > SHOWN {
                return Ok(window(self, span, line_start, line_start, line_end));
            }
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
        Ok(window(self, span, start, line_start, line_end))
    }
}

/// Bytes of source an error shows before its lines are cut to a window.
const SHOWN: usize = 8 * 1024;

/// The part of one line from `from` to a little past the span (at most
/// to the line's end), with the line and column of `from`.
fn window<'a>(
    src: &'a Src,
    span: &SourceSpan,
    from: usize,
    line_start: usize,
    line_end: usize,
) -> Box<dyn SpanContents<'a> + 'a> {
    let text = src.text.as_str();
    let start = floor_char(text, span.offset());
    let line = text[..line_start].matches('\n').count();
    let end = floor_char(text, (start + span.len().max(200)).min(line_end));
    Box::new(MietteSpanContents::new_named(
        src.name.clone(),
        &text.as_bytes()[from..end],
        (from, end - from).into(),
        line,
        text[line_start..from].chars().count(),
        1,
    ))
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
            message: shown(message.into()),
            src: Src {
                name: "<input>".into(),
                text: Arc::new(String::new()),
            },
            span: None,
            label: String::new(),
            help: help.map(shown),
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

#[cfg(test)]
mod tests {
    use super::*;

    /// An error near the start of a 500 KB line shows a window of it, not
    /// the whole line (the error cap printed it 50 times).
    #[test]
    fn long_line_is_cut() {
        let mut sources = Sources::default();
        let line = format!("tags: [{}]\n", "x, ".repeat(170_000));
        let f = sources.add("cards/big.yaml".into(), format!("id: a\n{line}name: A\n"));
        let e = sources.error(f, 13, 14, "unknown tag `x`", None);
        let mut out = String::new();
        miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor())
            .render_report(&mut out, &e)
            .unwrap();
        assert!(out.len() < 4_000, "{} bytes shown", out.len());
        assert!(out.contains("cards/big.yaml:2:8"), "{out}");
    }
}
