//! Loading and compiling games.
//!
//! - `load/all_games`: every game in rules/ with its cards (target: < 50 ms).
//! - `load/10000_cards`: shrine's rules and cards plus 10,000 generated card
//!   files, written to a temporary directory (target: < 1 s).

#[path = "common/mod.rs"]
mod common;

use std::fmt::Write as _;
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

/// One generated card file: a card of one of five kinds, so that the loader
/// parses and compiles effects, abilities, tags and properties.
fn card_file(i: usize) -> String {
    let mut s = String::new();
    let id = format!("gen_{i:05}");
    let cost = 2 + i % 6;
    let _ = writeln!(s, "# generated card {i}");
    let _ = writeln!(s, "- id: {id}");
    let _ = writeln!(s, "  name: 生成カード{i}");
    match i % 5 {
        0 => {
            let _ = writeln!(s, "  text: \"+2 cards, +1 action\"");
            let _ = writeln!(s, "  tags: [action, character]");
            let _ = writeln!(s, "  props: {{cost: {cost}}}");
            let _ = writeln!(
                s,
                "  effects:\n    play: |\n      draw(2)\n      actions += 1"
            );
        }
        1 => {
            let _ = writeln!(s, "  text: \"+1 buy, +2●\"");
            let _ = writeln!(s, "  tags: [action, character]");
            let _ = writeln!(s, "  props: {{cost: {cost}}}");
            let _ = writeln!(
                s,
                "  effects:\n    play: |\n      buys += 1\n      coins += 2"
            );
        }
        2 => {
            let _ = writeln!(s, "  text: \"each other player gains a マイナスカード\"");
            let _ = writeln!(s, "  tags: [action, attack, character]");
            let _ = writeln!(s, "  props: {{cost: {cost}}}");
            let _ = writeln!(
                s,
                "  effects:\n    play: |\n      draw(1)\n      for p in attack() {{\n        gain_for(p, pile(supply, @minus))\n      }}"
            );
        }
        3 => {
            let _ = writeln!(s, "  text: \"{}勝利点\"", 1 + i % 4);
            let _ = writeln!(s, "  tags: [victory, character]");
            let _ = writeln!(s, "  props: {{cost: {cost}, vp: {}}}", 1 + i % 4);
        }
        _ => {
            let _ = writeln!(
                s,
                "  text: \"trash a card from your hand; when trashed, gain a 奉納米\""
            );
            let _ = writeln!(s, "  tags: [action, character]");
            let _ = writeln!(s, "  props: {{cost: {cost}}}");
            let _ = writeln!(
                s,
                "  effects:\n    play: |\n      let c = choose_one(hand, \"trash a card\")\n      if c != none {{ trash(c) }}"
            );
            let _ = writeln!(
                s,
                "  abilities:\n    - on: trash\n      self: true\n      do: gain(pile(supply, @honoumai))"
            );
        }
    }
    s
}

/// Copies a directory tree.
fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for e in std::fs::read_dir(from)? {
        let e = e?;
        let dest = to.join(e.file_name());
        if e.file_type()?.is_dir() {
            copy_tree(&e.path(), &dest)?;
        } else {
            std::fs::copy(e.path(), dest)?;
        }
    }
    Ok(())
}

/// shrine's rules and cards, plus `GENERATED` card files, under `dir`.
fn generate(dir: &Path) -> std::io::Result<()> {
    let rules = dir.join("rules");
    let cards = dir.join("cards").join("shrine");
    std::fs::create_dir_all(&rules)?;
    std::fs::copy(root().join("rules/shrine.yaml"), rules.join("shrine.yaml"))?;
    copy_tree(&root().join("cards/shrine"), &cards)?;
    let generated = cards.join("generated");
    std::fs::create_dir_all(&generated)?;
    for i in 0..GENERATED {
        std::fs::write(generated.join(format!("gen_{i:05}.yaml")), card_file(i))?;
    }
    Ok(())
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
    generate(tmp.path()).expect("write the generated cards");
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
