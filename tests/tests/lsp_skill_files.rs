//! A skill's bundled files through the real server: links resolve against the folder as it is on
//! disk, the watcher keeps that listing current, and links answer document links and go to
//! definition.

use serde_json::{json, Value};
use skillgraph_e2e::{
    assert_codes, assert_contains, completion, file_uri, link_targets, write_fixture, Client,
};

fn capabilities() -> Value {
    json!({
        "general": {"positionEncodings": ["utf-16"]},
        "workspace": {"didChangeWatchedFiles": {"dynamicRegistration": true}},
    })
}

#[test]
fn bundled_files_appearing_and_going_are_followed() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let skill_dir = root.join(".claude/skills/pdf");
    write_fixture(
        root,
        "//- /.claude/skills/pdf/SKILL.md
---
name: pdf
description: Reads PDFs.
---
See [api](references/api.md) and [forms](references/forms.md).
//- /.claude/skills/pdf/references/forms.md
# Forms
",
    );
    let (mut client, init) = Client::start(root, capabilities());
    assert_eq!(
        init["capabilities"]["documentLinkProvider"]["resolveProvider"],
        false
    );
    let skill = file_uri(&skill_dir.join("SKILL.md"));
    let (diagnostics, _) = client.diagnostics(&skill);
    assert_codes(&diagnostics, &["skillmd.broken-link"]);

    // The file appears: the watcher's creation event lists the folder again.
    let api = skill_dir.join("references/api.md");
    std::fs::write(&api, "# API\n").unwrap();
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": file_uri(&api), "type": 1}]}),
    );
    let (diagnostics, _) = client.diagnostics(&skill);
    assert!(diagnostics.is_empty(), "{diagnostics:?}");

    // Both links lead somewhere now.
    let (targets, links) = link_targets(&mut client, &skill);
    assert_eq!(
        targets,
        [
            file_uri(&api),
            file_uri(&skill_dir.join("references/forms.md"))
        ],
        "{links:#}"
    );
    let definition = client.request(
        "textDocument/definition",
        json!({"textDocument": {"uri": skill}, "position": {"line": 4, "character": 14}}),
    );
    assert_eq!(definition["uri"], file_uri(&api));

    // And it goes again.
    std::fs::remove_file(&api).unwrap();
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": file_uri(&api), "type": 3}]}),
    );
    let (diagnostics, _) = client.diagnostics(&skill);
    assert_codes(&diagnostics, &["skillmd.broken-link"]);
    client.shutdown();
}

#[test]
fn skill_md_precondition_tools_complete_after_multi_byte_text() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let skill_dir = root.join(".claude/skills/refund");
    // CJK and an emoji (two UTF-16 units) before the cursor on its line.
    let tool_line = "  precondition: [\"日本語🚀\", {tool: get_o}]";
    write_fixture(
        root,
        &format!(
            "//- /skillgraph.toml
[tools]
available = [\"get_order\", \"get_status\"]
//- /.claude/skills/refund/SKILL.md
---
name: refund
description: Refunds — für Kunden.
metadata:
{tool_line}
  action_tool: get_status
---
"
        ),
    );
    let (mut client, _) = Client::start(root, capabilities());
    let skill = file_uri(&skill_dir.join("SKILL.md"));
    client.diagnostics(&skill);
    let utf16 = |s: &str| s.encode_utf16().count() as u64;
    let word_start = utf16(&tool_line[..tool_line.find("get_o").unwrap()]);
    let cursor = word_start + utf16("get_o");
    let (items, labels) = completion(&mut client, &skill, 4, cursor);
    assert_eq!(labels, ["get_order", "get_status"], "{items:#?}");
    let order = &items[0];
    assert_eq!(
        order["textEdit"]["range"],
        json!({"start": {"line": 4, "character": word_start}, "end": {"line": 4, "character": cursor}})
    );
    let documentation = order["documentation"].to_string();
    assert_contains(&documentation, "skillgraph.toml");
    client.shutdown();
}
