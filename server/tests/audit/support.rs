//! Shared by the audit tests: the fixtures (real logs), copies of them in a temporary folder, and
//! the binary run on them.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

#[path = "../support/copy.rs"]
mod copy;
pub use copy::copy_tree;

pub const SCENARIOS: &[&str] = &[
    "recover",
    "give-up",
    "never-reached",
    "harness",
    "llm-prompt",
    "older",
];

pub fn fixture(scenario: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/audit")
        .join(scenario)
}

/// A scenario's workspace in a temporary folder, its log where the runtime writes it.
pub fn workspace_with_log(scenario: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let workspace = dir.path().join(scenario);
    copy_tree(&fixture(scenario).join("workspace"), &workspace);
    std::fs::create_dir_all(workspace.join(".swarmkit")).unwrap();
    std::fs::copy(
        fixture(scenario).join("audit.sqlite"),
        workspace.join(".swarmkit/audit.sqlite"),
    )
    .unwrap();
    (dir, workspace)
}

/// `skillgraph audit ARGS`, with none of the runtime's storage variables from the caller.
pub fn audit(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_skillgraph"));
    command
        .arg("audit")
        .args(args)
        .env_remove("SWARMKIT_STORE_URL")
        .env_remove("SWARMKIT_STORE_BACKEND")
        .env_remove("DATABASE_URL");
    for (k, v) in env {
        command.env(k, v);
    }
    command.output().unwrap()
}

/// The JSON document of `skillgraph audit --format json ARGS`, which must exit 0.
pub fn audit_json(args: &[&str], env: &[(&str, &str)]) -> serde_json::Value {
    let mut all = vec!["--format", "json"];
    all.extend_from_slice(args);
    let out = audit(&all, env);
    assert!(
        out.status.success(),
        "exit {:?}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The rule guarding `skill` in a document.
pub fn rule<'a>(document: &'a serde_json::Value, skill: &str) -> &'a serde_json::Value {
    document["rules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["skill"] == skill)
        .unwrap_or_else(|| panic!("no rule for {skill} in {document:#}"))
}

/// The counts of a rule as a compact tuple: (agent_runs, runs, calls, refused, recovered,
/// gave_up, refused_after_prerequisites, replay.runs, replay.would_refuse).
pub fn counts(rule: &serde_json::Value) -> [u64; 9] {
    let n = |v: &serde_json::Value| v.as_u64().unwrap();
    [
        n(&rule["agent_runs"]),
        n(&rule["runs"]),
        n(&rule["calls"]),
        n(&rule["refused"]),
        n(&rule["recovered"]),
        n(&rule["gave_up"]),
        n(&rule["refused_after_prerequisites"]),
        n(&rule["replay"]["runs"]),
        n(&rule["replay"]["would_refuse"]),
    ]
}
