//! Mentions in prose through the real server: a `/name` in `CLAUDE.md` goes to the skill's
//! SKILL.md, hovers with its description, lists every mention and preload as references, renames
//! them all in one edit and completes after `/`; a subagent's preload goes to the skill too; a
//! separator slip is published as a diagnostic on a file the editor never opened; a plugin
//! manifest gets its diagnostics and its paths as document links; a plugin's commands and
//! subagents appearing and going on disk re-judge its manifest and its mentions, as `check`
//! judges the same tree, and a `/plugin:command` goes to the command's file.

use serde_json::{json, Value};
use skillgraph_e2e::{assert_codes, file_uri, fixture_dir, link_targets, Client};

fn capabilities() -> Value {
    json!({
        "general": {"positionEncodings": ["utf-16"]},
        "workspace": {
            "didChangeWatchedFiles": {"dynamicRegistration": true},
            "workspaceEdit": {"documentChanges": true, "resourceOperations": ["rename"]},
        },
    })
}

#[test]
fn a_mention_in_claude_md_goes_to_the_skill_and_a_slip_is_published() {
    let dir = fixture_dir(
        "//- /.claude/skills/release-notes/SKILL.md
---
name: release-notes
description: Writes the release notes from the merged pull requests.
---
Body.
//- /CLAUDE.md
# Project
Before tagging, run `/release-notes`.
Then /release_notes again.
//- /.claude/agents/writer.md
---
name: writer
description: Writes.
skills: [release-notes]
---
Use /release-notes.
",
    );
    let root = dir.path();
    let (mut client, _) = Client::start(root, capabilities());
    let claude_md = file_uri(&root.join("CLAUDE.md"));
    let skill = file_uri(&root.join(".claude/skills/release-notes/SKILL.md"));

    let (diagnostics, _) = client.diagnostics(&claude_md);
    assert_codes(&diagnostics, &["skillmd.mention-near-miss"]);
    assert_eq!(diagnostics[0]["range"]["start"]["line"], 2);

    let definition = client.request(
        "textDocument/definition",
        json!({"textDocument": {"uri": claude_md}, "position": {"line": 1, "character": 25}}),
    );
    assert_eq!(definition["uri"], skill, "{definition:?}");

    let hover = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": claude_md}, "position": {"line": 1, "character": 25}}),
    );
    let text = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(text.contains("merged pull requests"), "{hover:?}");

    let completion = client.request(
        "textDocument/completion",
        json!({"textDocument": {"uri": claude_md}, "position": {"line": 2, "character": 6}}),
    );
    let items = completion
        .get("items")
        .unwrap_or(&completion)
        .as_array()
        .cloned()
        .unwrap_or_default();
    let labels: Vec<&str> = items.iter().filter_map(|i| i["label"].as_str()).collect();
    assert_eq!(labels, ["release-notes"], "{completion:?}");

    // References from the mention: the skill's name, both mentions of CLAUDE.md that name it
    // exactly, the preload and the mention in the subagent.
    let references = client.request(
        "textDocument/references",
        json!({"textDocument": {"uri": claude_md}, "position": {"line": 1, "character": 25},
               "context": {"includeDeclaration": true}}),
    );
    let mut places: Vec<String> = references
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            let uri = l["uri"].as_str().unwrap();
            let file = uri.rsplit('/').next().unwrap().to_owned();
            format!("{file}:{}", l["range"]["start"]["line"])
        })
        .collect();
    places.sort();
    assert_eq!(
        places,
        ["CLAUDE.md:1", "SKILL.md:1", "writer.md:3", "writer.md:5"],
        "{references:?}"
    );

    // Rename from the mention: one edit for every place, and the folder moves.
    let edit = client.request(
        "textDocument/rename",
        json!({"textDocument": {"uri": claude_md}, "position": {"line": 1, "character": 25},
               "newName": "changelog"}),
    );
    let changes = edit["documentChanges"].as_array().unwrap();
    let text_edits: usize = changes
        .iter()
        .filter_map(|c| c["edits"].as_array())
        .map(|e| e.len())
        .sum();
    assert_eq!(text_edits, 4, "{edit:?}");
    assert!(changes.iter().any(|c| c["kind"] == "rename"), "{edit:?}");

    // From a subagent's preload too.
    let writer = file_uri(&root.join(".claude/agents/writer.md"));
    let definition = client.request(
        "textDocument/definition",
        json!({"textDocument": {"uri": writer}, "position": {"line": 3, "character": 12}}),
    );
    assert_eq!(definition["uri"], skill, "{definition:?}");
    client.shutdown();
}

#[test]
fn a_plugin_manifest_is_checked_and_its_paths_are_links() {
    let dir = fixture_dir(
        "//- /p/.claude-plugin/plugin.json
{\"name\": \"p\", \"skills\": [\"./more\", \"./empty\"]}
//- /p/more/a/SKILL.md
---
name: a
description: A.
---
Body.
//- /q/.claude-plugin/plugin.json
{\"name\": \"q\",}
",
    );
    let root = dir.path();
    let (mut client, _) = Client::start(root, capabilities());
    let manifest_path = root.join("p/.claude-plugin/plugin.json");
    let manifest = file_uri(&manifest_path);
    let (diagnostics, _) = client.diagnostics(&manifest);
    assert_codes(&diagnostics, &["plugin.missing-path"]);
    assert_eq!(diagnostics[0]["range"]["start"]["character"], 35);
    let broken = file_uri(&root.join("q/.claude-plugin/plugin.json"));
    let (diagnostics, _) = client.diagnostics(&broken);
    assert_codes(&diagnostics, &["plugin.json-parse"]);

    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {
            "uri": manifest,
            "languageId": "json",
            "version": 1,
            "text": std::fs::read_to_string(&manifest_path).unwrap(),
        }}),
    );
    let (targets, links) = link_targets(&mut client, &manifest);
    assert_eq!(
        targets,
        [
            file_uri(&root.join("p/more")),
            file_uri(&root.join("p/empty"))
        ],
        "{links:#}"
    );
}

/// `(code, range, message)` of each diagnostic, sorted: a publication's or `check`'s.
fn summary<'a>(
    diagnostics: impl IntoIterator<Item = &'a Value>,
) -> Vec<(String, [u64; 4], String)> {
    let mut out: Vec<(String, [u64; 4], String)> = diagnostics
        .into_iter()
        .map(|d| {
            let (code, range) = skillgraph_e2e::code_and_range(d);
            (
                code,
                range,
                d["message"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect();
    out.sort();
    out
}

/// `skillgraph check --format json` of `root`: the summary of the diagnostics of `file`.
fn check_of(root: &std::path::Path, file: &str) -> Vec<(String, [u64; 4], String)> {
    let output = std::process::Command::new(skillgraph_e2e::binary())
        .args(["check", "--format", "json"])
        .arg(root)
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    let path = root.join(file).display().to_string();
    summary(
        report["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["path"] == path.as_str()),
    )
}

#[test]
fn a_plugins_commands_and_agents_appearing_on_disk_are_judged_as_check_judges_them() {
    let dir = fixture_dir(
        "//- /p/.claude-plugin/plugin.json
{\"name\": \"p\", \"commands\": \"./cmds\", \"agents\": [\"./team/lead.md\"]}
//- /p/skills/ship/SKILL.md
---
name: ship
description: Ships the build.
---
Ship it.
//- /CLAUDE.md
Run /p:ship, then /p:go.
",
    );
    let root = dir.path();
    let (mut client, _) = Client::start(root, capabilities());
    let manifest = file_uri(&root.join("p/.claude-plugin/plugin.json"));
    let claude_md = file_uri(&root.join("CLAUDE.md"));
    let (on_manifest, _) = client.diagnostics(&manifest);
    let found = summary(&on_manifest);
    assert!(
        found.len() == 2 && found.iter().all(|f| f.0 == "plugin.missing-path"),
        "{found:?}"
    );
    let (on_claude, _) = client.diagnostics(&claude_md);
    assert_eq!(summary(&on_claude)[0].0, "plugin.unknown-skill");
    // The editor says what `check` says of the same tree.
    assert_eq!(
        summary(&on_manifest),
        check_of(root, "p/.claude-plugin/plugin.json")
    );
    assert_eq!(summary(&on_claude), check_of(root, "CLAUDE.md"));

    // The command and the agent appear: the watcher's creation events bring them in.
    let go = root.join("p/cmds/go.md");
    let lead = root.join("p/team/lead.md");
    std::fs::create_dir_all(go.parent().unwrap()).unwrap();
    std::fs::create_dir_all(lead.parent().unwrap()).unwrap();
    std::fs::write(&go, "Go.\n").unwrap();
    std::fs::write(
        &lead,
        "---\nname: lead\ndescription: Leads.\nskills: [ship]\n---\nBody.\n",
    )
    .unwrap();
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [
            {"uri": file_uri(&go), "type": 1},
            {"uri": file_uri(&lead), "type": 1},
        ]}),
    );
    let mut manifest_clean = false;
    let mut claude_clean = false;
    while !(manifest_clean && claude_clean) {
        let message = client.wait_for("the manifest and CLAUDE.md re-judged", |m| {
            m["method"] == "textDocument/publishDiagnostics"
                && (m["params"]["uri"] == manifest || m["params"]["uri"] == claude_md)
        });
        let empty = message["params"]["diagnostics"]
            .as_array()
            .is_some_and(|d| d.is_empty());
        if message["params"]["uri"] == manifest {
            manifest_clean = empty;
        } else {
            claude_clean = empty;
        }
    }
    assert!(check_of(root, "p/.claude-plugin/plugin.json").is_empty());
    assert!(check_of(root, "CLAUDE.md").is_empty());

    // `/p:go` goes to the command's file.
    let definition = client.request(
        "textDocument/definition",
        json!({"textDocument": {"uri": claude_md}, "position": {"line": 0, "character": 21}}),
    );
    assert_eq!(definition["uri"], file_uri(&go), "{definition:?}");

    // The command goes: the manifest and the mention are reported again.
    std::fs::remove_file(&go).unwrap();
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": file_uri(&go), "type": 3}]}),
    );
    let (on_manifest, _) = client.diagnostics(&manifest);
    assert_eq!(
        summary(&on_manifest),
        check_of(root, "p/.claude-plugin/plugin.json")
    );
    assert_eq!(on_manifest.len(), 1, "{on_manifest:?}");
    client.shutdown();
}
