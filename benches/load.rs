//! Loading and compiling games.
//!
//! - `load/all_games`: every game in rules/ with its cards (target: < 50 ms).
//! - `load/10000_cards`: shrine's rules and cards plus 10,000 generated card
//!   files (`benches/load/gen_cards.py`), written to a temporary directory
//!   (target: < 1 s).

#[path = "common/mod.rs"]
mod common;

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use fuda::data::load;

const GENERATED: usize = 10_000;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn load_all(dir: &Path) -> usize {
    let mut defs = 0;
    for game in load::list_games(dir) {
        match load::load_game(dir, &game) {
            Ok(d) => defs += d.defs.len(),
            Err(e) => panic!("{game}: {:?}", e.errors),
        }
    }
    defs
}

/// shrine's rules and cards, plus `GENERATED` card files, under `dir`: the
/// generator `benches/load_cards.sh` uses too.
fn generate(dir: &Path) {
    let ok = std::process::Command::new("python3")
        .arg(root().join("benches/load/gen_cards.py"))
        .arg(dir)
        .arg(GENERATED.to_string())
        .status()
        .is_ok_and(|s| s.success());
    assert!(
        ok,
        "benches/load/gen_cards.py (needs python3) wrote the cards"
    );
}

fn bench_load(c: &mut Criterion) {
    let mut group = c.benchmark_group("load");
    group.bench_function("all_games", |b| {
        b.iter_custom(|iters| {
            common::timed("all_games", iters, |_| {
                black_box(load_all(root()));
            })
        })
    });

    let tmp = tempfile::tempdir().expect("a temporary directory");
    generate(tmp.path());
    let real = match load::load_game(root(), "shrine") {
        Ok(d) => d.defs.len(),
        Err(e) => panic!("{:?}", e.errors),
    };
    match load::load_game(tmp.path(), "shrine") {
        Ok(d) => assert_eq!(d.defs.len(), real + GENERATED),
        Err(e) => panic!("generated cards: {:?}", &e.errors[..e.errors.len().min(5)]),
    }
    group.sample_size(10);
    group.bench_function("10000_cards", |b| {
        b.iter_custom(|iters| {
            common::timed("10000_cards", iters, |_| {
                black_box(load_all(tmp.path()));
            })
        })
    });
    group.finish();
    if let Some(s) = common::median_secs("all_games", 100) {
        println!("load/all_games: {:.2} ms (median; target < 50 ms)", s * 1e3);
    }
    if let Some(s) = common::median_secs("10000_cards", 10) {
        println!(
            "load/10000_cards: {:.0} ms (median; target < 1000 ms)",
            s * 1e3
        );
    }
}

criterion_group!(benches, bench_load);
criterion_main!(benches);
