//! `workspace.yaml`: the workspace id, its MCP server registry, its command packs, whether
//! the bundled memory skills are on, and the decision skills it binds.

use super::super::{field, SpannedStr};
use super::metadata_id;
use crate::syntax::{Node, ScalarValue, TextRange};

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct McpServer {
    pub id: SpannedStr,
    /// The whole `- id: ...` entry.
    pub range: TextRange,
    pub transport: Option<SpannedStr>,
}

/// One command of a command pack. SwarmKit turns it into a skill `<pack>-<command>`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PackCommand {
    pub id: SpannedStr,
    /// `effects: read`. Undeclared means `write`; `pack:` grants hand out only read commands.
    pub read_only: bool,
}

/// One `requires:` entry of a command pack: a binary the runtime looks for on `PATH` when it
/// loads the workspace, with an optional version constraint.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BinaryRequirement {
    pub binary: SpannedStr,
    pub version: Option<SpannedStr>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CommandPack {
    pub id: SpannedStr,
    pub commands: Vec<PackCommand>,
    pub requires: Vec<BinaryRequirement>,
}

/// The skill ids the runtime makes of the command packs' commands, each with its (pack, command)
/// position, sorted by id and then position. Which command an id names is then a binary search:
/// the checks ask it once per command of the manifest, and a walk over every command for each
/// made a pack of 8,000 commands take 12 s.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct PackCommandIds(Vec<(String, u32, u32)>);

impl PackCommandIds {
    fn of(packs: &[CommandPack]) -> PackCommandIds {
        let mut ids: Vec<(String, u32, u32)> = packs
            .iter()
            .enumerate()
            .flat_map(|(p, pack)| {
                pack.commands.iter().enumerate().map(move |(c, command)| {
                    (
                        super::pack_command_skill_id(&pack.id.value, &command.id.value),
                        p as u32,
                        c as u32,
                    )
                })
            })
            .collect();
        ids.sort_unstable();
        PackCommandIds(ids)
    }

    /// The (pack, command) positions of the commands whose skill id is `id`, in written order.
    fn named(&self, id: &str) -> impl Iterator<Item = (usize, usize)> + '_ {
        let start = self.0.partition_point(|(known, ..)| known.as_str() < id);
        let end = self.0.partition_point(|(known, ..)| known.as_str() <= id);
        self.0[start..end]
            .iter()
            .map(|&(_, pack, command)| (pack as usize, command as usize))
    }
}

/// One entry of `governance.decision_skills` (in `workspace.yaml` or a topology): a decision
/// skill the runtime runs at a trigger point.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DecisionBinding {
    /// The skill id (or `memory-reader` / `memory-writer`, the memory hooks).
    pub id: SpannedStr,
    /// `pre_input`, `post_output`, `checkpoint` or `pre_synthesis`.
    pub trigger: Option<SpannedStr>,
    /// `enabled: false` switches a binding off (a topology, one inherited from the workspace).
    pub enabled: bool,
}

/// The ids SwarmKit's memory subsystem handles itself when bound as decision skills
/// (swarmkit-runtime 1.265.0, `memory/_defaults.py`: `MEMORY_READER`, `MEMORY_WRITER`): they
/// are hooks, not skills of the registry.
pub const MEMORY_HOOKS: &[&str] = &["memory-reader", "memory-writer"];

/// `governance.decision_skills` of a workspace or topology root, in written order. Entries
/// without an `id` are left to the schema check.
pub(crate) fn decision_bindings(root: Node<'_>) -> Vec<DecisionBinding> {
    lower_items(
        root.get("governance")
            .and_then(|g| g.get("decision_skills")),
        |entry| {
            Some(DecisionBinding {
                id: field(entry, "id")?,
                trigger: field(entry, "trigger"),
                enabled: entry
                    .get("enabled")
                    .is_none_or(|e| e.value() != ScalarValue::Bool(false)),
            })
        },
    )
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Workspace {
    pub id: Option<SpannedStr>,
    pub name: Option<SpannedStr>,
    pub mcp_servers: Vec<McpServer>,
    pub command_packs: Vec<CommandPack>,
    /// The skill id of every command of `command_packs`, to find a command by the id it becomes.
    pub pack_command_ids: PackCommandIds,
    /// `memory.enabled` (default true): when on, the runtime bundles the skills
    /// `governed-memory` and `memory-reconcile`.
    pub memory_enabled: bool,
    /// Entries of `governance.decision_skills` that bind `memory-reader` / `memory-writer`
    /// explicitly (an error when memory is off).
    pub memory_bindings: Vec<SpannedStr>,
    /// `governance.decision_skills`: the decision skills every topology inherits.
    pub decision_skills: Vec<DecisionBinding>,
}

impl Default for Workspace {
    fn default() -> Self {
        Workspace {
            id: None,
            name: None,
            mcp_servers: Vec::new(),
            command_packs: Vec::new(),
            pack_command_ids: PackCommandIds::default(),
            memory_enabled: true,
            memory_bindings: Vec::new(),
            decision_skills: Vec::new(),
        }
    }
}

/// The items of the list `node` that `lower` turns into a `T`, in written order; an item it
/// cannot lower (one without an `id`, say) is left to the schema check.
fn lower_items<'a, T>(node: Option<Node<'a>>, lower: impl FnMut(Node<'a>) -> Option<T>) -> Vec<T> {
    node.into_iter()
        .flat_map(|n| n.items())
        .filter_map(lower)
        .collect()
}

impl Workspace {
    pub fn lower(root: Node<'_>) -> Workspace {
        let mut workspace = Workspace {
            id: metadata_id(root, "id"),
            name: root.get("metadata").and_then(|m| field(m, "name")),
            mcp_servers: lower_items(root.get("mcp_servers"), |entry| {
                Some(McpServer {
                    id: field(entry, "id")?,
                    range: entry.range(),
                    transport: field(entry, "transport"),
                })
            }),
            command_packs: lower_items(root.get("command_packs"), |pack| {
                Some(CommandPack {
                    id: field(pack, "id")?,
                    commands: lower_items(pack.get("commands"), |command| {
                        Some(PackCommand {
                            id: field(command, "id")?,
                            read_only: command.get("effects").and_then(|e| e.scalar())
                                == Some("read"),
                        })
                    }),
                    requires: lower_items(pack.get("requires"), |requirement| {
                        Some(BinaryRequirement {
                            binary: field(requirement, "binary")?,
                            version: field(requirement, "version"),
                        })
                    }),
                })
            }),
            memory_enabled: root
                .get("memory")
                .and_then(|m| m.get("enabled"))
                .is_none_or(|e| e.value() != ScalarValue::Bool(false)),
            memory_bindings: root
                .get("governance")
                .and_then(|g| g.get("decision_skills"))
                .map(memory_bindings)
                .unwrap_or_default(),
            decision_skills: decision_bindings(root),
            pack_command_ids: PackCommandIds::default(),
        };
        workspace.pack_command_ids = PackCommandIds::of(&workspace.command_packs);
        workspace
    }

    /// The commands whose skill id (`<pack>-<command>`) is `id`, in written order: usually
    /// none or one, several when two commands make the same id.
    pub fn pack_commands_named(
        &self,
        id: &str,
    ) -> impl Iterator<Item = (&CommandPack, &PackCommand)> + '_ {
        self.pack_command_ids.named(id).map(|(pack, command)| {
            let pack = &self.command_packs[pack];
            (pack, &pack.commands[command])
        })
    }

    pub fn mcp_server(&self, id: &str) -> Option<&McpServer> {
        self.mcp_servers.iter().find(|s| s.id.value == id)
    }
}

/// Every `id: memory-reader` / `id: memory-writer` mapping anywhere below `decision_skills`
/// (it may be a list, or a map of hook points to lists).
fn memory_bindings(node: Node<'_>) -> Vec<SpannedStr> {
    let mut found = Vec::new();
    let mut pending = vec![node];
    while let Some(node) = pending.pop() {
        if let Some(id) = field(node, "id") {
            if id.value == "memory-reader" || id.value == "memory-writer" {
                found.push(id);
            }
        }
        pending.extend(node.items());
        pending.extend(node.entries().map(|(_, v)| v));
    }
    found.sort_by_key(|id| id.range);
    found
}
