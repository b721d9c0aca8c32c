//! The log in SQLite, opened read-only: it is read while the runtime writes it (WAL or rollback
//! journal; a writer holding the lock is waited for up to [`BUSY_TIMEOUT`]) and only committed
//! rows are seen. Nothing is written or created: not the file, not a journal (`query_only`).

use std::borrow::Cow;
use std::path::Path;
use std::time::Duration;

use rusqlite::types::ValueRef;
use rusqlite::{Connection, OpenFlags};

use super::{push_row, select_list, SourceStats};
use crate::audit::Rows;

pub const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

pub fn read(path: &Path, since: Option<&str>, tally: &mut dyn Rows) -> Result<SourceStats, String> {
    let shown = path.display();
    match std::fs::metadata(path) {
        Err(_) => {
            return Err(format!(
                "{shown}: no audit log here (no runs recorded yet?)"
            ))
        }
        Ok(meta) if !meta.is_file() => return Err(format!("{shown}: not a file")),
        Ok(_) => {}
    }
    let fail = |e: rusqlite::Error| format!("{shown}: cannot read the audit log: {e}");
    let connection = open(path).map_err(fail)?;
    connection.busy_timeout(BUSY_TIMEOUT).map_err(fail)?;
    connection
        .pragma_update(None, "query_only", true)
        .map_err(fail)?;
    let columns: Vec<String> = {
        let mut statement = connection
            .prepare("SELECT name FROM pragma_table_info('audit_events')")
            .map_err(fail)?;
        let names = statement
            .query_map([], |row| row.get::<_, String>(0))
            .map_err(fail)?;
        names.collect::<Result<_, _>>().map_err(fail)?
    };
    let (list, warnings) = select_list(&shown, &columns, "")?;
    let filter = "(?1 IS NULL OR timestamp >= ?1)";
    let mut stats = SourceStats {
        warnings,
        ..SourceStats::default()
    };
    (stats.rows, stats.runs, stats.from, stats.to) = connection
        .query_row(
            &format!(
                "SELECT COUNT(*), COUNT(DISTINCT run_id), MIN(timestamp), MAX(timestamp) \
                 FROM audit_events WHERE {filter}"
            ),
            [since],
            |row| {
                Ok((
                    row.get::<_, i64>(0)? as u64,
                    row.get::<_, i64>(1)? as u64,
                    text(row.get_ref(2)?).map(Cow::into_owned),
                    text(row.get_ref(3)?).map(Cow::into_owned),
                ))
            },
        )
        .map_err(fail)?;
    let mut statement = connection
        .prepare(&format!(
            "SELECT {} FROM audit_events WHERE run_id IS NOT NULL AND agent_id IS NOT NULL \
             AND {filter} ORDER BY run_id, agent_id, timestamp, event_id",
            list.join(", ")
        ))
        .map_err(fail)?;
    let mut rows = statement.query([since]).map_err(fail)?;
    while let Some(row) = rows.next().map_err(fail)? {
        let field = |i: usize| row.get_ref(i).ok().and_then(text);
        push_row(tally, std::array::from_fn(field));
    }
    Ok(stats)
}

/// Opens the log read-only. A log in WAL mode with no `-wal` file beside it is open in no
/// process (the runtime's connection keeps its `-wal` while open), and a read-only connection
/// would create `-wal` and `-shm` files next to it and leave them: it is then read as immutable,
/// creating nothing. Otherwise (a writer is there, or a rollback journal) it is opened
/// read-only with locking, and SQLite shows the committed rows only.
fn open(path: &Path) -> rusqlite::Result<Connection> {
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let mut wal_name = path.as_os_str().to_owned();
    wal_name.push("-wal");
    if is_wal_mode(path) && !Path::new(&wal_name).exists() {
        let mut uri = String::from("file:");
        for byte in path.as_os_str().as_encoded_bytes() {
            match byte {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'/' | b'-' | b'_' | b'.' | b'~' => {
                    uri.push(char::from(*byte))
                }
                _ => uri.push_str(&format!("%{byte:02X}")),
            }
        }
        uri.push_str("?immutable=1");
        return Connection::open_with_flags(uri, flags | OpenFlags::SQLITE_OPEN_URI);
    }
    Connection::open_with_flags(path, flags)
}

/// The file's header says WAL (its read and write versions, bytes 18 and 19, are 2).
fn is_wal_mode(path: &Path) -> bool {
    use std::io::Read;
    let mut header = [0u8; 20];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut header))
        .is_ok_and(|_| header.starts_with(b"SQLite format 3\0") && header[18] == 2)
}

/// A value as text: SQLite keeps whatever type was stored, so a number or a blob in a text
/// column is read as its text rather than failing the row.
fn text(value: ValueRef<'_>) -> Option<Cow<'_, str>> {
    match value {
        ValueRef::Null => None,
        ValueRef::Text(bytes) | ValueRef::Blob(bytes) => Some(String::from_utf8_lossy(bytes)),
        ValueRef::Integer(i) => Some(Cow::Owned(i.to_string())),
        ValueRef::Real(f) => Some(Cow::Owned(f.to_string())),
    }
}
