//! The skill registry of a workspace as the SwarmKit resolver sees it: the skills of `skills/`
//! plus the skills the runtime makes up itself (see [`crate::model::defined_skills`] for which).
//!
//! Grants, `requires:` rules and abstract grants may name any of them. Every lookup goes through
//! [`Lookup`], so the reads are recorded for incremental re-checking.

use crate::diagnostic::FileId;
use crate::index::{Content, FileEntry, Key, Lookup};
use crate::model::defined_skills::{skills_defined_in, skills_named_in};
pub use crate::model::defined_skills::{Origin, SkillInfo, MEMORY_SKILLS, WORKSPACE_PACK};
use crate::model::swarmkit::{ArtifactKind, ImplementationType, Skill};
use crate::syntax::TextRange;

/// Every skill an index entry defines.
pub fn skills_defined_by(entry: &FileEntry) -> Vec<SkillInfo<'_>> {
    match &entry.parsed.content {
        Content::SwarmKit(artifact) => skills_defined_in(entry.id, artifact),
        _ => Vec::new(),
    }
}

fn collect<'a>(
    lookup: &Lookup<'a>,
    key: Key,
    keep: impl Fn(&SkillInfo<'a>) -> bool,
) -> Vec<SkillInfo<'a>> {
    let mut out: Vec<SkillInfo<'a>> = lookup
        .get(key)
        .into_iter()
        .flat_map(skills_defined_by)
        .filter(|s| keep(s))
        .collect();
    // A file in skills/ shadows a made-up skill of the same id.
    // Entries arrive in path order; the sort is stable, so files stay in path order.
    out.sort_by_key(|s| (s.id.clone(), s.origin != Origin::File));
    out
}

/// The skills with an id: files first (several when duplicated), then a made-up one.
pub fn skills_named<'a>(lookup: &Lookup<'a>, workspace: FileId, id: &str) -> Vec<SkillInfo<'a>> {
    // Reused from the checked file's last check while the id's definitions stay the same.
    lookup.skills_named(workspace, id, |lookup| {
        resolve_skills_named(lookup, workspace, id)
    })
}

/// Where the first skill with `id` that no topology makes is defined (a skill file, a memory
/// skill, a pack command), if any: one memo per state of the id's definitions. Ten thousand
/// topologies sharing a name each ask about the skill that name makes; each answer would
/// otherwise build the skills of all ten thousand.
pub fn first_not_made_by_a_topology(
    lookup: &Lookup<'_>,
    workspace: FileId,
    id: &str,
) -> Option<(FileId, TextRange)> {
    /// The memo's value (its own type, so it has a cell of its own under the key).
    struct FirstNotMadeByATopology(Option<(FileId, TextRange)>);
    let key = Key::Def {
        workspace,
        kind: ArtifactKind::Skill,
        id: id.to_owned(),
    };
    lookup
        .memo(key, |index| {
            // The memo's own read of the key covers every input.
            let found = resolve_skills_named(&Lookup::new(index), workspace, id)
                .into_iter()
                .find(|s| s.origin != Origin::Topology)
                .map(|s| (s.file, s.range));
            FirstNotMadeByATopology(found)
        })
        .0
}

fn resolve_skills_named<'a>(
    lookup: &Lookup<'a>,
    workspace: FileId,
    id: &str,
) -> Vec<SkillInfo<'a>> {
    let entries = lookup.get(Key::Def {
        workspace,
        kind: ArtifactKind::Skill,
        id: id.to_owned(),
    });
    // One lookup per grant on every edit: each contributor builds only the skills with this id
    // (the manifest contributes every pack command, and only the one named is wanted).
    let mut out: Vec<SkillInfo<'a>> = entries
        .into_iter()
        .flat_map(|entry| match &entry.parsed.content {
            Content::SwarmKit(artifact) => skills_named_in(entry.id, artifact, id),
            _ => Vec::new(),
        })
        .collect();
    // A file in skills/ shadows a made-up skill of the same id; the sort is stable, so files
    // stay in path order.
    out.sort_by_key(|s| s.origin != Origin::File);
    out
}

/// The skill an id resolves to, as the resolver picks it.
pub fn skill_named<'a>(lookup: &Lookup<'a>, workspace: FileId, id: &str) -> Option<SkillInfo<'a>> {
    skills_named(lookup, workspace, id).into_iter().next()
}

/// `server:<id>`: every `mcp_tool` skill on that server.
pub fn skills_on_server<'a>(
    lookup: &Lookup<'a>,
    workspace: FileId,
    server: &str,
) -> Vec<SkillInfo<'a>> {
    collect(
        lookup,
        Key::SkillsOnServer {
            workspace,
            server: server.to_owned(),
        },
        |s| on_server(s, server),
    )
}

/// Whether a skill belongs to `pack:<pack>`: a command of that pack, or a topology skill for
/// `pack:workspace`.
fn in_pack(skill: &SkillInfo<'_>, pack: &str) -> bool {
    match &skill.origin {
        Origin::PackCommand { pack: p, .. } => p == pack,
        Origin::Topology => pack == WORKSPACE_PACK,
        _ => false,
    }
}

/// Whether a skill is a command of a pack that may write, which a `pack:` grant does not hand
/// out (it must be named).
fn is_write_command(skill: &SkillInfo<'_>) -> bool {
    matches!(
        skill.origin,
        Origin::PackCommand {
            read_only: false,
            ..
        }
    )
}

/// Whether a skill is an `mcp_tool` skill on `server`.
fn on_server(skill: &SkillInfo<'_>, server: &str) -> bool {
    skill.implementation == Some(ImplementationType::McpTool) && skill.server() == Some(server)
}

/// A `server:` or `pack:` grant, by what it names.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum BulkGrant {
    Server(String),
    Pack(String),
}

/// The `server:` or `pack:` grant that hands `skill` out, if one does: its server's for an
/// `mcp_tool` skill, its pack's for a read command, `pack:workspace` for a topology skill. No
/// skill is handed out by two, and the member lists of [`granted_by_server`] and
/// [`granted_by_pack`] hold exactly the skills this names (they are filtered by the same
/// tests), so whether an agent's bulk grants hold an id is asked of the id's definitions
/// instead of every list.
pub fn bulk_grant_handing_out(skill: &SkillInfo<'_>) -> Option<BulkGrant> {
    if let Some(server) = skill.server().filter(|server| on_server(skill, server)) {
        return Some(BulkGrant::Server(server.to_owned()));
    }
    let pack = match &skill.origin {
        Origin::PackCommand { pack, .. } => pack.as_str(),
        Origin::Topology => WORKSPACE_PACK,
        _ => return None,
    };
    (in_pack(skill, pack) && !is_write_command(skill)).then(|| BulkGrant::Pack(pack.to_owned()))
}

/// Why a composed skill cannot be built, if it cannot: SwarmKit resolves `composes` against the
/// skills of `skills/` and the bundled ones, recursively, and drops a composed skill with an
/// unknown part or a loop anywhere below it. Answered from the workspace's composes graph, whose
/// read re-checks the caller when any skill's parts change.
pub fn unbuildable_composition(
    lookup: &Lookup<'_>,
    workspace: FileId,
    skill: &Skill,
) -> Option<String> {
    if skill.implementation() != Some(ImplementationType::Composed) {
        return None;
    }
    let id = skill.id.as_ref()?;
    super::composes::composes_graph(lookup, workspace)
        .unbuildable(&id.value)
        .map(str::to_owned)
}

/// The skill ids a bulk or abstract grant expands to, in registry order, computed once per state
/// of the member list's key and shared by every grant that names it: expanding `server:x` on
/// every keystroke must not rebuild, copy and sort its members each time, and an agent holds
/// the list itself, not a copy (`semantics::grants`).
#[derive(Debug, Default)]
pub struct GrantMembers {
    /// The ids the grant hands out, sorted (an id defined twice comes twice).
    pub ids: Vec<String>,
    /// How many skills belong to the server, pack or category, granted or not.
    pub member_count: usize,
    /// For a category: the sorted, deduplicated ids containing each capability asked about so
    /// far (an abstract grant matches by substring).
    matches: std::sync::Mutex<std::collections::HashMap<String, std::sync::Arc<Vec<String>>>>,
}

impl GrantMembers {
    /// `id` as the list holds it, found by binary search.
    pub fn get(&self, id: &str) -> Option<&str> {
        self.ids
            .binary_search_by(|member| member.as_str().cmp(id))
            .ok()
            .map(|at| self.ids[at].as_str())
    }

    /// The members whose id contains `capability`, sorted and deduplicated; computed once per
    /// (category, capability) while the category's members stay the same.
    pub fn containing(&self, capability: &str) -> std::sync::Arc<Vec<String>> {
        let mut cache = self
            .matches
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        cache
            .entry(capability.to_owned())
            .or_insert_with(|| {
                let mut found: Vec<String> = self
                    .ids
                    .iter()
                    .filter(|id| id.contains(capability))
                    .cloned()
                    .collect();
                found.sort();
                found.dedup();
                std::sync::Arc::new(found)
            })
            .clone()
    }
}

fn grant_members<'a>(
    lookup: &Lookup<'a>,
    key: Key,
    member: impl Fn(&SkillInfo<'a>) -> bool,
    granted: impl Fn(&SkillInfo<'a>) -> bool,
) -> std::sync::Arc<GrantMembers> {
    lookup.memo(key.clone(), |index| {
        // The memo's own read of `key` covers every input, so this lookup's reads are not kept.
        let members = collect(&Lookup::new(index), key, member);
        GrantMembers {
            member_count: members.len(),
            ids: members
                .into_iter()
                .filter(|s| granted(s))
                .map(|s| s.id)
                .collect(),
            matches: Default::default(),
        }
    })
}

/// What `server:<id>` grants: every `mcp_tool` skill on that server.
pub fn granted_by_server(
    lookup: &Lookup<'_>,
    workspace: FileId,
    server: &str,
) -> std::sync::Arc<GrantMembers> {
    grant_members(
        lookup,
        Key::SkillsOnServer {
            workspace,
            server: server.to_owned(),
        },
        |s| on_server(s, server),
        |_| true,
    )
}

/// What `pack:<id>` grants: the pack's read-only commands (a write command must be named), and
/// for `pack:workspace` the topology skills. `member_count` counts the write commands too.
pub fn granted_by_pack(
    lookup: &Lookup<'_>,
    workspace: FileId,
    pack: &str,
) -> std::sync::Arc<GrantMembers> {
    grant_members(
        lookup,
        Key::SkillsInPack {
            workspace,
            pack: pack.to_owned(),
        },
        |s| in_pack(s, pack),
        |s| !is_write_command(s),
    )
}

/// The skills of a category, for abstract grants (see [`GrantMembers::containing`]).
pub fn granted_by_category(
    lookup: &Lookup<'_>,
    workspace: FileId,
    category: &str,
) -> std::sync::Arc<GrantMembers> {
    grant_members(
        lookup,
        Key::SkillsInCategory {
            workspace,
            category: category.to_owned(),
        },
        |s| s.category.as_deref() == Some(category),
        |_| true,
    )
}
