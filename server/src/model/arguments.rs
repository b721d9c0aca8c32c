//! Claude Code's argument placeholders in a SKILL.md body, read as Claude Code reads them
//! (`model::hosts::CLAUDE_CODE_ARGUMENT_FACTS`): `$ARGUMENTS`, `$ARGUMENTS[N]`, `$N` (`$` and
//! digits not followed by a letter, digit or `_`), and `$name` for a name the `arguments` field
//! declares. Substitution runs over the whole body, code included; `\$` keeps a `$` literal.
//! Each placeholder is found with where it sits (prose, inline code, a fenced block and its
//! language) and the line around it, which is what telling a placeholder from shell or regex
//! syntax needs.

use crate::syntax::TextRange;

use super::skill_md::SkillMd;

/// What a placeholder stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Placeholder {
    /// `$ARGUMENTS`: everything typed after `/name`.
    All,
    /// `$ARGUMENTS[N]` (`indexed`) or `$N`: the argument at 0-based index N; `None` when N does
    /// not fit in 32 bits (`$ARGUMENTS[99999999999]`, which no invocation reaches).
    Index { at: Option<u32>, indexed: bool },
    /// `$name`: any `$` and identifier; whether it is an argument depends on `arguments`.
    Named(String),
}

/// Where a placeholder is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Site {
    Prose,
    InlineCode,
    /// In a fenced block; its info string's first word, lower-cased (`bash`, `awk`, ``).
    Fenced(String),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Occurrence {
    pub placeholder: Placeholder,
    pub range: TextRange,
    pub site: Site,
    /// What it is read with: its inline code span, else its line.
    pub context: TextRange,
}

impl Occurrence {
    pub fn in_code(&self) -> bool {
        self.site != Site::Prose
    }
}

/// Every placeholder of the body (`text[start..]`), in order. One pass over each line.
pub fn placeholders(text: &str, start: usize) -> Vec<Occurrence> {
    let mut out = Vec::new();
    let mut fence: Option<(char, usize, String)> = None;
    let mut at = start.min(text.len());
    for line in super::skill_links::lines_with_ends(&text[at..]) {
        let line_start = at;
        at += line.len();
        let content = line.trim_end_matches(['\n', '\r']);
        let line_range = TextRange::new(line_start as u32, (line_start + content.len()) as u32);
        let trimmed = content.trim_start();
        if let Some((mark, len, _)) = &fence {
            let closes = trimmed.starts_with(&mark.to_string().repeat(*len))
                && trimmed.trim_start_matches(*mark).trim().is_empty();
            if closes {
                fence = None;
            } else {
                let site = Site::Fenced(fence.as_ref().map(|f| f.2.clone()).unwrap_or_default());
                scan(
                    content,
                    line_start,
                    |_| (site.clone(), line_range),
                    &mut out,
                );
            }
            continue;
        }
        if let Some(mark) = ['`', '~']
            .into_iter()
            .find(|m| trimmed.starts_with(&m.to_string().repeat(3)))
        {
            let len = trimmed.chars().take_while(|&c| c == mark).count();
            let info = trimmed[len..]
                .split_whitespace()
                .next()
                .unwrap_or("")
                .trim_start_matches('{')
                .to_ascii_lowercase();
            fence = Some((mark, len, info));
            continue;
        }
        // Inline code spans on this line: the byte ranges between matching backtick runs.
        let spans = code_spans(content);
        scan(
            content,
            line_start,
            |offset| match spans.iter().find(|&&(s, e)| s <= offset && offset < e) {
                Some(&(s, e)) => (
                    Site::InlineCode,
                    TextRange::new((line_start + s) as u32, (line_start + e) as u32),
                ),
                None => (Site::Prose, line_range),
            },
            &mut out,
        );
    }
    out
}

/// The inline code spans of a line, as byte ranges of the line.
fn code_spans(line: &str) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut i = 0;
    while let Some(tick) = line[i..].find('`') {
        i += tick;
        let run = line[i..].bytes().take_while(|&b| b == b'`').count();
        let ticks = &line[i..i + run];
        match line[i + run..].find(ticks) {
            Some(len) => {
                spans.push((i + run, i + run + len));
                i += run + len + run;
            }
            None => i += run,
        }
    }
    spans
}

fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

fn scan(
    line: &str,
    line_start: usize,
    site_at: impl Fn(usize) -> (Site, TextRange),
    out: &mut Vec<Occurrence>,
) {
    let bytes = line.as_bytes();
    let mut i = 0;
    while let Some(dollar) = line[i..].find('$') {
        i += dollar;
        // `\$` keeps the `$` literal.
        if i > 0 && bytes[i - 1] == b'\\' {
            i += 1;
            continue;
        }
        let rest = &line[i + 1..];
        let word = rest.bytes().take_while(|&b| is_word(b)).count();
        let (placeholder, len) = if let Some(after) = rest.strip_prefix("ARGUMENTS[") {
            let digits = after.bytes().take_while(u8::is_ascii_digit).count();
            if digits > 0 && after[digits..].starts_with(']') {
                let at = after[..digits].parse::<u32>().ok();
                (
                    Placeholder::Index { at, indexed: true },
                    1 + "ARGUMENTS[".len() + digits + 1,
                )
            } else {
                (Placeholder::All, 1 + "ARGUMENTS".len())
            }
        } else if word == "ARGUMENTS".len() && rest.starts_with("ARGUMENTS") {
            (Placeholder::All, 1 + word)
        } else if word > 0 && rest.as_bytes()[0].is_ascii_digit() {
            let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
            if digits < word {
                // `$1abc`: digits then letters, no placeholder.
                i += 1 + word;
                continue;
            }
            let at = rest[..digits].parse::<u32>().ok();
            (Placeholder::Index { at, indexed: false }, 1 + digits)
        } else if word > 0 && !rest.as_bytes()[0].is_ascii_digit() {
            (Placeholder::Named(rest[..word].to_owned()), 1 + word)
        } else {
            i += 1;
            continue;
        };
        let (site, context) = site_at(i);
        out.push(Occurrence {
            placeholder,
            range: TextRange::new((line_start + i) as u32, (line_start + i + len) as u32),
            site,
            context,
        });
        i += len;
    }
}

/// The names `arguments` declares, in order, each with its range: a list of names, or a string
/// of names separated by spaces or commas.
pub fn declared(text: &str, skill: &SkillMd) -> Vec<(String, TextRange)> {
    let Some(field) = skill.field("arguments") else {
        return Vec::new();
    };
    let value = &field.value;
    if !value.items.is_empty() {
        return value
            .items
            .iter()
            .filter_map(|item| {
                let name = item.shape.scalar()?.trim();
                (!name.is_empty()).then(|| (name.to_owned(), item.range))
            })
            .collect();
    }
    let Some(scalar) = value.shape.scalar() else {
        return Vec::new();
    };
    let written =
        &text[value.range.start as usize..value.range.end.min(text.len() as u32) as usize];
    let base = written
        .find(scalar)
        .map(|at| value.range.start as usize + at);
    let mut out = Vec::new();
    let mut offset = 0;
    for part in scalar.split([' ', ',', '\t']) {
        if !part.is_empty() {
            let range = match base {
                Some(base) => {
                    TextRange::new((base + offset) as u32, (base + offset + part.len()) as u32)
                }
                None => value.range,
            };
            out.push((part.to_owned(), range));
        }
        offset += part.len() + 1;
    }
    out
}

/// Whether the skill takes arguments (Claude Code): it declares `arguments` or `argument-hint`,
/// or its body uses `$ARGUMENTS` in some form.
pub fn takes_arguments(skill: &SkillMd, found: &[Occurrence]) -> bool {
    skill.field("arguments").is_some()
        || skill.field("argument-hint").is_some()
        || found.iter().any(|o| {
            matches!(
                o.placeholder,
                Placeholder::All | Placeholder::Index { indexed: true, .. }
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<(String, Placeholder, Site)> {
        placeholders(text, 0)
            .into_iter()
            .map(|o| {
                (
                    text[o.range.start as usize..o.range.end as usize].to_owned(),
                    o.placeholder,
                    o.site,
                )
            })
            .collect()
    }

    #[test]
    fn forms_sites_and_escapes() {
        let text = "Fix $ARGUMENTS[0] in $1 for $issue, `$0`, \\$2 and $ARGUMENTS. $0.01 $1abc $\n\
```awk\n{ print $1 }\n```\n";
        let got = found(text);
        let index = |at, indexed| Placeholder::Index {
            at: Some(at),
            indexed,
        };
        assert_eq!(
            got,
            [
                ("$ARGUMENTS[0]".into(), index(0, true), Site::Prose),
                ("$1".into(), index(1, false), Site::Prose),
                (
                    "$issue".into(),
                    Placeholder::Named("issue".into()),
                    Site::Prose
                ),
                ("$0".into(), index(0, false), Site::InlineCode),
                ("$ARGUMENTS".into(), Placeholder::All, Site::Prose),
                // As the host reads it: `$0` then `.01`.
                ("$0".into(), index(0, false), Site::Prose),
                ("$1".into(), index(1, false), Site::Fenced("awk".into())),
            ]
        );
    }

    #[test]
    fn an_index_past_32_bits_is_kept_without_a_number() {
        let got = found("$ARGUMENTS[99999999999] and $99999999999");
        assert_eq!(
            got[0].1,
            Placeholder::Index {
                at: None,
                indexed: true
            }
        );
        assert_eq!(got[1].0, "$99999999999");
        // A line of four million dollars is one pass.
        assert_eq!(placeholders(&"$".repeat(4_000_000), 0).len(), 0);
        assert_eq!(placeholders(&"$1".repeat(1_000_000), 0).len(), 1_000_000);
    }
}
