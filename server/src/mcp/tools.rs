//! The MCP tools as plain blocking functions over the engine, each answering what a face
//! already answers: `check` is `check --format json` (the CLI's JSON renderer), `explain` is
//! the hover (`ide::hover`), `graph` is `skillgraph graph` (`ide::ordering_graph` and the CLI's
//! renderers), `fixes` is `check --diff` (`CheckOutcome::apply_safe_fixes` and the CLI's
//! unified diff). Only the bound on the result's size is added here.

use std::io::Write;
use std::path::PathBuf;

use schemars::JsonSchema;
use serde::Deserialize;

use super::bounded::{cut_text, most_that_fit, Capped, MAX_RESULT_BYTES};
use super::roots::Roots;
use crate::check::CheckOutcome;
use crate::cli::{Format, GraphFormat};
use crate::diagnostic::Severity;
use crate::index::{Content, FileEntry};
use crate::model::swarmkit::Artifact;

/// Why a tool gave no answer.
#[derive(Debug)]
pub enum ToolError {
    /// The arguments are wrong (a path outside the roots, a selection matching nothing): the
    /// message says what to give instead.
    BadArguments(String),
    /// Nothing could be read.
    Failed(String),
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CheckInput {
    /// Files or folders to check, absolute or relative to a root; each is checked within the
    /// SwarmKit workspace or skill root around it (inside the roots). Default: every root.
    #[serde(default)]
    pub paths: Option<Vec<String>>,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FixesInput {
    /// Files or folders whose safe fixes to show, absolute or relative to a root. Default:
    /// every root.
    #[serde(default)]
    pub paths: Option<Vec<String>>,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExplainInput {
    /// The id of an agent of a SwarmKit topology.
    #[serde(default)]
    pub agent: Option<String>,
    /// The name of a SKILL.md skill (its frontmatter `name`).
    #[serde(default)]
    pub skill: Option<String>,
    /// Only agents of the topology with this name (`metadata.name`).
    #[serde(default)]
    pub topology: Option<String>,
    /// Where to look, absolute or relative to a root. Default: every root.
    #[serde(default)]
    pub paths: Option<Vec<String>>,
}

#[derive(Clone, Copy, Debug, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum GraphOutput {
    /// A Mermaid flowchart.
    #[default]
    Mermaid,
    /// The typed graph as JSON (nodes, edges, clusters).
    Json,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GraphInput {
    /// Files or folders to draw, absolute or relative to a root. Default: every root.
    #[serde(default)]
    pub paths: Option<Vec<String>>,
    /// Only this agent (and the agents its `depends_on` links it to).
    #[serde(default)]
    pub agent: Option<String>,
    /// Only the topology with this name (`metadata.name`).
    #[serde(default)]
    pub topology: Option<String>,
    /// `mermaid` (default) or `json`.
    #[serde(default)]
    pub format: GraphOutput,
}

/// The paths a tool was given, read as `check` reads them, nothing outside the roots.
fn checked(
    roots: &Roots,
    given: Option<&[String]>,
) -> Result<(Vec<PathBuf>, CheckOutcome), ToolError> {
    let paths = roots.resolve_all(given).map_err(ToolError::BadArguments)?;
    let outcome = crate::check::run_fenced_check(&paths, None, false, roots.folders())
        .map_err(ToolError::Failed)?;
    Ok((paths, outcome))
}

/// `check --format json` over the paths.
pub fn check(roots: &Roots, input: CheckInput) -> Result<Vec<String>, ToolError> {
    let (_, outcome) = checked(roots, input.paths.as_deref())?;
    Ok(vec![check_json(&outcome)])
}

/// The CLI's JSON document; past the bound, the first diagnostics that fit, the summary of
/// all of them, and `truncated` saying how many are shown.
fn check_json(outcome: &CheckOutcome) -> String {
    let mut report = outcome.report();
    let mut whole = Capped::new(MAX_RESULT_BYTES);
    if crate::cli::render(Format::Json, &report, &mut whole, false).is_ok() {
        return String::from_utf8_lossy(&whole.bytes).into_owned();
    }
    let all = std::mem::take(&mut report.diagnostics);
    // Room for the `truncated` note.
    let room = MAX_RESULT_BYTES - 2_000;
    let mut render_first = |n: usize| {
        report.diagnostics = all[..n].to_vec();
        let mut out = Capped::new(room);
        crate::cli::render(Format::Json, &report, &mut out, false)
            .is_ok()
            .then_some(out.bytes)
    };
    let shown = most_that_fit(all.len(), |n| render_first(n).is_some());
    let bytes = render_first(shown).unwrap_or_default();
    let mut document: serde_json::Value = match serde_json::from_slice(&bytes) {
        Ok(document) => document,
        Err(_) => return String::new(),
    };
    let count = |severity: Severity| all.iter().filter(|d| d.severity == severity).count();
    if let Some(summary) = document.get_mut("summary").and_then(|s| s.as_object_mut()) {
        summary.insert("errors".into(), count(Severity::Error).into());
        summary.insert("warnings".into(), count(Severity::Warning).into());
        summary.insert("infos".into(), count(Severity::Info).into());
        summary.insert("hints".into(), count(Severity::Hint).into());
    }
    document["truncated"] = serde_json::json!({
        "diagnostics_shown": shown,
        "diagnostics_total": all.len(),
        "reason": format!("the result is bounded at {MAX_RESULT_BYTES} bytes; the summary counts every diagnostic. Check fewer paths, or run `skillgraph check --format json` for the whole report."),
    });
    document.to_string()
}

/// `check --diff` over the paths: the safe fixes as a unified diff, and what they fix. Writes
/// nothing.
pub fn fixes(roots: &Roots, input: FixesInput) -> Result<Vec<String>, ToolError> {
    let (_, mut outcome) = checked(roots, input.paths.as_deref())?;
    let fixed = outcome.apply_safe_fixes();
    let mut diff = Capped::new(MAX_RESULT_BYTES - 2_000);
    let mut shown = 0;
    // `a/` and `b/` before a relative path, as `check --diff` writes them.
    let label = |path: &std::path::Path| {
        let shown = outcome.display_path(path);
        shown.strip_prefix('/').map(str::to_owned).unwrap_or(shown)
    };
    for file in &fixed.files {
        let mut one = Vec::new();
        if crate::cli::diff::write_file_diff(
            &mut one,
            &label(&file.from),
            &label(&file.to),
            &file.before,
            &file.after,
        )
        .is_err()
            || diff.write_all(&one).is_err()
        {
            break;
        }
        shown += 1;
    }
    let files = fixed.files.len();
    let mut summary = format!(
        "{} safe {} in {files} {} (what `skillgraph check --fix` would apply; nothing was written).",
        fixed.applied,
        if fixed.applied == 1 { "fix" } else { "fixes" },
        if files == 1 { "file" } else { "files" }
    );
    if shown < files {
        summary.push_str(&format!(
            " The diff shows {shown} of the {files} files: the result is bounded at {MAX_RESULT_BYTES} bytes; ask for fewer paths."
        ));
    }
    if !fixed.converged {
        summary.push_str(&format!(
            " Safe fixes were still offered after {} passes, so some are not in the diff.",
            crate::check::MAX_FIX_PASSES
        ));
    }
    let mut contents = Vec::new();
    if !diff.bytes.is_empty() {
        contents.push(String::from_utf8_lossy(&diff.bytes).into_owned());
    }
    contents.push(summary);
    Ok(contents)
}

/// `skillgraph graph` over the paths, in Mermaid or JSON.
pub fn graph(roots: &Roots, input: GraphInput) -> Result<Vec<String>, ToolError> {
    let (paths, outcome) = checked(roots, input.paths.as_deref())?;
    let selection = crate::ide::ordering_graph::Selection {
        roots: paths,
        topology: input.topology,
        agent: input.agent,
    };
    let graph = crate::ide::ordering_graph::build(&outcome.index, &selection)
        .map_err(|error| ToolError::BadArguments(error.to_string()))?;
    let format = match input.format {
        GraphOutput::Mermaid => GraphFormat::Mermaid,
        GraphOutput::Json => GraphFormat::Json,
    };
    let text = crate::cli::render_graph(format, &graph);
    if text.len() <= MAX_RESULT_BYTES {
        return Ok(vec![text]);
    }
    let hint = "draw one topology (`topology`) or one agent (`agent`), or fewer paths";
    Ok(vec![match input.format {
        GraphOutput::Mermaid => cut_text(text, hint),
        // Half a JSON document is no document: its size and counts instead.
        GraphOutput::Json => serde_json::json!({
            "truncated": {
                "bytes": text.len(),
                "nodes": graph.nodes.len(),
                "edges": graph.edges.len(),
                "clusters": graph.clusters.len(),
                "reason": format!("the graph's JSON is larger than the result bound ({MAX_RESULT_BYTES} bytes); {hint}"),
            }
        })
        .to_string(),
    }])
}

/// Most names an `explain` that found nothing lists.
const KNOWN_SHOWN: usize = 20;
/// Most chain entries of one SKILL.md whose hovers `explain` gathers.
const CHAIN_ENTRIES_SHOWN: usize = 50;

/// What the hover says of an agent (its ordering: call order, blocked skills and why, the
/// runtime's refusal text, `depends_on`) or of a SKILL.md skill (its chain and dependencies).
pub fn explain(roots: &Roots, input: ExplainInput) -> Result<Vec<String>, ToolError> {
    let (paths, outcome) = match (&input.agent, &input.skill) {
        (Some(_), None) | (None, Some(_)) => checked(roots, input.paths.as_deref())?,
        _ => {
            return Err(ToolError::BadArguments(
                "give one of `agent` (the id of a topology's agent) or `skill` (the name of a SKILL.md skill)".to_owned(),
            ))
        }
    };
    let index = &outcome.index;
    let mut files: Vec<&FileEntry> = index
        .files()
        .filter(|f| paths.iter().any(|p| f.path.starts_with(p)))
        .collect();
    files.sort_by(|a, b| crate::discover::path_order(&a.path, &b.path));
    let text = match (&input.agent, &input.skill) {
        (Some(agent), _) => explain_agent(&outcome, &files, agent, input.topology.as_deref())?,
        (_, Some(skill)) => explain_skill(&outcome, &files, skill)?,
        _ => unreachable!("checked above"),
    };
    Ok(vec![cut_text(
        text,
        "name the topology (`topology`) or fewer paths",
    )])
}

fn explain_agent(
    outcome: &CheckOutcome,
    files: &[&FileEntry],
    id: &str,
    topology: Option<&str>,
) -> Result<String, ToolError> {
    let mut sections = Vec::new();
    let mut known = std::collections::BTreeSet::new();
    for file in files {
        let Content::SwarmKit(Artifact::Topology(t)) = &file.parsed.content else {
            continue;
        };
        let name = t.name.as_ref().map(|n| n.value.as_str());
        if topology.is_some_and(|wanted| name != Some(wanted)) {
            continue;
        }
        for agent in &t.agents {
            let Some(agent_id) = &agent.id else { continue };
            if agent_id.value != id {
                if known.len() < KNOWN_SHOWN {
                    known.insert(agent_id.value.clone());
                }
                continue;
            }
            if let Some(hover) = crate::ide::hover(&outcome.index, file.id, agent_id.range.start) {
                sections.push(section(
                    outcome,
                    file,
                    &format!("agent `{id}`"),
                    hover.markdown,
                ));
            }
        }
    }
    if sections.is_empty() {
        return Err(nothing_named("agent", id, &known));
    }
    Ok(sections.join("\n\n"))
}

fn explain_skill(
    outcome: &CheckOutcome,
    files: &[&FileEntry],
    name: &str,
) -> Result<String, ToolError> {
    let wanted = crate::model::skill_md::normalize_name(name);
    let index = &outcome.index;
    let mut sections = Vec::new();
    let mut known = std::collections::BTreeSet::new();
    for file in files {
        let Content::SkillMd(skill) = &file.parsed.content else {
            continue;
        };
        let Some(skill_name) = skill.normalized_name() else {
            continue;
        };
        if skill_name != wanted {
            if known.len() < KNOWN_SHOWN {
                known.insert(skill_name);
            }
            continue;
        }
        // The hovers of the name, `dependencies`, the chain and each of its entries: what the
        // editor shows on each, in the order written.
        let extensions = &skill.extensions;
        let offsets = skill
            .name_range()
            .into_iter()
            .chain(extensions.dependencies.as_ref().map(|d| d.key))
            .chain(extensions.chain.as_ref().map(|c| c.key))
            .chain(extensions.chain.iter().flat_map(|c| {
                c.entries
                    .iter()
                    .take(CHAIN_ENTRIES_SHOWN)
                    .map(|entry| entry.range)
            }))
            .map(|range| range.start);
        let mut said: Vec<String> = Vec::new();
        for offset in offsets {
            if let Some(hover) = crate::ide::hover(index, file.id, offset) {
                if !said.contains(&hover.markdown) {
                    said.push(hover.markdown);
                }
            }
        }
        sections.push(section(
            outcome,
            file,
            &format!("skill `{name}`"),
            said.join("\n\n"),
        ));
    }
    if sections.is_empty() {
        return Err(nothing_named("SKILL.md skill", name, &known));
    }
    Ok(sections.join("\n\n"))
}

fn section(outcome: &CheckOutcome, file: &FileEntry, what: &str, markdown: String) -> String {
    format!(
        "## {what} ({})\n\n{markdown}",
        outcome.display_path(&file.path)
    )
}

fn nothing_named(kind: &str, name: &str, known: &std::collections::BTreeSet<String>) -> ToolError {
    let list = if known.is_empty() {
        format!("there is no {kind} there")
    } else {
        let names: Vec<&str> = known.iter().map(String::as_str).collect();
        format!("known: {}", names.join(", "))
    };
    ToolError::BadArguments(format!("no {kind} `{name}` in the paths given; {list}"))
}
