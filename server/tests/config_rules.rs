//! `[rules]` in skillgraph.toml changes levels and turns codes off for every file below it,
//! SwarmKit codes included, and editing the config republishes those files.

use std::path::PathBuf;

use skillgraph::diagnostic::Severity;
use skillgraph::index::{Change, Index};

const SKILL: &str = "apiVersion: swarmkit/v1\nkind: Skill\nmetadata:\n  id: fetch\n  name: Fetch\n  description: Fetches a thing for the test.\ncategory: capability\nimplementation:\n  type: mcp_tool\n  server: nowhere\n  tool: fetch\nprovenance:\n  authored_by: human\n  version: 1.0.0\n";
const MANIFEST: &str =
    "apiVersion: swarmkit/v1\nkind: Workspace\nmetadata:\n  id: ws\n  name: Ws\n";

fn set(path: &str, text: &str) -> Change {
    Change::Set {
        path: PathBuf::from(path),
        text: text.to_owned(),
    }
}

fn levels(index: &Index) -> Vec<(&'static str, Severity)> {
    let id = index
        .file_id(&PathBuf::from("/r/ws/skills/fetch.yaml"))
        .unwrap();
    index
        .diagnostics(id)
        .into_iter()
        .map(|d| (d.code, d.severity))
        .collect()
}

#[test]
fn config_levels_apply_below_it_and_follow_edits() {
    let mut index = Index::new();
    index.apply(vec![
        set("/r/ws/workspace.yaml", MANIFEST),
        set("/r/ws/skills/fetch.yaml", SKILL),
    ]);
    assert_eq!(
        levels(&index),
        [("skill.unknown-mcp-server", Severity::Error)]
    );

    let affected = index.apply(vec![set(
        "/r/skillgraph.toml",
        "[rules]\n\"skill.unknown-mcp-server\" = \"warning\"\n",
    )]);
    let skill = index
        .file_id(&PathBuf::from("/r/ws/skills/fetch.yaml"))
        .unwrap();
    assert!(
        affected.contains(&skill),
        "the skill's diagnostics must be republished"
    );
    assert_eq!(
        levels(&index),
        [("skill.unknown-mcp-server", Severity::Warning)]
    );

    index.apply(vec![set(
        "/r/skillgraph.toml",
        "[rules]\n\"skill.unknown-mcp-server\" = \"off\"\n",
    )]);
    assert_eq!(levels(&index), []);

    let affected = index.apply(vec![Change::Remove {
        path: PathBuf::from("/r/skillgraph.toml"),
    }]);
    assert!(affected.contains(&skill));
    assert_eq!(
        levels(&index),
        [("skill.unknown-mcp-server", Severity::Error)]
    );
}

#[test]
fn a_config_elsewhere_changes_nothing() {
    let mut index = Index::new();
    index.apply(vec![
        set("/r/ws/workspace.yaml", MANIFEST),
        set("/r/ws/skills/fetch.yaml", SKILL),
        set(
            "/other/skillgraph.toml",
            "[rules]\n\"skill.unknown-mcp-server\" = \"off\"\n",
        ),
    ]);
    assert_eq!(
        levels(&index),
        [("skill.unknown-mcp-server", Severity::Error)]
    );
}
