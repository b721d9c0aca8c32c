//! `skillgraph audit` on a real PostgreSQL: the rows of every SQLite fixture (real runtime
//! logs) loaded into a table of the runtime's schema (swarmkit-runtime 1.265.0,
//! `audit/_tables.py`), one database per scenario, must give the same output as the SQLite file;
//! over TLS as the URL asks; a wrong password or an unreachable server is a clear message that
//! shows no password.
//!
//! The server comes from `SKILLGRAPH_AUDIT_PG_URL` (a superuser URL ending in `/postgres`, as
//! `.ci/audit.sh` starts one). Unset, the test prints a NOTICE and passes; under `CI=true` it
//! must be set.

#[path = "support/text.rs"]
mod text;
use text::assert_contains;

#[path = "audit/support.rs"]
mod support;

use std::io::Write;

use support::{audit, audit_json, fixture, workspace_with_log, SCENARIOS};

const URL_VARIABLE: &str = "SKILLGRAPH_AUDIT_PG_URL";

/// The runtime's columns and their PostgreSQL types (`audit/_tables.py`: Text, Float, Integer).
const SCHEMA: &[(&str, &str)] = &[
    ("event_id", "TEXT PRIMARY KEY"),
    ("event_type", "TEXT NOT NULL"),
    ("agent_id", "TEXT NOT NULL"),
    ("timestamp", "TEXT NOT NULL"),
    ("run_id", "TEXT"),
    ("parent_event_id", "TEXT"),
    ("topology_id", "TEXT"),
    ("skill_id", "TEXT"),
    ("agent_role", "TEXT"),
    ("skill_category", "TEXT"),
    ("inputs", "TEXT"),
    ("outputs", "TEXT"),
    ("verdict", "TEXT"),
    ("reasoning", "TEXT"),
    ("confidence", "DOUBLE PRECISION"),
    ("model_provider", "TEXT"),
    ("model_name", "TEXT"),
    ("tokens_in", "INTEGER"),
    ("tokens_out", "INTEGER"),
    ("cost_usd", "DOUBLE PRECISION"),
    ("duration_ms", "INTEGER"),
    ("policy_decision", "TEXT"),
    ("policy_reason", "TEXT"),
    ("error", "TEXT"),
    ("payload", "TEXT"),
    ("labels", "TEXT"),
];

fn server_url() -> Option<String> {
    match std::env::var(URL_VARIABLE) {
        Ok(url) if !url.is_empty() => Some(url),
        _ => {
            if std::env::var("CI").is_ok_and(|v| v == "true") {
                panic!("{URL_VARIABLE} must name a PostgreSQL server under CI=true (.ci/audit.sh starts one)");
            }
            let _ = writeln!(
                std::io::stderr(),
                "NOTICE: {URL_VARIABLE} is unset, so the PostgreSQL audit tests checked nothing"
            );
            None
        }
    }
}

fn password_of(url: &str) -> String {
    url.split_once("://")
        .and_then(|(_, rest)| rest.rsplit_once('@'))
        .and_then(|(user, _)| user.split_once(':'))
        .map(|(_, p)| p.to_owned())
        .unwrap_or_default()
}

/// `url` with its database replaced by `database` and `query` appended.
fn with_database(url: &str, database: &str, query: &str) -> String {
    let (server, _) = url.split('?').next().unwrap().rsplit_once('/').unwrap();
    format!("{server}/{database}{query}")
}

/// A database per scenario holding that fixture's rows, as the runtime's table.
fn load(url: &str, scenario: &str, suffix: &str) -> String {
    let database = format!("audit_{}{suffix}", scenario.replace('-', "_"));
    let mut admin = postgres::Client::connect(url, postgres::NoTls).unwrap();
    admin
        .batch_execute(&format!("DROP DATABASE IF EXISTS {database}"))
        .unwrap();
    admin
        .batch_execute(&format!("CREATE DATABASE {database}"))
        .unwrap();
    let target = with_database(url, &database, "");
    let mut client = postgres::Client::connect(&target, postgres::NoTls).unwrap();
    let columns: Vec<String> = SCHEMA.iter().map(|(c, t)| format!("{c} {t}")).collect();
    client
        .batch_execute(&format!(
            "CREATE TABLE audit_events ({})",
            columns.join(", ")
        ))
        .unwrap();
    let sqlite = rusqlite::Connection::open_with_flags(
        fixture(scenario).join("audit.sqlite"),
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
    )
    .unwrap();
    let names: Vec<&str> = SCHEMA.iter().map(|(c, _)| *c).collect();
    let placeholders: Vec<String> = SCHEMA
        .iter()
        .enumerate()
        .map(|(i, (_, t))| {
            let ty = t.split(' ').next().unwrap();
            format!(
                "CAST(${}::text AS {})",
                i + 1,
                if ty == "DOUBLE" {
                    "DOUBLE PRECISION"
                } else {
                    ty
                }
            )
        })
        .collect();
    let insert = format!(
        "INSERT INTO audit_events ({}) VALUES ({})",
        names.join(", "),
        placeholders.join(", ")
    );
    let mut statement = sqlite
        .prepare(&format!("SELECT {} FROM audit_events", names.join(", ")))
        .unwrap();
    let mut rows = statement.query([]).unwrap();
    let mut loaded = 0;
    while let Some(row) = rows.next().unwrap() {
        let values: Vec<Option<String>> = (0..names.len())
            .map(|i| match row.get_ref(i).unwrap() {
                rusqlite::types::ValueRef::Null => None,
                rusqlite::types::ValueRef::Integer(n) => Some(n.to_string()),
                rusqlite::types::ValueRef::Real(f) => Some(f.to_string()),
                rusqlite::types::ValueRef::Text(t) => Some(String::from_utf8(t.to_vec()).unwrap()),
                rusqlite::types::ValueRef::Blob(_) => panic!("a blob in a real log"),
            })
            .collect();
        let params: Vec<&(dyn postgres::types::ToSql + Sync)> = values
            .iter()
            .map(|v| v as &(dyn postgres::types::ToSql + Sync))
            .collect();
        client.execute(insert.as_str(), &params).unwrap();
        loaded += 1;
    }
    assert!(loaded > 0, "{scenario}: no rows");
    database
}

/// The parts of a document both backends must agree on: everything but where the log is.
fn comparable(mut document: serde_json::Value) -> serde_json::Value {
    for source in document["sources"].as_array_mut().unwrap() {
        let source = source.as_object_mut().unwrap();
        source.remove("kind");
        source.remove("location");
    }
    document
}

#[test]
fn postgres_gives_the_same_answer_as_sqlite() {
    let Some(url) = server_url() else {
        return;
    };
    let password = password_of(&url);
    for &scenario in SCENARIOS {
        let database = load(&url, scenario, "");
        let (_dir, workspace) = workspace_with_log(scenario);
        let ws = workspace.to_str().unwrap();
        let from_sqlite = audit_json(&[ws], &[]);
        let pg = with_database(&url, &database, "");
        let from_postgres = audit_json(&[ws, "--db", &pg], &[]);
        assert_eq!(from_postgres["sources"][0]["kind"], "postgres");
        let location = from_postgres["sources"][0]["location"].as_str().unwrap();
        assert!(
            password.is_empty() || !location.contains(&password),
            "{location}"
        );
        assert_eq!(
            comparable(from_postgres),
            comparable(from_sqlite.clone()),
            "{scenario}"
        );
        // Found as the runtime finds it: SWARMKIT_STORE_URL.
        let from_env = audit_json(&[ws], &[("SWARMKIT_STORE_URL", &pg)]);
        assert_eq!(comparable(from_env), comparable(from_sqlite), "{scenario}");
    }
}

#[test]
fn postgres_over_tls_and_bad_credentials() {
    let Some(url) = server_url() else {
        return;
    };
    let database = load(&url, "give-up", "_tls");
    let (_dir, workspace) = workspace_with_log("give-up");
    let ws = workspace.to_str().unwrap();
    // The server of .ci/audit.sh has TLS on, with a self-signed certificate: `require`
    // encrypts without checking it, as libpq does; `verify-full` checks it and refuses.
    let tls = with_database(&url, &database, "?sslmode=require");
    let document = audit_json(&[ws, "--db", &tls], &[]);
    assert_eq!(document["sources"][0]["rows"], 3);
    // `verify-ca` checks the chain (not the name): a self-signed certificate is refused too.
    let refused = |mode: &str| {
        let out = audit(&[ws, "--db", &with_database(&url, &database, mode)], &[]);
        assert_eq!(out.status.code(), Some(2), "{mode}");
        out
    };
    refused("?sslmode=verify-full");
    let out = refused("?sslmode=verify-ca");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("certificate"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // A wrong password: the server's refusal, and no password shown.
    let password = password_of(&url);
    assert!(!password.is_empty(), "{URL_VARIABLE} must carry a password");
    let wrong = url.replacen(&format!(":{password}@"), ":not-the-password-42@", 1);
    let out = audit(&[ws, "--db", &with_database(&wrong, &database, "")], &[]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_contains(&stderr, "password authentication failed");
    assert!(!stderr.contains("not-the-password-42"), "{stderr}");
    assert_contains(&stderr, "postgres:***@");
}

/// No server at all: a clear message, exit 2, no password. Needs no PostgreSQL.
#[test]
fn an_unreachable_server_is_a_clear_message() {
    let (_dir, workspace) = workspace_with_log("give-up");
    let out = audit(
        &[
            workspace.to_str().unwrap(),
            "--db",
            "postgresql://postgres:hunter2-secret@127.0.0.1:1/audit?connect_timeout=5",
        ],
        &[],
    );
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_contains(&stderr, "postgresql://postgres:***@127.0.0.1:1/audit");
    assert_contains(&stderr, "no audit log could be read");
    assert!(!stderr.contains("hunter2"), "{stderr}");
}
