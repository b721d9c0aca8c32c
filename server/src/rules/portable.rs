//! The proposed extensions as strict hosts read them: a top-level `dependencies`, and a
//! `metadata.chain` or `metadata.precondition` that is a list or a mapping, reported for each
//! host the skill's folder (or `[skill-md] hosts`) says loads it and that refuses or warns about
//! that form (`model::hosts::EXTENSION_FACTS`); and the conversion to the portable form
//! (`model::skill_md::portable`), offered as the fix and as a rewrite on the extension's key.

use super::fixes::double_quoted;
use super::rule_doc::RuleDoc;
use super::skill_hosts::{hosts_of, HostsFrom};
use super::SkillMdScope;
use crate::diagnostic::{codes, Diagnostic, FileId, Fix, Severity};
use crate::model::hosts::{Consequence, ExtensionForm, EXTENSION_FACTS};
use crate::model::skill_md::extensions::{Predicate, Shape};
use crate::model::skill_md::portable;
use crate::model::skill_md::SkillMd;
use crate::syntax::TextRange;

pub const RULES: &[RuleDoc] = &[RuleDoc {
    code: codes::SKILLMD_EXTENSION_HOST,
    summary: "A host that loads the skill refuses, or warns about, the nested form of an extension.",
    explanation: "The proposals put `dependencies` at the top level and nest lists and mappings under \
`metadata` (`chain`, `precondition`). Hosts that read the Agent Skills spec strictly do not all take that \
(the facts are rows in `model/hosts.rs`, checked 2026-12-04): Codex's skill installer refuses a top-level key \
outside the spec's (https://github.com/mattpocock/skills/issues/360), so the skill is not installed; VS Code's \
validator warns on one (https://github.com/microsoft/vscode/issues/294520), and the skill loads with the \
warning; Crush reads `metadata` as a map of strings and drops a skill holding a list or mapping there \
(https://github.com/charmbracelet/crush/issues/3331, fix proposed in charmbracelet/crush#3787). The reference \
validator `skills-ref` 0.1.1 fails a top-level `dependencies` and turns a nested `metadata` value into Python's \
text of it (`['a', 'b']`). Reported once per form, on the top-level `dependencies` key and on the first nested \
`metadata` key, for the hosts the skill's folder or `[skill-md] hosts` names (a skill in no known host folder \
is not judged), as a warning when a host skips the skill and as information when hosts only warn. The fix \
rewrites every extension of the skill into the portable form (docs/skill-md.md), which every host loads and \
skillgraph reads exactly as the nested one; it is offered only when the rewrite keeps the meaning (every entry \
a plain string, every option a scalar), and is applied by `check --fix --unsafe-fixes`. Calibration (2026-12-04): none of the 195 corpus skills writes an extension, so nothing is reported there whichever hosts are configured; on the demo with every host configured, 9 reports on the 8 skills using the extensions, all right (each host's reading applies to any nested value).",
}];

/// The nested forms of the skill's extensions, by form: the key each is reported on and how
/// the message names it.
fn nested(skill: &SkillMd) -> Vec<(ExtensionForm, TextRange, &'static str)> {
    let extensions = &skill.extensions;
    let mut out = Vec::new();
    if let Some(dependencies) = extensions.dependencies.as_ref().filter(|d| !d.portable) {
        out.push((
            ExtensionForm::TopLevelField,
            dependencies.key,
            "the top-level `dependencies`",
        ));
    }
    let metadata = skill.field("metadata").map(|f| &f.value);
    let key_of = |key: &str| metadata.and_then(|m| m.entry(key)).map(|e| e.key_range);
    if let Some(chain) = extensions.chain.as_ref() {
        if !chain.portable && chain.value.is_list() {
            if let Some(key) = key_of("chain") {
                out.push((ExtensionForm::MetadataCollection, key, "`metadata.chain`"));
            }
        }
    }
    if let Some(precondition) = extensions.precondition.as_ref() {
        let collection = matches!(precondition, Predicate::List { .. } | Predicate::Mapping(_));
        if collection && !extensions.precondition_portable {
            if let Some(key) = key_of("precondition") {
                out.push((
                    ExtensionForm::MetadataCollection,
                    key,
                    "`metadata.precondition`",
                ));
            }
        }
    }
    out
}

/// `skillmd.extension-host`.
pub fn check(scope: &SkillMdScope<'_>, out: &mut Vec<Diagnostic>) {
    let found = nested(scope.skill);
    if found.is_empty() {
        return;
    }
    let hosts = hosts_of(scope.lookup, scope.path);
    if matches!(hosts.from, HostsFrom::Unknown) {
        return;
    }
    let mut reported = Vec::new();
    for (form, key, what) in found {
        if reported.contains(&form) {
            continue;
        }
        let facts: Vec<_> = EXTENSION_FACTS
            .iter()
            .filter(|f| f.form == form && hosts.hosts.contains(&f.host))
            .collect();
        if facts.is_empty() {
            continue;
        }
        reported.push(form);
        let said: Vec<String> = facts
            .iter()
            .map(|f| {
                let does = match f.consequence {
                    Consequence::Skipped => "does not load the skill",
                    Consequence::Warned => "loads it with a warning",
                };
                format!("{} {does} ({}; {})", f.host.label(), f.what, f.source)
            })
            .collect();
        let skipped = facts.iter().any(|f| f.consequence == Consequence::Skipped);
        let mut diagnostic = hosts.relate(
            Diagnostic::new(
                codes::SKILLMD_EXTENSION_HOST,
                scope.file,
                key,
                format!(
                    "{what} is the nested form, and of the hosts that load this skill ({}), {}; write the extensions in the portable form under `metadata` (strings only), which every host loads",
                    hosts.why(),
                    said.join("; ")
                ),
            )
            .with_severity(if skipped {
                Severity::Warning
            } else {
                Severity::Info
            }),
        );
        if let Some(fix) = conversion(scope.text, scope.file, scope.skill) {
            diagnostic = diagnostic.with_fix(fix);
        }
        out.push(diagnostic);
    }
}

/// The rewrite into the portable form, when the cursor is on the key of an extension written in
/// the nested form (the `refactor.rewrite` action where no host diagnostic offers it).
pub fn rewrite_at(text: &str, file: FileId, skill: &SkillMd, offset: u32) -> Option<Fix> {
    let on_key = nested(skill)
        .iter()
        .any(|(_, key, _)| key.contains_inclusive(offset));
    let options = skill.extensions.chain.as_ref().is_some_and(|chain| {
        !chain.portable
            && chain
                .options
                .iter()
                .any(|o| o.key.contains_inclusive(offset) && o.value.shape != Shape::Str)
    });
    (on_key || options)
        .then(|| conversion(text, file, skill))
        .flatten()
}

/// `: <value>` in place of everything from the end of `key` to the end of its value.
fn replace_value(
    text: &str,
    key: TextRange,
    value: TextRange,
    written: &str,
) -> Option<(TextRange, String)> {
    let after = text.get(key.end as usize..)?;
    if !after.starts_with(':') || value.end < key.end {
        return None;
    }
    Some((
        TextRange::new(key.end, value.end),
        format!(": {}", double_quoted(written)),
    ))
}

fn line_start(text: &str, offset: u32) -> u32 {
    text[..offset as usize]
        .rfind('\n')
        .map_or(0, |at| at as u32 + 1)
}

/// The offset just past the line ending of the line holding `offset`.
fn next_line(text: &str, offset: u32) -> u32 {
    text[offset as usize..]
        .find('\n')
        .map_or(text.len() as u32, |at| offset + at as u32 + 1)
}

/// Every extension of the skill written in the nested form, rewritten in the portable form, as
/// one fix; `None` when there is nothing to rewrite or some part would not keep its meaning.
pub fn conversion(text: &str, file: FileId, skill: &SkillMd) -> Option<Fix> {
    let extensions = &skill.extensions;
    let metadata = skill.field("metadata");
    let entry = |key: &str| metadata.and_then(|m| m.value.entry(key));
    let mut edits: Vec<(TextRange, String)> = Vec::new();
    if let Some(chain) = extensions.chain.as_ref().filter(|c| !c.portable) {
        if !chain.value.is_list() {
            return None;
        }
        let written = portable::write_chain(chain)?;
        let at = entry("chain")?;
        edits.push(replace_value(text, at.key_range, at.value_range, &written)?);
        for setting in &chain.options {
            let written = portable::write_option(&setting.value)?;
            if setting.value.shape != Shape::Str {
                edits.push((setting.value.range, double_quoted(&written)));
            }
        }
    }
    if let Some(precondition) = extensions.precondition.as_ref() {
        if !extensions.precondition_portable {
            let written = portable::write_precondition(precondition)?;
            let at = entry("precondition")?;
            edits.push(replace_value(text, at.key_range, at.value_range, &written)?);
        }
    }
    if let Some(dependencies) = extensions.dependencies.as_ref().filter(|d| !d.portable) {
        let written = double_quoted(&portable::write_dependencies(dependencies)?);
        let field = skill.field("dependencies")?;
        if entry("dependencies").is_some() {
            return None;
        }
        let start = line_start(text, field.key.range.start);
        if start != field.key.range.start {
            // Not a block key at the start of its line (a flow frontmatter).
            return None;
        }
        let end = next_line(text, field.value.range.end.max(field.key.range.end));
        match metadata {
            None => edits.push((
                TextRange::new(start, end),
                format!("metadata:\n  dependencies: {written}\n"),
            )),
            Some(m) if m.value.shape == crate::model::skill_md::Shape::Mapping => {
                let insert = if m.value.flow {
                    let close = m.value.range.end.checked_sub(1)?;
                    if text.as_bytes().get(close as usize) != Some(&b'}') {
                        return None;
                    }
                    let sep = if m.value.entries.is_empty() { "" } else { ", " };
                    (
                        TextRange::new(close, close),
                        format!("{sep}dependencies: {written}"),
                    )
                } else {
                    let first = m.value.entries.first()?;
                    let last = m.value.entries.last()?;
                    let indent = first.key_range.start - line_start(text, first.key_range.start);
                    let at = next_line(text, last.value_range.end.max(last.key_range.end));
                    (
                        TextRange::new(at, at),
                        format!("{}dependencies: {written}\n", " ".repeat(indent as usize)),
                    )
                };
                if insert.0.start == start {
                    edits.push((TextRange::new(start, end), insert.1));
                } else {
                    edits.push((TextRange::new(start, end), String::new()));
                    edits.push(insert);
                }
            }
            Some(_) => return None,
        }
    }
    let mut edits = edits.into_iter();
    let (range, first) = edits.next()?;
    let mut fix = Fix::replace(
        "Rewrite the extensions in the portable form (strings under `metadata`)",
        file,
        range,
        first,
    );
    for (range, text) in edits {
        fix = fix.with_edit(file, range, text);
    }
    Some(fix)
}
