//! The `check` command's driver: discover, index, gather diagnostics in path order, and build
//! the report the output formats render. It must not know how a format looks (that is `cli`'s)
//! nor what a rule decides (that is `rules`').

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::cli::{Report, ReportFile};
use crate::diagnostic::{Diagnostic, FileId, Fix, Severity};
pub use crate::fix::FixMode;
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
    /// The paths asked about; empty for a check of everything (`check_changes`).
    asked: Vec<PathBuf>,
}

/// What `check --fix` did: each file it changed or moved, with its text before and after, the
/// folders it renamed, and whether the passes reached a point where no fix was left.
pub struct FixOutcome {
    /// Every file changed or moved, in path order (of the path it had).
    pub files: Vec<FixedFile>,
    /// Folders renamed, in the order to rename them on disk (before `files` are written).
    pub renames: Vec<crate::diagnostic::PathRename>,
    /// Fixes applied, over all passes.
    pub applied: usize,
    pub passes: usize,
    /// False when fixes were still offered after [`MAX_FIX_PASSES`] passes.
    pub converged: bool,
    /// Diagnostics left with a fix that guesses, which `--unsafe-fixes` would apply (0 with it).
    pub hidden: usize,
}

/// A file `check --fix` changed: where it was and is (they differ when its folder was renamed),
/// and its text before and after.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FixedFile {
    pub from: PathBuf,
    pub to: PathBuf,
    pub before: String,
    pub after: String,
}

/// Passes of `check --fix`. A pass applies every safe fix that does not collide with another;
/// the next pass takes up what collided and what a fix made fixable. Fixes only remove or
/// rewrite what their diagnostic names, so real files settle in two or three passes.
pub const MAX_FIX_PASSES: usize = 10;

/// Checks everything under `paths`. Fails only when nothing at all could be read.
pub fn run_check(paths: &[PathBuf]) -> Result<CheckOutcome, String> {
    run_scoped_check(paths, None)
}

/// Checks `paths` (files or folders) in their context: each is read within the workspace or
/// skill root that encloses it ([`crate::discover::enclosing_root`]), so cross-file rules see
/// what they need, but only diagnostics of files at or below the paths are reported.
/// `stdin` is the bytes of a buffer that stands for the file at its path, read or not: decoded
/// and capped as a file's bytes are.
pub fn run_scoped_check(
    paths: &[PathBuf],
    stdin: Option<(PathBuf, Vec<u8>)>,
) -> Result<CheckOutcome, String> {
    run_scoped_check_with(paths, stdin, false)
}

/// [`run_scoped_check`], running `<binary> --version` for the command packs' version
/// constraints when `probe_versions` (`check --probe-versions`); without it, required binaries
/// are only looked up on `PATH`.
pub fn run_scoped_check_with(
    paths: &[PathBuf],
    stdin: Option<(PathBuf, Vec<u8>)>,
    probe_versions: bool,
) -> Result<CheckOutcome, String> {
    run_fenced_check(paths, stdin, probe_versions, &[])
}

/// [`run_scoped_check_with`], reading nothing outside `fences` when there are any (`skillgraph
/// mcp`'s roots): a path whose enclosing workspace or skill root lies above every fence holding
/// it is read within that fence instead. Each path must lie inside a fence.
pub fn run_fenced_check(
    paths: &[PathBuf],
    stdin: Option<(PathBuf, Vec<u8>)>,
    probe_versions: bool,
    fences: &[PathBuf],
) -> Result<CheckOutcome, String> {
    let cwd =
        std::env::current_dir().map_err(|e| format!("cannot read the current directory: {e}"))?;
    let mut asked: Vec<PathBuf> = paths.iter().map(|p| absolute(p)).collect();
    let stdin = stdin.map(|(path, bytes)| Change::from_bytes(absolute(&path), &bytes));
    asked.extend(stdin.iter().map(|buffer| buffer.path().to_owned()));
    let mut widened = Vec::new();
    let mut roots: Vec<PathBuf> = Vec::new();
    for path in &asked {
        let root = match crate::discover::enclosing_root_on_disk(path) {
            Some(root) if root != *path => {
                widened.push((path.clone(), root.clone()));
                root
            }
            // A buffer for a file that nothing encloses is checked alone.
            None if stdin.as_ref().is_some_and(|buffer| buffer.path() == path) => continue,
            _ => path.clone(),
        };
        roots.push(within_fences(root, path, fences));
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
    if let Some(buffer) = stdin {
        // The buffer replaces the file's text as read from disk, whichever way it decoded.
        changes.retain(|c| {
            !(matches!(c, Change::Set { .. } | Change::SetDecoded { .. })
                && c.path() == buffer.path())
        });
        changes.push(buffer);
    }
    // `${…}` references read the process environment after the workspace's properties, as
    // `swarmkit run` started from this shell would.
    let environment = std::env::vars_os()
        .filter_map(|(k, v)| Some((k.into_string().ok()?, v.into_string().ok()?)))
        .collect();
    let mut outcome = index_and_report(changes, cwd, std::sync::Arc::new(environment));
    // What `swarmkit run` started from this shell would find of the binaries its command packs
    // require: looked up here, at the edge, and handed to the checks as data.
    let binaries = crate::probe::required_binaries(&outcome.index);
    // And what it would find at the `output_schema` paths no file read answers.
    let schema_paths = crate::semantics::schema_files::unanswered_paths(&outcome.index);
    if !binaries.is_empty() || !schema_paths.is_empty() {
        let path = std::env::var_os("PATH");
        let executables = crate::probe::executables(&binaries, path.as_deref(), probe_versions);
        let settings = crate::index::Settings {
            executables: std::sync::Arc::new(executables),
            schema_paths: std::sync::Arc::new(
                schema_paths
                    .into_iter()
                    .map(|path| {
                        let fact = path_fact(&path);
                        (path, fact)
                    })
                    .collect(),
            ),
            ..outcome.index.settings.clone()
        };
        outcome.index.set_settings(settings);
        outcome.diagnostics = all_diagnostics(&outcome.index);
    }
    let in_scope = |path: &Path| asked.iter().any(|a| path.starts_with(a));
    let scoped = |id: FileId| outcome.index.file(id).is_some_and(|f| in_scope(&f.path));
    let diagnostics: Vec<Diagnostic> = outcome
        .diagnostics
        .iter()
        .filter(|d| scoped(d.file))
        .cloned()
        .collect();
    // Counted on the workers: a path comparison per file (component by component) is a few
    // milliseconds at 10,000 files, on the critical path of every check.
    let files: Vec<&crate::index::FileEntry> = outcome.index.files().collect();
    outcome.files_checked = files
        .par_iter()
        .filter(|f| (f.role.is_ours() || f.parsed.stray.is_some()) && in_scope(&f.path))
        .count();
    outcome.diagnostics = diagnostics;
    outcome.widened = widened;
    outcome.asked = asked;
    Ok(outcome)
}

/// `root`, the root widened from `path`, when it lies inside a fence holding `path` (or there
/// are no fences); else the innermost fence holding `path`, and `path` itself when none does.
fn within_fences(root: PathBuf, path: &Path, fences: &[PathBuf]) -> PathBuf {
    if fences.is_empty() {
        return root;
    }
    let holding = fences.iter().filter(|fence| path.starts_with(fence));
    if holding.clone().any(|fence| root.starts_with(fence)) {
        return root;
    }
    holding
        .max_by_key(|fence| fence.components().count())
        .cloned()
        .unwrap_or_else(|| path.to_owned())
}

/// What is on disk at an `output_schema` path the file set does not hold, as SwarmKit would
/// find it: `_resolve_path` asks `Path.is_file()` (following symlinks), then
/// `resolve_output_schema` reads the text. Opening never waits (a FIFO is not opened at all).
fn path_fact(path: &Path) -> crate::model::schema_file::PathFact {
    use crate::model::schema_file::PathFact;
    match std::fs::metadata(path) {
        Err(error)
            if matches!(
                error.kind(),
                std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
            ) =>
        {
            PathFact::Missing
        }
        Err(error) => PathFact::Unreadable(error.to_string()),
        Ok(meta) if meta.is_dir() => PathFact::Folder,
        Ok(meta) if !meta.is_file() => PathFact::Unreadable("it is not a regular file".to_owned()),
        Ok(_) => match std::fs::File::open(path) {
            Ok(_) => PathFact::Unread,
            Err(error) => PathFact::Unreadable(error.to_string()),
        },
    }
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
    let mut outcome = index_and_report(changes, cwd, environment);
    outcome.files_checked = outcome.index.checked_file_count();
    outcome
}

/// Indexes `changes` in one batch and collects every diagnostic, leaving the count of files
/// checked to the caller (a scoped check counts only the files in its scope).
fn index_and_report(
    changes: Vec<Change>,
    cwd: PathBuf,
    environment: std::sync::Arc<std::collections::BTreeMap<String, String>>,
) -> CheckOutcome {
    let mut index = Index::with_environment(&crate::rules::CHECKS, environment);
    index.apply(changes);
    let diagnostics = all_diagnostics(&index);
    CheckOutcome {
        index,
        diagnostics,
        widened: Vec::new(),
        files_checked: 0,
        cwd,
        asked: Vec::new(),
    }
}

/// Every file's diagnostics, in path order.
fn all_diagnostics(index: &Index) -> Vec<Diagnostic> {
    // In id order, the order the files were handed in, which for a walk is the path order: the
    // files are usually sorted already, and one pass says so.
    let mut files: Vec<&crate::index::FileEntry> = index.files().collect();
    let in_path_order = files
        .windows(2)
        .all(|pair| crate::discover::path_order(&pair[0].path, &pair[1].path).is_lt());
    if !in_path_order {
        // Paths are unique, so an unstable sort on the workers gives the same order.
        rayon::slice::ParallelSliceMut::par_sort_unstable_by(&mut files[..], |a, b| {
            crate::discover::path_order(&a.path, &b.path)
        });
    }
    // Each file's diagnostics (levels looked up in its config, sorted by position) on the
    // workers; collecting keeps the path order.
    files
        .par_iter()
        .flat_map_iter(|entry| index.diagnostics_of(entry))
        .collect()
}

impl CheckOutcome {
    fn in_scope(&self, path: &Path) -> bool {
        self.asked.is_empty() || self.asked.iter().any(|a| path.starts_with(a))
    }

    /// The diagnostics of the files in scope, in path order, from the index as it is now.
    fn collect_diagnostics(&self) -> Vec<Diagnostic> {
        let mut files: Vec<(&Path, FileId)> = self
            .index
            .files()
            .filter(|f| self.in_scope(&f.path))
            .map(|f| (f.path.as_path(), f.id))
            .collect();
        files.sort_unstable();
        files
            .iter()
            .flat_map(|&(_, id)| self.index.diagnostics(id))
            .collect()
    }

    /// Applies the safe fixes of the files in scope, in memory; see [`CheckOutcome::apply_fixes`].
    pub fn apply_safe_fixes(&mut self) -> FixOutcome {
        self.apply_fixes(FixMode::Safe)
    }

    /// True when `fix` may be applied by `check --fix`: every file it edits is in scope and was
    /// UTF-8 (writing its decoded text back would replace the bytes that were not), and a folder
    /// it renames is on disk, in scope, and goes to a name in scope that nothing holds yet, on
    /// disk or in the index (a stdin buffer's folder is not renamed).
    fn fix_applies(&self, fix: &Fix) -> bool {
        let writable = |file: FileId| {
            self.index
                .file(file)
                .is_some_and(|f| f.invalid_utf8_at.is_none() && self.in_scope(&f.path))
        };
        if !fix.edits.iter().all(|e| writable(e.file)) {
            return false;
        }
        let Some(rename) = &fix.rename else {
            return true;
        };
        !self.asked.is_empty()
            && rename.from != rename.to
            && self.in_scope(&rename.from)
            && self.in_scope(&rename.to)
            && !self.asked.contains(&rename.from)
            && rename.from.is_dir()
            && std::fs::symlink_metadata(&rename.to).is_err()
            && !self.index.files().any(|f| f.path.starts_with(&rename.to))
    }

    /// How many diagnostics in scope have a fix that only `--unsafe-fixes` applies.
    pub fn hidden_fixes(&self) -> usize {
        let applies = |fix: &Fix| self.fix_applies(fix);
        self.diagnostics
            .iter()
            .filter(|d| {
                !d.fixes.is_empty()
                    && crate::fix::chosen_fix(d, FixMode::Safe, applies).is_none()
                    && crate::fix::chosen_fix(d, FixMode::Unsafe, applies).is_some()
            })
            .count()
    }

    /// Applies the fixes `mode` allows of the files in scope, in memory, and checks again, until
    /// none is left or [`MAX_FIX_PASSES`] passes are done; the diagnostics are then those of the
    /// fixed texts. Only fixes `CheckOutcome::fix_applies` accepts are taken. A folder rename
    /// moves the index's files under it (their edits of the same pass applied first). Nothing
    /// is written: the caller renames the folders and writes `files` (or shows them as a diff).
    pub fn apply_fixes(&mut self, mode: FixMode) -> FixOutcome {
        // Each file touched, by the path it has now: the path and text it had at the start.
        let mut origin: std::collections::BTreeMap<PathBuf, (PathBuf, String)> = Default::default();
        let mut renames = Vec::new();
        let mut applied = 0;
        let mut passes = 0;
        let mut converged = false;
        loop {
            let plan = crate::fix::plan_fixes(&self.diagnostics, mode, |fix| self.fix_applies(fix));
            if plan.chosen == 0 {
                converged = true;
                break;
            }
            if passes == MAX_FIX_PASSES {
                break;
            }
            passes += 1;
            let mut texts: HashMap<FileId, String> = HashMap::new();
            for (file, edits) in &plan.edits {
                let Some(entry) = self.index.file(*file) else {
                    continue;
                };
                // The plan keeps edits apart, so this cannot fail; if it did, the file is
                // left as it is rather than half-fixed.
                if let Ok(text) = crate::fix::apply_edits(&entry.text, edits) {
                    texts.insert(*file, text);
                }
            }
            let mut changes = Vec::new();
            for entry in self.index.files() {
                let moved = plan.renames.iter().find_map(|r| {
                    let rest = entry.path.strip_prefix(&r.from).ok()?;
                    Some(r.to.join(rest))
                });
                let text = texts.remove(&entry.id);
                if moved.is_none() && text.is_none() {
                    continue;
                }
                let (first_path, first_text) = origin
                    .remove(&entry.path)
                    .unwrap_or_else(|| (entry.path.clone(), entry.text.to_string()));
                let text = text.unwrap_or_else(|| entry.text.to_string());
                let path = match moved {
                    Some(to) => {
                        changes.push(Change::Remove {
                            path: entry.path.clone(),
                        });
                        // A skill folder's listing moves with it.
                        if entry.path.file_name().is_some_and(|n| n == "SKILL.md") {
                            let listed = entry
                                .path
                                .parent()
                                .and_then(|dir| Some((self.index.skill_files(dir)?, to.parent()?)));
                            if let Some((files, dir)) = listed {
                                changes.push(Change::SkillFiles {
                                    dir: dir.to_owned(),
                                    files: files.to_vec(),
                                });
                            }
                        }
                        to
                    }
                    None => entry.path.clone(),
                };
                changes.push(match entry.invalid_utf8_at {
                    Some(invalid_at) => Change::SetDecoded {
                        path: path.clone(),
                        text: text.into(),
                        invalid_at,
                    },
                    None => Change::Set {
                        path: path.clone(),
                        text: text.into(),
                    },
                });
                origin.insert(path, (first_path, first_text));
            }
            // Folders renamed by this pass: asked paths below them move too, so that what was
            // in scope stays in scope under its new name.
            for rename in &plan.renames {
                for asked in &mut self.asked {
                    if let Ok(rest) = asked.strip_prefix(&rename.from) {
                        *asked = rename.to.join(rest);
                    }
                }
            }
            renames.extend(plan.renames);
            applied += plan.chosen;
            self.index.apply(changes);
            self.diagnostics = self.collect_diagnostics();
        }
        let mut files: Vec<FixedFile> = origin
            .into_iter()
            .filter_map(|(to, (from, before))| {
                let after = self.index.file(self.index.file_id(&to)?)?.text.to_string();
                (after != before || from != to).then_some(FixedFile {
                    from,
                    to,
                    before,
                    after,
                })
            })
            .collect();
        files.sort_by(|a, b| crate::discover::path_order(&a.from, &b.from));
        let hidden = match mode {
            FixMode::Safe => self.hidden_fixes(),
            FixMode::Unsafe => 0,
        };
        FixOutcome {
            files,
            renames,
            applied,
            passes,
            converged,
            hidden,
        }
    }

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

    /// The report of the diagnostics in scope. It holds the files they point into (their own,
    /// related locations', fixes' edits'), not every file checked: a clean workspace of
    /// 10,000 files should not pay for 10,000 display paths.
    pub fn report(&self) -> Report<'_> {
        let mut files = HashMap::new();
        let named = self.diagnostics.iter().flat_map(|d| {
            std::iter::once(d.file)
                .chain(d.related.iter().map(|r| r.file))
                .chain(d.fixes.iter().flat_map(|f| f.edits.iter().map(|e| e.file)))
        });
        for id in named {
            if files.contains_key(&id) {
                continue;
            }
            let Some(entry) = self.index.file(id) else {
                continue;
            };
            files.insert(
                id,
                ReportFile {
                    display_path: self.display_path(&entry.path),
                    text: &entry.text,
                    line_index: entry.line_index(),
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

#[cfg(test)]
mod fence_tests {
    use super::within_fences;
    use std::path::{Path, PathBuf};

    #[test]
    fn a_root_above_every_fence_is_brought_down_to_the_fence_holding_the_path() {
        let fences = [PathBuf::from("/r/a"), PathBuf::from("/r/a/b")];
        let path = Path::new("/r/a/b/skills/x/SKILL.md");
        // Inside a fence: kept.
        assert_eq!(
            within_fences(PathBuf::from("/r/a/b/skills"), path, &fences),
            Path::new("/r/a/b/skills")
        );
        assert_eq!(
            within_fences(PathBuf::from("/r/a"), path, &fences),
            Path::new("/r/a")
        );
        // Above every fence (a repository root around them): the innermost fence holding it.
        assert_eq!(
            within_fences(PathBuf::from("/r"), path, &fences),
            Path::new("/r/a/b")
        );
        // No fences: the root as found.
        assert_eq!(within_fences(PathBuf::from("/"), path, &[]), Path::new("/"));
    }
}
