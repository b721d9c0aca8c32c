//! What a plugin or marketplace manifest names: where each component path of `plugin.json`
//! leads and whether something of its kind is there, the folders a plugin's skills and commands
//! come from (a custom `skills` path adds to `skills/`, a custom `commands` or `agents` path
//! replaces its default: `model::hosts::plugins::COMPONENT_KEYS`), the skills a `/plugin:name`
//! mention means, where a marketplace's `plugins[].source` leads, and which of these paths no
//! file of the file set answers, for the edge (`check`) to look at on disk.
//!
//! What the file set answers: every `SKILL.md` and every `.json` file is read, so a `skills`
//! folder holding no skill and a `hooks` file that is not there are known without the disk.
//! Agents, commands and plugin folders are Markdown and folders discovery does not read: only
//! what the edge found (`Lookup::schema_path`, the facts of paths it looked at, listed by
//! `semantics::plugin_disk`) says whether they exist, and without it (the server does not
//! look) nothing is said.

use std::path::{Path, PathBuf};

use super::schema_files::{resolve, Target};
use crate::index::{Content, FileEntry, FileRole, Key, Lookup};
use crate::model::hosts::plugins::{Combine, ComponentKey, PathTakes, COMPONENT_KEYS};
use crate::model::plugin_manifest::{manifest_root, source_path, ComponentPath, Manifest};
use crate::model::schema_file::PathFact;

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

/// Where a component path leads from the plugin root: `None` when outside the plugin (or a URL).
pub fn component_target(root: &Path, value: &str) -> Option<PathBuf> {
    match resolve(root, root, value) {
        Target::Path(path) => Some(path),
        Target::Url | Target::Outside => None,
    }
}

/// The places a component of `key` is loaded from: the default folder unless the manifest's
/// paths replace it, and each path written for the key (those leading inside the plugin).
pub fn locations(root: &Path, manifest: &Manifest, key: &ComponentKey) -> Vec<PathBuf> {
    let written: Vec<PathBuf> = manifest
        .paths
        .iter()
        .filter(|p| p.key == key)
        .filter_map(|p| component_target(root, &p.path.value))
        .collect();
    let default = root.join(key.default);
    let keeps_default = written.is_empty() || key.combine != Combine::ReplacesDefault;
    let mut out = Vec::new();
    if keeps_default {
        out.push(default);
    }
    for path in written {
        if !out.contains(&path) {
            out.push(path);
        }
    }
    out
}

pub(crate) fn key_row(key: &str) -> &'static ComponentKey {
    COMPONENT_KEYS
        .iter()
        .find(|k| k.key == key)
        .expect("a component key of the table")
}

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

/// Whether a plugin has a command `name`: `Some(true)` when the edge found its file,
/// `Some(false)` when it found every place a command could be and none holds it, `None` when
/// nobody looked.
pub fn plugin_has_command(
    lookup: &Lookup<'_>,
    manifest_path: &Path,
    manifest: &Manifest,
    name: &str,
) -> Option<bool> {
    let root = manifest_root(manifest_path)?;
    let mut unknown = false;
    for place in locations(root, manifest, key_row("commands")) {
        let is_file = |fact: Option<&PathFact>| match fact {
            Some(PathFact::Unread | PathFact::Unreadable(_)) => Some(true),
            Some(PathFact::Missing | PathFact::Folder) => Some(false),
            None => None,
        };
        if place.extension().is_some_and(|e| e == "md") {
            if place.file_stem().is_some_and(|s| s == name) {
                match is_file(lookup.schema_path(&place)) {
                    Some(true) => return Some(true),
                    Some(false) => {}
                    None => unknown = true,
                }
            }
            continue;
        }
        match lookup.schema_path(&place) {
            Some(PathFact::Folder) => {
                match is_file(lookup.schema_path(&place.join(format!("{name}.md")))) {
                    Some(true) => return Some(true),
                    Some(false) => {}
                    None => unknown = true,
                }
            }
            Some(_) => {}
            None => unknown = true,
        }
    }
    (!unknown).then_some(false)
}

/// What a component path of `plugin.json` finds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PathStatus {
    /// Something of the key's kind is there (or nobody knows: the server does not look).
    Fine,
    /// The path leads outside the plugin's folder (or is a URL).
    Outside,
    /// Nothing is there.
    Missing,
    /// A `skills` folder with no skill in it or in a folder directly inside it.
    NoSkill,
    /// A folder where the key takes files.
    Folder,
}

/// What `path` (a component path of the plugin at `root`) finds. Reads the SKILL.md keys of a
/// `skills` path, the JSON file of a `.json` path, and otherwise what the edge found.
pub fn component_status(lookup: &Lookup<'_>, root: &Path, path: &ComponentPath) -> PathStatus {
    let Some(target) = component_target(root, &path.path.value) else {
        return PathStatus::Outside;
    };
    let fact = || lookup.schema_path(&target);
    match path.key.takes {
        PathTakes::Folders => {
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
            } else if fact() == Some(&PathFact::Missing) {
                PathStatus::Missing
            } else {
                PathStatus::NoSkill
            }
        }
        PathTakes::JsonFiles if target.extension().is_some_and(|e| e == "json") => {
            let read = !lookup
                .get(Key::JsonFile {
                    path: target.clone(),
                })
                .is_empty();
            match (read, fact()) {
                (true, _) => PathStatus::Fine,
                (false, Some(PathFact::Folder)) => PathStatus::Folder,
                // Discovery reads every `.json` file, so one it did not read is not there.
                (false, _) => PathStatus::Missing,
            }
        }
        PathTakes::MarkdownFiles | PathTakes::JsonFiles => match fact() {
            Some(PathFact::Missing) => PathStatus::Missing,
            Some(PathFact::Folder) => PathStatus::Folder,
            _ => PathStatus::Fine,
        },
        PathTakes::FilesOrFolders => match fact() {
            Some(PathFact::Missing) => PathStatus::Missing,
            _ => PathStatus::Fine,
        },
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

/// Whether a marketplace's plugin folder is there: `Some(fact)` from the edge, `Some(Folder)`
/// when the file set holds its manifest.
pub fn source_fact<'a>(lookup: &Lookup<'a>, folder: &Path) -> Option<&'a PathFact> {
    const FOUND: PathFact = PathFact::Folder;
    let manifest = folder.join(".claude-plugin").join("plugin.json");
    if lookup.index().file_id(&manifest).is_some() {
        return Some(&FOUND);
    }
    lookup.schema_path(folder)
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
