//! `fuda sim`: results do not depend on `--jobs`, and `--json` prints exactly
//! one JSON object.

use std::path::Path;
use std::process::Command;

use clap::Parser;
use fuda::cli::{GameArgs, prepare};
use fuda::sim::simulate;

#[derive(Parser)]
struct Args {
    #[command(flatten)]
    game: GameArgs,
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn summary(args: &[&str], games: u64, jobs: usize) -> fuda::sim::Summary {
    let a = Args::parse_from(std::iter::once("sim").chain(args.iter().copied()));
    let (data, cfg) = match prepare(&fuda::data::source::open(Some(root())), &a.game, false) {
        Ok(x) => x,
        Err(code) => panic!("{args:?}: prepare failed ({code:?}): see its report above"),
    };
    simulate(&data, &cfg, games, jobs, false).expect("thread pool")
}

#[test]
fn jobs_do_not_change_results() {
    for args in [
        &["shrine", "--agents", "random", "--seed", "7"][..],
        &["shrine", "--agents", "bigmoney,random", "--seed", "100"][..],
        &["shrine", "--agents", "bigmoney"][..],
    ] {
        let one = summary(args, 40, 1);
        let two = summary(args, 40, 2);
        let all = summary(args, 40, 0);
        assert_eq!(one.errors, 0, "{args:?}: {:?}", one.error_messages);
        assert_eq!(one.wins.iter().sum::<u64>() + one.draws, 40, "{args:?}");
        assert!(one.same_results(&two), "{args:?}: {one:?} vs {two:?}");
        assert!(one.same_results(&all), "{args:?}: {one:?} vs {all:?}");
    }
}

#[test]
fn json_is_one_object() {
    let out = Command::new(env!("CARGO_BIN_EXE_fuda"))
        .args(["--data"])
        .arg(root())
        .args([
            "sim", "shrine", "--games", "12", "--jobs", "2", "--agents", "bigmoney", "--json",
        ])
        .output()
        .expect("run fuda");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).expect("utf-8");
    assert_eq!(text.lines().count(), 1, "{text}");
    let v: serde_json::Value = serde_json::from_str(&text).expect("one JSON object");
    let o = v.as_object().expect("an object");
    for key in ["games", "wins", "draws", "avg_turns", "games_per_sec"] {
        assert!(o.contains_key(key), "no {key} in {text}");
    }
    assert_eq!(o["games"], 12);
    let wins = o["wins"].as_array().expect("wins per seat");
    assert_eq!(wins.len(), 2);
    let total: u64 = wins.iter().map(|w| w.as_u64().expect("a count")).sum();
    assert_eq!(total + o["draws"].as_u64().expect("a count"), 12);
}

/// Threads share compiled code only after `compile_all`: it must reach every
/// piece of code (rules, moves, verbs, triggers, bots, card effects).
#[test]
fn compile_all_compiles_every_code() {
    for game in fuda::data::load::list_games(root()) {
        let data = match fuda::data::load::load_game(root(), &game) {
            Ok(d) => d,
            Err(e) => panic!("{game}: {:?}", e.errors),
        };
        let effects = data
            .defs
            .iter()
            .flat_map(|d| d.effects.iter().flatten())
            .count();
        let least = 3 + data.turn.phases.len() + data.verbs.len() + data.moves.len() + effects;
        assert!(data.codes().count() >= least, "{game}: codes() misses some");
        let tier = fuda::fast::Fast::new(&data);
        fuda::engine::tier::Tier::compile_all(&tier, &data);
        for code in data.codes() {
            assert!(tier.compiled(code), "{game}: code {} not compiled", code.id);
        }
    }
}
