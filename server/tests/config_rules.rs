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

/// The nearest config is remembered per directory; a nearer one appearing or going away must
/// still take over or hand back.
#[test]
fn a_nearer_config_takes_over_and_hands_back() {
    let mut index = Index::new();
    index.apply(vec![
        set("/r/ws/workspace.yaml", MANIFEST),
        set("/r/ws/skills/fetch.yaml", SKILL),
        set(
            "/r/skillgraph.toml",
            "[rules]\n\"skill.unknown-mcp-server\" = \"warning\"\n",
        ),
    ]);
    assert_eq!(
        levels(&index),
        [("skill.unknown-mcp-server", Severity::Warning)]
    );
    index.apply(vec![set(
        "/r/ws/skillgraph.toml",
        "[rules]\n\"skill.unknown-mcp-server\" = \"off\"\n",
    )]);
    assert_eq!(levels(&index), []);
    index.apply(vec![Change::Remove {
        path: PathBuf::from("/r/ws/skillgraph.toml"),
    }]);
    assert_eq!(
        levels(&index),
        [("skill.unknown-mcp-server", Severity::Warning)]
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

/// The editor's settings act as the config of files with no skillgraph.toml above them, and
/// changing them re-checks those files.
#[test]
fn editor_settings_apply_where_no_config_file_does() {
    use skillgraph::index::Settings;
    use skillgraph::model::config::Config;

    let skill_md = "---\nname: pdf\ndescription: Reads PDF files and extracts their text.\nargument-hint: a path\n---\n# PDF\n";
    let mut index = Index::new();
    index.apply(vec![set("/r/skills/pdf/SKILL.md", skill_md)]);
    let id = index
        .file_id(&PathBuf::from("/r/skills/pdf/SKILL.md"))
        .unwrap();
    // `argument-hint` is a known Claude Code field: silent by default.
    assert!(
        index.diagnostics(id).is_empty(),
        "{:?}",
        index.diagnostics(id)
    );

    let strict = Config {
        strict: true,
        ..Config::default()
    };
    let affected = index.set_settings(Settings {
        config: Some(strict),
        ..Settings::default()
    });
    assert!(affected.contains(&id));
    let found: Vec<_> = index
        .diagnostics(id)
        .into_iter()
        .map(|d| (d.code, d.severity))
        .collect();
    assert_eq!(found, [("skillmd.unknown-field", Severity::Error)]);

    // A skillgraph.toml above the file wins over the editor.
    index.apply(vec![set(
        "/r/skillgraph.toml",
        "[skill-md]\nstrict = false\n",
    )]);
    assert!(index.diagnostics(id).is_empty());

    // Without a file, back to the editor's settings; clearing them is back to the defaults.
    index.apply(vec![Change::Remove {
        path: PathBuf::from("/r/skillgraph.toml"),
    }]);
    assert_eq!(index.diagnostics(id).len(), 1);
    index.set_settings(Settings::default());
    assert!(index.diagnostics(id).is_empty());
}
