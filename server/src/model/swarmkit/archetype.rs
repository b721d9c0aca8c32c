//! `archetypes/*.yaml`: a reusable kind of agent with default skills.

use super::super::{field, SpannedStr};
use super::{grants, metadata_id, Grant};
use crate::syntax::{Node, TextRange};

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Archetype {
    pub id: Option<SpannedStr>,
    pub role: Option<SpannedStr>,
    pub description: Option<SpannedStr>,
    /// `defaults.skills`, including abstract entries.
    pub default_skills: Vec<Grant>,
    /// The `skills:` key under `defaults`, when present.
    pub default_skills_key: Option<TextRange>,
    /// `defaults.output_schema`, inherited by agents that do not write their own.
    pub default_output_schema: Option<super::OutputSchema>,
    /// `executor:` key, `kind` and `ref`, when present.
    pub executor: Option<Executor>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Executor {
    pub key_range: TextRange,
    pub kind: Option<SpannedStr>,
    pub reference: Option<SpannedStr>,
}

impl Archetype {
    pub fn lower(root: Node<'_>) -> Archetype {
        let defaults = root.get("defaults");
        let skills = defaults.and_then(|d| d.entry("skills"));
        Archetype {
            id: metadata_id(root, "id"),
            role: field(root, "role"),
            description: root.get("metadata").and_then(|m| field(m, "description")),
            default_skills: grants(skills.map(|(_, v)| v)),
            default_skills_key: skills.map(|(k, _)| k.range()),
            default_output_schema: defaults
                .and_then(|d| d.get("output_schema"))
                .map(super::OutputSchema::lower),
            executor: root.entry("executor").map(|(key, value)| Executor {
                key_range: key.range(),
                kind: field(value, "kind"),
                reference: field(value, "ref"),
            }),
        }
    }
}
