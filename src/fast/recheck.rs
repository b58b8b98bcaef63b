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
use crate::engine::state::{END_TERMS, Kept, MEMO_NUMS, Memo, State};
use crate::value::{PlayerId, ZoneRef};
use std::sync::Arc;

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
    /// Where it keeps, and is an `or` (true) or an `and` of terms, those
    /// terms (`root` reads them in turn), each with what it reads: most
    /// actions write some counter or move some card, but not the ones a
    /// term reads, so its last answer holds.
    terms: Option<(bool, Terms)>,
}

/// The terms of an end check, each with what it reads.
type Terms = Arc<[(Node, Reads)]>;

/// What a term of the end check reads besides the players still in.
#[derive(Debug)]
enum Reads {
    /// One counter, of each player.
    Counter(u16),
    /// One declared zone's size, of each instance.
    Size(u16),
    /// Something else: read every time.
    Other,
}

impl Reads {
    fn of(q: &Quiet) -> Reads {
        let mut nums = Vec::new();
        if !reads(q, &mut nums) {
            return Reads::Other;
        }
        let mut keys: Vec<(u8, u16)> = (nums.iter())
            .filter_map(|n| match *n {
                Num::Const(_) => None,
                Num::Global(x) => Some((0, x)),
                Num::Counter(_, k) => Some((1, k)),
                Num::Size(z, _) => Some((2, z)),
            })
            .collect();
        keys.sort_unstable();
        keys.dedup();
        match keys[..] {
            [(1, k)] => Reads::Counter(k),
            [(2, z)] => Reads::Size(z),
            _ => Reads::Other,
        }
    }

    /// The numbers the term reads, the unused ones 0: its answer holds
    /// while they are equal (and no player lost). None where it reads
    /// something else or too many.
    #[inline(always)]
    fn nums(&self, st: &State) -> Option<[i64; MEMO_NUMS]> {
        let mut out = [0; MEMO_NUMS];
        let np = st.nplayers as usize;
        match *self {
            Reads::Counter(k) => {
                let row = st.ncounters;
                for (p, o) in out.get_mut(..np)?.iter_mut().enumerate() {
                    *o = st.counters[p * row + k as usize];
                }
            }
            Reads::Size(z) => {
                let l = st.layouts[z as usize];
                let n = if l.owner_mask == 0 { 1 } else { np };
                let zs = &st.zones[l.base as usize..l.base as usize + n];
                for (o, zi) in out.get_mut(..n)?.iter_mut().zip(zs) {
                    *o = zi.size() as i64;
                }
            }
            Reads::Other => return None,
        }
        Some(out)
    }

    /// Whether [`Reads::nums`] would give `kept`: read and compared one by
    /// one, no array made (the check runs after every action).
    #[inline(always)]
    fn same(&self, st: &State, kept: &[i64; MEMO_NUMS]) -> bool {
        let np = st.nplayers as usize;
        match *self {
            Reads::Counter(k) => {
                let row = st.ncounters;
                (0..np).all(|p| st.counters.get(p * row + k as usize) == kept.get(p))
            }
            Reads::Size(z) => {
                let l = st.layouts[z as usize];
                let n = if l.owner_mask == 0 { 1 } else { np };
                let zs = &st.zones[l.base as usize..l.base as usize + n];
                (zs.iter().enumerate()).all(|(i, zi)| Some(&(zi.size() as i64)) == kept.get(i))
            }
            Reads::Other => false,
        }
    }
}

/// Adds the numbers `q` reads to `out`; false where it reads something
/// else: [`crate::engine::state::State::version`] counts the writes to
/// these (and to the players' list: their losses).
fn reads(q: &Quiet, out: &mut Vec<Num>) -> bool {
    match q {
        Quiet::Not(x) | Quiet::AnyPlayer(_, x) => reads(x, out),
        Quiet::And(a, b) | Quiet::Or(a, b) => reads(a, out) && reads(b, out),
        Quiet::Num(c) => c.nums.iter().all(|n| read(n, out)),
        Quiet::Sum(c) => (c.sides.iter().flatten()).all(|(n, _)| read(n, out)),
        _ => false,
    }
}

fn read(n: &Num, out: &mut Vec<Num>) -> bool {
    // Every variant named: a read of something else is not counted.
    match n {
        Num::Const(_) | Num::Global(_) | Num::Counter(..) | Num::Size(..) => out.push(*n),
    }
    true
}

/// The terms of an `or` (true) or an `and` chain, in order.
fn terms(q: Quiet, or: bool, out: &mut Vec<Quiet>) {
    match q {
        Quiet::Or(a, b) if or => {
            terms(*a, or, out);
            terms(*b, or, out);
        }
        Quiet::And(a, b) if !or => {
            terms(*a, or, out);
            terms(*b, or, out);
        }
        q => out.push(q),
    }
}

impl Check {
    pub fn new(tree: Quiet) -> Check {
        Check {
            keeps: reads(&tree, &mut Vec::new()),
            root: compile(tree),
            terms: None,
        }
    }

    /// The rules' end check: as [`Check::new`], an `or` (`and`) of terms
    /// that keep apart (see `terms`) read term by term.
    pub fn end(tree: Quiet) -> Check {
        let keeps = reads(&tree, &mut Vec::new());
        let or = matches!(tree, Quiet::Or(..));
        let mut ts = Vec::new();
        if keeps && matches!(tree, Quiet::Or(..) | Quiet::And(..)) {
            terms(tree, or, &mut ts);
        } else {
            ts.push(tree);
        }
        let join = |a, b| match or {
            true => Quiet::Or(Box::new(a), Box::new(b)),
            false => Quiet::And(Box::new(a), Box::new(b)),
        };
        if ts.len() > END_TERMS {
            // The last terms kept as one.
            let rest = ts.split_off(END_TERMS - 1);
            ts.extend(rest.into_iter().reduce(join));
        }
        let rs: Vec<Reads> = ts.iter().map(Reads::of).collect();
        // No term kept apart: the tree as it was (its closures cost less
        // than reading the terms in turn).
        if rs.iter().all(|r| matches!(r, Reads::Other)) {
            let tree = ts.into_iter().reduce(join).expect("a tree");
            return Check {
                keeps,
                root: compile(tree),
                terms: None,
            };
        }
        let terms: Terms = ts.into_iter().map(compile).zip(rs).collect();
        let chain = terms.clone();
        Check {
            keeps,
            // As `or`'s (`and`'s) closures: a term read only where the
            // ones before it do not decide.
            root: Box::new(move |g, s, n| {
                for (term, _) in chain.iter() {
                    if term(g, s, n)? == or {
                        return Some(or);
                    }
                }
                Some(!or)
            }),
            terms: Some((or, terms)),
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
        if let Some(k) = g.st.end_kept.whole
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
        let (holds, steps) = match &self.terms {
            Some((or, terms)) => decide_terms(g, me, *or, terms)?,
            None => self.decide(g, me)?,
        };
        g.st.end_kept.whole = Some(Kept {
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

/// [`Check::decide`] of an `or` (`and`) of terms for the active player
/// `me`, each term's last answer given again where the numbers it reads
/// are the same.
fn decide_terms(
    g: &mut Game,
    me: PlayerId,
    or: bool,
    terms: &[(Node, Reads)],
) -> Option<(bool, u64)> {
    let scope = Scope {
        this: None,
        me,
        bound: None,
    };
    let mut steps = 0;
    for (i, (term, reads)) in terms.iter().enumerate() {
        let holds = match &g.st.end_kept.terms[i] {
            Some(k) if k.me == me && reads.same(&g.st, &k.nums) => {
                debug_assert_eq!(
                    term(g, &scope, &mut 0),
                    Some(k.holds),
                    "a kept term's answer changed with the numbers it reads"
                );
                steps += k.steps;
                k.holds
            }
            _ => {
                let mut n = 0;
                let holds = term(g, &scope, &mut n)?;
                steps += n;
                g.st.end_kept.terms[i] = (reads.nums(&g.st)).map(|nums| Memo {
                    nums,
                    me,
                    holds,
                    steps: n,
                });
                holds
            }
        };
        if holds == or {
            return Some((or, steps));
        }
    }
    Some((!or, steps))
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
