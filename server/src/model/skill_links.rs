//! The paths a SKILL.md points at in its skill folder: relative Markdown links and images
//! (`[text](references/api.md)`, reference definitions `[id]: scripts/x.py`), paths anchored to
//! the skill folder or plugin by a host's placeholder (`{baseDir}/…`, `${CLAUDE_SKILL_DIR}/…`,
//! `${CLAUDE_PLUGIN_ROOT}/…`), in the body and in frontmatter values, and a bundled license
//! file named by `license`.
//!
//! Left alone: URLs and other schemes, absolute paths, anchors within the file, templates, and
//! anything in code (fenced blocks and inline spans) or HTML comments, except the placeholder
//! forms, which mean the skill's own folder wherever they are written (most often in a command
//! to run).

use crate::syntax::{Frontmatter, Node, NodeKind, TextRange};

/// What a link's path is relative to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LinkBase {
    /// The folder holding the SKILL.md (a plain relative link, `{baseDir}`,
    /// `${CLAUDE_SKILL_DIR}`).
    SkillDir,
    /// The root of the Claude Code plugin holding the skill (`${CLAUDE_PLUGIN_ROOT}`).
    PluginRoot,
}

/// One path the file points at.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Link {
    /// The path as written (placeholder included), in the file.
    pub range: TextRange,
    /// The path, decoded (`%20` → space), without its placeholder, anchor or query; `/`-separated.
    pub path: String,
    pub base: LinkBase,
}

const PLACEHOLDERS: &[(&str, LinkBase)] = &[
    ("{baseDir}", LinkBase::SkillDir),
    ("${CLAUDE_SKILL_DIR}", LinkBase::SkillDir),
    ("$CLAUDE_SKILL_DIR", LinkBase::SkillDir),
    ("${CLAUDE_PLUGIN_ROOT}", LinkBase::PluginRoot),
    ("$CLAUDE_PLUGIN_ROOT", LinkBase::PluginRoot),
];

/// Every link of a SKILL.md, in file order: `frontmatter_links` (found when the file was
/// lowered, [`frontmatter_links`]), then the body's. Linear in the text.
pub fn links(text: &str, frontmatter: &Frontmatter, frontmatter_links: &[Link]) -> Vec<Link> {
    let mut out = frontmatter_links.to_vec();
    // Without a closed frontmatter the whole file is one unknown; say nothing of links.
    if let Some(body_start) = body_start(text, frontmatter) {
        body_links(text, body_start, &mut out);
    }
    out
}

/// Where the body of a SKILL.md starts: after the closing `---` line's ending, whichever it is.
/// `None` without a closed frontmatter.
pub fn body_start(text: &str, frontmatter: &Frontmatter) -> Option<usize> {
    match frontmatter {
        Frontmatter::Closed { close, .. } => Some(
            lines_with_ends(&text[close.end as usize..])
                .next()
                .map_or(text.len(), |rest_of_line| {
                    close.end as usize + rest_of_line.len()
                }),
        ),
        _ => None,
    }
}

/// The links in the values of a frontmatter mapping (`root`, parsed with offsets in `text`), in
/// file order.
pub fn frontmatter_links(text: &str, root: Node<'_>) -> Vec<Link> {
    let mut out = Vec::new();
    // Iteratively over every scalar of the frontmatter (the parser caps depth and size).
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        match node.kind() {
            NodeKind::Mapping(_) => stack.extend(node.entries().map(|(_, v)| v)),
            NodeKind::Sequence(_) => stack.extend(node.items()),
            _ => {
                let Some(value) = node.scalar() else { continue };
                let range = node.range();
                let written = &text[range.start as usize..range.end as usize];
                // Offsets are exact when the value is written as is (plain, or quoted without
                // escapes); otherwise the whole value is the range.
                let base = written.find(value).map(|at| range.start as usize + at);
                let mut found = Vec::new();
                placeholder_links(value, 0, &mut found);
                for mut link in found {
                    link.range = match base {
                        Some(base) => TextRange::new(
                            base as u32 + link.range.start,
                            base as u32 + link.range.end,
                        ),
                        None => range,
                    };
                    out.push(link);
                }
            }
        }
    }
    if let Some(license) = root.get("license").filter(|l| l.as_str().is_some()) {
        let value = license.as_str().unwrap_or_default();
        let range = license.range();
        let written = &text[range.start as usize..range.end as usize];
        let base = written.find(value).map(|at| range.start as usize + at);
        let whole = value.trim();
        for (at, word) in words(value) {
            let word = word.trim_end_matches(['.', ',', ';', ')']);
            if is_license_file(word, word == whole) {
                out.push(Link {
                    range: match base {
                        Some(base) => {
                            TextRange::new((base + at) as u32, (base + at + word.len()) as u32)
                        }
                        None => range,
                    },
                    path: word.to_owned(),
                    base: LinkBase::SkillDir,
                });
            }
        }
    }
    out.sort_by_key(|l| l.range.start);
    out
}

/// A word of a `license` value that names a file: one with a `.txt` or `.md` extension
/// (`LICENSE.txt`, `legal/terms.md`), or `LICENSE` / `LICENCE` / `COPYING` when it is the whole
/// value (in a sentence, "LICENSE" is as often a word: "FREE SOFTWARE LICENSE AGREEMENT").
fn is_license_file(word: &str, whole: bool) -> bool {
    let lower = word.to_ascii_lowercase();
    let named_file = (lower.ends_with(".txt") || lower.ends_with(".md"))
        && lower.len() > 4
        && !lower.contains("://");
    named_file || (whole && matches!(word, "LICENSE" | "LICENCE" | "COPYING"))
}

fn words(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split(|c: char| c.is_whitespace())
        .scan(0usize, move |at, word| {
            let start = *at;
            *at += word.len() + 1;
            Some((start, word))
        })
        .filter(|(_, w)| !w.is_empty())
}

fn body_links(text: &str, body_start: usize, out: &mut Vec<Link>) {
    let mut fence: Option<(char, usize)> = None;
    let mut in_comment = false;
    let mut at = body_start;
    for line in lines_with_ends(&text[body_start..]) {
        let line_start = at;
        at += line.len();
        let content = line.trim_end_matches(['\n', '\r']);
        let trimmed = content.trim_start();
        if let Some((mark, len)) = fence {
            if trimmed.starts_with(&mark.to_string().repeat(len))
                && trimmed.trim_start_matches(mark).trim().is_empty()
            {
                fence = None;
            } else {
                placeholder_links(content, line_start, out);
            }
            continue;
        }
        if let Some(mark) = ['`', '~']
            .into_iter()
            .find(|m| trimmed.starts_with(&m.to_string().repeat(3)))
        {
            let len = trimmed.chars().take_while(|&c| c == mark).count();
            fence = Some((mark, len));
            continue;
        }
        scan_line(content, line_start, &mut in_comment, out);
    }
}

/// The lines of `text`, each with its ending: `\n`, `\r\n`, or a lone `\r` (a line ending
/// to Markdown as much as the others).
pub(crate) fn lines_with_ends(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let end = match rest.find(['\n', '\r']) {
            Some(at) if rest[at..].starts_with("\r\n") => at + 2,
            Some(at) => at + 1,
            None => rest.len(),
        };
        let (line, after) = rest.split_at(end);
        rest = after;
        Some(line)
    })
}

/// One line outside fenced code: links in the text, placeholders everywhere, nothing inside
/// HTML comments.
fn scan_line(line: &str, line_start: usize, in_comment: &mut bool, out: &mut Vec<Link>) {
    // Reference definition: up to three spaces, `[label]:`, the target.
    let indent = line.len() - line.trim_start_matches(' ').len();
    // (`[^1]: ...` is a footnote, not a link.)
    if !*in_comment
        && indent <= 3
        && line[indent..].starts_with('[')
        && !line[indent..].starts_with("[^")
    {
        if let Some(close) = line[indent..].find("]:") {
            let after = indent + close + 2;
            let rest = &line[after..];
            let lead = rest.len() - rest.trim_start().len();
            let target = rest.split_whitespace().next().unwrap_or("");
            let target = target.trim_start_matches('<').trim_end_matches('>');
            let start = line_start + after + lead + usize::from(rest.trim_start().starts_with('<'));
            push_target(target, start, out);
            return;
        }
    }
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if *in_comment {
            match line[i..].find("-->") {
                Some(end) => {
                    *in_comment = false;
                    i += end + 3;
                    continue;
                }
                None => return,
            }
        }
        match bytes[i] {
            b'<' if line[i..].starts_with("<!--") => {
                *in_comment = true;
                i += 4;
            }
            b'`' => {
                // An inline code span: as many backticks close it as opened it.
                let run = line[i..].bytes().take_while(|&b| b == b'`').count();
                let ticks = &line[i..i + run];
                match line[i + run..].find(ticks) {
                    Some(len) => {
                        let code = &line[i + run..i + run + len];
                        placeholder_links(code, line_start + i + run, out);
                        i += run + len + run;
                    }
                    None => i += run,
                }
            }
            b']' if bytes.get(i + 1) == Some(&b'(') => {
                let open = i + 2;
                let (target, start) = inline_target(line, open);
                push_target(target, line_start + start, out);
                i = open;
            }
            b'{' | b'$' => match placeholder_link_at(line, i, line_start) {
                Some((link, next)) => {
                    // Already pushed, as the last link, when an inline link's target held it.
                    if let Some(link) = link.filter(|link| {
                        out.last()
                            .is_none_or(|last| last.range.start != link.range.start)
                    }) {
                        out.push(link);
                    }
                    i = next;
                }
                None => i += 1,
            },
            _ => i += 1,
        }
    }
}

/// The target of an inline link whose `(` is just before `open`: `<...>` or up to the first
/// space or the `)` that balances, and where it starts in the line.
fn inline_target(line: &str, open: usize) -> (&str, usize) {
    let rest = &line[open..];
    let lead = rest.len() - rest.trim_start().len();
    let rest = &rest[lead..];
    if let Some(inner) = rest.strip_prefix('<') {
        let end = inner.find('>').unwrap_or(inner.len());
        return (&inner[..end], open + lead + 1);
    }
    let mut depth = 0usize;
    let mut end = rest.len();
    for (i, c) in rest.char_indices() {
        match c {
            '(' => depth += 1,
            ')' if depth == 0 => {
                end = i;
                break;
            }
            ')' => depth -= 1,
            c if c.is_whitespace() => {
                end = i;
                break;
            }
            _ => {}
        }
    }
    (&rest[..end], open + lead)
}

/// A link target as written at `start`: kept when it is a relative path into the file system.
fn push_target(target: &str, start: usize, out: &mut Vec<Link>) {
    let (base, path) = match PLACEHOLDERS.iter().find(|(p, _)| target.starts_with(p)) {
        Some((placeholder, base)) => (*base, target[placeholder.len()..].trim_start_matches('/')),
        None => (LinkBase::SkillDir, target),
    };
    let path = path.split(['#', '?']).next().unwrap_or("");
    if path.is_empty()
        || !is_relative_path(path)
        || (base == LinkBase::SkillDir && !is_link_target(target))
    {
        return;
    }
    out.push(Link {
        range: TextRange::new(start as u32, (start + target.len()) as u32),
        path: percent_decode(path),
        base,
    });
}

/// Not a URL, another scheme (`mailto:`), an anchor, an absolute or home path, or a template.
fn is_link_target(target: &str) -> bool {
    let scheme = target.find(':').is_some_and(|colon| {
        target[..colon]
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "+.-".contains(c))
            && colon > 0
    });
    !(target.is_empty() || target.starts_with(['#', '/', '~', '\\']) || scheme)
}

fn is_relative_path(path: &str) -> bool {
    !path.contains(['*', '{', '}', '<', '>', '$', '`', '|', '"', '\''])
        && !path.starts_with(['/', '\\', '~'])
        && !path.contains("://")
}

/// The placeholder-anchored paths in `text` (at `offset` in the file).
fn placeholder_links(text: &str, offset: usize, out: &mut Vec<Link>) {
    let mut i = 0;
    while i < text.len() {
        match placeholder_link_at(text, i, offset) {
            Some((link, next)) => {
                out.extend(link);
                i = next;
            }
            None => i += text[i..].chars().next().map_or(1, char::len_utf8),
        }
    }
}

/// The placeholder-anchored path starting at byte `i` of `text`, if a placeholder starts there:
/// the link (none when the path is empty or not a relative path) and where to go on scanning.
/// Looks no further than the path's own end, so a line of many placeholders is read once.
fn placeholder_link_at(text: &str, i: usize, offset: usize) -> Option<(Option<Link>, usize)> {
    let rest = &text[i..];
    let (placeholder, base) = PLACEHOLDERS.iter().find(|(p, _)| rest.starts_with(p))?;
    let after = &rest[placeholder.len()..];
    if !after.starts_with('/') {
        return Some((None, i + placeholder.len()));
    }
    let len = after
        .find(|c: char| c.is_whitespace() || "\"'`)]>,;|&".contains(c))
        .unwrap_or(after.len());
    let path = after[1..len].trim_end_matches(['.', ':']);
    let end = i + placeholder.len() + 1 + path.len();
    let link = (!path.is_empty() && is_relative_path(path)).then(|| Link {
        range: TextRange::new((offset + i) as u32, (offset + end) as u32),
        path: path.to_owned(),
        base: *base,
    });
    Some((link, end.max(i + 1)))
}

fn percent_decode(path: &str) -> String {
    if !path.contains('%') {
        return path.to_owned();
    }
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out).unwrap_or_else(|_| path.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::split_frontmatter;

    fn found(text: &str) -> Vec<(String, &str)> {
        let frontmatter = split_frontmatter(text, 0);
        let yaml = crate::syntax::frontmatter_yaml(text, &frontmatter);
        let links_in_frontmatter = yaml
            .as_ref()
            .and_then(|yaml| yaml.root())
            .filter(|root| root.is_mapping())
            .map(|root| frontmatter_links(text, root))
            .unwrap_or_default();
        links(text, &frontmatter, &links_in_frontmatter)
            .into_iter()
            .map(|l| (l.path, &text[l.range.start as usize..l.range.end as usize]))
            .collect()
    }

    #[test]
    fn links_paths_and_placeholders() {
        let text = "---\nname: x\ndescription: Run {baseDir}/scripts/run.sh first.\nlicense: Complete terms in LICENSE.txt\n---\n\
# X\n\nSee [the API](references/api.md#auth), ![chart](assets/a%20b.png \"title\") and <https://x.io>.\n\
[ref]: ./forms.md\nRun `python ${CLAUDE_SKILL_DIR}/scripts/fill.py` or `scripts/not-a-link.py`.\n\
```bash\npython {baseDir}/scripts/in-fence.py\n[not](a/link.md)\n```\n\
<!-- [hidden](gone.md) -->\n[web](https://example.com) [top](#x) [abs](/etc/x) [mail](mailto:a@b) [tpl]({{x}}/y)\n\
Plugin: ${CLAUDE_PLUGIN_ROOT}/hooks/h.sh\n";
        let paths: Vec<(String, &str)> = found(text);
        assert_eq!(
            paths,
            [
                ("scripts/run.sh".to_owned(), "{baseDir}/scripts/run.sh"),
                ("LICENSE.txt".to_owned(), "LICENSE.txt"),
                ("references/api.md".to_owned(), "references/api.md#auth"),
                ("assets/a b.png".to_owned(), "assets/a%20b.png"),
                ("./forms.md".to_owned(), "./forms.md"),
                (
                    "scripts/fill.py".to_owned(),
                    "${CLAUDE_SKILL_DIR}/scripts/fill.py"
                ),
                (
                    "scripts/in-fence.py".to_owned(),
                    "{baseDir}/scripts/in-fence.py"
                ),
                ("hooks/h.sh".to_owned(), "${CLAUDE_PLUGIN_ROOT}/hooks/h.sh"),
            ]
        );
    }

    #[test]
    fn license_names_only_files() {
        for license in [
            "MIT",
            "Apache-2.0",
            "Proprietary. See the terms.",
            "MIT License",
            "CeCILL FREE SOFTWARE LICENSE AGREEMENT",
        ] {
            let text = format!("---\nname: x\ndescription: d\nlicense: {license}\n---\n");
            assert!(found(&text).is_empty(), "{license}");
        }
        let text = "---\nname: x\ndescription: d\nlicense: LICENSE\n---\n";
        assert_eq!(found(text)[0].0, "LICENSE");
    }

    #[test]
    fn a_line_of_placeholders_finds_each_once_and_skips_nothing_between() {
        // A link inside an inline link's target is found once; a placeholder without a path
        // does not hide the link after it.
        let text = "---\nname: x\ndescription: d\n---\n\
[a]({baseDir}/a.md) {baseDir} then [b](b.md) $CLAUDE_SKILL_DIR/c.md\n";
        let paths: Vec<&str> = found(text)
            .into_iter()
            .map(|(_, written)| written)
            .collect();
        assert_eq!(paths, ["{baseDir}/a.md", "b.md", "$CLAUDE_SKILL_DIR/c.md"]);

        // The shape that was quadratic: every placeholder of a long line, each read once.
        let many: Vec<String> = (0..20_000).map(|i| format!("{{baseDir}}/a{i}")).collect();
        let text = format!("---\nname: x\ndescription: d\n---\n{}\n", many.join(" "));
        let paths: Vec<String> = found(&text).into_iter().map(|(path, _)| path).collect();
        assert_eq!(paths.len(), many.len());
        assert_eq!(paths[19_999], "a19999");
    }

    #[test]
    fn every_line_ending_ends_a_line() {
        for ending in ["\n", "\r\n", "\r"] {
            let text = format!(
                "---{ending}name: x{ending}description: d{ending}---{ending}[a](a.md){ending}[b]: b.md{ending}"
            );
            let paths: Vec<String> = found(&text).into_iter().map(|(path, _)| path).collect();
            assert_eq!(paths, ["a.md", "b.md"], "{ending:?}");
        }
    }

    #[test]
    fn footnotes_are_not_links() {
        let text = "---\nname: x\ndescription: d\n---\nText.[^1]\n\n[^1]: GitHub Blog. (2022).\n";
        assert!(found(text).is_empty());
    }

    #[test]
    fn nothing_without_a_closed_frontmatter() {
        assert!(found("# no frontmatter\n[a](b.md)\n").is_empty());
    }
}
