//! Requests answered with workspace edits: rename and its preparation, and the quick fixes the
//! core attached to diagnostics. Plain functions of an index snapshot, as in `handlers`.

use tower_lsp_server::ls_types::*;

use super::convert;
use super::handlers::at;
use crate::diagnostic::FileId;
use crate::index::Index;
use crate::syntax::PositionEncoding;

/// The name under the cursor and its range, `Ok(None)` where there is nothing to rename, or why
/// what is there cannot be renamed.
pub fn prepare_rename(
    index: &Index,
    enc: PositionEncoding,
    params: &TextDocumentPositionParams,
) -> Option<Result<PrepareRenameResponse, String>> {
    let (file, offset) = at(index, params, enc)?;
    match crate::ide::prepare_rename(index, file, offset) {
        Ok(None) => None,
        Ok(Some(found)) => Some(Ok(PrepareRenameResponse::RangeWithPlaceholder {
            range: convert::range(index, file, found.range, enc),
            placeholder: found.name,
        })),
        Err(why) => Some(Err(why)),
    }
}

/// The workspace edit of a rename, or why it is refused. File and folder moves go out as
/// `RenameFile` operations after the text edits, for clients that apply them.
pub fn rename(
    index: &Index,
    enc: PositionEncoding,
    params: &RenameParams,
    rename_files: bool,
) -> Option<Result<WorkspaceEdit, String>> {
    let (file, offset) = at(index, &params.text_document_position, enc)?;
    let found = match crate::ide::rename(index, file, offset, &params.new_name, rename_files) {
        Ok(found) => found,
        Err(why) => return Some(Err(why)),
    };
    // Edits arrive sorted by file: group them in that order.
    let mut by_file: Vec<(Uri, Vec<TextEdit>)> = Vec::new();
    for edit in found.edits {
        let Some(uri) = index.file(edit.file).and_then(|e| convert::uri_of(&e.path)) else {
            continue;
        };
        let text_edit = TextEdit::new(
            convert::range(index, edit.file, edit.range, enc),
            edit.new_text,
        );
        match by_file.last_mut() {
            Some((last, edits)) if *last == uri => edits.push(text_edit),
            _ => by_file.push((uri, vec![text_edit])),
        }
    }
    if !rename_files {
        return Some(Ok(WorkspaceEdit {
            changes: Some(by_file.into_iter().collect()),
            ..Default::default()
        }));
    }
    let renames = found.moves.iter().filter_map(|m| {
        Some(RenameFile {
            old_uri: convert::uri_of(&m.from)?,
            new_uri: convert::uri_of(&m.to)?,
            options: None,
            annotation_id: None,
        })
    });
    Some(Ok(document_changes(by_file, renames)))
}

/// A workspace edit as `documentChanges`: the text edits of each file, then the file renames
/// (for clients that said they can rename files).
fn document_changes(
    files: Vec<(Uri, Vec<TextEdit>)>,
    renames: impl IntoIterator<Item = RenameFile>,
) -> WorkspaceEdit {
    let mut operations: Vec<DocumentChangeOperation> = files
        .into_iter()
        .map(|(uri, edits)| {
            DocumentChangeOperation::Edit(TextDocumentEdit {
                text_document: OptionalVersionedTextDocumentIdentifier { uri, version: None },
                edits: edits.into_iter().map(OneOf::Left).collect(),
            })
        })
        .collect();
    operations.extend(
        renames
            .into_iter()
            .map(|rename| DocumentChangeOperation::Op(ResourceOp::Rename(rename))),
    );
    WorkspaceEdit {
        document_changes: Some(DocumentChanges::Operations(operations)),
        ..Default::default()
    }
}

/// Quick fixes for the diagnostics the range touches: each fix the core attached to a
/// diagnostic, as a `WorkspaceEdit` in the client's encoding. A fix that renames a folder is
/// offered only to clients that can rename (`rename_files`); an edit of a file the index does
/// not hold cannot be placed, so its fix is left out.
pub fn code_actions(
    index: &Index,
    enc: PositionEncoding,
    params: &CodeActionParams,
    rename_files: bool,
) -> Option<CodeActionResponse> {
    let wants = |wanted: &CodeActionKind| {
        params.context.only.as_ref().is_none_or(|only| {
            only.iter()
                .any(|kind| wanted.as_str().starts_with(kind.as_str()))
        })
    };
    let wants_quickfix = wants(&CodeActionKind::QUICKFIX);
    let wants_rewrite = wants(&CodeActionKind::REFACTOR_REWRITE);
    if !wants_quickfix && !wants_rewrite {
        return None;
    }
    let path = convert::path_of(&params.text_document.uri)?;
    let file = index.file_id(&path)?;
    let start = convert::offset(index, file, params.range.start, enc)?;
    let end = convert::offset(index, file, params.range.end, enc).unwrap_or(start);
    let mut actions = Vec::new();
    // A bare cursor (an empty range, as editors send when asked for the fixes "here") stands for
    // its line: the fixes of everything reported on it are offered.
    let cursor_line = (params.range.start == params.range.end).then_some(params.range.start.line);
    for diagnostic in index
        .diagnostics(file)
        .into_iter()
        .filter(|_| wants_quickfix)
    {
        let on_cursor_line = cursor_line.is_some_and(|line| {
            let at = convert::range(index, file, diagnostic.range, enc);
            at.start.line <= line && line <= at.end.line
        });
        if !on_cursor_line && (diagnostic.range.start > end || diagnostic.range.end < start) {
            continue;
        }
        let disable = index.disable_fix(&diagnostic);
        for fix in diagnostic.fixes.iter().chain(disable.as_ref()) {
            if fix.rename.is_some() && !rename_files {
                continue;
            }
            let Some(edit) = workspace_edit(index, fix, enc) else {
                continue;
            };
            actions.push(CodeActionOrCommand::CodeAction(CodeAction {
                title: fix.title.clone(),
                kind: Some(CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![convert::diagnostic(index, &diagnostic, enc)]),
                edit: Some(edit),
                is_preferred: fix.preferred.then_some(true),
                ..Default::default()
            }));
        }
    }
    // On an extension's key written in the nested form: the rewrite into the portable form,
    // unless a host diagnostic there offers it already.
    if wants_rewrite {
        if let Some(entry) = index.file(file) {
            if let crate::index::Content::SkillMd(skill) = &entry.parsed.content {
                let offered = actions.iter().any(|a| {
                    matches!(a, CodeActionOrCommand::CodeAction(a) if a.kind == Some(CodeActionKind::QUICKFIX)
                        && a.diagnostics.as_ref().is_some_and(|d| d.iter().any(|d| {
                            d.code == Some(NumberOrString::String(
                                crate::diagnostic::codes::SKILLMD_EXTENSION_HOST.name().to_owned(),
                            ))
                        })))
                });
                let rewrite = (!offered)
                    .then(|| crate::rules::portable::rewrite_at(&entry.text, file, skill, start))
                    .flatten();
                if let Some(edit) = rewrite
                    .as_ref()
                    .and_then(|fix| workspace_edit(index, fix, enc))
                {
                    actions.push(CodeActionOrCommand::CodeAction(CodeAction {
                        title: rewrite.map(|f| f.title).unwrap_or_default(),
                        kind: Some(CodeActionKind::REFACTOR_REWRITE),
                        edit: Some(edit),
                        ..Default::default()
                    }));
                }
            }
        }
    }
    (!actions.is_empty()).then_some(actions)
}

/// A core fix as a `WorkspaceEdit`: plain `changes` when it only edits text, else
/// `documentChanges` with the text edits first (they name the files by their present paths)
/// and the rename last.
fn workspace_edit(
    index: &Index,
    fix: &crate::diagnostic::Fix,
    enc: PositionEncoding,
) -> Option<WorkspaceEdit> {
    let mut by_file: std::collections::BTreeMap<FileId, Vec<TextEdit>> = Default::default();
    for edit in &fix.edits {
        index.file(edit.file)?;
        by_file.entry(edit.file).or_default().push(TextEdit {
            range: convert::range(index, edit.file, edit.range, enc),
            new_text: edit.text.clone(),
        });
    }
    let mut files = Vec::new();
    for (file, edits) in by_file {
        files.push((convert::uri_of(&index.file(file)?.path)?, edits));
    }
    let Some(rename) = &fix.rename else {
        return Some(WorkspaceEdit {
            changes: Some(files.into_iter().collect()),
            ..Default::default()
        });
    };
    let rename = RenameFile {
        old_uri: convert::uri_of(&rename.from)?,
        new_uri: convert::uri_of(&rename.to)?,
        options: Some(RenameFileOptions {
            overwrite: Some(false),
            ignore_if_exists: Some(false),
        }),
        annotation_id: None,
    };
    Some(document_changes(files, [rename]))
}
