#!/usr/bin/env bash
# Install hieradjudicate's desktop entry, AppStream metainfo, .hadj MIME type and icons for the
# current user (under ${XDG_DATA_HOME:-~/.local/share}), so that the program appears in the
# application menu and project files open with it from a file manager.
#
#   packaging/install_desktop.sh            # after `pipx install ...` (hieradjudicate on PATH)
#   hieradjudicate/install_desktop.sh       # from the unpacked bundle folder (Exec= points at it)
#   install_desktop.sh --uninstall          # remove what it installed
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
share="${XDG_DATA_HOME:-$HOME/.local/share}"
id=io.github.hieradjudicate
mime=application/x-hieradjudicate-project

refresh() {
  if command -v update-mime-database >/dev/null; then update-mime-database "$share/mime" || true; fi
  if command -v update-desktop-database >/dev/null; then update-desktop-database -q "$share/applications" || true; fi
  if command -v gtk-update-icon-cache >/dev/null; then gtk-update-icon-cache -q -t "$share/icons/hicolor" 2>/dev/null || true; fi
}

if [ "${1:-}" = "--uninstall" ]; then
  rm -f "$share/applications/$id.desktop" "$share/metainfo/$id.metainfo.xml" \
        "$share/mime/packages/hieradjudicate-mime.xml" "$share"/icons/hicolor/*/apps/$id.{png,svg}
  refresh
  echo "removed the desktop entry, MIME type and icons from $share"
  exit 0
fi

# Where the resources (desktop/, icons/) and the program are:
#   bundle folder: ./hieradjudicate and ./_internal/hieradjudicate/_resources
#   checkout:      ../resources (this script is packaging/install_desktop.sh)
#   pipx/pip:      ask the installed program's own Python
exec_cmd=hieradjudicate
if [ -x "$here/hieradjudicate" ] && [ -d "$here/_internal/hieradjudicate/_resources" ]; then
  res="$here/_internal/hieradjudicate/_resources"
  exec_cmd="$here/hieradjudicate"
elif [ -d "$here/../resources/desktop" ]; then
  res=$(cd "$here/../resources" && pwd)
else
  res=""
fi
if command -v hieradjudicate >/dev/null && [ "$exec_cmd" = hieradjudicate ]; then
  prog=$(command -v hieradjudicate)
  py=$(head -1 "$prog" | sed -n 's/^#! *//p' | cut -d' ' -f1)
  if [ -n "$py" ] && [ -x "$py" ]; then
    found=$("$py" -I -c 'from hieradjudicate.resources import resources_root; print(resources_root())' 2>/dev/null || true)
    [ -n "$found" ] && res="$found"
  fi
elif [ "$exec_cmd" = hieradjudicate ]; then
  echo "install_desktop.sh: warning: 'hieradjudicate' is not on PATH; the menu entry will not start until it is" >&2
fi
[ -n "$res" ] && [ -f "$res/desktop/$id.desktop" ] \
  || { echo "install_desktop.sh: cannot find the program's desktop files (resources/desktop)" >&2; exit 1; }

mkdir -p "$share/applications" "$share/metainfo" "$share/mime/packages"
# Exec= must name a program the desktop can start: the bundle's absolute path when run from it.
quoted=$(printf '%s' "$exec_cmd" | sed 's/[\\"`$]/\\&/g')
case "$exec_cmd" in *[[:space:]]*) quoted="\"$quoted\"" ;; esac
sed "s|^Exec=hieradjudicate |Exec=$quoted |" "$res/desktop/$id.desktop" > "$share/applications/$id.desktop"
chmod 644 "$share/applications/$id.desktop"
install -m644 "$res/desktop/$id.metainfo.xml" "$share/metainfo/$id.metainfo.xml"
install -m644 "$res/desktop/hieradjudicate-mime.xml" "$share/mime/packages/hieradjudicate-mime.xml"
for f in "$res"/icons/hicolor/*/apps/$id.*; do
  size=$(basename "$(dirname "$(dirname "$f")")")
  install -Dm644 "$f" "$share/icons/hicolor/$size/apps/$(basename "$f")"
done
refresh
if command -v xdg-mime >/dev/null; then xdg-mime default "$id.desktop" "$mime" 2>/dev/null || true; fi
echo "installed the desktop entry (Exec=$exec_cmd), MIME type $mime (*.hadj) and icons from $res under $share"
