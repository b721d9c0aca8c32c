//! What the index and its snapshots share without copying: the nearest-config answer of each
//! directory asked about, and the memos (values computed once from the whole index).

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use crate::diagnostic::FileId;

use super::keys::ChangedKeys;
use super::Key;

/// The nearest-config answer of each directory asked about, shared by the index and its
/// snapshots (a clone of the index must not copy one entry per directory: a workspace of SKILL.md
/// skills has a directory per skill, and the server clones the index on every edit). The answers
/// depend only on which configs exist, so every index with the same configs may share them. A
/// `skillgraph.toml` appearing, changing or going away changes a `Key::Config`, and then the live
/// index starts a table of its own (rare: the answers of every directory below it may change);
/// snapshots keep the old one, which still answers for them.
#[derive(Clone, Default)]
pub(super) struct ConfigDirs(Arc<std::sync::Mutex<HashMap<PathBuf, Option<FileId>>>>);

impl ConfigDirs {
    pub(super) fn table(&self) -> std::sync::MutexGuard<'_, HashMap<PathBuf, Option<FileId>>> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl std::fmt::Debug for ConfigDirs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ConfigDirs")
    }
}

/// A value computed from the whole index once and shared by every check that needs it, keyed by
/// the [`Key`] whose contributions are its inputs (the composes graph of a workspace, the graph of
/// SKILL.md chains). A check reads it through [`Lookup::memo`], which records that key; when the
/// key's contributions change, the value is dropped and every reader re-checked. This is what
/// keeps a graph of n skills at O(n) per batch instead of one walk of the graph per skill.
///
/// Snapshots share the table until the live index drops a value: it then starts a new table, so
/// a snapshot never sees a value computed from another state.
#[derive(Clone, Default)]
pub(super) struct Memos(Arc<std::sync::Mutex<HashMap<MemoKey, Arc<MemoCell>>>>);

/// A memo is keyed by the key it is computed from and by the type of its value, so two queries
/// over one key (the duplicates of an id, the skills of that id) never meet in one cell.
pub(super) type MemoKey = (Key, std::any::TypeId);

pub(super) type MemoCell = std::sync::OnceLock<Arc<dyn std::any::Any + Send + Sync>>;

impl std::fmt::Debug for Memos {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Memos")
    }
}

impl Memos {
    pub(super) fn table(&self) -> std::sync::MutexGuard<'_, HashMap<MemoKey, Arc<MemoCell>>> {
        // A panic while computing happens outside the lock; a poisoned table is still sound.
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    pub(super) fn forget(&mut self, changed: &ChangedKeys) {
        if changed.all {
            *self = Memos::default();
            return;
        }
        let kept: HashMap<MemoKey, Arc<MemoCell>> = {
            let table = self.table();
            if !table.keys().any(|(key, _)| changed.contains(key)) {
                return;
            }
            table
                .iter()
                .filter(|((key, _), _)| !changed.contains(key))
                .map(|(key, cell)| (key.clone(), cell.clone()))
                .collect()
        };
        *self = Memos(Arc::new(std::sync::Mutex::new(kept)));
    }
}
