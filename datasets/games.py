"""Seeded random games: a supply of realistic positions for tests, benchmarks and renders.

The players pick uniformly among the distinct legal results, which reaches contact
play, hits, bar entry, primes and bear-offs — everything the rules engine must get
right. Same seed, same game.

>>> from gammoneye.datasets.games import random_turns
>>> turns = list(random_turns(seed=1, limit=3))
>>> [t.dice for t in turns]
[(5, 1), (1, 4), (4, 4)]
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from gammoneye.engine.moves import legal_positions
from gammoneye.engine.position import Position


@dataclass(frozen=True, slots=True)
class Turn:
    """One turn of a random game: the position before it, the roll, the result."""

    game: int
    before: Position
    dice: tuple[int, int]
    after: Position  # mover still on roll, as the engine returns it


def random_turns(seed: int, limit: int) -> Iterator[Turn]:
    """``limit`` turns from consecutive random games (a new game starts when one ends)."""
    rng = random.Random(seed)
    game = 0
    count = 0
    while count < limit:
        game += 1
        pos = Position.initial(turn=rng.randint(0, 1))
        while not pos.is_game_over() and count < limit:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            after = rng.choice(legal_positions(pos, dice))
            yield Turn(game, pos, dice, after)
            count += 1
            pos = after.swapped_turn()
