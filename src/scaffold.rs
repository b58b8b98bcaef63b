//! `fuda new card <game> <id>`: a first card file and a scenario that runs
//! it; `fuda new mod <game> DIR`: a mod holding one of each. What the card
//! holds is read from the game's own cards, not known here: the commonest
//! set of tags, the properties most cards of that set give (with their
//! commonest value) and the effect most of them have.

use crate::schema::{Kind, line_for};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::data::confine::Root;
use crate::data::schema::Visibility;
use crate::data::source::Source;
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
    /// The scenario's snapshot, as `fuda test --update` writes it.
    pub snap: PathBuf,
}

/// Where a new card and its scenario go, relative to the data folder: a
/// data folder's `cards/<game>/` and `tests/scenarios/<game>/cards/`, a
/// mod's `cards/` and `scenarios/` (the folders loading and `fuda test`
/// read there).
fn layout(dir: &Path, game: &str, id: &str) -> (PathBuf, PathBuf) {
    let file = format!("{id}.yaml");
    if crate::data::manifest::is_mod(dir) {
        let cards = Path::new(crate::data::manifest::CARDS);
        (cards.join(&file), Path::new("scenarios").join(&file))
    } else {
        let scenarios = Path::new("tests/scenarios").join(game);
        (
            Path::new("cards").join(game).join(&file),
            scenarios.join("cards").join(&file),
        )
    }
}

/// A new file's text: its first line points an editor at the schema of
/// `kind` when the folder holds that schema (`fuda data export` and
/// `fuda new mod` write them), else the text alone (a path to nothing
/// would be an editor error).
fn with_schema(dir: &Path, kind: Kind, rel: &Path, text: &str) -> String {
    let schema = Path::new(crate::schema::DIR).join(format!("{}.json", kind.name()));
    if dir.join(schema).is_file() {
        format!("{}\n{text}", line_for(kind, rel))
    } else {
        text.to_string()
    }
}

/// Writes a card and a scenario that runs it under `dir` ([`layout`]);
/// refuses a bad id, a card id the game has, or a file that exists.
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
    let (card_rel, scenario_rel) = layout(dir, game, id);
    let scenario = dir.join(&scenario_rel);
    let written = Written {
        card: dir.join(&card_rel),
        snap: crate::snapshot::snap_path(&scenario),
        scenario,
    };
    if let Some(p) = [&written.card, &written.scenario, &written.snap]
        .into_iter()
        .find(|p| p.symlink_metadata().is_ok())
    {
        return Err(Refused::one(DataError::plain(
            format!("{} exists; fuda new does not overwrite", p.display()),
            Some("remove it, or choose another id".into()),
        )));
    }
    let card = with_schema(dir, Kind::Card, &card_rel, &card_text(&data, id));
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
    let scenario = with_schema(
        dir,
        Kind::Scenario,
        &scenario_rel,
        &scenario_text(&data, id),
    );
    write(&root, &written.scenario, &scenario)?;
    snapshot(&crate::data::source::open(Some(dir)), &written.scenario)?;
    Ok(written)
}

/// Writes the snapshot of `scenario`, a new scenario that passes, as
/// `fuda test --update` writes it; returns its path.
fn snapshot(source: &Source, scenario: &Path) -> Result<PathBuf, Refused> {
    let opts = crate::snapshot::Options {
        update: true,
        ..Default::default()
    };
    let mut said = Vec::new();
    let made = crate::snapshot::run(
        source,
        std::slice::from_ref(&scenario.to_path_buf()),
        &opts,
        None,
        &mut said,
    );
    if made.map_or(true, |s| s.failed > 0) {
        return Err(Refused::one(DataError::plain(
            format!("the new scenario {} does not pass", scenario.display()),
            Some(String::from_utf8_lossy(&said).into_owned()),
        )));
    }
    Ok(crate::snapshot::snap_path(scenario))
}

/// The card `fuda new mod` starts a mod with.
const FIRST_CARD: &str = "my_card";

/// Writes a mod of the built-in `game` into the new or empty folder `dir`:
/// `mod.yaml`, a `rules.yaml` overlay (a changed value and an added
/// counter), one card, a scenario that plays it and the scenario's
/// snapshot, and the editor schemas their first lines name; so the mod
/// passes `fuda check` and `fuda test` as written. Returns the files.
pub fn new_mod(dir: &Path, game: &str) -> Result<Vec<PathBuf>, Refused> {
    let busy = std::fs::read_dir(dir).is_ok_and(|mut rd| rd.next().is_some());
    if busy || (dir.symlink_metadata().is_ok() && !dir.is_dir()) {
        return Err(Refused {
            usage: true,
            ..Refused::one(DataError::plain(
                format!("{} exists and is not an empty folder", dir.display()),
                Some("fuda new mod writes a new folder: name one that does not exist".into()),
            ))
        });
    }
    let base = Source::Embedded.load(game).map_err(Refused::data)?;
    let name = dir
        .file_name()
        .map_or("my_mod".into(), |n| n.to_string_lossy().into_owned());
    (std::fs::create_dir_all(dir)).map_err(|e| {
        Refused::one(DataError::plain(
            format!("cannot make {}: {e}", dir.display()),
            None,
        ))
    })?;
    let root = Root::new(dir);
    let mut wrote = Vec::new();
    let mut put = |rel: &Path, text: &str| -> Result<(), Refused> {
        let path = dir.join(rel);
        write(&root, &path, text)?;
        wrote.push(path);
        Ok(())
    };
    for kind in Kind::ALL {
        let rel = Path::new(crate::schema::DIR).join(format!("{}.json", kind.name()));
        put(&rel, &kind.json())?;
    }
    let manifest = Path::new(crate::data::manifest::FILE);
    let text = format!(
        "# A mod of {game} (`fuda doc mods`): it holds only what it adds to the game or changes.\n\
         extends: {game}\nname: {}\ndescription: a first mod of {game}, as `fuda new mod` wrote it\n\
         replace: []          # ids of the game's cards that a card of cards/ with that id replaces\n",
        word(&name)
    );
    put(manifest, &with_schema(dir, Kind::Mod, manifest, &text))?;
    put(
        Path::new(crate::data::manifest::RULES),
        &overlay_text(&base),
    )?;
    let (card_rel, scenario_rel) = layout(dir, game, FIRST_CARD);
    put(
        &card_rel,
        &with_schema(dir, Kind::Card, &card_rel, &card_text(&base, FIRST_CARD)),
    )?;
    let data = std::sync::Arc::new(load::load_game(dir, game).map_err(Refused::data)?);
    let scenario = scenario_text(&data, FIRST_CARD);
    put(
        &scenario_rel,
        &with_schema(dir, Kind::Scenario, &scenario_rel, &scenario),
    )?;
    wrote.push(snapshot(
        &Source::Mod(dir.into()),
        &dir.join(&scenario_rel),
    )?);
    Ok(wrote)
}

/// A mod's `rules.yaml`: one of the game's values changed by its name (to
/// the value it has, to start from: a named parameter, its starting hand
/// if it has one, else `max_turns`), and a new counter under `add:`.
fn overlay_text(data: &Data) -> String {
    let params = &data.names.params;
    let param = (params.iter().find(|(n, _)| n == "hand_size")).or(params.first());
    let value = match param {
        Some((n, v)) => format!(
            "params:\n  {n}: {v}        # a named parameter, the game's own value here: change it\n"
        ),
        None => format!(
            "max_turns: {}        # a changed value (the game's own here: change it)\n",
            data.max_turns
        ),
    };
    let taken = |n: &str| data.names.counters.iter().any(|c| c == n);
    let counter = ["marks", "mod_marks", "my_marks"]
        .into_iter()
        .find(|n| !taken(n))
        .unwrap_or("my_mod_marks");
    format!(
        "# Laid over the rules of {game} (`fuda doc mods`). A value is changed by the\n\
         # name the game gives it; a name the game does not have goes under `add:`\n\
         # (outside it, a name the game lacks is an error: a typo never adds one).\n\
         {value}add:\n  \
           counters:\n    \
             {counter}: {{start: 0}}   # a new counter each player has (`{counter} += 1` in card text)\n",
        game = data.game,
    )
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
