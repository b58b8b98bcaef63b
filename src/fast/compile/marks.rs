//! `mark(cards, tag)` and `unmark(cards, tag)` run for their effect, with
//! no argument list. Of a sum of zones (`field + field(foe)`), the cards
//! `+` would list are taken onto the stack and tagged in place, no list
//! made, joined and walked: charged as `+` charges (the copied cards), and
//! nothing more, as the walk of a list is not. One card is tagged as it is.

use super::*;

impl Compiler<'_> {
    /// The statement `b(cards, tag)` (`b` is mark or unmark) where the tag
    /// is named; None otherwise.
    pub(super) fn marker(&self, b: Builtin, args: &[Expr], span: Span) -> Option<StmtFn> {
        let [cards, Expr::Int(tag)] = args else {
            return None;
        };
        let (bit, on) = (crate::value::bit(*tag), b == Builtin::Mark);
        let Some(sum) = self.zone_sum(cards) else {
            let cards = self.val(cards);
            return Some(Box::new(move |g, f| {
                let v = cards(g, f)?;
                f.span = span;
                match v {
                    Value::Card(c) => g.set_tag(c, bit, on),
                    v => {
                        for c in g.cards_walked(&v, f)? {
                            g.set_tag(c, bit, on);
                        }
                    }
                }
                Ok(())
            }));
        };
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
