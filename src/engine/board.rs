//! The board at play: square properties, the track in use, where each piece
//! stands, and dice fixed in advance. Squares are numbers (their place in the
//! rules' list), so code passes them around like any value. Plain data: the
//! operations on it are in `board_ops`.

use std::sync::Arc;

use crate::data::Data;
use crate::value::Value;

/// The board's state in one game.
#[derive(Debug, Default)]
pub struct Board {
    /// Square `s`'s property `p` at `s * nprops + p`.
    pub props: Vec<Value>,
    pub nprops: usize,
    /// The squares in play, in track order.
    pub track: Vec<u32>,
    /// Each square's place in `track` (`u32::MAX`: not on the track).
    pub place: Vec<u32>,
    /// Each player's square.
    pub pieces: Vec<u32>,
    /// Die results fixed in advance (a scenario's `dice:`), used before the RNG.
    pub dice: std::collections::VecDeque<i64>,
    /// `squares()` and `squares(kind)` for each kind, made when the track is:
    /// rules ask for them on every decision, the lists never change between.
    pub lists: Vec<(Option<Arc<String>>, Value)>,
}

impl Clone for Board {
    fn clone(&self) -> Board {
        let mut b = Board::default();
        b.clone_from(self);
        b
    }

    /// Into this board's own vectors (a search copies one per playout).
    fn clone_from(&mut self, src: &Board) {
        let Board {
            props,
            nprops,
            track,
            place,
            pieces,
            dice,
            lists,
        } = src;
        self.props.clone_from(props);
        self.nprops = *nprops;
        self.track.clone_from(track);
        self.place.clone_from(place);
        self.pieces.clone_from(pieces);
        self.dice.clone_from(dice);
        self.lists.clone_from(lists);
    }
}

impl Board {
    /// The board of a new game: every square on the track, every piece on square 0.
    pub fn reset(&mut self, data: &Data, nplayers: u8) {
        let squares = &data.board.squares;
        self.nprops = data.names.square_props.len();
        self.props.clear();
        for sq in squares {
            self.props
                .extend(sq.props.iter().map(|v| v.map_or(Value::None, Value::Int)));
        }
        self.track.clear();
        self.track.extend(0..squares.len() as u32);
        self.place.clear();
        self.place.extend(0..squares.len() as u32);
        self.pieces.clear();
        self.pieces.resize(nplayers as usize, 0);
        self.dice.clear();
        self.list_squares(data);
    }

    /// The track's squares, all and by kind (see `lists`).
    pub(crate) fn list_squares(&mut self, data: &Data) {
        self.lists.clear();
        let squares = &data.board.squares;
        if squares.is_empty() {
            return;
        }
        let all = self.track.iter().map(|&s| Value::Int(s as i64)).collect();
        self.lists.push((None, Value::list(all)));
        // Each kind once, in the order the squares first name it, with its
        // squares in track order: one pass over each (a board may have
        // thousands of kinds).
        let mut kinds: std::collections::HashMap<&str, usize> = Default::default();
        let mut named: Vec<(&std::sync::Arc<String>, Vec<Value>)> = Vec::new();
        for sq in squares {
            kinds.entry(sq.kind.as_str()).or_insert_with(|| {
                named.push((&sq.kind, Vec::new()));
                named.len() - 1
            });
        }
        for &s in &self.track {
            named[kinds[squares[s as usize].kind.as_str()]]
                .1
                .push(Value::Int(s as i64));
        }
        for (kind, list) in named {
            self.lists.push((Some(kind.clone()), Value::list(list)));
        }
    }
}
