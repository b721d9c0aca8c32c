//! Skill definitions: `composes` references and cycles, and the MCP server an `mcp_tool`
//! skill names.

use super::catalogue::RuleDoc;
use crate::diagnostic::{Diagnostic, FileId, Severity};
use crate::graph::path;
use crate::index::{Content, Key, Lookup};
use crate::model::swarmkit::{Artifact, ImplementationType, Skill};

/// The runtime version skills' `requires_runtime` floors are compared with: the swarmkit-runtime
/// release this checker's behaviour was taken from.
pub const RUNTIME_VERSION: (u64, u64, u64) = (1, 265, 0);

pub const RULES: &[RuleDoc] = &[
    RuleDoc {
        code: "skill.runtime-too-old",
        severity: Severity::Error,
        summary: "A skill needs a newer SwarmKit runtime than the one this checker follows (1.265.0).",
        explanation: "`provenance.requires_runtime: \">=X.Y.Z\"` declares the oldest runtime that can run the skill. \
SwarmKit refuses a workspace holding a skill its runtime is too old for. Upgrade the runtime, or lower the floor if \
the skill does not need the newer features.",
    },
    RuleDoc {
        code: "skill.composed-unknown",
        severity: Severity::Error,
        summary: "A composed skill lists a skill id that does not exist.",
        explanation: "`implementation.composes` names the skills a composed skill runs; each must be a skill of \
the workspace. Fix the id or add the skill.",
    },
    RuleDoc {
        code: "skill.composed-cycle",
        severity: Severity::Error,
        summary: "Composed skills compose each other in a loop.",
        explanation: "A composed skill that (through others) composes itself would recurse forever, so SwarmKit \
refuses it. The message gives the whole loop and each edge is a related location; break the loop by removing \
one `composes` entry.",
    },
    RuleDoc {
        code: "skill.unknown-mcp-server",
        severity: Severity::Error,
        summary: "An `mcp_tool` skill names an MCP server that `workspace.yaml` does not declare.",
        explanation: "`implementation.server` must be the id of an entry of `mcp_servers` in the workspace \
manifest. SwarmKit only notices when a run starts and tries to launch the server; skillgraph tells you now. \
Declare the server or fix the id.",
    },
];

fn check_runtime_floor(file: FileId, skill: &Skill, out: &mut Vec<Diagnostic>) {
    let Some(floor) = &skill.requires_runtime else {
        return;
    };
    let Some(version) = floor.value.trim().strip_prefix(">=") else {
        return;
    }; // the schema checks the form
    let parts: Vec<u64> = version
        .trim()
        .split('.')
        .filter_map(|p| p.parse().ok())
        .collect();
    if let [major, minor, patch] = parts[..] {
        if (major, minor, patch) > RUNTIME_VERSION {
            let (a, b, c) = RUNTIME_VERSION;
            out.push(Diagnostic::new(
                "skill.runtime-too-old",
                file,
                floor.range,
                format!("this skill needs swarmkit-runtime {version} or newer, but the runtime is {a}.{b}.{c}; upgrade the runtime or lower the floor"),
            ));
        }
    }
}

pub fn check(
    lookup: &Lookup<'_>,
    workspace: FileId,
    file: FileId,
    skill: &Skill,
    out: &mut Vec<Diagnostic>,
) {
    check_runtime_floor(file, skill, out);
    if skill.implementation() == Some(ImplementationType::Composed) {
        for entry in &skill.composes {
            // Composes resolve against the skills of `skills/` and the bundled ones only, not
            // pack commands or topology skills.
            let known = super::registry::skills_named(lookup, workspace, &entry.value)
                .iter()
                .any(|s| {
                    matches!(
                        s.origin,
                        super::registry::Origin::File | super::registry::Origin::Memory
                    )
                });
            if !known {
                out.push(Diagnostic::new(
                    "skill.composed-unknown",
                    file,
                    entry.range,
                    format!("no skill has the id `{}` in this workspace, so this composed skill cannot run; fix the id or add the skill", entry.value),
                ));
            }
        }
        check_composed_cycles(lookup, workspace, file, skill, out);
    }
    if skill.implementation() == Some(ImplementationType::McpTool) {
        if let Some(server) = &skill.server {
            check_mcp_server(lookup, workspace, file, server, out);
        }
    }
}

fn check_mcp_server(
    lookup: &Lookup<'_>,
    workspace: FileId,
    file: FileId,
    server: &crate::model::SpannedStr,
    out: &mut Vec<Diagnostic>,
) {
    let manifest = lookup.get(Key::Manifest { workspace }).into_iter().next();
    let Some(manifest) = manifest else { return };
    let Content::SwarmKit(Artifact::Workspace(w)) = &manifest.parsed.content else {
        return;
    };
    if w.mcp_server(&server.value).is_some() {
        return;
    }
    let declared: Vec<&str> = w.mcp_servers.iter().map(|s| s.id.value.as_str()).collect();
    let best = super::suggest::closest(&server.value, declared.iter().copied());
    let fix = best.zip(lookup.file(file)).and_then(|(best, entry)| {
        super::fixes::replace_scalar(&entry.text, file, server.range, &server.value, best)
    });
    let hint = match best {
        Some(best) => format!("did you mean `{best}`?"),
        None if declared.is_empty() => {
            "the workspace declares no MCP servers; add one under `mcp_servers`".into()
        }
        None => format!("declared: {}", declared.join(", ")),
    };
    let mut d = Diagnostic::new(
        "skill.unknown-mcp-server",
        file,
        server.range,
        format!("`{}` is not an MCP server of this workspace, so the runtime cannot call this tool; {hint}", server.value),
    );
    d.fixes.extend(fix.map(crate::diagnostic::Fix::preferred));
    let anchor = w
        .mcp_servers
        .first()
        .map(|s| s.range)
        .or(w.id.as_ref().map(|i| i.range));
    if let Some(range) = anchor {
        d = d.with_related(
            manifest.id,
            range,
            "MCP servers are declared in workspace.yaml",
        );
    }
    out.push(d);
}

/// A loop through `composes` that passes through this skill. As in SwarmKit, every member of a
/// loop reports it on its own file, each showing a loop through itself (see
/// `graph::cycles::LoopsThrough`), the middle of a long one elided.
fn check_composed_cycles(
    lookup: &Lookup<'_>,
    workspace: FileId,
    file: FileId,
    skill: &Skill,
    out: &mut Vec<Diagnostic>,
) {
    let Some(start) = skill.id.as_ref() else {
        return;
    };
    let graph = super::composes::composes_graph(lookup, workspace);
    let Some(node) = graph.node(&start.value).filter(|&n| graph.files[n] == file) else {
        return; // a duplicate id: the file the id resolves to reports the loop
    };
    if !graph.on_cycle(node) {
        return;
    }
    let hops = graph.loop_hops(node);
    let shown = path::split(hops + 1, path::HEAD_HOPS, path::TAIL_HOPS);
    let mut names: Vec<&str> = (0..shown.head)
        .map(|i| graph.ids[graph.loop_node(node, i)].as_str())
        .collect();
    let omission = path::omission(shown.omitted);
    if shown.omitted > 0 {
        names.push(&omission);
        names.extend(
            (hops + 1 - shown.tail..=hops).map(|i| graph.ids[graph.loop_node(node, i)].as_str()),
        );
    }
    // Placed on this skill's entry that leads into the loop.
    let next = graph.loop_node(node, 1);
    let range = graph.entry_range(node, next).unwrap_or(start.range);
    let mut d = Diagnostic::new(
        "skill.composed-cycle",
        file,
        range,
        format!(
            "composed skill `{}` is part of a loop, so it would recurse forever: {}; remove one `composes` entry to break it",
            start.value,
            names.join(" → ")
        ),
    );
    for i in path::related_hops(hops) {
        let (from, to) = (graph.loop_node(node, i), graph.loop_node(node, i + 1));
        if let Some(edge) = graph.entry_range(from, to) {
            d = d.with_related(
                graph.files[from],
                edge,
                format!("`{}` composes `{}`", graph.ids[from], graph.ids[to]),
            );
        }
    }
    out.push(d);
}
