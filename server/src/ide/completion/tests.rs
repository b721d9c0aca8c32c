use super::swarmkit::{CATEGORY, IMPLEMENTATION, ROLE, TRANSPORT, TRIGGER};
use super::*;
use crate::ide::answers::{CompletionItem, CompletionKind, Completions};
use crate::ide::test_support::{fixture, item_labels, FIX_SKILL};
use crate::model::skill_md::extensions::{CHAIN_OPTIONS, DEPENDENCY_TYPES};

const BASE: &str = r#"
//- /w/workspace.yaml
apiVersion: swarmkit/v1
kind: Workspace
metadata:
  id: w
mcp_servers:
  - id: conventions
//- /w/skills/a.yaml
apiVersion: swarmkit/v1
kind: Skill
metadata:
  id: alpha
//- /w/skills/b.yaml
apiVersion: swarmkit/v1
kind: Skill
metadata:
  id: beta
//- /w/archetypes/eng.yaml
apiVersion: swarmkit/v1
kind: Archetype
metadata:
  id: eng
"#;

fn labels(topology_body: &str) -> Vec<String> {
    let text = format!(
        "{BASE}//- /w/topologies/t.yaml\napiVersion: swarmkit/v1\nkind: Topology\nmetadata:\n  name: t\nagents:\n  root:\n{topology_body}"
    );
    let f = fixture(&text);
    completion(&f.index, f.cursor_file, f.offset)
        .map(|c| c.items.into_iter().map(|i| i.label).collect())
        .unwrap_or_default()
}

#[test]
fn skill_ids_in_a_grant_being_typed() {
    // The workspace's skills, and those the runtime makes up (memory, `topology-<name>`).
    let offered = labels("    id: root\n    skills: [al$0]\n");
    assert!(
        offered.starts_with(&["alpha".to_owned(), "beta".to_owned()]),
        "{offered:?}"
    );
    assert!(offered.contains(&"topology-t".to_owned()), "{offered:?}");
    // A skill the agent holds already is not offered again.
    let offered = labels("    id: root\n    skills:\n      - alpha\n      - $0\n");
    assert!(offered.starts_with(&["beta".to_owned()]), "{offered:?}");
    assert!(!offered.contains(&"alpha".to_owned()), "{offered:?}");
    let offered = labels("    id: root\n    skills: [alpha, beta, al$0]\n");
    assert!(!offered.contains(&"beta".to_owned()), "{offered:?}");
}

#[test]
fn items_say_what_a_skill_does_and_where_it_is_defined() {
    let text = format!(
        "{}//- /w/topologies/t.yaml\napiVersion: swarmkit/v1\nkind: Topology\nmetadata:\n  name: t\nagents:\n  root:\n    id: root\n    skills: [$0]\n",
        BASE.replace("  id: alpha\n", "  id: alpha\n  description: Does the first thing.\n")
    );
    let f = fixture(&text);
    let found = completion(&f.index, f.cursor_file, f.offset).unwrap();
    let alpha = found.items.iter().find(|i| i.label == "alpha").unwrap();
    assert_eq!(
        alpha.documentation.as_deref(),
        Some("Does the first thing.\n\nDefined in `skills/a.yaml`")
    );
}

#[test]
fn depends_on_funnels_and_implementation_servers() {
    let tree = "    id: root\n    children:\n      - id: one\n        role: worker\n      - id: two\n        role: worker\n";
    assert_eq!(
        labels(&format!("{tree}        depends_on: [$0]\n")),
        ["root", "one"]
    );
    assert_eq!(
        labels(&format!("{tree}        depends_on: [o$0ne]\n")),
        ["root", "one"]
    );
    let with_funnel = format!(
        "{BASE}//- /w/funnels/f.yaml\napiVersion: swarmkit/v1\nkind: Funnel\nmetadata:\n  id: intake\n//- /w/topologies/t.yaml\napiVersion: swarmkit/v1\nkind: Topology\nmetadata:\n  name: t\nagents:\n  root:\n    id: root\n    funnel: $0\n"
    );
    assert_eq!(labels_of(&with_funnel), ["intake"]);
    let skill = format!(
        "{BASE}//- /w/skills/c.yaml\napiVersion: swarmkit/v1\nkind: Skill\nmetadata:\n  id: gamma\nimplementation:\n  type: mcp_tool\n  server: $0\n"
    );
    assert_eq!(labels_of(&skill), ["conventions"]);
}

#[test]
fn only_held_skills_inside_requires() {
    assert_eq!(
        labels("    id: root\n    skills: [alpha, beta]\n    requires:\n      beta: [$0]\n"),
        ["alpha"]
    );
    // Neither the rule's own skill nor its prerequisites again; the one edited stays.
    assert_eq!(
        labels("    id: root\n    skills: [alpha, beta, gamma]\n    requires:\n      gamma: [alpha, b$0eta]\n"),
        ["beta"]
    );
    assert_eq!(
        labels("    id: root\n    skills: [beta]\n    requires:\n      be$0\n"),
        ["beta"]
    );
    // At a bare cursor too (an editor asked for completion before anything is typed).
    assert_eq!(
        labels("    id: root\n    skills: [beta]\n    requires:\n      $0\n"),
        ["beta"]
    );
    // A key guarded already is not offered again.
    assert_eq!(
        labels("    id: root\n    skills: [alpha, beta]\n    requires:\n      beta: [alpha]\n      $0\n"),
        ["alpha"]
    );
}

#[test]
fn archetypes_and_servers() {
    assert_eq!(labels("    id: root\n    archetype: $0\n"), ["eng"]);
    assert_eq!(
        labels("    id: root\n    skills: [server:conv$0]\n"),
        ["conventions"]
    );
}

fn complete(text: &str) -> Option<Completions> {
    let f = fixture(text);
    completion(&f.index, f.cursor_file, f.offset)
}

fn labels_of(text: &str) -> Vec<String> {
    complete(text)
        .map(|c| c.items.into_iter().map(|i| i.label).collect())
        .unwrap_or_default()
}

/// The labels offered in the fixture `head` followed by `body`, which holds the cursor.
fn labels_after(head: String) -> impl Fn(&str) -> Vec<String> {
    move |body| labels_of(&format!("{head}{body}"))
}

/// The labels offered in skill `s` of workspace `w` (its head written, then `body` with the
/// cursor), the files `before` it.
fn skill_labels(before: &str, body: &str) -> Vec<String> {
    labels_of(&format!(
        "{before}//- /w/skills/s.yaml\napiVersion: swarmkit/v1\nkind: Skill\nmetadata:\n  id: s\n{body}"
    ))
}

const WORKSPACE: &str =
    "//- /w/workspace.yaml\napiVersion: swarmkit/v1\nkind: Workspace\nmetadata:\n  id: w\n";

#[test]
fn decision_binding_ids_offer_decision_skills_and_memory_hooks() {
    let skills = "//- /w/skills/judge.yaml\napiVersion: swarmkit/v1\nkind: Skill\nmetadata:\n  id: grounding-judge\ncategory: decision\n//- /w/skills/say.yaml\napiVersion: swarmkit/v1\nkind: Skill\nmetadata:\n  id: say-hello\ncategory: capability\n";
    let manifest = |bindings: &str| {
        format!("//- /w/workspace.yaml\napiVersion: swarmkit/v1\nkind: Workspace\nmetadata:\n  id: w\ngovernance:\n  provider: mock\n  decision_skills:\n{bindings}{skills}")
    };
    let expected = [
        "grounding-judge",
        "memory-reconcile",
        "memory-reader",
        "memory-writer",
    ];
    // Typed after `- id: `, on an id already written, and in a topology.
    assert_eq!(labels_of(&manifest("    - id: $0\n")), expected);
    assert_eq!(
        labels_of(&manifest("    - trigger: pre_input\n      id: gro$0\n")),
        expected
    );
    assert_eq!(
        labels_of(&manifest(
            "    - id: say-$0hello\n      trigger: pre_input\n"
        )),
        expected
    );
    let topology = format!("{}//- /w/topologies/t.yaml\napiVersion: swarmkit/v1\nkind: Topology\nmetadata:\n  name: t\ngovernance:\n  decision_skills:\n    - id: $0\n", manifest(""));
    assert_eq!(labels_of(&topology), expected);
    // `id:` elsewhere is not a decision binding.
    assert!(labels_of(&format!("{WORKSPACE}mcp_servers:\n  - id: $0\n")).is_empty());
}

#[test]
fn enum_values_in_swarmkit_files() {
    let skill = |body: &str| skill_labels(WORKSPACE, body);
    assert_eq!(
        skill("category: $0\n"),
        ["capability", "decision", "coordination", "persistence"]
    );
    assert_eq!(
        skill("implementation:\n  type: m$0\n"),
        ["mcp_tool", "llm_prompt", "composed", "command", "agent"]
    );
    // `type` elsewhere, and `category` below another key, take no enum.
    assert!(skill("inputs:\n  type: $0\n").is_empty());
    assert!(skill("metadata2:\n  category: $0\n").is_empty());

    let trigger = labels_of(&format!(
        "{WORKSPACE}//- /w/triggers/t.yaml\napiVersion: swarmkit/v1\nkind: Trigger\nmetadata:\n  id: t\ntype: $0\n"
    ));
    assert_eq!(
        trigger,
        ["cron", "webhook", "file_watch", "manual", "plugin"]
    );

    for servers in [
        "mcp_servers:\n  - id: a\n    transport: $0\n",
        "mcp_servers:\n- id: a\n  command: x\n  transport: st$0\n",
        "mcp_servers:\n  - transport: $0\n",
    ] {
        let labels = labels_of(&format!(
            "{WORKSPACE}{servers}//- /w/skills/x.yaml\nid: x\n"
        ));
        assert_eq!(labels, ["stdio", "http"], "{servers}");
    }

    let archetype = labels_of(&format!(
        "{WORKSPACE}//- /w/archetypes/a.yaml\napiVersion: swarmkit/v1\nkind: Archetype\nmetadata:\n  id: a\nrole: $0\n"
    ));
    assert_eq!(archetype, ["root", "leader", "worker"]);

    let topology = labels_after(format!(
        "{WORKSPACE}//- /w/topologies/t.yaml\napiVersion: swarmkit/v1\nkind: Topology\nmetadata:\n  name: t\nagents:\n  root:\n"
    ));
    // `root` is the top agent's role only.
    assert_eq!(topology("    id: root\n    role: $0\n"), ["root"]);
    assert_eq!(
        topology("    id: root\n    role: root\n    children:\n      - id: a\n        role: $0\n"),
        ["leader", "worker"]
    );
    assert_eq!(
        topology("    id: root\n    children:\n      - id: a\n        children:\n          - role: w$0\n"),
        ["leader", "worker"]
    );
}

fn items_of(text: &str) -> Vec<CompletionItem> {
    complete(text).map(|c| c.items).unwrap_or_default()
}

#[test]
fn agent_keys_from_the_schema_with_their_descriptions() {
    let topology = |body: &str| {
        items_of(&format!(
            "{WORKSPACE}//- /w/topologies/t.yaml\napiVersion: swarmkit/v1\nkind: Topology\nmetadata:\n  name: t\nagents:\n  root:\n{body}"
        ))
    };
    let labels = |items: &[CompletionItem]| -> Vec<String> {
        items.iter().map(|i| i.label.clone()).collect()
    };
    // The root's keys, less those written already.
    let root = topology("    id: root\n    role: root\n    sk$0\n    prompt:\n      system: hi\n");
    let names = labels(&root);
    for key in [
        "skills",
        "skills_additional",
        "requires",
        "children",
        "funnel",
        "archetype",
    ] {
        assert!(names.contains(&key.to_owned()), "{names:?}");
    }
    for written in ["id", "role", "prompt"] {
        assert!(!names.contains(&written.to_owned()), "{names:?}");
    }
    let skills = root.iter().find(|i| i.label == "skills").unwrap();
    assert_eq!(skills.kind, CompletionKind::Field);
    assert_eq!(skills.detail.as_deref(), Some("list"));
    assert!(
        skills
            .documentation
            .as_deref()
            .unwrap()
            .starts_with("Skill IDs"),
        "{skills:?}"
    );
    // Every key has documentation, from the schema or its type.
    assert!(root.iter().all(|i| i.documentation.is_some()), "{root:?}");
    // A child agent's first key, typed after its `- `; and a later one.
    let first = labels(&topology(
        "    id: root\n    role: root\n    children:\n      - $0\n",
    ));
    assert!(first.contains(&"depends_on".to_owned()), "{first:?}");
    let child = topology(
        "    id: root\n    role: root\n    children:\n      - id: a\n        r$0\n      - id: b\n        role: worker\n",
    );
    let names = labels(&child);
    assert!(names.contains(&"role".to_owned()), "{names:?}");
    assert!(!names.contains(&"id".to_owned()), "{names:?}");
    let role = child.iter().find(|i| i.label == "role").unwrap();
    assert!(role
        .documentation
        .as_deref()
        .unwrap()
        .ends_with("Required."));
    // A child's role, as the schema narrows it below `children`.
    assert_eq!(role.detail.as_deref(), Some("one of leader, worker"));
    // Not a key position: a value being typed, or a word after another.
    assert!(topology("    id: root\n    role: root\n    skills: x y$0\n").is_empty());
}

#[test]
fn keys_of_the_implementation_written() {
    let skill = |body: &str| skill_labels(WORKSPACE, body);
    assert_eq!(
        skill("implementation:\n  type: mcp_tool\n  $0\n"),
        ["server", "tool", "arguments"]
    );
    let top = skill("$0\n");
    for key in ["category", "implementation", "inputs"] {
        assert!(top.contains(&key.to_owned()), "{top:?}");
    }
    for written in ["apiVersion", "kind", "metadata"] {
        assert!(!top.contains(&written.to_owned()), "{top:?}");
    }
}

#[test]
fn every_enum_and_boolean_of_the_schemas() {
    let skill = |body: &str| skill_labels(WORKSPACE, body);
    assert_eq!(
        skill("implementation:\n  type: composed\n  strategy: $0\n"),
        ["parallel-consensus", "sequential", "custom"]
    );
    assert_eq!(
        skill("constraints:\n  retry:\n    backoff: l$0\n"),
        ["exponential", "linear", "none"]
    );
    let topology = labels_of(&format!(
        "{WORKSPACE}//- /w/topologies/t.yaml\napiVersion: swarmkit/v1\nkind: Topology\nmetadata:\n  name: t\nruntime:\n  mode: $0\n"
    ));
    assert_eq!(topology, ["one-shot", "persistent", "scheduled"]);
    let workspace = labels_of(&format!(
        "{WORKSPACE}governance:\n  provider: $0\n//- /w/skills/x.yaml\nid: x\n"
    ));
    assert_eq!(workspace, ["agt", "mock", "custom"]);
    let decision = labels_of(&format!(
        "{WORKSPACE}governance:\n  decision_skills:\n    - id: judge\n      required: $0\n//- /w/skills/x.yaml\nid: x\n"
    ));
    assert_eq!(decision, ["true", "false"]);
    let funnel = items_of(&format!(
        "{WORKSPACE}//- /w/funnels/f.yaml\napiVersion: swarmkit/v1\nkind: Funnel\nmetadata:\n  id: f\nreview:\n  route_back_at: $0\n"
    ));
    assert_eq!(
        funnel.iter().map(|i| i.label.as_str()).collect::<Vec<_>>(),
        ["low", "medium", "high", "critical"]
    );
    // The key's description goes with each value.
    assert!(funnel[0].documentation.is_some(), "{funnel:?}");
}

#[test]
fn packs_commands_topologies_executors_and_funnel_references() {
    let base = format!(
        "{WORKSPACE}command_packs:\n  - id: git\n    commands:\n      - id: status\n        effects: read\n      - id: push\n//- /w/topologies/t.yaml\napiVersion: swarmkit/v1\nkind: Topology\nmetadata:\n  name: t\nagents:\n  root:\n    id: root\n    role: root\n//- /w/adapters/aider.yaml\napiVersion: swarmkit/v1\nkind: ExecutorAdapter\nmetadata:\n  id: aider\n//- /w/archetypes/rev.yaml\napiVersion: swarmkit/v1\nkind: Archetype\nmetadata:\n  id: rev\nrole: worker\n//- /w/skills/judge.yaml\napiVersion: swarmkit/v1\nkind: Skill\nmetadata:\n  id: judge\ncategory: decision\n//- /w/skills/other.yaml\napiVersion: swarmkit/v1\nkind: Skill\nmetadata:\n  id: other\ncategory: capability\n"
    );
    let skill = |body: &str| skill_labels(&base, body);
    assert_eq!(
        skill("implementation:\n  type: command\n  pack: $0\n"),
        ["git"]
    );
    assert_eq!(
        skill("implementation:\n  type: command\n  pack: git\n  command: $0\n"),
        ["status", "push"]
    );
    let topologies = skill("implementation:\n  type: agent\n  topology: $0\n");
    assert_eq!(topologies[0], "t");
    assert!(topologies.contains(&"swarmkit:author:skill".to_owned()));
    // The whole value is replaced, colons and all.
    let text = format!(
        "{base}//- /w/skills/s.yaml\napiVersion: swarmkit/v1\nkind: Skill\nmetadata:\n  id: s\nimplementation:\n  type: agent\n  topology: swarmkit:auth$0\n"
    );
    let f = fixture(&text);
    let found = completion(&f.index, f.cursor_file, f.offset).unwrap();
    let file = f.index.file(f.cursor_file).unwrap();
    assert_eq!(
        &file.text[found.range.start as usize..found.range.end as usize],
        "swarmkit:auth"
    );
    let archetype = labels_after(format!(
        "{base}//- /w/archetypes/a.yaml\napiVersion: swarmkit/v1\nkind: Archetype\nmetadata:\n  id: a\nrole: worker\n"
    ));
    let kinds = archetype("executor:\n  kind: $0\n");
    assert_eq!(&kinds[..2], ["model", "harness"]);
    assert!(kinds.contains(&"claude-code".to_owned()) && kinds.contains(&"aider".to_owned()));
    let refs = archetype("executor:\n  kind: harness\n  ref: $0\n");
    assert!(!refs.contains(&"model".to_owned()) && refs.contains(&"aider".to_owned()));
    let funnel = labels_after(format!(
        "{base}//- /w/funnels/f.yaml\napiVersion: swarmkit/v1\nkind: Funnel\nmetadata:\n  id: f\n"
    ));
    assert_eq!(funnel("judge:\n  skill: $0\n"), ["judge"]);
    assert_eq!(funnel("review:\n  archetype: $0\n"), ["rev"]);
}

#[test]
fn bulk_grants_and_trigger_targets_being_typed() {
    let packs =
        format!("{WORKSPACE}command_packs:\n  - id: git\n    commands:\n      - id: status\n");
    let topology = labels_after(format!(
        "{packs}mcp_servers:\n  - id: conventions\n//- /w/topologies/t.yaml\napiVersion: swarmkit/v1\nkind: Topology\nmetadata:\n  name: t\nagents:\n  root:\n    id: root\n"
    ));
    assert_eq!(topology("    skills: [pack:$0]\n"), ["git", "workspace"]);
    assert_eq!(
        topology("    skills:\n      - pack:g$0\n"),
        ["git", "workspace"]
    );
    assert_eq!(topology("    skills: [a, server:$0]\n"), ["conventions"]);
    let trigger = labels_after(format!(
        "{WORKSPACE}//- /w/topologies/t.yaml\napiVersion: swarmkit/v1\nkind: Topology\nmetadata:\n  name: nightly\n//- /w/triggers/t.yaml\napiVersion: swarmkit/v1\nkind: Trigger\nmetadata:\n  id: t\ntype: manual\n"
    ));
    // A block list and a flow list of targets.
    for targets in ["targets:\n  - $0\n", "targets: [$0]\n"] {
        assert_eq!(trigger(targets), ["nightly"], "{targets:?}");
    }
}

#[test]
fn an_enum_value_replaces_the_whole_word() {
    let text = format!(
        "{WORKSPACE}//- /w/skills/s.yaml\napiVersion: swarmkit/v1\nkind: Skill\nmetadata:\n  id: s\ncategory: capa$0bility\n"
    );
    let f = fixture(&text);
    let found = completion(&f.index, f.cursor_file, f.offset).expect("values");
    let file = f.index.file(f.cursor_file).unwrap();
    assert_eq!(
        &file.text[found.range.start as usize..found.range.end as usize],
        "capability"
    );
    assert_eq!(found.items[0].kind, CompletionKind::Value);
    assert!(found.items.iter().all(|i| i.detail.is_some()));
}

#[test]
fn enum_tables_match_the_bundled_schemas() {
    fn at<'v>(v: &'v serde_json::Value, path: &[&str]) -> &'v serde_json::Value {
        path.iter().fold(v, |v, key| match key.parse::<usize>() {
            Ok(i) => &v[i],
            Err(_) => &v[*key],
        })
    }
    fn labels(table: &[(&str, &str)]) -> Vec<String> {
        table.iter().map(|(l, _)| (*l).to_owned()).collect()
    }
    fn strings(v: &serde_json::Value) -> Vec<String> {
        v.as_array()
            .expect("an enum")
            .iter()
            .map(|s| s.as_str().unwrap().to_owned())
            .collect()
    }
    let parse = |text: &str| serde_json::from_str::<serde_json::Value>(text).unwrap();
    let skill = parse(include_str!("../../../schemas/skill.schema.json"));
    let topology = parse(include_str!("../../../schemas/topology.schema.json"));
    let trigger = parse(include_str!("../../../schemas/trigger.schema.json"));
    let workspace = parse(include_str!("../../../schemas/workspace.schema.json"));
    let archetype = parse(include_str!("../../../schemas/archetype.schema.json"));
    assert_eq!(
        strings(at(&skill, &["properties", "category", "enum"])),
        labels(CATEGORY)
    );
    let implementations: Vec<String> = at(&skill, &["$defs", "implementation", "oneOf"])
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            o["properties"]["type"]["const"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(implementations, labels(IMPLEMENTATION));
    assert_eq!(
        strings(at(
            &topology,
            &["$defs", "agent", "properties", "role", "enum"]
        )),
        labels(ROLE)
    );
    assert_eq!(
        at(
            &topology,
            &[
                "$defs",
                "agents",
                "properties",
                "root",
                "allOf",
                "1",
                "properties",
                "role",
                "const"
            ]
        ),
        ROLE[0].0
    );
    assert_eq!(
        strings(at(
            &topology,
            &[
                "$defs",
                "child_agent",
                "allOf",
                "1",
                "properties",
                "role",
                "enum"
            ]
        )),
        labels(&ROLE[1..])
    );
    assert_eq!(
        strings(at(&archetype, &["properties", "role", "enum"])),
        labels(ROLE)
    );
    assert_eq!(
        strings(at(&trigger, &["properties", "type", "enum"])),
        labels(TRIGGER)
    );
    assert_eq!(
        strings(at(
            &workspace,
            &["$defs", "mcp_server", "properties", "transport", "enum"]
        )),
        labels(TRANSPORT)
    );
}

const CHAIN_SKILLS: &str = "//- /r/s/unit/SKILL.md\n---\nname: unit\ndescription: d\n---\n//- /r/s/e2e/smoke/SKILL.md\n---\nname: smoke\ndescription: d\n---\n//- /r/other/far/SKILL.md\n---\nname: far\ndescription: d\n---\n";

#[test]
fn chain_entries_are_the_skills_they_would_resolve_to() {
    // The same parent folder first, then deeper; never the chain itself, nor a skill
    // outside the chain's parent folder (`far`).
    for chain in [
        "metadata:\n  chain: [unit, $0]\n",
        "metadata:\n  chain:\n    - unit\n    - sm$0\n",
        "metadata:\n  chain:\n  - $0\n",
    ] {
        let text = format!(
            "//- /r/s/chain/SKILL.md\n---\nname: chain\ndescription: d\n{chain}---\n{CHAIN_SKILLS}"
        );
        let found = complete(&text).expect("chain entries");
        let labels = item_labels(&found);
        assert_eq!(labels, ["unit", "smoke"], "{chain}");
        assert_eq!(
            found.items[1].detail.as_deref(),
            Some("SKILL.md at e2e/smoke/SKILL.md")
        );
        assert_eq!(found.items[0].kind, CompletionKind::Skill);
    }
    // A `chain` that is not under `metadata` is not a chain.
    assert!(labels_of(&format!(
        "//- /r/s/chain/SKILL.md\n---\nname: chain\ndescription: d\nchain:\n  - $0\n---\n{CHAIN_SKILLS}"
    ))
    .is_empty());
}

#[test]
fn chain_option_values() {
    let option = |line: &str| {
        labels_of(&format!(
            "//- /r/s/chain/SKILL.md\n---\nname: chain\ndescription: d\nmetadata:\n  chain: [unit]\n{line}\n---\n"
        ))
    };
    assert_eq!(
        option("  early_exit_on: $0"),
        ["none", "failure", "success", "critical"]
    );
    assert_eq!(option("  retry_until: st$0"), ["none", "stable", "success"]);
    assert_eq!(option("  async: $0"), ["true", "false"]);
    assert_eq!(
        option("  early_exit_on: \"fa$0\""),
        crate::model::skill_md::extensions::EARLY_EXIT_ON
            .iter()
            .map(|v| v.value)
            .collect::<Vec<_>>()
    );
    assert!(option("  timeout: $0").is_empty());
    for key in ["async", "race_mode", "early_exit_on", "retry_until"] {
        assert!(super::skill_md::chain_option_values(key).is_some(), "{key}");
    }
}

const INVENTORY: &str =
    "//- /r/skillgraph.toml\n[tools]\navailable = [\"get_order\"]\npresets = [\"claude-code\"]\n";

fn tool_labels(frontmatter: &str) -> Vec<String> {
    labels_of(&format!(
        "{INVENTORY}//- /r/s/refund/SKILL.md\n---\nname: refund\ndescription: dé jà vu — ünïcode\n{frontmatter}---\n"
    ))
}

#[test]
fn tools_of_the_inventory_where_a_tool_goes() {
    for place in [
        "dependencies:\n  tools: [get_order, $0]\n",
        "dependencies:\n  tools:\n    - $0\n",
        "dependencies:\n  tools:\n    any: [$0]\n",
        "dependencies:\n  tools:\n    all:\n      - ge$0\n",
        "metadata:\n  action_tool: $0\n",
        "metadata:\n  precondition: $0\n",
        "metadata:\n  precondition: [{tool: $0}]\n",
        "metadata:\n  precondition:\n    - tool: $0\n",
        "metadata:\n  precondition:\n    - $0\n",
    ] {
        let labels = tool_labels(place);
        assert!(
            labels.contains(&"get_order".to_owned()),
            "{place}: {labels:?}"
        );
        assert!(labels.contains(&"Read".to_owned()), "{place}: {labels:?}");
    }
    // Resources are not tools, and a value already written is not completed again.
    assert!(tool_labels("dependencies:\n  resources: [$0]\n").is_empty());
    assert!(tool_labels("metadata:\n  action_tool: a b $0\n").is_empty());
    let found = complete(&format!(
        "{INVENTORY}//- /r/s/refund/SKILL.md\n---\nname: refund\ndescription: d\nmetadata:\n  action_tool: get_o$0\n---\n"
    ))
    .expect("tools");
    let item = found.items.iter().find(|i| i.label == "get_order").unwrap();
    assert_eq!(item.kind, CompletionKind::Tool);
    assert_eq!(
        item.detail.as_deref(),
        Some("tool from `[tools] available` of skillgraph.toml")
    );
    assert!(item
        .documentation
        .as_deref()
        .unwrap()
        .contains("/r/skillgraph.toml"));
    let read = found.items.iter().find(|i| i.label == "Read").unwrap();
    assert_eq!(
        read.detail.as_deref(),
        Some("tool from the `claude-code` preset")
    );
    assert_eq!(found.range.len(), "get_o".len() as u32);
    // Without an inventory there is nothing to offer.
    assert!(
        labels_of("//- /r/s/a/SKILL.md\n---\nname: a\nmetadata:\n  action_tool: $0\n---\n")
            .is_empty()
    );
}

#[test]
fn precondition_ops_and_chain_option_keys_from_the_tables() {
    for place in [
        "metadata:\n  precondition:\n    - state:\n        path: order.status\n        op: $0\n",
        "metadata:\n  precondition: [{state: {path: order.status, op: $0}}]\n",
    ] {
        assert_eq!(tool_labels(place), ["eq", "neq", "in", "exists"], "{place}");
    }
    let found = complete(
        "//- /r/s/a/SKILL.md\n---\nname: a\nmetadata:\n  precondition: {state: {op: e$0}}\n---\n",
    )
    .expect("ops");
    assert!(found.items[0]
        .documentation
        .as_deref()
        .unwrap()
        .contains("equals"));
    // Beside a chain, the options not written yet, each documented from the one table.
    let found = complete(
        "//- /r/s/a/SKILL.md\n---\nname: a\nmetadata:\n  chain: [b]\n  async: true\n  ti$0\n---\n",
    )
    .expect("options");
    let labels = item_labels(&found);
    assert!(labels.contains(&"timeout"), "{labels:?}");
    assert!(!labels.contains(&"async"), "{labels:?}");
    assert_eq!(labels.len(), CHAIN_OPTIONS.len() - 1);
    let timeout = found.items.iter().find(|i| i.label == "timeout").unwrap();
    assert!(timeout
        .documentation
        .as_deref()
        .unwrap()
        .contains("default `0`"));
}

#[test]
fn flow_mappings_answer_as_block_mappings_do() {
    let before =
        format!("{WORKSPACE}command_packs:\n  - id: git\n    commands:\n      - id: status\n");
    let skill = |body: &str| skill_labels(&before, body);
    assert_eq!(
        skill("implementation: {type: $0}\n"),
        ["mcp_tool", "llm_prompt", "composed", "command", "agent"]
    );
    assert_eq!(
        skill("implementation: {type: mcp_tool, $0}\n"),
        ["server", "tool", "arguments"]
    );
    assert_eq!(
        skill("implementation: {type: command, pack: $0}\n"),
        ["git"]
    );
    assert_eq!(
        skill("implementation: {type: command, pack: git, command: $0}\n"),
        ["status"]
    );
    let servers = |line: &str| labels_of(&format!("{WORKSPACE}mcp_servers:\n{line}"));
    assert_eq!(servers("  - {id: a, transport: $0}\n"), ["stdio", "http"]);
    assert_eq!(
        servers("  - {id: a, transport: \"h$0\"}\n"),
        ["stdio", "http"]
    );
    let keys = servers("  - {id: a, $0}\n");
    assert!(keys.contains(&"transport".to_owned()), "{keys:?}");
    assert!(!keys.contains(&"id".to_owned()), "{keys:?}");
    // An abstract grant in a flow list is the schema's, not a skill id.
    let archetype = labels_after(format!(
        "{WORKSPACE}//- /w/skills/a.yaml\napiVersion: swarmkit/v1\nkind: Skill\nmetadata:\n  id: alpha\n//- /w/archetypes/e.yaml\napiVersion: swarmkit/v1\nkind: Archetype\nmetadata:\n  id: e\n"
    ));
    assert_eq!(
        archetype("defaults:\n  skills: [{abstract: {category: $0}}]\n"),
        ["capability", "decision", "coordination", "persistence"]
    );
    assert_eq!(
        archetype("defaults:\n  skills: [alpha, {abstract: {category: decision, $0}}]\n"),
        ["capability"]
    );
    assert_eq!(
        archetype("defaults:\n  skills:\n    - {abstract: {$0}}\n"),
        ["category", "capability"]
    );
    assert!(archetype("defaults:\n  skills: [$0]\n").contains(&"alpha".to_owned()));
    let topology = labels_after(format!(
        "{WORKSPACE}//- /w/skills/a.yaml\napiVersion: swarmkit/v1\nkind: Skill\nmetadata:\n  id: alpha\n//- /w/topologies/t.yaml\napiVersion: swarmkit/v1\nkind: Topology\nmetadata:\n  name: t\nagents:\n  root:\n    id: root\n"
    ));
    assert!(topology("    skills: [alpha, $0]\n").contains(&"topology-t".to_owned()));
    assert_eq!(
        topology("    children: [{id: w, role: $0}]\n"),
        ["leader", "worker"]
    );
    // Past a flow value already written, nothing.
    assert!(servers("  - {id: a, transport: stdio $0}\n").is_empty());
}

#[test]
fn an_mcp_tool_offers_the_tools_of_its_servers_saved_tool_list() {
    let workspace = |tool_list: &str, body: &str| {
        format!(
            "//- /w/skillgraph.toml\n[tools]\nmcp-tool-lists = [\"tools/conventions.json\"]\n{tool_list}{WORKSPACE}mcp_servers:\n  - id: conventions\n  - id: other\n//- /w/skills/s.yaml\napiVersion: swarmkit/v1\nkind: Skill\nmetadata:\n  id: s\n{body}"
        )
    };
    let list = "//- /w/tools/conventions.json\n{\"tools\": [{\"name\": \"get_convention\"}, {\"name\": \"list_conventions\"}]}\n";
    for body in [
        "implementation:\n  type: mcp_tool\n  server: conventions\n  tool: $0\n",
        "implementation:\n  type: mcp_tool\n  server: conventions\n  tool: list_$0\n",
        "implementation: {type: mcp_tool, server: conventions, tool: $0}\n",
    ] {
        let found = complete(&workspace(list, body)).expect("tools");
        let labels = item_labels(&found);
        assert_eq!(labels, ["get_convention", "list_conventions"], "{body}");
        let item = &found.items[0];
        assert_eq!(item.kind, CompletionKind::Tool);
        assert_eq!(
            item.detail.as_deref(),
            Some("tool of MCP server `conventions`")
        );
        assert!(
            item.documentation
                .as_deref()
                .unwrap()
                .contains("tools/conventions.json"),
            "{item:?}"
        );
    }
    // Another server has no saved list, and without a list there is nothing to offer.
    assert!(labels_of(&workspace(
        list,
        "implementation:\n  type: mcp_tool\n  server: other\n  tool: $0\n"
    ))
    .is_empty());
    assert!(labels_of(&workspace(
        "",
        "implementation:\n  type: mcp_tool\n  server: conventions\n  tool: $0\n"
    ))
    .is_empty());
    // The server's `permission_overrides` keys are the same tools.
    let manifest = format!(
        "//- /w/skillgraph.toml\n[tools]\nmcp-tool-lists = [\"tools/conventions.json\"]\n{list}{WORKSPACE}mcp_servers:\n  - id: conventions\n    permission_overrides:\n      get_convention: open\n      $0\n"
    );
    assert_eq!(labels_of(&manifest), ["list_conventions"]);
}

#[test]
fn override_keys_are_the_packs_commands() {
    let manifest = |overrides: &str| {
        labels_of(&format!(
            "{WORKSPACE}command_packs:\n  - id: git\n    commands:\n      - id: status\n        effects: read\n      - id: push\n{overrides}  - id: make\n    commands:\n      - id: build\n"
        ))
    };
    assert_eq!(
        manifest("    permission_overrides:\n      $0\n"),
        ["status", "push"]
    );
    assert_eq!(
        manifest("    timeout_overrides:\n      push: 60\n      st$0\n"),
        ["status"]
    );
    assert_eq!(
        manifest("    permission_overrides: {push: strict, $0}\n"),
        ["status"]
    );
    let found = complete(&format!(
        "{WORKSPACE}command_packs:\n  - {{id: git, commands: [{{id: status, effects: read}}], timeout_overrides: {{$0}}}}\n"
    ))
    .expect("commands");
    assert_eq!(found.items.len(), 1);
    assert_eq!(found.items[0].label, "status");
    assert_eq!(
        found.items[0].detail.as_deref(),
        Some("command of `git` (read)")
    );
    assert!(found.items[0].documentation.is_some());
    // The values are the tiers, as the schema has them.
    assert_eq!(
        manifest("    permission_overrides:\n      push: $0\n"),
        ["open", "cautious", "strict", "readonly"]
    );
}

#[test]
fn dependency_types_groups_and_predicate_keys_from_the_tables() {
    let keys = |frontmatter: &str| {
        let found = complete(&format!(
            "//- /r/s/a/SKILL.md\n---\nname: a\ndescription: ü\n{frontmatter}---\n"
        ));
        found.map(|c| c.items).unwrap_or_default()
    };
    let labels = |frontmatter: &str| -> Vec<String> {
        keys(frontmatter).into_iter().map(|i| i.label).collect()
    };
    // Block and flow mappings alike; a key written already is not offered again.
    assert_eq!(
        labels("dependencies:\n  $0\n"),
        ["tools", "resources", "prompts"]
    );
    assert_eq!(
        labels("dependencies:\n  tools: [Read]\n  re$0\n"),
        ["resources", "prompts"]
    );
    assert_eq!(
        labels("dependencies: {tools: [Read], $0}\n"),
        ["resources", "prompts"]
    );
    assert_eq!(labels("dependencies:\n  tools:\n    $0\n"), ["all", "any"]);
    assert_eq!(
        labels("dependencies:\n  prompts: {all: [p], $0}\n"),
        ["any"]
    );
    // Not under a type the table does not know, nor under `metadata`.
    assert!(labels("dependencies:\n  widgets:\n    $0\n").is_empty());
    assert!(labels("metadata:\n  owner: x\n  $0\n").is_empty());
    assert_eq!(
        labels("metadata:\n  precondition:\n    $0\n"),
        ["tool", "state"]
    );
    assert_eq!(
        labels("metadata:\n  precondition: [{tool: a}, {$0}]\n"),
        ["tool", "state"]
    );
    assert_eq!(
        labels("metadata:\n  precondition:\n    state:\n      path: a.b\n      $0\n"),
        ["op", "value"]
    );
    assert_eq!(
        labels("metadata:\n  precondition: {state: {path: a.b, op: eq, $0}}\n"),
        ["value"]
    );
    let tools = keys("dependencies:\n  to$0\n");
    let item = &tools[0];
    assert_eq!(item.kind, CompletionKind::Field);
    assert_eq!(item.detail.as_deref(), Some(DEPENDENCY_TYPES[0].doc));
    assert!(item
        .documentation
        .as_deref()
        .unwrap()
        .contains("dependency type"));
}

#[test]
fn frontmatter_keys() {
    let found = complete("//- /r/s/a/SKILL.md\n---\nname: a\ndescription: d\nlic$0\n---\nbody\n")
        .expect("keys");
    let labels = item_labels(&found);
    assert!(labels.contains(&"license"), "{labels:?}");
    assert!(labels.contains(&"metadata"), "{labels:?}");
    assert!(!labels.contains(&"name"), "{labels:?}");
    assert!(!labels.contains(&"description"), "{labels:?}");
    let license = found.items.iter().find(|i| i.label == "license").unwrap();
    assert_eq!(license.kind, CompletionKind::Field);
    assert_eq!(
        license.detail.as_deref(),
        crate::model::skill_md::known_field("license").map(|f| f.hover)
    );
    assert_eq!(found.range.len(), 3);
    // On the written key itself, that key is offered too.
    assert!(labels_of("//- /r/s/a/SKILL.md\n---\nna$0me: a\n---\n").contains(&"name".to_owned()));
    // Not in the body, nor below a key.
    assert!(complete("//- /r/s/a/SKILL.md\n---\nname: a\n---\nli$0\n").is_none());
    assert!(labels_of("//- /r/s/a/SKILL.md\n---\nname: a\nmetadata:\n  au$0\n---\n").is_empty());
}

/// A fresh line at a mapping's or a list's indentation answers as the line with a letter typed
/// would (the client filters by what is typed, so the items are the same), at every place of
/// completion: each `(text with a blank cursor line, the same with a letter typed)` offers the
/// same labels, and some.
#[test]
fn a_blank_line_answers_as_a_typed_prefix_would() {
    let topology = |agents: &str| {
        format!("{BASE}//- /w/topologies/t.yaml\napiVersion: swarmkit/v1\nkind: Topology\nmetadata:\n  name: t\nagents:\n  root:\n{agents}")
    };
    // A child agent followed by another: the blank line lies just before the next item.
    let child = |lines: &str| {
        topology(&format!(
            "    id: root\n    children:\n      - id: w\n        role: worker\n        skills: [alpha, beta]\n{lines}      - id: v\n        role: worker\n"
        ))
    };
    let skill_md = |frontmatter: &str| {
        format!("//- /r/s/b/SKILL.md\n---\nname: b\ndescription: d\n---\n//- /r/s/a/SKILL.md\n---\nname: a\ndescription: d\n{frontmatter}---\nbody\n")
    };
    let places: Vec<(&str, String)> = vec![
        ("requires: key", child("        requires:\n          {}\n")),
        ("requires: key of the root", topology("    id: root\n    skills: [alpha, beta]\n    requires:\n      {}\n    children:\n      - id: w\n")),
        ("requires: prerequisite item", child("        requires:\n          beta:\n            - {}\n")),
        ("grants", child("        skills_additional:\n          - {}\n")),
        ("depends_on item", child("        depends_on:\n          - {}\n")),
        ("archetype:", child("        archetype: {}\n")),
        ("agent keys", child("        {}\n")),
        ("enum value", topology("    id: root\n    role: {}\n    children:\n      - id: w\n")),
        ("SKILL.md field", skill_md("{}\n")),
        ("SKILL.md chain entry", skill_md("metadata:\n  chain:\n    - {}\n")),
        ("SKILL.md chain option value", skill_md("metadata:\n  chain: [b]\n  early_exit_on: {}\n")),
    ];
    for (place, template) in places {
        let blank = labels_of(&template.replace("{}", "$0"));
        let typed = labels_of(&template.replace("{}", "b$0"));
        assert!(!typed.is_empty(), "{place}: nothing offered after a letter");
        assert_eq!(blank, typed, "{place}");
    }
}

#[test]
fn after_a_dollar_arguments_come_before_skills_and_hide_a_skill_of_their_name() {
    let text = FIX_SKILL.replace("; `$bogus`.", " $$0")
        + "//- /p/.claude/skills/issue/SKILL.md\n---\nname: issue\ndescription: I.\n---\nBody.\n";
    let got = complete(&text).unwrap();
    assert_eq!(
        item_labels(&got),
        ["issue", "branch", "ARGUMENTS", "2", "fix"]
    );
    assert_eq!(got.items[0].kind, CompletionKind::Argument);
    // After `/`, only skills.
    assert_eq!(labels_of(&text.replace(" $$0", " /$0")), ["fix", "issue"]);
}

#[test]
fn the_portable_form_completes_as_the_nested_one() {
    let chain = format!(
        "//- /r/s/chain/SKILL.md\n---\nname: chain\ndescription: d\nmetadata:\n  chain: \"unit, sm$0\"\n---\n{CHAIN_SKILLS}"
    );
    assert_eq!(labels_of(&chain), ["unit", "smoke"]);
    let tools = "//- /r/skillgraph.toml\n[tools]\navailable = [\"get_order\", \"get_status\"]\n//- /r/s/gate/SKILL.md\n---\nname: gate\ndescription: d\nmetadata:\n  PLACE\n---\n";
    let at = |place: &str| labels_of(&tools.replace("PLACE", place));
    assert_eq!(
        at("dependencies: \"tools.all: get_$0\""),
        ["get_order", "get_status"]
    );
    assert_eq!(at("dependencies: \"tools.$0\""), ["all", "any"]);
    assert_eq!(
        at("dependencies: \"$0\""),
        ["tools", "resources", "prompts"]
    );
    assert_eq!(
        at("precondition: \"get_order; tool: $0\""),
        ["get_order", "get_status"]
    );
    assert_eq!(
        at("precondition: \"state: order.status $0\""),
        ["eq", "neq", "in", "exists"]
    );
}

#[test]
fn state_paths_and_values_come_from_the_workspace_in_both_forms() {
    // Two other skills test states, one in each form; the cursor's skill is written in either.
    let others = "//- /r/s/paid/SKILL.md\n---\nname: paid\ndescription: d\nmetadata:\n  precondition:\n    - state: {path: order.status, op: in, value: [paid, refunded]}\n    - state: {path: order.id, op: exists}\n---\n//- /r/s/open/SKILL.md\n---\nname: open\ndescription: d\nmetadata:\n  precondition: \"state: order.status eq open; state: cart.size neq 0\"\n---\n";
    let at = |place: &str| {
        labels_of(&format!(
            "{others}//- /r/s/gate/SKILL.md\n---\nname: gate\ndescription: d\nmetadata:\n  {place}\n---\n"
        ))
    };
    let paths = ["cart.size", "order.id", "order.status"];
    assert_eq!(at("precondition: \"state: $0\""), paths);
    assert_eq!(at("precondition: \"get_order; state: ord$0\""), paths);
    assert_eq!(at("precondition: {state: {path: $0}}"), paths);
    assert_eq!(at("precondition:\n    - state:\n        path: or$0"), paths);
    let status = ["open", "paid", "refunded"];
    assert_eq!(at("precondition: \"state: order.status eq $0\""), status);
    assert_eq!(
        at("precondition: \"state: order.status in [open, $0\""),
        status
    );
    assert_eq!(
        at("precondition: {state: {path: order.status, op: eq, value: $0}}"),
        status
    );
    assert_eq!(
        at("precondition:\n    - state:\n        path: order.status\n        op: in\n        value: [$0]"),
        status
    );
    assert_eq!(at("precondition: \"state: cart.size neq $0\""), ["0"]);
    // `exists` takes no value; a path nobody compares has none to offer.
    assert!(at("precondition: \"state: order.id exists $0\"").is_empty());
    assert!(at("precondition: \"state: order.id eq $0\"").is_empty());
    // A predicate's start offers the tools and the two predicate forms, as the nested keys.
    assert_eq!(at("precondition: \"get_order; $0\""), ["tool:", "state:"]);
    // The path being typed is not offered back to itself.
    let alone = labels_of("//- /r/s/gate/SKILL.md\n---\nname: gate\ndescription: d\nmetadata:\n  precondition: \"state: ord$0\"\n---\n");
    assert!(alone.is_empty(), "{alone:?}");
}
