//! Suppression comments: `# skillgraph: disable-next-line CODE[, CODE]` in YAML, TOML and SKILL.md
//! frontmatter, `<!-- skillgraph: disable-next-line CODE -->` in a SKILL.md body. A comment
//! silences the codes it names on the next line that is not itself such a comment (so several
//! may stand stacked above one line). A code that silences nothing there is
//! `suppression.unused`; a code no rule has is `suppression.unknown-code`. They are applied
//! where a file's diagnostics are finalised (`Index::diagnostics`), so `check` and the editor
//! agree, and cost one scan of the file's text per call (none when it holds no such comment).

use super::fixes::{blanks_after, blanks_before};
use super::rule_doc::RuleDoc;
use crate::diagnostic::{codes, Code, Diagnostic, FileId, Fix};
use crate::index::{Content, FileEntry, FileRole};
use crate::syntax::yaml::Style;
use crate::syntax::{LineIndex, Node, PositionEncoding, TextRange};

const MARKER: &str = "skillgraph: disable-next-line";

/// Where comments may stand in a file, and how they are written.
#[derive(Clone, Copy, Debug)]
pub enum Comments {
    /// `#` comments anywhere (YAML, TOML).
    Hash,
    /// A SKILL.md: `#` in the frontmatter (`yaml`, the bytes between the fences), HTML comments
    /// after the closing fence (`body_start`).
    SkillMd { yaml: TextRange, body_start: u32 },
    /// No comments (JSON).
    None,
}

/// One suppression comment.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Suppression {
    /// The whole line holding the comment, line break included.
    line_range: TextRange,
    /// The line whose diagnostics it silences (0-based).
    target: u32,
    /// Each code as written, with its range.
    codes: Vec<(String, TextRange)>,
}

/// The comment on a line, if it is a suppression: the codes text and where it starts.
fn parse_line(line: &str, html: bool) -> Option<(usize, &str)> {
    let indent = line.len() - line.trim_start().len();
    let trimmed = line.trim();
    let rest = if html {
        trimmed.strip_prefix("<!--")?.strip_suffix("-->")?
    } else {
        trimmed.strip_prefix('#')?
    };
    let lead = rest.len() - rest.trim_start().len();
    let codes = rest.trim_start().strip_prefix(MARKER)?;
    if !codes.is_empty() && !codes.starts_with([' ', '\t']) {
        return None;
    }
    let prefix = if html { 4 } else { 1 };
    Some((indent + prefix + lead + MARKER.len(), codes))
}

fn find(text: &str, comments: Comments) -> Vec<Suppression> {
    if matches!(comments, Comments::None) || !text.contains(MARKER) {
        return Vec::new();
    }
    let mut found: Vec<Suppression> = Vec::new();
    // Comments waiting for the line they apply to.
    let mut waiting: Vec<Suppression> = Vec::new();
    let mut line_start = 0usize;
    for (line_number, line) in text.split_inclusive('\n').enumerate() {
        let start = line_start;
        line_start += line.len();
        let content = line.trim_end_matches(['\n', '\r']);
        let html = match comments {
            Comments::Hash => Some(false),
            Comments::SkillMd { yaml, body_start } => {
                if start as u32 >= yaml.start && (start as u32) < yaml.end {
                    Some(false)
                } else if start as u32 >= body_start {
                    Some(true)
                } else {
                    None
                }
            }
            Comments::None => None,
        };
        let parsed = html.and_then(|html| parse_line(content, html));
        match parsed {
            Some((codes_at, codes)) => {
                let mut list = Vec::new();
                let mut offset = start + codes_at;
                for piece in codes.split(',') {
                    let code = piece.trim();
                    let lead = piece.len() - piece.trim_start().len();
                    if !code.is_empty() {
                        let at = (offset + lead) as u32;
                        list.push((code.to_owned(), TextRange::new(at, at + code.len() as u32)));
                    }
                    offset += piece.len() + 1;
                }
                waiting.push(Suppression {
                    line_range: TextRange::new(start as u32, line_start as u32),
                    target: 0,
                    codes: list,
                });
            }
            None => {
                for mut suppression in waiting.drain(..) {
                    suppression.target = line_number as u32;
                    found.push(suppression);
                }
            }
        }
    }
    // Comments with no line after them silence nothing; they are reported as unused.
    for mut suppression in waiting {
        suppression.target = u32::MAX;
        found.push(suppression);
    }
    found
}

/// Drops the diagnostics silenced by the file's suppression comments and adds a diagnostic for
/// each code that silences nothing or is unknown.
/// `line_index` is asked for only when the file holds a suppression comment: most files hold
/// none, and their line index need not be built.
pub fn apply<'i>(
    file: FileId,
    text: &str,
    line_index: impl FnOnce() -> &'i LineIndex,
    comments: Comments,
    diagnostics: Vec<Diagnostic>,
) -> Vec<Diagnostic> {
    let suppressions = find(text, comments);
    if suppressions.is_empty() {
        return diagnostics;
    }
    let line_index = line_index();
    let line_of = |offset: u32| {
        line_index
            .line_col(text, offset, PositionEncoding::Utf8)
            .line
    };
    // (target line, code) -> used? Codes no rule has are reported below instead.
    let mut used: std::collections::HashMap<(u32, Code), bool> = Default::default();
    for s in &suppressions {
        for code in s.codes.iter().filter_map(|(code, _)| codes::lookup(code)) {
            used.insert((s.target, code), false);
        }
    }
    let mut kept: Vec<Diagnostic> = diagnostics
        .into_iter()
        .filter(|d| match used.get_mut(&(line_of(d.range.start), d.code)) {
            Some(flag) => {
                *flag = true;
                false
            }
            None => true,
        })
        .collect();
    for s in &suppressions {
        for (code, range) in &s.codes {
            let known = codes::lookup(code);
            if known.is_none() {
                let names = codes::ALL.iter().map(|code| code.name());
                let best = super::suggest::closest(code, names);
                let hint = match best {
                    Some(best) => format!("did you mean `{best}`?"),
                    None => "docs/rules.md lists the codes".to_owned(),
                };
                let mut d = Diagnostic::new(
                    codes::SUPPRESSION_UNKNOWN_CODE,
                    file,
                    *range,
                    format!(
                        "no rule has the code `{code}`, so this comment silences nothing; {hint}"
                    ),
                );
                d.fixes.extend(best.map(|best| {
                    Fix::replace(
                        format!("Replace `{code}` with `{best}`"),
                        file,
                        *range,
                        best,
                    )
                    .preferred()
                }));
                kept.push(d);
            } else if known.is_some_and(|known| !used[&(s.target, known)]) {
                let mut d = Diagnostic::new(
                    codes::SUPPRESSION_UNUSED,
                    file,
                    *range,
                    format!("`{code}` is not reported on the next line, so this suppression silences nothing; remove it"),
                );
                d.fixes.push(
                    Fix::replace(
                        "Remove the unused suppression",
                        file,
                        removal(text, s, range),
                        "",
                    )
                    .preferred()
                    .safe(),
                );
                kept.push(d);
            }
        }
    }
    kept.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    kept
}

/// What to delete to drop one code of a comment: the whole comment line when it is the only
/// code, else the code with the comma that joins it to a neighbour.
fn removal(text: &str, suppression: &Suppression, range: &TextRange) -> TextRange {
    if suppression.codes.len() == 1 {
        return suppression.line_range;
    }
    let bytes = text.as_bytes();
    let end = blanks_after(bytes, range.end as usize);
    if end < bytes.len() && bytes[end] == b',' {
        let through = blanks_after(bytes, end + 1);
        return TextRange::new(range.start, through as u32);
    }
    // The last code: take the comma before it.
    let mut start = blanks_before(bytes, range.start as usize);
    if start > 0 && bytes[start - 1] == b',' {
        start -= 1;
    }
    TextRange::new(start as u32, range.end)
}

/// "Disable `code` on this line": a suppression comment inserted above the diagnostic's line,
/// indented as that line. `None` where no comment can stand: JSON, the frontmatter fences of a
/// SKILL.md, a diagnostic made after suppressions are applied, or a line a comment cannot start
/// on because a scalar of `yaml` (the file's tree, when it has one) runs across it.
pub fn disable_fix(
    text: &str,
    line_index: &LineIndex,
    comments: Comments,
    yaml: Option<Node<'_>>,
    diagnostic: &Diagnostic,
) -> Option<Fix> {
    // A broken file is fixed, not silenced: where a parser reports an error moves with the text
    // around it, so a comment above it need not stay on the line before. The body budget is
    // reported on the first line past the budget, so a comment line above it only moves it down
    // a line; it is turned off for those files in `skillgraph.toml`'s `[[overrides]]` instead.
    let unsilenceable = diagnostic.code.name().starts_with("suppression.")
        || diagnostic.code.name().starts_with("file.")
        || matches!(
            diagnostic.code,
            codes::WORKSPACE_YAML_PARSE
                | codes::SKILLMD_YAML_PARSE
                | codes::SKILLMD_NO_FRONTMATTER
                | codes::SKILLMD_UNCLOSED_FRONTMATTER
                | codes::SKILLMD_BODY_BUDGET
        );
    if unsilenceable {
        return None;
    }
    let line = line_index
        .line_col(text, diagnostic.range.start, PositionEncoding::Utf8)
        .line;
    let (start, end) = line_index.line_range(text, line)?;
    if yaml.is_some_and(|root| comment_would_be_text(root, diagnostic.range.start, start)) {
        return None;
    }
    let content = &text[start as usize..end as usize];
    let indent = &content[..content.len() - content.trim_start_matches([' ', '\t']).len()];
    let newline = if text.contains("\r\n") { "\r\n" } else { "\n" };
    let comment = match comments {
        Comments::None => return None,
        Comments::Hash => format!("{indent}# {MARKER} {}{newline}", diagnostic.code),
        Comments::SkillMd { yaml, body_start } => {
            if start >= yaml.start && start < yaml.end {
                format!("{indent}# {MARKER} {}{newline}", diagnostic.code)
            } else if start >= body_start {
                format!("<!-- {MARKER} {} -->{newline}", diagnostic.code)
            } else {
                return None;
            }
        }
    };
    Some(Fix::replace(
        format!("Disable `{}` on this line", diagnostic.code),
        diagnostic.file,
        TextRange::empty(start),
        comment,
    ))
}

/// Whether a comment inserted at `line_start` would be read as part of a scalar instead of as a
/// comment: the line is inside a block scalar (`|`, `>`) holding `flagged`, or a quoted or plain
/// scalar that began on an earlier line continues across it. A suppression comment only counts
/// on the line right above the flagged line, so there is no other place to put it.
fn comment_would_be_text(root: Node<'_>, flagged: u32, line_start: u32) -> bool {
    let in_block = root.path_to(flagged).last().is_some_and(|node| {
        node.style() == Some(Style::Block) && node.range().contains_inclusive(flagged)
    });
    let continued = root.path_to(line_start).last().is_some_and(|node| {
        node.scalar().is_some() && node.range().start < line_start && node.range().end > line_start
    });
    in_block || continued
}

pub const RULES: &[RuleDoc] = &[
    RuleDoc {
        code: codes::SUPPRESSION_UNUSED,
        summary: "A suppression comment names a code that is not reported on the next line.",
        explanation: "`# skillgraph: disable-next-line CODE` (or `<!-- skillgraph: disable-next-line CODE -->` in \
a SKILL.md body) silences CODE on the line below it. When nothing there is reported under that code (the problem \
was fixed, the line moved, or `[rules]` turns the code off), the comment only hides the next problem that appears. \
Remove the code from the comment, or the comment.",
    },
    RuleDoc {
        code: codes::SUPPRESSION_UNKNOWN_CODE,
        summary: "A suppression comment names a code no rule has.",
        explanation: "The codes a suppression comment may name are those of docs/rules.md; a misspelt code \
silences nothing. Fix the code (the message suggests the closest) or remove it.",
    },
];

/// Where a file may hold suppression comments.
pub fn comments_of(entry: &FileEntry) -> Comments {
    match (&entry.role, &entry.parsed.content) {
        (_, Content::SkillMd(skill)) => match &skill.frontmatter {
            crate::syntax::Frontmatter::Closed { yaml, close, .. } => {
                let after = &entry.text[close.end as usize..];
                let body_start =
                    close.end as usize + after.find('\n').map_or(after.len(), |i| i + 1);
                Comments::SkillMd {
                    yaml: *yaml,
                    body_start: body_start as u32,
                }
            }
            _ => Comments::None,
        },
        (FileRole::Json | FileRole::Unrelated | FileRole::PluginManifest(_), _) => Comments::None,
        _ => Comments::Hash,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The disable fix for a diagnostic starting at the first `at` in `text`, read as YAML.
    fn disable_at(text: &str, at: &str) -> Option<Fix> {
        let start = text.find(at).unwrap() as u32;
        let diagnostic = Diagnostic::new(
            codes::ARCHETYPE_MODEL_CONSTRUCTION,
            FileId(0),
            TextRange::new(start, start + at.len() as u32),
            "m",
        );
        let yaml = crate::syntax::YamlDocument::parse(text, 0);
        disable_fix(
            text,
            &LineIndex::new(text),
            Comments::Hash,
            yaml.root(),
            &diagnostic,
        )
    }

    #[test]
    fn the_disable_fix_never_puts_its_comment_inside_a_scalar() {
        // A block scalar's text starts on the line below its key: a comment there is text.
        assert!(disable_at("metadata:\n  id: |\n    greeter\n  name: G\n", "greeter").is_none());
        assert!(disable_at("metadata:\n  id: >-\n    greeter\n", "greeter").is_none());
        // A quoted or plain scalar flagged on a later line of its own.
        assert!(disable_at("metadata:\n  id: \"gree\n    ter\"\n", "ter\"").is_none());
        assert!(disable_at("a: [\"x\n  y\", zz]\n", "zz").is_none());
        assert!(disable_at("description: one\n  two\n", "two").is_none());
        // Where the flagged line starts outside every scalar, the comment goes above it.
        let fix = disable_at("metadata:\n  id: \"greeter\\n\"\n", "\"greeter").unwrap();
        assert_eq!(
            fix.title,
            "Disable `archetype.model-construction` on this line"
        );
        let fix = disable_at("metadata:\n  id: \"gree\n    ter\"\n", "\"gree").unwrap();
        assert_eq!(fix.edits[0].range, TextRange::empty(10));
        assert!(disable_at("metadata:\n  id:\n    \"greeter\n\n    \"\n", "\"greeter").is_some());
    }

    fn run(text: &str, comments: Comments, reported: &[(Code, &str)]) -> Vec<String> {
        let index = LineIndex::new(text);
        let diagnostics = reported
            .iter()
            .map(|(code, at)| {
                let start = text.find(at).unwrap() as u32;
                Diagnostic::new(*code, FileId(0), TextRange::new(start, start + 1), "m")
            })
            .collect();
        apply(FileId(0), text, || &index, comments, diagnostics)
            .iter()
            .map(|d| {
                format!(
                    "{} {}",
                    d.code,
                    &text[d.range.start as usize..d.range.end as usize]
                )
            })
            .collect()
    }

    #[test]
    fn the_next_line_is_silenced_and_stacked_comments_share_it() {
        let text = "a:\n  # skillgraph: disable-next-line agent.unknown-skill, agent.duplicate-grant\n  # skillgraph: disable-next-line agent.bad-role\n  - x\n  - y\n";
        let kept = run(
            text,
            Comments::Hash,
            &[
                (codes::AGENT_UNKNOWN_SKILL, "- x"),
                (codes::AGENT_BAD_ROLE, "- x"),
                (codes::AGENT_UNKNOWN_SKILL, "- y"),
            ],
        );
        assert_eq!(
            kept,
            [
                "suppression.unused agent.duplicate-grant",
                "agent.unknown-skill -"
            ]
        );
    }

    #[test]
    fn unknown_codes_are_reported_once_and_html_comments_work_in_a_body_only() {
        let text = "---\nname: a\n# skillgraph: disable-next-line skillmd.name-formt\ndescription: d\n---\n<!-- skillgraph: disable-next-line skillmd.broken-link -->\nsee [x](x.md)\n";
        let body_start = text.find("<!--").unwrap() as u32;
        let comments = Comments::SkillMd {
            yaml: TextRange::new(4, body_start - 4),
            body_start,
        };
        let kept = run(text, comments, &[(codes::SKILLMD_BROKEN_LINK, "[x]")]);
        assert_eq!(kept, ["suppression.unknown-code skillmd.name-formt"]);
        // In a body, `#` starts a heading, not a comment.
        let text =
            "---\nname: a\n---\n# skillgraph: disable-next-line skillmd.broken-link\n[x](x.md)\n";
        let comments = Comments::SkillMd {
            yaml: TextRange::new(4, 12),
            body_start: 16,
        };
        assert_eq!(
            run(text, comments, &[(codes::SKILLMD_BROKEN_LINK, "[x]")]),
            ["skillmd.broken-link ["]
        );
    }

    #[test]
    fn removing_one_code_keeps_the_others() {
        let text = "# skillgraph: disable-next-line agent.bad-role, agent.unknown-skill\nx: 1\n";
        let all = find(text, Comments::Hash);
        let (_, range) = &all[0].codes[1];
        let cut = removal(text, &all[0], range);
        let fixed = format!(
            "{}{}",
            &text[..cut.start as usize],
            &text[cut.end as usize..]
        );
        assert_eq!(
            fixed,
            "# skillgraph: disable-next-line agent.bad-role\nx: 1\n"
        );
    }
}
