//! Resolving an agent's grants against the workspace: each entry looked up (skill ids,
//! `server:` and `pack:` targets, abstract grants), an archetype's defaults resolved once and
//! shared, and the problems met on the way handed to the caller's sink. What the agent then
//! holds, and asking it, is the parent's [`EffectiveSkills`](super::EffectiveSkills).

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use super::{
    archetype_named, written, EffectiveSkills, GrantList, GrantSource, Granted, Handed,
    InheritedDefaults, InheritedProblems,
};
use crate::diagnostic::{codes, fixes, Code, Diagnostic, FileId, Fix};
use crate::graph::path::{self, MAX_RELATED};
use crate::index::{Content, Key, Lookup};
use crate::model::swarmkit::{Agent, Archetype, Artifact, ArtifactKind, Grant, ImplementationType};
use crate::model::SpannedStr;
use crate::semantics::registry::{self, BulkGrant};

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
    /// Each archetype's defaults, resolved when an agent first inherits them and shared by the
    /// next ones (`None`: no archetype has the id): sixteen thousand agents built from an
    /// archetype of a hundred unknown defaults resolved 1.6 million grants, and reported each.
    inherited: RefCell<HashMap<String, Option<Rc<InheritedDefaults>>>>,
}

impl<'l, 'a> GrantResolver<'l, 'a> {
    pub fn new(lookup: &'l Lookup<'a>, workspace: FileId) -> Self {
        GrantResolver {
            lookup,
            workspace,
            servers: std::cell::OnceCell::new(),
            inherited: RefCell::default(),
        }
    }

    /// The effective skills of an agent, with the diagnostics about its own grants (placed in
    /// `file`, the topology) and about grants inherited from its archetype (placed on its
    /// `archetype:` value, once per code; see [`InheritedDefaults`]).
    pub fn effective_skills(
        &self,
        file: FileId,
        agent: &Agent,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> EffectiveSkills<'l, 'a> {
        let reported_before = diagnostics.len();
        let mut own = Vec::new();
        let mut inherited = None;
        if let Some((_, grants)) = &agent.skills {
            self.expand_own(grants, file, GrantSource::Skills, &mut own, diagnostics);
        } else if let Some(archetype) = &agent.archetype {
            inherited = self.inherited_defaults(&archetype.value);
            if let Some(defaults) = &inherited {
                defaults.report(agent, archetype, file, diagnostics);
            }
        }
        if let Some((_, grants)) = &agent.skills_additional {
            let source = GrantSource::SkillsAdditional;
            self.expand_own(grants, file, source, &mut own, diagnostics);
        }
        let effective = EffectiveSkills::new(self.lookup, self.workspace, inherited, own);
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

    /// Expands one of an agent's own grant lists (`skills` or `skills_additional`) into `own`.
    fn expand_own(
        &self,
        grants: &[Grant],
        file: FileId,
        source: GrantSource,
        own: &mut Vec<Granted>,
        diagnostics: &mut Vec<Diagnostic>,
    ) {
        for grant in grants {
            self.expand(
                grant,
                file,
                codes::AGENT_UNKNOWN_SKILL,
                &source,
                own,
                diagnostics,
            );
        }
    }

    /// The defaults of the archetype `id` resolved, once for this resolver.
    fn inherited_defaults(&self, id: &str) -> Option<Rc<InheritedDefaults>> {
        if let Some(known) = self.inherited.borrow().get(id) {
            return known.clone();
        }
        let resolved = archetype_named(self.lookup, self.workspace, id)
            .map(|(file, archetype)| Rc::new(self.resolve_defaults(id, file, archetype)));
        self.inherited
            .borrow_mut()
            .insert(id.to_owned(), resolved.clone());
        resolved
    }

    /// An archetype's `defaults.skills` as its agents inherit them; each problem is kept for
    /// them by code, with its grant named (see [`InheritedDefaults::report`]).
    fn resolve_defaults(&self, id: &str, file: FileId, archetype: &Archetype) -> InheritedDefaults {
        let source = GrantSource::Archetype(id.to_owned());
        let mut grants = Vec::new();
        let mut problems: Vec<InheritedProblems> = Vec::new();
        let mut found = Vec::new();
        for grant in &archetype.default_skills {
            self.expand(
                grant,
                file,
                codes::AGENT_UNKNOWN_SKILL,
                &source,
                &mut grants,
                &mut found,
            );
            for problem in found.drain(..) {
                let related = crate::diagnostic::Related {
                    file,
                    range: problem.range,
                    message: problem.message.clone(),
                };
                // A handful of codes at most.
                match problems.iter_mut().find(|p| p.first.code == problem.code) {
                    Some(known) => {
                        known.count += 1;
                        if known.names.len() < path::MAX_HOPS {
                            known.names.push(written(grant));
                        }
                        if known.related.len() < MAX_RELATED {
                            known.related.push(related);
                        }
                    }
                    None => problems.push(InheritedProblems {
                        first: problem,
                        count: 1,
                        names: vec![written(grant)],
                        related: vec![related],
                    }),
                }
            }
        }
        InheritedDefaults {
            archetype: id.to_owned(),
            file,
            list: GrantList::new(grants),
            problems,
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
                    let best = self.lookup.may_suggest().then(|| crate::suggest::closest_in(&id.value, servers.as_slice())).flatten()
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
