//! The tool inventory a SKILL.md is judged against (SPEC §6), and the checks of its sources:
//! unknown presets in `skillgraph.toml`, tool lists that are missing or malformed.
//!
//! The inventory of a skill is its nearest `skillgraph.toml`'s `[tools] available`, the tools
//! of its `presets`, the tools of its `mcp-tool-lists` files, and the MCP tools
//! (`implementation.tool`) of the SwarmKit skills below the config's folder. Only when that config
//! sets at least one of `available`, `presets`, `mcp-tool-lists` is there an inventory; without
//! one, nothing is judged unavailable. Every fact is read through `Lookup`, so editing a config,
//! a tool list or a SwarmKit skill re-checks the skills that used it.

use std::path::{Path, PathBuf};

use super::rule_doc::RuleDoc;
use crate::diagnostic::{codes, Diagnostic, FileId};
use crate::index::{Content, FileEntry, Key, Lookup};
use crate::model::config::Config;
use crate::model::tools::{preset, tool_list_path, ToolList, PRESETS};
use crate::syntax::TextRange;

pub const RULES: &[RuleDoc] = &[
    RuleDoc {
        code: codes::CONFIG_UNKNOWN_PRESET,
        summary: "`[tools] presets` names a tool set skillgraph does not know.",
        explanation: "A preset stands for the built-in tools of an agent harness (`claude-code`: Read, Write, \
Edit, Grep, Bash, …). An unknown name adds no tools, so every skill that relies on them would be reported as \
unsatisfied for the wrong reason. Use a known preset, or list the tools in `[tools] available` instead.",
    },
    RuleDoc {
        code: codes::TOOLS_MISSING_LIST,
        summary: "A `[tools] mcp-tool-lists` entry names no `.json` file that skillgraph could read.",
        explanation: "Entries are paths relative to the folder of `skillgraph.toml`, each to a saved MCP \
`tools/list` result (`{\"tools\": [{\"name\": ...}]}`). A path that is not there (or not a `.json` file, or \
ignored by `.gitignore`) contributes no tools, so skills depending on them would look unsatisfied. Save the \
server's `tools/list` response at that path, or fix the path.",
    },
    RuleDoc {
        code: codes::TOOLS_INVALID_LIST,
        summary: "A tool list named by `[tools] mcp-tool-lists` is not a saved `tools/list` result.",
        explanation: "The file must be JSON holding `{\"tools\": [{\"name\": \"get_order\"}, …]}` or the whole \
JSON-RPC response `{\"result\": {\"tools\": […]}}`, every tool an object with a `name` string. The range shows \
the first problem; tools read before it still count. Save the server's response again, unedited (for example \
with the MCP inspector). A `.json` file that no config names is never judged.",
    },
];

/// The tool inventory that applies to one SKILL.md.
pub struct Inventory<'a> {
    /// The `skillgraph.toml` that configures it; `None` when it comes from the editor's settings.
    pub config: Option<&'a FileEntry>,
    settings: &'a Config,
    lists: Vec<(&'a FileEntry, &'a ToolList)>,
}

/// Where an available tool comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    Available,
    Preset(&'static str),
    ToolList(PathBuf),
    SwarmKit(PathBuf),
}

impl Source {
    pub fn describe(&self) -> String {
        match self {
            Source::Available => "`[tools] available` of skillgraph.toml".to_owned(),
            Source::Preset(name) => format!("the `{name}` preset"),
            Source::ToolList(path) => format!("the tool list {}", file_name(path)),
            Source::SwarmKit(path) => format!("the SwarmKit skill {}", file_name(path)),
        }
    }
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
}

impl<'a> Inventory<'a> {
    /// The inventory of the skill at `path`: `None` when its nearest config configures none.
    pub fn of(lookup: &Lookup<'a>, path: &Path) -> Option<Inventory<'a>> {
        let (config, settings) = crate::semantics::config::settings_for(lookup, path)?;
        if settings.tools_available.is_empty()
            && settings.presets.is_empty()
            && settings.mcp_tool_lists.is_empty()
        {
            return None;
        }
        // Tool-list paths are relative to the config file; the editor's settings carry absolute
        // paths (the VS Code extension resolves them), which `join` keeps as they are.
        let dir = match config {
            Some(file) => file.path.parent()?.to_owned(),
            None => path.ancestors().last()?.to_owned(),
        };
        let dir = dir.as_path();
        let mut lists = Vec::new();
        for entry in &settings.mcp_tool_lists {
            for file in lookup.get(Key::ToolList {
                path: tool_list_path(dir, entry),
            }) {
                if let Content::ToolList(list) = &file.parsed.content {
                    lists.push((file, list));
                }
            }
        }
        Some(Inventory {
            config,
            settings,
            lists,
        })
    }

    /// Where `tool` is available from, if it is.
    pub fn find(&self, lookup: &Lookup<'_>, tool: &str) -> Option<Source> {
        if self.settings.has_available_tool(tool) {
            return Some(Source::Available);
        }
        for name in &self.settings.presets {
            if let Some(preset) = preset(name) {
                if preset.tools.contains(&tool) {
                    return Some(Source::Preset(preset.name));
                }
            }
        }
        for (file, list) in &self.lists {
            if list.has(tool) {
                return Some(Source::ToolList(file.path.clone()));
            }
        }
        let root = match self.config {
            Some(config) => config.path.parent()?.to_owned(),
            None => PathBuf::from("/"),
        };
        lookup
            .get(Key::McpTool {
                name: tool.to_owned(),
            })
            .into_iter()
            .find(|file| file.path.starts_with(&root))
            .map(|file| Source::SwarmKit(file.path.clone()))
    }

    /// The saved `tools/list` result of the MCP server `server`: the `mcp-tool-lists` file named
    /// `<server>.json` (a saved result does not say which server answered, so its name does).
    pub fn server_tool_list(&self, server: &str) -> Option<(&'a FileEntry, &'a ToolList)> {
        self.lists
            .iter()
            .find(|(file, _)| {
                file.path.file_stem().is_some_and(|stem| stem == server)
                    && file.path.extension().is_some_and(|e| e == "json")
            })
            .copied()
    }

    /// Every tool of the inventory with where it comes from, each once (its first source, in
    /// the order [`Inventory::find`] looks), sorted by name: what completion offers. SwarmKit MCP
    /// tools are those of the skills below the config's folder.
    pub fn tools(&self, lookup: &Lookup<'_>) -> Vec<(String, Source)> {
        let mut found: std::collections::BTreeMap<String, Source> = Default::default();
        let mut add = |name: &str, source: &dyn Fn() -> Source| {
            if !found.contains_key(name) {
                found.insert(name.to_owned(), source());
            }
        };
        for tool in &self.settings.tools_available {
            add(tool, &|| Source::Available);
        }
        for name in &self.settings.presets {
            if let Some(preset) = preset(name) {
                for tool in preset.tools {
                    add(tool, &|| Source::Preset(preset.name));
                }
            }
        }
        for (file, list) in &self.lists {
            for tool in &list.tools {
                add(tool, &|| Source::ToolList(file.path.clone()));
            }
        }
        let root = match self.config {
            Some(config) => config.path.parent().map(Path::to_path_buf),
            None => Some(PathBuf::from("/")),
        };
        if let Some(root) = root {
            let mut skills: Vec<&FileEntry> = lookup
                .index()
                .files()
                .filter(|file| file.path.starts_with(&root))
                .collect();
            skills.sort_by(|a, b| a.path.cmp(&b.path));
            for file in skills {
                if let Content::SwarmKit(crate::model::swarmkit::Artifact::Skill(skill)) =
                    &file.parsed.content
                {
                    if let Some(tool) = &skill.tool {
                        add(&tool.value, &|| Source::SwarmKit(file.path.clone()));
                    }
                }
            }
        }
        found.into_iter().collect()
    }

    /// The related location every "not available" diagnostic carries: the `[tools]` section.
    pub fn related_range(&self) -> TextRange {
        let text = self.config.map_or("", |c| &c.text);
        text.find("[tools]").map_or(TextRange::empty(0), |at| {
            TextRange::new(at as u32, (at + "[tools]".len()) as u32)
        })
    }

    /// Adds the inventory's configuration as a related location, when it is a file.
    pub fn relate(&self, diagnostic: Diagnostic) -> Diagnostic {
        match self.config {
            Some(config) => {
                diagnostic.with_related(config.id, self.related_range(), self.related_message())
            }
            None => diagnostic,
        }
    }

    /// Where the inventory is configured, for hovers.
    pub fn origin(&self) -> String {
        match self.config {
            Some(config) => format!("`{}`", config.path.display()),
            None => "the editor's settings".to_owned(),
        }
    }

    pub fn related_message(&self) -> &'static str {
        "the tool inventory is configured here (`available`, `presets`, `mcp-tool-lists`, plus SwarmKit MCP tools below this folder)"
    }
}

/// Where a string value is written in the config's text, searched after `after` (a key name).
pub fn config_value_range(text: &str, after: &str, value: &str) -> TextRange {
    let from = text.find(after).unwrap_or(0);
    for quoted in [format!("\"{value}\""), format!("'{value}'")] {
        if let Some(at) = text[from..].find(&quoted) {
            let start = from + at;
            return TextRange::new(start as u32, (start + quoted.len()) as u32);
        }
    }
    TextRange::empty(from as u32)
}

/// File-local checks of a config: presets it names must exist.
pub(crate) fn check_config_local(
    file: FileId,
    text: &str,
    config: &Config,
    out: &mut Vec<Diagnostic>,
) {
    for name in &config.presets {
        if preset(name).is_none() {
            let known: Vec<&str> = PRESETS.iter().map(|p| p.name).collect();
            let hint = match super::suggest::closest(name, known.iter().copied()) {
                Some(best) => format!("did you mean `{best}`?"),
                None => format!("known presets: {}", known.join(", ")),
            };
            out.push(Diagnostic::new(
                codes::CONFIG_UNKNOWN_PRESET,
                file,
                config_value_range(text, "presets", name),
                format!(
                    "`{name}` is not a tool preset skillgraph knows, so it adds no tools; {hint}"
                ),
            ));
        }
    }
}

/// Cross-file checks of a config: every tool list it names is there.
pub(crate) fn check_config(
    lookup: &Lookup<'_>,
    entry: &FileEntry,
    config: &Config,
    out: &mut Vec<Diagnostic>,
) {
    let Some(dir) = entry.path.parent() else {
        return;
    };
    for name in &config.mcp_tool_lists {
        let path = tool_list_path(dir, name);
        let found = lookup.get(Key::ToolList { path: path.clone() });
        if !found.is_empty() {
            continue;
        }
        let why = if crate::index::classify::is_json(&path) {
            "there is no such file (or `.gitignore` hides it, or it is over the size cap)"
        } else {
            "a tool list must be a `.json` file"
        };
        out.push(Diagnostic::new(
            codes::TOOLS_MISSING_LIST,
            entry.id,
            config_value_range(&entry.text, "mcp-tool-lists", name),
            format!("`{name}` contributes no tools: {why}; save the MCP server's `tools/list` result there, or fix the path"),
        ));
    }
}

/// Cross-file check of a `.json` file: when a config names it as a tool list, it must be one.
pub(crate) fn check_tool_list(
    lookup: &Lookup<'_>,
    entry: &FileEntry,
    list: &ToolList,
    out: &mut Vec<Diagnostic>,
) {
    let Some((range, problem)) = &list.error else {
        return;
    };
    let configs = lookup.get(Key::ToolListNamed {
        path: entry.path.clone(),
    });
    let Some(config) = configs.first() else {
        return;
    };
    let related = config
        .text
        .find("mcp-tool-lists")
        .map_or(TextRange::empty(0), |at| {
            TextRange::new(at as u32, (at + "mcp-tool-lists".len()) as u32)
        });
    out.push(
        Diagnostic::new(
            codes::TOOLS_INVALID_LIST,
            entry.id,
            *range,
            format!(
                "{problem}; the tool inventory reads this file as a saved MCP `tools/list` result"
            ),
        )
        .with_related(config.id, related, "named as a tool list here"),
    );
}

/// A YAML type name with its indefinite article, for messages ("an integer", "a list").
pub(crate) fn article(type_name: &str) -> String {
    match type_name.chars().next() {
        Some('a' | 'e' | 'i' | 'o' | 'u') => format!("an {type_name}"),
        _ => format!("a {type_name}"),
    }
}
