//! `role.duplicate-id`: a role declared again, in a later registry or further down one file.

use std::path::PathBuf;

use skillgraph::check::check_changes;
use skillgraph::index::Change;

const MANIFEST: &str =
    "apiVersion: swarmkit/v1\nkind: Workspace\nmetadata:\n  id: ws\n  name: Ws\n";

fn registry(id: &str, roles: &[&str]) -> String {
    let mut text = format!("apiVersion: swarmkit/v1\nkind: RoleRegistry\nmetadata:\n  id: {id}\n  name: Registry {id}\nroles:\n");
    for role in roles {
        text.push_str(&format!(
            "  - id: {role}\n    members: [alice]\n    scopes: [design:approve]\n"
        ));
    }
    text
}

/// (file name, code, text under the range) of every role diagnostic.
fn role_findings(files: &[(&str, String)]) -> Vec<(String, &'static str, String)> {
    let mut changes = vec![Change::Set {
        path: PathBuf::from("/ws/workspace.yaml"),
        text: MANIFEST.into(),
    }];
    changes.extend(files.iter().map(|(name, text)| Change::Set {
        path: PathBuf::from(format!("/ws/roles/{name}")),
        text: text.clone().into(),
    }));
    let outcome = check_changes(changes, PathBuf::from("/"));
    outcome
        .diagnostics
        .iter()
        .filter(|d| d.code.name().starts_with("role.") || d.code.name().starts_with("schema."))
        .map(|d| {
            let entry = outcome.index.file(d.file).unwrap();
            let name = entry
                .path
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned();
            let text = entry.text[d.range.start as usize..d.range.end as usize].to_owned();
            (name, d.code.name(), text)
        })
        .collect()
}

#[test]
fn a_role_in_a_later_registry_is_the_repeat() {
    let found = role_findings(&[
        ("a.yaml", registry("r1", &["approver"])),
        ("b.yaml", registry("r2", &["approver"])),
    ]);
    assert_eq!(
        found,
        [(
            "b.yaml".to_owned(),
            "role.duplicate-id",
            "approver".to_owned()
        )]
    );
}

#[test]
fn a_role_twice_in_one_registry() {
    let found = role_findings(&[(
        "a.yaml",
        registry("r1", &["approver", "reviewer", "approver"]),
    )]);
    assert_eq!(
        found,
        [(
            "a.yaml".to_owned(),
            "role.duplicate-id",
            "approver".to_owned()
        )]
    );
}

#[test]
fn distinct_roles_are_silent() {
    let found = role_findings(&[
        ("a.yaml", registry("r1", &["approver"])),
        ("b.yaml", registry("r2", &["reviewer"])),
    ]);
    assert_eq!(found, []);
}
