//! The `requires:` rules written in the workspaces of an index, as the audit matches rows to
//! them: per agent of each topology, its rules as written (for the records), the project's own
//! analysis of them (`semantics::requires::build`, for the replay), and the names its calls
//! reach the log under.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::diagnostic::FileId;
use crate::index::{Content, FileRole, Index, Lookup};
use crate::model::swarmkit::{Artifact, ImplementationType, Topology};
use crate::semantics::grants::GrantResolver;
use crate::semantics::registry::skill_named;
use crate::semantics::requires::{self, RequiresGraph};
use crate::syntax::TextRange;

/// The rules of one workspace, agent by agent, topologies in path order.
#[derive(Clone, Debug)]
pub struct WorkspaceRules {
    /// The workspace's manifest.
    pub workspace: FileId,
    /// The folder holding `workspace.yaml`, where the runtime keeps `.swarmkit/`.
    pub root: PathBuf,
    pub agents: Vec<AgentRules>,
}

/// One agent's rules.
#[derive(Clone, Debug)]
pub struct AgentRules {
    /// The topology's `metadata.name`: the log's `topology_id`.
    pub topology: String,
    pub file: FileId,
    pub agent: String,
    pub rules: Vec<WrittenRule>,
    /// The project's analysis of the rules: which prerequisites are usable, each skill's type.
    pub graph: RequiresGraph,
    /// Gateway names (`<server>__<tool>`, `agent__<skill>`) to the skill they stand for: a
    /// harness agent's calls are logged under them (`_granted_mcp_tools` and
    /// `build_agent_gateway_tools`, `langgraph_compiler/_harness_node.py` and `mcp/_gateway.py`).
    pub gateway: HashMap<String, String>,
}

/// A rule as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WrittenRule {
    pub guarded: String,
    /// The guarded skill's key.
    pub range: TextRange,
    pub prerequisites: Vec<String>,
}

impl AgentRules {
    /// The rule guarding `skill`, as the runtime reads the block (a repeated key keeps its last
    /// value: PyYAML's reading, and the model's).
    pub fn rule_of(&self, skill: &str) -> Option<usize> {
        self.rules.iter().rposition(|r| r.guarded == skill)
    }

    /// The skill a logged `skill_id` stands for.
    pub fn skill_of<'s>(&'s self, logged: &'s str) -> &'s str {
        self.gateway.get(logged).map_or(logged, String::as_str)
    }
}

/// The rules of every workspace with a topology at or below `roots` (a whole workspace when a
/// root is its folder or any file in it), in path order.
pub fn written_rules(index: &Index, roots: &[PathBuf]) -> Vec<WorkspaceRules> {
    let in_scope = |path: &Path| roots.is_empty() || roots.iter().any(|r| path.starts_with(r));
    let mut topologies: Vec<_> = index
        .topologies()
        .filter(|(path, _, workspace, _)| {
            in_scope(path)
                || index
                    .file(*workspace)
                    .and_then(|m| m.path.parent())
                    .is_some_and(|folder| roots.iter().any(|r| folder.starts_with(r)))
        })
        .collect();
    topologies.sort_by(|a, b| a.0.cmp(b.0));
    let lookup = Lookup::new(index);
    let mut out: Vec<WorkspaceRules> = Vec::new();
    for (_, file, workspace, topology) in topologies {
        let slot = match out.iter().position(|w| w.workspace == workspace) {
            Some(slot) => slot,
            None => {
                out.push(WorkspaceRules {
                    workspace,
                    root: root_of(index, workspace),
                    agents: Vec::new(),
                });
                out.len() - 1
            }
        };
        out[slot]
            .agents
            .extend(agents_of(&lookup, workspace, file, topology));
    }
    out
}

/// The rules of one topology file, as the editor shows them on it (the buffer's text, whatever
/// is saved); `None` when it is no indexed topology of a workspace.
pub fn topology_rules(index: &Index, file: FileId) -> Option<WorkspaceRules> {
    let (workspace, topology) = topology_in_workspace(index, file)?;
    let lookup = Lookup::new(index);
    Some(WorkspaceRules {
        workspace,
        root: root_of(index, workspace),
        agents: agents_of(&lookup, workspace, file, topology),
    })
}

/// The root folder of the workspace the topology `file` belongs to, where its audit log is
/// found: asked before [`topology_rules`] works out every agent's rules, which only a
/// workspace with a log needs.
pub fn topology_root(index: &Index, file: FileId) -> Option<PathBuf> {
    let (workspace, _) = topology_in_workspace(index, file)?;
    Some(root_of(index, workspace))
}

/// The workspace of the topology `file` and what the topology lowered to.
fn topology_in_workspace(index: &Index, file: FileId) -> Option<(FileId, &Topology)> {
    let entry = index.file(file)?;
    match (&entry.role, &entry.parsed.content) {
        (
            FileRole::SwarmKit {
                workspace,
                too_deep: false,
                ..
            },
            Content::SwarmKit(Artifact::Topology(topology)),
        ) => Some((*workspace, topology)),
        _ => None,
    }
}

fn root_of(index: &Index, workspace: FileId) -> PathBuf {
    index
        .file(workspace)
        .and_then(|m| m.path.parent())
        .map(Path::to_owned)
        .unwrap_or_default()
}

/// The agents of one topology with rules written.
fn agents_of(
    lookup: &Lookup<'_>,
    workspace: FileId,
    file: FileId,
    topology: &Topology,
) -> Vec<AgentRules> {
    let mut out = Vec::new();
    let Some(name) = topology.name.as_ref() else {
        return out;
    };
    let grants = GrantResolver::new(lookup, workspace);
    for agent in &topology.agents {
        let Some(block) = &agent.requires else {
            continue;
        };
        if block.rules.is_empty() {
            continue;
        }
        let effective = grants.effective_skills(file, agent, &mut Vec::new());
        let graph = requires::build(lookup, workspace, block, &effective);
        let mut gateway = HashMap::new();
        for held in effective.iter() {
            let Some(info) = skill_named(lookup, workspace, held.id) else {
                continue;
            };
            match info.implementation {
                Some(ImplementationType::McpTool) => {
                    let tool = info.skill.and_then(|s| s.tool.as_ref());
                    if let (Some(server), Some(tool)) = (info.server(), tool) {
                        gateway.insert(format!("{server}__{}", tool.value), info.id.clone());
                    }
                }
                Some(ImplementationType::Agent) => {
                    gateway.insert(format!("agent__{}", info.id), info.id.clone());
                }
                _ => {}
            }
        }
        out.push(AgentRules {
            topology: name.value.clone(),
            file,
            agent: agent.label().to_owned(),
            rules: block
                .rules
                .iter()
                .map(|rule| WrittenRule {
                    guarded: rule.guarded.value.clone(),
                    range: rule.guarded.range,
                    prerequisites: rule.prerequisites.iter().map(|p| p.value.clone()).collect(),
                })
                .collect(),
            graph,
            gateway,
        });
    }
    out
}
