//! The server's state and how diagnostics reach the client.
//!
//! State lives behind one `std::sync::Mutex`: notifications apply their edits synchronously, in
//! arrival order, before anything awaits; requests clone an `Arc` of the index (a snapshot) and
//! answer from it without holding the lock. Diagnostics go out through one channel drained by one
//! task, so they reach the client in the order they were computed.

use std::collections::{BTreeMap, HashMap};
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
    /// While a batch (an indexing) is analysed without the lock: the changes applied meanwhile,
    /// to apply again on top of the batch before it is swapped in.
    pub replay: Option<Vec<Change>>,
}

impl State {
    /// A state with nothing indexed; `${…}` references read `environment` until the editor's
    /// settings say otherwise.
    pub fn new(environment: Arc<BTreeMap<String, String>>) -> State {
        State {
            index: Arc::new(Index::with_environment(&crate::rules::CHECKS, environment)),
            encoding: PositionEncoding::Utf16,
            roots: Vec::new(),
            open: HashMap::new(),
            published: HashMap::new(),
            indexed: false,
            offers: ClientOffers::default(),
            replay: None,
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
    /// Asks a client that pulls diagnostics to pull again.
    Refresh,
    /// Answered once everything queued before it has been sent.
    Flushed(tokio::sync::oneshot::Sender<()>),
}

/// Starts the task that sends diagnostics in the order they were queued. It never waits for
/// the client: a refresh request is sent by a task of its own (see [`Refresher`]).
pub fn start_publisher(client: Client) -> mpsc::UnboundedSender<Outgoing> {
    let (publisher, mut queue) = mpsc::unbounded_channel::<Outgoing>();
    let refresher = Refresher::new(client.clone());
    tokio::spawn(async move {
        while let Some(message) = queue.recv().await {
            match message {
                Outgoing::Publish(p) => {
                    client
                        .publish_diagnostics(p.uri, p.diagnostics, p.version)
                        .await
                }
                Outgoing::Refresh => refresher.ask(),
                Outgoing::Flushed(done) => {
                    let _ = done.send(());
                }
            }
        }
    });
    publisher
}

/// Sends `workspace/diagnostic/refresh`, one at a time: asked again while one is unanswered,
/// it sends one more once the client answers (or [`super::CLIENT_ANSWER_WAIT`] passes), since
/// the edits since the first may have changed other files again.
struct Refresher {
    client: Client,
    /// (a refresh is unanswered, another was asked for meanwhile)
    asked: Arc<Mutex<(bool, bool)>>,
}

impl Refresher {
    fn new(client: Client) -> Refresher {
        Refresher {
            client,
            asked: Arc::new(Mutex::new((false, false))),
        }
    }

    fn ask(&self) {
        {
            let mut asked = self.asked.lock().unwrap_or_else(|p| p.into_inner());
            if asked.0 {
                asked.1 = true;
                return;
            }
            *asked = (true, false);
        }
        let client = self.client.clone();
        let asked = self.asked.clone();
        tokio::spawn(async move {
            loop {
                let _ = tokio::time::timeout(
                    super::CLIENT_ANSWER_WAIT,
                    client.workspace_diagnostic_refresh(),
                )
                .await;
                let mut asked = asked.lock().unwrap_or_else(|p| p.into_inner());
                if !asked.1 {
                    asked.0 = false;
                    return;
                }
                asked.1 = false;
            }
        });
    }
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
    /// a panic inside it costs this change, never the index. The copy is O(1) (the index's
    /// tables are persistent maps, shared until written), so an edit does not pay for the size
    /// of the workspace.
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
        let recorded = state.replay.is_some().then(|| changes.clone());
        let mut next = Index::clone(&state.index);
        let analysed = catch_unwind(AssertUnwindSafe(|| {
            let affected = next.apply(changes);
            super::panic_on_request_for_tests(what);
            super::stall_for_tests(what);
            affected
        }));
        let affected = analysed.map_err(|payload| {
            format!(
                "{} while analysing {files}; the index is as it was before",
                panic_message(payload.as_ref())
            )
        })?;
        state.index = Arc::new(next);
        if let (Some(replay), Some(recorded)) = (&mut state.replay, recorded) {
            replay.extend(recorded);
        }
        if state.indexed {
            catch_unwind(AssertUnwindSafe(|| self.publish(state, affected)))
                .map_err(|payload| panic_message(payload.as_ref()))?;
        }
        Ok(())
    }

    /// Applies a large batch read from disk (an indexing) without holding the lock while it is
    /// analysed, on the calling thread (a blocking one): requests keep answering from the index
    /// as it was, and documents opened or edited meanwhile are analysed at once. What was applied
    /// meanwhile (edits, settings) is applied again on top of the batch before it is swapped in,
    /// so nothing is lost. `initial`: the initial indexing, after which diagnostics go out.
    /// Returns how many files are checked, and what failed.
    pub(super) fn apply_batch(
        &self,
        what: &str,
        changes: Vec<Change>,
        initial: bool,
    ) -> (usize, Result<(), String>) {
        // One batch at a time: each replays what came while it was analysed.
        let _one_at_a_time = self
            .batch_order
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let (base, changes) = {
            let mut state = lock(&self.state);
            state.replay = Some(Vec::new());
            (state.index.clone(), state.keep_editor_text(changes))
        };
        let files = match changes.len() {
            0 => "nothing".to_owned(),
            1 => changes[0].path().display().to_string(),
            n => format!("{} and {} more files", changes[0].path().display(), n - 1),
        };
        let analysed = catch_unwind(AssertUnwindSafe(|| {
            let mut next = Index::clone(&base);
            let affected = next.apply(changes);
            super::panic_on_request_for_tests(what);
            (next, affected)
        }));
        drop(base);
        let mut state = lock(&self.state);
        let state = &mut *state;
        let replay = state.replay.take().unwrap_or_default();
        let result = analysed
            .map_err(|payload| {
                format!(
                    "{} while analysing {files}; the index is as it was before",
                    panic_message(payload.as_ref())
                )
            })
            .and_then(|(mut next, mut affected)| {
                let settings = state.index.settings.clone();
                let caught_up = catch_unwind(AssertUnwindSafe(|| {
                    if next.settings != settings {
                        affected.extend(next.set_settings(settings));
                    }
                    // Not for nothing: `apply` builds the readers table first (see
                    // `settle_readers_after_indexing`).
                    if !replay.is_empty() {
                        affected.extend(next.apply(replay));
                    }
                    (next, affected)
                }));
                let (next, affected) = caught_up.map_err(|payload| {
                    format!(
                        "{} while applying the edits made during the analysis of {files}; the index is as it was before",
                        panic_message(payload.as_ref())
                    )
                })?;
                let before = std::mem::replace(&mut state.index, Arc::new(next));
                // A file new to the index may have another id in the batch's index than in
                // the one it replaces: what the client was told is carried over by path.
                let published = std::mem::take(&mut state.published);
                for (old, (uri, diagnostics)) in published {
                    match before.file(old).and_then(|f| state.index.file_id(&f.path)) {
                        Some(id) => {
                            state.published.insert(id, (uri, diagnostics));
                        }
                        None if state.offers.pull_diagnostics => {}
                        None => self.send(uri, Vec::new(), None),
                    }
                }
                if state.indexed {
                    catch_unwind(AssertUnwindSafe(|| self.publish(state, affected)))
                        .map_err(|payload| panic_message(payload.as_ref()))?;
                }
                Ok(())
            });
        let result = if initial {
            state.indexed = true;
            let all: Vec<FileId> = state.index.files().map(|f| f.id).collect();
            let published = catch_unwind(AssertUnwindSafe(|| self.publish(state, all)))
                .map_err(|payload| panic_message(payload.as_ref()));
            result.and(published)
        } else {
            result
        };
        (state.index.checked_file_count(), result)
    }

    /// Builds the readers table (which files read which key, `Index::settle_readers`) of the
    /// index an indexing left, off the lock, once the client has been told the server is ready:
    /// a `check` never needs it, and the server needs it only for its first change, so it is
    /// no part of the time to ready. A change that comes first builds it itself, on its copy,
    /// and this copy is then dropped. Runs on a blocking thread.
    pub(super) fn settle_readers_after_indexing(&self) {
        let base = lock(&self.state).index.clone();
        let mut next = Index::clone(&base);
        if catch_unwind(AssertUnwindSafe(|| next.settle_readers())).is_err() {
            return; // the next change builds it, under its own guard
        }
        let mut state = lock(&self.state);
        if Arc::ptr_eq(&state.index, &base) {
            state.index = Arc::new(next);
        }
    }

    /// Sends the diagnostics of `files` that differ from what the client last saw. A client
    /// that pulls diagnostics gets none pushed (LSP 3.17: pull replaces push); it is asked to
    /// pull again instead, when it supports that, since an edit can change other files' results.
    pub(super) fn publish(&self, state: &mut State, files: impl IntoIterator<Item = FileId>) {
        let pull = state.offers.pull_diagnostics;
        let mut changed = false;
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
                changed = true;
                if !pull {
                    self.send(uri, Vec::new(), None);
                }
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
            changed = true;
            if !pull {
                self.send(uri, diagnostics, version);
            }
        }
        if pull && changed && state.offers.diagnostic_refresh {
            let _ = self.publisher.send(Outgoing::Refresh);
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
