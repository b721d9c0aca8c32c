//! Hover on the proposed SKILL.md extensions: a dependency entry or a precondition / action tool
//! (is the tool available, and from where; or that nothing was evaluated, and how to configure an
//! inventory), and a chain entry (what it resolves to, its place in the chain).

use std::path::Path;

use super::answers::HoverResult;
use crate::diagnostic::FileId;
use crate::index::{Content, Index, Lookup};
use crate::model::skill_md::extensions::{Predicate, PredicateMap, Value, PRECONDITION_OPS};
use crate::rules::tools::Inventory;
use crate::semantics::chain::{resolve, Target};
use crate::syntax::TextRange;

const NO_INVENTORY: &str = "Not evaluated: no tool inventory is configured. Add a `[tools]` section to a \
`skillgraph.toml` at or above this skill — `available = [\"get_order\"]`, `presets = [\"claude-code\"]` or \
`mcp-tool-lists = [\"tools/server.json\"]` (saved MCP `tools/list` results); MCP tools of SwarmKit skills \
below that config count too.";

/// The hover for an extension value under the cursor, if the cursor is on one.
pub(crate) fn hover(index: &Index, file: FileId, offset: u32) -> Option<HoverResult> {
    let entry = index.file(file)?;
    let Content::SkillMd(skill) = &entry.parsed.content else {
        return None;
    };
    let extensions = &skill.extensions;
    let lookup = Lookup::new(index);
    let path = entry.path.as_path();
    let on = |range: TextRange| range.contains_inclusive(offset);
    let result = |markdown: String, range: TextRange| Some(HoverResult { markdown, range });

    if let Some(deps) = &extensions.dependencies {
        if on(deps.key) {
            let status = match Inventory::of(&lookup, path) {
                Some(inventory) => format!(
                    "Evaluated against the tool inventory of {}.",
                    inventory_origin(&inventory, path)
                ),
                None => NO_INVENTORY.to_owned(),
            };
            return result(
                format!("**`dependencies`** — the tools, resources and prompts this skill needs (proposal)\n\n{status}"),
                deps.key,
            );
        }
        for kind in &deps.types {
            for (group, list) in kind.lists() {
                if let Some(item) = list.iter().find(|i| on(i.range)) {
                    let name = item.as_str()?;
                    let need = if group == "any" {
                        "one of the `any` group (at least one needed)"
                    } else {
                        "needed (`all`)"
                    };
                    let availability = if kind.key.scalar() == Some("tools") {
                        tool_availability(&lookup, path, name)
                    } else {
                        "Not evaluated: only tools are checked against an inventory.".to_owned()
                    };
                    return result(
                        format!("**`{name}`** — {need}\n\n{availability}"),
                        item.range,
                    );
                }
            }
        }
    }

    if let Some(chain) = &extensions.chain {
        if let Some((i, item)) = chain.items.iter().enumerate().find(|(_, i)| on(i.range)) {
            let name = item.as_str()?;
            let mode = if chain.runs_async() {
                "run in parallel (`async: true`)"
            } else {
                "run in order"
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
                    chain.items.len()
                ),
                item.range,
            );
        }
        if let Some(setting) = chain.options.iter().find(|o| on(o.key)) {
            let option = setting.option;
            return result(
                format!("**`{}`** — {}", option.key, option.documentation()),
                setting.key,
            );
        }
    }
    if let Some(tool) = extensions.action_tool.as_ref().filter(|t| on(t.range)) {
        let name = tool.as_str()?;
        return result(
            format!(
                "**action tool `{name}`** — the skill gate checks this skill's precondition before every call of `{name}`\n\n{}",
                tool_availability(&lookup, path, name)
            ),
            tool.range,
        );
    }
    let precondition = extensions.precondition.as_ref()?;
    if let Some(op) = precondition_op_at(precondition, offset) {
        let text = op.as_str()?;
        let known = PRECONDITION_OPS.iter().find(|o| o.value == text)?;
        return result(format!("**operator `{text}`** — {}", known.doc), op.range);
    }
    let node = precondition
        .tool_values()
        .into_iter()
        .find(|v| on(v.range))?;
    let text = node.as_str()?;
    let name = text.split('(').next().unwrap_or(text).trim();
    result(
        format!(
            "**precondition `{text}`** — holds once `{name}` has been called\n\n{}",
            tool_availability(&lookup, path, name)
        ),
        node.range,
    )
}

/// The `op` of a state predicate under the cursor.
fn precondition_op_at(precondition: &Predicate, offset: u32) -> Option<&Value> {
    let maps: Vec<&PredicateMap> = match precondition {
        Predicate::Mapping(map) => vec![&**map],
        Predicate::List { items, .. } => items
            .iter()
            .filter_map(|p| match p {
                Predicate::Mapping(map) => Some(&**map),
                _ => None,
            })
            .collect(),
        Predicate::Scalar(_) => Vec::new(),
    };
    maps.into_iter()
        .filter_map(|map| map.state.as_ref()?.1.op.as_ref())
        .find(|op| op.range.contains_inclusive(offset))
}

/// Go to definition on a chain entry: the target skill's `name` (or the top of its SKILL.md).
pub(crate) fn definition(index: &Index, file: FileId, offset: u32) -> Option<(FileId, TextRange)> {
    let entry = index.file(file)?;
    let Content::SkillMd(skill) = &entry.parsed.content else {
        return None;
    };
    let item = skill
        .extensions
        .chain
        .as_ref()?
        .items
        .iter()
        .find(|i| i.range.contains_inclusive(offset))?;
    let lookup = Lookup::new(index);
    let target = match resolve(&lookup, &entry.path, item.as_str()?) {
        Target::Found(target) | Target::Outside(target) => target,
        Target::Unknown | Target::Invalid => return None,
    };
    let range = match &target.parsed.content {
        Content::SkillMd(skill) => skill.name_range(),
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
    let base = crate::model::skill_md::skill_root(from).unwrap_or(Path::new("/"));
    to.strip_prefix(base).unwrap_or(to).display().to_string()
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{answer_at, fixture};
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
        answer_at(text, hover).expect("a hover").markdown
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

    #[test]
    fn the_portable_form_hovers_and_leads_as_the_nested_one() {
        let smoke = "//- /r/s/e2e/smoke/SKILL.md\n---\nname: smoke\ndescription: d\n---\n";
        let text = hover_text(&format!("//- /r/s/chain/SKILL.md\n---\nname: chain\ndescription: d\nmetadata:\n  chain: \"unit, sm$0oke\"\n---\n{smoke}"));
        assert!(text.contains("2 of 2 (run in order)"), "{text}");
        assert!(text.contains("resolves to `e2e/smoke/SKILL.md`"), "{text}");
        let f = fixture(&format!("//- /r/s/chain/SKILL.md\n---\nname: chain\ndescription: d\nmetadata:\n  chain: 'sm$0oke'\n---\n{smoke}"));
        let (target, _) = definition(&f.index, f.cursor_file, f.offset).expect("a target");
        assert_eq!(
            f.index.file(target).unwrap().path,
            Path::new("/r/s/e2e/smoke/SKILL.md")
        );
        let text = hover_text("//- /r/s/gate/SKILL.md\n---\nname: gate\ndescription: d\nmetadata:\n  precondition: \"get_order; tool: get_st$0atus\"\n---\n");
        assert!(
            text.contains("holds once `get_status` has been called"),
            "{text}"
        );
        let text = hover_text("//- /r/s/refund/SKILL.md\n---\nname: refund\ndescription: d\nmetadata:\n  dependencies: \"tools.all: Re$0ad get_order\"\n---\n");
        assert!(text.contains("Not evaluated: no tool inventory"), "{text}");
    }

    #[test]
    fn a_chain_option_key_is_explained_from_the_table() {
        let text = hover_text("//- /r/s/chain/SKILL.md\n---\nname: chain\ndescription: d\nmetadata:\n  chain: [unit]\n  early_ex$0it_on: failure\n---\n");
        let option = crate::model::skill_md::extensions::chain_option("early_exit_on").unwrap();
        assert_eq!(
            text,
            format!("**`early_exit_on`** — {}", option.documentation())
        );
        assert!(
            text.contains("`none`, `failure`, `success`, `critical`"),
            "{text}"
        );
        // Without a chain the same key is plain metadata: no option hover.
        let f = fixture("//- /r/s/a/SKILL.md\n---\nname: a\ndescription: d\nmetadata:\n  early_ex$0it_on: failure\n---\n");
        assert!(hover(&f.index, f.cursor_file, f.offset).is_none());
    }

    #[test]
    fn a_precondition_operator_is_explained_from_the_table() {
        for (op, place) in [
            ("exists", "metadata:\n  precondition:\n    state: {path: order.id, op: exi$0sts}\n"),
            ("in", "metadata:\n  precondition:\n    - state:\n        path: order.status\n        op: i$0n\n        value: [open]\n"),
        ] {
            let text = hover_text(&format!(
                "//- /r/s/gate/SKILL.md\n---\nname: gate\ndescription: d\n{place}---\n"
            ));
            let doc = PRECONDITION_OPS.iter().find(|o| o.value == op).unwrap().doc;
            assert_eq!(text, format!("**operator `{op}`** — {doc}"), "{place}");
        }
        // An operator the table does not hold gets no made-up explanation.
        let f = fixture("//- /r/s/gate/SKILL.md\n---\nname: gate\ndescription: d\nmetadata:\n  precondition:\n    state: {path: a, op: gre$0ater}\n---\n");
        assert!(hover(&f.index, f.cursor_file, f.offset).is_none());
    }
}
