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
//! what the id is, not what the agent's bulk grants hold or how many there are. An archetype's
//! `defaults.skills` are likewise resolved once per [`GrantResolver`] (one per topology check)
//! and shared by every agent inheriting them, problems included ([`InheritedDefaults`]).
//!
//! Resolving a grant and finding that it names nothing are one walk, so the resolver reports
//! the problems it meets (unknown skill, unknown `server:`/`pack:` target, abstract grants that
//! match nothing or too much, entries of the wrong shape) into a sink the caller hands it: the
//! rules publish them (their docs are in `rules::grants`), the IDE drops them.

use std::cell::OnceCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

use crate::diagnostic::{Diagnostic, FileId};
use crate::graph::path::{self, MAX_RELATED};
use crate::index::{Content, Key, Lookup};
use crate::model::swarmkit::{Agent, Archetype, Artifact, ArtifactKind, Grant, Skill};
use crate::model::SpannedStr;
use crate::semantics::registry::{self, BulkGrant, GrantMembers};
use crate::syntax::TextRange;

mod resolver;

pub use resolver::GrantResolver;

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
    /// A `server:` or `pack:` grant handing out skills granted one by one before it: how many,
    /// and the first grants of at most [`MAX_RELATED`] of them, in grant order.
    Members {
        grant: GrantPlace<'e>,
        count: usize,
        shown: Vec<HeldSkill<'e>>,
    },
}

/// An agent's effective skills, in grant order: its archetype's defaults when it inherits
/// them, then its own grants.
#[derive(Clone)]
pub struct EffectiveSkills<'l, 'a> {
    lookup: &'l Lookup<'a>,
    workspace: FileId,
    /// The archetype's defaults, resolved once per archetype and [`GrantResolver`] and shared by
    /// every agent inheriting them.
    inherited: Option<Rc<InheritedDefaults>>,
    own: GrantList,
}

/// One list of an agent's grants (its archetype's defaults, or its own) in order, with the
/// first grant of each id granted one by one and of each `server:`/`pack:` target.
#[derive(Clone, Debug, Default)]
struct GrantList {
    grants: Vec<Granted>,
    first_single: HashMap<String, usize>,
    first_bulk: HashMap<BulkGrant, usize>,
    /// The ids granted one by one, sorted, for "did you mean" (made on first use).
    sorted_singles: OnceCell<Vec<String>>,
    /// Under each target handing out ids granted one by one here, the first single grant of
    /// each such id, in grant order (made on first use).
    singles_by_target: OnceCell<HashMap<BulkGrant, Vec<usize>>>,
}

impl GrantList {
    fn new(grants: Vec<Granted>) -> GrantList {
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
        GrantList {
            grants,
            first_single,
            first_bulk,
            ..GrantList::default()
        }
    }

    fn sorted_singles(&self) -> &[String] {
        self.sorted_singles.get_or_init(|| {
            let mut ids: Vec<String> = self.first_single.keys().cloned().collect();
            ids.sort_unstable();
            ids
        })
    }

    fn ids_granted_one_by_one(&self) -> impl Iterator<Item = &str> {
        self.grants.iter().filter_map(|grant| match &grant.handed {
            Handed::One(id) => Some(id.as_str()),
            Handed::Bulk(..) => None,
        })
    }

    /// Under each `server:`/`pack:` target, where the ids granted one by one that it hands out
    /// are first granted, in grant order: each id's definitions say which target hands it out.
    fn singles_by_target(
        &self,
        lookup: &Lookup<'_>,
        workspace: FileId,
    ) -> &HashMap<BulkGrant, Vec<usize>> {
        self.singles_by_target.get_or_init(|| {
            let mut singles: Vec<(usize, &str)> = self
                .first_single
                .iter()
                .map(|(id, &at)| (at, id.as_str()))
                .collect();
            singles.sort_unstable();
            let mut by_target: HashMap<BulkGrant, Vec<usize>> = HashMap::new();
            for (at, id) in singles {
                for definition in registry::skills_named(lookup, workspace, id) {
                    let Some(target) = registry::bulk_grant_handing_out(&definition) else {
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
        })
    }
}

/// An archetype's `defaults.skills` resolved, as every agent inheriting them holds them, with
/// what each of those agents is told about the broken ones.
#[derive(Debug)]
pub struct InheritedDefaults {
    archetype: String,
    /// The archetype's file, where every one of these grants is written.
    file: FileId,
    list: GrantList,
    /// The problems of the list, by code, in the order met.
    problems: Vec<InheritedProblems>,
}

/// The problems of one code in an archetype's defaults: the first as found, how many, and the
/// first few named and placed (all an inheriting agent's diagnostic shows).
#[derive(Debug)]
struct InheritedProblems {
    first: Diagnostic,
    count: usize,
    /// The grants as written, at most as many as a message names.
    names: Vec<String>,
    /// Each grant with its problem, at most [`MAX_RELATED`].
    related: Vec<crate::diagnostic::Related>,
}

impl InheritedDefaults {
    pub fn archetype(&self) -> &str {
        &self.archetype
    }

    /// The ids the archetype grants one by one (plain ids and the matches of abstract
    /// grants), in grant order.
    pub fn ids_granted_one_by_one(&self) -> impl Iterator<Item = &str> {
        self.list.ids_granted_one_by_one()
    }

    /// What an agent inheriting the defaults through its `archetype:` value is told, in
    /// `file`: one diagnostic per code, whatever the number of broken grants.
    fn report(
        &self,
        agent: &Agent,
        archetype: &SpannedStr,
        file: FileId,
        diagnostics: &mut Vec<Diagnostic>,
    ) {
        for problems in &self.problems {
            let first = &problems.first;
            if problems.count == 1 {
                let mut inherited = Diagnostic::new(
                    first.code,
                    file,
                    archetype.range,
                    format!(
                        "agent `{}` inherits a broken grant from archetype `{}`: {}",
                        agent.label(),
                        archetype.value,
                        first.message
                    ),
                )
                .with_related(self.file, first.range, "the archetype's grant");
                // Fixing the archetype's entry fixes every agent inheriting it.
                inherited.fixes = first.fixes.clone();
                diagnostics.push(inherited);
                continue;
            }
            let mut inherited = Diagnostic::new(
                first.code,
                file,
                archetype.range,
                format!(
                    "agent `{}` inherits {} broken grants from archetype `{}`: {}; fix them in the archetype",
                    agent.label(),
                    path::thousands(problems.count),
                    archetype.value,
                    path::render_counted(&problems.names, problems.count)
                ),
            );
            inherited.related = problems.related.clone();
            diagnostics.push(inherited);
        }
    }
}

/// A grant as an inheriting agent's message names it.
fn written(grant: &Grant) -> String {
    match grant {
        Grant::Skill(id) => format!("`{}`", id.value),
        Grant::Server { id, .. } => format!("`server:{}`", id.value),
        Grant::Pack { id, .. } => format!("`pack:{}`", id.value),
        Grant::Abstract {
            category,
            capability,
            ..
        } => {
            let part = |key: &str, value: &Option<SpannedStr>| {
                value
                    .as_ref()
                    .map_or_else(String::new, |v| format!("{key}: {}", v.value))
            };
            let parts: Vec<String> = [part("category", category), part("capability", capability)]
                .into_iter()
                .filter(|p| !p.is_empty())
                .collect();
            format!("`{{abstract: {{{}}}}}`", parts.join(", "))
        }
        Grant::Malformed { found, .. } => format!("{} {found}", an(found)),
    }
}

fn an(word: &str) -> &'static str {
    if word.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}

impl<'l, 'a> EffectiveSkills<'l, 'a> {
    fn new(
        lookup: &'l Lookup<'a>,
        workspace: FileId,
        inherited: Option<Rc<InheritedDefaults>>,
        own: Vec<Granted>,
    ) -> Self {
        EffectiveSkills {
            lookup,
            workspace,
            inherited,
            own: GrantList::new(own),
        }
    }

    /// The lists in grant order, each with the position of its first grant.
    fn lists(&self) -> impl Iterator<Item = (usize, &GrantList)> {
        let inherited = self.inherited.as_deref().map(|defaults| &defaults.list);
        let own_from = inherited.map_or(0, |list| list.grants.len());
        inherited
            .map(|list| (0, list))
            .into_iter()
            .chain(std::iter::once((own_from, &self.own)))
    }

    fn grant(&self, at: usize) -> &Granted {
        let (from, list) = self
            .lists()
            .filter(|(from, _)| *from <= at)
            .last()
            .expect("the own list starts at or before every position");
        &list.grants[at - from]
    }

    /// The archetype's defaults, when `list` is theirs.
    fn inherited_from(&self, list: &GrantList) -> Option<&InheritedDefaults> {
        self.inherited
            .as_deref()
            .filter(|defaults| std::ptr::eq(&defaults.list, list))
    }

    fn all_grants(&self) -> impl Iterator<Item = &Granted> {
        self.lists().flat_map(|(_, list)| list.grants.iter())
    }

    /// Every skill held, grant by grant in grant order, a bulk grant's in registry order (a
    /// skill granted twice comes twice).
    pub fn iter(&self) -> impl Iterator<Item = HeldSkill<'_>> {
        self.all_grants().flat_map(Granted::skills)
    }

    pub fn is_empty(&self) -> bool {
        self.all_grants().next().is_none()
    }

    pub fn contains(&self, id: &str) -> bool {
        self.first_single(id).is_some() || self.first_bulk_handing_out(id).is_some()
    }

    /// The first grant of `id`.
    pub fn get(&self, id: &str) -> Option<HeldSkill<'_>> {
        self.grant(self.first_grant_of(id)?).held_as(id)
    }

    /// Every grant of `id`, in grant order.
    pub fn grants_of<'s>(&'s self, id: &'s str) -> impl Iterator<Item = HeldSkill<'s>> {
        self.all_grants().filter_map(move |grant| grant.held_as(id))
    }

    /// The ids the agent's own grants hand out one by one (plain ids and the matches of
    /// abstract grants), in grant order; the inherited ones are [`Self::inherited`]'s.
    /// `server:` and `pack:` grants hand out `mcp_tool`, command and topology skills.
    pub fn own_ids_granted_one_by_one(&self) -> impl Iterator<Item = &str> {
        self.own.ids_granted_one_by_one()
    }

    /// The archetype's defaults the agent inherits, shared with every agent inheriting them.
    pub fn inherited(&self) -> Option<&InheritedDefaults> {
        self.inherited.as_deref()
    }

    /// The held skill closest to `word` ("did you mean"): the ids granted one by one, sorted
    /// once per list, and each bulk grant's member list, searched as the registry keeps it
    /// sorted. The closest answer of the lists (distance, then order) is the answer over all of
    /// them.
    pub fn closest(&self, word: &str) -> Option<&str> {
        let mut candidates: Vec<&[String]> = Vec::new();
        for (_, list) in self.lists() {
            candidates.push(list.sorted_singles());
            candidates.extend(list.first_bulk.values().filter_map(|&at| {
                match &list.grants[at].handed {
                    Handed::Bulk(_, members) => Some(members.ids.as_slice()),
                    Handed::One(_) => None,
                }
            }));
        }
        candidates
            .into_iter()
            .filter_map(|ids| crate::suggest::closest_in_scored(word, ids))
            .min()
            .map(|(_, id)| id)
    }

    /// These skills with one more grant of `id`, in `skills_additional` (written nowhere): what
    /// granting it would make.
    pub fn with_additional(&self, id: &str, file: FileId) -> Self {
        let mut own = self.own.grants.clone();
        own.push(Granted {
            handed: Handed::One(id.to_owned()),
            source: GrantSource::SkillsAdditional,
            file,
            range: TextRange::empty(0),
        });
        EffectiveSkills::new(self.lookup, self.workspace, self.inherited.clone(), own)
    }

    fn first_single(&self, id: &str) -> Option<usize> {
        self.lists()
            .find_map(|(from, list)| list.first_single.get(id).map(|at| from + at))
    }

    fn first_of_target(&self, target: &BulkGrant) -> Option<usize> {
        self.lists()
            .find_map(|(from, list)| list.first_bulk.get(target).map(|at| from + at))
    }

    /// Where the first grant of `id` is.
    fn first_grant_of(&self, id: &str) -> Option<usize> {
        let single = self.first_single(id);
        single
            .into_iter()
            .chain(self.first_bulk_handing_out(id))
            .min()
    }

    /// Where the first of the `server:`/`pack:` grants handing out `id` is, found from the id's
    /// definitions (`registry::bulk_grant_handing_out`): it costs the id's definitions, whatever
    /// the number of bulk grants and of their members.
    fn first_bulk_handing_out(&self, id: &str) -> Option<usize> {
        if self.lists().all(|(_, list)| list.first_bulk.is_empty()) {
            return None;
        }
        registry::skills_named(self.lookup, self.workspace, id)
            .iter()
            .filter_map(registry::bulk_grant_handing_out)
            .filter_map(|target| self.first_of_target(&target))
            .min()
    }

    /// The grants written in `file` that hand out what the agent holds already, in grant
    /// order. Two bulk grants are compared by their targets: different servers and packs share
    /// a skill only when an id is defined twice.
    pub fn repeats(&self, file: FileId) -> Vec<Repeat<'_>> {
        let mut out = Vec::new();
        for (from, list) in self.lists() {
            // The archetype's defaults are written in the archetype, which judges its own
            // list; walking them for every inheriting agent would cost each agent all of them.
            if self.inherited_from(list).is_some_and(|d| d.file != file) {
                continue;
            }
            for (at, grant) in list.grants.iter().enumerate() {
                let at = from + at;
                if grant.file != file {
                    continue;
                }
                match &grant.handed {
                    Handed::One(id) => {
                        let Some(first) = self
                            .first_grant_of(id)
                            .filter(|&first| first < at)
                            .map(|first| self.grant(first))
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
                        let first = self
                            .first_of_target(target)
                            .map_or(grant, |first| self.grant(first));
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
                        out.extend(self.members_granted_before(at, target, grant));
                    }
                }
            }
        }
        out
    }

    /// The skills the first grant of `target` (at `at`) hands out that ids granted one by one
    /// before it hold already: counted whole, the first [`MAX_RELATED`] shown.
    fn members_granted_before<'s>(
        &'s self,
        at: usize,
        target: &BulkGrant,
        grant: &'s Granted,
    ) -> Option<Repeat<'s>> {
        let mut count = 0;
        let mut shown = Vec::new();
        for (from, list) in self.lists().filter(|&(from, _)| from < at) {
            let Some(positions) = list
                .singles_by_target(self.lookup, self.workspace)
                .get(target)
            else {
                continue;
            };
            let before = &positions[..positions.partition_point(|&single| from + single < at)];
            // The archetype's defaults seen from a grant of the agent's own: written in another
            // file, so none is at this grant's place, and counted by the list every inheriting
            // agent shares; an agent walks only the ones it shows.
            let shared = self
                .inherited_from(list)
                .is_some_and(|defaults| defaults.file != grant.file);
            if shared {
                count += before.len();
            }
            for &single in before {
                if shared && shown.len() == MAX_RELATED {
                    break;
                }
                let Handed::One(id) = &list.grants[single].handed else {
                    continue;
                };
                // Counted where it is first granted one by one (an id the archetype grants too,
                // with the archetype's).
                if self.first_single(id) != Some(from + single) {
                    continue;
                }
                let Some(first) = self
                    .first_grant_of(id)
                    .map(|first| self.grant(first))
                    .filter(|first| !first.same_place(grant))
                else {
                    continue;
                };
                if !shared {
                    count += 1;
                }
                if shown.len() < MAX_RELATED {
                    shown.extend(first.held_as(id));
                }
            }
        }
        (count > 0).then(|| Repeat::Members {
            grant: grant.into(),
            count,
            shown,
        })
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

/// The effective skills of one agent ([`GrantResolver::effective_skills`]); checks of many
/// agents share one resolver, so an archetype's defaults are resolved once.
pub fn effective_skills<'l, 'a>(
    lookup: &'l Lookup<'a>,
    workspace: FileId,
    file: FileId,
    agent: &Agent,
    diagnostics: &mut Vec<Diagnostic>,
) -> EffectiveSkills<'l, 'a> {
    GrantResolver::new(lookup, workspace).effective_skills(file, agent, diagnostics)
}
