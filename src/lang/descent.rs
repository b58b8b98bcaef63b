//! A hand-written parser of `grammar/effect.pest`, for speed: the same
//! parsing expression grammar tried in the same order, with pest's implicit
//! whitespace and comments between the parts of every sequence and
//! repetition of a non-atomic rule, so it builds pest's tree node for node.
//! pest ties every rule call to error tracking and a stack guard; this
//! tracks nothing, and a text it rejects (or one nested past [`DEEPEST`])
//! goes to pest, which gives the error. `descent_tests` proves it equal to
//! pest on the shipped games' code and on mutated texts.
//!
//! Every function either matches and moves on, or fails and leaves the
//! position and the nodes as they were.

use crate::lang::grammar::Rule;
use crate::lang::syntax::{Slot, Tree};

/// `text` parsed as `top` (`program` or `expr_only`), or `None` where pest
/// must decide.
pub(crate) fn parse(text: &str, top: Rule) -> Option<Tree<'_>> {
    let mut p = Descent {
        s: text.as_bytes(),
        pos: 0,
        slots: Vec::with_capacity(text.len() / 2),
        depth: 0,
        deep: false,
    };
    let ok = match top {
        Rule::program => p.rule(Rule::program, |p| p.head() && p.stmts() && p.tail()),
        Rule::expr_only => p.rule(Rule::expr_only, |p| p.head() && p.expr() && p.tail()),
        _ => false,
    };
    (ok && !p.deep).then_some(Tree {
        text,
        slots: p.slots,
    })
}

/// Expressions, blocks and `if`s nested in each other before a text goes to
/// pest: a bound on this parser's stack, far past card text's needs (the
/// compiler counts each expression's levels of precedence against
/// `MAX_NEST`, so it allows about 30 nested expressions).
const DEEPEST: usize = 64;

struct Descent<'i> {
    s: &'i [u8],
    pos: usize,
    slots: Vec<Slot>,
    /// Expressions, blocks and `if`s open around the position.
    depth: usize,
    /// Set when the text nests deeper than [`DEEPEST`]: pest decides.
    deep: bool,
}

fn ident_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

const KEYWORDS: [&[u8]; 13] = [
    b"if", b"else", b"repeat", b"while", b"for", b"in", b"let", b"return", b"and", b"or", b"not",
    b"where", b"is",
];

impl Descent<'_> {
    fn peek(&self) -> u8 {
        self.s.get(self.pos).copied().unwrap_or(0)
    }

    fn at(&self, i: usize) -> u8 {
        self.s.get(self.pos + i).copied().unwrap_or(0)
    }

    fn lit(&mut self, l: &[u8]) -> bool {
        let ok = self.s[self.pos..].starts_with(l);
        if ok {
            self.pos += l.len();
        }
        ok
    }

    /// Runs `f`; where it fails, undoes what it did.
    fn seq(&mut self, f: impl FnOnce(&mut Self) -> bool) -> bool {
        let (pos, n) = (self.pos, self.slots.len());
        let ok = f(self);
        if !ok {
            self.pos = pos;
            self.slots.truncate(n);
        }
        ok
    }

    /// `f` as the body of the node-making rule `rule`.
    fn rule(&mut self, rule: Rule, f: impl FnOnce(&mut Self) -> bool) -> bool {
        let (start, n) = (self.pos, self.slots.len());
        self.slots.push(Slot {
            rule,
            start: start as u32,
            end: 0,
            after: 0,
        });
        if f(self) {
            let after = self.slots.len() as u32;
            let s = &mut self.slots[n];
            s.end = self.pos as u32;
            s.after = after;
            true
        } else {
            self.pos = start;
            self.slots.truncate(n);
            false
        }
    }

    /// pest's `e*` in a non-atomic rule: `(e ~ (S ~ e)*)?`.
    fn rep(&mut self, mut e: impl FnMut(&mut Self) -> bool) {
        if e(self) {
            while self.seq(|p| {
                p.skip();
                e(p)
            }) {}
        }
    }

    /// Counts a level of nesting; past [`DEEPEST`] the text goes to pest.
    fn nested(&mut self, f: impl FnOnce(&mut Self) -> bool) -> bool {
        if self.deep || self.depth >= DEEPEST {
            self.deep = true;
            return false;
        }
        self.depth += 1;
        let ok = f(self);
        self.depth -= 1;
        ok
    }

    /// NEWLINE: `"\n" | "\r\n" | "\r"`.
    fn newline(&mut self) -> bool {
        match self.peek() {
            b'\n' => self.pos += 1,
            b'\r' if self.at(1) == b'\n' => self.pos += 2,
            b'\r' => self.pos += 1,
            _ => return false,
        }
        true
    }

    /// pest's implicit skip: `(WHITESPACE | COMMENT)*`.
    fn skip(&mut self) {
        loop {
            match self.peek() {
                b' ' | b'\t' => self.pos += 1,
                b'\\' if matches!(self.at(1), b'\n' | b'\r') => {
                    self.pos += 1;
                    self.newline();
                }
                b'#' if self.pos < self.s.len() => {
                    let rest = &self.s[self.pos..];
                    let n = rest.iter().position(|b| matches!(b, b'\n' | b'\r'));
                    self.pos += n.unwrap_or(rest.len());
                }
                _ => return,
            }
        }
    }

    /// `sep = _{ (";" | NEWLINE)+ }`, which pest unrolls to `x ~ x*`.
    fn sep(&mut self) -> bool {
        fn one(p: &mut Descent) -> bool {
            p.lit(b";") || p.newline()
        }
        if !one(self) {
            return false;
        }
        self.skip();
        self.rep(one);
        true
    }

    /// `SOI ~ sep? ~` before the top rule's body.
    fn head(&mut self) -> bool {
        self.skip();
        self.sep();
        self.skip();
        true
    }

    /// `~ sep? ~ EOI` after it.
    fn tail(&mut self) -> bool {
        self.skip();
        self.sep();
        self.skip();
        self.pos == self.s.len() && self.rule(Rule::EOI, |_| true)
    }

    /// `stmts = { (stmt ~ (sep ~ stmt)*)? }`
    fn stmts(&mut self) -> bool {
        self.rule(Rule::stmts, |p| {
            p.seq(|p| {
                if !p.stmt() {
                    return false;
                }
                p.skip();
                p.rep(|p| {
                    p.seq(|p| {
                        p.sep() && {
                            p.skip();
                            p.stmt()
                        }
                    })
                });
                true
            });
            true
        })
    }

    /// `block = { "{" ~ sep? ~ stmts ~ sep? ~ "}" }`
    fn block(&mut self) -> bool {
        if self.peek() != b'{' {
            return false;
        }
        self.nested(|p| {
            p.rule(Rule::block, |p| {
                p.lit(b"{") && p.head() && p.stmts() && {
                    p.skip();
                    p.sep();
                    p.skip();
                    p.lit(b"}")
                }
            })
        })
    }

    fn stmt(&mut self) -> bool {
        self.if_stmt()
            || self.keyword_stmt(b"repeat", Rule::repeat_stmt)
            || self.keyword_stmt(b"while", Rule::while_stmt)
            || self.for_stmt()
            || self.let_stmt()
            || self.return_stmt()
            || self.expr_stmt()
    }

    /// `if_stmt = { "if" ~ expr ~ block ~ ("else" ~ (if_stmt | block))? }`
    fn if_stmt(&mut self) -> bool {
        if !self.s[self.pos..].starts_with(b"if") {
            return false;
        }
        self.nested(|p| {
            p.rule(Rule::if_stmt, |p| {
                p.lit(b"if") && p.skip_then(Self::expr) && p.skip_then(Self::block) && {
                    p.skip();
                    p.seq(|p| p.lit(b"else") && p.skip_then(|p| p.if_stmt() || p.block()));
                    true
                }
            })
        })
    }

    /// `repeat_stmt = { "repeat" ~ expr ~ block }`, and `while_stmt` alike.
    fn keyword_stmt(&mut self, word: &[u8], rule: Rule) -> bool {
        if !self.s[self.pos..].starts_with(word) {
            return false;
        }
        self.rule(rule, |p| {
            p.lit(word) && p.skip_then(Self::expr) && p.skip_then(Self::block)
        })
    }

    /// `for_stmt = { "for" ~ ident ~ "in" ~ expr ~ block }`
    fn for_stmt(&mut self) -> bool {
        if !self.s[self.pos..].starts_with(b"for") {
            return false;
        }
        self.rule(Rule::for_stmt, |p| {
            p.lit(b"for")
                && p.skip_then(Self::ident)
                && p.skip_then(|p| p.lit(b"in"))
                && p.skip_then(Self::expr)
                && p.skip_then(Self::block)
        })
    }

    /// `let_stmt = { "let" ~ ident ~ "=" ~ expr }`
    fn let_stmt(&mut self) -> bool {
        if !self.s[self.pos..].starts_with(b"let") {
            return false;
        }
        self.rule(Rule::let_stmt, |p| {
            p.lit(b"let")
                && p.skip_then(Self::ident)
                && p.skip_then(|p| p.lit(b"="))
                && p.skip_then(Self::expr)
        })
    }

    /// `return_stmt = { "return" ~ expr? }`
    fn return_stmt(&mut self) -> bool {
        if !self.s[self.pos..].starts_with(b"return") {
            return false;
        }
        self.rule(Rule::return_stmt, |p| {
            p.lit(b"return");
            p.skip();
            p.expr();
            true
        })
    }

    /// `expr_stmt = { expr ~ (assign_op ~ expr)? }`
    fn expr_stmt(&mut self) -> bool {
        self.rule(Rule::expr_stmt, |p| {
            p.expr() && {
                p.skip();
                p.seq(|p| p.assign_op() && p.skip_then(Self::expr));
                true
            }
        })
    }

    /// `assign_op = { "+=" | "-=" | ("=" ~ !"=") }`
    fn assign_op(&mut self) -> bool {
        let (a, b) = (self.peek(), self.at(1));
        if !matches!((a, b), (b'+' | b'-', b'=') | (b'=', _)) {
            return false;
        }
        self.rule(Rule::assign_op, |p| {
            p.lit(b"+=")
                || p.lit(b"-=")
                || p.seq(|p| {
                    p.lit(b"=") && {
                        p.skip();
                        p.peek() != b'='
                    }
                })
        })
    }

    /// The implicit skip, then `f`.
    fn skip_then(&mut self, f: impl FnOnce(&mut Self) -> bool) -> bool {
        self.skip();
        f(self)
    }

    /// `expr = { logic ~ (kw_where ~ logic)? }`
    fn expr(&mut self) -> bool {
        self.nested(|p| {
            p.rule(Rule::expr, |p| {
                p.logic() && {
                    p.skip();
                    p.seq(|p| p.word(b"where", Rule::kw_where) && p.skip_then(Self::logic));
                    true
                }
            })
        })
    }

    /// `logic = _{ negation ~ (kw_logic ~ negation)* }`
    fn logic(&mut self) -> bool {
        self.seq(|p| {
            p.negation() && {
                p.skip();
                p.rep(|p| p.seq(|p| p.kw_logic() && p.skip_then(Self::negation)));
                true
            }
        })
    }

    /// `negation = _{ kw_not* ~ compare }`
    fn negation(&mut self) -> bool {
        self.seq(|p| {
            p.rep(|p| p.word(b"not", Rule::kw_not));
            p.skip();
            p.compare()
        })
    }

    /// `compare = _{ arith ~ ((cmp_op ~ arith) | (is_op ~ ident))? }`
    fn compare(&mut self) -> bool {
        self.seq(|p| {
            p.arith() && {
                p.skip();
                let _ = p.seq(|p| p.cmp_op() && p.skip_then(Self::arith))
                    || p.seq(|p| p.is_op() && p.skip_then(Self::ident));
                true
            }
        })
    }

    /// `arith = _{ operand ~ (arith_op ~ operand)* }`
    fn arith(&mut self) -> bool {
        self.seq(|p| {
            p.operand() && {
                p.skip();
                p.rep(|p| p.seq(|p| p.arith_op() && p.skip_then(Self::operand)));
                true
            }
        })
    }

    /// `operand = { neg* ~ primary ~ field* }`
    fn operand(&mut self) -> bool {
        self.rule(Rule::operand, |p| {
            p.rep(|p| p.peek() == b'-' && p.rule(Rule::neg, |p| p.lit(b"-")));
            p.skip();
            p.primary() && {
                p.skip();
                p.rep(Self::field);
                true
            }
        })
    }

    /// `field = { "." ~ ident }`
    fn field(&mut self) -> bool {
        self.peek() == b'.' && self.rule(Rule::field, |p| p.lit(b".") && p.skip_then(Self::ident))
    }

    /// `primary = _{ int | string | card_ref | list | call | var | "(" ~ expr ~ ")" }`
    fn primary(&mut self) -> bool {
        match self.peek() {
            b'0'..=b'9' => self.rule(Rule::int, |p| {
                let n = p.s[p.pos..]
                    .iter()
                    .take_while(|b| b.is_ascii_digit())
                    .count();
                p.pos += n;
                true
            }),
            b'"' => self.rule(Rule::string, |p| {
                p.pos += 1;
                p.rule(Rule::str_inner, |p| {
                    let rest = &p.s[p.pos..];
                    p.pos += rest.iter().position(|b| *b == b'"').unwrap_or(rest.len());
                    true
                }) && p.lit(b"\"")
            }),
            b'@' => self.rule(Rule::card_ref, |p| p.lit(b"@") && p.ident()),
            b'[' => self.rule(Rule::list, |p| p.lit(b"[") && p.skip_then(|p| p.args(b"]"))),
            b'(' => {
                self.seq(|p| p.lit(b"(") && p.skip_then(Self::expr) && p.skip_then(|p| p.lit(b")")))
            }
            _ => {
                self.rule(Rule::call, |p| {
                    p.ident() && p.skip_then(|p| p.lit(b"(")) && p.skip_then(|p| p.args(b")"))
                }) || self.rule(Rule::var, Self::ident)
            }
        }
    }

    /// `(expr ~ ("," ~ expr)*)? ~ close` of a call or a list.
    fn args(&mut self, close: &[u8]) -> bool {
        self.seq(|p| {
            p.expr() && {
                p.skip();
                p.rep(|p| p.seq(|p| p.lit(b",") && p.skip_then(Self::expr)));
                true
            }
        });
        self.skip();
        self.lit(close)
    }

    /// `cmp_op = { "==" | "!=" | "<=" | ">=" | "<" | ">" }`
    fn cmp_op(&mut self) -> bool {
        let n = match (self.peek(), self.at(1)) {
            (b'=' | b'!' | b'<' | b'>', b'=') => 2,
            (b'<' | b'>', _) => 1,
            _ => return false,
        };
        self.rule(Rule::cmp_op, |p| {
            p.pos += n;
            true
        })
    }

    /// `is_op = { "is" ~ kw_not? }`
    fn is_op(&mut self) -> bool {
        self.s[self.pos..].starts_with(b"is")
            && self.rule(Rule::is_op, |p| {
                p.pos += 2;
                p.skip();
                p.word(b"not", Rule::kw_not);
                true
            })
    }

    /// `arith_op = { "+" | "-" | "*" | "/" | "%" }`
    fn arith_op(&mut self) -> bool {
        matches!(self.peek(), b'+' | b'-' | b'*' | b'/' | b'%')
            && self.rule(Rule::arith_op, |p| {
                p.pos += 1;
                true
            })
    }

    /// `kw_logic = @{ ("or" | "and") ~ !ident_char }`
    fn kw_logic(&mut self) -> bool {
        self.word(b"or", Rule::kw_logic) || self.word(b"and", Rule::kw_logic)
    }

    /// An atomic keyword rule: `word ~ !ident_char`.
    fn word(&mut self, word: &[u8], rule: Rule) -> bool {
        let rest = &self.s[self.pos..];
        rest.starts_with(word)
            && !ident_char(rest.get(word.len()).copied().unwrap_or(0))
            && self.rule(rule, |p| {
                p.pos += word.len();
                true
            })
    }

    /// `ident = @{ !keyword ~ (ASCII_ALPHA | "_") ~ ident_char* }`; as no
    /// keyword begins another, `keyword` matches where the whole run of
    /// name characters is one.
    fn ident(&mut self) -> bool {
        let rest = &self.s[self.pos..];
        let n = rest.iter().take_while(|b| ident_char(**b)).count();
        let first = self.peek();
        if !(first.is_ascii_alphabetic() || first == b'_') || KEYWORDS.contains(&&rest[..n]) {
            return false;
        }
        self.rule(Rule::ident, |p| {
            p.pos += n;
            true
        })
    }
}
