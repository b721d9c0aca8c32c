//! Archetypes on their own: the plain skill ids of `defaults.skills` and the executor.

use super::rule_doc::RuleDoc;
use super::SwarmKitScope;
use crate::diagnostic::{codes, Diagnostic};
use crate::index::Key;
use crate::model::swarmkit::{Archetype, ArtifactKind, Grant};
use crate::semantics::grants::{GrantResolver, GrantSource};

/// Executor kinds the runtime knows without a workspace adapter.
pub const BUILT_IN_EXECUTORS: &[&str] = &[
    "model",
    "claude-code",
    "codex",
    "copilot",
    "gemini-cli",
    "opencode",
];

pub const RULES: &[RuleDoc] = &[RuleDoc {
    code: codes::ARCHETYPE_EXECUTOR_INVALID,
    summary: "An archetype's executor names no known executor or adapter.",
    explanation: "`executor.kind` must be `model`, a bundled harness (claude-code, codex, copilot, gemini-cli, \
opencode), `harness` with a `ref` naming an adapter, or the id of an adapter in `adapters/`. Anything else cannot \
run. Fix the kind, or add the adapter.",
}];

pub fn check(scope: &SwarmKitScope<'_>, archetype: &Archetype, out: &mut Vec<Diagnostic>) {
    // Only plain ids are checked on the archetype; bulk and abstract grants are resolved (and
    // reported) per inheriting agent, as SwarmKit does.
    let resolver = GrantResolver::new(scope.lookup, scope.workspace);
    let source = GrantSource::Archetype(
        archetype
            .id
            .as_ref()
            .map_or(String::new(), |i| i.value.clone()),
    );
    let mut expanded = Vec::new();
    for grant in archetype
        .default_skills
        .iter()
        .filter(|g| matches!(g, Grant::Skill(_)))
    {
        resolver.expand(
            grant,
            scope.file,
            codes::ARCHETYPE_UNKNOWN_SKILL,
            &source,
            &mut expanded,
            out,
        );
    }
    check_executor(scope, archetype, out);
}

fn check_executor(scope: &SwarmKitScope<'_>, archetype: &Archetype, out: &mut Vec<Diagnostic>) {
    let Some(executor) = &archetype.executor else {
        return;
    };
    let Some(kind) = &executor.kind else { return }; // the schema requires `kind`
    let adapter_exists = |id: &str| {
        BUILT_IN_EXECUTORS.contains(&id) && id != "model"
            || !scope
                .lookup
                .get(Key::Def {
                    workspace: scope.workspace,
                    kind: ArtifactKind::ExecutorAdapter,
                    id: id.to_owned(),
                })
                .is_empty()
    };
    if kind.value == "harness" {
        match &executor.reference {
            None => out.push(Diagnostic::new(
                codes::ARCHETYPE_EXECUTOR_INVALID,
                scope.file,
                kind.range,
                "a `harness` executor needs `ref:` naming the adapter to run (claude-code, codex, copilot, gemini-cli, opencode, or an adapter in adapters/)",
            )),
            Some(reference) if !adapter_exists(&reference.value) => out.push(Diagnostic::new(
                codes::ARCHETYPE_EXECUTOR_INVALID,
                scope.file,
                reference.range,
                format!("no adapter is called `{}`; use claude-code, codex, copilot, gemini-cli, opencode, or add adapters/{}.yaml", reference.value, reference.value),
            )),
            Some(_) => {}
        }
        return;
    }
    if !BUILT_IN_EXECUTORS.contains(&kind.value.as_str()) && !adapter_exists(&kind.value) {
        out.push(Diagnostic::new(
            codes::ARCHETYPE_EXECUTOR_INVALID,
            scope.file,
            kind.range,
            format!(
                "`{}` is not an executor kind; use model, harness (with ref), {} or the id of an adapter in adapters/",
                kind.value,
                BUILT_IN_EXECUTORS[1..].join(", ")
            ),
        ));
    }
}
