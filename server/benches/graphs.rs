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
use support::{changes, composed_skill, mcp_skill, team, team_depending, with_baseline};

const N: usize = 20_000;

/// A shape: each node as `(id, the ids it points at)`.
type Links = Vec<(String, Vec<String>)>;

/// The workspace whose edges of one kind are the links given.
type Workspace = fn(&[(String, Vec<String>)]) -> Vec<Change>;

/// A shape of `n` nodes whose names start with the prefix given.
type Shape = fn(&str, usize) -> Links;

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
    changes(&with_baseline(&team_depending(children)))
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
            )
            .into(),
        })
        .collect()
}

/// `a0 → a1 → … → a(n-1)`, the last pointing back at the one before it.
fn chain_into_loop(prefix: &str, n: usize) -> Links {
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
fn one_loop(prefix: &str, n: usize) -> Links {
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
fn ladder_into_loop(prefix: &str, n: usize) -> Links {
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
    // Each kind of edge: its workspace builder, the prefix of its node names, the cycle code.
    let kinds: [(&str, Workspace, &str, &str); 4] = [
        ("depends_on", agents, "a", "agent.depends-on-cycle"),
        ("requires", requiring, "s", "agent.requires-cycle"),
        ("composes", composed, "c", "skill.composed-cycle"),
        ("SKILL.md chains", chained, "k", "skillmd.chain-cycle"),
    ];
    let shapes: [(&str, Shape); 3] = [
        ("chain into a loop", chain_into_loop),
        ("one loop", one_loop),
        ("ladder into a loop", ladder_into_loop),
    ];
    for (kind, workspace, prefix, code) in kinds {
        for (shape, links) in shapes {
            time(
                &format!("{kind}: {shape}"),
                workspace(&links(prefix, N)),
                &[code],
            );
        }
    }
}
