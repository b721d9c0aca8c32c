//! `cargo bench -p skillgraph --bench lsp`: the real `skillgraph lsp` binary over stdio, as an
//! editor drives it, on generated SwarmKit workspaces of 100 skills / 50 agents and 10,000 skills /
//! 500 agents. Measured:
//!
//! - initial index: `initialize` sent → the indexing `$/progress` ends (the first diagnostics go
//!   out before it ends);
//! - didChange → publishDiagnostics: a keystroke in an open topology that toggles an unknown-skill
//!   typo in a grant, to the diagnostics carrying its version (median of ~200, and of the typing
//!   and the fixing halves apart), and the server's minor page faults per keystroke;
//! - hover and definition latency on a grant (median of ~200 each);
//! - the server's peak RSS (`VmHWM` in /proc/<pid>/status).
//!
//! A bench binary rather than a timed test: these machines are shared and noisy, so we print
//! medians and the ratio between sizes, never assert a time. The client is the end-to-end tests'
//! one (`crates/lsp-client`).
//!
//! `cargo bench -p skillgraph --bench lsp -- --ready` instead times the server's readiness at
//! 10,000 skills against the floor of reading the files, and `check`, alternated in one run.
//!
//! `cargo bench -p skillgraph --bench lsp -- --instructions` instead runs the server under
//! callgrind (valgrind must be installed) and prints the instructions one keystroke costs at each
//! size: a count the machine's load does not change.

#[path = "common/workspace.rs"]
#[allow(dead_code)] // each bench uses the generators it needs
mod workspace;

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::json;
use skillgraph_lsp_client::Client;

const SAMPLES: usize = 200;
const TIMEOUT: Duration = Duration::from_secs(120);

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
    faults_per_edit: f64,
    cpu_per_edit: Duration,
    hover: Duration,
    definition: Duration,
    peak_rss_kib: u64,
}

/// Field `n` (1-based, as in proc(5)) of /proc/<pid>/stat, a number.
fn stat_field(pid: u32, n: usize) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // The command name (field 2) is in parentheses and may hold spaces: count after it.
    stat.rsplit_once(')')
        .and_then(|(_, rest)| rest.split_whitespace().nth(n - 3))
        .and_then(|field| field.parse().ok())
        .unwrap_or(0)
}

/// Minor page faults of the process `pid` so far (`minflt`).
fn minor_faults(pid: u32) -> u64 {
    stat_field(pid, 10)
}

/// CPU time the process `pid` used so far, all threads, user and system (`utime` + `stime`),
/// in clock ticks.
fn cpu_ticks(pid: u32) -> u64 {
    stat_field(pid, 14) + stat_field(pid, 15)
}

/// A server indexed over a generated workspace, with its first topology open.
struct Session {
    client: Client,
    _dir: tempfile::TempDir,
    files: usize,
    initial_index: Duration,
    topology_uri: String,
    line_number: u32,
    grant: u32,
    after_grant: u32,
    version: i64,
}

impl Session {
    /// Generates the workspace, starts the server with `command` (`<binary> lsp`, possibly under
    /// a tool), waits for the indexing to end and opens topology-0.
    fn start(skills: usize, agents: usize, command: std::process::Command) -> Session {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        workspace::generate(&root, skills, agents);
        let files = std::fs::read_dir(root.join("skills")).unwrap().count()
            + std::fs::read_dir(root.join("topologies")).unwrap().count()
            + 2;

        let (mut client, initial_index) = start_until_ready(command, &root);

        // The first agent of topology-0 grants skill-0 … skill-19 on line 19 (0-based).
        let topology = root.join("topologies/topology-0.yaml");
        let text = std::fs::read_to_string(&topology).unwrap();
        let topology_uri = uri(&topology);
        let line_number = 18;
        let line = text.lines().nth(line_number as usize).unwrap();
        assert!(line.contains("skills: [skill-0, "), "{line}");
        let grant = line.find("skill-7,").unwrap() as u32;
        let after_grant = grant + "skill-7".len() as u32;
        client.open(&topology_uri, "yaml", 0, &text);
        Session {
            client,
            _dir: dir,
            files,
            initial_index,
            topology_uri,
            line_number,
            grant,
            after_grant,
            version: 0,
        }
    }

    /// One keystroke: types `x` after `skill-7` (an unknown skill), or deletes it again (fixed),
    /// in turn. Returns whether it was the typo and the time until the diagnostics carrying its
    /// version arrived.
    fn keystroke(&mut self) -> (bool, Duration) {
        self.version += 1;
        let version = self.version;
        let typo = version % 2 == 1;
        let (range, text) = if typo {
            ([self.after_grant, self.after_grant], "x")
        } else {
            ([self.after_grant, self.after_grant + 1], "")
        };
        let sent = Instant::now();
        let line = self.line_number;
        self.client.edit(
            &self.topology_uri,
            version,
            [line, range[0], line, range[1]],
            text,
        );
        let topology_uri = self.topology_uri.as_str();
        let (arrived, message) = self
            .client
            .wait_for_timed("diagnostics after a keystroke", |m| {
                m["method"] == "textDocument/publishDiagnostics"
                    && m["params"]["uri"] == topology_uri
                    && m["params"]["version"] == json!(version)
            });
        let unknown = message["params"]["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["code"] == "agent.unknown-skill");
        assert_eq!(unknown, typo, "{message}");
        (typo, arrived - sent)
    }
}

fn measure(skills: usize, agents: usize) -> Figures {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_skillgraph"));
    command.arg("lsp");
    let mut session = Session::start(skills, agents, command);

    let mut change_to_publish = Vec::new();
    let (mut typo_to_publish, mut fix_to_publish) = (Vec::new(), Vec::new());
    let faults_before = minor_faults(session.client.pid());
    let ticks_before = cpu_ticks(session.client.pid());

    for _ in 0..SAMPLES {
        let (typo, took) = session.keystroke();
        change_to_publish.push(took);
        if typo {
            typo_to_publish.push(took);
        } else {
            fix_to_publish.push(took);
        }
    }
    let faults_per_edit =
        (minor_faults(session.client.pid()) - faults_before) as f64 / SAMPLES as f64;
    // SAFETY: sysconf reads a constant of the system.
    let ticks_per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as f64;
    let cpu_per_edit = Duration::from_secs_f64(
        (cpu_ticks(session.client.pid()) - ticks_before) as f64 / ticks_per_second / SAMPLES as f64,
    );

    let at_grant = json!({
        "textDocument": {"uri": session.topology_uri},
        "position": {"line": session.line_number, "character": session.grant + 2},
    });
    let mut hover = Vec::new();
    let mut definition = Vec::new();
    let client = &mut session.client;
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

    let peak_rss_kib = session.client.peak_rss_kib();
    let Session {
        client,
        files,
        initial_index,
        ..
    } = session;
    assert!(client.shutdown().success());
    Figures {
        files,
        initial_index,
        change_to_publish: median(change_to_publish),
        typo_to_publish: median(typo_to_publish),
        fix_to_publish: median(fix_to_publish),
        faults_per_edit,
        cpu_per_edit,
        hover: median(hover),
        definition: median(definition),
        peak_rss_kib,
    }
}

/// Keystrokes counted under callgrind: enough to average out the typing and fixing halves.
const COUNTED_EDITS: usize = 40;

/// The instructions the server executes per keystroke (all its threads together), counted by
/// callgrind: the server starts with instrumentation off, indexes, takes a few keystrokes to
/// warm up, then `callgrind_control -i on` counts `COUNTED_EDITS` keystrokes and `-i off` stops.
/// Unlike wall time, the count does not depend on what else the machine runs. When
/// `SKILLGRAPH_CALLGRIND_DIR` names a folder, the profiles are written there (for
/// `callgrind_annotate`) and kept.
fn instructions_per_edit(skills: usize, agents: usize) -> f64 {
    let kept = std::env::var_os("SKILLGRAPH_CALLGRIND_DIR").map(std::path::PathBuf::from);
    let scratch = tempfile::tempdir().unwrap();
    let out_dir = kept.clone().unwrap_or_else(|| scratch.path().to_owned());
    std::fs::create_dir_all(&out_dir).unwrap();
    let prefix = format!("callgrind.{skills}");
    let mut command = std::process::Command::new("valgrind");
    command
        .args([
            "--tool=callgrind",
            "--instr-atstart=no",
            "--separate-threads=yes",
            "--quiet",
        ])
        .arg(format!(
            "--callgrind-out-file={}",
            out_dir.join(format!("{prefix}.out")).display()
        ))
        .arg(env!("CARGO_BIN_EXE_skillgraph"))
        .arg("lsp");
    let mut session = Session::start(skills, agents, command);
    for _ in 0..4 {
        session.keystroke();
    }
    let pid = session.client.pid().to_string();
    let control = |switch: &str| {
        let status = std::process::Command::new("callgrind_control")
            .args(["-i", switch, &pid])
            .stdout(std::process::Stdio::null())
            .status()
            .expect("run callgrind_control");
        assert!(status.success(), "callgrind_control -i {switch} failed");
    };
    control("on");
    for _ in 0..COUNTED_EDITS {
        session.keystroke();
    }
    control("off");
    assert!(session.client.shutdown().success());
    // One profile per thread: `<prefix>.out-01`, `-02`, …, each with a `totals:` (or
    // `summary:`) line of the instructions it counted.
    let mut total = 0u64;
    for entry in std::fs::read_dir(&out_dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !name.starts_with(&format!("{prefix}.out")) {
            continue;
        }
        let profile = std::fs::read_to_string(&path).unwrap();
        let count = profile
            .lines()
            .find_map(|l| l.strip_prefix("totals:"))
            .or_else(|| profile.lines().find_map(|l| l.strip_prefix("summary:")))
            .and_then(|v| v.split_whitespace().next()?.parse::<u64>().ok())
            .unwrap_or(0);
        total += count;
    }
    if let Some(kept) = kept {
        eprintln!("callgrind profiles kept in {}", kept.display());
    }
    total as f64 / COUNTED_EDITS as f64
}

/// Starts the server with `command` on the workspace at `root`, as an editor does, and waits for
/// the end of the indexing progress; the client and the time from `initialize` sent to that end.
fn start_until_ready(command: std::process::Command, root: &Path) -> (Client, Duration) {
    // The reader thread stamps each message as it arrives and answers the server's own
    // requests (progress tokens, registrations); quiet, it keeps no history of the thousands
    // of diagnostics a large workspace publishes.
    let mut client = Client::spawn_command(command, true)
        .with_timeout(TIMEOUT)
        .quiet();
    let root_uri = uri(root);
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
    (client, ended - start)
}

/// `-- --ready`: the server's time to ready on a workspace against the floor of merely reading
/// its files (`find DIR -type f -print0 | xargs -0 cat > /dev/null`) and against `check`, in
/// one run: the page cache is warmed by one of each first, then the three alternate, `ROUNDS`
/// times, and the medians are compared.
fn ready_against_the_floor(skills: usize, agents: usize) {
    const ROUNDS: usize = 9;
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    workspace::generate(&root, skills, agents);
    let binary = env!("CARGO_BIN_EXE_skillgraph");
    let timed = |mut command: std::process::Command| {
        let start = Instant::now();
        let status = command
            .stdout(std::process::Stdio::null())
            .status()
            .expect("run");
        // `check` exits 1 when it reports errors; only a crash would make the figure wrong.
        assert!(
            status.code().is_some_and(|c| c <= 1),
            "{command:?}: {status}"
        );
        start.elapsed()
    };
    let floor = || {
        let mut command = std::process::Command::new("sh");
        command
            .arg("-c")
            .arg("find \"$1\" -type f -print0 | xargs -0 cat > /dev/null")
            .arg("sh")
            .arg(&root);
        timed(command)
    };
    let check = || {
        let mut command = std::process::Command::new(binary);
        command.arg("check").arg(&root).args(["--format", "json"]);
        timed(command)
    };
    let ready = || {
        let mut command = std::process::Command::new(binary);
        command.arg("lsp");
        let (client, took) = start_until_ready(command, &root);
        drop(client);
        took
    };
    let (_, _, _) = (floor(), check(), ready());
    let (mut floors, mut checks, mut readies) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..ROUNDS {
        floors.push(floor());
        checks.push(check());
        readies.push(ready());
    }
    let (floor, check, ready) = (median(floors), median(checks), median(readies));
    let ms = |d: Duration| format!("{:.0} ms", d.as_secs_f64() * 1000.0);
    let of_floor = |d: Duration| format!("{:.2}x", d.as_secs_f64() / floor.as_secs_f64());
    println!("{skills} skills / {agents} agents, medians of {ROUNDS} alternated rounds after one warm-up\n");
    println!("| measure | time | against the floor |");
    println!("|---|---|---|");
    println!("| read every file (`find DIR -type f -print0 \\| xargs -0 cat > /dev/null`) | {} | 1.00x |", ms(floor));
    println!(
        "| `skillgraph check DIR --format json` | {} | {} |",
        ms(check),
        of_floor(check)
    );
    println!(
        "| `skillgraph lsp`: `initialize` → end of the indexing progress | {} | {} |",
        ms(ready),
        of_floor(ready)
    );
}

fn main() {
    // `cargo bench` passes `--bench`; `-- --instructions` counts instructions instead of timing.
    if std::env::args().any(|a| a == "--ready") {
        ready_against_the_floor(10_000, 500);
        return;
    }
    if std::env::args().any(|a| a == "--instructions") {
        let small = instructions_per_edit(100, 50);
        let large = instructions_per_edit(10_000, 500);
        println!("skillgraph lsp under callgrind, instructions per keystroke (mean of {COUNTED_EDITS}, all threads)\n");
        println!("| 100 skills / 50 agents | 10,000 skills / 500 agents | ratio |");
        println!("|------------------------|----------------------------|-------|");
        println!(
            "| {:>22} | {:>26} | {:>4.2}x |",
            format!("{:.2} M", small / 1e6),
            format!("{:.2} M", large / 1e6),
            large / small
        );
        return;
    }
    // The same 50 agents per topology in both: the edited file is the same size, so the ratio
    // shows what the workspace's size costs.
    let small = measure(100, 50);
    let large = measure(10_000, 500);
    let ms = |d: Duration| format!("{:.2} ms", d.as_secs_f64() * 1000.0);
    let ratio = |a: Duration, b: Duration| format!("{:.2}x", b.as_secs_f64() / a.as_secs_f64());
    // A row of one duration: both sizes' and how much the large one costs more.
    let timed = |name, figure: fn(&Figures) -> Duration| {
        let (a, b) = (figure(&small), figure(&large));
        (name, ms(a), ms(b), ratio(a, b))
    };
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
        timed("initial index (initialize → end)", |f| f.initial_index),
        timed("didChange → publishDiagnostics", |f| f.change_to_publish),
        timed("  typing half (unknown skill)", |f| f.typo_to_publish),
        timed("  fixing half (resolved)", |f| f.fix_to_publish),
        timed("  server CPU time per edit (mean)", |f| f.cpu_per_edit),
        (
            "  minor page faults per edit",
            format!("{:.1}", small.faults_per_edit),
            format!("{:.1}", large.faults_per_edit),
            format!(
                "{:.2}x",
                large.faults_per_edit / small.faults_per_edit.max(0.1)
            ),
        ),
        timed("hover", |f| f.hover),
        timed("definition", |f| f.definition),
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
