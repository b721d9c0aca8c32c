#!/usr/bin/env bash
# Packages the extension for the platform it runs on, with the server binary inside:
# server/skillgraph (skillgraph.exe on Windows) and `vsce package --target <platform>-<arch>`
# (VSCE_TARGET names another target, e.g. alpine-x64, for a binary built for it).
#
#   bash scripts/package.sh [BINARY]
#
# BINARY defaults to $SKILLGRAPH_SERVER, else the workspace's target/release/skillgraph, which is
# built first when missing. Writes skillgraph-<target>.vsix and prints its path.
set -euo pipefail
cd "$(dirname "$0")/.."

target="${VSCE_TARGET:-$(node -p 'process.platform + "-" + process.arch')}"
exe=""
if [ "${target%%-*}" = "win32" ]; then exe=".exe"; fi

binary="${1:-${SKILLGRAPH_SERVER:-../../target/release/skillgraph$exe}}"
if [ ! -x "$binary" ]; then
  if [ -n "${1:-${SKILLGRAPH_SERVER:-}}" ]; then
    echo "package.sh: $binary is not an executable" >&2
    exit 1
  fi
  echo "package.sh: building the server (cargo build --release -p skillgraph)" >&2
  cargo build --release -p skillgraph --manifest-path ../../Cargo.toml
fi

rm -rf server
mkdir server
cp "$binary" "server/skillgraph$exe"
chmod 755 "server/skillgraph$exe"
# The release profile keeps line tables for backtraces; the packaged copy does not need them.
if [ -z "$exe" ] && command -v strip >/dev/null; then
  strip "server/skillgraph$exe"
fi
# The binary must be the one that answers, not a stale copy of another build.
"./server/skillgraph$exe" --version >&2

out="skillgraph-$target.vsix"
npx --no vsce package --target "$target" --out "$out" >&2
echo "$out"
