#!/usr/bin/env bash
# Builds, tests and packages the VS Code extension for this platform, with the server binary
# inside; exits non-zero on the first failure.
#
#   bash editors/vscode/ci.sh [BINARY]      (BINARY: see scripts/package.sh)
#
# Needs Node.js 20+ and npm, and the npm registry (nothing else is downloaded).
set -euo pipefail
# A binary given relative to the caller's directory stays valid after the cd below.
if [ $# -gt 0 ]; then set -- "$(realpath -m -- "$1")"; fi
cd "$(dirname "$0")"

npm ci --no-audit --no-fund
npm run compile
node --test out/test/*.test.js
vsix="$(bash scripts/package.sh "$@")"

# vsce only warns about some omissions; make sure the package holds what VS Code will load.
listing="$(npx --no vsce ls)"
for required in out/extension.js node_modules/vscode-languageclient/package.json images/icon.png LICENSE server/skillgraph; do
  if ! grep -qxF "$required" <<<"$listing"; then
    echo "ci.sh: $required is missing from the package" >&2
    exit 1
  fi
done
if grep -q '^out/test/' <<<"$listing"; then
  echo "ci.sh: unit tests leaked into the package" >&2
  exit 1
fi

# The vsix itself (a zip): the server is there, executable (VS Code keeps the zip's mode bits
# when it installs), and the one built here; the manifest names the platform.
mode="$(unzip -Z "$vsix" extension/server/skillgraph | awk '{print $1}')"
if [[ "$mode" != -rwx* ]]; then
  echo "ci.sh: extension/server/skillgraph in $vsix is not executable ($mode)" >&2
  exit 1
fi
unpacked="$(mktemp -d)"
trap 'rm -rf "$unpacked"' EXIT
unzip -q "$vsix" extension/server/skillgraph extension.vsixmanifest -d "$unpacked"
"$unpacked/extension/server/skillgraph" --version
target="$(node -p 'process.platform + "-" + process.arch')"
if ! grep -q "TargetPlatform=\"$target\"" "$unpacked/extension.vsixmanifest"; then
  echo "ci.sh: $vsix is not marked for $target" >&2
  exit 1
fi
echo "ci.sh: packaged $(pwd)/$vsix ($(du -h "$vsix" | cut -f1)) with an executable server for $target"
