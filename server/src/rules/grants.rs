//! The checks on every grant: unknown skill, unknown `server:`/`pack:` target, abstract grants
//! that match nothing or too much, entries of the wrong shape (found while the grants are
//! resolved, in `semantics::grants`), and the same skill granted twice (here).

use super::rule_doc::RuleDoc;
use crate::diagnostic::{codes, Diagnostic, FileId, Fix};
use crate::graph::path;
use crate::model::swarmkit::Agent;
use crate::semantics::grants::{EffectiveSkills, GrantPlace, GrantSource, HeldSkill, Repeat};

pub const RULES: &[RuleDoc] = &[
    RuleDoc {
        code: codes::AGENT_UNKNOWN_SKILL,
        summary: "An agent grants a skill id that no file in `skills/` defines.",
        explanation: "Grants resolve by `metadata.id` among the workspace's skills. An unknown id fails \
`swarmkit validate` and the agent cannot start. Fix the spelling (the message suggests the closest id), or add \
`skills/<id>.yaml`.\n\n\
When broken grants come from the agent's archetype, they are reported on the `archetype:` value of every agent \
that inherits them. SwarmKit resolves the archetype's list again for each such agent and reports each broken \
entry per agent (`_merge_and_resolve_skills` and `_resolve_skill_entry` in `resolver/_topology.py`, \
swarmkit-runtime 1.265.0). Here an agent gets one diagnostic per code instead: a lone broken entry as itself, \
with the archetype's entry as related location and its fix; several as one diagnostic naming the first ten and \
counting the rest, with the first twenty entries as related locations, each saying what is wrong with it. The \
archetype's list is resolved once for all of them, so sixteen thousand agents built from an archetype of a \
hundred unknown defaults make sixteen thousand diagnostics, not 1.6 million (the same holds for \
`agent.bad-skill-entry`, `agent.unknown-bulk-grant`, `agent.abstract-no-match` and \
`agent.abstract-ambiguous` inherited from an archetype).",
    },
    RuleDoc {
        code: codes::ARCHETYPE_UNKNOWN_SKILL,
        summary: "An archetype's `defaults.skills` names a skill id that no file defines.",
        explanation: "Every agent built from the archetype inherits the broken grant, so SwarmKit reports it on \
the archetype and again on each agent that inherits it. Fix the id or define the skill.",
    },
    RuleDoc {
        code: codes::AGENT_BAD_SKILL_ENTRY,
        summary: "A grant is neither a skill id, a `server:`/`pack:` grant nor an abstract grant.",
        explanation: "Entries of `skills`, `skills_additional` and `defaults.skills` are skill ids (`search-code`), \
bulk grants (`server:github`, `pack:git-read`) or, in archetypes, `{abstract: {category, capability}}`. \
Anything else (a number, a nested list, a map of another shape) grants nothing. Write one of those forms.",
    },
    RuleDoc {
        code: codes::AGENT_UNKNOWN_BULK_GRANT,
        summary: "A `server:` or `pack:` grant names no MCP server or command pack of the workspace.",
        explanation: "`server:<id>` grants every `mcp_tool` skill on that MCP server and `pack:<id>` every command \
skill of that pack; the id must be an entry of `mcp_servers` or `command_packs` in `workspace.yaml`. Fix the id \
or declare the server.",
    },
    RuleDoc {
        code: codes::AGENT_ABSTRACT_NO_MATCH,
        summary: "An abstract grant matches no skill.",
        explanation: "`{abstract: {category, capability}}` resolves to the skill of that category whose id \
contains the capability text. None does, so the agent gets no skill from it. Add a matching skill, or change \
the capability text.",
    },
    RuleDoc {
        code: codes::AGENT_ABSTRACT_AMBIGUOUS,
        summary: "An abstract grant matches more than one skill.",
        explanation: "The resolver needs exactly one match and will not guess. Make the capability text more \
specific, or grant the skill by id.",
    },
    RuleDoc {
        code: codes::AGENT_DUPLICATE_GRANT,
        summary: "The same skill is granted twice to one agent.",
        explanation: "The second grant adds nothing, and usually means two lists (`skills` and \
`skills_additional`, or a `server:` grant and an explicit id) disagree about who owns the skill. Remove one of \
the two grants. A `server:` or `pack:` grant handing out skills granted by id before it is one diagnostic: for \
one skill as above, for several naming the first ten, counting the rest and pointing at the first twenty grants \
(an archetype granting thousands of a server's skills by id, and each of its agents adding the `server:` grant, \
made one diagnostic per agent and skill). A `server:` or `pack:` grant naming a target named before is one \
diagnostic, not one per skill it hands out. Two \
grants of different targets are not compared skill by skill: they hand out one skill only when an id is \
defined twice (two skill files, a skill file and a pack command, or commands of two packs such as `a`'s `b-c` \
and `a-b`'s `c`), so an agent's cost follows its own grants, not the skills behind them.",
    },
];

/// `agent.duplicate-grant`: a grant handing out what the agent holds already, reported on the
/// later grant.
pub fn check_duplicate_grants(
    file: FileId,
    text: Option<&str>,
    agent: &Agent,
    effective: &EffectiveSkills<'_, '_>,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let label = agent.label();
    let one_skill = |grant: &GrantPlace<'_>, first: &HeldSkill<'_>| {
        Diagnostic::new(
            codes::AGENT_DUPLICATE_GRANT,
            file,
            grant.range,
            format!(
                "agent `{label}` already holds `{}` (from {}); this grant ({}) adds nothing, so remove one of the two",
                first.id,
                first.source.describe(),
                grant.source.describe()
            ),
        )
        .with_related(first.grant_file, first.grant_range, format!("`{}` first granted here", first.id))
    };
    for repeat in effective.repeats(file) {
        match repeat {
            Repeat::Skill { grant, first } => {
                let place = GrantPlace {
                    source: grant.source,
                    file: grant.grant_file,
                    range: grant.grant_range,
                };
                let mut diagnostic = one_skill(&place, &first);
                let removal = matches!(
                    grant.source,
                    GrantSource::Skills | GrantSource::SkillsAdditional
                )
                .then(|| {
                    text.and_then(|text| {
                        super::fixes::remove_item(text, grant.grant_range, grant.id)
                    })
                })
                .flatten();
                diagnostic.fixes.extend(removal.map(|range| {
                    Fix::replace(
                        format!("Remove this grant of `{}`", grant.id),
                        file,
                        range,
                        "",
                    )
                    .preferred()
                    .safe()
                }));
                diagnostics.push(diagnostic);
            }
            Repeat::Target { grant, first } => {
                let target = grant.source.describe();
                diagnostics.push(
                    Diagnostic::new(
                        codes::AGENT_DUPLICATE_GRANT,
                        file,
                        grant.range,
                        format!(
                            "agent `{label}` already holds every skill this grant ({target}) hands out, from the same grant earlier; this one adds nothing, so remove one of the two"
                        ),
                    )
                    .with_related(first.file, first.range, "first granted here"),
                );
            }
            Repeat::Members {
                grant,
                count: 1,
                shown,
            } => {
                diagnostics.extend(shown.first().map(|first| one_skill(&grant, first)));
            }
            // One diagnostic whatever the number: an archetype granting thousands of a server's
            // skills by id, and agents adding the `server:` grant on top, made one per pair.
            Repeat::Members {
                grant,
                count,
                shown,
            } => {
                let names: Vec<String> = shown.iter().map(|s| format!("`{}`", s.id)).collect();
                let mut diagnostic = Diagnostic::new(
                    codes::AGENT_DUPLICATE_GRANT,
                    file,
                    grant.range,
                    format!(
                        "agent `{label}` already holds {} skills this grant ({}) hands out: {}; it adds nothing for them, so remove their other grants or this one",
                        path::thousands(count),
                        grant.source.describe(),
                        path::render_counted(&names, count)
                    ),
                );
                for first in &shown {
                    diagnostic = diagnostic.with_related(
                        first.grant_file,
                        first.grant_range,
                        format!(
                            "`{}` first granted here (from {})",
                            first.id,
                            first.source.describe()
                        ),
                    );
                }
                diagnostics.push(diagnostic);
            }
        }
    }
}
