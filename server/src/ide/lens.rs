//! Code lenses: on a skill's definition, how many agents hold it and how many `requires:` rules
//! name it as a prerequisite; on each agent of a topology, an action that shows its ordering
//! graph (the editor runs it; the protocol edge names the command).

use crate::diagnostic::FileId;
use crate::index::{Content, Index, Lookup};
use crate::model::swarmkit::Artifact;
use crate::semantics::grants::GrantResolver;
use crate::syntax::TextRange;

/// What choosing a lens does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LensAction {
    /// Nothing: the title is the information.
    None,
    /// Show the ordering graph of the agent with this id, in the lens's document.
    ShowOrderingGraph { agent: String },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lens {
    pub range: TextRange,
    pub title: String,
    pub action: LensAction,
}

/// The lenses of `file`, in document order.
pub fn code_lenses(index: &Index, file: FileId) -> Vec<Lens> {
    let Some(Content::SwarmKit(artifact)) = index.file(file).map(|e| &e.parsed.content) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    match artifact {
        Artifact::Skill(skill) => {
            let (Some(id), Some(workspace)) = (&skill.id, index.workspace_of(file)) else {
                return out;
            };
            let (agents, rules) = usage(index, workspace, &id.value);
            out.push(Lens {
                range: id.range,
                title: format!(
                    "granted to {} · required by {}",
                    count(agents, "agent", "agents"),
                    count(rules, "rule", "rules")
                ),
                action: LensAction::None,
            });
        }
        Artifact::Topology(topology) => {
            for agent in &topology.agents {
                if let Some(id) = &agent.id {
                    out.push(Lens {
                        range: id.range,
                        title: "Show ordering graph".to_owned(),
                        action: LensAction::ShowOrderingGraph {
                            agent: id.value.clone(),
                        },
                    });
                }
            }
        }
        _ => {}
    }
    out
}

fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// How many agents of the workspace hold `skill` (by any grant: by id, through an archetype,
/// `server:` or `pack:`), and how many `requires:` rules list it as a prerequisite.
fn usage(index: &Index, workspace: FileId, skill: &str) -> (usize, usize) {
    let lookup = Lookup::new(index);
    let grants = GrantResolver::new(&lookup, workspace);
    let (mut agents, mut rules) = (0, 0);
    for entry in index
        .files()
        .filter(|e| index.workspace_of(e.id) == Some(workspace))
    {
        let Content::SwarmKit(Artifact::Topology(topology)) = &entry.parsed.content else {
            continue;
        };
        for agent in &topology.agents {
            if grants
                .effective_skills(entry.id, agent, &mut Vec::new())
                .contains(skill)
            {
                agents += 1;
            }
            if let Some(block) = &agent.requires {
                rules += block
                    .rules
                    .iter()
                    .filter(|r| r.prerequisites.iter().any(|p| p.value == skill))
                    .count();
            }
        }
    }
    (agents, rules)
}

#[cfg(test)]
mod tests {
    use std::sync::LazyLock;

    use super::super::test_support::{fixture, topology_w, workspace_w};
    use super::*;

    static WS: LazyLock<String> = LazyLock::new(|| {
        [
            workspace_w(&[]),
            r#"//- /w/skills/a.yaml
apiVersion: swarmkit/v1
kind: Skill
metadata:
  id: a$0
category: capability
implementation:
  type: llm_prompt
//- /w/archetypes/eng.yaml
apiVersion: swarmkit/v1
kind: Archetype
metadata:
  id: eng
role: worker
defaults:
  skills: [a]
"#
            .to_owned(),
            topology_w("t", "t"),
            r#"    id: root
    role: root
    skills: [a, b]
    requires:
      b: [a]
    children:
      - id: one
        role: worker
        archetype: eng
      - id: two
        role: worker
        skills: [b]
"#
            .to_owned(),
        ]
        .concat()
    });

    #[test]
    fn a_skill_counts_its_agents_and_rules() {
        let f = fixture(&WS);
        let lenses = code_lenses(&f.index, f.cursor_file);
        assert_eq!(lenses.len(), 1);
        assert_eq!(lenses[0].title, "granted to 2 agents · required by 1 rule");
        assert_eq!(lenses[0].action, LensAction::None);
    }

    #[test]
    fn each_agent_shows_its_ordering_graph() {
        let f = fixture(
            &WS.replace("id: a$0", "id: a")
                .replace("name: t", "name: t$0"),
        );
        let agents: Vec<LensAction> = code_lenses(&f.index, f.cursor_file)
            .into_iter()
            .map(|l| l.action)
            .collect();
        let graph = |agent: &str| LensAction::ShowOrderingGraph {
            agent: agent.to_owned(),
        };
        assert_eq!(agents, [graph("root"), graph("one"), graph("two")]);
    }
}
