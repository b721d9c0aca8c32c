//! Completion at the other places of a SwarmKit file: the ids the few keys naming other things
//! take (a pack, a command, an executor, a funnel's judge ...), else what the bundled schema
//! allows there (`schema_shape`): the keys of the mapping being written and the values of enums
//! and booleans.

use std::collections::HashSet;

use super::ids::{ids, skill_documentation};
use super::text::{
    enclosing_keys, flow_slot, key_and_value, key_of, line_at, mapping_entries, parent_entries,
    strip_dashes, Line, Slot, SlotKind,
};
use crate::diagnostic::FileId;
use crate::ide::answers::{CompletionItem, CompletionKind, Completions};
use crate::ide::schema_shape::Shape;
use crate::index::{Content, FileEntry, FileRole, Index, Lookup};
use crate::model::swarmkit::{Artifact, ArtifactKind};
use crate::rules::archetypes::BUILT_IN_EXECUTORS;
use crate::rules::tools::Inventory;
use crate::syntax::TextRange;

// The values of the SwarmKit keys with a fixed set, as the bundled schemas (`server/schemas/`)
// list them (the test `enum_tables_match_the_bundled_schemas` holds them to it), each with the
// line shown beside it.
pub(super) const CATEGORY: &[(&str, &str)] = &[
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
pub(super) const IMPLEMENTATION: &[(&str, &str)] = &[
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
pub(super) const ROLE: &[(&str, &str)] = &[
    ("root", "the topology's top agent"),
    ("leader", "an agent that delegates to its children"),
    ("worker", "an agent that does the work itself"),
];
pub(super) const TRIGGER: &[(&str, &str)] = &[
    ("cron", "on a schedule (needs a `config` block)"),
    ("webhook", "on an HTTP request (needs a `config` block)"),
    (
        "file_watch",
        "when watched files change (needs a `config` block)",
    ),
    ("manual", "when started by hand"),
    ("plugin", "from a trigger plugin (needs a `config` block)"),
];
pub(super) const TRANSPORT: &[(&str, &str)] = &[
    ("stdio", "a local process spoken to over stdin/stdout"),
    ("http", "a server reached over HTTP"),
];

/// The one-line notes shown beside the values of the SwarmKit keys users meet most; other values
/// show the key's description from the schema.
pub(super) fn value_note(key: &str, value: &str) -> Option<&'static str> {
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
pub(super) fn schema_place(index: &Index, entry: &FileEntry, offset: u32) -> Option<Completions> {
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
pub(super) struct Place<'a, 's> {
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
    pub(super) fn in_flow(&self, slot: &Slot<'_>, line: &Line<'_>) -> Option<Completions> {
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
    pub(super) fn list_values(&self, values: Vec<String>) -> Completions {
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
    pub(super) fn values_of(&self, path: &[&str]) -> Option<Completions> {
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
    pub(super) fn keys_of(
        &self,
        view: &crate::ide::schema_shape::View<'_>,
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
    pub(super) fn override_keys(
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
pub(super) fn server_tools(
    index: &Index,
    workspace: FileId,
    entry: &FileEntry,
    server: &str,
) -> Option<Vec<CompletionItem>> {
    let lookup = Lookup::new(index);
    let inventory = Inventory::of(&lookup, &entry.path)?;
    let (file, list) = inventory.server_tool_list(server)?;
    let place = crate::ide::cursor::relative_path(index, workspace, file.id);
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

/// The schema of the property at the end of `path`, for its description.
pub(super) fn property_schema<'s>(
    shape: &Shape<'s>,
    path: &[&str],
) -> Option<&'s serde_json::Value> {
    let (last, parents) = path.split_last()?;
    shape
        .keys(&shape.at(parents), &[])
        .into_iter()
        .find(|k| k.name == *last)
        .map(|k| k.schema)
}

/// The bundled authoring topologies an `agent` skill may run (`swarmkit:author:<what>`), as
/// `skill.schema.json` lists them in `implementation.topology`'s pattern.
pub(super) const AUTHORING_TOPOLOGIES: &[&str] = &[
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
pub(super) fn id_value(
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
