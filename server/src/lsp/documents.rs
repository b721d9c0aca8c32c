//! Open documents: the editor's text wins over the disk while a document is open, and closing
//! it hands the file back to the disk.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

use ropey::Rope;
use tower_lsp_server::ls_types::*;

use super::files::from_disk;
use super::state::{lock, OpenDocument};
use super::{convert, Backend};
use crate::index::Change;

impl Backend {
    pub(super) async fn open_document(&self, params: DidOpenTextDocumentParams) {
        let document = params.text_document;
        let Some(path) = convert::path_of(&document.uri) else {
            return;
        };
        // Counted before anything awaits, so requests sent right after this notification
        // wait for the workspace manifest read below.
        let _opening = Opening::start(self);
        let rope = Rope::from_str(&document.text);
        lock(&self.state).open.insert(
            path.clone(),
            OpenDocument {
                rope,
                version: document.version,
            },
        );
        // The document is analysed now, whatever the state of the initial indexing: requests
        // about its own content need nothing else.
        let result = self.apply(
            "didOpen",
            vec![Change::Set {
                path: path.clone(),
                text: document.text.into(),
            }],
        );
        self.log_failure("didOpen", result).await;
        self.read_enclosing_manifest(&path).await;
        self.index_around_stray(path).await;
    }

    /// Applies the manifest of the SwarmKit workspace around a document just opened, unless it
    /// is indexed already: with it the document is classified as a SwarmKit file (its outline
    /// and the hover on its agents need that) before the indexing, which reads the manifest
    /// with everything else, is done. Read off the async threads, in order with watched files.
    async fn read_enclosing_manifest(&self, path: &Path) {
        let _in_order = self.disk_order.lock().await;
        let document = path.to_owned();
        let read = tokio::task::spawn_blocking(move || {
            crate::discover::enclosing_manifest_on_disk(&document).map(|m| from_disk(&m))
        })
        .await;
        let result = match read {
            Ok(Some(manifest)) => {
                let mut state = lock(&self.state);
                if state.index.file_id(manifest.path()).is_some() {
                    return;
                }
                let changes = state.keep_editor_text(vec![manifest]);
                self.apply_locked("didOpen", &mut state, changes)
            }
            Ok(None) => return,
            Err(error) => Err(error.to_string()),
        };
        self.log_failure("didOpen", result).await;
    }

    pub(super) async fn change_document(&self, params: DidChangeTextDocumentParams) {
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
        let decides_logs = decides_audit_logs(&path);
        let result = self.apply(
            "didChange",
            vec![Change::Set {
                path,
                text: text.into(),
            }],
        );
        self.log_failure("didChange", result).await;
        if decides_logs {
            self.refresh_audit_logs(&[]);
        }
    }

    pub(super) async fn close_document(&self, params: DidCloseTextDocumentParams) {
        let Some(path) = convert::path_of(&params.text_document.uri) else {
            return;
        };
        lock(&self.state).open.remove(&path);
        let decides_logs = decides_audit_logs(&path);
        // Closing without saving leaves the disk's text in force (or no file at all). The disk
        // is read off the async threads, in order with watched-file events; a document opened
        // again meanwhile keeps the editor's text.
        let _in_order = self.disk_order.lock().await;
        let read = tokio::task::spawn_blocking(move || from_disk(&path)).await;
        let result = match read {
            Ok(change) => self.apply_from_disk("didClose", vec![change]),
            Err(error) => Err(error.to_string()),
        };
        self.log_failure("didClose", result).await;
        if decides_logs {
            self.refresh_audit_logs(&[]);
        }
    }
}

/// A file whose text may move a workspace's audit log or turn its reading on or off.
fn decides_audit_logs(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|n| n == "workspace.yaml" || n == "skillgraph.toml")
}

/// One document being opened: counted in [`Backend::opening`] until its manifest read is over,
/// however the opening ends.
struct Opening<'a>(&'a Backend);

impl<'a> Opening<'a> {
    fn start(backend: &'a Backend) -> Opening<'a> {
        backend.opening.send_modify(|n| *n += 1);
        Opening(backend)
    }
}

impl Drop for Opening<'_> {
    fn drop(&mut self) {
        self.0.opening.send_modify(|n| *n = n.saturating_sub(1));
    }
}
