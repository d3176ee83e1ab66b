"""The team commands (progress, conflicts, assign, team) given a project file say they read a team project on
a server, and what to do with the file: before, only "expected a server project URL" (found by helper
trial47 as a new user)."""

from __future__ import annotations

import pytest

from hieradjudicate.cli.entry import main


@pytest.mark.parametrize("command", [["progress"], ["conflicts"], ["team"], ["assign", "--adjudicators", "x"]])
def test_a_project_file_given_to_a_team_command_is_named_as_one(capsys, tmp_path, command) -> None:
    project = tmp_path / "p.hadj"
    project.write_bytes(b"")
    assert main(["project", command[0], str(project), *command[1:]]) != 0
    err = capsys.readouterr().err
    assert f"{project}: expected a server project URL" in err
    assert "this command works on a team project on a PostgreSQL server, and this names a project file" in err
    assert "project publish P.hadj URL" in err


def test_anything_else_is_told_the_url_only(capsys) -> None:
    assert main(["project", "progress", "not-a-url"]) != 0
    err = capsys.readouterr().err
    assert "not-a-url: expected a server project URL (postgresql://" in err and "project file" not in err
