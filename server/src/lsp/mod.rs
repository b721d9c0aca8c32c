//! The language server: tower-lsp-server glue, and the one place LSP types appear.
//!
//! The rooms: `state` (the state, its lock and publishing diagnostics), `documents` (open
//! documents), `handlers` (requests, as plain functions of an index snapshot), `files` (indexing
//! from disk and watched files), `settings` (the editor's settings), `capabilities` (what each
//! side offers), `transport` (the byte stream), `convert` (positions, URIs, diagnostics).
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

mod capabilities;
mod convert;
mod documents;
mod files;
mod handlers;
mod settings;
mod state;
mod transport;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use tokio::sync::mpsc;
use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::*;
use tower_lsp_server::{Client, LanguageServer, LspService};

use crate::index::Index;
use crate::syntax::PositionEncoding;
use state::{lock, panic_message, Outgoing, State};

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
        transport::serve(service, socket).await;
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

pub(crate) struct Backend {
    client: Client,
    state: Mutex<State>,
    publisher: mpsc::UnboundedSender<Outgoing>,
    shut_down: Arc<AtomicBool>,
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
        Backend {
            publisher: state::start_publisher(client.clone()),
            client,
            state: Mutex::new(State::new()),
            shut_down,
        }
    }

    /// Runs a request handler against a snapshot; a panic answers an error for this request
    /// only, and is logged.
    async fn answer<T>(
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
        if let Some(options) = &params.initialization_options {
            self.apply_settings(options).await;
        }
        Ok(InitializeResult {
            capabilities: capabilities::server_capabilities(encoding),
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
        self.answer("hover", |index, enc| handlers::hover(index, enc, &params))
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

    async fn document_symbol(
        &self,
        params: DocumentSymbolParams,
    ) -> Result<Option<DocumentSymbolResponse>> {
        self.answer("documentSymbol", |index, enc| {
            handlers::document_symbols(index, enc, &params)
        })
        .await
    }
}
