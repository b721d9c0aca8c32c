//! `output_schema:` — the JSON Schema an agent's structured output must satisfy. SwarmKit
//! resolves it when it loads the workspace: a path is read relative to the file that declares it
//! (the topology, or the archetype for an inherited default), must stay inside the workspace and
//! must not be a URL; the schema itself must be a valid JSON Schema.

use std::path::Path;

use super::rule_doc::RuleDoc;
use super::SwarmKitScope;
use crate::diagnostic::{codes, Diagnostic};
use crate::index::Lookup;
use crate::model::schema_file::PathFact;
use crate::model::swarmkit::{Agent, OutputSchema};
use crate::semantics::grants::archetype_named;
use crate::semantics::schema_files::{resolve, Target};
use crate::syntax::TextRange;

pub const RULES: &[RuleDoc] = &[RuleDoc {
    code: codes::AGENT_OUTPUT_SCHEMA,
    summary: "An agent's output schema cannot be resolved: missing file, a folder, unreadable, outside the workspace, a URL, or not a valid JSON Schema.",
    explanation: "`output_schema` is an inline JSON Schema or a path to one, relative to the file that declares \
it. SwarmKit reads it when it loads the workspace (swarmkit-runtime 1.265.0, `resolve_output_schema` and \
`_resolve_path` in `resolver/_output_schema_ref.py`) and refuses the agent when the file is missing, lies outside \
the workspace, is a URL (a workspace must not depend on the network), does not parse, is not an object, or is \
not a valid schema. A `.yaml` or `.yml` file (any case) is read as YAML, any other as JSON. A path that is \
not a file is refused as missing (`_resolve_path` requires `Path.is_file()`), so a folder named where its schema \
file belongs is refused, and so is a file `Path.read_text()` cannot read (unreadable, not UTF-8). `skillgraph \
check` looks on disk at a path the files it read do not answer, and says whether a folder, nothing, or an \
unreadable file is there; a readable file it does not read itself (another suffix, a symlink) is not judged. The \
language server does not look on disk, so there only a missing `.json`, `.yaml` or `.yml` name is reported. An \
archetype's default is checked for every agent that inherits it (an explicit \
`output_schema: null` opts out). Fix the path or the schema.",
}];

pub fn check(scope: &SwarmKitScope<'_>, agent: &Agent, out: &mut Vec<Diagnostic>) {
    let Some(topology) = scope.lookup.file(scope.file) else {
        return;
    };
    let Some(root) = scope
        .lookup
        .file(scope.workspace)
        .and_then(|m| m.path.parent().map(Path::to_owned))
    else {
        return;
    };
    match &agent.output_schema {
        Some(schema) => {
            let base = topology.path.parent().unwrap_or(&root).to_owned();
            if let Some((range, problem)) = problem(scope.lookup, &root, &base, schema) {
                out.push(Diagnostic::new(
                    codes::AGENT_OUTPUT_SCHEMA,
                    scope.file,
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
                archetype_named(scope.lookup, scope.workspace, &archetype_id.value)
            else {
                return;
            };
            let Some(schema) = &archetype.default_output_schema else {
                return;
            };
            let Some(archetype_path) = scope.lookup.file(archetype_file).map(|f| f.path.clone())
            else {
                return;
            };
            let base = archetype_path.parent().unwrap_or(&root).to_owned();
            if let Some((range, problem)) = problem(scope.lookup, &root, &base, schema) {
                out.push(
                    Diagnostic::new(
                        codes::AGENT_OUTPUT_SCHEMA,
                        scope.file,
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
            let target = match resolve(root, base, &path.value) {
                Target::Url => return fail(format!("is a URL (`{}`); SwarmKit reads schemas only from files inside the workspace, so save it there", path.value)),
                Target::Outside => {
                    return fail(format!(
                        "`{}` leads outside the workspace; keep schema files inside it",
                        path.value
                    ))
                }
                Target::Path(target) => target,
            };
            // `_output_schema_ref.py` (`resolve_output_schema`) parses `.yaml` / `.yml` (any
            // case) as YAML and everything else as JSON.
            let suffix = target
                .extension()
                .map(|e| e.to_string_lossy().to_ascii_lowercase());
            let yaml = matches!(suffix.as_deref(), Some("yaml" | "yml"));
            let document = crate::semantics::schema_files::schema_document(lookup, &target, yaml);
            let Some(parsed) = document.as_ref() else {
                return nothing_read(lookup, &target, &path.value).map(|why| (path.range, why));
            };
            match parsed {
                Err(why) => fail(format!("names `{}`, which {why}", path.value)),
                Ok(value) => invalid_schema(value)
                    .map(|why| (path.range, format!("names `{}`, which {why}", path.value))),
            }
        }
    }
}

/// What to say of a schema path no file of the file set answers: what `check` found on disk
/// there, as `_resolve_path` (which requires `Path.is_file()`) and `resolve_output_schema`
/// (`read_text()`) would refuse it; without that (the server does not look), only a `.json`,
/// `.yaml` or `.yml` name is known to be missing, since discovery reads every such file and
/// nothing of another name.
fn nothing_read(lookup: &Lookup<'_>, target: &Path, value: &str) -> Option<String> {
    let missing = || {
        format!(
            "names `{value}`, which does not exist (paths are relative to the file that declares them)"
        )
    };
    match lookup.schema_path(target) {
        Some(PathFact::Missing) => Some(missing()),
        Some(PathFact::Folder) => Some(format!(
            "names `{value}`, which is a folder; SwarmKit reads the schema from a file and refuses the agent otherwise, so name the JSON Schema file itself"
        )),
        Some(PathFact::Unreadable(why)) => Some(format!(
            "names `{value}`, which cannot be read ({why}); SwarmKit refuses the agent when it cannot read the file"
        )),
        Some(PathFact::Unread) => None,
        None => (crate::index::classify::is_json(target) || crate::index::classify::is_yaml(target))
            .then(missing),
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
