//! `requires:` — the checks on per-agent ordering rules (the graph they are judged on, and what
//! the runtime does with them, are in `semantics::requires`).

use super::rule_doc::RuleDoc;
use super::SwarmKitScope;
use crate::diagnostic::{codes, Diagnostic, Fix};
use crate::semantics::grants::{skills_named, EffectiveSkills};
use crate::semantics::requires::{article, build, is_parameterised, RequiresGraph};
use std::collections::HashMap;

use crate::graph::path;
use crate::model::swarmkit::{Agent, RequiresBlock};
use crate::syntax::TextRange;

pub const RULES: &[RuleDoc] = &[
    RuleDoc {
        code: codes::AGENT_BAD_REQUIRES,
        summary: "The `requires:` block is not a map from skill id to a list of skill ids.",
        explanation: "`requires:` maps each guarded skill to the skills that must be called first: \
`requires: {get-build-convention: [list-build-conventions]}`. A lone string, an empty value or a nested map \
is refused. Write the prerequisites as a list, even when there is only one.",
    },
    RuleDoc {
        code: codes::AGENT_REQUIRES_UNKNOWN_SKILL,
        summary: "A `requires:` rule names a skill the agent does not hold.",
        explanation: "Both sides of a rule must be in the agent's effective skills (its `skills`, or its \
archetype's defaults, plus `skills_additional` and expanded `server:`/`pack:`/abstract grants). A rule over a skill \
the agent cannot call is either a typo or a missing grant. Grant the skill or fix the id.",
    },
    RuleDoc {
        code: codes::AGENT_REQUIRES_CYCLE,
        summary: "Skills of one agent require each other in a loop.",
        explanation: "`a requires b, b requires a` blocks both forever: each call is refused until the other has \
succeeded. The agent cannot recover, and at run time nothing says why. Each tangle of rules requiring each other is \
reported once, on its first skill, with the shortest loop through it (a long loop shows its first and last hops \
and how many are left out) and a related location per edge; when the tangle holds more loops, the message names \
its skills. Remove one rule of each loop.",
    },
    RuleDoc {
        code: codes::AGENT_REQUIRES_UNSATISFIABLE,
        summary: "A guarded skill can never be called: a prerequisite can never be recorded as called.",
        explanation: "The runtime records a prerequisite as satisfied only after a successful MCP tool call \
(`implementation.type: mcp_tool`). A prerequisite that is an `llm_prompt`, `composed`, `command` or `agent` skill \
is never recorded, so the skill it guards is refused forever; so is any skill that requires a blocked skill or a \
skill caught in a `requires` cycle. The message walks the path to the root cause (a long path shows its first hops, \
how many are left out, and the last hop). Make the prerequisite an \
`mcp_tool` skill, or drop the rule.",
    },
    RuleDoc {
        code: codes::AGENT_REQUIRES_NOT_ENFORCED,
        summary: "The guarded skill is dispatched where no gate checks prerequisites.",
        explanation: "Prerequisites are checked in the permission gate that `mcp_tool`, `command` and `agent` \
skills pass through. `llm_prompt` and `composed` skills are dispatched elsewhere, so a rule guarding one reads \
like a guarantee and guards nothing. Guard the MCP tools the skill uses instead, or state the order in the prompt.",
    },
    RuleDoc {
        code: codes::AGENT_REQUIRES_DUPLICATE,
        summary: "A prerequisite is listed twice in one rule.",
        explanation: "SwarmKit drops the repeat silently; it changes nothing, and usually means a different skill \
was meant. Remove the repeat or name the skill you meant.",
    },
    RuleDoc {
        code: codes::AGENT_REQUIRES_PARAMETERISED,
        summary: "A `requires:` entry binds arguments (`skill(arg=$x)`), which SwarmKit does not support.",
        explanation: "Rules are unparameterised: `a: [b]` means any successful call of `b` unlocks `a`, whatever \
the arguments. The `name(arg=$x)` form is a proposal, not a feature, and the id with brackets matches no skill. \
Write the bare skill id.",
    },
];

/// The advice ending the message of a loop of `requires` rules.
const REQUIRES_LOOPS: path::LoopWords = path::LoopWords {
    nodes: "skills that require each other",
    untangle: "remove rules",
    break_one: "remove one rule of the loop",
};

pub fn check(
    scope: &SwarmKitScope<'_>,
    agent: &Agent,
    effective: &EffectiveSkills<'_, '_>,
    out: &mut Vec<Diagnostic>,
) {
    let Some(block) = &agent.requires else { return };
    if let Some((problem, range)) = block.shape_problem {
        out.push(Diagnostic::new(
            codes::AGENT_BAD_REQUIRES,
            scope.file,
            range,
            format!("`requires:` must map skill ids to lists of skill ids, found {}; e.g. `requires: {{guarded-skill: [prerequisite]}}`", describe(problem)),
        ));
        return;
    }
    let agent_name = agent.label();
    let text = scope.lookup.file(scope.file).map(|e| &*e.text);
    // (diagnostic, missing id, fix): offered once it is known not to make other rules fail.
    let mut grant_fixes: Vec<(usize, String, Fix)> = Vec::new();
    for rule in &block.rules {
        if let Some(problem) = rule.value_shape_problem {
            out.push(Diagnostic::new(
                codes::AGENT_BAD_REQUIRES,
                scope.file,
                rule.value_range,
                format!(
                    "the prerequisites of `{}` must be a list of skill ids, found {}; write `{}`",
                    rule.guarded.value,
                    describe(problem),
                    rule.prerequisites
                        .first()
                        .and_then(|p| super::fixes::flow_list(&p.value))
                        .unwrap_or_else(|| "[prerequisite]".to_owned())
                ),
            ));
        }
        for (i, entry) in std::iter::once(&rule.guarded)
            .chain(rule.prerequisites.iter())
            .enumerate()
        {
            if is_parameterised(&entry.value) {
                let bare = entry.value.split('(').next().unwrap_or("").trim();
                let diagnostic = Diagnostic::new(
                    codes::AGENT_REQUIRES_PARAMETERISED,
                    scope.file,
                    entry.range,
                    format!(
                        "`{}` binds arguments, which `requires:` does not support: a rule means any successful call of the prerequisite; write the bare id `{bare}`",
                        entry.value,
                    ),
                );
                // No fix: the bare id makes the rule take effect, which can make other rules
                // unsatisfiable; that is a decision to take knowingly.
                out.push(diagnostic);
            } else if !effective.contains(&entry.value) {
                let role = if i == 0 { "guards" } else { "requires" };
                let best = scope
                    .lookup
                    .may_suggest()
                    .then(|| effective.closest(&entry.value))
                    .flatten();
                let suggestion =
                    best.map_or_else(String::new, |best| format!("; did you mean `{best}`?"));
                let mut diagnostic = Diagnostic::new(
                    codes::AGENT_REQUIRES_UNKNOWN_SKILL,
                    scope.file,
                    entry.range,
                    format!(
                        "this rule {role} `{}`, which agent `{agent_name}` does not hold{suggestion}; grant it to the agent or fix the id",
                        entry.value
                    ),
                );
                if let Some(text) = text {
                    let replace = best.and_then(|best| {
                        super::fixes::replace_scalar(
                            text,
                            scope.file,
                            entry.range,
                            &entry.value,
                            best,
                        )
                    });
                    diagnostic.fixes.extend(replace.map(Fix::preferred));
                    if let Some(fix) = grant_fix(scope, text, agent, &entry.value) {
                        grant_fixes.push((out.len(), entry.value.clone(), fix));
                    }
                }
                out.push(diagnostic);
            }
        }
        let mut first_listed: HashMap<&str, TextRange> = HashMap::new();
        for prerequisite in &rule.prerequisites {
            match first_listed.entry(prerequisite.value.as_str()) {
                std::collections::hash_map::Entry::Vacant(slot) => {
                    slot.insert(prerequisite.range);
                }
                std::collections::hash_map::Entry::Occupied(first) => {
                    let mut diagnostic = Diagnostic::new(
                        codes::AGENT_REQUIRES_DUPLICATE,
                        scope.file,
                        prerequisite.range,
                        format!(
                            "`{}` is already a prerequisite of `{}`; remove the repeat",
                            prerequisite.value, rule.guarded.value
                        ),
                    )
                    .with_related(
                        scope.file,
                        *first.get(),
                        "first listed here",
                    );
                    let removal = text.and_then(|text| {
                        super::fixes::remove_item(text, prerequisite.range, &prerequisite.value)
                    });
                    diagnostic.fixes.extend(removal.map(|range| {
                        Fix::replace(
                            format!("Remove the repeated `{}`", prerequisite.value),
                            scope.file,
                            range,
                            "",
                        )
                        .preferred()
                        .safe()
                    }));
                    out.push(diagnostic);
                }
            }
        }
    }

    let g = build(scope.lookup, scope.workspace, block, effective);
    // A grant that makes a rule take effect can make it (or another) fail: a prerequisite that
    // is never recorded as called, a loop. Such a grant is a decision, not a fix. Each distinct
    // missing id costs one more graph over this agent's rules, on error paths only.
    if !grant_fixes.is_empty() {
        let problems = graph_problems(&g, block);
        let mut verdicts: HashMap<String, bool> = HashMap::new();
        for (at, id, fix) in grant_fixes {
            let harmless = *verdicts.entry(id.clone()).or_insert_with(|| {
                let granted = effective.with_additional(&id, scope.file);
                graph_problems(
                    &build(scope.lookup, scope.workspace, block, &granted),
                    block,
                ) == problems
            });
            if harmless {
                out[at].fixes.push(fix);
            }
        }
    }
    for cycle in &g.cycles {
        let members = &g.components.members[g.components.of[cycle[0]]];
        let advice = REQUIRES_LOOPS.advice(cycle.len(), members, |i| g.skills[i].as_str());
        let mut d = Diagnostic::new(
            codes::AGENT_REQUIRES_CYCLE,
            scope.file,
            g.ranges[cycle[0]],
            format!(
                "agent `{agent_name}` can never call these skills: they require each other in a loop, {}{advice}",
                g.cycle_text(cycle)
            ),
        );
        for k in path::related_hops(cycle.len()) {
            let (from, to) = (cycle[k], cycle[(k + 1) % cycle.len()]);
            if let Some(range) = g.edge_range(from, to) {
                d = d.with_related(
                    scope.file,
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
                codes::AGENT_REQUIRES_UNSATISFIABLE,
                scope.file,
                rule.guarded.range,
                format!(
                    "agent `{agent_name}` can never call {}: {}; the runtime will refuse it on every try",
                    g.skills[node],
                    g.explain_blocked(node)
                ),
            );
            let (edges, _) = g.shown_blocked_path(node);
            for &(from, to) in &edges {
                if let Some(range) = g.edge_range(from, to) {
                    d = d.with_related(
                        scope.file,
                        range,
                        format!("`{}` requires `{}`", g.skills[from], g.skills[to]),
                    );
                }
            }
            // The root cause: the prerequisite's implementation type.
            if let Some(&(_, to)) = edges.last() {
                if let Some(kind) = g.types[to].filter(|k| !k.records_calls()) {
                    if let Some((skill_file, skill)) =
                        skills_named(scope.lookup, scope.workspace, &g.skills[to]).first()
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
                codes::AGENT_REQUIRES_NOT_ENFORCED,
                scope.file,
                rule.guarded.range,
                format!(
                    "`{}` is {} {} skill, which the runtime dispatches without checking prerequisites, so this rule guards nothing; guard the MCP tools it uses instead",
                    rule.guarded.value,
                    article(kind.as_str()),
                    kind.as_str()
                ),
            );
            if let Some((skill_file, skill)) =
                skills_named(scope.lookup, scope.workspace, &rule.guarded.value).first()
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

/// "Grant `x` to agent `a`": appends a skill the workspace has to the agent's own grant list
/// (`skills_additional` when it has one, else `skills`). An agent granting nothing of its own
/// gets no fix: a new `skills:` would replace what its archetype grants.
fn grant_fix(scope: &SwarmKitScope<'_>, text: &str, agent: &Agent, id: &str) -> Option<Fix> {
    crate::semantics::registry::skill_named(scope.lookup, scope.workspace, id)?;
    let (_, grants) = agent.skills_additional.as_ref().or(agent.skills.as_ref())?;
    let ranges: Vec<TextRange> = grants.iter().map(|g| g.range()).collect();
    let (at, insert) = super::fixes::append_item(text, &ranges, id)?;
    Some(Fix::replace(
        format!("Grant `{id}` to agent `{}`", agent.label()),
        scope.file,
        at,
        insert,
    ))
}

/// How many cycle, unsatisfiable and not-enforced diagnostics a graph of `block` gives.
fn graph_problems(g: &RequiresGraph, block: &RequiresBlock) -> usize {
    let per_rule: usize = block
        .rules
        .iter()
        .filter_map(|rule| g.index_of(&rule.guarded.value))
        .map(|node| {
            usize::from(g.blocked[node].is_some())
                + usize::from(g.types[node].is_some_and(|k| !k.is_gated()))
        })
        .sum();
    g.cycles.len() + per_rule
}
