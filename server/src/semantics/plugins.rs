//! What a plugin or marketplace manifest names: where each component path of `plugin.json`
//! leads and whether something of its kind is there, the folders a plugin's skills come from
//! (a custom `skills` path adds to `skills/`, a custom `commands` or `agents` path replaces its
//! default: `model::hosts::plugins::COMPONENT_KEYS`), the plugin's subagents and commands, the
//! skills and commands a `/plugin:name` mention means, and where a marketplace's
//! `plugins[].source` leads.
//!
//! Everything is judged from the file set alone, so `check` and the editor say the same: every
//! `SKILL.md` and every `.json` file is read, and so is every Markdown file where a plugin's
//! layout puts its subagents and commands (`model::plugin_manifest::PluginLayout`); a path
//! that leads to none of these is missing, and a file appearing there re-checks the manifest
//! through the keys it read.

use std::path::{Path, PathBuf};

use crate::index::{Content, FileEntry, FileRole, Key, Lookup};
use crate::model::hosts::plugins::PathTakes;
use crate::model::hosts::prose::ProseKind;
use crate::model::plugin_manifest::{manifest_root, source_path, ComponentPath, Manifest};
use crate::model::schema_file::{resolve, Target};

/// The plugin manifests whose `name` is `name`, in path order. Reads `Key::PluginNamed`.
pub fn plugins_named<'a>(lookup: &Lookup<'a>, name: &str) -> Vec<&'a FileEntry> {
    lookup.get(Key::PluginNamed {
        name: name.to_owned(),
    })
}

/// The manifest of a plugin manifest's entry.
pub fn manifest_of(entry: &FileEntry) -> Option<&Manifest> {
    match (&entry.role, &entry.parsed.content) {
        (FileRole::PluginManifest(_), Content::Manifest(manifest)) => Some(manifest),
        _ => None,
    }
}

pub use crate::model::plugin_manifest::{component_target, key_row, locations};

/// True when the SKILL.md at `skill` is loaded from the skills location `location`: a skill
/// folder directly in it, or the location itself being one skill's folder.
fn skill_in(skill: &Path, location: &Path) -> bool {
    let Some(folder) = skill.parent() else {
        return false;
    };
    folder == location || folder.parent() == Some(location)
}

/// The skills named `name` that the plugin of `manifest_path` ships. Reads
/// `Key::SkillMdNamed{name}`.
pub fn plugin_skills<'a>(
    lookup: &Lookup<'a>,
    manifest_path: &Path,
    manifest: &Manifest,
    name: &str,
) -> Vec<&'a FileEntry> {
    let Some(root) = manifest_root(manifest_path) else {
        return Vec::new();
    };
    let places = locations(root, manifest, key_row("skills"));
    lookup
        .get(Key::SkillMdNamed {
            name: name.to_owned(),
        })
        .into_iter()
        .filter(|skill| places.iter().any(|place| skill_in(&skill.path, place)))
        .collect()
}

/// The names of every skill the plugin ships (for a did-you-mean and completion). Reads
/// `Key::SkillMdIn` of each skills location and of its parent.
pub fn plugin_skill_names(
    lookup: &Lookup<'_>,
    manifest_path: &Path,
    manifest: &Manifest,
) -> Vec<String> {
    let Some(root) = manifest_root(manifest_path) else {
        return Vec::new();
    };
    let mut names = Vec::new();
    for place in locations(root, manifest, key_row("skills")) {
        let parents = [Some(place.clone()), place.parent().map(Path::to_path_buf)];
        for parent in parents.into_iter().flatten() {
            for skill in lookup.get(Key::SkillMdIn { parent }) {
                if !skill_in(&skill.path, &place) {
                    continue;
                }
                if let Content::SkillMd(s) = &skill.parsed.content {
                    if let Some(name) = s.normalized_name() {
                        names.push(name);
                    }
                }
            }
        }
    }
    names.sort_unstable();
    names.dedup();
    names
}

/// The subagents and commands of the plugin at `root` (`FileRole::PluginProse`), in id order.
/// Reads `Key::PluginComponents{root}`.
pub fn plugin_components<'a>(lookup: &Lookup<'a>, root: &Path) -> Vec<&'a FileEntry> {
    lookup.get(Key::PluginComponents {
        root: root.to_owned(),
    })
}

/// The components of `kind` of the plugin at `root`.
fn components_of<'a>(lookup: &Lookup<'a>, root: &Path, kind: ProseKind) -> Vec<&'a FileEntry> {
    plugin_components(lookup, root)
        .into_iter()
        .filter(|e| e.role.prose_kind() == Some(kind))
        .collect()
}

/// The name a plugin component goes by in its plugin's namespace: a subagent's `name`, a
/// command's file name.
pub fn component_name(entry: &FileEntry) -> Option<&str> {
    match (entry.role.prose_kind()?, &entry.parsed.content) {
        (ProseKind::Subagent, Content::Prose(prose)) => prose
            .name
            .as_ref()
            .map(|n| n.value.as_str())
            .filter(|n| !n.is_empty()),
        (ProseKind::Command, _) => entry.path.file_stem()?.to_str(),
        _ => None,
    }
}

/// The commands named `name` of the plugin of `manifest_path` (a `/<plugin>:<name>` runs one).
pub fn plugin_commands<'a>(
    lookup: &Lookup<'a>,
    manifest_path: &Path,
    name: &str,
) -> Vec<&'a FileEntry> {
    let Some(root) = manifest_root(manifest_path) else {
        return Vec::new();
    };
    components_of(lookup, root, ProseKind::Command)
        .into_iter()
        .filter(|e| component_name(e) == Some(name))
        .collect()
}

/// The names of every command or every subagent of the plugin of `manifest_path`, sorted.
pub fn plugin_component_names(
    lookup: &Lookup<'_>,
    manifest_path: &Path,
    kind: ProseKind,
) -> Vec<String> {
    let Some(root) = manifest_root(manifest_path) else {
        return Vec::new();
    };
    let mut names: Vec<String> = components_of(lookup, root, kind)
        .iter()
        .filter_map(|e| component_name(e).map(str::to_owned))
        .collect();
    names.sort_unstable();
    names.dedup();
    names
}

/// The subagent `<plugin>:<name>` names: the subagents called `name` of the plugins of the
/// file set called `plugin`. Reads `Key::PluginNamed` and each plugin's components.
pub fn plugin_subagents<'a>(lookup: &Lookup<'a>, plugin: &str, name: &str) -> Vec<&'a FileEntry> {
    plugins_named(lookup, plugin)
        .iter()
        .filter_map(|m| manifest_root(&m.path))
        .flat_map(|root| components_of(lookup, root, ProseKind::Subagent))
        .filter(|e| component_name(e) == Some(name))
        .collect()
}

/// The name of the plugin whose subagent or command `entry` is (its manifest's `name`).
pub fn plugin_name_of<'a>(lookup: &Lookup<'a>, entry: &FileEntry) -> Option<&'a str> {
    let root = entry.role.plugin_root()?;
    let path = root.join(".claude-plugin").join("plugin.json");
    let manifest = lookup.get(Key::JsonFile { path }).into_iter().next()?;
    manifest_of(manifest)?
        .plugin_name()
        .map(|n| n.value.as_str())
}

/// What a component path of `plugin.json` finds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PathStatus {
    /// Something of the key's kind is there (or it is not judged: `outputStyles`).
    Fine,
    /// The path leads outside the plugin's folder (or is a URL).
    Outside,
    /// No file is there (the file set holds every `.json` file, and every `.md` file of a
    /// plugin's agent and command paths).
    Missing,
    /// A `skills` folder with no skill in it or in a folder directly inside it.
    NoSkill,
    /// A `commands` folder with no `.md` file in it or below it.
    NoCommand,
    /// A path of a key that takes files of one extension, with another.
    NotOfKind,
}

/// What `path` (a component path of the plugin at `root`) finds, judged from the file set
/// alone: the SKILL.md keys of a `skills` path, the JSON file of a `hooks` path, and the
/// plugin's components for its `agents` and `commands` paths (whose Markdown the file set
/// holds, the layout having claimed it).
pub fn component_status(lookup: &Lookup<'_>, root: &Path, path: &ComponentPath) -> PathStatus {
    let Some(target) = component_target(root, &path.path.value) else {
        return PathStatus::Outside;
    };
    let extension = |e: &str| target.extension().is_some_and(|x| x == e);
    let component_at = |below: bool| {
        plugin_components(lookup, root)
            .iter()
            .any(|e| e.path == target || (below && e.path.starts_with(&target)))
    };
    match (path.key.takes, path.key.key) {
        (PathTakes::Folders, _) => {
            let has_skill = !lookup
                .get(Key::SkillMdIn {
                    parent: target.clone(),
                })
                .is_empty()
                || target.parent().is_some_and(|parent| {
                    lookup
                        .get(Key::SkillMdIn {
                            parent: parent.to_owned(),
                        })
                        .iter()
                        .any(|skill| skill.path.parent() == Some(target.as_path()))
                });
            if has_skill {
                PathStatus::Fine
            } else {
                PathStatus::NoSkill
            }
        }
        (PathTakes::JsonFiles, _) if !extension("json") => PathStatus::NotOfKind,
        (PathTakes::JsonFiles, _) => {
            let read = !lookup
                .get(Key::JsonFile {
                    path: target.clone(),
                })
                .is_empty();
            // Discovery reads every `.json` file, so one it did not read is not there.
            if read {
                PathStatus::Fine
            } else {
                PathStatus::Missing
            }
        }
        (PathTakes::MarkdownFiles, _) if !extension("md") => PathStatus::NotOfKind,
        (PathTakes::MarkdownFiles, _) | (PathTakes::FilesOrFolders, "commands") => {
            match (component_at(!extension("md")), extension("md")) {
                (true, _) => PathStatus::Fine,
                (false, true) => PathStatus::Missing,
                (false, false) => PathStatus::NoCommand,
            }
        }
        // Output styles are Markdown nothing reads: not judged.
        (PathTakes::FilesOrFolders, _) => PathStatus::Fine,
    }
}

/// Where a marketplace's entry leads: its plugin folder, or `None` when the source is no local
/// path.
pub fn marketplace_source(
    manifest_path: &Path,
    manifest: &Manifest,
    source: &str,
) -> Option<PathBuf> {
    let root = manifest_root(manifest_path)?;
    let plugin_root = manifest.plugin_root.as_ref().map(|r| r.value.as_str());
    let relative = source_path(plugin_root, source)?;
    match resolve(root, root, &relative) {
        Target::Path(path) => Some(path),
        // Outside the marketplace's folder: not judged.
        Target::Outside | Target::Url => None,
    }
}

/// Whether a marketplace's plugin folder holds a plugin the file set can see: its
/// `.claude-plugin/plugin.json`, or a skill in its `skills/`. Reads those keys.
pub fn source_is_plugin(lookup: &Lookup<'_>, folder: &Path) -> bool {
    let manifest = folder.join(".claude-plugin").join("plugin.json");
    !lookup.get(Key::JsonFile { path: manifest }).is_empty()
        || !lookup
            .get(Key::SkillMdIn {
                parent: folder.join("skills"),
            })
            .is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::hosts::plugins::ManifestKind;

    #[test]
    fn custom_paths_add_to_or_replace_the_defaults() {
        let text = r#"{"name": "p", "skills": ["./more", "../out"], "commands": "./cmds", "agents": ["./a/x.md"]}"#;
        let manifest = Manifest::lower(ManifestKind::Plugin, text, 0);
        let root = Path::new("/r/p");
        let at = |key: &str| locations(root, &manifest, key_row(key));
        assert_eq!(at("skills"), [root.join("skills"), root.join("more")]);
        assert_eq!(at("commands"), [root.join("cmds")]);
        assert_eq!(at("agents"), [root.join("a/x.md")]);
        assert_eq!(at("hooks"), [root.join("hooks/hooks.json")]);
        let bare = Manifest::lower(ManifestKind::Plugin, r#"{"name": "p"}"#, 0);
        assert_eq!(
            locations(root, &bare, key_row("commands")),
            [root.join("commands")]
        );
        assert_eq!(component_target(root, "../out"), None);
    }

    #[test]
    fn skills_are_in_a_location_or_are_it() {
        let place = Path::new("/r/p/skills");
        assert!(skill_in(Path::new("/r/p/skills/a/SKILL.md"), place));
        assert!(skill_in(Path::new("/r/p/skills/SKILL.md"), place));
        assert!(!skill_in(Path::new("/r/p/skills/a/b/SKILL.md"), place));
    }
}
