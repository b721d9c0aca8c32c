//! End-to-end tests live in tests/. This library holds what they share: the LSP client that drives
//! the real `skillgraph` binary over stdio (`crates/lsp-client`, which the LSP bench uses too),
//! the fixtures and small assertion helpers.

use std::path::Path;

use serde_json::{json, Value};
pub use skillgraph_lsp_client::{binary, file_uri, initialize_params, Client, TIMEOUT};

// The one copy of the folder-copying helper, shared with the server's own tests.
#[path = "../../server/tests/support/copy.rs"]
mod copy;
pub use copy::copy_tree;

/// Copies a fixture workspace from `tests/fixtures/<name>` into a fresh temporary directory.
pub fn copy_fixture(name: &str, into: &Path) {
    let from = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(name);
    copy_tree(&from, into);
}

/// A fresh temporary folder holding a copy of the fixture workspace `tests/fixtures/<name>`.
pub fn fixture_copy(name: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_fixture(name, dir.path());
    dir
}

/// A fresh temporary folder holding the files of `fixture` (as [`write_fixture`] writes them).
pub fn fixture_dir(fixture: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write_fixture(dir.path(), fixture);
    dir
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

/// The codes of published diagnostics, in their order.
pub fn codes(diagnostics: &[Value]) -> Vec<String> {
    diagnostics
        .iter()
        .map(|d| d["code"].as_str().unwrap_or_default().to_owned())
        .collect()
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

/// `textDocument/completion` at `line`, `character` of `uri`: the items (of a bare list or of a
/// `CompletionList`) and their labels.
pub fn completion(
    client: &mut Client,
    uri: &str,
    line: u64,
    character: u64,
) -> (Vec<Value>, Vec<String>) {
    let response = client.request(
        "textDocument/completion",
        json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}),
    );
    let items = response
        .as_array()
        .or_else(|| response["items"].as_array())
        .expect("a completion list")
        .clone();
    let labels = items
        .iter()
        .map(|i| i["label"].as_str().expect("a label").to_owned())
        .collect();
    (items, labels)
}

/// `textDocument/documentLink` on `uri`: the links' targets (a link left to resolve has none)
/// and the whole response.
pub fn link_targets(client: &mut Client, uri: &str) -> (Vec<String>, Value) {
    let links = client.request(
        "textDocument/documentLink",
        json!({"textDocument": {"uri": uri}}),
    );
    let targets = links
        .as_array()
        .expect("a list of links")
        .iter()
        .filter_map(|l| l["target"].as_str().map(str::to_owned))
        .collect();
    (targets, links)
}

/// Fails, showing `text` whole, unless it contains `part`.
#[track_caller]
pub fn assert_contains(text: &str, part: &str) {
    assert!(text.contains(part), "expected {part:?} in:\n{text}");
}

/// Fails unless the binary accepts `args`: started with them and an empty stdin, it ends
/// without refusing them.
#[track_caller]
pub fn assert_binary_accepts(args: &[&str]) {
    let output = std::process::Command::new(binary())
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("the skillgraph binary runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        !stderr.contains("unrecognized") && !stderr.contains("Usage:"),
        "`skillgraph {}` was refused: {stderr}",
        args.join(" ")
    );
}

/// The strings of a TOML array (of an editor's configuration); panics on anything else.
pub fn toml_strings(value: &toml::Value) -> Vec<&str> {
    value
        .as_array()
        .unwrap_or_else(|| panic!("a list: {value}"))
        .iter()
        .map(|v| v.as_str().expect("a string"))
        .collect()
}

/// Fails, listing the diagnostics, unless their codes are `expected`, in that order.
#[track_caller]
pub fn assert_codes(diagnostics: &[Value], expected: &[&str]) {
    assert_eq!(codes(diagnostics), expected, "{diagnostics:#?}");
}
