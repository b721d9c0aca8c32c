#!/usr/bin/env bash
# Draws images/icon.png: skills as nodes, ordering rules as edges, one edge in the warning colour.
# Run by hand after changing the design; the PNG is committed so packaging needs no ImageMagick.
# Needs ImageMagick (`apt-get install imagemagick`).
set -euo pipefail
cd "$(dirname "$0")/.."
convert -size 256x256 xc:none \
  -fill '#1e2a3a' -draw 'roundrectangle 8,8 248,248 40,40' \
  -stroke '#7fd1c7' -strokewidth 10 -fill none \
  -draw 'line 78,74 128,128' -draw 'line 178,74 128,128' -draw 'line 128,128 128,190' \
  -stroke '#f2a541' -draw 'line 78,74 178,74' \
  -stroke none -fill '#7fd1c7' \
  -draw 'circle 78,74 78,98' -draw 'circle 178,74 178,98' -draw 'circle 128,190 128,214' \
  -fill '#ffffff' -draw 'circle 128,128 128,154' \
  -fill '#1e2a3a' -draw 'circle 128,128 128,140' \
  -depth 8 images/icon.png
