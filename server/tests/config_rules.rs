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
        text: text.into(),
    }
}

fn remove(path: &str) -> Change {
    Change::Remove {
        path: PathBuf::from(path),
    }
}

/// A skillgraph.toml at `path` setting `skill.unknown-mcp-server` to `level`.
fn level_config(path: &str, level: &str) -> Change {
    set(
        path,
        &format!("[rules]\n\"skill.unknown-mcp-server\" = \"{level}\"\n"),
    )
}

/// The levels of the skill's one `skill.unknown-mcp-server` diagnostic, at `severity`.
fn unknown_server(severity: Severity) -> [(&'static str, Severity); 1] {
    [("skill.unknown-mcp-server", severity)]
}

/// An index of the manifest and the skill `fetch` (on a server the manifest does not declare)
/// below `/r/ws`, with `more`.
fn fetch_workspace(more: Vec<Change>) -> Index {
    let mut index = Index::new(&skillgraph::rules::CHECKS);
    let mut all = vec![
        set("/r/ws/workspace.yaml", MANIFEST),
        set("/r/ws/skills/fetch.yaml", SKILL),
    ];
    all.extend(more);
    index.apply(all);
    index
}

fn levels(index: &Index) -> Vec<(&'static str, Severity)> {
    levels_of(index, "/r/ws/skills/fetch.yaml")
}

/// (code, level) of each diagnostic on the file at `path`.
fn levels_of(index: &Index, path: &str) -> Vec<(&'static str, Severity)> {
    let id = index.file_id(&PathBuf::from(path)).unwrap();
    index
        .diagnostics(id)
        .into_iter()
        .map(|d| (d.code.name(), d.severity))
        .collect()
}

#[test]
fn config_levels_apply_below_it_and_follow_edits() {
    let mut index = fetch_workspace(vec![]);
    assert_eq!(levels(&index), unknown_server(Severity::Error));

    let affected = index.apply(vec![level_config("/r/skillgraph.toml", "warning")]);
    let skill = index
        .file_id(&PathBuf::from("/r/ws/skills/fetch.yaml"))
        .unwrap();
    assert!(
        affected.contains(&skill),
        "the skill's diagnostics must be republished"
    );
    assert_eq!(levels(&index), unknown_server(Severity::Warning));

    index.apply(vec![level_config("/r/skillgraph.toml", "off")]);
    assert_eq!(levels(&index), []);

    let affected = index.apply(vec![remove("/r/skillgraph.toml")]);
    assert!(affected.contains(&skill));
    assert_eq!(levels(&index), unknown_server(Severity::Error));
}

/// The nearest config is remembered per directory; a nearer one appearing or going away must
/// still take over or hand back.
#[test]
fn a_nearer_config_takes_over_and_hands_back() {
    let mut index = fetch_workspace(vec![level_config("/r/skillgraph.toml", "warning")]);
    assert_eq!(levels(&index), unknown_server(Severity::Warning));
    index.apply(vec![level_config("/r/ws/skillgraph.toml", "off")]);
    assert_eq!(levels(&index), []);
    index.apply(vec![remove("/r/ws/skillgraph.toml")]);
    assert_eq!(levels(&index), unknown_server(Severity::Warning));
}

/// A copy of the index shares the per-directory answers with its original (copying them would
/// make every edit of the server pay for the number of directories). A config appearing in one
/// must not show in the other, whichever of the two asked first.
#[test]
fn a_copy_keeps_its_configs_when_the_original_gains_one() {
    let mut original = fetch_workspace(vec![]);
    // Both have answered for the skill's directories before the copy is taken.
    assert_eq!(levels(&original), unknown_server(Severity::Error));
    let copy = original.clone();
    original.apply(vec![level_config("/r/ws/skillgraph.toml", "warning")]);
    assert_eq!(
        levels(&copy),
        unknown_server(Severity::Error),
        "the original's new config showed in the copy"
    );
    assert_eq!(levels(&original), unknown_server(Severity::Warning));

    // And the other way round: the copy gains a config the original never had, and answers
    // first.
    let mut copy = original.clone();
    copy.apply(vec![level_config("/r/ws/skills/skillgraph.toml", "off")]);
    assert_eq!(levels(&copy), []);
    assert_eq!(
        levels(&original),
        unknown_server(Severity::Warning),
        "the copy's new config showed in the original"
    );
}

#[test]
fn a_config_elsewhere_changes_nothing() {
    let index = fetch_workspace(vec![level_config("/other/skillgraph.toml", "off")]);
    assert_eq!(levels(&index), unknown_server(Severity::Error));
}

/// The editor's settings act as the config of files with no skillgraph.toml above them, and
/// changing them re-checks those files.
#[test]
fn editor_settings_apply_where_no_config_file_does() {
    use skillgraph::index::Settings;
    use skillgraph::model::config::Config;

    let skill_md = "---\nname: pdf\ndescription: Reads PDF files and extracts their text.\nargument-hint: a path\n---\n# PDF\n";
    let mut index = Index::new(&skillgraph::rules::CHECKS);
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
        .map(|d| (d.code.name(), d.severity))
        .collect();
    assert_eq!(found, [("skillmd.unknown-field", Severity::Error)]);

    // A skillgraph.toml above the file wins over the editor.
    index.apply(vec![set(
        "/r/skillgraph.toml",
        "[skill-md]\nstrict = false\n",
    )]);
    assert!(index.diagnostics(id).is_empty());

    // Without a file, back to the editor's settings; clearing them is back to the defaults.
    index.apply(vec![remove("/r/skillgraph.toml")]);
    assert_eq!(index.diagnostics(id).len(), 1);
    index.set_settings(Settings::default());
    assert!(index.diagnostics(id).is_empty());
}

/// A workspace of two skills, `fetch` and `other`, on a server the manifest does not declare
/// (one `skill.unknown-mcp-server` each), below `/r`.
fn workspace_of_fetch_and_other() -> Index {
    fetch_workspace(vec![set(
        "/r/ws/skills/other.yaml",
        &SKILL.replace("id: fetch", "id: other"),
    )])
}

/// `[[overrides]]` sets levels for the files its globs match, relative to the config's folder;
/// editing it republishes those files.
#[test]
fn overrides_apply_to_matching_paths_only() {
    let mut index = workspace_of_fetch_and_other();
    let affected = index.apply(vec![set(
        "/r/skillgraph.toml",
        "[[overrides]]\npaths = [\"ws/skills/fetch.yaml\"]\nrules = { \"skill.unknown-mcp-server\" = \"off\" }\n",
    )]);
    let fetch = index
        .file_id(&PathBuf::from("/r/ws/skills/fetch.yaml"))
        .unwrap();
    assert!(affected.contains(&fetch));
    assert_eq!(levels(&index), []);
    assert_eq!(
        levels_of(&index, "/r/ws/skills/other.yaml"),
        unknown_server(Severity::Error)
    );
}

#[test]
fn thousands_of_rules_and_overrides_give_each_file_its_levels() {
    let mut index = workspace_of_fetch_and_other();
    let mut config = String::from("[rules]\n");
    for i in 0..5_000 {
        config.push_str(&format!("\"x.rule-{i}\" = \"off\"\n"));
    }
    config.push_str("\"skill.unknown-mcp-server\" = \"info\"\n");
    for i in 0..1_000 {
        config.push_str(&format!(
            "[[overrides]]\npaths = [\"ws/skills/x{i}.yaml\"]\nrules = {{ \"skill.unknown-mcp-server\" = \"off\" }}\n"
        ));
    }
    config.push_str("[[overrides]]\npaths = [\"ws/skills/fetch.yaml\"]\nrules = { \"skill.unknown-mcp-server\" = \"hint\" }\n");
    index.apply(vec![set("/r/skillgraph.toml", &config)]);
    assert_eq!(levels(&index), unknown_server(Severity::Hint));
    assert_eq!(
        levels_of(&index, "/r/ws/skills/other.yaml"),
        unknown_server(Severity::Info)
    );
}

/// A suppression comment silences its code on the next line, in CLI and editor alike (both read
/// `Index::diagnostics`); a code that silences nothing, or that no rule has, is reported.
#[test]
fn suppression_comments_silence_the_next_line_and_report_their_mistakes() {
    let suppressed = SKILL.replace(
        "  server: nowhere\n  tool: fetch\n",
        "  # skillgraph: disable-next-line skill.unknown-mcp-server\n  server: nowhere\n  # skillgraph: disable-next-line agent.bad-role, skill.unknown-mcp-servr\n  tool: fetch\n",
    );
    let mut index = Index::new(&skillgraph::rules::CHECKS);
    index.apply(vec![
        set("/r/ws/workspace.yaml", MANIFEST),
        set("/r/ws/skills/fetch.yaml", &suppressed),
    ]);
    let file = index
        .file_id(&PathBuf::from("/r/ws/skills/fetch.yaml"))
        .unwrap();
    let found: Vec<(&str, String)> = index
        .diagnostics(file)
        .into_iter()
        .map(|d| (d.code.name(), d.message))
        .collect();
    assert_eq!(found.len(), 2, "{found:#?}");
    assert_eq!(found[0].0, "suppression.unused");
    assert!(found[0].1.contains("`agent.bad-role`"));
    assert_eq!(found[1].0, "suppression.unknown-code");
    assert!(found[1]
        .1
        .contains("did you mean `skill.unknown-mcp-server`?"));
    // Valid input: a comment that silences what it names says nothing.
    let used_only = SKILL.replace(
        "  server: nowhere\n",
        "  # skillgraph: disable-next-line skill.unknown-mcp-server\n  server: nowhere\n",
    );
    index.apply(vec![set("/r/ws/skills/fetch.yaml", &used_only)]);
    assert_eq!(index.diagnostics(file), []);
}
