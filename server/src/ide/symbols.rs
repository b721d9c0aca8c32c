//! Document symbols: the artifact, and for a topology its agents as a tree.

use crate::diagnostic::FileId;
use crate::index::{Content, Index};
use crate::model::swarmkit::{AgentIndex, Artifact};
use crate::syntax::TextRange;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymbolKind {
    /// The file's artifact (workspace, skill, topology ...).
    Artifact,
    Agent,
    McpServer,
    /// A SKILL.md frontmatter field.
    Field,
    /// A Markdown heading of a SKILL.md.
    Heading,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    pub name: String,
    pub detail: Option<String>,
    pub kind: SymbolKind,
    /// The whole construct.
    pub range: TextRange,
    /// The name, inside `range`.
    pub selection_range: TextRange,
    pub children: Vec<Symbol>,
}

pub fn document_symbols(index: &Index, file: FileId) -> Vec<Symbol> {
    let Some(entry) = index.file(file) else {
        return Vec::new();
    };
    let artifact = match &entry.parsed.content {
        Content::SwarmKit(artifact) => artifact,
        Content::SkillMd(skill) => return super::skill_files::document_symbols(entry, skill),
        _ => return Vec::new(),
    };
    let whole = TextRange::new(0, entry.text.len() as u32);
    let id = artifact.id();
    let mut top = Symbol {
        name: id.map_or_else(|| "(no id)".to_owned(), |i| i.value.clone()),
        detail: Some(artifact.kind().kind_field().to_owned()),
        kind: SymbolKind::Artifact,
        range: whole,
        selection_range: id.map_or(TextRange::empty(0), |i| i.range),
        children: Vec::new(),
    };
    match artifact {
        Artifact::Topology(t) if !t.agents.is_empty() => top.children.push(agent_symbol(t, 0)),
        Artifact::Workspace(w) => {
            for s in &w.mcp_servers {
                top.children.push(Symbol {
                    name: s.id.value.clone(),
                    detail: Some("MCP server".to_owned()),
                    kind: SymbolKind::McpServer,
                    range: s.range.cover(s.id.range),
                    selection_range: s.id.range,
                    children: Vec::new(),
                });
            }
        }
        _ => {}
    }
    vec![top]
}

fn agent_symbol(t: &crate::model::swarmkit::Topology, i: AgentIndex) -> Symbol {
    // Recursion is bounded: the agent tree is no deeper than the YAML nesting the parser caps.
    let agent = &t.agents[i];
    let selection = agent.id.as_ref().map_or(agent.anchor_range, |id| id.range);
    let range = agent.range.cover(agent.anchor_range).cover(selection);
    let children = agent.children.iter().map(|&c| agent_symbol(t, c)).collect();
    Symbol {
        name: agent.label().to_owned(),
        detail: agent.role.as_ref().map(|r| r.value.clone()),
        kind: SymbolKind::Agent,
        range,
        selection_range: selection,
        children,
    }
}

/// A workspace symbol: an id defined somewhere.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorkspaceSymbol {
    pub name: String,
    /// What kind of thing, and where (`Skill`, `agent in estate`).
    pub detail: Option<String>,
    pub kind: SymbolKind,
    pub file: FileId,
    pub range: TextRange,
}

/// Every id defined in the index (artifacts, agents, MCP servers) and every SKILL.md skill by
/// name, whose name contains `query` (case-insensitively), sorted by name then file.
pub fn workspace_symbols(index: &Index, query: &str) -> Vec<WorkspaceSymbol> {
    let query = query.to_lowercase();
    let mut out = Vec::new();
    for entry in index.files() {
        if let Content::SkillMd(skill) = &entry.parsed.content {
            if let (Some(name), Some(range)) = (skill.normalized_name(), skill.name_range()) {
                if name.to_lowercase().contains(&query) {
                    out.push(WorkspaceSymbol {
                        name,
                        detail: Some("SKILL.md".to_owned()),
                        kind: SymbolKind::Artifact,
                        file: entry.id,
                        range,
                    });
                }
            }
            continue;
        }
        let Content::SwarmKit(artifact) = &entry.parsed.content else {
            continue;
        };
        let mut push = |name: &str, detail: String, kind, range| {
            if name.to_lowercase().contains(&query) {
                out.push(WorkspaceSymbol {
                    name: name.to_owned(),
                    detail: Some(detail),
                    kind,
                    file: entry.id,
                    range,
                });
            }
        };
        if let Some(id) = artifact.id() {
            push(
                &id.value,
                artifact.kind().kind_field().to_owned(),
                SymbolKind::Artifact,
                id.range,
            );
        }
        match artifact {
            Artifact::Topology(t) => {
                let topology = t.name.as_ref().map_or("", |n| n.value.as_str());
                for agent in &t.agents {
                    if let Some(id) = &agent.id {
                        push(
                            &id.value,
                            format!("agent in {topology}"),
                            SymbolKind::Agent,
                            id.range,
                        );
                    }
                }
            }
            Artifact::Workspace(w) => {
                for s in &w.mcp_servers {
                    push(
                        &s.id.value,
                        "MCP server".to_owned(),
                        SymbolKind::McpServer,
                        s.id.range,
                    );
                }
            }
            _ => {}
        }
    }
    out.sort_by(|a, b| (&a.name, a.file, a.range.start).cmp(&(&b.name, b.file, b.range.start)));
    out
}
