"""The render commands fail with one clear line and exit code 2 on bad input."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from gammoneye.service.cli import app

BAD_MAT = """; [EventDate "2026.11.23"]

 1 point match

 Game 1
 a : 0                          b : 0
  1) 31: 8/5 6/5                64: 24/10
"""


@pytest.mark.parametrize(
    ("make", "args", "message"),
    [
        ("file", ["render", "stills", "--n", "2", "--out", "{out}"], "is a file, not a folder"),
        (
            "none",
            ["render", "stills", "--n", "2", "--out", "{out}", "--style", "bogus"],
            "unknown board style 'bogus'",
        ),
        ("dir", ["render", "sheet", "{out}"], "no images"),
        ("none", ["render", "sheet", "{out}"], "not a folder"),
        ("mat", ["render", "clip", "--mat", "{mat}", "--out", "{out}"], "does not replay cleanly"),
        (
            "file",
            ["render", "clip", "--mat", "{demo}", "--out", "{out}", "--games", "1"],
            "is a file, not a folder",
        ),
    ],
)
def test_bad_input_is_one_clear_line(
    tmp_path: Path, make: str, args: list[str], message: str
) -> None:
    out = tmp_path / "out"
    if make == "file":
        out.write_text("not a folder")
    elif make == "dir":
        out.mkdir()
    mat = tmp_path / "bad.mat"
    mat.write_text(BAD_MAT)
    demo = Path(__file__).resolve().parents[1] / "service" / "data" / "demo_match.mat"
    filled = [a.format(out=out, mat=mat, demo=demo) for a in args]
    result = CliRunner().invoke(app, filled)
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output
