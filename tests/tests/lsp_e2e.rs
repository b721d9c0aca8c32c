//! The real `skillgraph lsp` binary over stdio, driven as VS Code (UTF-16 only) and as a client
//! offering UTF-8 would drive it, on a copy of `tests/fixtures/estate`.
//!
//! Line 22 of the topology holds CJK and an emoji before two of its diagnostics, so UTF-16 and
//! UTF-8 columns differ there:
//! `        skills: [list-conventions, "技能🚀", get-convension, search-code]`

use std::path::Path;

use serde_json::{json, Value};
use skillgraph_e2e::{
    assert_contains, code_and_range, copy_fixture, file_uri, fixture_copy, initialize_params,
    write_fixture, Client,
};

const TOPOLOGY: &str = "topologies/estate.yaml";

fn vscode_capabilities() -> Value {
    json!({
        "general": {"positionEncodings": ["utf-16"]},
        "window": {"workDoneProgress": true},
        "workspace": {"didChangeWatchedFiles": {"dynamicRegistration": true}},
        "textDocument": {"hover": {"contentFormat": ["markdown", "plaintext"]}},
    })
}

fn utf8_capabilities() -> Value {
    json!({"general": {"positionEncodings": ["utf-8", "utf-16"]}})
}

/// The diagnostics about agents, as (code, range): the codes this test is about (schema checks
/// and others may add their own diagnostics to the file without breaking it).
fn agent_diagnostics(diagnostics: &[Value]) -> Vec<(String, [u64; 4])> {
    diagnostics
        .iter()
        .map(code_and_range)
        .filter(|(code, _)| code.starts_with("agent."))
        .collect()
}

fn d(code: &str, range: [u64; 4]) -> (String, [u64; 4]) {
    (code.to_owned(), range)
}

/// The two unknown grants of line 22, after CJK and an emoji: in UTF-16 columns, in bytes.
const UTF16_GRANTS: [[u64; 4]; 2] = [[22, 35, 22, 41], [22, 43, 22, 57]];
const UTF8_GRANTS: [[u64; 4]; 2] = [[22, 35, 22, 47], [22, 49, 22, 63]];

/// The fixture's agent diagnostics, with the unknown grants of line 22 at `grants`.
fn estate_diagnostics(grants: [[u64; 4]; 2]) -> Vec<(String, [u64; 4])> {
    vec![
        d("agent.unknown-skill", grants[0]),
        d("agent.unknown-skill", grants[1]),
        d("agent.unknown-skill", [23, 28, 23, 37]),
        d("agent.requires-unknown-skill", [25, 24, 25, 38]),
        d("agent.requires-unknown-skill", [26, 10, 26, 24]),
    ]
}

/// The agent diagnostics left once the typo `get-convension` is fixed: the unknown grant
/// `技能🚀` (at `grants[0]`) and the unknown additional skill `audit-log`.
fn fixed_typo_diagnostics(grants: [[u64; 4]; 2]) -> Vec<(String, [u64; 4])> {
    vec![
        d("agent.unknown-skill", grants[0]),
        d("agent.unknown-skill", [23, 28, 23, 37]),
    ]
}

/// A fresh copy of the estate fixture, and its topology's URI.
fn estate_copy() -> (tempfile::TempDir, String) {
    let dir = fixture_copy("estate");
    let topology = file_uri(&dir.path().join(TOPOLOGY));
    (dir, topology)
}

/// A copy of the estate fixture and a client started on it with `capabilities`, once the
/// topology's first diagnostics are in: the folder, the client, the `initialize` result, the
/// topology's URI and those diagnostics.
fn start_estate(capabilities: Value) -> (tempfile::TempDir, Client, Value, String, Vec<Value>) {
    start_estate_with(&[], |root| initialize_params(root, capabilities))
}

/// Like [`start_estate`], with the `initialize` params made from the copy's root and `env`
/// for the server process.
fn start_estate_with(
    env: &[(&str, &str)],
    initialize: impl FnOnce(&Path) -> Value,
) -> (tempfile::TempDir, Client, Value, String, Vec<Value>) {
    let (dir, topology) = estate_copy();
    let (mut client, init) = Client::start_with_env(initialize(dir.path()), env);
    let (diagnostics, _) = client.diagnostics(&topology);
    (dir, client, init, topology, diagnostics)
}

/// Edits the open document `uri`, now at `version` (`range` replaced by `text`), and waits for
/// its diagnostics, which must be those of that version.
fn edit_and_wait(
    client: &mut Client,
    uri: &str,
    version: i64,
    range: [u32; 4],
    text: &str,
) -> Vec<Value> {
    client.edit(uri, version, range, text);
    let (diagnostics, seen) = client.diagnostics(uri);
    assert_eq!(seen, version, "{diagnostics:#?}");
    diagnostics
}

fn open(client: &mut Client, root: &Path, relative: &str, version: i64) -> String {
    let path = root.join(relative);
    let uri = file_uri(&path);
    client.open(
        &uri,
        "yaml",
        version,
        &std::fs::read_to_string(&path).unwrap(),
    );
    uri
}

fn watched(client: &mut Client, uri: &str, kind: u32) {
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri, "type": kind}]}),
    );
}

/// The labels of a completion result, which must be a bare list.
fn labels(result: &Value) -> Vec<String> {
    result
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap().to_owned())
        .collect()
}

/// The item labelled `label` of a completion result, which must be a bare list.
#[track_caller]
fn item<'a>(result: &'a Value, label: &str) -> &'a Value {
    result
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["label"] == label)
        .unwrap_or_else(|| panic!("no {label:?} in {result:#}"))
}

fn position(uri: &str, line: u32, character: u32) -> Value {
    json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}})
}

/// A skill the estate lacks: its agent's `skills_additional` names it.
const AUDIT_LOG_SKILL: &str = include_str!("../fixtures/audit-log.yaml");

#[test]
fn vscode_utf16_diagnostics_edits_watched_files_hover_definition() {
    // Initial indexing: diagnostics for a file that is not open, in UTF-16 columns.
    let (dir, mut client, init, topology, diagnostics) = start_estate(vscode_capabilities());
    let root = dir.path();
    assert_eq!(init["capabilities"]["positionEncoding"], "utf-16");
    assert_eq!(init["capabilities"]["textDocumentSync"]["change"], 2);
    assert_eq!(
        agent_diagnostics(&diagnostics),
        estate_diagnostics(UTF16_GRANTS)
    );
    let typo = diagnostics
        .iter()
        .find(|d| d["range"]["start"]["character"] == 43)
        .unwrap();
    assert_eq!(typo["severity"], 1);
    assert_eq!(typo["source"], "skillgraph");
    assert!(
        typo["message"]
            .as_str()
            .unwrap()
            .contains("did you mean `get-convention`?"),
        "{typo}"
    );

    // Progress was reported around the indexing, and files are watched.
    client.wait_for("$/progress end", |m| {
        m["method"] == "$/progress" && m["params"]["value"]["kind"] == "end"
    });
    let position_of = |client: &Client, accept: &dyn Fn(&Value) -> bool| {
        client.seen.iter().position(accept).unwrap()
    };
    assert!(
        position_of(&client, &|m| m["method"]
            == "textDocument/publishDiagnostics")
            < position_of(&client, &|m| m["method"] == "$/progress"
                && m["params"]["value"]["kind"] == "end"),
        "the initial diagnostics go out before the progress ends"
    );
    assert!(client
        .seen
        .iter()
        .any(|m| m["method"] == "window/workDoneProgress/create"));
    assert!(client
        .seen
        .iter()
        .any(|m| m["method"] == "$/progress" && m["params"]["value"]["kind"] == "begin"));
    let registration = client.wait_for("client/registerCapability", |m| {
        m["method"] == "client/registerCapability"
    });
    let globs: Vec<&str> = registration["params"]["registrations"][0]["registerOptions"]
        ["watchers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["globPattern"].as_str().unwrap())
        .collect();
    assert_eq!(
        globs,
        [
            "**/*.{yaml,yml}",
            "**/SKILL.md",
            "**/skillgraph.toml",
            "**/*.json",
            "**/*.md",
            "**/.swarmkit/audit.sqlite",
            "**/.swarmkit/audit.sqlite-wal",
            "**/*"
        ]
    );

    // Fixing the typo after the emoji (UTF-16 columns) clears its diagnostic and the requires
    // rules that named the skill the agent did not hold.
    let uri = open(&mut client, root, TOPOLOGY, 1);
    assert_eq!(uri, topology);
    let diagnostics = edit_and_wait(&mut client, &uri, 2, [22, 43, 22, 57], "get-convention");
    assert_eq!(
        agent_diagnostics(&diagnostics),
        fixed_typo_diagnostics(UTF16_GRANTS)
    );

    // A skill file created on disk resolves `audit-log`; deleting it brings the error back.
    let audit = root.join("skills/audit-log.yaml");
    std::fs::write(&audit, AUDIT_LOG_SKILL).unwrap();
    watched(&mut client, &file_uri(&audit), 1);
    let (diagnostics, _) = client.diagnostics(&topology);
    assert_eq!(
        agent_diagnostics(&diagnostics),
        vec![d("agent.unknown-skill", [22, 35, 22, 41])]
    );
    std::fs::remove_file(&audit).unwrap();
    watched(&mut client, &file_uri(&audit), 3);
    let (diagnostics, _) = client.diagnostics(&topology);
    assert_eq!(
        agent_diagnostics(&diagnostics),
        fixed_typo_diagnostics(UTF16_GRANTS)
    );

    // Hover on a `requires:` key: the ordering, and the runtime's refusal verbatim.
    let hover = client.request("textDocument/hover", position(&uri, 25, 14));
    let text = hover["contents"]["value"].as_str().unwrap();
    assert!(
        text.contains(
            "search-code requires get-convention, list-conventions, which have not been called in this session. Call get-convention, list-conventions first, then retry."
        ),
        "{text}"
    );
    assert_contains(
        text,
        "1. `list-conventions`\n2. `get-convention`\n3. `search-code`",
    );
    assert_eq!(
        hover["range"],
        json!({"start": {"line": 25, "character": 10}, "end": {"line": 25, "character": 21}})
    );
    assert_contains(text, "implementation: `mcp_tool conventions.search_code`");
    assert_contains(text, "defined in `skills/search-code.yaml`");

    // Hover on `requires:`: the agent's effective skills and all its rules.
    let hover = client.request("textDocument/hover", position(&uri, 24, 10));
    let text = hover["contents"]["value"].as_str().unwrap();
    assert_contains(text, "**agent `engineer`**");
    assert_contains(
        text,
        "- `list-conventions` — from skills\n- `get-convention` — from skills",
    );
    assert_contains(text, "- `search-code` requires `get-convention`, `list-conventions`\n- `get-convention` requires `list-conventions`");

    let hover = client.request("textDocument/hover", position(&uri, 26, 12));
    let text = hover["contents"]["value"].as_str().unwrap();
    assert_contains(text, "get-convention requires list-conventions, which has not been called in this session. Call list-conventions first, then retry.");

    // Definition of a grant after the emoji: the skill file's `metadata.id`.
    let definition = client.request("textDocument/definition", position(&uri, 22, 50));
    assert_eq!(
        definition,
        json!({
            "uri": file_uri(&root.join("skills/get-convention.yaml")),
            "range": {"start": {"line": 3, "character": 6}, "end": {"line": 3, "character": 20}},
        })
    );

    assert!(client.shutdown().success());
}

#[test]
fn utf8_client_gets_byte_columns() {
    let (dir, mut client, init, topology, diagnostics) = start_estate(utf8_capabilities());
    let root = dir.path();
    assert_eq!(init["capabilities"]["positionEncoding"], "utf-8");
    assert_eq!(
        agent_diagnostics(&diagnostics),
        estate_diagnostics(UTF8_GRANTS)
    );

    let uri = open(&mut client, root, TOPOLOGY, 7);
    let diagnostics = edit_and_wait(&mut client, &uri, 8, [22, 49, 22, 63], "get-convention");
    assert_eq!(
        agent_diagnostics(&diagnostics),
        fixed_typo_diagnostics(UTF8_GRANTS)
    );

    // Definition on the fixed grant, addressed in bytes.
    let definition = client.request("textDocument/definition", position(&uri, 22, 55));
    assert_eq!(
        definition["uri"],
        file_uri(&root.join("skills/get-convention.yaml"))
    );
    // Hover and references on it, their ranges in bytes after the CJK and the emoji.
    let hover = client.request("textDocument/hover", position(&uri, 22, 55));
    assert_eq!(range_of(&hover["range"]), [22, 49, 22, 63], "{hover:#}");
    assert!(
        hover["contents"].to_string().contains("get-convention"),
        "{hover:#}"
    );
    let mut params = position(&uri, 22, 55);
    params["context"] = json!({"includeDeclaration": false});
    let references = client.request("textDocument/references", params);
    let here: Vec<[u32; 4]> = references
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["uri"] == uri.as_str())
        .map(|l| range_of(&l["range"]))
        .collect();
    assert!(here.contains(&[22, 49, 22, 63]), "{references:#}");

    // Closing without saving: the disk's text (with the typo) is back in force.
    client.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": uri}}),
    );
    let (diagnostics, version) = client.diagnostics(&topology);
    assert_eq!(version, Value::Null);
    assert_eq!(agent_diagnostics(&diagnostics).len(), 5);

    // This client offered neither progress nor dynamic registration: none was asked of it.
    assert!(!client.seen.iter().any(|m| {
        m["method"] == "client/registerCapability"
            || m["method"] == "window/workDoneProgress/create"
    }));
    assert!(client.shutdown().success());
}

#[test]
fn unknown_documents_and_positions_past_the_end_answer_null() {
    let (dir, mut client, _, topology, _) = start_estate(vscode_capabilities());
    let unknown = file_uri(&dir.path().join("nowhere/else.yaml"));
    for method in [
        "textDocument/hover",
        "textDocument/definition",
        "textDocument/references",
    ] {
        let mut params = position(&unknown, 0, 0);
        if method == "textDocument/references" {
            params["context"] = json!({"includeDeclaration": true});
        }
        assert_eq!(client.request(method, params), Value::Null, "{method}");
    }
    assert_eq!(
        client.request("textDocument/hover", position(&topology, 9999, 0)),
        Value::Null
    );
    assert_eq!(
        client.request("textDocument/definition", position(&topology, 22, 9999)),
        Value::Null
    );
    // A change to a document that was never opened is ignored, not a crash.
    client.edit(&unknown, 3, [0, 0, 0, 0], "x");
    assert_eq!(
        client.request("textDocument/hover", position(&unknown, 0, 0)),
        Value::Null
    );
    assert!(client.shutdown().success());
}

#[test]
fn references_symbols_and_completion() {
    let (dir, mut client, _, topology, _) = start_estate(vscode_capabilities());
    // References of `list-conventions` from its definition: the grant and both prerequisites.
    let skill = file_uri(&dir.path().join("skills/list-conventions.yaml"));
    let mut params = position(&skill, 3, 8);
    params["context"] = json!({"includeDeclaration": false});
    let references = client.request("textDocument/references", params);
    let lines: Vec<(u64, u64)> = references
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            assert_eq!(l["uri"], topology);
            (
                l["range"]["start"]["line"].as_u64().unwrap(),
                l["range"]["start"]["character"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(lines, [(22, 17), (25, 40), (26, 27)]);

    // Completion: every skill id in a grant; only the agent's held skills inside `requires:`
    // (`get-convention` is not held: the grant has a typo).
    let grant = client.request("textDocument/completion", position(&topology, 22, 61));
    let offered = labels(&grant);
    // The cursor is on `search-code`, which the item replaces; `list-conventions` the agent
    // holds already through another grant.
    for id in ["get-convention", "search-code", "topology-estate"] {
        assert!(offered.contains(&id.to_owned()), "{offered:?}");
    }
    assert!(
        !offered.contains(&"list-conventions".to_owned()),
        "{offered:?}"
    );
    let get_convention = item(&grant, "get-convention");
    assert_eq!(get_convention["documentation"]["kind"], "markdown");
    let doc = get_convention["documentation"]["value"].as_str().unwrap();
    assert!(
        doc.contains("get_convention tool") && doc.contains("skills/get-convention.yaml"),
        "{doc}"
    );
    assert_eq!(
        grant[0]["textEdit"]["range"],
        json!({"start": {"line": 22, "character": 59}, "end": {"line": 22, "character": 70}})
    );
    // (On `list-conventions` in `get-convention: [list-conventions]`: neither the rule's own skill
    // nor its other prerequisites would be right there.)
    let rule = client.request("textDocument/completion", position(&topology, 26, 30));
    assert_eq!(labels(&rule), ["list-conventions", "search-code"]);
    let taken = client.request("textDocument/completion", position(&topology, 25, 30));
    assert_eq!(labels(&taken), Vec::<String>::new());

    // Declaration of a `requires:` key: where the agent is granted the skill.
    let declaration = client.request("textDocument/declaration", position(&topology, 25, 14));
    assert_eq!(
        declaration,
        json!([{
            "uri": topology,
            "range": {"start": {"line": 22, "character": 59}, "end": {"line": 22, "character": 70}},
        }])
    );

    let symbols = client.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": topology}}),
    );
    let root_symbol = &symbols[0];
    assert_eq!(root_symbol["name"], "estate");
    assert_eq!(root_symbol["children"][0]["name"], "root");
    assert_eq!(
        root_symbol["children"][0]["children"][0]["name"],
        "engineer"
    );
    assert!(client.shutdown().success());
}

#[test]
fn rapid_keystrokes_apply_in_order() {
    let (dir, mut client, _, topology, _) = start_estate(vscode_capabilities());
    let uri = open(&mut client, dir.path(), TOPOLOGY, 1);

    // Delete the misspelt id, then type the right one a character at a time, without waiting.
    client.edit(&uri, 2, [22, 43, 22, 57], "");
    let mut version = 2;
    for (i, c) in "get-convention".chars().enumerate() {
        version += 1;
        let col = 43 + i as u32;
        client.edit(&uri, version, [22, col, 22, col], &c.to_string());
    }
    // The last keystroke completes the id: the diagnostics that follow carry its version.
    let diagnostics = diagnostics_at(&mut client, &topology, version);
    assert_eq!(
        agent_diagnostics(&diagnostics),
        fixed_typo_diagnostics(UTF16_GRANTS)
    );
    assert!(client.shutdown().success());
}

#[test]
fn crlf_files_get_the_same_ranges() {
    let dir = fixture_copy("estate");
    let root = dir.path();
    let path = root.join(TOPOLOGY);
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, text.replace('\n', "\r\n")).unwrap();
    let (mut client, _) = Client::start(root, vscode_capabilities());
    let topology = file_uri(&path);
    let (diagnostics, _) = client.diagnostics(&topology);
    assert_eq!(
        agent_diagnostics(&diagnostics)[..3],
        estate_diagnostics(UTF16_GRANTS)[..3]
    );
    // Joining two CRLF lines and splitting them again restores the text exactly.
    let uri = open(&mut client, root, TOPOLOGY, 1);
    client.edit(&uri, 2, [22, 71, 23, 0], "");
    client.edit(&uri, 3, [22, 71, 22, 71], "\r\n");
    client.edit(&uri, 4, [22, 43, 22, 57], "get-convention");
    let diagnostics = diagnostics_at(&mut client, &uri, 4);
    assert_eq!(
        agent_diagnostics(&diagnostics),
        fixed_typo_diagnostics(UTF16_GRANTS)
    );
    assert!(client.shutdown().success());
}

#[test]
fn workspace_folders_come_and_go_and_symbols_span_them() {
    let first = tempfile::tempdir().unwrap();
    let second = tempfile::tempdir().unwrap();
    copy_fixture("estate", first.path());
    copy_fixture("estate", second.path());
    let (mut client, init) = Client::start(first.path(), vscode_capabilities());
    assert_eq!(
        init["capabilities"]["workspace"]["workspaceFolders"]["changeNotifications"],
        true
    );
    client.diagnostics(&file_uri(&first.path().join(TOPOLOGY)));

    let folder = json!({"uri": file_uri(second.path()), "name": "second"});
    client.notify(
        "workspace/didChangeWorkspaceFolders",
        json!({"event": {"added": [folder], "removed": []}}),
    );
    let other = file_uri(&second.path().join(TOPOLOGY));
    let (diagnostics, _) = client.diagnostics(&other);
    assert_eq!(agent_diagnostics(&diagnostics).len(), 5);

    let symbols = client.request("workspace/symbol", json!({"query": "engineer"}));
    let uris: Vec<&str> = symbols
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["location"]["uri"].as_str().unwrap())
        .collect();
    assert_eq!(uris.len(), 2, "{symbols}");
    assert!(uris.contains(&other.as_str()));

    client.notify(
        "workspace/didChangeWorkspaceFolders",
        json!({"event": {"added": [], "removed": [folder]}}),
    );
    let (diagnostics, _) = client.diagnostics(&other);
    assert!(diagnostics.is_empty());
    assert!(client.shutdown().success());
}

#[test]
fn a_file_opened_without_a_workspace_folder_brings_its_workspace() {
    let dir = fixture_copy("estate");
    let root = dir.path();
    let (mut client, _) = Client::start_with(json!({
        "processId": null,
        "rootUri": null,
        "capabilities": {},
    }));
    let uri = open(&mut client, root, TOPOLOGY, 1);
    // The skills next to it resolve: only the five diagnostics of the fixture, none about
    // `list-conventions` or `search-code`.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        let (diagnostics, _) = client.diagnostics(&uri);
        if agent_diagnostics(&diagnostics).len() == 5 {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "{diagnostics:?}");
    }
    assert!(client.shutdown().success());
}

#[test]
fn settings_from_initialization_options_and_configuration_changes() {
    let (_dir, mut client, _, topology, diagnostics) = start_estate_with(&[], |root| {
        json!({
            "processId": null,
            "rootUri": file_uri(root),
            "capabilities": {},
            "initializationOptions": {"rules": {"agent.unknown-skill": "warning"}},
        })
    });
    let severities: Vec<(String, u64)> = diagnostics
        .iter()
        .filter(|d| d["code"] == "agent.unknown-skill")
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_owned(),
                d["severity"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(severities.len(), 3);
    assert!(severities.iter().all(|(_, s)| *s == 2), "{severities:?}");

    // Turning the code off through the `skillgraph` section removes it everywhere.
    client.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"skillgraph": {"rules": {"agent.unknown-skill": "off"}}}}),
    );
    let (diagnostics, _) = client.diagnostics(&topology);
    assert!(
        diagnostics
            .iter()
            .all(|d| d["code"] != "agent.unknown-skill"),
        "{diagnostics:?}"
    );
    assert!(!diagnostics.is_empty());
    assert!(client.shutdown().success());
}

#[test]
fn a_panicking_handler_answers_an_error_and_the_server_keeps_answering() {
    // Debug builds read SKILLGRAPH_TEST_PANIC: the first `hover` panics inside its handler.
    let (dir, mut client, _, topology, _) =
        start_estate_with(&[("SKILLGRAPH_TEST_PANIC", "hover")], |root| {
            initialize_params(root, vscode_capabilities())
        });
    let root = dir.path();

    let response = client.request_raw("textDocument/hover", position(&topology, 25, 14));
    if response.get("error").is_none() {
        eprintln!("the server under test is a release build: no panic to provoke");
        assert!(client.shutdown().success());
        return;
    }
    let error = &response["error"];
    assert_eq!(error["code"], -32603, "{error}");
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("SKILLGRAPH_TEST_PANIC=hover"),
        "{error}"
    );
    let log = client.wait_for("window/logMessage about the panic", |m| {
        m["method"] == "window/logMessage"
            && m["params"]["message"]
                .as_str()
                .is_some_and(|t| t.contains("hover panicked"))
    });
    assert_eq!(log["params"]["type"], 1, "logged as an error");

    // The same request again, other requests, and edits all go on working.
    let hover = client.request("textDocument/hover", position(&topology, 25, 14));
    assert!(hover["contents"]["value"]
        .as_str()
        .unwrap()
        .contains("search-code"));
    let definition = client.request("textDocument/definition", position(&topology, 22, 20));
    assert_eq!(
        definition["uri"],
        file_uri(&root.join("skills/list-conventions.yaml"))
    );
    let opened = open(&mut client, root, TOPOLOGY, 1);
    let diagnostics = edit_and_wait(&mut client, &opened, 2, [22, 43, 22, 57], "get-convention");
    assert_eq!(agent_diagnostics(&diagnostics).len(), 2);
    assert!(client.shutdown().success());
}

#[test]
fn changes_to_a_document_never_opened_leave_the_state_alone() {
    let (dir, mut client, _, topology, before) = start_estate(vscode_capabilities());
    let root = dir.path();

    // The client "fixes" the typo in a file it never opened, and sends edits past its end: the
    // server has no text to apply them to and keeps the disk's.
    client.edit(&topology, 2, [22, 43, 22, 57], "get-convention");
    client.edit(&topology, 3, [400, 0, 401, 7], "garbage");
    let skill = file_uri(&root.join("skills/search-code.yaml"));
    client.edit(&skill, 1, [0, 0, 99, 0], "");
    let hover = client.request("textDocument/hover", position(&topology, 22, 20));
    assert!(hover["contents"]["value"]
        .as_str()
        .unwrap()
        .contains("list-conventions"));
    assert!(
        !client
            .seen
            .iter()
            .any(|m| m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["version"] != Value::Null),
        "no diagnostics for a version the server never had"
    );

    // Opening it afterwards starts from the text given at open, not from the stray edits.
    assert_eq!(agent_diagnostics(&before).len(), 5);
    let uri = open(&mut client, root, TOPOLOGY, 5);
    // `skills_additional: [audit-log]` becomes `[get-convention]`: the unknown additional skill
    // goes, and so do the rules that named `get-convention` while the agent did not hold it.
    let after = edit_and_wait(&mut client, &uri, 6, [23, 28, 23, 37], "get-convention");
    assert_eq!(
        agent_diagnostics(&after),
        vec![
            d("agent.unknown-skill", [22, 35, 22, 41]),
            d("agent.unknown-skill", [22, 43, 22, 57]),
        ]
    );
    // The skill file's definition is intact.
    let definition = client.request("textDocument/definition", position(&topology, 22, 62));
    assert_eq!(definition["uri"], skill);
    assert!(client.shutdown().success());
}

/// The text edits of a workspace edit as `(uri, [line, start, end], new text)`, from
/// `documentChanges` or `changes`, sorted.
fn rename_edits(edit: &Value) -> Vec<(String, [u64; 3], String)> {
    let mut out = Vec::new();
    let mut push = |uri: &Value, edits: &Value| {
        for e in edits.as_array().unwrap() {
            let r = &e["range"];
            assert_eq!(r["start"]["line"], r["end"]["line"]);
            out.push((
                uri.as_str().unwrap().to_owned(),
                [
                    r["start"]["line"].as_u64().unwrap(),
                    r["start"]["character"].as_u64().unwrap(),
                    r["end"]["character"].as_u64().unwrap(),
                ],
                e["newText"].as_str().unwrap().to_owned(),
            ));
        }
    };
    if let Some(changes) = edit["documentChanges"].as_array() {
        for change in changes.iter().filter(|c| c.get("kind").is_none()) {
            push(&change["textDocument"]["uri"], &change["edits"]);
        }
    }
    if let Some(changes) = edit["changes"].as_object() {
        for (uri, edits) in changes {
            push(&json!(uri), edits);
        }
    }
    out.sort();
    out
}

/// VS Code's capabilities, with the file operations it applies from a workspace edit.
fn renaming_vscode_capabilities() -> Value {
    let mut capabilities = vscode_capabilities();
    capabilities["workspace"]["workspaceEdit"] =
        json!({"documentChanges": true, "resourceOperations": ["create", "rename", "delete"]});
    capabilities
}

/// The params of `textDocument/rename` to `new_name` at `at` (a [`position`]).
fn renaming(mut at: Value, new_name: &str) -> Value {
    at["newName"] = json!(new_name);
    at
}

/// Asserts that `textDocument/prepareRename` at `at` (a [`position`]) offers to rename
/// `placeholder`, standing at `range`.
#[track_caller]
fn assert_prepared(client: &mut Client, at: Value, placeholder: &str, range: [u32; 4]) {
    let prepared = client.request("textDocument/prepareRename", at);
    assert_eq!(prepared["placeholder"], placeholder, "{prepared:#}");
    assert_eq!(range_of(&prepared["range"]), range, "{prepared:#}");
}

/// Renames what stands at `at` (a [`position`]) to `new_name`, and asserts that the text edits
/// are `expected`, as `(uri, [line, start, end])` in the order [`rename_edits`] sorts them; the
/// workspace edit, for more.
#[track_caller]
fn assert_renamed<U: AsRef<str>>(
    client: &mut Client,
    at: Value,
    new_name: &str,
    expected: &[(U, [u64; 3])],
) -> Value {
    let edit = client.request("textDocument/rename", renaming(at, new_name));
    let expected: Vec<(String, [u64; 3], String)> = expected
        .iter()
        .map(|(uri, range)| (uri.as_ref().to_owned(), *range, new_name.to_owned()))
        .collect();
    assert_eq!(rename_edits(&edit), expected, "{edit:#}");
    edit
}

/// Asserts that a workspace edit moves exactly one file or folder, from `old` to `new`.
#[track_caller]
fn assert_one_move(edit: &Value, old: &str, new: &str) {
    let moves: Vec<&Value> = edit["documentChanges"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["kind"] == "rename")
        .collect();
    assert_eq!(moves.len(), 1, "{edit:#}");
    assert_eq!(moves[0]["oldUri"], old);
    assert_eq!(moves[0]["newUri"], new);
}

/// Asserts that a rename is refused as a request that failed (-32803) with a message holding
/// `reason`.
#[track_caller]
fn assert_rename_refused(client: &mut Client, params: Value, reason: &str) {
    let refused = client.request_raw("textDocument/rename", params);
    assert_eq!(refused["error"]["code"], -32803, "{refused:#}");
    let message = refused["error"]["message"].as_str().unwrap();
    assert_contains(message, reason);
}

#[test]
fn rename_in_utf16_and_utf8_clients() {
    let dir = fixture_copy("estate");
    let root = dir.path();
    // VS Code: UTF-16 columns, file renames applied.
    let capabilities = renaming_vscode_capabilities();
    let (mut client, init) = Client::start(root, capabilities);
    assert_eq!(
        init["capabilities"]["renameProvider"]["prepareProvider"],
        true
    );
    let topology = file_uri(&root.join(TOPOLOGY));
    let skill = file_uri(&root.join("skills/search-code.yaml"));
    client.diagnostics(&topology);

    // The rename's edits: the definition, the grant on line 22 (`grant`, in the client's
    // units) and the rule's key.
    let edits = |grant: [u64; 3]| {
        [
            (skill.clone(), [3, 6, 17]),
            (topology.clone(), grant),
            (topology.clone(), [25, 10, 21]),
        ]
    };

    // On the grant after CJK and an emoji: `search-code` is at UTF-16 columns 59..70.
    let at = position(&topology, 22, 62);
    assert_prepared(&mut client, at.clone(), "search-code", [22, 59, 22, 70]);
    let edit = assert_renamed(&mut client, at.clone(), "find-code", &edits([22, 59, 70]));
    let find_code = file_uri(&root.join("skills/find-code.yaml"));
    assert_one_move(&edit, &skill, &find_code);

    // Refused with a message: a taken id, an id breaking the pattern.
    let taken = renaming(at.clone(), "list-conventions");
    assert_rename_refused(&mut client, taken, "already a skill");
    assert_rename_refused(&mut client, renaming(at, "Find Code"), "not a valid id");
    // Nothing to rename on a plain value.
    let nothing = client.request("textDocument/prepareRename", position(&topology, 16, 16));
    assert_eq!(nothing, Value::Null);
    assert!(client.shutdown().success());

    // A UTF-8 client without file renames: byte columns, `changes`, the file keeps its name.
    let (mut client, _) = Client::start(root, utf8_capabilities());
    client.diagnostics(&topology);
    let at = position(&topology, 22, 68);
    let edit = assert_renamed(&mut client, at, "find-code", &edits([22, 65, 76]));
    assert!(edit.get("documentChanges").is_none(), "{edit:#}");
    assert!(client.shutdown().success());
}

#[test]
fn highlights_inlay_hints_and_lenses_in_utf16_and_utf8_clients() {
    let (dir, topology) = estate_copy();
    let root = dir.path();
    // (client capabilities, the UTF-16 or UTF-8 end column of `search-code` on line 22, after
    // CJK and an emoji)
    for (capabilities, start, end) in [
        (vscode_capabilities(), 59, 70),
        (utf8_capabilities(), 65, 76),
    ] {
        let (mut client, init) = Client::start(root, capabilities);
        let caps = &init["capabilities"];
        assert_eq!(caps["documentHighlightProvider"], true);
        assert_eq!(caps["inlayHintProvider"], true);
        assert_eq!(caps["codeLensProvider"]["resolveProvider"], false);
        client.diagnostics(&topology);

        // Highlight: the grant and the rule's key, both uses.
        let found = client.request(
            "textDocument/documentHighlight",
            position(&topology, 22, start + 3),
        );
        assert_eq!(
            found,
            json!([
                {"range": {"start": {"line": 22, "character": start}, "end": {"line": 22, "character": end}}, "kind": 2},
                {"range": {"start": {"line": 25, "character": 10}, "end": {"line": 25, "character": 21}}, "kind": 2},
            ])
        );

        // Inlay hints of lines 22-26 only: after each grant and each rule on a held skill.
        let hints = client.request(
            "textDocument/inlayHint",
            json!({"textDocument": {"uri": topology}, "range": {
                "start": {"line": 22, "character": 0}, "end": {"line": 26, "character": 0}}}),
        );
        let got: Vec<(u64, u64, String)> = hints
            .as_array()
            .unwrap()
            .iter()
            .map(|h| {
                (
                    h["position"]["line"].as_u64().unwrap(),
                    h["position"]["character"].as_u64().unwrap(),
                    h["label"].as_str().unwrap().to_owned(),
                )
            })
            .collect();
        let on_line_22: Vec<&(u64, u64, String)> = got.iter().filter(|h| h.0 == 22).collect();
        assert_eq!(on_line_22.len(), 4, "{got:?}");
        assert_eq!(on_line_22[0], &(22, 33, "step 1".to_owned()));
        assert_eq!(on_line_22[3], &(22, end, "step 2".to_owned()));
        assert!(got.contains(&(23, 37, "any order".to_owned())), "{got:?}");
        assert!(got.iter().any(|h| h.0 == 25 && h.2 == "step 2"), "{got:?}");
        assert!(got.iter().all(|h| (22..=26).contains(&h.0)), "{got:?}");

        // Lenses: the skill's usage; each agent's ordering graph.
        let skill = file_uri(&root.join("skills/list-conventions.yaml"));
        let lenses = client.request(
            "textDocument/codeLens",
            json!({"textDocument": {"uri": skill}}),
        );
        assert_eq!(
            lenses[0]["command"]["title"],
            "granted to 1 agent · required by 2 rules"
        );
        let lenses = client.request(
            "textDocument/codeLens",
            json!({"textDocument": {"uri": topology}}),
        );
        let engineer = &lenses[1]["command"];
        assert_eq!(engineer["title"], "Show ordering graph");
        assert_eq!(engineer["command"], "skillgraph.showOrderingGraph");
        assert_eq!(
            engineer["arguments"],
            json!([{"uri": topology, "agent": "engineer"}])
        );
        assert_eq!(
            lenses[1]["range"]["start"],
            json!({"line": 15, "character": 12})
        );
        assert!(client.shutdown().success());
    }
}

/// The quick fixes offered for the diagnostics a range touches.
fn code_actions(client: &mut Client, uri: &str, range: [u32; 4]) -> Vec<Value> {
    let result = client.request(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": uri},
            "range": {
                "start": {"line": range[0], "character": range[1]},
                "end": {"line": range[2], "character": range[3]},
            },
            "context": {"diagnostics": []},
        }),
    );
    result.as_array().cloned().unwrap_or_default()
}

fn range_of(value: &Value) -> [u32; 4] {
    let n = |v: &Value| v.as_u64().unwrap() as u32;
    [
        n(&value["start"]["line"]),
        n(&value["start"]["character"]),
        n(&value["end"]["line"]),
        n(&value["end"]["character"]),
    ]
}

const MISMATCHED_SKILL: &str =
    "---\nname: other-name\ndescription: Its folder is `mismatched`. Use in tests.\n---\n# Body\n";

/// The typo after CJK and an emoji on line 22 gets a preferred quick fix whose range is in the
/// client's encoding; applying its edit clears the diagnostic. A SKILL.md whose name is not its
/// folder's gets a folder rename only from a client that can rename files.
#[test]
fn code_actions_fix_in_utf16_and_utf8_and_rename_only_when_the_client_can() {
    for (capabilities, typo_range, renames) in [
        (vscode_capabilities(), [22, 43, 22, 57], false),
        (
            {
                let mut c = utf8_capabilities();
                c["workspace"] = json!({"workspaceEdit": {
                    "documentChanges": true,
                    "resourceOperations": ["create", "rename", "delete"],
                }});
                c
            },
            [22, 49, 22, 63],
            true,
        ),
    ] {
        let dir = fixture_copy("estate");
        let root = dir.path();
        let skill = root.join("agent-skills/mismatched/SKILL.md");
        std::fs::create_dir_all(skill.parent().unwrap()).unwrap();
        std::fs::write(&skill, MISMATCHED_SKILL).unwrap();
        let (mut client, init) = Client::start(root, capabilities);
        assert_eq!(
            init["capabilities"]["codeActionProvider"]["codeActionKinds"],
            json!(["quickfix", "refactor.rewrite"])
        );
        let topology = file_uri(&root.join(TOPOLOGY));
        client.diagnostics(&topology);
        let uri = open(&mut client, root, TOPOLOGY, 1);

        let actions = code_actions(&mut client, &uri, typo_range);
        let fix = actions
            .iter()
            .find(|a| a["title"] == "Replace `get-convension` with `get-convention`")
            .unwrap_or_else(|| panic!("{actions:#?}"));
        assert_eq!(fix["kind"], "quickfix");
        assert_eq!(fix["isPreferred"], true);
        assert_eq!(fix["diagnostics"][0]["code"], "agent.unknown-skill");
        let disable = actions
            .iter()
            .find(|a| a["title"] == "Disable `agent.unknown-skill` on this line")
            .unwrap_or_else(|| panic!("{actions:#?}"));
        let insert = &disable["edit"]["changes"][&uri][0];
        assert_eq!(range_of(&insert["range"]), [22, 0, 22, 0]);
        assert_eq!(
            insert["newText"],
            "        # skillgraph: disable-next-line agent.unknown-skill\n"
        );
        let edits = fix["edit"]["changes"][&uri].as_array().unwrap();
        assert_eq!(edits.len(), 1);
        assert_eq!(range_of(&edits[0]["range"]), typo_range);
        assert_eq!(edits[0]["newText"], "get-convention");
        client.edit(
            &uri,
            2,
            range_of(&edits[0]["range"]),
            edits[0]["newText"].as_str().unwrap(),
        );
        let (diagnostics, _) = client.diagnostics(&topology);
        assert!(
            !agent_diagnostics(&diagnostics).contains(&d(
                "agent.unknown-skill",
                [
                    typo_range[0] as u64,
                    typo_range[1] as u64,
                    typo_range[2] as u64,
                    typo_range[3] as u64
                ]
            )),
            "{diagnostics:#?}"
        );
        // A range touching no diagnostic has nothing to fix.
        assert!(code_actions(&mut client, &uri, [0, 0, 0, 3]).is_empty());

        let skill_uri = file_uri(&skill);
        let actions = code_actions(&mut client, &skill_uri, [1, 6, 1, 16]);
        let titles: Vec<&str> = actions
            .iter()
            .map(|a| a["title"].as_str().unwrap())
            .collect();
        let mut expected = vec!["Set `name: mismatched`, the folder's name"];
        if renames {
            expected.push("Rename the folder to `other-name`");
        }
        expected.push("Disable `skillmd.name-mismatch` on this line");
        assert_eq!(titles, expected, "{actions:#?}");
        if renames {
            let operations = actions[1]["edit"]["documentChanges"].as_array().unwrap();
            assert_eq!(operations.len(), 1);
            assert_eq!(operations[0]["kind"], "rename");
            assert_eq!(operations[0]["oldUri"], file_uri(skill.parent().unwrap()));
            assert_eq!(
                operations[0]["newUri"],
                file_uri(&root.join("agent-skills/other-name"))
            );
        }
        client.shutdown();
    }
}

#[test]
fn pull_diagnostics_replace_push_in_utf16_and_utf8_clients() {
    let (dir, topology) = estate_copy();
    let root = dir.path();
    // A client that does not pull is not offered it (and gets pushes, as the tests above show).
    let (client, init) = Client::start(root, vscode_capabilities());
    assert!(init["capabilities"].get("diagnosticProvider").is_none());
    drop(client);

    // (capabilities, the ranges of the two unknown grants on line 22, after CJK and an emoji)
    for (mut capabilities, grants) in [
        (vscode_capabilities(), UTF16_GRANTS),
        (utf8_capabilities(), UTF8_GRANTS),
    ] {
        capabilities["textDocument"]["diagnostic"] = json!({"relatedDocumentSupport": false});
        capabilities["workspace"]["diagnostics"] = json!({"refreshSupport": true});
        let (mut client, init) = Client::start(root, capabilities);
        let provider = &init["capabilities"]["diagnosticProvider"];
        assert_eq!(provider["interFileDependencies"], true, "{init:#}");
        assert_eq!(provider["workspaceDiagnostics"], true);
        // Once indexed, the server asks the client to pull.
        client.wait_for("workspace/diagnostic/refresh", |m| {
            m["method"] == "workspace/diagnostic/refresh"
        });

        let report = client.request(
            "textDocument/diagnostic",
            json!({"textDocument": {"uri": topology}}),
        );
        assert_eq!(report["kind"], "full");
        let items = report["items"].as_array().unwrap();
        assert_eq!(agent_diagnostics(items), estate_diagnostics(grants));
        let result_id = report["resultId"].clone();
        let again = client.request(
            "textDocument/diagnostic",
            json!({"textDocument": {"uri": topology}, "previousResultId": result_id}),
        );
        assert_eq!(again, json!({"kind": "unchanged", "resultId": result_id}));

        // The workspace report holds the topology, with the same items.
        let workspace = client.request("workspace/diagnostic", json!({"previousResultIds": []}));
        let of_topology: Vec<&Value> = workspace["items"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["uri"] == topology)
            .collect();
        assert_eq!(of_topology.len(), 1);
        assert_eq!(of_topology[0]["items"].as_array().unwrap(), items);

        // Defining `audit-log` in another file changes the topology's result: the server asks
        // for a pull again, and the next one says so.
        let skill = root.join("skills/audit-log.yaml");
        client.open(&file_uri(&skill), "yaml", 1, AUDIT_LOG_SKILL);
        client.wait_for("a second refresh", |m| {
            m["method"] == "workspace/diagnostic/refresh"
        });
        let after = client.request(
            "textDocument/diagnostic",
            json!({"textDocument": {"uri": topology}, "previousResultId": result_id}),
        );
        assert_eq!(after["kind"], "full");
        assert!(!agent_diagnostics(after["items"].as_array().unwrap())
            .contains(&d("agent.unknown-skill", [23, 28, 23, 37])));

        // Nothing was pushed: a client that pulls is never told twice.
        assert!(
            !client
                .seen
                .iter()
                .any(|m| m["method"] == "textDocument/publishDiagnostics"),
            "diagnostics were pushed to a client that pulls"
        );
        assert!(client.shutdown().success());
    }
}

/// `workspace/executeCommand` with `skillgraph.orderingGraph`, as the VS Code extension sends
/// it: the Mermaid text of a document's topology or one agent; bad arguments are a -32602
/// error and the server goes on answering.
#[test]
fn ordering_graph_command_answers_mermaid_and_refuses_bad_arguments() {
    let dir = fixture_copy("estate");
    let root = dir.path();
    let (mut client, init) = Client::start(root, vscode_capabilities());
    assert_eq!(
        init["capabilities"]["executeCommandProvider"]["commands"],
        json!(["skillgraph.orderingGraph"])
    );
    let topology = file_uri(&root.join(TOPOLOGY));
    let graph = |client: &mut Client, argument: Value| {
        client.request_raw(
            "workspace/executeCommand",
            json!({"command": "skillgraph.orderingGraph", "arguments": [argument]}),
        )
    };

    let whole = graph(&mut client, json!({"uri": topology, "agent": null}));
    let text = whole["result"]
        .as_str()
        .unwrap_or_else(|| panic!("{whole}"));
    assert!(text.starts_with("flowchart LR\n"), "{text}");
    assert_contains(text, "[\"topology estate (topologies/estate.yaml)\"]");
    assert_contains(text, "[\"root<br>agent\"]");
    // The one rule whose skills the agent holds, in call order.
    assert_contains(text, "[\"1. list-conventions<br>mcp_tool\"]");
    assert_contains(text, "[\"2. search-code<br>mcp_tool\"]");

    let one = graph(&mut client, json!({"uri": topology, "agent": "engineer"}));
    let text = one["result"].as_str().unwrap_or_else(|| panic!("{one}"));
    assert_contains(text, "requires: of agent engineer");
    assert!(!text.contains("[\"root<br>agent\"]"), "{text}");

    let refused = |response: &Value| response["error"]["code"] == json!(-32602);
    let nobody = graph(&mut client, json!({"uri": topology, "agent": "nobody"}));
    assert!(refused(&nobody), "{nobody}");
    assert!(
        nobody["error"]["message"]
            .as_str()
            .unwrap()
            .contains("no agent with the id `nobody`"),
        "{nobody}"
    );
    for bad in [
        json!({"command": "skillgraph.orderingGraph", "arguments": []}),
        json!({"command": "skillgraph.orderingGraph"}),
        json!({"command": "skillgraph.orderingGraph", "arguments": ["engineer"]}),
        json!({"command": "skillgraph.orderingGraph", "arguments": [{"uri": 7}]}),
        json!({"command": "skillgraph.orderingGraph", "arguments": [{"uri": "not a uri"}]}),
        json!({"command": "skillgraph.orderingGraph", "arguments": [{"uri": topology, "agent": 3}]}),
        json!({"command": "skillgraph.somethingElse", "arguments": []}),
    ] {
        let response = client.request_raw("workspace/executeCommand", bad.clone());
        assert!(refused(&response), "{bad} -> {response}");
    }
    // Still answering.
    let again = graph(&mut client, json!({"uri": topology, "agent": null}));
    assert!(again["result"].is_string(), "{again}");
    assert!(client.shutdown().success());
}

/// A SKILL.md tree: `smoke` is named by a chain entry after CJK and an emoji, and a path entry
/// names a skill inside its folder.
fn skill_tree(root: &Path) {
    write_fixture(
        root,
        "//- /skillgraph.toml
//- /s/chain/SKILL.md
---
name: chain
description: Runs the checks in turn.
metadata:
  chain: [\"技能🚀\", smoke, e2e/smoke/deep]
---
Body.
//- /s/e2e/smoke/SKILL.md
---
name: smoke
description: A quick check.
---
Body.
//- /s/e2e/smoke/deep/SKILL.md
---
name: deep
description: A longer check.
---
Body.
",
    );
}

#[test]
fn skill_md_rename_moves_its_folder_only_for_clients_that_can() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    skill_tree(root);
    let chain = file_uri(&root.join("s/chain/SKILL.md"));
    let smoke = file_uri(&root.join("s/e2e/smoke/SKILL.md"));
    let capabilities = renaming_vscode_capabilities();
    let (mut client, _) = Client::start(root, capabilities);
    client.diagnostics(&chain);
    // From the chain entry after `"技能🚀", ` (UTF-16 columns 18..23).
    let at = position(&chain, 4, 20);
    assert_prepared(&mut client, at.clone(), "smoke", [4, 18, 4, 23]);
    let edits = [
        (&chain, [4, 18, 23]),
        (&chain, [4, 29, 34]),
        (&smoke, [1, 6, 11]),
    ];
    let edit = assert_renamed(&mut client, at, "sanity", &edits);
    let (from, to) = (root.join("s/e2e/smoke"), root.join("s/e2e/sanity"));
    assert_one_move(&edit, &file_uri(&from), &file_uri(&to));
    assert!(client.shutdown().success());

    // A UTF-8 client that cannot rename folders: the folder is named after the skill, so the
    // rename is refused rather than leaving the two apart.
    let (mut client, _) = Client::start(root, utf8_capabilities());
    client.diagnostics(&chain);
    let at = position(&smoke, 1, 8);
    assert_rename_refused(&mut client, renaming(at, "sanity"), "cannot rename folders");
    // The chain entry, in byte columns: `"技能🚀"` is 12 bytes.
    let entry = position(&chain, 4, 26);
    assert_prepared(&mut client, entry, "smoke", [4, 24, 4, 29]);
    assert!(client.shutdown().success());
}

/// A flow mapping with multi-byte text before the cursor's place (before the `}`).
const FLOW_MODEL: &str = "        model: {name: \"技能🚀\", }";

#[test]
fn completion_places_in_utf16_and_utf8_clients() {
    let (dir, topology) = estate_copy();
    let root = dir.path();
    // (capabilities, the column after `depends_on: ["技能🚀", ` and the grant `search-code` on
    // line 22, in the client's units).
    for (capabilities, after_emoji, grant) in [
        (vscode_capabilities(), 29, [59, 70]),
        (utf8_capabilities(), 35, [65, 76]),
    ] {
        let capabilities_utf8 = capabilities["general"]["positionEncodings"][0] == "utf-8";
        let (mut client, _) = Client::start(root, capabilities);
        open(&mut client, root, TOPOLOGY, 1);
        client.diagnostics(&topology);
        client.edit(
            &topology,
            2,
            [27, 0, 27, 0],
            &format!("        depends_on: [\"技能🚀\", ]\n        fu\n{FLOW_MODEL}\n"),
        );
        // The other agents, after CJK and an emoji on the line.
        let agents = client.request(
            "textDocument/completion",
            position(&topology, 27, after_emoji),
        );
        assert_eq!(labels(&agents), ["root"], "{agents:#}");
        assert_eq!(
            agents[0]["textEdit"]["range"],
            json!({"start": {"line": 27, "character": after_emoji}, "end": {"line": 27, "character": after_emoji}})
        );
        // An agent's keys, less those written, each with the schema's description.
        let keys = client.request("textDocument/completion", position(&topology, 28, 10));
        let offered = labels(&keys);
        assert!(offered.contains(&"funnel".to_owned()), "{offered:?}");
        assert!(!offered.contains(&"skills".to_owned()), "{offered:?}");
        let funnel = item(&keys, "funnel");
        assert_eq!(funnel["documentation"]["kind"], "markdown");
        assert!(funnel["documentation"]["value"]
            .as_str()
            .unwrap()
            .contains("Funnel artifact"));
        assert_eq!(
            funnel["textEdit"]["range"],
            json!({"start": {"line": 28, "character": 8}, "end": {"line": 28, "character": 10}})
        );
        // Keys of a flow mapping after CJK and an emoji, in the schema's order (kept by the
        // client through `sortText`), less the one written.
        let units = |text: &str| match capabilities_utf8 {
            true => text.len() as u32,
            false => text.encode_utf16().count() as u32,
        };
        let column = units(FLOW_MODEL.trim_end_matches('}'));
        let keys = client.request("textDocument/completion", position(&topology, 29, column));
        let offered = labels(&keys);
        assert_eq!(offered[..2], ["provider", "temperature"], "{offered:?}");
        assert!(!offered.contains(&"name".to_owned()), "{offered:?}");
        let sort: Vec<&str> = keys
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["sortText"].as_str().unwrap())
            .collect();
        assert!(sort.windows(2).all(|w| w[0] < w[1]), "{sort:?}");
        assert_eq!(
            keys[0]["textEdit"]["range"],
            json!({"start": {"line": 29, "character": column}, "end": {"line": 29, "character": column}})
        );
        // A grant after the emoji: the item replaces `search-code` in the client's units.
        let grants = client.request(
            "textDocument/completion",
            position(&topology, 22, grant[0] + 3),
        );
        assert_eq!(
            grants[0]["textEdit"]["range"],
            json!({"start": {"line": 22, "character": grant[0]}, "end": {"line": 22, "character": grant[1]}})
        );
        assert!(client.shutdown().success());
    }
}

/// The diagnostics pushed for `uri` once the server has seen `version` of it.
fn diagnostics_at(client: &mut Client, uri: &str, version: i64) -> Vec<Value> {
    loop {
        let (diagnostics, seen) = client.diagnostics(uri);
        if seen.as_i64().is_some_and(|v| v >= version) {
            return diagnostics;
        }
    }
}

fn counts(diagnostics: &[Value]) -> std::collections::BTreeMap<String, usize> {
    let mut out = std::collections::BTreeMap::new();
    for d in diagnostics {
        *out.entry(d["code"].as_str().unwrap().to_owned())
            .or_default() += 1;
    }
    out
}

/// Document links after multi-byte text in the path itself, and every quick fix the topology is
/// offered, applied through `didChange` in the client's units: each clears its diagnostic and
/// brings no new one (counted per code), then the text is put back.
#[test]
fn document_links_and_every_offered_fix_in_utf16_and_utf8_clients() {
    // (capabilities, where the link's path ends on line 27: UTF-16 units, or bytes)
    for (capabilities, link_end) in [(vscode_capabilities(), 36), (utf8_capabilities(), 46)] {
        let dir = fixture_copy("estate");
        let root = dir.path();
        let path = root.join(TOPOLOGY);
        let original = std::fs::read_to_string(&path).unwrap()
            + "        output_schema: \"模式/出力🚀.json\"\n";
        std::fs::write(&path, &original).unwrap();
        let schema = root.join("topologies/模式/出力🚀.json");
        std::fs::create_dir_all(schema.parent().unwrap()).unwrap();
        std::fs::write(&schema, "{\"type\": \"object\"}\n").unwrap();
        let (mut client, _) = Client::start(root, capabilities);
        let uri = open(&mut client, root, TOPOLOGY, 1);
        let before = diagnostics_at(&mut client, &uri, 1);

        let links = client.request(
            "textDocument/documentLink",
            json!({"textDocument": {"uri": uri}}),
        );
        let link = links
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["target"] == file_uri(&schema))
            .unwrap_or_else(|| panic!("{links:#}"));
        assert_eq!(range_of(&link["range"]), [27, 24, 27, link_end]);

        let mut version = 1;
        let mut applied = 0;
        for diagnostic in &before {
            let code = diagnostic["code"].as_str().unwrap().to_owned();
            for action in code_actions(&mut client, &uri, range_of(&diagnostic["range"])) {
                let title = action["title"].as_str().unwrap();
                let edits = &action["edit"]["changes"];
                if title.starts_with("Disable ")
                    || action["diagnostics"][0]["code"] != code.as_str()
                    || edits
                        .as_object()
                        .is_none_or(|e| e.len() != 1 || !e.contains_key(&uri))
                {
                    continue;
                }
                // The edits, last first, so each range is still where the server said.
                let mut changes: Vec<Value> = edits[&uri]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|e| json!({"range": e["range"], "text": e["newText"]}))
                    .collect();
                changes.sort_by_key(|c| {
                    let r = range_of(&c["range"]);
                    std::cmp::Reverse((r[0], r[1]))
                });
                version += 1;
                client.notify(
                    "textDocument/didChange",
                    json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": changes}),
                );
                let after = diagnostics_at(&mut client, &uri, version);
                let (old, new) = (counts(&before), counts(&after));
                assert!(
                    new.get(&code).copied().unwrap_or(0) < old[&code],
                    "`{title}` leaves {code}: {after:#?}"
                );
                for (c, n) in &new {
                    assert!(
                        *n <= old.get(c).copied().unwrap_or(0),
                        "`{title}` brings {c}: {after:#?}"
                    );
                }
                applied += 1;
                version += 1;
                client.notify(
                    "textDocument/didChange",
                    json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": original}]}),
                );
                diagnostics_at(&mut client, &uri, version);
            }
        }
        // The two typos after the emoji and the prerequisites each have one.
        assert!(applied >= 3, "{applied} fixes applied");
        assert!(client.shutdown().success());
    }
}
