//! The skill as the host loads it: the body's budget, the bundled files the model will not find,
//! and (Claude Code) the arguments substituted into the body.

use std::path::PathBuf;

use skillgraph::check::check_changes;
use skillgraph::index::Change;

#[derive(Debug)]
struct Found {
    code: &'static str,
    text: String,
    message: String,
}

fn check_with(changes: Vec<Change>) -> Vec<Found> {
    let outcome = check_changes(changes, PathBuf::from("/"));
    outcome
        .diagnostics
        .iter()
        .map(|d| {
            let entry = outcome.index.file(d.file).unwrap();
            Found {
                code: d.code.name(),
                text: entry.text[d.range.start as usize..d.range.end as usize].to_owned(),
                message: d.message.clone(),
            }
        })
        .collect()
}

fn check(text: &str) -> Vec<Found> {
    check_with(vec![Change::Set {
        path: PathBuf::from("/r/skills/pdf/SKILL.md"),
        text: text.to_owned(),
    }])
}

fn skill(body: &str) -> String {
    format!("---\nname: pdf\ndescription: Fills PDF forms.\n---\n{body}")
}

fn only<'a>(found: &'a [Found], code: &str) -> Vec<&'a Found> {
    found.iter().filter(|f| f.code == code).collect()
}

#[test]
fn a_body_within_budget_is_silent() {
    let body = "# PDF\n\nFill the form.\n".repeat(160);
    assert!(only(&check(&skill(&body)), "skillmd.body-budget").is_empty());
}

#[test]
fn a_long_body_gets_one_warning_on_the_first_line_past_the_budget() {
    let body: String = (1..=620).map(|i| format!("line {i}\n")).collect();
    let found = check(&skill(&body));
    let budget = only(&found, "skillmd.body-budget");
    assert_eq!(budget.len(), 1, "{found:?}");
    assert_eq!(budget[0].text, "line 501");
    assert!(
        budget[0].message.contains("620 lines") && budget[0].message.contains("references/"),
        "{}",
        budget[0].message
    );
    assert!(!budget[0].message.contains("tokens"));
}

#[test]
fn a_body_past_both_budgets_is_one_diagnostic_naming_the_estimate() {
    let line = "x".repeat(99);
    let body: String = (0..600).map(|_| format!("{line}\n")).collect();
    let found = check(&skill(&body));
    let budget = only(&found, "skillmd.body-budget");
    assert_eq!(budget.len(), 1, "{found:?}");
    let message = &budget[0].message;
    assert!(message.contains("600 lines"), "{message}");
    assert!(
        message.contains("about 15,000 tokens (estimated at 4 characters a token"),
        "{message}"
    );
}

#[test]
fn a_four_megabyte_body_is_checked_in_one_pass() {
    let body = "word ".repeat(800_000);
    let started = std::time::Instant::now();
    let found = check(&skill(&body));
    assert_eq!(only(&found, "skillmd.body-budget").len(), 1);
    // Not a timing test: a pass that were quadratic would not finish at all.
    let _ = started.elapsed();
}
