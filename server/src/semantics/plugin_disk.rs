//! The paths of plugin and marketplace manifests that no file of the file set answers, for the
//! edge (`check`) to look at on disk: component paths, command folders, marketplace plugin
//! folders, and the command files a `/plugin:name` mention of a plugin in the file set could be.

use std::collections::BTreeSet;
use std::path::PathBuf;

use super::mentions::mentions_of;
use super::plugins::{component_target, key_row, locations, manifest_of, marketplace_source};
use crate::index::Index;
use crate::model::hosts::plugins::ManifestKind;
use crate::model::plugin_manifest::{manifest_root, Manifest};

/// Every path of the manifests (and of the plugin-form mentions naming their plugins) that no
/// file of the file set answers: what the edge looks at on disk. One pass over the files, and
/// a second over the mentions only when the file set holds a plugin.
pub fn unanswered_paths(index: &Index) -> BTreeSet<PathBuf> {
    let mut out = BTreeSet::new();
    let mut plugins: Vec<(&str, PathBuf, &Manifest)> = Vec::new();
    for entry in index.files() {
        let Some(manifest) = manifest_of(entry) else {
            continue;
        };
        let Some(root) = manifest_root(&entry.path) else {
            continue;
        };
        match manifest.kind {
            ManifestKind::Plugin => {
                for path in &manifest.paths {
                    if let Some(target) = component_target(root, &path.path.value) {
                        if index.file_id(&target).is_none() {
                            out.insert(target);
                        }
                    }
                }
                for place in locations(root, manifest, key_row("commands")) {
                    out.insert(place);
                }
                if let Some(name) = manifest.plugin_name() {
                    plugins.push((name.value.as_str(), root.to_owned(), manifest));
                }
            }
            ManifestKind::Marketplace => {
                for plugin in &manifest.plugins {
                    let Some(source) = &plugin.source else {
                        continue;
                    };
                    if let Some(folder) = marketplace_source(&entry.path, manifest, &source.value) {
                        let manifest = folder.join(".claude-plugin").join("plugin.json");
                        if index.file_id(&manifest).is_none() {
                            out.insert(folder);
                        }
                    }
                }
            }
        }
    }
    if plugins.is_empty() {
        return out;
    }
    for entry in index.files() {
        for mention in mentions_of(entry) {
            let Some(plugin) = mention.plugin(&entry.text) else {
                continue;
            };
            let name = mention.name(&entry.text);
            for (_, root, manifest) in plugins.iter().filter(|(p, _, _)| *p == plugin) {
                for place in locations(root, manifest, key_row("commands")) {
                    if place.extension().is_none_or(|e| e != "md") {
                        out.insert(place.join(format!("{name}.md")));
                    }
                }
            }
        }
    }
    out
}
