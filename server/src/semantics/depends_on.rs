//! A topology's `depends_on` entries resolved to its agents, and the graph they make: what
//! `agent.depends-on-*` are found on (`rules::agents`) and what the ordering graph draws.

use std::collections::HashMap;

use crate::graph::cycles::Digraph;
use crate::model::swarmkit::Topology;

/// What one `depends_on` entry names.
pub enum Dependency {
    /// The agent itself.
    Itself,
    /// The agent at this index of the topology.
    Agent(usize),
    Unknown,
}

/// The agents of a topology by id, and every `depends_on` entry that takes effect, as (agent
/// index, entry, what it names). Of agents sharing an id (already an error), the runtime keeps
/// the last one for ordering; the others' `depends_on` never takes effect, so it is left out.
pub struct DependsOnEntries<'t> {
    pub index_of: HashMap<&'t str, usize>,
    pub entries: Vec<(usize, &'t crate::model::SpannedStr, Dependency)>,
}

pub fn depends_on_entries(topology: &Topology) -> DependsOnEntries<'_> {
    let index_of: HashMap<&str, usize> = topology
        .agents
        .iter()
        .enumerate()
        .filter_map(|(i, a)| a.id.as_ref().map(|id| (id.value.as_str(), i)))
        .collect();
    let mut entries = Vec::new();
    for (i, agent) in topology.agents.iter().enumerate() {
        let shadowed = agent
            .id
            .as_ref()
            .is_some_and(|id| index_of.get(id.value.as_str()) != Some(&i));
        if shadowed {
            continue;
        }
        for dependency in &agent.depends_on {
            let names_itself = agent
                .id
                .as_ref()
                .is_some_and(|id| id.value == dependency.value);
            let target = if names_itself {
                Dependency::Itself
            } else {
                match index_of.get(dependency.value.as_str()) {
                    Some(&target) => Dependency::Agent(target),
                    None => Dependency::Unknown,
                }
            };
            entries.push((i, dependency, target));
        }
    }
    DependsOnEntries { index_of, entries }
}

/// The `depends_on` graph of a topology over its agents' indices: an edge from an agent to each
/// agent it waits for (an agent naming itself waits for itself). Entries naming no agent and
/// entries of shadowed agents are left out. What `agent.depends-on-cycle` is found on, and what
/// the ordering graph draws.
pub fn depends_on_graph(topology: &Topology) -> Digraph {
    let DependsOnEntries { entries, .. } = depends_on_entries(topology);
    let mut graph = Digraph::new(topology.agents.len());
    for (agent, _, target) in entries {
        match target {
            Dependency::Itself => graph.add_edge(agent, agent),
            Dependency::Agent(to) => graph.add_edge(agent, to),
            Dependency::Unknown => {}
        }
    }
    graph
}
