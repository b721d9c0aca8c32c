//! Go to definition: an id to where it is defined, inside its own workspace.

use super::cursor::{at, Ref, Site};
use crate::diagnostic::FileId;
use crate::index::{Content, Index, Key, Lookup};
use crate::model::swarmkit::{Artifact, ArtifactKind};
use crate::semantics::grants::effective_skills;
use crate::syntax::TextRange;

/// Where the id under the cursor is defined: the skill's (archetype's, funnel's ...) `metadata.id`
/// value, a topology's `metadata.name`, the `mcp_servers` entry in `workspace.yaml`, an agent's
/// `id`. Several targets when the id is defined more than once; none when it is unknown.
pub fn definition(index: &Index, file: FileId, offset: u32) -> Vec<(FileId, TextRange)> {
    if let Some(target) = super::extensions::definition(index, file, offset) {
        return vec![target];
    }
    if let Some(targets) = super::mentions::definition(index, file, offset) {
        return targets;
    }
    let Some(occurrence) = at(index, file, offset) else {
        return Vec::new();
    };
    let Some(workspace) = index.workspace_of(file) else {
        return Vec::new();
    };
    definitions_of(index, workspace, file, &occurrence.what)
}

/// Where a `requires:` entry's skill is granted to the agent (in its `skills`, its archetype's
/// defaults, `skills_additional`, or a bulk grant): the rule's other "definition", reached with
/// go to declaration. Elsewhere the same as [`definition`].
pub fn declaration(index: &Index, file: FileId, offset: u32) -> Vec<(FileId, TextRange)> {
    let Some(occurrence) = at(index, file, offset) else {
        return Vec::new();
    };
    let Some(workspace) = index.workspace_of(file) else {
        return Vec::new();
    };
    if let (Site::RequiresKey | Site::RequiresValue, Some(agent), Ref::Artifact(_, id)) =
        (occurrence.site, occurrence.agent, &occurrence.what)
    {
        if let Some(Content::SwarmKit(Artifact::Topology(t))) =
            index.file(file).map(|e| &e.parsed.content)
        {
            if let Some(agent) = t.agents.get(agent) {
                let lookup = Lookup::new(index);
                let held = effective_skills(&lookup, workspace, file, agent, &mut Vec::new());
                return held
                    .grants_of(id)
                    .map(|s| (s.grant_file, s.grant_range))
                    .collect();
            }
        }
    }
    definitions_of(index, workspace, file, &occurrence.what)
}

/// Every definition of `what` as seen from `file` in `workspace`.
pub(crate) fn definitions_of(
    index: &Index,
    workspace: FileId,
    file: FileId,
    what: &Ref,
) -> Vec<(FileId, TextRange)> {
    match what {
        // Skills also come from the manifest (bundled memory skills, pack commands) and from
        // topologies (`topology-<name>`): the registry knows where each is defined.
        Ref::Artifact(ArtifactKind::Skill, id) => {
            crate::semantics::registry::skills_named(&Lookup::new(index), workspace, id)
                .into_iter()
                .map(|s| (s.file, s.range))
                .collect()
        }
        Ref::Artifact(kind, id) => artifact_definitions(index, workspace, *kind, id),
        Ref::McpServer(id) => match index.file(workspace).map(|e| &e.parsed.content) {
            Some(Content::SwarmKit(Artifact::Workspace(w))) => w
                .mcp_servers
                .iter()
                .filter(|s| &s.id.value == id)
                .map(|s| (workspace, s.id.range))
                .collect(),
            _ => Vec::new(),
        },
        Ref::Agent(id) => match index.file(file).map(|e| &e.parsed.content) {
            Some(Content::SwarmKit(Artifact::Topology(t))) => t
                .agents
                .iter()
                .filter_map(|a| a.id.as_ref())
                .filter(|a| &a.value == id)
                .map(|a| (file, a.range))
                .collect(),
            _ => Vec::new(),
        },
    }
}

pub(crate) fn artifact_definitions(
    index: &Index,
    workspace: FileId,
    kind: ArtifactKind,
    id: &str,
) -> Vec<(FileId, TextRange)> {
    let key = Key::Def {
        workspace,
        kind,
        id: id.to_owned(),
    };
    index
        .contributors(&key)
        .filter_map(|f| {
            let entry = index.file(f)?;
            match &entry.parsed.content {
                Content::SwarmKit(artifact) => artifact.id().map(|i| (f, i.range)),
                _ => None,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::sync::LazyLock;

    use super::super::test_support::{
        artifact_w, cursor_at, fixture, mcp_tool_skill_w, topology_w, workspace_w, Fixture,
    };
    use super::*;

    fn check(text: &str, expected: &[(&str, &str)]) {
        let Fixture {
            index,
            cursor_file,
            offset,
        } = fixture(text);
        let got: Vec<(String, String)> = definition(&index, cursor_file, offset)
            .into_iter()
            .map(|(f, r)| {
                let e = index.file(f).unwrap();
                (
                    e.path.file_name().unwrap().to_string_lossy().into_owned(),
                    e.text[r.start as usize..r.end as usize].to_owned(),
                )
            })
            .collect();
        let expected: Vec<(String, String)> = expected
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        assert_eq!(got, expected);
    }

    static WS: LazyLock<String> = LazyLock::new(|| {
        [
            workspace_w(&["conventions"]),
            mcp_tool_skill_w("get", "get-thing", "conv$1entions", "get"),
            artifact_w("archetypes/eng.yaml", "Archetype", "eng"),
            "defaults:\n  skills: [get-th$2ing]\n".to_owned(),
            artifact_w("triggers/t.yaml", "Trigger", "t"),
            "targets: [es$3tate]\n".to_owned(),
            topology_w("estate", "estate"),
            r#"    id: root
    role: root
    children:
      - id: worker
        role: worker
        archetype: e$4ng
        skills: [get-thing, server:conven$5tions]
        requires:
          get-th$6ing: [get-thing]
        depends_on: [ro$7ot]
"#
            .to_owned(),
        ]
        .concat()
    });

    fn with_cursor(n: u32) -> String {
        cursor_at(&WS, n, 7)
    }

    #[test]
    fn mcp_server_from_a_skill() {
        check(&with_cursor(1), &[("workspace.yaml", "conventions")]);
    }

    #[test]
    fn skill_from_an_archetype_default() {
        check(&with_cursor(2), &[("get.yaml", "get-thing")]);
    }

    #[test]
    fn topology_from_a_trigger() {
        check(&with_cursor(3), &[("estate.yaml", "estate")]);
    }

    #[test]
    fn archetype_and_server_grant_from_an_agent() {
        check(&with_cursor(4), &[("eng.yaml", "eng")]);
        check(&with_cursor(5), &[("workspace.yaml", "conventions")]);
    }

    #[test]
    fn requires_key_and_depends_on() {
        check(&with_cursor(6), &[("get.yaml", "get-thing")]);
        check(&with_cursor(7), &[("estate.yaml", "root")]);
    }

    #[test]
    fn declaration_of_a_requires_key_is_its_grant() {
        let f = fixture(&with_cursor(6));
        let got: Vec<String> = declaration(&f.index, f.cursor_file, f.offset)
            .into_iter()
            .map(|(file, r)| {
                let e = f.index.file(file).unwrap();
                let line = e.line_index().line_col(
                    &e.text,
                    r.start,
                    crate::syntax::PositionEncoding::Utf8,
                );
                format!(
                    "{}:{}",
                    line.line,
                    &e.text[r.start as usize..r.end as usize]
                )
            })
            .collect();
        // Granted twice: by id, and through `server:conventions`.
        assert_eq!(got, ["12:get-thing", "12:server:conventions"]);
    }

    #[test]
    fn nothing_under_the_cursor() {
        check("//- /w/workspace.yaml\nkind: Workspace$0\n", &[]);
    }
}
