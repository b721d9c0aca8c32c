//! Mentions in prose (`/name`, `/plugin:name`, `$name` in a SKILL.md body or a prose file the
//! hosts load) and a subagent's `skills:` entries in the editor: go to definition, hover (which
//! says when a mention closes a loop of mentions), the places a file names a skill (for
//! references, rename and highlights), and completion after `/`, `$` and `/plugin:`.

use super::answers::{CompletionItem, CompletionKind, Completions, HoverResult};
use crate::diagnostic::FileId;
use crate::index::{Content, Index, Lookup};
use crate::semantics::mentions::{mention_at, skills_in_scope, targets};
use crate::syntax::TextRange;

/// The SKILL.md files the name under the cursor means, with the range of each's `name`.
pub fn definition(index: &Index, file: FileId, offset: u32) -> Option<Vec<(FileId, TextRange)>> {
    let entry = index.file(file)?;
    let lookup = Lookup::new(index);
    let found = if let Some(mention) = mention_at(entry, offset) {
        targets(&lookup, entry, &mention)
            .into_iter()
            .map(|(_, e)| e)
            .collect::<Vec<_>>()
    } else {
        let Content::Prose(prose) = &entry.parsed.content else {
            return None;
        };
        let skill = prose
            .skills
            .iter()
            .find(|s| s.range.start <= offset && offset <= s.range.end)?;
        crate::semantics::mentions::preload_targets(&lookup, entry, &skill.value)
    };
    Some(
        found
            .into_iter()
            .map(|e| {
                let range = match &e.parsed.content {
                    Content::SkillMd(s) => s.name_range().unwrap_or_default(),
                    _ => TextRange::default(),
                };
                (e.id, range)
            })
            .collect(),
    )
}

/// The skill named by the mention or the subagent preload at `offset`, if it names one.
pub fn target_at(index: &Index, file: FileId, offset: u32) -> Option<&crate::index::FileEntry> {
    let targets = definition(index, file, offset)?;
    targets.first().and_then(|(id, _)| index.file(*id))
}

/// Where the name of the mention or preload at `offset` is written.
pub fn name_range_at(index: &Index, file: FileId, offset: u32) -> Option<TextRange> {
    let entry = index.file(file)?;
    if let Some(mention) = mention_at(entry, offset) {
        return Some(mention.name);
    }
    let Content::Prose(prose) = &entry.parsed.content else {
        return None;
    };
    prose
        .skills
        .iter()
        .find(|s| s.range.start <= offset && offset <= s.range.end)
        .map(|s| s.range)
}

/// Every mention and subagent preload in the index that names `target`, in any file: one pass
/// over the files with mentions or preloads, for a references request.
pub fn references_to(index: &Index, target: &crate::index::FileEntry) -> Vec<(FileId, TextRange)> {
    let mut out = Vec::new();
    for entry in index.files() {
        if matches!(
            entry.parsed.content,
            Content::Prose(_) | Content::SkillMd(_)
        ) {
            out.extend(
                names_in(index, entry, target)
                    .into_iter()
                    .map(|r| (entry.id, r)),
            );
        }
    }
    out
}

/// Where `entry` names the skill `target` in a mention or a subagent preload (the names'
/// ranges), for references and document highlights.
pub fn names_in(
    index: &Index,
    entry: &crate::index::FileEntry,
    target: &crate::index::FileEntry,
) -> Vec<TextRange> {
    let Content::SkillMd(skill) = &target.parsed.content else {
        return Vec::new();
    };
    let Some(name) = skill.normalized_name() else {
        return Vec::new();
    };
    let lookup = Lookup::new(index);
    let preloads = match &entry.parsed.content {
        Content::Prose(prose) => prose.skills.as_slice(),
        _ => &[],
    };
    let names_it = |written: &str| {
        written == name
            && skills_in_scope(&lookup, &entry.path, written)
                .iter()
                .any(|e| e.id == target.id)
    };
    let preload_names_it = |written: &str| {
        written.rsplit(':').next() == Some(name.as_str())
            && crate::semantics::mentions::preload_targets(&lookup, entry, written)
                .iter()
                .any(|e| e.id == target.id)
    };
    let mut out = Vec::new();
    for mention in crate::semantics::mentions::mentions_of(entry) {
        let written = mention.name(&entry.text);
        // A `/plugin:name` names the skill when it resolves to it (a plugin of the file set's
        // own skill).
        let hit = match mention.plugin {
            None => names_it(written),
            Some(_) => {
                written == name
                    && targets(&lookup, entry, &mention)
                        .iter()
                        .any(|(id, _)| *id == target.id)
            }
        };
        if hit {
            out.push(mention.name);
        }
    }
    for preload in preloads {
        if preload_names_it(&preload.value) {
            // `<plugin>:<name>`: the name after the plugin's (a plain scalar's range is its text).
            let plain = entry
                .text
                .get(preload.range.start as usize..preload.range.end as usize)
                == Some(preload.value.as_str());
            let skip = match preload.value.rfind(':') {
                Some(colon) if plain => colon as u32 + 1,
                _ => 0,
            };
            out.push(TextRange::new(
                preload.range.start + skip,
                preload.range.end,
            ));
        }
    }
    out
}

/// The skill a mention names: its description, where it is defined, and which hosts load it.
pub fn hover(index: &Index, file: FileId, offset: u32) -> Option<HoverResult> {
    let entry = index.file(file)?;
    let mention = mention_at(entry, offset)?;
    let lookup = Lookup::new(index);
    let found = targets(&lookup, entry, &mention);
    let (_, skill) = found.first()?;
    let Content::SkillMd(md) = &skill.parsed.content else {
        // A plugin's command: where it is defined.
        let name = crate::semantics::plugins::component_name(skill)?;
        return Some(HoverResult {
            markdown: format!(
                "**command `{name}`**\n\nDefined in `{}`",
                skill.path.display()
            ),
            range: mention.range,
        });
    };
    let name = md.normalized_name().unwrap_or_default();
    let mut markdown = format!("**skill `{name}`**");
    if let Some(description) = md.description.as_ref().and_then(|d| d.text()) {
        markdown.push_str("\n\n");
        markdown.push_str(&description.value);
    }
    markdown.push_str(&format!("\n\nDefined in `{}`", skill.path.display()));
    if found.len() > 1 {
        markdown.push_str(&format!(" (and {} more)", found.len() - 1));
    }
    let hosts = crate::rules::skill_hosts::hosts_of(&lookup, &skill.path);
    if !hosts.hosts.is_empty() {
        markdown.push_str(&format!(
            "\n\nLoaded by {} ({})",
            crate::model::hosts::host_list(&hosts.hosts),
            hosts.why()
        ));
    }
    // Mentions are not ordering, so a loop of them is no error; the hover says so all the same.
    if matches!(entry.parsed.content, Content::SkillMd(_)) {
        if let Some(path) = crate::semantics::mentions::mention_loop(index, entry.id, skill) {
            let mut names = vec![path.last().cloned().unwrap_or_default()];
            names.extend(path);
            let shown: Vec<String> = names.iter().take(12).map(|n| format!("`{n}`")).collect();
            let more = if names.len() > shown.len() {
                " → …"
            } else {
                ""
            };
            markdown.push_str(&format!(
                "\n\nCloses a loop of mentions: {}{more}",
                shown.join(" → ")
            ));
        }
    }
    Some(HoverResult {
        markdown,
        range: mention.range,
    })
}

/// Completion of a mention being typed after `/` or `$` in a SKILL.md body or a prose file:
/// the skills in scope (and, after `/`, the legacy commands of the same project and every
/// plugin's skills and commands in plugin form, `<plugin>:<name>`). One pass over the index's
/// files per request; nothing is kept.
pub fn completion(index: &Index, file: FileId, offset: u32) -> Option<Completions> {
    let entry = index.file(file)?;
    let body_from = match &entry.parsed.content {
        Content::Prose(prose) => prose.body_start,
        Content::SkillMd(skill) => {
            crate::model::skill_links::body_start(&entry.text, &skill.frontmatter)? as u32
        }
        _ => return None,
    };
    let bytes = entry.text.as_bytes();
    let offset = offset as usize;
    if offset > bytes.len() || (offset as u32) < body_from {
        return None;
    }
    let mut start = offset;
    while start > 0
        && (bytes[start - 1].is_ascii_alphanumeric() || b"-_:".contains(&bytes[start - 1]))
    {
        start -= 1;
    }
    let sigil = *bytes.get(start.checked_sub(1)?)?;
    if sigil != b'/' && sigil != b'$' {
        return None;
    }
    let before = start.checked_sub(2).map(|i| bytes[i]);
    if before.is_some_and(|b| !(b.is_ascii_whitespace() || b"([{\"'`*_>,;|".contains(&b))) {
        return None;
    }
    // `/plugin:` of a plugin of the workspace: that plugin's skills, written in plugin form.
    let typed = &entry.text[start..offset];
    let lookup = Lookup::new(index);
    if let Some((plugin, _)) = typed.split_once(':') {
        let plugins = crate::semantics::plugins::plugins_named(&lookup, plugin);
        if !plugins.is_empty() {
            let mut items: Vec<CompletionItem> = plugins
                .iter()
                .flat_map(|manifest| plugin_form_items(&lookup, manifest))
                .collect();
            items.sort_by(|a, b| a.label.cmp(&b.label));
            items.dedup_by(|a, b| a.label == b.label);
            return Some(Completions {
                range: TextRange::new(start as u32, offset as u32),
                items,
            });
        }
    }
    let project = entry.path.ancestors().skip(1).find_map(|dir| {
        let hidden = dir
            .file_name()
            .is_some_and(|n| n.as_encoded_bytes().first() == Some(&b'.'));
        hidden.then(|| dir.parent()).flatten()
    });
    let in_scope = |path: &std::path::Path| project.is_none_or(|p| path.starts_with(p));
    let mut items: Vec<CompletionItem> = Vec::new();
    for other in index.files() {
        if !in_scope(&other.path) {
            continue;
        }
        match &other.parsed.content {
            Content::SkillMd(skill) => {
                if let Some(name) = skill.normalized_name() {
                    items.push(CompletionItem {
                        label: name,
                        documentation: skill
                            .description
                            .as_ref()
                            .and_then(|d| d.text())
                            .map(|d| d.value.clone()),
                        detail: Some(other.path.display().to_string()),
                        kind: CompletionKind::Skill,
                    });
                }
            }
            Content::Prose(_)
                if sigil == b'/'
                    && other.role
                        == crate::index::FileRole::Prose(
                            crate::model::hosts::prose::ProseKind::Command,
                        ) =>
            {
                if let Some(stem) = other.path.file_stem().and_then(|s| s.to_str()) {
                    items.push(CompletionItem {
                        label: stem.to_owned(),
                        documentation: None,
                        detail: Some(format!("command: {}", other.path.display())),
                        kind: CompletionKind::Skill,
                    });
                }
            }
            // After `/`, each plugin's skills and commands as the host invokes them:
            // `/<plugin>:<name>`.
            Content::Manifest(_) if sigil == b'/' => {
                items.extend(plugin_form_items(&lookup, other));
            }
            _ => {}
        }
    }
    items.sort_by(|a, b| a.label.cmp(&b.label));
    items.dedup_by(|a, b| a.label == b.label);
    Some(Completions {
        range: TextRange::new(start as u32, offset as u32),
        items,
    })
}

/// The skills and commands of the plugin whose manifest is `manifest`, labelled as a mention
/// names them: `<plugin>:<name>`. Nothing for a marketplace or a plugin with no name.
fn plugin_form_items(
    lookup: &Lookup<'_>,
    manifest: &crate::index::FileEntry,
) -> Vec<CompletionItem> {
    use crate::semantics::plugins;
    let Some(parsed) = plugins::manifest_of(manifest) else {
        return Vec::new();
    };
    let Some(plugin) = parsed.plugin_name().map(|n| n.value.as_str()) else {
        return Vec::new();
    };
    let skills = plugins::plugin_skill_names(lookup, &manifest.path, parsed)
        .into_iter()
        .map(|name| (name, "skill"));
    let commands = plugins::plugin_component_names(
        lookup,
        &manifest.path,
        crate::model::hosts::prose::ProseKind::Command,
    )
    .into_iter()
    .map(|name| (name, "command"));
    skills
        .chain(commands)
        .map(|(name, what)| CompletionItem {
            label: format!("{plugin}:{name}"),
            documentation: None,
            detail: Some(format!("{what} of the plugin `{plugin}`")),
            kind: CompletionKind::Skill,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{answer_at, item_labels};
    use crate::testing::fixture;

    const SKILLS: &str = "//- /c/skills/release-notes/SKILL.md
---
name: release-notes
description: Writes the release notes.
---
Body.
";

    /// A plugin `deploy` whose `skills` path adds `more/`, with a command; a skill outside it;
    /// a marketplace. The prose file naming them is added by each test.
    const PLUGIN: &str = "//- /r/deploy/.claude-plugin/plugin.json
{\"name\": \"deploy\", \"skills\": \"./more\"}
//- /r/deploy/skills/ship/SKILL.md
---
name: ship
description: Ships.
---
Body.
//- /r/deploy/more/rollback/SKILL.md
---
name: rollback
description: Rolls back.
---
Body.
//- /r/deploy/commands/release.md
---
description: Releases.
---
Release.
//- /r/other/SKILL.md
---
name: other
description: Not the plugin's.
---
Body.
//- /r/market/.claude-plugin/marketplace.json
{\"name\": \"market\", \"plugins\": []}
";

    #[test]
    fn completion_after_a_workspace_plugins_namespace_offers_its_skills() {
        let text = format!("{PLUGIN}//- /r/CLAUDE.md\nRun /deploy:$0\n");
        let done = answer_at(&text, super::completion).expect("completions");
        assert_eq!(
            item_labels(&done),
            ["deploy:release", "deploy:rollback", "deploy:ship"]
        );
    }

    #[test]
    fn completion_after_a_bare_slash_offers_plugin_items_in_plugin_form() {
        let text = format!("{PLUGIN}//- /r/CLAUDE.md\nRun /$0\n");
        let done = answer_at(&text, super::completion).expect("completions");
        assert_eq!(
            item_labels(&done),
            [
                "deploy:release",
                "deploy:rollback",
                "deploy:ship",
                "other",
                "rollback",
                "ship"
            ],
            "the plugin's skills and command in plugin form, the skills by name; nothing of a marketplace"
        );
        // `$` is Codex's skill mention: no plugin form there.
        let dollar =
            answer_at(&text.replace("Run /$0", "Run $$0"), super::completion).expect("completions");
        assert_eq!(item_labels(&dollar), ["other", "rollback", "ship"]);
    }

    /// The workspace of [`SKILLS`] with a skill `ship` whose body is `body`.
    fn ship_saying(body: &str) -> String {
        format!("{SKILLS}//- /c/skills/ship/SKILL.md\n---\nname: ship\ndescription: Ships.\n---\n{body}")
    }

    #[test]
    fn definition_and_hover_from_a_mention_in_a_skill_body() {
        let text = ship_saying("Then run `/release-no$0tes`.\n");
        let f = fixture(&text);
        let targets = super::definition(&f.index, f.cursor_file, f.offset).unwrap();
        assert_eq!(targets.len(), 1);
        let path = &f.index.file(targets[0].0).unwrap().path;
        assert_eq!(path.to_str(), Some("/c/skills/release-notes/SKILL.md"));
        let hover = super::hover(&f.index, f.cursor_file, f.offset).unwrap();
        assert!(
            hover.markdown.contains("Writes the release notes."),
            "{}",
            hover.markdown
        );
        assert!(hover.markdown.contains("/c/skills/release-notes/SKILL.md"));
    }

    #[test]
    fn definition_from_claude_md_and_a_subagent_preload() {
        let lint = "//- /p/.claude/skills/lint/SKILL.md\n---\nname: lint\ndescription: Lints.\n---\nBody.\n";
        let text = format!(
            "{lint}//- /p/.claude/agents/r.md\n---\nname: r\ndescription: R.\nskills: [li$0nt]\n---\nBody.\n"
        );
        let f = fixture(&text);
        let targets = super::definition(&f.index, f.cursor_file, f.offset).unwrap();
        assert_eq!(targets.len(), 1);
        let hover = super::hover(&f.index, f.cursor_file, f.offset);
        assert!(hover.is_none(), "a preload's hover is the field's");
        let f = fixture(&format!(
            "{lint}//- /p/CLAUDE.md\nAlways run /li$0nt first.\n"
        ));
        let hover = super::hover(&f.index, f.cursor_file, f.offset).unwrap();
        assert!(
            hover.markdown.contains("Loaded by Claude Code"),
            "{}",
            hover.markdown
        );
    }

    #[test]
    fn the_hover_of_a_mention_says_when_it_closes_a_loop() {
        let text = "//- /r/skills/alpha/SKILL.md
---
name: alpha
description: A.
---
Then /beta.
//- /r/skills/beta/SKILL.md
---
name: beta
description: B.
---
Then /gamma.
//- /r/skills/gamma/SKILL.md
---
name: gamma
description: C.
---
Back to /alpha.
//- /r/skills/delta/SKILL.md
---
name: delta
description: D.
---
Run /alpha$0.
";
        let f = fixture(text);
        let hover = super::hover(&f.index, f.cursor_file, f.offset).expect("a hover");
        assert!(!hover.markdown.contains("loop"), "{}", hover.markdown);
        let looping = text
            .replace("Run /alpha$0.", "Run /alpha.")
            .replace("Back to /alpha.", "Back to /alpha$0.");
        let f = fixture(&looping);
        let hover = super::hover(&f.index, f.cursor_file, f.offset).expect("a hover");
        assert!(
            hover
                .markdown
                .contains("Closes a loop of mentions: `gamma` → `alpha` → `beta` → `gamma`"),
            "{}",
            hover.markdown
        );
    }

    #[test]
    fn completion_after_a_slash_or_a_dollar_in_the_body() {
        let text = ship_saying("Then run /rel$0\n");
        let f = fixture(&text);
        let got = super::completion(&f.index, f.cursor_file, f.offset).unwrap();
        assert_eq!(item_labels(&got), ["release-notes", "ship"]);
        let written = &f.index.file(f.cursor_file).unwrap().text
            [got.range.start as usize..got.range.end as usize];
        assert_eq!(written, "rel");
        // Not in a path, not in the frontmatter.
        let text = ship_saying("See src/re$0\n");
        assert!(answer_at(&text, super::completion).is_none());
        let text = format!("{SKILLS}//- /c/skills/ship/SKILL.md\n---\nname: /sh$0\n---\n");
        assert!(answer_at(&text, super::completion).is_none());
    }

    #[test]
    fn nothing_on_prose_that_is_no_mention() {
        let text = ship_saying("See /usr/b$0in.\n");
        let f = fixture(&text);
        assert!(super::definition(&f.index, f.cursor_file, f.offset).is_none());
        assert!(super::hover(&f.index, f.cursor_file, f.offset).is_none());
    }
}
