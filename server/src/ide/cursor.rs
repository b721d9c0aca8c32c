//! What the cursor is on: every id written in a SwarmKit file, as a definition or a reference,
//! with the context the features need (the workspace, the enclosing agent).

use crate::diagnostic::FileId;
use crate::index::{Content, Index};
use crate::model::swarmkit::{AgentIndex, Artifact, ArtifactKind, DecisionBinding, Grant};
use crate::syntax::TextRange;

/// What an id names.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ref {
    /// A skill, archetype, funnel, topology, trigger ... by its id.
    Artifact(ArtifactKind, String),
    /// An entry of `mcp_servers` in `workspace.yaml`.
    McpServer(String),
    /// An agent of the same topology, by its `id`.
    Agent(String),
}

/// Where an occurrence is written, for the features that behave differently by place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Site {
    /// The definition itself (`metadata.id`, an agent's `id`, an `mcp_servers` entry's `id`).
    Definition,
    /// A grant in `skills`, `skills_additional` or archetype `defaults.skills`.
    Grant,
    /// A key of a `requires:` block (the guarded skill).
    RequiresKey,
    /// A prerequisite in a `requires:` rule.
    RequiresValue,
    /// The `requires:` key itself; `what` is the agent.
    RequiresBlock,
    /// The `id` of a `governance.decision_skills` binding (a skill, or a memory hook).
    DecisionBinding,
    /// Any other reference (`archetype:`, `funnel:`, `depends_on`, `composes`, ...).
    Reference,
}

/// One id written in a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Occurrence {
    pub range: TextRange,
    pub what: Ref,
    pub site: Site,
    /// The agent whose field holds the occurrence (topologies only).
    pub agent: Option<AgentIndex>,
}

/// Every id written in `file`, in no particular order.
pub fn occurrences(index: &Index, file: FileId) -> Vec<Occurrence> {
    let Some(Content::SwarmKit(artifact)) = index.file(file).map(|e| &e.parsed.content) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut push = |range: TextRange, what: Ref, site: Site, agent: Option<AgentIndex>| {
        out.push(Occurrence {
            range,
            what,
            site,
            agent,
        })
    };
    let skill = |id: &str| Ref::Artifact(ArtifactKind::Skill, id.to_owned());
    if let Some(id) = artifact.id() {
        let what = match artifact {
            Artifact::Workspace(_) => None,
            other => Some(Ref::Artifact(other.kind(), id.value.clone())),
        };
        if let Some(what) = what {
            push(id.range, what, Site::Definition, None);
        }
    }
    let grants = |grants: &[Grant], agent: Option<AgentIndex>, out: &mut Vec<Occurrence>| {
        for grant in grants {
            match grant {
                Grant::Skill(id) => out.push(Occurrence {
                    range: id.range,
                    what: skill(&id.value),
                    site: Site::Grant,
                    agent,
                }),
                Grant::Server { id, .. } => out.push(Occurrence {
                    range: id.range,
                    what: Ref::McpServer(id.value.clone()),
                    site: Site::Grant,
                    agent,
                }),
                _ => {}
            }
        }
    };
    // Decision skills are bound alike in a workspace and in a topology.
    let bindings: &[DecisionBinding] = match artifact {
        Artifact::Workspace(workspace) => &workspace.decision_skills,
        Artifact::Topology(topology) => &topology.decision_skills,
        _ => &[],
    };
    for binding in bindings {
        push(
            binding.id.range,
            skill(&binding.id.value),
            Site::DecisionBinding,
            None,
        );
    }
    match artifact {
        Artifact::Workspace(workspace) => {
            for server in &workspace.mcp_servers {
                push(
                    server.id.range,
                    Ref::McpServer(server.id.value.clone()),
                    Site::Definition,
                    None,
                );
            }
        }
        Artifact::Topology(topology) => {
            for (i, agent) in topology.agents.iter().enumerate() {
                let a = Some(i);
                if let Some(id) = &agent.id {
                    push(id.range, Ref::Agent(id.value.clone()), Site::Definition, a);
                }
                if let Some(archetype) = &agent.archetype {
                    push(
                        archetype.range,
                        Ref::Artifact(ArtifactKind::Archetype, archetype.value.clone()),
                        Site::Reference,
                        a,
                    );
                }
                if let Some(funnel) = &agent.funnel {
                    push(
                        funnel.range,
                        Ref::Artifact(ArtifactKind::Funnel, funnel.value.clone()),
                        Site::Reference,
                        a,
                    );
                }
                for dep in &agent.depends_on {
                    push(dep.range, Ref::Agent(dep.value.clone()), Site::Reference, a);
                }
                if let Some(block) = &agent.requires {
                    if let Some(id) = &agent.id {
                        push(
                            block.key_range,
                            Ref::Agent(id.value.clone()),
                            Site::RequiresBlock,
                            a,
                        );
                    }
                    for rule in &block.rules {
                        push(
                            rule.guarded.range,
                            skill(&rule.guarded.value),
                            Site::RequiresKey,
                            a,
                        );
                        for p in &rule.prerequisites {
                            push(p.range, skill(&p.value), Site::RequiresValue, a);
                        }
                    }
                }
            }
            for (i, agent) in topology.agents.iter().enumerate() {
                if let Some((_, list)) = &agent.skills {
                    grants(list, Some(i), &mut out);
                }
                if let Some((_, list)) = &agent.skills_additional {
                    grants(list, Some(i), &mut out);
                }
            }
        }
        Artifact::Skill(s) => {
            if let Some(server) = &s.server {
                push(
                    server.range,
                    Ref::McpServer(server.value.clone()),
                    Site::Reference,
                    None,
                );
            }
            for c in &s.composes {
                push(c.range, skill(&c.value), Site::Reference, None);
            }
        }
        Artifact::Archetype(a) => grants(&a.default_skills, None, &mut out),
        Artifact::Trigger(t) => {
            for target in &t.topology_targets {
                push(
                    target.range,
                    Ref::Artifact(ArtifactKind::Topology, target.value.clone()),
                    Site::Reference,
                    None,
                );
            }
        }
        Artifact::Other { .. } => {}
    }
    out
}

/// The occurrence under the cursor: the innermost one containing `offset` (a cursor just after
/// an id still counts, as editors put it there after typing).
pub(crate) fn at(index: &Index, file: FileId, offset: u32) -> Option<Occurrence> {
    occurrences(index, file)
        .into_iter()
        .filter(|o| o.range.contains_inclusive(offset))
        .min_by_key(|o| (o.range.len(), o.range.start))
}

/// True when the cursor is on an agent's own `id` in a topology: the hover there is about the
/// open document's agent, so it can be answered before the whole workspace is indexed (what it
/// lists from archetypes and skills in other files may still grow).
pub fn on_agent_definition(index: &Index, file: FileId, offset: u32) -> bool {
    at(index, file, offset)
        .is_some_and(|o| matches!(o.what, Ref::Agent(_)) && o.site == Site::Definition)
}

/// The workspace directory holding a file, for paths shown to the user.
pub(crate) fn relative_path(index: &Index, workspace: FileId, file: FileId) -> String {
    let Some(entry) = index.file(file) else {
        return String::new();
    };
    let root = index
        .file(workspace)
        .and_then(|w| w.path.parent().map(|p| p.to_owned()));
    match root
        .as_deref()
        .and_then(|r| entry.path.strip_prefix(r).ok())
    {
        Some(rel) => rel.to_string_lossy().replace('\\', "/"),
        // Outside the workspace's folder: relative to the manifest all the same.
        None => index.file(workspace).map_or_else(
            || entry.path.to_string_lossy().into_owned(),
            |w| super::extensions::path_from(&w.path, &entry.path),
        ),
    }
}
