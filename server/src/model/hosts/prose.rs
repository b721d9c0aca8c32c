//! What the hosts document about the Markdown they load beside skills, as rows: which prose
//! files each host reads (instructions, legacy commands, subagents, prompt files), which folders
//! hold invocable commands, and each host's built-in slash commands. The mention scanner
//! (`model/mentions.rs`) and the scoping of a mention (which skills a host loading the file
//! would see) read these tables; every row names its source page and the date it was checked.

use super::Host;

/// The date every row of this file was last checked against its source.
pub const CHECKED: &str = "2026-12-04";

pub const CLAUDE_MEMORY_DOCS: &str = "https://code.claude.com/docs/en/memory";
pub const CLAUDE_SKILLS_DOCS: &str = "https://code.claude.com/docs/en/skills";
pub const CLAUDE_SUBAGENTS_DOCS: &str = "https://code.claude.com/docs/en/sub-agents";
pub const CLAUDE_COMMANDS_DOCS: &str = "https://code.claude.com/docs/en/commands";
pub const CODEX_AGENTS_MD_DOCS: &str = "https://developers.openai.com/codex/guides/agents-md";
pub const CODEX_COMMANDS_DOCS: &str = "https://developers.openai.com/codex/cli/slash-commands";
pub const VS_CODE_INSTRUCTIONS_DOCS: &str =
    "https://code.visualstudio.com/docs/copilot/customization/custom-instructions";
pub const VS_CODE_PROMPTS_DOCS: &str =
    "https://code.visualstudio.com/docs/copilot/customization/prompt-files";
pub const COPILOT_CLI_COMMANDS_DOCS: &str =
    "https://docs.github.com/en/copilot/reference/copilot-cli-reference/cli-command-reference";
pub const OPENCODE_RULES_DOCS: &str = "https://opencode.ai/docs/rules/";
pub const OPENCODE_TUI_DOCS: &str = "https://opencode.ai/docs/tui/";
pub const GEMINI_MD_DOCS: &str = "https://geminicli.com/docs/cli/gemini-md/";
pub const GEMINI_COMMANDS_DOCS: &str = "https://geminicli.com/docs/reference/commands/";
pub const CURSOR_RULES_DOCS: &str = "https://cursor.com/docs/context/rules";
pub const CURSOR_COMMANDS_DOCS: &str = "https://cursor.com/docs/cli/reference/slash-commands";

/// What a prose file is to the host that loads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ProseKind {
    /// Always-loaded project instructions (`CLAUDE.md`, `AGENTS.md`, `GEMINI.md`,
    /// `.github/copilot-instructions.md`, `.github/instructions/*.instructions.md`).
    Instructions,
    /// A legacy slash command: its file name is an invocable name (`.claude/commands/x.md`).
    Command,
    /// A Claude Code subagent: frontmatter plus a system prompt (`.claude/agents/x.md`).
    Subagent,
    /// A VS Code prompt file, run as `/name` in chat (`.github/prompts/x.prompt.md`).
    Prompt,
}

/// Where a prose file sits, by its last path components.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProsePlace {
    /// A file of this name in any folder (hosts read nested ones too, for the files below).
    Named(&'static str),
    /// A file of this name directly in `<project>/<folder>/`.
    In {
        folder: &'static str,
        name: &'static str,
    },
    /// A file ending in `suffix` anywhere below `<project>/<folders>/` (`nested`) or directly in
    /// it.
    Below {
        folders: [&'static str; 2],
        suffix: &'static str,
        nested: bool,
    },
}

/// One kind of prose file, the hosts that load it, and the source saying so.
#[derive(Debug)]
pub struct ProseFile {
    pub place: ProsePlace,
    pub kind: ProseKind,
    pub hosts: &'static [Host],
    pub source: &'static str,
    pub checked: &'static str,
}

/// Every prose file outside skill folders that skillgraph reads for mentions. SKILL.md bodies
/// and the other Markdown files of a skill folder are read too; their hosts are the skill's.
/// Claude Code does not read `AGENTS.md` (its docs suggest importing it from `CLAUDE.md`), and
/// Gemini CLI reads `GEMINI.md` unless `context.fileName` says otherwise.
pub const PROSE_FILES: &[ProseFile] = &[
    ProseFile {
        place: ProsePlace::Named("CLAUDE.md"),
        kind: ProseKind::Instructions,
        hosts: &[Host::ClaudeCode],
        source: CLAUDE_MEMORY_DOCS,
        checked: CHECKED,
    },
    ProseFile {
        place: ProsePlace::Named("AGENTS.md"),
        kind: ProseKind::Instructions,
        hosts: &[Host::Codex, Host::OpenCode, Host::Copilot, Host::Cursor],
        source: "https://developers.openai.com/codex/guides/agents-md; https://opencode.ai/docs/rules/; https://code.visualstudio.com/docs/copilot/customization/custom-instructions; https://cursor.com/docs/context/rules",
        checked: CHECKED,
    },
    ProseFile {
        place: ProsePlace::Named("GEMINI.md"),
        kind: ProseKind::Instructions,
        hosts: &[Host::GeminiCli],
        source: GEMINI_MD_DOCS,
        checked: CHECKED,
    },
    ProseFile {
        place: ProsePlace::In {
            folder: ".github",
            name: "copilot-instructions.md",
        },
        kind: ProseKind::Instructions,
        hosts: &[Host::Copilot],
        source: VS_CODE_INSTRUCTIONS_DOCS,
        checked: CHECKED,
    },
    ProseFile {
        place: ProsePlace::Below {
            folders: [".github", "instructions"],
            suffix: ".instructions.md",
            nested: true,
        },
        kind: ProseKind::Instructions,
        hosts: &[Host::Copilot],
        source: VS_CODE_INSTRUCTIONS_DOCS,
        checked: CHECKED,
    },
    ProseFile {
        place: ProsePlace::Below {
            folders: [".github", "prompts"],
            suffix: ".prompt.md",
            nested: false,
        },
        kind: ProseKind::Prompt,
        hosts: &[Host::Copilot],
        source: VS_CODE_PROMPTS_DOCS,
        checked: CHECKED,
    },
    // Subfolders of `.claude/commands/` namespace nothing any more: the file name is the
    // command's name and the folder shows in its description.
    ProseFile {
        place: ProsePlace::Below {
            folders: [".claude", "commands"],
            suffix: ".md",
            nested: true,
        },
        kind: ProseKind::Command,
        hosts: &[Host::ClaudeCode],
        source: CLAUDE_SKILLS_DOCS,
        checked: CHECKED,
    },
    ProseFile {
        place: ProsePlace::Below {
            folders: [".claude", "agents"],
            suffix: ".md",
            nested: false,
        },
        kind: ProseKind::Subagent,
        hosts: &[Host::ClaudeCode],
        source: CLAUDE_SUBAGENTS_DOCS,
        checked: CHECKED,
    },
];

/// The row for a path, from its last components. Components are compared as text; a name that
/// is not UTF-8 is no prose file of ours.
pub fn prose_file(path: &std::path::Path) -> Option<&'static ProseFile> {
    let names: Vec<&str> = path
        .components()
        .filter_map(|c| c.as_os_str().to_str())
        .collect();
    let (file, folders) = names.split_last()?;
    PROSE_FILES.iter().find(|row| match row.place {
        ProsePlace::Named(name) => *file == name,
        ProsePlace::In { folder, name } => *file == name && folders.last() == Some(&folder),
        ProsePlace::Below {
            folders: [outer, inner],
            suffix,
            nested,
        } => {
            if !file.ends_with(suffix) || file.len() == suffix.len() {
                return false;
            }
            let direct = folders.len() >= 2
                && folders[folders.len() - 2] == outer
                && folders[folders.len() - 1] == inner;
            direct
                || (nested
                    && folders
                        .windows(2)
                        .any(|pair| pair[0] == outer && pair[1] == inner))
        }
    })
}

/// A host's built-in slash commands, as its command reference lists them (aliases included).
/// A `/name` naming one of these, and no skill or command the file's hosts see, is the host's
/// command, not a mention. Bundled skills (Claude Code's `/simplify`, `/loop`, ...) are listed
/// with the commands: they ship with the host and no file of the workspace defines them.
#[derive(Debug)]
pub struct BuiltinCommands {
    pub host: Host,
    pub names: &'static [&'static str],
    pub source: &'static str,
    pub checked: &'static str,
}

pub const BUILTIN_COMMANDS: &[BuiltinCommands] = &[
    BuiltinCommands {
        host: Host::ClaudeCode,
        names: &[
            "add-dir",
            "advisor",
            "agents",
            "allowed-tools",
            "android",
            "app",
            "autofix-pr",
            "background",
            "bashes",
            "bg",
            "branch",
            "btw",
            "bug",
            "cd",
            "checkpoint",
            "chrome",
            "clear",
            "color",
            "compact",
            "config",
            "context",
            "continue",
            "copy",
            "cost",
            "design-login",
            "desktop",
            "diff",
            "effort",
            "exit",
            "export",
            "fast",
            "feedback",
            "focus",
            "fork",
            "goal",
            "heapdump",
            "help",
            "hooks",
            "ide",
            "init",
            "insights",
            "install-github-app",
            "install-slack-app",
            "ios",
            "keybindings",
            "login",
            "logout",
            "mcp",
            "memory",
            "mobile",
            "model",
            "new",
            "passes",
            "permissions",
            "plan",
            "plugin",
            "powerup",
            "pr-comments",
            "privacy-settings",
            "quit",
            "radio",
            "rc",
            "recap",
            "release-notes",
            "reload-plugins",
            "reload-skills",
            "remote-control",
            "remote-env",
            "rename",
            "reset",
            "resume",
            "review",
            "rewind",
            "routines",
            "sandbox",
            "schedule",
            "scroll-speed",
            "security-review",
            "settings",
            "setup-bedrock",
            "setup-vertex",
            "share",
            "skills",
            "stats",
            "status",
            "statusline",
            "stickers",
            "stop",
            "tasks",
            "team-onboarding",
            "teleport",
            "terminal-setup",
            "theme",
            "tp",
            "tui",
            "ultraplan",
            "ultrareview",
            "undo",
            "upgrade",
            "usage",
            "usage-credits",
            "vim",
            "voice",
            "web-setup",
            "workflows",
        ],
        source: CLAUDE_COMMANDS_DOCS,
        checked: CHECKED,
    },
    // Claude Code's bundled skills: prompt-based, shipped with the host.
    BuiltinCommands {
        host: Host::ClaudeCode,
        names: &[
            "batch",
            "checkup",
            "claude-api",
            "code-review",
            "dataviz",
            "debug",
            "deep-research",
            "design-sync",
            "doctor",
            "fewer-permission-prompts",
            "loop",
            "proactive",
            "run",
            "run-skill-generator",
            "simplify",
            "verify",
        ],
        source: CLAUDE_COMMANDS_DOCS,
        checked: CHECKED,
    },
    BuiltinCommands {
        host: Host::Codex,
        names: &[
            "agent",
            "agents",
            "approvals",
            "approve",
            "apps",
            "clean",
            "clear",
            "collab",
            "compact",
            "copy",
            "debug-config",
            "diff",
            "exit",
            "experimental",
            "fast",
            "feedback",
            "fork",
            "goal",
            "hooks",
            "ide",
            "init",
            "keymap",
            "logout",
            "mcp",
            "memories",
            "mention",
            "model",
            "new",
            "permissions",
            "personality",
            "plan",
            "plugins",
            "ps",
            "quit",
            "raw",
            "rename",
            "resume",
            "review",
            "rollout",
            "sandbox-add-read-dir",
            "setup-default-sandbox",
            "side",
            "skills",
            "status",
            "statusline",
            "stop",
            "subagents",
            "theme",
            "title",
            "undo",
            "vim",
        ],
        source: CODEX_COMMANDS_DOCS,
        checked: CHECKED,
    },
    BuiltinCommands {
        host: Host::Copilot,
        names: &[
            "add-dir",
            "agent",
            "allow-all",
            "cd",
            "changelog",
            "clear",
            "compact",
            "context",
            "cwd",
            "delegate",
            "diff",
            "env",
            "exit",
            "experimental",
            "feedback",
            "fleet",
            "help",
            "ide",
            "init",
            "instructions",
            "list-dirs",
            "login",
            "logout",
            "lsp",
            "mcp",
            "model",
            "new",
            "plan",
            "plugin",
            "pr",
            "quit",
            "rename",
            "research",
            "reset-allowed-tools",
            "resume",
            "review",
            "rewind",
            "session",
            "share",
            "skills",
            "tasks",
            "terminal-setup",
            "theme",
            "undo",
            "usage",
            "user",
            "yolo",
        ],
        source: COPILOT_CLI_COMMANDS_DOCS,
        checked: CHECKED,
    },
    // VS Code's chat: its own commands beside the Copilot CLI's.
    BuiltinCommands {
        host: Host::Copilot,
        names: &[
            "agents",
            "clear",
            "compact",
            "create-agent",
            "create-instructions",
            "create-prompt",
            "create-skill",
            "explain",
            "fix",
            "fork",
            "help",
            "hooks",
            "init",
            "instructions",
            "models",
            "new",
            "newNotebook",
            "plan",
            "prompts",
            "savePrompt",
            "search",
            "setupTests",
            "skills",
            "startDebugging",
            "tests",
            "troubleshoot",
        ],
        source: "https://code.visualstudio.com/docs/copilot/reference/copilot-vscode-features",
        checked: CHECKED,
    },
    BuiltinCommands {
        host: Host::OpenCode,
        names: &[
            "agents",
            "clear",
            "compact",
            "connect",
            "continue",
            "copy",
            "details",
            "editor",
            "exit",
            "export",
            "fork",
            "help",
            "init",
            "mcps",
            "models",
            "new",
            "q",
            "quit",
            "redo",
            "rename",
            "resume",
            "sessions",
            "share",
            "skills",
            "status",
            "summarize",
            "themes",
            "thinking",
            "timeline",
            "undo",
            "unshare",
        ],
        source: OPENCODE_TUI_DOCS,
        checked: CHECKED,
    },
    BuiltinCommands {
        host: Host::GeminiCli,
        names: &[
            "about",
            "agents",
            "auth",
            "bashes",
            "bug",
            "chat",
            "clear",
            "commands",
            "compress",
            "copy",
            "corgi",
            "dir",
            "directory",
            "docs",
            "editor",
            "exit",
            "extensions",
            "help",
            "hooks",
            "ide",
            "init",
            "mcp",
            "memory",
            "model",
            "permissions",
            "plan",
            "policies",
            "privacy",
            "quit",
            "restore",
            "resume",
            "rewind",
            "settings",
            "setup-github",
            "shells",
            "skills",
            "stats",
            "terminal-setup",
            "theme",
            "tools",
            "upgrade",
            "usage",
            "vim",
        ],
        source: GEMINI_COMMANDS_DOCS,
        checked: CHECKED,
    },
    BuiltinCommands {
        host: Host::Cursor,
        names: &[
            "about",
            "ask",
            "auto-run",
            "best-of-n",
            "commands",
            "compress",
            "config",
            "copy-req-id",
            "debug",
            "feedback",
            "help",
            "logout",
            "max-mode",
            "mcp",
            "model",
            "multitask",
            "new-chat",
            "plan",
            "quit",
            "resume",
            "rules",
            "sandbox",
            "setup-terminal",
            "shell",
            "statusline",
            "theme",
            "usage",
            "vim",
            "worktree",
        ],
        source: CURSOR_COMMANDS_DOCS,
        checked: CHECKED,
    },
];

/// Is `/name` a built-in command of any host? Every host's list counts, whatever hosts load
/// the file: prose written for one host is often read by another, and `/help` is nobody's
/// skill.
pub fn is_builtin_command(name: &str) -> bool {
    BUILTIN_COMMANDS.iter().any(|row| row.names.contains(&name))
}

/// The hosts that document `/name` as a built-in.
pub fn builtin_hosts(name: &str) -> Vec<Host> {
    let mut hosts: Vec<Host> = BUILTIN_COMMANDS
        .iter()
        .filter(|row| row.names.contains(&name))
        .map(|row| row.host)
        .collect();
    hosts.dedup();
    hosts
}

/// Folders whose Markdown files define invocable commands, per host, besides skills. Only
/// Claude Code's are read as commands today; the others are recorded so that a mention of a
/// command defined there is not mistaken for a missing skill.
#[derive(Debug)]
pub struct CommandFolder {
    pub folders: [&'static str; 2],
    pub extension: &'static str,
    pub host: Host,
    pub source: &'static str,
    pub checked: &'static str,
}

pub const COMMAND_FOLDERS: &[CommandFolder] = &[
    CommandFolder {
        folders: [".claude", "commands"],
        extension: "md",
        host: Host::ClaudeCode,
        source: CLAUDE_SKILLS_DOCS,
        checked: CHECKED,
    },
    CommandFolder {
        folders: [".opencode", "commands"],
        extension: "md",
        host: Host::OpenCode,
        source: "https://opencode.ai/docs/commands/",
        checked: CHECKED,
    },
    CommandFolder {
        folders: [".gemini", "commands"],
        extension: "toml",
        host: Host::GeminiCli,
        source: "https://geminicli.com/docs/cli/custom-commands/",
        checked: CHECKED,
    },
    CommandFolder {
        folders: [".cursor", "commands"],
        extension: "md",
        host: Host::Cursor,
        source: "https://cursor.com/docs/agent/chat/commands",
        checked: CHECKED,
    },
    CommandFolder {
        folders: [".github", "prompts"],
        extension: "prompt.md",
        host: Host::Copilot,
        source: VS_CODE_PROMPTS_DOCS,
        checked: CHECKED,
    },
];

/// When a legacy command and a skill share a name, Claude Code runs the skill (the only host
/// that documents both in one namespace).
pub const SKILL_WINS_OVER_COMMAND: (Host, &str) = (Host::ClaudeCode, CLAUDE_SKILLS_DOCS);

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn every_row_has_a_source_and_the_date() {
        for row in PROSE_FILES {
            assert!(row.source.starts_with("https://") && row.checked == CHECKED);
            assert!(!row.hosts.is_empty());
        }
        for row in BUILTIN_COMMANDS {
            assert!(row.source.starts_with("https://") && row.checked == CHECKED);
            let mut sorted = row.names.to_vec();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(
                sorted.len(),
                row.names.len(),
                "{:?} repeats a name",
                row.host
            );
        }
        for row in COMMAND_FOLDERS {
            assert!(row.source.starts_with("https://") && row.checked == CHECKED);
        }
    }

    #[test]
    fn prose_files_by_place() {
        let kind = |p: &str| prose_file(Path::new(p)).map(|row| row.kind);
        assert_eq!(kind("CLAUDE.md"), Some(ProseKind::Instructions));
        assert_eq!(kind("a/b/AGENTS.md"), Some(ProseKind::Instructions));
        assert_eq!(kind("GEMINI.md"), Some(ProseKind::Instructions));
        assert_eq!(
            kind(".github/copilot-instructions.md"),
            Some(ProseKind::Instructions)
        );
        assert_eq!(kind("docs/copilot-instructions.md"), None);
        assert_eq!(
            kind(".github/instructions/rust/x.instructions.md"),
            Some(ProseKind::Instructions)
        );
        assert_eq!(kind(".github/instructions/x.md"), None);
        assert_eq!(kind(".github/prompts/x.prompt.md"), Some(ProseKind::Prompt));
        assert_eq!(kind(".github/prompts/a/x.prompt.md"), None);
        assert_eq!(kind(".claude/commands/x.md"), Some(ProseKind::Command));
        assert_eq!(kind(".claude/commands/git/x.md"), Some(ProseKind::Command));
        assert_eq!(kind(".claude/agents/x.md"), Some(ProseKind::Subagent));
        assert_eq!(kind(".claude/agents/a/x.md"), None);
        assert_eq!(kind("README.md"), None);
        assert_eq!(kind(".claude/commands/.md"), None);
    }

    #[test]
    fn builtins() {
        for name in ["help", "compact", "model", "pr", "clear", "init", "review"] {
            assert!(is_builtin_command(name), "{name}");
        }
        assert!(!is_builtin_command("release-notes-writer"));
        assert_eq!(builtin_hosts("delegate"), [Host::Copilot]);
    }
}
