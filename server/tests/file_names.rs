//! File names are bytes: a name holding `\`, `"`, a newline or bytes that are not UTF-8 is
//! discovered, classified and checked like any other, reported as it is (lossy only for
//! display), and every output format stays valid.
#![cfg(unix)]

#[path = "support/text.rs"]
mod text;
use text::assert_contains;

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;

use skillgraph::check::run_check;
use skillgraph::cli::{render, Format};

const WORKSPACE: &str = "apiVersion: swarmkit/v1\nkind: Workspace\nmetadata:\n  id: ws\n  name: WS\n  description: Odd names.\n";

fn skill(id: &str) -> String {
    format!(
        "apiVersion: swarmkit/v1\nkind: Skill\nmetadata:\n  id: {id}\n  name: {id}\n  description: A skill with an odd file name.\ncategory: capability\nimplementation:\n  type: mcp_tool\n  server: nowhere\n  tool: {id}\nprovenance:\n  authored_by: human\n  version: 1.0.0\n"
    )
}

/// The odd names, as bytes, and the skill id each file defines.
const NAMES: [(&[u8], &str); 4] = [
    (b"back\\slash.yaml", "back"),
    (b"quo\"te.yaml", "quote"),
    (b"new\nline.yaml", "newline"),
    (b"not-utf8-\xff.yaml", "latin"),
];

fn workspace() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("workspace.yaml"), WORKSPACE).unwrap();
    std::fs::create_dir(dir.path().join("skills")).unwrap();
    for (name, id) in NAMES {
        let path = dir.path().join("skills").join(OsStr::from_bytes(name));
        std::fs::write(path, skill(id)).unwrap();
    }
    dir
}

#[test]
fn odd_file_names_are_found_checked_and_shown_as_they_are() {
    let dir = workspace();
    let outcome = run_check(&[dir.path().to_path_buf()]).unwrap();
    let mut flagged: Vec<PathBuf> = outcome
        .diagnostics
        .iter()
        .filter(|d| d.code == "skill.unknown-mcp-server")
        .map(|d| outcome.index.file(d.file).unwrap().path.clone())
        .collect();
    flagged.sort();
    let mut expected: Vec<PathBuf> = NAMES
        .iter()
        .map(|(name, _)| dir.path().join("skills").join(OsStr::from_bytes(name)))
        .collect();
    expected.sort();
    // Each file is checked, keyed by its bytes.
    assert_eq!(flagged, expected);
    let shown: Vec<String> = expected.iter().map(|p| outcome.display_path(p)).collect();
    assert_one_ends_with(
        &shown,
        &[
            "skills/back\\slash.yaml",
            "skills/quo\"te.yaml",
            "skills/new\nline.yaml",
            "skills/not-utf8-\u{fffd}.yaml",
        ],
    );
}

/// Fails, listing `shown`, unless each of `endings` ends one of them.
#[track_caller]
fn assert_one_ends_with(shown: &[String], endings: &[&str]) {
    for ending in endings {
        assert!(
            shown.iter().any(|s| s.ends_with(ending)),
            "{ending:?} ends none of {shown:?}"
        );
    }
}

fn rendered(format: Format) -> String {
    let dir = workspace();
    let outcome = run_check(&[dir.path().to_path_buf()]).unwrap();
    let mut out = Vec::new();
    render(format, &outcome.report(), &mut out, false).unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn json_and_sarif_stay_valid_with_odd_names() {
    let json: serde_json::Value = serde_json::from_str(&rendered(Format::Json)).unwrap();
    let text = json.to_string();
    assert!(
        text.contains("back\\\\slash.yaml") && text.contains("new\\nline.yaml"),
        "{text}"
    );
    let sarif: serde_json::Value = serde_json::from_str(&rendered(Format::Sarif)).unwrap();
    let uris: Vec<String> = sarif["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    // URIs are percent-encoded: no raw backslash, quote or newline survives.
    assert_one_ends_with(
        &uris,
        &[
            "skills/back%5Cslash.yaml",
            "skills/quo%22te.yaml",
            "skills/new%0Aline.yaml",
        ],
    );
    assert!(
        uris.iter().all(|u| !u.contains(['\\', '"', '\n'])),
        "{uris:?}"
    );
}

#[test]
fn github_annotations_stay_one_per_line_with_odd_names() {
    let out = rendered(Format::Github);
    let annotations: Vec<&str> = out.lines().filter(|l| l.starts_with("::")).collect();
    let unknown = annotations
        .iter()
        .filter(|l| l.contains("title=skill.unknown-mcp-server"))
        .count();
    assert_eq!(unknown, NAMES.len(), "{out}");
    assert_contains(&out, "new%0Aline.yaml");
}
