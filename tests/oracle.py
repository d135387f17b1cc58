"""GNU Backgammon as an oracle (test-only: gnubg-nn is GPL and never imported by the package)."""

from __future__ import annotations

from typing import Any

from gammoneye.engine.moves import legal_positions
from gammoneye.engine.position import Position


def load_gnubg_nn() -> Any:
    """Import gnubg_nn, or skip the calling test with the reason."""
    import pytest

    reason = "gnubg-nn oracle not installed (scripts/setup installs it)"
    return pytest.importorskip("gnubg_nn", reason=reason)


def gnubg_result_ids(gnubg_nn: Any, pos: Position, dice: tuple[int, int]) -> set[str]:
    """Position IDs of every legal result per gnubg-nn (mover still on roll).

    Like the ``gammoneye engine legal`` contract: the input position when no play exists.
    """
    keys = gnubg_nn.moves(pos.gnubg_board(), dice[0], dice[1])
    if not keys:
        return {pos.position_id()}
    return {
        gnubg_nn.position_id([list(half) for half in gnubg_nn.board_from_position_key(k)])
        for k in keys
    }


def agrees_with_gnubg(gnubg_nn: Any, pos: Position, dice: tuple[int, int]) -> bool:
    """Whether GammonEye's distinct legal results are exactly gnubg-nn's."""
    ours = {p.position_id() for p in legal_positions(pos, dice)}
    return ours == gnubg_result_ids(gnubg_nn, pos, dice)
