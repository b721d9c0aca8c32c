//! SwarmKit artifacts in a folder that has no `workspace.yaml`: SwarmKit refuses the folder as a
//! workspace before it reads anything else, so nothing in it is checked either.

use super::rule_doc::RuleDoc;
use crate::diagnostic::{codes, Diagnostic, FileId};
use crate::index::{Key, Lookup};
use crate::model::swarmkit::StrayArtifact;

pub const RULES: &[RuleDoc] = &[RuleDoc {
    code: codes::WORKSPACE_MISSING_WORKSPACE_YAML,
    summary: "SwarmKit artifacts sit in a folder that has no `workspace.yaml`.",
    explanation: "A SwarmKit workspace declares itself with a `workspace.yaml` (or `workspace.yml`) at its root; \
without one, `swarmkit validate` and `swarmkit run` stop at once with this code, naming the folder \
(`MissingWorkspaceFileError`, raised by `_find_workspace_file` in `workspace/__init__.py` and turned into this code \
by `_bridge_missing_workspace_file` in `resolver/__init__.py`, swarmkit-runtime 1.265.0). SwarmKit reports the \
folder, which is not a file; here it is reported once per folder, on the `kind:` of its first artifact in path \
order. A file counts as an artifact when it is in an artifact directory of the folder (`topologies/`, `skills/`, \
`archetypes/`, `triggers/`, `schedules/`, `funnels/`, `contracts/`, `roles/`, `adapters/`, or one grouping folder \
below one) and declares `apiVersion: swarmkit/...` and a SwarmKit `kind:`, so other tools' YAML is left alone. The \
folder's other files are not checked until the manifest exists, as SwarmKit checks nothing past this. Create \
`workspace.yaml` in that folder, declaring `apiVersion: swarmkit/v1` and `kind: Workspace` with a `metadata.id`.",
}];

pub fn check(lookup: &Lookup<'_>, file: FileId, stray: &StrayArtifact, out: &mut Vec<Diagnostic>) {
    let artifacts = lookup.get(Key::StrayArtifacts {
        root: stray.root.clone(),
    });
    // In path order: the first one speaks for the folder.
    if artifacts.first().map(|entry| entry.id) != Some(file) {
        return;
    }
    let others = artifacts.len() - 1;
    let folder = stray.root.display();
    let mut message = format!(
        "SwarmKit cannot load `{folder}` as a workspace: it has no workspace.yaml, yet this file is a SwarmKit {} in its `{}/` directory",
        stray.kind.kind_field(),
        stray.directory
    );
    if others > 0 {
        message.push_str(&format!(
            " (and {others} other artifact{} in the folder)",
            if others == 1 { "" } else { "s" }
        ));
    }
    message.push_str(&format!(
        "; create `{folder}/workspace.yaml` declaring `apiVersion: swarmkit/v1` and `kind: Workspace`"
    ));
    out.push(Diagnostic::new(
        codes::WORKSPACE_MISSING_WORKSPACE_YAML,
        file,
        stray.kind_range,
        message,
    ));
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::codes;
    use crate::index::{Change, Index};
    use std::path::PathBuf;

    const TOPOLOGY: &str = "apiVersion: swarmkit/v1\nkind: Topology\nmetadata:\n  name: hello\nagents:\n  root:\n    id: root\n    role: root\n    skills: [nope]\n";
    const SKILL: &str = "apiVersion: swarmkit/v1\nkind: Skill\nmetadata:\n  id: say-hello\n";

    fn set(path: &str, text: &str) -> Change {
        Change::Set {
            path: PathBuf::from(path),
            text: text.into(),
        }
    }

    fn reported(index: &Index) -> Vec<(String, String)> {
        let mut files: Vec<_> = index.files().map(|f| (f.path.clone(), f.id)).collect();
        files.sort();
        files
            .into_iter()
            .flat_map(|(path, id)| {
                index
                    .diagnostics(id)
                    .into_iter()
                    .map(move |d| (path.display().to_string(), d.code.name().to_owned()))
            })
            .collect()
    }

    #[test]
    fn once_per_folder_on_its_first_artifact_and_gone_once_the_manifest_exists() {
        let mut index = Index::new(&crate::rules::CHECKS);
        index.apply(vec![
            set("/r/topologies/hello.yaml", TOPOLOGY),
            set("/r/skills/say-hello.yaml", SKILL),
            set(
                "/r/notes/other.yaml",
                "apiVersion: swarmkit/v1\nkind: Skill\n",
            ),
            set("/elsewhere/skills/a.yaml", SKILL),
        ]);
        let found = reported(&index);
        assert_eq!(
            found,
            vec![
                (
                    "/elsewhere/skills/a.yaml".to_owned(),
                    codes::WORKSPACE_MISSING_WORKSPACE_YAML.name().to_owned()
                ),
                (
                    "/r/skills/say-hello.yaml".to_owned(),
                    codes::WORKSPACE_MISSING_WORKSPACE_YAML.name().to_owned()
                ),
            ]
        );
        let skill = index
            .file_id(std::path::Path::new("/r/skills/say-hello.yaml"))
            .unwrap();
        let d = &index.diagnostics(skill)[0];
        let entry = index.file(skill).unwrap();
        assert_eq!(
            &entry.text[d.range.start as usize..d.range.end as usize],
            "Skill"
        );
        assert!(
            d.message.contains("(and 1 other artifact in the folder)"),
            "{}",
            d.message
        );
        // The first file going, the next one speaks for the folder.
        index.apply(vec![Change::Remove {
            path: PathBuf::from("/r/skills/say-hello.yaml"),
        }]);
        assert!(reported(&index).contains(&(
            "/r/topologies/hello.yaml".to_owned(),
            codes::WORKSPACE_MISSING_WORKSPACE_YAML.name().to_owned()
        )));
        // With a manifest the folder is a workspace: its files are checked, this is gone.
        index.apply(vec![set(
            "/r/workspace.yaml",
            "apiVersion: swarmkit/v1\nkind: Workspace\nmetadata:\n  id: r\n  name: r\n",
        )]);
        let found = reported(&index);
        assert!(
            !found
                .iter()
                .any(|(p, c)| p.starts_with("/r/") && *c == codes::WORKSPACE_MISSING_WORKSPACE_YAML),
            "{found:?}"
        );
        assert!(found.contains(&(
            "/r/topologies/hello.yaml".to_owned(),
            codes::AGENT_UNKNOWN_SKILL.name().to_owned()
        )));
    }

    #[test]
    fn a_workspace_and_yaml_of_other_tools_are_silent() {
        let mut index = Index::new(&crate::rules::CHECKS);
        index.apply(vec![
            set(
                "/w/workspace.yaml",
                "apiVersion: swarmkit/v1\nkind: Workspace\nmetadata:\n  id: w\n  name: w\n",
            ),
            set("/w/skills/say-hello.yaml", SKILL),
            set(
                "/k/triggers/t.yaml",
                "apiVersion: triggers.tekton.dev/v1beta1\nkind: Trigger\n",
            ),
            set("/k/.github/workflows/ci.yaml", "on: push\n"),
        ]);
        let found = reported(&index);
        assert!(
            !found
                .iter()
                .any(|(_, c)| *c == codes::WORKSPACE_MISSING_WORKSPACE_YAML),
            "{found:?}"
        );
    }
}
