//! The effect grammar's meaning, pinned: operator precedence and
//! associativity, and what a syntax error says and where.

use crate::lang::compile::{CompileError, Context, Origin, compile_code, compile_expr};
use crate::lang::ir::*;
use crate::lang::names::Names;

fn names() -> Names {
    Names {
        tags: vec!["action".into()],
        props: vec!["cost".into()],
        counters: vec!["total".into()],
        zones: vec!["hand".into()],
        ..Names::default()
    }
}

fn ctx() -> Context {
    Context {
        params: ["a", "b", "c", "d"].map(String::from).to_vec(),
    }
}

/// An expression with every operation bracketed, so a grouping shows.
fn show(e: &Expr) -> String {
    let bin = |op: &BinOp| match op {
        BinOp::Add => "+",
        BinOp::Sub => "-",
        BinOp::Mul => "*",
        BinOp::Div => "/",
        BinOp::Rem => "%",
        BinOp::Eq => "==",
        BinOp::Ne => "!=",
        BinOp::Lt => "<",
        BinOp::Le => "<=",
        BinOp::Gt => ">",
        BinOp::Ge => ">=",
    };
    match e {
        Expr::Int(i) => i.to_string(),
        Expr::Bool(b) => b.to_string(),
        Expr::Local(s) => ["a", "b", "c", "d", "it"][*s as usize].to_string(),
        Expr::Bin(op, l, r, _) => format!("({} {} {})", show(l), bin(op), show(r)),
        Expr::And(l, r) => format!("({} and {})", show(l), show(r)),
        Expr::Or(l, r) => format!("({} or {})", show(l), show(r)),
        Expr::Not(e) => format!("(not {})", show(e)),
        Expr::Neg(e) => format!("(-{})", show(e)),
        Expr::Is(e, _, neg, _) => {
            format!("({} is{} action)", show(e), if *neg { " not" } else { "" })
        }
        Expr::Field(b, _) => format!("{}.cost", show(b)),
        Expr::Where(l, _, c) => format!("({} where {})", show(l), show(c)),
        Expr::List(items) => {
            let items: Vec<String> = items.iter().map(show).collect();
            format!("[{}]", items.join(", "))
        }
        e => format!("{e:?}"),
    }
}

fn expr(text: &str) -> String {
    let code = compile_expr(text, &names(), &Origin::identity(0), &ctx())
        .unwrap_or_else(|e| panic!("{text}: {}", e.message));
    match code.stmts.as_slice() {
        [Stmt::Return(Some(e))] => show(e),
        s => panic!("{text}: {s:?}"),
    }
}

#[test]
fn operators_group_by_precedence_and_associativity() {
    let table = [
        ("a + b * c", "(a + (b * c))"),
        ("a * b + c", "((a * b) + c)"),
        ("a - b - c", "((a - b) - c)"),
        ("a / b / c % d", "(((a / b) / c) % d)"),
        ("a - b + c * d", "((a - b) + (c * d))"),
        ("-a * b", "((-a) * b)"),
        ("- -a", "(-(-a))"),
        ("-3 + a", "(-3 + a)"),
        ("--3", "3"),
        ("a + b == c * d", "((a + b) == (c * d))"),
        ("a < b and c >= d", "((a < b) and (c >= d))"),
        ("a or b and c", "(a or (b and c))"),
        ("a and b or c and d", "((a and b) or (c and d))"),
        ("a or b or c", "((a or b) or c)"),
        ("a and b and c", "((a and b) and c)"),
        ("not a and b", "((not a) and b)"),
        ("not a == b", "(not (a == b))"),
        ("not not a or b", "((not (not a)) or b)"),
        ("a and not b", "(a and (not b))"),
        ("a + b is action", "((a + b) is action)"),
        ("a is not action and b", "((a is not action) and b)"),
        ("not a is action", "(not (a is action))"),
        ("a.cost + b.cost.cost", "(a.cost + b.cost.cost)"),
        ("-a.cost", "(-a.cost)"),
        ("(a + b) * c", "((a + b) * c)"),
        ("a * (b - c)", "(a * (b - c))"),
        ("(a or b) and c", "((a or b) and c)"),
        (
            "[a + b, c] where it > a or b",
            "([(a + b), c] where ((it > a) or b))",
        ),
        ("a or b where it and c", "((a or b) where (it and c))"),
    ];
    for (text, want) in table {
        assert_eq!(expr(text), want, "{text}");
    }
}

fn error(text: &str, code: bool) -> Option<(String, u32, u32)> {
    let o = Origin::identity(0);
    let r = if code {
        compile_code(text, &names(), &o, &ctx())
    } else {
        compile_expr(text, &names(), &o, &ctx())
    };
    let CompileError {
        message,
        start,
        end,
        ..
    } = r.err()?;
    Some((message, start, end))
}

/// Syntax errors: what each says was expected ("" for nothing named), and the
/// offset it points at. Read against the grammar: each is what could come there.
#[test]
fn syntax_errors_say_what_was_expected_where() {
    let code = [
        ("draw(2", "E `.field`, a comparison, an operator", 6),
        ("a +", "E an expression", 3),
        (
            "a == b == c",
            "E `.field`, `=`, an operator, end of code",
            7,
        ),
        ("1 < 2 < 3", "E `.field`, `=`, an operator, end of code", 6),
        ("a is", "E a name", 4),
        ("a is 3", "E a name", 5),
        ("a +* b", "E an expression", 3),
        ("a * / b", "E an expression", 4),
        ("if a {", "E a statement, an expression", 6),
        ("if a { } else", "E `{`, a statement", 13),
        ("let = 3", "E a name", 4),
        ("let x 3", "", 0),
        ("a.3", "E a name", 2),
        ("a.", "E a name", 2),
        ("(a", "E `.field`, a comparison, an operator", 2),
        (
            "(a))",
            "E `.field`, `=`, a comparison, an operator, end of code",
            3,
        ),
        ("[1, 2", "E `.field`, a comparison, an operator", 5),
        ("[1,]", "E an expression", 3),
        (
            "a b",
            "E `.field`, `=`, a comparison, an operator, end of code",
            2,
        ),
        ("not", "E an expression", 3),
        ("-", "E a name, a number", 1),
        ("not -", "E a name, a number", 5),
        ("a where", "E an expression", 7),
        (
            "a where b where c",
            "E `.field`, `=`, a comparison, an operator, end of code",
            10,
        ),
        (
            "a = = b",
            "E `.field`, `=`, a comparison, an operator, end of code",
            2,
        ),
        ("a == not b", "E an expression", 5),
        ("a + not b", "E an expression", 4),
        ("- not a", "E a name, a number", 2),
        ("a is action is action", "E `=`, end of code", 12),
        (
            "a == b is action",
            "E `.field`, `=`, an operator, end of code",
            7,
        ),
        ("a and or b", "E an expression", 6),
        ("a or", "E an expression", 4),
        ("total +=", "E an expression", 8),
        ("total += += 1", "E an expression", 9),
        ("for in hand {}", "E a name", 4),
        ("for x hand {}", "", 0),
        ("return return", "E an expression, end of code", 7),
        ("repeat { }", "E an expression", 7),
        ("while a", "E `.field`, `{`, a comparison, an operator", 7),
        ("else { }", "", 0),
        ("}", "", 0),
        ("@", "E a name", 1),
        ("\"abc", "", 0),
        ("f(a,)", "E an expression", 4),
        ("f(,a)", "E an expression", 2),
        (
            "a ! b",
            "E `.field`, `=`, a comparison, an operator, end of code",
            2,
        ),
        ("a =! b", "E an expression", 3),
        ("3 = 4", "! cannot assign to this", 0),
        (
            "x.cost = = 1",
            "E `.field`, `=`, a comparison, an operator, end of code",
            7,
        ),
    ];
    let exprs = [
        ("", "E an expression", 0),
        (
            "a b",
            "E `.field`, a comparison, an operator, end of code",
            2,
        ),
        (
            "a = b",
            "E `.field`, a comparison, an operator, end of code",
            2,
        ),
        ("let x = 1", "E an expression", 0),
        ("a ==", "E an expression", 4),
        ("(", "E an expression", 1),
        ("a where", "E an expression", 7),
    ];
    let tables = [(true, &code[..]), (false, &exprs[..])];
    for (is_code, table) in tables {
        for &(text, want, at) in table {
            let (message, start, end) =
                error(text, is_code).unwrap_or_else(|| panic!("{text:?} compiled"));
            let want = match want.split_at(want.len().min(2)) {
                ("E ", list) => format!("syntax error in card text: expected {list}"),
                ("! ", m) => m.to_string(),
                _ => "syntax error in card text".to_string(),
            };
            assert_eq!((message.as_str(), start), (want.as_str(), at), "{text:?}");
            assert!(end >= start, "{text:?}");
        }
    }
    assert!(
        error("a;", false).is_none(),
        "an expression may end with `;`"
    );
}

/// A second `where` is refused with a hint at the two ways to say it; other
/// syntax errors get no such hint.
#[test]
fn a_second_where_says_how_to_write_it() {
    let help = |text: &str, code: bool| {
        let o = Origin::identity(0);
        let r = if code {
            compile_code(text, &names(), &o, &ctx())
        } else {
            compile_expr(text, &names(), &o, &ctx())
        };
        r.err().unwrap_or_else(|| panic!("{text:?} compiled")).help
    };
    for (text, code) in [
        ("a where b where c", true),
        ("let x = a where b where c", true),
        ("a where b where c", false),
        ("(a where b) where c where d", false),
    ] {
        let h = help(text, code).unwrap_or_else(|| panic!("{text:?}: no help"));
        assert!(h.contains("(hand where A) where B"), "{text:?}: {h}");
    }
    for (text, code) in [("a where", true), ("a b", false), ("a == b == c", true)] {
        assert_eq!(help(text, code), None, "{text:?}");
    }
}

/// How deep each kind of nesting may go: the limit counts a level per
/// precedence level of an operand, as when the grammar made a node per level.
#[test]
fn nesting_limits() {
    type Make = fn(usize) -> String;
    let kinds: [(usize, Make); 8] = [
        (30, |n| {
            format!("let x = {}a{}", "(".repeat(n), ")".repeat(n))
        }),
        (30, |n| {
            format!("let x = {}a{}", "[".repeat(n), "]".repeat(n))
        }),
        (251, |n| format!("let x = {}a", "not ".repeat(n))),
        (247, |n| format!("let x = {}a", "- ".repeat(n))),
        (249, |n| format!("let x = a{}", " + a".repeat(n))),
        (252, |n| format!("let x = a{}", " and a".repeat(n))),
        (246, |n| format!("let x = a{}", ".cost".repeat(n))),
        (246, |n| {
            format!("{}a{}", "if a { ".repeat(n), " }".repeat(n))
        }),
    ];
    // Deep code needs the stack fuda gives the loader, not a test thread's.
    let run = move || {
        for (deepest, make) in kinds {
            let compiles = |n| compile_code(&make(n), &names(), &Origin::identity(0), &ctx());
            assert!(compiles(deepest).is_ok(), "{}", make(1));
            let e = compiles(deepest + 1).expect_err("one level more fails");
            assert!(e.message.contains("nested more than"), "{}", e.message);
        }
    };
    let t = std::thread::Builder::new().stack_size(crate::limits::STACK_SIZE);
    t.spawn(run).unwrap().join().unwrap();
}
