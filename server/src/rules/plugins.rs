//! Plugin and marketplace manifests (`.claude-plugin/plugin.json`, `marketplace.json`,
//! `.github/plugin/marketplace.json`): JSON that does not parse, component paths that lead to
//! nothing of their kind, marketplace sources that lead to no folder, and `/plugin:name`
//! mentions of a plugin of the file set that name none of its skills or commands. Where paths
//! lead is `semantics::plugins`; the facts (which key adds to or replaces its default folder,
//! what it takes) are `model::hosts::plugins`.

use super::rule_doc::RuleDoc;
use crate::diagnostic::{codes, Diagnostic, FileId};
use crate::index::{FileEntry, Lookup};
use crate::model::hosts::plugins::{ManifestKind, PathTakes};
use crate::model::hosts::prose::ProseKind;
use crate::model::mentions::{Mention, Sigil};
use crate::model::plugin_manifest::{manifest_root, Manifest};
use crate::semantics::plugins::{
    component_status, manifest_of, marketplace_source, plugin_commands, plugin_component_names,
    plugin_skill_names, plugin_skills, source_is_plugin, PathStatus,
};
use crate::syntax::TextRange;

pub const RULES: &[RuleDoc] = &[
    RuleDoc {
        code: codes::PLUGIN_JSON_PARSE,
        summary: "A plugin or marketplace manifest is not valid JSON.",
        explanation: "Claude Code and the Copilot CLI read `.claude-plugin/plugin.json`, \
`.claude-plugin/marketplace.json` and `.github/plugin/marketplace.json` as strict JSON \
(https://code.claude.com/docs/en/plugins-reference, checked 2026-12-04): no comments, no trailing commas. A \
manifest that does not parse loads no plugin. Reported once, where the text stops parsing; nothing else of the \
file is judged until it parses.",
    },
    RuleDoc {
        code: codes::PLUGIN_MISSING_PATH,
        summary: "A `skills`, `agents`, `commands`, `hooks` or `outputStyles` path of `plugin.json` leads to nothing of its kind.",
        explanation: "Component paths are relative to the plugin root (the folder holding \
`.claude-plugin/`), must stay inside it, and must exist (https://code.claude.com/docs/en/plugins-reference, \
checked 2026-12-04). A `skills` path is a folder of `<name>/SKILL.md` folders (or one skill's folder) and adds to \
`skills/`; `commands` and `agents` replace their default folders, so a wrong path there also hides the defaults; \
`agents` lists `.md` files; `hooks` names a `.json` file. Judged from the files read, so `check` and the editor \
say the same: every SKILL.md and `.json` file is read, and so is every `.md` file where the manifest puts the \
plugin's agents and commands; an agent path with no file, or a commands folder with no `.md` file in or below \
it, loads nothing. `outputStyles` paths are not judged. Reported on the JSON string.",
    },
    RuleDoc {
        code: codes::PLUGIN_MISSING_SOURCE,
        summary: "A marketplace's `plugins[].source` path leads to no plugin folder.",
        explanation: "A relative `source` resolves from the marketplace's root (the folder holding \
`.claude-plugin/` or `.github/`); a bare name is looked up below `metadata.pluginRoot` \
(https://code.claude.com/docs/en/plugin-marketplaces and \
https://docs.github.com/en/copilot/reference/copilot-cli-reference/cli-plugin-reference, checked 2026-12-04). A \
source that is no plugin folder installs nothing. A folder counts as a plugin when it holds a \
`.claude-plugin/plugin.json` or a skill in `skills/`: the files that are read, so `check` and the editor say the \
same. Object sources (`github`, `url`, `git`) are not judged.",
    },
    RuleDoc {
        code: codes::PLUGIN_UNKNOWN_SKILL,
        summary: "A `/plugin:name` mention names a plugin of the workspace that has no skill or command `name`.",
        explanation: "A plugin's `name` namespaces every skill and command it ships: Claude Code runs them as \
`/<plugin>:<name>` (https://code.claude.com/docs/en/plugins-reference, checked 2026-12-04). When `<plugin>` is \
the `name` of a `.claude-plugin/plugin.json` in the workspace, the mention resolves among that plugin's skills \
(`skills/` and its `skills` paths) and commands (`commands/`, or its `commands` paths); one naming neither runs \
nothing. The closest skill or command of the plugin is suggested; the fix is a guess, applied only by \
`check --unsafe-fixes`.",
    },
];

/// The checks of a manifest file.
pub fn check_manifest(
    lookup: &Lookup<'_>,
    entry: &FileEntry,
    manifest: &Manifest,
    out: &mut Vec<Diagnostic>,
) {
    let file = entry.id;
    if let Some(error) = &manifest.error {
        out.push(Diagnostic::new(
            codes::PLUGIN_JSON_PARSE,
            file,
            error.range,
            format!(
                "this manifest is not valid JSON: {}; no host loads it until it parses",
                error.message
            ),
        ));
        return;
    }
    let Some(root) = manifest_root(&entry.path) else {
        return;
    };
    match manifest.kind {
        ManifestKind::Plugin => {
            for path in &manifest.paths {
                let value = &path.path.value;
                let key = path.key.key;
                let message = match component_status(lookup, root, path) {
                    PathStatus::Fine => continue,
                    PathStatus::Outside => format!(
                        "`{value}` leads outside the plugin's folder; component paths are relative to the plugin root (the folder holding `.claude-plugin/`) and must stay inside it"
                    ),
                    PathStatus::Missing => format!(
                        "`{value}` does not exist; component paths are relative to the plugin root (the folder holding `.claude-plugin/`)"
                    ),
                    PathStatus::NoSkill => format!(
                        "no skill is at `{value}`: `skills` paths are folders of `<name>/SKILL.md` folders (or one skill's folder), relative to the plugin root"
                    ),
                    PathStatus::NoCommand => format!(
                        "no command is at `{value}`: no `.md` file is there or below it (component paths are relative to the plugin root)"
                    ),
                    PathStatus::NotOfKind => match path.key.takes {
                        PathTakes::JsonFiles => format!(
                            "`{value}` is no `.json` file, and `{key}` names one"
                        ),
                        _ => format!(
                            "`{value}` is no `.md` file, and `{key}` lists `.md` files: name each file"
                        ),
                    },
                };
                out.push(Diagnostic::new(
                    codes::PLUGIN_MISSING_PATH,
                    file,
                    path.path.range,
                    message,
                ));
            }
        }
        ManifestKind::Marketplace => {
            for plugin in &manifest.plugins {
                let Some(source) = &plugin.source else {
                    continue;
                };
                let Some(folder) = marketplace_source(&entry.path, manifest, &source.value) else {
                    continue;
                };
                let base = match &manifest.plugin_root {
                    Some(base) if !source.value.starts_with('.') => {
                        format!("below `metadata.pluginRoot` (`{}`)", base.value)
                    }
                    _ => "from the marketplace's root".to_owned(),
                };
                let value = &source.value;
                if source_is_plugin(lookup, &folder) {
                    continue;
                }
                let message = format!(
                    "`{value}` leads to no plugin: no `.claude-plugin/plugin.json` and no skill in `skills/` there (a plugin's source is resolved {base})"
                );
                out.push(Diagnostic::new(
                    codes::PLUGIN_MISSING_SOURCE,
                    file,
                    source.range,
                    message,
                ));
            }
        }
    }
}

/// A `/plugin:name` mention whose plugin is `plugins` (the manifests of the file set named so):
/// reported when no plugin of that name has the skill or the command.
pub fn check_mention(
    lookup: &Lookup<'_>,
    file: FileId,
    text: &str,
    mention: &Mention,
    plugins: &[&FileEntry],
    out: &mut Vec<Diagnostic>,
) {
    let name = mention.name(text);
    let Some(plugin) = mention.plugin(text) else {
        return;
    };
    let manifests: Vec<(&FileEntry, &Manifest)> = plugins
        .iter()
        .filter_map(|e| manifest_of(e).map(|m| (*e, m)))
        .collect();
    for (entry, manifest) in &manifests {
        if !plugin_skills(lookup, &entry.path, manifest, name).is_empty() {
            return;
        }
        if !plugin_commands(lookup, &entry.path, name).is_empty() {
            return;
        }
    }
    let names: Vec<String> = manifests
        .iter()
        .flat_map(|(entry, manifest)| {
            let commands = plugin_component_names(lookup, &entry.path, ProseKind::Command);
            plugin_skill_names(lookup, &entry.path, manifest)
                .into_iter()
                .chain(commands)
        })
        .collect();
    let sigil = match mention.sigil {
        Sigil::Slash => "/",
        Sigil::Dollar => "$",
    };
    let shown: String = name.chars().take(80).collect();
    let clipped = if shown.len() < name.len() { "…" } else { "" };
    let message = format!(
        "the plugin `{plugin}` has no skill or command `{shown}{clipped}`, so `{sigil}{plugin}:{shown}{clipped}` runs nothing"
    );
    let mut diagnostic = super::subagents::with_guess(
        lookup,
        Diagnostic::new(codes::PLUGIN_UNKNOWN_SKILL, file, mention.name, message),
        name,
        names,
        true,
        |best| format!("{sigil}{plugin}:{best}"),
    );
    for (entry, manifest) in manifests.iter().take(20) {
        let range = manifest
            .plugin_name()
            .map_or(TextRange::empty(0), |n| n.range);
        diagnostic = diagnostic.with_related(entry.id, range, format!("the plugin `{plugin}`"));
    }
    out.push(diagnostic);
}
