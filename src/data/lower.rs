//! A card's Rhai snippet that only does what card text can say the same way,
//! written as card text at load: it then runs as card text does (both tiers,
//! compiled to closures) instead of through Rhai, whose every call into the
//! kernel costs more than the kernel's work (`benches/rhai_vs_text.sh`).
//!
//! Lowering is all or nothing, and refuses whatever could mean something else
//! in card text: a snippet with any other construct runs in Rhai as written.
//! What is lowered: `let`, `if`/`else`, `while`, `for x in …`, `return`,
//! assignments (`=` to a local or a field, `+=`/`-=` of a whole number to a
//! field), calls of kernel functions and rules verbs, field reads, `==` and
//! `!=`, ordering against a number, `&&`, `||`, `!`, `type_of(x) == "()"`,
//! numbers, strings, `()` and lists. Conditions must be comparisons, tests
//! (`contains`, `empty`, `may`, `has_tag`) or `&&`, `||`, `!` of them: card
//! text reads any value as a truth, where Rhai stops at one that is not.
//!
//! Each token written keeps the file position of the Rhai token it comes
//! from (an [`Origin`] entry per token), so a run-time error of the lowered
//! code points where the snippet says it.

use std::collections::HashSet;

use rhai::{AST, Expr, FnCallExpr, Position, Stmt, Token};

use crate::data::locate::offset_of;
use crate::lang::builtins::Builtin;
use crate::lang::compile::Origin;
use crate::lang::names::Names;

/// A snippet written as card text, with where each of its tokens came from.
pub struct Lowered {
    pub text: String,
    pub origin: Origin,
}

/// Builtins whose value is always a truth.
const TESTS: [Builtin; 4] = [
    Builtin::Contains,
    Builtin::Empty,
    Builtin::May,
    Builtin::HasTag,
];

/// `ast` (the snippet `text`, placed by `origin`; functions its own
/// ones and the rules' scripts') as card text, or `None` where any of it
/// could mean something else there. `sandbox` holds the functions Rhai's
/// packages give: a call of such a name may not reach the kernel.
pub fn lower(
    ast: &AST,
    text: &str,
    origin: &Origin,
    names: &Names,
    sandbox: &HashSet<String>,
) -> Option<Lowered> {
    // A function of the rules' scripts named like one of Rhai's would take
    // its calls.
    if names.script("type_of").is_some() {
        return None;
    }
    let mut w = Writer {
        text,
        origin,
        names,
        sandbox,
        out: String::new(),
        map: Vec::new(),
        declared: HashSet::new(),
        visible: Vec::new(),
    };
    w.block(ast.statements(), true)?;
    Some(Lowered {
        text: w.out,
        origin: Origin {
            file: origin.file,
            lines: w.map,
        },
    })
}

struct Writer<'a> {
    text: &'a str,
    origin: &'a Origin,
    names: &'a Names,
    sandbox: &'a HashSet<String>,
    out: String,
    /// (offset in `out`, offset in the file) at each token placed.
    map: Vec<(u32, u32)>,
    /// Every local declared (`let`, `for`): each name once in a snippet, so
    /// that no name means two locals.
    declared: HashSet<String>,
    /// The locals in sight, innermost last: a block's own go when it ends
    /// (Rhai forgets them there; card text is not asked to).
    visible: Vec<String>,
}

impl Writer<'_> {
    /// Writes `s`, placed at the Rhai position `pos`.
    fn at(&mut self, pos: Position, s: &str) {
        if let (Some(line), col) = (pos.line(), pos.position()) {
            // Rhai counts a column in characters.
            let start = offset_of(self.text, line, 1);
            let rest = &self.text[start..];
            let col = col.unwrap_or(1).saturating_sub(1);
            let off = start + rest.char_indices().nth(col).map_or(rest.len(), |(i, _)| i);
            self.map.push((self.out.len() as u32, self.origin.map(off)));
        }
        self.out.push_str(s);
    }

    fn put(&mut self, s: &str) {
        self.out.push_str(s);
    }

    /// Statements, one a line; with `tail`, the last one's value is the
    /// block's, as a Rhai block's is.
    fn block(&mut self, stmts: &[Stmt], tail: bool) -> Option<()> {
        let real: Vec<&Stmt> = stmts
            .iter()
            .filter(|s| !matches!(s, Stmt::Noop(_)))
            .collect();
        let outer = self.visible.len();
        for (i, s) in real.iter().enumerate() {
            self.stmt(s, tail && i + 1 == real.len())?;
            self.put("\n");
        }
        self.visible.truncate(outer);
        Some(())
    }

    fn sees(&self, name: &str) -> bool {
        self.visible.iter().any(|v| v == name)
    }

    fn stmt(&mut self, s: &Stmt, tail: bool) -> Option<()> {
        match s {
            Stmt::Var(v, _, pos) => {
                let (ident, value, _) = &**v;
                self.at(*pos, "let ");
                self.at(ident.pos, &ident.name);
                self.put(" = ");
                self.expr(value)?;
                // In sight after its value, as in Rhai.
                self.declare(&ident.name)
            }
            Stmt::Assignment(a) => {
                let (op, bin) = &**a;
                // A counter is a number in Rhai and card text alike (a
                // property may be nothing, which card text reads as 0; a
                // local's `+=` could join strings).
                let counter = match &bin.lhs {
                    Expr::Dot(d, ..) => matches!(&d.rhs, Expr::Property(p, _)
                        if self.names.counters.iter().any(|c| c == p.2.as_str())),
                    _ => false,
                };
                let sign = match op.get_op_assignment_info() {
                    None => " = ",
                    Some((.., Token::Plus, _)) if counter && number(&bin.rhs) => " += ",
                    Some((.., Token::Minus, _)) if counter && number(&bin.rhs) => " -= ",
                    Some(_) => return None,
                };
                match &bin.lhs {
                    Expr::Variable(v, _, pos) if self.sees(v.1.as_str()) => {
                        if !v.2.is_empty() {
                            return None;
                        }
                        self.at(*pos, &v.1);
                    }
                    Expr::Dot(..) => self.expr(&bin.lhs)?,
                    _ => return None,
                }
                self.put(sign);
                self.expr(&bin.rhs)
            }
            Stmt::FnCall(call, pos) => self.value(tail, |w| w.call(call, *pos)),
            Stmt::Expr(e) => self.value(tail, |w| w.expr(e)),
            Stmt::If(flow, pos) => {
                self.at(*pos, "if ");
                self.truth(&flow.expr)?;
                self.put(" {\n");
                self.block(flow.body.statements(), tail)?;
                self.put("}");
                if !flow.branch.statements().is_empty() {
                    self.put(" else {\n");
                    self.block(flow.branch.statements(), tail)?;
                    self.put("}");
                }
                Some(())
            }
            Stmt::While(flow, pos) => {
                // `loop` is a `while` with no condition.
                if matches!(flow.expr, Expr::Unit(_)) || !flow.branch.statements().is_empty() {
                    return None;
                }
                self.at(*pos, "while ");
                self.truth(&flow.expr)?;
                self.put(" {\n");
                self.block(flow.body.statements(), false)?;
                self.put("}");
                Some(())
            }
            Stmt::For(f, pos) => {
                let (var, counter, flow) = &**f;
                if counter.is_some() || !flow.branch.statements().is_empty() {
                    return None;
                }
                self.at(*pos, "for ");
                self.at(var.pos, &var.name);
                self.put(" in ");
                self.list(&flow.expr)?;
                self.put(" {\n");
                // The loop's variable is its body's.
                let outer = self.visible.len();
                self.declare(&var.name)?;
                self.block(flow.body.statements(), false)?;
                self.visible.truncate(outer);
                self.put("}");
                Some(())
            }
            Stmt::Return(value, flags, pos) if flags.is_empty() => {
                self.at(*pos, "return");
                if let Some(e) = value {
                    self.put(" ");
                    self.expr(e)?;
                }
                Some(())
            }
            _ => None,
        }
    }

    /// An expression statement; the last of the snippet gives its value.
    fn value(&mut self, tail: bool, f: impl FnOnce(&mut Self) -> Option<()>) -> Option<()> {
        if tail {
            self.put("return ");
        }
        f(self)
    }

    /// A local's name, declared once and hiding nothing card text names.
    fn declare(&mut self, name: &str) -> Option<()> {
        let n = self.names;
        let taken = [
            "card", "me", "event", "target", "this", "it", "none", "active",
        ]
        .contains(&name)
            || Builtin::lookup(name).is_some()
            || n.verb(name).is_some()
            || n.script(name).is_some()
            || [
                &n.zones,
                &n.counters,
                &n.globals,
                &n.props,
                &n.tags,
                &n.events,
            ]
            .iter()
            .any(|t| t.iter().any(|s| s == name))
            || n.params.iter().any(|(s, _)| s == name);
        if taken || !self.declared.insert(name.to_string()) {
            return None;
        }
        self.visible.push(name.to_string());
        Some(())
    }

    fn expr(&mut self, e: &Expr) -> Option<()> {
        match e {
            Expr::IntegerConstant(i, pos) if *i >= 0 => self.at(*pos, &i.to_string()),
            Expr::StringConstant(s, pos) if !s.contains(['"', '\n', '\r']) => {
                self.at(*pos, &format!("\"{s}\""))
            }
            Expr::Unit(pos) => self.at(*pos, "none"),
            Expr::Variable(v, _, pos) => {
                if !v.2.is_empty() {
                    return None;
                }
                let name = v.1.as_str();
                let said = match name {
                    "card" => "this",
                    "me" | "event" => name,
                    _ if self.sees(name) => name,
                    _ => return None,
                };
                self.at(*pos, said);
            }
            Expr::Dot(bin, _, _) => {
                let Expr::Property(p, pos) = &bin.rhs else {
                    return None;
                };
                let name = p.2.as_str();
                // A getter Rhai gives a number, a string or a list (or any
                // value) would read something else where the value is not a
                // kernel one.
                if RHAI_GETTERS.contains(&name) {
                    return None;
                }
                self.put("(");
                self.expr(&bin.lhs)?;
                self.put(")");
                self.at(*pos, &format!(".{name}"));
            }
            Expr::FnCall(call, pos) => self.call(call, *pos)?,
            Expr::And(..) | Expr::Or(..) => self.truth(e)?,
            Expr::Array(items, pos) => {
                self.at(*pos, "[");
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        self.put(", ");
                    }
                    self.expr(item)?;
                }
                self.put("]");
            }
            _ => return None,
        }
        Some(())
    }

    /// A call: an operator (comparisons and `!` only) or a kernel function.
    fn call(&mut self, call: &FnCallExpr, pos: Position) -> Option<()> {
        if !call.namespace.is_empty() || call.capture_parent_scope {
            return None;
        }
        let name = call.name.as_str();
        let args = &call.args[..];
        if call.op_token.is_some() || !name.starts_with(|c: char| c.is_alphabetic() || c == '_') {
            return self.operator(name, args, pos);
        }
        // A name that is two things may be one in Rhai and the other in
        // card text (a builtin or a verb, a verb or a script function).
        let n = self.names;
        let twice = [
            Builtin::lookup(name).is_some(),
            n.verb(name).is_some(),
            n.script(name).is_some(),
        ]
        .iter()
        .filter(|b| **b)
        .count()
            > 1;
        if twice || n.script(name).is_some() {
            return None;
        }
        let kernel = match Builtin::lookup(name) {
            Some(Builtin::Sum | Builtin::Any) => false,
            // Rhai's `contains` of a list and a kernel value is the kernel's
            // test (`engine/script.rs`), of a list and a number or string the
            // same truth; of a string, a test of its text.
            Some(Builtin::Contains) => match args.first() {
                Some(Expr::FnCall(c, _)) => makes(c, &LISTS),
                Some(Expr::Array(..)) => true,
                _ => false,
            },
            Some(_) => !self.sandbox.contains(name),
            None => n.verb(name).is_some() && !self.sandbox.contains(name),
        };
        if !kernel {
            return None;
        }
        self.at(pos, name);
        self.put("(");
        for (i, a) in args.iter().enumerate() {
            if i > 0 {
                self.put(", ");
            }
            self.expr(a)?;
        }
        self.put(")");
        Some(())
    }

    fn operator(&mut self, name: &str, args: &[Expr], pos: Position) -> Option<()> {
        let (a, b) = match (name, args) {
            ("==" | "!=", [a, b]) => {
                // `type_of(x) == "()"`: whether x is nothing.
                let none = |e: &Expr| matches!(e, Expr::StringConstant(s, _) if s == "()");
                fn type_of(e: &Expr) -> Option<&Expr> {
                    match e {
                        Expr::FnCall(c, _) if c.name == "type_of" && c.args.len() == 1 => {
                            Some(&c.args[0])
                        }
                        _ => None,
                    }
                }
                match (type_of(a), type_of(b)) {
                    (Some(x), None) if none(b) => (x, &Expr::Unit(b.position())),
                    (None, Some(x)) if none(a) => (&Expr::Unit(a.position()), x),
                    (None, None) => (a, b),
                    _ => return None,
                }
            }
            // Numbers only: card text reads nothing as 0, where Rhai
            // stops at ordering it.
            ("<" | "<=" | ">" | ">=", [a, b]) if number(a) && number(b) => (a, b),
            ("!", [a]) => {
                self.at(pos, "not (");
                self.truth(a)?;
                self.put(")");
                return Some(());
            }
            _ => return None,
        };
        self.put("(");
        self.expr(a)?;
        self.at(pos, &format!(" {name} "));
        self.expr(b)?;
        self.put(")");
        Some(())
    }

    /// An expression Rhai would take as a condition: always a truth.
    fn truth(&mut self, e: &Expr) -> Option<()> {
        match e {
            Expr::And(list, _) | Expr::Or(list, _) => {
                let word = if matches!(e, Expr::And(..)) {
                    " and "
                } else {
                    " or "
                };
                self.put("(");
                for (i, x) in list.iter().enumerate() {
                    if i > 0 {
                        self.put(word);
                    }
                    self.truth(x)?;
                }
                self.put(")");
                Some(())
            }
            Expr::FnCall(c, pos) => {
                let test = makes(c, &TESTS);
                let compares = c.op_token.is_some()
                    && matches!(c.name.as_str(), "==" | "!=" | "<" | "<=" | ">" | ">=" | "!");
                if !(test || compares) {
                    return None;
                }
                self.call(c, *pos)
            }
            _ => None,
        }
    }

    /// What `for` walks: a list a kernel function always makes (Rhai walks
    /// a list, a range or a string's characters; card text a list or a
    /// zone's cards).
    fn list(&mut self, e: &Expr) -> Option<()> {
        match e {
            Expr::FnCall(c, pos) if makes(c, &LISTS) => self.call(c, *pos),
            Expr::Array(..) => self.expr(e),
            _ => None,
        }
    }
}

/// The getters of Rhai's packages on the values lowered code can hold
/// (numbers, strings, lists; `tag` of any value). Function pointers', ranges'
/// and decimals' are out of its reach.
const RHAI_GETTERS: [&str; 9] = [
    "is_even", "is_odd", "is_zero", "bits", "bytes", "chars", "is_empty", "len", "tag",
];

/// Builtins whose value is always a list.
const LISTS: [Builtin; 12] = [
    Builtin::Choose,
    Builtin::Order,
    Builtin::Reveal,
    Builtin::Look,
    Builtin::Players,
    Builtin::Others,
    Builtin::Attached,
    Builtin::Defs,
    Builtin::Listed,
    Builtin::RandomPick,
    Builtin::Piles,
    Builtin::Squares,
];

/// Builtins whose value is always a number.
const NUMBERS: [Builtin; 6] = [
    Builtin::Count,
    Builtin::PileCount,
    Builtin::EmptyPiles,
    Builtin::Random,
    Builtin::Min,
    Builtin::Max,
];

/// A call of one of `these` builtins, as a function (not a method).
fn makes(c: &FnCallExpr, these: &[Builtin]) -> bool {
    c.op_token.is_none() && Builtin::lookup(c.name.as_str()).is_some_and(|b| these.contains(&b))
}

/// Always a number: one written, or one a kernel function always gives.
fn number(e: &Expr) -> bool {
    match e {
        Expr::IntegerConstant(i, _) => *i >= 0,
        Expr::FnCall(c, _) => makes(c, &NUMBERS),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::compile::Origin;
    use crate::lang::descent_tests::differ;
    use crate::lang::grammar::Rule;

    /// `text` lowered with no names of a game's (builtins only).
    fn lowered(text: &str) -> Option<String> {
        let engine = crate::sandbox::engine();
        let sandbox = crate::sandbox::known_functions(&engine);
        let ast = engine.compile(text).expect("Rhai compiles it");
        let names = Names::default();
        lower(&ast, text, &Origin::identity(0), &names, &sandbox).map(|l| l.text)
    }

    /// What the lowering writes is card text both parsers read alike (the
    /// fast one is proven against pest on the shipped data, not on this).
    #[test]
    fn lowered_text_parses_alike_in_both_parsers() {
        let snippets = [
            "let c = top(zone(\"hand\"));\nif type_of(c) != \"()\" && contains(defs(\"x\"), c) {\n  move(c, zone(\"deck\"));\n} else { shuffle(zone(\"deck\")); }",
            "while count(zone(\"hand\")) < 7 && !empty(zone(\"deck\")) || count(zone(\"hand\")) == 0 { me.actions = 1; }",
            "for p in players() { if p == me { return p; } }\n[count(zone(\"hand\")), \"a b\", ()]",
            "let x = card.cost;\nx = event.amount;\nif may(\"?\") { x } else { card }",
        ];
        for s in snippets {
            let text = lowered(s).unwrap_or_else(|| panic!("not lowered: {s}"));
            assert_eq!(differ(&text, Rule::program), None, "{s}\n=> {text}");
        }
        let text = lowered(snippets[0]).unwrap();
        assert_eq!(
            text,
            "let c = top(zone(\"hand\"))\nif ((c != none) and contains(defs(\"x\"), c)) {\nreturn move(c, zone(\"deck\"))\n} else {\nreturn shuffle(zone(\"deck\"))\n}\n"
        );
    }
}
