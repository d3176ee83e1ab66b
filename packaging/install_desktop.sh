#!/usr/bin/env bash
# Install the desktop entry, the .hadj MIME type and the icons for the current user
# (~/.local/share), so that project files open with hieradjudicate from a file manager.
# Run after `pipx install hieradjudicate` (or with the bundle's folder on PATH).
set -euo pipefail
res=$(python3 - <<'PY' 2>/dev/null || true
from hieradjudicate.paths import resources_root
print(resources_root())
PY
)
[ -n "$res" ] || res="$(cd "$(dirname "$0")/.." && pwd)/resources"
share="${XDG_DATA_HOME:-$HOME/.local/share}"
install -Dm644 "$res/desktop/io.github.hieradjudicate.desktop" "$share/applications/io.github.hieradjudicate.desktop"
install -Dm644 "$res/desktop/io.github.hieradjudicate.metainfo.xml" "$share/metainfo/io.github.hieradjudicate.metainfo.xml"
install -Dm644 "$res/desktop/hieradjudicate-mime.xml" "$share/mime/packages/hieradjudicate-mime.xml"
for d in "$res"/icons/hicolor/*/apps; do
  size=$(basename "$(dirname "$d")")
  for f in "$d"/*; do install -Dm644 "$f" "$share/icons/hicolor/$size/apps/$(basename "$f")"; done
done
command -v update-mime-database >/dev/null && update-mime-database "$share/mime" || true
command -v update-desktop-database >/dev/null && update-desktop-database "$share/applications" || true
command -v xdg-mime >/dev/null && xdg-mime default io.github.hieradjudicate.desktop application/x-hieradjudicate-project || true
echo "installed the desktop entry, MIME type and icons under $share"
