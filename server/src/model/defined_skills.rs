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
    pack_command_skill_id, topology_skill_id, Artifact, ImplementationType, Skill,
    TOPOLOGY_SKILL_PREFIX,
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
                    });
                }
            }
            out
        }
        Artifact::Topology(topology) => topology
            .name
            .as_ref()
            .map(|name| SkillInfo {
                id: topology_skill_id(&name.value),
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

/// Whether an artifact defines the skill `id`, without building its skills.
pub fn defines_skill(artifact: &Artifact, id: &str) -> bool {
    match artifact {
        Artifact::Skill(skill) => skill.id.as_ref().is_some_and(|i| i.value == id),
        Artifact::Workspace(manifest) => {
            (manifest.memory_enabled && MEMORY_SKILLS.iter().any(|(memory, _)| *memory == id))
                || manifest.command_packs.iter().any(|pack| {
                    id.strip_prefix(pack.id.value.as_str())
                        .and_then(|rest| rest.strip_prefix('-'))
                        .is_some_and(|command| pack.commands.iter().any(|c| c.id.value == command))
                })
        }
        Artifact::Topology(topology) => topology.name.as_ref().is_some_and(|name| {
            id.strip_prefix(TOPOLOGY_SKILL_PREFIX) == Some(name.value.as_str())
        }),
        _ => false,
    }
}
