//! The hosts that load a SKILL.md, and the rules only they document: field values each host
//! reads (types and enums), the fields one host ties together, names and descriptions the Claude
//! API refuses, Claude Code's listing budget, and one host reading two skills of one name from
//! two of its folders. Every fact comes from `model::hosts`, with its source.
//!
//! Which hosts: `[skill-md] hosts` of the nearest `skillgraph.toml` (or the editor's settings)
//! when set; otherwise the folder the skill lives in (`.claude/skills`, `.github/skills`,
//! `.agents/skills`, ..., or a Claude Code plugin's `skills/`). A skill anywhere else has no
//! known host, and only the spec's rules apply to it (plus the value checks of host fields it
//! uses, since a host field means that host).

use std::path::{Path, PathBuf};

use super::rule_doc::RuleDoc;
use super::SkillMdScope;
use crate::diagnostic::{codes, Diagnostic, FileId};
use crate::index::{Content, FileEntry, Key, Lookup};
use crate::model::hosts::{
    host_list, known_field, Host, ValueType, CLAUDE_API_RESERVED_WORDS, CLAUDE_CODE_LISTING_CHARS,
    CLAUDE_PLUGIN_MANIFEST, SKILL_ROOTS,
};
use crate::model::skill_md::{Shape, SkillMd, Value};
use crate::syntax::yaml::Style;
use crate::syntax::{ScalarValue, TextRange};

pub const RULES: &[RuleDoc] = &[
    RuleDoc {
        code: codes::SKILLMD_FIELD_VALUE,
        summary: "A host's frontmatter field has a value that host does not take.",
        explanation: "Claude Code documents the values of its fields (https://code.claude.com/docs/en/skills, \
checked 2026-12-01): `disable-model-invocation` and `user-invocable` are `true` or `false`; `effort` is `low`, \
`medium`, `high`, `xhigh` or `max`; `context` is `fork`; `shell` is `bash` or `powershell`; `arguments` and \
`paths` are a string or a list of strings; `allowed-tools` (spec and Claude Code) is a string or a list of \
tool entries, each `Tool`, `Tool(pattern)` such as `Bash(git *)`, `mcp__server__tool`, or VS Code's `Server Name/tool`. A value outside these \
does not do what it says (a quoted `\"true\"` is text, not a boolean). The message names the host and its \
documentation. Checked unless the skill's hosts (from its folder or `[skill-md] hosts`) exclude the field's \
host; a skill in no known host folder is checked.",
    },
    RuleDoc {
        code: codes::SKILLMD_AGENT_NEEDS_FORK,
        summary: "`agent` is set without `context: fork`.",
        explanation: "In Claude Code, `agent` picks the subagent that runs a forked skill; without `context: fork` \
the skill runs inline and `agent` does nothing (https://code.claude.com/docs/en/skills, checked 2026-12-01). Add \
`context: fork`, or remove `agent`.",
    },
    RuleDoc {
        code: codes::SKILLMD_RESERVED_WORD,
        summary: "The name holds \"claude\" or \"anthropic\", which claude.ai and the Claude API refuse.",
        explanation: "claude.ai and the Claude API reject a skill whose `name` contains a reserved word, \
\"anthropic\" or \"claude\" (https://docs.claude.com/en/docs/agents-and-tools/agent-skills/overview, checked \
2026-12-01). Checked only for skills those hosts load, which no folder implies: set `[skill-md] hosts = \
[\"claude-api\"]` for skills you upload. Rename the skill.",
    },
    RuleDoc {
        code: codes::SKILLMD_DESCRIPTION_XML,
        summary: "The description holds an XML tag, which claude.ai and the Claude API refuse.",
        explanation: "claude.ai and the Claude API reject a `description` containing XML tags such as `<example>` \
(https://docs.claude.com/en/docs/agents-and-tools/agent-skills/overview, checked 2026-12-01). Checked only for \
skills those hosts load (`[skill-md] hosts = [\"claude-api\"]`). Write the text without angle-bracket tags.",
    },
    RuleDoc {
        code: codes::SKILLMD_LISTING_BUDGET,
        summary: "`description` and `when_to_use` together are longer than Claude Code's skill listing shows.",
        explanation: "Claude Code lists each skill to the model with its `description` followed by its \
`when_to_use`, cut at 1,536 characters (https://code.claude.com/docs/en/skills, checked 2026-12-01); what is past \
the cut never reaches the model, so it cannot help it choose the skill. Checked for skills Claude Code loads \
(`.claude/skills`, plugin `skills/` folders, or `[skill-md] hosts`). Put the triggers first and move detail into \
the body.",
    },
    RuleDoc {
        code: codes::SKILLMD_SHADOWED,
        summary: "One host reads two skills of the same name from two of its skill folders.",
        explanation: "A host that reads several folders of a project (OpenCode reads `.opencode/skills`, \
`.claude/skills` and `.agents/skills`; Copilot `.github/skills`, `.claude/skills` and `.agents/skills`; Gemini \
CLI `.gemini/skills` and `.agents/skills`) keys skills by name, so one of the two is never loaded. The folders \
each host reads are in its documentation (`model::hosts`, checked 2026-12-01). Both skills are reported, each \
pointing at the other, with the host that reads both. Rename one, or keep a single copy in a folder every host \
reads.",
    },
];

/// Why a skill has the hosts it has.
#[derive(Clone, Debug)]
pub enum HostsFrom<'a> {
    /// `[skill-md] hosts` of this `skillgraph.toml` (`None`: the editor's settings).
    Config(Option<&'a FileEntry>),
    /// The folder holding the skill folders, e.g. `.claude/skills`.
    Folder(String),
    /// A Claude Code plugin's `skills/` folder, next to this manifest.
    Plugin(&'a FileEntry),
    /// Nowhere a host is documented to look.
    Unknown,
}

/// The hosts that load one skill.
#[derive(Clone, Debug)]
pub struct Hosts<'a> {
    pub hosts: Vec<Host>,
    pub from: HostsFrom<'a>,
}

impl Hosts<'_> {
    /// Whether `host` loads the skill, or may (nothing is known of the skill's hosts).
    pub fn may_include(&self, host: Host) -> bool {
        matches!(self.from, HostsFrom::Unknown) || self.hosts.contains(&host)
    }

    /// Why these hosts, for messages.
    pub fn why(&self) -> String {
        match &self.from {
            HostsFrom::Config(_) => "the hosts `[skill-md] hosts` names".to_owned(),
            HostsFrom::Folder(folder) => format!("which read `{folder}`"),
            HostsFrom::Plugin(_) => "a Claude Code plugin's skill".to_owned(),
            HostsFrom::Unknown => "no host known".to_owned(),
        }
    }

    /// Adds the config or plugin manifest that decided the hosts as a related location.
    pub fn relate(&self, diagnostic: Diagnostic) -> Diagnostic {
        match &self.from {
            HostsFrom::Config(Some(config)) => {
                let range = config.text.find("hosts").map_or(TextRange::empty(0), |at| {
                    TextRange::new(at as u32, (at + "hosts".len()) as u32)
                });
                diagnostic.with_related(
                    config.id,
                    range,
                    "the hosts are set here (`[skill-md] hosts`)",
                )
            }
            HostsFrom::Plugin(manifest) => diagnostic.with_related(
                manifest.id,
                TextRange::empty(0),
                "this plugin manifest makes the folder a Claude Code plugin's skills",
            ),
            _ => diagnostic,
        }
    }
}

/// The project folder and the root (e.g. `[".claude", "skills"]`) a skill lives under, from its
/// path alone: `<project>/<a>/<b>/<skill>/SKILL.md`.
pub(crate) fn folder_root(path: &Path) -> Option<(&Path, &'static crate::model::hosts::SkillRoot)> {
    let root = crate::model::skill_md::skill_root(path)?;
    let b = root.file_name()?.to_str()?;
    let parent = root.parent()?;
    let a = parent.file_name()?.to_str()?;
    let project = parent.parent()?;
    SKILL_ROOTS
        .iter()
        .find(|r| r.folders == [a, b])
        .map(|r| (project, r))
}

/// The hosts that load the SKILL.md at `path`, reading the config and the plugin manifest
/// through `lookup` so either changing re-checks the skill.
pub fn hosts_of<'a>(lookup: &Lookup<'a>, path: &Path) -> Hosts<'a> {
    if let Some((config_file, config)) = crate::semantics::config::settings_for(lookup, path) {
        if let Some(ids) = &config.hosts {
            let mut hosts: Vec<Host> = ids.iter().filter_map(|id| Host::from_id(id)).collect();
            hosts.sort();
            hosts.dedup();
            return Hosts {
                hosts,
                from: HostsFrom::Config(config_file),
            };
        }
    }
    if let Some((_, root)) = folder_root(path) {
        return Hosts {
            hosts: root.hosts.to_vec(),
            from: HostsFrom::Folder(root.folders.join("/")),
        };
    }
    if let Some(manifest) = plugin_manifest(path) {
        if let Some(entry) = lookup.get(Key::JsonFile { path: manifest }).first() {
            return Hosts {
                hosts: vec![Host::ClaudeCode],
                from: HostsFrom::Plugin(entry),
            };
        }
    }
    Hosts {
        hosts: Vec::new(),
        from: HostsFrom::Unknown,
    }
}

/// `<plugin>/.claude-plugin/plugin.json` for `<plugin>/skills/<skill>/SKILL.md`.
fn plugin_manifest(path: &Path) -> Option<PathBuf> {
    let root = crate::model::skill_md::skill_root(path)?;
    if root.file_name()? != "skills" {
        return None;
    }
    let [folder, file] = CLAUDE_PLUGIN_MANIFEST;
    Some(root.parent()?.join(folder).join(file))
}

pub fn check(scope: &SkillMdScope<'_>, hosts: &Hosts<'_>, out: &mut Vec<Diagnostic>) {
    if !scope.skill.is_mapping {
        return;
    }
    // Values cut short by a syntax error read as empty; the error is reported on its own.
    if !scope.skill.has_syntax_error {
        check_values(scope.file, scope.skill, hosts, out);
    }
    if hosts.hosts.contains(&Host::ClaudeApi) {
        check_claude_api(scope.file, scope.skill, hosts, out);
    }
    if hosts.hosts.contains(&Host::ClaudeCode) {
        check_listing_budget(scope.file, scope.skill, hosts, out);
    }
    check_shadowed(scope, out);
}

/// `skillmd.field-value` and `skillmd.agent-needs-fork`.
fn check_values(file: FileId, skill: &SkillMd, hosts: &Hosts<'_>, out: &mut Vec<Diagnostic>) {
    for written in &skill.fields {
        let key_text = written.key.value.as_str();
        let Some(field) = known_field(key_text) else {
            continue;
        };
        if !field.hosts.is_empty() && !field.hosts.iter().any(|h| hosts.may_include(*h)) {
            continue;
        }
        let owner = if field.hosts.is_empty() {
            "the spec".to_owned()
        } else {
            host_list(field.hosts)
        };
        if let Some((range, problem)) = value_problem(key_text, field.value, &written.value) {
            out.push(Diagnostic::new(
                codes::SKILLMD_FIELD_VALUE,
                file,
                range,
                format!("{problem} ({owner}, {})", field.source),
            ));
        }
    }
    if let Some(agent) = skill.field("agent") {
        if hosts.may_include(Host::ClaudeCode) {
            let forked = skill
                .field("context")
                .and_then(|c| c.value.shape.as_str())
                .is_some_and(|c| c == "fork");
            if !forked {
                out.push(Diagnostic::new(
                    codes::SKILLMD_AGENT_NEEDS_FORK,
                    file,
                    agent.key.range,
                    "Claude Code uses `agent` only for a skill with `context: fork`; add `context: fork` or remove `agent`",
                ));
            }
        }
    }
}

/// What is wrong with `value` for a field taking `expected`, and where.
fn value_problem(key: &str, expected: ValueType, value: &Value) -> Option<(TextRange, String)> {
    let found = || value.shape.type_name();
    match expected {
        ValueType::Text | ValueType::Any | ValueType::Mapping => None,
        ValueType::Bool => match value.shape.value() {
            ScalarValue::Bool(_) => None,
            _ => Some((
                value.range,
                format!(
                    "`{key}` must be `true` or `false`, found {}",
                    describe_found(value)
                ),
            )),
        },
        ValueType::OneOf(words) => {
            let ok = value.shape.as_str().is_some_and(|v| words.contains(&v));
            (!ok).then(|| {
                let shown: Vec<String> = words.iter().map(|w| format!("`{w}`")).collect();
                (
                    value.range,
                    format!(
                        "`{key}` must be {}, found {}",
                        one_of(&shown),
                        describe_found(value)
                    ),
                )
            })
        }
        ValueType::TextOrList => match value.shape {
            Shape::List => value
                .items
                .iter()
                .find(|item| item.shape.as_str().is_none())
                .map(|item| {
                    (
                        item.range,
                        format!(
                            "each entry of `{key}` must be a string, found a {}",
                            item.shape.type_name()
                        ),
                    )
                }),
            Shape::Mapping => Some((
                value.range,
                format!(
                    "`{key}` must be a string or a list of strings, found a {}",
                    found()
                ),
            )),
            _ => None,
        },
        ValueType::Tools => tools_problem(key, value),
    }
}

fn describe_found(value: &Value) -> String {
    match value.shape.scalar() {
        Some(text) if value.shape.is_null() => format!("an empty value `{text}`"),
        Some(text) => format!("`{text}`"),
        None => format!("a {}", value.shape.type_name()),
    }
}

fn one_of(words: &[String]) -> String {
    match words.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// `allowed-tools`: a string of entries or a list of them; each entry `Tool`, `Tool(...)` or
/// `mcp__server__tool`.
fn tools_problem(key: &str, value: &Value) -> Option<(TextRange, String)> {
    let bad_entry = |entry: &str| {
        format!("`{entry}` is not a tool entry of `{key}`; write `Tool`, `Tool(pattern)` such as `Bash(git *)`, `mcp__server__tool` or `Server/tool`")
    };
    match value.shape {
        Shape::List => {
            for item in &value.items {
                let Some(text) = item.shape.as_str() else {
                    return Some((
                        item.range,
                        format!(
                            "each entry of `{key}` must be a tool name, found a {}",
                            item.shape.type_name()
                        ),
                    ));
                };
                let entry = text.trim();
                if !crate::model::hosts::is_tool_entry(entry) {
                    return Some((item.range, bad_entry(entry)));
                }
            }
            None
        }
        Shape::Mapping => Some((
            value.range,
            format!("`{key}` must be a string or a list of tool names, found a mapping"),
        )),
        _ if value.shape.is_null() => None,
        _ => {
            let text = value.shape.scalar()?;
            let plain = value.shape.style() == Some(Style::Plain);
            for (offset, entry) in crate::model::hosts::split_tools(text) {
                if !crate::model::hosts::is_tool_entry(entry) {
                    // In a plain scalar, offsets in the value are offsets in the file.
                    let range = if plain {
                        let start = value.range.start + offset as u32;
                        TextRange::new(start, start + entry.len() as u32)
                    } else {
                        value.range
                    };
                    return Some((range, bad_entry(entry)));
                }
            }
            None
        }
    }
}

/// `skillmd.reserved-word` and `skillmd.description-xml`.
fn check_claude_api(file: FileId, skill: &SkillMd, hosts: &Hosts<'_>, out: &mut Vec<Diagnostic>) {
    if let (Some(name), Some(range)) = (skill.normalized_name(), skill.name_range()) {
        let lower = name.to_lowercase();
        if let Some(word) = CLAUDE_API_RESERVED_WORDS
            .iter()
            .find(|w| lower.contains(*w))
        {
            out.push(hosts.relate(Diagnostic::new(
                codes::SKILLMD_RESERVED_WORD,
                file,
                range,
                format!("claude.ai and the Claude API refuse a skill whose name contains \"{word}\"; rename it"),
            )));
        }
    }
    if let Some(text) = skill.description.as_ref().and_then(|d| d.text()) {
        if let Some(tag) = first_xml_tag(&text.value) {
            out.push(hosts.relate(Diagnostic::new(
                codes::SKILLMD_DESCRIPTION_XML,
                file,
                text.range,
                format!("claude.ai and the Claude API refuse a description holding XML tags, and this one has `{tag}`; write it without angle-bracket tags"),
            )));
        }
    }
}

/// The first `<tag>`, `</tag>` or `<tag attr=...>` in `text`: a `<` followed by an optional `/`
/// and a letter, up to the next `>` with no `<` or line break between.
fn first_xml_tag(text: &str) -> Option<&str> {
    let bytes = text.as_bytes();
    let mut i = 0;
    while let Some(at) = text[i..].find('<') {
        let start = i + at;
        let mut j = start + 1;
        if bytes.get(j) == Some(&b'/') {
            j += 1;
        }
        if bytes.get(j).is_some_and(|b| b.is_ascii_alphabetic()) {
            if let Some(len) = text[j..].find(['>', '<', '\n']) {
                if bytes[j + len] == b'>' {
                    return Some(&text[start..=j + len]);
                }
            }
        }
        i = start + 1;
    }
    None
}

/// The characters of the skill's entry in Claude Code's listing, as `skillmd.listing-budget`
/// counts them (`description` and `when_to_use` together), with the range of `description`;
/// `None` without a `description` that is text.
pub fn listing_chars(skill: &SkillMd) -> Option<(TextRange, usize)> {
    let description = skill.field("description")?;
    let text = description.value.shape.scalar()?;
    let when = skill
        .field("when_to_use")
        .and_then(|w| w.value.shape.scalar())
        .unwrap_or("");
    Some((
        description.value.range,
        text.chars().count() + when.chars().count(),
    ))
}

/// `skillmd.listing-budget`.
fn check_listing_budget(
    file: FileId,
    skill: &SkillMd,
    hosts: &Hosts<'_>,
    out: &mut Vec<Diagnostic>,
) {
    let Some((description, len)) = listing_chars(skill) else {
        return;
    };
    if len <= CLAUDE_CODE_LISTING_CHARS {
        return;
    }
    out.push(hosts.relate(Diagnostic::new(
        codes::SKILLMD_LISTING_BUDGET,
        file,
        description,
        format!(
            "`description` and `when_to_use` are {len} characters together; Claude Code's skill listing cuts them at {CLAUDE_CODE_LISTING_CHARS}, so the rest never reaches the model; shorten them and move detail into the body"
        ),
    )));
}

/// `skillmd.shadowed`: the same name in another root of the same project that a host reading
/// this skill's root also reads. Decided from the folders alone (the configured hosts do not
/// change which folders a host reads).
fn check_shadowed(scope: &SkillMdScope<'_>, out: &mut Vec<Diagnostic>) {
    let (Some(name), Some(range)) = (scope.skill.normalized_name(), scope.skill.name_range())
    else {
        return;
    };
    let Some((project, root)) = folder_root(scope.path) else {
        return;
    };
    let others = scope.lookup.get(Key::SkillMdNamed { name: name.clone() });
    for other in others {
        if other.id == scope.file {
            continue;
        }
        let Some((other_project, other_root)) = folder_root(&other.path) else {
            continue;
        };
        if other_project != project || std::ptr::eq(other_root, root) {
            continue;
        }
        let mut both: Vec<Host> = root
            .hosts
            .iter()
            .copied()
            .filter(|h| other_root.hosts.contains(h))
            .collect();
        both.sort();
        if both.is_empty() {
            continue;
        }
        let Content::SkillMd(other_skill) = &other.parsed.content else {
            continue;
        };
        let Some(other_range) = other_skill.name_range() else {
            continue;
        };
        let where_ = other
            .path
            .parent()
            .and_then(|p| p.strip_prefix(project).ok())
            .map_or_else(String::new, |p| p.to_string_lossy().into_owned());
        out.push(
            Diagnostic::new(
                codes::SKILLMD_SHADOWED,
                scope.file,
                range,
                format!(
                    "`{where_}/` holds a skill named `{name}` too; {} read both `{}` and `{}` and load only one of them, so rename one",
                    host_list(&both),
                    root.folders.join("/"),
                    other_root.folders.join("/")
                ),
            )
            .with_related(other.id, other_range, format!("`{name}` is also the name here")),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xml_tags() {
        assert_eq!(first_xml_tag("Use <example>x</example>"), Some("<example>"));
        assert_eq!(first_xml_tag("a </b> c"), Some("</b>"));
        assert_eq!(first_xml_tag("if a < b and c > d"), None);
        assert_eq!(first_xml_tag("x <- y, 3<4>"), None);
        assert_eq!(first_xml_tag("<br/>"), Some("<br/>"));
    }

    #[test]
    fn roots_from_the_path() {
        let (project, root) = folder_root(Path::new("/p/.agents/skills/x/SKILL.md")).unwrap();
        assert_eq!(project, Path::new("/p"));
        assert!(root.hosts.contains(&Host::Codex));
        assert!(folder_root(Path::new("/p/skills/x/SKILL.md")).is_none());
        assert_eq!(
            plugin_manifest(Path::new("/p/skills/x/SKILL.md")),
            Some(PathBuf::from("/p/.claude-plugin/plugin.json"))
        );
    }
}
