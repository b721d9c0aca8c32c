//! `skillmd.unknown-field`: top-level frontmatter fields the spec does not define, reported as
//! the nearest `skillgraph.toml` says (strict or not, extra fields accepted), with the fixes that
//! rename a misspelt field or move it under `metadata:`. The known fields are the model's table;
//! this file decides only what to say about the others.

use super::strict_error;
use crate::diagnostic::{codes, Diagnostic, FileId, Fix};
use crate::model::skill_md::{known_field, FieldOrigin, Shape, SkillMd, KNOWN_FIELDS};
use crate::rules::SkillMdScope;
use crate::semantics::config::settings_for;
use crate::syntax::{Frontmatter, TextRange};

pub(super) fn check_unknown_fields(scope: &SkillMdScope<'_>, out: &mut Vec<Diagnostic>) {
    let config = settings_for(scope.lookup, scope.path);
    let strict = config.as_ref().is_some_and(|(_, config)| config.strict);
    let moving = MoveContext::default();
    for field in &scope.skill.fields {
        let key = field.key.value.as_str();
        if config
            .as_ref()
            .is_some_and(|(_, config)| config.accepts_extra_field(key))
        {
            continue;
        }
        let known = known_field(key);
        if known.is_some_and(|k| k.origin == FieldOrigin::Spec) {
            continue;
        }
        if !strict && known.is_some() {
            continue;
        }
        let mut suggestion = None;
        let mut message = match known {
            Some(known) => format!(
                "`{key}` is {}, not a spec field; strict mode (as `skills-ref`) rejects it",
                known.origin.describe(known.hosts)
            ),
            None if key == "version" => "`version` is not a frontmatter field of the spec or of any known host, and `skills-ref` rejects it; move it under `metadata:` as `version: \"...\"`".to_owned(),
            None => {
                let candidates = KNOWN_FIELDS.iter().map(|k| k.key);
                let folded = key.to_lowercase().replace('_', "-");
                // `tools:` means `allowed-tools`, though `hooks` is fewer edits away.
                let allowed = format!("allowed-{folded}");
                suggestion = known_field(&folded)
                    .or_else(|| known_field(&allowed))
                    .map(|k| k.key)
                    .or_else(|| crate::rules::suggest::closest(&folded, candidates));
                match suggestion {
                    Some(best) => format!("`{key}` is not a known frontmatter field, so hosts ignore it; did you mean `{best}`?"),
                    None => format!("`{key}` is not a frontmatter field of the spec or of any known host, so hosts ignore it"),
                }
            }
        };
        let mut diagnostic = Diagnostic::new(
            codes::SKILLMD_UNKNOWN_FIELD,
            scope.file,
            field.key.range,
            "",
        );
        match &config {
            Some((config_file, _)) if strict => {
                message.push_str("; list it in `skill-md.extra-fields` to accept it");
                diagnostic = strict_error(diagnostic, *config_file);
            }
            _ => message
                .push_str("; list it in `skill-md.extra-fields` of skillgraph.toml if it is meant"),
        }
        diagnostic.message = message;
        if let Some(entry) = scope.lookup.file(scope.file) {
            let taken = |name: &str| scope.skill.field(name).is_some();
            let rename = suggestion.filter(|best| !taken(best)).and_then(|best| {
                crate::rules::fixes::replace_scalar(
                    &entry.text,
                    scope.file,
                    field.key.range,
                    key,
                    best,
                )
                .map(|fix| Fix {
                    title: format!("Rename `{key}` to `{best}`"),
                    ..fix
                })
            });
            // A field a host reads is not moved away from it.
            let moved = known
                .is_none()
                .then(|| move_under_metadata(scope.file, &entry.text, scope.skill, field, &moving))
                .flatten();
            let preferred_is_rename = rename.is_some();
            diagnostic.fixes.extend(rename.map(Fix::preferred));
            // With no spelling to suggest, moving the field is what the message asks for, so
            // `check --fix` may do it; beside a suggested rename it is one choice of two.
            diagnostic.fixes.extend(moved.map(|fix| {
                if preferred_is_rename {
                    fix
                } else {
                    fix.preferred().safe()
                }
            }));
        }
        out.push(diagnostic);
    }
}

/// What moving fields under `metadata:` needs of the whole file, found once for all of its
/// fields: a frontmatter may hold a hundred thousand unknown fields, each offered the move.
#[derive(Default)]
struct MoveContext<'s> {
    /// The file's line ending.
    newline: std::cell::OnceCell<&'static str>,
    /// The keys already under `metadata:`.
    metadata_keys: std::cell::OnceCell<std::collections::HashSet<&'s str>>,
}

/// "Move `version` under `metadata:`": the field's lines removed and the field added, its value
/// quoted as a string, at the end of the `metadata` mapping (written in block style), or in a new
/// `metadata:` at the end of the frontmatter. Only for a top-level field whose value is a
/// scalar (metadata values are strings) not already a key of `metadata`.
fn move_under_metadata<'s>(
    file: FileId,
    text: &str,
    skill: &'s SkillMd,
    field: &crate::model::skill_md::Field,
    moving: &MoveContext<'s>,
) -> Option<Fix> {
    let Frontmatter::Closed { close, .. } = &skill.frontmatter else {
        return None;
    };
    if !skill.is_mapping {
        return None;
    }
    let key = field.key.value.as_str();
    let value = &field.value;
    if value.aliased || !matches!(value.shape, Shape::Scalar(_)) || skill.is_flow {
        return None;
    }
    let value_text = value.shape.scalar()?;
    // The field's whole lines: from its key's line to the end of its value's.
    let (line_start, indent) = crate::rules::fixes::line_of(text, field.key.range.start);
    if !indent.is_empty() || line_start != field.key.range.start as usize {
        return None;
    }
    let value_end = value.range.end.max(field.key.range.end) as usize;
    let line_end = text[value_end..]
        .find('\n')
        .map_or(text.len(), |i| value_end + i + 1);
    let removal = TextRange::new(line_start as u32, line_end as u32);
    let newline = *moving
        .newline
        .get_or_init(|| if text.contains("\r\n") { "\r\n" } else { "\n" });
    let entry = format!("{key}: {}", crate::rules::fixes::double_quoted(value_text));
    let fix = Fix::replace(format!("Move `{key}` under `metadata:`"), file, removal, "");
    match skill.field("metadata").map(|m| &m.value) {
        Some(metadata)
            if metadata.shape == Shape::Mapping && !metadata.flow && !metadata.aliased =>
        {
            let taken = moving.metadata_keys.get_or_init(|| {
                metadata
                    .entries
                    .iter()
                    .filter_map(|e| e.key.as_deref())
                    .collect()
            });
            if taken.contains(key) {
                return None;
            }
            let last = metadata.entries.last()?;
            let (_, metadata_indent) = crate::rules::fixes::line_of(text, last.key_range.start);
            let end = last.value_range.end.max(last.key_range.end) as usize;
            let at = text[end..]
                .find(['\r', '\n'])
                .map_or(text.len(), |i| end + i);
            if (line_start..line_end).contains(&at) {
                return None;
            }
            Some(fix.with_edit(
                file,
                TextRange::empty(at as u32),
                format!("{newline}{metadata_indent}{entry}"),
            ))
        }
        Some(_) => None,
        None => Some(fix.with_edit(
            file,
            TextRange::empty(close.start),
            format!("metadata:{newline}  {entry}{newline}"),
        )),
    }
}
