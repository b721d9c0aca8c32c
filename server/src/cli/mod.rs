//! The output formats of `skillgraph check`: human, json, sarif, github. Each renders a
//! [`Report`]; positions are converted from byte offsets here, at the edge. Also the formats of
//! `skillgraph graph` (`graph`) and `skillgraph audit` (`audit`). It must not know how a
//! diagnostic is found: it renders what the engine hands it.

pub mod audit;
pub mod diff;
mod github;
mod graph;
mod human;
mod json;
mod sarif;

pub use graph::{render_graph, GraphFormat};

use std::collections::HashMap;
use std::io;

use crate::diagnostic::{Diagnostic, FileId, Severity};
use crate::syntax::{LineCol, LineIndex, PositionEncoding, TextRange};

/// A file as the report shows it.
pub struct ReportFile<'a> {
    /// The path as shown to the user: relative to the current directory when inside it, with `/`.
    pub display_path: String,
    pub text: &'a str,
    pub line_index: &'a LineIndex,
}

/// Everything a format needs: the diagnostics (already sorted by path, then position) and the
/// files they (and their related locations) point into.
pub struct Report<'a> {
    pub files: HashMap<FileId, ReportFile<'a>>,
    pub diagnostics: Vec<Diagnostic>,
    /// How many files were checked (the summary's `files`).
    pub files_checked: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Human,
    Json,
    Sarif,
    Github,
}

/// Writes `report` to `out` in `format`. `color` asks for ANSI colours; only the human format
/// has any.
pub fn render(
    format: Format,
    report: &Report,
    out: &mut dyn io::Write,
    color: bool,
) -> io::Result<()> {
    match format {
        Format::Human => human::render(report, out, color),
        Format::Json => json::render(report, out),
        Format::Sarif => sarif::render(report, out),
        Format::Github => github::render(report, out),
    }
}

/// Shown when a diagnostic points into a file the report does not hold (a bug upstream, but
/// output must still be produced).
const UNKNOWN_PATH: &str = "<unknown>";

/// A range resolved to a path and 0-based positions, columns in some encoding.
pub(crate) struct Located<'r> {
    pub path: &'r str,
    pub start: LineCol,
    pub end: LineCol,
}

impl<'a> Report<'a> {
    pub(crate) fn file(&self, id: FileId) -> Option<&ReportFile<'a>> {
        self.files.get(&id)
    }

    /// Resolves a byte range. Offsets past the end clamp to the end, offsets inside a character
    /// to its start, and a reversed range reads as empty at its start.
    pub(crate) fn locate(
        &self,
        file: FileId,
        range: TextRange,
        encoding: PositionEncoding,
    ) -> Located<'_> {
        let Some(file) = self.file(file) else {
            let origin = LineCol { line: 0, col: 0 };
            return Located {
                path: UNKNOWN_PATH,
                start: origin,
                end: origin,
            };
        };
        let start = file.line_index.line_col(file.text, range.start, encoding);
        let end = file
            .line_index
            .line_col(file.text, range.end.max(range.start), encoding);
        Located {
            path: &file.display_path,
            start,
            end,
        }
    }

    pub(crate) fn counts(&self) -> Counts {
        let mut counts = Counts::default();
        for diagnostic in &self.diagnostics {
            match diagnostic.severity {
                Severity::Error => counts.errors += 1,
                Severity::Warning => counts.warnings += 1,
                Severity::Info => counts.infos += 1,
                Severity::Hint => counts.hints += 1,
            }
        }
        counts
    }
}

/// How many diagnostics of each severity a report holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Counts {
    pub errors: usize,
    pub warnings: usize,
    pub infos: usize,
    pub hints: usize,
}

/// The report every format's tests render: two files (one with an emoji and CJK before a range,
/// one with CRLF line endings), one diagnostic of each severity, related locations across files,
/// a multi-line range and a range starting inside the emoji.
#[cfg(test)]
pub(crate) mod fixture {
    use std::collections::HashMap;

    use super::{Report, ReportFile};
    use crate::diagnostic::{codes, Code, Diagnostic, FileId, Related, Severity};
    use crate::syntax::{LineIndex, TextRange};

    /// What a format's `render` writes, as text.
    pub fn rendered(render: impl FnOnce(&mut Vec<u8>) -> std::io::Result<()>) -> String {
        let mut out = Vec::new();
        render(&mut out).expect("writing to memory");
        String::from_utf8(out).expect("the formats write UTF-8")
    }

    pub const CRLF: FileId = FileId(0);
    pub const EMOJI: FileId = FileId(1);

    pub const CRLF_TEXT: &str = "id: b\r\nskills:\r\n  - alpha\r\n  - alpha\r\n";
    pub const EMOJI_TEXT: &str = "id: demo\nskills: [\"😀 技能\", alpha]\n";

    pub struct Fixture {
        files: Vec<(FileId, &'static str, &'static str, LineIndex)>,
        pub diagnostics: Vec<Diagnostic>,
        pub files_checked: usize,
    }

    impl Fixture {
        pub fn new(files: &[(FileId, &'static str, &'static str)]) -> Fixture {
            Fixture {
                files: files
                    .iter()
                    .map(|&(id, path, text)| (id, path, text, LineIndex::new(text)))
                    .collect(),
                diagnostics: Vec::new(),
                files_checked: files.len(),
            }
        }

        /// What a format's `render` writes for the fixture's report, as text.
        pub fn rendered_by(
            &self,
            render: impl FnOnce(&Report<'_>, &mut dyn std::io::Write) -> std::io::Result<()>,
        ) -> String {
            rendered(|out| render(&self.report(), out))
        }

        pub fn report(&self) -> Report<'_> {
            Report {
                files: self
                    .files
                    .iter()
                    .map(|(id, path, text, line_index)| {
                        let file = ReportFile {
                            display_path: path.to_string(),
                            text,
                            line_index,
                        };
                        (*id, file)
                    })
                    .collect::<HashMap<_, _>>(),
                diagnostics: self.diagnostics.clone(),
                files_checked: self.files_checked,
            }
        }
    }

    /// The byte range of the `nth` (0-based) occurrence of `needle` in `text`.
    pub fn find(text: &str, needle: &str, nth: usize) -> TextRange {
        let start = text.match_indices(needle).nth(nth).expect("needle").0 as u32;
        TextRange::new(start, start + needle.len() as u32)
    }

    pub fn standard() -> Fixture {
        let mut fixture = Fixture::new(&[
            (CRLF, "skills/crlf.yaml", CRLF_TEXT),
            (EMOJI, "skills/emoji.yaml", EMOJI_TEXT),
        ]);
        fixture.files_checked = 3;
        let skills_list = TextRange::new(
            find(CRLF_TEXT, "skills:", 0).start,
            find(CRLF_TEXT, "alpha", 1).end,
        );
        let emoji = find(EMOJI_TEXT, "😀", 0).start;
        fixture.diagnostics = vec![
            Diagnostic {
                file: CRLF,
                range: skills_list,
                severity: Severity::Hint,
                code: Code::made_up("test.sort-list", Severity::Error),
                message: "sort this list".into(),
                related: vec![],
                fixes: Vec::new(),
            },
            Diagnostic {
                file: CRLF,
                range: find(CRLF_TEXT, "alpha", 1),
                severity: Severity::Warning,
                code: Code::made_up("test.duplicate-grant", Severity::Error),
                message: "`alpha` is granted twice".into(),
                related: vec![
                    Related {
                        file: CRLF,
                        range: find(CRLF_TEXT, "alpha", 0),
                        message: "first granted here".into(),
                    },
                    Related {
                        file: EMOJI,
                        range: find(EMOJI_TEXT, "alpha", 0),
                        message: "also granted here, with a comma, 100%: see".into(),
                    },
                ],
                fixes: Vec::new(),
            },
            Diagnostic {
                file: EMOJI,
                // Starts and ends inside the emoji's four bytes.
                range: TextRange::new(emoji + 1, emoji + 3),
                severity: Severity::Info,
                code: Code::made_up("test.emoji", Severity::Error),
                message: "an emoji in a skill name\nsecond line".into(),
                related: vec![],
                fixes: Vec::new(),
            },
            Diagnostic {
                file: EMOJI,
                range: find(EMOJI_TEXT, "alpha", 0),
                severity: Severity::Error,
                code: codes::YAML_DUPLICATE_KEY,
                message: "`alpha` appears twice".into(),
                related: vec![],
                fixes: Vec::new(),
            },
        ];
        fixture
    }

    /// Ranges no caller should produce, but which must not panic any format.
    /// What a format's `render` writes for the [`hostile`] fixture, with how many diagnostics
    /// it holds: each must come out, whatever its ranges.
    pub fn hostile_rendered_by(
        render: impl FnOnce(&Report<'_>, &mut dyn std::io::Write) -> std::io::Result<()>,
    ) -> (String, usize) {
        let fixture = hostile();
        (fixture.rendered_by(render), fixture.diagnostics.len())
    }

    pub fn hostile() -> Fixture {
        let mut fixture = Fixture::new(&[
            (CRLF, "skills/crlf.yaml", CRLF_TEXT),
            (EMOJI, "skills/emoji.yaml", EMOJI_TEXT),
            (FileId(2), "empty.yaml", ""),
            (
                FileId(3),
                "tabs.yaml",
                "\tkey:\t\u{1b}[31m\u{202e}x\u{0301}\r",
            ),
        ]);
        let ranges = [
            TextRange {
                start: 9999,
                end: 99999,
            },
            TextRange { start: 7, end: 3 },
            TextRange {
                start: 3,
                end: 9999,
            },
            TextRange { start: 0, end: 0 },
            TextRange { start: 6, end: 7 },
            TextRange {
                start: u32::MAX,
                end: u32::MAX,
            },
        ];
        for file in [CRLF, EMOJI, FileId(2), FileId(3), FileId(77)] {
            for range in ranges {
                fixture.diagnostics.push(Diagnostic {
                    file,
                    range,
                    severity: Severity::Error,
                    code: Code::made_up("test.hostile", Severity::Error),
                    message: "bad \u{1b}[2J range".into(),
                    related: vec![Related {
                        file: FileId(77),
                        range,
                        message: "nowhere".into(),
                    }],
                    fixes: Vec::new(),
                });
            }
        }
        fixture
    }
}
