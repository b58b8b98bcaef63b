//! The board operations: dice, pieces moving along the track (raising `passes`
//! and `stops`, which rules and cards wait for like other events), square
//! properties, and the board as one transcript line.

use super::exec::Frame;
use super::log::{Entry, Part, Place, pname};
use super::state::Event;
use super::{Game, Res};
use crate::data::Visibility;
use crate::lang::builtins::Builtin;
use crate::lang::ir::Span;
use crate::limits::MAX_ADVANCE;
use crate::value::{Args, PlayerId, Value};

impl Game {
    /// The board operations of [`Builtin`].
    pub(crate) fn board_call(&mut self, b: Builtin, a: &mut Args, f: &mut Frame) -> Res<Value> {
        let sp = f.span;
        self.has_board(b, sp)?;
        // Operations whose first parameter is an optional player.
        let (who, rest) = match a.first() {
            Some(Value::Player(p)) if a.len() > b.arity().0 => (*p, 1),
            _ => (f.me, 0),
        };
        Ok(match b {
            Builtin::Roll => {
                let n = self.int(&a[rest], sp)?;
                let sides = match a.get(rest + 1) {
                    Some(v) => self.int(v, sp)?,
                    None => 6,
                };
                if !(0..=100).contains(&n) || !(1..=1_000_000).contains(&sides) {
                    return self.err(
                        sp,
                        "roll(n, sides) needs 0 <= n <= 100 and 1 <= sides <= 1000000",
                    );
                }
                // The dice are kept only for the log line.
                let mut dice = Vec::new();
                let mut total = 0i64;
                for _ in 0..n {
                    let d = match self.st.board.dice.pop_front() {
                        Some(d) => d.clamp(1, sides),
                        None => 1 + self.st.below(sides as usize) as i64,
                    };
                    total += d;
                    if self.logging {
                        dice.push(d);
                    }
                }
                if self.logging {
                    let shown: Vec<String> = dice.iter().map(|d| d.to_string()).collect();
                    let text = format!("{} rolls {} = {total}", pname(who), shown.join(" + "));
                    self.push(Entry::Text { text });
                }
                Value::Int(total)
            }
            Builtin::Piece => Value::Int(self.st.board.pieces[who as usize] as i64),
            Builtin::Advance => {
                let steps = self.int(&a[rest], sp)?;
                if !(0..=MAX_ADVANCE).contains(&steps) {
                    return self.err(sp, format!("advance moves 0 to {MAX_ADVANCE} squares"));
                }
                // A step a square past 64, as a move pays for the cards it
                // passes over: a long way round costs what it costs.
                self.charge_passed(sp, steps as usize)?;
                let from = self.st.board.pieces[who as usize];
                let mut at = from;
                if self.logging {
                    let to = self.ahead(from, steps);
                    let text = format!(
                        "{} moves {steps}: {} → {}",
                        pname(who),
                        self.square_label(from),
                        self.square_label(to)
                    );
                    self.push(Entry::Text { text });
                }
                for i in 0..steps {
                    at = self.ahead(at, 1);
                    self.st.board.pieces[who as usize] = at;
                    let b = &self.data.board;
                    let e = if i + 1 == steps { b.stops } else { b.passes };
                    self.board_event(e, who, at, f)?;
                }
                Value::Int(self.st.board.pieces[who as usize] as i64)
            }
            Builtin::PlacePiece => {
                let s = self.square(&a[rest], sp)?;
                self.st.board.pieces[who as usize] = s;
                if self.logging {
                    let text = format!("{}'s piece goes to {}", pname(who), self.square_label(s));
                    self.push(Entry::Text { text });
                }
                Value::None
            }
            Builtin::Squares => {
                let kind = match a.first() {
                    Some(Value::Str(k)) => Some(k.clone()),
                    Some(other) => {
                        return self.err(
                            sp,
                            format!("squares(kind): the kind is a string, not {}", other.kind()),
                        );
                    }
                    None => None,
                };
                self.squares_list(kind.as_ref().map(|k| k.as_str()))
            }
            Builtin::NextSquare => {
                let s = self.square(&a[0], sp)?;
                let n = match a.get(1) {
                    Some(v) => self.int(v, sp)?,
                    None => 1,
                };
                if self.st.board.place[s as usize] == u32::MAX {
                    return self.err(sp, format!("square {s} is not on the track"));
                }
                Value::Int(self.ahead(s, n) as i64)
            }
            Builtin::SquareKind => self.square_kind(&a[0], sp)?,
            Builtin::SquareName => {
                let s = self.square(&a[0], sp)?;
                Value::text(self.data.board.squares[s as usize].name.clone())
            }
            Builtin::SquareCard => self.square_card(&a[0], sp)?,
            Builtin::SquareGet => self.square_get(&a[0], &a[1], sp)?,
            Builtin::SquareSet => {
                let s = self.square(&a[0], sp)?;
                let p = self.int(&a[1], sp)? as usize;
                let v = a.pop().unwrap_or_default();
                let was = self.st.board.prop(s as usize, p);
                if self.logging && !self.equal(was, &v) {
                    // A card in a property is named to those who may see it
                    // where it is now (a land's character back in a hand).
                    let label = format!(
                        "{}: {} ",
                        self.square_label(s),
                        self.data.names.square_props[p]
                    );
                    let mut parts = vec![Part::Text(label)];
                    self.value_parts(was, &mut parts);
                    parts.push(Part::Text(" → ".into()));
                    self.value_parts(&v, &mut parts);
                    self.push(Entry::Said { parts });
                }
                self.st.board.set_prop(s as usize, p, v);
                Value::None
            }
            Builtin::BoardSections => {
                let keep = self.items(&a[0], sp)?.to_vec();
                let mut sections = Vec::with_capacity(keep.len());
                for v in &keep {
                    sections.push(self.int(v, sp)?);
                }
                sections.sort_unstable();
                // The track is laid again: a step a square past 64.
                self.charge_passed(sp, self.data.board.squares.len())?;
                let data = self.data.clone();
                if !self.st.board.lay_sections(&data, &sections) {
                    return self.err(sp, "board_sections: no square is in these sections");
                }
                Value::None
            }
            Builtin::ShowBoard => {
                if self.logging {
                    let parts = self.board_parts();
                    self.push(Entry::Said { parts });
                }
                Value::None
            }
            _ => unreachable!("not a board operation"),
        })
    }

    /// `square_kind(s)`, `square_card(s)` and `square_get(s, prop)`: the
    /// board's readers, one body for the kernel's call and for a tier that
    /// calls them with no argument list (the board checked as
    /// [`Game::board_call`] checks it).
    #[inline]
    pub(crate) fn square_kind(&self, s: &Value, sp: Span) -> Res<Value> {
        let s = self.board_square(Builtin::SquareKind, s, sp)?;
        Ok(Value::Str(self.data.board.squares[s as usize].kind.clone()))
    }

    /// See [`Game::square_kind`].
    #[inline]
    pub(crate) fn square_card(&self, s: &Value, sp: Span) -> Res<Value> {
        let s = self.board_square(Builtin::SquareCard, s, sp)?;
        Ok((self.data.board.squares[s as usize].card).map_or(Value::None, Value::Def))
    }

    /// See [`Game::square_kind`].
    #[inline]
    pub(crate) fn square_get(&self, s: &Value, p: &Value, sp: Span) -> Res<Value> {
        let s = self.board_square(Builtin::SquareGet, s, sp)?;
        let p = self.int(p, sp)? as usize;
        Ok(self.st.board.prop(s as usize, p).clone())
    }

    /// `squares()` or `squares(kind)`: the list made when the track was
    /// laid (an empty one for a kind no square has).
    #[inline]
    pub(crate) fn squares_list(&self, kind: Option<&str>) -> Value {
        let found = (self.st.board.lists.iter())
            .find(|(k, _)| k.as_ref().map(|k| k.as_str()) == kind)
            .map(|(_, l)| l.clone());
        found.unwrap_or_else(|| Value::list(Vec::new()))
    }

    /// The square `v` names, for operation `b`: an error in a game with no
    /// board, as [`Game::board_call`] makes it.
    #[inline(always)]
    pub(crate) fn board_square(&self, b: Builtin, v: &Value, sp: Span) -> Res<u32> {
        self.has_board(b, sp)?;
        self.square(v, sp)
    }

    /// Operation `b` needs a board: an error in a game that declares none.
    #[inline(always)]
    fn has_board(&self, b: Builtin, sp: Span) -> Res<()> {
        if self.data.board.squares.is_empty() {
            return self.err(sp, format!("`{}`: this game declares no board", b.name()));
        }
        Ok(())
    }

    /// Raises a movement event for the abilities waiting for it (no `would`:
    /// a piece's step cannot be prevented; no line: the move's line says it).
    fn board_event(&mut self, e: Option<u16>, p: PlayerId, square: u32, f: &Frame) -> Res<()> {
        let Some(e) = e else {
            return Ok(());
        };
        if !self.has_listeners(e, false) {
            return Ok(());
        }
        let mut ev = Event::new(e);
        ev.player = Some(p);
        ev.target = Value::Int(square as i64);
        self.dispatch_done(f.data, ev)
    }

    /// The square n steps ahead of s on the track (s must be on it).
    fn ahead(&self, s: u32, n: i64) -> u32 {
        let b = &self.st.board;
        let len = b.track.len() as i64;
        let i = (b.place[s as usize] as i64 + n).rem_euclid(len);
        b.track[i as usize]
    }

    /// The square a number names; the error out of line.
    #[inline(always)]
    fn square(&self, v: &Value, sp: Span) -> Res<u32> {
        let n = self.int(v, sp)?;
        match usize::try_from(n) {
            Ok(s) if s < self.data.board.squares.len() => Ok(s as u32),
            _ => self.no_square(n, sp),
        }
    }

    #[cold]
    #[inline(never)]
    fn no_square(&self, n: i64, sp: Span) -> Res<u32> {
        let len = self.data.board.squares.len();
        self.err(
            sp,
            format!("no square {n}: the board has squares 0 to {}", len - 1),
        )
    }

    fn square_label(&self, s: u32) -> String {
        format!("#{s} {}", self.data.board.squares[s as usize].name)
    }

    /// A property value as the board shows it: a card by name only where
    /// everyone may see it.
    pub fn show_square_value(&self, v: &Value) -> String {
        match v {
            Value::Card(c) => {
                let z = self.st.zone_of(*c);
                if self.data.zones[z.zone as usize].contents == Visibility::Public {
                    self.show(v)
                } else {
                    "a card".into()
                }
            }
            Value::List(l) => l
                .iter()
                .map(|v| self.show_square_value(v))
                .collect::<Vec<_>>()
                .join(", "),
            _ => self.show(v),
        }
    }

    /// [`Game::board_text`] for a game with a board: public, so every view may hold it.
    pub(crate) fn board_line(&self) -> Option<String> {
        (!self.data.board.squares.is_empty()).then(|| self.board_text())
    }

    /// One line: where each piece stands, then every square whose properties
    /// differ from their start, with those properties.
    fn board_text(&self) -> String {
        // Every view holds this one: a card is named only in a public zone.
        let public = |place| match place {
            Place::In(z, _) => self.data.zones[z.zone as usize].contents == Visibility::Public,
            _ => false,
        };
        (self.board_parts().iter())
            .map(|p| match p {
                Part::Text(t) => t.as_str(),
                Part::Card(d, place) if public(*place) => self.data.def_name(*d),
                Part::Card(..) => "a card",
            })
            .collect()
    }

    /// The board line, its cards kept as cards (the transcript names each to
    /// the viewers who may see it where it is).
    fn board_parts(&self) -> Vec<Part> {
        let b = &self.st.board;
        let pieces: Vec<String> = (0..b.pieces.len())
            .filter(|&p| !self.st.lost[p])
            .map(|p| {
                format!(
                    "{}@{}",
                    pname(p as PlayerId),
                    self.square_label(b.pieces[p])
                )
            })
            .collect();
        let mut out = vec![Part::Text(format!("board: {}", pieces.join(" ")))];
        let names = &self.data.names.square_props;
        for &s in &b.track {
            let decl = &self.data.board.squares[s as usize];
            let mut first = true;
            for (p, name) in names.iter().enumerate().take(b.nprops) {
                let v = b.prop(s as usize, p);
                let start = decl.props[p].map_or(Value::None, Value::Int);
                if self.equal(v, &start) {
                    continue;
                }
                let head = if first {
                    format!(" | {} ", self.square_label(s))
                } else {
                    " ".into()
                };
                first = false;
                out.push(Part::Text(format!("{head}{name}=")));
                self.value_parts(v, &mut out);
            }
        }
        out
    }
}
