//! What a SKILL.md chain means across the file set: what each entry resolves to (same parent
//! folder first, then the shallowest deeper folder; a name found only outside the parent folder
//! is `Outside`), and the graph of chains calling chains, built once per state of every skill's
//! name and chain (`Key::SkillMdChains`) from the lowered chains. The rules judge it
//! (`rules::chain`); hover, definition, references, completion and the ordering graph read it.

use std::collections::HashMap;
use std::path::{Component, Path};

use crate::diagnostic::FileId;
use crate::graph::cycles::{Components, Digraph};
use crate::graph::path;
use crate::index::{Content, FileEntry, Index, Key, Lookup};
use crate::model::skill_md::extensions::Chain;
use crate::model::skill_md::{normalize_name, skill_root};
use crate::syntax::TextRange;

/// An entry is a path to a skill folder rather than a name.
pub fn is_path(entry: &str) -> bool {
    entry.contains('/') || entry.contains('\\') || entry.starts_with('~')
}

/// Why a path entry leaves the chain's parent folder, if it does.
pub fn path_escape(entry: &str) -> Option<&'static str> {
    let absolute = entry.starts_with('/')
        || entry.starts_with('\\')
        || entry.starts_with('~')
        || entry.as_bytes().get(1) == Some(&b':');
    if absolute {
        return Some("an absolute path");
    }
    Path::new(&entry.replace('\\', "/"))
        .components()
        .any(|c| c == Component::ParentDir)
        .then_some("a path going up (`..`)")
}

/// What a chain entry resolves to.
pub enum Target<'a> {
    /// A skill inside the chain's parent folder.
    Found(&'a FileEntry),
    /// A skill of that name, but only outside the chain's parent folder.
    Outside(&'a FileEntry),
    Unknown,
    /// A path entry going up or absolute (reported locally).
    Invalid,
}

/// Resolves one chain entry of the skill at `from` (its SKILL.md path).
pub fn resolve<'a>(lookup: &Lookup<'a>, from: &Path, entry: &str) -> Target<'a> {
    let Some(parent) = skill_root(from) else {
        return Target::Unknown;
    };
    if is_path(entry) {
        if path_escape(entry).is_some() {
            return Target::Invalid;
        }
        let relative = entry.replace('\\', "/");
        let relative = relative
            .trim_end_matches("SKILL.md")
            .trim_end_matches('/')
            .trim_start_matches("./");
        let folder = crate::model::tools::tool_list_path(parent, relative);
        let skill = folder.join("SKILL.md");
        let Some(root) = folder.parent() else {
            return Target::Unknown;
        };
        return lookup
            .get(Key::SkillMdIn {
                parent: root.to_owned(),
            })
            .into_iter()
            .find(|e| e.path == skill)
            .map_or(Target::Unknown, Target::Found);
    }
    let candidates = lookup.get(Key::SkillMdNamed {
        name: normalize_name(entry),
    });
    if let Some(same) = candidates
        .iter()
        .find(|c| skill_root(&c.path) == Some(parent))
    {
        return Target::Found(same);
    }
    let deeper = candidates
        .iter()
        .filter(|c| skill_root(&c.path).is_some_and(|r| r.starts_with(parent)))
        .min_by_key(|c| (c.path.components().count(), &c.path));
    match (deeper, candidates.first()) {
        (Some(found), _) => Target::Found(found),
        (None, Some(outside)) => Target::Outside(outside),
        (None, None) => Target::Unknown,
    }
}

/// How a skill is called in messages: its name, else its folder.
pub fn display(entry: &FileEntry) -> String {
    if let Content::SkillMd(skill) = &entry.parsed.content {
        if let Some(name) = skill.normalized_name() {
            return name;
        }
    }
    entry
        .path
        .parent()
        .and_then(Path::file_name)
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
}

/// The chain of a SKILL.md, when it is a list.
pub fn chain_of(entry: &FileEntry) -> Option<&Chain> {
    match &entry.parsed.content {
        Content::SkillMd(skill) => skill.extensions.chain_list(),
        _ => None,
    }
}

/// The graph of chain calls between all named SKILL.md files, built once per state of their
/// names and chains (`Key::SkillMdChains`) and shared by every chain's check: components, one
/// cycle per tangle, and for every skill not on a cycle either the way to the nearest loop it
/// reaches or its deepest nesting, each settled in dependency order (callees first).
#[derive(Debug, Default)]
pub struct ChainGraph {
    pub(crate) files: Vec<FileId>,
    pub(crate) names: Vec<String>,
    pub(crate) by_file: HashMap<FileId, usize>,
    /// Per skill: its chain entries that resolve, as (callee, entry range), in order. The ranges
    /// are those of the state the graph was built from; diagnostics take live ones through
    /// `call_entries` (the graph's key ignores where entries are).
    pub(crate) calls: Vec<Vec<(usize, TextRange)>>,
    /// Per skill, per call: the index of its entry in the skill's chain.
    pub(crate) call_entries: Vec<Vec<usize>>,
    pub(crate) components: Components,
    /// The cycle shown for each cyclic component, by component.
    pub(crate) cycle: HashMap<usize, Vec<usize>>,
    /// Per skill off every cycle: the path it follows, toward a loop when it reaches one, else
    /// along its deepest nesting.
    onward: Onward,
    reaches_loop: Vec<bool>,
}

/// Paths that follow one chosen call per skill: `next[n]` (a call index), `hops[n]` to the end,
/// and `anchor[n]`, the first skill on the path with at most [`ANCHOR_HOPS`] hops left, so the
/// tail of any path is read without walking it.
#[derive(Debug, Default)]
struct Onward {
    next: Vec<Option<usize>>,
    hops: Vec<usize>,
    anchor: Vec<usize>,
}

const ANCHOR_HOPS: usize = path::MAX_RELATED / 2 + 1;

/// The chain graph of the file set, built once per state of its names and chains.
pub fn chain_graph(lookup: &Lookup<'_>) -> std::sync::Arc<ChainGraph> {
    lookup.memo(Key::SkillMdChains, ChainGraph::build)
}

/// What the ordering graph reads: skills are numbered `0..len()` in path order.
impl ChainGraph {
    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    pub fn file(&self, node: usize) -> FileId {
        self.files[node]
    }

    /// How the skill is called in messages: its name, else its folder.
    pub fn name(&self, node: usize) -> &str {
        &self.names[node]
    }

    pub fn node_of(&self, file: FileId) -> Option<usize> {
        self.by_file.get(&file).copied()
    }

    /// The chain entries of `node` that resolve, in order, as (callee, index of the entry in
    /// the chain).
    pub fn calls(&self, node: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.calls[node]
            .iter()
            .zip(&self.call_entries[node])
            .map(|(&(to, _), &entry)| (to, entry))
    }

    pub fn on_cycle(&self, node: usize) -> bool {
        self.components.on_cycle(node)
    }

    /// Whether two skills lie in one loop of chains calling each other.
    pub fn same_loop(&self, a: usize, b: usize) -> bool {
        self.components.of[a] == self.components.of[b] && self.components.on_cycle(a)
    }

    /// Off every cycle, but reaching one: its nesting never ends (`skillmd.chain-depth`).
    pub fn reaches_loop(&self, node: usize) -> bool {
        self.reaches_loop[node]
    }
}

impl ChainGraph {
    fn build(index: &Index) -> ChainGraph {
        let mut entries: Vec<&FileEntry> = index
            .contributors(&Key::SkillMdChains)
            .filter_map(|id| index.file(id))
            .collect();
        // Numbered by path, so a tangle's earliest member is the one whose path sorts first.
        entries.sort_by(|a, b| a.path.cmp(&b.path));
        let mut g = ChainGraph {
            files: entries.iter().map(|e| e.id).collect(),
            names: entries.iter().map(|e| display(e)).collect(),
            ..ChainGraph::default()
        };
        g.by_file = g.files.iter().enumerate().map(|(i, f)| (*f, i)).collect();
        // Resolution reads are the memo key's business, not any one checker's.
        let resolver = Lookup::new(index);
        let resolved: Vec<Vec<(usize, TextRange, usize)>> = entries
            .iter()
            .map(|entry| {
                chain_of(entry).map_or_else(Vec::new, |chain| {
                    chain
                        .entries
                        .iter()
                        .enumerate()
                        .filter_map(|(k, e)| match resolve(&resolver, &entry.path, &e.value) {
                            Target::Found(target) => {
                                g.by_file.get(&target.id).map(|&to| (to, e.range, k))
                            }
                            _ => None,
                        })
                        .collect()
                })
            })
            .collect();
        g.call_entries = resolved
            .iter()
            .map(|calls| calls.iter().map(|c| c.2).collect())
            .collect();
        g.calls = resolved
            .into_iter()
            .map(|calls| {
                calls
                    .into_iter()
                    .map(|(to, range, _)| (to, range))
                    .collect()
            })
            .collect();
        let mut graph = Digraph::new(g.files.len());
        for (from, calls) in g.calls.iter().enumerate() {
            for &(to, _) in calls {
                graph.add_edge(from, to);
            }
        }
        g.components = graph.components();
        for cycle in graph.cycles_of(&g.components) {
            g.cycle.insert(g.components.of[cycle[0]], cycle);
        }
        let n = g.files.len();
        g.reaches_loop = vec![false; n];
        g.onward = Onward {
            next: vec![None; n],
            hops: vec![0; n],
            anchor: (0..n).collect(),
        };
        for (component, members) in g.components.members.iter().enumerate() {
            if g.components.cyclic[component] {
                continue;
            }
            let node = members[0];
            let (reaches, next, hops) = g.settle(&g.calls[node]);
            g.reaches_loop[node] = reaches;
            g.onward.next[node] = next;
            g.onward.hops[node] = hops;
            if let Some(call) = next {
                let to = g.calls[node][call].0;
                if hops > ANCHOR_HOPS && !g.components.on_cycle(to) {
                    g.onward.anchor[node] = g.onward.anchor[to];
                }
            }
        }
        g
    }

    /// For a skill off every cycle with these calls (callees already settled): whether it
    /// reaches a loop, the call its path follows, and the hops of that path. The path toward a
    /// loop takes the first call that reaches one; the deepest nesting the first deepest call.
    pub(crate) fn settle(&self, calls: &[(usize, TextRange)]) -> (bool, Option<usize>, usize) {
        let looping = calls
            .iter()
            .position(|&(to, _)| self.components.on_cycle(to) || self.reaches_loop[to]);
        if let Some(call) = looping {
            let to = calls[call].0;
            let rest = if self.components.on_cycle(to) {
                0
            } else {
                self.onward.hops[to]
            };
            return (true, Some(call), 1 + rest);
        }
        let mut best: (usize, Option<usize>) = (0, None);
        for (call, &(to, _)) in calls.iter().enumerate() {
            let depth = 1 + self.onward.hops[to];
            if depth > best.0 {
                best = (depth, Some(call));
            }
        }
        (false, best.1, best.0)
    }

    /// The `i`-th skill (`i >= 1`) of the path that starts with call `first` of `calls` and
    /// then follows each skill's chosen call; O(1) near either end of the path.
    pub(crate) fn onward_at_calls(
        &self,
        calls: &[(usize, TextRange)],
        first: usize,
        i: usize,
    ) -> usize {
        let mut at = calls[first].0;
        let mut index = 1;
        let anchor = self.onward.anchor[at];
        let anchor_index = 1 + (self.onward.hops[at] - self.onward.hops[anchor]);
        if i >= anchor_index {
            at = anchor;
            index = anchor_index;
        }
        while index < i {
            let Some(call) = self.onward.next[at] else {
                break;
            };
            at = self.calls[at][call].0;
            index += 1;
        }
        at
    }

    /// Where `from`'s chain calls `to`, as the file reads now: the graph's own ranges may be
    /// stale (see `calls`). Records the read of `from`'s entry, so the caller is re-checked when
    /// that file's entries move.
    pub(crate) fn live_range(
        &self,
        lookup: &Lookup<'_>,
        from: usize,
        to: usize,
    ) -> Option<TextRange> {
        let call = self.calls[from].iter().position(|(t, _)| *t == to)?;
        let entry = lookup.index().file(self.files[from])?;
        if let Content::SkillMd(skill) = &entry.parsed.content {
            if let Some(name) = skill.normalized_name() {
                lookup.get(Key::SkillMdNamed { name });
            }
        }
        let chain = chain_of(entry)?;
        Some(chain.entries.get(self.call_entries[from][call])?.range)
    }
}
