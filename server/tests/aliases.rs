//! Values shared through YAML aliases are judged at each use: a diagnostic goes on the alias
//! that brings the value in, with the place it is written (inside the anchor) as related.

mod support;

use support::*;

#[test]
fn an_unknown_skill_shared_through_an_alias_is_reported_at_each_use() {
    let fixture = with_baseline(&team(
        "root:\n  id: root\n  role: root\n  skills: &common [store, ghost]\n  children:\n    - id: a\n      role: worker\n      skills: *common\n    - id: b\n      role: worker\n      skills: *common\n",
    ));
    let found = check(&fixture);
    let unknown: Vec<_> = found
        .iter()
        .filter(|(_, code, _)| *code == "agent.unknown-skill")
        .collect();
    // Once where it is written, once on each agent's alias.
    assert_eq!(
        unknown,
        [
            &d("topologies/team.yaml", "agent.unknown-skill", "ghost"),
            &d("topologies/team.yaml", "agent.unknown-skill", "*common"),
            &d("topologies/team.yaml", "agent.unknown-skill", "*common"),
        ],
        "{found:?}"
    );
    let (outcome, diagnostics) = diagnostics_of(&fixture, "agent.unknown-skill");
    let related: Vec<_> = diagnostics
        .iter()
        .map(|d| related(&outcome.index, d))
        .collect();
    assert_eq!(related[0], vec![]);
    for through_alias in &related[1..] {
        assert_eq!(
            through_alias,
            &vec![(
                "topologies/team.yaml".to_owned(),
                "ghost".to_owned(),
                "written here, in the anchor the alias names".to_owned()
            )]
        );
    }
}

#[test]
fn known_skills_shared_through_an_alias_are_silent() {
    let fixture = with_baseline(&team(
        "root:\n  id: root\n  role: root\n  skills: &common [store]\n  children:\n    - id: a\n      role: worker\n      skills: *common\n",
    ));
    assert_eq!(check(&fixture), vec![]);
}

#[test]
fn a_scalar_alias_in_a_list_is_judged_where_it_is_used() {
    let fixture = with_baseline(&team(
        "root:\n  id: root\n  role: root\n  x-name: &name ghost\n  skills: [store, *name]\n",
    ));
    let (outcome, diagnostics) = diagnostics_of(&fixture, "agent.unknown-skill");
    assert_eq!(diagnostics.len(), 1);
    let d = &diagnostics[0];
    let text = &outcome.index.file(d.file).unwrap().text;
    assert_eq!(&text[d.range.start as usize..d.range.end as usize], "*name");
    assert_eq!(related(&outcome.index, d)[0].1, "ghost");
}
