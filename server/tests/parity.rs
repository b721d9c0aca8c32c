//! Parity with `swarmkit validate`: small workspaces (mutants of hello-swarm) with the set of
//! (file, code) pairs SwarmKit reported for them, saved in `fixtures/parity/<name>/`. Only
//! SwarmKit's own codes are compared; codes of our own are left out.
//!
//! Mutants where we knowingly differ are `#[ignore]`d with the reason, so the difference stays
//! visible (`cargo test --test parity -- --ignored`) without turning CI red. The Python
//! script that made the fixtures kept only the YAML files of each mutant's workspace and the
//! (file, code) pairs of `swarmkit validate --json` (`expected.json`).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

#[path = "support/tree.rs"]
mod tree;

use skillgraph::check::check_changes;
use skillgraph::diagnostic::Diagnostic;
use skillgraph::index::{Change, Index};
use tree::{files_below, read_changes};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/parity");

/// Codes SwarmKit also reports (SPEC §3): the only ones parity is measured on.
const SWARMKIT_CODES: &[&str] = &[
    "workspace.missing-workspace-yaml",
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
    // Reported by SwarmKit too, beyond the list of SPEC §3.
    "role.duplicate-id",
    "funnel.duplicate-id",
    "contract.duplicate-id",
    "agent.output-schema",
    "skill.runtime-too-old",
    "command-pack.id-collision",
    "workspace-pack.id-collision",
    "memory.disabled-but-bound",
    "archetype.executor-invalid",
    "skill.model-construction",
    "archetype.model-construction",
    "topology.model-construction",
    "trigger.model-construction",
    "funnel.model-construction",
    "contract.model-construction",
];

type Pairs = BTreeSet<(String, String)>;

/// The mutant's workspace, read from the disk.
fn workspace(name: &str) -> (PathBuf, Vec<Change>) {
    let ws = Path::new(FIXTURES).join(name).join("ws");
    let changes = read_changes(files_below(&ws, |_| false));
    (ws, changes)
}

/// (file relative to `ws`, code) of each diagnostic `keep` accepts.
fn pairs<'a>(
    ws: &Path,
    index: &Index,
    diagnostics: impl IntoIterator<Item = &'a Diagnostic>,
    keep: impl Fn(&str) -> bool,
) -> Pairs {
    diagnostics
        .into_iter()
        .filter(|d| keep(d.code.name()))
        .map(|d| {
            let path = &index.file(d.file).expect("known file").path;
            let relative = path.strip_prefix(ws).expect("inside the workspace");
            (
                relative.to_string_lossy().replace('\\', "/"),
                d.code.name().to_owned(),
            )
        })
        .collect()
}

/// The (file, code) pairs of a list in `expected.json`.
fn listed_pairs(list: &serde_json::Value, what: &str) -> Pairs {
    list.as_array()
        .unwrap_or_else(|| panic!("`{what}` is a list"))
        .iter()
        .map(|pair| {
            let file = pair[0].as_str().expect("file").to_owned();
            let code = pair[1].as_str().expect("code").to_owned();
            (file, code)
        })
        .collect()
}

/// Our (file, code) pairs for the mutant's workspace, SwarmKit codes only.
fn ours(name: &str) -> Pairs {
    let (ws, changes) = workspace(name);
    let outcome = check_changes(changes, ws.clone());
    pairs(&ws, &outcome.index, &outcome.diagnostics, |code| {
        SWARMKIT_CODES.contains(&code)
    })
}

/// SwarmKit's (file, code) pairs, as saved from `swarmkit validate --json`.
fn theirs(name: &str) -> Pairs {
    let path = Path::new(FIXTURES).join(name).join("expected.json");
    let text = std::fs::read_to_string(&path).expect("expected.json");
    let json: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    listed_pairs(&json["expected"], "expected")
        .into_iter()
        .filter(|(_, code)| SWARMKIT_CODES.contains(&code.as_str()))
        .collect()
}

/// Codes of our own a fixture expects (`"ours"` in `expected.json`: what `swarmkit validate`
/// accepts but the runtime refuses or mishandles later), as (file, code) pairs. Compared on the
/// codes it names only.
fn our_own_expected(name: &str) -> Option<Pairs> {
    let path = Path::new(FIXTURES).join(name).join("expected.json");
    let text = std::fs::read_to_string(&path).expect("expected.json");
    let json: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    Some(listed_pairs(json.get("ours")?, "ours"))
}

/// Our (file, code) pairs for the mutant's workspace, for the codes in `codes`.
fn ours_for(name: &str, codes: &BTreeSet<&str>) -> Pairs {
    let (ws, changes) = workspace(name);
    let mut outcome = check_changes(changes, ws.clone());
    // The binaries command packs require, looked up on an empty PATH: none is found, whatever
    // the machine running the test has.
    let binaries = skillgraph::probe::required_binaries(&outcome.index);
    let executables = skillgraph::probe::executables(&binaries, None, false);
    let settings = skillgraph::index::Settings {
        executables: std::sync::Arc::new(executables),
        ..outcome.index.settings.clone()
    };
    outcome.index.set_settings(settings);
    let files: Vec<_> = outcome.index.files().map(|f| f.id).collect();
    let diagnostics: Vec<_> = files
        .into_iter()
        .flat_map(|id| outcome.index.diagnostics(id))
        .collect();
    pairs(&ws, &outcome.index, &diagnostics, |code| {
        codes.contains(code)
    })
}

#[track_caller]
fn assert_parity(name: &str) {
    if let Some(expected) = our_own_expected(name) {
        let codes: BTreeSet<&str> = expected.iter().map(|(_, c)| c.as_str()).collect();
        let found = ours_for(name, &codes);
        assert_eq!(
            found, expected,
            "{name}: our own codes differ from what the fixture expects"
        );
    }
    let (ours, theirs) = (ours(name), theirs(name));
    // SwarmKit names only the later definitions of a duplicated id; we name every file that
    // defines it (SPEC §3 allows either), so an extra `*.duplicate-id` on a file of the same
    // clash is not a difference.
    // SwarmKit names the workspace folder itself for a problem of the folder (`.` in the
    // fixture: `workspace.missing-workspace-yaml`); we put it on one file of the folder.
    let about_the_folder = |code: &str| theirs.contains(&(".".to_owned(), code.to_owned()));
    let only_ours: Vec<_> = ours
        .difference(&theirs)
        .filter(|(_, code)| {
            !(code.ends_with(".duplicate-id") && theirs.iter().any(|(_, c)| c == code))
        })
        .filter(|(_, code)| !about_the_folder(code))
        .collect();
    let only_theirs: Vec<_> = theirs
        .difference(&ours)
        .filter(|(file, code)| !(file == "." && ours.iter().any(|(_, c)| c == code)))
        .collect();
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
    trailing_newline_model_construction => "trailing-newline--model-construction",
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

// Mutants that differed before the parity fixes (d874a58, 562afae): a self-dependency is also
// a cycle, topologies clash only on equal versions, archetype grant problems are reported on
// inheriting agents only, composed cycles on every member, made-up skills resolve.
parity! {
    depends_on_self => "agent.depends-on-self",
    topology_same_name_other_version => "topology.duplicate-id--versions-ok",
    unknown_bulk_grant_in_archetype => "agent.unknown-bulk-grant--archetype",
    composed_cycle => "skill.composed-cycle",
    synthesized_skills => "agent.unknown-skill--synthesized-ok",
}

parity! {
    depends_on_unknown => "agent.depends-on-unknown",
    duplicate_agent_id => "agent.duplicate-id",
    unknown_funnel => "agent.unknown-funnel",
    unknown_bulk_grant => "agent.unknown-bulk-grant",
    abstract_ambiguous_with_made_up_skills => "agent.abstract-ambiguous",
    abstract_no_match => "agent.abstract-no-match",
    abstract_match_one => "agent.abstract-match-one",
    pack_workspace_and_read_only_pack_grants => "agent.bulk-grant--pack-workspace",
    pack_of_write_commands_grants_nothing => "agent.bulk-grant--pack-write-only-empty",
    composed_cycle_of_one => "skill.composed-cycle--self",
    composed_unknown => "skill.composed-unknown",
    trigger_in_schedules_dir => "trigger.unknown-target--schedules-dir",
    depends_on_of_a_shadowed_duplicate_agent => "agent.depends-on--duplicate-id-shadow",
}

#[test]
fn composed_unknown_cascade() {
    assert_parity("skill.composed-unknown--cascade");
}

#[test]
fn hidden_file_too_deep() {
    assert_parity("workspace.deep-nesting--hidden-deep-file");
}

#[test]
fn missing_kind() {
    assert_parity("workspace.kind-mismatch--missing-kind");
}

// SwarmKit codes beyond SPEC §3's list: ids of other kinds, output schemas, the runtime floor,
// the made-up skills' collisions, memory bindings, executor kinds.
parity! {
    role_duplicate_across_registries => "role.duplicate-id",
    role_duplicate_in_one_registry => "role.duplicate-id--same-file",
    output_schema_missing_file_and_bad_inline => "agent.output-schema",
    output_schema_inherited_and_opted_out => "agent.output-schema--from-archetype",
    output_schema_url_escape_and_archetype_relative => "agent.output-schema--variants",
    runtime_floor_too_new => "skill.runtime-too-old",
    pack_command_collides_with_a_skill => "command-pack.id-collision",
    topology_skill_collides_with_a_skill => "workspace-pack.id-collision",
    memory_off_but_bound => "memory.disabled-but-bound",
    unknown_executor_kind => "archetype.executor-invalid",
    duplicate_funnel => "funnel.duplicate-id",
    duplicate_contract => "contract.duplicate-id",
}

// Reading a file as the runtime does: a repeated key keeps its last value (PyYAML).
parity! {
    duplicate_keys_keep_the_last_value => "yaml.duplicate-key--last-wins",
}

// `${…}` substituted before any check: properties, environment, defaults.
parity! {
    interpolation_from_every_source => "interpolation--every-source",
}

// The bundled memory skills are `llm_prompt` skills: SwarmKit accepts `requires:` on them (our
// own codes say the rules cannot hold).
parity! {
    memory_skills_in_requires => "memory-skills--requires",
}

// `output_schema` files ending `.yaml` / `.yml` are read as YAML.
parity! {
    output_schema_yaml_files => "agent.output-schema--yaml-suffixes",
}

// `swarmkit validate` accepts these; `swarmkit run` refuses to load them (our own codes say so:
// skill.unknown-command, skill.unknown-agent-topology, skill.unknown-mcp-server).
parity! {
    refused_at_load_but_valid => "load-time--refused-by-run",
}

// `governance.decision_skills` ids: SwarmKit checks none of them (our own codes say what the
// runtime does with them: governance.unknown-decision-skill, governance.not-a-decision-skill).
parity! {
    decision_skill_bindings => "governance.unknown-decision-skill",
}

// A folder of SwarmKit artifacts without its manifest: SwarmKit names the folder, we name its
// first artifact.
parity! {
    artifacts_without_a_workspace_yaml => "workspace.missing-workspace-yaml",
}

// A command pack whose binary is not on PATH: `swarmkit run` refuses to start
// (command-pack.missing-binary, our own code).
parity! {
    command_pack_binary_not_on_path => "command-pack.missing-binary",
}
