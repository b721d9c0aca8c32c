//! Links of a SKILL.md into its bundled files, resolved against the listing discovery hands in.

#[path = "support/text.rs"]
mod text;
use text::assert_contains;

#[path = "support/found.rs"]
mod found;

use std::path::PathBuf;

use found::{assert_silent, check_changes_found, Found};
use skillgraph::check::check_changes;
use skillgraph::index::{Change, Index};

fn skill_files(dir: &str, files: &[&str]) -> Change {
    Change::SkillFiles {
        dir: PathBuf::from(dir),
        files: files.iter().map(PathBuf::from).collect(),
    }
}

fn check(text: &str, files: &[&str]) -> Vec<Found> {
    let changes = vec![
        Change::Set {
            path: PathBuf::from("/r/skills/pdf/SKILL.md"),
            text: text.into(),
        },
        skill_files("/r/skills/pdf", files),
    ];
    check_changes_found(changes)
}

const FILES: &[&str] = &[
    "SKILL.md",
    "LICENSE.txt",
    "references/api.md",
    "references/forms.md",
    "scripts/fill.py",
    "assets/logo one.png",
];

fn skill(body: &str) -> String {
    format!("---\nname: pdf\ndescription: Fills PDF forms.\nlicense: Complete terms in LICENSE.txt\n---\n{body}")
}

#[test]
fn links_that_resolve_are_silent() {
    let body = "See [the API](references/api.md#auth) and [forms](./references/forms.md).\n\
![logo](assets/logo%20one.png)\n[def]: references/\nRun `python {baseDir}/scripts/fill.py` or \
${CLAUDE_SKILL_DIR}/scripts/fill.py.\n[web](https://example.com), [anchor](#top), [abs](/etc/hosts).\n\
Inline code is left alone: `reference/nothing.md`.\n```\n[in a fence](gone.md)\n```\n";
    let found = check(&skill(body), FILES);
    assert_silent(&found);
}

#[test]
fn a_missing_target_is_a_warning_with_the_nearest_path() {
    let body = "Read [the API](reference/api.md) first.\n";
    let found = check(&skill(body), FILES);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].code, "skillmd.broken-link");
    assert_eq!(found[0].text, "reference/api.md");
    assert_contains(&found[0].message, "did you mean `references/api.md`?");
    // In code, a placeholder path is still the skill's folder.
    let found = check(&skill("Run `{baseDir}/scripts/fil.py`.\n"), FILES);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].text, "{baseDir}/scripts/fil.py");
    assert!(found[0].message.contains("`scripts/fill.py`"));
    // With nothing near, the message says what to do.
    let found = check(&skill("[x](docs/unrelated.md)\n"), FILES);
    assert!(found[0].message.contains("fix the path or add the file"));
    // A license file that is not there.
    let text = "---\nname: pdf\ndescription: d\nlicense: LICENSE.md\n---\n";
    let found = check(text, FILES);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].text, "LICENSE.md");
}

#[test]
fn a_link_leaving_the_folder_is_flagged() {
    let found = check(&skill("[shared](../shared/notes.md)\n"), FILES);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].code, "skillmd.link-outside");
    assert_eq!(found[0].text, "../shared/notes.md");
    // Going up and back in stays inside.
    assert!(check(&skill("[a](../pdf/references/api.md)\n"), FILES).is_empty());
}

#[test]
fn plugin_root_paths_resolve_through_the_plugin() {
    let changes = vec![
        Change::Set {
            path: PathBuf::from("/plug/skills/pdf/SKILL.md"),
            text: skill("Run ${CLAUDE_PLUGIN_ROOT}/skills/pdf/scripts/fill.py and ${CLAUDE_PLUGIN_ROOT}/skills/pdf/scripts/gone.py and ${CLAUDE_PLUGIN_ROOT}/hooks/x.sh.\n").into(),
        },
        skill_files("/plug/skills/pdf", FILES),
    ];
    let outcome = check_changes(changes, PathBuf::from("/"));
    let codes: Vec<&str> = outcome.diagnostics.iter().map(|d| d.code.name()).collect();
    // Only the missing file inside the skill; the hook elsewhere in the plugin is not judged.
    assert_eq!(codes, ["skillmd.broken-link"]);
}

#[test]
fn without_a_listing_nothing_is_said() {
    let outcome = check_changes(
        vec![Change::Set {
            path: PathBuf::from("/r/skills/pdf/SKILL.md"),
            text: skill("[gone](gone.md)\n").into(),
        }],
        PathBuf::from("/"),
    );
    assert!(outcome.diagnostics.is_empty(), "{:#?}", outcome.diagnostics);
}

#[test]
fn a_file_appearing_re_checks_the_skill() {
    let mut index = Index::new(&skillgraph::rules::CHECKS);
    index.apply(vec![
        Change::Set {
            path: PathBuf::from("/r/skills/pdf/SKILL.md"),
            text: skill("[new](references/new.md)\n").into(),
        },
        skill_files("/r/skills/pdf", FILES),
    ]);
    let id = index
        .file_id(&PathBuf::from("/r/skills/pdf/SKILL.md"))
        .unwrap();
    assert_eq!(index.diagnostics(id).len(), 1);
    let mut more: Vec<&str> = FILES.to_vec();
    more.push("references/new.md");
    let touched = index.apply(vec![skill_files("/r/skills/pdf", &more)]);
    assert!(touched.contains(&id));
    assert!(index.diagnostics(id).is_empty());
    // And going again brings the warning back.
    index.apply(vec![skill_files("/r/skills/pdf", FILES)]);
    assert_eq!(index.diagnostics(id).len(), 1);
}

#[test]
fn discovery_hands_in_the_bundled_files() {
    let root = std::env::temp_dir().join(format!("skillgraph-links-{}", std::process::id()));
    let dir = root.join(".claude/skills/pdf");
    std::fs::create_dir_all(dir.join("references")).unwrap();
    std::fs::write(
        dir.join("SKILL.md"),
        skill("[api](references/api.md) [gone](references/gone.md)\n"),
    )
    .unwrap();
    std::fs::write(dir.join("references/api.md"), "# API\n").unwrap();
    std::fs::write(dir.join("LICENSE.txt"), "terms\n").unwrap();
    let (changes, errors) = skillgraph::discover::discover(std::slice::from_ref(&root));
    assert!(errors.is_empty());
    let listed = changes.iter().find_map(|c| match c {
        Change::SkillFiles { dir: d, files } if *d == dir => Some(files.clone()),
        _ => None,
    });
    let mut listed = listed.expect("a listing for the skill folder");
    listed.sort();
    assert_eq!(
        listed,
        ["LICENSE.txt", "SKILL.md", "references/api.md"].map(PathBuf::from)
    );
    let outcome = check_changes(changes, root.clone());
    let codes: Vec<&str> = outcome.diagnostics.iter().map(|d| d.code.name()).collect();
    assert_eq!(codes, ["skillmd.broken-link"]);
    // A SKILL.md checked on its own still has its folder listed.
    let (changes, _) = skillgraph::discover::discover(&[dir.join("SKILL.md")]);
    assert!(changes
        .iter()
        .any(|c| matches!(c, Change::SkillFiles { .. })));
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn a_large_folder_and_many_broken_links_each_get_their_suggestion() {
    // 5,000 bundled files in one folder and 900 links, each one edit from a file: the folder's
    // entries are listed and sorted once, and each link searches them.
    let names: Vec<String> = (0..5_000).map(|i| format!("refs/page-{i}.md")).collect();
    let mut files: Vec<&str> = names.iter().map(String::as_str).collect();
    files.extend(["SKILL.md", "LICENSE.txt"]);
    let body: String = (0..900)
        .map(|i| format!("[p](refs/page-{i}.mdx) "))
        .collect();
    let found = check(&skill(&body), &files);
    let broken: Vec<&Found> = found
        .iter()
        .filter(|f| f.code == "skillmd.broken-link")
        .collect();
    assert_eq!(broken.len(), 900);
    assert_eq!(broken[321].text, "refs/page-321.mdx");
    assert_contains(&broken[321].message, "did you mean `refs/page-321.md`?");
}

#[test]
fn links_into_a_nested_skill_resolve_through_its_own_listing() {
    // The parent's listing stops at the nested skill (its SKILL.md stands for it); the nested
    // skill lists its own files.
    let changes = vec![
        Change::Set {
            path: PathBuf::from("/r/skills/pdf/SKILL.md"),
            text: skill(
                "[ok](forms/references/f.md) [missing](forms/references/g.md) [nested](forms/SKILL.md) [typo](forms/reference/f.md)\n",
            )
            .into(),
        },
        Change::Set {
            path: PathBuf::from("/r/skills/pdf/forms/SKILL.md"),
            text: "---\nname: forms\ndescription: d\n---\n".into(),
        },
        skill_files("/r/skills/pdf", &["SKILL.md", "LICENSE.txt", "forms/SKILL.md"]),
        skill_files("/r/skills/pdf/forms", &["SKILL.md", "references/f.md"]),
    ];
    let outcome = check_changes(changes, PathBuf::from("/"));
    let broken: Vec<String> = outcome
        .diagnostics
        .iter()
        .filter(|d| d.code == "skillmd.broken-link")
        .map(|d| {
            let entry = outcome.index.file(d.file).unwrap();
            entry.text[d.range.start as usize..d.range.end as usize].to_owned()
        })
        .collect();
    assert_eq!(broken, ["forms/references/g.md", "forms/reference/f.md"]);
    // The suggestion goes on into the nested skill's listing too.
    let typo = outcome
        .diagnostics
        .iter()
        .find(|d| d.message.contains("`forms/reference/f.md`"))
        .unwrap();
    assert_contains(&typo.message, "did you mean `forms/references/f.md`?");
}
