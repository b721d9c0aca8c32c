//! The SwarmKit artifacts we reason about, with the spans of every id and reference.

mod archetype;
mod env;
mod skill;
mod stray;
mod topology;
mod trigger;
mod workspace;

pub use archetype::{Archetype, Executor};
pub use env::{EnvFile, RawProperty};
pub use skill::{ImplementationType, Skill};
pub use stray::{stray_artifact, StrayArtifact};
pub use topology::{Agent, AgentIndex, RequiresBlock, RequiresRule, Topology};
pub use trigger::Trigger;
pub use workspace::{
    CommandPack, DecisionBinding, McpServer, PackCommand, Workspace, MEMORY_HOOKS,
};

use super::{field, Spanned, SpannedStr};
use crate::syntax::{Node, TextRange};

/// What the runtime puts before a topology's name to make the skill that runs that topology
/// (`topology-<name>`).
pub const TOPOLOGY_SKILL_PREFIX: &str = "topology-";

/// The id of the skill that runs the topology `name` as a child job.
pub fn topology_skill_id(name: &str) -> String {
    format!("{TOPOLOGY_SKILL_PREFIX}{name}")
}

/// The id of the skill a command pack's command becomes (`<pack>-<command>`).
pub fn pack_command_skill_id(pack: &str, command: &str) -> String {
    format!("{pack}-{command}")
}

/// What a SwarmKit YAML file declares itself to be (`kind:`), and where each kind is expected.
/// Everything known per kind is one row of [`KINDS`]; the methods read it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ArtifactKind {
    Workspace,
    Topology,
    Skill,
    Archetype,
    Trigger,
    Funnel,
    Contract,
    RoleRegistry,
    ExecutorAdapter,
}

/// The facts of one SwarmKit kind.
#[derive(Debug)]
pub struct KindFacts {
    pub kind: ArtifactKind,
    /// The `kind:` value, exactly the `kind` constant of its JSON Schema.
    pub kind_field: &'static str,
    /// The workspace directories whose files are loaded as this kind, the canonical one first
    /// (`schedules/` is an alias of `triggers/`); `.` for the manifest at the root.
    pub directories: &'static [&'static str],
    /// The stem of its bundled JSON Schema (`server/schemas/<stem>.schema.json`), as SwarmKit
    /// names it.
    pub schema_name: &'static str,
    /// The field of `metadata` that holds the id.
    pub id_field: &'static str,
}

/// The one table of SwarmKit kinds (directories as SPEC §2 lists them; schema stems as the
/// bundled `server/schemas/` name them), in the order of the enum. The rules' schema kinds,
/// classification, messages and the VS Code selectors test all read it.
pub const KINDS: [KindFacts; 9] = [
    KindFacts {
        kind: ArtifactKind::Workspace,
        kind_field: "Workspace",
        directories: &["."],
        schema_name: "workspace",
        id_field: "id",
    },
    KindFacts {
        kind: ArtifactKind::Topology,
        kind_field: "Topology",
        directories: &["topologies"],
        schema_name: "topology",
        id_field: "name",
    },
    KindFacts {
        kind: ArtifactKind::Skill,
        kind_field: "Skill",
        directories: &["skills"],
        schema_name: "skill",
        id_field: "id",
    },
    KindFacts {
        kind: ArtifactKind::Archetype,
        kind_field: "Archetype",
        directories: &["archetypes"],
        schema_name: "archetype",
        id_field: "id",
    },
    KindFacts {
        kind: ArtifactKind::Trigger,
        kind_field: "Trigger",
        directories: &["triggers", "schedules"],
        schema_name: "trigger",
        id_field: "id",
    },
    KindFacts {
        kind: ArtifactKind::Funnel,
        kind_field: "Funnel",
        directories: &["funnels"],
        schema_name: "funnel",
        id_field: "id",
    },
    KindFacts {
        kind: ArtifactKind::Contract,
        kind_field: "Contract",
        directories: &["contracts"],
        schema_name: "contract",
        id_field: "id",
    },
    KindFacts {
        kind: ArtifactKind::RoleRegistry,
        kind_field: "RoleRegistry",
        directories: &["roles"],
        schema_name: "role-registry",
        id_field: "id",
    },
    KindFacts {
        kind: ArtifactKind::ExecutorAdapter,
        kind_field: "ExecutorAdapter",
        directories: &["adapters"],
        schema_name: "executor-adapter",
        id_field: "id",
    },
];

impl ArtifactKind {
    /// Every kind, in the order of [`KINDS`].
    pub const ALL: [ArtifactKind; KINDS.len()] = {
        let mut all = [ArtifactKind::Workspace; KINDS.len()];
        let mut i = 0;
        while i < KINDS.len() {
            all[i] = KINDS[i].kind;
            i += 1;
        }
        all
    };

    /// This kind's row of [`KINDS`].
    pub fn facts(self) -> &'static KindFacts {
        &KINDS[self as usize]
    }

    pub fn from_kind_field(kind: &str) -> Option<ArtifactKind> {
        KINDS
            .iter()
            .find(|facts| facts.kind_field == kind)
            .map(|facts| facts.kind)
    }

    pub fn kind_field(self) -> &'static str {
        self.facts().kind_field
    }

    /// The kind an artifact directory holds (not the workspace root).
    pub fn for_directory(dir: &str) -> Option<ArtifactKind> {
        KINDS
            .iter()
            .filter(|facts| facts.kind != ArtifactKind::Workspace)
            .find(|facts| facts.directories.contains(&dir))
            .map(|facts| facts.kind)
    }

    /// The artifact directory a kind lives in (its canonical one).
    pub fn directory(self) -> &'static str {
        self.facts().directories[0]
    }

    /// The field that holds the id: `metadata.name` for topologies, `metadata.id` elsewhere.
    pub fn id_field(self) -> &'static str {
        self.facts().id_field
    }

    pub fn schema_name(self) -> &'static str {
        self.facts().schema_name
    }

    /// Every artifact directory of a workspace (not its root), canonical names and aliases.
    pub fn artifact_directories() -> impl Iterator<Item = &'static str> {
        KINDS
            .iter()
            .filter(|facts| facts.kind != ArtifactKind::Workspace)
            .flat_map(|facts| facts.directories.iter().copied())
    }
}

/// One lowered SwarmKit file.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
// One per file, already behind the file entry's `Arc`: boxing the skill variant (the largest)
// would add an allocation per skill file and buy nothing.
#[allow(clippy::large_enum_variant)]
pub enum Artifact {
    Workspace(Workspace),
    Topology(Topology),
    Skill(Skill),
    Archetype(Archetype),
    Trigger(Trigger),
    /// Funnels, contracts, role registries, adapters: only their id matters to resolution (and,
    /// for a role registry, the ids of the roles it declares).
    Other {
        kind: ArtifactKind,
        id: Option<SpannedStr>,
        /// `roles[].id` of a role registry; empty for other kinds.
        roles: Vec<SpannedStr>,
    },
}

impl Artifact {
    /// Lowers a parsed document of the given kind.
    pub fn lower(kind: ArtifactKind, root: Node<'_>) -> Artifact {
        match kind {
            ArtifactKind::Workspace => Artifact::Workspace(Workspace::lower(root)),
            ArtifactKind::Topology => Artifact::Topology(Topology::lower(root)),
            ArtifactKind::Skill => Artifact::Skill(Skill::lower(root)),
            ArtifactKind::Archetype => Artifact::Archetype(Archetype::lower(root)),
            ArtifactKind::Trigger => Artifact::Trigger(Trigger::lower(root)),
            other => Artifact::Other {
                kind: other,
                id: metadata_id(root, other.id_field()),
                roles: match other {
                    ArtifactKind::RoleRegistry => root
                        .get("roles")
                        .into_iter()
                        .flat_map(|r| r.items())
                        .filter_map(|role| field(role, "id"))
                        .collect(),
                    _ => Vec::new(),
                },
            },
        }
    }

    pub fn kind(&self) -> ArtifactKind {
        match self {
            Artifact::Workspace(_) => ArtifactKind::Workspace,
            Artifact::Topology(_) => ArtifactKind::Topology,
            Artifact::Skill(_) => ArtifactKind::Skill,
            Artifact::Archetype(_) => ArtifactKind::Archetype,
            Artifact::Trigger(_) => ArtifactKind::Trigger,
            Artifact::Other { kind, .. } => *kind,
        }
    }

    /// The artifact's id (`metadata.id`, or `metadata.name` for a topology).
    pub fn id(&self) -> Option<&SpannedStr> {
        match self {
            Artifact::Workspace(w) => w.id.as_ref(),
            Artifact::Topology(t) => t.name.as_ref(),
            Artifact::Skill(s) => s.id.as_ref(),
            Artifact::Archetype(a) => a.id.as_ref(),
            Artifact::Trigger(t) => t.id.as_ref(),
            Artifact::Other { id, .. } => id.as_ref(),
        }
    }
}

pub(crate) fn metadata_id(root: Node<'_>, key: &str) -> Option<SpannedStr> {
    root.get("metadata").and_then(|m| field(m, key))
}

/// A skill grant as written in `skills`, `skills_additional` or archetype `defaults.skills`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Grant {
    /// A skill id.
    Skill(SpannedStr),
    /// `server:<mcp-server-id>`: every mcp_tool skill on that server. `id` spans the part after the
    /// prefix; `range` the whole entry.
    Server { id: SpannedStr, range: TextRange },
    /// `pack:<command-pack-id>`: every command skill of that pack.
    Pack { id: SpannedStr, range: TextRange },
    /// `{abstract: {category, capability}}`: the one skill of that category whose id contains the
    /// capability.
    Abstract {
        category: Option<SpannedStr>,
        capability: Option<SpannedStr>,
        range: TextRange,
    },
    /// Anything else (a number, a nested list, a map of the wrong shape).
    Malformed {
        range: TextRange,
        found: &'static str,
    },
}

impl Grant {
    pub fn range(&self) -> TextRange {
        match self {
            Grant::Skill(id) => id.range,
            Grant::Server { range, .. } | Grant::Pack { range, .. } => *range,
            Grant::Abstract { range, .. } | Grant::Malformed { range, .. } => *range,
        }
    }

    /// Where the grant is written when it is used through an alias (the item inside the anchor).
    pub fn origin(&self) -> Option<TextRange> {
        match self {
            Grant::Skill(id) | Grant::Server { id, .. } | Grant::Pack { id, .. } => id.origin,
            Grant::Abstract { .. } | Grant::Malformed { .. } => None,
        }
    }

    /// `via`: the alias of the list this grant was reached through, if any; the grant is then
    /// placed at that alias (judged at each use) with its written place as origin.
    pub(crate) fn lower(node: Node<'_>, via: Option<TextRange>) -> Grant {
        let (range, origin) = crate::model::use_site(node, via);
        if let Some(abstract_node) = node.get("abstract") {
            return Grant::Abstract {
                category: field(abstract_node, "category"),
                capability: field(abstract_node, "capability"),
                range,
            };
        }
        // Only a YAML string is a grant: `42` or `true` are not ids, whatever they look like.
        let Some(text) = node.as_str() else {
            return Grant::Malformed {
                range,
                found: node.type_name(),
            };
        };
        // Used through an alias, or made by `${…}` substitution: the whole scalar is the place,
        // the id has no sub-range in the text as written.
        if origin.is_some() || node.style() == Some(crate::syntax::yaml::Style::Substituted) {
            let id = |rest: &str| Spanned::new(rest.to_owned(), range).with_origin(origin);
            return if let Some(rest) = text.strip_prefix("server:") {
                Grant::Server {
                    id: id(rest),
                    range,
                }
            } else if let Some(rest) = text.strip_prefix("pack:") {
                Grant::Pack {
                    id: id(rest),
                    range,
                }
            } else {
                Grant::Skill(id(text))
            };
        }
        // The id after a prefix: quoted scalars have a delimiter before the text, so locate the
        // prefix in the source span by length from the end.
        let split = |prefix: &str| {
            text.strip_prefix(prefix).map(|rest| {
                let rest_len = rest.len() as u32;
                let end = if node.style() == Some(crate::syntax::yaml::Style::Quoted) {
                    range.end.saturating_sub(1)
                } else {
                    range.end
                };
                let start = end.saturating_sub(rest_len).max(range.start);
                Spanned::new(rest.to_owned(), TextRange::new(start, end.max(start)))
            })
        };
        if let Some(id) = split("server:") {
            Grant::Server { id, range }
        } else if let Some(id) = split("pack:") {
            Grant::Pack { id, range }
        } else {
            Grant::Skill(Spanned::new(text.to_owned(), range))
        }
    }
}

pub(crate) fn grants(node: Option<Node<'_>>) -> Vec<Grant> {
    node.map(|n| {
        let via = n.is_alias().then(|| n.range());
        n.items().map(|item| Grant::lower(item, via)).collect()
    })
    .unwrap_or_default()
}

/// `output_schema:` of an agent or of an archetype's defaults.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum OutputSchema {
    /// A path to a JSON Schema file, relative to the file that declares it.
    Path(SpannedStr),
    /// A schema written inline, kept as JSON text (so the artifact stays hashable).
    Inline { json: String, range: TextRange },
    /// `output_schema: null`: the agent opts out of its archetype's schema.
    OptOut { range: TextRange },
}

impl OutputSchema {
    pub(crate) fn lower(node: Node<'_>) -> OutputSchema {
        if node.is_null() {
            OutputSchema::OptOut {
                range: node.range(),
            }
        } else if let Some(path) = node.as_str() {
            OutputSchema::Path(Spanned::new(path.to_owned(), node.range()))
        } else {
            OutputSchema::Inline {
                json: node.to_json().to_string(),
                range: node.range(),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_in_the_order_of_the_enum_and_round_trips() {
        for (i, facts) in KINDS.iter().enumerate() {
            assert_eq!(facts.kind as usize, i, "{facts:?}");
            assert_eq!(
                ArtifactKind::from_kind_field(facts.kind_field),
                Some(facts.kind)
            );
        }
        for kind in ArtifactKind::ALL {
            if kind != ArtifactKind::Workspace {
                assert_eq!(ArtifactKind::for_directory(kind.directory()), Some(kind));
            }
        }
        assert_eq!(
            ArtifactKind::for_directory("schedules"),
            Some(ArtifactKind::Trigger)
        );
        assert_eq!(ArtifactKind::for_directory("."), None);
        assert_eq!(ArtifactKind::from_kind_field("skill"), None);
    }
}
