//! The diagnostics of a check as plain values, for the SKILL.md tests that compare them: the
//! file, the code, the severity, where the range starts and the text it covers, the message,
//! the texts of the related places, and the file as the first fix leaves it.

// Each test binary reads a different subset of the fields.
#![allow(dead_code)]

use std::path::PathBuf;

use skillgraph::check::{check_changes, CheckOutcome};
use skillgraph::diagnostic::{FileId, Severity};
use skillgraph::fix::apply_edits;
use skillgraph::index::{Change, Index};
use skillgraph::testing::set_files;

#[derive(Debug)]
pub struct Found {
    pub path: String,
    pub code: &'static str,
    pub severity: Severity,
    pub message: String,
    /// The text under each related place's range.
    pub related: Vec<String>,
    /// The byte offset the range starts at.
    pub start: usize,
    /// The text under the diagnostic's range.
    pub text: String,
    /// The diagnostic's file with the edits of its first fix to that file, if it offers one.
    pub fix: Option<String>,
}

/// Every diagnostic of a batch check of `changes`, in the order the check reports them.
pub fn check_changes_found(changes: Vec<Change>) -> Vec<Found> {
    found_in(&check_changes(changes, PathBuf::from("/")))
}

/// Every diagnostic of a check's outcome, in its order.
pub fn found_in(outcome: &CheckOutcome) -> Vec<Found> {
    let text_of = |file, range: skillgraph::syntax::TextRange| {
        let entry = outcome.index.file(file).expect("a file the check knows");
        entry.text[range.start as usize..range.end as usize].to_owned()
    };
    outcome
        .diagnostics
        .iter()
        .map(|d| {
            let entry = outcome.index.file(d.file).expect("file of a diagnostic");
            let fix = d.fixes.first().map(|fix| {
                apply_edits(&entry.text, fix.edits.iter().filter(|e| e.file == d.file))
                    .expect("an offered fix applies")
            });
            Found {
                path: entry.path.to_string_lossy().into_owned(),
                code: d.code.name(),
                severity: d.severity,
                message: d.message.clone(),
                related: d.related.iter().map(|r| text_of(r.file, r.range)).collect(),
                start: d.range.start as usize,
                text: text_of(d.file, d.range),
                fix,
            }
        })
        .collect()
}

/// Every diagnostic of a batch check of the files `(path, text)`.
pub fn check_files(files: &[(&str, &str)]) -> Vec<Found> {
    check_changes_found(set_files(files))
}

/// Fails, listing them, unless there are no diagnostics.
#[track_caller]
pub fn assert_silent(found: &[Found]) {
    assert!(found.is_empty(), "{found:#?}");
}

/// The codes of the diagnostics an index holds on one file, in its order.
pub fn codes_on(index: &Index, file: FileId) -> Vec<&'static str> {
    index
        .diagnostics(file)
        .iter()
        .map(|d| d.code.name())
        .collect()
}
