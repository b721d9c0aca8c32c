//! The index's table of file entries, by id.

use std::sync::Arc;

use super::FileEntry;
use crate::diagnostic::FileId;

/// File entries by id: a persistent vector with a slot per id handed out. Ids are small numbers
/// given in the order files arrive, so a vector holds them densely. A persistent hash map keyed
/// by id (as this table was) spends most of its memory on half-empty nodes once it holds more
/// than about 32,000 entries, and every lookup hashes and searches; here a lookup is an index into
/// nodes of 64 slots, and the entries are walked in id order, which for a walked file set is the
/// path order. A removed file leaves an empty slot (ids are not reused): 8 bytes per file ever
/// added. Cloning is O(1) and a write copies the path to its slot, as for the other tables.
#[derive(Clone, Debug, Default)]
pub(crate) struct FileTable {
    slots: imbl::Vector<Option<Arc<FileEntry>>>,
    /// How many slots hold an entry.
    len: usize,
}

impl FileTable {
    pub(crate) fn get(&self, id: &FileId) -> Option<&Arc<FileEntry>> {
        self.slots.get(id.0 as usize)?.as_ref()
    }

    pub(crate) fn get_mut(&mut self, id: &FileId) -> Option<&mut Arc<FileEntry>> {
        self.slots.get_mut(id.0 as usize)?.as_mut()
    }

    pub(crate) fn contains_key(&self, id: &FileId) -> bool {
        self.get(id).is_some()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Puts `entry` in the slot of `id`, returning what was there.
    pub(crate) fn insert(&mut self, id: FileId, entry: Arc<FileEntry>) -> Option<Arc<FileEntry>> {
        let slot = id.0 as usize;
        while self.slots.len() <= slot {
            self.slots.push_back(None);
        }
        let previous = self.slots.set(slot, Some(entry));
        if previous.is_none() {
            self.len += 1;
        }
        previous
    }

    pub(crate) fn remove(&mut self, id: &FileId) -> Option<Arc<FileEntry>> {
        let previous = self.slots.get_mut(id.0 as usize)?.take();
        if previous.is_some() {
            self.len -= 1;
        }
        previous
    }

    /// The entries, in id order.
    pub(crate) fn values(&self) -> impl Iterator<Item = &Arc<FileEntry>> {
        self.slots.iter().flatten()
    }

    /// The ids of the entries, in order.
    pub(crate) fn ids(&self) -> impl Iterator<Item = FileId> + '_ {
        self.values().map(|entry| entry.id)
    }

    /// The entries, in id order, to change in place.
    pub(crate) fn values_mut(&mut self) -> impl Iterator<Item = &mut Arc<FileEntry>> {
        self.slots.iter_mut().flatten()
    }
}

impl std::ops::Index<&FileId> for FileTable {
    type Output = Arc<FileEntry>;

    fn index(&self, id: &FileId) -> &Arc<FileEntry> {
        self.get(id).expect("a file of the index")
    }
}
