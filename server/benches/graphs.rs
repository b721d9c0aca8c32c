//! `cargo bench -p skillgraph --bench graphs`: the graph shapes of `tests/graph_shapes.rs` at
//! 20,000 nodes (chains, loops, ladders) for `depends_on`, `requires`, composed skills and
//! SKILL.md chains, each through the whole in-process `check`, median of 3 runs. Prints how many
//! cycle diagnostics each shape produced: every cycle must be reported once (once per member
//! file for composed skills, as the runtime refuses each), whatever hides it.

#[path = "../tests/support/mod.rs"]
mod support;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use skillgraph::index::Change;
use support::{changes, composed_skill, mcp_skill, team, with_baseline};

const N: usize = 20_000;

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn time(name: &str, input: Vec<Change>, codes: &[&str]) {
    let mut samples = Vec::new();
    let mut counts = vec![0; codes.len()];
    let mut total = 0;
    for _ in 0..3 {
        let start = Instant::now();
        let outcome = skillgraph::check::check_changes(input.clone(), PathBuf::from("/"));
        samples.push(start.elapsed());
        total = outcome.diagnostics.len();
        for (count, code) in counts.iter_mut().zip(codes) {
            *count = outcome
                .diagnostics
                .iter()
                .filter(|d| d.code == *code)
                .count();
        }
    }
    let found: Vec<String> = codes
        .iter()
        .zip(&counts)
        .map(|(code, n)| format!("{code} ×{n}"))
        .collect();
    println!(
        "{name:<44} median {:>9.1?}  ({total} diagnostics: {})",
        median(samples),
        found.join(", ")
    );
}

/// Children of the root agent with their `depends_on`.
fn agents(children: &[(String, Vec<String>)]) -> Vec<Change> {
    let mut block =
        String::from("root:\n  id: root\n  role: root\n  skills: [store]\n  children:\n");
    for (id, depends_on) in children {
        block.push_str(&format!(
            "    - id: {id}\n      role: worker\n      depends_on: [{}]\n",
            depends_on.join(", ")
        ));
    }
    changes(&with_baseline(&team(&block)))
}

/// The root agent holding an mcp_tool skill for each guarded id of `rules`, which are its
/// `requires:` block.
fn requiring(rules: &[(String, Vec<String>)]) -> Vec<Change> {
    let mut fixture: String = rules.iter().map(|(id, _)| mcp_skill(id, "tools")).collect();
    let mut block = String::from(
        "root:\n  id: root\n  role: root\n  skills: [store, server:tools]\n  requires:\n",
    );
    for (guarded, prerequisites) in rules {
        block.push_str(&format!("    {guarded}: [{}]\n", prerequisites.join(", ")));
    }
    fixture.push_str(&team(&block));
    changes(&with_baseline(&fixture))
}

/// SKILL.md files `/r/s/<name>/SKILL.md`, each chaining the names given.
fn chained(chains: &[(String, Vec<String>)]) -> Vec<Change> {
    chains
        .iter()
        .map(|(name, calls)| Change::Set {
            path: PathBuf::from(format!("/r/s/{name}/SKILL.md")),
            text: format!(
                "---\nname: {name}\ndescription: Does {name}.\nmetadata:\n  chain: [{}]\n---\n# {name}\n",
                calls.join(", ")
            ),
        })
        .collect()
}

/// `a0 → a1 → … → a(n-1)`, the last pointing back at the one before it.
fn chain_into_loop(prefix: &str, n: usize) -> Vec<(String, Vec<String>)> {
    let mut links: Vec<(String, Vec<String>)> = (0..n - 1)
        .map(|i| (format!("{prefix}{i}"), vec![format!("{prefix}{}", i + 1)]))
        .collect();
    links.push((
        format!("{prefix}{}", n - 1),
        vec![format!("{prefix}{}", n - 2)],
    ));
    links
}

/// One loop through all n.
fn one_loop(prefix: &str, n: usize) -> Vec<(String, Vec<String>)> {
    (0..n)
        .map(|i| {
            (
                format!("{prefix}{i}"),
                vec![format!("{prefix}{}", (i + 1) % n)],
            )
        })
        .collect()
}

/// Layers of two, each pointing at both of the next layer (2^(n/2) paths), the last layer at a
/// two-node loop.
fn ladder_into_loop(prefix: &str, n: usize) -> Vec<(String, Vec<String>)> {
    let layers = (n - 2) / 2;
    let name = |side: &str, layer: usize| format!("{prefix}{side}{layer}");
    let mut links = Vec::new();
    for layer in 0..layers {
        let next = if layer + 1 < layers {
            vec![name("a", layer + 1), name("b", layer + 1)]
        } else {
            vec![format!("{prefix}loop0")]
        };
        links.push((name("a", layer), next.clone()));
        links.push((name("b", layer), next));
    }
    links.push((format!("{prefix}loop0"), vec![format!("{prefix}loop1")]));
    links.push((format!("{prefix}loop1"), vec![format!("{prefix}loop0")]));
    links
}

fn composed(links: &[(String, Vec<String>)]) -> Vec<Change> {
    let fixture: String = links
        .iter()
        .map(|(id, parts)| {
            let parts: Vec<&str> = parts.iter().map(String::as_str).collect();
            composed_skill(id, &parts)
        })
        .collect();
    changes(&with_baseline(&fixture))
}

fn main() {
    println!("{N} nodes per shape");
    let depends = ["agent.depends-on-cycle"];
    time(
        "depends_on: chain into a loop",
        agents(&chain_into_loop("a", N)),
        &depends,
    );
    time("depends_on: one loop", agents(&one_loop("a", N)), &depends);
    time(
        "depends_on: ladder into a loop",
        agents(&ladder_into_loop("a", N)),
        &depends,
    );

    let requires = ["agent.requires-cycle"];
    time(
        "requires: chain into a loop",
        requiring(&chain_into_loop("s", N)),
        &requires,
    );
    time(
        "requires: one loop",
        requiring(&one_loop("s", N)),
        &requires,
    );
    time(
        "requires: ladder into a loop",
        requiring(&ladder_into_loop("s", N)),
        &requires,
    );

    let composes = ["skill.composed-cycle"];
    time(
        "composes: chain into a loop",
        composed(&chain_into_loop("c", N)),
        &composes,
    );
    time("composes: one loop", composed(&one_loop("c", N)), &composes);
    time(
        "composes: ladder into a loop",
        composed(&ladder_into_loop("c", N)),
        &composes,
    );

    let chains = ["skillmd.chain-cycle"];
    time(
        "SKILL.md chains: chain into a loop",
        chained(&chain_into_loop("k", N)),
        &chains,
    );
    time(
        "SKILL.md chains: one loop",
        chained(&one_loop("k", N)),
        &chains,
    );
    time(
        "SKILL.md chains: ladder into a loop",
        chained(&ladder_into_loop("k", N)),
        &chains,
    );
}
