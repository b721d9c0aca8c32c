//! Where a workspace's audit log is, decided as the runtime decides it for its `audit` store
//! (swarmkit-runtime 1.265.0, `persistence/_service.py`, `StorageService._resolve` and
//! `_checked`, checked 2026-12-04):
//! 1. `SWARMKIT_STORE_BACKEND`, else the backend `SWARMKIT_STORE_URL` (or, when that is unset or
//!    empty, `DATABASE_URL`) names (`backend_from_url`), with that URL;
//! 2. else `workspace.yaml` `storage.audit.backend`, with its `url` or `storage.runtime.url`;
//! 3. else `storage.runtime.backend` and its `url`;
//! 4. else `<workspace>/.swarmkit/audit.sqlite`.
//!
//! A `url` from the manifest has `${VAR}`, `${VAR:-default}` and `$VAR` expanded from the
//! environment (`expand_env`). A backend other than `sqlite` or `postgres`, or `postgres`
//! without a URL, is an error, as it is for the runtime.

use std::path::{Path, PathBuf};

use crate::syntax::YamlDocument;

/// A log's place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    Sqlite(PathBuf),
    /// The URL as configured, password included: never shown (see [`redacted`]).
    Postgres(String),
}

impl Location {
    /// How the log is named in output: a path, or the URL without its password.
    pub fn display(&self) -> String {
        match self {
            Location::Sqlite(path) => path.display().to_string(),
            Location::Postgres(url) => redacted(url),
        }
    }

    pub fn kind(&self) -> &'static str {
        match self {
            Location::Sqlite(_) => "sqlite",
            Location::Postgres(_) => "postgres",
        }
    }

    /// A `--db` argument: a URL (`postgres://`, `postgresql://`, `sqlite:///…`) or a file path.
    pub fn from_argument(argument: &str) -> Result<Location, String> {
        match backend_from_url(argument) {
            "postgres" => Ok(Location::Postgres(argument.to_owned())),
            "sqlite" => sqlite_path(argument).map(Location::Sqlite),
            _ => Ok(Location::Sqlite(PathBuf::from(argument))),
        }
    }
}

/// The log `[audit] log` names: a URL, or a SQLite file relative to `dir` (the folder of the
/// `skillgraph.toml` that says it, or the workspace's for an editor setting), with `${VAR}`
/// expanded from `env` so that a password need not be written in the file.
pub fn configured(
    log: &str,
    dir: &Path,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Location, String> {
    let log = expand_env(log, env);
    match Location::from_argument(log.trim())? {
        Location::Sqlite(path) if path.is_relative() => Ok(Location::Sqlite(dir.join(path))),
        other => Ok(other),
    }
}

/// Where the runtime would write the audit log of the workspace at `root`, whose manifest reads
/// `manifest` (`None` when there is none), with the environment `env`. Also returns where the
/// decision came from (`env`, `storage.audit`, `storage.runtime`, `default`).
pub fn resolve(
    root: &Path,
    manifest: Option<&str>,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<(Location, &'static str), String> {
    let default = || root.join(".swarmkit").join("audit.sqlite");
    let env_backend = env("SWARMKIT_STORE_BACKEND")
        .unwrap_or_default()
        .trim()
        .to_lowercase();
    // Python's `a or b`: an empty SWARMKIT_STORE_URL falls through to DATABASE_URL.
    let env_url = env("SWARMKIT_STORE_URL")
        .filter(|u| !u.is_empty())
        .or_else(|| env("DATABASE_URL"))
        .unwrap_or_default();
    if !env_backend.is_empty() || !env_url.is_empty() {
        let backend = if env_backend.is_empty() {
            backend_from_url(&env_url).to_owned()
        } else {
            env_backend
        };
        if !backend.is_empty() {
            return checked(&backend, &env_url, "env", default);
        }
    }
    let document = manifest.map(|text| YamlDocument::parse(text, 0));
    let storage = document
        .as_ref()
        .and_then(|d| d.root())
        .and_then(|r| r.get("storage"));
    let block = |name: &str| storage.and_then(|s| s.get(name));
    let text = |block: Option<crate::syntax::Node<'_>>, key: &str| {
        block
            .and_then(|b| b.get(key))
            .and_then(|v| v.scalar())
            .map(str::to_owned)
            .filter(|v| !v.is_empty() && v != "~" && v != "null")
    };
    let runtime = block("runtime");
    for (name, source) in [("audit", "storage.audit"), ("runtime", "storage.runtime")] {
        let own = block(name);
        let Some(backend) = text(own, "backend").map(|b| b.trim().to_lowercase()) else {
            continue;
        };
        let url = text(own, "url").or_else(|| text(runtime, "url"));
        let url = expand_env(&url.unwrap_or_default(), env).trim().to_owned();
        return checked(&backend, &url, source, default);
    }
    Ok((Location::Sqlite(default()), "default"))
}

fn checked(
    backend: &str,
    url: &str,
    source: &'static str,
    default: impl Fn() -> PathBuf,
) -> Result<(Location, &'static str), String> {
    match backend {
        "sqlite" if url.is_empty() => Ok((Location::Sqlite(default()), source)),
        "sqlite" => Ok((Location::Sqlite(sqlite_path(url)?), source)),
        "postgres" if url.is_empty() => Err(format!(
            "storage backend 'postgres' for audit (from {source}) has no URL; set storage.audit.url, storage.runtime.url or SWARMKIT_STORE_URL, as the runtime needs"
        )),
        "postgres" => Ok((Location::Postgres(url.to_owned()), source)),
        other => Err(format!(
            "storage backend '{other}' for audit (from {source}) is not supported by the runtime; use 'sqlite' or 'postgres'"
        )),
    }
}

/// `backend_from_url`: the backend a URL's scheme names, or "".
pub fn backend_from_url(url: &str) -> &'static str {
    let lowered = url.trim().to_lowercase();
    if ["postgres://", "postgresql://", "postgresql+"]
        .iter()
        .any(|p| lowered.starts_with(p))
    {
        "postgres"
    } else if lowered.starts_with("sqlite") {
        "sqlite"
    } else {
        ""
    }
}

/// The file of an SQLAlchemy SQLite URL: `sqlite:///relative.db`, `sqlite:////absolute.db`
/// (a driver may follow the dialect: `sqlite+pysqlite:///…`); a query string is dropped.
fn sqlite_path(url: &str) -> Result<PathBuf, String> {
    let after_scheme = url.split_once("://").map(|(_, rest)| rest);
    let path = after_scheme
        .and_then(|rest| rest.strip_prefix('/'))
        .map(|rest| rest.split('?').next().unwrap_or(rest))
        .filter(|p| !p.is_empty() && *p != ":memory:");
    match path {
        Some(path) => Ok(PathBuf::from(path)),
        None => Err(format!(
            "`{}` names no SQLite file (an in-memory database keeps no log)",
            redacted(url)
        )),
    }
}

/// `expand_env`: `${VAR}`, `${VAR:-default}` and `$VAR`, an unset variable as "".
pub fn expand_env(value: &str, env: &dyn Fn(&str) -> Option<String>) -> String {
    let name_len = |s: &str| {
        let mut chars = s.char_indices();
        match chars.next() {
            Some((_, c)) if c == '_' || c.is_ascii_alphabetic() => chars
                .find(|(_, c)| !(*c == '_' || c.is_ascii_alphanumeric()))
                .map_or(s.len(), |(i, _)| i),
            _ => 0,
        }
    };
    let mut out = String::with_capacity(value.len());
    let mut rest = value;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        if let Some(inner) = after.strip_prefix('{') {
            let n = name_len(inner);
            let tail = &inner[n..];
            if n > 0 {
                if let Some(close) = tail.strip_prefix('}') {
                    out.push_str(&env(&inner[..n]).unwrap_or_default());
                    rest = close;
                    continue;
                }
                if let Some(default) = tail.strip_prefix(":-") {
                    if let Some(end) = default.find('}') {
                        let value = env(&inner[..n]);
                        out.push_str(&value.unwrap_or_else(|| default[..end].to_owned()));
                        rest = &default[end + 1..];
                        continue;
                    }
                }
            }
        } else {
            let n = name_len(after);
            if n > 0 {
                out.push_str(&env(&after[..n]).unwrap_or_default());
                rest = &after[n..];
                continue;
            }
        }
        out.push('$');
        rest = after;
    }
    out.push_str(rest);
    out
}

/// A URL safe to show: the password of its user part and any `password=` parameter replaced by
/// `***` (the runtime's `redacted_url` does the same for its own output). Text that is no URL is
/// not echoed at all, since it could be a password pasted in the wrong place.
pub fn redacted(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return "<not a URL>".to_owned();
    };
    // A password may hold an unescaped '@' or '/' (a malformed URL, but a real password): the
    // user part ends at the last '@' before the query.
    let query = rest.find('?').unwrap_or(rest.len());
    let at = rest[..query].rfind('@');
    let (user, host_and_rest) = match at {
        Some(at) => (Some(&rest[..at]), &rest[at + 1..]),
        None => (None, rest),
    };
    let mut out = format!("{scheme}://");
    if let Some(user) = user {
        match user.split_once(':') {
            Some((name, _)) => out.push_str(&format!("{name}:***@")),
            None => out.push_str(&format!("{user}@")),
        }
    }
    match host_and_rest.split_once('?') {
        Some((head, query)) => {
            out.push_str(head);
            out.push('?');
            let params: Vec<String> = query
                .split('&')
                .map(|p| match p.split_once('=') {
                    Some((k, _)) if k.eq_ignore_ascii_case("password") => format!("{k}=***"),
                    _ => p.to_owned(),
                })
                .collect();
            out.push_str(&params.join("&"));
        }
        None => out.push_str(host_and_rest),
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn env_of(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        move |k| map.get(k).cloned()
    }

    #[test]
    fn decides_as_the_runtime_does() {
        let root = Path::new("/ws");
        let default = Location::Sqlite(PathBuf::from("/ws/.swarmkit/audit.sqlite"));
        // Without a manifest: the environment alone.
        let from_env = |pairs: &[(&str, &str)]| resolve(root, None, &env_of(pairs)).unwrap();
        assert_eq!(from_env(&[]), (default.clone(), "default"));
        // A URL alone names its backend.
        let pg = "postgresql://u:secret@db/audit";
        let postgres = (Location::Postgres(pg.to_owned()), "env");
        assert_eq!(from_env(&[("SWARMKIT_STORE_URL", pg)]), postgres);
        assert_eq!(from_env(&[("DATABASE_URL", pg)]).0, postgres.0);
        // An empty SWARMKIT_STORE_URL falls through to DATABASE_URL.
        let fallen = from_env(&[("SWARMKIT_STORE_URL", ""), ("DATABASE_URL", pg)]);
        assert_eq!(fallen.0, postgres.0);
        // SWARMKIT_STORE_BACKEND=sqlite without a URL: the default file.
        let backend = from_env(&[("SWARMKIT_STORE_BACKEND", "SQLite ")]);
        assert_eq!(backend, (default.clone(), "env"));
        // A URL of no known backend is ignored, and the manifest decides.
        let manifest =
            "storage:\n  runtime:\n    backend: postgres\n    url: ${PGURL:-postgres://x@h/d}\n";
        assert_eq!(
            resolve(
                root,
                Some(manifest),
                &env_of(&[("DATABASE_URL", "mysql://h/d")])
            )
            .unwrap(),
            (
                Location::Postgres("postgres://x@h/d".to_owned()),
                "storage.runtime"
            )
        );
        // storage.audit wins over storage.runtime, and inherits its URL.
        let manifest =
            "storage:\n  audit: {backend: postgres}\n  runtime: {backend: sqlite, url: $PGURL}\n";
        assert_eq!(
            resolve(root, Some(manifest), &env_of(&[("PGURL", pg)])).unwrap(),
            (Location::Postgres(pg.to_owned()), "storage.audit")
        );
        let manifest = "storage:\n  audit: {backend: sqlite, url: 'sqlite:////var/a.db'}\n";
        assert_eq!(
            resolve(root, Some(manifest), &env_of(&[])).unwrap().0,
            Location::Sqlite(PathBuf::from("/var/a.db"))
        );
        // Errors the runtime raises.
        let manifest = "storage:\n  audit: {backend: postgres, url: '${UNSET}'}\n";
        assert!(resolve(root, Some(manifest), &env_of(&[]))
            .unwrap_err()
            .contains("has no URL"));
        assert!(
            resolve(root, None, &env_of(&[("SWARMKIT_STORE_BACKEND", "mysql")]))
                .unwrap_err()
                .contains("not supported")
        );
    }

    #[test]
    fn never_shows_a_password() {
        for (url, shown) in [
            (
                "postgresql://u:hunter2@h:5432/d",
                "postgresql://u:***@h:5432/d",
            ),
            (
                "postgres://u:p@ss/w@h/d?sslmode=require",
                "postgres://u:***@h/d?sslmode=require",
            ),
            (
                "postgres://h/d?user=u&password=hunter2",
                "postgres://h/d?user=u&password=***",
            ),
            ("postgres://u@h/d", "postgres://u@h/d"),
            ("hunter2", "<not a URL>"),
        ] {
            assert_eq!(redacted(url), shown);
            assert!(!redacted(url).contains("hunter2"));
        }
    }

    #[test]
    fn expands_like_the_runtime() {
        let env = env_of(&[("A", "1")]);
        assert_eq!(expand_env("x${A}y$A${B:-d}${B}$", &env), "x1y1d$");
        assert_eq!(expand_env("${A", &env), "${A");
    }
}
