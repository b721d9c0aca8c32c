//! Skill definitions: `composes` references and cycles, and the targets `swarmkit run` checks when
//! it loads the workspace (the MCP server of an `mcp_tool` skill, the pack and command of a
//! `command` skill, the topology of an `agent` skill).

use super::rule_doc::RuleDoc;
use super::SwarmKitScope;
use crate::diagnostic::{codes, Code, Diagnostic, FileId};
use crate::graph::path;
use crate::index::Key;
use crate::model::swarmkit::{ArtifactKind, ImplementationType, Skill};
use crate::model::SpannedStr;

/// The runtime version skills' `requires_runtime` floors are compared with: the swarmkit-runtime
/// release this checker's behaviour was taken from.
pub const RUNTIME_VERSION: (u64, u64, u64) = (1, 265, 0);

pub const RULES: &[RuleDoc] = &[
    RuleDoc {
        code: codes::SKILL_RUNTIME_TOO_OLD,
        summary: "A skill needs a newer SwarmKit runtime than the one this checker follows (1.265.0).",
        explanation: "`provenance.requires_runtime: \">=X.Y.Z\"` declares the oldest runtime that can run the skill. \
SwarmKit refuses a workspace holding a skill its runtime is too old for. Upgrade the runtime, or lower the floor if \
the skill does not need the newer features.",
    },
    RuleDoc {
        code: codes::SKILL_COMPOSED_UNKNOWN,
        summary: "A composed skill lists a skill id that does not exist.",
        explanation: "`implementation.composes` names the skills a composed skill runs; each must be a skill of \
the workspace. Fix the id or add the skill.",
    },
    RuleDoc {
        code: codes::SKILL_COMPOSED_CYCLE,
        summary: "Composed skills compose each other in a loop.",
        explanation: "A composed skill that (through others) composes itself would recurse forever, so SwarmKit \
refuses it. Each skill of the loop reports it in its own file, as `swarmkit validate` reports an error for each \
(swarmkit-runtime 1.265.0, `skills/__init__.py`, `_resolve_composed`), so the loop shows in whichever file is \
open. The message gives the loop through that skill (the middle of a long one elided) and its edges are related \
locations (at most twenty); break the loop by removing one `composes` entry.",
    },
    RuleDoc {
        code: codes::SKILL_UNKNOWN_MCP_SERVER,
        summary: "An `mcp_tool` skill names an MCP server that `workspace.yaml` does not declare: `swarmkit run` refuses to start the workspace.",
        explanation: "`implementation.server` must be the id of an entry of `mcp_servers` in the workspace \
manifest. `swarmkit validate` accepts the workspace, but `swarmkit run` refuses to load it: \
`WorkspaceRuntime.from_workspace_path` collects every such skill (`find_missing_mcp_servers`) and raises \
`MissingMCPServerError` (swarmkit-runtime 1.265.0, `_workspace_runtime.py`), which has no code of its own. \
Declare the server under `mcp_servers`, or fix the id.",
    },
    RuleDoc {
        code: codes::SKILL_UNKNOWN_COMMAND,
        summary: "A `command` skill names a command pack, or a command of a pack, that `workspace.yaml` does not declare: `swarmkit run` refuses to start the workspace.",
        explanation: "`implementation.pack` must be the id of an entry of `command_packs` in the workspace \
manifest and `implementation.command` one of its commands. `swarmkit validate` accepts the workspace, but \
`swarmkit run` refuses to load it: `find_missing_command_packs` finds the skill and \
`WorkspaceRuntime.from_workspace_path` raises `MissingCommandPackError` (swarmkit-runtime 1.265.0, \
`_workspace_runtime.py`; no code of its own). Declare the pack or command, or fix the ids.",
    },
    RuleDoc {
        code: codes::SKILL_UNKNOWN_AGENT_TOPOLOGY,
        summary: "An `agent` skill runs a topology the workspace does not have: `swarmkit run` refuses to start the workspace.",
        explanation: "`implementation.topology` of an `agent` skill must be the `metadata.name` of a topology of this \
workspace, or a bundled authoring topology (`swarmkit:author:…`). `swarmkit validate` accepts the workspace, but \
`swarmkit run` refuses to load it: `find_bad_agent_targets` (`agent_skill/_spec.py`) finds the skill and \
`WorkspaceRuntime.from_workspace_path` raises `MissingCommandPackError` (swarmkit-runtime 1.265.0; no code of \
its own). A remote `card_url` target is not checked at load. Add the topology or fix the name.",
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
                codes::SKILL_RUNTIME_TOO_OLD,
                file,
                floor.range,
                format!("this skill needs swarmkit-runtime {version} or newer, but the runtime is {a}.{b}.{c}; upgrade the runtime or lower the floor"),
            ));
        }
    }
}

pub fn check(scope: &SwarmKitScope<'_>, skill: &Skill, out: &mut Vec<Diagnostic>) {
    check_runtime_floor(scope.file, skill, out);
    if skill.implementation() == Some(ImplementationType::Composed) {
        for entry in &skill.composes {
            // Composes resolve against the skills of `skills/` and the bundled ones only, not
            // pack commands or topology skills.
            let known = crate::semantics::registry::skills_named(
                scope.lookup,
                scope.workspace,
                &entry.value,
            )
            .iter()
            .any(|s| {
                matches!(
                    s.origin,
                    crate::semantics::registry::Origin::File
                        | crate::semantics::registry::Origin::Memory
                )
            });
            if !known {
                out.push(Diagnostic::new(
                    codes::SKILL_COMPOSED_UNKNOWN,
                    scope.file,
                    entry.range,
                    format!("no skill has the id `{}` in this workspace, so this composed skill cannot run; fix the id or add the skill", entry.value),
                ));
            }
        }
        check_composed_cycles(scope, skill, out);
    }
    match skill.implementation() {
        Some(ImplementationType::McpTool) => {
            if let Some(server) = &skill.server {
                check_mcp_server(scope, server, out);
            }
        }
        Some(ImplementationType::Command) => check_command(scope, skill, out),
        Some(ImplementationType::Agent) => {
            if let Some(topology) = &skill.topology {
                check_agent_topology(scope, topology, out);
            }
        }
        _ => {}
    }
}

/// The message every load-time refusal starts with.
const REFUSES: &str = "`swarmkit run` refuses to start this workspace";

/// The load-time refusal of the unknown name `name`: `what` is wrong with it, then the closest
/// known name as a question, else what to do (`otherwise`).
fn unknown_name(
    code: Code,
    scope: &SwarmKitScope<'_>,
    name: &SpannedStr,
    what: String,
    closest: Option<&str>,
    otherwise: &str,
) -> Diagnostic {
    let hint = match closest {
        Some(best) => format!("did you mean `{best}`?"),
        None => otherwise.to_owned(),
    };
    Diagnostic::new(
        code,
        scope.file,
        name.range,
        format!("{REFUSES}: {what}; {hint}"),
    )
}

/// `find_missing_command_packs`: the pack and the command must both be declared.
fn check_command(scope: &SwarmKitScope<'_>, skill: &Skill, out: &mut Vec<Diagnostic>) {
    let Some(pack_id) = &skill.pack else { return };
    let Some((manifest, w)) = scope.manifest() else {
        return;
    };
    let Some(pack) = w.command_packs.iter().find(|p| p.id.value == pack_id.value) else {
        let declared = w.command_packs.iter().map(|p| p.id.value.as_str());
        let closest = super::suggest::closest(&pack_id.value, declared);
        out.push(unknown_name(
            codes::SKILL_UNKNOWN_COMMAND,
            scope,
            pack_id,
            format!(
                "`{}` is not a command pack of this workspace",
                pack_id.value
            ),
            closest,
            "declare it under `command_packs` in workspace.yaml",
        ));
        return;
    };
    let Some(command) = &skill.command else {
        return;
    };
    if pack.commands.iter().any(|c| c.id.value == command.value) {
        return;
    }
    let declared = pack.commands.iter().map(|c| c.id.value.as_str());
    let closest = super::suggest::closest(&command.value, declared);
    out.push(
        unknown_name(
            codes::SKILL_UNKNOWN_COMMAND,
            scope,
            command,
            format!(
                "pack `{}` has no command `{}`",
                pack.id.value, command.value
            ),
            closest,
            "add it to the pack's `commands` in workspace.yaml",
        )
        .with_related(
            manifest,
            pack.id.range,
            format!("pack `{}` is declared here", pack.id.value),
        ),
    );
}

/// `find_bad_agent_targets`: a local target must be a topology of the workspace, or a bundled
/// authoring topology (`swarmkit:author:…`, resolved when a run starts).
fn check_agent_topology(
    scope: &SwarmKitScope<'_>,
    topology: &SpannedStr,
    out: &mut Vec<Diagnostic>,
) {
    if topology.value.starts_with("swarmkit:author:") {
        return;
    }
    let key = Key::Def {
        workspace: scope.workspace,
        kind: ArtifactKind::Topology,
        id: topology.value.clone(),
    };
    if !scope.lookup.get(key).is_empty() {
        return;
    }
    let topologies = scope
        .lookup
        .sorted_ids(scope.workspace, ArtifactKind::Topology);
    let closest = super::suggest::closest_in(&topology.value, topologies);
    out.push(unknown_name(
        codes::SKILL_UNKNOWN_AGENT_TOPOLOGY,
        scope,
        topology,
        format!(
            "this agent skill runs the topology `{}`, which the workspace does not have",
            topology.value
        ),
        closest,
        "add a topology with that `metadata.name`, or fix the name",
    ));
}

fn check_mcp_server(scope: &SwarmKitScope<'_>, server: &SpannedStr, out: &mut Vec<Diagnostic>) {
    let Some((manifest, w)) = scope.manifest() else {
        return;
    };
    if w.mcp_server(&server.value).is_some() {
        return;
    }
    let declared: Vec<&str> = w.mcp_servers.iter().map(|s| s.id.value.as_str()).collect();
    let best = super::suggest::closest(&server.value, declared.iter().copied());
    let fix = best
        .zip(scope.lookup.file(scope.file))
        .and_then(|(best, entry)| {
            super::fixes::replace_scalar(&entry.text, scope.file, server.range, &server.value, best)
        });
    let hint = match best {
        Some(best) => format!("did you mean `{best}`?"),
        None if declared.is_empty() => {
            "the workspace declares no MCP servers; add one under `mcp_servers`".into()
        }
        None => format!("declared: {}", crate::graph::path::render_set(&declared)),
    };
    let mut d = Diagnostic::new(
        codes::SKILL_UNKNOWN_MCP_SERVER,
        scope.file,
        server.range,
        format!(
            "{REFUSES}: `{}` is not an MCP server of this workspace; {hint}",
            server.value
        ),
    );
    d.fixes.extend(fix.map(crate::diagnostic::Fix::preferred));
    let anchor = w
        .mcp_servers
        .first()
        .map(|s| s.range)
        .or(w.id.as_ref().map(|i| i.range));
    if let Some(range) = anchor {
        d = d.with_related(
            manifest,
            range,
            "MCP servers are declared in workspace.yaml",
        );
    }
    out.push(d);
}

/// A loop through `composes` that passes through this skill. As in SwarmKit, every member of a
/// loop reports it on its own file, each showing a loop through itself (see
/// `graph::cycles::LoopsThrough`), the middle of a long one elided.
fn check_composed_cycles(scope: &SwarmKitScope<'_>, skill: &Skill, out: &mut Vec<Diagnostic>) {
    let Some(start) = skill.id.as_ref() else {
        return;
    };
    let graph = crate::semantics::composes::composes_graph(scope.lookup, scope.workspace);
    let Some(node) = graph
        .node(&start.value)
        .filter(|&n| graph.files[n] == scope.file)
    else {
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
        codes::SKILL_COMPOSED_CYCLE,
        scope.file,
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
