//! What a frame's body may be, and what tower is handed: one JSON-RPC message, rebuilt from the
//! members tower reads. tower decodes each message into typed structs that refuse a member given
//! twice (`"id":7,…,"id":8`) or a member of another type, and its reader stops for good at the
//! first message it cannot decode; so nothing the client wrote reaches it as written. A body is
//! parsed here into a `serde_json::Value` (a member given twice keeps its last value, as
//! `JSON.parse` does), checked, and written out again with only `jsonrpc`, `method`, `params`
//! and `id` (a request or notification) or `jsonrpc`, `id` and `result` or `error` (a response).

use serde_json::{json, Map, Value};

/// What the framer hands on.
#[derive(Debug, PartialEq)]
pub enum Frame {
    /// A well-formed JSON-RPC message, ready for tower.
    Message { body: Vec<u8>, exit: bool },
    /// A frame that was dropped: the error responses owed for it (to the id that could be
    /// recovered, or one per request of a batch), and what to report.
    Dropped { replies: Vec<Value>, report: String },
    /// Something worth reporting that needs no answer.
    Note(String),
    /// The input ended.
    End,
}

/// JSON-RPC's "Parse error": the body is not JSON (or not UTF-8).
const PARSE_ERROR: i64 = -32700;
/// JSON-RPC's "Invalid Request": JSON, but not a message.
const INVALID_REQUEST: i64 = -32600;
/// JSON-RPC's "Method not found".
const METHOD_NOT_FOUND: i64 = -32601;
/// JSON-RPC's "Internal error", given to a client's malformed error response.
const INTERNAL_ERROR: i64 = -32603;

/// Checks a body: UTF-8, JSON, a JSON-RPC message. Lone surrogate escapes become U+FFFD.
pub fn check_body(body: Vec<u8>) -> Frame {
    let text = match String::from_utf8(body) {
        Ok(text) => text,
        Err(error) => {
            let lossy = String::from_utf8_lossy(error.as_bytes()).into_owned();
            return Frame::Dropped {
                replies: recover_id(&lossy)
                    .map(|id| error_response(id, PARSE_ERROR, "the message is not UTF-8"))
                    .into_iter()
                    .collect(),
                report: format!(
                    "a message that is not UTF-8 (at byte {}) was skipped",
                    error.utf8_error().valid_up_to()
                ),
            };
        }
    };
    let text = replace_lone_surrogates(text);
    let value: Value = match serde_json::from_str(&text) {
        Ok(value) => value,
        Err(error) => {
            let message = format!("the message is not JSON: {error}");
            return Frame::Dropped {
                replies: recover_id(&text)
                    .map(|id| error_response(id, PARSE_ERROR, &message))
                    .into_iter()
                    .collect(),
                report: message,
            };
        }
    };
    drop(text);
    check_message(value)
}

/// The message tower is handed for a parsed body, or why there is none.
fn check_message(value: Value) -> Frame {
    match value {
        Value::Object(object) => rebuild(object),
        Value::Array(items) => refuse_batch(items),
        _ => Frame::Dropped {
            replies: Vec::new(),
            report: "a message that is not a JSON object was skipped".to_owned(),
        },
    }
}

/// LSP has no batches (JSON-RPC 2.0 does): each request in one is refused, so no client waits
/// for an answer that will not come.
fn refuse_batch(items: Vec<Value>) -> Frame {
    let report = format!(
        "a batch of {} messages was skipped: batches are not part of LSP, so send each message in a frame of its own",
        items.len()
    );
    let replies = items
        .iter()
        .filter(|item| item.get("method").is_some())
        .filter_map(|item| item.get("id"))
        .filter(|id| is_id(id) && !id.is_null())
        .map(|id| error_response(id.clone(), INVALID_REQUEST, &report))
        .collect();
    Frame::Dropped { replies, report }
}

/// What JSON-RPC allows as an id, within what tower reads: a string, an integer that fits in
/// 64 bits, or null.
fn is_id(id: &Value) -> bool {
    id.is_string() || id.is_null() || id.as_i64().is_some()
}

/// A request, notification or response holding only the members tower reads, each of the type
/// it expects. Lenient where the message is otherwise understood: a missing or other `jsonrpc`
/// tag, `"params": null`, parameters given to `shutdown` or `exit` (which take none) or missing
/// from `initialized` (whose parameters hold nothing), an `"error": null` beside a result, a
/// malformed error object (it still settles the server's request).
fn rebuild(mut object: Map<String, Value>) -> Frame {
    let id = object.remove("id");
    let refuse = |id: Option<Value>, what: &str| {
        let report = format!("an invalid JSON-RPC message was skipped: {what}");
        // An id that is there but cannot be one (`1.5`, `{}`, `true`, past 2^63) is answered
        // with a null id, as JSON-RPC 2.0 asks when the id cannot be read.
        let reply_to = match id {
            Some(id) if !is_id(&id) => Some(Value::Null),
            Some(Value::Null) | None => None,
            Some(id) => Some(id),
        };
        Frame::Dropped {
            replies: reply_to
                .map(|id| error_response(id, INVALID_REQUEST, &report))
                .into_iter()
                .collect(),
            report,
        }
    };
    if id.as_ref().is_some_and(|id| !is_id(id)) {
        return refuse(id, "its id is neither a number nor a string");
    }
    let mut message = Map::new();
    message.insert("jsonrpc".to_owned(), json!("2.0"));
    let exit = match object.remove("method") {
        Some(Value::String(method)) => {
            let exit = method == "exit";
            // tower answers nothing to a request for a `$/` method it does not know; LSP asks
            // for MethodNotFound, so the client does not wait for ever.
            if let Some(id) = id.as_ref().filter(|id| !id.is_null()) {
                if method.starts_with("$/") && method != "$/cancelRequest" {
                    let report = format!(
                        "a request to `{method}`, which this server does not offer, was refused"
                    );
                    return Frame::Dropped {
                        replies: vec![error_response(id.clone(), METHOD_NOT_FOUND, &report)],
                        report,
                    };
                }
            }
            let params = object.remove("params").filter(|p| !p.is_null());
            match method.as_str() {
                // They take none, and tower answers `shutdown` with parameters by an error
                // after it has shut the server down.
                "shutdown" | "exit" => {}
                // `InitializedParams` holds nothing; tower drops an `initialized` whose
                // parameters are missing or not an object, and the server would never index.
                "initialized" => {
                    message.insert("params".to_owned(), json!({}));
                }
                _ => {
                    if let Some(params) = params {
                        message.insert("params".to_owned(), params);
                    }
                }
            }
            message.insert("method".to_owned(), Value::String(method));
            if let Some(id) = id {
                message.insert("id".to_owned(), id);
            }
            exit
        }
        Some(_) => return refuse(id, "its method is not a string"),
        None => {
            let Some(id) = id else {
                return refuse(None, "it has neither a method nor an id");
            };
            let error = object.remove("error").filter(|e| !e.is_null());
            match (object.remove("result"), error) {
                (_, Some(error)) => {
                    message.insert("error".to_owned(), error_object(error));
                }
                (Some(result), None) => {
                    message.insert("result".to_owned(), result);
                }
                (None, None) => {
                    return refuse(Some(id), "neither a request, a notification nor a response")
                }
            }
            message.insert("id".to_owned(), id);
            false
        }
    };
    let body = serde_json::to_vec(&Value::Object(message)).unwrap_or_default();
    Frame::Message { body, exit }
}

/// A client's error object as tower reads one: an integer code, a string message, any data.
fn error_object(error: Value) -> Value {
    let code = error.get("code").and_then(Value::as_i64);
    let message = error.get("message").and_then(Value::as_str);
    match (code, message) {
        (Some(code), Some(message)) => {
            let mut object = json!({"code": code, "message": message});
            if let Some(data) = error.get("data").filter(|d| !d.is_null()) {
                object["data"] = data.clone();
            }
            object
        }
        _ => json!({"code": INTERNAL_ERROR, "message": error.to_string()}),
    }
}

pub fn error_response(id: Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}
/// The id of a body that does not parse: the first `"id": <number or string>` outside a string.
fn recover_id(text: &str) -> Option<Value> {
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(at) = text[from..].find("\"id\"").map(|i| i + from) {
        from = at + 4;
        if at > 0 && bytes[at - 1] == b'\\' {
            continue; // an escaped quote: inside a string
        }
        let rest = text[from..].trim_start();
        let Some(rest) = rest.strip_prefix(':') else {
            continue;
        };
        let rest = rest.trim_start();
        if let Some(stripped) = rest.strip_prefix('"') {
            let end = stripped.find(['"', '\\'])?;
            if stripped.as_bytes()[end] == b'"' {
                return Some(Value::String(stripped[..end].to_owned()));
            }
            return None;
        }
        let digits: String = rest
            .chars()
            .enumerate()
            .take_while(|&(i, c)| c.is_ascii_digit() || (i == 0 && c == '-'))
            .map(|(_, c)| c)
            .collect();
        return digits.parse::<i64>().ok().map(Value::from);
    }
    None
}

/// `\uD800`–`\uDFFF` escapes not part of a valid pair become `\uFFFD`, which serde_json would
/// otherwise refuse. Other text is left as it is.
fn replace_lone_surrogates(text: String) -> String {
    if !text.contains("\\u") && !text.contains("\\U") {
        return text;
    }
    let bytes = text.as_bytes();
    let hex = |at: usize| -> Option<u32> {
        let digits = bytes.get(at..at + 4)?;
        u32::from_str_radix(std::str::from_utf8(digits).ok()?, 16).ok()
    };
    let escape_at = |at: usize| -> Option<u32> {
        (bytes.get(at) == Some(&b'\\') && bytes.get(at + 1) == Some(&b'u'))
            .then(|| hex(at + 2))
            .flatten()
    };
    let mut out: Option<Vec<u8>> = None;
    let mut i = 0;
    let mut copied = 0;
    while i < bytes.len() {
        if bytes[i] != b'\\' {
            i += 1;
            continue;
        }
        let Some(unit) = escape_at(i) else {
            i += 2; // any other escape, `\\` included, is copied as it is
            continue;
        };
        let lone = match unit {
            0xD800..=0xDBFF => match escape_at(i + 6) {
                Some(0xDC00..=0xDFFF) => {
                    i += 12;
                    continue;
                }
                _ => true,
            },
            0xDC00..=0xDFFF => true,
            _ => false,
        };
        if lone {
            let out = out.get_or_insert_with(|| Vec::with_capacity(bytes.len()));
            out.extend_from_slice(&bytes[copied..i]);
            out.extend_from_slice(b"\\uFFFD");
            copied = i + 6;
        }
        i += 6;
    }
    match out {
        None => text,
        Some(mut out) => {
            out.extend_from_slice(&bytes[copied.min(bytes.len())..]);
            String::from_utf8(out).unwrap_or(text)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lone_surrogates_become_replacement_characters() {
        let body = r#"{"jsonrpc":"2.0","method":"m","params":{"a":"\ud83d","b":"\ud83d\ude80","c":"\\ud83d","d":"\udc00x"}}"#;
        let Frame::Message { body, .. } = check_body(body.as_bytes().to_vec()) else {
            panic!("a message expected");
        };
        let value: Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(value["params"]["a"], "\u{FFFD}");
        assert_eq!(value["params"]["b"], "🚀");
        assert_eq!(value["params"]["c"], "\\ud83d");
        assert_eq!(value["params"]["d"], "\u{FFFD}x");
    }

    #[test]
    fn bodies_that_are_not_json_answer_with_the_recovered_id() {
        let Frame::Dropped { replies, .. } =
            check_body(br#"{"jsonrpc":"2.0","id":7,"method":"#.to_vec())
        else {
            panic!("dropped expected");
        };
        assert_eq!(replies[0]["error"]["code"], -32700);
        let Frame::Dropped { replies, .. } = check_body(b"\xff\xfe{\"id\":\"x\"}".to_vec()) else {
            panic!("dropped expected");
        };
        assert_eq!(replies[0]["id"], "x");
        let Frame::Dropped { replies, .. } = check_body(b"not json".to_vec()) else {
            panic!("dropped expected");
        };
        assert!(replies.is_empty());
    }

    #[test]
    fn messages_that_are_not_json_rpc_are_refused() {
        for (body, code) in [
            (r#"{"id":3,"method":5}"#, Some(-32600)),
            (r#"{"id":3}"#, Some(-32600)),
            (r#"[1,2]"#, None),
            // An id that cannot be one is answered with a null id (JSON-RPC 2.0, "Invalid
            // Request"), so the client sees the refusal.
            (r#"{"id":{"a":1},"method":"x"}"#, Some(-32600)),
        ] {
            let Frame::Dropped { replies, .. } = check_body(body.as_bytes().to_vec()) else {
                panic!("{body} dropped expected");
            };
            assert_eq!(
                replies.first().map(|r| r["error"]["code"].clone()),
                code.map(Value::from),
                "{body}"
            );
        }
        let Frame::Dropped { replies, .. } = check_body(br#"{"id":1.5,"method":"x"}"#.to_vec())
        else {
            panic!("dropped expected");
        };
        assert_eq!(replies[0]["id"], Value::Null);
        let Frame::Message { body, exit } = check_body(br#"{"method":"exit"}"#.to_vec()) else {
            panic!("a message expected");
        };
        assert!(exit);
        let value: Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(value["jsonrpc"], "2.0");
    }

    fn rebuilt(body: &str) -> Value {
        let Frame::Message { body, .. } = check_body(body.as_bytes().to_vec()) else {
            panic!("{body}: a message expected");
        };
        serde_json::from_slice(&body).unwrap()
    }

    #[test]
    fn a_member_given_twice_keeps_its_last_value_as_json_parse_does() {
        let value = rebuilt(
            r#"{"jsonrpc":"2.0","id":7,"method":"textDocument/hover","params":{"a":1},"id":8}"#,
        );
        assert_eq!(
            value,
            json!({"jsonrpc":"2.0","id":8,"method":"textDocument/hover","params":{"a":1}})
        );
        let value =
            rebuilt(r#"{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"a","code":2}}"#);
        assert_eq!(value["error"], json!({"code": 2, "message": "a"}));
    }

    #[test]
    fn tower_is_handed_only_the_members_it_reads() {
        // A request carrying a `result` would be read by tower as a response to its own id.
        let value = rebuilt(r#"{"jsonrpc":"2.0","id":3,"method":"shutdown","result":1,"x":[]}"#);
        assert_eq!(value, json!({"jsonrpc":"2.0","id":3,"method":"shutdown"}));
        let value = rebuilt(r#"{"jsonrpc":"1.0","id":"a","result":null,"error":null}"#);
        assert_eq!(value, json!({"jsonrpc":"2.0","id":"a","result":null}));
        let value = rebuilt(r#"{"id":4,"result":1,"error":{"code":"x"}}"#);
        assert_eq!(value["error"]["code"], -32603);
        assert!(value.get("result").is_none());
        let value = rebuilt(r#"{"id":4,"error":{"code":5,"message":"m","data":[1]}}"#);
        assert_eq!(
            value["error"],
            json!({"code": 5, "message": "m", "data": [1]})
        );
        for initialized in [
            r#"{"method":"initialized","params":null}"#,
            r#"{"method":"initialized"}"#,
            r#"{"method":"initialized","params":5}"#,
        ] {
            let value = rebuilt(initialized);
            assert_eq!(
                value,
                json!({"jsonrpc":"2.0","method":"initialized","params":{}})
            );
        }
        let value = rebuilt(r#"{"id":1,"method":"shutdown","params":{}}"#);
        assert_eq!(value, json!({"jsonrpc":"2.0","id":1,"method":"shutdown"}));
        let value = rebuilt(r#"{"method":"m","params":null}"#);
        assert_eq!(value, json!({"jsonrpc":"2.0","method":"m"}));
    }

    #[test]
    fn a_request_for_an_unknown_dollar_method_is_refused_here() {
        let Frame::Dropped { replies, .. } =
            check_body(br#"{"jsonrpc":"2.0","id":2,"method":"$/setTrace","params":{}}"#.to_vec())
        else {
            panic!("dropped expected");
        };
        assert_eq!(replies[0]["error"]["code"], -32601);
        rebuilt(r#"{"jsonrpc":"2.0","method":"$/setTrace","params":{}}"#);
        rebuilt(r#"{"jsonrpc":"2.0","id":3,"method":"$/cancelRequest","params":{"id":1}}"#);
    }

    #[test]
    fn each_request_of_a_batch_is_refused() {
        let Frame::Dropped { replies, report } = check_body(
            br#"[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","method":"b"},{"id":"x","method":"c"},5]"#.to_vec(),
        ) else {
            panic!("dropped expected");
        };
        let ids: Vec<&Value> = replies.iter().map(|r| &r["id"]).collect();
        assert_eq!(ids, [&json!(1), &json!("x")]);
        assert!(replies.iter().all(|r| r["error"]["code"] == -32600));
        assert!(report.contains("batch of 4"), "{report}");
    }
}
