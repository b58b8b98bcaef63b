//! Budgets run out at the same step on both tiers, wherever that step falls.
//!
//! The speed tier takes some work's steps at once where the reference takes
//! them one at a time (a condition decided in place is charged as its frame
//! would be, a walk by its cards), and must stop where the reference stops
//! when the budget ends inside such work. This process caps every game at
//! `FUDA_MAX_GAME_STEPS` (read once a process, hence a test binary of its
//! own), and each game's setup first burns `b` steps (a `repeat` over an
//! option the test adds to the rules), so over `b = 0, 1, 2, …` one seeded
//! game of each game runs out one step earlier each time: at each of the
//! last [`BURNS`] steps of its first [`STEPS`], or at every step of a game
//! that ends sooner (each run replays every step before the one it stops at).
//!
//! `FUDA_BUDGET_BURNS=N` sweeps the last N steps instead (2500: every step
//! of the setup and the first turns).

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use fuda::data::{Data, load};
use fuda::engine::log::Entry;
use fuda::engine::{Game, GameConfig, agent};

mod tiers;
use tiers::{first_difference, lines, state};
#[path = "common/copy_dir.rs"]
mod copy_dir;
use copy_dir::copy_dir;

/// The game's budget: past the setup and into the third turn or later of
/// every game (hyakki's decided move conditions, utage's kept end checks).
const STEPS: u64 = 2500;

/// The burns swept by default, so the steps where games run out.
const BURNS: u64 = 400;

fn burns() -> u64 {
    std::env::var("FUDA_BUDGET_BURNS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(BURNS)
        .min(STEPS)
}

/// The shipped rules with an option `burn` whose cards the setup first
/// counts out, one step each.
fn burning(dir: &Path) {
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("rules"),
        &dir.join("rules"),
    );
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("cards"),
        &dir.join("cards"),
    );
    for game in load::list_games(dir) {
        let file = dir.join(format!("rules/{game}.yaml"));
        let text = std::fs::read_to_string(&file).expect("rules");
        let burn = "  burn: {about: \"steps the setup burns first (a test's)\"}\n";
        let text = match text.contains("\noptions:\n") {
            true => text.replacen("\noptions:\n", &format!("\noptions:\n{burn}"), 1),
            false => text.replacen(
                "\nsetup: |\n",
                &format!("\noptions:\n{burn}\nsetup: |\n"),
                1,
            ),
        };
        let setup = "\nsetup: |\n  repeat count(option(\"burn\")) {}\n";
        assert!(text.contains("\nsetup: |\n"), "{game}: no setup block");
        std::fs::write(&file, text.replacen("\nsetup: |\n", setup, 1)).expect("rules");
    }
}

/// Seed 1 of `data`'s game with random agents, `burn` steps burnt first:
/// its outcome or error (with its span), the state it left, its transcript,
/// and whether it ran out.
fn play(data: &Arc<Data>, burn: usize, reference: bool) -> (String, Vec<Entry>, bool) {
    let mut g = Game::new(data.clone(), config(data, burn, reference));
    let r = g.play();
    (format!("{r:?}\n{}", state(&g)), g.log, r.is_err())
}

fn config(data: &Arc<Data>, burn: usize, reference: bool) -> GameConfig {
    let agents = vec![agent::parse("random", data).expect("agent"); data.players.2 as usize];
    GameConfig {
        players: agents.len() as u8,
        seed: 1,
        agents,
        options: HashMap::from([("burn".to_string(), vec![0; burn])]),
        logging: true,
        tier: (!reference).then(|| fuda::fast::tier(data)),
    }
}

#[test]
fn budgets_run_out_at_the_same_step() {
    let n = burns();
    // SAFETY: set before any game reads it, while no other thread runs.
    unsafe { std::env::set_var("FUDA_MAX_GAME_STEPS", STEPS.to_string()) };
    let dir = tempfile::tempdir().expect("temp dir");
    burning(dir.path());
    let games = load::list_games(dir.path());
    assert!(games.len() >= 5, "{games:?}");
    let jobs = std::thread::available_parallelism().map_or(1, |j| j.get().min(4));
    for game in games {
        let data = Arc::new(load::load_game(dir.path(), &game).unwrap_or_else(|e| panic!("{e:?}")));
        // A game that ends by itself within the budget is swept whole:
        // it runs out at each of its steps, setup first.
        let (first, n) = {
            let mut g = Game::new(data.clone(), config(&data, 0, true));
            match g.play() {
                Ok(_) => (STEPS - g.game_steps() + 1, g.game_steps()),
                Err(_) => (0, n),
            }
        };
        let (first, n) = (first as usize, n as usize);
        let stopped = std::sync::atomic::AtomicUsize::new(0);
        std::thread::scope(|s| {
            for j in 0..jobs {
                let (data, game, stopped) = (&data, &game, &stopped);
                let t = std::thread::Builder::new().stack_size(fuda::limits::STACK_SIZE);
                t.spawn_scoped(s, move || {
                    for burn in (first + j..first + n).step_by(jobs) {
                        let (fast, reference) = (play(data, burn, false), play(data, burn, true));
                        let what = format!("{game} with {burn} steps burnt first");
                        assert!(
                            fast.0 == reference.0,
                            "{what}: results differ: {}",
                            first_difference(&fast.0, &reference.0)
                        );
                        if fast.1 != reference.1 {
                            let (a, b) = (lines(&fast.1), lines(&reference.1));
                            panic!("{what}: transcripts differ: {}", first_difference(&a, &b));
                        }
                        if fast.2 {
                            stopped.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        }
                    }
                })
                .expect("thread");
            }
        });
        // Each burn moves where the game runs out by one step: every game
        // swept runs out.
        let stopped = stopped.into_inner();
        assert_eq!(stopped, n, "{game}: {stopped} of {n} games ran out");
    }
}
