//! `fuda check`'s errors as an editor shows them: each at its file's range,
//! with its help; a "did you mean" help becomes a quick fix.

use std::collections::HashMap;
use std::path::Path;

use lsp_types::{
    CodeAction, CodeActionKind, Diagnostic, DiagnosticSeverity, Position, Range, TextEdit, Uri,
    WorkspaceEdit,
};

use super::text;
use crate::data::DataErrors;

/// The errors by file. An error that names no file of the folder (a file
/// that cannot be read, a mod's manifest) goes to `fallback`'s first line.
pub fn by_file(errors: &DataErrors, fallback: &str) -> HashMap<String, Vec<Diagnostic>> {
    let mut out: HashMap<String, Vec<Diagnostic>> = HashMap::new();
    for e in &errors.errors {
        let message = match &e.help {
            Some(h) => format!("{}\nhelp: {h}", e.message),
            None => e.message.clone(),
        };
        let file = Path::new(&e.src.name);
        let placed = match (e.span, file.is_absolute()) {
            (Some(span), true) => text::uri_of(file).map(|uri| {
                let t = e.src.text.as_str();
                (
                    uri.as_str().to_string(),
                    text::range(t, span.offset(), span.offset() + span.len()),
                )
            }),
            _ => None,
        };
        let (uri, range) = placed.unwrap_or_else(|| (fallback.to_string(), Range::default()));
        out.entry(uri).or_default().push(Diagnostic {
            range,
            severity: Some(DiagnosticSeverity::ERROR),
            source: Some("fuda".into()),
            message,
            ..Diagnostic::default()
        });
    }
    out
}

/// The name a "did you mean `x`?" help suggests.
pub fn suggestion(message: &str) -> Option<&str> {
    let rest = &message[message.find("did you mean `")? + "did you mean `".len()..];
    Some(&rest[..rest.find('`')?])
}

/// A quick fix for each diagnostic that suggests a name: put it in place.
pub fn fixes(uri: &Uri, diagnostics: &[Diagnostic]) -> Vec<CodeAction> {
    (diagnostics.iter())
        .filter(|d| d.source.as_deref() == Some("fuda") && d.range.start != d.range.end)
        .filter_map(|d| {
            let name = suggestion(&d.message)?;
            let edit = TextEdit {
                range: d.range,
                new_text: name.to_string(),
            };
            Some(CodeAction {
                title: format!("change to `{name}`"),
                kind: Some(CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![d.clone()]),
                edit: Some(WorkspaceEdit {
                    changes: Some(HashMap::from([(uri.clone(), vec![edit])])),
                    ..WorkspaceEdit::default()
                }),
                is_preferred: Some(true),
                ..CodeAction::default()
            })
        })
        .collect()
}

/// Whether two ranges share a position (a cursor inside a range counts).
pub fn touches(a: &Range, b: &Range) -> bool {
    let le = |x: &Position, y: &Position| (x.line, x.character) <= (y.line, y.character);
    le(&a.start, &b.end) && le(&b.start, &a.end)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_suggested_name_is_read_from_the_help() {
        assert_eq!(
            suggestion("unknown function `gian`\nhelp: did you mean `gain`?"),
            Some("gain")
        );
        assert_eq!(suggestion("unknown function `gian`"), None);
    }
}
