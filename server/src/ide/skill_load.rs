//! The skill as a host loads it, in the editor: the load cost shown on hover over the
//! frontmatter's `name` (the listing, the body, the bundled files), what an argument placeholder
//! of the body becomes (Claude Code), and the declared arguments offered after `$` in the body.

use std::path::Path;

use super::answers::{CompletionItem, CompletionKind, HoverResult};
use crate::diagnostic::FileId;
use crate::graph::path::thousands;
use crate::index::{Content, FileEntry, Index, Lookup};
use crate::model::arguments::{declared, placeholders, takes_arguments, Placeholder};
use crate::model::hosts::{Host, BODY_LINES, BODY_TOKENS, CLAUDE_CODE_LISTING_CHARS};
use crate::model::skill_body::{BodyCost, CHARS_PER_TOKEN};
use crate::model::skill_md::SkillMd;

/// Most bundled files the load cost lists by name; the rest are counted.
const SHOWN_FILES: usize = 10;

/// The load cost of a skill, as Markdown: the listing characters as `skillmd.listing-budget`
/// counts them, the body's estimated tokens and its lines, and the bundled files by size.
pub fn load_cost(index: &Index, entry: &FileEntry, skill: &SkillMd) -> String {
    let mut text = String::from("**Load cost**");
    match crate::rules::skill_hosts::listing_chars(skill) {
        Some((_, chars)) => {
            text.push_str(&format!(
                "\n- listing: {} of {} characters (`description` and `when_to_use`, as Claude Code's skill listing counts them){}",
                thousands(chars),
                thousands(CLAUDE_CODE_LISTING_CHARS),
                if chars > CLAUDE_CODE_LISTING_CHARS { ", past the cut" } else { "" }
            ));
        }
        None => text.push_str("\n- listing: no `description` to list"),
    }
    match crate::model::skill_links::body_start(&entry.text, &skill.frontmatter) {
        Some(start) => {
            let cost = BodyCost::of(&entry.text, start);
            text.push_str(&format!(
                "\n- body: about {} tokens (an estimate: {CHARS_PER_TOKEN} characters a token; the spec recommends at most {}) and {} (guidance: at most {})",
                thousands(cost.tokens()),
                thousands(BODY_TOKENS.limit),
                lines(cost.lines),
                thousands(BODY_LINES.limit),
            ));
        }
        None => text.push_str("\n- body: none"),
    }
    text.push_str(&bundled_by_size(index, &entry.path));
    text
}

/// The bundled files (everything in the folder but the SKILL.md), largest first.
fn bundled_by_size(index: &Index, skill_path: &Path) -> String {
    let Some(dir) = skill_path.parent() else {
        return String::new();
    };
    let Some(bundled) = Lookup::new(index).bundled(dir) else {
        return "\n- bundled files: not listed yet".to_owned();
    };
    let mut files: Vec<_> = bundled
        .files
        .iter()
        .filter(|f| f.path != Path::new(crate::index::classify::SKILL_MD))
        .collect();
    if files.is_empty() {
        return "\n- bundled files: none".to_owned();
    }
    let total: u64 = files.iter().map(|f| f.bytes).sum();
    files.sort_by(|a, b| b.bytes.cmp(&a.bytes).then_with(|| a.path.cmp(&b.path)));
    let mut text = format!(
        "\n- bundled files: {} ({}), read only when the body points at them:",
        files.len(),
        size(total)
    );
    for file in files.iter().take(SHOWN_FILES) {
        let lines = file
            .markdown
            .as_ref()
            .map(|m| format!(", {}", lines(m.lines as usize)))
            .unwrap_or_default();
        text.push_str(&format!(
            "\n  - `{}`: {}{lines}",
            file.path.display(),
            size(file.bytes)
        ));
    }
    let more = files.len().saturating_sub(SHOWN_FILES);
    if more > 0 {
        text.push_str(&format!("\n  - … {} more", thousands(more)));
    }
    text
}

/// "1 line", "1,204 lines".
fn lines(n: usize) -> String {
    if n == 1 {
        "1 line".to_owned()
    } else {
        format!("{} lines", thousands(n))
    }
}

/// "812 bytes", "12.5 KB", "3.1 MB" (1 KB = 1,024 bytes).
fn size(bytes: u64) -> String {
    const KB: u64 = 1024;
    if bytes < KB {
        format!("{bytes} bytes")
    } else if bytes < KB * KB {
        format!("{:.1} KB", bytes as f64 / KB as f64)
    } else {
        format!("{:.1} MB", bytes as f64 / (KB * KB) as f64)
    }
}

/// The slots `argument-hint` shows, in order: each `[…]` or `<…>` group, else each word.
pub fn hint_slots(hint: &str) -> Vec<String> {
    let mut slots = Vec::new();
    let mut rest = hint;
    while let Some(open) = rest.find(['[', '<']) {
        let close = if rest.as_bytes()[open] == b'[' {
            ']'
        } else {
            '>'
        };
        let Some(len) = rest[open + 1..].find(close) else {
            break;
        };
        let slot = rest[open + 1..open + 1 + len].trim();
        if !slot.is_empty() {
            slots.push(slot.to_owned());
        }
        rest = &rest[open + 1 + len + 1..];
    }
    if slots.is_empty() {
        slots = hint.split_whitespace().map(str::to_owned).collect();
    }
    slots
}

/// What the body of a skill says about its arguments: the declared names and the hint's slots,
/// for a skill Claude Code may load. `None` for any other skill.
struct Arguments {
    names: Vec<String>,
    hint: Option<String>,
    slots: Vec<String>,
    takes: bool,
}

fn arguments_of(index: &Index, entry: &FileEntry, skill: &SkillMd) -> Option<Arguments> {
    let lookup = Lookup::new(index);
    if !crate::rules::skill_hosts::hosts_of(&lookup, &entry.path).may_include(Host::ClaudeCode) {
        return None;
    }
    let start = crate::model::skill_links::body_start(&entry.text, &skill.frontmatter)?;
    let names: Vec<String> = declared(&entry.text, skill)
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    let hint = skill
        .field("argument-hint")
        .and_then(|f| f.value.shape.scalar())
        .map(|h| h.trim().to_owned())
        .filter(|h| !h.is_empty());
    let slots = hint.as_deref().map(hint_slots).unwrap_or_default();
    let takes = skill.field("arguments").is_some()
        || skill.field("argument-hint").is_some()
        || takes_arguments(skill, &placeholders(&entry.text, start));
    Some(Arguments {
        names,
        hint,
        slots,
        takes,
    })
}

impl Arguments {
    /// The argument at `at`, described from its declared name or the hint's slot.
    fn describe(&self, at: usize) -> String {
        match (self.names.get(at), self.slots.get(at)) {
            (Some(name), _) => format!("`{name}` (declared in `arguments`)"),
            (None, Some(slot)) => format!("`{slot}` (from `argument-hint`)"),
            (None, None) => "an argument neither `arguments` nor `argument-hint` names".to_owned(),
        }
    }
}

/// Hover on an argument placeholder of a SKILL.md body: what Claude Code puts in its place.
pub fn placeholder_hover(index: &Index, file: FileId, offset: u32) -> Option<HoverResult> {
    let entry = index.file(file)?;
    let Content::SkillMd(skill) = &entry.parsed.content else {
        return None;
    };
    let start = crate::model::skill_links::body_start(&entry.text, &skill.frontmatter)?;
    if (offset as usize) < start {
        return None;
    }
    // Only the line under the cursor is scanned for the placeholder; a line is read whole so
    // that its fences are known, which needs the body from its start.
    let occurrence = placeholders(&entry.text, start)
        .into_iter()
        .find(|o| o.range.start <= offset && offset <= o.range.end)?;
    let arguments = arguments_of(index, entry, skill)?;
    if !arguments.takes {
        return None;
    }
    let skill_name = skill.normalized_name().unwrap_or_default();
    let written = &entry.text[occurrence.range.start as usize..occurrence.range.end as usize];
    let mut markdown = match &occurrence.placeholder {
        Placeholder::All => {
            let mut text = format!(
                "**`{written}`** — Claude Code puts here everything typed after `/{skill_name}`"
            );
            if let Some(hint) = &arguments.hint {
                text.push_str(&format!(" (`argument-hint`: `{hint}`)"));
            }
            text
        }
        Placeholder::Index { at: None, .. } => format!(
            "**`{written}`** — an index no invocation reaches, so it stays as written"
        ),
        Placeholder::Index { at: Some(at), .. } => format!(
            "**`{written}`** — Claude Code puts here the argument at index {at} (0-based) of `/{skill_name}`: {}. With fewer arguments it stays as written.",
            arguments.describe(*at as usize)
        ),
        Placeholder::Named(name) => {
            let at = arguments.names.iter().position(|n| n == name)?;
            let mut text = format!(
                "**`{written}`** — Claude Code puts here the argument at index {at} (0-based) of `/{skill_name}`, declared in `arguments`"
            );
            if let Some(slot) = arguments.slots.get(at) {
                text.push_str(&format!(" (`argument-hint`: `{slot}`)"));
            }
            text.push_str(". Empty when it is not given.");
            text
        }
    };
    if occurrence.in_code() {
        markdown.push_str(
            "\n\nClaude Code substitutes inside code too; write `\\` before the `$` to keep it as written.",
        );
    }
    markdown.push_str(&format!(
        "\n\nSource: {} (checked {})",
        crate::model::hosts::CLAUDE_CODE_DOCS,
        crate::model::hosts::LOAD_FACTS_CHECKED
    ));
    Some(HoverResult {
        markdown,
        range: occurrence.range,
    })
}

/// The arguments offered after `$` in a SKILL.md body Claude Code may load: each declared name,
/// `ARGUMENTS`, and each index the hint names that no declared name covers.
pub fn argument_items(index: &Index, entry: &FileEntry) -> Vec<CompletionItem> {
    let Content::SkillMd(skill) = &entry.parsed.content else {
        return Vec::new();
    };
    let Some(arguments) = arguments_of(index, entry, skill) else {
        return Vec::new();
    };
    if !arguments.takes {
        return Vec::new();
    }
    let skill_name = skill.normalized_name().unwrap_or_default();
    let mut items = Vec::new();
    for (at, name) in arguments.names.iter().enumerate() {
        let hint = arguments
            .slots
            .get(at)
            .map(|slot| format!(" (`argument-hint`: `{slot}`)"))
            .unwrap_or_default();
        items.push(CompletionItem {
            label: name.clone(),
            documentation: Some(format!(
                "The argument at index {at} of `/{skill_name}`{hint}; empty when not given."
            )),
            detail: Some(format!("argument {at}")),
            kind: CompletionKind::Argument,
        });
    }
    items.push(CompletionItem {
        label: "ARGUMENTS".to_owned(),
        documentation: Some(format!("Everything typed after `/{skill_name}`.")),
        detail: Some("all arguments".to_owned()),
        kind: CompletionKind::Argument,
    });
    for (at, slot) in arguments
        .slots
        .iter()
        .enumerate()
        .skip(arguments.names.len())
    {
        items.push(CompletionItem {
            label: at.to_string(),
            documentation: Some(format!(
                "The argument at index {at} of `/{skill_name}`: `{slot}` (from `argument-hint`); stays as written when not given."
            )),
            detail: Some(format!("argument {at}: {slot}")),
            kind: CompletionKind::Argument,
        });
    }
    items
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ide::test_support::{fixture, FIX_SKILL};

    #[test]
    fn hint_slots_are_groups_or_words() {
        assert_eq!(hint_slots("[issue] [branch]"), ["issue", "branch"]);
        assert_eq!(hint_slots("<file> [--force]"), ["file", "--force"]);
        assert_eq!(
            hint_slots("issue-number branch"),
            ["issue-number", "branch"]
        );
        assert_eq!(hint_slots("[unclosed"), ["[unclosed"]);
        assert!(hint_slots("").is_empty());
    }

    #[test]
    fn sizes() {
        assert_eq!(size(812), "812 bytes");
        assert_eq!(size(12_800), "12.5 KB");
        assert_eq!(size(3_250_000), "3.1 MB");
    }

    fn hover_at(marked: &str) -> Option<String> {
        let f = fixture(marked);
        placeholder_hover(&f.index, f.cursor_file, f.offset).map(|h| h.markdown)
    }

    #[test]
    fn a_placeholder_says_what_it_becomes() {
        let named = hover_at(&FIX_SKILL.replace("$issue", "$is$0sue")).unwrap();
        assert!(
            named.contains("index 0") && named.contains("`argument-hint`: `issue`"),
            "{named}"
        );
        let index = hover_at(&FIX_SKILL.replace("$1", "$$01")).unwrap();
        assert!(
            index.contains("index 1") && index.contains("`branch` (declared in `arguments`)"),
            "{index}"
        );
        let hinted = hover_at(&FIX_SKILL.replace("$2", "$$02")).unwrap();
        assert!(
            hinted.contains("`reviewer` (from `argument-hint`)"),
            "{hinted}"
        );
        let all = hover_at(&FIX_SKILL.replace("$ARGUMENTS", "$ARG$0UMENTS")).unwrap();
        assert!(all.contains("everything typed after `/fix`"), "{all}");
        let code = hover_at(&FIX_SKILL.replace("`$bogus`", "`$$01`")).unwrap();
        assert!(code.contains("substitutes inside code too"), "{code}");
        // Not an argument: an undeclared name, the frontmatter.
        assert!(hover_at(&FIX_SKILL.replace("$bogus", "$bo$0gus")).is_none());
        assert!(hover_at(&FIX_SKILL.replace("name: fix", "name: f$0ix")).is_none());
    }

    #[test]
    fn no_placeholder_hover_where_arguments_are_not_taken_or_not_claude_code() {
        let plain = "//- /p/.claude/skills/x/SKILL.md\n---\nname: x\ndescription: X.\n---\nawk '{print $$01}'\n";
        assert!(hover_at(plain).is_none());
        let codex = FIX_SKILL
            .replace(".claude/skills", ".github/skills")
            .replace("$1", "$$01");
        assert!(hover_at(&codex).is_none());
    }

    #[test]
    fn completion_offers_declared_arguments_then_hinted_indices() {
        let f = fixture(&FIX_SKILL.replace("; `$bogus`.", " $0"));
        let entry = f.index.file(f.cursor_file).unwrap();
        let labels: Vec<String> = argument_items(&f.index, entry)
            .into_iter()
            .map(|i| i.label)
            .collect();
        assert_eq!(labels, ["issue", "branch", "ARGUMENTS", "2"]);
    }

    #[test]
    fn load_cost_counts_listing_body_and_files() {
        let f = fixture(&FIX_SKILL.replace("name: fix", "name: f$0ix"));
        let entry = f.index.file(f.cursor_file).unwrap();
        let Content::SkillMd(skill) = &entry.parsed.content else {
            unreachable!()
        };
        let text = load_cost(&f.index, entry, skill);
        assert!(text.contains("listing: 15 of 1,536 characters"), "{text}");
        assert!(
            text.contains("body: about 13 tokens (an estimate"),
            "{text}"
        );
        assert!(text.contains("and 1 line ("), "{text}");
        assert!(text.contains("bundled files: not listed yet"), "{text}");
    }
}
