//! Ids across files: duplicates, and references to archetypes, funnels and topologies.

use std::collections::HashMap;

use super::output::Sharing;
use super::rule_doc::RuleDoc;
use super::SwarmKitScope;
use crate::diagnostic::{codes, Code, Diagnostic, FileId, Fix};
use crate::graph::path;
use crate::index::{Key, Lookup};
use crate::model::swarmkit::{Artifact, ArtifactKind};
use crate::model::SpannedStr;

/// `$source` names where swarmkit-runtime 1.265.0 reports the clash (file under
/// `swarmkit_runtime/`, and function), for the note on how its report differs from ours.
macro_rules! duplicate_rule {
    ($code:expr, $what:literal, $source:literal) => {
        RuleDoc {
            code: $code,
            summary: concat!("Two ", $what, " files in one workspace have the same id."),
            explanation: concat!(
                "Ids must be unique per workspace: references go by id, so with two definitions SwarmKit ",
                "refuses the workspace rather than pick one. Each file that defines the id is reported, with ",
                "the other definitions as related locations (the first twenty in path order, and how many ",
                "there are in all). Rename one of them.\n\n",
                "This differs from SwarmKit on purpose. SwarmKit (swarmkit-runtime 1.265.0, ",
                $source,
                ") keeps the first definition it discovers and reports each later one, on the later ",
                "file only. Which file comes first depends on discovery order, not on anything written ",
                "in either file, so skillgraph does not treat either as the right one: every file of ",
                "the clash carries the error, and a (file, code) comparison with `swarmkit validate` ",
                "shows the extra files here."
            ),
        }
    };
}

pub const RULES: &[RuleDoc] = &[
    duplicate_rule!(
        codes::SKILL_DUPLICATE_ID,
        "skill",
        "`skills/__init__.py`, `build_skill_registry`"
    ),
    duplicate_rule!(
        codes::ARCHETYPE_DUPLICATE_ID,
        "archetype",
        "`archetypes/__init__.py`, `build_archetype_registry`"
    ),
    duplicate_rule!(
        codes::TOPOLOGY_DUPLICATE_ID,
        "topology",
        "`resolver/_topology.py`, `build_topology_registry`, where two files of one name clash only when their `metadata.version` is equal too"
    ),
    duplicate_rule!(
        codes::TRIGGER_DUPLICATE_ID,
        "trigger",
        "`resolver/_triggers.py`, `build_trigger_registry`"
    ),
    duplicate_rule!(
        codes::FUNNEL_DUPLICATE_ID,
        "funnel",
        "`resolver/_funnels.py`, `build_funnel_registry`"
    ),
    RuleDoc {
        code: codes::ROLE_DUPLICATE_ID,
        summary: "A role id is declared twice across the workspace's role registries.",
        explanation: "Roles are looked up by id, so a second declaration (in another file of `roles/`, or \
further down the same file) makes it unclear which one applies, and SwarmKit refuses it. The repeat is reported, \
with the first declaration as related location. Remove the repeat or rename it. SwarmKit reports the same \
declaration (swarmkit-runtime 1.265.0, `resolver/_roles.py`, `build_role_registry`: the first declaration of an id \
is kept, each later one is refused on its file).",
    },
    duplicate_rule!(
        codes::CONTRACT_DUPLICATE_ID,
        "contract",
        "`resolver/_contracts.py`, `build_contract_registry`"
    ),
    RuleDoc {
        code: codes::AGENT_UNKNOWN_ARCHETYPE,
        summary: "An agent's `archetype:` names no archetype of the workspace.",
        explanation: "The agent would inherit its model, prompt and default skills from the archetype, so \
SwarmKit refuses it. Fix the id (the message suggests the closest) or add `archetypes/<id>.yaml`.",
    },
    RuleDoc {
        code: codes::AGENT_UNKNOWN_FUNNEL,
        summary: "An agent's `funnel:` names no funnel of the workspace.",
        explanation: "The funnel is the quality gate the agent's output must pass; an unknown id fails \
validation. Fix the id or add `funnels/<id>.yaml`.",
    },
    RuleDoc {
        code: codes::TRIGGER_UNKNOWN_TARGET,
        summary: "A trigger targets a topology that does not exist.",
        explanation: "Each string entry of `targets` is a topology id (`metadata.name` of a file in \
`topologies/`). A trigger firing an unknown topology fails validation. Fix the name or add the topology.",
    },
];

fn duplicate_code(kind: ArtifactKind) -> Option<Code> {
    Some(match kind {
        ArtifactKind::Skill => codes::SKILL_DUPLICATE_ID,
        ArtifactKind::Archetype => codes::ARCHETYPE_DUPLICATE_ID,
        ArtifactKind::Topology => codes::TOPOLOGY_DUPLICATE_ID,
        ArtifactKind::Trigger => codes::TRIGGER_DUPLICATE_ID,
        ArtifactKind::Funnel => codes::FUNNEL_DUPLICATE_ID,
        ArtifactKind::Contract => codes::CONTRACT_DUPLICATE_ID,
        _ => return None,
    })
}

/// `<kind>.duplicate-id` on this file when another file of the workspace defines the same id.
pub fn check_duplicate(scope: &SwarmKitScope<'_>, artifact: &Artifact, out: &mut Vec<Diagnostic>) {
    let (Some(id), Some(code)) = (artifact.id(), duplicate_code(artifact.kind())) else {
        return;
    };
    let definitions = definitions(scope.lookup, scope.workspace, artifact.kind(), &id.value);
    let Some(clashing) = definitions.get(&(artifact.kind(), version_of(artifact))) else {
        return;
    };
    let count = clashing.others_count(scope.file);
    if count == 0 {
        return;
    }
    let mut diagnostic = Diagnostic::new(
        code,
        scope.file,
        id.range,
        format!(
            "the id `{}` is also defined in {} other file{}; ids must be unique in a workspace, so rename one",
            id.value,
            path::thousands(count),
            if count == 1 { "" } else { "s" }
        ),
    );
    // The first twenty in path order: as many places as a reader follows, however many files
    // share the id.
    for (other, range) in clashing.others(scope.file).take(path::MAX_RELATED) {
        if let Some(range) = *range {
            diagnostic =
                diagnostic.with_related(other, range, format!("`{}` also defined here", id.value));
        }
    }
    out.push(diagnostic);
}

/// The files defining one id, by what makes two of them clash (kind and version), each group in
/// path order with where each file writes the id.
type Clashes = HashMap<(ArtifactKind, Option<String>), Sharing<Option<crate::syntax::TextRange>>>;

/// The definitions of one id, gathered once per state of its key and shared by every file
/// defining it: with thousands of files sharing an id, each finds its group by hash and names
/// the first few others, in time independent of how many there are.
fn definitions(
    lookup: &Lookup<'_>,
    workspace: FileId,
    kind: ArtifactKind,
    id: &str,
) -> std::sync::Arc<Clashes> {
    let key = Key::Def {
        workspace,
        kind,
        id: id.to_owned(),
    };
    lookup.memo(key.clone(), |index| {
        // The memo's own read of `key` covers every input: the facts are the contributors'.
        let mut clashes = Clashes::new();
        for entry in Lookup::new(index).get(key) {
            if let crate::index::Content::SwarmKit(a) = &entry.parsed.content {
                clashes
                    .entry((a.kind(), version_of(a)))
                    .or_default()
                    .push(entry.id, a.id().map(|i| i.range));
            }
        }
        clashes
    })
}

/// A topology's version. Topologies register as `name` and `name@version`, so two files of one
/// name clash only when their versions are equal too; other kinds clash on the id alone.
fn version_of(artifact: &Artifact) -> Option<String> {
    match artifact {
        Artifact::Topology(t) => t.version.as_ref().map(|v| v.value.clone()),
        _ => None,
    }
}

/// Reports `code` on `reference` when no artifact of `kind` has that id.
pub fn check_reference(
    scope: &SwarmKitScope<'_>,
    kind: ArtifactKind,
    reference: &SpannedStr,
    code: Code,
    out: &mut Vec<Diagnostic>,
) -> bool {
    let found = !scope
        .lookup
        .get(Key::Def {
            workspace: scope.workspace,
            kind,
            id: reference.value.clone(),
        })
        .is_empty();
    if !found {
        let closest = scope
            .lookup
            .may_suggest()
            .then(|| {
                super::suggest::closest_in(
                    &reference.value,
                    scope.lookup.sorted_ids(scope.workspace, kind),
                )
            })
            .flatten();
        let noun = match kind {
            ArtifactKind::Topology => "topology",
            ArtifactKind::Archetype => "archetype",
            ArtifactKind::Funnel => "funnel",
            ArtifactKind::Skill => "skill",
            _ => "artifact",
        };
        let fix = closest
            .zip(scope.lookup.file(scope.file))
            .and_then(|(best, entry)| {
                super::fixes::replace_scalar(
                    &entry.text,
                    scope.file,
                    reference.range,
                    &reference.value,
                    best,
                )
            });
        let mut diagnostic = Diagnostic::new(
            code,
            scope.file,
            reference.range,
            match closest {
                Some(best) => format!(
                    "no {noun} has the id `{}` in this workspace; did you mean `{best}`?",
                    reference.value
                ),
                None => format!(
                    "no {noun} has the id `{}` in this workspace; fix the id or add `{}/{}.yaml`",
                    reference.value,
                    kind.directory(),
                    reference.value
                ),
            },
        );
        diagnostic.fixes.extend(fix.map(Fix::preferred));
        out.push(diagnostic);
    }
    found
}

/// `role.duplicate-id`: a role declared again after its first declaration (path order, then
/// position), reported on the repeat as SwarmKit does.
pub fn check_roles(scope: &SwarmKitScope<'_>, roles: &[SpannedStr], out: &mut Vec<Diagnostic>) {
    let path = scope.lookup.file(scope.file).map(|f| f.path.clone());
    for (i, role) in roles.iter().enumerate() {
        if let Some(first) = roles[..i].iter().find(|r| r.value == role.value) {
            out.push(
                Diagnostic::new(
                    codes::ROLE_DUPLICATE_ID,
                    scope.file,
                    role.range,
                    format!(
                        "the role `{}` is already declared above; remove this repeat or rename it",
                        role.value
                    ),
                )
                .with_related(
                    scope.file,
                    first.range,
                    format!("`{}` first declared here", role.value),
                ),
            );
            continue;
        }
        let earlier = scope
            .lookup
            .get(Key::Role {
                workspace: scope.workspace,
                id: role.value.clone(),
            })
            .into_iter()
            .find(|entry| entry.id != scope.file && Some(&entry.path) < path.as_ref());
        if let Some(entry) = earlier {
            let range = match &entry.parsed.content {
                crate::index::Content::SwarmKit(Artifact::Other { roles, .. }) => roles
                    .iter()
                    .find(|r| r.value == role.value)
                    .map(|r| r.range),
                _ => None,
            };
            let mut d = Diagnostic::new(
                codes::ROLE_DUPLICATE_ID,
                scope.file,
                role.range,
                format!("the role `{}` is already declared in another role registry; remove this one or rename it", role.value),
            );
            if let Some(range) = range {
                d = d.with_related(
                    entry.id,
                    range,
                    format!("`{}` first declared here", role.value),
                );
            }
            out.push(d);
        }
    }
}
