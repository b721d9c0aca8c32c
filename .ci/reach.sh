#!/usr/bin/env bash
# Where skillgraph reaches its users: the MCP server tested by a real MCP client, the editor
# integrations' manifests, the release workflows and their artefacts. Called by .ci/run with the
# release binary. Every step must pass; none is skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
binary="$(realpath "${1:?usage: .ci/reach.sh path/to/skillgraph}")"
started=$SECONDS
step() { echo; echo "== reach: $1 ($((SECONDS - started)) s)"; }
venv="$(mktemp -d)"
trap 'rm -rf "$venv"' EXIT
python3 -m venv "$venv"
pip() { "$venv/bin/pip" install --quiet --disable-pip-version-check "$@"; }

step "MCP: skillgraph mcp driven by the Python SDK's stdio client (mcp on PyPI)"
pip "mcp==2.3.0"
"$venv/bin/python" .ci/test_mcp.py "$binary"
