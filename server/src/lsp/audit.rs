//! SwarmKit's audit log in the editor: each workspace's log is read on a blocking thread when
//! the workspace is indexed, when its settings or the files deciding where the log is change,
//! and when the log file changes (watched: `.swarmkit/audit.sqlite` and its `-wal`). A read
//! fills a bounded recording (`audit::Recorder`) that replaces the last one when done (a SQLite
//! log that is not there yet shows nothing; a log that cannot be read says why); the hover
//! and the lenses answer from the recording they find (`ide::observed`), so no request waits on
//! a read and an edit to a rule is replayed without reading the log again.

use std::collections::{HashMap, HashSet};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use tower_lsp_server::ls_types::*;

use super::state::lock;
use super::{Backend, CLIENT_ANSWER_WAIT};
use crate::audit::Recorder;
use crate::audit_log::{self, Location};
use crate::ide::observed::{self, Logs, ObservedLog};
use crate::index::Index;

/// The globs the editor is asked to watch for the logs in their default place.
pub const WATCH_GLOBS: &[&str] = &["**/.swarmkit/audit.sqlite", "**/.swarmkit/audit.sqlite-wal"];

/// The logs: the last read of each workspace's, and what is being read.
#[derive(Default)]
pub struct AuditLogs {
    /// What requests answer from; replaced, never changed in place, so a request keeps the
    /// snapshot it took.
    logs: Arc<Logs>,
    /// Where each workspace's log is now (`Err`: why that could not be decided), by folder; a
    /// workspace whose reading is off has no entry.
    wanted: HashMap<PathBuf, Result<Location, String>>,
    /// Workspaces whose log is being read, and those to read again once that read is over (the
    /// log changed meanwhile).
    reading: HashSet<PathBuf>,
    again: HashSet<PathBuf>,
}

pub type SharedAuditLogs = Arc<Mutex<AuditLogs>>;

fn lock_logs(logs: &Mutex<AuditLogs>) -> std::sync::MutexGuard<'_, AuditLogs> {
    logs.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Where the log of each workspace of `index` is, as `[audit]` and the runtime's rules decide;
/// workspaces whose reading is off are left out.
fn wanted_logs(index: &Index) -> HashMap<PathBuf, Result<Location, String>> {
    let environment = index.settings.environment.clone();
    let env = |name: &str| environment.get(name).cloned();
    let mut out = HashMap::new();
    for (manifest, root) in observed::workspaces(index) {
        let settings = observed::audit_settings(index, manifest);
        if !settings.enabled {
            continue;
        }
        let place = match settings.log {
            Some((log, dir)) => audit_log::location::configured(&log, &dir, &env),
            None => {
                let text = index.file(manifest).map(|f| &*f.text);
                audit_log::resolve(&root, text, &env).map(|(location, _)| location)
            }
        };
        out.insert(root, place);
    }
    out
}

/// True when `event` is the SQLite log at `path` or its `-wal` or `-journal` file.
fn is_log_file(path: &Path, event: &Path) -> bool {
    if event == path {
        return true;
    }
    ["-wal", "-journal"].iter().any(|suffix| {
        let mut name = OsString::from(path.as_os_str());
        name.push(suffix);
        event.as_os_str() == name
    })
}

/// Reads one log into a recording; runs on a blocking thread. `None` when it is a SQLite file
/// that does not exist (yet): no run recorded, nothing to show.
fn read(location: &Location) -> Option<ObservedLog> {
    if matches!(location, Location::Sqlite(path) if !path.exists()) {
        return None;
    }
    let mut recorder = Recorder::new();
    let read = audit_log::read(location, None, &mut recorder);
    Some(ObservedLog {
        shown: location.display(),
        read: read.map(|stats| {
            let mut recording = recorder.finish();
            // Counted in the database, rows without a pair included.
            recording.rows = stats.rows;
            recording
        }),
    })
}

/// Replays the workspace's rules as they are now through a fresh recording, on the reading
/// thread: the first hover and lenses then answer from what is remembered (an edit to a rule
/// replays that agent again, once).
fn warm(index: &Index, root: &Path, recording: &crate::audit::Recording) {
    for rules in crate::audit::written_rules(index, &[root.to_owned()]) {
        if rules.root == root {
            recording.observe(&rules);
        }
    }
}

impl Backend {
    /// What requests answer from: the logs last read.
    pub(super) fn audit_snapshot(&self) -> Arc<Logs> {
        lock_logs(&self.audit).logs.clone()
    }

    /// Decides again where each workspace's log is, and reads the logs that moved, that are new,
    /// or whose files are among `changed` (paths the disk reported). Returns at once: the reads
    /// run on blocking threads.
    pub(super) fn refresh_audit_logs(&self, changed: &[PathBuf]) {
        let index = lock(&self.state).index.clone();
        let wanted = wanted_logs(&index);
        let mut to_read = Vec::new();
        {
            let mut logs = lock_logs(&self.audit);
            let logs = &mut *logs;
            // Workspaces gone or turned off: their counts go.
            let gone: Vec<PathBuf> = logs
                .logs
                .keys()
                .filter(|root| !wanted.contains_key(*root))
                .cloned()
                .collect();
            if !gone.is_empty() {
                let kept = Arc::make_mut(&mut logs.logs);
                for root in gone {
                    kept.remove(&root);
                }
            }
            for (root, place) in &wanted {
                let moved = logs.wanted.get(root) != Some(place);
                let touched = match place {
                    Ok(Location::Sqlite(path)) => changed.iter().any(|e| is_log_file(path, e)),
                    _ => false,
                };
                if moved || touched {
                    to_read.push(root.clone());
                }
            }
            logs.wanted = wanted;
        }
        for root in to_read {
            self.read_audit_log(root);
        }
    }

    /// Reads one workspace's log on a blocking thread, unless a read of it is under way (then
    /// it is read again once that one is over).
    fn read_audit_log(&self, root: PathBuf) {
        {
            let mut logs = lock_logs(&self.audit);
            if !logs.reading.insert(root.clone()) {
                logs.again.insert(root);
                return;
            }
        }
        let this = self.clone();
        tokio::spawn(async move {
            loop {
                let place = lock_logs(&this.audit).wanted.get(&root).cloned();
                // (what to show, if anything; what to say in the log)
                let (log, message) = match place {
                    None => (None, None),
                    Some(Err(why)) => (
                        Some(ObservedLog {
                            shown: "the workspace's storage settings".to_owned(),
                            read: Err(why.clone()),
                        }),
                        Some(format!("skillgraph: audit log not read: {why}")),
                    ),
                    Some(Ok(location)) => {
                        let reading = location.clone();
                        let index = lock(&this.state).index.clone();
                        let folder = root.clone();
                        let read = tokio::task::spawn_blocking(move || {
                            let log = read(&reading);
                            if let Some(ObservedLog {
                                read: Ok(recording),
                                ..
                            }) = &log
                            {
                                warm(&index, &folder, recording);
                            }
                            log
                        })
                        .await
                        .unwrap_or_else(|error| {
                            Some(ObservedLog {
                                shown: location.display(),
                                read: Err(format!("reading the audit log failed: {error}")),
                            })
                        });
                        let message = match &read {
                            None => format!(
                                "skillgraph: audit log {}: none yet (no runs recorded)",
                                location.display()
                            ),
                            Some(ObservedLog {
                                shown,
                                read: Ok(recording),
                            }) => format!(
                                "skillgraph: audit log {shown} read: {} rows, {} runs kept",
                                recording.rows, recording.runs
                            ),
                            Some(ObservedLog { read: Err(why), .. }) => {
                                format!("skillgraph: audit log not read: {why}")
                            }
                        };
                        (read, Some(message))
                    }
                };
                let again = {
                    let mut logs = lock_logs(&this.audit);
                    let logs = &mut *logs;
                    // Stored only while the workspace still wants it read; a log that is not
                    // there (yet) shows nothing.
                    match log.filter(|_| logs.wanted.contains_key(&root)) {
                        Some(log) => {
                            Arc::make_mut(&mut logs.logs).insert(root.clone(), Arc::new(log));
                        }
                        None => {
                            if logs.logs.contains_key(&root) {
                                Arc::make_mut(&mut logs.logs).remove(&root);
                            }
                        }
                    }
                    let again = logs.again.remove(&root);
                    if !again {
                        logs.reading.remove(&root);
                    }
                    again
                };
                if let Some(message) = message {
                    this.log(MessageType::LOG, message).await;
                }
                this.refresh_lenses().await;
                if !again {
                    break;
                }
            }
        });
    }

    /// Asks the editor to ask for the code lenses again, when it can be asked.
    async fn refresh_lenses(&self) {
        if !lock(&self.state).offers.code_lens_refresh {
            return;
        }
        let _ = tokio::time::timeout(CLIENT_ANSWER_WAIT, self.client.code_lens_refresh()).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_log_file_is_the_database_or_its_journal() {
        let log = Path::new("/ws/.swarmkit/audit.sqlite");
        assert!(is_log_file(log, log));
        assert!(is_log_file(
            log,
            Path::new("/ws/.swarmkit/audit.sqlite-wal")
        ));
        assert!(is_log_file(
            log,
            Path::new("/ws/.swarmkit/audit.sqlite-journal")
        ));
        assert!(!is_log_file(
            log,
            Path::new("/ws/.swarmkit/audit.sqlite-shm")
        ));
        assert!(!is_log_file(
            log,
            Path::new("/other/.swarmkit/audit.sqlite")
        ));
    }

    #[test]
    fn each_workspace_wants_its_log_unless_turned_off() {
        let mut index = crate::testing::index_of(
            "//- /a/workspace.yaml\napiVersion: swarmkit/v1\nkind: Workspace\nmetadata: {id: a, name: A}\n\
             //- /b/workspace.yaml\napiVersion: swarmkit/v1\nkind: Workspace\nmetadata: {id: b, name: B}\n\
             //- /b/skillgraph.toml\n[audit]\nlog = \"${LOGS}/b.sqlite\"\n\
             //- /c/workspace.yaml\napiVersion: swarmkit/v1\nkind: Workspace\nmetadata: {id: c, name: C}\n\
             //- /c/skillgraph.toml\n[audit]\nenabled = false\n\
             //- /d/workspace.yaml\napiVersion: swarmkit/v1\nkind: Workspace\nmetadata: {id: d, name: D}\n\
             //- /d/skillgraph.toml\n[audit]\nlog = \"relative/log.sqlite\"\n",
        );
        let mut settings = index.settings.clone();
        settings.environment = Arc::new([("LOGS".to_owned(), "/var/logs".to_owned())].into());
        index.set_settings(settings);
        let wanted = wanted_logs(&index);
        let at = |root: &str| wanted.get(Path::new(root)).cloned();
        assert_eq!(
            at("/a"),
            Some(Ok(Location::Sqlite(PathBuf::from(
                "/a/.swarmkit/audit.sqlite"
            ))))
        );
        assert_eq!(
            at("/b"),
            Some(Ok(Location::Sqlite(PathBuf::from("/var/logs/b.sqlite"))))
        );
        assert_eq!(at("/c"), None);
        assert_eq!(
            at("/d"),
            Some(Ok(Location::Sqlite(PathBuf::from(
                "/d/relative/log.sqlite"
            ))))
        );
        // The editor's setting applies where no file says otherwise.
        let (editor, _) = crate::model::config::Config::parse(
            crate::diagnostic::FileId(u32::MAX),
            "[audit]\nenabled = false\n",
        );
        let mut settings = index.settings.clone();
        settings.config = Some(editor);
        index.set_settings(settings);
        // Key by key: `/b`'s file names a log but does not say `enabled`, so the editor's
        // `enabled = false` turns it off too.
        assert!(wanted_logs(&index).is_empty());
    }
}
