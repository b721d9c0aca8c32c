//! One file on its own: decode, parse, lower, and the checks that need nothing but the file.

use super::classify::FileRole;
use super::Checks;
use crate::diagnostic::{codes, Diagnostic, FileId};
use crate::model::config::Config;
use crate::model::skill_md::SkillMd;
use crate::model::swarmkit::{Artifact, ArtifactKind, EnvFile, StrayArtifact};
use crate::model::tools::ToolList;
use crate::syntax::interpolate::{Substitution, Variables};
use crate::syntax::{bom_len, YamlDocument};

/// Files over this size get one `file.too-large` diagnostic and are otherwise skipped.
pub const MAX_FILE_BYTES: usize = 4 * 1024 * 1024;

#[derive(Clone, Debug, PartialEq)]
// One per file, already behind the file entry's `Arc`: boxing the large variant would add an
// allocation per file and buy nothing.
#[allow(clippy::large_enum_variant)]
pub enum Content {
    /// Not parsed: not ours, too large, or binary.
    None,
    SwarmKit(Artifact),
    Config(Config),
    SkillMd(SkillMd),
    /// Markdown a host loads beside skills (`CLAUDE.md`, a subagent, a legacy command, ...).
    Prose(crate::model::prose::Prose),
    /// A plugin or marketplace manifest.
    Manifest(crate::model::plugin_manifest::Manifest),
    /// A `.json` file read as a saved MCP `tools/list` result.
    ToolList(ToolList),
    /// A workspace's property file (`workspace.env*.yaml`).
    Env(EnvFile),
}

/// The result of analysing one file on its own. No YAML tree is kept: a file's tree lives only
/// while the file is lowered and its file-local checks run; everything later (cross-file rules,
/// the IDE) reads the lowered content, its spans and the text.
#[derive(Clone, Debug)]
pub struct ParsedFile {
    pub content: Content,
    /// Diagnostics that depend on this file alone (and on its workspace's variables).
    pub local: Vec<Diagnostic>,
    /// What each scalar holding `${` became, in text order; empty when none does. A file with
    /// any is analysed again when its workspace's variables change.
    pub substitutions: Vec<Substitution>,
    /// Set for a YAML file outside every workspace that is a SwarmKit artifact all the same
    /// (its folder lacks `workspace.yaml`).
    pub stray: Option<StrayArtifact>,
}

impl ParsedFile {
    /// A file's content and local diagnostics, with no substitutions and no stray artifact.
    fn new(content: Content, local: Vec<Diagnostic>) -> ParsedFile {
        ParsedFile {
            content,
            local,
            substitutions: Vec::new(),
            stray: None,
        }
    }

    fn empty(local: Vec<Diagnostic>) -> ParsedFile {
        ParsedFile::new(Content::None, local)
    }

    /// The substitution of the scalar at `offset`, if that scalar holds `${`.
    pub fn substitution_at(&self, offset: u32) -> Option<&Substitution> {
        let after = self
            .substitutions
            .partition_point(|s| s.range.start <= offset);
        self.substitutions[..after]
            .last()
            .filter(|s| s.range.contains_inclusive(offset))
    }
}

/// `invalid_utf8_at` is the decoder's answer: where the first byte that was not UTF-8 was.
/// `variables` are those of the file's workspace (empty for files outside one).
pub(crate) fn analyze(
    checks: &Checks,
    id: FileId,
    path: &std::path::Path,
    text: &str,
    invalid_utf8_at: Option<u32>,
    role: &FileRole,
    variables: &Variables,
) -> ParsedFile {
    if *role == FileRole::Json {
        // Parsed whether or not a config names it (cheap, and it keeps roles independent of
        // configs); its problems are reported only when one does (`rules::tools`).
        if text.len() > MAX_FILE_BYTES || text.contains('\0') {
            return ParsedFile::empty(Vec::new());
        }
        let bom = bom_len(text);
        return ParsedFile::new(
            Content::ToolList(ToolList::parse(&text[bom..], bom as u32)),
            Vec::new(),
        );
    }
    if !role.is_ours() {
        let mut parsed = ParsedFile::empty(Vec::new());
        if *role == FileRole::Unrelated {
            parsed.stray = stray(path, text);
        }
        return parsed;
    }
    // The cap is on the file's bytes. Decoded text came through `Change::from_bytes`, which
    // checked them (and may have made the text longer by replacing bytes that are not UTF-8);
    // text from an editor is the file's UTF-8 as it is.
    if invalid_utf8_at.is_none() && text.len() > MAX_FILE_BYTES {
        return ParsedFile::empty(vec![Diagnostic::new(
            codes::FILE_TOO_LARGE,
            id,
            crate::syntax::TextRange::empty(0),
            format!(
                "this file is {} MiB, over the {} MiB cap; it was not checked",
                text.len() / (1024 * 1024),
                MAX_FILE_BYTES / (1024 * 1024)
            ),
        )]);
    }
    if memchr::memchr(0, text.as_bytes()).is_some() {
        return ParsedFile::empty(vec![Diagnostic::new(
            codes::FILE_ENCODING,
            id,
            crate::syntax::TextRange::empty(0),
            "this file holds NUL bytes, so it is binary, not text; it was not checked",
        )]);
    }
    let mut parsed = match role {
        FileRole::WorkspaceManifest | FileRole::SwarmKit { .. } => {
            analyze_swarmkit(checks, id, text, role, variables)
        }
        FileRole::EnvFile { .. } => analyze_env(checks, id, text),
        FileRole::Config => {
            let (config, mut local) = Config::parse(id, text);
            (checks.config)(id, text, &config, &mut local);
            ParsedFile::new(Content::Config(config), local)
        }
        FileRole::SkillMd => analyze_skill_md(checks, id, text),
        FileRole::Prose(kind) | FileRole::PluginProse { kind, .. } => analyze_prose(*kind, text),
        FileRole::PluginManifest(kind) => {
            let bom = bom_len(text);
            ParsedFile::new(
                Content::Manifest(crate::model::plugin_manifest::Manifest::lower(
                    *kind,
                    &text[bom..],
                    bom as u32,
                )),
                Vec::new(),
            )
        }
        FileRole::Unrelated | FileRole::Json => ParsedFile::empty(Vec::new()),
    };
    // Bytes that were not UTF-8 were replaced by U+FFFD when the file was read; the file is
    // still checked, and the first replacement is reported. A U+FFFD the file really holds is
    // just a character.
    if let Some(at) = invalid_utf8_at.filter(|&at| text[at as usize..].starts_with('\u{fffd}')) {
        parsed.local.push(Diagnostic::new(
            codes::FILE_ENCODING,
            id,
            crate::syntax::TextRange::new(at, at + '\u{fffd}'.len_utf8() as u32),
            "this file is not valid UTF-8 here (read as the replacement character �); re-save it as UTF-8",
        ));
    }
    parsed
}

/// A YAML file outside every workspace that is a SwarmKit artifact all the same. Parsed only
/// when it sits in an artifact directory (`topologies/`, `skills/`, ...), so other YAML files
/// outside workspaces cost a look at their path.
fn stray(path: &std::path::Path, text: &str) -> Option<StrayArtifact> {
    if !super::classify::is_yaml(path)
        || text.len() > MAX_FILE_BYTES
        || text.contains('\0')
        || !path
            .parent()
            .into_iter()
            .chain(path.parent().and_then(|p| p.parent()))
            .filter_map(|dir| dir.file_name()?.to_str())
            .any(|name| ArtifactKind::for_directory(name).is_some())
    {
        return None;
    }
    let bom = bom_len(text);
    let yaml = YamlDocument::parse(&text[bom..], bom as u32);
    crate::model::swarmkit::stray_artifact(path, yaml.root()?)
}

fn analyze_swarmkit(
    checks: &Checks,
    id: FileId,
    text: &str,
    role: &FileRole,
    variables: &Variables,
) -> ParsedFile {
    let bom = bom_len(text);
    let mut yaml = YamlDocument::parse(&text[bom..], bom as u32);
    // SwarmKit substitutes `${…}` in every value before it validates or resolves anything, so
    // every check below reads the substituted tree.
    let substitutions = crate::syntax::interpolate::interpolate(&mut yaml, variables);
    let kind = match role {
        FileRole::SwarmKit { expected, .. } => *expected,
        _ => ArtifactKind::Workspace,
    };
    // Lowered as the kind its directory holds: that is how SwarmKit loads it, and a wrong `kind:`
    // is reported on its own.
    // A file nested too deep is never loaded, so it defines nothing.
    let loaded = !matches!(role, FileRole::SwarmKit { too_deep: true, .. });
    let content = match yaml.root().filter(|root| root.is_mapping() && loaded) {
        Some(root) => Content::SwarmKit(Artifact::lower(kind, root)),
        None => Content::None,
    };
    let mut local = (checks.swarmkit_file)(id, role, &yaml);
    (checks.substitutions)(id, &substitutions, &mut local);
    // The tree is dropped here: everything later (cross-file rules, the IDE) reads the lowered
    // artifact, its spans and the text, so keeping a tree per file would only cost memory.
    drop(yaml);
    ParsedFile {
        content,
        local,
        substitutions,
        stray: None,
    }
}

/// A property file: its properties, and what would make SwarmKit ignore it.
fn analyze_env(checks: &Checks, id: FileId, text: &str) -> ParsedFile {
    let bom = bom_len(text);
    let yaml = YamlDocument::parse(&text[bom..], bom as u32);
    let env = EnvFile::lower(&yaml, text);
    let local = (checks.env_file)(id, &yaml, &env);
    ParsedFile::new(Content::Env(env), local)
}

/// A SKILL.md: only the frontmatter is YAML, parsed with offsets in the whole file.
fn analyze_skill_md(checks: &Checks, id: FileId, text: &str) -> ParsedFile {
    let frontmatter = crate::syntax::split_frontmatter(text, bom_len(text));
    let yaml = crate::syntax::frontmatter_yaml(text, &frontmatter);
    let skill = SkillMd::lower(text, frontmatter, yaml.as_ref());
    let local = (checks.skill_md)(id, text, &skill, yaml.as_ref());
    // As for a SwarmKit file, the tree goes here: the lowered fields and their values hold what
    // the cross-file rules and the IDE read.
    drop(yaml);
    ParsedFile::new(Content::SkillMd(skill), local)
}

/// A prose file: its frontmatter (if any) is YAML, parsed with offsets in the whole file; the
/// body is scanned for mentions once, here.
fn analyze_prose(kind: crate::model::hosts::prose::ProseKind, text: &str) -> ParsedFile {
    let frontmatter = crate::syntax::split_frontmatter(text, bom_len(text));
    let yaml = crate::syntax::frontmatter_yaml(text, &frontmatter);
    let prose = crate::model::prose::Prose::lower(kind, text, frontmatter, yaml.as_ref());
    ParsedFile::new(Content::Prose(prose), Vec::new())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Analyses valid UTF-8 `text` at `path` with no checks (these tests are about what
    /// analysis keeps) and no variables.
    fn analyze_unchecked(id: u32, path: &str, text: &str, role: &FileRole) -> ParsedFile {
        let path = std::path::Path::new(path);
        analyze(
            &Checks::NONE,
            FileId(id),
            path,
            text,
            None,
            role,
            &Variables::default(),
        )
    }

    /// `ParsedFile` has no place for a tree, so these check that what the later readers need
    /// is in the lowered content instead.
    #[test]
    fn a_file_keeps_its_lowered_content() {
        let text = "apiVersion: swarmkit/v1\nkind: Skill\nmetadata:\n  id: a\n";
        let role = FileRole::SwarmKit {
            workspace: FileId(0),
            expected: ArtifactKind::Skill,
            directory: "skills".to_owned(),
            too_deep: false,
        };
        let parsed = analyze_unchecked(1, "/w/skills/a.yaml", text, &role);
        assert!(matches!(
            parsed.content,
            Content::SwarmKit(Artifact::Skill(_))
        ));
        // A SKILL.md's fields keep their values, and the frontmatter's links are found once.
        let text = "---\nname: a\ndescription: Run {baseDir}/x.sh\nallowed-tools: [Read]\n---\n";
        let parsed = analyze_unchecked(2, "/r/a/SKILL.md", text, &FileRole::SkillMd);
        let Content::SkillMd(skill) = &parsed.content else {
            panic!("a SKILL.md is lowered");
        };
        let tools = skill.field("allowed-tools").expect("the field");
        assert_eq!(tools.value.items.len(), 1);
        assert_eq!(tools.value.items[0].shape.as_str(), Some("Read"));
        let links = skill.links(text);
        assert_eq!(links.len(), 1);
        assert_eq!(links[0].path, "x.sh");
    }
}
