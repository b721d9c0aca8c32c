//! `requires:` — per-agent ordering rules over the agent's skills, resolved into a graph that
//! the checks (`rules::requires`), the hover, the inlay hints and the ordering graph all read.
//!
//! What the runtime does (SwarmKit 1.191+): before dispatching a guarded skill through the
//! permission gate, it checks that every prerequisite has been called successfully by this agent
//! in this run, and refuses otherwise with an actionable message. Two facts make some rules
//! impossible or empty:
//! - only a successful **MCP tool** call is recorded as "called", so a prerequisite of any other
//!   implementation type is never satisfied and whatever it guards is blocked forever;
//! - only `mcp_tool`, `command` and `agent` skills pass the gate, so a rule guarding an
//!   `llm_prompt` or `composed` skill is never checked.

use std::collections::HashMap;

use crate::diagnostic::FileId;
use crate::graph::cycles::{Components, Digraph};
use crate::graph::path;
use crate::index::Lookup;
use crate::model::swarmkit::{ImplementationType, RequiresBlock};
use crate::semantics::grants::EffectiveSkills;
use crate::syntax::TextRange;

/// Why a guarded skill can never be called.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Blocked {
    /// Its prerequisite `prerequisite` has a type the runtime never records as called.
    NeverRecorded {
        prerequisite: usize,
        kind: ImplementationType,
    },
    /// Its prerequisite lies on a `requires` cycle.
    Cycle { prerequisite: usize },
    /// Its prerequisite is itself blocked.
    Transitive { prerequisite: usize },
}

impl Blocked {
    fn prerequisite(&self) -> usize {
        match self {
            Blocked::NeverRecorded { prerequisite, .. }
            | Blocked::Cycle { prerequisite }
            | Blocked::Transitive { prerequisite } => *prerequisite,
        }
    }
}

/// One agent's ordering rules, resolved: the skills they mention, the graph (edges from a
/// guarded skill to its prerequisites), each skill's implementation type, cycles and blocked
/// skills. Shared by the checks and the hover.
#[derive(Clone, Debug, Default)]
pub struct RequiresGraph {
    /// Skill ids in order of first appearance in the block.
    pub skills: Vec<String>,
    positions: HashMap<String, usize>,
    /// Where each skill is first written in the block.
    pub ranges: Vec<TextRange>,
    pub graph: Digraph,
    /// Per edge (guarded, prerequisite): the prerequisite's range.
    edge_ranges: HashMap<(usize, usize), TextRange>,
    pub types: Vec<Option<ImplementationType>>,
    pub components: Components,
    /// One cycle per tangle of rules requiring each other (see [`Digraph::cycles`]).
    pub cycles: Vec<Vec<usize>>,
    /// The cycle of each cyclic component, by component.
    cycle_of_component: HashMap<usize, usize>,
    pub blocked: Vec<Option<Blocked>>,
    /// Per blocked skill: the hops from it to the cause, and the last hop (guarded, prerequisite).
    cause: Vec<(usize, (usize, usize))>,
}

impl RequiresGraph {
    pub fn index_of(&self, skill: &str) -> Option<usize> {
        self.positions.get(skill).copied()
    }

    fn node(&mut self, skill: &str, range: TextRange) -> usize {
        if let Some(&node) = self.positions.get(skill) {
            return node;
        }
        let node = self.graph.add_node();
        self.skills.push(skill.to_owned());
        self.positions.insert(skill.to_owned(), node);
        self.ranges.push(range);
        node
    }

    pub fn edge_range(&self, from: usize, to: usize) -> Option<TextRange> {
        self.edge_ranges.get(&(from, to)).copied()
    }

    pub fn on_cycle(&self, node: usize) -> bool {
        self.components.on_cycle(node)
    }

    /// The cycle shown for the tangle `node` is caught in.
    pub fn cycle_through(&self, node: usize) -> Option<&[usize]> {
        let cycle = self.cycle_of_component.get(&self.components.of[node])?;
        Some(&self.cycles[*cycle])
    }

    /// The cycle as names, returning to its first skill, elided when long.
    pub fn cycle_text(&self, cycle: &[usize]) -> String {
        let names: Vec<&str> = cycle
            .iter()
            .chain(cycle.first())
            .map(|&i| self.skills[i].as_str())
            .collect();
        path::render(&names)
    }

    /// Prerequisites of `node`, transitively, nearest first.
    pub fn requires_transitively(&self, node: usize) -> Vec<usize> {
        self.reachable(node, &self.graph.edges)
    }

    /// Skills that require `node`, directly or through other rules, nearest first: the rules the
    /// runtime would refuse if `node` were never called.
    pub fn required_by_transitively(&self, node: usize) -> Vec<usize> {
        let mut dependents = vec![Vec::new(); self.skills.len()];
        for (guarded, prerequisites) in self.graph.edges.iter().enumerate() {
            for &p in prerequisites {
                dependents[p].push(guarded);
            }
        }
        self.reachable(node, &dependents)
    }

    /// The nodes reachable from `node` along `edges`, breadth first, without `node` itself.
    fn reachable(&self, node: usize, edges: &[Vec<usize>]) -> Vec<usize> {
        let mut seen = vec![false; self.skills.len()];
        let mut order = Vec::new();
        let mut queue = std::collections::VecDeque::from([node]);
        seen[node] = true;
        while let Some(n) = queue.pop_front() {
            for &p in &edges[n] {
                if !seen[p] {
                    seen[p] = true;
                    order.push(p);
                    queue.push_back(p);
                }
            }
        }
        order
    }

    /// A valid call order for `node`: its prerequisites (transitively) first, then itself.
    /// `None` when the node is blocked or on a cycle.
    pub fn call_order(&self, node: usize) -> Option<Vec<usize>> {
        if self.blocked[node].is_some() || self.on_cycle(node) {
            return None;
        }
        let mut needed = vec![false; self.skills.len()];
        needed[node] = true;
        for n in self.requires_transitively(node) {
            needed[n] = true;
        }
        let order = self.graph.dependency_order();
        Some(order.into_iter().filter(|&n| needed[n]).collect())
    }

    /// The hops of the path from a blocked skill to the cause that are shown: the first ones,
    /// then (when the path is long) how many are left out and the last hop.
    pub(crate) fn shown_blocked_path(&self, node: usize) -> (Vec<(usize, usize)>, usize) {
        let Some((hops, last)) = self
            .cause
            .get(node)
            .copied()
            .filter(|_| self.blocked[node].is_some())
        else {
            return (Vec::new(), 0);
        };
        let shown = path::split(hops + 1, path::MAX_HOPS - 2, 0);
        let mut edges = Vec::new();
        let mut current = node;
        for _ in 0..shown.head.min(hops) {
            let Some(reason) = &self.blocked[current] else {
                break;
            };
            let prerequisite = reason.prerequisite();
            edges.push((current, prerequisite));
            current = prerequisite;
        }
        if shown.omitted > 0 {
            edges.truncate(shown.head - 1);
            edges.push(last);
        }
        (edges, shown.omitted)
    }

    /// "it requires A, which requires B, an llm_prompt skill that the runtime never records as
    /// called" — the path from a blocked skill to the cause, elided in the middle when long.
    pub fn explain_blocked(&self, node: usize) -> String {
        let (edges, omitted) = self.shown_blocked_path(node);
        let mut text = String::new();
        for (i, &(_, prerequisite)) in edges.iter().enumerate() {
            if i > 0 && i == edges.len() - 1 && omitted > 0 {
                text.push_str(", ");
                text.push_str(&path::omission(omitted));
            }
            text.push_str(if i == 0 {
                "it requires "
            } else {
                ", which requires "
            });
            text.push_str(&self.skills[prerequisite]);
        }
        let last = edges.last().map(|&(from, _)| from);
        match last.and_then(|from| self.blocked[from].as_ref()) {
            Some(Blocked::NeverRecorded { kind, .. }) => text.push_str(&format!(
                ", {} {} skill that the runtime never records as called",
                article(kind.as_str()),
                kind.as_str()
            )),
            Some(Blocked::Cycle { prerequisite }) => {
                let cycle = self
                    .cycle_through(*prerequisite)
                    .map_or_else(String::new, |c| self.cycle_text(c));
                text.push_str(&format!(", which is caught in the requires cycle {cycle}"));
            }
            _ => {}
        }
        text
    }
}

pub(crate) fn article(word: &str) -> &'static str {
    // By sound: "an llm_prompt", "an mcp_tool", "a composed".
    match word.chars().next() {
        Some('a' | 'e' | 'i' | 'o' | 'u' | 'l' | 'm') => "an",
        _ => "a",
    }
}

/// True for an entry written `skill(arg=$x)`, which SwarmKit does not support.
pub fn is_parameterised(id: &str) -> bool {
    id.contains('(')
}

/// Builds the requires graph of an agent. Unknown and parameterised entries are left out (they
/// are reported on their own).
pub fn build(
    lookup: &Lookup<'_>,
    workspace: FileId,
    block: &RequiresBlock,
    effective: &EffectiveSkills<'_, '_>,
) -> RequiresGraph {
    let mut g = RequiresGraph::default();
    let usable = |id: &str| !is_parameterised(id) && effective.contains(id);
    for rule in &block.rules {
        if !usable(&rule.guarded.value) {
            continue;
        }
        let guarded = g.node(&rule.guarded.value, rule.guarded.range);
        for prerequisite in &rule.prerequisites {
            if !usable(&prerequisite.value) {
                continue;
            }
            let p = g.node(&prerequisite.value, prerequisite.range);
            if let std::collections::hash_map::Entry::Vacant(slot) =
                g.edge_ranges.entry((guarded, p))
            {
                slot.insert(prerequisite.range);
                g.graph.add_edge(guarded, p);
            }
        }
    }
    g.types = g
        .skills
        .iter()
        .map(|id| {
            crate::semantics::registry::skill_named(lookup, workspace, id)
                .and_then(|s| s.implementation)
        })
        .collect();
    g.components = g.graph.components();
    g.cycles = g.graph.cycles_of(&g.components);
    g.cycle_of_component = g
        .cycles
        .iter()
        .enumerate()
        .map(|(i, cycle)| (g.components.of[cycle[0]], i))
        .collect();
    // Blocked status, settled component by component in dependency order, so every prerequisite
    // is decided before what it guards: one pass, linear in rules.
    g.blocked = vec![None; g.skills.len()];
    g.cause = vec![(0, (0, 0)); g.skills.len()];
    for (component, members) in g.components.members.iter().enumerate() {
        let node = members[0];
        // A skill no gate checks is never refused, whatever it requires.
        let ungated = g.types[node].is_some_and(|t| !t.is_gated());
        if g.components.cyclic[component] || ungated {
            continue;
        }
        let reason = g.graph.edges[node].iter().find_map(|&p| {
            if g.components.on_cycle(p) {
                Some(Blocked::Cycle { prerequisite: p })
            } else if let Some(kind) = g.types[p].filter(|k| !k.records_calls()) {
                Some(Blocked::NeverRecorded {
                    prerequisite: p,
                    kind,
                })
            } else if g.blocked[p].is_some() {
                Some(Blocked::Transitive { prerequisite: p })
            } else {
                None
            }
        });
        if let Some(reason) = reason {
            g.cause[node] = match reason {
                Blocked::Transitive { prerequisite } => {
                    let (hops, last) = g.cause[prerequisite];
                    (hops + 1, last)
                }
                _ => (1, (node, reason.prerequisite())),
            };
            g.blocked[node] = Some(reason);
        }
    }
    g
}
