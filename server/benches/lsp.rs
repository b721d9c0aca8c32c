//! `cargo bench -p skillgraph --bench lsp`: the real `skillgraph lsp` binary over stdio, as an
//! editor drives it, on generated SwarmKit workspaces of 100 skills / 50 agents and 10,000 skills /
//! 500 agents. Measured:
//!
//! - initial index: `initialize` sent → the indexing `$/progress` ends (the first diagnostics go
//!   out before it ends);
//! - didChange → publishDiagnostics: a keystroke in an open topology that toggles an unknown-skill
//!   typo in a grant, to the diagnostics carrying its version (median of ~200, and of the typing
//!   and the fixing halves apart);
//! - hover and definition latency on a grant (median of ~200 each);
//! - the server's peak RSS (`VmHWM` in /proc/<pid>/status).
//!
//! A bench binary rather than a timed test: these machines are shared and noisy, so we print
//! medians and the ratio between sizes, never assert a time. The client is the end-to-end tests'
//! one (`crates/lsp-client`).

#[path = "common/workspace.rs"]
#[allow(dead_code)] // each bench uses the generators it needs
mod workspace;

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::json;
use skillgraph_lsp_client::Client;

const SAMPLES: usize = 200;
const TIMEOUT: Duration = Duration::from_secs(120);

/// Peak resident set size of the process `pid`, in KiB.
fn peak_rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

fn uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

struct Figures {
    files: usize,
    initial_index: Duration,
    change_to_publish: Duration,
    typo_to_publish: Duration,
    fix_to_publish: Duration,
    hover: Duration,
    definition: Duration,
    peak_rss_kib: u64,
}

fn measure(skills: usize, agents: usize) -> Figures {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    workspace::generate(&root, skills, agents);
    let files = std::fs::read_dir(root.join("skills")).unwrap().count()
        + std::fs::read_dir(root.join("topologies")).unwrap().count()
        + 2;

    // The reader thread stamps each message as it arrives and answers the server's own
    // requests (progress tokens, registrations); quiet, it keeps no history of the thousands of
    // diagnostics a large workspace publishes.
    let mut client = Client::spawn_binary(Path::new(env!("CARGO_BIN_EXE_skillgraph")), &[], true)
        .with_timeout(TIMEOUT)
        .quiet();
    let root_uri = uri(&root);
    let start = Instant::now();
    let id = client.send_request(
        "initialize",
        json!({
            "processId": std::process::id(),
            "rootUri": root_uri,
            "workspaceFolders": [{"uri": root_uri, "name": "bench"}],
            "capabilities": {
                "general": {"positionEncodings": ["utf-16"]},
                "window": {"workDoneProgress": true},
                "workspace": {"didChangeWatchedFiles": {"dynamicRegistration": true}},
            },
        }),
    );
    client.wait_for("initialize", |m| {
        m.get("method").is_none() && m["id"] == json!(id)
    });
    client.notify("initialized", json!({}));
    let (ended, _) = client.wait_for_timed("the end of the indexing progress", |m| {
        m["method"] == "$/progress" && m["params"]["value"]["kind"] == "end"
    });
    let initial_index = ended - start;

    // The first agent of topology-0 grants skill-0 … skill-19 on line 19 (0-based).
    let topology = root.join("topologies/topology-0.yaml");
    let text = std::fs::read_to_string(&topology).unwrap();
    let topology_uri = uri(&topology);
    let line_number = 18;
    let line = text.lines().nth(line_number).unwrap();
    assert!(line.contains("skills: [skill-0, "), "{line}");
    let grant = line.find("skill-7,").unwrap() as u32;
    let after_grant = grant + "skill-7".len() as u32;
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": topology_uri, "languageId": "yaml", "version": 0, "text": text}}),
    );

    // Keystrokes: type `x` after `skill-7` (an unknown skill), then delete it (fixed again).
    let mut change_to_publish = Vec::new();
    let (mut typo_to_publish, mut fix_to_publish) = (Vec::new(), Vec::new());
    for version in 1..=SAMPLES as i64 {
        let typo = version % 2 == 1;
        let (range, text) = if typo {
            ([after_grant, after_grant], "x")
        } else {
            ([after_grant, after_grant + 1], "")
        };
        let sent = Instant::now();
        client.notify(
            "textDocument/didChange",
            json!({
                "textDocument": {"uri": topology_uri, "version": version},
                "contentChanges": [{
                    "range": {
                        "start": {"line": line_number, "character": range[0]},
                        "end": {"line": line_number, "character": range[1]},
                    },
                    "text": text,
                }],
            }),
        );
        let (arrived, message) = client.wait_for_timed("diagnostics after a keystroke", |m| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["uri"] == topology_uri.as_str()
                && m["params"]["version"] == json!(version)
        });
        let unknown = message["params"]["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["code"] == "agent.unknown-skill");
        assert_eq!(unknown, typo, "{message}");
        change_to_publish.push(arrived - sent);
        if typo {
            typo_to_publish.push(arrived - sent);
        } else {
            fix_to_publish.push(arrived - sent);
        }
    }

    let at_grant = json!({
        "textDocument": {"uri": topology_uri},
        "position": {"line": line_number, "character": grant + 2},
    });
    let mut hover = Vec::new();
    let mut definition = Vec::new();
    for _ in 0..SAMPLES {
        let (took, response) = client.timed_request("textDocument/hover", at_grant.clone());
        assert!(response["result"]["contents"]["value"]
            .as_str()
            .is_some_and(|t| t.contains("skill-7")));
        hover.push(took);
        let (took, response) = client.timed_request("textDocument/definition", at_grant.clone());
        assert!(response["result"]["uri"]
            .as_str()
            .is_some_and(|u| u.ends_with("skills/skill-7.yaml")));
        definition.push(took);
    }

    let peak_rss_kib = peak_rss_kib(client.pid());
    assert!(client.shutdown().success());
    Figures {
        files,
        initial_index,
        change_to_publish: median(change_to_publish),
        typo_to_publish: median(typo_to_publish),
        fix_to_publish: median(fix_to_publish),
        hover: median(hover),
        definition: median(definition),
        peak_rss_kib,
    }
}

fn main() {
    // `cargo bench` passes `--bench`; nothing else to parse.
    // The same 50 agents per topology in both: the edited file is the same size, so the ratio
    // shows what the workspace's size costs.
    let small = measure(100, 50);
    let large = measure(10_000, 500);
    let ms = |d: Duration| format!("{:.2} ms", d.as_secs_f64() * 1000.0);
    let ratio = |a: Duration, b: Duration| format!("{:.2}x", b.as_secs_f64() / a.as_secs_f64());
    println!("skillgraph lsp, medians of {SAMPLES} samples (didChange, hover, definition each)\n");
    println!(
        "| measure                          | 100 skills / 50 agents | 10,000 skills / 500 agents | ratio |"
    );
    println!(
        "|----------------------------------|------------------------|----------------------------|-------|"
    );
    let rows = [
        (
            "files indexed",
            small.files.to_string(),
            large.files.to_string(),
            String::new(),
        ),
        (
            "initial index (initialize → end)",
            ms(small.initial_index),
            ms(large.initial_index),
            ratio(small.initial_index, large.initial_index),
        ),
        (
            "didChange → publishDiagnostics",
            ms(small.change_to_publish),
            ms(large.change_to_publish),
            ratio(small.change_to_publish, large.change_to_publish),
        ),
        (
            "  typing half (unknown skill)",
            ms(small.typo_to_publish),
            ms(large.typo_to_publish),
            ratio(small.typo_to_publish, large.typo_to_publish),
        ),
        (
            "  fixing half (resolved)",
            ms(small.fix_to_publish),
            ms(large.fix_to_publish),
            ratio(small.fix_to_publish, large.fix_to_publish),
        ),
        (
            "hover",
            ms(small.hover),
            ms(large.hover),
            ratio(small.hover, large.hover),
        ),
        (
            "definition",
            ms(small.definition),
            ms(large.definition),
            ratio(small.definition, large.definition),
        ),
        (
            "peak RSS (VmHWM)",
            format!("{:.1} MiB", small.peak_rss_kib as f64 / 1024.0),
            format!("{:.1} MiB", large.peak_rss_kib as f64 / 1024.0),
            format!(
                "{:.2}x",
                large.peak_rss_kib as f64 / small.peak_rss_kib.max(1) as f64
            ),
        ),
    ];
    for (name, a, b, r) in rows {
        println!("| {name:<32} | {a:>22} | {b:>26} | {r:>5} |");
    }
}
