//! A SKILL.md's own structure and its bundled files in the editor: document symbols (the
//! frontmatter fields and the headings), document links and go to definition for the links
//! that resolve, and completion of paths inside the skill folder.

use std::path::{Path, PathBuf};

use super::answers::{CompletionItem, CompletionKind, Completions};
use super::answers::{Symbol, SymbolKind};
use crate::diagnostic::FileId;
use crate::index::{Content, FileEntry, Index};
use crate::model::skill_md::SkillMd;
use crate::syntax::{Frontmatter, TextRange};

/// A link of the file that leads to a file of its skill folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DocumentLink {
    pub range: TextRange,
    pub target: PathBuf,
}

fn skill_of(index: &Index, file: FileId) -> Option<(&FileEntry, &SkillMd)> {
    let entry = index.file(file)?;
    match &entry.parsed.content {
        Content::SkillMd(skill) => Some((entry, skill)),
        _ => None,
    }
}

/// The links of a SKILL.md whose target is in its folder's listing.
pub fn document_links(index: &Index, file: FileId) -> Vec<DocumentLink> {
    let Some((entry, skill)) = skill_of(index, file) else {
        return Vec::new();
    };
    let Some(files) = entry.path.parent().and_then(|dir| index.skill_files(dir)) else {
        return Vec::new();
    };
    // One listing for all the links: each is then a hash lookup, not a walk of the folder.
    let listing = crate::rules::skill_links::Listing::new(files);
    let listing_of = |dir: &std::path::Path| index.skill_files(dir);
    skill
        .links(&entry.text)
        .iter()
        .filter_map(|link| {
            let target =
                crate::rules::skill_links::target(link, &entry.path, &listing, &listing_of)?;
            Some(DocumentLink {
                range: link.range,
                target,
            })
        })
        .collect()
}

/// The bundled file the link under the cursor leads to.
pub fn link_target(index: &Index, file: FileId, offset: u32) -> Option<PathBuf> {
    document_links(index, file)
        .into_iter()
        .find(|l| l.range.contains_inclusive(offset))
        .map(|l| l.target)
}

/// Document symbols of a SKILL.md: the skill (by name), holding its frontmatter fields and its
/// headings, nested by level.
pub fn document_symbols(entry: &FileEntry, skill: &SkillMd) -> Vec<Symbol> {
    let text = &entry.text;
    let whole = TextRange::new(0, text.len() as u32);
    let name = skill.name.as_ref().and_then(|n| n.text());
    let mut top = Symbol {
        name: name
            .map(|n| n.value.trim().to_owned())
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| "SKILL.md".to_owned()),
        detail: Some("SKILL.md".to_owned()),
        kind: SymbolKind::SkillMd,
        range: whole,
        selection_range: name.map_or(TextRange::empty(0), |n| n.range),
        children: Vec::new(),
    };
    for field in &skill.fields {
        top.children.push(Symbol {
            name: field.key.value.clone(),
            detail: None,
            kind: SymbolKind::Field,
            range: field.key.range.cover(field.value.range),
            selection_range: field.key.range,
            children: Vec::new(),
        });
    }
    let body_start = match skill.frontmatter {
        Frontmatter::Closed { close, .. } => close.end as usize,
        Frontmatter::Unclosed { .. } => text.len(),
        Frontmatter::Missing => 0,
    };
    top.children.extend(headings(text, body_start));
    vec![top]
}

/// ATX headings (`#` to `######`) outside fenced code, as a tree: each heading's range runs to
/// the next heading of the same or a higher level. Built with a stack, not recursion.
fn headings(text: &str, body_start: usize) -> Vec<Symbol> {
    let mut flat: Vec<(usize, Symbol)> = Vec::new();
    let mut fence: Option<char> = None;
    let mut at = body_start;
    for line in text[body_start..].split_inclusive('\n') {
        let start = at;
        at += line.len();
        let trimmed = line.trim_start();
        if let Some(mark) = fence {
            if trimmed.starts_with(&mark.to_string().repeat(3)) {
                fence = None;
            }
            continue;
        }
        if let Some(mark) = ['`', '~']
            .into_iter()
            .find(|m| trimmed.starts_with(&m.to_string().repeat(3)))
        {
            fence = Some(mark);
            continue;
        }
        if line.len() - trimmed.len() > 3 {
            continue;
        }
        let level = trimmed.chars().take_while(|&c| c == '#').count();
        let rest = &trimmed[level..];
        if !(1..=6).contains(&level) || !(rest.starts_with([' ', '\t']) || rest.trim().is_empty()) {
            continue;
        }
        let title = rest.trim().trim_end_matches('#').trim_end();
        if title.is_empty() {
            continue;
        }
        let title_start =
            start + (line.len() - trimmed.len()) + level + (rest.len() - rest.trim_start().len());
        let selection = TextRange::new(title_start as u32, (title_start + title.len()) as u32);
        flat.push((
            level,
            Symbol {
                name: title.to_owned(),
                detail: None,
                kind: SymbolKind::Heading,
                range: TextRange::new(start as u32, start as u32),
                selection_range: selection,
                children: Vec::new(),
            },
        ));
    }
    // Each section ends where the next heading of its level or above starts.
    let end = text.len() as u32;
    for i in 0..flat.len() {
        let level = flat[i].0;
        let stop = flat[i + 1..]
            .iter()
            .find(|(l, _)| *l <= level)
            .map_or(end, |(_, s)| s.range.start);
        flat[i].1.range = TextRange::new(flat[i].1.range.start, stop.max(flat[i].1.range.start));
    }
    // Nest: a stack of open sections, innermost last.
    let mut roots: Vec<Symbol> = Vec::new();
    let mut stack: Vec<(usize, Symbol)> = Vec::new();
    for (level, symbol) in flat {
        while stack.last().is_some_and(|(l, _)| *l >= level) {
            let (_, done) = stack.pop().expect("checked");
            match stack.last_mut() {
                Some((_, parent)) => parent.children.push(done),
                None => roots.push(done),
            }
        }
        stack.push((level, symbol));
    }
    while let Some((_, done)) = stack.pop() {
        match stack.last_mut() {
            Some((_, parent)) => parent.children.push(done),
            None => roots.push(done),
        }
    }
    roots
}

/// Paths of the skill folder, offered where a link target or a `{baseDir}/…` path is being
/// typed: the entries of the folder typed so far.
pub fn path_completion(index: &Index, entry: &FileEntry, offset: u32) -> Option<Completions> {
    let files = index.skill_files(entry.path.parent()?)?;
    let text = &entry.text;
    let offset = offset as usize;
    if offset > text.len() || !text.is_char_boundary(offset) {
        return None;
    }
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let head = &text[line_start..offset];
    // The path typed so far: after `](`, or after a placeholder and its `/`.
    let typed_start = match head.rfind("](") {
        Some(at) if !head[at + 2..].contains([')', ' ']) => line_start + at + 2,
        _ => {
            let (at, placeholder) = ["{baseDir}/", "${CLAUDE_SKILL_DIR}/"]
                .iter()
                .filter_map(|p| head.rfind(p).map(|at| (at, *p)))
                .max()?;
            let start = at + placeholder.len();
            if head[start..].contains([' ', '`', ')', '"', '\'']) {
                return None;
            }
            line_start + start
        }
    };
    let typed = &text[typed_start..offset];
    if typed.contains("://") || typed.starts_with(['#', '/']) {
        return None;
    }
    let (folder, partial_start) = match typed.rfind('/') {
        Some(slash) => (&typed[..slash], typed_start + slash + 1),
        None => ("", typed_start),
    };
    let folder = Path::new(folder);
    let mut items: Vec<CompletionItem> = Vec::new();
    for file in files {
        let Ok(rest) = file.strip_prefix(folder) else {
            continue;
        };
        let mut parts = rest.components();
        let Some(first) = parts.next() else { continue };
        let name = first.as_os_str().to_string_lossy().into_owned();
        let is_folder = parts.next().is_some();
        let label = if is_folder { format!("{name}/") } else { name };
        if !items.iter().any(|i| i.label == label) {
            items.push(CompletionItem {
                documentation: None,
                label,
                detail: Some(if is_folder { "folder" } else { "file" }.to_owned()),
                kind: if is_folder {
                    CompletionKind::Folder
                } else {
                    CompletionKind::File
                },
            });
        }
    }
    items.sort_by(|a, b| a.label.cmp(&b.label));
    // The partial name ends at the cursor or at the end of the word it is in.
    let end = text[offset..]
        .find(|c: char| c.is_whitespace() || ")/`\"'".contains(c))
        .map_or(text.len(), |i| offset + i);
    Some(Completions {
        range: TextRange::new(partial_start as u32, end as u32),
        items,
    })
}

#[cfg(test)]
mod tests {
    use super::super::test_support::item_labels;
    use super::*;
    use crate::index::Change;

    fn index(text: &str) -> (Index, FileId) {
        let mut index = Index::new(&crate::rules::CHECKS);
        index.apply(vec![
            Change::Set {
                path: "/r/skills/pdf/SKILL.md".into(),
                text: text.into(),
            },
            Change::SkillFiles {
                dir: "/r/skills/pdf".into(),
                files: [
                    "SKILL.md",
                    "references/api.md",
                    "references/forms.md",
                    "scripts/run.py",
                ]
                .iter()
                .map(PathBuf::from)
                .collect(),
            },
        ]);
        let id = index.file_id(Path::new("/r/skills/pdf/SKILL.md")).unwrap();
        (index, id)
    }

    const TEXT: &str = "---\nname: pdf\ndescription: d\n---\n# PDF\n\nSee [api](references/api.md) and [gone](gone.md).\n\n## Usage\n\n```\n# not a heading\n```\n### Flags\n## Forms\n# Appendix\n";

    #[test]
    fn links_that_resolve_and_their_targets() {
        let (index, id) = index(TEXT);
        let links = document_links(&index, id);
        assert_eq!(links.len(), 1);
        assert_eq!(
            links[0].target,
            PathBuf::from("/r/skills/pdf/references/api.md")
        );
        let at = TEXT.find("references/api.md").unwrap() as u32 + 3;
        assert_eq!(link_target(&index, id, at), Some(links[0].target.clone()));
        assert_eq!(link_target(&index, id, 2), None);
    }

    #[test]
    fn fields_and_nested_headings() {
        let (index, id) = index(TEXT);
        let entry = index.file(id).unwrap();
        let Content::SkillMd(skill) = &entry.parsed.content else {
            panic!()
        };
        let symbols = document_symbols(entry, skill);
        assert_eq!(symbols.len(), 1);
        assert_eq!(symbols[0].name, "pdf");
        let names: Vec<&str> = symbols[0]
            .children
            .iter()
            .map(|s| s.name.as_str())
            .collect();
        assert_eq!(names, ["name", "description", "PDF", "Appendix"]);
        let pdf = &symbols[0].children[2];
        let inner: Vec<&str> = pdf.children.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(inner, ["Usage", "Forms"]);
        assert_eq!(pdf.children[0].children[0].name, "Flags");
        let range = pdf.range;
        assert!(TEXT[range.start as usize..range.end as usize].ends_with("## Forms\n"));
    }

    #[test]
    fn paths_complete_from_the_listing() {
        let text =
            "---\nname: pdf\ndescription: d\n---\nSee [api](references/a) and run {baseDir}/\n";
        let (index, id) = index(text);
        let entry = index.file(id).unwrap();
        let at = text.find("references/a").unwrap() + "references/a".len();
        let found = path_completion(&index, entry, at as u32).unwrap();
        let labels = item_labels(&found);
        assert_eq!(labels, ["api.md", "forms.md"]);
        assert_eq!(
            &text[found.range.start as usize..found.range.end as usize],
            "a"
        );
        let at = text.find("{baseDir}/").unwrap() + "{baseDir}/".len();
        let found = path_completion(&index, entry, at as u32).unwrap();
        let labels = item_labels(&found);
        assert_eq!(labels, ["SKILL.md", "references/", "scripts/"]);
        assert!(path_completion(&index, entry, 5).is_none());
    }
}
