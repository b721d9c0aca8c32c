//! The checks an index runs, handed to it by the layer that owns them (`rules::CHECKS`): the
//! index decides when a file is analysed and which files are re-checked; the table decides what
//! is wrong, and how a file's finished list is trimmed (suppression comments, the per-file cap).
//! So the index knows the rules only as this table and imports nothing above it.

use super::{FileEntry, FileRole, Lookup};
use crate::diagnostic::{Code, Diagnostic, FileId, Fix};
use crate::model::config::Config;
use crate::model::skill_md::SkillMd;
use crate::model::swarmkit::EnvFile;
use crate::syntax::interpolate::Substitution;
use crate::syntax::YamlDocument;

/// Every check the index calls, as plain functions (no state: the index is their only input).
pub struct Checks {
    /// File-local checks of a SwarmKit file's tree (syntax, duplicate keys, `kind:` against the
    /// directory, nesting, the JSON Schema).
    pub swarmkit_file: fn(FileId, &FileRole, &YamlDocument) -> Vec<Diagnostic>,
    /// What `${…}` substitution met in a SwarmKit file (a value grown past its cap).
    pub substitutions: fn(FileId, &[Substitution], &mut Vec<Diagnostic>),
    /// File-local checks of a workspace's property file.
    pub env_file: fn(FileId, &YamlDocument, &EnvFile) -> Vec<Diagnostic>,
    /// File-local checks of a SKILL.md (its text, lowered frontmatter and frontmatter tree).
    pub skill_md: fn(FileId, &str, &SkillMd, Option<&YamlDocument>) -> Vec<Diagnostic>,
    /// File-local checks of a `skillgraph.toml` beyond its own parse.
    pub config: fn(FileId, &str, &Config, &mut Vec<Diagnostic>),
    /// The cross-file checks of one file: everything that reads other files through the lookup.
    pub cross_file: fn(&Lookup<'_>, FileId) -> Vec<Diagnostic>,
    /// A file's sorted diagnostics with its suppression comments applied (what they silence
    /// dropped, what they say about themselves added).
    pub suppress: fn(&FileEntry, Vec<Diagnostic>) -> Vec<Diagnostic>,
    /// Whether a code is one the suppressions report about themselves, which gets its level
    /// after `suppress` has run.
    pub is_suppression_code: fn(Code) -> bool,
    /// At most so many diagnostics per file, the rest summed up in one.
    pub cap_per_file: fn(FileId, Vec<Diagnostic>) -> Vec<Diagnostic>,
    /// "Disable this rule on this line" for a diagnostic of the file, where a comment can go.
    pub disable_fix: fn(&FileEntry, &Diagnostic) -> Option<Fix>,
}

impl Checks {
    /// No checks at all: for the tests of what the index and the layers between it and the
    /// rules compute, which must not reach up to the rules for a table.
    pub const NONE: Checks = Checks {
        swarmkit_file: |_, _, _| Vec::new(),
        substitutions: |_, _, _| {},
        env_file: |_, _, _| Vec::new(),
        skill_md: |_, _, _, _| Vec::new(),
        config: |_, _, _, _| {},
        cross_file: |_, _| Vec::new(),
        suppress: |_, diagnostics| diagnostics,
        is_suppression_code: |_| false,
        cap_per_file: |_, diagnostics| diagnostics,
        disable_fix: |_, _| None,
    };
}

impl std::fmt::Debug for Checks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Checks")
    }
}
