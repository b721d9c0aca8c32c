//! Find references: every place in the workspace that names the id under the cursor.

use super::cursor::{at, occurrences, Ref};
use crate::diagnostic::FileId;
use crate::index::Index;
use crate::syntax::TextRange;

/// Every occurrence of the id under the cursor in its workspace (agents: in their topology),
/// sorted by file and position; the definitions are included when `include_declaration`.
pub fn references(
    index: &Index,
    file: FileId,
    offset: u32,
    include_declaration: bool,
) -> Vec<(FileId, TextRange)> {
    let Some(occurrence) = at(index, file, offset) else {
        return Vec::new();
    };
    let Some(workspace) = index.workspace_of(file) else {
        return Vec::new();
    };
    let mut files: Vec<FileId> = match occurrence.what {
        Ref::Agent(_) => vec![file],
        _ => index
            .files()
            .filter(|f| index.workspace_of(f.id) == Some(workspace))
            .map(|f| f.id)
            .collect(),
    };
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let mut found: Vec<TextRange> = occurrences(index, f)
            .into_iter()
            .filter(|o| o.what == occurrence.what)
            .filter(|o| include_declaration || o.site != super::Site::Definition)
            .filter(|o| o.site != super::Site::RequiresBlock)
            .map(|o| o.range)
            .collect();
        found.sort_by_key(|r| (r.start, r.end));
        found.dedup();
        out.extend(found.into_iter().map(|r| (f, r)));
    }
    out
}
