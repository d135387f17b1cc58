"""The vocabulary of :mod:`gammoneye.engine.match`: where a game stands (:class:`Phase`),
why an action is refused (:class:`RuleCode`, :class:`MatchRuleError`), and what an
action records (:class:`Note`, :class:`GameResult`, :class:`Resignation`).

Import these from :mod:`gammoneye.engine.match`, which re-exports them.

>>> RuleCode.DEAD_CUBE == "dead_cube", RuleCode.DEAD_CUBE
(True, 'dead_cube')
>>> MatchRuleError(RuleCode.DEAD_CUBE, "the cube is dead").code
'dead_cube'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, StrEnum
from typing import Any, Literal


class Phase(Enum):
    """Where a game stands."""

    START = "start"  # the game has not started: awaiting the opening
    ROLL = "roll"  # the player on roll may double or roll
    DOUBLED = "doubled"  # a double is offered: awaiting take or drop
    MOVE = "move"  # dice rolled: awaiting the play
    RESIGN_OFFERED = "resign_offered"  # awaiting accept or reject
    GAME_OVER = "game_over"
    MATCH_OVER = "match_over"


class RuleCode(StrEnum):
    """Why an action is not allowed (``MatchRuleError.code``), or what was corrected.

    A ``str``: ``code == "dead_cube"`` works, and ``repr`` shows the plain string.
    """

    def __repr__(self) -> str:
        return repr(self.value)

    NOT_YOUR_TURN = "not_your_turn"
    GAME_NOT_STARTED = "game_not_started"
    GAME_IN_PROGRESS = "game_in_progress"
    GAME_OVER = "game_over"
    MATCH_OVER = "match_over"
    OPENING_TIE = "opening_tie"
    NO_OPENING_ROLL = "no_opening_roll"
    WRONG_OPENER = "wrong_opener"
    OPENING = "opening"
    BAD_DICE = "bad_dice"
    NOT_ROLLED = "not_rolled"
    ALREADY_ROLLED = "already_rolled"
    ILLEGAL_PLAY = "illegal_play"
    IMPOSSIBLE_POSITION = "impossible_position"
    NO_CUBE_IN_PROFILE = "no_cube_in_profile"
    CRAWFORD_GAME = "crawford_game"
    CUBE_NOT_YOURS = "cube_not_yours"
    DEAD_CUBE = "dead_cube"
    CUBE_LIMIT = "cube_limit"
    DOUBLE_PENDING = "double_pending"
    NO_DOUBLE = "no_double"
    RESIGNATION_PENDING = "resignation_pending"
    NO_RESIGNATION = "no_resignation"
    BAD_RESIGN_LEVEL = "bad_resign_level"
    BAD_POINTS = "bad_points"
    WRONG_WINNER = "wrong_winner"
    NO_MATCH_LENGTH = "no_match_length"
    # Notes: the action stood, but something was corrected or recorded.
    CUBE_LEVEL_CORRECTED = "cube_level_corrected"
    ILLEGAL_PLAY_STANDS = "illegal_play_stands"
    POSITION_FROM_BOARD = "position_from_board"
    EARLY_DOUBLE = "early_double"


class MatchRuleError(ValueError):
    """An action the rules do not allow; ``code`` is a :class:`RuleCode`."""

    def __init__(self, code: RuleCode, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class Note:
    """Something an allowed action corrected or recorded, e.g. a wrong cube level."""

    code: RuleCode
    message: str


ResultReason = Literal["bearoff", "drop", "resign"]


@dataclass(frozen=True, slots=True)
class GameResult:
    """How a game ended: ``points`` = ``multiplier`` * ``cube_value``."""

    winner: int
    points: int
    #: 1 single, 2 gammon, 3 backgammon (for a drop: 1).
    multiplier: int
    cube_value: int
    reason: ResultReason

    def end_fields(self) -> dict[str, Any]:
        """The fields of the ``game_end`` event it makes (all but ``game``)."""
        return {
            "winner": self.winner,
            "points": self.points,
            "multiplier": self.multiplier,
            "cube": self.cube_value,
            "reason": self.reason,
        }


@dataclass(frozen=True, slots=True)
class Resignation:
    """A pending offer to resign: ``level`` 1 single, 2 gammon, 3 backgammon."""

    player: int
    level: int
    #: The phase the game returns to when the offer is rejected.
    resume: Phase
