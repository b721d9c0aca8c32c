//! What a mention in prose names: the mentions of a file (a SKILL.md body, scanned here; a
//! prose file's, scanned when it was analysed) and the skills a mention may mean, scoped by
//! where the file is. Read by the mention rules and by definition and hover.

use std::path::Path;

use crate::diagnostic::FileId;
use crate::index::{Content, FileEntry, Index, Key, Lookup};
use crate::model::mentions::{scan_from, Mention};
use crate::model::skill_links::body_start;

/// The mentions of a file, with ranges in the whole file: a SKILL.md's body, or a prose file's.
pub fn mentions_of(entry: &FileEntry) -> Vec<Mention> {
    match &entry.parsed.content {
        Content::Prose(prose) => prose.mentions.clone(),
        Content::SkillMd(skill) => {
            let Some(start) = body_start(&entry.text, &skill.frontmatter) else {
                return Vec::new();
            };
            scan_from(&entry.text, start)
        }
        _ => Vec::new(),
    }
}

/// The project folder of a file in a host's folder (`<project>/.claude/...`,
/// `<project>/.github/...`, `<project>/.agents/skills/...`): the folder above the first hidden
/// folder on its path. `None` for a file of a collection (`skills/<name>/`) or a project-level
/// `CLAUDE.md`/`AGENTS.md`, whose mentions resolve among every skill the check sees (the index
/// holds one root's files, by the root rule).
fn project_of(path: &Path) -> Option<&Path> {
    path.ancestors().skip(1).find_map(|dir| {
        let hidden = dir
            .file_name()
            .is_some_and(|n| n.as_encoded_bytes().first() == Some(&b'.'));
        hidden.then(|| dir.parent()).flatten()
    })
}

/// The SKILL.md files named `name` that a mention in `path` may mean: those of the same project
/// for a file in a host's folder, every one otherwise. Reads `Key::SkillMdNamed{name}`.
pub fn skills_in_scope<'a>(lookup: &Lookup<'a>, path: &Path, name: &str) -> Vec<&'a FileEntry> {
    let project = project_of(path);
    lookup
        .get(Key::SkillMdNamed {
            name: name.to_owned(),
        })
        .into_iter()
        .filter(|other| project.is_none_or(|project| other.path.starts_with(project)))
        .collect()
}

/// The skills a subagent's `skills:` entry names: those of its name in scope of the subagent's
/// file; in a plugin's subagent, `<plugin>:<name>` (its own plugin's form) names `<name>`.
pub fn preload_targets<'a>(
    lookup: &Lookup<'a>,
    entry: &FileEntry,
    value: &str,
) -> Vec<&'a FileEntry> {
    let bare = entry
        .role
        .plugin_root()
        .and_then(|_| super::plugins::plugin_name_of(lookup, entry))
        .and_then(|plugin| value.strip_prefix(plugin)?.strip_prefix(':'))
        .unwrap_or(value);
    skills_in_scope(lookup, &entry.path, bare)
}

/// The mention of `file` at `offset`, if any.
pub fn mention_at(entry: &FileEntry, offset: u32) -> Option<Mention> {
    mentions_of(entry)
        .into_iter()
        .find(|m| m.range.start <= offset && offset <= m.range.end)
}

/// What a mention names: the SKILL.md files of its name in scope, and the file id of each. A
/// `/plugin:name` mention whose plugin is the `name` of a `plugin.json` of the file set means
/// that plugin's skills and commands only (`semantics::plugins`).
pub fn targets<'a>(
    lookup: &Lookup<'a>,
    entry: &FileEntry,
    mention: &Mention,
) -> Vec<(FileId, &'a FileEntry)> {
    let name = mention.name(&entry.text);
    if let Some(plugin) = mention.plugin(&entry.text) {
        let plugins = super::plugins::plugins_named(lookup, plugin);
        if !plugins.is_empty() {
            let mut out: Vec<(FileId, &'a FileEntry)> = plugins
                .iter()
                .filter_map(|m| super::plugins::manifest_of(m).map(|manifest| (m, manifest)))
                .flat_map(|(m, manifest)| {
                    let commands = super::plugins::plugin_commands(lookup, &m.path, name);
                    super::plugins::plugin_skills(lookup, &m.path, manifest, name)
                        .into_iter()
                        .chain(commands)
                })
                .map(|e| (e.id, e))
                .collect();
            out.dedup_by_key(|(id, _)| *id);
            return out;
        }
    }
    skills_in_scope(lookup, &entry.path, name)
        .into_iter()
        .map(|e| (e.id, e))
        .collect()
}

/// What a forked skill's `agent:` names: a subagent of the project's `.claude/agents/`, or a
/// built-in type.
#[derive(Clone, Copy, Debug)]
pub enum ForkTarget<'a> {
    Subagent(&'a FileEntry),
    Builtin(&'static str),
}

/// The subagent a SKILL.md with `context: fork` runs in (`agent:`), when it names one: a
/// subagent of the project's `.claude/agents/`, or `<plugin>:<agent>` of a plugin of the file
/// set. Reads `Key::SubagentNamed{name}` (or the plugin's components).
pub fn fork_target<'a>(
    lookup: &Lookup<'a>,
    path: &Path,
    skill: &crate::model::skill_md::SkillMd,
) -> Option<ForkTarget<'a>> {
    let forked = skill
        .field("context")
        .and_then(|f| f.value.shape.scalar())
        .is_some_and(|c| c == "fork");
    let name = skill.field("agent")?.value.shape.scalar()?;
    if !forked {
        return None;
    }
    if let Some(builtin) = crate::model::hosts::plugins::BUILTIN_SUBAGENTS
        .0
        .iter()
        .find(|b| **b == name)
    {
        return Some(ForkTarget::Builtin(builtin));
    }
    if let Some((plugin, agent)) = name.split_once(':') {
        return super::plugins::plugin_subagents(lookup, plugin, agent)
            .into_iter()
            .next()
            .map(ForkTarget::Subagent);
    }
    let claude = path
        .ancestors()
        .find(|dir| dir.file_name().is_some_and(|n| n == ".claude"))?;
    let agents = claude.join("agents");
    lookup
        .get(Key::SubagentNamed {
            name: name.to_owned(),
        })
        .into_iter()
        .find(|e| e.path.parent() == Some(agents.as_path()))
        .map(ForkTarget::Subagent)
}

/// The skills a file's mentions name, each once, in the order first named (itself left out).
pub fn mentioned_skills<'a>(lookup: &Lookup<'a>, entry: &FileEntry) -> Vec<&'a FileEntry> {
    let mut out: Vec<&'a FileEntry> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for mention in mentions_of(entry) {
        for (id, target) in targets(lookup, entry, &mention) {
            if id != entry.id && seen.insert(id) {
                out.push(target);
            }
        }
    }
    out
}

/// Most skills a loop search visits: a hover's walk stays bounded on any workspace.
pub const MAX_LOOP_WALK: usize = 10_000;

/// When following mentions from `target` leads back to the SKILL.md `from` (so a mention of
/// `target` in `from` closes a loop of mentions): the names along the shortest such path, from
/// `target` to `from`. Breadth first, iterative, visiting at most [`MAX_LOOP_WALK`] skills.
pub fn mention_loop(index: &Index, from: FileId, target: &FileEntry) -> Option<Vec<String>> {
    let lookup = Lookup::new(index);
    let mut parent: std::collections::HashMap<FileId, FileId> = std::collections::HashMap::new();
    let mut queue = std::collections::VecDeque::from([target.id]);
    parent.insert(target.id, target.id);
    let mut found = target.id == from;
    while let Some(id) = queue.pop_front().filter(|_| !found) {
        let Some(entry) = index.file(id) else {
            continue;
        };
        for next in mentioned_skills(&lookup, entry) {
            if parent.len() >= MAX_LOOP_WALK {
                return None;
            }
            if parent.contains_key(&next.id) {
                continue;
            }
            parent.insert(next.id, id);
            if next.id == from {
                found = true;
                break;
            }
            queue.push_back(next.id);
        }
    }
    if !found {
        return None;
    }
    let name = |id: FileId| match index.file(id).map(|e| &e.parsed.content) {
        Some(Content::SkillMd(skill)) => skill.normalized_name().unwrap_or_default(),
        _ => String::new(),
    };
    let mut path = vec![name(from)];
    let mut at = from;
    while at != target.id {
        at = parent[&at];
        path.push(name(at));
    }
    path.reverse();
    Some(path)
}
