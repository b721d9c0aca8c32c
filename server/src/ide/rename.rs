//! Rename: an id and every place naming it, across the workspace, as byte-range edits and file
//! moves, from the same occurrences that find references reads.
//!
//! What can be renamed: skill, archetype, funnel, trigger and topology ids (a topology's
//! `metadata.name`, with every `topology-<name>` grant of its skill), agent ids (inside their
//! topology), MCP server ids (with every `server:<id>` grant and `implementation.server`), and
//! SKILL.md names (with every chain entry resolving to the skill). Skills the workspace does not
//! define in a file of their own (the runtime's memory skills, pack commands, a topology's skill)
//! are refused with the place to rename instead.
//!
//! A rename never leaves a place naming the old id: an id that is the default of a
//! `${NAME:-id}` in force is renamed there; one made by a substitution from elsewhere, or spelled
//! with escapes, refuses the rename, naming the place. Abstract grants match ids by substring and
//! name none: a skill rename that would change what one hands out is refused, naming the grant.
//!
//! Files follow their id: an artifact file named after its id (`skills/<id>.yaml`) is moved with
//! it, and a SKILL.md folder named after the skill is moved with its name (hosts require the
//! two to match). Moves need a client that applies them (`resourceOperations: rename`): without
//! one an artifact file keeps its name (nothing checks it), and a SKILL.md rename that would need
//! its folder moved is refused, since the name alone would then break the folder rule.

use std::path::{Path, PathBuf};

use super::cursor::{at, occurrences, relative_path, Ref, Site};
use super::definition::{artifact_definitions, definitions_of};
use super::references::{is_skill_md, references, skill_md_target};
use crate::diagnostic::FileId;
use crate::index::{Content, FileEntry, Index, Key, Lookup};
use crate::model::skill_md::skill_root;
use crate::model::swarmkit::{topology_skill_id, Artifact, ArtifactKind, Grant};
use crate::semantics::chain::{chain_of, resolve, Target as ChainTarget};
use crate::semantics::registry::{skills_named, Origin};
use crate::syntax::interpolate::Source;
use crate::syntax::TextRange;

/// One replacement of text in a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    pub file: FileId,
    pub range: TextRange,
    pub new_text: String,
}

/// A file or folder moved (after the edits, which are about the old paths).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Move {
    pub from: PathBuf,
    pub to: PathBuf,
}

/// What a rename changes: edits sorted by file and position, then moves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rename {
    pub edits: Vec<Edit>,
    pub moves: Vec<Move>,
}

/// What the cursor is on, when it can be renamed: the range of the name itself (inside quotes
/// and prefixes) and the current name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Renamable {
    pub range: TextRange,
    pub name: String,
}

/// The id pattern of SwarmKit's schemas for `metadata.id`, agent ids and MCP server ids
/// (`$defs.identifier` of `topology.schema.json` and `workspace.schema.json`): a lowercase letter,
/// then lowercase letters, digits and hyphens.
fn is_identifier(id: &str) -> bool {
    let mut chars = id.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// The thing under the cursor, resolved.
enum Target<'a> {
    /// An id in a SwarmKit file.
    SwarmKit {
        what: Ref,
        workspace: FileId,
        range: TextRange,
    },
    /// A SKILL.md skill, named at `range` of the cursor's file.
    SkillMd {
        skill: &'a FileEntry,
        name: String,
        range: TextRange,
    },
}

/// The name under the cursor and where it is written, or why it cannot be renamed. `Ok(None)`:
/// nothing renamable is there (no id at all).
pub fn prepare_rename(
    index: &Index,
    file: FileId,
    offset: u32,
) -> Result<Option<Renamable>, String> {
    let Some(target) = target(index, file, offset)? else {
        return Ok(None);
    };
    let (name, range) = match &target {
        Target::SwarmKit { what, range, .. } => (id_of(what).to_owned(), *range),
        Target::SkillMd { name, range, .. } => (name.clone(), *range),
    };
    let Some(entry) = index.file(file) else {
        return Ok(None);
    };
    let range = written_at(index, entry, range, &name)?;
    Ok(Some(Renamable { range, name }))
}

/// Renames what is under the cursor to `new_name`: every edit and move, or why not.
/// `can_move_files`: the client applies file and folder moves.
pub fn rename(
    index: &Index,
    file: FileId,
    offset: u32,
    new_name: &str,
    can_move_files: bool,
) -> Result<Rename, String> {
    let Some(target) = target(index, file, offset)? else {
        return Err("there is no id here to rename".to_owned());
    };
    let mut out = match target {
        Target::SwarmKit {
            what, workspace, ..
        } => rename_id(
            index,
            file,
            offset,
            workspace,
            &what,
            new_name,
            can_move_files,
        )?,
        Target::SkillMd { skill, name, .. } => {
            rename_skill_md(index, file, offset, skill, &name, new_name, can_move_files)?
        }
    };
    out.edits
        .sort_by_key(|e| (e.file, e.range.start, e.range.end));
    out.edits.dedup();
    Ok(out)
}

fn id_of(what: &Ref) -> &str {
    match what {
        Ref::Artifact(_, id) | Ref::McpServer(id) | Ref::Agent(id) => id,
    }
}

fn target(index: &Index, file: FileId, offset: u32) -> Result<Option<Target<'_>>, String> {
    let Some(entry) = index.file(file) else {
        return Ok(None);
    };
    // A mention in prose or a subagent's preload renames the skill it names.
    let named = super::mentions::target_at(index, file, offset)
        .zip(super::mentions::name_range_at(index, file, offset));
    let (skill_md, from_mention) = match named {
        Some((skill, range)) => (Some((skill, range)), true),
        None if is_skill_md(entry) => (skill_md_target(index, entry, offset), false),
        None => (None, false),
    };
    if from_mention || is_skill_md(entry) {
        let Some((skill, range)) = skill_md else {
            return Ok(None);
        };
        let name = match &skill.parsed.content {
            Content::SkillMd(md) => match &md.name {
                Some(crate::model::skill_md::FieldValue::Text(name)) => name.value.clone(),
                _ => return Ok(None),
            },
            _ => return Ok(None),
        };
        return Ok(Some(Target::SkillMd { skill, name, range }));
    }
    let Some(occurrence) = at(index, file, offset) else {
        return Ok(None);
    };
    if occurrence.site == Site::RequiresBlock {
        return Ok(None);
    }
    let Some(workspace) = index.workspace_of(file) else {
        return Ok(None);
    };
    let id = id_of(&occurrence.what);
    if let Ref::Artifact(ArtifactKind::Skill, _) = occurrence.what {
        let skills = skills_named(&Lookup::new(index), workspace, id);
        let Some(first) = skills.first() else {
            return Err(format!(
                "`{id}` is not a skill of this workspace, so there is nothing to rename; fix the reference instead"
            ));
        };
        if !skills.iter().any(|s| s.origin == Origin::File) {
            return Err(match &first.origin {
                Origin::Memory => format!(
                    "`{id}` is bundled with the SwarmKit runtime; its id cannot be renamed"
                ),
                Origin::PackCommand { pack, .. } => format!(
                    "`{id}` is a command of the command pack `{pack}`; rename the command in workspace.yaml"
                ),
                Origin::Topology => format!(
                    "`{id}` is the skill that runs a topology; rename the topology instead"
                ),
                Origin::File => unreachable!("checked above"),
            });
        }
    } else if definitions_of(index, workspace, file, &occurrence.what).is_empty() {
        return Err(format!(
            "`{id}` is defined nowhere in this workspace, so there is nothing to rename; fix the reference instead"
        ));
    }
    Ok(Some(Target::SwarmKit {
        what: occurrence.what,
        workspace,
        range: occurrence.range,
    }))
}

fn rename_id(
    index: &Index,
    file: FileId,
    offset: u32,
    workspace: FileId,
    what: &Ref,
    new_id: &str,
    can_move_files: bool,
) -> Result<Rename, String> {
    let old = id_of(what);
    if new_id == old {
        return Ok(Rename::default());
    }
    if !is_identifier(new_id) {
        return Err(format!(
            "`{new_id}` is not a valid id: write a lowercase letter, then lowercase letters, digits and hyphens"
        ));
    }
    let taken = |file: FileId| relative_path(index, workspace, file);
    match what {
        Ref::Artifact(ArtifactKind::Skill, _) => {
            let lookup = Lookup::new(index);
            if let Some(s) = skills_named(&lookup, workspace, new_id).first() {
                return Err(format!(
                    "`{new_id}` is already a skill of this workspace ({}); pick another id",
                    taken(s.file)
                ));
            }
            let categories: Vec<String> = skills_named(&lookup, workspace, old)
                .iter()
                .filter_map(|s| s.skill?.category.as_ref().map(|c| c.value.clone()))
                .collect();
            abstract_grants_unchanged(index, workspace, &categories, old, new_id)?;
        }
        Ref::Artifact(kind, _) => {
            if let Some((f, _)) = artifact_definitions(index, workspace, *kind, new_id).first() {
                return Err(format!(
                    "`{new_id}` is already taken by {}; pick another id",
                    taken(*f)
                ));
            }
            if *kind == ArtifactKind::Topology {
                let skill = topology_skill_id(new_id);
                if let Some(s) = skills_named(&Lookup::new(index), workspace, &skill).first() {
                    return Err(format!(
                        "the topology's skill would be `{skill}`, already a skill of this workspace ({}); pick another name",
                        taken(s.file)
                    ));
                }
            }
        }
        Ref::McpServer(_) | Ref::Agent(_) => {
            let what_new = match what {
                Ref::McpServer(_) => Ref::McpServer(new_id.to_owned()),
                _ => Ref::Agent(new_id.to_owned()),
            };
            if !definitions_of(index, workspace, file, &what_new).is_empty() {
                let noun = match what {
                    Ref::McpServer(_) => "an MCP server of this workspace",
                    _ => "an agent of this topology",
                };
                return Err(format!("`{new_id}` is already {noun}; pick another id"));
            }
        }
    }
    let mut out = Rename::default();
    for (f, range) in references(index, file, offset, true) {
        push_edit(index, &mut out, f, range, old, new_id)?;
    }
    if let Ref::Artifact(ArtifactKind::Topology, _) = what {
        // The topology's own skill is named after it: its grants and rules follow.
        let skill = Ref::Artifact(ArtifactKind::Skill, topology_skill_id(old));
        let new_skill = topology_skill_id(new_id);
        for f in index
            .files()
            .filter(|f| index.workspace_of(f.id) == Some(workspace))
        {
            for o in occurrences(index, f.id) {
                if o.what == skill && o.site != Site::RequiresBlock {
                    push_edit(index, &mut out, f.id, o.range, skill_id(&skill), &new_skill)?;
                }
            }
        }
    }
    if let (Ref::Artifact(..), true) = (what, can_move_files) {
        for (f, _) in definitions_of(index, workspace, file, what) {
            let Some(entry) = index.file(f) else { continue };
            if !matches!(&entry.parsed.content, Content::SwarmKit(a) if !matches!(a, Artifact::Workspace(_)))
            {
                continue;
            }
            if let Some(to) = renamed_file(&entry.path, old, new_id) {
                if index.file_id(&to).is_some() {
                    return Err(format!(
                        "`{}` exists already, and the file named after `{old}` would move there; rename or move it first",
                        to.display()
                    ));
                }
                out.moves.push(Move {
                    from: entry.path.clone(),
                    to,
                });
            }
        }
    }
    Ok(out)
}

/// An abstract grant (`{abstract: {category, capability}}`) hands out the skill of its category
/// whose id contains the capability, so renaming a skill can make one stop matching it, or start
/// matching it besides another. The grant's text names no id and is not edited; a rename that
/// would change what one hands out is refused, naming the grant.
fn abstract_grants_unchanged(
    index: &Index,
    workspace: FileId,
    categories: &[String],
    old: &str,
    new: &str,
) -> Result<(), String> {
    if categories.is_empty() {
        return Ok(());
    }
    for entry in index
        .files()
        .filter(|f| index.workspace_of(f.id) == Some(workspace))
    {
        let lists: Vec<&[Grant]> = match &entry.parsed.content {
            Content::SwarmKit(Artifact::Archetype(a)) => vec![&a.default_skills[..]],
            Content::SwarmKit(Artifact::Topology(t)) => t
                .agents
                .iter()
                .flat_map(|a| [&a.skills, &a.skills_additional])
                .filter_map(|list| list.as_ref().map(|(_, grants)| &grants[..]))
                .collect(),
            _ => continue,
        };
        for grant in lists.into_iter().flatten() {
            let Grant::Abstract {
                category: Some(category),
                capability,
                range,
            } = grant
            else {
                continue;
            };
            if !categories.contains(&category.value) {
                continue;
            }
            let capability = capability.as_ref().map_or("", |c| c.value.as_str());
            let (before, after) = (old.contains(capability), new.contains(capability));
            if before != after {
                let change = if before {
                    format!("matches `{old}` and would not match `{new}`")
                } else {
                    format!("would match `{new}` as well")
                };
                return Err(format!(
                    "the abstract grant at {} (category `{}`, capability `{capability}`) {change}; change its capability first, or pick an id that {} `{capability}`",
                    place_of(index, entry, *range),
                    category.value,
                    if before { "contains" } else { "does not contain" }
                ));
            }
        }
    }
    Ok(())
}

fn skill_id(what: &Ref) -> &str {
    id_of(what)
}

/// `dir/<old>.yaml` -> `dir/<new>.yaml` (or `.yml`); `None` for a file not named after `old`.
fn renamed_file(path: &Path, old: &str, new: &str) -> Option<PathBuf> {
    let stem = path.file_stem()?.to_str()?;
    let ext = path.extension()?.to_str()?;
    (stem == old && matches!(ext, "yaml" | "yml"))
        .then(|| path.with_file_name(format!("{new}.{ext}")))
}

fn rename_skill_md(
    index: &Index,
    file: FileId,
    offset: u32,
    skill: &FileEntry,
    old: &str,
    new_name: &str,
    can_move_files: bool,
) -> Result<Rename, String> {
    if new_name == old {
        return Ok(Rename::default());
    }
    let problems = crate::rules::skill_md::name_problems(new_name);
    if !problems.is_empty() {
        return Err(format!(
            "`{new_name}` is not a valid skill name: {}",
            problems.join("; ")
        ));
    }
    if let Some(other) = index
        .contributors(&Key::SkillMdNamed {
            name: new_name.to_owned(),
        })
        .find_map(|f| index.file(f))
    {
        return Err(format!(
            "a skill named `{new_name}` exists already ({}); chain entries naming it would no longer know which one is meant",
            other.path.display()
        ));
    }
    let folder = skill.path.parent();
    let moves_folder = folder.and_then(|f| f.file_name()).is_some_and(|n| n == old);
    let mut out = Rename::default();
    if moves_folder {
        let Some(folder) = folder else {
            return Ok(out);
        };
        if !can_move_files {
            return Err(format!(
                "the folder `{old}` is named after the skill, as hosts require, and this editor cannot rename folders through the language server; rename the folder and the name together by hand"
            ));
        }
        let to = folder.with_file_name(new_name);
        if index.files().any(|e| e.path.starts_with(&to)) {
            return Err(format!(
                "`{}` exists already, and the skill's folder would move there; pick another name",
                to.display()
            ));
        }
        out.moves.push(Move {
            from: folder.to_owned(),
            to,
        });
    }
    if let Some(moved) = out.moves.first().map(|m| m.from.clone()) {
        paths_into_moved_folder(index, &moved, old, new_name, &mut out);
    }
    for (f, range) in references(index, file, offset, true) {
        let Some(entry) = index.file(f) else { continue };
        let written = &entry.text[range.start as usize..range.end as usize];
        if written.contains('/') || written.contains('\\') {
            // A path entry names the folder: it changes only when the folder moves.
            if moves_folder {
                push_edit(index, &mut out, f, range, old, new_name)?;
            }
        } else {
            push_edit(index, &mut out, f, range, old, new_name)?;
        }
    }
    Ok(out)
}

/// Chain path entries naming a skill *below* a SKILL.md folder that moves (`e2e/smoke/deep` when
/// `e2e/smoke` becomes `e2e/sanity`): the folder's component of each is renamed. Entries naming
/// the moved skill itself are its references, renamed with its name; entries written in a skill
/// inside the moved folder are relative to a folder that moves too, and stay.
fn paths_into_moved_folder(index: &Index, folder: &Path, old: &str, new: &str, out: &mut Rename) {
    let lookup = Lookup::new(index);
    for owner in index.files().filter(|e| is_skill_md(e)) {
        let Some(root) = skill_root(&owner.path) else {
            continue;
        };
        let Ok(inside) = folder.strip_prefix(root) else {
            continue;
        };
        if inside.as_os_str().is_empty() {
            continue;
        }
        // The moved folder is this many components into an entry written here.
        let depth = inside.components().count();
        let Some(chain) = chain_of(owner) else {
            continue;
        };
        for node in &chain.entries {
            let text = node.value.as_str();
            if !text.contains(['/', '\\']) {
                continue;
            }
            let ChainTarget::Found(target) = resolve(&lookup, &owner.path, text) else {
                continue;
            };
            if !target.path.starts_with(folder) || target.path.parent() == Some(folder) {
                continue;
            }
            if let Some(range) = component_at(&owner.text, node.range, depth, old) {
                out.edits.push(Edit {
                    file: owner.id,
                    range,
                    new_text: new.to_owned(),
                });
            }
        }
    }
}

/// The range of the `depth`-th folder (1-based, `.` not counted) of the path written at `range`
/// (quotes allowed), when it is `name`.
fn component_at(text: &str, range: TextRange, depth: usize, name: &str) -> Option<TextRange> {
    let written = text.get(range.start as usize..range.end as usize)?;
    let bytes = written.as_bytes();
    let quoted = written.len() >= 2
        && matches!(bytes[0], b'"' | b'\'')
        && bytes[written.len() - 1] == bytes[0];
    let mut at = range.start as usize + usize::from(quoted);
    let inner = &written[usize::from(quoted)..written.len() - usize::from(quoted)];
    let mut seen = 0;
    for part in inner.split(['/', '\\']) {
        if !part.is_empty() && part != "." {
            seen += 1;
            if seen == depth {
                return (part == name).then(|| TextRange::new(at as u32, (at + part.len()) as u32));
            }
        }
        at += part.len() + 1;
    }
    None
}

/// The edit renaming `old` at `range` of `file`, or why it cannot be made (see [`written_at`]).
fn push_edit(
    index: &Index,
    out: &mut Rename,
    file: FileId,
    range: TextRange,
    old: &str,
    new: &str,
) -> Result<(), String> {
    let Some(entry) = index.file(file) else {
        return Ok(());
    };
    out.edits.push(Edit {
        file,
        range: written_at(index, entry, range, old)?,
        new_text: new.to_owned(),
    });
    Ok(())
}

/// Where `old` is written in the scalar at `range`: the name itself (past quotes and prefixes),
/// or the default of a `${NAME:-old}` in force. Otherwise the id is not written there (it is
/// made by a substitution, or spelled with escapes), and a rename that left that place naming
/// the old id would break the workspace: it is refused, naming the place.
fn written_at(
    index: &Index,
    entry: &FileEntry,
    range: TextRange,
    old: &str,
) -> Result<TextRange, String> {
    if let Some(range) = name_within(&entry.text, range, old) {
        return Ok(range);
    }
    let place = place_of(index, entry, range);
    let Some(substitution) = entry.parsed.substitution_at(range.start) else {
        return Err(format!(
            "`{old}` is written with escapes or folded at {place}; write it plainly there first"
        ));
    };
    if let [reference] = substitution.references.as_slice() {
        if reference.source == Source::Default {
            if let Some(default) = default_within(&entry.text, substitution.range, old) {
                return Ok(default);
            }
        }
    }
    let from = substitution
        .references
        .iter()
        .map(|r| {
            let source = match r.source {
                Source::Property => "the workspace's property file",
                Source::Environment => "the environment",
                Source::Default => "its default",
                Source::Unresolved | Source::Escaped => "nothing",
            };
            format!("`${{{}}}` (from {source})", r.name)
        })
        .collect::<Vec<_>>()
        .join(", ");
    Err(format!(
        "`{old}` at {place} is made by substituting {from}; rename it where that value is set, or write the id plainly there first"
    ))
}

/// `path:line` of a place, for messages.
fn place_of(index: &Index, entry: &FileEntry, range: TextRange) -> String {
    let line = entry.text[..range.start as usize].matches('\n').count() + 1;
    let path = index.workspace_of(entry.id).map_or_else(
        || entry.path.display().to_string(),
        |w| relative_path(index, w, entry.id),
    );
    format!("{path}:{line}")
}

/// Where `old` is written as the default of the scalar `${NAME:-old}` at `range` (quotes
/// allowed around it), when that is the whole scalar.
fn default_within(text: &str, range: TextRange, old: &str) -> Option<TextRange> {
    let written = text.get(range.start as usize..range.end as usize)?;
    let bytes = written.as_bytes();
    let quoted = written.len() >= 2
        && matches!(bytes[0], b'"' | b'\'')
        && bytes[written.len() - 1] == bytes[0];
    let inner_start = usize::from(quoted);
    let inner = &written[inner_start..written.len() - inner_start];
    let body = inner.strip_prefix("${")?.strip_suffix('}')?;
    let (_, default) = body.split_once(":-")?;
    if default != old || body.contains('}') {
        return None;
    }
    let end = range.start as usize + inner_start + inner.len() - 1;
    Some(TextRange::new((end - old.len()) as u32, end as u32))
}

/// Where `name` is written inside the scalar at `range`: past quotes, a `server:` prefix or the
/// folders of a path entry, before a trailing `/SKILL.md`. `None` when the scalar does not end
/// with the name as written (escapes, folded text).
fn name_within(text: &str, range: TextRange, name: &str) -> Option<TextRange> {
    let written = text.get(range.start as usize..range.end as usize)?;
    let mut start = 0;
    let mut end = written.len();
    let bytes = written.as_bytes();
    if end >= 2 && matches!(bytes[0], b'"' | b'\'') && bytes[end - 1] == bytes[0] {
        start += 1;
        end -= 1;
    }
    let mut inner = &written[start..end];
    for suffix in ["/SKILL.md", "/"] {
        if let Some(rest) = inner.strip_suffix(suffix) {
            end -= suffix.len();
            inner = rest;
        }
    }
    if !inner.ends_with(name) {
        return None;
    }
    let name_start = end - name.len();
    // The name must be whole: at the start, or after a prefix or a folder.
    let before = written[start..name_start].chars().next_back();
    if !matches!(before, None | Some(':' | '/' | '\\')) {
        return None;
    }
    Some(TextRange::new(
        range.start + name_start as u32,
        range.start + end as u32,
    ))
}

#[cfg(test)]
mod tests {
    use std::sync::LazyLock;

    use super::super::test_support::{
        cursor_at, fixture, topology_w, workspace_w, DECISION_BINDINGS,
    };
    use super::*;
    use crate::index::Change;

    /// Applies a rename to the index's texts and paths, as an editor would.
    fn apply(index: &Index, rename: &Rename) -> Index {
        let mut texts: Vec<(PathBuf, String)> = index
            .files()
            .map(|e| (e.path.clone(), e.text.to_string()))
            .collect();
        for (path, text) in &mut texts {
            let id = index.file_id(path).unwrap();
            let mut edits: Vec<&Edit> = rename.edits.iter().filter(|e| e.file == id).collect();
            edits.sort_by_key(|e| std::cmp::Reverse(e.range.start));
            for e in edits {
                text.replace_range(e.range.start as usize..e.range.end as usize, &e.new_text);
            }
        }
        for (path, _) in &mut texts {
            for m in &rename.moves {
                if let Ok(rest) = path.strip_prefix(&m.from) {
                    let moved = if rest.as_os_str().is_empty() {
                        m.to.clone()
                    } else {
                        m.to.join(rest)
                    };
                    *path = moved;
                }
            }
        }
        let mut out = Index::new(&crate::rules::CHECKS);
        out.apply(
            texts
                .into_iter()
                .map(|(path, text)| Change::Set {
                    path,
                    text: text.into(),
                })
                .collect(),
        );
        out
    }

    /// The code of every diagnostic of the index, sorted: what "checks as clean" compares (the
    /// messages name the ids, which changed).
    fn problems(index: &Index) -> Vec<&'static str> {
        let mut out: Vec<&'static str> = index
            .files()
            .flat_map(|e| index.diagnostics(e.id))
            .map(|d| d.code.name())
            .collect();
        out.sort();
        out
    }

    fn texts(index: &Index) -> Vec<String> {
        let mut out: Vec<String> = index
            .files()
            .map(|e| format!("{}\n{}", e.path.display(), e.text))
            .collect();
        out.sort();
        out
    }

    static WS: LazyLock<String> = LazyLock::new(|| {
        [
            workspace_w(&["conv$1entions"]),
            r#"//- /w/skills/get-thing.yaml
apiVersion: swarmkit/v1
kind: Skill
metadata:
  id: get-th$2ing
  name: get thing
  description: Gets a thing.
category: capability
implementation:
  type: mcp_tool
  server: conventions
  tool: get
//- /w/skills/put.yaml
apiVersion: swarmkit/v1
kind: Skill
metadata:
  id: put-thing
  name: put thing
  description: Puts a thing.
category: capability
implementation:
  type: mcp_tool
  server: conventions
  tool: put
//- /w/archetypes/eng.yaml
apiVersion: swarmkit/v1
kind: Archetype
metadata:
  id: e$3ng
role: worker
defaults:
  skills: [get-thing]
"#
            .to_owned(),
            topology_w("estate", "est$4ate"),
            r#"    id: ro$5ot
    role: root
    prompt:
      system: "委任 🚀"
    children:
      - id: worker
        role: worker
        archetype: eng
        skills: ["get-thing", put-thing, server:conventions]
        requires:
          put-thing: [get-thing]
        depends_on: [root]
"#
            .to_owned(),
        ]
        .concat()
    });

    fn with_cursor(n: u32) -> String {
        cursor_at(&WS, n, 5)
    }

    /// Renames at cursor `n` and returns the new texts, after checking the workspace is exactly
    /// as clean as before.
    fn renamed(n: u32, new: &str) -> (Rename, Index) {
        let f = fixture(&with_cursor(n));
        let rename = rename(&f.index, f.cursor_file, f.offset, new, true).unwrap();
        let after = apply(&f.index, &rename);
        assert_eq!(problems(&f.index), problems(&after), "{rename:?}");
        (rename, after)
    }

    #[test]
    fn a_skill_renames_everywhere_with_its_file() {
        let (rename, after) = renamed(2, "fetch-thing");
        let all = texts(&after).join("\n");
        assert!(!all.contains("get-thing"), "{all}");
        assert_eq!(all.matches("fetch-thing").count(), 5, "{all}");
        // Quotes stay quotes.
        assert!(all.contains(r#"["fetch-thing", put-thing"#), "{all}");
        assert_eq!(
            rename.moves,
            [Move {
                from: PathBuf::from("/w/skills/get-thing.yaml"),
                to: PathBuf::from("/w/skills/fetch-thing.yaml"),
            }]
        );
        // Without file moves the text is renamed all the same.
        let f = fixture(&with_cursor(2));
        let text_only = rename_at(&f, "fetch-thing", false).unwrap();
        assert!(text_only.moves.is_empty());
        assert_eq!(text_only.edits, rename.edits);
    }

    fn rename_at(
        f: &super::super::test_support::Fixture,
        new: &str,
        moves: bool,
    ) -> Result<Rename, String> {
        rename(&f.index, f.cursor_file, f.offset, new, moves)
    }

    #[test]
    fn servers_archetypes_topologies_and_agents_rename() {
        let (_, after) = renamed(1, "tools");
        let all = texts(&after).join("\n");
        assert!(
            all.contains("server: tools") && all.contains("server:tools"),
            "{all}"
        );
        let (_, after) = renamed(3, "engineer");
        assert!(texts(&after).join("\n").contains("archetype: engineer"));
        let (rename, _) = renamed(4, "estates");
        assert_eq!(
            rename.moves[0].to,
            PathBuf::from("/w/topologies/estates.yaml")
        );
        let (rename, after) = renamed(5, "lead");
        assert_eq!(rename.edits.len(), 2, "the id and depends_on: {rename:?}");
        assert!(texts(&after).join("\n").contains("depends_on: [lead]"));
    }

    #[test]
    fn bad_and_colliding_ids_are_refused() {
        let f = fixture(&with_cursor(2));
        let bad = rename_at(&f, "Fetch_Thing", true).unwrap_err();
        assert!(bad.contains("not a valid id"), "{bad}");
        let taken = rename_at(&f, "put-thing", true).unwrap_err();
        assert!(
            taken.contains("already a skill") && taken.contains("skills/put.yaml"),
            "{taken}"
        );
        let f = fixture(&with_cursor(5));
        let taken = rename_at(&f, "worker", true).unwrap_err();
        assert!(taken.contains("already an agent"), "{taken}");
    }

    #[test]
    fn prepare_gives_the_name_inside_quotes() {
        let text = with_cursor(0).replace(r#"["get-thing", put"#, r#"["get-th$0ing", put"#);
        let f = fixture(&text);
        let found = prepare_rename(&f.index, f.cursor_file, f.offset)
            .unwrap()
            .unwrap();
        let entry = f.index.file(f.cursor_file).unwrap();
        assert_eq!(found.name, "get-thing");
        assert_eq!(
            &entry.text[found.range.start as usize..found.range.end as usize],
            "get-thing"
        );
        // Nothing to rename on a plain value; refused on a made-up or unknown skill.
        let f = fixture(&with_cursor(0).replace("role: root", "role: r$0oot"));
        assert_eq!(prepare_rename(&f.index, f.cursor_file, f.offset), Ok(None));
        let f = fixture(&with_cursor(0).replace("put-thing, server", "nope$0, server"));
        assert!(prepare_rename(&f.index, f.cursor_file, f.offset).is_err());
    }

    #[test]
    fn the_topology_skill_follows_its_topology() {
        let text =
            with_cursor(4).replace("put-thing, server", "put-thing, topology-estate, server");
        let f = fixture(&text);
        let made_up = fixture(
            &with_cursor(0).replace("put-thing, server", "put-thing, topology-est$0ate, server"),
        );
        let refused =
            prepare_rename(&made_up.index, made_up.cursor_file, made_up.offset).unwrap_err();
        assert!(refused.contains("rename the topology"), "{refused}");
        let rename = rename_at(&f, "farm", true).unwrap();
        let after = apply(&f.index, &rename);
        assert_eq!(problems(&f.index), problems(&after));
        assert!(texts(&after).join("\n").contains("topology-farm"));
    }

    const SKILLS: &str = "//- /r/s/chain/SKILL.md\n---\nname: chain\ndescription: d\nmetadata:\n  chain: [unit, 'smoke']\n---\n//- /r/s/e2e/smoke/SKILL.md\n---\nname: smo$0ke\ndescription: d\n---\n//- /r/s/nightly/SKILL.md\n---\nname: nightly\ndescription: d\nmetadata:\n  chain: [e2e/smoke]\n---\n//- /r/s/unit/SKILL.md\n---\nname: unit\ndescription: d\n---\n";

    #[test]
    fn a_skill_md_name_renames_its_folder_and_chain_entries() {
        let f = fixture(SKILLS);
        let rename = rename_at(&f, "sanity", true).unwrap();
        assert_eq!(
            rename.moves,
            [Move {
                from: PathBuf::from("/r/s/e2e/smoke"),
                to: PathBuf::from("/r/s/e2e/sanity"),
            }]
        );
        let after = apply(&f.index, &rename);
        assert_eq!(problems(&f.index), problems(&after));
        let all = texts(&after).join("\n");
        assert!(all.contains("chain: [unit, 'sanity']"), "{all}");
        assert!(all.contains("chain: [e2e/sanity]"), "{all}");
        assert!(
            all.contains("/r/s/e2e/sanity/SKILL.md\n---\nname: sanity"),
            "{all}"
        );
        // Without folder moves it is refused; a bad or taken name too.
        assert!(rename_at(&f, "sanity", false)
            .unwrap_err()
            .contains("cannot rename folders"));
        assert!(rename_at(&f, "Sanity", true)
            .unwrap_err()
            .contains("lowercase"));
        assert!(rename_at(&f, "unit", true)
            .unwrap_err()
            .contains("exists already"));
    }

    #[test]
    fn a_skill_md_not_named_after_its_folder_keeps_the_folder() {
        let text = SKILLS
            .replace("/r/s/e2e/smoke/SKILL.md", "/r/s/e2e/smoke-test/SKILL.md")
            .replace("[e2e/smoke]", "[e2e/smoke-test]");
        let f = fixture(&text);
        let rename = rename_at(&f, "sanity", false).unwrap();
        assert!(rename.moves.is_empty());
        let after = apply(&f.index, &rename);
        assert_eq!(problems(&f.index), problems(&after));
        assert!(texts(&after).join("\n").contains("chain: [e2e/smoke-test]"));
    }

    #[test]
    fn abstract_grants_keep_what_they_hand_out_or_the_rename_is_refused() {
        let text = with_cursor(2).replace(
            "//- /w/topologies/estate.yaml",
            "//- /w/archetypes/any.yaml\napiVersion: swarmkit/v1\nkind: Archetype\nmetadata:\n  id: any\nrole: worker\ndefaults:\n  skills:\n    - abstract: {category: capability, capability: get}\n//- /w/topologies/estate.yaml",
        );
        let f = fixture(&text);
        // `get` stops matching: refused, naming the grant.
        let refused = rename_at(&f, "fetch-thing", true).unwrap_err();
        assert!(
            refused.contains("archetypes/any.yaml:8") && refused.contains("would not match"),
            "{refused}"
        );
        // Still containing `get`: renamed, and the grant's capability is not touched.
        let rename = rename_at(&f, "get-object", true).unwrap();
        let after = apply(&f.index, &rename);
        assert_eq!(problems(&f.index), problems(&after));
        let all = texts(&after).join("\n");
        assert!(all.contains("capability: get}"), "{all}");
        assert!(!all.contains("get-thing"), "{all}");
        // Another skill of the category taking `get` into its id would make the grant match two.
        let f = fixture(
            &text
                .replace("get-th$0ing", "get-thing")
                .replace("  id: put-thing", "  id: put-th$0ing"),
        );
        let refused = rename_at(&f, "get-put", true).unwrap_err();
        assert!(
            refused.contains("would match `get-put` as well"),
            "{refused}"
        );
    }

    #[test]
    fn ids_made_by_substitution() {
        // The default in force is where the id is written: it is renamed.
        let text = with_cursor(2).replace(r#"["get-thing", put"#, r#"["${MAIN:-get-thing}", put"#);
        let f = fixture(&text);
        let rename = rename_at(&f, "fetch-thing", true).unwrap();
        let after = apply(&f.index, &rename);
        assert_eq!(problems(&f.index), problems(&after));
        assert!(texts(&after)
            .join("\n")
            .contains(r#"["${MAIN:-fetch-thing}", put"#));
        // From the property file: the id is not written in the topology; refused, saying where.
        let text = format!(
            "{}//- /w/workspace.env.yaml\nmain: get-thing\n",
            with_cursor(2).replace(r#"["get-thing", put"#, r#"["${main}", put"#)
        );
        let f = fixture(&text);
        let refused = rename_at(&f, "fetch-thing", true).unwrap_err();
        assert!(
            refused.contains("topologies/estate.yaml:")
                && refused.contains("`${main}` (from the workspace's property file)"),
            "{refused}"
        );
        // On the substituted value itself, prepare names the default, or refuses.
        let f = fixture(
            &with_cursor(0).replace(r#"["get-thing", put"#, r#"["${MAIN:-get-th$0ing}", put"#),
        );
        let found = prepare_rename(&f.index, f.cursor_file, f.offset)
            .unwrap()
            .unwrap();
        let entry = f.index.file(f.cursor_file).unwrap();
        assert_eq!(
            &entry.text[found.range.start as usize..found.range.end as usize],
            "get-thing"
        );
    }

    #[test]
    fn chain_paths_into_a_moved_folder_follow_it() {
        let text = SKILLS
            .replace(
                "name: smo$0ke\ndescription: d\n",
                "name: smo$0ke\ndescription: d\nmetadata:\n  chain: [smoke/deep]\n",
            )
            .replace("chain: [e2e/smoke]", "chain: [e2e/smoke, './e2e/smoke/deep/SKILL.md']")
            + "//- /r/s/e2e/smoke/deep/SKILL.md\n---\nname: deep\ndescription: d\nmetadata:\n  chain: [../x]\n---\n";
        let f = fixture(&text);
        let rename = rename_at(&f, "sanity", true).unwrap();
        let after = apply(&f.index, &rename);
        assert_eq!(problems(&f.index), problems(&after));
        let all = texts(&after).join("\n");
        assert!(
            all.contains("chain: [e2e/sanity, './e2e/sanity/deep/SKILL.md']"),
            "{all}"
        );
        assert!(all.contains("chain: [sanity/deep]"), "{all}");
        // A skill inside the moved folder writes paths relative to a folder that moves too.
        assert!(all.contains("chain: [../x]"), "{all}");
    }

    #[test]
    fn the_identifier_rule_is_the_schemas() {
        let schema: serde_json::Value =
            serde_json::from_str(include_str!("../../schemas/topology.schema.json")).unwrap();
        assert_eq!(
            schema["$defs"]["identifier"]["pattern"],
            "^[a-z][a-z0-9-]*$"
        );
        assert!(is_identifier("a-1") && is_identifier("a"));
        assert!(
            !is_identifier("1a")
                && !is_identifier("")
                && !is_identifier("a_b")
                && !is_identifier("A")
        );
    }

    #[test]
    fn a_long_line_of_grants_renames_in_linear_time_and_output() {
        let grants: Vec<String> = (0..200_000).map(|_| "get-thing".to_owned()).collect();
        let text = with_cursor(2).replace(
            r#"["get-thing", put-thing, server:conventions]"#,
            &format!("[{}]", grants.join(", ")),
        );
        let f = fixture(&text);
        let rename = rename_at(&f, "x", true).unwrap();
        // The grants, the definition, the archetype default and the prerequisite.
        assert_eq!(rename.edits.len(), 200_000 + 3);
    }

    #[test]
    fn a_decision_skill_renames_with_its_bindings() {
        let at_definition = DECISION_BINDINGS.replace("$2", "$0").replace("$1", "");
        let f = fixture(&at_definition);
        let renamed =
            rename(&f.index, f.cursor_file, f.offset, "citation-judge", false).expect("renamable");
        assert_eq!(renamed.edits.len(), 3, "{renamed:?}");
    }
}
