//! A plugin's own subagents and commands (`agents/*.md`, `commands/**/*.md`, or the paths its
//! `plugin.json` gives instead): read as subagents and commands, checked as `.claude/agents/`
//! files are, named in the plugin's namespace (`/<plugin>:<command>`, `<plugin>:<agent>`), and
//! kept up to date incrementally when a component file or the manifest changes.

use std::path::Path;

use skillgraph::diagnostic::codes;
use skillgraph::index::FileRole;
use skillgraph::testing::{fixture, index_of, snapshot, Replay};

/// The plugin `deploy`: the skill `ship`, the subagent `reviewer` preloading it by both names,
/// and the command `tag` in a subfolder of `commands/`.
const PLUGIN: &str = concat!(
    "//- /r/deploy/.claude-plugin/plugin.json\n{\"name\": \"deploy\"}\n",
    "//- /r/deploy/skills/ship/SKILL.md\n---\nname: ship\ndescription: Ships the build.\n---\nShip it.\n",
    "//- /r/deploy/agents/reviewer.md\n---\nname: reviewer\ndescription: Reviews the release.\n",
    "skills: [ship, deploy:ship]\n---\nReview, then /deploy:ship.\n",
    "//- /r/deploy/commands/release/tag.md\nTag the release.\n",
);

/// The paths of what `text`'s cursor goes to.
fn definition_paths(text: &str) -> Vec<String> {
    let f = fixture(text);
    skillgraph::ide::definition(&f.index, f.cursor_file, f.offset)
        .iter()
        .map(|t| f.index.file(t.0).unwrap().path.display().to_string())
        .collect()
}

fn codes_of(fixture: &str) -> Vec<(String, String, String)> {
    snapshot(&index_of(fixture))
        .into_iter()
        .map(|f| (f.0, f.1, f.4))
        .collect()
}

fn role(index: &skillgraph::index::Index, path: &str) -> Option<FileRole> {
    let id = index.file_id(Path::new(path))?;
    Some(index.file(id)?.role.clone())
}

#[test]
fn the_default_folders_are_the_plugins_subagents_and_commands() {
    let index = index_of(PLUGIN);
    let kind = |path: &str| role(&index, path).and_then(|r| r.prose_kind());
    use skillgraph::model::hosts::prose::ProseKind;
    assert_eq!(
        kind("/r/deploy/agents/reviewer.md"),
        Some(ProseKind::Subagent)
    );
    assert_eq!(
        kind("/r/deploy/commands/release/tag.md"),
        Some(ProseKind::Command)
    );
    assert_eq!(
        role(&index, "/r/deploy/agents/reviewer.md")
            .and_then(|r| r.plugin_root().map(Path::to_owned)),
        Some(Path::new("/r/deploy").to_owned())
    );
    // Both preload forms resolve, and the command's mention does: nothing is reported.
    assert_eq!(codes_of(PLUGIN), Vec::new());
}

#[test]
fn a_plugin_subagent_is_checked_as_a_subagent() {
    let text = format!(
        "{PLUGIN}//- /r/deploy/agents/broken.md\n---\ndescription: Broken.\ntool: Read\nskills: [shp]\n---\nBody.\n"
    );
    let found = codes_of(&text);
    let on_broken: Vec<&(String, String, String)> = found
        .iter()
        .filter(|f| f.0 == "/r/deploy/agents/broken.md")
        .collect();
    let codes: Vec<&str> = on_broken.iter().map(|f| f.1.as_str()).collect();
    assert_eq!(
        codes,
        [
            codes::SUBAGENT_MISSING_FIELD.name(),
            codes::SUBAGENT_UNKNOWN_FIELD.name(),
            codes::SUBAGENT_UNKNOWN_SKILL.name()
        ],
        "{found:#?}"
    );
    assert!(
        on_broken[2]
            .2
            .contains("no skill named `shp` in the plugin `deploy` or the workspace")
            && on_broken[2].2.contains("did you mean `ship`?"),
        "{found:#?}"
    );
}

#[test]
fn custom_paths_replace_the_default_folders() {
    let text = PLUGIN.replace(
        r#"{"name": "deploy"}"#,
        r#"{"name": "deploy", "agents": ["./team/lead.md"], "commands": "./cmds"}"#,
    ) + "//- /r/deploy/team/lead.md\n---\nname: lead\ndescription: Leads.\n---\nBody.\n//- /r/deploy/cmds/go.md\nGo.\n//- /r/CLAUDE.md\nRun /deploy:go, /deploy:tag.\n";
    let index = index_of(&text);
    use skillgraph::model::hosts::prose::ProseKind;
    let kind = |path: &str| role(&index, path).and_then(|r| r.prose_kind());
    assert_eq!(kind("/r/deploy/team/lead.md"), Some(ProseKind::Subagent));
    assert_eq!(kind("/r/deploy/cmds/go.md"), Some(ProseKind::Command));
    // The default folders are no longer read as the plugin's.
    assert_eq!(kind("/r/deploy/agents/reviewer.md"), None);
    assert_eq!(kind("/r/deploy/commands/release/tag.md"), None);
    let found = codes_of(&text);
    let unknown: Vec<&str> = found
        .iter()
        .filter(|f| f.1 == codes::PLUGIN_UNKNOWN_SKILL.name())
        .map(|f| f.2.as_str())
        .collect();
    assert_eq!(unknown.len(), 1, "{found:#?}");
    assert!(
        unknown[0].contains("no skill or command `tag`"),
        "{unknown:?}"
    );
}

#[test]
fn a_forked_skill_runs_in_a_plugin_subagent_by_its_namespaced_name() {
    let skill = |agent: &str| {
        format!(
            "{PLUGIN}//- /r/.claude/skills/audit/SKILL.md\n---\nname: audit\ndescription: Audits.\ncontext: fork\nagent: {agent}\n---\nBody.\n"
        )
    };
    let unknown = |text: &str| -> Vec<String> {
        codes_of(text)
            .into_iter()
            .filter(|f| f.1 == codes::SKILLMD_UNKNOWN_AGENT.name())
            .map(|f| f.2)
            .collect()
    };
    assert_eq!(unknown(&skill("deploy:reviewer")), Vec::<String>::new());
    let found = unknown(&skill("deploy:reviewr"));
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].contains("no subagent of the plugin `deploy`")
            && found[0].contains("did you mean `deploy:reviewer`?"),
        "{found:?}"
    );
    // A plugin the workspace does not hold is not judged.
    assert_eq!(unknown(&skill("elsewhere:reviewer")), Vec::<String>::new());
}

#[test]
fn definition_completion_and_symbols_reach_the_plugins_components() {
    // From a `/plugin:command` mention to the command's file.
    assert_eq!(
        definition_paths(&format!("{PLUGIN}//- /r/CLAUDE.md\nThen /deploy:t$0ag.\n")),
        ["/r/deploy/commands/release/tag.md"]
    );
    // From a subagent's namespaced preload to the skill.
    assert_eq!(
        definition_paths(&PLUGIN.replace("deploy:ship]", "deploy:sh$0ip]")),
        ["/r/deploy/skills/ship/SKILL.md"]
    );
    // Completion after `/deploy:` offers the plugin's skills and commands.
    let text = format!("{PLUGIN}//- /r/CLAUDE.md\nThen /deploy:$0\n");
    let f = fixture(&text);
    let items = skillgraph::ide::completion(&f.index, f.cursor_file, f.offset)
        .map(|c| c.items)
        .unwrap_or_default();
    let labels: Vec<&str> = items.iter().map(|i| i.label.as_str()).collect();
    assert_eq!(labels, ["deploy:ship", "deploy:tag"], "{items:?}");
    // The plugin's subagent is a symbol of its file.
    let index = index_of(PLUGIN);
    let id = index
        .file_id(Path::new("/r/deploy/agents/reviewer.md"))
        .unwrap();
    let symbols = skillgraph::ide::document_symbols(&index, id);
    assert!(symbols.iter().any(|s| s.name == "reviewer"), "{symbols:?}");
}

#[test]
fn renaming_a_skill_rewrites_a_plugin_subagents_preloads() {
    let text = PLUGIN.replace("name: ship\n", "name: sh$0ip\n");
    let f = fixture(&text);
    let references = skillgraph::ide::references(&f.index, f.cursor_file, f.offset, false);
    let agent = f
        .index
        .file_id(Path::new("/r/deploy/agents/reviewer.md"))
        .unwrap();
    let in_agent: Vec<String> = references
        .iter()
        .filter(|r| r.0 == agent)
        .map(|r| {
            let text = &f.index.file(agent).unwrap().text;
            text[r.1.start as usize..r.1.end as usize].to_owned()
        })
        .collect();
    // Both preloads and the body's mention, each the name alone.
    assert_eq!(in_agent, ["ship", "ship", "ship"], "{references:?}");
}

#[test]
fn editing_a_plugin_subagent_rechecks_only_what_it_changes() {
    let skill = "---\nname: audit\ndescription: Audits.\ncontext: fork\nagent: deploy:reviewer\n---\nBody.\n";
    let mut replay = Replay::new();
    replay.apply(skillgraph::testing::changes(PLUGIN));
    replay.set("/r/.claude/skills/audit/SKILL.md", skill);
    replay.set(
        "/r/deploy/skills/other/SKILL.md",
        "---\nname: other\ndescription: Other.\n---\nBody.\n",
    );
    replay.assert_consistent("the plugin with a skill forking into its subagent");
    assert_eq!(replay.snapshot(), Vec::new());
    let agent = "/r/deploy/agents/reviewer.md";
    let text = replay.text(agent);
    // A body edit: the file alone.
    let touched = replay.index.apply(skillgraph::testing::set_files(&[(
        agent,
        &text.replace("Review, then", "Review carefully, then"),
    )]));
    let paths = |ids: &std::collections::HashSet<skillgraph::diagnostic::FileId>| {
        let mut out: Vec<String> = ids
            .iter()
            .filter_map(|id| replay_path(&replay, *id))
            .collect();
        out.sort();
        out
    };
    fn replay_path(replay: &Replay, id: skillgraph::diagnostic::FileId) -> Option<String> {
        Some(replay.index.file(id)?.path.display().to_string())
    }
    assert_eq!(paths(&touched), [agent]);
    replay.assert_consistent("a body edit");
    // Renaming it: the skill that forks into it now names nothing.
    replay.set(agent, &text.replace("name: reviewer", "name: checker"));
    replay.assert_consistent("the subagent renamed");
    let found = replay.snapshot();
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].1, codes::SKILLMD_UNKNOWN_AGENT.name());
    // A new agent file appearing in the folder, and the manifest moving the agents elsewhere.
    replay.set(
        "/r/deploy/agents/reviewer2.md",
        "---\nname: reviewer\ndescription: Back.\n---\nBody.\n",
    );
    replay.assert_consistent("another subagent of the name added");
    assert_eq!(replay.snapshot(), Vec::new());
    replay.set(
        "/r/deploy/.claude-plugin/plugin.json",
        "{\"name\": \"deploy\", \"agents\": [\"./elsewhere.md\"]}",
    );
    replay.assert_consistent("the agents moved");
    let codes: Vec<String> = replay.snapshot().into_iter().map(|f| f.1).collect();
    assert!(
        codes.contains(&codes::PLUGIN_MISSING_PATH.name().to_owned())
            && codes.contains(&codes::SKILLMD_UNKNOWN_AGENT.name().to_owned()),
        "{codes:?}"
    );
    replay.remove("/r/deploy/.claude-plugin/plugin.json");
    replay.assert_consistent("the manifest removed");
}

#[test]
fn a_plugin_command_named_like_the_plugins_skill_is_shadowed() {
    // `/deploy:ship` runs the skill: the command `commands/ship.md` of the same plugin is never
    // used. A skill `ship` of another plugin, or of the project, does not shadow it.
    let command = "/r/deploy/commands/ship.md";
    let fixture = format!("{PLUGIN}//- {command}\nShip by hand.\n");
    let found: Vec<(String, String, String)> = snapshot(&index_of(&fixture))
        .into_iter()
        .filter(|f| f.1 == codes::COMMAND_SHADOWED_BY_SKILL.name())
        .map(|f| {
            let related = f.5.first().map(|r| r.0.clone()).unwrap_or_default();
            (f.0, f.4, related)
        })
        .collect();
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, command);
    assert!(
        found[0]
            .1
            .starts_with("`/deploy:ship` runs the skill `ship` of the plugin `deploy`"),
        "{}",
        found[0].1
    );
    assert_eq!(found[0].2, "/r/deploy/skills/ship/SKILL.md");
    let elsewhere = concat!(
        "//- /r/other/.claude-plugin/plugin.json\n{\"name\": \"other\"}\n",
        "//- /r/other/commands/ship.md\nShip by hand.\n",
    );
    let shadowed = |text: &str| {
        codes_of(text)
            .into_iter()
            .filter(|f| f.1 == codes::COMMAND_SHADOWED_BY_SKILL.name())
            .count()
    };
    assert_eq!(shadowed(&format!("{PLUGIN}{elsewhere}")), 0);
    // Incrementally: the skill's removal clears it, and batch agrees at each step.
    let mut replay = Replay::new();
    replay.apply(skillgraph::testing::changes(&fixture));
    replay.assert_consistent("a plugin command named like its skill");
    replay.remove("/r/deploy/skills/ship/SKILL.md");
    replay.assert_consistent("the skill removed");
    assert!(replay
        .snapshot()
        .iter()
        .all(|f| f.1 != codes::COMMAND_SHADOWED_BY_SKILL.name()));
}
