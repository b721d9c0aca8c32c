use std::path::{Path, PathBuf};
use std::process::Command;

use expect_test::{expect, expect_file};

use super::*;
use crate::diagnostic::codes;
use crate::index::Index;
use crate::testing::index_of;

fn everything(index: &Index) -> OrderingGraph {
    build(index, &selection("/", None, None)).expect("no narrowing")
}

fn selection(root: &str, topology: Option<&str>, agent: Option<&str>) -> Selection {
    Selection {
        roots: vec![PathBuf::from(root)],
        topology: topology.map(str::to_owned),
        agent: agent.map(str::to_owned),
    }
}

fn demo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/demo")
}

/// The demo workspace read as a fixture: every file below it handed to the index as it is on
/// disk. Discovery (what it skips, the lists of a skill's folder) is not what these tests are
/// about, and it lives in a layer above this one.
fn demo() -> (Index, PathBuf) {
    let root = std::path::absolute(demo_root()).expect("absolute path");
    let mut changes = Vec::new();
    let mut folders = vec![root.clone()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).expect("the demo folder reads") {
            let path = entry.expect("a readable entry").path();
            if path.is_dir() {
                folders.push(path);
            } else {
                let text = std::fs::read_to_string(&path).expect("the demo's files are UTF-8");
                changes.push(crate::index::Change::Set {
                    path,
                    text: text.into(),
                });
            }
        }
    }
    changes.sort_by(|a, b| a.path().cmp(b.path()));
    let mut index = Index::new(&crate::rules::CHECKS);
    index.apply(changes);
    (index, root)
}

fn demo_graph() -> OrderingGraph {
    let (index, root) = demo();
    build(
        &index,
        &Selection {
            roots: vec![root],
            ..Selection::default()
        },
    )
    .expect("no narrowing")
}

/// The skill file of `id` with implementation `kind`.
fn skill(id: &str, kind: &str) -> String {
    skill_file(id, id, kind)
}

/// The skill file `/ws/skills/<stem>.yaml` whose id is written `id` (quoted when it must be).
fn skill_file(stem: &str, id: &str, kind: &str) -> String {
    let implementation = match kind {
        "mcp_tool" => "  type: mcp_tool\n  server: s\n  tool: t\n".to_owned(),
        "llm_prompt" => "  type: llm_prompt\n  prompt: p\n".to_owned(),
        other => format!("  type: {other}\n"),
    };
    format!(
        "//- /ws/skills/{stem}.yaml\napiVersion: swarmkit/v1\nkind: Skill\nmetadata:\n  id: {id}\n  name: {id}\n  description: d\ncategory: capability\nimplementation:\n{implementation}"
    )
}

const MANIFEST: &str = "//- /ws/workspace.yaml
apiVersion: swarmkit/v1
kind: Workspace
metadata:
  id: ws
  name: ws
mcp_servers:
  - id: s
    transport: stdio
    command: [s]
";

/// `/ws/topologies/t.yaml`: a topology whose `metadata` holds the lines `metadata` and whose
/// root agent `id` has the field lines `fields`, then the rules `requires`.
fn topology_file(metadata: &str, id: &str, fields: &str, requires: &str) -> String {
    format!(
        "//- /ws/topologies/t.yaml\napiVersion: swarmkit/v1\nkind: Topology\nmetadata:\n{metadata}agents:\n  root:\n    id: {id}\n    role: root\n{fields}    requires:\n{requires}"
    )
}

/// A workspace with one topology whose agent `a` holds `skills` and has `requires`.
fn one_agent(skills: &[(&str, &str)], requires: &str) -> Index {
    let mut text = MANIFEST.to_owned();
    let ids: Vec<&str> = skills.iter().map(|(id, _)| *id).collect();
    let fields = format!(
        "    model:\n      provider: anthropic\n      name: m\n    prompt:\n      system: s\n    skills: [{}]\n",
        ids.join(", ")
    );
    text.push_str(&topology_file(
        "  name: t\n  version: 1.0.0\n",
        "a",
        &fields,
        requires,
    ));
    for (id, kind) in skills {
        text.push_str(&skill(id, kind));
    }
    index_of(&text)
}

/// The SKILL.md of skill `name` in `/skills/<name>/`, with the `metadata` lines given (none:
/// no `metadata`).
fn skill_md(name: &str, metadata: &str) -> String {
    let metadata = if metadata.is_empty() {
        String::new()
    } else {
        format!("metadata:\n{metadata}")
    };
    format!(
        "//- /skills/{name}/SKILL.md\n---\nname: {name}\ndescription: Does {name}. Use when asked.\n{metadata}---\n"
    )
}

fn node<'g>(graph: &'g OrderingGraph, kind: NodeKind, name: &str) -> &'g GraphNode {
    graph
        .nodes
        .iter()
        .find(|n| n.kind == kind && n.name == name)
        .unwrap_or_else(|| panic!("no {kind:?} node {name}"))
}

#[test]
fn demo_mermaid_snapshot() {
    expect_file!["snapshots/demo.mmd"].assert_eq(&mermaid::render(&demo_graph()));
}

#[test]
fn demo_dot_snapshot() {
    expect_file!["snapshots/demo.dot"].assert_eq(&dot::render(&demo_graph()));
}

#[test]
fn demo_json_snapshot() {
    expect_file!["snapshots/demo.json"].assert_eq(&json::render(&demo_graph()));
}

#[test]
fn demo_shows_exactly_the_cycles_and_blocked_skills_the_rules_report() {
    let graph = demo_graph();
    let with = |style: Style| -> Vec<String> {
        let mut names: Vec<String> = graph
            .nodes
            .iter()
            .filter(|n| n.state.holds(style))
            .map(|n| format!("{}:{}", n.kind.as_str(), n.name))
            .collect();
        names.sort();
        names
    };
    assert_eq!(
        with(Style::Cycle),
        [
            "agent:checker",
            "agent:publisher",
            "agent:reviewer",
            "composed:format-findings",
            "composed:render-report",
            "skill-md:ship",
            "skill-md:verify",
            "skill:get-build-convention",
            "skill:list-build-conventions",
        ]
    );
    assert_eq!(
        with(Style::Blocked),
        ["skill:get-build-convention", "skill:search-solution-code"]
    );
    // The same facts as diagnostics: one cycle diagnostic per tangle, one unsatisfiable per
    // blocked guarded skill.
    let (index, _) = demo();
    let mut codes: Vec<String> = index
        .files()
        .flat_map(|f| index.diagnostics(f.id))
        .map(|d| d.code.to_string())
        .filter(|c| c.ends_with("-cycle") || *c == codes::AGENT_REQUIRES_UNSATISFIABLE)
        .collect();
    codes.sort();
    assert_eq!(
        codes,
        [
            codes::AGENT_DEPENDS_ON_CYCLE,
            codes::AGENT_DEPENDS_ON_CYCLE,
            codes::AGENT_REQUIRES_CYCLE,
            codes::AGENT_REQUIRES_UNSATISFIABLE,
            codes::AGENT_REQUIRES_UNSATISFIABLE,
            codes::SKILL_COMPOSED_CYCLE,
            codes::SKILL_COMPOSED_CYCLE,
            codes::SKILLMD_CHAIN_CYCLE,
        ]
    );
}

#[test]
fn a_requires_cycle_is_styled_on_its_skills_and_edges_and_has_no_call_order() {
    let index = one_agent(
        &[("x", "mcp_tool"), ("y", "mcp_tool"), ("z", "mcp_tool")],
        "      x: [y]\n      y: [x]\n      z: [x]\n",
    );
    let graph = everything(&index);
    expect![[r#"
        flowchart LR
          subgraph c0["topology t (topologies/t.yaml)"]
            n0["a<br>agent"]
            subgraph c1["requires: of agent a"]
              n1["x<br>mcp_tool, cycle"]
              n2["y<br>mcp_tool, cycle"]
              n3["z<br>mcp_tool, blocked"]
            end
          end
          subgraph legend["Legend"]
            legend0["cycle: caught in a loop, never runs"]
            legend1["blocked: can never run, something it needs never succeeds"]
            legend2["unsatisfiable: never recorded as called (not an mcp_tool)"]
            legend3["not enforced: no gate checks its prerequisites"]
            legend4["missing: no such skill, or one the agent does not hold"]
            legend_arrow0["thin arrow: call before (requires), or a chain's call, numbered in chain order"]
            legend_arrow1["thick arrow: finishes before the next agent starts (depends_on)"]
            legend_arrow2["dotted arrow: composes, numbered in composes order"]
            legend_arrow3["N. before a skill: its place in a call order that satisfies every rule"]
            legend_arrow4["circle-ended arrow labelled mentions: the file names the skill in prose (/name, $name); not ordering"]
            legend_arrow5["arrow labelled preloads: the subagent's skills: loads the skill when it starts"]
            legend_arrow6["arrow labelled runs in: the forked skill (context: fork) runs in that subagent (agent:)"]
          end
          n2 --> n1
          n1 --> n2
          n1 --> n3
          classDef cycle fill:#f8c9c9,stroke:#c62828,color:#000000
          classDef blocked fill:#ffe0b2,stroke:#e65100,color:#000000
          classDef unsatisfiable fill:#e1d5f0,stroke:#6a1b9a,color:#000000
          classDef not_enforced fill:#eeeeee,stroke:#757575,color:#000000
          classDef missing fill:#ffffff,stroke:#9e9e9e,color:#000000
          class n1 cycle
          class n2 cycle
          class n3 blocked
          class legend0 cycle
          class legend1 blocked
          class legend2 unsatisfiable
          class legend3 not_enforced
          class legend4 missing
          linkStyle 0,1 stroke:#c62828,stroke-width:2px
          linkStyle 2 stroke:#e65100,stroke-width:2px,stroke-dasharray:5 5
    "#]]
    .assert_eq(&mermaid::render(&graph));
    assert!(graph.nodes.iter().all(|n| n.call_order.is_none()));
}

#[test]
fn a_blocked_skill_and_its_unsatisfiable_prerequisite_with_the_call_order_of_the_rest() {
    let index = one_agent(
        &[
            ("list", "mcp_tool"),
            ("get", "mcp_tool"),
            ("notes", "llm_prompt"),
            ("write", "mcp_tool"),
            ("think", "llm_prompt"),
        ],
        "      get: [list]\n      write: [get, notes]\n      think: [list]\n",
    );
    let graph = everything(&index);
    expect![[r##"
        digraph ordering {
          rankdir=LR;
          node [shape=box, style="rounded,filled", fillcolor="#ffffff", fontname="Helvetica"];
          edge [fontname="Helvetica"];
          subgraph cluster_0 {
            label="topology t (topologies/t.yaml)";
            n0 [label="a\nagent"];
            subgraph cluster_1 {
              label="requires: of agent a";
              n1 [label="2. get\nmcp_tool"];
              n2 [label="1. list\nmcp_tool"];
              n3 [label="write\nmcp_tool, blocked", fillcolor="#ffe0b2", color="#e65100", penwidth=2];
              n4 [label="3. notes\nllm_prompt, unsatisfiable", fillcolor="#e1d5f0", color="#6a1b9a", penwidth=2];
              n5 [label="4. think\nllm_prompt, not enforced", fillcolor="#eeeeee", color="#757575", penwidth=2];
            }
          }
          subgraph cluster_legend {
            label="Legend";
            legend0 [label="cycle: caught in a loop, never runs", fillcolor="#f8c9c9", color="#c62828", penwidth=2];
            legend1 [label="blocked: can never run, something it needs never succeeds", fillcolor="#ffe0b2", color="#e65100", penwidth=2];
            legend2 [label="unsatisfiable: never recorded as called (not an mcp_tool)", fillcolor="#e1d5f0", color="#6a1b9a", penwidth=2];
            legend3 [label="not enforced: no gate checks its prerequisites", fillcolor="#eeeeee", color="#757575", penwidth=2];
            legend4 [label="missing: no such skill, or one the agent does not hold", fillcolor="#ffffff", color="#9e9e9e", penwidth=2];
            legend_arrow0 [label="thin arrow: call before (requires), or a chain's call, numbered in chain order", shape=plaintext, style=""];
            legend_arrow1 [label="thick arrow: finishes before the next agent starts (depends_on)", shape=plaintext, style=""];
            legend_arrow2 [label="dotted arrow: composes, numbered in composes order", shape=plaintext, style=""];
            legend_arrow3 [label="N. before a skill: its place in a call order that satisfies every rule", shape=plaintext, style=""];
            legend_arrow4 [label="circle-ended arrow labelled mentions: the file names the skill in prose (/name, $name); not ordering", shape=plaintext, style=""];
            legend_arrow5 [label="arrow labelled preloads: the subagent's skills: loads the skill when it starts", shape=plaintext, style=""];
            legend_arrow6 [label="arrow labelled runs in: the forked skill (context: fork) runs in that subagent (agent:)", shape=plaintext, style=""];
          }
          n2 -> n1;
          n1 -> n3;
          n4 -> n3 [color="#e65100", penwidth=2, style=dashed];
          n2 -> n5;
        }
    "##]]
    .assert_eq(&dot::render(&graph));
}

/// An agent whose rules name skills it does not hold, one binding arguments, and a guarded
/// skill it does not hold whose prerequisite it holds.
fn rules_over_missing_skills() -> Index {
    one_agent(
        &[("list", "mcp_tool"), ("get", "mcp_tool")],
        "      get: [list, lst]\n      deploy: [get]\n      ship: [build, lst]\n      get(id=1): [list]\n",
    )
}

#[test]
fn every_rule_written_is_drawn_and_its_missing_ends_carry_their_code() {
    let index = rules_over_missing_skills();
    let graph = everything(&index);
    let unknown = codes::AGENT_REQUIRES_UNKNOWN_SKILL;
    let names: Vec<(&str, Option<Code>)> = graph
        .nodes
        .iter()
        .filter(|n| n.kind == NodeKind::Skill)
        .map(|n| (n.name.as_str(), n.code))
        .collect();
    assert_eq!(
        names,
        [
            ("get", None),
            ("list", None),
            ("lst", Some(unknown)),
            ("deploy", Some(unknown)),
            ("ship", Some(unknown)),
            ("build", Some(unknown)),
            ("get(id=1)", Some(codes::AGENT_REQUIRES_PARAMETERISED)),
        ]
    );
    for (name, code) in &names {
        let drawn = node(&graph, NodeKind::Skill, name);
        assert_eq!(drawn.state.missing, code.is_some(), "{name}");
        // Only what the analysis orders has a call order.
        assert_eq!(drawn.call_order.is_some(), code.is_none(), "{name}");
    }
    // Every prerequisite written is an edge: (from, to) by name, each once (`lst` twice).
    let edges: Vec<(&str, &str)> = graph
        .edges
        .iter()
        .map(|e| {
            (
                graph.nodes[e.from].name.as_str(),
                graph.nodes[e.to].name.as_str(),
            )
        })
        .collect();
    assert_eq!(
        edges,
        [
            ("list", "get"),
            ("lst", "get"),
            ("get", "deploy"),
            ("build", "ship"),
            ("lst", "ship"),
            ("list", "get(id=1)"),
        ]
    );
    // Each code is one the rules report on that agent.
    let reported: Vec<Code> = index
        .files()
        .flat_map(|f| index.diagnostics(f.id))
        .map(|d| d.code)
        .collect();
    for code in names.iter().filter_map(|(_, code)| *code) {
        assert!(reported.contains(&code), "{code}: {reported:?}");
    }
    // Linked in every format.
    let url = crate::rules::catalogue::doc_url(unknown);
    assert!(
        url.ends_with("docs/rules.md#agentrequires-unknown-skill"),
        "{url}"
    );
    let lst = graph.nodes.iter().position(|n| n.name == "lst").unwrap();
    let text = mermaid::render(&graph);
    assert!(
        text.contains(&format!("  click n{lst} href \"{url}\" \"{unknown}\"\n")),
        "{text}"
    );
    assert!(
        text.contains(&format!("lst<br>missing, {unknown}")),
        "{text}"
    );
    check_mermaid_subset(&text);
    let text = dot::render(&graph);
    assert!(
        text.contains(&format!(
            "n{lst} [label=\"lst\\nmissing, {unknown}\", fillcolor=\"#ffffff\", color=\"#9e9e9e\", penwidth=2, URL=\"{url}\", tooltip=\"{unknown}\"];"
        )),
        "{text}"
    );
    let value = json::value(&graph);
    let drawn = &value["nodes"][lst];
    assert_eq!(drawn["code"], unknown.name());
    assert_eq!(drawn["code_url"], url.as_str());
    assert_eq!(drawn["states"], serde_json::json!(["missing"]));
    // The editor's command draws the topology open in the editor with the same builder.
    let path = Path::new("/ws/topologies/t.yaml");
    let for_editor = build(&index, &Selection::for_document(&index, path, None)).unwrap();
    assert_eq!(for_editor, graph);
}

#[test]
fn a_chain_with_async_and_a_sequential_chain() {
    let index = index_of(
        &[
            skill_md("release", "  chain: [checks, publish]\n"),
            skill_md("checks", "  chain: [lint, test]\n  async: true\n"),
            skill_md("lint", ""),
            skill_md("test", ""),
            skill_md("publish", ""),
        ]
        .concat(),
    );
    let graph = everything(&index);
    let edges: Vec<String> = graph
        .edges
        .iter()
        .map(|e| {
            format!(
                "{} -> {} {}",
                graph.nodes[e.from].name,
                graph.nodes[e.to].name,
                edge_caption(e).unwrap_or_default()
            )
        })
        .collect();
    assert_eq!(
        edges,
        [
            "checks -> lint async",
            "checks -> test async",
            "release -> checks 1",
            "release -> publish 2",
        ]
    );
    assert!(node(&graph, NodeKind::SkillMd, "checks").asynchronous);
    assert!(!node(&graph, NodeKind::SkillMd, "release").asynchronous);
    expect![[r#"
        {
          "async": true,
          "blocking": false,
          "from": "n0",
          "kind": "chain",
          "on_cycle": false,
          "step": null,
          "to": "n2"
        }"#]]
    .assert_eq(&serde_json::to_string_pretty(&json::value(&graph)["edges"][0]).unwrap());
}

#[test]
fn a_chain_reaching_a_loop_is_blocked_and_the_loop_is_a_cycle() {
    let index = index_of(
        &[
            skill_md("top", "  chain: [ping]\n"),
            skill_md("ping", "  chain: [pong]\n"),
            skill_md("pong", "  chain: [ping]\n"),
        ]
        .concat(),
    );
    let graph = everything(&index);
    assert!(node(&graph, NodeKind::SkillMd, "top").state.blocked);
    assert!(node(&graph, NodeKind::SkillMd, "ping").state.cycle);
    assert!(node(&graph, NodeKind::SkillMd, "pong").state.cycle);
    let on_cycle: Vec<bool> = graph.edges.iter().map(|e| e.on_cycle).collect();
    assert_eq!(on_cycle, [true, true, false]);
}

#[test]
fn composed_skills_show_their_parts_in_order_loops_and_missing_parts() {
    let mut text = MANIFEST.to_owned();
    text.push_str(&skill("report", "composed"));
    text.push_str("  composes: [table, chart, nowhere]\n");
    text.push_str(&skill("table", "composed"));
    text.push_str("  composes: [report]\n");
    text.push_str(&skill("chart", "mcp_tool"));
    text.push_str(&skill("solo", "composed"));
    text.push_str("  composes: [chart]\n");
    let graph = everything(&index_of(&text));
    let parts: Vec<String> = graph
        .edges
        .iter()
        .map(|e| {
            format!(
                "{} -{}-> {}",
                graph.nodes[e.from].name,
                e.step.unwrap_or(0),
                graph.nodes[e.to].name
            )
        })
        .collect();
    assert_eq!(
        parts,
        [
            "report -1-> table",
            "report -2-> chart",
            "report -3-> nowhere",
            "solo -1-> chart",
            "table -1-> report",
        ]
    );
    assert!(node(&graph, NodeKind::Composed, "report").state.cycle);
    assert!(node(&graph, NodeKind::Composed, "table").state.cycle);
    assert_eq!(
        node(&graph, NodeKind::Composed, "solo").state,
        NodeState::default()
    );
    assert!(node(&graph, NodeKind::Part, "nowhere").state.missing);
    assert_eq!(
        node(&graph, NodeKind::Part, "chart").implementation,
        Some(ImplementationType::McpTool)
    );
}

const TWO_TOPOLOGIES: &str = "//- /ws/topologies/one.yaml
apiVersion: swarmkit/v1
kind: Topology
metadata:
  name: one
agents:
  root:
    id: boss
    role: root
    children:
      - id: first
        role: worker
      - id: second
        role: worker
        depends_on: [first]
      - id: third
        role: worker
        depends_on: [second]
//- /ws/topologies/two.yaml
apiVersion: swarmkit/v1
kind: Topology
metadata:
  name: two
agents:
  root:
    id: other
    role: root
";

#[test]
fn narrowing_to_a_topology_or_an_agent() {
    let index = index_of(&format!("{MANIFEST}{TWO_TOPOLOGIES}"));
    let names = |graph: &OrderingGraph| -> Vec<String> {
        graph.nodes.iter().map(|n| n.name.clone()).collect()
    };
    let two = build(&index, &selection("/ws", Some("two"), None)).unwrap();
    assert_eq!(names(&two), ["other"]);
    // One agent, with the agents its `depends_on` links it to.
    let second = build(&index, &selection("/ws", None, Some("second"))).unwrap();
    assert_eq!(names(&second), ["first", "second", "third"]);
    assert_eq!(second.edges.len(), 2);
    // A manifest stands for its workspace.
    let whole = build(&index, &selection("/ws/workspace.yaml", None, None)).unwrap();
    assert_eq!(whole.clusters.len(), 2);
    let file = build(&index, &selection("/ws/topologies/two.yaml", None, None)).unwrap();
    assert_eq!(names(&file), ["other"]);
    assert_eq!(
        build(&index, &selection("/ws", Some("three"), None))
            .unwrap_err()
            .to_string(),
        "no topology named `three` in the paths given; there is `one`, `two`"
    );
    assert_eq!(
        build(&index, &selection("/ws", Some("two"), Some("boss")))
            .unwrap_err()
            .to_string(),
        "no agent with the id `boss` in the paths given; there is `other`"
    );
}

/// Ids that need care in both formats: dashes, dots, quotes, backslashes, Mermaid keywords,
/// entity-like text, backticks, brackets, Unicode.
const HOSTILE: &[&str] = &[
    "end",
    "a-b.c",
    "say \"hi\"",
    "back\\slash",
    "#quot;",
    "50%",
    "`md`",
    "<b>x</b>",
    "[x]{y}|z",
    "ünïcödé-技能",
    "graph",
];

fn hostile_index() -> Index {
    let mut text = MANIFEST.to_owned();
    for (i, id) in HOSTILE.iter().enumerate() {
        text.push_str(&skill_file(&format!("s{i}"), &yaml_quote(id), "mcp_tool"));
    }
    let quoted: Vec<String> = HOSTILE.iter().map(|id| yaml_quote(id)).collect();
    let mut requires = String::new();
    for pair in quoted.windows(2) {
        requires.push_str(&format!("      {}: [{}]\n", pair[1], pair[0]));
    }
    requires.push_str(&format!("      {}: [{}]\n", quoted[0], quoted[1]));
    text.push_str(&topology_file(
        "  name: \"t \\\"quoted\\\" <&>\"\n",
        "\"agent \\\"007\\\"\"",
        "    skills: [server:s]\n",
        &requires,
    ));
    index_of(&text)
}

fn yaml_quote(text: &str) -> String {
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
}

#[test]
fn hostile_ids_come_out_as_written_and_escaped() {
    let graph = everything(&hostile_index());
    let names: Vec<&str> = graph
        .nodes
        .iter()
        .filter(|n| n.kind == NodeKind::Skill)
        .map(|n| n.name.as_str())
        .collect();
    let mut expected: Vec<&str> = HOSTILE.to_vec();
    // Node order is the order of first appearance in the rules: the second id, then the first.
    expected.swap(0, 1);
    assert_eq!(names, expected);
    let text = mermaid::render(&graph);
    check_mermaid_subset(&text);
    assert!(text.contains(r#"n2["a-b.c<br>"#) || text.contains("a-b.c"));
    assert!(text.contains("say #quot;hi#quot;"));
    assert!(text.contains("#35;quot;"));
    assert!(text.contains("#96;md#96;"));
    assert!(text.contains("ünïcödé-技能"));
    let dot_text = dot::render(&graph);
    assert!(dot_text.contains(r#"say \"hi\""#));
    assert!(dot_text.contains(r"back\\slash"));
    let json_text = json::render(&graph);
    let value: serde_json::Value = serde_json::from_str(&json_text).unwrap();
    assert_eq!(value["nodes"][3]["name"], "say \"hi\"");
}

#[test]
fn output_is_deterministic() {
    let first = mermaid::render(&demo_graph());
    let second = mermaid::render(&demo_graph());
    assert_eq!(first, second);
}

/// A long `requires:` chain x0 <- x1 <- ... and the same closed into one loop.
fn long_requires(n: usize, closed: bool) -> Index {
    let mut requires = String::new();
    for i in 1..n {
        requires.push_str(&format!("      x{i}: [x{}]\n", i - 1));
    }
    if closed {
        requires.push_str(&format!("      x0: [x{}]\n", n - 1));
    }
    let mut text = MANIFEST.to_owned();
    for i in 0..n {
        text.push_str(&skill(&format!("x{i}"), "mcp_tool"));
    }
    text.push_str(&topology_file(
        "  name: t\n",
        "a",
        "    skills: [server:s]\n",
        &requires,
    ));
    index_of(&text)
}

#[test]
fn a_20000_skill_chain_and_loop_render_in_output_proportional_to_them() {
    const N: usize = 20_000;
    for closed in [false, true] {
        let graph = everything(&long_requires(N, closed));
        assert_eq!(graph.edges.len(), if closed { N } else { N - 1 });
        let skills = graph.nodes.iter().filter(|n| n.kind == NodeKind::Skill);
        if closed {
            assert!(skills
                .clone()
                .all(|n| n.state.cycle && n.call_order.is_none()));
        } else {
            // The call order of a chain is the chain: x0, x1, ...
            for n in skills {
                let i: usize = n.name[1..].parse().unwrap();
                assert_eq!(n.call_order, Some(i + 1));
            }
        }
        for text in [
            mermaid::render(&graph),
            dot::render(&graph),
            json::render(&graph),
        ] {
            // A fixed amount per node and edge (pretty JSON spends most: about 450 bytes);
            // spelling a path per node would be thousands of times more.
            assert!(text.len() < 1_000 * N, "{} bytes", text.len());
        }
    }
}

/// Every line of the Mermaid text is one of the statements the renderer writes, with a quoted
/// caption free of characters Mermaid reads inside one; subgraphs balance.
fn check_mermaid_subset(text: &str) {
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("flowchart LR"));
    let mut depth = 0usize;
    let id = |s: &str| {
        !s.is_empty()
            && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && s.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
    };
    let caption = |s: &str| -> bool {
        let Some(inner) = s.strip_prefix("[\"").and_then(|s| s.strip_suffix("\"]")) else {
            return false;
        };
        let inner = inner.replace("<br>", "");
        !inner.chars().any(|c| {
            matches!(c, '"' | '<' | '>' | '`' | '[' | ']' | '{' | '}' | '|' | '%') || c.is_control()
        }) && entities_closed(&inner)
    };
    for line in lines {
        let statement = line.trim_start();
        if statement == "end" {
            depth = depth.checked_sub(1).expect("an `end` closes a subgraph");
            continue;
        }
        if let Some(rest) = statement.strip_prefix("subgraph ") {
            let at = rest.find('[').expect("a subgraph has a caption");
            assert!(id(&rest[..at]) && caption(&rest[at..]), "{line}");
            depth += 1;
            continue;
        }
        if let Some(rest) = statement.strip_prefix("classDef ") {
            let (name, style) = rest.split_once(' ').expect("classDef name style");
            assert!(id(name) && !style.contains(' '), "{line}");
            continue;
        }
        if let Some(rest) = statement.strip_prefix("class ") {
            let (node, class) = rest.split_once(' ').expect("class node name");
            assert!(id(node) && id(class), "{line}");
            continue;
        }
        if let Some(rest) = statement.strip_prefix("click ") {
            let (node, rest) = rest.split_once(" href \"").expect("click node href");
            let (url, tooltip) = rest.split_once("\" \"").expect("click url tooltip");
            assert!(
                id(node) && url.starts_with("https://") && !url.contains(['"', ' ']),
                "{line}"
            );
            let tooltip = tooltip.strip_suffix('"').expect("a quoted tooltip");
            assert!(
                tooltip
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_')),
                "{line}"
            );
            continue;
        }
        if let Some(rest) = statement.strip_prefix("linkStyle ") {
            let (list, _) = rest.split_once(' ').expect("linkStyle list style");
            assert!(
                list.split(',').all(|n| n.parse::<usize>().is_ok()),
                "{line}"
            );
            continue;
        }
        // An edge: `from arrow to`, the arrow with an optional `|"label"|` (which may hold
        // spaces, never a quote).
        let unlabelled = match (statement.find("|\""), statement.find("\"| ")) {
            (Some(open), Some(close)) if open < close => {
                let label = &statement[open + 2..close];
                assert!(
                    !label.contains(['"', '|']) && entities_closed(label),
                    "{line}"
                );
                format!("{}{}", &statement[..open], &statement[close + 2..])
            }
            _ => statement.to_owned(),
        };
        let words: Vec<&str> = unlabelled.split(' ').collect();
        if words.len() == 3 && !statement.contains("[\"") {
            assert!(
                id(words[0]) && id(words[2]) && ["-->", "==>", "-.->", "--o"].contains(&words[1]),
                "{line}"
            );
            continue;
        }
        let at = statement.find('[').unwrap_or_else(|| panic!("{line}"));
        assert!(id(&statement[..at]) && caption(&statement[at..]), "{line}");
    }
    assert_eq!(depth, 0, "subgraphs balance");
}

/// Every `#` starts an entity code `#name;` or `#123;`.
fn entities_closed(text: &str) -> bool {
    let mut rest = text;
    while let Some(at) = rest.find('#') {
        let after = &rest[at + 1..];
        let Some(end) = after.find(';') else {
            return false;
        };
        let code = &after[..end];
        if code.is_empty() || !code.chars().all(|c| c.is_ascii_alphanumeric()) {
            return false;
        }
        rest = &after[end + 1..];
    }
    true
}

#[test]
fn every_mermaid_output_is_in_the_checked_subset() {
    check_mermaid_subset(&mermaid::render(&demo_graph()));
    check_mermaid_subset(&mermaid::render(&OrderingGraph::default()));
}

fn required(variable: &str) -> bool {
    std::env::var_os(variable).is_some_and(|v| v == "1")
}

/// Graphviz renders the demo and the hostile ids. CI installs Graphviz and sets
/// `SKILLGRAPH_REQUIRE_DOT=1`, so there a missing `dot` fails rather than skips.
#[test]
fn graphviz_renders_the_dot_output() {
    let available = Command::new("dot").arg("-V").output().is_ok();
    if !available {
        assert!(
            !required("SKILLGRAPH_REQUIRE_DOT"),
            "SKILLGRAPH_REQUIRE_DOT=1 but Graphviz's `dot` is not on PATH"
        );
        eprintln!("skipped: Graphviz's `dot` is not on PATH");
        return;
    }
    for text in [
        dot::render(&demo_graph()),
        dot::render(&everything(&hostile_index())),
        dot::render(&OrderingGraph::default()),
        dot::render(&everything(&rules_over_missing_skills())),
        dot::render(&everything(&host_graph_index())),
    ] {
        let svg = run_with_input(Command::new("dot").arg("-Tsvg"), &text);
        assert!(svg.contains("<svg"), "{svg}");
    }
}

/// Mermaid's own parser accepts the output: `.ci/mermaid` holds a script that runs it under
/// Node (with jsdom); CI installs its packages and sets `SKILLGRAPH_REQUIRE_MERMAID=1`.
#[test]
fn mermaid_parser_accepts_the_output() {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("../.ci/mermaid");
    let ready = folder.join("node_modules/mermaid").is_dir()
        && Command::new("node").arg("--version").output().is_ok();
    if !ready {
        assert!(
            !required("SKILLGRAPH_REQUIRE_MERMAID"),
            "SKILLGRAPH_REQUIRE_MERMAID=1 but Node or .ci/mermaid/node_modules is missing (npm ci in .ci/mermaid)"
        );
        eprintln!("skipped: no Mermaid parser (run `npm ci` in .ci/mermaid)");
        return;
    }
    // The parser's verdict on the files `paths`.
    let parse = |paths: &[PathBuf]| {
        Command::new("node")
            .arg(folder.join("parse.mjs"))
            .args(paths)
            .output()
            .unwrap()
    };
    let dir = tempfile::tempdir().unwrap();
    let mut paths = Vec::new();
    for (name, text) in [
        ("demo.mmd", mermaid::render(&demo_graph())),
        (
            "hostile.mmd",
            mermaid::render(&everything(&hostile_index())),
        ),
        (
            "missing.mmd",
            mermaid::render(&everything(&rules_over_missing_skills())),
        ),
        ("empty.mmd", mermaid::render(&OrderingGraph::default())),
        (
            "hosts.mmd",
            mermaid::render(&everything(&host_graph_index())),
        ),
    ] {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        paths.push(path);
    }
    let output = parse(&paths);
    assert!(
        output.status.success(),
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    // The parser does refuse: a skill called `end` used as a node id breaks the grammar (why
    // the renderer makes its ids up).
    let bad = dir.path().join("bad.mmd");
    std::fs::write(&bad, "flowchart LR\n  end --> n1\n").unwrap();
    let output = parse(&[bad]);
    assert!(
        !output.status.success(),
        "the parser accepted a bad caption"
    );
}

fn run_with_input(command: &mut Command, input: &str) -> String {
    use std::io::Write;
    let mut child = command
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let text = input.to_owned();
    let writer = std::thread::spawn(move || stdin.write_all(text.as_bytes()));
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn mentions_preloads_and_forks_are_edges_of_their_own_from_the_naming_side() {
    let index = host_graph_index();
    let graph = everything(&index);
    let shown = |n: usize| format!("{}:{}", graph.nodes[n].kind.as_str(), graph.nodes[n].name);
    let edges: Vec<String> = graph
        .edges
        .iter()
        .map(|e| format!("{} -{}-> {}", shown(e.from), e.kind.as_str(), shown(e.to)))
        .collect();
    assert_eq!(
        edges,
        [
            "subagent:reviewer -mentions-> skill-md:review",
            "subagent:reviewer -preloads-> skill-md:lint",
            "skill-md:explore -runs-in-> builtin-agent:Explore",
            "skill-md:lint -mentions-> skill-md:review",
            "skill-md:review -mentions-> skill-md:lint",
            "skill-md:review -runs-in-> subagent:reviewer",
            "prose:p/CLAUDE.md -mentions-> skill-md:lint",
        ]
    );
    // A loop of mentions is drawn, never styled as a cycle.
    assert!(graph.edges.iter().all(|e| !e.on_cycle));
    assert!(graph.nodes.iter().all(|n| n.state.style().is_none()));
    assert_eq!(
        graph.clusters.last().map(|c| c.kind),
        Some(ClusterKind::Hosts)
    );
    let mermaid = mermaid::render(&graph);
    check_mermaid_subset(&mermaid);
    assert!(mermaid.contains("--o|\"mentions\"|"), "{mermaid}");
    assert!(mermaid.contains("-.->|\"runs in\"|"), "{mermaid}");
    let dot = dot::render(&graph);
    assert!(dot.contains("label=\"preloads\""), "{dot}");
    let json = json::value(&graph);
    let kinds: Vec<&str> = json["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap())
        .collect();
    assert!(
        kinds.contains(&"mentions") && kinds.contains(&"preloads") && kinds.contains(&"runs-in")
    );
}

/// Skills that mention each other, a subagent preloading one and a skill forked into it, a
/// skill forked into a built-in type, and CLAUDE.md naming a skill.
fn host_graph_index() -> Index {
    index_of(
        "//- /p/.claude/skills/lint/SKILL.md
---
name: lint
description: Lints.
---
Then run /review, and /lint again is no edge.
//- /p/.claude/skills/review/SKILL.md
---
name: review
description: Reviews.
context: fork
agent: reviewer
---
Back to /lint when done, and /lint once more.
//- /p/.claude/skills/explore/SKILL.md
---
name: explore
description: Explores.
context: fork
agent: Explore
---
Body.
//- /p/.claude/agents/reviewer.md
---
name: reviewer
description: Reviews code.
skills: [lint]
---
Use /review.
//- /p/CLAUDE.md
Run /lint before committing.
",
    )
}
