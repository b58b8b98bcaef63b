//! Plays a lab run: every variant's seatings for the same seeds, on worker
//! threads, rows out in a fixed order (the same for any `--jobs`). A run
//! stops early on Ctrl-C and still returns the rows of the games played.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use super::rows::{CardRow, DRAW, ERROR, GameRow, Rows, SeatRow};
use super::shard::Shard;
use crate::data::Data;
use crate::engine::{Flow, Game, GameConfig, RunError};
use crate::value::DefId;

/// One seat's player: who it is and what it plays with.
#[derive(Clone)]
pub struct Seat {
    /// Shared by the seat's card rows.
    pub entrant: Arc<str>,
    pub agent: String,
    /// The seat's own values of options with one value per seat.
    pub options: Vec<(String, DefId)>,
}

/// One arrangement of players around the table.
#[derive(Clone)]
pub struct Seating {
    pub rotation: u32,
    pub cfg: GameConfig,
    pub seats: Vec<Seat>,
}

/// A game's data as a run plays it (a sweep has one per value).
pub struct Variant {
    pub label: String,
    pub data: Arc<Data>,
    pub seatings: Vec<Seating>,
}

/// An error that stopped games: the first of its kind, how many games it
/// stopped, and the first game's seed.
pub struct ErrorGroup {
    pub error: Option<RunError>,
    pub message: String,
    pub count: u64,
    pub first_seed: u64,
    pub variant: usize,
}

pub struct Run {
    pub rows: Rows,
    pub errors: Vec<ErrorGroup>,
    /// Ctrl-C stopped the run before every game was played.
    pub stopped: bool,
    pub planned: u64,
    pub secs: f64,
}

/// Set by Ctrl-C while a run is going.
fn stop_flag() -> &'static Arc<AtomicBool> {
    static FLAG: std::sync::OnceLock<Arc<AtomicBool>> = std::sync::OnceLock::new();
    FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        // Without the handler Ctrl-C ends the process as usual.
        let _ = signal_hook::flag::register(signal_hook::consts::SIGINT, flag.clone());
        flag
    })
}

/// Seats rotated by `r`: seat `s` gets the player of seat `(s + r) % n`,
/// with its agent and its own option values.
pub fn rotate(base: &GameConfig, seats: &[Seat], r: usize) -> Seating {
    let n = seats.len();
    let seats: Vec<Seat> = (0..n).map(|s| seats[(s + r) % n].clone()).collect();
    let mut cfg = base.clone();
    cfg.agents = (0..n).map(|s| base.agents[(s + r) % n].clone()).collect();
    let mut per: HashMap<String, Vec<DefId>> = HashMap::new();
    for s in &seats {
        for (name, d) in &s.options {
            per.entry(name.clone()).or_default().push(*d);
        }
    }
    for (name, ids) in per {
        if ids.len() == n {
            cfg.options.insert(name, ids);
        }
    }
    Seating {
        rotation: r as u32,
        cfg,
        seats,
    }
}

/// Which games a run plays: `games` seeds from `seed`, or a shard's block
/// of them.
#[derive(Debug, Clone, Copy)]
pub struct Plan {
    pub seed: u64,
    pub games: u64,
    pub shard: Shard,
}

/// Plays the plan's seeds in every seating of every variant (per variant,
/// seed by seed, each seed in every seating); `cards`: count per-card
/// moves. `progress`: a bar with an ETA. A game's number is its place in
/// the whole (unsharded) run.
pub fn run(
    variants: &[Variant],
    p: Plan,
    jobs: usize,
    cards: bool,
    progress: bool,
) -> Result<Run, String> {
    let seed = p.seed;
    let mut first = 0;
    let plan: Vec<(usize, usize, u64, u64)> = (variants.iter().enumerate())
        .flat_map(|(v, var)| {
            let n = var.seatings.len() as u64;
            let base = first;
            first += n * p.games;
            (p.shard.games(p.games))
                .flat_map(move |i| (0..n).map(move |s| (v, s as usize, i, base + i * n + s)))
        })
        .collect();
    let planned = plan.len() as u64;
    let bar = crate::sim::progress_bar(progress, planned);
    let stop = stop_flag();
    stop.store(false, Ordering::SeqCst);
    let start = std::time::Instant::now();
    for v in variants {
        if let Some(tier) = v.seatings.first().and_then(|s| s.cfg.tier.as_ref()) {
            tier.compile_all(&v.data);
        }
    }
    let blanks: Vec<Vec<GameRow>> = (variants.iter())
        .map(|var| (var.seatings.iter()).map(|st| blank_row(var, st)).collect())
        .collect();
    let one = |game: &mut Option<Worker>, &(v, s, i, n): &(usize, usize, u64, u64)| {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let out = play_one(game, variants, &blanks[v][s], v, s, i, seed, cards);
        if let Some(b) = &bar {
            b.inc(1);
        }
        Some((out, (v, i, n)))
    };
    let done: Vec<_> = if jobs == 1 {
        let mut g = None;
        plan.iter().map(|j| one(&mut g, j)).collect()
    } else {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(jobs)
            .stack_size(crate::sim::STACK_SIZE)
            .build()
            .map_err(|e| format!("cannot start {jobs} threads: {e}"))?;
        pool.install(|| plan.par_iter().map_init(|| None, one).collect())
    };
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let stopped = stop.load(Ordering::SeqCst);
    let mut rows = Rows::default();
    let mut errors: Vec<ErrorGroup> = Vec::new();
    for (out, (v, i, n)) in done.into_iter().flatten() {
        let (mut game, mut cards, err) = out;
        game.game = n;
        for c in &mut cards {
            c.game = n;
        }
        if let Some((error, message)) = err {
            let key = |g: &ErrorGroup| {
                g.message == message
                    && g.variant == v
                    && g.error.as_ref().map(|e| e.span) == error.as_ref().map(|e| e.span)
            };
            match errors.iter_mut().find(|g| key(g)) {
                Some(g) => g.count += 1,
                None => errors.push(ErrorGroup {
                    error,
                    message,
                    count: 1,
                    first_seed: seed.wrapping_add(i),
                    variant: v,
                }),
            }
        }
        rows.games.push(game);
        rows.cards.extend(cards);
    }
    Ok(Run {
        rows,
        errors,
        stopped,
        planned,
        secs: start.elapsed().as_secs_f64(),
    })
}

type Played = (GameRow, Vec<CardRow>, Option<(Option<RunError>, String)>);

/// A worker's game, kept for the next game of the same variant, with the
/// names its card rows share.
struct Worker {
    variant: usize,
    /// The seating it was last renewed for: the next game in the same one
    /// needs only a new seed.
    seating: usize,
    game: Game,
    label: Arc<str>,
    /// Each card definition's id, by [`DefId`].
    cards: Vec<Arc<str>>,
}

/// What a seating's rows share (its label, options and seats), made once
/// per run rather than once per game.
fn blank_row(var: &Variant, seating: &Seating) -> GameRow {
    let data = &var.data;
    let mut shared: Vec<String> = (seating.cfg.options.iter())
        .filter(|(name, _)| {
            !(seating.seats.iter()).any(|st| st.options.iter().any(|(n, _)| n == *name))
        })
        .map(|(name, ids)| {
            let ids: Vec<&str> = ids.iter().map(|&d| data.def_id(d)).collect();
            format!("{name}={}", ids.join(","))
        })
        .collect();
    shared.sort();
    GameRow {
        game: 0,
        seed: 0,
        variant: var.label.clone(),
        rotation: seating.rotation,
        options: shared.join("; "),
        seats: (seating.seats.iter())
            .map(|st| SeatRow {
                entrant: st.entrant.to_string(),
                agent: st.agent.clone(),
                options: (st.options.iter())
                    .map(|(n, d)| format!("{n}={}", data.def_id(*d)))
                    .collect::<Vec<_>>()
                    .join("; "),
                score: 0,
                won: false,
            })
            .collect(),
        winner: String::new(),
        turns: 0,
        ended: String::new(),
        error: String::new(),
    }
}

#[allow(clippy::too_many_arguments)]
fn play_one(
    cache: &mut Option<Worker>,
    variants: &[Variant],
    blank: &GameRow,
    v: usize,
    s: usize,
    i: u64,
    seed: u64,
    cards: bool,
) -> Played {
    let var = &variants[v];
    let seating = &var.seatings[s];
    let seed = seed.wrapping_add(i);
    let cfg = || GameConfig {
        seed,
        logging: false,
        ..seating.cfg.clone()
    };
    let w = match cache {
        // The same seating as the last game: as `fuda sim` renews its games.
        Some(w) if w.variant == v && w.seating == s => {
            w.game.renew_seed(seed);
            w
        }
        Some(w) if w.variant == v => {
            w.game.renew(&cfg());
            w.seating = s;
            w
        }
        _ => {
            let mut game = Game::new(var.data.clone(), cfg());
            game.count_moves(cards);
            let d = &var.data;
            cache.insert(Worker {
                variant: v,
                seating: s,
                game,
                label: var.label.as_str().into(),
                cards: (0..d.defs.len())
                    .map(|i| d.def_id(i as DefId).into())
                    .collect(),
            })
        }
    };
    let g = &mut w.game;
    let result = g.play();
    let mut row = GameRow {
        seed,
        turns: g.st.turn,
        ..blank.clone()
    };
    let mut err = None;
    match result {
        Ok(o) => {
            for (st, &sc) in row.seats.iter_mut().zip(&o.scores) {
                st.score = sc;
            }
            for &w in &o.winners {
                if let Some(st) = row.seats.get_mut(w as usize) {
                    st.won = true;
                }
            }
            row.winner = match o.winners[..] {
                [w] => format!("P{}", w + 1),
                _ => DRAW.to_string(),
            };
            row.turns = o.turns;
            row.ended = o.ended.word().to_string();
        }
        Err(f) => {
            row.winner = ERROR.to_string();
            row.ended = ERROR.to_string();
            let (e, m) = match *f {
                Flow::Error(e) => {
                    let m = e.message.clone();
                    (Some(e), m)
                }
                other => (None, format!("the game stopped unexpectedly ({other:?})")),
            };
            row.error = m.clone();
            err = Some((e, m));
        }
    }
    let card_rows = if cards && row.finished() {
        card_rows(w, seating, &row)
    } else {
        Vec::new()
    };
    (row, card_rows, err)
}

/// A row per player and card the player gained, played, drew or ended with.
fn card_rows(w: &Worker, seating: &Seating, row: &GameRow) -> Vec<CardRow> {
    let g = &w.game;
    let data = &g.data;
    let n = g.st.nplayers as usize;
    let nd = data.defs.len();
    let mut final_deck = vec![0u32; n * nd];
    for c in 0..g.st.objs.len() {
        let z = g.st.zone_of(c as crate::value::ObjId);
        if !g.st.shared(z.zone) && (z.owner as usize) < n {
            final_deck[z.owner as usize * nd + g.st.objs[c].def as usize] += 1;
        }
    }
    let mut out = Vec::new();
    let Some(counts) = g.move_counts() else {
        return out;
    };
    for p in 0..n {
        for d in 0..nd {
            let get = |k| counts.get(p as u8, k, d as DefId);
            let (gained, played, drawn, fin) = (get(0), get(1), get(2), final_deck[p * nd + d]);
            if gained + played + drawn + fin == 0 {
                continue;
            }
            out.push(CardRow {
                game: 0,
                seed: row.seed,
                variant: w.label.clone(),
                player: p as u32 + 1,
                entrant: seating.seats[p].entrant.clone(),
                card: w.cards[d].clone(),
                gained,
                played,
                drawn,
                final_deck: fin,
                won: row.seats[p].won,
            });
        }
    }
    out
}
