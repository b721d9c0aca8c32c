//! Inlay hints in a topology: after each `requires:` rule and each grant of an agent, where the
//! skill stands in the agent's ordering, from the requires analysis the checks use
//! (`semantics::requires::build`): `step N` (the earliest round of a valid call order it can be called
//! in: one more than the longest chain of prerequisites below it), `blocked`, `cycle`,
//! `not enforced` (the runtime dispatches it without checking prerequisites), or `any order`
//! for a granted skill no rule orders.

use crate::diagnostic::FileId;
use crate::index::{Content, Index, Lookup};
use crate::model::swarmkit::{Agent, Artifact, Grant};
use crate::semantics::grants::GrantResolver;
use crate::semantics::requires::{build, RequiresGraph};
use crate::syntax::TextRange;

/// One hint: shown at `offset`, with a one-line label and a longer tooltip.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InlayHint {
    pub offset: u32,
    pub label: String,
    pub tooltip: String,
}

/// What the analysis says of one skill of an agent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Standing {
    Step(usize),
    Blocked,
    Cycle,
    NotEnforced,
    AnyOrder,
}

/// The hints of `file` whose position lies inside `range` (the part of the document the editor
/// shows). Agents whose text lies outside `range` cost nothing beyond skipping them.
pub fn inlay_hints(index: &Index, file: FileId, range: TextRange) -> Vec<InlayHint> {
    let mut out = Vec::new();
    let Some(entry) = index.file(file) else {
        return out;
    };
    let Content::SwarmKit(Artifact::Topology(topology)) = &entry.parsed.content else {
        return out;
    };
    let Some(workspace) = index.workspace_of(file) else {
        return out;
    };
    let lookup = Lookup::new(index);
    let grants = GrantResolver::new(&lookup, workspace);
    for agent in &topology.agents {
        let wanted = |offset: u32| offset >= range.start && offset <= range.end;
        let spots = spots(agent);
        if !spots.iter().any(|(offset, ..)| wanted(*offset)) {
            continue;
        }
        let effective = grants.effective_skills(file, agent, &mut Vec::new());
        let graph = agent
            .requires
            .as_ref()
            .map(|block| build(&lookup, workspace, block, &effective))
            .unwrap_or_default();
        let steps = steps(&graph);
        for (offset, id, is_rule) in spots {
            if !wanted(offset) {
                continue;
            }
            let standing = standing(&graph, &steps, id);
            // A rule on a skill the agent does not hold is reported as such; no hint to add.
            if is_rule && standing == Standing::AnyOrder {
                continue;
            }
            out.push(hint(offset, id, standing));
        }
    }
    out.sort_by_key(|h| h.offset);
    out
}

/// Where an agent's hints go: the end of each rule's value, for its guarded skill, and the end of
/// each grant of a skill by id.
fn spots(agent: &Agent) -> Vec<(u32, &str, bool)> {
    let mut out = Vec::new();
    if let Some(block) = &agent.requires {
        for rule in &block.rules {
            out.push((rule.value_range.end, rule.guarded.value.as_str(), true));
        }
    }
    for (_, grants) in [&agent.skills, &agent.skills_additional]
        .into_iter()
        .flatten()
    {
        for grant in grants {
            if let Grant::Skill(id) = grant {
                out.push((id.range.end, id.value.as_str(), false));
            }
        }
    }
    out
}

/// The step of each skill of the graph that a valid call order reaches: prerequisites come
/// before what they guard in `dependency_order`, so one pass settles them (linear in the rules).
fn steps(graph: &RequiresGraph) -> Vec<Option<usize>> {
    let mut steps = vec![None; graph.skills.len()];
    for node in graph.graph.dependency_order() {
        let below = graph.graph.edges[node]
            .iter()
            .filter_map(|&p| steps[p])
            .max()
            .unwrap_or(0);
        steps[node] = Some(below + 1);
    }
    steps
}

fn standing(graph: &RequiresGraph, steps: &[Option<usize>], id: &str) -> Standing {
    let Some(node) = graph.index_of(id) else {
        return Standing::AnyOrder;
    };
    let guarded = !graph.graph.edges[node].is_empty();
    if guarded && graph.types[node].is_some_and(|kind| !kind.is_gated()) {
        return Standing::NotEnforced;
    }
    if graph.on_cycle(node) {
        return Standing::Cycle;
    }
    if graph.blocked[node].is_some() {
        return Standing::Blocked;
    }
    match steps[node] {
        Some(step) => Standing::Step(step),
        None => Standing::Blocked,
    }
}

fn hint(offset: u32, id: &str, standing: Standing) -> InlayHint {
    let (label, tooltip) = match standing {
        Standing::Step(1) => (
            "step 1".to_owned(),
            format!("`{id}` has no prerequisites: it can be called first"),
        ),
        Standing::Step(n) => (
            format!("step {n}"),
            format!(
                "`{id}` can be called at step {n} of a valid call order, once its prerequisites (a chain of {} below it) have succeeded",
                n - 1
            ),
        ),
        Standing::Blocked => (
            "blocked".to_owned(),
            format!("`{id}` can never be called: a prerequisite can never be satisfied (hover the rule for why)"),
        ),
        Standing::Cycle => (
            "cycle".to_owned(),
            format!("`{id}` is caught in a requires cycle, so it can never be called"),
        ),
        Standing::NotEnforced => (
            "not enforced".to_owned(),
            format!("the runtime dispatches `{id}` without checking prerequisites, so its rule guards nothing"),
        ),
        Standing::AnyOrder => (
            "any order".to_owned(),
            format!("no rule of this agent orders `{id}`"),
        ),
    };
    InlayHint {
        offset,
        label,
        tooltip,
    }
}

#[cfg(test)]
mod tests {
    use std::sync::LazyLock;

    use super::super::test_support::{
        artifact_w, fixture, mcp_tool_skill_w, topology_w, workspace_w,
    };
    use super::*;

    static WS: LazyLock<String> = LazyLock::new(|| {
        [
            workspace_w(&["s"]),
            mcp_tool_skill_w("a", "a", "s", "a"),
            mcp_tool_skill_w("b", "b", "s", "b"),
            mcp_tool_skill_w("c", "c", "s", "c"),
            artifact_w("skills/p.yaml", "Skill", "p"),
            "category: capability\nimplementation:\n  type: llm_prompt\n".to_owned(),
            topology_w("t", "t"),
            r#"    id: root$0
    role: root
    skills: [a, b, c, p, "步"]
    requires:
      c: [b]
      b: [a]
      p: [a]
      z: [a]
"#
            .to_owned(),
        ]
        .concat()
    });

    /// `written text before the hint: label`, in order.
    fn hints(text: &str, range: Option<TextRange>) -> Vec<String> {
        let f = fixture(text);
        let entry = f.index.file(f.cursor_file).unwrap();
        let range = range.unwrap_or(TextRange::new(0, entry.text.len() as u32));
        inlay_hints(&f.index, f.cursor_file, range)
            .into_iter()
            .map(|h| {
                let line_start = entry.text[..h.offset as usize].rfind('\n').unwrap() + 1;
                format!(
                    "{}: {}",
                    entry.text[line_start..h.offset as usize].trim(),
                    h.label
                )
            })
            .collect()
    }

    #[test]
    fn steps_and_not_enforced_from_the_requires_analysis() {
        assert_eq!(
            hints(&WS, None),
            [
                "skills: [a: step 1",
                "skills: [a, b: step 2",
                "skills: [a, b, c: step 3",
                "skills: [a, b, c, p: not enforced",
                "skills: [a, b, c, p, \"步\": any order",
                "c: [b]: step 3",
                "b: [a]: step 2",
                "p: [a]: not enforced",
            ]
        );
    }

    #[test]
    fn cycles_and_blocked_skills() {
        let text = WS.replace("b: [a]", "b: [c]").replace("p: [a]", "a: [p]");
        let got = hints(&text, None);
        assert!(got.contains(&"c: [b]: cycle".to_owned()), "{got:?}");
        assert!(got.contains(&"b: [c]: cycle".to_owned()), "{got:?}");
        assert!(got.contains(&"a: [p]: blocked".to_owned()), "{got:?}");
    }

    #[test]
    fn only_the_requested_range() {
        let f = fixture(&WS);
        let text = &f.index.file(f.cursor_file).unwrap().text;
        let start = text.find("requires:").unwrap() as u32;
        let got = hints(&WS, Some(TextRange::new(start, start + 40)));
        assert_eq!(got, ["c: [b]: step 3", "b: [a]: step 2"]);
    }

    #[test]
    fn a_long_line_of_grants_is_linear_and_proportional() {
        let grants: Vec<&str> = std::iter::repeat_n("c", 200_000).collect();
        let text = WS.replace(
            r#"[a, b, c, p, "步"]"#,
            &format!("[a, b, {}]", grants.join(", ")),
        );
        let f = fixture(&text);
        let entry = f.index.file(f.cursor_file).unwrap();
        let all = inlay_hints(
            &f.index,
            f.cursor_file,
            TextRange::new(0, entry.text.len() as u32),
        );
        // Every grant, and the rules on the held `c` and `b` (`p` and `z` are not held here).
        assert_eq!(all.len(), 200_000 + 2 + 2);
    }
}
