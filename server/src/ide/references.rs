//! Find references: every place in the workspace that names the id under the cursor; for a
//! SKILL.md skill (its `name`, or a chain entry naming it), every chain entry that resolves to it.

use super::cursor::{at, occurrences, Ref};
use crate::diagnostic::FileId;
use crate::index::{Content, FileEntry, FileRole, Index, Lookup};
use crate::semantics::chain::{chain_of, resolve, Target};
use crate::syntax::TextRange;

/// Every occurrence of the id under the cursor in its workspace (agents: in their topology),
/// sorted by file and position; the definitions are included when `include_declaration`.
pub fn references(
    index: &Index,
    file: FileId,
    offset: u32,
    include_declaration: bool,
) -> Vec<(FileId, TextRange)> {
    if let Some(target) = super::mentions::target_at(index, file, offset) {
        let at = name_range(target).map_or(0, |r| r.start);
        return skill_md_references(index, target, at, include_declaration);
    }
    if let Some(entry) = index.file(file).filter(|e| is_skill_md(e)) {
        return skill_md_references(index, entry, offset, include_declaration);
    }
    let Some(occurrence) = at(index, file, offset) else {
        return Vec::new();
    };
    let Some(workspace) = index.workspace_of(file) else {
        return Vec::new();
    };
    let mut files: Vec<FileId> = match occurrence.what {
        Ref::Agent(_) => vec![file],
        _ => index
            .files()
            .filter(|f| index.workspace_of(f.id) == Some(workspace))
            .map(|f| f.id)
            .collect(),
    };
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let mut found: Vec<TextRange> = occurrences(index, f)
            .into_iter()
            .filter(|o| o.what == occurrence.what)
            .filter(|o| include_declaration || o.site != super::Site::Definition)
            .filter(|o| o.site != super::Site::RequiresBlock)
            .map(|o| o.range)
            .collect();
        found.sort_by_key(|r| (r.start, r.end));
        found.dedup();
        out.extend(found.into_iter().map(|r| (f, r)));
    }
    out
}

pub(crate) fn is_skill_md(entry: &FileEntry) -> bool {
    matches!(entry.role, FileRole::SkillMd) && matches!(entry.parsed.content, Content::SkillMd(_))
}

/// What a chain entry of `from` resolves to (also a name found only outside the chain's parent
/// folder, as go to definition does).
fn target_of<'a>(lookup: &Lookup<'a>, from: &FileEntry, entry: &str) -> Option<&'a FileEntry> {
    match resolve(lookup, &from.path, entry) {
        Target::Found(target) | Target::Outside(target) => Some(target),
        Target::Unknown | Target::Invalid => None,
    }
}

fn name_range(entry: &FileEntry) -> Option<TextRange> {
    match &entry.parsed.content {
        Content::SkillMd(skill) => skill.name_range(),
        _ => None,
    }
}

/// The SKILL.md skill named at `offset` of `entry` (its own `name`, or a chain entry resolving
/// to a skill), with the range of what names it there.
pub(crate) fn skill_md_target<'a>(
    index: &'a Index,
    entry: &'a FileEntry,
    offset: u32,
) -> Option<(&'a FileEntry, TextRange)> {
    if let Some(range) = name_range(entry).filter(|r| r.contains_inclusive(offset)) {
        return Some((entry, range));
    }
    let lookup = Lookup::new(index);
    let node = chain_of(entry)?
        .entries
        .iter()
        .find(|n| n.range.contains_inclusive(offset))?;
    Some((target_of(&lookup, entry, &node.value)?, node.range))
}

/// On a SKILL.md `name` or chain entry: every chain entry of every SKILL.md that resolves to that
/// skill, sorted by file and position, and its `name` when `include_declaration`. All reads go
/// through the index.
fn skill_md_references<'a>(
    index: &'a Index,
    entry: &'a FileEntry,
    offset: u32,
    include_declaration: bool,
) -> Vec<(FileId, TextRange)> {
    let Some((target, _)) = skill_md_target(index, entry, offset) else {
        return Vec::new();
    };
    let lookup = Lookup::new(index);
    let mut files: Vec<&FileEntry> = index.files().filter(|e| is_skill_md(e)).collect();
    files.sort_by_key(|e| e.id);
    let mut out = Vec::new();
    if include_declaration {
        if let Some(range) = name_range(target) {
            out.push((target.id, range));
        }
    }
    for file in files {
        let Some(chain) = chain_of(file) else {
            continue;
        };
        let mut found: Vec<TextRange> = chain
            .entries
            .iter()
            .filter(|n| target_of(&lookup, file, &n.value).is_some_and(|t| t.id == target.id))
            .map(|n| n.range)
            .collect();
        found.sort_by_key(|r| (r.start, r.end));
        out.extend(found.into_iter().map(|r| (file.id, r)));
    }
    out.extend(super::mentions::references_to(index, target));
    out.sort_by_key(|(f, r)| (*f, r.start, r.end));
    out.dedup();
    out
}

/// How an occurrence is highlighted: where the id is defined, or where it is used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HighlightKind {
    Definition,
    Use,
}

/// Every occurrence, in `file` alone, of the id under the cursor (a SKILL.md: its `name` and the
/// chain entries resolving to the same skill), sorted by position. Reads only `file` (and, in a
/// SKILL.md, the entries' targets), so it costs the file, not the workspace.
pub fn document_highlights(
    index: &Index,
    file: FileId,
    offset: u32,
) -> Vec<(TextRange, HighlightKind)> {
    let Some(entry) = index.file(file) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    // On a mention or a subagent preload: every place the file names that skill (and its own
    // `name`, and chain entries resolving to it, in the skill itself).
    let under = super::mentions::target_at(index, file, offset);
    if under.is_some() || is_skill_md(entry) {
        let target = match under {
            Some(target) => target,
            None => match skill_md_target(index, entry, offset) {
                Some((target, _)) => target,
                None => return out,
            },
        };
        out.extend(
            super::mentions::names_in(index, entry, target)
                .into_iter()
                .map(|r| (r, HighlightKind::Use)),
        );
        if target.id == entry.id {
            out.extend(name_range(entry).map(|r| (r, HighlightKind::Definition)));
        }
        let lookup = Lookup::new(index);
        if let Some(chain) = chain_of(entry).filter(|_| is_skill_md(entry)) {
            for n in &chain.entries {
                let resolves =
                    target_of(&lookup, entry, &n.value).is_some_and(|t| t.id == target.id);
                if resolves {
                    out.push((n.range, HighlightKind::Use));
                }
            }
        }
    } else {
        let all = occurrences(index, file);
        let Some(under) = all
            .iter()
            .filter(|o| o.range.contains_inclusive(offset))
            .min_by_key(|o| (o.range.len(), o.range.start))
        else {
            return out;
        };
        out.extend(
            all.iter()
                .filter(|o| o.what == under.what && o.site != super::Site::RequiresBlock)
                .map(|o| {
                    let kind = if o.site == super::Site::Definition {
                        HighlightKind::Definition
                    } else {
                        HighlightKind::Use
                    };
                    (o.range, kind)
                }),
        );
    }
    out.sort_by_key(|(r, _)| (r.start, r.end));
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::super::test_support::fixture;
    use super::super::test_support::DECISION_BINDINGS;
    use super::*;

    const SKILLS: &str = "//- /r/s/chain/SKILL.md\n---\nname: chain\ndescription: d\nmetadata:\n  chain: [unit, smoke]\n---\n//- /r/s/e2e/smoke/SKILL.md\n---\nname: smoke\ndescription: d\n---\n//- /r/s/e2e/all/SKILL.md\n---\nname: all\ndescription: d\nmetadata:\n  chain:\n    - smoke\n    - unit\n---\n//- /r/s/unit/SKILL.md\n---\nname: unit\ndescription: d\n---\n//- /r/s/nightly/SKILL.md\n---\nname: nightly\ndescription: d\nmetadata:\n  chain: [e2e/smoke]\n---\n//- /x/smoke/SKILL.md\n---\nname: smoke\ndescription: d\n---\n";

    /// The references as `path: text` pairs, in the order returned.
    fn refs(text: &str, include_declaration: bool) -> Vec<String> {
        let f = fixture(text);
        references(&f.index, f.cursor_file, f.offset, include_declaration)
            .into_iter()
            .map(|(file, range)| {
                let entry = f.index.file(file).unwrap();
                format!(
                    "{}: {}",
                    entry.path.display(),
                    &entry.text[range.start as usize..range.end as usize]
                )
            })
            .collect()
    }

    fn sorted(mut v: Vec<String>) -> Vec<String> {
        v.sort();
        v
    }

    #[test]
    fn decision_bindings_are_references_of_the_skill_and_lead_to_it() {
        let at = |n: &str| {
            DECISION_BINDINGS
                .replace(n, "$0")
                .replace("$1", "")
                .replace("$2", "")
        };
        let expected = vec![
            "/w/skills/judge.yaml: grounding-judge".to_owned(),
            "/w/topologies/t.yaml: grounding-judge".to_owned(),
            "/w/workspace.yaml: grounding-judge".to_owned(),
        ];
        assert_eq!(sorted(refs(&at("$2"), true)), expected);
        assert_eq!(sorted(refs(&at("$1"), true)), expected);
        let f = fixture(&at("$1"));
        let targets = crate::ide::definition(&f.index, f.cursor_file, f.offset);
        assert_eq!(targets.len(), 1);
        assert_eq!(
            f.index.file(targets[0].0).unwrap().path,
            std::path::Path::new("/w/skills/judge.yaml")
        );
    }

    #[test]
    fn skill_md_name_finds_the_chain_entries_resolving_to_it() {
        // By name and by path; not the other `smoke` at /x (chains under /r/s resolve to theirs).
        let on_name = SKILLS.replace(
            "name: smoke\ndescription: d\n---\n//- /r/s/e2e/all",
            "name: sm$0oke\ndescription: d\n---\n//- /r/s/e2e/all",
        );
        assert_eq!(
            sorted(refs(&on_name, false)),
            [
                "/r/s/chain/SKILL.md: smoke",
                "/r/s/e2e/all/SKILL.md: smoke",
                "/r/s/nightly/SKILL.md: e2e/smoke",
            ]
        );
        let with = sorted(refs(&on_name, true));
        assert_eq!(with.len(), 4, "{with:?}");
        assert!(with.contains(&"/r/s/e2e/smoke/SKILL.md: smoke".to_owned()));
        // The other skill named `smoke` is referenced by no chain.
        let other = SKILLS.replace(
            "//- /x/smoke/SKILL.md\n---\nname: smoke",
            "//- /x/smoke/SKILL.md\n---\nname: smo$0ke",
        );
        assert!(refs(&other, false).is_empty());
        assert_eq!(refs(&other, true), ["/x/smoke/SKILL.md: smoke"]);
    }

    #[test]
    fn skill_md_chain_entry_finds_its_target_s_references() {
        let on_entry = SKILLS.replace("chain: [unit, smoke]", "chain: [un$0it, smoke]");
        assert_eq!(
            sorted(refs(&on_entry, true)),
            [
                "/r/s/chain/SKILL.md: unit",
                "/r/s/e2e/all/SKILL.md: unit",
                "/r/s/unit/SKILL.md: unit",
            ]
        );
        // An entry resolving to nothing, and a place that is neither, find nothing.
        let unknown = SKILLS.replace("chain: [unit, smoke]", "chain: [unit, nope$0]");
        assert!(refs(&unknown, true).is_empty());
        let elsewhere = SKILLS.replace(
            "name: chain\ndescription: d",
            "name: chain\ndescription: d$0",
        );
        assert!(refs(&elsewhere, true).is_empty());
    }

    #[test]
    fn highlights_stay_in_the_file() {
        let on_entry = SKILLS.replace("chain: [unit, smoke]", "chain: [un$0it, smoke]");
        let f = fixture(&on_entry);
        let found = document_highlights(&f.index, f.cursor_file, f.offset);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].1, HighlightKind::Use);
        let on_name = SKILLS.replace("name: unit", "name: un$0it");
        let f = fixture(&on_name);
        let found = document_highlights(&f.index, f.cursor_file, f.offset);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].1, HighlightKind::Definition);
    }

    #[test]
    fn highlights_of_a_mention_are_every_name_of_that_skill_in_the_file() {
        let text = "//- /p/.claude/skills/lint/SKILL.md
---
name: lint
description: Lints.
---
Run /lint, then $lint; /lints is another.
//- /p/.claude/skills/lints/SKILL.md
---
name: lints
description: Many.
---
Body.
//- /p/.claude/agents/r.md
---
name: r
description: R.
skills: [lint, lints]
---
Use /li$0nt and `$lint`, not /lints.
";
        let f = fixture(text);
        let found = document_highlights(&f.index, f.cursor_file, f.offset);
        let text_of = |r: TextRange| {
            let entry = f.index.file(f.cursor_file).unwrap();
            entry.text[r.start as usize..r.end as usize].to_owned()
        };
        let shown: Vec<(String, HighlightKind)> =
            found.iter().map(|(r, k)| (text_of(*r), *k)).collect();
        assert_eq!(shown.len(), 3, "{shown:?}");
        assert!(shown
            .iter()
            .all(|(t, k)| t == "lint" && *k == HighlightKind::Use));
        // In the skill itself: its name, as the definition, and its own mentions.
        let own = text
            .replace("Use /li$0nt", "Use /lint")
            .replace("Run /lint,", "Run /li$0nt,");
        let f = fixture(&own);
        let found = document_highlights(&f.index, f.cursor_file, f.offset);
        assert_eq!(found.len(), 3, "{found:?}");
        assert_eq!(found[0].1, HighlightKind::Definition);
    }

    #[test]
    fn highlights_of_an_id_in_a_topology_are_linear_on_a_long_line() {
        let grants: Vec<&str> = std::iter::repeat_n("a", 200_000).collect();
        let text = format!(
            "//- /w/workspace.yaml\napiVersion: swarmkit/v1\nkind: Workspace\nmetadata:\n  id: w\n//- /w/topologies/t.yaml\napiVersion: swarmkit/v1\nkind: Topology\nmetadata:\n  name: t\nagents:\n  root:\n    id: root\n    role: root\n    skills: [a$0, b, {}]\n    requires:\n      b: [a]\n",
            grants.join(", ")
        );
        let f = fixture(&text);
        let found = document_highlights(&f.index, f.cursor_file, f.offset);
        assert_eq!(found.len(), 200_000 + 2);
        assert!(found.iter().all(|(_, k)| *k == HighlightKind::Use));
    }
}
