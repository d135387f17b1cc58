"""GNU Backgammon Match ID and eXtreme Gammon XGID: the match context of a position.

A :class:`MatchInfo` holds what GNU Backgammon's Match ID says — cube, score, match
length, Crawford, who is on roll, the dice, pending double or resignation, game
state. :func:`encode_match_id` writes exactly the ID GNU Backgammon writes;
:func:`decode_match_id` reads every ID it writes (also one it refuses to read back:
at the end of a match gnubg writes the winner's full score, which may pass the
match length).

The Match ID is 9 bytes (66 bits used) in 12 base64 characters. Bit ``k`` is bit
``k % 8`` of byte ``k // 8``; each field is stored least significant bit first:

======  =====  ===================================================================
bits    width  field
======  =====  ===================================================================
0-3     4      log2 of the cube value
4-5     2      cube owner: 0 or 1, 3 centred
6       1      player on roll (owns the dice; gnubg's ``fMove``)
7       1      this is the Crawford game
8-10    3      game state (:class:`GameState`)
11      1      player to act (gnubg's ``fTurn``; the opponent while a double or a
               resignation awaits an answer)
12      1      a double is offered
13-14   2      resignation offered: 0 none, 1 single, 2 gammon, 3 backgammon
15-17   3      the higher die (0: not rolled)
18-20   3      the lower die
21-35   15     match length (0: money game)
36-50   15     player 0's score
51-65   15     player 1's score
66      1      the Jacoby rule is *not* in use (gnubg 1.x; 1 in every match)
======  =====  ===================================================================

>>> info = MatchInfo(dice_owner=1, turn=1, dice=(5, 2), match_length=7)
>>> encode_match_id(info)
'cInqAAAAAAAE'
>>> decode_match_id('cInqAAAAAAAE') == info
True
>>> encode_xgid(Position.initial(turn=1), info)
'XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10'
"""

from __future__ import annotations

import base64
import re
from dataclasses import dataclass
from enum import IntEnum

from .position import Position, PositionError

#: The largest cube the Match ID can hold (4 bits of log2).
MAX_CUBE_LOG2 = 15
#: The largest match length or score the Match ID can hold (15 bits).
MAX_SCORE = (1 << 15) - 1

_MATCH_ID = re.compile(r"[A-Za-z0-9+/]{12}")
_CENTRED = 3  # the cube owner field's value for a centred cube
_USED_BITS = 67


class MatchIdError(ValueError):
    """A Match ID, XGID or match context that is malformed."""


class GameState(IntEnum):
    """GNU Backgammon's game state (Match ID bits 8-10)."""

    NONE = 0  # no game started
    PLAYING = 1
    OVER = 2  # borne off
    RESIGNED = 3
    DROPPED = 4  # a double was passed


@dataclass(frozen=True, slots=True)
class MatchInfo:
    """The match context of a position, field for field what a Match ID says.

    Players are numbered as in :mod:`gammoneye.engine.position` (player 1 is the
    bottom player of an XGID). ``dice`` keep the order given; the Match ID stores
    the higher die first. A score may pass the match length: at the end of a match
    gnubg writes the winner's full score. Construction checks each field's range and
    raises :class:`MatchIdError`.

    >>> MatchInfo(cube_value=4, cube_owner=0, match_length=7, score=(2, 5)).cube_log2
    2
    """

    cube_value: int = 1
    #: ``None`` when the cube is centred.
    cube_owner: int | None = None
    #: The player on roll (gnubg's ``fMove``).
    dice_owner: int = 0
    #: This game is the Crawford game.
    crawford: bool = False
    game_state: GameState = GameState.PLAYING
    #: The player to act: the opponent of ``dice_owner`` while a double or a
    #: resignation awaits an answer (gnubg's ``fTurn``).
    turn: int = 0
    double_offered: bool = False
    #: 0 none, 1 single, 2 gammon, 3 backgammon.
    resign_offered: int = 0
    #: ``(0, 0)``: not rolled.
    dice: tuple[int, int] = (0, 0)
    #: 0: unlimited (money game).
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    #: Money play under the Jacoby rule (never in a match [001 4.4(viii)]).
    jacoby: bool = False

    def __post_init__(self) -> None:
        cube = self.cube_value
        if not isinstance(cube, int) or cube < 1 or cube & (cube - 1) or cube.bit_length() > 16:
            raise MatchIdError(f"cube value {cube!r} is not a power of two from 1 to 32768")
        if self.cube_owner not in (None, 0, 1):
            raise MatchIdError(
                f"cube owner must be None (centred), 0 or 1, got {self.cube_owner!r}"
            )
        for name in ("dice_owner", "turn"):
            if getattr(self, name) not in (0, 1):
                raise MatchIdError(f"{name} must be 0 or 1, got {getattr(self, name)!r}")
        try:
            state = GameState(self.game_state)
        except ValueError:
            raise MatchIdError(f"unknown game state {self.game_state!r}") from None
        if self.resign_offered not in (0, 1, 2, 3):
            raise MatchIdError(f"resignation level must be 0..3, got {self.resign_offered!r}")
        dice = tuple(self.dice)
        if (
            len(dice) != 2
            or not all(isinstance(d, int) and 0 <= d <= 6 for d in dice)
            or (0 in dice and dice != (0, 0))
        ):
            raise MatchIdError(f"dice must be two of 1..6, or (0, 0) when not rolled: {dice!r}")
        if not 0 <= self.match_length <= MAX_SCORE:
            raise MatchIdError(f"match length {self.match_length!r} is not in 0..{MAX_SCORE}")
        score = tuple(self.score)
        if len(score) != 2 or not all(isinstance(s, int) and 0 <= s <= MAX_SCORE for s in score):
            raise MatchIdError(f"score must be two of 0..{MAX_SCORE}, got {score!r}")
        if self.crawford and self.match_length == 0:
            raise MatchIdError("a money game (match length 0) has no Crawford game")
        object.__setattr__(self, "game_state", state)
        object.__setattr__(self, "dice", dice)
        object.__setattr__(self, "score", score)
        for name in ("crawford", "double_offered", "jacoby"):
            object.__setattr__(self, name, bool(getattr(self, name)))

    @property
    def cube_log2(self) -> int:
        return self.cube_value.bit_length() - 1


# --- GNU Backgammon Match ID --------------------------------------------------------------

# (field, first bit, width); the order of the table in the module docstring.
_LAYOUT = (
    ("cube_log2", 0, 4),
    ("cube_owner", 4, 2),
    ("dice_owner", 6, 1),
    ("crawford", 7, 1),
    ("game_state", 8, 3),
    ("turn", 11, 1),
    ("double_offered", 12, 1),
    ("resign_offered", 13, 2),
    ("die_high", 15, 3),
    ("die_low", 18, 3),
    ("match_length", 21, 15),
    ("score0", 36, 15),
    ("score1", 51, 15),
    ("no_jacoby", 66, 1),
)


def encode_match_id(info: MatchInfo) -> str:
    """The GNU Backgammon Match ID of ``info`` (12 characters).

    >>> encode_match_id(MatchInfo(cube_value=2, cube_owner=1, match_length=5, score=(1, 3)))
    'EQGgABAAGAAE'
    """
    high, low = sorted(info.dice, reverse=True)
    values = {
        "cube_log2": info.cube_log2,
        "cube_owner": _CENTRED if info.cube_owner is None else info.cube_owner,
        "dice_owner": info.dice_owner,
        "crawford": int(info.crawford),
        "game_state": int(info.game_state),
        "turn": info.turn,
        "double_offered": int(info.double_offered),
        "resign_offered": info.resign_offered,
        "die_high": high,
        "die_low": low,
        "match_length": info.match_length,
        "score0": info.score[0],
        "score1": info.score[1],
        "no_jacoby": int(not info.jacoby),
    }
    bits = 0
    for name, start, _width in _LAYOUT:
        bits |= values[name] << start
    return base64.b64encode(bits.to_bytes(9, "little")).decode("ascii")


def decode_match_id(text: str) -> MatchInfo:
    """Read a GNU Backgammon Match ID; :class:`MatchIdError` quotes what is wrong.

    >>> info = decode_match_id('cAllAAAAAAAE')  # gnubg: new match 3, opening 2-1
    >>> info.match_length, info.dice_owner, info.dice
    (3, 1, (2, 1))
    >>> try:
    ...     decode_match_id('cAgAAAAAAAA')
    ... except MatchIdError as exc:
    ...     print(exc)
    Match ID 'cAgAAAAAAAA': expected 12 base64 characters (A-Z a-z 0-9 + /)
    """
    stripped = text.strip()
    if not _MATCH_ID.fullmatch(stripped):
        raise MatchIdError(f"Match ID {text!r}: expected 12 base64 characters (A-Z a-z 0-9 + /)")
    bits = int.from_bytes(base64.b64decode(stripped), "little")
    fields = {name: (bits >> start) & ((1 << width) - 1) for name, start, width in _LAYOUT}
    if bits >> _USED_BITS:
        raise MatchIdError(f"Match ID {text!r}: unused bits 67-71 are set")
    owner = fields["cube_owner"]
    if owner == 2:
        raise MatchIdError(f"Match ID {text!r}: cube owner 2 (must be 0, 1 or 3 = centred)")
    if fields["game_state"] > max(GameState):
        raise MatchIdError(f"Match ID {text!r}: unknown game state {fields['game_state']}")
    if fields["die_high"] > 6 or fields["die_low"] > 6:
        raise MatchIdError(
            f"Match ID {text!r}: a die shows {max(fields['die_high'], fields['die_low'])}"
        )
    try:
        return MatchInfo(
            cube_value=1 << fields["cube_log2"],
            cube_owner=None if owner == _CENTRED else owner,
            dice_owner=fields["dice_owner"],
            crawford=bool(fields["crawford"]),
            game_state=GameState(fields["game_state"]),
            turn=fields["turn"],
            double_offered=bool(fields["double_offered"]),
            resign_offered=fields["resign_offered"],
            dice=(fields["die_high"], fields["die_low"]),
            match_length=fields["match_length"],
            score=(fields["score0"], fields["score1"]),
            jacoby=not fields["no_jacoby"],
        )
    except MatchIdError as exc:
        raise MatchIdError(f"Match ID {text!r}: {exc}") from None


def encode_gnubg_id(position: Position, info: MatchInfo) -> str:
    """GNU Backgammon's combined ``PositionID:MatchID``.

    The Position ID is written from the player on roll's side, ``info.dice_owner``.

    >>> encode_gnubg_id(Position.initial(turn=1), MatchInfo(dice_owner=1, turn=1, match_length=7))
    '4HPwATDgc/ABMA:cAngAAAAAAAE'
    """
    return f"{position.with_turn(info.dice_owner).position_id()}:{encode_match_id(info)}"


def decode_gnubg_id(text: str) -> tuple[Position, MatchInfo]:
    """Read ``PositionID:MatchID``; the position's ``turn`` is the player on roll."""
    head, sep, tail = text.strip().partition(":")
    if not sep:
        raise MatchIdError(f"GNUbg ID {text!r}: expected 'PositionID:MatchID'")
    info = decode_match_id(tail)
    try:
        position = Position.from_position_id(head, turn=info.dice_owner)
    except PositionError as exc:
        raise MatchIdError(f"GNUbg ID {text!r}: {exc}") from None
    return position, info


# --- eXtreme Gammon XGID -------------------------------------------------------------------

_XGID_PREFIX = "XGID="
_XGID_FIELDS = 10


def encode_xgid(position: Position, info: MatchInfo, max_cube_log2: int = 10) -> str:
    """The XGID of a position in its match context.

    Fields after the board: cube log2 : cube owner (1 bottom = player 1, -1 top =
    player 0, 0 centred) : player on roll (1 bottom, -1 top) : dice (``00`` not
    rolled, ``D`` double offered) : player 1's score : player 0's score : Crawford
    game (match) or Jacoby rule (money) : match length : maximum cube (log2).

    The XGID says nothing of a resignation or a finished game; those fields of
    ``info`` are not written. ``position.turn`` must be ``info.dice_owner``.
    """
    if position.turn != info.dice_owner:
        raise MatchIdError(
            f"position has player {position.turn} on roll but the match info player "
            f"{info.dice_owner}: {position!r}"
        )
    if not 0 <= max_cube_log2 <= MAX_CUBE_LOG2:
        raise MatchIdError(f"maximum cube log2 {max_cube_log2!r} is not in 0..{MAX_CUBE_LOG2}")
    if info.double_offered and info.dice != (0, 0):
        raise MatchIdError(f"a double cannot be offered after rolling {info.dice}")
    owner = {None: 0, 0: -1, 1: 1}[info.cube_owner]
    dice = "D" if info.double_offered else f"{info.dice[0]}{info.dice[1]}"
    rules = int(info.crawford) if info.match_length else int(info.jacoby)
    fields = (
        position.xgid_board(),
        info.cube_log2,
        owner,
        1 if info.dice_owner == 1 else -1,
        dice,
        info.score[1],
        info.score[0],
        rules,
        info.match_length,
        max_cube_log2,
    )
    return _XGID_PREFIX + ":".join(str(f) for f in fields)


def decode_xgid(text: str) -> tuple[Position, MatchInfo]:
    """Read an XGID: the position (``turn`` = player on roll) and its match context.

    Read as GNU Backgammon reads it: a ``D`` in the dice field means the player on
    roll has doubled and the opponent must answer. The maximum cube field is
    checked but not kept; in a money game the beaver flag (2) is dropped.

    >>> pos, info = decode_xgid('XGID=-b----E-C---eE---c-e----B-:1:-1:1:D:3:2:0:7:10')
    >>> info.cube_value, info.cube_owner, info.double_offered, info.turn, info.score
    (2, 0, True, 0, (2, 3))
    """
    body = text.strip()
    if body.startswith(_XGID_PREFIX):
        body = body[len(_XGID_PREFIX) :]
    fields = body.split(":")
    if len(fields) != _XGID_FIELDS:
        raise MatchIdError(f"XGID {text!r}: expected {_XGID_FIELDS} fields, got {len(fields)}")

    def number(index: int, what: str, low: int, high: int) -> int:
        field = fields[index]
        if not re.fullmatch(r"-?\d+", field):
            raise MatchIdError(f"XGID {text!r}: {what} {field!r} is not a number")
        value = int(field)
        if not low <= value <= high:
            raise MatchIdError(f"XGID {text!r}: {what} {value} is not in {low}..{high}")
        return value

    cube_log2 = number(1, "cube log2", 0, MAX_CUBE_LOG2)
    owner_field = number(2, "cube position", -1, 1)
    turn_field = fields[3]
    if turn_field not in ("1", "-1"):
        raise MatchIdError(f"XGID {text!r}: turn must be 1 or -1, got {turn_field!r}")
    on_roll = 1 if turn_field == "1" else 0
    score1 = number(5, "bottom player's score", 0, MAX_SCORE)
    score0 = number(6, "top player's score", 0, MAX_SCORE)
    match_length = number(8, "match length", 0, MAX_SCORE)
    rules = number(7, "Crawford/Jacoby field", 0, 1 if match_length else 3)
    number(9, "maximum cube", 0, MAX_CUBE_LOG2)
    dice_field = fields[4]
    doubled = dice_field == "D"
    if doubled:
        dice = (0, 0)
    elif re.fullmatch(r"[0-6]{2}", dice_field):
        dice = (int(dice_field[0]), int(dice_field[1]))
    elif dice_field in ("B", "R"):
        raise MatchIdError(
            f"XGID {text!r}: beavers and raccoons are money-game only and not supported"
        )
    else:
        raise MatchIdError(f"XGID {text!r}: dice field {dice_field!r} is not 00, D or two dice")
    try:
        position = Position.from_xgid(text)
    except PositionError as exc:
        raise MatchIdError(str(exc)) from None  # it quotes the XGID already
    try:
        info = MatchInfo(
            cube_value=1 << cube_log2,
            cube_owner={0: None, -1: 0, 1: 1}[owner_field],
            dice_owner=on_roll,
            crawford=bool(rules) if match_length else False,
            game_state=GameState.PLAYING,
            turn=1 - on_roll if doubled else on_roll,
            double_offered=doubled,
            dice=dice,
            match_length=match_length,
            score=(score0, score1),
            jacoby=bool(rules & 1) if not match_length else False,
        )
    except MatchIdError as exc:
        raise MatchIdError(f"XGID {text!r}: {exc}") from None
    return position, info
