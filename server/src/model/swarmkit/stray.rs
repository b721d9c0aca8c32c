//! A SwarmKit artifact outside every workspace: a YAML file in an artifact directory of a
//! folder that has no `workspace.yaml`, which SwarmKit refuses to load as a workspace
//! (`workspace.missing-workspace-yaml`).

use std::path::{Component, Path, PathBuf};

use super::ArtifactKind;
use crate::syntax::{Node, TextRange};

/// What makes a file a stray SwarmKit artifact, and the folder that lacks the manifest.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct StrayArtifact {
    /// The folder holding the artifact directory: where `workspace.yaml` is missing.
    pub root: PathBuf,
    /// The artifact directory under `root` (`topologies`, `skills`, ...).
    pub directory: String,
    /// The kind the file declares (`kind:`).
    pub kind: ArtifactKind,
    /// The `kind:` value.
    pub kind_range: TextRange,
}

/// The folders `path` would be a workspace artifact of, nearest first, with the artifact
/// directory: `<root>/<directory>/<file>`, or one grouping folder deeper
/// (`<root>/<directory>/<group>/<file>`), as SwarmKit's discovery walks them
/// (`workspace/__init__.py`, `discover` and `_walk_yaml`, swarmkit-runtime 1.265.0). Hidden
/// names on the way are skipped, as discovery skips them.
fn candidate_roots(path: &Path) -> impl Iterator<Item = (PathBuf, String)> + '_ {
    let hidden = |name: &std::ffi::OsStr| name.as_encoded_bytes().first() == Some(&b'.');
    let file_hidden = path.file_name().is_none_or(hidden);
    let mut ancestors = path.ancestors().skip(1);
    let parent = ancestors.next();
    let grandparent = ancestors.next();
    [parent, grandparent]
        .into_iter()
        .enumerate()
        .filter(move |_| !file_hidden)
        .filter_map(move |(depth, dir)| {
            let dir = dir?;
            let Some(Component::Normal(name)) = dir.components().next_back() else {
                return None;
            };
            let name = name.to_str()?;
            ArtifactKind::for_directory(name)?;
            // A grouping folder between the directory and the file must not be hidden either.
            if depth == 1 && parent.and_then(Path::file_name).is_none_or(hidden) {
                return None;
            }
            Some((dir.parent()?.to_owned(), name.to_owned()))
        })
}

/// Reads a YAML file found outside every workspace: a stray artifact when it sits in an
/// artifact directory and declares itself a SwarmKit artifact (`apiVersion: swarmkit/…` and a
/// SwarmKit `kind:`). Both are asked for so that other tools' YAML in a `skills/` or
/// `triggers/` folder (Tekton has a `kind: Trigger`) is left alone. The directory of the
/// declared kind wins when the file could belong to two roots.
pub fn stray_artifact(path: &Path, root: Node<'_>) -> Option<StrayArtifact> {
    if !root
        .get("apiVersion")
        .and_then(|v| v.as_str())
        .is_some_and(|v| v.starts_with("swarmkit/"))
    {
        return None;
    }
    let kind_node = root.get("kind")?;
    let kind = kind_node.as_str().and_then(ArtifactKind::from_kind_field)?;
    let candidates: Vec<(PathBuf, String)> = candidate_roots(path).collect();
    let (root_dir, directory) = candidates
        .iter()
        .find(|(_, dir)| ArtifactKind::for_directory(dir) == Some(kind))
        .or(candidates.first())?
        .clone();
    Some(StrayArtifact {
        root: root_dir,
        directory,
        kind,
        kind_range: kind_node.range(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::YamlDocument;

    fn stray(path: &str, text: &str) -> Option<(String, String)> {
        let yaml = YamlDocument::parse(text, 0);
        stray_artifact(Path::new(path), yaml.root()?)
            .map(|s| (s.root.display().to_string(), s.directory))
    }

    const TOPOLOGY: &str = "apiVersion: swarmkit/v1\nkind: Topology\nmetadata:\n  name: t\n";

    #[test]
    fn an_artifact_in_its_directory_or_a_group_below_is_stray() {
        for (path, root, directory) in [
            ("/r/topologies/t.yaml", "/r", "topologies"),
            ("/r/topologies/group/t.yaml", "/r", "topologies"),
            // The directory of the declared kind wins.
            ("/r/skills/topologies/t.yaml", "/r/skills", "topologies"),
            // In the wrong directory it still belongs to the folder holding that directory.
            ("/r/skills/t.yaml", "/r", "skills"),
        ] {
            assert_eq!(
                stray(path, TOPOLOGY),
                Some((root.to_owned(), directory.to_owned())),
                "{path}"
            );
        }
    }

    #[test]
    fn other_yaml_and_other_places_are_not() {
        assert_eq!(stray("/r/topologies/a/b/t.yaml", TOPOLOGY), None);
        assert_eq!(stray("/r/notes/t.yaml", TOPOLOGY), None);
        assert_eq!(stray("/r/topologies/.hidden.yaml", TOPOLOGY), None);
        assert_eq!(stray("/r/topologies/.group/t.yaml", TOPOLOGY), None);
        let tekton = "apiVersion: triggers.tekton.dev/v1beta1\nkind: Trigger\n";
        assert_eq!(stray("/r/triggers/t.yaml", tekton), None);
        let unknown_kind = "apiVersion: swarmkit/v1\nkind: Gadget\n";
        assert_eq!(stray("/r/skills/t.yaml", unknown_kind), None);
        assert_eq!(stray("/r/skills/t.yaml", "- a list\n"), None);
    }
}
