//! The rule catalogue: the documentation of every diagnostic code the engine can emit (the codes
//! and their default severities are the table in [`crate::diagnostic::codes`]). Each rule family declares its own entries next to its checks (`RULES` in
//! each family's file); this module only gathers them, so `docs/rules.md`, hover text and the
//! `[rules]` configuration all read one list.

use std::collections::HashMap;
use std::sync::OnceLock;

pub use super::rule_doc::RuleDoc;
use crate::diagnostic::Code;

/// Where each code is documented: a section of docs/rules.md (the anchor is [`rules_anchor`]).
pub const RULES_DOC: &str = concat!(env!("CARGO_PKG_REPOSITORY"), "/blob/main/docs/rules.md");

/// The address of `code`'s section of docs/rules.md (SARIF's `helpUri`, the ordering graph's
/// links).
pub fn doc_url(code: Code) -> String {
    format!("{RULES_DOC}#{}", rules_anchor(code.name()))
}

/// The anchor GitHub gives the heading `` ## `code` `` in docs/rules.md: the heading's text
/// lower-cased, without punctuation other than `-` and `_` (so `yaml.duplicate-key` becomes
/// `yamlduplicate-key`), spaces made `-`.
pub fn rules_anchor(code: &str) -> String {
    code.chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ' '))
        .map(|c| if c == ' ' { '-' } else { c })
        .flat_map(char::to_lowercase)
        .collect()
}

impl RuleDoc {
    /// The code's section of `docs/rules.md` as far as the rule's own documentation goes: its
    /// heading, default severity, summary and explanation (the doc's generator adds the places
    /// in the sources; `skillgraph mcp` serves it as the code's resource).
    pub fn markdown(&self) -> String {
        format!(
            "## `{}`\n\n*{}* — {}\n\n{}\n",
            self.code,
            self.code.default_severity().as_str(),
            self.summary,
            self.explanation
        )
    }
}

/// Every family's rules, in the order the docs list them.
fn families() -> [&'static [RuleDoc]; 31] {
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
        super::config::RULES,
        super::skill_md::RULES,
        super::skill_hosts::RULES,
        super::skill_links::RULES,
        super::skill_body::RULES,
        super::mentions::RULES,
        super::bundled_files::RULES,
        super::arguments::RULES,
        super::subagents::RULES,
        super::plugins::RULES,
        super::commands::RULES,
        super::dependencies::RULES,
        super::chain::RULES,
        super::precondition::RULES,
        super::portable::RULES,
        super::tools::RULES,
        super::suppress::RULES,
    ]
}

fn by_code() -> &'static HashMap<Code, &'static RuleDoc> {
    static TABLE: OnceLock<HashMap<Code, &'static RuleDoc>> = OnceLock::new();
    TABLE.get_or_init(|| all().map(|rule| (rule.code, rule)).collect())
}

pub fn all() -> impl Iterator<Item = &'static RuleDoc> {
    families().into_iter().flatten()
}

/// The documentation of a code (every code has some: a test walks the table).
pub fn lookup(code: Code) -> Option<&'static RuleDoc> {
    by_code().get(&code).copied()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::codes;

    #[test]
    fn every_ranked_code_is_in_the_catalogue() {
        for (code, _) in super::super::output::PRIORITY {
            assert!(lookup(*code).is_some(), "{code}");
        }
    }

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
        let documented: std::collections::HashSet<Code> = all().map(|rule| rule.code).collect();
        let undocumented: Vec<&str> = codes::ALL
            .iter()
            .filter(|code| !documented.contains(code))
            .map(|code| code.name())
            .collect();
        assert!(undocumented.is_empty(), "no docs for {undocumented:?}");
        assert_eq!(documented.len(), codes::ALL.len());
    }
}
