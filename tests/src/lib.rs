//! End-to-end tests live in tests/. This library holds what they share: the LSP client that drives
//! the real `skillgraph` binary over stdio (`crates/lsp-client`, which the LSP bench uses too),
//! the fixtures and small assertion helpers.

use std::path::Path;

use serde_json::Value;
pub use skillgraph_lsp_client::{binary, file_uri, Client, TIMEOUT};

/// Copies a fixture workspace from `tests/fixtures/<name>` into a fresh temporary directory.
pub fn copy_fixture(name: &str, into: &Path) {
    let from = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(name);
    copy_tree(&from, into);
}

/// Copies the folder `from` into `to` (made when missing), recursively.
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// Writes the files of a fixture in the one fixture format (`skillgraph::testing`: each file
/// after a `//- /path` line) below `root`, every `/path` taken relative to it.
pub fn write_fixture(root: &Path, fixture: &str) {
    for file in skillgraph::testing::parse_fixture(fixture) {
        let path = root.join(file.path.trim_start_matches('/'));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, file.text).unwrap();
    }
}

/// `(code, [start line, start char, end line, end char])` of each diagnostic, for exact
/// comparisons.
pub fn code_and_range(diagnostic: &Value) -> (String, [u64; 4]) {
    let r = &diagnostic["range"];
    (
        diagnostic["code"].as_str().unwrap_or("").to_owned(),
        [
            r["start"]["line"].as_u64().unwrap(),
            r["start"]["character"].as_u64().unwrap(),
            r["end"]["line"].as_u64().unwrap(),
            r["end"]["character"].as_u64().unwrap(),
        ],
    )
}
