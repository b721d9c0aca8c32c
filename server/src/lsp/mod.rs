//! The language server: tower-lsp-server glue, and the one place LSP types appear.
//!
//! State lives behind one `std::sync::Mutex`: notifications apply their edits synchronously, in
//! arrival order, before anything awaits; requests clone an `Arc` of the index (a snapshot) and
//! answer from it without holding the lock. Diagnostics go out through one channel drained by one
//! task, so they reach the client in the order they were computed.
//!
//! Decisions a user may notice:
//! - Position encoding: UTF-8 when the client offers it, else UTF-16.
//! - Diagnostics are pushed for every file that has any, open or not, and only when they change;
//!   they are held back until the initial indexing is done (no flood of unknown-id errors from a
//!   half-read workspace), and that first batch goes out before the indexing progress ends.
//! - An open document's text wins over the disk: watched-file events for it are ignored, and
//!   closing it re-reads the disk (or removes the file if it is gone).
//! - A document opened outside every workspace folder brings in the SwarmKit workspace around it
//!   (the nearest `workspace.yaml` up to four directories above), so its ids resolve.
//! - Settings: `initializationOptions` and `workspace/didChangeConfiguration` take the keys of
//!   `skillgraph.toml` (at the top or under `skillgraph`). They act as the config of files with
//!   no `skillgraph.toml` above them (strictness, extra fields, the tool inventory, whose list
//!   paths must then be absolute); `[rules]` levels of a file config win over the editor's.

mod convert;

use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use ropey::Rope;
use tokio::sync::mpsc;
use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::*;
use tower_lsp_server::{Client, LanguageServer, LspService, Server};

use crate::diagnostic::FileId;
use crate::index::{Change, Index, Settings};
use crate::model::config::Config;
use crate::syntax::PositionEncoding;

/// Runs the server on stdin/stdout until the client says `exit`.
pub fn run() -> ExitCode {
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("skillgraph lsp: cannot start the async runtime: {error}");
            return ExitCode::from(2);
        }
    };
    let clean = Arc::new(AtomicBool::new(false));
    let shut_down = clean.clone();
    runtime.block_on(async move {
        let (service, socket) = LspService::new(move |client| Backend::new(client, shut_down));
        Server::new(tokio::io::stdin(), tokio::io::stdout(), socket)
            .serve(service)
            .await;
    });
    // Exit quickly even if a blocking task (initial indexing) is still running.
    runtime.shutdown_background();
    // LSP: exit code 0 when `shutdown` came before `exit`, else 1.
    if clean.load(Ordering::SeqCst) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

struct OpenDocument {
    rope: Rope,
    version: i32,
}

struct State {
    index: Arc<Index>,
    encoding: PositionEncoding,
    roots: Vec<PathBuf>,
    open: HashMap<PathBuf, OpenDocument>,
    /// What the client was last told per file: its URI and diagnostics (never empty here).
    published: HashMap<FileId, (Uri, Vec<Diagnostic>)>,
    /// Diagnostics are held back until the initial indexing is done, so the client never sees
    /// the unknown-id errors of a half-read workspace.
    indexed: bool,
    watch_dynamic: bool,
    work_done_progress: bool,
    /// The client answers `workspace/configuration`.
    pull_configuration: bool,
}

/// What the diagnostics task sends, in order.
enum Outgoing {
    Publish(PublishDiagnosticsParams),
    /// Answered once everything queued before it has been sent.
    Flushed(tokio::sync::oneshot::Sender<()>),
}

struct Backend {
    client: Client,
    state: Mutex<State>,
    publisher: mpsc::UnboundedSender<Outgoing>,
    shut_down: Arc<AtomicBool>,
}

fn lock(state: &Mutex<State>) -> MutexGuard<'_, State> {
    // A panic while holding the lock (caught and logged) must not take the server down with it.
    state
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A file discovery would have picked up: a YAML file, a SKILL.md or a config, outside the
/// directories never looked into (`.git`, `node_modules`, `target`).
fn may_be_ours(roots: &[PathBuf], path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    !in_skipped_directory(roots, path)
        && (name == "SKILL.md"
            || name == "skillgraph.toml"
            || crate::index::classify::is_yaml(path)
            || crate::index::classify::is_json(path))
}

/// True below `.git`, `node_modules` or `target` inside a root (the root's own location does
/// not count: a project may well live under a directory called `target`).
fn in_skipped_directory(roots: &[PathBuf], path: &Path) -> bool {
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

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_owned())
}

/// Debug builds only: `SKILLGRAPH_TEST_PANIC=hover` (any request name) makes the first such
/// request panic, so the end-to-end tests can prove a panic is caught, logged and answered as an
/// error for that request alone. Release builds compile this to nothing.
fn panic_on_request_for_tests(what: &str) {
    #[cfg(debug_assertions)]
    {
        static PANICKED: AtomicBool = AtomicBool::new(false);
        if std::env::var("SKILLGRAPH_TEST_PANIC").is_ok_and(|v| v == what)
            && !PANICKED.swap(true, Ordering::SeqCst)
        {
            panic!("SKILLGRAPH_TEST_PANIC={what}");
        }
    }
    #[cfg(not(debug_assertions))]
    let _ = what;
}

impl Backend {
    fn new(client: Client, shut_down: Arc<AtomicBool>) -> Backend {
        let (publisher, mut queue) = mpsc::unbounded_channel::<Outgoing>();
        let sender = client.clone();
        tokio::spawn(async move {
            while let Some(message) = queue.recv().await {
                match message {
                    Outgoing::Publish(p) => {
                        sender
                            .publish_diagnostics(p.uri, p.diagnostics, p.version)
                            .await
                    }
                    Outgoing::Flushed(done) => {
                        let _ = done.send(());
                    }
                }
            }
        });
        Backend {
            client,
            state: Mutex::new(State {
                index: Arc::new(Index::new()),
                encoding: PositionEncoding::Utf16,
                roots: Vec::new(),
                open: HashMap::new(),
                published: HashMap::new(),
                indexed: false,
                watch_dynamic: false,
                work_done_progress: false,
                pull_configuration: false,
            }),
            publisher,
            shut_down,
        }
    }

    /// Applies changes and queues the diagnostics that changed. Synchronous on purpose: callers
    /// run it before their first await, so edits apply in arrival order.
    fn apply(&self, changes: Vec<Change>) -> std::result::Result<(), String> {
        if changes.is_empty() {
            return Ok(());
        }
        let mut state = lock(&self.state);
        let state = &mut *state;
        catch_unwind(AssertUnwindSafe(|| {
            let affected = Arc::make_mut(&mut state.index).apply(changes);
            if state.indexed {
                self.publish(state, affected);
            }
        }))
        .map_err(|payload| panic_message(payload.as_ref()))
    }

    /// Sends the diagnostics of `files` that differ from what the client last saw.
    fn publish(&self, state: &mut State, files: impl IntoIterator<Item = FileId>) {
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
    async fn flush(&self) {
        let (done, sent) = tokio::sync::oneshot::channel();
        if self.publisher.send(Outgoing::Flushed(done)).is_ok() {
            let _ = sent.await;
        }
    }

    async fn log_failure(&self, what: &str, result: std::result::Result<(), String>) {
        if let Err(message) = result {
            self.client
                .log_message(
                    MessageType::ERROR,
                    format!("skillgraph: {what} failed: {message}"),
                )
                .await;
        }
    }

    /// The snapshot a request reads: the index and the encoding, without holding the lock.
    fn snapshot(&self) -> (Arc<Index>, PositionEncoding) {
        let state = lock(&self.state);
        (state.index.clone(), state.encoding)
    }

    /// Runs a request against a snapshot, at the document position it names. Unknown documents
    /// and positions past the end answer `None`; a panic answers an error for this request only.
    async fn at_position<T>(
        &self,
        what: &str,
        document: &TextDocumentPositionParams,
        f: impl FnOnce(&Index, FileId, u32, PositionEncoding) -> Option<T>,
    ) -> Result<Option<T>> {
        let (index, encoding) = self.snapshot();
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            panic_on_request_for_tests(what);
            let path = convert::path_of(&document.text_document.uri)?;
            let file = index.file_id(&path)?;
            let offset = convert::offset(&index, file, document.position, encoding)?;
            f(&index, file, offset, encoding)
        }));
        self.answer(what, outcome).await
    }

    async fn answer<T>(
        &self,
        what: &str,
        outcome: std::thread::Result<Option<T>>,
    ) -> Result<Option<T>> {
        match outcome {
            Ok(value) => Ok(value),
            Err(payload) => {
                let message = panic_message(payload.as_ref());
                self.client
                    .log_message(
                        MessageType::ERROR,
                        format!("skillgraph: {what} panicked: {message}"),
                    )
                    .await;
                let mut error = Error::internal_error();
                error.message = format!("skillgraph: {what} failed: {message}").into();
                Err(error)
            }
        }
    }

    async fn index_workspace(&self) {
        let (roots, progress_supported) = {
            let state = lock(&self.state);
            (state.roots.clone(), state.work_done_progress)
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
                self.client
                    .log_message(
                        MessageType::ERROR,
                        format!("skillgraph: indexing failed: {error}"),
                    )
                    .await;
                (Vec::new(), Vec::new())
            }
        };
        for error in &errors {
            self.client
                .log_message(
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
            let changes: Vec<Change> = changes
                .into_iter()
                .filter(|c| match c {
                    Change::Set { path, .. } | Change::Remove { path } => {
                        !state.open.contains_key(path)
                    }
                })
                .collect();
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

    async fn register_watchers(&self) {
        if !lock(&self.state).watch_dynamic {
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
            self.client
                .log_message(
                    MessageType::WARNING,
                    format!("skillgraph: cannot watch files: {error}"),
                )
                .await;
        }
    }

    /// Replaces the settings and republishes every file whose diagnostics they change.
    async fn apply_settings(&self, options: &serde_json::Value) {
        let Some((settings, problems)) = settings_from(options) else {
            return;
        };
        for problem in problems {
            self.client
                .log_message(
                    MessageType::WARNING,
                    format!("skillgraph settings: {problem}"),
                )
                .await;
        }
        let result = {
            let mut state = lock(&self.state);
            let state = &mut *state;
            if state.index.settings == settings {
                return;
            }
            catch_unwind(AssertUnwindSafe(|| {
                let all = Arc::make_mut(&mut state.index).set_settings(settings);
                if state.indexed {
                    self.publish(state, all);
                }
            }))
            .map_err(|payload| panic_message(payload.as_ref()))
        };
        self.log_failure("settings", result).await;
    }

    /// Reads new roots from disk and indexes them (documents open in the editor keep its text).
    async fn index_roots(&self, roots: Vec<PathBuf>) {
        if roots.is_empty() {
            return;
        }
        let found = tokio::task::spawn_blocking(move || crate::discover::discover(&roots)).await;
        let Ok((found, _)) = found else {
            return;
        };
        let found: Vec<Change> = {
            let state = lock(&self.state);
            found
                .into_iter()
                .filter(|c| match c {
                    Change::Set { path, .. } | Change::Remove { path } => {
                        !state.open.contains_key(path)
                    }
                })
                .collect()
        };
        let result = self.apply(found);
        self.log_failure("indexing", result).await;
    }

    /// A document opened outside every root (an editor started on a single file): the SwarmKit
    /// workspace around it becomes a root, so its ids resolve.
    fn root_for_stray(&self, path: &Path) -> Option<PathBuf> {
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

    /// The text of a file as the disk has it, or its removal.
    fn from_disk(path: &Path) -> Change {
        match crate::discover::read_one(path) {
            Ok(change) => change,
            Err(_) => Change::Remove {
                path: path.to_owned(),
            },
        }
    }
}

/// Settings from `initializationOptions` or `workspace/configuration`: the keys of
/// `skillgraph.toml`, either at the top or under a `skillgraph` section. `None` when there are
/// none; otherwise the settings and what was wrong with them.
fn settings_from(options: &serde_json::Value) -> Option<(Settings, Vec<String>)> {
    let section = options.get("skillgraph").unwrap_or(options);
    let object = section.as_object()?;
    // JSON nulls have no TOML form; a null key means "not set".
    let object: serde_json::Map<String, serde_json::Value> = object
        .iter()
        .filter(|(_, v)| !v.is_null())
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let text = match toml::to_string(&object) {
        Ok(text) => text,
        Err(error) => {
            return Some((
                Settings::default(),
                vec![format!(
                    "the settings are not a table of skillgraph.toml keys: {error}"
                )],
            ))
        }
    };
    let (config, problems) = Config::parse(FileId(u32::MAX), &text);
    let settings = Settings {
        severity_overrides: config.rules.iter().cloned().collect(),
        config: Some(config),
    };
    Some((settings, problems.into_iter().map(|d| d.message).collect()))
}

fn negotiate_encoding(params: &InitializeParams) -> PositionEncoding {
    let offered = params
        .capabilities
        .general
        .as_ref()
        .and_then(|g| g.position_encodings.as_ref());
    match offered {
        Some(list) if list.contains(&PositionEncodingKind::UTF8) => PositionEncoding::Utf8,
        _ => PositionEncoding::Utf16,
    }
}

#[allow(deprecated)] // `root_uri` / `root_path`: older clients send only those.
fn workspace_roots(params: &InitializeParams) -> Vec<PathBuf> {
    if let Some(folders) = &params.workspace_folders {
        return folders
            .iter()
            .filter_map(|f| convert::path_of(&f.uri))
            .collect();
    }
    if let Some(path) = params.root_uri.as_ref().and_then(convert::path_of) {
        return vec![path];
    }
    params
        .root_path
        .as_ref()
        .map(|p| vec![PathBuf::from(p)])
        .unwrap_or_default()
}

impl LanguageServer for Backend {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        let encoding = negotiate_encoding(&params);
        {
            let mut state = lock(&self.state);
            state.encoding = encoding;
            state.roots = workspace_roots(&params);
            state.watch_dynamic = params
                .capabilities
                .workspace
                .as_ref()
                .and_then(|w| w.did_change_watched_files.as_ref())
                .and_then(|w| w.dynamic_registration)
                .unwrap_or(false);
            state.work_done_progress = params
                .capabilities
                .window
                .as_ref()
                .and_then(|w| w.work_done_progress)
                .unwrap_or(false);
            state.pull_configuration = params
                .capabilities
                .workspace
                .as_ref()
                .and_then(|w| w.configuration)
                .unwrap_or(false);
        }
        if let Some(options) = &params.initialization_options {
            self.apply_settings(options).await;
        }
        Ok(InitializeResult {
            capabilities: ServerCapabilities {
                position_encoding: Some(match encoding {
                    PositionEncoding::Utf8 => PositionEncodingKind::UTF8,
                    PositionEncoding::Utf16 => PositionEncodingKind::UTF16,
                }),
                text_document_sync: Some(TextDocumentSyncCapability::Options(
                    TextDocumentSyncOptions {
                        open_close: Some(true),
                        change: Some(TextDocumentSyncKind::INCREMENTAL),
                        save: Some(TextDocumentSyncSaveOptions::Supported(true)),
                        ..Default::default()
                    },
                )),
                hover_provider: Some(HoverProviderCapability::Simple(true)),
                definition_provider: Some(OneOf::Left(true)),
                declaration_provider: Some(DeclarationCapability::Simple(true)),
                references_provider: Some(OneOf::Left(true)),
                document_symbol_provider: Some(OneOf::Left(true)),
                completion_provider: Some(CompletionOptions::default()),
                workspace_symbol_provider: Some(OneOf::Left(true)),
                workspace: Some(WorkspaceServerCapabilities {
                    workspace_folders: Some(WorkspaceFoldersServerCapabilities {
                        supported: Some(true),
                        change_notifications: Some(OneOf::Left(true)),
                    }),
                    file_operations: None,
                }),
                ..Default::default()
            },
            server_info: Some(ServerInfo {
                name: "skillgraph".to_owned(),
                version: Some(env!("CARGO_PKG_VERSION").to_owned()),
            }),
            offset_encoding: None,
        })
    }

    async fn initialized(&self, _: InitializedParams) {
        self.index_workspace().await;
        self.register_watchers().await;
    }

    async fn shutdown(&self) -> Result<()> {
        self.shut_down.store(true, Ordering::SeqCst);
        Ok(())
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        let document = params.text_document;
        let Some(path) = convert::path_of(&document.uri) else {
            return;
        };
        let rope = Rope::from_str(&document.text);
        lock(&self.state).open.insert(
            path.clone(),
            OpenDocument {
                rope,
                version: document.version,
            },
        );
        let result = self.apply(vec![Change::Set {
            path: path.clone(),
            text: document.text,
        }]);
        self.log_failure("didOpen", result).await;
        if let Some(root) = self.root_for_stray(&path) {
            self.index_roots(vec![root]).await;
        }
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        let Some(path) = convert::path_of(&params.text_document.uri) else {
            return;
        };
        let text = {
            let mut state = lock(&self.state);
            let encoding = state.encoding;
            let Some(document) = state.open.get_mut(&path) else {
                return; // a change to a document never opened: nothing to apply it to
            };
            let applied = catch_unwind(AssertUnwindSafe(|| {
                for change in &params.content_changes {
                    convert::apply_change(&mut document.rope, change, encoding);
                }
            }));
            document.version = params.text_document.version;
            applied.map(|_| document.rope.to_string())
        };
        let Ok(text) = text else {
            let failure = Err("an edit did not fit the document".to_owned());
            self.log_failure("didChange", failure).await;
            return;
        };
        let result = self.apply(vec![Change::Set { path, text }]);
        self.log_failure("didChange", result).await;
    }

    async fn did_save(&self, _: DidSaveTextDocumentParams) {
        // The edits already arrived through didChange; the disk now agrees with them.
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        let Some(path) = convert::path_of(&params.text_document.uri) else {
            return;
        };
        lock(&self.state).open.remove(&path);
        // Closing without saving leaves the disk's text in force (or no file at all).
        let result = self.apply(vec![Backend::from_disk(&path)]);
        self.log_failure("didClose", result).await;
    }

    async fn did_change_watched_files(&self, params: DidChangeWatchedFilesParams) {
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
                    changes.extend(found.into_iter().filter(|c| match c {
                        Change::Set { path, .. } | Change::Remove { path } => {
                            !state.open.contains_key(path)
                        }
                    }));
                } else if may_be_ours(&state.roots, &path) {
                    changes.push(Backend::from_disk(&path));
                }
            }
        }
        let result = self.apply(changes);
        self.log_failure("didChangeWatchedFiles", result).await;
    }

    async fn did_change_workspace_folders(&self, params: DidChangeWorkspaceFoldersParams) {
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

    async fn symbol(
        &self,
        params: WorkspaceSymbolParams,
    ) -> Result<Option<WorkspaceSymbolResponse>> {
        let (index, encoding) = self.snapshot();
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            let symbols: Vec<WorkspaceSymbol> =
                crate::ide::workspace_symbols(&index, &params.query)
                    .into_iter()
                    .filter_map(|s| {
                        Some(WorkspaceSymbol {
                            name: s.name,
                            kind: match s.kind {
                                crate::ide::SymbolKind::Artifact => SymbolKind::FILE,
                                crate::ide::SymbolKind::Agent => SymbolKind::OBJECT,
                                crate::ide::SymbolKind::McpServer => SymbolKind::INTERFACE,
                            },
                            tags: None,
                            container_name: s.detail,
                            location: OneOf::Left(convert::location(
                                &index, s.file, s.range, encoding,
                            )?),
                            data: None,
                        })
                    })
                    .collect();
            Some(WorkspaceSymbolResponse::Nested(symbols))
        }));
        self.answer("workspace/symbol", outcome).await
    }

    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        let pushed = params.settings.as_object().is_some_and(|o| !o.is_empty());
        if pushed {
            self.apply_settings(&params.settings).await;
            return;
        }
        // Pull-model clients (VS Code) send no settings here: ask for the section.
        if !lock(&self.state).pull_configuration {
            return;
        }
        let item = ConfigurationItem {
            scope_uri: None,
            section: Some("skillgraph".to_owned()),
        };
        if let Ok(values) = self.client.configuration(vec![item]).await {
            if let Some(value) = values.into_iter().next() {
                self.apply_settings(&value).await;
            }
        }
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        self.at_position(
            "hover",
            &params.text_document_position_params,
            |index, file, offset, enc| {
                let found = crate::ide::hover(index, file, offset)?;
                Some(Hover {
                    contents: HoverContents::Markup(MarkupContent {
                        kind: MarkupKind::Markdown,
                        value: found.markdown,
                    }),
                    range: Some(convert::range(index, file, found.range, enc)),
                })
            },
        )
        .await
    }

    async fn goto_definition(
        &self,
        params: GotoDefinitionParams,
    ) -> Result<Option<GotoDefinitionResponse>> {
        self.at_position(
            "definition",
            &params.text_document_position_params,
            |index, file, offset, enc| {
                let locations: Vec<Location> = crate::ide::definition(index, file, offset)
                    .into_iter()
                    .filter_map(|(f, r)| convert::location(index, f, r, enc))
                    .collect();
                match locations.len() {
                    0 => None,
                    1 => Some(GotoDefinitionResponse::Scalar(
                        locations.into_iter().next()?,
                    )),
                    _ => Some(GotoDefinitionResponse::Array(locations)),
                }
            },
        )
        .await
    }

    async fn goto_declaration(
        &self,
        params: request::GotoDeclarationParams,
    ) -> Result<Option<request::GotoDeclarationResponse>> {
        self.at_position(
            "declaration",
            &params.text_document_position_params,
            |index, file, offset, enc| {
                let locations: Vec<Location> = crate::ide::declaration(index, file, offset)
                    .into_iter()
                    .filter_map(|(f, r)| convert::location(index, f, r, enc))
                    .collect();
                (!locations.is_empty()).then_some(GotoDefinitionResponse::Array(locations))
            },
        )
        .await
    }

    async fn references(&self, params: ReferenceParams) -> Result<Option<Vec<Location>>> {
        let include = params.context.include_declaration;
        self.at_position(
            "references",
            &params.text_document_position,
            |index, file, offset, enc| {
                let locations: Vec<Location> = crate::ide::references(index, file, offset, include)
                    .into_iter()
                    .filter_map(|(f, r)| convert::location(index, f, r, enc))
                    .collect();
                (!locations.is_empty()).then_some(locations)
            },
        )
        .await
    }

    async fn completion(&self, params: CompletionParams) -> Result<Option<CompletionResponse>> {
        self.at_position(
            "completion",
            &params.text_document_position,
            |index, file, offset, enc| {
                let found = crate::ide::completion(index, file, offset)?;
                let range = convert::range(index, file, found.range, enc);
                let items = found
                    .items
                    .into_iter()
                    .map(|item| CompletionItem {
                        kind: Some(match item.kind {
                            crate::ide::CompletionKind::Skill => CompletionItemKind::FUNCTION,
                            crate::ide::CompletionKind::Archetype => CompletionItemKind::CLASS,
                            crate::ide::CompletionKind::McpServer => CompletionItemKind::MODULE,
                            crate::ide::CompletionKind::Topology => CompletionItemKind::STRUCT,
                            crate::ide::CompletionKind::Value => CompletionItemKind::ENUM_MEMBER,
                            crate::ide::CompletionKind::Field => CompletionItemKind::PROPERTY,
                        }),
                        detail: item.detail,
                        text_edit: Some(CompletionTextEdit::Edit(TextEdit::new(
                            range,
                            item.label.clone(),
                        ))),
                        label: item.label,
                        ..Default::default()
                    })
                    .collect();
                Some(CompletionResponse::Array(items))
            },
        )
        .await
    }

    async fn document_symbol(
        &self,
        params: DocumentSymbolParams,
    ) -> Result<Option<DocumentSymbolResponse>> {
        let (index, encoding) = self.snapshot();
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            let path = convert::path_of(&params.text_document.uri)?;
            let file = index.file_id(&path)?;
            let symbols = crate::ide::document_symbols(&index, file);
            if symbols.is_empty() {
                return None;
            }
            Some(DocumentSymbolResponse::Nested(
                symbols
                    .into_iter()
                    .map(|s| symbol(&index, file, s, encoding))
                    .collect(),
            ))
        }));
        self.answer("documentSymbol", outcome).await
    }
}

#[allow(deprecated)] // `DocumentSymbol::deprecated` must still be written.
fn symbol(
    index: &Index,
    file: FileId,
    s: crate::ide::Symbol,
    enc: PositionEncoding,
) -> DocumentSymbol {
    DocumentSymbol {
        name: s.name,
        detail: s.detail,
        kind: match s.kind {
            crate::ide::SymbolKind::Artifact => SymbolKind::FILE,
            crate::ide::SymbolKind::Agent => SymbolKind::OBJECT,
            crate::ide::SymbolKind::McpServer => SymbolKind::INTERFACE,
        },
        tags: None,
        deprecated: None,
        range: convert::range(index, file, s.range, enc),
        selection_range: convert::range(index, file, s.selection_range, enc),
        children: Some(
            s.children
                .into_iter()
                .map(|c| symbol(index, file, c, enc))
                .collect(),
        ),
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

    #[test]
    fn encoding_prefers_utf8_when_offered() {
        let mut params = InitializeParams::default();
        assert_eq!(negotiate_encoding(&params), PositionEncoding::Utf16);
        params.capabilities.general = Some(GeneralClientCapabilities {
            position_encodings: Some(vec![
                PositionEncodingKind::UTF16,
                PositionEncodingKind::UTF8,
            ]),
            ..Default::default()
        });
        assert_eq!(negotiate_encoding(&params), PositionEncoding::Utf8);
        params.capabilities.general = Some(GeneralClientCapabilities {
            position_encodings: Some(vec![PositionEncodingKind::UTF32]),
            ..Default::default()
        });
        assert_eq!(negotiate_encoding(&params), PositionEncoding::Utf16);
    }
}
