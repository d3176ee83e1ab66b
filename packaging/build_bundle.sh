#!/usr/bin/env bash
# Build the one-folder bundle dist/bundle/hieradjudicate/ (PyInstaller, packaging/hieradjudicate.spec)
# and check it:
#   * the bundled CLI prints its version and validates the bundled demo;
#   * the bundled GUI renders the demo window to a PNG under a virtual X server (xvfb-run), and the
#     PNG is 1280x800 and not blank.
# Prints the bundle's size and the build time.  Needs xvfb-run (Debian xvfb, xauth).
#
# Runs with the development environment's Python: $PYTHON if set, else the active virtual
# environment's python3, else the checkout's .venv.  Without one it says what it needs (no traceback).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -n "${PYTHON:-}" ]; then PY=$PYTHON
elif [ -z "${VIRTUAL_ENV:-}" ] && [ -x .venv/bin/python ]; then PY=.venv/bin/python
else PY=python3; fi
setup="python3 -m venv .venv && . .venv/bin/activate && python -m pip install -e '.[test]'"
if ! missing=$("$PY" - 2>/dev/null <<'PY'
import importlib.util
need = ("numpy", "pandas", "PySide6", "pyqtgraph", "cassis", "hieradjudicate")
print(" ".join(m for m in need if importlib.util.find_spec(m) is None))
PY
); then
  echo "build_bundle.sh: cannot run Python as '$PY'; set PYTHON to the development environment's python" >&2
  exit 1
fi
if [ -n "$missing" ]; then
  echo "build_bundle.sh: needs the development environment: $PY lacks $missing." >&2
  echo "  Create it once from the checkout:  $setup" >&2
  echo "  then run packaging/build_bundle.sh again (it uses .venv, or PYTHON=/path/to/python)." >&2
  exit 1
fi
if ! "$PY" -m PyInstaller --version >/dev/null 2>&1; then
  if "$PY" -c 'import sys; sys.exit(sys.prefix == sys.base_prefix)'; then  # a virtual environment
    "$PY" -m pip install -q pyinstaller
  else
    echo "build_bundle.sh: needs PyInstaller in the development environment ($PY is not a virtual" \
         "environment, so nothing is installed into it): $setup && python -m pip install pyinstaller" >&2
    exit 1
  fi
fi
command -v xvfb-run >/dev/null || { echo "build_bundle.sh: xvfb-run is missing (apt-get install xvfb xauth)" >&2; exit 1; }

start=$(date +%s.%N)
"$PY" -m PyInstaller --noconfirm --clean --log-level WARN \
  --distpath dist/bundle --workpath build/pyinstaller packaging/hieradjudicate.spec
built=$("$PY" -c "print(f'{$(date +%s.%N) - $start:.1f}')")
app=dist/bundle/hieradjudicate
exe="$app/hieradjudicate"
demo="$app/_internal/hieradjudicate/_resources/demo"
install -m755 packaging/install_desktop.sh "$app/install_desktop.sh"
[ -x "$exe" ] || { echo "FAILED: $exe was not built" >&2; exit 1; }
[ -f "$demo/inventory.txt" ] || { echo "FAILED: the demo is not in the bundle ($demo)" >&2; exit 1; }

# A clean, throw-away home for the checks: no settings, recent files or demo copy of the user's.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_DATA_HOME="$tmp/data" XDG_CONFIG_HOME="$tmp/config" XDG_STATE_HOME="$tmp/state" XDG_CACHE_HOME="$tmp/cache"
unset QT_QPA_PLATFORM PYTHONPATH

echo "== bundled CLI"
version=$("$exe" --version)
expected="hieradjudicate $("$PY" -c 'import runpy; print(runpy.run_path("hieradjudicate/__init__.py")["__version__"])')"
[ "$version" = "$expected" ] || { echo "FAILED: --version printed '$version', expected '$expected'" >&2; exit 1; }
echo "$version"
(cd "$tmp" && "$OLDPWD/$exe" validate --inventory "$OLDPWD/$demo/inventory.txt" \
  --annotations "ann=$OLDPWD/$demo/annotator_ann.key" --annotations "ben=$OLDPWD/$demo/annotator_ben.key" \
  --annotations "cho=$OLDPWD/$demo/annotator_cho.key" \
  --annotations "lesk=$OLDPWD/$demo/system_lesk.ans:system" --annotations "neural=$OLDPWD/$demo/system_neural.ans:system" \
  --contexts "$OLDPWD/$demo/contexts.tsv") > "$tmp/validate.txt" \
  || { cat "$tmp/validate.txt"; echo "FAILED: the bundled CLI's validate on the bundled demo" >&2; exit 1; }
tail -2 "$tmp/validate.txt"

echo "== bundled GUI under a virtual X server"
shot="$tmp/demo.png"
if ! timeout 300 xvfb-run -a -s "-screen 0 1280x1024x24" "$exe" demo --screenshot "$shot" > "$tmp/gui.log" 2>&1; then
  cat "$tmp/gui.log"; echo "FAILED: the bundled GUI's demo --screenshot" >&2; exit 1
fi
"$PY" - "$shot" <<'PY'
import sys
from PySide6.QtGui import QImage
img = QImage(sys.argv[1])
assert not img.isNull(), "the screenshot is not a readable image"
w, h = img.width(), img.height()
assert (w, h) == (1280, 800), f"the screenshot is {w}x{h}, expected 1280x800"
colours = {img.pixel(x, y) for y in range(0, h, 8) for x in range(0, w, 8)}
assert len(colours) >= 16, f"the screenshot looks blank ({len(colours)} distinct colours)"
print(f"screenshot ok: {w}x{h}, {len(colours)} distinct colours (sampled every 8 pixels)")
PY

cp "$shot" dist/bundle/check-screenshot.png
size_h=$(du -sh "$app" | cut -f1)
size_mb=$(du -sm "$app" | cut -f1)
files=$(find "$app" -type f | wc -l)
echo "screenshot kept as dist/bundle/check-screenshot.png"
echo "bundle: $app  size $size_h (${size_mb} MiB, $files files)  build time ${built} s"
