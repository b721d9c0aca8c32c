//! Document symbols: the artifact, and for a topology its agents as a tree; a subagent with the
//! skills it preloads. Workspace symbols: every id, SKILL.md skill and subagent by name.

use super::answers::{Symbol, SymbolKind};
use crate::diagnostic::FileId;
use crate::index::{Content, Index};
use crate::model::swarmkit::{AgentIndex, Artifact};
use crate::syntax::TextRange;

pub fn document_symbols(index: &Index, file: FileId) -> Vec<Symbol> {
    let Some(entry) = index.file(file) else {
        return Vec::new();
    };
    let artifact = match &entry.parsed.content {
        Content::SwarmKit(artifact) => artifact,
        Content::SkillMd(skill) => return super::skill_files::document_symbols(entry, skill),
        Content::Prose(prose) => return subagent_symbols(entry, prose).into_iter().collect(),
        _ => return Vec::new(),
    };
    let whole = TextRange::new(0, entry.text.len() as u32);
    let id = artifact.id();
    let mut top = Symbol {
        name: id.map_or_else(|| "(no id)".to_owned(), |i| i.value.clone()),
        detail: Some(artifact.kind().kind_field().to_owned()),
        kind: SymbolKind::Artifact(artifact.kind()),
        range: whole,
        selection_range: id.map_or(TextRange::empty(0), |i| i.range),
        children: Vec::new(),
    };
    match artifact {
        Artifact::Topology(t) if !t.agents.is_empty() => top.children.push(agent_symbol(t, 0)),
        Artifact::Workspace(w) => {
            for s in &w.mcp_servers {
                top.children.push(Symbol {
                    name: s.id.value.clone(),
                    detail: Some("MCP server".to_owned()),
                    kind: SymbolKind::McpServer,
                    range: s.range.cover(s.id.range),
                    selection_range: s.id.range,
                    children: Vec::new(),
                });
            }
        }
        _ => {}
    }
    vec![top]
}

/// A subagent as one symbol (its `name`), holding its `skills:` preloads.
fn subagent_symbols(
    entry: &crate::index::FileEntry,
    prose: &crate::model::prose::Prose,
) -> Option<Symbol> {
    if prose.kind != crate::model::hosts::prose::ProseKind::Subagent {
        return None;
    }
    let name = prose.name.as_ref().filter(|n| !n.value.is_empty())?;
    let children = prose
        .skills
        .iter()
        .map(|skill| Symbol {
            name: skill.value.clone(),
            detail: Some("preloaded skill".to_owned()),
            kind: SymbolKind::SkillMd,
            range: skill.range,
            selection_range: skill.range,
            children: Vec::new(),
        })
        .collect();
    Some(Symbol {
        name: name.value.clone(),
        detail: Some("subagent".to_owned()),
        kind: SymbolKind::Subagent,
        range: TextRange::new(0, entry.text.len() as u32),
        selection_range: name.range,
        children,
    })
}

fn agent_symbol(t: &crate::model::swarmkit::Topology, i: AgentIndex) -> Symbol {
    // Recursion is bounded: the agent tree is no deeper than the YAML nesting the parser caps.
    let agent = &t.agents[i];
    let selection = agent.id.as_ref().map_or(agent.anchor_range, |id| id.range);
    let range = agent.range.cover(agent.anchor_range).cover(selection);
    let children = agent.children.iter().map(|&c| agent_symbol(t, c)).collect();
    Symbol {
        name: agent.label().to_owned(),
        detail: agent.role.as_ref().map(|r| r.value.clone()),
        kind: SymbolKind::Agent,
        range,
        selection_range: selection,
        children,
    }
}

/// A workspace symbol: an id defined somewhere.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorkspaceSymbol {
    /// How well the name matches the query (higher is better).
    pub score: i64,
    pub name: String,
    /// What kind of thing, and where (`Skill`, `agent in estate`).
    pub detail: Option<String>,
    pub kind: SymbolKind,
    pub file: FileId,
    pub range: TextRange,
}

/// Every id defined in the index (artifacts, agents, MCP servers), every SKILL.md skill and every
/// subagent by name, whose name contains `query` (case-insensitively), sorted by name then file.
pub fn workspace_symbols(index: &Index, query: &str) -> Vec<WorkspaceSymbol> {
    let query: Vec<char> = query
        .to_lowercase()
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    let mut out = Vec::new();
    for entry in index.files() {
        if let Content::SkillMd(skill) = &entry.parsed.content {
            if let (Some(name), Some(range)) = (skill.normalized_name(), skill.name_range()) {
                if let Some(score) = fuzzy_score(&query, &name) {
                    out.push(WorkspaceSymbol {
                        score,
                        name,
                        detail: Some("SKILL.md".to_owned()),
                        kind: SymbolKind::SkillMd,
                        file: entry.id,
                        range,
                    });
                }
            }
            continue;
        }
        if let Content::Prose(prose) = &entry.parsed.content {
            if let Some(symbol) = subagent_symbols(entry, prose) {
                if let Some(score) = fuzzy_score(&query, &symbol.name) {
                    out.push(WorkspaceSymbol {
                        score,
                        name: symbol.name,
                        detail: Some("subagent".to_owned()),
                        kind: SymbolKind::Subagent,
                        file: entry.id,
                        range: symbol.selection_range,
                    });
                }
            }
            continue;
        }
        let Content::SwarmKit(artifact) = &entry.parsed.content else {
            continue;
        };
        let mut push = |name: &str, detail: String, kind, range| {
            if let Some(score) = fuzzy_score(&query, name) {
                out.push(WorkspaceSymbol {
                    score,
                    name: name.to_owned(),
                    detail: Some(detail),
                    kind,
                    file: entry.id,
                    range,
                });
            }
        };
        if let Some(id) = artifact.id() {
            push(
                &id.value,
                artifact.kind().kind_field().to_owned(),
                SymbolKind::Artifact(artifact.kind()),
                id.range,
            );
        }
        match artifact {
            Artifact::Topology(t) => {
                let topology = t.name.as_ref().map_or("", |n| n.value.as_str());
                for agent in &t.agents {
                    if let Some(id) = &agent.id {
                        push(
                            &id.value,
                            format!("agent in {topology}"),
                            SymbolKind::Agent,
                            id.range,
                        );
                    }
                }
            }
            Artifact::Workspace(w) => {
                for s in &w.mcp_servers {
                    push(
                        &s.id.value,
                        "MCP server".to_owned(),
                        SymbolKind::McpServer,
                        s.id.range,
                    );
                }
            }
            _ => {}
        }
    }
    // Best match first; ties by name, then place.
    out.sort_by(|a, b| {
        (std::cmp::Reverse(a.score), &a.name, a.file, a.range.start).cmp(&(
            std::cmp::Reverse(b.score),
            &b.name,
            b.file,
            b.range.start,
        ))
    });
    out
}

/// How well `query` (lowercase, no spaces) matches `name` as a subsequence, case-insensitively:
/// `None` when some character of the query is missing, else higher for matches at the start of
/// the name or of a word (after `-`, `_`, `.`, `/` or a space), for consecutive matches, and for
/// shorter names. `rfl` matches `refund-flow` (r, f of "flow", l). Two greedy passes (each query
/// character takes its first match; or its first match at a word start, when there is one), the
/// better one counting: O(query × name) per symbol, so linear in the number of symbols.
fn fuzzy_score(query: &[char], name: &str) -> Option<i64> {
    if query.is_empty() {
        return Some(0);
    }
    let chars: Vec<char> = name
        .chars()
        .map(|c| c.to_lowercase().next().unwrap_or(c))
        .collect();
    let word_start = |i: usize| i == 0 || matches!(chars[i - 1], '-' | '_' | '.' | '/' | ' ');
    let pass = |prefer_word_starts: bool| -> Option<i64> {
        let mut score = 0;
        let mut from = 0;
        let mut last: Option<usize> = None;
        for &q in query {
            let any = (from..chars.len()).find(|&i| chars[i] == q)?;
            let at = if prefer_word_starts {
                (any..chars.len())
                    .find(|&i| chars[i] == q && word_start(i))
                    .unwrap_or(any)
            } else {
                any
            };
            score += 1;
            if at == 0 {
                score += 8;
            } else if word_start(at) {
                score += 6;
            }
            if last.is_some_and(|l| l + 1 == at) {
                score += 4;
            }
            last = Some(at);
            from = at + 1;
        }
        Some(score)
    };
    let best = match (pass(false), pass(true)) {
        (Some(a), Some(b)) => a.max(b),
        (a, b) => a.or(b)?,
    };
    Some(best * 1000 - chars.len() as i64)
}

#[cfg(test)]
mod tests {
    use super::super::test_support::fixture;
    use super::*;
    use crate::model::swarmkit::ArtifactKind;

    fn skill(id: &str) -> String {
        format!("//- /w/skills/{id}.yaml\napiVersion: swarmkit/v1\nkind: Skill\nmetadata:\n  id: {id}\n")
    }

    #[test]
    fn a_subagent_is_a_document_and_a_workspace_symbol() {
        let f = fixture(
            "//- /p/.claude/agents/reviewer.md\n---\nname: reviewer\ndescription: Reviews.\nskills: [lint, pdf-tools]\n---\nBody.$0\n//- /p/CLAUDE.md\nRun /lint.\n",
        );
        let symbols = document_symbols(&f.index, f.cursor_file);
        assert_eq!(symbols.len(), 1);
        assert_eq!(symbols[0].name, "reviewer");
        assert_eq!(symbols[0].kind, SymbolKind::Subagent);
        let children: Vec<&str> = symbols[0]
            .children
            .iter()
            .map(|c| c.name.as_str())
            .collect();
        assert_eq!(children, ["lint", "pdf-tools"]);
        let found = workspace_symbols(&f.index, "revi");
        assert_eq!(found.len(), 1);
        assert_eq!(
            (found[0].name.as_str(), found[0].kind),
            ("reviewer", SymbolKind::Subagent)
        );
        // Instructions are no symbol.
        let claude = f
            .index
            .file_id(std::path::Path::new("/p/CLAUDE.md"))
            .unwrap();
        assert!(document_symbols(&f.index, claude).is_empty());
    }

    #[test]
    fn fuzzy_matches_rank_word_starts_and_short_names_first() {
        let mut text = "//- /w/workspace.yaml\napiVersion: swarmkit/v1\nkind: Workspace\nmetadata:\n  id: w$0\n".to_owned();
        for id in [
            "refund-flow",
            "refund-flow-audit",
            "barfly",
            "rollout-flag-list",
            "search",
        ] {
            text.push_str(&skill(id));
        }
        let f = fixture(&text);
        let names = |query: &str| -> Vec<String> {
            workspace_symbols(&f.index, query)
                .into_iter()
                .map(|s| s.name)
                .collect()
        };
        // Three word starts beat two; then the shorter name; letters inside a word come last.
        assert_eq!(
            names("rfl"),
            [
                "rollout-flag-list",
                "refund-flow",
                "refund-flow-audit",
                "barfly"
            ]
        );
        assert_eq!(names("RFA")[0], "refund-flow-audit");
        assert_eq!(names("fly"), ["barfly"]);
        assert!(names("xyz").is_empty());
        // An empty query lists everything; kinds say what each is.
        let all = workspace_symbols(&f.index, "");
        assert_eq!(all.len(), 6);
        assert!(all
            .iter()
            .any(|s| s.kind == SymbolKind::Artifact(ArtifactKind::Skill)));
    }
}
