//! What Claude Code (and Copilot, where it documents the same files) says about subagents and
//! plugins, as rows: the subagent frontmatter fields and built-in subagent types, the plugin and
//! marketplace manifest paths, how a plugin's names are namespaced, and how each component path
//! key of `plugin.json` combines with its default folder. Each row names its source and the date
//! it was checked.

use super::{Host, HostFact, ValueType};

pub use super::prose::CHECKED;

pub const SUBAGENTS_DOCS: &str = "https://code.claude.com/docs/en/sub-agents";
pub const PLUGINS_REFERENCE_DOCS: &str = "https://code.claude.com/docs/en/plugins-reference";
pub const MARKETPLACES_DOCS: &str = "https://code.claude.com/docs/en/plugin-marketplaces";
pub const COPILOT_PLUGINS_DOCS: &str =
    "https://docs.github.com/en/copilot/reference/copilot-cli-reference/cli-plugin-reference";

/// A field of a subagent's frontmatter (`.claude/agents/<name>.md`, a plugin's `agents/`).
#[derive(Clone, Copy, Debug)]
pub struct SubagentField {
    pub key: &'static str,
    pub required: bool,
    pub value: ValueType,
    /// False for the fields Claude Code ignores in a plugin's agents (for safety).
    pub in_plugins: bool,
    pub hover: &'static str,
    pub source: &'static str,
    pub checked: &'static str,
}

const fn field(
    key: &'static str,
    required: bool,
    value: ValueType,
    in_plugins: bool,
    hover: &'static str,
) -> SubagentField {
    SubagentField {
        key,
        required,
        value,
        in_plugins,
        hover,
        source: SUBAGENTS_DOCS,
        checked: CHECKED,
    }
}

pub const SUBAGENT_FIELDS: &[SubagentField] = &[
    field("name", true, ValueType::Text, true, "The subagent's unique name: lowercase letters and hyphens. `agent:` values and the Agent tool name it."),
    field("description", true, ValueType::Text, true, "When Claude should delegate to this subagent; Claude reads it to decide."),
    field("tools", false, ValueType::Tools, true, "The tools the subagent may use (all the session's tools when absent); `Agent(type)` limits which subagents it may start."),
    field("disallowedTools", false, ValueType::Tools, true, "Tools taken away from the inherited or listed ones."),
    field("model", false, ValueType::Text, true, "`sonnet`, `opus`, `haiku`, a full model name, or `inherit` (the default)."),
    field("permissionMode", false, ValueType::OneOf(&["default", "acceptEdits", "auto", "dontAsk", "bypassPermissions", "plan"]), false, "How the subagent's tool calls are approved."),
    field("maxTurns", false, ValueType::Any, true, "The most agentic turns the subagent takes before it stops (an integer)."),
    field("skills", false, ValueType::TextOrList, true, "Skills preloaded into the subagent's context when it starts: their whole content, not just their descriptions."),
    field("mcpServers", false, ValueType::Any, false, "MCP servers for this subagent: names of configured servers or inline definitions."),
    field("hooks", false, ValueType::Mapping, false, "Lifecycle hooks active while the subagent runs."),
    field("memory", false, ValueType::OneOf(&["user", "project", "local"]), true, "A persistent memory folder for the subagent, and its scope."),
    field("background", false, ValueType::Bool, true, "`true` always runs the subagent as a background task."),
    field("effort", false, ValueType::OneOf(&["low", "medium", "high", "xhigh", "max"]), true, "The model's effort level while the subagent runs."),
    field("isolation", false, ValueType::OneOf(&["worktree"]), true, "`worktree` runs the subagent in its own git worktree."),
    field("initialPrompt", false, ValueType::Text, true, "A first turn submitted automatically when the subagent runs as the main agent."),
    field("color", false, ValueType::OneOf(&["red", "blue", "green", "yellow", "purple", "orange", "pink", "cyan"]), true, "The colour the subagent is shown in."),
];

pub fn subagent_field(key: &str) -> Option<&'static SubagentField> {
    SUBAGENT_FIELDS.iter().find(|f| f.key == key)
}

/// The subagent types Claude Code ships, which a SKILL.md's `agent:` may name without any
/// `.claude/agents/` file.
pub const BUILTIN_SUBAGENTS: (&[&str], &str, &str) = (
    &[
        "general-purpose",
        "Explore",
        "Plan",
        "statusline-setup",
        "claude-code-guide",
    ],
    SUBAGENTS_DOCS,
    CHECKED,
);

pub fn is_builtin_subagent(name: &str) -> bool {
    BUILTIN_SUBAGENTS.0.contains(&name)
}

/// Where a manifest sits below the folder it describes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ManifestKind {
    Plugin,
    Marketplace,
}

/// A manifest file, by its two last path components, and the hosts that read it.
#[derive(Debug)]
pub struct ManifestPath {
    pub folders: [&'static str; 2],
    pub kind: ManifestKind,
    pub hosts: &'static [Host],
    pub source: &'static str,
    pub checked: &'static str,
}

pub const MANIFEST_PATHS: &[ManifestPath] = &[
    ManifestPath {
        folders: [".claude-plugin", "plugin.json"],
        kind: ManifestKind::Plugin,
        // The Copilot CLI reads a Claude plugin's manifest too.
        hosts: &[Host::ClaudeCode, Host::Copilot],
        source: "https://code.claude.com/docs/en/plugins-reference; https://docs.github.com/en/copilot/reference/copilot-cli-reference/cli-plugin-reference",
        checked: CHECKED,
    },
    ManifestPath {
        folders: [".claude-plugin", "marketplace.json"],
        kind: ManifestKind::Marketplace,
        hosts: &[Host::ClaudeCode, Host::Copilot],
        source: "https://code.claude.com/docs/en/plugin-marketplaces; https://docs.github.com/en/copilot/reference/copilot-cli-reference/cli-plugin-reference",
        checked: CHECKED,
    },
    ManifestPath {
        folders: [".github", "plugin"],
        kind: ManifestKind::Marketplace,
        hosts: &[Host::Copilot],
        source: COPILOT_PLUGINS_DOCS,
        checked: CHECKED,
    },
];

/// The manifest a path is, if any: `.claude-plugin/plugin.json`,
/// `.claude-plugin/marketplace.json` or `.github/plugin/marketplace.json`.
pub fn manifest_kind(path: &std::path::Path) -> Option<ManifestKind> {
    let file = path.file_name()?.to_str()?;
    let folder = path.parent()?.file_name()?.to_str()?;
    MANIFEST_PATHS.iter().find_map(|row| {
        let matches = match row.folders {
            [".github", "plugin"] => {
                file == "marketplace.json"
                    && folder == "plugin"
                    && path
                        .parent()
                        .and_then(|p| p.parent())
                        .and_then(|p| p.file_name())
                        .is_some_and(|n| n == ".github")
            }
            [dir, name] => folder == dir && file == name,
        };
        matches.then_some(row.kind)
    })
}

/// How a component path key of `plugin.json` combines with the component's default folder.
/// This changed during 2026: every custom path used to add to the default folder; now only
/// `skills` does, and `commands`, `agents` and `outputStyles` replace theirs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Combine {
    /// The default folder is still scanned, and the listed paths beside it.
    AddsToDefault,
    /// The default folder is no longer scanned unless listed.
    ReplacesDefault,
    /// The default file loads first, then the manifest's declarations.
    Merges,
}

/// What a listed path may be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathTakes {
    /// Folders only (each a folder of `<name>/SKILL.md` folders, or one skill's folder).
    Folders,
    /// `.md` files only.
    MarkdownFiles,
    /// Files or folders.
    FilesOrFolders,
    /// `.json` files (or an inline object, which is no path).
    JsonFiles,
}

/// One component path key of `plugin.json`.
#[derive(Debug, PartialEq, Eq)]
pub struct ComponentKey {
    pub key: &'static str,
    pub default: &'static str,
    pub combine: Combine,
    pub takes: PathTakes,
    pub source: &'static str,
    pub checked: &'static str,
}

pub const COMPONENT_KEYS: &[ComponentKey] = &[
    ComponentKey {
        key: "skills",
        default: "skills",
        combine: Combine::AddsToDefault,
        takes: PathTakes::Folders,
        source: PLUGINS_REFERENCE_DOCS,
        checked: CHECKED,
    },
    ComponentKey {
        key: "commands",
        default: "commands",
        combine: Combine::ReplacesDefault,
        takes: PathTakes::FilesOrFolders,
        source: PLUGINS_REFERENCE_DOCS,
        checked: CHECKED,
    },
    ComponentKey {
        key: "agents",
        default: "agents",
        combine: Combine::ReplacesDefault,
        takes: PathTakes::MarkdownFiles,
        source: PLUGINS_REFERENCE_DOCS,
        checked: CHECKED,
    },
    ComponentKey {
        key: "hooks",
        default: "hooks/hooks.json",
        combine: Combine::Merges,
        takes: PathTakes::JsonFiles,
        source: PLUGINS_REFERENCE_DOCS,
        checked: CHECKED,
    },
    ComponentKey {
        key: "outputStyles",
        default: "output-styles",
        combine: Combine::ReplacesDefault,
        takes: PathTakes::FilesOrFolders,
        source: PLUGINS_REFERENCE_DOCS,
        checked: CHECKED,
    },
];

pub fn component_key(key: &str) -> Option<&'static ComponentKey> {
    COMPONENT_KEYS.iter().find(|k| k.key == key)
}

/// Facts about names and paths in manifests, each with its source.
pub const MANIFEST_RULES: &[HostFact] = &[
    HostFact {
        fact: "A plugin's `name` namespaces every component it ships: skills and commands run as `/<plugin>:<name>`, agents are `<plugin>:<name>`.",
        source: PLUGINS_REFERENCE_DOCS,
        checked: CHECKED,
    },
    HostFact {
        fact: "A plugin's subagents are the `.md` files of `agents/` (or those its `agents` key lists) and its commands the `.md` files of `commands/` (or its `commands` paths); a SKILL.md's `agent:` names a plugin's subagent as `<plugin>:<agent>`, and `/<plugin>:<command>` runs its command.",
        source: "https://code.claude.com/docs/en/plugins-reference; https://code.claude.com/docs/en/sub-agents",
        checked: CHECKED,
    },
    HostFact {
        fact: "Every component path is relative to the plugin root, starts with `./` (`skills` also takes `.`), and must stay inside the plugin and exist.",
        source: PLUGINS_REFERENCE_DOCS,
        checked: CHECKED,
    },
    HostFact {
        fact: "A marketplace's `plugins[].source` given as a relative path resolves from the marketplace's root (the folder holding `.claude-plugin/`); a bare name is looked up below `metadata.pluginRoot`.",
        source: MARKETPLACES_DOCS,
        checked: CHECKED,
    },
];

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn rows_have_sources_and_dates() {
        let mut seen = std::collections::HashSet::new();
        for f in SUBAGENT_FIELDS {
            assert!(seen.insert(f.key), "{} twice", f.key);
            assert!(f.source.starts_with("https://") && f.checked == CHECKED);
        }
        assert!(subagent_field("name").is_some_and(|f| f.required));
        assert!(subagent_field("description").is_some_and(|f| f.required));
        assert!(subagent_field("skills").is_some_and(|f| !f.required));
        for row in MANIFEST_PATHS {
            assert!(row.source.starts_with("https://") && row.checked == CHECKED);
        }
        for row in COMPONENT_KEYS {
            assert!(row.source.starts_with("https://") && row.checked == CHECKED);
        }
        for row in MANIFEST_RULES {
            assert!(row.source.starts_with("https://") && row.checked == CHECKED);
        }
        assert!(is_builtin_subagent("Explore") && !is_builtin_subagent("explore"));
    }

    #[test]
    fn current_path_rules() {
        assert_eq!(
            component_key("skills").map(|k| k.combine),
            Some(Combine::AddsToDefault)
        );
        for key in ["commands", "agents"] {
            assert_eq!(
                component_key(key).map(|k| k.combine),
                Some(Combine::ReplacesDefault),
                "{key}"
            );
        }
        assert_eq!(
            component_key("agents").map(|k| k.takes),
            Some(PathTakes::MarkdownFiles)
        );
    }

    #[test]
    fn manifests_by_path() {
        let kind = |p: &str| manifest_kind(Path::new(p));
        assert_eq!(
            kind("p/.claude-plugin/plugin.json"),
            Some(ManifestKind::Plugin)
        );
        assert_eq!(
            kind(".claude-plugin/marketplace.json"),
            Some(ManifestKind::Marketplace)
        );
        assert_eq!(
            kind(".github/plugin/marketplace.json"),
            Some(ManifestKind::Marketplace)
        );
        assert_eq!(kind("plugin/marketplace.json"), None);
        assert_eq!(kind("x/plugin.json"), None);
    }
}
