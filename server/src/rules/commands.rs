//! Legacy slash commands (`<project>/.claude/commands/**/<name>.md`): they share the `/name`
//! namespace with skills, and Claude Code documents which one runs when both exist.

use super::rule_doc::RuleDoc;
use crate::diagnostic::{codes, Diagnostic};
use crate::index::{Content, FileEntry, FileRole, Key, Lookup};
use crate::model::hosts::prose::SKILL_WINS_OVER_COMMAND;
use crate::semantics::plugins;
use crate::syntax::TextRange;

pub const RULES: &[RuleDoc] = &[RuleDoc {
    code: codes::COMMAND_SHADOWED_BY_SKILL,
    summary: "A legacy command has the name of a skill of the same project or plugin, and the skill runs instead.",
    explanation: "Custom commands (`.claude/commands/<name>.md`) and skills (`.claude/skills/<name>/SKILL.md`) \
are both invoked as `/<name>`; when a skill and a command share a name, Claude Code runs the skill \
(https://code.claude.com/docs/en/skills, checked 2026-12-04), so the command is never used. Reported on the \
command, with the skill as related location. A plugin's command (`commands/<name>.md` of a plugin) and a skill the same \
plugin ships are both `/<plugin>:<name>`, and are judged the same way. Rename the command, or delete it if the skill \
replaced it.",
}];

pub fn check(lookup: &Lookup<'_>, entry: &FileEntry, out: &mut Vec<Diagnostic>) {
    let Some(stem) = entry.path.file_stem().and_then(|s| s.to_str()) else {
        return;
    };
    let Some((skill, invoked, skills_of)) = shadowing_skill(lookup, entry, stem) else {
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
                "`/{invoked}` runs the skill `{stem}` of {skills_of}, not this command: {} runs the skill when both share a name ({}); rename or remove the command",
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

/// The skill invoked by the same name as the command `entry` (file name `stem`), with that
/// name and where the skill comes from: for a project command, a skill of the project's
/// `.claude/skills/`; for a plugin's command, a skill the same plugin ships (both are
/// `/<plugin>:<stem>`).
fn shadowing_skill<'a>(
    lookup: &Lookup<'a>,
    entry: &FileEntry,
    stem: &str,
) -> Option<(&'a FileEntry, String, String)> {
    if let FileRole::PluginProse { root, .. } = &entry.role {
        let path = root.join(".claude-plugin").join("plugin.json");
        let manifest_entry = lookup.get(Key::JsonFile { path }).into_iter().next()?;
        let manifest = plugins::manifest_of(manifest_entry)?;
        let plugin = manifest.plugin_name()?.value.clone();
        let skill = plugins::plugin_skills(lookup, &manifest_entry.path, manifest, stem)
            .into_iter()
            .next()?;
        return Some((
            skill,
            format!("{plugin}:{stem}"),
            format!("the plugin `{plugin}`"),
        ));
    }
    let claude = entry
        .path
        .ancestors()
        .skip(1)
        .find(|dir| dir.file_name().is_some_and(|n| n == ".claude"))?;
    let skills = claude.join("skills");
    let skill = lookup
        .get(Key::SkillMdNamed {
            name: stem.to_owned(),
        })
        .into_iter()
        .find(|e| crate::model::skill_md::skill_root(&e.path) == Some(skills.as_path()))?;
    Some((skill, stem.to_owned(), "`.claude/skills/`".to_owned()))
}
