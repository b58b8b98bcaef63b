//! The person's lines in `fuda play`. At a terminal they are read with a
//! line editor (rustyline: cursor keys, the session's earlier answers on
//! the up arrow, Ctrl-D ends the input, Ctrl-C quits); from a pipe or a
//! file they are plain lines, so scripted input reads as it always did.

use std::io::{BufRead, Read, Write};

/// Bytes of one input line: option numbers and file names need far fewer.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// What one read of the person's input gave.
pub enum Input {
    Line(String),
    End,
    /// Ctrl-C at the line editor: the person wants out.
    #[cfg_attr(not(feature = "line-edit"), allow(dead_code))]
    Interrupt,
    /// A line past the length limit (`fuda play < /dev/zero` has no line end).
    TooLong,
}

/// Shows `prompt` and reads one line.
pub fn read(prompt: &str) -> Input {
    #[cfg(feature = "line-edit")]
    if let Some(input) = edited(prompt) {
        return input;
    }
    crate::outp!("{prompt}");
    crate::out::note(std::io::stdout().flush());
    plain()
}

/// One line of input; none at its end, past the length limit or on Ctrl-C.
pub fn line(prompt: &str) -> Option<String> {
    match read(prompt) {
        Input::Line(line) => Some(line),
        Input::End | Input::Interrupt | Input::TooLong => None,
    }
}

fn plain() -> Input {
    let mut line = String::new();
    let cap = MAX_LINE_BYTES as u64 + 1;
    match (std::io::stdin().lock().take(cap).read_line(&mut line)).unwrap_or(0) {
        0 => Input::End,
        n if n > MAX_LINE_BYTES => Input::TooLong,
        _ => Input::Line(line),
    }
}

#[cfg(feature = "line-edit")]
thread_local! {
    /// The editor, made at the first read: none when stdin or stdout is not
    /// a terminal (or the terminal cannot be set up), and plain lines are read.
    static EDITOR: std::cell::RefCell<Option<Option<rustyline::DefaultEditor>>> =
        const { std::cell::RefCell::new(None) };
}

/// A line read by the editor; none when there is no terminal to edit on.
#[cfg(feature = "line-edit")]
fn edited(prompt: &str) -> Option<Input> {
    use rustyline::error::ReadlineError;
    use std::io::IsTerminal;
    EDITOR.with_borrow_mut(|slot| {
        let editor = slot
            .get_or_insert_with(|| {
                let tty = std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
                tty.then(|| rustyline::DefaultEditor::new().ok()).flatten()
            })
            .as_mut()?;
        // What was printed must be on screen before the editor draws.
        crate::out::note(std::io::stdout().flush());
        Some(match editor.readline(&*crate::out::printable(prompt)) {
            Ok(line) if line.len() > MAX_LINE_BYTES => Input::TooLong,
            Ok(line) => {
                if !line.trim().is_empty() {
                    let _ = editor.add_history_entry(line.as_str());
                }
                Input::Line(line)
            }
            Err(ReadlineError::Interrupted) => Input::Interrupt,
            Err(_) => Input::End,
        })
    })
}
