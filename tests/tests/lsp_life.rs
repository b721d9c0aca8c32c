//! The server's life at its edges, against the real binary: requests sent before the initial
//! index is done, roots of every shape an editor sends, bytes that are not well-formed
//! messages, clients that never answer or go away, files changed on disk, and a panic inside
//! the analysis of an edit.

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use skillgraph_e2e::{
    assert_contains, copy_fixture, file_uri, fixture_copy, write_fixture, Client, TIMEOUT,
};

/// "Exits within 1 s", measured with room for a loaded machine.
const EXIT_BOUND: Duration = Duration::from_secs(5);

/// What Helix 25.07 sends outside a git repository: only `rootPath`.
fn helix_initialize(root: Option<&Path>, process_id: Value) -> Value {
    json!({
        "processId": process_id,
        "clientInfo": {"name": "helix", "version": "25.07"},
        "rootPath": root.map(|r| r.to_string_lossy().into_owned()),
        "rootUri": null,
        "workspaceFolders": [],
        "capabilities": {
            "general": {"positionEncodings": ["utf-8", "utf-32", "utf-16"]},
            "window": {"workDoneProgress": true},
            "workspace": {"configuration": true, "workspaceFolders": true},
            "textDocument": {"hover": {"contentFormat": ["markdown"]}},
        },
    })
}

fn open(client: &mut Client, path: &Path) -> String {
    let uri = file_uri(path);
    client.open(&uri, "yaml", 1, &std::fs::read_to_string(path).unwrap());
    uri
}

fn at(uri: &str, line: u32, character: u32) -> Value {
    json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}})
}

/// Hover on the `search-code` rule of the fixture's topology: the runtime's refusal, which
/// only a server that has read the skill files can write.
fn assert_settled_hover(hover: &Value) {
    let text = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(
        text.contains("defined in `skills/search-code.yaml`")
            && text.contains("search-code requires list-conventions, which has not been called"),
        "hover answered as an unsettled server would: {hover}"
    );
}

fn assert_definition_in_skill_file(definition: &Value) {
    assert!(
        definition["uri"]
            .as_str()
            .is_some_and(|u| u.ends_with("/skills/search-code.yaml")),
        "definition answered as an unsettled server would: {definition}"
    );
}

#[test]
fn twenty_fresh_servers_answer_requests_sent_right_after_opening() {
    for attempt in 0..20 {
        let (_dir, mut client, uri) = estate_open();
        // No wait of any kind: the requests go out right behind didOpen.
        let symbols = client.request(
            "textDocument/documentSymbol",
            json!({"textDocument": {"uri": uri}}),
        );
        let hover = client.request("textDocument/hover", at(&uri, 25, 14));
        let definition = client.request("textDocument/definition", at(&uri, 25, 12));
        assert!(symbols.is_array(), "attempt {attempt}: {symbols}");
        assert_settled_hover(&hover);
        assert_definition_in_skill_file(&definition);
    }
}

#[test]
fn helix_with_only_a_root_path_inside_the_workspace_indexes_the_workspace() {
    let dir = fixture_copy("estate");
    // Started from a sub-folder: the workspace around it is what gets indexed.
    let root = dir.path().join("topologies");
    let (mut client, _) = Client::start_with(helix_initialize(Some(&root), Value::Null));
    let uri = open(&mut client, &root.join("estate.yaml"));
    assert_settled_hover(&client.request("textDocument/hover", at(&uri, 25, 14)));
    assert_definition_in_skill_file(&client.request("textDocument/definition", at(&uri, 25, 12)));
    assert!(client.shutdown().success());
}

#[test]
fn no_root_at_all_indexes_the_workspace_around_the_opened_file() {
    let dir = fixture_copy("estate");
    let (mut client, _) = Client::start_with(helix_initialize(None, Value::Null));
    let uri = open(&mut client, &dir.path().join("topologies/estate.yaml"));
    assert_settled_hover(&client.request("textDocument/hover", at(&uri, 25, 14)));
    assert_definition_in_skill_file(&client.request("textDocument/definition", at(&uri, 25, 12)));
}

fn skill(name: &str, extra: &str) -> String {
    format!("---\nname: {name}\ndescription: Does {name}.\n{extra}---\n# {name}\n")
}

#[test]
fn a_root_inside_a_skill_folder_indexes_the_skill_tree() {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path();
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    write_fixture(
        repo,
        &format!(
            "//- /testing/test-unit/SKILL.md\n{}//- /testing/chain-test/SKILL.md\n{}",
            skill("test-unit", ""),
            skill(
                "chain-test",
                "metadata:\n  chain: [test-unit, no-such-skill]\n"
            ),
        ),
    );
    let chain = repo.join("testing/chain-test/SKILL.md");
    // Neovim 0.7 with no marker: the skill's own folder as the root.
    let (mut client, _) = Client::start(&repo.join("testing/chain-test"), json!({}));
    let uri = open(&mut client, &chain);
    let (diagnostics, _) = client.diagnostics(&uri);
    let unknown: Vec<&str> = diagnostics
        .iter()
        .filter(|d| d["code"] == "skillmd.chain-unknown-skill")
        .filter_map(|d| d["message"].as_str())
        .collect();
    assert_eq!(unknown.len(), 1, "{diagnostics:#?}");
    assert!(unknown[0].contains("no-such-skill"), "{unknown:?}");
}

/// The estate fixture under a fresh server, its topology open: the fixture, the client and the
/// topology's URI.
fn estate_open() -> (tempfile::TempDir, Client, String) {
    let dir = fixture_copy("estate");
    let (mut client, _) = Client::start(dir.path(), json!({}));
    let uri = open(&mut client, &dir.path().join("topologies/estate.yaml"));
    (dir, client, uri)
}

/// The estate fixture, and `client` initialized on it with the capabilities of a client that
/// answers none of the server's requests.
fn silent_on_estate(mut client: Client) -> (tempfile::TempDir, Client) {
    let dir = fixture_copy("estate");
    client.request("initialize", silent_client_capabilities(dir.path()));
    client.notify("initialized", json!({}));
    (dir, client)
}

fn silent_client_capabilities(root: &Path) -> Value {
    let uri = file_uri(root);
    json!({
        "processId": null,
        "rootUri": uri,
        "workspaceFolders": [{"uri": uri, "name": "w"}],
        "capabilities": {
            "window": {"workDoneProgress": true},
            "workspace": {"didChangeWatchedFiles": {"dynamicRegistration": true}, "configuration": true},
        },
    })
}

#[test]
fn a_client_that_never_answers_still_gets_answers_and_an_exit() {
    let (dir, mut client) = silent_on_estate(Client::spawn(&[], false));
    let uri = open(&mut client, &dir.path().join("topologies/estate.yaml"));
    assert_settled_hover(&client.request("textDocument/hover", at(&uri, 25, 14)));
    // The server asked for a progress token and got nothing back.
    assert!(client
        .seen
        .iter()
        .any(|m| m["method"] == "window/workDoneProgress/create"));
    // A pull-model settings change: the server asks, and is never answered either.
    client.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": null}),
    );
    client.wait_for("a workspace/configuration request", |m| {
        m["method"] == "workspace/configuration"
    });
    assert_settled_hover(&client.request("textDocument/hover", at(&uri, 25, 14)));
    client.request("shutdown", Value::Null);
    client.notify("exit", Value::Null);
    let (status, took) = client.wait_exit(EXIT_BOUND).expect("exit after `exit`");
    assert!(status.success(), "{status:?}");
    eprintln!("exit after `exit`, with a request of the server unanswered: {took:?}");
}

#[test]
fn the_end_of_input_ends_the_server_whatever_is_pending() {
    let (_dir, mut client) = silent_on_estate(Client::spawn(&[], false));
    client.close_stdin();
    let (_, took) = client
        .wait_exit(EXIT_BOUND)
        .expect("the server outlived its input");
    eprintln!("exit at the end of input: {took:?}");
}

/// The estate fixture under a server started with one of the debug-only test hooks set
/// (`SKILLGRAPH_TEST_STALL`, `SKILLGRAPH_TEST_PANIC`), its topology open: the fixture, the
/// client and the topology's URI. `None` when the server under test is a release build, which
/// reads no hook.
fn estate_with_hook(hook: (&str, &str)) -> Option<(tempfile::TempDir, Client, String)> {
    let dir = fixture_copy("estate");
    let uri = file_uri(dir.path());
    let (mut client, _) = Client::start_with_env(
        json!({
            "processId": null,
            "rootUri": uri,
            "capabilities": {},
            "workspaceFolders": [{"uri": uri, "name": "fixture"}],
        }),
        &[hook],
    );
    if !cfg!(debug_assertions) {
        eprintln!(
            "the server under test is a release build: no {} to provoke",
            hook.0
        );
        return None;
    }
    let doc = open(&mut client, &dir.path().join("topologies/estate.yaml"));
    Some((dir, client, doc))
}

#[test]
fn stdin_closed_mid_indexing_ends_the_server() {
    let dir = fixture_copy("estate");
    // Enough skills that indexing is still going when the input ends.
    for i in 0..3000 {
        std::fs::write(
            dir.path().join(format!("skills/generated-{i}.yaml")),
            std::fs::read_to_string(dir.path().join("skills/list-conventions.yaml"))
                .unwrap()
                .replace("list-conventions", &format!("generated-{i}")),
        )
        .unwrap();
    }
    let (mut client, _) = Client::start(dir.path(), json!({}));
    client.close_stdin();
    let (_, took) = client
        .wait_exit(EXIT_BOUND)
        .expect("the server outlived its input");
    eprintln!("exit at the end of input while indexing: {took:?}");
}

#[test]
fn the_end_of_input_ends_the_server_during_a_long_analysis() {
    // Debug builds read SKILLGRAPH_TEST_STALL: the analysis of every didChange takes a minute
    // while it holds the server's state, as a pathological document's would.
    let Some((_dir, mut client, doc)) = estate_with_hook(("SKILLGRAPH_TEST_STALL", "didChange"))
    else {
        return;
    };
    for version in 2..6 {
        client.edit(&doc, version, [25, 10, 25, 10], "x");
    }
    std::thread::sleep(Duration::from_millis(300));
    client.close_stdin();
    let (_, took) = client
        .wait_exit(EXIT_BOUND)
        .expect("a long analysis held the server past the end of its input");
    eprintln!("exit at the end of input during a long analysis: {took:?}");
}

#[test]
fn a_process_id_that_does_not_exist_ends_the_server() {
    let mut gone = std::process::Command::new("true").spawn().unwrap();
    let pid = gone.id();
    gone.wait().unwrap();
    let dir = fixture_copy("estate");
    let mut client = Client::spawn(&[], true);
    client.request("initialize", helix_initialize(Some(dir.path()), json!(pid)));
    client.notify("initialized", json!({}));
    // The input stays open: only the missing editor can end the server.
    let (_, took) = client
        .wait_exit(TIMEOUT)
        .expect("the server outlived the editor's process");
    eprintln!("exit for a processId that does not exist: {took:?}");
}

#[test]
fn an_editor_that_dies_takes_the_server_with_it() {
    let mut editor = std::process::Command::new("sleep")
        .arg("60")
        .spawn()
        .unwrap();
    let dir = fixture_copy("estate");
    let (mut client, _) =
        Client::start_with(helix_initialize(Some(dir.path()), json!(editor.id())));
    let uri = open(&mut client, &dir.path().join("topologies/estate.yaml"));
    assert_settled_hover(&client.request("textDocument/hover", at(&uri, 25, 14)));
    editor.kill().unwrap();
    editor.wait().unwrap();
    let (_, took) = client
        .wait_exit(TIMEOUT)
        .expect("the server outlived the editor");
    eprintln!("exit after the editor died: {took:?}");
}

#[test]
fn watched_file_events_outside_the_roots_are_ignored() {
    let dir = fixture_copy("estate");
    let elsewhere = tempfile::tempdir().unwrap();
    copy_fixture("estate", elsewhere.path());
    std::fs::write(
        elsewhere.path().join("skills/outsider.yaml"),
        std::fs::read_to_string(elsewhere.path().join("skills/list-conventions.yaml"))
            .unwrap()
            .replace("list-conventions", "outsider"),
    )
    .unwrap();
    let (mut client, _) = Client::start(dir.path(), json!({}));
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [
            {"uri": "file:///", "type": 1},
            {"uri": file_uri(elsewhere.path()), "type": 1},
            {"uri": file_uri(&elsewhere.path().join("skills/outsider.yaml")), "type": 1},
        ]}),
    );
    let symbols = client.request("workspace/symbol", json!({"query": "outsider"}));
    assert_eq!(symbols, json!([]), "files outside the roots were indexed");
}

#[test]
fn a_client_without_file_watching_sees_changes_on_disk() {
    let dir = fixture_copy("estate");
    let (mut client, _) = Client::start(dir.path(), json!({}));
    client.request("workspace/symbol", json!({"query": ""}));
    let broken = dir.path().join("skills/broken.yaml");
    let started = Instant::now();
    std::fs::write(
        &broken,
        "apiVersion: swarmkit/v1\nkind: Skill\nmetadata:\n  id: Not An Id\n",
    )
    .unwrap();
    let (diagnostics, _) = client.diagnostics(&file_uri(&broken));
    assert!(!diagnostics.is_empty());
    eprintln!(
        "a file written on disk was checked after {:?}",
        started.elapsed()
    );
    std::fs::remove_file(&broken).unwrap();
    let (diagnostics, _) = client.diagnostics(&file_uri(&broken));
    assert!(
        diagnostics.is_empty(),
        "a deleted file keeps its diagnostics"
    );
}

#[test]
fn an_edit_whose_analysis_panics_leaves_the_index_as_it_was() {
    // Debug builds read SKILLGRAPH_TEST_PANIC: the first didChange panics after its analysis,
    // before the new index would be swapped in.
    let Some((_dir, mut client, doc)) = estate_with_hook(("SKILLGRAPH_TEST_PANIC", "didChange"))
    else {
        return;
    };
    let edit = |client: &mut Client, version: i64, text: &str| {
        client.edit(&doc, version, [25, 10, 25, 21], text);
    };
    // Rename the rule's skill: the panicking analysis must not leave a half-applied index.
    edit(&mut client, 2, "search-kode");
    let log = client.wait_for("the panic, logged", |m| {
        m["method"] == "window/logMessage"
            && m["params"]["message"]
                .as_str()
                .is_some_and(|t| t.contains("panicked") || t.contains("SKILLGRAPH_TEST_PANIC"))
    });
    let message = log["params"]["message"].as_str().unwrap();
    assert_contains(message, "estate.yaml");
    assert_settled_hover(&client.request("textDocument/hover", at(&doc, 25, 14)));
    // The next edit applies the editor's whole text, the first edit included.
    edit(&mut client, 3, "search-code");
    assert_settled_hover(&client.request("textDocument/hover", at(&doc, 25, 14)));
}

#[test]
fn edits_made_while_the_workspace_is_indexed_survive_the_indexing() {
    // The initial indexing is analysed without the state lock; what the editor does meanwhile
    // is applied again on top of it, so the editor's latest text is what the index holds.
    for attempt in 0..5 {
        let (_dir, mut client, uri) = estate_open();
        client.edit(&uri, 2, [25, 10, 25, 21], "search-kode");
        let symbols = client.request(
            "textDocument/documentSymbol",
            json!({"textDocument": {"uri": uri}}),
        );
        assert!(symbols.is_array(), "attempt {attempt}: {symbols}");
        let published = client.wait_for("diagnostics naming the edited rule", |m| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["uri"] == uri.as_str()
                && m["params"]["diagnostics"].as_array().is_some_and(|d| {
                    d.iter().any(|d| {
                        d["message"]
                            .as_str()
                            .is_some_and(|t| t.contains("search-kode"))
                    })
                })
        });
        assert!(published["params"]["diagnostics"].is_array());
        let hover = client.request("textDocument/hover", at(&uri, 25, 14));
        let text = hover["contents"]["value"].as_str().unwrap_or_default();
        assert!(
            !text.contains("defined in `skills/search-code.yaml`"),
            "attempt {attempt}: the hover answered from the disk's text, not the editor's: {hover}"
        );
        assert!(client.shutdown().success());
    }
}

#[test]
fn an_agent_hover_and_the_outline_answer_while_the_workspace_is_still_indexed() {
    // A client that never answers `window/workDoneProgress/create` holds the initial indexing
    // for the server's answer timeout: it is certainly still running when these requests come.
    let (dir, mut client) = silent_on_estate(Client::spawn(&[], false));
    let uri = open(&mut client, &dir.path().join("topologies/estate.yaml"));
    let symbols = client.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": uri}}),
    );
    // On the id of the agent `engineer`.
    let hover = client.request("textDocument/hover", at(&uri, 15, 14));
    // Diagnostics are held back until the indexing is done: none yet means both answers came
    // before it.
    assert!(
        !client
            .seen
            .iter()
            .any(|m| m["method"] == "textDocument/publishDiagnostics"),
        "the answers waited for the indexing: {:#?}",
        client.seen
    );
    assert!(
        symbols.to_string().contains("\"engineer\""),
        "the topology's outline needs its workspace manifest: {symbols}"
    );
    let text = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(
        text.contains("engineer") && text.contains("workspace still indexing"),
        "{hover}"
    );
    // Any other hover waits for the indexing, and then the agent's hover no longer warns.
    assert_settled_hover(&client.request("textDocument/hover", at(&uri, 25, 14)));
    let settled = client.request("textDocument/hover", at(&uri, 15, 14));
    let settled_text = settled["contents"]["value"].as_str().unwrap_or_default();
    assert!(
        settled_text.contains("engineer") && !settled_text.contains("still indexing"),
        "{settled}"
    );
}

/// A client that never answers one kind of the server's requests (or any of them) gets the
/// diagnostics of files it never opened as promptly as one that answers: the indexing and its
/// publishing wait for no answer.
#[test]
fn a_silent_client_holds_neither_indexing_nor_diagnostics_back() {
    // Which requests the client answers, by method.
    type Answers = fn(&str) -> bool;
    let cases: [(&str, Answers); 4] = [
        ("window/workDoneProgress/create", |m| {
            m != "window/workDoneProgress/create"
        }),
        ("client/registerCapability", |m| {
            m != "client/registerCapability"
        }),
        ("workspace/configuration", |m| {
            m != "workspace/configuration"
        }),
        ("any request", |_| false),
    ];
    for (silent_to, answers) in cases {
        let (dir, mut client) = silent_on_estate(Client::spawn_answering(&[], answers));
        let started = Instant::now();
        // What VS Code sends at once: a pull-model settings change, so the server asks for them.
        client.notify(
            "workspace/didChangeConfiguration",
            json!({"settings": null}),
        );
        let topology = file_uri(&dir.path().join("topologies/estate.yaml"));
        let (diagnostics, _) = client.diagnostics(&topology);
        let took = started.elapsed();
        assert!(!diagnostics.is_empty(), "{silent_to}");
        // The server's own wait for an answer is 5 s; a loaded machine is given 3.
        assert!(
            took < Duration::from_secs(3),
            "silent to {silent_to}: the diagnostics took {took:?}"
        );
        let progress_ends = |seen: &[Value]| {
            seen.iter()
                .any(|m| m["method"] == "$/progress" && m["params"]["value"]["kind"] == "end")
        };
        if silent_to == "window/workDoneProgress/create" || silent_to == "any request" {
            // Nothing is shown on a token that was never granted.
            assert!(!client.seen.iter().any(|m| m["method"] == "$/progress"));
        } else {
            assert!(
                client.seen_eventually(progress_ends),
                "silent to {silent_to}"
            );
        }
        eprintln!("silent to {silent_to}: diagnostics after {took:?}");
        assert!(client.shutdown().success(), "silent to {silent_to}");
    }
}

/// A client that pulls diagnostics and never answers `workspace/diagnostic/refresh` sees the
/// indexing end as promptly as one that answers: the refresh is sent, never waited for.
#[test]
fn a_refresh_never_answered_holds_nothing_back() {
    let dir = fixture_copy("estate");
    let mut client = Client::spawn_answering(&[], |m| m != "workspace/diagnostic/refresh");
    let uri = file_uri(dir.path());
    client.request(
        "initialize",
        json!({
            "processId": null, "rootUri": uri, "workspaceFolders": [{"uri": uri, "name": "w"}],
            "capabilities": {
                "window": {"workDoneProgress": true},
                "textDocument": {"diagnostic": {"dynamicRegistration": false}},
                "workspace": {"diagnostics": {"refreshSupport": true}},
            },
        }),
    );
    client.notify("initialized", json!({}));
    let started = Instant::now();
    client.wait_for("the end of the indexing progress", |m| {
        m["method"] == "$/progress" && m["params"]["value"]["kind"] == "end"
    });
    let took = started.elapsed();
    assert!(
        took < Duration::from_secs(3),
        "the indexing ended after {took:?}"
    );
    let topology = file_uri(&dir.path().join("topologies/estate.yaml"));
    let report = client.request(
        "textDocument/diagnostic",
        json!({"textDocument": {"uri": topology}}),
    );
    assert!(
        report["items"].as_array().is_some_and(|i| !i.is_empty()),
        "{report}"
    );
    assert!(client.shutdown().success());
}
