"""`gammoneye engine replay/convert` and `gammoneye engine demo` from the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gammoneye.engine.replay import replay_mat
from gammoneye.service.cli import app

from transcripts import BROKEN_GAME as BROKEN

runner = CliRunner()
DEMO_MAT = Path(__file__).resolve().parents[1] / "service" / "data" / "demo_match.mat"


def test_replay_clean_match_exits_0() -> None:
    result = runner.invoke(app, ["engine", "replay", str(DEMO_MAT)])
    assert result.exit_code == 0, result.output
    assert "alice vs bob" in result.output
    assert "all moves legal, scores add up" in result.output


def test_replay_lists_problems_and_exits_1(tmp_path: Path) -> None:
    bad = tmp_path / "bad.mat"
    bad.write_text(BROKEN, encoding="utf-8")
    result = runner.invoke(app, ["engine", "replay", str(bad)])
    assert result.exit_code == 1
    assert "line 6: game 1, move 2, alice: illegal play '8/4 6/5' for 31" in result.output


def test_replay_json_has_ids_before_each_move() -> None:
    result = runner.invoke(app, ["engine", "replay", "--json", str(DEMO_MAT)])
    assert result.exit_code == 0
    doc = json.loads(result.output)
    assert doc["ok"] is True and doc["problems"] == []
    first = doc["moves"][0]
    assert first["action"] == "roll" and first["player"] == 0 and first["dice"] == [4, 1]
    assert first["play"] == "24/23 13/9"
    assert first["position_id"] == "4HPwATDgc/ABMA"
    assert first["xgid"].startswith("XGID=-b----E-C---eE---c-e----B-:0:0:-1:41:")
    assert len(first["match_id"]) == 12
    assert sum(m["action"] == "roll" for m in doc["moves"]) == 311


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (["engine", "replay", "/nonexistent.mat"], "no such file"),
        (["engine", "replay", "."], "is a folder"),
        (["engine", "replay", "--profile", "nope", str(DEMO_MAT)], "nope"),
        (["engine", "convert", str(DEMO_MAT), "--to", "sgf"], "expected mat or json"),
    ],
)
def test_bad_input_exits_2_with_a_message(args: list[str], error: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert error in result.output


def test_binary_file_is_refused(tmp_path: Path) -> None:
    blob = tmp_path / "photo.mat"
    blob.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe")
    result = runner.invoke(app, ["engine", "replay", str(blob)])
    assert result.exit_code == 2
    assert "not UTF-8 text" in result.output


def test_convert_mat_to_json_and_back(tmp_path: Path) -> None:
    events = tmp_path / "events.jsonl"
    result = runner.invoke(
        app, ["engine", "convert", str(DEMO_MAT), "--to", "json", "-o", str(events)]
    )
    assert result.exit_code == 0, result.output
    lines = events.read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0])["type"] == "match_start"
    assert json.loads(lines[-1])["type"] == "match_end"
    back = tmp_path / "back.mat"
    result = runner.invoke(app, ["engine", "convert", str(events), "--to", "mat", "-o", str(back)])
    assert result.exit_code == 0, result.output
    direct = runner.invoke(app, ["engine", "convert", str(DEMO_MAT), "--to", "mat"])
    assert back.read_text(encoding="utf-8") == direct.output
    assert replay_mat(direct.output).ok


def test_convert_reports_problems_on_stderr_and_exits_1(tmp_path: Path) -> None:
    bad = tmp_path / "bad.mat"
    bad.write_text(BROKEN, encoding="utf-8")
    result = runner.invoke(app, ["engine", "convert", str(bad), "--to", "mat"])
    assert result.exit_code == 1
    assert "problem: line 6" in result.output
    assert " 3 point match" in result.output


def test_demo_runs_and_writes_transcripts(tmp_path: Path) -> None:
    out = tmp_path / "demo"
    result = runner.invoke(app, ["engine", "demo", "--out", str(out), "--game", "2"])
    assert result.exit_code == 0, result.output
    assert "=== Game 2: alice 0 - 2 bob" in result.output
    assert "=== Game 1" not in result.output
    assert "Position ID" in result.output and "legal results" in result.output
    assert "alice wins 1 point by the dropped double" in result.output
    assert (out / "match.mat").read_text(encoding="utf-8").startswith("; [EventDate")
    assert replay_mat((out / "match.mat").read_text(encoding="utf-8")).ok
    assert (out / "events.jsonl").stat().st_size > 0


def test_demo_flags_an_illegal_transcript(tmp_path: Path) -> None:
    bad = tmp_path / "bad.mat"
    bad.write_text(BROKEN, encoding="utf-8")
    result = runner.invoke(
        app, ["engine", "demo", "--mat", str(bad), "--out", str(tmp_path), "--no-boards"]
    )
    assert result.exit_code == 1
    assert "ILLEGAL" in result.output and "problem:" in result.output
