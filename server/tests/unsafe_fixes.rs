//! `check --fix --unsafe-fixes` and `check --diff --unsafe-fixes`: the fixes that guess (the
//! closest known id, a renamed name, a folder renamed to its skill's name), applied only within
//! the paths given, one guess per folder.

#[path = "support/text.rs"]
mod text;
use text::assert_contains;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

#[path = "support/copy.rs"]
mod copy;
use copy::copy_tree;

fn skillgraph(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_skillgraph"))
        .args(args)
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .output()
        .unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Every file below `root`, by its path relative to it, with its text.
fn texts(root: &Path) -> BTreeMap<PathBuf, String> {
    let mut all = BTreeMap::new();
    let mut stack = vec![root.to_owned()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let text = std::fs::read_to_string(&path).unwrap();
                all.insert(path.strip_prefix(root).unwrap().to_owned(), text);
            }
        }
    }
    all
}

/// A copy of the fixture of mechanical fixes (misspelt ids, a name in the wrong case, …).
fn fixture() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_tree(
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/fixes")),
        dir.path(),
    );
    dir
}

#[test]
fn without_the_flag_the_guesses_are_counted_not_applied() {
    let dir = fixture();
    let before = texts(dir.path());
    let diff = skillgraph(dir.path(), &["check", "--diff", "."]);
    let said = stderr(&diff);
    assert_contains(&said, "would fix 8 problems in 5 files (10 hidden fixes can be enabled with the `--unsafe-fixes` option)");
    let shown = String::from_utf8(diff.stdout.clone()).unwrap();
    assert!(!shown.contains("+        archetype: greeter"), "{shown}");
    assert!(shown.contains("+description: \"Use when: the user asks for it\""));
    let fixed = skillgraph(dir.path(), &["check", "--fix", "."]);
    assert!(stderr(&fixed).contains("fixed 8 problems in 5 files (10 hidden fixes"));
    // The safe fixes only: the guessed ids and the wrongly cased name are as they were.
    let after = texts(dir.path());
    assert_eq!(
        after.keys().collect::<Vec<_>>(),
        before.keys().collect::<Vec<_>>()
    );
    assert!(after[Path::new("ws/topologies/hello.yaml")].contains("archetype: greter"));
    assert!(after[Path::new("skills/Bad_Name/SKILL.md")].contains("name: Bad_Name"));
    // The flag means nothing without --fix or --diff.
    let alone = skillgraph(dir.path(), &["check", "--unsafe-fixes", "."]);
    assert_eq!(alone.status.code(), Some(2));
    assert!(stderr(&alone).contains("--unsafe-fixes goes with --fix or --diff"));
}

#[test]
fn the_guesses_are_shown_then_applied_and_a_folder_is_renamed() {
    let dir = fixture();
    let before = texts(dir.path());
    let diff = skillgraph(dir.path(), &["check", "--diff", "--unsafe-fixes", "."]);
    assert_eq!(diff.status.code(), Some(1));
    let shown = String::from_utf8(diff.stdout.clone()).unwrap();
    for expected in [
        "diff --git a/skills/Bad_Name/SKILL.md b/skills/bad-name/SKILL.md\nrename from skills/Bad_Name/SKILL.md\nrename to skills/bad-name/SKILL.md\n--- a/skills/Bad_Name/SKILL.md\n+++ b/skills/bad-name/SKILL.md\n",
        "-name: Bad_Name\n+name: bad-name\n",
        "-        archetype: greter\n+        archetype: greeter\n",
        "-  server: hello-wrld\n+  server: hello-world\n",
        "-    - chain-calee\n+    - chain-callee\n",
    ] {
        assert!(shown.contains(expected), "{expected}\nnot in\n{shown}");
    }
    let said = stderr(&diff);
    assert_contains(&said, "would rename skills/Bad_Name to skills/bad-name");
    assert_contains(&said, "would fix 18 problems in 10 files\n");
    assert!(!said.contains("hidden"), "{said}");
    // --diff wrote nothing.
    assert_eq!(texts(dir.path()), before);

    let fixed = skillgraph(dir.path(), &["check", "--fix", "--unsafe-fixes", "."]);
    let said = stderr(&fixed);
    assert_contains(&said, "renamed skills/Bad_Name to skills/bad-name");
    assert_contains(&said, "fixed 18 problems in 10 files");
    let after = texts(dir.path());
    assert!(!dir.path().join("skills/Bad_Name").exists());
    assert_eq!(
        after[Path::new("skills/bad-name/SKILL.md")],
        before[Path::new("skills/Bad_Name/SKILL.md")].replace("name: Bad_Name", "name: bad-name")
    );
    assert!(after[Path::new("ws/topologies/hello.yaml")].contains("archetype: greeter\n"));
    // A fixed point: nothing is left to fix, safe or not.
    let again = skillgraph(dir.path(), &["check", "--diff", "--unsafe-fixes", "."]);
    assert_eq!(again.status.code(), Some(0), "{}", stderr(&again));
    assert!(again.stdout.is_empty());
}

#[test]
fn the_guesses_stay_within_the_paths_given() {
    let dir = fixture();
    let before = texts(dir.path());
    let fixed = skillgraph(
        dir.path(),
        &[
            "check",
            "--fix",
            "--unsafe-fixes",
            "ws/topologies/hello.yaml",
        ],
    );
    assert!(stderr(&fixed).contains("in 1 file"), "{}", stderr(&fixed));
    let after = texts(dir.path());
    for (path, text) in &before {
        if path != Path::new("ws/topologies/hello.yaml") {
            assert_eq!(&after[path], text, "{}", path.display());
        }
    }
    assert!(after[Path::new("ws/topologies/hello.yaml")].contains("archetype: greeter\n"));
    // The folder given is not renamed away from under the path that names it, and its
    // SKILL.md is not given a name that no longer matches it.
    for path in ["skills/Bad_Name", "skills/Bad_Name/SKILL.md"] {
        let output = skillgraph(dir.path(), &["check", "--fix", "--unsafe-fixes", path]);
        assert!(
            stderr(&output).contains("fixed 0 problems"),
            "{}",
            stderr(&output)
        );
        assert_eq!(
            texts(dir.path())[Path::new("skills/Bad_Name/SKILL.md")],
            before[Path::new("skills/Bad_Name/SKILL.md")]
        );
    }
}

/// Two folders whose names both become `bad-name`: the first in path order is renamed
/// (`Bad-Name`), and the other keeps its
/// name and its diagnostic rather than being merged into it. A folder already holding the
/// guessed name on disk (with no SKILL.md in it) is never overwritten.
#[test]
fn conflicting_folder_guesses_rename_one_folder() {
    let dir = tempfile::tempdir().unwrap();
    let skill = |folder: &str| {
        let path = dir.path().join("skills").join(folder);
        std::fs::create_dir_all(&path).unwrap();
        std::fs::write(
            path.join("SKILL.md"),
            format!("---\nname: {folder}\ndescription: Does a thing when asked.\n---\n# Body\n"),
        )
        .unwrap();
    };
    skill("Bad_Name");
    skill("Bad-Name");
    skill("Taken_Name");
    std::fs::create_dir_all(dir.path().join("skills/taken-name")).unwrap();
    std::fs::write(dir.path().join("skills/taken-name/notes.txt"), "mine\n").unwrap();
    std::fs::create_dir_all(dir.path().join(".git")).unwrap();
    let fixed = skillgraph(dir.path(), &["check", "--fix", "--unsafe-fixes", "."]);
    let said = stderr(&fixed);
    assert_contains(&said, "fixed 1 problem in 1 file");
    let after = texts(dir.path());
    let folders: Vec<String> = after
        .keys()
        .map(|p| p.parent().unwrap().display().to_string())
        .collect();
    assert_eq!(
        folders,
        [
            "skills/Bad_Name",
            "skills/Taken_Name",
            "skills/bad-name",
            "skills/taken-name"
        ],
        "{said}"
    );
    assert_eq!(after[Path::new("skills/taken-name/notes.txt")], "mine\n");
    let check = skillgraph(dir.path(), &["check", "."]);
    let report = String::from_utf8_lossy(&check.stdout);
    assert_eq!(report.matches("skillmd.name-format").count(), 2, "{report}");
}
