//! Claude Code subagents (`<project>/.claude/agents/<file>.md`, and a plugin's) and what names
//! them: their frontmatter as Claude Code documents it (`model::hosts::plugins::SUBAGENT_FIELDS`),
//! their `skills:` preloads, which resolve among the skills Claude Code loads for that project
//! (`<project>/.claude/skills/`; for a plugin's subagent, the workspace's, its plugin's by either
//! name), and a SKILL.md's `agent:` (with `context: fork`), which names a subagent of the
//! project, `<plugin>:<agent>` of a plugin, or a built-in type (`Explore`, `Plan`, ...).
//! Mentions in prose files are judged as in SKILL.md bodies (`rules::mentions`).

use std::path::{Path, PathBuf};

use super::rule_doc::RuleDoc;
use crate::diagnostic::{codes, Diagnostic, FileId, Fix};
use crate::index::{Content, FileEntry, Key, Lookup};
use crate::model::hosts::plugins::{is_builtin_subagent, subagent_field, BUILTIN_SUBAGENTS};
use crate::model::hosts::prose::ProseKind;
use crate::model::prose::Prose;
use crate::model::skill_md::{Shape, SkillMd};
use crate::syntax::TextRange;

pub const RULES: &[RuleDoc] = &[
    RuleDoc {
        code: codes::SUBAGENT_MISSING_FIELD,
        summary: "A subagent has no `name` or no `description`.",
        explanation: "Claude Code requires both in a subagent's frontmatter \
(https://code.claude.com/docs/en/sub-agents, checked 2026-12-04): `name` is how `agent:` values and the Agent tool \
name it, `description` is how Claude decides to delegate to it. Reported on the frontmatter's opening line \
(or the file's start when there is none). Add the field.",
    },
    RuleDoc {
        code: codes::SUBAGENT_UNKNOWN_FIELD,
        summary: "A subagent's frontmatter key is none Claude Code documents.",
        explanation: "Claude Code reads `name`, `description`, `tools`, `disallowedTools`, `model`, \
`permissionMode`, `maxTurns`, `skills`, `mcpServers`, `hooks`, `memory`, `background`, `effort`, `isolation`, \
`initialPrompt` and `color` (https://code.claude.com/docs/en/sub-agents, checked 2026-12-04) and ignores other \
keys, so a misspelt one (`tool:` for `tools:`) silently does nothing. The message suggests the closest known key \
when there is one.",
    },
    RuleDoc {
        code: codes::SUBAGENT_UNKNOWN_SKILL,
        summary: "A subagent's `skills:` entry names no skill Claude Code loads for this project.",
        explanation: "`skills:` preloads whole skills into the subagent when it starts \
(https://code.claude.com/docs/en/sub-agents, checked 2026-12-04); an entry naming no skill loads nothing. The \
skills of a project's subagents are those of `<project>/.claude/skills/` (skills in your home folder or in \
plugins are not seen here, so such an entry is reported too: keep the skill in the project, or silence the \
code for the line). A plugin's subagent (`agents/*.md` of a folder holding `.claude-plugin/plugin.json`, or \
the files its `agents` key lists) may name any skill of the workspace, its own plugin's by the bare name or as \
`<plugin>:<name>`. The closest skill of the folder (of the plugin, for a plugin's subagent) is suggested; the \
fix is a guess, applied only by `check --unsafe-fixes`.",
    },
    RuleDoc {
        code: codes::SKILLMD_UNKNOWN_AGENT,
        summary: "A forked skill's `agent:` names no subagent of the project and no built-in type.",
        explanation: "With `context: fork`, Claude Code runs the skill in the subagent `agent:` names: one of \
`<project>/.claude/agents/` or a built-in type (`general-purpose`, `Explore`, `Plan`, `statusline-setup`, \
`claude-code-guide`; https://code.claude.com/docs/en/skills and https://code.claude.com/docs/en/sub-agents, \
checked 2026-12-04). Checked for skills in `<project>/.claude/skills/`; in any skill, an `agent:` written \
`<plugin>:<name>` whose plugin is a `.claude-plugin/plugin.json` of the workspace must name a subagent of that \
plugin, as Claude Code namespaces plugin agents (https://code.claude.com/docs/en/plugins-reference). The \
closest known name is suggested \
(the built-in types are case-sensitive: `explore` is not `Explore`); the fix is a guess, applied only by \
`check --unsafe-fixes`.",
    },
];

/// `diagnostic` with a did-you-mean of the name of `names` closest to `written` (when the
/// lookup may suggest; `shown` writes it in the message), and, when `fixable`, the guessed fix
/// writing it over the diagnostic's range. Shared by the rules that name a skill, subagent or
/// command that is not there.
pub(super) fn with_guess(
    lookup: &Lookup<'_>,
    mut diagnostic: Diagnostic,
    written: &str,
    mut names: Vec<String>,
    fixable: bool,
    shown: impl Fn(&str) -> String,
) -> Diagnostic {
    names.sort_unstable();
    names.dedup();
    let best = lookup
        .may_suggest()
        .then(|| crate::suggest::closest_in(written, names.as_slice()))
        .flatten();
    if let Some(best) = best {
        diagnostic
            .message
            .push_str(&format!("; did you mean `{}`?", shown(best)));
        if fixable {
            let fix = Fix::replace(
                format!("Replace with `{best}`"),
                diagnostic.file,
                diagnostic.range,
                best,
            );
            diagnostic = diagnostic.with_fix(fix.preferred());
        }
    }
    diagnostic
}

/// `<project>/.claude` for a file inside it (`.claude/agents/x.md`, `.claude/commands/a/b.md`,
/// `.claude/skills/s/SKILL.md`).
fn claude_folder(path: &Path) -> Option<&Path> {
    path.ancestors()
        .skip(1)
        .find(|dir| dir.file_name().is_some_and(|n| n == ".claude"))
}

/// The folder of skill folders Claude Code loads for the project of `path`.
fn project_skills(path: &Path) -> Option<PathBuf> {
    claude_folder(path).map(|claude| claude.join("skills"))
}

pub fn check_prose(
    lookup: &Lookup<'_>,
    entry: &FileEntry,
    kind: ProseKind,
    prose: &Prose,
    out: &mut Vec<Diagnostic>,
) {
    if kind == ProseKind::Subagent {
        check_fields(entry.id, prose, out);
        check_skills(lookup, entry, prose, out);
    }
}

fn check_fields(file: FileId, prose: &Prose, out: &mut Vec<Diagnostic>) {
    let at = match &prose.frontmatter {
        crate::syntax::Frontmatter::Closed { open, .. }
        | crate::syntax::Frontmatter::Unclosed { open } => *open,
        crate::syntax::Frontmatter::Missing => TextRange::empty(0),
    };
    for (field, value) in [("name", &prose.name), ("description", &prose.description)] {
        if value.as_ref().is_none_or(|v| v.value.trim().is_empty()) {
            out.push(Diagnostic::new(
                codes::SUBAGENT_MISSING_FIELD,
                file,
                at,
                format!("this subagent has no `{field}`; Claude Code requires `name` and `description` in a subagent's frontmatter"),
            ));
        }
    }
    let known: Vec<&str> = crate::model::hosts::plugins::SUBAGENT_FIELDS
        .iter()
        .map(|f| f.key)
        .collect();
    let nearest = crate::suggest::Nearest::new(known.iter().copied());
    for key in &prose.keys {
        if subagent_field(&key.value).is_some() {
            continue;
        }
        let mut message = format!(
            "Claude Code does not read `{}` in a subagent's frontmatter, so it does nothing",
            key.value
        );
        if let Some(best) = nearest.closest(&key.value) {
            message.push_str(&format!("; did you mean `{best}`?"));
        }
        out.push(Diagnostic::new(
            codes::SUBAGENT_UNKNOWN_FIELD,
            file,
            key.range,
            message,
        ));
    }
}

/// The skill folders of `skills` that hold a SKILL.md named `name` (reads
/// `Key::SkillMdNamed`).
fn skills_named<'a>(lookup: &Lookup<'a>, skills: &Path, name: &str) -> Vec<&'a FileEntry> {
    lookup
        .get(Key::SkillMdNamed {
            name: name.to_owned(),
        })
        .into_iter()
        .filter(|e| crate::model::skill_md::skill_root(&e.path) == Some(skills))
        .collect()
}

/// The skills a subagent's `skills:` may name, and how the message names where they are
/// looked for: `<project>/.claude/skills/` for a project's subagent; for a plugin's, the
/// skills of the workspace (the plugin's own among them, by their bare or `<plugin>:` name).
enum PreloadScope {
    Project(PathBuf),
    Plugin { name: Option<String> },
}

fn check_skills(lookup: &Lookup<'_>, entry: &FileEntry, prose: &Prose, out: &mut Vec<Diagnostic>) {
    let scope = match entry.role.plugin_root() {
        Some(_) => PreloadScope::Plugin {
            name: crate::semantics::plugins::plugin_name_of(lookup, entry).map(str::to_owned),
        },
        None => match project_skills(&entry.path) {
            Some(skills) => PreloadScope::Project(skills),
            None => return,
        },
    };
    let mut known: Option<Vec<String>> = None;
    for skill in &prose.skills {
        let found = match &scope {
            PreloadScope::Project(skills) => !skills_named(lookup, skills, &skill.value).is_empty(),
            PreloadScope::Plugin { .. } => {
                !crate::semantics::mentions::preload_targets(lookup, entry, &skill.value).is_empty()
            }
        };
        if found {
            continue;
        }
        let known = known.get_or_insert_with(|| match &scope {
            PreloadScope::Project(skills) => lookup
                .get(Key::SkillMdIn {
                    parent: skills.clone(),
                })
                .iter()
                .filter_map(|e| match &e.parsed.content {
                    Content::SkillMd(s) => s.normalized_name(),
                    _ => None,
                })
                .collect(),
            PreloadScope::Plugin { name } => name
                .iter()
                .flat_map(|n| crate::semantics::plugins::plugins_named(lookup, n))
                .filter_map(|m| {
                    crate::semantics::plugins::manifest_of(m).map(|manifest| (m, manifest))
                })
                .flat_map(|(m, manifest)| {
                    crate::semantics::plugins::plugin_skill_names(lookup, &m.path, manifest)
                })
                .collect(),
        });
        let message = match &scope {
            PreloadScope::Project(_) => format!(
                "no skill named `{}` in `.claude/skills/`, so this subagent preloads nothing for it",
                skill.value
            ),
            PreloadScope::Plugin { name } => format!(
                "no skill named `{}` in the plugin{} or the workspace, so this subagent preloads nothing for it",
                skill.value,
                name.as_deref().map(|n| format!(" `{n}`")).unwrap_or_default()
            ),
        };
        // A plain scalar's range is the name itself; a quoted one keeps its quotes.
        let plain = entry
            .text
            .get(skill.range.start as usize..skill.range.end as usize)
            == Some(skill.value.as_str());
        out.push(with_guess(
            lookup,
            Diagnostic::new(
                codes::SUBAGENT_UNKNOWN_SKILL,
                entry.id,
                skill.range,
                message,
            ),
            &skill.value,
            known.clone(),
            plain,
            str::to_owned,
        ));
    }
}

/// `skillmd.unknown-agent`: a forked skill of `<project>/.claude/skills/` whose `agent:` names
/// neither a built-in type nor a subagent of `<project>/.claude/agents/`, or any forked skill
/// whose `agent: <plugin>:<name>` names no subagent of the workspace's plugin `<plugin>`.
pub fn check_agent(
    lookup: &Lookup<'_>,
    file: FileId,
    path: &Path,
    skill: &SkillMd,
    out: &mut Vec<Diagnostic>,
) {
    let forked = skill
        .field("context")
        .and_then(|f| f.value.shape.scalar())
        .is_some_and(|c| c == "fork");
    let Some(agent) = skill.field("agent") else {
        return;
    };
    let Some(name) = agent.value.shape.scalar() else {
        return;
    };
    if !forked || is_builtin_subagent(name) {
        return;
    }
    let (mut names, where_) = if let Some((plugin, agent)) = name.split_once(':') {
        // `<plugin>:<agent>`: a subagent of a plugin of the workspace (others are not judged).
        let manifests = crate::semantics::plugins::plugins_named(lookup, plugin);
        if manifests.is_empty()
            || !crate::semantics::plugins::plugin_subagents(lookup, plugin, agent).is_empty()
        {
            return;
        }
        let names: Vec<String> = manifests
            .iter()
            .flat_map(|m| {
                crate::semantics::plugins::plugin_component_names(
                    lookup,
                    &m.path,
                    ProseKind::Subagent,
                )
            })
            .map(|n| format!("{plugin}:{n}"))
            .collect();
        (names, format!("no subagent of the plugin `{plugin}`"))
    } else {
        let Some(claude) = claude_folder(path) else {
            return;
        };
        // Only skills Claude Code loads from the project's own folder.
        if crate::model::skill_md::skill_root(path) != Some(claude.join("skills").as_path()) {
            return;
        }
        let agents = claude.join("agents");
        let found = lookup
            .get(Key::SubagentNamed {
                name: name.to_owned(),
            })
            .into_iter()
            .any(|e| e.path.parent() == Some(agents.as_path()));
        if found {
            return;
        }
        let names: Vec<String> = lookup
            .get(Key::SubagentsIn {
                folder: agents.clone(),
            })
            .iter()
            .filter_map(|e| match &e.parsed.content {
                Content::Prose(p) => p.name.as_ref().map(|n| n.value.clone()),
                _ => None,
            })
            .collect();
        (names, "no subagent of `.claude/agents/`".to_owned())
    };
    names.extend(BUILTIN_SUBAGENTS.0.iter().map(|s| (*s).to_owned()));
    let message = format!(
        "`{name}` is {where_} and no built-in type, so Claude Code cannot fork this skill into it"
    );
    let plain = matches!(&agent.value.shape, Shape::Scalar(s) if s.style == crate::syntax::yaml::Style::Plain);
    out.push(with_guess(
        lookup,
        Diagnostic::new(
            codes::SKILLMD_UNKNOWN_AGENT,
            file,
            agent.value.range,
            message,
        ),
        name,
        names,
        plain,
        str::to_owned,
    ));
}
