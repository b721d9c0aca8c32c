//! The SwarmKit example workspaces shipped in `shared/swarmkit/examples`: the valid ones check
//! without errors, and the deliberately broken one reports what SwarmKit reports.

#[path = "support/text.rs"]
mod text;
use text::assert_contains;

use std::path::{Path, PathBuf};

use skillgraph::check::{check_changes, CheckOutcome};
use skillgraph::diagnostic::Severity;
use skillgraph::index::classify::SKIPPED_DIRECTORIES;
use skillgraph::index::Change;
use tree::{files_below, read_changes};

#[path = "support/tree.rs"]
mod tree;

/// The examples directory, or `None` (with a visible notice, or a failure under
/// `SKILLGRAPH_REQUIRE_SHARED=1`) when this checkout has no `shared/` beside it.
fn examples() -> Option<PathBuf> {
    skillgraph::testing::shared_path("swarmkit/examples")
}

/// Every file under `dir` the checker looks at, read from disk.
fn read_tree(dir: &Path) -> Vec<Change> {
    let files = files_below(dir, |folder| SKIPPED_DIRECTORIES.contains(&folder))
        .into_iter()
        .filter(|path| {
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name == "SKILL.md"
                || name == "skillgraph.toml"
                || name.ends_with(".yaml")
                || name.ends_with(".yml")
        })
        .collect();
    read_changes(files)
}

fn check_dir(dir: &Path) -> CheckOutcome {
    let changes = read_tree(dir);
    assert!(!changes.is_empty(), "no files under {}", dir.display());
    check_changes(changes, dir.to_owned())
}

/// `path:line:col code message` of each diagnostic of a severity, for failure messages.
fn listing(outcome: &CheckOutcome, severity: Severity) -> Vec<String> {
    outcome
        .diagnostics
        .iter()
        .filter(|d| d.severity == severity)
        .map(|d| {
            let file = outcome.index.file(d.file).expect("known file");
            let at = file.line_index().line_col(
                &file.text,
                d.range.start,
                skillgraph::syntax::PositionEncoding::Utf8,
            );
            format!(
                "{}:{}:{} {} {}",
                outcome.display_path(&file.path),
                at.line + 1,
                at.col + 1,
                d.code.name(),
                d.message
            )
        })
        .collect()
}

#[track_caller]
fn assert_no_errors(relative: &str) {
    let Some(examples) = examples() else { return };
    let dir = examples.join(relative);
    assert!(dir.is_dir(), "{} is missing", dir.display());
    let outcome = check_dir(&dir);
    // The workspace was recognised: its manifest is indexed and its artifacts are ours.
    assert!(
        outcome.index.workspace_at(&dir).is_some(),
        "{relative} is not a workspace"
    );
    assert!(outcome.index.checked_file_count() > 1, "{relative}");
    let errors = listing(&outcome, Severity::Error);
    assert!(
        errors.is_empty(),
        "{relative}: {} errors:\n{}",
        errors.len(),
        errors.join("\n")
    );
    let warnings = listing(&outcome, Severity::Warning);
    if !warnings.is_empty() {
        eprintln!(
            "{relative}: {} warnings:\n{}",
            warnings.len(),
            warnings.join("\n")
        );
    }
}

#[test]
fn hello_swarm_has_no_errors() {
    assert_no_errors("hello-swarm/workspace");
}

#[test]
fn sterling_oms_has_no_errors() {
    assert_no_errors("sterling-oms/workspace");
}

#[test]
fn sdlc_pipeline_has_no_errors() {
    assert_no_errors("sdlc-pipeline/workspace");
}

#[test]
fn reference_has_no_errors() {
    assert_no_errors("reference");
}

#[test]
fn hello_swarm_broken_reports_the_misspelt_archetype() {
    let Some(examples) = examples() else { return };
    let dir = examples.join("hello-swarm/workspace-broken");
    assert!(dir.is_dir(), "{} is missing", dir.display());
    let outcome = check_dir(&dir);
    let found: Vec<(String, &str, String)> = outcome
        .diagnostics
        .iter()
        .filter(|d| d.code == "agent.unknown-archetype")
        .map(|d| {
            let file = outcome.index.file(d.file).expect("known file");
            (
                outcome.display_path(&file.path),
                d.code.name(),
                file.text[d.range.start as usize..d.range.end as usize].to_owned(),
            )
        })
        .collect();
    assert_eq!(
        found,
        vec![(
            "topologies/hello.yaml".to_owned(),
            "agent.unknown-archetype",
            "greter".to_owned()
        )]
    );
    let message = &outcome
        .diagnostics
        .iter()
        .find(|d| d.code == "agent.unknown-archetype")
        .expect("found above")
        .message;
    assert_contains(message, "did you mean `greeter`?");
}

#[test]
fn every_example_workspace_is_checked_without_panicking() {
    // Including anything added to the examples later, and the directories above the
    // workspaces (READMEs, scripts): one batch over the whole tree.
    let Some(examples) = examples() else { return };
    let outcome = check_dir(&examples);
    assert!(outcome.index.checked_file_count() > 10);
}
