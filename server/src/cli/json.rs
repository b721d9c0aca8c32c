//! `--format json`: one document with every diagnostic, positions as LSP has them (0-based lines,
//! columns in UTF-16 code units), in the order the caller sorted them. The shape is a contract
//! (SPEC §7): add fields, never rename or remove one.

use std::io;

use serde::Serialize;

use super::Report;
use crate::diagnostic::FileId;
use crate::syntax::{PositionEncoding, TextRange};

/// Bumped only on a breaking change to the document's shape.
const VERSION: u32 = 1;

#[derive(Serialize)]
struct Document<'r> {
    version: u32,
    diagnostics: Vec<JsonDiagnostic<'r>>,
    summary: Summary,
}

#[derive(Serialize)]
struct JsonDiagnostic<'r> {
    path: &'r str,
    range: Range,
    severity: &'static str,
    code: &'static str,
    message: &'r str,
    related: Vec<JsonRelated<'r>>,
}

#[derive(Serialize)]
struct JsonRelated<'r> {
    path: &'r str,
    range: Range,
    message: &'r str,
}

/// A range as the JSON outputs write it: where it starts and ends, as a line and a column.
#[derive(Serialize)]
pub(super) struct Range {
    pub(super) start: Position,
    pub(super) end: Position,
}

#[derive(Serialize)]
pub(super) struct Position {
    pub(super) line: u32,
    pub(super) character: u32,
}

#[derive(Serialize)]
struct Summary {
    files: usize,
    errors: usize,
    warnings: usize,
    infos: usize,
    hints: usize,
}

pub(super) fn render(report: &Report, out: &mut dyn io::Write) -> io::Result<()> {
    let locate = |file: FileId, range: TextRange| {
        let located = report.locate(file, range, PositionEncoding::Utf16);
        let position = |at: crate::syntax::LineCol| Position {
            line: at.line,
            character: at.col,
        };
        (
            located.path,
            Range {
                start: position(located.start),
                end: position(located.end),
            },
        )
    };
    let diagnostics = report
        .diagnostics
        .iter()
        .map(|diagnostic| {
            let (path, range) = locate(diagnostic.file, diagnostic.range);
            JsonDiagnostic {
                path,
                range,
                severity: diagnostic.severity.as_str(),
                code: diagnostic.code.name(),
                message: &diagnostic.message,
                related: diagnostic
                    .related
                    .iter()
                    .map(|related| {
                        let (path, range) = locate(related.file, related.range);
                        JsonRelated {
                            path,
                            range,
                            message: &related.message,
                        }
                    })
                    .collect(),
            }
        })
        .collect();
    let counts = report.counts();
    let document = Document {
        version: VERSION,
        diagnostics,
        summary: Summary {
            files: report.files_checked,
            errors: counts.errors,
            warnings: counts.warnings,
            infos: counts.infos,
            hints: counts.hints,
        },
    };
    serde_json::to_writer_pretty(&mut *out, &document).map_err(io::Error::from)?;
    writeln!(out)
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::codes;
    use expect_test::{expect, expect_file};

    use super::*;
    use crate::cli::fixture;

    #[test]
    fn columns_are_utf16_code_units() {
        let fixture = fixture::standard();
        let output = fixture.rendered_by(render);
        let document: serde_json::Value = serde_json::from_str(&output).unwrap();
        // `skills: ["😀 技能", alpha]`: the emoji is two UTF-16 units, each CJK character one, so
        // `alpha` starts at 10 + 2 + 1 + 2 + 3 = 18 (it is the 18th character, 0-based 17).
        let error = &document["diagnostics"][3];
        assert_eq!(error["code"], codes::YAML_DUPLICATE_KEY.name());
        assert_eq!(error["range"]["start"]["line"], 1);
        assert_eq!(error["range"]["start"]["character"], 18);
        assert_eq!(error["range"]["end"]["character"], 23);
        // A range inside the emoji's bytes clamps to the emoji's start.
        assert_eq!(
            document["diagnostics"][2]["range"]["start"]["character"],
            10
        );
        assert_eq!(document["diagnostics"][2]["range"]["end"]["character"], 10);
        assert!(output.ends_with("}\n"));
    }

    #[test]
    fn standard_report() {
        let fixture = fixture::standard();
        expect_file!["snapshots/standard_report.json"].assert_eq(&fixture.rendered_by(render));
    }

    #[test]
    fn empty_report() {
        let fixture = fixture::Fixture::new(&[]);
        expect![[r#"
            {
              "version": 1,
              "diagnostics": [],
              "summary": {
                "files": 0,
                "errors": 0,
                "warnings": 0,
                "infos": 0,
                "hints": 0
              }
            }
        "#]]
        .assert_eq(&fixture.rendered_by(render));
    }

    #[test]
    fn hostile_ranges_do_not_panic() {
        let (output, diagnostics) = fixture::hostile_rendered_by(render);
        let document: serde_json::Value = serde_json::from_str(&output).unwrap();
        assert_eq!(
            document["diagnostics"].as_array().unwrap().len(),
            diagnostics
        );
    }
}
