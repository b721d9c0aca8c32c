//! Completion inside a SKILL.md frontmatter: `metadata.chain` entries (the skills the entry would
//! resolve to), chain option keys and values, the extensions' keys and values (tools of the
//! inventory among them, and state paths and values the workspace's preconditions use), and
//! top-level keys, in the nested form and inside the portable form's strings alike.

use std::collections::{BTreeMap, BTreeSet, HashSet};

use super::text::{enclosing_keys, flow_slot, key_of, line_at, mapping_entries, Line, SlotKind};
use crate::diagnostic::FileId;
use crate::ide::answers::{CompletionItem, CompletionKind, Completions};
use crate::index::{Content, FileEntry, FileRole, Index, Lookup};
use crate::model::skill_md::extensions::{
    chain_option, EnumValue, Predicate, State, Value, CHAIN_OPTIONS, DEPENDENCY_GROUPS,
    DEPENDENCY_TYPES, PRECONDITION_OPS, PREDICATE_KEYS, STATE_KEYS,
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
        ["path", "state", "precondition", "metadata"] if !in_list => {
            return state_paths(index, entry, line.word, line.word);
        }
        ["value", "state", "precondition", "metadata"] => {
            let skill = match &entry.parsed.content {
                Content::SkillMd(skill) => skill,
                _ => return None,
            };
            let path = state_at(skill, line.word.start)?
                .path
                .as_ref()?
                .text
                .clone()?;
            return state_values(index, entry, &path, line.word, line.word);
        }
        _ => false,
    };
    wants_tools.then(|| inventory_tools(index, entry, line.word))?
}

/// Inside a string written in the portable form (`model::skill_md::portable`): what the
/// same place of the nested form offers. The chain's skills in `metadata.chain`; in
/// `metadata.dependencies` the types before `:` and the tools after a `tools` one; in
/// `metadata.precondition` the tools and the forms `tool:` and `state:` at a predicate's start,
/// the tools after `tool:`, and a state's paths, operators and compared values, word by word.
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
                let own = TextRange::new((start - part.len()) as u32, range.end);
                return portable_state(index, entry, state, range, own);
            }
            if part
                .strip_prefix("tool:")
                .is_some_and(|t| t.trim().is_empty())
            {
                return inventory_tools(index, entry, range);
            }
            if !part.is_empty() {
                return None;
            }
            // A predicate's start: a tool, or the two keywords that the nested form's
            // predicate keys (`tool`, `state`) become in the string.
            let mut found = inventory_tools(index, entry, range).unwrap_or(Completions {
                range,
                items: Vec::new(),
            });
            found
                .items
                .extend(PREDICATE_KEYS.iter().map(|key| CompletionItem {
                    documentation: Some(format!(
                        "`{}:` — {} (precondition predicate, portable form)",
                        key.value, key.doc
                    )),
                    label: format!("{}:", key.value),
                    detail: Some(key.doc.to_owned()),
                    kind: CompletionKind::Field,
                }));
            Some(found)
        }
        _ => None,
    }
}

/// Inside `state: PATH OP VALUE` of a portable precondition, `state` being what is written
/// before the word at `range` and `own` the predicate up to the word: the state paths at the first word, the operators at the second,
/// and the values compared with that path at the third (inside `[...]` for `in`).
fn portable_state(
    index: &Index,
    entry: &FileEntry,
    state: &str,
    range: TextRange,
    own: TextRange,
) -> Option<Completions> {
    let mut words = state.split_whitespace();
    match (words.next(), words.next()) {
        (None, _) => state_paths(index, entry, range, own),
        (Some(_), None) if state.ends_with(char::is_whitespace) => {
            documented_values(range, PRECONDITION_OPS, "state predicate operator")
        }
        (Some(path), Some("eq" | "neq" | "in"))
            if state.ends_with(char::is_whitespace) || state.ends_with(['[', ',']) =>
        {
            state_values(index, entry, path, range, own)
        }
        _ => None,
    }
}

/// The state predicates of a precondition, in order.
fn states(precondition: &Predicate) -> Vec<&State> {
    fn state_of(predicate: &Predicate) -> Option<&State> {
        match predicate {
            Predicate::Mapping(map) => map.state.as_ref().map(|(_, state)| state),
            _ => None,
        }
    }
    match precondition {
        Predicate::List { items, .. } => items.iter().filter_map(state_of).collect(),
        other => state_of(other).into_iter().collect(),
    }
}

/// The state predicate of `skill` written around `offset`.
fn state_at(skill: &SkillMd, offset: u32) -> Option<&State> {
    let precondition = skill.extensions.precondition.as_ref()?;
    states(precondition)
        .into_iter()
        .find(|state| state.value.range.contains_inclusive(offset))
}

/// Every state predicate of the workspace's skills, but the one being typed at `own` of `entry`
/// (what it holds so far is not offered back to itself).
fn workspace_states<'a>(
    index: &'a Index,
    entry: &'a FileEntry,
    own: TextRange,
) -> impl Iterator<Item = (FileId, &'a State)> {
    index
        .files()
        .filter_map(|f| match &f.parsed.content {
            Content::SkillMd(skill) => Some((f.id, skill.extensions.precondition.as_ref()?)),
            _ => None,
        })
        .flat_map(|(id, precondition)| states(precondition).into_iter().map(move |s| (id, s)))
        .filter(move |(id, state)| {
            let typed = state.value.range;
            *id != entry.id
                || !(typed.contains_inclusive(own.start) || own.contains_inclusive(typed.start))
        })
}

/// The text of a scalar, unless it is empty (`path:` with nothing after it yet).
fn written(value: &Value) -> Option<&str> {
    value.text.as_deref().filter(|text| !text.is_empty())
}

/// The state paths the workspace's preconditions test (in either form), so that every skill names
/// a state the same way; each says how many skills test it. `own` is the predicate being typed.
fn state_paths(
    index: &Index,
    entry: &FileEntry,
    range: TextRange,
    own: TextRange,
) -> Option<Completions> {
    let mut paths: BTreeMap<&str, BTreeSet<FileId>> = BTreeMap::new();
    for (file, state) in workspace_states(index, entry, own) {
        if let Some(path) = state.path.as_ref().and_then(written) {
            paths.entry(path).or_default().insert(file);
        }
    }
    let items = paths
        .into_iter()
        .map(|(path, files)| CompletionItem {
            documentation: Some(format!(
                "State `{path}`, tested by the preconditions of {} of the workspace's skills.",
                files.len()
            )),
            detail: Some(format!(
                "state path, in {} of the workspace's skills",
                files.len()
            )),
            label: path.to_owned(),
            kind: CompletionKind::Value,
        })
        .collect();
    Some(Completions { range, items })
}

/// The values the workspace's preconditions compare the state `path` with (each item of an `in`
/// list counted as a value).
fn state_values(
    index: &Index,
    entry: &FileEntry,
    path: &str,
    range: TextRange,
    own: TextRange,
) -> Option<Completions> {
    let mut values: BTreeSet<&str> = BTreeSet::new();
    for (_, state) in workspace_states(index, entry, own) {
        if state.path.as_ref().and_then(written) != Some(path) {
            continue;
        }
        let compared = state.compared.as_ref().map(|(_, value)| value);
        values.extend(
            compared
                .into_iter()
                .chain(&state.compared_items)
                .filter_map(written),
        );
    }
    let items = values
        .into_iter()
        .map(|value| CompletionItem {
            documentation: Some(format!(
                "A value the workspace's preconditions compare `{path}` with."
            )),
            detail: Some(format!("compared with `{path}`")),
            label: value.to_owned(),
            kind: CompletionKind::Value,
        })
        .collect();
    Some(Completions { range, items })
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
