//! Where a command's data comes from: the games shipped in the binary, a
//! folder holding `rules/` and `cards/`, or a mod (a folder holding
//! `mod.yaml`) laid over a shipped game. [`open`] is the one way in.

use std::path::{Path, PathBuf};

use super::files::Files;
use super::manifest;
use super::memo::Memo;
use super::unsaved::Unsaved;
use super::{Data, DataErrors};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// The shipped games, embedded in the binary.
    Embedded,
    /// A folder holding `rules/<game>.yaml` and `cards/<game>/`.
    Dir(PathBuf),
    /// A folder holding `mod.yaml`, laid over a shipped game.
    Mod(PathBuf),
}

/// The data `--data` names: a mod if the folder holds `mod.yaml`, else the
/// folder; with no `--data`, the shipped games.
pub fn open(arg: Option<&Path>) -> Source {
    match arg {
        None => Source::Embedded,
        Some(p) if manifest::is_mod(p) => Source::Mod(p.to_path_buf()),
        Some(p) => Source::Dir(p.to_path_buf()),
    }
}

impl Source {
    /// Loads and compiles one game.
    pub fn load(&self, game: &str) -> Result<Data, DataErrors> {
        self.load_unsaved(game, &Unsaved::default())
    }

    /// Loads and compiles one game as an editor shows it: each file with an
    /// unsaved text is read as that text.
    pub fn load_unsaved(&self, game: &str, unsaved: &Unsaved) -> Result<Data, DataErrors> {
        self.load_again(game, unsaved, &mut Memo::default())
    }

    /// [`Source::load_unsaved`] for a game loaded again and again: card text
    /// the last load compiled comes from `memo`.
    pub fn load_again(
        &self,
        game: &str,
        unsaved: &Unsaved,
        memo: &mut Memo,
    ) -> Result<Data, DataErrors> {
        use super::load::load_with;
        match self {
            Source::Embedded => load_with(Files::Embedded, game, None, unsaved, memo),
            Source::Dir(d) => load_with(Files::dir(d), game, None, unsaved, memo),
            Source::Mod(d) => load_with(Files::Embedded, game, Some(d), unsaved, memo),
        }
    }

    /// Loads one game with files given in memory (path relative to the
    /// data, bytes) read instead of the files of those paths: a variant with
    /// no file edited. A mod's files are not replaced, only the game's.
    pub fn load_over(&self, game: &str, over: Vec<(String, Vec<u8>)>) -> Result<Data, DataErrors> {
        let (base, dir) = match self {
            Source::Embedded => (Files::Embedded, None),
            Source::Dir(d) => (Files::dir(d), None),
            Source::Mod(d) => (Files::Embedded, Some(d.as_path())),
        };
        super::load::load(
            Files::Over(Box::new(base), over),
            game,
            dir,
            &Unsaved::default(),
        )
    }

    /// The bytes of a file of the game's data (path relative to the data).
    pub fn read(&self, rel: &str) -> Result<Vec<u8>, String> {
        match self {
            Source::Embedded | Source::Mod(_) => Files::Embedded.read(rel),
            Source::Dir(d) => Files::dir(d).read(rel),
        }
    }

    /// The YAML files under a folder of the data (paths relative to it).
    pub fn yaml_under(&self, rel: &str) -> Vec<String> {
        let mut errs = Vec::new();
        match self {
            Source::Embedded | Source::Mod(_) => Files::Embedded.yaml_under(rel, &mut errs),
            Source::Dir(d) => Files::dir(d).yaml_under(rel, &mut errs),
        }
    }

    /// The games it holds (a mod: the one it extends, if its `mod.yaml`
    /// says so; else none, and loading says why).
    pub fn games(&self) -> Vec<String> {
        match self {
            Source::Embedded => Files::Embedded.games(),
            Source::Dir(d) => Files::dir(d).games(),
            Source::Mod(_) => self.extends().into_iter().collect(),
        }
    }

    /// The folder, if the data is one.
    pub fn folder(&self) -> Option<&Path> {
        match self {
            Source::Embedded => None,
            Source::Dir(d) | Source::Mod(d) => Some(d),
        }
    }

    /// The game a mod extends, as its `mod.yaml` names it (read plainly:
    /// loading reports a broken file).
    fn extends(&self) -> Option<String> {
        let dir = self.folder()?;
        // Read as loading reads it: only inside the folder.
        let bytes = Files::dir(dir).read(manifest::FILE).ok()?;
        let m: manifest::RawMod = serde_norway::from_slice(&bytes).ok()?;
        Some(m.extends)
    }

    /// The data in use, in words: `fuda check` prints it first.
    pub fn describe(&self) -> String {
        match self {
            Source::Embedded => "the games built into fuda".into(),
            Source::Dir(d) => format!("the folder {}", d.display()),
            Source::Mod(d) => match self.extends() {
                Some(g) if Files::Embedded.games().contains(&g) => {
                    format!("the mod {} on the built-in game {g}", d.display())
                }
                Some(g) => format!("the mod {} (mod.yaml extends {g})", d.display()),
                None => format!("the mod {}", d.display()),
            },
        }
    }
}
