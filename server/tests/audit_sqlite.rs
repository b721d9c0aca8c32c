//! `skillgraph audit` on real SwarmKit audit logs (tests/fixtures/audit, made by the unmodified
//! runtime): the counts of each scenario, the log found where the runtime writes it, the replay
//! of edited rules, read-only reading beside a writer, and bad input.

#[path = "support/text.rs"]
mod text;
use text::assert_contains;

#[path = "audit/support.rs"]
mod support;

use std::path::Path;

use support::{audit, audit_json, counts, fixture, rule, workspace_with_log};

/// Each scenario's counts, from its log found where the runtime writes it.
#[test]
fn each_real_scenario_counts_what_happened() {
    // A scenario a line, then the counts of `get-note` and those of `note-stats`, each as
    // agent_runs, runs, calls, refused, recovered, gave_up, refused_after_prerequisites, replay
    // runs, would_refuse.
    // - recover: refused, prerequisite called, retried; the second run's MCP error result
    //   unlocked nothing, so a second refusal came before the recovery.
    // - harness: gateway names mapped back to skills, the refusal read from the payload.
    // - llm-prompt: the llm_prompt prerequisite ran and was allowed; the runtime refused
    //   `note-stats` anyway.
    // - older: swarmkit-runtime 1.226.0, no policy_decision, the refusal read from the payload.
    //   The same scenario as `recover`, the same counts.
    let expected = "
        recover        2 2 5 3 2 0 0 2 0    2 1 1 0 0 0 0 2 0
        give-up        1 1 1 1 0 1 0 1 0    1 0 0 0 0 0 0 1 0
        never-reached  2 0 0 0 0 0 0 2 0    2 0 0 0 0 0 0 2 0
        harness        2 1 2 1 1 0 0 2 0    2 2 2 1 0 1 0 2 0
        llm-prompt     1 0 0 0 0 0 0 1 0    1 1 2 2 0 1 2 1 0
        older          2 2 5 3 2 0 0 2 0    2 1 1 0 0 0 0 2 0
    ";
    for row in expected.lines().filter(|row| !row.trim().is_empty()) {
        let mut words = row.split_whitespace();
        let scenario = words.next().unwrap();
        let numbers: Vec<u64> = words.map(|n| n.parse().unwrap()).collect();
        assert_eq!(numbers.len(), 18, "{row}");
        let (_dir, workspace) = workspace_with_log(scenario);
        let document = audit_json(&[workspace.to_str().unwrap()], &[]);
        for (skill, want) in ["get-note", "note-stats"]
            .into_iter()
            .zip(numbers.chunks(9))
        {
            assert_eq!(counts(rule(&document, skill)), want, "{scenario} {skill}");
        }
        assert_eq!(document["version"], 1);
        let source = &document["sources"][0];
        assert_eq!(source["kind"], "sqlite");
        assert!(source["location"]
            .as_str()
            .unwrap()
            .ends_with(".swarmkit/audit.sqlite"));
        assert!(document["unmatched"].as_array().unwrap().is_empty());
    }
}

#[test]
fn the_json_contract_has_every_field() {
    let (_dir, workspace) = workspace_with_log("recover");
    let document = audit_json(&[workspace.to_str().unwrap()], &[]);
    let keys = |v: &serde_json::Value| {
        let mut k: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
        k.sort();
        k
    };
    assert_eq!(
        keys(&document),
        ["rules", "sources", "unmatched", "version"]
    );
    assert_eq!(
        keys(&document["sources"][0]),
        ["from", "kind", "location", "rows", "runs", "to"]
    );
    let get_note = rule(&document, "get-note");
    assert_eq!(
        keys(get_note),
        [
            "agent",
            "agent_runs",
            "calls",
            "gave_up",
            "path",
            "prerequisites",
            "range",
            "recovered",
            "refused",
            "refused_after_prerequisites",
            "replay",
            "runs",
            "skill",
            "topology"
        ]
    );
    assert_eq!(
        keys(&get_note["replay"]),
        ["examples", "runs", "would_refuse"]
    );
    assert_eq!(document["sources"][0]["rows"], 13);
    assert_eq!(document["sources"][0]["runs"], 2);
    assert_eq!(get_note["topology"], "notes");
    assert_eq!(get_note["agent"], "reader");
    assert_eq!(get_note["prerequisites"], serde_json::json!(["list-notes"]));
    assert!(get_note["path"]
        .as_str()
        .unwrap()
        .ends_with("topologies/notes.yaml"));
    // `get-note:` under `requires:` (0-based line 15 of the topology).
    assert_eq!(get_note["range"]["start"]["line"], 15);
    assert_eq!(get_note["range"]["start"]["character"], 6);
    assert_eq!(get_note["range"]["end"]["character"], 14);
}

/// Rules edited since the runs: the replay says which recorded calls the rules as written now
/// would refuse, and refusals of a rule no longer written are unmatched.
#[test]
fn replays_the_rules_as_written_now() {
    let (_dir, workspace) = workspace_with_log("recover");
    let topology = workspace.join("topologies/notes.yaml");
    let text = std::fs::read_to_string(&topology).unwrap();
    // note-stats now also requires search-notes, never called; get-note's rule is removed.
    let edited = text.replace("      get-note: [list-notes]\n", "").replace(
        "note-stats: [get-note]",
        "note-stats: [get-note, search-notes]",
    );
    assert_ne!(edited, text);
    std::fs::write(&topology, edited).unwrap();
    let document = audit_json(&[workspace.to_str().unwrap()], &[]);
    let note_stats = rule(&document, "note-stats");
    assert_eq!(counts(note_stats), [2, 1, 1, 0, 0, 0, 0, 2, 1]);
    let example = &note_stats["replay"]["examples"][0];
    assert_eq!(example["skill"], "note-stats");
    assert_eq!(example["missing"], serde_json::json!(["search-notes"]));
    assert_eq!(example["event"], "6bbafdc9-4cd3-4aac-a44b-cb7a9c45c93c");
    assert_eq!(example["run"], "4dc886b8-f609-4a44-945a-ceb1305b614f");
    assert_eq!(
        document["unmatched"],
        serde_json::json!([{"topology": "notes", "agent": "reader", "skill": "get-note", "refused": 3}])
    );
    // A prerequisite the runtime never records (llm_prompt): every allowed call would be refused.
    std::fs::write(
        &topology,
        text.replace("note-stats: [get-note]", "note-stats: [summarise-note]"),
    )
    .unwrap();
    let document = audit_json(&[workspace.to_str().unwrap()], &[]);
    let example = &rule(&document, "note-stats")["replay"]["examples"][0];
    assert_eq!(example["missing"], serde_json::json!(["summarise-note"]));
}

/// The log is found as the runtime finds it: the environment, then `storage:`; `[audit] log`
/// and `--db` name another.
#[test]
fn finds_the_log_where_the_runtime_writes_it() {
    let (dir, workspace) = workspace_with_log("give-up");
    let elsewhere = dir.path().join("elsewhere.sqlite");
    std::fs::rename(workspace.join(".swarmkit/audit.sqlite"), &elsewhere).unwrap();
    let ws = workspace.to_str().unwrap();
    // Not at the default place any more: nothing to read, exit 2, said on stderr.
    let out = audit(&[ws], &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no audit log here"));
    let url = format!("sqlite:///{}", elsewhere.display());
    for env in [
        vec![("SWARMKIT_STORE_URL", url.as_str())],
        vec![("DATABASE_URL", url.as_str())],
    ] {
        let document = audit_json(&[ws], &env);
        assert_eq!(counts(rule(&document, "get-note"))[3], 1);
    }
    // workspace.yaml `storage.audit`.
    let manifest = workspace.join("workspace.yaml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(
        &manifest,
        format!("{text}storage:\n  audit:\n    backend: sqlite\n    url: ${{LOG_URL}}\n"),
    )
    .unwrap();
    let document = audit_json(&[ws], &[("LOG_URL", url.as_str())]);
    assert_eq!(counts(rule(&document, "get-note"))[3], 1);
    // `[audit] log` in skillgraph.toml, relative to its folder, wins over the runtime's rules
    // (the storage URL is now unset: it would be an error).
    std::fs::write(
        workspace.join("skillgraph.toml"),
        "[audit]\nlog = \"../elsewhere.sqlite\"\n",
    )
    .unwrap();
    let out = audit(&[ws], &[]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let human = String::from_utf8_lossy(&out.stdout);
    assert_contains(&human, "elsewhere.sqlite ([audit] log)");
    // --db wins over everything.
    let document = audit_json(&[ws, "--db", elsewhere.to_str().unwrap()], &[]);
    assert_eq!(counts(rule(&document, "get-note"))[3], 1);
}

fn stamp(path: &Path) -> (Vec<u8>, std::time::SystemTime) {
    (
        std::fs::read(path).unwrap(),
        std::fs::metadata(path).unwrap().modified().unwrap(),
    )
}

/// Reading never writes: the file's bytes and mtime are unchanged and no journal is left.
#[test]
fn never_modifies_the_log() {
    let (_dir, workspace) = workspace_with_log("recover");
    let log = workspace.join(".swarmkit/audit.sqlite");
    let before = stamp(&log);
    std::thread::sleep(std::time::Duration::from_millis(20));
    audit_json(&[workspace.to_str().unwrap()], &[]);
    assert_eq!(stamp(&log), before);
    let left: Vec<String> = std::fs::read_dir(workspace.join(".swarmkit"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(left, ["audit.sqlite"]);
}

/// A writer mid-transaction (WAL, as the runtime writes) and a writer holding the lock
/// (rollback journal): the committed rows are read, the uncommitted are not.
#[test]
fn reads_beside_a_writer() {
    let (_dir, workspace) = workspace_with_log("give-up");
    let log = workspace.join(".swarmkit/audit.sqlite");
    let writer = rusqlite::Connection::open(&log).unwrap();
    assert_eq!(
        writer
            .query_row("PRAGMA journal_mode", [], |r| r.get::<_, String>(0))
            .unwrap(),
        "wal"
    );
    let insert = "INSERT INTO audit_events (event_id, event_type, agent_id, timestamp, run_id, topology_id, skill_id, policy_decision, policy_reason, payload) \
                  VALUES (?1, 'skill.executed', 'reader', '2026-12-05T00:00:00+00:00', 'r-new', 'notes', 'get-note', 'deny', \
                  'get-note requires list-notes, which has not been called in this session. Call list-notes first, then retry.', NULL)";
    writer.execute(insert, ["committed"]).unwrap();
    writer.execute_batch("BEGIN IMMEDIATE").unwrap();
    writer
        .execute(insert.replace("r-new", "r-open").as_str(), ["open"])
        .unwrap();
    let document = audit_json(&[workspace.to_str().unwrap()], &[]);
    // The committed refusal counts (a second pair); the open transaction's does not.
    assert_eq!(counts(rule(&document, "get-note"))[..4], [2, 2, 2, 2]);
    writer.execute_batch("ROLLBACK").unwrap();

    // Rollback journal: a writer holding the lock for a moment is waited for.
    writer
        .execute_batch("PRAGMA journal_mode = DELETE")
        .unwrap();
    writer.execute_batch("BEGIN EXCLUSIVE").unwrap();
    let release = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(300));
        writer.execute_batch("COMMIT").unwrap();
    });
    let document = audit_json(&[workspace.to_str().unwrap()], &[]);
    assert_eq!(counts(rule(&document, "get-note"))[3], 2);
    release.join().unwrap();
}

/// A writer that keeps the lock past the busy timeout: a clear message naming the log, exit 2,
/// and the log as it was.
#[test]
fn a_log_locked_past_the_timeout_is_a_clear_message() {
    let (_dir, workspace) = workspace_with_log("give-up");
    let log = workspace.join(".swarmkit/audit.sqlite");
    let writer = rusqlite::Connection::open(&log).unwrap();
    writer
        .execute_batch("PRAGMA journal_mode = DELETE; BEGIN EXCLUSIVE")
        .unwrap();
    writer
        .execute(
            "DELETE FROM audit_events WHERE event_type = 'skill.executed'",
            [],
        )
        .unwrap();
    let out = audit(&[workspace.to_str().unwrap()], &[]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_contains(
        &stderr,
        "audit.sqlite: cannot read the audit log: database is locked",
    );
    writer.execute_batch("ROLLBACK").unwrap();
    drop(writer);
    let document = audit_json(&[workspace.to_str().unwrap()], &[]);
    assert_eq!(counts(rule(&document, "get-note"))[3], 1);
}

/// Bad logs get a clear message each, and the other workspaces are still read.
#[test]
fn bad_logs_are_reported_and_the_rest_goes_on() {
    let (dir, good) = workspace_with_log("give-up");
    let mut bad = Vec::new();
    let mut make = |name: &str, setup: &dyn Fn(&Path)| {
        let workspace = dir.path().join(name);
        support::copy_tree(&fixture("never-reached").join("workspace"), &workspace);
        std::fs::create_dir_all(workspace.join(".swarmkit")).unwrap();
        setup(&workspace.join(".swarmkit/audit.sqlite"));
        bad.push(workspace);
    };
    make("corrupt", &|log| {
        std::fs::write(log, vec![0xA5; 8192]).unwrap()
    });
    make("no-table", &|log| {
        rusqlite::Connection::open(log)
            .unwrap()
            .execute_batch("CREATE TABLE other (x)")
            .unwrap();
    });
    make("no-run-column", &|log| {
        rusqlite::Connection::open(log)
            .unwrap()
            .execute_batch("CREATE TABLE audit_events (event_id, event_type, agent_id, skill_id)")
            .unwrap();
    });
    let mut args: Vec<&str> = vec!["--format", "json", good.to_str().unwrap()];
    args.extend(bad.iter().map(|b| b.to_str().unwrap()));
    let out = audit(&args, &[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(
            "corrupt/.swarmkit/audit.sqlite: cannot read the audit log: file is not a database"
        ),
        "{stderr}"
    );
    assert_contains(
        &stderr,
        "no-table/.swarmkit/audit.sqlite: no table audit_events",
    );
    assert!(
        stderr.contains(
            "no-run-column/.swarmkit/audit.sqlite: table audit_events has no column run_id"
        ),
        "{stderr}"
    );
    let document: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(document["sources"].as_array().unwrap().len(), 1);
    // Only bad logs: exit 2.
    let only_bad: Vec<&str> = bad.iter().map(|b| b.to_str().unwrap()).collect();
    assert_eq!(audit(&only_bad, &[]).status.code(), Some(2));
}

/// A 10 MB payload, NULLs in every column, numbers in text columns, a payload that is not JSON,
/// and a missing optional column: read, not fatal.
#[test]
fn hostile_rows_are_read() {
    let (_dir, workspace) = workspace_with_log("give-up");
    let log = workspace.join(".swarmkit/audit.sqlite");
    let connection = rusqlite::Connection::open(&log).unwrap();
    let big = format!(
        r#"{{"inputs": {{"q": "{}"}}, "outputs": {{"result": "Error executing tool list_notes: no"}}}}"#,
        "x".repeat(10 << 20)
    );
    connection
        .execute(
            "INSERT INTO audit_events (event_id, event_type, agent_id, timestamp, run_id, topology_id, skill_id, policy_decision, payload) \
             VALUES ('big', 'skill.executed', 'reader', '2026-12-05T00:00:01+00:00', 'r2', 'notes', 'list-notes', 'allow', ?1)",
            [big],
        )
        .unwrap();
    connection
        .execute_batch(
            "INSERT INTO audit_events (event_id, event_type, agent_id, timestamp, run_id, topology_id, skill_id, policy_decision, payload) \
             VALUES ('late', 'skill.executed', 'reader', '2026-12-05T00:00:02+00:00', 'r2', 'notes', 'get-note', 'allow', 'not json');
             INSERT INTO audit_events (event_id, event_type, agent_id, timestamp) VALUES ('n1', 'skill.executed', 'reader', 'x');
             INSERT INTO audit_events (event_id, event_type, agent_id, timestamp, run_id, skill_id, payload) VALUES ('n2', 'skill.executed', 'reader', 'y', 42, 7, x'00ff');",
        )
        .unwrap();
    drop(connection);
    let document = audit_json(&[workspace.to_str().unwrap()], &[]);
    // r2: list-notes returned an MCP error, so get-note's allowed call would now be refused.
    // The rows without a run, or without a topology, belong to no pair of the agent.
    let get_note = rule(&document, "get-note");
    assert_eq!(counts(get_note)[..4], [2, 2, 2, 1]);
    assert_eq!(counts(get_note)[8], 1);
    assert_eq!(get_note["replay"]["examples"][0]["event"], "late");
}

#[test]
fn since_keeps_the_later_rows() {
    let (_dir, workspace) = workspace_with_log("recover");
    let ws = workspace.to_str().unwrap();
    let document = audit_json(&[ws, "--since", "2026-12-04T20:31:20"], &[]);
    assert_eq!(document["sources"][0]["runs"], 1);
    assert_eq!(counts(rule(&document, "get-note"))[..4], [1, 1, 3, 2]);
    let document = audit_json(&[ws, "--since", "2027-01-01"], &[]);
    assert_eq!(document["sources"][0]["rows"], 0);
    assert_eq!(counts(rule(&document, "get-note"))[0], 0);
}

#[test]
fn human_output_is_a_table_per_topology_sorted_by_refusals() {
    let (_dir, workspace) = workspace_with_log("give-up");
    let out = audit(&[workspace.to_str().unwrap()], &[]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with("log ") && lines[0].contains("3 rows, 1 runs"),
        "{text}"
    );
    let get_note = lines
        .iter()
        .position(|l| l.contains("get-note ← list-notes"))
        .unwrap();
    let note_stats = lines
        .iter()
        .position(|l| l.contains("note-stats ← get-note"))
        .unwrap();
    assert!(get_note < note_stats, "{text}");
    assert!(lines[note_stats].ends_with("never reached"), "{text}");
    assert!(!lines[get_note].ends_with("never reached"), "{text}");
}

/// `skillgraph graph --observed`: each requires edge carries its rule's counts in JSON, and the
/// Mermaid and DOT labels show the refusals (or that the rule was never reached).
#[test]
fn the_ordering_graph_shows_what_was_observed() {
    let (_dir, workspace) = workspace_with_log("give-up");
    let ws = workspace.to_str().unwrap();
    let graph = |format: &str, observed: bool| {
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_skillgraph"));
        command.args(["graph", "--format", format, ws]);
        if observed {
            command.arg("--observed");
        }
        let out = command
            .env_remove("SWARMKIT_STORE_URL")
            .env_remove("DATABASE_URL")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let mermaid = graph("mermaid", true);
    assert!(mermaid.contains(r#"-->|"refused 1"|"#), "{mermaid}");
    assert!(mermaid.contains(r#"-->|"never reached"|"#), "{mermaid}");
    assert!(!graph("mermaid", false).contains("refused"));
    let dot = graph("dot", true);
    assert!(dot.contains(r#"label="refused 1""#), "{dot}");
    let json: serde_json::Value = serde_json::from_str(&graph("json", true)).unwrap();
    let observed: Vec<&serde_json::Value> = json["edges"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e.get("observed"))
        .collect();
    assert_eq!(observed.len(), 2);
    assert!(observed
        .iter()
        .any(|o| o["refused"] == 1 && o["gave_up"] == 1 && o["agent_runs"] == 1));
    let plain: serde_json::Value = serde_json::from_str(&graph("json", false)).unwrap();
    assert!(plain["edges"]
        .as_array()
        .unwrap()
        .iter()
        .all(|e| e.get("observed").is_none()));
}
