//! Parity with `swarmkit validate`: small workspaces (mutants of hello-swarm) with the set of
//! (file, code) pairs SwarmKit reported for them, saved in `fixtures/parity/<name>/`. Only
//! SwarmKit's own codes are compared; codes of our own are left out.
//!
//! Mutants where we knowingly differ are `#[ignore]`d with the reason, so the difference stays
//! visible (`cargo test --test parity -- --ignored`) without turning CI red.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use skillgraph::check::check_changes;
use skillgraph::index::Change;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/parity");

/// Codes SwarmKit also reports (SPEC §3): the only ones parity is measured on.
const SWARMKIT_CODES: &[&str] = &[
    "workspace.yaml-parse",
    "workspace.kind-mismatch",
    "workspace.deep-nesting",
    "workspace.malformed",
    "skill.duplicate-id",
    "archetype.duplicate-id",
    "topology.duplicate-id",
    "trigger.duplicate-id",
    "skill.composed-unknown",
    "skill.composed-cycle",
    "archetype.unknown-skill",
    "agent.duplicate-id",
    "agent.bad-role",
    "agent.unknown-archetype",
    "agent.unknown-skill",
    "agent.unknown-funnel",
    "trigger.unknown-target",
    "agent.bad-skill-entry",
    "agent.unknown-bulk-grant",
    "agent.abstract-no-match",
    "agent.abstract-ambiguous",
    "agent.depends-on-self",
    "agent.depends-on-unknown",
    "agent.depends-on-cycle",
    "agent.bad-requires",
    "agent.requires-unknown-skill",
    "agent.requires-cycle",
];

type Pairs = BTreeSet<(String, String)>;

fn read_tree(dir: &Path, out: &mut Vec<Change>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            read_tree(&path, out);
        } else {
            let bytes = std::fs::read(&path).expect("readable fixture");
            out.push(Change::Set {
                path: path.clone(),
                text: skillgraph::syntax::decode(&bytes).text,
            });
        }
    }
}

/// Our (file, code) pairs for the mutant's workspace, SwarmKit codes only.
fn ours(name: &str) -> Pairs {
    let ws = Path::new(FIXTURES).join(name).join("ws");
    let mut changes = Vec::new();
    read_tree(&ws, &mut changes);
    let outcome = check_changes(changes, ws.clone());
    outcome
        .diagnostics
        .iter()
        .filter(|d| SWARMKIT_CODES.contains(&d.code))
        .map(|d| {
            let path = &outcome.index.file(d.file).expect("known file").path;
            let relative = path.strip_prefix(&ws).expect("inside the workspace");
            (
                relative.to_string_lossy().replace('\\', "/"),
                d.code.to_owned(),
            )
        })
        .collect()
}

/// SwarmKit's (file, code) pairs, as saved from `swarmkit validate --json`.
fn theirs(name: &str) -> Pairs {
    let path = Path::new(FIXTURES).join(name).join("expected.json");
    let text = std::fs::read_to_string(&path).expect("expected.json");
    let json: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    json["expected"]
        .as_array()
        .expect("`expected` is a list")
        .iter()
        .map(|pair| {
            let file = pair[0].as_str().expect("file").to_owned();
            let code = pair[1].as_str().expect("code").to_owned();
            (file, code)
        })
        .filter(|(_, code)| SWARMKIT_CODES.contains(&code.as_str()))
        .collect()
}

#[track_caller]
fn assert_parity(name: &str) {
    let (ours, theirs) = (ours(name), theirs(name));
    let only_ours: Vec<_> = ours.difference(&theirs).collect();
    let only_theirs: Vec<_> = theirs.difference(&ours).collect();
    assert!(
        only_ours.is_empty() && only_theirs.is_empty(),
        "{name}: (file, code) pairs differ from swarmkit validate\n  only ours:   {only_ours:?}\n  only theirs: {only_theirs:?}"
    );
}

macro_rules! parity {
    ($($test:ident => $name:literal),* $(,)?) => {
        $(
            #[test]
            fn $test() {
                assert_parity($name);
            }
        )*
    };
}

parity! {
    unknown_skill => "agent.unknown-skill",
    archetype_unknown_skill => "archetype.unknown-skill",
    requires_cycle => "agent.requires-cycle",
    unknown_archetype_skills_still_checked => "agent.unknown-archetype--skills-still-checked",
    depends_on_two_cycles => "agent.depends-on-cycle--two-cycles",
    trigger_unknown_target => "trigger.unknown-target",
}

#[test]
fn every_parity_fixture_has_a_test() {
    let mut names: Vec<String> = std::fs::read_dir(FIXTURES)
        .expect("fixtures/parity")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let source = include_str!("parity.rs");
    for name in names {
        assert!(
            source.contains(&format!("\"{name}\"")),
            "fixtures/parity/{name} has no test"
        );
    }
}

// Known differences. Each asserts full parity and is ignored with the reason.

#[test]
#[ignore = "parity: SwarmKit also reports agent.depends-on-cycle (w1 -> w1) for a self-dependency; we report only agent.depends-on-self"]
fn depends_on_self() {
    assert_parity("agent.depends-on-self");
}

#[test]
#[ignore = "parity: SwarmKit allows one topology name with different metadata.version (name@version); we report topology.duplicate-id on both files"]
fn topology_same_name_other_version() {
    assert_parity("topology.duplicate-id--versions-ok");
}

#[test]
#[ignore = "parity: SwarmKit reports a bad bulk grant in an archetype only on the inheriting agent; we also report it on the archetype (as agent.unknown-bulk-grant)"]
fn unknown_bulk_grant_in_archetype() {
    assert_parity("agent.unknown-bulk-grant--archetype");
}

#[test]
#[ignore = "parity (by SPEC choice): SwarmKit reports skill.composed-cycle on every member; SPEC says once per cycle (the engine is being changed to every member; then this passes)"]
fn composed_cycle() {
    assert_parity("skill.composed-cycle");
}

#[test]
#[ignore = "parity: SwarmKit synthesizes skills (topology-<name>, bundled memory skills, command-pack commands) that resolve as ids; we do not know them"]
fn synthesized_skills() {
    assert_parity("agent.unknown-skill--synthesized-ok");
}
