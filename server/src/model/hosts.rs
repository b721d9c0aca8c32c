//! What the hosts that load SKILL.md files document about them, as data: which hosts exist and
//! which folders each reads skills from, every top-level frontmatter field with the hosts that
//! read it, the values it takes and what the host does with it, and each fact's source page with
//! the date it was checked. The known fields, their hovers, their type and enum checks, the host
//! rules and the `claude-code` tool preset are all driven from here, so refreshing the facts
//! means editing this one file.

/// The date every fact below was last checked against its source.
pub const CHECKED: &str = "2026-12-01";

pub const SPEC_DOCS: &str = "https://agentskills.io/specification";
pub const CLAUDE_CODE_DOCS: &str = "https://code.claude.com/docs/en/skills";
pub const CLAUDE_CODE_TOOLS_DOCS: &str = "https://code.claude.com/docs/en/tools-reference";
pub const CLAUDE_API_DOCS: &str =
    "https://docs.claude.com/en/docs/agents-and-tools/agent-skills/overview";
pub const VS_CODE_DOCS: &str =
    "https://code.visualstudio.com/docs/agent-customization/agent-skills";
pub const COPILOT_DOCS: &str = "https://docs.github.com/en/copilot/how-tos/copilot-on-github/customize-copilot/customize-cloud-agent/add-skills";
pub const CODEX_DOCS: &str = "https://developers.openai.com/codex/skills";
pub const OPENCODE_DOCS: &str = "https://opencode.ai/docs/skills/";
pub const GEMINI_DOCS: &str = "https://geminicli.com/docs/cli/using-agent-skills/";
pub const CURSOR_DOCS: &str = "https://cursor.com/docs/context/skills";
pub const CRUSH_DOCS: &str = "https://github.com/charmbracelet/crush";

/// Subagents, plugin and marketplace manifests.
pub mod plugins;
/// Prose files, command folders and built-in commands.
pub mod prose;

/// A program that loads SKILL.md files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Host {
    ClaudeCode,
    /// claude.ai and the Claude API (skills uploaded as a folder or a zip).
    ClaudeApi,
    /// VS Code's agent mode, the Copilot CLI and the Copilot cloud agent: one skill loader.
    Copilot,
    Codex,
    OpenCode,
    GeminiCli,
    Cursor,
    /// Charm's Crush (no project folder of its own is documented: named by `[skill-md] hosts`).
    Crush,
}

impl Host {
    pub const ALL: &'static [Host] = &[
        Host::ClaudeCode,
        Host::ClaudeApi,
        Host::Copilot,
        Host::Codex,
        Host::OpenCode,
        Host::GeminiCli,
        Host::Cursor,
        Host::Crush,
    ];

    /// The name used in `[skill-md] hosts` and in messages' ids.
    pub fn id(self) -> &'static str {
        match self {
            Host::ClaudeCode => "claude-code",
            Host::ClaudeApi => "claude-api",
            Host::Copilot => "copilot",
            Host::Codex => "codex",
            Host::OpenCode => "opencode",
            Host::GeminiCli => "gemini-cli",
            Host::Cursor => "cursor",
            Host::Crush => "crush",
        }
    }

    /// The name people know it by, for messages.
    pub fn label(self) -> &'static str {
        match self {
            Host::ClaudeCode => "Claude Code",
            Host::ClaudeApi => "claude.ai and the Claude API",
            Host::Copilot => "VS Code/Copilot",
            Host::Codex => "Codex",
            Host::OpenCode => "OpenCode",
            Host::GeminiCli => "Gemini CLI",
            Host::Cursor => "Cursor",
            Host::Crush => "Crush",
        }
    }

    /// The host's skills documentation.
    pub fn docs(self) -> &'static str {
        match self {
            Host::ClaudeCode => CLAUDE_CODE_DOCS,
            Host::ClaudeApi => CLAUDE_API_DOCS,
            Host::Copilot => VS_CODE_DOCS,
            Host::Codex => CODEX_DOCS,
            Host::OpenCode => OPENCODE_DOCS,
            Host::GeminiCli => GEMINI_DOCS,
            Host::Cursor => CURSOR_DOCS,
            Host::Crush => CRUSH_DOCS,
        }
    }

    pub fn from_id(id: &str) -> Option<Host> {
        Host::ALL.iter().copied().find(|h| h.id() == id)
    }
}

/// A project folder that holds skill folders (`<project>/.claude/skills/<skill>/SKILL.md`), and
/// the hosts documented to read it.
#[derive(Debug)]
pub struct SkillRoot {
    /// The two folder names below the project, e.g. `[".claude", "skills"]`.
    pub folders: [&'static str; 2],
    pub hosts: &'static [Host],
    pub source: &'static str,
}

/// Project-level skill folders. Home-directory folders (`~/.claude/skills`, ...) have the same
/// two last components, so the same table answers for them.
pub const SKILL_ROOTS: &[SkillRoot] = &[
    SkillRoot {
        folders: [".claude", "skills"],
        // Copilot and OpenCode document reading Claude's folder too.
        hosts: &[Host::ClaudeCode, Host::Copilot, Host::OpenCode],
        source: "https://code.claude.com/docs/en/skills; https://docs.github.com/en/copilot (add skills); https://opencode.ai/docs/skills/",
    },
    SkillRoot {
        folders: [".github", "skills"],
        hosts: &[Host::Copilot],
        source: VS_CODE_DOCS,
    },
    SkillRoot {
        folders: [".agents", "skills"],
        hosts: &[Host::Codex, Host::OpenCode, Host::GeminiCli, Host::Copilot],
        source: "https://developers.openai.com/codex/skills; https://opencode.ai/docs/skills/; https://geminicli.com/docs/cli/using-agent-skills/; https://docs.github.com/en/copilot (add skills)",
    },
    SkillRoot {
        folders: [".opencode", "skills"],
        hosts: &[Host::OpenCode],
        source: OPENCODE_DOCS,
    },
    SkillRoot {
        folders: [".gemini", "skills"],
        hosts: &[Host::GeminiCli],
        source: GEMINI_DOCS,
    },
    SkillRoot {
        folders: [".cursor", "skills"],
        hosts: &[Host::Cursor],
        source: CURSOR_DOCS,
    },
];

/// The marker of a Claude Code plugin: `<plugin>/.claude-plugin/plugin.json`, whose `skills/`
/// folder Claude Code reads.
pub const CLAUDE_PLUGIN_MANIFEST: [&str; 2] = [".claude-plugin", "plugin.json"];

/// The values a field takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueType {
    /// Any scalar, read as text.
    Text,
    /// `true` or `false`.
    Bool,
    /// One of these words.
    OneOf(&'static [&'static str]),
    /// A string or a list of strings.
    TextOrList,
    /// Tool names: a space- or comma-separated string, or a list, of `Tool`, `Tool(pattern)` or
    /// `mcp__server__tool`.
    Tools,
    /// A mapping (checked by its own rules, if any).
    Mapping,
    /// Not judged here.
    Any,
}

/// Where a known top-level field comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldOrigin {
    /// The Agent Skills specification (agentskills.io); `skills-ref` accepts exactly these.
    Spec,
    /// Some hosts' own extension; other hosts ignore it.
    Host,
    /// A proposed extension that skillgraph checks.
    Proposal,
}

impl FieldOrigin {
    pub fn describe(self, hosts: &[Host]) -> String {
        match self {
            FieldOrigin::Spec => "an Agent Skills spec field".to_owned(),
            FieldOrigin::Host => format!("a {} field", host_list(hosts)),
            FieldOrigin::Proposal => "a proposed Agent Skills extension".to_owned(),
        }
    }
}

/// "Claude Code", "Claude Code and Codex", "A, B and C".
pub fn host_list(hosts: &[Host]) -> String {
    let labels: Vec<&str> = hosts.iter().map(|h| h.label()).collect();
    match labels.split_last() {
        None => String::new(),
        Some((last, [])) => (*last).to_owned(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

/// A top-level frontmatter field skillgraph knows.
#[derive(Clone, Copy, Debug)]
pub struct KnownField {
    pub key: &'static str,
    pub origin: FieldOrigin,
    /// The hosts that act on it (empty for spec fields, which every host reads).
    pub hosts: &'static [Host],
    pub value: ValueType,
    /// What the host does with it: the line hover shows.
    pub hover: &'static str,
    pub source: &'static str,
    pub checked: &'static str,
}

const CC: &[Host] = &[Host::ClaudeCode];

/// Every top-level field we know. `version` is deliberately absent: no spec or host defines it,
/// `skills-ref` rejects it, and the spec's place for it is `metadata.version`.
pub const KNOWN_FIELDS: &[KnownField] = &[
    KnownField {
        key: "name",
        origin: FieldOrigin::Spec,
        hosts: &[],
        value: ValueType::Text,
        hover: "The skill's name: 1-64 lowercase letters, digits and hyphens, equal to its folder's name.",
        source: SPEC_DOCS,
        checked: CHECKED,
    },
    KnownField {
        key: "description",
        origin: FieldOrigin::Spec,
        hosts: &[],
        value: ValueType::Text,
        hover: "What the skill does and when to use it (1-1024 characters); the model reads it to decide when to load the skill.",
        source: SPEC_DOCS,
        checked: CHECKED,
    },
    KnownField {
        key: "license",
        origin: FieldOrigin::Spec,
        hosts: &[],
        value: ValueType::Text,
        hover: "The license the skill is shared under: a name, or the name of a bundled license file.",
        source: SPEC_DOCS,
        checked: CHECKED,
    },
    KnownField {
        key: "compatibility",
        origin: FieldOrigin::Spec,
        hosts: &[],
        value: ValueType::Text,
        hover: "Environment requirements (product, system packages, network access), at most 500 characters.",
        source: SPEC_DOCS,
        checked: CHECKED,
    },
    KnownField {
        key: "metadata",
        origin: FieldOrigin::Spec,
        hosts: &[],
        value: ValueType::Mapping,
        hover: "Free-form string keys and string values for clients (author, version, ...).",
        source: SPEC_DOCS,
        checked: CHECKED,
    },
    KnownField {
        key: "allowed-tools",
        origin: FieldOrigin::Spec,
        hosts: &[],
        value: ValueType::Tools,
        hover: "Tools the skill may use without asking: a string or a list of `Tool`, `Bash(git *)` or `mcp__server__tool` (experimental in the spec; Claude Code pre-approves them while the skill is active).",
        source: "https://agentskills.io/specification; https://code.claude.com/docs/en/skills",
        checked: CHECKED,
    },
    KnownField {
        key: "when_to_use",
        origin: FieldOrigin::Host,
        hosts: CC,
        value: ValueType::Text,
        hover: "Claude Code: more context on when to use the skill, appended to `description` in the skill listing (the two together are capped there).",
        source: CLAUDE_CODE_DOCS,
        checked: CHECKED,
    },
    KnownField {
        key: "argument-hint",
        origin: FieldOrigin::Host,
        hosts: CC,
        value: ValueType::Text,
        hover: "Claude Code: the hint shown after `/name` in autocomplete, e.g. `[issue-number]`.",
        source: CLAUDE_CODE_DOCS,
        checked: CHECKED,
    },
    KnownField {
        key: "arguments",
        origin: FieldOrigin::Host,
        hosts: CC,
        value: ValueType::TextOrList,
        hover: "Claude Code: named positional arguments, so the body can use `$name` for the argument in that position.",
        source: CLAUDE_CODE_DOCS,
        checked: CHECKED,
    },
    KnownField {
        key: "disable-model-invocation",
        origin: FieldOrigin::Host,
        hosts: CC,
        value: ValueType::Bool,
        hover: "Claude Code: `true` stops the model from loading the skill on its own; only `/name` runs it.",
        source: CLAUDE_CODE_DOCS,
        checked: CHECKED,
    },
    KnownField {
        key: "user-invocable",
        origin: FieldOrigin::Host,
        hosts: CC,
        value: ValueType::Bool,
        hover: "Claude Code: `false` hides the skill from the `/` menu; the model may still load it.",
        source: CLAUDE_CODE_DOCS,
        checked: CHECKED,
    },
    KnownField {
        key: "model",
        origin: FieldOrigin::Host,
        hosts: CC,
        value: ValueType::Text,
        hover: "Claude Code: the model to run the skill with (e.g. `haiku`, `sonnet`, `opus`, or a full model name).",
        source: CLAUDE_CODE_DOCS,
        checked: CHECKED,
    },
    KnownField {
        key: "effort",
        origin: FieldOrigin::Host,
        hosts: CC,
        value: ValueType::OneOf(&["low", "medium", "high", "xhigh", "max"]),
        hover: "Claude Code: the model's effort level while the skill runs (`low`, `medium`, `high`, `xhigh`, `max`).",
        source: CLAUDE_CODE_DOCS,
        checked: CHECKED,
    },
    KnownField {
        key: "context",
        origin: FieldOrigin::Host,
        hosts: CC,
        value: ValueType::OneOf(&["fork"]),
        hover: "Claude Code: `fork` runs the skill in an isolated subagent context.",
        source: CLAUDE_CODE_DOCS,
        checked: CHECKED,
    },
    KnownField {
        key: "agent",
        origin: FieldOrigin::Host,
        hosts: CC,
        value: ValueType::Text,
        hover: "Claude Code: the subagent type that runs the skill (`Explore`, `Plan`, `general-purpose` or one of `.claude/agents/`); only with `context: fork`.",
        source: CLAUDE_CODE_DOCS,
        checked: CHECKED,
    },
    KnownField {
        key: "hooks",
        origin: FieldOrigin::Host,
        hosts: CC,
        value: ValueType::Mapping,
        hover: "Claude Code: lifecycle hooks active while the skill runs.",
        source: CLAUDE_CODE_DOCS,
        checked: CHECKED,
    },
    KnownField {
        key: "paths",
        origin: FieldOrigin::Host,
        hosts: CC,
        value: ValueType::TextOrList,
        hover: "Claude Code: glob patterns; the model loads the skill on its own only while working with matching files.",
        source: CLAUDE_CODE_DOCS,
        checked: CHECKED,
    },
    KnownField {
        key: "shell",
        origin: FieldOrigin::Host,
        hosts: CC,
        value: ValueType::OneOf(&["bash", "powershell"]),
        hover: "Claude Code: the shell that runs the body's `!` command blocks (`bash`, the default, or `powershell`).",
        source: CLAUDE_CODE_DOCS,
        checked: CHECKED,
    },
    KnownField {
        key: "dependencies",
        origin: FieldOrigin::Proposal,
        hosts: &[],
        value: ValueType::Any,
        hover: "Proposal: the tools, resources and prompts the skill needs (`all` / `any` lists).",
        source: "skillgraph's SKILL.md extensions (docs/rules.md)",
        checked: CHECKED,
    },
];

pub fn known_field(key: &str) -> Option<&'static KnownField> {
    KNOWN_FIELDS.iter().find(|f| f.key == key)
}

/// Claude Code's listing shows `description` and `when_to_use` together, cut at this many
/// characters.
pub const CLAUDE_CODE_LISTING_CHARS: usize = 1536;

/// Words claude.ai and the Claude API refuse in a skill's `name`.
pub const CLAUDE_API_RESERVED_WORDS: &[&str] = &["anthropic", "claude"];

/// Claude Code's built-in tools, as its tools reference names them (checked 2026-12-01,
/// `CLAUDE_CODE_TOOLS_DOCS`). Retired names (`MultiEdit`, `LS`, `BashOutput`, `KillShell`,
/// `SlashCommand`) are gone; `Task` stays as the older name of `Agent`, which settings still
/// accept.
pub const CLAUDE_CODE_TOOLS: &[&str] = &[
    "Agent",
    "AskUserQuestion",
    "Bash",
    "Edit",
    "ExitPlanMode",
    "Glob",
    "Grep",
    "LSP",
    "NotebookEdit",
    "PowerShell",
    "Read",
    "Skill",
    "Task",
    "TaskOutput",
    "TaskStop",
    "TodoWrite",
    "ToolSearch",
    "WebFetch",
    "WebSearch",
    "Write",
];

/// Is `entry` a well-formed `allowed-tools` entry: `Tool`, `Tool(pattern)`,
/// `mcp__server__tool`, or VS Code's `Server Name/tool` (also nested, `a/b/tool`)? A tool name
/// starts with a letter and holds letters, digits, `_` and `-`; a server name starts with a letter
/// or digit and holds letters, digits, spaces, `_`, `-` and `.`. One pass over the entry, whatever
/// the number of `/` in it. A `/` inside the parentheses is part of the pattern
/// (`Bash(cat docs/*)`).
pub fn is_tool_entry(entry: &str) -> bool {
    let head = &entry[..entry.find('(').unwrap_or(entry.len())];
    let (servers, tool) = match head.rfind('/') {
        Some(slash) => (Some(&entry[..slash]), &entry[slash + 1..]),
        None => (None, entry),
    };
    if let Some(servers) = servers {
        let server_ok = |server: &str| {
            server
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphanumeric())
                && server
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || " _-.".contains(c))
        };
        // A pattern in parentheses belongs to a plain tool only.
        if !servers.split('/').all(server_ok) || tool.contains('(') {
            return false;
        }
    }
    let (name, rest) = match tool.find('(') {
        Some(open) => (&tool[..open], &tool[open..]),
        None => (tool, ""),
    };
    let name_ok = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '*');
    let rest_ok = rest.is_empty() || (rest.ends_with(')') && rest.len() >= 2);
    name_ok && rest_ok
}

/// Splits an `allowed-tools` string into entries: separated by commas or spaces, except inside
/// parentheses (`Bash(git add *)` is one entry). Returns each entry with its byte offset.
pub fn split_tools(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut start: Option<usize> = None;
    for (i, c) in text.char_indices() {
        match c {
            '(' => {
                depth += 1;
                start.get_or_insert(i);
            }
            ')' => {
                depth = depth.saturating_sub(1);
                start.get_or_insert(i);
            }
            ',' | ' ' | '\t' | '\n' if depth == 0 => {
                if let Some(s) = start.take() {
                    out.push((s, &text[s..i]));
                }
            }
            _ => {
                start.get_or_insert(i);
            }
        }
    }
    if let Some(s) = start {
        out.push((s, &text[s..]));
    }
    out
}

/// Anthropic's skill authoring best practices (the body's length, how deep references go, a
/// long reference's table of contents).
pub const SKILL_BEST_PRACTICES_DOCS: &str =
    "https://docs.claude.com/en/docs/agents-and-tools/agent-skills/best-practices";

/// The date the load facts below were checked.
pub const LOAD_FACTS_CHECKED: &str = "2026-12-04";

/// A number the spec or a host's guidance gives for what a skill loads past its listing.
#[derive(Debug)]
pub struct LoadGuidance {
    /// What the number limits, for the docs.
    pub what: &'static str,
    pub limit: usize,
    pub source: &'static str,
    pub checked: &'static str,
}

/// The spec recommends a body (the instructions read when the skill is chosen) under 5,000
/// tokens.
pub const BODY_TOKENS: LoadGuidance = LoadGuidance {
    what: "tokens of the SKILL.md body (recommended at most)",
    limit: 5000,
    source: "https://agentskills.io/specification (Progressive disclosure)",
    checked: LOAD_FACTS_CHECKED,
};

/// The spec and Anthropic's best practices keep the SKILL.md under 500 lines.
pub const BODY_LINES: LoadGuidance = LoadGuidance {
    what: "lines of the SKILL.md body (recommended at most)",
    limit: 500,
    source: "https://agentskills.io/specification (Progressive disclosure); https://docs.claude.com/en/docs/agents-and-tools/agent-skills/best-practices",
    checked: LOAD_FACTS_CHECKED,
};

/// "Keep references one level deep from SKILL.md": a file reached only through another
/// reference may be read partly (a preview) or not at all.
pub const REFERENCE_DEPTH: LoadGuidance = LoadGuidance {
    what: "levels of Markdown references below SKILL.md",
    limit: 1,
    source: SKILL_BEST_PRACTICES_DOCS,
    checked: LOAD_FACTS_CHECKED,
};

/// The guidance asks for a table of contents in reference files longer than 100 lines; we say
/// so from 300 lines, where a partial read most often misses whole sections.
pub const REFERENCE_TOC_LINES: LoadGuidance = LoadGuidance {
    what: "lines of a reference file from which a table of contents in its first 50 lines is asked for (the guidance says 100; skillgraph reports from 300)",
    limit: 300,
    source: SKILL_BEST_PRACTICES_DOCS,
    checked: LOAD_FACTS_CHECKED,
};

/// A file of the skill's folder that a host reads itself (not the model), with what it holds.
#[derive(Debug)]
pub struct HostReadFile {
    /// Relative to the skill folder.
    pub path: &'static str,
    pub host: Host,
    pub what: &'static str,
    pub source: &'static str,
    pub checked: &'static str,
}

/// Files hosts read from a skill's folder beside the SKILL.md: what they name is named, and
/// they are no orphans (`rules::bundled_files`).
pub const HOST_READ_FILES: &[HostReadFile] = &[HostReadFile {
    path: "agents/openai.yaml",
    host: Host::Codex,
    what: "the skill's metadata for Codex's interface (display name, icons, brand colour) and its tool dependencies",
    source: CODEX_DOCS,
    checked: LOAD_FACTS_CHECKED,
}];

/// Every load guidance, for the docs.
pub const LOAD_GUIDANCE: &[&LoadGuidance] = &[
    &BODY_TOKENS,
    &BODY_LINES,
    &REFERENCE_DEPTH,
    &REFERENCE_TOC_LINES,
];

/// A host fact stated in words, with its source and the date it was checked.
#[derive(Debug)]
pub struct HostFact {
    pub fact: &'static str,
    pub source: &'static str,
    pub checked: &'static str,
}

/// Claude Code's argument substitution (`model::arguments` reads the body by these rules).
pub const CLAUDE_CODE_ARGUMENT_FACTS: &[HostFact] = &[
    HostFact {
        fact: "`$ARGUMENTS` becomes everything typed after `/name`; when the body holds no `$ARGUMENTS`, the arguments are appended as `ARGUMENTS: <value>`",
        source: CLAUDE_CODE_DOCS,
        checked: LOAD_FACTS_CHECKED,
    },
    HostFact {
        fact: "`$ARGUMENTS[N]` and its shorthand `$N` become the argument at 0-based index N (arguments split shell-style, quotes group words); `$N` is `$` and digits not followed by a letter, digit or `_`, so `$0.01` is `$0` then `.01`",
        source: CLAUDE_CODE_DOCS,
        checked: LOAD_FACTS_CHECKED,
    },
    HostFact {
        fact: "a positional placeholder with no argument at its index stays as written (`$2` with one argument)",
        source: CLAUDE_CODE_DOCS,
        checked: LOAD_FACTS_CHECKED,
    },
    HostFact {
        fact: "`arguments` (a list, or a space-separated string) names the positions in order; `$name` becomes the argument at that position, and empty when it was not given",
        source: CLAUDE_CODE_DOCS,
        checked: LOAD_FACTS_CHECKED,
    },
    HostFact {
        fact: "substitution runs over the whole body, fenced and inline code included; `\\$1` keeps a literal `$1`",
        source: CLAUDE_CODE_DOCS,
        checked: LOAD_FACTS_CHECKED,
    },
    HostFact {
        fact: "`argument-hint` is shown after `/name` in autocomplete; it changes nothing in what the body receives",
        source: CLAUDE_CODE_DOCS,
        checked: LOAD_FACTS_CHECKED,
    },
];

/// The date the extension facts below were checked.
pub const EXTENSION_FACTS_CHECKED: &str = "2026-12-04";

/// Where a proposal writes an extension, as a strict reader sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExtensionForm {
    /// A field at the top level that the spec does not define (`dependencies`).
    TopLevelField,
    /// A `metadata` value that is a list or a mapping (`metadata.chain`, `metadata.precondition`).
    MetadataCollection,
}

/// What a host does with a skill written in a form it reads strictly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Consequence {
    /// The skill is not loaded (or not installed).
    Skipped,
    /// The skill loads, with a warning.
    Warned,
}

/// One host's strict reading of the extensions' nested form.
#[derive(Debug)]
pub struct ExtensionFact {
    pub host: Host,
    pub form: ExtensionForm,
    pub consequence: Consequence,
    /// What the host does, for messages and docs.
    pub what: &'static str,
    pub source: &'static str,
    pub checked: &'static str,
}

/// The hosts that refuse or warn about the nested form of the extensions (the portable form,
/// `model::skill_md::portable`, is what each of them loads).
pub const EXTENSION_FACTS: &[ExtensionFact] = &[
    ExtensionFact {
        host: Host::Codex,
        form: ExtensionForm::TopLevelField,
        consequence: Consequence::Skipped,
        what: "Codex's skill installer accepts only `name`, `description`, `license`, `allowed-tools` and `metadata` at the top level and refuses any other key (\"Unexpected key(s) in SKILL.md frontmatter\")",
        source: "https://github.com/mattpocock/skills/issues/360",
        checked: EXTENSION_FACTS_CHECKED,
    },
    ExtensionFact {
        host: Host::Copilot,
        form: ExtensionForm::TopLevelField,
        consequence: Consequence::Warned,
        what: "VS Code's SKILL.md validator warns on a top-level field outside the spec's (`name`, `description`, `license`, `compatibility`, `metadata`)",
        source: "https://github.com/microsoft/vscode/issues/294520",
        checked: EXTENSION_FACTS_CHECKED,
    },
    ExtensionFact {
        host: Host::Crush,
        form: ExtensionForm::MetadataCollection,
        consequence: Consequence::Skipped,
        what: "Crush reads `metadata` as a map of strings; a list or mapping value fails to decode (\"cannot unmarshal !!seq into string\") and the skill is dropped from discovery, with a warning only in crush.log",
        source: "https://github.com/charmbracelet/crush/issues/3331; https://github.com/charmbracelet/crush/pull/3787 (the fix, open)",
        checked: EXTENSION_FACTS_CHECKED,
    },
];

/// The reference validator `skills-ref` (not a host, but what spec-strict hosts follow), as
/// installed from PyPI: version 0.1.1, run on the nested and the portable forms.
pub const SKILLS_REF_EXTENSION_FACTS: &[(&str, &str)] = &[
    (
        "`agentskills validate` fails on a top-level `dependencies`: \"Unexpected fields in frontmatter: dependencies\" (`skills_ref/validator.py`, `_validate_metadata_fields` against `ALLOWED_FIELDS`)",
        "https://pypi.org/project/skills-ref/0.1.1/",
    ),
    (
        "`metadata` values are turned into strings with Python's `str` (`skills_ref/parser.py`, `parse_frontmatter`), so a nested `chain: [a, b]` reaches a host that uses it as the text \"['a', 'b']\"; the portable form passes unchanged",
        "https://pypi.org/project/skills-ref/0.1.1/",
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_fact_has_a_source_and_a_date() {
        let mut seen = std::collections::HashSet::new();
        for field in KNOWN_FIELDS {
            assert!(seen.insert(field.key), "{} twice", field.key);
            assert!(!field.source.is_empty() && field.checked == CHECKED);
            assert_eq!(field.origin == FieldOrigin::Host, !field.hosts.is_empty());
        }
        assert!(known_field("version").is_none());
        for root in SKILL_ROOTS {
            assert!(root.source.starts_with("https://"));
        }
        for host in Host::ALL {
            assert_eq!(Host::from_id(host.id()), Some(*host));
        }
    }

    #[test]
    fn current_claude_code_fields_and_tools() {
        for key in ["when_to_use", "arguments", "paths", "shell"] {
            assert!(known_field(key).is_some(), "{key}");
        }
        let Some(ValueType::OneOf(levels)) = known_field("effort").map(|f| f.value) else {
            panic!("effort is an enum");
        };
        assert!(levels.contains(&"xhigh"));
        for retired in ["MultiEdit", "LS", "BashOutput", "KillShell", "SlashCommand"] {
            assert!(!CLAUDE_CODE_TOOLS.contains(&retired), "{retired}");
        }
        for current in [
            "Agent",
            "AskUserQuestion",
            "TaskOutput",
            "TaskStop",
            "ToolSearch",
            "LSP",
            "PowerShell",
        ] {
            assert!(CLAUDE_CODE_TOOLS.contains(&current), "{current}");
        }
    }

    #[test]
    fn tool_entries() {
        assert_eq!(
            split_tools("Read, Grep Bash(git add *),mcp__github__get_issue"),
            [
                (0, "Read"),
                (6, "Grep"),
                (11, "Bash(git add *)"),
                (27, "mcp__github__get_issue")
            ]
        );
        for ok in [
            "Read",
            "Bash(git *)",
            "mcp__server__tool",
            "WebFetch(domain:x.com)",
            "Azure MCP/documentation",
            "a/b/tool",
            "Bash(cat docs/*)",
        ] {
            assert!(is_tool_entry(ok), "{ok}");
        }
        for bad in [
            "", "(x)", "Bash(", "Read.", "1Tool", "a/", "/b", "a//b", "a(x)/b", "a/b(x)",
        ] {
            assert!(!is_tool_entry(bad), "{bad}");
        }
        // A million servers deep: one pass, no recursion (this used to overflow the stack).
        let deep = "a/".repeat(1_000_000);
        assert!(is_tool_entry(&format!("{deep}b")));
        assert!(!is_tool_entry(&format!("{deep}b(x)")));
    }
}
