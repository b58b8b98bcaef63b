//! Turning run-time failures into miette reports that point into the data files.

use crate::data::{Data, DataError};
use crate::engine::{Flow, RunError};

/// A run-time error as a diagnostic at the code that failed.
pub fn run_error(data: &Data, e: &RunError) -> DataError {
    let message = match &e.card {
        Some(c) => format!("while running card `{c}`: {}", e.message),
        None => e.message.clone(),
    };
    if e.span == Default::default() {
        return DataError::plain(message, None);
    }
    data.sources.error(
        e.span.file,
        e.span.start,
        e.span.end.max(e.span.start + 1),
        message,
        None,
    )
}

/// Prints a flow that ended a command badly; returns the exit code.
pub fn flow(data: &Data, f: Flow) -> std::process::ExitCode {
    match f {
        Flow::Error(e) => {
            eprintln!("{:?}", miette::Report::new(run_error(data, &e)));
            std::process::ExitCode::from(1)
        }
        other => {
            eprintln!("error: the game stopped unexpectedly ({other:?})");
            std::process::ExitCode::from(1)
        }
    }
}
