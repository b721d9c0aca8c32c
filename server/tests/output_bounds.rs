//! Output proportional to input: no diagnostic may exceed the size bounds, over hostile shapes
//! (each large enough to hit a cap) and the demo workspace.

#[path = "support/text.rs"]
mod text;
use text::assert_contains;

mod support;

use std::collections::HashMap;
use std::path::PathBuf;

use skillgraph::check::{check_changes, run_check, CheckOutcome};
use skillgraph::diagnostic::FileId;
use skillgraph::index::Change;
use skillgraph::rules::output::MAX_DIAGNOSTICS_PER_FILE;
use support::*;

/// Longest message any diagnostic may have, in bytes.
const MAX_MESSAGE: usize = 2_000;
/// Most related locations any diagnostic may have.
const MAX_RELATED: usize = 20;

/// Fails unless the `what` of a `code` diagnostic, `size` long, is within `bound`.
#[track_caller]
fn assert_at_most(name: &str, code: &str, what: &str, size: usize, bound: usize) {
    assert!(
        size <= bound,
        "{name}: {code} {what} of {size}, over {bound}"
    );
}

fn assert_bounded(name: &str, outcome: &CheckOutcome) {
    let mut per_file: HashMap<FileId, usize> = HashMap::new();
    for d in &outcome.diagnostics {
        *per_file.entry(d.file).or_default() += 1;
        let code = d.code.name();
        assert_at_most(name, code, "message", d.message.len(), MAX_MESSAGE);
        assert_at_most(
            name,
            code,
            "related locations",
            d.related.len(),
            MAX_RELATED,
        );
        for related in &d.related {
            let size = related.message.len();
            assert_at_most(name, code, "related message", size, MAX_MESSAGE);
        }
        for fix in &d.fixes {
            assert_at_most(name, code, "fix title", fix.title.len(), MAX_MESSAGE);
        }
    }
    for (file, count) in per_file {
        assert!(
            count <= MAX_DIAGNOSTICS_PER_FILE + 1,
            "{name}: {count} diagnostics in {:?}",
            outcome.index.file(file).map(|f| f.path.clone())
        );
    }
}

fn with_topology_skills(skills: &str) -> Vec<Change> {
    changes(&with_baseline(&team(&format!(
        "root:\n  id: root\n  role: root\n  skills: {skills}\n"
    ))))
}

fn with_skill_inputs(inputs: &str) -> Vec<Change> {
    let mut all = changes(BASELINE);
    let skill = parse_fixture(&mcp_skill("hostile", "tools")).remove(0);
    all.push(Change::Set {
        path: "/ws/skills/hostile.yaml".into(),
        text: format!("{}inputs:\n{inputs}", skill.text).into(),
    });
    all
}

fn hostile_shapes() -> Vec<(&'static str, Vec<Change>)> {
    let unknown = (0..3_000)
        .map(|i| format!("u{i}"))
        .collect::<Vec<_>>()
        .join(", ");
    let same = vec!["store"; 3_000].join(", ");
    let wide = format!(
        "  base: &b [{}]\n  uses: [{}]\n",
        vec!["x"; 5_000].join(", "),
        vec!["*b"; 600].join(", ")
    );
    let mut deep = String::from("  ? &a1 [x]\n  : v\n");
    for i in 2..=1_000 {
        deep.push_str(&format!("  ? &a{i} [*a{}]\n  : v\n", i - 1));
    }
    let keys: String = (0..3_000)
        .map(|i| format!("  k{}: {i}\n", i % 1_500))
        .collect();
    // One id of 200,000 characters, quoted by the messages that name it.
    let giant = format!("giant-{}", "x".repeat(200_000));
    let shared = format!(
        "&common [{unknown}]\n  children:\n    - id: a\n      role: worker\n      skills: *common\n"
    );
    // 300 skill files of one id (each skill names its own, so the tool differs), and 300 SKILL.md
    // files of one name under one root.
    let mut same_id = changes(BASELINE);
    let mut same_name = Vec::new();
    for i in 0..300 {
        let skill = parse_fixture(&mcp_skill("twin", "tools")).remove(0);
        same_id.push(Change::Set {
            path: format!("/ws/skills/twin-{i}.yaml").into(),
            text: skill.text.into(),
        });
        same_name.push(Change::Set {
            path: format!("/r/skills/twin-{i}/SKILL.md").into(),
            text: "---\nname: twin\ndescription: d\n---\n".into(),
        });
    }
    // A skill on an unknown server, among 3,000 declared servers none of which is near.
    let mut many_servers = changes(&with_baseline(&format!(
        "//- /ws/workspace.yaml\napiVersion: swarmkit/v1\nkind: Workspace\nmetadata:\n  id: ws\n  name: W\nmcp_servers:\n{}",
        (0..3_000)
            .map(|i| format!("  - id: declared-server-{i}\n    transport: stdio\n    command: [x]\n"))
            .collect::<String>()
    )));
    many_servers.push(Change::Set {
        path: "/ws/skills/lost.yaml".into(),
        text: parse_fixture(&mcp_skill("lost", "zz"))
            .remove(0)
            .text
            .into(),
    });
    // A SKILL.md name made of 3,000 different characters that are not letters or digits.
    let odd: String = (0..3_000u32)
        .filter_map(|i| char::from_u32(0x2100 + i))
        .filter(|c| !c.is_alphanumeric() && !c.is_whitespace())
        .collect();
    let odd_name = vec![Change::Set {
        path: "/r/skills/odd/SKILL.md".into(),
        text: format!("---\nname: \"{odd}\"\ndescription: d\n---\n").into(),
    }];
    let metadata: String = (0..3_000).map(|i| format!("  k{i}: {i}\n")).collect();
    let many_metadata = vec![Change::Set {
        path: "/r/skills/meta/SKILL.md".into(),
        text: format!("---\nname: meta\ndescription: d\nmetadata:\n{metadata}---\n").into(),
    }];
    // 300 topologies of one name (each makes the skill `topology-team`).
    let mut same_topology = changes(BASELINE);
    for i in 0..300 {
        same_topology.push(Change::Set {
            path: format!("/ws/topologies/team-{i}.yaml").into(),
            text: parse_fixture(&team("root:\n  id: root\n  role: root\n"))
                .remove(0)
                .text
                .into(),
        });
    }
    // 3,000 unknown fields, each offered a move under a `metadata:` of 3,000 keys.
    let fields: String = (0..3_000).map(|i| format!("x{i}: v\n")).collect();
    let kept: String = (0..3_000).map(|i| format!("  m{i}: v\n")).collect();
    let many_fields = vec![Change::Set {
        path: "/r/skills/wide/SKILL.md".into(),
        text: format!("---\nname: wide\ndescription: d\n{fields}metadata:\n{kept}---\n").into(),
    }];
    vec![
        ("a frontmatter of 3,000 unknown fields", many_fields),
        ("300 topologies of one name", same_topology),
        ("metadata of 3,000 numbers", many_metadata),
        ("300 skill files of one id", same_id),
        ("300 SKILL.md files of one name", same_name),
        ("an unknown server among 3,000", many_servers),
        ("a name of 3,000 odd characters", odd_name),
        (
            "flow list of unknown grants",
            with_topology_skills(&format!("[{unknown}]")),
        ),
        (
            "flow list of one grant repeated",
            with_topology_skills(&format!("[{same}]")),
        ),
        (
            "list shared through an alias",
            with_topology_skills(&shared),
        ),
        ("wide alias bomb", with_skill_inputs(&wide)),
        ("aliases at depth", with_skill_inputs(&deep)),
        ("mapping of duplicate keys", with_skill_inputs(&keys)),
        (
            "an unknown id of 200,000 characters",
            with_topology_skills(&format!("[{giant}, {giant}]")),
        ),
        (
            "requires rules naming an id of 200,000 characters",
            with_topology_skills(&format!(
                "[store, summarise]\n  requires:\n    store: [{giant}]\n    {giant}: [store]\n    summarise: [{giant}]\n"
            )),
        ),
    ]
}

#[test]
fn hostile_shapes_stay_within_the_bounds() {
    for (name, all) in hostile_shapes() {
        let outcome = check_changes(all, PathBuf::from("/"));
        assert!(!outcome.diagnostics.is_empty(), "{name}");
        assert_bounded(name, &outcome);
    }
}

#[test]
fn a_file_over_the_cap_says_how_many_were_left_out() {
    let unknown = (0..3_000)
        .map(|i| format!("u{i}"))
        .collect::<Vec<_>>()
        .join(", ");
    let outcome = check_changes(
        with_topology_skills(&format!("[{unknown}]")),
        PathBuf::from("/"),
    );
    let summaries = of_code(&outcome, "file.too-many-diagnostics");
    assert_eq!(summaries.len(), 1);
    assert_contains(&summaries[0].message, "2000 are left out");
    let in_file = outcome
        .diagnostics
        .iter()
        .filter(|d| d.file == summaries[0].file)
        .count();
    assert_eq!(in_file, MAX_DIAGNOSTICS_PER_FILE + 1);
}

#[test]
fn a_file_under_the_cap_has_no_summary() {
    let outcome = check_changes(with_topology_skills("[u1, u2, u3]"), PathBuf::from("/"));
    assert!(outcome
        .diagnostics
        .iter()
        .all(|d| d.code != "file.too-many-diagnostics"));
}

#[test]
fn the_demo_stays_within_the_bounds() {
    let demo = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/demo"));
    let outcome = run_check(&[demo]).unwrap();
    assert!(!outcome.diagnostics.is_empty());
    assert_bounded("demo", &outcome);
}

#[test]
fn every_unknown_id_shown_carries_its_suggestion() {
    // 1,500 ids one edit from a defined skill: the file shows 1,000 of them, each with its
    // "did you mean"; the searches stop where the diagnostics shown do.
    let skills: String = (0..1_500)
        .map(|i| mcp_skill(&format!("skill-{i}"), "tools"))
        .collect();
    let grants = (0..1_500)
        .map(|i| format!("skill-{i}x"))
        .collect::<Vec<_>>()
        .join(", ");
    let all = changes(&with_baseline(&format!(
        "{skills}{}",
        team(&format!(
            "root:\n  id: root\n  role: root\n  skills: [{grants}]\n"
        ))
    )));
    let outcome = check_changes(all, PathBuf::from("/"));
    let unknown = of_code(&outcome, "agent.unknown-skill");
    assert_eq!(unknown.len(), MAX_DIAGNOSTICS_PER_FILE);
    for (i, d) in unknown.iter().enumerate() {
        assert!(
            d.message.ends_with(&format!("did you mean `skill-{i}`?")),
            "{}",
            d.message
        );
    }
}
