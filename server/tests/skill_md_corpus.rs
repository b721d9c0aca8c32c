//! Parity with the reference validator over the shared corpus of 195 real skills.
//!
//! `skills-ref` 0.1.1 (`agentskills validate`) fails 15 of them: 14 for the top-level `version`
//! field it does not allow, and one name that differs from its folder
//! (`wshobson/agents/plugins/database-design/skills/postgresql`). In strict mode we must fail
//! exactly those, for those reasons; in default mode `version` is only a warning, so the one
//! name-mismatch is the corpus's only error.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use skillgraph::check::check_changes;
use skillgraph::diagnostic::Severity;
use skillgraph::index::Change;

const VERSION_FIELD: &[&str] = &[
    "wshobson/agents/plugins/agent-teams/skills/multi-reviewer-patterns",
    "wshobson/agents/plugins/agent-teams/skills/parallel-debugging",
    "wshobson/agents/plugins/agent-teams/skills/parallel-feature-development",
    "wshobson/agents/plugins/agent-teams/skills/task-coordination-strategies",
    "wshobson/agents/plugins/agent-teams/skills/team-communication-protocols",
    "wshobson/agents/plugins/agent-teams/skills/team-composition-patterns",
    "wshobson/agents/plugins/conductor/skills/context-driven-development",
    "wshobson/agents/plugins/conductor/skills/track-management",
    "wshobson/agents/plugins/conductor/skills/workflow-patterns",
    "wshobson/agents/plugins/startup-business-analyst/skills/competitive-landscape",
    "wshobson/agents/plugins/startup-business-analyst/skills/market-sizing-analysis",
    "wshobson/agents/plugins/startup-business-analyst/skills/startup-financial-modeling",
    "wshobson/agents/plugins/startup-business-analyst/skills/startup-metrics-framework",
    "wshobson/agents/plugins/startup-business-analyst/skills/team-composition-analysis",
];
const NAME_MISMATCH: &str = "wshobson/agents/plugins/database-design/skills/postgresql";

/// The skills whose body is past the spec's 5,000 estimated tokens or the guidance's 500 lines
/// (`skillmd.body-budget`, a warning about what the host reads, not a refusal: kept apart from
/// the parity below). Each was counted by hand (lines after the frontmatter; characters / 4).
const BODY_OVER_BUDGET: &[&str] = &[
    "obra/superpowers/skills/subagent-driven-development",
    "obra/superpowers/skills/writing-skills",
    "wshobson/agents/plugins/accessibility-compliance/skills/screen-reader-testing",
    "wshobson/agents/plugins/developer-essentials/skills/code-review-excellence",
    "wshobson/agents/plugins/developer-essentials/skills/debugging-strategies",
    "wshobson/agents/plugins/dotnet-contribution/skills/dotnet-backend-patterns",
    "wshobson/agents/plugins/javascript-typescript/skills/javascript-testing-patterns",
    "wshobson/agents/plugins/plugin-eval/skills/evaluation-methodology",
    "wshobson/agents/plugins/reverse-engineering/skills/protocol-reverse-engineering",
    "wshobson/agents/plugins/startup-business-analyst/skills/competitive-landscape",
    "wshobson/agents/plugins/startup-business-analyst/skills/startup-metrics-framework",
];

fn skill_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() {
            skill_files(&path, out);
        } else if kind.is_file() && path.file_name().is_some_and(|n| n == "SKILL.md") {
            out.push(path);
        }
    }
}

/// Per skill folder (relative to the corpus), the (code, severity) pairs found.
type Findings = BTreeMap<String, Vec<(&'static str, Severity)>>;

fn run(root: &Path, config: Option<&str>) -> (usize, Findings) {
    let mut files = Vec::new();
    skill_files(root, &mut files);
    files.sort();
    let count = files.len();
    let mut changes: Vec<Change> = files
        .iter()
        .map(|path| Change::Set {
            path: path.clone(),
            text: String::from_utf8_lossy(&std::fs::read(path).expect("corpus file reads")).into(),
        })
        .collect();
    if let Some(config) = config {
        changes.push(Change::Set {
            path: root.join("skillgraph.toml"),
            text: config.into(),
        });
    }
    let outcome = check_changes(changes, root.to_owned());
    let mut findings = Findings::new();
    let mut over_budget = BTreeSet::new();
    for d in &outcome.diagnostics {
        let path = &outcome.index.file(d.file).expect("file").path;
        let dir = path
            .parent()
            .unwrap()
            .strip_prefix(root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if d.code == "skillmd.body-budget" {
            over_budget.insert(dir);
            continue;
        }
        findings
            .entry(dir)
            .or_default()
            .push((d.code.name(), d.severity));
    }
    let expected: BTreeSet<String> = BODY_OVER_BUDGET.iter().map(|s| s.to_string()).collect();
    assert_eq!(over_budget, expected);
    (count, findings)
}

fn corpus() -> Option<PathBuf> {
    skillgraph::testing::shared_path("corpus").map(|root| root.canonicalize().unwrap_or(root))
}

#[test]
fn strict_mode_fails_exactly_what_skills_ref_fails() {
    let Some(root) = corpus() else { return };
    let (count, findings) = run(&root, Some("[skill-md]\nstrict = true\n"));
    assert_eq!(count, 195);
    let failing: BTreeSet<&str> = findings
        .iter()
        .filter(|(_, found)| found.iter().any(|(_, s)| *s == Severity::Error))
        .map(|(dir, _)| dir.as_str())
        .collect();
    let expected: BTreeSet<&str> = VERSION_FIELD
        .iter()
        .copied()
        .chain([NAME_MISMATCH])
        .collect();
    assert_eq!(failing, expected, "{findings:#?}");
    for dir in VERSION_FIELD {
        assert_eq!(
            findings[*dir],
            [("skillmd.unknown-field", Severity::Error)],
            "{dir}"
        );
    }
    assert_eq!(
        findings[NAME_MISMATCH],
        [("skillmd.name-mismatch", Severity::Error)]
    );
    // Nothing else at all, not even a warning.
    assert_eq!(findings.len(), 15, "{findings:#?}");
}

#[test]
fn default_mode_has_no_errors_only_warnings() {
    let Some(root) = corpus() else { return };
    let (_, findings) = run(&root, None);
    let mut errors = Vec::new();
    let mut warnings = Vec::new();
    for (dir, found) in &findings {
        for (code, severity) in found {
            match severity {
                Severity::Error => errors.push((dir.as_str(), *code)),
                Severity::Warning => warnings.push((dir.as_str(), *code)),
                _ => panic!("{dir}: unexpected {code}"),
            }
        }
    }
    // Hosts load every one of these skills, so nothing is an error: 14 skills carry a top-level
    // `version` no spec or host defines, and one has a name that differs from its folder (a
    // warning by default; `skills-ref`, and our strict mode, refuse it).
    assert_eq!(errors, []);
    assert_eq!(warnings.len(), 15, "{warnings:#?}");
    for (dir, code) in warnings {
        match code {
            "skillmd.unknown-field" => assert!(VERSION_FIELD.contains(&dir), "{dir}"),
            "skillmd.name-mismatch" => assert_eq!(dir, NAME_MISMATCH),
            other => panic!("{dir}: unexpected {other}"),
        }
    }
}
