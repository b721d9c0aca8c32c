//! `workspace.yaml`: the workspace id and its MCP server registry.

use super::super::{field, SpannedStr};
use super::metadata_id;
use crate::syntax::{Node, TextRange};

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct McpServer {
    pub id: SpannedStr,
    /// The whole `- id: ...` entry.
    pub range: TextRange,
    pub transport: Option<SpannedStr>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Workspace {
    pub id: Option<SpannedStr>,
    pub name: Option<SpannedStr>,
    pub mcp_servers: Vec<McpServer>,
    /// Ids of `command_packs[]`, the targets of `pack:` grants and `command` skills.
    pub command_packs: Vec<SpannedStr>,
}

impl Workspace {
    pub fn lower(root: Node<'_>) -> Workspace {
        let list = |key: &str| root.get(key).into_iter().flat_map(|n| n.items());
        Workspace {
            id: metadata_id(root, "id"),
            name: root.get("metadata").and_then(|m| field(m, "name")),
            mcp_servers: list("mcp_servers")
                .filter_map(|entry| {
                    Some(McpServer {
                        id: field(entry, "id")?,
                        range: entry.range(),
                        transport: field(entry, "transport"),
                    })
                })
                .collect(),
            command_packs: list("command_packs")
                .filter_map(|entry| field(entry, "id"))
                .collect(),
        }
    }

    pub fn mcp_server(&self, id: &str) -> Option<&McpServer> {
        self.mcp_servers.iter().find(|s| s.id.value == id)
    }
}
