//! Checks of one SwarmKit file on its own: syntax, duplicate keys, `kind:` against the
//! directory, nesting depth, the overall shape, and the bundled JSON Schemas.

use super::catalogue::RuleDoc;
use super::schema::SchemaKind;
use crate::diagnostic::{Diagnostic, FileId, Severity};
use crate::index::FileRole;
use crate::model::swarmkit::ArtifactKind;
use crate::syntax::{TextRange, YamlDocument, YamlErrorKind};

pub const RULES: &[RuleDoc] = &[
    RuleDoc {
        code: "workspace.kind-mismatch",
        severity: Severity::Error,
        summary: "The file's `kind:` does not match the directory it is in.",
        explanation: "SwarmKit finds artifacts by directory: `skills/` holds `kind: Skill`, `topologies/` holds \
`kind: Topology`, `archetypes/` holds `kind: Archetype`, `triggers/` and `schedules/` hold `kind: Trigger`, and \
so on. A file whose kind disagrees with its directory is refused at load time. Move the file to the directory \
of its kind, or correct `kind:`.",
    },
    RuleDoc {
        code: "workspace.deep-nesting",
        severity: Severity::Error,
        summary: "The file is nested more than one directory below its artifact directory.",
        explanation: "SwarmKit looks at most one subdirectory deep (`skills/group/x.yaml` is found, \
`skills/a/b/x.yaml` is not), so this file is never loaded and the ids it defines are unknown to the runtime. \
Move it up a level.",
    },
    RuleDoc {
        code: "workspace.malformed",
        severity: Severity::Error,
        summary: "The document is not a mapping, so it cannot be an artifact.",
        explanation: "Every SwarmKit artifact is a YAML mapping with `apiVersion`, `kind` and `metadata`. An empty \
file, a list or a lone scalar cannot be loaded. Write the artifact as a mapping, or delete the file.",
    },
];

/// The local diagnostics of a SwarmKit file (manifest or artifact).
pub(crate) fn check(file: FileId, role: &FileRole, yaml: &YamlDocument) -> Vec<Diagnostic> {
    // A file nested too deep is never loaded: that is all there is to say about it.
    if let FileRole::SwarmKit {
        too_deep: true,
        directory,
        ..
    } = role
    {
        return vec![Diagnostic::new(
            "workspace.deep-nesting",
            file,
            first_line(yaml),
            format!(
                "this file is more than one directory below `{directory}/`; SwarmKit does not load it, so move it up to `{directory}/` or one subdirectory below"
            ),
        )];
    }
    let mut out = syntax_diagnostics(file, yaml);
    let Some(root) = yaml.root() else {
        if !yaml.has_syntax_error() {
            out.push(Diagnostic::new(
                "workspace.malformed",
                file,
                TextRange::empty(0),
                "this file is empty; an artifact needs `apiVersion`, `kind` and `metadata`",
            ));
        }
        return out;
    };
    if !root.is_mapping() {
        out.push(Diagnostic::new(
            "workspace.malformed",
            file,
            root.range(),
            format!(
                "the document is a {}, not a mapping; an artifact is a mapping with `apiVersion`, `kind` and `metadata`",
                root.type_name()
            ),
        ));
        return out;
    }
    let expected = match role {
        FileRole::SwarmKit { expected, .. } => *expected,
        _ => ArtifactKind::Workspace,
    };
    if root.get("kind").is_none() {
        let anchor = root
            .entries()
            .next()
            .map_or(TextRange::empty(0), |(k, _)| k.range());
        out.push(Diagnostic::new(
            "workspace.kind-mismatch",
            file,
            anchor,
            format!(
                "this file has no `kind:`; files in `{}/` must say `kind: {}`",
                expected.directory(),
                expected.kind_field()
            ),
        ));
    }
    if let Some(kind) = root.get("kind") {
        if let Some(found) = kind.scalar() {
            if found != expected.kind_field() {
                let message = match ArtifactKind::from_kind_field(found) {
                    Some(actual) if expected != ArtifactKind::Workspace => format!(
                        "a `kind: {found}` file belongs in `{}/`, but this one is in `{}/`; move it, or set `kind: {}`",
                        actual.directory(),
                        expected.directory(),
                        expected.kind_field()
                    ),
                    _ => format!(
                        "files here must have `kind: {}`, found `{found}`",
                        expected.kind_field()
                    ),
                };
                out.push(Diagnostic::new(
                    "workspace.kind-mismatch",
                    file,
                    kind.range(),
                    message,
                ));
            }
        }
    }
    // Schema-check only what SwarmKit would load as this kind: not a partial tree cut by a
    // syntax error (it would flood the file with missing fields), not a file of another kind.
    let kind_matches = root.get("kind").and_then(|k| k.scalar()) == Some(expected.kind_field());
    if !yaml.has_syntax_error() && kind_matches {
        out.extend(super::schema::check_schema(
            schema_kind(expected),
            root,
            file,
        ));
    }
    out
}

/// Parse errors and duplicate keys, shared by every YAML-based file.
pub(crate) fn syntax_diagnostics(file: FileId, yaml: &YamlDocument) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for error in &yaml.errors {
        let code = match error.kind {
            YamlErrorKind::Syntax | YamlErrorKind::TooDeep | YamlErrorKind::MultipleDocuments => {
                "workspace.yaml-parse"
            }
            YamlErrorKind::Alias => "workspace.yaml-parse",
            YamlErrorKind::AliasExpansion => "yaml.alias-expansion",
            YamlErrorKind::AliasDepth => "yaml.alias-depth",
        };
        out.push(Diagnostic::new(
            code,
            file,
            error.range,
            error.message.clone(),
        ));
    }
    for duplicate in &yaml.duplicate_keys {
        out.push(
            Diagnostic::new(
                "yaml.duplicate-key",
                file,
                duplicate.second,
                format!(
                    "`{}` is already a key of this mapping; SwarmKit keeps only this later value and drops the earlier one, so merge them or rename one",
                    duplicate.key
                ),
            )
            .with_related(file, duplicate.first, format!("`{}` first written here", duplicate.key)),
        );
    }
    out
}

/// The first line's range, where file-level diagnostics without a better place go.
fn first_line(yaml: &YamlDocument) -> TextRange {
    yaml.root()
        .and_then(|root| root.entries().next())
        .map_or(TextRange::empty(0), |(key, _)| key.range())
}

fn schema_kind(kind: ArtifactKind) -> SchemaKind {
    match kind {
        ArtifactKind::Workspace => SchemaKind::Workspace,
        ArtifactKind::Topology => SchemaKind::Topology,
        ArtifactKind::Skill => SchemaKind::Skill,
        ArtifactKind::Archetype => SchemaKind::Archetype,
        ArtifactKind::Trigger => SchemaKind::Trigger,
        ArtifactKind::Funnel => SchemaKind::Funnel,
        ArtifactKind::Contract => SchemaKind::Contract,
        ArtifactKind::RoleRegistry => SchemaKind::RoleRegistry,
        ArtifactKind::ExecutorAdapter => SchemaKind::ExecutorAdapter,
    }
}
