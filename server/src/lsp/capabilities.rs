//! What the client offers and what the server announces: position encoding, workspace roots,
//! client capabilities the server acts on, and the server's capabilities.

use std::path::PathBuf;

use tower_lsp_server::ls_types::*;

use super::convert;
use crate::syntax::PositionEncoding;

/// The client capabilities the server acts on.
#[derive(Clone, Copy, Debug, Default)]
pub struct ClientOffers {
    /// The client registers `workspace/didChangeWatchedFiles` watchers on request.
    pub watch_dynamic: bool,
    /// The client shows `window/workDoneProgress`.
    pub work_done_progress: bool,
    /// The client answers `workspace/configuration`.
    pub pull_configuration: bool,
    /// The client applies file and folder renames in a workspace edit (`documentChanges` with
    /// `resourceOperations` holding `rename`).
    pub rename_files: bool,
    /// The client pulls diagnostics (`textDocument/diagnostic`): the server then announces
    /// `diagnosticProvider` and never pushes, so nothing is reported twice.
    pub pull_diagnostics: bool,
    /// The client re-pulls when asked (`workspace/diagnostic/refresh`): sent when an edit changed
    /// the diagnostics of some file, which may be one the client did not edit.
    pub diagnostic_refresh: bool,
    /// The client asks for the code lenses again when asked (`workspace/codeLens/refresh`):
    /// sent when an audit log was read.
    pub code_lens_refresh: bool,
}

impl ClientOffers {
    pub fn of(params: &InitializeParams) -> ClientOffers {
        let workspace = params.capabilities.workspace.as_ref();
        ClientOffers {
            watch_dynamic: workspace
                .and_then(|w| w.did_change_watched_files.as_ref())
                .and_then(|w| w.dynamic_registration)
                .unwrap_or(false),
            work_done_progress: params
                .capabilities
                .window
                .as_ref()
                .and_then(|w| w.work_done_progress)
                .unwrap_or(false),
            pull_configuration: workspace.and_then(|w| w.configuration).unwrap_or(false),
            pull_diagnostics: params
                .capabilities
                .text_document
                .as_ref()
                .is_some_and(|t| t.diagnostic.is_some()),
            code_lens_refresh: workspace
                .and_then(|w| w.code_lens.as_ref())
                .and_then(|c| c.refresh_support)
                .unwrap_or(false),
            diagnostic_refresh: workspace
                .and_then(|w| w.diagnostics.as_ref())
                .and_then(|d| d.refresh_support)
                .unwrap_or(false),
            rename_files: workspace
                .and_then(|w| w.workspace_edit.as_ref())
                .is_some_and(|e| {
                    e.document_changes == Some(true)
                        && e.resource_operations
                            .as_ref()
                            .is_some_and(|ops| ops.contains(&ResourceOperationKind::Rename))
                }),
        }
    }
}

/// UTF-8 when the client offers it, else UTF-16 (the protocol's default).
pub fn negotiate_encoding(params: &InitializeParams) -> PositionEncoding {
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

/// The roots the client names: `workspaceFolders`, else `rootUri`, else `rootPath`.
#[allow(deprecated)] // `root_uri` / `root_path`: older clients send only those.
pub fn workspace_roots(params: &InitializeParams) -> Vec<PathBuf> {
    // Helix outside a repository sends `workspaceFolders: []` and `rootUri: null`: an empty list
    // names no root, so the older fields are read next.
    let folders: Vec<PathBuf> = params
        .workspace_folders
        .iter()
        .flatten()
        .filter_map(|f| convert::path_of(&f.uri))
        .collect();
    if !folders.is_empty() {
        return folders;
    }
    if let Some(path) = params.root_uri.as_ref().and_then(convert::path_of) {
        return vec![path];
    }
    params
        .root_path
        .as_ref()
        .filter(|p| !p.is_empty())
        .map(|p| vec![PathBuf::from(p)])
        .unwrap_or_default()
}

pub fn server_capabilities(
    encoding: PositionEncoding,
    offers: &ClientOffers,
) -> ServerCapabilities {
    ServerCapabilities {
        diagnostic_provider: offers.pull_diagnostics.then(|| {
            DiagnosticServerCapabilities::Options(DiagnosticOptions {
                identifier: Some("skillgraph".to_owned()),
                // A file's diagnostics depend on other files (ids defined elsewhere).
                inter_file_dependencies: true,
                workspace_diagnostics: true,
                work_done_progress_options: Default::default(),
            })
        }),
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
        document_link_provider: Some(DocumentLinkOptions {
            resolve_provider: Some(false),
            work_done_progress_options: Default::default(),
        }),
        // Where an id or value starts: after `key: `, `[`, `, `, `server:`, a list's `- `; a
        // mention in prose after `/` or `$`.
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(
                [" ", "[", ",", ":", "-", "/", "$"]
                    .map(str::to_owned)
                    .to_vec(),
            ),
            ..Default::default()
        }),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![
                CodeActionKind::QUICKFIX,
                CodeActionKind::REFACTOR_REWRITE,
            ]),
            resolve_provider: Some(false),
            work_done_progress_options: Default::default(),
        })),
        workspace_symbol_provider: Some(OneOf::Left(true)),
        document_highlight_provider: Some(OneOf::Left(true)),
        inlay_hint_provider: Some(OneOf::Left(true)),
        code_lens_provider: Some(CodeLensOptions {
            resolve_provider: Some(false),
        }),
        rename_provider: Some(OneOf::Right(RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: Default::default(),
        })),
        execute_command_provider: Some(ExecuteCommandOptions {
            commands: vec![super::command::ORDERING_GRAPH_COMMAND.to_owned()],
            work_done_progress_options: Default::default(),
        }),
        workspace: Some(WorkspaceServerCapabilities {
            workspace_folders: Some(WorkspaceFoldersServerCapabilities {
                supported: Some(true),
                change_notifications: Some(OneOf::Left(true)),
            }),
            file_operations: None,
        }),
        ..Default::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
