"""The wheel installs into a fresh environment outside the checkout and works; desktop files validate."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DESKTOP = ROOT / "resources" / "desktop"


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """Build the wheel and install it (without its dependencies, which come from the system
    site-packages: Qt is large) into a new virtual environment; return its bin folder."""
    work = tmp_path_factory.mktemp("wheel")
    out = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q",
                          "-w", str(work), str(ROOT)], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    wheels = list(work.glob("hieradjudicate-*.whl"))
    assert len(wheels) == 1
    env_dir = work / "venv"
    venv.EnvBuilder(system_site_packages=True, with_pip=False).create(env_dir)
    py = env_dir / "bin" / "python"
    out = subprocess.run([sys.executable, "-m", "pip", "--python", str(py), "install", "--no-deps", "-q",
                          str(wheels[0])], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    return env_dir / "bin", wheels[0]


def _env(tmp: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH",)}
    env.update(XDG_DATA_HOME=str(tmp / "data"), XDG_CONFIG_HOME=str(tmp / "config"),
               XDG_STATE_HOME=str(tmp / "state"), QT_QPA_PLATFORM="offscreen")
    return env


def test_wheel_carries_resources(installed):
    import zipfile

    names = zipfile.ZipFile(installed[1]).namelist()
    for needed in ("hieradjudicate/resources/demo/inventory.txt", "hieradjudicate/resources/demo/contexts.tsv",
                   "hieradjudicate/resources/icons/hicolor/256x256/apps/io.github.hieradjudicate.png",
                   "hieradjudicate/resources/desktop/io.github.hieradjudicate.desktop",
                   "hieradjudicate/resources/desktop/hieradjudicate-mime.xml"):
        assert needed in names


def test_installed_program_runs_outside_the_checkout(installed, tmp_path):
    bindir, _ = installed
    env = _env(tmp_path)
    run = lambda *a: subprocess.run(a, capture_output=True, text=True, cwd=tmp_path, env=env, timeout=180)  # noqa: E731
    where = run(str(bindir / "python"), "-c", "import hieradjudicate, hieradjudicate.paths as p; "
                "print(hieradjudicate.__file__); print(p.resource_path('demo'))")
    assert where.returncode == 0, where.stderr
    file, demo = where.stdout.split()
    assert str(bindir.parent) in file and str(ROOT) not in file
    assert str(bindir.parent) in demo
    from hieradjudicate import __version__

    v = run(str(bindir / "hieradjudicate"), "--version")
    assert v.returncode == 0 and v.stdout.strip() == f"hieradjudicate {__version__}"
    d = Path(demo)
    val = run(str(bindir / "hieradjudicate"), "validate", "--inventory", str(d / "inventory.txt"),
              "--annotations", str(d / "annotator_ann.key"), "--annotations", str(d / "system_lesk.ans"),
              "--contexts", str(d / "contexts.tsv"))
    assert val.returncode == 0, val.stdout + val.stderr
    assert "valid" in val.stdout
    shot = tmp_path / "shot.png"
    s = run(str(bindir / "hieradjudicate"), "demo", "--screenshot", str(shot))
    assert s.returncode == 0, s.stderr[-3000:]
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert int.from_bytes(data[16:20], "big") == 1280 and int.from_bytes(data[20:24], "big") == 800


def test_desktop_entry_validates():
    tool = shutil.which("desktop-file-validate")
    if tool is None:
        pytest.skip("desktop-file-validate is not installed (Debian package desktop-file-utils)")
    out = subprocess.run([tool, str(DESKTOP / "io.github.hieradjudicate.desktop")], capture_output=True, text=True)
    assert out.returncode == 0 and not out.stdout.strip(), out.stdout + out.stderr


def test_metainfo_validates():
    tool = shutil.which("appstreamcli")
    if tool is None:
        pytest.skip("appstreamcli is not installed (Debian package appstream)")
    out = subprocess.run([tool, "validate", "--no-net", str(DESKTOP / "io.github.hieradjudicate.metainfo.xml")],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


def test_mime_type_names_the_project_glob():
    import xml.etree.ElementTree as ET

    ns = {"m": "http://www.freedesktop.org/standards/shared-mime-info"}
    root = ET.parse(DESKTOP / "hieradjudicate-mime.xml").getroot()
    mt = root.find("m:mime-type", ns)
    assert mt.get("type") == "application/x-hieradjudicate-project"
    assert mt.find("m:glob", ns).get("pattern") == "*.hadj"
    desktop = (DESKTOP / "io.github.hieradjudicate.desktop").read_text()
    assert "MimeType=application/x-hieradjudicate-project;" in desktop
