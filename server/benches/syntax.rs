//! `cargo bench -p skillgraph --bench syntax`: the YAML layer's and the positions' worst cases,
//! each through the whole `check` (discover, read, parse, lower, rules, the per-file cap):
//! a flow list of 200,000 grants on one line, an alias depth bomb (anchors chained through
//! complex keys), a wide alias bomb (one anchor of 111,111 nodes used 600 times, 2.9 KB) and a
//! mapping of 100,000 keys. Medians of several runs; a bench binary, never a timed test.

use std::fmt::Write as _;
use std::path::Path;
use std::time::{Duration, Instant};

const WORKSPACE: &str = "apiVersion: swarmkit/v1\nkind: Workspace\nmetadata:\n  id: ws\n  name: Bench\n  description: Worst cases of the syntax layer.\nmcp_servers:\n  - id: tools\n    transport: stdio\n    command: [x]\n";

fn skill(id: &str) -> String {
    format!("apiVersion: swarmkit/v1\nkind: Skill\nmetadata:\n  id: {id}\n  name: {id}\n  description: A skill of the syntax bench.\ncategory: capability\nimplementation:\n  type: mcp_tool\n  server: tools\n  tool: {id}\nprovenance:\n  authored_by: human\n  version: 1.0.0\n")
}

fn topology(skills: &str) -> String {
    format!("apiVersion: swarmkit/v1\nkind: Topology\nmetadata:\n  name: t\n  version: 1.0.0\nagents:\n  root:\n    id: root\n    role: root\n    model:\n      provider: anthropic\n      name: m\n    prompt:\n      system: s\n    skills: {skills}\n")
}

fn write(root: &Path, files: &[(&str, String)]) {
    std::fs::write(root.join("workspace.yaml"), WORKSPACE).unwrap();
    for (path, text) in files {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}

fn flow_list(n: usize) -> Vec<(&'static str, String)> {
    let mut list = String::from("[");
    for i in 0..n {
        let _ = write!(list, "{}u{i}", if i == 0 { "" } else { ", " });
    }
    list.push(']');
    vec![
        ("skills/a.yaml", skill("a")),
        ("topologies/t.yaml", topology(&list)),
    ]
}

fn alias_depth(links: usize) -> Vec<(&'static str, String)> {
    let mut text = skill("d") + "inputs:\n  ? &a1 [x]\n  : v\n";
    for i in 2..=links {
        let _ = write!(text, "  ? &a{i} [*a{}]\n  : v\n", i - 1);
    }
    let _ = writeln!(text, "  x: *a{links}");
    vec![("skills/d.yaml", text)]
}

fn wide_bomb() -> Vec<(&'static str, String)> {
    let mut text = skill("w") + "inputs:\n  a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
    for i in 1..5 {
        let refs = vec![format!("*a{}", i - 1); 10].join(", ");
        let _ = writeln!(text, "  a{i}: &a{i} [{refs}]");
    }
    let _ = writeln!(text, "  uses: [{}]", vec!["*a4"; 600].join(","));
    vec![("skills/w.yaml", text)]
}

fn many_keys(n: usize) -> Vec<(&'static str, String)> {
    let mut text = skill("k") + "inputs:\n";
    for i in 0..n {
        let _ = writeln!(text, "  k{i}: {i}");
    }
    vec![("skills/k.yaml", text)]
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn time_check(name: &str, files: Vec<(&'static str, String)>, runs: usize) {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), &files);
    let bytes: usize = files.iter().map(|(_, t)| t.len()).sum();
    let roots = vec![dir.path().to_owned()];
    let mut samples = Vec::new();
    let mut codes = Vec::new();
    for _ in 0..runs {
        let start = Instant::now();
        let outcome = skillgraph::check::run_check(&roots).unwrap();
        samples.push(start.elapsed());
        codes = outcome.diagnostics.iter().map(|d| d.code.name()).collect();
    }
    codes.sort();
    codes.dedup();
    println!(
        "{name:<44} {:>9} bytes  median {:?} over {runs} runs  codes {codes:?}",
        bytes,
        median(samples)
    );
}

fn main() {
    let runs = 5;
    time_check(
        "check, flow list of 200,000 grants",
        flow_list(200_000),
        runs,
    );
    time_check("check, flow list of 50,000 grants", flow_list(50_000), runs);
    time_check(
        "check, alias depth bomb (15,000 links)",
        alias_depth(15_000),
        runs,
    );
    time_check("check, wide alias bomb (2.9 KB)", wide_bomb(), runs);
    time_check("check, mapping of 100,000 keys", many_keys(100_000), runs);
}
