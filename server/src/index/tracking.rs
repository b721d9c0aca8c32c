//! Who contributes and who reads each key: the contributions table, the readers table (the
//! inverse of each file's reads, built late), the keys one batch changed, and storing a check's
//! results. This is the bookkeeping that makes an edit cost the files that read what it changed.

use std::path::Path;
use std::sync::Arc;

use crate::diagnostic::{Diagnostic, FileId};

use super::keys::ChangedKeys;
use super::lookup::SkillResolutions;
use super::{keys, FileEntry, FileRole, Index, Key, Table};

/// What one file's cross-file checks found and read.
pub(super) struct CheckResult {
    pub(super) diagnostics: Vec<Diagnostic>,
    pub(super) reads: Vec<Key>,
    pub(super) resolved: SkillResolutions,
}

/// The files contributing to one key, with their fingerprints, in id order. Nearly every key
/// has one contributor (a skill's definition, a file's own facts), so that case is held inline:
/// a persistent map per key cost an allocation of about 300 bytes on the thread that files the
/// results, for 29,000 of the 29,045 keys of a 10,000-skill workspace.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Contributors {
    One(FileId, u64),
    Many(imbl::OrdMap<FileId, u64>),
}

impl Contributors {
    pub(super) fn files(&self) -> impl Iterator<Item = FileId> + '_ {
        let (one, many) = match self {
            Contributors::One(id, _) => (Some(*id), None),
            Contributors::Many(files) => (None, Some(files.keys().copied())),
        };
        one.into_iter().chain(many.into_iter().flatten())
    }

    pub(super) fn insert(&mut self, id: FileId, fingerprint: u64) {
        match self {
            Contributors::One(only, print) if *only == id => *print = fingerprint,
            Contributors::One(only, print) => {
                let mut files = imbl::OrdMap::unit(*only, *print);
                files.insert(id, fingerprint);
                *self = Contributors::Many(files);
            }
            Contributors::Many(files) => {
                files.insert(id, fingerprint);
            }
        }
    }

    /// Takes `id` away; false when no file is left. `Many` always holds two files or more, so
    /// it is never left empty.
    pub(super) fn remove(&mut self, id: FileId) -> bool {
        match self {
            Contributors::One(only, _) => *only != id,
            Contributors::Many(files) => {
                files.remove(&id);
                if files.len() == 1 {
                    let (&only, &print) = files.iter().next().expect("one left");
                    *self = Contributors::One(only, print);
                }
                true
            }
        }
    }
}

/// Notes the whole-file keys of the file at `path` with `role` changed ([`Key::whole_file`]).
pub(super) fn note_whole_file(path: &Path, role: &FileRole, changed_keys: &mut ChangedKeys) {
    if !changed_keys.all {
        for key in keys::whole_file_keys(path, role) {
            changed_keys.insert(key);
        }
    }
}

/// Keeps one check's results in the file's entry; true when its diagnostics changed.
pub(super) fn record_check(
    entry: &mut FileEntry,
    CheckResult {
        diagnostics,
        reads,
        resolved,
    }: CheckResult,
) -> bool {
    let changed = entry.cross != diagnostics;
    entry.reads = reads;
    entry.cross = diagnostics;
    entry.resolved = resolved;
    changed
}

/// Files `id`'s entry under `key` in `tables` (replacing an older one); true when the key is new.
pub(super) fn contribute(
    tables: &mut imbl::OrdMap<Key, Contributors>,
    id: FileId,
    key: &Key,
    fingerprint: u64,
) -> bool {
    // Looked up before inserting: most keys exist already, and `entry` would clone the key.
    if let Some(contributors) = tables.get_mut(key) {
        contributors.insert(id, fingerprint);
        return false;
    }
    tables.insert(key.clone(), Contributors::One(id, fingerprint));
    true
}

impl Index {
    /// Stores the results of the first batch's checks, which cover every file. The readers are
    /// left for later: nothing reads them until the next change, and `check` usually makes none
    /// (at 50,000 skills, filing about 50,000 keys' readers took 80-170 ms on the main thread,
    /// as long as the checks themselves). `order` is every file in id order, which is the file
    /// table's order, so the results are stored in one pass over it.
    pub(super) fn store_first_checks(&mut self, order: Vec<FileId>, results: Vec<CheckResult>) {
        for ((entry, id), result) in self.files.values_mut().zip(order).zip(results) {
            debug_assert_eq!(entry.id, id, "every file, in id order");
            record_check(Arc::make_mut(entry), result);
        }
        self.readers_deferred = true;
    }

    /// Builds the table of which files read each key, when the first batch left it for later.
    /// Every change calls this first; the language server calls it after its first indexing,
    /// off the lock, so that its first edit does not pay for it.
    pub fn settle_readers(&mut self) {
        if !std::mem::take(&mut self.readers_deferred) {
            return;
        }
        let mut readers: Table<Key, imbl::OrdSet<FileId>> = Table::default();
        for entry in self.files.values() {
            for key in &entry.reads {
                match readers.get_mut(key) {
                    Some(files) => {
                        files.insert(entry.id);
                    }
                    None => {
                        readers.insert(key.clone(), imbl::OrdSet::unit(entry.id));
                    }
                }
            }
        }
        self.readers = readers;
    }

    /// Files a file's new contributions in place of its old ones. Both lists are sorted by key
    /// with each key once (`keys::contributions`), so one merge pass finds what differs: a file
    /// analysed again pays for its own keys, never for the size of the tables.
    pub(super) fn replace_contributions(
        &mut self,
        id: FileId,
        old: &[(Key, u64)],
        new: &[(Key, u64)],
        changed_keys: &mut ChangedKeys,
    ) {
        let (mut old, mut new) = (old.iter().peekable(), new.iter().peekable());
        loop {
            let order = match (old.peek(), new.peek()) {
                (None, None) => break,
                (Some(_), None) => std::cmp::Ordering::Less,
                (None, Some(_)) => std::cmp::Ordering::Greater,
                (Some((old_key, _)), Some((new_key, _))) => old_key.cmp(new_key),
            };
            match order {
                std::cmp::Ordering::Less => {
                    let (key, _) = old.next().expect("peeked");
                    changed_keys.note(key);
                    self.withdraw(id, key);
                }
                std::cmp::Ordering::Greater => {
                    let (key, print) = new.next().expect("peeked");
                    changed_keys.note(key);
                    self.contribute(id, key, *print);
                }
                std::cmp::Ordering::Equal => {
                    let ((key, old_print), (_, new_print)) =
                        (old.next().expect("peeked"), new.next().expect("peeked"));
                    if old_print != new_print {
                        changed_keys.note(key);
                        self.contribute(id, key, *new_print);
                    }
                }
            }
        }
    }

    /// Files `id`'s entry under `key` (replacing an older one).
    pub(super) fn contribute(&mut self, id: FileId, key: &Key, fingerprint: u64) {
        if !contribute(&mut self.tables, id, key, fingerprint) {
            return;
        }
        if let Key::Def {
            workspace,
            kind,
            id: defined,
        } = key
        {
            self.defined_ids
                .entry((*workspace, *kind))
                .or_default()
                .insert(defined.clone());
        }
    }

    /// Takes `id`'s entry under `key` away; the key goes when no file contributes it any more.
    pub(super) fn withdraw(&mut self, id: FileId, key: &Key) {
        let Some(table) = self.tables.get_mut(key) else {
            return;
        };
        if table.remove(id) {
            return;
        }
        self.tables.remove(key);
        if let Key::Def {
            workspace,
            kind,
            id: defined,
        } = key
        {
            if let Some(ids) = self.defined_ids.get_mut(&(*workspace, *kind)) {
                ids.remove(defined);
            }
        }
    }

    pub(super) fn forget_reads(&mut self, id: FileId, reads: &[Key]) {
        for key in reads {
            if let Some(readers) = self.readers.get_mut(key) {
                readers.remove(&id);
                if readers.is_empty() {
                    self.readers.remove(key);
                }
            }
        }
    }

    /// Stores the result of one file's cross-file checks and its reads in the readers table;
    /// true when its diagnostics changed.
    pub(super) fn store_check(&mut self, id: FileId, result: CheckResult) -> bool {
        self.file_reads(id, &result.reads);
        record_check(
            Arc::make_mut(self.files.get_mut(&id).expect("checked file exists")),
            result,
        )
    }

    /// Updates the readers table from `id`'s previous reads to `reads`.
    pub(super) fn file_reads(&mut self, id: FileId, reads: &[Key]) {
        // Both lists are sorted and deduplicated (`Lookup::into_reads`), so the readers table is
        // updated for the keys that differ only. An edit usually reads what it read before, and
        // each write to the persistent table copies a path of it, so rewriting every key would
        // make a keystroke pay for the size of the workspace.
        let old_reads = &self.files[&id].reads;
        let mut forgotten = Vec::new();
        let mut added = Vec::new();
        let (mut i, mut j) = (0, 0);
        loop {
            match (old_reads.get(i), reads.get(j)) {
                (Some(old), Some(new)) if old == new => (i, j) = (i + 1, j + 1),
                (Some(old), Some(new)) if old < new => {
                    forgotten.push(old.clone());
                    i += 1;
                }
                (Some(old), None) => {
                    forgotten.push(old.clone());
                    i += 1;
                }
                (_, Some(new)) => {
                    added.push(new.clone());
                    j += 1;
                }
                (None, None) => break,
            }
        }
        self.forget_reads(id, &forgotten);
        for key in added {
            self.readers.entry(key).or_default().insert(id);
        }
    }
}
