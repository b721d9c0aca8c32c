//! `agent.output-schema` for paths the file set holds no file at, judged by what `check` finds
//! on disk there, as swarmkit-runtime 1.265.0 would (`_resolve_path` requires `Path.is_file()`,
//! `resolve_output_schema` reads the text): a folder, nothing, a file that cannot be read, a
//! file that is not UTF-8; and no word about a file discovery does not read (a symlink, another
//! suffix), which the runtime reads.

#[path = "support/text.rs"]
mod text;
use text::assert_contains;

#[path = "support/found.rs"]
mod found;

use std::path::Path;

use found::found_in;

const MANIFEST: &str =
    "apiVersion: swarmkit/v1\nkind: Workspace\nmetadata:\n  id: ws\n  name: Ws\n";
const SCHEMA: &str = r#"{"type": "object", "properties": {"verdict": {"type": "string"}}}"#;

fn write(root: &Path, path: &str, bytes: &[u8]) {
    let path = root.join(path);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

/// A workspace whose agent `<id>` declares `output_schema: <path>`, for each (id, path).
fn workspace(root: &Path, schemas: &[(&str, &str)]) {
    let mut agents = String::new();
    for (id, path) in schemas {
        agents.push_str(&format!(
            "      - id: {id}\n        role: worker\n        output_schema: {path}\n"
        ));
    }
    write(root, "workspace.yaml", MANIFEST.as_bytes());
    write(
        root,
        "topologies/t.yaml",
        format!("apiVersion: swarmkit/v1\nkind: Topology\nmetadata:\n  name: t\n  version: 1.0.0\nagents:\n  root:\n    id: root\n    role: root\n    children:\n{agents}").as_bytes(),
    );
}

/// (text under the range, message) of each `agent.output-schema` of a `check` of `root`.
fn reported(root: &Path) -> Vec<(String, String)> {
    let outcome = skillgraph::check::run_check(&[root.to_owned()]).unwrap();
    found_in(&outcome)
        .into_iter()
        .filter(|f| f.code == "agent.output-schema")
        .map(|f| (f.text, f.message))
        .collect()
}

#[test]
fn a_folder_nothing_or_unreadable_bytes_are_refused_as_the_runtime_refuses_them() {
    let dir = tempfile::tempdir().unwrap();
    // (agent id, output_schema) pairs.
    let schemas = [
        ("folder", "schemas"),
        ("slash", "schemas/"),
        ("json-folder", "out.json"),
        ("no-suffix", "schemas/report"),
        ("latin1", "schemas/latin1.json"),
        ("fine", "schemas/report.json"),
        ("other-suffix", "schemas/report.schema"),
    ];
    let root = dir.path();
    workspace(root, &schemas);
    write(root, "topologies/schemas/report.json", SCHEMA.as_bytes());
    write(root, "topologies/schemas/report.schema", SCHEMA.as_bytes());
    write(
        root,
        "topologies/schemas/latin1.json",
        b"{\"title\": \"caf\xe9\"}",
    );
    std::fs::create_dir_all(root.join("topologies/out.json")).unwrap();
    let found = reported(root);
    let said = |value: &str| -> Vec<&str> {
        found
            .iter()
            .filter(|(text, _)| text == value)
            .map(|(_, message)| message.as_str())
            .collect()
    };
    for folder in ["schemas", "schemas/", "out.json"] {
        let messages = said(folder);
        assert_eq!(messages.len(), 1, "{folder}: {found:#?}");
        assert_contains(messages[0], &format!("names `{folder}`, which is a folder"));
    }
    assert!(said("schemas/report")[0].contains("which does not exist"));
    assert!(
        said("schemas/latin1.json")[0].contains("is not UTF-8 text"),
        "{found:#?}"
    );
    // The runtime reads these: nothing is said.
    assert!(said("schemas/report.json").is_empty());
    assert!(said("schemas/report.schema").is_empty());
    assert_eq!(found.len(), 5, "{found:#?}");
}

#[cfg(unix)]
#[test]
fn a_symlinked_schema_is_read_and_a_fifo_is_never_opened() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    workspace(root, &[("linked", "link.json"), ("pipe", "pipe.json")]);
    write(root, "topologies/schemas/report.json", SCHEMA.as_bytes());
    std::os::unix::fs::symlink(
        root.join("topologies/schemas/report.json"),
        root.join("topologies/link.json"),
    )
    .unwrap();
    let fifo = root.join("topologies/pipe.json");
    let status = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(status.success());
    let found = reported(root);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].0, "pipe.json");
    assert!(
        found[0]
            .1
            .contains("cannot be read (it is not a regular file)"),
        "{}",
        found[0].1
    );
}

/// An archetype's default naming a folder is reported on each agent inheriting it.
#[test]
fn an_inherited_default_naming_a_folder_is_reported_on_the_agent() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    workspace(root, &[]);
    write(
        root,
        "topologies/t.yaml",
        b"apiVersion: swarmkit/v1\nkind: Topology\nmetadata:\n  name: t\n  version: 1.0.0\nagents:\n  root:\n    id: root\n    role: root\n    children:\n      - id: w\n        role: worker\n        archetype: writer\n",
    );
    write(root, "archetypes/writer.yaml", b"apiVersion: swarmkit/v1\nkind: Archetype\nmetadata:\n  id: writer\n  name: Writer\n  description: Writes structured reports.\nrole: worker\ndefaults:\n  output_schema: schemas\nprovenance:\n  authored_by: human\n  version: 1.0.0\n");
    write(root, "archetypes/schemas/report.json", SCHEMA.as_bytes());
    let found = reported(root);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].0, "writer");
    assert_contains(&found[0].1, "is a folder");
}
