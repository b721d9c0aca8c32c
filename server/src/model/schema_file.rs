//! A JSON Schema file an agent's `output_schema` names, read the way SwarmKit reads it
//! (swarmkit-runtime 1.265.0, `resolve_output_schema` in `resolver/_output_schema_ref.py`):
//! a `.yaml` / `.yml` file (any case) as YAML, PyYAML's `safe_load` of one document with the
//! last of repeated keys winning, any other as JSON; and where such a path leads.

use std::path::{Component, Path, PathBuf};

/// What the edge found on disk at an `output_schema` path that no file of the file set answers
/// (`index::Settings::schema_paths`; `check` looks, the server does not): SwarmKit's
/// `_resolve_path` refuses a path unless `Path.is_file()` (so a folder, or nothing at all), and
/// `resolve_output_schema` one whose `read_text()` fails.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PathFact {
    /// Nothing is there.
    Missing,
    /// A folder is there.
    Folder,
    /// A file is there that cannot be read (the reason as the system gives it), or something
    /// that is not a regular file (a FIFO, a socket, a device).
    Unreadable(String),
    /// A readable file that the file set does not hold (another suffix, a symlink): nothing is
    /// said about it.
    Unread,
}

/// The file's value, or why it could not be read (said after "which", as in "names `x`, which
/// does not parse: …").
pub fn read(text: &str, yaml: bool) -> Result<serde_json::Value, String> {
    if !yaml {
        return serde_json::from_str(text).map_err(|error| format!("is not valid JSON: {error}"));
    }
    let bom = crate::syntax::bom_len(text);
    let doc = crate::syntax::YamlDocument::parse(&text[bom..], bom as u32);
    if let Some(error) = doc.errors.first() {
        return Err(format!("does not parse: {}", error.message));
    }
    Ok(doc
        .root()
        .map_or(serde_json::Value::Null, |root| root.to_json()))
}

/// Where an `output_schema` path leads, as `_resolve_path` (`resolver/_output_schema_ref.py`,
/// swarmkit-runtime 1.265.0) resolves it before reading.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// `://` in the value: refused, a workspace must not depend on the network.
    Url,
    /// Outside the workspace's folder: refused.
    Outside,
    /// The path the runtime would read.
    Path(PathBuf),
}

/// The target of `value` written in a file of the folder `base`, inside the workspace at `root`.
pub fn resolve(root: &Path, base: &Path, value: &str) -> Target {
    if value.contains("://") {
        return Target::Url;
    }
    match normalize(&base.join(value)) {
        Some(target) if target.starts_with(root) => Target::Path(target),
        _ => Target::Outside,
    }
}

/// `a/b/../c` → `a/c` without touching the disk; `None` when `..` climbs above the start.
fn normalize(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::read;

    #[test]
    fn yaml_and_json_as_swarmkit_reads_them() {
        let value = read("type: object\nrequired: [a]\ntype: array\n", true);
        assert_eq!(
            value,
            Ok(serde_json::json!({"type": "array", "required": ["a"]})),
            "the last of repeated keys wins"
        );
        assert_eq!(read("", true), Ok(serde_json::Value::Null));
        assert!(read("a: [1,\n", true)
            .unwrap_err()
            .starts_with("does not parse: "));
        assert_eq!(
            read("{\"type\": \"object\"}", false),
            Ok(serde_json::json!({"type": "object"}))
        );
        assert!(read("type: object", false)
            .unwrap_err()
            .starts_with("is not valid JSON: "));
    }
}
