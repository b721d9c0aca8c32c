//! The keys of the index's tables, and what each file contributes to them.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::Path;

use super::analysis::{Content, ParsedFile};
use super::classify::FileRole;
use super::KeySet;
use crate::diagnostic::FileId;
use crate::model::skill_md::extensions::chain_fingerprint;
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
    /// The set of ids of one kind in a workspace (read by "did you mean" suggestions).
    IdSet {
        workspace: FileId,
        kind: ArtifactKind,
    },
    /// The editor's settings (see [`crate::index::Settings::config`]); no file contributes it.
    EditorConfig,
    /// What the edge found of the binaries command packs require
    /// ([`crate::index::Settings::executables`]); no file contributes it.
    Executables,
    /// What the edge found at `output_schema` paths no file answers
    /// ([`crate::index::Settings::schema_paths`]); no file contributes it.
    SchemaPaths,
    /// A JSON file, by path (the target of an `output_schema` path).
    JsonFile { path: std::path::PathBuf },
    /// A YAML file of any role, by path (the target of an `output_schema` path: SwarmKit reads
    /// `.yaml` and `.yml` schema files too).
    YamlFile { path: std::path::PathBuf },
    /// The role registries declaring a role id (`roles[].id`).
    Role { workspace: FileId, id: String },
    /// The workspace manifest's content (MCP servers, command packs).
    Manifest { workspace: FileId },
    /// The skills whose implementation targets an MCP server (for `server:` grants).
    SkillsOnServer { workspace: FileId, server: String },
    /// The skills whose implementation is a command of a pack (for `pack:` grants).
    SkillsInPack { workspace: FileId, pack: String },
    /// The skills of a category (for abstract grants).
    SkillsInCategory { workspace: FileId, category: String },
    /// Every skill file of a workspace (and its manifest, for the bundled skills), fingerprinted
    /// by what the composes graph reads of it: its id, whether it is composed, its parts. Read
    /// through the workspace's composes-graph memo.
    Composes { workspace: FileId },
    /// Every named SKILL.md, fingerprinted by its name and chain: the input of the chain-graph
    /// memo.
    SkillMdChains,
    /// The SKILL.md skills in one directory (by the directory that holds the skill folders).
    SkillMdIn { parent: std::path::PathBuf },
    /// SKILL.md skills with a given name, anywhere.
    SkillMdNamed { name: String },
    /// Claude Code subagents (`.claude/agents/<file>.md`) whose `name` is `name`.
    SubagentNamed { name: String },
    /// Every subagent of a project's `.claude/agents/` (the folder), fingerprinted by name:
    /// read by a "did you mean" for an unknown `agent:`.
    SubagentsIn { folder: std::path::PathBuf },
    /// Legacy commands (`.claude/commands/**/<name>.md`) invoked as `/name`.
    CommandNamed { name: String },
    /// Plugin manifests (`.claude-plugin/plugin.json`) whose `name` is `name`: the namespace of
    /// `/name:skill` mentions. Fingerprinted by the name, its range and the component paths.
    PluginNamed { name: String },
    /// The subagents and commands of the plugin at `root` (`FileRole::PluginProse`), each
    /// fingerprinted by its kind, path and name: what `<plugin>:<agent>`, `/<plugin>:<command>`
    /// and the manifest's `agents` and `commands` paths read.
    PluginComponents { root: std::path::PathBuf },
    /// Tool names available through SwarmKit MCP skills (`implementation.tool`).
    McpTool { name: String },
    /// The listing of a skill folder (`Change::SkillFiles`).
    SkillFiles { dir: std::path::PathBuf },
    /// What the files of a skill folder say (`Change::Bundled`).
    Bundled { dir: std::path::PathBuf },
    /// A `skillgraph.toml`.
    Config { dir: std::path::PathBuf },
    /// A `.json` file's reading as a saved MCP `tools/list` result, by its path.
    ToolList { path: std::path::PathBuf },
    /// The configs whose `[tools] mcp-tool-lists` name the file at `path`.
    ToolListNamed { path: std::path::PathBuf },
    /// The SwarmKit artifacts found outside every workspace below the folder `root`, which has
    /// no `workspace.yaml` (`workspace.missing-workspace-yaml` is reported once per folder).
    StrayArtifacts { root: std::path::PathBuf },
}

impl Key {
    /// The path of a whole-file key (`JsonFile`, `YamlFile`): a key that stands for one file's
    /// text, whichever it is. No file lists these among its contributions; the index answers
    /// them from its path table and notes them changed whenever that file's text or role
    /// changes. (Every YAML file may be the target of an `output_schema`, and listing a key per
    /// file cost a table entry and a copy of the path for each, on the main thread.)
    pub(crate) fn whole_file(&self) -> Option<&Path> {
        match self {
            Key::JsonFile { path } | Key::YamlFile { path } => Some(path),
            _ => None,
        }
    }
}

/// The whole-file keys ([`Key::whole_file`]) the file at `path` with `role` answers: any JSON
/// file may be a schema an `output_schema` points at, and so may a YAML file of any role.
pub(crate) fn whole_file_keys(path: &Path, role: &FileRole) -> impl Iterator<Item = Key> {
    let json = is_json_role(role).then(|| Key::JsonFile {
        path: path.to_owned(),
    });
    let yaml = crate::index::classify::is_yaml(path).then(|| Key::YamlFile {
        path: path.to_owned(),
    });
    json.into_iter().chain(yaml)
}

/// A JSON file of either role: any `.json`, or a plugin or marketplace manifest (which is JSON
/// too: a skill's hosts read whether its plugin's manifest is there).
fn is_json_role(role: &FileRole) -> bool {
    matches!(role, FileRole::Json | FileRole::PluginManifest(_))
}

/// Whether the file at `path` with `role` answers the whole-file key `key`.
pub(crate) fn answers_whole_file(key: &Key, path: &Path, role: &FileRole) -> bool {
    match key {
        Key::JsonFile { path: wanted } => wanted == path && is_json_role(role),
        Key::YamlFile { path: wanted } => wanted == path && crate::index::classify::is_yaml(path),
        _ => false,
    }
}

pub(crate) fn fingerprint<T: Hash + ?Sized>(value: &T) -> u64 {
    let mut hasher = DefaultHasher::new();
    value.hash(&mut hasher);
    hasher.finish()
}

/// What a file contributes. Fingerprints cover everything other files may read of the entry,
/// ranges included (they appear in related locations), so any such change re-checks the readers.
pub(crate) fn contributions(
    id: FileId,
    path: &Path,
    role: &FileRole,
    parsed: &ParsedFile,
) -> Vec<(Key, u64)> {
    // `JsonFile` and `YamlFile` are whole-file keys, never listed here (see `whole_file_keys`).
    let mut out = Vec::new();
    if let Some(stray) = &parsed.stray {
        // Readers pick the first file in path order and point at its `kind:`.
        out.push((
            Key::StrayArtifacts {
                root: stray.root.clone(),
            },
            fingerprint(stray),
        ));
    }
    match (&parsed.content, role) {
        (Content::SwarmKit(artifact), FileRole::SwarmKit { workspace, .. }) => {
            let workspace = *workspace;
            let whole = fingerprint(artifact);
            if let Some(id) = artifact.id() {
                // What readers of the definition may use. A topology is read only for its name
                // (trigger targets) and as the skill `topology-<name>`, so its agents can change
                // without re-checking anyone.
                let definition = match artifact {
                    Artifact::Topology(t) => fingerprint(&(&t.name, &t.version)),
                    _ => whole,
                };
                out.push((
                    Key::Def {
                        workspace,
                        kind: artifact.kind(),
                        id: id.value.clone(),
                    },
                    definition,
                ));
                out.push((
                    Key::IdSet {
                        workspace,
                        kind: artifact.kind(),
                    },
                    fingerprint(&id.value),
                ));
            }
            if let Artifact::Other { roles, .. } = artifact {
                for role in roles {
                    out.push((
                        Key::Role {
                            workspace,
                            id: role.value.clone(),
                        },
                        fingerprint(&(&role.value, role.range)),
                    ));
                }
            }
            if let Artifact::Topology(topology) = artifact {
                if let Some(name) = &topology.name {
                    let definition = fingerprint(&(&topology.name, &topology.version));
                    for key in [
                        Key::Def {
                            workspace,
                            kind: ArtifactKind::Skill,
                            id: crate::model::swarmkit::topology_skill_id(&name.value),
                        },
                        Key::SkillsInPack {
                            workspace,
                            pack: crate::model::defined_skills::WORKSPACE_PACK.to_owned(),
                        },
                        Key::SkillsInCategory {
                            workspace,
                            category: "capability".to_owned(),
                        },
                    ] {
                        out.push((key, definition));
                    }
                    // The made-up id is one of the skill ids "did you mean" chooses from.
                    out.push((
                        Key::IdSet {
                            workspace,
                            kind: ArtifactKind::Skill,
                        },
                        fingerprint(&name.value),
                    ));
                }
            }
            if let Artifact::Skill(skill) = artifact {
                let id = skill.id.as_ref().map(|i| i.value.as_str());
                let composed = skill.implementation()
                    == Some(crate::model::swarmkit::ImplementationType::Composed);
                out.push((
                    Key::Composes { workspace },
                    fingerprint(&(id, composed, composed.then_some(&skill.composes))),
                ));
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
        (
            Content::SwarmKit(artifact @ Artifact::Workspace(manifest)),
            FileRole::WorkspaceManifest,
        ) => {
            let whole = fingerprint(manifest);
            out.push((Key::Manifest { workspace: id }, whole));
            // Bundled skills count as parts a composed skill may name.
            out.push((
                Key::Composes { workspace: id },
                fingerprint(&manifest.memory_enabled),
            ));
            // The skills the runtime makes up from the manifest: bundled memory skills and one
            // per command-pack command.
            let made_up = crate::model::defined_skills::skills_defined_in(id, artifact);
            if !made_up.is_empty() {
                // Their ids are among those "did you mean" chooses from.
                let ids: Vec<&str> = made_up.iter().map(|skill| skill.id.as_str()).collect();
                out.push((
                    Key::IdSet {
                        workspace: id,
                        kind: ArtifactKind::Skill,
                    },
                    fingerprint(&ids),
                ));
            }
            for skill in made_up {
                out.push((
                    Key::Def {
                        workspace: id,
                        kind: ArtifactKind::Skill,
                        id: skill.id.clone(),
                    },
                    whole,
                ));
                if let Some(category) = &skill.category {
                    out.push((
                        Key::SkillsInCategory {
                            workspace: id,
                            category: category.clone(),
                        },
                        whole,
                    ));
                }
                if let crate::model::defined_skills::Origin::PackCommand { pack, .. } =
                    &skill.origin
                {
                    out.push((
                        Key::SkillsInPack {
                            workspace: id,
                            pack: pack.clone(),
                        },
                        whole,
                    ));
                }
            }
        }
        (Content::Config(config), FileRole::Config) => {
            if let Some(dir) = path.parent() {
                out.push((
                    Key::Config {
                        dir: dir.to_owned(),
                    },
                    fingerprint(config),
                ));
                for entry in &config.mcp_tool_lists {
                    out.push((
                        Key::ToolListNamed {
                            path: crate::model::tools::tool_list_path(dir, entry),
                        },
                        fingerprint(config),
                    ));
                }
            }
        }
        (Content::Manifest(manifest), FileRole::PluginManifest(_)) => {
            if let Some(name) = manifest.plugin_name() {
                let paths: Vec<(&str, &str)> = manifest
                    .paths
                    .iter()
                    .map(|p| (p.key.key, p.path.value.as_str()))
                    .collect();
                out.push((
                    Key::PluginNamed {
                        name: name.value.clone(),
                    },
                    fingerprint(&(&name.value, name.range, paths)),
                ));
            }
        }
        (Content::ToolList(list), FileRole::Json) => {
            out.push((
                Key::ToolList {
                    path: path.to_owned(),
                },
                fingerprint(list),
            ));
        }
        (Content::SkillMd(skill), FileRole::SkillMd) => {
            // Other skills read these to find a same-named skill under the same root (and,
            // later, chain targets); the name's range appears in their related locations.
            if let Some(name) = skill.normalized_name() {
                // The chain's entries too: other skills' chain checks walk through this one.
                let chain = skill.extensions.chain.as_ref();
                let entries = chain_fingerprint(chain, true);
                let entry = fingerprint(&(&name, skill.name_range(), entries));
                if let Some(root) = crate::model::skill_md::skill_root(path) {
                    out.push((
                        Key::SkillMdIn {
                            parent: root.to_owned(),
                        },
                        entry,
                    ));
                }
                // The chain graph reads names and entries, not where they are.
                let structure = chain_fingerprint(chain, false);
                out.push((Key::SkillMdChains, fingerprint(&(&name, structure))));
                out.push((Key::SkillMdNamed { name }, entry));
            }
        }
        (Content::Prose(prose), FileRole::Prose(kind)) => {
            use crate::model::hosts::prose::ProseKind;
            match kind {
                ProseKind::Subagent => {
                    if let Some(name) = prose.name.as_ref().filter(|n| !n.value.is_empty()) {
                        let entry = fingerprint(&(&name.value, name.range));
                        out.push((
                            Key::SubagentNamed {
                                name: name.value.clone(),
                            },
                            entry,
                        ));
                        if let Some(folder) = path.parent() {
                            out.push((
                                Key::SubagentsIn {
                                    folder: folder.to_owned(),
                                },
                                fingerprint(&name.value),
                            ));
                        }
                    }
                }
                ProseKind::Command => {
                    if let Some(stem) = path.file_stem().and_then(|s| s.to_str()) {
                        out.push((
                            Key::CommandNamed {
                                name: stem.to_owned(),
                            },
                            fingerprint(path),
                        ));
                    }
                }
                ProseKind::Instructions | ProseKind::Prompt => {}
            }
        }
        (Content::Prose(prose), FileRole::PluginProse { kind, root }) => {
            let name = prose.name.as_ref().map(|n| (&n.value, n.range));
            out.push((
                Key::PluginComponents { root: root.clone() },
                fingerprint(&(kind, path, name)),
            ));
        }
        _ => {}
    }
    sorted_by_key(out)
}

/// Sorts contributions by key and folds a key given twice (two skills of one id in one file)
/// into one entry whose fingerprint covers both, so the index can compare a file's old and new
/// contributions in one merge pass, without hashing every key.
fn sorted_by_key(mut contributions: Vec<(Key, u64)>) -> Vec<(Key, u64)> {
    // Stable, so a repeated key folds its fingerprints in the order the file gives them.
    contributions.sort_by(|a, b| a.0.cmp(&b.0));
    let mut out: Vec<(Key, u64)> = Vec::with_capacity(contributions.len());
    for (key, print) in contributions {
        match out.last_mut() {
            Some((last, folded)) if *last == key => *folded = fingerprint(&(*folded, print)),
            _ => out.push((key, print)),
        }
    }
    out
}

/// The keys one batch changed. A batch into an empty index (the initial indexing, and every
/// `check`) changes every key it files, and nothing has read any of them yet, so the set only
/// says "all" instead of cloning and hashing each of them (about 30,000 at 10,000 skills, on the
/// main thread, while the workers wait).
#[derive(Default)]
pub(super) struct ChangedKeys {
    pub(super) all: bool,
    pub(super) keys: KeySet,
}

impl ChangedKeys {
    pub(super) fn all() -> Self {
        ChangedKeys {
            all: true,
            keys: KeySet::default(),
        }
    }

    pub(super) fn note(&mut self, key: &Key) {
        if !self.all {
            self.keys.insert(key.clone());
        }
    }

    pub(super) fn insert(&mut self, key: Key) {
        if !self.all {
            self.keys.insert(key);
        }
    }

    pub(super) fn contains(&self, key: &Key) -> bool {
        self.all || self.keys.contains(key)
    }

    /// Whether a key of this shape changed (any key, when all did).
    pub(super) fn any(&self, shape: impl Fn(&Key) -> bool) -> bool {
        self.all || self.keys.iter().any(shape)
    }
}
