//! The search tree of single-observer ISMCTS: one tree over the observer's
//! information set, its edges the answers of every player (keyed by what
//! the observer can tell apart), chosen by UCT with availability counts
//! (an answer is not offered in every determinization).

/// One answer from a node.
pub struct Edge {
    pub key: u64,
    pub child: u32,
    /// The player who answers here: its reward is summed.
    pub player: u8,
    pub visits: u32,
    /// Times it was offered when its node was passed.
    pub avail: u32,
    pub total: f64,
}

#[derive(Default)]
pub struct Node {
    pub edges: Vec<Edge>,
}

/// UCT's exploration weight for rewards in [0, 1].
const EXPLORE: f64 = 0.7;

pub struct Tree {
    pub nodes: Vec<Node>,
}

impl Default for Tree {
    /// A tree of its root alone.
    fn default() -> Tree {
        Tree {
            nodes: vec![Node::default()],
        }
    }
}

impl Tree {
    /// Empties it to a root (keeping its memory).
    pub fn clear(&mut self) {
        self.nodes.truncate(1);
        self.nodes[0].edges.clear();
    }

    /// At `node`, offered answers with `keys`: counts them offered, then
    /// picks the one to follow, `Ok(edge)`, or `Err(i)`: the offered
    /// answer `i` has no edge yet (the first such after `start`, wrapping),
    /// to be expanded.
    pub fn select(&mut self, node: u32, keys: &[u64], start: usize) -> Result<usize, usize> {
        let edges = &mut self.nodes[node as usize].edges;
        let n = keys.len();
        for k in 0..n {
            let i = (start + k) % n;
            if !edges.iter().any(|e| e.key == keys[i]) {
                return Err(i);
            }
        }
        let mut best = (f64::NEG_INFINITY, 0);
        for (j, e) in edges.iter_mut().enumerate() {
            if !keys.contains(&e.key) {
                continue;
            }
            e.avail += 1;
            let v = e.visits.max(1) as f64;
            let ucb = e.total / v + EXPLORE * ((e.avail as f64).ln() / v).sqrt();
            if ucb > best.0 {
                best = (ucb, j);
            }
        }
        Ok(best.1)
    }

    /// Adds an edge from `node` for answer `key` of `player`: its index.
    pub fn expand(&mut self, node: u32, key: u64, player: u8) -> usize {
        let child = self.nodes.len() as u32;
        self.nodes.push(Node::default());
        let edges = &mut self.nodes[node as usize].edges;
        edges.push(Edge {
            key,
            child,
            player,
            visits: 0,
            avail: 1,
            total: 0.0,
        });
        edges.len() - 1
    }

    /// Adds one playout's rewards along a path of (node, edge).
    pub fn backup(&mut self, path: &[(u32, usize)], rewards: &[f64]) {
        for &(n, e) in path {
            let e = &mut self.nodes[n as usize].edges[e];
            e.visits += 1;
            e.total += rewards.get(e.player as usize).copied().unwrap_or(0.0);
        }
    }

    /// The root's most visited answer (ties: the first made).
    pub fn best(&self) -> Option<u64> {
        let edges = &self.nodes[0].edges;
        let mut best: Option<&Edge> = None;
        for e in edges {
            if best.is_none_or(|b| e.visits > b.visits) {
                best = Some(e);
            }
        }
        best.map(|e| e.key)
    }
}
