//! The skills one file defines, as the SwarmKit resolver counts them: a skill file's own id,
//! and the skills the runtime makes up from a file —
//! - `governed-memory` and `memory-reconcile` from `workspace.yaml`, unless `memory.enabled: false`;
//! - `<pack>-<command>` for every command of every command pack in `workspace.yaml`;
//! - `topology-<name>` for every topology (another agent as a skill).
//!
//! A per-file fact: the index keys its skill tables by it, and the workspace's registry
//! (`semantics::registry`) gathers it across files.

use crate::diagnostic::FileId;
use crate::model::swarmkit::{
    pack_command_skill_id, topology_skill_id, Artifact, CommandPack, ImplementationType,
    PackCommand, Skill, Workspace,
};
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

/// Every skill an artifact defines (`file` is the artifact's file).
pub fn skills_defined_in(file: FileId, artifact: &Artifact) -> Vec<SkillInfo<'_>> {
    match artifact {
        Artifact::Workspace(manifest) => {
            let memory = MEMORY_SKILLS
                .iter()
                .filter(|_| manifest.memory_enabled)
                .map(|(id, category)| memory_skill(file, manifest, id, category));
            let commands = manifest.command_packs.iter().flat_map(|pack| {
                pack.commands
                    .iter()
                    .map(move |command| pack_command_skill(file, pack, command))
            });
            memory.chain(commands).collect()
        }
        _ => one_skill_defined_in(file, artifact).into_iter().collect(),
    }
}

/// The skills with the id `id` an artifact defines, in the order of [`skills_defined_in`],
/// found without building the others: one id is asked of the manifest for every grant and
/// every command, and building all of its thousands of pack commands for each was quadratic.
pub fn skills_named_in<'a>(file: FileId, artifact: &'a Artifact, id: &str) -> Vec<SkillInfo<'a>> {
    match artifact {
        Artifact::Workspace(manifest) => {
            let memory = MEMORY_SKILLS
                .iter()
                .filter(|(memory, _)| manifest.memory_enabled && *memory == id)
                .map(|(id, category)| memory_skill(file, manifest, id, category));
            let commands = manifest
                .pack_commands_named(id)
                .map(|(pack, command)| pack_command_skill(file, pack, command));
            memory.chain(commands).collect()
        }
        _ => one_skill_defined_in(file, artifact)
            .filter(|skill| skill.id == id)
            .into_iter()
            .collect(),
    }
}

/// The skill a skill file or a topology defines.
fn one_skill_defined_in(file: FileId, artifact: &Artifact) -> Option<SkillInfo<'_>> {
    match artifact {
        Artifact::Skill(skill) => skill.id.as_ref().map(|id| SkillInfo {
            id: id.value.clone(),
            file,
            range: id.range,
            category: skill.category.as_ref().map(|c| c.value.clone()),
            implementation: skill.implementation(),
            origin: Origin::File,
            skill: Some(skill),
        }),
        Artifact::Topology(topology) => topology.name.as_ref().map(|name| SkillInfo {
            id: topology_skill_id(&name.value),
            file,
            range: name.range,
            category: Some("capability".to_owned()),
            implementation: Some(ImplementationType::Agent),
            origin: Origin::Topology,
            skill: None,
        }),
        _ => None,
    }
}

/// A bundled memory skill, placed at the manifest's id.
fn memory_skill<'a>(file: FileId, manifest: &Workspace, id: &str, category: &str) -> SkillInfo<'a> {
    SkillInfo {
        id: id.to_owned(),
        file,
        range: manifest
            .id
            .as_ref()
            .map_or(TextRange::empty(0), |i| i.range),
        category: Some(category.to_owned()),
        implementation: Some(ImplementationType::LlmPrompt),
        origin: Origin::Memory,
        skill: None,
    }
}

/// The skill a command of a pack becomes.
fn pack_command_skill<'a>(
    file: FileId,
    pack: &CommandPack,
    command: &PackCommand,
) -> SkillInfo<'a> {
    SkillInfo {
        id: pack_command_skill_id(&pack.id.value, &command.id.value),
        file,
        range: command.id.range,
        category: Some("capability".to_owned()),
        implementation: Some(ImplementationType::Command),
        origin: Origin::PackCommand {
            pack: pack.id.value.clone(),
            read_only: command.read_only,
        },
        skill: None,
    }
}
