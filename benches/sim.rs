//! Game throughput.
//!
//! - `bigmoney_mirror`: fuda's shrine Big Money mirror (basic cards only, played
//!   as `fuda sim shrine --agents bigmoney --set big=koumakan --set kingdom=` plays
//!   it: one `Game` renewed for each game) against
//!   the hand-written native baseline in benches/native; prints both games/second
//!   and their ratio.
//! - `sim_jobs`: `fuda::sim::simulate` over 1,000 Big Money games with 1 and 2 threads.
//! - `random_agents`: one game with random agents, for every game in rules/.
//!
//! Every iteration is one whole game with its own seed.

#[path = "native/mod.rs"]
mod native;

#[path = "common/mod.rs"]
mod common;

use std::hint::black_box;
use std::path::Path;
use std::sync::Arc;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use fuda::data::options::resolve as resolve_options;
use fuda::data::{Data, load};
use fuda::engine::{Game, GameConfig, agent};

const SAMPLES: usize = 50;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn load_game(game: &str) -> Arc<Data> {
    match load::load_game(root(), game) {
        Ok(d) => Arc::new(d),
        Err(e) => panic!("{game}: {:?}", e.errors),
    }
}

/// A configuration: `agent` in every seat, `sets` as `--set name=ids`.
fn config(data: &Data, agent: &str, sets: &[(&str, &[&str])]) -> GameConfig {
    let agent = agent::parse(agent, data).expect("known agent");
    let sets = sets
        .iter()
        .map(|(k, ids)| (k.to_string(), ids.iter().map(|s| s.to_string()).collect()))
        .collect();
    let options = match resolve_options(data, sets) {
        Ok(o) => o,
        Err(e) => panic!("{:?}", e.errors),
    };
    let players = data.players.2;
    GameConfig {
        players,
        seed: 0,
        agents: vec![agent; players as usize],
        options,
        logging: false,
        tier: Some(fuda::fast::tier(data)),
    }
}

fn with_seed(cfg: &GameConfig, seed: u64) -> GameConfig {
    GameConfig {
        players: cfg.players,
        seed,
        agents: cfg.agents.clone(),
        options: cfg.options.clone(),
        logging: false,
        tier: cfg.tier.clone(),
    }
}

/// One game in a new `Game`.
fn play(data: &Arc<Data>, cfg: &GameConfig, seed: u64) -> u32 {
    finish(&mut Game::new(data.clone(), with_seed(cfg, seed)), seed)
}

/// One game in `g`, renewed for it with a new seed: how `fuda sim` plays
/// its games (`Tally::add`).
fn replay(g: &mut Game, seed: u64) -> u32 {
    g.renew_seed(seed);
    finish(g, seed)
}

fn finish(g: &mut Game, seed: u64) -> u32 {
    match g.play() {
        Ok(o) => o.turns,
        Err(f) => panic!("seed {seed}: {f:?}"),
    }
}

fn bigmoney_cfg(data: &Data) -> GameConfig {
    config(
        data,
        "bigmoney",
        &[("big", &["koumakan"]), ("kingdom", &[])],
    )
}

fn bigmoney_mirror(c: &mut Criterion) {
    let data = load_game("shrine");
    let cfg = bigmoney_cfg(&data);
    let mut group = c.benchmark_group("bigmoney_mirror");
    group
        .sample_size(SAMPLES)
        .throughput(Throughput::Elements(1));
    // Games played as `fuda sim` plays them: one `Game` renewed for each.
    let mut game = Game::new(data.clone(), with_seed(&cfg, 0));
    group.bench_function("fuda", |b| {
        b.iter_custom(|iters| {
            common::timed("fuda", iters, |i| {
                black_box(replay(&mut game, i));
            })
        })
    });
    group.bench_function("native", |b| {
        b.iter_custom(|iters| {
            common::timed("native", iters, |i| {
                black_box(native::play_game(i));
            })
        })
    });
    group.finish();
    let fuda = common::median_secs("fuda", SAMPLES);
    let native = common::median_secs("native", SAMPLES);
    if let Some(f) = fuda {
        println!("bigmoney_mirror/fuda:   {:>10.0} games/s (median)", 1.0 / f);
    }
    if let Some(n) = native {
        println!("bigmoney_mirror/native: {:>10.0} games/s (median)", 1.0 / n);
    }
    if let (Some(f), Some(n)) = (fuda, native) {
        println!("bigmoney_mirror: native is {:.1}x fuda", f / n);
    }
}

fn sim_jobs(c: &mut Criterion) {
    // Enough games that starting the pool (and each thread's first game) is
    // not what is measured: `fuda sim` users run thousands.
    const GAMES: u64 = 1000;
    let data = load_game("shrine");
    let cfg = bigmoney_cfg(&data);
    let mut group = c.benchmark_group("sim_jobs");
    group
        .sample_size(10)
        .measurement_time(std::time::Duration::from_secs(10))
        .throughput(Throughput::Elements(GAMES));
    for jobs in [1, 2] {
        let name = format!("jobs{jobs}");
        group.bench_function(&name, |b| {
            b.iter_custom(|iters| {
                common::timed(&name, iters, |_| {
                    let s =
                        fuda::sim::simulate(&data, &cfg, GAMES, jobs, false).expect("thread pool");
                    black_box(s.wins);
                })
            })
        });
    }
    group.finish();
    if let (Some(one), Some(two)) = (
        common::median_secs("jobs1", 10),
        common::median_secs("jobs2", 10),
    ) {
        println!(
            "sim_jobs: {:.0} games/s with 1 job, {:.0} with 2: speed-up {:.2}x",
            GAMES as f64 / one,
            GAMES as f64 / two,
            one / two
        );
    }
}

fn random_agents(c: &mut Criterion) {
    let mut group = c.benchmark_group("random_agents");
    group
        .sample_size(SAMPLES)
        .throughput(Throughput::Elements(1));
    let games = load::list_games(root());
    for game in &games {
        let data = load_game(game);
        let cfg = config(&data, "random", &[]);
        let name = format!("random/{game}");
        group.bench_function(game.as_str(), |b| {
            b.iter_custom(|iters| {
                common::timed(&name, iters, |i| {
                    black_box(play(&data, &cfg, i));
                })
            })
        });
    }
    group.finish();
    for game in &games {
        if let Some(s) = common::median_secs(&format!("random/{game}"), SAMPLES) {
            println!("random_agents/{game}: {:.0} games/s (median)", 1.0 / s);
        }
    }
}

criterion_group!(benches, bigmoney_mirror, sim_jobs, random_agents);
criterion_main!(benches);
