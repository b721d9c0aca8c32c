//! `agent.output-schema`: the schema an agent's output must satisfy resolves, stays inside the
//! workspace, and is a valid JSON Schema — for the agent's own and for an inherited default.

use std::path::PathBuf;

#[path = "support/found.rs"]
mod found;

use found::check_changes_found;
use skillgraph::index::Change;

const MANIFEST: &str =
    "apiVersion: swarmkit/v1\nkind: Workspace\nmetadata:\n  id: ws\n  name: Ws\n";
const ARCHETYPE: &str = "apiVersion: swarmkit/v1\nkind: Archetype\nmetadata:\n  id: writer\n  name: Writer\n  description: Writes structured reports.\nrole: worker\ndefaults:\n  output_schema: schemas/report.json\nprovenance:\n  authored_by: human\n  version: 1.0.0\n";

fn topology(agents: &str) -> String {
    format!("apiVersion: swarmkit/v1\nkind: Topology\nmetadata:\n  name: t\n  version: 1.0.0\nagents:\n  root:\n    id: root\n    role: root\n    children:\n{agents}")
}

/// (code, text under the range) of the output-schema diagnostics, plus extra files.
fn findings(agents: &str, extra: &[(&str, &str)]) -> Vec<(&'static str, String)> {
    let mut files = vec![
        ("/ws/workspace.yaml".to_owned(), MANIFEST.to_owned()),
        (
            "/ws/archetypes/writer.yaml".to_owned(),
            ARCHETYPE.to_owned(),
        ),
        ("/ws/topologies/t.yaml".to_owned(), topology(agents)),
    ];
    files.extend(
        extra
            .iter()
            .map(|(p, t)| ((*p).to_owned(), (*t).to_owned())),
    );
    let changes = files
        .into_iter()
        .map(|(path, text)| Change::Set {
            path: PathBuf::from(path),
            text: text.into(),
        })
        .collect();
    check_changes_found(changes)
        .into_iter()
        .filter(|f| f.code == "agent.output-schema")
        .map(|f| (f.code, f.text))
        .collect()
}

const GOOD_SCHEMA: &str = r#"{"type": "object", "properties": {"verdict": {"type": "string"}}}"#;

#[test]
fn a_missing_file_an_invalid_inline_schema_a_url_and_an_escape_are_reported() {
    let agents = "      - id: a\n        role: worker\n        output_schema: schemas/missing.json\n      - id: b\n        role: worker\n        output_schema: {type: 12}\n      - id: c\n        role: worker\n        output_schema: https://example.com/s.json\n      - id: d\n        role: worker\n        output_schema: ../../etc/passwd\n";
    let found = findings(
        agents,
        &[("/ws/archetypes/schemas/report.json", GOOD_SCHEMA)],
    );
    assert_eq!(
        found,
        [
            ("agent.output-schema", "schemas/missing.json".to_owned()),
            ("agent.output-schema", "{type: 12}".to_owned()),
            (
                "agent.output-schema",
                "https://example.com/s.json".to_owned()
            ),
            ("agent.output-schema", "../../etc/passwd".to_owned()),
        ]
    );
}

#[test]
fn an_inherited_default_resolves_from_the_archetype_and_null_opts_out() {
    let agents = "      - id: a\n        role: worker\n        archetype: writer\n      - id: b\n        role: worker\n        archetype: writer\n        output_schema: null\n";
    // The archetype's path is relative to the archetype file: archetypes/schemas/report.json.
    assert_eq!(
        findings(
            agents,
            &[("/ws/archetypes/schemas/report.json", GOOD_SCHEMA)]
        ),
        []
    );
    // Without that file, the inheriting agent (not the one opting out) is reported, on its
    // `archetype:` value.
    assert_eq!(
        findings(
            agents,
            &[("/ws/topologies/schemas/report.json", GOOD_SCHEMA)]
        ),
        [("agent.output-schema", "writer".to_owned())]
    );
}

#[test]
fn valid_schemas_are_silent() {
    let agents = "      - id: a\n        role: worker\n        output_schema: schemas/out.json\n      - id: b\n        role: worker\n        output_schema: {type: object}\n";
    assert_eq!(
        findings(agents, &[("/ws/topologies/schemas/out.json", GOOD_SCHEMA)]),
        []
    );
    // A file that is not JSON is reported.
    assert_eq!(
        findings(agents, &[("/ws/topologies/schemas/out.json", "{not json")]),
        [("agent.output-schema", "schemas/out.json".to_owned())]
    );
}
