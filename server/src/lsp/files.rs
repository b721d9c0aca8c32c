//! Files on disk: the initial indexing, roots added later, watched-file events and the watcher
//! registration.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use tower_lsp_server::ls_types::*;

use super::state::{lock, panic_message};
use super::{convert, Backend};
use crate::diagnostic::FileId;
use crate::index::Change;

/// A file discovery would have picked up: a YAML file, a SKILL.md or a config, outside the
/// directories never looked into (`.git`, `node_modules`, `target`).
pub fn may_be_ours(roots: &[PathBuf], path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    !in_skipped_directory(roots, path)
        && (name == "SKILL.md"
            || name == "skillgraph.toml"
            || crate::index::classify::is_yaml(path)
            || crate::index::classify::is_json(path))
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
            .is_some_and(|c| crate::index::classify::SKIPPED_DIRECTORIES.contains(&c))
    })
}

/// The text of a file as the disk has it, or its removal.
pub fn from_disk(path: &Path) -> Change {
    match crate::discover::read_one(path) {
        Ok(change) => change,
        Err(_) => Change::Remove {
            path: path.to_owned(),
        },
    }
}

impl Backend {
    pub(super) async fn index_workspace(&self) {
        let (roots, progress_supported) = {
            let state = lock(&self.state);
            (state.roots.clone(), state.offers.work_done_progress)
        };
        let mut progress = None;
        if progress_supported {
            let token = NumberOrString::String("skillgraph/indexing".to_owned());
            if self
                .client
                .create_work_done_progress(token.clone())
                .await
                .is_ok()
            {
                progress = Some(
                    self.client
                        .progress(token, "skillgraph")
                        .with_message("indexing the workspace")
                        .begin()
                        .await,
                );
            }
        }
        let read = tokio::task::spawn_blocking(move || crate::discover::discover(&roots)).await;
        let (changes, errors) = match read {
            Ok(result) => result,
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
        let (files, result) = {
            let mut state = lock(&self.state);
            let state = &mut *state;
            // Documents opened meanwhile keep the editor's text.
            let changes = state.keep_editor_text(changes);
            let result = catch_unwind(AssertUnwindSafe(|| {
                Arc::make_mut(&mut state.index).apply(changes);
                state.indexed = true;
                let all: Vec<FileId> = state.index.files().map(|f| f.id).collect();
                self.publish(state, all);
            }))
            .map_err(|payload| panic_message(payload.as_ref()));
            (state.index.checked_file_count(), result)
        };
        self.log_failure("indexing", result).await;
        // The diagnostics of the indexed files go out before the progress ends.
        self.flush().await;
        if let Some(progress) = progress {
            progress
                .finish_with_message(format!("{files} files indexed"))
                .await;
        }
    }

    pub(super) async fn register_watchers(&self) {
        if !lock(&self.state).offers.watch_dynamic {
            return;
        }
        let watchers = [
            "**/*.{yaml,yml}",
            "**/SKILL.md",
            "**/skillgraph.toml",
            "**/*.json",
        ]
        .into_iter()
        .map(|glob| FileSystemWatcher {
            glob_pattern: GlobPattern::String(glob.to_owned()),
            kind: None,
        })
        .collect();
        let options = DidChangeWatchedFilesRegistrationOptions { watchers };
        let registration = Registration {
            id: "skillgraph-watched-files".to_owned(),
            method: "workspace/didChangeWatchedFiles".to_owned(),
            register_options: serde_json::to_value(options).ok(),
        };
        if let Err(error) = self.client.register_capability(vec![registration]).await {
            self.log(
                MessageType::WARNING,
                format!("skillgraph: cannot watch files: {error}"),
            )
            .await;
        }
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
        let found = lock(&self.state).keep_editor_text(found);
        let result = self.apply(found);
        self.log_failure("indexing", result).await;
    }

    /// A document opened outside every root (an editor started on a single file): the SwarmKit
    /// workspace around it becomes a root, so its ids resolve.
    pub(super) fn root_for_stray(&self, path: &Path) -> Option<PathBuf> {
        let mut state = lock(&self.state);
        if state.roots.iter().any(|r| path.starts_with(r)) {
            return None;
        }
        let dir = path
            .ancestors()
            .skip(1)
            .take(4)
            .find(|dir| {
                dir.join("workspace.yaml").is_file() || dir.join("workspace.yml").is_file()
            })?
            .to_owned();
        state.roots.push(dir.clone());
        Some(dir)
    }

    pub(super) async fn watched_files_changed(&self, params: DidChangeWatchedFilesParams) {
        let mut changes = Vec::new();
        {
            let state = lock(&self.state);
            for event in &params.changes {
                let Some(path) = convert::path_of(&event.uri) else {
                    continue;
                };
                if state.open.contains_key(&path) {
                    continue; // the editor's text wins over the disk's
                }
                if event.typ == FileChangeType::DELETED {
                    // A deleted directory takes every file below it.
                    changes.extend(
                        state
                            .index
                            .files()
                            .filter(|f| f.path.starts_with(&path))
                            .filter(|f| !state.open.contains_key(&f.path))
                            .map(|f| Change::Remove {
                                path: f.path.clone(),
                            }),
                    );
                } else if path.is_dir() && !in_skipped_directory(&state.roots, &path) {
                    let (found, _) = crate::discover::discover(std::slice::from_ref(&path));
                    changes.extend(state.keep_editor_text(found));
                } else if may_be_ours(&state.roots, &path) {
                    changes.push(from_disk(&path));
                }
            }
        }
        let result = self.apply(changes);
        self.log_failure("didChangeWatchedFiles", result).await;
    }

    pub(super) async fn workspace_folders_changed(&self, params: DidChangeWorkspaceFoldersParams) {
        let removed: Vec<PathBuf> = params
            .event
            .removed
            .iter()
            .filter_map(|f| convert::path_of(&f.uri))
            .collect();
        let added: Vec<PathBuf> = params
            .event
            .added
            .iter()
            .filter_map(|f| convert::path_of(&f.uri))
            .collect();
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
        let result = self.apply(changes);
        self.log_failure("didChangeWorkspaceFolders", result).await;
        self.index_roots(added).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
