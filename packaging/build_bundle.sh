#!/usr/bin/env bash
# Build the one-folder bundle (dist/bundle/hieradjudicate/) with PyInstaller and check it:
# the bundled CLI validates the bundled demo, and the bundled GUI renders the demo window to a PNG
# under a virtual X server.  Prints the bundle's size and the build time.
set -euo pipefail
cd "$(dirname "$0")/.."
python -m pip show pyinstaller >/dev/null 2>&1 || python -m pip install -q pyinstaller
start=$(date +%s)
python -m PyInstaller --noconfirm --clean --log-level WARN \
  --distpath dist/bundle --workpath build/pyinstaller packaging/hieradjudicate.spec
built=$(( $(date +%s) - start ))
app=dist/bundle/hieradjudicate
exe="$app/hieradjudicate"
demo="$app/_internal/hieradjudicate/resources/demo"
[ -d "$demo" ] || demo=$(find "$app" -type d -path '*hieradjudicate/resources/demo' | head -1)

echo "== bundled CLI"
"$exe" --version
"$exe" validate --inventory "$demo/inventory.txt" --annotations "$demo/annotator_ann.key" \
  --annotations "$demo/annotator_ben.key" --annotations "$demo/annotator_cho.key" \
  --contexts "$demo/contexts.tsv" | tail -3

echo "== bundled GUI under a virtual X server"
shot=$(mktemp --suffix=.png)
tmp=$(mktemp -d)
XDG_DATA_HOME="$tmp/data" XDG_CONFIG_HOME="$tmp/config" XDG_STATE_HOME="$tmp/state" \
  xvfb-run -a -s "-screen 0 1280x800x24" "$exe" demo --screenshot "$shot"
python3 - "$shot" <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
w, h = struct.unpack(">II", data[16:24])
assert (w, h) == (1280, 800), f"screenshot is {w}x{h}, expected 1280x800"
# not blank: the compressed image data of a blank window is tiny
idat = b"".join(data[i + 8:i + 8 + struct.unpack(">I", data[i:i + 4])[0]]
                for i in range(8, len(data)) if data[i + 4:i + 8] == b"IDAT")
raw = zlib.decompress(idat)
assert len(set(raw[::97])) > 20, "the screenshot looks blank"
print(f"screenshot ok: {w}x{h}, {len(data):,} bytes")
PY
size=$(du -sh "$app" | cut -f1)
echo "bundle: $app ($size), built in ${built} s"
