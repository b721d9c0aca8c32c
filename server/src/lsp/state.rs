//! The server's state and how diagnostics reach the client.
//!
//! State lives behind one `std::sync::Mutex`: notifications apply their edits synchronously, in
//! arrival order, before anything awaits; requests clone an `Arc` of the index (a snapshot) and
//! answer from it without holding the lock. Diagnostics go out through one channel drained by one
//! task, so they reach the client in the order they were computed.

use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};

use ropey::Rope;
use tokio::sync::mpsc;
use tower_lsp_server::ls_types::*;
use tower_lsp_server::Client;

use super::capabilities::ClientOffers;
use super::{convert, Backend};
use crate::diagnostic::FileId;
use crate::index::{Change, Index};
use crate::syntax::PositionEncoding;

pub struct OpenDocument {
    pub rope: Rope,
    pub version: i32,
}

pub struct State {
    pub index: Arc<Index>,
    pub encoding: PositionEncoding,
    pub roots: Vec<PathBuf>,
    pub open: HashMap<PathBuf, OpenDocument>,
    /// What the client was last told per file: its URI and diagnostics (never empty here).
    pub published: HashMap<FileId, (Uri, Vec<Diagnostic>)>,
    /// Diagnostics are held back until the initial indexing is done, so the client never sees
    /// the unknown-id errors of a half-read workspace.
    pub indexed: bool,
    pub offers: ClientOffers,
}

impl State {
    pub fn new() -> State {
        State {
            index: Arc::new(Index::new()),
            encoding: PositionEncoding::Utf16,
            roots: Vec::new(),
            open: HashMap::new(),
            published: HashMap::new(),
            indexed: false,
            offers: ClientOffers::default(),
        }
    }

    /// Drops changes to documents open in the editor: its text wins over the disk's.
    pub fn keep_editor_text(&self, changes: Vec<Change>) -> Vec<Change> {
        changes
            .into_iter()
            .filter(|c| !self.open.contains_key(c.path()))
            .collect()
    }
}

pub fn lock(state: &Mutex<State>) -> MutexGuard<'_, State> {
    // A panic while holding the lock (caught and logged) must not take the server down with it.
    state
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_owned())
}

/// What the diagnostics task sends, in order.
pub enum Outgoing {
    Publish(PublishDiagnosticsParams),
    /// Answered once everything queued before it has been sent.
    Flushed(tokio::sync::oneshot::Sender<()>),
}

/// Starts the task that sends diagnostics in the order they were queued.
pub fn start_publisher(client: Client) -> mpsc::UnboundedSender<Outgoing> {
    let (publisher, mut queue) = mpsc::unbounded_channel::<Outgoing>();
    tokio::spawn(async move {
        while let Some(message) = queue.recv().await {
            match message {
                Outgoing::Publish(p) => {
                    client
                        .publish_diagnostics(p.uri, p.diagnostics, p.version)
                        .await
                }
                Outgoing::Flushed(done) => {
                    let _ = done.send(());
                }
            }
        }
    });
    publisher
}

impl Backend {
    /// Applies changes and queues the diagnostics that changed. Synchronous on purpose: callers
    /// run it before their first await, so edits apply in arrival order. `what` names the cause
    /// in logs.
    pub(super) fn apply(&self, what: &str, changes: Vec<Change>) -> Result<(), String> {
        if changes.is_empty() {
            return Ok(());
        }
        let mut state = lock(&self.state);
        self.apply_locked(what, &mut state, changes)
    }

    /// Applies what was read from disk, except for documents open in the editor (they may have
    /// been opened while the disk was read).
    pub(super) fn apply_from_disk(&self, what: &str, changes: Vec<Change>) -> Result<(), String> {
        let mut state = lock(&self.state);
        let changes = state.keep_editor_text(changes);
        self.apply_locked(what, &mut state, changes)
    }

    /// Applies changes on a copy of the index and swaps it in only when the analysis finished:
    /// a panic inside it costs this change, never the index (the copy shares every file entry).
    pub(super) fn apply_locked(
        &self,
        what: &str,
        state: &mut State,
        changes: Vec<Change>,
    ) -> Result<(), String> {
        if changes.is_empty() {
            return Ok(());
        }
        let first = changes[0].path().display().to_string();
        let files = match changes.len() {
            1 => first,
            n => format!("{first} and {} more files", n - 1),
        };
        let mut next = Index::clone(&state.index);
        let analysed = catch_unwind(AssertUnwindSafe(|| {
            let affected = next.apply(changes);
            super::panic_on_request_for_tests(what);
            affected
        }));
        let affected = analysed.map_err(|payload| {
            format!(
                "{} while analysing {files}; the index is as it was before",
                panic_message(payload.as_ref())
            )
        })?;
        state.index = Arc::new(next);
        if state.indexed {
            catch_unwind(AssertUnwindSafe(|| self.publish(state, affected)))
                .map_err(|payload| panic_message(payload.as_ref()))?;
        }
        Ok(())
    }

    /// Sends the diagnostics of `files` that differ from what the client last saw.
    pub(super) fn publish(&self, state: &mut State, files: impl IntoIterator<Item = FileId>) {
        let index = state.index.clone();
        let mut files: Vec<FileId> = files.into_iter().collect();
        files.sort();
        files.dedup();
        // Files gone from the index first: a file deleted and recreated has a new id, and its
        // new diagnostics must arrive after the old ones are cleared.
        let (gone, present): (Vec<FileId>, Vec<FileId>) =
            files.into_iter().partition(|f| index.file(*f).is_none());
        for file in gone {
            if let Some((uri, _)) = state.published.remove(&file) {
                self.send(uri, Vec::new(), None);
            }
        }
        for file in present {
            let Some(entry) = index.file(file) else {
                continue;
            };
            let diagnostics: Vec<Diagnostic> = index
                .diagnostics(file)
                .iter()
                .map(|d| convert::diagnostic(&index, d, state.encoding))
                .collect();
            let before = state.published.get(&file).map(|(_, d)| d);
            if before.map_or(diagnostics.is_empty(), |b| *b == diagnostics) {
                continue;
            }
            let Some(uri) = convert::uri_of(&entry.path) else {
                continue;
            };
            let version = state.open.get(&entry.path).map(|d| d.version);
            if diagnostics.is_empty() {
                state.published.remove(&file);
            } else {
                state
                    .published
                    .insert(file, (uri.clone(), diagnostics.clone()));
            }
            self.send(uri, diagnostics, version);
        }
    }

    fn send(&self, uri: Uri, diagnostics: Vec<Diagnostic>, version: Option<i32>) {
        let _ = self
            .publisher
            .send(Outgoing::Publish(PublishDiagnosticsParams {
                uri,
                diagnostics,
                version,
            }));
    }

    /// Waits until every diagnostic queued so far has gone out.
    pub(super) async fn flush(&self) {
        let (done, sent) = tokio::sync::oneshot::channel();
        if self.publisher.send(Outgoing::Flushed(done)).is_ok() {
            let _ = sent.await;
        }
    }

    pub(super) async fn log_failure(&self, what: &str, result: Result<(), String>) {
        if let Err(message) = result {
            self.log(
                MessageType::ERROR,
                format!("skillgraph: {what} failed: {message}"),
            )
            .await;
        }
    }

    pub(super) async fn log(&self, level: MessageType, message: String) {
        self.client.log_message(level, message).await;
    }

    /// The snapshot a request reads: the index and the encoding, without holding the lock.
    pub(super) fn snapshot(&self) -> (Arc<Index>, PositionEncoding) {
        let state = lock(&self.state);
        (state.index.clone(), state.encoding)
    }
}
