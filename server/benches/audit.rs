//! `cargo bench -p skillgraph --bench audit`: `skillgraph audit` (the release binary, as a user
//! runs it) on generated logs of 100,000 and 1,000,000 rows over 1,000 and 10,000 runs, in the
//! runtime's table (swarmkit-runtime 1.265.0, `audit/_tables.py`, with its indexes), rows shaped
//! as the real logs of tests/fixtures/audit. Median of 3 runs, and the child's peak RSS: it must
//! not grow with the rows. The logs are made once, under target/audit-bench/.
//!
//! Then the language server on the same workspace: the time from `initialized` to the log read
//! (in the background), the hover on a `requires:` rule (answered from the recording kept in
//! memory: the first, which replays the agent's kept calls, and the median of 200 more), the
//! hover after an edit of the rule (a replay again), and the server's peak RSS.
//!
//! `AUDIT_BENCH_ROWS=N` runs one size only (rows over N/100 runs).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::json;
use skillgraph_lsp_client::{file_uri, Client};

const TOPOLOGY: &str = "apiVersion: swarmkit/v1\nkind: Topology\nmetadata: {name: notes, version: 0.1.0}\nagents:\n  root:\n    id: reader\n    role: root\n    model: {provider: llama-server, name: reader}\n    prompt: {system: You read notes.}\n    skills: [list-notes, get-note, note-stats]\n    requires:\n      get-note: [list-notes]\n      note-stats: [get-note]\n";
const WORKSPACE: &str = "apiVersion: swarmkit/v1\nkind: Workspace\nmetadata: {id: notes, name: Notes}\nmcp_servers:\n  - id: notes\n    transport: stdio\n    command: [notes-mcp-server]\n";
const REFUSAL: &str = "get-note requires list-notes, which has not been called in this session. Call list-notes first, then retry.";

fn skill(id: &str, tool: &str) -> String {
    format!("apiVersion: swarmkit/v1\nkind: Skill\nmetadata: {{id: {id}, name: {id}, description: A note tool.}}\ncategory: capability\nimplementation: {{type: mcp_tool, server: notes, tool: {tool}}}\nprovenance: {{authored_by: human, version: 1.0.0}}\n")
}

/// A workspace and its log of `rows` rows over `rows / 100` runs: per run `agent.started`, 98
/// calls (a refusal of get-note, list-notes, get-note, note-stats, then reads), `agent.completed`.
fn generate(root: &Path, rows: usize) {
    if root.join(".swarmkit/audit.sqlite").exists() {
        return;
    }
    std::fs::create_dir_all(root.join("topologies")).unwrap();
    std::fs::create_dir_all(root.join("skills")).unwrap();
    std::fs::create_dir_all(root.join(".swarmkit")).unwrap();
    std::fs::write(root.join("workspace.yaml"), WORKSPACE).unwrap();
    std::fs::write(root.join("topologies/notes.yaml"), TOPOLOGY).unwrap();
    for (id, tool) in [
        ("list-notes", "list_notes"),
        ("get-note", "get_note"),
        ("note-stats", "note_stats"),
    ] {
        std::fs::write(root.join(format!("skills/{id}.yaml")), skill(id, tool)).unwrap();
    }
    let path = root.join(".swarmkit/audit.sqlite.tmp");
    let _ = std::fs::remove_file(&path);
    let mut db = rusqlite::Connection::open(&path).unwrap();
    db.execute_batch(
        "PRAGMA journal_mode = WAL;
         CREATE TABLE audit_events (event_id TEXT PRIMARY KEY, event_type TEXT NOT NULL, agent_id TEXT NOT NULL,
           timestamp TEXT NOT NULL, run_id TEXT, parent_event_id TEXT, topology_id TEXT, skill_id TEXT, agent_role TEXT,
           skill_category TEXT, inputs TEXT, outputs TEXT, verdict TEXT, reasoning TEXT, confidence FLOAT,
           model_provider TEXT, model_name TEXT, tokens_in INTEGER, tokens_out INTEGER, cost_usd FLOAT,
           duration_ms INTEGER, policy_decision TEXT, policy_reason TEXT, error TEXT, payload TEXT, labels TEXT);
         CREATE INDEX idx_audit_run_id ON audit_events (run_id);
         CREATE INDEX idx_audit_agent_id ON audit_events (agent_id);
         CREATE INDEX idx_audit_timestamp ON audit_events (timestamp);
         CREATE INDEX idx_audit_event_type ON audit_events (event_type);",
    )
    .unwrap();
    let tx = db.transaction().unwrap();
    {
        let mut insert = tx
            .prepare(
                "INSERT INTO audit_events (event_id, event_type, agent_id, timestamp, run_id, topology_id, skill_id, policy_decision, policy_reason, payload, labels)
                 VALUES (?1, ?2, 'reader', ?3, ?4, 'notes', ?5, ?6, ?7, ?8, '{\"case\": \"bench\"}')",
            )
            .unwrap();
        let runs = rows / 100;
        let mut n = 0u64;
        for run in 0..runs {
            let run_id = format!("{:08x}-bench-4000-8000-{:012x}", run, run * 7919);
            for step in 0..100 {
                n += 1;
                let event = format!("{n:016x}-0000-4000-8000-000000000000");
                let ts = format!(
                    "2026-12-{:02}T{:02}:{:02}:{:02}.{:06}+00:00",
                    1 + run / 3600 % 28,
                    run / 60 % 24,
                    run % 60,
                    step / 2,
                    n % 1_000_000
                );
                let (kind, skill, decision, reason, result): (
                    &str,
                    Option<&str>,
                    Option<&str>,
                    Option<&str>,
                    String,
                ) = match step {
                    0 => ("agent.started", None, None, None, String::new()),
                    99 => ("agent.completed", None, None, None, String::new()),
                    1 => (
                        "skill.executed",
                        Some("get-note"),
                        Some("deny"),
                        Some(REFUSAL),
                        format!("[skill:get-note]] DENIED: {REFUSAL}"),
                    ),
                    2 | 5 => (
                        "skill.executed",
                        Some("list-notes"),
                        Some("allow"),
                        None,
                        "Available notes: N-1, N-2, N-3\\n[source: notes:list_notes | 19ms]"
                            .to_owned(),
                    ),
                    s if s % 3 == 0 => (
                        "skill.executed",
                        Some("note-stats"),
                        Some("allow"),
                        None,
                        "N-2: 4 words\\n[source: notes:note_stats | 23ms]".to_owned(),
                    ),
                    _ => (
                        "skill.executed",
                        Some("get-note"),
                        Some("allow"),
                        None,
                        "Use the RF pattern for builds.\\n[source: notes:get_note | 18ms]"
                            .to_owned(),
                    ),
                };
                let payload = if skill.is_some() {
                    format!("{{\"inputs\": {{\"note_id\": \"N-{step}\"}}, \"outputs\": {{\"result\": \"{result}\"}}}}")
                } else {
                    "{\"role\": \"root\"}".to_owned()
                };
                insert
                    .execute(rusqlite::params![
                        event, kind, ts, run_id, skill, decision, reason, payload
                    ])
                    .unwrap();
            }
        }
    }
    tx.commit().unwrap();
    db.execute_batch("PRAGMA wal_checkpoint(TRUNCATE)").unwrap();
    drop(db);
    std::fs::rename(&path, root.join(".swarmkit/audit.sqlite")).unwrap();
}

fn peak_rss_of_children_kib() -> i64 {
    // SAFETY: getrusage writes into the struct it is given.
    unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage);
        usage.ru_maxrss
    }
}

/// The language server on the workspace at `root`: the log's read, and the hover on the rule
/// `get-note: [list-notes]` (line 11 of the topology).
fn lsp(binary: &Path, root: &Path) {
    let mut command = Command::new(binary);
    command
        .arg("lsp")
        .env_remove("SWARMKIT_STORE_URL")
        .env_remove("DATABASE_URL")
        .env_remove("SWARMKIT_STORE_BACKEND");
    let mut client = Client::spawn_command(command, true)
        .with_timeout(Duration::from_secs(300))
        .quiet();
    let root_uri = file_uri(root);
    client.request(
        "initialize",
        json!({
            "processId": std::process::id(),
            "rootUri": root_uri,
            "workspaceFolders": [{"uri": root_uri, "name": "bench"}],
            "capabilities": {"general": {"positionEncodings": ["utf-16"]}},
        }),
    );
    let start = Instant::now();
    client.notify("initialized", json!({}));
    let read = client.wait_for("the log read", |m| {
        m["method"] == "window/logMessage"
            && m["params"]["message"]
                .as_str()
                .is_some_and(|t| t.starts_with("skillgraph: audit log"))
    });
    let read_in = start.elapsed();
    let topology = root.join("topologies/notes.yaml");
    let uri = file_uri(&topology);
    client.open(&uri, "yaml", 1, TOPOLOGY);
    let hover = |client: &mut Client| {
        let (took, response) = client.timed_request(
            "textDocument/hover",
            json!({"textDocument": {"uri": uri}, "position": {"line": 11, "character": 8}}),
        );
        let text = response["result"]["contents"]["value"]
            .as_str()
            .unwrap_or_default();
        assert!(text.contains("**Observed**"), "{text}");
        took
    };
    let first = hover(&mut client);
    let mut samples: Vec<Duration> = (0..200).map(|_| hover(&mut client)).collect();
    samples.sort();
    // The rule edited (`[list-notes]` to `[note-stats]`): the next hover replays it.
    client.edit(&uri, 2, [11, 17, 11, 27], "note-stats");
    let edited = hover(&mut client);
    let rss = client.peak_rss_kib();
    println!(
        "lsp: {} in {:.2?}; hover on a rule: first {:.2?}, median {:.2?} (max {:.2?}), after editing it {:.2?}; server peak RSS {} MiB",
        read["params"]["message"].as_str().unwrap_or_default(),
        read_in,
        first,
        samples[samples.len() / 2],
        samples[samples.len() - 1],
        edited,
        rss / 1024
    );
    client.shutdown();
}

fn main() {
    let binary = PathBuf::from(env!("CARGO_BIN_EXE_skillgraph"));
    let target = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/audit-bench");
    let sizes: Vec<usize> = match std::env::var("AUDIT_BENCH_ROWS") {
        Ok(n) => vec![n.parse().expect("AUDIT_BENCH_ROWS: a number")],
        Err(_) => vec![100_000, 1_000_000],
    };
    for rows in sizes {
        let root = target.join(format!("rows-{rows}"));
        let made = Instant::now();
        generate(&root, rows);
        eprintln!(
            "log of {rows} rows ready in {:.1?} ({})",
            made.elapsed(),
            root.display()
        );
        let mut samples: Vec<Duration> = Vec::new();
        for _ in 0..3 {
            let start = Instant::now();
            let out = Command::new(&binary)
                .args(["audit", "--format", "json"])
                .arg(&root)
                .env_remove("SWARMKIT_STORE_URL")
                .env_remove("DATABASE_URL")
                .env_remove("SWARMKIT_STORE_BACKEND")
                .output()
                .unwrap();
            samples.push(start.elapsed());
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            let document: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            assert_eq!(document["sources"][0]["rows"], rows as u64);
            assert_eq!(document["rules"][0]["refused"], (rows / 100) as u64);
        }
        samples.sort();
        println!(
            "audit: {rows} rows, {} runs: median {:.2?} (min {:.2?}, max {:.2?}); peak RSS of the runs so far {} MiB",
            rows / 100,
            samples[1],
            samples[0],
            samples[2],
            peak_rss_of_children_kib() / 1024
        );
        lsp(&binary, &root);
    }
}
