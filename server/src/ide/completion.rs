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

use std::collections::{BTreeSet, HashSet};

use super::answers::{CompletionItem, CompletionKind, Completions};
use super::cursor::{at, Ref, Site};
use super::schema_shape::Shape;
use crate::diagnostic::FileId;
use crate::index::{Content, FileEntry, FileRole, Index, Lookup};
use crate::model::skill_md::extensions::{
    chain_option, EnumValue, CHAIN_OPTIONS, DEPENDENCY_GROUPS, DEPENDENCY_TYPES, PRECONDITION_OPS,
    PREDICATE_KEYS, STATE_KEYS,
};
use crate::model::skill_md::skill_root;
use crate::model::skill_md::{SkillMd, KNOWN_FIELDS};
use crate::model::swarmkit::{AgentIndex, Artifact, ArtifactKind, Topology};
use crate::rules::archetypes::BUILT_IN_EXECUTORS;
use crate::rules::tools::Inventory;
use crate::semantics::chain::{resolve, Target};
use crate::semantics::grants::effective_skills;
use crate::syntax::{Frontmatter, TextRange};

enum Want {
    /// Skill ids; only those `held_by` holds (a `requires:` rule), or all but those `granted_to`
    /// already holds (a grant).
    Skills {
        held_by: Option<AgentIndex>,
        granted_to: Option<AgentIndex>,
    },
    Archetypes,
    Servers,
    /// Command packs (`pack:<id>` grants), with `workspace` for the topology skills.
    Packs,
    Topologies,
    Funnels,
    /// The other agents of the topology (`depends_on`).
    Agents {
        except: Option<AgentIndex>,
    },
    /// The ids a `governance.decision_skills` binding may name: the decision skills and the
    /// memory hooks.
    DecisionSkills,
}

pub fn completion(index: &Index, file: FileId, offset: u32) -> Option<Completions> {
    if let Some(mentions) = super::mentions::completion(index, file, offset) {
        return Some(mentions);
    }
    let entry = index.file(file)?;
    if let Content::SkillMd(skill) = &entry.parsed.content {
        return skill_md(index, entry, skill, offset)
            .or_else(|| super::skill_files::path_completion(index, entry, offset));
    }
    let workspace = index.workspace_of(file)?;
    let (want, range) = match at(index, file, offset) {
        Some(o) => {
            let want = match (&o.what, o.site) {
                (
                    Ref::Artifact(ArtifactKind::Skill, _),
                    Site::RequiresKey | Site::RequiresValue,
                ) => Want::Skills {
                    held_by: o.agent,
                    granted_to: None,
                },
                (Ref::Artifact(ArtifactKind::Skill, _), Site::DecisionBinding) => {
                    Want::DecisionSkills
                }
                (Ref::Artifact(ArtifactKind::Skill, _), Site::Grant) => Want::Skills {
                    held_by: None,
                    granted_to: o.agent,
                },
                (Ref::Artifact(ArtifactKind::Skill, _), _) => Want::Skills {
                    held_by: None,
                    granted_to: None,
                },
                (Ref::Artifact(ArtifactKind::Archetype, _), Site::Reference) => Want::Archetypes,
                (Ref::Artifact(ArtifactKind::Topology, _), Site::Reference) => Want::Topologies,
                (Ref::Artifact(ArtifactKind::Funnel, _), Site::Reference) => Want::Funnels,
                (Ref::Agent(_), Site::Reference) => Want::Agents { except: o.agent },
                (Ref::McpServer(_), Site::Grant | Site::Reference) => Want::Servers,
                _ => return None,
            };
            (want, o.range)
        }
        None => match from_text(index, file, &entry.text, offset) {
            Some(found) => found,
            None => return schema_place(index, entry, offset),
        },
    };
    let mut items = Vec::new();
    match want {
        Want::Skills {
            held_by: Some(agent),
            ..
        } => {
            let Content::SwarmKit(Artifact::Topology(t)) = &entry.parsed.content else {
                return None;
            };
            let agent = t.agents.get(agent)?;
            let lookup = Lookup::new(index);
            let held = effective_skills(&lookup, workspace, file, agent, &mut Vec::new());
            // Not what the rule or block names already (the id being edited aside): a key
            // guarded twice is a repeated key, and a rule's own skill or a repeat among its
            // prerequisites is an error.
            let written = at(index, file, offset).map(|o| o.range);
            let mut seen: HashSet<String> = match &agent.requires {
                Some(block) => {
                    let names: Vec<&crate::model::SpannedStr> = match block
                        .rules
                        .iter()
                        .find(|r| r.value_range.contains_inclusive(offset))
                    {
                        Some(rule) => std::iter::once(&rule.guarded)
                            .chain(&rule.prerequisites)
                            .collect(),
                        None => block.rules.iter().map(|r| &r.guarded).collect(),
                    };
                    names
                        .into_iter()
                        .filter(|n| Some(n.range) != written)
                        .map(|n| n.value.clone())
                        .collect()
                }
                None => HashSet::new(),
            };
            for skill in held.iter() {
                if seen.insert(skill.id.to_owned()) {
                    items.push(CompletionItem {
                        documentation: None,
                        detail: Some(format!("held via {}", skill.source.describe())),
                        label: skill.id.to_owned(),
                        kind: CompletionKind::Skill,
                    });
                }
            }
        }
        Want::Skills {
            held_by: None,
            granted_to,
        } => {
            // A grant offers what the agent does not hold yet (the one being edited aside).
            let written = at(index, file, offset).map(|o| o.range);
            let held: HashSet<String> = match (granted_to, &entry.parsed.content) {
                (Some(agent), Content::SwarmKit(Artifact::Topology(t))) => t
                    .agents
                    .get(agent)
                    .map(|agent| {
                        let lookup = Lookup::new(index);
                        effective_skills(&lookup, workspace, file, agent, &mut Vec::new())
                            .iter()
                            .filter(|s| Some(s.grant_range) != written || s.grant_file != file)
                            .map(|s| s.id.to_owned())
                            .collect()
                    })
                    .unwrap_or_default(),
                _ => HashSet::new(),
            };
            items.extend(
                ids(index, workspace, ArtifactKind::Skill, CompletionKind::Skill)
                    .into_iter()
                    .filter(|i| !held.contains(&i.label)),
            )
        }
        Want::Funnels => items.extend(ids(
            index,
            workspace,
            ArtifactKind::Funnel,
            CompletionKind::Value,
        )),
        Want::Agents { except } => {
            if let Content::SwarmKit(Artifact::Topology(t)) = &entry.parsed.content {
                let mut seen = HashSet::new();
                for (i, agent) in t.agents.iter().enumerate() {
                    let Some(id) = &agent.id else { continue };
                    if Some(i) != except && seen.insert(id.value.clone()) {
                        items.push(CompletionItem {
                            label: id.value.clone(),
                            documentation: None,
                            detail: agent.role.as_ref().map(|r| format!("agent ({})", r.value)),
                            kind: CompletionKind::Value,
                        });
                    }
                }
            }
        }
        Want::DecisionSkills => {
            let lookup = Lookup::new(index);
            let decision = crate::semantics::registry::granted_by_category(
                &lookup,
                workspace,
                crate::rules::decision_skills::DECISION_CATEGORY,
            );
            let mut seen = HashSet::new();
            for id in &decision.ids {
                if seen.insert(id.as_str()) {
                    items.push(CompletionItem {
                        label: id.clone(),
                        documentation: None,
                        detail: Some("decision skill".to_owned()),
                        kind: CompletionKind::Skill,
                    });
                }
            }
            for hook in crate::model::swarmkit::MEMORY_HOOKS {
                items.push(CompletionItem {
                    label: (*hook).to_owned(),
                    documentation: Some(
                        "The memory hook, run by the runtime's memory subsystem (bound \
                         automatically unless the workspace binds it)."
                            .to_owned(),
                    ),
                    detail: Some("memory hook".to_owned()),
                    kind: CompletionKind::Value,
                });
            }
        }
        Want::Archetypes => items.extend(ids(
            index,
            workspace,
            ArtifactKind::Archetype,
            CompletionKind::Archetype,
        )),
        Want::Topologies => items.extend(ids(
            index,
            workspace,
            ArtifactKind::Topology,
            CompletionKind::Topology,
        )),
        Want::Packs => {
            if let Some(Content::SwarmKit(Artifact::Workspace(w))) =
                index.file(workspace).map(|e| &e.parsed.content)
            {
                items.extend(w.command_packs.iter().map(|p| CompletionItem {
                    documentation: None,
                    label: p.id.value.clone(),
                    detail: Some("command pack: its read commands".to_owned()),
                    kind: CompletionKind::Value,
                }));
            }
            items.push(CompletionItem {
                documentation: None,
                label: "workspace".to_owned(),
                detail: Some("the skills that run this workspace's topologies".to_owned()),
                kind: CompletionKind::Value,
            });
        }
        Want::Servers => {
            if let Some(Content::SwarmKit(Artifact::Workspace(w))) =
                index.file(workspace).map(|e| &e.parsed.content)
            {
                items.extend(w.mcp_servers.iter().map(|s| CompletionItem {
                    documentation: None,
                    label: s.id.value.clone(),
                    detail: Some("MCP server".to_owned()),
                    kind: CompletionKind::McpServer,
                }));
            }
        }
    }
    for item in &mut items {
        if item.kind == CompletionKind::Skill && item.documentation.is_none() {
            item.documentation = skill_documentation(index, workspace, &item.label);
        }
    }
    Some(Completions { range, items })
}

/// A skill's description and where it is defined, for the item's documentation.
fn skill_documentation(index: &Index, workspace: FileId, id: &str) -> Option<String> {
    let lookup = Lookup::new(index);
    let skill = crate::semantics::registry::skills_named(&lookup, workspace, id)
        .into_iter()
        .next()?;
    let place = super::cursor::relative_path(index, workspace, skill.file);
    let description = skill
        .skill
        .and_then(|s| s.description.as_ref())
        .map(|d| format!("{}\n\n", d.value))
        .unwrap_or_default();
    Some(format!("{description}Defined in `{place}`"))
}

fn ids(
    index: &Index,
    workspace: FileId,
    kind: ArtifactKind,
    item_kind: CompletionKind,
) -> Vec<CompletionItem> {
    index
        .ids_of(workspace, kind)
        .map(|id| CompletionItem {
            documentation: None,
            label: id.to_owned(),
            detail: Some(kind.kind_field().to_owned()),
            kind: item_kind,
        })
        .collect()
}

/// Recognises a value being typed from the text: `- ` items under `skills:`,
/// `skills_additional:`, `composes:` or inside `requires:`, flow lists on those keys, and
/// `archetype: `.
fn from_text(index: &Index, file: FileId, text: &str, offset: u32) -> Option<(Want, TextRange)> {
    let offset = (offset as usize).min(text.len());
    if !text.is_char_boundary(offset) {
        return None;
    }
    let line_start = text[..offset].rfind(['\n', '\r']).map_or(0, |i| i + 1);
    let before = &text[line_start..offset];
    // The word being typed, if any, is what the item replaces.
    let word_len = before
        .chars()
        .rev()
        .take_while(|c| c.is_alphanumeric() || *c == '-' || *c == '_')
        .map(char::len_utf8)
        .sum::<usize>();
    let range = TextRange::new((offset - word_len) as u32, offset as u32);
    let head = before[..before.len() - word_len].trim_end();
    let agent = innermost_agent(index, file, offset as u32);
    // A bulk grant's target being typed: `pack:` or `server:` right before the word, as a list
    // item (`pack: x` with a space is a key).
    let unspaced = &before[..before.len() - word_len];
    for (prefix, want) in [("pack:", Want::Packs), ("server:", Want::Servers)] {
        if let Some(item) = unspaced.strip_suffix(prefix) {
            if item.trim_end().ends_with(['[', ',', '-']) {
                return Some((want, range));
            }
        }
    }
    let in_trigger = matches!(
        index.file(file).map(|e| &e.role),
        Some(FileRole::SwarmKit {
            expected: ArtifactKind::Trigger,
            ..
        })
    );
    let skills_in = |key: &str| match key {
        "skills" | "skills_additional" => Some(Want::Skills {
            held_by: None,
            granted_to: agent,
        }),
        "composes" => Some(Want::Skills {
            held_by: None,
            granted_to: None,
        }),
        "depends_on" => Some(Want::Agents { except: agent }),
        "targets" if in_trigger => Some(Want::Topologies),
        _ => None,
    };
    let trimmed = head.trim_start();
    if let Some(key) = trimmed.strip_suffix(':') {
        return match key.trim_start_matches("- ") {
            "archetype" => Some((Want::Archetypes, range)),
            "id" if enclosing_keys(
                text,
                line_start,
                before.len() - before.trim_start().len(),
                trimmed.starts_with("- "),
            )
            .starts_with(&["decision_skills", "governance"]) =>
            {
                Some((Want::DecisionSkills, range))
            }
            "funnel" => Some((Want::Funnels, range)),
            "server"
                if enclosing_keys(
                    text,
                    line_start,
                    before.len() - before.trim_start().len(),
                    false,
                ) == ["implementation"] =>
            {
                Some((Want::Servers, range))
            }
            _ => None,
        };
    }
    if let Some((key, _)) = trimmed.split_once(": [") {
        // A flow list on this line: `skills: [a, |`; not a flow mapping inside it
        // (`skills: [{abstract: {category: |`), which the schema answers.
        let key = key.trim_start_matches("- ").trim();
        let item_of_key = line_at(text, offset as u32)
            .and_then(|line| flow_slot(text, &line))
            .is_some_and(|slot| slot.kind == SlotKind::Item && slot.path.first() == Some(&key));
        if !item_of_key {
            return None;
        }
        if let Some(want) = skills_in(key) {
            return Some((want, range));
        }
        // `guarded: [|` inside a requires block.
        if let Some(agent) = agent.filter(|_| in_requires(text, line_start)) {
            return Some((
                Want::Skills {
                    held_by: Some(agent),
                    granted_to: None,
                },
                range,
            ));
        }
        return None;
    }
    if trimmed == "-" {
        let indent = before.len() - before.trim_start().len();
        let key = parent_key(text, line_start, indent)?;
        return skills_in(&key).map(|want| (want, range));
    }
    if let Some(key) = requires_above(text, line_start).filter(|_| trimmed.is_empty()) {
        // A new guarded key being typed under `requires:` (an empty line below it is outside
        // the agent's mapping as parsed, so the agent is the one whose key that is).
        return Some((
            Want::Skills {
                held_by: agent.or_else(|| agent_requiring(index, file, key)),
                granted_to: None,
            },
            range,
        ));
    }
    None
}

/// The key of the nearest line above with less indentation than `indent` (`skills:` above
/// `  - x`), or the same indentation for a YAML list written flush with its key.
fn parent_key(text: &str, line_start: usize, indent: usize) -> Option<String> {
    for line in text[..line_start].lines().rev() {
        let body = line.trim_start();
        if body.is_empty() || body.starts_with('#') {
            continue;
        }
        let this_indent = line.len() - body.len();
        if body.starts_with("- ") && this_indent == indent {
            continue; // a sibling item
        }
        if this_indent <= indent {
            let key = body.trim_start_matches("- ").split(':').next()?.trim();
            return body.trim_end().ends_with(':').then(|| key.to_owned());
        }
    }
    None
}

/// When the line starting at `line_start` sits inside a `requires:` block: where that
/// `requires` key is written.
fn requires_above(text: &str, line_start: usize) -> Option<usize> {
    let line = text[line_start..].lines().next().unwrap_or("");
    let indent = line.len() - line.trim_start().len();
    for above in text[..line_start].lines().rev() {
        // `above` is a slice of `text`: where it starts is the distance between the two.
        let start = above.as_ptr() as usize - text.as_ptr() as usize;
        let body = above.trim_start();
        if body.is_empty() || body.starts_with('#') {
            continue;
        }
        let this_indent = above.len() - body.len();
        if this_indent < indent {
            return (body.trim_end() == "requires:").then_some(start + this_indent);
        }
    }
    None
}

/// True when the line starting at `line_start` sits inside a `requires:` block.
fn in_requires(text: &str, line_start: usize) -> bool {
    requires_above(text, line_start).is_some()
}

/// The agent whose `requires:` key is written at `key`.
fn agent_requiring(index: &Index, file: FileId, key: usize) -> Option<AgentIndex> {
    let Content::SwarmKit(Artifact::Topology(Topology { agents, .. })) =
        &index.file(file)?.parsed.content
    else {
        return None;
    };
    agents.iter().position(|a| {
        a.requires
            .as_ref()
            .is_some_and(|r| r.key_range.start as usize == key)
    })
}

fn innermost_agent(index: &Index, file: FileId, offset: u32) -> Option<AgentIndex> {
    let Content::SwarmKit(Artifact::Topology(Topology { agents, .. })) =
        &index.file(file)?.parsed.content
    else {
        return None;
    };
    agents
        .iter()
        .enumerate()
        .filter(|(_, a)| a.range.contains_inclusive(offset))
        .min_by_key(|(_, a)| a.range.len())
        .map(|(i, _)| i)
}

// The values of the SwarmKit keys with a fixed set, as the bundled schemas (`server/schemas/`)
// list them (the test `enum_tables_match_the_bundled_schemas` holds them to it), each with the
// line shown beside it.
const CATEGORY: &[(&str, &str)] = &[
    (
        "capability",
        "does work: calls a tool, runs a prompt or a command",
    ),
    ("decision", "judges: returns a verdict other steps act on"),
    (
        "coordination",
        "coordinates agents: delegation, escalation, messages",
    ),
    ("persistence", "stores or recalls state: memory, logs"),
];
const IMPLEMENTATION: &[(&str, &str)] = &[
    (
        "mcp_tool",
        "calls a tool of an MCP server (`server`, `tool`)",
    ),
    ("llm_prompt", "runs a prompt on a model"),
    ("composed", "runs other skills in turn (`composes`)"),
    ("command", "runs a command of a command pack"),
    ("agent", "calls another agent"),
];
/// `root` is the top agent's role and only its (the schema makes it a constant there);
/// `children` are leaders or workers.
const ROLE: &[(&str, &str)] = &[
    ("root", "the topology's top agent"),
    ("leader", "an agent that delegates to its children"),
    ("worker", "an agent that does the work itself"),
];
const TRIGGER: &[(&str, &str)] = &[
    ("cron", "on a schedule (needs a `config` block)"),
    ("webhook", "on an HTTP request (needs a `config` block)"),
    (
        "file_watch",
        "when watched files change (needs a `config` block)",
    ),
    ("manual", "when started by hand"),
    ("plugin", "from a trigger plugin (needs a `config` block)"),
];
const TRANSPORT: &[(&str, &str)] = &[
    ("stdio", "a local process spoken to over stdin/stdout"),
    ("http", "a server reached over HTTP"),
];

/// The values a chain option takes, from the one table of chain options.
fn chain_option_values(key: &str) -> Option<&'static [EnumValue]> {
    let values = chain_option(key)?.values();
    (!values.is_empty()).then_some(values)
}

/// Values of an extension's table, each with its doc as detail and documentation.
fn documented_values(range: TextRange, values: &[EnumValue], what: &str) -> Option<Completions> {
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

/// The one-line notes shown beside the values of the SwarmKit keys users meet most; other values
/// show the key's description from the schema.
fn value_note(key: &str, value: &str) -> Option<&'static str> {
    let tables: &[&[(&str, &str)]] = match key {
        "category" => &[CATEGORY],
        "type" => &[IMPLEMENTATION, TRIGGER],
        "role" => &[ROLE],
        "transport" => &[TRANSPORT],
        _ => &[],
    };
    tables
        .iter()
        .flat_map(|t| t.iter())
        .find(|(v, _)| *v == value)
        .map(|(_, note)| *note)
}

/// Completion at a place of a SwarmKit file that no id occurrence covers: the ids the few keys
/// naming other things take (`implementation.pack`, an executor, a funnel's judge ...), else
/// what the bundled schema allows there: the values of an enum or a boolean after `key:`, or the
/// keys of the mapping being written (an agent's keys, with their descriptions).
fn schema_place(index: &Index, entry: &FileEntry, offset: u32) -> Option<Completions> {
    let kind = match &entry.role {
        FileRole::SwarmKit { expected, .. } => *expected,
        FileRole::WorkspaceManifest => ArtifactKind::Workspace,
        _ => return None,
    };
    let workspace = index.workspace_of(entry.id)?;
    let text = &entry.text;
    let line = line_at(text, offset)?;
    let shape = Shape::bundled(kind)?;
    let place = Place {
        index,
        workspace,
        entry,
        kind,
        shape: &shape,
        range: line.word,
    };
    if let Some(slot) = flow_slot(text, &line).filter(|s| s.in_flow) {
        return place.in_flow(&slot, &line);
    }
    if let Some((key, col, range)) = key_and_value(text, line.start, offset) {
        let mut path = enclosing_keys(text, line.start, col, false);
        path.reverse();
        if let Some(found) = id_value(index, workspace, entry, kind, &path, key, range) {
            return Some(found);
        }
    }
    if let Some((key, col)) = key_of(line.head) {
        let mut path = enclosing_keys(text, line.start, col, false);
        path.reverse();
        path.push(key);
        return place.values_of(&path);
    }
    // A key being typed: nothing but spaces and list dashes before the word, and nothing after
    // it on the line but the `:` of a key already written.
    // (The line's head is trimmed; its indentation is read from the text.)
    let raw = &text[line.start..line.word.start as usize];
    let body = raw.trim_start_matches(' ').trim_end();
    if !strip_dashes(&format!("{body} ")).trim().is_empty() {
        return None;
    }
    let rest = text[line.word.end as usize..]
        .lines()
        .next()
        .unwrap_or("")
        .trim_start();
    if !(rest.is_empty() || rest.starts_with(':')) {
        return None;
    }
    let in_list = !body.is_empty();
    let indent = raw.len() - raw.trim_start_matches(' ').len();
    let key_col = line.word.start as usize - line.start;
    let mut path = enclosing_keys(text, line.start, indent, in_list);
    path.reverse();
    let mut view = shape.at(&path);
    if in_list {
        view = shape.items(&view, 0);
        // A list of plain values: the values, not keys.
        if let Some(values) = shape.values(&view) {
            return Some(place.list_values(values));
        }
    }
    let siblings = mapping_entries(text, line.start, key_col);
    if !in_list {
        if let Some(found) = parent_entries(text, line.start, key_col)
            .and_then(|owner| place.override_keys(&path, &owner, &siblings))
        {
            return Some(found);
        }
    }
    place.keys_of(&view, &siblings)
}

/// A place of a SwarmKit file being completed, and what answers there.
struct Place<'a, 's> {
    index: &'a Index,
    workspace: FileId,
    entry: &'a FileEntry,
    kind: ArtifactKind,
    shape: &'a Shape<'s>,
    /// What the chosen item replaces.
    range: TextRange,
}

impl Place<'_, '_> {
    /// Inside a flow collection opened on the cursor's line (`{abstract: {category: `,
    /// `- {id: a, transport: `): what the same place written in block style gets.
    fn in_flow(&self, slot: &Slot<'_>, line: &Line<'_>) -> Option<Completions> {
        let path = slot.outermost_first();
        let shape = self.shape;
        match slot.kind {
            SlotKind::Value => {
                let (key, parents) = path.split_last()?;
                id_value(
                    self.index,
                    self.workspace,
                    self.entry,
                    self.kind,
                    parents,
                    key,
                    self.range,
                )
                .or_else(|| self.values_of(&path))
            }
            SlotKind::Item => {
                let values = shape.values(&shape.items(&shape.at(&path), 0))?;
                Some(self.list_values(values))
            }
            SlotKind::Key => {
                // The mapping's owner: the flow mapping around it, or the block mapping holding
                // the key that opened it on this line.
                let owner = if slot.parent_written.is_empty() {
                    let body = strip_dashes(line.head.trim_start());
                    mapping_entries(&self.entry.text, line.start, line.head.len() - body.len())
                } else {
                    slot.parent_written.clone()
                };
                self.override_keys(&path, &owner, &slot.written)
                    .or_else(|| self.keys_of(&shape.at(&path), &slot.written))
            }
        }
    }

    /// The values an item of a list of plain values takes.
    fn list_values(&self, values: Vec<String>) -> Completions {
        Completions {
            range: self.range,
            items: values
                .into_iter()
                .map(|value| CompletionItem {
                    detail: Some("a value of the list".to_owned()),
                    documentation: None,
                    label: value,
                    kind: CompletionKind::Value,
                })
                .collect(),
        }
    }

    /// The values the schema allows for the key at the end of `path` (an enum, a boolean).
    fn values_of(&self, path: &[&str]) -> Option<Completions> {
        let shape = self.shape;
        let key = *path.last()?;
        let values = shape.values(&shape.at(path))?;
        let documentation = property_schema(shape, path).and_then(|p| shape.description(p));
        Some(Completions {
            range: self.range,
            items: values
                .into_iter()
                .map(|value| CompletionItem {
                    detail: Some(
                        value_note(key, &value)
                            .map_or_else(|| format!("a value of `{key}`"), str::to_owned),
                    ),
                    documentation: documentation.map(str::to_owned),
                    label: value,
                    kind: CompletionKind::Value,
                })
                .collect(),
        })
    }

    /// The keys the schema allows in the mapping at `view`, those not `written` yet, each with
    /// its type and description.
    fn keys_of(
        &self,
        view: &super::schema_shape::View<'_>,
        written: &[(&str, Option<&str>)],
    ) -> Option<Completions> {
        let shape = self.shape;
        let values: Vec<(&str, &str)> = written
            .iter()
            .filter_map(|(k, v)| Some((*k, (*v)?)))
            .collect();
        let items: Vec<CompletionItem> = shape
            .keys(view, &values)
            .into_iter()
            .filter(|k| !written.iter().any(|(s, _)| *s == k.name))
            .map(|k| {
                let summary = match shape.values(&shape.child(view, k.name, 0)) {
                    Some(values) => format!("one of {}", values.join(", ")),
                    None => shape.summary(k.schema),
                };
                let mut documentation = shape
                    .description(k.schema)
                    .map_or_else(|| format!("A {summary}."), str::to_owned);
                if k.required {
                    documentation.push_str("\n\nRequired.");
                }
                CompletionItem {
                    label: k.name.to_owned(),
                    detail: Some(summary),
                    documentation: Some(documentation),
                    kind: CompletionKind::Field,
                }
            })
            .collect();
        (!items.is_empty()).then_some(Completions {
            range: self.range,
            items,
        })
    }

    /// The keys of a command pack's `permission_overrides` and `timeout_overrides` (its
    /// commands) and of an MCP server's `permission_overrides` (the tools of the server's saved
    /// tool list), those not `written` yet. `path` ends with the overrides key, outermost
    /// first; `owner` holds the entries of the pack or server, its `id` among them.
    fn override_keys(
        &self,
        path: &[&str],
        owner: &[(&str, Option<&str>)],
        written: &[(&str, Option<&str>)],
    ) -> Option<Completions> {
        if self.kind != ArtifactKind::Workspace {
            return None;
        }
        let id = owner.iter().find(|(k, _)| *k == "id")?.1?;
        let fresh = |name: &str| !written.iter().any(|(w, _)| *w == name);
        let items = match path {
            ["command_packs", "permission_overrides" | "timeout_overrides"] => {
                let Content::SwarmKit(Artifact::Workspace(w)) = &self.entry.parsed.content else {
                    return None;
                };
                let pack = w.command_packs.iter().find(|p| p.id.value == id)?;
                pack.commands
                    .iter()
                    .filter(|c| fresh(&c.id.value))
                    .map(|c| {
                        let effects = if c.read_only { "read" } else { "write" };
                        CompletionItem {
                            documentation: Some(format!(
                                "Command `{}` of the command pack `{id}` (effects: {effects}), \
                                 defined in `commands:` of this pack.",
                                c.id.value
                            )),
                            detail: Some(format!("command of `{id}` ({effects})")),
                            label: c.id.value.clone(),
                            kind: CompletionKind::Value,
                        }
                    })
                    .collect()
            }
            ["mcp_servers", "permission_overrides"] => {
                server_tools(self.index, self.workspace, self.entry, id)?
                    .into_iter()
                    .filter(|i| fresh(&i.label))
                    .collect()
            }
            _ => return None,
        };
        Some(Completions {
            range: self.range,
            items,
        })
    }
}

/// The tools of the MCP server `server`, from its saved `tools/list` result: the
/// `mcp-tool-lists` file of the tool inventory that applies to `entry` named `<server>.json`.
/// Without such a list there is nothing to offer (the runtime asks the server itself).
fn server_tools(
    index: &Index,
    workspace: FileId,
    entry: &FileEntry,
    server: &str,
) -> Option<Vec<CompletionItem>> {
    let lookup = Lookup::new(index);
    let inventory = Inventory::of(&lookup, &entry.path)?;
    let (file, list) = inventory.server_tool_list(server)?;
    let place = super::cursor::relative_path(index, workspace, file.id);
    let mut seen = HashSet::new();
    Some(
        list.tools
            .iter()
            .filter(|t| seen.insert(t.as_str()))
            .map(|tool| CompletionItem {
                documentation: Some(format!(
                    "Tool `{tool}` of the MCP server `{server}`, listed in `{place}` (its saved \
                     `tools/list` result)."
                )),
                detail: Some(format!("tool of MCP server `{server}`")),
                label: tool.clone(),
                kind: CompletionKind::Tool,
            })
            .collect(),
    )
}

/// The entries of the mapping holding the key whose value is the block mapping with keys at
/// column `col` around the line at `line_start` (`id: git` beside `permission_overrides:`).
fn parent_entries(text: &str, line_start: usize, col: usize) -> Option<Vec<(&str, Option<&str>)>> {
    let key_column = |line: &str| line.len() - strip_dashes(line.trim_start_matches(' ')).len();
    for above in text[..line_start].lines().rev() {
        let body = above.trim_start_matches(' ');
        if body.trim().is_empty() || body.starts_with('#') {
            continue;
        }
        if key_column(above) < col {
            let start = above.as_ptr() as usize - text.as_ptr() as usize;
            let mut entries = mapping_entries(text, start, key_column(above));
            // The parent's own line is its key (with no value on it).
            entries.extend(
                strip_dashes(body)
                    .trim_end()
                    .strip_suffix(':')
                    .map(|k| (k, None)),
            );
            return Some(entries);
        }
    }
    None
}

/// The schema of the property at the end of `path`, for its description.
fn property_schema<'s>(shape: &Shape<'s>, path: &[&str]) -> Option<&'s serde_json::Value> {
    let (last, parents) = path.split_last()?;
    shape
        .keys(&shape.at(parents), &[])
        .into_iter()
        .find(|k| k.name == *last)
        .map(|k| k.schema)
}

/// The keys written in the mapping whose keys start at column `col` around the cursor's line,
/// with their scalar values (quotes taken off); the cursor's own line, where a key is being
/// typed, aside. Reads from the line of the mapping's first key (its `- ` item, or the first
/// line at `col`) to its last.
fn mapping_entries<'t>(
    text: &'t str,
    line_start: usize,
    col: usize,
) -> Vec<(&'t str, Option<&'t str>)> {
    let mut out = Vec::new();
    let entry = |line: &'t str, out: &mut Vec<(&'t str, Option<&'t str>)>| {
        let Some(body) = line.get(col..) else { return };
        let Some((key, value)) = body.split_once(':') else {
            return;
        };
        let key = key.trim_end();
        if key.is_empty() || key.contains(' ') || key.starts_with(['#', '-']) {
            return;
        }
        let value = value.trim();
        let value = value
            .strip_prefix(['"', '\''])
            .and_then(|v| v.strip_suffix(['"', '\'']))
            .unwrap_or(value);
        out.push((key, (!value.is_empty()).then_some(value)));
    };
    // Where a line's own key starts: after its indentation and any `- `.
    let key_column = |line: &str| line.len() - strip_dashes(line.trim_start_matches(' ')).len();
    for above in text[..line_start].lines().rev() {
        let body = above.trim_start_matches(' ');
        if body.trim().is_empty() || body.starts_with('#') {
            continue;
        }
        let spaces = above.len() - body.len();
        if key_column(above) == col && spaces < col {
            entry(above, &mut out); // the `- key:` line the item starts with
            break;
        }
        if spaces < col {
            break;
        }
        if spaces == col {
            entry(above, &mut out);
        }
    }
    let line_end = text[line_start..]
        .find('\n')
        .map_or(text.len(), |i| line_start + i + 1);
    for below in text[line_end..].lines() {
        let body = below.trim_start_matches(' ');
        if body.trim().is_empty() || body.starts_with('#') {
            continue;
        }
        let spaces = below.len() - body.len();
        if spaces < col {
            break;
        }
        if spaces == col {
            entry(below, &mut out);
        }
    }
    out
}

/// The bundled authoring topologies an `agent` skill may run (`swarmkit:author:<what>`), as
/// `skill.schema.json` lists them in `implementation.topology`'s pattern.
const AUTHORING_TOPOLOGIES: &[&str] = &[
    "swarmkit:author:topology",
    "swarmkit:author:skill",
    "swarmkit:author:archetype",
    "swarmkit:author:mcp-server",
    "swarmkit:author:init",
    "swarmkit:author:funnel",
];

/// The ids a key naming another thing takes, where the cursor is after `key:` (the places the
/// id occurrences do not cover, since nothing is written there yet or what is written names
/// nothing): a skill's command pack, its command, an `agent` skill's topology, an archetype's
/// executor and adapter, a funnel's judge skill and reviewer archetype.
fn id_value(
    index: &Index,
    workspace: FileId,
    entry: &FileEntry,
    kind: ArtifactKind,
    path: &[&str],
    key: &str,
    range: TextRange,
) -> Option<Completions> {
    let manifest = match index.file(workspace).map(|e| &e.parsed.content) {
        Some(Content::SwarmKit(Artifact::Workspace(w))) => Some(w),
        _ => None,
    };
    let item = |label: &str, detail: String, kind: CompletionKind| CompletionItem {
        label: label.to_owned(),
        documentation: None,
        detail: Some(detail),
        kind,
    };
    let items: Vec<CompletionItem> = match (kind, path, key) {
        (ArtifactKind::Skill, ["implementation"], "pack") => manifest?
            .command_packs
            .iter()
            .map(|p| {
                item(
                    &p.id.value,
                    format!("command pack ({} commands)", p.commands.len()),
                    CompletionKind::Value,
                )
            })
            .collect(),
        (ArtifactKind::Skill, ["implementation"], "command") => {
            let Content::SwarmKit(Artifact::Skill(skill)) = &entry.parsed.content else {
                return None;
            };
            let pack = skill.pack.as_ref()?;
            manifest?
                .command_packs
                .iter()
                .filter(|p| p.id.value == pack.value)
                .flat_map(|p| &p.commands)
                .map(|c| {
                    item(
                        &c.id.value,
                        format!(
                            "command of `{}` ({})",
                            pack.value,
                            if c.read_only { "read" } else { "write" }
                        ),
                        CompletionKind::Value,
                    )
                })
                .collect()
        }
        (ArtifactKind::Skill, ["implementation"], "tool") => {
            let Content::SwarmKit(Artifact::Skill(skill)) = &entry.parsed.content else {
                return None;
            };
            server_tools(index, workspace, entry, &skill.server.as_ref()?.value)?
        }
        (ArtifactKind::Skill, ["implementation"], "topology") => {
            let mut items = ids(
                index,
                workspace,
                ArtifactKind::Topology,
                CompletionKind::Topology,
            );
            items.extend(AUTHORING_TOPOLOGIES.iter().map(|t| {
                item(
                    t,
                    "bundled authoring topology".to_owned(),
                    CompletionKind::Topology,
                )
            }));
            items
        }
        (ArtifactKind::Archetype, ["executor"], "kind" | "ref") => {
            let harness_only = key == "ref";
            let mut items: Vec<CompletionItem> = BUILT_IN_EXECUTORS
                .iter()
                .filter(|e| !harness_only || **e != "model")
                .map(|e| {
                    let what = if *e == "model" {
                        "a model call (the default)"
                    } else {
                        "a bundled coding harness"
                    };
                    item(e, what.to_owned(), CompletionKind::Value)
                })
                .collect();
            if !harness_only {
                items.insert(
                    1,
                    item(
                        "harness",
                        "a harness adapter, named in `ref`".to_owned(),
                        CompletionKind::Value,
                    ),
                );
            }
            items.extend(
                index
                    .ids_of(workspace, ArtifactKind::ExecutorAdapter)
                    .map(|id| item(id, "adapter in adapters/".to_owned(), CompletionKind::Value)),
            );
            items
        }
        (ArtifactKind::Funnel, ["judge"], "skill") => {
            let lookup = Lookup::new(index);
            index
                .ids_of(workspace, ArtifactKind::Skill)
                .filter(|id| {
                    crate::semantics::registry::skills_named(&lookup, workspace, id)
                        .iter()
                        .any(|s| {
                            s.skill
                                .and_then(|s| s.category.as_ref())
                                .is_some_and(|c| c.value == "decision")
                        })
                })
                .map(|id| item(id, "decision skill".to_owned(), CompletionKind::Skill))
                .collect()
        }
        (ArtifactKind::Funnel, ["review"], "archetype") => ids(
            index,
            workspace,
            ArtifactKind::Archetype,
            CompletionKind::Archetype,
        ),
        _ => return None,
    };
    let mut items = items;
    for item in &mut items {
        if item.kind == CompletionKind::Skill && item.documentation.is_none() {
            item.documentation = skill_documentation(index, workspace, &item.label);
        }
    }
    Some(Completions { range, items })
}

/// The key of the cursor's line and the value written after it, when the cursor is in that
/// value: the key, its column, and the whole value (inside quotes, before a comment), which is
/// what an item replaces (`swarmkit:author:…` holds colons, which end a word elsewhere).
fn key_and_value(text: &str, line_start: usize, offset: u32) -> Option<(&str, usize, TextRange)> {
    let offset = offset as usize;
    let line_end = text[line_start..]
        .find(['\n', '\r'])
        .map_or(text.len(), |i| line_start + i);
    let line = &text[line_start..line_end];
    let rest = strip_dashes(line.trim_start_matches(' '));
    let col = line.len() - rest.len();
    let colon = rest.find(':')?;
    let key = rest[..colon].trim_end();
    let plain = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_alphanumeric() || c == '-' || c == '_' || c == '.');
    if !plain {
        return None;
    }
    let after = &rest[colon + 1..];
    let mut start = line_start + col + colon + 1 + (after.len() - after.trim_start().len());
    if offset < start || offset > line_end {
        return None;
    }
    let written = &text[start..line_end];
    let mut end = start + written.find(" #").unwrap_or(written.len());
    end = start + text[start..end].trim_end().len();
    if let Some(quote) = text[start..end]
        .chars()
        .next()
        .filter(|c| matches!(c, '"' | '\''))
    {
        start += 1;
        if end > start && text[..end].ends_with(quote) {
            end -= 1;
        }
    }
    let end = end.max(offset);
    (offset >= start).then(|| (key, col, TextRange::new(start as u32, end as u32)))
}

/// Completion inside a SKILL.md frontmatter.
fn skill_md(index: &Index, entry: &FileEntry, skill: &SkillMd, offset: u32) -> Option<Completions> {
    let inside = match skill.frontmatter {
        Frontmatter::Closed { yaml, .. } => yaml.contains_inclusive(offset),
        Frontmatter::Unclosed { open } => offset >= open.end,
        Frontmatter::Missing => false,
    };
    if !inside {
        return None;
    }
    let text = &entry.text;
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
fn extension_keys(
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
fn chain_option_keys(skill: &SkillMd, text: &str, line: &Line<'_>) -> Option<Completions> {
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
fn extension_value(
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

/// The tools of the skill's inventory, each saying where it comes from. No inventory, no items.
fn inventory_tools(index: &Index, entry: &FileEntry, range: TextRange) -> Option<Completions> {
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

/// What is being typed at the cursor, read from the text of its line.
#[derive(Debug, PartialEq, Eq)]
enum SlotKind {
    /// The value of the key `path[0]`.
    Value,
    /// An item of the list that is the value of `path[0]`.
    Item,
    /// A key of the flow mapping that is the value of `path[0]`.
    Key,
}

/// Where in a (possibly half-typed) YAML document the cursor's value or key goes.
#[derive(Debug)]
struct Slot<'t> {
    /// The keys from the one whose value is being typed outwards.
    path: Vec<&'t str>,
    kind: SlotKind,
    /// For a key of a flow mapping: the keys already written in that mapping, with their plain
    /// values (quotes taken off).
    written: Vec<(&'t str, Option<&'t str>)>,
    /// For a key of a flow mapping that is itself a value in a flow mapping on the line
    /// (`{id: git, permission_overrides: {`): the keys written in that outer mapping.
    parent_written: Vec<(&'t str, Option<&'t str>)>,
    /// True when a flow collection opened on the cursor's line is still open at the cursor.
    in_flow: bool,
}

impl Slot<'_> {
    /// The path outermost first, as the schema is walked.
    fn outermost_first(&self) -> Vec<&str> {
        self.path.iter().rev().copied().collect()
    }
}

/// Where the cursor's value goes: the keys from the one whose value is being typed outwards, and
/// whether it is a value, a list item or a key of a flow mapping. Block keys come from the
/// indentation above; flow collections opened on the cursor's line (`[{tool: `) are read left
/// to right in one pass, skipping quoted text. (A flow collection spanning several lines is read
/// from the line the cursor is on only.)
fn flow_slot<'t>(text: &'t str, line: &Line<'t>) -> Option<Slot<'t>> {
    let head = line.head;
    let trimmed = head.trim_start();
    let indent = head.len() - trimmed.len();
    if trimmed == "-" {
        return Some(Slot {
            path: enclosing_keys(text, line.start, indent, true),
            kind: SlotKind::Item,
            written: Vec::new(),
            parent_written: Vec::new(),
            in_flow: false,
        });
    }
    let body = strip_dashes(trimmed);
    let col = head.len() - body.len();
    let is_key = |k: &str| {
        !k.is_empty()
            && k.chars()
                .all(|c| c.is_alphanumeric() || c == '-' || c == '_' || c == '.')
    };
    let (block_key, rest) = if body.starts_with(['[', '{']) {
        (None, body)
    } else {
        let (key, rest) = body.split_once(':')?;
        if !is_key(key.trim_end()) || !(rest.is_empty() || rest.starts_with(' ')) {
            return None;
        }
        (Some(key.trim_end()), rest.trim_start())
    };
    let dashed_value = body.len() != trimmed.len() && block_key.is_none();
    let outer = if dashed_value {
        enclosing_keys(text, line.start, indent, true)
    } else {
        enclosing_keys(text, line.start, col, false)
    };
    // One frame per open flow collection: the key that opened it, whether it is a list, the key
    // whose value is being written in it, and (a mapping) the keys written in it so far.
    struct Frame<'t> {
        key: Option<&'t str>,
        list: bool,
        pending: Option<&'t str>,
        written: Vec<(&'t str, Option<&'t str>)>,
    }
    let mut frames = vec![Frame {
        key: None,
        list: dashed_value,
        pending: block_key,
        written: Vec::new(),
    }];
    let bytes = rest.as_bytes();
    let mut token = 0;
    let mut i = 0;
    // A pending key's value ends at `,` or the closing bracket: note it as written.
    let settle = |frame: &mut Frame<'t>, value: &'t str| {
        if let Some(key) = frame.pending.take() {
            let value = value.trim();
            let value = value
                .strip_prefix(['"', '\''])
                .and_then(|v| v.strip_suffix(['"', '\'']))
                .unwrap_or(value);
            frame
                .written
                .push((key, (!value.is_empty()).then_some(value)));
        }
    };
    while i < bytes.len() {
        match bytes[i] {
            b'[' | b'{' => {
                let top = frames.last_mut()?;
                let key = top.pending;
                frames.push(Frame {
                    key,
                    list: bytes[i] == b'[',
                    pending: None,
                    written: Vec::new(),
                });
                token = i + 1;
            }
            b']' | b'}' => {
                if frames.len() == 1 {
                    return None;
                }
                let mut closed = frames.pop()?;
                settle(&mut closed, &rest[token..i]);
                // The collection was the value of the key that opened it.
                let top = frames.last_mut()?;
                settle(top, "");
                token = i + 1;
            }
            b',' => {
                let top = frames.last_mut()?;
                settle(top, &rest[token..i]);
                token = i + 1;
            }
            b':' if bytes.get(i + 1).is_none_or(|b| *b == b' ') => {
                let key = rest[token..i].trim();
                if !is_key(key) {
                    return None;
                }
                frames.last_mut()?.pending = Some(key);
                token = i + 1;
            }
            quote @ (b'"' | b'\'') => match rest[i + 1..].find(quote as char) {
                Some(close) => i += close + 1,
                // A quoted value being typed (`transport: "st|`).
                None if rest[token..i].trim().is_empty() => {
                    token = rest.len();
                    break;
                }
                None => return None,
            },
            _ => {}
        }
        i += 1;
    }
    if !rest[token..].trim().is_empty() {
        // Past a value already written on this line.
        return None;
    }
    let in_flow = frames.len() > 1;
    let top = frames.pop()?;
    let kind = match (top.pending, top.list) {
        (Some(_), _) => SlotKind::Value,
        (None, true) => SlotKind::Item,
        (None, false) if in_flow => SlotKind::Key,
        (None, false) => return None,
    };
    let mut path: Vec<&str> = top.pending.into_iter().collect();
    path.extend(top.key);
    path.extend(frames.iter().rev().filter_map(|f| f.key));
    path.extend(outer);
    let (written, parent_written) = match (&kind, frames.last_mut()) {
        (SlotKind::Key, Some(parent)) if !parent.list => {
            (top.written, std::mem::take(&mut parent.written))
        }
        (SlotKind::Key, _) => (top.written, Vec::new()),
        _ => (Vec::new(), Vec::new()),
    };
    Some(Slot {
        path,
        kind,
        written,
        parent_written,
        in_flow,
    })
}

/// The SKILL.md skills a chain entry of `from` may name: each name that resolves (as
/// `semantics::chain` resolves entries) to a skill inside the chain's parent folder; those in the same
/// parent folder first, then by depth.
fn chain_targets(index: &Index, from: &FileEntry) -> Vec<CompletionItem> {
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
                super::extensions::relative(&from.path, &target.path)
            )),
            kind: CompletionKind::Skill,
        })
        .collect()
}

/// The cursor's line, read from the text.
struct Line<'t> {
    /// Where the line starts.
    start: usize,
    /// The line up to the word being typed, without trailing spaces.
    head: &'t str,
    /// The word around the cursor: what the chosen item replaces.
    word: TextRange,
}

fn line_at(text: &str, offset: u32) -> Option<Line<'_>> {
    let offset = offset as usize;
    if offset > text.len() || !text.is_char_boundary(offset) {
        return None;
    }
    let is_word = |c: char| c.is_alphanumeric() || c == '-' || c == '_' || c == '.';
    let start = text[..offset].rfind(['\n', '\r']).map_or(0, |i| i + 1);
    let before = text[start..offset]
        .chars()
        .rev()
        .take_while(|c| is_word(*c))
        .map(char::len_utf8)
        .sum::<usize>();
    let after = text[offset..]
        .chars()
        .take_while(|c| is_word(*c))
        .map(char::len_utf8)
        .sum::<usize>();
    Some(Line {
        start,
        head: text[start..offset - before].trim_end(),
        word: TextRange::new((offset - before) as u32, (offset + after) as u32),
    })
}

/// The key a line's head ends with (`  - role:` gives `role`), and the column of the key.
fn key_of(head: &str) -> Option<(&str, usize)> {
    // A value being typed inside quotes (`role: "wo|`).
    let head = head.strip_suffix(['"', '\'']).map_or(head, str::trim_end);
    let rest = strip_dashes(head.trim_start());
    let key = rest.strip_suffix(':')?.trim_end();
    let plain = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_alphanumeric() || c == '-' || c == '_' || c == '.');
    plain.then_some((key, head.len() - rest.len()))
}

/// `- - x` gives `x`.
fn strip_dashes(mut body: &str) -> &str {
    while let Some(rest) = body.strip_prefix("- ") {
        body = rest.trim_start();
    }
    body
}

/// The keys of the mappings enclosing a line, innermost first, from the indentation of the lines
/// above (a half-typed document is often not valid YAML). `col` is the column of the line's key,
/// or of its `-` with `in_list` (whose owning key may then sit at the same column).
fn enclosing_keys(text: &str, line_start: usize, col: usize, in_list: bool) -> Vec<&str> {
    let mut keys = Vec::new();
    let mut limit = col;
    let mut flush = in_list;
    for line in text[..line_start].lines().rev() {
        let body = line.trim_start_matches(' ');
        if body.trim().is_empty() || body.starts_with('#') {
            continue;
        }
        let spaces = line.len() - body.len();
        let rest = strip_dashes(body);
        let key = rest
            .trim_end()
            .strip_suffix(':')
            .filter(|k| !k.contains(": "))
            .map(str::trim);
        if rest.len() != body.len() {
            // An item of a list whose `-` sits at `spaces`.
            if spaces >= limit {
                continue;
            }
            if line.len() - rest.len() < limit {
                keys.extend(key);
            }
            limit = spaces;
            flush = true;
        } else {
            if spaces > limit || (spaces == limit && !flush) {
                continue;
            }
            keys.extend(key);
            if spaces == 0 {
                break;
            }
            limit = spaces;
            flush = false;
        }
    }
    keys
}

#[cfg(test)]
mod tests {
    use super::super::test_support::fixture;
    use super::*;

    const BASE: &str = r#"
//- /w/workspace.yaml
apiVersion: swarmkit/v1
kind: Workspace
metadata:
  id: w
mcp_servers:
  - id: conventions
//- /w/skills/a.yaml
apiVersion: swarmkit/v1
kind: Skill
metadata:
  id: alpha
//- /w/skills/b.yaml
apiVersion: swarmkit/v1
kind: Skill
metadata:
  id: beta
//- /w/archetypes/eng.yaml
apiVersion: swarmkit/v1
kind: Archetype
metadata:
  id: eng
"#;

    fn labels(topology_body: &str) -> Vec<String> {
        let text = format!(
            "{BASE}//- /w/topologies/t.yaml\napiVersion: swarmkit/v1\nkind: Topology\nmetadata:\n  name: t\nagents:\n  root:\n{topology_body}"
        );
        let f = fixture(&text);
        completion(&f.index, f.cursor_file, f.offset)
            .map(|c| c.items.into_iter().map(|i| i.label).collect())
            .unwrap_or_default()
    }

    #[test]
    fn skill_ids_in_a_grant_being_typed() {
        // The workspace's skills, and those the runtime makes up (memory, `topology-<name>`).
        let offered = labels("    id: root\n    skills: [al$0]\n");
        assert!(
            offered.starts_with(&["alpha".to_owned(), "beta".to_owned()]),
            "{offered:?}"
        );
        assert!(offered.contains(&"topology-t".to_owned()), "{offered:?}");
        // A skill the agent holds already is not offered again.
        let offered = labels("    id: root\n    skills:\n      - alpha\n      - $0\n");
        assert!(offered.starts_with(&["beta".to_owned()]), "{offered:?}");
        assert!(!offered.contains(&"alpha".to_owned()), "{offered:?}");
        let offered = labels("    id: root\n    skills: [alpha, beta, al$0]\n");
        assert!(!offered.contains(&"beta".to_owned()), "{offered:?}");
    }

    #[test]
    fn items_say_what_a_skill_does_and_where_it_is_defined() {
        let text = format!(
            "{}//- /w/topologies/t.yaml\napiVersion: swarmkit/v1\nkind: Topology\nmetadata:\n  name: t\nagents:\n  root:\n    id: root\n    skills: [$0]\n",
            BASE.replace("  id: alpha\n", "  id: alpha\n  description: Does the first thing.\n")
        );
        let f = fixture(&text);
        let found = completion(&f.index, f.cursor_file, f.offset).unwrap();
        let alpha = found.items.iter().find(|i| i.label == "alpha").unwrap();
        assert_eq!(
            alpha.documentation.as_deref(),
            Some("Does the first thing.\n\nDefined in `skills/a.yaml`")
        );
    }

    #[test]
    fn depends_on_funnels_and_implementation_servers() {
        let tree = "    id: root\n    children:\n      - id: one\n        role: worker\n      - id: two\n        role: worker\n";
        assert_eq!(
            labels(&format!("{tree}        depends_on: [$0]\n")),
            ["root", "one"]
        );
        assert_eq!(
            labels(&format!("{tree}        depends_on: [o$0ne]\n")),
            ["root", "one"]
        );
        let with_funnel = format!(
            "{BASE}//- /w/funnels/f.yaml\napiVersion: swarmkit/v1\nkind: Funnel\nmetadata:\n  id: intake\n//- /w/topologies/t.yaml\napiVersion: swarmkit/v1\nkind: Topology\nmetadata:\n  name: t\nagents:\n  root:\n    id: root\n    funnel: $0\n"
        );
        let f = fixture(&with_funnel);
        let found = completion(&f.index, f.cursor_file, f.offset).unwrap();
        assert_eq!(
            found
                .items
                .iter()
                .map(|i| i.label.as_str())
                .collect::<Vec<_>>(),
            ["intake"]
        );
        let skill = format!(
            "{BASE}//- /w/skills/c.yaml\napiVersion: swarmkit/v1\nkind: Skill\nmetadata:\n  id: gamma\nimplementation:\n  type: mcp_tool\n  server: $0\n"
        );
        let f = fixture(&skill);
        let found = completion(&f.index, f.cursor_file, f.offset).unwrap();
        assert_eq!(
            found
                .items
                .iter()
                .map(|i| i.label.as_str())
                .collect::<Vec<_>>(),
            ["conventions"]
        );
    }

    #[test]
    fn only_held_skills_inside_requires() {
        assert_eq!(
            labels("    id: root\n    skills: [alpha, beta]\n    requires:\n      beta: [$0]\n"),
            ["alpha"]
        );
        // Neither the rule's own skill nor its prerequisites again; the one edited stays.
        assert_eq!(
            labels("    id: root\n    skills: [alpha, beta, gamma]\n    requires:\n      gamma: [alpha, b$0eta]\n"),
            ["beta"]
        );
        assert_eq!(
            labels("    id: root\n    skills: [beta]\n    requires:\n      be$0\n"),
            ["beta"]
        );
        // At a bare cursor too (an editor asked for completion before anything is typed).
        assert_eq!(
            labels("    id: root\n    skills: [beta]\n    requires:\n      $0\n"),
            ["beta"]
        );
        // A key guarded already is not offered again.
        assert_eq!(
            labels("    id: root\n    skills: [alpha, beta]\n    requires:\n      beta: [alpha]\n      $0\n"),
            ["alpha"]
        );
    }

    #[test]
    fn archetypes_and_servers() {
        assert_eq!(labels("    id: root\n    archetype: $0\n"), ["eng"]);
        assert_eq!(
            labels("    id: root\n    skills: [server:conv$0]\n"),
            ["conventions"]
        );
    }

    fn complete(text: &str) -> Option<Completions> {
        let f = fixture(text);
        completion(&f.index, f.cursor_file, f.offset)
    }

    fn labels_of(text: &str) -> Vec<String> {
        complete(text)
            .map(|c| c.items.into_iter().map(|i| i.label).collect())
            .unwrap_or_default()
    }

    const WORKSPACE: &str =
        "//- /w/workspace.yaml\napiVersion: swarmkit/v1\nkind: Workspace\nmetadata:\n  id: w\n";

    #[test]
    fn decision_binding_ids_offer_decision_skills_and_memory_hooks() {
        let skills = "//- /w/skills/judge.yaml\napiVersion: swarmkit/v1\nkind: Skill\nmetadata:\n  id: grounding-judge\ncategory: decision\n//- /w/skills/say.yaml\napiVersion: swarmkit/v1\nkind: Skill\nmetadata:\n  id: say-hello\ncategory: capability\n";
        let manifest = |bindings: &str| {
            format!("//- /w/workspace.yaml\napiVersion: swarmkit/v1\nkind: Workspace\nmetadata:\n  id: w\ngovernance:\n  provider: mock\n  decision_skills:\n{bindings}{skills}")
        };
        let expected = [
            "grounding-judge",
            "memory-reconcile",
            "memory-reader",
            "memory-writer",
        ];
        // Typed after `- id: `, on an id already written, and in a topology.
        assert_eq!(labels_of(&manifest("    - id: $0\n")), expected);
        assert_eq!(
            labels_of(&manifest("    - trigger: pre_input\n      id: gro$0\n")),
            expected
        );
        assert_eq!(
            labels_of(&manifest(
                "    - id: say-$0hello\n      trigger: pre_input\n"
            )),
            expected
        );
        let topology = format!("{}//- /w/topologies/t.yaml\napiVersion: swarmkit/v1\nkind: Topology\nmetadata:\n  name: t\ngovernance:\n  decision_skills:\n    - id: $0\n", manifest(""));
        assert_eq!(labels_of(&topology), expected);
        // `id:` elsewhere is not a decision binding.
        assert!(labels_of(&format!("{WORKSPACE}mcp_servers:\n  - id: $0\n")).is_empty());
    }

    #[test]
    fn enum_values_in_swarmkit_files() {
        let skill = |body: &str| {
            labels_of(&format!(
                "{WORKSPACE}//- /w/skills/s.yaml\napiVersion: swarmkit/v1\nkind: Skill\nmetadata:\n  id: s\n{body}"
            ))
        };
        assert_eq!(
            skill("category: $0\n"),
            ["capability", "decision", "coordination", "persistence"]
        );
        assert_eq!(
            skill("implementation:\n  type: m$0\n"),
            ["mcp_tool", "llm_prompt", "composed", "command", "agent"]
        );
        // `type` elsewhere, and `category` below another key, take no enum.
        assert!(skill("inputs:\n  type: $0\n").is_empty());
        assert!(skill("metadata2:\n  category: $0\n").is_empty());

        let trigger = labels_of(&format!(
            "{WORKSPACE}//- /w/triggers/t.yaml\napiVersion: swarmkit/v1\nkind: Trigger\nmetadata:\n  id: t\ntype: $0\n"
        ));
        assert_eq!(
            trigger,
            ["cron", "webhook", "file_watch", "manual", "plugin"]
        );

        for servers in [
            "mcp_servers:\n  - id: a\n    transport: $0\n",
            "mcp_servers:\n- id: a\n  command: x\n  transport: st$0\n",
            "mcp_servers:\n  - transport: $0\n",
        ] {
            let labels = labels_of(&format!(
                "{WORKSPACE}{servers}//- /w/skills/x.yaml\nid: x\n"
            ));
            assert_eq!(labels, ["stdio", "http"], "{servers}");
        }

        let archetype = labels_of(&format!(
            "{WORKSPACE}//- /w/archetypes/a.yaml\napiVersion: swarmkit/v1\nkind: Archetype\nmetadata:\n  id: a\nrole: $0\n"
        ));
        assert_eq!(archetype, ["root", "leader", "worker"]);

        let topology = |body: &str| {
            labels_of(&format!(
                "{WORKSPACE}//- /w/topologies/t.yaml\napiVersion: swarmkit/v1\nkind: Topology\nmetadata:\n  name: t\nagents:\n  root:\n{body}"
            ))
        };
        // `root` is the top agent's role only.
        assert_eq!(topology("    id: root\n    role: $0\n"), ["root"]);
        assert_eq!(
            topology(
                "    id: root\n    role: root\n    children:\n      - id: a\n        role: $0\n"
            ),
            ["leader", "worker"]
        );
        assert_eq!(
            topology("    id: root\n    children:\n      - id: a\n        children:\n          - role: w$0\n"),
            ["leader", "worker"]
        );
    }

    fn items_of(text: &str) -> Vec<CompletionItem> {
        complete(text).map(|c| c.items).unwrap_or_default()
    }

    #[test]
    fn agent_keys_from_the_schema_with_their_descriptions() {
        let topology = |body: &str| {
            items_of(&format!(
                "{WORKSPACE}//- /w/topologies/t.yaml\napiVersion: swarmkit/v1\nkind: Topology\nmetadata:\n  name: t\nagents:\n  root:\n{body}"
            ))
        };
        let labels = |items: &[CompletionItem]| -> Vec<String> {
            items.iter().map(|i| i.label.clone()).collect()
        };
        // The root's keys, less those written already.
        let root =
            topology("    id: root\n    role: root\n    sk$0\n    prompt:\n      system: hi\n");
        let names = labels(&root);
        for key in [
            "skills",
            "skills_additional",
            "requires",
            "children",
            "funnel",
            "archetype",
        ] {
            assert!(names.contains(&key.to_owned()), "{names:?}");
        }
        for written in ["id", "role", "prompt"] {
            assert!(!names.contains(&written.to_owned()), "{names:?}");
        }
        let skills = root.iter().find(|i| i.label == "skills").unwrap();
        assert_eq!(skills.kind, CompletionKind::Field);
        assert_eq!(skills.detail.as_deref(), Some("list"));
        assert!(
            skills
                .documentation
                .as_deref()
                .unwrap()
                .starts_with("Skill IDs"),
            "{skills:?}"
        );
        // Every key has documentation, from the schema or its type.
        assert!(root.iter().all(|i| i.documentation.is_some()), "{root:?}");
        // A child agent's first key, typed after its `- `; and a later one.
        let first = labels(&topology(
            "    id: root\n    role: root\n    children:\n      - $0\n",
        ));
        assert!(first.contains(&"depends_on".to_owned()), "{first:?}");
        let child = topology(
            "    id: root\n    role: root\n    children:\n      - id: a\n        r$0\n      - id: b\n        role: worker\n",
        );
        let names = labels(&child);
        assert!(names.contains(&"role".to_owned()), "{names:?}");
        assert!(!names.contains(&"id".to_owned()), "{names:?}");
        let role = child.iter().find(|i| i.label == "role").unwrap();
        assert!(role
            .documentation
            .as_deref()
            .unwrap()
            .ends_with("Required."));
        // A child's role, as the schema narrows it below `children`.
        assert_eq!(role.detail.as_deref(), Some("one of leader, worker"));
        // Not a key position: a value being typed, or a word after another.
        assert!(topology("    id: root\n    role: root\n    skills: x y$0\n").is_empty());
    }

    #[test]
    fn keys_of_the_implementation_written() {
        let skill = |body: &str| {
            labels_of(&format!(
                "{WORKSPACE}//- /w/skills/s.yaml\napiVersion: swarmkit/v1\nkind: Skill\nmetadata:\n  id: s\n{body}"
            ))
        };
        assert_eq!(
            skill("implementation:\n  type: mcp_tool\n  $0\n"),
            ["server", "tool", "arguments"]
        );
        let top = skill("$0\n");
        for key in ["category", "implementation", "inputs"] {
            assert!(top.contains(&key.to_owned()), "{top:?}");
        }
        for written in ["apiVersion", "kind", "metadata"] {
            assert!(!top.contains(&written.to_owned()), "{top:?}");
        }
    }

    #[test]
    fn every_enum_and_boolean_of_the_schemas() {
        let skill = |body: &str| {
            labels_of(&format!(
                "{WORKSPACE}//- /w/skills/s.yaml\napiVersion: swarmkit/v1\nkind: Skill\nmetadata:\n  id: s\n{body}"
            ))
        };
        assert_eq!(
            skill("implementation:\n  type: composed\n  strategy: $0\n"),
            ["parallel-consensus", "sequential", "custom"]
        );
        assert_eq!(
            skill("constraints:\n  retry:\n    backoff: l$0\n"),
            ["exponential", "linear", "none"]
        );
        let topology = labels_of(&format!(
            "{WORKSPACE}//- /w/topologies/t.yaml\napiVersion: swarmkit/v1\nkind: Topology\nmetadata:\n  name: t\nruntime:\n  mode: $0\n"
        ));
        assert_eq!(topology, ["one-shot", "persistent", "scheduled"]);
        let workspace = labels_of(&format!(
            "{WORKSPACE}governance:\n  provider: $0\n//- /w/skills/x.yaml\nid: x\n"
        ));
        assert_eq!(workspace, ["agt", "mock", "custom"]);
        let decision = labels_of(&format!(
            "{WORKSPACE}governance:\n  decision_skills:\n    - id: judge\n      required: $0\n//- /w/skills/x.yaml\nid: x\n"
        ));
        assert_eq!(decision, ["true", "false"]);
        let funnel = items_of(&format!(
            "{WORKSPACE}//- /w/funnels/f.yaml\napiVersion: swarmkit/v1\nkind: Funnel\nmetadata:\n  id: f\nreview:\n  route_back_at: $0\n"
        ));
        assert_eq!(
            funnel.iter().map(|i| i.label.as_str()).collect::<Vec<_>>(),
            ["low", "medium", "high", "critical"]
        );
        // The key's description goes with each value.
        assert!(funnel[0].documentation.is_some(), "{funnel:?}");
    }

    #[test]
    fn packs_commands_topologies_executors_and_funnel_references() {
        let base = format!(
            "{WORKSPACE}command_packs:\n  - id: git\n    commands:\n      - id: status\n        effects: read\n      - id: push\n//- /w/topologies/t.yaml\napiVersion: swarmkit/v1\nkind: Topology\nmetadata:\n  name: t\nagents:\n  root:\n    id: root\n    role: root\n//- /w/adapters/aider.yaml\napiVersion: swarmkit/v1\nkind: ExecutorAdapter\nmetadata:\n  id: aider\n//- /w/archetypes/rev.yaml\napiVersion: swarmkit/v1\nkind: Archetype\nmetadata:\n  id: rev\nrole: worker\n//- /w/skills/judge.yaml\napiVersion: swarmkit/v1\nkind: Skill\nmetadata:\n  id: judge\ncategory: decision\n//- /w/skills/other.yaml\napiVersion: swarmkit/v1\nkind: Skill\nmetadata:\n  id: other\ncategory: capability\n"
        );
        let skill = |body: &str| {
            labels_of(&format!(
                "{base}//- /w/skills/s.yaml\napiVersion: swarmkit/v1\nkind: Skill\nmetadata:\n  id: s\n{body}"
            ))
        };
        assert_eq!(
            skill("implementation:\n  type: command\n  pack: $0\n"),
            ["git"]
        );
        assert_eq!(
            skill("implementation:\n  type: command\n  pack: git\n  command: $0\n"),
            ["status", "push"]
        );
        let topologies = skill("implementation:\n  type: agent\n  topology: $0\n");
        assert_eq!(topologies[0], "t");
        assert!(topologies.contains(&"swarmkit:author:skill".to_owned()));
        // The whole value is replaced, colons and all.
        let text = format!(
            "{base}//- /w/skills/s.yaml\napiVersion: swarmkit/v1\nkind: Skill\nmetadata:\n  id: s\nimplementation:\n  type: agent\n  topology: swarmkit:auth$0\n"
        );
        let f = fixture(&text);
        let found = completion(&f.index, f.cursor_file, f.offset).unwrap();
        let file = f.index.file(f.cursor_file).unwrap();
        assert_eq!(
            &file.text[found.range.start as usize..found.range.end as usize],
            "swarmkit:auth"
        );
        let archetype = |body: &str| {
            labels_of(&format!(
                "{base}//- /w/archetypes/a.yaml\napiVersion: swarmkit/v1\nkind: Archetype\nmetadata:\n  id: a\nrole: worker\n{body}"
            ))
        };
        let kinds = archetype("executor:\n  kind: $0\n");
        assert_eq!(&kinds[..2], ["model", "harness"]);
        assert!(kinds.contains(&"claude-code".to_owned()) && kinds.contains(&"aider".to_owned()));
        let refs = archetype("executor:\n  kind: harness\n  ref: $0\n");
        assert!(!refs.contains(&"model".to_owned()) && refs.contains(&"aider".to_owned()));
        let funnel = |body: &str| {
            labels_of(&format!(
                "{base}//- /w/funnels/f.yaml\napiVersion: swarmkit/v1\nkind: Funnel\nmetadata:\n  id: f\n{body}"
            ))
        };
        assert_eq!(funnel("judge:\n  skill: $0\n"), ["judge"]);
        assert_eq!(funnel("review:\n  archetype: $0\n"), ["rev"]);
    }

    #[test]
    fn bulk_grants_and_trigger_targets_being_typed() {
        let packs =
            format!("{WORKSPACE}command_packs:\n  - id: git\n    commands:\n      - id: status\n");
        let topology = |body: &str| {
            labels_of(&format!(
                "{packs}mcp_servers:\n  - id: conventions\n//- /w/topologies/t.yaml\napiVersion: swarmkit/v1\nkind: Topology\nmetadata:\n  name: t\nagents:\n  root:\n    id: root\n{body}"
            ))
        };
        assert_eq!(topology("    skills: [pack:$0]\n"), ["git", "workspace"]);
        assert_eq!(
            topology("    skills:\n      - pack:g$0\n"),
            ["git", "workspace"]
        );
        assert_eq!(topology("    skills: [a, server:$0]\n"), ["conventions"]);
        let trigger = |targets: &str| {
            labels_of(&format!(
                "{WORKSPACE}//- /w/topologies/t.yaml\napiVersion: swarmkit/v1\nkind: Topology\nmetadata:\n  name: nightly\n//- /w/triggers/t.yaml\napiVersion: swarmkit/v1\nkind: Trigger\nmetadata:\n  id: t\ntype: manual\n{targets}"
            ))
        };
        assert_eq!(trigger("targets:\n  - $0\n"), ["nightly"]);
        assert_eq!(trigger("targets: [$0]\n"), ["nightly"]);
    }

    #[test]
    fn an_enum_value_replaces_the_whole_word() {
        let text = format!(
            "{WORKSPACE}//- /w/skills/s.yaml\napiVersion: swarmkit/v1\nkind: Skill\nmetadata:\n  id: s\ncategory: capa$0bility\n"
        );
        let f = fixture(&text);
        let found = completion(&f.index, f.cursor_file, f.offset).expect("values");
        let file = f.index.file(f.cursor_file).unwrap();
        assert_eq!(
            &file.text[found.range.start as usize..found.range.end as usize],
            "capability"
        );
        assert_eq!(found.items[0].kind, CompletionKind::Value);
        assert!(found.items.iter().all(|i| i.detail.is_some()));
    }

    #[test]
    fn enum_tables_match_the_bundled_schemas() {
        fn at<'v>(v: &'v serde_json::Value, path: &[&str]) -> &'v serde_json::Value {
            path.iter().fold(v, |v, key| match key.parse::<usize>() {
                Ok(i) => &v[i],
                Err(_) => &v[*key],
            })
        }
        fn labels(table: &[(&str, &str)]) -> Vec<String> {
            table.iter().map(|(l, _)| (*l).to_owned()).collect()
        }
        fn strings(v: &serde_json::Value) -> Vec<String> {
            v.as_array()
                .expect("an enum")
                .iter()
                .map(|s| s.as_str().unwrap().to_owned())
                .collect()
        }
        let parse = |text: &str| serde_json::from_str::<serde_json::Value>(text).unwrap();
        let skill = parse(include_str!("../../schemas/skill.schema.json"));
        let topology = parse(include_str!("../../schemas/topology.schema.json"));
        let trigger = parse(include_str!("../../schemas/trigger.schema.json"));
        let workspace = parse(include_str!("../../schemas/workspace.schema.json"));
        let archetype = parse(include_str!("../../schemas/archetype.schema.json"));
        assert_eq!(
            strings(at(&skill, &["properties", "category", "enum"])),
            labels(CATEGORY)
        );
        let implementations: Vec<String> = at(&skill, &["$defs", "implementation", "oneOf"])
            .as_array()
            .unwrap()
            .iter()
            .map(|o| {
                o["properties"]["type"]["const"]
                    .as_str()
                    .unwrap()
                    .to_owned()
            })
            .collect();
        assert_eq!(implementations, labels(IMPLEMENTATION));
        assert_eq!(
            strings(at(
                &topology,
                &["$defs", "agent", "properties", "role", "enum"]
            )),
            labels(ROLE)
        );
        assert_eq!(
            at(
                &topology,
                &[
                    "$defs",
                    "agents",
                    "properties",
                    "root",
                    "allOf",
                    "1",
                    "properties",
                    "role",
                    "const"
                ]
            ),
            ROLE[0].0
        );
        assert_eq!(
            strings(at(
                &topology,
                &[
                    "$defs",
                    "child_agent",
                    "allOf",
                    "1",
                    "properties",
                    "role",
                    "enum"
                ]
            )),
            labels(&ROLE[1..])
        );
        assert_eq!(
            strings(at(&archetype, &["properties", "role", "enum"])),
            labels(ROLE)
        );
        assert_eq!(
            strings(at(&trigger, &["properties", "type", "enum"])),
            labels(TRIGGER)
        );
        assert_eq!(
            strings(at(
                &workspace,
                &["$defs", "mcp_server", "properties", "transport", "enum"]
            )),
            labels(TRANSPORT)
        );
    }

    const CHAIN_SKILLS: &str = "//- /r/s/unit/SKILL.md\n---\nname: unit\ndescription: d\n---\n//- /r/s/e2e/smoke/SKILL.md\n---\nname: smoke\ndescription: d\n---\n//- /r/other/far/SKILL.md\n---\nname: far\ndescription: d\n---\n";

    #[test]
    fn chain_entries_are_the_skills_they_would_resolve_to() {
        // The same parent folder first, then deeper; never the chain itself, nor a skill
        // outside the chain's parent folder (`far`).
        for chain in [
            "metadata:\n  chain: [unit, $0]\n",
            "metadata:\n  chain:\n    - unit\n    - sm$0\n",
            "metadata:\n  chain:\n  - $0\n",
        ] {
            let text = format!(
                "//- /r/s/chain/SKILL.md\n---\nname: chain\ndescription: d\n{chain}---\n{CHAIN_SKILLS}"
            );
            let found = complete(&text).expect("chain entries");
            let labels: Vec<&str> = found.items.iter().map(|i| i.label.as_str()).collect();
            assert_eq!(labels, ["unit", "smoke"], "{chain}");
            assert_eq!(
                found.items[1].detail.as_deref(),
                Some("SKILL.md at e2e/smoke/SKILL.md")
            );
            assert_eq!(found.items[0].kind, CompletionKind::Skill);
        }
        // A `chain` that is not under `metadata` is not a chain.
        assert!(labels_of(&format!(
            "//- /r/s/chain/SKILL.md\n---\nname: chain\ndescription: d\nchain:\n  - $0\n---\n{CHAIN_SKILLS}"
        ))
        .is_empty());
    }

    #[test]
    fn chain_option_values() {
        let option = |line: &str| {
            labels_of(&format!(
                "//- /r/s/chain/SKILL.md\n---\nname: chain\ndescription: d\nmetadata:\n  chain: [unit]\n{line}\n---\n"
            ))
        };
        assert_eq!(
            option("  early_exit_on: $0"),
            ["none", "failure", "success", "critical"]
        );
        assert_eq!(option("  retry_until: st$0"), ["none", "stable", "success"]);
        assert_eq!(option("  async: $0"), ["true", "false"]);
        assert_eq!(
            option("  early_exit_on: \"fa$0\""),
            crate::model::skill_md::extensions::EARLY_EXIT_ON
                .iter()
                .map(|v| v.value)
                .collect::<Vec<_>>()
        );
        assert!(option("  timeout: $0").is_empty());
        for key in ["async", "race_mode", "early_exit_on", "retry_until"] {
            assert!(super::chain_option_values(key).is_some(), "{key}");
        }
    }

    const INVENTORY: &str = "//- /r/skillgraph.toml\n[tools]\navailable = [\"get_order\"]\npresets = [\"claude-code\"]\n";

    fn tool_labels(frontmatter: &str) -> Vec<String> {
        labels_of(&format!(
            "{INVENTORY}//- /r/s/refund/SKILL.md\n---\nname: refund\ndescription: dé jà vu — ünïcode\n{frontmatter}---\n"
        ))
    }

    #[test]
    fn tools_of_the_inventory_where_a_tool_goes() {
        for place in [
            "dependencies:\n  tools: [get_order, $0]\n",
            "dependencies:\n  tools:\n    - $0\n",
            "dependencies:\n  tools:\n    any: [$0]\n",
            "dependencies:\n  tools:\n    all:\n      - ge$0\n",
            "metadata:\n  action_tool: $0\n",
            "metadata:\n  precondition: $0\n",
            "metadata:\n  precondition: [{tool: $0}]\n",
            "metadata:\n  precondition:\n    - tool: $0\n",
            "metadata:\n  precondition:\n    - $0\n",
        ] {
            let labels = tool_labels(place);
            assert!(
                labels.contains(&"get_order".to_owned()),
                "{place}: {labels:?}"
            );
            assert!(labels.contains(&"Read".to_owned()), "{place}: {labels:?}");
        }
        // Resources are not tools, and a value already written is not completed again.
        assert!(tool_labels("dependencies:\n  resources: [$0]\n").is_empty());
        assert!(tool_labels("metadata:\n  action_tool: a b $0\n").is_empty());
        let found = complete(&format!(
            "{INVENTORY}//- /r/s/refund/SKILL.md\n---\nname: refund\ndescription: d\nmetadata:\n  action_tool: get_o$0\n---\n"
        ))
        .expect("tools");
        let item = found.items.iter().find(|i| i.label == "get_order").unwrap();
        assert_eq!(item.kind, CompletionKind::Tool);
        assert_eq!(
            item.detail.as_deref(),
            Some("tool from `[tools] available` of skillgraph.toml")
        );
        assert!(item
            .documentation
            .as_deref()
            .unwrap()
            .contains("/r/skillgraph.toml"));
        let read = found.items.iter().find(|i| i.label == "Read").unwrap();
        assert_eq!(
            read.detail.as_deref(),
            Some("tool from the `claude-code` preset")
        );
        assert_eq!(found.range.len(), "get_o".len() as u32);
        // Without an inventory there is nothing to offer.
        assert!(labels_of(
            "//- /r/s/a/SKILL.md\n---\nname: a\nmetadata:\n  action_tool: $0\n---\n"
        )
        .is_empty());
    }

    #[test]
    fn precondition_ops_and_chain_option_keys_from_the_tables() {
        for place in [
            "metadata:\n  precondition:\n    - state:\n        path: order.status\n        op: $0\n",
            "metadata:\n  precondition: [{state: {path: order.status, op: $0}}]\n",
        ] {
            assert_eq!(tool_labels(place), ["eq", "neq", "in", "exists"], "{place}");
        }
        let found = complete("//- /r/s/a/SKILL.md\n---\nname: a\nmetadata:\n  precondition: {state: {op: e$0}}\n---\n").expect("ops");
        assert!(found.items[0]
            .documentation
            .as_deref()
            .unwrap()
            .contains("equals"));
        // Beside a chain, the options not written yet, each documented from the one table.
        let found = complete(
            "//- /r/s/a/SKILL.md\n---\nname: a\nmetadata:\n  chain: [b]\n  async: true\n  ti$0\n---\n",
        )
        .expect("options");
        let labels: Vec<&str> = found.items.iter().map(|i| i.label.as_str()).collect();
        assert!(labels.contains(&"timeout"), "{labels:?}");
        assert!(!labels.contains(&"async"), "{labels:?}");
        assert_eq!(labels.len(), CHAIN_OPTIONS.len() - 1);
        let timeout = found.items.iter().find(|i| i.label == "timeout").unwrap();
        assert!(timeout
            .documentation
            .as_deref()
            .unwrap()
            .contains("default `0`"));
    }

    #[test]
    fn flow_mappings_answer_as_block_mappings_do() {
        let skill = |body: &str| {
            labels_of(&format!(
                "{WORKSPACE}command_packs:\n  - id: git\n    commands:\n      - id: status\n//- /w/skills/s.yaml\napiVersion: swarmkit/v1\nkind: Skill\nmetadata:\n  id: s\n{body}"
            ))
        };
        assert_eq!(
            skill("implementation: {type: $0}\n"),
            ["mcp_tool", "llm_prompt", "composed", "command", "agent"]
        );
        assert_eq!(
            skill("implementation: {type: mcp_tool, $0}\n"),
            ["server", "tool", "arguments"]
        );
        assert_eq!(
            skill("implementation: {type: command, pack: $0}\n"),
            ["git"]
        );
        assert_eq!(
            skill("implementation: {type: command, pack: git, command: $0}\n"),
            ["status"]
        );
        let servers = |line: &str| labels_of(&format!("{WORKSPACE}mcp_servers:\n{line}"));
        assert_eq!(servers("  - {id: a, transport: $0}\n"), ["stdio", "http"]);
        assert_eq!(
            servers("  - {id: a, transport: \"h$0\"}\n"),
            ["stdio", "http"]
        );
        let keys = servers("  - {id: a, $0}\n");
        assert!(keys.contains(&"transport".to_owned()), "{keys:?}");
        assert!(!keys.contains(&"id".to_owned()), "{keys:?}");
        // An abstract grant in a flow list is the schema's, not a skill id.
        let archetype = |body: &str| {
            labels_of(&format!(
                "{WORKSPACE}//- /w/skills/a.yaml\napiVersion: swarmkit/v1\nkind: Skill\nmetadata:\n  id: alpha\n//- /w/archetypes/e.yaml\napiVersion: swarmkit/v1\nkind: Archetype\nmetadata:\n  id: e\n{body}"
            ))
        };
        assert_eq!(
            archetype("defaults:\n  skills: [{abstract: {category: $0}}]\n"),
            ["capability", "decision", "coordination", "persistence"]
        );
        assert_eq!(
            archetype("defaults:\n  skills: [alpha, {abstract: {category: decision, $0}}]\n"),
            ["capability"]
        );
        assert_eq!(
            archetype("defaults:\n  skills:\n    - {abstract: {$0}}\n"),
            ["category", "capability"]
        );
        assert!(archetype("defaults:\n  skills: [$0]\n").contains(&"alpha".to_owned()));
        let topology = |body: &str| {
            labels_of(&format!(
                "{WORKSPACE}//- /w/skills/a.yaml\napiVersion: swarmkit/v1\nkind: Skill\nmetadata:\n  id: alpha\n//- /w/topologies/t.yaml\napiVersion: swarmkit/v1\nkind: Topology\nmetadata:\n  name: t\nagents:\n  root:\n    id: root\n{body}"
            ))
        };
        assert!(topology("    skills: [alpha, $0]\n").contains(&"topology-t".to_owned()));
        assert_eq!(
            topology("    children: [{id: w, role: $0}]\n"),
            ["leader", "worker"]
        );
        // Past a flow value already written, nothing.
        assert!(servers("  - {id: a, transport: stdio $0}\n").is_empty());
    }

    #[test]
    fn an_mcp_tool_offers_the_tools_of_its_servers_saved_tool_list() {
        let workspace = |tool_list: &str, body: &str| {
            format!(
                "//- /w/skillgraph.toml\n[tools]\nmcp-tool-lists = [\"tools/conventions.json\"]\n{tool_list}{WORKSPACE}mcp_servers:\n  - id: conventions\n  - id: other\n//- /w/skills/s.yaml\napiVersion: swarmkit/v1\nkind: Skill\nmetadata:\n  id: s\n{body}"
            )
        };
        let list = "//- /w/tools/conventions.json\n{\"tools\": [{\"name\": \"get_convention\"}, {\"name\": \"list_conventions\"}]}\n";
        for body in [
            "implementation:\n  type: mcp_tool\n  server: conventions\n  tool: $0\n",
            "implementation:\n  type: mcp_tool\n  server: conventions\n  tool: list_$0\n",
            "implementation: {type: mcp_tool, server: conventions, tool: $0}\n",
        ] {
            let found = complete(&workspace(list, body)).expect("tools");
            let labels: Vec<&str> = found.items.iter().map(|i| i.label.as_str()).collect();
            assert_eq!(labels, ["get_convention", "list_conventions"], "{body}");
            let item = &found.items[0];
            assert_eq!(item.kind, CompletionKind::Tool);
            assert_eq!(
                item.detail.as_deref(),
                Some("tool of MCP server `conventions`")
            );
            assert!(
                item.documentation
                    .as_deref()
                    .unwrap()
                    .contains("tools/conventions.json"),
                "{item:?}"
            );
        }
        // Another server has no saved list, and without a list there is nothing to offer.
        assert!(labels_of(&workspace(
            list,
            "implementation:\n  type: mcp_tool\n  server: other\n  tool: $0\n"
        ))
        .is_empty());
        assert!(labels_of(&workspace(
            "",
            "implementation:\n  type: mcp_tool\n  server: conventions\n  tool: $0\n"
        ))
        .is_empty());
        // The server's `permission_overrides` keys are the same tools.
        let manifest = format!(
            "//- /w/skillgraph.toml\n[tools]\nmcp-tool-lists = [\"tools/conventions.json\"]\n{list}{WORKSPACE}mcp_servers:\n  - id: conventions\n    permission_overrides:\n      get_convention: open\n      $0\n"
        );
        assert_eq!(labels_of(&manifest), ["list_conventions"]);
    }

    #[test]
    fn override_keys_are_the_packs_commands() {
        let manifest = |overrides: &str| {
            labels_of(&format!(
                "{WORKSPACE}command_packs:\n  - id: git\n    commands:\n      - id: status\n        effects: read\n      - id: push\n{overrides}  - id: make\n    commands:\n      - id: build\n"
            ))
        };
        assert_eq!(
            manifest("    permission_overrides:\n      $0\n"),
            ["status", "push"]
        );
        assert_eq!(
            manifest("    timeout_overrides:\n      push: 60\n      st$0\n"),
            ["status"]
        );
        assert_eq!(
            manifest("    permission_overrides: {push: strict, $0}\n"),
            ["status"]
        );
        let found = complete(&format!(
            "{WORKSPACE}command_packs:\n  - {{id: git, commands: [{{id: status, effects: read}}], timeout_overrides: {{$0}}}}\n"
        ))
        .expect("commands");
        assert_eq!(found.items.len(), 1);
        assert_eq!(found.items[0].label, "status");
        assert_eq!(
            found.items[0].detail.as_deref(),
            Some("command of `git` (read)")
        );
        assert!(found.items[0].documentation.is_some());
        // The values are the tiers, as the schema has them.
        assert_eq!(
            manifest("    permission_overrides:\n      push: $0\n"),
            ["open", "cautious", "strict", "readonly"]
        );
    }

    #[test]
    fn dependency_types_groups_and_predicate_keys_from_the_tables() {
        let keys = |frontmatter: &str| {
            let found = complete(&format!(
                "//- /r/s/a/SKILL.md\n---\nname: a\ndescription: ü\n{frontmatter}---\n"
            ));
            found.map(|c| c.items).unwrap_or_default()
        };
        let labels = |frontmatter: &str| -> Vec<String> {
            keys(frontmatter).into_iter().map(|i| i.label).collect()
        };
        // Block and flow mappings alike; a key written already is not offered again.
        assert_eq!(
            labels("dependencies:\n  $0\n"),
            ["tools", "resources", "prompts"]
        );
        assert_eq!(
            labels("dependencies:\n  tools: [Read]\n  re$0\n"),
            ["resources", "prompts"]
        );
        assert_eq!(
            labels("dependencies: {tools: [Read], $0}\n"),
            ["resources", "prompts"]
        );
        assert_eq!(labels("dependencies:\n  tools:\n    $0\n"), ["all", "any"]);
        assert_eq!(
            labels("dependencies:\n  prompts: {all: [p], $0}\n"),
            ["any"]
        );
        // Not under a type the table does not know, nor under `metadata`.
        assert!(labels("dependencies:\n  widgets:\n    $0\n").is_empty());
        assert!(labels("metadata:\n  owner: x\n  $0\n").is_empty());
        assert_eq!(
            labels("metadata:\n  precondition:\n    $0\n"),
            ["tool", "state"]
        );
        assert_eq!(
            labels("metadata:\n  precondition: [{tool: a}, {$0}]\n"),
            ["tool", "state"]
        );
        assert_eq!(
            labels("metadata:\n  precondition:\n    state:\n      path: a.b\n      $0\n"),
            ["op", "value"]
        );
        assert_eq!(
            labels("metadata:\n  precondition: {state: {path: a.b, op: eq, $0}}\n"),
            ["value"]
        );
        let tools = keys("dependencies:\n  to$0\n");
        let item = &tools[0];
        assert_eq!(item.kind, CompletionKind::Field);
        assert_eq!(item.detail.as_deref(), Some(DEPENDENCY_TYPES[0].doc));
        assert!(item
            .documentation
            .as_deref()
            .unwrap()
            .contains("dependency type"));
    }

    #[test]
    fn frontmatter_keys() {
        let found =
            complete("//- /r/s/a/SKILL.md\n---\nname: a\ndescription: d\nlic$0\n---\nbody\n")
                .expect("keys");
        let labels: Vec<&str> = found.items.iter().map(|i| i.label.as_str()).collect();
        assert!(labels.contains(&"license"), "{labels:?}");
        assert!(labels.contains(&"metadata"), "{labels:?}");
        assert!(!labels.contains(&"name"), "{labels:?}");
        assert!(!labels.contains(&"description"), "{labels:?}");
        let license = found.items.iter().find(|i| i.label == "license").unwrap();
        assert_eq!(license.kind, CompletionKind::Field);
        assert_eq!(
            license.detail.as_deref(),
            crate::model::skill_md::known_field("license").map(|f| f.hover)
        );
        assert_eq!(found.range.len(), 3);
        // On the written key itself, that key is offered too.
        assert!(
            labels_of("//- /r/s/a/SKILL.md\n---\nna$0me: a\n---\n").contains(&"name".to_owned())
        );
        // Not in the body, nor below a key.
        assert!(complete("//- /r/s/a/SKILL.md\n---\nname: a\n---\nli$0\n").is_none());
        assert!(
            labels_of("//- /r/s/a/SKILL.md\n---\nname: a\nmetadata:\n  au$0\n---\n").is_empty()
        );
    }
}
