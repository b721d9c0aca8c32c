//! The one door through which checks read other files: [`Lookup`], which records every key it
//! reads, so the index knows whom to re-check, and keeps what a check resolved each skill id to
//! for the file's next check. It must not know the rules.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::diagnostic::FileId;
use crate::model::defined_skills::SkillInfo;
use crate::model::swarmkit::ArtifactKind;

use super::keys::ChangedKeys;
use super::{Content, FileEntry, Index, Key, ParsedFile, TableHasher};

/// What one check resolved a skill id to, keyed by the `Key::Def` read for it. An entry stays
/// right while that key's contributions stay the same: the file is a reader of the key, so it
/// is re-checked in the batch that changes it, and the entry is not used then. So an edit
/// re-checking a file with a thousand grants finds each skill in the file's own small table
/// instead of in the workspace's (a lookup there touches entries spread over the whole index,
/// which is what made a keystroke cost more in a larger workspace).
pub(super) type SkillResolutions = imbl::GenericHashMap<
    Key,
    Arc<[ResolvedSkill]>,
    TableHasher,
    imbl::shared_ptr::DefaultSharedPtr,
>;

/// One skill of a cached resolution: its registry entry without the borrow, and the defining
/// file's analysis it borrows the artifact from.
#[derive(Debug)]
pub(super) struct ResolvedSkill {
    pub(super) info: SkillInfo<'static>,
    pub(super) parsed: Option<Arc<ParsedFile>>,
}

impl ResolvedSkill {
    pub(super) fn of(index: &Index, info: &SkillInfo<'_>) -> ResolvedSkill {
        let parsed = info
            .skill
            .and_then(|_| index.file(info.file))
            .map(|entry| entry.parsed.clone());
        ResolvedSkill {
            info: SkillInfo {
                id: info.id.clone(),
                file: info.file,
                range: info.range,
                category: info.category.clone(),
                implementation: info.implementation,
                origin: info.origin.clone(),
                skill: None,
            },
            parsed,
        }
    }

    pub(super) fn info(&self) -> SkillInfo<'_> {
        let skill = self
            .parsed
            .as_deref()
            .and_then(|parsed| match &parsed.content {
                Content::SwarmKit(crate::model::swarmkit::Artifact::Skill(skill)) => Some(skill),
                _ => None,
            });
        SkillInfo {
            skill,
            ..self.info.clone()
        }
    }
}

/// Read access to the index for cross-file checks, recording every key read so the index knows
/// whom to re-check when that key changes.
pub struct Lookup<'a> {
    index: &'a Index,
    reads: std::cell::RefCell<Vec<Key>>,
    /// Set when the lookup runs a file's checks for the index (not for the IDE).
    checking: Option<Checking<'a>>,
    /// How many more "did you mean" searches this lookup may make ([`Lookup::may_suggest`]).
    suggestions_left: std::cell::Cell<usize>,
}

/// Most "did you mean" searches one file's checks make: as many as the diagnostics a file
/// shows. Unknown ids, as root causes, are kept before what they cause, so a file with more
/// unknown ids than this shows hardly any diagnostic past them. A search among ten thousand
/// look-alike ids costs about half a millisecond; two hundred thousand unknown ids on one line
/// cost minutes without this bound.
pub const MAX_SUGGESTIONS_PER_CHECK: usize = crate::diagnostic::MAX_DIAGNOSTICS_PER_FILE;

/// The skill resolutions of the file being checked: those of its last check, the keys changed
/// since (this batch's), and what this check used and added.
pub(super) struct Checking<'a> {
    pub(super) previous: &'a SkillResolutions,
    pub(super) changed: &'a ChangedKeys,
    /// The previous entries used, by address.
    pub(super) used: std::cell::RefCell<HashSet<usize>>,
    pub(super) added: std::cell::RefCell<Vec<(Key, Arc<[ResolvedSkill]>)>>,
}

impl<'a> Lookup<'a> {
    pub fn new(index: &'a Index) -> Self {
        Lookup {
            index,
            reads: Default::default(),
            checking: None,
            suggestions_left: std::cell::Cell::new(MAX_SUGGESTIONS_PER_CHECK),
        }
    }

    /// Whether a "did you mean" may be searched for (and counts it): true for the first
    /// [`MAX_SUGGESTIONS_PER_CHECK`] asked of this lookup, in the order the checks ask (rule
    /// family by rule family, each in the order of the file), which is not quite the order the
    /// per-file cap keeps. Past that, an unknown id is reported without a suggestion. Every
    /// search a file can make once per item it lists (grants, references, links, bindings) goes
    /// through here; a skill file's one implementation reference, and searches among a fixed
    /// list (field names, presets, codes), make few enough not to.
    pub fn may_suggest(&self) -> bool {
        let left = self.suggestions_left.get();
        self.suggestions_left.set(left.saturating_sub(1));
        left > 0
    }

    /// The lookup of the checks of `file`, which may reuse what its last check resolved of the
    /// keys not in `changed`. A file checked for the first time (in the initial indexing: every
    /// file) keeps no resolutions: only files checked again, the ones being edited and their
    /// readers, pay the memory for them, and the indexing's peak stays as it was.
    pub(super) fn for_check(index: &'a Index, file: FileId, changed: &'a ChangedKeys) -> Self {
        let checked_before = |entry: &&FileEntry| !entry.reads.is_empty();
        let checking = index
            .file(file)
            .filter(checked_before)
            .map(|entry| Checking {
                previous: &entry.resolved,
                changed,
                used: Default::default(),
                added: Default::default(),
            });
        Lookup {
            index,
            reads: Default::default(),
            checking,
            suggestions_left: std::cell::Cell::new(MAX_SUGGESTIONS_PER_CHECK),
        }
    }

    /// The skills with the id `id` in `workspace`, as `resolve` finds them (it must read
    /// `Key::Def` of the id and nothing else), recording the read. In a file's checks, the
    /// answer of its last check is reused while that key is unchanged.
    pub fn skills_named(
        &self,
        workspace: FileId,
        id: &str,
        resolve: impl FnOnce(&Lookup<'a>) -> Vec<SkillInfo<'a>>,
    ) -> Vec<SkillInfo<'a>> {
        let Some(checking) = &self.checking else {
            return resolve(self);
        };
        let key = Key::Def {
            workspace,
            kind: ArtifactKind::Skill,
            id: id.to_owned(),
        };
        if !checking.changed.contains(&key) {
            if let Some(found) = checking.previous.get(&key) {
                checking
                    .used
                    .borrow_mut()
                    .insert(Arc::as_ptr(found) as *const ResolvedSkill as usize);
                self.reads.borrow_mut().push(key);
                return found.iter().map(ResolvedSkill::info).collect();
            }
        }
        let found = resolve(self);
        let resolved: Arc<[ResolvedSkill]> = found
            .iter()
            .map(|info| ResolvedSkill::of(self.index, info))
            .collect();
        checking.added.borrow_mut().push((key, resolved));
        found
    }

    /// The index, for reads that need no tracking (the file being checked itself).
    pub fn index(&self) -> &'a Index {
        self.index
    }

    pub fn file(&self, id: FileId) -> Option<&'a FileEntry> {
        self.index.file(id)
    }

    /// The ids of a kind defined in a workspace as the sorted set the index keeps (for a search
    /// that seeks instead of scanning), recording the read.
    pub fn sorted_ids(&self, workspace: FileId, kind: ArtifactKind) -> &'a imbl::OrdSet<String> {
        static NONE: std::sync::OnceLock<imbl::OrdSet<String>> = std::sync::OnceLock::new();
        self.reads.borrow_mut().push(Key::IdSet { workspace, kind });
        self.index
            .defined_ids
            .get(&(workspace, kind))
            .unwrap_or_else(|| NONE.get_or_init(imbl::OrdSet::new))
    }

    /// [`Index::nearest_config_file`], recording the read of the folder holding the answer. A
    /// config appearing nearer, changing or going away re-checks every file below its folder
    /// (`Index::run_checks`), so the folders the walk passed need no read of their own: a file
    /// a thousand folders deep records one key, not a thousand.
    pub fn nearest_config_file(&self, path: &Path) -> Option<&'a FileEntry> {
        let found = self.index.nearest_config_file(path);
        if let Some(dir) = found.and_then(|entry| entry.path.parent()) {
            self.reads.borrow_mut().push(Key::Config {
                dir: dir.to_owned(),
            });
        }
        found
    }

    /// The editor's settings as a config, recording the read (for files with no
    /// `skillgraph.toml` above them).
    pub fn editor_config(&self) -> Option<&'a crate::model::config::Config> {
        self.reads.borrow_mut().push(Key::EditorConfig);
        self.index.settings.config.as_ref()
    }

    /// What the edge found of the binary `name` a command pack requires, recording the read;
    /// `None` when it found nothing out (then nothing is said about it).
    pub fn executable(&self, name: &str) -> Option<&'a crate::model::machine::Executable> {
        self.reads.borrow_mut().push(Key::Executables);
        self.index.settings.executables.get(name)
    }

    /// What the edge found at the `output_schema` path `path` (resolved), recording the read; `None` when it did not look (then
    /// the file set alone is judged).
    pub fn schema_path(&self, path: &Path) -> Option<&'a crate::model::schema_file::PathFact> {
        self.reads.borrow_mut().push(Key::SchemaPaths);
        self.index.settings.schema_paths.get(path)
    }

    /// The value `compute` makes from the index, computed once per state of `key`'s
    /// contributions and shared by every check (see `Memos`); records the read of `key`.
    pub fn memo<T: std::any::Any + Send + Sync>(
        &self,
        key: Key,
        compute: impl FnOnce(&'a Index) -> T,
    ) -> Arc<T> {
        let cell = self
            .index
            .memos
            .table()
            .entry((key.clone(), std::any::TypeId::of::<T>()))
            .or_default()
            .clone();
        self.reads.borrow_mut().push(key);
        let value = cell.get_or_init(|| Arc::new(compute(self.index))).clone();
        value
            .downcast::<T>()
            .unwrap_or_else(|_| unreachable!("a memo cell holds the type it is keyed by"))
    }

    /// The listing of a skill folder (`Index::skill_files`), recording the read.
    pub fn skill_files(&self, dir: &Path) -> Option<&'a [PathBuf]> {
        self.reads.borrow_mut().push(Key::SkillFiles {
            dir: dir.to_owned(),
        });
        self.index.skill_files(dir)
    }

    /// What the files of a skill folder say (`Index::bundled`), recording the read.
    pub fn bundled(&self, dir: &Path) -> Option<&'a crate::model::bundled::Bundled> {
        self.reads.borrow_mut().push(Key::Bundled {
            dir: dir.to_owned(),
        });
        self.index.bundled(dir)
    }

    /// The files contributing to `key`, recording the read.
    pub fn get(&self, key: Key) -> Vec<&'a FileEntry> {
        // In path order, so "the first definition" does not depend on the order files arrived.
        let mut entries: Vec<&'a FileEntry> = self
            .index
            .contributors(&key)
            .filter_map(|id| self.index.file(id))
            .collect();
        entries.sort_by(|a, b| a.path.cmp(&b.path));
        self.reads.borrow_mut().push(key);
        entries
    }

    /// The keys read, sorted and deduplicated (for tests of what a query reads).
    #[cfg(test)]
    pub(crate) fn into_reads(self) -> Vec<Key> {
        self.into_results().0
    }

    /// The keys read, sorted and deduplicated, and the skill resolutions to keep for the next
    /// check: the previous ones this check used, and the ones it made.
    pub(super) fn into_results(self) -> (Vec<Key>, SkillResolutions) {
        let mut reads = self.reads.into_inner();
        reads.sort();
        reads.dedup();
        let resolved = match self.checking {
            None => SkillResolutions::default(),
            Some(checking) => {
                let used = checking.used.into_inner();
                // A copy of the previous table (O(1), persistent), less what went unused: a key
                // the file no longer reads is not watched for it any more.
                let mut resolved = checking.previous.clone();
                if used.len() != resolved.len() {
                    resolved.retain(|_, found| {
                        used.contains(&(Arc::as_ptr(found) as *const ResolvedSkill as usize))
                    });
                }
                for (key, found) in checking.added.into_inner() {
                    resolved.insert(key, found);
                }
                resolved
            }
        };
        (reads, resolved)
    }
}
