//! Reads a game's rules and cards from a data directory and compiles them.
//! Every problem found is collected, so `fuda check` reports them all at once.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;
use std::sync::Arc;

use serde::de::DeserializeOwned;

use super::files::Files;
use super::manifest::{self, RawMod};
use super::memo::Memo;
use super::options::OptionDecl;
use super::schema::*;
use super::unsaved::Unsaved;
use super::yamlread;
use super::*;
use crate::data::confine::plain_name;
use crate::data::locate::{
    code_origin, find_key, find_word, first_words, key_lines, line_of, line_origin, scalar_at,
    spaced_keys,
};
use crate::lang::compile::{CompileError, Context, compile_code, compile_expr};
use crate::lang::ir::{Code, Expr, Span, Stmt};
use crate::lang::names::find;
use crate::limits::{MAX_CARD_VALUES, MAX_CODE_BYTES, MAX_NAMES, MAX_SQUARE_VALUES};
use crate::suggest::{did_you_mean, suggest};

/// The games whose rules files are in `data/rules/`.
pub fn list_games(data_dir: &Path) -> Vec<String> {
    Files::dir(data_dir).games()
}

/// Loads and compiles one game from a folder, or from the mod it holds
/// ([`super::source::open`]'s rule).
pub fn load_game(data_dir: &Path, game: &str) -> Result<Data, DataErrors> {
    if manifest::is_mod(data_dir) {
        load(Files::Embedded, game, Some(data_dir), &Unsaved::default())
    } else {
        load(Files::dir(data_dir), game, None, &Unsaved::default())
    }
}

/// Loads and compiles one game of `base`, with the mod in `mod_dir` laid
/// over it if one is given; a file with an unsaved text is read as that text.
pub(crate) fn load(
    base: Files,
    game: &str,
    mod_dir: Option<&Path>,
    unsaved: &Unsaved,
) -> Result<Data, DataErrors> {
    load_with(base, game, mod_dir, unsaved, &mut Memo::default())
}

/// [`load`], compiling card text through `memo` and leaving in it what this
/// load compiled.
pub(crate) fn load_with(
    base: Files,
    game: &str,
    mod_dir: Option<&Path>,
    unsaved: &Unsaved,
    memo: &mut Memo,
) -> Result<Data, DataErrors> {
    let mut l = Loader::new(base);
    l.unsaved = unsaved.clone();
    l.memo = std::mem::take(memo);
    let r = l.load(game, mod_dir);
    l.memo.done();
    *memo = std::mem::take(&mut l.memo);
    r
}

impl Loader {
    fn load(&mut self, game: &str, mod_dir: Option<&Path>) -> Result<Data, DataErrors> {
        let l = self;
        let game = match mod_dir {
            Some(dir) => match l.open_mod(dir, game) {
                Some(g) => g,
                None => {
                    return Err(DataErrors {
                        errors: std::mem::take(&mut l.errs),
                    });
                }
            },
            None => game.to_string(),
        };
        let within = match &l.base {
            Files::Embedded => "the built-in games".to_string(),
            Files::Dir(root) => root.given().display().to_string(),
            Files::Over(..) => "the data with a variant laid over".to_string(),
        };
        if !plain_name(&game) {
            let help = Some(format!(
                "a game is named by its file rules/<game>.yaml; games in {within}: {}",
                l.base.games().join(", ")
            ));
            l.errs.push(DataError::plain(
                format!("unknown game `{game}`: a game's name is not a path"),
                help,
            ));
            return Err(DataErrors {
                errors: std::mem::take(&mut l.errs),
            });
        }
        let rules_rel = format!("rules/{game}.yaml");
        // An unknown game is one error, not also the failed read of its rules.
        if !l.base.exists(&rules_rel) {
            let games = l.base.games();
            let help = did_you_mean(suggest(&game, games.iter().map(|s| s.as_str())))
                .or_else(|| Some(format!("games in {within}: {}", games.join(", "))));
            l.errs.push(DataError::plain(
                format!("unknown game `{game}`: no {rules_rel} in {within}"),
                help,
            ));
            return Err(DataErrors {
                errors: std::mem::take(&mut l.errs),
            });
        }
        let Some((rules_file, rules)) = l.read_rules(&rules_rel) else {
            return Err(DataErrors {
                errors: std::mem::take(&mut l.errs),
            });
        };
        let folder = rules.cards.as_deref().unwrap_or(&game);
        let card_dir = format!("cards/{folder}");
        let mut cards = match &rules.cards {
            Some(name) if !plain_name(name) || !l.base.inside(&card_dir) => {
                let at = find_key(l.sources.text(rules_file), "cards", name, 0).unwrap_or(0);
                l.err_at(
                    rules_file,
                    name,
                    at,
                    format!("`cards: {name}` must name a folder in cards/"),
                    Some("card folders are read only from the data folder's cards/".into()),
                );
                Vec::new()
            }
            _ => l.read_cards(false, &card_dir),
        };
        if l.modf.is_some() {
            let mine = l.read_cards(true, manifest::CARDS);
            l.lay_cards(&mut cards, mine, &game);
        }
        let data = l.build(rules_file, rules, cards);
        if let Some(d) = &data {
            l.errs.extend(counts::check(d));
            l.errs.extend(kinds::check(d));
            l.errs.extend(would::check(d, l.declared_events));
            l.errs.extend(sight::check(d));
            l.errs.extend(construction::check(d));
        }
        match data {
            Some(mut d) if l.errs.is_empty() => {
                d.probe();
                Ok(d)
            }
            _ => Err(DataErrors {
                errors: std::mem::take(&mut l.errs),
            }),
        }
    }
}

struct Loader {
    /// The game's files.
    base: Files,
    /// A mod's files, laid over the game's.
    modf: Option<Files>,
    /// The mod's `mod.yaml`, and where it was read.
    manifest: Option<(u32, RawMod)>,
    /// The mod's rules file and what it holds, to tell what it gives.
    overlay: Option<(u32, serde_norway::Value)>,
    /// The scripts the mod's rules add (read from the mod's folder).
    mod_scripts: Vec<String>,
    /// What the mod adds and changes, for `fuda check`.
    report: Vec<String>,
    /// The game's rules file.
    rf: u32,
    sources: Sources,
    errs: Vec<DataError>,
    names: Names,
    /// How many events the rules declare: the ones after them the kernel
    /// raises itself (turn, phases, board), with no `would` step.
    declared_events: usize,
    scripts: Option<super::scripts::Scripts>,
    /// Texts to read in place of files that exist.
    unsaved: Unsaved,
    memo: Memo,
    /// Whether Rhai snippets that card text can say are compiled as card
    /// text (`data::lower`); `FUDA_LOWER_RHAI=0` runs every one in Rhai.
    lower_rhai: bool,
    /// Where each ` name:` first sits in a rules file ([`spaced_keys`]),
    /// made once a file: placing each of thousands of verbs or moves by a
    /// search from the file's start cost thousands of scans of it.
    key_places: HashMap<u32, HashMap<String, usize>>,
}

/// A card as read, with where it came from.
struct CardSrc {
    raw: RawCard,
    file: u32,
    at: usize,
}

impl Loader {
    fn new(base: Files) -> Loader {
        Loader {
            base,
            modf: None,
            manifest: None,
            overlay: None,
            mod_scripts: Vec::new(),
            report: Vec::new(),
            rf: 0,
            sources: Sources::default(),
            errs: Vec::new(),
            names: Names::default(),
            declared_events: 0,
            scripts: None,
            unsaved: Unsaved::default(),
            memo: Memo::default(),
            lower_rhai: std::env::var_os("FUDA_LOWER_RHAI").is_none_or(|v| v != "0"),
            key_places: HashMap::new(),
        }
    }

    /// Reads a file of the game (`in_mod`: of the mod) into the sources.
    fn read_file(&mut self, in_mod: bool, rel: &str) -> Option<u32> {
        let files = if in_mod {
            self.modf.as_ref()?
        } else {
            &self.base
        };
        let name = files.name(rel);
        // The file is read even when its text is unsaved: reading refuses
        // what the folder does not hold, and so the unsaved text too.
        let read = files.read(rel).map(|bytes| match self.unsaved.get(&name) {
            Some(text) => text.as_bytes().to_vec(),
            None => bytes,
        });
        match read {
            Ok(bytes) => yamltext::add(&mut self.sources, name, bytes, &mut self.errs),
            Err(why) => {
                self.errs.push(DataError::plain(why, None));
                None
            }
        }
    }

    fn read_yaml<T: DeserializeOwned>(&mut self, in_mod: bool, rel: &str) -> Option<(u32, T)> {
        let file = self.read_file(in_mod, rel)?;
        let v = self.parse_yaml(file)?;
        Some((file, v))
    }

    /// Reads `mod.yaml`: the game it extends must be a built-in one, the
    /// one asked for. Returns the game.
    fn open_mod(&mut self, dir: &Path, game: &str) -> Option<String> {
        self.modf = Some(Files::dir(dir));
        let (file, m) = self.read_yaml::<RawMod>(true, manifest::FILE)?;
        let games = self.base.games();
        if !plain_name(&m.extends) || !games.contains(&m.extends) {
            let at = find_key(self.sources.text(file), "extends", &m.extends, 0).unwrap_or(0);
            let help = did_you_mean(suggest(&m.extends, games.iter().map(|s| s.as_str())))
                .or_else(|| Some(format!("the built-in games: {}", games.join(", "))));
            self.err_at(
                file,
                &m.extends,
                at,
                format!("the mod extends an unknown game `{}`", m.extends),
                help,
            );
            return None;
        }
        if game != m.extends {
            self.errs.push(DataError::plain(
                format!(
                    "unknown game `{game}`: the mod {} extends {}",
                    dir.display(),
                    m.extends
                ),
                Some(format!("`--data {}` plays {}", dir.display(), m.extends)),
            ));
            return None;
        }
        let game = m.extends.clone();
        self.manifest = Some((file, m));
        Some(game)
    }

    /// The game's rules, with the mod's `rules.yaml` laid over them
    /// ([`overlay`]) if it has one.
    /// Reports each name a mod's rules give that the game lacks (outside
    /// `add:`: a typo) or has (inside `add:`: nothing to add).
    fn check_names(
        &mut self,
        of: u32,
        base: &serde_norway::Value,
        top: &serde_norway::Value,
        adding: bool,
    ) {
        let add_at = self.sources.text(of).find("\nadd:").map_or(0, |i| i + 1);
        for (n, has) in super::overlay::names(base, top) {
            if has != adding {
                continue;
            }
            let text = self.sources.text(of);
            let from = if adding { add_at } else { 0 };
            let (a, b) = super::locate::find_word(text, &n.name, from).unwrap_or((0, 1));
            let (msg, help) = if adding {
                (
                    format!(
                        "`add:` gives {} `{}`, which the game has",
                        n.section, n.name
                    ),
                    "change it outside `add:` (`add:` holds only new names)".to_string(),
                )
            } else {
                let near = crate::suggest::suggest(&n.name, n.known.iter().map(String::as_str));
                let mean = near
                    .map(|c| format!("did you mean `{c}`? "))
                    .unwrap_or_default();
                (
                    format!("the game has no {} `{}`", n.section, n.name),
                    format!(
                        "{mean}a mod adds a name only under `add:` (`add: {{{}: …}}`)",
                        n.section.replace('.', ": {")
                    ),
                )
            };
            let e = self.sources.error(of, a as u32, b as u32, msg, Some(help));
            self.errs.push(e);
        }
    }

    fn read_rules(&mut self, rel: &str) -> Option<(u32, RawRules)> {
        let (rf, rules) = self.read_yaml::<RawRules>(false, rel)?;
        self.rf = rf;
        let has_rules = (self.modf.as_ref()).is_some_and(|m| m.exists(manifest::RULES));
        if !has_rules {
            return Some((rf, rules));
        }
        let of = self.read_file(true, manifest::RULES)?;
        let mut top: serde_norway::Value = self.parse_yaml(of)?;
        if top.is_null() {
            // An empty file (or comments only) changes nothing.
            top = serde_norway::Value::Mapping(Default::default());
        }
        let Some(map) = top.as_mapping_mut() else {
            let e = self.sources.error(
                of,
                0,
                1,
                "a mod's rules.yaml is a mapping of the rules' keys to what it changes",
                Some("e.g. `counters: {actions: {start: 2}}`".into()),
            );
            self.errs.push(e);
            return None;
        };
        for key in ["name", "cards"] {
            if map.contains_key(key) {
                let at = self.sources.text(of).find(&format!("{key}:")).unwrap_or(0);
                let help = "the mod's name goes in mod.yaml, its cards under its cards/ folder";
                let e = self.sources.error(
                    of,
                    at as u32,
                    (at + key.len()) as u32,
                    format!("a mod's rules cannot change `{key}`"),
                    Some(help.into()),
                );
                self.errs.push(e);
            }
        }
        if let Some(s) = map.remove("scripts") {
            match serde_norway::from_value::<Vec<String>>(s) {
                Ok(list) => self.mod_scripts = list,
                Err(e) => {
                    let at = self.sources.text(of).find("scripts:").unwrap_or(0) as u32;
                    let e = self.sources.error(of, at, at + 7, e.to_string(), None);
                    self.errs.push(e);
                }
            }
        }
        let adds = map.remove("add");
        let mut base: serde_norway::Value = serde_norway::from_str(self.sources.text(rf)).ok()?;
        self.check_names(of, &base, &top, false);
        if let Some(adds) = adds {
            self.check_names(of, &base, &adds, true);
            super::overlay::merge(&mut top, adds);
        }
        self.report.extend(super::overlay::changes(&base, &top));
        super::overlay::merge(&mut base, top.clone());
        self.overlay = Some((of, top));
        match serde_norway::from_value::<RawRules>(base) {
            Ok(r) => Some((rf, r)),
            Err(e) => {
                // The game's rules load alone: what breaks them is the mod's.
                let message = e.to_string();
                let text = self.sources.text(of);
                // The name (`key`) or the value ("text") the message quotes.
                let word = (message.split('`').nth(1))
                    .or_else(|| message.split('"').nth(1))
                    .unwrap_or("");
                let (a, b) = (!word.is_empty())
                    .then(|| find_word(text, word, 0))
                    .flatten()
                    .unwrap_or((0, 1));
                let mut help =
                    "the mod's rules are laid over the game's; see docs/mods.md".to_string();
                if let Some(rest) = message.strip_prefix("unknown field `") {
                    let expected = rest.split("expected ").nth(1).unwrap_or("");
                    let known: Vec<&str> = expected.split('`').skip(1).step_by(2).collect();
                    help = did_you_mean(suggest(word, known.iter().copied()))
                        .unwrap_or_else(|| format!("known keys: {}", known.join(", ")));
                }
                let e = self
                    .sources
                    .error(of, a as u32, b as u32, message, Some(help));
                self.errs.push(e);
                None
            }
        }
    }

    /// The rules file that gives `path` (keys, and names in named lists):
    /// the mod's if its rules do, else the game's.
    fn owner(&self, path: &[&str]) -> u32 {
        match &self.overlay {
            Some((f, v)) if super::overlay::has(v, path) => *f,
            _ => self.rf,
        }
    }

    /// The mod, as `fuda check` reports it: what it adds and changes, its
    /// cards first.
    fn layer(&mut self) -> Option<super::overlay::Layer> {
        let (_, m) = self.manifest.as_ref()?;
        let (mut lines, rules): (Vec<String>, Vec<String>) = (std::mem::take(&mut self.report))
            .into_iter()
            .partition(|l| l.contains(" card "));
        lines.extend(rules);
        let dir = match &self.modf {
            Some(Files::Dir(root)) => root.given().display().to_string(),
            _ => String::new(),
        };
        Some(super::overlay::Layer {
            name: m.name.clone().unwrap_or_else(|| dir.clone()),
            dir,
            extends: m.extends.clone(),
            description: m.description.clone(),
            changes: lines,
        })
    }

    /// Where ` name:` first occurs in file `rf`, else 0.
    fn key_at(&mut self, rf: u32, name: &str) -> usize {
        let sources = &self.sources;
        let places = (self.key_places.entry(rf)).or_insert_with(|| spaced_keys(sources.text(rf)));
        places.get(name).copied().unwrap_or(0)
    }

    /// A source's text, shared (kept while errors are added).
    fn text_of(&self, file: u32) -> std::sync::Arc<String> {
        (self.sources.files.get(file as usize))
            .map(|(_, t)| t.clone())
            .unwrap_or_default()
    }

    /// Lays the mod's cards over the game's: a card whose id `replace:`
    /// names takes its place; any other is added. A card of the game's id
    /// not named there, or a `replace:` id no card has, is an error.
    fn lay_cards(&mut self, cards: &mut Vec<CardSrc>, mine: Vec<CardSrc>, game: &str) {
        let Some((mf, replace)) = (self.manifest.as_ref()).map(|(f, m)| (*f, m.replace.clone()))
        else {
            return;
        };
        let from = find_word(self.sources.text(mf), "replace", 0).map_or(0, |w| w.0);
        // Ids looked up by hash: a mod of thousands of cards must not cost
        // millions of comparisons.
        let mut index: HashMap<String, usize> = HashMap::new();
        for (i, c) in cards.iter().enumerate() {
            index.entry(c.raw.id.clone()).or_insert(i);
        }
        let mine_ids: HashSet<String> = mine.iter().map(|c| c.raw.id.clone()).collect();
        // Where each named id is, found in one pass (errors point at them).
        let wanted: HashSet<&str> = replace.iter().map(String::as_str).collect();
        let text = self.sources.text(mf);
        let places: HashMap<String, usize> =
            first_words(text, from, usize::MAX, wanted.len(), |w| wanted.contains(w))
                .into_iter()
                .map(|(w, (a, _))| (w.to_string(), a))
                .collect();
        for id in &replace {
            let from = places.get(id).copied().unwrap_or(from);
            if !index.contains_key(id) {
                let help = did_you_mean(suggest(id, cards.iter().map(|c| c.raw.id.as_str())));
                self.err_at(
                    mf,
                    id,
                    from,
                    format!("the mod replaces `{id}`, which is no card of {game}"),
                    help,
                );
            } else if !mine_ids.contains(id) {
                self.err_at(
                    mf,
                    id,
                    from,
                    format!("the mod replaces `{id}`, but has no card `{id}`"),
                    Some(format!("add a card with `id: {id}` under the mod's cards/")),
                );
            }
        }
        // The mod's own ids, with their files: two of one id is an error
        // at the second (one would silently be dropped).
        let mut own: HashMap<String, u32> = HashMap::new();
        for c in mine {
            if let Some(first) = own.get(&c.raw.id) {
                let id = c.raw.id.clone();
                let first = self.sources.path(*first).to_string();
                self.err_at(
                    c.file,
                    &id,
                    c.at,
                    format!("the mod has two cards `{id}`"),
                    Some(format!(
                        "the other is in {first}; give one another id, or remove one"
                    )),
                );
                continue;
            }
            own.insert(c.raw.id.clone(), c.file);
            match index.get(&c.raw.id).copied() {
                Some(i) if wanted.contains(c.raw.id.as_str()) => {
                    self.report.push(format!("replaces card {}", c.raw.id));
                    cards[i] = c;
                }
                Some(_) => {
                    let id = c.raw.id.clone();
                    self.err_at(
                        c.file,
                        &id,
                        c.at,
                        format!("card `{id}` is already one of {game}'s cards"),
                        Some(format!(
                            "to replace it, name it in mod.yaml: `replace: [{id}]`; else choose another id"
                        )),
                    );
                }
                None => {
                    self.report.push(format!("adds card {}", c.raw.id));
                    index.insert(c.raw.id.clone(), cards.len());
                    cards.push(c);
                }
            }
        }
    }

    fn parse_yaml<T: DeserializeOwned>(&mut self, file: u32) -> Option<T> {
        yamlread::parse(&self.sources, file)
            .map_err(|es| self.errs.extend(es))
            .ok()
    }

    /// The cards of the YAML files under the folder `rel` (of the game's
    /// files, or `in_mod` the mod's).
    fn read_cards(&mut self, in_mod: bool, rel: &str) -> Vec<CardSrc> {
        let files = match (in_mod, self.modf.as_mut()) {
            (false, _) => self.base.yaml_under(rel, &mut self.errs),
            (true, Some(m)) => m.yaml_under(rel, &mut self.errs),
            (true, None) => Vec::new(),
        };
        // Read in order, parsed on all cores, each file's errors (of reading,
        // then of parsing) in the files' order.
        let mut read = Vec::new();
        for path in files {
            let mark = self.errs.len();
            let file = self.read_file(in_mod, &path);
            read.push((self.errs.split_off(mark), file));
        }
        let texts: Vec<u32> = read.iter().filter_map(|(_, f)| *f).collect();
        let mut parsed = yamlread::cards_of_all(&self.sources, &texts).into_iter();
        let mut out = Vec::new();
        for (errs, file) in read {
            self.errs.extend(errs);
            // Only a file read has a parse result.
            let Some(file) = file else { continue };
            let Some(cards) = parsed.next() else { continue };
            let cards = cards.unwrap_or_else(|es| {
                self.errs.extend(es);
                Vec::new()
            });
            // Each card's `id:` line, searched from the last card's; once a
            // search fails (it went to the file's end: a spelling it does not
            // know), the file's `id:` lines are indexed in one pass instead.
            let text = self.sources.text(file);
            let mut lines = None;
            let mut from = 0;
            for raw in cards {
                let found = (lines.is_none())
                    .then(|| find_key(text, "id", &raw.id, from))
                    .flatten();
                let at = found
                    .or_else(|| {
                        line_of(
                            lines.get_or_insert_with(|| key_lines(text, "id")),
                            &raw.id,
                            from,
                        )
                    })
                    .unwrap_or(from);
                from = at + 1;
                out.push(CardSrc { raw, file, at });
            }
        }
        out
    }

    /// An error at the first whole-word occurrence of `needle` after `from`.
    fn err_at(
        &mut self,
        file: u32,
        needle: &str,
        from: usize,
        message: String,
        help: Option<String>,
    ) {
        let text = self.sources.text(file);
        let (a, b) = find_word(text, needle, from)
            .or_else(|| {
                text.get(from..)
                    .and_then(|t| t.find(needle))
                    .map(|i| (from + i, from + i + needle.len()))
            })
            // Escaped or folded in the file: found as the scalar it is.
            .or_else(|| scalar_at(text, needle, from).map(|(at, end)| (at[0].1 as usize, end)))
            .unwrap_or((from, from));
        self.errs
            .push(self.sources.error(file, a as u32, b as u32, message, help));
    }

    /// Whether each of the rules' name tables fits the ids code refers to
    /// them by; one that does not is an error at its key (compiling on would
    /// resolve a name to another's id and report nonsense).
    fn names_fit(&mut self, moves: usize) -> bool {
        let n = &self.names;
        let tables = [
            ("properties", n.props.len()),
            ("counters", n.counters.len()),
            ("globals", n.globals.len()),
            ("params", n.params.len()),
            ("events", n.events.len()),
            ("effects", n.effects.len()),
            ("verbs", n.verbs.len()),
            ("windows", n.windows.len()),
            ("moves", moves),
            ("board", n.square_props.len()),
        ];
        let mut fit = true;
        for (key, len) in tables.into_iter().filter(|&(_, len)| len > MAX_NAMES) {
            let file = self.owner(&[key]);
            let what = if key == "board" {
                "square properties"
            } else {
                key
            };
            self.err_at(
                file,
                key,
                0,
                format!("{len} {what} named; at most {MAX_NAMES} are supported"),
                None,
            );
            fit = false;
        }
        fit
    }

    /// Whether `cards` definitions with a value for each property and
    /// effect the rules name stay within [`MAX_CARD_VALUES`]; past it, an
    /// error at the `properties` key (the table that usually grows).
    fn cards_fit(&mut self, cards: usize) -> bool {
        let (props, effects) = (self.names.props.len(), self.names.effects.len());
        let values = cards.saturating_mul(props + effects);
        if values <= MAX_CARD_VALUES {
            return true;
        }
        let file = self.owner(&["properties"]);
        self.err_at(
            file,
            "properties",
            0,
            format!(
                "{cards} cards, each with {} property and effect values: {values} in all; at most {MAX_CARD_VALUES} are supported",
                props + effects
            ),
            Some(
                "every card holds a value for each property and effect named: name fewer, or split the cards among games"
                    .into(),
            ),
        );
        false
    }

    /// The rules' `shown:` resolved: tag bits and property indices, an
    /// unknown name a located error.
    fn shown(&mut self, s: &RawShown) -> (u64, Vec<u16>) {
        let rf = self.owner(&["shown"]);
        let from = find_word(self.sources.text(rf), "shown", 0).map_or(0, |(a, _)| a);
        let mut tags = 0u64;
        for t in &s.tags {
            match find(&self.names.tags, t) {
                Some(id) => tags |= crate::value::bit(id),
                None => {
                    let table = self.names.tags.clone();
                    self.unknown(rf, from, "tag", t, &table);
                }
            }
        }
        let mut props = Vec::new();
        for p in &s.properties {
            match self.names.props.iter().position(|n| n == p) {
                Some(i) => props.push(i as u16),
                None => {
                    let table = self.names.props.clone();
                    self.unknown(rf, from, "property", p, &table);
                }
            }
        }
        (tags, props)
    }

    fn unknown(&mut self, file: u32, from: usize, what: &str, name: &str, table: &[String]) {
        let help = did_you_mean(suggest(name, table.iter().map(|s| s.as_str())));
        self.err_at(file, name, from, format!("unknown {what} \"{name}\""), help);
    }

    fn code(&mut self, file: u32, from: usize, text: &str, ctx: &Context, expr: bool) -> Code {
        let origin = code_origin(self.sources.text(file), text, from, file);
        if text.len() > MAX_CODE_BYTES {
            let at = origin.map(0);
            self.compile_error(
                file,
                CompileError {
                    message: format!(
                        "card text too long: {} bytes, at most {MAX_CODE_BYTES}",
                        text.len()
                    ),
                    start: at,
                    end: at + 1,
                    help: Some("split it into verbs in the rules".into()),
                },
            );
            return Code::default();
        }
        let names = &self.names;
        let r = self.memo.get(expr, text, &origin, ctx, names, || {
            if expr {
                compile_expr(text, names, &origin, ctx)
            } else {
                compile_code(text, names, &origin, ctx)
            }
        });
        r.unwrap_or_else(|e| {
            self.compile_error(file, e);
            Code::default()
        })
    }

    /// `end:`'s condition: `if:`, or `rules:` (named conditions) joined by
    /// `or` into one, which is what a turn checks.
    fn end_rules(
        &mut self,
        file: u32,
        from: usize,
        end: &RawEnd,
        ctx: &Context,
    ) -> (Code, Vec<(String, Code)>) {
        let rules: Vec<(String, Code)> = (end.rules.iter())
            .map(|r| {
                let at = find_key(self.sources.text(file), "name", &r.name, from).unwrap_or(from);
                (r.name.clone(), self.code(file, at, &r.cond, ctx, true))
            })
            .collect();
        match (&end.cond, rules.is_empty()) {
            (Some(c), true) => (self.code(file, from, c, ctx, true), rules),
            (None, false) => {
                let mut joined = None;
                for (_, c) in rules.iter().rev() {
                    let Some(Stmt::Return(Some(e))) = c.stmts.first() else {
                        continue;
                    };
                    joined = Some(match joined {
                        None => e.clone(),
                        Some(rest) => Expr::Or(Box::new(e.clone()), Box::new(rest)),
                    });
                }
                let code = Code {
                    stmts: vec![Stmt::Return(joined)],
                    slots: rules.iter().map(|(_, c)| c.slots).max().unwrap_or(0),
                    span: rules[0].1.span,
                    id: Code::UNNUMBERED,
                };
                (code, rules)
            }
            _ => {
                let at = from as u32;
                self.errs.push(self.sources.error(
                    file,
                    at,
                    at + 4,
                    "`end:` takes `if:` (one condition) or `rules:` (named conditions), one of them",
                    Some("e.g. `rules: [{name: empty_deck, if: \"count(deck) == 0\"}]`".into()),
                ));
                (Code::default(), rules)
            }
        }
    }

    fn compile_error(&mut self, file: u32, e: CompileError) {
        self.errs
            .push(self.sources.error(file, e.start, e.end, e.message, e.help));
    }

    /// A card's Rhai snippet: run by Rhai, or, where it says only what card
    /// text says the same way, compiled as card text in `ctx` (`data::lower`).
    fn rhai(&mut self, file: u32, from: usize, text: &str, ctx: &Context) -> Code {
        // Line by line: a Rhai position is a line and a column.
        let origin = line_origin(self.sources.text(file), text, from, file);
        // Where an error of the snippet with no place of its own shows (an
        // effect that runs itself nested too deep).
        let at = origin.map(0);
        let Some(scripts) = self.scripts.as_mut() else {
            return Code::default();
        };
        match scripts.compile_snippet(text, origin) {
            Ok(id) => self.lowered(id, text, ctx).unwrap_or_else(|| Code {
                stmts: vec![Stmt::Return(Some(Expr::Rhai(id)))],
                slots: 1,
                span: Span {
                    file,
                    start: at,
                    end: at + 1,
                },
                id: Code::UNNUMBERED,
            }),
            Err(e) => {
                self.compile_error(file, e);
                Code::default()
            }
        }
    }

    /// Snippet `id` (its `text`) as card text, if it lowers and compiles.
    fn lowered(&mut self, id: u32, text: &str, ctx: &Context) -> Option<Code> {
        if !self.lower_rhai {
            return None;
        }
        let scripts = self.scripts.as_mut()?;
        let s = &scripts.snippets[id as usize];
        if s.defines_fns {
            return None;
        }
        let l = super::lower::lower(&s.ast, text, &s.origin, &self.names, &scripts.sandbox)?;
        let code = compile_code(&l.text, &self.names, &l.origin, ctx).ok()?;
        scripts.lowered += 1;
        Some(code)
    }

    /// A parameter is read by its bare name, so it may not share one with a
    /// counter, global or zone (which would hide it).
    fn check_params(&mut self, r: &RawRules) {
        for name in r.params.keys() {
            let taken = [
                ("counter", r.counters.contains_key(name)),
                ("global", r.globals.contains_key(name)),
                ("zone", r.zones.contains_key(name)),
            ];
            if let Some((what, _)) = taken.iter().find(|(_, t)| *t) {
                let file = self.owner(&["params", name]);
                let from = self.sources.text(file).find("params:").unwrap_or(0);
                self.err_at(
                    file,
                    name,
                    from,
                    format!("the parameter `{name}` has the name of a {what}"),
                    Some("code reads both by their bare name: rename one".into()),
                );
            }
        }
    }

    /// A counter's start: a number, or the value of the parameter it names.
    fn start(&mut self, counter: &str, start: &Start, params: &BTreeMap<String, i64>) -> i64 {
        let name = match start {
            Start::Value(v) => return *v,
            Start::Param(p) => p,
        };
        if let Some(v) = params.get(name) {
            return *v;
        }
        let file = self.owner(&["counters", counter, "start"]);
        let from = self.sources.text(file).find("counters:").unwrap_or(0);
        let help = did_you_mean(suggest(name, params.keys().map(String::as_str))).or_else(|| {
            Some("a start is a number or the name of one of the rules' `params`".into())
        });
        self.err_at(
            file,
            name,
            from,
            format!("counter `{counter}` starts at `{name}`, which is no parameter"),
            help,
        );
        0
    }

    fn build(&mut self, rf: u32, r: RawRules, cards: Vec<CardSrc>) -> Option<Data> {
        // 1. Name tables.
        let n = &mut self.names;
        n.tags = r.tags.clone();
        n.props = r.properties.keys().cloned().collect();
        n.counters = r.counters.keys().cloned().collect();
        n.globals = r.globals.keys().cloned().collect();
        n.zones = r.zones.keys().cloned().collect();
        n.params = r.params.iter().map(|(k, v)| (k.clone(), *v)).collect();
        n.effects = r.effects.clone();
        n.windows = r.windows.keys().cloned().collect();
        n.verbs = r
            .verbs
            .iter()
            .map(|(k, v)| (k.clone(), v.params.clone()))
            .collect();
        n.events = r.events.clone();
        self.check_params(&r);
        self.declared_events = r.events.len();
        let n = &mut self.names;
        for builtin in ["turn_start", "turn_end"] {
            n.events.push(builtin.into());
        }
        for p in &r.turn.phases {
            n.events.push(format!("{}_start", p.name));
            n.events.push(format!("{}_end", p.name));
        }
        if let Some(b) = &r.board {
            n.events.extend(["passes".into(), "stops".into()]);
            n.square_props = b.props.keys().cloned().collect();
        }
        if !self.names_fit(r.moves.len()) || !self.cards_fit(cards.len()) {
            return None;
        }
        // Tags and zones are bits of a u64 (a card's tags, a test's zones):
        // the 65th is refused where it is declared.
        if let Some(extra) = r.tags.get(64) {
            let rf = self.owner(&["tags"]);
            let from = find_word(self.sources.text(rf), "tags", 0).map_or(0, |(a, _)| a);
            let ntags = r.tags.len();
            self.err_at(
                rf,
                extra,
                from,
                format!("{ntags} tags declared; at most 64 are supported"),
                Some(format!("`{extra}` is the 65th")),
            );
        }
        if r.zones.len() > 64 {
            let nzones = r.zones.len();
            self.err_at(
                self.owner(&["zones"]),
                "zones",
                0,
                format!("{nzones} zones declared; at most 64 are supported"),
                None,
            );
        }
        if cards.len() > DefId::MAX as usize + 1 {
            let c = &cards[DefId::MAX as usize + 1];
            self.err_at(
                c.file,
                &c.raw.id,
                c.at,
                format!(
                    "{} cards; at most {} are supported",
                    cards.len(),
                    DefId::MAX as usize + 1
                ),
                None,
            );
            return None;
        }
        for (i, c) in cards.iter().enumerate() {
            if let Some(prev) = self.names.def_index.insert(c.raw.id.clone(), i as u16) {
                let first = &cards[prev as usize];
                let help = Some(format!(
                    "first defined in {}",
                    self.sources.path(first.file)
                ));
                self.err_at(
                    c.file,
                    &c.raw.id,
                    c.at,
                    format!("duplicate card id \"{}\"", c.raw.id),
                    help,
                );
            }
            self.names.defs.push(c.raw.id.clone());
        }

        // 2. Scripts: rules-level Rhai files define functions callable from card text.
        let mut scripts = super::scripts::Scripts::new(&self.names);
        let of = self.owner(&[]);
        let listed = (r.scripts.iter().map(|s| (false, rules_path(s), s, rf)))
            .chain((self.mod_scripts.iter()).map(|s| (true, s.clone(), s, of)))
            .map(|(m, rel, s, f)| (m, rel, s.clone(), f))
            .collect::<Vec<_>>();
        for (in_mod, rel, s, lf) in listed {
            let files = if in_mod {
                self.modf.as_ref()
            } else {
                Some(&self.base)
            };
            let Some(files) = files else { continue };
            if let Err(why) = files.read(&rel) {
                let at = self.sources.text(lf).find("scripts").unwrap_or(0);
                let help = if in_mod {
                    "a mod's scripts are read only from its folder"
                } else {
                    "scripts are read only from the data folder"
                };
                self.err_at(lf, &s, at, why, Some(help.into()));
                continue;
            }
            let Some(file) = self.read_file(in_mod, &rel) else {
                continue;
            };
            let text = self.sources.text(file).to_string();
            if let Err(e) = scripts.compile_file(&text, file) {
                self.compile_error(file, e);
            }
            // A call names a function by a 16-bit id: past that it would wrap.
            if scripts.fns.len() > MAX_NAMES {
                let at = self.sources.text(lf).find("scripts").unwrap_or(0);
                let n = scripts.fns.len();
                let why = format!("{n} script functions; at most {MAX_NAMES} are supported");
                let help = format!("`{s}` brings the count past it");
                self.err_at(lf, &s, at, why, Some(help));
                return None;
            }
        }
        for (file, e) in scripts.check_files() {
            self.compile_error(file, e);
        }
        self.names.scripts = scripts.fns.clone();
        self.scripts = Some(scripts);

        // 3. Rules code.
        let none = Context::default();
        let with_it = Context {
            params: vec!["it".into()],
        };
        // Each part of the rules is located in the file that gives it.
        let at = |l: &Loader, key: &str| {
            let f = l.owner(&[key]);
            (
                f,
                (l.sources.text(f)).find(&format!("\n{key}:")).unwrap_or(0),
            )
        };

        let zones: Vec<ZoneDecl> = r
            .zones
            .iter()
            .map(|(name, z)| {
                let shared = match z.per.as_str() {
                    "shared" => true,
                    "player" => false,
                    other => {
                        let (f, from) = at(self, "zones");
                        let zf = self.owner(&["zones", name]);
                        self.err_at(
                            zf,
                            other,
                            if f == zf { from } else { 0 },
                            format!("zone `per` must be `player` or `shared`, not `{other}`"),
                            None,
                        );
                        false
                    }
                };
                ZoneDecl {
                    name: name.clone(),
                    shared,
                    contents: z.contents,
                    size: z.size.unwrap_or(if z.contents == Visibility::Hidden {
                        Visibility::Public
                    } else {
                        z.contents
                    }),
                    top: z.top,
                    piles: z.piles,
                    controller: z.controller,
                }
            })
            .collect();

        let verbs = r
            .verbs
            .iter()
            .map(|(name, v)| {
                let rf = self.owner(&["verbs", name]);
                let from = self.key_at(rf, name);
                self.code(
                    rf,
                    from,
                    &v.body,
                    &Context {
                        params: v.params.clone(),
                    },
                    false,
                )
            })
            .collect();

        let move_names: Vec<String> = r.moves.keys().cloned().collect();
        let moves: Vec<MoveDecl> = r
            .moves
            .iter()
            .map(|(name, m)| {
                let rf = self.owner(&["moves", name]);
                let from = self.key_at(rf, name);
                let pick = m.pick.as_ref().map(|p| self.code(rf, from, p, &none, true));
                let cond = m.cond.as_ref().map(|c| self.code(rf, from, c, &none, true));
                MoveDecl {
                    name: name.clone(),
                    label: m.label.clone(),
                    pick,
                    cond,
                    body: self.code(rf, from, &m.body, &with_it, false),
                }
            })
            .collect();

        let mut windows: Vec<WindowDecl> = r
            .windows
            .iter()
            .map(|(name, w)| {
                let rf = self.owner(&["windows", name]);
                let from = self.key_at(rf, name);
                let moves = w
                    .moves
                    .iter()
                    .filter_map(|m| {
                        let id = find(&move_names, m);
                        if id.is_none() {
                            self.unknown(rf, from, "move", m, &move_names);
                        }
                        id
                    })
                    .collect();
                let all_players = match w.players.as_str() {
                    "all" => true,
                    "active" => false,
                    other => {
                        self.err_at(
                            rf,
                            other,
                            from,
                            format!("window `players` must be `active` or `all`, not `{other}`"),
                            None,
                        );
                        false
                    }
                };
                let rounds = match w.close.as_str() {
                    "round" => true,
                    "passes" => false,
                    other => {
                        self.err_at(
                            rf,
                            other,
                            from,
                            format!("window `close` must be `passes` or `round`, not `{other}`"),
                            None,
                        );
                        false
                    }
                };
                WindowDecl {
                    name: name.clone(),
                    all_players,
                    rounds: rounds && all_players,
                    moves,
                    bots: Vec::new(),
                }
            })
            .collect();

        let (sf, setup_at) = at(self, "setup");
        let setup = self.code(sf, setup_at, &r.setup, &none, false);
        let (tf, turn_at) = at(self, "turn");
        let phases = r
            .turn
            .phases
            .iter()
            .map(|p| {
                let rf = self.owner(&["turn", "phases", &p.name]);
                let turn_at = if rf == tf { turn_at } else { 0 };
                let from = find_key(&self.text_of(rf), "name", &p.name, turn_at).unwrap_or(turn_at);
                let body = self.code(rf, from, &p.body, &none, false);
                PhaseDecl {
                    name: p.name.clone(),
                    body,
                    start_event: TurnEvent::new(
                        find(&self.names.events, &format!("{}_start", p.name)).unwrap_or(0),
                    ),
                    end_event: TurnEvent::new(
                        find(&self.names.events, &format!("{}_end", p.name)).unwrap_or(0),
                    ),
                }
            })
            .collect();
        let turn = TurnDecl {
            start: r.turn.start.as_ref().map(|c| {
                let f = self.owner(&["turn", "start"]);
                let from = if f == tf { turn_at } else { 0 };
                self.code(f, from, c, &none, false)
            }),
            phases,
            end: r.turn.end.as_ref().map(|c| {
                let f = self.owner(&["turn", "end"]);
                let from = if f == tf { turn_at } else { 0 };
                self.code(f, from, c, &none, false)
            }),
            next: r.turn.next.as_ref().map(|c| {
                let f = self.owner(&["turn", "next"]);
                let from = if f == tf { turn_at } else { 0 };
                self.code(f, from, c, &none, true)
            }),
            start_event: TurnEvent::new(find(&self.names.events, "turn_start").unwrap_or(0)),
            end_event: TurnEvent::new(find(&self.names.events, "turn_end").unwrap_or(0)),
        };
        let (ef, end_at) = at(self, "end");
        let end_always = match r.end.check.as_str() {
            "always" => true,
            "turn_end" => false,
            other => {
                self.err_at(
                    ef,
                    other,
                    end_at,
                    format!("`end.check` must be `turn_end` or `always`, not `{other}`"),
                    None,
                );
                false
            }
        };
        let (end_if, end_rules) = self.end_rules(ef, end_at, &r.end, &none);
        let (scf, score_at) = at(self, "score");
        let score = self.code(scf, score_at, &r.score, &none, true);
        let tiebreak = r.tiebreak.as_ref().map(|t| {
            let (f, from) = at(self, "tiebreak");
            self.code(f, from, t, &none, true)
        });

        let mut triggers = Vec::new();
        let (rf_t, trig_at) = at(self, "triggers");
        let rtext = self.text_of(rf_t);
        for t in &r.triggers {
            let from = find_key(&rtext, "on", &t.on, trig_at).unwrap_or(trig_at);
            if let Some(t) = self.trigger(rf_t, from, t, None) {
                triggers.push(t);
            }
        }

        let bots: Vec<(String, Vec<BotRule>)> = r
            .bots
            .iter()
            .map(|(name, rules)| {
                let rf = self.owner(&["bots", name]);
                let from = self.key_at(rf, name);
                let rules = rules
                    .iter()
                    .map(|b| {
                        let choose = self.code(rf, from, &b.choose, &with_it, true);
                        let cond = b
                            .cond
                            .as_ref()
                            .map(|c| self.code(rf, from, c, &with_it, true));
                        let reads_it = cond.as_ref().is_some_and(|c| c.reads_slot(0));
                        BotRule {
                            when: b.when.clone(),
                            choose,
                            cond_reads_it: reads_it,
                            cond,
                        }
                    })
                    .collect();
                (name.clone(), rules)
            })
            .collect();
        if let Some(a) = &r.default_agent
            && !["random", "first"].contains(&a.as_str())
            && !bots.iter().any(|(n, _)| n == a)
        {
            let (rf, from) = at(self, "default_agent");
            let (s, e) = find_word(&self.text_of(rf), a, from).unwrap_or((from, from + 1));
            let known = ["random", "first"]
                .into_iter()
                .chain(bots.iter().map(|(n, _)| n.as_str()));
            let help = did_you_mean(suggest(a, known));
            self.errs.push(self.sources.error(
                rf,
                s as u32,
                e as u32,
                format!("unknown agent \"{a}\": `default_agent:` names a bot of `bots:`, `random` or `first`"),
                help,
            ));
        }
        let stats = [&r.stats.gained, &r.stats.played, &r.stats.drawn].map(|names| {
            let mut ids = Vec::new();
            for n in names {
                match find(&self.names.events, n) {
                    Some(e) => ids.push(e),
                    None => {
                        let (rf, from) = at(self, "stats");
                        let (s, e) =
                            find_word(&self.text_of(rf), n, from).unwrap_or((from, from + 1));
                        let help = did_you_mean(suggest(n, self.names.events.iter().map(|x| x.as_str())));
                        self.errs.push(self.sources.error(
                            rf,
                            s as u32,
                            e as u32,
                            format!("unknown event `{n}`: `stats:` counts moves by the events of `events:`"),
                            help,
                        ));
                    }
                }
            }
            ids
        });
        // Which rules of each bot may decide in each window.
        for w in &mut windows {
            w.bots = bots
                .iter()
                .map(|(_, rules)| {
                    let list: Vec<u32> = rules
                        .iter()
                        .enumerate()
                        .filter(|(_, r)| r.when.as_deref().is_none_or(|k| k == w.name))
                        .filter_map(|(i, _)| u32::try_from(i).ok())
                        .collect();
                    WindowBot { rules: list }
                })
                .collect();
        }

        // 4. Cards.
        let prop_defaults: Vec<i64> = r.properties.values().copied().collect();
        let (shown_tags, shown_props) = self.shown(&r.shown);
        let mut defs = Vec::with_capacity(cards.len());
        let mut names: std::collections::HashMap<&str, Arc<String>> = Default::default();
        let mut def_names = Vec::with_capacity(cards.len());
        for (i, c) in cards.iter().enumerate() {
            let (file, at) = (c.file, c.at);
            let mut tags = 0u64;
            for t in &c.raw.tags {
                match find(&self.names.tags, t) {
                    Some(id) => tags |= crate::value::bit(id),
                    None => {
                        let table = self.names.tags.clone();
                        self.unknown(file, at, "tag", t, &table);
                    }
                }
            }
            let mut props = prop_defaults.clone();
            for (k, v) in &c.raw.props {
                match find(&self.names.props, k) {
                    Some(id) => props[id as usize] = *v,
                    None => {
                        let table = self.names.props.clone();
                        self.unknown(file, at, "property", k, &table);
                    }
                }
            }
            let mut effects: Vec<Option<Code>> = vec![None; self.names.effects.len()];
            let effect_ctx = Context {
                params: vec!["target".into()],
            };
            for (k, text) in &c.raw.effects {
                let code = self.code(file, at, text, &effect_ctx, false);
                self.set_effect(&mut effects, file, at, k, code);
            }
            for (k, text) in &c.raw.rhai {
                let code = self.rhai(file, at, text, &effect_ctx);
                if c.raw.effects.contains_key(k) {
                    // Both spellings of one effect: neither may win silently.
                    let from = find_word(self.sources.text(file), "rhai", at).map_or(at, |w| w.0);
                    self.err_at(
                        file,
                        k,
                        from,
                        format!("effect `{k}` is given both in `effects:` and in `rhai:`"),
                        Some("keep one of them".into()),
                    );
                    continue;
                }
                self.set_effect(&mut effects, file, at, k, code);
            }
            for a in &c.raw.abilities {
                let from = find_key(self.sources.text(file), "on", &a.on, at).unwrap_or(at);
                if let Some(t) = self.trigger(file, from, a, Some(i as u16)) {
                    triggers.push(t);
                }
            }
            // The card ends where the file's next card starts (if on a later line).
            let next = cards.get(i + 1).filter(|n| n.file == file && n.at > at);
            let end = next.map_or(usize::MAX, |n| n.at);
            let (list, found) = super::construction::resolve_list(
                &c.raw.list,
                &self.names.defs,
                self.sources.text(file),
                (at, end),
            );
            for (a, b, m, h) in found {
                let e = self.sources.error(file, a as u32, b as u32, m, h);
                self.errs.push(e);
            }
            def_names.push(
                (names.entry(c.raw.name.as_str()))
                    .or_insert_with(|| Arc::new(c.raw.name.clone()))
                    .clone(),
            );
            defs.push(CardDef {
                subtitle: c.raw.subtitle.clone().unwrap_or_default(),
                list,
                id: c.raw.id.clone(),
                name: c.raw.name.clone(),
                text: c.raw.text.clone().unwrap_or_default(),
                tags,
                props,
                effects,
                file,
            });
        }

        let index = build_index(&triggers, &zones, self.names.events.len());
        let table = super::card_table::CardTable::new(
            &defs,
            self.names.props.len(),
            self.names.effects.len(),
        );
        let defs_by_tag = (0..self.names.tags.len())
            .map(|t| {
                (0..defs.len() as DefId)
                    .filter(|&d| defs[d as usize].tags & crate::value::bit(t) != 0)
                    .collect()
            })
            .collect();
        let counters = (r.counters.iter())
            .map(|(k, c)| CounterDecl {
                name: k.clone(),
                start: self.start(k, &c.start, &r.params),
                visible: c.visible,
            })
            .collect();
        let option_decls = self.options(&r.options);
        let board = self.board(self.owner(&["board"]), r.board.as_ref(), &defs);
        let construction = r.construction.as_ref().map(|c| {
            let rf = self.owner(&["construction"]);
            let (c, found) =
                super::construction::resolve(c, &self.names.tags, self.sources.text(rf));
            for (a, b, m, h) in found {
                let e = self.sources.error(rf, a as u32, b as u32, m, h);
                self.errs.push(e);
            }
            c
        });
        let scripts = self.scripts.take()?;
        if r.players.min == 0 || r.players.min > r.players.max {
            self.err_at(
                self.owner(&["players"]),
                "players",
                0,
                "`players` needs 1 <= min <= max".into(),
                None,
            );
        }
        if r.max_turns > crate::limits::MAX_TURNS {
            self.err_at(
                self.owner(&["max_turns"]),
                "max_turns",
                0,
                format!(
                    "`max_turns` is at most {} (a game that never ends is stopped there)",
                    crate::limits::MAX_TURNS
                ),
                None,
            );
        }
        let mut data = Data {
            layer: self.layer(),
            game: r.name.clone(),
            title: r.title.clone().unwrap_or_else(|| r.name.clone()),
            names: std::mem::take(&mut self.names),
            players: (
                r.players.min,
                r.players.max,
                r.players.default.unwrap_or(r.players.min),
            ),
            prop_defaults,
            shown_tags,
            shown_props,
            counters,
            globals_start: r.globals.values().copied().collect(),
            zones,
            options: r.options.keys().cloned().collect(),
            option_decls,
            verbs,
            windows,
            moves,
            setup,
            turn,
            end_always,
            end_if,
            end_rules,
            score,
            tiebreak,
            max_turns: r.max_turns,
            triggers,
            index,
            defs,
            table,
            defs_by_tag,
            def_names,
            bots,
            default_agent: r.default_agent.clone(),
            stats,
            scripts,
            sources: std::mem::take(&mut self.sources),
            board,
            construction,
            code_count: 0,
            probe_of: Vec::new(),
        };
        data.number_codes();
        Some(data)
    }

    /// The rules' options, their tags and cards resolved (located errors).
    fn options(&mut self, raw: &BTreeMap<String, RawOption>) -> Vec<OptionDecl> {
        let mut decls = Vec::new();
        for (name, o) in raw {
            let rf = self.owner(&["options", name]);
            let from = find_word(self.sources.text(rf), "options", 0).map_or(0, |(a, _)| a);
            let at = find_word(self.sources.text(rf), name, from).map_or(from, |(a, _)| a);
            let tag = o.tag.as_ref().and_then(|t| {
                let id = find(&self.names.tags, t);
                if id.is_none() {
                    let table = self.names.tags.clone();
                    self.unknown(rf, at, "tag", t, &table);
                }
                id
            });
            let mut cards = Vec::new();
            for id in &o.cards {
                match self.names.def(id) {
                    Some(d) => cards.push(d),
                    None => {
                        let table = self.names.defs.clone();
                        self.unknown(rf, at, "card", id, &table);
                    }
                }
            }
            let (min, max) = match o.count {
                Some(n) => (n, n),
                None => (o.min.unwrap_or(0), o.max.unwrap_or(usize::MAX)),
            };
            if min > max || (o.count.is_some() && (o.min.is_some() || o.max.is_some())) {
                self.err_at(
                    rf,
                    name,
                    at,
                    format!("option {name}: `count`, or `min` <= `max`"),
                    None,
                );
            }
            if let Some(f) = &o.flag {
                let plain = f.starts_with(|c: char| c.is_ascii_alphanumeric())
                    && f.chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
                if !plain {
                    self.err_at(
                        rf,
                        f,
                        at,
                        format!("option {name}: the flag `{f}` is not a plain name"),
                        Some(format!("`flag: {name}` is given as --{name}")),
                    );
                }
            }
            decls.push(OptionDecl {
                name: name.clone(),
                about: o.about.clone(),
                flag: o.flag.clone(),
                tag,
                cards,
                min,
                max,
                distinct: o.distinct,
            });
        }
        decls
    }

    /// The board's squares, their card ids and properties checked.
    fn board(
        &mut self,
        rf: u32,
        raw: Option<&super::board::RawBoard>,
        defs: &[CardDef],
    ) -> super::board::BoardDecl {
        use super::board::{BoardDecl, SquareDecl};
        let Some(raw) = raw else {
            return BoardDecl::default();
        };
        let from = find_word(self.sources.text(rf), "board", 0).map_or(0, |(a, _)| a);
        let values = raw.squares.len().saturating_mul(raw.props.len());
        if values > MAX_SQUARE_VALUES {
            self.err_at(
                rf,
                "props",
                from,
                format!(
                    "{} squares, each with {} properties: {values} values in all; at most {MAX_SQUARE_VALUES} are supported",
                    raw.squares.len(),
                    raw.props.len()
                ),
                Some("every square holds a value of each property named: name fewer, or use fewer squares".into()),
            );
            return BoardDecl::default();
        }
        let mut squares = Vec::with_capacity(raw.squares.len());
        for sq in &raw.squares {
            let card = sq.card.as_ref().and_then(|id| {
                let d = self.names.def(id);
                if d.is_none() {
                    let table = self.names.defs.clone();
                    self.unknown(rf, from, "card id", id, &table);
                }
                d
            });
            let mut props: Vec<Option<i64>> = raw.props.values().copied().collect();
            for (k, v) in &sq.props {
                match find(&self.names.square_props, k) {
                    Some(i) => props[i as usize] = *v,
                    None => {
                        let table = self.names.square_props.clone();
                        self.unknown(rf, from, "square property", k, &table);
                    }
                }
            }
            let name = match (&sq.name, card) {
                (Some(n), _) => n.clone(),
                (None, Some(d)) => defs[d as usize].name.clone(),
                (None, None) => sq.kind.clone(),
            };
            squares.push(SquareDecl {
                kind: std::sync::Arc::new(sq.kind.clone()),
                name,
                card,
                section: sq.section,
                props,
            });
        }
        if squares.is_empty() || squares.len() > crate::limits::MAX_SQUARES {
            self.err_at(
                rf,
                "squares",
                from,
                format!("a board needs 1 to {} squares", crate::limits::MAX_SQUARES),
                None,
            );
        }
        BoardDecl {
            squares,
            passes: find(&self.names.events, "passes"),
            stops: find(&self.names.events, "stops"),
        }
    }

    fn set_effect(
        &mut self,
        effects: &mut [Option<Code>],
        file: u32,
        at: usize,
        k: &str,
        code: Code,
    ) {
        match find(&self.names.effects, k) {
            Some(id) => effects[id as usize] = Some(code),
            None => {
                let table = self.names.effects.clone();
                self.unknown(file, at, "effect", k, &table);
            }
        }
    }

    fn trigger(
        &mut self,
        file: u32,
        from: usize,
        t: &RawTrigger,
        def: Option<u16>,
    ) -> Option<Trigger> {
        let (would, name) = match t.on.strip_prefix("would ") {
            Some(rest) => (true, rest.trim()),
            None => (false, t.on.trim()),
        };
        let Some(event) = find(&self.names.events, name) else {
            let table = self.names.events.clone();
            self.unknown(file, from, "event", name, &table);
            return None;
        };
        if would && event as usize >= self.declared_events {
            self.err_at(
                file,
                name,
                from,
                format!("`would {name}` never happens: `{name}` is raised by the turn or the board, which have no `would` step"),
                Some(format!("write `on: {name}`: the ability then runs as it happens")),
            );
            return None;
        }
        let zone = match &t.zone {
            Some(z) => match find(&self.names.zones, z) {
                Some(id) => Some(id),
                None => {
                    let table = self.names.zones.clone();
                    self.unknown(file, from, "zone", z, &table);
                    return None;
                }
            },
            None => None,
        };
        if def.is_some() && zone.is_none() && !t.self_only {
            self.err_at(
                file,
                "on",
                from,
                format!(
                    "the ability on `{}` needs `zone:` (where the card must be) or `self: true`",
                    t.on
                ),
                None,
            );
            return None;
        }
        let queued = match t.timing.as_deref() {
            None | Some("now") => false,
            Some("queued") => true,
            Some(other) => {
                self.err_at(
                    file,
                    other,
                    from,
                    format!("`timing` must be `now` or `queued`, not `{other}`"),
                    None,
                );
                false
            }
        };
        let none = Context::default();
        let cond = t
            .cond
            .as_ref()
            .map(|c| self.code(file, from, c, &none, true));
        let body = match (&t.body, &t.rhai) {
            (Some(b), None) => self.code(file, from, b, &none, false),
            (None, Some(r)) => self.rhai(file, from, r, &none),
            _ => {
                self.err_at(
                    file,
                    "on",
                    from,
                    "an ability needs exactly one of `do:` or `rhai:`".into(),
                    None,
                );
                return None;
            }
        };
        Some(Trigger {
            def,
            event,
            would,
            zone,
            self_only: t.self_only,
            plain_cond: cond.as_ref().is_some_and(Code::plain),
            cond,
            optional: t.optional,
            reveal: t.reveal,
            prompt: t.prompt.clone().unwrap_or_else(|| t.on.clone()),
            queued,
            body,
        })
    }
}

fn build_index(triggers: &[Trigger], zones: &[ZoneDecl], events: usize) -> TriggerIndex {
    let mut slots = vec![EventSlot::default(); events * 2];
    for (i, t) in triggers.iter().enumerate() {
        let slot = &mut slots[t.event as usize * 2 + t.would as usize];
        let i = i as u32;
        if t.def.is_none() {
            slot.rules.push(i);
        } else if t.self_only {
            slot.self_only.push(i);
        } else if let Some(z) = t.zone {
            match slot.zoned.iter_mut().find(|zz| zz.zone == z) {
                Some(zz) => zz.list.push(i),
                None => {
                    let decl = &zones[z as usize];
                    slot.zoned.push(Zoned {
                        zone: z,
                        list: vec![i],
                        span: Vec::new(),
                        defs: Vec::new(),
                        shared: decl.shared,
                        each: decl.shared && decl.controller == Controller::Each,
                    });
                }
            }
        }
    }
    let def_bits = |list: &[u32]| {
        let mut bits = Vec::new();
        for &t in list {
            if let Some(d) = triggers[t as usize].def {
                let w = d as usize / 64;
                if w >= bits.len() {
                    bits.resize(w + 1, 0u64);
                }
                bits[w] |= 1 << (d % 64);
            }
        }
        bits
    };
    for slot in &mut slots {
        slot.any = !slot.rules.is_empty() || !slot.self_only.is_empty() || !slot.zoned.is_empty();
        for z in &mut slot.zoned {
            z.defs = def_bits(&z.list);
            // Grouped by definition (a stable sort keeps the triggers' order
            // within a group), each group's span by definition.
            let def = |t: u32| triggers[t as usize].def.unwrap_or(0) as usize;
            z.list.sort_by_key(|&t| def(t));
            let top = z.list.iter().map(|&t| def(t) + 1).max().unwrap_or(0);
            z.span = vec![(0, 0); top];
            for (i, &t) in z.list.iter().enumerate() {
                let s = &mut z.span[def(t)];
                if s.1 == 0 {
                    s.0 = i as u32;
                }
                s.1 = i as u32 + 1;
            }
        }
        let mut defs = def_bits(&slot.self_only);
        for z in slot.zoned.iter().map(|z| &z.defs) {
            if z.len() > defs.len() {
                defs.resize(z.len(), 0);
            }
            for (a, b) in defs.iter_mut().zip(z) {
                *a |= b;
            }
        }
        slot.defs = defs;
    }
    TriggerIndex { slots }
}

/// Line and column (1-based) of a byte offset, for messages outside miette.
pub fn line_col(text: &str, off: usize) -> (usize, usize) {
    let before = &text[..off.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rfind('\n').map(|i| off - i).unwrap_or(off + 1);
    (line, col)
}

/// A script's path as the rules name it: under `rules/`, unless it is
/// absolute (then as given, and a folder refuses it as outside).
fn rules_path(s: &str) -> String {
    Path::new("rules").join(s).to_string_lossy().into_owned()
}
