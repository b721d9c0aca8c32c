//! The host graph's rules, firing and silent: mentions in prose (`skillmd.mention-near-miss`),
//! subagents (`subagent.*`), a forked skill's `agent:` (`skillmd.unknown-agent`) and legacy
//! commands named like skills (`command.shadowed-by-skill`), each in the one fixture format,
//! with batch and incremental checking held to the same answer.

use skillgraph::diagnostic::codes;
use skillgraph::testing::{index_of, snapshot, Replay};

mod mentions {
    use super::*;

    fn found(fixture: &str) -> Vec<(String, String, String)> {
        snapshot(&index_of(fixture))
            .into_iter()
            .filter(|f| f.1 == codes::SKILLMD_MENTION_NEAR_MISS.name())
            .map(|f| {
                (
                    f.0,
                    f.4,
                    f.5.first().map(|r| r.0.clone()).unwrap_or_default(),
                )
            })
            .collect()
    }

    const SKILLS: &str = "//- /c/skills/conductor-setup/SKILL.md
---
name: conductor-setup
description: Sets the project up.
---
Body.
//- /c/skills/pdf-tools/SKILL.md
---
name: pdf-tools
description: Works with PDF files.
---
Body.
";

    #[test]
    fn a_separator_slip_is_reported_with_the_skill_and_a_guessed_fix() {
        let fixture = format!(
            "{SKILLS}\n//- /c/skills/flow/SKILL.md\n---\nname: flow\ndescription: Runs the flow.\n---\nFirst run `/conductor:setup`, then /pdf_tools.\n"
        );
        let found = found(&fixture);
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(
            found[0].1.contains("did you mean `/conductor-setup`?"),
            "{found:?}"
        );
        assert_eq!(found[0].2, "/c/skills/conductor-setup/SKILL.md");
        assert!(
            found[1].1.contains("did you mean `/pdf-tools`?"),
            "{found:?}"
        );
        let index = index_of(&fixture);
        let file = index
            .file_id(std::path::Path::new("/c/skills/flow/SKILL.md"))
            .unwrap();
        let diagnostics = index.diagnostics(file);
        let fix = &diagnostics[0].fixes[0];
        assert!(!fix.safe, "a guess is never applied by plain --fix");
        assert_eq!(fix.edits[0].text, "/conductor-setup");
    }

    #[test]
    fn silent_on_ordinary_words_code_own_plugins_and_resolved_names() {
        let fixture = format!(
            r#"{SKILLS}
//- /c/skills/docx/SKILL.md
---
name: docx
description: Word files.
---
See /docs and /model, /rebase, $ref, `/pdf-tools`, /help and /usr/bin.

```
/conductor:setup inside a fence
```
//- /conductor/.claude-plugin/plugin.json
{{"name": "conductor"}}
//- /conductor/skills/conductor-setup/SKILL.md
---
name: conductor-setup
description: The plugin's own.
---
Run /conductor:setup again.
"#
        );
        assert_eq!(found(&fixture), Vec::new());
    }

    #[test]
    fn host_folders_scope_to_their_project() {
        let fixture = r#"
            //- /one/.claude/skills/conductor-setup/SKILL.md
            ---
            name: conductor-setup
            description: Sets up.
            ---
            Body.
            //- /two/.claude/skills/flow/SKILL.md
            ---
            name: flow
            description: Flows.
            ---
            Run /conductor:setup.
        "#;
        assert_eq!(found(fixture), Vec::new());
    }

    #[test]
    fn adding_or_removing_the_skill_is_incremental_and_matches_a_batch() {
        let mut replay = Replay::new();
        replay.set(
            "/c/skills/flow/SKILL.md",
            "---\nname: flow\ndescription: Runs.\n---\nRun /conductor:setup.\n",
        );
        replay.assert_consistent("no skill yet");
        replay.set(
            "/c/skills/conductor-setup/SKILL.md",
            "---\nname: conductor-setup\ndescription: Sets up.\n---\nBody.\n",
        );
        replay.assert_consistent("skill added");
        assert!(replay
            .snapshot()
            .iter()
            .any(|f| f.1 == codes::SKILLMD_MENTION_NEAR_MISS.name()));
        replay.remove("/c/skills/conductor-setup/SKILL.md");
        replay.assert_consistent("skill removed");
        assert!(!replay
            .snapshot()
            .iter()
            .any(|f| f.1 == codes::SKILLMD_MENTION_NEAR_MISS.name()));
    }

    #[test]
    fn a_mention_of_100_000_characters_has_a_bounded_message() {
        let long = "a".repeat(100_000);
        let fixture = format!(
            "//- /c/skills/{long}-b/SKILL.md\n---\nname: {long}-b\ndescription: Long.\n---\nBody.\n//- /c/skills/flow/SKILL.md\n---\nname: flow\ndescription: Runs.\n---\nRun /{long}_b now.\n"
        );
        let found = found(&fixture);
        assert_eq!(found.len(), 1, "one report for the one slip");
        // The message quotes the mention and the skill clipped, whatever their length.
        assert!(found[0].1.len() < 1_500, "{} bytes", found[0].1.len());
    }
}

mod subagents {
    use super::*;

    fn found(fixture: &str, code: codes::Code) -> Vec<(String, String)> {
        snapshot(&index_of(fixture))
            .into_iter()
            .filter(|f| f.1 == code.name())
            .map(|f| (f.0, f.4))
            .collect()
    }

    const PROJECT: &str = r#"
        //- /p/.claude/skills/lint-rust/SKILL.md
        ---
        name: lint-rust
        description: Lints Rust.
        ---
        Body.
        //- /p/.claude/agents/reviewer.md
        ---
        name: reviewer
        description: Reviews code.
        skills: lint-rust, lint-rsut
        tool: Read
        ---
        You review.
        //- /p/.claude/agents/helper.md
        ---
        description: Helps.
        ---
        Help.
        //- /p/.claude/skills/fork-me/SKILL.md
        ---
        name: fork-me
        description: Forks.
        context: fork
        agent: reviewr
        ---
        Body.
        //- /p/.claude/skills/fork-builtin/SKILL.md
        ---
        name: fork-builtin
        description: Forks.
        context: fork
        agent: Explore
        ---
        Body.
        //- /p/.claude/skills/fork-known/SKILL.md
        ---
        name: fork-known
        description: Forks.
        context: fork
        agent: reviewer
        ---
        Body.
    "#;

    #[test]
    fn unknown_preloads_fields_and_agents_fire_with_suggestions() {
        let skills = found(PROJECT, codes::SUBAGENT_UNKNOWN_SKILL);
        assert_eq!(skills.len(), 1, "{skills:?}");
        assert!(
            skills[0].1.contains("did you mean `lint-rust`?"),
            "{skills:?}"
        );
        let fields = found(PROJECT, codes::SUBAGENT_UNKNOWN_FIELD);
        assert_eq!(fields.len(), 1, "{fields:?}");
        assert!(fields[0].1.contains("did you mean `tools`?"), "{fields:?}");
        let missing = found(PROJECT, codes::SUBAGENT_MISSING_FIELD);
        assert_eq!(missing.len(), 1, "{missing:?}");
        assert_eq!(missing[0].0, "/p/.claude/agents/helper.md");
        let agents = found(PROJECT, codes::SKILLMD_UNKNOWN_AGENT);
        assert_eq!(agents.len(), 1, "{agents:?}");
        assert_eq!(agents[0].0, "/p/.claude/skills/fork-me/SKILL.md");
        assert!(
            agents[0].1.contains("did you mean `reviewer`?"),
            "{agents:?}"
        );
    }

    #[test]
    fn the_fixes_are_guesses_and_valid() {
        let index = index_of(PROJECT);
        for path in [
            "/p/.claude/agents/reviewer.md",
            "/p/.claude/skills/fork-me/SKILL.md",
        ] {
            let file = index.file_id(std::path::Path::new(path)).unwrap();
            let with_fix: Vec<_> = index
                .diagnostics(file)
                .into_iter()
                .filter(|d| !d.fixes.is_empty())
                .collect();
            assert_eq!(with_fix.len(), 1, "{path}");
            assert!(!with_fix[0].fixes[0].safe);
        }
    }

    #[test]
    fn silent_outside_a_project_and_without_fork() {
        let fixture = r#"
            //- /c/skills/a/SKILL.md
            ---
            name: a
            description: A.
            context: fork
            agent: nobody
            ---
            Body.
            //- /p/.claude/skills/b/SKILL.md
            ---
            name: b
            description: B.
            agent: nobody
            ---
            Body.
        "#;
        assert_eq!(found(fixture, codes::SKILLMD_UNKNOWN_AGENT), Vec::new());
    }

    #[test]
    fn adding_the_subagent_or_the_skill_clears_the_reports_incrementally() {
        let mut replay = Replay::new();
        replay.set(
            "/p/.claude/skills/fork-me/SKILL.md",
            "---\nname: fork-me\ndescription: F.\ncontext: fork\nagent: auditor\n---\nB.\n",
        );
        replay.set(
            "/p/.claude/agents/reviewer.md",
            "---\nname: reviewer\ndescription: R.\nskills: [audit]\n---\nR.\n",
        );
        replay.assert_consistent("before");
        let count = |replay: &Replay| {
            replay
                .snapshot()
                .iter()
                .filter(|f| {
                    f.1 == codes::SKILLMD_UNKNOWN_AGENT.name()
                        || f.1 == codes::SUBAGENT_UNKNOWN_SKILL.name()
                })
                .count()
        };
        assert_eq!(count(&replay), 2);
        replay.set(
            "/p/.claude/agents/auditor.md",
            "---\nname: auditor\ndescription: A.\n---\nA.\n",
        );
        replay.set(
            "/p/.claude/skills/audit/SKILL.md",
            "---\nname: audit\ndescription: A.\n---\nA.\n",
        );
        replay.assert_consistent("after");
        assert_eq!(count(&replay), 0);
    }
}

mod commands {
    use super::*;

    #[test]
    fn a_command_named_like_a_skill_of_its_project_is_reported_once() {
        let fixture = r#"
            //- /p/.claude/skills/deploy/SKILL.md
            ---
            name: deploy
            description: Deploys.
            ---
            Body.
            //- /p/.claude/commands/ops/deploy.md
            Deploy it.
            //- /p/.claude/commands/release.md
            Release it.
            //- /q/.claude/commands/deploy.md
            Another project.
        "#;
        let found: Vec<_> = snapshot(&index_of(fixture))
            .into_iter()
            .filter(|f| f.1 == codes::COMMAND_SHADOWED_BY_SKILL.name())
            .collect();
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].0, "/p/.claude/commands/ops/deploy.md");
        assert_eq!(found[0].5.len(), 1);
    }
}

/// References and rename reach a skill's mentions and subagent preloads from either end.
mod mentions_across_files {
    /// A skill `lint`, a subagent preloading it and mentioning it twice (and `/linter`, which is
    /// not it), and a CLAUDE.md mentioning it once.
    const LINT: &str = "//- /p/.claude/skills/lint/SKILL.md
---
name: lint
description: Lints.
---
Body.
//- /p/.claude/agents/r.md
---
name: r
description: R.
skills: [lint]
---
Use /lint and $lint, not /linter.
//- /p/CLAUDE.md
Run /lint.
";

    #[test]
    fn references_gather_mentions_and_preloads_from_either_end() {
        let text = LINT.replace("name: lint", "name: li$0nt");
        let f = skillgraph::testing::fixture(&text);
        let refs = skillgraph::ide::references(&f.index, f.cursor_file, f.offset, true);
        let shown: Vec<String> = refs
            .iter()
            .map(|(file, range)| {
                let e = f.index.file(*file).unwrap();
                format!(
                    "{}:{}",
                    e.path.display(),
                    &e.text[range.start as usize..range.end as usize]
                )
            })
            .collect();
        assert_eq!(shown.len(), 5, "{shown:?}");
        // From a mention, the same list.
        let g = skillgraph::testing::fixture(&LINT.replace("Run /lint.", "Run /li$0nt."));
        let again = skillgraph::ide::references(&g.index, g.cursor_file, g.offset, true);
        assert_eq!(again.len(), 5);
    }

    #[test]
    fn renaming_from_a_mention_rewrites_the_name_the_folder_mentions_and_preloads() {
        let f = skillgraph::testing::fixture(&LINT.replace("Run /lint.", "Run /li$0nt."));
        let prepared = skillgraph::ide::prepare_rename(&f.index, f.cursor_file, f.offset)
            .unwrap()
            .unwrap();
        assert_eq!(prepared.name, "lint");
        let done =
            skillgraph::ide::rename(&f.index, f.cursor_file, f.offset, "lint-all", true).unwrap();
        // The name, the preload, two mentions in the subagent and one in CLAUDE.md.
        assert_eq!(done.edits.len(), 5, "{:?}", done.edits);
        assert!(done.edits.iter().all(|e| e.new_text == "lint-all"));
        assert_eq!(done.moves.len(), 1);
    }
}

/// Plugin and marketplace manifests: `plugin.json-parse`, `plugin.missing-path`,
/// `plugin.missing-source` and `plugin.unknown-skill`, firing and silent, judged from the files
/// read alone (as the editor and `check` both judge them).
mod plugins {
    use super::*;

    fn of(found: &[skillgraph::testing::Found], prefix: &str) -> Vec<(String, String)> {
        found
            .iter()
            .filter(|f| f.1.starts_with(prefix))
            .map(|f| (f.1.clone(), f.4.clone()))
            .collect()
    }

    /// A plugin `deploy` whose manifest names paths of every kind, some leading to nothing.
    const PLUGIN: &str = include_str!("fixtures/host_graph/plugin.txt");

    #[test]
    fn malformed_json_is_one_diagnostic_at_the_error() {
        let fixture =
            "//- /r/p/.claude-plugin/plugin.json\n{\"name\": \"p\", \"skills\": \"./nowhere\",}\n";
        let found = snapshot(&index_of(fixture));
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].1, codes::PLUGIN_JSON_PARSE.name());
        assert_eq!(found[0].2, 36);
        assert!(found[0].4.contains("not valid JSON"), "{found:?}");
        let fine = "//- /r/p/.claude-plugin/plugin.json\n{\"name\": \"p\"}\n";
        assert_eq!(snapshot(&index_of(fine)), Vec::new());
    }

    #[test]
    fn paths_that_lead_to_nothing_of_their_kind() {
        // Judged from the files read alone: a skills folder with no skill, a hooks file that
        // no JSON is, an agent file that is not there, a folder given as an agent, and a
        // commands folder with no `.md` file.
        let found = of(&snapshot(&index_of(PLUGIN)), "plugin.");
        let messages: Vec<&str> = found.iter().map(|f| f.1.as_str()).collect();
        assert_eq!(found.len(), 5, "{messages:#?}");
        for expected in [
            "no skill is at `./empty`",
            "`./hooks/missing.json` does not exist",
            "`./agents/reviewer.md` does not exist",
            "`./agents` is no `.md` file, and `agents` lists `.md` files",
            "no command is at `./cmds`",
        ] {
            assert!(
                messages.iter().any(|m| m.contains(expected)),
                "{expected}: {messages:#?}"
            );
        }
        assert!(found
            .iter()
            .all(|f| f.0 == codes::PLUGIN_MISSING_PATH.name()));
        // The agent file and a command below the commands folder answer theirs.
        let there = format!(
            "{PLUGIN}//- /r/deploy/agents/reviewer.md\n---\nname: reviewer\ndescription: Reviews.\n---\nBody.\n//- /r/deploy/cmds/ops/go.md\nGo.\n"
        );
        let found = of(&snapshot(&index_of(&there)), "plugin.");
        let messages: Vec<&str> = found.iter().map(|f| f.1.as_str()).collect();
        assert_eq!(found.len(), 3, "{messages:#?}");
        assert!(!messages
            .iter()
            .any(|m| m.contains("reviewer.md") || m.contains("./cmds")));
    }

    #[test]
    fn paths_outside_the_plugin_and_silent_on_what_is_there() {
        let fixture = r#"//- /r/p/.claude-plugin/plugin.json
{"name": "p", "skills": "./", "commands": ["../elsewhere"], "hooks": "./hooks/hooks.json"}
//- /r/p/SKILL.md
---
name: p
description: The plugin is one skill.
---
Body.
//- /r/p/hooks/hooks.json
{"hooks": {}}
"#;
        let found = of(&snapshot(&index_of(fixture)), "plugin.");
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0]
                .1
                .contains("`../elsewhere` leads outside the plugin"),
            "{found:?}"
        );
    }

    #[test]
    fn the_range_is_the_json_string() {
        let index = index_of(PLUGIN);
        let found = snapshot(&index);
        let file = index
            .file(
                index
                    .file_id(std::path::Path::new("/r/deploy/.claude-plugin/plugin.json"))
                    .unwrap(),
            )
            .unwrap();
        let empty = found.iter().find(|f| f.4.contains("./empty")).unwrap();
        assert_eq!(
            &file.text[empty.2 as usize..empty.3 as usize],
            "\"./empty\""
        );
    }

    const MARKETPLACE: &str = r#"//- /m/.claude-plugin/marketplace.json
{
  "name": "market",
  "metadata": {"pluginRoot": "./plugins"},
  "plugins": [
    {"name": "a", "source": "a"},
    {"name": "b", "source": "./plugins/b"},
    {"name": "c", "source": "c"},
    {"name": "d", "source": {"source": "github", "repo": "o/d"}}
  ]
}
//- /m/plugins/a/.claude-plugin/plugin.json
{"name": "a"}
"#;

    #[test]
    fn marketplace_sources_resolve_from_the_plugin_root() {
        // `a` holds a manifest and `b` a skill: plugins. `c` holds nothing that is read.
        let fixture = format!(
            "{MARKETPLACE}//- /m/plugins/b/skills/x/SKILL.md\n---\nname: x\ndescription: X.\n---\nBody.\n"
        );
        let found = of(&snapshot(&index_of(&fixture)), "plugin.");
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].0, codes::PLUGIN_MISSING_SOURCE.name());
        assert!(
            found[0].1.contains("`c` leads to no plugin: no `.claude-plugin/plugin.json` and no skill in `skills/` there (a plugin's source is resolved below `metadata.pluginRoot` (`./plugins`))"),
            "{found:?}"
        );
        // Without `b`'s skill, `b` is reported too.
        assert_eq!(
            of(&snapshot(&index_of(MARKETPLACE)), "plugin.missing-source").len(),
            2
        );
        // Copilot's marketplace file is read the same way.
        let copilot = fixture.replace(
            "/m/.claude-plugin/marketplace.json",
            "/m/.github/plugin/marketplace.json",
        );
        assert_eq!(
            of(&snapshot(&index_of(&copilot)), "plugin.missing-source").len(),
            1
        );
    }

    fn mentioning(body: &str) -> String {
        format!("{PLUGIN}//- /r/CLAUDE.md\n{body}\n")
    }

    #[test]
    fn a_plugin_form_mention_resolves_among_the_plugins_skills() {
        let fixture = mentioning("Run /deploy:ship, then /deploy:rollback, or /deploy:shp.");
        let found = snapshot(&index_of(&fixture));
        let unknown: Vec<_> = found
            .iter()
            .filter(|f| f.1 == codes::PLUGIN_UNKNOWN_SKILL.name())
            .collect();
        assert_eq!(unknown.len(), 1, "{found:?}");
        assert!(
            unknown[0]
                .4
                .contains("the plugin `deploy` has no skill or command `shp`")
                && unknown[0].4.contains("did you mean `/deploy:ship`?"),
            "{unknown:?}"
        );
        assert_eq!(unknown[0].5[0].0, "/r/deploy/.claude-plugin/plugin.json");
        // A command of that name in the plugin's commands folder silences it.
        let with_command = format!("{fixture}//- /r/deploy/cmds/shp.md\nShip it.\n");
        assert_eq!(
            of(&snapshot(&index_of(&with_command)), "plugin.unknown-skill"),
            Vec::new()
        );
    }

    #[test]
    fn definition_of_a_plugin_form_mention_is_the_plugins_skill() {
        let text = format!(
            "{PLUGIN}//- /r/other/skills/rollback/SKILL.md\n---\nname: rollback\ndescription: Another.\n---\nBody.\n//- /r/CLAUDE.md\nRun /deploy:roll$0back.\n"
        );
        let f = skillgraph::testing::fixture(&text);
        let targets = skillgraph::ide::definition(&f.index, f.cursor_file, f.offset);
        let paths: Vec<String> = targets
            .iter()
            .map(|t| f.index.file(t.0).unwrap().path.display().to_string())
            .collect();
        assert_eq!(paths, ["/r/deploy/extra/rollback/SKILL.md"]);
    }

    #[test]
    fn manifest_paths_are_document_links() {
        let index = index_of(PLUGIN);
        let file = index
            .file_id(std::path::Path::new("/r/deploy/.claude-plugin/plugin.json"))
            .unwrap();
        let links = skillgraph::ide::path_links(&index, file);
        let targets: Vec<String> = links
            .iter()
            .map(|l| l.target.display().to_string())
            .collect();
        assert_eq!(
            targets,
            [
                "/r/deploy/extra",
                "/r/deploy/empty",
                "/r/deploy/agents/reviewer.md",
                "/r/deploy/agents",
                "/r/deploy/cmds",
                "/r/deploy/hooks/missing.json"
            ]
        );
        let text = &index.file(file).unwrap().text;
        assert_eq!(
            &text[links[0].range.start as usize..links[0].range.end as usize],
            "./extra"
        );
        let index = index_of(MARKETPLACE);
        let file = index
            .file_id(std::path::Path::new("/m/.claude-plugin/marketplace.json"))
            .unwrap();
        let targets: Vec<String> = skillgraph::ide::path_links(&index, file)
            .iter()
            .map(|l| l.target.display().to_string())
            .collect();
        assert_eq!(
            targets,
            [
                "/m/plugins/a/.claude-plugin/plugin.json",
                "/m/plugins/b",
                "/m/plugins/c"
            ]
        );
    }

    #[test]
    fn renaming_the_plugin_or_adding_its_skill_is_incremental() {
        let mut replay = Replay::new();
        replay.set(
            "/r/p/.claude-plugin/plugin.json",
            "{\"name\": \"p\", \"skills\": \"./more\"}",
        );
        replay.assert_consistent("a plugin with no skill in ./more");
        assert!(replay
            .snapshot()
            .iter()
            .any(|f| f.4.contains("no skill is at")));
        replay.set(
            "/r/p/more/a/SKILL.md",
            "---\nname: a\ndescription: A.\n---\nRun /p:a.\n",
        );
        replay.assert_consistent("a skill added");
        assert_eq!(replay.snapshot(), Vec::new());
        replay.set(
            "/r/p/.claude-plugin/plugin.json",
            "{\"name\": \"p\", \"skills\": \"./more\"",
        );
        replay.assert_consistent("broken");
        assert_eq!(replay.snapshot().len(), 1);
        replay.set("/r/p/.claude-plugin/plugin.json", "{\"name\": \"q\"}");
        replay.assert_consistent("renamed");
    }
}
