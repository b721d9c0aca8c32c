//! The output formats of `skillgraph check`: human, json, sarif, github. Each renders a
//! [`Report`]; positions are converted from byte offsets here, at the edge.

use std::collections::HashMap;

use crate::diagnostic::{Diagnostic, FileId};
use crate::syntax::LineIndex;

/// A file as the report shows it.
pub struct ReportFile<'a> {
    /// The path as shown to the user: relative to the current directory when inside it, with `/`.
    pub display_path: String,
    pub text: &'a str,
    pub line_index: &'a LineIndex,
}

/// Everything a format needs: the diagnostics (already sorted by path, then position) and the
/// files they (and their related locations) point into.
pub struct Report<'a> {
    pub files: HashMap<FileId, ReportFile<'a>>,
    pub diagnostics: Vec<Diagnostic>,
    /// How many files were checked (the summary's `files`).
    pub files_checked: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Human,
    Json,
    Sarif,
    Github,
}
