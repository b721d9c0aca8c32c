//! Checks. One file per rule family; each check is a function of the index (or of one lowered
//! file) returning diagnostics, and each family lists its codes in a `RULES` table beside it.
//! It must not know the editor, the protocol or the disk, nor read the YAML tree outside the
//! places `server/tests/layers.rs` lists.

pub mod agents;
pub mod archetypes;
pub mod arguments;
pub mod bundled_files;
pub mod catalogue;
pub mod chain;
pub mod command_packs;
pub mod commands;
pub mod config;
pub mod decision_skills;
pub mod dependencies;
pub mod grants;
pub mod ids;
pub mod made_up_skills;
pub mod mentions;
pub mod missing_workspace;
pub mod output;
pub mod output_schema;
pub mod plugins;
pub mod portable;
pub mod precondition;
pub mod requires;
pub mod rule_doc;
pub mod schema;
pub mod skill_body;
pub mod skill_hosts;
pub mod skill_links;
pub mod skill_md;
pub mod skills;
pub mod subagents;
pub mod suppress;
pub(crate) mod swarmkit_file;
pub mod tools;

// The fix-building helpers and the suggestions live below the rules (the semantic layer uses
// them too); the rule families reach them under their old names.
pub use crate::diagnostic::fixes;
pub use crate::suggest;

use std::path::Path;

use crate::diagnostic::{codes, Diagnostic, FileId};
use crate::index::{Checks, Content, FileRole, Key, Lookup};
use crate::model::skill_md::SkillMd;
use crate::model::swarmkit::{Artifact, ArtifactKind, Workspace};
use rule_doc::RuleDoc;

/// Every check, as the index runs them (see [`crate::index::Checks`]).
pub static CHECKS: Checks = Checks {
    swarmkit_file: swarmkit_file::check,
    substitutions: swarmkit_file::substitution_diagnostics,
    env_file: swarmkit_file::check_env_file,
    skill_md: skill_md::check_local,
    config: tools::check_config_local,
    cross_file: check_file,
    suppress: |entry, diagnostics| {
        suppress::apply(
            entry.id,
            &entry.text,
            || entry.line_index(),
            suppress::comments_of(entry),
            diagnostics,
        )
    },
    is_suppression_code: |code| code.name().starts_with("suppression."),
    cap_per_file: output::cap_per_file,
    disable_fix: |entry, diagnostic| {
        // No file's tree is kept after analysis; a code action is rare enough to parse the file
        // again, so the comment is never put inside a scalar running across lines.
        let reparsed = match &entry.parsed.content {
            Content::SwarmKit(_) | Content::Env(_) => {
                let bom = crate::syntax::bom_len(&entry.text);
                Some(crate::syntax::YamlDocument::parse(
                    &entry.text[bom..],
                    bom as u32,
                ))
            }
            Content::SkillMd(skill) => {
                crate::syntax::frontmatter_yaml(&entry.text, &skill.frontmatter)
            }
            _ => None,
        };
        let yaml = reparsed.as_ref();
        suppress::disable_fix(
            &entry.text,
            entry.line_index(),
            suppress::comments_of(entry),
            yaml.and_then(crate::syntax::YamlDocument::root),
            diagnostic,
        )
    },
};

/// A SwarmKit file under its cross-file checks: the lookup the checks read the workspace
/// through, the workspace the file belongs to (its manifest's id) and the file itself.
#[derive(Clone, Copy)]
pub struct SwarmKitScope<'a> {
    pub lookup: &'a Lookup<'a>,
    pub workspace: FileId,
    pub file: FileId,
}

impl<'a> SwarmKitScope<'a> {
    /// The workspace's manifest (`workspace.yaml`): its file and what it lowered to, when it
    /// parsed as one.
    pub fn manifest(&self) -> Option<(FileId, &'a Workspace)> {
        let key = Key::Manifest {
            workspace: self.workspace,
        };
        let entry = self.lookup.get(key).into_iter().next()?;
        match &entry.parsed.content {
            Content::SwarmKit(Artifact::Workspace(manifest)) => Some((entry.id, manifest)),
            _ => None,
        }
    }
}

/// A SKILL.md under its cross-file checks: the lookup the checks read other files through, the
/// file, its path and text, and its lowered frontmatter.
#[derive(Clone, Copy)]
pub struct SkillMdScope<'a> {
    pub lookup: &'a Lookup<'a>,
    pub file: FileId,
    pub path: &'a Path,
    pub text: &'a str,
    pub skill: &'a SkillMd,
}

/// The cross-file checks of one file: everything that reads other files through `lookup`.
pub fn check_file(lookup: &Lookup<'_>, file: FileId) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let Some(entry) = lookup.file(file) else {
        return out;
    };
    if let Some(stray) = &entry.parsed.stray {
        missing_workspace::check(lookup, file, stray, &mut out);
    }
    if let Content::SkillMd(skill) = &entry.parsed.content {
        let scope = SkillMdScope {
            lookup,
            file,
            path: &entry.path,
            text: &entry.text,
            skill,
        };
        skill_md::check(&scope, &mut out);
        skill_links::check(&scope, &mut out);
        skill_body::check(file, &entry.text, skill, &mut out);
        bundled_files::check(&scope, &mut out);
        arguments::check(&scope, &mut out);
        portable::check(&scope, &mut out);
        dependencies::check(&scope, &mut out);
        chain::check(&scope, &mut out);
        precondition::check(&scope, &mut out);
    }
    match (&entry.role, &entry.parsed.content) {
        (FileRole::Prose(kind), Content::Prose(prose)) => {
            subagents::check_prose(lookup, entry, *kind, prose, &mut out);
            if *kind == crate::model::hosts::prose::ProseKind::Command {
                commands::check(lookup, entry, &mut out);
            }
            mentions::check_prose(lookup, entry, prose, &mut out);
        }
        (FileRole::PluginProse { kind, .. }, Content::Prose(prose)) => {
            subagents::check_prose(lookup, entry, *kind, prose, &mut out);
            if *kind == crate::model::hosts::prose::ProseKind::Command {
                commands::check(lookup, entry, &mut out);
            }
            mentions::check_prose(lookup, entry, prose, &mut out);
        }
        (FileRole::Config, Content::Config(config)) => {
            tools::check_config(lookup, entry, config, &mut out)
        }
        (FileRole::PluginManifest(_), Content::Manifest(manifest)) => {
            plugins::check_manifest(lookup, entry, manifest, &mut out)
        }
        (FileRole::Json, Content::ToolList(list)) => {
            tools::check_tool_list(lookup, entry, list, &mut out)
        }
        _ => {}
    }
    if let (FileRole::WorkspaceManifest, Content::SwarmKit(Artifact::Workspace(manifest))) =
        (&entry.role, &entry.parsed.content)
    {
        made_up_skills::check_manifest(lookup, file, manifest, &mut out);
        command_packs::check_manifest(lookup, file, manifest, &mut out);
        // A manifest is its own workspace.
        let scope = SwarmKitScope {
            lookup,
            workspace: file,
            file,
        };
        decision_skills::check(&scope, &manifest.decision_skills, &mut out);
    }
    if let (FileRole::SwarmKit { workspace, .. }, Content::SwarmKit(artifact)) =
        (&entry.role, &entry.parsed.content)
    {
        let scope = SwarmKitScope {
            lookup,
            workspace: *workspace,
            file,
        };
        ids::check_duplicate(&scope, artifact, &mut out);
        match artifact {
            Artifact::Topology(topology) => {
                agents::check(&scope, topology, &mut out);
                made_up_skills::check_topology(&scope, topology, &mut out);
                decision_skills::check(&scope, &topology.decision_skills, &mut out);
            }
            Artifact::Skill(skill) => skills::check(&scope, skill, &mut out),
            Artifact::Archetype(archetype) => archetypes::check(&scope, archetype, &mut out),
            Artifact::Trigger(trigger) => {
                for target in &trigger.topology_targets {
                    ids::check_reference(
                        &scope,
                        ArtifactKind::Topology,
                        target,
                        codes::TRIGGER_UNKNOWN_TARGET,
                        &mut out,
                    );
                }
            }
            Artifact::Other { roles, .. } => ids::check_roles(&scope, roles, &mut out),
            Artifact::Workspace(_) => {}
        }
    }
    out
}

/// Codes about the file itself rather than its content.
pub const RULES: &[RuleDoc] = &[
    RuleDoc {
        code: codes::FILE_TOO_LARGE,
        summary: "The file is larger than the size cap and was not checked.",
        explanation: "Files over the cap (4 MiB) are skipped so that one generated or binary file cannot stall \
the checker or the editor. Nothing in the file is checked, and ids it defines are not known to other files. \
Split the file, or move it out of the workspace if it is not a SwarmKit artifact or skill.",
    },
    RuleDoc {
        code: codes::FILE_ENCODING,
        summary: "The file is not valid UTF-8 text, or is binary.",
        explanation: "YAML and SKILL.md files must be UTF-8. Bytes that are not valid UTF-8 are read as the \
replacement character (so the rest of the file is still checked), and a file holding NUL bytes is treated \
as binary and not parsed. Re-save the file as UTF-8.",
    },
    RuleDoc {
        code: codes::FILE_TOO_MANY_DIAGNOSTICS,
        summary: "The file has more than 1,000 diagnostics; the rest are left out.",
        explanation: "A file reports at most 1,000 diagnostics, so that one generated or broken file cannot \
flood the editor or a CI log. When there are more, this diagnostic (at the top of the file) says how many \
were left out. The ones kept are chosen by cause before consequence: problems with the file itself (syntax, \
encoding, aliases) first, then cycles, then the other root causes (duplicate keys, duplicate and unknown ids), \
then the rest; within each, errors before warnings, in order of position. Fix the ones shown and check again. Whatever the file holds, \
a message quotes at most 80 characters of it in one place: a longer id or value is shown by its ends \
(`giant-xxxx…xxxx-end`), while the range still covers all of it; and a message longer than 1,200 bytes \
(a list of thousands of names) keeps its start and its advice around a count of what was left out.",
    },
    RuleDoc {
        code: codes::WORKSPACE_YAML_PARSE,
        summary: "The YAML does not parse.",
        explanation: "The range points at the place the parser stopped. Everything read before that point is \
still checked and its ids are still known, so one typo does not flood the workspace with unknown-id errors. \
Common causes: a tab used for indentation, an unclosed bracket or quote, a `key: value: value` line.\n\n\
SwarmKit stops at the first phase that fails (swarmkit-runtime 1.265.0, `resolver/__init__.py`, \
`resolve_workspace`: discovery and parsing, then the schema check of every artifact, then the registries and \
references, each raising before the next one runs), so after a parse error it reports nothing else. skillgraph \
goes on and reports the problems of every phase at once, on purpose: fixing the parse error would only reveal \
them one round later. Compared with `swarmkit validate`, these later problems are the difference.",
    },
    RuleDoc {
        code: codes::YAML_DUPLICATE_KEY,
        summary: "A key appears twice in one mapping.",
        explanation: "Most YAML loaders silently keep one of the two values, so half of what is written has no \
effect. SwarmKit reads files with PyYAML's `safe_load`, which keeps the last value (its mapping constructor \
overwrites the key), so every other check reads the last value too and says nothing about the earlier one. Merge \
the two entries or rename one; the related location points at the first occurrence.\n\nSwarmKit itself \
accepts the file: it loads each artifact with `yaml.safe_load` (swarmkit-runtime 1.265.0, `workspace/__init__.py`, \
`_load_yaml`), and neither `swarmkit validate` nor `swarmkit run` says anything about the value that was dropped. \
This is a code of our own, an error on purpose: a duplicate key is almost always a merge or copy mistake, and \
the value that counts is the one further down, which is easy to miss.",
    },
    RuleDoc {
        code: codes::YAML_ALIAS_EXPANSION,
        summary: "The document's aliases stand for too much once expanded (an alias bomb).",
        explanation: "Every use of an alias (`*name`) stands for everything its anchor (`&name`) names, so a few \
hundred bytes of anchors and aliases can stand for billions of nodes. A document may expand by at most 100,000 \
nodes and 4 MiB of text beyond what is written, all of its aliases together (an alias of one long value is one \
node, but its whole text at every use); the alias that goes past either (and every later one) \
is read as null and the file is checked as if it held null there. SwarmKit's loader would expand them all. \
Write the shared content out, or share less through aliases.",
    },
    RuleDoc {
        code: codes::YAML_ALIAS_DEPTH,
        summary: "An alias nests deeper than 256 levels once expanded.",
        explanation: "Anchors can hold aliases of earlier anchors, so a short file can nest thousands of levels \
deep once its aliases are expanded (`&a2 [*a1]`, `&a3 [*a2]`, ...). Nesting is capped at 256 levels, as \
written and as expanded; the alias that would go deeper (and every later one) is read as null. Write the content \
out, or stop chaining anchors inside anchors.",
    },
];
