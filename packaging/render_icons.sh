#!/usr/bin/env bash
# Render the hicolor PNG icons from the scalable SVG (needs rsvg-convert: Debian librsvg2-bin).
# The PNGs are committed; run this only after changing the SVG.
set -euo pipefail
cd "$(dirname "$0")/.."
svg=resources/icons/hicolor/scalable/apps/io.github.hieradjudicate.svg
for n in 16 32 48 64 128 256; do
  out="resources/icons/hicolor/${n}x${n}/apps/io.github.hieradjudicate.png"
  mkdir -p "$(dirname "$out")"
  rsvg-convert -w "$n" -h "$n" "$svg" -o "$out"
  echo "$out"
done
