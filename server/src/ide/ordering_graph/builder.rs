//! Building the [`OrderingGraph`] from the analyses: a topology's agents and `depends_on`, each
//! agent's `requires:` rules as written (the ends the analysis leaves out, an id the agent does
//! not hold or one binding arguments, drawn `missing` with the code that reports them), the
//! composed skills of a workspace and the SKILL.md chains.

use std::collections::{HashMap, HashSet, VecDeque};
use std::path::Path;

use super::{
    Cluster, ClusterKind, EdgeKind, GraphEdge, GraphNode, NodeKind, NodeState, OrderingGraph,
};
use crate::diagnostic::{codes, Code, FileId};
use crate::index::{Content, Index, Lookup};
use crate::model::swarmkit::{Artifact, ImplementationType, RequiresBlock, Topology};
use crate::semantics::composes::composes_graph;
use crate::semantics::grants::GrantResolver;
use crate::semantics::requires::{self, Blocked};

#[derive(Default)]
pub(super) struct Builder {
    pub(super) graph: OrderingGraph,
}

impl Builder {
    pub(super) fn cluster(
        &mut self,
        kind: ClusterKind,
        name: &str,
        parent: Option<usize>,
    ) -> usize {
        self.graph.clusters.push(Cluster {
            kind,
            name: name.to_owned(),
            parent,
            source: None,
        });
        self.graph.clusters.len() - 1
    }

    pub(super) fn node(&mut self, kind: NodeKind, name: &str, cluster: usize) -> usize {
        self.graph.nodes.push(GraphNode {
            kind,
            name: name.to_owned(),
            cluster: Some(cluster),
            state: NodeState::default(),
            implementation: None,
            call_order: None,
            asynchronous: false,
            code: None,
        });
        self.graph.nodes.len() - 1
    }

    pub(super) fn edge(&mut self, kind: EdgeKind, from: usize, to: usize) -> &mut GraphEdge {
        self.graph.edges.push(GraphEdge {
            kind,
            from,
            to,
            step: None,
            asynchronous: false,
            on_cycle: false,
            blocking: false,
            observed: None,
        });
        self.graph.edges.last_mut().expect("just pushed")
    }

    /// A topology's agents (or the one agent `only`, with the agents its `depends_on` links it
    /// to), their `depends_on` and their `requires:` rules. Returns the ids of the skills the
    /// drawn agents hold, for the composed skills.
    pub(super) fn topology(
        &mut self,
        lookup: &Lookup<'_>,
        workspace: FileId,
        file: FileId,
        topology: &Topology,
        only: Option<&str>,
    ) -> Vec<String> {
        let cluster = self.cluster(
            ClusterKind::Topology,
            super::topology_name(topology).unwrap_or("(no name)"),
            None,
        );
        self.graph.clusters[cluster].source = relative_source(lookup.index(), workspace, file);
        let depends = crate::semantics::depends_on::depends_on_graph(topology);
        let components = depends.components();
        let drawn = |i: usize| only.is_none_or(|id| topology.agents[i].label() == id);
        // The agents drawn, and with one agent, every agent its `depends_on` links it to.
        let mut linked = vec![false; topology.agents.len()];
        for (from, tos) in depends.edges.iter().enumerate() {
            for &to in tos {
                if drawn(from) || drawn(to) {
                    linked[from] = true;
                    linked[to] = true;
                }
            }
        }
        let mut agent_node: Vec<Option<usize>> = vec![None; topology.agents.len()];
        for i in 0..topology.agents.len() {
            if drawn(i) || linked[i] {
                let node = self.node(NodeKind::Agent, topology.agents[i].label(), cluster);
                self.graph.nodes[node].state.cycle = components.on_cycle(i);
                agent_node[i] = Some(node);
            }
        }
        for (from, tos) in depends.edges.iter().enumerate() {
            for &to in tos {
                if !(drawn(from) || drawn(to)) {
                    continue;
                }
                let (Some(waiting), Some(first)) = (agent_node[from], agent_node[to]) else {
                    continue;
                };
                let on_cycle =
                    components.of[from] == components.of[to] && components.on_cycle(from);
                self.edge(EdgeKind::DependsOn, first, waiting).on_cycle = on_cycle;
            }
        }
        let mut held = Vec::new();
        // One resolver for the topology: an archetype's defaults are resolved once, and its ids
        // are taken once, however many agents inherit them.
        let grants = GrantResolver::new(lookup, workspace);
        let mut archetypes_taken: HashSet<String> = HashSet::new();
        for (i, agent) in topology.agents.iter().enumerate() {
            if !drawn(i) {
                continue;
            }
            let effective = grants.effective_skills(file, agent, &mut Vec::new());
            // Only ids granted one by one may be composed skills: `server:` and `pack:` grants
            // hand out `mcp_tool`, command and topology skills.
            held.extend(effective.own_ids_granted_one_by_one().map(str::to_owned));
            if let Some(defaults) = effective.inherited() {
                if archetypes_taken.insert(defaults.archetype().to_owned()) {
                    held.extend(defaults.ids_granted_one_by_one().map(str::to_owned));
                }
            }
            let Some(block) = &agent.requires else {
                continue;
            };
            if block.rules.is_empty() {
                continue;
            }
            let rules = requires::build(lookup, workspace, block, &effective);
            let ends = Ends {
                lookup,
                workspace,
                held: &|id: &str| effective.contains(id),
            };
            self.requires(cluster, agent.label(), &rules, block, &ends);
        }
        held
    }

    fn requires(
        &mut self,
        topology: usize,
        agent: &str,
        rules: &requires::RequiresGraph,
        block: &RequiresBlock,
        ends: &Ends<'_, '_>,
    ) {
        let cluster = self.cluster(ClusterKind::Requires, agent, Some(topology));
        let first = self.graph.nodes.len();
        for (i, skill) in rules.skills.iter().enumerate() {
            let node = self.node(NodeKind::Skill, skill, cluster);
            let kind = rules.types[i];
            let guards = !rules.graph.edges[i].is_empty();
            let state = &mut self.graph.nodes[node].state;
            state.cycle = rules.on_cycle(i);
            state.blocked = rules.blocked[i].is_some();
            state.not_enforced = guards && kind.is_some_and(|t| !t.is_gated());
            self.graph.nodes[node].implementation = kind;
        }
        // A skill named as a prerequisite that the runtime never records.
        for prerequisites in &rules.graph.edges {
            for &p in prerequisites {
                if rules.types[p].is_some_and(|t| !t.records_calls()) {
                    self.graph.nodes[first + p].state.unsatisfiable = true;
                }
            }
        }
        let mut place = 0;
        for node in rules.graph.dependency_order() {
            if rules.blocked[node].is_none() && !rules.on_cycle(node) {
                place += 1;
                self.graph.nodes[first + node].call_order = Some(place);
            }
        }
        for (guarded, prerequisites) in rules.graph.edges.iter().enumerate() {
            let reason = rules.blocked[guarded].as_ref().map(|b| match b {
                Blocked::NeverRecorded { prerequisite, .. }
                | Blocked::Cycle { prerequisite }
                | Blocked::Transitive { prerequisite } => *prerequisite,
            });
            for &p in prerequisites {
                let on_cycle =
                    rules.components.of[guarded] == rules.components.of[p] && rules.on_cycle(p);
                let edge = self.edge(EdgeKind::Requires, first + p, first + guarded);
                edge.on_cycle = on_cycle;
                edge.blocking = reason == Some(p);
            }
        }
        self.unanalysed_rules(cluster, first, rules, block, ends);
    }

    /// The rules the analysis leaves out, as written: each end the agent does not hold (or
    /// that binds arguments) a `missing` node carrying the code that reports it, each held end
    /// the analysis did not reach (the prerequisite of a guarded skill that is missing) a plain
    /// node, and an edge for every prerequisite written. Each node and edge once.
    fn unanalysed_rules(
        &mut self,
        cluster: usize,
        first: usize,
        rules: &requires::RequiresGraph,
        block: &RequiresBlock,
        ends: &Ends<'_, '_>,
    ) {
        let mut extra: HashMap<String, usize> = HashMap::new();
        let mut drawn: HashSet<(usize, usize)> = HashSet::new();
        let mut end = |builder: &mut Builder, id: &str| -> (usize, bool) {
            let usable = !requires::is_parameterised(id) && (ends.held)(id);
            if let Some(node) = rules.index_of(id).filter(|_| usable) {
                return (first + node, true);
            }
            if let Some(&node) = extra.get(id) {
                return (node, usable);
            }
            let node = builder.node(NodeKind::Skill, id, cluster);
            let entry = &mut builder.graph.nodes[node];
            if usable {
                entry.implementation =
                    crate::semantics::registry::skill_named(ends.lookup, ends.workspace, id)
                        .and_then(|s| s.implementation);
            } else {
                entry.state.missing = true;
                entry.code = Some(missing_code(id));
            }
            extra.insert(id.to_owned(), node);
            (node, usable)
        };
        for rule in &block.rules {
            let (guarded, guarded_usable) = end(self, &rule.guarded.value);
            for prerequisite in &rule.prerequisites {
                let (p, usable) = end(self, &prerequisite.value);
                // Both ends held: the analysis drew it already.
                if guarded_usable && usable {
                    continue;
                }
                if drawn.insert((p, guarded)) {
                    self.edge(EdgeKind::Requires, p, guarded);
                }
            }
        }
    }

    /// The composed skills `ids` (those that are composed) of a workspace and everything they
    /// compose, each once.
    pub(super) fn composes(
        &mut self,
        lookup: &Lookup<'_>,
        index: &Index,
        workspace: FileId,
        ids: &[String],
    ) {
        let graph = composes_graph(lookup, workspace);
        let mut seen = vec![false; graph.ids.len()];
        let mut queue: VecDeque<usize> = VecDeque::new();
        for id in ids {
            if let Some(node) = graph.node(id) {
                if !seen[node] {
                    seen[node] = true;
                    queue.push_back(node);
                }
            }
        }
        if queue.is_empty() {
            return;
        }
        let name = workspace_name(index, workspace);
        let cluster = self.cluster(ClusterKind::Composes, &name, None);
        // Breadth first from the roots, so the order is the roots' then their parts'.
        let mut order = Vec::new();
        while let Some(node) = queue.pop_front() {
            order.push(node);
            for part in graph.parts(node) {
                if let Some(to) = graph.node(part) {
                    if !seen[to] {
                        seen[to] = true;
                        queue.push_back(to);
                    }
                }
            }
        }
        let mut drawn: HashMap<usize, usize> = HashMap::new();
        for &node in &order {
            let n = self.node(NodeKind::Composed, &graph.ids[node], cluster);
            self.graph.nodes[n].implementation = Some(ImplementationType::Composed);
            let on_cycle = graph.on_cycle(node);
            self.graph.nodes[n].state.cycle = on_cycle;
            self.graph.nodes[n].state.blocked =
                !on_cycle && graph.unbuildable(&graph.ids[node]).is_some();
            drawn.insert(node, n);
        }
        let mut leaves: HashMap<String, usize> = HashMap::new();
        for &node in &order {
            for (k, part) in graph.parts(node).enumerate() {
                let (to, on_cycle) = match graph.node(part) {
                    Some(to) => (drawn[&to], graph.same_loop(node, to)),
                    None => {
                        let leaf = match leaves.get(part) {
                            Some(&leaf) => leaf,
                            None => {
                                let leaf = self.node(NodeKind::Part, part, cluster);
                                self.graph.nodes[leaf].implementation =
                                    crate::semantics::registry::skill_named(
                                        lookup, workspace, part,
                                    )
                                    .and_then(|s| s.implementation);
                                let missing = graph.is_missing(part);
                                self.graph.nodes[leaf].state.missing = missing;
                                self.graph.nodes[leaf].code =
                                    missing.then_some(codes::SKILL_COMPOSED_UNKNOWN);
                                leaves.insert(part.to_owned(), leaf);
                                leaf
                            }
                        };
                        (leaf, false)
                    }
                };
                let edge = self.edge(EdgeKind::Composes, drawn[&node], to);
                edge.step = Some(k + 1);
                edge.on_cycle = on_cycle;
            }
        }
    }

    /// The chains of SKILL.md files at or below the roots, and every skill they reach.
    pub(super) fn chains(
        &mut self,
        lookup: &Lookup<'_>,
        index: &Index,
        in_scope: &dyn Fn(&Path) -> bool,
    ) {
        let graph = crate::semantics::chain::chain_graph(lookup);
        let mut seen = vec![false; graph.len()];
        let mut queue: VecDeque<usize> = VecDeque::new();
        // Numbered in path order, so the roots come in path order.
        for (node, seen) in seen.iter_mut().enumerate() {
            let in_roots = index
                .file(graph.file(node))
                .is_some_and(|f| in_scope(&f.path));
            if in_roots && graph.calls(node).next().is_some() {
                *seen = true;
                queue.push_back(node);
            }
        }
        if queue.is_empty() {
            return;
        }
        let cluster = self.cluster(ClusterKind::Chains, "", None);
        let mut order = Vec::new();
        while let Some(node) = queue.pop_front() {
            order.push(node);
            for (to, _) in graph.calls(node) {
                if !seen[to] {
                    seen[to] = true;
                    queue.push_back(to);
                }
            }
        }
        let mut drawn = vec![usize::MAX; graph.len()];
        for &node in &order {
            let n = self.node(NodeKind::SkillMd, graph.name(node), cluster);
            let asynchronous = index
                .file(graph.file(node))
                .and_then(crate::semantics::chain::chain_of)
                .is_some_and(|chain| chain.runs_async());
            let on_cycle = graph.on_cycle(node);
            let entry = &mut self.graph.nodes[n];
            entry.asynchronous = asynchronous;
            entry.state.cycle = on_cycle;
            entry.state.blocked = !on_cycle && graph.reaches_loop(node);
            drawn[node] = n;
        }
        for &node in &order {
            let asynchronous = self.graph.nodes[drawn[node]].asynchronous;
            for (to, entry) in graph.calls(node) {
                let on_cycle = graph.same_loop(node, to);
                let edge = self.edge(EdgeKind::Chain, drawn[node], drawn[to]);
                edge.asynchronous = asynchronous;
                edge.step = (!asynchronous).then_some(entry + 1);
                edge.on_cycle = on_cycle;
            }
        }
    }
}

/// What the drawing of an agent's rules asks of the agent: whether it holds an id, and where
/// a skill's type is looked up.
struct Ends<'l, 'i> {
    lookup: &'l Lookup<'i>,
    workspace: FileId,
    held: &'l dyn Fn(&str) -> bool,
}

/// The code that reports a `requires:` end the analysis leaves out.
fn missing_code(id: &str) -> Code {
    if requires::is_parameterised(id) {
        codes::AGENT_REQUIRES_PARAMETERISED
    } else {
        codes::AGENT_REQUIRES_UNKNOWN_SKILL
    }
}

/// `topologies/estate.yaml`: a file's path below its workspace's folder, with `/`.
fn relative_source(index: &Index, workspace: FileId, file: FileId) -> Option<String> {
    let folder = index.file(workspace)?.path.parent()?;
    let path = &index.file(file)?.path;
    let relative = path.strip_prefix(folder).unwrap_or(path);
    let parts: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    Some(parts.join("/"))
}

/// A workspace as the picture names it: its manifest's id, else its folder.
fn workspace_name(index: &Index, workspace: FileId) -> String {
    let Some(entry) = index.file(workspace) else {
        return String::new();
    };
    if let Content::SwarmKit(Artifact::Workspace(manifest)) = &entry.parsed.content {
        if let Some(id) = &manifest.id {
            return id.value.clone();
        }
    }
    entry
        .path
        .parent()
        .and_then(Path::file_name)
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
}
