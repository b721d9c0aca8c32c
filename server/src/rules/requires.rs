//! `requires:` — per-agent ordering rules over the agent's skills.
//!
//! What the runtime does (SwarmKit 1.191+): before dispatching a guarded skill through the
//! permission gate, it checks that every prerequisite has been called successfully by this agent
//! in this run, and refuses otherwise with an actionable message. Two facts make some rules
//! impossible or empty, and they are what this family is about:
//! - only a successful **MCP tool** call is recorded as "called", so a prerequisite of any other
//!   implementation type is never satisfied and whatever it guards is blocked forever;
//! - only `mcp_tool`, `command` and `agent` skills pass the gate, so a rule guarding an
//!   `llm_prompt` or `composed` skill is never checked.

use super::catalogue::RuleDoc;
use super::grants::{skills_named, EffectiveSkills};
use crate::diagnostic::{Diagnostic, FileId, Severity};
use crate::graph::cycles::Digraph;
use crate::index::Lookup;
use crate::model::swarmkit::{Agent, ImplementationType, RequiresBlock};
use crate::syntax::TextRange;

pub const RULES: &[RuleDoc] = &[
    RuleDoc {
        code: "agent.bad-requires",
        severity: Severity::Error,
        summary: "The `requires:` block is not a map from skill id to a list of skill ids.",
        explanation: "`requires:` maps each guarded skill to the skills that must be called first: \
`requires: {get-build-convention: [list-build-conventions]}`. A lone string, an empty value or a nested map \
is refused. Write the prerequisites as a list, even when there is only one.",
    },
    RuleDoc {
        code: "agent.requires-unknown-skill",
        severity: Severity::Error,
        summary: "A `requires:` rule names a skill the agent does not hold.",
        explanation: "Both sides of a rule must be in the agent's effective skills (its `skills`, or its \
archetype's defaults, plus `skills_additional` and expanded `server:`/`pack:`/abstract grants). A rule over a skill \
the agent cannot call is either a typo or a missing grant. Grant the skill or fix the id.",
    },
    RuleDoc {
        code: "agent.requires-cycle",
        severity: Severity::Error,
        summary: "Skills of one agent require each other in a loop.",
        explanation: "`a requires b, b requires a` blocks both forever: each call is refused until the other has \
succeeded. The agent cannot recover, and at run time nothing says why. The message names the whole loop and each \
edge is a related location; remove one rule of the loop.",
    },
    RuleDoc {
        code: "agent.requires-unsatisfiable",
        severity: Severity::Error,
        summary: "A guarded skill can never be called: a prerequisite can never be recorded as called.",
        explanation: "The runtime records a prerequisite as satisfied only after a successful MCP tool call \
(`implementation.type: mcp_tool`). A prerequisite that is an `llm_prompt`, `composed`, `command` or `agent` skill \
is never recorded, so the skill it guards is refused forever; so is any skill that requires a blocked skill or a \
skill caught in a `requires` cycle. The message walks the whole path to the cause. Make the prerequisite an \
`mcp_tool` skill, or drop the rule.",
    },
    RuleDoc {
        code: "agent.requires-not-enforced",
        severity: Severity::Warning,
        summary: "The guarded skill is dispatched where no gate checks prerequisites.",
        explanation: "Prerequisites are checked in the permission gate that `mcp_tool`, `command` and `agent` \
skills pass through. `llm_prompt` and `composed` skills are dispatched elsewhere, so a rule guarding one reads \
like a guarantee and guards nothing. Guard the MCP tools the skill uses instead, or state the order in the prompt.",
    },
    RuleDoc {
        code: "agent.requires-duplicate",
        severity: Severity::Warning,
        summary: "A prerequisite is listed twice in one rule.",
        explanation: "SwarmKit drops the repeat silently; it changes nothing, and usually means a different skill \
was meant. Remove the repeat or name the skill you meant.",
    },
    RuleDoc {
        code: "agent.requires-parameterised",
        severity: Severity::Error,
        summary: "A `requires:` entry binds arguments (`skill(arg=$x)`), which SwarmKit does not support.",
        explanation: "Rules are unparameterised: `a: [b]` means any successful call of `b` unlocks `a`, whatever \
the arguments. The `name(arg=$x)` form is a proposal, not a feature, and the id with brackets matches no skill. \
Write the bare skill id.",
    },
];

/// Why a guarded skill can never be called.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Blocked {
    /// Its prerequisite `prerequisite` has a type the runtime never records as called.
    NeverRecorded {
        prerequisite: usize,
        kind: ImplementationType,
    },
    /// Its prerequisite lies on a `requires` cycle.
    Cycle { prerequisite: usize },
    /// Its prerequisite is itself blocked.
    Transitive { prerequisite: usize },
}

/// One agent's ordering rules, resolved: the skills they mention, the graph (edges from a
/// guarded skill to its prerequisites), each skill's implementation type, cycles and blocked
/// skills. Shared by the checks and the hover.
#[derive(Clone, Debug, Default)]
pub struct RequiresGraph {
    /// Skill ids in order of first appearance in the block.
    pub skills: Vec<String>,
    /// Where each skill is first written in the block.
    pub ranges: Vec<TextRange>,
    pub graph: Digraph,
    /// Per edge (guarded, prerequisite): the prerequisite's range.
    pub edge_ranges: Vec<((usize, usize), TextRange)>,
    pub types: Vec<Option<ImplementationType>>,
    pub cycles: Vec<Vec<usize>>,
    pub blocked: Vec<Option<Blocked>>,
}

impl RequiresGraph {
    pub fn index_of(&self, skill: &str) -> Option<usize> {
        self.skills.iter().position(|s| s == skill)
    }

    fn node(&mut self, skill: &str, range: TextRange) -> usize {
        self.index_of(skill).unwrap_or_else(|| {
            self.skills.push(skill.to_owned());
            self.ranges.push(range);
            self.graph.edges.push(Vec::new());
            self.skills.len() - 1
        })
    }

    pub fn edge_range(&self, from: usize, to: usize) -> Option<TextRange> {
        self.edge_ranges
            .iter()
            .find(|((a, b), _)| *a == from && *b == to)
            .map(|(_, r)| *r)
    }

    /// Prerequisites of `node`, transitively, nearest first.
    pub fn requires_transitively(&self, node: usize) -> Vec<usize> {
        let mut seen = vec![false; self.skills.len()];
        let mut order = Vec::new();
        let mut queue = std::collections::VecDeque::from([node]);
        seen[node] = true;
        while let Some(n) = queue.pop_front() {
            for &p in &self.graph.edges[n] {
                if !seen[p] {
                    seen[p] = true;
                    order.push(p);
                    queue.push_back(p);
                }
            }
        }
        order
    }

    /// Skills that (directly) require `node`.
    pub fn required_by(&self, node: usize) -> Vec<usize> {
        (0..self.skills.len())
            .filter(|&g| self.graph.edges[g].contains(&node))
            .collect()
    }

    /// A valid call order for `node`: its prerequisites (transitively) first, then itself.
    /// `None` when the node is blocked or on a cycle.
    pub fn call_order(&self, node: usize) -> Option<Vec<usize>> {
        if self.blocked[node].is_some() || self.cycles.iter().any(|c| c.contains(&node)) {
            return None;
        }
        let needed = self.requires_transitively(node);
        let order = self.graph.dependency_order();
        Some(
            order
                .into_iter()
                .filter(|n| *n == node || needed.contains(n))
                .collect(),
        )
    }

    /// "it requires A, which requires B, an llm_prompt skill that the runtime never records as
    /// called" — the path from a blocked skill to the cause.
    pub fn explain_blocked(&self, node: usize) -> String {
        let mut text = String::new();
        let mut current = node;
        let mut steps = 0;
        while let Some(reason) = &self.blocked[current] {
            steps += 1;
            if steps > self.skills.len() + 1 {
                break;
            }
            let (prerequisite, tail) = match reason {
                Blocked::NeverRecorded { prerequisite, kind } => (
                    *prerequisite,
                    Some(format!(
                        ", {} {} skill that the runtime never records as called",
                        article(kind.as_str()),
                        kind.as_str()
                    )),
                ),
                Blocked::Cycle { prerequisite } => {
                    let cycle = self.cycles.iter().find(|c| c.contains(prerequisite));
                    let path = cycle.map_or_else(String::new, |c| {
                        let mut names: Vec<&str> =
                            c.iter().map(|&i| self.skills[i].as_str()).collect();
                        names.push(&self.skills[c[0]]);
                        names.join(" → ")
                    });
                    (
                        *prerequisite,
                        Some(format!(", which is caught in the requires cycle {path}")),
                    )
                }
                Blocked::Transitive { prerequisite } => (*prerequisite, None),
            };
            text.push_str(if current == node {
                "it requires "
            } else {
                ", which requires "
            });
            text.push_str(&self.skills[prerequisite]);
            if let Some(tail) = tail {
                text.push_str(&tail);
                break;
            }
            current = prerequisite;
        }
        text
    }

    /// The chain of (guarded, prerequisite) edges from a blocked node to the cause.
    fn blocked_path(&self, node: usize) -> Vec<(usize, usize)> {
        let mut path = Vec::new();
        let mut current = node;
        while let Some(reason) = &self.blocked[current] {
            let prerequisite = match reason {
                Blocked::NeverRecorded { prerequisite, .. }
                | Blocked::Cycle { prerequisite }
                | Blocked::Transitive { prerequisite } => *prerequisite,
            };
            path.push((current, prerequisite));
            if !matches!(reason, Blocked::Transitive { .. }) || path.len() > self.skills.len() {
                break;
            }
            current = prerequisite;
        }
        path
    }
}

fn article(word: &str) -> &'static str {
    // By sound: "an llm_prompt", "an mcp_tool", "a composed".
    match word.chars().next() {
        Some('a' | 'e' | 'i' | 'o' | 'u' | 'l' | 'm') => "an",
        _ => "a",
    }
}

fn is_parameterised(id: &str) -> bool {
    id.contains('(')
}

/// Builds the requires graph of an agent. Unknown and parameterised entries are left out (they
/// are reported on their own).
pub fn build(
    lookup: &Lookup<'_>,
    workspace: FileId,
    block: &RequiresBlock,
    effective: &EffectiveSkills,
) -> RequiresGraph {
    let mut g = RequiresGraph::default();
    let usable = |id: &str| !is_parameterised(id) && effective.contains(id);
    for rule in &block.rules {
        if !usable(&rule.guarded.value) {
            continue;
        }
        let guarded = g.node(&rule.guarded.value, rule.guarded.range);
        for prerequisite in &rule.prerequisites {
            if !usable(&prerequisite.value) {
                continue;
            }
            let p = g.node(&prerequisite.value, prerequisite.range);
            if !g.graph.edges[guarded].contains(&p) {
                g.graph.add_edge(guarded, p);
                g.edge_ranges.push(((guarded, p), prerequisite.range));
            }
        }
    }
    g.types = g
        .skills
        .iter()
        .map(|id| {
            super::registry::skill_named(lookup, workspace, id).and_then(|s| s.implementation)
        })
        .collect();
    g.cycles = g.graph.cycles();
    let on_cycle = g.graph.on_cycle();
    // Blocked status, settled in dependency order so prerequisites are decided first; nodes on or
    // behind a cycle never enter that order and are settled by the fixpoint below.
    g.blocked = vec![None; g.skills.len()];
    for _ in 0..=g.skills.len() {
        let mut changed = false;
        for node in 0..g.skills.len() {
            // A skill no gate checks is never refused, whatever it requires.
            let ungated = g.types[node].is_some_and(|t| !t.is_gated());
            if on_cycle[node] || ungated || g.blocked[node].is_some() {
                continue;
            }
            let reason = g.graph.edges[node].iter().find_map(|&p| {
                if on_cycle[p] {
                    Some(Blocked::Cycle { prerequisite: p })
                } else if let Some(kind) = g.types[p].filter(|k| !k.records_calls()) {
                    Some(Blocked::NeverRecorded {
                        prerequisite: p,
                        kind,
                    })
                } else if g.blocked[p].is_some() {
                    Some(Blocked::Transitive { prerequisite: p })
                } else {
                    None
                }
            });
            if reason.is_some() {
                g.blocked[node] = reason;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    g
}

pub fn check(
    lookup: &Lookup<'_>,
    workspace: FileId,
    file: FileId,
    agent: &Agent,
    effective: &EffectiveSkills,
    out: &mut Vec<Diagnostic>,
) {
    let Some(block) = &agent.requires else { return };
    if let Some((problem, range)) = block.shape_problem {
        out.push(Diagnostic::new(
            "agent.bad-requires",
            file,
            range,
            format!("`requires:` must map skill ids to lists of skill ids, found {}; e.g. `requires: {{guarded-skill: [prerequisite]}}`", describe(problem)),
        ));
        return;
    }
    let agent_name = agent.label();
    for rule in &block.rules {
        if let Some(problem) = rule.value_shape_problem {
            out.push(Diagnostic::new(
                "agent.bad-requires",
                file,
                rule.value_range,
                format!(
                    "the prerequisites of `{}` must be a list of skill ids, found {}; write `[{}]`",
                    rule.guarded.value,
                    describe(problem),
                    rule.prerequisites
                        .first()
                        .map_or("prerequisite", |p| p.value.as_str())
                ),
            ));
        }
        for (i, entry) in std::iter::once(&rule.guarded)
            .chain(rule.prerequisites.iter())
            .enumerate()
        {
            if is_parameterised(&entry.value) {
                out.push(Diagnostic::new(
                    "agent.requires-parameterised",
                    file,
                    entry.range,
                    format!(
                        "`{}` binds arguments, which `requires:` does not support: a rule means any successful call of the prerequisite; write the bare id `{}`",
                        entry.value,
                        entry.value.split('(').next().unwrap_or("").trim()
                    ),
                ));
            } else if !effective.contains(&entry.value) {
                let role = if i == 0 { "guards" } else { "requires" };
                let suggestion = super::suggest::closest(
                    &entry.value,
                    effective.skills.iter().map(|s| s.id.as_str()),
                )
                .map_or_else(String::new, |best| format!("; did you mean `{best}`?"));
                out.push(Diagnostic::new(
                    "agent.requires-unknown-skill",
                    file,
                    entry.range,
                    format!(
                        "this rule {role} `{}`, which agent `{agent_name}` does not hold{suggestion}; grant it to the agent or fix the id",
                        entry.value
                    ),
                ));
            }
        }
        for (i, prerequisite) in rule.prerequisites.iter().enumerate() {
            if let Some(first) = rule.prerequisites[..i]
                .iter()
                .find(|p| p.value == prerequisite.value)
            {
                out.push(
                    Diagnostic::new(
                        "agent.requires-duplicate",
                        file,
                        prerequisite.range,
                        format!(
                            "`{}` is already a prerequisite of `{}`; remove the repeat",
                            prerequisite.value, rule.guarded.value
                        ),
                    )
                    .with_related(file, first.range, "first listed here"),
                );
            }
        }
    }

    let g = build(lookup, workspace, block, effective);
    for cycle in &g.cycles {
        let mut names: Vec<&str> = cycle.iter().map(|&i| g.skills[i].as_str()).collect();
        names.push(&g.skills[cycle[0]]);
        let mut d = Diagnostic::new(
            "agent.requires-cycle",
            file,
            g.ranges[cycle[0]],
            format!(
                "agent `{agent_name}` can never call these skills: they require each other in a loop, {}; remove one rule of the loop",
                names.join(" → ")
            ),
        );
        for (k, &from) in cycle.iter().enumerate() {
            let to = cycle[(k + 1) % cycle.len()];
            if let Some(range) = g.edge_range(from, to) {
                d = d.with_related(
                    file,
                    range,
                    format!("`{}` requires `{}`", g.skills[from], g.skills[to]),
                );
            }
        }
        out.push(d);
    }
    for rule in &block.rules {
        let Some(node) = g.index_of(&rule.guarded.value) else {
            continue;
        };
        if g.blocked[node].is_some() {
            let mut d = Diagnostic::new(
                "agent.requires-unsatisfiable",
                file,
                rule.guarded.range,
                format!(
                    "agent `{agent_name}` can never call {}: {}; the runtime will refuse it on every try",
                    g.skills[node],
                    g.explain_blocked(node)
                ),
            );
            for (from, to) in g.blocked_path(node) {
                if let Some(range) = g.edge_range(from, to) {
                    d = d.with_related(
                        file,
                        range,
                        format!("`{}` requires `{}`", g.skills[from], g.skills[to]),
                    );
                }
                if let Some(kind) = g.types[to].filter(|k| !k.records_calls()) {
                    if let Some((skill_file, skill)) =
                        skills_named(lookup, workspace, &g.skills[to]).first()
                    {
                        let range = skill
                            .implementation_type
                            .as_ref()
                            .map_or(TextRange::empty(0), |t| t.range);
                        d = d.with_related(
                            *skill_file,
                            range,
                            format!(
                                "`{}` is {} {} skill",
                                g.skills[to],
                                article(kind.as_str()),
                                kind.as_str()
                            ),
                        );
                    }
                }
            }
            out.push(d);
        }
        if let Some(kind) = g.types[node].filter(|k| !k.is_gated()) {
            let mut d = Diagnostic::new(
                "agent.requires-not-enforced",
                file,
                rule.guarded.range,
                format!(
                    "`{}` is {} {} skill, which the runtime dispatches without checking prerequisites, so this rule guards nothing; guard the MCP tools it uses instead",
                    rule.guarded.value,
                    article(kind.as_str()),
                    kind.as_str()
                ),
            );
            if let Some((skill_file, skill)) =
                skills_named(lookup, workspace, &rule.guarded.value).first()
            {
                if let Some(t) = &skill.implementation_type {
                    d = d.with_related(*skill_file, t.range, "its implementation type");
                }
            }
            out.push(d);
        }
    }
}

fn describe(problem: &str) -> String {
    match problem {
        "empty" => "nothing".to_owned(),
        other => format!("{} {other}", article(other)),
    }
}
