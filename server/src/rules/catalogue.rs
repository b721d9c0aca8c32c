//! The rule catalogue: every diagnostic code the engine can emit, with its default severity and
//! its documentation. Each rule family declares its own entries next to its checks (`RULES` in
//! each family's file); this module only gathers them, so `docs/rules.md`, hover text and the
//! `[rules]` configuration all read one list.

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::diagnostic::Severity;

/// Documentation of one diagnostic code.
#[derive(Debug)]
pub struct RuleDoc {
    pub code: &'static str,
    pub severity: Severity,
    /// One line: what the rule finds.
    pub summary: &'static str,
    /// One paragraph: why it matters and how to fix it (Markdown, may hold a short example).
    pub explanation: &'static str,
}

/// Every family's rules, in the order the docs list them.
fn families() -> [&'static [RuleDoc]; 23] {
    [
        super::RULES,
        super::swarmkit_file::RULES,
        super::missing_workspace::RULES,
        super::schema::RULES,
        super::ids::RULES,
        super::agents::RULES,
        super::grants::RULES,
        super::requires::RULES,
        super::skills::RULES,
        super::archetypes::RULES,
        super::made_up_skills::RULES,
        super::decision_skills::RULES,
        super::command_packs::RULES,
        super::output_schema::RULES,
        crate::model::config::RULES,
        super::skill_md::RULES,
        super::skill_hosts::RULES,
        super::skill_links::RULES,
        super::dependencies::RULES,
        super::chain::RULES,
        super::precondition::RULES,
        super::tools::RULES,
        super::suppress::RULES,
    ]
}

fn by_code() -> &'static HashMap<&'static str, &'static RuleDoc> {
    static TABLE: OnceLock<HashMap<&'static str, &'static RuleDoc>> = OnceLock::new();
    TABLE.get_or_init(|| all().map(|rule| (rule.code, rule)).collect())
}

pub fn all() -> impl Iterator<Item = &'static RuleDoc> {
    families().into_iter().flatten()
}

pub fn lookup(code: &str) -> Option<&'static RuleDoc> {
    by_code().get(code).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_and_documented() {
        let mut seen = std::collections::HashSet::new();
        for rule in all() {
            assert!(seen.insert(rule.code), "{} is listed twice", rule.code);
            assert!(
                !rule.summary.is_empty() && !rule.explanation.is_empty(),
                "{} lacks docs",
                rule.code
            );
        }
    }

    #[test]
    fn the_catalogue_documents_exactly_the_codes_of_the_table() {
        let table: std::collections::HashSet<&str> = crate::diagnostic::codes::ALL
            .iter()
            .map(|code| code.name())
            .collect();
        for rule in all() {
            let code = crate::diagnostic::codes::lookup(rule.code)
                .unwrap_or_else(|| panic!("{} is documented but not in the table", rule.code));
            assert_eq!(
                code.default_severity(),
                rule.severity,
                "{} has another severity in the table",
                rule.code
            );
        }
        let documented: std::collections::HashSet<&str> = all().map(|rule| rule.code).collect();
        let undocumented: Vec<&&str> = table.difference(&documented).collect();
        assert!(undocumented.is_empty(), "no docs for {undocumented:?}");
    }
}
