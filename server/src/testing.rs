//! Test support shared by the unit tests and the integration tests (`server/tests`): the one
//! fixture format and its parser, and the one harness holding the incremental index to a fresh
//! batch. Public (hidden) because integration tests see only the public API; not part of the
//! API, and nothing but tests calls it.
//!
//! A fixture is one string holding several files, each introduced by a `//- /path` line, with at
//! most one `$0` marking a cursor:
//!
//! ```text
//! //- /ws/workspace.yaml
//! apiVersion: swarmkit/v1
//! ...
//! //- /ws/topologies/team.yaml
//! skills: [fe$0tch]
//! ```
//!
//! The indentation common to the whole fixture is removed first, so fixtures can be indented
//! with the test code. Paths are absolute and virtual: the engine does no I/O.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::diagnostic::FileId;
use crate::index::{Change, Index};

/// The marker of the cursor in a fixture.
pub const CURSOR: &str = "$0";

/// One file of a parsed fixture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FixtureFile {
    pub path: String,
    pub text: String,
}

/// Where `$0` was, once removed from the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cursor {
    pub path: String,
    pub offset: u32,
}

/// A parsed fixture: its files in order, and the cursor if the fixture marks one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsedFixture {
    pub files: Vec<FixtureFile>,
    pub cursor: Option<Cursor>,
}

/// Removes the indentation common to every non-blank line, and one leading newline.
pub fn trim_indent(text: &str) -> String {
    let text = text.strip_prefix('\n').unwrap_or(text);
    let indent = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start_matches(' ').len())
        .min()
        .unwrap_or(0);
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        if line.trim().is_empty() {
            // Keep the line break of blank lines, drop their spaces.
            if line.ends_with('\n') {
                out.push('\n');
            }
        } else {
            out.push_str(&line[indent.min(line.len())..]);
        }
    }
    out
}

/// Splits a fixture into its files, in order, and takes out its cursor. Text before the first
/// `//- ` line must be blank; a second `$0` is refused (a test would not know which one it meant).
pub fn parse(fixture: &str) -> ParsedFixture {
    let fixture = trim_indent(fixture);
    let mut files: Vec<FixtureFile> = Vec::new();
    for line in fixture.split_inclusive('\n') {
        if let Some(path) = line.strip_prefix("//- ") {
            let path = path.trim();
            assert!(
                path.starts_with('/'),
                "fixture paths are absolute, got `{path}`"
            );
            files.push(FixtureFile {
                path: path.to_owned(),
                text: String::new(),
            });
        } else if let Some(file) = files.last_mut() {
            file.text.push_str(line);
        } else {
            assert!(
                line.trim().is_empty(),
                "fixture text before the first `//- /path` line: {line:?}"
            );
        }
    }
    let mut cursor = None;
    for file in &mut files {
        while let Some(at) = file.text.find(CURSOR) {
            assert!(
                cursor.is_none(),
                "the fixture marks more than one `{CURSOR}`"
            );
            file.text.replace_range(at..at + CURSOR.len(), "");
            cursor = Some(Cursor {
                path: file.path.clone(),
                offset: at as u32,
            });
        }
    }
    ParsedFixture { files, cursor }
}

/// The files of a fixture that marks no cursor.
pub fn parse_fixture(fixture: &str) -> Vec<FixtureFile> {
    let parsed = parse(fixture);
    assert!(
        parsed.cursor.is_none(),
        "this fixture is not meant to hold a cursor; `{CURSOR}` found in {:?}",
        parsed.cursor
    );
    parsed.files
}

/// Writes files back as a fixture string (the inverse of [`parse_fixture`]).
pub fn render_fixture(files: &[FixtureFile]) -> String {
    let mut out = String::new();
    for file in files {
        out.push_str("//- ");
        out.push_str(&file.path);
        out.push('\n');
        out.push_str(&file.text);
        if !file.text.ends_with('\n') {
            out.push('\n');
        }
    }
    out
}

/// The changes that index these files.
pub fn changes_of(files: Vec<FixtureFile>) -> Vec<Change> {
    files
        .into_iter()
        .map(|f| Change::Set {
            path: PathBuf::from(f.path),
            text: f.text.into(),
        })
        .collect()
}

/// The changes that index these (path, text) files.
pub fn set_files(files: &[(&str, &str)]) -> Vec<Change> {
    files
        .iter()
        .map(|(path, text)| Change::Set {
            path: PathBuf::from(path),
            text: (*text).into(),
        })
        .collect()
}

/// The changes that index every file of a fixture (which marks no cursor).
pub fn changes(fixture: &str) -> Vec<Change> {
    changes_of(parse_fixture(fixture))
}

/// An index of every file of a fixture (which marks no cursor), built in one batch.
pub fn index_of(fixture: &str) -> Index {
    let mut index = Index::new(&crate::rules::CHECKS);
    index.apply(changes(fixture));
    index
}

/// A fixture indexed in one batch, with the file and offset its `$0` marks: what the IDE
/// features are asked about.
pub struct Fixture {
    pub index: Index,
    pub cursor_file: FileId,
    pub offset: u32,
}

/// Indexes a fixture that marks a cursor with `$0`.
pub fn fixture(text: &str) -> Fixture {
    let parsed = parse(text);
    let cursor = parsed.cursor.expect("the fixture marks a cursor with `$0`");
    let mut index = Index::new(&crate::rules::CHECKS);
    index.apply(changes_of(parsed.files));
    Fixture {
        cursor_file: index
            .file_id(Path::new(&cursor.path))
            .expect("the cursor's file is indexed"),
        index,
        offset: cursor.offset,
    }
}

// ---------------------------------------------------------------------------------------------
// Batch versus incremental.

/// One diagnostic as the comparisons see it: (path, code, start, end, message, related as
/// (path, start, end, message), sorted).
pub type Found = (
    String,
    String,
    u32,
    u32,
    String,
    Vec<(String, u32, u32, String)>,
);

/// Every diagnostic of every file of `index` (levels, suppressions and caps applied), sorted, so
/// two indexes compare equal exactly when they would report the same.
pub fn snapshot(index: &Index) -> Vec<Found> {
    let path_of = |id| {
        index.file(id).map_or_else(
            || "<unknown file>".to_owned(),
            |f| f.path.display().to_string(),
        )
    };
    let mut out: Vec<Found> = index
        .files()
        .flat_map(|file| {
            index.diagnostics(file.id).into_iter().map(move |d| {
                let mut related: Vec<(String, u32, u32, String)> = d
                    .related
                    .iter()
                    .map(|r| {
                        (
                            path_of(r.file),
                            r.range.start,
                            r.range.end,
                            r.message.clone(),
                        )
                    })
                    .collect();
                related.sort();
                (
                    file.path.display().to_string(),
                    d.code.name().to_owned(),
                    d.range.start,
                    d.range.end,
                    d.message,
                    related,
                )
            })
        })
        .collect();
    out.sort();
    out
}

/// What a fresh index reports for `changes` applied in one batch.
pub fn batch_snapshot(changes: Vec<Change>) -> Vec<Found> {
    let mut index = Index::new(&crate::rules::CHECKS);
    index.apply(changes);
    snapshot(&index)
}

/// A deterministic shuffle (a small linear congruential generator), so failures reproduce.
pub fn shuffled<T>(mut items: Vec<T>, seed: u64) -> Vec<T> {
    let mut state = seed;
    for i in (1..items.len()).rev() {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let j = (state >> 33) as usize % (i + 1);
        items.swap(i, j);
    }
    items
}

/// An index updated change by change, beside the file set it should hold, so that after any
/// step it can be compared with a fresh index of those files built in one batch.
pub struct Replay {
    files: BTreeMap<PathBuf, String>,
    pub index: Index,
}

impl Default for Replay {
    fn default() -> Self {
        Replay::new()
    }
}

impl Replay {
    pub fn new() -> Self {
        Replay {
            files: BTreeMap::new(),
            index: Index::new(&crate::rules::CHECKS),
        }
    }

    /// Applies `changes` as one batch, to the index and to the file set.
    pub fn apply(&mut self, changes: Vec<Change>) {
        for change in &changes {
            match change {
                Change::Set { path, text } => {
                    self.files.insert(path.clone(), text.to_string());
                }
                Change::Remove { path } => {
                    self.files.remove(path);
                }
                Change::SetDecoded { .. } | Change::SkillFiles { .. } | Change::Bundled { .. } => {
                    panic!("this harness replays file texts only")
                }
            }
        }
        self.index.apply(changes);
    }

    pub fn set(&mut self, path: &str, text: &str) {
        self.apply(vec![Change::Set {
            path: path.into(),
            text: text.into(),
        }]);
    }

    pub fn remove(&mut self, path: &str) {
        self.apply(vec![Change::Remove { path: path.into() }]);
    }

    /// A rename as editors report it: the old path removed, the new one added, in one batch.
    pub fn rename(&mut self, from: &str, to: &str) {
        let text = self.text(from);
        self.apply(vec![
            Change::Remove { path: from.into() },
            Change::Set {
                path: to.into(),
                text: text.into(),
            },
        ]);
    }

    /// The current text of a file of the set.
    pub fn text(&self, path: &str) -> String {
        self.files[Path::new(path)].clone()
    }

    /// What a fresh index of the current files, built in one batch, reports.
    pub fn batch(&self) -> Vec<Found> {
        batch_snapshot(
            self.files
                .iter()
                .map(|(path, text)| Change::Set {
                    path: path.clone(),
                    text: text.as_str().into(),
                })
                .collect(),
        )
    }

    /// What the incremental index reports.
    pub fn snapshot(&self) -> Vec<Found> {
        snapshot(&self.index)
    }

    /// Fails when the incremental index reports anything other than a fresh batch would.
    #[track_caller]
    pub fn assert_consistent(&self, step: &str) {
        assert_eq!(
            self.snapshot(),
            self.batch(),
            "after {step}: the incremental index differs from a fresh batch"
        );
    }
}

/// Applies `changes` one at a time in several orders (as given, reversed, and `shuffles`
/// deterministic shuffles), comparing with a fresh batch after every step, and returns what the
/// batch of all of them reports.
#[track_caller]
pub fn assert_any_order_equals_batch(changes: Vec<Change>, shuffles: u64) -> Vec<Found> {
    let expected = batch_snapshot(changes.clone());
    let mut orders = vec![changes.clone(), changes.iter().rev().cloned().collect()];
    for seed in 1..=shuffles {
        orders.push(shuffled(changes.clone(), seed));
    }
    for (n, order) in orders.into_iter().enumerate() {
        let mut replay = Replay::new();
        for change in order {
            let path = change.path().display().to_string();
            replay.apply(vec![change]);
            replay.assert_consistent(&format!("order {n}, adding {path}"));
        }
        assert_eq!(replay.snapshot(), expected, "order {n}");
    }
    expected
}

// ---------------------------------------------------------------------------------------------
// Data beside the checkout.

/// The environment variable that turns a missing `../shared` from a notice into a failure.
pub const REQUIRE_SHARED: &str = "SKILLGRAPH_REQUIRE_SHARED";

/// `<relative>` under the `shared/` folder beside the checkout (SwarmKit's schemas, fixtures and
/// examples, the corpus of real skills), which is not part of the repository. When it is absent
/// the tests that need it cannot run: with `SKILLGRAPH_REQUIRE_SHARED=1` that fails the test;
/// otherwise a notice goes to the terminal, written past the test harness's capture so that a
/// passing run shows it too, and the caller skips.
pub fn shared_path(relative: &str) -> Option<PathBuf> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared")
        .join(relative);
    if path.exists() {
        return Some(path);
    }
    let notice = format!(
        "NOTICE: {} is absent, so the test that needs it checked nothing",
        path.display()
    );
    if std::env::var_os(REQUIRE_SHARED).is_some_and(|v| !v.is_empty() && v != "0") {
        panic!("{notice} ({REQUIRE_SHARED} is set)");
    }
    // `eprintln!` would be captured and shown only for a failing test.
    let _ = writeln!(std::io::stderr(), "{notice}");
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_cursor_and_indentation() {
        let parsed = parse(
            "
            //- /a.yaml
            x: 1
              y: $02

            //- /b/SKILL.md
            ---
            ",
        );
        assert_eq!(
            parsed.files,
            [
                FixtureFile {
                    path: "/a.yaml".to_owned(),
                    text: "x: 1\n  y: 2\n\n".to_owned()
                },
                FixtureFile {
                    path: "/b/SKILL.md".to_owned(),
                    text: "---\n".to_owned()
                },
            ]
        );
        assert_eq!(
            parsed.cursor,
            Some(Cursor {
                path: "/a.yaml".to_owned(),
                offset: 10
            })
        );
        assert_eq!(parse(&render_fixture(&parsed.files)).files, parsed.files);
    }

    #[test]
    #[should_panic(expected = "more than one")]
    fn two_cursors_are_refused() {
        parse("//- /a\n$0 $0\n");
    }

    #[test]
    #[should_panic(expected = "absolute")]
    fn relative_paths_are_refused() {
        parse("//- a.yaml\n");
    }

    #[test]
    #[should_panic(expected = "not meant to hold a cursor")]
    fn a_cursor_where_none_is_expected_is_refused() {
        parse_fixture("//- /a\n$0\n");
    }

    #[test]
    fn the_cursor_names_its_file_and_offset() {
        let f = fixture("//- /w/SKILL.md\n---\nname: a$0b\n");
        assert_eq!(
            f.index.file(f.cursor_file).unwrap().path,
            Path::new("/w/SKILL.md")
        );
        assert_eq!(f.offset, 11);
    }
}
