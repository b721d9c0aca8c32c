//! Every fuzz target's committed corpus (`fuzz/corpus/<target>/`) and every input the fuzzer
//! once failed on (`fuzz/regressions/<target>/`), replayed through the same function the
//! libFuzzer target calls (`skillgraph::fuzzing`), on stable, in seconds. A failure names the
//! file; `cargo +nightly fuzz run <target> <file>` (fuzz/README.md) replays it under the fuzzer.
//!
//! A regression input whose name starts with `open-` is a finding whose fix belongs to work in
//! progress elsewhere: it is replayed too, and must still fail; once it passes, the test says so,
//! and the file is renamed without the prefix, so the list of open findings only shrinks.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use skillgraph::fuzzing::TARGETS;

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz")
}

/// The files of `folder`, sorted; none when it does not exist.
fn inputs(folder: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(folder)
        .map(|entries| {
            entries
                .map(|entry| entry.expect("a readable folder entry").path())
                .filter(|path| path.is_file())
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

/// Runs `target` on the file; the panic message when it fails.
fn replay(target: fn(&[u8]), file: &Path) -> Result<(), String> {
    let data = std::fs::read(file).expect("a readable input");
    catch_unwind(AssertUnwindSafe(|| target(&data))).map_err(|panic| {
        panic
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_owned()))
            .unwrap_or_else(|| "a panic without a message".to_owned())
    })
}

fn is_open(file: &Path) -> bool {
    file.file_name()
        .and_then(|name| name.to_str())
        .is_some_and(|name| name.starts_with("open-"))
}

/// Replays every input of one target; the failures, one line each.
fn replay_target(name: &str, target: fn(&[u8])) -> Vec<String> {
    let corpus = inputs(&fuzz_dir().join("corpus").join(name));
    assert!(
        !corpus.is_empty(),
        "the `{name}` target has no committed corpus in fuzz/corpus/{name}"
    );
    let regressions = inputs(&fuzz_dir().join("regressions").join(name));
    let mut failures = Vec::new();
    for file in corpus.iter().chain(&regressions) {
        let shown = file.strip_prefix(fuzz_dir()).unwrap_or(file).display();
        match (replay(target, file), is_open(file)) {
            (Err(message), false) => failures.push(format!("{shown}: {message}")),
            (Ok(()), true) => failures.push(format!(
                "{shown}: passes now; rename it without `open-` so it stays a regression"
            )),
            _ => {}
        }
    }
    failures
}

fn check_target(name: &str) {
    let target = TARGETS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, target)| *target)
        .expect("a known target");
    let failures = replay_target(name, target);
    assert!(
        failures.is_empty(),
        "{} input(s) of the `{name}` fuzz target fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn yaml_corpus_replays_clean() {
    check_target("yaml");
}

#[test]
fn skill_md_corpus_replays_clean() {
    check_target("skill_md");
}

#[test]
fn check_corpus_replays_clean() {
    check_target("check");
}

#[test]
fn transport_corpus_replays_clean() {
    check_target("transport");
}

#[test]
fn edits_corpus_replays_clean() {
    check_target("edits");
}

#[test]
fn every_target_has_a_test_a_fuzz_binary_and_a_dictionary() {
    let tested = ["yaml", "skill_md", "check", "transport", "edits"];
    let names: Vec<&str> = TARGETS.iter().map(|(name, _)| *name).collect();
    assert_eq!(names, tested, "a target without its replay test above");
    for name in names {
        for file in [
            format!("fuzz_targets/{name}.rs"),
            format!("dictionaries/{name}.dict"),
        ] {
            assert!(
                fuzz_dir().join(&file).is_file(),
                "the `{name}` target has no fuzz/{file}"
            );
        }
    }
}
