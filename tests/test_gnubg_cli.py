"""The GNU Backgammon driver that oracle tests use (see ``gnubg_cli.py``)."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

import gnubg_cli

pytestmark = pytest.mark.oracle

START_POSITION_ID = "4HPwATDgc/ABMA"
OWN_EXPORT = "kevung_charlot1-charlot2_7p.mat"  # written by GNU Backgammon itself


def _normalised(mat: str) -> list[str]:
    """Lines without trailing space or the date gnubg may fill in; moves of a play sorted."""
    lines = []
    for line in mat.splitlines():
        if line.startswith("; [EventDate "):
            continue
        # Sort the moves after each "dd:" roll, so "13/9 24/23" equals "24/23 13/9".
        line = re.sub(
            r"(\d\d:)((?: +\d+/\d+\*?)+)",
            lambda m: m.group(1) + " " + " ".join(sorted(m.group(2).split())),
            line,
        )
        lines.append(line.rstrip())
    return lines


def test_run_gnubg_script_shows_the_ids(gnubg_binary: Path) -> None:
    out = gnubg_cli.run_gnubg_script(["new game", "show board"], binary=gnubg_binary)
    assert "Position ID" in out
    assert "Match ID" in out


def test_roundtrip_of_a_gnubg_export_keeps_every_play(
    gnubg_binary: Path, mat_dir: Path, tmp_path: Path
) -> None:
    src = mat_dir / OWN_EXPORT
    once = tmp_path / "once.mat"
    twice = tmp_path / "twice.mat"
    gnubg_cli.roundtrip_mat(src, once, binary=gnubg_binary)
    gnubg_cli.roundtrip_mat(once, twice, binary=gnubg_binary)
    assert _normalised(once.read_text()) == _normalised(src.read_text())
    assert twice.read_text() == once.read_text()  # gnubg's writer is canonical


def test_roundtrip_of_a_non_match_file_raises(gnubg_binary: Path, tmp_path: Path) -> None:
    src = tmp_path / "not a match.mat"
    src.write_text("hello\n")
    with pytest.raises(gnubg_cli.GnubgError, match=r"no \.mat"):
        gnubg_cli.roundtrip_mat(src, tmp_path / "out.mat", binary=gnubg_binary)


def test_ids_after_each_move_chain_within_each_game(gnubg_binary: Path, mat_dir: Path) -> None:
    for src in sorted(mat_dir.glob("*.mat")):
        steps = gnubg_cli.gnubg_ids_after_each_move(src, binary=gnubg_binary)
        assert [s.index for s in steps if s.game == 0][:1] == [0], src.name
        for step in steps:
            if step.index == 0 and step.action == "move":
                assert step.position_id_before == START_POSITION_ID, (src.name, step)
        for before, after in itertools.pairwise(steps):
            if after.game == before.game and after.position_id_before:
                assert before.position_id == after.position_id_before, (src.name, after)
