//! The Agent Skills spec checks of a SKILL.md: the frontmatter block, its YAML, the required
//! fields and their formats, the name against its folder, unknown top-level fields (strict or
//! not, from the nearest `skillgraph.toml`), and two skills of one name under one skill root.
//!
//! Parity: where `skills-ref` (the reference validator, `agentskills validate`) has a rule, we
//! apply the same rule to the same normalised value, so that in strict mode both tools fail the
//! same skills. Where we differ, the rule's explanation below says so and why.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use unicode_general_category::get_general_category;

use super::output::Sharing;
use super::rule_doc::RuleDoc;
use super::SkillMdScope;
use crate::diagnostic::{codes, Diagnostic, FileId, Fix, PathRename, Severity};
use crate::graph::path::{render_counted, MAX_HOPS, MAX_RELATED};
use crate::index::{Content, FileEntry, Key, Lookup};
use crate::model::hosts::{host_list, Host};
use crate::model::skill_md::{
    is_metadata_extension_key, nfkc, normalize_name, skill_root, FieldValue, SkillMd,
};
use crate::semantics::config::settings_for;
use crate::syntax::yaml::Style;
use crate::syntax::{Frontmatter, Node, NodeKind, ScalarValue, TextRange, YamlDocument};

mod frontmatter_errors;
mod unknown_fields;

use frontmatter_errors::{no_frontmatter, syntax_diagnostics};
use unknown_fields::check_unknown_fields;

pub const MAX_NAME_CHARS: usize = 64;
pub const MAX_DESCRIPTION_CHARS: usize = 1024;
pub const MAX_COMPATIBILITY_CHARS: usize = 500;

pub const RULES: &[RuleDoc] = &[
    RuleDoc {
        code: codes::SKILLMD_NO_FRONTMATTER,
        summary: "The SKILL.md does not start with a `---` line opening its YAML frontmatter.",
        explanation: "Hosts read a skill's `name` and `description` from the YAML block between a first line \
`---` and the next line `---`; without it the skill cannot be listed or loaded. Add the block at the very top:\n\n\
```markdown\n---\nname: my-skill\ndescription: What it does and when to use it.\n---\n```\n\n\
A byte-order mark before the `---` is accepted (`skills-ref` refuses it; editors add it silently).",
    },
    RuleDoc {
        code: codes::SKILLMD_UNCLOSED_FRONTMATTER,
        summary: "The frontmatter opened by `---` is never closed by another `---` line.",
        explanation: "Without the closing line, nothing tells where the YAML ends and the Markdown body begins. \
Add a line holding only `---` after the last frontmatter field. skillgraph looks for the closing fence on a line \
of its own, as the spec describes; `skills-ref` closes at the next `---` anywhere (even inside a value or a \
body's horizontal rule), so it may accept a file this rule reports.",
    },
    RuleDoc {
        code: codes::SKILLMD_YAML_PARSE,
        summary: "The frontmatter is not valid YAML.",
        explanation: "The range points at where the parser stopped; fields read before that point are still \
checked, except the shape of values the error may have cut short (`metadata`, host field values). The two \
commonest causes are named in plain words, where they are: a value holding `: ` (`description: Use this: when \
...`), which YAML reads as another field, so quote the value; and a line indented with a tab, which YAML \
forbids (the parser notices it at the end of the line before; the diagnostic points at the tab). An unclosed \
quote is the next most common. Only the frontmatter is parsed as YAML; the body is Markdown and never reported \
here. Codex skips a skill whose frontmatter does not parse (https://developers.openai.com/codex/skills, checked \
2026-12-01).",
    },
    RuleDoc {
        code: codes::SKILLMD_NOT_A_MAPPING,
        summary: "The frontmatter is empty, or is a list or a scalar instead of `key: value` fields.",
        explanation: "The frontmatter must be a YAML mapping holding at least `name` and `description`. An empty \
block (`---` directly followed by `---`), a comment-only block, a list or a lone string cannot describe a skill. \
Write the fields as `key: value` lines.",
    },
    RuleDoc {
        code: codes::SKILLMD_MISSING_FIELD,
        summary: "`name` or `description` is missing from the frontmatter.",
        explanation: "Both fields are required by the Agent Skills spec: hosts list skills by `name` and decide \
when to load one from its `description`. Add the missing field. When the YAML has a syntax error, fields after \
it cannot be read, so this rule stays silent rather than report a field that may well be there.",
    },
    RuleDoc {
        code: codes::SKILLMD_NAME_FORMAT,
        summary: "`name` breaks the spec's name rules; the message says which.",
        explanation: "A name is 1-64 characters of lowercase letters, digits and hyphens, with no hyphen at the \
start or end and no two in a row. As in `skills-ref`, the value is trimmed and NFKC-normalised first (so a \
full-width `ａｂｃ` reads as `abc`), lengths count Unicode code points, \"lowercase\" means the name equals its \
own lower-case mapping, and \"letters and digits\" means Unicode general categories L* and N* (so `café` and \
`技能` are fine, but combining marks, `_`, `.`, spaces and emoji are not). Every broken rule is named in one \
diagnostic, which suggests a name that is itself valid: the folder's name when that is valid (it also settles \
the folder comparison), else the name lower-cased with hyphens for the rest (`Active Directory Attacks` → \
`active-directory-attacks`). A name that breaks these rules is not also compared with its folder. Our Unicode tables (16.0 categories, NFKC from `unicode-normalization`) are newer than the 14.0 of \
`skills-ref`'s Python; they differ only for characters assigned since. Fix: rename, e.g. `My_Skill` to \
`my-skill`, and rename the folder to match.",
    },
    RuleDoc {
        code: codes::SKILLMD_NAME_MISMATCH,
        summary: "`name` differs from the name of the folder holding the SKILL.md.",
        explanation: "Hosts discover a skill by its folder and refer to it by its name; when the two differ, \
some hosts load it under the folder's name and others under `name`, and links between skills break. The \
comparison is exact and case-sensitive after NFKC on both sides, as in `skills-ref`. A warning by default, since \
most hosts still load the skill; an error where VS Code and GitHub Copilot read the skill (`.github/skills`, \
`.claude/skills`, `.agents/skills`, or `[skill-md] hosts` naming `copilot`), since they do not load a skill \
whose name differs from its folder (https://code.visualstudio.com/docs/agent-customization/agent-skills, checked \
2026-12-01), and in strict mode, where `skills-ref` refuses it. Only a valid name is compared. Rename the folder \
or change `name` so they agree; the message offers `name: <folder>` only when the folder's name is valid.",
    },
    RuleDoc {
        code: codes::SKILLMD_DESCRIPTION_LENGTH,
        summary: "`description` is empty, not text, or longer than 1024 characters.",
        explanation: "The description is what the model reads to decide whether to use the skill, so it must say \
what the skill does and when to use it, in at most 1024 characters (Unicode code points). As in `skills-ref`, \
the length is of the value as loaded, so a `|` or `>` block keeps its final line break and counts one more. \
Shorten it, and move detail into the body, which is only read once the skill is loaded.",
    },
    RuleDoc {
        code: codes::SKILLMD_COMPATIBILITY_LENGTH,
        summary: "`compatibility` is not text, or is longer than 500 characters.",
        explanation: "`compatibility` is an optional short note on what the skill needs (a product, system \
packages, network access). It must be a single string of at most 500 characters; an empty value is allowed. \
Write it as one sentence, and put details in the body.",
    },
    RuleDoc {
        code: codes::SKILLMD_METADATA_SHAPE,
        summary: "`metadata` is not a mapping of string keys to string values.",
        explanation: "The spec defines `metadata` as string keys to string values, for clients to read. A list or \
a nested mapping, or a number such as `version: 1.0` (which YAML loaders read as the number 1), reaches hosts \
in different shapes: `skills-ref` turns it into Python text, others drop or mistype it. Quote the value \
(`version: \"1.0\"`) or flatten the structure. The keys of the proposed extensions (`chain` and its options, \
`precondition`, `action_tool`) are exempt: their own rules check them.",
    },
    RuleDoc {
        code: codes::SKILLMD_UNKNOWN_FIELD,
        summary: "A top-level field is in neither the spec, a known host's extensions, nor a checked proposal.",
        explanation: "Hosts ignore fields they do not know, so a misspelt field (`Name`, `allowed_tools`) \
silently does nothing. Known without a warning: the spec's `name`, `description`, `license`, `compatibility`, \
`metadata`, `allowed-tools`; Claude Code's `when_to_use`, `argument-hint`, `arguments`, \
`disable-model-invocation`, `user-invocable`, `model`, `effort`, `context`, `agent`, `hooks`, `paths`, `shell` \
(https://code.claude.com/docs/en/skills, checked 2026-12-01; the table of host facts is `model/hosts.rs`); the \
proposal `dependencies`; and whatever `skill-md.extra-fields` in `skillgraph.toml` lists. A misspelling is \
matched to the nearest known field, and a bare word to its `allowed-` form (`tools` → `allowed-tools`). `version` is not known: no spec or host defines it and `skills-ref` rejects it; \
write it as `metadata: {version: \"1.0.0\"}`. With `skill-md.strict = true` the rule follows `skills-ref`: \
every field outside the spec and `extra-fields` (host fields and proposals included) is an error.",
    },
    RuleDoc {
        code: codes::SKILLMD_DUPLICATE_NAME,
        summary: "Two skills under one skill root have the same name.",
        explanation: "A host loading the skills of one folder (`.claude/skills/`, a plugin's `skills/`) keys \
them by name, so one of the two silently shadows the other. The skill root is the folder holding the skill \
folders, i.e. the SKILL.md's grandparent; names compare after trimming and NFKC. Every file of the clash is \
reported once, naming the other folders (the first ten and a count) and linking them (the first twenty). Rename one skill (and its folder). Two folders one host reads (`.claude/skills` and \
`.agents/skills` of one project) are `skillmd.shadowed`.",
    },
];

/// "a" or "an", for a type name.
fn article(word: &str) -> &'static str {
    if word.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}

fn slice_chars(text: &str) -> usize {
    text.chars().count()
}

/// The checks of a SKILL.md that need nothing but the file itself.
pub(crate) fn check_local(
    file: FileId,
    text: &str,
    skill: &SkillMd,
    yaml: Option<&YamlDocument>,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let open = match &skill.frontmatter {
        Frontmatter::Missing => {
            out.push(no_frontmatter(file, text));
            return out;
        }
        Frontmatter::Unclosed { open } => {
            out.push(Diagnostic::new(
                codes::SKILLMD_UNCLOSED_FRONTMATTER,
                file,
                *open,
                "this `---` opens the frontmatter but no line `---` closes it; add a line holding only `---` after the last field",
            ));
            return out;
        }
        Frontmatter::Closed { open, .. } => *open,
    };
    let Some(yaml) = yaml else { return out };
    syntax_diagnostics(file, text, yaml, &mut out);
    let Some(root) = yaml.root() else {
        if !yaml.has_syntax_error() {
            out.push(Diagnostic::new(
                codes::SKILLMD_NOT_A_MAPPING,
                file,
                open,
                "the frontmatter is empty; it needs at least `name:` and `description:` fields",
            ));
        }
        return out;
    };
    if !skill.is_mapping {
        out.push(Diagnostic::new(
            codes::SKILLMD_NOT_A_MAPPING,
            file,
            root.range(),
            format!(
                "the frontmatter is a {}, not `key: value` fields; write `name:` and `description:` fields",
                root.type_name()
            ),
        ));
        return out;
    }
    let complete = !yaml.has_syntax_error();
    for (field, value) in [("name", &skill.name), ("description", &skill.description)] {
        if value.is_none() && complete {
            out.push(Diagnostic::new(
                codes::SKILLMD_MISSING_FIELD,
                file,
                open,
                format!("the frontmatter has no `{field}:`, which the spec requires; add it"),
            ));
        }
    }
    if let Some(description) = &skill.description {
        check_description(file, description, &mut out);
    }
    if let Some(compatibility) = &skill.compatibility {
        check_compatibility(file, compatibility, &mut out);
    }
    // A syntax error cuts the value it is in short (read as empty), so the shape of what the
    // parser kept says nothing more; the error is the one diagnostic.
    if let Some(metadata) = root.get("metadata").filter(|_| complete) {
        check_metadata(file, metadata, &mut out);
    }
    let extensions = &skill.extensions;
    super::dependencies::check_local(file, extensions, &mut out);
    super::chain::check_local(file, extensions, &mut out);
    super::precondition::check_local(file, extensions, &mut out);
    out
}

/// Is `c` a letter or digit in the sense of Python's `str.isalnum` (general category L* or N*)?
pub fn is_letter_or_digit(c: char) -> bool {
    let category = get_general_category(c).abbreviation();
    category.starts_with('L') || category.starts_with('N')
}

/// The name rules that `raw` breaks, each as a message (empty when the name is valid).
pub fn name_problems(raw: &str) -> Vec<String> {
    let name = normalize_name(raw);
    if name.is_empty() {
        return vec![
            "the name is empty; write 1-64 lowercase letters, digits and hyphens".to_owned(),
        ];
    }
    let mut problems = Vec::new();
    let len = slice_chars(&name);
    if len > MAX_NAME_CHARS {
        problems.push(format!(
            "the name is {len} characters long; the limit is {MAX_NAME_CHARS}"
        ));
    }
    // What is wrong, not a corrected value: lower-casing alone may leave the name invalid
    // (`Active Directory Attacks`), and the one name to write comes at the end of the message.
    if name != name.to_lowercase() {
        problems.push("the name must be lowercase".to_owned());
    }
    if name.starts_with('-') || name.ends_with('-') {
        problems.push("the name must not start or end with a hyphen".to_owned());
    }
    if name.contains("--") {
        problems.push("the name must not contain two hyphens in a row".to_owned());
    }
    let mut invalid: Vec<char> = name
        .chars()
        .filter(|&c| c != '-' && !is_letter_or_digit(c))
        .collect();
    invalid.dedup();
    if !invalid.is_empty() {
        // Each distinct character once, in order of appearance; the first ten are named.
        let mut seen = std::collections::HashSet::new();
        let distinct: Vec<char> = invalid.into_iter().filter(|c| seen.insert(*c)).collect();
        let shown: Vec<String> = distinct
            .iter()
            .take(MAX_HOPS)
            .map(|&c| match c {
                ' ' => "space".to_owned(),
                c if c.is_control() || c.is_whitespace() => format!("U+{:04X}", c as u32),
                c => format!("`{c}`"),
            })
            .collect();
        problems.push(format!(
            "the name contains {}; only letters, digits and hyphens are allowed",
            render_counted(&shown, distinct.len())
        ));
    }
    if normalize_name(raw) != raw {
        // Not a rule of its own: hosts that do not normalise see a different name. Say so only
        // alongside a real problem, where it helps to explain it.
        if !problems.is_empty() {
            problems[0].push_str(&format!(
                " (after trimming and NFKC the name reads `{name}`)"
            ));
        }
    }
    problems
}

/// `skillmd.name-format`: every broken rule in one diagnostic, with a name to write instead that
/// is itself valid (the folder's name when that is valid, since it also settles
/// `skillmd.name-mismatch`). True when the name is valid.
fn check_name(
    file: FileId,
    text_of_file: &str,
    path: &Path,
    name: &FieldValue,
    out: &mut Vec<Diagnostic>,
) -> bool {
    let text = match name {
        FieldValue::Collection { kind, range } => {
            out.push(Diagnostic::new(
                codes::SKILLMD_NAME_FORMAT,
                file,
                *range,
                format!("`name` must be text, found a {kind}"),
            ));
            return false;
        }
        FieldValue::Text(text) => text,
    };
    let problems = name_problems(&text.value);
    if problems.is_empty() {
        return true;
    }
    let folder = path
        .parent()
        .and_then(Path::file_name)
        .map(|n| nfkc(&n.to_string_lossy()));
    let mut message = problems.join("; ");
    let set_name = |to: &str| {
        super::fixes::replace_scalar(text_of_file, file, text.range, &text.value, to).map(|fix| {
            Fix {
                title: format!("Set `name: {to}`"),
                ..fix
            }
        })
    };
    let fix = match folder.filter(|f| name_problems(f).is_empty()) {
        Some(folder) => {
            message.push_str(&format!("; write `name: {folder}`, the folder's name"));
            set_name(&folder).map(|fix| Fix {
                title: format!("Set `name: {folder}`, the folder's name"),
                ..fix
            })
        }
        None => suggested_name(&text.value).and_then(|fixed| {
            message.push_str(&format!(
                "; write `name: {fixed}` and give the folder the same name"
            ));
            let folder = path.parent()?;
            let fix = set_name(&fixed)?;
            Some(Fix {
                title: format!("Set `name: {fixed}` and rename the folder to `{fixed}`"),
                rename: Some(PathRename {
                    from: folder.to_owned(),
                    to: folder.with_file_name(&fixed),
                }),
                ..fix
            })
        }),
    };
    let mut diagnostic = Diagnostic::new(codes::SKILLMD_NAME_FORMAT, file, text.range, message);
    diagnostic.fixes.extend(fix.map(Fix::preferred));
    out.push(diagnostic);
    false
}

/// A valid name close to `raw`: lower-cased, every run of other characters a single hyphen,
/// cut to the length limit. `None` when nothing of it is left.
pub fn suggested_name(raw: &str) -> Option<String> {
    let mut out = String::new();
    for c in normalize_name(raw).to_lowercase().chars() {
        if is_letter_or_digit(c) {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    let mut fixed: String = out.chars().take(MAX_NAME_CHARS).collect();
    while fixed.ends_with('-') {
        fixed.pop();
    }
    (name_problems(&fixed).is_empty() && !fixed.is_empty()).then_some(fixed)
}

fn check_description(file: FileId, description: &FieldValue, out: &mut Vec<Diagnostic>) {
    let message = match description {
        FieldValue::Text(text) if text.value.trim().is_empty() => Some(
            "`description` is empty; say what the skill does and when to use it, so the model knows when to load it".to_owned(),
        ),
        _ => text_problem(
            "description",
            description,
            MAX_DESCRIPTION_CHARS,
            "write what the skill does and when to use it",
        ),
    };
    let code = codes::SKILLMD_DESCRIPTION_LENGTH;
    out.extend(message.map(|message| Diagnostic::new(code, file, description.range(), message)));
}

fn check_compatibility(file: FileId, compatibility: &FieldValue, out: &mut Vec<Diagnostic>) {
    let as_text = "write the requirements as one sentence";
    let message = text_problem(
        "compatibility",
        compatibility,
        MAX_COMPATIBILITY_CHARS,
        as_text,
    );
    let code = codes::SKILLMD_COMPATIBILITY_LENGTH;
    out.extend(message.map(|message| Diagnostic::new(code, file, compatibility.range(), message)));
}

/// What is wrong with the value of `field`, which must be text of at most `limit` characters:
/// a list or mapping in its place (`as_text` says what to write instead), or too long a text.
fn text_problem(field: &str, value: &FieldValue, limit: usize, as_text: &str) -> Option<String> {
    match value {
        FieldValue::Collection { kind, .. } => {
            Some(format!("`{field}` must be text, found a {kind}; {as_text}"))
        }
        FieldValue::Text(text) => {
            let len = slice_chars(&text.value);
            (len > limit).then(|| {
                format!("`{field}` is {len} characters long; the limit is {limit}, so shorten it and move details into the body")
            })
        }
    }
}

fn check_metadata(file: FileId, metadata: Node<'_>, out: &mut Vec<Diagnostic>) {
    match metadata.kind() {
        NodeKind::Mapping(_) => {}
        _ if metadata.is_null() => return,
        _ => {
            out.push(Diagnostic::new(
                codes::SKILLMD_METADATA_SHAPE,
                file,
                metadata.range(),
                format!(
                    "`metadata` must map string keys to string values, found a {}",
                    metadata.type_name()
                ),
            ));
            return;
        }
    }
    // Asked once: a lookup in a mapping of 100,000 keys, once per key, was quadratic.
    let has_chain = metadata.get("chain").is_some();
    for (key, value) in metadata.entries() {
        let Some(key_text) = key.scalar() else {
            out.push(Diagnostic::new(
                codes::SKILLMD_METADATA_SHAPE,
                file,
                key.range(),
                format!("a `metadata` key must be text, found a {}", key.type_name()),
            ));
            continue;
        };
        if is_metadata_extension_key(key_text, has_chain) {
            continue;
        }
        let problem = match value.value() {
            ScalarValue::Str(_) => continue,
            ScalarValue::NotScalar => format!(
                "`metadata.{key_text}` is a {}; metadata values must be strings, so flatten it or quote it",
                value.type_name()
            ),
            ScalarValue::Null => format!(
                "`metadata.{key_text}` is empty; give it a string value or remove it"
            ),
            loaded => {
                let written = value.scalar().unwrap_or_default();
                let kind = value.type_name();
                // Only where the loaded value reads differently from what was written.
                let becomes = match loaded {
                    ScalarValue::Int(n) => n.to_string(),
                    ScalarValue::Float(x) => x.to_string(),
                    _ => written.to_owned(),
                };
                let note = if becomes != written {
                    format!(" (`{written}` becomes {becomes})")
                } else {
                    String::new()
                };
                format!(
                    "`metadata.{key_text}` is {} {kind}, not a string; YAML loaders read it as {0} {kind}{note}, so quote it: `{}: {}`",
                    article(kind),
                    super::fixes::scalar(key_text, super::fixes::Quoting::Plain),
                    super::fixes::double_quoted(written)
                )
            }
        };
        let mut diagnostic =
            Diagnostic::new(codes::SKILLMD_METADATA_SHAPE, file, value.range(), problem);
        // A number or boolean is kept as written, as a string.
        if let (Some(written), false, Some(Style::Plain)) =
            (value.scalar(), value.is_alias(), value.style())
        {
            if !value.is_null() && value.range().len() as usize == written.len() {
                diagnostic.fixes.push(
                    Fix::replace(
                        format!("Quote `{written}` as a string"),
                        file,
                        value.range(),
                        super::fixes::double_quoted(written),
                    )
                    .preferred()
                    .safe(),
                );
            }
        }
        out.push(diagnostic);
    }
}

/// `diagnostic` made an error by strict mode, related to where `strict` is written in the
/// config file that sets it (when the setting comes from a file, not the editor).
fn strict_error(mut diagnostic: Diagnostic, config_file: Option<&FileEntry>) -> Diagnostic {
    diagnostic = diagnostic.with_severity(Severity::Error);
    let Some(config_file) = config_file else {
        return diagnostic;
    };
    let text = &config_file.text;
    let strict = text.find("strict").map_or(TextRange::empty(0), |at| {
        TextRange::new(at as u32, (at + "strict".len()) as u32)
    });
    diagnostic.with_related(
        config_file.id,
        strict,
        "strict mode (`skill-md.strict = true`) is set in this skillgraph.toml",
    )
}

/// The cross-file checks of a SKILL.md: unknown fields (they read the config) and duplicate names.
pub fn check(scope: &SkillMdScope<'_>, out: &mut Vec<Diagnostic>) {
    let hosts = super::skill_hosts::hosts_of(scope.lookup, scope.path);
    if !scope.skill.fields.is_empty() {
        check_unknown_fields(scope, out);
    }
    let name_is_valid = match &scope.skill.name {
        Some(name) => check_name(scope.file, scope.text, scope.path, name, out),
        None => false,
    };
    if name_is_valid {
        check_name_mismatch(scope, &hosts, out);
    }
    check_duplicate_name(scope, out);
    super::skill_hosts::check(scope, &hosts, out);
    super::mentions::check(scope, out);
    let (lookup, file, path) = (scope.lookup, scope.file, scope.path);
    super::subagents::check_agent(lookup, file, path, scope.skill, out);
}

/// `skillmd.name-mismatch`. A warning by default — hosts load such a skill (some under the
/// folder's name, some under `name`) — and an error in strict mode, as `skills-ref` makes it.
fn check_name_mismatch(
    scope: &SkillMdScope<'_>,
    hosts: &super::skill_hosts::Hosts<'_>,
    out: &mut Vec<Diagnostic>,
) {
    let (Some(normalized), Some(range)) = (scope.skill.normalized_name(), scope.skill.name_range())
    else {
        return;
    };
    let Some(folder) = scope
        .path
        .parent()
        .and_then(Path::file_name)
        .map(|n| n.to_string_lossy().into_owned())
    else {
        return;
    };
    if nfkc(&folder) == normalized {
        return;
    }
    let fix = if name_problems(&folder).is_empty() {
        format!("rename the folder to `{normalized}` or set `name: {folder}`")
    } else {
        format!("rename the folder to `{normalized}`")
    };
    // VS Code and Copilot skip such a skill altogether (`model::hosts`, VS_CODE_DOCS).
    let skipping: Vec<Host> = hosts
        .hosts
        .iter()
        .copied()
        .filter(|h| *h == Host::Copilot)
        .collect();
    let message = if skipping.is_empty() {
        format!("the name `{normalized}` differs from its folder `{folder}`; hosts find a skill by its folder, so {fix}")
    } else {
        format!(
            "the name `{normalized}` differs from its folder `{folder}`, and {} do not load such a skill ({}); {fix}",
            host_list(&skipping),
            hosts.why()
        )
    };
    let mut diagnostic = Diagnostic::new(codes::SKILLMD_NAME_MISMATCH, scope.file, range, message);
    let written = match &scope.skill.name {
        Some(FieldValue::Text(name)) => Some(name),
        _ => None,
    };
    let text = scope
        .lookup
        .file(scope.file)
        .map_or("", |entry| &*entry.text);
    let set_name = written
        .filter(|_| name_problems(&folder).is_empty())
        .and_then(|name| {
            super::fixes::replace_scalar(text, scope.file, name.range, &name.value, &folder)
        });
    diagnostic.fixes.extend(set_name.map(|fix| {
        Fix {
            title: format!("Set `name: {folder}`, the folder's name"),
            ..fix
        }
        .preferred()
    }));
    if let Some(dir) = scope.path.parent() {
        diagnostic.fixes.push(Fix {
            title: format!("Rename the folder to `{normalized}`"),
            edits: Vec::new(),
            rename: Some(PathRename {
                from: dir.to_owned(),
                to: dir.with_file_name(&normalized),
            }),
            preferred: diagnostic.fixes.is_empty(),
            safe: false,
        });
    }
    if !skipping.is_empty() {
        diagnostic = hosts.relate(diagnostic.with_severity(Severity::Error));
    }
    if let Some((config_file, config)) = settings_for(scope.lookup, scope.path) {
        if config.strict {
            diagnostic = strict_error(diagnostic, config_file);
        }
    }
    out.push(diagnostic);
}

fn check_duplicate_name(scope: &SkillMdScope<'_>, out: &mut Vec<Diagnostic>) {
    let (Some(name), Some(range), Some(root)) = (
        scope.skill.normalized_name(),
        scope.skill.name_range(),
        skill_root(scope.path),
    ) else {
        return;
    };
    let named = skills_named(scope.lookup, &name);
    let Some(group) = named.get(root) else { return };
    let count = group.others_count(scope.file);
    if count == 0 {
        return;
    }
    // One diagnostic however many skills share the name, naming at most ten folders and linking
    // at most twenty: the mistake is this file's name, once.
    let folders: Vec<String> = group
        .others(scope.file)
        .take(MAX_HOPS)
        .map(|(_, other)| format!("`{}/`", other.folder))
        .collect();
    let subject = match count {
        1 => format!("the skill in {} has", folders[0]),
        _ => format!("the skills in {} have", render_counted(&folders, count)),
    };
    let mut diagnostic = Diagnostic::new(
        codes::SKILLMD_DUPLICATE_NAME,
        scope.file,
        range,
        format!("{subject} the name `{name}` too; a host loads only one of them, so rename one"),
    );
    for (other_file, other) in group.others(scope.file).take(MAX_RELATED) {
        diagnostic = diagnostic.with_related(
            other_file,
            other.range,
            format!("`{name}` is also the name here"),
        );
    }
    out.push(diagnostic);
}

/// A SKILL.md with a given name, as the duplicate check shows it.
struct NamedSkill {
    /// The name of its folder.
    folder: String,
    range: TextRange,
}

/// The skills of one (normalized) name by skill root, each root's in path order; gathered once
/// per state of the name's key and shared by every skill of that name, so thousands of skills
/// sharing a name cost each the few others it names, not a walk of all of them.
fn skills_named(
    lookup: &Lookup<'_>,
    name: &str,
) -> std::sync::Arc<HashMap<PathBuf, Sharing<NamedSkill>>> {
    let key = Key::SkillMdNamed {
        name: name.to_owned(),
    };
    lookup.memo(key.clone(), |index| {
        let mut by_root: HashMap<PathBuf, Sharing<NamedSkill>> = HashMap::new();
        // The memo's own read of `key` covers every input; `get` answers in path order.
        for entry in Lookup::new(index).get(key) {
            let Content::SkillMd(skill) = &entry.parsed.content else {
                continue;
            };
            let (Some(range), Some(root)) = (skill.name_range(), skill_root(&entry.path)) else {
                continue;
            };
            let folder = entry
                .path
                .parent()
                .and_then(Path::file_name)
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
            by_root
                .entry(root.to_owned())
                .or_default()
                .push(entry.id, NamedSkill { folder, range });
        }
        by_root
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_and_digits_by_general_category() {
        for c in ['a', 'Z', 'é', '技', '٣', 'Ⅻ', '²'] {
            assert!(is_letter_or_digit(c), "{c}");
        }
        // U+093F DEVANAGARI VOWEL SIGN I is Mc: alphabetic to Rust, not alphanumeric to Python.
        for c in ['\u{93f}', '\u{301}', '_', '.', ' ', '😀', '–', '\u{200d}'] {
            assert!(!is_letter_or_digit(c), "{c:?}");
        }
        assert!('\u{93f}'.is_alphanumeric());
    }

    #[test]
    fn every_broken_name_rule_is_named() {
        assert!(name_problems("pdf-tools2").is_empty());
        assert!(name_problems(" pdf ").is_empty());
        let problems = name_problems("-Bad--Name_-");
        assert_eq!(problems.len(), 4, "{problems:?}");
        assert!(problems[0].contains("lowercase"));
        assert!(problems[1].contains("start or end"));
        assert!(problems[2].contains("two hyphens"));
        assert!(problems[3].contains("`_`"));
        let problems = name_problems("ａＢ");
        assert_eq!(problems.len(), 1);
        assert!(problems[0].contains("after trimming and NFKC the name reads `aB`"));
        assert_eq!(name_problems("   ").len(), 1);
    }
}
