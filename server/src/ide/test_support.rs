//! The IDE tests' fixtures: the crate's one parser (`//- /path` starts a file, `$0` marks the
//! cursor), in `crate::testing`.

pub(crate) use crate::testing::{fixture, Fixture};

use super::answers::Completions;
use crate::diagnostic::FileId;
use crate::index::Index;

/// What `answer` (a hover, a completion, a definition) gives at the cursor of the fixture
/// `marked`.
pub(crate) fn answer_at<T>(marked: &str, answer: impl FnOnce(&Index, FileId, u32) -> T) -> T {
    let f = fixture(marked);
    answer(&f.index, f.cursor_file, f.offset)
}

/// `text` with its numbered marker `$n` as the cursor and the other markers `$1` to `$last`
/// removed (all of them for `n` = 0): one fixture serves several cursor places.
pub(crate) fn cursor_at(text: &str, n: u32, last: u32) -> String {
    let mut text = text.to_owned();
    for k in 1..=last {
        text = text.replace(&format!("${k}"), if k == n { "$0" } else { "" });
    }
    text
}

/// The manifest of workspace `w`, with a stdio MCP server of each id of `servers`.
pub(crate) fn workspace_w(servers: &[&str]) -> String {
    let mut text =
        "//- /w/workspace.yaml\napiVersion: swarmkit/v1\nkind: Workspace\nmetadata:\n  id: w\n"
            .to_owned();
    if !servers.is_empty() {
        text.push_str("mcp_servers:\n");
    }
    for id in servers {
        text.push_str(&format!("  - id: {id}\n    transport: stdio\n"));
    }
    text
}

/// The start of topology `name` of workspace `w`, in `topologies/<file>.yaml`, down to the key
/// of its root agent (whose fields follow, indented by four).
pub(crate) fn topology_w(file: &str, name: &str) -> String {
    format!(
        "//- /w/topologies/{file}.yaml\napiVersion: swarmkit/v1\nkind: Topology\nmetadata:\n  name: {name}\nagents:\n  root:\n"
    )
}

/// The head of the SwarmKit file `<path>` of workspace `w`: its kind and `metadata.id`, the
/// fields of its kind to follow.
pub(crate) fn artifact_w(path: &str, kind: &str, id: &str) -> String {
    format!("//- /w/{path}\napiVersion: swarmkit/v1\nkind: {kind}\nmetadata:\n  id: {id}\n")
}

/// Skill `id` of workspace `w`, in `skills/<file>.yaml`: a capability that is the tool `tool`
/// of the MCP server `server`.
pub(crate) fn mcp_tool_skill_w(file: &str, id: &str, server: &str, tool: &str) -> String {
    artifact_w(&format!("skills/{file}.yaml"), "Skill", id)
        + &format!("category: capability\nimplementation:\n  type: mcp_tool\n  server: {server}\n  tool: {tool}\n")
}

/// A skill with named arguments (`$issue`, `$branch`), an argument hint naming a third, and a
/// body using them, by name and by number, and `$ARGUMENTS`; `` `$bogus` `` names none.
pub(crate) const FIX_SKILL: &str = "//- /p/.claude/skills/fix/SKILL.md
---
name: fix
description: Fixes an issue.
arguments: [issue, branch]
argument-hint: \"[issue] [branch] [reviewer]\"
---
Fix $issue on $1 for $2, then $ARGUMENTS; `$bogus`.
";

/// A decision skill bound in the workspace and in a topology: the skill's definition is `$2`, the
/// workspace's binding `$1`.
pub(crate) const DECISION_BINDINGS: &str = "//- /w/workspace.yaml\napiVersion: swarmkit/v1\nkind: Workspace\nmetadata:\n  id: w\ngovernance:\n  provider: mock\n  decision_skills:\n    - id: grounding-$1judge\n      trigger: post_output\n//- /w/skills/judge.yaml\napiVersion: swarmkit/v1\nkind: Skill\nmetadata:\n  id: grounding-$2judge\ncategory: decision\n//- /w/topologies/t.yaml\napiVersion: swarmkit/v1\nkind: Topology\nmetadata:\n  name: t\ngovernance:\n  decision_skills:\n    - id: grounding-judge\n      trigger: pre_input\n      enabled: false\n";

/// The labels of the completions, in the order offered.
pub(crate) fn item_labels(found: &Completions) -> Vec<&str> {
    found.items.iter().map(|i| i.label.as_str()).collect()
}
