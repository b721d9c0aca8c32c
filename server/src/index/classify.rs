//! Which files are whose: a SwarmKit artifact of some workspace, a SKILL.md, a config file, or
//! none of ours. Decided from the path and the set of known workspace roots alone. Names are
//! compared as bytes (`OsStr`), so a name that is not UTF-8 is classified like any other.

use std::ffi::OsStr;
use std::path::{Component, Path};

use crate::diagnostic::FileId;
use crate::model::swarmkit::ArtifactKind;

/// Directories never looked into, wherever they are.
pub const SKIPPED_DIRECTORIES: &[&str] = &[".git", "node_modules", "target", ".swarmkit"];

/// A skill's own file.
pub const SKILL_MD: &str = "SKILL.md";
/// Our configuration file.
pub const CONFIG_FILE: &str = "skillgraph.toml";
/// The extensions of YAML files (SwarmKit reads both).
pub const YAML_EXTENSIONS: &[&str] = &["yaml", "yml"];
/// The extension of JSON files.
pub const JSON_EXTENSIONS: &[&str] = &["json"];
/// The names of a SwarmKit workspace's manifest, the file that makes its folder a workspace.
pub const MANIFEST_NAMES: [&str; 2] = ["workspace.yaml", "workspace.yml"];

/// How a file we read is recognised by its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Name {
    Exactly(&'static str),
    /// The prose files the hosts load (`model::hosts::prose::PROSE_FILES`: `CLAUDE.md`,
    /// `AGENTS.md`, `.claude/commands/**/*.md`, ...), decided by name and folders.
    ProseFiles,
    /// `*.<extension>`, for any of these.
    Extensions(&'static [&'static str]),
    /// The plugin and marketplace manifests (`model::hosts::plugins::MANIFEST_PATHS`:
    /// `.claude-plugin/plugin.json`, `.claude-plugin/marketplace.json`,
    /// `.github/plugin/marketplace.json`). JSON files, so the `.json` row already reads and
    /// watches them; this row hands them to editors and gives them their role.
    PluginManifests,
}

/// Which of the files of a row an editor hands the server as documents (the VS Code
/// extension's document selector, `editors/vscode/src/selectors.ts`, checked against this).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InEditor {
    /// Every file of the row.
    All,
    /// Only the YAML files SwarmKit reads: manifests, property files and artifact directories
    /// (claiming every YAML file would take them all from the YAML extensions).
    SwarmKitOnly,
    /// None: the server reads them from disk (a `.json` file matters only when a config names
    /// it, and claiming every one would put us beside every JSON editor).
    None,
}

/// One kind of file we read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OurFile {
    pub name: Name,
    pub in_editor: InEditor,
}

/// Which files are ours, decided by name: discovery reads exactly these, the language server
/// watches exactly these (its globs are made from the rows) and treats an opened document of one
/// of them outside every root as a stray to bring its root in, and [`classify`] gives each a
/// role (or none: a YAML file outside every workspace). Every other file is only a name in a
/// skill's folder listing.
pub const OUR_FILES: [OurFile; 6] = [
    OurFile {
        name: Name::Extensions(YAML_EXTENSIONS),
        in_editor: InEditor::SwarmKitOnly,
    },
    OurFile {
        name: Name::Exactly(SKILL_MD),
        in_editor: InEditor::All,
    },
    OurFile {
        name: Name::Exactly(CONFIG_FILE),
        in_editor: InEditor::All,
    },
    // Saved MCP `tools/list` results a config names, and `output_schema` files: which ones is
    // only known once the configs and topologies are read, so all are handed in.
    OurFile {
        name: Name::Extensions(JSON_EXTENSIONS),
        in_editor: InEditor::None,
    },
    // Markdown the hosts load beside skills, for the mentions and subagents in it. Editors
    // hand them in as Markdown documents of their own; the server reads them from disk.
    OurFile {
        name: Name::ProseFiles,
        in_editor: InEditor::None,
    },
    // Plugin and marketplace manifests, for their path links and diagnostics in the editor.
    OurFile {
        name: Name::PluginManifests,
        in_editor: InEditor::All,
    },
];

impl Name {
    fn matches(self, path: &Path) -> bool {
        match self {
            Name::Exactly(name) => path.file_name().is_some_and(|n| n == name),
            Name::ProseFiles => crate::model::hosts::prose::prose_file(path).is_some(),
            Name::PluginManifests => crate::model::hosts::plugins::manifest_kind(path).is_some(),
            Name::Extensions(extensions) => path
                .extension()
                .is_some_and(|e| extensions.iter().any(|x| e == *x)),
        }
    }

    /// The watch globs of this name, anywhere below a root.
    fn globs(self) -> Vec<String> {
        match self {
            Name::PluginManifests => vec![
                "**/.claude-plugin/{plugin,marketplace}.json".to_owned(),
                "**/.github/plugin/marketplace.json".to_owned(),
            ],
            other => vec![other.glob()],
        }
    }

    /// The watch glob of this name, anywhere below a root (for the manifests, one that covers
    /// them all).
    fn glob(self) -> String {
        match self {
            Name::Exactly(name) => format!("**/{name}"),
            Name::ProseFiles => "**/*.md".to_owned(),
            Name::PluginManifests => "**/*.json".to_owned(),
            Name::Extensions([extension]) => format!("**/*.{extension}"),
            Name::Extensions(extensions) => format!("**/*.{{{}}}", extensions.join(",")),
        }
    }
}

/// True for a file whose name says it may be ours (a row of [`OUR_FILES`]); where it is decides
/// the rest ([`classify`]).
pub fn may_be_ours(path: &Path) -> bool {
    OUR_FILES.iter().any(|row| row.name.matches(path))
}

/// The globs of every file we read, for a client's file watcher.
pub fn watch_globs() -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for row in OUR_FILES {
        let glob = row.name.glob();
        if !out.contains(&glob) {
            out.push(glob);
        }
    }
    out
}

/// The patterns of the files an editor should hand the server as documents (VS Code's document
/// selector), made from [`OUR_FILES`], the manifest and property file names and the artifact
/// directories of [`crate::model::swarmkit::KINDS`].
pub fn editor_document_patterns() -> Vec<String> {
    let mut out = Vec::new();
    let mut yaml: Vec<&str> = Vec::new();
    for row in OUR_FILES {
        match (row.in_editor, row.name) {
            (InEditor::All, name) => out.extend(name.globs()),
            (InEditor::SwarmKitOnly, Name::Extensions(extensions)) => yaml.extend(extensions),
            (InEditor::SwarmKitOnly, Name::Exactly(name)) => out.push(format!("**/{name}")),
            (InEditor::SwarmKitOnly, name) => out.extend(name.globs()),
            (InEditor::None, _) => {}
        }
    }
    if !yaml.is_empty() {
        let extensions = yaml.join(",");
        let directories: Vec<&str> = ArtifactKind::artifact_directories().collect();
        out.push(format!(
            "**/{{{}}}/**/*.{{{extensions}}}",
            directories.join(",")
        ));
        let stems: Vec<&str> = MANIFEST_NAMES
            .iter()
            .filter_map(|name| name.split_once('.').map(|(stem, _)| stem))
            .collect();
        debug_assert!(stems.iter().all(|s| *s == stems[0]));
        out.push(format!("**/{}.{{{extensions}}}", stems[0]));
        // Property files: `.yaml` only, as the runtime reads them (see `env_variant`).
        out.push(format!("**/{ENV_FILE_STEM}.yaml"));
        out.push(format!("**/{ENV_FILE_STEM}.*.yaml"));
    }
    out
}

/// A workspace's property files are `<stem>.yaml` and `<stem>.<variant>.yaml`.
const ENV_FILE_STEM: &str = "workspace.env";

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
    /// Markdown a host loads beside skills: instructions, a legacy command, a subagent, a
    /// prompt file.
    Prose(crate::model::hosts::prose::ProseKind),
    /// A subagent or command of the plugin at `root` (the folder holding `.claude-plugin/`),
    /// where its manifest's layout puts them (`model::plugin_manifest::PluginLayout`): named in
    /// the plugin's namespace (`/<plugin>:<command>`, `<plugin>:<agent>`).
    PluginProse {
        kind: crate::model::hosts::prose::ProseKind,
        root: std::path::PathBuf,
    },
    Config,
    /// A plugin or marketplace manifest (`.claude-plugin/plugin.json`, ...).
    PluginManifest(crate::model::hosts::plugins::ManifestKind),
    /// A `.json` file: a saved MCP `tools/list` result when a config's `mcp-tool-lists` names
    /// it (parsed always, judged only then; see docs/architecture/skill-md-extensions-and-the-tool-inventory.md).
    Json,
    /// Not a file we have anything to say about.
    Unrelated,
}

impl FileRole {
    pub fn is_ours(&self) -> bool {
        !matches!(self, FileRole::Unrelated | FileRole::Json)
    }

    /// What a prose file is, whether the project's or a plugin's.
    pub fn prose_kind(&self) -> Option<crate::model::hosts::prose::ProseKind> {
        match self {
            FileRole::Prose(kind) | FileRole::PluginProse { kind, .. } => Some(*kind),
            _ => None,
        }
    }

    /// The root of the plugin a subagent or command belongs to.
    pub fn plugin_root(&self) -> Option<&Path> {
        match self {
            FileRole::PluginProse { root, .. } => Some(root),
            _ => None,
        }
    }
}

pub fn is_yaml(path: &Path) -> bool {
    Name::Extensions(YAML_EXTENSIONS).matches(path)
}

pub fn is_json(path: &Path) -> bool {
    Name::Extensions(JSON_EXTENSIONS).matches(path)
}

pub fn is_workspace_manifest(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|n| MANIFEST_NAMES.iter().any(|manifest| n == *manifest))
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
    if name == SKILL_MD {
        return FileRole::SkillMd;
    }
    if name == CONFIG_FILE {
        return FileRole::Config;
    }
    if let Some(row) = crate::model::hosts::prose::prose_file(path) {
        return FileRole::Prose(row.kind);
    }
    if let Some(kind) = crate::model::hosts::plugins::manifest_kind(path) {
        return FileRole::PluginManifest(kind);
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
    let rest = name.strip_prefix(ENV_FILE_STEM)?.strip_suffix(".yaml")?;
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

    /// The quoted strings (`'…'` or `` `…` ``) of a piece of TypeScript, in order.
    fn quoted(text: &str) -> Vec<&str> {
        let mut out = Vec::new();
        let mut rest = text;
        while let Some(start) = rest.find(['\'', '`']) {
            let quote = rest[start..].chars().next().unwrap();
            let after = &rest[start + 1..];
            let end = after.find(quote).expect("a closed string");
            out.push(&after[..end]);
            rest = &after[end + 1..];
        }
        out
    }

    #[test]
    fn the_vscode_selectors_claim_what_the_table_says_editors_hand_in() {
        // The extension's selectors are TypeScript; the project reads them as text, the way the
        // extension's own unit tests (`selectors.test.ts`) exercise them.
        let source = include_str!("../../../editors/vscode/src/selectors.ts");
        let list = source
            .split_once("SWARMKIT_ARTIFACT_DIRS = [")
            .and_then(|(_, rest)| rest.split_once(']'))
            .expect("selectors.ts lists SWARMKIT_ARTIFACT_DIRS")
            .0;
        let directories = quoted(list);
        let expected: Vec<&str> = ArtifactKind::artifact_directories().collect();
        assert_eq!(
            directories, expected,
            "SWARMKIT_ARTIFACT_DIRS in selectors.ts"
        );

        let selector = source
            .split_once("export function documentSelector")
            .expect("selectors.ts defines documentSelector")
            .1;
        let mut patterns: Vec<String> = selector
            .split("pattern: ")
            .skip(1)
            .map(|after| {
                quoted(after)[0].replace(
                    "${SWARMKIT_ARTIFACT_DIRS.join(',')}",
                    &directories.join(","),
                )
            })
            .collect();
        let mut ours = editor_document_patterns();
        patterns.sort();
        ours.sort();
        assert_eq!(patterns, ours, "documentSelector() in selectors.ts");
    }

    #[test]
    fn the_table_decides_what_may_be_ours_and_what_is_watched() {
        for path in [
            "/a/SKILL.md",
            "/a/skillgraph.toml",
            "/a/x.yaml",
            "/a/x.yml",
            "/a/t.json",
            "/a/CLAUDE.md",
            "/a/AGENTS.md",
            "/a/.claude/agents/r.md",
            "/a/.claude/commands/git/c.md",
            "/a/.github/prompts/p.prompt.md",
            "/a/p/.claude-plugin/plugin.json",
            "/a/.github/plugin/marketplace.json",
        ] {
            assert!(may_be_ours(Path::new(path)), "{path}");
        }
        for path in [
            "/a/skill.md",
            "/a/README.md",
            "/a/Cargo.toml",
            "/a/x.yaml.bak",
            "/a",
        ] {
            assert!(!may_be_ours(Path::new(path)), "{path}");
        }
        assert_eq!(
            watch_globs(),
            [
                "**/*.{yaml,yml}",
                "**/SKILL.md",
                "**/skillgraph.toml",
                "**/*.json",
                "**/*.md"
            ]
        );
        // What an editor hands in is ours, and not every YAML or JSON file is handed in.
        let mut editor = globset::GlobSetBuilder::new();
        for pattern in editor_document_patterns() {
            editor.add(globset::Glob::new(&pattern).unwrap());
        }
        let editor = editor.build().unwrap();
        for path in [
            "/r/.claude/skills/a/SKILL.md",
            "/r/skillgraph.toml",
            "/r/ws/workspace.yml",
            "/r/ws/workspace.env.yaml",
            "/r/ws/workspace.env.prod.yaml",
            "/r/ws/schedules/nightly.yaml",
            "/r/ws/skills/group/a.yml",
            "/r/p/.claude-plugin/plugin.json",
            "/r/.claude-plugin/marketplace.json",
            "/r/.github/plugin/marketplace.json",
        ] {
            assert!(editor.is_match(path), "{path}");
            assert!(may_be_ours(Path::new(path)), "{path}");
        }
        for path in [
            "/r/.github/workflows/ci.yaml",
            "/r/package.json",
            "/r/README.md",
            "/r/.claude-plugin/other.json",
        ] {
            assert!(!editor.is_match(path), "{path}");
        }
    }

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
        assert_eq!(
            role("/p/.claude/agents/r.md"),
            FileRole::Prose(crate::model::hosts::prose::ProseKind::Subagent)
        );
        assert_eq!(role("/p/README.md"), FileRole::Unrelated);
        assert_eq!(
            role("/p/.claude-plugin/plugin.json"),
            FileRole::PluginManifest(crate::model::hosts::plugins::ManifestKind::Plugin)
        );
        assert_eq!(role("/p/plugin.json"), FileRole::Json);
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
