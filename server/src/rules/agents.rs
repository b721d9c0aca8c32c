//! The agent tree of a topology: unique agent ids, roles, archetype and funnel references,
//! grants, `depends_on` ordering, and (through `requires`) the ordering rules of each agent.

use std::collections::{HashMap, HashSet};

use super::grants::check_duplicate_grants;
use super::rule_doc::RuleDoc;
use super::SwarmKitScope;
use crate::diagnostic::{codes, Diagnostic, FileId, Fix};
use crate::graph::path;
use crate::index::Lookup;
use crate::model::swarmkit::{ArtifactKind, Topology};
use crate::semantics::depends_on::{
    depends_on_entries, depends_on_graph, Dependency, DependsOnEntries,
};
use crate::semantics::grants::GrantResolver;

pub const RULES: &[RuleDoc] = &[
    RuleDoc {
        code: codes::AGENT_DUPLICATE_ID,
        summary: "Two agents of one topology share an id.",
        explanation: "Agent ids are unique across the whole topology tree, not only among siblings: delegation, \
`depends_on` and the audit trail all name agents by id. Rename one; the related location is the other agent.",
    },
    RuleDoc {
        code: codes::AGENT_BAD_ROLE,
        summary: "An agent's role does not fit where it sits in the tree.",
        explanation: "The agent under `agents.root` has role `root`, and every agent below it is a `leader` or a \
`worker`. The runtime builds delegation from these roles, so a second root or a root that is not `root` is \
refused. Change the role.",
    },
    RuleDoc {
        code: codes::AGENT_DEPENDS_ON_SELF,
        summary: "An agent lists itself in `depends_on`.",
        explanation: "`depends_on` says which sibling agents must finish first; an agent waiting for itself never \
starts. Remove the entry.",
    },
    RuleDoc {
        code: codes::AGENT_DEPENDS_ON_UNKNOWN,
        summary: "`depends_on` names an agent id that is not in the topology.",
        explanation: "Entries of `depends_on` are agent ids of the same topology. Fix the id; the message \
suggests the closest.",
    },
    RuleDoc {
        code: codes::AGENT_DEPENDS_ON_CYCLE,
        summary: "Agents wait for each other in a loop through `depends_on`.",
        explanation: "Each agent on the loop waits for the next, so none of them ever runs. The message names the \
shortest loop through the tangle's first agent (first and last hops of a long one, with a count of the rest) and \
each edge is a related location; a tangle of several loops is reported once, naming its agents. Remove one edge \
of each loop.",
    },
];

pub fn check(scope: &SwarmKitScope<'_>, topology: &Topology, out: &mut Vec<Diagnostic>) {
    check_duplicate_agent_ids(scope.file, topology, out);
    // One resolver for the file: an archetype's defaults are resolved once for all the agents
    // inheriting them.
    let grants = GrantResolver::new(scope.lookup, scope.workspace);
    for agent in &topology.agents {
        // Roles: the root agent is `root` and only it. SwarmKit does not compare an agent's role
        // with its archetype's, so neither do we.
        if let Some(role) = &agent.role {
            let misplaced = match (agent.parent.is_none(), role.value.as_str()) {
                (true, r) if r != "root" => {
                    Some("the top agent of a topology must have role `root`")
                }
                (false, "root") => {
                    Some("only the top agent may have role `root`; use `leader` or `worker`")
                }
                _ => None,
            };
            if let Some(problem) = misplaced {
                out.push(Diagnostic::new(
                    codes::AGENT_BAD_ROLE,
                    scope.file,
                    role.range,
                    format!(
                        "agent `{}` has role `{}`: {problem}",
                        agent.label(),
                        role.value
                    ),
                ));
            }
        }
        let references = [
            (
                &agent.archetype,
                ArtifactKind::Archetype,
                codes::AGENT_UNKNOWN_ARCHETYPE,
            ),
            (
                &agent.funnel,
                ArtifactKind::Funnel,
                codes::AGENT_UNKNOWN_FUNNEL,
            ),
        ];
        for (reference, kind, code) in references {
            if let Some(id) = reference {
                super::ids::check_reference(scope, kind, id, code, out);
            }
        }
        super::output_schema::check(scope, agent, out);
        let effective = grants.effective_skills(scope.file, agent, out);
        check_duplicate_grants(
            scope.file,
            scope.lookup.file(scope.file).map(|e| &*e.text),
            agent,
            &effective,
            out,
        );
        super::requires::check(scope, agent, &effective, out);
    }
    check_depends_on(scope.lookup, scope.file, topology, out);
}

/// The advice ending a `depends_on` loop's message.
const DEPENDS_ON_LOOPS: path::LoopWords = path::LoopWords {
    nodes: "agents",
    untangle: "remove entries",
    break_one: "remove one `depends_on` entry",
};

fn check_duplicate_agent_ids(file: FileId, topology: &Topology, out: &mut Vec<Diagnostic>) {
    let mut first_seen: HashMap<&str, &crate::model::SpannedStr> = HashMap::new();
    for agent in &topology.agents {
        let Some(id) = &agent.id else { continue };
        match first_seen.get(id.value.as_str()) {
            Some(first) => out.push(
                Diagnostic::new(
                    codes::AGENT_DUPLICATE_ID,
                    file,
                    id.range,
                    format!("another agent of this topology already has the id `{}`; agent ids are unique across the whole tree, so rename one", id.value),
                )
                .with_related(file, first.range, format!("`{}` first used here", id.value)),
            ),
            None => {
                first_seen.insert(&id.value, id);
            }
        }
    }
}

fn check_depends_on(
    lookup: &Lookup<'_>,
    file: FileId,
    topology: &Topology,
    out: &mut Vec<Diagnostic>,
) {
    let text = lookup.file(file).map(|e| &*e.text);
    let DependsOnEntries { index_of, entries } = depends_on_entries(topology);
    // For "did you mean": the agent ids sorted once, and what each agent already names.
    let agent_ids = std::cell::OnceCell::new();
    let named = std::cell::OnceCell::new();
    let named_by = |i: usize, id: &str| {
        named
            .get_or_init(|| {
                entries
                    .iter()
                    .map(|(i, dependency, _)| (*i, dependency.value.as_str()))
                    .collect::<HashSet<(usize, &str)>>()
            })
            .contains(&(i, id))
    };
    for (i, dependency, target) in &entries {
        let i = *i;
        let agent = &topology.agents[i];
        match target {
            Dependency::Itself => {
                let mut diagnostic = Diagnostic::new(
                    codes::AGENT_DEPENDS_ON_SELF,
                    file,
                    dependency.range,
                    format!(
                        "agent `{}` depends on itself, so it would never start; remove this entry",
                        agent.label()
                    ),
                );
                let removal = text.and_then(|text| {
                    super::fixes::remove_item(text, dependency.range, &dependency.value)
                });
                diagnostic.fixes.extend(removal.map(|range| {
                    Fix::replace("Remove this entry", file, range, "")
                        .preferred()
                        .safe()
                }));
                out.push(diagnostic);
            }
            Dependency::Agent(_) => {}
            Dependency::Unknown => {
                let best = lookup
                    .may_suggest()
                    .then(|| {
                        agent_ids
                            .get_or_init(|| super::suggest::Nearest::new(index_of.keys().copied()))
                            .closest(&dependency.value)
                    })
                    .flatten()
                    // Never suggest the agent itself: that would be a self-dependency.
                    .filter(|best| agent.id.as_ref().is_none_or(|id| id.value != *best))
                    // Nor one it depends on already: the entry would be a repeat.
                    .filter(|best| !named_by(i, best));
                let suggestion =
                    best.map_or_else(String::new, |best| format!("; did you mean `{best}`?"));
                let mut diagnostic = Diagnostic::new(
                    codes::AGENT_DEPENDS_ON_UNKNOWN,
                    file,
                    dependency.range,
                    format!(
                        "no agent of this topology has the id `{}`{suggestion}",
                        dependency.value
                    ),
                );
                let fix = best.zip(text).and_then(|(best, text)| {
                    super::fixes::replace_scalar(
                        text,
                        file,
                        dependency.range,
                        &dependency.value,
                        best,
                    )
                });
                diagnostic.fixes.extend(fix.map(Fix::preferred));
                out.push(diagnostic);
            }
        }
    }
    // A self-dependency is also a one-agent loop, which SwarmKit reports as a cycle too.
    let graph = depends_on_graph(topology);
    let components = graph.components();
    for cycle in graph.cycles_of(&components) {
        let label = |k: usize| topology.agents[cycle[k % cycle.len()]].label();
        // The entry of agent `k` of the loop that names the next one.
        let edge = |k: usize| {
            let target = label(k + 1);
            topology.agents[cycle[k]]
                .depends_on
                .iter()
                .find(|d| d.value == target)
        };
        let names: Vec<&str> = (0..=cycle.len()).map(label).collect();
        let tangle = &components.members[components.of[cycle[0]]];
        let advice = DEPENDS_ON_LOOPS.advice(cycle.len(), tangle, |i| topology.agents[i].label());
        let range = edge(0).map_or(topology.agents[cycle[0]].anchor_range, |d| d.range);
        let mut d = Diagnostic::new(
            codes::AGENT_DEPENDS_ON_CYCLE,
            file,
            range,
            format!(
                "these agents wait for each other in a loop, so none of them runs: {}{advice}",
                path::render(&names)
            ),
        );
        for k in path::related_hops(cycle.len()) {
            if let Some(entry) = edge(k) {
                d = d.with_related(
                    file,
                    entry.range,
                    format!("`{}` depends on `{}`", label(k), label(k + 1)),
                );
            }
        }
        out.push(d);
    }
}
