"""The GNU Backgammon driver that oracle tests use (see ``gnubg_cli.py``)."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

import gnubg_cli

pytestmark = pytest.mark.oracle

START_POSITION_ID = "4HPwATDgc/ABMA"
# Transcripts that GNU Backgammon wrote (see ../shared/data/mat/README.md).
GNUBG_MADE = [
    "generated_gnubg_selfplay_7p_seed1.mat",
    "kevung_charlot1-charlot2_7p.mat",
    "kevung_gnubg_roll_then_resign_1p.mat",
    "kevung_gnubg_selfplay_drops_7p.mat",
]


def _normalised(mat: str) -> list[str]:
    """Lines as gnubg rewrites them, minus what its writer changes.

    Dropped: trailing space, the date gnubg fills in. Each play's moves are sorted
    and its hit marks counted, since gnubg reorders moves ("13/9 24/23" becomes
    "24/23 13/9") and puts the "*" on the first of them that lands on the hit point.
    """

    def play(m: re.Match[str]) -> str:
        moves = m.group(2).split()
        hits = sum(move.count("*") for move in moves)
        return f"{m.group(1)} {' '.join(sorted(move.rstrip('*') for move in moves))} [{hits}*]"

    lines = []
    for line in mat.splitlines():
        if line.startswith("; [EventDate "):
            continue
        lines.append(re.sub(r"(\d\d:)((?: +\d+/\d+\*?)+)", play, line).rstrip())
    return lines


def test_run_gnubg_script_shows_the_ids(gnubg_binary: Path) -> None:
    out = gnubg_cli.run_gnubg_script(["new game", "show board"], binary=gnubg_binary)
    assert "Position ID" in out
    assert "Match ID" in out


@pytest.mark.parametrize("name", GNUBG_MADE)
def test_roundtrip_of_a_gnubg_export_keeps_every_play(
    name: str, gnubg_binary: Path, mat_dir: Path, tmp_path: Path
) -> None:
    src = mat_dir / name
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
