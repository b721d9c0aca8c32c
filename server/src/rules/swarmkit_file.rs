//! Checks of one SwarmKit file on its own: syntax, duplicate keys, `kind:` against the
//! directory, nesting depth, the overall shape, and the bundled JSON Schemas.

use super::rule_doc::RuleDoc;
use crate::diagnostic::{codes, Diagnostic, FileId};
use crate::index::FileRole;
use crate::model::swarmkit::ArtifactKind;
use crate::syntax::yaml::DuplicateKey;
use crate::syntax::{TextRange, YamlDocument, YamlErrorKind};

pub const RULES: &[RuleDoc] = &[
    RuleDoc {
        code: codes::WORKSPACE_KIND_MISMATCH,
        summary: "The file's `kind:` does not match the directory it is in.",
        explanation: "SwarmKit finds artifacts by directory: `skills/` holds `kind: Skill`, `topologies/` holds \
`kind: Topology`, `archetypes/` holds `kind: Archetype`, `triggers/` and `schedules/` hold `kind: Trigger`, and \
so on. A file whose kind disagrees with its directory is refused at load time. Move the file to the directory \
of its kind, or correct `kind:`.",
    },
    RuleDoc {
        code: codes::WORKSPACE_DEEP_NESTING,
        summary: "The file is nested more than one directory below its artifact directory.",
        explanation: "SwarmKit looks at most one subdirectory deep (`skills/group/x.yaml` is found, \
`skills/a/b/x.yaml` is not), so this file is never loaded and the ids it defines are unknown to the runtime. \
Move it up a level.",
    },
    RuleDoc {
        code: codes::WORKSPACE_MALFORMED,
        summary: "The document is not a mapping, so it cannot be an artifact.",
        explanation: "Every SwarmKit artifact is a YAML mapping with `apiVersion`, `kind` and `metadata`. An empty \
file, a list or a lone scalar cannot be loaded. Write the artifact as a mapping, or delete the file.",
    },
    RuleDoc {
        code: codes::WORKSPACE_ENV_UNREADABLE,
        summary: "A `workspace.env*.yaml` property file does not parse, so SwarmKit reads none of its properties.",
        explanation: "SwarmKit reads the property map that `${…}` references look up first from `workspace.env.yaml`, or from `workspace.env.<name>.yaml` when `SWARMKIT_ENV=<name>` selects one (swarmkit-runtime 1.265.0, `load_env_config_typed` and `_read_env_file` in `resolver/_env_config.py`). When the file is not valid YAML it is skipped without a word: every reference then falls through to the environment and its `:-default`, or stays as written. Fix the YAML at the place shown. A file whose top is not a mapping is skipped the same way.",
    },
    RuleDoc {
        code: codes::YAML_INTERPOLATION_TOO_LARGE,
        summary: "Substituting `${…}` here would make the file grow past what is checked.",
        explanation: "Every `${…}` in a value is replaced by its property, environment value or default before anything is checked, as SwarmKit does. What substitution may add to one file is capped at 4 MiB, all values together, so a huge property referenced many times cannot make checking slow. The value past the cap is checked as written and this error says so. Reference large values fewer times, or shorten them.",
    },
];

/// The diagnostics substitution itself gives: a value past the growth cap, checked as written.
pub(crate) fn substitution_diagnostics(
    file: FileId,
    substitutions: &[crate::syntax::interpolate::Substitution],
    out: &mut Vec<Diagnostic>,
) {
    let cap = crate::syntax::interpolate::MAX_GROWTH / (1024 * 1024);
    for substitution in substitutions.iter().filter(|s| s.too_large) {
        out.push(Diagnostic::new(
            codes::YAML_INTERPOLATION_TOO_LARGE,
            file,
            substitution.range,
            format!(
                "substituting the `${{…}}` references of this value would add more than the {cap} MiB this file may grow by, so it is checked as written; reference large values fewer times"
            ),
        ));
    }
}

/// The local diagnostics of a property file: its syntax (a file SwarmKit cannot parse is
/// skipped whole) and repeated keys.
pub(crate) fn check_env_file(
    file: FileId,
    yaml: &YamlDocument,
    env: &crate::model::swarmkit::EnvFile,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    if let Some(error) = yaml.errors.first().filter(|_| env.unreadable) {
        out.push(Diagnostic::new(
            codes::WORKSPACE_ENV_UNREADABLE,
            file,
            error.range,
            format!(
                "{}; SwarmKit skips a property file it cannot parse, so no `${{…}}` reference reads any property of it",
                error.message
            ),
        ));
    } else if let Some(root) = yaml.root().filter(|root| !root.is_mapping()) {
        out.push(Diagnostic::new(
            codes::WORKSPACE_ENV_UNREADABLE,
            file,
            root.range(),
            format!(
                "this property file is a {}, not a mapping of properties, so SwarmKit reads no property from it",
                root.type_name()
            ),
        ));
    }
    out.extend(
        syntax_diagnostics(file, yaml)
            .into_iter()
            .filter(|d| d.code == codes::YAML_DUPLICATE_KEY),
    );
    out
}

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
            codes::WORKSPACE_DEEP_NESTING,
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
                codes::WORKSPACE_MALFORMED,
                file,
                TextRange::empty(0),
                "this file is empty; an artifact needs `apiVersion`, `kind` and `metadata`",
            ));
        }
        return out;
    };
    if !root.is_mapping() {
        out.push(Diagnostic::new(
            codes::WORKSPACE_MALFORMED,
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
            codes::WORKSPACE_KIND_MISMATCH,
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
                    codes::WORKSPACE_KIND_MISMATCH,
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
        out.extend(super::schema::check_schema(expected.into(), root, file));
    }
    out
}

/// Parse errors and duplicate keys, shared by every YAML-based file.
pub(crate) fn syntax_diagnostics(file: FileId, yaml: &YamlDocument) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for error in &yaml.errors {
        let code = match error.kind {
            YamlErrorKind::Syntax | YamlErrorKind::TooDeep | YamlErrorKind::MultipleDocuments => {
                codes::WORKSPACE_YAML_PARSE
            }
            YamlErrorKind::Alias => codes::WORKSPACE_YAML_PARSE,
            YamlErrorKind::AliasExpansion => codes::YAML_ALIAS_EXPANSION,
            YamlErrorKind::AliasDepth => codes::YAML_ALIAS_DEPTH,
        };
        out.push(Diagnostic::new(
            code,
            file,
            error.range,
            error.message.clone(),
        ));
    }
    for duplicate in &yaml.duplicate_keys {
        out.push(duplicate_key(
            file,
            duplicate,
            "key",
            "SwarmKit keeps only this later value and drops the earlier one",
        ));
    }
    out
}

/// `yaml.duplicate-key`, on the second of two equal keys of a mapping and related to the first:
/// "`name` is already a {noun} of this mapping; {kept}, so merge them or rename one", where
/// `kept` says which value the file's reader keeps.
pub(super) fn duplicate_key(
    file: FileId,
    duplicate: &DuplicateKey,
    noun: &str,
    kept: &str,
) -> Diagnostic {
    let key = &duplicate.key;
    Diagnostic::new(
        codes::YAML_DUPLICATE_KEY,
        file,
        duplicate.second,
        format!("`{key}` is already a {noun} of this mapping; {kept}, so merge them or rename one"),
    )
    .with_related(file, duplicate.first, format!("`{key}` first written here"))
}

/// The first line's range, where file-level diagnostics without a better place go.
fn first_line(yaml: &YamlDocument) -> TextRange {
    yaml.root()
        .and_then(|root| root.entries().next())
        .map_or(TextRange::empty(0), |(key, _)| key.range())
}
