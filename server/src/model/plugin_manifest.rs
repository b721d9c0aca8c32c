//! A plugin or marketplace manifest (`.claude-plugin/plugin.json`,
//! `.claude-plugin/marketplace.json`, `.github/plugin/marketplace.json`), lowered from the
//! spanned JSON tree: the plugin's `name` (the namespace of its `/name:skill` mentions), its
//! component paths (`skills`, `agents`, `commands`, `hooks`, `outputStyles`, as strings or
//! lists of strings), a marketplace's `metadata.pluginRoot` and the `name` and `source` of each
//! of its `plugins`. Every value keeps the range of its JSON string (quotes included). Lowering
//! never fails: a value of another shape is left out, and malformed JSON keeps only its error.

use std::path::{Path, PathBuf};

use super::hosts::plugins::{component_key, Combine, ComponentKey, ManifestKind, COMPONENT_KEYS};
use super::hosts::prose::ProseKind;
use super::schema_file::{resolve, Target};
use super::SpannedStr;
use crate::syntax::json::{JsonDocument, JsonError, JsonNode};
use crate::syntax::TextRange;

#[derive(Clone, Debug, PartialEq)]
pub struct Manifest {
    pub kind: ManifestKind,
    /// The first error, when the JSON does not parse (then nothing else is read).
    pub error: Option<JsonError>,
    /// The plugin's (or marketplace's) `name`.
    pub name: Option<SpannedStr>,
    /// A plugin's component paths, in the order written.
    pub paths: Vec<ComponentPath>,
    /// A marketplace's `metadata.pluginRoot`.
    pub plugin_root: Option<SpannedStr>,
    /// A marketplace's `plugins`, in order.
    pub plugins: Vec<MarketplacePlugin>,
}

/// One path of a component key of `plugin.json`.
#[derive(Clone, Debug, PartialEq)]
pub struct ComponentPath {
    pub key: &'static ComponentKey,
    pub path: SpannedStr,
}

/// An entry of a marketplace's `plugins`.
#[derive(Clone, Debug, PartialEq)]
pub struct MarketplacePlugin {
    pub name: Option<SpannedStr>,
    /// `source` when it is a string (a path); an object source (`github`, `url`, ...) is not.
    pub source: Option<SpannedStr>,
}

fn string(node: Option<JsonNode<'_>>) -> Option<SpannedStr> {
    let node = node?;
    node.as_str()
        .map(|s| SpannedStr::new(s.to_owned(), node.range()))
}

impl Manifest {
    /// Lowers `text` (after its BOM, which is `offset` bytes long).
    pub fn lower(kind: ManifestKind, text: &str, offset: u32) -> Manifest {
        let doc = JsonDocument::parse(text, offset);
        let mut manifest = Manifest {
            kind,
            error: doc.error.clone(),
            name: None,
            paths: Vec::new(),
            plugin_root: None,
            plugins: Vec::new(),
        };
        let Some(root) = doc.root() else {
            return manifest;
        };
        manifest.name = string(root.get("name"));
        match kind {
            ManifestKind::Plugin => {
                for (key, _, value) in root.entries() {
                    let Some(row) = component_key(key) else {
                        continue;
                    };
                    let values: Vec<JsonNode<'_>> = match value.as_str() {
                        Some(_) => vec![value],
                        None => value.items().collect(),
                    };
                    manifest.paths.extend(values.into_iter().filter_map(|v| {
                        string(Some(v)).map(|path| ComponentPath { key: row, path })
                    }));
                }
            }
            ManifestKind::Marketplace => {
                manifest.plugin_root =
                    string(root.get("metadata").and_then(|m| m.get("pluginRoot")));
                manifest.plugins = root
                    .get("plugins")
                    .into_iter()
                    .flat_map(|plugins| plugins.items())
                    .map(|entry| MarketplacePlugin {
                        name: string(entry.get("name")),
                        source: string(entry.get("source")),
                    })
                    .collect();
            }
        }
        manifest
    }

    /// The plugin's name, when it is one a mention can use (not empty).
    pub fn plugin_name(&self) -> Option<&SpannedStr> {
        (self.kind == ManifestKind::Plugin)
            .then_some(self.name.as_ref())
            .flatten()
            .filter(|n| !n.value.is_empty())
    }
}

/// The folder a manifest describes: the one holding `.claude-plugin/` (or, for
/// `.github/plugin/marketplace.json`, `.github/`).
pub fn manifest_root(path: &Path) -> Option<&Path> {
    let folder = path.parent()?;
    let above = folder.parent()?;
    if folder.file_name()? == "plugin" && above.file_name()? == ".github" {
        return above.parent();
    }
    Some(above)
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

pub fn key_row(key: &str) -> &'static ComponentKey {
    COMPONENT_KEYS
        .iter()
        .find(|k| k.key == key)
        .expect("a component key of the table")
}

/// Where a plugin's subagents and commands are, as its manifest says
/// (`model::hosts::plugins::COMPONENT_KEYS`): the Markdown files of these places are read as
/// the plugin's subagents and commands.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PluginLayout {
    /// `agents/` (its `.md` files directly in it), or the `.md` files the manifest lists.
    pub agents: Vec<PathBuf>,
    /// `commands/` (its `.md` files at any depth), or the files and folders the manifest lists.
    pub commands: Vec<PathBuf>,
}

impl PluginLayout {
    /// The layout of the plugin at `root` (the folder holding `.claude-plugin/`). A manifest
    /// that does not parse keeps the default folders: its paths are unknown.
    pub fn of(root: &Path, manifest: &Manifest) -> PluginLayout {
        PluginLayout {
            agents: locations(root, manifest, key_row("agents")),
            commands: locations(root, manifest, key_row("commands")),
        }
    }

    /// What the Markdown file at `path` is to this plugin: a subagent, a command, or nothing.
    /// A listed `.md` path is that file; any other path is a folder (of `.md` files directly
    /// in it for the default `agents/`, at any depth for commands).
    pub fn kind_of(&self, path: &Path) -> Option<ProseKind> {
        if path.extension().is_none_or(|e| e != "md") {
            return None;
        }
        let is_md = |place: &Path| place.extension().is_some_and(|e| e == "md");
        let agent = self.agents.iter().any(|place| {
            if is_md(place) {
                place == path
            } else {
                path.parent() == Some(place.as_path())
            }
        });
        if agent {
            return Some(ProseKind::Subagent);
        }
        let command = self.commands.iter().any(|place| {
            if is_md(place) {
                place == path
            } else {
                path.starts_with(place) && path != place
            }
        });
        command.then_some(ProseKind::Command)
    }
}

/// What the Markdown file at `path` is to the nearest plugin above it whose layout claims it
/// (`layout_at` answers the layout of the plugin rooted at a folder): a subagent or a command,
/// with the plugin's root.
pub fn plugin_component<'a>(
    path: &Path,
    layout_at: impl Fn(&Path) -> Option<&'a PluginLayout>,
) -> Option<(ProseKind, PathBuf)> {
    if path.extension().is_none_or(|e| e != "md") {
        return None;
    }
    path.ancestors().skip(1).find_map(|dir| {
        let kind = layout_at(dir)?.kind_of(path)?;
        Some((kind, dir.to_owned()))
    })
}

/// The layout of the plugin manifest at `path` with `text`, with the plugin's root; `None` for
/// a path that is no `.claude-plugin/plugin.json`.
pub fn layout_of_manifest(path: &Path, text: &str) -> Option<(PathBuf, PluginLayout)> {
    if super::hosts::plugins::manifest_kind(path) != Some(ManifestKind::Plugin) {
        return None;
    }
    let root = manifest_root(path)?;
    let bom = crate::syntax::bom_len(text);
    let manifest = Manifest::lower(ManifestKind::Plugin, &text[bom..], bom as u32);
    Some((root.to_owned(), PluginLayout::of(root, &manifest)))
}

/// The range inside a JSON string's quotes.
pub fn inside_quotes(range: TextRange) -> TextRange {
    if range.len() >= 2 {
        TextRange::new(range.start + 1, range.end - 1)
    } else {
        range
    }
}

/// Where a marketplace's `source` string leads, relative to the marketplace's root: a path
/// written `./x` or `../x` from the root itself, a bare name below `metadata.pluginRoot` (the
/// root when there is none). `None` for what is no local path (a URL, an absolute path).
pub fn source_path(plugin_root: Option<&str>, source: &str) -> Option<String> {
    if source.contains("://") || source.starts_with('/') || source.starts_with("git@") {
        return None;
    }
    if source.starts_with("./") || source.starts_with("../") || source == "." {
        return Some(source.to_owned());
    }
    Some(match plugin_root {
        Some(base) => format!("{}/{source}", base.trim_end_matches('/')),
        None => source.to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str, range: TextRange) -> &str {
        &text[range.start as usize..range.end as usize]
    }

    #[test]
    fn a_plugin_manifest_with_its_paths() {
        let text = r#"{"name": "deploy-kit", "skills": "./extra", "agents": ["./a/r.md", 3], "commands": ["./c"], "hooks": {"PreToolUse": []}, "version": "1.0.0"}"#;
        let m = Manifest::lower(ManifestKind::Plugin, text, 0);
        assert_eq!(m.error, None);
        assert_eq!(
            m.plugin_name().map(|n| n.value.as_str()),
            Some("deploy-kit")
        );
        let paths: Vec<(&str, &str)> = m
            .paths
            .iter()
            .map(|p| (p.key.key, at(text, p.path.range)))
            .collect();
        assert_eq!(
            paths,
            [
                ("skills", "\"./extra\""),
                ("agents", "\"./a/r.md\""),
                ("commands", "\"./c\"")
            ]
        );
    }

    #[test]
    fn a_marketplace_with_sources() {
        let text = r#"{"name": "m", "metadata": {"pluginRoot": "./plugins"}, "plugins": [{"name": "a", "source": "a"}, {"name": "b", "source": {"source": "github", "repo": "o/b"}}]}"#;
        let m = Manifest::lower(ManifestKind::Marketplace, text, 0);
        assert_eq!(
            m.plugin_root.as_ref().map(|r| r.value.as_str()),
            Some("./plugins")
        );
        assert_eq!(m.plugins.len(), 2);
        assert_eq!(
            m.plugins[0].source.as_ref().map(|s| s.value.as_str()),
            Some("a")
        );
        assert_eq!(m.plugins[1].source, None);
        assert_eq!(m.plugin_name(), None);
        assert_eq!(
            source_path(Some("./plugins/"), "a").as_deref(),
            Some("./plugins/a")
        );
        assert_eq!(
            source_path(Some("./plugins"), "./x").as_deref(),
            Some("./x")
        );
        assert_eq!(source_path(None, "b").as_deref(), Some("b"));
        assert_eq!(source_path(None, "https://x/y"), None);
    }

    #[test]
    fn the_root_a_manifest_describes() {
        let root = |p: &str| manifest_root(Path::new(p)).map(|r| r.display().to_string());
        assert_eq!(
            root("/r/p/.claude-plugin/plugin.json").as_deref(),
            Some("/r/p")
        );
        assert_eq!(
            root("/r/.github/plugin/marketplace.json").as_deref(),
            Some("/r")
        );
    }

    #[test]
    fn malformed_json_keeps_only_its_error() {
        let m = Manifest::lower(ManifestKind::Plugin, "{\"name\": \"p\",}", 0);
        assert!(m.error.is_some());
        assert_eq!(m.name, None);
        assert!(m.paths.is_empty());
    }
}
