//! Applying a batch of changes: classifying and analysing the files (on the machine's cores),
//! filing their contributions, recomputing a workspace's `${…}` variables, and re-checking the
//! readers of the keys that changed; and the same for a change of settings.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::diagnostic::FileId;
use crate::syntax::interpolate::Variables;

use super::caches::ConfigDirs;
use super::keys::ChangedKeys;
use super::tracking::{contribute, note_whole_file, CheckResult};
use super::{
    analysis, classify, keys, parallel_map, workspace_of_role, Change, Content, FileEntry,
    FileRole, Index, Key, Lookup, ParsedFile, Settings,
};

/// (id, path, text, where the first non-UTF-8 byte was, role): a file to analyse.
pub(super) type Job = (FileId, PathBuf, Arc<str>, Option<u32>, FileRole);
/// A file's path, text and where its first byte that was not UTF-8 was, before it is classified.
pub(super) type PendingText = (PathBuf, Arc<str>, Option<u32>);
/// What the workers hand back for one job: its analysis, its contributions (sorted by key) and
/// its line index.
pub(super) type Analysed = (Arc<ParsedFile>, Vec<(Key, u64)>);

impl Index {
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
                    if let Some(root) = self.set_plugin_layout(&path, Some(&text)) {
                        reclassify_under.push(root);
                    }
                    pending.insert(id, (path, text, invalid_utf8_at));
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
                    if let Some(root) = self.set_plugin_layout(&path, None) {
                        reclassify_under.push(root);
                    }
                    touched.insert(id);
                }
            }
        }

        // Classified on the workers: a path's role only reads the workspace roots and the plugin
        // layouts, settled above.
        let pending: Vec<(FileId, PendingText)> = pending.into_iter().collect();
        let roles = parallel_map(&pending, |(_, (path, _, _))| self.classify(path));
        let mut jobs: Vec<Job> = pending
            .into_iter()
            .zip(roles)
            .map(|((id, (path, text, invalid_utf8_at)), role)| {
                (id, path, text, invalid_utf8_at, role)
            })
            .collect();

        // A workspace appearing or disappearing changes the role of every file below it, and a
        // plugin's layout changing the role of the Markdown files below the plugin. Rare, and
        // the only change whose cost grows with the number of files.
        reclassify_under.sort();
        reclassify_under.dedup();
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
    pub(super) fn files_a_config_governs<'s>(
        &'s self,
        dir: &'s Path,
    ) -> impl Iterator<Item = FileId> + 's {
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

    /// Runs the cross-file checks of `touched` and of every reader of `changed_keys`, in
    /// parallel (they only read the index); the caller stores the results.
    #[allow(clippy::type_complexity)]
    pub(super) fn run_checks(
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
        let schema_paths_changed = self.settings.schema_paths != settings.schema_paths;
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
                                    text: entry.text.clone(),
                                    invalid_at,
                                },
                                None => Change::Set {
                                    path: entry.path.clone(),
                                    text: entry.text.clone(),
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
        if schema_paths_changed {
            changed_keys.insert(Key::SchemaPaths);
        }
        let (order, results) = self.run_checks(&HashSet::new(), &changed_keys);
        for (id, result) in order.into_iter().zip(results) {
            self.store_check(id, result);
        }
        self.files.ids().collect()
    }

    /// Parses, lowers and computes contributions on the workers (each file with
    /// its workspace's variables); the main thread only files the results.
    pub(super) fn analyse_and_store(&mut self, mut jobs: Vec<Job>, changed_keys: &mut ChangedKeys) {
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
            (Arc::new(parsed), contributions)
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
    pub(super) fn store_new(&mut self, entries: &[Arc<FileEntry>], changed_keys: &mut ChangedKeys) {
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
    pub(super) fn refresh_variables(
        &mut self,
        workspace: FileId,
        roots: &HashMap<FileId, PathBuf>,
    ) -> bool {
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
    pub(super) fn roots_by_workspace(&self, wanted: bool) -> HashMap<FileId, PathBuf> {
        if !wanted {
            return HashMap::new();
        }
        self.workspace_roots
            .iter()
            .map(|(dir, &id)| (id, dir.clone()))
            .collect()
    }

    pub(super) fn intern(&mut self, path: &Path) -> (FileId, bool) {
        if let Some(&id) = self.by_path.get(path.as_os_str()) {
            return (id, false);
        }
        let id = FileId(self.next_id);
        self.next_id += 1;
        self.by_path.insert(path.as_os_str().to_owned(), id);
        (id, true)
    }

    pub(super) fn classify(&self, path: &Path) -> FileRole {
        let role = classify::classify(path, |dir| self.workspace_roots.get(dir).copied());
        // Markdown no host folder claims may be a plugin's subagent or command.
        if role == FileRole::Unrelated {
            if let Some((kind, root)) = self.plugin_component(path) {
                return FileRole::PluginProse { kind, root };
            }
        }
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

    /// Records the layout of the plugin whose `plugin.json` is at `path` (`text`, or `None` when
    /// it was removed). The plugin's root when its layout changed (its Markdown files are
    /// classified again).
    pub(super) fn set_plugin_layout(&mut self, path: &Path, text: Option<&str>) -> Option<PathBuf> {
        use crate::model::hosts::plugins::{manifest_kind, ManifestKind};
        use crate::model::plugin_manifest::{layout_of_manifest, manifest_root};
        if manifest_kind(path) != Some(ManifestKind::Plugin) {
            return None;
        }
        let Some(text) = text else {
            let root = manifest_root(path)?.to_owned();
            return self.plugin_layouts.remove(&root).map(|_| root);
        };
        let (root, layout) = layout_of_manifest(path, text)?;
        if self.plugin_layouts.get(&root).map(Arc::as_ref) == Some(&layout) {
            return None;
        }
        self.plugin_layouts.insert(root.clone(), Arc::new(layout));
        Some(root)
    }

    /// Settles which manifest roots the workspace in `dir`: `workspace.yaml` when present, else
    /// `workspace.yml`. True when that changed.
    pub(super) fn choose_manifest(&mut self, dir: &Path) -> bool {
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
    pub(super) fn store(
        &mut self,
        id: FileId,
        path: PathBuf,
        (text, invalid_utf8_at): (Arc<str>, Option<u32>),
        role: FileRole,
        (parsed, contributions): Analysed,
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
                    (parsed, contributions),
                )
            }),
        );
    }
}
