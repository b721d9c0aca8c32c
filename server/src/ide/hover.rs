//! Hover: what an id is, and inside an agent, the ordering rules that apply to it.

use std::fmt::Write;

use super::answers::HoverResult;
use super::cursor::{at, relative_path, Ref, Site};
use super::definition::artifact_definitions;
use crate::diagnostic::FileId;
use crate::index::{Content, Index, Lookup};
use crate::model::swarmkit::{Agent, Artifact, ArtifactKind};
use crate::semantics::grants::{effective_skills, EffectiveSkills};
use crate::semantics::registry::{self, Origin};
use crate::semantics::requires::{build, RequiresGraph};

pub fn hover(index: &Index, file: FileId, offset: u32) -> Option<HoverResult> {
    // Claude Code substitutes an argument before anything reads the body as a mention.
    if let Some(argument) = super::skill_load::placeholder_hover(index, file, offset) {
        return Some(argument);
    }
    if let Some(mention) = super::mentions::hover(index, file, offset) {
        return Some(mention);
    }
    let reference = reference_hover(index, file, offset);
    let Some(substitution) = index.file(file)?.parsed.substitution_at(offset) else {
        return reference;
    };
    let about = substitution_markdown(index, file, substitution);
    Some(match reference {
        Some(mut hover) => {
            hover.markdown.push_str("\n\n---\n\n");
            hover.markdown.push_str(&about);
            hover
        }
        None => HoverResult {
            markdown: about,
            range: substitution.range,
        },
    })
}

/// Most references a substitution hover lists, and most characters of the value it shows.
const SHOWN_REFERENCES: usize = 20;
const SHOWN_VALUE_CHARS: usize = 200;

/// What a value holding `${…}` became and where each reference's value came from.
fn substitution_markdown(
    index: &Index,
    file: FileId,
    substitution: &crate::syntax::interpolate::Substitution,
) -> String {
    use crate::syntax::interpolate::Source;
    let property_file = index
        .workspace_of(file)
        .and_then(|workspace| index.variables(workspace))
        .and_then(|variables| variables.property_file.as_ref())
        .and_then(|path| path.file_name())
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_else(|| "workspace.env.yaml".to_owned());
    let mut value: String = substitution.value.chars().take(SHOWN_VALUE_CHARS).collect();
    if value.len() < substitution.value.len() {
        value.push('…');
    }
    let mut text = if substitution.too_large {
        "**Substitution** is past the growth cap: the value is checked as written".to_owned()
    } else {
        format!("**Substituted value** (as SwarmKit reads it): `{value}`")
    };
    for reference in substitution.references.iter().take(SHOWN_REFERENCES) {
        let name = &reference.name;
        let line = match reference.source {
            Source::Property => format!("`{name}`: property of `{property_file}`"),
            Source::Environment => format!("`{name}`: from the environment"),
            Source::Default => format!("`{name}`: not set, so its `:-` default"),
            Source::Unresolved => {
                format!("`{name}`: not set and no default, so `${{{name}}}` stays as written")
            }
            Source::Escaped => format!("`$${{{name}}}`: escaped, the literal text `${{{name}}}`"),
        };
        text.push_str("\n- ");
        text.push_str(&line);
    }
    let more = substitution
        .references
        .len()
        .saturating_sub(SHOWN_REFERENCES);
    if more > 0 {
        text.push_str(&format!("\n- … {more} more"));
    }
    text
}

fn reference_hover(index: &Index, file: FileId, offset: u32) -> Option<HoverResult> {
    if let Content::SkillMd(skill) = &index.file(file)?.parsed.content {
        return skill_md_hover(index, file, skill, offset);
    }
    let occurrence = at(index, file, offset)?;
    let workspace = index.workspace_of(file)?;
    let topology = match &index.file(file)?.parsed.content {
        Content::SwarmKit(Artifact::Topology(t)) => Some(t),
        _ => None,
    };
    let agent = occurrence
        .agent
        .and_then(|i| topology.map(|t| (i, &t.agents[i])));
    let markdown = match (&occurrence.what, occurrence.site) {
        (Ref::Agent(_), Site::Definition | Site::RequiresBlock) => {
            let (_, agent) = agent?;
            agent_summary(index, workspace, file, agent)
        }
        (Ref::Agent(id), _) => {
            let (_, target) = topology?.agent_by_id(id)?;
            agent_summary(index, workspace, file, target)
        }
        (Ref::Artifact(ArtifactKind::Skill, id), Site::RequiresKey | Site::RequiresValue)
            if crate::semantics::requires::is_parameterised(id) =>
        {
            parameterised_summary(id)
        }
        (Ref::Artifact(ArtifactKind::Skill, id), Site::DecisionBinding) => {
            decision_binding_summary(index, workspace, file, id)
        }
        (Ref::Artifact(ArtifactKind::Skill, id), site) => {
            // On a definition, the file at hand is described, whichever file defines the id
            // first; elsewhere the definition references resolve to.
            let here = (site == Site::Definition).then_some(file);
            let mut text = skill_summary(index, workspace, id, here);
            if site == Site::Definition {
                text.push_str(&granted_by(index, workspace, id));
            }
            if let Some((_, agent)) = agent {
                text.push_str("\n\n---\n\n");
                text.push_str(&skill_in_agent(index, workspace, file, agent, id));
            }
            text
        }
        (Ref::Artifact(kind, id), site) => {
            let here = (site == Site::Definition).then_some(file);
            artifact_summary(index, workspace, *kind, id, here)
        }
        (Ref::McpServer(id), _) => server_summary(index, workspace, id),
    };
    Some(HoverResult {
        markdown,
        range: occurrence.range,
    })
}

/// SKILL.md frontmatter: what a known field is for, and the skill a `name` value names.
fn skill_md_hover(
    index: &Index,
    file: FileId,
    skill: &crate::model::skill_md::SkillMd,
    offset: u32,
) -> Option<HoverResult> {
    if let Some(hover) = super::extensions::hover(index, file, offset) {
        return Some(hover);
    }
    if let Some(range) = skill.name_range().filter(|r| r.contains_inclusive(offset)) {
        let name = skill.normalized_name()?;
        let folder = index
            .file(file)?
            .path
            .parent()
            .and_then(|p| p.file_name())
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut text = format!("**SKILL.md skill `{name}`**\n\n- folder: `{folder}`");
        if folder != name {
            text.push_str(" (hosts expect the folder to be named after the skill)");
        }
        if let Some(d) = skill.description.as_ref().and_then(|d| d.text()) {
            let _ = write!(text, "\n\n{}", d.value.trim());
        }
        let entry = index.file(file)?;
        text.push_str("\n\n---\n\n");
        text.push_str(&super::skill_load::load_cost(index, entry, skill));
        return Some(HoverResult {
            markdown: text,
            range,
        });
    }
    let field = skill
        .fields
        .iter()
        .find(|f| f.key.range.contains_inclusive(offset))?;
    let markdown = match crate::model::skill_md::known_field(&field.key.value) {
        Some(known) => format!(
            "**`{}`** — {}\n\n{}\n\nSource: {} (checked {})",
            known.key,
            known.origin.describe(known.hosts),
            known.hover,
            known.source,
            known.checked
        ),
        None => format!(
            "**`{}`** — not a field of the Agent Skills spec or of a host skillgraph knows",
            field.key.value
        ),
    };
    Some(HoverResult {
        markdown,
        range: field.key.range,
    })
}

/// A `requires:` entry written `skill(arg=$x)`: not a skill id at all for the runtime.
fn parameterised_summary(id: &str) -> String {
    let bare = id.split('(').next().unwrap_or("").trim();
    format!(
        "**`{id}`** — a parameterised entry, which `requires:` does not support\n\n\
         SwarmKit reads the whole text as a skill id, and no skill has it, so this entry takes no \
         part in the ordering rules (`agent.requires-parameterised`). A rule means any successful \
         call of the prerequisite, whatever its arguments: write the bare id `{bare}`."
    )
}

/// A `governance.decision_skills` binding: the skill it runs (or the memory hook), where the
/// binding fires, and what the runtime does when the id is not a decision skill.
fn decision_binding_summary(index: &Index, workspace: FileId, file: FileId, id: &str) -> String {
    let binding = match index.file(file).map(|e| &e.parsed.content) {
        Some(Content::SwarmKit(Artifact::Workspace(w))) => {
            w.decision_skills.iter().find(|b| b.id.value == id)
        }
        Some(Content::SwarmKit(Artifact::Topology(t))) => {
            t.decision_skills.iter().find(|b| b.id.value == id)
        }
        _ => None,
    };
    let trigger = binding
        .and_then(|b| b.trigger.as_ref())
        .map(|t| t.value.as_str());
    let when = match trigger {
        Some("pre_input") => "before each agent in its scope runs, on the user input",
        Some("post_output") => "after each agent in its scope answers, on its output",
        Some("checkpoint") => "between task batches",
        Some("pre_synthesis") => "before the final synthesis",
        _ => "at its trigger point",
    };
    let scope = if matches!(
        index.file(file).map(|e| &e.parsed.content),
        Some(Content::SwarmKit(Artifact::Workspace(_)))
    ) {
        "Bound for every topology of the workspace (a topology may override it by id)"
    } else {
        "Bound for this topology (overriding a workspace binding of the same id)"
    };
    let disabled = binding.is_some_and(|b| !b.enabled);
    let mut text = if crate::model::swarmkit::MEMORY_HOOKS.contains(&id) {
        format!(
            "**`{id}`** — the memory hook, run by the runtime's memory subsystem, not a skill of \
             the registry (bound automatically unless the workspace binds it, or sets \
             `memory.enabled: false`)"
        )
    } else {
        let mut text = skill_summary(index, workspace, id, None);
        let lookup = Lookup::new(index);
        match registry::skill_named(&lookup, workspace, id) {
            None => text.push_str(
                "\n\nAt run time the binding fails closed: every check reads `Decision skill \
                 not found in workspace (blocking)`.",
            ),
            Some(skill)
                if skill.category.as_deref()
                    != Some(crate::rules::decision_skills::DECISION_CATEGORY) =>
            {
                text.push_str(
                    "\n\nNot a `category: decision` skill, so the runtime's judge does not hold \
                     it: the binding never runs it.",
                )
            }
            Some(_) => {}
        }
        text
    };
    let _ = write!(text, "\n\n---\n\n{scope}; fires {when}.");
    if disabled {
        text.push_str(" Switched off here (`enabled: false`).");
    }
    text
}

/// `here`: describe the definition in this file when it is one of several.
fn skill_summary(index: &Index, workspace: FileId, id: &str, here: Option<FileId>) -> String {
    let lookup = Lookup::new(index);
    let defs = registry::skills_named(&lookup, workspace, id);
    let info = here
        .and_then(|file| defs.iter().find(|d| d.file == file))
        .or(defs.first());
    let Some(info) = info else {
        return format!("**`{id}`** — no skill has this id in this workspace");
    };
    let mut text = format!("**`{id}`**");
    if let Some(name) = info.skill.and_then(|s| s.name.as_ref()) {
        let _ = write!(text, " — {}", name.value);
    }
    text.push_str("\n\n");
    if let Some(category) = &info.category {
        let _ = writeln!(text, "- category: {category}");
    }
    let implementation = match (&info.skill, &info.origin) {
        (Some(skill), _) => skill.describe_implementation(),
        (None, _) => info
            .implementation
            .map_or("unknown implementation", |i| i.as_str())
            .to_owned(),
    };
    let _ = writeln!(text, "- implementation: `{implementation}`");
    let place = relative_path(index, workspace, info.file);
    let _ = match &info.origin {
        Origin::File => writeln!(text, "- defined in `{place}`"),
        Origin::Memory => writeln!(
            text,
            "- bundled with the runtime (memory is enabled in `{place}`)"
        ),
        Origin::PackCommand { pack, read_only } => writeln!(
            text,
            "- a command of pack `{pack}`{}, declared in `{place}`",
            if *read_only { " (read-only)" } else { "" }
        ),
        Origin::Topology => writeln!(text, "- runs the topology in `{place}` as a child job"),
    };
    if defs.len() > 1 {
        let _ = writeln!(text, "- also defined in {} other place(s)", defs.len() - 1);
    }
    if let Some(description) = info.skill.and_then(|s| s.description.as_ref()) {
        let _ = write!(text, "\n{}", description.value.trim());
    }
    text.trim_end().to_owned()
}

/// "Granted to" lines for a skill's own definition: the agents and archetypes naming it in a
/// grant (bulk grants not included).
fn granted_by(index: &Index, workspace: FileId, id: &str) -> String {
    let what = Ref::Artifact(ArtifactKind::Skill, id.to_owned());
    let mut files: Vec<FileId> = index
        .files()
        .filter(|f| index.workspace_of(f.id) == Some(workspace))
        .map(|f| f.id)
        .collect();
    files.sort();
    let mut lines = Vec::new();
    for file in files {
        let content = index.file(file).map(|e| &e.parsed.content);
        for o in super::occurrences(index, file) {
            if o.what != what || o.site != Site::Grant {
                continue;
            }
            let place = relative_path(index, workspace, file);
            let line = match (content, o.agent) {
                (Some(Content::SwarmKit(Artifact::Topology(t))), Some(agent)) => {
                    format!("- agent `{}` in `{place}`", t.agents[agent].label())
                }
                (Some(Content::SwarmKit(Artifact::Archetype(a))), _) => format!(
                    "- archetype `{}` in `{place}`",
                    a.id.as_ref().map_or("?", |i| i.value.as_str())
                ),
                _ => continue,
            };
            if !lines.contains(&line) {
                lines.push(line);
            }
        }
    }
    if lines.is_empty() {
        return "\n\nNot granted by name to any agent or archetype.".to_owned();
    }
    format!("\n\nGranted by name to:\n\n{}", lines.join("\n"))
}

struct AgentRules<'l, 'a> {
    effective: EffectiveSkills<'l, 'a>,
    graph: Option<RequiresGraph>,
}

fn agent_rules<'l, 'a>(
    lookup: &'l Lookup<'a>,
    workspace: FileId,
    file: FileId,
    agent: &Agent,
) -> AgentRules<'l, 'a> {
    let effective = effective_skills(lookup, workspace, file, agent, &mut Vec::new());
    let graph = agent
        .requires
        .as_ref()
        .map(|block| build(lookup, workspace, block, &effective));
    AgentRules { effective, graph }
}

fn names(graph: &RequiresGraph, nodes: &[usize]) -> Vec<String> {
    nodes.iter().map(|&n| graph.skills[n].clone()).collect()
}

fn code_list(items: &[String]) -> String {
    items
        .iter()
        .map(|s| format!("`{s}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// What a refused skill call returns to the model, before the reason
/// (swarmkit-runtime 1.265.0, `langgraph_compiler/_skill_executor.py`: `[skill:<id>]` and
/// `DENIED_MARK`; checked 2026-12-01).
fn denied_prefix(id: &str) -> String {
    format!("[skill:{id}] DENIED: ")
}

/// The same refusal through the MCP gateway (`mcp/_gateway.py`, checked 2026-12-01).
const GATEWAY_DENIED: &str = "DENIED by governance: ";

/// The runtime's refusal when `guarded` is called before its prerequisites, verbatim from its
/// template (`prerequisites.py`, `refusal`, with the unmet prerequisites from `missing`).
pub fn refusal(guarded: &str, prerequisites: &[String]) -> String {
    let list = prerequisites.join(", ");
    let verb = if prerequisites.len() == 1 {
        "has"
    } else {
        "have"
    };
    format!(
        "{guarded} requires {list}, which {verb} not been called in this session. Call {list} first, then retry."
    )
}

fn skill_in_agent(
    index: &Index,
    workspace: FileId,
    file: FileId,
    agent: &Agent,
    id: &str,
) -> String {
    let lookup = Lookup::new(index);
    let rules = agent_rules(&lookup, workspace, file, agent);
    let label = agent.label();
    let mut text = format!("**In agent `{label}`**");
    if let Some(skill) = rules.effective.get(id) {
        let _ = write!(text, " (granted by {})", skill.source.describe());
    } else {
        text.push_str(" — the agent does not hold this skill");
    }
    text.push_str("\n\n");
    let Some(graph) = &rules.graph else {
        let _ = write!(text, "No ordering rules: `{id}` may be called at any time.");
        return text;
    };
    let Some(node) = graph.index_of(id) else {
        let _ = write!(
            text,
            "No ordering rule mentions `{id}`: it may be called at any time."
        );
        return text;
    };
    let requires = names(graph, &graph.requires_transitively(node));
    let required_by = names(graph, &graph.required_by_transitively(node));
    if requires.is_empty() {
        let _ = writeln!(text, "- requires: nothing");
    } else {
        let _ = writeln!(text, "- requires (transitively): {}", code_list(&requires));
    }
    if required_by.is_empty() {
        let _ = writeln!(text, "- required by: nothing");
    } else {
        let _ = writeln!(
            text,
            "- required by (transitively): {}",
            code_list(&required_by)
        );
    }
    let on_cycle = graph.on_cycle(node);
    let satisfiable = graph.blocked[node].is_none() && !on_cycle;
    if !requires.is_empty() {
        let enforced = graph.types[node].map(|t| t.is_gated());
        let _ = writeln!(
            text,
            "- enforced: {}",
            match (enforced, graph.types[node]) {
                (Some(true), _) =>
                    "yes, the runtime checks the prerequisites before each call".to_owned(),
                (Some(false), Some(kind)) => format!(
                    "no, {} skills are dispatched without checking prerequisites",
                    kind.as_str()
                ),
                _ => "unknown (the skill's implementation type is not known)".to_owned(),
            }
        );
        if satisfiable {
            let _ = writeln!(text, "- satisfiable: yes");
        } else if on_cycle {
            let _ = writeln!(
                text,
                "- satisfiable: **no**, it is caught in a `requires` cycle"
            );
        } else {
            let _ = writeln!(
                text,
                "- satisfiable: **no**, {}",
                graph.explain_blocked(node)
            );
        }
    }
    if !satisfiable && !requires.is_empty() {
        text.push_str("\nNo call order satisfies this rule.\n");
    }
    if let Some(order) = graph.call_order(node).filter(|o| o.len() > 1) {
        text.push_str("\nA valid call order:\n\n");
        for (i, n) in order.iter().enumerate() {
            let _ = writeln!(text, "{}. `{}`", i + 1, graph.skills[*n]);
        }
    }
    // Only skills the runtime gates are ever refused: an llm_prompt or composed skill runs
    // whatever was called before it.
    let direct: Vec<String> = names(graph, &graph.graph.edges[node]);
    let gated = graph.types[node].is_some_and(|t| t.is_gated());
    if !direct.is_empty() && gated {
        let _ = write!(
            text,
            "\nCalled too early, the agent gets back:\n\n> {}{}\n\n\
             (through the MCP gateway the prefix is `{GATEWAY_DENIED}`). The list names only the \
             prerequisites not called yet in this session, so it shrinks as they are called.",
            denied_prefix(id),
            refusal(id, &direct)
        );
    }
    text.trim_end().to_owned()
}

fn agent_summary(index: &Index, workspace: FileId, file: FileId, agent: &Agent) -> String {
    let lookup = Lookup::new(index);
    let rules = agent_rules(&lookup, workspace, file, agent);
    let mut text = format!("**agent `{}`**", agent.label());
    let mut facts = Vec::new();
    if let Some(role) = &agent.role {
        facts.push(format!("role {}", role.value));
    }
    if let Some(archetype) = &agent.archetype {
        facts.push(format!("archetype `{}`", archetype.value));
    }
    if !facts.is_empty() {
        let _ = write!(text, " ({})", facts.join(", "));
    }
    text.push_str("\n\n");
    if rules.effective.is_empty() {
        text.push_str("Holds no skills.\n");
    } else {
        text.push_str("Effective skills:\n\n");
        for skill in rules.effective.iter() {
            let _ = writeln!(text, "- `{}` — from {}", skill.id, skill.source.describe());
        }
    }
    match (&agent.requires, &rules.graph) {
        (Some(block), Some(graph)) if !block.rules.is_empty() => {
            text.push_str("\nOrdering rules:\n\n");
            for rule in &block.rules {
                let prerequisites: Vec<String> =
                    rule.prerequisites.iter().map(|p| p.value.clone()).collect();
                let _ = write!(
                    text,
                    "- `{}` requires {}",
                    rule.guarded.value,
                    code_list(&prerequisites)
                );
                if let Some(node) = graph.index_of(&rule.guarded.value) {
                    if graph.on_cycle(node) {
                        text.push_str(" — **never satisfiable**: caught in a `requires` cycle");
                    } else if graph.blocked[node].is_some() {
                        let _ = write!(
                            text,
                            " — **never satisfiable**: {}",
                            graph.explain_blocked(node)
                        );
                    } else if let Some(kind) = graph.types[node].filter(|t| !t.is_gated()) {
                        let _ = write!(text, " — not enforced ({} skill)", kind.as_str());
                    }
                }
                text.push('\n');
            }
        }
        _ => text.push_str("\nNo ordering rules.\n"),
    }
    text.trim_end().to_owned()
}

/// `here`: describe the definition in this file when it is one of several.
fn artifact_summary(
    index: &Index,
    workspace: FileId,
    kind: ArtifactKind,
    id: &str,
    here: Option<FileId>,
) -> String {
    let defs = artifact_definitions(index, workspace, kind, id);
    let kind_name = kind.kind_field().to_lowercase();
    let chosen = here
        .and_then(|file| defs.iter().find(|(f, _)| *f == file))
        .or(defs.first());
    let Some(&(file, _)) = chosen else {
        return format!("**{kind_name} `{id}`** — not defined in this workspace");
    };
    let mut text = format!("**{kind_name} `{id}`**\n\n");
    match index.file(file).map(|e| &e.parsed.content) {
        Some(Content::SwarmKit(Artifact::Archetype(a))) => {
            if let Some(role) = &a.role {
                let _ = writeln!(text, "- role: {}", role.value);
            }
            let skills: Vec<String> = a
                .default_skills
                .iter()
                .map(|g| match g {
                    crate::model::swarmkit::Grant::Skill(s) => s.value.clone(),
                    crate::model::swarmkit::Grant::Server { id, .. } => {
                        format!("server:{}", id.value)
                    }
                    crate::model::swarmkit::Grant::Pack { id, .. } => format!("pack:{}", id.value),
                    _ => "(abstract grant)".to_owned(),
                })
                .collect();
            if !skills.is_empty() {
                let _ = writeln!(text, "- default skills: {}", code_list(&skills));
            }
        }
        Some(Content::SwarmKit(Artifact::Topology(t))) => {
            let _ = writeln!(text, "- {} agent(s)", t.agents.len());
        }
        _ => {}
    }
    let _ = writeln!(
        text,
        "- defined in `{}`",
        relative_path(index, workspace, file)
    );
    if let Some(Content::SwarmKit(Artifact::Archetype(a))) =
        index.file(file).map(|e| &e.parsed.content)
    {
        if let Some(d) = &a.description {
            let _ = write!(text, "\n{}", d.value.trim());
        }
    }
    text.trim_end().to_owned()
}

fn server_summary(index: &Index, workspace: FileId, id: &str) -> String {
    let mut text = format!("**MCP server `{id}`**\n\n");
    let server = match index.file(workspace).map(|e| &e.parsed.content) {
        Some(Content::SwarmKit(Artifact::Workspace(w))) => w.mcp_server(id).cloned(),
        _ => None,
    };
    match server {
        Some(server) => {
            if let Some(t) = &server.transport {
                let _ = writeln!(text, "- transport: {}", t.value);
            }
            let _ = writeln!(
                text,
                "- declared in `{}`",
                relative_path(index, workspace, workspace)
            );
        }
        None => text.push_str("- not declared under `mcp_servers` in workspace.yaml\n"),
    }
    let mut skills: Vec<String> = registry::skills_on_server(&Lookup::new(index), workspace, id)
        .into_iter()
        .map(|s| s.id)
        .collect();
    skills.sort();
    if !skills.is_empty() {
        let _ = writeln!(text, "- skills on it: {}", code_list(&skills));
    }
    text.trim_end().to_owned()
}

#[cfg(test)]
mod tests {
    use std::sync::LazyLock;

    use super::super::test_support::{answer_at, cursor_at, fixture, topology_w, workspace_w};
    use super::*;

    static WS: LazyLock<String> = LazyLock::new(|| {
        [
            workspace_w(&["conventions"]),
            r#"//- /w/skills/list.yaml
apiVersion: swarmkit/v1
kind: Skill
metadata:
  id: list-conventions
  name: list conventions
  description: Lists them.
category: capability
implementation:
  type: mcp_tool
  server: conventions
  tool: list_conventions
//- /w/skills/get.yaml
apiVersion: swarmkit/v1
kind: Skill
metadata:
  id: get-convention
  name: get convention
  description: Gets one.
category: capability
implementation:
  type: mcp_tool
  server: conventions
  tool: get_convention
//- /w/skills/search.yaml
apiVersion: swarmkit/v1
kind: Skill
metadata:
  id: search-code
  name: search code
category: capability
implementation:
  type: mcp_tool
  server: conventions
  tool: search_code
"#
            .to_owned(),
            topology_w("estate", "estate"),
            r#"    id: ro$2ot
    role: root
    skills: [list-conventions, get-convention, search-code]
    requires:
      get-convention: [list-conventions]
      search-$1code: [get-convention, list-conventions]
"#
            .to_owned(),
        ]
        .concat()
    });

    fn hover_at(n: u32) -> String {
        hover_text(&cursor_at(&WS, n, 2))
    }

    #[test]
    fn only_an_agent_id_is_on_an_agent_definition() {
        let on = |n: u32| answer_at(&cursor_at(&WS, n, 2), crate::ide::on_agent_definition);
        assert!(on(2), "the agent's own id");
        assert!(!on(1), "a skill in the agent's requires block");
    }

    #[test]
    fn skill_in_an_agent() {
        let text = hover_at(1);
        assert_says(&text, &[
            "implementation: `mcp_tool conventions.search_code`",
            "defined in `skills/search.yaml`",
            "requires (transitively): `get-convention`, `list-conventions`",
            "1. `list-conventions`\n2. `get-convention`\n3. `search-code`",
            "search-code requires get-convention, list-conventions, which have not been called in this session. Call get-convention, list-conventions first, then retry.",
        ]);
    }

    #[test]
    fn the_refusal_has_the_prefix_the_agent_sees_and_required_by_is_transitive() {
        let text = hover_at(1);
        assert_says(&text, &[
            "> [skill:search-code] DENIED: search-code requires get-convention, list-conventions, which have not been called in this session.",
            "`DENIED by governance: `",
            "so it shrinks as they are called",
        ]);
        // list-conventions is required by get-convention directly and by search-code through it.
        let on_list = cursor_at(&WS, 0, 2)
            .replace(
                "get-convention: [list-conventions]",
                "get-convention: [list-$0conventions]",
            )
            .replace(
                "search-code: [get-convention, list-conventions]",
                "search-code: [get-convention]",
            );
        let f = fixture(&on_list);
        let text = hover(&f.index, f.cursor_file, f.offset)
            .expect("a hover")
            .markdown;
        assert!(
            text.contains("- required by (transitively): `get-convention`, `search-code`"),
            "{text}"
        );
    }

    #[test]
    fn a_skill_the_runtime_does_not_gate_shows_no_refusal() {
        let text = cursor_at(&WS, 0, 2)
            .replace(
                "  type: mcp_tool\n  server: conventions\n  tool: search_code\n",
                "  type: llm_prompt\n  prompt: Search.\n",
            )
            .replace("search-code: [get", "search-$0code: [get");
        let f = fixture(&text);
        let text = hover(&f.index, f.cursor_file, f.offset)
            .expect("a hover")
            .markdown;
        assert!(text.contains("- enforced: no, llm_prompt skills"), "{text}");
        assert!(!text.contains("DENIED"), "{text}");
        assert!(!text.contains("Called too early"), "{text}");
    }

    #[test]
    fn agent_id_lists_skills_and_rules() {
        let text = hover_at(2);
        assert_says(
            &text,
            &[
                "- `get-convention` — from skills",
                "- `get-convention` requires `list-conventions`",
            ],
        );
    }

    #[test]
    fn skill_md_fields_and_name() {
        let text = "//- /r/.claude/skills/pdf/SKILL.md\n---\nna$0me: pdf\ndescription: Reads PDFs.\n---\nbody\n";
        let name = hover_text(text);
        assert!(
            name.starts_with("**`name`** — an Agent Skills spec field"),
            "{name}"
        );
        let skill = hover_text(&text.replace("$0", "").replace("pdf\nd", "p$0df\nd"));
        assert!(
            skill.starts_with("**SKILL.md skill `pdf`**\n\n- folder: `pdf`\n\nReads PDFs."),
            "{skill}"
        );
    }

    #[test]
    fn a_skill_definition_lists_who_grants_it() {
        let text = cursor_at(&WS, 0, 2).replace("id: search-code", "id: search-$0code");
        let f = fixture(&text);
        let h = hover(&f.index, f.cursor_file, f.offset).unwrap().markdown;
        assert!(
            h.ends_with("Granted by name to:\n\n- agent `root` in `topologies/estate.yaml`"),
            "{h}"
        );
    }

    #[test]
    fn refusal_grammar() {
        assert_eq!(
            refusal("a", &["b".into()]),
            "a requires b, which has not been called in this session. Call b first, then retry."
        );
    }

    #[test]
    fn a_substituted_value_says_what_it_became_and_from_where() {
        let ws = &[
            workspace_w(&[]),
            r#"//- /w/workspace.env.yaml
team:
  skill: summarise
//- /w/skills/summarise.yaml
apiVersion: swarmkit/v1
kind: Skill
metadata:
  id: summarise
  name: Summarise
  description: Summarises notes.
category: capability
implementation:
  type: llm_prompt
"#
            .to_owned(),
            topology_w("t", "t"),
            r#"    id: root
    role: root
    skills: ["${team.$1skill}", "x${NOT_SET}y${NOT_SET:-z}$${a}"]
    prompt:
      system: "say ${NOT$2_SET:-hi}"
"#
            .to_owned(),
        ]
        .concat();
        let at = |n: u32| answer_at(&cursor_at(ws, n, 2), hover).expect("a hover");
        let on_grant = at(1).markdown;
        // The skill it resolved to, then the substitution.
        assert_says(
            &on_grant,
            &[
                "Summarises notes.",
                "**Substituted value** (as SwarmKit reads it): `summarise`",
                "`team.skill`: property of `workspace.env.yaml`",
            ],
        );
        let on_prompt = at(2);
        expect_test::expect![[r#"
            **Substituted value** (as SwarmKit reads it): `say hi`
            - `NOT_SET`: not set, so its `:-` default"#]]
        .assert_eq(&on_prompt.markdown);
        let f = fixture(&cursor_at(ws, 0, 2).replace("x${NOT", "$0x${NOT"));
        let mixed = hover(&f.index, f.cursor_file, f.offset)
            .expect("a hover")
            .markdown;
        assert_says(
            &mixed,
            &[
                "`NOT_SET`: not set and no default, so `${NOT_SET}` stays as written",
                "`$${a}`: escaped, the literal text `${a}`",
            ],
        );
    }

    fn hover_text(text: &str) -> String {
        answer_at(text, hover).expect("a hover").markdown
    }

    /// Fails unless `text` holds every one of `parts`.
    fn assert_says(text: &str, parts: &[&str]) {
        for part in parts {
            assert!(text.contains(part), "{part:?} is missing from:\n{text}");
        }
    }

    #[test]
    fn a_parameterised_entry_says_it_is_unsupported() {
        let text = hover_text(&cursor_at(&WS, 0, 2).replace(
            "get-convention: [list-conventions]",
            "get-convention: [list-conv$0entions(path=$p)]",
        ));
        assert!(
            text.starts_with("**`list-conventions(path=$p)`** — a parameterised entry, which `requires:` does not support"),
            "{text}"
        );
        assert!(
            text.contains("write the bare id `list-conventions`"),
            "{text}"
        );
        assert!(!text.contains("any time"), "{text}");
    }

    #[test]
    fn a_duplicate_id_is_described_from_the_file_at_hand() {
        let base = cursor_at(&WS, 0, 2)
            + "//- /w/skills/zz-list-again.yaml\napiVersion: swarmkit/v1\nkind: Skill\nmetadata:\n  id: list-con$0ventions\n  name: list again\n  description: The second one.\ncategory: capability\nimplementation:\n  type: llm_prompt\n  prompt: List.\n";
        let second = hover_text(&base);
        assert_says(
            &second,
            &[
                "defined in `skills/zz-list-again.yaml`",
                "The second one.",
                "also defined in 1 other place(s)",
            ],
        );
        // Elsewhere, the definition references resolve to (the first in path order).
        let first = hover_text(
            &base
                .replace("list-con$0ventions", "list-conventions")
                .replace("skills: [list-conventions", "skills: [list-con$0ventions"),
        );
        assert!(first.contains("defined in `skills/list.yaml`"), "{first}");
        // Other kinds too.
        let archetypes = "//- /w/workspace.yaml\napiVersion: swarmkit/v1\nkind: Workspace\nmetadata:\n  id: w\n//- /w/archetypes/a.yaml\napiVersion: swarmkit/v1\nkind: Archetype\nmetadata:\n  id: helper\n  description: First.\n//- /w/archetypes/b.yaml\napiVersion: swarmkit/v1\nkind: Archetype\nmetadata:\n  id: hel$0per\n  description: Second.\n";
        let text = hover_text(archetypes);
        assert!(text.contains("defined in `archetypes/b.yaml`"), "{text}");
    }

    #[test]
    fn a_decision_binding_describes_the_skill_and_when_it_fires() {
        let ws = "//- /w/workspace.yaml\napiVersion: swarmkit/v1\nkind: Workspace\nmetadata:\n  id: w\ngovernance:\n  provider: mock\n  decision_skills:\n    - id: grounding-$1judge\n      trigger: post_output\n    - id: memory-$2reader\n      trigger: pre_input\n    - id: say-$3hello\n      trigger: pre_input\n//- /w/skills/judge.yaml\napiVersion: swarmkit/v1\nkind: Skill\nmetadata:\n  id: grounding-judge\n  name: judge\n  description: Checks citations.\ncategory: decision\nimplementation:\n  type: llm_prompt\n  prompt: judge\n//- /w/skills/say.yaml\napiVersion: swarmkit/v1\nkind: Skill\nmetadata:\n  id: say-hello\n  name: say\ncategory: capability\nimplementation:\n  type: llm_prompt\n  prompt: hi\n";
        let at = |n: u32| hover_text(&cursor_at(ws, n, 3));
        let judge = at(1);
        assert_says(
            &judge,
            &[
                "Checks citations.",
                "defined in `skills/judge.yaml`",
                "fires after each agent in its scope answers",
            ],
        );
        let hook = at(2);
        assert!(
            hook.starts_with("**`memory-reader`** — the memory hook"),
            "{hook}"
        );
        let not_decision = at(3);
        assert!(
            not_decision.contains("Not a `category: decision` skill"),
            "{not_decision}"
        );
    }
}
