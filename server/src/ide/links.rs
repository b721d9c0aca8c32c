//! Document links of SwarmKit and config files: an agent's or archetype's `output_schema` path
//! (relative to the file declaring it, as SwarmKit reads it) and the `mcp-tool-lists` paths of a
//! `skillgraph.toml` (relative to its folder), and the component paths of a `plugin.json` (from
//! the plugin root) and plugin sources of a marketplace. SKILL.md links are in `skill_files`.

use super::skill_files::DocumentLink;
use crate::diagnostic::FileId;
use crate::index::{Content, Index};
use crate::model::swarmkit::{Artifact, OutputSchema};
use crate::model::tools::tool_list_path;
use crate::syntax::TextRange;

pub fn path_links(index: &Index, file: FileId) -> Vec<DocumentLink> {
    let mut out = Vec::new();
    let Some(entry) = index.file(file) else {
        return out;
    };
    let Some(dir) = entry.path.parent() else {
        return out;
    };
    let text = &entry.text;
    let mut push = |range: TextRange, target: std::path::PathBuf| {
        out.push(DocumentLink {
            range: unquoted(text, range),
            target,
        })
    };
    match &entry.parsed.content {
        Content::SwarmKit(Artifact::Topology(t)) => {
            for agent in &t.agents {
                if let Some(OutputSchema::Path(path)) = &agent.output_schema {
                    push(path.range, tool_list_path(dir, &path.value));
                }
            }
        }
        Content::SwarmKit(Artifact::Archetype(a)) => {
            if let Some(OutputSchema::Path(path)) = &a.default_output_schema {
                push(path.range, tool_list_path(dir, &path.value));
            }
        }
        Content::Config(config) => {
            for list in &config.mcp_tool_lists {
                let range = crate::rules::tools::config_value_range(text, "mcp-tool-lists", list);
                if !range.is_empty() {
                    push(range, tool_list_path(dir, list));
                }
            }
        }
        Content::Manifest(manifest) => {
            let Some(root) = crate::model::plugin_manifest::manifest_root(&entry.path) else {
                return out;
            };
            for path in &manifest.paths {
                if let Some(target) =
                    crate::semantics::plugins::component_target(root, &path.path.value)
                {
                    push(path.path.range, target);
                }
            }
            for plugin in &manifest.plugins {
                let Some(source) = &plugin.source else {
                    continue;
                };
                let Some(folder) = crate::semantics::plugins::marketplace_source(
                    &entry.path,
                    manifest,
                    &source.value,
                ) else {
                    continue;
                };
                // The plugin's manifest when the file set holds it, else its folder.
                let manifest_file = folder.join(".claude-plugin").join("plugin.json");
                let target = if index.file_id(&manifest_file).is_some() {
                    manifest_file
                } else {
                    folder
                };
                push(source.range, target);
            }
        }
        _ => {}
    }
    out
}

/// The range inside the quotes of a quoted scalar.
fn unquoted(text: &str, range: TextRange) -> TextRange {
    let written = text
        .get(range.start as usize..range.end as usize)
        .unwrap_or("");
    let b = written.as_bytes();
    if b.len() >= 2 && matches!(b[0], b'"' | b'\'') && b[b.len() - 1] == b[0] {
        TextRange::new(range.start + 1, range.end - 1)
    } else {
        range
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::fixture;
    use super::*;

    #[test]
    fn output_schemas_and_tool_lists_link_to_their_files() {
        let f = fixture("//- /w/workspace.yaml\napiVersion: swarmkit/v1\nkind: Workspace\nmetadata:\n  id: w\n//- /w/topologies/t.yaml\napiVersion: swarmkit/v1\nkind: Topology\nmetadata:\n  name: t$0\nagents:\n  root:\n    id: root\n    role: root\n    output_schema: \"../schemas/out.json\"\n");
        let links = path_links(&f.index, f.cursor_file);
        assert_eq!(links.len(), 1);
        assert_eq!(
            links[0].target,
            std::path::PathBuf::from("/w/schemas/out.json")
        );
        let text = &f.index.file(f.cursor_file).unwrap().text;
        assert_eq!(
            &text[links[0].range.start as usize..links[0].range.end as usize],
            "../schemas/out.json"
        );
        let f = fixture("//- /r/skillgraph.toml\n[tools]\nmcp-tool-lists = [\"lists/a.json\"]\n$0");
        let links = path_links(&f.index, f.cursor_file);
        assert_eq!(links.len(), 1, "{links:?}");
        assert_eq!(links[0].target, std::path::PathBuf::from("/r/lists/a.json"));
    }
}
