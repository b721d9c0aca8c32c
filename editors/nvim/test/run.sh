#!/usr/bin/env bash
# Headless Neovim test of editors/nvim/lsp/skillgraph.lua against a skillgraph binary.
#
#   editors/nvim/test/run.sh path/to/skillgraph
#
# Needs `nvim` (0.7.2, Debian's, or newer) on PATH. Prints one PASS/FAIL line per check and a
# closing "nvim: N passed, M failed"; exits non-zero on any failure.
set -euo pipefail

if [[ $# -ne 1 ]]; then
  echo "usage: $0 path/to/skillgraph" >&2
  exit 2
fi
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bin="$(realpath "$1")"
if [[ ! -x "$bin" ]]; then
  echo "$0: $bin is not an executable skillgraph binary" >&2
  exit 2
fi
command -v nvim >/dev/null || { echo "$0: nvim not found (apt-get install -y neovim)" >&2; exit 2; }

# A throwaway home for Neovim, so the test neither reads the user's config nor leaves its LSP log,
# shada or swap files behind.
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
export XDG_CONFIG_HOME="$scratch/config" XDG_DATA_HOME="$scratch/data" \
  XDG_STATE_HOME="$scratch/state" XDG_CACHE_HOME="$scratch/cache"

# `timeout` guards against a server that never answers shutdown; the Lua side bounds each wait.
# The script's path goes through the environment so that no quoting of it reaches Vim's parser.
SKILLGRAPH_BIN="$bin" SKILLGRAPH_NVIM_TEST="$here/lsp_test.lua" timeout 120 \
  nvim --headless --noplugin -u NONE -i NONE -n -c 'lua dofile(os.getenv("SKILLGRAPH_NVIM_TEST"))' </dev/null
