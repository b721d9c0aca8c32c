//! The ordering graph: a picture of the ordering rules, built from the same analysis the rules
//! report from (`semantics::requires::build`, `semantics::depends_on::depends_on_graph`, the composes and
//! chain memos), as a typed value that `mermaid`, `dot` and `json` render. No I/O, no protocol
//! types; `skillgraph graph` and the server's `skillgraph.orderingGraph` command both call
//! [`build`] and a renderer.
//!
//! What is drawn, per topology (clusters in path order): each agent as a node, `depends_on`
//! between agents, and per agent with `requires:` rules a cluster of the skills the rules
//! mention, numbered in a valid call order (an end the agent does not hold drawn `missing`,
//! with the code that reports it); per workspace, the composed skills and their parts;
//! and the SKILL.md chains with their order (or `async`); and, outside SwarmKit, who names
//! which skill: mentions in prose, subagent preloads and forks (`hosts`). Every node and edge is written once,
//! with its own name as label, so the output is proportional to the input and the work linear
//! (plus the sort of the call order), whatever the shape: a 20,000-skill chain or loop costs
//! 20,000 nodes and edges.

mod builder;
pub mod dot;
mod hosts;
pub mod json;
pub mod mermaid;

use std::path::{Path, PathBuf};

use crate::diagnostic::{Code, FileId};
use crate::index::{Content, FileRole, Index, Lookup};
use crate::model::swarmkit::{Artifact, ImplementationType, Topology};
use builder::Builder;

/// The graph: clusters (nested at most two deep: a topology, then an agent's rules), nodes and
/// edges, each list in a deterministic order (files by path, then as written).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OrderingGraph {
    pub clusters: Vec<Cluster>,
    pub nodes: Vec<GraphNode>,
    pub edges: Vec<GraphEdge>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClusterKind {
    /// A topology: its agents and their `depends_on`.
    Topology,
    /// One agent's `requires:` rules (inside its topology's cluster).
    Requires,
    /// The composed skills of a workspace.
    Composes,
    /// SKILL.md chains.
    Chains,
    /// Mentions in prose, subagent preloads and forks.
    Hosts,
}

impl ClusterKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ClusterKind::Topology => "topology",
            ClusterKind::Requires => "requires",
            ClusterKind::Composes => "composes",
            ClusterKind::Chains => "chains",
            ClusterKind::Hosts => "hosts",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cluster {
    pub kind: ClusterKind,
    /// The topology's name, the agent's id, the workspace's id; empty for chains.
    pub name: String,
    pub parent: Option<usize>,
    /// A topology's file, relative to its workspace's folder (two files may hold topologies of
    /// one name, in different versions).
    pub source: Option<String>,
}

impl Cluster {
    /// The caption drawn on the cluster.
    pub fn caption(&self) -> String {
        match self.kind {
            ClusterKind::Topology => match &self.source {
                Some(source) => format!("topology {} ({source})", self.name),
                None => format!("topology {}", self.name),
            },
            ClusterKind::Requires => format!("requires: of agent {}", self.name),
            ClusterKind::Composes => format!("composed skills of workspace {}", self.name),
            ClusterKind::Chains => "SKILL.md chains".to_owned(),
            ClusterKind::Hosts => "skills named in prose, preloaded and forked into".to_owned(),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    Agent,
    /// A skill named by an agent's `requires:` rules.
    Skill,
    /// A composed skill.
    Composed,
    /// A part of a composed skill that is not itself composed.
    Part,
    /// A SKILL.md taking part in a chain, or named in prose, preloaded or forked.
    SkillMd,
    /// A Claude Code subagent (`.claude/agents/<name>.md`).
    Subagent,
    /// A prose file that names skills (`CLAUDE.md`, `AGENTS.md`, a command, ...).
    Prose,
    /// A subagent type the host ships (`Explore`, `Plan`, ...).
    BuiltinAgent,
}

impl NodeKind {
    pub fn as_str(self) -> &'static str {
        match self {
            NodeKind::Agent => "agent",
            NodeKind::Skill => "skill",
            NodeKind::Composed => "composed",
            NodeKind::Part => "part",
            NodeKind::SkillMd => "skill-md",
            NodeKind::Subagent => "subagent",
            NodeKind::Prose => "prose",
            NodeKind::BuiltinAgent => "builtin-agent",
        }
    }
}

/// What the analysis says of a node; each fact is what a diagnostic reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NodeState {
    /// Caught in a loop: `agent.requires-cycle`, `agent.depends-on-cycle`,
    /// `skill.composes-cycle`, `skillmd.chain-cycle`.
    pub cycle: bool,
    /// Can never run though not on a loop: a guarded skill the runtime refuses forever
    /// (`agent.requires-unsatisfiable`), a composed skill that cannot be built, a chain that
    /// reaches a loop of chains (`skillmd.chain-depth`).
    pub blocked: bool,
    /// A prerequisite the runtime never records as called (not an `mcp_tool`), so every rule
    /// naming it is unsatisfiable.
    pub unsatisfiable: bool,
    /// A guarded skill dispatched where no gate checks prerequisites
    /// (`agent.requires-not-enforced`).
    pub not_enforced: bool,
    /// A composed skill's part that resolves to no skill, or a `requires:` entry naming a skill
    /// the agent does not hold (or binding arguments).
    pub missing: bool,
}

/// The styles, in the order a node with several facts picks one (the first that holds).
pub const STYLES: &[Style] = &[
    Style::Cycle,
    Style::Blocked,
    Style::Unsatisfiable,
    Style::NotEnforced,
    Style::Missing,
];

/// The legend's lines on arrows and numbers, shared by the renderers.
pub const ARROWS: &[&str] = &[
    "thin arrow: call before (requires), or a chain's call, numbered in chain order",
    "thick arrow: finishes before the next agent starts (depends_on)",
    "dotted arrow: composes, numbered in composes order",
    "N. before a skill: its place in a call order that satisfies every rule",
    "circle-ended arrow labelled mentions: the file names the skill in prose (/name, $name); not ordering",
    "arrow labelled preloads: the subagent's skills: loads the skill when it starts",
    "arrow labelled runs in: the forked skill (context: fork) runs in that subagent (agent:)",
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    Cycle,
    Blocked,
    Unsatisfiable,
    NotEnforced,
    Missing,
}

impl Style {
    /// The class name in Mermaid and the state's name in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Style::Cycle => "cycle",
            Style::Blocked => "blocked",
            Style::Unsatisfiable => "unsatisfiable",
            Style::NotEnforced => "not-enforced",
            Style::Missing => "missing",
        }
    }

    /// The legend's line.
    pub fn meaning(self) -> &'static str {
        match self {
            Style::Cycle => "cycle: caught in a loop, never runs",
            Style::Blocked => "blocked: can never run, something it needs never succeeds",
            Style::Unsatisfiable => "unsatisfiable: never recorded as called (not an mcp_tool)",
            Style::NotEnforced => "not enforced: no gate checks its prerequisites",
            Style::Missing => "missing: no such skill, or one the agent does not hold",
        }
    }

    /// (fill, border) colours, shared by the renderers.
    pub fn colours(self) -> (&'static str, &'static str) {
        match self {
            Style::Cycle => ("#f8c9c9", "#c62828"),
            Style::Blocked => ("#ffe0b2", "#e65100"),
            Style::Unsatisfiable => ("#e1d5f0", "#6a1b9a"),
            Style::NotEnforced => ("#eeeeee", "#757575"),
            Style::Missing => ("#ffffff", "#9e9e9e"),
        }
    }
}

impl NodeState {
    pub fn holds(&self, style: Style) -> bool {
        match style {
            Style::Cycle => self.cycle,
            Style::Blocked => self.blocked,
            Style::Unsatisfiable => self.unsatisfiable,
            Style::NotEnforced => self.not_enforced,
            Style::Missing => self.missing,
        }
    }

    /// The style drawn: the first of [`STYLES`] that holds.
    pub fn style(&self) -> Option<Style> {
        STYLES.iter().copied().find(|&s| self.holds(s))
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GraphNode {
    pub kind: NodeKind,
    /// The skill or agent id, the SKILL.md's name.
    pub name: String,
    pub cluster: Option<usize>,
    pub state: NodeState,
    /// A skill's implementation type, when known.
    pub implementation: Option<ImplementationType>,
    /// In a `requires:` cluster: the skill's place (from 1) in a call order that satisfies
    /// every rule; `None` for a skill no order reaches (blocked, or on or behind a loop).
    pub call_order: Option<usize>,
    /// A SKILL.md whose chain runs its skills in parallel (`async: true`).
    pub asynchronous: bool,
    /// The diagnostic code that reports what the node's style shows (a `missing` end: the
    /// `requires:` entry the agent does not hold, the part that is no skill), linked to its
    /// section of docs/rules.md by the renderers.
    pub code: Option<Code>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EdgeKind {
    /// From a prerequisite to the skill it guards: call `from` before `to`.
    Requires,
    /// From an agent to the agent that waits for it: `from` finishes before `to` starts.
    DependsOn,
    /// From a composed skill to one of its parts.
    Composes,
    /// From a SKILL.md to a skill its chain calls.
    Chain,
    /// From a SKILL.md or prose file to a skill it names in prose.
    Mentions,
    /// From a subagent to a skill its `skills:` preloads.
    Preloads,
    /// From a forked skill to the subagent (or built-in type) its `agent:` names.
    RunsIn,
}

impl EdgeKind {
    pub fn as_str(self) -> &'static str {
        match self {
            EdgeKind::Requires => "requires",
            EdgeKind::DependsOn => "depends-on",
            EdgeKind::Composes => "composes",
            EdgeKind::Chain => "chain",
            EdgeKind::Mentions => "mentions",
            EdgeKind::Preloads => "preloads",
            EdgeKind::RunsIn => "runs-in",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GraphEdge {
    pub kind: EdgeKind,
    pub from: usize,
    pub to: usize,
    /// The entry's place (from 1) in its list: a part in `composes:`, a skill in a sequential
    /// chain. `None` elsewhere, and in an `async` chain.
    pub step: Option<usize>,
    /// In an `async` chain: run alongside the chain's other skills.
    pub asynchronous: bool,
    /// Both ends lie in one loop.
    pub on_cycle: bool,
    /// The edge that blocks what it leads to: the prerequisite named as the reason a guarded
    /// skill can never be called.
    pub blocking: bool,
    /// What the audit log says of the rule this `requires` edge belongs to (`skillgraph graph
    /// --observed`, [`observe`]); `None` unless asked.
    pub observed: Option<ObservedRule>,
}

/// A rule's counts from the audit log, as the graph shows them (see `audit::Counts`). Per rule:
/// every edge into the guarded skill carries its rule's counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ObservedRule {
    pub agent_runs: u64,
    pub runs: u64,
    pub refused: u64,
    pub recovered: u64,
    pub gave_up: u64,
    pub would_refuse: u64,
}

/// Puts on each `requires` edge the counts `counts(topology, agent, guarded skill)` gives for
/// its rule.
pub fn observe(
    graph: &mut OrderingGraph,
    counts: &dyn Fn(&str, &str, &str) -> Option<ObservedRule>,
) {
    for i in 0..graph.edges.len() {
        let edge = &graph.edges[i];
        if edge.kind != EdgeKind::Requires {
            continue;
        }
        let guarded = &graph.nodes[edge.to];
        let Some(agent) = guarded.cluster.map(|c| &graph.clusters[c]) else {
            continue;
        };
        let Some(topology) = agent.parent.map(|p| &graph.clusters[p]) else {
            continue;
        };
        let found = counts(&topology.name, &agent.name, &guarded.name);
        graph.edges[i].observed = found;
    }
}

/// What to draw: the files at or below `roots` (a `workspace.yaml` stands for its whole
/// workspace), narrowed to one topology and/or one agent.
#[derive(Clone, Debug, Default)]
pub struct Selection {
    pub roots: Vec<PathBuf>,
    pub topology: Option<String>,
    pub agent: Option<String>,
}

impl Selection {
    /// What an editor's "Show ordering graph" draws for the document at `path`: a topology's
    /// own agents, a SKILL.md's chain and what it calls, for any other file of a workspace
    /// the whole workspace; with `agent`, that agent alone.
    pub fn for_document(index: &Index, path: &Path, agent: Option<String>) -> Selection {
        let file = index.file_id(path).and_then(|id| index.file(id));
        let root = match file.map(|f| (&f.role, &f.parsed.content)) {
            Some((FileRole::SwarmKit { .. }, Content::SwarmKit(Artifact::Topology(_)))) => {
                path.to_owned()
            }
            Some((FileRole::SwarmKit { workspace, .. }, _)) => index
                .file(*workspace)
                .and_then(|manifest| manifest.path.parent())
                .map_or_else(|| path.to_owned(), Path::to_owned),
            Some((FileRole::WorkspaceManifest, _)) => path
                .parent()
                .map_or_else(|| path.to_owned(), Path::to_owned),
            _ => path.to_owned(),
        };
        Selection {
            roots: vec![root],
            topology: None,
            agent,
        }
    }
}

/// A narrowing that matches nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SelectionError {
    NoTopology { name: String, known: Vec<String> },
    NoAgent { id: String, known: Vec<String> },
}

impl std::fmt::Display for SelectionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (what, name, known) = match self {
            SelectionError::NoTopology { name, known } => ("topology named", name, known),
            SelectionError::NoAgent { id, known } => ("agent with the id", id, known),
        };
        write!(f, "no {what} `{name}` in the paths given")?;
        if known.is_empty() {
            write!(f, " (there is none)")
        } else {
            let shown: Vec<String> = known.iter().take(20).map(|k| format!("`{k}`")).collect();
            let more = known.len().saturating_sub(shown.len());
            write!(f, "; there is {}", shown.join(", "))?;
            if more > 0 {
                write!(f, " and {more} more")?;
            }
            Ok(())
        }
    }
}

/// Builds the graph of what `selection` picks from `index`.
pub fn build(index: &Index, selection: &Selection) -> Result<OrderingGraph, SelectionError> {
    let roots: Vec<PathBuf> = selection
        .roots
        .iter()
        .map(|root| {
            // A manifest stands for its workspace: it is what an editor has open at the top.
            let is_manifest = index
                .file_id(root)
                .and_then(|id| index.file(id))
                .is_some_and(|f| f.role == FileRole::WorkspaceManifest);
            match root.parent().filter(|_| is_manifest) {
                Some(folder) => folder.to_owned(),
                None => root.clone(),
            }
        })
        .collect();
    let in_scope = |path: &Path| roots.iter().any(|root| path.starts_with(root));
    let narrowed = selection.topology.is_some() || selection.agent.is_some();
    let lookup = Lookup::new(index);
    let mut out = Builder::default();

    // Topologies at or below the roots, in path order.
    let mut topologies: Vec<(&Path, FileId, FileId, &Topology)> = index
        .topologies()
        .filter(|(path, ..)| in_scope(path))
        .collect();
    topologies.sort_by(|a, b| a.0.cmp(b.0));
    if let Some(name) = &selection.topology {
        let known = sorted_unique(topologies.iter().filter_map(|t| topology_name(t.3)));
        topologies.retain(|t| topology_name(t.3) == Some(name.as_str()));
        if topologies.is_empty() {
            return Err(SelectionError::NoTopology {
                name: name.clone(),
                known,
            });
        }
    }
    if let Some(id) = &selection.agent {
        let holds = |t: &Topology| t.agents.iter().any(|a| a.label() == id);
        if !topologies.iter().any(|t| holds(t.3)) {
            let known = sorted_unique(
                topologies
                    .iter()
                    .flat_map(|t| t.3.agents.iter().filter_map(|a| a.id.as_ref()))
                    .map(|id| id.value.as_str()),
            );
            return Err(SelectionError::NoAgent {
                id: id.clone(),
                known,
            });
        }
        topologies.retain(|t| holds(t.3));
    }

    // Per workspace, the composed skills to draw from: those the drawn agents hold, and
    // unless narrowed, those defined at or below the roots.
    let mut composed_roots: Vec<(FileId, Vec<String>)> = Vec::new();
    fn composed_of(roots: &mut Vec<(FileId, Vec<String>)>, workspace: FileId) -> usize {
        match roots.iter().position(|(w, _)| *w == workspace) {
            Some(i) => i,
            None => {
                roots.push((workspace, Vec::new()));
                roots.len() - 1
            }
        }
    }
    for &(_, file, workspace, topology) in &topologies {
        let slot = composed_of(&mut composed_roots, workspace);
        let held = out.topology(
            &lookup,
            workspace,
            file,
            topology,
            selection.agent.as_deref(),
        );
        composed_roots[slot].1.extend(held);
    }
    if !narrowed {
        let mut skills: Vec<(&Path, FileId, &str)> = index
            .files()
            .filter(|f| in_scope(&f.path))
            .filter_map(|f| match (&f.role, &f.parsed.content) {
                (
                    FileRole::SwarmKit {
                        workspace,
                        too_deep: false,
                        ..
                    },
                    Content::SwarmKit(Artifact::Skill(skill)),
                ) if skill.implementation() == Some(ImplementationType::Composed) => skill
                    .id
                    .as_ref()
                    .map(|id| (f.path.as_path(), *workspace, id.value.as_str())),
                _ => None,
            })
            .collect();
        skills.sort_by(|a, b| a.0.cmp(b.0));
        for (_, workspace, id) in skills {
            let slot = composed_of(&mut composed_roots, workspace);
            composed_roots[slot].1.push(id.to_owned());
        }
    }
    for (workspace, ids) in composed_roots {
        out.composes(&lookup, index, workspace, &ids);
    }
    if !narrowed {
        out.chains(&lookup, index, &in_scope);
        out.hosts(&lookup, index, &in_scope, &roots);
    }
    Ok(out.graph)
}

fn topology_name(topology: &Topology) -> Option<&str> {
    topology.name.as_ref().map(|n| n.value.as_str())
}

fn sorted_unique<'a>(names: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut names: Vec<String> = names.map(str::to_owned).collect();
    names.sort();
    names.dedup();
    names
}

/// The children of each cluster and the nodes directly in it, for renderers that nest.
pub(crate) struct Layout {
    pub top: Vec<usize>,
    pub children: Vec<Vec<usize>>,
    pub members: Vec<Vec<usize>>,
    pub loose: Vec<usize>,
}

impl Layout {
    pub fn of(graph: &OrderingGraph) -> Layout {
        let mut layout = Layout {
            top: Vec::new(),
            children: vec![Vec::new(); graph.clusters.len()],
            members: vec![Vec::new(); graph.clusters.len()],
            loose: Vec::new(),
        };
        for (i, cluster) in graph.clusters.iter().enumerate() {
            match cluster.parent {
                Some(parent) => layout.children[parent].push(i),
                None => layout.top.push(i),
            }
        }
        for (i, node) in graph.nodes.iter().enumerate() {
            match node.cluster {
                Some(cluster) => layout.members[cluster].push(i),
                None => layout.loose.push(i),
            }
        }
        layout
    }

    /// Writes the nodes in their nesting, for a renderer whose clusters close with `close`
    /// (`}`, `end`): each top cluster opened, its nodes, each child cluster (opened, its nodes,
    /// closed), closed; then the nodes in no cluster.
    pub fn write_nested(
        &self,
        out: &mut String,
        graph: &OrderingGraph,
        open_cluster: fn(&mut String, &OrderingGraph, usize, usize),
        nodes: fn(&mut String, &OrderingGraph, &[usize], usize),
        close: &str,
    ) {
        for &top in &self.top {
            open_cluster(out, graph, top, 1);
            nodes(out, graph, &self.members[top], 2);
            for &child in &self.children[top] {
                open_cluster(out, graph, child, 2);
                nodes(out, graph, &self.members[child], 3);
                out.push_str(&format!("    {close}\n"));
            }
            out.push_str(&format!("  {close}\n"));
        }
        nodes(out, graph, &self.loose, 1);
    }
}

/// How a node is captioned: its call order and name, then, after `line_break`, its
/// implementation type and facts; each line escaped for the output format.
pub(crate) fn node_caption(
    node: &GraphNode,
    escape: fn(&str) -> String,
    line_break: &str,
) -> String {
    let mut first = String::new();
    if let Some(place) = node.call_order {
        first.push_str(&format!("{place}. "));
    }
    first.push_str(&node.name);
    let mut second = Vec::new();
    if let Some(kind) = node.implementation {
        if node.kind != NodeKind::Composed {
            second.push(kind.as_str().to_owned());
        }
    }
    if node.kind == NodeKind::Composed {
        second.push("composed".to_owned());
    }
    if node.asynchronous {
        second.push("async chain".to_owned());
    }
    match node.kind {
        NodeKind::Agent => second.push("agent".to_owned()),
        NodeKind::Subagent => second.push("subagent".to_owned()),
        NodeKind::BuiltinAgent => second.push("built-in subagent".to_owned()),
        _ => {}
    }
    // Every fact in words too, so the picture reads without its colours.
    for style in STYLES {
        if node.state.holds(*style) {
            second.push(style.as_str().replace('-', " "));
        }
    }
    if let Some(code) = node.code {
        second.push(code.name().to_owned());
    }
    let mut caption = escape(&first);
    if !second.is_empty() {
        caption.push_str(line_break);
        caption.push_str(&escape(&second.join(", ")));
    }
    caption
}

/// An edge's caption, if it has one.
pub(crate) fn edge_caption(edge: &GraphEdge) -> Option<String> {
    if let Some(observed) = edge.observed {
        return Some(if observed.agent_runs == 0 {
            "no runs recorded".to_owned()
        } else if observed.runs == 0 {
            "never reached".to_owned()
        } else {
            format!("refused {}", observed.refused)
        });
    }
    match edge.kind {
        EdgeKind::Mentions => return Some("mentions".to_owned()),
        EdgeKind::Preloads => return Some("preloads".to_owned()),
        EdgeKind::RunsIn => return Some("runs in".to_owned()),
        _ => {}
    }
    if edge.asynchronous {
        return Some("async".to_owned());
    }
    edge.step.map(|s| s.to_string())
}

#[cfg(test)]
mod tests;
