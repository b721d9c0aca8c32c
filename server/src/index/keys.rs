//! The keys of the index's tables, and what each file contributes to them.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::Path;

use super::analysis::{Content, ParsedFile};
use super::classify::FileRole;
use crate::diagnostic::FileId;
use crate::model::swarmkit::{Artifact, ArtifactKind};

/// A table entry other files can read. SwarmKit keys carry the workspace (its manifest's id),
/// since ids resolve only inside their own workspace.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Key {
    /// The artifact(s) of a kind with an id.
    Def {
        workspace: FileId,
        kind: ArtifactKind,
        id: String,
    },
    /// The workspace manifest's content (MCP servers, command packs).
    Manifest { workspace: FileId },
    /// The skills whose implementation targets an MCP server (for `server:` grants).
    SkillsOnServer { workspace: FileId, server: String },
    /// The skills whose implementation is a command of a pack (for `pack:` grants).
    SkillsInPack { workspace: FileId, pack: String },
    /// The skills of a category (for abstract grants).
    SkillsInCategory { workspace: FileId, category: String },
    /// The SKILL.md skills in one directory (by the directory that holds the skill folders).
    SkillMdIn { parent: std::path::PathBuf },
    /// SKILL.md skills with a given name, anywhere.
    SkillMdNamed { name: String },
    /// Tool names available through SwarmKit MCP skills (`implementation.tool`).
    McpTool { name: String },
    /// A `skillgraph.toml`.
    Config { dir: std::path::PathBuf },
}

pub(crate) fn fingerprint<T: Hash + ?Sized>(value: &T) -> u64 {
    let mut hasher = DefaultHasher::new();
    value.hash(&mut hasher);
    hasher.finish()
}

/// What a file contributes. Fingerprints cover everything other files may read of the entry,
/// ranges included (they appear in related locations), so any such change re-checks the readers.
pub(crate) fn contributions(
    _id: FileId,
    path: &Path,
    role: &FileRole,
    parsed: &ParsedFile,
) -> Vec<(Key, u64)> {
    let mut out = Vec::new();
    match (&parsed.content, role) {
        (Content::SwarmKit(artifact), FileRole::SwarmKit { workspace, .. }) => {
            let workspace = *workspace;
            let whole = fingerprint(artifact);
            if let Some(id) = artifact.id() {
                out.push((
                    Key::Def {
                        workspace,
                        kind: artifact.kind(),
                        id: id.value.clone(),
                    },
                    whole,
                ));
            }
            if let Artifact::Skill(skill) = artifact {
                let id = skill.id.as_ref().map(|i| i.value.as_str());
                let entry = fingerprint(&(id, whole));
                if let Some(server) = &skill.server {
                    out.push((
                        Key::SkillsOnServer {
                            workspace,
                            server: server.value.clone(),
                        },
                        entry,
                    ));
                }
                if let Some(pack) = &skill.pack {
                    out.push((
                        Key::SkillsInPack {
                            workspace,
                            pack: pack.value.clone(),
                        },
                        entry,
                    ));
                }
                if let Some(category) = &skill.category {
                    out.push((
                        Key::SkillsInCategory {
                            workspace,
                            category: category.value.clone(),
                        },
                        entry,
                    ));
                }
                if let Some(tool) = &skill.tool {
                    out.push((
                        Key::McpTool {
                            name: tool.value.clone(),
                        },
                        0,
                    ));
                }
            }
        }
        (Content::SwarmKit(Artifact::Workspace(manifest)), FileRole::WorkspaceManifest) => {
            out.push((Key::Manifest { workspace: _id }, fingerprint(manifest)));
        }
        (Content::Config(config), FileRole::Config) => {
            if let Some(dir) = path.parent() {
                out.push((
                    Key::Config {
                        dir: dir.to_owned(),
                    },
                    fingerprint(config),
                ));
            }
        }
        _ => {}
    }
    out
}
