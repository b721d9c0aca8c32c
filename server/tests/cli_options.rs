//! The `check` subcommand's options as a user types them.

use std::process::Command;

fn skillgraph(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_skillgraph"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .env_remove("NO_COLOR")
        .output()
        .unwrap()
}

#[test]
fn color_accepts_only_auto_always_never() {
    let output = skillgraph(&["check", "--color", "nevr", "examples/demo"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("nevr"), "{stderr}");
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
