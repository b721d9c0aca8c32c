//! Conformance of the schema checks with SwarmKit's own schema fixtures: every file in
//! `<kind>/` validates without a `schema.*` diagnostic, and every file in `<kind>-invalid/` gets at
//! least one, inside the file. Runs over the full set in `../shared/swarmkit/schema-fixtures` when
//! it is there, and always over the copies in `tests/fixtures/schema` (SwarmKit's fixtures, MIT).

use std::fs;
use std::path::{Path, PathBuf};

use skillgraph::diagnostic::{Diagnostic, FileId};
use skillgraph::rules::schema::{check_schema, SchemaKind};
use skillgraph::syntax::YamlDocument;

const BUNDLED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/schema");

struct Checked {
    path: PathBuf,
    text: String,
    expect_valid: bool,
    diagnostics: Vec<Diagnostic>,
}

impl Checked {
    fn show(&self) -> String {
        let mut out = format!("{}:\n", self.path.display());
        for d in &self.diagnostics {
            let on = self
                .text
                .get(d.range.start as usize..d.range.end as usize)
                .unwrap_or("<out of the file>");
            out.push_str(&format!("  {} on {on:?}: {}\n", d.code.name(), d.message));
        }
        out
    }
}

fn is_yaml(path: &Path) -> bool {
    matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("yaml" | "yml")
    )
}

fn sorted_entries(dir: &Path) -> Vec<PathBuf> {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    entries
}

/// Checks every `<kind>[-invalid]/*.yaml` under `root`. Folders without a bundled schema (SwarmKit's
/// `protocol` messages) are skipped.
fn check_tree(root: &Path) -> Vec<Checked> {
    let mut checked = Vec::new();
    for dir in sorted_entries(root).into_iter().filter(|p| p.is_dir()) {
        let name = dir.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        let (schema, expect_valid) = match name.strip_suffix("-invalid") {
            Some(schema) => (schema, false),
            None => (name, true),
        };
        let Some(kind) = SchemaKind::from_schema_name(schema) else {
            eprintln!("skipping {}: no bundled schema for it", dir.display());
            continue;
        };
        for path in sorted_entries(&dir) {
            if !is_yaml(&path) {
                continue;
            }
            let text = fs::read_to_string(&path).expect("a UTF-8 fixture");
            let doc = YamlDocument::parse(&text, 0);
            let diagnostics = match doc.root() {
                Some(root) => check_schema(kind, root, FileId(0)),
                None => Vec::new(),
            };
            checked.push(Checked {
                path,
                text,
                expect_valid,
                diagnostics,
            });
        }
    }
    checked
}

/// The failures of the conformance rule, one listing per file.
fn failures(checked: &[Checked]) -> Vec<String> {
    let mut failures = Vec::new();
    for file in checked {
        let outside = file.diagnostics.iter().any(|d| {
            d.range.start > d.range.end
                || d.range.end as usize > file.text.len()
                || !d.code.name().starts_with("schema.")
        });
        let ok = if file.expect_valid {
            file.diagnostics.is_empty()
        } else {
            !file.diagnostics.is_empty() && !outside
        };
        if !ok {
            let expected = if file.expect_valid {
                "no diagnostic"
            } else {
                "a diagnostic inside the file"
            };
            failures.push(format!("expected {expected}; got {}", file.show()));
        }
    }
    failures
}

#[test]
fn swarmkit_schema_fixtures() {
    let Some(root) = skillgraph::testing::shared_path("swarmkit/schema-fixtures") else {
        return;
    };
    let checked = check_tree(&root);
    assert!(
        checked.len() > 100,
        "only {} fixtures found under {}",
        checked.len(),
        root.display()
    );
    for file in checked.iter().filter(|f| !f.expect_valid) {
        eprint!("{}", file.show());
    }
    let failures = failures(&checked);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// SwarmKit's example workspaces are valid (all but `workspace-broken`, whose faults are about
/// references, not shape): no `schema.*` diagnostic on any artifact in them.
#[test]
fn swarmkit_examples_have_no_schema_diagnostics() {
    let Some(root) = skillgraph::testing::shared_path("swarmkit/examples") else {
        return;
    };
    let mut stack = vec![root];
    let (mut seen, mut failures) = (0, Vec::new());
    while let Some(dir) = stack.pop() {
        for path in sorted_entries(&dir) {
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if !is_yaml(&path) {
                continue;
            }
            let text = fs::read_to_string(&path).expect("a UTF-8 example");
            let doc = YamlDocument::parse(&text, 0);
            let Some(root) = doc.root() else { continue };
            let Some(kind) = root
                .get("kind")
                .and_then(|k| k.as_str())
                .and_then(SchemaKind::from_kind_field)
            else {
                continue;
            };
            seen += 1;
            let diagnostics = check_schema(kind, root, FileId(0));
            let broken = path
                .components()
                .any(|c| c.as_os_str() == "workspace-broken");
            let checked = Checked {
                path,
                text,
                expect_valid: !broken,
                diagnostics,
            };
            if broken {
                eprint!("{}", checked.show());
            } else if !checked.diagnostics.is_empty() {
                failures.push(checked.show());
            }
        }
    }
    assert!(seen > 150, "only {seen} artifacts found");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn bundled_schema_fixtures() {
    let checked = check_tree(Path::new(BUNDLED));
    assert_eq!(checked.len(), 4);
    let failures = failures(&checked);
    assert!(failures.is_empty(), "{}", failures.join("\n"));

    // And where the diagnostics land.
    let placed = |file: &str| -> Vec<(&'static str, String)> {
        let found = checked
            .iter()
            .find(|c| c.path.ends_with(file))
            .unwrap_or_else(|| panic!("{file} was not checked"));
        found
            .diagnostics
            .iter()
            .map(|d| {
                (
                    d.code.name(),
                    found.text[d.range.start as usize..d.range.end as usize].to_owned(),
                )
            })
            .collect()
    };
    assert_eq!(
        placed("skill-invalid/mcp-tool-missing-server.yaml"),
        vec![("schema.required-field", "implementation".to_owned())]
    );
    assert_eq!(
        placed("trigger-invalid/pipeline-target-missing-emit.yaml"),
        vec![("schema.required-field", "pipeline".to_owned())]
    );
}
