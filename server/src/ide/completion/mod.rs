//! Completion of ids: skill ids in grants (skipping those the agent holds already), `requires:`
//! (only the agent's held skills there) and `composes`, each with the skill's description and
//! where it is defined; archetype ids; `server:` and `pack:` grants; `implementation.server`,
//! `.pack`, `.command` and `.topology`; topology ids in trigger targets; funnel ids in `funnel:`;
//! the topology's other agents in `depends_on`; an archetype's executor; a funnel's judge skill
//! and reviewer archetype. Elsewhere in a SwarmKit file, what its bundled schema allows
//! (`schema_shape`): the keys of the mapping being written and the values of enums and booleans.
//! In a SKILL.md frontmatter: `metadata.chain` entries (the skills the entry would resolve to),
//! chain option values, and top-level keys.
//!
//! Two ways to know where the cursor is: on an id already written (replace it), or on an empty
//! list item or value being typed, recognised from the text of the line and the key above it,
//! since a half-typed document is often not valid YAML.
//!
//! One file per place: `ids` (where an id goes), `swarmkit` (the rest of a SwarmKit file, from
//! the schemas), `skill_md` (a SKILL.md frontmatter); `text` reads the half-typed line for all.

mod ids;
mod skill_md;
mod swarmkit;
#[cfg(test)]
mod tests;
mod text;

use super::answers::Completions;
use super::cursor::at;
use crate::diagnostic::FileId;
use crate::index::{Content, Index};

pub fn completion(index: &Index, file: FileId, offset: u32) -> Option<Completions> {
    if let Some(mut mentions) = crate::ide::mentions::completion(index, file, offset) {
        // After `$` in a SKILL.md body, the skill's own arguments come first: Claude Code
        // substitutes them before the body is read for mentions.
        if let Some(entry) = index.file(file).filter(|e| {
            mentions.range.start > 0 && e.text.as_bytes()[mentions.range.start as usize - 1] == b'$'
        }) {
            let arguments = crate::ide::skill_load::argument_items(index, entry);
            if !arguments.is_empty() {
                mentions
                    .items
                    .retain(|m| !arguments.iter().any(|a| a.label == m.label));
                mentions.items.splice(0..0, arguments);
            }
        }
        return Some(mentions);
    }
    let entry = index.file(file)?;
    if let Content::SkillMd(skill) = &entry.parsed.content {
        return skill_md::completion(index, entry, skill, offset)
            .or_else(|| super::skill_files::path_completion(index, entry, offset));
    }
    let workspace = index.workspace_of(file)?;
    // On a fresh line nothing written is under the cursor: it is read from the text alone.
    let on_written = if text::blank_line(&entry.text, offset) {
        None
    } else {
        at(index, file, offset)
    };
    let (want, range) = match on_written {
        Some(o) => (ids::wanted_at(&o)?, o.range),
        None => match ids::from_text(index, file, &entry.text, offset) {
            Some(found) => found,
            None => return swarmkit::schema_place(index, entry, offset),
        },
    };
    let items = ids::items(index, entry, workspace, want, offset)?;
    Some(Completions { range, items })
}
