//! The `check` command's driver: discover, index, gather diagnostics in path order, and build
//! the report the output formats render.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::cli::{Report, ReportFile};
use crate::diagnostic::{Diagnostic, FileId, Severity};
use crate::index::{Change, Index};

/// An indexed file set and its diagnostics, sorted by path then position.
pub struct CheckOutcome {
    pub index: Index,
    pub diagnostics: Vec<Diagnostic>,
    cwd: PathBuf,
}

/// Checks everything under `paths`. Fails only when nothing at all could be read.
pub fn run_check(paths: &[PathBuf]) -> Result<CheckOutcome, String> {
    let cwd =
        std::env::current_dir().map_err(|e| format!("cannot read the current directory: {e}"))?;
    let roots: Vec<PathBuf> = paths
        .iter()
        .map(|p| std::path::absolute(p).unwrap_or_else(|_| p.clone()))
        .collect();
    let (changes, errors) = crate::discover::discover(&roots);
    for error in &errors {
        eprintln!(
            "skillgraph: cannot read {}: {}",
            error.path.display(),
            error.error
        );
    }
    Ok(check_changes(changes, cwd))
}

/// Indexes `changes` in one batch and collects every diagnostic. Used by `run_check` and by
/// tests that hand files in directly.
pub fn check_changes(changes: Vec<Change>, cwd: PathBuf) -> CheckOutcome {
    let mut index = Index::new();
    index.apply(changes);
    let mut files: Vec<(&Path, FileId)> = index.files().map(|f| (f.path.as_path(), f.id)).collect();
    files.sort();
    let diagnostics = files
        .iter()
        .flat_map(|&(_, id)| index.diagnostics(id))
        .collect();
    CheckOutcome {
        index,
        diagnostics,
        cwd,
    }
}

impl CheckOutcome {
    /// (errors, warnings).
    pub fn counts(&self) -> (usize, usize) {
        let count = |s| self.diagnostics.iter().filter(|d| d.severity == s).count();
        (count(Severity::Error), count(Severity::Warning))
    }

    pub fn display_path(&self, path: &Path) -> String {
        let shown = path.strip_prefix(&self.cwd).unwrap_or(path);
        let text = shown.to_string_lossy().replace('\\', "/");
        if text.is_empty() {
            ".".to_owned()
        } else {
            text
        }
    }

    pub fn report(&self) -> Report<'_> {
        let mut files = HashMap::new();
        for entry in self.index.files() {
            files.insert(
                entry.id,
                ReportFile {
                    display_path: self.display_path(&entry.path),
                    text: &entry.text,
                    line_index: &entry.line_index,
                },
            );
        }
        Report {
            files,
            diagnostics: self.diagnostics.clone(),
            files_checked: self.index.checked_file_count(),
        }
    }
}
