//! A person at the terminal: as an agent (the request's view and options
//! on stderr, the answer read from stdin), and as the reviewer of changed
//! snapshots (`fuda test --review`). The kernel does no terminal I/O.

use std::io::{BufRead, Read, Write};

/// Bytes of one answer line: option numbers need far fewer.
const MAX_ANSWER_BYTES: usize = 64 * 1024;

use crate::engine::log::pname;
use crate::engine::{Agent, Game, Picks, Request, Res};

#[derive(Clone, Copy, Default)]
pub struct Human;

impl Agent for Human {
    fn answer(&mut self, g: &mut Game, req: &Request) -> Res<Picks> {
        let (min, max) = (req.min, req.max);
        let mut err = std::io::stderr();
        let _ = writeln!(err, "\n{}", req.view(g).render(req.data));
        let _ = writeln!(
            err,
            "{} — {} (choose {min} to {max}, numbers separated by spaces):",
            pname(req.player),
            req.prompt
        );
        for (i, o) in req.options.iter().enumerate() {
            // The id a command or scenario takes, beside a name the player
            // may read (a face-down card's stays unsaid).
            let (label, key) = (o.label_for(g, req.player), o.key(g));
            if label != key && label == o.label(g) {
                let _ = writeln!(err, "  {i}: {label}  [{key}]");
            } else {
                let _ = writeln!(err, "  {i}: {label}");
            }
        }
        let stdin = std::io::stdin();
        loop {
            let _ = write!(err, "> ");
            let _ = err.flush();
            let mut line = String::new();
            // End of input: the first options, so the game still ends. A
            // line is read up to a limit (`fuda play < /dev/zero` has no end
            // of line); a longer one ends the input likewise.
            let cap = MAX_ANSWER_BYTES as u64 + 1;
            let n = (stdin.lock().take(cap).read_line(&mut line)).unwrap_or(0);
            if n == 0 {
                return Ok((0..min).collect());
            }
            if n > MAX_ANSWER_BYTES {
                let _ = writeln!(
                    err,
                    "an answer line longer than {MAX_ANSWER_BYTES} bytes: taking the first options"
                );
                return Ok((0..min).collect());
            }
            let picked: Option<Picks> = line.split_whitespace().map(|t| t.parse().ok()).collect();
            if let Some(p) = picked
                && req.fits(&p)
            {
                return Ok(p);
            }
            let _ = writeln!(err, "please enter {min} to {max} different option numbers");
        }
    }

    fn boxed(&self) -> Box<dyn Agent> {
        Box::new(*self)
    }
}

/// Asks at the terminal whether each changed snapshot is accepted.
pub struct Reviewer;

impl crate::snapshot::Review for Reviewer {
    fn accept(&mut self, scenario: &std::path::Path, _diff: &str, _old: Option<&str>) -> bool {
        let mut err = std::io::stderr();
        let stdin = std::io::stdin();
        loop {
            let _ = write!(
                err,
                "accept the new snapshot of {}? [y/n] ",
                scenario.display()
            );
            let _ = err.flush();
            let mut line = String::new();
            // End of input rejects: nothing is written without a yes; so
            // does a line past the limit.
            let cap = MAX_ANSWER_BYTES as u64 + 1;
            let n = (stdin.lock().take(cap).read_line(&mut line)).unwrap_or(0);
            if n == 0 || n > MAX_ANSWER_BYTES {
                return false;
            }
            match line.trim() {
                "y" | "yes" => return true,
                "n" | "no" => return false,
                _ => {}
            }
        }
    }
}
