#!/usr/bin/env bash
# Builds, tests and packages the VS Code extension; exits non-zero on the first failure.
# Needs Node.js 20+ and npm, and the npm registry (nothing else is downloaded).
set -euo pipefail
cd "$(dirname "$0")"

npm ci --no-audit --no-fund
npm run compile
node --test out/test/*.test.js
npm run package

# vsce only warns about some omissions; make sure the package holds what VS Code will load.
listing="$(npx --no vsce ls)"
for required in out/extension.js node_modules/vscode-languageclient/package.json images/icon.png LICENSE; do
  if ! grep -qxF "$required" <<<"$listing"; then
    echo "ci.sh: $required is missing from the package" >&2
    exit 1
  fi
done
if grep -q '^out/test/' <<<"$listing"; then
  echo "ci.sh: unit tests leaked into the package" >&2
  exit 1
fi
echo "ci.sh: packaged $(pwd)/skillgraph.vsix"
