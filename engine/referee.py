"""The referee: settled views of the table in, referee events out. Pure: no I/O.

A camera (or anything else) describes each *settled* view of the table as a
:class:`Sighting`: the dice at rest (value, cocked or flat, which half), the cube
(face and place) and the checkers, given as evidence that can score any position
(:class:`CheckerEvidence`). The :class:`Referee` keeps the match
(:class:`~gammoneye.engine.match.MatchState`) and turns the sightings into the
engine's events (``docs/event-log.md``): the opening roll, rolls and invalid rolls,
plays, cube actions, game and match ends, and flags raised *before the next roll*.

Plays are found by **rules-constrained decoding** (``DESIGN.md``): when the mover
lifts his dice [001 4.1(vi)(a)], every legal result of the last confirmed position
with the confirmed dice is scored against the evidence and the best one is the play.
If the evidence is confidently none of them (its best explanation beats the best
legal result by more than ``illegal_margin`` in log-likelihood), the play is
ILLEGAL: a ``move`` with ``legal: false`` and a ``flag`` with the closest legal
results as suggestions. A later view that shows a legal result clears the flag
(``corrected``); once the opponent rolls, the play stands [001 4.2(iii)(a)] and is
recorded as an ``accepted_illegal``.

Halves are named as seen from the *bottom* seat (the field's bottom side in board
space): ``"right"`` is the bottom player's right half, which is the top player's
left. ``RefereeConfig.bottom_player`` says who sits there.

>>> ref = Referee(RefereeConfig(match_length=1, players=("ann", "bob")))
>>> start = Position.initial()
>>> _ = ref.see(Sighting(ExactCheckers(start)))  # the opening layout: a game starts
>>> [e.TYPE for e in ref.see(Sighting(ExactCheckers(start), dice=(SeenDie(3, half="right"),
...     SeenDie(1, half="left"))))]
['opening_roll']
>>> after = Position.from_position_id("4HPwATCwZ/ABMA")  # 8/5 6/5
>>> [(e.TYPE, getattr(e, "play", "")) for e in ref.see(Sighting(ExactCheckers(after)))]
[('move', '8/5 6/5')]
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations_with_replacement, permutations
from typing import Any, Protocol, cast

from .events import (
    SCHEMA_VERSION,
    AcceptedIllegalEvent,
    CorrectionEvent,
    DoubleEvent,
    DropEvent,
    Event,
    FlagClearedEvent,
    FlagEvent,
    FlagSuggestion,
    GameEndEvent,
    GameStartEvent,
    MatchEndEvent,
    MatchStartEvent,
    MoveEvent,
    OpeningRollEvent,
    ResignAcceptEvent,
    ResignEvent,
    ResignRejectEvent,
    RollEvent,
    RollFault,
    RollInvalidEvent,
    Source,
    TakeEvent,
    withdrawn_seqs,
)
from .match import MatchRuleError, MatchState, Phase, changed_by_hits
from .moves import checkers_out_of_place, dice_used, legal_plays, legal_positions
from .position import BAR, Position, PositionError

#: Log-likelihood by which the evidence must prefer a position no legal play makes
#: before a play is called illegal (about 400 : 1).
ILLEGAL_MARGIN = 6.0
#: How sure a die must look before it counts as on a checker.
DIE_FAULT_P = 0.5
#: How sure a die must look before it counts as cocked when its roll is judged. The
#: die reader tells cocked from flat weakly on clips: on the rolls judged in ten
#: development clips (s22, s23, 1704, 2003) 15 truly cocked dice read 0.08 to 0.89
#: (7 from 0.5) and flat dice read from 0.5 by 10 rolls, up to 0.86; from 0.75, 2
#: and 1. A cocked die missed is found when its roller rolls again with the board
#: unmoved (:meth:`Referee._see_reroll`), as players do [001 4.1(iv)]; a flat die
#: called cocked makes a false alarm and a roll the player then plays.
COCKED_P = 0.75
#: How sure a die of a roll that left its roller no play must have looked cocked for
#: two new dice in his half, the board unmoved, to be his roll again
#: (:meth:`Referee._see_reroll`) rather than his opponent's roll in the wrong half: a
#: roll must be repeated only if it was invalid, a dance needs none, and either fault
#: is as likely, so the camera's own call, 0.5, decides (s32 clip 2701 at 245 s: a
#: cocked 44 read cocked at 0.54, his 54 after it taken for his opponent's).
DANCE_REROLL_COCKED_P = 0.5
#: Log-likelihood by which a legal play must explain the board better than the board
#: unmoved for two dice then in the mover's half to be his opponent's roll in the
#: wrong half rather than his roll made again (:meth:`Referee._played_rather`).
PLAYED_MARGIN = 1.0
#: How soft, in checker diameters, the call "on a checker" is across a pile's edge
#: (:func:`on_checker_p`).
ON_CHECKER_SOFT = 0.09
#: How far (checker diameters) inside a pile's edge a die must stand to lie on it
#: (:func:`on_checker_p`). A die standing on a checker sits over it, its middle well
#: inside the top checker; one whose middle is nearer the pile's edge than this would
#: tip off it, so a flat die seen there lies beside the pile, its footprint misplaced
#: by a few millimetres (s38 clip 3301 at 138 s: a 3 touching the end of a pile of
#: three, its middle placed 0.07 diameters inside it, called on a checker at 0.69
#: and its valid roll invalid). Of the 545 flat dice read over a point with checkers
#: on ``renders/val`` and ``renders/held_seeds``, the 26 on a checker stood 0.148 or
#: more inside their pile's edge; of the others two stood inside (0.41 and 0.14),
#: none nearer the edge up to 0.06 outside
#: (``python bench/on_checker_edge.py renders/val renders/held_seeds``).
ON_CHECKER_INSET = 0.1
#: Penalty per checker out of place for :class:`ExactCheckers`.
EXACT_PENALTY = 10.0

#: Dice read less sure than this may be read again from the play they allow
#: (:meth:`Referee._reread_roll`).
REREAD_P = 0.9
#: A third die read under this on a checker, beside two read surely on none, is a
#: checker's top (:meth:`Referee._less_checker_top`); the camera read them at 0.28-0.39
#: (s82 clip 7902, s87 clip 8401), and a white checker's ring at 0.52-0.64 (s194 clip
#: 19102 at 424.8 s: as a 3 at 0.59 beside player 0's 42 rolled into the wrong half,
#: which went unjudged; the same checker read so in eight views of the match).
CHECKER_TOP_P = 0.7

#: Log-odds by which a roll the dice may have shown must explain a play better than
#: the dice as read, dice and board weighed together, where a legal play of the dice
#: as read explains the board too (:meth:`Referee._reread_roll`, ``explained``).
REREAD_MARGIN = 3.0

#: How many plays after a close call (a play of unsure dice kept though another roll
#: explained the board a little better, :meth:`Referee._reread_roll`) are weighed for
#: the other roll before the call stands for good (:class:`_Doubt`).
DOUBT_PLAYS = 4

#: Log prior odds of an illegal play against a legal one: a play that is illegal with
#: the numbers of a roll judged invalid but legal with another roll is taken for that
#: other roll (the judged dice misread) unless the dice read make it less likely than
#: this, against the numbers judged.
ILLEGAL_LOG_ODDS = math.log(0.05)
#: Log odds per checker out of place between an illegal play and the nearest legal
#: result of a roll, where no roll makes the play seen and the roll was not seen: a
#: play illegal with a roll mostly leaves one die unplayed or one checker a pip off,
#: so each checker further from every legal play of a roll makes that roll about a
#: twentieth as likely to be the one played (:meth:`Referee._roll_played_illegally`).
ILLEGAL_OUT_LOG_ODDS = math.log(0.05)
#: Log prior odds of an empty play where the roll has a play, against one die of the
#: roll misread so that it dances (:meth:`Referee._misread_dance`): at 1/500, a die
#: read at 0.91 may be taken for any other face, one read at 0.99 for the reader's
#: second choice only, one read at 1.00 never.
EMPTY_PLAY_LOG_ODDS = math.log(0.002)

#: A cube face read at least this surely can say a double was turned to a wrong
#: level [001 4.4(vi)]; the camera's cube reader is right about two times in three.
SURE_CUBE_FACE = 0.9
#: A face the die reader gives (almost) nothing is still this share of the die's
#: doubt, ``1 - p``, likely (:func:`_die_log_p`): the reader is sometimes sure of
#: the wrong face.
OTHER_FACE_FLOOR = 25
#: The note on a roll that stood though made before the opponent's turn was over.
PREMATURE_NOTE = "rolled before the opponent finished: stands [001 4.1(v)(a)]"
#: The note on a roll found invalid only because the player rolled again.
REROLL_NOTE = "rolled again without a play: the fault was not seen, the likeliest is given"
#: The note on a take the camera did not see, read from the doubler's roll after it.
UNSEEN_TAKE_NOTE = "not seen: the doubler rolled"
#: The note on a pass the camera did not see, read from the checkers set up again.
UNSEEN_DROP_NOTE = "not seen: the checkers were set up for the next game"
#: The note on a double the camera did not see, read from the checkers set up again.
EARLY_DOUBLE_NOTE = "doubled before the opponent's play was over: answered after it [001 4.4(v)]"
UNSEEN_DOUBLE_NOTE = "not seen: the checkers were set up for the next game"
#: The note on a double and its pass read from the cube gone, a die alone in the
#: field meanwhile, and the cube back in the middle at 1.
OFFER_AS_DIE_NOTE = "the cube offered seen as a die, then back in the middle"
#: The note on a double read from the cube gone, a die alone in the field meanwhile,
#: and the doubler's roll made with the cube seen nowhere (its take is unseen too).
OFFER_TAKEN_NOTE = "the cube offered seen as a die, then the doubler rolled"
#: The note on a roll the camera did not see, read from the play that followed it.
UNSEEN_ROLL_NOTE = "not seen: read from the play"
#: The note on a dance the camera did not see, read from the opponent's roll after it.
UNSEEN_DANCE_NOTE = "not seen: no play, read from his opponent's turn after it"
#: How many of a player's likeliest plays are tried as the turn the camera missed
#: before his opponent's play (:meth:`Referee._see_missed_turn`).
UNSEEN_TURN_TRIES = 12
#: The note on a roll judged invalid that the roller took as valid: it left him no
#: play, he lifted his dice, and his opponent's turn followed.
JUDGED_DANCE_NOTE = "judged invalid, taken as valid: no play, his opponent's turn followed"
#: The note on a roll judged invalid for a fault only the camera saw (a die read
#: cocked) and then played as it lay: the players took it as valid.
TAKEN_VALID_NOTE = "judged invalid, played as it lay: taken as valid"
#: The faults for which a roll judged invalid and then played is taken as valid (the
#: judgement withdrawn): a die that looked cocked. A roll in the wrong half, or on a
#: checker, is plain to see, and playing it an error of the players'.
TAKEN_VALID_FAULTS = frozenset({"cocked"})
#: How much better (log-likelihood, nats) a legal play of a roll judged cocked must
#: explain a view with the cube offered than the board as it was, for the roll to be
#: taken as played before the double (:meth:`Referee._judged_played_before_double`).
JUDGED_PLAYED_NATS = 1.0
#: The note on a play recorded as legal, with the dice read again to allow it, and
#: then put right on the board to a play of the dice as they were: it was illegal.
PUT_RIGHT_NOTE = (
    "the board shows a play of the roll before the dice were read again: the play "
    "recorded was illegal, and put right"
)
#: The note on an invalid roll told from one die of it, seen in the wrong half before
#: the roller rolled again in his own.
WRONG_HALF_DIE_NOTE = "one die seen in the wrong half, then rolled again: the roll before was void"
#: A roll seen by one die alone in the roller's half, then rolled again (the other
#: die never found: leaning, on a checker, off the board): void, its fault unseen.
LONE_DIE_NOTE = "one die seen, then rolled again: the roll before was void, its other die unseen"
#: The note on an illegal play whose result, as seen, is no position at all (its
#: ``after`` is then the position before): the record must say so for a resume.
UNSEEN_RESULT_NOTE = "the position seen is impossible"
#: Why a play flagged from a view where a hand hid the dice and the board was
#: withdrawn (:meth:`Referee._see_dice_not_lifted`).
DICE_NOT_LIFTED_NOTE = "the dice were hidden, not lifted: the play is still under way"
#: The note on a play put in place of the one recorded: before the opponent rolled,
#: the board came to show another play of the mover's roll.
CHANGED_PLAY_NOTE = (
    "the board shows another play before the next roll: it replaces the one recorded"
)
#: The note on a play recorded again with a hit its view did not show: the checker
#: hit lay on the bar unseen, and the opponent's play after it entered from there
#: (:meth:`Referee._hit_unseen_before`).
HIT_UNSEEN_NOTE = (
    "the opponent's play entered a checker from the bar: the play before it hit, "
    "the checker hit unseen on the bar"
)
#: The note on plays recorded again when the plays after a close call showed the
#: other roll was the one made (:meth:`Referee._rejudge`).
REJUDGED_NOTE = "the boards since show the roll was misread: its play and those after it again"
#: The note on a flagged play that stood when the board shows the opponent's checkers
#: moved too: turns went by that the camera did not see.
RESYNC_NOTE = "the board shows turns not seen: the position is taken from the board"
#: The opponent's checkers moved (not by hits) on at least this many points and his
#: pip count changed by at least ``MISSED_TURN_PIPS``: a turn apart, not a misreading.
MISSED_TURN_POINTS = 2
MISSED_TURN_PIPS = 3

_TAG = re.compile(r"\[([0-9]{3} [^\]]+?)\]")


# --- what a view of the table says --------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeenDie:
    """A die at rest: its most likely value and how it lies.

    ``half``: ``"left"`` / ``"right"`` as seen from the bottom seat, ``"bar"``, or
    ``None`` when it is off the playing surface.
    """

    value: int
    p: float = 1.0
    cocked: float = 0.0
    half: str | None = "right"
    on_checker: float = 0.0
    #: Where it lies on the board (centimetres in board space), when known: tells a
    #: new roll of the same numbers from dice left lying.
    at: tuple[float, float] | None = None
    #: The point it stands over, when known: (the bottom seat's number of the point,
    #: how far from the point's base, how far outside the point's strip (< 0:
    #: inside), both in checker diameters). Before a roll counts, the checkers are
    #: those of the position confirmed, and whether the die lies on one is told from
    #: them (:func:`on_checker_p`) rather than from ``on_checker``, which the camera
    #: judged from the checkers it counted around the die.
    over: tuple[int, float, float] | None = None
    #: ``over`` were the die lying on a checker, when known: the camera sees a die a
    #: checker's height above the board beyond where it stands, and the reader moves
    #: its footprint back by that much (``vision.reading.DieReading.over_raised``).
    over_raised: tuple[int, float, float] | None = None
    #: The reader's probability of each face 1..6, when known (else ``()``): which
    #: other value a die read unsure more likely shows (:func:`_die_log_p`).
    values: tuple[float, ...] = ()
    #: Each face's probability from every read of the die where it lay, pooled
    #: log-linearly (their geometric mean, made to sum to one) where it was read more
    #: than once (:func:`_mixed_reads`), else ``()``: one read that gives a face next
    #: to nothing tells against it, as the mean in ``values`` does not.
    pooled: tuple[float, ...] = field(default=(), compare=False)
    #: The surest any read of the die where it lay gave the number recorded, where it
    #: was read more than once (:func:`_mixed_reads`), else ``None`` (``p``).
    surest: float | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if self.value not in range(1, 7):
            raise ValueError(f"a die shows 1..6, not {self.value!r}")
        if self.values and len(self.values) != 6:
            raise ValueError(f"a die's values are six probabilities, not {self.values!r}")
        if self.half not in ("left", "right", "bar", None):
            raise ValueError(f"die half {self.half!r} is not left, right, bar or None")

    def faces(self) -> tuple[float, ...]:
        """The probability of each face 1..6: the reader's where known, else ``p`` for
        the value read and the rest shared by the five others.

        >>> SeenDie(2, p=0.5).faces()
        (0.1, 0.5, 0.1, 0.1, 0.1, 0.1)
        """
        if self.values:
            return self.values
        return tuple(self.p if v == self.value else (1 - self.p) / 5 for v in range(1, 7))


@dataclass(frozen=True, slots=True)
class SeenCube:
    """The doubling cube: the face up (64 while centred) and where it lies:
    ``"centre"``, ``"bottom"`` / ``"top"`` (a player's side) or ``"offered"``."""

    value: int
    place: str
    #: How sure the face is (a camera's reading); a turn to a wrong level is said
    #: only of a face read at least ``SURE_CUBE_FACE``.
    p: float = field(default=1.0, compare=False)

    def __post_init__(self) -> None:
        if self.value not in (1, 2, 4, 8, 16, 32, 64):
            raise ValueError(f"a cube face is 2..64, not {self.value!r}")
        if self.place not in ("centre", "bottom", "top", "offered"):
            raise ValueError(f"cube place {self.place!r} is not centre, bottom, top or offered")

    @property
    def level(self) -> int:
        """The cube value the cube stands for: 1 in the centre whatever face is read
        (the cube leaves the middle only when doubled and goes back there only on a
        pass, turned to 64 [001 4.4(i)]; a face is far harder to read than a place),
        else its face."""
        return 1 if self.place == "centre" else self.value


class CheckerEvidence(Protocol):
    """What a view says about the checkers, able to score any candidate position."""

    def log_likelihood(self, position: Position) -> float:
        """log P(view | the checkers are as in ``position``); only differences matter."""
        ...

    def ceiling(self) -> float:
        """An upper bound of :meth:`log_likelihood`: the view's own best explanation."""
        ...

    def guess(self, turn: int) -> Position | None:
        """The view's best single guess as a position (``turn`` on roll), or ``None``
        when it is no possible position (two colours on one point, ...)."""
        ...


@dataclass(frozen=True, slots=True)
class ExactCheckers:
    """Evidence that is sure of one position (ground truth, tests): every checker out
    of place costs ``EXACT_PENALTY``."""

    position: Position | None
    #: A layout that is no position (for a checker put on a held point): scored as
    #: this many checkers away from every position.
    impossible: int = 0

    def log_likelihood(self, position: Position) -> float:
        if self.position is None:
            return -EXACT_PENALTY * max(1, self.impossible)
        return -EXACT_PENALTY * checkers_out_of_place(self.position, position)

    def ceiling(self) -> float:
        return 0.0

    def guess(self, turn: int) -> Position | None:
        return None if self.position is None else self.position.with_turn(turn)


@dataclass(frozen=True, slots=True)
class Sighting:
    """One settled view of the table (``t`` in seconds, ``frame`` its reference)."""

    checkers: CheckerEvidence
    dice: tuple[SeenDie, ...] = ()
    cube: SeenCube | None = None
    t: float | None = None
    frame: int | str | None = None
    #: The seats (``"bottom"``, ``"top"``: the field's bottom side, where
    #: ``RefereeConfig.bottom_player`` sits, and the far side) whose arms the camera
    #: saw reach onto the board since the last view passed; empty where none was
    #: seen or the camera does not tell. Whose hands lifted and rolled the dice.
    arms: tuple[str, ...] = ()


# --- configuration ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RefereeConfig:
    profile: str = "wbf"
    match_length: int | None = None
    players: tuple[str, str] = ("player 0", "player 1")
    #: The player sitting at the field's bottom side.
    bottom_player: int = 0
    illegal_margin: float = ILLEGAL_MARGIN
    suggestions: int = 3
    tags: tuple[tuple[str, str], ...] = ()
    #: Where the match stands when the referee takes over (a match resumed, a clip
    #: that starts at a later game): the score before ``game`` and whether ``game``
    #: is the Crawford game.
    score: tuple[int, int] = (0, 0)
    game: int = 1
    crawford: bool = False


def _turns_missed(before: Position, after: Position, mover: int) -> bool:
    """Whether ``after`` and ``before`` are a turn or more of the mover's opponent
    apart: his checkers differ other than by being hit, on several points and by
    several pips — forward (a turn of his missed) or back (the match ran ahead of the
    board on plays that were not made). One checker misread is not."""
    opponent = 1 - mover
    b, a = before.boards[opponent], after.boards[opponent]
    moved = [i for i in range(24) if a[i] != b[i] and not (b[i] == 1 and a[i] == 0)]
    apart = abs(before.pips(opponent) - after.pips(opponent))
    return len(moved) >= MISSED_TURN_POINTS and apart >= MISSED_TURN_PIPS


def _one_pile_misread(seen: Position | None, result: Position, mover: int) -> bool:
    """Whether the board as read (``seen``) is the legal ``result`` but for one pile
    read a checker more or less: one of the opponent's points (his bar aside), or
    one of the mover's outside his home board. A play moves the mover's checkers,
    the opponent's only by hits, which land a checker of the mover's on the point:
    one checker of his hidden by the dice just rolled beside it (s23 clip 1803: a die
    rolled by his 7-point, his checker on the bar behind the cube) or counted twice
    is no illegal play of the mover's. Nor does a checker of the mover's vanish
    from his 13-point, or appear there (1803: one of the opening's 13-point hidden
    after 24/18 18/13): no play takes a checker off the board but from the home
    board, or brings one. But a pile of the mover's read a checker short is still
    a pile: a point where he has a checker by the play and none is read, or none
    and one is read, is a checker moved elsewhere (s35 clip 3001 at 10 s: 24/19
    onto the opponent's 6-point, his checker hidden by their five there, came
    nearest 24/21 21/16, whose checker on 16 no view showed)."""
    if seen is None:
        return False

    def apart(a: tuple[int, ...], b: tuple[int, ...]) -> list[tuple[int, int]]:
        pairs = enumerate(zip(a[:BAR], b[:BAR], strict=True))
        return [(i, abs(x - y)) for i, (x, y) in pairs if x != y]

    theirs = apart(seen.boards[1 - mover], result.boards[1 - mover])
    if seen.boards[mover] == result.boards[mover]:
        return [d for _, d in theirs] in ([], [1])
    if seen.boards[mover][BAR] != result.boards[mover][BAR] or theirs:
        return False
    mine = apart(seen.boards[mover], result.boards[mover])
    if len(mine) != 1 or mine[0][1] != 1 or mine[0][0] < 6:
        return False
    point = mine[0][0]
    return min(seen.boards[mover][point], result.boards[mover][point]) >= 1


def _bars_swapped(position: Position) -> Position | None:
    """``position`` with the two players' counts on the bar swapped (None where that
    is no position: the same counts, or more than fifteen checkers of a side).

    >>> p = Position(((0,) * 5 + (5,) + (0,) * 18 + (2,), (1,) + (0,) * 24), 0)
    >>> q = _bars_swapped(p)
    >>> q.boards[0][BAR], q.boards[1][BAR], _bars_swapped(Position.initial())
    (0, 2, None)
    """
    zero, one = list(position.boards[0]), list(position.boards[1])
    if zero[BAR] == one[BAR]:
        return None
    zero[BAR], one[BAR] = one[BAR], zero[BAR]
    try:
        return Position((tuple(zero), tuple(one)), position.turn)
    except PositionError:
        return None


@dataclass(frozen=True, slots=True)
class _BarsSwapped:
    """A view's evidence (``seen``) with the two bars' counts read the other way round:
    each position scored as ``seen`` scores it with its bars swapped
    (:func:`_bars_swapped`). A bar's colour is read from a few checkers' edges, and on
    some boards every view reads it so (s120 clip 11702 at 186-214 s)."""

    seen: CheckerEvidence

    def log_likelihood(self, position: Position) -> float:
        return self.seen.log_likelihood(_bars_swapped(position) or position)

    def ceiling(self) -> float:
        return self.seen.ceiling()

    def guess(self, turn: int) -> Position | None:
        guess = self.seen.guess(turn)
        return None if guess is None else _bars_swapped(guess) or guess


def _with_their_play(result: Position, seen: Position, mover: int) -> Position | None:
    """``result``, a legal result of the mover's roll, with his opponent's checkers
    where ``seen`` has them: his play made on it with a roll made before the board
    was seen again. A blot of the mover's where the opponent's checkers now stand
    was hit (to the bar). ``None`` where that is no play of the opponent's: a point
    held by both, checkers of his that came or went other than by bearing off (all
    of them home), or that did not go forward by at most four sixes.

    Checkers of his missing from ``seen`` where ``result`` has as many of his on the
    bar are on the bar, unseen: a bar's count is the least sure of a reading, and no
    checker is borne off while one of his is on the bar [000 r15] (s63 clip 5902 at
    316.7 s: a blot hit by 7/1* lay on the bar behind the cube, read empty, and its
    owner's premature 41 played 21/20 before any view; the 66 was flagged, the
    flag of his play missed).

    >>> home = (0,) * 5 + (5, 0, 3) + (0,) * 4 + (5,) + (0,) * 6
    >>> hit = Position((home + (1, 0, 0, 0, 0, 1), home + (0,) * 4 + (2, 0)), 0)
    >>> seen = Position((home[:17] + (1,) + (0,) * 7, hit.boards[1]), 0)  # 20/18, bar unseen
    >>> both = _with_their_play(hit, seen, 1)
    >>> both is not None and (both.boards[0][BAR], both.off(0))
    (1, 0)
    """
    opponent = 1 - mover
    mine, theirs = list(result.boards[mover]), seen.boards[opponent]
    for i in range(24):
        if theirs[23 - i]:
            if mine[i] >= 2:
                return None
            if mine[i] == 1:
                mine[i], mine[BAR] = 0, mine[BAR] + 1
    # A blot of his that ``seen`` shows gone, with as many more of his on the bar, was
    # hit by a checker that went on past it, where his opponent's checkers could have
    # passed (s164 clip 16103 at 236.5 s: 17/16 8/6 of a 21, then the opponent's early
    # 22, 15/13 13/11 11/9* 9/7, before any view; taken for 17/25 8/6 and flagged).
    extra = seen.boards[mover][BAR] - mine[BAR]
    for i in range(24):
        if (
            extra > 0
            and mine[i] == 1
            and not seen.boards[mover][i]
            and _passable(result, seen, opponent, 23 - i)
        ):
            mine[i], mine[BAR] = 0, mine[BAR] + 1
            extra -= 1
    theirs = _bar_unseen(theirs, result.boards[opponent])
    boards: list[tuple[int, ...]] = [(), ()]
    boards[mover], boards[opponent] = tuple(mine), theirs
    after = Position((boards[0], boards[1]), result.turn)
    went = result.pips(opponent) - after.pips(opponent)
    off = after.off(opponent) - result.off(opponent)
    home = all(n == 0 for n in result.boards[opponent][6:])
    if not 0 < went <= 24 or off < 0 or (off > 0 and not home):
        return None
    return after


def _passable(before: Position, after: Position, player: int, point: int) -> bool:
    """Whether a checker of ``player``'s went past his ``point`` (an index of his
    board) between ``before`` and ``after``: fewer of his lie behind it (or on the bar).

    >>> start = Position.initial()
    >>> ran = Position((start.boards[0][:16] + (1,) + start.boards[0][17:23] + (1, 0),
    ...                 start.boards[1]), 0)  # 24/17
    >>> _passable(start, ran, 0, 19), _passable(start, ran, 0, 12)
    (True, False)
    """

    def behind(pos: Position) -> int:
        return sum(pos.boards[player][point + 1 :])

    return behind(after) < behind(before)


def _unseen_on_bar(before: Position, shown: Position | None) -> Position | None:
    """``shown``, a board read after the mover's turn (on roll in ``before``), with
    checkers of his it shows borne off, beyond ``before``'s, put back on the bar where
    he had as many there: a turn that starts on the bar bears nothing off (a checker
    entered lands outside his home board [000 r15, r16]), and the bar's count is the
    least sure of a reading (s63 clip 5902 at 318 s: a checker on the bar behind the
    cube read as none, 21/20 played with it there, flagged as 25/20 21/0, a bear-off,
    not as the checker moved with one on the bar).

    >>> home = (0,) * 5 + (5, 0, 3) + (0,) * 4 + (5,) + (0,) * 6
    >>> before = Position((home + (1, 0, 0, 0, 0, 1), home + (0,) * 4 + (2, 0)), 0)
    >>> shown = Position((home[:17] + (1,) + (0,) * 7, before.boards[1]), 0)  # bar empty
    >>> describe_change(before, shown)
    '25/18 20/0'
    >>> back = _unseen_on_bar(before, shown)
    >>> back is not None and (back.boards[0][BAR], back.off(0)), describe_change(before, back)
    ((1, 0), '20/18')
    """
    if shown is None:
        return None
    mover = before.turn
    boards = list(shown.boards)
    boards[mover] = _bar_unseen(boards[mover], before.boards[mover])
    return Position((boards[0], boards[1]), shown.turn)


def _bar_unseen(seen: tuple[int, ...], before: tuple[int, ...]) -> tuple[int, ...]:
    """One player's counts ``seen``, with those of his checkers it lacks against
    ``before`` (taken as borne off) put on the bar, up to as many as ``before`` has
    there: no checker is borne off while one of his is on the bar [000 r15], and the
    bar's count is the least sure of a reading. Never more than 15 checkers: only
    those missing go on the bar.

    >>> _bar_unseen((0,) * 23 + (1, 0), (0,) * 23 + (1, 2))[BAR]
    2
    >>> _bar_unseen((0,) * 23 + (1, 0), (0,) * 23 + (2, 1))[BAR]  # one missing, one on the bar
    1
    """
    unseen = min(before[BAR], sum(before) - sum(seen))
    return seen if unseen <= 0 else (*seen[:BAR], seen[BAR] + unseen)


def _illegal_message(written: str, dice: tuple[int, int]) -> str:
    """A flag's message: the play as seen (``written``) and the roll it does not fit."""
    return f"{written or 'no move'} is not a legal play of {max(dice)}{min(dice)}"


def _flagged_play(made: Sequence[Event]) -> bool:
    """Whether ``made`` is a play flagged as illegal and nothing else: its move
    (``legal`` false) and its flag."""
    return (
        len(made) == 2
        and isinstance(made[0], MoveEvent)
        and not made[0].legal
        and isinstance(made[1], FlagEvent)
        and made[1].kind == "illegal_play"
    )


def _back_from_off(before: Position, after: Position) -> bool:
    """Whether ``after`` shows a player with checkers in play that ``before`` has
    borne off. No checker comes back from off: the match's position is wrong, most
    likely a checker hidden or misread when a flagged play was let stand (s23 clip
    1803: a checker of the 13-point not seen at the opening, the play accepted as a
    bear-off from the 24-point). Recording the closest legal play would keep the
    match a checker apart from the board, and every play after it flagged."""
    return any(after.off(p) < before.off(p) for p in (0, 1))


@dataclass(slots=True)
class _Flag:
    flag_id: str
    player: int
    before: Position
    dice: tuple[int, int]
    after: Position | None
    #: The likeliest legal result, recorded if the play must stand but cannot.
    suggestion: Position | None = None
    #: The dice are the likeliest guess at a roll the camera did not see: a
    #: correction to a legal result of another roll clears the flag too.
    dice_unseen: bool = False
    #: Dice in the opponent's right half in the view that raised the flag: his roll,
    #: not yet taken (:meth:`Referee._see_move`, :meth:`Referee._see_their_dance`).
    theirs: tuple[SeenDie, ...] = ()
    #: With ``dice_unseen``: the die (or both, :meth:`Referee._pair_beside_checker_die`)
    #: of the roll glimpsed before it was read from the play, weighing the rolls a
    #: correction may be of (live only, not replayed).
    glimpsed: tuple[SeenDie, ...] = ()
    #: The cube as seen before the view that raised the flag (live only): a cube
    #: offered since is a double (:meth:`Referee._see_double_over_flag`).
    cube_before: SeenCube | None = None
    #: The flagged play was seen taken back whole, the board as it stood before it
    #: (live only; ``after`` then holds the board guessed, no longer the play): a
    #: dance of an unlikely other roll waits for the next roll's view
    #: (:meth:`Referee._taken_back`, :meth:`Referee._reread_roll`'s ``hold``).
    taken_back: bool = False
    #: The view that raised the flag showed no die at all and no possible board (live
    #: only): a hand over the mover's dice may have hidden them, not lifted them
    #: (:meth:`Referee._see_dice_not_lifted`).
    bare: bool = False


@dataclass
class _Doubt:
    """A close call kept open: a play of unsure dice recorded as read although another
    roll, dice and board weighed together, explained it a little better (by ``lead``
    nats, under ``REREAD_MARGIN``). Each play decided after it is judged on both
    branches too: the branch of the other roll goes on with the likeliest legal play
    of the same dice from its own position, and ``lead`` adds how much better that
    play explains the board than the one recorded. When ``lead`` passes
    ``REREAD_MARGIN`` the plays are recorded again (:meth:`Referee._rejudge`); after
    ``DOUBT_PLAYS`` plays, or with the other roll far behind, the call stands.
    Views of one board are not independent; plays are, so only plays are summed.
    A play flagged as illegal since keeps the call open (``flagged``) until it is put
    right: where the board put right is a legal play only on the other branch, the
    roll was misread (:meth:`Referee._rejudge_flagged`)."""

    seq: int  # the MoveEvent of the call
    roll: tuple[int, int]  # the other roll
    #: the other branch: each play's result (the mover's Position) and its text
    branch: list[tuple[Position, str]]
    lead: float
    #: the record ends with a play flagged (its move and flag), not yet put right
    flagged: bool = False


# --- the referee ----------------------------------------------------------------------------


class Referee:
    """Follows one match from settled views; every call returns the new events.

    All events are also kept in :attr:`events` (``seq`` numbered from 0, the
    ``match_start`` first).
    """

    def __init__(self, config: RefereeConfig | None = None, *, t: float | None = None) -> None:
        self.config = config or RefereeConfig()
        state = MatchState.new(self.config.match_length, self.config.profile)
        cfg = self.config
        if cfg.game != 1 or cfg.score != (0, 0) or cfg.crawford:
            state = replace(
                state,
                score=cfg.score,
                game_number=cfg.game,
                is_crawford_game=cfg.crawford,
                crawford_done=(
                    not cfg.crawford
                    and state.match_length > 0
                    and state.match_length - 1 in cfg.score
                ),
            )
        self.state = state
        self.events: list[Event] = []
        self.flag: _Flag | None = None
        self._flags = 0
        # The table must show no dice before a new roll counts (after an invalid roll,
        # a tie in the opening, a roll that stood before its time...).
        self._need_clear = False
        self._judged: tuple[tuple[int, str, tuple[int, ...]], ...] = ()
        # After a resume: the numbers of the judged roll, all the record keeps of it.
        self._judged_numbers: tuple[int, ...] | None = None
        # The dice of the last roll judged, as read (how sure each number was).
        self._judged_dice: tuple[SeenDie, ...] = ()
        #: The players whose arms reached onto the board before the view now seen.
        self._arms_now: set[int] = set()
        # Whether a view since showed his checkers moved with those dice still lying
        # where they came to rest: he played them as they lay (live only).
        self._played_under_judged = False
        # The dice of the roll being played, as they came to rest.
        self._rolled: tuple[SeenDie, ...] = ()
        # Dice left down in this half (bottom-seat view) by a mover whose opponent
        # rolled before he lifted them: ignored until gone.
        self._stale_half: str | None = None
        # Those dice as they lay, when known: only they are ignored, so that a roll
        # made into that half (a wrong-half roll) is still seen.
        self._stale_dice: tuple[SeenDie, ...] = ()
        # The dice of the roll whose play an early roll of the opponent's interrupted,
        # as they were read (see _see_play_finished_late).
        self._interrupted: tuple[SeenDie, ...] = ()
        self._last_cube: SeenCube | None = None
        # A close call still weighed (see _Doubt); live only, not replayed.
        self._doubt: _Doubt | None = None
        # The other roll of the close call _reread_roll just declined: (lead, roll,
        # result, text).
        self._close: tuple[float, tuple[int, int], Position, str] | None = None
        # The match before the roll being played (see _see_reroll); None after a resume.
        self._before_roll: MatchState | None = None
        #: The play just judged was made with the opponent's whole turn after it
        #: unseen, the mover's next roll down (:meth:`_their_play_seen`).
        self._turn_missed = False
        # Whether that roll was not seen but read from the play (_see_unseen_roll).
        self._roll_unseen = False
        # A die seen in the roller's half when no whole roll was (see _see_unseen_roll),
        # or two beside a checker read as a die (_pair_beside_checker_die), the surer
        # first; before an opening roll counts, the dice seen.
        self._glimpsed: tuple[SeenDie, ...] = ()
        #: a checker read as a die beside two glimpsed (_pair_beside_checker_die): a
        #: die seen there again, on a checker, is that checker, until a roll counts
        #: (an opening roll too: a game may end with one kept)
        self._checker_dice: tuple[SeenDie, ...] = ()
        #: the die (or two) glimpsed of the last roll read from the play (``_roll_unseen``)
        self._unseen_glimpse: tuple[SeenDie, ...] = ()
        # How many views since the cube was seen (this one counted), and in how many
        # views in a row it was seen before that (see _cube_gone).
        self._views_without_cube, self._cube_views = CUBE_GONE_VIEWS + 1, 0
        # Whether the view being judged shows the cube back after more than
        # CUBE_GONE_VIEWS views without it, and a double it showed offered where none
        # may be made, kept for the next view to confirm (see _take_double).
        self._cube_back = False
        self._held_double: tuple[int, str] | None = None
        # One die alone in the field, seen while the cube was gone (see
        # _see_offer_passed and _see_offer_taken): the cube offered, found as a die.
        self._offer_as_die: SeenDie | None = None
        # A die seen alone in the opponent's half before the roller's roll counted
        # (see _note_wrong_half).
        self._wrong_half_die: SeenDie | None = None
        #: The die glimpsed alone whose roll was judged void for the roll after it
        #: (``LONE_DIE_NOTE``), with the seq of that judgement (live only; see
        #: :meth:`_see_lone_roll_danced`).
        self._lone_voided: tuple[int, SeenDie] | None = None
        # The match as it stood before this game's opening roll (to read it again).
        self._before_opening = state
        self._now: dict[str, Any] = {}
        #: The checkers of the view being judged (None between views).
        self._seen_checkers: CheckerEvidence | None = None
        #: The position on the table when a view since the roll read it exactly (the
        #: checkers' best guess), for :meth:`_moved_without_play`.
        self._seen_exact: Position | None = None
        # Who reports the events being made: the camera, or an observer's action.
        self._source: Source = "camera"
        self._game_started = False
        self._emit(
            MatchStartEvent,
            source="observer",
            schema_version=SCHEMA_VERSION,
            match_length=self.state.match_length,
            players=self.config.players,
            profile=self.state.profile.name,
            tags=self.config.tags,
            **({} if t is None else {"t": t}),
        )

    @classmethod
    def resume(cls, config: RefereeConfig, events: Sequence[Event]) -> Referee:
        """A referee that goes on from a match's earlier events (a restart after a
        crash): the score, the cube, the position, the dice down and an open flag are
        as those events left them. What the events do not keep (where the dice lie,
        the cube as last seen) comes back with :meth:`recall`."""
        ref = cls(config)
        if not events:
            return ref
        if not isinstance(events[0], MatchStartEvent):
            raise ValueError("an event log starts with match_start")
        ref.events = []
        withdrawn = withdrawn_seqs(events)
        for event in events:
            if event.seq not in withdrawn:
                ref._replay(event)
            elif isinstance(event, FlagEvent):
                ref._flags += 1  # flag ids stay unique
            ref.events.append(event)
        return ref

    def rewind(self, count: int) -> None:
        """Forget all but the first ``count`` events, and what was learnt since, as a
        restart from them would (:meth:`resume`): for a view whose judging failed part
        way, so that the match goes on from its record as it stood."""
        fresh = Referee.resume(self.config, self.events[:count])
        self.__dict__.update(fresh.__dict__)

    def recall(self, sighting: Sighting) -> None:
        """After :meth:`resume`: the view the referee last acted on (that of its last
        event), seen again. Judges nothing; takes from it what the events do not keep,
        as :meth:`see` took it then: where the dice of the roll lie, the cube as seen,
        whether dice left down are gone.

        >>> ref = Referee(RefereeConfig(match_length=3))
        >>> start = Position.initial()
        >>> _ = ref.see(Sighting(ExactCheckers(start)))
        >>> dice = (SeenDie(3, half="right", at=(10.0, 2.0)),
        ...         SeenDie(1, half="left", at=(-9.0, 1.0)))
        >>> [e.TYPE for e in ref.see(Sighting(ExactCheckers(start), dice=dice))]
        ['opening_roll']
        >>> again = Referee.resume(ref.config, ref.events)
        >>> again.recall(Sighting(ExactCheckers(start), dice=dice))
        >>> again.see(Sighting(ExactCheckers(start), dice=dice))  # the same view: nothing new
        []
        """
        if self._stale_half is not None and not self._stale_dice:
            self._stale_dice = tuple(d for d in sighting.dice if d.half == self._stale_half)
        dice = self._live_dice(sighting.dice)
        if self._judged_numbers is not None and dice:
            if sorted(d.value for d in dice) == sorted(self._judged_numbers):
                self._judged = _dice_key(dice)
            self._judged_numbers = None
        rolled = self.state.dice
        if self.state.phase is Phase.MOVE and rolled is not None and not self._rolled:
            if self._by_halves():
                dice = tuple(d for d in dice if d.half == self.right_half(self.state.on_roll))
            mine = [d for d in dice if d.value in rolled]
            if sorted(d.value for d in mine) == sorted(rolled):
                self._rolled = tuple(mine)
        if sighting.cube is not None and not _die_as_cube(sighting):
            self._last_cube = sighting.cube

    def _replay(self, e: Event) -> None:
        st = self.state
        if isinstance(
            e,
            (
                GameStartEvent,
                OpeningRollEvent,
                RollEvent,
                RollInvalidEvent,
                MoveEvent,
                GameEndEvent,
            ),
        ):
            # A roll counted, a play was made, a game began or ended: dice judged or left
            # down before are off the table by now (the dice of this event, below).
            self._need_clear, self._judged_numbers, self._stale_half = False, None, None
            self._stale_dice = ()
        if isinstance(e, GameStartEvent):
            if st.phase is Phase.GAME_OVER:
                st = st.next_game()
            self._game_started = True
            if e.first_player is not None:
                st = st.start_game(e.first_player)
        elif isinstance(e, OpeningRollEvent):
            self._before_opening, self._roll_unseen = st, e.note == UNSEEN_ROLL_NOTE
            st = st.opening_roll(*e.dice)
            self._game_started = False
        elif isinstance(e, RollEvent):
            self._before_roll, self._roll_unseen = st, e.note == UNSEEN_ROLL_NOTE
            st = st.roll(*e.dice, player=e.player)
            if e.note == PREMATURE_NOTE:
                self._stale_half = self.right_half(1 - e.player)
        elif isinstance(e, RollInvalidEvent):
            if st.phase is Phase.ROLL:
                st = st.invalid_roll(player=e.player)
            # the judged dice must leave the table before a new roll counts
            self._need_clear, self._judged, self._judged_numbers = True, (), e.dice
            if "premature" in e.reasons:
                self._stale_half = self.right_half(1 - e.player)
        elif isinstance(e, CorrectionEvent) and e.data.get("action") == "resync":
            player, after = e.data.get("player"), e.data.get("after")
            if isinstance(player, int) and isinstance(after, str) and st.phase is Phase.MOVE:
                passes = e.data.get("on_roll") != player
                st = st.resync(Position.from_position_id(after, turn=player), turn_passes=passes)
                self.flag = None
        elif isinstance(e, CorrectionEvent) and e.data.get("action") == "reread_dice":
            values = e.data.get("dice")
            if isinstance(values, list) and len(values) == 2 and st.phase is Phase.MOVE:
                st = st.reread_dice(int(values[0]), int(values[1]))
        elif isinstance(e, MoveEvent):
            after = Position.from_position_id(e.after, turn=e.player)
            if e.legal:
                st = st.play(after)
            else:
                before = Position.from_position_id(e.before, turn=e.player)
                shown = None if e.note == UNSEEN_RESULT_NOTE else after
                self.flag = _Flag("", e.player, before, e.dice, shown)
                self.flag.dice_unseen = self._roll_unseen
        elif isinstance(e, FlagEvent):
            self._flags += 1
            if e.kind == "illegal_play" and self.flag is not None:
                self.flag.flag_id = e.flag_id
                if e.suggestions:  # ranked best first: the stand-in should the play stand
                    self.flag.suggestion = Position.from_position_id(
                        e.suggestions[0].after, turn=self.flag.player
                    )
        elif isinstance(e, FlagClearedEvent):
            if self.flag is not None and self.flag.flag_id == e.flag_id:
                self.flag = None
        elif isinstance(e, AcceptedIllegalEvent):
            st = st.accept_illegal_play(Position.from_position_id(e.after, turn=e.player))
            self.flag = None
        elif isinstance(e, DoubleEvent):
            st = st.double(e.player, new_value=e.requested_value or e.value)
        elif isinstance(e, TakeEvent):
            st = st.take(player=e.player)
        elif isinstance(e, DropEvent):
            st = st.drop(player=e.player)
        elif isinstance(e, ResignEvent):
            st = st.resign(e.player, e.level)
        elif isinstance(e, ResignAcceptEvent):
            st = st.accept_resignation()
        elif isinstance(e, ResignRejectEvent):
            st = st.reject_resignation()
        if isinstance(e, (GameEndEvent, MatchEndEvent)):
            self._game_started = False
        self.state = st

    # --- helpers ------------------------------------------------------------------------
    def _emit(self, cls: type[Event], source: Source | None = None, **fields: Any) -> Event:
        source = source or self._source
        stamp = {k: v for k, v in self._now.items() if v is not None}
        stamp.update({k: v for k, v in fields.items() if k in ("t", "frame")})
        rest = {k: v for k, v in fields.items() if k not in ("t", "frame")}
        event = cls(seq=len(self.events), source=source, **stamp, **rest)
        self.events.append(event)
        return event

    def right_half(self, player: int) -> str:
        """The half (bottom-seat view) to the right of ``player`` [001 4.1(iv)(a)]."""
        return "right" if player == self.config.bottom_player else "left"

    def side(self, player: int) -> str:
        return "bottom" if player == self.config.bottom_player else "top"

    @property
    def game(self) -> int:
        return self.state.game_number

    def _next_flag_id(self) -> str:
        self._flags += 1
        return f"g{self.game}-{self._flags}"

    # --- the entry points ---------------------------------------------------------------
    def see(self, sighting: Sighting) -> list[Event]:
        """Take one settled view; return the events it caused (often none)."""
        first = len(self.events)
        if _die_as_cube(sighting):
            # the roll's other die boxed as the cube: the cube itself is taken to lie
            # where it was last seen, for every rule that looks at it (a double, a
            # double over a flag, the cube last seen)
            sighting = replace(sighting, cube=self._last_cube)
        sighting = self._bars_as_they_stood(sighting)
        self._now = {"t": sighting.t, "frame": sighting.frame}
        self._seen_checkers = sighting.checkers
        self._arms_now = self._arms_of(sighting)
        if sighting.cube is not None:
            self._cube_back = self._views_without_cube > CUBE_GONE_VIEWS
            self._cube_views = self._cube_views + 1 if self._views_without_cube == 0 else 1
            self._views_without_cube = 0
        else:
            self._cube_back = False
            self._views_without_cube += 1
        self._see_held_double(sighting)
        dice = self._live_dice(sighting.dice)
        if self._see_void_die_lying(dice):
            dice = self._less_checker_dice(dice)
        if self._need_clear:
            self._judged_dice = _surer_where_lying(self._judged_dice, dice)
        phase = self.state.phase
        if phase is not Phase.ROLL:
            self._offer_as_die = None
        if phase in (Phase.START, Phase.GAME_OVER):
            self._see_setup(sighting, dice)
        elif self._see_set_up_again(sighting, dice):
            pass
        elif self.flag is not None:
            self._see_flagged(sighting, dice)
        elif phase is Phase.ROLL:
            if self._see_offer_passed(sighting, dice) or self._see_offer_taken(sighting, dice):
                pass
            elif self._see_cube(sighting):
                if self.state.phase is Phase.ROLL and self.flag is None and dice:
                    # offered and taken while hands hid the table, and the doubler's
                    # roll made since: it is seen in the same view
                    self._see_roll(sighting, dice)
            elif not (
                self._see_changed_play(sighting, dice)
                or self._see_lone_reroll(sighting, dice)
                or self._see_unseen_roll(sighting, dice)
            ):
                self._see_roll(sighting, dice)
        elif phase is Phase.DOUBLED:
            self._see_answer(sighting, dice)
        elif phase is Phase.MOVE:
            self._see_move(sighting, dice)
        # a die in the view whose play was just judged is the mover's, still down (s27
        # clip 2203 at 149 s: one of his dice unseen, the other taken for a die his
        # opponent rolled in the wrong half), unless it is surely none of his dice
        if (
            self.state.phase is Phase.ROLL
            and (phase is not Phase.MOVE or self._none_of_movers(dice))
            and self.flag is None
            and self._by_halves()
        ):
            self._note_wrong_half(dice)
        if (
            self.state.phase is Phase.ROLL
            and sighting.cube is None
            and self._cube_gone()
            and len(dice) == 1
            and dice[0].half in ("left", "right")
        ):
            self._offer_as_die = dice[0]  # the cube offered, found as a die?
        if sighting.cube is not None:
            self._last_cube = sighting.cube
        self._note_exact(sighting.checkers)
        return self.events[first:]

    def _bars_as_they_stood(self, s: Sighting) -> Sighting:
        """``s``, or ``s`` with its two bars' counts read the other way round
        (:class:`_BarsSwapped`) where it shows the position on the record so and not
        as read: no play moves checkers onto or off the bar and nothing else, so the
        view shows the position unchanged, its bars' colours misread. A bar's colour
        is read from a few checkers' edges, and on some boards, from some moment, every
        view reads it so (s188 clip 18502 from 860.1 s: player 0's checker on the bar
        read as player 1's once player 1 bore off; his dances were flagged, a roll
        rolled again missed, and the board taken for turns not seen)."""
        if self.state.phase in (Phase.START, Phase.GAME_OVER):
            return s
        position = self.state.position
        flipped = _bars_swapped(position)
        if flipped is None:
            return s
        evidence = s.checkers
        if self._explains(evidence, evidence.log_likelihood(position)):
            return s
        if not self._explains(evidence, evidence.log_likelihood(flipped)):
            return s
        return replace(s, checkers=_BarsSwapped(evidence))

    def _note_exact(self, evidence: CheckerEvidence) -> None:
        """Keeps the position to be played from when this view reads it exactly (the
        view of the roll too), for :meth:`_moved_without_play`."""
        if self.state.phase is not Phase.MOVE:
            self._seen_exact = None
            return
        position = self.state.position
        if evidence.guess(position.turn) == position:
            self._seen_exact = position

    def _live_dice(self, dice: tuple[SeenDie, ...]) -> tuple[SeenDie, ...]:
        """The dice seen less those a mover left down when his opponent rolled before
        he lifted them (which stand for nothing), until they are gone; and less a
        third die on the bar (:func:`_less_bar_mark`) or found twice
        (:func:`_less_found_twice`) or read unsurely on a checker beside two, or on a
        checker where the die glimpsed alone lay (:meth:`_less_checker_top`)."""
        dice = self._less_checker_top(_less_found_twice(_less_bar_mark(dice)))
        if self._stale_half is None:
            return dice
        stale = [d for d in dice if d.half == self._stale_half]
        if self._stale_dice:
            stale = [d for d in stale if any(_same_die(d, s) for s in self._stale_dice)]
        if not stale:
            self._stale_half, self._stale_dice = None, ()
            return dice
        return tuple(d for d in dice if not any(d is s for s in stale))

    # --- before a game ----------------------------------------------------------------
    def _explains(self, evidence: CheckerEvidence, log_likelihood: float) -> bool:
        """Whether a position of this log-likelihood is a good enough explanation of
        the evidence: within ``illegal_margin`` of the evidence's own best."""
        return evidence.ceiling() - log_likelihood <= self.config.illegal_margin

    def _possible_guess(self, evidence: CheckerEvidence, turn: int) -> Position | None:
        """The evidence's best guess, when it is a position that can stand on a board."""
        guess = evidence.guess(turn)
        return guess if guess is not None and not guess.problems() else None

    def _is_opening_layout(self, s: Sighting) -> bool:
        return self._explains(s.checkers, s.checkers.log_likelihood(Position.initial()))

    def _see_setup(self, s: Sighting, dice: tuple[SeenDie, ...]) -> None:
        state = self.state
        if state.phase is Phase.MATCH_OVER:
            return
        waiting = state.phase is Phase.GAME_OVER or not self._game_started
        # the board set up for a game, nothing down but, maybe, its opening roll; for the
        # first game refereed, whatever lies about: no last game's dice can (s32 clip
        # 2703 at 0.2 s: the cube just put on the bar read as a die, and no view without
        # it came before the opening roll; the game was never seen to start)
        first_game = state.phase is Phase.START
        set_up = (
            waiting
            and (not dice or first_game or self._opening_dice(dice))
            and self._is_opening_layout(s)
        )
        under_way = False
        if state.phase is Phase.GAME_OVER:
            if not set_up:
                if not self._next_game_under_way(s):
                    return
                under_way = True
            self.state = state = state.next_game()
        if state.phase is Phase.START and not self._game_started:
            if not (set_up or under_way):
                return
            first = None
            if state.game_number > 1 and state.profile.later_games == "previous_winner":
                last = state.last_result
                first = None if last is None else last.winner
            self._emit(
                GameStartEvent,
                game=state.game_number,
                score=state.score,
                crawford=state.is_crawford_game,
                first_player=first,
            )
            self._game_started = True
            self._need_clear = False
            if first is not None:
                self.state = state.start_game(first)  # his roll: in the next view
                return
            if not dice and not under_way:
                return
        self._see_opening(s, dice)

    def _next_game_under_way(self, s: Sighting) -> bool:
        """After a game's end: the checkers show the next game's first play made, and
        no still view showed them set up for it, nor its opening roll, with nothing else
        in the way (the dice of the throw seen in the air, a die over a checker of the
        layout: train clip c5006, a whole game missed waiting for the opening layout).
        Taken where every game starts with an opening roll [000 r8] (under
        ``previous_winner`` the winner's first roll may be any of 21), and the board is
        no longer as the last game left it. The play is then read as one whose opening
        roll went unseen (:meth:`_see_unseen_opening`)."""
        state = self.state
        if state.profile.later_games == "previous_winner":
            return False
        evidence = s.checkers
        if self._explains(evidence, evidence.log_likelihood(state.position)):
            return False  # still the board the last game ended on
        return any(
            self._explains(evidence, ll)
            for _, _, ll, _, _ in self._first_plays(state.next_game(), evidence)
        )

    def _first_plays(
        self, start: MatchState, evidence: CheckerEvidence
    ) -> Iterator[tuple[tuple[int, int], MatchState, float, Position, str]]:
        """Each opening roll of the game not begun at ``start`` (player 0's die first),
        the state it leads to, and its play's best result under ``evidence``
        (:meth:`best_result`)."""
        for a, b in permutations(range(1, 7), 2):
            after = start.opening_roll(a, b)
            assert after.dice is not None
            yield (a, b), after, *self.best_result(after.position, after.dice, evidence)

    def _opening_dice(self, dice: tuple[SeenDie, ...]) -> bool:
        """Whether these dice lie as an opening roll: one in each player's right half
        [000 r8]. Seen on the board set up for a game not yet started, the setting up
        went unseen (no still view between it and the opening roll); any other dice
        still down are the last game's."""
        return len(dice) == 2 and {d.half for d in dice} == {self.right_half(0), self.right_half(1)}

    def _see_opening(self, s: Sighting, dice: tuple[SeenDie, ...]) -> None:
        if self._see_unseen_opening(s, dice):
            return
        if dice and not self._need_clear:
            self._glimpsed = dice
        if self._clear_needed(dice) or len(dice) < 2:
            return
        by_player: dict[int, SeenDie] = {}
        for player in (0, 1):
            mine = [d for d in dice if d.half == self.right_half(player)]
            if len(mine) == 2 and _seen_twice(*mine):
                mine = [max(mine, key=lambda d: d.p)]
            if len(mine) == 1:
                by_player[player] = mine[0]
        if len(by_player) != 2 or any(self._die_faults(d) for d in by_player.values()):
            return  # not yet one flat die in each player's right half [000 r8]
        d0, d1 = by_player[0].value, by_player[1].value
        if d0 == d1:
            self._judge(dice)  # a tie is rolled again [000 r8]
            return
        self._before_opening = self.state
        self.state = self.state.opening_roll(d0, d1)
        self._rolled = (by_player[0], by_player[1])
        self._game_started, self._roll_unseen, self._glimpsed = False, False, ()
        self._checker_dice = ()
        self._emit(OpeningRollEvent, dice=(d0, d1))

    def _see_unseen_opening(self, s: Sighting, dice: tuple[SeenDie, ...]) -> bool:
        """The first play of a game is on the table though its opening roll was not
        seen (a die too far or too blurred to read): the roll, and so who starts, is
        read from the play, each player's die glimpsed in his right half weighing the
        rolls as in :meth:`_reread_roll`. Recorded with ``UNSEEN_ROLL_NOTE``; dice then
        seen in the half of the player who did not start are his roll."""
        state = self.state
        if state.phase is not Phase.START or not self._game_started or self._is_opening_layout(s):
            return False
        if dice and (len(dice) < 2 or len({d.half for d in dice}) > 1):
            return False  # the opening dice still down: not over yet [001 4.1(vi)(a)]
        evidence = s.checkers
        glimpsed = {
            p: next((d for d in self._glimpsed if d.half == self.right_half(p)), None)
            for p in (0, 1)
        }
        best: tuple[float, tuple[int, int], float, Position, str, MatchState] | None = None
        # the roll the glimpses make likeliest, its play illegal: the board as the view
        # reads it at best, at the odds against an illegal play
        illegal: tuple[float, tuple[int, int], MatchState] | None = None
        both = all(glimpsed.values())
        for roll, after, ll, pos, text in self._first_plays(state, evidence):
            prior = sum(
                _die_log_p(g, v) for g, v in zip((glimpsed[0], glimpsed[1]), roll, strict=True) if g
            )
            if best is None or ll + prior > best[0]:
                best = (ll + prior, roll, ll, pos, text, after)
            if both and (illegal is None or prior > illegal[0]):
                illegal = (prior, roll, after)
        assert best is not None
        if illegal is not None:
            prior, roll, after = illegal
            score = evidence.ceiling() + ILLEGAL_LOG_ODDS + prior
            if score > best[0] and self._moved_alone(evidence, after.position, after.on_roll):
                # (s98 clip 9501 at 285.6 s: 61 glimpsed, the 1 at 1.00, played 13/6
                # 8/7, which is 62's 13/7 8/6 on the board: read as 62 and not flagged)
                best = (score, roll, -math.inf, after.position, "", after)
        _, roll, ll, pos, text, after = best
        legal = self._explains(evidence, ll)
        if not legal and not any(glimpsed.values()):
            return False  # no die was ever seen: they may still be down, unseen
        self._before_opening, self.state = state, after
        self._glimpsed, self._rolled, self._game_started = (), (), False
        self._checker_dice = ()
        self._roll_unseen = True
        self._emit(OpeningRollEvent, dice=roll, note=UNSEEN_ROLL_NOTE)
        if not legal:  # no opening roll makes this play: flagged under the likeliest
            self._decide_play(s)
            return True
        self._legal_move(pos, text)
        if self.state.phase is Phase.ROLL:
            mover = 1 - self.state.on_roll
            self._see_roll(s, tuple(d for d in dice if d.half != self.right_half(mover)))
        return True

    def _clear_needed(self, dice: tuple[SeenDie, ...]) -> bool:
        """Whether these dice are still the ones of a roll already judged (an invalid
        roll, an opening tie): a new roll shows other dice, or none in between."""
        if self._judged_numbers is not None and dice:
            if sorted(d.value for d in dice) == sorted(self._judged_numbers):
                self._judged = _dice_key(dice)  # still lying there: now with their places
            self._judged_numbers = None
        if self._need_clear and dice and _same_places(dice, self._judged_dice):
            return True  # the same dice read again, another number read on one of them
        judged = self._judged_dice
        placed = all(d.at is not None for d in (*dice, *judged))
        if self._need_clear and placed and len(dice) > len(judged) > 0:
            lying = [d for d in dice if any(_near(d, j, STILL_CM) for j in judged)]
            if _same_places(lying, judged):
                # the dice judged still lie there, others beside them: those are his
                # opponent's, rolled early, not a roll of his made again (s63 clip
                # 5902 at 314.0 s: a flat 66 read cocked judged a second time)
                return True
        if self._need_clear and (not dice or _dice_key(dice) != self._judged):
            self._need_clear = False
        return self._need_clear

    def _judge(self, dice: Sequence[SeenDie]) -> None:
        self._need_clear = True
        self._glimpsed = ()  # a die of these, seen before them, is no other roll's
        self._judged = _dice_key(dice)
        self._judged_dice = tuple(dice)
        self._played_under_judged = False

    # --- rolling ----------------------------------------------------------------------------
    def _die_faults(self, die: SeenDie) -> list[str]:
        out = []
        if die.cocked >= COCKED_P:
            out.append("cocked")
        if die.half is None:
            out.append("off_board")
        elif self._on_checker(die) >= DIE_FAULT_P and self.state.profile.die_on_checker_invalid:
            out.append("on_checker")
        return out

    def _on_checker(self, die: SeenDie, position: Position | None = None) -> float:
        """How likely ``die`` lies on a checker: before a roll counts, from the point
        it stands over and the checkers the position confirmed has there; else (the
        checkers may be moving) as the camera judged. Where it stands is taken both
        ways, on the board and a checker's height up (``over_raised``), and the
        likelier kept: a die standing within a pile's reach on the board plane lies on
        it, and a die on a checker seen from a low camera maps onto the board beyond
        the pile, its footprint found outside it (s67 clip 6303, its camera 62 cm above
        the board: of six dice on a checker two called so, four with it; of 719 dice
        beside a pile on the clips of s64-s67, the same two called on one either way,
        ``python bench/on_checker_raised.py clips/s64 clips/s65 clips/s66 clips/s67``).

        ``position``: the checkers the die fell among, where the roll is judged after
        its play began (:meth:`_likeliest_fault`)."""
        if die.over is None or (position is None and self.state.phase is not Phase.ROLL):
            return die.on_checker
        bottom = self.config.bottom_player
        boards = (self.state.position if position is None else position).boards

        def on_pile(n: int, depth: float, side: float) -> float:
            return on_checker_p(depth, side, boards[bottom][n - 1] or boards[1 - bottom][24 - n])

        p = on_pile(*die.over)
        return p if die.over_raised is None else max(p, on_pile(*die.over_raised))

    def roll_faults(self, player: int, dice: Sequence[SeenDie]) -> list[str]:
        """Why a roll of these dice by ``player`` is not valid (empty: valid)
        [001 4.1(iv), 000 r9]."""
        reasons: list[str] = []
        for d in dice:
            for r in self._die_faults(d):
                if r not in reasons:
                    reasons.append(r)
        on_surface = [d for d in dice if d.half is not None]
        halves = {d.half for d in on_surface}
        if self.state.profile.dice_half == "right":
            if any(h != self.right_half(player) for h in halves):
                reasons.append("wrong_half")
        elif len(halves) > 1:
            reasons.append("different_halves")
        return reasons

    def _cube_gone(self) -> bool:
        """Whether the view being judged shows no cube where one lay in the few views
        before it (``CUBE_GONE_VIEWS``, ``CUBE_LYING_VIEWS``): the cube moved. Never in
        the Crawford game, where no one doubles [001 4.4(i)]: a cube seen there and
        gone was something else read as the cube (s125 clip 12201 at 451.4-463.5 s: a
        die of an 11 read as a cube offered; gone with the roll, it kept the 5 of the
        next roll from being glimpsed, and 20/15 15/12 was read as 62's)."""
        return (
            not self.state.is_crawford_game
            and 1 <= self._views_without_cube <= CUBE_GONE_VIEWS
            and self._cube_views >= CUBE_LYING_VIEWS
        )

    def _note_glimpse(self, dice: Sequence[SeenDie]) -> None:
        """One die alone in the right half of the player on roll, before his roll
        counts: kept as a glimpse of a roll the camera may miss (read by
        :meth:`_see_unseen_roll` and :meth:`_likely_dances`). While the dice of a roll
        judged must still leave the table, only a die of none of their numbers: the
        judged dice are gone and he rolled again (s28 clip 2301 at 431 s: a 55 on a
        checker, then a 44 of which one 4 was seen, then played).

        Not while the cube is gone from where it was seen just before
        (``CUBE_GONE_VIEWS``): the die may be the cube, offered or in hand, found as a
        die (s40 clip 3503 at 288 s: a red cube offered in the field read as a 1, then
        the roll after the take judged a roll again)."""
        if self._cube_gone():
            return
        dice = self._less_checker_dice(dice)
        mine = [d for d in dice if d.half == self.right_half(self.state.on_roll)]
        judged: set[int] = set()
        if self._need_clear:  # their numbers; after a resume perhaps unknown: any
            judged = {d.value for d in self._judged_dice} or set(range(1, 7))
        if len(mine) == 1 and mine[0].value not in judged:
            # where it lies, its surest read so far: a die found alone may be two
            # touching, boxed as one, the box shifting between them from view to view
            # (s72 clip 6803 at 198.4 s: a 31 seen as a 1 at 1.00, then as a 3 at 0.53
            # 3.2 cm away; the opponent's 43 rolled early into that half was then
            # taken for the player's roll, the glimpse unsure, and his legal play of
            # 31 flagged)
            kept = self._glimpsed[:1]
            if not (
                kept
                and kept[0].p >= mine[0].p
                and kept[0].value not in judged
                and _near_known(kept[0], mine[0], TOUCHING_CM)
            ):
                self._glimpsed = tuple(mine)
        elif len(mine) == 3:
            found = self._pair_beside_checker_die(mine, judged)
            if found is not None:
                self._glimpsed, checker = found
                self._checker_dice = (checker,)
                return
            # one die read surely (``REREAD_P``) beside one boxed twice, neither box
            # read surely (:func:`_less_found_twice` leaves the view): the sure one is
            # a glimpse, kept at its surest where it lies (s45 clip 4005 at 513 s: a
            # 6 at 0.96 beside a 3 at 0.65 and a 5 at 0.33 2 cm apart, then 24/18)
            least = min(mine, key=lambda d: d.p)
            near = [d for d in mine if d is not least and _near_known(d, least, BOXED_TWICE_CM)]
            if len(near) != 1:
                return  # (the third die near the least sure too: no one twin)
            die = next(d for d in mine if d is not least and d is not near[0])
            if die.p < REREAD_P or _near_known(die, near[0], BOXED_TWICE_CM) or die.value in judged:
                return
            kept = self._glimpsed[:1]
            if not (kept and _same_die(kept[0], die) and kept[0].p >= die.p):
                self._glimpsed = (die,)

    def _pair_beside_checker_die(
        self, mine: Sequence[SeenDie], judged: set[int]
    ) -> tuple[tuple[SeenDie, SeenDie], SeenDie] | None:
        """Of three dice in the right half of the player on roll, the two that are
        his roll (the surer first) and the third, where that lies on a checker of the
        confirmed position (``DIE_FAULT_P``) and they on none, both read surely
        (``REREAD_P``), apart (``BOXED_TWICE_CM``) and of no number judged: the camera
        may take a checker's top for a die (a light checker's centre dot reads as a
        1). The two are kept as a glimpse
        of both dice of a roll the camera did not take, weighing the roll read from
        his play (:func:`_glimpse_log_p`; s80 clip 7703 at 341 s: a 22 seen at 1.00
        beside a checker read as a 1 at 0.99, then 9/7 7/5 5/3 3/1, recorded as 62
        making the same 9/1). Else None."""
        on = [d for d in mine if self._on_checker(d) >= DIE_FAULT_P]
        if len(on) != 1:
            return None
        a, b = sorted((d for d in mine if d is not on[0]), key=lambda d: -d.p)
        if any(d.p < REREAD_P or d.value in judged for d in (a, b)):
            return None
        if _near_known(a, b, BOXED_TWICE_CM):
            return None
        return (a, b), on[0]

    def _less_checker_top(self, dice: tuple[SeenDie, ...]) -> tuple[SeenDie, ...]:
        """``dice`` less a third die read unsurely (under ``CHECKER_TOP_P``) on a
        checker (``DIE_FAULT_P``) beside two read surely (``REREAD_P``) on none: a
        checker's top taken for a die, the roll the two. s87 clip 8401 at 590.1-595.0
        s: a checker on the 2-point read as a 1 at 0.38-0.39 beside the mover's 54 and
        then beside his opponent's 46 rolled into the wrong half, which went unjudged.
        (A checker read surely as a die is weighed where the roll is glimpsed,
        :meth:`_pair_beside_checker_die`.) It stays a checker read as a die until a
        roll is recorded (:meth:`_less_checker_dice`): alone once the two are lifted,
        it is no die of his still down (s190 clip 18701 at 314.5 s: a checker's top
        read as a 5 at 0.32 beside a 51 judged invalid for a flat 5 read cocked;
        25/24 played and the dice lifted, the play was taken for one not over, and
        its 5 unplayed went unflagged until he put it right).

        So is one read surely that lies where the die glimpsed alone lay, and may show
        its face: it stayed while the two came, and a die on a checker is rolled again
        with its fellow [000 r9]. It is kept as a checker read as a die
        (:meth:`_less_checker_dice`) and the glimpse dropped, for no roll made again
        to be judged from it (s87 clip 8401 at 28-34 s: a light checker's ring read
        as a 1 at 0.93, glimpsed alone, then beside player 1's 43 rolled into the
        wrong half, unjudged; his 61 after it was taken for a roll made again, a void
        roll recorded)."""
        if len(dice) != 3:
            return dice
        lone = self._glimpsed[0] if len(self._glimpsed) == 1 else None

        def stayed(d: SeenDie) -> bool:
            return lone is not None and _near_known(lone, d) and _may_show_alike(lone, d)

        on = [
            d
            for d in dice
            if (d.p < CHECKER_TOP_P or stayed(d)) and self._on_checker(d) >= DIE_FAULT_P
        ]
        if len(on) != 1:
            return dice
        rest = tuple(d for d in dice if d is not on[0])
        if any(d.p < REREAD_P or self._on_checker(d) >= DIE_FAULT_P for d in rest):
            return dice
        self._checker_dice = (on[0],)
        if on[0].p >= CHECKER_TOP_P:
            self._glimpsed = ()
        return rest

    def _less_checker_dice(self, dice: Sequence[SeenDie]) -> tuple[SeenDie, ...]:
        """``dice`` less any lying on a checker where a checker was read as a die
        beside two glimpsed (:meth:`_pair_beside_checker_die`), whatever number it
        shows now: that checker again, no die (s82 clip 7902 at 671.0 s: a light
        checker read as a 3 at 0.28-0.37 beside a 52, then alone once the 52 was
        lifted, taken for a die of his still down and then for a glimpse of his roll:
        his illegal play 6/3 5/0 went unflagged until he put it right, and the roll
        was read from the play as 61)."""
        if not self._checker_dice:
            return tuple(dice)
        return tuple(
            d
            for d in dice
            if not (
                any(_near_known(d, c) for c in self._checker_dice)
                and self._on_checker(d) >= DIE_FAULT_P
            )
        )

    def _see_void_die_lying(self, dice: tuple[SeenDie, ...]) -> bool:
        """A die lying where the die glimpsed alone lay, of its face, on a checker
        (``DIE_FAULT_P``), after the roll that die was taken for was judged void when
        he rolled again (``LONE_DIE_NOTE``), in the same turn: it was never picked
        up, and players pick up both dice to roll again [001 4.1(iv), 000 r9]: it is
        no die of a roll but a checker's top read as a die (or a thing lying there).
        The void roll is withdrawn (``correction``, ``action`` ``lone_die_stayed``)
        and the die kept as a checker read as a die (:meth:`_less_checker_dice`). Not
        a die of the roll made since, nor of a roll judged, lying there, nor one with
        one other die in his half (a roll of his landed there). (s87 clip 8401
        at 28-34 s: a light checker's ring read as a 1 at 0.93, glimpsed alone, then
        gone from the view that showed player 1's 43 rolled into the wrong half: a
        void roll recorded before the 43's, and once it showed again, another before
        his 61.) Returns whether that was so."""
        voided = self._lone_voided
        if voided is None or self.flag is not None:
            return False
        seq, lone = voided
        live = self._live_events()
        at = next((k for k, e in enumerate(live) if e.seq == seq), None)
        if at is None or any(isinstance(e, (MoveEvent, GameStartEvent)) for e in live[at + 1 :]):
            self._lone_voided = None  # withdrawn already, or his turn is over
            return False
        down = (*self._rolled, *self._judged_dice)
        lying = [
            d
            for d in dice
            if _near_known(lone, d)
            and _may_show_alike(lone, d)
            and self._on_checker(d) >= DIE_FAULT_P
            and not any(_near_known(d, r) for r in down)
        ]
        if len(lying) != 1:
            return False
        # one other die in his half beside it: a roll of his landed there
        half = self.right_half(cast(RollInvalidEvent, live[at]).player)
        if sum(1 for d in dice if d is not lying[0] and d.half == half) == 1:
            return False
        self._emit(
            CorrectionEvent,
            data={"action": "lone_die_stayed", "withdraws": [seq]},
            target_seq=seq,
            note="the die seen alone still lies where it lay: no roll of his was void",
        )
        self._rebuild()
        self._checker_dice, self._glimpsed = (lying[0],), ()
        return True

    def _see_lone_reroll(self, s: Sighting, dice: tuple[SeenDie, ...]) -> bool:
        """One die alone on the table, in the right half of the player on roll, of
        another number than the die of his glimpsed there and not where that lay,
        both read surely (``GLIMPSE_GONE_P``), the checkers unmoved: he rolled, the
        camera found one die of it, and he rolled again without a play. Players roll
        again only after a roll that must be repeated [001 4.1(iv), 000 r9]: the roll
        glimpsed was invalid, for a fault of the die not found (``REROLL_NOTE``; a die
        on a checker, where the profile makes it invalid, is the die the camera misses
        most, else a cocked one). The new die is kept as a glimpse of the new roll.
        Not where a roll with the glimpsed number would leave him no play: he may
        have danced, and the die be his opponent's, rolled in the wrong half. (s33
        clip 2804 at 44 s and s37 clip 3204 at 52 s: a 12 and a 15 whose 1 lay on a
        checker unseen, then 11 and 22, each seen by one die.) Returns whether the
        roll was judged."""
        state = self.state
        roller = state.on_roll
        if not self._by_halves() or self._need_clear or state.dice is not None:
            return False
        dice = self._less_checker_dice(dice)
        if len(dice) != 1 or dice[0].half != self.right_half(roller) or not self._glimpsed:
            return False
        die, was = dice[0], self._glimpsed[0]
        if was.half != die.half or was.at is None or die.at is None:
            return False
        if die.value == was.value or _near(die, was) or min(die.p, was.p) < GLIMPSE_GONE_P:
            return False
        if any(_same_die(die, other) for other in self._glimpsed[1:]):
            return False  # the other die of two glimpsed (_pair_beside_checker_die)
        if not self._explains(s.checkers, s.checkers.log_likelihood(state.position)):
            return False
        if any(was.value in roll for roll in self._dancing_rolls(state.position)):
            return False
        reason = "on_checker" if state.profile.die_on_checker_invalid else "cocked"
        self.state = state.invalid_roll(player=roller)
        self._emit(RollInvalidEvent, player=roller, dice=None, reasons=(reason,), note=REROLL_NOTE)
        self._glimpsed = (die,)
        return True

    def _none_of_movers(self, dice: Sequence[SeenDie]) -> bool:
        """Whether each of ``dice``, seen in the view that judged the play, is surely
        none of the mover's two dice: read surely as another number
        (:func:`_may_show_alike`), and lying away from where his dice lay (s114 clip
        11103 at 483.5 s: after a 52, a 1 read at 1.00 11 cm from them, his
        opponent's 11 rolled into the wrong half, its other die unseen)."""
        rolled = self._rolled
        if len(rolled) != 2 or any(r.at is None for r in rolled):
            return False
        return all(
            d.at is not None and not _may_show_alike(d, r) and not _near_known(d, r)
            for d in dice
            for r in rolled
        )

    def _note_wrong_half(self, dice: Sequence[SeenDie]) -> None:
        """One die alone in the right half of the opponent of the player on roll, none
        in his own and none of the opponent's last roll lying there: kept; should his
        roll then come in his own half, the die was of a roll he made in the wrong
        half, its other die missed, and he rolled again (:meth:`_roll`).

        The opponent's last roll's dice are those seen of it, or, where it was read
        from his play, the die glimpsed of it (s40 clip 3502 at 59 s: that die seen
        again after the play was taken for a roll into the wrong half).

        Not while the cube is gone from where it was seen just before
        (``CUBE_GONE_VIEWS``), as for a glimpse (:meth:`_note_glimpse`): the die may
        be the cube offered in the field (s98 clip 9502 at 56.2 s: player 1 doubled,
        the cube offered in player 0's half read as a 1 at 0.93; after the take his
        55 in his own half was taken for a roll again, the cube for his roll into
        the wrong half)."""
        roller = self.state.on_roll
        theirs = [d for d in dice if d.half == self.right_half(1 - roller)]
        if len(theirs) != 1 or len(dice) != 1 or self._need_clear or self._cube_gone():
            return
        die = theirs[0]
        last = (*self._rolled, *(self._unseen_glimpse if self._roll_unseen else ()))
        if any(_near_known(die, r) for r in last):
            return
        self._wrong_half_die = die

    def _see_roll(self, s: Sighting, dice: tuple[SeenDie, ...]) -> None:
        if self._by_halves():
            self._note_glimpse(dice)
        if len(dice) == 1 and self._see_unseen_dance_by_one(s, dice[0]):
            return
        if len(dice) == 2 and self._played_before_this(s, dice):
            return
        if self._clear_needed(dice) or len(dice) < 2:
            return
        roller = self.state.on_roll
        if len(dice) == 2:
            if not self._see_unseen_dance(s, roller, dice):
                self._roll(roller, dice)
            return
        mine = [d for d in dice if d.half == self.right_half(roller)]
        if len(mine) == 2 and len(dice) - len(mine) <= 2:
            # The last mover's dice are still down: this roll came before his turn
            # was over [001 4.1(v)(a)].
            self._premature_roll(roller, mine)

    def _see_unseen_dance(self, s: Sighting, roller: int, dice: Sequence[SeenDie]) -> bool:
        """Two dice, faulty for ``roller`` only by lying in the opponent's right half
        beyond what they show for the opponent (a die cocked, say), while the checkers
        stand as they were:
        either ``roller`` rolled in the wrong half [001 4.1(iv)(a)], or his roll was
        missed, left him no play (a dance needs no checker to move) and these are his
        opponent's dice. The dance is taken when a die of his was glimpsed
        (:meth:`_likely_dances`): the roll he danced with is recorded
        (``UNSEEN_DANCE_NOTE``, the likeliest of those rolls given the die glimpsed),
        then his empty play, then the opponent's roll; else the roll is judged his
        (and put right by :meth:`_see_missed_turn` should the opponent play it).
        Returns whether it was taken."""
        state = self.state
        if not self._by_halves() or state.dice is not None:
            return False
        other = 1 - roller
        if any(d.half != self.right_half(other) for d in dice):
            return False
        # faulty for him by the half alone, beyond what they show for the opponent: a
        # die that looks cocked makes them the opponent's invalid roll, not a roll of
        # his with two faults (s34 clip 2903 at 174 s: on the bar, a 11 seen by one
        # die, then the opponent's 64, its 6 read cocked at 0.79)
        theirs = self.roll_faults(other, dice)
        if "wrong_half" in theirs or set(self.roll_faults(roller, dice)) != {*theirs, "wrong_half"}:
            return False
        if not self._explains(s.checkers, s.checkers.log_likelihood(state.position)):
            return False
        dances = self._likely_dances(state.position)
        if not dances:
            return False
        self._unseen_dance(roller, dances)
        if self.state.phase is Phase.ROLL:
            self._roll(other, dice)
        return True

    def _see_unseen_dance_by_one(self, s: Sighting, die: SeenDie) -> bool:
        """One die in the right half of the opponent of the player on roll, after a
        die of the player's was glimpsed in his own half and is gone, the checkers
        unmoved, and a roll with that die would leave him no play: he danced, unseen,
        and this is his opponent's roll, its other die missed (s30 clip 2501 at 431 s:
        a 43 on the bar against a closed 3 and 4, seen by its 4, then the opponent's
        54 seen by its 4). The dance is recorded (:meth:`_unseen_dance`) and the die
        kept as a glimpse of the opponent's roll. Returns whether it was taken."""
        state = self.state
        roller = state.on_roll
        glimpsed = self._glimpsed[:1]
        if not self._by_halves() or state.dice is not None or self._need_clear or not glimpsed:
            return False
        if die.half != self.right_half(1 - roller) or glimpsed[0].half != self.right_half(roller):
            return False
        if not self._explains(s.checkers, s.checkers.log_likelihood(state.position)):
            return False
        dances = [r for r in self._likely_dances(state.position) if glimpsed[0].value in r]
        if not dances:
            return False
        self._unseen_dance(roller, dances)
        if self.state.phase is Phase.ROLL:
            self._glimpsed = (die,)
        return True

    def _played_before_this(self, s: Sighting, dice: Sequence[SeenDie]) -> bool:
        """One die in the right half of the player on roll, one in his opponent's,
        and the checkers already show a legal play of a roll with his die: he rolled
        unseen (the other die missed) and played; his die is still down, the other is
        his opponent's, rolled early. No roll of his is judged from them (two halves:
        a wrong-half roll); his play is read once he lifts his die
        (:meth:`_see_unseen_roll`). (s26fix clip 2101 at 60 s: a 53 seen by its 3,
        played, and a 33 rolled before the 3 was lifted.)"""
        if not self._by_halves():
            return False
        roller = self.state.on_roll
        mine = [d for d in dice if d.half == self.right_half(roller)]
        theirs = [d for d in dice if d.half == self.right_half(1 - roller)]
        evidence, before = s.checkers, self.state.position
        if len(mine) != 1 or len(theirs) != 1:
            return False
        if self._explains(evidence, evidence.log_likelihood(before)):
            return False
        for other in range(1, 7):
            ll, pos, _ = self.best_result(before, (mine[0].value, other), evidence)
            if pos != before and self._explains(evidence, ll):
                return True
        return False

    @staticmethod
    def _dancing_rolls(position: Position) -> list[tuple[int, int]]:
        """The rolls that leave the player on roll no play (the checkers stay)."""
        return [
            roll
            for roll in combinations_with_replacement(range(6, 0, -1), 2)
            if _dances(position, roll)
        ]

    def _likely_dances(self, position: Position) -> list[tuple[int, int]]:
        """The rolls that leave the player on roll no play, when he is likely to have
        rolled one and danced: his roll judged invalid this turn, if its numbers leave
        him no play (he took it as valid, the fault the camera's, and lifted his dice
        with nothing to move); else every dancing roll, when a die of his was glimpsed
        since the last play (since the judgement, where a roll was judged: he rolled
        again) and is gone, the checkers unmoved. Else none: a missed roll is no
        likelier for a player who would often dance (on the bar against a closed
        board) — a camera that sees dice at all sees most of them, and rolls in the
        wrong half happen there too.

        s39 clip 3403 at 469 s: a 43 in the wrong half judged invalid, the 52 rolled
        again seen as a 5 alone, no play on the bar, and the opponent's double taken
        for an illegal double of the roller's; the double and the pass were lost."""
        judged = self._judged_roll(self.state.on_roll)
        if judged is not None:
            roll = (max(judged), min(judged))
            if _dances(position, roll):
                return [roll]
        # a judgement clears the glimpse: one seen since is of the roll made again
        return self._dancing_rolls(position) if self._glimpsed else []

    def _unseen_dance(self, roller: int, dances: Sequence[tuple[int, int]]) -> None:
        """Record a roll of ``roller`` that left him no play, made without the camera
        seeing it, or judged invalid and taken by him as valid: the likeliest of
        ``dances`` given a die glimpsed in his half (else the first non-double),
        ``UNSEEN_DANCE_NOTE`` or ``JUDGED_DANCE_NOTE``, then his empty play."""
        state = self.state
        glimpsed = self._glimpsed[:2]
        roll = max(
            dances,
            key=lambda r: (_roll_log_prior(r, glimpsed), r),
        )
        invalid = self._judged_invalid(roller)
        note = UNSEEN_DANCE_NOTE
        if invalid is not None and sorted(invalid.dice or ()) == sorted(roll):
            # the judgement is withdrawn, as for a roll played as it lay
            # (:meth:`_see_unseen_roll`): the roll stood (s97 clip 9403 at 524.1 s: a
            # flat 4 read cocked at 0.89, the 42 a dance, kept as a roll made invalid)
            self._take_judged_as_valid(invalid)
            note = JUDGED_DANCE_NOTE
        self._unseen_roll(roller, roll, note)
        self._legal_move(state.position, "")

    def _unseen_roll(self, roller: int, roll: tuple[int, int], note: str) -> None:
        """Record a roll of ``roller`` that no view showed whole, read from what
        followed it (``note`` says how); his play is recorded next by the caller."""
        self._unseen_glimpse = self._glimpsed[:2]
        self._glimpsed, self._wrong_half_die, self._checker_dice = (), None, ()
        self._before_roll, self._roll_unseen = self.state, True
        self.state = self.state.roll(*roll, player=roller)
        self._rolled = ()
        self._emit(RollEvent, player=roller, dice=roll, note=note)

    def _judged_wrong_half(self, invalid: RollInvalidEvent) -> tuple[SeenDie, ...] | None:
        """The two dice of ``invalid``, a roll judged invalid only for lying in the
        wrong half (by halves), as they were seen, when they are a valid roll of the
        opponent of the player on roll; else None."""
        dice = self._judged_dice
        if (
            invalid.dice is None
            or tuple(invalid.reasons) != ("wrong_half",)
            or not self._by_halves()
            or len(dice) != 2
            or sorted(d.value for d in dice) != sorted(invalid.dice)
            or self.roll_faults(1 - self.state.on_roll, dice)
        ):
            return None
        return dice

    def _see_missed_turn(
        self, s: Sighting, dice: tuple[SeenDie, ...], invalid: RollInvalidEvent
    ) -> bool:
        """The roll judged invalid (``invalid``, :meth:`_judged_invalid`) only for lying
        in the wrong half was the opponent's, after a turn of the roller's that the
        camera missed: a dance (his checkers as they were) or a play (one of his
        ``UNSEEN_TURN_TRIES`` likeliest, of any roll); the opponent's checkers have
        since moved as a play of the numbers judged, or of numbers they may have been
        misread for (``ILLEGAL_LOG_ODDS``; the dice are then read again,
        ``reread_dice``), and both turns show better than either alone. The invalid
        roll is withdrawn (``correction``, ``action`` ``dance_unseen`` or
        ``turn_unseen``), the roller's turn recorded, the opponent's roll counted, and
        his play decided as any other: once his dice are lifted. Returns whether that
        was so."""
        state = self.state
        judged_dice = self._judged_wrong_half(invalid)
        if judged_dice is None:
            return False
        judged = (judged_dice[0].value, judged_dice[1].value)
        roller = state.on_roll
        other = 1 - roller
        before = state.position
        evidence = s.checkers
        first = (max(judged), min(judged))
        mine_ll = self.best_result(before, first, evidence)[0]
        # The roller's turn the camera missed: a dance, or a play of any roll.
        dances = self._dancing_rolls(before)
        turns: list[tuple[tuple[int, int] | None, Position, str]] = []
        if dances:
            turns.append((None, before, ""))
        # His play is judged with his opponent's on the board too: his likeliest
        # results alone may explain the opponent's moves as hits; a few are tried.
        # A roll of his judged invalid before, for a die read cocked alone, and played
        # as it lay: a result it makes is his play of it (s77 clip 7404 at 166.4 s: a
        # flat 54 read cocked, 4/0 4/0, the opponent's 11 then judged his roll again
        # in the wrong half; 4/0 4/0 was recorded as the first roll that makes it, 65).
        earlier = self._cocked_before(invalid)
        lay = (
            None
            if earlier is None or earlier.dice is None
            else (max(earlier.dice), min(earlier.dice))
        )
        plays: dict[Position, tuple[float, tuple[int, int], str]] = {}
        for own in [*([lay] if lay else []), *combinations_with_replacement(range(6, 0, -1), 2)]:
            for pos, made in legal_plays(before, own).items():
                ll = evidence.log_likelihood(pos)
                if pos != before and (pos not in plays or ll > plays[pos][0]):
                    plays[pos] = (ll, own, made[0].mat_text() if made else "")
        ranked = sorted(plays.items(), key=lambda kv: (-kv[1][0], kv[0].position_id()))
        for pos, (_, own, text) in ranked[:UNSEEN_TURN_TRIES]:
            turns.append((own, pos, text))
        # both turns must show better than either alone
        alone = max(mine_ll, ranked[0][1][0]) if ranked else mine_ll
        # The dice as judged, or as they lie now where they still do, may have been
        # misread: another roll they leave likely enough (``ILLEGAL_LOG_ODDS``) will do.
        theirs_now = [d for d in dice if d.half == self.right_half(other)]
        seen = [judged_dice, *([theirs_now] if len(theirs_now) == 2 else [])]

        def prior(roll: tuple[int, int]) -> float:
            return sum(_roll_log_p(d, roll) for d in seen)

        base = prior(first)
        best: tuple[float, tuple[int, int], int] | None = None
        for k, (own_roll, own_after, _) in enumerate(turns):
            after = state.roll(*(own_roll or dances[0]), player=roller).play(own_after)
            if after.phase is not Phase.ROLL:
                continue  # his play ended the game
            pick: tuple[tuple[bool, float, float], tuple[int, int]] | None = None
            for roll in combinations_with_replacement(range(6, 0, -1), 2):
                p = prior(roll)
                if roll != first and p - base < ILLEGAL_LOG_ODDS:
                    continue
                ll, pos, _ = self.best_result(after.position, roll, evidence)
                if pos == after.position or not self._explains(evidence, ll) or ll <= alone:
                    continue
                key = (roll == first, p, ll)
                if pick is None or key > pick[0]:
                    pick = (key, roll)
            if pick is not None and (best is None or pick[0][2] > best[0]):
                best = (pick[0][2], pick[1], k)
        if best is None:
            return False
        _, roll, k = best
        own_roll, own_after, own_text = turns[k]
        # the roll judged cocked, played as it lay, is withdrawn with it
        as_lay = earlier is not None and own_roll is not None and own_roll == lay
        withdraws = [invalid.seq, *([earlier.seq] if as_lay and earlier is not None else [])]
        self._emit(
            CorrectionEvent,
            data={
                "action": "dance_unseen" if own_roll is None else "turn_unseen",
                "withdraws": withdraws,
            },
            target_seq=invalid.seq,
        )
        self._rebuild()
        if own_roll is None:
            self._unseen_dance(roller, dances)
        else:
            self._unseen_roll(roller, own_roll, TAKEN_VALID_NOTE if as_lay else UNSEEN_ROLL_NOTE)
            self._legal_move(own_after, own_text)
        self._need_clear = False
        self._roll(other, judged_dice)
        if self.state.phase is Phase.MOVE:
            if roll != first:
                self._reread_dice(roll)
            self._see_move(s, dice)
        return True

    def _see_dance_rolled_again(
        self, s: Sighting, dice: tuple[SeenDie, ...], invalid: RollInvalidEvent
    ) -> bool:
        """The roll judged invalid only for lying in the wrong half (``invalid``) lay in
        the opponent's half right after his dance, and his checkers have since moved
        as a play of its numbers: he had not danced. The roll he danced with was
        invalid (a die cocked more than the camera could tell) and he rolled again
        [001 4.1(iv)]; the mirror of :meth:`_see_missed_turn`'s dance (s14 clip 992).
        His play may be an illegal one (:meth:`_moved_alone`; s40 clip 3503 at 48 s
        and 227 s, a checker moved with another on the bar), flagged as any other.
        His dance and the invalid roll are withdrawn (``correction``, ``action``
        ``reroll``), that roll recorded as invalid (``REROLL_NOTE``), and his new roll
        counted; his play is decided as any other. Returns whether that was so."""
        state = self.state
        judged_dice = self._judged_wrong_half(invalid)
        if judged_dice is None:
            return False
        judged = (judged_dice[0].value, judged_dice[1].value)
        other = 1 - state.on_roll
        live = self._live_events()
        if len(live) < 3 or live[-1] is not invalid:
            return False
        roll, move = live[-3], live[-2]
        if not (
            isinstance(roll, RollEvent)
            and roll.player == other
            and roll.note is None
            and isinstance(move, MoveEvent)
            and move.player == other
            and move.legal
            and move.play == ""
        ):
            return False  # his turn before was no dance seen
        first = (max(judged), min(judged))
        evidence, before = s.checkers, state.position.with_turn(other)
        ll, pos, _ = self.best_result(before, first, evidence)
        if (pos == before or not self._explains(evidence, ll)) and not self._moved_alone(
            evidence, before, other
        ):
            return False
        danced = self._rolled if sorted(d.value for d in self._rolled) == sorted(roll.dice) else ()
        reason = self._likeliest_fault(danced, before)
        self._withdraw_as_rerolled(roll, [roll.seq, move.seq, invalid.seq], reason)
        self._roll(other, judged_dice)
        if self.state.phase is Phase.MOVE:
            self._see_move(s, dice)
        return True

    def _moved_alone(self, evidence: CheckerEvidence, before: Position, mover: int) -> bool:
        """Whether the view shows a play of ``mover``'s from ``before``, legal or not:
        nothing explains it as it stood, and its best guess is a position with his
        opponent's checkers as they stood and his own moved on (fewer pips)."""
        if self._explains(evidence, evidence.log_likelihood(before)):
            return False
        guess = self._possible_guess(evidence, before.turn)
        return (
            guess is not None
            and guess.boards[1 - mover] == before.boards[1 - mover]
            and guess.pips(mover) < before.pips(mover)
        )

    def _see_unseen_roll(self, s: Sighting, dice: tuple[SeenDie, ...]) -> bool:
        """The player on roll has played though no roll of his was seen (a die hidden
        or missed by the camera): the checkers no longer show the confirmed position
        but a legal result of some roll of his. Decided once his dice are off his half
        (lifted, as a turn ends [001 4.1(vi)(a)]); until then a die glimpsed there is
        kept, and weighs the rolls as in :meth:`_reread_roll`. The roll is recorded
        with ``UNSEEN_ROLL_NOTE``, then the play; dice seen elsewhere are then the
        opponent's roll. Returns whether the view was used up (nothing more to see)."""
        state = self.state
        if state.phase is not Phase.ROLL or state.dice is not None or state.turns_played == 0:
            return False
        evidence, before, roller = s.checkers, state.position, state.on_roll
        self._note_glimpse(dice)
        dice = self._less_checker_dice(dice)
        mine = [d for d in dice if d.half == self.right_half(roller)]
        if self._explains(evidence, evidence.log_likelihood(before)):
            return False  # nothing moved
        invalid = self._judged_invalid(roller)
        if invalid is not None and _same_places(mine, self._judged_dice):
            self._played_under_judged = True  # his checkers moved, the dice judged lying
        gone = False
        if mine:
            # His dice are down: the play may not be over. Unless his opponent's
            # checkers moved as a play of the roll judged invalid for its half, and
            # these are his next roll (the opponent's turn and lifting missed); or
            # his die glimpsed is gone and these are his opponent's.
            if invalid is not None and self._see_missed_turn(s, dice, invalid):
                return True
            gone = invalid is None and self._glimpse_gone(dice)
            if invalid is not None and not gone:
                gone = self._judged_roll_played(before, evidence, invalid, mine)
            if not gone:
                return False
        if invalid is not None and (
            self._see_missed_turn(s, dice, invalid)
            or self._see_dance_rolled_again(s, dice, invalid)
        ):
            return True
        judged = None if invalid is None else invalid.dice
        if judged is not None and self._glimpsed and self._glimpsed[0].value not in judged:
            judged = None  # a die of no judged number: he rolled again, that roll unseen
        rolls: list[tuple[tuple[int, int], float]]
        if judged is not None:
            roll, ll, pos, text = self._judged_play(before, judged, evidence)
            rolls = [(judged, 0.0)]
            if not (self._explains(evidence, ll) and pos != before) and (
                self._glimpsed or not self._played_under_judged
            ):
                # A die glimpsed since the judgement, of a judged number, and the
                # judged roll does not make this play: he rolled again, as he had to,
                # and played that roll, unseen but for the die (s42 clip 3704 at 378
                # s: a 65 in the wrong half, then 55 seen by one 5, played legally).
                # So with no die glimpsed, where the play moved his checkers further
                # than the judged roll could, by more than a pip misjudged, and no
                # view showed them moving beside the dice judged: an illegal play of
                # a roll seldom overruns it, a roll made again unseen may (s129 clip
                # 12601 at 288.7 s: 12 on a checker, then 62 rolled and played 6/0
                # 2/0 with no view between, 8 pips; taken for an illegal 21).
                again, again_rolls = self._likeliest_unseen_roll(before, evidence)
                if (
                    self._explains(evidence, again[1])
                    and again[2] != before
                    and (self._glimpsed or _overruns(before, again[2], roller, judged))
                ):
                    judged, rolls = None, again_rolls
                    roll, ll, pos, text = again
        else:
            (roll, ll, pos, text), rolls = self._unseen_roll_played(before, evidence)
        legal = self._explains(evidence, ll) and pos != before
        if not legal:
            # his opponent may have rolled and played since, no view between
            found = self._their_play_seen(s, before, rolls)
            if found is not None:
                (roll, pos, text), legal = found, True
        if not legal and not self._glimpsed and judged is None:
            return False  # no die was ever seen: his dice may still be down, unseen
        if not legal and gone:
            return False  # no roll with his die glimpsed makes it: these may be his
        note = UNSEEN_ROLL_NOTE
        if (
            judged is not None
            and invalid is not None
            and set(invalid.reasons) <= TAKEN_VALID_FAULTS
            and (
                legal or self._played_under_judged or not self._some_play_explains(before, evidence)
            )
        ):
            # He played the dice as they lay, his opponent let him: the die was flat,
            # its tilt the camera's (s35 clip 3003 at 367 s: a 4 read cocked at 0.79
            # to 0.90, then 11/10 10/6). The judgement is withdrawn. So it is when his
            # play is legal with no roll at all: he took the roll as valid, and his
            # illegal play of it is flagged below (s38 clip 3303 at 31 s: a flat 5
            # read cocked at 0.98, then 5/0, an early bear-off). A play illegal with
            # the roll judged but legal with another may be of a roll rolled again and
            # unseen: the judgement stands, unless a view showed his checkers moving
            # with the dice judged still lying where they came to rest: he played
            # them as they lay (s70 clip 6601 at 46.2 s: a flat 4 read cocked at 1.00,
            # 25/21 of the 42 begun beside them, an illegal play, and the invalid
            # roll kept, one no one made).
            self._take_judged_as_valid(invalid)
            note = TAKEN_VALID_NOTE
        if not legal and judged is None:
            roll = self._roll_played_illegally(before, evidence, roll)
        self._unseen_roll(roller, roll, note)
        if not legal:
            # A die was seen and is gone, and no roll makes this play: illegal,
            # flagged under the roll it is likeliest an illegal play of [001 4.2(ii)].
            self._decide_play(s)
            return True
        if note == TAKEN_VALID_NOTE:
            # the roll as seen, played: a close call is weighed on it too, by how well
            # the judged roll's play explains the view (s116 clip 11302 at 301.2 s: a
            # 65 read cocked and played as it lay ended the call on a 64 read 62 the
            # play before, its 6/0 4/0 taken for 6/0 4/2; the 65's 6/0 5/0 explained
            # the view only with his opponent's checker on the 2 point gone, as a
            # turn of his made unseen)
            self._legal_move_weighed(evidence, ll, pos, text)
        else:
            self._legal_move(pos, text)
        if self.state.phase is Phase.ROLL:
            others = dice if gone else tuple(d for d in dice if d.half != self.right_half(roller))
            if not self._see_cube(s):
                self._see_roll(s, others)
        return True

    def _roll_played_illegally(
        self, before: Position, evidence: CheckerEvidence, likeliest: tuple[int, int]
    ) -> tuple[int, int]:
        """The roll an unseen roll's play, legal with no roll, is flagged under: the
        one the board as seen is the likeliest illegal play of, by its prior
        (:func:`_roll_log_prior`, the die glimpsed weighing it), each checker out of
        place between the view's guess and the roll's nearest legal result costing
        ``ILLEGAL_OUT_LOG_ODDS``. Ties and a view with no guess keep ``likeliest``,
        the roll whose best legal result explains the view best. How far the view is
        from a legal result says more than how well that result explains it, where
        every point off costs the view about the same however many checkers it is
        off by (s190 clip 18701 at 23.4 s: a 33 unseen, its dice white on a white
        point, 24/21 24/21 13/10 with a 3 unplayed; 33's 24/21(2) 13/10(2) and 21's
        13/10 each explained the view with two points off, and a cocked die glimpsed
        of the roll before, rolled again, read as a 2 at 0.39, made it 21: 13/10 was
        flagged as a play of 21)."""
        seen = evidence.guess(before.turn)
        if seen is None:
            return likeliest
        glimpsed = self._glimpsed[:2]
        best = (-math.inf, likeliest)
        rolls = combinations_with_replacement(range(6, 0, -1), 2)
        for roll in (likeliest, *(r for r in rolls if r != likeliest)):
            out = min(checkers_out_of_place(seen, pos) for pos in legal_positions(before, roll))
            score = _roll_log_prior(roll, glimpsed) + ILLEGAL_OUT_LOG_ODDS * out
            if score > best[0]:
                best = (score, roll)
        return best[1]

    def _likeliest_unseen_roll(
        self, before: Position, evidence: CheckerEvidence
    ) -> tuple[tuple[tuple[int, int], float, Position, str], list[tuple[tuple[int, int], float]]]:
        """The roll, of the 21, whose best result (:meth:`best_result`) from
        ``before`` makes ``evidence`` likeliest, a die glimpsed weighing the rolls:
        (roll, its result's log-likelihood, the result, its play), and every roll with
        its glimpse log-prior."""
        best: tuple[float, tuple[int, int], float, Position, str] | None = None
        rolls = []
        for roll in combinations_with_replacement(range(6, 0, -1), 2):
            prior = _glimpse_log_p(self._glimpsed[:2], roll)
            rolls.append((roll, prior))
            ll, pos, text = self.best_result(before, roll, evidence)
            if best is None or ll + prior > best[0]:
                best = (ll + prior, roll, ll, pos, text)
        assert best is not None
        return best[1:], rolls

    def _unseen_roll_played(
        self, before: Position, evidence: CheckerEvidence
    ) -> tuple[tuple[tuple[int, int], float, Position, str], list[tuple[tuple[int, int], float]]]:
        """The roll an unseen roll's play is read under: the likeliest
        (:meth:`_likeliest_unseen_roll`), unless the die glimpsed of it rules that out
        (:meth:`_roll_glimpsed`); with every roll and its glimpse log-prior."""
        likeliest, rolls = self._likeliest_unseen_roll(before, evidence)
        roll, ll, _, _ = likeliest
        glimpsed = self._roll_glimpsed(evidence, roll, ll, rolls)
        return (likeliest if glimpsed is None else glimpsed), rolls

    def _roll_glimpsed(
        self,
        evidence: CheckerEvidence,
        roll: tuple[int, int],
        ll: float,
        rolls: list[tuple[tuple[int, int], float]],
    ) -> tuple[tuple[int, int], float, Position, str] | None:
        """The roll to read an unseen roll's play under where the die glimpsed of it
        rules out ``roll``, the likeliest (of log-likelihood ``ll``): a roll its die
        makes likely, if the board as it stands, played illegally with that roll
        (``ILLEGAL_LOG_ODDS``), is likelier than ``roll``'s legal play with the die
        misread; else None. Of those rolls, the one whose best result comes nearest
        (s45 clip 4003 at 160 s: a 51 seen by its 1 at 1.00, then 7/5 7/2, legal
        only with a roll of no 1; taken for a 52, the illegal play went unflagged)."""
        if not self._glimpsed or not rolls:
            return None
        priors = dict(rolls)
        likeliest = max(priors.values())
        if ll + priors[roll] >= evidence.ceiling() + ILLEGAL_LOG_ODDS + likeliest:
            return None
        before = self.state.position
        best: tuple[float, tuple[tuple[int, int], float, Position, str]] | None = None
        for other, prior in rolls:
            if prior < likeliest + ILLEGAL_LOG_ODDS:
                continue
            other_ll, pos, text = self.best_result(before, other, evidence)
            if best is None or other_ll + prior > best[0]:
                best = (other_ll + prior, (other, other_ll, pos, text))
        return None if best is None else best[1]

    def _glimpse_gone(self, dice: tuple[SeenDie, ...]) -> bool:
        """Two dice in the right half of the player on roll, while a die of his glimpsed
        surely (``GLIMPSE_GONE_P``) since the last play is gone: none of them shows its
        number or lies where it lay, or one that shows it lies far from there
        (``GLIMPSE_MOVED_CM``). He rolled, the camera saw one die, he played and
        lifted; these are his opponent's, rolled in the wrong half before a view
        showed the table clear (s29 clip 2402 at 662 s: a 63 seen by its 3, 3/0 3/0,
        then the opponent's 64 in that half, taken for the player's roll; s37 clip
        3201 at 438 s: a 61 seen by its 1, 6/0 4/3, then the opponent's 61 in that
        half, its 1 some 20 cm from the first)."""
        glimpsed = self._glimpsed[:1]
        if not glimpsed or glimpsed[0].p < GLIMPSE_GONE_P or len(dice) != 2:
            return False
        was = glimpsed[0]
        return all(
            d.half == self.right_half(self.state.on_roll)
            and d.at is not None
            and was.at is not None
            and not _near(d, was, GLIMPSE_MOVED_CM if d.value == was.value else SAME_PLACE_CM)
            for d in dice
        )

    def _see_changed_play(self, s: Sighting, dice: tuple[SeenDie, ...]) -> bool:
        """The last play recorded is not on the board any more, another play of the
        mover's roll is, and his opponent has not rolled (no dice down, nothing but
        flags and corrections since): the mover changed his play — an illegal play
        put right [001 4.2(iii)(a)] that was taken for a legal play of another roll
        (his roll not seen but read from the play, or his dice read again to fit it),
        or a play misread at first. The play recorded is withdrawn and the new one
        recorded (``correction`` ``correct_play``, ``CHANGED_PLAY_NOTE``). A roll read
        again may be the dice as first read; a roll read from the play, any roll; the
        roll is then read again (``correction`` ``reread_dice``). Returns whether the
        play was replaced."""
        state = self.state
        if dice or state.dice is not None or self.flag is not None:
            return False
        evidence = s.checkers
        if self._explains(evidence, evidence.log_likelihood(state.position)):
            return False
        move = self._last_move(legal=True)
        if move is None or move.player == state.on_roll:
            return False
        later = self.events[move.seq + 1 :]
        if any(not isinstance(e, _CHANGEABLE_AFTER_MOVE) for e in later):
            return False
        roll_event = self._roll_of(move)
        recorded = (max(move.dice), min(move.dice))
        before = Position.from_position_id(move.before, turn=move.player)
        ll, pos, text = self.best_result(before, recorded, evidence)
        roll = recorded
        opening = None
        if not self._explains(evidence, ll) and isinstance(roll_event, RollEvent):
            read = (max(roll_event.dice), min(roll_event.dice))
            if read != recorded:
                # the dice were read again to make the play legal: the play put right
                # is one of the dice as first read, or of another roll one die off
                ll, pos, text, roll = self._best_misread(before, read, recorded, evidence)
            elif roll_event.note == UNSEEN_ROLL_NOTE:
                ll, pos, text, roll = self._best_of_any_roll(before, evidence)
            elif (judged := self._taken_valid_numbers(roll_event)) not in (None, recorded):
                # a roll judged invalid, taken as valid as another roll one die off
                # that made the play legal (:meth:`_judged_play`): the play put right
                # is one of the numbers judged, or of another roll one die off (s101
                # clip 9803 at 34-40 s: a 65, its 5 read cocked at 0.79 and 0.85 with a
                # 4 at 0.05, 24/18 18/14 taken for 64's 24/20 20/14 and put right to
                # 24/18 18/13; missed, the next 70 s of plays were lost)
                assert judged is not None
                ll, pos, text, roll = self._best_misread(before, judged, recorded, evidence)
            elif judged == recorded and _read_unsure(self._judged_dice, read, dice_unsure=2):
                # a roll judged invalid and taken as valid as read, both its dice read
                # unsure, the play legal for them: the play put right is one of
                # another roll they may have shown, both dice off where both were
                # unsure (s134 clip 13102 at 138.8 s: a 54 read as a 3 at 0.63 and a
                # cocked 1 at 0.42, its 5 at 0.27 and its 4 at 0.38; 25/21, the 5
                # left unplayed, taken for 31's 25/24 24/21 and put right to 25/21
                # 21/16*; missed, the next play was flagged wrongly and the double
                # after it lost)
                ll, pos, text, roll = self._best_misread(
                    before, read, recorded, evidence, rolled=self._judged_dice, apart=2
                )
            elif self._rolled_unsure(read):
                # the dice read unsure and the play taken as legal for them; the play
                # put right is one of a roll one die off (s58 clip 5301 at 274 s: a 51
                # read as 31, the 5 at 0.47, then 0.72; 4/0, its 1 unplayed, was a
                # 31's 4/3/0; put right to 4/0 1/0 before the next roll, and missed,
                # the match went on a checker off)
                ll, pos, text, roll = self._best_misread(before, read, recorded, evidence)
        elif not self._explains(evidence, ll) and isinstance(roll_event, OpeningRollEvent):
            # the opening roll read again to make the first play legal: the play put
            # right is one of the opening as first read, the same player starting
            read_first = self._opening_as_first_read(roll_event, move.player)
            if read_first is not None:
                opening = (roll_event, read_first)
                roll = (max(read_first), min(read_first))
                ll, pos, text = self.best_result(before, roll, evidence)
        if not self._explains(evidence, ll) or pos in (before, state.position):
            return False
        first = Position.from_position_id(move.after, turn=move.player)
        if roll != recorded and first not in legal_plays(before, roll):
            self._replace_play_put_right(move, before, first, pos, text, roll, opening)
        else:
            self._replace_play(move, [move.seq], pos, text, roll)
        return True

    def _taken_valid_numbers(self, roll: RollEvent) -> tuple[int, int] | None:
        """The numbers of the roll judged invalid that ``roll`` took as valid
        (``correction`` ``taken_valid`` just before it), higher first; else None."""
        for e in reversed(self.events[: roll.seq]):
            if not isinstance(e, CorrectionEvent):
                return None
            if e.data.get("action") == "taken_valid":
                judged = self.events[e.data["withdraws"][0]]
                if isinstance(judged, RollInvalidEvent) and judged.dice is not None:
                    return (max(judged.dice), min(judged.dice))
                return None
        return None

    def _replace_play_put_right(
        self,
        move: MoveEvent,
        before: Position,
        first: Position,
        pos: Position,
        text: str,
        roll: tuple[int, int],
        opening: tuple[OpeningRollEvent, tuple[int, int]] | None = None,
    ) -> None:
        """:meth:`_see_changed_play` where the play put right is of ``roll``, not the
        roll recorded, and the play first made (``first``) is no legal play of it: the
        dice were read again to make an illegal play legal, and the player put it
        right [001 4.2(iii)(a)]. The play recorded is withdrawn (``correct_play``), the
        dice read again as ``roll``, and the first play recorded as it was made and
        when, illegal and flagged, then the flag cleared as corrected and the play
        put right recorded. The flag is raised late, when the play is put right: the
        view of the first play could not tell it from a misread die (s67 clip 6303 at
        45.7 s: a 54, its 5 read at 0.67 with a 1 next, 9/4 taken for 9/8 8/4 of a
        41, put right to 9/4 8/4; five such in s66-s68, each put right 4 to 5 s
        later, each flag missed).

        ``opening``: the game's first play, its opening roll (the event) read again
        to fit it; the roll goes back to the dice as first read (player 0's die,
        player 1's), ``roll`` (s73 clip 6902 at 10.7 s: an opening 24, the 2 read
        at 0.49, 8/3 6/4 taken for 8/4 6/3 of a 34 and put right to 8/4 6/4; missed,
        the plays of the next 45 s were lost)."""
        self._emit(
            CorrectionEvent,
            data={"action": "correct_play", "after": pos.position_id(), "withdraws": [move.seq]},
            target_seq=move.seq,
            note=PUT_RIGHT_NOTE,
        )
        self._rebuild()
        if opening is None:
            self._reread_dice(roll)
        else:
            self._reread_opening(*opening)
        flag = _Flag(self._next_flag_id(), move.player, before, roll, first, pos)
        nearest = self.ranked_results(before, roll, ExactCheckers(first))
        self._raise_flag(flag, [(p, t) for _, p, t in nearest], t=move.t, frame=move.frame)
        self.flag = None
        self._emit(FlagClearedEvent, flag_id=flag.flag_id, how="corrected")
        self._legal_move(pos, text)

    def _opening_as_first_read(
        self, opening: OpeningRollEvent, mover: int
    ) -> tuple[int, int] | None:
        """The dice ``opening`` was first read as (player 0's die, player 1's), where
        it was read again (:meth:`_reread_opening`: the ``correction`` just before
        it) and the dice as first read let ``mover`` start too [000 r8]; else None."""
        if opening.seq == 0:
            return None
        reread = self.events[opening.seq - 1]
        if not isinstance(reread, CorrectionEvent) or reread.data.get("action") != "reread_dice":
            return None
        read = reread.data.get("read")
        if not isinstance(read, list) or len(read) != 2 or read[0] == read[1]:
            return None
        dice = (int(read[0]), int(read[1]))
        return dice if (0 if dice[0] > dice[1] else 1) == mover else None

    def _replace_play(
        self, move: MoveEvent, withdraws: list[int], pos: Position, text: str, roll: tuple[int, int]
    ) -> None:
        """Record the play ``text`` (to ``pos``) of ``roll`` in place of ``move``: a
        ``correction`` (``correct_play``) withdrawing ``withdraws``, the match
        rebuilt, the dice read again where ``roll`` is not the play's."""
        self._emit(
            CorrectionEvent,
            data={"action": "correct_play", "after": pos.position_id(), "withdraws": withdraws},
            target_seq=move.seq,
            note=CHANGED_PLAY_NOTE,
        )
        self._rebuild()
        if roll != (max(move.dice), min(move.dice)):
            self._reread_dice(roll)
        self._legal_move(pos, text)

    def _see_play_finished_late(self, s: Sighting, dice: tuple[SeenDie, ...]) -> bool:
        """The mover rolled before his opponent's play was over, and the view that
        took the play showed it unfinished: a checker still in the opponent's hand,
        what lay on the board a legal play of the dice as read. The opponent's
        checkers now show another play of his roll, or of a roll his dice may have
        shown (a die misread), and only the mover's dice lie down; the mover's
        checkers show no play yet, or one of some roll after that play and none after
        the play recorded. That play is recorded in place of the first
        (``correction`` ``correct_play``, withdrawing the play and the roll made
        early, which is recorded again after it); the mover's play is judged as
        ever, once he lifts his dice. (s37 clip 3201 at 474 s: a 22 read 42, the
        opponent's 52 rolled as its third 2 was borne off, 4/2 4/0 taken; the fourth
        2 went off after, and 6/4 5/0 was flagged as no play of 54, the 52 read 54,
        the board explained by no play of it.) A roll other than the one recorded is
        weighed by the opponent's dice as they were read, and not at all where both
        were read surely (``REREAD_P``), as :meth:`_reread_roll` does; one those dice
        left less likely than an illegal play (``ILLEGAL_LOG_ODDS``) replaces nothing.
        The mover's own play under way may look like a change of his opponent's (s48
        clip 4301 at 393 s: a 64, read at 1.00 twice, played 6/0 4/0; the early
        roller's checker put on the 4 point read as one more of the opponent's there,
        and 6/4 4/0 of a 42 taken in place of the play; s123 clip 12001 at 470.5 s: a
        54, its 5 at 0.73 and a 1 under 0.01, and the early roller's illegal 25/23*
        read as 41's 14/13 13/9). Returns whether the play was replaced."""
        state = self.state
        mover = state.on_roll
        if self.flag is not None or len(self._rolled) != 2 or state.dice is None:
            return False
        if self._by_halves() and any(d.half != self.right_half(mover) for d in dice):
            return False  # the opponent's dice may still be down: his play may go on
        roll_event = self._last_roll()
        if roll_event is None or roll_event.note != PREMATURE_NOTE or roll_event.player != mover:
            return False
        move = self._last_move(legal=True)
        if move is None or move.player == mover or move.seq > roll_event.seq:
            return False
        between = self.events[move.seq + 1 :]
        if any(e is not roll_event and not isinstance(e, _CHANGEABLE_AFTER_MOVE) for e in between):
            return False
        evidence = s.checkers
        if self._explains(evidence, evidence.log_likelihood(state.position)):
            return False
        theirs = self._roll_of(move)
        recorded = (max(move.dice), min(move.dice))
        before = Position.from_position_id(move.before, turn=move.player)
        ll, pos, text = self.best_result(before, recorded, evidence)
        roll = recorded
        if not self._explains(evidence, ll) and theirs is not None:
            read = (max(theirs.dice), min(theirs.dice))
            seen = self._interrupted
            if sorted(d.value for d in seen) != sorted(read):
                seen = ()
            elif len(seen) == 2 and min(d.p for d in seen) >= REREAD_P:
                return False  # dice read surely are believed (see _reread_roll)
            ll, pos, text, roll = self._best_misread(before, read, recorded, evidence, rolled=seen)
            if seen and _roll_log_p(seen, roll) - _roll_log_p(seen, read) < ILLEGAL_LOG_ODDS:
                # a roll the dice hardly showed: the board is more likely the mover's
                # own play under way, an illegal one no legal play of his explains
                # (s123 clip 12001 at 470.5 s: a 54, its 5 at 0.73 and a 1 under 0.01,
                # 14/9 6/2* taken; the early roller's 32 entered 25/23*, hitting back,
                # and left his 2 unplayed; the board then read as 41's 14/13 13/9)
                return False
        if pos.with_turn(mover) in (before.with_turn(mover), state.position):
            return False
        if not self._explains(evidence, ll) and (
            # the mover may have played since: some play of his explains the board
            # after that play of his opponent's, none after the one recorded
            not self._some_play_explains(pos.with_turn(mover), evidence)
            or self._some_play_explains(state.position, evidence)
        ):
            return False
        early, rolled = state.dice, self._rolled
        self._replace_play(move, [move.seq, roll_event.seq], pos, text, roll)
        self._take_roll(mover, early, rolled, PREMATURE_NOTE)
        return True

    def _roll_of(self, move: MoveEvent) -> RollEvent | OpeningRollEvent | None:
        """The roll a recorded play was made with: the last one before it not
        withdrawn."""
        withdrawn = withdrawn_seqs(self.events)
        return next(
            (
                e
                for e in reversed(self.events[: move.seq])
                if e.seq not in withdrawn and isinstance(e, (RollEvent, OpeningRollEvent))
            ),
            None,
        )

    def _some_play_explains(self, start: Position, evidence: CheckerEvidence) -> bool:
        """Whether a legal play of some roll from ``start`` explains ``evidence``."""
        return any(
            self._explains(evidence, self.best_result(start, roll, evidence)[0])
            for roll in combinations_with_replacement(range(6, 0, -1), 2)
        )

    def _rolled_unsure(self, read: tuple[int, int]) -> bool:
        """Whether the last roll's dice, as still known (``_rolled``, showing ``read``),
        had a die read under ``REREAD_P``: the roll as read may be one die off."""
        return _read_unsure(self._rolled, read, dice_unsure=1)

    def _best_misread(
        self,
        before: Position,
        read: tuple[int, int],
        recorded: tuple[int, int],
        evidence: CheckerEvidence,
        *,
        rolled: tuple[SeenDie, ...] | None = None,
        apart: int = 1,
    ) -> tuple[float, Position, str, tuple[int, int]]:
        """The likeliest play on the board of a roll the dice read as ``read`` may
        have shown, other than ``recorded`` (the roll they were read again as): the
        dice as read, or one of them read wrong (both, for ``apart`` 2, where the
        dice are known), weighed by the dice's ``p`` where they are still known
        (:func:`_roll_log_p`; ``rolled``, by default the last roll's dice seen).
        Rolls whose best play does not explain the board come last."""
        rolled = self._rolled if rolled is None else rolled
        known = len(rolled) == 2 and sorted(d.value for d in rolled) == sorted(read)
        most = apart if known else 1
        best: tuple[bool, float, float, Position, str, tuple[int, int]] | None = None
        for a, b in combinations_with_replacement(range(1, 7), 2):
            roll = (b, a)
            off = _dice_apart(roll, read)
            if roll == recorded or off > most:
                continue
            prior = _roll_log_p(rolled, roll) if known else off * ILLEGAL_LOG_ODDS
            ll, pos, text = self.best_result(before, roll, evidence)
            key = (self._explains(evidence, ll), ll + prior, ll, pos, text, roll)
            if best is None or key[:2] > best[:2]:
                best = key
        assert best is not None
        return best[2], best[3], best[4], best[5]

    def _judged_roll_played(
        self,
        before: Position,
        evidence: CheckerEvidence,
        invalid: RollInvalidEvent,
        mine: Sequence[SeenDie],
    ) -> bool:
        """Whether the player on roll played the roll judged invalid as it lay
        (``TAKEN_VALID_FAULTS``), and the two dice in his half now are his opponent's,
        rolled into the wrong half: the board shows a legal play of the roll judged
        that explains it ``REREAD_MARGIN`` better than any play of the roll the new
        dice show. A roll made again is played after it lands, and the board then
        shows a play of it (s46 clip 4105 at 719 s: a 62, its 6 read cocked, played
        7/1 4/2, then the opponent's 65 in the roller's half taken for his roll made
        again, and his play read as 7/2 4/0 of it). Dice lying where those judged
        came to rest are those dice, no new roll: his play of them is under way (s113
        clip 11002 at 865.8 s: a 43 judged cocked, its 4 played 10/6, taken for the
        whole play of a 31 the 4's read left likely)."""
        if invalid.dice is None or not set(invalid.reasons) <= TAKEN_VALID_FAULTS or len(mine) != 2:
            return False
        if _same_places(mine, self._judged_dice):
            return False
        _, ll, pos, _ = self._judged_play(before, invalid.dice, evidence)
        if pos == before or not self._explains(evidence, ll):
            return False
        read = (mine[0].value, mine[1].value)
        new_ll, _, _ = self.best_result(before, (max(read), min(read)), evidence)
        return ll > new_ll + REREAD_MARGIN

    def _judged_play(
        self, before: Position, judged: tuple[int, int], evidence: CheckerEvidence
    ) -> tuple[tuple[int, int], float, Position, str]:
        """The roll, and its best result, that a play after a roll judged invalid was
        made with: the numbers judged, unless the play is illegal with them but legal
        with another roll that the dice as read leave likely enough
        (``ILLEGAL_LOG_ODDS``): a die misread (a 2 taken for a 1) is no illegal play.
        A roll judged before a restart is taken as read for sure."""
        seen = self._judged_dice
        if sorted(d.value for d in seen) != sorted(judged):
            seen = tuple(SeenDie(v) for v in judged)
        first = (max(judged), min(judged))
        ll, pos, text = self.best_result(before, first, evidence)
        if self._explains(evidence, ll) and pos != before:
            return first, ll, pos, text
        base = _roll_log_p(seen, first)
        other: tuple[float, float, tuple[int, int], Position, str] | None = None
        for roll in combinations_with_replacement(range(6, 0, -1), 2):
            prior = _roll_log_p(seen, roll)
            if roll == first or prior - base < ILLEGAL_LOG_ODDS:
                continue
            r_ll, r_pos, r_text = self.best_result(before, roll, evidence)
            if not self._explains(evidence, r_ll) or r_pos == before:
                continue
            if other is None or (prior, r_ll) > other[:2]:
                other = (prior, r_ll, roll, r_pos, r_text)
        if other is None:
            return first, ll, pos, text
        return other[2], other[1], other[3], other[4]

    def _judged_roll(self, roller: int) -> tuple[int, int] | None:
        """The numbers of ``roller``'s roll judged invalid this turn, when that was the
        last roll (none counted since): a play without a roll seen after it was made
        with those dice, whatever the judgement (a fault the camera saw wrongly), and
        is judged against them alone — any roll at all would explain an illegal play
        as the legal play of another roll — unless it goes further than they can (a
        roll made again, unseen: :meth:`_see_unseen_roll`)."""
        invalid = self._judged_invalid(roller)
        return None if invalid is None else invalid.dice

    def _cocked_before(self, invalid: RollInvalidEvent) -> RollInvalidEvent | None:
        """The roll of ``invalid``'s roller judged invalid just before it, in the same
        turn (no roll counted between), for a die read cocked alone
        (``TAKEN_VALID_FAULTS``), its numbers read; else ``None``."""
        withdrawn = withdrawn_seqs(self.events)
        for e in reversed(self.events):
            if e.seq >= invalid.seq or e.seq in withdrawn:
                continue
            if isinstance(e, RollInvalidEvent):
                fits = e.player == invalid.player and _camera_judged(e) is not None
                return e if fits else None
            if isinstance(e, (RollEvent, OpeningRollEvent, MoveEvent, GameStartEvent)):
                return None
        return None

    def _judged_invalid(self, roller: int) -> RollInvalidEvent | None:
        """The event of :meth:`_judged_roll`'s roll (its numbers read)."""
        withdrawn = withdrawn_seqs(self.events)
        for e in reversed(self.events):
            if e.seq in withdrawn:
                continue
            if isinstance(e, RollInvalidEvent):
                # a roll found invalid because he rolled again is no roll he played
                again = e.note == REROLL_NOTE
                return e if e.player == roller and e.dice is not None and not again else None
            if isinstance(e, (RollEvent, OpeningRollEvent, MoveEvent, GameStartEvent)):
                return None
        return None

    def _premature_roll(self, roller: int, dice: Sequence[SeenDie]) -> None:
        """``roller`` rolled while the last mover's dice were still down: the roll
        stands under ``wbf`` [001 4.1(v)(a)], else it is rolled again [000 r9, 002]."""
        self._stale_half = self.right_half(1 - roller)
        self._stale_dice = tuple(d for d in self._rolled if d.half == self._stale_half)
        self._interrupted = self._rolled
        if self.state.profile.premature_roll_stands:
            self._roll(roller, dice, note=PREMATURE_NOTE)
        else:
            values = (dice[0].value, dice[1].value)
            self.state = self.state.invalid_roll(player=roller)
            self._emit(RollInvalidEvent, player=roller, dice=values, reasons=("premature",))
            self._judge(dice)

    def _roll(self, player: int, dice: Sequence[SeenDie], note: str | None = None) -> None:
        values = (dice[0].value, dice[1].value)
        reasons = self.roll_faults(player, dice)
        lone = self._glimpsed[:1]
        void = self._void_roll_before(player, dice, reasons)
        if void is not None:
            self.state = self.state.invalid_roll(player=player)
            event = self._emit(
                RollInvalidEvent, player=player, dice=None, reasons=(void[0],), note=void[1]
            )
            if void[1] == LONE_DIE_NOTE and lone:
                self._lone_voided = (event.seq, lone[0])
        if reasons:
            self.state = self.state.invalid_roll(player=player)
            self._emit(RollInvalidEvent, player=player, dice=values, reasons=tuple(reasons))
            self._judge(dice)
            return
        self._take_roll(player, values, tuple(dice), note)

    def _take_roll(
        self, player: int, values: tuple[int, int], dice: tuple[SeenDie, ...], note: str | None
    ) -> None:
        """Record ``player``'s roll of ``values`` as valid, its dice seen as ``dice``."""
        self._before_roll, self._roll_unseen = self.state, False
        self.state = self.state.roll(*values, player=player)
        self._rolled, self._glimpsed, self._checker_dice = dice, (), ()
        self._emit(RollEvent, player=player, dice=values, note=note)

    def _unmoved(self) -> bool:
        """Whether the view being judged shows the position confirmed (no play made
        since); True outside a view (an observer's event)."""
        ev = self._seen_checkers
        return ev is None or self._explains(ev, ev.log_likelihood(self.state.position))

    def _void_roll_before(
        self, player: int, dice: Sequence[SeenDie], reasons: Sequence[str]
    ) -> tuple[RollFault, str] | None:
        """A roll of ``player``'s before this one, seen by one die only, that he
        rolled again: so it was void [001 4.1(iv)], and the reason and note to record
        it with (its numbers unknown); None when there was none.

        - One die alone in the opponent's right half (:meth:`_note_wrong_half`),
          this roll, valid, lying elsewhere: that roll was in the wrong half
          [001 4.1(iv)(a)].
        - One die alone in his own right half (:meth:`_note_glimpse`), none of these
          dice where it lay: a roll whose other die the camera never found, and
          players roll again only when a roll must be repeated [001 4.1(iv),
          000 r9]. A die the detector misses is most often one leaning on a checker
          or the rail (s17 clip 1202: five of seven invalid rolls missed showed one
          die alone); the fault recorded is the one the die seen showed, else the
          likeliest, ``cocked`` (``LONE_DIE_NOTE``). Only while his checkers stand
          as they stood: moved, he played a roll unseen (s17 clip 1202 at 107 s), and
          these dice are someone's next roll. A die of these lying where it lay is
          that die, the other found since, unless the two are surely different faces
          (:func:`_may_show_alike`; s79 clip 7601 at 15.7 s: a cocked 52 seen by its 5
          at 0.97, the 2 never found, then 21 rolled again, its 2 read at 0.99 two cm
          from where the 5 lay), or his arm alone was seen since and it moved
          (:meth:`_lone_die_lying`)."""
        astray, self._wrong_half_die = self._wrong_half_die, None
        if self.state.phase is not Phase.ROLL or self.state.on_roll != player:
            return None
        if astray is not None and not reasons and not any(_near_known(astray, d) for d in dice):
            return "wrong_half", WRONG_HALF_DIE_NOTE
        lone = self._glimpsed
        if (
            self._by_halves()
            and len(lone) == 1
            and lone[0].half == self.right_half(player)
            and lone[0].at is not None
            and all(d.at is not None for d in dice)
            and not any(self._lone_die_lying(lone[0], d, player) for d in dice)
            and self._unmoved()
        ):
            self._glimpsed = ()
            seen = [r for r in self._die_faults(lone[0]) if r != "off_board"]
            return cast(RollFault, seen[0] if seen else "cocked"), LONE_DIE_NOTE
        return None

    def _lone_die_lying(self, lone: SeenDie, die: SeenDie, player: int) -> bool:
        """Whether ``die``, of a roll of ``player``'s seen now, is the die ``lone``
        glimpsed alone before, lying where it lay, its other die found since: near it
        and maybe of its face (:func:`_may_show_alike`); not where his arm alone
        reached onto the board since and it has moved more than a die lying still seems
        to (``STILL_CM``): he picked his dice up and rolled again (s89 clip 8601 at
        397.9-400.9 s: a 61 seen by its 6 at 0.57, the cocked 1 never found, then 53,
        its 3 landing 2.2 cm from the 6; taken for that die, the void roll missed)."""
        if not (_near(lone, die) and _may_show_alike(lone, die)):
            return False
        return self._arms_now != {player} or _near(lone, die, STILL_CM)

    # --- the cube -------------------------------------------------------------------------
    def _see_offer_passed(self, s: Sighting, dice: tuple[SeenDie, ...]) -> bool:
        """The cube gone from where it lay, one die alone in the field meanwhile, and
        the cube back in the middle at 1 with no roll made: the player on roll doubled
        and the double was passed [001 4.4(iii)], the cube offered having been found
        as a die (s43 clip 3801 at 103 s: a cube offered in the field read as a 1 at
        0.96, then back in the middle; the clip's last game ends there, as a match's
        may, and no setup of the next game shows the pass). Returns whether it was
        taken."""
        cube, state = s.cube, self.state
        if cube is None:
            return False
        offered, self._offer_as_die = self._offer_as_die, None
        if (
            not offered
            or cube.place != "centre"
            or cube.level != 1
            or dice
            or self.flag is not None
        ):
            return False
        if not self._explains(s.checkers, s.checkers.log_likelihood(state.position)):
            return False
        player = self._doubler_after_dance()
        if player == state.on_roll and state.can_double(player) is not None:
            return False
        self._double_passed(player, OFFER_AS_DIE_NOTE, OFFER_AS_DIE_NOTE)
        return True

    def _see_offer_taken(self, s: Sighting, dice: tuple[SeenDie, ...]) -> bool:
        """The cube gone from where it lay, one die alone in the field meanwhile, then
        the roll of the player on roll in his right half, the die alone not among its
        dice and the cube seen nowhere: he doubled, the cube offered having been found
        as a die, and the double was taken, the cube laid where the camera does not see
        it; the game goes on only after a take [001 4.4(iii)] (s45 clip 4002 at 60 s:
        a black cube offered in the field read as a 6 at 0.46, then taken and laid on
        the rail's edge beside the taker's dark checkers, never found again). Returns
        whether it was taken; the roll is then judged.

        Only for a die alone in his opponent's half: one in his own is a glimpse of
        his roll likelier than the cube (s38 clip 3303 at 15 s: the cube missed for
        two views, one die of a cocked roll seen, then his roll made again)."""
        lone, state = self._offer_as_die, self.state
        player = state.on_roll
        if (
            lone is None
            or lone.half == self.right_half(player)
            or s.cube is not None
            or self.flag is not None
            or len(dice) != 2
            or any(d.half != self.right_half(player) for d in dice)
            or any(_same_die(lone, d) for d in dice)
            or state.can_double(player) is not None
        ):
            return False
        if not self._explains(s.checkers, s.checkers.log_likelihood(state.position)):
            return False
        # the die alone was the cube, not a die of his rolled in the wrong half
        self._offer_as_die = self._wrong_half_die = None
        self.state = state.double(player)
        self._emit(DoubleEvent, player=player, value=self.state.offered_cube, note=OFFER_TAKEN_NOTE)
        self._see_answer(s, dice)
        return True

    def _dances_before_double(self, player: int) -> list[tuple[int, int]]:
        """The rolls ``player``, on roll, likely rolled unseen and danced with
        (:meth:`_likely_dances`), where his opponent could double after; else none."""
        state = self.state
        dances = self._likely_dances(state.position)
        if not dances:
            return []
        danced = state.roll(*dances[0], player=player).play(state.position)
        if danced.phase is Phase.ROLL and danced.can_double(1 - player) is None:
            return dances
        return []

    def _played_before_double(self, s: Sighting) -> bool:
        """Where a double is seen while the player on roll has no roll recorded, but
        the board shows a legal play of his and not the position before it: he rolled
        unseen (a die glimpsed at most) and played, and the double is his opponent's.
        The roll is read from the play (``UNSEEN_ROLL_NOTE``) and the play recorded
        first; returns whether it was (s47 clip 4203 at 166 s: a 64 seen as a 4 at
        0.45, 11/7 11/5, then the opponent's cube offered, taken for a double of the
        player who had just played)."""
        state = self.state
        player = state.on_roll
        if state.dice is not None or state.turns_played == 0:
            return False
        invalid = self._judged_invalid(player)
        evidence, before = s.checkers, state.position
        if invalid is not None:
            return self._judged_played_before_double(before, evidence, invalid)
        if self._explains(evidence, evidence.log_likelihood(before)):
            return False
        (roll, ll, pos, text), _ = self._unseen_roll_played(before, evidence)
        if pos == before or not self._explains(evidence, ll):
            return False
        self._unseen_roll(player, roll, UNSEEN_ROLL_NOTE)
        self._legal_move(pos, text)
        return True

    def _judged_played_before_double(
        self, before: Position, evidence: CheckerEvidence, invalid: RollInvalidEvent
    ) -> bool:
        """:meth:`_played_before_double` where the roll of the player on roll was
        judged invalid for a die cocked alone (``TAKEN_VALID_FAULTS``) and the board
        shows a legal play of it: he played it as it lay and his opponent let him, as
        :meth:`_see_unseen_roll` takes it; the judgement is withdrawn and the roll and
        play recorded before the double, which is his opponent's (s69 clip 6502 at
        605.9 s: an 11, a flat 1 read cocked at 1.00, played 4/3 3/2 2/1 1/0, then the
        opponent's cube offered and passed; taken for a double of the player still to
        roll again, flagged, and the pass lost). A player rarely turns the cube after
        his own roll was judged invalid, so the play need not rule out the board as
        it was: it is taken where it explains the view better by
        ``JUDGED_PLAYED_NATS`` (6502: the checker borne off was seen only as likely,
        the position before 1.9 nats worse, within ``illegal_margin``). Returns
        whether it was."""
        if invalid.dice is None or not set(invalid.reasons) <= TAKEN_VALID_FAULTS:
            return False
        roll, ll, pos, text = self._judged_play(before, invalid.dice, evidence)
        if pos == before or not self._explains(evidence, ll):
            return False
        if ll - evidence.log_likelihood(before) < JUDGED_PLAYED_NATS:
            return False
        self._take_judged_as_valid(invalid)
        self._unseen_roll(invalid.player, roll, TAKEN_VALID_NOTE)
        self._legal_move(pos, text)
        return True

    def _take_judged_as_valid(self, invalid: RollInvalidEvent) -> None:
        """The roll ``invalid`` judged invalid was played as it lay: the judgement is
        withdrawn (``correction`` ``taken_valid``); the caller records the roll."""
        self._emit(
            CorrectionEvent,
            data={"action": "taken_valid", "withdraws": [invalid.seq]},
            target_seq=invalid.seq,
            note=TAKEN_VALID_NOTE,
        )

    def _doubler_after_dance(self) -> int:
        """Who doubled, where a double is seen while the player on roll may have
        rolled and danced unseen: his opponent, the dance recorded first
        (:meth:`_unseen_dance`), if so; else the player on roll (s39 clip 3403 at
        472 s: a 52 on the bar seen by its 5 alone, no play, then the opponent's
        double, the cube offered found as a die, passed)."""
        player = self.state.on_roll
        dances = self._dances_before_double(player)
        if not dances:
            return player
        self._unseen_dance(player, dances)
        return 1 - player

    def _double_passed(self, player: int, double_note: str, drop_note: str) -> None:
        """``player``, on roll, doubled and his opponent passed, neither seen as such:
        recorded with these notes, and the game is over [001 4.4(iii)]."""
        self.state = self.state.double(player)
        self._emit(DoubleEvent, player=player, value=self.state.offered_cube, note=double_note)
        self.state = self.state.drop(player=1 - player)
        self._emit(DropEvent, player=1 - player, note=drop_note)
        self._game_over()

    def _on_owners_side(self, cube: SeenCube) -> bool:
        """Whether ``cube`` lies on the side of the player who owns it: where a take
        left it, and where no double puts it, a double moving the cube to the taker's
        side [001 4.4(iii)]. Seen coming there from elsewhere, the cube is back where
        it lies, its place read otherwise in the view before a flicker, and a face
        read higher there the cube misread (s48 clip 4305 at 160 s and 177 s: a 2 on
        its owner's side read as 32, one view as 8 in the middle; the cube back on
        his side was taken for a double by his opponent, then for an early double of
        his own, which the record then lacked)."""
        owner = self.state.cube_owner
        return owner is not None and cube.place == self.side(owner)

    def _see_cube(self, s: Sighting) -> bool:
        """A double offered by the player on roll; True when the cube moved."""
        cube, state = s.cube, self.state
        if cube is None or self._last_cube is None or cube == self._last_cube:
            return False
        player = state.on_roll

        last = self._last_cube

        def offered_by(doubler: int) -> bool:
            if cube.place == "offered":
                return True
            if cube.place != self.side(1 - doubler) or cube.level <= state.cube_value:
                return False
            if self._on_owners_side(cube):
                # back where it lies after a view of it elsewhere; or still there, its
                # face read anew: no one may turn it there, its owner's opponent may
                # not double and its owner's double moves it off his side [001
                # 4.4(iii)] (s70 clip 6601 at 252.2 s: a 2 on its owner's side read
                # 32, then 16 at 0.9 or more, flagged as a double its owner's
                # opponent may not make)
                return False
            # a face read unsure where the cube already lay is no double
            return cube.p >= SURE_CUBE_FACE or last.place != cube.place

        if not offered_by(player) and not offered_by(1 - player):
            return False
        if state.phase is Phase.ROLL and offered_by(1 - player):
            if self._played_before_double(s):
                if self.state.phase is not Phase.ROLL:
                    return True  # (his play ended the game)
                player = self.state.on_roll
            else:
                player = self._doubler_after_dance()
        if not offered_by(player):
            return False
        self._take_double(s, player, cube)
        return True

    def _take_double(self, s: Sighting, player: int, cube: SeenCube) -> None:
        """``player``, on roll, doubled: the cube seen as ``cube``."""
        state = self.state
        code = state.can_double(player)
        if code is not None:
            if self._cube_back and cube.place == "offered":
                self._held_double = (player, code)
                return
            self._illegal_double(player, code)
            return
        self._record_double(player, cube)
        if cube.place == self.side(1 - player):
            # Offered and taken while hands hid the table: the cube is on the taker's
            # side at the new level [001 4.4(iii)].
            self._see_answer(s, ())

    def _see_held_double(self, s: Sighting) -> None:
        """A cube seen offered where its owner may not double, in the first view to
        show a cube after it was away (a Crawford game's cube set aside, the dead cube
        of a match at its end, a cube the camera lost), was kept for this view to
        confirm: a cube offered stays in view until it is answered, so the illegal
        double is flagged only if this view shows it off the middle still, on offer or
        taken. Else the offer, seen once and gone, was likelier a die boxed as the cube
        (s75 clip 7201 at 685.7 s: in the Crawford game, the cube set aside, a roll's
        1 and its cocked 4 leaning on it found together as a cube offered, and an
        illegal double flagged that no one made)."""
        held, self._held_double = self._held_double, None
        if held is None or s.cube is None or s.cube.place == "centre":
            return
        player, code = held
        if self.state.phase is Phase.ROLL and self.state.on_roll == player:
            self._illegal_double(player, code)

    def _record_double(self, player: int, cube: SeenCube, note: str | None = None) -> None:
        """``player`` doubled, allowed to, turning the cube seen as ``cube``: the match
        doubled and a ``double`` recorded, offering the next level; the level turned
        to where it is another, the face read surely enough to say so."""
        # a face read unsure says nothing of the level the cube was turned to
        turned_to = cube.level if cube.p >= SURE_CUBE_FACE else None
        value = 2 * self.state.cube_value
        self.state = self.state.double(player, new_value=turned_to)
        fields: dict[str, Any] = {"player": player, "value": value}
        if turned_to is not None and turned_to != value:
            fields["requested_value"] = turned_to
        self._emit(DoubleEvent, note=note, **fields)

    def _see_double_over_flag(self, s: Sighting, dice: tuple[SeenDie, ...]) -> bool:
        """The flagged play's opponent doubled, in this view or in the view that
        flagged it (its cube offered there, this view then shows the answer): the play
        stands once the opponent has offered a proper double [001 4.2(iii)(a)], and the
        double is taken (s38 clip 3303 at 231 s: a play read illegal, the hit checker
        lost on the bar; the opponent doubled in the view that flagged it and his
        opponent passed; the double, the pass and the game's end were lost). Returns
        whether it was taken."""
        flag, state = self.flag, self.state
        if flag is None:
            return False
        doubler = 1 - flag.player

        def offer(cube: SeenCube | None) -> bool:
            if cube is None:
                return False
            before = flag.cube_before
            if before is not None and cube.place == before.place and cube.level <= before.level:
                return False  # where it lay before the flag (its face may flicker)
            if cube.place == "offered":
                return True
            return (
                cube.place == self.side(flag.player)
                and cube.level > state.cube_value
                and cube.p >= SURE_CUBE_FACE
            )

        now = offer(s.cube)
        if not now and not offer(self._last_cube):
            return False
        self.accept_illegal_play()
        after = self.state
        if self.flag is not None or after.phase is not Phase.ROLL or after.on_roll != doubler:
            return True
        cube = s.cube if now else self._last_cube
        assert cube is not None
        self._take_double(s, doubler, cube)
        if not now and self.state.phase is Phase.DOUBLED:
            self._see_answer(s, dice)  # offered in the flagging view: this one answers
        return True

    def _see_set_up_again(self, s: Sighting, dice: tuple[SeenDie, ...]) -> bool:
        """The checkers set up for the next game in the middle of one.
        After a roll that could bear off the mover's last checkers, he did: the game
        ended with that play (a flag raised on a view of the setting up is cleared),
        and dice down are the next game's opening roll (:meth:`_see_setup`). Else, no
        dice down, the player on roll doubled and his opponent passed, and the camera saw
        neither (the cube back in the middle reads as it was [001 4.4(iii)]). Taken
        when he could double; a roll of his seen before it, when it left no play, was
        a dance. A resignation is the observer's to say (:meth:`observe`), so nothing
        is taken when he could not double. Returns whether it was taken."""
        state = self.state
        if (
            (dice and state.phase is not Phase.MOVE)
            or state.phase not in (Phase.ROLL, Phase.MOVE)
            or (self.flag is not None and state.phase is not Phase.MOVE)
            or state.position.boards == Position.initial().boards
            or not self._is_opening_layout(s)
        ):
            return False
        if state.phase is Phase.MOVE:
            assert state.dice is not None
            results = legal_plays(state.position, state.dice)
            last = [
                p for p in results if state.play(p).phase in (Phase.GAME_OVER, Phase.MATCH_OVER)
            ]
            if last:
                # He bore off his last checkers and the board was set up again before
                # a still view showed them off: the game ended with that play.
                if self.flag is not None:
                    self._emit(FlagClearedEvent, flag_id=self.flag.flag_id, how="corrected")
                    self.flag = None
                end = min(last, key=lambda p: p.position_id())
                made = results[end]
                self._legal_move(end, made[0].mat_text() if made else "")
                # the next game set up, its opening roll down already where dice are
                self._see_setup(s, dice)
                return True
            if self.flag is not None or dice:
                return False
            if set(results) != {state.position}:
                return False  # his roll had a play: no reason to think he danced
            after = state.play(state.position)
            if after.phase is not Phase.ROLL or after.can_double(after.on_roll) is not None:
                return False
            self._legal_move(state.position, "")
            state = self.state
        player = state.on_roll
        if state.can_double(player) is not None:
            return False
        self._double_passed(player, UNSEEN_DOUBLE_NOTE, UNSEEN_DROP_NOTE)
        # the view shows the next game set up: it starts here, as it would in the next
        # view; dice thrown before another still view are no opening roll to wait for
        self._see_setup(s, dice)
        return True

    def _illegal_double(self, player: int, code: str) -> None:
        try:
            self.state.double(player)
            message, rule = f"double by player {player} not allowed", ""
        except MatchRuleError as e:
            message = str(e)
            found = _TAG.search(message)
            rule = found.group(1) if found else ""
        self._emit(
            FlagEvent,
            flag_id=self._next_flag_id(),
            kind="illegal_double",
            player=player,
            message=message,
            rule=rule,
            suggestions=(),
            note=str(code),
        )

    def _see_answer(self, s: Sighting, dice: tuple[SeenDie, ...]) -> None:
        cube, state = s.cube, self.state
        doubler = state.on_roll
        taker = 1 - doubler
        if cube is not None and cube.place == self.side(taker):
            self.state = state.take(player=taker)
            self._emit(TakeEvent, player=taker, value=self.state.cube_value)
            if dice:
                # the doubler has rolled since: the same view shows his roll (s21
                # clip 1601: a 63 seen only here, then the taker's roll judged his)
                self._see_roll(s, dice)
        elif len([d for d in dice if d.half == self.right_half(doubler)]) == 2 or (
            len(dice) == 2
            and all(d.half == self.right_half(taker) for d in dice)
            and not (cube is not None and cube.level == 1)
        ):
            # The doubler rolls (two dice in the taker's half are his too, rolled into
            # the wrong half: the taker does not roll on a double; s70 clip 6601 at
            # 518.7 s, an 11 there with the cube still read as offered, the invalid
            # roll missed): the double was taken, though the cube was not seen
            # on the taker's side (the game goes on only after a take [001 4.4(iii)]),
            # even where it is read in the middle, a pass's place: being put down, or
            # its face misread (s48 clip 4305 at 560 s: taken, then read as 64 in the
            # middle beside the doubler's 54; the pass ended the game, and the
            # referee followed no play for four minutes).
            self.state = state.take(player=taker)
            self._emit(TakeEvent, player=taker, value=self.state.cube_value, note=UNSEEN_TAKE_NOTE)
            self._see_roll(s, dice)
        elif cube is not None and cube.level == 1:  # back in the middle: passed [001 4.4(iii)]
            self.state = state.drop(player=taker)
            self._emit(DropEvent, player=taker)
            self._game_over()
        elif not dice and state.position != Position.initial() and self._is_opening_layout(s):
            # The checkers are set up for the next game: the double was passed.
            self.state = state.drop(player=taker)
            self._emit(DropEvent, player=taker, note=UNSEEN_DROP_NOTE)
            self._game_over()

    # --- the play ---------------------------------------------------------------------------
    def _see_move(self, s: Sighting, dice: tuple[SeenDie, ...]) -> None:
        mover = self.state.on_roll
        if self._see_play_finished_late(s, dice):
            return
        if self._see_reroll(s, dice):
            return
        self._see_dice_read_again(dice)
        if not self._movers_dice_down(dice):
            # The mover lifted his dice: the turn is over [001 4.1(vi)(a)]. Dice seen
            # now are the opponent's next roll, made before a settled view between.
            s = self._bars_read_right(s)
            if not self._see_lone_roll_danced(s):
                self._decide_play(s)
            if self._turn_missed:
                # ...or the mover's next, the opponent's turn made unseen between
                # (:meth:`_their_play_seen`): read from the board, then the roll judged
                self._turn_missed = False
                if self.state.phase is Phase.ROLL and self.flag is None:
                    self._see_unseen_roll(s, dice)
                return
            # the opponent may double at once
            if self.state.phase is Phase.ROLL and self.flag is None and not self._see_cube(s):
                self._see_roll(s, dice)
            # With the play just flagged, dice down are not yet taken as the opponent's
            # roll, which would make the play stand [001 4.2(iii)(a)] on one view of the
            # board: a die on a checker hides it, and the roll may be made again. The
            # next view decides (:meth:`_see_flagged`); those in his half are kept.
            if self.flag is not None:
                self.flag.theirs = tuple(d for d in dice if d.half == self.right_half(1 - mover))
                self.flag.bare = not s.dice and self.flag.after is None
            return
        cube = s.cube
        last = self._last_cube
        # a double moves the cube (offered, or onto a player's side at a higher level
        # [001 4.4]); a face read otherwise where the cube lay is no double, nor is
        # the cube seen in the middle or back on its owner's side (a flicker:
        # :meth:`_on_owners_side`)
        turned = (
            cube is not None
            and last is not None
            and cube != last
            and (
                cube.place == "offered"
                or (
                    cube.place != last.place
                    and cube.place != "centre"
                    and cube.level > self.state.cube_value
                    and not self._on_owners_side(cube)
                )
            )
        )
        if cube is not None and turned:
            if cube.place == "offered":
                early = self.state.cube_owner == 1 - mover
            else:
                early = cube.place == self.side(mover)  # the cube to him: his opponent's
            code = self.state.can_double(1 - mover) if early else "already_rolled"
            if code is None:
                # The opponent doubled before the play was over, which stands and
                # waits for the play [001 4.4(v)]; recorded now, so that the record
                # replays to the same match.
                self._record_double(1 - mover, cube, EARLY_DOUBLE_NOTE)
            else:
                # The mover turned the cube after rolling [001 4.4(ii)], or his
                # opponent doubled when he may not.
                self._illegal_double(1 - mover if early else mover, code)
        theirs = self._not_movers(dice)
        if len(theirs) >= 2:
            self._premature(s, theirs[:2])

    def _see_lone_roll_danced(self, s: Sighting) -> bool:
        """The mover's roll, taken as valid because a roll of his before it was void
        (seen by one die alone, ``LONE_DIE_NOTE``, or judged invalid for a fault only
        the camera sees, ``TAKEN_VALID_FAULTS``), lifted by his opponent's arm alone
        with his checkers unmoved where it has a play, while the roll before left him
        none (the die glimpsed is one of a dancing roll; the numbers judged dance):
        that roll stood and he danced with it, and the roll taken for his was his
        opponent's in the wrong half [001 4.1(iv)(a)], picked up by its roller to roll
        again. Players lift their own dice [001 4.1(vi)(a)], and an empty play of a
        roll that has one is an illegal play players seldom make (s102 clip 9902 at
        604.2-610.1 s: on the bar, an 11 seen by one 1 and danced; the opponent's 52
        rolled into his half was taken for his roll made again, then read again as a
        dance of 42 when the opponent rolled 42 in his own half; a void roll made up,
        a wrong-half roll missed. s106 clip 10301 at 405.6-411.3 s: the same after a
        flat 43 read cocked).

        The roll is withdrawn (``correction``, ``action`` ``dance_unseen``), with the
        void roll's judgement where it was one die seen, his dance recorded
        (:meth:`_unseen_dance`: the likeliest dancing roll given the die glimpsed, or
        the numbers judged, taken as valid) and the dice judged as his opponent's
        roll; the opponent's roll made again is the caller's to see. Returns whether
        that was so."""
        state, voided, rolled = self.state, self._lone_voided, self._rolled
        if not self._by_halves() or state.dice is None or len(rolled) != 2:
            return False
        mover = state.on_roll
        other = 1 - mover
        if self._arms_now != {other}:
            return False  # (his own arm may have lifted them: his roll, unplayed)
        live = self._live_events()
        invalid, roll = live[-2:] if len(live) >= 2 else (None, None)
        if not (
            isinstance(invalid, RollInvalidEvent)
            and invalid.player == mover
            and isinstance(roll, RollEvent)
            and roll.player == mover
            and roll.note is None
        ):
            return False
        position, evidence = state.position, s.checkers
        dances = self._dancing_rolls(position)
        lone = voided[1] if voided is not None and voided[0] == invalid.seq else None
        if lone is not None:
            if not any(lone.value in r for r in dances):
                return False
        else:
            judged = _camera_judged(invalid)
            if judged not in dances:
                return False
            dances = [judged]  # the dance he made: his roll as judged
        unmoved = evidence.log_likelihood(position)
        if _dances(position, state.dice) or not self._explains(evidence, unmoved):
            return False
        if self._played_rather(evidence, unmoved, legal_plays(position, state.dice)):
            return False
        if "wrong_half" not in self.roll_faults(other, rolled):
            return False
        self._emit(
            CorrectionEvent,
            data={
                "action": "dance_unseen",
                "withdraws": [*([invalid.seq] if lone is not None else []), roll.seq],
            },
            target_seq=roll.seq,
        )
        self._rebuild()
        if lone is not None:
            self._glimpsed = (lone,)
        self._unseen_dance(mover, dances)
        self._roll(other, rolled)
        return True

    def _see_reroll(self, s: Sighting, dice: tuple[SeenDie, ...]) -> bool:
        """The mover rolled again without playing: two other dice lie in his half
        and the checkers have not moved. Players roll again only after a roll that
        must be repeated [001 4.1(iv), 000 r9], so the roll taken as valid was not:
        most likely a die cocked more than the camera could tell. That roll is
        withdrawn (a ``correction``, ``action: reroll``) and recorded as invalid for
        its likeliest fault, and the new roll judged as any other.

        A roll that left him no play needs no second roll, nor one that did with a die
        read one off (:meth:`_dance_misread`): the new dice are then his
        opponent's, in the wrong half, unless the camera saw only his arm reach onto
        the board since (:meth:`_arms_of`), or, where it saw no arm, a die of his
        roll looked cocked from ``DANCE_REROLL_COCKED_P``.

        One die alone in his half, neither where his dice lay nor of their numbers,
        is such a roll too, its other die not found (s21 clip 1601: a cocked 4 taken
        as flat, then a 62 of which the camera found the 6; the unmoved board was
        taken for a dance). The new roll is then read from his play, the die seen
        weighing the rolls, as a roll not seen is (:meth:`_see_unseen_roll`).

        Two new dice are the roll's read again only where each lies where one of the
        roll's lay: a die of a new roll may come to rest where one of the old did
        (s35 clip 3004 at 18 s: a 51, its 1 cocked unseen, then a 42 whose 2 lay a
        cm from the 5, the 4 six cm from either; the unmoved board was flagged as no
        play of 51)."""
        state, before = self.state, self._before_roll
        if (
            not self._by_halves()
            or len(self._rolled) != 2
            or state.dice is None
            or before is None
            or before.phase is not Phase.ROLL
        ):
            return False
        mover = state.on_roll
        mine = [d for d in dice if d.half == self.right_half(mover)]
        lone = len(dice) == len(mine) == 1
        if not (len(dice) == len(mine) == 2 or lone):
            return False
        if self._movers_dice_down(dice) and not self._one_landed_by_his(mine):
            return False
        if all(d.at is not None for d in (*mine, *self._rolled)):
            if all(any(_near(a, b) for b in self._rolled) for a in mine):
                return False  # the dice where the roll's lie: the roll misread
        elif lone or sorted(d.value for d in mine) == sorted(state.dice):
            return False  # the same numbers where places are unknown: the same dice
        if lone and mine[0].value in state.dice:
            return False  # one of his dice pushed aside [001 4.1(ii)], the other hidden
        evidence = s.checkers
        unmoved = evidence.log_likelihood(state.position)
        if not self._explains(evidence, unmoved):
            return False
        plays = legal_plays(state.position, state.dice)
        if self._played_rather(evidence, unmoved, plays):
            return False  # he played: the new dice are his opponent's
        if state.position in plays or self._dance_misread(state.position, evidence) is not None:
            # he could not move (or could not with a die read one off: s132 clip 12901
            # at 412.9 s, a 31 read 32, the 1 at 0.38): the opponent's roll comes
            # next, unless the arms seen since tell otherwise, or else a die of his
            # roll looked cocked
            arms = self._arms_now
            if arms and arms != {mover}:
                return False
            if not arms and max(d.cocked for d in self._rolled) < DANCE_REROLL_COCKED_P:
                return False
        roll = self._last_roll()
        if roll is None:
            return False
        reason = self._likeliest_fault(self._rolled, state.position)
        self._emit(
            CorrectionEvent,
            data={"action": "reroll", "withdraws": [roll.seq]},
            target_seq=roll.seq,
        )
        self.state = before.invalid_roll(player=mover)
        self._emit(
            RollInvalidEvent, player=mover, dice=state.dice, reasons=(reason,), note=REROLL_NOTE
        )
        self._rolled = ()
        if lone:
            self._glimpsed = tuple(mine)  # the new roll, read from his play
        else:
            self._roll(mover, mine)
        return True

    def _arms_of(self, s: Sighting) -> set[int]:
        """The players whose arms the camera saw reach onto the board before view
        ``s`` (``Sighting.arms``): after a roll that left its roller no play, two new
        dice in his half are his roll made again where his arm alone lifted and
        rolled, and his opponent's roll in the wrong half where the opponent's arm
        came in too (s87 clip 8401 at 194.0-197.0 s: a 21 on the bar, its 2 cocked
        and read flat, then 53 rolled again by the same hand; taken for the
        opponent's roll in the wrong half, the invalid roll missed, one made up)."""
        bottom = self.config.bottom_player
        return {bottom if seat == "bottom" else 1 - bottom for seat in s.arms}

    def _played_rather(
        self, evidence: CheckerEvidence, unmoved: float, plays: Iterable[Position]
    ) -> bool:
        """Whether a legal play of the mover's roll (``plays``, its legal results)
        explains the board ``PLAYED_MARGIN``
        better than the board unmoved (log-likelihood ``unmoved``): he played, and two
        dice in his half after it are his opponent's roll in the wrong half, not his
        roll made again, which comes before a play [001 4.1(iv)]. A pile under a die
        reads softly, and the unmoved board may explain it too (s47 clip 4204 at
        575 s: 2/0 2/0 with a 43, the 2 point under the opponent's 2, the play at
        the board's best, the unmoved board 1.9 below)."""
        before = self.state.position
        return any(
            evidence.log_likelihood(p) - unmoved >= PLAYED_MARGIN for p in plays if p != before
        )

    def _one_landed_by_his(self, mine: Sequence[SeenDie]) -> bool:
        """Two dice in the mover's half, one where a die of his roll lay and read as
        its number, the other where none lay, read surely (``REREAD_P``) as another
        number than the die gone: his roll made again, one die landing by where one of
        the last lay (s22 clip 1702: a cocked 66 taken as valid, rolled again as 64,
        the 6 by the 6; s42 clip 3701 at 515 s: a 21 with its 2 cocked unseen, rolled
        again as 11, the 1 by the 1, and the 11 played was flagged as no play of 21).
        Not his dice read again, each where one lay (:meth:`_see_dice_read_again`),
        nor a die of his pushed aside, its number kept [001 4.1(ii)]."""
        rolled = self._rolled
        if len(mine) != 2 or len(rolled) != 2 or any(d.at is None for d in (*mine, *rolled)):
            return False
        for stays, new in ((mine[0], mine[1]), (mine[1], mine[0])):
            kept = [r for r in rolled if _near(r, stays)]
            if len(kept) != 1 or kept[0].value != stays.value:
                continue
            if any(_near(r, new) for r in rolled) or new.p < REREAD_P:
                continue
            gone = rolled[1] if kept[0] is rolled[0] else rolled[0]
            if new.value != gone.value:
                return True
        return False

    def _see_dice_read_again(self, dice: tuple[SeenDie, ...]) -> bool:
        """The mover's dice, still down where they lay, read again: a die read unsure
        (under ``REREAD_P``) when the roll was taken now reads surely as another
        number (s14 clip 992: a 3 read as a 1 at 0.74, then as a 3 at 1.0). The roll
        is put right (``correction`` ``reread_dice``) before his play is judged.
        Returns whether it was.

        A die read surely both times, as two numbers, is taken for the later read
        too: the first view of a roll is often caught as the dice come to rest (s17
        clips 1202 and 1203, three such dice, the later read right each time: a 5
        read as a 6 at 0.96, then as a 5 at 0.99, and 4/0 4/0, legal with both,
        recorded with the wrong roll); but it keeps the two reads' probabilities
        mixed (:func:`_mixed_reads`), so that a play legal only with the first
        number is taken for it (:meth:`_reread_roll`).

        A die read again unsure, or one die only seen again, is not believed over
        the first read, but no longer either: the roll's die is kept with the two
        reads mixed, so that a play legal with the other number is taken for it and
        not flagged (s17 clip 1202: a 4 read as a 3 at 1.0, then as a 4 at 1.0, one
        die seen, and 8/4 4/2 flagged as not a play of 32). Where both dice are seen
        again and the two reads mixed make another number likelier than the one
        recorded (by ``MIXED_MARGIN``), the roll is put right to it."""
        state, rolled = self.state, self._rolled
        if state.dice is None or len(rolled) != 2:
            return False
        halves = self._by_halves()
        opening = not halves and self._opening_to_reread() is not None
        if not (halves or opening):
            return False
        # the opening's dice lie one in each half [000 r8]
        mine = (
            list(dice) if opening else [d for d in dice if d.half == self.right_half(state.on_roll)]
        )
        if not mine or len(mine) > 2 or any(d.at is None for d in (*mine, *rolled)):
            return False
        pairs = _where_they_lay(rolled, mine)
        if pairs is None:
            return False  # not the dice of the roll, where they lay
        if self._rolled_where_his_lay(pairs):
            return False  # a new roll (:meth:`_movers_dice_down`)
        if opening:
            # its reads are mixed, for the play to tell who started and with what
            # (:meth:`_reread_roll`; s146 clip 14304 at 153.1 s: player 1's 5 read as a 2
            # at 0.71, the 5 at 0.03, then at 0.62 and 0.05; his 24/23 13/8 flagged as
            # no play of 21)
            self._rolled = _with_reads_mixed(rolled, pairs)
            return False
        changed = [(old, new) for old, new in pairs if old.value != new.value]
        if (
            changed
            and len(mine) == 2
            and all(new.p >= REREAD_P for _, new in changed)
            and sorted(d.value for d in mine) != sorted(state.dice)
        ):
            self._reread_dice((mine[0].value, mine[1].value))
            now = {id(old): _read_surely_again(old, new) for old, new in pairs}
            self._rolled = tuple(now[id(d)] for d in rolled)
            return True
        # The dice read again as other numbers are mixed; where none is, the reads still
        # tell how sure: a die read 3 at 0.84, then 3 at 0.62 (its 5 risen), is kept
        # with both reads mixed, so that a play legal only with the 5 is taken for it
        # (s28 clip 2303 at 227 s: a 65 flagged as no play of 63). But a die read
        # unsure when the roll was taken and surely now as the same number is taken
        # as read now, as one read surely as another number is above: mixed, a read
        # made as the die came to rest halves what the sure one says (s87 clip 8401 at
        # 629.6 s: a 31's 1 read at 0.50, the 2 at 0.49, then at 0.996; pooled, the 2
        # kept 0.057, and 4/2 3/0 was taken for a 32's, flagged 4.9 s late).
        settled = {
            id(old): new
            for old, new in pairs
            if old.value == new.value and old.p < REREAD_P <= new.p
        }
        mixed = _with_reads_mixed(
            rolled, [(o, n) for o, n in changed or pairs if id(o) not in settled]
        )
        self._rolled = tuple(settled.get(id(d), d) for d in mixed)
        # Both dice seen again, and the two reads together make another number the
        # likelier for a die: the roll is put right. A roll's first view is often made
        # as the dice come to rest (s56 clip 5103 at 481 s: a 2 read as a 3 at 0.32,
        # then as a 2 at 0.72 from three still frames; a dance, so no play could tell).
        likelier = tuple(_likelier_number(d) for d in self._rolled)
        if (
            changed
            and len(mine) == 2
            and likelier != tuple(d.value for d in self._rolled)
            and sorted(likelier) != sorted(state.dice)
        ):
            self._reread_dice((likelier[0], likelier[1]))
            self._rolled = tuple(
                replace(d, value=v, p=d.faces()[v - 1])
                for d, v in zip(self._rolled, likelier, strict=True)
            )
            return True
        return False

    def _rolled_where_his_lay(self, pairs: Sequence[tuple[SeenDie, SeenDie]]) -> bool:
        """Whether the mover's two dice, seen again where they lay (``(his, seen)``
        pairs, :func:`_where_they_lay`), are a new roll landed there: both read as
        other numbers as :func:`_both_rolled_again` says, with his play made since
        (the board unmoved, they are his roll read again: s35 clip 3004)."""
        changed = [(old, new) for old, new in pairs if old.value != new.value]
        return _both_rolled_again(changed) and not self._unmoved()

    def _by_halves(self) -> bool:
        """Whether the mover's dice are told from others by the half they lie in: his
        right half [001 4.1(iv)(a)]; not after the opening roll (one die in each
        half [000 r8]) nor where either half will do."""
        return self.state.profile.dice_half == "right" and self.state.turns_played > 0

    def _movers_dice_down(self, dice: Sequence[SeenDie]) -> bool:
        """Whether the mover's dice are still on the table: the numbers he rolled among
        the dice seen (in his right half, where the profile wants them there)."""
        state = self.state
        if self._by_halves():
            dice = [d for d in dice if d.half == self.right_half(state.on_roll)]
        if state.dice is None or not dice:
            return False
        if self._rolled and all(d.at is not None for d in (*dice, *self._rolled)):
            # Known places: the roll's dice still lie where they came to rest, whatever
            # they are read as now (a die does not turn by itself). Players lift both
            # dice at once: one of them still there, no other roll beside it, and the
            # other is hidden (a hand) or nudged, not lifted.
            near = [r for r in self._rolled if any(_near(r, d) for d in dice)]
            if len(near) == len(self._rolled):
                # ...unless a new roll landed where his lay, his lifted unseen
                there = [d for d in dice if _near_any(d, self._rolled)]
                pairs = _where_they_lay(self._rolled, there)
                return pairs is None or not self._rolled_where_his_lay(pairs)
            if not near or len(dice) < 2:
                return bool(near)
            if not any(_near(r, d) and d.value == r.value for r in near for d in dice):
                return False
            # One of them there, the other gone, and one die more seen where none of
            # his lay, of another number than the one gone: not his other die nudged
            # but a new roll, one die of it landed where his lay (s22 clip 1704: the
            # opponent's 42 after an opening 32, its 2 by the opening's 2). Only where
            # his dice are not told by their half: in his own half such dice are his
            # dice read again (:meth:`_see_dice_read_again`) or, read surely, his roll
            # made again, which the caller tells (:meth:`_one_landed_by_his`; s22 clip
            # 1702: a cocked 66 taken as valid, rolled again as 64, the 6 by the 6).
            if self._by_halves():
                return not self._landed_by_his_after_play(dice)
            gone = [r.value for r in self._rolled if r not in near]
            new = [d for d in dice if not any(_near(r, d) for r in self._rolled)]
            return not (len(dice) == 2 and len(new) == 1 and new[0].value not in gone)
        rest = _without_values(dice, state.dice)
        return len(rest) == len(dice) - len(state.dice)

    def _landed_by_his_after_play(self, mine: Sequence[SeenDie]) -> bool:
        """:meth:`_one_landed_by_his`'s two dice, one where a die of the mover's roll
        lay and one new, while the board shows a legal play of his roll made: he
        rolls again before he plays, not after, so he lifted his dice and these are
        his opponent's roll in the wrong half, one die landing where his lay (s69 clip
        6503 at 541.2 s: a 54 played 14/9 9/5, then the opponent's 52 in his half, its
        5 by his 5; taken for his dice still down, the invalid roll missed)."""
        if not self._one_landed_by_his(mine) or self.state.dice is None:
            return False
        evidence, before = self._seen_checkers, self.state.position
        if evidence is None or self._explains(evidence, evidence.log_likelihood(before)):
            return False
        ll, pos, _ = self.best_result(before, self.state.dice, evidence)
        return pos != before and self._explains(evidence, ll)

    def _not_movers(self, dice: Sequence[SeenDie]) -> list[SeenDie]:
        """The dice that are not the mover's own (a premature roll by the opponent):
        those not in his right half; where his dice are not told by their half (the
        opening's, one in each), those not lying where his lay, else not of his
        numbers. A die of his still lying there is his whatever it reads as now (s99
        clip 9602 at 358.2 s: the opening 41, player 1's 4 read as a 2, read again
        from his play as a 4; player 0's 32 rolled early beside the opening's 1, and
        the 2 of his roll taken away by number rather than the opening's 2 where it
        lay: a 32 with a die in the wrong half, judged invalid)."""
        state = self.state
        if self._by_halves():
            return [d for d in dice if d.half != self.right_half(state.on_roll)]
        his = self._rolled
        if his and all(d.at is not None for d in (*dice, *his)):
            rest = [d for d in dice if not _near_any(d, his)]
            if len(rest) == len(dice) - len(his):
                return rest
        return _without_values(dice, state.dice or ())

    def _premature(self, s: Sighting, theirs: Sequence[SeenDie]) -> None:
        """The opponent rolled while the mover's dice were still down: the play is
        over [001 4.1(v)(a)]; the roll stands under ``wbf``, else it is re-rolled
        [000 r9, 002]."""
        mover = self.state.on_roll
        other = 1 - mover
        self._decide_play(s)
        if self.flag is not None:
            self.accept_illegal_play()  # the opponent rolled: it stands [001 4.2(iii)(a)]
        if self.state.phase is Phase.ROLL and self.state.on_roll == other:
            self._premature_roll(other, theirs)

    def _their_play_seen(
        self,
        s: Sighting,
        before: Position,
        rolls: Sequence[tuple[tuple[int, int], float]],
        *,
        turn_missed: bool = False,
    ) -> tuple[tuple[int, int], Position, str] | None:
        """The mover's play when the board shows his opponent's play made on it too:
        the opponent's dice lie in his half, or one of them where the camera missed
        the other (s28 clip 2301 at 397 s), rolled before the mover's turn was seen
        to end [001 4.1(v)(a)] or the end missed, and no settled view came between
        the plays (hands over the table). The mover's checkers are then judged alone:
        the likeliest of his legal results, under ``rolls`` (each with a prior), that
        explains the board with the opponent's checkers as seen (:func:`_with_their_play`)
        is returned as (roll, result, play text); ``None`` when none does. The
        opponent's play is judged after, when he lifts his dice (s22 clip 1704: a
        premature 31 played before the view after the mover's 53, the 53 flagged
        and the match taken from the board).

        ``turn_missed``: the mover's dice are lifted and dice lie in his half again,
        none in his opponent's: his next roll, his opponent's whole turn made unseen
        in between (s35 clip 3003 at 314 s: 25/19 with a 62, the opponent's 63 and
        5/0 3/0 under hands, then the mover's 54). His play is judged the same way;
        the caller then reads the opponent's turn from the board.

        After the opening roll, whose dice lie one in each half [000 r8], the
        opponent's are the dice in his right half where no opening die lay (s70 clip
        6603 at 90.4 s: an opening 63 played 24/15, the opponent's early 64 rolled
        beside his opening die and played 24/18 before a view; the 63 flagged, and
        four plays lost to resyncs after)."""
        mover = self.state.on_roll
        live = self._live_dice(s.dice)
        # the opponent's whole turn made unseen: his dice lifted, the mover's next down
        whole_turn = False
        if self._by_halves():
            theirs = [d for d in live if d.half == self.right_half(1 - mover)]
            if not theirs and turn_missed:
                theirs = [d for d in live if d.half == self.right_half(mover)]
                whole_turn = True
        elif self.state.profile.dice_half == "right" and len(self._rolled) == 2:
            theirs = [
                d
                for d in live
                if d.half == self.right_half(1 - mover)
                and d.at is not None
                and all(r.at is not None and not _near(d, r) for r in self._rolled)
            ]
        else:
            return None
        seen = self._possible_guess(s.checkers, mover)
        if not theirs or seen is None:
            return None
        best: tuple[float, float, tuple[int, int], Position, str] | None = None
        for roll, prior in rolls:
            for pos, plays in legal_plays(before, roll).items():
                both = _with_their_play(pos, seen, mover)
                if both is None:
                    continue
                ll = s.checkers.log_likelihood(both)
                if best is None or ll + prior > best[0]:
                    text = plays[0].mat_text() if plays else ""
                    best = (ll + prior, ll, roll, pos, text)
        if best is None or not self._explains(s.checkers, best[1]):
            return None
        # a whole turn made unseen is one some roll makes (s112 clip 10903 at 511.2 s:
        # the mover's checker on a held point read as his opponent's, his play taken
        # for a legal one and the opponent's turn after it, off the bar onto his
        # 7-point); with the opponent's dice down, his play may be under way, or illegal
        if whole_turn and not self._some_play_explains(best[3].with_turn(1 - mover), s.checkers):
            return None
        return best[2], best[3], best[4]

    def ranked_results(
        self, before: Position, dice: tuple[int, int], evidence: CheckerEvidence
    ) -> list[tuple[float, Position, str]]:
        """Every legal result of ``dice`` from ``before`` with its log-likelihood under
        the evidence and its play text, best first."""
        out = []
        for pos, plays in legal_plays(before, dice).items():
            text = plays[0].mat_text() if plays else ""
            out.append((evidence.log_likelihood(pos), pos, text))
        out.sort(key=lambda r: (-r[0], r[1].position_id()))
        return out

    def best_result(
        self, before: Position, dice: tuple[int, int], evidence: CheckerEvidence
    ) -> tuple[float, Position, str]:
        """The first of :meth:`ranked_results`, without writing every play's text or
        sorting: the loop asks this for every play and every roll it reads again."""
        results = legal_plays(before, dice)
        best_ll, best = max(
            ((evidence.log_likelihood(pos), pos) for pos in results),
            key=lambda r: (r[0], _negated_id(r[1])),
        )
        plays = results[best]
        return best_ll, best, plays[0].mat_text() if plays else ""

    def _bars_read_right(self, s: Sighting) -> Sighting:
        """The view after a play, to judge it by: ``s``, or ``s`` with its two bars'
        counts read the other way round (:class:`_BarsSwapped`) where its checkers'
        best guess has more of the mover's on the bar than before his play, or fewer
        of his opponent's, no legal result explains it, and one does with the bars
        swapped. No play puts the mover's own checkers on the bar, only his
        opponent's, hit [000 r14]; his opponent's leave it on his own turn [000 r15]
        (where that turn was made unseen, hitting the mover, no swap explains the
        board). A bar's colour is read from a few checkers' edges: one view may swap
        it (s53 clip 4801 at 401.5 s: player 0's two checkers on the bar read as
        player 1's, 55 played as 6/1 5/0(3) flagged as 6/25 5/25 5/1 5/0; the next
        view read it right), and on some boards every view does (s120 clip 11702 at
        188.3 s: player 0's three read as player 1's after his bear-off 6/0(3) 5/0;
        the view was passed over to wait for a view read right, and the next showed
        player 0's entry made as well: 6/25 6/25 6/0 5/0 flagged, and five plays
        lost after it)."""
        state = self.state
        if state.dice is None:
            return s
        mover, before = state.on_roll, state.position
        seen = s.checkers.guess(mover)
        if seen is None or not (
            seen.boards[mover][BAR] > before.boards[mover][BAR]
            or seen.boards[1 - mover][BAR] < before.boards[1 - mover][BAR]
        ):
            return s
        best_ll, _, _ = self.best_result(before, state.dice, s.checkers)
        if self._legal_with_bars_swapped(s.checkers, best_ll) is None:
            return s
        return replace(s, checkers=_BarsSwapped(s.checkers))

    def _legal_with_bars_swapped(
        self, evidence: CheckerEvidence, best_ll: float
    ) -> tuple[Position, str] | None:
        """Where no legal result of the mover's dice explains the view (``best_ll``)
        but one does with its two bars' counts read the other way round
        (:class:`_BarsSwapped`), one whose bars differ: that result and its play's
        text; else None."""
        state = self.state
        if state.dice is None or self._explains(evidence, best_ll):
            return None
        swapped = _BarsSwapped(evidence)
        ll, result, text = self.best_result(state.position, state.dice, swapped)
        if _bars_swapped(result) is None or not self._explains(swapped, ll):
            return None
        return result, text

    def _decide_play(self, s: Sighting) -> None:
        """The mover's play, judged from the view after it: the likeliest legal result
        of his dice, or the dice read again, or an illegal play flagged. A close call
        made earlier is weighed on this play too (:class:`_Doubt`)."""
        state = self.state
        assert state.dice is not None
        best_ll, best, text = self.best_result(state.position, state.dice, s.checkers)
        rejudged, other = self._weigh_doubt(s.checkers, best_ll)
        if rejudged:
            return  # the plays since the close call were recorded again, this one too
        first = len(self.events)
        self._decide_play_now(s, best_ll, best, text)  # (its _reread_roll sets _close)
        made = self.events[first:]
        plain = self._carry_doubt(other, made)
        if self._close is not None and plain:
            lead, roll, pos, text = self._close
            self._doubt = _Doubt(made[0].seq, roll, [(pos, text)], lead)
        self._close = None

    def _carry_doubt(self, other: tuple[float, Position, str] | None, made: list[Event]) -> bool:
        """The close call still open carried past the events ``made`` for a play, its
        other branch's result ``other`` (:meth:`_weigh_doubt`): the branch goes on
        where they are a legal play alone; the call waits where they are a play
        flagged; else it stands. Returns whether they are a legal play alone."""
        # a legal play alone: no dice read again, no flag, the game not over
        plain = len(made) == 1 and isinstance(made[0], MoveEvent) and made[0].legal
        doubt = self._doubt
        if doubt is not None:
            if plain and other is not None and len(doubt.branch) < DOUBT_PLAYS:
                doubt.branch.append(other[1:])
                doubt.lead = other[0]
                if doubt.lead < -REREAD_MARGIN:
                    self._doubt = None
            elif other is not None and _flagged_play(made) and len(doubt.branch) < DOUBT_PLAYS:
                doubt.flagged = True  # weighed when it is put right (_see_flagged)
            else:
                self._doubt = None
        return plain

    def _legal_move_weighed(
        self, evidence: CheckerEvidence, ll: float, after: Position, text: str
    ) -> None:
        """Record the legal play ``after`` (log-likelihood ``ll`` under ``evidence``)
        of the dice on the record, decided outside :meth:`_decide_play` (a roll
        judged invalid and played as it lay), weighed on the close call still open as
        :meth:`_decide_play` weighs its plays."""
        rejudged, other = self._weigh_doubt(evidence, ll)
        if rejudged:
            return
        first = len(self.events)
        self._legal_move(after, text)
        self._carry_doubt(other, self.events[first:])

    def _weigh_doubt(
        self, evidence: CheckerEvidence, best_ll: float
    ) -> tuple[bool, tuple[float, Position, str] | None]:
        """The close call still open, weighed on the play now judged (best legal
        result ``best_ll``): on the other roll's branch, the likeliest legal result of
        these dice, and the lead with it. When the lead passes ``REREAD_MARGIN`` and
        that result explains the board, the plays are recorded again, this one with
        them (:meth:`_rejudge`): ``(True, None)``. Else ``(False, (lead, result,
        text))``, or ``(False, None)`` with no call open or a record since that the
        branch cannot redo (the call then stands)."""
        doubt, state = self._doubt, self.state
        if doubt is None:
            return False, None
        if not self._doubt_intact(doubt) or doubt.branch[-1][0].is_game_over():
            self._doubt = None  # (a branch whose game is over cannot go on)
            return False, None
        assert state.dice is not None
        start = doubt.branch[-1][0].with_turn(state.on_roll)
        ll, pos, text = self.best_result(start, state.dice, evidence)
        lead = doubt.lead + ll - best_ll
        if lead > REREAD_MARGIN and self._explains(evidence, ll):
            self._doubt = None
            self._rejudge(doubt, pos, text)
            return True, None
        return False, (lead, pos, text)

    def _doubt_intact(self, doubt: _Doubt) -> bool:
        """Whether the record since the close call is one its other branch can redo:
        nothing but valid rolls as seen, rolls judged invalid and legal plays, one for
        each play of the branch after its first, in the same game; with ``flagged``,
        then the play flagged."""
        move = self.events[doubt.seq] if doubt.seq < len(self.events) else None
        if not isinstance(move, MoveEvent) or doubt.seq in withdrawn_seqs(self.events):
            return False
        later = self.events[doubt.seq + 1 :]
        if doubt.flagged:  # ... and the play flagged last, as it was made
            if not _flagged_play(later[-2:]):
                return False
            later = later[:-2]
        plays = 0
        for e in later:
            if isinstance(e, MoveEvent) and e.legal:
                plays += 1
            elif not (
                (isinstance(e, RollEvent) and e.note in (None, TAKEN_VALID_NOTE))
                or isinstance(e, RollInvalidEvent)
                or (isinstance(e, CorrectionEvent) and e.data.get("action") == "taken_valid")
            ):
                return False
        return plays == len(doubt.branch) - 1

    def _rejudge_flagged(self, flag: _Flag, evidence: CheckerEvidence, best_ll: float) -> bool:
        """The play flagged put right, seen: where the board is no legal result of his
        dice on the record (``best_ll``) but one on the other branch of the close call
        still open, by more than ``REREAD_MARGIN`` with the call's lead, the call's
        roll was misread and the flagged play was put right on the board as it truly
        stood (:meth:`_rejudge`). s85 clip 8201 at 380.9 s: a 63 read 62 (the 3 at
        0.51, a close call), its 3/0 3/0 taken for 3/1 3/0; the opponent's next play
        flagged, put right, read as no legal play with the checker left on the
        1-point, and accepted as the closest: the position stayed wrong until
        taken from the board four plays later."""
        doubt = self._doubt
        if doubt is None or not doubt.flagged:
            return False
        if not self._doubt_intact(doubt):
            self._doubt = None
            return False
        start = doubt.branch[-1][0].with_turn(flag.player)
        ll, pos, text = self.best_result(start, flag.dice, evidence)
        if doubt.lead + ll - best_ll <= REREAD_MARGIN or not self._explains(evidence, ll):
            return False
        self._doubt = None
        self._rejudge(doubt, pos, text, evidence)
        return True

    def _rejudge(
        self,
        doubt: _Doubt,
        pos: Position,
        text: str,
        evidence: CheckerEvidence | None = None,
    ) -> None:
        """The plays after a close call explain the board better on the other roll's
        branch, by more than ``REREAD_MARGIN`` with the call's own lead: the roll was
        misread. The play of the call and every event after it are withdrawn (a
        ``correction``, ``action: rejudge``) and recorded again, as they were made
        and when: the roll read again (``reread_dice``), each play as the branch has
        it, the rolls between as they were; then the play now judged, ``pos``. With
        the call ``flagged``, the play flagged is recorded again from the branch's
        board, its suggestions the legal results ranked by ``evidence`` (the board put
        right), and ``pos`` clears the flag as put right."""
        call = self.events[doubt.seq]
        assert isinstance(call, MoveEvent)
        later = self.events[doubt.seq + 1 :]
        roll = self._last_roll(before=doubt.seq)  # the call's roll: live, or no doubt
        dice = (max(doubt.roll), min(doubt.roll))
        self._emit(
            CorrectionEvent,
            data={
                "action": "rejudge",
                "dice": list(dice),
                "read": list(call.dice),
                "withdraws": list(range(doubt.seq, len(self.events))),
            },
            target_seq=doubt.seq,
            note=REJUDGED_NOTE,
        )
        self._emit(
            CorrectionEvent,
            data={"action": "reread_dice", "dice": list(dice), "read": list(call.dice)},
            target_seq=None if roll is None else roll.seq,
            t=call.t,
            frame=call.frame,
        )
        before = Position.from_position_id(call.before, turn=call.player)
        plays = iter(doubt.branch)  # one for each play, the call's first (_doubt_intact)
        flagged: tuple[Position, tuple[int, int], Position | None] | None = None
        renumbered: dict[int, int] = {}  # each event's seq then and now
        for e in [replace(call, dice=dice), *later]:
            renumbered[e.seq] = len(self.events)
            if isinstance(e, CorrectionEvent) and "withdraws" in e.data:
                # a judgement withdrawn (taken as valid) is withdrawn as recorded again
                e = replace(
                    e,
                    data={
                        **e.data,
                        "withdraws": [renumbered.get(w, w) for w in e.data["withdraws"]],
                    },
                    target_seq=None
                    if e.target_seq is None
                    else renumbered.get(e.target_seq, e.target_seq),
                )
            if isinstance(e, MoveEvent) and e.legal:
                after, play = next(plays)
                e = replace(
                    e,
                    play=play,
                    before=before.with_turn(e.player).position_id(),
                    after=after.with_turn(e.player).position_id(),
                )
                before = after
            elif isinstance(e, MoveEvent):  # the play flagged, the last but one
                start = before.with_turn(e.player)
                unseen = e.note == UNSEEN_RESULT_NOTE
                shown = None if unseen else Position.from_position_id(e.after, turn=e.player)
                flagged = (start, e.dice, shown)
                written = describe_change(start, shown) if shown is not None else ""
                e = replace(e, before=start.position_id(), play=written)
            elif isinstance(e, FlagEvent) and flagged is not None:
                start, rolled, shown = flagged
                written = describe_change(start, shown) if shown is not None else "?"
                ranked = [] if evidence is None else self.ranked_results(start, rolled, evidence)
                e = replace(
                    e,
                    message=_illegal_message(written, rolled),
                    rule=broken_rule(start, rolled, shown),
                    suggestions=tuple(
                        FlagSuggestion(play=t, after=p.position_id())
                        for _, p, t in ranked[: self.config.suggestions]
                    ),
                )
            self.events.append(replace(e, seq=len(self.events)))
        fresh = Referee.resume(self.config, self.events)
        self.state, self._before_roll = fresh.state, fresh._before_roll
        if fresh.flag is not None:
            self.flag = None
            self._emit(FlagClearedEvent, flag_id=fresh.flag.flag_id, how="corrected")
        self._legal_move(pos, text)

    def _moved_without_play(self, evidence: CheckerEvidence, best: Position) -> bool:
        """The mover's dice leave him no play, a view since his roll read the board
        exactly as it stood, and this one reads it otherwise: he moved a checker
        with nothing to play [000 r12, r16], though the board as it stood is close
        enough to this reading (s44 clip 3901 at 359 s: 1/0 with a 66 that played
        nothing, from a pile of eight read as seven after, the tall pile believed
        only roughly). Not where no view since the roll read the board exactly: a
        reading that never matched it says nothing of a change, nor one that differs
        in the opponent's checkers or on the bar."""
        state = self.state
        before = state.position
        if best != before or self._seen_exact != before or state.dice is None:
            return False
        if not _dances(before, state.dice):
            return False
        now = evidence.guess(before.turn)
        if now is None:
            return False
        # his checkers on the points changed, his opponent's and his bar as they
        # stood: a pile of the opponent's misread beside the opponent's next roll is
        # no play of his (s40 clip 3501 at 267 s), nor is a checker of his on the bar
        # read as gone, the bar's counts being the least sure (s42 clip 3703 at 594 s),
        # nor a checker more of his on the board, which no move puts there (s168 clip
        # 16501 at 615.8 s: his ace-point's ten read as eleven at 0.48, ten at 0.48)
        mover = state.on_roll
        return (
            now.boards[mover] != before.boards[mover]
            and now.boards[mover][BAR] == before.boards[mover][BAR]
            and now.boards[1 - mover] == before.boards[1 - mover]
            and sum(now.boards[mover]) <= sum(before.boards[mover])
        )

    def _entered_on_held_point(self, evidence: CheckerEvidence, best_ll: float) -> Position | None:
        """The mover, on the bar, put a checker on a point his opponent holds with
        one of his dice [000 r13], and moved nothing else: the board with it there
        (on top of their pile, which reads as theirs, one more) explains the view
        better than the best legal play (``best_ll``) by the odds against an illegal
        play (``ILLEGAL_LOG_ODDS``). A dance may explain it too: a checker gone from
        the bar costs little, the bar's counts being the least sure (s48 clip 4303
        at 466 s: a 41 from the bar onto the held 24 point, the bar read empty and
        the pile as three dark at 0.94, the dance 4.8 below the view's best). So
        may a dance of another roll the dice may have shown, read again
        (:meth:`_reread_roll`), where the dice allow an entry (s54 clip 4903 at
        186 s: with 41, 25/21 onto the held 21 point instead of the open 25/24*;
        the 1, read at 0.57, read again as a 2, and 42 a dance): that board is what
        the view shows, and the dice as read make it, so it is flagged, not read
        again. Returns that board, or None."""
        state = self.state
        if state.dice is None or not state.position.boards[state.on_roll][BAR]:
            return None
        return self._onto_held_point(evidence, best_ll, (BAR,))

    def _onto_held_point(
        self, evidence: CheckerEvidence, best_ll: float, sources: Sequence[int]
    ) -> Position | None:
        """The board with one checker of the mover's moved from one of ``sources``
        (points by index, or ``BAR``) by one of his dice onto a point his opponent
        holds, nothing else moved, that explains the view best: where it explains it,
        and better than the best legal play (``best_ll``) by the odds against an
        illegal play (``ILLEGAL_LOG_ODDS``); else None."""
        state = self.state
        before, dice, mover = state.position, state.dice, state.on_roll
        assert dice is not None
        found: tuple[float, Position] | None = None
        for d in sorted(set(dice)):
            for source in sources:
                target = 24 - d if source == BAR else source - d  # (by index)
                # his point target + 1 is his opponent's point 24 - target
                if target < 0 or not before.boards[mover][source]:
                    continue
                if before.boards[1 - mover][23 - target] < 2:
                    continue  # (open: from the bar, a dance leaves none open)
                mine = list(before.boards[mover])
                mine[source] -= 1
                mine[target] += 1
                boards = list(before.boards)
                boards[mover] = tuple(mine)
                shown = Position((boards[0], boards[1]), before.turn)
                ll = evidence.log_likelihood(shown)
                if found is None or ll > found[0]:
                    found = (ll, shown)
        if found is None or not self._explains(evidence, found[0]):
            return None
        return found[1] if found[0] + ILLEGAL_LOG_ODDS > best_ll else None

    def _bars_read_swapped(self, evidence: CheckerEvidence, best_ll: float) -> bool:
        """No legal result of the mover's dice explains the view (``best_ll``), but
        one does with the view's two bars read the other way round
        (:class:`_BarsSwapped`): that play is recorded. :meth:`_bars_read_right`
        reads a view so where it shows the mover's own checkers put on the bar or
        his opponent's taken off it, which no play does; on some boards every view
        reads the bar so, and the player on the bar then enters with it read the
        wrong way round still (s120 clip 11702 at 190-214 s: player 0's checkers
        on the bar read as player 1's, his entry with 62, 25/19, misjudged). Returns
        whether it was."""
        found = self._legal_with_bars_swapped(evidence, best_ll)
        if found is None:
            return False
        self._legal_move(*found)
        return True

    def _moved_onto_held_point(self, evidence: CheckerEvidence, best_ll: float) -> Position | None:
        """The mover, not on the bar, put one checker on a point his opponent holds
        with one of his dice [000 r13], and moved nothing else, where no legal play
        explains the view (``best_ll``): the board with his checker there (on top of
        their pile, which reads as theirs) explains it, and better than the best legal
        play by the odds against an illegal play (``ILLEGAL_LOG_ODDS``), as
        :meth:`_entered_on_held_point` from the bar (s119 clip 11601 at 46.8 s: a
        42, his lone checker 14/12 onto the opponent's five, the pile read as their
        five and his checker gone; 14/10 10/8 explained the view no better than the
        board as it stood, 13.8 nats under its best, and was taken for legal with
        his 8 point read a checker short). Returns that board, or None."""
        state = self.state
        if state.dice is None or state.position.boards[state.on_roll][BAR]:
            return None
        if self._explains(evidence, best_ll):
            return None
        return self._onto_held_point(evidence, best_ll, range(BAR))

    def _dance_outweighs_entry(
        self, before: Position, evidence: CheckerEvidence, entered: Position
    ) -> bool:
        """Whether a dance of a roll one die off the dice as read
        (:meth:`_dance_misread`) explains the view better than the checker entered on
        a held point (:meth:`_entered_on_held_point`) that the dice as read would
        make: the board as it stood, weighed by the dance's odds against the dice as
        read, against the board with the checker entered, weighed by the odds
        against an illegal play (``ILLEGAL_LOG_ODDS``). (s98 clip 9501 at 134.1 s: a
        dance of 53, its 5 read as a 4 at 0.57, the 5 at 0.32; the bar and the held
        3-point read as they stood, 3.9 likelier than with the checker entered on it,
        and 25/22 was flagged as no play of 43.) Where the view reads the checker
        entered and the bar empty, the entry is what it shows (s54 clip 4903 at
        186 s, the dance 4.8 below it)."""
        dance = self._dance_misread(before, evidence)
        if dance is None:
            return False
        odds, _ = dance
        return bool(
            evidence.log_likelihood(before) + odds
            > evidence.log_likelihood(entered) + ILLEGAL_LOG_ODDS
        )

    def _decide_play_now(self, s: Sighting, best_ll: float, best: Position, text: str) -> None:
        state = self.state
        assert state.dice is not None
        before, dice, mover = state.position, state.dice, state.on_roll
        entered = self._entered_on_held_point(s.checkers, best_ll)
        if entered is not None and self._dance_outweighs_entry(before, s.checkers, entered):
            entered = None  # (and _misread_dance below takes the dance)
        if entered is None:
            entered = self._moved_onto_held_point(s.checkers, best_ll)
        if entered is None and self._bars_read_swapped(s.checkers, best_ll):
            return
        # a checker hidden by a die on its pile is no checker moved, nor one missed
        hidden = self._hidden_under_die(s, best, mover)
        if (
            entered is None
            and (
                self._explains(s.checkers, best_ll)
                or (
                    _one_pile_misread(s.checkers.guess(mover), best, mover)
                    and not self._left_on_bar(before, s.checkers, best_ll)
                )
                or hidden
            )
            and (hidden or not self._moved_without_play(s.checkers, best))
        ):
            if not self._reread_roll(before, s.checkers, best_ll, explained=True):
                if best == before:
                    self._dance_read_best(before)
                self._legal_move(best, text)
            return
        if entered is None and self._reread_roll(before, s.checkers, best_ll):
            return
        if entered is None and self._misread_dance(before, s.checkers):
            return
        found = None
        if entered is None:
            found = self._their_play_seen(s, before, ((dice, 0.0),), turn_missed=True)
        if found is not None:
            self._legal_move(found[1], found[2])
            # found by his own new dice, none in his opponent's half (as it looked)
            theirs = self.right_half(1 - mover)
            self._turn_missed = not any(d.half == theirs for d in self._live_dice(s.dice))
            return
        if entered is None and self._opening_won_by_other(s):
            return
        ranked = self.ranked_results(before, dice, s.checkers)
        shown = entered or _unseen_on_bar(before, self._possible_guess(s.checkers, mover))
        if entered is None and shown is not None:
            legal = [text for _, p, text in ranked if p == shown]
            if legal:
                # the board read, the checkers it lacks put back on the bar, is a legal
                # play: his bar read short, no play to flag (s161 clip 15802 at 447.6 s:
                # three on the bar, 53 entered 25/22 against a made 5-point, the two
                # left there read as none; flagged as no play of 53, and accepted, then
                # his four dances after it flagged likewise)
                if shown == before:
                    self._dance_read_best(before)
                self._legal_move(shown, legal[0])
                return
        if entered is None and self._hit_unseen_before(s.checkers):
            return
        flag = _Flag(self._next_flag_id(), mover, before, dice, shown, best, self._roll_unseen)
        flag.cube_before = self._last_cube
        if self._roll_unseen:
            flag.glimpsed = self._unseen_glimpse
        self._raise_flag(flag, [(p, t) for _, p, t in ranked])

    def _hit_unseen_before(self, evidence: CheckerEvidence) -> bool:
        """The mover's play, no legal play of his dice from the board on the record,
        is one from the board his opponent's last play leaves where it hit a blot of
        his more: the same checkers of the opponent's on the same points, the blot
        on the bar. Whether a checker that passed over a blot hit it, the board
        tells only by the bar, and a bar's count is the least sure of a reading (s184
        clip 18101 at 236.9 s: 13/7* 7/3 of a 64, the blot hit read neither on its
        point nor on the bar, taken for 13/9 9/3; the 32 entered 25/23 6/3 was
        flagged as 18/23 6/3, a checker moved back). The opponent's play is recorded
        again with the hit (``correction`` ``correct_play``, ``HIT_UNSEEN_NOTE``,
        withdrawing it and the mover's roll, recorded again after it, both as made
        and when), then the mover's play. Only where nothing but the mover's roll
        lies between (no correction, no invalid roll: a record this does not redo).
        Returns whether the plays were recorded so."""
        state = self.state
        dice, mover = state.dice, state.on_roll
        move = self._last_move(legal=True)
        roll_event = self._last_roll()
        if dice is None or move is None or roll_event is None or move.player == mover:
            return False
        if roll_event.player != mover or roll_event.seq < move.seq:
            return False
        if any(e is not roll_event for e in self.events[move.seq + 1 :]):
            return False
        recorded = (max(move.dice), min(move.dice))
        before = Position.from_position_id(move.before, turn=move.player)
        made = Position.from_position_id(move.after, turn=move.player)
        found: tuple[float, Position, str, Position, str] | None = None
        for hit, plays in legal_plays(before, recorded).items():
            if hit.boards[move.player] != made.boards[move.player] or hit == made:
                continue
            if hit.boards[mover][BAR] <= made.boards[mover][BAR] or hit.is_game_over():
                continue
            ll, pos, text = self.best_result(hit.with_turn(mover), dice, evidence)
            if self._explains(evidence, ll) and (found is None or ll > found[0]):
                hit_text = plays[0].mat_text() if plays else describe_change(before, hit)
                found = (ll, hit, hit_text, pos, text)
        if found is None:
            return False
        _, hit, hit_text, pos, text = found
        now, rolled = self._now, self._rolled
        self._emit(
            CorrectionEvent,
            data={
                "action": "correct_play",
                "after": hit.position_id(),
                "withdraws": [move.seq, roll_event.seq],
            },
            target_seq=move.seq,
            note=HIT_UNSEEN_NOTE,
        )
        self._rebuild()
        self._now = {"t": move.t, "frame": move.frame}
        self._legal_move(hit, hit_text)
        self._now = {"t": roll_event.t, "frame": roll_event.frame}
        self._take_roll(mover, dice, rolled, roll_event.note)
        self._now = now
        self._legal_move(pos, text)
        return True

    def _dance_read_best(self, before: Position) -> None:
        """The mover danced, his dice read more than once where they lay
        (:meth:`_see_dice_read_again`): the dancing roll his reads together make
        likeliest (each die's reads pooled, :func:`_pooled`) is recorded where it is
        not the roll as recorded (``correction``, ``reread_dice``). Every such roll
        leaves the board as it stood, so nothing but the reads tells them apart, and
        a roll is put right without the margin a play's legality asks
        (``MIXED_MARGIN``) (s104 clip 10104 at 136.7-137.0 s: a 41 on the bar, its 4
        read as a 6 at 0.49, the 4 at 0.13, as the dice came to rest, then as a 4 at
        0.49, the 6 at 0.05; the dance recorded as 61)."""
        state, seen = self.state, self._rolled
        if len(seen) != 2 or state.dice is None or not any(d.pooled for d in seen):
            return
        pooled = tuple(_pooled(d) for d in seen)
        recorded = (seen[0].value, seen[1].value)
        if sorted(recorded) != sorted(state.dice):
            return  # (the roll was put right from other evidence)
        best = max(self._dancing_rolls(before), key=lambda roll: (_roll_log_p(pooled, roll), roll))
        if sorted(best) != sorted(state.dice) and _roll_log_p(pooled, best) > _roll_log_p(
            pooled, recorded
        ):
            self._reread_dice(best)

    def _hidden_under_die(self, s: Sighting, result: Position, mover: int) -> bool:
        """Whether the board as read is the legal ``result`` but for one pile of the
        mover's read a checker short where a die of this view lies on it: the die
        hides a checker (s91 clip 8803 at 608.6 s: his opponent's 2 rolled onto his
        1-point's six, five counted, and his dance from the bar flagged as a checker
        gone). Only a pile of two or more (a die on a lone checker may hide it whole,
        a checker moved) and a die that lies on it by the checkers of ``result``
        (``DIE_FAULT_P``, :meth:`_on_checker`)."""
        seen = s.checkers.guess(mover)
        if seen is None or seen.boards[1 - mover] != result.boards[1 - mover]:
            return False
        mine, want = seen.boards[mover], result.boards[mover]
        apart = [i for i in range(BAR + 1) if mine[i] != want[i]]
        if len(apart) != 1 or apart[0] == BAR or want[apart[0]] - mine[apart[0]] != 1:
            return False
        point, bottom = apart[0], self.config.bottom_player
        seat = point + 1 if mover == bottom else 24 - point  # the bottom seat's number
        return want[point] >= 2 and any(
            d.over is not None
            and seat in (d.over[0], *(d.over_raised or ())[:1])
            and self._on_checker(d, result) >= DIE_FAULT_P
            for d in self._live_dice(s.dice)
        )

    def _left_on_bar(self, before: Position, evidence: CheckerEvidence, best_ll: float) -> bool:
        """Whether the board, a checker of the mover's short against the legal result
        (``best_ll``), is far better explained by that checker left on the bar, unseen
        (:func:`_unseen_on_bar`), than by a pile of his read one short: the bar's count
        is the least sure of a reading, a small pile's the surest (s86 clip 8303 at
        339.2 s: his checker hit and on the bar, which no view showed, 24/23 played
        with it there [000 r15] was taken for 25/23 24/23 with the 23-point read one
        short, and the illegal play went unflagged)."""
        guess = self._possible_guess(evidence, before.turn)
        back = _unseen_on_bar(before, guess)
        if back is None or back == guess:
            return False
        return evidence.log_likelihood(back) > best_ll + self.config.illegal_margin

    def _raise_flag(
        self, flag: _Flag, ranked: Sequence[tuple[Position, str]], **stamp: Any
    ) -> None:
        """Flag ``flag``'s play as illegal: its ``move`` (``legal`` false) and the
        ``flag``, with the legal results ``ranked`` (best first) as suggestions;
        ``stamp`` (``t``, ``frame``) dates both where not the view now."""
        self.flag = flag
        before, dice, shown = flag.before, flag.dice, flag.after
        written = describe_change(before, shown) if shown is not None else "?"
        self._emit(
            MoveEvent,
            player=flag.player,
            dice=dice,
            play=written if shown is not None else "",
            before=before.position_id(),
            after=(shown or before).position_id(),
            legal=False,
            note=None if shown is not None else UNSEEN_RESULT_NOTE,
            **stamp,
        )
        rule = broken_rule(before, dice, shown)
        self._emit(
            FlagEvent,
            flag_id=flag.flag_id,
            kind="illegal_play",
            player=flag.player,
            message=_illegal_message(written, dice),
            rule=rule,
            suggestions=tuple(
                FlagSuggestion(play=t, after=p.position_id())
                for p, t in ranked[: self.config.suggestions]
            ),
            **stamp,
        )

    def _reread_roll(
        self,
        before: Position,
        evidence: CheckerEvidence,
        read_ll: float,
        flag: _Flag | None = None,
        *,
        explained: bool = False,
        hold: bool = False,
    ) -> bool:
        """The play fits no legal result of the dice as read, but a roll the dice may
        well have shown explains it: the dice were misread. Each die read with
        probability ``p`` shows any other number with ``(1 - p) / 5``; the roll whose
        prior and best legal result score highest wins if its result explains the
        evidence. The roll is put right (``correction`` ``reread_dice``) and the play
        recorded. Only a roll at least ``ILLEGAL_LOG_ODDS`` as likely as the dice as
        read for each die read again (a die read at 0.85 shows another number with
        0.03: 1/28 as likely, an illegal play rather): dice read surely are believed,
        and a play they do not allow is flagged. Dice read at ``REREAD_P`` or more are
        read again only where no legal play of theirs explains the board, and with
        every read of a die pooled (:func:`_pooled`). Returns whether the roll was
        read again.

        The opening roll is read again the same way, and may change who plays: the
        higher die starts [000 r8], so the first play may well be the other player's.
        Its ``opening_roll`` event is then withdrawn and a new one follows.

        ``flag``: the play flagged under the dice as read, now put right on the board
        to a play of another roll; the flag is cleared first.

        ``explained``: a legal play of the dice as read explains the board, if less
        well than one of another roll (s22 clip 1703: a 31 read 11 at 0.54 and 0.80,
        4/1 2/1 taken for 4/3* 3/2 2/1(2), its hit checker hidden by the opponent's
        dice). The two are then weighed as they are, dice and board, the other roll
        taken only if it scores ``REREAD_MARGIN`` better: no illegal play is at
        stake.

        ``hold``: the flagged play is seen taken back whole, no dice down. The board as
        it stood is a dance of some roll the dice may have shown, but a player told his
        play is illegal takes it back before he makes another far more often: a dance
        of a roll ``TAKEN_BACK_LOG_ODDS`` or more less likely than the dice as read is
        left for a view with the next roll made, the board unchanged, to put right
        (s74 clip 7101 at 90 s: a 43, its 3 read at 0.92 and a 1 at 0.06, 25/21 onto a
        held point flagged, taken back, and read again as a dance of 41; then 25/22
        was flagged as no play of 43 put right). A roll nearly as likely as the dice
        as read is taken on this view, as the next may be a double or a view misread
        (s71 clip 6702 at 50.6 s: a 53, its 3 read as a 2 at 0.52-0.57, the 3 at
        0.31-0.39; 21/18 with a checker on the bar, taken back)."""
        seen = self._rolled
        state = self.state
        self._close = None
        if len(seen) != 2 or state.dice is None:
            return False
        # Dice read surely (``REREAD_P``) are believed where a legal play of them
        # explains the board too. Where none does, an illegal play is at stake and the
        # odds below decide alone: a die read at 0.9 or more is read again only where
        # the reader gave another number a twentieth of its own (``ILLEGAL_LOG_ODDS``),
        # so never one read over 0.952 (s91 clip 8804 at 444.8 s: a 3 read as a 2 at
        # 0.94, the 3 at 0.04, then at 0.89, the 3 at 0.08; 3/0 3/0 flagged as no play
        # of 62).
        if min(d.p for d in seen) >= REREAD_P and seen[0].value != seen[1].value:
            if explained:
                return False  # (a double read is weighed on: see ``halved`` below)
            # each read of a die read again where it lay weighs on its own: one that
            # gave the other number next to nothing tells against it (s89 clip 8601 at
            # 93.6 s: a 43, its 4 read at 0.98 with the 5 at 0.0002, then at 0.85 with
            # the 5 at 0.12; 13/8 8/5 is an illegal play of it, not a 53's)
            seen = tuple(_pooled(d) for d in seen)
        elif seen[0].value != seen[1].value:
            # a die read surely in one view weighs by its reads pooled beside one read
            # unsure: the mean of a sure read and one made as it came to rest gives
            # the numbers the first read alone gave weight (s140 clip 13702 at 18.3 s:
            # a 42, its 4 read at 0.52, the 5 at 0.11, then at 0.99, the 5 at 0.00;
            # the mean put the 5 at 0.055, and 8/3 6/4 was taken for a 52's, flagged
            # only when put right 4.9 s later)
            seen = tuple(_pooled(d) if _surest(d) >= REREAD_P else d for d in seen)

        read = (seen[0].value, seen[1].value)
        opening = self._opening_to_reread()
        rolls: list[tuple[float, tuple[int, int], Position]] = []
        if opening is not None:  # (player 0's die, player 1's die); the higher starts
            for prior, roll, mover in _opening_rolls(seen):
                rolls.append((prior, roll, before.with_turn(mover)))
            read = opening.dice
        else:
            for a, b in combinations_with_replacement(range(1, 7), 2):
                rolls.append((_roll_log_p(seen, (a, b)), (a, b), before))
        read_prior = max(p for p, roll, _ in rolls if sorted(roll) == sorted(read))
        best: tuple[float, tuple[int, int], float, Position, str] | None = None
        for prior, roll, start in rolls:
            if sorted(roll) == sorted(read) and start.turn == before.turn:
                continue
            ll, pos, text = self.best_result(start, roll, evidence)
            if best is None or ll + prior > best[0]:
                best = (ll + prior, roll, ll, pos, text)
        if best is None:
            return False
        score, roll, ll, pos, text = best
        if not self._explains(evidence, ll) or score <= read_ll + read_prior:
            return False
        if explained and score <= read_ll + read_prior + REREAD_MARGIN:
            if opening is None:  # a close call: the plays after it may settle it
                self._close = (score - read_ll - read_prior, roll, pos, text)
            return False
        misread = _dice_apart(roll, read)
        # A double read as another roll and played as the double: an illegal play would
        # have moved twice as many checkers as the roll allowed, which players do not
        # do (they miscount a distance, or leave a die unplayed); half the odds. Not
        # where the play is such a miscount of the dice as read, no more checkers than
        # two dice move and at most a pip past their sum (s68 clip 6403 at 435 s: a
        # 52, its 5 at 0.74 and a 2 under 0.01, 25/23 13/7 taken for 25/23 13/11 11/9
        # 9/7 of a 22; s67 clip 6303 at 377 s: a 41, 8/4 taken for four 1s).
        doubled = (
            roll[0] == roll[1]
            and read[0] != read[1]
            and roll[0] in read
            and not _miscount_of(before, read, pos)
        )
        # And the other way: a roll read as a double of one of its numbers, played as
        # the roll; as a play of the double, where all four dice could be played, it
        # leaves two of them unplayed at least (s35 clip 3003 at 296 s: a 62 read
        # 66, its 2 at 0.97, and 8/6 6/0 flagged as no play of 66).
        # Not where the play moved a whole number of the double's pips, fewer than
        # four of its dice: that is the double with a die left unplayed, an illegal
        # play players do make (s60 clip 5602 at 67.6 s: an 11 read at 1.00 and 0.99,
        # 24/23 23/22 6/5 taken for 24/22 6/5 of a 21 and not flagged).
        halved = (
            read[0] == read[1]
            and roll[0] != roll[1]
            and read[0] in roll
            and dice_used(legal_plays(before, read)) == 4
            and (start.pips(start.turn) - pos.pips(start.turn)) % read[0] != 0
        )
        # And a flagged play put right: the player, told his play was illegal, made
        # another that is illegal with the dice as read but legal with a roll they may
        # have shown; a second illegal play in a row is the rarer (s35 clip 3003 at
        # 25 s: a 62 read 64, its 2 at 0.80 and 0.98; 24/18 onto a held point
        # flagged, then 24/22 22/16 flagged again and let stand as 24/16).
        odds = ILLEGAL_LOG_ODDS * (2 if doubled or halved or flag is not None else 1)
        # And a die left unplayed: the play is the roll as read with one die played and
        # the other left, where both could be played, an illegal play players do make
        # [000 r12]. A roll one die off that a checker's one trip through both dice
        # plays is then the coincidence (s62 clip 5802 at 160 s: a 61 read 6 at 0.72
        # and 1 at 0.61, 11/5 taken for 11/10 10/5 of a 51 and not flagged). So is a
        # double with fewer of its dice played than it could (s132 clip 12902 at
        # 35.9 s: a 22, a 2 at 0.76 and the 4 at 0.07, 13/11 11/9 6/4 read as 13/9 6/4
        # of a 42).
        unplayed = (
            not explained
            and opening is None
            and flag is None
            and not doubled
            and (_one_die_played(before, read, pos) or _double_short(before, read, pos))
        )
        # The die left unplayed is weighed against the roll as a whole, not die by die:
        # a roll two dice off whose one trip lands where one die as read would have
        # taken the checker is no likelier a coincidence than a roll one die off (s162
        # clip 15901 at 179.2 s: a 43, its 3 read at 0.79 with the 1 at 0.18, its 4 at
        # 0.62 with the 2 at 0.36; 8/5* with the 4 unplayed taken for 21's 8/7 7/5* at
        # 0.13, and flagged only when put right 5.7 s later).
        if unplayed:
            odds = UNPLAYED_LOG_ODDS
        allowed = odds if unplayed else odds * max(1, misread)
        if not explained and (
            score - ll - read_prior < allowed
            or (
                opening is None
                and self._seen_exact is not None
                and _surest_misread(seen, read, roll) < odds
            )
        ):
            # the dice as read are far likelier than the roll that would make the
            # play legal: a die misread is no likelier than an illegal play. So for
            # each die read again, not the two together, where the dice lay while a
            # view read the board as it stood before the play (they are his roll): a
            # die read surely keeps its number beside one read unsure (s45 clip 4003
            # at 59 s: a 63, its 6 at 0.99 and its 3 at 0.28; 11/5 taken for 11/10
            # 10/5 of a 51). Dice first seen with the play made may be his
            # opponent's, rolled in the wrong half, and his roll the play's (s42
            # clip 3704 at 308 and 425 s: a 32 glimpsed by one die, played, then
            # the opponent's 54 and 65 in that half, read again as 32)
            return False
        if hold and pos.boards == before.boards and score - ll - read_prior < TAKEN_BACK_LOG_ODDS:
            return False
        if flag is not None:
            self.flag = None
            self._emit(FlagClearedEvent, flag_id=flag.flag_id, how="corrected")
        if opening is not None:
            self._reread_opening(opening, roll)
        else:
            self._reread_dice(roll)
        self._legal_move(pos, text)
        return True

    def _reread_opening(self, opening: OpeningRollEvent, roll: tuple[int, int]) -> None:
        """The opening roll recorded as ``opening`` was ``roll`` (player 0's die, player
        1's): it is withdrawn (a ``correction``, ``reread_dice``) and ``roll`` recorded,
        the higher die's player to start [000 r8]."""
        self._emit(
            CorrectionEvent,
            data={
                "action": "reread_dice",
                "dice": list(roll),
                "read": list(opening.dice),
                "withdraws": [opening.seq],
            },
            target_seq=opening.seq,
        )
        self.state = self._before_opening.opening_roll(*roll)
        self._emit(OpeningRollEvent, dice=roll)

    def _opening_won_by_other(self, s: Sighting) -> bool:
        """The game's first play, illegal with the opening roll as read, was made by
        the other player: his checkers moved, those of the player the dice as read
        let start stand as they were. With a die of the opening read unsure (under
        ``REREAD_P``), it was misread and the other player's die was the higher
        [000 r8]: the opening roll is read again as the likeliest with which he
        starts, and his play judged under it, flagged if illegal (s49 clip 4402 at
        321 s: a 21, its 1 read as a 3 at 0.60, then 24/22 13/11, a wrong distance,
        flagged as the other player's not moving at all). Returns whether it was
        read again."""
        opening, seen, state = self._opening_to_reread(), self._rolled, self.state
        if opening is None or len(seen) != 2 or min(d.p for d in seen) >= REREAD_P:
            return False
        before, starter = state.position, state.on_roll
        other = 1 - starter
        now = s.checkers.guess(before.turn)
        if (
            now is None
            or now.boards[starter] != before.boards[starter]
            or now.boards[other] == before.boards[other]
        ):
            return False
        _, roll = max((p, roll) for p, roll, mover in _opening_rolls(seen) if mover == other)
        self._reread_opening(opening, roll)
        self._decide_play(s)
        return True

    def _last_roll(self, before: int | None = None) -> RollEvent | None:
        """The last roll recorded, or the last before the event of seq ``before``."""
        return next((e for e in reversed(self.events[:before]) if isinstance(e, RollEvent)), None)

    def _misread_dance(self, before: Position, evidence: CheckerEvidence) -> bool:
        """No checker moved though the dice as read have a play, and a roll the dice
        may have shown, one die read wrong, leaves no play: the player danced, his
        dice misread. Moving nothing where a play exists is an illegal play players
        seldom make (a player who thinks he danced looks twice; none of the renders'
        faults is one), far rarer than a play illegal by a pip (``ILLEGAL_LOG_ODDS``);
        the dancing roll is taken where it is at least ``EMPTY_PLAY_LOG_ODDS`` as
        likely as the dice as read, weighed by the reader's face probabilities
        (:func:`_roll_log_p`). The roll is put right (``correction`` ``reread_dice``)
        and the dance recorded. (s68 clip 6403 at 581.6 s: player 0 on the bar with
        31, its 3 read as a 5 at 0.91 in the one view of it, no checker moved; flagged
        as no play of 51 and accepted, the dance lost.) Returns whether it was."""
        best = self._dance_misread(before, evidence)
        if best is None:
            return False
        self._reread_dice(best[1])
        self._legal_move(before, "")
        return True

    def _dance_misread(
        self, before: Position, evidence: CheckerEvidence
    ) -> tuple[float, tuple[int, int]] | None:
        """For :meth:`_misread_dance`: the dancing roll one die off the dice as read
        that the reader's face probabilities make likeliest, with its log odds against
        the dice as read (no less than ``EMPTY_PLAY_LOG_ODDS``), where the view shows
        the board as it stood and the dice as read have a play; else None."""
        seen, dice = self._rolled, self.state.dice
        if len(seen) != 2 or dice is None or _dances(before, dice):
            return None
        if not self._explains(evidence, evidence.log_likelihood(before)):
            return None
        read_prior = _roll_log_p(seen, dice)
        best: tuple[float, tuple[int, int]] | None = None
        for roll in combinations_with_replacement(range(6, 0, -1), 2):
            misread = _dice_apart(roll, dice)
            if misread != 1 or not _dances(before, roll):
                continue
            odds = _roll_log_p(seen, roll) - read_prior
            if odds >= EMPTY_PLAY_LOG_ODDS and (best is None or odds > best[0]):
                best = (odds, roll)
        return best

    def _reread_dice(self, roll: tuple[int, int]) -> None:
        """The roll being played was ``roll``, not the dice recorded: a ``correction``
        (``reread_dice``) of the last roll, and the match goes on with ``roll``."""
        state = self.state
        assert state.dice is not None
        target = self._last_roll()
        dice = (max(roll), min(roll))
        self._emit(
            CorrectionEvent,
            data={"action": "reread_dice", "dice": list(dice), "read": list(state.dice)},
            target_seq=None if target is None else target.seq,
        )
        self.state = state.reread_dice(*dice)

    def _opening_to_reread(self) -> OpeningRollEvent | None:
        """The opening roll whose dice are down, if the play now decided is the
        game's first after it."""
        if self.state.turns_played != 0:
            return None
        withdrawn = withdrawn_seqs(self.events)
        for e in reversed(self.events):
            if e.seq in withdrawn:
                continue
            if isinstance(e, OpeningRollEvent):
                return e
            if isinstance(e, (RollEvent, GameStartEvent)):
                return None
        return None

    def _legal_move(self, after: Position, text: str) -> None:
        state = self.state
        self._wrong_half_die = None
        assert state.dice is not None
        self._emit(
            MoveEvent,
            player=state.on_roll,
            dice=state.dice,
            play=text,
            before=state.position.position_id(),
            after=after.position_id(),
            legal=True,
        )
        self.state = state.play(after)
        if self.state.phase in (Phase.GAME_OVER, Phase.MATCH_OVER):
            self._game_over()

    def _see_flagged(self, s: Sighting, dice: tuple[SeenDie, ...]) -> None:
        flag = self.flag
        assert flag is not None
        mover = flag.player
        if dice and len(dice) < 2:
            return
        if self._see_dice_not_lifted(flag, s, dice):
            return
        best_ll, best, text = self.best_result(flag.before, flag.dice, s.checkers)
        if not self._explains(s.checkers, best_ll) and flag.dice_unseen:
            best_ll, best, text = self._another_unseen_roll(flag, s.checkers)
        explained = self._explains(s.checkers, best_ll)
        # put right from the board as it stood had a close call gone the other way
        rejudged = not explained and self._rejudge_flagged(flag, s.checkers, best_ll)
        explained = explained or rejudged
        if not explained and not flag.dice_unseen:
            put_right = self._put_right_before_their_play(flag, s.checkers, dice)
            if put_right is not None:
                best, text = put_right
                explained = True
        if not explained and self._see_double_over_flag(s, dice):
            return
        # an empty play flagged and two new dice in his half, the board as it stood:
        # rolled again, before any roll his dice may have shown is weighed for a play
        # the board, read less surely under the new dice, may let pass (s188 clip
        # 18502 at 486.8 s: a 44, one die cocked and read flat, lifted, no play
        # flagged; his 66 then rolled, the board read roughly and taken for 41's
        # 25/24 24/20, the 66 for his opponent's roll in the wrong half)
        if not explained and self._see_pass_rolled_again(flag, s, dice):
            return
        if rejudged:
            pass  # cleared, the play recorded
        elif explained:
            # Put right, though perhaps seen only with the opponent's roll made since.
            self.flag = None
            self._emit(FlagClearedEvent, flag_id=flag.flag_id, how="corrected")
            self._legal_move(best, text)
        elif not flag.dice_unseen:
            # put right to a play of a roll his dice, read unsure, may have shown
            hold = not dice and self._taken_back(flag, s)
            explained = self._reread_roll(flag.before, s.checkers, best_ll, flag, hold=hold)
        if explained:
            # the opponent's roll seen with the flag may have left him no play (s82
            # clip 7901 at 334.4 s: a board misread as the opponent's 31 landed, the
            # play flagged, then read right with the mover's next roll in his half)
            if (
                dice
                and self.state.phase is Phase.ROLL
                and not self._see_cube(s)
                and not self._see_their_dance(flag, dice)
            ):
                self._see_roll(s, dice)
            return
        if not dice:
            flag.after = self._possible_guess(s.checkers, mover) or flag.after
            return
        if len(dice) >= 2:
            # The opponent rolled (the mover's dice were lifted with the flag): the
            # illegal play stands [001 4.2(iii)(a)].
            self.accept_illegal_play()
            # the opponent's roll; the mover's, where the board showed the opponent
            # had played last (resynced, the turn did not pass)
            if (
                self.flag is None
                and self.state.phase is Phase.ROLL
                and not self._see_their_dance(flag, dice)
            ):
                self._roll(self.state.on_roll, dice[:2])

    def _put_right_before_their_play(
        self, flag: _Flag, evidence: CheckerEvidence, dice: tuple[SeenDie, ...]
    ) -> tuple[Position, str] | None:
        """The flagged play put right, unseen, and the opponent's roll (``dice``, two
        in his right half) played since: the view is a legal result of the flagged
        roll followed by a legal play of the opponent's, and explained so better than
        by the flagged play followed by one (s129 clip 12601 at 222.9-231.0 s: 5/2 of
        a 32 flagged, put right to 5/2 3/1 under a hand, the opponent's 32 rolled and
        played 9/7 9/6 before the next view; the flagged play was let stand as a
        board read under the hand, and the match went on from a wrong board). Returns
        the mover's result and its play text; else None. Only his play is recorded
        here; the opponent's roll is then seen, and his play once he lifts his dice."""
        opponent = 1 - flag.player
        if (
            len(dice) != 2
            or not self._by_halves()
            or any(d.half != self.right_half(opponent) for d in dice)
        ):
            return None
        roll = (max(d.value for d in dice), min(d.value for d in dice))
        best: tuple[float, Position, str] | None = None
        for _, pos, text in self.ranked_results(flag.before, flag.dice, evidence):
            ll, after, _ = self.best_result(pos.with_turn(opponent), roll, evidence)
            if after.boards != pos.boards and (best is None or ll > best[0]):
                best = (ll, pos, text)
        if best is None or not self._explains(evidence, best[0]):
            return None
        stood = flag.suggestion if flag.after is None else flag.after
        if stood is not None:
            ll, _, _ = self.best_result(stood.with_turn(opponent), roll, evidence)
            if ll + REREAD_MARGIN > best[0]:
                return None  # the flagged play, standing, explains the view as well
        return best[1], best[2]

    def _see_dice_not_lifted(self, flag: _Flag, s: Sighting, dice: tuple[SeenDie, ...]) -> bool:
        """The play was flagged from a view with no die in it and no possible board,
        and the mover's dice are seen again where they lay: a hand over them hid them
        and the board (s107 clip 10404 at 342.3 s: a forearm across the dice, the
        play under way; s109 clip 10602 at 31.0 s), they were not lifted. The turn
        is not over [001 4.1(vi)(a)]: the play and its flag are withdrawn
        (``correction``, ``action`` ``dice_not_lifted``) and the view judged as one
        of the play under way (dice seen again where they lay were taken for the
        opponent's roll in the wrong half). Returns whether that was so."""
        if not flag.bare or flag.dice_unseen or len(dice) < 2:
            return False
        if self.state.on_roll != flag.player or not self._movers_dice_down(dice):
            return False
        there = [d for d in dice if _near_any(d, self._rolled)]
        if sorted(d.value for d in there) != sorted(flag.dice):
            return False  # (read as his numbers too: not a new roll landed there)
        live = self._live_events()
        if not _flagged_play(live[-2:]):
            return False
        move, flagged = live[-2:]
        assert isinstance(move, MoveEvent) and isinstance(flagged, FlagEvent)
        if move.player != flag.player or flagged.flag_id != flag.flag_id:
            return False
        self._emit(
            CorrectionEvent,
            data={"action": "dice_not_lifted", "withdraws": [move.seq, flagged.seq]},
            target_seq=move.seq,
            note=DICE_NOT_LIFTED_NOTE,
        )
        self.flag = None
        if self._doubt is not None:
            self._doubt.flagged = False
        self._see_move(s, dice)
        return True

    def _taken_back(self, flag: _Flag, s: Sighting) -> bool:
        """Whether the flagged play, which moved checkers, is seen taken back whole:
        the board as it stood before it (:meth:`_reread_roll`'s ``hold``)."""
        if flag.after is None:
            return False
        if not flag.taken_back and flag.after.boards == flag.before.boards:
            return False  # the flagged play was no play: the dice decide it, as read
        if not self._explains(s.checkers, s.checkers.log_likelihood(flag.before)):
            return False
        flag.taken_back = True
        return True

    def _see_pass_rolled_again(self, flag: _Flag, s: Sighting, dice: tuple[SeenDie, ...]) -> bool:
        """The flagged play is no play at all (the mover lifted his dice, the board as
        it stood), and two dice now lie in the mover's right half, the board still
        unmoved: he rolled again, as a player does whose roll was invalid [001
        4.1(iv)], a die cocked more than the camera could tell; not his opponent,
        rolling in the wrong half. His roll, the empty play and its flag are withdrawn
        (``correction``, ``action`` ``reroll``), the roll recorded as invalid
        (``REROLL_NOTE``, its likeliest fault), and the new dice judged as his roll
        (s64 clip 6002 at 112.5 s: a 43 whose cocked 3 was read at 0.55, lifted, no
        play flagged, then his 51 taken for his opponent's roll in the wrong half; the
        same at 550.5 s with a 42 read 41). Returns whether that was so."""
        mover = flag.player
        if not self._by_halves() or len(dice) != 2 or flag.dice_unseen:
            return False
        if flag.after is None or flag.after.boards != flag.before.boards:
            return False  # he moved checkers: his play, whatever dice follow
        if any(d.half != self.right_half(mover) for d in dice):
            return False
        if not self._explains(s.checkers, s.checkers.log_likelihood(flag.before)):
            return False
        live = self._live_events()
        if len(live) < 3:
            return False
        roll, move, flagged = live[-3:]
        if not (
            isinstance(roll, RollEvent)
            and roll.player == mover
            and roll.note is None
            and isinstance(move, MoveEvent)
            and move.player == mover
            and not move.legal
            and isinstance(flagged, FlagEvent)
            and flagged.flag_id == flag.flag_id
        ):
            return False
        reason = self._likeliest_fault(self._rolled, flag.before)
        self._withdraw_as_rerolled(roll, [roll.seq, move.seq, flagged.seq], reason)
        self._roll(mover, dice)
        return True

    def _likeliest_fault(self, dice: Sequence[SeenDie], position: Position) -> str:
        """The fault the camera most nearly saw in ``dice`` of a roll found invalid
        only because it was rolled again: a die cocked, or (where the profile makes it
        a fault) lying on a checker of ``position``, the checkers they fell among, as a
        roll is judged (:meth:`_on_checker`; s67 clip 6303 at 190.5 s: a die on a
        checker, rolled again, recorded as cocked from the camera's own call)."""
        faults = {"cocked": max((d.cocked for d in dice), default=0.0)}
        if self.state.profile.die_on_checker_invalid:
            faults["on_checker"] = max((self._on_checker(d, position) for d in dice), default=0.0)
        return max(faults, key=lambda r: faults[r])

    def _withdraw_as_rerolled(self, roll: RollEvent, withdraws: list[int], reason: str) -> None:
        """``roll``, taken as valid, was rolled again: the events ``withdraws`` are
        taken back (``correction``, ``action`` ``reroll``), the match rebuilt without
        them, and the roll recorded as invalid for ``reason`` (``REROLL_NOTE``); its
        roller's new roll is the caller's to judge."""
        self._emit(
            CorrectionEvent, data={"action": "reroll", "withdraws": withdraws}, target_seq=roll.seq
        )
        self._rebuild()
        self.state = self.state.invalid_roll(player=roll.player)
        self._emit(
            RollInvalidEvent,
            player=roll.player,
            dice=roll.dice,
            reasons=(reason,),
            note=REROLL_NOTE,
        )
        self._need_clear = False

    def _see_their_dance(self, flag: _Flag, dice: tuple[SeenDie, ...]) -> bool:
        """The flagged play stands or was put right, its opponent now on roll, and two
        dice lie in the mover's right half: where the view that flagged the play
        showed the opponent's roll, valid and leaving him no play, he danced with it
        and these are the mover's next roll (s15 clip 1002; else they were taken for
        the opponent's roll in the wrong half). Returns whether it was taken."""
        opponent, theirs = self.state.on_roll, flag.theirs
        if opponent == flag.player or len(theirs) != 2 or len(dice) != 2:
            return False
        if any(d.half != self.right_half(flag.player) for d in dice):
            return False
        if self.roll_faults(opponent, theirs):
            return False
        roll = (max(d.value for d in theirs), min(d.value for d in theirs))
        if not _dances(self.state.position, roll):
            return False
        self._roll(opponent, theirs)
        self._legal_move(self.state.position, "")
        if self.state.phase is Phase.ROLL:
            self._roll(flag.player, dice)
        return True

    def _best_of_any_roll(
        self, before: Position, evidence: CheckerEvidence, glimpsed: Sequence[SeenDie] = ()
    ) -> tuple[float, Position, str, tuple[int, int]]:
        """The best legal result from ``before`` of any of the 21 rolls, with its roll:
        the highest log-likelihood with the roll's prior (a non-double is twice as
        likely as a double; a die ``glimpsed`` of it weighs its numbers), ties to the
        result with the lowest Position ID. Rolls with one result (dances, bear-offs)
        are told apart by the prior alone (s22 clip 1704: a dance flagged under a
        guessed roll, put right, read again as 66, its 6 glimpsed, for 64)."""
        results = []
        for roll in combinations_with_replacement(range(6, 0, -1), 2):
            prior = _roll_log_prior(roll, glimpsed)
            ll, pos, text = self.best_result(before, roll, evidence)
            results.append((ll + prior, ll, pos, text, roll))
        _, ll, pos, text, roll = max(results, key=lambda r: (r[0], _negated_id(r[2])))
        return ll, pos, text, roll

    def _another_unseen_roll(
        self, flag: _Flag, evidence: CheckerEvidence
    ) -> tuple[float, Position, str]:
        """For a play flagged under a guessed roll (``flag.dice_unseen``): the best
        legal result of any roll, if one explains the evidence; the roll is then put
        right (``correction``, ``reread_dice``) as in :meth:`_reread_roll`."""
        ll, pos, text, roll = self._best_of_any_roll(flag.before, evidence, flag.glimpsed)
        if not self._explains(evidence, ll) or sorted(roll) == sorted(flag.dice):
            return ll, pos, text
        self._reread_dice(roll)
        flag.dice = roll
        return ll, pos, text

    # --- the end of a game --------------------------------------------------------------------
    def _game_over(self) -> None:
        state = self.state
        result = state.last_result
        if result is None:
            return
        self._emit(GameEndEvent, game=state.game_number, **result.end_fields())
        if state.phase is Phase.MATCH_OVER:
            self._emit(MatchEndEvent, winner=result.winner, score=state.score)
        self._game_started = False

    # --- what only an observer can say -------------------------------------------------------
    def accept_illegal_play(self, *, source: Source = "camera") -> list[Event]:
        """The flagged play stands: the opponent rolled or doubled, or the players agreed
        [001 4.2(iii)(a)]."""
        before, self._source = self._source, source
        try:
            return self._accept_illegal_play(source)
        finally:
            self._source = before

    def _accept_illegal_play(self, source: Source) -> list[Event]:
        first = len(self.events)
        flag = self.flag
        if flag is None:
            return []
        after = flag.after
        if after is None:
            return self._stand_in(flag, source)
        if self.state.can_accept_illegal_play(after) is not None:
            if _turns_missed(flag.before, after, flag.player) or _back_from_off(flag.before, after):
                return self._resync(flag, after, source)
            return self._stand_in(flag, source)
        self.flag = None
        self._emit(
            AcceptedIllegalEvent,
            source=source,
            player=flag.player,
            play=describe_change(flag.before, after),
            before=flag.before.position_id(),
            after=after.position_id(),
            flag_id=flag.flag_id,
        )
        self._emit(FlagClearedEvent, source=source, flag_id=flag.flag_id, how="accepted")
        self.state = self.state.accept_illegal_play(after)
        if self.state.phase in (Phase.GAME_OVER, Phase.MATCH_OVER):
            self._game_over()
        return self.events[first:]

    def _stand_in(self, flag: _Flag, source: Source) -> list[Event]:
        """The flagged play stands, but what was seen cannot stand as a position (a
        misreading): the likeliest legal result is recorded in its place."""
        first = len(self.events)
        self.flag = None
        self._emit(
            FlagClearedEvent,
            source=source,
            flag_id=flag.flag_id,
            how="accepted",
            note="the position seen is impossible: the closest legal play is recorded",
        )
        best = flag.suggestion or flag.before
        self._legal_move(best, describe_change(flag.before, best))
        return self.events[first:]

    def _resync(self, flag: _Flag, after: Position, source: Source) -> list[Event]:
        """The flagged play stands, but the board shows more than one turn: the
        opponent's checkers moved as in a turn of his. The camera missed turns (a roll
        taken for invalid, a play under a hand); the closest legal play would leave the
        match's position apart from the board's, and every play after it flagged.
        The position is taken from the board, said in a ``correction`` (``resync``).
        So too where the board shows checkers in play that the match has borne off
        (:func:`_back_from_off`)."""
        first = len(self.events)
        self.flag = None
        self._emit(
            FlagClearedEvent, source=source, flag_id=flag.flag_id, how="accepted", note=RESYNC_NOTE
        )
        move = self._last_move(legal=False)
        # the mover's checkers as they were (but for hits): the opponent played last,
        # so the mover is on roll again (the match had the turns out of step)
        _, by_hits = changed_by_hits(flag.before, after, flag.player)
        passes = not by_hits or after.off(flag.player) != flag.before.off(flag.player)
        data: dict[str, Any] = {
            "action": "resync",
            "player": flag.player,
            "after": after.position_id(),
        }
        if not passes:
            data["on_roll"] = flag.player
        self._emit(
            CorrectionEvent,
            source=source,
            data=data,
            target_seq=move.seq if move is not None else None,
            note=RESYNC_NOTE,
        )
        self.state = self.state.resync(after, turn_passes=passes)
        if self.state.phase in (Phase.GAME_OVER, Phase.MATCH_OVER):
            self._game_over()
        return self.events[first:]

    def dismiss_flag(self, flag_id: str | None = None) -> list[Event]:
        """The observer dismisses the open flag (a misreading)."""
        if self.flag is None or (flag_id is not None and flag_id != self.flag.flag_id):
            return []
        fid = self.flag.flag_id
        self.flag = None
        return [self._emit(FlagClearedEvent, source="observer", flag_id=fid, how="dismissed")]

    def resign(self, player: int, level: int, *, t: float | None = None) -> list[Event]:
        """``player`` offers to resign at ``level`` (1..3) [000 r21, 001 4.5]."""
        first = len(self.events)
        self._now = {"t": t, "frame": None}
        self.state = self.state.resign(player, level)
        self._emit(ResignEvent, source="observer", player=player, level=level)
        return self.events[first:]

    def answer_resignation(self, accept: bool, *, t: float | None = None) -> list[Event]:
        first = len(self.events)
        self._now = {"t": t, "frame": None}
        self._source = "observer"
        try:
            self._answer_resignation(accept)
        finally:
            self._source = "camera"
        return self.events[first:]

    def _answer_resignation(self, accept: bool) -> None:
        offer = self.state.resignation
        who = 1 - offer.player if offer is not None else 1 - self.state.on_roll
        if accept:
            self.state = self.state.accept_resignation()
            self.flag = None
            self._emit(ResignAcceptEvent, source="observer", player=who)
            self._game_over()
        else:
            self.state = self.state.reject_resignation()
            self._emit(ResignRejectEvent, source="observer", player=who)

    def correct_play(self, after_id: str, *, t: float | None = None) -> list[Event]:
        """The observer says the last play was really the legal play reaching
        ``after_id`` (Position ID, mover on roll): the referee misread it, or the
        player put a flagged play right. Allowed while the opponent has not rolled.

        An open illegal-play flag is cleared as ``corrected`` [001 4.2(iii)]; a legal
        play already recorded is withdrawn and replaced (``correction`` with
        ``withdraws``). Raises ``ValueError`` when there is no play to correct or the
        position is no legal result of its roll.
        """
        first = len(self.events)
        self._now = {"t": t, "frame": None}
        flag = self.flag
        if flag is not None:
            target = self._last_move(legal=False)
            after = self._legal_result(flag.before, flag.dice, flag.player, after_id)
            self.flag = None
            self._emit(
                CorrectionEvent,
                source="observer",
                data={"action": "correct_play", "after": after_id},
                target_seq=None if target is None else target.seq,
            )
            self._emit(FlagClearedEvent, source="observer", flag_id=flag.flag_id, how="corrected")
        else:
            target = self._last_move(legal=True)
            if target is None:
                raise ValueError("there is no play to correct")
            later = self.events[target.seq + 1 :]
            if any(not isinstance(e, _UNDOABLE_AFTER_MOVE) for e in later):
                raise ValueError("the play can no longer be corrected: the match went on")
            before = Position.from_position_id(target.before, turn=target.player)
            after = self._legal_result(before, target.dice, target.player, after_id)
            self._emit(
                CorrectionEvent,
                source="observer",
                data={"action": "correct_play", "after": after_id, "withdraws": [target.seq]},
                target_seq=target.seq,
            )
            self._rebuild()
        self._source = "observer"
        try:
            state = self.state
            assert state.dice is not None
            plays = legal_plays(state.position, state.dice)[after]
            text = plays[0].mat_text() if plays else describe_change(state.position, after)
            self._legal_move(after, text)
        finally:
            self._source = "camera"
        return self.events[first:]

    def _last_move(self, *, legal: bool) -> MoveEvent | None:
        withdrawn = withdrawn_seqs(self.events)
        for e in reversed(self.events):
            if isinstance(e, MoveEvent) and e.seq not in withdrawn:
                return e if e.legal == legal else None
        return None

    def _legal_result(
        self, before: Position, dice: tuple[int, int], mover: int, after_id: str
    ) -> Position:
        try:
            after = Position.from_position_id(after_id, turn=mover)
        except ValueError as exc:
            raise ValueError(f"{after_id!r} is no Position ID: {exc}") from None
        if after not in legal_plays(before, dice):
            raise ValueError(
                f"{after_id} is no legal result of {dice[0]}{dice[1]} from {before.position_id()}"
            )
        return after

    def undo(self, *, t: float | None = None) -> list[Event]:
        """Withdraw the observer's last action: the observer's events at the end of
        the log (back to the last one the camera made). Raises ``ValueError`` when
        the log does not end with an observer's action."""
        withdrawn = withdrawn_seqs(self.events)
        mine: list[int] = []
        for e in reversed(self.events):
            if e.seq in withdrawn or _is_undo(e):
                continue
            if e.source != "observer" or isinstance(e, MatchStartEvent):
                break
            mine.append(e.seq)
        if not mine:
            raise ValueError("nothing to undo: the last events are not an observer's action")
        self._now = {"t": t, "frame": None}
        event = self._emit(
            CorrectionEvent,
            source="observer",
            data={"action": "undo", "withdraws": sorted(mine)},
            target_seq=min(mine),
        )
        self._rebuild()
        return [event]

    def _live_events(self) -> list[Event]:
        """The log less the events a correction withdrew (:func:`withdrawn_seqs`)."""
        withdrawn = withdrawn_seqs(self.events)
        return [e for e in self.events if e.seq not in withdrawn]

    def _rebuild(self) -> None:
        """Recompute the match from the log (after a correction withdrew events)."""
        fresh = Referee.resume(self.config, self.events)
        now = self._now  # the events that follow are stamped as the view or call made now
        vars(self).update(vars(fresh))
        self._now = now

    def observe(self, event: Event) -> list[Event]:
        """Apply an observer's event (``resign``, ``resign_accept``, ``resign_reject``)."""
        t = event.t
        if isinstance(event, ResignEvent):
            return self.resign(event.player, event.level, t=t)
        if isinstance(event, ResignAcceptEvent):
            return self.answer_resignation(True, t=t)
        if isinstance(event, ResignRejectEvent):
            return self.answer_resignation(False, t=t)
        raise ValueError(f"the referee takes no {event.TYPE!r} from an observer")


#: Events that may follow a play that an observer still corrects: they changed
#: nothing in the match.
_UNDOABLE_AFTER_MOVE = (FlagEvent, FlagClearedEvent, RollInvalidEvent, CorrectionEvent)
#: Events that may follow a play that its mover still changes on the board
#: (:meth:`Referee._see_changed_play`): as above, less the opponent's roll, even
#: an invalid one.
_CHANGEABLE_AFTER_MOVE = (FlagEvent, FlagClearedEvent, CorrectionEvent)


def pile_outside(depth: float, side: float, count: int) -> float:
    """How far (checker diameters) a die standing ``depth`` from a point's base and
    ``side`` outside its strip stands outside the point's pile of ``count`` checkers
    (five to a row): negative inside it.

    >>> round(pile_outside(2.93, -0.33, 3), 2), pile_outside(0.5, -0.3, 7)
    (-0.07, -0.3)
    """
    return max(side, -depth, depth - min(count, 5))


def on_checker_p(depth: float, side: float, count: int) -> float:
    """How likely a die lies on a pile of ``count`` checkers (five to a row, as they
    are stacked) when it stands ``depth`` checker diameters from the point's base and
    ``side`` outside the point's strip: 1 well inside the pile, 0 well outside, soft
    over ``ON_CHECKER_SOFT`` across an edge ``ON_CHECKER_INSET`` inside the pile's.

    >>> round(on_checker_p(1.2, -0.3, 2), 3), round(on_checker_p(1.2, -0.3, 1), 3)
    (0.902, 0.034)
    >>> round(on_checker_p(2.93, -0.33, 3), 3)  # touching the end of a pile of three
    0.417
    >>> on_checker_p(0.5, -0.3, 0)
    0.0
    """
    if count <= 0:
        return 0.0
    outside = pile_outside(depth, side, count) + ON_CHECKER_INSET
    return 1.0 / (1.0 + math.exp(max(-50.0, min(50.0, outside / ON_CHECKER_SOFT))))


def _negated_id(position: Position) -> tuple[int, ...]:
    """A key that sorts Position IDs backwards (max() then picks the smallest ID, as
    :meth:`Referee.ranked_results` puts it first among equals)."""
    return tuple(-ord(c) for c in position.position_id())


def _is_undo(event: Event) -> bool:
    return isinstance(event, CorrectionEvent) and event.data.get("action") == "undo"


#: How far (cm, city-block) a die may seem to move and still be the same die lying
#: there. A die read unsure is placed less surely too: s19 clip 1403's 4, read at
#: 0.63, then at 0.99 where it lay, seemed to move 2.0 cm, and its roll, read again,
#: was taken for the next one. Two dice lie a die's width (1.6 cm) apart at least.
SAME_PLACE_CM = 2.5


def _without_values(dice: Sequence[SeenDie], values: Sequence[int]) -> list[SeenDie]:
    """``dice`` less one die showing each of ``values`` (those that are there)."""
    rest = list(dice)
    for v in values:
        for d in rest:
            if d.value == v:
                rest.remove(d)
                break
    return rest


def _opening_rolls(seen: Sequence[SeenDie]) -> list[tuple[float, tuple[int, int], int]]:
    """Every opening roll, (player 0's die, player 1's), with its log-probability
    given the two dice seen (``seen``, player 0's first; :func:`_die_log_p`) and the
    player it lets start, the higher die's [000 r8]."""
    return [
        (_die_log_p(seen[0], a) + _die_log_p(seen[1], b), (a, b), 0 if a > b else 1)
        for a, b in permutations(range(1, 7), 2)
    ]


def _die_log_p(d: SeenDie, v: int) -> float:
    """log P(die ``d`` shows ``v``): its read value with its ``p``; any other value
    with ``(1 - p) / 5``, or, where the reader's probabilities of every face are
    known, with the reader's, but no less than ``(1 - p) / OTHER_FACE_FLOOR``. When
    a die read at 0.5 or more is wrong, its true face is the reader's second choice
    most of the time (26 of 41 such dice of renders/val, the stills vision's
    thresholds are chosen on; ``bench/dice_calibration.py``): a misread is likelier
    to that face than to the four others.

    >>> unsure = SeenDie(4, p=0.89, values=(0.0, 0.02, 0.0, 0.89, 0.0, 0.09))
    >>> [round(math.exp(_die_log_p(unsure, v)), 4) for v in (4, 6, 1)]
    [0.89, 0.09, 0.0044]
    >>> round(math.exp(_die_log_p(SeenDie(4, p=0.89), 6)), 4)
    0.022
    """
    p = min(max(d.p, 1e-3), 1 - 1e-3)
    if d.value == v:
        return math.log(p)
    if d.values:
        return math.log(max(d.values[v - 1], (1 - p) / OTHER_FACE_FLOOR))
    return math.log((1 - p) / 5)


def _glimpse_log_p(glimpsed: Sequence[SeenDie], roll: tuple[int, int]) -> float:
    """log P(the dice ``glimpsed`` of a roll | ``roll``): one die, either of its
    numbers; two, the one die each number, the likelier way round.

    >>> two = (SeenDie(2, p=1.0), SeenDie(2, p=1.0))
    >>> _glimpse_log_p(two, (2, 2)) > _glimpse_log_p(two, (6, 2)) + 5
    True
    >>> _glimpse_log_p(two[:1], (2, 2)) == _glimpse_log_p(two[:1], (6, 2))
    True
    """
    if len(glimpsed) >= 2:
        a, b = glimpsed[:2]
        return max(
            _die_log_p(a, roll[0]) + _die_log_p(b, roll[1]),
            _die_log_p(a, roll[1]) + _die_log_p(b, roll[0]),
        )
    return sum(max(_die_log_p(g, roll[0]), _die_log_p(g, roll[1])) for g in glimpsed)


def _camera_judged(invalid: RollInvalidEvent) -> tuple[int, int] | None:
    """The numbers of ``invalid`` (higher first), a roll judged invalid only for a
    fault the camera alone sees (``TAKEN_VALID_FAULTS``), its numbers read, and not
    for being rolled again (``REROLL_NOTE``): a roll its players may have taken as
    valid. Else None."""
    if (
        invalid.dice is None
        or invalid.note == REROLL_NOTE
        or not set(invalid.reasons) <= TAKEN_VALID_FAULTS
    ):
        return None
    return (max(invalid.dice), min(invalid.dice))


def _roll_log_prior(roll: tuple[int, int], glimpsed: Sequence[SeenDie]) -> float:
    """log-odds of ``roll`` among the 21: a non-double twice a double, weighed by the
    dice ``glimpsed`` of it (:func:`_glimpse_log_p`)."""
    return _glimpse_log_p(glimpsed, roll) + (0.0 if roll[0] == roll[1] else math.log(2))


#: By how much another number's probability must pass the recorded one's, two reads of
#: a die mixed (:func:`_mixed_reads`), for the roll to be put right from them
#: (:meth:`Referee._see_dice_read_again`). At 0.1 a 4 read at 0.60 (its 2 at 0.39),
#: then as a 2 at 0.71, was put right to a 2 wrongly (s56 clip 5103 at 551 s: 0.55
#: against 0.45); the right ones seen passed it by 0.23 and 0.28.
MIXED_MARGIN = 0.2


def _likelier_number(die: SeenDie) -> int:
    """The number of ``die`` (two reads mixed) likelier than the one recorded by
    ``MIXED_MARGIN``, else the one recorded.

    >>> _likelier_number(SeenDie(3, values=(0.1, 0.51, 0.21, 0.1, 0.04, 0.04)))
    2
    >>> _likelier_number(SeenDie(3, values=(0.1, 0.55, 0.35, 0.0, 0.0, 0.0)))
    3
    """
    faces = die.faces()
    best = max(range(6), key=lambda k: faces[k]) + 1
    return best if faces[best - 1] > faces[die.value - 1] + MIXED_MARGIN else die.value


def _where_they_lay(
    rolled: Sequence[SeenDie], seen: Sequence[SeenDie]
) -> list[tuple[SeenDie, SeenDie]] | None:
    """Each die ``seen`` paired with the one die of ``rolled`` that lay where it lies
    (``(rolled die, seen die)``); ``None`` where a seen die lies by none of them or
    by two, or two lie by the same one. Places must be known."""
    pairs: list[tuple[SeenDie, SeenDie]] = []
    for new in seen:
        near = [old for old in rolled if _near(old, new)]
        if len(near) != 1 or any(old is near[0] for old, _ in pairs):
            return None
        pairs.append((near[0], new))
    return pairs


def _near_any(die: SeenDie, others: Sequence[SeenDie]) -> bool:
    return any(_near(die, o) for o in others)


#: A die read at least this surely when the roll was taken, now read as another
#: number, is taken for another die (:func:`_both_rolled_again`).
ROLLED_AGAIN_OLD_P = 0.75


def _both_rolled_again(changed: Sequence[tuple[SeenDie, SeenDie]]) -> bool:
    """Whether two dice, each seen where one of the roll lay (``(old, new)`` pairs
    read as other numbers), are a new roll rather than the roll read again: both
    read surely now (``REREAD_P``), both read surely before (``ROLLED_AGAIN_OLD_P``),
    and the reads before giving the new numbers together a chance under
    ``(1 - REREAD_P) ** 2``. The callers ask only where the board shows a play made
    since the roll; with the board unmoved such dice are his roll read again (s35
    clip 3004). A roll's first view, caught as the dice come to rest, misreads one
    die (s17 clips 1202 and 1203); both misread surely and read surely again is the
    opponent's roll made where the mover's dice lay, lifted between two views with
    hands over the table (s61 clip 5702 at 315 s: a 43 read at 1.00 and 0.98,
    played, then the opponent's 62 in the wrong half, its dice within a centimetre
    or two of the 43's, read at 0.98 and 0.93: taken for the 43 read again, its
    play flagged as no play of 62 and the invalid roll missed; the 4's reads gave a
    2 0.11, the 3's a 6 none).

    >>> three, four = SeenDie(3, values=(0, 0, 1.0, 0, 0, 0)), SeenDie(4, p=0.9)
    >>> _both_rolled_again([(three, SeenDie(6, p=0.98)), (four, SeenDie(2, p=0.93))])
    True
    >>> _both_rolled_again([(three, SeenDie(6, p=0.98))])  # one die: read again
    False
    """
    if len(changed) != 2 or any(
        new.p < REREAD_P or old.p < ROLLED_AGAIN_OLD_P for old, new in changed
    ):
        return False
    same = math.prod(old.faces()[new.value - 1] for old, new in changed)
    return same < (1 - REREAD_P) ** 2


def _mixed_reads(old: SeenDie, new: SeenDie) -> SeenDie:
    """Die ``old`` as first read, read again as ``new`` where it lay: its number stays
    the one recorded, each face's probability is the mean of the two reads'.

    >>> three = SeenDie(3, values=(0, 0, 1.0, 0, 0, 0), at=(0.0, 0.0))
    >>> both = _mixed_reads(three, SeenDie(4, values=(0, 0, 0, 1.0, 0, 0)))
    >>> both.value, both.p, both.values, both.at
    (3, 0.5, (0.0, 0.0, 0.5, 0.5, 0.0, 0.0), (0.0, 0.0))
    """

    mean = tuple((a + b) / 2 for a, b in zip(old.faces(), new.faces(), strict=True))
    were = old.pooled or old.faces()
    pairs = zip(were, new.faces(), strict=True)
    both = [math.sqrt(max(a, POOL_FLOOR) * max(b, POOL_FLOOR)) for a, b in pairs]
    pooled = tuple(x / sum(both) for x in both)
    surest = max(_surest(old), new.faces()[old.value - 1])
    return replace(old, p=mean[old.value - 1], values=mean, pooled=pooled, surest=surest)


def _read_surely_again(old: SeenDie, new: SeenDie) -> SeenDie:
    """Die ``old``, read again surely where it lay as ``new``, the roll read again from
    it. Read surely both times, it keeps both reads (the later one's number). Read
    unsure, then surely as another number, it is taken as read now, but its reads
    pooled keep the number it was read as first, for a play only that number makes
    legal (s166 clip 16302 at 402.3 s: a 65, its 5 read at 0.78, then as a 3 at 0.81
    and at 0.95; 23/17* 13/8 flagged as no play of 63). Read unsure, then surely as
    the same number, it is taken as read now.

    >>> five = SeenDie(5, p=0.78, values=(0.04, 0.04, 0.06, 0.04, 0.78, 0.04))
    >>> three = SeenDie(3, p=0.95, values=(0.0, 0.02, 0.95, 0.0, 0.03, 0.0))
    >>> again = _read_surely_again(five, three)
    >>> again.value, again.p, round(again.pooled[4], 2)
    (3, 0.95, 0.36)
    """
    if old.p >= REREAD_P:
        return _mixed_reads(new, old)
    if old.value != new.value:
        return replace(new, pooled=_mixed_reads(old, new).pooled)
    return new


def _with_reads_mixed(
    rolled: Sequence[SeenDie], pairs: Iterable[tuple[SeenDie, SeenDie]]
) -> tuple[SeenDie, ...]:
    """``rolled`` with each die of ``pairs`` (as recorded, as read again where it lay)
    given both reads mixed (:func:`_mixed_reads`), the others as they were."""
    mixed = {id(old): _mixed_reads(old, new) for old, new in pairs}
    return tuple(mixed.get(id(d), d) for d in rolled)


def _surest(die: SeenDie) -> float:
    """The surest any read of ``die`` gave its number (``SeenDie.surest``).

    >>> _surest(SeenDie(4, p=0.52))
    0.52
    >>> _surest(_mixed_reads(SeenDie(4, p=0.52), SeenDie(4, p=0.99)))
    0.99
    """
    return die.p if die.surest is None else die.surest


#: The least probability a read gives a face, for pooling reads (:func:`_mixed_reads`):
#: a reader's "never" is a ten-thousandth at most.
POOL_FLOOR = 1e-4


def _pooled(die: SeenDie) -> SeenDie:
    """``die`` with its reads pooled (``SeenDie.pooled``) as its faces, where it was
    read more than once.

    >>> two = _mixed_reads(SeenDie(4, values=(0, 0, 0, 0.98, 0.02, 0)),
    ...                    SeenDie(4, values=(0, 0, 0, 0.85, 0.15, 0)))
    >>> round(two.values[4], 3), round(_pooled(two).values[4], 3)
    (0.085, 0.057)
    """
    if not die.pooled:
        return die
    return replace(die, p=die.pooled[die.value - 1], values=die.pooled)


#: The log-odds a roll one die off must reach against the dice as read, where the play
#: is the roll as read with one die left unplayed (:func:`_one_die_played`), for the
#: play to be taken for a misread rather than flagged (a roll two dice off the same,
#: the two together, not each: s162 clip 15901 at 179.2 s): 0.15, three times
#: ``ILLEGAL_LOG_ODDS``'s twentieth. For the misread, the die must show the one number
#: of the five others that makes a single checker's trip through both dice land just
#: where one die of the dice as read would have taken it, and the player must have
#: chosen that trip. Set from every such play of the 40 clips of s66-s75 (session 52,
#: the odds logged at the decision): misreads at 0.17, 0.16 and 0.08 (s71 6701 at 371
#: s, s75 7202 at 297 and 170 s, flagged falsely at a quarter), illegal plays at 0.12,
#: 0.13 (s68 6402 at 59 and 230 s) and below, and s62 clip 5802's at 0.08.
UNPLAYED_LOG_ODDS = math.log(0.15)

#: The log-odds against the dice as read under which a dance of another roll, the
#: flagged play seen taken back whole, waits for the next roll to be put right
#: (:meth:`Referee._reread_roll`'s ``hold``): a quarter. s74 clip 7101's (0.07) waits;
#: s71 clip 6702's and s68 clip 6402's, nearly as likely as the dice as read, are put
#: right on the view, as before.
TAKEN_BACK_LOG_ODDS = math.log(0.25)


def _one_die_played(before: Position, read: tuple[int, int], after: Position) -> bool:
    """Whether ``after`` is ``before`` with one checker moved by one die of the roll
    ``read`` (a non-double) and the other die left, where a legal play of ``read``
    plays both [000 r12].

    >>> from .moves import apply_written, parse_play_text
    >>> start = Position.initial()
    >>> def played(text): return apply_written(start, parse_play_text(text))
    >>> _one_die_played(start, (6, 1), played("13/7"))
    True
    >>> _one_die_played(start, (5, 1), played("13/7"))
    False
    >>> _one_die_played(start, (6, 1), played("13/7 8/7"))  # both dice played
    False
    >>> _one_die_played(start, (5, 1), played("13/8"))  # a 51's 5 alone, or a 41's trip
    True
    """
    if read[0] == read[1] or dice_used(legal_plays(before, read)) != 2:
        return False
    lost, gained = _moved_points(before, after)
    if len(lost) != 1 or len(gained) != 1:
        return False
    src, dst = lost[0], gained[0]
    if dst:
        return src - dst in read
    return max(read) >= src  # borne off by a die of at least its point


def _double_short(before: Position, read: tuple[int, int], after: Position) -> bool:
    """Whether ``after`` is ``before`` with the mover's checkers moved by a whole
    number of the double ``read``'s pips, fewer of its dice than a legal play of it
    uses: the double with a die (or more) left unplayed [000 r12] (s132 clip 12902 at
    35.9 s: 13/11 11/9 6/4 of a 22, a 42's 13/9 6/4 as well).

    >>> from .moves import apply_written, parse_play_text
    >>> start = Position.initial()
    >>> def played(text): return apply_written(start, parse_play_text(text))
    >>> _double_short(start, (2, 2), played("13/11 11/9 6/4"))
    True
    >>> _double_short(start, (2, 2), played("13/11 11/9 6/4 6/4"))  # all four played
    False
    >>> _double_short(start, (2, 2), played("13/10 6/4"))  # no whole number of 2s
    False
    >>> _double_short(start, (6, 1), played("13/7"))  # no double
    False
    """
    die = read[0]
    if die != read[1]:
        return False
    moved = before.pips(before.turn) - after.pips(before.turn)
    if moved <= 0 or moved % die:
        return False
    return moved // die < dice_used(legal_plays(before, read))


def _miscount_of(before: Position, read: tuple[int, int], after: Position) -> bool:
    """Whether ``after`` may be an illegal play of ``read`` (a non-double) from
    ``before`` of the kinds players make, a distance miscounted or a die left
    [000 r10a, r12]: no more checkers moved than two dice move, and no more than one
    pip past the roll's sum.

    >>> from .moves import apply_written, parse_play_text
    >>> start = Position.initial()
    >>> def played(text): return apply_written(start, parse_play_text(text))
    >>> _miscount_of(start, (5, 2), played("13/7 24/22"))  # a 5 counted as 6
    True
    >>> _miscount_of(start, (4, 1), played("8/4"))  # the 1 left unplayed
    True
    >>> _miscount_of(start, (6, 4), played("24/18(2) 13/7(2)"))  # four 6s
    False
    >>> _miscount_of(start, (4, 3), played("13/5(2)"))  # two checkers, 16 pips
    False
    """
    lost, _ = _moved_points(before, after)
    mover = before.turn
    return len(lost) <= 2 and before.pips(mover) - after.pips(mover) <= sum(read) + 1


def _read_unsure(dice: Sequence[SeenDie], read: tuple[int, int], *, dice_unsure: int) -> bool:
    """Whether ``dice`` are two dice showing ``read``, ``dice_unsure`` of them (1 or 2)
    at least read under ``REREAD_P``.

    >>> read_31 = (SeenDie(3, p=0.63), SeenDie(1, p=0.95))
    >>> _read_unsure(read_31, (3, 1), dice_unsure=1), _read_unsure(read_31, (3, 1), dice_unsure=2)
    (True, False)
    >>> _read_unsure((SeenDie(3, p=0.63), SeenDie(1, p=0.42)), (3, 1), dice_unsure=2)
    True
    """
    return (
        len(dice) == 2
        and sorted(d.value for d in dice) == sorted(read)
        and sum(d.p < REREAD_P for d in dice) >= dice_unsure
    )


def _dice_apart(roll: tuple[int, int], read: tuple[int, int]) -> int:
    """How many of the two dice of ``roll`` must have been read wrong to read ``read``.

    >>> _dice_apart((5, 2), (5, 3)), _dice_apart((3, 3), (3, 1)), _dice_apart((6, 4), (2, 1))
    (1, 1, 2)
    """
    return 2 - sum((Counter(roll) & Counter(read)).values())


def _surest_misread(dice: Sequence[SeenDie], read: tuple[int, int], roll: tuple[int, int]) -> float:
    """The log-odds, against its number as read, of the least likely die of two read
    as ``read`` showing ``roll``, the dice matched to the roll the likelier way round
    (:func:`_paired`); 0 where the roll is the dice as read.

    >>> sure, unsure = SeenDie(6, p=0.99), SeenDie(3, p=0.28)
    >>> round(_surest_misread((sure, unsure), (6, 3), (5, 1)), 2)
    -6.2
    >>> round(_surest_misread((sure, unsure), (6, 3), (6, 1)), 2)
    -0.66
    """
    shown = _paired(dice, roll)
    return min(
        0.0,
        *(
            _die_log_p(d, v) - _die_log_p(d, was)
            for d, v, was in zip(dice[:2], shown, read, strict=True)
            if v != was
        ),
    )


def _paired(dice: Sequence[SeenDie], roll: tuple[int, int]) -> tuple[int, int]:
    """``roll``'s numbers in the order of the two ``dice`` that likelier show them.

    >>> _paired((SeenDie(2, p=0.9), SeenDie(1, p=0.7)), (1, 2))
    (2, 1)
    """
    a, b = dice[0], dice[1]

    def shows(numbers: tuple[int, int]) -> float:
        return _die_log_p(a, numbers[0]) + _die_log_p(b, numbers[1])

    turned = (roll[1], roll[0])
    return turned if shows(turned) > shows(roll) else roll


def _roll_log_p(dice: Sequence[SeenDie], roll: tuple[int, int]) -> float:
    """log P(two dice read as ``dice`` show ``roll``), the dice taken either way round.

    >>> round(_roll_log_p((SeenDie(2, p=0.5), SeenDie(1, p=0.7)), (2, 2)), 2)
    -3.51
    """
    return sum(_die_log_p(d, v) for d, v in zip(dice[:2], _paired(dice, roll), strict=True))


def _same_die(a: SeenDie, b: SeenDie) -> bool:
    """Whether ``a`` may be die ``b`` lying where it lay: the same number, and the same
    place when both places are known."""
    if a.value != b.value:
        return False
    return a.at is None or b.at is None or _near(a, b)


def _near(a: SeenDie, b: SeenDie, cm: float = SAME_PLACE_CM) -> bool:
    """Whether two dice whose places are known lie within ``cm`` (across plus along)."""
    assert a.at is not None and b.at is not None
    return abs(a.at[0] - b.at[0]) + abs(a.at[1] - b.at[1]) <= cm


def _less_bar_mark(dice: tuple[SeenDie, ...]) -> tuple[SeenDie, ...]:
    """``dice`` less the one on the bar when two more lie in the field: a mark on the
    bar found as a die (s36 clip 3103 at 237 s: an orange plate on the bar, its dots
    read as a 1 at 0.97, found only in the four frames of a roll into the wrong half,
    too briefly to be learnt as a mark; with three dice down the roll was never
    judged). A die rolled onto the bar while two others lie in the field is the rarer.

    >>> roll = (SeenDie(6, half="left"), SeenDie(1, half="left"))
    >>> [d.value for d in _less_bar_mark((*roll, SeenDie(1, half="bar")))]
    [6, 1]
    >>> len(_less_bar_mark((SeenDie(6, half="left"), SeenDie(1, half="bar"))))  # a roll's die
    2
    """
    on_bar = [d for d in dice if d.half == "bar"]
    if len(dice) != 3 or len(on_bar) != 1:
        return dice
    return tuple(d for d in dice if d is not on_bar[0])


def _less_found_twice(dice: tuple[SeenDie, ...]) -> tuple[SeenDie, ...]:
    """``dice`` less one of a half's three dice that lies where another of them does
    (:func:`_seen_twice`) and was read less surely, the other read surely
    (``REREAD_P``) or fairly surely (``TWIN_SURER_P``) and it unsurely
    (``TWIN_LESS_P``), or that is the least sure read of the three and lies within
    ``BOXED_TWICE_CM`` of one read surely: one die boxed twice, its top and a side face
    (s39 clip 3404 at 153 s: a 2 at 0.99 also found as a 1 at 0.36 1.3 cm away, the
    22 beside it never taken; s40 clip 3504 at 84 s and 110 s, 2 and 3 cm apart).
    Two dice of a roll lie 1.5 cm apart or more (leaning, cocked; flat ones further);
    a half holding a third die as well is the rarer still. Neither read
    surely, the view waits for a better one (s34 clip 2904 at 585 s: a 3 at 0.68
    and a 6 at 0.48; taken as the 3, the roll's 3 was later read again as a 1 to fit
    an illegal play, and the flag was lost).

    >>> roll = (SeenDie(2, p=0.99, half="left", at=(-6.3, 14.7)),
    ...         SeenDie(2, p=1.0, half="left", at=(-19.0, 0.7)))
    >>> twin = SeenDie(1, p=0.36, half="left", at=(-5.1, 14.8))
    >>> [d.value for d in _less_found_twice((roll[0], twin, roll[1]))]
    [2, 2]
    >>> far = (SeenDie(3, p=0.77, half="right", at=(12.0, 3.0)),  # s151 14803 at 939.9 s
    ...        SeenDie(4, p=0.82, half="right", at=(11.0, -10.0)))
    >>> far_twin = SeenDie(3, p=0.28, half="right", at=(11.0, -11.0))
    >>> [d.value for d in _less_found_twice((far[0], far[1], far_twin))]
    [3, 4]
    >>> [d.value for d in _less_found_twice((far[0], far[1], replace(far_twin, p=0.6)))]
    [3, 4, 3]
    >>> apart = replace(twin, at=(-1.0, 14.8))  # three dice apart: all stay
    >>> len(_less_found_twice((roll[0], apart, roll[1]))), len(_less_found_twice((roll[0], twin)))
    (3, 2)
    """

    def less_sure_gone(a: SeenDie, b: SeenDie) -> tuple[SeenDie, ...]:
        less = a if a.p < b.p else b
        return tuple(d for d in dice if d is not less)

    for half in dict.fromkeys(d.half for d in dice):
        here = [d for d in dice if d.half == half]
        if len(here) != 3:
            continue
        twins = _pairs_within(here, TWICE_CM)  # (:func:`_seen_twice`)
        if len(twins) == 1:
            surer, less = sorted(twins[0], key=lambda d: -d.p)
            if surer.p >= REREAD_P or (surer.p >= TWIN_SURER_P and less.p < TWIN_LESS_P):
                return less_sure_gone(surer, less)
        # A side face boxed apart from its die's top lies further off, but is the
        # least sure read of the three (s40 clip 3504 at 84 s and 110 s: a 3 at
        # 0.85 2 cm from a 1 read surely, a 1 at 0.41 3 cm from a 4).
        least = min(here, key=lambda d: d.p)
        if (
            any(
                d is not least and d.p >= REREAD_P and _near_known(least, d, BOXED_TWICE_CM)
                for d in here
            )
            and sum(d.p == least.p for d in here) == 1
        ):
            return tuple(d for d in dice if d is not least)
        # Two dice within ``BOXED_TWICE_CM``, a side face a little further off than
        # ``TWICE_CM`` read as surely as the top, the third die apart and read surely
        # too: the surer of the two is the die (s46 clip 4104 at 146 s: a 6 cocked
        # against the rail also found as a 1, 2.8 cm apart, 1.00 and 0.996, the
        # roll's 1 12 cm away at 0.985; with three dice down the roll was never
        # judged, and its roll made again never taken for an invalid roll).
        near = _pairs_within(here, BOXED_TWICE_CM)
        if len(near) == 1:
            a, b = near[0]
            third = next(d for d in here if d is not a and d is not b)
            if min(third.p, max(a.p, b.p)) >= REREAD_P:
                return less_sure_gone(a, b)
    return dice


def _die_as_cube(s: Sighting) -> bool:
    """One die down and a cube offered (in the field, where dice lie): the roll's
    other die, boxed as the cube, not a double. A double comes before the roll [001
    4.4]; after it, while the roll is played, both dice lie (s56 clip 5101 at 699 and
    769 s: a black die boxed as the cube beside the other, read as a cube offered in
    the Crawford game, and illegal doubles flagged that no one made). :meth:`Referee.see`
    then takes the cube to lie where it was last seen, so that no rule reads the die
    as a double, nor keeps it as the cube last seen (a view of the cube back in the
    middle would then have read as a pass)."""
    cube = s.cube
    return (
        cube is not None
        and cube.place == "offered"
        and len(_less_found_twice(_less_bar_mark(s.dice))) == 1
    )


def _overruns(before: Position, after: Position, mover: int, roll: tuple[int, int]) -> bool:
    """Whether ``mover``'s checkers went further from ``before`` to ``after`` than
    ``roll`` can take them, by more than one pip (a checker a point long is an
    illegal play of the roll; further, seldom)."""
    reach = sum(roll) * (2 if roll[0] == roll[1] else 1)
    return before.pips(mover) - after.pips(mover) > reach + 1


def _dances(position: Position, roll: tuple[int, int]) -> bool:
    """Whether ``roll`` leaves the player on roll no play (the checkers stay)."""
    return set(legal_plays(position, roll)) == {position}


#: Of two of a half's three dice found within ``TWICE_CM``, the one read under
#: ``TWIN_LESS_P`` is the other's second box where that one is read at ``TWIN_SURER_P``
#: or more, short of ``REREAD_P`` (:func:`_less_found_twice`; s151 clip 14803 at
#: 939.9 s: a far 4 read at 0.82 boxed again 1 cm off, read as a 3 at 0.28; with three
#: dice down the roll, a dance, was never taken). Two unsure reads still wait for a
#: better view (s34 clip 2904 at 585 s: a 3 at 0.68 beside a 6 at 0.48).
TWIN_SURER_P = 0.75
TWIN_LESS_P = 0.5

#: How far (cm, across plus along) a die's side face, boxed apart from its top, may
#: seem to lie from it (:func:`_less_found_twice`): a die's width and a cm of jitter.
#: Of 291 pairs of a roll's dice in s40's truth, 4 lay this close (none of them with
#: a third die in their half: no frame of the clips' truth has one).
BOXED_TWICE_CM = 3.0

#: How far (cm, across plus along) one box over two touching dice may seem to move
#: from view to view, shifting from the one die to the other: their centres lie a
#: die's width apart (1.3 to 1.9 cm), up to 1.4 times that across plus along where
#: they touch corner-wise, and a cm of jitter (:meth:`Referee._note_glimpse`).
TOUCHING_CM = 4.0

#: Two dice found this close (cm, across plus along) in a half where one die is
#: looked for (an opening roll) are one die found twice: dice are 1.3 to 1.9 cm
#: wide, and their places as read jitter by about a cm.
TWICE_CM = 2.0


def _pairs_within(dice: Sequence[SeenDie], cm: float) -> list[tuple[SeenDie, SeenDie]]:
    """Every pair of ``dice`` whose places are known and lie within ``cm``."""
    return [(a, b) for i, a in enumerate(dice) for b in dice[i + 1 :] if _near_known(a, b, cm)]


def _seen_twice(a: SeenDie, b: SeenDie) -> bool:
    """Whether ``a`` and ``b`` are one die found twice: a die near the far rail,
    seen from the side, shows its top and a side face, and the detector boxes each
    (s23 clip 1803: an opening 5 also found as a 6 a cm away, and the opening roll,
    two dice in one half, was never taken). The surer read is the die.

    >>> _seen_twice(SeenDie(5, at=(19.0, -16.0)), SeenDie(6, at=(20.0, -16.0)))
    True
    >>> _seen_twice(SeenDie(5, at=(19.0, -16.0)), SeenDie(6, at=(20.0, -14.5)))
    False
    """
    return _near_known(a, b, TWICE_CM)


#: Below this chance that two readings show the same face (the sum over faces of the
#: product of their probabilities) they are two dice, whatever their places
#: (:func:`_may_show_alike`).
SAME_FACE_MIN_P = 0.05


def _may_show_alike(a: SeenDie, b: SeenDie) -> bool:
    """Whether two readings may be of one die: the chance that they show the same face
    is at least ``SAME_FACE_MIN_P``. A die read surely as a 5 and one read surely as a 2
    are two dice; one read unsure may be either.

    >>> _may_show_alike(SeenDie(5, p=0.97), SeenDie(2, p=0.99))
    False
    >>> _may_show_alike(SeenDie(5, p=0.97), SeenDie(5, p=0.6))
    True
    >>> _may_show_alike(SeenDie(5, p=0.7), SeenDie(2, p=0.99))  # 0.3 / 5 on the 2
    True
    """
    return sum(x * y for x, y in zip(a.faces(), b.faces(), strict=True)) >= SAME_FACE_MIN_P


def _near_known(a: SeenDie, b: SeenDie, cm: float = SAME_PLACE_CM) -> bool:
    """Whether two dice lie in the same place (within ``cm``), as far as it is known
    (else not)."""
    return a.at is not None and b.at is not None and _near(a, b, cm)


#: A view with no cube, one of at most this many since the cube was seen lying in
#: ``CUBE_LYING_VIEWS`` views in a row, shows the cube moved: picked up, offered or
#: set down where it may be found as a die (:meth:`Referee._note_glimpse`). Seen in
#: none of them, it is away (a Crawford game, a cube the camera does not find); seen
#: in one view alone, it was likelier a mark read as a cube (s39 clip 3404 at 278 s);
#: dice seen are dice.
CUBE_GONE_VIEWS = 3
CUBE_LYING_VIEWS = 2

#: How surely a die glimpsed must have been read for its absence to say that the
#: dice now in its half are another roll (:meth:`Referee._glimpse_gone`).
GLIMPSE_GONE_P = 0.8
#: A die of the glimpsed die's number this far from where it lay (cm, across plus
#: along) is another die all the same: a die nudged by a hand moves a few cm, not a
#: quarter of the board (:meth:`Referee._glimpse_gone`).
GLIMPSE_MOVED_CM = 4 * SAME_PLACE_CM

#: How far (cm, city-block) a die's place as read jitters from view to view while it
#: lies still (about a cm: ``TWICE_CM``), the bound for the same dice read again.
STILL_CM = 1.5


def _same_places(dice: Sequence[SeenDie], before: Sequence[SeenDie]) -> bool:
    """Whether ``dice`` lie each within ``STILL_CM`` of one of ``before``, as many of
    them, places known: the same dice read again, whatever numbers are read now (s22
    clip 1703: a roll judged cocked, its two dark dice read 23 then 11 where they lay,
    judged again as a second invalid roll). Two rolls do not land both dice there.

    >>> a = (SeenDie(2, at=(-18.0, -2.0)), SeenDie(3, at=(-15.0, 5.0)))
    >>> _same_places((SeenDie(1, at=(-15.4, 5.3)), SeenDie(1, at=(-18.0, -2.2))), a)
    True
    >>> _same_places((SeenDie(1, at=(-15.4, 5.3)), SeenDie(1, at=(-12.0, -2.2))), a)
    False
    """
    if len(dice) != len(before) or not dice:
        return False
    if any(d.at is None for d in (*dice, *before)):
        return False
    return all(any(_near(d, b, STILL_CM) for b in before) for d in dice) and all(
        any(_near(d, b, STILL_CM) for d in dice) for b in before
    )


def _surer_where_lying(judged: tuple[SeenDie, ...], dice: Sequence[SeenDie]) -> tuple[SeenDie, ...]:
    """The dice ``judged`` (a roll judged invalid), each with the surer read of the
    same number that ``dice``, the same dice read again where they lie
    (:func:`_same_places`), give it; else as they were. A die read unsure when its
    roll was judged may be read surely in the next view, before the play made with it
    is judged against the numbers it leaves likely (s89 clip 8601 at 167.5-170.2 s: a
    flat 61, its 1 read cocked at 0.81, then at 1.00 where it lay; 13/6 6/5, an illegal
    play of it, was recorded as 13/11 11/5 of a 62, the 2 the first read's second
    choice). Another number read now changes nothing: the judged numbers stand.

    >>> one = SeenDie(1, p=0.81, at=(-8.0, 9.0))
    >>> six = SeenDie(6, p=1.0, at=(-13.0, -4.0))
    >>> [d.p for d in _surer_where_lying((six, one), (replace(one, p=0.99, at=(-8.2, 8.6)), six))]
    [1.0, 0.99]
    >>> [d.p for d in _surer_where_lying((six, one), (replace(one, value=2, p=0.99), six))]
    [1.0, 0.81]
    """
    if not _same_places(dice, judged):
        return judged
    out = []
    for j in judged:
        surer = [d for d in dice if d.value == j.value and d.p > j.p and _near(d, j, STILL_CM)]
        best = max(surer, key=lambda d: d.p, default=None)
        out.append(j if best is None else replace(j, p=best.p, values=best.values))
    return tuple(out)


def _dice_key(dice: Sequence[SeenDie]) -> tuple[tuple[int, str, tuple[int, ...]], ...]:
    """The dice as a roll: values, halves and (when known) places, so a re-roll of the
    same numbers into the same half still reads as new."""
    return tuple(
        sorted(
            (d.value, d.half or "", () if d.at is None else (round(d.at[0]), round(d.at[1])))
            for d in dice
        )
    )


# --- describing an illegal play -----------------------------------------------------------------


def _moved_points(before: Position, after: Position) -> tuple[list[int], list[int]]:
    """The points the mover's checkers left and reached from ``before`` to ``after``
    (mover on roll in ``before``), one entry a checker, in GNU Backgammon's numbers
    (25 the bar, 0 off), highest first."""
    mover = before.turn
    a, b = before.boards[mover], after.boards[mover]
    lost: list[int] = []
    gained: list[int] = []
    for i in range(BAR + 1):
        point = 25 if i == BAR else i + 1
        lost += [point] * max(0, a[i] - b[i])
        gained += [point] * max(0, b[i] - a[i])
    gained += [0] * max(0, after.off(mover) - before.off(mover))
    lost.sort(reverse=True)
    gained.sort(reverse=True)
    return lost, gained


def describe_change(before: Position, after: Position) -> str:
    """A play text for the mover's checkers that moved from ``before`` to ``after``
    (mover on roll in ``before``) in GNU Backgammon's numbers (25 the bar, 0 off):
    sources paired with destinations, highest first; ``""`` when none moved. Not
    necessarily the way it was played, just a way (for flags).

    >>> describe_change(Position.initial(), Position.from_position_id("4HPwATCwZ/ABMA"))
    '8/5 6/5'
    """
    mover = before.turn
    lost, gained = _moved_points(before, after)
    opp_before, opp_after = before.boards[1 - mover], after.boards[1 - mover]
    hits = {
        24 - i
        for i in range(24)
        if opp_after[i] < opp_before[i] and opp_after[BAR] > opp_before[BAR]
    }
    parts = []
    for src, dst in zip(lost, gained, strict=False):
        parts.append(f"{src}/{dst}{'*' if dst in hits else ''}")
    return " ".join(parts)


def broken_rule(before: Position, dice: tuple[int, int], after: Position | None) -> str:
    """The ``RULES.md`` tag an illegal play most likely broke.

    A checker on a point the opponent holds [000 r13]; a checker moved while one is
    on the bar [000 r15]; bearing off with checkers outside [000 r16]; fewer pips
    than a legal play uses (a die left unplayed, or the smaller where the larger was
    due) [000 r12]; else a wrong distance [000 r10a].
    """
    if after is None:
        return "000 r13"
    mover = before.turn
    a, b = before.boards[mover], after.boards[mover]
    if any(b[i] and after.boards[1 - mover][23 - i] for i in range(24)):
        return "000 r13"  # a checker of his on a point of his opponent's
    if a[BAR] > 0 and b[BAR] > 0 and any(b[i] < a[i] for i in range(24)):
        return "000 r15"
    if after.off(mover) > before.off(mover) and any(n for n in a[6:BAR]):
        return "000 r16"
    used = before.pips(mover) - after.pips(mover)
    legal = [before.pips(mover) - p.pips(mover) for p in legal_plays(before, dice)]
    if legal and min(legal) - used >= min(dice):
        return "000 r12"  # at least a die's worth of pips unplayed
    return "000 r10a"


__all__ = [
    "CheckerEvidence",
    "ExactCheckers",
    "Referee",
    "RefereeConfig",
    "SeenCube",
    "SeenDie",
    "Sighting",
    "broken_rule",
    "describe_change",
]
