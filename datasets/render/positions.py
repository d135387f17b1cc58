"""Where the renderer's positions come from: real play, random play and edge cases.

Every position is an engine :class:`Position`; the supply is a pure function of its
seed. Real play comes from ``.mat`` transcripts (the bundled demo match, plus any
folder the caller names, e.g. ``../shared/data/mat``), replayed by the engine.

>>> import numpy as np
>>> pos = edge_case(np.random.default_rng(3), "tall_stack")
>>> max(max(b[:24]) for b in pos.boards) >= 10
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

from gammoneye.datasets.games import random_turns
from gammoneye.engine.position import Position
from gammoneye.engine.replay import replay_mat

EDGE_CASES = ("tall_stack", "bar_crowd", "bear_off", "race", "opening")
#: Drawn only at the share ``render stills --piles`` asks for (not among
#: :data:`EDGE_CASES`, so that runs without it keep their bytes).
PILES = "piles"


def positions_from_mat(text: str) -> list[Position]:
    """The position before every play of a transcript (mover on roll)."""
    result = replay_mat(text)
    return [e.state.position for e in result.entries if e.kind == "roll" and e.after is not None]


def mat_positions(paths: Iterable[Path]) -> list[Position]:
    """Positions from every ``.mat`` file named (folders are searched, sorted)."""
    files: list[Path] = []
    for p in paths:
        files.extend(sorted(p.glob("*.mat")) if p.is_dir() else [p])
    out: list[Position] = []
    for f in files:
        out.extend(positions_from_mat(f.read_text(encoding="utf-8", errors="replace")))
    return out


def _spread(
    rng: np.random.Generator, total: int, slots: Sequence[int], cap: int = 15
) -> dict[int, int]:
    """``total`` checkers over the point indexes ``slots`` (0-based own points)."""
    counts: dict[int, int] = {}
    for _ in range(total):
        choices = [s for s in slots if counts.get(s, 0) < cap]
        s = int(choices[int(rng.integers(len(choices)))])
        counts[s] = counts.get(s, 0) + 1
    return counts


def _board(counts: dict[int, int], bar: int = 0) -> list[int]:
    b = [0] * 25
    for i, n in counts.items():
        b[i] = n
    b[24] = bar
    return b


def edge_case(rng: np.random.Generator, kind: str) -> Position:
    """A legal-looking position of one kind the camera must not get wrong.

    ``tall_stack``: 10 to 15 checkers on one point; ``bar_crowd``: 2 to 5 checkers on
    a bar; ``bear_off``: both sides bearing off with checkers already off;
    ``race``: no contact; ``opening``: the starting position; ``piles``: one or two
    piles of 5 to 15 checkers on each side (the counts the point counter sees least)."""
    turn = int(rng.integers(2))
    if kind == "opening":
        return Position.initial(turn=turn)
    if kind == PILES:
        sides: list[dict[int, int]] = []
        for _ in range(2):
            held = {23 - i for side in sides for i in side}  # the other side's points
            free = [i for i in range(24) if i not in held]
            if rng.random() < 0.6:
                first = int(rng.integers(5, 11))
                sizes = [first, int(rng.integers(5, 16 - first))]
            else:
                sizes = [int(rng.integers(6, 16))]
            picked = [int(p) for p in rng.choice(free, size=len(sizes), replace=False)]
            rest = _spread(rng, 15 - sum(sizes), [i for i in free if i not in picked], cap=4)
            sides.append({**rest, **dict(zip(picked, sizes, strict=True))})
        return Position((tuple(_board(sides[0])), tuple(_board(sides[1]))), turn)
    if kind == "tall_stack":
        n = int(rng.integers(10, 16))
        p = int(rng.integers(0, 24))
        rest = _spread(rng, 15 - n, [i for i in range(24) if i != p])
        mine = {**rest, p: n}
        taken = {23 - i for i in mine}
        theirs = _spread(rng, 15, [i for i in range(24) if i not in taken], cap=6)
        return Position((tuple(_board(mine)), tuple(_board(theirs))), turn)
    if kind == "bar_crowd":
        bar = int(rng.integers(2, 6))
        home = [int(i) for i in rng.choice(6, size=int(rng.integers(3, 6)), replace=False)]
        theirs = _spread(rng, 15, home + list(range(6, 12)), cap=7)
        taken = {23 - i for i in theirs}
        mine = _spread(rng, 15 - bar, [i for i in range(24) if i not in taken])
        return Position((tuple(_board(mine, bar)), tuple(_board(theirs))), turn)
    if kind == "bear_off":
        boards = []
        for _ in range(2):
            off = int(rng.integers(1, 14))
            boards.append(_spread(rng, 15 - off, list(range(6))))
        return Position((tuple(_board(boards[0])), tuple(_board(boards[1]))), turn)
    if kind == "race":
        a = _spread(rng, 15, list(range(0, 11)), cap=8)
        b = _spread(rng, 15, list(range(0, 11)), cap=8)
        return Position((tuple(_board(a)), tuple(_board(b))), turn)
    raise ValueError(f"unknown edge case {kind!r}; expected one of {(*EDGE_CASES, PILES)}")


class PositionSupply:
    """A seeded mix of positions: random play, real transcripts, edge cases.

    ``draw(rng)`` returns ``(position, origin)`` where ``origin`` says where it came
    from (``random_game``, ``mat``, ``edge:<kind>``) for the label.
    """

    def __init__(
        self,
        seed: int,
        mats: Sequence[Position] = (),
        random_pool: int = 3000,
        piles: float = 0.0,
    ) -> None:
        self.random = [t.before for t in random_turns(seed=seed, limit=random_pool)]
        self.mats = list(mats)
        self.piles = piles

    def draw(self, rng: np.random.Generator) -> tuple[Position, str]:
        # drawn only when asked for, so runs without piles keep their bytes
        if self.piles > 0 and rng.random() < self.piles:
            return edge_case(rng, PILES), f"edge:{PILES}"
        u = rng.random()
        if u < 0.3 and self.mats:
            return self.mats[int(rng.integers(len(self.mats)))], "mat"
        if u < 0.7:
            return self.random[int(rng.integers(len(self.random)))], "random_game"
        kind = EDGE_CASES[int(rng.integers(len(EDGE_CASES)))]
        return edge_case(rng, kind), f"edge:{kind}"
