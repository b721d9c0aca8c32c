//! Every `skillgraph.toml` example in the documentation validates against the committed JSON
//! Schema (`docs/skillgraph.toml.schema.json`) and reads without a diagnostic, so the schema,
//! the parser and the docs agree. (That the schema is generated from the config types is a unit
//! test beside them.)

use std::path::{Path, PathBuf};

use skillgraph::diagnostic::FileId;
use skillgraph::model::config::Config;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn schema() -> serde_json::Value {
    let text = std::fs::read_to_string(repo().join("docs/skillgraph.toml.schema.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// The Markdown files that document the config.
fn documents() -> Vec<PathBuf> {
    let mut paths = vec![repo().join("README.md")];
    for dir in ["docs", "editors/vscode", "editors/nvim", "editors/helix"] {
        let Ok(entries) = std::fs::read_dir(repo().join(dir)) else {
            continue;
        };
        for entry in entries.flatten() {
            if entry.path().extension().is_some_and(|e| e == "md") {
                paths.push(entry.path());
            }
        }
    }
    paths.sort();
    paths
}

/// ```toml blocks that hold a skillgraph.toml: those with one of its sections. (Other TOML
/// blocks, such as Helix's languages.toml or a Taplo config, are not config examples.)
fn examples(markdown: &str) -> Vec<String> {
    let mut examples = Vec::new();
    let mut current: Option<String> = None;
    for line in markdown.lines() {
        match &mut current {
            None if line.trim_start() == "```toml" => current = Some(String::new()),
            Some(block) if line.trim_start() == "```" => {
                let is_config = block.lines().any(|l| {
                    let l = l.trim();
                    l == "[rules]" || l == "[tools]" || l == "[skill-md]" || l == "[audit]"
                });
                if is_config {
                    examples.push(std::mem::take(block));
                }
                current = None;
            }
            Some(block) => {
                block.push_str(line);
                block.push('\n');
            }
            None => {}
        }
    }
    examples
}

#[test]
fn every_documented_example_validates_and_reads_cleanly() {
    let validator = jsonschema::validator_for(&schema()).expect("the schema compiles");
    let mut checked = 0;
    for path in documents() {
        let shown = path.display();
        let markdown = std::fs::read_to_string(&path).unwrap();
        for example in examples(&markdown) {
            let value: toml::Value = toml::from_str(&example)
                .unwrap_or_else(|e| panic!("{shown}: example is not TOML: {e}\n{example}"));
            let json = serde_json::to_value(&value).unwrap();
            let errors: Vec<String> = validator
                .iter_errors(&json)
                .map(|e| e.to_string())
                .collect();
            let (_, diagnostics) = Config::parse(FileId(0), &example);
            assert_eq!(
                (errors, diagnostics),
                (vec![], vec![]),
                "{shown}: example does not match the schema, or reads with diagnostics\n{example}"
            );
            checked += 1;
        }
    }
    // docs/configuration.md and docs/rules.md each hold one.
    assert!(checked >= 2, "only {checked} examples found");
}

#[test]
fn the_schema_rejects_what_the_parser_reports() {
    let validator = jsonschema::validator_for(&schema()).unwrap();
    for text in [
        "[tool]\navailable = [\"Read\"]\n",
        "[skill-md]\nstrict = \"yes\"\n",
        "[tools]\navailable = \"Read\"\n",
        "[rules]\n\"agent.duplicate-grant\" = \"loud\"\n",
        "[skill-md]\nextra-field = [\"x\"]\n",
    ] {
        let value: toml::Value = toml::from_str(text).unwrap();
        let json = serde_json::to_value(&value).unwrap();
        assert!(!validator.is_valid(&json), "the schema accepts {text:?}");
        let (_, diagnostics) = Config::parse(FileId(0), text);
        assert_eq!(diagnostics.len(), 1, "{text:?}: {diagnostics:?}");
    }
}
