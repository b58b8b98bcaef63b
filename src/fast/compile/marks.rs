//! `mark(a + b, tag)` and `unmark(a + b, tag)` of a sum of zones, run for
//! their effect: the cards `+` would list taken onto the stack and tagged
//! in place, no list made, joined and walked. Charged as `+` charges (the
//! copied cards), and nothing more, as the walk of a list is not.

use super::zonesum::ZoneSum;
use super::*;

impl Compiler<'_> {
    /// The statement `b(cards, tag)` (`b` is mark or unmark) where `cards`
    /// is a sum of zones and the tag is named; None otherwise.
    pub(super) fn marker(&self, b: Builtin, args: &[Expr], span: Span) -> Option<StmtFn> {
        let [cards, Expr::Int(tag)] = args else {
            return None;
        };
        let sum: ZoneSum = self.zone_sum(cards)?;
        let (bit, on) = (crate::value::bit(*tag), b == Builtin::Mark);
        Some(Box::new(move |g, f| {
            let mut cards = Listed::new();
            sum.cards(g, f, &mut cards)?;
            f.span = span;
            for &c in cards.as_slice() {
                g.set_tag(c, bit, on);
            }
            Ok(())
        }))
    }
}
