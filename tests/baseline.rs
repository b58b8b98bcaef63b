//! fuda's shrine Big Money mirror against the hand-written native baseline
//! (benches/native): the same game must give the same win rates and game
//! lengths, within sampling error. The random streams differ, so the games do
//! not; only the distributions are compared.
//!
//! `cargo test --test baseline` runs 400 games each; the 2,000-game version is
//! `cargo test --release --test baseline -- --ignored`.

#[path = "../benches/native/mod.rs"]
mod native;

use std::path::Path;

use clap::Parser;
use fuda::cli::{GameArgs, prepare};

#[derive(Parser)]
struct Args {
    #[command(flatten)]
    game: GameArgs,
}

/// The fuda side: `fuda sim shrine --agents bigmoney --set big=koumakan
/// --set kingdom=` (an empty kingdom: basic cards only).
fn fuda_games(seed: u64, games: u64) -> fuda::sim::Summary {
    let seed = seed.to_string();
    let a = Args::parse_from([
        "sim",
        "shrine",
        "--agents",
        "bigmoney",
        "--set",
        "big=koumakan",
        "--set",
        "kingdom=",
        "--seed",
        &seed,
    ]);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (data, cfg) = match prepare(&fuda::data::source::open(Some(root)), &a.game, false) {
        Ok(x) => x,
        Err(code) => panic!("prepare failed ({code:?}): see its report above"),
    };
    let s = fuda::sim::simulate(&data, &cfg, games, 0, false).expect("thread pool");
    assert_eq!(s.errors, 0, "{:?}", s.error_messages);
    s
}

/// |a − b| in standard errors of the difference of two proportions.
fn z_rate(a: u64, b: u64, n: u64) -> f64 {
    let (pa, pb, n) = (a as f64 / n as f64, b as f64 / n as f64, n as f64);
    let se = (pa * (1.0 - pa) / n + pb * (1.0 - pb) / n).sqrt().max(1e-9);
    (pa - pb).abs() / se
}

fn compare(games: u64) {
    let seed = 1;
    let f = fuda_games(seed, games);
    let mut n = native::Summary {
        games,
        ..Default::default()
    };
    let mut turns = Vec::new();
    for i in 0..games {
        let o = native::play_game(seed + i);
        assert!(!o.limit);
        turns.push(o.turns as f64);
        n.turns += o.turns as u64;
        match o.winners[..] {
            [w] => n.wins[w as usize] += 1,
            _ => n.draws += 1,
        }
    }
    assert_eq!(f.turn_limit, 0);
    // The standard error of a difference of means; the spread of game lengths
    // is estimated from the baseline (the same under the hypothesis tested).
    let mean = n.avg_turns();
    let var = turns.iter().map(|t| (t - mean).powi(2)).sum::<f64>() / (games as f64 - 1.0);
    let z_turns = (f.avg_turns - mean).abs() / (2.0 * var / games as f64).sqrt();
    let checks = [
        ("P1 wins", f.wins[0], n.wins[0]),
        ("P2 wins", f.wins[1], n.wins[1]),
        ("shared wins", f.draws, n.draws),
    ];
    let mut report = format!(
        "{games} games: fuda vs native\n  average turns {:.2} vs {:.2} (sd {:.2}, z {z_turns:.2})\n",
        f.avg_turns,
        mean,
        var.sqrt()
    );
    let mut worst = z_turns;
    for (what, a, b) in checks {
        let z = z_rate(a, b, games);
        worst = worst.max(z);
        report += &format!(
            "  {what} {:.1}% vs {:.1}% (z {z:.2})\n",
            100.0 * a as f64 / games as f64,
            100.0 * b as f64 / games as f64
        );
    }
    println!("{report}");
    assert!(
        worst < 3.0,
        "fuda and the native baseline disagree:\n{report}"
    );
}

#[test]
fn bigmoney_matches_native_baseline() {
    compare(400);
}

#[test]
#[ignore = "2,000 games each; run with --release -- --ignored"]
fn bigmoney_matches_native_baseline_2000() {
    compare(2000);
}
