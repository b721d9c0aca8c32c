//! What every check produces: a diagnostic with a code, a severity, a tight byte range in one
//! file, a message for the person reading it, and related places in other files.

use crate::syntax::TextRange;

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
    /// A code from the catalogue in [`crate::rules::catalogue`].
    pub code: &'static str,
    pub message: String,
    pub related: Vec<Related>,
}

impl Diagnostic {
    /// A diagnostic with the code's default severity from the catalogue.
    pub fn new(
        code: &'static str,
        file: FileId,
        range: TextRange,
        message: impl Into<String>,
    ) -> Self {
        Diagnostic {
            file,
            range,
            severity: crate::rules::catalogue::default_severity(code),
            code,
            message: message.into(),
            related: Vec::new(),
        }
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
        (self.range.start, self.range.end, self.code, &self.message)
    }
}
