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

#[cfg(test)]
mod tests {
    use std::path::Path;
    use std::sync::Arc;

    use super::Memo;
    use crate::data::source::Source;
    use crate::data::unsaved::Unsaved;
    use crate::data::{Data, DataErrors};

    /// What a load says, to compare: its errors where they point, or its verbs.
    fn said(r: Result<Data, DataErrors>) -> String {
        match r {
            Ok(d) => format!("{:?}", d.verbs),
            Err(e) => (e.errors.iter())
                .map(|e| format!("{} {:?} {:?}\n", e.message, e.span, e.help))
                .collect(),
        }
    }

    /// Edits that move code within its file, or change what it refers to,
    /// load through a warm memo exactly as they load from scratch.
    #[test]
    fn a_load_through_the_memo_says_what_a_fresh_load_says() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let src = Source::Dir(root.to_path_buf());
        let card = root.join("cards/hyakki/characters.yaml");
        let rules = root.join("rules/hyakki.yaml");
        let saved = std::fs::read_to_string(&card).unwrap();
        let saved_rules = std::fs::read_to_string(&rules).unwrap();
        let last_call = saved.rfind("move(").unwrap();
        let typo = format!("{}mvoe({}", &saved[..last_call], &saved[last_call + 5..]);
        let shifted = format!("\n\n\n{typo}");
        let with_verb = saved_rules.replacen(
            "verbs:\n",
            "verbs:\n  mvoe: {params: [a, b, c], do: \"\"}\n",
            1,
        );
        let edits = [
            (saved.clone(), saved_rules.clone()),
            (typo.clone(), saved_rules.clone()),
            // The typo's card unchanged, but lower in its file.
            (shifted.clone(), saved_rules.clone()),
            // The same cards, other names: the verb `mvoe` now exists.
            (shifted, with_verb),
            (saved, saved_rules),
        ];
        let mut memo = Memo::keeping();
        let mut errors = 0;
        for (cards_text, rules_text) in edits {
            let mut unsaved = Unsaved::default();
            unsaved.set(card.display().to_string(), Arc::new(cards_text));
            unsaved.set(rules.display().to_string(), Arc::new(rules_text));
            let fresh = said(src.load_unsaved("hyakki", &unsaved));
            let again = said(src.load_again("hyakki", &unsaved, &mut memo));
            assert_eq!(again, fresh);
            errors += fresh.contains("mvoe") as usize;
        }
        assert_eq!(errors, 2, "the typo is reported twice, then is a verb");
    }
}
