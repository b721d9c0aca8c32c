//! Schema files named by `output_schema`, read once per state of the file and shared by every
//! agent that names them (the reading itself is `model::schema_file`); where such a path leads,
//! as SwarmKit resolves it; and which paths no file of the file set answers, for the edge to
//! look at on disk.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::index::{Content, FileRole, Index, Key, Lookup};
use crate::model::swarmkit::{Artifact, OutputSchema};

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
            .map(|entry| match entry.invalid_utf8_at {
                // `resolve_output_schema` reads it with `Path.read_text()`, which fails on it.
                Some(at) => Err(format!(
                    "is not UTF-8 text (byte {at} is not), so SwarmKit cannot read it"
                )),
                None => crate::model::schema_file::read(&entry.text, yaml),
            })
    })
}

pub use crate::model::schema_file::{resolve, Target};

/// Every `output_schema` path of the index's topologies (agents) and archetypes (defaults)
/// that leads inside its workspace to where the file set holds no file: what the edge looks at
/// on disk (`Settings::schema_paths`). One pass over the files.
pub fn unanswered_paths(index: &Index) -> BTreeSet<PathBuf> {
    let mut out = BTreeSet::new();
    for entry in index.files() {
        let FileRole::SwarmKit { workspace, .. } = &entry.role else {
            continue;
        };
        let schemas: Vec<&OutputSchema> = match &entry.parsed.content {
            Content::SwarmKit(Artifact::Topology(topology)) => topology
                .agents
                .iter()
                .filter_map(|agent| agent.output_schema.as_ref())
                .collect(),
            Content::SwarmKit(Artifact::Archetype(archetype)) => {
                archetype.default_output_schema.iter().collect()
            }
            _ => continue,
        };
        let root = index
            .file(*workspace)
            .and_then(|manifest| manifest.path.parent());
        let (Some(root), Some(base)) = (root, entry.path.parent()) else {
            continue;
        };
        for schema in schemas {
            let OutputSchema::Path(path) = schema else {
                continue;
            };
            if let Target::Path(target) = resolve(root, base, &path.value) {
                if index.file_id(&target).is_none() {
                    out.insert(target);
                }
            }
        }
    }
    out
}
