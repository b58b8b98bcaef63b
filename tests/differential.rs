//! The speed tier plays exactly the games the reference tier plays: every
//! scenario file, and seeded games of every game for each agent kind
//! (random, first, every data bot), run with the speed tier on and off
//! (`reference`), logged and not. Decisions, transcripts, final states,
//! outcomes, the step counter and errors with their spans must all agree.
//!
//! `FUDA_DIFF_SEEDS=N` plays N seeds per game and agent kind (a few by
//! default); `FUDA_DIFF_GAME=utage` narrows the games.

use std::collections::{HashMap, HashSet};
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use fuda::data::{Data, load};
use fuda::engine::log::Entry;
use fuda::engine::{Agent, Game, GameConfig, agent};
use fuda::scenario::{Loaded, Tier, run_file_in};

mod tiers;
use tiers::{first_difference, lines, state};
#[path = "common/copy_dir.rs"]
mod copy_dir;
use copy_dir::copy_dir;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The four ways to run: (reference, logging).
const TIERS: [(bool, bool); 4] = [(false, true), (true, true), (false, false), (true, false)];

/// Runs `one` under every tier: the results (everything but the
/// transcript) of all four must be equal, and the transcripts of the two
/// logged runs.
fn same(what: &str, one: impl Fn(bool, bool) -> (String, Vec<Entry>)) {
    let runs: Vec<(String, Vec<Entry>)> = TIERS.iter().map(|&(r, l)| one(r, l)).collect();
    let check = |a: usize, b: usize, x: &str, y: &str, part: &str| {
        assert!(
            x == y,
            "{what}: {part} differ between {:?} and {:?} (reference, logging): {}",
            TIERS[a],
            TIERS[b],
            first_difference(x, y)
        );
    };
    if runs[0].1 != runs[1].1 {
        check(0, 1, &lines(&runs[0].1), &lines(&runs[1].1), "transcripts");
    }
    for i in 1..4 {
        check(0, i, &runs[0].0, &runs[i].0, "results");
    }
}

fn seeds() -> u64 {
    std::env::var("FUDA_DIFF_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(6)
}

/// A game played to its end: the game, and its outcome or error (with its
/// span and card).
fn play(
    data: &Arc<Data>,
    agents: &[Box<dyn Agent>],
    seed: u64,
    reference: bool,
    logging: bool,
) -> (Game, String) {
    let mut g = Game::new(
        data.clone(),
        GameConfig {
            players: agents.len() as u8,
            seed,
            agents: agents.to_vec(),
            options: HashMap::new(),
            logging,
            tier: (!reference).then(|| fuda::fast::tier(data)),
        },
    );
    let r = g.play();
    let r = format!("{r:?}");
    (g, r)
}

/// What a game left (its outcome, state, steps, decisions), and its transcript.
fn result((g, r): (Game, String)) -> (String, Vec<Entry>) {
    (format!("{r}\n{}", state(&g)), g.log)
}

/// Seeds `0..n` of one game with these agents (`kind` names them) on
/// every tier, spread over a few threads.
fn seeds_agree(game: &str, kind: &str, data: &Arc<Data>, agents: Vec<Box<dyn Agent>>, n: u64) {
    let jobs = std::thread::available_parallelism().map_or(1, |j| j.get().min(4)) as u64;
    std::thread::scope(|s| {
        for j in 0..jobs {
            let agents = &agents;
            s.spawn(move || {
                for seed in (j..n).step_by(jobs as usize) {
                    one_seed(game, kind, data, agents, seed);
                }
            });
        }
    });
}

/// One replay agent per seat, holding the answers a game recorded for that
/// seat's player (recorded as: player from 0, count, then that many picks).
fn replayers(decisions: &[u32], players: usize) -> Vec<Box<dyn Agent>> {
    let mut seats = vec![agent::Replay::default(); players];
    let mut rest = decisions.iter().map(|&d| d as usize);
    let mut n = 0;
    while let (Some(p), Some(k)) = (rest.next(), rest.next()) {
        n += 1;
        seats[p].push(n, rest.by_ref().take(k).collect());
    }
    seats.into_iter().map(|s| Box::new(s) as _).collect()
}

fn one_seed(game: &str, kind: &str, data: &Arc<Data>, agents: &[Box<dyn Agent>], seed: u64) {
    let what = format!("{game} {kind} seed {seed}");
    same(&what, |r, l| result(play(data, agents, seed, r, l)));
    // The speed tier's decisions replayed on the reference tier.
    let fast = play(data, agents, seed, false, true);
    let mut again = Game::new(
        data.clone(),
        GameConfig {
            players: agents.len() as u8,
            seed,
            agents: replayers(&fast.0.decisions, agents.len()),
            options: HashMap::new(),
            logging: true,
            tier: None,
        },
    );
    let r = format!("{:?}", again.play());
    let (a, b) = (result(fast), result((again, r)));
    if a.1 != b.1 {
        panic!(
            "{what}: replayed on the reference tier: {}",
            first_difference(&lines(&a.1), &lines(&b.1))
        );
    }
}

#[test]
fn tiers_play_the_same_games() {
    let only = std::env::var("FUDA_DIFF_GAME").ok();
    let games = load::list_games(root());
    assert!(!games.is_empty());
    for game in games {
        if only.as_ref().is_some_and(|o| *o != game) {
            continue;
        }
        let data = Arc::new(load::load_game(root(), &game).unwrap_or_else(|e| panic!("{e:?}")));
        let mut kinds = vec!["random".to_string(), "first".to_string()];
        kinds.extend(data.bots.iter().map(|(n, _)| n.clone()));
        let parse = |k: &String| agent::parse(k, &data).expect("agent");
        for kind in &kinds {
            let agents = vec![parse(kind); data.players.2 as usize];
            seeds_agree(&game, kind, &data, agents, seeds());
        }
        // The most players the game allows, every kind at the table.
        let agents = (0..data.players.1 as usize)
            .map(|i| parse(&kinds[i % kinds.len()]))
            .collect();
        seeds_agree(&game, "mixed", &data, agents, seeds());
    }
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|x| x == "yaml") {
            out.push(p);
        }
    }
}

#[test]
fn tiers_run_the_same_scenarios() {
    let mut files = Vec::new();
    collect(&root().join("tests/scenarios"), &mut files);
    files.sort();
    assert!(!files.is_empty());
    let jobs = std::thread::available_parallelism().map_or(1, |j| j.get().min(4));
    std::thread::scope(|s| {
        for j in 0..jobs {
            let files = &files;
            s.spawn(move || {
                let loaded = Loaded::new(fuda::data::source::open(Some(root())));
                for file in files.iter().skip(j).step_by(jobs) {
                    same_scenario(&loaded, file);
                }
            });
        }
    });
}

/// One scenario file run on every tier.
fn same_scenario(loaded: &Loaded, file: &Path) {
    same(
        &file.display().to_string(),
        |reference, logging| match run_file_in(loaded, file, Tier { reference, logging }) {
            Ok(r) => (
                format!(
                    "{:?}\n{:?}\n{} unused\n{:?}\nerror {:?}\n{}",
                    r.outcome,
                    r.stopped,
                    r.unused,
                    r.failures,
                    r.error
                        .as_ref()
                        .map(|e| (&e.message, e.span, &e.label, &e.help)),
                    state(&r.game)
                ),
                r.game.log,
            ),
            Err(e) => (format!("{:?}", e.errors), Vec::new()),
        },
    );
}

/// A copy of the shipped data in `dir` with a shrine card `id` whose play
/// effect is `code`, and a scenario that plays it.
fn card_played(dir: &Path, id: &str, code: &str) -> PathBuf {
    for sub in ["rules", "cards/shrine"] {
        std::fs::create_dir_all(dir.join(sub)).expect("data dir");
        for e in std::fs::read_dir(root().join(sub)).expect("read").flatten() {
            if e.path().is_file() {
                std::fs::copy(e.path(), dir.join(sub).join(e.file_name())).expect("copy");
            }
        }
    }
    let body: String = code.lines().map(|l| format!("    {l}\n")).collect();
    std::fs::write(
        dir.join(format!("cards/shrine/{id}.yaml")),
        format!("id: {id}\nname: {id}\ntags: [action]\neffects:\n  play: |\n{body}"),
    )
    .expect("card");
    let file = dir.join(format!("{id}.yaml"));
    std::fs::write(
        &file,
        format!(
            "game: shrine\nzones:\n  supply: {{osaisen: 10, honoumai: 5}}\n  p1:\n    hand: [{id}, osaisen, honoumai]\n    deck: [osaisen, omiki, osaisen]\n    discard: [omiki]\ncounters:\n  p1: {{actions: 1}}\nphase: action\ndecisions: [play {id}]\n"
        ),
    )
    .expect("scenario");
    file
}

/// Code that fails at run time fails the same way on both tiers: the same
/// message at the same span, after the same work.
#[test]
fn tiers_fail_the_same_way() {
    // A value of the wrong kind is held in a `let` where the code would
    // show it: written in place, `fuda check` refuses it at load
    // (tests/bad_input/check-*), and this tests the run time.
    let cases = [
        "let x = \"x\"\ncoins += x",
        "actions = none",
        "let h = hand\ncoins += h",
        "move(1, hand)",
        "let five = 5\nmove(top(deck), five)",
        "move(top(deck(5)), hand)",
        "repeat 200000 { coins += 1 }",
        "let x = \"x\"\nrepeat x { coins += 1 }",
        "let n = 0\nwhile true { n += 1 }",
        "coins += 1 / 0",
        "if 5 is action { coins += 1 }",
        "for x in hand where it is resource { move(x, discard) }\nlet y = top(discard)\ncoins += y.cost + y",
        "for x in 3 { coins += 1 }",
        "let c = top(deck)\nlet p = me\nif c.zone == deck(p) and hand != c.zone { coins += 1 }\nlet n = none\nif n.zone == hand { coins += 1 }",
        "let c = top(deck)\nlet p = 7\nif deck(p) == c.zone { coins += 1 }",
        "let s = \"x\"\nlet c = top(deck)\nif c.cost + 1 > coins - 1 { coins += 1 }\nif count(hand) + count(deck) - coins > 0 { coins += 2 }\ncoins += c.cost + actions\nif s + 1 == \"x1\" { coins += 1 }\nlet n = none\nif n.cost + 1 >= 1 { coins += 1 }",
        "let p = 7\nif count(hand) + count(deck(p)) > 0 { coins += 1 }",
        // Sums folded left in place: a sum on the right, saturating ends,
        // an operand not a number late in the fold.
        "let c = top(deck)\nlet big = 9223372036854775807\nif big + c.cost + 1 - big > 0 { coins += 1 }\nif 1 - (c.cost + big) < 0 { coins += 1 }\nif coins - (actions - (1 + c.cost)) + big > 0 { coins += 1 }\nlet s = \"x\"\nif c.cost + 1 + s == \"x\" { coins += 1 }",
        "let c = top(deck)\nlet s = \"x\"\nif coins + c.cost - s > 0 { coins += 1 }",
        "let p = 7\nif not empty(hand) and count(hand where it is action) > 0 { coins += 1 }\nif empty(deck(p)) { coins += 1 }",
        "let p = 7\ncoins += count(hand where it is action)\ncoins += count(deck(p) where it is action)",
        "let c = first(choose(hand, 0, 0))\nlet d = first(choose(me, hand, 1, 2, \"pick\"))\nif c == none and d != none { coins += 1 }\nlet two = 2\nlet e = first(choose(hand, two, 1))",
        "let c = top(deck)\nif c.zone == deck(c.owner) and hand(c.owner) != c.zone { coins += 1 }\nif \"a\" == \"a\" and 1 != none { coins += 1 }\nlet n = none\nif c.zone == deck(n.owner) { coins += 1 }",
        "repeat 2 { if count(deck) < 1 { move_together(discard, deck); shuffle(deck) }; move(top(deck), hand, \"draw\") }\ncoins += count(5)",
        "run(me, \"play\")",
        // Marks used as values: the compiled call's own operation.
        "let c = top(deck)\nlet a = mark(c, \"action\")\nif c is action { coins += 1 }\nlet b = unmark(c, \"action\")\nif c is action { coins += 10 }\nlet d = mark([c, top(hand)], \"action\")\nlet e = unmark(top(hand), \"action\")\ncoins += count(deck where it is action) * 100 + count(hand where it is action) * 1000 + a",
        "coins += sum(hand, it.cost) + sum(3, it)",
        "let four = 4\ncoins += any(hand, it is resource) + 1\ncoins += sum(supply + four, it.cost)",
        "let z = \"z\"\nfor p in players() { p.coins += z }",
        "draw(2)\ngain(@honoumai)\ncoins += first(hand).cost + \"a\"",
        "repeat 100000 { repeat 60 { let a = 1 } }",
        // Whole zones moved to a zone the code computes, then to no zone.
        "move_together(hand, discard(next_player(me)))\nmove_together(deck, hand(next_player(me)), \"draw\")\nlet five = 5\nmove_together(discard, first([five]))",
        // Verbs the speed tier inlines and runs as shapes, given bad values.
        "let x = \"x\"\ndraw(x)",
        "draw(200000)",
        "let five = 5\ndraw_for(five, 2)",
        "draw_for(me, 2)\ngain(5)",
        "let h = hand\nreveal_top(none)\nlook_top(h)",
        "coins += 1\nactions += 1\ndraw(1)\ncoins += top(hand)",
        // A counted `while` loop of the top card, run as `repeat`.
        "let i = 0\nwhile i < 200000 { move(top(deck), hand, \"draw\")\ni += 1 }",
        "let n = \"x\"\nlet i = 0\nwhile i < n { move(top(deck), hand, \"draw\")\ni += 1 }",
        "let n = 5\nlet x = \"x\"\nlet i = 0\nwhile i < n { if count(deck) < 1 { move_together(discard, deck); shuffle(deck) }\nmove(top(deck), hand, \"draw\")\ni += 1 }\nrepeat x { coins += i }",
        "let i = 0\nwhile i < 3 { if count(deck) == 0 { return none }\nmove(top(deck), hand, \"draw\")\ni += 1 }\ncoins += i + \"a\"",
        // Filters and searches of sums of zones, attached cards, players,
        // read in place; conjunctions with leading tag tests; tail returns.
        "coins += count((hand + deck + discard) where it is resource and it is not action and it.cost <= 3)\ncoins += count((hand + deck(5)) where it is resource)",
        "if any(hand + discard, it is resource and it.cost > 100) { coins += 1 }\nlet five = 5\ncoins += count((hand + discard + five) where it is resource)",
        "coins += count(attached(me) where it is resource) + count(attached(top(hand)) where it.cost > 0)\ncoins += count(hand where it.cost + hand)",
        "coins += count([1, 2] where it is resource)",
        // A host's cards attached out of id order are listed in id order.
        "let h = top(discard)\ncreate(@omiki, trash, 1)\ncreate(@osaisen, trash, 1)\nfor c in trash where it.cost == 0 { attach(c, h) }\nfor c in trash where it.cost == 6 { attach(c, h) }\ncoins += first(attached(h) where it.cost >= 0 and it is resource).cost\nlog(first(attached(h) where it is resource).name)",
        "if empty(hand where it is resource and it.cost > 100) { coins += 1 }\ncoins += count([top(hand), 3] where it is action and it.cost >= 0)",
        "if any(others(), it.coins > 5) { coins += 1 }\ncoins += any(players(), it.coins + hand)",
        "if count(hand) > 100 { return 1 }\ncoins += 1\nif coins + hand { return 2 }\nreturn 3",
        // A local's field compared in order with a number read in place;
        // `==` of values; `any` of one zone read in place.
        "for p in players() { if p.coins >= 0 and p.actions < 5 { coins += 1 } }\nfor x in hand { if x.cost <= coins { coins += 1 } }\nfor x in hand { if x.name < count(deck(5)) { coins += 1 } }",
        "for x in hand { if x.name < 3 { coins += 1 } }",
        "for x in [1, none] { if x.cost < actions { coins += 1 } }",
        "if top(hand) == @osaisen and hand != none and top(hand) != top(deck) { coins += 1 }\nlet a = \"a\"\ncoins += (me == 3) + a",
        "if any(hand, it is resource and it.cost > 100) { coins += 1 }\nif any(discard, it.cost >= 0) { coins += 1 }\ncoins += any(hand, it.cost + hand)",
        "if any(deck(5), it is resource) { coins += 1 }",
        // Names compared in place: of cards, card ids, players, none, strings.
        "for x in hand { for y in [top(hand), top(hand).id, top(deck), me, none] { if x.name == y.name { coins += 1 }\nif y.name != \"osaisen\" { coins += 1 }\nif \"omiki\" == y.name { coins += 1 } } }\nif any(hand, it.name == me.name) { coins += 1 }",
        "let n = 5\nfor x in hand { if x.name == n.name { coins += 1 } }",
        "let n = 5\nfor x in hand { if n.name != x.name { coins += 1 } }",
        "let n = 5\nif \"a\" == n.name { coins += 1 }",
        // `first` and `next_player` with no argument list made.
        "coins += first(hand).cost + first([2, 3])\nif next_player(me) == me { coins += 1 }\ncoins += first(5)",
        "let x = \"x\"\ncoins += first(none) + next_player(x)",
        // `run` with a player and a target, run with no argument list.
        "run(top(hand), \"play\", me, 5)\nrun(none, \"play\", 5)\nrun(top(hand), \"play\", 5)",
        "run(5, \"play\", me, top(hand))",
        // `mark` and `unmark` of a sum of zones, tagged in place.
        "mark(hand + hand(next_player(me)), \"action\")\ncoins += count(hand where it is action)\nunmark(hand + hand + hand(next_player(me)), \"action\")\ncoins += count(hand where it is action)\nunmark(hand + hand, \"resource\")\ncoins += count(hand where it is resource)",
        "mark(hand + discard, \"action\")",
        "let five = 5\nmark(hand + deck(five), \"action\")",
        "create(@osaisen, hand, 20000)\nwhile true { mark(hand + hand, \"action\") }",
        "mark(top(hand), \"action\")\ncoins += count(hand where it is action)\nmark([top(hand), none], \"attack\")\nmark(none, \"action\")\ncoins += count(hand where it is attack)\nunmark(hand, \"action\")\ncoins += count(hand where it is action)\nmark(5, \"action\")",
        // `emit` with a player, an amount and a target, built in place.
        "coins += emit(\"gain\", top(hand), me, 3) + emit(\"draw\", top(hand), me, 2, top(hand))\nif emit(\"look\", top(hand), 5) { coins += 1 }\ncoins += emit(\"gain\", top(hand), me, 0) + emit(\"draw\", none, none, none)",
        "let x = \"x\"\ncoins += emit(\"draw\", top(hand), me, x)",
        // Log lines measured, not built, when no transcript is kept.
        // Strings of exactly the limit, then one byte over.
        "let a = \"xxxxxxxxxx\"\nrepeat 3 { a = a + a + a + a + a + a + a + a + a + a }\nlet b = \"\"\nrepeat 999 { b = b + \"xxxxxxxxxx\" }\nrepeat 99 { b = b + a }\nlog(b + \"xxxxx\" + 12345)\nlog(b + -123456789)\nlog(b + true + \"xxxxxx\")\nlog(b + \"x\" + @osaisen)\nlog(b + \"x\" + top(discard).name)\nlog(b + \"x\" + top(discard))\nlog(b + \"xx\" + top(discard))",
        "let a = \"xxxxxxxxxx\"\nrepeat 3 { a = a + a + a + a + a + a + a + a + a + a }\nlet b = \"\"\nrepeat 999 { b = b + \"xxxxxxxxxx\" }\nrepeat 99 { b = b + a }\nlog(b + \"xxxxx\" + 12345)\nlog(b + -123456789)\nlog(b + true + \"xxxxxx\")\nlog(b + \"x\" + @osaisen)\nlog(b + \"x\" + top(discard).name)\nlog(b + \"x\" + top(discard))\nlog(b + -1234567890)",
        "log(\"a\" + coins + \" \" + top(hand).name + me + [1, none] + true + deck + @honoumai + -5)\nlet h = hand\nlog(1 + 2 + \"b\" + (3 + h))",
        "log(top(hand).name + top(hand).cost + 1)\nlog(hand + deck)\nlog(5 + 5)\nlog(top(hand) + 1)",
        "log(me.name + \"!\" + top(hand).id.name + none.name)\nlog(\"c\" + me.cost)",
        // Moves of whole zones and of lists pay a step a card, moved in
        // place or not: the turn's steps run out at the same move.
        "create(@osaisen, deck, 100000)\nwhile true { move_together(deck, hand)\nmove(hand, deck) }",
        "create(@osaisen, discard, 100000)\nwhile true { draw(5)\nmove_together(deck, discard)\nput_discard(hand) }",
        "create(@osaisen, deck, 100000)\nlet l = deck + []\nmove(l, hand)\nlet m = hand + []\nwhile true { move(m, deck)\nmove(l, hand) }",
        // A card taken from deep in a zone, or put at its bottom, pays a
        // step a card it passes over: the steps run out at the same move.
        "create(@osaisen, deck, 100000)\nwhile true { move(bottom(deck), deck) }",
        "create(@osaisen, deck, 100000)\nwhile true { move(top(deck), deck, \"draw\", \"bottom\") }",
        "create(@honoumai, deck, 1)\ncreate(@osaisen, deck, 100000)\nwhile true { for c in deck where it == @honoumai { move(c, hand) }\nmove(top(hand), deck, \"draw\", \"bottom\") }",
        // A list logged alone pays for its text past a KiB, with or without
        // a transcript: the steps run out at the same line.
        "create(@osaisen, deck, 1000)\nlet l = deck + []\nwhile true { log(l)\nlog(\"x\" + l) }",
        // Lists compared item by item, and lists built-ins make, pay past
        // 64 items: the steps run out at the same comparison.
        "create(@osaisen, deck, 1000)\nlet l = deck + []\nlet m = deck + []\nwhile true { if l == m and l != [1] { coins += 1 }\nif contains([l, m], m) { coins += 1 }\ncoins += count(top(deck, 500)) }",
        // The board's readers in a game that declares no board.
        "if square_kind(1) == \"a\" { coins += 1 }",
        "coins += square_card(0).cost",
        "coins += count(squares(\"land\") where it > 0)",
        // Locals compared in place, in order and by value.
        "let lv = 2\nif lv <= 1 or lv != 2 or lv == none { coins += 1 }\nlet s = \"a\"\nif s == \"a\" and s < 3 { coins += 1 }",
        "let l = [1, 2]\ncoins += count([[1, 2], 3, none, [1, 2]] where it == l) + count([1, 3] where it != 3)\ncoins += count([1, \"a\", 3] where it < 2)",
        "create(@osaisen, deck, 1000)\nlet l = deck + []\nlet m = [l, l, l, l]\nwhile true { coins += count(m where it == l) }",
        // A list collected in a local (`l = l + [..]`, grown in place by the
        // speed tier): a copy held elsewhere keeps its items, `+` of a zone
        // or a list, each pays for the items copied, the steps run out at
        // the same append; then `+` of other kinds, and past the list limit.
        "let l = []\nlet k = l\nfor c in hand { l = l + [c, c.cost] }\nk = l\nl = l + [none]\nl = l + discard\nl = l + k\ncoins += count(l) + count(k)\nif count(k) == count(l) { coins += 100 }\nrepeat 10 { l = l + [count(l)] }\ncoins += count(l)",
        "let l = [1]\nwhile true { l = l + [count(l)] }",
        "let x = 5\nx = x + [1]",
        "let x = [1]\nx = x + top(hand)",
        "let x = [1]\nx = x + []\nx = x + deck(5)",
        "let x = [1]\nx = x + [2, deck(5)]",
        "create(@osaisen, deck, 250000)\nlet l = deck + []\nl = l + l\nl = l + l\ncoins += count(l)\nl = l + [1]",
        "create(@osaisen, deck, 300000)\nlet l = deck + []\nl = l + l\nl = l + l",
        // A sum of zones as a value, made once at its size by the speed
        // tier: its items in order, kept and grown in a local, summed by a
        // property (items not cards read by the body); the steps run out at
        // the same `+` of long zones, past the list limit at the same `+`,
        // and a zone found by code fails after the zones before it.
        "draw(3)\nlet l = hand + deck + discard\nlog(l)\ncoins += count(l) + sum(l, it.cost)\nlet m = l + hand\nm = m + [1]\nlog(m)\ncoins += count(m) + sum(hand + discard, it.cost) + sum([@osaisen, top(hand)], it.cost)\nlet k = hand + discard(next_player(me))\nlog(k)",
        "coins += sum([top(hand), 2], it.cost)",
        "create(@osaisen, deck, 5000)\nlet l = hand + deck\ncoins += count(l)\nwhile true { l = hand + deck + discard + deck\ncoins += sum(l, it.cost) }",
        "create(@osaisen, deck, 300000)\nlet l = hand + deck + deck + deck + deck",
        "let p = 7\nlet l = hand + discard + deck(p)",
        // A list written out and indexed, made on the speed tier's stack:
        // past the end, negative, then an index and an item of the wrong kind.
        "let i = 2\ncoins += at([1, coins, 3], i) + at([top(hand).cost, 2], i - 1)\nif at([1], 5) == none and at([4], -1) == none { coins += 1 }\nlet x = \"x\"\ncoins += at([1, 2], x)",
        "coins += at([1, count(deck(5))], 0)",
        // `run(card, effect)`'s value, of a card in a slot: the effect run with
        // the card as `this` (of none, nothing run); then of a number.
        "coins += 1\nif coins < 3 { let c = this\nlet r = run(c, \"play\") }\nlog(this)\nlet n = none\nlet m = run(n, \"play\")\nlet k = 5\nlog(run(k, \"play\"))",
    ];
    let dir = tempfile::tempdir().expect("temp dir");
    // Spread over a few threads; each case's copy of the data loaded once
    // for its four runs.
    let jobs = std::thread::available_parallelism().map_or(1, |j| j.get().min(4));
    std::thread::scope(|s| {
        for j in 0..jobs {
            let (cases, dir) = (&cases, dir.path());
            s.spawn(move || {
                for (i, code) in cases.iter().enumerate().skip(j).step_by(jobs) {
                    fails_the_same_way(dir, i, code);
                }
            });
        }
    });
}

/// A card's effect run as a value that is one `return e` which only reads
/// is compiled into its caller by the speed tier, no frame of its own: the
/// same value (`this` the card run, not the caller's), steps, spans and
/// failures as the frame the reference runs it in (the card given a `setup`
/// effect, run on a copy of it).
#[test]
fn ran_effects_fail_the_same_way() {
    let run = "create(@{id}, discard, 1)\nlet c = top(discard)\n";
    let cases = [
        (
            "return count(discard where it == this) * 10 + count(hand where it != this)",
            "coins += run(c, \"setup\")\nlet n = none\nif run(n, \"setup\") == none { coins += 100 }",
        ),
        ("return count(5)", "coins += run(c, \"setup\")"),
        (
            "return count(hand where it != this) + count(discard where it == this)",
            "while true { coins += run(c, \"setup\") }",
        ),
    ];
    let dir = tempfile::tempdir().expect("temp dir");
    for (i, (setup, code)) in cases.iter().enumerate() {
        let data = dir.path().join(format!("case{i}"));
        let id = format!("ran_{i}");
        let code = run.replace("{id}", &id) + *code;
        let file = card_played(&data, &id, &code);
        let card = data.join(format!("cards/shrine/{id}.yaml"));
        let text = std::fs::read_to_string(&card).expect("card");
        std::fs::write(
            &card,
            format!("{text}  setup: \"{}\"\n", setup.replace('"', "\\\"")),
        )
        .expect("card");
        fails_in(&data, &file, &format!("ran case {i}: {setup} / {code}"));
    }
}

/// An ability found alone resolves with the answer its condition gave a
/// moment before (the speed tier decides it once): still only while its
/// card is in the ability's zone, which a `self: true` ability's card need
/// not be when the event about it happens.
#[test]
fn held_conditions_resolve_the_same_way() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path().join("held");
    let code = "emit(\"reveal\", this)\nmove(this, hand)\nemit(\"reveal\", this)";
    let file = card_played(&data, "held_zone", code);
    let card = data.join("cards/shrine/held_zone.yaml");
    let text = std::fs::read_to_string(&card).expect("card");
    let ability = "abilities:\n  - on: reveal\n    self: true\n    zone: hand\n    \
                   if: \"coins >= 0\"\n    do: \"coins += 5\"\n";
    std::fs::write(&card, format!("{text}{ability}")).expect("card");
    fails_in(&data, &file, "held: self ability with a zone");
}

/// A filter's part that does not read the item, in a condition that only
/// reads the game, is worked out once and kept for the other items by the
/// speed tier: the same truth, steps, spans and failures as running it for
/// each (verbs that only read, added to the rules for these cases).
#[test]
fn kept_parts_fail_the_same_way() {
    let verbs = "  held:\n    do: \"return count(discard where it.cost >= 0)\"\n  \
                 bad:\n    do: \"return count(5)\"\n  \
                 far:\n    params: [n]\n    do: \"return count(deck where it.cost >= n)\"\n";
    let cases = [
        // The steps run out while the kept part is charged for each item.
        "create(@osaisen, deck, 100000)\nwhile true { coins += count(deck where it.cost >= 0 and held() > 0) }",
        "create(@osaisen, deck, 2000)\nwhile true { coins += count(deck where far(0) > 0 and it.cost >= 0) }",
        // A part that fails, one that never holds, one read after others.
        "coins += count(deck where it.cost >= 0 and bad() > 0)",
        // The span the part left, read by a part after it that fails.
        "coins += count([top(deck), top(deck), 5] where held() > 0 and it.cost >= 0)",
        "coins += count(deck where held() > 100)\ncoins += count(hand where it is resource and not empty(hand where far(it.cost) > 0))",
        "for x in deck where held() > 0 and it.cost >= 0 { move(x, discard) }\nlet h = hand\ncoins += count(discard) + h",
        // A condition that is the kept part alone: the other items' steps
        // charged at once, or each in turn where they do not all fit.
        "create(@osaisen, deck, 2000)\nwhile true { coins += count(deck where held() > 0) }",
        "create(@osaisen, discard, 3)\nwhile true { coins += count(deck where held() > 3) + count(hand where held() > 0) }",
        "for x in hand where not empty(discard where far(0) > 0) { move(x, discard) }\ncoins += count(discard)",
    ];
    fail_with_verbs("kept", verbs, &cases);
}

/// `count` and `empty` of a verb that returns one `list where cond` count
/// its items in the speed tier, no list made: the same steps, spans and
/// failures as the list the reference makes.
#[test]
fn counted_verbs_fail_the_same_way() {
    let verbs = "  costly:\n    params: [n]\n    do: \"return deck where it.cost >= n\"\n  \
                 five:\n    do: \"return 5 where it.cost >= 0\"\n  \
                 picked:\n    params: [n]\n    do: |\n      if n > 5 { return deck where it.cost >= n }\n      \
                 for c in hand { if c.cost == n { return hand where it.cost == n } }\n      \
                 if n == 0 { return [] }\n      if n == 1 { return deck }\n      if n == 2 { return 5 }\n      \
                 return discard where it.cost >= 0\n  \
                 bare:\n    params: [n]\n    do: |\n      if n > 0 { return }\n      return deck where it.cost >= 0\n  \
                 falls:\n    params: [n]\n    do: |\n      if n > 0 { return deck where it.cost >= 0 }\n  \
                 first_cost:\n    params: [n]\n    do: \"return first(deck where it.cost >= n)\"\n  \
                 nothing:\n    do: \"return first([none, 3] where it != 3)\"\n";
    let cases = [
        // A verb with other returns beside its filters, counted in a value
        // and in a comparison; bare returns and a fall off the end.
        "coins += count(picked(0)) + count(picked(1)) + count(picked(6)) + count(picked(3))\nif empty(picked(3)) { coins += 1 }\nif count(picked(4)) > 0 { coins += 1 }\nif count(picked(9)) == 0 and not empty(picked(1)) { coins += 1 }",
        "if count(picked(3)) > 0 { coins += 1 }\ncoins += count(picked(2))",
        "create(@osaisen, deck, 100000)\nwhile true { if count(picked(7)) > 0 { coins += 1 } }",
        "coins += count(bare(0)) + count(falls(1))\nif count(bare(1)) == 0 and empty(falls(0)) { coins += 1 }",
        // A filter counted in a comparison.
        "if count(deck where it.cost >= 0) > 2 { coins += 1 }\ncreate(@osaisen, deck, 100000)\nwhile true { if count(deck where it.cost >= 0) > 0 { coins += 1 } }",
        "let x = \"x\"\nif count(hand where it.cost > x) > 0 { coins += 1 }",
        "coins += count(costly(0)) + count(costly(3))\nif empty(costly(100)) { coins += 1 }",
        "create(@osaisen, deck, 100000)\nwhile true { if not empty(costly(0)) { coins += 1 } }",
        "let x = \"x\"\ncoins += count(costly(x))",
        "coins += count(five())",
        "if empty(five()) { coins += 1 }",
        // The first of a zone's cards that pass, counted as that probe; the
        // first of a list (an item may be none) counted as its value.
        "coins += count(first_cost(0)) + 10 * count(first_cost(100)) + 100 * count(nothing())\nif empty(first_cost(100)) and not empty(first_cost(0)) and empty(nothing()) { coins += 1000 }",
        "create(@osaisen, deck, 100000)\nwhile true { if not empty(first_cost(100)) { coins += 1 } }",
        "let x = \"x\"\nif empty(first_cost(x)) { coins += 1 }",
    ];
    fail_with_verbs("counted", verbs, &cases);
}

/// `first`, `count` and `empty` of a zone's cards that pass a test of pure
/// reads, decided in place by the speed tier (`src/fast/pick.rs`): the same
/// values, steps, spans and failures as the filter's list.
#[test]
fn zone_wheres_fail_the_same_way() {
    let verbs = "  fighter:\n    do: \"return first(hand where it is action or it.cost > 2)\"\n  \
                 none_of:\n    params: [p]\n    do: \"return first(hand(p) where it.cost >= 0)\"\n  \
                 costs:\n    params: [c]\n    do: \"return c.cost >= 0\"\n";
    let cases = [
        "let c = first(hand where it is action)\nif c != none { coins += 1 }\ncoins += count(deck where it is resource)\nif empty(discard where it.cost > 100) { coins += 1 }\nif not empty(fighter()) { coins += 1 }\nlet d = first(deck where it.cost > 100)\nif d == none { coins += 1 }",
        "let p = me\nif first(hand(p) where not (it is action)) != none { coins += count(hand(p) where it.cost >= 1 and not (it is victory)) }",
        "create(@osaisen, deck, 100000)\nwhile true { if first(deck where it.cost >= 0) != none { coins += 1 } }",
        "create(@osaisen, deck, 100000)\nwhile true { if empty(deck where it.cost > 100) { coins += 1 } }",
        "create(@osaisen, deck, 100000)\nwhile true { coins += count(deck where it is resource) }",
        "let x = \"x\"\nlet c = none_of(x)",
        "if first(hand where move == \"x\") == none { coins += 1 }",
        // Tags joined by `and`, read as masks.
        "coins += count(deck where it is resource and it is not victory) + count(hand where it is action and it is resource)\nif first(deck where it is resource and it is not action) != none { coins += 1 }\nif empty(hand where it is action and it is not resource) { coins += 1 }",
        // Leading tag tests before other parts, as masks: all of, none of, one of.
        "coins += count(hand where it is resource and not (it is action or it is victory) and (it is resource or it is attack) and costs(it))\ncoins += 10 * count(deck where it is not action and it is not victory and costs(it))\ncoins += 100 * count((hand + deck) where (it is action or it is reaction) and costs(it))\ncoins += 1000 * count(discard where it is resource and it is victory and costs(it))",
    ];
    fail_with_verbs("wheres", verbs, &cases);
}

/// A verb call tested as a condition: its `if c { return x }` arms and its
/// last return compiled as conditions (no value made) in the speed tier,
/// with the same steps, spans and failures as testing the value returned.
#[test]
fn tested_verbs_fail_the_same_way() {
    let verbs = "  tested:\n    params: [n, c]\n    do: |\n      if n == 0 { return false }\n      \
                 if n == 1 { return c.cost }\n      let k = n * 2\n      if k == 4 { return none }\n      \
                 if k == 6 { return hand }\n      if k == 8 { return \"\" }\n      if k == 10 { return c.cost + 1 > k }\n      \
                 if k == 12 { return 1 / 0 }\n      if c.cost + k > 100 { return count(5) }\n      return true\n  \
                 bare:\n    params: [n]\n    do: |\n      if n > 0 { return true }\n      if n < 0 { return }\n      return false\n  \
                 one:\n    params: [c]\n    do: \"return c.cost > 1 and c is resource\"\n  \
                 bad2:\n    params: [x]\n    do: |\n      if x == 0 { return false }\n      return x.cost > 0\n";
    let cases = [
        "let c = top(deck)\nlet n = 0\nwhile n < 9 { if tested(n, c) { coins += 1 }\nif not tested(n, c) { actions += 1 }\nn += 1 }",
        "let c = top(deck)\nif tested(6, c) { coins += 1 }",
        "let c = top(deck)\nif tested(51, c) { coins += 1 }",
        "let c = top(deck)\nif tested(1, none) { coins += 1 }",
        "if bare(1) and not bare(0) and not bare(-1) { coins += 1 }\nlet c = top(deck)\nif one(c) or one(top(hand)) { coins += 1 }\nif one(5) { coins += 1 }",
        "create(@osaisen, deck, 100000)\nlet c = top(deck)\nwhile true { if tested(2, c) { coins += 1 } }",
        "let c = top(deck)\ncoins += count(hand where tested(3, it) and tested(4, c))",
        // The same arms whose value is kept.
        "let c = top(deck)\nlet n = 0\nwhile n < 6 { let v = tested(n, c)\nif v == none or v == false { coins += 1 }\nn += 1 }\nlet w = tested(6, c)",
        "let c = top(deck)\nlet v = tested(51, c)\nlet x = \"x\"\nlet w = tested(x, c)",
        "let c = top(deck)\nlet v = tested(none, c)",
        // A verb that binds nothing, its chain one closure with the call.
        "let five = 5\nif bad2(five) { coins += 1 }",
        "let c = top(deck)\nif bad2(c) and not bare(0) { coins += 1 }\ncreate(@osaisen, deck, 100000)\nlet z = 0\nwhile true { if bad2(z) or bare(1) { coins += 1 } }",
        // Arguments that are code, bound by the chain's closure: a failing
        // argument, a failure inside, out of steps among the arguments.
        "let c = top(deck)\nif tested(count(hand) - 2, top(hand)) { coins += 1 }\nlet v = tested(1 + 0, c)\nif v == 1 { coins += 1 }\nif tested(1 / 0, c) { coins += 1 }",
        "let v = tested(count(hand) + 3, top(deck))\ncoins += 1\nif tested(6, top(hand)) { coins += 1 }",
        "create(@osaisen, deck, 100000)\nwhile true { if tested(count(hand) + 2, top(deck)) { coins += 1 } }",
    ];
    fail_with_verbs("tested", verbs, &cases);
}

/// Comparisons of two numbers each read by one term (a card's property, a
/// player's counter, a slot, a constant), in a conjunction or an if-chain
/// arm, run as closures typed by the terms' kinds in the speed tier; a
/// constant 0 added is no term: the same truths, steps, spans and failures
/// where a term is not a number (a string, none, a number for a card).
#[test]
fn typed_parts_fail_the_same_way() {
    let verbs = "  typed:\n    params: [p, c, n]\n    do: |\n      if c.cost + 0 > p.coins { return 1 }\n      \
                 if n < 0 and c.cost >= 0 { return 2 }\n      if p.coins == n and n != 3 { return 3 }\n      \
                 if c.cost - 0 > n { return 4 }\n      return 5\n";
    let cases = [
        "let c = top(deck)\nlet n = -2\nwhile n < 6 { coins += typed(me, c, n)\nif c.cost >= 0 and typed(me, c, n) > 2 and me.coins < 1000 { actions += 1 }\nn += 1 }\ncoins += count(hand where it.cost >= 0 and it.cost < 5 and 0 <= coins)",
        "let c = top(deck)\nlet x = \"x\"\ncoins += typed(me, c, x)",
        "let five = 5\ncoins += typed(me, five, 1)",
        "let c = top(deck)\nlet q = 3\ncoins += typed(q, c, 1)",
        "let d = @osaisen\ncoins += typed(me, d, 0) + typed(me, d, -1)",
        "let c = top(deck)\nlet z = none\ncoins += typed(me, c, z)",
        "let c = top(deck)\nlet s = \"s\"\nif c.cost >= 0 and s < 3 { coins += 1 }",
        "create(@osaisen, deck, 100000)\nlet c = top(deck)\nwhile true { if typed(me, c, 1) > 0 { actions += 1 } }",
    ];
    fail_with_verbs("typed", verbs, &cases);
}

/// A verb called for its effect whose last statement is `return e` runs
/// `e` as a statement in the speed tier (no return unwound): the same
/// effects, steps, spans, failures and lines as the reference's return.
#[test]
fn returning_verbs_fail_the_same_way() {
    let verbs = "  ends:\n    params: [n]\n    do: \"coins += n\\nreturn draw(n)\"\n  \
                 ends_bad:\n    do: \"coins += 1\\nreturn count(5)\"\n  \
                 ends_log:\n    do: \"coins += 1\\nreturn log(\\\"x \\\" + top(hand))\"\n";
    let cases = [
        "ends(2)\ncoins += count(hand)\nlet x = \"x\"\nends(x)",
        "ends(1)\nends_bad()",
        "ends_log()\nends_log()\ncoins += ends(1) + 1",
        "create(@osaisen, deck, 100000)\nwhile true { ends(0) }",
    ];
    fail_with_verbs("returning", verbs, &cases);
}

/// A filter read only for its emptiness (`empty(x)`, `count(x) > 0`, …)
/// or its first item (`first(x)`; `data/probe.rs`) stops at its first item on both tiers, through verbs
/// that return filters too: the same truths, steps, spans and failures (an
/// item that fails after the first that passes is never tested).
#[test]
fn probes_fail_the_same_way() {
    let verbs = "  firsts:\n    do: \"return hand where it.cost >= 0\"\n  \
                 picky:\n    params: [n]\n    do: |\n      let m = n + 1\n      if m > 1 { return deck where it.cost > m }\n      return firsts()\n  \
                 late:\n    do: \"return [top(hand), 1] where it.cost >= 0\"\n";
    let cases = [
        "if not empty(hand where it.cost >= 0) { coins += 1 }\nif count(firsts()) > 0 { coins += 1 }\nif 0 == count(picky(0)) { coins += 5 }\nif count(picky(3)) >= 1 { coins += 2 }\nif 1 > count(deck where it.cost > 50) { coins += 3 }\nif count(late()) != 0 { coins += 1 }",
        "if not empty([top(hand), 1] where it.cost >= 0) { coins += 1 }\nif empty(late()) { coins += 1 }\ncoins += count([top(hand), 1] where it.cost >= 0)",
        "if empty([1, top(hand)] where it.cost >= 0) { coins += 1 }",
        "if first(late()) == top(hand) { coins += 1 }\ncoins += first(deck where it.cost >= 0).cost",
        "if first(firsts()) != none { coins += 1 }\nlet c = first([top(hand), 1] where it.cost >= 0)\ncoins += c.cost",
        "let c = first([1, top(hand)] where it.cost >= 0)",
        "create(@osaisen, deck, 100000)\nwhile true { if count(deck where it.cost > 100) == 0 { coins += 1 } }",
        "create(@osaisen, deck, 100000)\nwhile true { if count(picky(0)) < 1 { coins += 1 } }",
        // Read as truths (`not empty(..)` tested, no value made).
        "if not empty(late()) and not empty(deck) and empty(discard) { coins += 1 }\nif not empty(firsts()) { coins += 1 }\ncreate(@osaisen, deck, 100000)\nwhile true { if not empty(deck where it.cost > 100) { coins += 1 } }",
        "if not empty([1, top(hand)] where it.cost >= 0) { coins += 1 }",
    ];
    fail_with_verbs("probes", verbs, &cases);
}

/// A zone's cards tested by code that only reads the game are read where
/// they lie (no copy): in the order a copy lists them, a failure at the
/// same card, steps running out at the same one.
#[test]
fn pure_tests_fail_the_same_way() {
    let cases = [
        "if any(hand, 6 / it.cost > 1) { coins += 1 }",
        "if any(hand, 6 / it.cost > 1 and it.cost > 5) { coins += 1 }",
        "let c = first(hand where 6 / it.cost > 1)\ncoins += c.cost",
        "coins += count(hand where 6 / it.cost > 1)",
        "create(@osaisen, deck, 100000)\nwhile true { coins += count(deck where it.cost >= 0 and any(hand, it.cost > 1)) }",
    ];
    fail_with_verbs("in_place", "", &cases);
}

/// Each case played as in [`fails_in`], with `verbs` added to the rules.
fn fail_with_verbs(what: &str, verbs: &str, cases: &[&str]) {
    let dir = tempfile::tempdir().expect("temp dir");
    for (i, code) in cases.iter().enumerate() {
        let data = dir.path().join(format!("case{i}"));
        let file = card_played(&data, &format!("{what}_{i}"), code);
        let rules = data.join("rules/shrine.yaml");
        let text = std::fs::read_to_string(&rules).expect("rules");
        let text = text.replacen("\nverbs:\n", &format!("\nverbs:\n{verbs}"), 1);
        std::fs::write(&rules, text).expect("rules");
        fails_in(&data, &file, &format!("{what} case {i}: {code}"));
    }
}

/// A window's move listed by the speed tier on the path its shapes take
/// (`src/fast/listing.rs`): a condition it does not decide run compiled
/// in its frame, a filter pick after a condition it decides, a whole zone
/// read in place. The same options, steps, spans and failures as the
/// kernel's listing (a move `probe` added to the action window).
#[test]
fn listed_moves_fail_the_same_way() {
    let verbs = "  bad:\n    do: \"return count(5)\"\n  \
                 five:\n    do: \"return 5\"\n  \
                 spin:\n    do: |\n      let n = 0\n      while true { n += count(deck where it.cost >= 0) }\n      return n\n  \
                 deep:\n    params: [n]\n    do: \"return deep(n + 1)\"\n";
    // The probe's condition and pick, the card's code played first, and
    // the probe's option taken then (if any).
    let cases = [
        // Conditions the tier does not decide, compiled to a truth.
        (
            "coins > 0 and count(hand) > 0",
            "hand",
            "coins += 1",
            "honoumai",
        ),
        ("coins > 0 and bad() > 0", "hand", "coins += 1", ""),
        (
            "coins > 0 and spin() > 0",
            "hand where it.cost >= 0",
            "coins += 1\ncreate(@osaisen, deck, 100000)",
            "",
        ),
        ("coins > 0 and deep(0) > 0", "", "coins += 1", ""),
        ("coins > 0 and five()", "deck", "coins += 1", "omiki"),
        ("coins > 5 or count(hand) > 5", "hand", "coins += 1", ""),
        // A decided condition, then a filter pick.
        (
            "coins > 0",
            "hand where it.cost >= 0 and five() > 1",
            "coins += 1",
            "osaisen",
        ),
        ("coins > 0", "hand where bad() > 0", "coins += 1", ""),
        (
            "coins > 0",
            "hand where spin() > 0",
            "coins += 1\ncreate(@osaisen, deck, 100000)",
            "",
        ),
        // A filter pick whose leading tag tests turn away every card (or
        // whose zone is empty): nothing listed, its frame and walk charged,
        // steps running out at the walk.
        (
            "coins > 0",
            "deck where it is reward and five() > 1",
            "coins += 1",
            "",
        ),
        ("coins > 0", "trash where five() > 1", "coins += 1", ""),
        (
            "coins > 0",
            "supply where it is reward and five() > 1",
            "coins += 1",
            "",
        ),
        (
            "coins > 0",
            "deck where it is not resource and it is victory and five() > 1",
            "coins += 1",
            "hakurei",
        ),
        (
            "coins > 0",
            "deck where it is reward",
            "coins += 1\nrepeat 4 { create(@osaisen, deck, 100000) }\nrepeat 12 { coins += count(deck where it.cost >= 0) }",
            "",
        ),
        // The same of a sum of zones, each read as `+` reads it.
        (
            "coins > 0",
            "(hand + trash + play) where it is reward and five() > 1",
            "coins += 1",
            "",
        ),
        (
            "coins > 0",
            "(trash + deck) where it is reward",
            "coins += 1\nrepeat 4 { create(@osaisen, deck, 100000) }\nrepeat 12 { coins += count(deck where it.cost >= 0) }",
            "",
        ),
        // Whole zones and other values picked; a zone too big to list.
        (
            "coins > 0",
            "deck",
            "coins += 1\ncreate(@honoumai, deck, 3)",
            "honoumai",
        ),
        ("coins > 0", "five()", "coins += 1", ""),
        (
            "coins > 0",
            "deck",
            "coins += 1\nrepeat 4 { create(@osaisen, deck, 100000) }\nrepeat 12 { coins += count(deck where it.cost >= 0) }",
            "",
        ),
        // Conditions decided from the game, whole or by the quiet conjuncts
        // they start with (false before the card is played, true after):
        // the frame's step charged; steps running out in the code played.
        (
            "count(hand) + count(deck) - 1 > 0 and coins > 0",
            "hand",
            "coins += 1",
            "honoumai",
        ),
        ("coins == 0 and five() > 0", "hand", "coins += 1", ""),
        (
            "coins > 0 and me == active and not empty(hand)",
            "deck",
            "coins += 1\nrepeat 4 { create(@osaisen, deck, 100000) }\nrepeat 12 { coins += count(deck where it.cost >= 0) }",
            "",
        ),
        (
            "any(players(), it.coins > 0) and five() > 0",
            "",
            "coins += 1\nrepeat 4 { create(@osaisen, deck, 100000) }\nrepeat 12 { coins += count(deck where it.cost >= 0) }",
            "",
        ),
        (
            "coins > 0 and count(deck) > 0 and deep(0) > 0",
            "",
            "coins += 1",
            "",
        ),
    ];
    let dir = tempfile::tempdir().expect("temp dir");
    // Verbs 200 deep need the stack `fuda` runs games on.
    std::thread::scope(|s| {
        let run = || {
            for (i, (cond, pick, code, take)) in cases.iter().enumerate() {
                let data = dir.path().join(format!("case{i}"));
                let file = card_played(&data, &format!("listed_{i}"), code);
                if !take.is_empty() {
                    let text = std::fs::read_to_string(&file).expect("scenario");
                    let old = format!("[play listed_{i}]");
                    let text = text.replacen(&old, &format!("[play listed_{i}, probe {take}]"), 1);
                    std::fs::write(&file, text).expect("scenario");
                }
                let rules = data.join("rules/shrine.yaml");
                let pick = match pick.is_empty() {
                    true => String::new(),
                    false => format!("    pick: \"{pick}\"\n"),
                };
                let probe = format!(
                    "\nmoves:\n  probe:\n    label: probe\n    if: \"{cond}\"\n{pick}    do: \"coins += 1\"\n"
                );
                let text = std::fs::read_to_string(&rules).expect("rules");
                let text = text
                    .replacen("\nverbs:\n", &format!("\nverbs:\n{verbs}"), 1)
                    .replacen("\nmoves:\n", &probe, 1)
                    .replacen("moves: [play_action]", "moves: [play_action, probe]", 1);
                std::fs::write(&rules, text).expect("rules");
                fails_in(&data, &file, &format!("listed case {i}: {cond} / {pick}"));
            }
        };
        let t = std::thread::Builder::new().stack_size(fuda::limits::STACK_SIZE);
        t.spawn_scoped(s, run)
            .expect("thread")
            .join()
            .expect("cases");
    });
}

/// The board's readers of a square in a slot or a constant, compared and
/// read in place by the speed tier: the same values, errors and spans as
/// the kernel's readers (a board added to the rules for these cases).
#[test]
fn board_reads_fail_the_same_way() {
    let board = "\nboard:\n  props: {owner: ~, level: 1}\n  squares:\n    \
                 - {kind: start, name: START}\n    - {kind: land, card: osaisen}\n    \
                 - {kind: land}\n";
    let cases = [
        "square_set(1, \"owner\", me)\nfor s in squares(\"land\") { if square_get(s, \"owner\") == me { coins += 1 }\nif square_get(s, \"level\") >= 1 and square_card(s).cost < 3 { coins += 1 }\nif square_kind(s) != \"land\" or square_card(s) == @osaisen { coins += 1 } }\ncoins += count(squares(\"land\") where square_get(it, \"owner\") != none) + count(squares(\"gap\"))",
        "let x = \"x\"\nif square_get(x, \"owner\") == me { coins += 1 }",
        "let s = 7\nif square_get(s, \"level\") < 5 { coins += 1 }",
        "let s = -1\ncoins += square_get(s, \"level\")",
        "let s = none\nif square_get(s, \"owner\") != none or square_card(s).cost > 0 { coins += 1 }\nlet t = true\ncoins += square_get(t, \"level\") + square_card(2).cost + square_get(2, \"level\")",
        "square_set(0, \"level\", \"a\")\nif square_get(0, \"level\") < 3 { coins += 1 }",
        "square_set(0, \"owner\", [1, 2])\nlet l = [1, 2]\nif square_get(0, \"owner\") == l { coins += 1 }\nlet s = 9\nif l == square_card(s).cost { coins += 1 }",
        "let x = \"x\"\ncoins += square_card(x).cost",
        "let k = square_kind(0)\nif square_kind(1) == k { coins += 1 }\nlet y = 40\nif square_kind(y) == \"land\" { coins += 1 }",
        "let p = 3\nif square_get(1, \"level\") == p and p < square_get(p, \"level\") { coins += 1 }",
        // Filters of one such comparison, run as one loop over the items.
        "square_set(2, \"owner\", me)\ncoins += count([0, 2, 1, 2] where square_get(it, \"owner\") == me)\nlet p = 2\ncoins += count([0, 1, 2] where square_get(it, \"level\") < p)\ncoins += count([0, 2, \"x\", 1] where square_get(it, \"owner\") == me)",
        "let p = 2\ncoins += count([0, 1, 2, 5] where square_get(it, \"level\") <= p)",
        // The item read where it lies in the list, on either side.
        "coins += count([2, 0, 1, 1] where square_get(it, \"level\") == it)\ncoins += count([0, 1, 2] where square_card(it) == @osaisen)\ncoins += count([1, 2, none] where square_kind(it) == \"land\")",
        // The other side read once for the whole loop: a slot, me, a constant.
        "square_set(1, \"level\", \"b\")\nsquare_set(2, \"owner\", true)\nlet t = true\ncoins += count([0, 1, 2] where square_get(it, \"owner\") != t)\nlet c = top(deck)\ncoins += count([0, 1, 2] where square_get(it, \"owner\") == c)\nlet l = [1]\ncoins += count([0, 1] where square_get(it, \"owner\") != l)\nlet n = none\ncoins += count([0, 1, 2] where square_get(it, \"owner\") == n)\ncoins += count([0, 1, 2] where square_get(it, \"level\") == 1)\nlet one = 1\ncoins += count([0] where square_get(it, \"level\") != one)\ncoins += count([0, 1, 2] where square_get(it, \"level\") >= 1)",
        "let p = \"a\"\ncoins += count([] where square_get(it, \"level\") < p)\ncoins += count([0, 1] where square_get(it, \"level\") < p)",
        "let p = 1\ncoins += count([0, 1, 2, 3, 2] where square_get(it, \"level\") > p)",
    ];
    let dir = tempfile::tempdir().expect("temp dir");
    for (i, code) in cases.iter().enumerate() {
        let data = dir.path().join(format!("case{i}"));
        let file = card_played(&data, &format!("board_{i}"), code);
        let rules = data.join("rules/shrine.yaml");
        let text = std::fs::read_to_string(&rules).expect("rules") + board;
        std::fs::write(&rules, text).expect("rules");
        fails_in(&data, &file, &format!("board case {i}: {code}"));
    }
}

/// `for x in list { if a <cmp> b { .. } else { .. } }` of operands read in
/// place runs as one loop over the items in the speed tier, and `if` of
/// such a test as one closure; `out = out + [x]` of plain operands pushes
/// onto `out`: the same steps, spans, failures and values as the reference.
#[test]
fn loop_tests_fail_the_same_way() {
    let board = "\nboard:\n  props: {owner: ~, level: 1}\n  squares:\n    \
                 - {kind: start, name: START}\n    - {kind: land, card: osaisen}\n    \
                 - {kind: land}\n";
    let cases = [
        "square_set(1, \"owner\", me)\nsquare_set(2, \"owner\", me)\nlet out = []\nfor s in squares(\"land\") { if square_get(s, \"owner\") == me { out = out + [s] } }\ncoins += count(out)\nlet n = 0\nfor s in [0, 1, 2, 1] { if square_get(s, \"level\") >= 1 { n += s } else { n -= 1 } }\ncoins += n",
        "let n = 0\nfor s in [0, 1, \"x\", 2] { if square_get(s, \"owner\") == none { n += 1 } }\ncoins += n",
        "let n = 0\nfor s in [2, 1, 0] { if 1 == square_get(s, \"level\") { s = 7\nn += s } else { n += s } }\ncoins += n\nfor s in [0, 7] { if square_get(s, \"level\") > 0 { coins += 1 } }",
        "create(@osaisen, deck, 100000)\nwhile true { for s in [0, 1, 2, 0, 1] { if square_get(s, \"owner\") == none { coins += 0 } } }",
        "let k = 1\nfor c in hand { if c != none { coins += k } else { coins -= 5 } }\nfor c in [1, 2, 3] { if c == k { coins += 10 } }\nif square_get(1, \"level\") == 1 { coins += 1 } else { coins += 2 }\nlet t = \"t\"\nif square_get(t, \"level\") == 1 { coins += 1 } else { coins += 2 }",
        "let out = [1]\nlet k = 2\nout = out + [k, me, coins, none]\nout = out + [out]\ncoins += count(out)\nlet bad = 5\nbad = bad + [1]",
        "let l = \"l\"\nl = l + [1, 2]\ncoins += count(l)",
        "create(@osaisen, deck, 100000)\nlet out = []\nwhile true { out = out + [1, 2, 3, 4, 5, 6, 7, 8] }",
    ];
    let dir = tempfile::tempdir().expect("temp dir");
    for (i, code) in cases.iter().enumerate() {
        let data = dir.path().join(format!("case{i}"));
        let file = card_played(&data, &format!("loop_{i}"), code);
        let rules = data.join("rules/shrine.yaml");
        let text = std::fs::read_to_string(&rules).expect("rules") + board;
        std::fs::write(&rules, text).expect("rules");
        fails_in(&data, &file, &format!("loop case {i}: {code}"));
    }
}

/// `n += k` of a local holding a number, and `p.counter += k` of a local
/// holding a player, with `k` numbers read in place, update in place in
/// the speed tier; anything else runs as compiled: the same values, spans
/// and failures as the reference.
#[test]
fn local_sums_fail_the_same_way() {
    let cases = [
        "let n = 1\nn += 2\nn -= coins + count(hand) - 1\ncoins += n\nlet p = me\np.coins += n + 2\np.actions -= count(hand)",
        "let n = 1\nlet s = \"a\"\nn += s",
        "let s = \"a\"\ns += 1",
        "let n = none\nn -= 1",
        "let q = 5\nq.coins += 1",
        "let p = me\nlet x = \"x\"\np.coins += x",
        "let p = top(hand)\np.coins += 1",
        "let n = 0\nwhile true { n += 1 }",
    ];
    fail_with_verbs("sums", "", &cases);
}

/// Comparisons of code's value with a local or a constant, read where it
/// lies by the speed tier (no copy made): the same truths, steps, spans
/// and failures as the reference's values compared.
#[test]
fn compared_locals_fail_the_same_way() {
    let cases = [
        "let s = \"a\"\nlet n = 2\nlet c = top(deck)\nlet l = [1, c]\nif s == \"a\" { coins += 1 }\nif \"a\" != s { coins += 2 }\nif c == c and s != n { coins += 4 }\nif top(hand) == c or first(hand) != none { coins += 8 }\nif l == l and [1, c] == l { coins += 16 }\nif none == n or first(l) == n { coins += 32 }\nif top(deck) != c and count(hand) != n { coins += 64 }",
        "let s = first([\"a\", 1])\nif s < 2 { coins += 1 }",
        "let c = top(deck)\nif 1 > c { coins += 1 }",
        "let c = top(deck)\nif count(hand) <= c { coins += 1 }",
        "let l = [1, 2, 3]\nlet m = [1, 2, 3]\nwhile true { if l == m and m != none { coins += 0 } }",
        "let s = \"x\"\nlet c = top(deck)\nwhile true { if s == \"x\" and none != c and top(deck) == c { coins += 0 } }",
    ];
    fail_with_verbs("compared", "", &cases);
}

/// Picks with a prompt written out (the prompt passed where it lies, not
/// as an operand), `may` of a prompt alone or after who answers, and a
/// local list indexed or counted in its slot by the speed tier: the same
/// requests, prompts, values, steps and failures as the reference's.
#[test]
fn picked_locals_fail_the_same_way() {
    let cases = [
        "let l = [3, 4, 5]\nlet i = 1\ncoins += at(l, i) + at(l, 2) + count(l)\nif empty(l) { coins += 100 }\nif at(l, 7) == none { coins += 1000 }",
        "let l = [1]\nlet i = \"x\"\ncoins += at(l, i)",
        "let c = 5\nlet i = 0\ncoins += at(c, i)",
        "let c = \"abc\"\ncoins += at(c, 0)",
        "let c = top(deck)\nlet l = []\ncoins += count(l) + count(c)\nif at(c, 0) == c and at(c, 1) == none { coins += 10 }",
        "let z = hand\nlet n = 0\nwhile n < count(z) { n += 1 }\ncoins += n + count(z)",
        "let l = [1, 2]\nlet n = 0\nwhile n < count(l) and at(l, n) > 0 { n += 1 }\ncoins += n",
        "let s = \"abc\"\ncoins += count(s)",
        "let l = [1, 2]\nwhile true { if at(l, 1) == 2 and count(l) == 2 { coins += 0 } }",
        "let l = hand\nlet c = choose_one(l, \"pick one\")\ncoins += 1",
        "let c = choose_one(hand where it.cost >= 0, \"pick one\")\ncoins += 1",
        "let c = choose_one([], \"pick none\")\nif c == none { coins += 1 }",
        "let c = choose(hand, 1, 1, \"pick\")\ncoins += 1",
        "let c = choose(me, hand, 0, 1, \"pick\")\ncoins += 1",
        "let c = order(hand, \"order them\")\ncoins += 1",
        "let c = choose_option([\"a\", \"b\"], \"which\")\ncoins += 1",
        "if may(\"go?\") { coins += 1 }",
        "let p = me\nif may(p, \"go?\") { coins += 1 }",
        "let c = choose_one(5, \"pick\")\ncoins += 1",
    ];
    fail_with_verbs("picked", "", &cases);
}

/// Abilities' conditions reading the board (`square_kind(event.target) ==
/// "land"`), decided by the speed tier without running them where they
/// cannot fail: the same abilities fire for the same steps, and one that
/// fails (a card taken for a square) fails the same way.
#[test]
fn board_conditions_fail_the_same_way() {
    let board = "\nboard:\n  props: {owner: ~, level: 1}\n  squares:\n    \
                 - {kind: start, name: START}\n    - {kind: land, card: osaisen}\n    \
                 - {kind: land}\n    - {kind: gap}\n";
    let cards = r#"- id: sq_watch
  name: sq_watch
  tags: [resource]
  abilities:
    - {on: passes, zone: hand, if: "square_kind(event.target) == \"land\" and square_get(event.target, \"level\") > 1", do: "coins += 1"}
    - {on: passes, zone: hand, if: "\"start\" == square_kind(event.target) and square_card(event.target) != none", do: "coins += 100"}
    - {on: stops, zone: hand, if: "square_card(event.target) == @osaisen and square_get(event.target, \"owner\") == me", do: "coins += 10"}
    - {on: stops, zone: hand, if: "square_get(event.target, \"owner\") == none and square_kind(event.target) != \"land\"", do: "actions += 1"}
- id: sq_bad
  name: sq_bad
  tags: [resource]
  abilities:
    - {on: stops, zone: hand, if: "square_kind(this) == \"land\"", do: "coins += 1"}
"#;
    let cases = [
        "square_set(1, \"owner\", me)\nsquare_set(2, \"level\", 3)\ncreate(@sq_watch, hand, 1)\nadvance(5)\nadvance(2)\ncoins += piece()",
        "square_set(1, \"owner\", [1])\ncreate(@sq_watch, hand, 1)\nadvance(1)\nadvance(2)",
        "create(@sq_watch, hand, 1)\nwhile true { advance(3) }",
        "create(@sq_bad, hand, 1)\nadvance(2)",
    ];
    let dir = tempfile::tempdir().expect("temp dir");
    for (i, code) in cases.iter().enumerate() {
        let data = dir.path().join(format!("case{i}"));
        let file = card_played(&data, &format!("sq_{i}"), code);
        std::fs::write(data.join("cards/shrine/sq_cards.yaml"), cards).expect("cards");
        let rules = data.join("rules/shrine.yaml");
        let text = std::fs::read_to_string(&rules).expect("rules") + board;
        std::fs::write(&rules, text).expect("rules");
        fails_in(&data, &file, &format!("board condition case {i}: {code}"));
    }
}

/// Case `i` of [`tiers_fail_the_same_way`], played under `dir`.
fn fails_the_same_way(dir: &Path, i: usize, code: &str) {
    let data = dir.join(format!("case{i}"));
    let file = card_played(&data, &format!("failing_{i}"), code);
    fails_in(&data, &file, &format!("case {i}: {code}"));
}

/// A card's play effect run on both tiers from `file`'s scenario in the
/// data at `data`: the same outcome, error and state.
fn fails_in(data: &Path, file: &Path, what: &str) {
    let loaded = Loaded::new(fuda::data::source::open(Some(data)));
    same(what, |reference, logging| {
        match run_file_in(&loaded, file, Tier { reference, logging }) {
            Ok(r) => (
                format!(
                    "{:?}\n{:?}\nerror {:?}\n{}",
                    r.outcome,
                    r.stopped,
                    r.error
                        .as_ref()
                        .map(|e| (&e.message, e.span, &e.label, &e.help)),
                    state(&r.game)
                ),
                r.game.log,
            ),
            // A case that does not load would test nothing.
            Err(e) => panic!("{what}: does not load: {:?}", e.errors),
        }
    });
}

/// The value of a spelling's `# key: value` line, if it has one.
fn header<'a>(edits: &'a str, key: &str) -> Option<&'a str> {
    edits
        .lines()
        .find_map(|l| l.strip_prefix("# ")?.strip_prefix(key)?.strip_prefix(':'))
        .map(str::trim)
}

/// The shipped data in `dir` with one game's rules rewritten by a spelling
/// of `benches/spellings/` (each `--- old` text, found once, replaced by the
/// `+++ new` text after it), as `benches/spellings.sh` does: the game its
/// `# game:` line names (shrine without one), which is returned.
fn spelled(dir: &Path, edits: &str) -> String {
    copy_dir(&root().join("rules"), &dir.join("rules"));
    copy_dir(&root().join("cards"), &dir.join("cards"));
    let game = header(edits, "game").unwrap_or("shrine").to_string();
    let file = dir.join(format!("rules/{game}.yaml"));
    let mut text = std::fs::read_to_string(&file).expect("rules");
    let mut pairs: Vec<[String; 2]> = Vec::new();
    let mut side = 0;
    for line in edits.split_inclusive('\n') {
        if line.starts_with("--- ") {
            pairs.push(Default::default());
            side = 0;
        } else if line.starts_with("+++ ") {
            side = 1;
        } else if let Some(p) = pairs.last_mut() {
            p[side].push_str(line);
        }
    }
    assert!(!pairs.is_empty(), "a spelling with no edit");
    for [old, new] in pairs {
        assert_eq!(
            text.matches(&old).count(),
            1,
            "not in the rules once:\n{old}"
        );
        text = text.replace(&old, &new);
    }
    std::fs::write(&file, text).expect("rules");
    game
}

/// A game of a row of 200 piles (more than a word of pile bits, more than
/// the 64 items a built-in's list or a look at attached cards makes for
/// free): random play picks from the row, counts and walks it, empties
/// piles and ends by them; then three endless loops of its built-ins run
/// out of steps at the same call on both tiers.
#[test]
fn many_piles_play_the_same_games() {
    let dir = tempfile::tempdir().expect("temp dir");
    let cards: String = (0..200)
        .map(|i| {
            let tags = if i % 7 == 0 {
                "[stone, big]"
            } else {
                "[stone]"
            };
            format!(
                "- {{id: c{i}, name: C{i}, tags: {tags}, props: {{cost: {}}}}}\n",
                i % 10
            )
        })
        .collect();
    let take = "let c = choose_one(supply where it.cost <= k, \"take\")\n\
                if c != none {\n  move(c, hand)\n}\n\
                k = (k + 3) % 10\n\
                if count(hand) > 3 {\n  attach(top(hand), first(hand))\n  move(first(hand), trash)\n}\n\
                n += empty_piles(supply) + pile_count(supply, @c150) + count(supply) % 7\n\
                if any(piles(supply), it is big and pile_count(supply, it) < 2) {\n  n += 1\n}\n\
                n += count(at(supply, 100)) + count(attached(first(hand)) where it is stone)\n\
                for x in supply where it is big {\n  n += x.cost\n}";
    let loops = [
        "",
        "while true {\n  if any(piles(supply), it is big and pile_count(supply, it) == 5) {\n    n += 1\n  }\n}",
        "while true {\n  if empty_piles(supply) >= 1000 or any(piles(supply), it is big and pile_count(supply, it) == 0) {\n    n += 1\n  }\n}",
        "create(@c1, hand, 100)\nattach(hand, first(supply))\nwhile true {\n  n += count(attached(first(supply)) where it is stone) + count(defs(\"stone\"))\n}",
    ];
    for (v, grind) in loops.iter().enumerate() {
        let data = dir.path().join(format!("rows{v}"));
        std::fs::create_dir_all(data.join("cards/rows")).expect("cards");
        std::fs::create_dir_all(data.join("rules")).expect("rules");
        std::fs::write(data.join("cards/rows/row.yaml"), &cards).expect("cards");
        let mut phases = format!("    - name: take\n      do: |\n{}\n", indent(take));
        if !grind.is_empty() {
            write!(
                phases,
                "    - name: grind\n      do: |\n{}\n",
                indent(grind)
            )
            .unwrap();
        }
        let rules = format!(
            "name: rows\nplayers: {{min: 2, max: 2, default: 2}}\n\
             counters:\n  n: {{start: 0}}\n  k: {{start: 0}}\ntags: [stone, big]\n\
             properties:\n  cost: 0\n\
             zones:\n  supply: {{per: shared, contents: public, piles: true}}\n  \
             hand: {{per: player}}\n  trash: {{per: shared, contents: public}}\n\
             setup: |\n  for d in defs(\"stone\") {{\n    create(d, supply, 2)\n  }}\n\
             turn:\n  phases:\n{phases}\
             end:\n  if: \"empty_piles(supply) >= 60 or any(piles(supply), it is big and pile_count(supply, it) == 0)\"\n\
             score: \"n\"\nmax_turns: 300\n"
        );
        std::fs::write(data.join("rules/rows.yaml"), rules).expect("rules");
        let data =
            Arc::new(load::load_game(&data, "rows").unwrap_or_else(|e| panic!("rows{v}: {e:?}")));
        let agents = vec![agent::parse("random", &data).expect("agent"); 2];
        let seeds = if grind.is_empty() { 40 } else { 2 };
        seeds_agree(&format!("rows{v}"), "random", &data, agents, seeds);
    }
}

/// `code` indented as a block of a phase's `do: |`.
fn indent(code: &str) -> String {
    code.lines()
        .map(|l| format!("        {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A bot's plays from deep in a big hand (a thousand cards made on top of
/// it each turn, above the resources it plays: the speed tier's quick
/// windows take them in place) pay for the cards each take passes over the
/// same way on both tiers.
#[test]
fn deep_takes_play_the_same_games() {
    let dir = tempfile::tempdir().expect("temp dir");
    let edit = "--- old\n    - name: buy\n      do: |\n        window(\"resources\")\n\
                +++ new\n    - name: buy\n      do: |\n        create(@minus, hand, 1000)\n        window(\"resources\")\n";
    spelled(dir.path(), edit);
    let data = Arc::new(load::load_game(dir.path(), "shrine").expect("shrine"));
    for kind in ["random", "bigmoney"] {
        let agents = vec![agent::parse(kind, &data).expect("agent"); 2];
        seeds_agree("shrine (deep hands)", kind, &data, agents, 2);
    }
}

/// The equivalent spellings of `benches/spellings/` play the same games on
/// both tiers, and the same games as the shipped spelling: each in the game
/// it rewrites, with random agents and with the agents its `# run:` line
/// measures (Big Money for the shrine spellings without one), at the
/// game's default number of players, for a count of seeds.
#[test]
fn spellings_play_the_same_games() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut games = HashSet::new();
    for f in std::fs::read_dir(root().join("benches/spellings"))
        .expect("spellings")
        .flatten()
    {
        let p = f.path();
        if p.extension().is_none_or(|x| x != "txt") {
            continue;
        }
        let name = p.file_stem().unwrap().to_string_lossy().to_string();
        let edits = std::fs::read_to_string(&p).expect("spelling");
        let data_dir = dir.path().join(&name);
        let game = spelled(&data_dir, &edits);
        let shipped = Arc::new(load::load_game(root(), &game).expect("shipped game"));
        let data =
            Arc::new(load::load_game(&data_dir, &game).unwrap_or_else(|e| panic!("{name}: {e:?}")));
        let run = header(&edits, "run").unwrap_or("shrine --agents bigmoney");
        let measured = run
            .split_whitespace()
            .skip_while(|w| *w != "--agents")
            .nth(1)
            .unwrap_or("random");
        let mut kinds = vec!["random"];
        if measured != "random" {
            kinds.push(measured);
        }
        let players = data.players.2 as usize;
        for kind in kinds {
            let agents = vec![agent::parse(kind, &data).expect("agent"); players];
            seeds_agree(
                &format!("{game} ({name})"),
                kind,
                &data,
                agents.clone(),
                seeds(),
            );
            // The shipped spelling plays the same games (the steps aside:
            // a spelling may take more or fewer).
            let mine = vec![agent::parse(kind, &shipped).expect("agent"); players];
            for seed in 0..seeds() {
                let a = play(&data, &agents, seed, false, true).0;
                let b = play(&shipped, &mine, seed, false, true).0;
                assert!(
                    a.log == b.log && a.decisions == b.decisions,
                    "{name} {kind} seed {seed}: not the shipped game"
                );
            }
        }
        games.insert(game);
    }
    for game in ["shrine", "landgrab", "hyakki"] {
        assert!(games.contains(game), "the spellings of {game} are missing");
    }
}

/// Abilities' conditions that the speed tier decides without running them
/// (`event.card == this`, comparisons of the card, its host, the players and
/// the event): the same abilities fire, for the same steps, and the turn's
/// steps or the nesting depth run out at the same condition, among
/// conditions it runs as compiled (a string compared, a count).
#[test]
fn decided_conditions_fail_the_same_way() {
    let cards = r#"- id: watcher
  name: watcher
  tags: [resource]
  props: {cost: 1}
  abilities:
    - {on: draw, zone: hand, if: "event.card == this", do: "coins += 1"}
    - {on: draw, zone: hand, if: "event.player != me or this.cost > 100 or this is action", do: "coins += 100"}
    - {on: draw, zone: hand, if: "event.card.name == \"nobody\"", do: "coins += 1000"}
    - {on: draw, zone: deck, if: "this.host != none and event.card == this.host", do: "coins += 10000"}
    - {on: draw, zone: discard, if: "event.card.owner == me and event.from != event.to and me.coins < 0", do: "actions += 1"}
- id: chain
  name: chain
  tags: [resource]
  props: {cost: 1}
  abilities:
    - {on: draw, zone: hand, if: "this == event.card and me == active", do: "move(top(deck), hand, \"draw\")"}
"#;
    let cases = [
        // Two copies in hand, more drawn: only the card drawn fires.
        "create(@watcher, hand, 2)\ncreate(@watcher, deck, 3)\ncreate(@watcher, discard, 2)\nrepeat 3 { move(top(deck), hand, \"draw\") }\ncoins += count(hand)",
        // The steps run out among the conditions of a full hand.
        "create(@watcher, deck, 4000)\ncreate(@watcher, discard, 3)\nwhile true { move(top(deck), hand, \"draw\") }",
        // Each draw draws again from its ability: too deep.
        "create(@chain, deck, 400)\ncreate(@watcher, hand, 3)\nmove(top(deck), hand, \"draw\")",
    ];
    let dir = tempfile::tempdir().expect("temp dir");
    // Abilities 200 deep need the stack `fuda` runs games on.
    std::thread::scope(|s| {
        let run = || {
            for (i, code) in cases.iter().enumerate() {
                let data = dir.path().join(format!("case{i}"));
                let file = card_played(&data, &format!("decided_{i}"), code);
                std::fs::write(data.join("cards/shrine/decided_cards.yaml"), cards).expect("cards");
                fails_in(&data, &file, &format!("decided case {i}: {code}"));
            }
        };
        let t = std::thread::Builder::new().stack_size(fuda::limits::STACK_SIZE);
        t.spawn_scoped(s, run)
            .expect("thread")
            .join()
            .expect("cases");
    });
}

/// An end check of quiet reads, checked after every action, is decided by
/// the speed tier from what it reads and kept while those are unchanged
/// (`src/fast/recheck.rs`): games end at the same action on both tiers,
/// with two to four players, `players()` and `others()`, counters and
/// zone sizes of each player and of the player running it; `or`s and
/// `and`s of terms each reading one counter or one zone's size, each term's
/// answer kept with the numbers it read while other counters and zones
/// change.
#[test]
fn kept_end_checks_play_the_same_games() {
    let ends = [
        "any(players(), it.coins >= 8 and it.turns >= 6) or me.buys > 2 and empty(hand)",
        "any(players(), count(deck(it)) == 0 and count(discard(it)) >= 14)",
        "any(players(), any(others(), it.turns > 5 and count(deck(it)) < 2))",
        "any(players(), it.coins >= 7) or any(players(), count(deck(it)) == 0)",
        "me.buys > 0 and any(others(), count(discard(it)) >= 12)",
        "any(players(), it.turns >= 9) or any(players(), count(hand(it)) >= 8) or any(others(), it.coins > 6)",
    ];
    let dir = tempfile::tempdir().expect("temp dir");
    for (i, end) in ends.iter().enumerate() {
        let data = dir.path().join(format!("ends{i}"));
        copy_dir(&root().join("rules"), &data.join("rules"));
        copy_dir(&root().join("cards"), &data.join("cards"));
        let file = data.join("rules/shrine.yaml");
        let text = std::fs::read_to_string(&file).expect("rules");
        let at = text.find("\nend:\n").expect("end");
        let to = text.find("\nscore:").expect("score");
        let end = format!("\nend:\n  check: always\n  if: \"{end}\"\n");
        std::fs::write(&file, format!("{}{end}{}", &text[..at], &text[to..])).expect("rules");
        let data = Arc::new(load::load_game(&data, "shrine").unwrap_or_else(|e| panic!("{e:?}")));
        for players in 2..=4 {
            for kind in ["random", "first"] {
                let agents = vec![agent::parse(kind, &data).expect("agent"); players];
                let what = format!("end {i}, {players} {kind}");
                seeds_agree("shrine", &what, &data, agents, seeds());
            }
        }
    }
}

/// An end check the speed tier decides, asked at the deepest level effects
/// reach, fails where entering its frame fails, as the reference's does: a
/// verb that calls itself resolves triggers (and so checks the end) at each
/// level, with the end checked after every action.
#[test]
fn deep_end_checks_fail_the_same_way() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path().join("deep");
    let file = card_played(&data, "deep_end", "dive(0)");
    let rules = data.join("rules/shrine.yaml");
    let text = std::fs::read_to_string(&rules).expect("rules");
    let text = text.replacen(
        "\nend:\n  check: turn_end\n",
        "\nend:\n  check: always\n",
        1,
    );
    let dive = "verbs:\n  dive:\n    params: [n]\n    do: |\n      resolve_triggers()\n      dive(n + 1)\n";
    let text = text.replacen("verbs:\n", dive, 1);
    assert!(text.contains("check: always") && text.contains("dive(n + 1)"));
    std::fs::write(&rules, text).expect("rules");
    fails_in(
        &data,
        &file,
        "a verb calling itself, the end checked at each level",
    );
}

/// A filter `squares(kind) where square_get(it, prop) == x` (or `!=`) of a
/// board's own list reads the squares that pass off the board's index in
/// the speed tier: the same squares in the same order, steps and failures
/// as the reference's scan, after writes of every kind, a property never
/// set, `none` as the value, a property holding too many values to be
/// indexed, a track laid again, and lists that are not the board's.
#[test]
fn indexed_scans_fail_the_same_way() {
    // Past a word of squares (70), in two sections.
    let mut board = "\nboard:\n  props: {owner: ~, level: 1, mark: ~}\n  squares:\n".to_string();
    for s in 0..70 {
        let kind = if s % 3 == 0 { "gap" } else { "land" };
        board += &format!("    - {{kind: {kind}, section: {}}}\n", 1 + s / 40);
    }
    let cases = [
        "square_set(1, \"owner\", me)\nsquare_set(65, \"owner\", me)\nsquare_set(4, \"owner\", me)\nlet l1 = squares(\"land\") where square_get(it, \"owner\") == me\nfor s in l1 { coins = coins * 3 + s }\ncoins += count(squares(\"land\") where square_get(it, \"owner\") != none)\ncoins += count(squares() where square_get(it, \"owner\") == none)\nsquare_set(4, \"owner\", none)\nsquare_set(1, \"owner\", 7)\nsquare_set(1, \"owner\", 7)\ncoins += 100 * count(squares(\"land\") where square_get(it, \"owner\") == me)\nlet seven = 7\nlet l2 = squares() where square_get(it, \"owner\") == seven\nfor s in l2 { coins += s }\nif empty(squares(\"gap\") where square_get(it, \"owner\") == me) { coins += 1 }",
        // A property never set; a value no square holds; none.
        "coins += count(squares(\"land\") where square_get(it, \"mark\") == none)\ncoins += count(squares(\"land\") where square_get(it, \"mark\") == 3)\ncoins += count(squares() where square_get(it, \"mark\") != 3)\ncoins += count(squares(\"gap\") where square_get(it, \"mark\") != none)\nlet n = none\ncoins += count(squares() where square_get(it, \"level\") != n)",
        // Values kept in no set: a card, a string, a list; a truth, a number.
        "square_set(2, \"mark\", top(deck))\nsquare_set(5, \"mark\", \"x\")\nsquare_set(7, \"mark\", [1])\nsquare_set(8, \"mark\", true)\nsquare_set(10, \"mark\", 3)\ncoins += count(squares(\"land\") where square_get(it, \"mark\") == none)\ncoins += count(squares(\"land\") where square_get(it, \"mark\") != none) * 10\nlet t = true\nlet l3 = squares() where square_get(it, \"mark\") == t\nfor s in l3 { coins += s }\nlet l4 = squares(\"land\") where square_get(it, \"mark\") != false\nfor s in l4 { coins += s }\ncoins += count(squares() where square_get(it, \"mark\") == 3)\nlet c = square_get(2, \"mark\")\ncoins += count(squares() where square_get(it, \"mark\") == c)\nsquare_set(2, \"mark\", none)\nsquare_set(8, \"mark\", 3)\ncoins += count(squares() where square_get(it, \"mark\") == 3) * 100\ncoins += count(squares() where square_get(it, \"mark\") == t) * 1000",
        // A property holding many numbers: read square by square.
        "coins += count(squares(\"land\") where square_get(it, \"level\") == 1)\nlet i = 0\nwhile i < 30 { square_set(i, \"level\", i)\ni += 1 }\ncoins += count(squares(\"land\") where square_get(it, \"level\") == 5)\ncoins += count(squares() where square_get(it, \"level\") != 1)\nsquare_set(5, \"level\", 1)\ncoins += count(squares() where square_get(it, \"level\") == 1) * 10\ncoins += count(squares() where square_get(it, \"level\") == 20) * 100",
        // The track laid again: new lists, the same sets.
        "square_set(50, \"owner\", me)\nsquare_set(2, \"owner\", me)\ncoins += count(squares(\"land\") where square_get(it, \"owner\") == me)\nboard_sections([1])\nlet l5 = squares(\"land\") where square_get(it, \"owner\") == me\nfor s in l5 { coins += s }\nboard_sections([2])\nlet l6 = squares() where square_get(it, \"owner\") == me\nfor s in l6 { coins += s }\nsquare_set(2, \"owner\", none)\nboard_sections([1, 2])\nlet l7 = squares(\"land\") where square_get(it, \"owner\") != none\nfor s in l7 { coins += s }\nlet l8 = squares(\"land\") where square_get(it, \"owner\") == me\nfor s in l8 { coins += s }",
        // Lists that are not the board's: equal ones, parts, sums.
        "square_set(1, \"owner\", me)\nlet l = [0, 1, 2]\ncoins += count(l where square_get(it, \"owner\") == me)\ncoins += count([1, 2] where square_get(it, \"owner\") == me)\ncoins += count(squares(\"land\") + [1] where square_get(it, \"owner\") == me)\nlet same_length = (squares(\"land\") where it != 1) + [1]\nlet l = same_length where square_get(it, \"owner\") == me\nfor s in l { coins = coins * 3 + s }\ncoins += count([1, \"x\"] where square_get(it, \"owner\") == me)",
        // Out of steps among the scans.
        "create(@osaisen, deck, 100000)\nsquare_set(1, \"owner\", me)\nwhile true { coins += count(squares() where square_get(it, \"owner\") == me) }",
    ];
    let dir = tempfile::tempdir().expect("temp dir");
    for (i, code) in cases.iter().enumerate() {
        let data = dir.path().join(format!("case{i}"));
        let file = card_played(&data, &format!("indexed_{i}"), code);
        let rules = data.join("rules/shrine.yaml");
        let text = std::fs::read_to_string(&rules).expect("rules") + board.as_str();
        std::fs::write(&rules, text).expect("rules");
        fails_in(&data, &file, &format!("indexed case {i}: {code}"));
    }
}
