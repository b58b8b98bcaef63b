//! `prevent()` stops the event being handled only in its `would` step: in an
//! ability on `on: X`, which runs after X happened, it fails whenever it
//! runs, so `fuda check` says so at the call.

use super::counts::walk;
use super::{Data, DataError};
use crate::lang::builtins::Builtin;
use crate::lang::ir::Expr;

/// Every `prevent()` written in an ability that is not on a `would` event.
/// `declared` is how many events the rules declare (the ones after them have
/// no `would` step).
pub fn check(data: &Data, declared: usize) -> Vec<DataError> {
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
                if let Expr::Call(Builtin::Prevent, _, span) = e {
                    out.push(data.sources.error(
                        span.file,
                        span.start,
                        span.end.max(span.start + 1),
                        format!(
                            "`prevent()` only means something in a `would` ability: this ability runs on `on: {event}`, after it happened"
                        ),
                        Some(help.clone()),
                    ));
                }
            });
        }
    }
    out
}
