//! SwarmKit's audit log in the editor, through the real server: on a workspace copied from a real
//! log (server/tests/fixtures/audit), the hover on a `requires:` rule shows its counts and a lens
//! on each rule its summary; editing a rule changes its replay at once, with the log deleted
//! (so answered from memory, not from the file); a changed log is read again when the editor
//! reports it; and the settings turn the lens, then the whole feature, off.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{json, Value};
use skillgraph_e2e::{assert_contains, copy_tree, file_uri, Client};

/// A real log's folder: its workspace and `audit.sqlite`.
fn real_log(scenario: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../server/tests/fixtures/audit")
        .join(scenario)
}

/// The `recover` scenario's workspace, in a fresh temporary folder, with its log where the
/// runtime writes it: the folder, the workspace and the log.
fn workspace() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("notes");
    copy_tree(&real_log("recover").join("workspace"), &ws);
    std::fs::create_dir_all(ws.join(".swarmkit")).unwrap();
    let log = ws.join(".swarmkit/audit.sqlite");
    std::fs::copy(real_log("recover").join("audit.sqlite"), &log).unwrap();
    (dir, ws, log)
}

fn capabilities() -> Value {
    json!({
        "general": {"positionEncodings": ["utf-16"]},
        "workspace": {
            "didChangeWatchedFiles": {"dynamicRegistration": true},
            "codeLens": {"refreshSupport": true},
        },
    })
}

fn start(ws: &Path, options: Value) -> Client {
    start_with(ws, options, capabilities())
}

fn start_with(ws: &Path, options: Value, capabilities: Value) -> Client {
    let uri = file_uri(ws);
    let env = [
        ("SWARMKIT_STORE_URL", ""),
        ("SWARMKIT_STORE_BACKEND", ""),
        ("DATABASE_URL", ""),
    ];
    let (client, _) = Client::start_with_env(
        json!({
            "processId": null,
            "rootUri": uri,
            "capabilities": capabilities,
            "workspaceFolders": [{"uri": uri, "name": "notes"}],
            "initializationOptions": options,
        }),
        &env,
    );
    client
}

fn is_read_message(m: &Value) -> bool {
    m["method"] == "window/logMessage"
        && m["params"]["message"]
            .as_str()
            .is_some_and(|t| t.starts_with("skillgraph: audit log"))
}

/// Waits for the server's next word about the log (`what` names it in a timeout), and returns it.
fn log_said(client: &mut Client, what: &str) -> String {
    let said = client.wait_for(what, is_read_message);
    said["params"]["message"].as_str().unwrap().to_owned()
}

/// Opens the topology of the workspace `ws` in the editor, as it is on disk; its URI.
fn open_topology(client: &mut Client, ws: &Path) -> String {
    let topology = ws.join("topologies/notes.yaml");
    let uri = file_uri(&topology);
    let text = std::fs::read_to_string(&topology).unwrap();
    client.open(&uri, "yaml", 1, &text);
    uri
}

/// Tells the server, as an editor that watches files does, that the log `log` was written.
fn log_written(client: &mut Client, log: &Path) {
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": file_uri(log), "type": 1}]}),
    );
}

fn hover_text(client: &mut Client, uri: &str, line: u32, character: u32) -> (Duration, String) {
    let (took, response) = client.timed_request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}),
    );
    let text = response["result"]["contents"]["value"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    (took, text)
}

/// The titles of the lenses on lines 15 and 16 (the two rules) of the topology.
fn rule_lenses(client: &mut Client, uri: &str) -> Vec<(u64, String)> {
    let lenses = client.request(
        "textDocument/codeLens",
        json!({"textDocument": {"uri": uri}}),
    );
    lenses
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .filter(|l| l["range"]["start"]["line"].as_u64().unwrap() >= 15)
        .map(|l| {
            (
                l["range"]["start"]["line"].as_u64().unwrap(),
                l["command"]["title"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[test]
fn the_rules_show_what_the_log_observed_and_the_replay_follows_the_buffer() {
    let (_dir, ws, log) = workspace();
    let mut client = start(&ws, json!({}));
    let said = log_said(&mut client, "the log read");
    assert_contains(&said, ".swarmkit/audit.sqlite read: 13 rows, 2 runs kept");
    let uri = open_topology(&mut client, &ws);

    // The hover on the rule `get-note: [list-notes]` (line 15).
    let (took, hover) = hover_text(&mut client, &uri, 15, 8);
    assert_contains(&hover, "**Observed** in the audit log");
    assert!(
        hover.contains(
            "`reader` of `notes` ran in 2 runs; it called `get-note` in 2 runs (5 calls)"
        ),
        "{hover}"
    );
    assert_contains(&hover, "- refused 3 · recovered 2 · gave up 0");
    assert_contains(&hover, "would refuse in 0 of 2 runs");
    // From memory: no read of the log on the way (a debug build, on a shared machine).
    assert!(took < Duration::from_secs(1), "the hover took {took:?}");

    assert_eq!(
        rule_lenses(&mut client, &uri),
        [
            (
                15,
                "called in 2 of 2 runs · refused 3 · recovered 2 · gave up 0".to_owned()
            ),
            (16, "called in 1 of 2 runs · refused 0".to_owned()),
        ]
    );

    // The log goes (the editor is not told): an edit is replayed from memory all the same.
    std::fs::remove_file(&log).unwrap();
    client.edit(&uri, 2, [16, 19, 16, 27], "search-notes");
    let (_, hover) = hover_text(&mut client, &uri, 16, 8);
    assert_contains(&hover, "would refuse in 1 of 2 runs (first: run `");
    assert_contains(&hover, "missing `search-notes`");
    assert_eq!(
        rule_lenses(&mut client, &uri)[1],
        (
            16,
            "called in 1 of 2 runs · refused 0 · as written now would refuse 1 run".to_owned()
        )
    );
    let reads = client.seen.iter().filter(|m| is_read_message(m)).count();
    assert_eq!(reads, 1, "the log was read again");

    // A new log (the `give-up` scenario's) where the runtime writes it, reported by the editor.
    std::fs::copy(real_log("give-up").join("audit.sqlite"), &log).unwrap();
    log_written(&mut client, &log);
    let said = log_said(&mut client, "the new log read");
    assert_contains(&said, "read: 3 rows, 1 runs kept");
    let (_, hover) = hover_text(&mut client, &uri, 15, 8);
    assert_contains(&hover, "- refused 1 · recovered 0 · gave up 1");

    // The lens off: the lenses go, the hover stays.
    client.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"skillgraph": {"audit": {"lens": false}}}}),
    );
    assert!(rule_lenses(&mut client, &uri).is_empty());
    let (_, hover) = hover_text(&mut client, &uri, 15, 8);
    assert_contains(&hover, "**Observed**");

    // Off altogether: no counts anywhere.
    client.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"skillgraph": {"audit": {"enabled": false}}}}),
    );
    let (_, hover) = hover_text(&mut client, &uri, 15, 8);
    assert!(
        !hover.is_empty() && !hover.contains("**Observed**"),
        "{hover}"
    );
    assert!(rule_lenses(&mut client, &uri).is_empty());
    client.shutdown();
}

#[test]
fn turned_off_by_the_editor_the_log_is_never_read() {
    let (_dir, ws, _) = workspace();
    let mut client = start(&ws, json!({"skillgraph": {"audit": {"enabled": false}}}));
    let uri = open_topology(&mut client, &ws);
    let (_, hover) = hover_text(&mut client, &uri, 15, 8);
    assert_contains(&hover, "get-note");
    assert!(!hover.contains("**Observed**"), "{hover}");
    assert!(rule_lenses(&mut client, &uri).is_empty());
    assert!(!client.seen.iter().any(is_read_message));
    client.shutdown();
}

#[test]
fn with_an_editor_that_watches_nothing_the_server_sees_the_log_change_itself() {
    let (_dir, ws, log) = workspace();
    let mut client = start_with(
        &ws,
        json!({}),
        json!({"general": {"positionEncodings": ["utf-16"]}}),
    );
    assert_contains(&log_said(&mut client, "the log read"), "13 rows");
    // The runtime's next runs, as a new log in its place: no event from the editor.
    let next = ws.join(".swarmkit/next.sqlite");
    std::fs::copy(real_log("give-up").join("audit.sqlite"), &next).unwrap();
    std::fs::rename(&next, &log).unwrap();
    assert_contains(&log_said(&mut client, "the new log read"), "3 rows");
    client.shutdown();
}

#[test]
fn a_workspace_with_no_log_yet_shows_nothing_until_its_first_run() {
    let (_dir, ws, log) = workspace();
    std::fs::remove_file(&log).unwrap();
    let mut client = start(&ws, json!({}));
    let said = log_said(&mut client, "the log looked for");
    assert!(
        said.ends_with(".swarmkit/audit.sqlite: none yet (no runs recorded)"),
        "{said}"
    );
    let uri = open_topology(&mut client, &ws);
    let (_, hover) = hover_text(&mut client, &uri, 15, 8);
    assert_contains(&hover, "get-note");
    assert!(
        !hover.contains("Observed") && !hover.contains("Audit log"),
        "{hover}"
    );
    assert!(rule_lenses(&mut client, &uri).is_empty());
    // The first run writes the log; the editor reports it.
    std::fs::copy(real_log("recover").join("audit.sqlite"), &log).unwrap();
    log_written(&mut client, &log);
    client.wait_for("the log read", is_read_message);
    let (_, hover) = hover_text(&mut client, &uri, 15, 8);
    assert_contains(&hover, "- refused 3 · recovered 2 · gave up 0");
    client.shutdown();
}
