//! Every message that quotes a corrected value proposes one that is valid: written in place of
//! what was there, the diagnostic is gone and no other problem of the same kind takes its place.
//! Before, a name was lower-cased into a name still holding spaces, and a lone string was put
//! in brackets into a flow list that YAML reads as a mapping or a comment.

#[path = "support/text.rs"]
mod text;
use text::assert_contains;

mod support;

use support::*;

/// The value a message proposes: the text between "`" after `lead`.
fn proposed<'m>(message: &'m str, lead: &str) -> &'m str {
    let start = message
        .find(lead)
        .unwrap_or_else(|| panic!("no `{lead}` in: {message}"))
        + lead.len();
    let end = start + message[start..].find('`').expect("a closing backtick");
    &message[start..end]
}

/// (code, ranged text) of every diagnostic of `fixture` whose code starts with one of `prefixes`.
fn problems(fixture: &str, prefixes: &[&str]) -> Vec<(&'static str, String)> {
    check_all(fixture)
        .into_iter()
        .filter(|(_, code, _)| prefixes.iter().any(|p| code.starts_with(p)))
        .map(|(_, code, text)| (code, text))
        .collect()
}

/// What the one `code` diagnostic of a skill `c` (a name, a description, then `rest` in its
/// frontmatter) proposes after `lead`.
#[track_caller]
fn proposal_for(rest: &str, code: &str, lead: &str) -> String {
    let fixture = skill_c(rest);
    let (_, found) = diagnostics_of(&fixture, code);
    assert_eq!(found.len(), 1, "{found:#?}");
    proposed(&found[0].message, lead).to_owned()
}

fn skill_md(folder: &str, frontmatter: &str) -> String {
    format!("//- /r/skills/{folder}/SKILL.md\n---\n{frontmatter}---\n# Body\n")
}

/// A skill `c` whose frontmatter is a name, a description, then `rest`.
fn skill_c(rest: &str) -> String {
    skill_md("c", &format!("name: c\ndescription: d\n{rest}"))
}

#[test]
fn a_name_in_capitals_with_spaces_is_told_what_is_wrong_and_one_valid_name() {
    for folder in ["active-directory-attacks", "Active Directory Attacks"] {
        let fixture = skill_md(folder, "name: Active Directory Attacks\ndescription: d\n");
        let (_, found) = diagnostics_of(&fixture, "skillmd.name-format");
        assert_eq!(found.len(), 1, "{found:#?}");
        let message = &found[0].message;
        // What is wrong, and no lower-cased name that is still invalid.
        assert_contains(message, "the name must be lowercase");
        assert_contains(message, "space");
        assert!(!message.contains("`active directory attacks`"), "{message}");
        let name = proposed(message, "write `name: ");
        assert_eq!(name, "active-directory-attacks");
        assert_eq!(message.matches("write `").count(), 1, "{message}");
        let fixed = skill_md(
            &folder.to_lowercase().replace(' ', "-"),
            &format!("name: {name}\ndescription: d\n"),
        );
        assert_eq!(found_in(&fixed), Vec::<(&str, String)>::new());
    }
}

fn found_in(fixture: &str) -> Vec<(&'static str, String)> {
    problems(fixture, &["skillmd.", "yaml."])
}

#[test]
fn a_lone_chain_string_is_the_portable_form_and_reads_as_its_entries() {
    // A string chain is the portable form (docs/skill-md.md): its entries, split at commas.
    for (written, entries) in [
        ("\"review: strict\"", vec!["review: strict"]),
        ("\"#unit\"", vec!["#unit"]),
        ("unit, smoke", vec!["unit", "smoke"]),
    ] {
        let fixture = skill_c(&format!("metadata:\n  chain: {written}\n"));
        let (_, found) = diagnostics_of(&fixture, "skillmd.chain-shape");
        assert!(found.is_empty(), "{written}: {found:#?}");
        let text = fixture.split_once('\n').map_or("", |(_, t)| t);
        let frontmatter = skillgraph::syntax::split_frontmatter(text, 0);
        let yaml = skillgraph::syntax::frontmatter_yaml(text, &frontmatter);
        let skill = skillgraph::model::skill_md::SkillMd::lower(text, frontmatter, yaml.as_ref());
        let chain = skill.extensions.chain.expect("a chain");
        let read: Vec<&str> = chain.entries.iter().map(|e| e.value.as_str()).collect();
        assert_eq!(read, entries, "{written}");
    }
}

/// The one `code` diagnostic on `key:` holding `written` proposes `expected` after `lead`, and
/// that proposal, written under `key`, leaves no problem whose code starts with one of `prefixes`.
#[track_caller]
fn assert_proposal_is_valid(
    key: &str,
    written: &str,
    (code, lead): (&str, &str),
    expected: &str,
    prefixes: &[&str],
) {
    let proposal = proposal_for(&format!("{key}:\n  {written}\n"), code, lead);
    assert_eq!(proposal, expected);
    let fixed = skill_c(&format!("{key}:\n  {proposal}\n"));
    assert_eq!(problems(&fixed, prefixes), Vec::<(&str, String)>::new());
}

#[test]
fn a_lone_dependencies_string_is_proposed_as_a_list_yaml_reads_as_strings() {
    assert_proposal_is_valid(
        "dependencies",
        "tools: \"get_order: v2\"",
        ("skillmd.dependencies-shape", "write `"),
        "tools: [\"get_order: v2\"]",
        &["skillmd.dependencies-shape", "skillmd.yaml", "yaml."],
    );
}

#[test]
fn a_metadata_value_to_quote_is_shown_under_a_key_that_stays_one_key() {
    assert_proposal_is_valid(
        "metadata",
        "\"build: id\": 7",
        ("skillmd.metadata-shape", "quote it: `"),
        "\"build: id\": \"7\"",
        &["skillmd.", "yaml."],
    );
}

#[test]
fn lone_requires_prerequisites_are_proposed_as_a_list_of_strings() {
    let agents = |requires: &str| {
        with_baseline(&team(&format!(
            "root:\n  id: root\n  role: root\n  skills: [fetch, store]\n  requires:\n    store: {requires}\n"
        )))
    };
    for (written, expected) in [
        ("\"fetch: first\"", "[\"fetch: first\"]"),
        ("fetch, fetch", "[fetch, fetch]"),
    ] {
        let (_, found) = diagnostics_of(&agents(written), "agent.bad-requires");
        assert_eq!(found.len(), 1, "{written}: {found:#?}");
        let list = proposed(&found[0].message, "write `");
        assert_eq!(list, expected);
        let left = check(&agents(list));
        assert!(
            !left
                .iter()
                .any(|(_, code, _)| *code == "agent.bad-requires" || code.starts_with("yaml.")),
            "{list}: {left:#?}"
        );
    }
}
