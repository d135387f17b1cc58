"""The engine's command-line contracts (`gammoneye engine legal/show/plays`)."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from gammoneye.datasets.games import random_turns
from gammoneye.service.cli import app
from gammoneye.service.engine_cli import serve_legal

from oracle import gnubg_result_ids, load_gnubg_nn

runner = CliRunner()


def test_legal_contract_matches_gnubg_on_random_positions() -> None:
    gnubg_nn = load_gnubg_nn()
    turns = list(random_turns(seed=7, limit=300))
    request = "".join(
        json.dumps({"position": t.before.position_id(), "dice": list(t.dice)}) + "\n"
        for t in turns
    )
    out = io.StringIO()
    assert serve_legal(io.StringIO(request), out) == 0
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(answers) == len(turns)
    for turn, answer in zip(turns, answers, strict=True):
        ref = gnubg_result_ids(gnubg_nn, turn.before, turn.dice)
        assert set(answer["results"]) == ref
        assert len(answer["results"]) == len(ref)  # distinct


@pytest.mark.parametrize(
    ("line", "error"),
    [
        ("not json", "not JSON"),
        ("[1, 2]", "expected an object"),
        ('{"dice": [1, 2]}', '"position" must be'),
        ('{"position": "4HPwATDgc/ABMA", "dice": [1]}', '"dice" must be'),
        ('{"position": "4HPwATDgc/ABMA", "dice": [true, 1]}', '"dice" must be'),
        ('{"position": "4HPwATDgc/ABMA", "dice": [0, 1]}', "dice must be 1..6"),
        ('{"position": "4HPwATDgc/AB", "dice": [1, 2]}', "expected 14 characters"),
    ],
)
def test_legal_bad_lines_get_error_lines(line: str, error: str) -> None:
    good = '{"position": "4HPwATDgc/ABMA", "dice": [6, 6]}'
    out = io.StringIO()
    assert serve_legal(io.StringIO(f"{line}\n\n{good}\n"), out) == 1
    first, second = (json.loads(x) for x in out.getvalue().splitlines())
    assert error in first["error"]
    assert first["line"] == 1
    assert len(second["results"]) > 1


def test_legal_runs_as_a_console_command() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "gammoneye", "engine", "legal"],
        input='{"position": "4HPwATDgc/ABMA", "dice": [3, 1]}\n',
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert len(json.loads(proc.stdout)["results"]) == 16


def test_show_and_plays() -> None:
    result = runner.invoke(app, ["engine", "show", "4HPwATDgc/ABMA"])
    assert result.exit_code == 0
    assert "pips 167" in result.output and "-b----E-C---eE---c-e----B-" in result.output
    result = runner.invoke(app, ["engine", "plays", "4HPwATDgc/ABMA", "6-5"])
    assert result.exit_code == 0
    assert "7 distinct results for 65" in result.output
    assert "24/18 18/13" in result.output


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (["engine", "show", "nonsense"], "expected 14 characters"),
        (["engine", "plays", "4HPwATDgc/ABMA", "71"], "expected two dice"),
    ],
)
def test_bad_arguments_exit_2_with_a_message(args: list[str], error: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert error in result.output
