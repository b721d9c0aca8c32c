//! The workspace index: the file set, each file's parse and lowered artifact, the id tables,
//! and which file read which id. It owns incrementality: changing a file re-analyses that file,
//! works out which table entries changed, and re-runs the cross-file checks only of the files that
//! read one of them. The core does no I/O: callers hand files in as text.
//!
//! How the dependency tracking works. Every file *contributes* entries to keyed tables (a skill
//! file contributes `Def(skill, id)`, `SkillsOnServer(server)`, ...), each with a fingerprint of
//! what it says. Every cross-file check runs through a [`Lookup`] that records the keys it *read*.
//! When a file changes, the keys whose contributions changed are exactly the ones whose readers
//! must be re-checked; everything else keeps its diagnostics. The cost of an edit is the size of
//! the edited file plus the files that read what it changed, not the size of the workspace.

mod analysis;
mod checks;
pub mod classify;
mod file_table;
mod keys;

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use analysis::{Content, ParsedFile, MAX_FILE_BYTES};
pub use checks::Checks;
pub use classify::FileRole;
pub use keys::Key;

use crate::diagnostic::{Diagnostic, FileId, Severity};
use crate::model::defined_skills::SkillInfo;
use crate::model::swarmkit::ArtifactKind;
use crate::syntax::interpolate::Variables;
use crate::syntax::LineIndex;

/// Settings that change what the checks say, beyond the files themselves.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Settings {
    /// Severity overrides by code; `None` turns a code off.
    pub severity_overrides: HashMap<String, Option<Severity>>,
    /// The editor's settings as a whole (the keys of `skillgraph.toml`), applied to files with
    /// no `skillgraph.toml` above them. `None` when the editor sent none.
    pub config: Option<crate::model::config::Config>,
    /// The environment `${…}` references read after the workspace's properties (and where
    /// `SWARMKIT_ENV` is looked up): the CLI's process environment; in the server its process
    /// environment with the editor's `env` settings on top.
    pub environment: Arc<std::collections::BTreeMap<String, String>>,
    /// What the edge found of the binaries command packs require, by the name written in
    /// `requires[].binary` (the CLI looks them up on its `PATH`); a binary with no entry is not
    /// judged.
    pub executables: Arc<std::collections::BTreeMap<String, crate::model::machine::Executable>>,
}

/// One file in the index.
#[derive(Clone, Debug)]
pub struct FileEntry {
    pub id: FileId,
    pub path: PathBuf,
    pub text: Arc<str>,
    pub line_index: Arc<LineIndex>,
    pub role: FileRole,
    pub parsed: Arc<ParsedFile>,
    /// Where the first byte that was not UTF-8 was, when the text was decoded from such bytes.
    pub invalid_utf8_at: Option<u32>,
    contributions: Vec<(Key, u64)>,
    reads: Vec<Key>,
    cross: Vec<Diagnostic>,
    /// The skills the file's last check resolved, by the `Key::Def` it read for each (see
    /// [`Lookup::skills_named`]).
    resolved: SkillResolutions,
}

impl FileEntry {
    /// A file's entry as analysed, before its cross-file checks have run.
    fn unchecked(
        id: FileId,
        path: PathBuf,
        (text, invalid_utf8_at): (Arc<str>, Option<u32>),
        role: FileRole,
        (parsed, contributions, line_index): Analysed,
    ) -> FileEntry {
        FileEntry {
            id,
            path,
            text,
            line_index,
            role,
            parsed,
            invalid_utf8_at,
            contributions,
            reads: Vec::new(),
            cross: Vec::new(),
            resolved: SkillResolutions::default(),
        }
    }
}

/// What one check resolved a skill id to, keyed by the `Key::Def` read for it. An entry stays
/// right while that key's contributions stay the same: the file is a reader of the key, so it
/// is re-checked in the batch that changes it, and the entry is not used then. So an edit
/// re-checking a file with a thousand grants finds each skill in the file's own small table
/// instead of in the workspace's (a lookup there touches entries spread over the whole index,
/// which is what made a keystroke cost more in a larger workspace).
type SkillResolutions = imbl::GenericHashMap<
    Key,
    Arc<[ResolvedSkill]>,
    TableHasher,
    imbl::shared_ptr::DefaultSharedPtr,
>;

/// One skill of a cached resolution: its registry entry without the borrow, and the defining
/// file's analysis it borrows the artifact from.
#[derive(Debug)]
struct ResolvedSkill {
    info: SkillInfo<'static>,
    parsed: Option<Arc<ParsedFile>>,
}

impl ResolvedSkill {
    fn of(index: &Index, info: &SkillInfo<'_>) -> ResolvedSkill {
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

    fn info(&self) -> SkillInfo<'_> {
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

/// The index. Cloning it is O(1), whatever the size of the workspace: every table is a
/// persistent map (`imbl`), which a clone shares and a write copies only along the path to the
/// entry it changes (O(log n)). The language server relies on this: it applies each edit to a
/// clone and swaps it in only when the analysis succeeded, and every request reads a clone.
/// Values inside the tables are themselves shared (`Arc`, or persistent maps and sets), because
/// a write copies the touched node of the map with its values.
///
/// Nothing may depend on the iteration order of these maps (hash order): lookups are by key,
/// and whatever is returned in order is sorted (`OrdMap`/`OrdSet`, or sorted by the caller).
#[derive(Clone, Debug)]
pub struct Index {
    /// What is checked, handed in by the layer that owns the checks (`rules::CHECKS`).
    checks: &'static Checks,
    files: file_table::FileTable,
    /// Path -> its file. (A B-tree on the path's bytes, like the contribution table and for the
    /// same reason: a hash map of 50,000 paths is mostly empty nodes. Bytes, because `Path`'s
    /// own order splits both paths into components on every comparison.)
    by_path: imbl::OrdMap<std::ffi::OsString, FileId>,
    next_id: u32,
    /// Workspace root directory -> its manifest file.
    workspace_roots: Table<PathBuf, FileId>,
    /// Key -> files contributing to it (with their fingerprints), in id order.
    /// (A B-tree map: this is the largest table, about three keys per skill, and past about
    /// 32,000 entries a persistent hash map's nodes are mostly empty: at 50,000 skills that cost
    /// tens of megabytes and made filing and lookups slower per key than at 10,000. A B-tree's
    /// nodes stay full at any size.)
    tables: imbl::OrdMap<Key, Contributors>,
    /// Key -> files whose checks read it: the inverse of the files' `reads`.
    /// (A B-tree set: a key has a few readers, and a hash set's smallest node is over 500
    /// bytes, against under 100 for a B-tree leaf.)
    readers: Table<Key, imbl::OrdSet<FileId>>,
    /// True when the first batch left `readers` unbuilt (see [`Index::settle_readers`]).
    readers_deferred: bool,
    /// The files of each skill folder (`Change::SkillFiles`), relative to it.
    skill_files: Table<PathBuf, Arc<Vec<PathBuf>>>,
    /// What the files of each skill folder say (`Change::Bundled`).
    bundled: Table<PathBuf, Arc<crate::model::bundled::Bundled>>,
    /// The ids defined per (workspace, kind), sorted, for completion and "did you mean"
    /// suggestions.
    defined_ids: Table<(FileId, ArtifactKind), imbl::OrdSet<String>>,
    memos: Memos,
    /// Directory -> the `skillgraph.toml` nearest above it, found once per directory.
    config_dirs: ConfigDirs,
    /// Workspace (manifest file) -> the variables its files' `${…}` read: its property file and
    /// the environment. Computed before the workspace's files are analysed; when it changes,
    /// the files holding `${` are analysed again.
    variables: Table<FileId, Arc<Variables>>,
    pub settings: Settings,
}

/// The nearest-config answer of each directory asked about, shared by the index and its
/// snapshots (a clone of the index must not copy one entry per directory: a workspace of SKILL.md
/// skills has a directory per skill, and the server clones the index on every edit). The answers
/// depend only on which configs exist, so every index with the same configs may share them. A
/// `skillgraph.toml` appearing, changing or going away changes a `Key::Config`, and then the live
/// index starts a table of its own (rare: the answers of every directory below it may change);
/// snapshots keep the old one, which still answers for them.
#[derive(Clone, Default)]
struct ConfigDirs(Arc<std::sync::Mutex<HashMap<PathBuf, Option<FileId>>>>);

impl ConfigDirs {
    fn table(&self) -> std::sync::MutexGuard<'_, HashMap<PathBuf, Option<FileId>>> {
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
struct Memos(Arc<std::sync::Mutex<HashMap<MemoKey, Arc<MemoCell>>>>);

/// A memo is keyed by the key it is computed from and by the type of its value, so two queries
/// over one key (the duplicates of an id, the skills of that id) never meet in one cell.
type MemoKey = (Key, std::any::TypeId);

type MemoCell = std::sync::OnceLock<Arc<dyn std::any::Any + Send + Sync>>;

impl std::fmt::Debug for Memos {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Memos")
    }
}

impl Memos {
    fn table(&self) -> std::sync::MutexGuard<'_, HashMap<MemoKey, Arc<MemoCell>>> {
        // A panic while computing happens outside the lock; a poisoned table is still sound.
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn forget(&mut self, changed: &ChangedKeys) {
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

/// What one file's cross-file checks found and read.
struct CheckResult {
    diagnostics: Vec<Diagnostic>,
    reads: Vec<Key>,
    resolved: SkillResolutions,
}

/// (id, path, text, where the first non-UTF-8 byte was, role): a file to analyse.
type Job = (FileId, PathBuf, Arc<str>, Option<u32>, FileRole);
/// A file's path, text and where its first byte that was not UTF-8 was, before it is classified.
type PendingText = (PathBuf, Arc<str>, Option<u32>);
/// What the workers hand back for one job: its analysis, its contributions (sorted by key) and
/// its line index.
type Analysed = (Arc<ParsedFile>, Vec<(Key, u64)>, Arc<LineIndex>);

/// The files contributing to one key, with their fingerprints, in id order. Nearly every key
/// has one contributor (a skill's definition, a file's own facts), so that case is held inline:
/// a persistent map per key cost an allocation of about 300 bytes on the thread that files the
/// results, for 29,000 of the 29,045 keys of a 10,000-skill workspace.
#[derive(Clone, Debug, PartialEq)]
enum Contributors {
    One(FileId, u64),
    Many(imbl::OrdMap<FileId, u64>),
}

impl Contributors {
    fn files(&self) -> impl Iterator<Item = FileId> + '_ {
        let (one, many) = match self {
            Contributors::One(id, _) => (Some(*id), None),
            Contributors::Many(files) => (None, Some(files.keys().copied())),
        };
        one.into_iter().chain(many.into_iter().flatten())
    }

    fn insert(&mut self, id: FileId, fingerprint: u64) {
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
    fn remove(&mut self, id: FileId) -> bool {
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
fn note_whole_file(path: &Path, role: &FileRole, changed_keys: &mut ChangedKeys) {
    if !changed_keys.all {
        for key in keys::whole_file_keys(path, role) {
            changed_keys.insert(key);
        }
    }
}

/// Keeps one check's results in the file's entry; true when its diagnostics changed.
fn record_check(
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
fn contribute(
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

/// The workspace a file of this role belongs to (a manifest is its own).
fn workspace_of_role(id: FileId, role: &FileRole) -> Option<FileId> {
    match role {
        FileRole::WorkspaceManifest => Some(id),
        FileRole::SwarmKit { workspace, .. } | FileRole::EnvFile { workspace, .. } => {
            Some(*workspace)
        }
        _ => None,
    }
}

/// The hasher of the index's tables. Their keys are short (ids, paths, file numbers) and each
/// file analysed files several of them, so SipHash's cost showed in every batch; foldhash is
/// several times cheaper and still seeded per process, so crafted ids cannot aim at collisions.
type TableHasher = foldhash::fast::RandomState;
/// A persistent map of the index (snapshots share it), hashed with [`TableHasher`].
type Table<K, V> = imbl::GenericHashMap<K, V, TableHasher, imbl::shared_ptr::DefaultSharedPtr>;
/// Keys whose contributions changed in one batch.
type KeySet = HashSet<Key, TableHasher>;

/// The keys one batch changed. A batch into an empty index (the initial indexing, and every
/// `check`) changes every key it files, and nothing has read any of them yet, so the set only
/// says "all" instead of cloning and hashing each of them (about 30,000 at 10,000 skills, on the
/// main thread, while the workers wait).
#[derive(Default)]
struct ChangedKeys {
    all: bool,
    keys: KeySet,
}

impl ChangedKeys {
    fn all() -> Self {
        ChangedKeys {
            all: true,
            keys: KeySet::default(),
        }
    }

    fn note(&mut self, key: &Key) {
        if !self.all {
            self.keys.insert(key.clone());
        }
    }

    fn insert(&mut self, key: Key) {
        if !self.all {
            self.keys.insert(key);
        }
    }

    fn contains(&self, key: &Key) -> bool {
        self.all || self.keys.contains(key)
    }

    /// Whether a key of this shape changed (any key, when all did).
    fn any(&self, shape: impl Fn(&Key) -> bool) -> bool {
        self.all || self.keys.iter().any(shape)
    }
}

/// A change to the file set.
#[derive(Clone, Debug)]
pub enum Change {
    /// A file was created or its text changed.
    Set { path: PathBuf, text: String },
    /// Like `Set`, for text decoded from bytes that were not all UTF-8: each bad sequence reads
    /// as U+FFFD, the first at byte `invalid_at` of `text`. (A U+FFFD in a `Set` is a character
    /// the file really holds.)
    SetDecoded {
        path: PathBuf,
        text: String,
        invalid_at: u32,
    },
    /// A file was deleted.
    Remove { path: PathBuf },
    /// The files in the folder `dir` of a skill (the folder holding a SKILL.md) and below, as
    /// paths relative to `dir`: names only, for the links of the SKILL.md to resolve against.
    /// Replaces what was known of `dir`.
    SkillFiles { dir: PathBuf, files: Vec<PathBuf> },
    /// The sizes of the files of the skill folder `dir`, and what its Markdown files say
    /// (`model::bundled`). Replaces what was known of `dir`.
    Bundled {
        dir: PathBuf,
        bundled: Arc<crate::model::bundled::Bundled>,
    },
}

impl Change {
    /// A file read as bytes, decoded (the decoder says whether it was UTF-8). The size cap is
    /// the file's size in bytes: a file over it becomes a placeholder of that size class, which
    /// the analysis reports as too large; a file under it is decoded, and its text may then be
    /// longer (a byte that is not UTF-8 reads as the three bytes of U+FFFD) without being
    /// taken for too large.
    pub fn from_bytes(path: PathBuf, bytes: &[u8]) -> Change {
        if bytes.len() > MAX_FILE_BYTES {
            return Change::Set {
                path,
                text: " ".repeat(MAX_FILE_BYTES + 1),
            };
        }
        let decoded = crate::syntax::decode(bytes);
        match decoded.invalid_utf8_at {
            Some(invalid_at) => Change::SetDecoded {
                path,
                text: decoded.text,
                invalid_at,
            },
            None => Change::Set {
                path,
                text: decoded.text,
            },
        }
    }

    /// The file (or, for `SkillFiles`, the folder) the change is about.
    pub fn path(&self) -> &Path {
        match self {
            Change::Set { path, .. }
            | Change::SetDecoded { path, .. }
            | Change::Remove { path } => path,
            Change::SkillFiles { dir, .. } | Change::Bundled { dir, .. } => dir,
        }
    }
}

impl Index {
    /// An empty index that runs `checks` on what it is given.
    pub fn new(checks: &'static Checks) -> Index {
        Index {
            checks,
            files: Default::default(),
            by_path: Default::default(),
            next_id: 0,
            workspace_roots: Default::default(),
            tables: Default::default(),
            readers: Default::default(),
            readers_deferred: false,
            skill_files: Default::default(),
            bundled: Default::default(),
            defined_ids: Default::default(),
            memos: Default::default(),
            config_dirs: Default::default(),
            variables: Default::default(),
            settings: Default::default(),
        }
    }

    /// An index whose `${…}` references read `environment` after the workspace's properties.
    pub fn with_environment(
        checks: &'static Checks,
        environment: Arc<std::collections::BTreeMap<String, String>>,
    ) -> Index {
        let mut index = Index::new(checks);
        index.settings.environment = environment;
        index
    }

    pub fn file(&self, id: FileId) -> Option<&FileEntry> {
        self.files.get(&id).map(Arc::as_ref)
    }

    pub fn file_id(&self, path: &Path) -> Option<FileId> {
        self.by_path.get(path.as_os_str()).copied()
    }

    /// Every file, in id order: the order the files were first handed in (for a walk, the path
    /// order).
    pub fn files(&self) -> impl Iterator<Item = &FileEntry> {
        self.files.values().map(Arc::as_ref)
    }

    /// Files whose role is ours (SwarmKit artifacts, manifests, SKILL.md, configs).
    pub fn checked_file_count(&self) -> usize {
        // A SwarmKit artifact outside every workspace is checked too (for its missing manifest).
        self.files
            .values()
            .filter(|f| f.role.is_ours() || f.parsed.stray.is_some())
            .count()
    }

    /// The manifest of the workspace rooted at `dir`, if any.
    pub fn workspace_at(&self, dir: &Path) -> Option<FileId> {
        self.workspace_roots.get(dir).copied()
    }

    /// The manifest file of every workspace, in no particular order.
    pub fn workspace_manifests(&self) -> impl Iterator<Item = &FileEntry> {
        self.workspace_roots
            .values()
            .filter_map(|&id| self.file(id))
    }

    /// The workspace (manifest file id) a file belongs to.
    pub fn workspace_of(&self, file: FileId) -> Option<FileId> {
        let entry = self.file(file)?;
        match entry.role {
            FileRole::WorkspaceManifest => Some(file),
            FileRole::SwarmKit { workspace, .. } => Some(workspace),
            _ => None,
        }
    }

    /// The ids of one kind defined in a workspace, sorted.
    pub fn ids_of(&self, workspace: FileId, kind: ArtifactKind) -> impl Iterator<Item = &str> {
        self.defined_ids
            .get(&(workspace, kind))
            .into_iter()
            .flat_map(|ids| ids.iter())
            .map(String::as_str)
    }

    /// The files in the skill folder `dir` and below, relative to it, as discovery last listed
    /// them; `None` when it never did (then nothing can be said about links).
    pub fn skill_files(&self, dir: &Path) -> Option<&[PathBuf]> {
        self.skill_files.get(dir).map(|files| files.as_slice())
    }

    /// What the files of the skill folder `dir` say, as discovery last read them.
    pub fn bundled(&self, dir: &Path) -> Option<&crate::model::bundled::Bundled> {
        self.bundled.get(dir).map(Arc::as_ref)
    }

    /// Files contributing to a key, in id order (a whole-file key has one at most: the file at
    /// its path, see [`Key::whole_file`]).
    pub fn contributors(&self, key: &Key) -> impl Iterator<Item = FileId> + '_ {
        let whole_file = key
            .whole_file()
            .and_then(|path| self.by_path.get(path.as_os_str()))
            .and_then(|id| self.file(*id))
            .filter(|entry| keys::answers_whole_file(key, &entry.path, &entry.role))
            .map(|entry| entry.id);
        let listed = self
            .tables
            .get(key)
            .into_iter()
            .flat_map(Contributors::files);
        whole_file.into_iter().chain(listed)
    }

    /// Applies a batch of changes and returns the files whose diagnostics may have changed
    /// (including removed files, whose diagnostics are now empty).
    pub fn apply(&mut self, changes: Vec<Change>) -> HashSet<FileId> {
        self.settle_readers();
        let mut touched: HashSet<FileId> = HashSet::new();
        // Nothing in the index yet: every key this batch files is new, and no file has read one.
        let mut changed_keys = if self.files.is_empty() && self.readers.is_empty() {
            ChangedKeys::all()
        } else {
            ChangedKeys::default()
        };
        let mut reclassify_under: Vec<PathBuf> = Vec::new();
        // The last text of every file set in this batch, analysed together below.
        let mut pending: HashMap<FileId, PendingText> = HashMap::new();
        let mut removed_config_dirs: Vec<PathBuf> = Vec::new();
        // Workspaces whose property files changed: their variables are computed again.
        let mut variables_of: HashSet<FileId> = HashSet::new();

        for change in changes {
            let (change, invalid_utf8_at) = match change {
                Change::SetDecoded {
                    path,
                    text,
                    invalid_at,
                } => (Change::Set { path, text }, Some(invalid_at)),
                other => (other, None),
            };
            match change {
                Change::SkillFiles { dir, files } => {
                    if self.skill_files.get(&dir).map(|f| f.as_slice()) != Some(files.as_slice()) {
                        changed_keys.insert(Key::SkillFiles { dir: dir.clone() });
                        self.skill_files.insert(dir, Arc::new(files));
                    }
                }
                Change::Bundled { dir, bundled } => {
                    if self.bundled.get(&dir) != Some(&bundled) {
                        changed_keys.insert(Key::Bundled { dir: dir.clone() });
                        self.bundled.insert(dir, bundled);
                    }
                }
                Change::SetDecoded { .. } => unreachable!("turned into `Set` above"),
                Change::Set { path, text } => {
                    let (id, is_new) = self.intern(&path);
                    if is_new && classify::is_workspace_manifest(&path) {
                        if let Some(dir) = path.parent() {
                            if self.choose_manifest(dir) {
                                reclassify_under.push(dir.to_owned());
                            }
                        }
                    }
                    pending.insert(id, (path, text.into(), invalid_utf8_at));
                    touched.insert(id);
                }
                Change::Remove { path } => {
                    let Some(id) = self.by_path.remove(path.as_os_str()) else {
                        continue;
                    };
                    pending.remove(&id);
                    if path.file_name().is_some_and(|n| n == "skillgraph.toml") {
                        removed_config_dirs.extend(path.parent().map(Path::to_owned));
                    }
                    if let Some(entry) = self.files.remove(&id) {
                        if let FileRole::EnvFile { workspace, .. } = entry.role {
                            variables_of.insert(workspace);
                        }
                        note_whole_file(&path, &entry.role, &mut changed_keys);
                        self.replace_contributions(
                            id,
                            &entry.contributions,
                            &[],
                            &mut changed_keys,
                        );
                        self.forget_reads(id, &entry.reads);
                    }
                    if classify::is_workspace_manifest(&path) {
                        if let Some(dir) = path.parent() {
                            if self.choose_manifest(dir) {
                                reclassify_under.push(dir.to_owned());
                            }
                        }
                    }
                    touched.insert(id);
                }
            }
        }

        // Classified on the workers: a path's role only reads the workspace roots, settled above.
        let pending: Vec<(FileId, PendingText)> = pending.into_iter().collect();
        let roles = parallel_map(&pending, |(_, (path, _, _))| self.classify(path));
        let mut jobs: Vec<Job> = pending
            .into_iter()
            .zip(roles)
            .map(|((id, (path, text, invalid_utf8_at)), role)| {
                (id, path, text, invalid_utf8_at, role)
            })
            .collect();

        // A workspace appearing or disappearing changes the role of every file below it. Rare,
        // and the only change whose cost grows with the number of files.
        for dir in reclassify_under {
            let below: Vec<(FileId, PathBuf, Arc<str>, Option<u32>)> = self
                .files
                .values()
                .filter(|f| f.path.starts_with(&dir))
                .filter(|f| !touched.contains(&f.id))
                .map(|f| (f.id, f.path.clone(), f.text.clone(), f.invalid_utf8_at))
                .collect();
            for (id, path, text, invalid_utf8_at) in below {
                let role = self.classify(&path);
                if self.files[&id].role != role {
                    jobs.push((id, path, text, invalid_utf8_at, role));
                    touched.insert(id);
                }
            }
        }

        // Property files first: the files of their workspace are analysed with what they say.
        let (env_jobs, mut jobs): (Vec<Job>, Vec<Job>) = jobs
            .into_iter()
            .partition(|job| matches!(job.4, FileRole::EnvFile { .. }));
        for job in &env_jobs {
            if let FileRole::EnvFile { workspace, .. } = job.4 {
                variables_of.insert(workspace);
            }
        }
        self.analyse_and_store(env_jobs, &mut changed_keys);
        // Variables that changed re-analyse the files holding `${` of that workspace; a
        // workspace analysed for the first time gets its variables computed.
        let mut workspaces: HashSet<FileId> = jobs
            .iter()
            .filter_map(|job| workspace_of_role(job.0, &job.4))
            .filter(|workspace| !self.variables.contains_key(workspace))
            .collect();
        workspaces.extend(variables_of);
        let roots = self.roots_by_workspace(!workspaces.is_empty());
        for workspace in workspaces {
            if self.refresh_variables(workspace, &roots) {
                for entry in self.files.values() {
                    let interpolates = !entry.parsed.substitutions.is_empty();
                    if interpolates
                        && workspace_of_role(entry.id, &entry.role) == Some(workspace)
                        && touched.insert(entry.id)
                    {
                        jobs.push((
                            entry.id,
                            entry.path.clone(),
                            entry.text.clone(),
                            entry.invalid_utf8_at,
                            entry.role.clone(),
                        ));
                    }
                }
            }
        }
        self.analyse_and_store(jobs, &mut changed_keys);

        self.memos.forget(&changed_keys);
        if changed_keys.any(|key| matches!(key, Key::Config { .. })) {
            self.config_dirs = ConfigDirs::default();
        }
        let (order, results) = self.run_checks(&touched, &changed_keys);
        let mut affected = touched;
        if changed_keys.all {
            // Every file of the index came in this batch, so every file is affected already.
            self.store_first_checks(order, results);
            return affected;
        }
        // A config changes the level of every diagnostic below it: all those files must be
        // republished. Rare, like a manifest appearing.
        let mut config_dirs: Vec<PathBuf> = affected
            .iter()
            .filter_map(|id| self.files.get(id))
            .filter(|f| f.role == FileRole::Config)
            .filter_map(|f| f.path.parent().map(Path::to_owned))
            .collect();
        config_dirs.extend(removed_config_dirs);
        for dir in config_dirs {
            let governed: Vec<FileId> = self.files_a_config_governs(&dir).collect();
            affected.extend(governed);
        }
        for (id, result) in order.into_iter().zip(results) {
            if self.store_check(id, result) {
                affected.insert(id);
            }
        }
        affected
    }

    /// The files a config in `dir` governs, or would if it were there: those below `dir` with no
    /// nearer config (a nearer one replaces it whole, so nothing of `dir`'s reaches them).
    fn files_a_config_governs<'s>(&'s self, dir: &'s Path) -> impl Iterator<Item = FileId> + 's {
        let governed_by_a_nearer_one = move |path: &Path| {
            self.nearest_config_file(path)
                .and_then(|config| config.path.parent())
                .is_some_and(|found| found != dir && found.starts_with(dir))
        };
        self.files
            .values()
            .filter(move |f| f.path.starts_with(dir))
            .filter(move |f| !governed_by_a_nearer_one(&f.path))
            .map(|f| f.id)
    }

    /// Stores the results of the first batch's checks, which cover every file. The readers are
    /// left for later: nothing reads them until the next change, and `check` usually makes none
    /// (at 50,000 skills, filing about 50,000 keys' readers took 80-170 ms on the main thread,
    /// as long as the checks themselves). `order` is every file in id order, which is the file
    /// table's order, so the results are stored in one pass over it.
    fn store_first_checks(&mut self, order: Vec<FileId>, results: Vec<CheckResult>) {
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

    /// Runs the cross-file checks of `touched` and of every reader of `changed_keys`, in
    /// parallel (they only read the index); the caller stores the results.
    #[allow(clippy::type_complexity)]
    fn run_checks(
        &self,
        touched: &HashSet<FileId>,
        changed_keys: &ChangedKeys,
    ) -> (Vec<FileId>, Vec<CheckResult>) {
        let mut order: Vec<FileId> = if changed_keys.all {
            // Every file, already in id order: no set to build (at 50,000 files, one hashed set
            // and its copy took longer than the sort).
            self.files.ids().collect()
        } else {
            let mut to_check: HashSet<FileId> = touched.clone();
            for key in &changed_keys.keys {
                if let Some(readers) = self.readers.get(key) {
                    to_check.extend(readers.iter().copied());
                }
                // A config that appeared, changed or went is the nearest one, or the one no
                // longer, for the files below its folder that no nearer config governs: they
                // are all checked again (the readers record only the config they found, see
                // `Lookup::nearest_config_file`). Rare, and every diagnostic below it may change
                // level anyway.
                if let Key::Config { dir } = key {
                    to_check.extend(self.files_a_config_governs(dir));
                }
            }
            to_check
                .into_iter()
                .filter(|id| self.files.contains_key(id))
                .collect()
        };
        order.sort_unstable();
        let results = parallel_map(&order, |&id| {
            let lookup = Lookup::for_check(self, id, changed_keys);
            let diagnostics = (self.checks.cross_file)(&lookup, id);
            let (reads, resolved) = lookup.into_results();
            CheckResult {
                diagnostics,
                reads,
                resolved,
            }
        });
        (order, results)
    }

    /// Replaces the editor's settings. Files reading the editor's config are re-checked, and
    /// every file is returned, since a severity may have changed anywhere.
    pub fn set_settings(&mut self, settings: Settings) -> HashSet<FileId> {
        self.settle_readers();
        let config_changed = self.settings.config != settings.config;
        let environment_changed = self.settings.environment != settings.environment;
        let executables_changed = self.settings.executables != settings.executables;
        self.settings = settings;
        if environment_changed {
            // Files holding `${` of every workspace whose variables changed are analysed again,
            // as if their text had been set.
            let workspaces: Vec<FileId> = self.variables.keys().copied().collect();
            let roots = self.roots_by_workspace(true);
            let mut again = Vec::new();
            for workspace in workspaces {
                if self.refresh_variables(workspace, &roots) {
                    again.extend(
                        self.files
                            .values()
                            .filter(|entry| !entry.parsed.substitutions.is_empty())
                            .filter(|entry| {
                                workspace_of_role(entry.id, &entry.role) == Some(workspace)
                            })
                            .map(|entry| match entry.invalid_utf8_at {
                                Some(invalid_at) => Change::SetDecoded {
                                    path: entry.path.clone(),
                                    text: entry.text.to_string(),
                                    invalid_at,
                                },
                                None => Change::Set {
                                    path: entry.path.clone(),
                                    text: entry.text.to_string(),
                                },
                            }),
                    );
                }
            }
            self.apply(again);
        }
        let mut changed_keys = ChangedKeys::default();
        if config_changed {
            changed_keys.insert(Key::EditorConfig);
        }
        if executables_changed {
            changed_keys.insert(Key::Executables);
        }
        let (order, results) = self.run_checks(&HashSet::new(), &changed_keys);
        for (id, result) in order.into_iter().zip(results) {
            self.store_check(id, result);
        }
        self.files.ids().collect()
    }

    /// Parses, lowers and computes contributions and line indexes on the workers (each file with
    /// its workspace's variables); the main thread only files the results.
    fn analyse_and_store(&mut self, mut jobs: Vec<Job>, changed_keys: &mut ChangedKeys) {
        jobs.sort_by_key(|job| job.0);
        let none = Variables::default();
        let analysed = parallel_map(&jobs, |(id, path, text, invalid_utf8_at, role)| {
            let variables = workspace_of_role(*id, role)
                .and_then(|workspace| self.variables.get(&workspace))
                .map_or(&none, Arc::as_ref);
            let parsed = analysis::analyze(
                self.checks,
                *id,
                path,
                text,
                *invalid_utf8_at,
                role,
                variables,
            );
            let contributions = keys::contributions(*id, path, role, &parsed);
            // Shared on the worker: the results hold pointers, not the analyses themselves.
            (
                Arc::new(parsed),
                contributions,
                Arc::new(LineIndex::new(text)),
            )
        });
        if jobs.iter().any(|job| self.files.contains_key(&job.0)) {
            for ((id, path, text, invalid_utf8_at, role), analysed) in
                jobs.into_iter().zip(analysed)
            {
                self.store(
                    id,
                    path,
                    (text, invalid_utf8_at),
                    role,
                    analysed,
                    changed_keys,
                );
            }
            return;
        }
        let entries: Vec<Arc<FileEntry>> = jobs
            .into_iter()
            .zip(analysed)
            .map(|((id, path, text, invalid_utf8_at, role), analysed)| {
                Arc::new(FileEntry::unchecked(
                    id,
                    path,
                    (text, invalid_utf8_at),
                    role,
                    analysed,
                ))
            })
            .collect();
        self.store_new(&entries, changed_keys);
    }

    /// Records files new to the index (the whole first batch, a folder added): they have nothing
    /// to take back, and the tables they go into do not depend on each other, so with many
    /// files each table is filed on its own core. (This filing ran on one thread while the
    /// others waited: 22 ms at 10,000 skills and 160 ms at 50,000, where the tables outgrow the
    /// cache.)
    fn store_new(&mut self, entries: &[Arc<FileEntry>], changed_keys: &mut ChangedKeys) {
        /// From this many files on, the tables are filed in parallel; below it, handing the
        /// work to the pool costs more than it saves.
        const PARALLEL_FROM: usize = 64;
        let Index {
            files,
            tables,
            defined_ids,
            ..
        } = self;
        let mut file_entries = || {
            for entry in entries {
                files.insert(entry.id, entry.clone());
            }
        };
        let mut file_contributions = || {
            for entry in entries {
                note_whole_file(&entry.path, &entry.role, changed_keys);
                for (key, print) in &entry.contributions {
                    changed_keys.note(key);
                    contribute(tables, entry.id, key, *print);
                }
            }
        };
        let mut file_defined_ids = || {
            for entry in entries {
                for (key, _) in &entry.contributions {
                    if let Key::Def {
                        workspace,
                        kind,
                        id,
                    } = key
                    {
                        let ids = defined_ids.entry((*workspace, *kind)).or_default();
                        if !ids.contains(id) {
                            ids.insert(id.clone());
                        }
                    }
                }
            }
        };
        if entries.len() < PARALLEL_FROM {
            file_entries();
            file_contributions();
            file_defined_ids();
        } else {
            rayon::join(file_contributions, || {
                rayon::join(file_entries, file_defined_ids);
            });
        }
    }

    /// The variables of `workspace`'s files: the property file SwarmKit would read (the
    /// variant `SWARMKIT_ENV` names when it exists, else `workspace.env.yaml`), then the
    /// environment. Stores them; true when they replaced different ones.
    fn refresh_variables(&mut self, workspace: FileId, roots: &HashMap<FileId, PathBuf>) -> bool {
        let Some(root) = roots.get(&workspace) else {
            return self.variables.remove(&workspace).is_some();
        };
        let environment = &self.settings.environment;
        let variant = environment
            .get("SWARMKIT_ENV")
            .filter(|name| !name.is_empty())
            .map(|name| root.join(format!("workspace.env.{name}.yaml")));
        let property_file = variant
            .into_iter()
            .chain([root.join("workspace.env.yaml")])
            .filter_map(|path| self.file_id(&path).and_then(|id| self.files.get(&id)))
            .find(|entry| matches!(entry.role, FileRole::EnvFile { .. }));
        let variables = match property_file.map(|entry| (&entry.path, &entry.parsed.content)) {
            Some((path, Content::Env(env))) => env.variables(path, environment),
            _ => Variables {
                environment: environment.clone(),
                ..Variables::default()
            },
        };
        let previous = self.variables.insert(workspace, Arc::new(variables));
        // A workspace seen for the first time has no file analysed with other variables.
        previous.is_some_and(|previous| previous != self.variables[&workspace])
    }

    /// Workspace (manifest file) -> its root directory; empty unless `wanted`.
    fn roots_by_workspace(&self, wanted: bool) -> HashMap<FileId, PathBuf> {
        if !wanted {
            return HashMap::new();
        }
        self.workspace_roots
            .iter()
            .map(|(dir, &id)| (id, dir.clone()))
            .collect()
    }

    /// The variables the files of `workspace` were analysed with.
    pub fn variables(&self, workspace: FileId) -> Option<&Variables> {
        self.variables.get(&workspace).map(Arc::as_ref)
    }

    fn intern(&mut self, path: &Path) -> (FileId, bool) {
        if let Some(&id) = self.by_path.get(path.as_os_str()) {
            return (id, false);
        }
        let id = FileId(self.next_id);
        self.next_id += 1;
        self.by_path.insert(path.as_os_str().to_owned(), id);
        (id, true)
    }

    fn classify(&self, path: &Path) -> FileRole {
        let role = classify::classify(path, |dir| self.workspace_roots.get(dir).copied());
        // Of `workspace.yaml` and `workspace.yml` side by side, only the chosen one is the
        // manifest (SwarmKit reads `.yaml`); the other is not read at all.
        if role == FileRole::WorkspaceManifest {
            let chosen = path.parent().and_then(|dir| self.workspace_roots.get(dir));
            if chosen != self.by_path.get(path.as_os_str()) {
                return FileRole::Unrelated;
            }
        }
        role
    }

    /// Settles which manifest roots the workspace in `dir`: `workspace.yaml` when present, else
    /// `workspace.yml`. True when that changed.
    fn choose_manifest(&mut self, dir: &Path) -> bool {
        let chosen = ["workspace.yaml", "workspace.yml"]
            .iter()
            .find_map(|name| self.file_id(&dir.join(name)));
        let previous = match chosen {
            Some(id) => self.workspace_roots.insert(dir.to_owned(), id),
            None => self.workspace_roots.remove(dir),
        };
        previous != chosen
    }

    /// Records a file's analysis and its contributions. Cross-file diagnostics are computed
    /// later, once every change of the batch is in.
    fn store(
        &mut self,
        id: FileId,
        path: PathBuf,
        (text, invalid_utf8_at): (Arc<str>, Option<u32>),
        role: FileRole,
        (parsed, contributions, line_index): Analysed,
        changed_keys: &mut ChangedKeys,
    ) {
        let (old_contributions, reads, cross, resolved) = match self.files.remove(&id) {
            Some(old) => {
                let old = Arc::try_unwrap(old).unwrap_or_else(|shared| (*shared).clone());
                if old.text != text || old.role != role {
                    note_whole_file(&path, &old.role, changed_keys);
                    note_whole_file(&path, &role, changed_keys);
                }
                (old.contributions, old.reads, old.cross, old.resolved)
            }
            None => {
                note_whole_file(&path, &role, changed_keys);
                Default::default()
            }
        };
        self.replace_contributions(id, &old_contributions, &contributions, changed_keys);
        self.files.insert(
            id,
            Arc::new(FileEntry {
                reads,
                cross,
                resolved,
                ..FileEntry::unchecked(
                    id,
                    path,
                    (text, invalid_utf8_at),
                    role,
                    (parsed, contributions, line_index),
                )
            }),
        );
    }

    /// Files a file's new contributions in place of its old ones. Both lists are sorted by key
    /// with each key once (`keys::contributions`), so one merge pass finds what differs: a file
    /// analysed again pays for its own keys, never for the size of the tables.
    fn replace_contributions(
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
    fn contribute(&mut self, id: FileId, key: &Key, fingerprint: u64) {
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
    fn withdraw(&mut self, id: FileId, key: &Key) {
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

    fn forget_reads(&mut self, id: FileId, reads: &[Key]) {
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
    fn store_check(&mut self, id: FileId, result: CheckResult) -> bool {
        self.file_reads(id, &result.reads);
        record_check(
            Arc::make_mut(self.files.get_mut(&id).expect("checked file exists")),
            result,
        )
    }

    /// Updates the readers table from `id`'s previous reads to `reads`.
    fn file_reads(&mut self, id: FileId, reads: &[Key]) {
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

    /// Every diagnostic of a file, local and cross-file, with the severity overrides applied,
    /// sorted by position.
    pub fn diagnostics(&self, id: FileId) -> Vec<Diagnostic> {
        match self.file(id) {
            Some(entry) => self.diagnostics_of(entry),
            None => Vec::new(),
        }
    }

    /// [`Index::diagnostics`] of a file entry of this index.
    pub fn diagnostics_of(&self, entry: &FileEntry) -> Vec<Diagnostic> {
        let id = entry.id;
        // Found once per file, not once per diagnostic (with the overrides matching the file),
        // and only for a file with something to report (most files of a large workspace have
        // nothing).
        let levels = std::cell::OnceCell::new();
        let levels = || {
            levels
                .get_or_init(|| {
                    let config_file = self.nearest_config_file(&entry.path);
                    let config = config_file.and_then(|file| match &file.parsed.content {
                        Content::Config(config) => Some(config),
                        _ => None,
                    });
                    // The file's path below its config's folder, for `[[overrides]]` (looked up
                    // only when the config has some).
                    let relative = config
                        .filter(|c| !c.overrides.is_empty())
                        .and(config_file)
                        .and_then(|file| entry.path.strip_prefix(file.path.parent()?).ok());
                    config.map(|config| config.levels_for(relative))
                })
                .as_ref()
        };
        let mut all: Vec<Diagnostic> = entry
            .parsed
            .local
            .iter()
            .chain(entry.cross.iter())
            .filter_map(|d| self.apply_overrides(levels(), d))
            .collect();
        all.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
        all.dedup();
        let all = (self.checks.suppress)(entry, all);
        // What the suppressions say about themselves has a level like any code.
        let all = all
            .into_iter()
            .filter_map(|d| {
                if (self.checks.is_suppression_code)(d.code) {
                    self.apply_overrides(levels(), &d)
                } else {
                    Some(d)
                }
            })
            .collect();
        (self.checks.cap_per_file)(id, all)
    }

    /// "Disable this rule on this line" for one of a file's diagnostics, where a comment can go.
    pub fn disable_fix(&self, diagnostic: &Diagnostic) -> Option<crate::diagnostic::Fix> {
        let entry = self.file(diagnostic.file)?;
        (self.checks.disable_fix)(entry, diagnostic)
    }

    /// The level for a code: the nearest `skillgraph.toml` above the file decides (`levels`,
    /// its `[[overrides]]` matching the file's path below it first, then its `[rules]`; it is
    /// what CI sees too); the editor's settings apply to codes it does not mention.
    fn apply_overrides(
        &self,
        levels: Option<&crate::model::config::FileLevels<'_>>,
        diagnostic: &Diagnostic,
    ) -> Option<Diagnostic> {
        let from_config = levels.and_then(|levels| levels.level(diagnostic.code));
        let level = from_config.or_else(|| {
            self.settings
                .severity_overrides
                .get(diagnostic.code.name())
                .copied()
        });
        match level {
            None => Some(diagnostic.clone()),
            Some(None) => None,
            Some(Some(severity)) => Some(diagnostic.clone().with_severity(severity)),
        }
    }

    /// The `skillgraph.toml` nearest above `path` (its own folder first), if any: the one walk
    /// every config question goes through. The index reads the levels of a file's diagnostics
    /// from it; the checks ask through [`Lookup::nearest_config_file`], which records the walk,
    /// and `semantics::config` adds the editor's settings where no file is found.
    pub fn nearest_config_file(&self, path: &Path) -> Option<&FileEntry> {
        let config_of = |id: FileId| {
            let entry = self.file(id)?;
            matches!(entry.parsed.content, Content::Config(_)).then_some(entry)
        };
        let dir = path.parent()?;
        let mut table = self.config_dirs.table();
        if let Some(known) = table.get(dir) {
            return known.and_then(config_of);
        }
        // Walk up until a config or a directory already answered; every directory passed on
        // the way gets the same answer, so each directory is walked once.
        let mut passed: Vec<&Path> = Vec::new();
        let mut found = None;
        for ancestor in dir.ancestors() {
            if let Some(known) = table.get(ancestor) {
                found = *known;
                break;
            }
            passed.push(ancestor);
            let here = self
                .file_id(&ancestor.join("skillgraph.toml"))
                .filter(|&id| config_of(id).is_some());
            if here.is_some() {
                found = here;
                break;
            }
        }
        for passed in passed {
            table.insert(passed.to_owned(), found);
        }
        found.and_then(config_of)
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
struct Checking<'a> {
    previous: &'a SkillResolutions,
    changed: &'a ChangedKeys,
    /// The previous entries used, by address.
    used: std::cell::RefCell<HashSet<usize>>,
    added: std::cell::RefCell<Vec<(Key, Arc<[ResolvedSkill]>)>>,
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
    fn for_check(index: &'a Index, file: FileId, changed: &'a ChangedKeys) -> Self {
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

    /// The value `compute` makes from the index, computed once per state of `key`'s
    /// contributions and shared by every check (see [`Memos`]); records the read of `key`.
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
    fn into_results(self) -> (Vec<Key>, SkillResolutions) {
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

/// Maps `work` over `items` on the machine's cores (rayon's work stealing, so one slow file or a
/// run of topologies does not leave a core idle), keeping the order. A single item (an edit)
/// stays on the calling thread.
fn parallel_map<T: Sync, R: Send>(items: &[T], work: impl Fn(&T) -> R + Sync + Send) -> Vec<R> {
    use rayon::prelude::*;
    if items.len() < 2 {
        return items.iter().map(&work).collect();
    }
    items.par_iter().map(work).collect()
}

#[cfg(test)]
mod tests {
    use super::{
        ArtifactKind, Change, Checks, Contributors, Diagnostic, FileId, Index, Key, Severity,
    };

    /// Checks that make every SwarmKit file of a workspace read the skill `later` and report
    /// when it is missing: enough to see who reads what, with no rule involved.
    static READS_LATER: Checks = Checks {
        cross_file: |lookup, id| {
            let Some(workspace) = lookup.index().workspace_of(id) else {
                return Vec::new();
            };
            let key = Key::Def {
                workspace,
                kind: ArtifactKind::Skill,
                id: "later".to_owned(),
            };
            if lookup.get(key).is_empty() {
                let code = crate::diagnostic::Code::made_up("test.no-later", Severity::Error);
                vec![Diagnostic::new(code, id, Default::default(), "no `later`")]
            } else {
                Vec::new()
            }
        },
        ..Checks::NONE
    };

    fn set(path: &str, text: &str) -> Change {
        Change::Set {
            path: path.into(),
            text: text.to_owned(),
        }
    }

    fn skill(id: &str) -> String {
        format!("apiVersion: swarmkit/v1\nkind: Skill\nmetadata:\n  id: {id}\n  name: N\n")
    }

    #[test]
    fn the_first_batch_leaves_the_readers_for_the_next_change_and_they_come_out_the_same() {
        let changes = vec![
            set(
                "/ws/workspace.yaml",
                "apiVersion: swarmkit/v1\nkind: Workspace\n",
            ),
            set("/ws/skills/fetch.yaml", &skill("fetch")),
            set("/ws/skills/search.yaml", &skill("search")),
        ];
        let mut batch = Index::new(&READS_LATER);
        batch.apply(changes.clone());
        assert!(batch.readers_deferred && batch.readers.is_empty());

        let mut one_by_one = Index::new(&READS_LATER);
        for change in changes {
            one_by_one.apply(vec![change]);
        }
        assert!(!one_by_one.readers_deferred && !one_by_one.readers.is_empty());

        let mut settled = batch.clone();
        settled.settle_readers();
        assert!(!settled.readers_deferred);
        assert_eq!(settled.readers, one_by_one.readers);

        // The next change settles them itself: defining `later` re-checks its readers.
        let fetch = batch.file_id("/ws/skills/fetch.yaml".as_ref()).unwrap();
        assert_eq!(batch.diagnostics(fetch).len(), 1);
        let affected = batch.apply(vec![set("/ws/skills/later.yaml", &skill("later"))]);
        assert!(affected.contains(&fetch), "fetch.yaml read `later`");
        assert!(batch.diagnostics(fetch).is_empty());
    }

    fn files(contributors: &Contributors) -> Vec<u32> {
        contributors.files().map(|id| id.0).collect()
    }

    #[test]
    fn contributors_go_from_one_to_many_and_back_in_id_order() {
        let mut c = Contributors::One(FileId(5), 1);
        c.insert(FileId(5), 2);
        assert_eq!(
            c,
            Contributors::One(FileId(5), 2),
            "a new fingerprint replaces the old"
        );
        c.insert(FileId(3), 7);
        c.insert(FileId(9), 8);
        assert_eq!(files(&c), [3, 5, 9]);
        assert!(c.remove(FileId(5)));
        assert!(
            c.remove(FileId(4)),
            "a file that is not there leaves the others"
        );
        assert!(c.remove(FileId(9)));
        assert_eq!(
            c,
            Contributors::One(FileId(3), 7),
            "one left is held inline again"
        );
        assert!(c.remove(FileId(4)));
        assert!(!c.remove(FileId(3)), "the last one taken away leaves none");
    }
}
