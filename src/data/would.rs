//! `prevent()` stops the event being handled only in its `would` step: in an
//! ability on `on: X`, which runs after X happened, it fails whenever it
//! runs, so `fuda check` says so at the call, or at the call of the verb
//! that reaches it.

use super::counts::walk;
use super::{Data, DataError};
use crate::lang::builtins::Builtin;
use crate::lang::ir::{Expr, Span};

/// Every `prevent()` written in an ability that is not on a `would` event.
/// `declared` is how many events the rules declare (the ones after them have
/// no `would` step).
pub fn check(data: &Data, declared: usize) -> Vec<DataError> {
    let reaches = reaching_prevent(data);
    let mut out = Vec::new();
    for t in data.triggers.iter().filter(|t| !t.would) {
        let event = data.event_name(t.event);
        let help = if (t.event as usize) < declared {
            format!(
                "did you mean `on: would {event}`? That ability runs before `{event}` happens, and `prevent()` stops it"
            )
        } else {
            format!(
                "`{event}` is raised by the turn or the board, which have no `would` step: it cannot be prevented"
            )
        };
        for code in t.cond.iter().chain([&t.body]) {
            walk(&code.stmts, &mut |_| {}, &mut |e| {
                let after = format!(
                    "only means something in a `would` ability: this ability runs on `on: {event}`, after it happened"
                );
                let (span, message, help) = match e {
                    Expr::Call(Builtin::Prevent, _, span) => {
                        (span, format!("`prevent()` {after}"), help.clone())
                    }
                    Expr::Verb(w, _, span) => match reaches[*w as usize] {
                        Some(at) => {
                            let verb = &data.names.verbs[data.verb_named(*w)].0;
                            let (line, col) = super::load::line_col(
                                data.sources.text(at.file),
                                at.start as usize,
                            );
                            (
                                span,
                                format!("verb `{verb}` calls `prevent()`, which {after}"),
                                format!(
                                    "{help} (`prevent()` at {}:{line}:{col})",
                                    data.sources.path(at.file)
                                ),
                            )
                        }
                        None => return,
                    },
                    _ => return,
                };
                out.push(data.sources.at_span(*span, message, Some(help)));
            });
        }
    }
    out
}

/// For each verb, the `prevent()` its code reaches (directly or through
/// other verbs), if any.
fn reaching_prevent(data: &Data) -> Vec<Option<Span>> {
    let mut reaches: Vec<Option<Span>> = vec![None; data.verbs.len()];
    loop {
        let mut changed = false;
        for (v, code) in data.verbs.iter().take(data.names.verbs.len()).enumerate() {
            if reaches[v].is_some() {
                continue;
            }
            let mut found = None;
            walk(&code.stmts, &mut |_| {}, &mut |e| match e {
                Expr::Call(Builtin::Prevent, _, span) => found = found.or(Some(*span)),
                Expr::Verb(w, ..) => found = found.or(reaches[*w as usize]),
                _ => {}
            });
            if found.is_some() {
                reaches[v] = found;
                changed = true;
            }
        }
        if !changed {
            return reaches;
        }
    }
}
