//! Skill grants resolved: an agent's effective skill set and where each skill came from.
//!
//! The effective set: the agent's `skills` if present, else its archetype's `defaults.skills`;
//! then `skills_additional` appended; `server:`, `pack:` and abstract grants expanded.
//!
//! Resolving a grant and finding that it names nothing are one walk, so the resolver reports
//! the problems it meets (unknown skill, unknown `server:`/`pack:` target, abstract grants that
//! match nothing or too much, entries of the wrong shape) into a sink the caller hands it: the
//! rules publish them (their docs are in `rules::grants`), the IDE drops them.

use std::collections::HashMap;

use crate::diagnostic::{codes, fixes, Code, Diagnostic, FileId, Fix};
use crate::index::{Content, Key, Lookup};
use crate::model::swarmkit::{
    Agent, Archetype, Artifact, ArtifactKind, Grant, ImplementationType, Skill,
};
use crate::model::SpannedStr;
use crate::semantics::registry;
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

/// One skill an agent holds.
#[derive(Clone, Debug)]
pub struct EffectiveSkill {
    pub id: String,
    pub source: GrantSource,
    /// The grant's range; in the archetype's file when inherited.
    pub grant_file: FileId,
    pub grant_range: TextRange,
}

/// An agent's effective skills, in grant order.
#[derive(Clone, Debug, Default)]
pub struct EffectiveSkills {
    pub skills: Vec<EffectiveSkill>,
    /// The first grant of each id, so membership costs O(1) however many skills a grant expands to.
    first: HashMap<String, usize>,
}

impl EffectiveSkills {
    pub fn new(skills: Vec<EffectiveSkill>) -> Self {
        let mut first = HashMap::with_capacity(skills.len());
        for (i, skill) in skills.iter().enumerate() {
            first.entry(skill.id.clone()).or_insert(i);
        }
        EffectiveSkills { skills, first }
    }

    pub fn contains(&self, id: &str) -> bool {
        self.first.contains_key(id)
    }

    pub fn get(&self, id: &str) -> Option<&EffectiveSkill> {
        self.first.get(id).map(|&i| &self.skills[i])
    }

    /// Where in [`Self::skills`] the first grant of `id` is.
    pub fn first_grant_index(&self, id: &str) -> Option<usize> {
        self.first.get(id).copied()
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
        out: &mut Vec<EffectiveSkill>,
        diagnostics: &mut Vec<Diagnostic>,
    ) {
        let push = |out: &mut Vec<EffectiveSkill>, id: String, source: GrantSource, range| {
            out.push(EffectiveSkill {
                id,
                source,
                grant_file: file,
                grant_range: range,
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
                    None => push(out, id.value.clone(), source.clone(), id.range),
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
                        .filter(|best| !registry::skills_on_server(self.lookup, self.workspace, best).is_empty())
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
                for member in &members.ids {
                    push(out, member.clone(), GrantSource::Server(id.value.clone()), *range);
                }
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
                // A pack grant hands out only read commands: a write command must be named.
                for member in &members.ids {
                    push(out, member.clone(), GrantSource::Pack(id.value.clone()), *range);
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
                    1 => push(out, matches[0].clone(), GrantSource::Abstract, *range),
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
pub fn effective_skills(
    lookup: &Lookup<'_>,
    workspace: FileId,
    file: FileId,
    agent: &Agent,
    diagnostics: &mut Vec<Diagnostic>,
) -> EffectiveSkills {
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
    let effective = EffectiveSkills::new(skills);
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
