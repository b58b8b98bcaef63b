//! The balance lab end to end: rows in every format (Parquet read by
//! DuckDB), per-card counts equal on both tiers and for any `--jobs`,
//! tournaments, sweeps, grouped errors, and the HTML report in a browser.
//!
//! DuckDB (Python package or CLI) and Chromium are outside tools: a test
//! that needs one fails, saying how to install it, when it is missing
//! (`.ci/test`, the README's test command, installs both).

use std::path::Path;
use std::process::{Command, Output};

mod chromium;

fn fuda(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fuda"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run fuda")
}

fn ok(o: &Output) -> String {
    let (out, err) = (
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr),
    );
    assert!(
        o.status.success(),
        "fuda failed ({:?})\nstdout:\n{out}\nstderr:\n{err}",
        o.status
    );
    out.into_owned()
}

/// A missing outside tool fails the test, saying how to install it.
fn missing(what: &str, install: &str) -> ! {
    panic!("{what} is required by this test and is not installed: {install} (.ci/test does this)")
}

fn tmp() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("fuda-lab-")
        .tempdir()
        .unwrap()
}

fn p(d: &Path, name: &str) -> String {
    d.join(name).display().to_string()
}

/// Runs SQL with DuckDB (its Python package, else its CLI): the output
/// as CSV without a header, or none if DuckDB is not installed.
fn duckdb(sql: &str) -> Option<String> {
    let py = std::env::var("FUDA_PYTHON").unwrap_or_else(|_| "python3".into());
    let script = format!(
        "import duckdb\nfor r in duckdb.sql({sql:?}).fetchall(): print(','.join(str(x) for x in r))"
    );
    if let Ok(o) = Command::new(&py).args(["-c", &script]).output()
        && o.status.success()
    {
        return Some(String::from_utf8_lossy(&o.stdout).trim().to_string());
    }
    let o = Command::new("duckdb")
        .args(["-csv", "-noheader", "-c", sql])
        .output()
        .ok()?;
    assert!(
        o.status.success(),
        "duckdb: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    Some(String::from_utf8_lossy(&o.stdout).trim().to_string())
}

#[test]
fn parquet_rows_read_by_duckdb_match_the_json_lines() {
    let d = tmp();
    let args = [
        "sim",
        "shrine",
        "--games",
        "30",
        "--agents",
        "bigmoney,random",
        "--swap",
        "--cards",
        "--set",
        "kingdom=",
    ];
    ok(&fuda(
        &[&args[..], &["--out", &p(d.path(), "r.parquet")]].concat(),
    ));
    ok(&fuda(
        &[&args[..], &["--out", &p(d.path(), "r.jsonl")]].concat(),
    ));
    ok(&fuda(
        &[&args[..], &["--out", &p(d.path(), "r.csv")]].concat(),
    ));
    for f in [
        "r.parquet",
        "r.cards.parquet",
        "r.jsonl",
        "r.cards.jsonl",
        "r.csv",
        "r.cards.csv",
    ] {
        assert!(d.path().join(f).exists(), "{f} not written");
    }
    // The JSON lines' own figures, to compare with what DuckDB reads.
    let lines = std::fs::read_to_string(d.path().join("r.jsonl")).unwrap();
    let games: Vec<serde_json::Value> = lines
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(games.len(), 60, "30 seeds in 2 rotations");
    let p1 = games.iter().filter(|g| g["p1_won"] == true).count();
    let bm = games
        .iter()
        .filter(|g| {
            (g["p1_entrant"] == "bigmoney" && g["p1_won"] == true)
                || (g["p2_entrant"] == "bigmoney" && g["p2_won"] == true)
        })
        .count();
    assert!(bm > 45, "Big Money beats random: {bm} of 60");
    let cards = std::fs::read_to_string(d.path().join("r.cards.jsonl")).unwrap();
    let gained: i64 = (cards.lines())
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|c| c["card"] == "honoumai")
        .map(|c| c["gained"].as_i64().unwrap())
        .sum();
    assert!(gained > 0, "Big Money gains 奉納米");
    let sql = format!(
        "select count(*), sum(case when p1_won then 1 else 0 end), (select sum(gained) from '{}' where card = 'honoumai') from '{}'",
        p(d.path(), "r.cards.parquet"),
        p(d.path(), "r.parquet")
    );
    match duckdb(&sql) {
        Some(out) => assert_eq!(
            out,
            format!("60,{p1},{gained}"),
            "DuckDB reads the Parquet rows"
        ),
        None => missing(
            "DuckDB",
            "python3 -m venv V && V/bin/pip install duckdb==2.0.1, then FUDA_PYTHON=V/bin/python; or the duckdb CLI on PATH",
        ),
    }
    // fuda reads its own Parquet back to the same tables as the JSON lines.
    let a = ok(&fuda(&["report", &p(d.path(), "r.parquet")]));
    let b = ok(&fuda(&["report", &p(d.path(), "r.jsonl")]));
    assert_eq!(a, b);
    assert!(a.contains("seat advantage (P1 - P2 win rate)"), "{a}");
    // And DuckDB's copies, in its default codec (snappy, as pyarrow's).
    for (from, to) in [("r", "s"), ("r.cards", "s.cards")] {
        let (from, to) = (
            p(d.path(), &format!("{from}.parquet")),
            p(d.path(), &format!("{to}.parquet")),
        );
        duckdb(&format!(
            "copy (select * from '{from}') to '{to}' (format parquet)"
        ));
        let codecs = duckdb(&format!(
            "select distinct compression from parquet_metadata('{to}')"
        ));
        assert_eq!(codecs.as_deref(), Some("SNAPPY"), "{to}");
    }
    let c = ok(&fuda(&["report", &p(d.path(), "s.parquet")]));
    assert_eq!(c, b, "fuda reads snappy Parquet");
}

#[test]
fn card_counts_are_the_same_on_both_tiers_and_for_any_jobs() {
    // The speed tier counts at its quiet moves (a card, a zone's top cards,
    // a whole zone, a straight move body, a hook); the reference tier at its
    // one move path. Each game moves cards in the ways its bots make it.
    let d = tmp();
    for (name, game, extra) in [
        ("bigmoney", "shrine", vec!["--set", "kingdom="]),
        ("random", "shrine", vec!["--agents", "random"]),
        ("utage", "utage", vec![]),
        ("hyakki", "hyakki", vec![]),
        ("landgrab", "landgrab", vec![]),
        ("t3", "t3", vec![]),
    ] {
        let run = |tier: &str, more: &[&str]| {
            let out = p(d.path(), &format!("{name}-{tier}.jsonl"));
            let args = [
                &[
                    "sim", game, "--games", "8", "--swap", "--cards", "--out", &out,
                ][..],
                &extra,
                more,
            ]
            .concat();
            ok(&fuda(&args));
            let read = |end: &str| {
                std::fs::read_to_string(d.path().join(format!("{name}-{tier}{end}"))).unwrap()
            };
            (read(".cards.jsonl"), read(".jsonl"))
        };
        let fast = run("fast", &[]);
        assert!(fast.0.lines().count() > 10, "{name}: card rows");
        for kind in ["played", "drawn"] {
            assert!(
                !fast.0.lines().all(|l| l.contains(&format!("\"{kind}\":0"))),
                "{name}: {kind} counted"
            );
        }
        assert_eq!(
            fast,
            run("reference", &["--reference"]),
            "{name}: counts (or games) differ between tiers"
        );
        assert_eq!(
            fast,
            run("jobs", &["--jobs", "2"]),
            "{name}: counts (or games) differ with --jobs"
        );
    }
}

#[test]
fn cards_table_has_intervals_and_draws_are_named_alike() {
    let out = ok(&fuda(&[
        "sim",
        "shrine",
        "--games",
        "20",
        "--cards",
        "--agents",
        "bigmoney,random",
    ]));
    assert!(out.contains("win rate added in deck"), "{out}");
    assert!(
        out.contains("* small sample"),
        "20 games are a small sample: {out}"
    );
    assert!(out.contains("draws "), "{out}");
    let json = ok(&fuda(&[
        "sim", "shrine", "--games", "20", "--cards", "--json",
    ]));
    let v: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
    let s = &v["summaries"][0];
    assert!(s["draws"].is_u64(), "{s}");
    assert!(s["seats"][0]["lo"].as_f64().unwrap() <= s["seats"][0]["p"].as_f64().unwrap());
    let plain = ok(&fuda(&["sim", "shrine", "--games", "5"]));
    assert!(
        plain.contains("draws ") && !plain.contains("shared wins"),
        "{plain}"
    );
}

#[test]
fn tournament_rates_the_stronger_agent_higher() {
    let d = tmp();
    let out = ok(&fuda(&[
        "tournament",
        "shrine",
        "--agents",
        "bigmoney,random,first",
        "--games",
        "15",
        "--set",
        "kingdom=",
        "--json",
        "--out",
        &p(d.path(), "t.jsonl"),
    ]));
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    let st = &v["standings"];
    let names: Vec<&str> = st["entrants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e.as_str().unwrap())
        .collect();
    assert_eq!(names, ["bigmoney", "random", "first"]);
    let elo: Vec<f64> = st["elo"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e.as_f64().unwrap())
        .collect();
    assert!(elo[0] > elo[1] && elo[0] > elo[2], "{elo:?}");
    // 3 pairings, 2 seatings, 15 seeds.
    assert_eq!(v["games"], 90);
    let rate = &st["matrix"][0][1];
    assert!(
        rate["p"].as_f64().unwrap() > 0.8 && rate["n"] == 30,
        "{rate}"
    );
    assert!(st["matrix"][0][0].is_null());
}

#[test]
fn utage_decks_in_a_tournament() {
    let out = ok(&fuda(&[
        "tournament",
        "utage",
        "--decks",
        "deck_reimu,deck_marisa,deck_kouma",
        "--games",
        "3",
        "--json",
    ]));
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    let names = &v["standings"]["entrants"];
    assert_eq!(
        names,
        &serde_json::json!(["deck_reimu", "deck_marisa", "deck_kouma"])
    );
    assert_eq!(v["games"], 18, "3 pairings, 2 seatings, 3 seeds");
}

#[test]
fn a_sweep_value_nobody_bought_the_card_at_keeps_the_curve() {
    // Big Money buys omiki at 6 coins or more, unless it has 8: at cost 8
    // nobody ends with it, at cost 7 some do.
    let out = ok(&fuda(&[
        "sweep",
        "shrine",
        "--vary",
        "omiki.cost=7..8",
        "--games",
        "30",
        "--swap",
        "--set",
        "kingdom=",
    ]));
    assert!(
        out.contains("sweep of omiki.cost: win rate added by omiki"),
        "{out}"
    );
    let line = |v: u32| {
        (out.lines())
            .find(|l| l.starts_with(&format!("  omiki.cost={v} ")))
            .unwrap_or_else(|| panic!("no line for cost {v}:\n{out}"))
            .to_string()
    };
    assert!(line(7).contains(" with, "), "{}", line(7));
    assert!(line(7).contains('['), "cost 7 has a figure: {}", line(7));
    assert!(
        line(8).contains("n 0 with, 120 without (no comparison)"),
        "{}",
        line(8)
    );
}

#[test]
fn sweep_varies_a_card_on_an_overlay_and_the_report_plots_it() {
    let d = tmp();
    let before = std::fs::read("cards/shrine/basic.yaml").unwrap();
    let out = ok(&fuda(&[
        "sweep",
        "shrine",
        "--vary",
        "omiki.cost=4..7",
        "--games",
        "20",
        "--agents",
        "bigmoney,random",
        "--swap",
        "--set",
        "kingdom=",
        "--out",
        &p(d.path(), "s.parquet"),
    ]));
    assert_eq!(
        std::fs::read("cards/shrine/basic.yaml").unwrap(),
        before,
        "no file edited"
    );
    assert!(
        out.contains("sweep of omiki.cost: win rate added by omiki"),
        "{out}"
    );
    for v in 4..=7 {
        assert!(out.contains(&format!("  omiki.cost={v} ")), "{out}");
    }
    let html = p(d.path(), "s.html");
    ok(&fuda(&[
        "report",
        &p(d.path(), "s.parquet"),
        "--html",
        &html,
    ]));
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(
        page.contains("<h2>Sweep</h2>")
            && page.contains("<h2>Cards</h2>")
            && page.contains("<h2>Game length</h2>")
    );
    assert!(
        !page.contains("src=\"http") && !page.contains("<script"),
        "self-contained"
    );
    // A bad value is refused before any game.
    let bad = fuda(&["sweep", "shrine", "--vary", "nosuchcard.cost=1..2"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("no card `nosuchcard`"));
}

#[test]
fn a_sweep_varies_an_option_and_several_varies_make_a_grid() {
    let d = tmp();
    // An option's values are card ids (`+` joins several, empty is none).
    let out = ok(&fuda(&[
        "sweep",
        "shrine",
        "--vary",
        "set.big=koumakan,eientei",
        "--games",
        "6",
        "--swap",
        "--set",
        "kingdom=",
        "--out",
        &p(d.path(), "o.jsonl"),
    ]));
    assert!(out.contains("sweep of set.big: seat advantage"), "{out}");
    for v in ["koumakan", "eientei"] {
        assert!(out.contains(&format!("  set.big={v} ")), "{out}");
    }
    let games = std::fs::read_to_string(d.path().join("o.jsonl")).unwrap();
    assert_eq!(games.lines().count(), 24, "2 values, 6 seeds, 2 seatings");
    for v in ["koumakan", "eientei"] {
        let with = (games.lines())
            .filter(|l| l.contains(&format!("\"variant\":\"set.big={v}\"")))
            .filter(|l| l.contains(&format!("big={v}")))
            .count();
        assert_eq!(with, 12, "the option in effect for set.big={v}:\n{games}");
    }
    let html = p(d.path(), "o.html");
    ok(&fuda(&["report", &p(d.path(), "o.jsonl"), "--html", &html]));
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("<h2>Sweep</h2>") && page.contains("set.big=eientei"));
    // Two --vary: every combination, the first slowest.
    let out = ok(&fuda(&[
        "sweep",
        "shrine",
        "--vary",
        "omiki.cost=6..7",
        "--vary",
        "set.modules=,ofuda+amaneki",
        "--games",
        "3",
        "--agents",
        "bigmoney,random",
        "--set",
        "kingdom=",
        "--json",
    ]));
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    let variants: Vec<&str> = (v["summaries"].as_array().unwrap().iter())
        .map(|s| s["variant"].as_str().unwrap())
        .collect();
    assert_eq!(
        variants,
        [
            "omiki.cost=6, set.modules=",
            "omiki.cost=6, set.modules=ofuda+amaneki",
            "omiki.cost=7, set.modules=",
            "omiki.cost=7, set.modules=ofuda+amaneki"
        ]
    );
    assert_eq!(v["games"], 12);
    // The grid's figure: a heat map of omiki's win rate added over both
    // values, each cell with its sample sizes.
    let grid = p(d.path(), "g.jsonl");
    ok(&fuda(&[
        "sweep",
        "shrine",
        "--vary",
        "omiki.cost=6..7",
        "--vary",
        "set.modules=,ofuda+amaneki",
        "--games",
        "4",
        "--agents",
        "bigmoney,random",
        "--swap",
        "--set",
        "kingdom=",
        "--out",
        &grid,
    ]));
    let html = p(d.path(), "g.html");
    ok(&fuda(&["report", &grid, "--html", &html]));
    let page = std::fs::read_to_string(&html).unwrap();
    let at = page.find("<h2>Grid</h2>").expect("a grid section");
    let svg = &page[at..page[at..].find("</svg>").unwrap() + at];
    assert!(
        svg.contains(
            "win rate added by omiki in deck (points) by omiki.cost (rows) and set.modules (columns)"
        ),
        "{svg}"
    );
    for label in [
        "omiki.cost=6",
        "omiki.cost=7",
        "set.modules=(none)",
        "set.modules=ofuda+amaneki",
    ] {
        assert_eq!(
            svg.matches(&format!(">{label}<")).count(),
            1,
            "{label}: {svg}"
        );
    }
    assert_eq!(svg.matches("<rect").count(), 4, "2×2 cells: {svg}");
    assert_eq!(
        svg.matches(">n ").count(),
        4,
        "each cell's sample sizes: {svg}"
    );
    // A card the option refuses stops the sweep before any game.
    let bad = fuda(&["sweep", "shrine", "--vary", "set.big=koumakan,omiki"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&bad.stderr).contains("omiki"),
        "{}",
        String::from_utf8_lossy(&bad.stderr)
    );
}

#[test]
fn the_report_opens_in_headless_chromium() {
    let d = tmp();
    ok(&fuda(&[
        "tournament",
        "shrine",
        "--agents",
        "bigmoney,random,first",
        "--games",
        "10",
        "--set",
        "kingdom=",
        "--out",
        &p(d.path(), "t.parquet"),
    ]));
    ok(&fuda(&[
        "sim",
        "shrine",
        "--games",
        "60",
        "--cards",
        "--swap",
        "--out",
        &p(d.path(), "c.parquet"),
    ]));
    let html = d.path().join("t.html");
    ok(&fuda(&[
        "report",
        &p(d.path(), "t.parquet"),
        "--html",
        &html.display().to_string(),
    ]));
    let cards = d.path().join("c.html");
    ok(&fuda(&[
        "report",
        &p(d.path(), "c.parquet"),
        "--html",
        &cards.display().to_string(),
    ]));
    let chrome = chromium::path();
    let profile = tmp();
    let shot = match std::env::var("FUDA_SCREENSHOT_DOCS") {
        Ok(_) => Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/lab-report.png"),
        Err(_) => d.path().join("shot.png"),
    };
    let run = |extra: &[String], page: &Path| {
        let mut c = Command::new(&chrome);
        c.args(chromium::HEADLESS)
            .arg("--hide-scrollbars")
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .args(extra)
            .arg(format!("file://{}", page.display()));
        c.output().expect("run chromium")
    };
    let dom = run(&["--dump-dom".into()], &html);
    let dom = String::from_utf8_lossy(&dom.stdout);
    assert!(
        dom.contains("Win matrix") && dom.matches("<svg").count() >= 2,
        "{dom:.500}"
    );
    let o = run(
        &[
            format!("--screenshot={}", shot.display()),
            "--window-size=1100,1600".into(),
        ],
        &cards,
    );
    let png = std::fs::read(&shot)
        .unwrap_or_else(|_| panic!("no screenshot: {}", String::from_utf8_lossy(&o.stderr)));
    assert!(
        png.starts_with(b"\x89PNG") && png.len() > 20_000,
        "a screenshot of a drawn page ({} bytes)",
        png.len()
    ); // `--png`: each plot alone, at the size of its SVG.
    let dir = d.path().join("png");
    let o = Command::new(env!("CARGO_BIN_EXE_fuda"))
        .args(["report", &p(d.path(), "c.parquet"), "--png"])
        .arg(&dir)
        .env("FUDA_CHROMIUM", &chrome)
        .output()
        .expect("run fuda");
    let out = ok(&o);
    for (name, w, h) in [("cards", 720, None), ("turns", 720, Some(300))] {
        let path = dir.join(format!("{name}.png"));
        assert!(out.contains(&path.display().to_string()), "{out}");
        let png = std::fs::read(&path).unwrap();
        assert!(
            png.starts_with(b"\x89PNG") && png.len() > 5_000,
            "{name}.png drawn"
        );
        let dim = |at: usize| u32::from_be_bytes(png[at..at + 4].try_into().unwrap());
        assert_eq!(dim(16), w, "{name}.png width");
        if let Some(h) = h {
            assert_eq!(dim(20), h, "{name}.png height");
        }
    }
    // Without a browser it says how to get one, and fails.
    let o = Command::new(env!("CARGO_BIN_EXE_fuda"))
        .args(["report", &p(d.path(), "c.parquet"), "--png"])
        .arg(&dir)
        .env("FUDA_CHROMIUM", d.path().join("no-such-browser"))
        .output()
        .expect("run fuda");
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot start"));
}

#[test]
fn errors_are_grouped_one_located_diagnostic_each() {
    let d = tmp();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::create_dir_all(d.path().join("rules")).unwrap();
    std::fs::create_dir_all(d.path().join("cards/shrine")).unwrap();
    std::fs::copy(
        root.join("cards/shrine/basic.yaml"),
        d.path().join("cards/shrine/basic.yaml"),
    )
    .unwrap();
    // Every game fails the same way, in its first turn.
    let rules = std::fs::read_to_string(root.join("rules/shrine.yaml")).unwrap();
    let rules = rules.replacen("  draw_for:\n    params: [p, n]\n    do: |\n", "  draw_for:\n    params: [p, n]\n    do: |\n      let zero = count(trash)\n      let bad = n / zero\n", 1);
    assert!(rules.contains("n / zero"));
    std::fs::write(d.path().join("rules/shrine.yaml"), rules).unwrap();
    let dir = d.path().display().to_string();
    let o = fuda(&[
        "--data",
        &dir,
        "sim",
        "shrine",
        "--games",
        "12",
        "--set",
        "kingdom=",
        "--out",
        &p(d.path(), "e.csv"),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.matches("stopped by this error").count(), 1, "{err}");
    assert!(
        err.contains("12 game(s) stopped by this error; first seed 1"),
        "{err}"
    );
    assert!(err.contains("rules/shrine.yaml:"), "located: {err}");
    let csv = std::fs::read_to_string(d.path().join("e.csv")).unwrap();
    assert_eq!(
        csv.lines()
            .filter(|l| l.contains(",error,division by zero,"))
            .count(),
        12,
        "{csv}"
    );
}

#[test]
fn shards_concatenated_are_the_whole_runs_rows() {
    // Through the command line: JSON lines of shards 0/2 and 1/2, one after
    // the other, are the whole run's lines (game numbers included).
    let d = tmp();
    let args = [
        "sim",
        "shrine",
        "--games",
        "7",
        "--swap",
        "--cards",
        "--agents",
        "bigmoney,random",
    ];
    let run = |name: &str, shard: Option<&str>| {
        let out = p(d.path(), name);
        let mut a = args.to_vec();
        a.extend(["--out", &out]);
        if let Some(s) = shard {
            a.extend(["--shard", s]);
        }
        ok(&fuda(&a));
        let games = std::fs::read_to_string(&out).unwrap();
        let cards =
            std::fs::read_to_string(d.path().join(name.replace(".jsonl", ".cards.jsonl"))).unwrap();
        (games, cards)
    };
    let whole = run("w.jsonl", None);
    let (a, b) = (run("a.jsonl", Some("0/2")), run("b.jsonl", Some("1/2")));
    assert_eq!(whole.0.lines().count(), 14, "7 seeds in 2 rotations");
    assert!(a.0.lines().count() > 0 && b.0.lines().count() > 0);
    assert_eq!(format!("{}{}", a.0, b.0), whole.0);
    assert_eq!(format!("{}{}", a.1, b.1), whole.1);
    let bad = fuda(&["sim", "shrine", "--shard", "2/2"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("0 <= K < N"));
}

#[test]
fn the_rows_api_plays_shards_that_make_the_whole_run() {
    // The function other front ends (the Python package) call.
    use fuda::engine::{Agent, GameConfig, agent};
    use fuda::lab::shard::Shard;
    use fuda::lab::sim::{SimRun, sim};
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let data = std::sync::Arc::new(fuda::data::load::load_game(dir, "t3").unwrap());
    let names = vec!["random".to_string()];
    let cfg = || {
        let agents: Vec<Box<dyn Agent>> = (0..2)
            .map(|_| agent::parse("random", &data).unwrap())
            .collect();
        GameConfig {
            players: 2,
            seed: 40,
            agents,
            options: Default::default(),
            logging: false,
            tier: Some(fuda::fast::tier(&data)),
        }
    };
    let rows = |shard: Shard, jobs: usize| {
        let how = SimRun {
            games: 5,
            shard,
            swap: true,
            cards: true,
            jobs,
            progress: false,
        };
        let run = sim(data.clone(), &cfg(), &names, &how).unwrap();
        assert!(run.errors.is_empty() && !run.stopped);
        run.rows
    };
    let whole = rows(Shard::default(), 1);
    assert_eq!(whole.games.len(), 10);
    assert!(!whole.cards.is_empty(), "t3 counts its cards");
    assert_eq!(whole.games[9].seed, 44);
    let mut joined = fuda::lab::rows::Rows::default();
    for index in 0..3 {
        let part = rows(Shard { index, count: 3 }, 2);
        joined.games.extend(part.games);
        joined.cards.extend(part.cards);
    }
    assert_eq!(joined.games, whole.games);
    assert_eq!(joined.cards, whole.cards);
    // As columns (what a pyarrow table is built from).
    let t = fuda::lab::table::games_table(&whole.games);
    assert!(t.cols.iter().any(|(name, _)| name == "p2_won"));
}
