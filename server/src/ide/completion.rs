//! Completion of ids: skill ids in grants, `requires:` (only the agent's held skills there) and
//! `composes`; archetype ids; `server:` ids; topology ids in trigger targets.
//!
//! Two ways to know where the cursor is: on an id already written (replace it), or on an empty
//! list item or value being typed, recognised from the text of the line and the key above it,
//! since a half-typed document is often not valid YAML.

use super::cursor::{at, Ref, Site};
use crate::diagnostic::FileId;
use crate::index::{Content, Index, Lookup};
use crate::model::swarmkit::{AgentIndex, Artifact, ArtifactKind, Topology};
use crate::rules::grants::effective_skills;
use crate::syntax::TextRange;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompletionKind {
    Skill,
    Archetype,
    McpServer,
    Topology,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompletionItem {
    pub label: String,
    pub detail: Option<String>,
    pub kind: CompletionKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Completions {
    /// The text the chosen item replaces (empty at a bare cursor).
    pub range: TextRange,
    pub items: Vec<CompletionItem>,
}

enum Want {
    Skills { held_by: Option<AgentIndex> },
    Archetypes,
    Servers,
    Topologies,
}

pub fn completion(index: &Index, file: FileId, offset: u32) -> Option<Completions> {
    let workspace = index.workspace_of(file)?;
    let entry = index.file(file)?;
    let (want, range) = match at(index, file, offset) {
        Some(o) => {
            let want = match (&o.what, o.site) {
                (
                    Ref::Artifact(ArtifactKind::Skill, _),
                    Site::RequiresKey | Site::RequiresValue,
                ) => Want::Skills { held_by: o.agent },
                (Ref::Artifact(ArtifactKind::Skill, _), _) => Want::Skills { held_by: None },
                (Ref::Artifact(ArtifactKind::Archetype, _), Site::Reference) => Want::Archetypes,
                (Ref::Artifact(ArtifactKind::Topology, _), Site::Reference) => Want::Topologies,
                (Ref::McpServer(_), Site::Grant) => Want::Servers,
                _ => return None,
            };
            (want, o.range)
        }
        None => from_text(index, file, &entry.text, offset)?,
    };
    let mut items = Vec::new();
    match want {
        Want::Skills {
            held_by: Some(agent),
        } => {
            let Content::SwarmKit(Artifact::Topology(t)) = &entry.parsed.content else {
                return None;
            };
            let agent = t.agents.get(agent)?;
            let lookup = Lookup::new(index);
            let held = effective_skills(&lookup, workspace, file, agent, &mut Vec::new());
            let mut seen = std::collections::HashSet::new();
            for skill in held.skills {
                if seen.insert(skill.id.clone()) {
                    items.push(CompletionItem {
                        detail: Some(format!("held via {}", skill.source.describe())),
                        label: skill.id,
                        kind: CompletionKind::Skill,
                    });
                }
            }
        }
        Want::Skills { held_by: None } => items.extend(ids(
            index,
            workspace,
            ArtifactKind::Skill,
            CompletionKind::Skill,
        )),
        Want::Archetypes => items.extend(ids(
            index,
            workspace,
            ArtifactKind::Archetype,
            CompletionKind::Archetype,
        )),
        Want::Topologies => items.extend(ids(
            index,
            workspace,
            ArtifactKind::Topology,
            CompletionKind::Topology,
        )),
        Want::Servers => {
            if let Some(Content::SwarmKit(Artifact::Workspace(w))) =
                index.file(workspace).map(|e| &e.parsed.content)
            {
                items.extend(w.mcp_servers.iter().map(|s| CompletionItem {
                    label: s.id.value.clone(),
                    detail: Some("MCP server".to_owned()),
                    kind: CompletionKind::McpServer,
                }));
            }
        }
    }
    Some(Completions { range, items })
}

fn ids(
    index: &Index,
    workspace: FileId,
    kind: ArtifactKind,
    item_kind: CompletionKind,
) -> Vec<CompletionItem> {
    index
        .ids_of(workspace, kind)
        .map(|id| CompletionItem {
            label: id.to_owned(),
            detail: Some(kind.kind_field().to_owned()),
            kind: item_kind,
        })
        .collect()
}

/// Recognises a value being typed from the text: `- ` items under `skills:`,
/// `skills_additional:`, `composes:` or inside `requires:`, flow lists on those keys, and
/// `archetype: `.
fn from_text(index: &Index, file: FileId, text: &str, offset: u32) -> Option<(Want, TextRange)> {
    let offset = (offset as usize).min(text.len());
    if !text.is_char_boundary(offset) {
        return None;
    }
    let line_start = text[..offset].rfind(['\n', '\r']).map_or(0, |i| i + 1);
    let before = &text[line_start..offset];
    // The word being typed, if any, is what the item replaces.
    let word_len = before
        .chars()
        .rev()
        .take_while(|c| c.is_alphanumeric() || *c == '-' || *c == '_')
        .map(char::len_utf8)
        .sum::<usize>();
    let range = TextRange::new((offset - word_len) as u32, offset as u32);
    let head = before[..before.len() - word_len].trim_end();
    let agent = innermost_agent(index, file, offset as u32);
    let skills_in = |key: &str| match key {
        "skills" | "skills_additional" | "composes" => Some(Want::Skills { held_by: None }),
        _ => None,
    };
    let trimmed = head.trim_start();
    if let Some(key) = trimmed.strip_suffix(':') {
        return match key.trim_start_matches("- ") {
            "archetype" => Some((Want::Archetypes, range)),
            _ => None,
        };
    }
    if let Some((key, _)) = trimmed.split_once(": [") {
        // A flow list on this line: `skills: [a, |`.
        let key = key.trim_start_matches("- ").trim();
        if let Some(want) = skills_in(key) {
            return Some((want, range));
        }
        // `guarded: [|` inside a requires block.
        if let Some(agent) = agent.filter(|_| in_requires(text, line_start)) {
            return Some((
                Want::Skills {
                    held_by: Some(agent),
                },
                range,
            ));
        }
        return None;
    }
    if trimmed == "-" {
        let indent = before.len() - before.trim_start().len();
        let key = parent_key(text, line_start, indent)?;
        return skills_in(&key).map(|want| (want, range));
    }
    if trimmed.is_empty() && word_len > 0 && in_requires(text, line_start) {
        // A new guarded key being typed under `requires:`.
        return Some((Want::Skills { held_by: agent }, range));
    }
    None
}

/// The key of the nearest line above with less indentation than `indent` (`skills:` above
/// `  - x`), or the same indentation for a YAML list written flush with its key.
fn parent_key(text: &str, line_start: usize, indent: usize) -> Option<String> {
    for line in text[..line_start].lines().rev() {
        let body = line.trim_start();
        if body.is_empty() || body.starts_with('#') {
            continue;
        }
        let this_indent = line.len() - body.len();
        if body.starts_with("- ") && this_indent == indent {
            continue; // a sibling item
        }
        if this_indent <= indent {
            let key = body.trim_start_matches("- ").split(':').next()?.trim();
            return body.trim_end().ends_with(':').then(|| key.to_owned());
        }
    }
    None
}

/// True when the line starting at `line_start` sits inside a `requires:` block.
fn in_requires(text: &str, line_start: usize) -> bool {
    let line = text[line_start..].lines().next().unwrap_or("");
    let indent = line.len() - line.trim_start().len();
    for above in text[..line_start].lines().rev() {
        let body = above.trim_start();
        if body.is_empty() || body.starts_with('#') {
            continue;
        }
        let this_indent = above.len() - body.len();
        if this_indent < indent {
            return body.trim_end() == "requires:";
        }
    }
    false
}

fn innermost_agent(index: &Index, file: FileId, offset: u32) -> Option<AgentIndex> {
    let Content::SwarmKit(Artifact::Topology(Topology { agents, .. })) =
        &index.file(file)?.parsed.content
    else {
        return None;
    };
    agents
        .iter()
        .enumerate()
        .filter(|(_, a)| a.range.contains_inclusive(offset))
        .min_by_key(|(_, a)| a.range.len())
        .map(|(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::super::test_support::fixture;
    use super::*;

    const BASE: &str = r#"
//- /w/workspace.yaml
apiVersion: swarmkit/v1
kind: Workspace
metadata:
  id: w
mcp_servers:
  - id: conventions
//- /w/skills/a.yaml
apiVersion: swarmkit/v1
kind: Skill
metadata:
  id: alpha
//- /w/skills/b.yaml
apiVersion: swarmkit/v1
kind: Skill
metadata:
  id: beta
//- /w/archetypes/eng.yaml
apiVersion: swarmkit/v1
kind: Archetype
metadata:
  id: eng
"#;

    fn labels(topology_body: &str) -> Vec<String> {
        let text = format!(
            "{BASE}//- /w/topologies/t.yaml\napiVersion: swarmkit/v1\nkind: Topology\nmetadata:\n  name: t\nagents:\n  root:\n{topology_body}"
        );
        let f = fixture(&text);
        completion(&f.index, f.cursor_file, f.offset)
            .map(|c| c.items.into_iter().map(|i| i.label).collect())
            .unwrap_or_default()
    }

    #[test]
    fn skill_ids_in_a_grant_being_typed() {
        // The workspace's skills, and those the runtime makes up (memory, `topology-<name>`).
        for body in [
            "    id: root\n    skills: [al$0]\n",
            "    id: root\n    skills:\n      - alpha\n      - $0\n",
        ] {
            let labels = labels(body);
            assert!(
                labels.starts_with(&["alpha".to_owned(), "beta".to_owned()]),
                "{labels:?}"
            );
            assert!(labels.contains(&"topology-t".to_owned()), "{labels:?}");
        }
    }

    #[test]
    fn only_held_skills_inside_requires() {
        assert_eq!(
            labels("    id: root\n    skills: [beta]\n    requires:\n      beta: [$0]\n"),
            ["beta"]
        );
        assert_eq!(
            labels("    id: root\n    skills: [beta]\n    requires:\n      be$0\n"),
            ["beta"]
        );
    }

    #[test]
    fn archetypes_and_servers() {
        assert_eq!(labels("    id: root\n    archetype: $0\n"), ["eng"]);
        assert_eq!(
            labels("    id: root\n    skills: [server:conv$0]\n"),
            ["conventions"]
        );
    }
}
