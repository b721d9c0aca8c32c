//! The skill as the host loads it, through the real server: hover on `name` shows the load cost
//! (listing, body, bundled files read from disk), hover on an argument placeholder says what it
//! becomes, and completion after `$` offers the declared arguments before the skills.

use serde_json::{json, Value};
use skillgraph_e2e::{file_uri, write_fixture, Client};

fn capabilities() -> Value {
    json!({
        "general": {"positionEncodings": ["utf-16"]},
        "textDocument": {"hover": {"contentFormat": ["markdown"]}},
    })
}

fn hover_text(hover: &Value) -> String {
    hover["contents"]["value"]
        .as_str()
        .map(str::to_owned)
        .unwrap_or_else(|| hover["contents"].to_string())
}

#[test]
fn load_cost_argument_hover_and_argument_completion() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write_fixture(
        root,
        "//- /.claude/skills/fix/SKILL.md
---
name: fix
description: Fixes an issue.
arguments: [issue, branch]
argument-hint: \"[issue] [branch]\"
---
Fix $issue on $1. See [api](references/api.md).
Then run $
//- /.claude/skills/fix/references/api.md
# API

The endpoints.
//- /.claude/skills/fix/scripts/run.sh
echo run
//- /.claude/skills/issue-triage/SKILL.md
---
name: issue-triage
description: Triages.
---
Body.
",
    );
    let (mut client, _) = Client::start(root, capabilities());
    let skill = file_uri(&root.join(".claude/skills/fix/SKILL.md"));
    client.diagnostics(&skill);

    let hover = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": skill}, "position": {"line": 1, "character": 7}}),
    );
    let text = hover_text(&hover);
    assert!(text.contains("listing: 15 of 1,536 characters"), "{text}");
    assert!(
        text.contains("tokens (an estimate: 4 characters a token") && text.contains("2 lines"),
        "{text}"
    );
    // The bundled files from disk, largest first.
    let api = text
        .find("`references/api.md`: 22 bytes, 3 lines")
        .expect(&text);
    let run = text.find("`scripts/run.sh`: 9 bytes").expect(&text);
    assert!(api < run, "{text}");
    assert!(text.contains("bundled files: 2 (31 bytes)"), "{text}");

    // `$1` on line 6 is the argument at index 1, declared as `branch`.
    let hover = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": skill}, "position": {"line": 6, "character": 15}}),
    );
    let text = hover_text(&hover);
    assert!(
        text.contains("index 1") && text.contains("`branch` (declared in `arguments`)"),
        "{text}"
    );

    let items = client.request(
        "textDocument/completion",
        json!({"textDocument": {"uri": skill}, "position": {"line": 7, "character": 10}}),
    );
    let items = items
        .as_array()
        .or_else(|| items["items"].as_array())
        .unwrap()
        .clone();
    let labels: Vec<&str> = items.iter().map(|i| i["label"].as_str().unwrap()).collect();
    assert_eq!(
        labels,
        ["issue", "branch", "ARGUMENTS", "fix", "issue-triage"],
        "{items:#?}"
    );
    client.shutdown();
}
