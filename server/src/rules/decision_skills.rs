//! `governance.decision_skills`: the skills the runtime runs at trigger points (before an agent,
//! after its output, between batches, before synthesis), bound in `workspace.yaml` and in
//! topologies. Each binding names a skill of the registry, which must be a decision skill.

use super::rule_doc::RuleDoc;
use super::SwarmKitScope;
use crate::diagnostic::{codes, Diagnostic, Fix};
use crate::model::swarmkit::{DecisionBinding, MEMORY_HOOKS};
use crate::semantics::registry;

/// The category the runtime runs decision skills from (`_workspace_runtime.py`,
/// `WorkspaceRuntime.from_workspace_path`: the skills with `category == "decision"`).
pub const DECISION_CATEGORY: &str = "decision";

pub const RULES: &[RuleDoc] = &[
    RuleDoc {
        code: codes::GOVERNANCE_UNKNOWN_DECISION_SKILL,
        summary: "A `governance.decision_skills` binding names no skill of the workspace.",
        explanation: "A binding's `id` must be a skill of the workspace's registry (the schema says so; \
`memory-reader` and `memory-writer` are the memory hooks and need no skill). Neither `swarmkit validate` nor \
`swarmkit run` checks it, so SwarmKit has no code for it: at run time the binding fails closed. The \
skill-backed governance provider answers every evaluation of an id it does not hold with a `fail` verdict, \
`\"Decision skill '<id>' not found in workspace (blocking)\"` (swarmkit-runtime 1.265.0, \
`governance/_skill_backed.py`, `SkillBackedGovernanceProvider.evaluate_decision_skill`), so a required binding \
rejects every input or output at its trigger; in a workspace with no decision skill at all the default provider \
passes it without running anything (`governance/__init__.py`, `GovernanceProvider.evaluate_decision_skill`). \
Either way the gate you wrote does not run. Fix the id (the message suggests the closest decision skill) or add \
the skill to `skills/`.",
    },
    RuleDoc {
        code: codes::GOVERNANCE_NOT_A_DECISION_SKILL,
        summary: "A `governance.decision_skills` binding names a skill whose category is not `decision`.",
        explanation: "The runtime hands only the skills with `category: decision` to the decision-skill \
judge (`_workspace_runtime.py`, `WorkspaceRuntime.from_workspace_path`, swarmkit-runtime 1.265.0), so a binding \
to any other skill is treated like an unknown id: each evaluation fails as not found, or passes unevaluated \
when the workspace has no decision skill (see `governance.unknown-decision-skill`). SwarmKit reports nothing. \
Bind a decision skill, or set the skill's `category` to `decision` (it then must declare `outputs`).",
    },
];

/// Checks the bindings of one file (`workspace.yaml` or a topology) against the registry.
pub fn check(scope: &SwarmKitScope<'_>, bindings: &[DecisionBinding], out: &mut Vec<Diagnostic>) {
    for binding in bindings {
        let id = &binding.id;
        if MEMORY_HOOKS.contains(&id.value.as_str()) {
            // Handled by the memory subsystem; `memory.disabled-but-bound` covers memory off.
            continue;
        }
        match registry::skill_named(scope.lookup, scope.workspace, &id.value) {
            None => out.push(unknown(scope, binding)),
            Some(skill) if skill.category.as_deref() != Some(DECISION_CATEGORY) => {
                let category = skill
                    .category
                    .as_deref()
                    .map_or("no category".to_owned(), |c| format!("category `{c}`"));
                let decision =
                    registry::granted_by_category(scope.lookup, scope.workspace, DECISION_CATEGORY);
                let mut diagnostic = Diagnostic::new(
                    codes::GOVERNANCE_NOT_A_DECISION_SKILL,
                    scope.file,
                    id.range,
                    format!(
                        "`{}` has {category}, but the runtime judges only with `category: decision` skills, so {}; bind a decision skill or make `{}` one",
                        id.value,
                        run_time_outcome(&decision.ids),
                        id.value
                    ),
                );
                if skill.origin == registry::Origin::File {
                    diagnostic = diagnostic.with_related(
                        skill.file,
                        skill.range,
                        format!("`{}` is defined here", id.value),
                    );
                }
                out.push(diagnostic);
            }
            Some(_) => {}
        }
    }
}

/// What the runtime does with a binding to an id its judge does not hold: with any decision
/// skill in the workspace (the bundled `memory-reconcile` is one) the skill-backed provider
/// fails it; with none, the default provider passes it without running anything.
fn run_time_outcome(decision_skills: &[String]) -> &'static str {
    if decision_skills.is_empty() {
        "at run time this binding runs nothing (with no decision skill in the workspace, each check passes unevaluated)"
    } else {
        "at run time each check of this binding fails closed (`Decision skill not found in workspace (blocking)`)"
    }
}

fn unknown(scope: &SwarmKitScope<'_>, binding: &DecisionBinding) -> Diagnostic {
    let id = &binding.id;
    let decision = registry::granted_by_category(scope.lookup, scope.workspace, DECISION_CATEGORY);
    let candidates = decision
        .ids
        .iter()
        .map(String::as_str)
        .chain(MEMORY_HOOKS.iter().copied());
    let best = scope
        .lookup
        .may_suggest()
        .then(|| super::suggest::closest(&id.value, candidates))
        .flatten();
    let fix = best
        .zip(scope.lookup.file(scope.file))
        .and_then(|(best, entry)| {
            super::fixes::replace_scalar(&entry.text, scope.file, id.range, &id.value, best)
        });
    let outcome = run_time_outcome(&decision.ids);
    let message = match best {
        Some(best) => format!(
            "no skill has the id `{}` in this workspace, so {outcome}; did you mean `{best}`?",
            id.value
        ),
        None => format!(
            "no skill has the id `{}` in this workspace, so {outcome}; fix the id or add a decision skill `skills/{}.yaml`",
            id.value, id.value
        ),
    };
    let mut diagnostic = Diagnostic::new(
        codes::GOVERNANCE_UNKNOWN_DECISION_SKILL,
        scope.file,
        id.range,
        message,
    );
    diagnostic.fixes.extend(fix.map(Fix::preferred));
    diagnostic
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::codes;
    use crate::diagnostic::Diagnostic;
    use crate::index::{Change, Index};
    use std::path::PathBuf;

    const SKILLS: &[(&str, &str)] = &[
        (
            "/w/skills/judge.yaml",
            "apiVersion: swarmkit/v1\nkind: Skill\nmetadata:\n  id: grounding-judge\n  name: judge\n  description: d\ncategory: decision\noutputs:\n  type: object\n  properties:\n    reasoning: {type: string}\nimplementation:\n  type: llm_prompt\n  prompt: judge\n",
        ),
        (
            "/w/skills/say.yaml",
            "apiVersion: swarmkit/v1\nkind: Skill\nmetadata:\n  id: say-hello\n  name: say\n  description: d\ncategory: capability\nimplementation:\n  type: llm_prompt\n  prompt: hi\n",
        ),
    ];

    /// An index of `changes`, and every diagnostic of its files in path order.
    fn checked(changes: Vec<Change>) -> (Index, Vec<Diagnostic>) {
        let mut index = Index::new(&crate::rules::CHECKS);
        index.apply(changes);
        let mut files: Vec<_> = index.files().collect();
        files.sort_by(|a, b| a.path.cmp(&b.path));
        let diagnostics = files
            .iter()
            .flat_map(|entry| index.diagnostics(entry.id))
            .collect();
        (index, diagnostics)
    }

    fn codes(manifest_bindings: &str, topology_bindings: &str) -> Vec<(String, String)> {
        let mut changes: Vec<Change> = SKILLS
            .iter()
            .map(|(path, text)| Change::Set {
                path: PathBuf::from(path),
                text: (*text).into(),
            })
            .collect();
        changes.push(Change::Set {
            path: PathBuf::from("/w/workspace.yaml"),
            text: format!(
                "apiVersion: swarmkit/v1\nkind: Workspace\nmetadata:\n  id: w\n  name: w\ngovernance:\n  provider: mock\n  decision_skills:\n{manifest_bindings}"
            )
            .into(),
        });
        changes.push(Change::Set {
            path: PathBuf::from("/w/topologies/t.yaml"),
            text: format!(
                "apiVersion: swarmkit/v1\nkind: Topology\nmetadata:\n  name: t\n  version: 0.1.0\nagents:\n  root:\n    id: root\n    role: root\n    skills: [say-hello]\ngovernance:\n  decision_skills:\n{topology_bindings}"
            )
            .into(),
        });
        let (index, diagnostics) = checked(changes);
        diagnostics
            .iter()
            .filter(|d| d.code.name().starts_with("governance."))
            .map(|d| {
                let entry = index.file(d.file).expect("file");
                (
                    format!("{} {}", entry.path.display(), d.code),
                    entry.text[d.range.start as usize..d.range.end as usize].to_owned(),
                )
            })
            .collect()
    }

    #[test]
    fn decision_skills_and_memory_hooks_are_silent() {
        let found = codes(
            "    - id: grounding-judge\n      trigger: post_output\n    - id: memory-reader\n      trigger: pre_input\n    - id: memory-reconcile\n      trigger: checkpoint\n",
            "    - id: grounding-judge\n      trigger: pre_input\n      enabled: false\n",
        );
        assert_eq!(found, Vec::<(String, String)>::new());
    }

    #[test]
    fn an_unknown_id_is_reported_where_it_is_bound_with_the_closest_decision_skill() {
        let found = codes(
            "    - id: grounding-judg\n      trigger: post_output\n",
            "    - id: no-such-judge\n      trigger: pre_input\n",
        );
        assert_eq!(
            found,
            vec![
                (
                    "/w/topologies/t.yaml governance.unknown-decision-skill".to_owned(),
                    "no-such-judge".to_owned()
                ),
                (
                    "/w/workspace.yaml governance.unknown-decision-skill".to_owned(),
                    "grounding-judg".to_owned()
                ),
            ]
        );
    }

    #[test]
    fn without_any_decision_skill_the_binding_runs_nothing() {
        let changes = vec![
            Change::Set {
                path: PathBuf::from("/w/workspace.yaml"),
                text: "apiVersion: swarmkit/v1\nkind: Workspace\nmetadata:\n  id: w\n  name: w\nmemory:\n  enabled: false\ngovernance:\n  provider: mock\n  decision_skills:\n    - id: judge\n      trigger: post_output\n".into(),
            },
        ];
        let (_, diagnostics) = checked(changes);
        let messages: Vec<&str> = diagnostics
            .iter()
            .filter(|d| d.code == codes::GOVERNANCE_UNKNOWN_DECISION_SKILL)
            .map(|d| d.message.as_str())
            .collect();
        assert_eq!(messages.len(), 1, "{messages:?}");
        assert!(
            messages[0].contains("each check passes unevaluated"),
            "{}",
            messages[0]
        );
    }

    #[test]
    fn a_skill_of_another_category_is_not_a_decision_skill() {
        let found = codes(
            "    - id: say-hello\n      trigger: post_output\n    - id: governed-memory\n      trigger: post_output\n",
            "    - id: topology-t\n      trigger: pre_input\n",
        );
        assert_eq!(
            found,
            vec![
                (
                    "/w/topologies/t.yaml governance.not-a-decision-skill".to_owned(),
                    "topology-t".to_owned()
                ),
                (
                    "/w/workspace.yaml governance.not-a-decision-skill".to_owned(),
                    "say-hello".to_owned()
                ),
                (
                    "/w/workspace.yaml governance.not-a-decision-skill".to_owned(),
                    "governed-memory".to_owned()
                ),
            ]
        );
    }
}
