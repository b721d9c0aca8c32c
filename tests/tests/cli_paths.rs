//! `skillgraph check` with file and folder arguments: each is checked within the workspace or
//! skill root around it, and only its own diagnostics are reported.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use serde_json::Value;
use skillgraph_e2e::{assert_contains, binary, fixture_copy};

fn check(cwd: &Path, args: &[&str]) -> Output {
    Command::new(binary())
        .arg("check")
        .args(args)
        .current_dir(cwd)
        .output()
        .unwrap()
}

/// `check --format json - --stdin-filename topologies/estate.yaml` in `cwd`, with `feed` writing
/// stdin on a thread of its own (the checker may stop reading before it is done).
fn check_stdin(cwd: &Path, feed: impl FnOnce(std::process::ChildStdin) + Send + 'static) -> Output {
    let mut child = Command::new(binary())
        .args([
            "check",
            "--format",
            "json",
            "-",
            "--stdin-filename",
            "topologies/estate.yaml",
        ])
        .current_dir(cwd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || feed(stdin));
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    output
}

fn json_diagnostics(output: &Output) -> Vec<Value> {
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    report["diagnostics"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

/// Each diagnostic without the parts that name where the check started.
fn of_file<'a>(diagnostics: &'a [Value], file: &str) -> Vec<&'a Value> {
    diagnostics
        .iter()
        .filter(|d| d["path"].as_str().is_some_and(|f| f.ends_with(file)))
        .collect()
}

#[test]
fn a_file_gets_what_a_check_of_its_workspace_says_about_it() {
    let dir = fixture_copy("estate");
    let whole = check(dir.path(), &["--format", "json", "."]);
    let whole = json_diagnostics(&whole);
    let expected = of_file(&whole, "topologies/estate.yaml");
    assert!(!expected.is_empty());

    let one = check(dir.path(), &["--format", "json", "topologies/estate.yaml"]);
    assert_eq!(one.status.code(), Some(1));
    let got = json_diagnostics(&one);
    assert_eq!(got.iter().collect::<Vec<_>>(), expected);

    // The manifest alone: its own diagnostics, none of the workspace's others.
    let manifest = check(dir.path(), &["--format", "json", "workspace.yaml"]);
    let got = json_diagnostics(&manifest);
    assert_eq!(
        got.iter().collect::<Vec<_>>(),
        of_file(&whole, "workspace.yaml")
    );

    // From a sub-folder: the workspace around it, reported for the folder only.
    let topologies = dir.path().join("topologies");
    let sub = check(&topologies, &["."]);
    let stderr = String::from_utf8_lossy(&sub.stderr);
    assert_contains(&stderr, "checking . within");
    let stdout = String::from_utf8_lossy(&sub.stdout);
    assert_contains(&stdout, &format!("{} errors in 1 file", expected.len()));
}

#[test]
fn a_missing_path_is_reported_and_the_others_are_checked() {
    let dir = fixture_copy("estate");
    let output = check(dir.path(), &["no-such-file.yaml", "topologies/estate.yaml"]);
    assert_eq!(
        output.status.code(),
        Some(1),
        "the existing file has errors"
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_contains(&stderr, "no-such-file.yaml: no such file or directory");
    assert!(String::from_utf8_lossy(&output.stdout).contains("agent.unknown-skill"));
    let none = check(dir.path(), &["no-such-file.yaml", "nor-this"]);
    assert_eq!(none.status.code(), Some(2));
}

#[test]
fn stdin_is_checked_as_the_file_it_names() {
    let dir = fixture_copy("estate");
    let text = std::fs::read_to_string(dir.path().join("topologies/estate.yaml"))
        .unwrap()
        .replace("get-convension", "get-convention");
    for args in [
        &[
            "--format",
            "json",
            "-",
            "--stdin-filename",
            "topologies/estate.yaml",
        ][..],
        &[
            "--format",
            "json",
            "--stdin-filename",
            "topologies/estate.yaml",
        ][..],
    ] {
        let mut child = Command::new(binary())
            .arg("check")
            .args(args)
            .current_dir(dir.path())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(text.as_bytes())
            .unwrap();
        let output = child.wait_with_output().unwrap();
        let diagnostics = json_diagnostics(&output);
        // The buffer's text counts, not the disk's: the typo is fixed there.
        assert!(
            !diagnostics.iter().any(|d| d["message"]
                .as_str()
                .unwrap_or("")
                .contains("get-convension")),
            "{diagnostics:#?}"
        );
        // The workspace around it still counts: the skills it names resolve.
        assert!(
            diagnostics
                .iter()
                .all(|d| d["path"].as_str().unwrap_or("").ends_with("estate.yaml")),
            "{diagnostics:#?}"
        );
        assert!(!diagnostics.is_empty());
    }
}

#[test]
fn an_endless_stdin_is_read_as_far_as_the_size_cap() {
    let dir = fixture_copy("estate");
    // Writes until the checker stops reading: a broken pipe is the expected end.
    let output = check_stdin(dir.path(), |mut stdin| {
        use std::io::Write;
        let chunk = vec![b'#'; 1 << 16];
        while stdin.write_all(&chunk).is_ok() {}
    });
    let diagnostics = json_diagnostics(&output);
    let codes: Vec<&str> = of_file(&diagnostics, "estate.yaml")
        .iter()
        .filter_map(|d| d["code"].as_str())
        .collect();
    assert_eq!(codes, ["file.too-large"]);
}

#[cfg(unix)]
#[test]
fn a_fifo_named_as_a_path_is_skipped_and_said() {
    let dir = fixture_copy("estate");
    let fifo = dir.path().join("skills/pipe.yaml");
    assert!(std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let output = check(dir.path(), &["skills/pipe.yaml"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_contains(&stderr, "not a regular file");
    assert_eq!(output.status.code(), Some(2), "nothing else to check");
}

/// Bytes on stdin are judged as the same bytes on disk: a buffer under the size cap whose bad
/// bytes make its decoded text longer than the cap is an encoding problem, not a large file,
/// and it replaces the file on disk even when that one does not decode either.
#[test]
fn stdin_bytes_that_are_not_utf8_are_an_encoding_problem_whatever_their_decoded_length() {
    let dir = fixture_copy("estate");
    // The disk's copy does not decode either, and must not be checked beside the buffer.
    std::fs::write(
        dir.path().join("topologies/estate.yaml"),
        b"kind: Topology\n# \xff\n",
    )
    .unwrap();
    // 1.5 MiB of 0xFF: under the 4 MiB cap as bytes, over it once each reads as U+FFFD.
    let mut bytes = b"apiVersion: swarmkit/v1\nkind: Topology\n# ".to_vec();
    bytes.extend(std::iter::repeat_n(0xFFu8, 1_500_000));
    bytes.push(b'\n');
    let output = check_stdin(dir.path(), move |mut stdin| {
        use std::io::Write;
        let _ = stdin.write_all(&bytes);
    });
    let diagnostics = json_diagnostics(&output);
    let of_estate = of_file(&diagnostics, "estate.yaml");
    let codes: Vec<&str> = of_estate
        .iter()
        .filter_map(|d| d["code"].as_str())
        .filter(|code| code.starts_with("file."))
        .collect();
    assert_eq!(codes, ["file.encoding"], "{of_estate:#?}");
    // At the buffer's first bad byte (line 3), not the disk copy's (line 2).
    let encoding = of_estate
        .iter()
        .find(|d| d["code"] == "file.encoding")
        .unwrap();
    assert_eq!(encoding["range"]["start"]["line"], 2, "{encoding:#?}");
}
