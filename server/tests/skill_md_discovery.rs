//! SKILL.md discovery on a real directory tree: skills in dot-directories are found; `.git`,
//! `node_modules`, `target` and `.gitignore`d folders are skipped; symlinks are not followed, so a
//! loop or a link out of the root costs nothing.

use std::path::Path;

use skillgraph::check::check_changes;
use skillgraph::discover::discover;
use skillgraph::index::Change;

fn write(root: &Path, relative: &str, text: &str) {
    let path = root.join(relative);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn skill(name: &str) -> String {
    format!("---\nname: {name}\ndescription: Does {name} things.\n---\n# {name}\n")
}

#[test]
fn finds_skills_where_hosts_keep_them_and_nowhere_else() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for found in [
        ".claude/skills/a",
        ".agents/skills/b",
        ".github/skills/c",
        "skills/.curated/d",
        "plugins/p/skills/e",
    ] {
        let name = found.rsplit('/').next().unwrap();
        write(root, &format!("{found}/SKILL.md"), &skill(name));
    }
    for skipped in [".git/x", "node_modules/pkg/x", "target/x", "ignored/x"] {
        write(root, &format!("{skipped}/SKILL.md"), "not even frontmatter");
    }
    write(root, ".gitignore", "ignored/\n");
    // Only a file named exactly SKILL.md is a skill.
    write(root, "notes/x/skill.md", "no frontmatter");
    write(root, "notes/x/README.md", "no frontmatter");

    let outside = tempfile::tempdir().unwrap();
    write(outside.path(), "z/SKILL.md", "no frontmatter");
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(root, root.join("loop")).unwrap();
        std::os::unix::fs::symlink(outside.path(), root.join("out")).unwrap();
    }

    let (changes, errors) = discover(&[root.to_owned()]);
    assert!(errors.is_empty(), "{errors:?}");
    let mut found: Vec<String> = changes
        .iter()
        .filter_map(|change| match change {
            Change::Set { path, .. } | Change::SetDecoded { path, .. } => Some(
                path.strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/"),
            ),
            Change::Remove { .. } | Change::SkillFiles { .. } | Change::Bundled { .. } => None,
        })
        .filter(|path| path.ends_with(".md"))
        .collect();
    found.sort();
    assert_eq!(
        found,
        [
            ".agents/skills/b/SKILL.md",
            ".claude/skills/a/SKILL.md",
            ".github/skills/c/SKILL.md",
            "plugins/p/skills/e/SKILL.md",
            "skills/.curated/d/SKILL.md",
        ]
    );

    let outcome = check_changes(changes, root.to_owned());
    assert!(outcome.diagnostics.is_empty(), "{:#?}", outcome.diagnostics);
}
