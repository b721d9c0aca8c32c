//! Command packs that cannot run on this machine: a required binary not on `PATH`, or at a
//! version its constraint refuses. `swarmkit run` checks this when it loads the workspace and
//! refuses to start (`UnrunnableCommandPackError`); `swarmkit validate` does not. The facts about
//! the machine come from the edge as data (`Lookup::executable`).

use super::rule_doc::RuleDoc;
use crate::diagnostic::{codes, Diagnostic, FileId};
use crate::index::Lookup;
use crate::model::machine::{constraint_has_no_number, satisfies, Executable, VersionProbe};
use crate::model::swarmkit::Workspace;

pub const RULES: &[RuleDoc] = &[
    RuleDoc {
        code: codes::COMMAND_PACK_MISSING_BINARY,
        summary: "A command pack requires a binary that is not on `PATH` here: `swarmkit run` refuses to start.",
        explanation: "`swarmkit run` looks up every `command_packs[].requires[].binary` on `PATH` when it loads \
the workspace and refuses to start when one is missing (`check_requirements` in `commands/_config.py`, raising \
`UnrunnableCommandPackError` from `WorkspaceRuntime.from_workspace_path` in `_workspace_runtime.py`; \
swarmkit-runtime 1.265.0). `swarmkit validate` does not check it, so SwarmKit has no code for it. The core does \
no I/O: `skillgraph check` looks each binary up on its own `PATH` (a name with a `/` is taken as a path, as \
Python's `shutil.which` takes it) and hands the answers in as data; the language server looks nothing up and \
says nothing. The answer is about the machine that runs the check: install the binary, put it on `PATH`, or \
turn the code off (`[rules]`) where the workspace is only checked, not run.",
    },
    RuleDoc {
        code: codes::COMMAND_PACK_BINARY_VERSION,
        summary: "A command pack's binary is at a version its constraint refuses: `swarmkit run` refuses to start.",
        explanation: "A `requires[].version` constraint (`>=1.7`, `<2`, `==1.2.3`; a bare `1.7` means `>=`) is \
compared with the first `N.N[.N]` in the output of `<binary> --version`, missing parts counting as 0; an output \
with no version, and a constraint with no number, fail too (`_probe_version` and `_satisfies` in \
`commands/_config.py`, swarmkit-runtime 1.265.0), and `swarmkit run` refuses to start. Running a program is more \
than a linter should do unasked, so `skillgraph check` runs `<binary> --version` only with `--probe-versions`, \
only for a bare name found on `PATH` (never a path, which could be a file of the checked repository), with the \
runtime's 10-second timeout; without it, only a constraint with no number is reported. Install a version that \
meets the constraint, or correct the constraint.",
    },
];

pub fn check_manifest(
    lookup: &Lookup<'_>,
    file: FileId,
    manifest: &Workspace,
    out: &mut Vec<Diagnostic>,
) {
    for pack in &manifest.command_packs {
        for requirement in &pack.requires {
            let binary = &requirement.binary;
            let refused = "`swarmkit run` will refuse to start this workspace";
            match lookup.executable(&binary.value) {
                None => {}
                Some(Executable::Missing) => {
                    out.push(Diagnostic::new(
                        codes::COMMAND_PACK_MISSING_BINARY,
                        file,
                        binary.range,
                        format!(
                            "{refused} here: command pack `{}` requires `{}`, which is not on PATH; install it or put it on PATH",
                            pack.id.value, binary.value
                        ),
                    ));
                    // The runtime stops at the missing binary: its version is not asked.
                    continue;
                }
                Some(Executable::Found(_)) => {}
            }
            let Some(constraint) = &requirement.version else {
                continue;
            };
            if constraint_has_no_number(&constraint.value) {
                // No version meets it, wherever the workspace runs.
                out.push(Diagnostic::new(
                    codes::COMMAND_PACK_BINARY_VERSION,
                    file,
                    constraint.range,
                    format!(
                        "{refused} wherever `{}` is installed: the constraint `{}` holds no version number, so no version of it meets it; write one such as `>=1.2`",
                        binary.value, constraint.value
                    ),
                ));
                continue;
            }
            let message = match lookup.executable(&binary.value) {
                Some(Executable::Found(VersionProbe::Unreadable)) => format!(
                    "{refused} here: `{} --version` printed no version to check against `{}`; install a build that reports one, or drop the constraint",
                    binary.value, constraint.value
                ),
                Some(Executable::Found(VersionProbe::Read(found)))
                    if !satisfies(found, &constraint.value) =>
                {
                    let found: Vec<String> = found.iter().map(u64::to_string).collect();
                    format!(
                        "{refused} here: command pack `{}` requires {} {}, found {}; install a version that meets it, or correct the constraint",
                        pack.id.value,
                        binary.value,
                        constraint.value,
                        found.join(".")
                    )
                }
                _ => continue,
            };
            out.push(Diagnostic::new(
                codes::COMMAND_PACK_BINARY_VERSION,
                file,
                constraint.range,
                message,
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::{codes, Code};
    use crate::index::{Change, Index, Settings};
    use crate::model::machine::{Executable, VersionProbe};
    use std::collections::BTreeMap;
    use std::path::{Path, PathBuf};
    use std::sync::Arc;

    const MANIFEST: &str = "apiVersion: swarmkit/v1\nkind: Workspace\nmetadata:\n  id: w\n  name: w\ncommand_packs:\n  - id: git\n    commands:\n      - id: status\n        argv: [git, status]\n        effects: read\n    requires:\n      - binary: git\n        version: \">=2.40\"\n      - binary: jq\n  - id: k8s\n    commands:\n      - id: pods\n        argv: [kubectl, get, pods]\n    requires:\n      - binary: kubectl\n        version: latest\n";

    fn reported(facts: &[(&str, Executable)]) -> Vec<(String, String)> {
        reported_in(MANIFEST, facts)
    }

    fn reported_in(manifest: &str, facts: &[(&str, Executable)]) -> Vec<(String, String)> {
        let mut index = Index::new(&crate::rules::CHECKS);
        index.apply(vec![Change::Set {
            path: PathBuf::from("/w/workspace.yaml"),
            text: manifest.into(),
        }]);
        let executables: BTreeMap<String, Executable> = facts
            .iter()
            .map(|(name, fact)| ((*name).to_owned(), fact.clone()))
            .collect();
        index.set_settings(Settings {
            executables: Arc::new(executables),
            ..index.settings.clone()
        });
        let id = index.file_id(Path::new("/w/workspace.yaml")).unwrap();
        let text = index.file(id).unwrap().text.clone();
        index
            .diagnostics(id)
            .into_iter()
            .filter(|d| d.code.name().starts_with("command-pack."))
            .map(|d| {
                (
                    d.code.name().to_owned(),
                    text[d.range.start as usize..d.range.end as usize].to_owned(),
                )
            })
            .collect()
    }

    /// The pairs `reported` returns, from codes and the text they are on.
    fn expected(pairs: &[(Code, &str)]) -> Vec<(String, String)> {
        let pair = |(code, on): &(Code, &str)| (code.name().to_owned(), (*on).to_owned());
        pairs.iter().map(pair).collect()
    }

    #[test]
    fn what_the_machine_lacks_is_reported_where_it_is_required() {
        let version = codes::COMMAND_PACK_BINARY_VERSION;
        let missing = codes::COMMAND_PACK_MISSING_BINARY;
        let found = reported(&[
            ("git", Executable::Found(VersionProbe::Read(vec![2, 39, 1]))),
            ("jq", Executable::Missing),
            ("kubectl", Executable::Found(VersionProbe::NotAsked)),
        ]);
        let lacking = [
            (version, "\">=2.40\""),
            (missing, "jq"),
            (version, "latest"),
        ];
        assert_eq!(found, expected(&lacking));
        let unreadable = reported(&[
            ("git", Executable::Found(VersionProbe::Unreadable)),
            ("kubectl", Executable::Missing),
        ]);
        let lacking = [(version, "\">=2.40\""), (missing, "kubectl")];
        assert_eq!(unreadable, expected(&lacking));
    }

    #[test]
    fn silent_when_the_machine_has_them_or_nothing_was_found_out() {
        // A constraint without a number fails wherever it runs; nothing else is said unasked.
        let version = codes::COMMAND_PACK_BINARY_VERSION;
        assert_eq!(reported(&[]), expected(&[(version, "latest")]));
        let manifest = MANIFEST.replace("version: latest", "version: \">=1.20\"");
        assert_eq!(reported_in(&manifest, &[]), vec![]);
        assert_eq!(
            reported_in(
                &manifest,
                &[
                    (
                        "kubectl",
                        Executable::Found(VersionProbe::Read(vec![1, 31]))
                    ),
                    ("git", Executable::Found(VersionProbe::Read(vec![2, 43]))),
                    ("jq", Executable::Found(VersionProbe::NotAsked)),
                ]
            ),
            vec![]
        );
    }
}
