//! Texts an editor holds unsaved, read in place of the files they will be
//! saved to: the language server loads a game as its author sees it, and
//! loading from them writes nothing.

use std::collections::HashMap;
use std::sync::Arc;

/// Unsaved texts by file name, as the loader names files (`Files::name`:
/// the data folder joined with the file's path).
#[derive(Debug, Default, Clone)]
pub struct Unsaved {
    texts: HashMap<String, Arc<String>>,
}

impl Unsaved {
    pub fn set(&mut self, name: String, text: Arc<String>) {
        self.texts.insert(name, text);
    }

    pub fn remove(&mut self, name: &str) {
        self.texts.remove(name);
    }

    pub fn get(&self, name: &str) -> Option<&Arc<String>> {
        self.texts.get(name)
    }
}
