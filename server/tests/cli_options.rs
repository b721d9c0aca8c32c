//! The `check` subcommand's options as a user types them.

#[path = "support/text.rs"]
mod text;
use text::assert_contains;

use std::process::Command;

#[path = "support/copy.rs"]
mod copy;
use copy::copy_tree;

fn skillgraph(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_skillgraph"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .env_remove("NO_COLOR")
        .output()
        .unwrap()
}

/// The standard error of a run that refuses its command line: exit code 2, nothing on stdout.
#[track_caller]
fn refused(args: &[&str]) -> String {
    let output = skillgraph(args);
    assert_eq!(output.status.code(), Some(2), "{args:?}");
    assert!(output.stdout.is_empty(), "{args:?}");
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn color_accepts_only_auto_always_never() {
    let stderr = refused(&["check", "--color", "nevr", "examples/demo"]);
    assert_contains(&stderr, "nevr");
    assert!(stderr.contains("auto") && stderr.contains("always") && stderr.contains("never"));
}

#[test]
fn color_always_and_never_decide_the_escapes() {
    let always = skillgraph(&["check", "--color", "always", "examples/demo"]);
    assert_eq!(always.status.code(), Some(1));
    assert!(
        always.stdout.contains(&0x1b),
        "no colour with --color always"
    );
    for args in [
        &["check", "--color", "never", "examples/demo"][..],
        // stdout is a pipe here: auto means no colour.
        &["check", "examples/demo"][..],
    ] {
        let output = skillgraph(args);
        assert_eq!(output.status.code(), Some(1));
        assert!(!output.stdout.contains(&0x1b), "colour with {args:?}");
    }
}

#[test]
fn json_summary_counts_every_severity() {
    let output = skillgraph(&["check", "--format", "json", "examples/demo"]);
    let document: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let diagnostics = document["diagnostics"].as_array().unwrap();
    for (severity, key) in [
        ("error", "errors"),
        ("warning", "warnings"),
        ("info", "infos"),
        ("hint", "hints"),
    ] {
        let count = diagnostics
            .iter()
            .filter(|d| d["severity"] == severity)
            .count();
        assert_eq!(document["summary"][key], count, "{key}");
    }
    assert!(document["summary"]["infos"].as_u64().unwrap() > 0);
}

/// `(code, path)` of every diagnostic of a JSON report, paths relative to `root`.
fn problems(json: &[u8], root: &std::path::Path) -> Vec<(String, String)> {
    let document: serde_json::Value = serde_json::from_slice(json).unwrap();
    let mut all: Vec<(String, String)> = document["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let path = std::path::Path::new(d["path"].as_str().unwrap());
            let path = path.strip_prefix(root).unwrap_or(path);
            (
                d["code"].as_str().unwrap().to_owned(),
                path.display().to_string(),
            )
        })
        .collect();
    all.sort();
    all
}

/// `--fix` on a copy of the demo removes exactly the problems a safe fix exists for (and the
/// loop that a removed self-dependency was), writes the files, and leaves a fixed point:
/// `--diff` then shows nothing.
#[test]
fn fix_leaves_exactly_the_problems_without_a_safe_fix() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    copy_tree(
        std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/demo")),
        &root,
    );
    let root_arg = root.to_str().unwrap();
    let before = skillgraph(&["check", "--format", "json", root_arg]);
    let before = problems(&before.stdout, &root);

    let diff = skillgraph(&["check", "--diff", root_arg]);
    assert_eq!(diff.status.code(), Some(1));
    let shown = String::from_utf8(diff.stdout).unwrap();
    assert_contains(
        &shown,
        "-description: Reads: PDFs\n+description: \"Reads: PDFs\"\n",
    );
    assert!(String::from_utf8_lossy(&diff.stderr).contains("would fix 4 problems in 3 files"));

    let fixed = skillgraph(&["check", "--fix", "--format", "json", root_arg]);
    assert_eq!(fixed.status.code(), Some(1), "errors remain");
    let stderr = String::from_utf8_lossy(&fixed.stderr);
    assert_contains(&stderr, "fixed 4 problems in 3 files");
    let after = problems(&fixed.stdout, &root);
    let mut gone = before.clone();
    for problem in &after {
        let at = gone
            .iter()
            .position(|p| p == problem)
            .expect("a new problem");
        gone.remove(at);
    }
    let estate = "build-conventions/topologies/estate.yaml";
    let expected_gone: Vec<(String, String)> = [
        ("agent.depends-on-cycle", estate),
        ("agent.depends-on-self", estate),
        ("agent.requires-duplicate", estate),
        ("skillmd.metadata-shape", "agent-skills/pdf-tools/SKILL.md"),
        ("skillmd.yaml-parse", "agent-skills/broken-yaml/SKILL.md"),
    ]
    .iter()
    .map(|(c, p)| (c.to_string(), p.to_string()))
    .collect();
    assert_eq!(gone, expected_gone);
    // The files on disk are the fixed ones: a new check agrees, and nothing is left to fix.
    let again = skillgraph(&["check", "--format", "json", root_arg]);
    assert_eq!(problems(&again.stdout, &root), after);
    let diff = skillgraph(&["check", "--diff", root_arg]);
    assert_eq!(diff.status.code(), Some(0));
    assert!(diff.stdout.is_empty());
    let text = std::fs::read_to_string(root.join("agent-skills/broken-yaml/SKILL.md")).unwrap();
    assert_contains(&text, "description: \"Reads: PDFs\"\n");
}

#[test]
fn fix_refuses_stdin_and_diff_together_with_fix() {
    let output = skillgraph(&["check", "--fix", "-", "--stdin-filename", "a/SKILL.md"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("cannot fix stdin"));
    let output = skillgraph(&["check", "--fix", "--diff", "examples/demo"]);
    assert_eq!(output.status.code(), Some(2));
}

/// `skillgraph graph`: the formats, the narrowing options, and paths read as `check` reads them.
mod graph {
    use super::{assert_contains, refused, skillgraph};

    fn snapshot(name: &str) -> String {
        std::fs::read_to_string(format!(
            "{}/src/ide/ordering_graph/snapshots/{name}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap()
    }

    #[test]
    fn each_format_on_the_demo_is_the_snapshot() {
        for (format, file) in [
            ("mermaid", "demo.mmd"),
            ("dot", "demo.dot"),
            ("json", "demo.json"),
        ] {
            let output = skillgraph(&["graph", "examples/demo", "--format", format]);
            assert_eq!(output.status.code(), Some(0), "{format}");
            assert_eq!(String::from_utf8_lossy(&output.stdout), snapshot(file));
        }
        // Mermaid is the default.
        let output = skillgraph(&["graph", "examples/demo"]);
        assert_eq!(
            String::from_utf8_lossy(&output.stdout),
            snapshot("demo.mmd")
        );
    }

    fn names(output: &std::process::Output) -> Vec<String> {
        assert_eq!(
            output.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let document: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        document["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| {
                format!(
                    "{}:{}",
                    n["kind"].as_str().unwrap(),
                    n["name"].as_str().unwrap()
                )
            })
            .collect()
    }

    #[test]
    fn a_file_is_drawn_within_its_workspace_and_narrowing_picks_one_agent() {
        // The topology file alone: its agents, and the composed skills they hold (read from
        // the enclosing workspace), but no SKILL.md chains.
        let topology = names(&skillgraph(&[
            "graph",
            "examples/demo/build-conventions/topologies/estate-copy.yaml",
            "--format",
            "json",
        ]));
        assert!(topology.contains(&"agent:root".to_owned()), "{topology:?}");
        assert!(
            topology.iter().all(|n| !n.starts_with("skill-md:")),
            "{topology:?}"
        );
        let checker = names(&skillgraph(&[
            "graph",
            "examples/demo",
            "--agent",
            "checker",
            "--format",
            "json",
        ]));
        assert_eq!(
            checker[..4],
            [
                "agent:publisher",
                "agent:checker",
                "skill:list-build-conventions",
                "skill:get-build-convention"
            ]
        );
        let chain = names(&skillgraph(&[
            "graph",
            "examples/demo/agent-skills/testing/nightly/SKILL.md",
            "--format",
            "json",
        ]));
        assert_eq!(
            chain,
            [
                "skill-md:nightly",
                "skill-md:chain-test",
                "skill-md:test-unit",
                "skill-md:test-e2e"
            ]
        );
    }

    #[test]
    fn a_narrowing_that_matches_nothing_or_a_missing_path_exits_2() {
        let stderr = refused(&["graph", "examples/demo", "--topology", "nosuch"]);
        assert_contains(
            &stderr,
            "no topology named `nosuch` in the paths given; there is `estate`",
        );
        let output = skillgraph(&["graph", "examples/demo", "--agent", "nobody"]);
        assert_eq!(output.status.code(), Some(2));
        let output = skillgraph(&["graph", "no/such/folder"]);
        assert_eq!(output.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&output.stderr).contains("no such file or directory"));
        let output = skillgraph(&["graph", "examples/demo", "--format", "svg"]);
        assert_eq!(output.status.code(), Some(2));
    }
}
