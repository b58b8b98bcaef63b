//! Writing to stdout and stderr without panicking (`println!` panics on a
//! closed or full stream). A reader that went away (`fuda doc | head -1`) is
//! no error of ours: the rest of the output is dropped and fuda exits as it
//! would have. Output that could not be written for another reason
//! (`fuda run > /dev/full`) makes the command fail ([`finish`]). A message
//! that cannot be written to stderr is given up: there is nowhere to say so.

use std::io::{ErrorKind, Write};
use std::process::ExitCode;
use std::sync::Mutex;

/// The first stdout write that failed, unless the reader went away.
static LOST: Mutex<Option<std::io::Error>> = Mutex::new(None);

/// Writes formatted text to stdout, noting a failure. Control characters
/// are shown escaped ([`printable`]).
pub fn out(args: std::fmt::Arguments) {
    let text = std::fmt::format(args);
    note(std::io::stdout().write_all(printable(&text).as_bytes()));
}

/// `text` with its control characters but line ends and tabs escaped
/// (`\u{1b}`): names and text come from untrusted data, and an escape
/// sequence in a card's name must not clear or retitle the terminal.
pub fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    let bad = |c: char| c.is_control() && c != '\n' && c != '\t';
    if !text.contains(bad) {
        return text.into();
    }
    let mut s = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if bad(c) {
            s.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            s.push(c);
        }
    }
    s.into()
}

/// Writes formatted text to stderr; a failure is given up.
pub fn err(args: std::fmt::Arguments) {
    let _ = std::io::stderr().write_fmt(args);
}

/// Notes the result of a write to stdout made elsewhere (a locked or
/// buffered stdout).
pub fn note(r: std::io::Result<()>) {
    if let Err(e) = r
        && e.kind() != ErrorKind::BrokenPipe
        && let Ok(mut lost) = LOST.lock()
    {
        lost.get_or_insert(e);
    }
}

/// Stdout as a writer for code that writes to one (`fuda test`): a
/// failure is noted ([`note`]) and the rest of the output dropped, so the
/// command runs to its end and exits by its results.
pub struct Stdout;

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        note(std::io::stdout().write_all(buf));
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        note(std::io::stdout().flush());
        Ok(())
    }
}

/// The command's exit code, once stdout is flushed: 1 if some output was
/// lost for a reason other than a reader that went away.
pub fn finish(code: ExitCode) -> ExitCode {
    note(std::io::stdout().flush());
    match LOST.lock().ok().and_then(|mut l| l.take()) {
        Some(e) => {
            err(format_args!("error: cannot write the output: {e}\n"));
            ExitCode::from(1)
        }
        None => code,
    }
}

/// `println!` to stdout, without a panic ([`out`]).
#[macro_export]
macro_rules! outln {
    ($($t:tt)*) => { $crate::out::out(format_args!("{}\n", format_args!($($t)*))) };
}

/// `print!` to stdout, without a panic ([`out`]).
#[macro_export]
macro_rules! outp {
    ($($t:tt)*) => { $crate::out::out(format_args!($($t)*)) };
}

/// `eprintln!`, without a panic ([`err`]).
#[macro_export]
macro_rules! errln {
    ($($t:tt)*) => { $crate::out::err(format_args!("{}\n", format_args!($($t)*))) };
}

/// `eprint!`, without a panic ([`err`]).
#[macro_export]
macro_rules! errp {
    ($($t:tt)*) => { $crate::out::err(format_args!($($t)*)) };
}
