//! The answers a search weighs for a request, and their keys: what tells
//! one answer from another at a node of the tree.

use std::hash::{Hash, Hasher};

use crate::engine::Game;
use crate::engine::request::{Picks, Request};

/// At most this many answers of a many-pick request are weighed: the first
/// ones in order (one-pick requests offer all their options).
pub const MANY: usize = 32;

/// The answers weighed for `req`: every option of a one-pick request (and
/// none, if that is allowed); for more picks, the sets of `min` to `max`
/// options in order, up to [`MANY`]. An order request's answers are its
/// options in the order listed (the order is not searched).
pub fn answers(req: &Request, out: &mut Vec<Picks>) {
    sets(req.options.len(), req.min, req.max, out)
}

/// The answers of `min` to `max` picks of `n` options.
fn sets(n: usize, min: usize, max: usize, out: &mut Vec<Picks>) {
    out.clear();
    let (min, max) = (min.min(n), max.min(n));
    if max <= 1 {
        if min == 0 {
            out.push(Picks::new());
        }
        out.extend((0..n.min(max * n)).map(|i| Picks::from_slice(&[i])));
        return;
    }
    for k in min..=max {
        let mut pick: Picks = (0..k).collect();
        loop {
            if out.len() >= MANY {
                return;
            }
            out.push(pick.clone());
            // The next set of k in order.
            let Some(i) = (0..k).rev().find(|&i| pick[i] < n - k + i) else {
                break;
            };
            pick[i] += 1;
            for j in i + 1..k {
                pick[j] = pick[j - 1] + 1;
            }
        }
    }
}

/// The key of an answer as its player tells it: the request's name and
/// prompt, and each option picked by its key, except a card its player may
/// not see where it lies, known only by its place among the options (so a
/// key never names a card hidden from its player).
pub fn key(g: &Game, req: &Request, picks: &[usize]) -> u64 {
    let mut h = std::hash::DefaultHasher::new();
    (req.name, req.prompt).hash(&mut h);
    for &i in picks {
        let o = &req.options[i];
        let shown = o.label_for(g, req.player);
        if shown.ends_with("a face-down card") {
            (shown, i).hash(&mut h);
        } else {
            o.key(g).hash(&mut h);
        }
    }
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sets(n: usize, min: usize, max: usize) -> Vec<Vec<usize>> {
        let mut out = Vec::new();
        super::sets(n, min, max, &mut out);
        out.into_iter().map(|p| p.to_vec()).collect()
    }

    #[test]
    fn one_pick_answers_are_the_options() {
        assert_eq!(sets(3, 1, 1), vec![vec![0], vec![1], vec![2]]);
        assert_eq!(sets(2, 0, 1), vec![vec![], vec![0], vec![1]]);
        assert_eq!(sets(0, 0, 1), vec![Vec::<usize>::new()]);
    }

    #[test]
    fn many_pick_answers_are_sets_in_order() {
        assert_eq!(sets(3, 2, 2), vec![vec![0, 1], vec![0, 2], vec![1, 2]]);
        assert_eq!(sets(3, 1, 3).len(), 7);
        assert_eq!(sets(40, 3, 3).len(), MANY);
    }
}
