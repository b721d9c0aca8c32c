//! The skill as the host loads it, through the real server: hover on `name` shows the load cost
//! (listing, body, bundled files read from disk), hover on an argument placeholder says what it
//! becomes, and completion after `$` offers the declared arguments before the skills.

use serde_json::{json, Value};
use skillgraph_e2e::{assert_contains, completion, file_uri, fixture_dir, write_fixture, Client};

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
    let dir = fixture_dir(
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
    let root = dir.path();
    let (mut client, _) = Client::start(root, capabilities());
    let skill = file_uri(&root.join(".claude/skills/fix/SKILL.md"));
    client.diagnostics(&skill);

    let hover = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": skill}, "position": {"line": 1, "character": 7}}),
    );
    let text = hover_text(&hover);
    assert_contains(&text, "listing: 15 of 1,536 characters");
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
    assert_contains(&text, "bundled files: 2 (31 bytes)");

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

    let (items, labels) = completion(&mut client, &skill, 7, 10);
    assert_eq!(
        labels,
        ["issue", "branch", "ARGUMENTS", "fix", "issue-triage"],
        "{items:#?}"
    );
    client.shutdown();
}

/// Applies a `WorkspaceEdit`'s edits of one document (given as `changes`) to `text`; positions
/// are UTF-16, which for this ASCII text are bytes.
fn apply(text: &str, edits: &[Value]) -> String {
    let offset = |p: &Value| {
        let line = p["line"].as_u64().unwrap() as usize;
        let character = p["character"].as_u64().unwrap() as usize;
        text.split_inclusive('\n')
            .take(line)
            .map(str::len)
            .sum::<usize>()
            + character
    };
    let mut edits: Vec<(usize, usize, &str)> = edits
        .iter()
        .map(|e| {
            (
                offset(&e["range"]["start"]),
                offset(&e["range"]["end"]),
                e["newText"].as_str().unwrap(),
            )
        })
        .collect();
    edits.sort();
    let mut out = String::new();
    let mut at = 0;
    for (start, end, new) in edits {
        out.push_str(&text[at..start]);
        out.push_str(new);
        at = end;
    }
    out.push_str(&text[at..]);
    out
}

#[test]
fn the_portable_quick_fix_and_rewrite_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let nested = "---
name: refund
description: Refunds an order.
dependencies:
  tools: [get_order]
metadata:
  chain: [verify]
---
Refund it.
";
    write_fixture(
        root,
        &format!(
            "//- /skillgraph.toml\n[tools]\navailable = [\"get_order\"]\n//- /.agents/skills/refund/SKILL.md\n{nested}//- /.agents/skills/verify/SKILL.md\n---\nname: verify\ndescription: Verifies.\n---\nV.\n//- /skills/plain/SKILL.md\n{}",
            nested.replace("name: refund", "name: plain")
        ),
    );
    let (mut client, _) = Client::start(root, capabilities());
    let skill = file_uri(&root.join(".agents/skills/refund/SKILL.md"));
    let (diagnostics, _) = client.diagnostics(&skill);
    let host: Vec<&Value> = diagnostics
        .iter()
        .filter(|d| d["code"] == "skillmd.extension-host")
        .collect();
    assert_eq!(host.len(), 1, "{diagnostics:#?}");
    let actions = client.request(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": skill},
            "range": host[0]["range"],
            "context": {"diagnostics": [host[0]], "only": ["quickfix"]},
        }),
    );
    let fix = actions
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["title"].as_str().unwrap().contains("portable form"))
        .expect("the portable fix");
    let portable = apply(nested, fix["edit"]["changes"][&skill].as_array().unwrap());
    assert_eq!(
        portable,
        "---\nname: refund\ndescription: Refunds an order.\nmetadata:\n  chain: \"verify\"\n  dependencies: \"tools: get_order\"\n---\nRefund it.\n"
    );
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": skill, "languageId": "markdown", "version": 1, "text": portable}}),
    );
    let (diagnostics, _) = client.diagnostics(&skill);
    assert!(diagnostics.is_empty(), "{diagnostics:#?}");

    // No host known for `skills/plain`: the same rewrite is a refactoring on the key.
    let plain = file_uri(&root.join("skills/plain/SKILL.md"));
    client.diagnostics(&plain);
    let actions = client.request(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": plain},
            "range": {"start": {"line": 6, "character": 3}, "end": {"line": 6, "character": 3}},
            "context": {"diagnostics": [], "only": ["refactor.rewrite"]},
        }),
    );
    let rewrite = &actions.as_array().expect("a rewrite")[0];
    assert_eq!(rewrite["kind"], "refactor.rewrite");
    let text = nested.replace("name: refund", "name: plain");
    let portable = apply(
        &text,
        rewrite["edit"]["changes"][&plain].as_array().unwrap(),
    );
    assert_contains(
        &portable,
        "  chain: \"verify\"\n  dependencies: \"tools: get_order\"\n",
    );
    client.shutdown();
}
