//! The language server: tower-lsp-server glue, and the one place LSP types appear. It must not
//! decide what a workspace means: every answer comes from `ide` or `rules` over an index
//! snapshot, and is only converted here.
//!
//! The rooms: `state` (the state, its lock and publishing diagnostics), `documents` (open
//! documents), `handlers` (requests, as plain functions of an index snapshot; `edits` for those
//! answered with workspace edits, `pull` for pulled diagnostics, `command` for the
//! ordering-graph command), `files` (indexing from disk and watched files), `progress`
//! (progress reports), `settings` (the editor's settings), `capabilities` (what each side
//! offers), `audit` (SwarmKit's audit log, read in the background), `transport` (the byte stream), `lifetime` (the end of the process), `convert`
//! (positions, URIs, diagnostics).
//!
//! Decisions a user may notice:
//! - Position encoding: UTF-8 when the client offers it, else UTF-16.
//! - Requests wait (at most 10 s) for the initial indexing, except those about the open
//!   document's own content: its outline, its links and the hover on one of its agents' ids,
//!   which answer once the workspace manifest around a just-opened document is read.
//! - Diagnostics are pushed for every file that has any, open or not, and only when they change;
//!   they are held back until the initial indexing is done (no flood of unknown-id errors from a
//!   half-read workspace), and that first batch goes out before the indexing progress ends.
//! - A client that can pull diagnostics (`textDocument.diagnostic`) is offered
//!   `textDocument/diagnostic` and `workspace/diagnostic` and gets nothing pushed; when an edit
//!   changes some file's diagnostics the server sends `workspace/diagnostic/refresh` (if the client
//!   supports it). Result ids are hashes of the diagnostics, so an unchanged file answers
//!   `unchanged`.
//! - An open document's text wins over the disk: watched-file events for it are ignored, and
//!   closing it re-reads the disk (or removes the file if it is gone).
//! - A document opened outside every workspace folder brings in the SwarmKit workspace around it
//!   (the nearest `workspace.yaml` up to four directories above), so its ids resolve.
//! - SwarmKit's audit log: each workspace's is read in the background when it is indexed and
//!   when the log changes; the hover on a `requires:` rule and a lens on each rule answer from
//!   the last read, replayed through the rules as the buffer has them (`audit`).
//! - Settings: `initializationOptions` and `workspace/didChangeConfiguration` take the keys of
//!   `skillgraph.toml` (at the top or under `skillgraph`). They act as the config of files with
//!   no `skillgraph.toml` above them (strictness, extra fields, the tool inventory, whose list
//!   paths must then be absolute); `[rules]` levels of a file config win over the editor's.

mod audit;
mod capabilities;
mod command;
mod convert;
mod documents;
mod edits;
mod files;
mod handlers;
mod lifetime;
mod progress;
mod pull;
mod settings;
mod state;
mod transport;
mod watcher;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{mpsc, watch};
use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::*;
use tower_lsp_server::{Client, LanguageServer, LspService};

use crate::index::Index;
use crate::syntax::PositionEncoding;
use state::{lock, panic_message, Outgoing, State};

/// Runs the server on stdin/stdout until the client says `exit`, closes its side, or its
/// process (the `processId` of `initialize`) is gone.
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
    let ending = lifetime::Ending::new();
    let clean = ending.clean.clone();
    runtime.block_on(async move {
        let backend_ending = ending.clone();
        let (service, socket) = LspService::new(move |client| Backend::new(client, backend_ending));
        tokio::select! {
            _ = transport::serve(service, socket, ending.clone()) => {}
            // Whatever is still pending (a request waiting for the index, a client that never
            // answers) gets a moment, not a say in whether the process ends.
            _ = async {
                ending.begun().await;
                tokio::time::sleep(lifetime::GRACE).await;
            } => {}
        }
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

/// Fuzzing and its replay tests only: cuts `bytes` into frames as stdin would be cut and checks
/// every message handed on the way tower-lsp-server decodes it (a response, else a request; its
/// reader stops at the first message it cannot decode, which ends the server), and that it comes
/// through the framer unchanged when framed again. Returns how many frames were cut, or what
/// went wrong.
#[doc(hidden)]
pub fn fuzz_transport(bytes: &[u8]) -> std::result::Result<usize, String> {
    #[derive(serde::Deserialize)]
    #[serde(untagged)]
    #[allow(dead_code)] // Decoded to be refused or accepted, never read.
    enum TowerMessage {
        Response(tower_lsp_server::jsonrpc::Response),
        Request(tower_lsp_server::jsonrpc::Request),
    }
    fn frames_of(bytes: &[u8]) -> impl Iterator<Item = transport::Frame> {
        let (sender, chunks) = std::sync::mpsc::sync_channel(1);
        sender.send(bytes.to_vec()).ok();
        drop(sender);
        let mut input = transport::Input::new(chunks);
        std::iter::from_fn(move || match transport::next_frame(&mut input) {
            transport::Frame::End => None,
            frame => Some(frame),
        })
    }
    let mut frames = 0;
    for frame in frames_of(bytes) {
        frames += 1;
        match frame {
            transport::Frame::Message { body, exit } => {
                let shown = String::from_utf8_lossy(&body);
                if !matches!(
                    transport::check_body(body.clone()),
                    transport::Frame::Message { .. }
                ) {
                    return Err(format!("{shown} fails the message check on its own"));
                }
                if let Err(error) = serde_json::from_slice::<TowerMessage>(&body) {
                    return Err(format!("tower refuses {shown}: {error}"));
                }
                let mut framed = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
                framed.extend_from_slice(&body);
                let again: Vec<transport::Frame> = frames_of(&framed).collect();
                if again
                    != [transport::Frame::Message {
                        body: body.clone(),
                        exit,
                    }]
                {
                    return Err(format!("{shown}, framed again, becomes {again:?}"));
                }
            }
            transport::Frame::Dropped { replies, .. } => {
                for reply in replies {
                    if let Err(error) = serde_json::from_value::<TowerMessage>(reply.clone()) {
                        return Err(format!("an answer to a dropped message, {reply}: {error}"));
                    }
                }
            }
            transport::Frame::Note(_) | transport::Frame::End => {}
        }
    }
    Ok(frames)
}

/// The server. Cheap to clone: background work (the initial indexing, the watcher, the
/// `processId` watch) holds a clone.
#[derive(Clone)]
pub(crate) struct Backend {
    client: Client,
    state: Arc<Mutex<State>>,
    publisher: mpsc::UnboundedSender<Outgoing>,
    /// Notified to end the process (the client's process is gone); says whether `shutdown` came.
    ending: lifetime::Ending,
    /// How many indexing jobs requests wait for: the initial indexing, and the workspace
    /// brought in by a document opened outside every root.
    indexing: Arc<watch::Sender<usize>>,
    /// How many documents are being opened: requests about a document's own content wait for
    /// these (the read of the workspace manifest around each), never for the indexing.
    opening: Arc<watch::Sender<usize>>,
    /// Disk work (reading what watched-file events and closed documents name) runs off the
    /// async threads; this keeps it in arrival order.
    disk_order: Arc<tokio::sync::Mutex<()>>,
    /// Batches analysed without the state lock (indexings) run one at a time.
    batch_order: Arc<Mutex<()>>,
    /// SwarmKit's audit logs, read in the background (see `audit`).
    audit: audit::SharedAuditLogs,
}

/// How long a request waits for the initial indexing before it answers from what is indexed.
const READY_WAIT: Duration = Duration::from_secs(10);
/// Said by a hover answered before the indexing is done.
const STILL_INDEXING: &str = "workspace still indexing: skills from archetypes may be missing";
/// LSP's `RequestFailed`: the request was valid and the server refuses it, saying why.
const REQUEST_FAILED: i64 = -32803;
/// How long the server waits for the client to answer one of its own requests.
const CLIENT_ANSWER_WAIT: Duration = Duration::from_secs(5);

/// Debug builds only: `SKILLGRAPH_TEST_PANIC=hover` (any request name, or `didOpen` /
/// `didChange` / `indexing` for the analysis of a change) makes the first such request or
/// analysis panic, so the end-to-end tests can prove a panic is caught, logged and costs that
/// request or change alone. Release builds compile this to nothing.
fn panic_on_request_for_tests(what: &str) {
    #[cfg(debug_assertions)]
    {
        static PANICKED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
        if std::env::var("SKILLGRAPH_TEST_PANIC").is_ok_and(|v| v == what)
            && !PANICKED.swap(true, Ordering::SeqCst)
        {
            panic!("SKILLGRAPH_TEST_PANIC={what}");
        }
    }
    #[cfg(not(debug_assertions))]
    let _ = what;
}

/// Debug builds only: `SKILLGRAPH_TEST_STALL=didChange` (or another analysis, as for
/// [`panic_on_request_for_tests`]) makes every such analysis take a minute, holding the state
/// as a pathological one would, so the end-to-end tests can prove the server still ends when
/// its editor does. Release builds compile this to nothing.
fn stall_for_tests(what: &str) {
    #[cfg(debug_assertions)]
    if std::env::var("SKILLGRAPH_TEST_STALL").is_ok_and(|v| v == what) {
        std::thread::sleep(Duration::from_secs(60));
    }
    #[cfg(not(debug_assertions))]
    let _ = what;
}

impl Backend {
    fn new(client: Client, ending: lifetime::Ending) -> Backend {
        Backend {
            publisher: state::start_publisher(client.clone()),
            client,
            state: Arc::new(Mutex::new(State::new(settings::process_environment()))),
            ending,
            indexing: Arc::new(watch::channel(1).0),
            opening: Arc::new(watch::channel(0).0),
            disk_order: Arc::new(tokio::sync::Mutex::new(())),
            batch_order: Arc::new(Mutex::new(())),
            audit: Default::default(),
        }
    }

    /// Waits (bounded) until the initial indexing is done, so a request sent right after
    /// `initialized` gets the answer a settled server would give.
    async fn until_indexed(&self, what: &str) {
        let mut indexing = self.indexing.subscribe();
        if *indexing.borrow() == 0 {
            return;
        }
        if tokio::time::timeout(READY_WAIT, indexing.wait_for(|jobs| *jobs == 0))
            .await
            .is_err()
        {
            self.log(
                MessageType::WARNING,
                format!(
                    "skillgraph: {what} answers from a partial index: the initial indexing has taken over {} s",
                    READY_WAIT.as_secs()
                ),
            )
            .await;
        }
    }

    /// Waits (bounded) until the documents being opened have their workspace manifest read.
    async fn until_opened(&self) {
        let mut opening = self.opening.subscribe();
        if *opening.borrow() == 0 {
            return;
        }
        let _ = tokio::time::timeout(READY_WAIT, opening.wait_for(|n| *n == 0)).await;
    }

    /// Runs a request handler against a snapshot; a panic answers an error for this request
    /// only, and is logged.
    async fn answer<T>(
        &self,
        what: &str,
        handler: impl FnOnce(&Index, PositionEncoding) -> Option<T>,
    ) -> Result<Option<T>> {
        self.until_indexed(what).await;
        self.run_handler(what, handler).await
    }

    /// Like `answer`, for requests about a document's own content (its outline): answered at
    /// once when the document (with the workspace manifest read when it was opened) has the
    /// answer, else after the initial indexing.
    async fn answer_from_document<T>(
        &self,
        what: &str,
        handler: impl Fn(&Index, PositionEncoding) -> Option<T>,
    ) -> Result<Option<T>> {
        self.until_opened().await;
        let now = self.run_handler(what, &handler).await;
        if !matches!(now, Ok(None)) || *self.indexing.borrow() == 0 {
            return now;
        }
        self.until_indexed(what).await;
        self.run_handler(what, handler).await
    }

    /// Like `answer`, for requests that may be refused with a message the editor shows (a
    /// rename to an id that is taken): the refusal is a `RequestFailed` error.
    async fn answer_or_refuse<T>(
        &self,
        what: &str,
        handler: impl FnOnce(&Index, PositionEncoding) -> Option<std::result::Result<T, String>>,
    ) -> Result<Option<T>> {
        match self.answer(what, handler).await? {
            None => Ok(None),
            Some(Ok(value)) => Ok(Some(value)),
            Some(Err(why)) => Err(Error {
                code: tower_lsp_server::jsonrpc::ErrorCode::ServerError(REQUEST_FAILED),
                message: why.into(),
                data: None,
            }),
        }
    }

    async fn run_handler<T>(
        &self,
        what: &str,
        handler: impl FnOnce(&Index, PositionEncoding) -> Option<T>,
    ) -> Result<Option<T>> {
        let (index, encoding) = self.snapshot();
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            panic_on_request_for_tests(what);
            handler(&index, encoding)
        }));
        match outcome {
            Ok(value) => Ok(value),
            Err(payload) => {
                let message = panic_message(payload.as_ref());
                self.log(
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
}

impl LanguageServer for Backend {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        let encoding = capabilities::negotiate_encoding(&params);
        {
            let mut state = lock(&self.state);
            state.encoding = encoding;
            state.roots = capabilities::workspace_roots(&params);
            state.offers = capabilities::ClientOffers::of(&params);
        }
        if let Some(pid) = params.process_id {
            self.watch_editor_process(pid);
        }
        if let Some(options) = &params.initialization_options {
            self.apply_settings(options).await;
        }
        Ok(InitializeResult {
            capabilities: capabilities::server_capabilities(encoding, &lock(&self.state).offers),
            server_info: Some(ServerInfo {
                name: "skillgraph".to_owned(),
                version: Some(env!("CARGO_PKG_VERSION").to_owned()),
            }),
            offset_encoding: None,
        })
    }

    async fn initialized(&self, _: InitializedParams) {
        // In the background: a client that is slow to answer the server's own requests must not
        // hold up the notifications and requests behind this one.
        let this = self.clone();
        tokio::spawn(async move {
            this.index_workspace().await;
            this.refresh_audit_logs(&[]);
            this.register_watchers().await;
        });
    }

    async fn shutdown(&self) -> Result<()> {
        self.ending.clean.store(true, Ordering::SeqCst);
        Ok(())
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        self.open_document(params).await;
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        self.change_document(params).await;
    }

    async fn did_save(&self, _: DidSaveTextDocumentParams) {
        // The edits already arrived through didChange; the disk now agrees with them.
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        self.close_document(params).await;
    }

    async fn did_change_watched_files(&self, params: DidChangeWatchedFilesParams) {
        self.watched_files_changed(params).await;
    }

    async fn did_change_workspace_folders(&self, params: DidChangeWorkspaceFoldersParams) {
        self.workspace_folders_changed(params).await;
    }

    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        self.configuration_changed(params).await;
    }

    async fn symbol(
        &self,
        params: WorkspaceSymbolParams,
    ) -> Result<Option<WorkspaceSymbolResponse>> {
        self.answer("workspace/symbol", |index, enc| {
            handlers::workspace_symbols(index, enc, &params)
        })
        .await
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        // On an agent's own id the hover is about the open document: answered at once from
        // what is indexed, saying so while the indexing may still add to it. Elsewhere it
        // waits, as every request does.
        self.until_opened().await;
        let on_agent = self
            .run_handler("hover", |index, enc| {
                Some(handlers::on_agent_definition(index, enc, &params))
            })
            .await?;
        let logs = self.audit_snapshot();
        if on_agent != Some(true) {
            return self
                .answer("hover", |index, enc| {
                    handlers::hover(index, enc, &params, &logs)
                })
                .await;
        }
        let indexing = *self.indexing.borrow() > 0;
        self.run_handler("hover", |index, enc| {
            let hover = handlers::hover(index, enc, &params, &logs)?;
            Some(if indexing {
                handlers::with_note(hover, STILL_INDEXING)
            } else {
                hover
            })
        })
        .await
    }

    async fn goto_definition(
        &self,
        params: GotoDefinitionParams,
    ) -> Result<Option<GotoDefinitionResponse>> {
        self.answer("definition", |index, enc| {
            handlers::definition(index, enc, &params)
        })
        .await
    }

    async fn goto_declaration(
        &self,
        params: request::GotoDeclarationParams,
    ) -> Result<Option<request::GotoDeclarationResponse>> {
        self.answer("declaration", |index, enc| {
            handlers::declaration(index, enc, &params)
        })
        .await
    }

    async fn references(&self, params: ReferenceParams) -> Result<Option<Vec<Location>>> {
        self.answer("references", |index, enc| {
            handlers::references(index, enc, &params)
        })
        .await
    }

    async fn completion(&self, params: CompletionParams) -> Result<Option<CompletionResponse>> {
        self.answer("completion", |index, enc| {
            handlers::completion(index, enc, &params)
        })
        .await
    }

    async fn document_highlight(
        &self,
        params: DocumentHighlightParams,
    ) -> Result<Option<Vec<DocumentHighlight>>> {
        self.answer("documentHighlight", |index, enc| {
            handlers::document_highlights(index, enc, &params)
        })
        .await
    }

    async fn inlay_hint(&self, params: InlayHintParams) -> Result<Option<Vec<InlayHint>>> {
        self.answer("inlayHint", |index, enc| {
            handlers::inlay_hints(index, enc, &params)
        })
        .await
    }

    async fn code_lens(&self, params: CodeLensParams) -> Result<Option<Vec<CodeLens>>> {
        let logs = self.audit_snapshot();
        self.answer("codeLens", |index, enc| {
            handlers::code_lenses(index, enc, &params, &logs)
        })
        .await
    }

    async fn diagnostic(
        &self,
        params: DocumentDiagnosticParams,
    ) -> Result<DocumentDiagnosticReportResult> {
        let report = self
            .answer("textDocument/diagnostic", |index, enc| {
                Some(pull::document_diagnostics(index, enc, &params))
            })
            .await?;
        Ok(report.unwrap_or_else(|| {
            DocumentDiagnosticReportResult::Report(DocumentDiagnosticReport::Full(
                Default::default(),
            ))
        }))
    }

    async fn workspace_diagnostic(
        &self,
        params: WorkspaceDiagnosticParams,
    ) -> Result<WorkspaceDiagnosticReportResult> {
        let report = self
            .answer("workspace/diagnostic", |index, enc| {
                Some(pull::workspace_diagnostics(index, enc, &params))
            })
            .await?;
        Ok(report.unwrap_or_else(|| {
            WorkspaceDiagnosticReportResult::Report(WorkspaceDiagnosticReport::default())
        }))
    }

    async fn prepare_rename(
        &self,
        params: TextDocumentPositionParams,
    ) -> Result<Option<PrepareRenameResponse>> {
        self.answer_or_refuse("prepareRename", |index, enc| {
            edits::prepare_rename(index, enc, &params)
        })
        .await
    }

    async fn rename(&self, params: RenameParams) -> Result<Option<WorkspaceEdit>> {
        let rename_files = lock(&self.state).offers.rename_files;
        self.answer_or_refuse("rename", |index, enc| {
            edits::rename(index, enc, &params, rename_files)
        })
        .await
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        let rename_files = lock(&self.state).offers.rename_files;
        self.answer("codeAction", |index, enc| {
            edits::code_actions(index, enc, &params, rename_files)
        })
        .await
    }

    async fn document_link(&self, params: DocumentLinkParams) -> Result<Option<Vec<DocumentLink>>> {
        self.answer_from_document("documentLink", |index, enc| {
            handlers::document_links(index, enc, &params)
        })
        .await
    }

    async fn document_symbol(
        &self,
        params: DocumentSymbolParams,
    ) -> Result<Option<DocumentSymbolResponse>> {
        self.answer_from_document("documentSymbol", |index, enc| {
            handlers::document_symbols(index, enc, &params)
        })
        .await
    }

    async fn execute_command(&self, params: ExecuteCommandParams) -> Result<Option<LSPAny>> {
        // Outside every handler's own guard: the end-to-end tests prove the transport's.
        panic_on_request_for_tests("executeCommand:unguarded");
        if params.command != command::ORDERING_GRAPH_COMMAND {
            return Err(Error::invalid_params(format!(
                "unknown command `{}`; this server offers `{}`",
                params.command,
                command::ORDERING_GRAPH_COMMAND
            )));
        }
        let argument =
            command::ordering_graph_argument(&params.arguments).map_err(Error::invalid_params)?;
        let answer = self
            .answer("executeCommand", |index, _| {
                Some(command::ordering_graph(index, &argument))
            })
            .await?;
        match answer {
            Some(Ok(mermaid)) => Ok(Some(LSPAny::String(mermaid))),
            Some(Err(message)) => Err(Error::invalid_params(message)),
            None => Err(Error::internal_error()),
        }
    }
}
