"""Tests of the CI integrations: the pre-commit hook and the GitHub Action.

Run by .ci/run with a virtualenv that has pre-commit (and so PyYAML), and with `skillgraph` on
PATH, from the wheel:

    python .ci/test_integrations.py

The Action's shell steps run for real here (install from this checkout, then check); only the
upload to code scanning, which needs GitHub, is checked for shape alone. The pre-commit hook runs
for real from a project whose .pre-commit-config.yaml pins this repository's HEAD (so HEAD must
hold what is tested: CI runs on a clean clone).
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parent.parent
DEMO = REPO / "examples" / "demo"
CLEAN_MANIFEST = "apiVersion: swarmkit/v1\nkind: Workspace\nmetadata:\n  id: ws\n  name: Ws\n"


def load(name):
    with open(REPO / name, encoding="utf-8") as file:
        return yaml.safe_load(file)


def vscode_artifact_dirs():
    """The SwarmKit artifact directories the VS Code extension's selector names."""
    source = (REPO / "editors/vscode/src/selectors.ts").read_text(encoding="utf-8")
    block = re.search(r"SWARMKIT_ARTIFACT_DIRS = \[(.*?)\]", source, re.S).group(1)
    return re.findall(r"'([a-z]+)'", block)


class PreCommitHook(unittest.TestCase):
    def setUp(self):
        hooks = load(".pre-commit-hooks.yaml")
        self.assertEqual([hook["id"] for hook in hooks], ["skillgraph"])
        self.hook = hooks[0]

    def test_installs_itself_and_passes_the_staged_files(self):
        self.assertEqual(self.hook["language"], "python")
        self.assertTrue(self.hook["pass_filenames"])
        self.assertEqual(self.hook["entry"], "skillgraph check")
        # The hook's package is this repository's pyproject.
        pyproject = (REPO / "pyproject.toml").read_text(encoding="utf-8")
        self.assertIn('bindings = "bin"', pyproject)

    def test_files_are_those_skillgraph_reads(self):
        files = re.compile(self.hook["files"])
        for path in [
            "SKILL.md",
            "agent-skills/report/SKILL.md",
            "skillgraph.toml",
            "ws/workspace.yaml",
            "workspace.yml",
            "ws/skills/fetch.yaml",
            "ws/skills/legacy/old.yml",
            "topologies/estate.yaml",
        ] + [f"ws/{d}/x.yaml" for d in vscode_artifact_dirs()]:
            self.assertTrue(files.search(path), path)
        for path in [
            "README.md",
            ".github/workflows/ci.yml",
            "skills.yaml",
            "myskills/x.yaml",
            "ws/skills/notes.md",
            "SKILL.md.orig",
            "config/skillgraph.toml.bak",
        ]:
            self.assertFalse(files.search(path), path)

    def test_manifest_is_valid_for_pre_commit(self):
        subprocess.run(
            ["pre-commit", "validate-manifest", str(REPO / ".pre-commit-hooks.yaml")],
            check=True,
        )

    def test_runs_for_real_from_a_project_config(self):
        """A project that lists this repository in its .pre-commit-config.yaml, as a user's does:
        pre-commit clones the repository at the pinned commit, installs the hook into its own
        virtualenv and runs it on the files given."""
        head = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=REPO, check=True, capture_output=True, text=True
        ).stdout.strip()
        with tempfile.TemporaryDirectory() as tmp:
            tmp = Path(tmp)
            project = tmp / "project"
            shutil.copytree(DEMO / "build-conventions", project / "ws")
            (project / "clean").mkdir()
            (project / "clean" / "workspace.yaml").write_text(CLEAN_MANIFEST)
            (project / "notes.txt").write_text("not a SwarmKit file\n")
            config = {"repos": [{"repo": str(REPO), "rev": head, "hooks": [{"id": "skillgraph"}]}]}
            (project / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config))
            git(project, "init", "-q")
            git(project, "add", ".")
            env = dict(os.environ, PRE_COMMIT_HOME=str(tmp / "cache"))
            # Reuse this checkout's compiled dependencies instead of compiling them again.
            env.setdefault("CARGO_TARGET_DIR", str(REPO / "target"))

            def run(*files):
                return subprocess.run(
                    ["pre-commit", "run", "skillgraph", "--files", *files],
                    cwd=project,
                    env=env,
                    capture_output=True,
                    text=True,
                )

            clean = run("clean/workspace.yaml")
            self.assertEqual(clean.returncode, 0, clean.stdout + clean.stderr)
            self.assertIn("Passed", clean.stdout)

            broken = run("ws/skills/broken.yaml", "ws/workspace.yaml")
            self.assertEqual(broken.returncode, 1, broken.stdout + broken.stderr)
            self.assertIn("Failed", broken.stdout)
            self.assertIn("broken.yaml", broken.stdout)

            # A file outside the hook's pattern is not handed to skillgraph.
            skipped = run("notes.txt")
            self.assertEqual(skipped.returncode, 0, skipped.stdout + skipped.stderr)
            self.assertIn("no files to check", skipped.stdout)


def git(cwd, *args):
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", *args],
        cwd=cwd,
        check=True,
    )


class GitHubAction(unittest.TestCase):
    def setUp(self):
        self.action = load("action.yml")
        self.steps = self.action["runs"]["steps"]

    def step(self, step_id):
        return next(step for step in self.steps if step.get("id") == step_id)

    def test_shape(self):
        self.assertEqual(self.action["runs"]["using"], "composite")
        for name in ["paths", "format", "version", "deny-warnings", "sarif-file", "upload-sarif"]:
            self.assertIn(name, self.action["inputs"])
        upload = next(s for s in self.steps if "upload-sarif" in s.get("uses", ""))
        self.assertTrue(upload["uses"].startswith("github/codeql-action/upload-sarif@"))
        self.assertIn("inputs.format == 'sarif'", upload["if"])
        for step in self.steps:
            if "run" in step:
                self.assertEqual(step["shell"], "bash")
                # Inputs reach the scripts through the environment only, never pasted into the
                # script, so a path cannot inject shell.
                self.assertNotIn("${{", step["run"])

    def run_step(self, step, env, cwd):
        return subprocess.run(
            # As GitHub runs a `shell: bash` step.
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
            cwd=cwd,
            env=dict(os.environ, **env),
            capture_output=True,
            text=True,
        )

    def test_install_and_check_steps_run(self):
        with tempfile.TemporaryDirectory() as tmp:
            tmp = Path(tmp)
            github_path = tmp / "github_path"
            github_path.touch()
            installed = self.run_step(
                self.step("install"),
                {
                    "INPUT_VERSION": "",
                    "RUNNER_TEMP": str(tmp),
                    "GITHUB_ACTION_PATH": str(REPO),
                    "GITHUB_PATH": str(github_path),
                    "CARGO_TARGET_DIR": os.environ.get("CARGO_TARGET_DIR", str(REPO / "target")),
                },
                cwd=tmp,
            )
            self.assertEqual(installed.returncode, 0, installed.stderr)
            self.assertIn("skillgraph ", installed.stdout)
            bin_dir = github_path.read_text().strip()
            self.assertTrue((Path(bin_dir) / "skillgraph").is_file())
            path = bin_dir + os.pathsep + os.environ["PATH"]

            def check(fmt, paths, deny="false"):
                output = tmp / f"output-{fmt}"
                output.write_text("")
                result = self.run_step(
                    self.step("check"),
                    {
                        "PATH": path,
                        "INPUT_PATHS": paths,
                        "INPUT_FORMAT": fmt,
                        "INPUT_DENY_WARNINGS": deny,
                        "INPUT_SARIF_FILE": str(tmp / "out.sarif"),
                        "GITHUB_OUTPUT": str(output),
                    },
                    cwd=REPO,
                )
                self.assertEqual(result.returncode, 0, result.stderr)
                outputs = dict(
                    line.split("=", 1) for line in output.read_text().splitlines() if line
                )
                return result, outputs

            result, outputs = check("sarif", "examples/demo\n")
            self.assertEqual(outputs["exit-code"], "1")
            log = json.loads((tmp / "out.sarif").read_text())
            self.assertEqual(log["version"], "2.1.0")
            self.assertTrue(log["runs"][0]["results"])

            result, outputs = check("github", "examples/demo/build-conventions examples/demo/agent-skills")
            self.assertEqual(outputs["exit-code"], "1")
            self.assertTrue(result.stdout.startswith("::error "), result.stdout[:200])

            clean = tmp / "clean"
            clean.mkdir()
            (clean / "workspace.yaml").write_text(CLEAN_MANIFEST)
            result, outputs = check("github", str(clean), deny="true")
            self.assertEqual(outputs["exit-code"], "0", result.stdout + result.stderr)

            result, outputs = check("junit", ".")
            self.assertEqual(outputs["exit-code"], "2")


if __name__ == "__main__":
    unittest.main(verbosity=2)
