//! No single message ends the server or stops it reading, whatever its bytes (`exit` aside):
//! framing, JSON and JSON-RPC of every shape a broken client sends, parameters of every type
//! for every method tower-lsp-server dispatches, and a panic outside every handler's own guard,
//! all against the real binary over stdio.

use std::time::{Duration, Instant};

use serde_json::{json, Value};
use skillgraph_e2e::{file_uri, fixture_copy, initialize_params, Client, TIMEOUT};

/// A server past `initialize`/`initialized` on the fixture, for raw bytes.
fn raw_server() -> (Client, tempfile::TempDir) {
    let dir = fixture_copy("estate");
    let (client, _) = Client::start(dir.path(), json!({}));
    (client, dir)
}

fn frame(body: &[u8]) -> Vec<u8> {
    let mut bytes = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    bytes.extend_from_slice(body);
    bytes
}

fn with_header(header: &str, body: &[u8]) -> Vec<u8> {
    let mut bytes = header.as_bytes().to_vec();
    bytes.extend_from_slice(body);
    bytes
}

type Expect = fn(&[Value]) -> bool;

fn response_to(seen: &[Value], id: i64) -> Option<&Value> {
    seen.iter()
        .find(|m| m.get("method").is_none() && m["id"] == json!(id))
}

fn error_code(seen: &[Value], id: i64) -> Option<i64> {
    response_to(seen, id).and_then(|r| r["error"]["code"].as_i64())
}

fn logged(seen: &[Value], needle: &str) -> bool {
    seen.iter().any(|m| {
        m["method"] == "window/logMessage"
            && m["params"]["message"]
                .as_str()
                .is_some_and(|t| t.contains(needle))
    })
}

#[test]
fn protocol_abuse_costs_the_bad_frame_only() {
    let hover_body = |id: i64| {
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"workspace/symbol","params":{{"query":"engineer"}}}}"#
        )
    };
    let ok = hover_body(900);
    let deep = format!("{}{}", "[".repeat(300), "]".repeat(300));
    let cases: Vec<(&str, Vec<u8>, Expect)> = vec![
        (
            "truncated JSON with an id",
            frame(br#"{"jsonrpc":"2.0","id":101,"method":"workspace/symbol","params":{"#),
            |s| error_code(s, 101) == Some(-32700),
        ),
        ("a body that is not JSON", frame(b"hello, server"), |s| {
            logged(s, "not JSON")
        }),
        (
            "a lone surrogate in a request",
            frame(br#"{"jsonrpc":"2.0","id":102,"method":"workspace/symbol","params":{"query":"\ud83d"}}"#),
            |s| response_to(s, 102).is_some_and(|r| r.get("result").is_some()),
        ),
        (
            "a lone surrogate in an opened document",
            frame(br#"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///tmp/x.yaml","languageId":"yaml","version":1,"text":"a: \"\udc00\ud83d\""}}}"#),
            |_| true,
        ),
        (
            "a body that is not UTF-8",
            frame(b"{\"jsonrpc\":\"2.0\",\"id\":103,\"method\":\"workspace/symbol\",\"params\":{\"query\":\"\xff\xfe\"}}"),
            |s| error_code(s, 103) == Some(-32700) && logged(s, "not UTF-8"),
        ),
        (
            "an empty frame",
            b"Content-Length: 0\r\n\r\n".to_vec(),
            |_| true,
        ),
        (
            "a Content-Length larger than the body, the next frame right behind",
            with_header(&format!("Content-Length: {}\r\n\r\n", ok.len() + 40), hover_body(104).as_bytes()),
            |s| response_to(s, 104).is_some(),
        ),
        (
            "a Content-Length far larger than the body",
            with_header(&format!("Content-Length: {}\r\n\r\n", 1 << 20), hover_body(105).as_bytes()),
            |s| response_to(s, 105).is_some(),
        ),
        (
            "a Content-Length smaller than the body",
            with_header("Content-Length: 20\r\n\r\n", hover_body(106).as_bytes()),
            |_| true,
        ),
        (
            "no Content-Length",
            with_header("Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n", hover_body(107).as_bytes()),
            |s| logged(s, "without a Content-Length"),
        ),
        (
            "a batch",
            frame(br#"[{"jsonrpc":"2.0","id":115,"method":"shutdown"},{"jsonrpc":"2.0","method":"initialized"}]"#),
            // Each request of it refused, so the client waits for nothing.
            |s| error_code(s, 115) == Some(-32600) && logged(s, "batches are not part of LSP"),
        ),
        ("a number", frame(b"42"), |s| logged(s, "not a JSON object")),
        (
            "a method that is not a string",
            frame(br#"{"jsonrpc":"2.0","id":116,"method":7}"#),
            |s| error_code(s, 116) == Some(-32600),
        ),
        (
            "wrong parameter types",
            frame(br#"{"jsonrpc":"2.0","id":117,"method":"textDocument/hover","params":{"textDocument":5,"position":"x"}}"#),
            |s| error_code(s, 117) == Some(-32602),
        ),
        (
            "an unknown method",
            frame(br#"{"jsonrpc":"2.0","id":118,"method":"skillgraph/nothing"}"#),
            |s| error_code(s, 118) == Some(-32601),
        ),
        (
            "no jsonrpc member",
            frame(br#"{"id":119,"method":"workspace/symbol","params":{"query":""}}"#),
            |s| response_to(s, 119).is_some_and(|r| r.get("result").is_some()),
        ),
        (
            "an id that is an object",
            frame(br#"{"jsonrpc":"2.0","id":{"a":1},"method":"workspace/symbol","params":{"query":""}}"#),
            // Answered, with a null id: JSON-RPC's answer when the id cannot be read.
            |s| {
                logged(s, "neither a number nor a string")
                    && s.iter().any(|m| {
                        m.get("id").is_some_and(Value::is_null)
                            && m["error"]["code"] == -32600
                            && m["error"]["message"]
                                .as_str()
                                .is_some_and(|t| t.contains("neither a number nor a string"))
                    })
            },
        ),
        (
            "a response to a request never sent",
            frame(br#"{"jsonrpc":"2.0","id":12345,"result":null}"#),
            |_| true,
        ),
        (
            "a notification with parameters of the wrong type",
            frame(br#"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":"x"}"#),
            |_| true,
        ),
        (
            "JSON nested past any sensible depth",
            frame(format!(r#"{{"jsonrpc":"2.0","id":120,"method":"workspace/symbol","params":{deep}}}"#).as_bytes()),
            |s| error_code(s, 120).is_some(),
        ),
        (
            "a header line of 100 kB",
            with_header(&format!("{}\r\nContent-Length: {}\r\n\r\n", "X".repeat(100_000), ok.len()), hover_body(121).as_bytes()),
            |s| response_to(s, 121).is_some(),
        ),
        (
            "binary garbage between frames",
            b"\x00\x01\x02\xff\r\n".to_vec(),
            |_| true,
        ),
        (
            "a byte-order mark before the body",
            frame("\u{feff}{\"jsonrpc\":\"2.0\",\"id\":122,\"method\":\"workspace/symbol\",\"params\":{\"query\":\"\"}}".as_bytes()),
            |s| error_code(s, 122) == Some(-32700),
        ),
        (
            "a cancellation of a request never sent",
            frame(br#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":777}}"#),
            |_| true,
        ),
        (
            "a member given twice (the issue's own message: the last id counts)",
            frame(br#"{"jsonrpc":"2.0","id":7,"method":"workspace/symbol","params":{"query":"engineer"},"id":8}"#),
            |s| response_to(s, 8).is_some_and(|r| r["result"].is_array()) && response_to(s, 7).is_none(),
        ),
        (
            "a member given twice in a hover request",
            frame(br#"{"jsonrpc":"2.0","id":140,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///nowhere.yaml"},"position":{"line":0,"character":0}},"id":141}"#),
            |s| response_to(s, 141).is_some(),
        ),
        (
            "a member given twice in a response's error",
            frame(br#"{"jsonrpc":"2.0","id":5000,"error":{"code":1,"message":"a","code":2}}"#),
            |_| true,
        ),
        (
            "a member given twice in the parameters",
            frame(br#"{"jsonrpc":"2.0","id":142,"method":"workspace/symbol","params":{"query":5,"query":"engineer"}}"#),
            |s| response_to(s, 142).is_some_and(|r| r["result"].is_array()),
        ),
        (
            "a request that also carries a result",
            frame(br#"{"jsonrpc":"2.0","id":143,"method":"workspace/symbol","params":{"query":""},"result":5}"#),
            |s| response_to(s, 143).is_some_and(|r| r.get("result").is_some()),
        ),
        (
            "a response whose error is a string",
            frame(br#"{"jsonrpc":"2.0","id":5001,"error":"boom"}"#),
            |_| true,
        ),
        (
            "a response with neither result nor error",
            frame(br#"{"jsonrpc":"2.0","id":5002}"#),
            |s| error_code(s, 5002) == Some(-32600),
        ),
        (
            "a Content-Length of a terabyte before a short body, a request right behind",
            {
                let mut bytes = with_header("Content-Length: 1000000000000\r\n\r\n", b"{}");
                bytes.extend(frame(hover_body(146).as_bytes()));
                bytes
            },
            |s| response_to(s, 146).is_some() && logged(s, "over the limit"),
        ),
        (
            "a body holding a header's text in a string",
            frame(br#"{"jsonrpc":"2.0","id":147,"method":"workspace/symbol","params":{"query":"Content-Length: 12\r\n\r\n{}"}}"#),
            |s| response_to(s, 147).is_some_and(|r| r["result"].is_array()),
        ),
        (
            "a header line that is not UTF-8",
            with_header("Content-Length: 2\u{0}\r\n\r\n", b"{}"),
            |_| true,
        ),
        (
            "a body that is a string",
            frame(b"\"hello\""),
            |s| logged(s, "not a JSON object"),
        ),
        ("a body that is null", frame(b"null"), |s| logged(s, "not a JSON object")),
        (
            "an id that is a fraction",
            frame(br#"{"jsonrpc":"2.0","id":1.5,"method":"workspace/symbol","params":{"query":""}}"#),
            |s| s.iter().any(|m| m.get("id").is_some_and(Value::is_null) && m["error"]["code"] == -32600),
        ),
        (
            "an id past 2^63",
            frame(br#"{"jsonrpc":"2.0","id":9223372036854775808,"method":"workspace/symbol","params":{"query":""}}"#),
            |s| s.iter().any(|m| m.get("id").is_some_and(Value::is_null) && m["error"]["code"] == -32600),
        ),
        (
            "a negative id",
            frame(br#"{"jsonrpc":"2.0","id":-4,"method":"workspace/symbol","params":{"query":""}}"#),
            |s| response_to(s, -4).is_some_and(|r| r.get("result").is_some()),
        ),
        (
            "a string id",
            frame(br#"{"jsonrpc":"2.0","id":"abc","method":"workspace/symbol","params":{"query":""}}"#),
            |s| s.iter().any(|m| m["id"] == "abc" && m.get("result").is_some()),
        ),
        (
            "a null id",
            frame(br#"{"jsonrpc":"2.0","id":null,"method":"workspace/symbol","params":{"query":""}}"#),
            |_| true,
        ),
        (
            "a notification sent with an id",
            frame(br#"{"jsonrpc":"2.0","id":148,"method":"textDocument/didSave","params":{"textDocument":{"uri":"file:///x.yaml"}}}"#),
            |s| error_code(s, 148) == Some(-32600),
        ),
        (
            "a second initialize",
            frame(br#"{"jsonrpc":"2.0","id":149,"method":"initialize","params":{"capabilities":{}}}"#),
            |s| error_code(s, 149) == Some(-32600),
        ),
        (
            "a second initialized, without parameters",
            frame(br#"{"jsonrpc":"2.0","method":"initialized"}"#),
            |_| true,
        ),
        (
            "a lone low surrogate in a key",
            frame(br#"{"jsonrpc":"2.0","id":150,"method":"workspace/symbol","params":{"query":"","\udc00":1}}"#),
            |s| response_to(s, 150).is_some_and(|r| r.get("result").is_some()),
        ),
        (
            "JSON nested just under serde_json's depth limit",
            frame(format!(r#"{{"jsonrpc":"2.0","id":151,"method":"workspace/symbol","params":{{"query":{}{}}}}}"#, "[".repeat(120), "]".repeat(120)).as_bytes()),
            |s| error_code(s, 151) == Some(-32602),
        ),
        (
            "a cancellation whose id is an object",
            frame(br#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":{}}}"#),
            |_| true,
        ),
        (
            "a million blank lines",
            "\r\n".repeat(1_000_000).into_bytes(),
            |_| true,
        ),
        (
            // Reported once per read that brought them (a pipe hands 80 KB over in a few
            // reads), never once per line: the counts add up to every line.
            "ten thousand garbage lines, reported once per read",
            "garbage\n".repeat(10_000).into_bytes(),
            |s| {
                let counts: Vec<usize> = s
                    .iter()
                    .filter(|m| m["method"] == "window/logMessage")
                    .filter_map(|m| m["params"]["message"].as_str())
                    .filter_map(|t| {
                        let (before, _) = t.split_once(" such lines in all")?;
                        before.rsplit(' ').next()?.parse().ok()
                    })
                    .collect();
                counts.len() <= 8 && counts.iter().sum::<usize>() == 10_000
            },
        ),
        (
            "a frame over the 64 MiB cap",
            {
                let size = (64 << 20) + 1;
                let mut bytes = format!("Content-Length: {size}\r\n\r\n").into_bytes();
                bytes.resize(bytes.len() + size, b' ');
                bytes
            },
            |s| logged(s, "over the limit"),
        ),
    ];
    // Headers with a request right behind, which must be answered (`{len}` is the length of
    // its body), and what the log must say about the header, if anything.
    let headed: [(&str, &str, i64, Option<&str>); 9] = [
        (
            "two equal Content-Lengths",
            "Content-Length: {len}\r\nContent-Length: {len}\r\n\r\n",
            108,
            None,
        ),
        (
            "two different Content-Lengths",
            "Content-Length: {len}\r\nContent-Length: 3\r\n\r\n",
            109,
            None,
        ),
        ("header names in lower case", "content-length: {len}\r\n\r\n", 110, None),
        (
            "a Content-Type header first",
            "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nContent-Length: {len}\r\n\r\n",
            111,
            None,
        ),
        ("an unknown header", "X-Junk: yes\r\nContent-Length: {len}\r\n\r\n", 112, None),
        (
            "a garbage line before the header",
            "this is not a header\r\nContent-Length: {len}\r\n\r\n",
            113,
            Some("not a message header"),
        ),
        ("bare LF line ends", "Content-Length: {len}\n\n", 114, None),
        ("header lines ended by a lone CR", "Content-Length: {len}\r\r", 144, None),
        (
            "a header without the blank line that ends it",
            "Content-Length: {len}\r\n",
            145,
            None,
        ),
    ];
    // Content-Lengths that are no byte count, before a body of `{}`: the log says so.
    let not_counts = ["many", "-5", "99999999999999999999999999", "0x10"];
    assert!(cases.len() + headed.len() + not_counts.len() >= 60);
    for (name, bytes, expect) in cases {
        survives(name, &bytes, expect);
    }
    for length in not_counts {
        let bytes = with_header(&format!("Content-Length: {length}\r\n\r\n"), b"{}");
        let name = format!("a Content-Length of {length:?}");
        survives(&name, &bytes, |s| logged(s, "not a byte count"));
    }
    for (name, header, id, says) in headed {
        let body = hover_body(id);
        assert_eq!(body.len(), ok.len(), "{name}: a body of another length");
        let header = header.replace("{len}", &body.len().to_string());
        survives(name, &with_header(&header, body.as_bytes()), |s| {
            response_to(s, id).is_some() && says.is_none_or(|part| logged(s, part))
        });
    }
}

/// Sends `bytes` to a fresh server, then a request, which it must answer at once and as usual;
/// what it sent must come to hold what `expect` looks for, and it must end cleanly.
fn survives(name: &str, bytes: &[u8], expect: impl Fn(&[Value]) -> bool) {
    let (mut client, _dir) = raw_server();
    client.send_raw(bytes);
    let started = Instant::now();
    assert_still_answers(&mut client, &format!("{name}: the next request"));
    let waited = started.elapsed();
    assert!(client.seen_eventually(expect), "{name}: {:#?}", client.seen);
    assert!(waited < TIMEOUT, "{name}");
    assert!(
        client.shutdown().success(),
        "{name}: the server did not end cleanly"
    );
}

/// Asserts that the server answers `workspace/symbol` as usual (the fixture's agents), so the
/// session goes on; `what` says which moment, in the failure.
#[track_caller]
fn assert_still_answers(client: &mut Client, what: &str) {
    let answer = client.request("workspace/symbol", json!({"query": "engineer"}));
    assert!(
        answer.as_array().is_some_and(|a| !a.is_empty()),
        "{what} was not answered normally: {answer}"
    );
}

/// Every method tower-lsp-server 0.23 dispatches (`src/server.rs`, its `#[rpc(name = …)]`
/// attributes), but `exit` and `shutdown`, which end or close the session by design.
const METHODS: &[&str] = &[
    "initialize",
    "initialized",
    "textDocument/didOpen",
    "textDocument/didChange",
    "textDocument/willSave",
    "textDocument/willSaveWaitUntil",
    "textDocument/didSave",
    "textDocument/didClose",
    "notebookDocument/didOpen",
    "notebookDocument/didChange",
    "notebookDocument/didSave",
    "notebookDocument/didClose",
    "textDocument/declaration",
    "textDocument/definition",
    "textDocument/typeDefinition",
    "textDocument/implementation",
    "textDocument/references",
    "textDocument/prepareCallHierarchy",
    "callHierarchy/incomingCalls",
    "callHierarchy/outgoingCalls",
    "textDocument/prepareTypeHierarchy",
    "typeHierarchy/supertypes",
    "typeHierarchy/subtypes",
    "textDocument/documentHighlight",
    "textDocument/documentLink",
    "documentLink/resolve",
    "textDocument/hover",
    "textDocument/codeLens",
    "codeLens/resolve",
    "textDocument/foldingRange",
    "textDocument/selectionRange",
    "textDocument/documentSymbol",
    "textDocument/semanticTokens/full",
    "textDocument/semanticTokens/full/delta",
    "textDocument/semanticTokens/range",
    "textDocument/inlineValue",
    "textDocument/inlayHint",
    "inlayHint/resolve",
    "textDocument/moniker",
    "textDocument/completion",
    "completionItem/resolve",
    "textDocument/diagnostic",
    "workspace/diagnostic",
    "textDocument/signatureHelp",
    "textDocument/codeAction",
    "codeAction/resolve",
    "textDocument/documentColor",
    "textDocument/colorPresentation",
    "textDocument/formatting",
    "textDocument/rangeFormatting",
    "textDocument/onTypeFormatting",
    "textDocument/rename",
    "textDocument/prepareRename",
    "textDocument/linkedEditingRange",
    "workspace/symbol",
    "workspaceSymbol/resolve",
    "workspace/didChangeConfiguration",
    "workspace/didChangeWorkspaceFolders",
    "workspace/willCreateFiles",
    "workspace/didCreateFiles",
    "workspace/willRenameFiles",
    "workspace/didRenameFiles",
    "workspace/willDeleteFiles",
    "workspace/didDeleteFiles",
    "workspace/didChangeWatchedFiles",
    "workspace/executeCommand",
    "$/cancelRequest",
    "$/setTrace",
    "skillgraph/unknown",
];

/// Parameters of every JSON type, and one object whose members have the names LSP's parameter
/// types use and values at their edges: positions past the end, a reversed range, an edit
/// past the end of a document that is open, odd URIs, a setting of the wrong type.
fn hostile_params(open_uri: &str) -> Vec<Value> {
    let far = json!({"line": u32::MAX, "character": u32::MAX});
    let reversed =
        json!({"start": {"line": 9, "character": 9}, "end": {"line": 0, "character": 0}});
    let everything = |uri: &str| {
        json!({
            "textDocument": {"uri": uri, "version": -1, "languageId": "yaml", "text": "a: [\n\u{0}"},
            "position": far, "range": reversed,
            "contentChanges": [{"range": {"start": far, "end": far}, "text": "x"}, {"range": reversed, "text": ""}],
            "context": {"includeDeclaration": true, "diagnostics": [], "only": ["quickfix"], "triggerKind": 3, "triggerCharacter": ":"},
            "query": "", "newName": "", "command": "skillgraph.orderingGraph", "arguments": [5, {}, null],
            "settings": {"skillgraph": {"rules": 5, "env": [1]}},
            "changes": [{"uri": uri, "type": 9}, {"uri": "file:///", "type": 1}],
            "event": {"added": [{"uri": "file:///", "name": "root"}], "removed": [{"uri": uri, "name": "x"}]},
            "items": [], "item": {"name": "x", "kind": 5, "uri": uri, "range": reversed, "selectionRange": reversed},
            "previousResultIds": [{"uri": uri, "value": 5}], "identifier": null, "files": [{"uri": uri}],
            "ch": "\u{0}", "options": {"tabSize": 0, "insertSpaces": true}, "id": {}, "value": "off",
            "label": "x", "data": null, "processId": -1, "capabilities": {},
        })
    };
    vec![
        json!("x"),
        json!(5),
        json!(true),
        json!([]),
        json!([1, "two", null]),
        json!({}),
        everything(open_uri),
        everything("untitled:Untitled-1"),
        everything("file://server/share/x.yaml"),
        everything("file:///%00/x.yaml"),
        everything("not a uri"),
    ]
}

#[test]
fn parameters_of_every_type_for_every_method_cost_only_that_message() {
    let (client, dir) = raw_server();
    // A document opened outside the roots brings in the folder around it, and a request may
    // wait for that (at most 10 s) after waiting for the document's opening (at most 10 s).
    let mut client = client.with_timeout(Duration::from_secs(60));
    let topology = dir.path().join("topologies/estate.yaml");
    let uri = file_uri(&topology);
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "yaml", "version": 1,
            "text": std::fs::read_to_string(&topology).unwrap()}}),
    );
    let mut asked = Vec::new();
    for params in hostile_params(&uri) {
        for method in METHODS {
            asked.push((client.send_request(method, params.clone()), *method));
            client.notify(method, params.clone());
        }
    }
    for (id, method) in asked {
        let response = client.wait_for(&format!("the answer to {method} ({id})"), |m| {
            m.get("method").is_none() && m["id"] == json!(id)
        });
        assert!(
            response.get("result").is_some() || response.get("error").is_some(),
            "{method}: {response}"
        );
    }
    // The session goes on: the document is still open and the workspace still indexed.
    assert_still_answers(&mut client, "after every method");
    assert!(client.shutdown().success());
}

#[test]
fn a_panic_outside_every_handler_is_answered_and_the_server_goes_on() {
    let dir = fixture_copy("estate");
    let (mut client, _) = Client::start_with_env(
        initialize_params(dir.path(), json!({})),
        &[("SKILLGRAPH_TEST_PANIC", "executeCommand:unguarded")],
    );
    let response = client.request_raw(
        "workspace/executeCommand",
        json!({"command": "skillgraph.orderingGraph", "arguments": []}),
    );
    assert_eq!(response["error"]["code"], -32603, "{response}");
    assert_still_answers(&mut client, "after the panic");
    assert!(client.shutdown().success());
}

#[test]
fn exit_before_initialize_ends_the_server_at_once_with_status_1() {
    // LSP: `exit` ends the process, with 1 when no `shutdown` came first. The one message that
    // ends the server, by design.
    let mut client = Client::spawn(&[], true);
    client.notify("exit", Value::Null);
    let (status, took) = client
        .wait_exit(Duration::from_secs(5))
        .expect("the server outlived `exit`");
    assert_eq!(status.code(), Some(1), "{status:?}");
    eprintln!("exit before initialize: {took:?}");
}

#[test]
fn a_shutdown_with_parameters_shuts_down_and_the_exit_is_clean() {
    let (mut client, _dir) = raw_server();
    let id = 9;
    client.send_raw(&frame(
        br#"{"jsonrpc":"2.0","id":9,"method":"shutdown","params":{}}"#,
    ));
    let response = client.wait_for("the answer to shutdown", |m| {
        m.get("method").is_none() && m["id"] == json!(id)
    });
    assert_eq!(response.get("result"), Some(&Value::Null), "{response}");
    client.notify("exit", Value::Null);
    let (status, _) = client
        .wait_exit(Duration::from_secs(5))
        .expect("the server outlived `exit`");
    assert!(status.success(), "{status:?}");
}

#[test]
fn an_initialized_without_parameters_still_indexes_the_workspace() {
    for initialized in [
        &br#"{"jsonrpc":"2.0","method":"initialized"}"#[..],
        br#"{"jsonrpc":"2.0","method":"initialized","params":null}"#,
        br#"{"jsonrpc":"2.0","method":"initialized","params":[]}"#,
    ] {
        let dir = fixture_copy("estate");
        let uri = file_uri(dir.path());
        let mut client = Client::spawn(&[], true);
        client.request(
            "initialize",
            json!({"processId": null, "rootUri": uri, "capabilities": {},
                "workspaceFolders": [{"uri": uri, "name": "w"}]}),
        );
        client.send_raw(&frame(initialized));
        let started = Instant::now();
        let symbols = client.request("workspace/symbol", json!({"query": "engineer"}));
        assert!(
            symbols.as_array().is_some_and(|a| !a.is_empty()),
            "{}: {symbols}",
            String::from_utf8_lossy(initialized)
        );
        assert!(started.elapsed() < Duration::from_secs(8));
        assert!(client.shutdown().success());
    }
}
