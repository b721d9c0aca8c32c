//! Applying fixes to texts, without I/O: the edits of one file merged into its new text, and the
//! choice of which safe fixes `check --fix` applies together in one pass.

use std::collections::BTreeMap;

use crate::diagnostic::{Diagnostic, FileId, Fix, TextEdit};
use crate::syntax::TextRange;

/// Why a set of edits cannot be applied to a text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EditError {
    /// Two edits touch the same bytes (or insert at the same place), so their order is unclear.
    Overlap,
    /// An edit reaches past the end of the text or cuts a character in two.
    OutOfRange,
}

/// `text` with `edits` applied (all of them of one file). Edits are given in any order; they
/// must not overlap.
pub fn apply_edits<'e>(
    text: &str,
    edits: impl IntoIterator<Item = &'e TextEdit>,
) -> Result<String, EditError> {
    let mut edits: Vec<&TextEdit> = edits.into_iter().collect();
    edits.sort_by_key(|e| (e.range.start, e.range.end));
    let mut out = String::with_capacity(text.len());
    let mut at = 0usize;
    let mut previous: Option<TextRange> = None;
    for edit in edits {
        let (start, end) = (edit.range.start as usize, edit.range.end as usize);
        if let Some(previous) = previous {
            if overlaps(previous, edit.range) {
                return Err(EditError::Overlap);
            }
        }
        if end > text.len() || !text.is_char_boundary(start) || !text.is_char_boundary(end) {
            return Err(EditError::OutOfRange);
        }
        out.push_str(&text[at..start]);
        out.push_str(&edit.text);
        at = end;
        previous = Some(edit.range);
    }
    out.push_str(&text[at..]);
    Ok(out)
}

/// Two ranges in sorted order that cannot both be applied: they share bytes, or both insert
/// at one place.
fn overlaps(first: TextRange, second: TextRange) -> bool {
    second.start < first.end || (first == second && first.is_empty())
}

/// The safe fixes one pass of `check --fix` applies, grouped by file: each diagnostic's first
/// safe fix without a rename, in the order given, skipping any that touches what an earlier
/// chosen fix touches (the next pass, on the new text, takes it up again). Returns the edits by
/// file and how many fixes were chosen.
pub fn plan_safe_fixes<'d>(
    diagnostics: impl IntoIterator<Item = &'d Diagnostic>,
) -> (BTreeMap<FileId, Vec<TextEdit>>, usize) {
    let mut by_file: BTreeMap<FileId, Vec<TextEdit>> = BTreeMap::new();
    let mut chosen = 0;
    for diagnostic in diagnostics {
        let Some(fix) = diagnostic
            .fixes
            .iter()
            .find(|f| f.safe && f.rename.is_none() && !f.edits.is_empty())
        else {
            continue;
        };
        if conflicts(&by_file, fix) {
            continue;
        }
        for edit in &fix.edits {
            by_file.entry(edit.file).or_default().push(edit.clone());
        }
        chosen += 1;
    }
    (by_file, chosen)
}

/// True when `fix` touches a range already taken (or two of its own edits collide).
fn conflicts(taken: &BTreeMap<FileId, Vec<TextEdit>>, fix: &Fix) -> bool {
    fix.edits.iter().enumerate().any(|(i, edit)| {
        let clash = |other: &TextEdit| {
            other.file == edit.file && {
                let (a, b) = if other.range.start <= edit.range.start {
                    (other.range, edit.range)
                } else {
                    (edit.range, other.range)
                };
                overlaps(a, b) || a.end > b.start
            }
        };
        taken.get(&edit.file).is_some_and(|t| t.iter().any(clash))
            || fix.edits[..i].iter().any(clash)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::codes;

    fn edit(start: u32, end: u32, text: &str) -> TextEdit {
        TextEdit {
            file: FileId(0),
            range: TextRange::new(start, end),
            text: text.to_owned(),
        }
    }

    #[test]
    fn edits_apply_in_text_order_and_overlaps_are_refused() {
        let text = "alpha beta gamma";
        let edits = [edit(11, 16, "G"), edit(0, 5, "A"), edit(6, 6, "new ")];
        assert_eq!(apply_edits(text, &edits).unwrap(), "A new beta G");
        assert_eq!(
            apply_edits(text, &[edit(0, 6, ""), edit(5, 8, "")]),
            Err(EditError::Overlap)
        );
        assert_eq!(
            apply_edits(text, &[edit(3, 3, "x"), edit(3, 3, "y")]),
            Err(EditError::Overlap)
        );
        assert_eq!(
            apply_edits("é", &[edit(1, 2, "")]),
            Err(EditError::OutOfRange)
        );
        assert_eq!(
            apply_edits(text, &[edit(10, 99, "")]),
            Err(EditError::OutOfRange)
        );
    }

    #[test]
    fn a_pass_takes_safe_fixes_that_do_not_collide() {
        let fix = |start, end, safe| Fix {
            safe,
            ..Fix::replace("t", FileId(0), TextRange::new(start, end), "")
        };
        let diagnostic = |fix: Fix| {
            Diagnostic::new(
                codes::AGENT_DUPLICATE_GRANT,
                FileId(0),
                TextRange::new(0, 1),
                "m",
            )
            .with_fix(fix)
        };
        let all = [
            diagnostic(fix(0, 4, true)),
            diagnostic(fix(2, 6, true)),
            diagnostic(fix(8, 9, false)),
            diagnostic(fix(10, 12, true)),
        ];
        let (plan, chosen) = plan_safe_fixes(&all);
        assert_eq!(chosen, 2);
        let ranges: Vec<_> = plan[&FileId(0)].iter().map(|e| e.range).collect();
        assert_eq!(ranges, [TextRange::new(0, 4), TextRange::new(10, 12)]);
    }

    use crate::index::{Change, Index};
    use std::collections::HashMap;
    use std::path::{Path, PathBuf};

    /// Every diagnostic of every file, as (path, code, range, message).
    type Said = (PathBuf, &'static str, TextRange, String);

    fn said(index: &Index) -> Vec<Said> {
        let mut all: Vec<_> = index
            .files()
            .flat_map(|f| index.diagnostics(f.id))
            .map(|d| {
                let path = index.file(d.file).unwrap().path.clone();
                (path, d.code.name(), d.range, d.message)
            })
            .collect();
        all.sort();
        all
    }

    /// The changes that apply `fix` to the files of `index`: edited texts, and a renamed
    /// folder's files removed and set again under the new name.
    fn changes_of(index: &Index, fix: &Fix) -> Vec<Change> {
        let mut texts: HashMap<FileId, String> = HashMap::new();
        let mut by_file: BTreeMap<FileId, Vec<&TextEdit>> = BTreeMap::new();
        for edit in &fix.edits {
            by_file.entry(edit.file).or_default().push(edit);
        }
        for (file, edits) in by_file {
            let text = &index.file(file).unwrap().text;
            let edited = apply_edits(text, edits.iter().copied())
                .unwrap_or_else(|e| panic!("{}: {e:?}", fix.title));
            texts.insert(file, edited);
        }
        let mut changes = Vec::new();
        for entry in index.files() {
            let text = texts.get(&entry.id).cloned();
            let moved = fix.rename.as_ref().and_then(|r| {
                let rest = entry.path.strip_prefix(&r.from).ok()?;
                Some(r.to.join(rest))
            });
            match (moved, text) {
                (Some(to), text) => {
                    changes.push(Change::Remove {
                        path: entry.path.clone(),
                    });
                    changes.push(Change::Set {
                        path: to,
                        text: text.unwrap_or_else(|| entry.text.to_string()),
                    });
                }
                (None, Some(text)) => changes.push(Change::Set {
                    path: entry.path.clone(),
                    text,
                }),
                (None, None) => {}
            }
        }
        changes
    }

    fn roots() -> Vec<PathBuf> {
        let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut roots = vec![
            manifest.join("../examples/demo"),
            manifest.join("tests/fixtures/fixes"),
        ];
        let parity = manifest.join("tests/fixtures/parity");
        let mut cases: Vec<PathBuf> = std::fs::read_dir(&parity)
            .unwrap()
            .map(|e| e.unwrap().path().join("ws"))
            .filter(|p| p.is_dir())
            .collect();
        cases.sort();
        roots.extend(cases);
        roots
    }

    #[test]
    fn every_offered_fix_clears_its_diagnostic_and_adds_none() {
        // "Disable this rule on this line" included: the comment must silence exactly it.
        let mut offered = 0;
        let mut disabled = 0;
        let mut codes = std::collections::BTreeSet::new();
        for root in roots() {
            let (changes, _) = crate::discover::discover(std::slice::from_ref(&root));
            let mut index = Index::new(&crate::rules::CHECKS);
            index.apply(changes);
            let before = said(&index);
            for file in index.files() {
                for diagnostic in index.diagnostics(file.id) {
                    let disable = index.disable_fix(&diagnostic);
                    if disable.is_some() {
                        disabled += 1;
                    }
                    for fix in diagnostic.fixes.iter().chain(disable.as_ref()) {
                        offered += 1;
                        codes.insert(diagnostic.code);
                        let mut fixed = index.clone();
                        fixed.apply(changes_of(&index, fix));
                        let moved = |path: &Path| match &fix.rename {
                            Some(r) => path
                                .strip_prefix(&r.from)
                                .map_or_else(|_| path.to_owned(), |rest| r.to.join(rest)),
                            None => path.to_owned(),
                        };
                        // Counted per file and code: the fixed diagnostic's count drops,
                        // and no count grows (a problem may be restated elsewhere, as a loop
                        // shown through another edge once one edge is gone, but not added).
                        let count = |all: &[Said]| {
                            let mut counts: BTreeMap<(PathBuf, &str), i64> = BTreeMap::new();
                            for (p, c, _, _) in all {
                                *counts.entry((moved(p), *c)).or_default() += 1;
                            }
                            counts
                        };
                        let (old, after) = (count(&before), said(&fixed));
                        let now = count(&after);
                        let this = (moved(&file.path), diagnostic.code.name());
                        assert!(
                            now.get(&this).copied().unwrap_or(0) < old[&this],
                            "`{}` on {} leaves {}: {}",
                            fix.title,
                            file.path.display(),
                            diagnostic.code,
                            diagnostic.message
                        );
                        let new: Vec<&Said> = after
                            .iter()
                            .filter(|(p, c, _, _)| {
                                let key = (p.clone(), *c);
                                now[&key] > old.get(&key).copied().unwrap_or(0)
                            })
                            .collect();
                        assert!(
                            new.is_empty(),
                            "`{}` on {} ({}: {}) leaves or brings {new:#?}",
                            fix.title,
                            file.path.display(),
                            diagnostic.code,
                            diagnostic.message
                        );
                    }
                }
            }
        }
        // The fixtures hold at least one case of each fix.
        for code in [
            codes::AGENT_UNKNOWN_SKILL,
            codes::AGENT_UNKNOWN_ARCHETYPE,
            codes::AGENT_DUPLICATE_GRANT,
            codes::AGENT_REQUIRES_DUPLICATE,
            codes::AGENT_DEPENDS_ON_SELF,
            codes::AGENT_DEPENDS_ON_UNKNOWN,
            codes::AGENT_REQUIRES_UNKNOWN_SKILL,
            codes::TRIGGER_UNKNOWN_TARGET,
            codes::AGENT_UNKNOWN_BULK_GRANT,
            codes::SCHEMA_UNKNOWN_FIELD,
            codes::SKILL_UNKNOWN_MCP_SERVER,
            codes::SKILLMD_CHAIN_UNKNOWN_SKILL,
            codes::SKILLMD_NAME_FORMAT,
            codes::SKILLMD_NAME_MISMATCH,
            codes::SKILLMD_UNKNOWN_FIELD,
            codes::SKILLMD_METADATA_SHAPE,
            codes::SKILLMD_YAML_PARSE,
        ] {
            assert!(
                codes.contains(&code),
                "no fix offered for {code}: {codes:?}"
            );
        }
        assert!(offered > 20, "{offered}");
        assert!(disabled > 100, "{disabled}");
    }
}
