//! Bundled files the model will not find: files of the skill's folder that nothing it reads
//! names (`skillmd.orphan-files`), Markdown references reached only through another reference
//! (`skillmd.reference-depth`), and long references without a table of contents
//! (`skillmd.reference-toc`).
//!
//! What the model reads is found from the SKILL.md outwards: the paths it names (see
//! `model::bundled` for what a mention is), then the paths each named Markdown file names, level
//! by level (a breadth-first walk, so each file's level is the fewest references it takes to
//! reach it). Everything is read from the skill folder's files as discovery handed them in
//! (`Lookup::bundled`, one key per skill folder), so an edit to the SKILL.md re-checks that skill
//! alone, and a bundled file changing re-checks only the skill whose folder holds it.

use std::collections::{HashMap, HashSet, VecDeque};
use std::path::{Path, PathBuf};

use super::rule_doc::RuleDoc;
use super::SkillMdScope;
use crate::diagnostic::{codes, Diagnostic};
use crate::index::classify::SKILL_MD;
use crate::model::bundled::{
    is_markdown, is_pattern, join_lexically, matches_pattern, mentions, pattern_names_files,
    Bundled, TOC_WITHIN_LINES,
};
use crate::model::hosts::{HOST_READ_FILES, REFERENCE_DEPTH, REFERENCE_TOC_LINES};
use crate::model::skill_links::LinkBase;
use crate::model::skill_md::SkillMd;
use crate::syntax::{Frontmatter, TextRange};

pub const RULES: &[RuleDoc] = &[
    RuleDoc {
        code: codes::SKILLMD_ORPHAN_FILES,
        summary: "Files of the skill's folder that nothing the model reads names.",
        explanation: "The model learns a bundled file exists only when something it reads names it: the \
SKILL.md body, or a Markdown file the body leads to. A script, reference or asset that nothing names is \
shipped with the skill and never used. **Named** means: a relative link or image (`[API](references/api.md)`), \
a path written anywhere, prose or inline or fenced code (`python scripts/fill.py`), a path after a \
skill-folder placeholder (`{baseDir}/…`, `${CLAUDE_SKILL_DIR}/…`), a folder (`see references/` or \
`canvas-fonts/` names every file under it), or a bare file name with its extension (`forms.md`) when the \
folder holds a file of that name; a path whose folders lead nowhere still names the files of its file name \
(`reference/fields.md` names `references/fields.md`; `skillmd.broken-link` reports the path). A pattern names every file it matches, or that sits in a folder it matches: a `*` within a name (`shared/agents-*.md`), `**` for any folders, and a `{placeholder}` segment for any one folder or name (`{lang}/README.md`, where the reader picks the language); a pattern of wildcards alone names nothing, and one skill's patterns make at most a million \
comparisons with its files (beyond that they name nothing, and the report says so). A path written from above the skill's folder is read from the part after \
the folder's name (`skills/brainstorming/visual-companion.md` in the skill `brainstorming`). A path in a Markdown file is read from that file's folder and from the \
skill's folder. A path-like word is one holding a `/` or a `.` followed by a letter or digit. **Exempt**: the \
SKILL.md, the SKILL.md of a skill nested in the folder (it is a skill of its own), files and folders whose \
name starts with `.`, the folder's own `README*`, `LICENSE*`, `LICENCE*`, `COPYING*`, `NOTICE*` and `CHANGELOG*`, \
files a host reads itself, whose own mentions count as named (Codex's `agents/openai.yaml`, which names the \
skill's icons; the table is `HOST_READ_FILES` in `model/hosts.rs`), \
Python caches (`__pycache__/`, `*.pyc`), dependency manifests (`requirements*.txt`, `package.json`, \
`package-lock.json`, `pyproject.toml`, `uv.lock`), and every file in or below the folder of a named file \
that is not Markdown (a named `scripts/office/unpack.py` covers `scripts/office/helpers/merge_runs.py`: a \
script's own modules and data are the script's business, not the model's; a named file directly in the \
skill's folder covers nothing). A bare name matches in any case (`REFERENCE.md` names `reference.md`), and a \
Python module path names its file (`core.gif_builder` names `core/gif_builder.py`). One diagnostic per skill, as information, on its `name`, naming the \
first 20 files and counting the rest. Name each file where it is needed (a link or its path, with when to \
read it), or remove it.",
    },
    RuleDoc {
        code: codes::SKILLMD_REFERENCE_DEPTH,
        summary: "A Markdown reference is reached only through another reference, more than one level below SKILL.md.",
        explanation: "Anthropic's skill authoring best practices ask to keep references one level deep from \
SKILL.md: a file named only by another reference may be read only in part (a preview of its head) or not at \
all (https://docs.claude.com/en/docs/agents-and-tools/agent-skills/best-practices, checked 2026-12-04). This \
applies to Markdown files reached only through another Markdown file, not to scripts or data a reference \
mentions. The diagnostic is on the SKILL.md's mention where the path starts and shows the path \
(`SKILL.md → references/a.md → references/b.md`); at most 20 per skill, the last counting the rest. Name the \
file in SKILL.md, or fold it into the reference that names it.",
    },
    RuleDoc {
        code: codes::SKILLMD_REFERENCE_TOC,
        summary: "A reference the model reads is over 300 lines and has no table of contents near its top.",
        explanation: "A model often previews a long file before reading it whole; a table of contents at the \
top shows it what the file holds and where. Anthropic's best practices ask for one in reference files longer \
than 100 lines (https://docs.claude.com/en/docs/agents-and-tools/agent-skills/best-practices, checked \
2026-12-04); skillgraph reports from 300 lines, where a partial read misses the most. A table of contents \
counts when, within the first 50 lines, a heading says it is one (`## Contents`, `## Table of Contents`, \
`## TOC`, `## Index`) or a list item links to one of the file's own headings (`- [Setup](#setup)`). As \
information, on the SKILL.md's mention that leads to the file; at most 20 per skill.",
    },
];

/// The most files one diagnostic names, and the most depth and table-of-contents diagnostics
/// one skill gets.
const NAMED_AT_MOST: usize = 20;

/// The files of the folder as the walk sees them.
struct Folder<'a> {
    bundled: &'a Bundled,
    by_path: HashMap<&'a Path, usize>,
    folders: HashSet<&'a Path>,
    /// The skill folder's own name: a path written from above it (`skills/pdf/forms.md` in the
    /// skill `pdf`) is read from the component after it.
    own_name: String,
    /// Files by name in lower case, made when a bare name is first looked up.
    by_name: Option<HashMap<String, Vec<usize>>>,
    /// How many more file comparisons the walk's patterns may make (`matching`).
    comparisons_left: usize,
    /// Whether some pattern was not matched in full for want of comparisons: then the orphan
    /// report says so, rather than skipping the work in silence.
    patterns_cut: bool,
}

/// The most comparisons of a file with a pattern (`references/*.md`) one skill's walk makes:
/// patterns past it name nothing. Generous for real skills (a thousand patterns over the files
/// of their folders), and a bound on hostile ones.
const PATTERN_COMPARISONS_AT_MOST: usize = 1_000_000;

impl<'a> Folder<'a> {
    fn new(bundled: &'a Bundled, own_name: String) -> Folder<'a> {
        let mut folders = HashSet::new();
        for file in &bundled.files {
            for ancestor in file.path.ancestors().skip(1) {
                if ancestor.as_os_str().is_empty() || !folders.insert(ancestor) {
                    break;
                }
            }
        }
        Folder {
            by_path: bundled
                .files
                .iter()
                .enumerate()
                .map(|(i, f)| (f.path.as_path(), i))
                .collect(),
            bundled,
            folders,
            own_name,
            by_name: None,
            comparisons_left: PATTERN_COMPARISONS_AT_MOST,
            patterns_cut: false,
        }
    }

    /// The files `token`, written in a file in `base`, names: pushed to `out`. A folder named
    /// is handed back once (in `folders_done`), whatever names it again.
    fn named(
        &mut self,
        base: &Path,
        token: &str,
        folders_done: &mut HashSet<PathBuf>,
        out: &mut Vec<usize>,
    ) {
        // Written from above the skill folder: read from the part after its name.
        let token = match token
            .match_indices('/')
            .map(|(at, _)| at)
            .find(|&at| token[..at].rsplit('/').next() == Some(self.own_name.as_str()))
        {
            Some(at) if !self.own_name.is_empty() => &token[at + 1..],
            _ => token,
        };
        if is_pattern(token) {
            if !pattern_names_files(token) {
                return;
            }
            // Each pattern is matched once, however often it is written.
            for pattern in read_from(base, token) {
                if folders_done.insert(pattern.clone()) {
                    out.extend(self.matching(&pattern));
                }
            }
            return;
        }
        let bare = !token.contains('/');
        for path in read_from(base, token) {
            if let Some(&at) = self.by_path.get(path.as_path()) {
                out.push(at);
                return;
            }
            if self.folders.contains(path.as_path()) {
                if folders_done.insert(path.clone()) {
                    let files = &self.bundled.files;
                    let start = files.partition_point(|f| f.path < path);
                    out.extend(
                        (start..files.len()).take_while(|&i| files[i].path.starts_with(&path)),
                    );
                }
                return;
            }
        }
        // A path whose folders are wrong (`reference/fields.md` for `references/fields.md`)
        // still names its file by name; `skillmd.broken-link` reports the path.
        let token = if bare {
            token
        } else {
            match token.rsplit('/').next() {
                Some(name) if name.contains('.') && out.is_empty() => name,
                _ => return,
            }
        };
        {
            // A bare name, in any case (`REFERENCE.md` for `reference.md`: the model lists the
            // folder and finds it).
            let files = &self.bundled.files;
            let by_name = self.by_name.get_or_insert_with(|| {
                let mut by_name: HashMap<String, Vec<usize>> = HashMap::new();
                for (i, file) in files.iter().enumerate() {
                    if let Some(name) = file.path.file_name() {
                        let name = name.to_string_lossy().to_lowercase();
                        by_name.entry(name).or_default().push(i);
                    }
                }
                by_name
            });
            if let Some(found) = by_name.get(&token.to_lowercase()) {
                out.extend(found);
            }
            // A Python module path (`core.gif_builder`) names `core/gif_builder.py`.
            let parts: Vec<&str> = token.split('.').collect();
            if parts.len() > 1
                && parts
                    .iter()
                    .all(|p| !p.is_empty() && p.chars().all(|c| c.is_alphanumeric() || c == '_'))
            {
                let module = format!("{}.py", parts.join("/"));
                if let Some(&at) = self.by_path.get(Path::new(&module)) {
                    out.push(at);
                }
            }
        }
    }
}

impl Folder<'_> {
    /// The files a pattern (`shared/agents-*.md`, `{lang}/README.md`: `model::bundled`), joined
    /// to the folder it is read from, matches: only the files under its literal folders are
    /// compared, within [`PATTERN_COMPARISONS_AT_MOST`] comparisons a skill, so hostile text
    /// cannot make the walk quadratic.
    fn matching(&mut self, pattern: &Path) -> Vec<usize> {
        let text = pattern.to_string_lossy();
        let segments: Vec<&str> = text.split('/').collect();
        let literal = segments
            .iter()
            .take_while(|s| !is_pattern(s))
            .fold(PathBuf::new(), |folder, s| folder.join(s));
        let files = &self.bundled.files;
        let start = files.partition_point(|f| f.path < literal);
        let under = files[start..].partition_point(|f| f.path.starts_with(&literal));
        let candidates = under.min(self.comparisons_left);
        self.patterns_cut |= candidates < under;
        self.comparisons_left -= candidates;
        (start..start + candidates)
            .filter(|&i| matches_pattern(&segments, &files[i].path))
            .collect()
    }
}

/// The paths `token`, written in a file in `base`, may mean inside the skill folder, in order:
/// read from that file's folder, then from the skill's (one path when they are the same).
fn read_from(base: &Path, token: &str) -> impl Iterator<Item = PathBuf> {
    let from_base = (!base.as_os_str().is_empty()).then(|| join_lexically(base, token));
    from_base
        .flatten()
        .into_iter()
        .chain(join_lexically(Path::new(""), token))
}

/// How each file was first reached: its level (1: named by the SKILL.md), the Markdown file
/// that named it (none at level 1), and the SKILL.md's mention its path starts from.
#[derive(Clone, Copy)]
struct Reached {
    level: u32,
    via: Option<usize>,
    root: TextRange,
}

/// The files the model can reach from the SKILL.md (`text`), by the walk of the module's doc.
fn reach(folder: &mut Folder<'_>, text: &str, skill: &SkillMd) -> Vec<Option<Reached>> {
    let mut reached: Vec<Option<Reached>> = vec![None; folder.bundled.files.len()];
    let mut queue: VecDeque<usize> = VecDeque::new();
    let mut folders_done = HashSet::new();
    let mut targets = Vec::new();
    // The SKILL.md: every path-like token, and its links decoded (`a%20b.png`).
    let mut from_skill: Vec<(String, TextRange)> = mentions(text, 0);
    from_skill.extend(
        skill
            .links(text)
            .into_iter()
            .filter(|link| link.base == LinkBase::SkillDir)
            .map(|link| (link.path, link.range)),
    );
    // Files a host reads itself (Codex's `agents/openai.yaml`): what they name is named.
    let host_read: Vec<usize> = HOST_READ_FILES
        .iter()
        .filter_map(|f| folder.by_path.get(Path::new(f.path)).copied())
        .collect();
    for at in host_read {
        reached[at] = Some(Reached {
            level: 0,
            via: None,
            root: skill.name_range().unwrap_or_default(),
        });
        queue.push_back(at);
    }
    for (token, range) in &from_skill {
        targets.clear();
        folder.named(Path::new(""), token, &mut folders_done, &mut targets);
        for &at in &targets {
            if reached[at].is_none() {
                reached[at] = Some(Reached {
                    level: 1,
                    via: None,
                    root: *range,
                });
                queue.push_back(at);
            }
        }
    }
    while let Some(at) = queue.pop_front() {
        let file = &folder.bundled.files[at];
        let Some(markdown) = &file.markdown else {
            continue;
        };
        let here = reached[at].expect("queued files are reached");
        let base = file.path.parent().unwrap_or(Path::new("")).to_owned();
        for token in &markdown.mentions {
            targets.clear();
            folder.named(&base, token, &mut folders_done, &mut targets);
            for &next in &targets {
                if reached[next].is_none() {
                    reached[next] = Some(Reached {
                        level: here.level + 1,
                        via: Some(at),
                        root: here.root,
                    });
                    queue.push_back(next);
                }
            }
        }
    }
    reached
}

/// Files no one is expected to name: see `skillmd.orphan-files`' documentation.
fn is_exempt(path: &Path) -> bool {
    let hidden_or_cache = path.components().any(|c| {
        let name = c.as_os_str().to_string_lossy();
        name.starts_with('.') || name == "__pycache__"
    });
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_uppercase());
    let Some(name) = name else { return true };
    let top_level_notice = path.parent().is_some_and(|p| p.as_os_str().is_empty())
        && [
            "README",
            "LICENSE",
            "LICENCE",
            "COPYING",
            "NOTICE",
            "CHANGELOG",
        ]
        .iter()
        .any(|stem| name.starts_with(stem));
    // What package managers read to install a skill's scripts' dependencies, not the model.
    let manifest = (name.starts_with("REQUIREMENTS") && name.ends_with(".TXT"))
        || matches!(
            name.as_str(),
            "PACKAGE.JSON" | "PACKAGE-LOCK.JSON" | "PYPROJECT.TOML" | "UV.LOCK"
        );
    hidden_or_cache
        || top_level_notice
        || manifest
        || name == SKILL_MD.to_ascii_uppercase()
        || name.ends_with(".PYC")
}

/// The folders (below the skill folder) holding a named file that is not Markdown: a script's
/// folder holds its own modules and data, which the script uses without the model naming them.
fn script_folders<'a>(folder: &Folder<'a>, reached: &[Option<Reached>]) -> HashSet<&'a Path> {
    folder
        .bundled
        .files
        .iter()
        .zip(reached)
        .filter(|(f, r)| r.is_some() && !is_markdown(&f.path) && !is_exempt(&f.path))
        .filter_map(|(f, _)| f.path.parent())
        .filter(|p| !p.as_os_str().is_empty())
        .collect()
}

fn show(path: &Path) -> String {
    path.to_string_lossy().replace('\\', "/")
}

/// "`a`, `b`, … and 3 more".
fn listed(paths: &[&Path], total: usize) -> String {
    let mut text = paths
        .iter()
        .map(|p| format!("`{}`", show(p)))
        .collect::<Vec<_>>()
        .join(", ");
    if total > paths.len() {
        text.push_str(&format!(" and {} more", total - paths.len()));
    }
    text
}

/// The path from the SKILL.md to the file `at`: `SKILL.md → a.md → b.md`, at most ten hops
/// shown.
fn path_to(folder: &Folder<'_>, reached: &[Option<Reached>], at: usize) -> String {
    let mut hops = Vec::new();
    let mut here = Some(at);
    while let Some(i) = here {
        hops.push(i);
        here = reached[i].and_then(|r| r.via);
    }
    let shown: Vec<String> = hops
        .iter()
        .rev()
        .map(|&i| format!("`{}`", show(&folder.bundled.files[i].path)))
        .collect();
    let shown = if shown.len() > 10 {
        let hidden = shown.len() - 9;
        let mut cut = shown[..8].to_vec();
        cut.push(format!("… {hidden} more …"));
        cut.push(shown[shown.len() - 1].clone());
        cut
    } else {
        shown
    };
    format!("SKILL.md → {}", shown.join(" → "))
}

pub fn check(scope: &SkillMdScope<'_>, out: &mut Vec<Diagnostic>) {
    let Some(dir) = scope.path.parent() else {
        return;
    };
    let Some(bundled) = scope.lookup.bundled(dir) else {
        return;
    };
    let Frontmatter::Closed { open, .. } = scope.skill.frontmatter else {
        return;
    };
    let own_name = dir
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let mut folder = Folder::new(bundled, own_name);
    let reached = reach(&mut folder, scope.text, scope.skill);

    // Orphans: one diagnostic per skill.
    let scripts = script_folders(&folder, &reached);
    let orphans: Vec<&Path> = bundled
        .files
        .iter()
        .zip(&reached)
        .filter(|(f, r)| r.is_none() && !is_exempt(&f.path))
        .filter(|(f, _)| !f.path.ancestors().skip(1).any(|a| scripts.contains(a)))
        .map(|(f, _)| f.path.as_path())
        .collect();
    if !orphans.is_empty() {
        let count = orphans.len();
        let (what, verb) = if count == 1 {
            ("file is", "names it")
        } else {
            ("files are", "names them")
        };
        out.push(Diagnostic::new(
            codes::SKILLMD_ORPHAN_FILES,
            scope.file,
            scope.skill.name_range().unwrap_or(open),
            format!(
                "{count} bundled {what} named nowhere the model reads (neither SKILL.md nor a Markdown file it leads to {verb}): {}; name each where it is needed, with when to read or run it, or remove it{}",
                listed(&orphans[..count.min(NAMED_AT_MOST)], count),
                if folder.patterns_cut {
                    " (the skill's path patterns were matched only up to a million comparisons with its files, so a pattern past that may name some of these)"
                } else {
                    ""
                }
            ),
        ));
    }

    // Markdown reached only through another reference.
    let deep: Vec<usize> = (0..reached.len())
        .filter(|&i| {
            is_markdown(&folder.bundled.files[i].path)
                && folder.bundled.files[i].markdown.is_some()
                && reached[i].is_some_and(|r| r.level > REFERENCE_DEPTH.limit as u32)
        })
        .collect();
    for (at, note) in first_named(&deep, "more Markdown files are reached only this deep") {
        let Some(r) = reached[at] else { continue };
        let message = format!(
            "`{}` is reached only through another reference ({}), {} levels below SKILL.md; the model may read a file this deep only in part, or not at all (the guidance keeps references one level deep): name it in SKILL.md, or fold it into the file that names it{note}",
            show(&folder.bundled.files[at].path),
            path_to(&folder, &reached, at),
            r.level
        );
        out.push(Diagnostic::new(
            codes::SKILLMD_REFERENCE_DEPTH,
            scope.file,
            r.root,
            message,
        ));
    }

    // Long references without a table of contents.
    let long: Vec<usize> = (0..reached.len())
        .filter(|&i| {
            reached[i].is_some()
                && is_markdown(&folder.bundled.files[i].path)
                && folder.bundled.files[i]
                    .markdown
                    .as_ref()
                    .is_some_and(|m| m.lines as usize > REFERENCE_TOC_LINES.limit && !m.has_toc)
        })
        .collect();
    for (at, note) in first_named(&long, "more such files") {
        let Some(r) = reached[at] else { continue };
        let lines = folder.bundled.files[at]
            .markdown
            .as_ref()
            .map_or(0, |m| m.lines);
        let message = format!(
            "`{}` is {lines} lines with no table of contents in its first {TOC_WITHIN_LINES} lines; a model previewing it sees only its head, so open it with a `## Contents` list linking to its sections{note}",
            show(&folder.bundled.files[at].path)
        );
        out.push(Diagnostic::new(
            codes::SKILLMD_REFERENCE_TOC,
            scope.file,
            r.root,
            message,
        ));
    }
}

/// The first `NAMED_AT_MOST` of `found`, each with the note the last of them ends its message
/// with when there are more (`" (N {more})"`; empty otherwise).
fn first_named<'a>(
    found: &'a [usize],
    more: &'a str,
) -> impl Iterator<Item = (usize, String)> + 'a {
    let left = found.len().saturating_sub(NAMED_AT_MOST);
    found
        .iter()
        .take(NAMED_AT_MOST)
        .enumerate()
        .map(move |(n, &at)| {
            let last = n + 1 == NAMED_AT_MOST && left > 0;
            let note = if last {
                format!(" ({left} {more})")
            } else {
                String::new()
            };
            (at, note)
        })
}
