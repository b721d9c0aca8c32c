//! The skills the runtime makes up (see [`crate::semantics::registry`]) and what can go wrong with them:
//! a pack command or topology whose made-up id collides with a real skill, and bound memory hooks
//! when memory is off.

use super::rule_doc::RuleDoc;
use super::SwarmKitScope;
use crate::diagnostic::{codes, Diagnostic, FileId};
use crate::index::Lookup;
use crate::model::swarmkit::{Topology, Workspace};
use crate::semantics::registry::{self, Origin};

pub const RULES: &[RuleDoc] = &[
    RuleDoc {
        code: codes::COMMAND_PACK_ID_COLLISION,
        summary: "A command pack's command would become a skill whose id is already taken.",
        explanation: "Each command of a command pack is exposed to agents as the skill `<pack>-<command>`. When a \
file in `skills/` (or a bundled skill) already has that id, an agent granting it could mean either, so SwarmKit \
refuses the workspace. Rename the skill, the pack or the command.",
    },
    RuleDoc {
        code: codes::WORKSPACE_PACK_ID_COLLISION,
        summary: "A topology's skill id `topology-<name>` is already taken by another skill.",
        explanation: "Every topology can be called by agents as the skill `topology-<name>` (granted one by one or \
all together with `pack:workspace`). A skill already named that way makes the grant ambiguous. Rename the \
topology or the skill.",
    },
    RuleDoc {
        code: codes::MEMORY_DISABLED_BUT_BOUND,
        summary: "`memory.enabled: false`, yet `governance.decision_skills` binds memory-reader or memory-writer.",
        explanation: "With memory off the runtime bundles no memory skills, so a binding to them cannot run. Drop \
`memory.enabled: false`, or remove the memory-reader / memory-writer bindings.",
    },
    RuleDoc {
        code: codes::COMMAND_PACK_RESERVED_ID,
        summary: "A command pack has the id `workspace`, which is reserved: SwarmKit cannot load the workspace.",
        explanation: "`pack:workspace` is the bulk grant of every topology of the workspace, so no command pack may \
be called `workspace`. SwarmKit refuses it while resolving the workspace (`parse_command_packs` in \
`commands/_config.py` raises `CommandPackError`; swarmkit-runtime 1.265.0), so both `swarmkit validate` (which \
fails with a traceback rather than a report) and `swarmkit run` stop there. Rename the pack.",
    },
];

pub fn check_manifest(
    lookup: &Lookup<'_>,
    file: FileId,
    manifest: &Workspace,
    out: &mut Vec<Diagnostic>,
) {
    if !manifest.memory_enabled {
        for binding in &manifest.memory_bindings {
            out.push(Diagnostic::new(
                codes::MEMORY_DISABLED_BUT_BOUND,
                file,
                binding.range,
                format!(
                    "`{}` is bound here, but `memory.enabled` is false, so the runtime has no memory skills to run; enable memory or remove this binding",
                    binding.value
                ),
            ));
        }
    }
    for pack in &manifest.command_packs {
        if pack.id.value == registry::WORKSPACE_PACK {
            out.push(Diagnostic::new(
                codes::COMMAND_PACK_RESERVED_ID,
                file,
                pack.id.range,
                "SwarmKit cannot load this workspace: the command pack id `workspace` is reserved for `pack:workspace`, the grant of every topology; rename the pack",
            ));
        }
        for command in &pack.commands {
            let id =
                crate::model::swarmkit::pack_command_skill_id(&pack.id.value, &command.id.value);
            let taken_by = registry::skills_named(lookup, file, &id)
                .into_iter()
                .find(|s| matches!(s.origin, Origin::File | Origin::Memory));
            if let Some(taken_by) = taken_by {
                let mut d = Diagnostic::new(
                    codes::COMMAND_PACK_ID_COLLISION,
                    file,
                    command.id.range,
                    format!(
                        "command `{}` of pack `{}` becomes the skill `{id}`, but a skill with that id already exists; rename the skill, the pack or the command",
                        command.id.value, pack.id.value
                    ),
                );
                if taken_by.origin == Origin::File {
                    d = d.with_related(
                        taken_by.file,
                        taken_by.range,
                        format!("`{id}` is defined here"),
                    );
                }
                out.push(d);
            }
        }
    }
}

pub fn check_topology(scope: &SwarmKitScope<'_>, topology: &Topology, out: &mut Vec<Diagnostic>) {
    let Some(name) = &topology.name else { return };
    let id = crate::model::swarmkit::topology_skill_id(&name.value);
    if let Some((taken_file, taken_range)) =
        registry::first_not_made_by_a_topology(scope.lookup, scope.workspace, &id)
    {
        out.push(
            Diagnostic::new(
                codes::WORKSPACE_PACK_ID_COLLISION,
                scope.file,
                name.range,
                format!("this topology is callable as the skill `{id}`, but another skill already has that id; rename the topology or the skill"),
            )
            .with_related(taken_file, taken_range, format!("`{id}` is defined here")),
        );
    }
}
