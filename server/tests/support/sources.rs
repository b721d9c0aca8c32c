//! The engine's source files as the structure tests read them: every `.rs` file below
//! `server/src`, by its path relative to it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Every `.rs` file below `src`, by its path relative to `src`, with its text.
pub fn source_files(src: &Path) -> BTreeMap<PathBuf, String> {
    let mut out = BTreeMap::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("server/src is readable") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let relative = path.strip_prefix(src).expect("below src").to_path_buf();
                let text = std::fs::read_to_string(&path).expect("a source file is UTF-8");
                out.insert(relative, text);
            }
        }
    }
    out
}
