//! Rhai for the long tail, compiled at load: the rules' script files and the
//! cards' snippets become ASTs here, every call checked against what scripts
//! may call. Running them against a game is the kernel's bridge
//! (`engine/script.rs`), which builds its engine, every kernel operation
//! registered, on first use: the load layer knows no game state.

use std::collections::HashSet;
use std::sync::{Mutex, OnceLock};

use rhai::{AST, Engine, Position};

use crate::lang::builtins::Builtin;
use crate::lang::compile::{CompileError, Origin};
use crate::lang::names::Names;
use crate::limits::MAX_CODE_BYTES;

/// The names a card's snippet is given, in [`Snippet::reads`]'s order.
pub const GIVEN: [&str; 4] = ["card", "me", "event", "target"];

/// A card's compiled snippet.
pub struct Snippet {
    pub ast: AST,
    pub origin: Origin,
    /// Which of [`GIVEN`] its text names: only those are made for a run
    /// (four values and their scope entries a call, most reading one).
    pub reads: [bool; 4],
    /// Whether the snippet defines functions of its own (its `ast` also
    /// holds the rules' script functions).
    pub defines_fns: bool,
    /// Rhai's function lookups of earlier runs, kept for the next (one a
    /// thread running it at once): a run would otherwise look every call up
    /// anew. Valid for this snippet and [`Scripts::runtime`] alone.
    pub lookups: Mutex<Vec<rhai::Caches>>,
}

/// Compiled scripts of one game.
pub struct Scripts {
    /// The sandbox's engine: compiles (parsing needs no kernel operation).
    pub engine: Engine,
    /// Functions from the rules' script files.
    pub lib: AST,
    pub fns: Vec<(String, usize)>,
    /// The file of each of [`Scripts::fns`] (where its run-time errors are).
    fn_files: Vec<u32>,
    pub snippets: Vec<Snippet>,
    /// How many of [`Scripts::snippets`] run as card text instead
    /// (`data::lower`).
    pub lowered: usize,
    /// Functions scripts may call: the sandbox's and the kernel's (for the
    /// load-time check of calls).
    known: HashSet<String>,
    /// The sandbox's own functions (Rhai's packages): a call of one of these
    /// names may not reach the kernel (`data::lower`).
    pub sandbox: HashSet<String>,
    /// Script files parsed, their calls not checked yet.
    unchecked: Vec<(AST, String, Origin)>,
    /// Runs them, with the kernel's operations: built by the kernel's bridge
    /// the first time a script runs.
    pub runtime: OnceLock<Engine>,
}

impl Scripts {
    /// The kernel registers every builtin (but `sum` and `any`, which take
    /// code) and every rules verb as a function, and `to_string` of a handle.
    pub fn new(names: &Names) -> Scripts {
        let engine = crate::sandbox::engine();
        let sandbox = crate::sandbox::known_functions(&engine);
        let mut known = sandbox.clone();
        let builtins = (Builtin::ALL.iter())
            .filter(|b| !matches!(b, Builtin::Sum | Builtin::Any))
            .map(|b| b.name().to_string());
        known.extend(builtins);
        known.extend(names.verbs.iter().map(|(n, _)| n.clone()));
        known.insert("to_string".into());
        Scripts {
            engine,
            lib: AST::empty(),
            fns: Vec::new(),
            fn_files: Vec::new(),
            snippets: Vec::new(),
            lowered: 0,
            known,
            sandbox,
            unchecked: Vec::new(),
            runtime: OnceLock::new(),
        }
    }

    /// Compiles a rules script file; its functions become callable from card text.
    /// Its calls are checked by [`Scripts::check_files`], once every file's
    /// functions are known (one file may call another's).
    pub fn compile_file(&mut self, text: &str, file: u32) -> Result<(), CompileError> {
        let origin = Origin::identity(file);
        let ast = self.parse(text, &origin)?;
        for f in ast.iter_functions() {
            self.fns.push((f.name.to_string(), f.params.len()));
            self.fn_files.push(file);
        }
        self.lib = self.lib.merge(&ast);
        self.unchecked.push((ast, text.to_string(), origin));
        Ok(())
    }

    /// The script file that defines function `name` (the last one, as a
    /// later file's function replaces an earlier one's).
    pub fn file_of(&self, name: &str) -> Option<u32> {
        let i = self.fns.iter().rposition(|(n, _)| n == name)?;
        self.fn_files.get(i).copied()
    }

    /// The calls of the rules' script files to functions that exist nowhere.
    pub fn check_files(&mut self) -> Vec<(u32, CompileError)> {
        let files = std::mem::take(&mut self.unchecked);
        files
            .iter()
            .filter_map(|(ast, text, origin)| {
                let e = self.check_calls(ast, text, origin).err()?;
                Some((origin.file, e))
            })
            .collect()
    }

    /// Compiles a card's Rhai snippet; it sees `card`, `me`, `event` and the rules' functions.
    pub fn compile_snippet(&mut self, text: &str, origin: Origin) -> Result<u32, CompileError> {
        let ast = self.parse(text, &origin)?;
        self.check_calls(&ast, text, &origin)?;
        let defines_fns = ast.iter_functions().next().is_some();
        let ast = self.lib.clone_functions_only().merge(&ast);
        let reads = GIVEN.map(|name| reads(text, name));
        self.snippets.push(Snippet {
            ast,
            origin,
            reads,
            defines_fns,
            lookups: Mutex::new(Vec::new()),
        });
        Ok((self.snippets.len() - 1) as u32)
    }
}

impl Scripts {
    /// Compiles Rhai code within the size limit.
    fn parse(&self, text: &str, origin: &Origin) -> Result<AST, CompileError> {
        if text.len() > MAX_CODE_BYTES {
            return Err(CompileError {
                message: format!(
                    "script too long: {} bytes, at most {MAX_CODE_BYTES}",
                    text.len()
                ),
                start: origin.map(0),
                end: origin.map(0) + 1,
                help: Some("split it into functions in the rules' script files".into()),
            });
        }
        self.engine
            .compile(text)
            .map_err(|e| parse_error(text, origin, e))
    }

    /// Every call in `ast` checked against the sandbox, the rules' functions
    /// and the code's own.
    fn check_calls(&self, ast: &AST, text: &str, origin: &Origin) -> Result<(), CompileError> {
        let lib: HashSet<&str> = self.fns.iter().map(|(n, _)| n.as_str()).collect();
        let unknown = crate::sandbox::unknown_calls(ast, &self.known);
        if let Some((name, pos)) = unknown.into_iter().find(|(n, _)| !lib.contains(n.as_str())) {
            let at = origin.map(pos_offset(text, pos));
            let help = crate::suggest::did_you_mean(crate::suggest::suggest(
                &name,
                self.known
                    .iter()
                    .map(|s| s.as_str())
                    .chain(lib.iter().copied()),
            ))
            .or_else(|| Some("scripts may not reach the clock, the terminal or files".into()));
            return Err(CompileError {
                message: format!("no function `{name}` in fuda scripts"),
                start: at,
                end: at + name.len() as u32,
                help,
            });
        }
        Ok(())
    }
}

/// Whether `text` may read the variable `name`: it has the word anywhere
/// (code, a string, a comment), or asks for variables by name. A script's
/// functions do not see the caller's variables; its closures capture them
/// by name, in its text.
fn reads(text: &str, name: &str) -> bool {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    text.contains("is_def_var")
        || text
            .match_indices(name)
            .any(|(i, _)| !text[..i].ends_with(word) && !text[i + name.len()..].starts_with(word))
}

fn parse_error(text: &str, origin: &Origin, e: rhai::ParseError) -> CompileError {
    let off = pos_offset(text, e.position());
    let at = origin.map(off);
    CompileError {
        message: format!("Rhai syntax error: {}", e.err_type()),
        start: at,
        end: at + 1,
        help: None,
    }
}

fn pos_offset(text: &str, pos: Position) -> usize {
    match (pos.line(), pos.position()) {
        (Some(line), col) => crate::data::locate::offset_of(text, line, col.unwrap_or(1)),
        _ => 0,
    }
}
