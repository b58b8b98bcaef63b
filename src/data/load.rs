//! Reads a game's rules and cards from a data directory and compiles them.
//! Every problem found is collected, so `fuda check` reports them all at once.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;

use super::options::OptionDecl;
use super::schema::*;
use super::*;
use crate::data::confine::{Root, plain_name};
use crate::data::locate::{code_origin, find_key, find_word};
use crate::lang::compile::{CompileError, Context, compile_code, compile_expr};
use crate::lang::ir::{Code, Expr, Stmt};
use crate::lang::names::find;
use crate::limits::MAX_CODE_BYTES;
use crate::suggest::{did_you_mean, suggest};

/// The games whose rules files are in `data/rules/`.
pub fn list_games(data_dir: &Path) -> Vec<String> {
    let mut games: Vec<String> = std::fs::read_dir(data_dir.join("rules"))
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let p = e.path();
            (p.extension()? == "yaml").then(|| p.file_stem()?.to_str().map(str::to_string))?
        })
        .collect();
    games.sort();
    games
}

/// Loads and compiles one game.
pub fn load_game(data_dir: &Path, game: &str) -> Result<Data, DataErrors> {
    let mut l = Loader {
        root: Root::new(data_dir),
        ..Loader::default()
    };
    if !plain_name(game) {
        let help = Some(format!(
            "a game is named by its file rules/<game>.yaml; games in {}: {}",
            data_dir.display(),
            list_games(data_dir).join(", ")
        ));
        l.errs.push(DataError::plain(
            format!("unknown game `{game}`: a game's name is not a path"),
            help,
        ));
        return Err(DataErrors { errors: l.errs });
    }
    let rules_path = data_dir.join("rules").join(format!("{game}.yaml"));
    let Some((rules_file, rules)) = l.read_yaml::<RawRules>(&rules_path) else {
        if !rules_path.exists() {
            let games = list_games(data_dir);
            let help =
                did_you_mean(suggest(game, games.iter().map(|s| s.as_str()))).or_else(|| {
                    Some(format!(
                        "games in {}: {}",
                        data_dir.display(),
                        games.join(", ")
                    ))
                });
            l.errs.push(DataError::plain(
                format!("unknown game `{game}`: no {}", rules_path.display()),
                help,
            ));
        }
        return Err(DataErrors { errors: l.errs });
    };
    let card_dir = data_dir
        .join("cards")
        .join(rules.cards.as_deref().unwrap_or(game));
    let cards = match &rules.cards {
        Some(name) if !plain_name(name) || !l.root.inside(&card_dir) => {
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
        _ => l.read_cards(&card_dir),
    };
    let data = l.build(data_dir, rules_file, rules, cards);
    if let Some(d) = &data {
        l.errs.extend(counts::check(d));
        l.errs.extend(construction::check(d));
    }
    match data {
        Some(d) if l.errs.is_empty() => Ok(d),
        _ => Err(DataErrors { errors: l.errs }),
    }
}

#[derive(Default)]
struct Loader {
    root: Root,
    sources: Sources,
    errs: Vec<DataError>,
    names: Names,
    scripts: Option<super::scripts::Scripts>,
}

/// A card as read, with where it came from.
struct CardSrc {
    raw: RawCard,
    file: u32,
    at: usize,
}

impl Loader {
    fn read_file(&mut self, path: &Path) -> Option<u32> {
        if let Some(why) = self.root.refuse(path) {
            self.errs.push(DataError::plain(why, None));
            return None;
        }
        yamltext::read(&mut self.sources, path, &mut self.errs)
    }

    fn read_yaml<T: DeserializeOwned>(&mut self, path: &Path) -> Option<(u32, T)> {
        let file = self.read_file(path)?;
        let v = self.parse_yaml(file)?;
        Some((file, v))
    }

    fn parse_yaml<T: DeserializeOwned>(&mut self, file: u32) -> Option<T> {
        if let Some((at, why)) = super::yaml::over_limits(self.sources.text(file)) {
            let e = self
                .sources
                .error(file, at as u32, at as u32 + 1, why, None);
            self.errs.push(e);
            return None;
        }
        let dups = yamltext::check(&self.sources, file);
        if !dups.is_empty() {
            self.errs.extend(dups);
            return None;
        }
        match serde_norway::from_str::<T>(self.sources.text(file)) {
            Ok(v) => Some(v),
            Err(e) => {
                self.errs.push(self.yaml_error(file, &e));
                None
            }
        }
    }

    fn yaml_error(&self, file: u32, e: &serde_norway::Error) -> DataError {
        let text = self.sources.text(file);
        let raw = e.to_string();
        let message = raw.split(" at line ").next().unwrap_or(&raw).to_string();
        let off = e.location().map(|l| l.index()).unwrap_or(0);
        if let Some((m, h, at)) = yamltext::explain_tab(text, off) {
            return self
                .sources
                .error(file, at as u32, at as u32 + 1, m, Some(h));
        }
        let mut help = None;
        if let Some(rest) = message.strip_prefix("unknown field `") {
            let field = rest.split('`').next().unwrap_or("");
            let expected: Vec<&str> = rest
                .split("expected ")
                .nth(1)
                .unwrap_or("")
                .split('`')
                .skip(1)
                .step_by(2)
                .collect();
            help = did_you_mean(suggest(field, expected.iter().copied()))
                .or_else(|| Some(format!("known fields: {}", expected.join(", "))));
        }
        let end = text[off..]
            .find(['\n', ':'])
            .map(|i| off + i)
            .unwrap_or(off);
        self.sources
            .error(file, off as u32, end.max(off) as u32, message, help)
    }

    /// The card files under `dir`: every entry named *.yaml (reading refuses
    /// what is not a regular file), and those of the folders inside, each
    /// listed once (a symlink may lead back to a parent).
    fn collect_yaml(&mut self, dir: &Path, out: &mut Vec<PathBuf>) {
        if !self.root.inside(dir) {
            self.errs.push(DataError::plain(
                format!("{} leads outside the data folder", dir.display()),
                Some("card folders are read only from the data folder".into()),
            ));
            return;
        }
        if !self.root.first_visit(dir) {
            return;
        }
        let Ok(rd) = std::fs::read_dir(dir) else {
            return;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.extension().is_some_and(|x| x == "yaml" || x == "yml") {
                out.push(p);
            } else if p.is_dir() {
                self.collect_yaml(&p, out);
            }
        }
    }

    fn read_cards(&mut self, dir: &Path) -> Vec<CardSrc> {
        let mut files = Vec::new();
        self.collect_yaml(dir, &mut files);
        files.sort();
        let mut out = Vec::new();
        for path in files {
            let Some(file) = self.read_file(&path) else {
                continue;
            };
            let text = self.sources.text(file);
            let is_list = text
                .lines()
                .map(str::trim_start)
                .find(|l| !l.is_empty() && !l.starts_with('#') && *l != "---")
                .is_some_and(|l| l.starts_with('-'));
            let cards: Vec<RawCard> = if is_list {
                self.parse_yaml(file).unwrap_or_default()
            } else {
                self.parse_yaml::<RawCard>(file).into_iter().collect()
            };
            let mut from = 0;
            for raw in cards {
                let at = find_key(self.sources.text(file), "id", &raw.id, from).unwrap_or(from);
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
            .unwrap_or((from, from));
        self.errs
            .push(self.sources.error(file, a as u32, b as u32, message, help));
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
        let r = if expr {
            compile_expr(text, &self.names, &origin, ctx)
        } else {
            compile_code(text, &self.names, &origin, ctx)
        };
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

    fn rhai(&mut self, file: u32, from: usize, text: &str, params: &[&str]) -> Code {
        let origin = code_origin(self.sources.text(file), text, from, file);
        let Some(scripts) = self.scripts.as_mut() else {
            return Code::default();
        };
        match scripts.compile_snippet(text, origin, params) {
            Ok(id) => Code {
                stmts: vec![Stmt::Return(Some(Expr::Rhai(id)))],
                slots: 1,
                span: Default::default(),
                id: Code::UNNUMBERED,
            },
            Err(e) => {
                self.compile_error(file, e);
                Code::default()
            }
        }
    }

    fn build(
        &mut self,
        data_dir: &Path,
        rf: u32,
        r: RawRules,
        cards: Vec<CardSrc>,
    ) -> Option<Data> {
        // 1. Name tables.
        let n = &mut self.names;
        n.tags = r.tags.clone();
        n.props = r.properties.keys().cloned().collect();
        n.counters = r.counters.keys().cloned().collect();
        n.globals = r.globals.keys().cloned().collect();
        n.zones = r.zones.keys().cloned().collect();
        n.effects = r.effects.clone();
        n.windows = r.windows.keys().cloned().collect();
        n.verbs = r
            .verbs
            .iter()
            .map(|(k, v)| (k.clone(), v.params.clone()))
            .collect();
        n.events = r.events.clone();
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
        // Tags and zones are bits of a u64 (a card's tags, a test's zones):
        // the 65th is refused where it is declared.
        if let Some(extra) = r.tags.get(64) {
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
                rf,
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
        for s in &r.scripts {
            let path = data_dir.join("rules").join(s);
            if let Some(why) = self.root.refuse(&path) {
                let at = self.sources.text(rf).find("scripts").unwrap_or(0);
                self.err_at(
                    rf,
                    s,
                    at,
                    why,
                    Some("scripts are read only from the data folder".into()),
                );
                continue;
            }
            let Some(file) = self.read_file(&path) else {
                continue;
            };
            let text = self.sources.text(file).to_string();
            if let Err(e) = scripts.compile_file(&text, file) {
                self.compile_error(file, e);
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
        let rtext = self.sources.text(rf).to_string();
        let at = |key: &str| rtext.find(&format!("\n{key}:")).unwrap_or(0);

        let zones = r
            .zones
            .iter()
            .map(|(name, z)| {
                let shared = match z.per.as_str() {
                    "shared" => true,
                    "player" => false,
                    other => {
                        self.err_at(
                            rf,
                            other,
                            at("zones"),
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
                let from = find_key(&rtext, name, "", 0)
                    .unwrap_or_else(|| rtext.find(&format!(" {name}:")).unwrap_or(0));
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
                let from = rtext.find(&format!(" {name}:")).unwrap_or(0);
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
                let from = rtext.find(&format!(" {name}:")).unwrap_or(0);
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
                WindowDecl {
                    name: name.clone(),
                    all_players,
                    moves,
                    bots: Vec::new(),
                }
            })
            .collect();

        let setup = self.code(rf, at("setup"), &r.setup, &none, false);
        let turn_at = at("turn");
        let phases = r
            .turn
            .phases
            .iter()
            .map(|p| {
                let from = find_key(&rtext, "name", &p.name, turn_at).unwrap_or(turn_at);
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
            start: r
                .turn
                .start
                .as_ref()
                .map(|c| self.code(rf, turn_at, c, &none, false)),
            phases,
            end: r
                .turn
                .end
                .as_ref()
                .map(|c| self.code(rf, turn_at, c, &none, false)),
            next: r
                .turn
                .next
                .as_ref()
                .map(|c| self.code(rf, turn_at, c, &none, true)),
            start_event: TurnEvent::new(find(&self.names.events, "turn_start").unwrap_or(0)),
            end_event: TurnEvent::new(find(&self.names.events, "turn_end").unwrap_or(0)),
        };
        let end_always = match r.end.check.as_str() {
            "always" => true,
            "turn_end" => false,
            other => {
                self.err_at(
                    rf,
                    other,
                    at("end"),
                    format!("`end.check` must be `turn_end` or `always`, not `{other}`"),
                    None,
                );
                false
            }
        };
        let (end_if, end_rules) = self.end_rules(rf, at("end"), &r.end, &none);
        let score = self.code(rf, at("score"), &r.score, &none, true);
        let tiebreak = r
            .tiebreak
            .as_ref()
            .map(|t| self.code(rf, at("tiebreak"), t, &none, true));

        let mut triggers = Vec::new();
        let trig_at = at("triggers");
        for t in &r.triggers {
            let from = find_key(&rtext, "on", &t.on, trig_at).unwrap_or(trig_at);
            if let Some(t) = self.trigger(rf, from, t, None) {
                triggers.push(t);
            }
        }

        let bots: Vec<(String, Vec<BotRule>)> = r
            .bots
            .iter()
            .map(|(name, rules)| {
                let from = rtext.find(&format!(" {name}:")).unwrap_or(0);
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
            let from = at("default_agent");
            let (s, e) = find_word(&rtext, a, from).unwrap_or((from, from + 1));
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
        let mut defs = Vec::with_capacity(cards.len());
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
                let code = self.rhai(file, at, text, &[]);
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
            let (list, found) = super::construction::resolve_list(
                &c.raw.list,
                &self.names.defs,
                self.sources.text(file),
                at,
            );
            for (a, b, m, h) in found {
                let e = self.sources.error(file, a as u32, b as u32, m, h);
                self.errs.push(e);
            }
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

        let index = build_index(&triggers, self.names.events.len());
        let defs_by_tag = (0..self.names.tags.len())
            .map(|t| {
                (0..defs.len() as DefId)
                    .filter(|&d| defs[d as usize].tags & crate::value::bit(t) != 0)
                    .collect()
            })
            .collect();
        let counters = r
            .counters
            .iter()
            .map(|(k, c)| CounterDecl {
                name: k.clone(),
                start: c.start,
                visible: c.visible,
            })
            .collect();
        let option_decls = self.options(rf, &r.options);
        let board = self.board(rf, r.board.as_ref(), &defs);
        let construction = r.construction.as_ref().map(|c| {
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
                rf,
                "players",
                0,
                "`players` needs 1 <= min <= max".into(),
                None,
            );
        }
        let mut data = Data {
            game: r.name.clone(),
            title: r.title.clone().unwrap_or_else(|| r.name.clone()),
            names: std::mem::take(&mut self.names),
            players: (
                r.players.min,
                r.players.max,
                r.players.default.unwrap_or(r.players.min),
            ),
            prop_defaults,
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
            defs_by_tag,
            bots,
            default_agent: r.default_agent.clone(),
            scripts,
            sources: std::mem::take(&mut self.sources),
            board,
            construction,
            code_count: 0,
        };
        data.number_codes();
        Some(data)
    }

    /// The rules' options, their tags and cards resolved (located errors).
    fn options(&mut self, rf: u32, raw: &BTreeMap<String, RawOption>) -> Vec<OptionDecl> {
        let from = find_word(self.sources.text(rf), "options", 0).map_or(0, |(a, _)| a);
        let mut decls = Vec::new();
        for (name, o) in raw {
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
        BoardDecl { squares }
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
            (None, Some(r)) => self.rhai(file, from, r, &[]),
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
            cond,
            optional: t.optional,
            reveal: t.reveal,
            prompt: t.prompt.clone().unwrap_or_else(|| t.on.clone()),
            queued,
            body,
        })
    }
}

fn build_index(triggers: &[Trigger], events: usize) -> TriggerIndex {
    let mut slots = vec![EventSlot::default(); events * 2];
    for (i, t) in triggers.iter().enumerate() {
        let slot = &mut slots[t.event as usize * 2 + t.would as usize];
        let i = i as u32;
        if t.def.is_none() {
            slot.rules.push(i);
        } else if t.self_only {
            slot.self_only.push(i);
        } else if let Some(z) = t.zone {
            match slot.zoned.iter_mut().find(|(zz, _)| *zz == z) {
                Some((_, v)) => v.push(i),
                None => slot.zoned.push((z, vec![i])),
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
        slot.zoned_defs = slot.zoned.iter().map(|(_, l)| def_bits(l)).collect();
        let mut defs = def_bits(&slot.self_only);
        for z in &slot.zoned_defs {
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
