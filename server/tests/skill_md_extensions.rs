//! The proposed SKILL.md extensions: `dependencies:`, `metadata.chain`, the skill gate's
//! `metadata.precondition` / `action_tool`, and the tool inventory they are judged against.
//! Each code fires with a tight range (the text under it is asserted) and stays silent on valid
//! input; chain fixtures are multi-skill trees.

#[path = "support/text.rs"]
mod text;
use text::assert_contains;

#[path = "support/found.rs"]
mod found;

use std::path::{Path, PathBuf};

use found::{assert_silent, check_files as check, Found};
use skillgraph::check::check_changes;
use skillgraph::diagnostic::Severity;
use skillgraph::index::{Change, Index, Lookup};
use skillgraph::semantics::chain::{resolve, Target};
use skillgraph::testing::{batch_snapshot, set_files, shuffled, Replay};

/// A SKILL.md text with `extra` frontmatter lines after name and description.
fn skill(name: &str, extra: &str) -> String {
    format!("---\nname: {name}\ndescription: Does {name}.\n{extra}---\n# {name}\n")
}

/// Checks one skill, `/r/skills/<name>/SKILL.md`, with `extra` frontmatter lines.
fn check_skill(name: &str, extra: &str) -> Vec<Found> {
    check(&[(&format!("/r/skills/{name}/SKILL.md"), &skill(name, extra))])
}

/// Checks the skill `chain-test`, with `extra` frontmatter lines, beside a plain skill in each
/// folder of `members` below `/r/skills` (named after the folder's last part).
fn check_chain(extra: &str, members: &[&str]) -> Vec<Found> {
    let mut files = vec![(
        "/r/skills/chain-test/SKILL.md".to_owned(),
        skill("chain-test", extra),
    )];
    for member in members {
        let name = member.rsplit('/').next().unwrap_or(member);
        files.push((format!("/r/skills/{member}/SKILL.md"), skill(name, "")));
    }
    let files: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect();
    check(&files)
}

fn of<'a>(found: &'a [Found], code: &str) -> Vec<&'a Found> {
    found.iter().filter(|f| f.code == code).collect()
}

fn texts(found: &[&Found]) -> Vec<String> {
    found.iter().map(|f| f.text.clone()).collect()
}

// ---------------------------------------------------------------------------------------------
// dependencies

#[test]
fn dependencies_shape() {
    let text = skill(
        "pdf",
        "dependencies:\n  tools:\n    all: [Read, 42]\n    any: []\n    some: [x]\n  resources: Read\n  toolz: [a]\n",
    );
    let found = check(&[("/r/skills/pdf/SKILL.md", &text)]);
    let shape = of(&found, "skillmd.dependencies-shape");
    assert_eq!(
        texts(&shape),
        ["42", "[]", "some", "Read", "toolz"],
        "{found:#?}"
    );
    assert!(shape[1].message.contains("empty"), "{shape:#?}");
    assert!(
        shape[3].message.contains("`resources: [Read]`"),
        "{shape:#?}"
    );
    assert!(
        shape[4].message.contains("did you mean `tools`"),
        "{shape:#?}"
    );
    assert_eq!(found.len(), 5, "{found:#?}");

    let found = check_skill("pdf", "dependencies: [Read]\n");
    assert_eq!(texts(&of(&found, "skillmd.dependencies-shape")), ["[Read]"]);
}

#[test]
fn dependencies_valid_shapes_are_silent() {
    for extra in [
        "dependencies:\n  tools: [Read, Grep]\n",
        "dependencies:\n  tools:\n    all: [get_order]\n    any: [a, b]\n  prompts: [p]\n",
    ] {
        assert_silent(&check_skill("pdf", extra));
    }
}

const CONFIG: &str = "[tools]\navailable = [\"get_order\"]\npresets = [\"claude-code\"]\nmcp-tool-lists = [\"lists/orders.json\"]\n";
const ORDERS: &str = r#"{"result": {"tools": [{"name": "dispute_chargeback_v2"}]}}"#;

#[test]
fn dependencies_unsatisfied_against_the_inventory() {
    let text = skill(
        "refund",
        "dependencies:\n  tools:\n    all: [get_order, Read, get_check_details, get_menu]\n    any: [dispute_chargeback, dispute_chargeback_v2]\n",
    );
    let workspace = "apiVersion: swarmkit/v1\nkind: Workspace\nmetadata:\n  id: w\n  name: W\n";
    let mcp_skill = "apiVersion: swarmkit/v1\nkind: Skill\nmetadata:\n  id: get-menu\n  name: Get menu\n  description: Reads the menu.\ncategory: capability\nimplementation:\n  type: mcp_tool\n  server: menus\n  tool: get_menu\n";
    let files = [
        ("/r/skillgraph.toml", CONFIG),
        ("/r/lists/orders.json", ORDERS),
        ("/r/skills/refund/SKILL.md", text.as_str()),
        ("/r/ws/workspace.yaml", workspace),
        ("/r/ws/skills/get-menu.yaml", mcp_skill),
    ];
    let found = check(&files);
    let unsatisfied = of(&found, "skillmd.dependencies-unsatisfied");
    // get_order: available; Read: the preset; get_menu: a SwarmKit MCP tool;
    // dispute_chargeback_v2: the tool list. Only get_check_details is missing.
    assert_eq!(texts(&unsatisfied), ["get_check_details"], "{found:#?}");
    assert_eq!(unsatisfied[0].severity, Severity::Warning);
    assert_eq!(unsatisfied[0].related, ["[tools]"]);

    // An `any` group none of whose members is available is reported on `any`.
    let text = skill(
        "refund",
        "dependencies:\n  tools:\n    any: [dispute_chargeback, dispute_v3]\n",
    );
    let found = check(&[
        ("/r/skillgraph.toml", CONFIG),
        ("/r/lists/orders.json", ORDERS),
        ("/r/skills/refund/SKILL.md", &text),
    ]);
    let unsatisfied = of(&found, "skillmd.dependencies-unsatisfied");
    assert_eq!(texts(&unsatisfied), ["any"], "{found:#?}");
    assert!(unsatisfied[0].message.contains("`dispute_v3`"));

    // No inventory configured: nothing is evaluated.
    let found = check(&[
        ("/r/skillgraph.toml", "[skill-md]\nstrict = false\n"),
        ("/r/skills/refund/SKILL.md", &text),
    ]);
    assert_silent(&found);
}

// ---------------------------------------------------------------------------------------------
// the tool inventory's sources

#[test]
fn tool_lists_and_presets_are_checked() {
    let config = "[tools]\npresets = [\"claude-cod\"]\nmcp-tool-lists = [\"lists/bad.json\", \"lists/gone.json\"]\n";
    let bad = "{\"tools\": [\n  {\"name\": \"a\"},\n]}";
    let found = check(&[
        ("/r/skillgraph.toml", config),
        ("/r/lists/bad.json", bad),
        ("/r/package.json", "{not json"),
    ]);
    let preset = of(&found, "config.unknown-preset");
    assert_eq!(texts(&preset), ["\"claude-cod\""], "{found:#?}");
    assert!(preset[0].message.contains("did you mean `claude-code`"));
    let missing = of(&found, "tools.missing-list");
    assert_eq!(texts(&missing), ["\"lists/gone.json\""], "{found:#?}");
    let invalid = of(&found, "tools.invalid-list");
    assert_eq!(texts(&invalid), ["]"], "{found:#?}");
    assert_eq!(invalid[0].path, "/r/lists/bad.json");
    assert_eq!(invalid[0].related, ["mcp-tool-lists"]);
    // A JSON file no config names is never judged.
    assert_eq!(found.len(), 3, "{found:#?}");

    let found = check(&[
        ("/r/skillgraph.toml", CONFIG),
        ("/r/lists/orders.json", ORDERS),
    ]);
    assert_silent(&found);
}

#[test]
fn fixing_a_tool_list_clears_its_diagnostics_incrementally() {
    let text = skill(
        "refund",
        "dependencies:\n  tools: [dispute_chargeback_v2]\n",
    );
    let mut index = Index::new(&skillgraph::rules::CHECKS);
    index.apply(set_files(&[
        ("/r/skillgraph.toml", CONFIG),
        ("/r/lists/orders.json", "{}"),
        ("/r/skills/refund/SKILL.md", &text),
    ]));
    let codes = |index: &Index| {
        let all = index.files().flat_map(|f| index.diagnostics(f.id));
        let mut codes: Vec<&str> = all.map(|d| d.code.name()).collect();
        codes.sort();
        codes
    };
    assert_eq!(
        codes(&index),
        ["skillmd.dependencies-unsatisfied", "tools.invalid-list"]
    );
    index.apply(set_files(&[("/r/lists/orders.json", ORDERS)]));
    assert!(codes(&index).is_empty(), "{:?}", codes(&index));
    // The config no longer names the list: the tool is gone again.
    index.apply(set_files(&[(
        "/r/skillgraph.toml",
        "[tools]\navailable = [\"x\"]\n",
    )]));
    assert_eq!(codes(&index), ["skillmd.dependencies-unsatisfied"]);
}

// ---------------------------------------------------------------------------------------------
// metadata.chain

#[test]
fn chain_shape_and_option_conflicts() {
    let found = check_chain(
        "metadata:\n  chain: [unit, 7]\n  timeout: \"30\"\n  max_depth: 0\n  early_exit_on: sometimes\n  parallel_limit: 3\n  race_mode: true\n",
        &["unit"],
    );
    let shape = of(&found, "skillmd.chain-shape");
    assert_eq!(
        texts(&shape),
        ["7", "\"30\"", "0", "sometimes"],
        "{found:#?}"
    );
    assert!(shape[1].message.contains("remove the quotes"));
    let conflict = of(&found, "skillmd.chain-option-conflict");
    assert_eq!(texts(&conflict), ["parallel_limit", "race_mode"]);
    assert_eq!(conflict[0].severity, Severity::Warning);
    assert_eq!(found.len(), 6, "{found:#?}");

    // A string is the portable form (docs/skill-md.md): `unit` is a chain of one entry.
    let found = check_chain("metadata:\n  chain: unit\n", &["unit"]);
    assert!(of(&found, "skillmd.chain-shape").is_empty(), "{found:#?}");
    let found = check_skill("chain-test", "metadata:\n  chain: 3\n");
    let shape = of(&found, "skillmd.chain-shape");
    assert_eq!(texts(&shape), ["3"]);
    assert_contains(&shape[0].message, "found an integer");
}

#[test]
fn a_valid_chain_is_silent() {
    let found = check_chain(
        "metadata:\n  author: me\n  chain:\n    - test-unit\n    - e2e/smoke\n  async: true\n  parallel_limit: 2\n  race_mode: false\n  early_exit_on: failure\n  retry_until: stable\n",
        &["test-unit", "e2e/smoke"],
    );
    assert_silent(&found);
}

#[test]
fn chain_options_without_a_chain_are_plain_metadata() {
    let found = check_skill("pdf", "metadata:\n  timeout: 30\n");
    assert_eq!(texts(&of(&found, "skillmd.metadata-shape")), ["30"]);
}

#[test]
fn chain_resolution_prefers_the_same_parent_then_the_shallowest_deeper_folder() {
    let files = [
        (
            "/r/test/chain/SKILL.md",
            skill("chain", "metadata:\n  chain: [unit, smoke]\n"),
        ),
        ("/r/test/unit/SKILL.md", skill("unit", "")),
        ("/r/test/deep/unit/SKILL.md", skill("unit", "")),
        ("/r/test/e2e/deeper/smoke/SKILL.md", skill("smoke", "")),
        ("/r/test/e2e/smoke/SKILL.md", skill("smoke", "")),
        ("/r/test/a/b/c/smoke/SKILL.md", skill("smoke", "")),
    ];
    let mut index = Index::new(&skillgraph::rules::CHECKS);
    index.apply(
        files
            .iter()
            .map(|(p, t)| Change::Set {
                path: PathBuf::from(p),
                text: t.clone().into(),
            })
            .collect(),
    );
    let lookup = Lookup::new(&index);
    let from = Path::new("/r/test/chain/SKILL.md");
    let target = |entry| match resolve(&lookup, from, entry) {
        Target::Found(found) => found.path.display().to_string(),
        _ => "not found".to_owned(),
    };
    assert_eq!(target("unit"), "/r/test/unit/SKILL.md");
    assert_eq!(target("smoke"), "/r/test/e2e/smoke/SKILL.md");
    assert_eq!(
        target("e2e/deeper/smoke"),
        "/r/test/e2e/deeper/smoke/SKILL.md"
    );
    assert_eq!(target("missing"), "not found");
    assert!(matches!(resolve(&lookup, from, "../x"), Target::Invalid));
}

#[test]
fn chain_unknown_skill_is_an_error_unless_validate_on_load_is_off() {
    let found = check_chain("metadata:\n  chain: [test-unti, nowhere]\n", &["test-unit"]);
    let unknown = of(&found, "skillmd.chain-unknown-skill");
    assert_eq!(texts(&unknown), ["test-unti", "nowhere"], "{found:#?}");
    assert!(unknown[0].message.contains("did you mean `test-unit`"));
    assert_eq!(unknown[0].severity, Severity::Error);

    let found = check_chain(
        "metadata:\n  chain: [nowhere]\n  validate_on_load: false\n",
        &[],
    );
    let unknown = of(&found, "skillmd.chain-unknown-skill");
    assert_eq!(texts(&unknown), ["nowhere"]);
    assert_eq!(unknown[0].severity, Severity::Warning);
}

#[test]
fn chain_escape() {
    let found = check(&[
        (
            "/r/test/chain/SKILL.md",
            &skill(
                "chain",
                "metadata:\n  chain: [../audit, /abs/x, audit, unit]\n",
            ),
        ),
        ("/r/audit/SKILL.md", &skill("audit", "")),
        ("/r/test/unit/SKILL.md", &skill("unit", "")),
    ]);
    let escape = of(&found, "skillmd.chain-escape");
    assert_eq!(
        texts(&escape),
        ["../audit", "/abs/x", "audit"],
        "{found:#?}"
    );
    assert!(escape[0].message.contains("going up"));
    assert!(escape[1].message.contains("absolute"));
    assert_eq!(escape[2].related, ["audit"]);
    assert_eq!(found.len(), 3, "{found:#?}");
}

#[test]
fn chain_cycles_are_reported_once_with_the_whole_path() {
    let found = check(&[
        (
            "/r/s/a/SKILL.md",
            &skill("a", "metadata:\n  chain: [b, leaf]\n"),
        ),
        ("/r/s/b/SKILL.md", &skill("b", "metadata:\n  chain: [c]\n")),
        ("/r/s/c/SKILL.md", &skill("c", "metadata:\n  chain: [a]\n")),
        ("/r/s/leaf/SKILL.md", &skill("leaf", "")),
        (
            "/r/s/self/SKILL.md",
            &skill("self", "metadata:\n  chain: [self]\n"),
        ),
        // Not on the cycle but reaching it: its nesting never ends.
        (
            "/r/s/outer/SKILL.md",
            &skill("outer", "metadata:\n  chain: [b]\n"),
        ),
    ]);
    let cycles = of(&found, "skillmd.chain-cycle");
    assert_eq!(cycles.len(), 2, "{found:#?}");
    assert_eq!(cycles[0].path, "/r/s/a/SKILL.md");
    assert_eq!(cycles[0].text, "b");
    assert!(cycles[0].message.contains("a → b → c → a"), "{cycles:#?}");
    assert_eq!(cycles[0].related, ["c", "a"]);
    assert_eq!(cycles[1].path, "/r/s/self/SKILL.md");
    assert!(cycles[1].message.contains("self → self"));
    let depth = of(&found, "skillmd.chain-depth");
    assert_eq!(depth.len(), 1, "{found:#?}");
    assert_eq!(depth[0].path, "/r/s/outer/SKILL.md");
    assert!(depth[0].message.contains("never ends"), "{depth:#?}");
    assert_eq!(found.len(), 3, "{found:#?}");
}

#[test]
fn chain_depth() {
    let files = [
        (
            "/r/s/top/SKILL.md",
            skill("top", "metadata:\n  chain: [leaf, mid]\n  max_depth: 2\n"),
        ),
        (
            "/r/s/mid/SKILL.md",
            skill("mid", "metadata:\n  chain: [low]\n"),
        ),
        (
            "/r/s/low/SKILL.md",
            skill("low", "metadata:\n  chain: [leaf]\n"),
        ),
        ("/r/s/leaf/SKILL.md", skill("leaf", "")),
    ];
    let as_refs: Vec<(&str, &str)> = files.iter().map(|(p, t)| (*p, t.as_str())).collect();
    let found = check(&as_refs);
    let depth = of(&found, "skillmd.chain-depth");
    assert_eq!(texts(&depth), ["mid"], "{found:#?}");
    assert!(depth[0].message.contains("3 levels"), "{depth:#?}");
    assert!(depth[0].message.contains("top → mid → low → leaf"));
    assert_eq!(depth[0].related, ["low", "leaf"]);
    assert_eq!(found.len(), 1, "{found:#?}");
    // Within the default of 10: silent.
    let mut relaxed = as_refs.clone();
    let top = skill("top", "metadata:\n  chain: [leaf, mid]\n");
    relaxed[0].1 = &top;
    assert_silent(&check(&relaxed));
}

#[test]
fn editing_a_chain_elsewhere_updates_the_cycle() {
    let mut index = Index::new(&skillgraph::rules::CHECKS);
    index.apply(set_files(&[
        ("/r/s/a/SKILL.md", &skill("a", "metadata:\n  chain: [b]\n")),
        ("/r/s/b/SKILL.md", &skill("b", "metadata:\n  chain: [c]\n")),
        ("/r/s/c/SKILL.md", &skill("c", "")),
    ]));
    let count = |index: &Index| {
        index
            .files()
            .flat_map(|f| index.diagnostics(f.id))
            .filter(|d| d.code == "skillmd.chain-cycle")
            .count()
    };
    assert_eq!(count(&index), 0);
    index.apply(set_files(&[(
        "/r/s/c/SKILL.md",
        &skill("c", "metadata:\n  chain: [a]\n"),
    )]));
    assert_eq!(count(&index), 1);
    let a = index.file_id(Path::new("/r/s/a/SKILL.md")).unwrap();
    assert_eq!(index.diagnostics(a)[0].code, "skillmd.chain-cycle");
    index.apply(set_files(&[(
        "/r/s/b/SKILL.md",
        &skill("b", "metadata:\n  chain: [c2]\n"),
    )]));
    assert_eq!(count(&index), 0);
}

// ---------------------------------------------------------------------------------------------
// metadata.precondition / action_tool

#[test]
fn precondition_malformed() {
    let cases = [
        (
            "precondition: get_x(brand_id=<x>",
            "get_x(brand_id=<x>",
            "never closes",
        ),
        (
            "precondition: get_x(a=1) then",
            "get_x(a=1) then",
            "follows the closing",
        ),
        (
            "precondition: get_x(brand)",
            "get_x(brand)",
            "not `name=value`",
        ),
        ("precondition: []", "[]", "empty list"),
        ("precondition: [[a]]", "[a]", "cannot hold another list"),
        ("precondition: 42", "42", "found an integer"),
        (
            "precondition: {tool: get_x, state: {}}",
            "state",
            "not both",
        ),
        ("precondition: {tol: get_x}", "tol", "not a predicate key"),
        (
            "precondition: {state: {path: order..id, op: eq, value: 1}}",
            "order..id",
            "dotted identifiers",
        ),
        (
            "precondition: {state: {path: a, op: gt, value: 1}}",
            "gt",
            "not an operator",
        ),
        (
            "precondition: {state: {path: a, op: in, value: x}}",
            "x",
            "needs a list",
        ),
        (
            "precondition: {state: {path: a, op: eq}}",
            "{path: a, op: eq}",
            "needs a `value`",
        ),
        (
            "precondition: {state: {path: a, op: exists, value: 1}}",
            "value",
            "takes no `value`",
        ),
        ("action_tool: [a, b]", "[a, b]", "one tool's name"),
    ];
    for (line, text, says) in cases {
        let found = check_skill("gate", &format!("metadata:\n  {line}\n"));
        let malformed = of(&found, "skillmd.precondition-malformed");
        assert_eq!(texts(&malformed), [text], "{line}: {found:#?}");
        assert!(malformed[0].message.contains(says), "{line}: {found:#?}");
        assert_eq!(found.len(), 1, "{line}: {found:#?}");
    }
}

#[test]
fn precondition_valid_forms_are_silent() {
    let extra = "metadata:\n  action_tool: create_refund\n  precondition:\n    - get_integration_status\n    - get_x(brand_id=<x>, region=eu)\n    - {tool: get_order}\n    - {state: {path: order.status, op: in, value: [open, held]}}\n    - {state: {path: order.id, op: exists}}\n";
    assert_silent(&check_skill("gate", extra));
}

#[test]
fn precondition_advisory() {
    let prose = "the user confirmed the refund";
    let found = check_skill("gate", &format!("metadata:\n  precondition: {prose}\n"));
    let advisory = of(&found, "skillmd.precondition-advisory");
    assert_eq!(texts(&advisory), [prose]);
    assert_eq!(advisory[0].severity, Severity::Info);
    assert_eq!(found.len(), 1);
}

#[test]
fn precondition_and_action_tool_against_the_inventory() {
    let extra = "metadata:\n  action_tool: create_refnd\n  precondition: [get_order(id=<x>), {tool: get_status}, Read]\n";
    let found = check(&[
        ("/r/skillgraph.toml", CONFIG),
        ("/r/lists/orders.json", ORDERS),
        ("/r/skills/gate/SKILL.md", &skill("gate", extra)),
    ]);
    assert_eq!(
        texts(&of(&found, "skillmd.action-tool-unknown")),
        ["create_refnd"]
    );
    let unsatisfied = of(&found, "skillmd.precondition-unsatisfied");
    assert_eq!(texts(&unsatisfied), ["get_status"], "{found:#?}");
    assert_eq!(unsatisfied[0].related, ["[tools]"]);
    assert_eq!(found.len(), 2, "{found:#?}");
    // Without an inventory, names are not judged.
    assert_silent(&check_skill("gate", extra));
}

// ---------------------------------------------------------------------------------------------
// the demo

#[test]
fn the_demo_shows_every_skill_md_code() {
    let demo = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/demo"));
    let (found, errors) = skillgraph::discover::discover(std::slice::from_ref(&demo));
    assert!(errors.is_empty(), "{errors:?}");
    let outcome = check_changes(found, demo);
    let shown: std::collections::BTreeSet<&str> =
        outcome.diagnostics.iter().map(|d| d.code.name()).collect();
    for rule in skillgraph::rules::catalogue::all() {
        let ours = rule.code.name().starts_with("skillmd.")
            || rule.code.name().starts_with("tools.")
            || rule.code == "config.unknown-preset";
        assert!(
            !ours || shown.contains(rule.code.name()),
            "examples/demo shows no {}",
            rule.code
        );
    }
}

// ---------------------------------------------------------------------------------------------
// incremental = batch

#[test]
fn one_file_at_a_time_in_any_order_matches_one_batch() {
    let files: Vec<(&str, String)> = vec![
        ("/r/skillgraph.toml", CONFIG.to_owned()),
        ("/r/lists/orders.json", ORDERS.to_owned()),
        (
            "/r/s/a/SKILL.md",
            skill(
                "a",
                "dependencies:\n  tools: [get_order, dispute_chargeback_v2, nope]\nmetadata:\n  chain: [b, leaf]\n",
            ),
        ),
        ("/r/s/b/SKILL.md", skill("b", "metadata:\n  chain: [c]\n")),
        ("/r/s/c/SKILL.md", skill("c", "metadata:\n  chain: [a]\n")),
        ("/r/s/leaf/SKILL.md", skill("leaf", "")),
        (
            "/r/s/outer/SKILL.md",
            skill("outer", "metadata:\n  chain: [b, missing]\n  action_tool: get_order\n"),
        ),
        (
            "/r/s/top/SKILL.md",
            skill("top", "metadata:\n  chain: [outer]\n  max_depth: 1\n  precondition: [nope]\n"),
        ),
    ];
    let all = set_files(
        &files
            .iter()
            .map(|(p, t)| (*p, t.as_str()))
            .collect::<Vec<_>>(),
    );
    let batch = batch_snapshot(all.clone());
    assert!(batch.len() >= 6, "{batch:#?}");
    for seed in 0..8u64 {
        let order = shuffled(all.clone(), seed);
        let mut replay = Replay::new();
        for change in &order {
            replay.apply(vec![change.clone()]);
        }
        assert_eq!(replay.snapshot(), batch, "order {seed}");
        // Remove and restore one file: back to the same answer.
        let path = order[0].path().to_str().unwrap().to_owned();
        let text = replay.text(&path);
        replay.remove(&path);
        replay.set(&path, &text);
        assert_eq!(replay.snapshot(), batch, "after restoring {path}");
    }
}
