//! What the tier recognises in the declarations ([`super::native`]), found
//! once when the tier is made and kept here by declaration index: the
//! declarations hold only what the data says.

use super::compile::Body;
use super::conditions::{self, Condition};
use super::native::{self, Choose, CmpOp, FastChoose, FastRule, FastRules, Operand, Pick, Test};
use super::quiet;
use super::recheck::Check;
use crate::data::{BotRule, Data};
use crate::lang::ir::Span;

/// The tier's tables of one [`Data`].
pub struct Tables {
    /// By move.
    pub moves: Box<[MoveFast]>,
    /// By bot, by rule.
    pub rules: Box<[Box<[RuleFast]>]>,
    /// By window.
    pub windows: Box<[WindowFast]>,
    /// By phase: the windows it opens, when that is all its code does.
    pub phases: Box<[Option<Box<[u16]>>]>,
    /// By trigger: its condition, when it is quiet ([`quiet`]), made into
    /// closures ([`conditions`]).
    pub conditions: Box<[Option<Condition>]>,
    /// The rules' end check, when it is quiet.
    pub end: Option<Check>,
}

/// A move's `cond` and `pick` recognised as native tests, if they are.
pub struct MoveFast {
    pub cond_test: Option<Test>,
    /// `cond`, when it compares two numbers of the player's: decided in place.
    pub cond_cmp: Option<(Operand, CmpOp, Operand)>,
    /// `cond` with no native test, when it or the conjuncts it starts
    /// with are quiet ([`quiet::lead`]): decided from the game.
    pub cond_lead: Option<CondLead>,
    pub pick: Option<Pick>,
}

/// A condition's quiet part: all of it (`whole`), or the conjuncts it
/// starts with, which decide it only when they are false.
pub struct CondLead {
    pub check: Check,
    pub whole: bool,
}

/// A bot rule's `cond` and `choose` recognised as native decisions.
pub struct RuleFast {
    pub cond_test: Option<Test>,
    pub choose: Choose,
    /// `cond`, when it compares two numbers of the player's (no property,
    /// nothing of the option): decided in place.
    pub cond_cmp: Option<(Operand, CmpOp, Operand)>,
}

/// A window as the tier runs it.
pub struct WindowFast {
    /// The window's one move, when its pick is native: a data bot may
    /// decide before the options are listed.
    pub quick: Option<QuickMove>,
    /// Whether every player acts in it (as declared).
    pub all_players: bool,
    /// By bot (in a quick window).
    pub bots: Box<[BotFast]>,
}

/// What every round of a quick window reads of its one move, copied here
/// so a window opened finds it in one place.
pub struct QuickMove {
    pub m: u16,
    /// The span of the move's `pick`.
    pub pick: Span,
    pub np: Pick,
    /// The move's [`MoveFast`] `cond_test` and `cond_cmp`.
    pub cond_test: Option<Test>,
    pub cond_cmp: Option<(Operand, CmpOp, Operand)>,
    /// The move's body compiled, and its frame's size: a window opened
    /// finds it here, not through the code's first-run cell.
    pub body: (Body, usize),
    /// Whether the body binds `it` (its frame has slots), and whether it
    /// runs in place on `it` ([`Body::Straight`] on slot 0), and if so
    /// whether it may move the card into the pick's zone: found once.
    pub has_it: bool,
    pub straight: bool,
    pub into_pick: bool,
}

/// One bot in one quick window.
pub struct BotFast {
    /// The bot's index.
    pub b: usize,
    /// When the first rule listed has no condition and chooses by the
    /// pick's own test (it takes every card the pick lists), its `choose`'s
    /// span.
    pub takes: Option<Span>,
    /// The rules, when all have a shape resolved here.
    pub fast: Option<FastRules>,
    /// Its rules listed for the window (as declared), kept here so a
    /// window's plan is built from this one entry.
    pub list: Box<[u32]>,
}

impl Tables {
    pub fn new(data: &Data) -> Tables {
        let names: Vec<String> = data.moves.iter().map(|m| m.name.clone()).collect();
        let moves: Box<[MoveFast]> = (data.moves.iter())
            .map(|m| {
                let cond_test = m.cond.as_ref().and_then(|c| native::test(c, None, &names));
                let lead = (m.cond.as_ref())
                    .filter(|_| cond_test.is_none())
                    .and_then(|c| quiet::lead(c, data));
                MoveFast {
                    cond_cmp: native::plain_cmp(cond_test.as_ref()),
                    cond_lead: lead.map(|(q, whole)| CondLead {
                        check: Check::new(q),
                        whole,
                    }),
                    cond_test,
                    pick: m.pick.as_ref().and_then(|p| native::pick(p, &names)),
                }
            })
            .collect();
        let rules: Box<[Box<[RuleFast]>]> = (data.bots.iter())
            .map(|(_, rules)| rules.iter().map(|r| rule(r, &names)).collect())
            .collect();
        let windows = (data.windows.iter())
            .map(|w| {
                let quick = match w.moves[..] {
                    [m] => quick_move(data, m, &moves[m as usize]),
                    _ => None,
                };
                let bots = match &quick {
                    None => Box::default(),
                    Some(q) => (w.bots.iter().zip(&rules).zip(&data.bots).enumerate())
                        .map(|(b, ((wb, fast), (_, decl)))| {
                            bot(data, b, q.m, &moves[q.m as usize], &wb.rules, decl, fast)
                        })
                        .collect(),
                };
                WindowFast {
                    quick,
                    all_players: w.all_players,
                    bots,
                }
            })
            .collect();
        Tables {
            moves,
            rules,
            windows,
            phases: (data.turn.phases.iter())
                .map(|ph| ph.body.only_windows())
                .collect(),
            conditions: conditions::conditions(data),
            end: quiet::condition(&data.end_if, data).map(Check::end),
        }
    }
}

fn rule(r: &BotRule, names: &[String]) -> RuleFast {
    let cond_test = r
        .cond
        .as_ref()
        .and_then(|c| native::test(c, Some(0), names));
    RuleFast {
        cond_cmp: native::plain_cmp(cond_test.as_ref()).filter(|_| !r.cond_reads_it),
        choose: native::choose(&r.choose, names),
        cond_test,
    }
}

/// A window's one move `m`, when its pick is native.
fn quick_move(data: &Data, m: u16, mf: &MoveFast) -> Option<QuickMove> {
    let pick = data.moves[m as usize].pick.as_ref()?.span;
    let np = mf.pick.clone()?;
    let code = &data.moves[m as usize].body;
    let body = super::compile::compile(data, code);
    let has_it = code.slots > 0 && body.1 > 0;
    let (straight, into_pick) = match &body.0 {
        Body::Straight(s, _) if has_it && s.slot == 0 => (true, s.moves_into(np.zone)),
        _ => (false, false),
    };
    Some(QuickMove {
        m,
        pick,
        np,
        cond_test: mf.cond_test.clone(),
        cond_cmp: mf.cond_cmp,
        body,
        has_it,
        straight,
        into_pick,
    })
}

/// Bot `b` in a window whose one move, `m`, has a native pick.
fn bot(
    data: &Data,
    b: usize,
    m: u16,
    mf: &MoveFast,
    list: &[u32],
    decl: &[BotRule],
    fast: &[RuleFast],
) -> BotFast {
    let takes = (|| {
        let np = mf.pick.as_ref()?;
        let r = *list.first()? as usize;
        match &fast.get(r)?.choose {
            Choose::Test(t) if decl[r].cond.is_none() && *t == np.test => Some(decl[r].choose.span),
            _ => None,
        }
    })();
    BotFast {
        b,
        takes,
        fast: fast_rules(data, m, mf, list, decl, fast),
        list: list.into(),
    }
}

/// The rules `list` of a bot for move `m` as [`FastRules`], when they and
/// the move's pick all have that shape.
fn fast_rules(
    data: &Data,
    m: u16,
    mf: &MoveFast,
    list: &[u32],
    decl: &[BotRule],
    fast: &[RuleFast],
) -> Option<FastRules> {
    let Test::Cmp(Operand::Prop(pr), op, Operand::Counter(counter)) = mf.pick.as_ref()?.test else {
        return None;
    };
    let label = data.moves[m as usize].label.as_str();
    let rules = list
        .iter()
        .map(|&r| {
            let (rule, rf) = (decl.get(r as usize)?, fast.get(r as usize)?);
            let cond = match (&rule.cond, rf.cond_cmp) {
                (None, _) => None,
                (Some(_), Some((Operand::Counter(k), op, Operand::Int(y)))) => {
                    let (lo, hi) = native::range(op, y)?;
                    Some((k, lo, hi))
                }
                _ => return None,
            };
            let choose = match rf.choose {
                Choose::Test(Test::DefEq { def, negate }) => FastChoose::Def { def, negate },
                Choose::Test(Test::Is { tag, negate }) => FastChoose::Tag {
                    bit: crate::value::bit(tag),
                    negate,
                },
                // Text starting with the move's label may name an option.
                Choose::Str(ref s) if **s == "pass" && !s.starts_with(label) => FastChoose::Pass,
                _ => return None,
            };
            Some(FastRule { cond, choose })
        })
        .collect::<Option<_>>()?;
    ((pr as usize) < data.names.props.len()).then_some(FastRules {
        rules,
        counter,
        op,
        prop: pr,
    })
}
