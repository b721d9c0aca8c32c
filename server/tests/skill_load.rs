//! The skill as the host loads it: the body's budget, the bundled files the model will not find,
//! and (Claude Code) the arguments substituted into the body.

#[path = "support/text.rs"]
mod text;
use text::assert_contains;

#[path = "support/found.rs"]
mod found;

use std::path::PathBuf;

use found::{check_changes_found as check_with, codes_on, Found};
use skillgraph::index::Change;

fn check(text: &str) -> Vec<Found> {
    check_with(vec![Change::Set {
        path: PathBuf::from("/r/skills/pdf/SKILL.md"),
        text: text.into(),
    }])
}

fn skill(body: &str) -> String {
    format!("---\nname: pdf\ndescription: Fills PDF forms.\n---\n{body}")
}

fn only<'a>(found: &'a [Found], code: &str) -> Vec<&'a Found> {
    found.iter().filter(|f| f.code == code).collect()
}

/// The one diagnostic of `found` with `code`; fails, listing them all, unless there is one.
#[track_caller]
fn the_one<'a>(found: &'a [Found], code: &str) -> &'a Found {
    let of_code = only(found, code);
    assert_eq!(of_code.len(), 1, "{found:?}");
    of_code[0]
}

#[test]
fn a_body_within_budget_is_silent() {
    let body = "# PDF\n\nFill the form.\n".repeat(160);
    assert!(only(&check(&skill(&body)), "skillmd.body-budget").is_empty());
}

#[test]
fn a_long_body_gets_one_warning_on_the_first_line_past_the_budget() {
    let body: String = (1..=620).map(|i| format!("line {i}\n")).collect();
    let found = check(&skill(&body));
    let budget = the_one(&found, "skillmd.body-budget");
    assert_eq!(budget.text, "line 501");
    assert!(
        budget.message.contains("620 lines") && budget.message.contains("references/"),
        "{}",
        budget.message
    );
    assert!(!budget.message.contains("tokens"));
}

#[test]
fn a_body_past_both_budgets_is_one_diagnostic_naming_the_estimate() {
    let line = "x".repeat(99);
    let body: String = (0..600).map(|_| format!("{line}\n")).collect();
    let found = check(&skill(&body));
    let budget = the_one(&found, "skillmd.body-budget");
    let message = &budget.message;
    assert_contains(message, "600 lines");
    assert_contains(
        message,
        "about 15,000 tokens (estimated at 4 characters a token",
    );
}

#[test]
fn a_four_megabyte_body_is_checked_in_one_pass() {
    let body = "word ".repeat(800_000);
    let started = std::time::Instant::now();
    let found = check(&skill(&body));
    assert_eq!(only(&found, "skillmd.body-budget").len(), 1);
    // Not a timing test: a pass that were quadratic would not finish at all.
    let _ = started.elapsed();
}

// ---- Bundled files the model will not find ----

use std::sync::Arc;

use skillgraph::model::bundled::{is_markdown, scan_markdown, Bundled, BundledFile};

/// The listing and the facts discovery would hand in for `files` (`(path, text)`; a text is
/// read when the path is Markdown).
fn folder(dir: &str, files: &[(&str, &str)]) -> Vec<Change> {
    let mut bundled: Vec<BundledFile> = files
        .iter()
        .map(|(path, text)| BundledFile {
            path: PathBuf::from(path),
            bytes: text.len() as u64,
            markdown: (is_markdown(std::path::Path::new(path)) && !path.ends_with("SKILL.md"))
                .then(|| scan_markdown(text)),
        })
        .collect();
    bundled.sort_by(|a, b| a.path.cmp(&b.path));
    vec![
        Change::SkillFiles {
            dir: PathBuf::from(dir),
            files: files.iter().map(|(p, _)| PathBuf::from(p)).collect(),
        },
        Change::Bundled {
            dir: PathBuf::from(dir),
            bundled: Arc::new(Bundled { files: bundled }),
        },
    ]
}

fn check_folder(body: &str, files: &[(&str, &str)]) -> Vec<Found> {
    let mut changes = vec![Change::Set {
        path: PathBuf::from("/r/skills/pdf/SKILL.md"),
        text: skill(body).into(),
    }];
    changes.extend(folder("/r/skills/pdf", files));
    check_with(changes)
}

#[test]
fn every_file_named_some_way_is_silent() {
    let files = [
        ("SKILL.md", ""),
        ("README.md", "# readme"),
        ("LICENSE.txt", "MIT"),
        (".hidden/notes.txt", ""),
        (
            "references/api.md",
            "See [forms](forms.md) and run `../scripts/fill.py`.",
        ),
        ("references/forms.md", "# Forms"),
        ("scripts/fill.py", ""),
        ("scripts/lib/helpers.py", ""),
        ("assets/a b.png", ""),
        ("fonts/x.ttf", ""),
        ("fonts/y.ttf", ""),
        ("REFERENCE.md", "# ref"),
        ("core/gif.py", ""),
        ("requirements.txt", ""),
        ("templates/t.md", ""),
    ];
    let body = "Read [the API](references/api.md) and references/forms.md. Use ![logo](assets/a%20b.png), fonts in `./fonts`, \
see reference.md, `from core.gif import x`, and {baseDir}/templates/t.md.\n";
    let found = check_folder(body, &files);
    assert!(
        found
            .iter()
            .all(|f| !f.code.starts_with("skillmd.orphan")
                && !f.code.starts_with("skillmd.reference")),
        "{found:?}"
    );
}

#[test]
fn files_named_nowhere_are_one_information_naming_them() {
    let found = check_folder(
        "Read references/api.md.\n",
        &[
            ("SKILL.md", ""),
            ("references/api.md", "# API"),
            ("references/old.md", "# Old"),
            ("assets/unused.png", ""),
        ],
    );
    let orphans = the_one(&found, "skillmd.orphan-files");
    assert_eq!(orphans.text, "pdf");
    assert!(
        orphans
            .message
            .starts_with("2 bundled files are named nowhere")
            && orphans
                .message
                .contains("`assets/unused.png`, `references/old.md`"),
        "{}",
        orphans.message
    );
}

#[test]
fn orphans_are_bounded_to_twenty_names_and_a_count() {
    let names: Vec<String> = (0..100_000).map(|i| format!("data/f{i:06}.bin")).collect();
    let mut files: Vec<(&str, &str)> = names.iter().map(|n| (n.as_str(), "")).collect();
    files.push(("SKILL.md", ""));
    let found = check_folder("Nothing named.\n", &files);
    let orphans = the_one(&found, "skillmd.orphan-files");
    assert_contains(&orphans.message, "`data/f000019.bin` and 99980 more");
}

#[test]
fn a_reference_reached_only_through_another_is_too_deep() {
    let files = [
        ("SKILL.md", ""),
        ("references/a.md", "Then read [b](b.md)."),
        ("references/b.md", "Data: `data/table.csv`, and c.md."),
        ("references/c.md", "# C"),
        ("data/table.csv", ""),
    ];
    let found = check_folder("Read [a](references/a.md).\n", &files);
    let deep = only(&found, "skillmd.reference-depth");
    // b.md and c.md; the CSV is data a reference mentions, not a reference.
    assert_eq!(deep.len(), 2, "{found:?}");
    assert_eq!(deep[0].text, "references/a.md");
    assert_contains(
        &deep[0].message,
        "SKILL.md → `references/a.md` → `references/b.md`",
    );
    assert_contains(&deep[1].message, "3 levels below");
    // Named in SKILL.md as well: one level deep.
    let found = check_folder(
        "Read [a](references/a.md), references/b.md and references/c.md.\n",
        &files,
    );
    assert!(
        only(&found, "skillmd.reference-depth").is_empty(),
        "{found:?}"
    );
}

#[test]
fn a_pattern_names_every_file_it_matches() {
    // As anthropics/skills' claude-api names its concept files and per-language READMEs.
    let files = [
        ("SKILL.md", ""),
        ("shared/agents-core.md", "# Core"),
        ("shared/agents-tools.md", "# Tools"),
        ("shared/other.md", "# Other"),
        (
            "python/agents/README.md",
            "See ../../shared/agents-core.md.",
        ),
        ("go/agents/README.md", "# Go"),
        ("go/agents/client.go", ""),
    ];
    let body = "Read **`shared/agents-*.md`** and `{lang}/agents/README.md`.
";
    let found = check_folder(body, &files);
    assert!(
        only(&found, "skillmd.reference-depth").is_empty(),
        "{found:?}"
    );
    let orphans = the_one(&found, "skillmd.orphan-files");
    assert!(
        orphans.message.starts_with("2 bundled files are named")
            && orphans
                .message
                .contains("`go/agents/client.go`, `shared/other.md`")
            && !orphans.message.contains("million"),
        "{}",
        orphans.message
    );
    // Wildcards alone name nothing.
    let found = check_folder(
        "Read `*` and `{lang}/*`.
",
        &files,
    );
    assert!(
        only(&found, "skillmd.orphan-files")[0]
            .message
            .starts_with("6 bundled files"),
        "{found:?}"
    );
    // Hostile: 100,000 patterns over 100,000 files stays bounded (a budget of comparisons).
    let names: Vec<String> = (0..100_000).map(|i| format!("d/f{i:06}.md")).collect();
    let mut many: Vec<(&str, &str)> = names.iter().map(|n| (n.as_str(), "")).collect();
    many.push(("SKILL.md", ""));
    let body: String = (0..100_000).map(|i| format!("d/*{i:06}*.md ")).collect();
    let found = check_folder(&body, &many);
    let orphans = only(&found, "skillmd.orphan-files");
    assert_eq!(orphans.len(), 1);
    assert_contains(
        &orphans[0].message,
        "matched only up to a million comparisons",
    );
}

#[test]
fn a_long_reference_needs_a_table_of_contents() {
    let long = format!("# API\n\n{}", "text\n".repeat(400));
    let with_toc = format!(
        "# API\n\n## Contents\n- [Setup](#setup)\n{}",
        "text\n".repeat(400)
    );
    let files = [
        ("SKILL.md", ""),
        ("references/long.md", long.as_str()),
        ("references/toc.md", with_toc.as_str()),
        ("references/short.md", "# short\n"),
    ];
    let found = check_folder(
        "See references/long.md, references/toc.md and references/short.md.\n",
        &files,
    );
    let toc = the_one(&found, "skillmd.reference-toc");
    assert_eq!(toc.text, "references/long.md");
    assert_contains(&toc.message, "402 lines");
}

#[test]
fn a_skill_checked_without_its_folder_says_nothing_of_bundled_files() {
    let found = check(&skill("Read references/api.md.\n"));
    assert!(found.iter().all(|f| !f.code.starts_with("skillmd.orphan")));
}

#[test]
fn adding_a_link_clears_an_orphan_and_rechecks_no_other_skill() {
    use skillgraph::index::Index;
    let mut index = Index::new(&skillgraph::rules::CHECKS);
    let mut changes = Vec::new();
    for name in ["pdf", "docx"] {
        changes.push(Change::Set {
            path: PathBuf::from(format!("/r/skills/{name}/SKILL.md")),
            text: format!("---\nname: {name}\ndescription: d\n---\nNothing named.\n").into(),
        });
        let dir = format!("/r/skills/{name}");
        changes.extend(folder(
            &dir,
            &[("SKILL.md", ""), ("references/a.md", "# A")],
        ));
    }
    index.apply(changes);
    let pdf = index
        .file_id(std::path::Path::new("/r/skills/pdf/SKILL.md"))
        .unwrap();
    assert!(codes_on(&index, pdf).contains(&"skillmd.orphan-files"));
    let touched = index.apply(vec![Change::Set {
        path: PathBuf::from("/r/skills/pdf/SKILL.md"),
        text: "---\nname: pdf\ndescription: d\n---\nRead references/a.md.\n".into(),
    }]);
    assert!(!codes_on(&index, pdf).contains(&"skillmd.orphan-files"));
    assert_eq!(touched.into_iter().collect::<Vec<_>>(), [pdf]);
}

#[test]
fn discovery_reads_bundled_markdown_and_survives_loops_and_binary_files() {
    use skillgraph::discover::discover;
    let dir = tempfile::tempdir().unwrap();
    let skill_dir = dir.path().join("skills/pdf");
    let write = |relative: &str, bytes: &[u8]| {
        let path = skill_dir.join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    };
    write("SKILL.md", skill("Read references/a.md.\n").as_bytes());
    write("references/a.md", b"Then [b](b.md).\n");
    write("references/b.md", b"# B\n");
    // A binary file named `.md`: read lossily, scanned once, names nothing.
    let binary: Vec<u8> = (0..200_000u32).map(|i| (i * 7919 % 256) as u8).collect();
    write("references/blob.md", &binary);
    #[cfg(unix)]
    {
        // A loop of symlinks under references/: not followed, not listed.
        std::os::unix::fs::symlink(
            skill_dir.join("references"),
            skill_dir.join("references/loop"),
        )
        .unwrap();
        std::os::unix::fs::symlink("x2", skill_dir.join("references/x1")).unwrap();
        std::os::unix::fs::symlink("x1", skill_dir.join("references/x2")).unwrap();
    }
    let (changes, errors) = discover(&[dir.path().to_owned()]);
    assert!(errors.is_empty(), "{errors:?}");
    let bundled = changes
        .iter()
        .find_map(|c| match c {
            Change::Bundled { bundled, .. } => Some(bundled.clone()),
            _ => None,
        })
        .expect("the skill folder's files are handed in");
    let paths: Vec<String> = bundled
        .files
        .iter()
        .map(|f| f.path.display().to_string())
        .collect();
    assert_eq!(
        paths,
        [
            "SKILL.md",
            "references/a.md",
            "references/b.md",
            "references/blob.md"
        ]
    );
    let a = bundled
        .get(std::path::Path::new("references/a.md"))
        .unwrap();
    assert_eq!(a.bytes, 16);
    assert_eq!(a.markdown.as_ref().unwrap().mentions, ["b.md"]);
    assert!(bundled.files[3].markdown.is_some());

    let found = check_with(changes);
    let codes: Vec<&str> = found.iter().map(|f| f.code).collect();
    assert!(codes.contains(&"skillmd.reference-depth"), "{found:?}");
    assert!(codes.contains(&"skillmd.orphan-files"), "{found:?}");
}

// ---- Arguments (Claude Code) ----

fn claude_skill(frontmatter: &str, body: &str) -> Vec<Found> {
    check_with(vec![Change::Set {
        path: PathBuf::from("/p/.claude/skills/fix/SKILL.md"),
        text: format!("---\nname: fix\ndescription: Fixes an issue.\n{frontmatter}---\n{body}")
            .into(),
    }])
}

#[test]
fn a_positional_in_awk_or_sed_is_reported_with_the_escape() {
    let body =
        "Fix issue $ARGUMENTS.\n\n```bash\nawk '{print $1}' data.txt\ngh issue view $0\n```\n\
Then `sed -E 's/(v)([0-9])/\\1$2/' f` and `echo $1`.\n";
    let found = claude_skill("", body);
    let in_code = only(&found, "skillmd.argument-in-code");
    let texts: Vec<&str> = in_code.iter().map(|f| f.text.as_str()).collect();
    assert_eq!(texts, ["$1", "$2"], "{found:?}");
    assert_contains(&in_code[0].message, "write `\\$1`");
}

#[test]
fn a_skill_that_takes_no_arguments_is_not_judged() {
    let found = claude_skill("", "```bash\nawk '{print $1}' data.txt\n```\n");
    assert!(
        found
            .iter()
            .all(|f| !f.code.starts_with("skillmd.argument")),
        "{found:?}"
    );
    // Nor one no Claude Code folder or config puts before Claude Code.
    let found = check_with(vec![Change::Set {
        path: PathBuf::from("/p/.github/skills/fix/SKILL.md"),
        text: "---\nname: fix\ndescription: d\n---\n$ARGUMENTS\n```awk\n{print $1}\n```\n".into(),
    }]);
    assert!(
        found
            .iter()
            .all(|f| !f.code.starts_with("skillmd.argument")),
        "{found:?}"
    );
}

#[test]
fn named_arguments_declared_used_and_misspelt() {
    let found = claude_skill(
        "arguments: [issue, branch, extra]\nargument-hint: \"[issue] [branch]\"\n",
        "Fix $isue on $branch. Use $1 if given. Keep $HOME and `$var` alone.\n",
    );
    let undeclared = the_one(&found, "skillmd.argument-undeclared");
    assert_eq!(undeclared.text, "$isue");
    assert!(undeclared.message.contains("did you mean `$issue`?"));
    let unused = only(&found, "skillmd.argument-unused");
    // `issue` is the misspelling's (one mistake, one diagnostic); `branch` is used by name and
    // by `$1`.
    let unused: Vec<&str> = unused.iter().map(|f| f.text.as_str()).collect();
    assert_eq!(unused, ["extra"], "{found:?}");
    // `$ARGUMENTS` holds them all.
    let found = claude_skill("arguments: issue branch\n", "Fix $ARGUMENTS.\n");
    assert!(
        only(&found, "skillmd.argument-unused").is_empty(),
        "{found:?}"
    );
}

#[test]
fn a_positional_reported_as_shell_syntax_uses_no_argument() {
    // `$1` in awk is awk's field, not the use of `branch`: `branch` is reported unused now, so
    // escaping the `$1` (the fix) brings no new diagnostic.
    let found = claude_skill(
        "arguments: [issue, branch]\n",
        "Fix $issue.\n\n```bash\nawk '{print $1}' data.txt\n```\n",
    );
    let texts =
        |code| -> Vec<String> { only(&found, code).iter().map(|f| f.text.clone()).collect() };
    assert_eq!(texts("skillmd.argument-in-code"), ["$1"], "{found:?}");
    assert_eq!(texts("skillmd.argument-unused"), ["branch"], "{found:?}");
    let escaped = claude_skill(
        "arguments: [issue, branch]\n",
        "Fix $issue.\n\n```bash\nawk '{print \\$1}' data.txt\n```\n",
    );
    assert!(
        only(&escaped, "skillmd.argument-in-code").is_empty(),
        "{escaped:?}"
    );
    assert_eq!(
        only(&escaped, "skillmd.argument-unused").len(),
        1,
        "{escaped:?}"
    );
}

#[test]
fn indexed_arguments_without_a_hint_are_information() {
    let found = claude_skill("", "Deploy $ARGUMENTS[0] to $1.\n");
    let hint = the_one(&found, "skillmd.argument-hint-missing");
    assert_eq!(hint.text, "$ARGUMENTS[0]");
    let found = claude_skill(
        "argument-hint: \"[app] [env]\"\n",
        "Deploy $ARGUMENTS[0] to $1.\n",
    );
    assert!(only(&found, "skillmd.argument-hint-missing").is_empty());
}

#[test]
fn an_index_of_eleven_digits_is_a_placeholder_like_any_other() {
    let found = claude_skill(
        "argument-hint: \"[x]\"\n",
        &"$ARGUMENTS[99999999999] ".repeat(100_000),
    );
    assert!(
        found
            .iter()
            .all(|f| !f.code.starts_with("skillmd.argument")),
        "{found:?}"
    );
}
