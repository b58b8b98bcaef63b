//! The syntax tree of a piece of card text: one node per match of a rule of
//! `grammar/effect.pest` that makes one (the silent rules make none), with its
//! span, in pest's order. Both parsers build it — the fast one directly, pest's
//! pairs copied — so one compiler walks either, and a test can compare them.

use pest::Parser;

use crate::lang::grammar::{EffectParser, Rule};

/// A node of a [`Tree`], stored in preorder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Slot {
    pub rule: Rule,
    pub start: u32,
    pub end: u32,
    /// The index just past this node's last descendant: its next sibling's.
    pub after: u32,
}

/// A parsed text: its nodes in preorder, the first the whole text's rule.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Tree<'i> {
    pub text: &'i str,
    pub slots: Vec<Slot>,
}

impl<'i> Tree<'i> {
    /// `text` parsed by pest as `rule`.
    pub fn by_pest(text: &'i str, rule: Rule) -> Result<Tree<'i>, pest::error::Error<Rule>> {
        EffectParser::parse(rule, text).map(|pairs| Tree::from_pest(text, pairs))
    }

    /// pest's pairs copied, without recursion (a text may nest deeper than
    /// the stack would allow; the compiler stops it at `MAX_NEST`).
    pub fn from_pest(text: &'i str, pairs: pest::iterators::Pairs<'i, Rule>) -> Tree<'i> {
        let mut slots = Vec::new();
        let mut open = vec![(pairs, u32::MAX)];
        while let Some((it, at)) = open.last_mut() {
            match it.next() {
                Some(p) => {
                    let span = p.as_span();
                    slots.push(Slot {
                        rule: p.as_rule(),
                        start: span.start() as u32,
                        end: span.end() as u32,
                        after: 0,
                    });
                    open.push((p.into_inner(), slots.len() as u32 - 1));
                }
                None => {
                    let after = slots.len() as u32;
                    if let Some(s) = slots.get_mut(*at as usize) {
                        s.after = after;
                    }
                    open.pop();
                }
            }
        }
        Tree { text, slots }
    }

    /// The top node: the rule the text was parsed as.
    pub fn root(&self) -> Node<'_> {
        Node { tree: self, i: 0 }
    }
}

/// A node of a tree, as the compiler reads it.
#[derive(Clone, Copy)]
pub(crate) struct Node<'t> {
    tree: &'t Tree<'t>,
    i: u32,
}

impl<'t> Node<'t> {
    fn slot(&self) -> &'t Slot {
        &self.tree.slots[self.i as usize]
    }
    pub fn as_rule(&self) -> Rule {
        self.slot().rule
    }
    pub fn start(&self) -> usize {
        self.slot().start as usize
    }
    pub fn end(&self) -> usize {
        self.slot().end as usize
    }
    /// The text the node spans.
    pub fn as_str(&self) -> &'t str {
        &self.tree.text[self.start()..self.end()]
    }
    /// The node's children, in order.
    pub fn into_inner(self) -> Children<'t> {
        Children {
            tree: self.tree,
            i: self.i + 1,
            end: self.slot().after,
        }
    }
}

/// The children of a node.
#[derive(Clone)]
pub(crate) struct Children<'t> {
    tree: &'t Tree<'t>,
    i: u32,
    end: u32,
}

impl<'t> Iterator for Children<'t> {
    type Item = Node<'t>;
    fn next(&mut self) -> Option<Node<'t>> {
        if self.i >= self.end {
            return None;
        }
        let n = Node {
            tree: self.tree,
            i: self.i,
        };
        self.i = n.slot().after;
        Some(n)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.clone().count();
        (n, Some(n))
    }
}

impl ExactSizeIterator for Children<'_> {}
