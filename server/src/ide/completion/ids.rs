//! Completion of ids where an id goes: on an id already written (replaced), or on a list item
//! or value being typed under the keys that take one (`skills:`, `requires:`, `composes:`,
//! `archetype:` ...), recognised from the text of the line and the key above it.

use std::collections::HashSet;

use super::text::{enclosing_keys, flow_slot, line_at, SlotKind};
use crate::diagnostic::FileId;
use crate::ide::answers::{CompletionItem, CompletionKind};
use crate::ide::cursor::{at, Occurrence, Ref, Site};
use crate::index::{Content, FileEntry, FileRole, Index, Lookup};
use crate::model::swarmkit::{AgentIndex, Artifact, ArtifactKind, Topology, Workspace};
use crate::semantics::grants::effective_skills;
use crate::syntax::TextRange;

pub(super) enum Want {
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

/// What an id written under the cursor asks for: ids of its kind (for a skill, narrowed by the
/// place: a `requires:` rule, a decision binding, a grant).
pub(super) fn wanted_at(o: &Occurrence) -> Option<Want> {
    Some(match (&o.what, o.site) {
        (Ref::Artifact(ArtifactKind::Skill, _), Site::RequiresKey | Site::RequiresValue) => {
            Want::Skills {
                held_by: o.agent,
                granted_to: None,
            }
        }
        (Ref::Artifact(ArtifactKind::Skill, _), Site::DecisionBinding) => Want::DecisionSkills,
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
    })
}

/// The ids `want` asks for at `offset` of `entry`, each skill item with its documentation.
pub(super) fn items(
    index: &Index,
    entry: &FileEntry,
    workspace: FileId,
    want: Want,
    offset: u32,
) -> Option<Vec<CompletionItem>> {
    let file = entry.id;
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
                    items.push(item(id, "decision skill", CompletionKind::Skill));
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
            let packs = manifest(index, workspace).map_or(&[][..], |w| &w.command_packs);
            items.extend(packs.iter().map(|p| {
                item(
                    &p.id.value,
                    "command pack: its read commands",
                    CompletionKind::Value,
                )
            }));
            items.push(item(
                "workspace",
                "the skills that run this workspace's topologies",
                CompletionKind::Value,
            ));
        }
        Want::Servers => {
            let servers = manifest(index, workspace).map_or(&[][..], |w| &w.mcp_servers);
            items.extend(
                servers
                    .iter()
                    .map(|s| item(&s.id.value, "MCP server", CompletionKind::McpServer)),
            );
        }
    }
    for item in &mut items {
        if item.kind == CompletionKind::Skill && item.documentation.is_none() {
            item.documentation = skill_documentation(index, workspace, &item.label);
        }
    }
    Some(items)
}

/// An item with a detail and no documentation.
fn item(label: &str, detail: &str, kind: CompletionKind) -> CompletionItem {
    CompletionItem {
        label: label.to_owned(),
        documentation: None,
        detail: Some(detail.to_owned()),
        kind,
    }
}

/// The workspace manifest, when `workspace` is one.
fn manifest(index: &Index, workspace: FileId) -> Option<&Workspace> {
    match index.file(workspace).map(|e| &e.parsed.content) {
        Some(Content::SwarmKit(Artifact::Workspace(w))) => Some(w),
        _ => None,
    }
}

/// A skill's description and where it is defined, for the item's documentation.
pub(super) fn skill_documentation(index: &Index, workspace: FileId, id: &str) -> Option<String> {
    let lookup = Lookup::new(index);
    let skill = crate::semantics::registry::skills_named(&lookup, workspace, id)
        .into_iter()
        .next()?;
    let place = crate::ide::cursor::relative_path(index, workspace, skill.file);
    let description = skill
        .skill
        .and_then(|s| s.description.as_ref())
        .map(|d| format!("{}\n\n", d.value))
        .unwrap_or_default();
    Some(format!("{description}Defined in `{place}`"))
}

pub(super) fn ids(
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
pub(super) fn from_text(
    index: &Index,
    file: FileId,
    text: &str,
    offset: u32,
) -> Option<(Want, TextRange)> {
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
        let (key, key_line) = parent_key_line(text, line_start, indent)?;
        if let Some(want) = skills_in(&key) {
            return Some((want, range));
        }
        // A prerequisite item of a guarded skill (`guarded:` then `- |`) under `requires:`.
        let requires = requires_above(text, key_line)?;
        return Some((
            Want::Skills {
                held_by: agent_requiring(index, file, requires).or(agent),
                granted_to: None,
            },
            range,
        ));
    }
    if let Some(key) = requires_above(text, line_start).filter(|_| trimmed.is_empty()) {
        // A new guarded key being typed under `requires:`: the agent is the one whose key that
        // is (an empty line below it is outside the agent's mapping as parsed, and lies inside
        // its parent's when a sibling agent follows).
        return Some((
            Want::Skills {
                held_by: agent_requiring(index, file, key).or(agent),
                granted_to: None,
            },
            range,
        ));
    }
    None
}

/// The lines above `line_start` that hold more than a comment, nearest first: where each
/// starts, its indentation and its text after the indentation.
fn lines_above(text: &str, line_start: usize) -> impl Iterator<Item = (usize, usize, &str)> {
    text[..line_start].lines().rev().filter_map(move |line| {
        // `line` is a slice of `text`: where it starts is the distance between the two.
        let start = line.as_ptr() as usize - text.as_ptr() as usize;
        let body = line.trim_start();
        let blank = body.is_empty() || body.starts_with('#');
        (!blank).then_some((start, line.len() - body.len(), body))
    })
}

/// The key of the nearest line above with less indentation than `indent` (`skills:` above
/// `  - x`), or the same indentation for a YAML list written flush with its key, with where the
/// key's line starts.
fn parent_key_line(text: &str, line_start: usize, indent: usize) -> Option<(String, usize)> {
    for (start, this_indent, body) in lines_above(text, line_start) {
        if body.starts_with("- ") && this_indent == indent {
            continue; // a sibling item
        }
        if this_indent <= indent {
            let key = body.trim_start_matches("- ").split(':').next()?.trim();
            return body
                .trim_end()
                .ends_with(':')
                .then(|| (key.to_owned(), start));
        }
    }
    None
}

/// When the line starting at `line_start` sits inside a `requires:` block: where that
/// `requires` key is written.
pub(super) fn requires_above(text: &str, line_start: usize) -> Option<usize> {
    let line = text[line_start..].lines().next().unwrap_or("");
    let indent = line.len() - line.trim_start().len();
    for (start, this_indent, body) in lines_above(text, line_start) {
        if this_indent < indent {
            return (body.trim_end() == "requires:").then_some(start + this_indent);
        }
    }
    None
}

/// True when the line starting at `line_start` sits inside a `requires:` block.
pub(super) fn in_requires(text: &str, line_start: usize) -> bool {
    requires_above(text, line_start).is_some()
}

/// The agent whose `requires:` key is written at `key`.
pub(super) fn agent_requiring(index: &Index, file: FileId, key: usize) -> Option<AgentIndex> {
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

pub(super) fn innermost_agent(index: &Index, file: FileId, offset: u32) -> Option<AgentIndex> {
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
