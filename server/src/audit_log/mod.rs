//! Reading SwarmKit's audit log, at the edge: where it is (`location`, as the runtime decides),
//! and its rows, streamed from SQLite (`sqlite`) or PostgreSQL (`postgres`, the default
//! feature of the same name) into the pure count, `audit::Tally`, or the editor's recording of
//! it, `audit::Recorder`. Nothing here writes: SQLite
//! is opened read-only (`query_only` besides), PostgreSQL is read in a read-only transaction.
//! It must not know what a row means for a rule: that is `audit`'s, which it only feeds.
//!
//! Both read the same columns of `audit_events` (swarmkit-runtime 1.265.0,
//! `audit/_tables.py`), sorted by (run, agent, timestamp, event) in byte order, so a pair's rows
//! come together and in order. What can be counted in the database is (the rows, runs and period
//! of a log); the rest needs the order of a pair's calls and is streamed.

pub mod location;
#[cfg(feature = "postgres")]
pub mod postgres;
pub mod sqlite;

use crate::audit::{AuditRow, Rows};

pub use location::{resolve, Location};

/// What one log held.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SourceStats {
    pub rows: u64,
    pub runs: u64,
    pub from: Option<String>,
    pub to: Option<String>,
    /// Problems that did not stop the reading (a column missing, read as NULL).
    pub warnings: Vec<String>,
}

/// The columns read, in order; the first four are needed, the others read as NULL when a log
/// lacks them.
pub(crate) const COLUMNS: &[&str] = &[
    "run_id",
    "agent_id",
    "event_type",
    "skill_id",
    "event_id",
    "topology_id",
    "timestamp",
    "policy_decision",
    "policy_reason",
    "payload",
];
const NEEDED: usize = 4;

/// The select list for the columns a log's `audit_events` table has (`columns`; the others as
/// NULL), and the warnings. A log without the table or without a needed column is refused, the
/// message starting with `shown`, the log as the user named it.
pub(crate) fn select_list(
    shown: impl std::fmt::Display,
    columns: &[String],
    cast: &str,
) -> Result<(Vec<String>, Vec<String>), String> {
    if columns.is_empty() {
        return Err(format!(
            "{shown}: no table audit_events: not a SwarmKit audit log"
        ));
    }
    let has = |c: &str| columns.iter().any(|n| n.eq_ignore_ascii_case(c));
    let missing: Vec<&str> = COLUMNS.iter().copied().filter(|c| !has(c)).collect();
    let needed: Vec<&str> = missing
        .iter()
        .copied()
        .filter(|c| COLUMNS[..NEEDED].contains(c))
        .collect();
    if !needed.is_empty() {
        return Err(format!(
            "{shown}: table audit_events has no column {}: not a SwarmKit audit log",
            needed.join(", ")
        ));
    }
    let list = COLUMNS
        .iter()
        .map(|&c| match (has(c), c) {
            (false, _) => "NULL".to_owned(),
            // The payload only where it is read: a call's result.
            (true, "payload") => {
                format!("CASE WHEN event_type = 'skill.executed' THEN payload{cast} END")
            }
            (true, c) => format!("{c}{cast}"),
        })
        .collect();
    let warnings = missing
        .iter()
        .map(|c| format!("table audit_events has no column {c}; read as NULL"))
        .collect();
    Ok((list, warnings))
}

/// Hands one row of text fields (in [`COLUMNS`] order) to the count or the recording.
pub(crate) fn push_row(tally: &mut dyn Rows, fields: [Option<std::borrow::Cow<'_, str>>; 10]) {
    let [run_id, agent_id, event_type, skill_id, event_id, topology_id, timestamp, policy_decision, policy_reason, payload] =
        fields;
    let result = payload
        .as_deref()
        .and_then(crate::audit::rows::result_of_payload)
        .map(|r| std::borrow::Cow::Owned(r.into_owned()));
    tally.push(&AuditRow {
        event_id,
        event_type,
        run_id,
        agent_id,
        topology_id,
        skill_id,
        timestamp,
        policy_decision,
        policy_reason,
        result,
    });
}

/// Reads one log into `tally` (a count, or the editor's recording). `since`: only rows at or after this timestamp prefix (`2026-12-01`
/// or a full ISO time; the runtime writes ISO-8601 text, which sorts as time).
pub fn read(
    location: &Location,
    since: Option<&str>,
    tally: &mut dyn Rows,
) -> Result<SourceStats, String> {
    match location {
        Location::Sqlite(path) => sqlite::read(path, since, tally),
        #[cfg(feature = "postgres")]
        Location::Postgres(url) => postgres::read(url, since, tally),
        #[cfg(not(feature = "postgres"))]
        Location::Postgres(_) => Err(
            "this build of skillgraph has no PostgreSQL support (the `postgres` feature)"
                .to_owned(),
        ),
    }
}
