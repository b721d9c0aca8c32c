//! Legacy slash commands (`<project>/.claude/commands/**/<name>.md`): they share the `/name`
//! namespace with skills, and Claude Code documents which one runs when both exist.

use super::rule_doc::RuleDoc;
use crate::diagnostic::{codes, Diagnostic};
use crate::index::{Content, FileEntry, Key, Lookup};
use crate::model::hosts::prose::SKILL_WINS_OVER_COMMAND;
use crate::syntax::TextRange;

pub const RULES: &[RuleDoc] = &[RuleDoc {
    code: codes::COMMAND_SHADOWED_BY_SKILL,
    summary: "A legacy command has the name of a skill of the same project, and the skill runs instead.",
    explanation: "Custom commands (`.claude/commands/<name>.md`) and skills (`.claude/skills/<name>/SKILL.md`) \
are both invoked as `/<name>`; when a skill and a command share a name, Claude Code runs the skill \
(https://code.claude.com/docs/en/skills, checked 2026-12-04), so the command is never used. Reported on the \
command, with the skill as related location. Rename the command, or delete it if the skill replaced it.",
}];

pub fn check(lookup: &Lookup<'_>, entry: &FileEntry, out: &mut Vec<Diagnostic>) {
    let Some(stem) = entry.path.file_stem().and_then(|s| s.to_str()) else {
        return;
    };
    let Some(claude) = entry
        .path
        .ancestors()
        .skip(1)
        .find(|dir| dir.file_name().is_some_and(|n| n == ".claude"))
    else {
        return;
    };
    let skills = claude.join("skills");
    let skill = lookup
        .get(Key::SkillMdNamed {
            name: stem.to_owned(),
        })
        .into_iter()
        .find(|e| crate::model::skill_md::skill_root(&e.path) == Some(skills.as_path()));
    let Some(skill) = skill else {
        return;
    };
    let name_range = match &skill.parsed.content {
        Content::SkillMd(s) => s.name_range(),
        _ => None,
    };
    // The first line names the file in every editor; the command has no name field of its own.
    let first_line = entry.text.find('\n').unwrap_or(entry.text.len());
    out.push(
        Diagnostic::new(
            codes::COMMAND_SHADOWED_BY_SKILL,
            entry.id,
            TextRange::new(0, first_line as u32),
            format!(
                "`/{stem}` runs the skill `{stem}` of `.claude/skills/`, not this command: {} runs the skill when both share a name ({}); rename or remove the command",
                SKILL_WINS_OVER_COMMAND.0.label(),
                SKILL_WINS_OVER_COMMAND.1
            ),
        )
        .with_related(
            skill.id,
            name_range.unwrap_or(TextRange::empty(0)),
            format!("the skill `{stem}`"),
        ),
    );
}
