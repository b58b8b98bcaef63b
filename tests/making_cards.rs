//! Making cards in a batch (`State::new_each`, a setup's list of
//! definitions) leaves the state that making them one by one leaves.

use std::path::Path;

use fuda::data::load;
use fuda::engine::state::State;
use fuda::value::ZoneRef;

/// `new_each` of a list is `new_obj` of each in turn: the same cards, zone,
/// made-bits and their words in the same order, quiet mark, tags seen and
/// version. The library is t3's, past 64 definitions: the list repeats and
/// crosses words of made-bits.
#[test]
fn a_batch_of_cards_is_made_as_one_by_one() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let data = load::load_game(root, "t3").expect("t3 loads");
    let zone = (data.zones.iter())
        .position(|z| !z.shared && !z.piles)
        .expect("a zone of each player's without piles") as u16;
    let z = ZoneRef { zone, owner: 1 };
    let n = data.defs.len() as u16;
    assert!(n > 64, "the list crosses a word of made-bits");
    let defs: Vec<u16> = (0..n).rev().chain([3, 0, n - 1, 65, 3]).collect();
    let (mut each, mut one) = (State::new(&data, 2, 7), State::new(&data, 2, 7));
    for st in [&mut each, &mut one] {
        st.quiet.set(!0);
    }
    each.new_each(&data, &defs, z);
    for &d in &defs {
        one.new_obj(&data, d, z);
    }
    let cards = |st: &State| {
        (st.objs.iter())
            .map(|o| (o.def, o.owner, o.zone, o.tags, o.host, o.seen))
            .collect::<Vec<_>>()
    };
    assert_eq!(cards(&each), cards(&one));
    let inst = each.inst(z);
    assert_eq!(each.zones[inst].cards, one.zones[inst].cards);
    assert_eq!(each.made, one.made);
    assert_eq!(each.made_words, one.made_words);
    assert_eq!(each.quiet.get(), 0);
    assert_eq!(one.quiet.get(), 0);
    assert_eq!(each.tags_seen, one.tags_seen);
    assert_eq!(each.version, one.version);
}
