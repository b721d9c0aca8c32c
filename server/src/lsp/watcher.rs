//! A file watcher of our own over the roots, for clients that do not watch files for the server
//! (Neovim before 0.9, or a client that refuses the registration). Events are gathered on a
//! thread of their own and handed on after a quiet spell ([`DEBOUNCE`]), so a `git checkout`
//! of a hundred files is one re-check, seen within a second. What discovery skips (`.git`,
//! `node_modules`, `target`, what `.gitignore` files between the root and the file ignore) is
//! skipped here too.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use notify::{RecursiveMode, Watcher};
use tower_lsp_server::ls_types::MessageType;

use super::files::in_skipped_directory;
use super::state::lock;
use super::Backend;

/// How long the disk must be quiet before the changes are handed on.
const DEBOUNCE: Duration = Duration::from_millis(150);
/// The longest a steady stream of events may hold changes back.
const MOST_DELAY: Duration = Duration::from_millis(600);

/// True when a `.gitignore` between a root and `path` ignores it.
fn git_ignored(roots: &[PathBuf], path: &Path) -> bool {
    let Some(root) = roots.iter().find(|r| path.starts_with(r)) else {
        return true;
    };
    let Some(parent) = path.parent() else {
        return false;
    };
    let is_dir = path.is_dir();
    // From the deepest `.gitignore` up: the nearest one that has a say decides.
    for dir in parent.ancestors().take_while(|d| d.starts_with(root)) {
        let file = dir.join(".gitignore");
        if !file.is_file() {
            continue;
        }
        let (matcher, _) = ignore::gitignore::Gitignore::new(&file);
        let verdict = matcher.matched_path_or_any_parents(path, is_dir);
        if verdict.is_ignore() {
            return true;
        }
        if verdict.is_whitelist() {
            return false;
        }
    }
    false
}

impl Backend {
    /// Starts watching the roots on our own; logs and gives up when the platform refuses.
    pub(super) fn watch_roots_ourselves(&self) {
        let roots = lock(&self.state).roots.clone();
        if roots.is_empty() {
            return;
        }
        let (events_tx, events) = mpsc::channel::<PathBuf>();
        let watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
            if let Ok(event) = event {
                for path in event.paths {
                    let _ = events_tx.send(path);
                }
            }
        });
        let mut watcher = match watcher {
            Ok(watcher) => watcher,
            Err(error) => {
                self.log_soon(format!("skillgraph: cannot watch files: {error}"));
                return;
            }
        };
        for root in &roots {
            if let Err(error) = watcher.watch(root, RecursiveMode::Recursive) {
                self.log_soon(format!(
                    "skillgraph: cannot watch {}: {error}",
                    root.display()
                ));
            }
        }
        let this = self.clone();
        let runtime = tokio::runtime::Handle::current();
        std::thread::spawn(move || {
            // The watcher lives as long as this thread.
            let _watcher = watcher;
            while let Ok(first) = events.recv() {
                let mut paths = BTreeSet::from([first]);
                let started = Instant::now();
                while started.elapsed() < MOST_DELAY {
                    match events.recv_timeout(DEBOUNCE) {
                        Ok(path) => {
                            paths.insert(path);
                        }
                        Err(mpsc::RecvTimeoutError::Timeout) => break,
                        Err(mpsc::RecvTimeoutError::Disconnected) => return,
                    }
                }
                let roots = lock(&this.state).roots.clone();
                // Every path, ignored or not, for the audit logs (`.swarmkit/` is often ignored).
                let all: Vec<PathBuf> = paths.iter().cloned().collect();
                let changed: Vec<(PathBuf, bool)> = paths
                    .into_iter()
                    .filter(|p| !in_skipped_directory(&roots, p) && !git_ignored(&roots, p))
                    .map(|p| {
                        let deleted = !p.exists();
                        (p, deleted)
                    })
                    .collect();
                let this = this.clone();
                runtime.spawn(async move {
                    if !changed.is_empty() {
                        this.disk_changed(changed).await;
                    }
                    this.refresh_audit_logs(&all);
                });
            }
        });
    }

    fn log_soon(&self, message: String) {
        let this = self.clone();
        tokio::spawn(async move { this.log(MessageType::WARNING, message).await });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gitignore_files_between_the_root_and_the_file_decide() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().to_path_buf();
        std::fs::create_dir_all(root.join("a/b")).unwrap();
        std::fs::write(root.join(".gitignore"), "build/\n*.tmp.yaml\n").unwrap();
        std::fs::write(root.join("a/.gitignore"), "!keep.tmp.yaml\n").unwrap();
        let roots = [root.clone()];
        assert!(!git_ignored(&roots, &root.join("a/b/x.yaml")));
        assert!(git_ignored(&roots, &root.join("a/x.tmp.yaml")));
        assert!(!git_ignored(&roots, &root.join("a/keep.tmp.yaml")));
        assert!(git_ignored(&roots, &root.join("build/x.yaml")));
        assert!(git_ignored(&roots, Path::new("/elsewhere/x.yaml")));
    }
}
