//! What every check produces: a diagnostic with a code, a severity, a tight byte range in one
//! file, a message for the person reading it, and related places in other files. It must not
//! know any rule or output format: codes are listed here, what they mean is `rules`'.

pub mod fixes;

use crate::syntax::TextRange;

pub mod codes;

pub use codes::Code;

/// A file known to the engine. Ids are handed out by [`crate::index::Index`]; the path behind an
/// id is looked up there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FileId(pub u32);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    Error,
    Warning,
    Info,
    Hint,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
            Severity::Hint => "hint",
        }
    }

    pub fn parse(text: &str) -> Option<Severity> {
        Some(match text {
            "error" => Severity::Error,
            "warning" | "warn" => Severity::Warning,
            "info" | "information" => Severity::Info,
            "hint" => Severity::Hint,
            _ => return None,
        })
    }
}

/// Most diagnostics one file reports (the summary of what was left out comes on top): the cap
/// is applied in `rules::output`, and the index searches "did you mean" for no more unknown ids
/// than this per file (`index::MAX_SUGGESTIONS_PER_CHECK`).
pub const MAX_DIAGNOSTICS_PER_FILE: usize = 1_000;

/// Another place involved in a diagnostic (the first definition of a duplicate, the next edge of
/// a cycle, the skill whose type makes a rule unsatisfiable).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Related {
    pub file: FileId,
    pub range: TextRange,
    pub message: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Diagnostic {
    pub file: FileId,
    pub range: TextRange,
    pub severity: Severity,
    pub code: Code,
    pub message: String,
    pub related: Vec<Related>,
    /// Mechanical fixes, preferred first; empty when the fix needs a decision only a person can
    /// make. The rule that finds the problem computes them, so the message and the fix agree.
    pub fixes: Vec<Fix>,
}

/// One replacement of a byte range of a file's text (an insertion when the range is empty).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TextEdit {
    pub file: FileId,
    pub range: TextRange,
    pub text: String,
}

/// A folder or file to rename, as paths (the folder of a SKILL.md need not be a file the index
/// knows).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PathRename {
    pub from: std::path::PathBuf,
    pub to: std::path::PathBuf,
}

/// A change that clears a diagnostic: text edits in one or more files, and at most one rename
/// applied after them.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Fix {
    /// What the fix does, as an editor's menu shows it ("Replace with `greeter`").
    pub title: String,
    pub edits: Vec<TextEdit>,
    pub rename: Option<PathRename>,
    /// The fix an editor applies when asked for "the" fix of the diagnostic.
    pub preferred: bool,
    /// `check --fix` may apply it without asking: the intent is beyond doubt (a duplicate
    /// removed, a value quoted). A guessed replacement for a typo is not safe.
    pub safe: bool,
}

impl Fix {
    /// A fix of one edit in one file.
    pub fn replace(
        title: impl Into<String>,
        file: FileId,
        range: TextRange,
        text: impl Into<String>,
    ) -> Fix {
        Fix {
            title: title.into(),
            edits: vec![TextEdit {
                file,
                range,
                text: text.into(),
            }],
            rename: None,
            preferred: false,
            safe: false,
        }
    }

    pub fn preferred(mut self) -> Fix {
        self.preferred = true;
        self
    }

    pub fn safe(mut self) -> Fix {
        self.safe = true;
        self
    }

    pub fn with_edit(mut self, file: FileId, range: TextRange, text: impl Into<String>) -> Fix {
        self.edits.push(TextEdit {
            file,
            range,
            text: text.into(),
        });
        self
    }
}

impl Diagnostic {
    /// A diagnostic with the code's default severity from [`codes`].
    pub fn new(code: Code, file: FileId, range: TextRange, message: impl Into<String>) -> Self {
        Diagnostic {
            file,
            range,
            severity: code.default_severity(),
            code,
            message: message.into(),
            related: Vec::new(),
            fixes: Vec::new(),
        }
    }

    pub fn with_fix(mut self, fix: Fix) -> Self {
        self.fixes.push(fix);
        self
    }

    pub fn with_severity(mut self, severity: Severity) -> Self {
        self.severity = severity;
        self
    }

    pub fn with_related(
        mut self,
        file: FileId,
        range: TextRange,
        message: impl Into<String>,
    ) -> Self {
        self.related.push(Related {
            file,
            range,
            message: message.into(),
        });
        self
    }

    /// Sort key: position first, then code and message, so output is deterministic.
    pub fn sort_key(&self) -> (u32, u32, &'static str, &str) {
        (
            self.range.start,
            self.range.end,
            self.code.name(),
            &self.message,
        )
    }
}
