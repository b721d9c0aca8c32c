//! What a mention in prose names: the mentions of a file (a SKILL.md body, scanned here; a
//! prose file's, scanned when it was analysed) and the skills a mention may mean, scoped by
//! where the file is. Read by the mention rules and by definition and hover.

use std::path::Path;

use crate::diagnostic::FileId;
use crate::index::{Content, FileEntry, Key, Lookup};
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

/// The mention of `file` at `offset`, if any.
pub fn mention_at(entry: &FileEntry, offset: u32) -> Option<Mention> {
    mentions_of(entry)
        .into_iter()
        .find(|m| m.range.start <= offset && offset <= m.range.end)
}

/// What a mention names: the SKILL.md files of its name in scope, and the file id of each.
pub fn targets<'a>(
    lookup: &Lookup<'a>,
    entry: &FileEntry,
    mention: &Mention,
) -> Vec<(FileId, &'a FileEntry)> {
    let name = mention.name(&entry.text);
    skills_in_scope(lookup, &entry.path, name)
        .into_iter()
        .map(|e| (e.id, e))
        .collect()
}
