//! Mentions of skills in SKILL.md bodies (`/name`, `/plugin:name`, `$name`, found by
//! `model::mentions::scan`): a mention that names no skill is reported only when it is a near
//! miss we would defend (`model::mentions::near_miss`), with the skill it meant and an unsafe
//! fix. A mention reads only the keys of the names it could resolve to, so adding a skill
//! re-checks the files whose mentions could name it and nothing else.

use std::path::Path;

use super::rule_doc::RuleDoc;
use super::SkillMdScope;
use crate::diagnostic::{codes, Diagnostic, FileId, Fix};
use crate::index::{Content, FileEntry, Lookup};
use crate::model::mentions::{near_miss, Mention, Sigil};
use crate::model::prose::Prose;
use crate::semantics::mentions::skills_in_scope;
use crate::syntax::TextRange;

pub const RULES: &[RuleDoc] = &[RuleDoc {
    code: codes::SKILLMD_MENTION_NEAR_MISS,
    summary: "A `/name` or `$name` in a SKILL.md body names no skill, but joins the words of one with `:` or `_`.",
    explanation: "Hosts invoke a skill as `/name` (Claude Code, Copilot, OpenCode, Gemini CLI, Cursor; \
`/plugin:name` for a plugin's skill) and Codex as `$name`. A mention written `/conductor:setup` where the \
plugin `conductor` is not the skill's own and the skill is installed flat as `conductor-setup`, or `/pdf_tools` \
for `pdf-tools`, runs nothing. Only this slip is reported: on the public collections we measured \
(`../shared/corpus`, anthropics/skills, obra/superpowers, wshobson/agents; docs/host-graph.md), guessing by \
edit distance finds ordinary words (`/docs` for a `docx` skill, `/model` for `codeql`, `/rebase` for `firebase`, \
`$ref` for `pdf`) and no real typo. Text in fenced code, paths, URLs, HTTP routes, shell variables and argument \
substitutions are not mentions. The skill must be one the same project holds (for host folders, the same \
project folder). A `/plugin:name` whose plugin is the `name` of a `.claude-plugin/plugin.json` of the \
workspace resolves among that plugin's skills and is judged by `plugin.unknown-skill` instead. The fix rewrites the mention to the skill's name; it is a guess, so only `check \
--unsafe-fixes` applies it.",
}];

/// The plugin a skill belongs to (`<plugin>/skills/<skill>/SKILL.md`), by its folder's name,
/// which public collections keep equal to the manifest's `name`. A mention of `/<plugin>:name`
/// from inside that plugin is the plugin's own, whatever the plugin holds.
fn own_plugin(path: &Path) -> Option<&str> {
    let skills = path.parent()?.parent()?;
    if skills.file_name()? != "skills" {
        return None;
    }
    skills.parent()?.file_name()?.to_str()
}

pub fn check(scope: &SkillMdScope<'_>, out: &mut Vec<Diagnostic>) {
    let Some(entry) = scope.lookup.file(scope.file) else {
        return;
    };
    let mentions = crate::semantics::mentions::mentions_of(entry);
    check_mentions(
        scope.lookup,
        scope.file,
        scope.path,
        &entry.text,
        &mentions,
        out,
    );
}

/// The mentions of a prose file (`CLAUDE.md`, a subagent, a command, ...), found when it was
/// analysed.
pub fn check_prose(
    lookup: &Lookup<'_>,
    entry: &FileEntry,
    prose: &Prose,
    out: &mut Vec<Diagnostic>,
) {
    check_mentions(
        lookup,
        entry.id,
        &entry.path,
        &entry.text,
        &prose.mentions,
        out,
    );
}

fn check_mentions(
    lookup: &Lookup<'_>,
    file: FileId,
    path: &Path,
    text: &str,
    mentions: &[Mention],
    out: &mut Vec<Diagnostic>,
) {
    for mention in mentions {
        let plugin = mention.plugin(text);
        // The plugin form of a plugin of the file set resolves among that plugin's skills and
        // commands only (`rules::plugins`).
        if let Some(plugin) = plugin {
            let plugins = crate::semantics::plugins::plugins_named(lookup, plugin);
            if !plugins.is_empty() {
                super::plugins::check_mention(lookup, file, text, mention, &plugins, out);
                continue;
            }
        }
        if plugin.is_some() && plugin == own_plugin(path) {
            continue;
        }
        let name = mention.name(text);
        let Some(meant) = near_miss(plugin, name, |candidate| {
            !skills_in_scope(lookup, path, candidate).is_empty()
        }) else {
            continue;
        };
        let targets = skills_in_scope(lookup, path, &meant);
        let sigil = match mention.sigil {
            Sigil::Slash => "/",
            Sigil::Dollar => "$",
        };
        let written = &text[mention.range.start as usize..mention.range.end as usize];
        let replacement = format!("{sigil}{meant}");
        let range = mention.range;
        let mut diagnostic = Diagnostic::new(
            codes::SKILLMD_MENTION_NEAR_MISS,
            file,
            range,
            format!(
                "`{written}` names no skill, and `{meant}` is one: skill names join words with `-`; did you mean `{replacement}`?"
            ),
        )
        .with_fix(Fix::replace(format!("Replace with `{replacement}`"), file, range, replacement).preferred());
        for target in targets.iter().take(20) {
            let name_range = match &target.parsed.content {
                Content::SkillMd(other) => other.name_range(),
                _ => None,
            };
            diagnostic = diagnostic.with_related(
                target.id,
                name_range.unwrap_or(TextRange::empty(0)),
                format!("the skill `{meant}`"),
            );
        }
        out.push(diagnostic);
    }
}
