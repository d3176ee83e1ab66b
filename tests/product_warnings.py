"""The product's own code raises no warning during the suite (issue #35).

Hooks (imported by ``tests/conftest.py``) that collect every warning the tests record whose source
is the product's code (a file under ``hieradjudicate/``), or that the product's plots cause inside
pyqtgraph ("All-NaN slice encountered": an item given all-NaN data, see
``gui/dashboard/common.set_line``), list them at the end of the run under their own heading and
make the run fail.  Warnings of the test tools and of peer libraries (crowd-kit's pandas
deprecations) are theirs, not the product's, and are left to pytest's usual summary.  Nothing is
turned into an exception: a warning raised inside a Qt paint event must not become a crash.
"""

from __future__ import annotations

from pathlib import Path

PRODUCT = str(Path(__file__).resolve().parent.parent / "hieradjudicate") + "/"
#: (file part, message part) of warnings a library raises because of data the product gave it
CAUSED = (("pyqtgraph", "All-NaN slice"),)

found: list[str] = []


def is_product_warning(filename: str, message: str) -> bool:
    filename = filename.replace("\\", "/")
    return filename.startswith(PRODUCT) or any(f in filename and m in message for f, m in CAUSED)


def pytest_warning_recorded(warning_message, when, nodeid, location) -> None:
    text = str(warning_message.message)
    if is_product_warning(warning_message.filename, text):
        found.append(f"{nodeid or when}: {warning_message.filename}:{warning_message.lineno}: "
                     f"{warning_message.category.__name__}: {text}")


def pytest_terminal_summary(terminalreporter) -> None:
    if found:
        terminalreporter.section("warnings raised by the product's own code (issue #35: none allowed)")
        for line in found[:200]:
            terminalreporter.line(line)
        terminalreporter.line(f"{len(found)} warning(s) from the product's own code")


def pytest_sessionfinish(session, exitstatus) -> None:
    if found and exitstatus == 0:
        session.exitstatus = 1
