//! The host graph in the ordering graph: who names which skill outside SwarmKit. A SKILL.md
//! body or a prose file (`CLAUDE.md`, a subagent, a command, ...) mentioning a skill
//! (`mentions`), a subagent preloading one with `skills:` (`preloads`), and a forked skill
//! running in a subagent or built-in type through `agent:` (`runs-in`). Each edge runs from the
//! naming side to the named one, once per pair, so the output is bounded by what the files
//! write. Mentions are not ordering: a loop of mentions is drawn, not flagged.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::builder::Builder;
use super::{ClusterKind, EdgeKind, NodeKind};
use crate::diagnostic::FileId;
use crate::index::{Content, FileEntry, Index, Lookup};
use crate::model::hosts::prose::ProseKind;
use crate::semantics::mentions::{fork_target, mentions_of, preload_targets, targets, ForkTarget};

/// One end of a drawn edge.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum End {
    File(FileId),
    Builtin(&'static str),
}

impl Builder {
    /// The mentions, preloads and forks of the SKILL.md and prose files at or below `roots`.
    pub(super) fn hosts(
        &mut self,
        lookup: &Lookup<'_>,
        index: &Index,
        in_scope: &dyn Fn(&Path) -> bool,
        roots: &[PathBuf],
    ) {
        let mut files: Vec<&FileEntry> = index
            .files()
            .filter(|f| in_scope(&f.path))
            .filter(|f| matches!(f.parsed.content, Content::SkillMd(_) | Content::Prose(_)))
            .collect();
        files.sort_by(|a, b| a.path.cmp(&b.path));
        let mut edges: Vec<(EdgeKind, End, End)> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut push = |kind: EdgeKind, from: End, to: End| {
            if from != to && seen.insert((kind.as_str(), from.clone(), to.clone())) {
                edges.push((kind, from, to));
            }
        };
        for entry in &files {
            for mention in mentions_of(entry) {
                for (id, _) in targets(lookup, entry, &mention) {
                    push(EdgeKind::Mentions, End::File(entry.id), End::File(id));
                }
            }
            match &entry.parsed.content {
                Content::Prose(prose) if prose.kind == ProseKind::Subagent => {
                    for preload in &prose.skills {
                        for skill in preload_targets(lookup, entry, &preload.value) {
                            push(EdgeKind::Preloads, End::File(entry.id), End::File(skill.id));
                        }
                    }
                }
                Content::SkillMd(skill) => match fork_target(lookup, &entry.path, skill) {
                    Some(ForkTarget::Subagent(agent)) => {
                        push(EdgeKind::RunsIn, End::File(entry.id), End::File(agent.id))
                    }
                    Some(ForkTarget::Builtin(name)) => {
                        push(EdgeKind::RunsIn, End::File(entry.id), End::Builtin(name))
                    }
                    None => {}
                },
                _ => {}
            }
        }
        if edges.is_empty() {
            return;
        }
        let cluster = self.cluster(ClusterKind::Hosts, "", None);
        let mut drawn: HashMap<End, usize> = HashMap::new();
        for (kind, from, to) in edges {
            let mut end = |this: &mut Builder, end: End| -> usize {
                if let Some(&n) = drawn.get(&end) {
                    return n;
                }
                let (kind, name) = describe(index, &end, roots);
                let n = this.node(kind, &name, cluster);
                drawn.insert(end, n);
                n
            };
            let from = end(self, from);
            let to = end(self, to);
            self.edge(kind, from, to);
        }
    }
}

/// A drawn end's kind and name: a skill by its name, a subagent by its name, a prose file by
/// its path below the root drawn, a built-in type by its name.
fn describe(index: &Index, end: &End, roots: &[PathBuf]) -> (NodeKind, String) {
    let id = match end {
        End::Builtin(name) => return (NodeKind::BuiltinAgent, (*name).to_owned()),
        End::File(id) => *id,
    };
    let Some(entry) = index.file(id) else {
        return (NodeKind::Prose, String::new());
    };
    let relative = || {
        let below = roots
            .iter()
            .find_map(|root| entry.path.strip_prefix(root).ok())
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(&entry.path);
        below
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join("/")
    };
    match &entry.parsed.content {
        Content::SkillMd(skill) => (
            NodeKind::SkillMd,
            skill.normalized_name().unwrap_or_else(relative),
        ),
        Content::Prose(prose) if prose.kind == ProseKind::Subagent => (
            NodeKind::Subagent,
            prose
                .name
                .as_ref()
                .map(|n| n.value.clone())
                .unwrap_or_else(relative),
        ),
        _ => (NodeKind::Prose, relative()),
    }
}
