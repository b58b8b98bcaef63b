//! Native decisions (bot rules, move conditions and picks recognised at load
//! time) play exactly the games the reference tier plays: same decisions, same
//! transcripts, same errors (tests/differential.rs does so for the shipped
//! bots; these are bots made to meet values their shapes were not made for).

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use fuda::data::{Data, load};
use fuda::engine::{Agent, Game, GameConfig, agent};

#[path = "common/copy_dir.rs"]
mod copy_dir;
use copy_dir::copy_dir;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn config(data: &Arc<Data>, agents: &[&str], seed: u64, reference: bool) -> GameConfig {
    let agents: Vec<Box<dyn Agent>> = agents
        .iter()
        .map(|a| agent::parse(a, data).unwrap_or_else(|| panic!("agent {a}")))
        .collect();
    GameConfig {
        players: agents.len() as u8,
        seed,
        agents,
        options: HashMap::new(),
        logging: true,
        tier: (!reference).then(|| fuda::fast::tier(data)),
    }
}

fn played(g: &mut Game) -> String {
    let r = g.play();
    format!("{r:?}\n{:?}\n{:?}", g.decisions, g.log)
}

fn play(data: &Arc<Data>, agents: &[&str], seed: u64, reference: bool) -> String {
    played(&mut Game::new(
        data.clone(),
        config(data, agents, seed, reference),
    ))
}

fn same_games(dir: &Path, game: &str, agents: &[&str], games: u64) {
    let load = || load::load_game(dir, game).unwrap_or_else(|e| panic!("{:?}", e.errors));
    let data = Arc::new(load());
    for seed in 0..games {
        let a = play(&data, agents, seed, false);
        let b = play(&data, agents, seed, true);
        assert!(
            a == b,
            "{game} {agents:?} seed {seed}: native decisions differ"
        );
    }
}

#[test]
fn shipped_bots_decide_natively() {
    let d = load::load_game(root(), "shrine").unwrap_or_else(|e| panic!("{:?}", e.errors));
    let fast = fuda::fast::Fast::new(&d);
    let b = d.bot("bigmoney").expect("bigmoney");
    for (i, r) in d.bots[b].1.iter().enumerate() {
        let (cond, choose) = fast.rule_recognised(b, i);
        assert!(choose, "{:?}", r.when);
        assert_eq!(r.cond.is_some(), cond, "{:?}", r.when);
    }
    for (i, m) in d.moves.iter().enumerate() {
        let (cond, pick) = fast.move_recognised(i);
        assert_eq!(m.cond.is_some(), cond, "{}", m.name);
        assert_eq!(m.pick.is_some(), pick, "{}", m.name);
    }
}

#[test]
fn native_decisions_play_the_same_games() {
    same_games(root(), "shrine", &["bigmoney", "bigmoney"], 12);
    same_games(root(), "shrine", &["bigmoney", "random", "bigmoney"], 8);
    same_games(root(), "utage", &["utage", "utage"], 6);
}

/// A game renewed with other agents plays as a new game of them: no seat
/// keeps the bot (or the want of one) of the agent it held before.
#[test]
fn renewed_seats_play_their_new_agents() {
    let d = load::load_game(root(), "shrine").unwrap_or_else(|e| panic!("{:?}", e.errors));
    let data = Arc::new(d);
    let seats = [
        ["bigmoney", "bigmoney"],
        ["first", "bigmoney"],
        ["bigmoney", "random"],
    ];
    let mut g = Game::new(data.clone(), config(&data, &seats[0], 1, false));
    played(&mut g);
    for (seed, agents) in (2..).zip(seats.iter().cycle().skip(1).take(4)) {
        let cfg = config(&data, agents, seed, false);
        g.renew(&cfg);
        assert!(
            played(&mut g) == play(&data, agents, seed, false),
            "{agents:?} seed {seed}: a renewed game differs"
        );
    }
}

/// Bots whose tests meet values they were not made for (the pass option, a
/// text, where a card is expected) defer to the code, errors included.
#[test]
fn native_decisions_defer_to_code() {
    let dir = tempfile::tempdir().expect("temp dir");
    let rules = std::fs::read_to_string(root().join("rules/shrine.yaml")).expect("shrine");
    // The shipped bots give way to probes: so does the default agent naming one.
    let rules: String = (rules.lines())
        .filter(|l| !l.starts_with("default_agent:"))
        .flat_map(|l| [l, "\n"])
        .collect();
    let at = rules.find("\nbots:").expect("bots section");
    let probes = r#"
bots:
  probe:
    - {when: action, choose: "it is action and actions > 0 and not (it is victory)"}
    - {when: action, choose: "\"pass\""}
    - {when: resources, choose: "not (it is not resource)"}
    - {when: buy, choose: "move == \"buy\" and it.cost >= 6 and it != @omiki", if: "coins >= 6"}
    - {when: buy, choose: "move == \"buy\" and it.cost == coins", if: "it != @minus"}
    - {when: buy, choose: "move != \"nothing\" and it == @honoumai"}
    - {when: buy, choose: "\"pass\""}
  picky:
    - {when: resources, choose: "true"}
    - {when: buy, choose: "it is victory or it.cost > 100"}
  pricey:
    - {when: buy, choose: "it.cost >= 5"}
    - {when: buy, choose: "false"}
"#;
    std::fs::create_dir_all(dir.path().join("rules")).expect("rules dir");
    std::fs::write(
        dir.path().join("rules/shrine.yaml"),
        format!("{}{probes}", &rules[..at]),
    )
    .expect("write rules");
    copy_dir(
        &root().join("cards/shrine"),
        &dir.path().join("cards/shrine"),
    );
    same_games(dir.path(), "shrine", &["probe", "probe"], 10);
    same_games(dir.path(), "shrine", &["probe", "picky"], 10);
    same_games(dir.path(), "shrine", &["pricey", "probe"], 10);
}
