//! Parses effect code (fast, or by pest where that fails) and resolves every
//! name against the game's tables, producing [`Code`]. Runs once per piece of
//! code, at load time.

use std::sync::Arc;

use crate::lang::builtins::Builtin;
use crate::lang::descent;
use crate::lang::grammar::Rule;
use crate::lang::ir::*;
use crate::lang::kind::{Kind, kind};
use crate::lang::names::{Names, find};
use crate::lang::syntax::{Children, Node, Tree};
use crate::suggest::{did_you_mean, suggest, suggest_kinds};

/// A compile error with a position in the file the code came from.
#[derive(Debug, Clone)]
pub struct CompileError {
    pub message: String,
    pub start: u32,
    pub end: u32,
    pub help: Option<String>,
}

/// Maps offsets inside a code string to offsets in its file, line by line (code
/// in YAML block scalars is indented, so each line has its own shift).
#[derive(Debug, Clone, Default)]
pub struct Origin {
    pub file: u32,
    /// (offset of a line in the code, offset of the same line in the file)
    pub lines: Vec<(u32, u32)>,
}

impl Origin {
    pub fn identity(file: u32) -> Origin {
        Origin {
            file,
            lines: vec![(0, 0)],
        }
    }
    pub fn map(&self, off: usize) -> u32 {
        let off = off as u32;
        let i = self.lines.partition_point(|(c, _)| *c <= off);
        match i.checked_sub(1).and_then(|i| self.lines.get(i)) {
            Some((c, f)) => f + (off - c),
            None => off,
        }
    }
}

/// What the code may refer to besides the game's tables.
#[derive(Debug, Clone, Default)]
pub struct Context {
    /// Parameter names, bound to the first slots.
    pub params: Vec<String>,
}

pub fn compile_code(
    text: &str,
    names: &Names,
    origin: &Origin,
    ctx: &Context,
) -> Result<Code, CompileError> {
    let mut c = Compiler::new(names, origin, ctx);
    let tree = parse(text, Rule::program, origin)?;
    let stmts_pair = tree
        .root()
        .into_inner()
        .find(|p| p.as_rule() == Rule::stmts);
    let stmts = match stmts_pair {
        Some(p) => c.stmts(p)?,
        None => Vec::new(),
    };
    Ok(Code {
        stmts,
        slots: c.max_slot,
        span: c.span_of_text(text),
        id: Code::UNNUMBERED,
    })
}

/// Compiles a single expression into code that returns its value.
pub fn compile_expr(
    text: &str,
    names: &Names,
    origin: &Origin,
    ctx: &Context,
) -> Result<Code, CompileError> {
    let mut c = Compiler::new(names, origin, ctx);
    let tree = parse(text, Rule::expr_only, origin)?;
    let e = tree
        .root()
        .into_inner()
        .find(|p| p.as_rule() == Rule::expr)
        .map(|p| c.expr(p))
        .transpose()?
        .unwrap_or(Expr::None);
    Ok(Code {
        stmts: vec![Stmt::Return(Some(e))],
        slots: c.max_slot,
        span: c.span_of_text(text),
        id: Code::UNNUMBERED,
    })
}

/// `text` parsed as `rule` (`program` or `expr_only`): by the fast parser,
/// or where it rejects the text by pest, which gives the syntax error.
fn parse<'i>(text: &'i str, rule: Rule, origin: &Origin) -> Result<Tree<'i>, CompileError> {
    if let Some(tree) = descent::parse(text, rule) {
        return Ok(tree);
    }
    Tree::by_pest(text, rule).map_err(|e| syntax_error(&e, text, origin))
}

fn syntax_error(e: &pest::error::Error<Rule>, text: &str, origin: &Origin) -> CompileError {
    let (start, end) = match e.location {
        pest::error::InputLocation::Pos(p) => (p, p),
        pest::error::InputLocation::Span((a, b)) => (a, b),
    };
    let message = match &e.variant {
        pest::error::ErrorVariant::ParsingError { positives, .. } => {
            let mut want: Vec<String> = positives.iter().filter_map(|r| describe(*r)).collect();
            want.sort();
            want.dedup();
            if want.is_empty() {
                "syntax error in card text".to_string()
            } else {
                format!("syntax error in card text: expected {}", want.join(", "))
            }
        }
        pest::error::ErrorVariant::CustomError { message } => message.clone(),
    };
    CompileError {
        message,
        start: origin.map(start),
        end: origin.map(end),
        help: second_where(text, start),
    }
}

/// A second `where` in one expression (`hand where A where B`) is an easy
/// slip: the grammar takes one, so say how to write both.
fn second_where(text: &str, at: usize) -> Option<String> {
    let rest = text.get(at..)?;
    let after = rest.strip_prefix("where")?;
    if after.starts_with(|c: char| c.is_alphanumeric() || c == '_') {
        return None;
    }
    Some(
        "one `where` per list: join the tests with `and` (`hand where A and B`), \
         or filter the filtered list in parentheses (`(hand where A) where B`)"
            .into(),
    )
}

fn describe(r: Rule) -> Option<String> {
    Some(
        match r {
            Rule::expr | Rule::operand => "an expression",
            Rule::ident => "a name",
            Rule::int => "a number",
            Rule::block => "`{`",
            Rule::cmp_op => "a comparison",
            Rule::arith_op => "an operator",
            Rule::assign_op => "`=`",
            Rule::EOI => "end of code",
            Rule::field => "`.field`",
            Rule::stmts | Rule::if_stmt | Rule::let_stmt | Rule::for_stmt => "a statement",
            _ => return None,
        }
        .to_string(),
    )
}

pub use crate::limits::MAX_NEST;

struct Compiler<'a> {
    /// Levels of nesting around the code being compiled.
    depth: usize,
    names: &'a Names,
    origin: &'a Origin,
    locals: Vec<(String, u16)>,
    next_slot: u16,
    max_slot: u16,
}

type R<T> = Result<T, CompileError>;

impl<'a> Compiler<'a> {
    fn new(names: &'a Names, origin: &'a Origin, ctx: &Context) -> Self {
        let mut c = Compiler {
            depth: 0,
            names,
            origin,
            locals: Vec::new(),
            next_slot: 0,
            max_slot: 0,
        };
        for p in &ctx.params {
            c.bind(p);
        }
        c
    }

    fn span_of_text(&self, text: &str) -> Span {
        Span {
            file: self.origin.file,
            start: self.origin.map(0),
            end: self.origin.map(text.len()),
        }
    }

    fn span(&self, p: &Node) -> Span {
        Span {
            file: self.origin.file,
            start: self.origin.map(p.start()),
            end: self.origin.map(p.end()),
        }
    }

    fn err(&self, p: &Node, message: impl Into<String>, help: Option<String>) -> CompileError {
        let s = self.span(p);
        CompileError {
            message: message.into(),
            start: s.start,
            end: s.end,
            help,
        }
    }

    fn bind(&mut self, name: &str) -> u16 {
        let slot = self.next_slot;
        self.next_slot += 1;
        self.max_slot = self.max_slot.max(self.next_slot);
        self.locals.push((name.to_string(), slot));
        slot
    }

    fn scope<T>(&mut self, f: impl FnOnce(&mut Self) -> R<T>) -> R<T> {
        let (n, s) = (self.locals.len(), self.next_slot);
        let r = f(self);
        self.locals.truncate(n);
        self.next_slot = s;
        r
    }

    fn local(&self, name: &str) -> Option<u16> {
        self.locals
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, s)| *s)
    }

    fn stmts(&mut self, p: Node) -> R<Vec<Stmt>> {
        p.into_inner().map(|s| self.stmt(s)).collect()
    }

    fn block(&mut self, p: Node) -> R<Vec<Stmt>> {
        self.scope(|c| match p.into_inner().next() {
            Some(s) => c.stmts(s),
            None => Ok(Vec::new()),
        })
    }

    /// Fails if `more` levels inside the current one nest too deep (the
    /// code from `start` to `end` is where).
    fn nest(&self, start: usize, end: usize, more: usize) -> R<()> {
        if self.depth + more > MAX_NEST {
            return Err(CompileError {
                message: format!("code nested more than {MAX_NEST} levels deep"),
                start: self.origin.map(start),
                end: self.origin.map(end),
                help: Some("split it with `let` or a verb".into()),
            });
        }
        Ok(())
    }

    /// Runs `f` one level deeper.
    fn deeper<T>(&mut self, p: &Node, f: impl FnOnce(&mut Self) -> R<T>) -> R<T> {
        self.deeper_at(p.start(), p.end(), f)
    }

    /// [`Self::deeper`] for the code from `start` to `end`.
    fn deeper_at<T>(
        &mut self,
        start: usize,
        end: usize,
        f: impl FnOnce(&mut Self) -> R<T>,
    ) -> R<T> {
        self.nest(start, end, 1)?;
        self.depth += 1;
        let r = f(self);
        self.depth -= 1;
        r
    }

    fn stmt(&mut self, p: Node) -> R<Stmt> {
        self.deeper(&p, |c| c.stmt_inner(p))
    }

    fn stmt_inner(&mut self, p: Node) -> R<Stmt> {
        match p.as_rule() {
            Rule::if_stmt => {
                let mut it = p.into_inner();
                let cond = self.expr(next(&mut it))?;
                let then = self.block(next(&mut it))?;
                let els = match it.next() {
                    Some(e) if e.as_rule() == Rule::block => self.block(e)?,
                    Some(e) => vec![self.stmt(e)?],
                    None => Vec::new(),
                };
                Ok(Stmt::If(cond, then, els))
            }
            Rule::while_stmt => {
                let mut it = p.into_inner();
                let cond = self.expr(next(&mut it))?;
                Ok(Stmt::While(cond, self.block(next(&mut it))?))
            }
            Rule::repeat_stmt => {
                let mut it = p.into_inner();
                let count = next(&mut it);
                let n = self.expr(count)?;
                if let Some(k) = const_int(&n).filter(|k| *k < 0) {
                    return Err(self.err(
                        &count,
                        format!("repeat {k} times: a count must be 0 or more"),
                        None,
                    ));
                }
                if let Some(k) = kind(&n).filter(|k| *k != Kind::Number) {
                    return Err(self.err(
                        &count,
                        format!("`repeat` takes a number of times; got {}", k.text()),
                        Some("`repeat n { … }` runs its block n times: give it a number, or a count like `count(hand)`".into()),
                    ));
                }
                Ok(Stmt::Repeat(n, self.block(next(&mut it))?))
            }
            Rule::for_stmt => {
                let mut it = p.into_inner();
                let name = next(&mut it).as_str().to_string();
                let list = self.expr(next(&mut it))?;
                let body = next(&mut it);
                self.scope(|c| {
                    let slot = c.bind(&name);
                    Ok(Stmt::For(slot, list, c.block(body)?))
                })
            }
            Rule::let_stmt => {
                let mut it = p.into_inner();
                let name = next(&mut it).as_str().to_string();
                let e = self.expr(next(&mut it))?;
                let slot = self.bind(&name);
                Ok(Stmt::Let(slot, e))
            }
            Rule::return_stmt => Ok(Stmt::Return(
                p.into_inner().next().map(|e| self.expr(e)).transpose()?,
            )),
            Rule::expr_stmt => {
                let span = self.span(&p);
                let mut it = p.into_inner();
                let left = next(&mut it);
                let Some(op) = it.next() else {
                    return Ok(Stmt::Expr(self.expr(left)?));
                };
                let place = self.place(left)?;
                let op = match op.as_str() {
                    "+=" => AssignOp::Add,
                    "-=" => AssignOp::Sub,
                    _ => AssignOp::Set,
                };
                Ok(Stmt::Assign(place, op, self.expr(next(&mut it))?, span))
            }
            r => Err(self.err(&p, format!("unexpected {r:?}"), None)),
        }
    }

    fn place(&mut self, p: Node) -> R<Place> {
        match self.expr(p)? {
            Expr::Local(s) => Ok(Place::Local(s)),
            Expr::Global(g) => Ok(Place::Global(g)),
            Expr::Field(base, f) => Ok(Place::Field(base, f)),
            _ => Err(self.err(
                &p,
                "cannot assign to this",
                Some("assign to a counter (`actions += 1`), a variable, or `event.amount`".into()),
            )),
        }
    }

    /// An `expr`: its children are operands and operators in order, grouped
    /// here by precedence (the grammar's silent levels). Each level counts one
    /// level of nesting, as it did when the grammar made a node per level.
    pub fn expr(&mut self, p: Node) -> R<Expr> {
        self.deeper(&p, |c| {
            let end = p.end();
            let mut it = p.into_inner().peekable();
            let list = c.level(&mut it, OR, end)?;
            if it.next().is_none() {
                return Ok(list);
            }
            // `list where cond`: `it` is each item of the list.
            c.scope(|c| {
                let slot = c.bind("it");
                let cond = c.level(&mut it, OR, end)?;
                Ok(Expr::Where(Box::new(list), slot, Box::new(cond)))
            })
        })
    }

    /// The operand of precedence level `lvl` starting at the next token: its
    /// operators of that level, operands of the level above. `end` is where
    /// the whole expression ends.
    fn level(&mut self, it: &mut Tokens, lvl: u8, end: usize) -> R<Expr> {
        let start = it.peek().map_or(end, |t| t.start());
        self.deeper_at(start, end, |c| match lvl {
            OR | AND | SUM | PROD => {
                // Each operator nests the tree one level (left to right).
                let ops = it.clone().map(|t| rank(&t));
                let ops = ops.take_while(|r| *r >= lvl).filter(|r| *r == lvl);
                c.nest(start, end, ops.count())?;
                let mut lhs = c.level(it, lvl + 1, end)?;
                while let Some(op) = it.next_if(|t| rank(t) == lvl) {
                    let span = c.span(&op);
                    let rhs = Box::new(c.level(it, lvl + 1, end)?);
                    let lhs_ = Box::new(lhs);
                    lhs = match op.as_str() {
                        _ if lvl == OR => Expr::Or(lhs_, rhs),
                        _ if lvl == AND => Expr::And(lhs_, rhs),
                        "+" => Expr::Bin(BinOp::Add, lhs_, rhs, span),
                        "-" => Expr::Bin(BinOp::Sub, lhs_, rhs, span),
                        "*" => Expr::Bin(BinOp::Mul, lhs_, rhs, span),
                        "/" => Expr::Bin(BinOp::Div, lhs_, rhs, span),
                        _ => Expr::Bin(BinOp::Rem, lhs_, rhs, span),
                    };
                }
                Ok(lhs)
            }
            NOT => {
                let mut nots = 0;
                while it.next_if(|t| t.as_rule() == Rule::kw_not).is_some() {
                    nots += 1;
                }
                let inner = it.peek().map_or(end, |t| t.start());
                c.nest(inner, end, nots)?;
                let mut e = c.level(it, CMP, end)?;
                for _ in 0..nots {
                    e = Expr::Not(Box::new(e));
                }
                Ok(e)
            }
            CMP => {
                let lhs = c.level(it, SUM, end)?;
                let Some(op) = it.next_if(|t| rank(t) == CMP) else {
                    return Ok(lhs);
                };
                if op.as_rule() == Rule::is_op {
                    let negate = op.into_inner().next().is_some();
                    let tag = it.next().expect("grammar: `is` names a tag");
                    let span = Span {
                        file: c.origin.file,
                        start: c.origin.map(start),
                        end: c.origin.map(tag.end()),
                    };
                    let id = find(&c.names.tags, tag.as_str()).ok_or_else(|| {
                        c.err(
                            &tag,
                            format!("unknown tag `{}`", tag.as_str()),
                            did_you_mean(suggest(
                                tag.as_str(),
                                c.names.tags.iter().map(|s| s.as_str()),
                            )),
                        )
                    })?;
                    return Ok(Expr::Is(Box::new(lhs), id, negate, span));
                }
                let span = c.span(&op);
                let bop = match op.as_str() {
                    "==" => BinOp::Eq,
                    "!=" => BinOp::Ne,
                    "<" => BinOp::Lt,
                    "<=" => BinOp::Le,
                    ">" => BinOp::Gt,
                    _ => BinOp::Ge,
                };
                let rhs = c.level(it, SUM, end)?;
                Ok(Expr::Bin(bop, Box::new(lhs), Box::new(rhs), span))
            }
            _ => c.operand(it.next().expect("grammar: an operand")),
        })
    }

    /// An operand: minus signs, a primary, fields.
    fn operand(&mut self, p: Node) -> R<Expr> {
        let mut it = p.into_inner().peekable();
        let mut negs = 0;
        while it.next_if(|t| t.as_rule() == Rule::neg).is_some() {
            negs += 1;
        }
        let first = it.peek().expect("grammar: an operand has a primary");
        let (start, end) = (first.start(), first.end());
        self.nest(start, end, negs)?;
        // The primary and each field (the old grammar's `postfix` node).
        self.nest(start, end, it.len())?;
        let mut e = self.primary(it.next().expect("grammar: an operand has a primary"))?;
        for f in it {
            let name = next(&mut f.into_inner());
            let field = self.field(&name, reads_player(&e))?;
            e = Expr::Field(Box::new(e), field);
        }
        for _ in 0..negs {
            e = match e {
                Expr::Int(i) => Expr::Int(i.saturating_neg()),
                e => Expr::Neg(Box::new(e)),
            };
        }
        Ok(e)
    }

    /// A field of a player (`me.x`: counters first) or of anything else (a
    /// card's properties first), so a suggestion is of the kind read.
    fn field(&self, p: &Node, player: bool) -> R<Field> {
        let n = p.as_str();
        let f = Field {
            name: 0,
            counter: find(&self.names.counters, n),
            prop: find(&self.names.props, n),
            special: Special::parse(n),
        };
        if f.counter.is_none() && f.prop.is_none() && f.special.is_none() {
            let counters = self.names.counters.iter().map(|s| s.as_str());
            let props = self.names.props.iter().map(|s| s.as_str());
            let (first, then): (Vec<&str>, Vec<&str>) = if player {
                (counters.collect(), props.collect())
            } else {
                (props.collect(), counters.collect())
            };
            let kinds = [first, Special::NAMES.to_vec(), then];
            return Err(self.err(
                p,
                format!("unknown field `{n}`"),
                did_you_mean(suggest_kinds(n, kinds)),
            ));
        }
        Ok(f)
    }

    fn primary(&mut self, p: Node) -> R<Expr> {
        match p.as_rule() {
            Rule::int => p
                .as_str()
                .parse()
                .map(Expr::Int)
                .map_err(|_| self.err(&p, "number too large", None)),
            Rule::string => Ok(Expr::Str(Arc::new(
                p.into_inner()
                    .next()
                    .map_or_else(String::new, |s| s.as_str().to_string()),
            ))),
            Rule::card_ref => {
                let id = next(&mut p.into_inner());
                let name = id.as_str();
                self.names.def(name).map(Expr::Def).ok_or_else(|| {
                    self.err(
                        &id,
                        format!("unknown card `{name}`"),
                        did_you_mean(suggest(name, self.names.defs.iter().map(|s| s.as_str()))),
                    )
                })
            }
            Rule::list => Ok(Expr::List(
                p.into_inner().map(|e| self.expr(e)).collect::<R<_>>()?,
            )),
            Rule::var => self.var(&next(&mut p.into_inner())),
            Rule::call => self.call(p),
            _ => self.expr(p),
        }
    }

    fn var(&self, p: &Node) -> R<Expr> {
        let n = p.as_str();
        if let Some(s) = self.local(n) {
            return Ok(Expr::Local(s));
        }
        let n_names = self.names;
        Ok(match n {
            "this" => Expr::This,
            "me" => Expr::Me,
            "active" => Expr::Active,
            "event" => Expr::Event,
            "move" => Expr::MoveName,
            "true" => Expr::Bool(true),
            "false" => Expr::Bool(false),
            "none" => Expr::None,
            _ => {
                if let Some(c) = find(&n_names.counters, n) {
                    Expr::Field(
                        Box::new(Expr::Me),
                        Field {
                            name: 0,
                            counter: Some(c),
                            prop: None,
                            special: None,
                        },
                    )
                } else if let Some(g) = find(&n_names.globals, n) {
                    Expr::Global(g)
                } else if let Some(z) = find(&n_names.zones, n) {
                    Expr::Zone(z, None)
                } else if let Some((_, v)) = n_names.params.iter().find(|(k, _)| k == n) {
                    // A parameter is fixed once the rules (and a mod) load.
                    Expr::Int(*v)
                } else {
                    let locals = self.locals.iter().map(|(n, _)| n.as_str());
                    let all = locals
                        .chain(n_names.counters.iter().map(|s| s.as_str()))
                        .chain(n_names.globals.iter().map(|s| s.as_str()))
                        .chain(n_names.zones.iter().map(|s| s.as_str()))
                        .chain(n_names.params.iter().map(|(s, _)| s.as_str()))
                        .chain(["this", "me", "active", "event", "true", "false", "none"]);
                    let help = did_you_mean(suggest(n, all)).or_else(|| {
                        Some(if n == "it" {
                            "`it` exists only inside `where`, `sum`, `any` and in moves".into()
                        } else {
                            format!("a variable must be declared first: `let {n} = …`")
                        })
                    });
                    return Err(self.err(p, format!("unknown name `{n}`"), help));
                }
            }
        })
    }

    fn call(&mut self, p: Node) -> R<Expr> {
        let span = self.span(&p);
        let mut it = p.into_inner();
        let name_p = next(&mut it);
        let name = name_p.as_str();
        let args: Vec<Node> = it.collect();
        let nargs = args.len();

        // A verb and a zone may share a name (`trash`): called, it is the verb.
        if let Some(z) = find(&self.names.zones, name).filter(|_| self.names.verb(name).is_none()) {
            if nargs != 1 {
                return Err(self.err(&p, format!("`{name}(player)` takes one player"), None));
            }
            let owner = self.expr(args[0])?;
            return Ok(Expr::Zone(z, Some(Box::new(owner))));
        }
        if let Some(b) = Builtin::lookup(name) {
            let (min, max) = b.arity();
            if nargs < min || nargs > max {
                return Err(self.err(
                    &p,
                    format!("`{name}` takes {}", arity_text(min, max)),
                    Some(b.usage()),
                ));
            }
            if matches!(b, Builtin::Sum | Builtin::Any) {
                let list = self.expr(args[0])?;
                return self.scope(|c| {
                    let slot = c.bind("it");
                    let body = Box::new(c.expr(args[1])?);
                    Ok(if b == Builtin::Sum {
                        Expr::Sum(Box::new(list), slot, body)
                    } else {
                        Expr::Any(Box::new(list), slot, body)
                    })
                });
            }
            let mut out = Vec::with_capacity(nargs);
            for (i, a) in args.into_iter().enumerate() {
                out.push(self.name_arg(b, i, a)?);
            }
            if b == Builtin::Choose
                && let Some(why) = bad_bounds(&out)
            {
                return Err(self.err(&p, why, Some(b.usage())));
            }
            return Ok(Expr::Call(b, out, span));
        }
        if let Some(v) = self.names.verb(name) {
            let want = self.names.verbs[v as usize].1.len();
            if nargs != want {
                return Err(self.err(
                    &p,
                    format!("verb `{name}` takes {}", arity_text(want, want)),
                    None,
                ));
            }
            let args = args.into_iter().map(|a| self.expr(a)).collect::<R<_>>()?;
            return Ok(Expr::Verb(v, args, span));
        }
        if let Some(s) = self.names.script(name) {
            let want = self.names.scripts[s as usize].1;
            if nargs != want {
                return Err(self.err(
                    &p,
                    format!("script function `{name}` takes {}", arity_text(want, want)),
                    None,
                ));
            }
            let args = args.into_iter().map(|a| self.expr(a)).collect::<R<_>>()?;
            return Ok(Expr::Script(s, args, span));
        }
        let all = Builtin::ALL
            .iter()
            .map(|b| b.name())
            .chain(self.names.verbs.iter().map(|(n, _)| n.as_str()))
            .chain(self.names.scripts.iter().map(|(n, _)| n.as_str()))
            .chain(self.names.zones.iter().map(|s| s.as_str()));
        Err(self.err(
            &name_p,
            format!("unknown function `{name}`"),
            did_you_mean(suggest(name, all)),
        ))
    }

    /// Arguments that name a table entry (an event, a tag, a property…) are
    /// checked and turned into indices here, so the run time never looks up names.
    fn name_arg(&mut self, b: Builtin, i: usize, a: Node) -> R<Expr> {
        let table = b.name_table(i).map(|t| (self.names.table(t), t.what()));
        let e = self.expr(a)?;
        let Some((table, what)) = table else {
            return Ok(e);
        };
        match e {
            Expr::Str(s) => match find(table, &s) {
                Some(id) => Ok(Expr::Int(id as i64)),
                None => Err(self.err(
                    &a,
                    format!("unknown {what} \"{s}\""),
                    did_you_mean(suggest(&s, table.iter().map(|s| s.as_str()))),
                )),
            },
            _ => Err(self.err(
                &a,
                format!("the {what} must be written as a string literal"),
                None,
            )),
        }
    }
}

/// The children of an `expr`: operands and operators in order.
type Tokens<'t> = std::iter::Peekable<Children<'t>>;

/// Precedence levels, lowest first; an operand is the level above `PROD`.
const OR: u8 = 1;
const AND: u8 = 2;
const NOT: u8 = 3;
const CMP: u8 = 4;
const SUM: u8 = 5;
const PROD: u8 = 6;

/// The level of an operator among an `expr`'s children (`where` below all);
/// an operand or what belongs to one ranks above all.
fn rank(t: &Node) -> u8 {
    match t.as_rule() {
        Rule::kw_where => 0,
        Rule::kw_logic if t.as_str() == "or" => OR,
        Rule::kw_logic => AND,
        Rule::cmp_op | Rule::is_op => CMP,
        Rule::arith_op if matches!(t.as_str(), "+" | "-") => SUM,
        Rule::arith_op => PROD,
        _ => u8::MAX,
    }
}

fn next<'t>(it: &mut Children<'t>) -> Node<'t> {
    it.next().expect("grammar guarantees this child")
}

fn arity_text(min: usize, max: usize) -> String {
    let n = |k: usize| {
        if k == 1 {
            "1 argument".to_string()
        } else {
            format!("{k} arguments")
        }
    };
    if min == max {
        n(min)
    } else {
        format!("{min} to {}", n(max))
    }
}

/// Whether an expression reads a player (its fields are counters).
fn reads_player(e: &Expr) -> bool {
    matches!(
        e,
        Expr::Me
            | Expr::Active
            | Expr::Field(
                _,
                Field {
                    special: Some(Special::Owner | Special::Player),
                    ..
                }
            )
    )
}

/// A number written in the code (`3`, `-3`).
fn const_int(e: &Expr) -> Option<i64> {
    match e {
        Expr::Int(k) => Some(*k),
        Expr::Neg(e) => const_int(e).map(|k| -k),
        _ => None,
    }
}

/// What is wrong with `choose`'s bounds when both are written as numbers
/// (`choose(list, 3, 1)`); bounds known only at run time are checked there.
fn bad_bounds(args: &[Expr]) -> Option<String> {
    // (list, min, max, …) or (player, list, min, max, …).
    let (min, max) = (1..args.len().saturating_sub(1))
        .find_map(|i| Some((const_int(&args[i])?, const_int(&args[i + 1])?)))?;
    if min < 0 {
        Some(format!("choose: the minimum {min} must be 0 or more"))
    } else if min > max {
        Some(format!(
            "choose: the minimum {min} is more than the maximum {max}"
        ))
    } else {
        None
    }
}
