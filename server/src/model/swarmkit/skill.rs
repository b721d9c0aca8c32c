//! `skills/*.yaml`: a skill's id, category and how it is implemented.

use super::super::{field, scalar_list, SpannedStr};
use super::metadata_id;
use crate::syntax::{Node, TextRange};

/// `implementation.type`. What the runtime does with a `requires:` rule depends on it: only an
/// `mcp_tool` call is recorded as satisfying a prerequisite, and only `mcp_tool`, `command` and
/// `agent` skills are dispatched through the gate that checks prerequisites.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImplementationType {
    McpTool,
    LlmPrompt,
    Composed,
    Command,
    Agent,
}

impl ImplementationType {
    pub fn parse(text: &str) -> Option<Self> {
        Some(match text {
            "mcp_tool" => ImplementationType::McpTool,
            "llm_prompt" => ImplementationType::LlmPrompt,
            "composed" => ImplementationType::Composed,
            "command" => ImplementationType::Command,
            "agent" => ImplementationType::Agent,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            ImplementationType::McpTool => "mcp_tool",
            ImplementationType::LlmPrompt => "llm_prompt",
            ImplementationType::Composed => "composed",
            ImplementationType::Command => "command",
            ImplementationType::Agent => "agent",
        }
    }

    /// A successful call of this type is recorded as "called" for `requires:` purposes.
    pub fn records_calls(self) -> bool {
        self == ImplementationType::McpTool
    }

    /// Calls of this type pass the dispatch gate that enforces `requires:`.
    pub fn is_gated(self) -> bool {
        matches!(
            self,
            ImplementationType::McpTool | ImplementationType::Command | ImplementationType::Agent
        )
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Skill {
    pub id: Option<SpannedStr>,
    pub name: Option<SpannedStr>,
    pub description: Option<SpannedStr>,
    pub category: Option<SpannedStr>,
    /// The `implementation:` key, for diagnostics about the implementation as a whole.
    pub implementation_key: Option<TextRange>,
    pub implementation_type: Option<SpannedStr>,
    pub server: Option<SpannedStr>,
    pub tool: Option<SpannedStr>,
    pub pack: Option<SpannedStr>,
    pub command: Option<SpannedStr>,
    /// An `agent` skill's local target: the topology it runs.
    pub topology: Option<SpannedStr>,
    pub composes: Vec<SpannedStr>,
    /// `provenance.requires_runtime`, e.g. `>=1.200.0`.
    pub requires_runtime: Option<SpannedStr>,
}

impl Skill {
    pub fn lower(root: Node<'_>) -> Skill {
        let metadata = root.get("metadata");
        let implementation = root.entry("implementation");
        let imp = implementation.map(|(_, v)| v);
        let imp_field = |key: &str| imp.and_then(|n| field(n, key));
        Skill {
            id: metadata_id(root, "id"),
            name: metadata.and_then(|m| field(m, "name")),
            description: metadata.and_then(|m| field(m, "description")),
            category: field(root, "category"),
            implementation_key: implementation.map(|(k, _)| k.range()),
            implementation_type: imp_field("type"),
            server: imp_field("server"),
            tool: imp_field("tool"),
            pack: imp_field("pack"),
            command: imp_field("command"),
            topology: imp_field("topology"),
            composes: scalar_list(imp.and_then(|n| n.get("composes"))),
            requires_runtime: root
                .get("provenance")
                .and_then(|p| field(p, "requires_runtime")),
        }
    }

    pub fn implementation(&self) -> Option<ImplementationType> {
        self.implementation_type
            .as_ref()
            .and_then(|t| ImplementationType::parse(&t.value))
    }

    /// `mcp_tool server.tool`, `llm_prompt`, `composed of a, b` — for hovers and messages.
    pub fn describe_implementation(&self) -> String {
        match self.implementation() {
            Some(ImplementationType::McpTool) => format!(
                "mcp_tool {}.{}",
                self.server.as_ref().map_or("?", |s| s.value.as_str()),
                self.tool.as_ref().map_or("?", |s| s.value.as_str())
            ),
            Some(ImplementationType::Composed) => format!(
                "composed of {}",
                self.composes
                    .iter()
                    .map(|c| c.value.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Some(ImplementationType::Command) => format!(
                "command {}.{}",
                self.pack.as_ref().map_or("?", |s| s.value.as_str()),
                self.command.as_ref().map_or("?", |s| s.value.as_str())
            ),
            Some(other) => other.as_str().to_owned(),
            None => "unknown implementation".to_owned(),
        }
    }
}
