//! Schema files named by `output_schema`, read once per state of the file and shared by every
//! agent that names them (the reading itself is `model::schema_file`).

use std::path::Path;
use std::sync::Arc;

use crate::index::{Key, Lookup};

/// What reading a schema file gave: its value, or why it could not be read.
pub type SchemaDocument = Result<serde_json::Value, String>;

/// The schema file at `path`, read as YAML when `yaml` (else as JSON); `None` when no file of
/// the file set is at `path`. Records the read of the file.
pub fn schema_document(
    lookup: &Lookup<'_>,
    path: &Path,
    yaml: bool,
) -> Arc<Option<SchemaDocument>> {
    let key = if yaml {
        Key::YamlFile {
            path: path.to_owned(),
        }
    } else {
        Key::JsonFile {
            path: path.to_owned(),
        }
    };
    lookup.memo(key.clone(), |index| {
        // The memo's own read of `key` covers the file, so this lookup's reads are not kept.
        Lookup::new(index)
            .get(key)
            .first()
            .map(|entry| crate::model::schema_file::read(&entry.text, yaml))
    })
}
