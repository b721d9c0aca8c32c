//! What a rule's documentation holds. Each family writes its `RULES` table of these beside its
//! checks, and `catalogue` gathers the tables; living apart from both, it lets the families
//! name it without importing the catalogue that imports them.

use crate::diagnostic::Code;

/// Documentation of one diagnostic code.
#[derive(Debug)]
pub struct RuleDoc {
    pub code: Code,
    /// One line: what the rule finds.
    pub summary: &'static str,
    /// One paragraph: why it matters and how to fix it (Markdown, may hold a short example).
    pub explanation: &'static str,
}
