"""Issue 31, item 1, on a server project: a note written before deciding and a flag are marks on the
instance there too -- the server store's current rows (io/store/pg/current.py) keep the note row of an
undecided instance, a later decision carries note and flag, and a note alone never counts as an
adjudicator's answer in the conflict rule."""

from __future__ import annotations

import io
from contextlib import redirect_stderr, redirect_stdout

from hieradjudicate.app.session.session import Session
from hieradjudicate.cli.entry import main
from tests.team.conftest import url


def cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


def test_note_and_flag_stay_through_later_decisions_on_the_server(cluster, published: str) -> None:
    u = url(cluster, "lead", published)
    for args in (("--note", "ask Ann"), ("1.1",), ("--flag",), ("--skip",), ("2.2",)):
        code, _, err = cli("project", "decide", u, "bank.n", "bank.n.003", *args)
        assert code == 0, err
    with Session.open(u) as s:  # read back as the server derives the current rows
        row = s.decisions.row("bank.n", "bank.n.003")
        assert (row.status, row.tags, row.note) == ("flagged", ("2.2",), "ask Ann")
    code, _, err = cli("project", "decide", u, "bank.n", "bank.n.004", "--note", "only a note")
    assert code == 0, err
    with Session.open(u) as s:
        assert s.decisions.current("bank.n", "bank.n.004") is None
        assert s.decisions.note("bank.n", "bank.n.004") == "only a note"
        assert s.decisions.status("bank.n", "bank.n.004") == "unresolved"
