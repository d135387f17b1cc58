"""The parsed form of a ``.mat`` match transcript: a :class:`MatchRecord`, its
games (:class:`GameRecord`) and their actions (:class:`Action`).

:func:`~gammoneye.engine.matfile.read_mat` builds these and
:func:`~gammoneye.engine.matwrite.write_mat` writes them; import all of them from
:mod:`gammoneye.engine.matfile`, which re-exports them.

>>> game = GameRecord(1, (0, 0), ("alice", "bob"), (Action(0, "drop", 7, 3),), line=4)
>>> MatchRecord(5, ("alice", "bob"), (), (game,)).games[0].actions[0].kind
'drop'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

ActionKind = Literal["roll", "double", "take", "drop", "win", "lose"]

_KINDS: tuple[ActionKind, ...] = ("roll", "double", "take", "drop", "win", "lose")


@dataclass(frozen=True, slots=True)
class Action:
    """One thing a player did, as the transcript writes it.

    ``player`` is 0 for the left column, 1 for the right. ``play`` is the move text
    as written (whitespace collapsed), empty for a dance or a roll not played.
    ``cube`` is the value a double offers (``Doubles => 4``); ``points`` what a
    ``Wins``/``Losses`` line says; ``and_match`` marks ``Wins ... and the match``.

    >>> Action(1, "roll", line=6, move_number=1, dice=(4, 1), play="13/9 24/23")
    Action(player=1, kind='roll', line=6, move_number=1, dice=(4, 1), play='13/9 24/23', \
cube=None, points=None, and_match=False)
    """

    player: int
    kind: ActionKind
    line: int
    move_number: int
    dice: tuple[int, int] | None = None
    play: str = ""
    cube: int | None = None
    points: int | None = None
    and_match: bool = False

    def __post_init__(self) -> None:
        if self.player not in (0, 1):
            raise ValueError(f"player must be 0 or 1, got {self.player!r}")
        if self.kind not in _KINDS:
            raise ValueError(f"unknown action kind {self.kind!r}; expected one of {_KINDS}")


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game: its number, the score at its start, the players and the actions.

    ``line`` is the line of the ``Game N`` header.
    """

    number: int
    score: tuple[int, int]
    players: tuple[str, str]
    actions: tuple[Action, ...]
    line: int


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A whole transcript: match length (0 = unlimited), players, header, games.

    ``tags`` are the header's ``; [Tag "value"]`` lines in order; ``comments`` any
    other header line starting with ``;`` or ``#`` (text after the mark).
    """

    match_length: int
    players: tuple[str, str]
    tags: tuple[tuple[str, str], ...]
    games: tuple[GameRecord, ...]
    comments: tuple[str, ...] = ()

    def tag(self, name: str) -> str | None:
        """The value of the first header tag called ``name`` (case-insensitive).

        >>> MatchRecord(5, ("a", "b"), (("Site", "Ulm"),), ()).tag("site")
        'Ulm'
        """
        folded = name.casefold()
        return next((v for k, v in self.tags if k.casefold() == folded), None)
