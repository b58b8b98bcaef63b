//! A hand-written, game-specific implementation of the shrine base game with
//! two Big Money seats: the native baseline fuda's throughput is measured
//! against. It shares nothing with the `fuda` library — no rules file, no card
//! files, no interpreter — only the same game, so its results must follow the
//! same distribution as `fuda sim shrine --agents bigmoney` without kingdom piles
//! (not the same games: the random streams differ).
//!
//! Used by `benches/sim.rs` and `tests/baseline.rs` through `#[path]`.

#![allow(dead_code)]

use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The basic cards of shrine: resources, victory points, the negative card.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Card {
    /// お賽銭: 1 coin, cost 0.
    Osaisen,
    /// 奉納米: 2 coins, cost 3.
    Honoumai,
    /// 御神酒: 3 coins, cost 6.
    Omiki,
    /// 博麗神社: 1 VP, cost 2.
    Hakurei,
    /// 守矢神社: 3 VP, cost 5.
    Moriya,
    /// The one 6-VP pile of the game (紅魔館 and its alternatives): cost 8.
    Big6,
    /// マイナスカード: −1 VP, cost 0.
    Minus,
}

use Card::*;

/// Supply piles, in a fixed order.
pub const PILES: [Card; 7] = [Osaisen, Honoumai, Omiki, Hakurei, Moriya, Big6, Minus];
/// Two-player pile sizes, in the order of [`PILES`].
pub const PILE_SIZES_2P: [u32; 7] = [46, 40, 30, 8, 8, 8, 10];
pub const HAND_SIZE: usize = 5;
pub const MAX_TURNS: u32 = 400;
const PLAYERS: usize = 2;

impl Card {
    pub fn coins(self) -> u32 {
        match self {
            Osaisen => 1,
            Honoumai => 2,
            Omiki => 3,
            _ => 0,
        }
    }

    pub fn cost(self) -> u32 {
        match self {
            Osaisen | Minus => 0,
            Honoumai => 3,
            Omiki => 6,
            Hakurei => 2,
            Moriya => 5,
            Big6 => 8,
        }
    }

    pub fn vp(self) -> i32 {
        match self {
            Hakurei => 1,
            Moriya => 3,
            Big6 => 6,
            Minus => -1,
            _ => 0,
        }
    }

    pub fn is_resource(self) -> bool {
        self.coins() > 0
    }

    fn pile(self) -> usize {
        self as usize
    }
}

#[derive(Default)]
struct Player {
    /// The top of the deck is the end of the vector.
    deck: Vec<Card>,
    hand: Vec<Card>,
    discard: Vec<Card>,
    play: Vec<Card>,
    turns: u32,
}

impl Player {
    /// Draws `n` cards one at a time; the discard pile is shuffled into the deck
    /// only when the deck is empty and a card must be drawn.
    fn draw(&mut self, n: usize, rng: &mut ChaCha8Rng) {
        for _ in 0..n {
            if self.deck.is_empty() {
                if self.discard.is_empty() {
                    return;
                }
                std::mem::swap(&mut self.deck, &mut self.discard);
                self.deck.shuffle(rng);
            }
            let c = self.deck.pop().expect("deck is not empty");
            self.hand.push(c);
        }
    }

    fn score(&self) -> i32 {
        self.deck
            .iter()
            .chain(&self.hand)
            .chain(&self.discard)
            .chain(&self.play)
            .map(|c| c.vp())
            .sum()
    }
}

/// How one game ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// Seats (from 0) with the best score and, among those, the fewest turns.
    pub winners: Vec<u8>,
    pub scores: [i32; PLAYERS],
    /// Turns played by both players together.
    pub turns: u32,
    pub turns_taken: [u32; PLAYERS],
    pub limit: bool,
}

/// Big Money: the card to buy with `coins`, if any (the rules' `bigmoney` bot:
/// the 6-VP card at 8+, 御神酒 at 6+, 奉納米 at 3+, each only if its pile is not
/// empty, falling through to the next rule otherwise).
fn big_money(coins: u32, supply: &[u32; 7]) -> Option<Card> {
    [(Big6, 8), (Omiki, 6), (Honoumai, 3)]
        .into_iter()
        .find(|&(c, min)| coins >= min && supply[c.pile()] > 0)
        .map(|(c, _)| c)
}

/// The game ends (checked when a turn ends) when the 6-VP pile is empty or
/// three or more supply piles are.
fn ended(supply: &[u32; 7]) -> bool {
    supply[Big6.pile()] == 0 || supply.iter().filter(|&&n| n == 0).count() >= 3
}

/// Plays one two-player Big Money mirror.
pub fn play_game(seed: u64) -> Outcome {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut supply = PILE_SIZES_2P;
    let mut players: [Player; PLAYERS] = Default::default();
    for p in &mut players {
        p.deck.extend([Osaisen; 7]);
        p.deck.extend([Hakurei; 3]);
        p.deck.shuffle(&mut rng);
        p.draw(HAND_SIZE, &mut rng);
    }
    let mut active = rng.random_range(0..PLAYERS);
    let mut turn = 0u32;
    let mut limit = false;
    loop {
        if turn >= MAX_TURNS {
            limit = true;
            break;
        }
        turn += 1;
        let p = &mut players[active];
        p.turns += 1;
        // Action phase: Big Money plays no action (and holds none).
        // Buy phase: play every resource, then buy at most one card.
        let mut coins = 0;
        let mut i = 0;
        while i < p.hand.len() {
            if p.hand[i].is_resource() {
                let c = p.hand.remove(i);
                coins += c.coins();
                p.play.push(c);
            } else {
                i += 1;
            }
        }
        if let Some(c) = big_money(coins, &supply) {
            debug_assert!(c.cost() <= coins);
            supply[c.pile()] -= 1;
            p.discard.push(c);
        }
        // Clean-up: hand and played cards to the discard pile, draw 5.
        p.discard.append(&mut p.hand);
        p.discard.append(&mut p.play);
        p.draw(HAND_SIZE, &mut rng);
        if ended(&supply) {
            break;
        }
        active = (active + 1) % PLAYERS;
    }
    let scores = [players[0].score(), players[1].score()];
    let turns_taken = [players[0].turns, players[1].turns];
    // Most VP; ties go to fewer turns taken; still tied, a shared win.
    let key = |s: usize| (scores[s], std::cmp::Reverse(turns_taken[s]));
    let best = (0..PLAYERS).map(key).max().expect("two players");
    let winners = (0..PLAYERS)
        .filter(|&s| key(s) == best)
        .map(|s| s as u8)
        .collect();
    Outcome {
        winners,
        scores,
        turns: turn,
        turns_taken,
        limit,
    }
}

/// Totals over games with seeds `seed, seed + 1, …`.
#[derive(Debug, Clone, Default)]
pub struct Summary {
    pub games: u64,
    pub wins: [u64; PLAYERS],
    pub draws: u64,
    pub turns: u64,
}

impl Summary {
    pub fn win_rate(&self, seat: usize) -> f64 {
        self.wins[seat] as f64 / self.games.max(1) as f64
    }

    pub fn avg_turns(&self) -> f64 {
        self.turns as f64 / self.games.max(1) as f64
    }
}

pub fn simulate(seed: u64, games: u64) -> Summary {
    let mut s = Summary {
        games,
        ..Default::default()
    };
    for i in 0..games {
        let o = play_game(seed.wrapping_add(i));
        s.turns += o.turns as u64;
        match o.winners[..] {
            [w] => s.wins[w as usize] += 1,
            _ => s.draws += 1,
        }
    }
    s
}
