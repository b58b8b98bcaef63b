//! Rhai for the long tail, compiled at load: the rules' script files and the
//! cards' snippets become ASTs here. Running them against a game is the
//! kernel's bridge (`engine/script.rs`), which builds its engine, every kernel
//! operation registered, on first use: the load layer knows no game state.

use std::sync::OnceLock;

use rhai::{AST, Engine, Position};

use crate::lang::compile::{CompileError, Origin};

/// Limits that stop runaway scripts.
pub const MAX_OPERATIONS: u64 = 2_000_000;
const MAX_CALL_LEVELS: usize = 48;

/// Compiled scripts of one game.
pub struct Scripts {
    /// Compiles (parsing needs no kernel operation).
    pub engine: Engine,
    /// Functions from the rules' script files.
    pub lib: AST,
    pub fns: Vec<(String, usize)>,
    pub lib_origins: Vec<Origin>,
    pub snippets: Vec<(AST, Origin)>,
    /// Runs them, with the kernel's operations: built by the kernel's bridge
    /// the first time a script runs.
    pub runtime: OnceLock<Engine>,
}

/// An engine under fuda's limits, for compiling and running alike.
pub fn limited() -> Engine {
    let mut engine = Engine::new();
    engine.set_max_operations(MAX_OPERATIONS);
    engine.set_max_call_levels(MAX_CALL_LEVELS);
    engine.set_max_expr_depths(64, 32);
    engine.set_max_string_size(64 * 1024);
    engine.set_max_array_size(100_000);
    engine.set_max_map_size(10_000);
    engine
}

impl Default for Scripts {
    fn default() -> Scripts {
        Scripts {
            engine: limited(),
            lib: AST::empty(),
            fns: Vec::new(),
            lib_origins: Vec::new(),
            snippets: Vec::new(),
            runtime: OnceLock::new(),
        }
    }
}

impl Scripts {
    /// Compiles a rules script file; its functions become callable from card text.
    pub fn compile_file(&mut self, text: &str, file: u32) -> Result<(), CompileError> {
        let origin = Origin::identity(file);
        let ast = self
            .engine
            .compile(text)
            .map_err(|e| parse_error(text, &origin, e))?;
        for f in ast.iter_functions() {
            self.fns.push((f.name.to_string(), f.params.len()));
        }
        self.lib = self.lib.merge(&ast);
        self.lib_origins.push(origin);
        Ok(())
    }

    /// Compiles a card's Rhai snippet; it sees `card`, `me`, `event` and the rules' functions.
    pub fn compile_snippet(
        &mut self,
        text: &str,
        origin: Origin,
        _params: &[&str],
    ) -> Result<u32, CompileError> {
        let ast = self
            .engine
            .compile(text)
            .map_err(|e| parse_error(text, &origin, e))?;
        let ast = self.lib.clone_functions_only().merge(&ast);
        self.snippets.push((ast, origin));
        Ok((self.snippets.len() - 1) as u32)
    }
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
