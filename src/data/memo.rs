//! Card text compiled by an earlier load of the same game, kept for the
//! next: the language server loads a game again on each edit, an edit
//! changes one card, and parsing is most of a load. The key holds all that
//! compiling reads (the text, where it sits in its file, the parameters in
//! scope; the game's names for the whole memo), so an answer from here is
//! the answer compiling would give.

use std::collections::HashMap;

use crate::lang::compile::{CompileError, Context, Origin};
use crate::lang::ir::Code;
use crate::lang::names::Names;

type Compiled = Result<Code, CompileError>;

#[derive(PartialEq, Eq, Hash)]
struct Key {
    expr: bool,
    text: String,
    file: u32,
    lines: Vec<(u32, u32)>,
    params: Vec<String>,
}

/// Compiled code by what it was compiled from. Only what the last load used
/// is kept, so the memo holds one game's code at most. The default memo
/// keeps nothing: a load that happens once pays nothing for it.
#[derive(Default)]
pub struct Memo {
    on: bool,
    /// The names the code was compiled against; other names, other code.
    names: Option<Names>,
    last: HashMap<Key, Compiled>,
    now: HashMap<Key, Compiled>,
}

impl Memo {
    /// A memo that keeps what it compiles, for a game loaded again and again.
    pub fn keeping() -> Memo {
        Memo {
            on: true,
            ..Memo::default()
        }
    }

    /// The code compiled from `text` at `origin`, from the memo or from `compile`.
    pub(crate) fn get(
        &mut self,
        expr: bool,
        text: &str,
        origin: &Origin,
        ctx: &Context,
        names: &Names,
        compile: impl FnOnce() -> Compiled,
    ) -> Compiled {
        if !self.on {
            return compile();
        }
        if self.names.as_ref() != Some(names) {
            self.last.clear();
            self.now.clear();
            self.names = Some(names.clone());
        }
        let key = Key {
            expr,
            text: text.to_string(),
            file: origin.file,
            lines: origin.lines.clone(),
            params: ctx.params.clone(),
        };
        if let Some(c) = self.now.get(&key) {
            return c.clone();
        }
        let c = self.last.remove(&key).unwrap_or_else(compile);
        self.now.insert(key, c.clone());
        c
    }

    /// A load is over: what it did not use is dropped.
    pub(crate) fn done(&mut self) {
        self.last = std::mem::take(&mut self.now);
    }
}
