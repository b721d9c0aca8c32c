//! A prose file the hosts load beside skills (`CLAUDE.md`, `AGENTS.md`, `GEMINI.md`,
//! `.github/copilot-instructions.md`, `.github/instructions/*.instructions.md`,
//! `.github/prompts/*.prompt.md`, `.claude/commands/**/*.md`, `.claude/agents/*.md`), lowered:
//! its kind (from `model::hosts::prose`), its frontmatter's top-level keys with spans (commands,
//! prompts and subagents have one), a subagent's `name`, `description` and `skills:` entries,
//! and the mentions of its body. Lowering never fails.

use super::hosts::prose::ProseKind;
use super::mentions::{scan_from, Mention};
use super::{scalar_list, spanned_scalar, SpannedStr};
use crate::syntax::{Frontmatter, TextRange, YamlDocument};

#[derive(Clone, Debug, PartialEq)]
pub struct Prose {
    pub kind: ProseKind,
    pub frontmatter: Frontmatter,
    /// The frontmatter's top-level keys, in order.
    pub keys: Vec<SpannedStr>,
    pub name: Option<SpannedStr>,
    pub description: Option<SpannedStr>,
    /// A subagent's `skills:` entries (a list, or one comma-separated string, split).
    pub skills: Vec<SpannedStr>,
    /// Where the body starts (after the frontmatter, else 0).
    pub body_start: u32,
    /// The body's mentions, with ranges in the whole file.
    pub mentions: Vec<Mention>,
}

impl Prose {
    pub fn lower(
        kind: ProseKind,
        text: &str,
        frontmatter: Frontmatter,
        yaml: Option<&YamlDocument>,
    ) -> Prose {
        let body_start = match &frontmatter {
            Frontmatter::Closed { .. } => {
                super::skill_links::body_start(text, &frontmatter).unwrap_or(text.len())
            }
            _ => 0,
        };
        let mentions = scan_from(text, body_start);
        let mut prose = Prose {
            kind,
            frontmatter,
            keys: Vec::new(),
            name: None,
            description: None,
            skills: Vec::new(),
            body_start: body_start as u32,
            mentions,
        };
        let Some(root) = yaml.and_then(YamlDocument::root).filter(|r| r.is_mapping()) else {
            return prose;
        };
        for (key, _) in root.entries() {
            if let Some(text) = key.scalar() {
                prose
                    .keys
                    .push(SpannedStr::new(text.to_owned(), key.range()));
            }
        }
        prose.name = root.get("name").and_then(spanned_scalar);
        prose.description = root.get("description").and_then(spanned_scalar);
        let skills = root.get("skills");
        prose.skills = match skills {
            Some(node) if !node.is_sequence() => spanned_scalar(node)
                .map(|whole| split_commas(&whole))
                .unwrap_or_default(),
            _ => scalar_list(skills),
        };
        prose
    }

    /// The frontmatter key `key`, if written.
    pub fn key(&self, key: &str) -> Option<&SpannedStr> {
        self.keys.iter().find(|k| k.value == key)
    }
}

/// `skills: a, b` as two entries with their ranges. A quoted scalar's range includes its quote,
/// which the offsets below skip only for plain scalars; a quoted list is rare and its entries
/// then keep the whole scalar's range.
fn split_commas(whole: &SpannedStr) -> Vec<SpannedStr> {
    let text = &whole.value;
    let plain = whole.range.len() as usize == text.len();
    let mut out = Vec::new();
    let mut offset = 0;
    for part in text.split(',') {
        let trimmed = part.trim();
        if !trimmed.is_empty() {
            let lead = part.len() - part.trim_start().len();
            let range = if plain {
                let start = whole.range.start + (offset + lead) as u32;
                TextRange::new(start, start + trimmed.len() as u32)
            } else {
                whole.range
            };
            out.push(SpannedStr::new(trimmed.to_owned(), range));
        }
        offset += part.len() + 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::{frontmatter_yaml, split_frontmatter};

    fn lower(kind: ProseKind, text: &str) -> Prose {
        let frontmatter = split_frontmatter(text, 0);
        let yaml = frontmatter_yaml(text, &frontmatter);
        Prose::lower(kind, text, frontmatter, yaml.as_ref())
    }

    fn at(text: &str, range: TextRange) -> &str {
        &text[range.start as usize..range.end as usize]
    }

    #[test]
    fn a_subagent_with_its_fields_and_mentions() {
        let text = "---\nname: reviewer\ndescription: Reviews.\nskills: lint, pdf-tools\ncolor: red\n---\nUse /deploy then $pdf-tools.\n";
        let prose = lower(ProseKind::Subagent, text);
        assert_eq!(
            prose.name.as_ref().map(|n| n.value.as_str()),
            Some("reviewer")
        );
        let skills: Vec<&str> = prose.skills.iter().map(|s| at(text, s.range)).collect();
        assert_eq!(skills, ["lint", "pdf-tools"]);
        let keys: Vec<&str> = prose.keys.iter().map(|k| k.value.as_str()).collect();
        assert_eq!(keys, ["name", "description", "skills", "color"]);
        let mentions: Vec<&str> = prose.mentions.iter().map(|m| at(text, m.range)).collect();
        assert_eq!(mentions, ["/deploy", "$pdf-tools"]);
    }

    #[test]
    fn a_list_of_skills_and_a_file_without_frontmatter() {
        let text = "---\nname: a\nskills:\n  - one\n  - two\n---\n";
        let prose = lower(ProseKind::Subagent, text);
        let skills: Vec<&str> = prose.skills.iter().map(|s| at(text, s.range)).collect();
        assert_eq!(skills, ["one", "two"]);
        let text = "# Project\nRun /release-notes before tagging.\n";
        let prose = lower(ProseKind::Instructions, text);
        assert!(prose.keys.is_empty());
        assert_eq!(at(text, prose.mentions[0].range), "/release-notes");
    }
}
