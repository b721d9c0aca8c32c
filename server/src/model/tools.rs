//! The data of the tool inventory (SPEC §6): the built-in tool sets of agent harnesses
//! (`[tools] presets`), and saved MCP `tools/list` results (`[tools] mcp-tool-lists`), parsed
//! into tool names. Which of these apply to a skill (the nearest `skillgraph.toml`, SwarmKit MCP
//! tools under it) is decided in `rules::tools`, which reads other files through the index.

use std::path::{Component, Path, PathBuf};

use crate::syntax::TextRange;

/// A named set of tools a harness provides without any configuration.
#[derive(Debug)]
pub struct Preset {
    pub name: &'static str,
    pub tools: &'static [&'static str],
    /// Where the list comes from, for hover and docs.
    pub source: &'static str,
}

/// Every preset `[tools] presets` may name. Keep each list in this one place.
pub const PRESETS: &[Preset] = &[Preset {
    name: "claude-code",
    // Kept with the other host facts, with their source and the date they were checked.
    tools: super::hosts::CLAUDE_CODE_TOOLS,
    source:
        "Claude Code's built-in tools (its tools reference, https://code.claude.com/docs/en/tools-reference, checked 2026-12-01)",
}];

pub fn preset(name: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.name == name)
}

/// A saved MCP `tools/list` result: the tool names it lists, or what is wrong with it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ToolList {
    /// The tool names, sorted and deduplicated: a skill asks about each of its tools, and a list
    /// of a hundred thousand answers each in a binary search.
    pub tools: Vec<String>,
    /// The first problem found, with where it is (tools read before it are kept).
    pub error: Option<(TextRange, String)>,
}

impl ToolList {
    /// Parses `{"tools": [{"name": ...}, ...]}` or the JSON-RPC response around it,
    /// `{"result": {"tools": [...]}}`. Never fails; `base` is where `text` starts in the file.
    pub fn parse(text: &str, base: u32) -> ToolList {
        let at = |offset: usize| TextRange::new(base + offset as u32, base + offset as u32 + 1);
        let whole = TextRange::new(base, base + text.trim_end().len() as u32);
        let value: serde_json::Value = match serde_json::from_str(text) {
            Ok(value) => value,
            Err(error) => {
                let offset = line_column_offset(text, error.line(), error.column());
                let range = if offset < text.len() {
                    at(offset)
                } else {
                    TextRange::empty(base + text.len() as u32)
                };
                return ToolList {
                    tools: Vec::new(),
                    error: Some((range, format!("this is not valid JSON: {error}"))),
                };
            }
        };
        let tools = value
            .get("tools")
            .or_else(|| value.get("result").and_then(|r| r.get("tools")));
        let tools_key = || {
            text.find("\"tools\"").map_or(whole, |i| {
                TextRange::new(base + i as u32, base + (i + "\"tools\"".len()) as u32)
            })
        };
        let Some(tools) = tools else {
            return ToolList {
                tools: Vec::new(),
                error: Some((
                    whole,
                    "a saved `tools/list` result is an object with a `tools` list (or `result.tools`, as the JSON-RPC response holds it); neither is here".to_owned(),
                )),
            };
        };
        let Some(items) = tools.as_array() else {
            return ToolList {
                tools: Vec::new(),
                error: Some((tools_key(), "`tools` must be a list of tools".to_owned())),
            };
        };
        let mut list = ToolList::default();
        for (i, item) in items.iter().enumerate() {
            match item.get("name").and_then(|n| n.as_str()) {
                Some(name) if !name.is_empty() => list.tools.push(name.to_owned()),
                _ => {
                    if list.error.is_none() {
                        list.error = Some((
                            tools_key(),
                            format!("tool {} of `tools` has no `name` string; each tool is an object like `{{\"name\": \"get_order\"}}`", i + 1),
                        ));
                    }
                }
            }
        }
        list.tools.sort_unstable();
        list.tools.dedup();
        list
    }

    pub fn has(&self, tool: &str) -> bool {
        self.tools
            .binary_search_by(|t| t.as_str().cmp(tool))
            .is_ok()
    }
}

/// The byte offset of a 1-based line and column (serde_json counts columns in bytes).
fn line_column_offset(text: &str, line: usize, column: usize) -> usize {
    let mut offset = 0;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i + 1 == line {
            return (offset + column.saturating_sub(1)).min(text.len());
        }
        offset += l.len();
    }
    text.len()
}

/// The file a `mcp-tool-lists` entry names: relative to the config's directory, the entry's `.`
/// and `..` folded away lexically. The directory is kept as the index knows it, so the result
/// compares equal to the path the file was handed in under.
pub fn tool_list_path(config_dir: &Path, entry: &str) -> PathBuf {
    join_lexically(config_dir, Path::new(entry))
}

/// `relative` after `base`, with `.` dropped and `..` taking off the component before it, as
/// written, without asking the disk (`/r/a` and `../../etc` are `/etc`).
pub fn join_lexically(base: &Path, relative: &Path) -> PathBuf {
    let mut out = base.to_path_buf();
    for component in relative.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_shapes_of_a_tools_list() {
        let list = ToolList::parse(r#"{"tools":[{"name":"get_order"},{"name":"get_x"}]}"#, 0);
        assert_eq!(list.tools, ["get_order", "get_x"]);
        assert!(list.error.is_none());
        let list = ToolList::parse(
            r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a","inputSchema":{}}]}}"#,
            0,
        );
        assert_eq!(list.tools, ["a"]);
    }

    #[test]
    fn a_long_list_is_sorted_once_and_asked_by_search() {
        let names: Vec<String> = (0..50_000)
            .rev()
            .map(|i| format!("{{\"name\":\"t{i}\"}}"))
            .collect();
        let list = ToolList::parse(
            &format!("{{\"tools\":[{},{{\"name\":\"t7\"}}]}}", names.join(",")),
            0,
        );
        assert_eq!(list.tools.len(), 50_000, "the repeated t7 is kept once");
        assert!(list.tools.windows(2).all(|w| w[0] < w[1]));
        assert!(list.has("t0") && list.has("t49999") && list.has("t7"));
        assert!(!list.has("t50000") && !list.has(""));
    }

    #[test]
    fn problems_are_placed() {
        let text = "{\"tools\": [\n  {\"name\": 1}\n]}";
        let list = ToolList::parse(text, 0);
        let (range, message) = list.error.unwrap();
        assert_eq!(&text[range.start as usize..range.end as usize], "\"tools\"");
        assert!(message.contains("tool 1"), "{message}");
        let text = "{\"tools\": [\n  {\"name\": \"a\"},\n}";
        let (range, _) = ToolList::parse(text, 0).error.unwrap();
        assert_eq!(&text[range.start as usize..range.end as usize], "}");
        assert!(ToolList::parse("[]", 0).error.is_some());
    }

    #[test]
    fn paths_fold_dots() {
        assert_eq!(
            tool_list_path(Path::new("/r/a"), "./tools/../lists/x.json"),
            PathBuf::from("/r/a/lists/x.json")
        );
        assert_eq!(
            tool_list_path(Path::new("/r/x/../a"), "../b.json"),
            PathBuf::from("/r/x/../b.json")
        );
    }

    #[test]
    fn the_claude_code_preset() {
        let preset = preset("claude-code").unwrap();
        assert!(preset.tools.contains(&"Read") && preset.tools.contains(&"Skill"));
        assert!(!preset.tools.contains(&"MultiEdit") && preset.tools.contains(&"Agent"));
    }
}
