//! A quiet condition ([`super::quiet`]) compiled once into small closures:
//! the rules' end check, and moves' conditions. Games that check the end
//! after every action ask it hundreds of times a game, and a window lists
//! its moves every round; walking the tree (one large recursive match
//! a node) cost several hundred instructions a check, and a closure a node
//! that does only its own work costs a fraction. The truth and the steps
//! are the tree's, node for node: the closures call the same reads and
//! count the players' lists as the tree's walk does.

use super::quiet::{Num, Quiet, Scope, Who, same, truthy};
use crate::engine::Game;
use crate::engine::state::Kept;
use crate::value::{PlayerId, ZoneRef};

/// One node: its truth in a scope, the steps of the lists it walks added;
/// None where the tree gives up.
type Node = Box<dyn Fn(&Game, &Scope, &mut u64) -> Option<bool> + Send + Sync>;

/// A quiet condition, compiled.
pub struct Check {
    root: Node,
    /// It reads only what [`crate::engine::state::State::version`] counts
    /// the writes to (counters, globals, zone sizes, players' losses): its
    /// last answer holds while that stays.
    keeps: bool,
}

impl Check {
    pub fn new(tree: Quiet) -> Check {
        Check {
            keeps: counted(&tree),
            root: compile(tree),
        }
    }

    /// [`Check::decide`] for the active player (the end check), the last answer given
    /// again where nothing it reads was written since (the check runs after
    /// every action, most of which change none of it). A viewer may not
    /// know a size: none kept then.
    #[inline]
    pub fn decide_kept(&self, g: &mut Game) -> Option<(bool, u64)> {
        let me = g.st.active;
        if !self.keeps || g.viewer.is_some() {
            return self.decide(g, me);
        }
        let version = g.st.version;
        if let Some(k) = g.st.end_kept
            && k.version == version
            && k.me == me
        {
            debug_assert_eq!(
                self.decide(g, me),
                Some((k.holds, k.steps)),
                "a kept end check's answer changed with no write counted"
            );
            return Some((k.holds, k.steps));
        }
        let (holds, steps) = self.decide(g, me)?;
        g.st.end_kept = Some(Kept {
            version,
            me,
            holds,
            steps,
        });
        Some((holds, steps))
    }

    /// The condition's truth for player `me` (no card) and the steps its lists cost, as
    /// the tree's walk finds them (`Quiet::truth`).
    #[inline]
    pub fn decide(&self, g: &Game, me: PlayerId) -> Option<(bool, u64)> {
        let mut steps = 0;
        let scope = Scope {
            this: None,
            me,
            bound: None,
        };
        Some(((self.root)(g, &scope, &mut steps)?, steps))
    }
}

/// Whether the tree reads only numbers [`crate::engine::state::State::version`]
/// counts the writes to (and the players' list, whose losses it counts).
fn counted(q: &Quiet) -> bool {
    match q {
        Quiet::Not(x) | Quiet::AnyPlayer(_, x) => counted(x),
        Quiet::And(a, b) | Quiet::Or(a, b) => counted(a) && counted(b),
        Quiet::Num(c) => c.nums.iter().all(counted_num),
        Quiet::Sum(c) => (c.sides.iter().flatten()).all(|(n, _)| counted_num(n)),
        _ => false,
    }
}

fn counted_num(n: &Num) -> bool {
    // Every variant named: a read of something else is not counted.
    match n {
        Num::Const(_) | Num::Global(_) | Num::Counter(..) | Num::Size(..) => true,
    }
}

/// The tree's nodes as closures: `not`, `and`, `or`, `any` of the players
/// and comparisons of numbers; any other node (a leaf) is decided by the
/// tree's own walk.
fn compile(q: Quiet) -> Node {
    match q {
        // `not empty(z)` in one node.
        Quiet::Not(x) if let Quiet::Truthy(r) = *x => {
            Box::new(move |g, s, _| Some(!truthy(r.get(g, s)?)))
        }
        Quiet::Not(x) => {
            let x = compile(*x);
            Box::new(move |g, s, n| Some(!x(g, s, n)?))
        }
        Quiet::And(a, b) => {
            let (a, b) = (compile(*a), compile(*b));
            Box::new(move |g, s, n| Some(a(g, s, n)? && b(g, s, n)?))
        }
        Quiet::Or(a, b) => {
            let (a, b) = (compile(*a), compile(*b));
            Box::new(move |g, s, n| Some(a(g, s, n)? || b(g, s, n)?))
        }
        Quiet::AnyPlayer(all, ref body) if let Quiet::Num(c) = &**body => {
            let op = c.op;
            match c.nums {
                // A counter or a zone's size of the player bound, against
                // a constant: read straight by player.
                [Num::Counter(Who::Bound, k), Num::Const(x)] => Box::new(move |g, s, n| {
                    any_num(g, s, n, all, |p| Some(op.holds(g.st.counter(p, k), x)))
                }),
                [Num::Size(z, Who::Bound), Num::Const(x)] => Box::new(move |g, s, n| {
                    let shared = g.st.shared(z);
                    any_num(g, s, n, all, |p| {
                        // As `Game::zone_size`: a viewer may not know a size.
                        if g.viewer.is_some() {
                            return None;
                        }
                        let owner = if shared { 0 } else { p };
                        let size = g.st.size(ZoneRef { zone: z, owner });
                        Some(op.holds(size as i64, x))
                    })
                }),
                [a, b] => Box::new(move |g, s, n| {
                    any_num(g, s, n, all, |p| {
                        let s = &Scope {
                            bound: Some(p),
                            ..*s
                        };
                        Some(op.holds(a.get(g, s)?, b.get(g, s)?))
                    })
                }),
            }
        }
        Quiet::AnyPlayer(all, body) => {
            let body = compile(*body);
            Box::new(move |g, s, n| any_player(g, s, n, all, &body))
        }
        Quiet::Num(c) => {
            let ([a, b], op) = (c.nums, c.op);
            match b {
                Num::Const(k) => Box::new(move |g, s, _| Some(op.holds(a.get(g, s)?, k))),
                _ => Box::new(move |g, s, _| Some(op.holds(a.get(g, s)?, b.get(g, s)?))),
            }
        }
        Quiet::Sum(c) => Box::new(move |g, s, _| c.holds(g, s)),
        Quiet::Eq(a, b, eq) => {
            Box::new(move |g, s, _| Some(same(g, a.get(g, s)?, b.get(g, s)?) == eq))
        }
        Quiet::Truthy(x) => Box::new(move |g, s, _| Some(truthy(x.get(g, s)?))),
        leaf => Box::new(move |g, s, n| leaf.truth::<true>(g, s, n)),
    }
}

/// [`any_player`] of a comparison of numbers: the same truth and steps
/// in any order, since such a read gives up for every player or none (a
/// viewer who may not know a size): the players are tried by index.
#[inline(always)]
fn any_num(
    g: &Game,
    s: &Scope,
    steps: &mut u64,
    all: bool,
    holds: impl Fn(PlayerId) -> Option<bool>,
) -> Option<bool> {
    let from = if all { g.st.active } else { s.me } as usize;
    let (mut listed, mut any) = (0, false);
    for (p, &lost) in g.st.lost[..g.st.nplayers as usize].iter().enumerate() {
        if lost || (!all && p == from) {
            continue;
        }
        listed += 1;
        if !any {
            any = holds(p as PlayerId)?;
        }
    }
    *steps += listed;
    Some(any)
}

/// `any(players(), body)` (`all`) or `any(others(), body)`: the list's
/// length charged before the first is tried, then each player in turn
/// order (from the active player, or after `me`) bound until one holds.
#[inline(always)]
fn any_player(g: &Game, s: &Scope, steps: &mut u64, all: bool, body: &Node) -> Option<bool> {
    let from = if all { g.st.active } else { s.me };
    let np = g.st.nplayers as usize;
    let lost = &g.st.lost[..np];
    *steps += (lost.iter().enumerate())
        .filter(|&(p, &l)| !l && (all || p != from as usize))
        .count() as u64;
    for p in g.turn_order_iter(from, all) {
        let inner = Scope {
            bound: Some(p),
            ..*s
        };
        if body(g, &inner, steps)? {
            return Some(true);
        }
    }
    Some(false)
}
