//! `fuda new card <game> <id>`: a first card file and a scenario that runs
//! it. What the card holds is read from the game's own cards, not known
//! here: the commonest set of tags, the properties most cards of that set
//! give (with their commonest value) and the effect most of them have.

use crate::schema::{Kind, line_for};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::data::confine::Root;
use crate::data::schema::Visibility;
use crate::data::{Data, DataError, DataErrors, load};
use crate::lang::ir::{Expr, Stmt};

/// Why nothing was written: a bad id (`usage`, the command line's fault),
/// a game that does not load, files that exist.
pub struct Refused {
    pub usage: bool,
    pub errors: DataErrors,
}

impl Refused {
    fn data(errors: DataErrors) -> Refused {
        Refused {
            usage: false,
            errors,
        }
    }

    fn one(e: DataError) -> Refused {
        Refused::data(DataErrors { errors: vec![e] })
    }
}

/// The files written.
pub struct Written {
    pub card: PathBuf,
    pub scenario: PathBuf,
}

/// Writes `cards/<game>/<id>.yaml` and `tests/scenarios/<game>/cards/<id>.yaml`
/// under `dir`; refuses a bad id, a card id the game has, or a file that
/// exists.
pub fn new_card(dir: &Path, game: &str, id: &str) -> Result<Written, Refused> {
    if let Some(why) = bad_id(id) {
        let e = DataError::plain(
            format!("`{id}` cannot be a card id: {why}"),
            Some("an id is a plain name of ASCII letters, digits and `_` (`my_card`)".into()),
        );
        return Err(Refused {
            usage: true,
            ..Refused::one(e)
        });
    }
    let data = load::load_game(dir, game).map_err(Refused::data)?;
    if let Some(def) = data.defs.iter().find(|d| d.id == id) {
        let text = data.sources.text(def.file);
        let at = (crate::data::locate::find_word(text, id, 0)).unwrap_or((0, 0));
        return Err(Refused::one(data.sources.error(
            def.file,
            at.0 as u32,
            at.1 as u32,
            format!("{game} already has a card `{id}`"),
            Some(format!(
                "edit it there, or choose another id; `fuda explain {game} {id}` shows it"
            )),
        )));
    }
    // Paths relative to the data folder, which the schema lines count from.
    let card_rel = Path::new("cards").join(game).join(format!("{id}.yaml"));
    let scenario_rel = (Path::new("tests/scenarios").join(game)).join(format!("cards/{id}.yaml"));
    let written = Written {
        card: dir.join(&card_rel),
        scenario: dir.join(&scenario_rel),
    };
    if let Some(p) = [&written.card, &written.scenario]
        .into_iter()
        .find(|p| p.symlink_metadata().is_ok())
    {
        return Err(Refused::one(DataError::plain(
            format!("{} exists; fuda new does not overwrite", p.display()),
            Some("remove it, or choose another id".into()),
        )));
    }
    let card = format!(
        "{}\n{}",
        line_for(Kind::Card, &card_rel),
        card_text(&data, id)
    );
    let root = Root::new(dir);
    write(&root, &written.card, &card)?;
    // The scenario is made against the game with the card in it; a card
    // the game then refuses is taken back.
    let data = match load::load_game(dir, game) {
        Ok(d) => std::sync::Arc::new(d),
        Err(e) => {
            let _ = std::fs::remove_file(&written.card);
            return Err(Refused::data(e));
        }
    };
    let scenario = format!(
        "{}\n{}",
        line_for(Kind::Scenario, &scenario_rel),
        scenario_text(&data, id)
    );
    write(&root, &written.scenario, &scenario)?;
    Ok(written)
}

/// Writes inside the data folder only (a mod's `tests/` may be a symlink).
fn write(root: &Root, path: &Path, text: &str) -> Result<(), Refused> {
    (root.write(path, text.as_bytes())).map_err(|why| Refused::one(DataError::plain(why, None)))
}

/// Why `id` cannot name a card (it must read as `@id` in card text).
fn bad_id(id: &str) -> Option<&'static str> {
    const KEYWORDS: &[&str] = &[
        "if", "else", "repeat", "while", "for", "in", "let", "return", "and", "or", "not", "where",
        "is",
    ];
    let mut chars = id.chars();
    match chars.next() {
        None => Some("it is empty"),
        Some(c) if !(c.is_ascii_alphabetic() || c == '_') => {
            Some("it must start with a letter or `_`")
        }
        _ if !chars.all(|c| c.is_ascii_alphanumeric() || c == '_') => {
            Some("it may hold only ASCII letters, digits and `_`")
        }
        _ if KEYWORDS.contains(&id) => Some("it is a word of the card language"),
        _ if id.len() > 64 => Some("it is longer than 64 characters"),
        _ => None,
    }
}

/// The commonest of some values (the first seen on a tie), with its count.
fn commonest<T: Ord + Clone>(values: impl IntoIterator<Item = T>) -> Option<(T, usize)> {
    let mut counts: Vec<(T, usize)> = Vec::new();
    for v in values {
        match counts.iter_mut().find(|(x, _)| *x == v) {
            Some((_, n)) => *n += 1,
            None => counts.push((v, 1)),
        }
    }
    counts.into_iter().rev().max_by_key(|(_, n)| *n)
}

/// A name as YAML: bare if it is a plain word, else quoted.
fn word(s: &str) -> String {
    let plain = s
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if plain {
        s.to_string()
    } else {
        serde_json::to_string(s).unwrap_or_default()
    }
}

fn card_text(data: &Data, id: &str) -> String {
    // Cards that are ready-made lists are no model for a card.
    let cards: Vec<_> = data.defs.iter().filter(|d| d.list.is_empty()).collect();
    let tags = commonest(cards.iter().map(|d| d.tags)).map_or(0, |(t, _)| t);
    let like: Vec<_> = cards.iter().filter(|d| d.tags == tags).collect();
    let most = |n: usize| n * 2 >= like.len() && n > 0;
    let mut s = format!(
        "# A {} card: `fuda doc cards` describes the keys, `fuda doc language` the card text.\n",
        data.game
    );
    s += &format!("id: {id}\nname: {}\n", id.replace('_', " "));
    s += "text: \"\"          # what the card says, as printed\n";
    let names: Vec<String> = (0..64)
        .filter(|b| tags & (1u64 << b) != 0)
        .filter_map(|b| data.names.tags.get(b).map(|t| word(t)))
        .collect();
    s += &format!("tags: [{}]\n", names.join(", "));
    let mut props = BTreeMap::new();
    for (i, name) in data.names.props.iter().enumerate() {
        let default = data.prop_defaults.get(i).copied().unwrap_or(0);
        let set = like
            .iter()
            .filter_map(|d| d.props.get(i).copied().filter(|&v| v != default));
        if let Some((v, n)) = commonest(set.clone())
            && most(set.count())
        {
            props.insert(i, (name, v, n));
        }
    }
    if !props.is_empty() {
        let each: Vec<String> = props
            .values()
            .map(|(n, v, _)| format!("{}: {v}", word(n)))
            .collect();
        s += &format!("props: {{{}}}\n", each.join(", "));
    }
    let effect = commonest(like.iter().flat_map(|d| {
        d.effects
            .iter()
            .enumerate()
            .filter(|(_, c)| c.is_some())
            .map(|(i, _)| i)
    }));
    let effect = effect.filter(|(_, n)| most(*n));
    if let Some(name) = effect.and_then(|(e, _)| data.names.effects.get(e)) {
        s += &format!(
            "effects:\n  {}: |\n    # card text: the game's verbs (rules/{}.yaml) and `fuda doc operations`\n",
            word(name),
            data.game
        );
    }
    s
}

/// A scenario: the game as its setup leaves it, the card added to the
/// zone the player plays from (see [`play_zone`]), checked there as the first decision is
/// asked, stopping at that decision. Each part is kept only if the scenario
/// still passes with it (a game that asks nothing before it ends does not
/// stop waiting; one whose turn starts by discarding moves the card): the
/// author goes on from a scenario that runs.
fn scenario_text(data: &std::sync::Arc<Data>, id: &str) -> String {
    let mut s = format!(
        "description: {id} — a first scenario (`fuda doc scenarios` lists the keys)\n\
         game: {}\nsetup: true         # the rules' setup first; a zone below replaces what it dealt\n",
        data.game
    );
    let Some(zone) = play_zone(data) else {
        return s + "decisions: []\n";
    };
    let z = word(&data.zones[zone].name);
    s += &format!("zones:\n  p1:\n    {z}: [{id}]\n");
    s += "decisions: []        # the answers, in order (`play x`, `pass`, a card id, \"yes\")\n";
    let stops = "stops: waiting       # it stops at the first decision it has no answer for\n";
    let check = format!("count({z} where it == @{id}) == 1");
    let expect = format!(
        "expect:\n  - after: 0           # as the first decision is asked\n    that: \"{check}\"\n"
    );
    let example = format!(
        "# expect:             # conditions in card text (`me` is P1), e.g.\n#   - \"{check}\"\n"
    );
    let variants = [
        format!("{s}{stops}{expect}"),
        format!("{s}{stops}{example}"),
        format!("{s}{expect}"),
        format!("{s}{example}"),
    ];
    let first = variants[0].clone();
    (variants.into_iter().find(|v| passes(data, v))).unwrap_or(first)
}

/// Where a player holds cards to play: of the zones only their owner sees,
/// the one the rules' moves pick from most; else the first of those, else
/// the first zone of a player.
fn play_zone(data: &Data) -> Option<usize> {
    fn zones(e: &Expr, out: &mut Vec<u16>) {
        if let Expr::Zone(z, _) = e {
            out.push(*z);
        }
        for c in e.children() {
            zones(c, out);
        }
    }
    let mut picked = Vec::new();
    for pick in data.moves.iter().filter_map(|m| m.pick.as_ref()) {
        for st in &pick.stmts {
            if let Stmt::Expr(e) | Stmt::Return(Some(e)) = st {
                zones(e, &mut picked);
            }
        }
    }
    let own = |z: &usize| data.zones.get(*z).is_some_and(|z| !z.shared);
    let secret = |z: &usize| own(z) && data.zones[*z].contents == Visibility::Owner;
    let picked = picked.into_iter().map(usize::from).filter(secret);
    (commonest(picked).map(|(z, _)| z))
        .or_else(|| (0..data.zones.len()).find(secret))
        .or_else(|| (0..data.zones.len()).find(own))
}

/// Whether a scenario's text runs and meets its expectations.
fn passes(data: &std::sync::Arc<Data>, text: &str) -> bool {
    let Ok(raw) = serde_norway::from_str(text) else {
        return false;
    };
    let mut sources = crate::data::Sources::default();
    let fid = sources.add("new scenario".into(), text.into());
    crate::scenario::run(data.clone(), raw, &sources, fid).is_ok_and(|r| r.failures.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_plain_names() {
        assert!(bad_id("my_card2").is_none());
        assert!(bad_id("_x").is_none());
        for bad in [
            "",
            "2x",
            "a-b",
            "a/b",
            "..",
            "if",
            "カード",
            &"a".repeat(65),
        ] {
            assert!(bad_id(bad).is_some(), "{bad}");
        }
    }

    #[test]
    fn commonest_takes_the_first_on_a_tie() {
        assert_eq!(commonest([3, 1, 1, 3, 2]), Some((3, 2)));
        assert_eq!(commonest([2, 1, 1]), Some((1, 2)));
        assert_eq!(commonest(Vec::<u8>::new()), None);
    }

    #[test]
    fn words_are_quoted_when_not_plain() {
        assert_eq!(word("cost"), "cost");
        assert_eq!(word("a: b"), "\"a: b\"");
    }
}
