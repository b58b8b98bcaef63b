//! Sums of zones (`field + leader + boundary`) filtered or searched in
//! place: the cards `+` would list, taken onto the stack, with no list
//! made and joined; or, where the sum is a value, its list made once at
//! its full size rather than grown by each `+`.

use std::sync::Arc;

use super::*;

/// The zones of a left-nested `a + b + ...` of zone expressions, each with
/// the span of the `+` that adds it (the first two share the first `+`'s).
pub(in crate::fast) struct ZoneSum(Box<[(ZoneOp, Span)]>);

impl Compiler<'_> {
    /// The zones of `e` if it is a sum of two or more zone expressions,
    /// nested to the left as `a + b + c` parses.
    pub(super) fn zone_sum(&self, e: &Expr) -> Option<ZoneSum> {
        let mut leaves = Vec::new();
        self.sum_leaves(e, &mut leaves)?;
        (leaves.len() >= 2).then(|| ZoneSum(leaves.into_boxed_slice()))
    }

    fn sum_leaves(&self, e: &Expr, out: &mut Vec<(ZoneOp, Span)>) -> Option<()> {
        let Expr::Bin(BinOp::Add, a, b, span) = e else {
            return None;
        };
        let (Expr::Zone(..), span) = (&**b, *span) else {
            return None;
        };
        match &**a {
            Expr::Zone(..) => out.push((self.zone_op(a), span)),
            a => self.sum_leaves(a, out)?,
        }
        out.push((self.zone_op(b), span));
        Some(())
    }
}

impl ZoneSum {
    /// The cards the sum lists, in its order, read as `+` reads them: each
    /// zone after the code that names it runs, a hidden zone and a list too
    /// long failing at the `+` that adds them (the first zone's cards are
    /// read, and it is checked, with the second's).
    pub(super) fn cards(&self, g: &mut Game, f: &mut Frame, out: &mut Listed) -> Res<()> {
        self.walk::<true>(g, f, out).map(|_| ())
    }

    /// The list the sum makes as a value: paid for and failing as the
    /// chain of `+`s ([`Game::concat`]), then made at once from the cards
    /// read, in the game's spare list (the one the first `+` fills) and
    /// kept as its spare as `+` keeps it.
    pub(super) fn list(&self, g: &mut Game, f: &mut Frame) -> Res<Value> {
        let mut cards = Listed::new();
        self.walk::<true>(g, f, &mut cards)?;
        let cards = cards.as_slice();
        let mut list = g.spare_list();
        let v = Arc::make_mut(&mut list);
        v.reserve_exact(cards.len());
        v.extend(cards.iter().map(|&c| Value::Card(c)));
        Ok(g.keep_list(list))
    }

    /// The number of cards the sum lists, read (and failing) as
    /// [`ZoneSum::cards`] reads them, none copied.
    pub(super) fn count(&self, g: &mut Game, f: &mut Frame) -> Res<usize> {
        self.walk::<false>(g, f, &mut Listed::new())
    }

    /// The number of cards the sum lists for player `me` where the leading
    /// tag tests `t` turn away every one of them, each zone named without
    /// code; None where one may pass or a zone is found by code.
    pub(super) fn turned_away(&self, g: &Game, me: PlayerId, t: &ItemTest) -> Option<usize> {
        let mut n = 0;
        for (z, _) in self.0.iter() {
            let ZoneOp::At(z @ (ZoneAt::Fixed(_) | ZoneAt::Mine(_))) = z else {
                return None;
            };
            let inst = g.st.inst(z.mine(me));
            if t.lead_in(g, &g.st.zones[inst]).is_some() {
                return None;
            }
            n += g.st.listed_inst(inst);
        }
        Some(n)
    }

    /// [`ZoneSum::cards`], the cards copied onto `out` with `COPY`: the
    /// number listed.
    #[inline(always)]
    fn walk<const COPY: bool>(&self, g: &mut Game, f: &mut Frame, out: &mut Listed) -> Res<usize> {
        let mut listed = 0;
        let mut first = None;
        for (i, (zone, span)) in self.0.iter().enumerate() {
            let z = match zone.get(g, f)? {
                Value::Zone(z) => z,
                other => return g.err(*span, format!("expected a list, found {}", other.kind())),
            };
            if i == 0 {
                first = Some(z);
                continue;
            }
            let mut n = listed;
            // The zone's cards, found once: no code runs until they are read.
            let lz = g.st.listed(z);
            // The cards `+` copies, a step each: both zones' at the first.
            let mut copied = lz;
            if let Some(a) = first.take() {
                g.check_visible(a, *span)?;
                g.check_visible(z, *span)?;
                n = g.st.listed(a);
                copied += n;
                if COPY && n + lz <= crate::engine::MAX_LIST {
                    zone_cards(g, a, out);
                }
            } else {
                g.check_visible(z, *span)?;
            }
            if n + lz > crate::engine::MAX_LIST {
                let max = crate::engine::MAX_LIST;
                return g.err(*span, format!("a list of more than {max} items"));
            }
            g.charge(*span, copied as u64)?;
            // `+` weighs the game's memory once the list it grows is long.
            if n >= crate::limits::MEMORY_CHECK_STEPS as usize {
                g.check_memory(*span)?;
            }
            listed = n + lz;
            if COPY {
                zone_cards(g, z, out);
            }
        }
        Ok(listed)
    }
}
