//! `output_schema:` — the JSON Schema an agent's structured output must satisfy. SwarmKit
//! resolves it when it loads the workspace: a path is read relative to the file that declares it
//! (the topology, or the archetype for an inherited default), must stay inside the workspace and
//! must not be a URL; the schema itself must be a valid JSON Schema.

use std::path::{Component, Path, PathBuf};

use super::rule_doc::RuleDoc;
use crate::diagnostic::{codes, Diagnostic, FileId};
use crate::index::Lookup;
use crate::model::swarmkit::{Agent, OutputSchema};
use crate::semantics::grants::archetype_named;
use crate::syntax::TextRange;

pub const RULES: &[RuleDoc] = &[RuleDoc {
    code: codes::AGENT_OUTPUT_SCHEMA,
    summary: "An agent's output schema cannot be resolved: missing file, outside the workspace, a URL, or not a valid JSON Schema.",
    explanation: "`output_schema` is an inline JSON Schema or a path to one, relative to the file that declares \
it. SwarmKit reads it when it loads the workspace (swarmkit-runtime 1.265.0, `resolve_output_schema` and \
`_resolve_path` in `resolver/_output_schema_ref.py`) and refuses the agent when the file is missing, lies outside \
the workspace, is a URL (a workspace must not depend on the network), does not parse, is not an object, or is \
not a valid schema. A `.yaml` or `.yml` file (any case) is read as YAML, any other as JSON. skillgraph reads \
`.json`, `.yaml` and `.yml` files; a schema file with another suffix is not part of what it reads, so it is \
neither found nor reported missing. An archetype's default is checked for every agent that inherits it (an explicit \
`output_schema: null` opts out). Fix the path or the schema.",
}];

pub fn check(
    lookup: &Lookup<'_>,
    workspace: FileId,
    file: FileId,
    agent: &Agent,
    out: &mut Vec<Diagnostic>,
) {
    let Some(topology) = lookup.file(file) else {
        return;
    };
    let Some(root) = lookup
        .file(workspace)
        .and_then(|m| m.path.parent().map(Path::to_owned))
    else {
        return;
    };
    match &agent.output_schema {
        Some(schema) => {
            let base = topology.path.parent().unwrap_or(&root).to_owned();
            if let Some((range, problem)) = problem(lookup, &root, &base, schema) {
                out.push(Diagnostic::new(
                    codes::AGENT_OUTPUT_SCHEMA,
                    file,
                    range,
                    format!("the output schema of agent `{}` {problem}", agent.label()),
                ));
            }
        }
        None => {
            let Some(archetype_id) = &agent.archetype else {
                return;
            };
            let Some((archetype_file, archetype)) =
                archetype_named(lookup, workspace, &archetype_id.value)
            else {
                return;
            };
            let Some(schema) = &archetype.default_output_schema else {
                return;
            };
            let Some(archetype_path) = lookup.file(archetype_file).map(|f| f.path.clone()) else {
                return;
            };
            let base = archetype_path.parent().unwrap_or(&root).to_owned();
            if let Some((range, problem)) = problem(lookup, &root, &base, schema) {
                out.push(
                    Diagnostic::new(
                        codes::AGENT_OUTPUT_SCHEMA,
                        file,
                        archetype_id.range,
                        format!(
                            "agent `{}` inherits an output schema from archetype `{}` that {problem}; fix the archetype's, or write `output_schema: null` on the agent to opt out",
                            agent.label(),
                            archetype_id.value
                        ),
                    )
                    .with_related(archetype_file, range, "the archetype's output schema"),
                );
            }
        }
    }
}

/// What is wrong with a schema, and where, if anything.
fn problem(
    lookup: &Lookup<'_>,
    root: &Path,
    base: &Path,
    schema: &OutputSchema,
) -> Option<(TextRange, String)> {
    match schema {
        OutputSchema::OptOut { .. } => None,
        OutputSchema::Inline { json, range } => {
            let value: serde_json::Value = serde_json::from_str(json).ok()?;
            invalid_schema(&value).map(|why| (*range, why))
        }
        OutputSchema::Path(path) => {
            let fail = |why: String| Some((path.range, why));
            if path.value.contains("://") {
                return fail(format!("is a URL (`{}`); SwarmKit reads schemas only from files inside the workspace, so save it there", path.value));
            }
            let Some(target) = normalize(&base.join(&path.value)) else {
                return fail(format!(
                    "`{}` leads outside the workspace; keep schema files inside it",
                    path.value
                ));
            };
            if !target.starts_with(root) {
                return fail(format!(
                    "`{}` leads outside the workspace; keep schema files inside it",
                    path.value
                ));
            }
            // `_output_schema_ref.py` (`resolve_output_schema`) parses `.yaml` / `.yml` (any
            // case) as YAML and everything else as JSON.
            let suffix = target
                .extension()
                .map(|e| e.to_string_lossy().to_ascii_lowercase());
            let yaml = matches!(suffix.as_deref(), Some("yaml" | "yml"));
            let document = crate::semantics::schema_files::schema_document(lookup, &target, yaml);
            // Discovery reads `.json`, `.yaml` and `.yml` files only (lower case): a schema file
            // of another name is not part of the file set, so nothing can be said about it.
            let in_file_set = crate::index::classify::is_json(&target)
                || crate::index::classify::is_yaml(&target);
            let Some(parsed) = document.as_ref() else {
                if !in_file_set {
                    return None;
                }
                return fail(format!(
                    "names `{}`, which does not exist (paths are relative to the file that declares them)",
                    path.value
                ));
            };
            match parsed {
                Err(why) => fail(format!("names `{}`, which {why}", path.value)),
                Ok(value) => invalid_schema(value)
                    .map(|why| (path.range, format!("names `{}`, which {why}", path.value))),
            }
        }
    }
}

/// Why a JSON value is not a usable JSON Schema (checked against the meta-schema of its
/// `$schema`, 2020-12 when absent).
fn invalid_schema(value: &serde_json::Value) -> Option<String> {
    if !value.is_object() {
        return Some("is not a JSON object, so it cannot be a schema".to_owned());
    }
    match jsonschema::meta::validate(value) {
        Ok(()) => None,
        Err(error) => Some(format!("is not a valid JSON Schema: {error}")),
    }
}

/// `a/b/../c` → `a/c` without touching the disk; `None` when `..` climbs above the start.
fn normalize(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    Some(out)
}
