"""A clip's per-frame ground truth (``frames.jsonl``) as the referee's sightings.

This is the perfect camera: it lets the referee's logic be measured apart from
vision (``gammoneye eval referee --vision truth``). A frame counts as settled when no
hand is over the table and no checker is in the air; dice count once they rest.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from gammoneye.engine.referee import ExactCheckers, SeenCube, SeenDie, Sighting

from .clipscript import layout_position


def cube_side(place: str, bottom_player: int) -> str:
    """A truth cube place (``centre``, ``offered``, ``player0``, ``player1``) as the
    referee names it (``bottom`` / ``top`` for a player's side)."""
    if place.startswith("player"):
        return "bottom" if int(place[-1]) == bottom_player else "top"
    return place


def truth_sighting(row: Mapping[str, Any], bottom_player: int) -> Sighting | None:
    """The sighting of one ``frames.jsonl`` row, or ``None`` while the table is not
    settled (a hand over it, a checker in the air)."""
    if row.get("hands") or row.get("in_air"):
        return None
    pos = layout_position(row["checkers"], 0)
    impossible = 0
    if pos is not None and pos.problems():
        impossible = len(pos.problems())
        pos = None
    dice = tuple(
        SeenDie(
            int(d["value"]),
            cocked=1.0 if d.get("cocked") else 0.0,
            half=d.get("half", "right"),
            on_checker=1.0 if d.get("on_checker") else 0.0,
            at=None if d.get("at") is None else (float(d["at"][0]), float(d["at"][1])),
        )
        for d in row.get("dice", ())
    )
    cube = row.get("cube")
    seen_cube = (
        None
        if cube is None
        else SeenCube(int(cube["value"]), cube_side(str(cube["place"]), bottom_player))
    )
    return Sighting(
        ExactCheckers(pos, impossible=impossible),
        dice=dice,
        cube=seen_cube,
        t=float(row["t"]),
        frame=row.get("frame"),
    )


def read_truth_rows(clip: Path) -> Iterator[dict[str, Any]]:
    """The rows of ``clip/frames.jsonl`` in order."""
    with (clip / "frames.jsonl").open(encoding="utf-8") as f:
        for line in f:
            if line.strip():
                yield json.loads(line)
