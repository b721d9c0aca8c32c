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
//!
//! The files: `apply` (a batch of changes), `tracking` (contributions, reads, readers),
//! `lookup` (the recorded reads), `diagnostics` (what a file shows), `caches` (what snapshots
//! share); `analysis`, `classify` and `keys` for one file. It must not know the rules (they are
//! handed in as `Checks`), the LSP or the disk.

mod analysis;
mod apply;
mod caches;
mod checks;
pub mod classify;
mod diagnostics;
mod file_table;
mod keys;
mod lookup;
mod tracking;

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

pub use analysis::{Content, ParsedFile, MAX_FILE_BYTES};
pub use checks::Checks;
pub use classify::FileRole;
pub use keys::Key;
pub use lookup::{Lookup, MAX_SUGGESTIONS_PER_CHECK};

use apply::Analysed;
use caches::{ConfigDirs, Memos};
use lookup::SkillResolutions;
use tracking::Contributors;

use crate::diagnostic::{Diagnostic, FileId, Severity};
use crate::model::swarmkit::{Artifact, ArtifactKind, Topology};
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
    /// What the edge found at the `output_schema` paths no file of the index answers (a folder,
    /// nothing, an unreadable file), by the path resolved; a path with no entry is judged by
    /// the file set alone.
    pub schema_paths: Arc<std::collections::BTreeMap<PathBuf, crate::model::schema_file::PathFact>>,
}

/// One file in the index.
#[derive(Clone, Debug)]
pub struct FileEntry {
    pub id: FileId,
    pub path: PathBuf,
    pub text: Arc<str>,
    /// Built the first time a position in the file is converted (see [`FileEntry::line_index`]);
    /// shared by the entry's clones, which hold the same text.
    line_index: Arc<OnceLock<LineIndex>>,
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
        (parsed, contributions): Analysed,
    ) -> FileEntry {
        FileEntry {
            id,
            path,
            text,
            line_index: Default::default(),
            role,
            parsed,
            invalid_utf8_at,
            contributions,
            reads: Vec::new(),
            cross: Vec::new(),
            resolved: SkillResolutions::default(),
        }
    }

    /// Where the file's lines start, for converting offsets to positions. Built on first use:
    /// `check` converts positions only in the files it reports on, and most files of a large
    /// collection (prose files above all) have nothing to report, so building an index for every
    /// file read cost a pass over all their text and the memory of the tables.
    pub fn line_index(&self) -> &LineIndex {
        self.line_index.get_or_init(|| LineIndex::new(&self.text))
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
    /// Plugin root (the folder holding `.claude-plugin/plugin.json`) -> where its subagents and
    /// commands are, as its manifest says: the Markdown files there are the plugin's.
    plugin_layouts: Table<PathBuf, Arc<crate::model::plugin_manifest::PluginLayout>>,
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

/// A change to the file set.
#[derive(Clone, Debug)]
pub enum Change {
    /// A file was created or its text changed.
    Set { path: PathBuf, text: Arc<str> },
    /// Like `Set`, for text decoded from bytes that were not all UTF-8: each bad sequence reads
    /// as U+FFFD, the first at byte `invalid_at` of `text`. (A U+FFFD in a `Set` is a character
    /// the file really holds.)
    SetDecoded {
        path: PathBuf,
        text: Arc<str>,
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
                text: " ".repeat(MAX_FILE_BYTES + 1).into(),
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
            plugin_layouts: Default::default(),
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

    /// Every topology of a workspace (not one too deep below its manifest to be checked), in id
    /// order, as (its path, its file, its workspace's manifest, the topology).
    pub fn topologies(&self) -> impl Iterator<Item = (&Path, FileId, FileId, &Topology)> {
        self.files()
            .filter_map(|f| match (&f.role, &f.parsed.content) {
                (
                    FileRole::SwarmKit {
                        workspace,
                        too_deep: false,
                        ..
                    },
                    Content::SwarmKit(Artifact::Topology(t)),
                ) => Some((f.path.as_path(), f.id, *workspace, t)),
                _ => None,
            })
    }

    /// Files whose role is ours (SwarmKit artifacts, manifests, SKILL.md, configs).
    pub fn checked_file_count(&self) -> usize {
        // A SwarmKit artifact outside every workspace is checked too (for its missing manifest).
        self.files
            .values()
            .filter(|f| f.role.is_ours() || f.parsed.stray.is_some())
            .count()
    }

    /// What the Markdown file at `path` is to the plugin whose layout claims it: a subagent or
    /// a command, with the plugin's root (the nearest plugin above it whose layout claims it).
    /// The edge reads exactly the files this answers for, beside the files of
    /// `classify::OUR_FILES`.
    pub fn plugin_component(
        &self,
        path: &Path,
    ) -> Option<(crate::model::hosts::prose::ProseKind, PathBuf)> {
        if self.plugin_layouts.is_empty() {
            return None;
        }
        crate::model::plugin_manifest::plugin_component(path, |dir| {
            self.plugin_layouts.get(dir).map(Arc::as_ref)
        })
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
    /// its path, see `Key::whole_file`).
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

    /// The variables the files of `workspace` were analysed with.
    pub fn variables(&self, workspace: FileId) -> Option<&Variables> {
        self.variables.get(&workspace).map(Arc::as_ref)
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
            text: text.into(),
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
