//! Reading a folder of fixtures from the disk as the checker's changes: every file below it,
//! in one sorted order, decoded as the checker decodes bytes.

// Each test binary uses a different subset of these helpers.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use skillgraph::index::Change;

/// Every file below `dir`, sorted, leaving out the folders (at any depth) whose name `skip`
/// accepts. Panics, naming the folder, where one cannot be read.
pub fn files_below(dir: &Path, skip: impl Fn(&str) -> bool) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        let entries = std::fs::read_dir(&folder)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", folder.display()));
        for entry in entries {
            let path = entry.expect("directory entry").path();
            if !path.is_dir() {
                files.push(path);
            } else if !skip(path.file_name().and_then(|n| n.to_str()).unwrap_or("")) {
                folders.push(path);
            }
        }
    }
    files.sort();
    files
}

/// A `Change::Set` of each file, its bytes decoded as the checker decodes them.
pub fn read_changes(files: Vec<PathBuf>) -> Vec<Change> {
    files
        .into_iter()
        .map(|path| {
            let bytes = std::fs::read(&path)
                .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
            Change::Set {
                text: skillgraph::syntax::decode(&bytes).text,
                path,
            }
        })
        .collect()
}
