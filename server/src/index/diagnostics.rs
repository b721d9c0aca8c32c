//! What a file shows, finished for `check` and the server alike: its local and cross-file
//! diagnostics with levels from the nearest config and the editor, suppression comments applied,
//! then the per-file cap; and the walk to the nearest config file.

use std::path::Path;

use crate::diagnostic::{Diagnostic, FileId};

use super::{Content, FileEntry, Index};

impl Index {
    /// Every diagnostic of a file, local and cross-file, with the severity overrides applied,
    /// sorted by position.
    pub fn diagnostics(&self, id: FileId) -> Vec<Diagnostic> {
        match self.file(id) {
            Some(entry) => self.diagnostics_of(entry),
            None => Vec::new(),
        }
    }

    /// [`Index::diagnostics`] of a file entry of this index.
    pub fn diagnostics_of(&self, entry: &FileEntry) -> Vec<Diagnostic> {
        let id = entry.id;
        // Found once per file, not once per diagnostic (with the overrides matching the file),
        // and only for a file with something to report (most files of a large workspace have
        // nothing).
        let levels = std::cell::OnceCell::new();
        let levels = || {
            levels
                .get_or_init(|| {
                    let config_file = self.nearest_config_file(&entry.path);
                    let config = config_file.and_then(|file| match &file.parsed.content {
                        Content::Config(config) => Some(config),
                        _ => None,
                    });
                    // The file's path below its config's folder, for `[[overrides]]` (looked up
                    // only when the config has some).
                    let relative = config
                        .filter(|c| !c.overrides.is_empty())
                        .and(config_file)
                        .and_then(|file| entry.path.strip_prefix(file.path.parent()?).ok());
                    config.map(|config| config.levels_for(relative))
                })
                .as_ref()
        };
        let mut all: Vec<Diagnostic> = entry
            .parsed
            .local
            .iter()
            .chain(entry.cross.iter())
            .filter_map(|d| self.apply_overrides(levels(), d))
            .collect();
        all.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
        all.dedup();
        let all = (self.checks.suppress)(entry, all);
        // What the suppressions say about themselves has a level like any code.
        let all = all
            .into_iter()
            .filter_map(|d| {
                if (self.checks.is_suppression_code)(d.code) {
                    self.apply_overrides(levels(), &d)
                } else {
                    Some(d)
                }
            })
            .collect();
        (self.checks.cap_per_file)(id, all)
    }

    /// "Disable this rule on this line" for one of a file's diagnostics, where a comment can go.
    pub fn disable_fix(&self, diagnostic: &Diagnostic) -> Option<crate::diagnostic::Fix> {
        let entry = self.file(diagnostic.file)?;
        (self.checks.disable_fix)(entry, diagnostic)
    }

    /// The level for a code: the nearest `skillgraph.toml` above the file decides (`levels`,
    /// its `[[overrides]]` matching the file's path below it first, then its `[rules]`; it is
    /// what CI sees too); the editor's settings apply to codes it does not mention.
    pub(super) fn apply_overrides(
        &self,
        levels: Option<&crate::model::config::FileLevels<'_>>,
        diagnostic: &Diagnostic,
    ) -> Option<Diagnostic> {
        let from_config = levels.and_then(|levels| levels.level(diagnostic.code));
        let level = from_config.or_else(|| {
            self.settings
                .severity_overrides
                .get(diagnostic.code.name())
                .copied()
        });
        match level {
            None => Some(diagnostic.clone()),
            Some(None) => None,
            Some(Some(severity)) => Some(diagnostic.clone().with_severity(severity)),
        }
    }

    /// The `skillgraph.toml` nearest above `path` (its own folder first), if any: the one walk
    /// every config question goes through. The index reads the levels of a file's diagnostics
    /// from it; the checks ask through [`Lookup::nearest_config_file`](crate::index::Lookup::nearest_config_file), which records the walk,
    /// and `semantics::config` adds the editor's settings where no file is found.
    pub fn nearest_config_file(&self, path: &Path) -> Option<&FileEntry> {
        let config_of = |id: FileId| {
            let entry = self.file(id)?;
            matches!(entry.parsed.content, Content::Config(_)).then_some(entry)
        };
        let dir = path.parent()?;
        let mut table = self.config_dirs.table();
        if let Some(known) = table.get(dir) {
            return known.and_then(config_of);
        }
        // Walk up until a config or a directory already answered; every directory passed on
        // the way gets the same answer, so each directory is walked once.
        let mut passed: Vec<&Path> = Vec::new();
        let mut found = None;
        for ancestor in dir.ancestors() {
            if let Some(known) = table.get(ancestor) {
                found = *known;
                break;
            }
            passed.push(ancestor);
            let here = self
                .file_id(&ancestor.join("skillgraph.toml"))
                .filter(|&id| config_of(id).is_some());
            if here.is_some() {
                found = here;
                break;
            }
        }
        for passed in passed {
            table.insert(passed.to_owned(), found);
        }
        found.and_then(config_of)
    }
}
