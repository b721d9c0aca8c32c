//! The engine's source files as the structure tests read them: every `.rs` file below
//! `server/src`, by its path relative to it, and the reading of a line's visibility.
//! The test binary that includes it includes `support/tree.rs` as `tree` too.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Every `.rs` file below `src`, by its path relative to `src`, with its text.
pub fn source_files(src: &Path) -> BTreeMap<PathBuf, String> {
    crate::tree::files_below(src, |_| false)
        .into_iter()
        .filter(|path| path.extension().is_some_and(|e| e == "rs"))
        .map(|path| {
            let relative = path.strip_prefix(src).expect("below src").to_path_buf();
            let text = std::fs::read_to_string(&path).expect("a source file is UTF-8");
            (relative, text)
        })
        .collect()
}

/// `line` (trimmed at its start) without its visibility: `pub `, `pub(crate) ` or
/// `pub(super) `.
pub fn without_visibility(line: &str) -> &str {
    let line = line.trim_start();
    line.strip_prefix("pub(crate) ")
        .or_else(|| line.strip_prefix("pub(super) "))
        .or_else(|| line.strip_prefix("pub "))
        .unwrap_or(line)
}
