"""Fails when the workspace's rust-version is not the highest rust-version among the locked
dependencies (`cargo metadata`), so the declared minimum is the one that actually builds."""

import json
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def version(text):
    """`1.88` and `1.88.0` are the same version."""
    parts = [int(part) for part in text.split(".")]
    return tuple(parts + [0] * (3 - len(parts)))


metadata = json.loads(
    subprocess.run(
        ["cargo", "metadata", "--format-version", "1", "--locked"],
        cwd=REPO,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
)
members = set(metadata["workspace_members"])
needed = max(
    (version(p["rust_version"]), p["name"])
    for p in metadata["packages"]
    if p.get("rust_version") and p["id"] not in members
)
manifest = (REPO / "Cargo.toml").read_text(encoding="utf-8")
declared = re.search(r'^rust-version = "([0-9.]+)"', manifest, re.M).group(1)
print(f"declared {declared}; the dependencies need {'.'.join(map(str, needed[0]))} ({needed[1]})")
if version(declared) != needed[0]:
    sys.exit("Cargo.toml's rust-version must be the highest rust-version among the dependencies")
