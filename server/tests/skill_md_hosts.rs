//! Host rules, per host folder: which hosts load a skill (from its folder, a plugin manifest or
//! `[skill-md] hosts`), and the rules that follow from each host's documentation. Each rule
//! fires where its host reads the skill and stays silent where none does.

#[path = "support/text.rs"]
mod text;
use text::assert_contains;

#[path = "support/found.rs"]
mod found;

use found::{assert_silent, check_files as check, Found};
use skillgraph::diagnostic::Severity;

fn skill(name: &str, extra: &str) -> String {
    format!("---\nname: {name}\ndescription: Does one thing well.\n{extra}---\nBody.\n")
}

/// The diagnostics of one skill `pdf` at `path`, with `extra` in its frontmatter.
fn check_pdf(path: &str, extra: &str) -> Vec<Found> {
    check(&[(path, &skill("pdf", extra))])
}

fn codes(found: &[Found]) -> Vec<&'static str> {
    found.iter().map(|f| f.code).collect()
}

// ---------------------------------------------------------------------------------------------
// name-mismatch: VS Code and Copilot skip the skill, so there it is an error naming them

#[test]
fn name_mismatch_is_an_error_where_copilot_reads_the_skill() {
    for root in [".github/skills", ".claude/skills", ".agents/skills"] {
        let path = format!("/p/{root}/pdf/SKILL.md");
        let found = check(&[(&path, &skill("pdf-tools", ""))]);
        assert_eq!(codes(&found), ["skillmd.name-mismatch"], "{root}");
        assert_eq!(found[0].severity, Severity::Error, "{root}");
        assert_contains(&found[0].message, "VS Code/Copilot do not load");
    }
    for path in [
        "/p/.gemini/skills/pdf/SKILL.md",
        "/p/.opencode/skills/pdf/SKILL.md",
        "/p/.cursor/skills/pdf/SKILL.md",
        "/p/skills/pdf/SKILL.md",
    ] {
        let found = check(&[(path, &skill("pdf-tools", ""))]);
        assert_eq!(codes(&found), ["skillmd.name-mismatch"], "{path}");
        assert_eq!(found[0].severity, Severity::Warning, "{path}");
    }
}

#[test]
fn hosts_from_the_config_override_the_folder() {
    let config = "[skill-md]\nhosts = [\"copilot\"]\n";
    let found = check(&[
        ("/p/skillgraph.toml", config),
        ("/p/skills/pdf/SKILL.md", &skill("pdf-tools", "")),
    ]);
    assert_eq!(codes(&found), ["skillmd.name-mismatch"]);
    assert_eq!(found[0].severity, Severity::Error);
    assert_eq!(found[0].related.len(), 1, "points at `hosts`");
    let config = "[skill-md]\nhosts = [\"codex\"]\n";
    let found = check(&[
        ("/p/skillgraph.toml", config),
        ("/p/.github/skills/pdf/SKILL.md", &skill("pdf-tools", "")),
    ]);
    assert_eq!(found[0].severity, Severity::Warning);
}

// ---------------------------------------------------------------------------------------------
// Claude Code's fields: values, `agent` without `context: fork`, the listing budget

#[test]
fn claude_code_field_values() {
    let extra = "disable-model-invocation: \"true\"\nuser-invocable: no\neffort: extreme\ncontext: forked\nshell: zsh\npaths:\n  a: b\nallowed-tools: Read, Bash(git *), Grep.\n";
    let found = check(&[("/p/.claude/skills/pdf/SKILL.md", &skill("pdf", extra))]);
    let values: Vec<&str> = found
        .iter()
        .filter(|f| f.code == "skillmd.field-value")
        .map(|f| f.text.as_str())
        .collect();
    assert_eq!(
        values,
        ["\"true\"", "no", "extreme", "forked", "zsh", "a: b", "Grep."],
        "{found:#?}"
    );
    assert!(found
        .iter()
        .all(|f| f.severity == Severity::Warning && f.message.contains("code.claude.com")));
    let effort = found.iter().find(|f| f.text == "extreme").unwrap();
    assert_contains(&effort.message, "`xhigh`");

    let valid = "disable-model-invocation: true\nuser-invocable: false\neffort: xhigh\ncontext: fork\nagent: Explore\nshell: powershell\npaths: [\"src/**\"]\narguments: [issue, branch]\nwhen_to_use: When asked.\nallowed-tools:\n  - Read\n  - Bash(git add *)\n  - mcp__github__get_issue\n";
    let valid = skill("pdf", valid).replace("Body.", "Fix $issue on $branch.");
    let found = check(&[("/p/.claude/skills/pdf/SKILL.md", &valid)]);
    assert_silent(&found);
}

#[test]
fn host_fields_are_not_judged_where_their_host_does_not_read() {
    // Codex, OpenCode and Gemini CLI read `.agents/skills`; none of them uses `effort`.
    let found = check_pdf(
        "/p/.agents/skills/pdf/SKILL.md",
        "effort: extreme\nagent: Explore\n",
    );
    assert_silent(&found);
}

#[test]
fn agent_needs_context_fork() {
    let found = check_pdf("/p/.claude/skills/pdf/SKILL.md", "agent: Explore\n");
    assert_eq!(codes(&found), ["skillmd.agent-needs-fork"]);
    assert_eq!(found[0].text, "agent");
    let found = check_pdf(
        "/p/.claude/skills/pdf/SKILL.md",
        "context: fork\nagent: Explore\n",
    );
    assert_silent(&found);
}

#[test]
fn claude_code_listing_budget() {
    let long = "w".repeat(1000);
    let extra = format!("when_to_use: {long}\n");
    let text = format!(
        "---\nname: pdf\ndescription: {}\n{extra}---\n",
        "d".repeat(600)
    );
    let found = check(&[("/p/.claude/skills/pdf/SKILL.md", &text)]);
    assert_eq!(codes(&found), ["skillmd.listing-budget"], "{found:#?}");
    assert_contains(&found[0].message, "1600 characters");
    // A plugin's skills are Claude Code's too (its manifest is in the file set).
    let found = check(&[
        ("/plug/.claude-plugin/plugin.json", "{\"name\": \"plug\"}"),
        ("/plug/skills/pdf/SKILL.md", &text),
    ]);
    assert_eq!(codes(&found), ["skillmd.listing-budget"], "{found:#?}");
    assert_eq!(found[0].related.len(), 1);
    // Not Claude Code's: no budget. Within it: silent.
    assert!(check(&[("/p/.gemini/skills/pdf/SKILL.md", &text)]).is_empty());
    assert!(check(&[("/plug/skills/pdf/SKILL.md", &text)]).is_empty());
    let short = format!("---\nname: pdf\ndescription: {}\n---\n", "d".repeat(900));
    assert!(check(&[("/p/.claude/skills/pdf/SKILL.md", &short)]).is_empty());
}

// ---------------------------------------------------------------------------------------------
// claude.ai and the API: reserved words and XML tags, only where they are the hosts

#[test]
fn claude_api_reserved_words_and_xml() {
    let config = (
        "/p/skillgraph.toml",
        "[skill-md]\nhosts = [\"claude-api\"]\n",
    );
    let text = "---\nname: claude-helper\ndescription: Use <example>this</example> well.\n---\n";
    let found = check(&[config, ("/p/skills/claude-helper/SKILL.md", text)]);
    assert_eq!(
        codes(&found),
        ["skillmd.reserved-word", "skillmd.description-xml"],
        "{found:#?}"
    );
    assert!(found[0].message.contains("\"claude\""));
    assert!(found[1].message.contains("`<example>`"));
    assert!(found.iter().all(|f| f.path.ends_with("SKILL.md")));
    // Elsewhere these hosts are not known to load the skill.
    assert!(check(&[("/p/.claude/skills/claude-helper/SKILL.md", text)]).is_empty());
    // Comparisons are not tags.
    let fine = "---\nname: helper\ndescription: Use when a < b and c > d.\n---\n";
    assert!(check(&[config, ("/p/skills/helper/SKILL.md", fine)]).is_empty());
}

// ---------------------------------------------------------------------------------------------
// shadowing across the folders one host reads

#[test]
fn one_host_reading_two_skills_of_one_name() {
    let found = check(&[
        ("/p/.claude/skills/pdf/SKILL.md", &skill("pdf", "")),
        ("/p/.agents/skills/pdf/SKILL.md", &skill("pdf", "")),
    ]);
    assert_eq!(
        codes(&found),
        ["skillmd.shadowed", "skillmd.shadowed"],
        "{found:#?}"
    );
    assert_contains(&found[0].message, "OpenCode");
    assert!(found.iter().all(|f| f.related.len() == 1));
    // `.gemini/skills` and `.cursor/skills` share no host.
    assert!(check(&[
        ("/p/.gemini/skills/pdf/SKILL.md", &skill("pdf", "")),
        ("/p/.cursor/skills/pdf/SKILL.md", &skill("pdf", "")),
    ])
    .is_empty());
    // Two projects do not shadow each other.
    assert!(check(&[
        ("/a/.claude/skills/pdf/SKILL.md", &skill("pdf", "")),
        ("/b/.agents/skills/pdf/SKILL.md", &skill("pdf", "")),
    ])
    .is_empty());
}

#[test]
fn unknown_hosts_in_the_config_are_reported() {
    let found = check(&[("/p/skillgraph.toml", "[skill-md]\nhosts = [\"vim\"]\n")]);
    assert_eq!(codes(&found), ["config.invalid"]);
    assert_eq!(found[0].text, "\"vim\"");
}
