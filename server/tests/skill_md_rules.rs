//! The SKILL.md spec checks, one fixture per behaviour: each code fires with a tight range (the
//! text under the range is asserted) and stays silent on valid input.

#[path = "support/text.rs"]
mod text;
use text::assert_contains;

#[path = "support/found.rs"]
mod found;

use std::path::PathBuf;

use found::{assert_silent, check_files as check, Found};
use skillgraph::diagnostic::Severity;
use skillgraph::index::{Change, Index};
use skillgraph::testing::set_files;

/// One SKILL.md at `/r/skills/<folder>/SKILL.md`.
fn check_one(folder: &str, text: &str) -> Vec<Found> {
    let path = format!("/r/skills/{folder}/SKILL.md");
    check(&[(&path, text)])
}

fn codes(found: &[Found]) -> Vec<&'static str> {
    found.iter().map(|f| f.code).collect()
}

#[track_caller]
fn assert_one(found: &[Found], code: &str, text: &str) -> String {
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].code, code, "{found:#?}");
    assert_eq!(found[0].text, text, "{found:#?}");
    found[0].message.clone()
}

/// For each `folder: text => code on ranged, saying part`: the text as
/// `/r/skills/<folder>/SKILL.md` reports that one diagnostic, over that text, and its message
/// holds `part` (`""` when the message is not the point).
macro_rules! reports_one {
    ($($folder:literal: $text:literal => $code:literal on $ranged:literal, saying $part:literal;)*) => {
        $(
            let found = check_one($folder, $text);
            let got: Vec<(&str, &str)> = found.iter().map(|f| (f.code, f.text.as_str())).collect();
            assert_eq!(got, [($code, $ranged)], "{:?}: {found:#?}", $text);
            assert_contains(&found[0].message, $part);
        )*
    };
}

const VALID: &str = "---\nname: pdf\ndescription: Reads PDF files. Use when the user mentions a PDF.\nlicense: MIT\ncompatibility: Needs poppler-utils.\nallowed-tools: Read Grep\nmetadata:\n  author: someone\n  version: \"1.0\"\n---\n# PDF\n\nBody with a rule:\n\n---\n\nmore: text: here\n";

#[test]
fn a_valid_skill_is_silent() {
    assert!(
        check_one("pdf", VALID).is_empty(),
        "{:#?}",
        check_one("pdf", VALID)
    );
}

#[test]
fn bom_crlf_and_host_fields_are_silent() {
    let text = "\u{feff}---\r\nname: pdf\r\ndescription: Reads PDFs.\r\nargument-hint: \"[file]\"\r\ndisable-model-invocation: true\r\nuser-invocable: false\r\nmodel: sonnet\r\ncontext: fork\r\nagent: Explore\r\nhooks:\r\n  on-activate: echo hi\r\ndependencies:\r\n  tools: [Read]\r\n---\r\nbody\r\n";
    let found = check_one("pdf", text);
    assert_silent(&found);
}

#[test]
fn no_frontmatter() {
    assert_one(&check_one("pdf", ""), "skillmd.no-frontmatter", "");
    reports_one! {
        "pdf": "# PDF skill\nname: pdf\n" => "skillmd.no-frontmatter" on "# PDF skill", saying "must start with a `---` line";
        "pdf": "\n---\nname: pdf\ndescription: x\n---\n" => "skillmd.no-frontmatter" on "", saying "blank lines";
        "pdf": "---yaml\nname: pdf\n---\n" => "skillmd.no-frontmatter" on "---yaml", saying "exactly `---`";
    }
}

#[test]
fn unclosed_frontmatter() {
    let found = check_one("pdf", "---\nname: pdf\ndescription: x\n# Body\n");
    assert_one(&found, "skillmd.unclosed-frontmatter", "---");
}

#[test]
fn yaml_parse_error_points_into_the_frontmatter() {
    let text = "---\nname: pdf\ndescription: Reads: PDFs\n---\nbody\n";
    let found = check_one("pdf", text);
    assert_eq!(codes(&found), ["skillmd.yaml-parse"], "{found:#?}");
    // The error sits on the description line, not anywhere in the body.
    let line = text.find("description").unwrap();
    let close = text.find("\n---\n").unwrap();
    assert!((line..close).contains(&found[0].start), "{found:#?}");
    assert!(
        found[0]
            .message
            .starts_with("the frontmatter is not valid YAML: "),
        "{found:#?}"
    );
}

#[test]
fn yaml_error_hides_missing_field_but_not_what_was_read() {
    let text = "---\nname: Bad_Name\ndescription: \"unterminated\n---\nbody\n";
    let found = check_one("Bad_Name", text);
    let codes = codes(&found);
    assert!(codes.contains(&"skillmd.yaml-parse"), "{found:#?}");
    assert!(codes.contains(&"skillmd.name-format"), "{found:#?}");
    assert!(!codes.contains(&"skillmd.missing-field"), "{found:#?}");
}

#[test]
fn duplicate_keys() {
    let text = "---\nname: pdf\ndescription: a\nname: pdf\n---\n";
    let found = check_one("pdf", text);
    assert_one(&found, "yaml.duplicate-key", "name");
    assert_eq!(found[0].related.len(), 1);
}

#[test]
fn not_a_mapping() {
    reports_one! {
        "pdf": "---\n---\nbody\n" => "skillmd.not-a-mapping" on "---", saying "empty";
        "pdf": "---\n# only a comment\n---\n" => "skillmd.not-a-mapping" on "---", saying "";
        "pdf": "---\njust text\n---\n" => "skillmd.not-a-mapping" on "just text", saying "";
    }
    let found = check_one("pdf", "---\n- name\n- pdf\n---\n");
    assert_eq!(codes(&found), ["skillmd.not-a-mapping"], "{found:#?}");
    assert!(found[0].text.starts_with("- name"), "{found:#?}");
    assert!(found[0].message.contains("list"), "{found:#?}");
}

#[test]
fn missing_fields() {
    reports_one! {
        "pdf": "---\ndescription: Reads PDFs.\n---\n" => "skillmd.missing-field" on "---", saying "`name:`";
        "pdf": "---\nname: pdf\n---\n" => "skillmd.missing-field" on "---", saying "`description:`";
    }
    let found = check_one("pdf", "---\nlicense: MIT\n---\n");
    assert_eq!(
        codes(&found),
        ["skillmd.missing-field", "skillmd.missing-field"]
    );
}

fn name_findings(folder: &str, name_line: &str) -> Vec<Found> {
    let text = format!("---\n{name_line}\ndescription: Does things.\n---\n");
    check_one(folder, &text)
        .into_iter()
        .filter(|f| f.code == "skillmd.name-format")
        .collect()
}

#[test]
fn name_format_says_which_rule_failed() {
    // Every broken rule in one diagnostic.
    let found = name_findings("My_Skill", "name: My_Skill");
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].text, "My_Skill");
    assert!(found[0].message.contains("must be lowercase"));
    // No lower-cased name that breaks another rule: one valid name, at the end.
    assert!(!found[0].message.contains("`my_skill`"), "{found:#?}");
    assert!(found[0].message.contains("`_`"));
    // The folder is no valid name either: the suggestion is one that is.
    assert!(
        found[0].message.contains("write `name: my-skill`"),
        "{found:#?}"
    );

    name_says("-pdf", "name: -pdf", "start or end with a hyphen");
    name_says("a--b", "name: a--b", "two hyphens");
    let long = "a".repeat(65);
    name_says(&long, &format!("name: {long}"), "65 characters");
    assert!(name_findings(&"a".repeat(64), &format!("name: {}", "a".repeat(64))).is_empty());
    assert_eq!(name_says("pdf", "name: \"\"", "empty").text, "\"\"");
    name_says("pdf", "name:\n  - pdf", "list");
    assert_contains(
        &name_findings("my skill", "name: my skill")[0].message,
        "space",
    );
}

/// The one finding of [`name_findings`], whose message holds `part`.
#[track_caller]
fn name_says(folder: &str, name_line: &str, part: &str) -> Found {
    let mut found = name_findings(folder, name_line);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_contains(&found[0].message, part);
    found.remove(0)
}

#[test]
fn one_mistake_one_diagnostic_and_a_valid_fix() {
    let found = check_one(
        "active-directory-attacks",
        "---\nname: Active Directory Attacks\ndescription: d\n---\n",
    );
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].code, "skillmd.name-format");
    assert_eq!(found[0].text, "Active Directory Attacks");
    assert_contains(
        &found[0].message,
        "write `name: active-directory-attacks`, the folder's name",
    );
    // The suggestion, written, is silent.
    assert!(check_one(
        "active-directory-attacks",
        "---\nname: active-directory-attacks\ndescription: d\n---\n"
    )
    .is_empty());
    // A valid name that differs from an invalid folder suggests only renaming the folder.
    let found = check_one("My Folder", "---\nname: my-folder\ndescription: d\n---\n");
    let message = assert_one(&found, "skillmd.name-mismatch", "my-folder");
    assert!(!message.contains("set `name: My Folder`"), "{message}");
}

#[test]
fn yaml_errors_say_the_likely_cause_where_it_is() {
    let text = "---\nname: pdf\ndescription: Use this: when reading PDFs\n---\n";
    let found = check_one("pdf", text);
    let message = assert_one(&found, "skillmd.yaml-parse", ":");
    assert_eq!(found[0].start, text.find("this:").unwrap() + 4);
    assert_contains(
        &message,
        "quote the value: `description: \"Use this: when reading PDFs\"`",
    );
    let fixed = "---\nname: pdf\ndescription: \"Use this: when reading PDFs\"\n---\n";
    assert!(check_one("pdf", fixed).is_empty());
    // A tab in the indentation is reported on its own line, not the line before.
    let text = "---\nname: pdf\ndescription: Reads PDFs.\nmetadata:\n  a: b\n\tc: d\n---\n";
    let found = check_one("pdf", text);
    let message = assert_one(&found, "skillmd.yaml-parse", "\t");
    assert_eq!(found[0].start, text.find('\t').unwrap());
    assert_contains(&message, "line 6 is indented with a tab");
}

#[test]
fn small_wordings() {
    let text = "---\nname: pdf\ndescription: d\nmetadata:\n  build: 2\n  version: 1.0\n---\n";
    let found = check_one("pdf", text);
    assert_eq!(found.len(), 2, "{found:#?}");
    assert_contains(&found[0].message, "is an integer");
    assert!(
        !found[0].message.contains("becomes"),
        "{}",
        found[0].message
    );
    assert_contains(&found[1].message, "(`1.0` becomes 1)");
    let found = check_one("pdf", "---\nname: pdf\ndescription: d\ntools: Read\n---\n");
    let message = assert_one(&found, "skillmd.unknown-field", "tools");
    assert_contains(&message, "did you mean `allowed-tools`?");
}

#[test]
fn name_unicode_follows_skills_ref() {
    // Letters and digits by general category, after NFKC.
    for ok in ["café", "技能", "123", "٣", "é".repeat(64).as_str()] {
        assert!(name_findings(ok, &format!("name: {ok}")).is_empty(), "{ok}");
    }
    // Combining marks (Mn/Mc) are not letters, though Rust's is_alphanumeric says they are.
    let found = name_findings("हिंदी", "name: हिंदी");
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(found[0]
        .message
        .contains("only letters, digits and hyphens"));
    // Emoji and en dash are invalid; title case and Roman numerals fail lowercase.
    assert_eq!(name_findings("a😀", "name: a😀").len(), 1);
    assert_eq!(name_findings("a–b", "name: a–b").len(), 1);
    assert_eq!(name_findings("ǅx", "name: ǅx").len(), 1);
    assert_eq!(name_findings("XII", "name: Ⅻ").len(), 1);
    // NFKC: full-width letters, ligatures and superscripts match their plain folder.
    for (folder, name) in [("abc-fw", "ａｂｃ-fw"), ("fi", "ﬁ"), ("x2", "x²")] {
        let found = check_one(folder, &format!("---\nname: {name}\ndescription: d\n---\n"));
        assert!(found.is_empty(), "{name}: {found:#?}");
    }
    // An NFD name matches an NFC folder.
    let found = check_one("café", "---\nname: cafe\u{301}\ndescription: d\n---\n");
    assert_silent(&found);
}

#[test]
fn name_mismatch() {
    let text = "---\nname: postgresql-table-design\ndescription: d\n---\n";
    let message = assert_one(
        &check_one("postgresql", text),
        "skillmd.name-mismatch",
        "postgresql-table-design",
    );
    assert_contains(&message, "`postgresql`");
    // Case-sensitive.
    let found = check_one("Upper2", "---\nname: upper2\ndescription: d\n---\n");
    assert_one(&found, "skillmd.name-mismatch", "upper2");
    // Scalars of any YAML type are names as written, as in skills-ref.
    assert!(check_one("42", "---\nname: 42\ndescription: d\n---\n").is_empty());
}

#[test]
fn description_length() {
    let message = assert_one(
        &check_one("pdf", "---\nname: pdf\ndescription: \"  \"\n---\n"),
        "skillmd.description-length",
        "\"  \"",
    );
    assert_contains(&message, "empty");
    assert_one(
        &check_one("pdf", "---\nname: pdf\ndescription:\n---\n"),
        "skillmd.description-length",
        "",
    );
    let at_limit = "d".repeat(1024);
    let text = format!("---\nname: pdf\ndescription: {at_limit}\n---\n");
    assert!(check_one("pdf", &text).is_empty());
    let over = "é".repeat(1025);
    let text = format!("---\nname: pdf\ndescription: {over}\n---\n");
    let message = assert_one(
        &check_one("pdf", &text),
        "skillmd.description-length",
        &over,
    );
    assert_contains(&message, "1025 characters");
    // A `|` block keeps its final line break, which counts (as in skills-ref).
    let text = format!("---\nname: pdf\ndescription: |\n  {at_limit}\n---\n");
    let found = check_one("pdf", &text);
    assert_eq!(codes(&found), ["skillmd.description-length"], "{found:#?}");
    assert!(found[0].message.contains("1025"), "{found:#?}");
    let found = check_one("pdf", "---\nname: pdf\ndescription:\n  a: b\n---\n");
    assert_contains(&found[0].message, "mapping");
}

#[test]
fn compatibility_length() {
    let found = check_one(
        "pdf",
        "---\nname: pdf\ndescription: d\ncompatibility:\n  - linux\n---\n",
    );
    assert_eq!(codes(&found), ["skillmd.compatibility-length"]);
    assert!(found[0].text.starts_with("- linux"), "{found:#?}");
    let long = "c".repeat(501);
    let text = format!("---\nname: pdf\ndescription: d\ncompatibility: {long}\n---\n");
    assert_one(
        &check_one("pdf", &text),
        "skillmd.compatibility-length",
        &long,
    );
    let ok = format!(
        "---\nname: pdf\ndescription: d\ncompatibility: {}\n---\n",
        "c".repeat(500)
    );
    assert!(check_one("pdf", &ok).is_empty());
    assert!(check_one(
        "pdf",
        "---\nname: pdf\ndescription: d\ncompatibility:\n---\n"
    )
    .is_empty());
}

#[test]
fn metadata_shape() {
    let text = "---\nname: pdf\ndescription: d\nmetadata:\n  version: 1.0\n  tags:\n    - a\n  author: me\n  chain:\n    - other\n  async: true\n---\n";
    // The chain's own rules (its unknown entry) are tested in skill_md_extensions.rs.
    let found: Vec<Found> = check_one("pdf", text)
        .into_iter()
        .filter(|f| !f.code.starts_with("skillmd.chain"))
        .collect();
    assert_eq!(
        codes(&found),
        ["skillmd.metadata-shape", "skillmd.metadata-shape"],
        "{found:#?}"
    );
    assert!(found.iter().all(|f| f.severity == Severity::Warning));
    assert_eq!(found[0].text, "1.0");
    assert!(found[0].message.contains("quote it"), "{found:#?}");
    assert!(found[1].text.starts_with("- a"), "{found:#?}");
    let found = check_one("pdf", "---\nname: pdf\ndescription: d\nmetadata: v1\n---\n");
    assert_one(&found, "skillmd.metadata-shape", "v1");
}

/// `text` as `/r/skills/pdf/SKILL.md`, checked beside the `skillgraph.toml` files `configs`
/// (path, text).
fn check_configured(text: &str, configs: &[(&str, &str)]) -> Vec<Found> {
    let mut files = vec![("/r/skills/pdf/SKILL.md", text)];
    files.extend_from_slice(configs);
    check(&files)
}

#[test]
fn unknown_fields_default_mode() {
    let text = "---\nname: pdf\ndescription: d\nversion: 1.0.0\nallowed_tools: Read\nx-owner: me\nmodel: opus\n---\n";
    let found = check_one("pdf", text);
    assert_eq!(codes(&found), ["skillmd.unknown-field"; 3], "{found:#?}");
    assert!(found.iter().all(|f| f.severity == Severity::Warning));
    assert_eq!(found[0].text, "version");
    assert!(found[0].message.contains("metadata"), "{found:#?}");
    assert_eq!(found[1].text, "allowed_tools");
    assert!(
        found[1].message.contains("did you mean `allowed-tools`?"),
        "{found:#?}"
    );
    assert_eq!(found[2].text, "x-owner");
    // extra-fields silences a field, from a config in any ancestor directory.
    let extra = "[skill-md]\nextra-fields = [\"x-owner\"]\n";
    let found = check_configured(text, &[("/r/skillgraph.toml", extra)]);
    assert_eq!(codes(&found), ["skillmd.unknown-field"; 2], "{found:#?}");
}

#[test]
fn unknown_fields_strict_mode_follows_skills_ref() {
    let text = "---\nname: pdf\ndescription: d\nversion: 1.0.0\nmodel: opus\nx-owner: me\nlicense: MIT\n---\n";
    let strict = "[skill-md]\nstrict = true\nextra-fields = [\"x-owner\"]\n";
    let found = check_configured(text, &[("/r/skillgraph.toml", strict)]);
    assert_eq!(codes(&found), ["skillmd.unknown-field"; 2], "{found:#?}");
    assert!(found.iter().all(|f| f.severity == Severity::Error));
    assert_eq!(found[0].text, "version");
    assert_eq!(found[1].text, "model");
    assert!(found[1].message.contains("Claude Code"), "{found:#?}");
    assert!(found.iter().all(|f| f.related.len() == 1), "{found:#?}");
    // The nearest config wins.
    let found = check_configured(
        text,
        &[
            ("/r/skillgraph.toml", "[skill-md]\nstrict = true\n"),
            ("/r/skills/skillgraph.toml", "[skill-md]\nstrict = false\n"),
        ],
    );
    assert_eq!(codes(&found), ["skillmd.unknown-field"; 2], "{found:#?}");
    assert!(found.iter().all(|f| f.severity == Severity::Warning));
}

#[test]
fn strict_mode_follows_config_edits() {
    let mut index = Index::new(&skillgraph::rules::CHECKS);
    index.apply(set_files(&[(
        "/r/skills/pdf/SKILL.md",
        "---\nname: pdf\ndescription: d\nmodel: opus\n---\n",
    )]));
    let skill = index
        .file_id(std::path::Path::new("/r/skills/pdf/SKILL.md"))
        .unwrap();
    assert!(index.diagnostics(skill).is_empty());
    let affected = index.apply(set_files(&[(
        "/r/skillgraph.toml",
        "[skill-md]\nstrict = true\n",
    )]));
    assert!(affected.contains(&skill));
    assert_eq!(index.diagnostics(skill)[0].code, "skillmd.unknown-field");
    index.apply(vec![Change::Remove {
        path: PathBuf::from("/r/skillgraph.toml"),
    }]);
    assert!(index.diagnostics(skill).is_empty());
}

#[test]
fn duplicate_name_under_one_root_reports_both() {
    let found = check(&[
        (
            "/r/skills/pdf/SKILL.md",
            "---\nname: pdf\ndescription: d\n---\n",
        ),
        (
            "/r/skills/pdf-v2/SKILL.md",
            "---\nname: pdf\ndescription: d\n---\n",
        ),
        (
            "/r/other/pdf/SKILL.md",
            "---\nname: pdf\ndescription: d\n---\n",
        ),
    ]);
    let duplicates: Vec<&Found> = found
        .iter()
        .filter(|f| f.code == "skillmd.duplicate-name")
        .collect();
    assert_eq!(duplicates.len(), 2, "{found:#?}");
    assert_eq!(duplicates[0].path, "/r/skills/pdf/SKILL.md");
    assert_eq!(duplicates[1].path, "/r/skills/pdf-v2/SKILL.md");
    assert!(duplicates
        .iter()
        .all(|f| f.text == "pdf" && f.related.len() == 1));
    assert!(
        duplicates[0].message.contains("`pdf-v2/`"),
        "{duplicates:#?}"
    );
    assert!(duplicates[1].message.contains("`pdf/`"), "{duplicates:#?}");
    // The other root has its own `pdf`: no clash, and the only other finding is the mismatch.
    let rest: Vec<&str> = found
        .iter()
        .filter(|f| f.code != "skillmd.duplicate-name")
        .map(|f| f.code)
        .collect();
    assert_eq!(rest, ["skillmd.name-mismatch"], "{found:#?}");
}

#[test]
fn duplicate_name_is_incremental() {
    let mut index = Index::new(&skillgraph::rules::CHECKS);
    index.apply(set_files(&[
        (
            "/r/skills/a/SKILL.md",
            "---\nname: a\ndescription: d\n---\n",
        ),
        (
            "/r/skills/b/SKILL.md",
            "---\nname: b\ndescription: d\n---\n",
        ),
        (
            "/r/skills/c/SKILL.md",
            "---\nname: c\ndescription: d\n---\n",
        ),
    ]));
    let a = index
        .file_id(std::path::Path::new("/r/skills/a/SKILL.md"))
        .unwrap();
    let c = index
        .file_id(std::path::Path::new("/r/skills/c/SKILL.md"))
        .unwrap();
    let affected = index.apply(set_files(&[(
        "/r/skills/b/SKILL.md",
        "---\nname: a\ndescription: d\n---\n",
    )]));
    assert!(affected.contains(&a));
    assert!(
        !affected.contains(&c),
        "an unrelated skill is not re-checked"
    );
    let codes: Vec<_> = index.diagnostics(a).iter().map(|d| d.code.name()).collect();
    assert_eq!(codes, ["skillmd.duplicate-name"]);
    index.apply(set_files(&[(
        "/r/skills/b/SKILL.md",
        "---\nname: b\ndescription: d\n---\n",
    )]));
    assert!(index.diagnostics(a).is_empty());
}

#[test]
fn hostile_input_does_not_crash() {
    for text in [
        "---\n".repeat(1000),
        format!("---\nname: {}\n---\n", "[".repeat(10_000)),
        "---\na: &a [*a, *a]\nb: *a\n---\n".to_owned(),
        "---\n\t\tname:\tx\n---\n".to_owned(),
        "\u{feff}".to_owned(),
        "---\r---\r".to_owned(),
    ] {
        let _ = check_one("x", &text);
    }
}
