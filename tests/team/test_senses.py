"""The server accepts the tags of the project's inventory (stored at publishing) and those a
re-imported input brings; any other tag is refused, whoever writes it."""

from __future__ import annotations

from pathlib import Path

import pytest

from hieradjudicate.app.session.commands import Decide
from hieradjudicate.app.session.decisions import Decision
from hieradjudicate.app.session.session import Session
from hieradjudicate.core.errors import ProjectError
from hieradjudicate.io.store.pg.store import PgStore
from tests.team.conftest import url


def test_a_tag_outside_the_inventory_is_refused_until_a_reimport_brings_it(cluster, published: str,
                                                                         tmp_path: Path) -> None:
    from tests.conftest import DEMO

    with Session.open(url(cluster, "lead", published)) as s:
        with pytest.raises(ProjectError, match="zz9 is not a sense of bank.n"):
            s.store.append_decisions([Decision("bank.n", "bank.n.001", ("zz9",), decided_by="lead",
                                               decided_at="2026-01-01T00:00:00.000Z")])
        changed = tmp_path / "annotator_ann.key"
        lines = (DEMO / "annotator_ann.key").read_text(encoding="utf-8").splitlines()
        first = lines[0].split()
        assert first[0] == "bank.n"
        lines[0] = " ".join(first[:2] + ["zz9"])  # ann's answer on the first instance: a tag of her own
        changed.write_text("\n".join(lines) + "\n", encoding="utf-8")
        s.reimport("annotator_ann", changed)
        s.execute(Decide([Decision("bank.n", first[1], ("zz9",))]))
    with PgStore.open(url(cluster, "vic", published)) as v:
        assert v.history("bank.n", first[1])[-1].tags == ("zz9",)
