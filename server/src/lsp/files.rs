//! Files on disk: the initial indexing, roots added later, watched-file events and the watcher
//! registration.

use std::path::{Path, PathBuf};

use tower_lsp_server::ls_types::*;

use super::state::lock;
use super::{convert, Backend, CLIENT_ANSWER_WAIT};
use crate::index::{classify, Change};

/// A file discovery would have picked up: one of `classify::OUR_FILES`, outside the directories
/// never looked into (`classify::SKIPPED_DIRECTORIES`).
pub fn may_be_ours(roots: &[PathBuf], path: &Path) -> bool {
    !in_skipped_directory(roots, path) && classify::may_be_ours(path)
}

/// True below `.git`, `node_modules` or `target` inside a root (the root's own location does
/// not count: a project may well live under a directory called `target`).
pub fn in_skipped_directory(roots: &[PathBuf], path: &Path) -> bool {
    let relative = roots
        .iter()
        .find_map(|root| path.strip_prefix(root).ok())
        .unwrap_or(path);
    relative.components().any(|c| {
        c.as_os_str()
            .to_str()
            .is_some_and(|c| classify::SKIPPED_DIRECTORIES.contains(&c))
    })
}

/// The skill folders to list again after these events (`(path, deleted)`): the listings that
/// can hold a path that appeared or went, and the folder of a SKILL.md that appeared. A path
/// appeared when it is not deleted and is new to the index, or is not a file the index reads
/// (the watcher reports only creation and deletion of those).
///
/// A path is held by the listing of its nearest skill folder, and by any listing on the way up
/// to it (a folder whose SKILL.md went keeps one until it is listed again). Listings further up
/// hold only that folder's SKILL.md, so they change only when a SKILL.md itself appears or
/// goes: then the listings up to the next skill folder are listed again too. However deep
/// skills nest, an event lists two skill folders at most, not every one above it.
fn skill_folders_to_list(
    index: &crate::index::Index,
    roots: &[PathBuf],
    events: &[(PathBuf, bool)],
) -> Vec<PathBuf> {
    let mut dirs = std::collections::BTreeSet::new();
    for (path, deleted) in events {
        if in_skipped_directory(roots, path) {
            continue;
        }
        let appeared = !deleted && (!may_be_ours(roots, path) || index.file_id(path).is_none());
        if !(*deleted || appeared) {
            continue;
        }
        let is_skill_md = path.file_name().is_some_and(|n| n == classify::SKILL_MD);
        let mut skill_folders_left = if is_skill_md { 2 } else { 1 };
        for (up, dir) in path.ancestors().skip(1).enumerate() {
            if skill_folders_left == 0 {
                break;
            }
            if index.skill_files(dir).is_some() {
                dirs.insert(dir.to_owned());
            }
            // The folder of the SKILL.md in question counts whether or not it is indexed yet.
            let own_folder = is_skill_md && up == 0;
            if own_folder || index.file_id(&dir.join(classify::SKILL_MD)).is_some() {
                skill_folders_left -= 1;
            }
        }
        if appeared && is_skill_md {
            dirs.extend(path.parent().map(Path::to_owned));
        }
    }
    dirs.into_iter().collect()
}

/// The text of a file as the disk has it, or its removal.
pub fn from_disk(path: &Path) -> Change {
    match crate::discover::read_regular(path) {
        Ok(change) => change,
        Err(_) => Change::Remove {
            path: path.to_owned(),
        },
    }
}

/// The roots to index for the roots the client named: each widened to the workspace or skill
/// root around it (see [`crate::discover::enclosing_root`]), duplicates and nested roots removed.
fn widen_roots(named: Vec<PathBuf>) -> Vec<PathBuf> {
    crate::discover::outermost(
        named
            .into_iter()
            .map(|root| crate::discover::enclosing_root_on_disk(&root).unwrap_or(root))
            .collect(),
    )
}

/// The paths of workspace folders (those whose URI is no file path are passed over).
fn folder_paths(folders: &[WorkspaceFolder]) -> Vec<PathBuf> {
    folders
        .iter()
        .filter_map(|f| convert::path_of(&f.uri))
        .collect()
}

/// Reads what watched-file events name: files as they are now, directories walked, deletions
/// as removals of everything indexed below. Runs on a blocking thread.
/// `claimed` holds the Markdown files of the events that a plugin's layout claims (its
/// subagents and commands, `Index::plugin_component`), read like the files of
/// `classify::OUR_FILES`; a plugin manifest read brings in the files its layout claims.
fn read_events(
    events: Vec<(PathBuf, bool)>,
    indexed: Vec<PathBuf>,
    claimed: &std::collections::HashSet<PathBuf>,
    roots: &[PathBuf],
) -> Vec<Change> {
    let mut changes = Vec::new();
    for (path, deleted) in events {
        if deleted {
            // A deleted directory takes every file below it.
            changes.extend(
                indexed
                    .iter()
                    .filter(|f| f.starts_with(&path))
                    .map(|f| Change::Remove { path: f.clone() }),
            );
        } else if path.is_dir() {
            if !in_skipped_directory(roots, &path) {
                changes.extend(crate::discover::discover(std::slice::from_ref(&path)).0);
            }
        } else if may_be_ours(roots, &path) {
            let change = from_disk(&path);
            if let Change::Set { text, .. } | Change::SetDecoded { text, .. } = &change {
                changes.extend(crate::discover::plugin_components(&path, text));
            }
            changes.push(change);
        } else if claimed.contains(&path) {
            changes.push(from_disk(&path));
        }
    }
    changes
}

impl Backend {
    /// Indexes the roots: discovery starts at once, on a blocking thread, and the progress
    /// report is asked for beside it: a client that never answers delays neither the indexing
    /// nor its diagnostics.
    pub(super) async fn index_workspace(&self) {
        let named = lock(&self.state).roots.clone();
        let read = tokio::task::spawn_blocking(move || {
            let roots = widen_roots(named);
            let found = crate::discover::discover(&roots);
            (roots, found)
        });
        let progress = self.start_progress("skillgraph/indexing", "indexing the workspace");
        let (changes, errors) = match read.await {
            Ok((roots, found)) => {
                lock(&self.state).roots = roots;
                found
            }
            Err(error) => {
                self.log(
                    MessageType::ERROR,
                    format!("skillgraph: indexing failed: {error}"),
                )
                .await;
                (Vec::new(), Vec::new())
            }
        };
        for error in &errors {
            self.log(
                MessageType::WARNING,
                format!(
                    "skillgraph: cannot read {}: {}",
                    error.path.display(),
                    error.error
                ),
            )
            .await;
        }
        // Analysed on a blocking thread and without the lock: the open documents' requests keep
        // answering meanwhile.
        let this = self.clone();
        let (files, result) =
            tokio::task::spawn_blocking(move || this.apply_batch("indexing", changes, true))
                .await
                .unwrap_or_else(|error| (0, Err(error.to_string())));
        self.indexing_done();
        self.log_failure("indexing", result).await;
        // The diagnostics of the indexed files go out before the progress ends.
        self.flush().await;
        if let Some(progress) = progress {
            progress
                .finish(match files {
                    1 => "1 file indexed".to_owned(),
                    n => format!("{n} files indexed"),
                })
                .await;
        }
        let this = self.clone();
        let _ = tokio::task::spawn_blocking(move || this.settle_readers_after_indexing()).await;
    }

    fn indexing_done(&self) {
        self.indexing
            .send_modify(|jobs| *jobs = jobs.saturating_sub(1));
    }

    pub(super) async fn register_watchers(&self) {
        if !lock(&self.state).offers.watch_dynamic {
            self.watch_roots_ourselves();
            return;
        }
        // The index's globs hold `**/*.md` (prose files), which also covers a bundled Markdown
        // file, whose text names other bundled files.
        let mut watchers: Vec<FileSystemWatcher> = classify::watch_globs()
            .into_iter()
            .map(|glob| FileSystemWatcher {
                glob_pattern: GlobPattern::String(glob),
                kind: None,
            })
            .collect();
        // SwarmKit's audit logs, where the runtime writes them: every change (see `audit`).
        watchers.extend(
            super::audit::WATCH_GLOBS
                .iter()
                .map(|glob| FileSystemWatcher {
                    glob_pattern: GlobPattern::String((*glob).to_owned()),
                    kind: None,
                }),
        );
        // Any file appearing or going may be one a skill links to (names only: no changes).
        watchers.push(FileSystemWatcher {
            glob_pattern: GlobPattern::String("**/*".to_owned()),
            kind: Some(WatchKind::Create | WatchKind::Delete),
        });
        let options = DidChangeWatchedFilesRegistrationOptions { watchers };
        let registration = Registration {
            id: "skillgraph-watched-files".to_owned(),
            method: "workspace/didChangeWatchedFiles".to_owned(),
            register_options: serde_json::to_value(options).ok(),
        };
        let registered = tokio::time::timeout(
            CLIENT_ANSWER_WAIT,
            self.client.register_capability(vec![registration]),
        )
        .await;
        let problem = match registered {
            Ok(Ok(())) => return,
            Ok(Err(error)) => error.to_string(),
            Err(_) => format!("no answer within {} s", CLIENT_ANSWER_WAIT.as_secs()),
        };
        self.log(
            MessageType::WARNING,
            format!("skillgraph: the editor does not watch files ({problem}); watching them here"),
        )
        .await;
        self.watch_roots_ourselves();
    }

    /// Reads new roots from disk and indexes them (documents open in the editor keep its text).
    pub(super) async fn index_roots(&self, roots: Vec<PathBuf>) {
        if roots.is_empty() {
            return;
        }
        let found = tokio::task::spawn_blocking(move || crate::discover::discover(&roots)).await;
        let Ok((found, _)) = found else {
            return;
        };
        let this = self.clone();
        let (_, result) =
            tokio::task::spawn_blocking(move || this.apply_batch("indexing", found, false))
                .await
                .unwrap_or_else(|error| (0, Err(error.to_string())));
        self.log_failure("indexing", result).await;
        self.refresh_audit_logs(&[]);
    }

    /// A document opened outside every root (an editor started on a single file, or with no
    /// root at all): the workspace or skill root around it is indexed, and requests wait for it
    /// as they wait for the initial indexing.
    pub(super) async fn index_around_stray(&self, path: PathBuf) {
        if lock(&self.state).roots.iter().any(|r| path.starts_with(r)) {
            return;
        }
        self.indexing.send_modify(|jobs| *jobs += 1);
        let this = self.clone();
        tokio::spawn(async move {
            let probed = path.clone();
            let root = tokio::task::spawn_blocking(move || {
                crate::discover::enclosing_root_on_disk(&probed)
            })
            .await
            .ok()
            .flatten();
            let new_root = root.filter(|root| {
                let mut state = lock(&this.state);
                let known = state.roots.iter().any(|r| root.starts_with(r));
                if !known {
                    state.roots.retain(|r| !r.starts_with(root));
                    state.roots.push(root.clone());
                }
                !known
            });
            if let Some(root) = new_root {
                this.index_roots(vec![root]).await;
            }
            this.indexing_done();
        });
    }

    pub(super) async fn watched_files_changed(&self, params: DidChangeWatchedFilesParams) {
        let events: Vec<(PathBuf, bool)> = params
            .changes
            .iter()
            .filter_map(|e| Some((convert::path_of(&e.uri)?, e.typ == FileChangeType::DELETED)))
            .collect();
        let paths: Vec<PathBuf> = events.iter().map(|(path, _)| path.clone()).collect();
        self.disk_changed(events).await;
        // After the files: a workspace.yaml or skillgraph.toml may have moved a log.
        self.refresh_audit_logs(&paths);
    }

    /// Files or directories changed on disk. Events outside the roots are ignored; the disk is
    /// read on a blocking thread, in arrival order, and documents open in the editor keep its text.
    pub(super) async fn disk_changed(&self, events: Vec<(PathBuf, bool)>) {
        let (events, indexed, roots) = {
            let state = lock(&self.state);
            let relist = skill_folders_to_list(&state.index, &state.roots, &events);
            let events: Vec<(PathBuf, bool)> = events
                .into_iter()
                .filter(|(path, _)| state.roots.iter().any(|r| path.starts_with(r)))
                .collect();
            // A plugin manifest open in the editor keeps its text from the editor; saving it
            // still brings in the subagents and commands its layout now claims.
            let open_manifests: Vec<(PathBuf, String)> = events
                .iter()
                .filter(|(_, deleted)| !deleted)
                .filter(|(path, _)| {
                    crate::model::hosts::plugins::manifest_kind(path)
                        == Some(crate::model::hosts::plugins::ManifestKind::Plugin)
                })
                .filter_map(|(path, _)| {
                    let document = state.open.get(path)?;
                    Some((path.clone(), document.rope.to_string()))
                })
                .collect();
            let events: Vec<(PathBuf, bool)> = events
                .into_iter()
                .filter(|(path, _)| !state.open.contains_key(path))
                .collect();
            if events.is_empty() && relist.is_empty() && open_manifests.is_empty() {
                return;
            }
            let indexed: Vec<PathBuf> = if events.iter().any(|(_, deleted)| *deleted) {
                state.index.files().map(|f| f.path.clone()).collect()
            } else {
                Vec::new()
            };
            let claimed: std::collections::HashSet<PathBuf> = events
                .iter()
                .filter(|(path, deleted)| !deleted && state.index.plugin_component(path).is_some())
                .map(|(path, _)| path.clone())
                .collect();
            (
                events,
                indexed,
                (state.roots.clone(), relist, claimed, open_manifests),
            )
        };
        let _in_order = self.disk_order.lock().await;
        let (roots, relist, claimed, open_manifests) = roots;
        let read = tokio::task::spawn_blocking(move || {
            let mut changes = read_events(events, indexed, &claimed, &roots);
            for (path, text) in &open_manifests {
                changes.extend(crate::discover::plugin_components(path, text));
            }
            changes.extend(
                relist
                    .iter()
                    .flat_map(|dir| crate::discover::skill_files(dir)),
            );
            changes
        })
        .await;
        let result = match read {
            Ok(changes) => self.apply_from_disk("didChangeWatchedFiles", changes),
            Err(error) => Err(error.to_string()),
        };
        self.log_failure("didChangeWatchedFiles", result).await;
    }

    pub(super) async fn workspace_folders_changed(&self, params: DidChangeWorkspaceFoldersParams) {
        let removed = folder_paths(&params.event.removed);
        let named = folder_paths(&params.event.added);
        // Widened like the first roots; the probing is disk work, off the async threads.
        let added = tokio::task::spawn_blocking(move || widen_roots(named))
            .await
            .unwrap_or_default();
        let changes: Vec<Change> = {
            let mut state = lock(&self.state);
            state.roots.retain(|r| !removed.contains(r));
            state.roots.extend(added.iter().cloned());
            let roots = state.roots.clone();
            state
                .index
                .files()
                .filter(|f| removed.iter().any(|r| f.path.starts_with(r)))
                .filter(|f| !roots.iter().any(|r| f.path.starts_with(r)))
                .filter(|f| !state.open.contains_key(&f.path))
                .map(|f| Change::Remove {
                    path: f.path.clone(),
                })
                .collect()
        };
        let result = self.apply("didChangeWorkspaceFolders", changes);
        self.log_failure("didChangeWorkspaceFolders", result).await;
        self.index_roots(added).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Skills nested three deep, `/r/a`, `/r/a/b`, `/r/a/b/c`, each listed.
    fn nested_skills() -> crate::index::Index {
        let mut index = crate::index::Index::new(&crate::index::Checks::NONE);
        let skill = |dir: &str| Change::Set {
            path: PathBuf::from(format!("{dir}/SKILL.md")),
            text: "---\nname: x\ndescription: d\n---\n".into(),
        };
        let listing = |dir: &str, files: &[&str]| Change::SkillFiles {
            dir: PathBuf::from(dir),
            files: files.iter().map(PathBuf::from).collect(),
        };
        index.apply(vec![
            skill("/r/a"),
            skill("/r/a/b"),
            skill("/r/a/b/c"),
            listing("/r/a", &["SKILL.md", "b/SKILL.md"]),
            listing("/r/a/b", &["SKILL.md", "c/SKILL.md"]),
            listing("/r/a/b/c", &["SKILL.md", "notes/old.md"]),
        ]);
        index
    }

    #[test]
    fn an_event_lists_again_only_the_skill_folders_whose_listing_it_changes() {
        let index = nested_skills();
        let roots = [PathBuf::from("/r")];
        let relist = |path: &str, deleted: bool| {
            skill_folders_to_list(&index, &roots, &[(PathBuf::from(path), deleted)])
        };
        let paths = |dirs: &[&str]| dirs.iter().map(PathBuf::from).collect::<Vec<_>>();
        // A file of the innermost skill: its listing alone; the ones above hold only `c/SKILL.md`.
        assert_eq!(relist("/r/a/b/c/notes/new.md", false), paths(&["/r/a/b/c"]));
        assert_eq!(relist("/r/a/b/c/notes/old.md", true), paths(&["/r/a/b/c"]));
        // A SKILL.md going: its folder's listing, and the one above that now holds its files.
        assert_eq!(
            relist("/r/a/b/c/SKILL.md", true),
            paths(&["/r/a/b", "/r/a/b/c"])
        );
        // A SKILL.md appearing in a plain folder: that folder, and the skill that held it.
        assert_eq!(
            relist("/r/a/b/d/SKILL.md", false),
            paths(&["/r/a/b", "/r/a/b/d"])
        );
    }

    #[test]
    fn watched_files_below_skipped_directories_are_ignored() {
        let roots = [PathBuf::from("/home/u/target/project")];
        assert!(may_be_ours(
            &roots,
            Path::new("/home/u/target/project/skills/a.yaml")
        ));
        assert!(may_be_ours(
            &roots,
            Path::new("/home/u/target/project/.claude/skills/x/SKILL.md")
        ));
        assert!(!may_be_ours(
            &roots,
            Path::new("/home/u/target/project/target/skills/a.yaml")
        ));
        assert!(!may_be_ours(
            &roots,
            Path::new("/home/u/target/project/node_modules/x/SKILL.md")
        ));
        assert!(!may_be_ours(
            &roots,
            Path::new("/home/u/target/project/README.md")
        ));
    }
}
