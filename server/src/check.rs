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
    /// The diagnostics of the files asked about (all of them unless scoped).
    pub diagnostics: Vec<Diagnostic>,
    /// Arguments checked within a wider root, and that root: `check` says so.
    pub widened: Vec<(PathBuf, PathBuf)>,
    files_checked: usize,
    cwd: PathBuf,
}

/// Checks everything under `paths`. Fails only when nothing at all could be read.
pub fn run_check(paths: &[PathBuf]) -> Result<CheckOutcome, String> {
    run_scoped_check(paths, None)
}

/// Checks `paths` (files or folders) in their context: each is read within the workspace or
/// skill root that encloses it ([`crate::discover::enclosing_root`]), so cross-file rules see
/// what they need, but only diagnostics of files at or below the paths are reported.
/// `stdin` is a buffer that stands for the file at its path, read or not.
pub fn run_scoped_check(
    paths: &[PathBuf],
    stdin: Option<(PathBuf, String)>,
) -> Result<CheckOutcome, String> {
    let cwd =
        std::env::current_dir().map_err(|e| format!("cannot read the current directory: {e}"))?;
    let mut asked: Vec<PathBuf> = paths.iter().map(|p| absolute(p)).collect();
    let stdin = stdin.map(|(path, text)| (absolute(&path), text));
    asked.extend(stdin.iter().map(|(path, _)| path.clone()));
    let mut widened = Vec::new();
    let mut roots: Vec<PathBuf> = Vec::new();
    for path in &asked {
        let root = match crate::discover::enclosing_root_on_disk(path) {
            Some(root) if root != *path => {
                widened.push((path.clone(), root.clone()));
                root
            }
            // A buffer for a file that nothing encloses is checked alone.
            None if stdin.as_ref().is_some_and(|(p, _)| p == path) => continue,
            _ => path.clone(),
        };
        roots.push(root);
    }
    let outer = crate::discover::outermost(roots);
    let (mut changes, errors) = crate::discover::discover(&outer);
    for error in &errors {
        eprintln!(
            "skillgraph: cannot read {}: {}",
            error.path.display(),
            error.error
        );
    }
    if let Some((path, text)) = stdin {
        changes.retain(|c| !matches!(c, Change::Set { path: p, .. } if *p == path));
        changes.push(Change::Set { path, text });
    }
    // `${…}` references read the process environment after the workspace's properties, as
    // `swarmkit run` started from this shell would.
    let environment = std::env::vars_os()
        .filter_map(|(k, v)| Some((k.into_string().ok()?, v.into_string().ok()?)))
        .collect();
    let mut outcome = check_changes_in(changes, cwd, std::sync::Arc::new(environment));
    let in_scope = |path: &Path| asked.iter().any(|a| path.starts_with(a));
    let scoped = |id: FileId| outcome.index.file(id).is_some_and(|f| in_scope(&f.path));
    let diagnostics: Vec<Diagnostic> = outcome
        .diagnostics
        .iter()
        .filter(|d| scoped(d.file))
        .cloned()
        .collect();
    outcome.files_checked = outcome
        .index
        .files()
        .filter(|f| f.role.is_ours() && in_scope(&f.path))
        .count();
    outcome.diagnostics = diagnostics;
    outcome.widened = widened;
    Ok(outcome)
}

fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_owned())
}

/// Indexes `changes` in one batch and collects every diagnostic. Used by `run_check` and by
/// tests that hand files in directly.
pub fn check_changes(changes: Vec<Change>, cwd: PathBuf) -> CheckOutcome {
    check_changes_in(changes, cwd, Default::default())
}

/// [`check_changes`] with `environment` as what `${…}` references read after the workspaces'
/// properties (and where `SWARMKIT_ENV` is looked up).
pub fn check_changes_in(
    changes: Vec<Change>,
    cwd: PathBuf,
    environment: std::sync::Arc<std::collections::BTreeMap<String, String>>,
) -> CheckOutcome {
    let mut index = Index::with_environment(environment);
    index.apply(changes);
    let mut files: Vec<(&Path, FileId)> = index.files().map(|f| (f.path.as_path(), f.id)).collect();
    // Paths are unique, so an unstable sort on the workers gives the same order.
    rayon::slice::ParallelSliceMut::par_sort_unstable(&mut files[..]);
    let diagnostics = files
        .iter()
        .flat_map(|&(_, id)| index.diagnostics(id))
        .collect();
    let files_checked = index.checked_file_count();
    CheckOutcome {
        index,
        diagnostics,
        widened: Vec::new(),
        files_checked,
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
        // A path is shown as it is: lossy only where it is not UTF-8, and `\` is a separator
        // only on Windows (elsewhere it is a character a file name may hold).
        let lossy = shown.to_string_lossy();
        let text = if cfg!(windows) {
            lossy.replace('\\', "/")
        } else {
            lossy.into_owned()
        };
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
            files_checked: self.files_checked,
        }
    }
}
