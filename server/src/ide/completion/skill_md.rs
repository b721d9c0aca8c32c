//! Completion inside a SKILL.md frontmatter: `metadata.chain` entries (the skills the entry would
//! resolve to), chain option keys and values, the extensions' keys and values (tools of the
//! inventory among them), and top-level keys.

use std::collections::{BTreeSet, HashSet};

use super::text::{enclosing_keys, flow_slot, key_of, line_at, mapping_entries, Line, SlotKind};
use crate::ide::answers::{CompletionItem, CompletionKind, Completions};
use crate::index::{Content, FileEntry, FileRole, Index, Lookup};
use crate::model::skill_md::extensions::{
    chain_option, EnumValue, CHAIN_OPTIONS, DEPENDENCY_GROUPS, DEPENDENCY_TYPES, PRECONDITION_OPS,
    PREDICATE_KEYS, STATE_KEYS,
};
use crate::model::skill_md::skill_root;
use crate::model::skill_md::{SkillMd, KNOWN_FIELDS};
use crate::rules::tools::Inventory;
use crate::semantics::chain::{resolve, Target};
use crate::syntax::{Frontmatter, TextRange};

/// The values a chain option takes, from the one table of chain options.
pub(super) fn chain_option_values(key: &str) -> Option<&'static [EnumValue]> {
    let values = chain_option(key)?.values();
    (!values.is_empty()).then_some(values)
}

/// Values of an extension's table, each with its doc as detail and documentation.
pub(super) fn documented_values(
    range: TextRange,
    values: &[EnumValue],
    what: &str,
) -> Option<Completions> {
    Some(Completions {
        range,
        items: values
            .iter()
            .map(|v| CompletionItem {
                documentation: Some(format!("`{}` — {} ({what})", v.value, v.doc)),
                label: v.value.to_owned(),
                detail: Some(v.doc.to_owned()),
                kind: CompletionKind::Value,
            })
            .collect(),
    })
}

/// Completion inside a SKILL.md frontmatter.
pub(super) fn completion(
    index: &Index,
    entry: &FileEntry,
    skill: &SkillMd,
    offset: u32,
) -> Option<Completions> {
    let inside = match skill.frontmatter {
        Frontmatter::Closed { yaml, .. } => yaml.contains_inclusive(offset),
        Frontmatter::Unclosed { open } => offset >= open.end,
        Frontmatter::Missing => false,
    };
    if !inside {
        return None;
    }
    let text = &entry.text;
    if let Some(portable) = portable_value(index, entry, skill, offset) {
        return Some(portable);
    }
    let line = line_at(text, offset)?;
    if line.word.start as usize == line.start {
        // A top-level key being typed (at the start of its line): the known ones not written yet.
        let written: HashSet<&str> = skill
            .fields
            .iter()
            .filter(|f| !f.key.range.contains_inclusive(offset))
            .map(|f| f.key.value.as_str())
            .collect();
        let items = KNOWN_FIELDS
            .iter()
            .filter(|f| !written.contains(f.key))
            .map(|f| CompletionItem {
                documentation: None,
                label: f.key.to_owned(),
                detail: Some(f.hover.to_owned()),
                kind: CompletionKind::Field,
            })
            .collect();
        return Some(Completions {
            range: line.word,
            items,
        });
    }
    let trimmed = line.head.trim_start();
    let indent = line.head.len() - trimmed.len();
    let in_chain = if trimmed == "-" {
        enclosing_keys(text, line.start, indent, true) == ["chain", "metadata"]
    } else if let Some((key, rest)) = trimmed.split_once(": [") {
        key == "chain"
            && !rest.contains(']')
            && enclosing_keys(text, line.start, indent, false) == ["metadata"]
    } else {
        if let Some((key, col)) = key_of(line.head) {
            if enclosing_keys(text, line.start, col, false) == ["metadata"] {
                if let Some(values) = chain_option_values(key) {
                    let what = format!("chain option `{key}`");
                    return documented_values(line.word, values, &what);
                }
            }
        }
        false
    };
    if in_chain {
        return Some(Completions {
            range: line.word,
            items: chain_targets(index, entry),
        });
    }
    if line.head.is_empty() {
        let col = line.word.start as usize - line.start;
        let path = enclosing_keys(text, line.start, col, false);
        return chain_option_keys(skill, text, &line).or_else(|| {
            let written = mapping_entries(text, line.start, col);
            extension_keys(&path, &written, line.word)
        });
    }
    extension_value(index, entry, text, &line)
}

/// The keys an extension's mapping takes, from the extension tables, those not `written` yet: the
/// types under `dependencies`, the groups of a type (`all`, `any`), a precondition predicate's
/// keys and a `state` predicate's keys. `path` runs from the mapping's own key outwards.
pub(super) fn extension_keys(
    path: &[&str],
    written: &[(&str, Option<&str>)],
    range: TextRange,
) -> Option<Completions> {
    let (table, what) = match path {
        ["dependencies"] => (DEPENDENCY_TYPES, "dependency type"),
        [kind, "dependencies"] if DEPENDENCY_TYPES.iter().any(|t| t.value == *kind) => {
            (DEPENDENCY_GROUPS, "dependency group")
        }
        ["precondition", "metadata"] => (PREDICATE_KEYS, "precondition predicate key"),
        ["state", "precondition", "metadata"] => (STATE_KEYS, "state predicate key"),
        _ => return None,
    };
    let items = table
        .iter()
        .filter(|key| !written.iter().any(|(w, _)| *w == key.value))
        .map(|key| CompletionItem {
            documentation: Some(format!("`{}` — {} ({what})", key.value, key.doc)),
            label: key.value.to_owned(),
            detail: Some(key.doc.to_owned()),
            kind: CompletionKind::Field,
        })
        .collect();
    Some(Completions { range, items })
}

/// A key being typed under `metadata` beside a `chain`: the chain options not written yet, from
/// the one table. Without a `chain` the option names are plain metadata, so nothing is offered.
pub(super) fn chain_option_keys(
    skill: &SkillMd,
    text: &str,
    line: &Line<'_>,
) -> Option<Completions> {
    let chain = skill.extensions.chain.as_ref()?;
    let col = line.word.start as usize - line.start;
    if enclosing_keys(text, line.start, col, false) != ["metadata"] {
        return None;
    }
    let items = CHAIN_OPTIONS
        .iter()
        .filter(|o| {
            !chain
                .options
                .iter()
                .any(|set| set.option.key == o.key && !set.key.contains_inclusive(line.word.end))
        })
        .map(|o| CompletionItem {
            label: o.key.to_owned(),
            detail: Some(o.doc.to_owned()),
            documentation: Some(o.documentation()),
            kind: CompletionKind::Field,
        })
        .collect();
    Some(Completions {
        range: line.word,
        items,
    })
}

/// A value of an extension being typed: a tool of the inventory (`dependencies.tools` entries,
/// `action_tool`, a precondition or its `tool:`), or a state predicate's `op`.
pub(super) fn extension_value(
    index: &Index,
    entry: &FileEntry,
    text: &str,
    line: &Line<'_>,
) -> Option<Completions> {
    let slot = flow_slot(text, line)?;
    if slot.kind == SlotKind::Key {
        return extension_keys(&slot.path, &slot.written, line.word);
    }
    let (path, in_list) = (slot.path, slot.kind == SlotKind::Item);
    let wants_tools = match path.as_slice() {
        ["tools", "dependencies"] | ["all" | "any", "tools", "dependencies"] => in_list,
        ["action_tool", "metadata"] | ["tool", "precondition", "metadata"] => !in_list,
        ["precondition", "metadata"] => true,
        ["op", "state", "precondition", "metadata"] if !in_list => {
            return documented_values(line.word, PRECONDITION_OPS, "state predicate operator");
        }
        _ => false,
    };
    wants_tools.then(|| inventory_tools(index, entry, line.word))?
}

/// Inside a string written in the portable form (`model::skill_md::portable`): what the
/// same place of the nested form offers. The chain's skills in `metadata.chain`; in
/// `metadata.dependencies` the types before `:` and the tools after a `tools` one; in
/// `metadata.precondition` the tools (at a predicate's start or after `tool:`) and a state's
/// operators (its second word).
fn portable_value(
    index: &Index,
    entry: &FileEntry,
    skill: &SkillMd,
    offset: u32,
) -> Option<Completions> {
    let metadata = &skill.field("metadata")?.value;
    let (key, value) = metadata
        .entries
        .iter()
        .find(|e| e.value_range.contains_inclusive(offset))
        .map(|e| (e.key.as_deref(), e.value_range))?;
    let text = &entry.text;
    let written = text.get(value.start as usize..value.end as usize)?;
    // Only inside the quotes of a string.
    let quoted = written.len() >= 2 && (written.starts_with('"') || written.starts_with('\''));
    if !quoted || offset <= value.start || offset >= value.end {
        return None;
    }
    let is_word = |c: char| !(c.is_whitespace() || ",;:'\"[]".contains(c));
    let at = offset as usize;
    let start = text[value.start as usize + 1..at]
        .char_indices()
        .rev()
        .take_while(|(_, c)| is_word(*c))
        .last()
        .map_or(at, |(i, _)| value.start as usize + 1 + i);
    let end = at
        + text[at..value.end as usize - 1]
            .chars()
            .take_while(|c| is_word(*c))
            .map(char::len_utf8)
            .sum::<usize>();
    let range = TextRange::new(start as u32, end as u32);
    // The part of the string before the word: from the last `;` (or `,` in a chain).
    let before = &text[value.start as usize + 1..start];
    let part = before.rsplit(';').next().unwrap_or("").trim_start();
    match key? {
        "chain" if skill.extensions.chain.as_ref().is_some_and(|c| c.portable) => {
            Some(Completions {
                range,
                items: chain_targets(index, entry),
            })
        }
        "dependencies" => match part.split_once(':') {
            None => {
                // Up to the cursor, a type and maybe `.` and the start of a group.
                let typed = text[value.start as usize + 1..at]
                    .rsplit(';')
                    .next()
                    .unwrap_or("")
                    .trim_start();
                if let Some((kind, group)) = typed.split_once('.') {
                    let range = TextRange::new((at - group.len()) as u32, range.end);
                    let what = format!("dependency group of `{kind}`");
                    return documented_values(range, DEPENDENCY_GROUPS, &what);
                }
                documented_values(range, DEPENDENCY_TYPES, "dependency type")
            }
            Some((head, _)) if head.trim().split('.').next() == Some("tools") => {
                inventory_tools(index, entry, range)
            }
            Some(_) => None,
        },
        "precondition" => {
            if let Some(state) = part.strip_prefix("state:") {
                let words = state.split_whitespace().count();
                return (words == 1 && state.ends_with(char::is_whitespace))
                    .then(|| documented_values(range, PRECONDITION_OPS, "state predicate operator"))
                    .flatten();
            }
            let tool_place = part.is_empty()
                || part
                    .strip_prefix("tool:")
                    .is_some_and(|t| t.trim().is_empty());
            tool_place
                .then(|| inventory_tools(index, entry, range))
                .flatten()
        }
        _ => None,
    }
}

/// The tools of the skill's inventory, each saying where it comes from. No inventory, no items.
pub(super) fn inventory_tools(
    index: &Index,
    entry: &FileEntry,
    range: TextRange,
) -> Option<Completions> {
    let lookup = Lookup::new(index);
    let inventory = Inventory::of(&lookup, &entry.path)?;
    let origin = inventory.origin();
    let items = inventory
        .tools(&lookup)
        .into_iter()
        .map(|(name, source)| {
            let from = source.describe();
            CompletionItem {
                documentation: Some(format!(
                    "Tool `{name}`, available from {from} (the tool inventory configured in {origin})."
                )),
                detail: Some(format!("tool from {from}")),
                label: name,
                kind: CompletionKind::Tool,
            }
        })
        .collect();
    Some(Completions { range, items })
}

/// The SKILL.md skills a chain entry of `from` may name: each name that resolves (as
/// `semantics::chain` resolves entries) to a skill inside the chain's parent folder; those in the same
/// parent folder first, then by depth.
pub(super) fn chain_targets(index: &Index, from: &FileEntry) -> Vec<CompletionItem> {
    let names: BTreeSet<String> = index
        .files()
        .filter(|f| matches!(f.role, FileRole::SkillMd))
        .filter_map(|f| match &f.parsed.content {
            Content::SkillMd(skill) => skill.normalized_name(),
            _ => None,
        })
        .collect();
    let lookup = Lookup::new(index);
    let parent = skill_root(&from.path);
    let mut found: Vec<(bool, usize, String, &FileEntry)> = names
        .into_iter()
        .filter_map(|name| match resolve(&lookup, &from.path, &name) {
            Target::Found(target) if target.id != from.id => Some((
                skill_root(&target.path) != parent,
                target.path.components().count(),
                name,
                target,
            )),
            _ => None,
        })
        .collect();
    found.sort_by(|a, b| (a.0, a.1, &a.2).cmp(&(b.0, b.1, &b.2)));
    found
        .into_iter()
        .map(|(_, _, name, target)| CompletionItem {
            documentation: None,
            label: name,
            detail: Some(format!(
                "SKILL.md at {}",
                crate::ide::extensions::relative(&from.path, &target.path)
            )),
            kind: CompletionKind::Skill,
        })
        .collect()
}
