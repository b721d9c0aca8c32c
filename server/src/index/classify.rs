//! Which files are whose: a SwarmKit artifact of some workspace, a SKILL.md, a config file, or
//! none of ours. Decided from the path and the set of known workspace roots alone. Names are
//! compared as bytes (`OsStr`), so a name that is not UTF-8 is classified like any other.

use std::ffi::OsStr;
use std::path::{Component, Path};

use crate::diagnostic::FileId;
use crate::model::swarmkit::ArtifactKind;

/// Directories never looked into, wherever they are.
pub const SKIPPED_DIRECTORIES: &[&str] = &[".git", "node_modules", "target", ".swarmkit"];

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum FileRole {
    /// `workspace.yaml` itself.
    WorkspaceManifest,
    /// A YAML file in an artifact directory of a SwarmKit workspace.
    SwarmKit {
        /// The workspace's manifest file, which also names the workspace in the index.
        workspace: FileId,
        /// The kind the directory holds.
        expected: ArtifactKind,
        /// The first directory name under the workspace (`skills`, `topologies`, ...).
        directory: String,
        /// More than one subdirectory below the artifact directory: SwarmKit does not load it.
        too_deep: bool,
    },
    /// `workspace.env.yaml` (`variant: None`) or `workspace.env.<variant>.yaml` at a workspace's
    /// root: the property map `${…}` references read (`syntax::interpolate`).
    EnvFile {
        workspace: FileId,
        variant: Option<String>,
    },
    SkillMd,
    Config,
    /// A `.json` file: a saved MCP `tools/list` result when a config's `mcp-tool-lists` names
    /// it (parsed always, judged only then; see ARCHITECTURE.md, "Tool lists").
    Json,
    /// Not a file we have anything to say about.
    Unrelated,
}

impl FileRole {
    pub fn is_ours(&self) -> bool {
        !matches!(self, FileRole::Unrelated | FileRole::Json)
    }
}

pub fn is_yaml(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "yaml" || e == "yml")
}

pub fn is_json(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "json")
}

pub fn is_workspace_manifest(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|n| n == "workspace.yaml" || n == "workspace.yml")
}

/// True when a file or directory name starts with `.` (hidden), whatever its other bytes.
fn is_hidden(name: &OsStr) -> bool {
    name.as_encoded_bytes().first() == Some(&b'.')
}

/// Classifies `path`. `workspace_of` answers, for a directory, the manifest file of the SwarmKit
/// workspace rooted there (if any); the nearest enclosing workspace wins.
pub fn classify(path: &Path, workspace_of: impl Fn(&Path) -> Option<FileId>) -> FileRole {
    let Some(name) = path.file_name() else {
        return FileRole::Unrelated;
    };
    if name == "SKILL.md" {
        return FileRole::SkillMd;
    }
    if name == "skillgraph.toml" {
        return FileRole::Config;
    }
    if is_json(path) {
        return FileRole::Json;
    }
    if !is_yaml(path) {
        return FileRole::Unrelated;
    }
    if is_workspace_manifest(path) {
        return FileRole::WorkspaceManifest;
    }
    // Walk up to the nearest workspace root, remembering the components passed on the way.
    let mut below: Vec<&OsStr> = Vec::new();
    let mut dir = path.parent();
    while let Some(current) = dir {
        if let Some(workspace) = workspace_of(current) {
            return swarmkit_role(workspace, &below, name);
        }
        match current.components().next_back() {
            Some(Component::Normal(part)) => below.push(part),
            _ => break,
        }
        dir = current.parent();
    }
    FileRole::Unrelated
}

/// `workspace.env.yaml` is the default property file (`Some(None)`), `workspace.env.<name>.yaml`
/// the one `SWARMKIT_ENV=<name>` selects (`_read_env_file` in the runtime's
/// `resolver/_env_config.py` looks for exactly these names; `.yml` is not read).
pub fn env_variant(name: &OsStr) -> Option<Option<String>> {
    let name = name.to_str()?;
    let rest = name.strip_prefix("workspace.env")?.strip_suffix(".yaml")?;
    match rest {
        "" => Some(None),
        _ => rest
            .strip_prefix('.')
            .filter(|variant| !variant.is_empty())
            .map(|variant| Some(variant.to_owned())),
    }
}

fn swarmkit_role(workspace: FileId, below_reversed: &[&OsStr], name: &OsStr) -> FileRole {
    // `below_reversed` holds the directories between the workspace root and the file, innermost
    // first.
    let Some(&directory) = below_reversed.last() else {
        // At the workspace root, only the property files are read besides the manifest.
        return match env_variant(name) {
            Some(variant) => FileRole::EnvFile { workspace, variant },
            None => FileRole::Unrelated,
        };
    };
    // Artifact directories have ASCII names; a name that is not UTF-8 is none of them.
    let Some(expected) = directory.to_str().and_then(ArtifactKind::for_directory) else {
        return FileRole::Unrelated;
    };
    // SwarmKit refuses a file nested too deep before it looks at hidden names, so even a hidden
    // file there is reported; otherwise hidden files and directories are skipped.
    let too_deep = below_reversed.len() > 2;
    let hidden = is_hidden(name) || below_reversed.iter().any(|d| is_hidden(d));
    if hidden && !too_deep {
        return FileRole::Unrelated;
    }
    FileRole::SwarmKit {
        workspace,
        expected,
        directory: directory.to_string_lossy().into_owned(),
        too_deep,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn role(path: &str) -> FileRole {
        let root = PathBuf::from("/w");
        classify(Path::new(path), |dir| (dir == root).then_some(FileId(7)))
    }

    #[test]
    fn artifacts_by_directory() {
        assert!(matches!(
            role("/w/skills/a.yaml"),
            FileRole::SwarmKit {
                expected: ArtifactKind::Skill,
                too_deep: false,
                ..
            }
        ));
        assert!(matches!(
            role("/w/skills/group/a.yml"),
            FileRole::SwarmKit {
                expected: ArtifactKind::Skill,
                too_deep: false,
                ..
            }
        ));
        assert!(matches!(
            role("/w/skills/a/b/c.yaml"),
            FileRole::SwarmKit { too_deep: true, .. }
        ));
        assert!(matches!(
            role("/w/schedules/nightly.yaml"),
            FileRole::SwarmKit {
                expected: ArtifactKind::Trigger,
                ..
            }
        ));
    }

    #[test]
    fn what_is_not_ours() {
        assert_eq!(role("/w/evals/x.yaml"), FileRole::Unrelated);
        assert_eq!(role("/w/other.yaml"), FileRole::Unrelated);
        assert_eq!(
            role("/w/workspace.env.yaml"),
            FileRole::EnvFile {
                workspace: FileId(7),
                variant: None
            }
        );
        assert_eq!(
            role("/w/workspace.env.prod.yaml"),
            FileRole::EnvFile {
                workspace: FileId(7),
                variant: Some("prod".into())
            }
        );
        assert_eq!(role("/w/workspace.env.yml"), FileRole::Unrelated);
        assert_eq!(role("/w/workspace.envx.yaml"), FileRole::Unrelated);
        assert_eq!(
            role("/w/skills/workspace.env.yaml"),
            role("/w/skills/x.yaml")
        );
        assert_eq!(role("/elsewhere/workspace.env.yaml"), FileRole::Unrelated);
        assert_eq!(role("/w/skills/.hidden.yaml"), FileRole::Unrelated);
        assert_eq!(role("/w/skills/.drafts/x.yaml"), FileRole::Unrelated);
        assert_eq!(role("/elsewhere/skills/x.yaml"), FileRole::Unrelated);
        assert_eq!(role("/w/skills/readme.md"), FileRole::Unrelated);
        assert_eq!(role("/w/workspace.yaml"), FileRole::WorkspaceManifest);
        assert_eq!(role("/any/where/SKILL.md"), FileRole::SkillMd);
        assert_eq!(role("/any/skillgraph.toml"), FileRole::Config);
    }

    #[cfg(unix)]
    #[test]
    fn names_that_are_not_utf8_are_classified() {
        use std::os::unix::ffi::OsStrExt;
        let path = Path::new("/w/skills").join(OsStr::from_bytes(b"caf\xe9.yaml"));
        assert!(matches!(
            classify(&path, |dir| (dir == Path::new("/w")).then_some(FileId(7))),
            FileRole::SwarmKit {
                expected: ArtifactKind::Skill,
                ..
            }
        ));
        let hidden = Path::new("/w/skills").join(OsStr::from_bytes(b".caf\xe9.yaml"));
        assert_eq!(
            classify(&hidden, |dir| (dir == Path::new("/w")).then_some(FileId(7))),
            FileRole::Unrelated
        );
        assert_eq!(
            role("/w/skills/back\\slash.yaml"),
            role("/w/skills/plain.yaml")
        );
    }
}
