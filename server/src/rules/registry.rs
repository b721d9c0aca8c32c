//! The skill registry of a workspace as the SwarmKit resolver sees it: the skills of `skills/`,
//! plus the skills the runtime makes up itself —
//! - `governed-memory` and `memory-reconcile`, bundled unless `memory.enabled: false`;
//! - `<pack>-<command>` for every command of every command pack in `workspace.yaml`;
//! - `topology-<name>` for every topology (another agent as a skill).
//!
//! Grants, `requires:` rules and abstract grants may name any of them. Every lookup goes through
//! [`Lookup`], so the reads are recorded for incremental re-checking.

use crate::diagnostic::FileId;
use crate::index::{Content, FileEntry, Key, Lookup};
use crate::model::swarmkit::{Artifact, ArtifactKind, ImplementationType, Skill};
use crate::syntax::TextRange;

/// The bundled memory skills and their categories. Both are `llm_prompt` skills
/// (swarmkit-runtime 1.265.0, `memory/skills/governed-memory.yaml` and
/// `memory/skills/memory-reconcile.yaml`), which is what the `requires:` rules judge them by.
pub const MEMORY_SKILLS: &[(&str, &str)] = &[
    ("governed-memory", "persistence"),
    ("memory-reconcile", "decision"),
];

/// The pack id whose `pack:` grant hands out every topology skill.
pub const WORKSPACE_PACK: &str = "workspace";

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// A file in `skills/`.
    File,
    /// Bundled with the runtime.
    Memory,
    /// A command of a command pack: (pack id, whether the command is read-only).
    PackCommand { pack: String, read_only: bool },
    /// `topology-<name>`: runs that topology as a child job.
    Topology,
}

/// One skill of the registry, wherever it comes from.
#[derive(Clone, Debug)]
pub struct SkillInfo<'a> {
    pub id: String,
    /// Where it is defined: the skill file, the manifest (memory, pack commands) or the topology.
    pub file: FileId,
    /// The defining id's range in `file`.
    pub range: TextRange,
    pub category: Option<String>,
    pub implementation: Option<ImplementationType>,
    pub origin: Origin,
    /// The artifact, for skills defined in `skills/`.
    pub skill: Option<&'a Skill>,
}

impl SkillInfo<'_> {
    pub fn server(&self) -> Option<&str> {
        self.skill
            .and_then(|s| s.server.as_ref())
            .map(|s| s.value.as_str())
    }
}

/// Every skill an index entry defines.
pub fn skills_defined_by(entry: &FileEntry) -> Vec<SkillInfo<'_>> {
    skills_defined_in(entry.id, &entry.parsed.content)
}

/// Every skill a file's content defines.
pub fn skills_defined_in(file: FileId, content: &Content) -> Vec<SkillInfo<'_>> {
    let Content::SwarmKit(artifact) = content else {
        return Vec::new();
    };
    match artifact {
        Artifact::Skill(skill) => skill
            .id
            .as_ref()
            .map(|id| SkillInfo {
                id: id.value.clone(),
                file,
                range: id.range,
                category: skill.category.as_ref().map(|c| c.value.clone()),
                implementation: skill.implementation(),
                origin: Origin::File,
                skill: Some(skill),
            })
            .into_iter()
            .collect(),
        Artifact::Workspace(manifest) => {
            let anchor = manifest
                .id
                .as_ref()
                .map_or(TextRange::empty(0), |i| i.range);
            let mut out = Vec::new();
            if manifest.memory_enabled {
                for (id, category) in MEMORY_SKILLS {
                    out.push(SkillInfo {
                        id: (*id).to_owned(),
                        file,
                        range: anchor,
                        category: Some((*category).to_owned()),
                        implementation: Some(ImplementationType::LlmPrompt),
                        origin: Origin::Memory,
                        skill: None,
                    });
                }
            }
            for pack in &manifest.command_packs {
                for command in &pack.commands {
                    out.push(SkillInfo {
                        id: format!("{}-{}", pack.id.value, command.id.value),
                        file,
                        range: command.id.range,
                        category: Some("capability".to_owned()),
                        implementation: Some(ImplementationType::Command),
                        origin: Origin::PackCommand {
                            pack: pack.id.value.clone(),
                            read_only: command.read_only,
                        },
                        skill: None,
                    });
                }
            }
            out
        }
        Artifact::Topology(topology) => topology
            .name
            .as_ref()
            .map(|name| SkillInfo {
                id: format!("topology-{}", name.value),
                file,
                range: name.range,
                category: Some("capability".to_owned()),
                implementation: Some(ImplementationType::Agent),
                origin: Origin::Topology,
                skill: None,
            })
            .into_iter()
            .collect(),
        _ => Vec::new(),
    }
}

fn collect<'a>(
    lookup: &Lookup<'a>,
    key: Key,
    keep: impl Fn(&SkillInfo<'a>) -> bool,
) -> Vec<SkillInfo<'a>> {
    let mut out: Vec<SkillInfo<'a>> = lookup
        .get(key)
        .into_iter()
        .flat_map(skills_defined_by)
        .filter(|s| keep(s))
        .collect();
    // A file in skills/ shadows a made-up skill of the same id.
    // Entries arrive in path order; the sort is stable, so files stay in path order.
    out.sort_by_key(|s| (s.id.clone(), s.origin != Origin::File));
    out
}

/// The skills with an id: files first (several when duplicated), then a made-up one.
pub fn skills_named<'a>(lookup: &Lookup<'a>, workspace: FileId, id: &str) -> Vec<SkillInfo<'a>> {
    collect(
        lookup,
        Key::Def {
            workspace,
            kind: ArtifactKind::Skill,
            id: id.to_owned(),
        },
        |s| s.id == id,
    )
}

/// The skill an id resolves to, as the resolver picks it.
pub fn skill_named<'a>(lookup: &Lookup<'a>, workspace: FileId, id: &str) -> Option<SkillInfo<'a>> {
    skills_named(lookup, workspace, id).into_iter().next()
}

/// `server:<id>`: every `mcp_tool` skill on that server.
pub fn skills_on_server<'a>(
    lookup: &Lookup<'a>,
    workspace: FileId,
    server: &str,
) -> Vec<SkillInfo<'a>> {
    collect(
        lookup,
        Key::SkillsOnServer {
            workspace,
            server: server.to_owned(),
        },
        |s| s.implementation == Some(ImplementationType::McpTool) && s.server() == Some(server),
    )
}

/// Every skill whose origin is the pack (all commands, read or write; `pack:workspace` gives the
/// topology skills).
pub fn skills_of_pack<'a>(
    lookup: &Lookup<'a>,
    workspace: FileId,
    pack: &str,
) -> Vec<SkillInfo<'a>> {
    collect(
        lookup,
        Key::SkillsInPack {
            workspace,
            pack: pack.to_owned(),
        },
        |s| match &s.origin {
            Origin::PackCommand { pack: p, .. } => p == pack,
            Origin::Topology => pack == WORKSPACE_PACK,
            _ => false,
        },
    )
}

pub fn skills_in_category<'a>(
    lookup: &Lookup<'a>,
    workspace: FileId,
    category: &str,
) -> Vec<SkillInfo<'a>> {
    collect(
        lookup,
        Key::SkillsInCategory {
            workspace,
            category: category.to_owned(),
        },
        |s| s.category.as_deref() == Some(category),
    )
}

/// Why a composed skill cannot be built, if it cannot: SwarmKit resolves `composes` against the
/// skills of `skills/` and the bundled ones, recursively, and drops a composed skill with an
/// unknown part or a loop anywhere below it. Answered from the workspace's composes graph, whose
/// read re-checks the caller when any skill's parts change.
pub fn unbuildable_composition(
    lookup: &Lookup<'_>,
    workspace: FileId,
    skill: &Skill,
) -> Option<String> {
    if skill.implementation() != Some(ImplementationType::Composed) {
        return None;
    }
    let id = skill.id.as_ref()?;
    super::composes::composes_graph(lookup, workspace)
        .unbuildable(&id.value)
        .map(str::to_owned)
}
