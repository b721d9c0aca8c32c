//! Skill grants resolved: an agent's effective skill set and where each skill came from.
//!
//! The effective set: the agent's `skills` if present, else its archetype's `defaults.skills`;
//! then `skills_additional` appended; `server:`, `pack:` and abstract grants expanded.
//!
//! A `server:` or `pack:` grant is held as the member list every grant of its target shares
//! (`registry::GrantMembers`), never copied into the agent: two thousand agents granting a
//! server of twenty thousand skills hold two thousand references, not forty million entries.
//! Whether an agent holds an id is asked of the ids it grants one by one and of the id's own
//! definitions (each is handed out by its server's or its pack's grant), so an answer costs
//! what the id is, not what the agent's bulk grants hold or how many there are.
//!
//! Resolving a grant and finding that it names nothing are one walk, so the resolver reports
//! the problems it meets (unknown skill, unknown `server:`/`pack:` target, abstract grants that
//! match nothing or too much, entries of the wrong shape) into a sink the caller hands it: the
//! rules publish them (their docs are in `rules::grants`), the IDE drops them.

use std::cell::OnceCell;
use std::collections::HashMap;
use std::sync::Arc;

use crate::diagnostic::{codes, fixes, Code, Diagnostic, FileId, Fix};
use crate::index::{Content, Key, Lookup};
use crate::model::swarmkit::{
    Agent, Archetype, Artifact, ArtifactKind, Grant, ImplementationType, Skill,
};
use crate::model::SpannedStr;
use crate::semantics::registry::{self, BulkGrant, GrantMembers};
use crate::syntax::TextRange;

/// Where an effective skill came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GrantSource {
    Skills,
    Archetype(String),
    SkillsAdditional,
    Server(String),
    Pack(String),
    Abstract,
}

impl GrantSource {
    pub fn describe(&self) -> String {
        match self {
            GrantSource::Skills => "skills".into(),
            GrantSource::Archetype(id) => format!("archetype {id}"),
            GrantSource::SkillsAdditional => "skills_additional".into(),
            GrantSource::Server(id) => format!("server:{id} grant"),
            GrantSource::Pack(id) => format!("pack:{id} grant"),
            GrantSource::Abstract => "abstract grant".into(),
        }
    }
}

/// One skill an agent holds, as one of its grants hands it out.
#[derive(Clone, Copy, Debug)]
pub struct HeldSkill<'e> {
    pub id: &'e str,
    pub source: &'e GrantSource,
    /// The grant's file: the archetype's when inherited.
    pub grant_file: FileId,
    pub grant_range: TextRange,
}

/// A grant that hands out something, with where it is written.
#[derive(Clone, Debug)]
pub struct Granted {
    handed: Handed,
    source: GrantSource,
    file: FileId,
    range: TextRange,
}

/// What one grant hands out.
#[derive(Clone, Debug)]
enum Handed {
    /// One skill: a plain id, or the one skill an abstract grant matches.
    One(String),
    /// What a `server:` or `pack:` grant hands out (never nothing): the member list, sorted by
    /// id, that every grant of the target shares.
    Bulk(BulkGrant, Arc<GrantMembers>),
}

impl Granted {
    /// Every skill the grant hands out, in registry order.
    fn skills(&self) -> impl Iterator<Item = HeldSkill<'_>> {
        let ids: &[String] = match &self.handed {
            Handed::One(id) => std::slice::from_ref(id),
            Handed::Bulk(_, members) => &members.ids,
        };
        ids.iter().map(move |id| self.held(id))
    }

    /// `id` as this grant hands it out, if it does.
    fn held_as(&self, id: &str) -> Option<HeldSkill<'_>> {
        match &self.handed {
            Handed::One(own) => (own == id).then(|| self.held(own)),
            Handed::Bulk(_, members) => members.get(id).map(|own| self.held(own)),
        }
    }

    fn held<'e>(&'e self, id: &'e str) -> HeldSkill<'e> {
        HeldSkill {
            id,
            source: &self.source,
            grant_file: self.file,
            grant_range: self.range,
        }
    }

    /// Whether both are written at one place (one list reached through two aliases).
    fn same_place(&self, other: &Granted) -> bool {
        self.file == other.file && self.range == other.range
    }
}

/// Where a grant is written, and from which list.
#[derive(Clone, Copy, Debug)]
pub struct GrantPlace<'e> {
    pub source: &'e GrantSource,
    pub file: FileId,
    pub range: TextRange,
}

impl<'e> From<&'e Granted> for GrantPlace<'e> {
    fn from(grant: &'e Granted) -> Self {
        GrantPlace {
            source: &grant.source,
            file: grant.file,
            range: grant.range,
        }
    }
}

/// A grant handing out what the agent holds already (`agent.duplicate-grant`).
#[derive(Clone, Debug)]
pub enum Repeat<'e> {
    /// A skill granted one by one that an earlier grant handed out.
    Skill {
        grant: HeldSkill<'e>,
        first: HeldSkill<'e>,
    },
    /// A `server:` or `pack:` grant naming a target an earlier grant named.
    Target {
        grant: GrantPlace<'e>,
        first: GrantPlace<'e>,
    },
    /// A `server:` or `pack:` grant handing out skills granted one by one before it: the first
    /// grant of each, in grant order.
    Members {
        grant: GrantPlace<'e>,
        repeated: Vec<HeldSkill<'e>>,
    },
}

/// An agent's effective skills, in grant order.
#[derive(Clone)]
pub struct EffectiveSkills<'l, 'a> {
    lookup: &'l Lookup<'a>,
    workspace: FileId,
    grants: Vec<Granted>,
    /// The first grant of each id granted one by one.
    first_single: HashMap<String, usize>,
    /// The first grant of each `server:`/`pack:` target.
    first_bulk: HashMap<BulkGrant, usize>,
    /// The ids granted one by one, sorted and deduplicated, for "did you mean" (made on first
    /// use).
    sorted_singles: OnceCell<Vec<String>>,
}

impl<'l, 'a> EffectiveSkills<'l, 'a> {
    fn new(lookup: &'l Lookup<'a>, workspace: FileId, grants: Vec<Granted>) -> Self {
        let mut first_single = HashMap::new();
        let mut first_bulk = HashMap::new();
        for (at, grant) in grants.iter().enumerate() {
            match &grant.handed {
                Handed::One(id) => {
                    first_single.entry(id.clone()).or_insert(at);
                }
                Handed::Bulk(target, _) => {
                    first_bulk.entry(target.clone()).or_insert(at);
                }
            }
        }
        EffectiveSkills {
            lookup,
            workspace,
            grants,
            first_single,
            first_bulk,
            sorted_singles: OnceCell::new(),
        }
    }

    /// Every skill held, grant by grant in grant order, a bulk grant's in registry order (a
    /// skill granted twice comes twice).
    pub fn iter(&self) -> impl Iterator<Item = HeldSkill<'_>> {
        self.grants.iter().flat_map(Granted::skills)
    }

    pub fn is_empty(&self) -> bool {
        self.grants.is_empty()
    }

    pub fn contains(&self, id: &str) -> bool {
        self.first_single.contains_key(id) || self.first_bulk_handing_out(id).is_some()
    }

    /// The first grant of `id`.
    pub fn get(&self, id: &str) -> Option<HeldSkill<'_>> {
        self.grants[self.first_grant_of(id)?].held_as(id)
    }

    /// Every grant of `id`, in grant order.
    pub fn grants_of<'s>(&'s self, id: &'s str) -> impl Iterator<Item = HeldSkill<'s>> {
        self.grants
            .iter()
            .filter_map(move |grant| grant.held_as(id))
    }

    /// The ids granted one by one (plain ids and the matches of abstract grants), in grant
    /// order. `server:` and `pack:` grants hand out `mcp_tool`, command and topology skills.
    pub fn ids_granted_one_by_one(&self) -> impl Iterator<Item = &str> {
        self.grants.iter().filter_map(|grant| match &grant.handed {
            Handed::One(id) => Some(id.as_str()),
            Handed::Bulk(..) => None,
        })
    }

    /// The held skill closest to `word` ("did you mean"): the ids granted one by one, sorted
    /// once, and each bulk grant's member list, searched as the registry keeps it sorted. The
    /// closest answer of the lists (distance, then order) is the answer over all of them.
    pub fn closest(&self, word: &str) -> Option<&str> {
        let singles = self.sorted_singles.get_or_init(|| {
            let mut ids: Vec<String> = self.first_single.keys().cloned().collect();
            ids.sort_unstable();
            ids
        });
        let lists =
            std::iter::once(singles.as_slice()).chain(self.first_bulk.values().filter_map(|&at| {
                match &self.grants[at].handed {
                    Handed::Bulk(_, members) => Some(members.ids.as_slice()),
                    Handed::One(_) => None,
                }
            }));
        lists
            .filter_map(|ids| crate::suggest::closest_in_scored(word, ids))
            .min()
            .map(|(_, id)| id)
    }

    /// These skills with one more grant of `id`, in `skills_additional` (written nowhere): what
    /// granting it would make.
    pub fn with_additional(&self, id: &str, file: FileId) -> Self {
        let mut grants = self.grants.clone();
        grants.push(Granted {
            handed: Handed::One(id.to_owned()),
            source: GrantSource::SkillsAdditional,
            file,
            range: TextRange::empty(0),
        });
        EffectiveSkills::new(self.lookup, self.workspace, grants)
    }

    /// Where the first grant of `id` is.
    fn first_grant_of(&self, id: &str) -> Option<usize> {
        let single = self.first_single.get(id).copied();
        single
            .into_iter()
            .chain(self.first_bulk_handing_out(id))
            .min()
    }

    /// Where the first of the `server:`/`pack:` grants handing out `id` is, found from the id's
    /// definitions (`registry::bulk_grant_handing_out`): it costs the id's definitions, whatever
    /// the number of bulk grants and of their members.
    fn first_bulk_handing_out(&self, id: &str) -> Option<usize> {
        if self.first_bulk.is_empty() {
            return None;
        }
        registry::skills_named(self.lookup, self.workspace, id)
            .iter()
            .filter_map(registry::bulk_grant_handing_out)
            .filter_map(|target| self.first_bulk.get(&target).copied())
            .min()
    }

    /// The grants written in `file` that hand out what the agent holds already, in grant
    /// order. Two bulk grants are compared by their targets: different servers and packs share
    /// a skill only when an id is defined twice, which is reported where it is defined.
    pub fn repeats(&self, file: FileId) -> Vec<Repeat<'_>> {
        let mut out = Vec::new();
        let singles_by_target = OnceCell::new();
        for (at, grant) in self.grants.iter().enumerate() {
            if grant.file != file {
                continue;
            }
            match &grant.handed {
                Handed::One(id) => {
                    let Some(first) = self
                        .first_grant_of(id)
                        .filter(|&first| first < at)
                        .map(|first| &self.grants[first])
                        .filter(|first| !first.same_place(grant))
                    else {
                        continue;
                    };
                    out.extend(first.held_as(id).map(|first| Repeat::Skill {
                        grant: grant.held(id),
                        first,
                    }));
                }
                Handed::Bulk(target, _) => {
                    let first = &self.grants[self.first_bulk[target]];
                    if !std::ptr::eq(first, grant) {
                        // Its skills were judged on the target's first grant.
                        if !first.same_place(grant) {
                            out.push(Repeat::Target {
                                grant: grant.into(),
                                first: first.into(),
                            });
                        }
                        continue;
                    }
                    let singles = singles_by_target.get_or_init(|| self.singles_by_target());
                    let mut repeated = Vec::new();
                    let before = singles
                        .get(target)
                        .into_iter()
                        .flatten()
                        .filter(|&&single| single < at);
                    for &single in before {
                        let Handed::One(id) = &self.grants[single].handed else {
                            continue;
                        };
                        let Some(first) = self
                            .first_grant_of(id)
                            .map(|first| &self.grants[first])
                            .filter(|first| !first.same_place(grant))
                        else {
                            continue;
                        };
                        repeated.extend(first.held_as(id));
                    }
                    if !repeated.is_empty() {
                        out.push(Repeat::Members {
                            grant: grant.into(),
                            repeated,
                        });
                    }
                }
            }
        }
        out
    }

    /// Under each `server:`/`pack:` target the agent grants, the first single grant of each id
    /// it hands out, in grant order.
    fn singles_by_target(&self) -> HashMap<BulkGrant, Vec<usize>> {
        let mut by_target: HashMap<BulkGrant, Vec<usize>> = HashMap::new();
        if self.first_bulk.is_empty() {
            return by_target;
        }
        let mut singles: Vec<(usize, &str)> = self
            .first_single
            .iter()
            .map(|(id, &at)| (at, id.as_str()))
            .collect();
        singles.sort_unstable();
        for (at, id) in singles {
            for definition in registry::skills_named(self.lookup, self.workspace, id) {
                let Some(target) = registry::bulk_grant_handing_out(&definition)
                    .filter(|target| self.first_bulk.contains_key(target))
                else {
                    continue;
                };
                let positions = by_target.entry(target).or_default();
                // An id defined twice on one server is one grant.
                if positions.last() != Some(&at) {
                    positions.push(at);
                }
            }
        }
        by_target
    }
}

/// The skill artifacts (files in `skills/`) with an id in a workspace, several when the id is
/// duplicated. Made-up skills (memory, pack commands, topologies) are in [`super::registry`].
pub fn skills_named<'a>(
    lookup: &Lookup<'a>,
    workspace: FileId,
    id: &str,
) -> Vec<(FileId, &'a Skill)> {
    registry::skills_named(lookup, workspace, id)
        .into_iter()
        .filter_map(|info| info.skill.map(|skill| (info.file, skill)))
        .collect()
}

pub fn archetype_named<'a>(
    lookup: &Lookup<'a>,
    workspace: FileId,
    id: &str,
) -> Option<(FileId, &'a Archetype)> {
    lookup
        .get(Key::Def {
            workspace,
            kind: ArtifactKind::Archetype,
            id: id.to_owned(),
        })
        .into_iter()
        .find_map(|entry| match &entry.parsed.content {
            Content::SwarmKit(Artifact::Archetype(a)) => Some((entry.id, a)),
            _ => None,
        })
}

/// The "did you mean" answers given for one state of a workspace's skill ids, by the id asked.
#[derive(Default)]
struct SuggestionsFor(std::sync::Mutex<HashMap<String, Option<String>>>);

/// Resolves grants against the workspace. `report` receives diagnostics about the grants
/// themselves (placed at `grant_file`); pass a sink that drops them when only the set is wanted.
pub struct GrantResolver<'l, 'a> {
    pub lookup: &'l Lookup<'a>,
    pub workspace: FileId,
    /// The workspace's MCP server ids, sorted, read when a `server:` grant first names none of
    /// them ("did you mean" for every further one searches them without sorting again).
    servers: std::cell::OnceCell<Vec<String>>,
}

impl<'l, 'a> GrantResolver<'l, 'a> {
    pub fn new(lookup: &'l Lookup<'a>, workspace: FileId) -> Self {
        GrantResolver {
            lookup,
            workspace,
            servers: std::cell::OnceCell::new(),
        }
    }

    /// Expands one grant into skill ids, reporting problems with `unknown_code` for plain ids.
    pub fn expand(
        &self,
        grant: &Grant,
        file: FileId,
        unknown_code: Code,
        source: &GrantSource,
        out: &mut Vec<Granted>,
        diagnostics: &mut Vec<Diagnostic>,
    ) {
        let push = |out: &mut Vec<Granted>, handed: Handed, source: GrantSource, range| {
            out.push(Granted {
                handed,
                source,
                file,
                range,
            })
        };
        let reported_before = diagnostics.len();
        match grant {
            Grant::Skill(id) => match registry::skill_named(self.lookup, self.workspace, &id.value) {
                None => {
                    let best = self.suggest_skill(&id.value);
                    let best = best.as_deref();
                    let mut diagnostic = Diagnostic::new(
                        unknown_code,
                        file,
                        id.range,
                        format!(
                            "no skill has the id `{}` in this workspace{}",
                            id.value,
                            best.map_or_else(String::new, |best| format!("; did you mean `{best}`?"))
                        ),
                    );
                    diagnostic.fixes.extend(best.and_then(|best| self.replace(file, id, best)));
                    diagnostics.push(diagnostic);
                }
                // Only a composed skill can be unbuildable; its type is in the registry entry,
                // so no other skill's artifact is read.
                Some(found) => match found.skill.filter(|_| found.implementation == Some(ImplementationType::Composed)).and_then(|s| registry::unbuildable_composition(self.lookup, self.workspace, s)) {
                    // SwarmKit drops a composed skill it cannot build, so a grant of it is a
                    // grant of nothing.
                    Some(reason) => diagnostics.push(
                        Diagnostic::new(
                            unknown_code,
                            file,
                            id.range,
                            format!("`{}` is a composed skill that cannot be built ({reason}), so the runtime drops it and this grant names no skill; fix the composed skill", id.value),
                        )
                        .with_related(found.file, found.range, format!("`{}` is defined here", id.value)),
                    ),
                    None => push(out, Handed::One(id.value.clone()), source.clone(), id.range),
                },
            },
            Grant::Server { id, range } => {
                // As SwarmKit: the grant is unknown when no mcp_tool skill targets the server,
                // whether or not workspace.yaml declares it (that is `skill.unknown-mcp-server`).
                let members = registry::granted_by_server(self.lookup, self.workspace, &id.value);
                if members.ids.is_empty() {
                    let servers = self.servers.get_or_init(|| {
                        let mut servers: Vec<String> = self
                            .manifest()
                            .map(|(_, w)| w.mcp_servers.iter().map(|s| s.id.value.clone()).collect())
                            .unwrap_or_default();
                        servers.sort_unstable();
                        servers.dedup();
                        servers
                    });
                    let best = crate::suggest::closest_in(&id.value, servers.as_slice())
                        // Only a server some skill runs on makes the grant grant something.
                        .filter(|best| !registry::granted_by_server(self.lookup, self.workspace, best).ids.is_empty())
                        // Written inside `server:…`, so it must need no quotes of its own.
                        .filter(|best| fixes::plain_is_safe(best));
                    let hint = match best {
                        Some(best) => format!("; did you mean `server:{best}`?"),
                        None => String::new(),
                    };
                    let mut diagnostic = Diagnostic::new(
                        codes::AGENT_UNKNOWN_BULK_GRANT,
                        file,
                        id.range,
                        format!("no mcp_tool skill of this workspace runs on a server `{}`, so `server:{}` grants nothing{hint}", id.value, id.value),
                    );
                    diagnostic.fixes.extend(best.and_then(|best| self.replace(file, id, best)));
                    diagnostics.push(diagnostic);
                    return;
                }
                push(
                    out,
                    Handed::Bulk(BulkGrant::Server(id.value.clone()), members),
                    GrantSource::Server(id.value.clone()),
                    *range,
                );
            }
            Grant::Pack { id, range } => {
                let members = registry::granted_by_pack(self.lookup, self.workspace, &id.value);
                if members.member_count == 0 {
                    diagnostics.push(Diagnostic::new(
                        codes::AGENT_UNKNOWN_BULK_GRANT,
                        file,
                        id.range,
                        format!(
                            "`pack:{}` names no command pack of this workspace; declare it under `command_packs` in workspace.yaml (or use `pack:workspace` for the topology skills)",
                            id.value
                        ),
                    ));
                    return;
                }
                // A pack grant hands out only read commands: a write command must be named. A pack
                // of write commands only hands out nothing, and is no grant to repeat.
                if !members.ids.is_empty() {
                    push(
                        out,
                        Handed::Bulk(BulkGrant::Pack(id.value.clone()), members),
                        GrantSource::Pack(id.value.clone()),
                        *range,
                    );
                }
            }
            Grant::Abstract {
                category,
                capability,
                range,
            } => {
                let Some(category) = category else {
                    return; // the schema reports the missing category
                };
                let capability_text = capability.as_ref().map_or("", |c| c.value.as_str());
                let matches = registry::granted_by_category(self.lookup, self.workspace, &category.value)
                    .containing(capability_text);
                match matches.len() {
                    0 => diagnostics.push(Diagnostic::new(
                        codes::AGENT_ABSTRACT_NO_MATCH,
                        file,
                        *range,
                        format!(
                            "no {} skill has an id containing `{capability_text}`; add one or change the capability",
                            category.value
                        ),
                    )),
                    1 => push(out, Handed::One(matches[0].clone()), GrantSource::Abstract, *range),
                    _ => diagnostics.push(Diagnostic::new(
                        codes::AGENT_ABSTRACT_AMBIGUOUS,
                        file,
                        *range,
                        format!(
                            "{} {} skills match `{capability_text}` ({}); make the capability more specific or grant one by id",
                            crate::graph::path::thousands(matches.len()),
                            category.value,
                            crate::graph::path::render_set(&matches)
                        ),
                    )),
                }
            }
            Grant::Malformed { range, found } => diagnostics.push(Diagnostic::new(
                codes::AGENT_BAD_SKILL_ENTRY,
                file,
                *range,
                format!("a grant must be a skill id, `server:<id>`, `pack:<id>` or an abstract grant; this is {} {found}", if found.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" }),
            )),
        }
        // A grant used through an alias is reported at the alias; the anchor's item is where
        // it is written.
        if let Some(origin) = grant.origin() {
            for diagnostic in &mut diagnostics[reported_before..] {
                diagnostic.related.push(crate::diagnostic::Related {
                    file,
                    range: origin,
                    message: "written here, in the anchor the alias names".to_owned(),
                });
            }
        }
    }

    fn manifest(&self) -> Option<(FileId, &crate::model::swarmkit::Workspace)> {
        let entry = self
            .lookup
            .get(Key::Manifest {
                workspace: self.workspace,
            })
            .into_iter()
            .next()?;
        match &entry.parsed.content {
            Content::SwarmKit(Artifact::Workspace(w)) => Some((entry.id, w)),
            _ => None,
        }
    }

    /// A known skill id one or two edits away. The id set is read through the lookup, so the
    /// suggestion follows skills appearing and disappearing. The answer is kept per id set (a
    /// memo on `Key::IdSet`, dropped when any skill id of the workspace comes or goes): an unknown
    /// id stays in the file while the user types elsewhere, and each keystroke re-checks it, so
    /// the search, which visits every id near the word (a thousand among ten thousand
    /// `skill-N`), runs once per word, not once per keystroke.
    fn suggest_skill(&self, id: &str) -> Option<String> {
        // Counted whether the memo knows the answer or not, so which ids get one does not
        // depend on what other files asked first.
        if !self.lookup.may_suggest() {
            return None;
        }
        let key = Key::IdSet {
            workspace: self.workspace,
            kind: ArtifactKind::Skill,
        };
        let asked = self.lookup.memo(key, |_| SuggestionsFor::default());
        let answers = || {
            asked
                .0
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
        };
        if let Some(answer) = answers().get(id) {
            return answer.clone();
        }
        // Searched without the lock, so workers asking about other ids are not held up; two
        // asking about the same id both search and find the same answer.
        let answer = crate::suggest::closest_in(
            id,
            self.lookup.sorted_ids(self.workspace, ArtifactKind::Skill),
        )
        .map(str::to_owned);
        answers().insert(id.to_owned(), answer.clone());
        answer
    }

    /// The preferred fix of an unknown id: the suggestion written in its place.
    fn replace(&self, file: FileId, id: &SpannedStr, best: &str) -> Option<Fix> {
        let text = &self.lookup.file(file)?.text;
        fixes::replace_scalar(text, file, id.range, &id.value, best).map(Fix::preferred)
    }
}

/// The effective skills of an agent, with the diagnostics about its own grants (placed in
/// `file`, the topology) and about grants inherited from its archetype (placed on its
/// `archetype:` value, as SwarmKit reports them on every inheriting agent).
pub fn effective_skills<'l, 'a>(
    lookup: &'l Lookup<'a>,
    workspace: FileId,
    file: FileId,
    agent: &Agent,
    diagnostics: &mut Vec<Diagnostic>,
) -> EffectiveSkills<'l, 'a> {
    let resolver = GrantResolver::new(lookup, workspace);
    let reported_before = diagnostics.len();
    let mut skills = Vec::new();
    if let Some((_, grants)) = &agent.skills {
        for grant in grants {
            resolver.expand(
                grant,
                file,
                codes::AGENT_UNKNOWN_SKILL,
                &GrantSource::Skills,
                &mut skills,
                diagnostics,
            );
        }
    } else if let Some(archetype_id) = &agent.archetype {
        if let Some((archetype_file, archetype)) =
            archetype_named(lookup, workspace, &archetype_id.value)
        {
            let source = GrantSource::Archetype(archetype_id.value.clone());
            let mut inherited_problems = Vec::new();
            for grant in &archetype.default_skills {
                resolver.expand(
                    grant,
                    archetype_file,
                    codes::AGENT_UNKNOWN_SKILL,
                    &source,
                    &mut skills,
                    &mut inherited_problems,
                );
            }
            // Problems of the archetype's own list are shown on each inheriting agent's
            // `archetype:` value, pointing at the archetype's entry.
            for problem in inherited_problems {
                let mut inherited = Diagnostic::new(
                    problem.code,
                    file,
                    archetype_id.range,
                    format!(
                        "agent `{}` inherits a broken grant from archetype `{}`: {}",
                        agent.label(),
                        archetype_id.value,
                        problem.message
                    ),
                )
                .with_related(
                    archetype_file,
                    problem.range,
                    "the archetype's grant",
                );
                // Fixing the archetype's entry fixes every agent inheriting it.
                inherited.fixes = problem.fixes;
                diagnostics.push(inherited);
            }
        }
    }
    if let Some((_, grants)) = &agent.skills_additional {
        for grant in grants {
            resolver.expand(
                grant,
                file,
                codes::AGENT_UNKNOWN_SKILL,
                &GrantSource::SkillsAdditional,
                &mut skills,
                diagnostics,
            );
        }
    }
    let effective = EffectiveSkills::new(lookup, workspace, skills);
    // A typo whose suggestion the agent holds already would become a duplicate grant once
    // replaced: that is no fix (removing the entry is a decision about intent).
    for diagnostic in &mut diagnostics[reported_before..] {
        if diagnostic.code == codes::AGENT_UNKNOWN_SKILL {
            diagnostic.fixes.retain(|fix| {
                !fix.edits
                    .iter()
                    .any(|e| effective.contains(e.text.trim_matches(['"', '\''])))
            });
        }
    }
    effective
}
