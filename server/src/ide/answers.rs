//! The plain values the IDE features answer with. Each feature dispatches on the kind of file,
//! and the SKILL.md side (`skill_files`, `extensions`) builds the same answers as the SwarmKit
//! side; the values live here so that neither side imports the other to name them, which keeps
//! the files of `ide` free of circles.

use crate::model::swarmkit::ArtifactKind;
use crate::syntax::TextRange;

/// A hover: Markdown, and the range of the id it is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HoverResult {
    pub markdown: String,
    pub range: TextRange,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompletionKind {
    Skill,
    Archetype,
    McpServer,
    Topology,
    /// A value of a key that takes one of a few (an enum, a boolean).
    Value,
    /// A SKILL.md frontmatter key.
    Field,
    /// A file of a skill's folder.
    File,
    /// A folder of a skill's folder.
    Folder,
    /// A tool of the tool inventory (SKILL.md `dependencies.tools`, `action_tool`, a
    /// precondition's tool).
    Tool,
    /// An argument of a SKILL.md body (Claude Code's `$name`, `$ARGUMENTS`, `$N`).
    Argument,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompletionItem {
    pub label: String,
    /// Markdown shown beside the item: what it is and where it is defined.
    pub documentation: Option<String>,
    pub detail: Option<String>,
    pub kind: CompletionKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Completions {
    /// The text the chosen item replaces (empty at a bare cursor).
    pub range: TextRange,
    pub items: Vec<CompletionItem>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymbolKind {
    /// The file's artifact (workspace, skill, topology ...), of its kind.
    Artifact(ArtifactKind),
    /// A SKILL.md skill (its `name`).
    SkillMd,
    Agent,
    /// A Claude Code subagent (`.claude/agents/<name>.md`).
    Subagent,
    McpServer,
    /// A SKILL.md frontmatter field.
    Field,
    /// A Markdown heading of a SKILL.md.
    Heading,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    pub name: String,
    pub detail: Option<String>,
    pub kind: SymbolKind,
    /// The whole construct.
    pub range: TextRange,
    /// The name, inside `range`.
    pub selection_range: TextRange,
    pub children: Vec<Symbol>,
}
