//! The composes graph of a workspace, built once per state of its skills and shared by every
//! check that needs it (see `Lookup::memo`): which composed skills compose each other in loops,
//! and which cannot be built (a loop or a missing part anywhere below them). SwarmKit resolves
//! `composes` against the skills of `skills/` and the bundled memory skills only.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use crate::diagnostic::FileId;
use crate::graph::cycles::{Components, Digraph, LoopsThrough};
use crate::index::{Content, Index, Key, Lookup};
use crate::model::swarmkit::{Artifact, ImplementationType};
use crate::syntax::TextRange;

/// The composed skills of a workspace (each id as it resolves: its first file in path order)
/// and the graph of their `composes` entries that name other composed skills.
#[derive(Debug, Default)]
pub struct ComposesGraph {
    pub ids: Vec<String>,
    pub files: Vec<FileId>,
    /// The `composes` entries of each composed skill, in order.
    parts: Vec<Vec<(String, TextRange)>>,
    by_id: HashMap<String, usize>,
    graph: Digraph,
    components: Components,
    loops: LoopsThrough,
    unbuildable: Vec<Option<String>>,
    /// Parts named by some composed skill that resolve to no skill.
    missing: std::collections::HashSet<String>,
}

/// The workspace's composes graph, recording the read of every skill's composes entries.
pub fn composes_graph(lookup: &Lookup<'_>, workspace: FileId) -> Arc<ComposesGraph> {
    lookup.memo(Key::Composes { workspace }, |index| {
        ComposesGraph::build(index, workspace)
    })
}

impl ComposesGraph {
    fn build(index: &Index, workspace: FileId) -> ComposesGraph {
        // Each id as the resolver picks it: the first skill file in path order.
        let mut first: HashMap<&str, (&Path, FileId, &crate::model::swarmkit::Skill)> =
            HashMap::new();
        let mut memory = false;
        for file in index.contributors(&Key::Composes { workspace }) {
            let Some(entry) = index.file(file) else {
                continue;
            };
            match &entry.parsed.content {
                Content::SwarmKit(Artifact::Skill(skill)) => {
                    let Some(id) = &skill.id else { continue };
                    let candidate = (entry.path.as_path(), entry.id, skill);
                    first
                        .entry(id.value.as_str())
                        .and_modify(|known| {
                            if candidate.0 < known.0 {
                                *known = candidate;
                            }
                        })
                        .or_insert(candidate);
                }
                Content::SwarmKit(Artifact::Workspace(manifest)) => {
                    memory = manifest.memory_enabled;
                }
                _ => {}
            }
        }
        let exists = |id: &str| {
            first.contains_key(id)
                || (memory
                    && crate::model::defined_skills::MEMORY_SKILLS
                        .iter()
                        .any(|(m, _)| *m == id))
        };
        // Composed skills numbered in path order, so a loop's earliest member is its first file.
        let mut composed: Vec<(&Path, FileId, &crate::model::swarmkit::Skill)> = first
            .values()
            .filter(|(_, _, skill)| skill.implementation() == Some(ImplementationType::Composed))
            .copied()
            .collect();
        composed.sort_by(|a, b| a.0.cmp(b.0));
        let mut g = ComposesGraph::default();
        for (_, file, skill) in &composed {
            let id = skill.id.as_ref().map_or("", |i| i.value.as_str());
            g.by_id.insert(id.to_owned(), g.ids.len());
            g.ids.push(id.to_owned());
            g.files.push(*file);
            g.parts.push(
                skill
                    .composes
                    .iter()
                    .map(|c| (c.value.clone(), c.range))
                    .collect(),
            );
        }
        g.graph = Digraph::new(g.ids.len());
        for node in 0..g.ids.len() {
            for (part, _) in &g.parts[node] {
                if let Some(&to) = g.by_id.get(part) {
                    g.graph.add_edge(node, to);
                }
            }
        }
        g.missing = g
            .parts
            .iter()
            .flatten()
            .filter(|(part, _)| !exists(part))
            .map(|(part, _)| part.clone())
            .collect();
        g.components = g.graph.components();
        g.loops = LoopsThrough::new(&g.graph, &g.components);
        // Settled in dependency order: parts before the skills composing them.
        g.unbuildable = vec![None; g.ids.len()];
        for members in &g.components.members {
            for &node in members {
                let reason = g.parts[node].iter().find_map(|(part, _)| {
                    if !exists(part) {
                        return Some(format!("it composes `{part}`, which does not exist"));
                    }
                    let &to = g.by_id.get(part)?;
                    if g.components.of[to] == g.components.of[node] {
                        Some(format!(
                            "its parts compose each other in a loop through `{}`",
                            g.ids[node]
                        ))
                    } else {
                        g.unbuildable[to].clone()
                    }
                });
                g.unbuildable[node] = reason;
            }
        }
        g
    }

    pub fn node(&self, id: &str) -> Option<usize> {
        self.by_id.get(id).copied()
    }

    /// Why the composed skill `id` cannot be built, if it cannot.
    pub fn unbuildable(&self, id: &str) -> Option<&str> {
        self.unbuildable[self.node(id)?].as_deref()
    }

    pub fn on_cycle(&self, node: usize) -> bool {
        self.components.on_cycle(node)
    }

    /// Whether two composed skills lie in one loop of skills composing each other.
    pub fn same_loop(&self, a: usize, b: usize) -> bool {
        self.components.of[a] == self.components.of[b] && self.components.on_cycle(a)
    }

    /// The `composes` entries of the composed skill `node`, in order.
    pub fn parts(&self, node: usize) -> impl Iterator<Item = &str> {
        self.parts[node].iter().map(|(part, _)| part.as_str())
    }

    /// Whether a part named by some composed skill resolves to no skill.
    pub fn is_missing(&self, part: &str) -> bool {
        self.missing.contains(part)
    }

    /// Hops of the loop shown for `node` (on a cycle).
    pub fn loop_hops(&self, node: usize) -> usize {
        self.loops.hops(node)
    }

    /// The `i`-th skill of the loop shown for `node`.
    pub fn loop_node(&self, node: usize, i: usize) -> usize {
        self.loops.node_at(node, i)
    }

    /// The range of `from`'s `composes` entry naming `to`.
    pub fn entry_range(&self, from: usize, to: usize) -> Option<TextRange> {
        self.parts[from]
            .iter()
            .find(|(part, _)| *part == self.ids[to])
            .map(|(_, range)| *range)
    }
}
