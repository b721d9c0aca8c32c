//! `--format sarif`: a SARIF 2.1.0 log with one run, for code-scanning uploads (GitHub's
//! `upload-sarif`, Azure DevOps, IDE SARIF viewers).
//!
//! Lines and columns are 1-based, columns in UTF-16 code units (SARIF's default `columnKind`,
//! stated explicitly). Rules list only the codes that occur, sorted, with the catalogue's
//! documentation. Paths are relative URI references with `/` (percent-encoded where needed);
//! a path outside the current directory becomes a `file://` URI.

use std::collections::{BTreeMap, BTreeSet};
use std::io;

use serde::Serialize;

use super::Report;
use crate::diagnostic::{Code, FileId, Severity};
use crate::rules::catalogue;
use crate::syntax::{PositionEncoding, TextRange};

const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";
/// The project's home, from the Cargo metadata.
const INFORMATION_URI: &str = env!("CARGO_PKG_REPOSITORY");

#[derive(Serialize)]
struct Log<'r> {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: [Run<'r>; 1],
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Run<'r> {
    tool: Tool,
    column_kind: &'static str,
    results: Vec<SarifResult<'r>>,
}

#[derive(Serialize)]
struct Tool {
    driver: Driver,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Driver {
    name: &'static str,
    information_uri: &'static str,
    version: &'static str,
    rules: Vec<Rule>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Rule {
    id: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    help_uri: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    short_description: Option<Text<'static>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    full_description: Option<Text<'static>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    help: Option<Help>,
    #[serde(skip_serializing_if = "Option::is_none")]
    default_configuration: Option<Configuration>,
}

#[derive(Serialize)]
struct Text<'r> {
    text: &'r str,
}

#[derive(Serialize)]
struct Help {
    text: &'static str,
    markdown: &'static str,
}

#[derive(Serialize)]
struct Configuration {
    level: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResult<'r> {
    rule_id: &'static str,
    rule_index: usize,
    level: &'static str,
    message: Text<'r>,
    locations: [Location<'r>; 1],
    #[serde(skip_serializing_if = "Vec::is_empty")]
    related_locations: Vec<Location<'r>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Location<'r> {
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<usize>,
    physical_location: PhysicalLocation,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<Text<'r>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PhysicalLocation {
    artifact_location: ArtifactLocation,
    region: Region,
}

#[derive(Serialize)]
struct ArtifactLocation {
    uri: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Region {
    start_line: u32,
    start_column: u32,
    end_line: u32,
    end_column: u32,
}

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info | Severity::Hint => "note",
    }
}

pub(super) fn render(report: &Report, out: &mut dyn io::Write) -> io::Result<()> {
    // Rule index by code, in code order.
    let codes: BTreeMap<&'static str, usize> = {
        let mut codes: Vec<&'static str> =
            report.diagnostics.iter().map(|d| d.code.name()).collect();
        codes.sort_unstable();
        codes.dedup();
        codes.into_iter().enumerate().map(|(i, c)| (c, i)).collect()
    };
    let rules = report
        .diagnostics
        .iter()
        .map(|d| d.code)
        .collect::<BTreeSet<Code>>()
        .into_iter()
        .map(rule)
        .collect();

    let physical = |file: FileId, range: TextRange| {
        let located = report.locate(file, range, PositionEncoding::Utf16);
        PhysicalLocation {
            artifact_location: ArtifactLocation {
                uri: artifact_uri(located.path),
            },
            region: Region {
                start_line: located.start.line + 1,
                start_column: located.start.col + 1,
                end_line: located.end.line + 1,
                end_column: located.end.col + 1,
            },
        }
    };
    let results = report
        .diagnostics
        .iter()
        .map(|diagnostic| SarifResult {
            rule_id: diagnostic.code.name(),
            rule_index: codes[diagnostic.code.name()],
            level: level(diagnostic.severity),
            message: Text {
                text: &diagnostic.message,
            },
            locations: [Location {
                id: None,
                physical_location: physical(diagnostic.file, diagnostic.range),
                message: None,
            }],
            related_locations: diagnostic
                .related
                .iter()
                .enumerate()
                .map(|(id, related)| Location {
                    id: Some(id),
                    physical_location: physical(related.file, related.range),
                    message: Some(Text {
                        text: &related.message,
                    }),
                })
                .collect(),
        })
        .collect();

    let log = Log {
        schema: SCHEMA,
        version: "2.1.0",
        runs: [Run {
            tool: Tool {
                driver: Driver {
                    name: "skillgraph",
                    information_uri: INFORMATION_URI,
                    version: env!("CARGO_PKG_VERSION"),
                    rules,
                },
            },
            column_kind: "utf16CodeUnits",
            results,
        }],
    };
    serde_json::to_writer_pretty(&mut *out, &log).map_err(io::Error::from)?;
    writeln!(out)
}

fn rule(code: Code) -> Rule {
    let doc = catalogue::lookup(code);
    Rule {
        id: code.name(),
        help_uri: doc.map(|doc| catalogue::doc_url(doc.code)),
        short_description: doc.map(|doc| Text { text: doc.summary }),
        full_description: doc.map(|doc| Text {
            text: doc.explanation,
        }),
        help: doc.map(|doc| Help {
            text: doc.explanation,
            markdown: doc.explanation,
        }),
        default_configuration: doc.map(|doc| Configuration {
            level: level(doc.code.default_severity()),
        }),
    }
}

/// A display path as a URI reference: `/` separators, percent-encoding for everything but
/// unreserved characters, and `file://` for absolute paths (Unix or Windows).
fn artifact_uri(path: &str) -> String {
    // `\` separates directories on Windows only; elsewhere it is part of a name (`%5C`).
    let path = if cfg!(windows) {
        path.replace('\\', "/")
    } else {
        path.to_owned()
    };
    let bytes = path.as_bytes();
    let windows_drive =
        bytes.len() >= 3 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':' && bytes[2] == b'/';
    let (mut uri, rest) = if path.starts_with('/') {
        (String::from("file://"), path.as_str())
    } else if windows_drive {
        (format!("file:///{}:", &path[..1]), &path[2..])
    } else {
        (String::new(), path.as_str())
    };
    for byte in rest.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                uri.push(byte as char)
            }
            _ => uri.push_str(&format!("%{byte:02X}")),
        }
    }
    uri
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::codes;
    use expect_test::expect_file;

    use super::*;
    use crate::cli::fixture;

    fn render_to_string(report: &Report) -> String {
        // Keep the snapshot independent of the crate's version.
        fixture::rendered(|out| render(report, out)).replace(env!("CARGO_PKG_VERSION"), "[VERSION]")
    }

    /// The SARIF log of `report`, parsed.
    fn log_of(report: &Report) -> serde_json::Value {
        serde_json::from_str(&render_to_string(report)).unwrap()
    }

    #[test]
    fn uris() {
        assert_eq!(artifact_uri("skills/a.yaml"), "skills/a.yaml");
        if cfg!(windows) {
            assert_eq!(artifact_uri("skills\\a b.yaml"), "skills/a%20b.yaml");
        } else {
            assert_eq!(artifact_uri("skills\\a b.yaml"), "skills%5Ca%20b.yaml");
        }
        assert_eq!(artifact_uri("a\"b\n.yaml"), "a%22b%0A.yaml");
        assert_eq!(artifact_uri("技/a#1.yaml"), "%E6%8A%80/a%231.yaml");
        assert_eq!(artifact_uri("a:b.yaml"), "a%3Ab.yaml");
        assert_eq!(artifact_uri("/tmp/a.yaml"), "file:///tmp/a.yaml");
        if cfg!(windows) {
            assert_eq!(artifact_uri("C:\\work\\a.yaml"), "file:///C:/work/a.yaml");
        }
        assert_eq!(artifact_uri("C:/work/a.yaml"), "file:///C:/work/a.yaml");
    }

    #[test]
    fn rules_come_from_the_catalogue() {
        let fixture = fixture::standard();
        let log = log_of(&fixture.report());
        let rules = &log["runs"][0]["tool"]["driver"]["rules"];
        let doc = catalogue::lookup(codes::YAML_DUPLICATE_KEY).unwrap();
        assert_eq!(rules[3]["id"], codes::YAML_DUPLICATE_KEY.name());
        assert_eq!(rules[3]["shortDescription"]["text"], doc.summary);
        assert_eq!(rules[3]["fullDescription"]["text"], doc.explanation);
        assert_eq!(
            rules[3]["helpUri"],
            "https://github.com/skillgraph/skillgraph/blob/main/docs/rules.md#yamlduplicate-key"
        );
        // Codes unknown to the catalogue get a bare entry.
        assert_eq!(rules[0], serde_json::json!({"id": "test.duplicate-grant"}));
    }

    #[test]
    fn standard_report() {
        let mut fixture = fixture::standard();
        // The catalogue's prose is checked above; keep the snapshot to the structure.
        fixture.diagnostics[3].code = Code::made_up("test.error", Severity::Error);
        expect_file!["snapshots/standard_report.sarif.json"]
            .assert_eq(&render_to_string(&fixture.report()));
    }

    /// Every code's help link lands on its section: the anchors are those of the headings of
    /// docs/rules.md, computed as GitHub does, and no two sections share one.
    #[test]
    fn help_uris_point_at_the_sections_of_the_rules_doc() {
        use crate::rules::catalogue::{rules_anchor, RULES_DOC};
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/rules.md");
        let doc = std::fs::read_to_string(path).unwrap();
        let headings: Vec<&str> = doc
            .lines()
            .filter_map(|line| line.strip_prefix("## "))
            .collect();
        let anchors: std::collections::HashSet<String> = headings
            .iter()
            .map(|heading| rules_anchor(&heading.replace('`', "")))
            .collect();
        assert_eq!(
            anchors.len(),
            headings.len(),
            "two sections share an anchor"
        );
        let mut checked = 0;
        for rule in catalogue::all() {
            let uri = super::rule(rule.code).help_uri.unwrap();
            let anchor = uri.strip_prefix(&format!("{RULES_DOC}#")).unwrap();
            assert!(anchors.contains(anchor), "{} -> #{anchor}", rule.code);
            checked += 1;
        }
        assert_eq!(checked, headings.len());
        assert_eq!(rules_anchor("A b.c_d-e"), "a-bc_d-e");
    }

    #[test]
    fn hostile_ranges_do_not_panic() {
        let fixture = fixture::hostile();
        let log = log_of(&fixture.report());
        assert_eq!(
            log["runs"][0]["results"].as_array().unwrap().len(),
            fixture.diagnostics.len()
        );
    }
}
