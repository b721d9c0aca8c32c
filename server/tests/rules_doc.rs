//! docs/rules.md is rendered from the rule catalogue (the docs kept next to each rule) and from
//! the sources: for each code, the files that check it and the tests that exercise it, found by
//! reading `server/src`, `server/tests` and `tests/`. The test fails when the file is stale;
//! `UPDATE_DOCS=1 cargo test -p skillgraph --test rules_doc` rewrites it.
//!
//! The same reading backs the rule that codes are typed constants: a string literal spelling a
//! code anywhere in `server/src` but the table (`diagnostic/codes.rs`) fails
//! `no_code_is_spelled_as_a_string_in_the_sources`.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use skillgraph::diagnostic::codes::{self, Code};

/// The repository root (the parent of the `server` crate).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the server crate sits in the repository")
        .to_path_buf()
}

/// The table's own file: the one place a code is spelled as text.
const TABLE: &str = "server/src/diagnostic/codes.rs";

/// This file, left out of the search for tests.
const SELF: &str = "server/tests/rules_doc.rs";

/// Every `.rs` file below `dir`, as paths relative to the root with `/`, sorted.
fn rust_files(root: &Path, dir: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut pending = vec![root.join(dir)];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|ext| ext == "rs") {
                let relative = path.strip_prefix(root).expect("below the root");
                found.push(relative.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    found.sort();
    found
}

/// A string literal of Rust source: its text between the quotes (escapes left as written) and
/// the line it starts on (1-based).
struct Literal<'a> {
    text: &'a str,
    line: usize,
}

/// The string literals of `source`, plain and raw, skipping comments and character literals.
/// Enough of Rust's lexer for this project's sources; a lifetime (`'a`) is told from a character
/// literal (`'a'`) by the quote two characters on.
fn string_literals(source: &str) -> Vec<Literal<'_>> {
    let bytes = source.as_bytes();
    let line_of = |offset: usize| source[..offset].matches('\n').count() + 1;
    let mut literals = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let rest = &source[i..];
        if rest.starts_with("//") {
            i += rest.find('\n').unwrap_or(rest.len());
        } else if rest.starts_with("/*") {
            let mut depth = 0usize;
            while i < bytes.len() {
                if source[i..].starts_with("/*") {
                    depth += 1;
                    i += 2;
                } else if source[i..].starts_with("*/") {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if let Some(open) = raw_string_opening(source, i) {
            let hashes = open - i - 2 - usize::from(bytes[i] == b'b');
            let close = format!("\"{}", "#".repeat(hashes));
            let body_start = open;
            let end = source[body_start..]
                .find(&close)
                .map_or(bytes.len(), |at| body_start + at);
            literals.push(Literal {
                text: &source[body_start..end],
                line: line_of(i),
            });
            i = (end + close.len()).min(bytes.len());
        } else if bytes[i] == b'"' {
            let mut j = i + 1;
            while j < bytes.len() && bytes[j] != b'"' {
                j += if bytes[j] == b'\\' { 2 } else { 1 };
            }
            let end = j.min(bytes.len());
            literals.push(Literal {
                text: &source[i + 1..end],
                line: line_of(i),
            });
            i = end + 1;
        } else if bytes[i] == b'\'' {
            if bytes.get(i + 1) == Some(&b'\\') {
                // Quote, backslash, the escaped character, then up to the closing quote.
                let from = (i + 3).min(bytes.len());
                i = from + source[from..].find('\'').map_or(0, |at| at + 1);
            } else {
                // A character literal holds one character, which may take several bytes.
                let next = source[i + 1..].chars().next().map_or(1, char::len_utf8);
                if bytes.get(i + 1 + next) == Some(&b'\'') {
                    i += 2 + next;
                } else {
                    i += 1;
                }
            }
        } else {
            i += rest.chars().next().map_or(1, char::len_utf8);
        }
    }
    literals
}

/// Where the text of a raw string starting at `at` begins (`r"`, `r#"`, `br##"` …), if one does.
fn raw_string_opening(source: &str, at: usize) -> Option<usize> {
    let bytes = source.as_bytes();
    let preceded_by_word =
        at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_');
    if preceded_by_word {
        return None;
    }
    let mut i = at;
    if bytes.get(i) == Some(&b'b') {
        i += 1;
    }
    if bytes.get(i) != Some(&b'r') {
        return None;
    }
    i += 1;
    while bytes.get(i) == Some(&b'#') {
        i += 1;
    }
    (bytes.get(i) == Some(&b'"')).then_some(i + 1)
}

/// The lines of `source` that spell a code as a string literal: the literal's whole text is a
/// code of the table.
fn codes_spelled_as_strings(source: &str) -> Vec<(usize, &str)> {
    string_literals(source)
        .into_iter()
        .filter(|literal| codes::lookup(literal.text).is_some())
        .map(|literal| (literal.line, literal.text))
        .collect()
}

#[test]
fn no_code_is_spelled_as_a_string_in_the_sources() {
    let root = root();
    let mut offenders = Vec::new();
    for file in rust_files(&root, "server/src") {
        if file == TABLE {
            continue;
        }
        let source = std::fs::read_to_string(root.join(&file)).unwrap();
        for (line, code) in codes_spelled_as_strings(&source) {
            offenders.push(format!("{file}:{line}: \"{code}\""));
        }
    }
    assert!(
        offenders.is_empty(),
        "codes are named by their constants in diagnostic::codes, not spelled out:\n{}",
        offenders.join("\n")
    );
}

#[test]
fn the_source_scan_finds_a_spelled_code_and_nothing_else() {
    let source = r###"
// "agent.unknown-skill" in a comment is prose
/* and "agent.unknown-skill" /* nested */ "agent.bad-role" */
fn check<'a>(x: &'a str) -> Diagnostic {
    let quote = '"';
    let escaped = '\'';
    let prose = "see agent.unknown-skill for more";
    let fixture = r#"# skillgraph: disable-next-line agent.unknown-skill"#;
    let not_a_code = "agent.unknown-skil";
    let named = codes::AGENT_UNKNOWN_SKILL;
    Diagnostic::new("agent.duplicate-grant", file, range, "m")
}
const RAW: &str = r#"yaml.duplicate-key"#;
"###;
    assert_eq!(
        codes_spelled_as_strings(source),
        [(11, "agent.duplicate-grant"), (13, "yaml.duplicate-key")]
    );
}

/// The constant's name for a code (`agent.duplicate-grant` → `AGENT_DUPLICATE_GRANT`), as the
/// table spells it.
fn constant_of(code: Code) -> String {
    code.name()
        .chars()
        .map(|c| match c {
            '.' | '-' => '_',
            c => c.to_ascii_uppercase(),
        })
        .collect()
}

/// Whether `text` names the constant `constant` through `codes::` (`codes::AGENT_X` and not
/// `codes::AGENT_X_Y`).
fn names_constant(text: &str, constant: &str) -> bool {
    let needle = format!("codes::{constant}");
    text.match_indices(&needle).any(|(at, _)| {
        let after = text[at + needle.len()..].chars().next();
        !after.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

/// Whether `text` holds the code's name as a word of its own (`governance.x` in
/// `"t.yaml governance.x"`, but not in `governance.x-y`).
fn mentions_code(text: &str, code: Code) -> bool {
    let part_of_code = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_');
    text.match_indices(code.name()).any(|(at, name)| {
        let before = text[..at].chars().next_back();
        let after = text[at + name.len()..].chars().next();
        !before.is_some_and(part_of_code) && !after.is_some_and(part_of_code)
    })
}

/// A source file split into the part that ships and the part that tests it: a file named
/// `tests.rs` or under a `tests` folder is all test, otherwise the test part starts at the
/// first `#[cfg(test)]` item (the project keeps its unit tests at the end of a file).
fn split_tests(file: &str, source: &str) -> (String, String) {
    if file.ends_with("/tests.rs") || file.contains("/tests/") || file.starts_with("tests/") {
        return (String::new(), source.to_owned());
    }
    match source.find("\n#[cfg(test)]\n") {
        Some(at) => (source[..at].to_owned(), source[at..].to_owned()),
        None => (source.to_owned(), String::new()),
    }
}

/// The test functions of a test source (its `#[test]` items, `#[tokio::test]` and the like),
/// each with the lines of its body, in order.
fn test_functions(source: &str) -> Vec<(String, String)> {
    let mut functions: Vec<(String, String)> = Vec::new();
    let mut attribute_is_test = false;
    let mut current: Option<usize> = None;
    for line in source.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("#[") && trimmed.contains("test]") {
            attribute_is_test = true;
            continue;
        }
        let declaration = trimmed.strip_prefix("pub ").unwrap_or(trimmed);
        let declaration = declaration.strip_prefix("async ").unwrap_or(declaration);
        if let Some(after) = declaration.strip_prefix("fn ") {
            let name: String = after
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if attribute_is_test {
                functions.push((name, String::new()));
                current = Some(functions.len() - 1);
            } else {
                current = None;
            }
            attribute_is_test = false;
            continue;
        }
        if !trimmed.starts_with("#[") && !trimmed.is_empty() && !trimmed.starts_with("//") {
            attribute_is_test = false;
        }
        if let Some(index) = current {
            functions[index].1.push_str(line);
            functions[index].1.push('\n');
        }
    }
    functions
}

/// A family's `RULES` table (the documentation of its codes), empty when the file has none.
fn rules_table(source: &str) -> &str {
    let Some(start) = source.find("pub const RULES: &[RuleDoc]") else {
        return "";
    };
    // A table of one entry closes on the entry's line (`}];`).
    let end = source[start..]
        .find("];\n")
        .map_or(source.len(), |at| start + at);
    &source[start..end]
}

/// Where each code is checked and tested, read from the sources.
#[derive(Default)]
struct Places {
    /// The rule family's file: the one with a `RULES` table naming the code's constant, where
    /// its documentation and (for most codes) its check live.
    family: BTreeSet<String>,
    /// The other files of `server/src` whose shipping part names the constant: where the code
    /// is also emitted, ranked or treated apart.
    named: BTreeSet<String>,
    /// Test file -> the test functions in it that name the code (its constant, or the code
    /// as a string literal).
    tests: BTreeMap<String, BTreeSet<String>>,
    /// Fixture folders named after the code (`<code>` or `<code>--<case>`).
    fixtures: BTreeSet<String>,
}

fn places(root: &Path) -> BTreeMap<Code, Places> {
    let mut found: BTreeMap<Code, Places> = codes::ALL
        .iter()
        .map(|&code| (code, Places::default()))
        .collect();
    let constants: Vec<(Code, String)> = codes::ALL
        .iter()
        .map(|&code| (code, constant_of(code)))
        .collect();
    let files = ["server/src", "server/tests", "server/benches", "tests"]
        .into_iter()
        .flat_map(|dir| rust_files(root, dir));
    for file in files {
        // The table spells every code; this file's own tests spell codes as examples.
        if file == TABLE || file == SELF {
            continue;
        }
        let source = std::fs::read_to_string(root.join(&file)).unwrap();
        let (shipping, tests) = split_tests(&file, &source);
        let rules_table = rules_table(&shipping);
        for (code, constant) in &constants {
            if !file.starts_with("server/src/") {
                continue;
            }
            let places = found.get_mut(code).unwrap();
            if names_constant(rules_table, constant) {
                places.family.insert(file.clone());
            } else if names_constant(&shipping, constant) {
                places.named.insert(file.clone());
            }
        }
        for (function, body) in test_functions(&tests) {
            let literals: Vec<&str> = string_literals(&body)
                .into_iter()
                .map(|literal| literal.text)
                .collect();
            for (code, constant) in &constants {
                let spelled = literals.iter().any(|text| mentions_code(text, *code));
                if spelled || names_constant(&body, constant) {
                    let places = found.get_mut(code).unwrap();
                    places
                        .tests
                        .entry(file.clone())
                        .or_default()
                        .insert(function.clone());
                }
            }
        }
    }
    for folder in [
        "server/tests/fixtures/parity",
        "server/tests/fixtures/fixes",
    ] {
        let Ok(entries) = std::fs::read_dir(root.join(folder)) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let code_part = name.split("--").next().unwrap_or_default();
            // A fixture is named after its code, and its expected report may hold others.
            let expected =
                std::fs::read_to_string(entry.path().join("expected.json")).unwrap_or_default();
            for &code in codes::ALL {
                if code.name() == code_part || mentions_code(&expected, code) {
                    let places = found.get_mut(&code).unwrap();
                    places.fixtures.insert(format!("{folder}/{name}"));
                }
            }
        }
    }
    // The SwarmKit rule cases: one file each, whose `expect` lines (before its files) name the
    // codes it reports.
    let cases = "server/tests/fixtures/swarmkit";
    for entry in std::fs::read_dir(root.join(cases))
        .into_iter()
        .flatten()
        .flatten()
    {
        let name = entry.file_name().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(entry.path()).unwrap_or_default();
        if !name.ends_with(".txt") || text.starts_with("//- ") {
            continue;
        }
        let said = text.split("\n//- ").next().unwrap_or_default();
        for &code in codes::ALL {
            if mentions_code(said, code) {
                let places = found.get_mut(&code).unwrap();
                places.fixtures.insert(format!("{cases}/{name}"));
            }
        }
    }
    found
}

/// Where the rule docs link a path of the repository: relative from docs/rules.md, and as a
/// link into the repository's files from the book's pages (which are served apart from it).
#[derive(Clone, Copy)]
enum Links {
    Relative,
    Repository,
}

/// A link from a rules page to a path of the repository.
fn link(path: &str, text: &str, links: Links) -> String {
    match links {
        Links::Relative => format!("[{text}](../{path})"),
        Links::Repository => format!("[{text}]({REPOSITORY_FILES}/{path})"),
    }
}

/// Where the book links the repository's files (the workspace's `repository`, branch main).
const REPOSITORY_FILES: &str = "https://github.com/skillgraph/skillgraph/blob/main";

/// One code's section: its heading (with an anchor named after the code), severity, summary,
/// explanation, and where it is checked and tested.
fn render_rule(
    out: &mut String,
    rule: &skillgraph::rules::catalogue::RuleDoc,
    places: &Places,
    links: Links,
) {
    let anchor = match links {
        Links::Relative => String::new(),
        Links::Repository => format!("<a id=\"{}\"></a>\n\n", rule.code),
    };
    let _ = write!(out, "\n{anchor}{}", rule.markdown());
    let files = |files: &BTreeSet<String>| {
        files
            .iter()
            .map(|file| link(file, &format!("`{file}`"), links))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let _ = write!(out, "\n- Source: {}\n", files(&places.family));
    if !places.named.is_empty() {
        let _ = writeln!(out, "- Also named in: {}", files(&places.named));
    }
    if !places.tests.is_empty() {
        let tests: Vec<String> = places
            .tests
            .iter()
            .map(|(file, functions)| {
                let functions: Vec<String> =
                    functions.iter().map(|name| format!("`{name}`")).collect();
                format!(
                    "{} ({})",
                    link(file, &format!("`{file}`"), links),
                    functions.join(", ")
                )
            })
            .collect();
        let _ = writeln!(out, "- Tests: {}", tests.join("; "));
    }
    if !places.fixtures.is_empty() {
        let fixtures: Vec<String> = places
            .fixtures
            .iter()
            .map(|fixture| {
                let name = fixture.rsplit('/').next().unwrap_or(fixture);
                // A folder, or a case file.
                let path = match name.strip_suffix(".txt") {
                    Some(_) => fixture.clone(),
                    None => format!("{fixture}/"),
                };
                link(&path, &format!("`{name}`"), links)
            })
            .collect();
        let _ = writeln!(out, "- Fixtures: {}", fixtures.join(", "));
    }
}

const PREAMBLE: &str = "Severities can be changed or a code turned off in `skillgraph.toml`:\n\n```toml\n[rules]\n\"agent.duplicate-grant\" = \"off\"      # or error | warning | info | hint\n```\n";

fn render() -> String {
    let mut out = format!(
        "# Diagnostic codes\n\nEvery diagnostic skillgraph reports, with its default severity. {PREAMBLE}\n\
This file is generated from the documentation kept beside each rule in `server/src/rules/`. Under each code: \
the rule family's file (its documentation and, for most codes, its check), other files naming its constant \
(from `server/src/diagnostic/codes.rs`), the tests that name the constant or the code, the fixtures named \
after it, and the SwarmKit rule cases that expect it.\n",
    );
    let places = places(&root());
    for rule in skillgraph::rules::catalogue::all() {
        render_rule(&mut out, rule, &places[&rule.code], Links::Relative);
    }
    out
}

/// A rule family of the book: its page's file name, the family's source file, and its codes in
/// the catalogue's order.
struct Family {
    page: String,
    source: String,
    rules: Vec<&'static skillgraph::rules::catalogue::RuleDoc>,
}

/// The families in the catalogue's order, each the file whose `RULES` table documents them.
fn families(places: &BTreeMap<Code, Places>) -> Vec<Family> {
    let mut families: Vec<Family> = Vec::new();
    for rule in skillgraph::rules::catalogue::all() {
        let source = places[&rule.code]
            .family
            .iter()
            .next()
            .expect("every code has a family")
            .clone();
        match families.iter_mut().find(|family| family.source == source) {
            Some(family) => family.rules.push(rule),
            None => {
                let stem = source
                    .trim_end_matches(".rs")
                    .rsplit('/')
                    .next()
                    .unwrap_or_default();
                let page = if stem == "mod" { "general" } else { stem }.replace('_', "-");
                families.push(Family {
                    page,
                    source,
                    rules: vec![rule],
                })
            }
        }
    }
    families
}

/// The first paragraph of a source file's module documentation (`//!` lines), as Markdown.
fn module_summary(source: &str) -> String {
    let mut lines = Vec::new();
    for line in source.lines() {
        let Some(text) = line.strip_prefix("//!") else {
            break;
        };
        let text = text.strip_prefix(' ').unwrap_or(text);
        if text.trim().is_empty() {
            if lines.is_empty() {
                continue;
            }
            break;
        }
        lines.push(text);
    }
    lines.join("\n")
}

/// The book's rules reference: an index page and one page per family, each code under an
/// anchor named after it (`rules/requires.md#agent.requires-cycle`). Paths relative to `docs/`.
fn render_book_pages() -> Vec<(String, String)> {
    let places = places(&root());
    let families = families(&places);
    let mut index = format!(
        "# Rules\n\nEvery diagnostic skillgraph reports, by rule family: the file of `server/src/rules/` that \
documents (and for most codes checks) them. {PREAMBLE}\nThese pages are generated from the documentation kept \
beside each rule; [`docs/rules.md`]({REPOSITORY_FILES}/docs/rules.md) holds the same text on one page.\n\n\
| family | codes |\n|---|---|\n"
    );
    let mut pages = Vec::new();
    for family in &families {
        let codes: Vec<String> = family
            .rules
            .iter()
            .map(|rule| format!("[`{0}`]({1}.md#{0})", rule.code, family.page))
            .collect();
        let _ = writeln!(
            index,
            "| [{}]({}.md) | {} |",
            family.page,
            family.page,
            codes.join(", ")
        );
        let source = std::fs::read_to_string(root().join(&family.source)).unwrap();
        let mut page = format!(
            "# {} rules\n\n{}\n\nDocumented in {}.\n",
            family.page,
            module_summary(&source),
            link(
                &family.source,
                &format!("`{}`", family.source),
                Links::Repository
            )
        );
        for rule in &family.rules {
            render_rule(&mut page, rule, &places[&rule.code], Links::Repository);
        }
        pages.push((format!("rules/{}.md", family.page), page));
    }
    pages.insert(0, ("rules/index.md".to_owned(), index));
    pages
}

/// The `- [family](rules/page.md)` lines SUMMARY.md must hold, one per family page.
fn summary_lines() -> Vec<String> {
    render_book_pages()
        .iter()
        .skip(1)
        .map(|(path, _)| {
            let page = path.trim_start_matches("rules/").trim_end_matches(".md");
            format!("  - [{page}]({path})")
        })
        .collect()
}

#[test]
fn every_code_has_a_source_and_a_test() {
    let places = places(&root());
    let not_in_one_family: Vec<(&str, &BTreeSet<String>)> = places
        .iter()
        .filter(|(_, places)| places.family.len() != 1)
        .map(|(code, places)| (code.name(), &places.family))
        .collect();
    assert!(
        not_in_one_family.is_empty(),
        "each code's constant is named by exactly one RULES table: {not_in_one_family:?}"
    );
    let untested: Vec<&str> = places
        .iter()
        .filter(|(_, places)| places.tests.is_empty() && places.fixtures.is_empty())
        .map(|(code, _)| code.name())
        .collect();
    assert!(untested.is_empty(), "no test names {untested:?}");
}

#[test]
fn the_test_finder_attributes_mentions_to_their_test() {
    let source = r#"
fn helper() -> &'static str {
    "agent.bad-role"
}

#[test]
fn fires() {
    assert_eq!(code, "agent.duplicate-grant");
}

#[tokio::test]
async fn silent() {
    let named = codes::YAML_DUPLICATE_KEY;
}
"#;
    let functions = test_functions(source);
    let names: Vec<&str> = functions.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(names, ["fires", "silent"]);
    assert!(functions[0].1.contains("\"agent.duplicate-grant\""));
    assert!(!functions[0].1.contains("agent.bad-role"));
    assert!(names_constant(&functions[1].1, "YAML_DUPLICATE_KEY"));
    assert!(!names_constant(
        "codes::YAML_DUPLICATE_KEY_TWO",
        "YAML_DUPLICATE_KEY"
    ));
    let code = codes::AGENT_DUPLICATE_GRANT;
    assert!(mentions_code("/w/a.yaml agent.duplicate-grant", code));
    assert!(mentions_code("\"agent.duplicate-grant\"", code));
    assert!(!mentions_code("agent.duplicate-grants", code));
    assert!(!mentions_code("x.agent.duplicate-grant", code));
}

#[test]
fn rules_md_is_up_to_date() {
    let path = root().join("docs/rules.md");
    let expected = render();
    if std::env::var_os("UPDATE_DOCS").is_some() {
        std::fs::write(path, &expected).unwrap();
    } else {
        let actual = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            actual == expected,
            "docs/rules.md is stale; run `UPDATE_DOCS=1 cargo test -p skillgraph --test rules_doc`"
        );
    }
}

/// The book's rule pages (docs/rules/) are the generated ones, no more and no fewer, and the
/// book's table of contents lists every family page.
#[test]
fn the_books_rule_pages_are_up_to_date() {
    let dir = root().join("docs/rules");
    let pages = render_book_pages();
    if std::env::var_os("UPDATE_DOCS").is_some() {
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        for (path, text) in &pages {
            std::fs::write(root().join("docs").join(path), text).unwrap();
        }
    }
    let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .flatten()
                .map(|entry| format!("rules/{}", entry.file_name().to_string_lossy()))
                .collect()
        })
        .unwrap_or_default();
    on_disk.sort();
    let mut expected: Vec<String> = pages.iter().map(|(path, _)| path.clone()).collect();
    expected.sort();
    let stale = "run `UPDATE_DOCS=1 cargo test -p skillgraph --test rules_doc`";
    assert_eq!(on_disk, expected, "docs/rules/ holds other pages; {stale}");
    for (path, text) in &pages {
        let actual = std::fs::read_to_string(root().join("docs").join(path)).unwrap_or_default();
        assert!(actual == *text, "docs/{path} is stale; {stale}");
    }
    let summary = std::fs::read_to_string(root().join("docs/SUMMARY.md")).unwrap();
    let missing: Vec<String> = summary_lines()
        .into_iter()
        .filter(|line| !summary.lines().any(|l| l == line))
        .collect();
    assert!(
        missing.is_empty(),
        "docs/SUMMARY.md lacks these lines under the rules reference:\n{}",
        missing.join("\n")
    );
}
