"""The script of a match clip: what is on the table in every frame, and what happened.

A :class:`Director` replays a ``.mat`` (through the engine) as physical action at a
fixed frame rate: dice tumble in and settle, a hand carries checkers one at a time
(hits go to the bar), dice are lifted to end the turn, the cube is turned and moved.
Faults are injected at chosen rates (:class:`FaultPlan`): illegal plays of six kinds,
each flagged when the dice are lifted and then corrected on the board; invalid rolls
(cocked die, wrong half, die on a checker, premature roll) and re-rolls; a move tried
and taken back. Everything that happened goes into the ground-truth event log in the
engine's format (``t`` = frame / fps, ``frame`` = frame index).

The script is a pure function of (match text, games, seed, plan, fps, setup), so
every worker process can rebuild it and render its share of the frames.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from gammoneye.engine.events import (
    SCHEMA_VERSION,
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
    RollEvent,
    RollInvalidEvent,
    Source,
    TakeEvent,
)
from gammoneye.engine.match import Phase
from gammoneye.engine.moves import infer_play, legal_plays, parse_play_text
from gammoneye.engine.position import Position, PositionError
from gammoneye.engine.replay import Replay, ReplayEntry
from gammoneye.engine.rules import RuleProfile

from .geometry import BoardGeometry
from .placing import (
    BAR,
    OFF,
    CheckerStyle,
    Layout,
    cube_spot,
    layout_of,
    place_cube,
    place_dice,
    place_layout,
    spots_of,
)
from .scene import Checker, Cube, Die, Hand, _mat, rot_axis, rot_z
from .styles import DiceLook

#: Illegal plays the clip can inject, with the rule each breaks (RULES.md tags).
ILLEGAL_KINDS: dict[str, str] = {
    "wrong_distance": "000 r10a",
    "blocked_point": "000 r13",
    "bar_not_first": "000 r15",
    "early_bear_off": "000 r16",
    "smaller_die": "000 r12",
    "unplayed_die": "000 r12",
}
#: Roll faults (event-log reasons) and the rules they break.
ROLL_FAULTS: dict[str, str] = {
    "cocked": "001 4.1(iv)",
    "wrong_half": "001 4.1(iv)(a)",
    "on_checker": "000 r9",
    "premature": "001 4.1(v)(a)",
}
#: Rarest chances first, so that a turn offering several goes to the rare kind.
TRY_ORDER = (
    "smaller_die",
    "bar_not_first",
    "early_bear_off",
    "blocked_point",
    "wrong_distance",
    "unplayed_die",
)
BEHAVIOURS = ("takeback",)
ALL_KINDS = (*ILLEGAL_KINDS, *ROLL_FAULTS, *BEHAVIOURS)


class ClipError(ValueError):
    """A fault spec, game range or match the clip cannot be made from."""


@dataclass(frozen=True)
class FaultPlan:
    """Rate per kind (0..1, per turn or roll where the kind can happen); with
    ``every_kind`` each kind is forced at its first few chances until it happened."""

    rates: dict[str, float] = field(default_factory=dict)
    every_kind: bool = False

    @classmethod
    def parse(cls, spec: str) -> FaultPlan:
        """``none``, ``all``, ``all:0.05`` or ``kind=rate,kind=rate`` (also
        ``illegal=rate`` for all six illegal kinds, ``roll=rate`` for all roll faults).

        >>> FaultPlan.parse("cocked=0.1,illegal=0.02").rates["blocked_point"]
        0.02
        """
        spec = spec.strip()
        if spec in ("", "none"):
            return cls()
        if spec.startswith("all"):
            rate = 0.04
            if spec.startswith("all:"):
                rate = _rate(spec[4:], spec)
            elif spec != "all":
                raise ClipError(f"bad fault spec {spec!r}: expected 'all' or 'all:RATE'")
            return cls({k: rate for k in ALL_KINDS}, every_kind=True)
        rates: dict[str, float] = {}
        for part in spec.split(","):
            name, _, value = part.partition("=")
            name = name.strip()
            rate = _rate(value, part)
            if name == "illegal":
                rates.update(dict.fromkeys(ILLEGAL_KINDS, rate))
            elif name == "roll":
                rates.update(dict.fromkeys(ROLL_FAULTS, rate))
            elif name in ALL_KINDS:
                rates[name] = rate
            else:
                raise ClipError(
                    f"unknown fault kind {name!r} in {spec!r}; expected one of "
                    f"{', '.join(ALL_KINDS)}, illegal, roll"
                )
        return cls(rates)


def _rate(text: str, where: str) -> float:
    try:
        rate = float(text)
    except ValueError:
        raise ClipError(f"bad rate in {where!r}: expected a number 0..1") from None
    if not 0.0 <= rate <= 1.0:
        raise ClipError(f"rate {rate} in {where!r} is not in 0..1")
    return rate


# --- the physical state ----------------------------------------------------------------------


@dataclass(frozen=True)
class Frame:
    """What is on the table in one frame."""

    layout: Layout
    first: int  # who lies at the rail on a point both players hold
    carried: tuple[Checker, ...]
    dice: tuple[Die, ...]
    cube: Cube | None
    hands: tuple[Hand, ...]
    phase: str  # "idle", "rolling", "settled", "moving", "lifting", "cube", "reset"


@dataclass(frozen=True)
class ClipSetup:
    """The fixed parts of a clip: board geometry, seats, checker style, looks."""

    geometry: BoardGeometry
    bottom: int
    checkers: CheckerStyle
    dice_looks: tuple[DiceLook, DiceLook]  # per player (four dice on the table [001 3.3])
    skins: tuple[tuple[int, int, int], tuple[int, int, int]]
    sleeves: tuple[tuple[int, int, int], tuple[int, int, int]]
    hand_width: float
    cube_seed: int


def layout_checkers(
    setup: ClipSetup, layout: Layout, first: int | None, cube: Cube | None
) -> list[Checker]:
    """The checkers of ``layout`` where they stand, those on the bar clear of ``cube``
    resting there (:func:`~.placing.cube_spot`: the cube is put in the middle at the
    start and a checker hit later must not vanish under it; s40 clip 3501 at 34 s).
    What the hands reach for and what is drawn both come from here."""
    g = setup.geometry
    return place_layout(
        g, layout, setup.bottom, setup.checkers, first=first, avoid=cube_spot(g, cube)
    )


def _ease(s: float) -> float:
    return 0.5 - 0.5 * math.cos(math.pi * min(max(s, 0.0), 1.0))


def _lerp3(a: Sequence[float], b: Sequence[float], s: float) -> tuple[float, float, float]:
    return (a[0] + (b[0] - a[0]) * s, a[1] + (b[1] - a[1]) * s, a[2] + (b[2] - a[2]) * s)


def _with(layout: Layout, player: int, index: int, delta: int) -> Layout:
    rows = [list(layout[0]), list(layout[1])]
    rows[player][index] += delta
    if rows[player][index] < 0:
        raise ClipError(f"no checker of player {player} at index {index} to move")
    return (tuple(rows[0]), tuple(rows[1]))


def _own_index(point: int) -> int:
    """Mover-numbered point (25 bar, 0 off) -> layout index."""
    return BAR if point == 25 else (OFF if point == 0 else point - 1)


def _opp_index(point: int) -> int:
    """The opponent's layout index of the mover's point 1..24."""
    return 24 - point


# --- illegal plays ---------------------------------------------------------------------------

Moves = list[tuple[int, int]]


def _apply(layout: Layout, mover: int, moves: Moves) -> tuple[Layout, list[bool]] | None:
    """Move checkers as given (no rules; a single opposing checker is hit). None when a
    source is empty."""
    hits = []
    for src, dst in moves:
        si = _own_index(src)
        if layout[mover][si] == 0:
            return None
        layout = _with(layout, mover, si, -1)
        hit = False
        if dst != 0:
            layout = _with(layout, mover, dst - 1, +1)
            oi = _opp_index(dst)
            if layout[1 - mover][oi] == 1:
                layout = _with(_with(layout, 1 - mover, oi, -1), 1 - mover, BAR, +1)
                hit = True
        else:
            layout = _with(layout, mover, OFF, +1)
        hits.append(hit)
    return layout, hits


def layout_position(layout: Layout, turn: int) -> Position | None:
    """The position of a layout (per player 26 counts: own points 1..24, bar, off;
    also the ``checkers`` of a ``frames.jsonl`` row), or ``None`` when it is no
    well-formed position."""
    try:
        return Position((tuple(layout[0][:25]), tuple(layout[1][:25])), turn)
    except (PositionError, TypeError, IndexError):
        return None


def _open(layout: Layout, mover: int, point: int) -> bool:
    return 1 <= point <= 24 and layout[1 - mover][_opp_index(point)] < 2


def illegal_play(kind: str, before: Position, dice: tuple[int, int], real: Moves) -> Moves | None:
    """Moves of an illegal play of ``kind`` from ``before`` (mover on roll), or None
    when this turn offers no such play."""
    mover = before.turn
    lay = layout_of(before)
    own = lay[mover]
    results = legal_plays(before, dice)  # legal results and the plays reaching them
    on_bar = own[BAR] > 0
    sources = [p for p in range(24, 0, -1) if own[p - 1] > 0]
    options: list[Moves] = []
    if kind == "wrong_distance":
        for i, (src, dst) in enumerate(real):
            if src == 25 or dst == 0:
                continue
            for delta in (1, -1):
                dst2 = dst - delta
                if 1 <= dst2 < src and _open(lay, mover, dst2):
                    options.append([*real[:i], (src, dst2), *real[i + 1 :]])
    elif kind == "blocked_point":
        for src in ([25] if on_bar else []) + sources:
            for d in set(dice):
                dst = src - d
                if 1 <= dst <= 24 and lay[1 - mover][_opp_index(dst)] >= 2:
                    options.append([(src, dst)])
    elif kind == "bar_not_first" and on_bar:
        for src in sources:
            for d in set(dice):
                if _open(lay, mover, src - d):
                    options.append([(src, src - d)])
    elif kind == "early_bear_off":
        outside = on_bar or any(own[i] for i in range(6, 24))
        if outside:
            for src in range(1, 7):
                if own[src - 1] and max(dice) >= src:
                    options.append([(src, 0)])
    elif kind == "smaller_die":
        small, large = sorted(dice)
        most = max((len(p) for plays in results.values() for p in plays), default=0)
        if small != large and most == 1:
            for src in [25] if on_bar else sources:
                dst = src - small
                if _open(lay, mover, dst):
                    options.append([(src, dst)])
    elif kind == "unplayed_die" and len(real) >= 2:
        options.append(real[:-1])
    for moves in options:
        done = _apply(lay, mover, moves)
        if done is None:
            continue
        after = layout_position(done[0], mover)
        if after is None or after not in results or kind == "blocked_point":
            return moves
    return None


def _suggestions(
    before: Position, dice: tuple[int, int], after: Position | None
) -> tuple[FlagSuggestion, ...]:
    """The closest legal plays, as a referee would suggest them."""
    if after is None:
        return ()
    found = infer_play(before, dice, after)
    return tuple(
        FlagSuggestion(play=str(s.plays[0].mat_text()), after=s.position.position_id())
        for s in found.nearest
        if s.plays
    )


def play_text(moves: Moves, hits: Sequence[bool]) -> str:
    return " ".join(f"{s}/{d}{'*' if h else ''}" for (s, d), h in zip(moves, hits, strict=True))


# --- the director ---------------------------------------------------------------------------


class Director:
    """Builds frames and events; one method per physical action."""

    def __init__(
        self, setup: ClipSetup, fps: float, rng: np.random.Generator, profile: RuleProfile
    ) -> None:
        self.setup = setup
        self.fps = fps
        self.rng = rng
        self.profile = profile
        self.frames: list[Frame] = []
        self.events: list[Event] = []
        self.faults: list[dict[str, Any]] = []
        self.layout: Layout = layout_of(Position.initial())
        self.first = 0
        self.dice: tuple[Die, ...] = ()
        self.cube: Cube | None = None
        self.hand_at: dict[int, tuple[float, float, float] | None] = {0: None, 1: None}
        self.carried: tuple[Checker, ...] = ()
        self.carried_cube = False
        self.phase = "idle"
        self._flags = 0
        #: dice of a premature roll that stood: the next turn starts with them down
        self.pre_rolled: tuple[Die, ...] | None = None

    # -- bookkeeping ------------------------------------------------------------------------
    def n(self, seconds: float) -> int:
        return max(1, round(seconds * self.fps))

    def emit(self) -> None:
        hands = tuple(self._hand(p, at) for p, at in self.hand_at.items() if at is not None)
        self.frames.append(
            Frame(self.layout, self.first, self.carried, self.dice, self.cube, hands, self.phase)
        )

    def hold(self, seconds: float, phase: str | None = None) -> None:
        if phase:
            self.phase = phase
        for _ in range(self.n(seconds)):
            self.emit()

    def stamp(self, source: Source = "camera") -> dict[str, Any]:
        """``t``, ``frame`` and ``source`` of an event at the last frame drawn."""
        frame = max(0, len(self.frames) - 1)
        return {"t": round(frame / self.fps, 3), "frame": frame, "source": source}

    def event(self, cls: type[Event], source: Source = "camera", **fields: Any) -> Event:
        """A ground-truth event at the last frame drawn."""
        ev = cls(seq=len(self.events), **self.stamp(source), **fields)
        self.events.append(ev)
        return ev

    def fault(self, kind: str, event: Event | None, **info: Any) -> None:
        """Note an injected fault and the ground-truth event that marks it (None for
        what no event marks, such as a move taken back: at the frame drawn last)."""
        if event is None:
            mark = {**self.stamp(), "seq": None, "event": None}
            del mark["source"]
        else:
            mark = {"frame": event.frame, "t": event.t, "seq": event.seq, "event": event.TYPE}
        self.faults.append({"kind": kind, **mark, **info})

    # -- geometry ---------------------------------------------------------------------------
    def seat_sign(self, player: int) -> float:
        return -1.0 if player == self.setup.bottom else 1.0

    def right_sign(self, player: int) -> float:
        return 1.0 if player == self.setup.bottom else -1.0

    def _hand(self, player: int, at: tuple[float, float, float]) -> Hand:
        g, s = self.setup.geometry, self.seat_sign(player)
        start = (at[0] * 0.4, s * (g.y_max + 38.0), 24.0)
        return Hand(
            start,
            at,
            self.setup.skins[player],
            self.setup.sleeves[player],
            self.setup.hand_width,
            0.3,
            0.0,
        )

    def rest(self, player: int) -> tuple[float, float, float]:
        g = self.setup.geometry
        return (
            self.right_sign(player) * g.field_width * 0.4,
            self.seat_sign(player) * (g.y_max + 14),
            12.0,
        )

    def reach(
        self, player: int, to: tuple[float, float, float], seconds: float, phase: str
    ) -> None:
        """Move the player's hand (bringing it in from his seat if absent); whatever
        it carries follows."""
        self.phase = phase
        frm = self.hand_at[player] or self.rest(player)
        k = self.n(seconds)
        for i in range(1, k + 1):
            s = _ease(i / k)
            pos = _lerp3(frm, to, s)
            lift = 3.0 * math.sin(math.pi * s) if self.carried or self.carried_cube else 0.0
            pos = (pos[0], pos[1], pos[2] + lift)
            self.hand_at[player] = pos
            self._follow(pos)
            self.emit()

    def retract(self, player: int, seconds: float = 0.35) -> None:
        if self.hand_at[player] is None:
            return
        self.reach(player, self.rest(player), seconds, self.phase)
        self.hand_at[player] = None
        self.phase = "idle"

    def _follow(self, pos: tuple[float, float, float]) -> None:
        if self.carried:
            c = self.carried[0]
            self.carried = (replace(c, x=pos[0], y=pos[1], z=max(pos[2] - 2.2, 0.5)),)
        if self.carried_cube and self.cube is not None:
            self.cube = replace(self.cube, centre=(pos[0], pos[1], max(pos[2] - 1.5, 1.5)))

    def _checkers(self, layout: Layout) -> list[Checker]:
        return layout_checkers(self.setup, layout, self.first, self.cube)

    def _top(self, layout: Layout, player: int, index: int) -> Checker:
        """The checker a hand picks from ``player``'s layout ``index`` (the last placed)."""
        where, point = (
            ("bar", None) if index == BAR else (("off", None) if index == OFF else ("point", None))
        )
        if where == "point":
            point = index + 1 if player == self.setup.bottom else 24 - index
        found = [
            c
            for c in self._checkers(layout)
            if c.owner == player and c.where == where and (point is None or c.point == point)
        ]
        if not found:
            raise ClipError(f"no checker of player {player} at index {index}")
        return found[-1]

    # -- checkers ---------------------------------------------------------------------------
    def carry(self, player: int, owner: int, src: int, dst: int) -> None:
        """A hand moves one of ``owner``'s checkers from layout index ``src`` to ``dst``."""
        c = self._top(self.layout, owner, src)
        self.reach(player, (c.x, c.y, c.z + c.height + 2.2), 0.3, "moving")
        self.layout = _with(self.layout, owner, src, -1)
        self.carried = (replace(c, where="hand", point=None),)
        target = self._top(_with(self.layout, owner, dst, +1), owner, dst)
        self.reach(player, (target.x, target.y, target.z + target.height + 2.2), 0.4, "moving")
        self.carried = ()
        self.layout = _with(self.layout, owner, dst, +1)
        self.emit()

    def play_moves(self, player: int, moves: Moves) -> list[bool]:
        """The mover's hand makes ``moves`` (mover numbering); blots hit go to the bar."""
        hits = []
        for src, dst in moves:
            si, di = _own_index(src), _own_index(dst)
            self.first = 1 - player  # a blot lies at the rail, the hitter lands on it
            self.carry(player, player, si, di)
            hit = dst != 0 and self.layout[1 - player][_opp_index(dst)] == 1
            if hit:
                self.carry(player, 1 - player, _opp_index(dst), BAR)
            hits.append(hit)
        return hits

    def undo_moves(self, player: int, moves: Moves, hits: Sequence[bool]) -> None:
        """Take ``moves`` back, last first, returning hit checkers from the bar."""
        for (src, dst), hit in reversed(list(zip(moves, hits, strict=True))):
            if hit:
                self.carry(player, 1 - player, BAR, _opp_index(dst))
            self.carry(player, player, _own_index(dst), _own_index(src))

    # -- dice -------------------------------------------------------------------------------
    def roll(
        self,
        player: int,
        values: tuple[int, int],
        fault: str | None = None,
        extra: Sequence[Die] = (),
    ) -> tuple[Die, ...]:
        """The player rolls: a hand over his right half, dice tumbling in, settling."""
        g = self.setup.geometry
        lean = None
        if fault == "cocked":
            lean = ("checker", "rail", "bar", "die")[int(self.rng.integers(4))]
        checkers = self._checkers(self.layout)
        final = place_dice(
            self.rng,
            g,
            checkers,
            player,
            self.right_sign(player),
            fault,
            lean,
            values=values,
            look=self.setup.dice_looks[player],
        )
        thrown = (
            self.right_sign(player) * g.field_width * 0.55,
            self.seat_sign(player) * g.field_depth * 0.35,
            9.0,
        )
        self.reach(player, thrown, 0.3, "rolling")
        self.hand_at[player] = None
        self.tumble(player, tuple(final), list(extra))
        self.hold(0.6, "settled")
        return tuple(final)

    def tumble(self, player: int, final: tuple[Die, ...], keep: list[Die]) -> None:
        k = self.n(0.7)
        starts = []
        for d in final:
            sx = d.centre[0] + float(self.rng.normal(0, 3))
            sy = self.seat_sign(player) * self.setup.geometry.field_depth * 0.4
            starts.append((sx, sy))
        for i in range(1, k + 1):
            s = i / k
            dice = []
            for d, (sx, sy) in zip(final, starts, strict=True):
                if i == k:
                    dice.append(d)
                    continue
                e = 1 - (1 - s) ** 2
                x = sx + (d.centre[0] - sx) * e
                y = sy + (d.centre[1] - sy) * e
                z = d.centre[2] + abs(math.sin(3 * math.pi * s)) * 4.0 * (1 - s)
                axis = self.rng.normal(0, 1, 3)
                rot = rot_axis(axis, float(self.rng.uniform(0, math.pi))) @ rot_z(
                    float(self.rng.uniform(0, 6.3))
                )
                dice.append(replace(d, centre=(x, y, z), rotation=_mat(rot)))
            self.dice = (*keep, *dice)
            self.emit()

    def lift_dice(self, player: int, which: Sequence[Die] | None = None) -> None:
        """The player's hand picks up his dice (``which``, default all he owns)."""
        mine = [d for d in self.dice if d.owner == player] if which is None else list(which)
        if not mine:
            return
        cx = sum(d.centre[0] for d in mine) / len(mine)
        cy = sum(d.centre[1] for d in mine) / len(mine)
        self.reach(player, (cx, cy, 3.5), 0.3, "lifting")
        self.dice = tuple(d for d in self.dice if all(d is not m for m in mine))
        self.emit()
        self.retract(player)

    # -- the cube ---------------------------------------------------------------------------
    def cube_to(self, player: int, place: str, value: int) -> None:
        if self.cube is None:
            return
        taken = spots_of(self._checkers(self.layout), self.dice)
        target = place_cube(
            np.random.default_rng([self.setup.cube_seed, len(self.frames)]),
            self.setup.geometry,
            self.setup.bottom,
            place,
            value,
            taken,
        )
        c = self.cube
        self.reach(player, (c.centre[0], c.centre[1], c.centre[2] + c.size), 0.3, "cube")
        self.carried_cube = True
        self.reach(
            player, (target.centre[0], target.centre[1], target.centre[2] + c.size), 0.45, "cube"
        )
        self.carried_cube = False
        self.cube = replace(target, size=c.size, body=c.body, ink=c.ink)
        self.emit()
        self.retract(player)

    def new_cube(self, present: bool) -> None:
        if not present:
            self.cube = None
            return
        rng = np.random.default_rng([self.setup.cube_seed, 0])
        self.cube = place_cube(rng, self.setup.geometry, self.setup.bottom, "centre", 64)

    # -- flags ------------------------------------------------------------------------------
    def flag_id(self, game: int) -> str:
        self._flags += 1
        return f"g{game}-{self._flags}"


def dice_values(dice: Sequence[Die]) -> tuple[int, int]:
    return (dice[0].value, dice[1].value)


# --- the match --------------------------------------------------------------------------------


@dataclass
class ClipScript:
    frames: list[Frame]
    events: list[Event]
    faults: list[dict[str, Any]]
    setup: ClipSetup
    fps: float
    games: tuple[int, ...]
    #: kinds of an ``every_kind`` plan that found no turn to happen in
    not_injected: tuple[str, ...] = ()

    def die_half(self, die: Die) -> str | None:
        """Where a die lies, seen from the bottom seat: ``"left"`` / ``"right"`` half,
        ``"bar"``, or ``None`` off the board."""
        if die.off_board:
            return None
        x = die.centre[0]
        if abs(x) < self.setup.geometry.bar_width / 2:
            return "bar"
        return "right" if x > 0 else "left"

    def frame_truth(self, index: int) -> dict[str, Any]:
        """What a perfect reader would say of frame ``index``: the phase, how many
        hands are over the table, the checkers at rest (per player 26 counts: own
        points 1..24, bar, borne off), checkers in the air, the dice at rest (none
        while they tumble; ``half`` as in :meth:`die_half`) and the cube."""
        f = self.frames[index]
        settled_dice = () if f.phase == "rolling" else f.dice
        return {
            "frame": index,
            "t": round(index / self.fps, 3),
            "phase": f.phase,
            "hands": len(f.hands),
            "checkers": [list(f.layout[0]), list(f.layout[1])],
            "in_air": len(f.carried),
            "dice": [
                {
                    "value": d.value,
                    "owner": d.owner,
                    "cocked": d.cocked,
                    "on_checker": d.on_checker,
                    "off_board": d.off_board,
                    "half": self.die_half(d),
                    "at": [round(float(d.centre[0]), 2), round(float(d.centre[1]), 2)],
                }
                for d in settled_dice
            ],
            "cube": None if f.cube is None else {"value": f.cube.value, "place": f.cube.place},
        }


def _real_moves(entry: ReplayEntry) -> Moves:
    return [(w.src, w.dst) for w in parse_play_text(entry.play)]


def direct_match(
    replay: Replay,
    games: Sequence[int],
    setup: ClipSetup,
    plan: FaultPlan,
    fps: float,
    rng: np.random.Generator,
    players: tuple[str, str] = ("player 0", "player 1"),
) -> ClipScript:
    """The clip of ``games`` (1-based numbers) of a replayed match."""
    d = Director(setup, fps, rng, replay.profile)
    record = replay.record
    d.event(
        MatchStartEvent,
        source="observer",
        schema_version=SCHEMA_VERSION,
        match_length=record.match_length,
        players=record.players or players,
        profile=replay.profile.name,
        tags=record.tags,
    )
    ends = {state.game_number: state for state in replay.game_ends}
    pending = set(plan.rates) if plan.every_kind else set()
    by_game: dict[int, list[ReplayEntry]] = {}
    for e in replay.entries:
        by_game.setdefault(e.game, []).append(e)
    missing = [g for g in games if g not in by_game]
    if missing:
        raise ClipError(f"the match has games 1..{max(by_game, default=0)}; no game {missing[0]}")

    def wants(kind: str) -> bool:
        rate = plan.rates.get(kind, 0.0)
        if rate <= 0:
            return False
        if kind in pending:
            return True  # an every-kind plan takes a kind's first chance
        return bool(rng.random() < rate)

    def done(kind: str) -> None:
        pending.discard(kind)

    for game in games:
        entries = by_game[game]
        first = entries[0]
        state = first.state
        d.hold(0.8, "reset")
        d.layout = layout_of(Position.initial())
        d.new_cube(replay.profile.cube and not state.is_crawford_game)
        d.hand_at = {0: None, 1: None}
        d.dice = ()
        d.hold(0.6, "idle")
        d.event(
            GameStartEvent,
            game=game,
            score=state.score,
            crawford=state.is_crawford_game,
            first_player=None,
        )
        d.pre_rolled = None
        for idx, entry in enumerate(entries):
            nxt = entries[idx + 1] if idx + 1 < len(entries) else None
            if entry.kind == "roll" and entry.dice is not None:
                _turn(d, game, entry, nxt, idx == 0, wants, done)
            elif entry.kind == "double":
                value = 2 * entry.state.cube_value
                d.cube_to(entry.player, "offered", value)
                d.event(DoubleEvent, player=entry.player, value=value)
                d.hold(1.5, "cube")  # the hands are off the table while the taker thinks
            elif entry.kind == "take":
                value = entry.state.offered_cube or 2 * entry.state.cube_value
                d.cube_to(entry.player, f"player{entry.player}", value)
                d.event(TakeEvent, player=entry.player, value=value)
            elif entry.kind == "drop":
                d.cube_to(entry.player, "centre", 64)
                d.event(DropEvent, player=entry.player)
        end = ends.get(game)
        last = end.last_result if end is not None else None
        if last is not None:
            d.hold(0.5)
            if last.reason == "resign":
                d.event(
                    ResignEvent, source="observer", player=1 - last.winner, level=last.multiplier
                )
                d.event(ResignAcceptEvent, source="observer", player=last.winner)
            d.event(
                GameEndEvent,
                game=game,
                winner=last.winner,
                points=last.points,
                multiplier=last.multiplier,
                cube=last.cube_value,
                reason=last.reason,
            )
            if end is not None and end.phase is Phase.MATCH_OVER:
                d.event(MatchEndEvent, winner=last.winner, score=end.score)
        for p in (0, 1):
            d.lift_dice(p)
    d.hold(0.5, "idle")
    missing_kinds = tuple(sorted(pending)) if plan.every_kind else ()
    return ClipScript(d.frames, d.events, d.faults, setup, fps, tuple(games), missing_kinds)


def _turn(
    d: Director,
    game: int,
    entry: ReplayEntry,
    nxt: ReplayEntry | None,
    opening: bool,
    wants: Any,
    done: Any,
) -> None:
    player = entry.player
    if entry.dice is None:
        return
    dice = entry.dice
    before = entry.state.position
    if opening and dice[0] != dice[1]:
        # one die each, in each player's right half [000 r8]; the higher starts
        high, low = max(dice), min(dice)
        mine = d.roll(player, (high, high))[:1]
        theirs = d.roll(1 - player, (low, low), extra=mine)[:1]
        d.dice = (*mine, *theirs)
        d.dice = tuple(replace(x, owner=player) for x in d.dice)
        d.hold(0.3)
        d.event(OpeningRollEvent, dice=(high, low) if player == 0 else (low, high))
    elif d.pre_rolled is not None:
        d.pre_rolled = None  # a premature roll that stood: the dice are already down
    else:
        _roll_with_faults(d, game, player, dice, wants, done)
        d.event(RollEvent, player=player, dice=dice)
    if entry.after is None:
        return
    real = _real_moves(entry)
    if real and wants("takeback"):
        src, dst = real[0]
        hits = d.play_moves(player, [(src, dst)])
        d.retract(player)
        d.hold(0.5, "settled")
        d.undo_moves(player, [(src, dst)], hits)
        d.fault("takeback", None, player=player, play=play_text([(src, dst)], hits))
        done("takeback")
    illegal = None
    for kind in TRY_ORDER:
        if wants(kind):
            moves = illegal_play(kind, before, dice, real)
            if moves is not None:
                illegal = (kind, moves)
                done(kind)
                break
    if illegal is not None:
        kind, moves = illegal
        hits = d.play_moves(player, moves)
        d.retract(player)
        d.hold(0.6, "settled")
        d.lift_dice(player)
        after_layout = d.layout
        after_pos = layout_position(after_layout, player)
        text = play_text(moves, hits)
        after_id = after_pos.position_id() if after_pos is not None else before.position_id()
        d.event(
            MoveEvent,
            player=player,
            dice=dice,
            play=text,
            before=before.position_id(),
            after=after_id,
            legal=False,
        )
        fid = d.flag_id(game)
        flag = d.event(
            FlagEvent,
            flag_id=fid,
            kind="illegal_play",
            player=player,
            message=f"{text} is not a legal play of {dice[0]}{dice[1]} ({kind.replace('_', ' ')})",
            rule=ILLEGAL_KINDS[kind],
            suggestions=_suggestions(before, dice, after_pos),
            note=kind,
        )
        d.fault(kind, flag, flag_id=fid, player=player, play=text)
        d.hold(1.0, "idle")
        d.undo_moves(player, moves, hits)
        hits = d.play_moves(player, real)
        d.retract(player)
        d.hold(0.4, "settled")
        d.event(FlagClearedEvent, flag_id=fid, how="corrected")
        _move_event(d, entry)
        return
    d.play_moves(player, real)
    d.retract(player)
    d.hold(0.5, "settled")
    premature = (
        nxt is not None
        and nxt.kind == "roll"
        and nxt.player != player
        and nxt.dice is not None
        and wants("premature")
    )
    if premature and nxt is not None and nxt.dice is not None:
        other = nxt.player
        stands = d.profile.premature_roll_stands
        values = nxt.dice if stands else (int(d.rng.integers(1, 7)), int(d.rng.integers(1, 7)))
        mine = tuple(x for x in d.dice if x.owner == player)
        theirs = d.roll(other, values, extra=mine)
        _move_event(d, entry)
        if stands:
            ev = d.event(
                RollEvent,
                player=other,
                dice=values,
                note="rolled before the opponent finished: stands [001 4.1(v)(a)]",
            )
            d.lift_dice(player, mine)
            d.pre_rolled = theirs
        else:
            ev = d.event(RollInvalidEvent, player=other, dice=values, reasons=("premature",))
            d.lift_dice(player, mine)
            d.lift_dice(other)
        d.fault("premature", ev, player=other, stands=stands)
        done("premature")
        return
    d.lift_dice(player)
    _move_event(d, entry)


def _move_event(d: Director, entry: ReplayEntry) -> None:
    """The transcript's play of ``entry``, as made on the board."""
    d.events.append(entry.move_event(len(d.events), **d.stamp()))


def _roll_with_faults(
    d: Director, game: int, player: int, dice: tuple[int, int], wants: Any, done: Any
) -> None:
    g = d.setup.geometry
    reachable = any(
        c.where == "point" and d.right_sign(player) * c.x > g.bar_width
        for c in d._checkers(d.layout)
    )
    for kind in ("cocked", "wrong_half", "on_checker"):
        if kind == "on_checker" and not reachable:
            continue
        if wants(kind):
            values = (int(d.rng.integers(1, 7)), int(d.rng.integers(1, 7)))
            shown = d.roll(player, values, fault=kind)
            reason = kind
            if kind == "wrong_half" and d.profile.dice_half == "same":
                reason = "different_halves"
            ev = d.event(
                RollInvalidEvent, player=player, dice=dice_values(shown), reasons=(reason,)
            )
            d.fault(kind, ev, player=player)
            d.hold(0.6)
            d.lift_dice(player)
            done(kind)
            break
    d.roll(player, dice)
