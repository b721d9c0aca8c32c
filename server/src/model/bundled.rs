//! What a skill's bundled files say, as far as the checks of what the model will find need it:
//! each file's size, and for a Markdown file its lines, whether it opens with a table of
//! contents, and the paths it names. Discovery reads the files at the edge and hands these in
//! (`Change::Bundled`); the scanning is here, pure, so the SKILL.md itself is read the same way.
//!
//! **Named.** A text names a path when the path appears in it as a token: a run of letters,
//! digits and `_ - . / @ + ~ %`, or after one of the skill-folder placeholders (`{baseDir}/`,
//! `${CLAUDE_SKILL_DIR}/`, `$CLAUDE_SKILL_DIR/`), wherever it is written (a link's target, prose,
//! inline or fenced code). A token counts only when it holds a `/` or a `.` followed by a letter
//! or digit (so words and sentence ends do not), or starts with `./` or ends with `/`; a leading
//! `./` and trailing `.`, `:` and `/` are dropped, and `*` at either end (Markdown emphasis). A
//! token with a `*` inside or a `{placeholder}` segment is a pattern (`shared/agents-*.md`,
//! `{lang}/README.md`) naming every file it matches. What a token names is decided against the
//! listing, in `rules::bundled_files`.

use std::path::{Path, PathBuf};

use crate::syntax::TextRange;

/// One file of a skill folder, relative to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BundledFile {
    pub path: PathBuf,
    pub bytes: u64,
    /// For a Markdown file that could be read (and a file a host reads itself,
    /// `model::hosts::HOST_READ_FILES`, scanned the same way for the paths it names).
    pub markdown: Option<MarkdownFacts>,
}

/// The files of one skill folder (the same files as its listing), sorted by path.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Bundled {
    pub files: Vec<BundledFile>,
}

impl Bundled {
    /// The file at `path`, by binary search.
    pub fn get(&self, path: &Path) -> Option<&BundledFile> {
        self.files
            .binary_search_by(|f| f.path.as_path().cmp(path))
            .ok()
            .map(|at| &self.files[at])
    }
}

/// What a bundled Markdown file says that the checks need.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MarkdownFacts {
    pub lines: u32,
    /// Within its first [`TOC_WITHIN_LINES`] lines: a heading that says it is the contents, or
    /// a list item linking to one of the file's own headings (`- [Setup](#setup)`).
    pub has_toc: bool,
    /// The path-like tokens it holds, each once, in the order first written.
    pub mentions: Vec<String>,
}

/// How near the top a table of contents must start to count.
pub const TOC_WITHIN_LINES: usize = 50;

/// Whether a bundled file is Markdown, by its extension.
pub fn is_markdown(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| matches!(e.to_ascii_lowercase().as_str(), "md" | "markdown" | "mdx"))
}

/// Scans a bundled Markdown file's text once.
pub fn scan_markdown(text: &str) -> MarkdownFacts {
    let mut facts = MarkdownFacts::default();
    let mut seen = std::collections::HashSet::new();
    for (token, _) in mentions(text, 0) {
        if seen.insert(token.clone()) {
            facts.mentions.push(token);
        }
    }
    let mut in_fence = false;
    for (at, line) in super::skill_links::lines_with_ends(text).enumerate() {
        facts.lines += 1;
        if at >= TOC_WITHIN_LINES || facts.has_toc {
            continue;
        }
        let line = line.trim();
        if line.starts_with("```") || line.starts_with("~~~") {
            in_fence = !in_fence;
            continue;
        }
        if !in_fence && is_toc_line(line) {
            facts.has_toc = true;
        }
    }
    facts
}

/// A heading naming the contents (`## Contents`, `# Table of Contents`, `## TOC`), or a list
/// item whose link goes to an anchor of the file (`- [Setup](#setup)`, `1. [A](#a)`).
fn is_toc_line(line: &str) -> bool {
    if let Some(heading) = line.strip_prefix('#') {
        let title = heading.trim_start_matches('#').trim().to_ascii_lowercase();
        let title = title.trim_end_matches(':');
        return matches!(
            title,
            "contents" | "table of contents" | "toc" | "index" | "in this file" | "on this page"
        );
    }
    let item = line
        .strip_prefix(['-', '*', '+'])
        .or_else(|| {
            let digits = line.len() - line.trim_start_matches(|c: char| c.is_ascii_digit()).len();
            (digits > 0).then(|| line[digits..].strip_prefix(['.', ')']))?
        })
        .map(str::trim_start);
    item.is_some_and(|item| item.starts_with('[') && item.contains("](#"))
}

const PLACEHOLDERS: &[&str] = &["{baseDir}/", "${CLAUDE_SKILL_DIR}/", "$CLAUDE_SKILL_DIR/"];

/// For each ASCII byte, whether it can stand in a path-like token.
const PATH_ASCII: [bool; 128] = {
    let mut table = [false; 128];
    let mut byte = 0;
    while byte < 128 {
        let c = byte as u8;
        table[byte] = c.is_ascii_alphanumeric()
            || matches!(
                c,
                b'_' | b'-' | b'.' | b'/' | b'@' | b'+' | b'~' | b'%' | b'*' | b'{' | b'}'
            );
        byte += 1;
    }
    table
};

/// The length of the path character at `text[at..]`, or `None` when the character there cannot
/// stand in a path. ASCII by table: nearly every byte of prose is, and this is the scan's inner
/// loop.
fn path_char_len(text: &str, at: usize) -> Option<usize> {
    let byte = text.as_bytes()[at];
    if byte < 128 {
        return PATH_ASCII[byte as usize].then_some(1);
    }
    let c = text[at..].chars().next()?;
    c.is_alphanumeric().then(|| c.len_utf8())
}

/// The path-like tokens of `text` (at `offset` in its file), with their ranges: see the module's
/// documentation. One pass; each token is looked at once.
pub fn mentions(text: &str, offset: usize) -> Vec<(String, TextRange)> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < text.len() {
        // A placeholder for the skill's folder: the path after it is a token of its own.
        if matches!(bytes[i], b'{' | b'$') {
            if let Some(placeholder) = PLACEHOLDERS.iter().find(|p| text[i..].starts_with(**p)) {
                let start = i + placeholder.len();
                let end = token_end(text, start);
                push_token(&text[start..end], offset + i, offset + end, &mut out);
                i = end.max(i + 1);
                continue;
            }
            // Another variable (`${CLAUDE_PLUGIN_ROOT}/scripts/x.sh`): not a pattern; the path
            // after it is read as it was written.
            if text[i..].starts_with("${") {
                let name_end = token_end(text, i + 1);
                if let Some(close) = text[i + 2..name_end].find('}') {
                    i += 2 + close + 1;
                    continue;
                }
            }
        }
        if path_char_len(text, i).is_none() {
            // The next character: one byte when ASCII, else as long as its encoding.
            i += text[i..].chars().next().map_or(1, char::len_utf8);
            continue;
        }
        let end = token_end(text, i);
        push_token(&text[i..end], offset + i, offset + end, &mut out);
        i = end;
    }
    out
}

fn token_end(text: &str, start: usize) -> usize {
    let mut end = start;
    while end < text.len() {
        match path_char_len(text, end) {
            Some(len) => end += len,
            None => break,
        }
    }
    end
}

fn push_token(raw: &str, start: usize, end: usize, out: &mut Vec<(String, TextRange)>) {
    // A path has a `/` or a dotted name; a plain word (most tokens) has neither.
    if !raw.contains(['/', '.']) {
        return;
    }
    // Emphasis around a path (`**references/api.md**`) is Markdown, not part of it.
    let trimmed = raw
        .trim_end_matches(['.', ':', '*'])
        .trim_start_matches('*');
    // `./x` and `x/` are paths whatever `x` looks like (`./canvas-fonts`, `themes/`).
    let marked = trimmed.starts_with("./") || trimmed.ends_with('/');
    let mut token = trimmed.trim_end_matches('/');
    while let Some(rest) = token.strip_prefix("./") {
        token = rest;
    }
    let dotted = token
        .char_indices()
        .any(|(at, c)| c == '.' && token[at + 1..].starts_with(|n: char| n.is_alphanumeric()));
    if token.is_empty() || !(marked || token.contains('/') || dotted) || token.contains("//") {
        return;
    }
    out.push((token.to_owned(), TextRange::new(start as u32, end as u32)));
}

/// Whether a path-like token is a pattern standing for several files: a `*` (`references/*.md`,
/// `shared/agents-*.md`) or a placeholder segment (`{lang}/README.md`, where a reader puts one
/// of the folders).
pub fn is_pattern(token: &str) -> bool {
    token.contains('*') || token.split('/').any(is_placeholder_segment)
}

/// Whether a pattern, as written, says something of which files: a pattern of wildcards alone
/// (`*`, `{x}/*`, `{props}`) names nothing, wherever it is read from.
pub fn pattern_names_files(token: &str) -> bool {
    token
        .split('/')
        .any(|segment| !is_placeholder_segment(segment) && segment.contains(|c| !"*.".contains(c)))
}

fn is_placeholder_segment(segment: &str) -> bool {
    segment.len() > 2
        && segment.starts_with('{')
        && segment.ends_with('}')
        && !segment[1..segment.len() - 1].contains(['{', '}'])
}

/// Whether the `pattern` (see [`is_pattern`], split at `/`) names the relative `path`: it
/// matches the path, or a folder above it (as a folder's path names everything under it),
/// component by component: `**` stands for any number of folders, `*` for any run of characters
/// within one name, and a `{placeholder}` segment for any one name. Quadratic only in the number
/// of components, which a path's length bounds.
pub fn matches_pattern(pattern: &[&str], path: &Path) -> bool {
    if !pattern.contains(&"**") {
        // One name a segment: the path, or a folder above it, has as many names as the pattern.
        let mut names = path.components().filter_map(|c| c.as_os_str().to_str());
        return pattern.iter().all(|segment| {
            names
                .next()
                .is_some_and(|name| segment_matches(segment, name))
        });
    }
    let names: Vec<&str> = path
        .components()
        .filter_map(|c| c.as_os_str().to_str())
        .collect();
    // can[j]: the pattern's segments so far can match the first j names.
    let mut can = vec![false; names.len() + 1];
    can[0] = true;
    for segment in pattern {
        let mut next = vec![false; names.len() + 1];
        if *segment == "**" {
            let mut any = false;
            for j in 0..=names.len() {
                any |= can[j];
                next[j] = any;
            }
        } else {
            for j in 0..names.len() {
                next[j + 1] = can[j] && segment_matches(segment, names[j]);
            }
        }
        can = next;
    }
    can[1..].iter().any(|&named| named)
}

/// One name against one segment of a pattern: a placeholder matches any name, and `*` any run
/// of characters. The literal pieces between the stars are found in order, each at its leftmost
/// place (which is always right for `*` alone), so a segment costs one linear search a piece.
fn segment_matches(segment: &str, name: &str) -> bool {
    if is_placeholder_segment(segment) {
        return true;
    }
    let pieces: Vec<&str> = segment.split('*').collect();
    let (first, last) = (pieces[0], pieces[pieces.len() - 1]);
    if pieces.len() == 1 {
        return segment == name;
    }
    if name.len() < first.len() + last.len() || !name.starts_with(first) || !name.ends_with(last) {
        return false;
    }
    let mut rest = &name[first.len()..name.len() - last.len()];
    for piece in &pieces[1..pieces.len() - 1] {
        match rest.find(piece) {
            Some(at) => rest = &rest[at + piece.len()..],
            None => return false,
        }
    }
    true
}

/// `a/./b/../c` → `a/c`, relative to `base` (a folder relative to the skill folder); `None`
/// when the path leaves the skill folder.
pub fn join_lexically(base: &Path, path: &str) -> Option<PathBuf> {
    let mut out = base.to_path_buf();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                if !out.pop() {
                    return None;
                }
            }
            part => out.push(part),
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(text: &str) -> Vec<String> {
        mentions(text, 0).into_iter().map(|(t, _)| t).collect()
    }

    #[test]
    fn paths_in_links_prose_code_and_placeholders() {
        let text = "See [API](references/api.md#auth). Run `python scripts/fill.py` or \
{baseDir}/scripts/x.sh, ${CLAUDE_SKILL_DIR}/assets/a.png; read ./forms.md and canvas-fonts/.\n\
```\ncat data/table.csv | awk '{print $1}'\n```\nThe end. e.g. v1 and 3.5 mg.";
        assert_eq!(
            tokens(text),
            [
                "references/api.md",
                "scripts/fill.py",
                "scripts/x.sh",
                "assets/a.png",
                "forms.md",
                "canvas-fonts",
                "data/table.csv",
                // Path-like words are kept; they name a file only if the folder holds one.
                "e.g",
                "3.5",
            ]
        );
    }

    #[test]
    fn patterns_name_the_files_they_match() {
        assert_eq!(
            tokens("Read **shared/agents-*.md** and `{lang}/agents/README.md`; see *notes.md*."),
            ["shared/agents-*.md", "{lang}/agents/README.md", "notes.md"]
        );
        assert!(is_pattern("references/*.md") && is_pattern("{lang}/README.md"));
        assert!(!is_pattern("references/api.md") && !is_pattern("{a}{b}/x.md"));
        let matches = |pattern: &str, path: &str| {
            let segments: Vec<&str> = pattern.split('/').collect();
            matches_pattern(&segments, Path::new(path))
        };
        assert!(matches("shared/agents-*.md", "shared/agents-core.md"));
        assert!(!matches("shared/agents-*.md", "shared/agents/core.md"));
        assert!(!matches("shared/agents-*.md", "shared/tools.md"));
        assert!(matches(
            "{lang}/agents/README.md",
            "python/agents/README.md"
        ));
        assert!(!matches("{lang}/agents/README.md", "agents/README.md"));
        assert!(matches("references/**/*.md", "references/a/b/c.md"));
        assert!(matches("references/**/*.md", "references/c.md"));
        assert!(matches("*a*b*", "xaybz") && !matches("*a*b*", "xbya"));
        // A folder's pattern names what is under it; wildcards alone name nothing.
        assert!(matches("{lang}/agents", "go/agents/client.go"));
        assert!(pattern_names_files("{lang}/agents") && pattern_names_files("*.md"));
        assert!(!pattern_names_files("*") && !pattern_names_files("{x}/*"));
        assert!(!pattern_names_files("{...props}") && !pattern_names_files("../*"));
        // A variable is not a pattern: the path after it is read as before.
        assert_eq!(
            tokens("${CLAUDE_PLUGIN_ROOT}/scripts/x.sh and ${HOME} and {x}"),
            ["/scripts/x.sh"]
        );
        // A hostile segment stays linear: one `*` walk per name.
        let long = format!("{}b", "a".repeat(100_000));
        assert!(!matches(&format!("*{long}c"), &long));
    }

    #[test]
    fn tables_of_contents() {
        assert!(scan_markdown("# API\n\n## Contents\n- Setup\n").has_toc);
        assert!(scan_markdown("# API\n\n- [Setup](#setup)\n- [Auth](#auth)\n").has_toc);
        assert!(scan_markdown("# API\n1. [Setup](#setup)\n").has_toc);
        assert!(!scan_markdown("# API\n\n## Setup\n- [site](https://x.io)\n").has_toc);
        let late = format!("# API\n{}## Contents\n", "text\n".repeat(60));
        let facts = scan_markdown(&late);
        assert!(!facts.has_toc);
        assert_eq!(facts.lines, 62);
        // A heading inside a fence is an example, not the file's contents.
        assert!(!scan_markdown("```\n## Contents\n```\n").has_toc);
    }

    #[test]
    fn lexical_joins_stay_inside() {
        assert_eq!(
            join_lexically(Path::new("references"), "../scripts/x.py"),
            Some(PathBuf::from("scripts/x.py"))
        );
        assert_eq!(join_lexically(Path::new(""), "../x.md"), None);
    }

    #[test]
    fn hostile_text_is_one_pass() {
        let text = "a.b/".repeat(1_000_000);
        assert_eq!(tokens(&text).len(), 1);
        let binary: String = (0..4_000_000u32)
            .map(|i| char::from_u32(i % 0x2FF).unwrap_or('x'))
            .collect();
        let facts = scan_markdown(&binary);
        assert!(facts.lines > 0);
    }
}
