//! The generated SwarmKit workspace both benches measure (included with `#[path]` by each bench
//! binary, since benches cannot share a module otherwise).

use std::fmt::Write as _;
use std::path::Path;

/// Writes a workspace of `skills` mcp_tool skills (every 10th an llm_prompt), `agents` worker
/// agents over `agents / 50` topologies, each agent granting 20 skills with a few requires rules.
pub fn generate(root: &Path, skills: usize, agents: usize) {
    std::fs::create_dir_all(root.join("skills")).unwrap();
    std::fs::create_dir_all(root.join("topologies")).unwrap();
    std::fs::create_dir_all(root.join("archetypes")).unwrap();
    std::fs::write(
        root.join("workspace.yaml"),
        "apiVersion: swarmkit/v1\nkind: Workspace\nmetadata:\n  id: bench\n  name: Bench\nmcp_servers:\n  - id: tools\n    transport: stdio\n    command: [\"python\", \"server.py\"]\n",
    )
    .unwrap();
    for i in 0..skills {
        let implementation = if i % 10 == 9 {
            "  type: llm_prompt\n  prompt: Summarise the input.\n".to_owned()
        } else {
            format!("  type: mcp_tool\n  server: tools\n  tool: tool_{i}\n")
        };
        std::fs::write(
            root.join(format!("skills/skill-{i}.yaml")),
            format!(
                "apiVersion: swarmkit/v1\nkind: Skill\nmetadata:\n  id: skill-{i}\n  name: Skill {i}\n  description: Generated skill number {i}.\ncategory: capability\nimplementation:\n{implementation}provenance:\n  authored_by: human\n  version: 1.0.0\n"
            ),
        )
        .unwrap();
    }
    std::fs::write(
        root.join("archetypes/worker.yaml"),
        "apiVersion: swarmkit/v1\nkind: Archetype\nmetadata:\n  id: worker\n  name: Worker\n  description: A generated worker archetype.\nrole: worker\ndefaults:\n  skills: [skill-0, skill-1, skill-2]\nprovenance:\n  authored_by: human\n  version: 1.0.0\n",
    )
    .unwrap();
    let per_topology = 50;
    for t in 0..agents.div_ceil(per_topology) {
        let mut text = format!(
            "apiVersion: swarmkit/v1\nkind: Topology\nmetadata:\n  name: topology-{t}\n  version: 1.0.0\nagents:\n  root:\n    id: root\n    role: root\n    model:\n      provider: anthropic\n      name: claude-opus-4-7\n    prompt:\n      system: Coordinate.\n    children:\n"
        );
        for a in 0..per_topology.min(agents - t * per_topology) {
            let n = t * per_topology + a;
            let base = (n * 20) % skills.saturating_sub(20).max(1);
            let granted: Vec<String> = (base..base + 20).map(|s| format!("skill-{s}")).collect();
            let _ = write!(
                text,
                "      - id: agent-{n}\n        role: worker\n        archetype: worker\n        skills: [{}]\n        requires:\n          {}: [{}]\n          {}: [{}]\n",
                granted.join(", "),
                granted[1],
                granted[0],
                granted[2],
                granted[1],
            );
        }
        std::fs::write(root.join(format!("topologies/topology-{t}.yaml")), text).unwrap();
    }
}

/// Writes `skills` SKILL.md skills in folders of 50 under `root/skills/group-N/`, with a
/// `skillgraph.toml` that configures a tool inventory. Every skill declares `dependencies` and
/// `allowed-tools`; every fifth chains the next four skills of its group (a chain of chains
/// where the next chaining skill is among them), and every tenth has a precondition.
pub fn generate_skill_md(root: &Path, skills: usize) {
    std::fs::create_dir_all(root).unwrap();
    std::fs::write(
        root.join("skillgraph.toml"),
        "[tools]\navailable = [\"get_order\", \"list_orders\"]\npresets = [\"claude-code\"]\n",
    )
    .unwrap();
    for i in 0..skills {
        let group = i / 50;
        let dir = root.join(format!("skills/group-{group}/skill-{i}"));
        std::fs::create_dir_all(&dir).unwrap();
        let mut metadata = String::from("metadata:\n  owner: bench\n");
        if i % 5 == 0 {
            let targets: Vec<String> = (i + 1..(i + 5).min((group + 1) * 50))
                .map(|t| format!("skill-{t}"))
                .collect();
            if !targets.is_empty() {
                let _ = write!(
                    metadata,
                    "  chain: [{}]\n  max_depth: 10\n",
                    targets.join(", ")
                );
            }
        }
        if i % 10 == 0 {
            metadata
                .push_str("  precondition: get_order(order_id=<id>)\n  action_tool: list_orders\n");
        }
        std::fs::write(
            dir.join("SKILL.md"),
            format!(
                "---\nname: skill-{i}\ndescription: Generated skill number {i}, used to measure the checker.\nallowed-tools: Read Grep\ndependencies:\n  tools:\n    all: [Read, get_order]\n    any: [Grep, Glob]\n{metadata}---\n\n# Skill {i}\n\nDoes generated things.\n"
            ),
        )
        .unwrap();
    }
}
