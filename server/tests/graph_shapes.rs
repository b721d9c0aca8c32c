//! Graph shapes that defeat a bounded cycle search or blow up the output, at small sizes (the
//! benches cover the large ones): every cycle is reported once, whatever hides it, and every
//! diagnostic stays within the size bounds however long the path it describes.

#[path = "support/text.rs"]
mod text;
use text::assert_contains;

mod support;

use skillgraph::diagnostic::Diagnostic;
use support::{
    composed_skill, diagnostics_of, mcp_skill, of_code, run, team, team_depending, with_baseline,
};

/// No diagnostic may say more than this, however long the path it describes.
const MAX_MESSAGE: usize = 1_500;
const MAX_RELATED: usize = 20;

fn assert_bounded(diagnostics: &[Diagnostic]) {
    for d in diagnostics {
        assert!(
            d.message.len() <= MAX_MESSAGE,
            "{}: {} bytes: {}",
            d.code.name(),
            d.message.len(),
            d.message
        );
        assert!(
            d.related.len() <= MAX_RELATED,
            "{}: {} related locations",
            d.code.name(),
            d.related.len()
        );
    }
}

fn count(diagnostics: &[Diagnostic], code: &str) -> usize {
    diagnostics.iter().filter(|d| d.code == code).count()
}

#[test]
fn depends_on_cycle_behind_a_ladder() {
    // 16 layers of two agents, each waiting for both agents of the next layer (2^16 paths), the
    // last layer waiting for a two-agent loop.
    let layers = 16;
    let mut children = Vec::new();
    for layer in 0..layers {
        let next: Vec<String> = if layer + 1 < layers {
            vec![format!("a{}", layer + 1), format!("b{}", layer + 1)]
        } else {
            vec!["loop1".to_owned()]
        };
        children.push((format!("a{layer}"), next.clone()));
        children.push((format!("b{layer}"), next));
    }
    children.push(("loop1".to_owned(), vec!["loop2".to_owned()]));
    children.push(("loop2".to_owned(), vec!["loop1".to_owned()]));
    let outcome = run(&with_baseline(&team_depending(&children)));
    assert_eq!(count(&outcome.diagnostics, "agent.depends-on-cycle"), 1);
    let (_, found) = diagnostics_of(
        &with_baseline(&team_depending(&children)),
        "agent.depends-on-cycle",
    );
    assert_contains(&found[0].message, "loop1 → loop2 → loop1");
    assert_bounded(&outcome.diagnostics);
}

#[test]
fn depends_on_cycle_at_the_end_of_a_long_chain() {
    let n = 460;
    let children = chain_of(n, |i| format!("a{i}"), Some(n - 2));
    let (outcome, found) = diagnostics_of(
        &with_baseline(&team_depending(&children)),
        "agent.depends-on-cycle",
    );
    assert_eq!(found.len(), 1);
    assert_contains(&found[0].message, "a458 → a459 → a458");
    assert_bounded(&outcome.diagnostics);
}

#[test]
fn a_long_depends_on_loop_is_one_bounded_diagnostic() {
    let n = 2_000;
    let children = chain_of(n, |i| format!("a{i}"), Some(0));
    let (outcome, found) = diagnostics_of(
        &with_baseline(&team_depending(&children)),
        "agent.depends-on-cycle",
    );
    assert_eq!(found.len(), 1);
    assert_contains(
        &found[0].message,
        "a0 → a1 → a2 → a3 → a4 → a5 → … 1,990 more … → a1996 → a1997 → a1998 → a1999 → a0",
    );
    assert_eq!(found[0].related.len(), MAX_RELATED);
    assert_bounded(&outcome.diagnostics);
}

/// The root agent holding every mcp_tool skill of server `tools` and `summarise` (an
/// llm_prompt skill), with `rules` as its `requires:` block.
fn requiring(skills: usize, rules: &[(String, Vec<String>)]) -> String {
    let mut fixture: String = (0..skills)
        .map(|i| mcp_skill(&format!("s{i}"), "tools"))
        .collect();
    let mut block = String::from(
        "root:\n  id: root\n  role: root\n  skills: [store, server:tools, summarise]\n  requires:\n",
    );
    for (guarded, prerequisites) in rules {
        block.push_str(&format!("    {guarded}: [{}]\n", prerequisites.join(", ")));
    }
    fixture.push_str(&team(&block));
    with_baseline(&fixture)
}

#[test]
fn requires_cycle_at_the_end_of_a_long_chain() {
    let n = 1_000;
    let rules = chain_of(n, |i| format!("s{i}"), Some(n - 2));
    let fixture = requiring(n, &rules);
    let outcome = run(&fixture);
    let cycles = of_code(&outcome, "agent.requires-cycle");
    assert_eq!(cycles.len(), 1);
    assert_contains(&cycles[0].message, "s998 → s999 → s998");
    // Every skill before the loop is blocked by it, each said once and briefly.
    let blocked = of_code(&outcome, "agent.requires-unsatisfiable");
    assert_eq!(blocked.len(), n - 2);
    let first = saying(&blocked, "can never call s0:");
    assert_contains(&first.message, "it requires s1, which requires s2, which requires s3, which requires s4, which requires s5, which requires s6, which requires s7, which requires s8, … 989 more …, which requires s998, which is caught in the requires cycle s998 → s999 → s998");
    assert_bounded(&outcome.diagnostics);
}

#[test]
fn a_long_requires_chain_ending_in_an_llm_prompt_names_the_root_cause_briefly() {
    let n = 600;
    let mut rules = chain_of(n, |i| format!("s{i}"), None);
    rules[n - 1].1.push("summarise".to_owned());
    let outcome = run(&requiring(n, &rules));
    let blocked = of_code(&outcome, "agent.requires-unsatisfiable");
    assert_eq!(blocked.len(), n);
    for d in &blocked {
        assert!(
            d.message
                .contains("which requires summarise, an llm_prompt skill that the runtime never records as called")
                || d.message.contains("it requires summarise, an llm_prompt skill"),
            "{}",
            d.message
        );
    }
    let first = saying(&blocked, "can never call s0:");
    assert_contains(&first.message, "… 591 more …");
    // The shown hops, then the root cause's implementation type.
    assert_eq!(first.related.len(), 10);
    assert_bounded(&outcome.diagnostics);
    // Output proportional to the input: about the same size per rule at any length.
    let total: usize = outcome.diagnostics.iter().map(|d| d.message.len()).sum();
    assert!(total < 400 * n, "{total} bytes for {n} rules");
}

#[test]
fn a_tangle_of_requires_loops_is_reported_once_with_its_members() {
    let mut fixture: String = ["a", "b", "c"]
        .iter()
        .map(|id| mcp_skill(id, "tools"))
        .collect();
    fixture.push_str(&team(
        "root:\n  id: root\n  role: root\n  skills: [store, server:tools]\n  requires:\n    a: [b, c]\n    b: [a]\n    c: [a]\n",
    ));
    let (_, found) = diagnostics_of(&with_baseline(&fixture), "agent.requires-cycle");
    assert_eq!(found.len(), 1);
    assert_contains(&found[0].message, "a → b → a");
    assert_contains(&found[0].message, "one of several among 3 skills");
}

#[test]
fn every_member_of_a_long_composed_loop_reports_it_briefly() {
    let n = 500;
    let fixture: String = (0..n)
        .map(|i| composed_skill(&format!("c{i:03}"), &[&format!("c{:03}", (i + 1) % n)]))
        .collect();
    let (outcome, found) = diagnostics_of(&with_baseline(&fixture), "skill.composed-cycle");
    assert_eq!(found.len(), n);
    let from_c250 = saying(&found, "`c250` is part of a loop");
    assert_contains(
        &from_c250.message,
        "c250 → c251 → c252 → c253 → c254 → c255 → … 490 more … → c246 → c247 → c248 → c249 → c250",
    );
    assert_eq!(from_c250.related.len(), MAX_RELATED);
    assert_bounded(&outcome.diagnostics);
}

/// Composed skills `c0` to `c{n-1}`, each composing the next, the last composing `last`.
fn composed_chain(n: usize, last: &str) -> String {
    let mut fixture: String = (0..n - 1)
        .map(|i| composed_skill(&format!("c{i}"), &[&format!("c{}", i + 1)]))
        .collect();
    fixture.push_str(&composed_skill(&format!("c{}", n - 1), &[last]));
    fixture
}

#[test]
fn a_grant_of_a_composed_skill_above_a_long_chain_with_a_missing_part_is_refused() {
    let mut fixture = composed_chain(400, "missing");
    fixture.push_str(&team(
        "root:\n  id: root\n  role: root\n  skills: [store, c0]\n",
    ));
    let (outcome, found) = diagnostics_of(&with_baseline(&fixture), "agent.unknown-skill");
    assert_eq!(found.len(), 1);
    assert_contains(
        &found[0].message,
        "it composes `missing`, which does not exist",
    );
    assert_eq!(count(&outcome.diagnostics, "skill.composed-unknown"), 1);
    assert_bounded(&outcome.diagnostics);
}

#[test]
fn composing_a_long_chain_into_a_loop_reports_the_loop_only_on_its_members() {
    let fixture = composed_chain(400, "c398");
    let (outcome, found) = diagnostics_of(&with_baseline(&fixture), "skill.composed-cycle");
    assert_eq!(found.len(), 2);
    assert_bounded(&outcome.diagnostics);
}

/// `n` members named `name(0)`, `name(1)`, …, each naming the next; the last names
/// `name(last)`, or nothing.
fn chain_of(
    n: usize,
    name: impl Fn(usize) -> String,
    last: Option<usize>,
) -> Vec<(String, Vec<String>)> {
    (0..n)
        .map(|i| {
            let next = if i + 1 < n { Some(i + 1) } else { last };
            (name(i), next.map(&name).into_iter().collect())
        })
        .collect()
}

/// The first diagnostic of `found` whose message says `part`.
#[track_caller]
fn saying<'a, D: std::borrow::Borrow<Diagnostic> + 'a>(
    found: impl IntoIterator<Item = &'a D>,
    part: &str,
) -> &'a Diagnostic {
    found
        .into_iter()
        .map(|d| d.borrow())
        .find(|d| d.message.contains(part))
        .unwrap_or_else(|| panic!("no diagnostic says {part:?}"))
}

/// SKILL.md files `/r/s/<name>/SKILL.md`, each calling the next names in its chain.
fn chained_skills(chains: &[(String, Vec<String>)]) -> Vec<Diagnostic> {
    let changes: Vec<skillgraph::index::Change> = chains
        .iter()
        .map(|(name, calls)| {
            let chain = if calls.is_empty() {
                String::new()
            } else {
                format!("metadata:\n  chain: [{}]\n", calls.join(", "))
            };
            skillgraph::index::Change::Set {
                path: std::path::PathBuf::from(format!("/r/s/{name}/SKILL.md")),
                text: format!(
                    "---\nname: {name}\ndescription: Does {name}.\n{chain}---\n# {name}\n"
                )
                .into(),
            }
        })
        .collect();
    skillgraph::check::check_changes(changes, std::path::PathBuf::from("/")).diagnostics
}

#[test]
fn a_chain_loop_longer_than_any_old_cap_is_one_cycle() {
    let n = 2_500;
    let chains = chain_of(n, |i| format!("s{i:04}"), Some(0));
    let found = chained_skills(&chains);
    assert_eq!(
        count(&found, "skillmd.chain-cycle"),
        1,
        "{:?}",
        found.first()
    );
    assert_eq!(count(&found, "skillmd.chain-depth"), 0);
    assert!(found[0]
        .message
        .contains("s0000 → s0001 → s0002 → s0003 → s0004 → s0005 → … 2,490 more … → s2496 → s2497 → s2498 → s2499 → s0000"));
    assert_bounded(&found);
}

#[test]
fn a_long_chain_nests_too_deep_at_every_level_above_max_depth() {
    let n = 300;
    let chains = chain_of(n, |i| format!("s{i:03}"), None);
    let found = chained_skills(&chains);
    // s000 nests 299 deep, …, s288 nests 11 deep; s289 nests 10, the default limit.
    assert_eq!(count(&found, "skillmd.chain-depth"), 289);
    let top = saying(&found, "299 levels");
    assert_contains(&top.message, "(s000 → s001 → s002 → s003 → s004 → s005 → … 289 more … → s295 → s296 → s297 → s298 → s299)");
    assert_eq!(top.related.len(), MAX_RELATED - 1);
    assert_bounded(&found);
}

#[test]
fn a_long_chain_into_a_loop_never_ends_and_says_so_briefly() {
    let n = 300;
    let chains = chain_of(n, |i| format!("s{i:03}"), Some(n - 2));
    let found = chained_skills(&chains);
    assert_eq!(count(&found, "skillmd.chain-cycle"), 1);
    assert_eq!(count(&found, "skillmd.chain-depth"), n - 2);
    let top = saying(&found, "s000 →");
    assert_contains(&top.message, "s000 → s001 → s002 → s003 → s004 → s005 → … 288 more … → s294 → s295 → s296 → s297 → s298 reaches a loop");
    assert_bounded(&found);
}

/// The chain graph ignores where entries are, so typing above another member's chain does not
/// rebuild it; the cycle's related locations must still point at that member's entry as it reads
/// now, and the edit must re-check only the files that show it.
#[test]
fn a_chain_cycle_follows_a_member_whose_entries_moved() {
    use skillgraph::index::{Change, Index};
    let skill = |name: &str, description: &str, calls: &str| Change::Set {
        path: std::path::PathBuf::from(format!("/r/s/{name}/SKILL.md")),
        text: format!(
            "---\nname: {name}\ndescription: {description}\nmetadata:\n  chain: [{calls}]\n---\n"
        )
        .into(),
    };
    let mut files: Vec<Change> = vec![skill("a", "Does a.", "b"), skill("b", "Does b.", "a")];
    // Bystanders with chains of their own: they read the graph, but nothing they show moves.
    for k in 0..20 {
        files.push(skill(&format!("c{k:02}"), "Does c.", "a"));
    }
    let mut index = Index::new(&skillgraph::rules::CHECKS);
    index.apply(files);
    let longer = skill("b", "Does b, and says so at some length.", "a");
    let affected = index.apply(vec![longer.clone()]);
    let fresh = skillgraph::check::check_changes(
        vec![skill("a", "Does a.", "b"), longer],
        std::path::PathBuf::from("/"),
    );
    let cycle_of = |index: &Index| {
        let a = index
            .file_id(std::path::Path::new("/r/s/a/SKILL.md"))
            .unwrap();
        let found: Vec<Diagnostic> = index
            .diagnostics(a)
            .into_iter()
            .filter(|d| d.code == "skillmd.chain-cycle")
            .collect();
        assert_eq!(found.len(), 1, "{found:#?}");
        found[0]
            .related
            .iter()
            .map(|r| (r.range.start, r.range.end))
            .collect::<Vec<_>>()
    };
    assert_eq!(cycle_of(&index), cycle_of(&fresh.index));
    assert!(
        affected.len() <= 3,
        "moving one chain's entries re-checked {} files",
        affected.len()
    );
}

#[test]
fn many_unknown_depends_on_entries_each_get_their_suggestion() {
    // One agent naming 900 agents that do not exist, each one edit away from one that does:
    // the agent ids are sorted for the suggestions once, and "already named" is a set lookup.
    let n = 900;
    let mut children: Vec<(String, Vec<String>)> =
        (0..n).map(|i| (format!("agent-{i}"), Vec::new())).collect();
    children.push((
        "waiter".to_owned(),
        (0..n).map(|i| format!("agent-{i}x")).collect(),
    ));
    let (outcome, found) = diagnostics_of(
        &with_baseline(&team_depending(&children)),
        "agent.depends-on-unknown",
    );
    assert_eq!(found.len(), n);
    assert_contains(&found[567].message, "did you mean `agent-567`?");
    assert_bounded(&outcome.diagnostics);
}

#[test]
fn many_requires_rules_naming_unheld_skills_each_get_their_suggestion() {
    // 900 held skills and 900 rules guarding ids the agent does not hold (under the cap of
    // diagnostics per file).
    let n = 900;
    let rules: Vec<(String, Vec<String>)> = (0..n)
        .map(|i| (format!("s{i}x"), vec![format!("s{i}")]))
        .collect();
    let (outcome, found) = diagnostics_of(&requiring(n, &rules), "agent.requires-unknown-skill");
    assert_eq!(found.len(), n);
    assert_contains(&found[777].message, "did you mean `s777`?");
    assert_bounded(&outcome.diagnostics);
}
