//! Diagnostics the client pulls (`textDocument/diagnostic`, `workspace/diagnostic`, LSP 3.17):
//! the same diagnostics a push would carry, with result ids so an unchanged file is answered
//! `unchanged`. Plain functions of an index snapshot, as in `handlers`.

use tower_lsp_server::ls_types::*;

use super::convert;
use super::handlers::document;
use crate::diagnostic::FileId;
use crate::index::Index;
use crate::syntax::PositionEncoding;

/// A file's diagnostics as the client sees them, and the id of that set: a hash of it, so the
/// same diagnostics give the same id across requests and an unchanged file is answered
/// `unchanged`.
fn diagnostics_of(index: &Index, file: FileId, enc: PositionEncoding) -> (Vec<Diagnostic>, String) {
    use std::hash::{Hash, Hasher};
    let items: Vec<Diagnostic> = index
        .diagnostics(file)
        .iter()
        .map(|d| convert::diagnostic(index, d, enc))
        .collect();
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    serde_json::to_string(&items)
        .unwrap_or_default()
        .hash(&mut hasher);
    (items, format!("{:016x}", hasher.finish()))
}

/// `textDocument/diagnostic`: the same diagnostics a push would carry; `unchanged` when the
/// client's previous result is still right; empty for a document that is not ours.
pub fn document_diagnostics(
    index: &Index,
    enc: PositionEncoding,
    params: &DocumentDiagnosticParams,
) -> DocumentDiagnosticReportResult {
    let Some(file) = document(index, &params.text_document) else {
        return DocumentDiagnosticReportResult::Report(DocumentDiagnosticReport::Full(
            RelatedFullDocumentDiagnosticReport::default(),
        ));
    };
    let (items, result_id) = diagnostics_of(index, file, enc);
    let report = if params.previous_result_id.as_deref() == Some(result_id.as_str()) {
        DocumentDiagnosticReport::Unchanged(RelatedUnchangedDocumentDiagnosticReport {
            related_documents: None,
            unchanged_document_diagnostic_report: UnchangedDocumentDiagnosticReport { result_id },
        })
    } else {
        DocumentDiagnosticReport::Full(RelatedFullDocumentDiagnosticReport {
            related_documents: None,
            full_document_diagnostic_report: FullDocumentDiagnosticReport {
                result_id: Some(result_id),
                items,
            },
        })
    };
    DocumentDiagnosticReportResult::Report(report)
}

/// `workspace/diagnostic`: every file with diagnostics (`unchanged` where the client's previous
/// result still holds), and an empty report for each file the client had a result for that has
/// none now (fixed, or gone), so nothing stale stays on screen.
pub fn workspace_diagnostics(
    index: &Index,
    enc: PositionEncoding,
    params: &WorkspaceDiagnosticParams,
) -> WorkspaceDiagnosticReportResult {
    let previous: std::collections::HashMap<&Uri, &str> = params
        .previous_result_ids
        .iter()
        .map(|p| (&p.uri, p.value.as_str()))
        .collect();
    let mut files: Vec<(&std::path::Path, FileId)> =
        index.files().map(|e| (e.path.as_path(), e.id)).collect();
    files.sort();
    let mut items = Vec::new();
    let mut reported = std::collections::HashSet::new();
    for (path, file) in files {
        let Some(uri) = convert::uri_of(path) else {
            continue;
        };
        let (diagnostics, result_id) = diagnostics_of(index, file, enc);
        let before = previous.get(&uri).copied();
        if diagnostics.is_empty() && before.is_none() {
            continue;
        }
        reported.insert(uri.clone());
        items.push(if before == Some(result_id.as_str()) {
            WorkspaceDocumentDiagnosticReport::Unchanged(
                WorkspaceUnchangedDocumentDiagnosticReport {
                    uri,
                    version: None,
                    unchanged_document_diagnostic_report: UnchangedDocumentDiagnosticReport {
                        result_id,
                    },
                },
            )
        } else {
            WorkspaceDocumentDiagnosticReport::Full(WorkspaceFullDocumentDiagnosticReport {
                uri,
                version: None,
                full_document_diagnostic_report: FullDocumentDiagnosticReport {
                    result_id: Some(result_id),
                    items: diagnostics,
                },
            })
        });
    }
    for p in &params.previous_result_ids {
        if !reported.contains(&p.uri) {
            items.push(WorkspaceDocumentDiagnosticReport::Full(
                WorkspaceFullDocumentDiagnosticReport {
                    uri: p.uri.clone(),
                    version: None,
                    full_document_diagnostic_report: FullDocumentDiagnosticReport::default(),
                },
            ));
        }
    }
    WorkspaceDiagnosticReportResult::Report(WorkspaceDiagnosticReport { items })
}
