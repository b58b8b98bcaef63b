//! The Rhai sandbox refuses every way out: the clock, the terminal, files, and
//! code hidden from the load-time check. (The bad-input corpus shows the same
//! refusals through `fuda check`; these tests pin the engine itself.)

use fuda::sandbox::{engine, known_functions, unknown_calls};

/// Functions of Rhai's standard library that reach outside a game or stop it.
/// (`print` and `debug` exist as functions that turn values into text; the
/// keywords that would write it are refused and the engine has no writer.)
const OUTSIDE: &[&str] = &[
    "sleep",
    "timestamp",
    "elapsed",
    "exit",
    "parse_json",
    "back_trace",
    "eval",
];

#[test]
fn the_sandbox_registers_nothing_that_reaches_outside() {
    let known = known_functions(&engine());
    for f in OUTSIDE {
        assert!(!known.contains(*f), "`{f}` is callable in the sandbox");
    }
    // What cards use is still there.
    for f in [
        "push",
        "len",
        "contains",
        "abs",
        "max",
        "to_string",
        "sub_string",
    ] {
        assert!(known.contains(f), "`{f}` is missing from the sandbox");
    }
}

#[test]
fn refused_keywords_are_syntax_errors() {
    let e = engine();
    for code in [
        "print(\"x\")",
        "debug(1)",
        "import \"/tmp/m\" as m;",
        "eval(\"1\")",
        "fn f() { print(1) }",
    ] {
        let err = e.compile(code).expect_err(code).to_string();
        assert!(
            err.contains("print")
                || err.contains("debug")
                || err.contains("import")
                || err.contains("eval"),
            "{code}: {err}"
        );
    }
}

#[test]
fn calls_made_at_run_time_find_nothing_outside() {
    // A function pointer built from a string escapes the load-time check; it
    // must find nothing to call.
    let e = engine();
    for name in ["sleep", "timestamp", "exit"] {
        let code = format!(
            "let f = Fn(\"{}\" + \"{}\"); f.call(1)",
            &name[..2],
            &name[2..]
        );
        let err = e.eval::<rhai::Dynamic>(&code).expect_err(&code).to_string();
        assert!(err.contains("not found"), "{code}: {err}");
    }
}

#[test]
fn unknown_calls_are_found_at_their_positions() {
    let e = engine();
    let known = known_functions(&e);
    let ast = e
        .compile("let a = [1];\nfoo(a);\na.bar(2);\nfn own(x) { baz(x) }\nown(len(a));")
        .unwrap();
    let found: Vec<(String, usize, usize)> = unknown_calls(&ast, &known)
        .into_iter()
        .map(|(n, p)| (n, p.line().unwrap(), p.position().unwrap()))
        .collect();
    let mut want = vec![
        ("foo".to_string(), 2, 1),
        ("bar".to_string(), 3, 3),
        ("baz".to_string(), 4, 13),
    ];
    let mut found = found;
    found.sort();
    want.sort();
    assert_eq!(found, want);
}
