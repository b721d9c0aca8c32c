//! A scripted editing session: 1,000 seeded random edits across the files of a copy of the demo
//! workspace, sent as incremental `didChange`s (UTF-16 positions), must leave the server with the
//! same diagnostics as a fresh `skillgraph check --format json` of the final texts.
//!
//! The edits are what a person does to these files: typos typed into ids (skill ids where they are
//! defined, grants, `requires` rules, archetype defaults) and fixed again, `requires` rules added
//! and removed, stray characters (emoji, CJK, quotes, colons, newlines) typed anywhere, and now and
//! then a file pasted back whole. Every 250 edits, and at the end, the server's last published
//! diagnostics per file are compared with `check` on the texts of that moment.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{json, Value};
use skillgraph_e2e::{binary, copy_tree, file_uri, Client};

const EDITS: usize = 1_000;
const CHECKPOINT_EVERY: usize = 250;
const SEED: u64 = 0x5eed_2026_1129;

/// An archetype nobody uses, toggled between a valid and an invalid `role` to flush the server's
/// diagnostics: the toggle changes only its own diagnostics, so their publication, carrying the
/// toggle's version, comes after every publication of the edits before it. (A skill would not
/// do: its change re-checks the files that read it, and their diagnostics may follow its own.)
const MARKER: &str = "archetypes/zz-marker.yaml";
const MARKER_VALID: &str = "apiVersion: swarmkit/v1
kind: Archetype
metadata:
  id: zz-marker
  name: Marker
  description: Flushes the diagnostics of the session.
role: worker
defaults:
  skills: []
provenance:
  authored_by: human
  version: 1.0.0
";

fn marker_invalid() -> String {
    MARKER_VALID.replace("role: worker", "role: not-a-role")
}

/// SplitMix64: a small, seeded, dependency-free generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// An LSP position (UTF-16 columns) of a byte offset; lines end at `\n` (the session never types
/// a lone `\r`).
fn position(text: &str, offset: usize) -> Value {
    let before = &text[..offset];
    let line = before.matches('\n').count();
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let character: usize = before[line_start..].chars().map(char::len_utf16).sum();
    json!({"line": line, "character": character})
}

/// Byte offsets of the char boundaries of `text[from..to]`, both ends included.
fn boundaries(text: &str, from: usize, to: usize) -> Vec<usize> {
    (from..=to).filter(|&i| text.is_char_boundary(i)).collect()
}

struct Document {
    relative: String,
    uri: String,
    original: String,
    text: String,
    version: i64,
}

/// One replacement of `text[start..end]`.
#[derive(Debug)]
struct Replace {
    start: usize,
    end: usize,
    with: String,
}

const SEPARATORS: &[char] = &[
    ' ', ',', '[', ']', ':', '\n', '"', '\'', '#', '{', '}', '\t',
];

/// Edit distance at most one (one insertion, deletion or substitution), by chars.
fn one_edit_apart(a: &str, b: &str) -> bool {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    if a == b || a.len().abs_diff(b.len()) > 1 {
        return false;
    }
    let prefix = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let suffix = a[prefix..]
        .iter()
        .rev()
        .zip(b[prefix..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    a.len().max(b.len()) - prefix - suffix <= 1
}

/// Tokens of a text: maximal runs without separators, as (start, end) byte ranges.
fn tokens(text: &str) -> Vec<(usize, usize)> {
    let mut found = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        if SEPARATORS.contains(&c) {
            if let Some(s) = start.take() {
                found.push((s, i));
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        found.push((s, text.len()));
    }
    found
}

/// The next edit of the script for this document, or `None` when the chosen kind has nothing to
/// act on here.
fn script_edit(rng: &mut Rng, doc: &Document, ids: &[String]) -> Option<Replace> {
    let text = &doc.text;
    let typo_chars = ["x", "-", "é", "技", "🚀", "_", "1", "s"];
    match rng.below(100) {
        // A typo inside an id.
        0..=34 => {
            let occurrences: Vec<(usize, usize)> = ids
                .iter()
                .flat_map(|id| {
                    text.match_indices(id.as_str())
                        .map(|(i, m)| (i, i + m.len()))
                })
                .collect();
            if occurrences.is_empty() {
                return None;
            }
            let (start, end) = *rng.pick(&occurrences);
            let inside = boundaries(text, start, end);
            let at = *rng.pick(&inside);
            match rng.below(3) {
                0 => Some(Replace {
                    start: at,
                    end: at,
                    with: rng.pick(&typo_chars).to_string(),
                }),
                1 if at < end => {
                    let next = at + text[at..].chars().next().unwrap().len_utf8();
                    Some(Replace {
                        start: at,
                        end: next,
                        with: String::new(),
                    })
                }
                _ if at < end => {
                    let next = at + text[at..].chars().next().unwrap().len_utf8();
                    Some(Replace {
                        start: at,
                        end: next,
                        with: rng.pick(&typo_chars).to_string(),
                    })
                }
                _ => None,
            }
        }
        // A typo fixed: a token one edit away from an id becomes that id.
        35..=59 => {
            let fixes: Vec<(usize, usize, &String)> = tokens(text)
                .into_iter()
                .filter_map(|(s, e)| {
                    let token = &text[s..e];
                    if ids.iter().any(|id| id == token) {
                        return None;
                    }
                    ids.iter()
                        .find(|id| one_edit_apart(token, id))
                        .map(|id| (s, e, id))
                })
                .collect();
            if fixes.is_empty() {
                return None;
            }
            let (start, end, id) = *rng.pick(&fixes);
            Some(Replace {
                start,
                end,
                with: id.clone(),
            })
        }
        // A `requires` rule added below a `requires:` key.
        60..=71 => {
            let keys: Vec<(usize, usize)> = text
                .match_indices("requires:\n")
                .map(|(i, m)| {
                    let line_start = text[..i].rfind('\n').map_or(0, |n| n + 1);
                    (i + m.len(), i - line_start)
                })
                .collect();
            if keys.is_empty() {
                return None;
            }
            let (after, indent) = *rng.pick(&keys);
            let (a, b) = (rng.pick(ids), rng.pick(ids));
            Some(Replace {
                start: after,
                end: after,
                with: format!("{}{a}: [{b}]\n", " ".repeat(indent + 2)),
            })
        }
        // A `requires` rule removed: a line right below a `requires:` key.
        72..=81 => {
            let rules: Vec<(usize, usize)> = text
                .match_indices("requires:\n")
                .filter_map(|(i, m)| {
                    let start = i + m.len();
                    let end = text[start..].find('\n').map(|n| start + n + 1)?;
                    text[start..end]
                        .trim_start()
                        .contains(": ")
                        .then_some((start, end))
                })
                .collect();
            if rules.is_empty() {
                return None;
            }
            let (start, end) = *rng.pick(&rules);
            Some(Replace {
                start,
                end,
                with: String::new(),
            })
        }
        // A stray character typed, or one deleted, anywhere.
        82..=95 => {
            let at = *rng.pick(&boundaries(text, 0, text.len()));
            if rng.below(2) == 0 || at == text.len() {
                let stray = [
                    "🚀", "技能", "\"", ":", "\n", " ", "\t", "[", "- ", "#", "é",
                ];
                Some(Replace {
                    start: at,
                    end: at,
                    with: rng.pick(&stray).to_string(),
                })
            } else {
                let next = at + text[at..].chars().next().unwrap().len_utf8();
                Some(Replace {
                    start: at,
                    end: next,
                    with: String::new(),
                })
            }
        }
        // The whole file pasted back as it was.
        _ => Some(Replace {
            start: 0,
            end: text.len(),
            with: doc.original.clone(),
        }),
    }
}

/// Applies replacements to a document, in order, and sends them as one `didChange`.
fn send_edits(client: &mut Client, doc: &mut Document, edits: Vec<Replace>) {
    let mut changes = Vec::new();
    for edit in edits {
        changes.push(json!({
            "range": {
                "start": position(&doc.text, edit.start),
                "end": position(&doc.text, edit.end),
            },
            "text": edit.with,
        }));
        doc.text.replace_range(edit.start..edit.end, &edit.with);
    }
    doc.version += 1;
    client.notify(
        "textDocument/didChange",
        json!({
            "textDocument": {"uri": doc.uri, "version": doc.version},
            "contentChanges": changes,
        }),
    );
}

/// (code, [line, char, line, char], severity, message), sorted: what the comparison looks at.
type Summary = Vec<(String, [u64; 4], String, String)>;

fn summary_of_lsp(diagnostics: &[Value]) -> Summary {
    let mut summary: Summary = diagnostics
        .iter()
        .map(|d| {
            let (code, range) = skillgraph_e2e::code_and_range(d);
            let severity = match d["severity"].as_u64() {
                Some(1) => "error",
                Some(2) => "warning",
                Some(3) => "info",
                Some(4) => "hint",
                _ => "?",
            };
            (
                code,
                range,
                severity.to_owned(),
                d["message"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect();
    summary.sort();
    summary
}

/// What the server last published per file (relative path), empty lists left out.
fn server_diagnostics(client: &Client, root_uri: &str) -> BTreeMap<String, Summary> {
    let mut last = BTreeMap::new();
    for message in &client.seen {
        if message["method"] != "textDocument/publishDiagnostics" {
            continue;
        }
        let uri = message["params"]["uri"].as_str().unwrap();
        let relative = uri
            .strip_prefix(root_uri)
            .and_then(|r| r.strip_prefix('/'))
            .unwrap_or_else(|| panic!("diagnostics for {uri}, outside the workspace"))
            .to_owned();
        let diagnostics = message["params"]["diagnostics"].as_array().unwrap();
        last.insert(relative, summary_of_lsp(diagnostics));
    }
    last.retain(|_, d| !d.is_empty());
    last
}

/// `skillgraph check --format json` of a copy of the workspace with the documents' texts.
fn check_diagnostics(root: &Path, documents: &[Document]) -> BTreeMap<String, Summary> {
    let fresh = tempfile::tempdir().unwrap();
    copy_tree(root, fresh.path());
    for doc in documents {
        std::fs::write(fresh.path().join(&doc.relative), &doc.text).unwrap();
    }
    let output = Command::new(binary())
        .args(["check", "--format", "json"])
        .arg(fresh.path())
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "check printed no JSON ({e}): {}",
            String::from_utf8_lossy(&output.stderr)
        )
    });
    let prefix = format!("{}/", fresh.path().display());
    let mut by_file: BTreeMap<String, Summary> = BTreeMap::new();
    for d in report["diagnostics"].as_array().unwrap() {
        let path = d["path"].as_str().unwrap();
        let relative = path.strip_prefix(&prefix).unwrap_or(path).to_owned();
        let (code, range) = skillgraph_e2e::code_and_range(d);
        by_file.entry(relative).or_default().push((
            code,
            range,
            d["severity"].as_str().unwrap().to_owned(),
            d["message"].as_str().unwrap().to_owned(),
        ));
    }
    for summary in by_file.values_mut() {
        summary.sort();
    }
    by_file
}

fn yaml_files(root: &Path, relative: &str, into: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(root.join(relative)) else {
        return;
    };
    let mut names: Vec<PathBuf> = entries.map(|e| e.unwrap().path()).collect();
    names.sort();
    for path in names {
        if path.extension().is_some_and(|e| e == "yaml") {
            let name = path.file_name().unwrap().to_str().unwrap();
            into.push(
                format!("{relative}/{name}")
                    .trim_start_matches('/')
                    .to_owned(),
            );
        }
    }
}

/// Toggles the marker and waits for its diagnostics: every publication before it has arrived.
fn flush(client: &mut Client, marker: &mut Document) {
    let next = if marker.text == MARKER_VALID {
        marker_invalid()
    } else {
        MARKER_VALID.to_owned()
    };
    let end = marker.text.len();
    send_edits(
        client,
        marker,
        vec![Replace {
            start: 0,
            end,
            with: next,
        }],
    );
    let version = json!(marker.version);
    let uri = marker.uri.clone();
    client.wait_for("the marker's diagnostics", |m| {
        m["method"] == "textDocument/publishDiagnostics"
            && m["params"]["uri"] == uri
            && m["params"]["version"] == version
    });
}

fn compare(
    client: &Client,
    root: &Path,
    root_uri: &str,
    documents: &[Document],
    at: usize,
    last_edit: &str,
) {
    let server = server_diagnostics(client, root_uri);
    let check = check_diagnostics(root, documents);
    let files: BTreeSet<&String> = server.keys().chain(check.keys()).collect();
    let mut differences = Vec::new();
    for file in files {
        let (s, c) = (server.get(file), check.get(file));
        if s != c {
            differences.push(format!(
                "{file}:\n  server: {s:#?}\n  check:  {c:#?}\n  text:\n{}",
                documents
                    .iter()
                    .find(|d| &d.relative == file)
                    .map_or("(not open)", |d| d.text.as_str())
            ));
        }
    }
    assert!(
        differences.is_empty(),
        "after {at} edits the server and check disagree (the last edit: {last_edit}):\n{}",
        differences.join("\n")
    );
}

#[test]
fn a_thousand_edit_session_ends_with_the_diagnostics_of_a_fresh_check() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let demo = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .join("examples/demo/build-conventions");
    copy_tree(&demo, root);
    std::fs::write(root.join(MARKER), MARKER_VALID).unwrap();

    let mut relative = Vec::new();
    for dir in ["", "topologies", "archetypes", "skills", "triggers"] {
        yaml_files(root, dir, &mut relative);
    }
    relative.retain(|r| r != MARKER);
    assert!(relative.len() >= 10, "{relative:?}");

    let root_uri = file_uri(root);
    let (mut client, _) = Client::start(
        root,
        json!({
            "general": {"positionEncodings": ["utf-16"]},
            "window": {"workDoneProgress": true},
        }),
    );
    client.wait_for("the end of the initial indexing", |m| {
        m["method"] == "$/progress" && m["params"]["value"]["kind"] == "end"
    });

    let open = |client: &mut Client, relative: &str| -> Document {
        let text = std::fs::read_to_string(root.join(relative)).unwrap();
        let uri = file_uri(&root.join(relative));
        client.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "yaml", "version": 0, "text": text}}),
        );
        Document {
            relative: relative.to_owned(),
            uri,
            original: text.clone(),
            text,
            version: 0,
        }
    };
    let mut documents: Vec<Document> = relative.iter().map(|r| open(&mut client, r)).collect();
    let mut marker = open(&mut client, MARKER);

    // Every id the workspace defines or names: what typos are typed into and fixed back to.
    let mut ids: BTreeSet<String> = BTreeSet::new();
    for doc in &documents {
        for (s, e) in tokens(&doc.text) {
            let token = &doc.text[s..e];
            if token.len() > 3
                && token
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
                && token.contains('-')
            {
                ids.insert(token.to_owned());
            }
        }
    }
    let ids: Vec<String> = ids.into_iter().collect();
    assert!(ids.len() >= 10, "{ids:?}");

    let mut rng = Rng(SEED);
    let mut done = 0;
    // SKILLGRAPH_SESSION_CHECK_EVERY=1 compares after every edit, to find the first that differs.
    let every = std::env::var("SKILLGRAPH_SESSION_CHECK_EVERY")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(CHECKPOINT_EVERY);
    let mut next_checkpoint = every;
    while done < EDITS {
        let which = rng.below(documents.len());
        // One notification in ten carries two changes.
        let count = if rng.below(10) == 0 { 2 } else { 1 };
        let mut edits = Vec::new();
        let mut scratch = Document {
            relative: String::new(),
            uri: String::new(),
            original: documents[which].original.clone(),
            text: documents[which].text.clone(),
            version: 0,
        };
        for _ in 0..count {
            if let Some(edit) = script_edit(&mut rng, &scratch, &ids) {
                scratch.text.replace_range(edit.start..edit.end, &edit.with);
                edits.push(edit);
            }
        }
        if edits.is_empty() {
            continue;
        }
        done += edits.len();
        let last_edit = format!("{} {edits:?}", documents[which].relative);
        send_edits(&mut client, &mut documents[which], edits);
        if done >= next_checkpoint || done >= EDITS {
            next_checkpoint = done + every;
            flush(&mut client, &mut marker);
            let mut all: Vec<&Document> = documents.iter().collect();
            all.push(&marker);
            let snapshot: Vec<Document> = all
                .into_iter()
                .map(|d| Document {
                    relative: d.relative.clone(),
                    uri: d.uri.clone(),
                    original: String::new(),
                    text: d.text.clone(),
                    version: d.version,
                })
                .collect();
            compare(&client, root, &root_uri, &snapshot, done, &last_edit);
        }
    }
    // The session changed things: not every file is back to where it started.
    assert!(documents.iter().any(|d| d.text != d.original));
    assert!(client.shutdown().success());
}
