//! Hover on the proposed SKILL.md extensions: a dependency entry or a precondition / action tool
//! (is the tool available, and from where; or that nothing was evaluated, and how to configure an
//! inventory), and a chain entry (what it resolves to, its place in the chain).

use std::path::Path;

use super::hover::HoverResult;
use crate::diagnostic::FileId;
use crate::index::{Index, Lookup};
use crate::rules::chain::{resolve, Target};
use crate::rules::tools::Inventory;
use crate::syntax::{Node, TextRange};

const NO_INVENTORY: &str = "Not evaluated: no tool inventory is configured. Add a `[tools]` section to a \
`skillgraph.toml` at or above this skill — `available = [\"get_order\"]`, `presets = [\"claude-code\"]` or \
`mcp-tool-lists = [\"tools/server.json\"]` (saved MCP `tools/list` results); MCP tools of SwarmKit skills \
below that config count too.";

/// The hover for an extension value under the cursor, if the cursor is on one.
pub(crate) fn hover(index: &Index, file: FileId, offset: u32) -> Option<HoverResult> {
    let entry = index.file(file)?;
    let root = entry.parsed.yaml.as_ref()?.root()?;
    if !root.is_mapping() {
        return None;
    }
    let lookup = Lookup::new(index);
    let path = entry.path.as_path();
    let on = |node: Node<'_>| node.range().contains_inclusive(offset);
    let result = |markdown: String, range: TextRange| Some(HoverResult { markdown, range });

    if let Some((key, deps)) = root.entry("dependencies") {
        if on(key) {
            let status = match Inventory::of(&lookup, path) {
                Some(inventory) => format!(
                    "Evaluated against the tool inventory of {}.",
                    inventory_origin(&inventory, path)
                ),
                None => NO_INVENTORY.to_owned(),
            };
            return result(
                format!("**`dependencies`** — the tools, resources and prompts this skill needs (proposal)\n\n{status}"),
                key.range(),
            );
        }
        for (kind, value) in deps.entries() {
            let lists: Vec<(&str, Node<'_>)> = if value.is_sequence() {
                vec![("all", value)]
            } else {
                value
                    .entries()
                    .filter_map(|(k, v)| k.scalar().map(|k| (k, v)))
                    .collect()
            };
            for (group, list) in lists {
                if let Some(item) = list.items().find(|i| on(*i)) {
                    let name = item.as_str()?;
                    let need = if group == "any" {
                        "one of the `any` group (at least one needed)"
                    } else {
                        "needed (`all`)"
                    };
                    let availability = if kind.scalar() == Some("tools") {
                        tool_availability(&lookup, path, name)
                    } else {
                        "Not evaluated: only tools are checked against an inventory.".to_owned()
                    };
                    return result(
                        format!("**`{name}`** — {need}\n\n{availability}"),
                        item.range(),
                    );
                }
            }
        }
    }

    let metadata = root.get("metadata").filter(|m| m.is_mapping())?;
    if let Some(chain) = metadata.get("chain") {
        let items: Vec<Node<'_>> = chain.items().collect();
        if let Some((i, item)) = items.iter().enumerate().find(|(_, i)| on(**i)) {
            let name = item.as_str()?;
            let mode = match metadata.get("async").and_then(|a| a.scalar()) {
                Some("true") => "run in parallel (`async: true`)",
                _ => "run in order",
            };
            let target = match resolve(&lookup, path, name) {
                Target::Found(target) => {
                    format!("resolves to `{}`", relative(path, &target.path))
                }
                Target::Outside(target) => format!(
                    "found only outside the chain's parent folder, at `{}` (not allowed)",
                    path_from(path, &target.path)
                ),
                Target::Unknown => "resolves to no skill".to_owned(),
                Target::Invalid => "leaves the chain's parent folder (not allowed)".to_owned(),
            };
            return result(
                format!(
                    "**chain entry `{name}`** — {} of {} ({mode})\n\n{target}",
                    i + 1,
                    items.len()
                ),
                item.range(),
            );
        }
    }
    if let Some(tool) = metadata.get("action_tool").filter(|t| on(*t)) {
        let name = tool.as_str()?;
        return result(
            format!(
                "**action tool `{name}`** — the skill gate checks this skill's precondition before every call of `{name}`\n\n{}",
                tool_availability(&lookup, path, name)
            ),
            tool.range(),
        );
    }
    let precondition = metadata.get("precondition")?;
    let mut stack = vec![precondition];
    while let Some(node) = stack.pop() {
        if !on(node) {
            continue;
        }
        if node.is_sequence() {
            stack.extend(node.items());
            continue;
        }
        if node.is_mapping() {
            if let Some(tool) = node.get("tool") {
                stack.push(tool);
            }
            continue;
        }
        let text = node.as_str()?;
        let name = text.split('(').next().unwrap_or(text).trim();
        return result(
            format!(
                "**precondition `{text}`** — holds once `{name}` has been called\n\n{}",
                tool_availability(&lookup, path, name)
            ),
            node.range(),
        );
    }
    None
}

/// Go to definition on a chain entry: the target skill's `name` (or the top of its SKILL.md).
pub(crate) fn definition(index: &Index, file: FileId, offset: u32) -> Option<(FileId, TextRange)> {
    let entry = index.file(file)?;
    let root = entry.parsed.yaml.as_ref()?.root()?;
    let chain = root.get("metadata")?.get("chain")?;
    let item = chain
        .items()
        .find(|i| i.range().contains_inclusive(offset))?;
    let lookup = Lookup::new(index);
    let target = match resolve(&lookup, &entry.path, item.as_str()?) {
        Target::Found(target) | Target::Outside(target) => target,
        Target::Unknown | Target::Invalid => return None,
    };
    let range = match &target.parsed.content {
        crate::index::Content::SkillMd(skill) => skill.name_range(),
        _ => None,
    };
    Some((target.id, range.unwrap_or(TextRange::empty(0))))
}

fn tool_availability(lookup: &Lookup<'_>, path: &Path, name: &str) -> String {
    match Inventory::of(lookup, path) {
        None => NO_INVENTORY.to_owned(),
        Some(inventory) => match inventory.find(lookup, name) {
            Some(source) => format!("Available: from {}.", source.describe()),
            None => format!(
                "Not available: `{name}` is in no source of the tool inventory of {}.",
                inventory_origin(&inventory, path)
            ),
        },
    }
}

/// Where the inventory of the skill at `path` is configured, as a path relative to the skill.
fn inventory_origin(inventory: &crate::rules::tools::Inventory<'_>, path: &Path) -> String {
    match inventory.config {
        Some(config) => format!("`{}`", path_from(path, &config.path)),
        None => inventory.origin(),
    }
}

/// `to` as seen from the folder of the file `from`: `../other/SKILL.md`, `skillgraph.toml`.
/// Hovers show such paths rather than absolute ones, which say little and run long.
pub(crate) fn path_from(from: &Path, to: &Path) -> String {
    let base = from.parent().unwrap_or(Path::new(""));
    let base: Vec<_> = base.components().collect();
    let target: Vec<_> = to.components().collect();
    let common = base.iter().zip(&target).take_while(|(a, b)| a == b).count();
    let mut out = std::path::PathBuf::new();
    for _ in common..base.len() {
        out.push("..");
    }
    for part in &target[common..] {
        out.push(part);
    }
    out.to_string_lossy().replace('\\', "/")
}

pub(crate) fn relative(from: &Path, to: &Path) -> String {
    let base = crate::rules::skill_md::skill_root(from).unwrap_or(Path::new("/"));
    to.strip_prefix(base).unwrap_or(to).display().to_string()
}

#[cfg(test)]
mod tests {
    use super::super::test_support::fixture;
    use super::*;

    #[test]
    fn paths_shown_are_relative_to_the_file() {
        let from = Path::new("/r/skills/a/SKILL.md");
        assert_eq!(path_from(from, Path::new("/r/skills/a/x.md")), "x.md");
        assert_eq!(
            path_from(from, Path::new("/r/skillgraph.toml")),
            "../../skillgraph.toml"
        );
        assert_eq!(
            path_from(from, Path::new("/q/b/SKILL.md")),
            "../../../q/b/SKILL.md"
        );
    }

    fn hover_text(text: &str) -> String {
        let f = fixture(text);
        hover(&f.index, f.cursor_file, f.offset)
            .expect("a hover")
            .markdown
    }

    #[test]
    fn dependencies_with_and_without_an_inventory() {
        let skill = "//- /r/s/refund/SKILL.md\n---\nname: refund\ndescription: d\ndependencies:\n  tools:\n    all: [Re$0ad, get_order]\n---\n";
        let text = hover_text(skill);
        assert!(text.contains("Not evaluated: no tool inventory"), "{text}");
        let with = format!("//- /r/skillgraph.toml\n[tools]\npresets = [\"claude-code\"]\n{skill}");
        let text = hover_text(&with);
        assert!(
            text.contains("Available: from the `claude-code` preset."),
            "{text}"
        );
        let text = hover_text(&with.replace("Re$0ad, get_order", "Read, get_$0order"));
        assert!(text.contains("Not available"), "{text}");
        let text = hover_text(
            &skill
                .replace("$0", "")
                .replace("dependencies:", "depend$0encies:"),
        );
        assert!(text.contains("Not evaluated"), "{text}");
    }

    #[test]
    fn chain_entries_and_preconditions() {
        let text = hover_text("//- /r/s/chain/SKILL.md\n---\nname: chain\ndescription: d\nmetadata:\n  chain: [unit, sm$0oke]\n---\n//- /r/s/e2e/smoke/SKILL.md\n---\nname: smoke\ndescription: d\n---\n");
        assert!(text.contains("2 of 2 (run in order)"), "{text}");
        assert!(text.contains("resolves to `e2e/smoke/SKILL.md`"), "{text}");
        let f = fixture("//- /r/s/chain/SKILL.md\n---\nname: chain\ndescription: d\nmetadata:\n  chain: [sm$0oke]\n---\n//- /r/s/e2e/smoke/SKILL.md\n---\nname: smoke\ndescription: d\n---\n");
        let (target, range) = definition(&f.index, f.cursor_file, f.offset).expect("a target");
        let target = f.index.file(target).unwrap();
        assert_eq!(target.path, Path::new("/r/s/e2e/smoke/SKILL.md"));
        assert_eq!(
            &target.text[range.start as usize..range.end as usize],
            "smoke"
        );
        let text = hover_text("//- /r/s/gate/SKILL.md\n---\nname: gate\ndescription: d\nmetadata:\n  precondition: [{tool: get_st$0atus}]\n---\n");
        assert!(
            text.contains("holds once `get_status` has been called"),
            "{text}"
        );
    }
}
