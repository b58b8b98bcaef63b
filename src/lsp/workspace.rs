//! The open files and the games they belong to: each game loaded as `fuda
//! check` loads it, from the editor's unsaved texts, and kept while it loads
//! cleanly so completion and hover still know it while a file is broken.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::data::memo::Memo;
use crate::data::source::{self, Source};
use crate::data::unsaved::Unsaved;
use crate::data::{Data, DataErrors};

/// A game of a data folder or mod: what is loaded together.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Key {
    pub folder: PathBuf,
    pub is_mod: bool,
    pub game: String,
}

impl Key {
    pub fn source(&self) -> Source {
        if self.is_mod {
            Source::Mod(self.folder.clone())
        } else {
            Source::Dir(self.folder.clone())
        }
    }
}

pub struct Doc {
    pub path: PathBuf,
    pub text: Arc<String>,
}

pub struct Game {
    /// The last data that loaded without error.
    pub good: Option<Arc<Data>>,
    /// The errors of the last load.
    pub errors: Option<DataErrors>,
}

#[derive(Default)]
pub struct Workspace {
    /// `--data`, if given: every file belongs to it.
    pub data: Option<PathBuf>,
    pub docs: HashMap<String, Doc>,
    pub unsaved: Unsaved,
    pub games: HashMap<Key, Game>,
    /// Games whose files changed since they were loaded.
    pub dirty: BTreeSet<Key>,
    /// Each game's card text as last compiled: an edit recompiles its card.
    memos: HashMap<Key, Memo>,
}

impl Workspace {
    pub fn new(data: Option<PathBuf>) -> Workspace {
        Workspace {
            data: data.map(|d| real(&d)),
            ..Workspace::default()
        }
    }

    pub fn open(&mut self, uri: &str, path: PathBuf, text: String) {
        let path = real(&path);
        let text = Arc::new(text);
        self.unsaved
            .set(path.display().to_string(), Arc::clone(&text));
        self.dirty.extend(self.keys(&path));
        self.docs.insert(uri.to_string(), Doc { path, text });
    }

    /// The file went back to what is saved (closed, or saved).
    pub fn close(&mut self, uri: &str) {
        if let Some(doc) = self.docs.remove(uri) {
            self.unsaved.remove(&doc.path.display().to_string());
            self.dirty.extend(self.keys(&doc.path));
        }
    }

    /// The folder or mod a file belongs to: `--data`, else the nearest
    /// folder around it holding `mod.yaml`, or `rules/` and `cards/`.
    pub fn folder(&self, path: &Path) -> Option<(PathBuf, bool)> {
        if let Some(d) = &self.data {
            return Some((d.clone(), matches!(source::open(Some(d)), Source::Mod(_))));
        }
        let is_data = |dir: &Path| {
            dir.join(crate::data::manifest::FILE).is_file()
                || (dir.join("rules").is_dir() && dir.join("cards").is_dir())
        };
        // A scenario folder may hold `rules/` and `cards/` of scenarios: the
        // data is above the `scenarios` folder of a data folder or mod.
        let inside = (path.ancestors().skip(1)).find(|d| {
            d.file_name().is_some_and(|n| n == "scenarios")
                && d.parent().is_some_and(|p| {
                    is_data(p) || (p.ends_with("tests") && p.parent().is_some_and(is_data))
                })
        });
        let from = inside.map_or(path, |d| d);
        from.ancestors().skip(1).find_map(|dir| {
            if dir.join(crate::data::manifest::FILE).is_file() {
                Some((dir.to_path_buf(), true))
            } else if dir.join("rules").is_dir() && dir.join("cards").is_dir() {
                Some((dir.to_path_buf(), false))
            } else {
                None
            }
        })
    }

    /// The games a file belongs to: a mod's one game; in a folder, the game
    /// of `rules/<game>.yaml`, of the card folder, of the scenario folder,
    /// else every game (a script may serve any).
    pub fn keys(&self, path: &Path) -> Vec<Key> {
        let Some((folder, is_mod)) = self.folder(path) else {
            return Vec::new();
        };
        let key = |game: String| Key {
            folder: folder.clone(),
            is_mod,
            game,
        };
        let source = if is_mod {
            Source::Mod(folder.clone())
        } else {
            Source::Dir(folder.clone())
        };
        let games = source.games();
        if is_mod {
            return games.into_iter().map(key).collect();
        }
        let rel: Vec<String> = path
            .strip_prefix(&folder)
            .map(|r| {
                (r.iter())
                    .map(|c| c.to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_default();
        let rel: Vec<&str> = rel.iter().map(String::as_str).collect();
        let mine: Vec<String> = match rel.as_slice() {
            ["rules", f] if f.ends_with(".yaml") => vec![f.trim_end_matches(".yaml").to_string()],
            ["cards", f, ..] => (games.iter())
                .filter(|g| *g == f || cards_folder(&folder, g).as_deref() == Some(*f))
                .cloned()
                .collect(),
            ["tests", "scenarios", g, ..] => vec![g.to_string()],
            _ => Vec::new(),
        };
        let mine: Vec<String> = mine.into_iter().filter(|g| games.contains(g)).collect();
        if mine.is_empty() { games } else { mine }
            .into_iter()
            .map(key)
            .collect()
    }

    /// Loads a game again from the files and unsaved texts.
    pub fn load(&mut self, key: &Key) {
        let memo = self.memos.entry(key.clone()).or_insert_with(Memo::keeping);
        let loaded = key.source().load_again(&key.game, &self.unsaved, memo);
        let game = self.games.entry(key.clone()).or_insert(Game {
            good: None,
            errors: None,
        });
        match loaded {
            Ok(d) => {
                game.good = Some(Arc::new(d));
                game.errors = None;
            }
            Err(e) => {
                // Never loaded cleanly: the saved files may.
                if game.good.is_none() {
                    game.good = key.source().load(&key.game).ok().map(Arc::new);
                }
                game.errors = Some(e);
            }
        }
    }

    /// The data of the game a file belongs to (its first, if several).
    pub fn data(&mut self, path: &Path) -> Option<(Key, Arc<Data>)> {
        let keys = self.keys(path);
        for k in &keys {
            if !self.games.contains_key(k) {
                self.load(k);
            }
        }
        keys.into_iter()
            .find_map(|k| Some((k.clone(), Arc::clone(self.games.get(&k)?.good.as_ref()?))))
    }
}

/// A rules file's `cards:` (its card folder, when not named as the game).
fn cards_folder(folder: &Path, game: &str) -> Option<String> {
    let rules = folder.join("rules").join(format!("{game}.yaml"));
    let text = crate::data::confine::read_given(&rules).ok()?;
    text.lines()
        .find_map(|l| l.strip_prefix("cards:"))
        .map(|v| v.split('#').next().unwrap_or("").trim().to_string())
}

/// The path without symlinks or `..`, so it reads as the loader names files.
fn real(p: &Path) -> PathBuf {
    p.canonicalize().unwrap_or_else(|_| p.to_path_buf())
}
