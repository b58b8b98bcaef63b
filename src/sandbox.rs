//! The Rhai sandbox: mods are untrusted, so scripts get a raw engine with only
//! the packages card abilities need (numbers, strings, lists, maps, ranges,
//! function pointers). Nothing reaches the clock (`sleep`, `timestamp`), the
//! terminal (`print`, `debug`), the disk (`import`) or hides code from the
//! load-time check (`eval`). A call to a function the sandbox lacks is an error
//! at load, at its line and column, not a surprise in the middle of a game.

use std::collections::HashSet;

use rhai::packages::{
    ArithmeticPackage, BasicArrayPackage, BasicFnPackage, BasicIteratorPackage, BasicMapPackage,
    BasicMathPackage, BasicStringPackage, BitFieldPackage, LogicPackage, MoreStringPackage,
    Package,
};
use rhai::{AST, ASTNode, Engine, Expr, Position, Stmt, def_package};

use crate::limits::{
    MAX_SCRIPT_ARRAY, MAX_SCRIPT_CALL_LEVELS, MAX_SCRIPT_EXPR_DEPTH, MAX_SCRIPT_FN_EXPR_DEPTH,
    MAX_SCRIPT_MAP, MAX_SCRIPT_OPERATIONS, MAX_SCRIPT_STRING,
};

def_package! {
    /// What card scripts may use of Rhai's standard library: everything pure.
    CardPackage(_lib):
        ArithmeticPackage,
        LogicPackage,
        BitFieldPackage,
        BasicMathPackage,
        BasicStringPackage,
        MoreStringPackage,
        BasicIteratorPackage,
        BasicArrayPackage,
        BasicMapPackage,
        BasicFnPackage
    {}
}

/// Keywords refused at load: output that would mix with a transcript, files
/// read from anywhere, and code the load-time check cannot see.
const REFUSED: &[&str] = &["print", "debug", "import", "export", "eval"];

/// Function-like keywords the engine itself answers.
const KEYWORD_FNS: &[&str] = &[
    "type_of",
    "Fn",
    "call",
    "curry",
    "is_shared",
    "is_def_var",
    "is_def_fn",
];

/// A Rhai engine with the card package, the refused keywords and the limits.
pub fn engine() -> Engine {
    let mut engine = Engine::new_raw();
    engine.register_global_module(CardPackage::new().as_shared_module());
    for kw in REFUSED {
        engine.disable_symbol(*kw);
    }
    engine.set_max_operations(MAX_SCRIPT_OPERATIONS);
    engine.set_max_call_levels(MAX_SCRIPT_CALL_LEVELS);
    engine.set_max_expr_depths(MAX_SCRIPT_EXPR_DEPTH, MAX_SCRIPT_FN_EXPR_DEPTH);
    engine.set_max_string_size(MAX_SCRIPT_STRING);
    engine.set_max_array_size(MAX_SCRIPT_ARRAY);
    engine.set_max_map_size(MAX_SCRIPT_MAP);
    engine
}

/// The names of every function registered in `engine`, with the keywords.
pub fn known_functions(engine: &Engine) -> HashSet<String> {
    let mut known: HashSet<String> = engine
        .collect_fn_metadata(None, |f| Some(f.metadata.name.to_string()), true)
        .into_iter()
        .collect();
    known.extend(KEYWORD_FNS.iter().map(|s| s.to_string()));
    known
}

/// Calls in `ast` to functions neither registered (`known`) nor defined in the
/// script, each with its position.
pub fn unknown_calls(ast: &AST, known: &HashSet<String>) -> Vec<(String, Position)> {
    let own: HashSet<&str> = ast.iter_functions().map(|f| f.name).collect();
    let mut out = Vec::new();
    ast.walk(&mut |path: &[ASTNode]| {
        let call = match path.last() {
            Some(ASTNode::Expr(Expr::FnCall(f, pos) | Expr::MethodCall(f, pos))) => Some((f, pos)),
            Some(ASTNode::Stmt(Stmt::FnCall(f, pos))) => Some((f, pos)),
            _ => None,
        };
        if let Some((f, pos)) = call {
            let name = f.name.as_str();
            let plain =
                f.op_token.is_none() && name.starts_with(|c: char| c.is_alphabetic() || c == '_');
            if plain && !known.contains(name) && !own.contains(name) {
                out.push((name.to_string(), *pos));
            }
        }
        true
    });
    out
}
