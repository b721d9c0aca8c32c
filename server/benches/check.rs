//! `cargo bench -p skillgraph --bench check`: the whole `check` (discover, read, parse, index,
//! every rule) on generated SwarmKit workspaces of 100, 10,000 and 50,000 skills, median of several runs.
//! A bench binary rather than a timed test: these machines are shared and noisy, so we quote
//! medians and the ratio between sizes, never assert a time.

#[path = "common/workspace.rs"]
mod workspace;

use std::time::{Duration, Instant};

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn measure(skills: usize, agents: usize, runs: usize) -> (Duration, usize) {
    let dir = tempfile::tempdir().unwrap();
    workspace::generate(dir.path(), skills, agents);
    time_check(dir.path(), runs)
}

fn measure_skill_md(skills: usize, runs: usize) -> (Duration, usize) {
    let dir = tempfile::tempdir().unwrap();
    workspace::generate_skill_md(dir.path(), skills);
    time_check(dir.path(), runs)
}

fn time_check(root: &std::path::Path, runs: usize) -> (Duration, usize) {
    let roots = vec![root.to_owned()];
    let mut samples = Vec::new();
    let mut diagnostics = 0;
    for _ in 0..runs {
        let start = Instant::now();
        let outcome = skillgraph::check::run_check(&roots).unwrap();
        samples.push(start.elapsed());
        diagnostics = outcome.diagnostics.len();
    }
    (median(samples), diagnostics)
}

/// `SKILLGRAPH_BENCH_WRITE=DIR cargo bench -p skillgraph --bench check` writes the generated
/// workspaces (`DIR/10000`, `DIR/50000`, `DIR/skill-md-5000`) and stops, so the `skillgraph`
/// binary itself can be timed on them (BENCHMARKS.md gives the commands).
fn write_workspaces(dir: &std::path::Path) {
    workspace::generate(&dir.join("10000"), 10_000, 500);
    workspace::generate(&dir.join("50000"), 50_000, 2_500);
    workspace::generate_skill_md(&dir.join("skill-md-5000"), 5_000);
    println!("wrote {}/{{10000,50000,skill-md-5000}}", dir.display());
}

fn main() {
    // `cargo bench` passes `--bench`; nothing else to parse.
    if let Some(dir) = std::env::var_os("SKILLGRAPH_BENCH_WRITE") {
        write_workspaces(std::path::Path::new(&dir));
        return;
    }
    let runs = 7;
    let (small, small_diags) = measure(100, 5, runs);
    let (large, large_diags) = measure(10_000, 500, runs);
    println!("check, 100 skills / 5 agents:        median {small:?} over {runs} runs ({small_diags} diagnostics)");
    println!("check, 10,000 skills / 500 agents:   median {large:?} over {runs} runs ({large_diags} diagnostics)");
    let (huge, huge_diags) = measure(50_000, 2_500, 3);
    println!("check, 50,000 skills / 2,500 agents: median {huge:?} over 3 runs ({huge_diags} diagnostics)");
    println!(
        "ratio 50,000 : 10,000 skills: {:.2}",
        huge.as_secs_f64() / large.as_secs_f64()
    );
    let (md_small, md_small_diags) = measure_skill_md(100, runs);
    let (md_large, md_large_diags) = measure_skill_md(5_000, runs);
    println!("check, 100 SKILL.md skills:          median {md_small:?} over {runs} runs ({md_small_diags} diagnostics)");
    println!("check, 5,000 SKILL.md skills:        median {md_large:?} over {runs} runs ({md_large_diags} diagnostics)");
}
