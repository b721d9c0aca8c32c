//! The index gives the same diagnostics however the file set was reached: in one batch, one file
//! at a time in any order, or through removals, re-additions, edits and renames. After every
//! step the incremental index is compared with a fresh index built in one batch from the files
//! that exist at that point.

#[path = "support/text.rs"]
mod text;
use text::assert_contains;

mod support;

use std::path::{Path, PathBuf};

use skillgraph::index::{Change, Index};
use support::*;

/// Writes the file at `path` as each of `texts` in turn (`None` removes it), then as it was;
/// the index is compared with a fresh batch after each step.
fn walk(ws: &mut Replay, path: &str, texts: &[Option<String>]) {
    let before = ws.text(path);
    for (step, text) in texts.iter().enumerate() {
        assert_ne!(
            text.as_ref(),
            Some(&before),
            "step {step} of {path} changes nothing"
        );
        match text {
            Some(text) => ws.set(path, text),
            None => ws.remove(path),
        }
        ws.assert_consistent(&format!("step {step} of {path}"));
    }
    ws.set(path, &before);
    ws.assert_consistent(&format!("{path} as it was"));
}

/// Writes the file at `path` as `text` and compares the index with a fresh batch; returns the
/// (path, code) pairs it reports then.
fn write(ws: &mut Replay, path: &str, text: &str) -> Vec<(String, String)> {
    ws.set(path, text);
    ws.assert_consistent(&format!("{path} written"));
    codes_of(&ws.snapshot())
}

fn codes_of(snapshot: &[Found]) -> Vec<(String, String)> {
    snapshot
        .iter()
        .map(|(path, code, ..)| (show_path(Path::new(path)), code.clone()))
        .collect()
}

/// A workspace with problems of many kinds, so that every family of cross-file dependency is
/// exercised: grants (own and inherited), bulk grants, requires over skill types, composed
/// chains and cycles, duplicate ids, MCP servers, funnels, trigger targets.
fn rich_fixture() -> String {
    with_baseline(&format!(
        "{}{}{}{}{}{}{}{}{}",
        composed_skill("c-one", &["c-two", "fetch"]),
        composed_skill("c-two", &["c-one", "ghost"]),
        mcp_skill("on-missing-server", "elsewhere"),
        mcp_skill("fetch", "tools")
            .replace("/ws/skills/fetch.yaml", "/ws/skills/group/fetch-copy.yaml"),
        archetype("reader", &["fetch", "missing", "server:tools"]),
        r#"
//- /ws/triggers/nightly.yaml
apiVersion: swarmkit/v1
kind: Trigger
metadata:
  id: nightly
  name: Nightly
type: manual
targets:
  - team
  - other-team
"#,
        FUNNEL_REVIEW,
        team(
            r#"
            root:
              id: root
              role: root
              skills: [store, fetch, summarise, later]
              funnel: review
              requires:
                store: [fetch]
                fetch: [summarise]
              children:
                - id: helper
                  role: worker
                  archetype: worker
                  skills_additional: [store]
                  requires:
                    store: [fetch]
                - id: reader
                  role: worker
                  archetype: reader
                  funnel: audit
                  depends_on: [helper]
                - id: bulk
                  role: worker
                  skills: [server:tools, c-one]
                  requires:
                    c-one: [store]
                    store: [fetch]
            "#,
        ),
        topology(
            "second",
            r#"
            root:
              id: boss
              role: root
              archetype: reader
            "#,
        ),
    ))
}

/// A replay holding the rich fixture.
fn rich_replay() -> Replay {
    let mut ws = Replay::new();
    ws.apply(rich_changes());
    ws
}

fn rich_changes() -> Vec<Change> {
    changes(&rich_fixture())
}

#[test]
fn the_rich_fixture_has_problems_of_many_kinds() {
    let found = batch_snapshot(rich_changes());
    let mut codes: Vec<String> = found
        .iter()
        .map(|(_, code, ..)| code.clone())
        .filter(|code| !code.starts_with("schema."))
        .collect();
    codes.sort();
    codes.dedup();
    assert_eq!(
        codes,
        [
            // The composed skill guarded in the fixture sits on a composes loop, so SwarmKit
            // drops it and the agent does not hold it.
            "agent.requires-unknown-skill",
            "agent.requires-unsatisfiable",
            "agent.unknown-funnel",
            "agent.unknown-skill",
            "archetype.unknown-skill",
            "skill.composed-cycle",
            "skill.composed-unknown",
            "skill.duplicate-id",
            "skill.unknown-mcp-server",
            "trigger.unknown-target",
        ]
    );
}

#[test]
fn one_at_a_time_in_any_order_equals_one_batch() {
    assert_any_order_equals_batch(rich_changes(), 6);
}

#[test]
fn batches_of_several_files_equal_one_batch() {
    let all = shuffled(rich_changes(), 42);
    let expected = batch_snapshot(all.clone());
    let mut ws = Replay::new();
    for chunk in all.chunks(3) {
        ws.apply(chunk.to_vec());
        ws.assert_consistent("a chunk of three");
    }
    assert_eq!(ws.snapshot(), expected);
}

#[test]
fn removing_and_re_adding_every_file_round_trips() {
    let all = rich_changes();
    let expected = batch_snapshot(all.clone());
    let mut ws = Replay::new();
    ws.apply(all.clone());
    for change in &all {
        let Change::Set { path, text } = change else {
            unreachable!()
        };
        let path = path.to_str().unwrap();
        ws.remove(path);
        ws.assert_consistent(&format!("removing {path}"));
        ws.set(path, text);
        ws.assert_consistent(&format!("re-adding {path}"));
        assert_eq!(ws.snapshot(), expected, "after re-adding {path}");
    }
}

#[test]
fn creating_a_skill_clears_unknown_skill_and_deleting_it_brings_it_back() {
    let mut ws = rich_replay();
    let later = |ws: &Replay| {
        ws.snapshot()
            .into_iter()
            .filter(|(path, code, _, _, message, _)| {
                path == "/ws/topologies/team.yaml"
                    && code == "agent.unknown-skill"
                    && message.contains("`later`")
            })
            .count()
    };
    assert_eq!(later(&ws), 1);
    let before = ws.snapshot();

    let skill = parse_fixture(&mcp_skill("later", "tools")).remove(0);
    ws.set(&skill.path, &skill.text);
    ws.assert_consistent("creating skills/later.yaml");
    assert_eq!(later(&ws), 0);

    ws.remove(&skill.path);
    ws.assert_consistent("deleting skills/later.yaml");
    assert_eq!(ws.snapshot(), before);
}

#[test]
fn renaming_the_manifest_away_and_back() {
    let mut ws = rich_replay();
    let full = ws.snapshot();
    assert!(!full.is_empty());

    // Without a manifest the directory is no workspace: nothing in it is checked, and the
    // missing manifest is reported once, on its first artifact.
    ws.rename("/ws/workspace.yaml", "/ws/workspace.yaml.orig");
    ws.assert_consistent("renaming workspace.yaml away");
    let without: Vec<(String, String)> = ws
        .snapshot()
        .into_iter()
        .map(|d| (d.0.to_string(), d.1.to_string()))
        .collect();
    assert_eq!(
        without,
        vec![(
            "/ws/archetypes/reader.yaml".to_owned(),
            "workspace.missing-workspace-yaml".to_owned()
        )]
    );

    ws.rename("/ws/workspace.yaml.orig", "/ws/workspace.yaml");
    ws.assert_consistent("renaming workspace.yaml back");
    assert_eq!(ws.snapshot(), full);

    // The same through a `.yml` manifest, which SwarmKit also accepts.
    ws.rename("/ws/workspace.yaml", "/ws/workspace.yml");
    ws.assert_consistent("renaming workspace.yaml to workspace.yml");
    let as_yml: Vec<_> = ws
        .snapshot()
        .into_iter()
        .map(|mut d| {
            d.0 = d.0.replace("workspace.yml", "workspace.yaml");
            for r in &mut d.5 {
                r.0 = r.0.replace("workspace.yml", "workspace.yaml");
            }
            d
        })
        .collect();
    assert_eq!(as_yml, full);
    ws.rename("/ws/workspace.yml", "/ws/workspace.yaml");
    ws.assert_consistent("renaming workspace.yml back");
    assert_eq!(ws.snapshot(), full);
}

#[test]
fn moving_the_workspace_root_down_a_level() {
    // A manifest appearing in a subdirectory makes a nested workspace: the nearest wins.
    let mut ws = rich_replay();
    let nested = parse_fixture(&with_baseline("")).remove(0);
    ws.set("/ws/skills/workspace.yaml", &nested.text);
    ws.assert_consistent("adding a manifest in skills/");
    ws.remove("/ws/skills/workspace.yaml");
    ws.assert_consistent("removing the nested manifest");
    assert_eq!(ws.snapshot(), batch_snapshot(rich_changes()));
}

/// `/ws/skills/fetch.yaml`, an `mcp_tool` skill, becomes an `llm_prompt` skill and then what it
/// was; the index is compared with a fresh batch after each step.
fn fetch_becomes_an_llm_prompt_and_back(ws: &mut Replay) {
    let fetch = ws.text("/ws/skills/fetch.yaml");
    let as_llm = fetch.replace(
        "  type: mcp_tool\n  server: tools\n  tool: fetch\n",
        "  type: llm_prompt\n  prompt: Fetch.\n",
    );
    assert_ne!(as_llm, fetch);
    ws.set("/ws/skills/fetch.yaml", &as_llm);
    ws.assert_consistent("fetch becomes an llm_prompt skill");
    ws.set("/ws/skills/fetch.yaml", &fetch);
    ws.assert_consistent("fetch is an mcp_tool skill again");
}

#[test]
fn edits_that_change_what_other_files_read() {
    let mut ws = rich_replay();
    let full = ws.snapshot();

    // The manifest loses its MCP server: every mcp_tool skill on it is now on an unknown
    // server (the `server:tools` grants still resolve: they go by the skills' `server`).
    let manifest = ws.text("/ws/workspace.yaml");
    let renamed = manifest.replace("- id: tools", "- id: tools-v2");
    let codes = write(&mut ws, "/ws/workspace.yaml", &renamed);
    let fetch_on_no_server = (
        "skills/fetch.yaml".into(),
        "skill.unknown-mcp-server".into(),
    );
    assert!(codes.contains(&fetch_on_no_server));
    ws.set("/ws/workspace.yaml", &manifest);
    ws.assert_consistent("restoring the MCP server");
    assert_eq!(ws.snapshot(), full);

    // An archetype's defaults change under the agents that inherit them: its grant is fixed,
    // then broken again.
    let reader = ws.text("/ws/archetypes/reader.yaml");
    let fixed = reader.replace("- missing", "- store");
    walk(&mut ws, "/ws/archetypes/reader.yaml", &[Some(fixed)]);

    // A skill changes type: a satisfiable prerequisite becomes unsatisfiable and back.
    fetch_becomes_an_llm_prompt_and_back(&mut ws);

    // Breaking the composed cycle from its other end, then restoring it.
    let c_two = ws.text("/ws/skills/c-two.yaml");
    ws.set("/ws/skills/c-two.yaml", &c_two.replace("c-one, ", ""));
    ws.assert_consistent("breaking the composed cycle");
    assert!(!codes_of(&ws.snapshot())
        .iter()
        .any(|(_, code)| code == "skill.composed-cycle"));
    ws.set("/ws/skills/c-two.yaml", &c_two);
    ws.assert_consistent("restoring the composed cycle");

    // Renaming a skill's id (not its file) and back.
    let keep = ws
        .text("/ws/skills/store.yaml")
        .replace("id: store", "id: keep");
    walk(&mut ws, "/ws/skills/store.yaml", &[Some(keep)]);

    // The duplicate goes away when its copy is deleted, and the copy's id is edited in place.
    ws.remove("/ws/skills/group/fetch-copy.yaml");
    ws.assert_consistent("deleting the duplicate");
    assert!(!codes_of(&ws.snapshot())
        .iter()
        .any(|(_, code)| code == "skill.duplicate-id"));

    // A parse error in a topology, then fixed.
    let broken = format!("{}  oops: [\n", ws.text("/ws/topologies/team.yaml"));
    walk(&mut ws, "/ws/topologies/team.yaml", &[Some(broken)]);
}

#[test]
fn editing_a_schema_file_re_checks_every_agent_naming_it() {
    // Two agents name one YAML schema file, a third a JSON one; each file is read once per
    // state and shared, so every edit must reach every agent naming it.
    let fixture = with_baseline(&format!(
        "{}//- /ws/schemas/out.yaml\ntype: object\n//- /ws/schemas/out.json\n{{\"type\": \"object\"}}\n",
        team(
            r#"
            root:
              id: root
              output_schema: ../schemas/out.yaml
              children:
                - id: second
                  output_schema: ../schemas/out.yaml
                - id: third
                  output_schema: ../schemas/out.json
            "#
        ),
    ));
    let mut ws = Replay::new();
    ws.apply(changes(&fixture));
    let clean = ws.snapshot();
    let schema_problems = |ws: &Replay| {
        codes_of(&ws.snapshot())
            .into_iter()
            .filter(|(_, code)| code == "agent.output-schema")
            .count()
    };
    assert_eq!(schema_problems(&ws), 0);
    ws.set("/ws/schemas/out.yaml", "type: 12\n");
    ws.assert_consistent("making the YAML schema invalid");
    assert_eq!(schema_problems(&ws), 2, "{:?}", ws.snapshot());
    ws.set("/ws/schemas/out.yaml", "type: [object\n");
    ws.assert_consistent("breaking its YAML");
    assert_eq!(schema_problems(&ws), 2);
    ws.remove("/ws/schemas/out.yaml");
    ws.assert_consistent("deleting it");
    assert_eq!(schema_problems(&ws), 2);
    ws.set("/ws/schemas/out.yaml", "type: object\n");
    ws.assert_consistent("writing it again");
    ws.set("/ws/schemas/out.json", "{\"type\": 12}");
    ws.assert_consistent("making the JSON schema invalid");
    assert_eq!(schema_problems(&ws), 1);
    // Fixed.
    write(&mut ws, "/ws/schemas/out.json", "{\"type\": \"object\"}\n");
    assert_eq!(ws.snapshot(), clean);
}

#[test]
fn setting_the_same_text_twice_changes_nothing() {
    let mut ws = rich_replay();
    let before = ws.snapshot();
    let changed = ws.index.apply(rich_changes());
    // Files are reported as touched, but no diagnostic changes.
    assert!(!changed.is_empty());
    assert_eq!(ws.snapshot(), before);
}

#[test]
fn removing_a_file_that_was_never_added_is_harmless() {
    let mut ws = rich_replay();
    let before = ws.snapshot();
    ws.remove("/ws/skills/never-there.yaml");
    ws.remove("/elsewhere/workspace.yaml");
    assert_eq!(ws.snapshot(), before);
    ws.assert_consistent("removing unknown files");
}

#[test]
fn two_workspaces_do_not_see_each_other() {
    let other: String = with_baseline("")
        .replace("//- /ws/", "//- /other/")
        .replace("- store\n", "- store\n      - fetch\n");
    let mut ws = Replay::new();
    for change in shuffled(changes(&format!("{}{other}", rich_fixture())), 7) {
        ws.apply(vec![change]);
    }
    ws.assert_consistent("two workspaces, one file at a time");
    let snapshot = ws.snapshot();
    assert!(
        snapshot.iter().all(|d| !d.0.starts_with("/other/")),
        "{snapshot:#?}"
    );
    // Deleting a skill of one workspace does not touch the other.
    ws.remove("/ws/skills/store.yaml");
    ws.assert_consistent("removing /ws/skills/store.yaml");
    assert!(ws.snapshot().iter().all(|d| !d.0.starts_with("/other/")));
}

// Once a known bug: "did you mean" suggestions read the id table without
// recording the read (semantics/grants.rs `suggest_skill`, rules/ids.rs `check_reference`), so
// a file whose reference is a typo is not re-checked when the id it is closest to appears. The
// diagnostic stayed, but its message differed from a fresh batch's.
#[test]
fn a_suggestion_appears_when_the_closest_id_is_added_later() {
    let mut ws = Replay::new();
    ws.apply(changes(&with_baseline(&team(
        "root:\n  id: root\n  role: root\n  skills: [store, lookupp]\n  archetype: readr\n",
    ))));
    ws.assert_consistent("the typo without a close id");
    let skill = parse_fixture(&mcp_skill("lookup", "tools")).remove(0);
    ws.set(&skill.path, &skill.text);
    let reader = parse_fixture(&archetype("reader", &["fetch"])).remove(0);
    ws.set(&reader.path, &reader.text);
    ws.assert_consistent("adding the ids the typos are closest to");
}

// Once a known bug: with both `workspace.yaml` and `workspace.yml` in one directory the manifest was
// whichever was indexed last (index/mod.rs, `apply`: every new manifest overwrites
// `workspace_roots[dir]`), so the result depends on the order files arrive; SwarmKit always
// uses `workspace.yaml`. Removing the registered one then leaves the directory without a
// workspace even though the other manifest is still there.
#[test]
fn workspace_yaml_wins_over_workspace_yml_in_any_order() {
    let yml = "//- /ws/workspace.yml\napiVersion: swarmkit/v1\nkind: Workspace\nmetadata:\n  id: ws\n  name: No servers\n";
    let all = changes(&with_baseline(yml));
    let forward = batch_snapshot(all.clone());
    let reverse = batch_snapshot(all.into_iter().rev().collect());
    assert_eq!(forward, reverse);
    let mut ws = Replay::new();
    ws.apply(changes(&with_baseline(yml)));
    ws.remove("/ws/workspace.yml");
    assert_eq!(ws.snapshot(), batch_snapshot(changes(BASELINE)));
}

// Once a known bug (the workspace already has a `skill.duplicate-id` error): when two files
// define one skill id with different implementation types, `requires` analysis takes the
// first contributor in FileId order (rules/requires.rs `build`: `skills_named(..).first()`),
// and FileIds follow arrival order, so whether `agent.requires-unsatisfiable` is reported
// depends on the order the files were indexed.
#[test]
fn duplicate_skill_ids_of_different_types_do_not_depend_on_order() {
    let llm_fetch = llm_skill("fetch").replace("/ws/skills/fetch.yaml", "/ws/skills/z-fetch.yaml");
    let all = changes(&with_baseline(&format!(
        "{llm_fetch}{}",
        team("root:\n  id: root\n  role: root\n  skills: [store, fetch]\n  requires:\n    store: [fetch]\n")
    )));
    let forward = batch_snapshot(all.clone());
    let reverse = batch_snapshot(all.into_iter().rev().collect());
    assert_eq!(codes_of(&forward), codes_of(&reverse));
}

/// A workspace leaning on the skills the runtime makes up: pack commands, topology skills,
/// memory skills, and the collisions between them and files.
fn made_up_fixture() -> String {
    with_baseline(&format!(
        "{}{}{}{}",
        manifest_with(
            r#"command_packs:
  - id: git
    commands:
      - id: status
        argv: [git, status]
        effects: read
      - id: push
        argv: [git, push]
memory:
  enabled: false
governance:
  provider: mock
  decision_skills:
    - id: memory-writer
      trigger: post_output
"#,
        ),
        mcp_skill("git-status", "tools"),
        llm_skill("topology-second"),
        team(
            r#"
            root:
              id: root
              role: root
              skills: [store, pack:git, pack:workspace, git-push, topology-third]
              requires:
                git-push: [git-status]
                topology-team: [fetch]
              children:
                - id: abstract
                  role: worker
                  archetype: finder
            "#,
        ),
    )) + &topology("second", "root:\n  id: boss\n  role: root\n")
        + &abstract_archetype("second")
}

#[test]
fn made_up_skills_one_at_a_time_in_any_order_equal_one_batch() {
    let all = changes(&made_up_fixture());
    let expected = batch_snapshot(all.clone());
    assert!(!expected.is_empty());
    let mut orders = vec![all.clone(), all.iter().rev().cloned().collect()];
    for seed in 11..=16 {
        orders.push(shuffled(all.clone(), seed));
    }
    for (n, order) in orders.into_iter().enumerate() {
        let mut ws = Replay::new();
        for change in order {
            ws.apply(vec![change]);
            ws.assert_consistent(&format!("order {n}"));
        }
        assert_eq!(ws.snapshot(), expected, "order {n}");
    }
}

#[test]
fn edits_to_what_the_runtime_makes_up() {
    let mut ws = Replay::new();
    ws.apply(changes(&made_up_fixture()));
    let full = ws.snapshot();
    let manifest = ws.text("/ws/workspace.yaml");
    let steps: Vec<(&str, String)> = vec![
        (
            "turning memory on",
            manifest.replace("enabled: false", "enabled: true"),
        ),
        (
            "renaming the pack",
            manifest.replace("- id: git\n", "- id: vcs\n"),
        ),
        (
            "renaming a command",
            manifest.replace("- id: push", "- id: pull"),
        ),
        (
            "making push read-only",
            manifest.replace(
                "argv: [git, push]",
                "argv: [git, push]\n        effects: read",
            ),
        ),
        (
            "dropping the packs",
            manifest.replace("command_packs:", "unused_packs:"),
        ),
    ];
    for (step, text) in steps {
        ws.set("/ws/workspace.yaml", &text);
        ws.assert_consistent(step);
        ws.set("/ws/workspace.yaml", &manifest);
        ws.assert_consistent(&format!("undoing {step}"));
        assert_eq!(ws.snapshot(), full, "after undoing {step}");
    }
    // Topologies appear, disappear and are renamed under the skills that name them.
    let third = parse_fixture(&topology("third", "root:\n  id: boss\n  role: root\n")).remove(0);
    ws.set(&third.path, &third.text);
    ws.assert_consistent("adding topology third");
    ws.rename("/ws/topologies/second.yaml", "/ws/topologies/later.yaml");
    ws.assert_consistent("moving topology second to another file");
    let later = ws.text("/ws/topologies/later.yaml");
    ws.set(
        "/ws/topologies/later.yaml",
        &later.replace("name: second", "name: fourth"),
    );
    ws.assert_consistent("renaming topology second to fourth");
    ws.remove("/ws/topologies/later.yaml");
    ws.assert_consistent("deleting it");
    ws.remove(&third.path);
    ws.assert_consistent("deleting topology third");
    ws.remove("/ws/skills/git-status.yaml");
    ws.assert_consistent("deleting the colliding skill");
    ws.remove("/ws/skills/topology-second.yaml");
    ws.assert_consistent("deleting the skill named like a topology");
}

#[test]
fn the_made_up_fixture_exercises_the_registry() {
    let codes: Vec<(String, String)> = codes_of(&batch_snapshot(changes(&made_up_fixture())));
    let expect = |path: &str, code: &str| (path.to_owned(), code.to_owned());
    assert_eq!(
        codes,
        [
            expect("topologies/second.yaml", "workspace-pack.id-collision"),
            expect("topologies/team.yaml", "agent.requires-unknown-skill"),
            expect("topologies/team.yaml", "agent.unknown-skill"),
            expect("workspace.yaml", "command-pack.id-collision"),
            expect("workspace.yaml", "memory.disabled-but-bound"),
        ]
    );
}

#[test]
fn editing_a_far_member_of_a_composed_loop_re_checks_the_whole_loop() {
    // Loop c0 → c1 → … → c5 → c0, an agent granting c0, and a composed skill above the loop.
    let mut fixture: String = (0..6)
        .map(|i| composed_skill(&format!("c{i}"), &[&format!("c{}", (i + 1) % 6)]))
        .collect();
    fixture.push_str(&composed_skill("outer", &["c0"]));
    fixture.push_str(&team(
        "root:\n  id: root\n  role: root\n  skills: [store, outer]\n",
    ));
    let mut ws = Replay::new();
    ws.apply(changes(&with_baseline(&fixture)));
    let looped = ws.snapshot();
    let loops = |s: &[Found]| s.iter().filter(|d| d.1 == "skill.composed-cycle").count();
    assert_eq!(loops(&looped), 6);
    // Break the loop at its far end: every member and the grant above it must hear of it.
    let c5 = ws.text("/ws/skills/c5.yaml");
    ws.set(
        "/ws/skills/c5.yaml",
        &c5.replace("composes: [c0]", "composes: [fetch]"),
    );
    ws.assert_consistent("breaking the loop at c5");
    assert_eq!(loops(&ws.snapshot()), 0);
    // Turning c5 into a prompt skill drops it from the composes graph: still no loop.
    ws.set(
        "/ws/skills/c5.yaml",
        &c5.replace("type: composed", "type: llm_prompt\n  prompt: Hi.")
            .replace("  composes: [c0]\n", ""),
    );
    ws.assert_consistent("c5 stops being composed");
    ws.set("/ws/skills/c5.yaml", &c5);
    ws.assert_consistent("closing the loop again");
    assert_eq!(ws.snapshot(), looped);
}

/// The language server applies every edit to a copy of the index and keeps the original until
/// the copy is done. The copy shares the original's tables (persistent maps): a change to either
/// must never show through in the other.
#[test]
fn a_copy_and_its_original_change_independently() {
    use skillgraph::model::swarmkit::ArtifactKind;
    let mut original = Index::new(&skillgraph::rules::CHECKS);
    original.apply(rich_changes());
    let before = snapshot(&original);
    let workspace = original
        .file_id(Path::new("/ws/workspace.yaml"))
        .expect("the fixture has a manifest");
    let skills = |index: &Index| -> Vec<String> {
        index
            .ids_of(workspace, ArtifactKind::Skill)
            .map(str::to_owned)
            .collect()
    };
    let skills_before = skills(&original);
    assert!(!skills_before.iter().any(|id| id == "later"));

    let later = mcp_skill("later", "tools");
    let skill = parse_fixture(&later).remove(0);
    let mut copy = original.clone();
    copy.apply(changes(&later));
    assert_eq!(
        snapshot(&original),
        before,
        "the copy's edit showed in the original"
    );
    assert_eq!(skills(&original), skills_before);
    assert!(original.file_id(Path::new(&skill.path)).is_none());

    let mut with_skill = rich_changes();
    with_skill.extend(changes(&later));
    let copy_before = snapshot(&copy);
    assert_eq!(copy_before, batch_snapshot(with_skill));
    assert!(skills(&copy).iter().any(|id| id == "later"));
    assert_ne!(copy_before, before);

    // And the other way: the original moving on leaves the copy as it was.
    let removed: Vec<PathBuf> = original
        .files()
        .map(|f| f.path.clone())
        .filter(|p| p.starts_with("/ws/skills"))
        .collect();
    assert!(!removed.is_empty());
    original.apply(
        removed
            .into_iter()
            .map(|path| Change::Remove { path })
            .collect(),
    );
    assert!(skills(&original).len() < skills_before.len());
    assert_eq!(
        snapshot(&copy),
        copy_before,
        "the original's edit showed in the copy"
    );
    assert!(skills(&copy).iter().any(|id| id == "later"));
}

// The members of bulk and abstract grants are computed once per state of their member list and
// shared (semantics/registry.rs, `GrantMembers`): a skill joining or leaving a server or a category
// must reach every agent that grants it, whichever file changes.
#[test]
fn bulk_and_abstract_grant_members_follow_their_skills() {
    let mut ws = Replay::new();
    ws.apply(changes(&made_up_fixture()));
    let full = ws.snapshot();
    // A second match for `{category: capability, capability: second}` makes it ambiguous.
    let rival = parse_fixture(&llm_skill("second-opinion")).remove(0);
    ws.set(&rival.path, &rival.text);
    ws.assert_consistent("adding a second match");
    assert!(codes_of(&ws.snapshot())
        .iter()
        .any(|(_, code)| code == "agent.abstract-ambiguous"));
    ws.set(
        &rival.path,
        &rival
            .text
            .replace("category: capability", "category: decision"),
    );
    ws.assert_consistent("moving it to another category");
    ws.remove(&rival.path);
    ws.assert_consistent("removing it");
    assert_eq!(ws.snapshot(), full);
    // The only mcp_tool skill on `tools` moves to another server and back.
    let status = ws.text("/ws/skills/git-status.yaml");
    let off = status.replace("server: tools", "server: other");
    walk(&mut ws, "/ws/skills/git-status.yaml", &[Some(off)]);
    assert_eq!(ws.snapshot(), full);
}

/// A rename through the IDE is an edit like any other: every id and SKILL.md name of the example
/// workspaces, renamed where it is defined, checks as clean after as before.
mod renames {
    use std::path::{Path, PathBuf};

    use skillgraph::diagnostic::FileId;
    use skillgraph::ide::rename::{Edit, Rename};
    use skillgraph::ide::{occurrences, rename, Ref, Site};
    use skillgraph::index::{Change, Content, FileRole, Index};

    fn id_of(what: &Ref) -> String {
        match what {
            Ref::Artifact(_, id) | Ref::McpServer(id) | Ref::Agent(id) => id.clone(),
        }
    }

    /// The discovered changes of a workspace with `rename` applied: texts edited, paths and skill
    /// folder listings moved, as an editor applying the edit and a new check would see them.
    fn renamed_changes(index: &Index, changes: &[Change], rename: &Rename) -> Vec<Change> {
        let moved = |path: &Path| {
            rename
                .moves
                .iter()
                .find_map(|m| path.strip_prefix(&m.from).ok().map(|rest| m.to.join(rest)))
                .map(|p| p.components().collect::<PathBuf>())
                .unwrap_or_else(|| path.to_owned())
        };
        changes
            .iter()
            .map(|change| match change {
                Change::Set { path, text } => {
                    let mut text = text.to_string();
                    if let Some(id) = index.file_id(path) {
                        let mut edits: Vec<&Edit> =
                            rename.edits.iter().filter(|e| e.file == id).collect();
                        edits.sort_by_key(|e| std::cmp::Reverse(e.range.start));
                        for e in edits {
                            text.replace_range(
                                e.range.start as usize..e.range.end as usize,
                                &e.new_text,
                            );
                        }
                    }
                    Change::Set {
                        path: moved(path),
                        text: text.into(),
                    }
                }
                Change::SetDecoded {
                    path,
                    text,
                    invalid_at,
                } => Change::SetDecoded {
                    path: moved(path),
                    text: text.clone(),
                    invalid_at: *invalid_at,
                },
                Change::Remove { path } => Change::Remove { path: moved(path) },
                Change::SkillFiles { dir, files } => Change::SkillFiles {
                    dir: moved(dir),
                    files: files.clone(),
                },
                Change::Bundled { dir, bundled } => Change::Bundled {
                    dir: moved(dir),
                    bundled: bundled.clone(),
                },
            })
            .collect()
    }

    /// Every diagnostic as (path, code, line, what is wrong), with the new name read back as the
    /// old one (in paths too), sorted: what "as clean after as before" compares.
    fn said_as_before(
        index: &Index,
        new: &str,
        old: &str,
    ) -> Vec<(String, &'static str, usize, String)> {
        let mut out: Vec<_> = index
            .files()
            .flat_map(|e| {
                index.diagnostics(e.id).into_iter().map(move |d| {
                    let line = e.text[..d.range.start as usize].matches('\n').count();
                    (
                        e.path.display().to_string().replace(new, old),
                        d.code.name(),
                        line,
                        // What is wrong, without the advice after `;`: a "did you mean" that
                        // named the old id may find nothing near the new one.
                        d.message
                            .split("; ")
                            .next()
                            .unwrap_or_default()
                            .replace(new, old),
                    )
                })
            })
            .collect();
        out.sort();
        out
    }

    /// Codes about two things sharing a name, which a rename of one of them may end.
    const COLLISIONS: &[&str] = &["skillmd.shadowed", "skillmd.duplicate-name"];

    #[test]
    fn every_rename_of_the_example_workspaces_checks_as_clean_after_as_before() {
        let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut performed = 0;
        let mut refused = Vec::new();
        for root in ["examples/demo", "tests/fixtures/estate"] {
            let root = repo.join(root).canonicalize().unwrap();
            let (changes, _) = skillgraph::discover::discover(std::slice::from_ref(&root));
            let mut index = Index::new(&skillgraph::rules::CHECKS);
            index.apply(changes.clone());
            // Every definition: each id and SKILL.md name, renamed from where it is defined.
            let mut targets: Vec<(FileId, u32, String)> = Vec::new();
            for entry in index.files() {
                if matches!(entry.role, FileRole::SkillMd)
                    && matches!(entry.parsed.content, Content::SkillMd(_))
                {
                    if let Content::SkillMd(md) = &entry.parsed.content {
                        if let (Some(range), Some(name)) = (md.name_range(), md.normalized_name()) {
                            targets.push((entry.id, range.start, name));
                        }
                    }
                    continue;
                }
                for o in occurrences(&index, entry.id) {
                    if o.site == Site::Definition {
                        targets.push((entry.id, o.range.start, id_of(&o.what)));
                    }
                }
            }
            targets.sort();
            for (file, offset, old) in targets {
                let new = format!("{old}-z");
                let rename = match rename(&index, file, offset, &new, true) {
                    Ok(rename) => rename,
                    Err(why) => {
                        refused.push(format!("{old}: {why}"));
                        continue;
                    }
                };
                performed += 1;
                let mut after = Index::new(&skillgraph::rules::CHECKS);
                after.apply(renamed_changes(&index, &changes, &rename));
                let (before, now) = (
                    said_as_before(&index, &new, &old),
                    said_as_before(&after, &new, &old),
                );
                // Nothing new; and nothing gone but what the old name's collision with another
                // caused (renaming one of two skills that shadow each other ends that).
                // A near-miss mention (`/release_notes`) is a slip for the old name, not a
                // mention of it: renaming the skill ends the likeness too.
                let gone: Vec<_> = before
                    .iter()
                    .filter(|d| !now.contains(d) && !COLLISIONS.contains(&d.1))
                    .filter(|d| {
                        d.1 != skillgraph::diagnostic::codes::SKILLMD_MENTION_NEAR_MISS.name()
                    })
                    .collect();
                let added: Vec<_> = now.iter().filter(|d| !before.contains(d)).collect();
                assert!(
                    gone.is_empty() && added.is_empty(),
                    "renaming `{old}` to `{new}` in {}: gone {gone:#?}\nadded {added:#?}",
                    root.display(),
                );
            }
        }
        assert!(performed > 40, "{performed} renames; refused: {refused:#?}");
    }
}

// A file checked again reuses what its last check resolved each skill id to, while that id's
// definitions stay the same (`Lookup::skills_named`). Edits to the topology itself, to the
// skills it grants, and a grant dropped while its skill changes and then taken back must all
// give what a fresh batch gives: a resolution the file stopped reading is not kept.
#[test]
fn a_topology_edited_again_and_again_sees_its_skills_as_they_are_now() {
    // Without `summarise` among the grants, no rule names it either: the topology stops
    // reading it.
    let team_text = |skills: &str| {
        let rule = if skills.contains("summarise") {
            "\n                fetch: [summarise]"
        } else {
            ""
        };
        team(&format!(
            r#"
            root:
              id: root
              role: root
              skills: [{skills}]
              requires:
                store: [fetch]{rule}
            "#
        ))
    };
    let mut ws = Replay::new();
    ws.apply(changes(&with_baseline(&team_text(
        "store, fetch, summarise",
    ))));
    let team_path = "/ws/topologies/team.yaml";
    let original = ws.text(team_path);
    // Keystrokes in the topology: each re-check after the first reuses the resolutions.
    for (step, skills) in [
        "store, fetch, summarisex",
        "store, fetch, summarise",
        "store, fetch, summarise, nothing",
        "store, fetch, summarise",
    ]
    .into_iter()
    .enumerate()
    {
        let text = parse_fixture(&team_text(skills)).remove(0).text;
        ws.set(team_path, &text);
        ws.assert_consistent(&format!("keystroke {step}: {skills}"));
    }
    assert_eq!(ws.text(team_path), original);

    // A granted skill changes type under the topology (a `requires:` prerequisite turns
    // unsatisfiable), then back.
    fetch_becomes_an_llm_prompt_and_back(&mut ws);

    // The grant of `summarise` goes; while the topology does not read it, `summarise` changes
    // type and then disappears; the grant comes back.
    let without = parse_fixture(&team_text("store, fetch")).remove(0).text;
    ws.set(team_path, &without);
    ws.assert_consistent("summarise no longer granted");
    let summarise = ws.text("/ws/skills/summarise.yaml");
    ws.set(
        "/ws/skills/summarise.yaml",
        &summarise.replace(
            "  type: llm_prompt\n  prompt: Summarise the notes.\n",
            "  type: mcp_tool\n  server: tools\n  tool: summarise\n",
        ),
    );
    ws.assert_consistent("summarise changes type while not granted");
    ws.set(team_path, &original);
    ws.assert_consistent("summarise granted again, as it is now");
    ws.set(team_path, &without);
    ws.remove("/ws/skills/summarise.yaml");
    ws.assert_consistent("summarise removed while not granted");
    ws.set(team_path, &original);
    ws.assert_consistent("granted again: unknown now");
    assert!(codes_of(&ws.snapshot())
        .contains(&("topologies/team.yaml".into(), "agent.unknown-skill".into())));
    ws.set("/ws/skills/summarise.yaml", &summarise);
    ws.assert_consistent("summarise back");
    assert!(!codes_of(&ws.snapshot())
        .iter()
        .any(|(_, code)| code == "agent.unknown-skill"));
}

// "Did you mean" reads the workspace's skill ids, the made-up ones included (`topology-<name>`,
// pack commands, memory skills): one appearing later must reach the file that names an id close
// to it, and a suggestion computed once for an id set is shared by every file asking while the
// set stays the same.
#[test]
fn a_suggestion_follows_made_up_skills_appearing_and_going() {
    let mut ws = Replay::new();
    ws.apply(changes(&with_baseline(&topology(
        "second",
        r#"
        root:
          id: boss
          role: root
          skills: [topology-nw]
        "#,
    ))));
    ws.assert_consistent("no topology named new");
    let new_topology = parse_fixture(&topology(
        "new",
        r#"
        root:
          id: lead
          role: root
        "#,
    ))
    .remove(0);
    ws.set(&new_topology.path, &new_topology.text);
    ws.assert_consistent("the topology new appears");
    let (_, second) = ws
        .snapshot()
        .into_iter()
        .map(|(path, code, _, _, message, _)| (path, (code, message)))
        .find(|(path, (code, _))| path.ends_with("second.yaml") && code == "agent.unknown-skill")
        .expect("the grant is still unknown");
    assert_contains(&second.1, "did you mean `topology-new`?");
    // Another topology asking the same, then the suggested one going away.
    let third = parse_fixture(&topology(
        "third",
        r#"
        root:
          id: chief
          role: root
          skills: [topology-nw]
        "#,
    ))
    .remove(0);
    ws.set(&third.path, &third.text);
    ws.assert_consistent("a second file asks for the same id");
    ws.remove(&new_topology.path);
    ws.assert_consistent("the topology new goes");
}

// Agents hold a `server:` or `pack:` grant as the list every grant of its target shares, and
// ask an id's own definitions whether it is handed out: a skill moving off the server, going,
// coming back, and a write command becoming a read one must reach every agent as a fresh
// batch sees it.
#[test]
fn agents_sharing_bulk_grants_follow_the_skills_behind_them() {
    let (skills, mut children) = chained_tools_skills(6, 5, "server:tools, pack:git", |i| {
        format!("    git-log: [s{i}]\n")
    });
    children.push_str(
        "- id: twice\n  role: worker\n  skills: [s2, server:tools, git-push, pack:git, s4, server:tools]\n",
    );
    let manifest = manifest_with_git_log_and_push();
    let mut ws = Replay::new();
    ws.apply(changes(&with_baseline(&format!(
        "{manifest}{skills}{}",
        team_with_children(&children)
    ))));
    let full = ws.snapshot();
    // s3 moves off the server, goes, and comes back.
    let s3 = ws.text("/ws/skills/s3.yaml");
    let off = s3.replace("server: tools", "server: other");
    let codes = write(&mut ws, "/ws/skills/s3.yaml", &off);
    assert!(codes
        .iter()
        .any(|(_, code)| code == "agent.requires-unknown-skill"));
    ws.remove("/ws/skills/s3.yaml");
    ws.assert_consistent("s3 goes");
    write(&mut ws, "/ws/skills/s3.yaml", &s3);
    assert_eq!(ws.snapshot(), full);
    // git-push becomes a read command, then git-log a write one.
    let manifest_text = ws.text("/ws/workspace.yaml");
    let read = "argv: [git, push]\n        effects: read";
    let versions = [
        Some(manifest_text.replace("argv: [git, push]", read)),
        Some(manifest_text.replace("effects: read", "effects: write")),
    ];
    walk(&mut ws, "/ws/workspace.yaml", &versions);
    assert_eq!(ws.snapshot(), full);
}

// An archetype's defaults are resolved once per check of a topology and shared by the agents
// inheriting them; their problems reach each agent as one diagnostic per code. Defining one of
// the unknown defaults, breaking a known one and editing the archetype must reach every agent
// as a fresh batch sees it.
#[test]
fn agents_sharing_an_archetype_follow_its_defaults() {
    let defaults: Vec<String> = (0..15)
        .map(|i| format!("u{i}"))
        .chain(["fetch".to_owned(), "server:tools".to_owned()])
        .collect();
    let defaults: Vec<&str> = defaults.iter().map(String::as_str).collect();
    let mut children = String::new();
    for i in 0..6 {
        children.push_str(&format!(
            "- id: a{i}\n  role: worker\n  archetype: broken\n  skills_additional: [store, u{i}]\n"
        ));
    }
    let mut ws = Replay::new();
    ws.apply(changes(&with_baseline(&format!(
        "{}{}",
        archetype("broken", &defaults),
        team_with_children(&children)
    ))));
    let full = ws.snapshot();
    let u2 = parse_fixture(&mcp_skill("u2", "tools")).remove(0);
    ws.set(&u2.path, &u2.text);
    ws.assert_consistent("u2 is defined");
    ws.remove(&u2.path);
    ws.assert_consistent("u2 goes");
    assert_eq!(ws.snapshot(), full);
    // fetch moves off the server, goes, and comes back.
    let off = ws
        .text("/ws/skills/fetch.yaml")
        .replace("server: tools", "server: other");
    walk(&mut ws, "/ws/skills/fetch.yaml", &[Some(off), None]);
    // One unknown default is dropped, then every one renamed.
    let archetype_text = ws.text("/ws/archetypes/broken.yaml");
    let versions = [
        Some(archetype_text.replace("    - u1\n", "")),
        Some(archetype_text.replace("    - u", "    - s")),
    ];
    walk(&mut ws, "/ws/archetypes/broken.yaml", &versions);
    assert_eq!(ws.snapshot(), full);
}
