//! Applying fixes to texts, without I/O: the edits of one file merged into its new text, and the
//! choice of which safe fixes `check --fix` applies together in one pass. It must not know why a
//! fix is offered, nor write a file: its callers do.

use std::collections::BTreeMap;

use crate::diagnostic::{Diagnostic, FileId, Fix, PathRename, TextEdit};
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

/// Which fixes `check --fix` may apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FixMode {
    /// Only the fixes whose intent is beyond doubt (`Fix::safe`): a repeat removed, a value
    /// quoted.
    Safe,
    /// Also the fixes that guess (`check --unsafe-fixes`): the closest known id, a renamed
    /// name, a folder renamed to match.
    Unsafe,
}

/// The fix `check --fix` applies for `diagnostic` in `mode`, among the fixes `applicable` lets
/// through (in scope, writable). Safe: the first safe fix without a rename, as ever. Unsafe:
/// the fix the rule prefers, else its only fix (when `applicable`), else the first safe one; a
/// diagnostic offering several guesses and preferring none is a choice only its author can
/// make, so none is taken.
pub fn chosen_fix(
    diagnostic: &Diagnostic,
    mode: FixMode,
    applicable: impl Fn(&Fix) -> bool,
) -> Option<&Fix> {
    let usable = |f: &&Fix| (!f.edits.is_empty() || f.rename.is_some()) && applicable(f);
    let first_safe = || {
        diagnostic
            .fixes
            .iter()
            .filter(|f| f.safe && f.rename.is_none())
            .find(usable)
    };
    match mode {
        FixMode::Safe => first_safe(),
        FixMode::Unsafe => {
            // Chosen among every fix offered, then held to `applicable`: when the guess the
            // rule prefers cannot be applied, another guess is not taken in its place.
            let fixes = &diagnostic.fixes;
            let guess = fixes
                .iter()
                .find(|f| f.preferred)
                .or_else(|| (fixes.len() == 1).then(|| &fixes[0]));
            match guess {
                Some(guess) => Some(guess).filter(usable).or_else(first_safe),
                None => first_safe(),
            }
        }
    }
}

/// What one pass of `check --fix` applies: the edits by file and the folder renames (applied
/// after the edits, in order), and how many fixes they come from.
#[derive(Debug, Default)]
pub struct Plan {
    pub edits: BTreeMap<FileId, Vec<TextEdit>>,
    pub renames: Vec<PathRename>,
    pub chosen: usize,
}

/// The fixes one pass of `check --fix` applies: each diagnostic's [`chosen_fix`], in the order
/// given, skipping any that touches what an earlier chosen fix touches (the next pass, on the
/// new text, takes it up again). Two renames collide when either folder holds the other's
/// source or target, so two guesses for one folder, or two folders guessed to one name, never
/// go out together.
pub fn plan_fixes<'d>(
    diagnostics: impl IntoIterator<Item = &'d Diagnostic>,
    mode: FixMode,
    applicable: impl Fn(&Fix) -> bool,
) -> Plan {
    let mut plan = Plan::default();
    for diagnostic in diagnostics {
        let Some(fix) = chosen_fix(diagnostic, mode, &applicable) else {
            continue;
        };
        if conflicts(&plan.edits, fix) || renames_collide(&plan.renames, fix) {
            continue;
        }
        for edit in &fix.edits {
            plan.edits.entry(edit.file).or_default().push(edit.clone());
        }
        plan.renames.extend(fix.rename.clone());
        plan.chosen += 1;
    }
    plan
}

/// [`plan_fixes`] of the safe fixes: the edits by file and how many fixes were chosen.
pub fn plan_safe_fixes<'d>(
    diagnostics: impl IntoIterator<Item = &'d Diagnostic>,
) -> (BTreeMap<FileId, Vec<TextEdit>>, usize) {
    let plan = plan_fixes(diagnostics, FixMode::Safe, |_| true);
    (plan.edits, plan.chosen)
}

/// True when `fix` renames a folder that holds, or lies in, a folder another rename of the
/// pass moves from or to.
fn renames_collide(taken: &[PathRename], fix: &Fix) -> bool {
    let Some(rename) = &fix.rename else {
        return false;
    };
    let nested = |a: &std::path::Path, b: &std::path::Path| a.starts_with(b) || b.starts_with(a);
    taken.iter().any(|other| {
        [&other.from, &other.to]
            .iter()
            .any(|p| nested(p, &rename.from) || nested(p, &rename.to))
    })
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

    #[test]
    fn guesses_go_by_preference_and_two_for_one_folder_never_go_together() {
        let guess = |start, to: &str| {
            Fix::replace(
                format!("Use `{to}`"),
                FileId(0),
                TextRange::new(start, start + 1),
                to,
            )
        };
        let diagnostic = |fixes: Vec<Fix>| {
            let mut d = Diagnostic::new(
                codes::AGENT_UNKNOWN_SKILL,
                FileId(0),
                TextRange::new(0, 1),
                "m",
            );
            d.fixes = fixes;
            d
        };
        let rename = |from: &str, to: &str| Fix {
            rename: Some(PathRename {
                from: from.into(),
                to: to.into(),
            }),
            ..guess(40, "x")
        };
        let all = [
            // The preferred guess, not the other.
            diagnostic(vec![guess(0, "a"), guess(2, "b").preferred()]),
            // Two guesses, neither preferred: the author's choice.
            diagnostic(vec![guess(4, "c"), guess(6, "d")]),
            // The only guess.
            diagnostic(vec![guess(8, "e")]),
            // Two folders guessed to one name, and a folder inside a renamed one.
            diagnostic(vec![Fix {
                edits: vec![],
                ..rename("/s/A_B", "/s/a-b")
            }]),
            diagnostic(vec![Fix {
                edits: vec![],
                ..rename("/s/A-B", "/s/a-b")
            }]),
            diagnostic(vec![Fix {
                edits: vec![],
                ..rename("/s/A_B/C_D", "/s/A_B/c-d")
            }]),
        ];
        let safe = plan_fixes(&all, FixMode::Safe, |_| true);
        assert_eq!(safe.chosen, 0);
        let plan = plan_fixes(&all, FixMode::Unsafe, |_| true);
        assert_eq!(plan.chosen, 3);
        let texts: Vec<&str> = plan.edits[&FileId(0)]
            .iter()
            .map(|e| e.text.as_str())
            .collect();
        assert_eq!(texts, ["b", "e"]);
        assert_eq!(
            plan.renames,
            [PathRename {
                from: "/s/A_B".into(),
                to: "/s/a-b".into()
            }]
        );
        // A guess the caller cannot apply (out of scope) is not replaced by the other one.
        let refused = plan_fixes(&all[..1], FixMode::Unsafe, |f| f.title != "Use `b`");
        assert_eq!(refused.chosen, 0);
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
                        text: text.map_or_else(|| entry.text.clone(), Into::into),
                    });
                }
                (None, Some(text)) => changes.push(Change::Set {
                    path: entry.path.clone(),
                    text: text.into(),
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
