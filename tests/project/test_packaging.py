"""Packaging: the wheel (and sdist) carry the resources; the wheel installs into a fresh environment
outside the checkout and its commands work there; the desktop files validate.

The wheel is built once per run (about 5-15 s: pip builds it in an isolated environment) from a
copy of the source, so the checkout gains no ``build/`` folder (a second run would take it for
the ``build`` package).  The new virtual environment reaches the *running* interpreter's
site-packages through a ``.pth`` file — whether that interpreter is a venv or the system's — so
Qt, numpy and pandas are not downloaded again; the running environment's own editable install
of this checkout is not activated there (a path line in a ``.pth`` file does not process the
``.pth`` files inside it), and every check asserts that ``hieradjudicate`` is imported from the
venv and not from this checkout.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tarfile
import venv
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import pytest

from hieradjudicate import __version__

ROOT = Path(__file__).resolve().parents[2]
RES = ROOT / "resources"
DESKTOP = RES / "desktop"
APP_ID = "io.github.hieradjudicate"
ICON_SIZES = (16, 32, 48, 64, 128, 256)
#: What the installed package must carry (paths inside the wheel).
SHIPPED = (
    [f"hieradjudicate/_resources/demo/{f}" for f in (
        "inventory.txt", "contexts.tsv", "annotator_ann.key", "annotator_ben.key", "annotator_cho.key",
        "system_lesk.ans", "system_neural.ans", "generate.py", "README.md")]
    + [f"hieradjudicate/_resources/icons/hicolor/{n}x{n}/apps/{APP_ID}.png" for n in ICON_SIZES]
    + [f"hieradjudicate/_resources/icons/hicolor/scalable/apps/{APP_ID}.svg"]
    + [f"hieradjudicate/_resources/desktop/{f}" for f in (
        f"{APP_ID}.desktop", f"{APP_ID}.metainfo.xml", "hieradjudicate-mime.xml")]
)


def _clean_env(tmp: Path) -> dict:
    """No PYTHONPATH (it could point at the checkout), a throw-away home, Qt off screen."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "PYTHONSAFEPATH")}
    env.update(XDG_DATA_HOME=str(tmp / "data"), XDG_CONFIG_HOME=str(tmp / "config"),
               XDG_STATE_HOME=str(tmp / "state"), XDG_CACHE_HOME=str(tmp / "cache"),
               QT_QPA_PLATFORM="offscreen", PIP_DISABLE_PIP_VERSION_CHECK="1")
    return env


def _source_copy(tmp: Path) -> Path:
    """The checkout's sources without build products, version control or virtual environments."""
    dst = tmp / "src"
    shutil.copytree(ROOT, dst, ignore=shutil.ignore_patterns(
        ".git", ".venv", "venv", "build", "dist", "*.egg-info", "__pycache__", ".pytest_cache",
        ".hypothesis", "*.pyc", "out"))
    return dst


def _running_site_packages() -> list[str]:
    """The site-packages folders the running interpreter imports from (venv or system)."""
    return [p for p in sys.path if p.endswith(("site-packages", "dist-packages")) and Path(p).is_dir()]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out_dir = tmp_path_factory.mktemp("wheel")
    src = _source_copy(tmp_path_factory.mktemp("wheel-src"))
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out_dir), str(src)],
                       capture_output=True, text=True, timeout=240, cwd=out_dir, env=_clean_env(out_dir))
    assert r.returncode == 0, f"building the wheel failed:\n{r.stdout[-2000:]}\n{r.stderr[-3000:]}"
    wheels = list(out_dir.glob("hieradjudicate-*.whl"))
    assert [w.name for w in wheels] == [f"hieradjudicate-{__version__}-py3-none-any.whl"]
    return wheels[0]


@pytest.fixture(scope="module")
def venv_bin(wheel, tmp_path_factory) -> Path:
    """A fresh virtual environment (outside the checkout) with the wheel installed; its bin folder.
    Dependencies come from the running interpreter's site-packages (see the module docstring)."""
    env_dir = tmp_path_factory.mktemp("venv") / "env"
    venv.EnvBuilder(system_site_packages=False, with_pip=False, symlinks=True).create(env_dir)
    py = env_dir / "bin" / "python"
    purelib = subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             capture_output=True, text=True, check=True).stdout.strip()
    # After the venv's own site-packages, so the installed wheel wins over anything found there.
    Path(purelib, "zz_outer_site_packages.pth").write_text("\n".join(_running_site_packages()) + "\n")
    r = subprocess.run([sys.executable, "-m", "pip", "--python", str(py), "install", "--no-deps", "-q",
                        "--no-index", str(wheel)], capture_output=True, text=True, timeout=240,
                       cwd=env_dir, env=_clean_env(env_dir))
    assert r.returncode == 0, r.stderr[-3000:]
    return env_dir / "bin"


def test_wheel_carries_demo_icons_and_desktop_files(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    missing = [n for n in SHIPPED if n not in names]
    assert not missing, f"not in the wheel: {missing}"
    assert not [n for n in names if n.endswith(".pyc") or "__pycache__" in n]
    # the console script is declared
    ep = zipfile.ZipFile(wheel).read(f"hieradjudicate-{__version__}.dist-info/entry_points.txt").decode()
    assert "hieradjudicate = hieradjudicate.cli.entry:main" in ep


def test_wheel_carries_the_license(wheel):
    """The MIT licence text ships with the wheel, and the metadata names it by its SPDX id."""
    zf = zipfile.ZipFile(wheel)
    dist_info = f"hieradjudicate-{__version__}.dist-info/"
    licences = [n for n in zf.namelist() if n.startswith(dist_info) and n.rsplit("/", 1)[-1] == "LICENSE"]
    assert licences, f"no LICENSE under {dist_info}"
    assert zf.read(licences[0]) == (ROOT / "LICENSE").read_bytes()
    meta = zf.read(dist_info + "METADATA").decode()
    assert re.search(r"^License-Expression: MIT$", meta, re.M), meta[:800]


def _has_build_package() -> bool:
    """Whether ``python -m build`` works; asked from outside the checkout, whose ``build/``
    folder (if any) would otherwise pass for the package."""
    r = subprocess.run([sys.executable, "-c", "import build.__main__"], capture_output=True,
                       cwd=Path(os.sep), env=_clean_env(Path(os.sep)))
    return r.returncode == 0


@pytest.mark.skipif(not _has_build_package(),
                    reason="the sdist check needs the 'build' package (pip install build)")
def test_sdist_carries_the_resources(tmp_path):
    src = _source_copy(tmp_path)
    r = subprocess.run([sys.executable, "-m", "build", "--sdist", "-o", str(tmp_path), str(src)],
                       capture_output=True, text=True, timeout=240, cwd=tmp_path, env=_clean_env(tmp_path))
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-3000:]
    (sdist,) = tmp_path.glob("hieradjudicate-*.tar.gz")
    prefix = f"hieradjudicate-{__version__}/"
    names = set(tarfile.open(sdist).getnames())
    wanted = [prefix + n.replace("hieradjudicate/_resources/", "resources/") for n in SHIPPED]
    wanted += [prefix + "pyproject.toml", prefix + "README.md", prefix + "LICENSE",
               prefix + "hieradjudicate/resources.py"]
    missing = [n for n in wanted if n not in names]
    assert not missing, f"not in the sdist: {missing}"


@pytest.mark.skipif(not _has_build_package(),
                    reason="the check needs the 'build' package (pip install build)")
def test_python_m_build_prints_no_setuptools_warning(tmp_path):
    """``python -m build`` (sdist, then the wheel from it) as the README gives it: not one warning
    (a resource folder Python could import but `packages` did not list made setuptools print four)."""
    src = _source_copy(tmp_path)
    env = {k: v for k, v in _clean_env(tmp_path).items() if k != "PYTHONDONTWRITEBYTECODE"}
    r = subprocess.run([sys.executable, "-m", "build", "-o", str(tmp_path / "dist"), str(src)],
                       capture_output=True, text=True, timeout=400, cwd=tmp_path, env=env)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-3000:]
    said = [line for line in (r.stdout + r.stderr).splitlines() if re.search(r"warn", line, re.I)]
    assert not said, "\n".join(said)
    (whl,) = (tmp_path / "dist").glob("*.whl")
    assert not [n for n in SHIPPED if n not in zipfile.ZipFile(whl).namelist()]


def test_installed_program_works_outside_the_checkout(venv_bin, tmp_path):
    env = _clean_env(tmp_path)

    def run(*args, timeout=180):
        return subprocess.run([str(a) for a in args], capture_output=True, text=True, cwd=tmp_path, env=env,
                              timeout=timeout)

    where = run(venv_bin / "python", "-c",
                "import hieradjudicate, hieradjudicate.resources as r; "
                "print(hieradjudicate.__file__); print(r.resource_path('demo')); print(r.icon_path(48))")
    assert where.returncode == 0, where.stderr
    pkg_file, demo, icon = (Path(line) for line in where.stdout.split())
    venv_dir = venv_bin.parent.resolve()
    for p in (pkg_file, demo, icon):
        assert p.resolve().is_relative_to(venv_dir), f"{p} is not from the installed wheel"
        assert not p.resolve().is_relative_to(ROOT), f"{p} comes from the checkout"
    assert icon.is_file()

    v = run(venv_bin / "hieradjudicate", "--version")
    assert v.returncode == 0, v.stderr
    assert v.stdout.strip() == f"hieradjudicate {__version__}"

    val = run(venv_bin / "hieradjudicate", "validate", "--inventory", demo / "inventory.txt",
              "--annotations", f"ann={demo / 'annotator_ann.key'}", "--annotations", f"ben={demo / 'annotator_ben.key'}",
              "--annotations", f"lesk={demo / 'system_lesk.ans'}:system", "--contexts", demo / "contexts.tsv")
    assert val.returncode == 0, val.stdout + val.stderr
    assert val.stdout.rstrip().endswith("valid")

    shot = tmp_path / "shot.png"
    s = run(venv_bin / "hieradjudicate", "demo", "--screenshot", shot, timeout=240)
    assert s.returncode == 0, s.stdout[-2000:] + s.stderr[-3000:]
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert (int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")) == (1280, 800)


def test_package_list_covers_every_subpackage():
    """pyproject.toml lists the packages (resources/ is mapped in, which discovery cannot do):
    a new sub-package must be added there or the wheel would lack it."""
    text = (ROOT / "pyproject.toml").read_text()
    listed = set(re.findall(r'"(hieradjudicate(?:\.[\w]+)*)"', text.split("packages = [", 1)[1].split("]", 1)[0]))
    on_disk = {".".join(d.relative_to(ROOT).parts) for d in (ROOT / "hieradjudicate").rglob("*")
               if d.is_dir() and d.name != "__pycache__" and any(d.glob("*.py"))} | {"hieradjudicate"}
    missing = sorted(on_disk - listed)
    assert not missing, f"add {missing} to `packages` in pyproject.toml [tool.setuptools]"
    assert "hieradjudicate._resources" in listed


def test_resource_path_in_the_checkout():
    from hieradjudicate.resources import icon_path, resource_path

    assert (resource_path("demo") / "inventory.txt").is_file()
    assert all(icon_path(n).is_file() for n in ICON_SIZES) and icon_path(None).is_file()


def test_icons_have_their_sizes():
    for n in ICON_SIZES:
        data = (RES / "icons" / "hicolor" / f"{n}x{n}" / "apps" / f"{APP_ID}.png").read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        assert (int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")) == (n, n)
    svg = ET.parse(RES / "icons" / "hicolor" / "scalable" / "apps" / f"{APP_ID}.svg").getroot()
    assert svg.tag == "{http://www.w3.org/2000/svg}svg"


def test_desktop_entry_validates():
    tool = shutil.which("desktop-file-validate")
    if tool is None:
        pytest.skip("desktop-file-validate is not installed (Debian package desktop-file-utils)")
    out = subprocess.run([tool, str(DESKTOP / f"{APP_ID}.desktop")], capture_output=True, text=True)
    assert out.returncode == 0 and not out.stdout.strip(), out.stdout + out.stderr


def test_metainfo_validates():
    tool = shutil.which("appstreamcli")
    if tool is None:
        pytest.skip("appstreamcli is not installed (Debian package appstream)")
    out = subprocess.run([tool, "validate", "--no-net", str(DESKTOP / f"{APP_ID}.metainfo.xml")],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


def test_metainfo_names_this_version_and_the_desktop_entry():
    root = ET.parse(DESKTOP / f"{APP_ID}.metainfo.xml").getroot()
    assert root.get("type") == "desktop-application" and root.findtext("id") == APP_ID
    assert root.find("launchable").text == f"{APP_ID}.desktop"
    newest = root.find("releases/release")
    assert newest.get("version") == __version__, "add a <release> for the new version to the metainfo file"


def test_mime_type_and_desktop_entry_agree():
    ns = {"m": "http://www.freedesktop.org/standards/shared-mime-info"}
    mt = ET.parse(DESKTOP / "hieradjudicate-mime.xml").getroot().find("m:mime-type", ns)
    assert mt.get("type") == "application/x-hieradjudicate-project"
    assert mt.find("m:glob", ns).get("pattern") == "*.hadj"
    entry = dict(line.split("=", 1) for line in (DESKTOP / f"{APP_ID}.desktop").read_text().splitlines()
                 if "=" in line)
    assert entry["MimeType"] == "application/x-hieradjudicate-project;"
    assert entry["Exec"] == "hieradjudicate %f" and entry["Icon"] == APP_ID


def test_wheel_carries_the_user_guide(wheel):
    """Help > User guide opens the guide installed with the program: the wheel carries every page
    of docs/ and its pictures as hieradjudicate/_guide/ (not the scripts that make them)."""
    names = set(zipfile.ZipFile(wheel).namelist())
    docs = ROOT / "docs"
    pages = [p for p in docs.rglob("*") if p.suffix in (".md", ".png") and "tools" not in p.parts]
    wanted = sorted(f"hieradjudicate/_guide/{p.relative_to(docs).as_posix()}" for p in pages)
    assert "hieradjudicate/_guide/index.md" in wanted
    missing = [n for n in wanted if n not in names]
    assert not missing, f"not in the wheel: {missing}"
    assert not [n for n in names if n.startswith("hieradjudicate/_guide/tools/")]


def test_installed_program_finds_its_own_user_guide(venv_bin, tmp_path):
    """Installed from the wheel, Help > User guide's page is the guide inside the installed package."""
    r = subprocess.run([str(venv_bin / "python"), "-c",
                        "from hieradjudicate.app.guide import guide_entry; print(guide_entry())"],
                       capture_output=True, text=True, cwd=tmp_path, env=_clean_env(tmp_path), timeout=120)
    assert r.returncode == 0, r.stderr
    page = Path(r.stdout.strip())
    assert page.name == "index.md" and page.parent.name == "_guide", page
    assert page.resolve().is_relative_to(venv_bin.parent.resolve()), f"{page} is not from the installed wheel"
    assert (page.parent / "images" / "workbench.png").is_file()


def test_build_bundle_without_the_development_environment_says_what_it_needs(tmp_path):
    """packaging/build_bundle.sh run with a Python that lacks the program's dependencies stops at
    once naming them and the command that makes the environment, not with a traceback."""
    bare = tmp_path / "bare"
    venv.EnvBuilder(system_site_packages=False, with_pip=False, symlinks=True).create(bare)
    env = dict(_clean_env(tmp_path), PYTHON=str(bare / "bin" / "python"))
    r = subprocess.run(["bash", str(ROOT / "packaging" / "build_bundle.sh")], capture_output=True, text=True,
                       cwd=tmp_path, env=env, timeout=120)
    assert r.returncode == 1 and r.stdout == ""
    assert "Traceback" not in r.stderr and "needs the development environment" in r.stderr
    assert "numpy" in r.stderr and "python3 -m venv .venv" in r.stderr
