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

step "Zed: the extension built to WebAssembly (wasm32-wasip2, the target zed_extension_api 0.7 requires; about 4 min fresh)"
if ! rustup target add wasm32-wasip2; then
  echo "reach: FAILED: the Rust target wasm32-wasip2 cannot be installed on this machine (rustup target add wasm32-wasip2 failed above), so the Zed extension cannot be built. Not skipping it." >&2
  exit 1
fi
# Its own workspace (editors/zed/Cargo.toml), built into a target directory of its own.
(cd editors/zed && CARGO_TARGET_DIR="$venv/zed-target" cargo build --release --locked --target wasm32-wasip2)
ls -l "$venv/zed-target/wasm32-wasip2/release/skillgraph_zed.wasm"
