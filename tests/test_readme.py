"""The README stays true: its first two lines are the newcomer's commands, its example runs."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_first_lines_are_the_two_commands() -> None:
    first, second = README.read_text(encoding="utf-8").splitlines()[:2]
    assert first.rstrip() == "scripts/setup && .venv/bin/gammoneye demo"
    assert second.rstrip() == "scripts/setup && scripts/test"


def test_python_example_runs() -> None:
    text = README.read_text(encoding="utf-8")
    code = text.split("```python", 1)[1].split("```", 1)[0]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {})
    assert "['8/5 6/5']" in out.getvalue()
