"""Legal plays: every distinct position a roll can produce, and the plays reaching it.

The rules are those of ``RULES.md`` §3: each die is a separate move and one checker
may use both [000 r10a]; doubles are played four times [000 r11]; as many dice as
possible must be used and, when only one of two different dice can be used, the
larger one if it can be [000 r12, 004]; a checker may not land on — nor stop in
passing on — a point held by two or more opposing checkers [000 r13]; landing on a
single opposing checker hits it [000 r14]; checkers on the bar enter first
[000 r10b, r15]; bearing off needs all checkers home, a die may bear off from a
lower point only when no checker stands higher [000 r16].

Points are numbered from the mover's side: 1..24, ``25`` is the bar and ``0`` is off.
Result positions keep the mover on roll (the board exactly as the mover leaves it,
the way GNU Backgammon encodes them); :meth:`Position.swapped_turn` hands the turn over.

>>> from gammoneye.engine.position import Position
>>> start = Position.initial(turn=1)
>>> len(legal_positions(start, (3, 1)))
16
>>> after = play_result(start, (6, 5), '24/13')  # XG's notation for one checker
>>> [str(p) for p in legal_plays(start, (6, 5))[after]]  # 19 is blocked: only via 18
['24/18 18/13']
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from .position import BAR, CHECKERS, Position

_trusted = Position._trusted

#: Point number of the bar and of "borne off" in move notation.
BAR_POINT = 25
OFF_POINT = 0


class IllegalPlayError(ValueError):
    """A play that the rules do not allow (or text that names no play) in a position."""


class Move(NamedTuple):
    """One checker moving one die's distance (``src`` 25 = bar, ``dst`` 0 = off)."""

    src: int
    dst: int
    hit: bool = False

    def __str__(self) -> str:
        src = "bar" if self.src == BAR_POINT else str(self.src)
        dst = "off" if self.dst == OFF_POINT else str(self.dst)
        return f"{src}/{dst}{'*' if self.hit else ''}"


def _move_order(move: Move) -> tuple[int, int]:
    return (-move.src, -move.dst)


@dataclass(frozen=True, slots=True)
class Play:
    """The moves of one turn, in canonical order (highest source first).

    That order is always a valid order to execute them in. ``str`` gives the
    notation players read (``bar/22 6/off``); :meth:`mat_text` the one GNU
    Backgammon's ``.mat`` files use (``25/22 6/0``), one move per die.
    """

    moves: tuple[Move, ...]

    @classmethod
    def of(cls, moves: Iterable[Move | tuple[int, int, bool]]) -> Play:
        return cls(tuple(sorted((Move(*m) for m in moves), key=_move_order)))

    def __str__(self) -> str:
        return " ".join(str(m) for m in self.moves)

    def mat_text(self) -> str:
        return " ".join(f"{m.src}/{m.dst}{'*' if m.hit else ''}" for m in self.moves)

    def __len__(self) -> int:
        return len(self.moves)


def _check_dice(dice: Sequence[int]) -> tuple[int, int]:
    if len(dice) != 2:
        raise ValueError(f"a roll is two dice, got {list(dice)!r}")
    d1, d2 = int(dice[0]), int(dice[1])
    if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
        raise ValueError(f"dice must be 1..6, got {d1}-{d2}")
    return d1, d2


# A raw result: the mover's 26 slots (0 = off, 1..24, 25 = bar) and a bit mask of the
# mover-numbered points where an opposing blot was hit.
_Key = tuple[tuple[int, ...], int]
_Path = tuple[tuple[int, int, bool], ...]


def _search(
    m: list[int], o: list[int], dice: Sequence[int], canonical: bool, want_paths: bool
) -> tuple[int, dict[_Key, list[_Path]]]:
    """Depth-first search over the dice in the given order.

    ``m`` is the mover's board (mutated and restored), ``o[i]`` the opposing
    checkers on the mover's point ``i``. With ``canonical`` (doubles) moves are made
    in non-increasing source order, which reaches every distinct result once per
    multiset of moves instead of once per permutation. Returns the greatest number
    of dice used and the results using that many.
    """
    n = len(dice)
    results: dict[_Key, list[_Path]] = {}
    best = 0
    path: list[tuple[int, int, bool]] = []

    def record(depth: int, hits: int) -> None:
        nonlocal best, results
        if depth < best:
            return
        if depth > best:
            best = depth
            results = {}
        key = (tuple(m), hits)
        if want_paths:
            results.setdefault(key, []).append(tuple(path))
        elif key not in results:
            results[key] = []

    last = n - 1

    def rec(k: int, maxsrc: int, hits: int, outside: int) -> None:
        d = dice[k]
        moved = False
        sources: Iterable[int]
        if m[25]:
            sources = (25,)  # the bar first [000 r10b, r15]; it enters on 25 - d
        else:
            top = maxsrc if canonical and maxsrc < 24 else 24
            if not outside and top > 6:
                top = 6
            sources = range(top, 0, -1)
        for src in sources:
            if not m[src]:
                continue
            dst = src - d
            if dst > 0:
                c = o[dst]
                if c >= 2:
                    continue
                moved = True
                m[src] -= 1
                m[dst] += 1
                hit = c == 1
                path.append((src, dst, hit))
                h = hits | (1 << dst) if hit else hits
                if k == last:
                    record(n, h)
                else:
                    if hit:
                        o[dst] = 0
                    rec(
                        k + 1,
                        src if canonical else 25,
                        h,
                        outside - 1 if (src > 6 >= dst) else outside,
                    )
                    if hit:
                        o[dst] = 1
                path.pop()
                m[dst] -= 1
                m[src] += 1
            else:
                if outside:
                    continue
                if dst < 0:
                    # A larger die bears off only from the highest occupied point.
                    higher = False
                    for q in range(src + 1, 7):
                        if m[q]:
                            higher = True
                            break
                    if higher:
                        continue
                moved = True
                m[src] -= 1
                m[0] += 1
                path.append((src, 0, False))
                if k == last:
                    record(n, hits)
                else:
                    rec(k + 1, src if canonical else 25, hits, outside)
                path.pop()
                m[0] -= 1
                m[src] += 1
        if not moved:
            record(k, hits)

    rec(0, 25, 0, sum(m[7:26]))
    return best, results


def _raw_results(pos: Position, dice: Sequence[int], want_paths: bool) -> dict[_Key, list[_Path]]:
    d1, d2 = _check_dice(dice)
    mover = pos.boards[pos.turn]
    opp = pos.boards[1 - pos.turn]
    m = [CHECKERS - sum(mover), *mover[:24], mover[BAR]]
    o = [0, *opp[23::-1]]  # o[i] = opposing checkers on the mover's point i
    if d1 == d2:
        return _search(m, o, (d1, d1, d1, d1), True, want_paths)[1]
    hi, lo = (d1, d2) if d1 > d2 else (d2, d1)
    best_hi, res_hi = _search(m, o, (hi, lo), False, want_paths)
    if best_hi == 2:
        if m[25] == 0 and sum(m[7:25]) >= 2:
            # Two moves of different checkers commute here (nothing on the bar, and no
            # bear-off can become possible mid-turn), so the small-die-first order
            # adds only one checker's lo-then-hi trip through another point.
            _add_chains(m, o, lo, hi, res_hi, want_paths)
            return res_hi
        best_lo, res_lo = _search(m, o, (lo, hi), False, want_paths)
        if best_lo == 2:
            for key, paths in res_lo.items():
                if key in res_hi:
                    res_hi[key].extend(paths)
                else:
                    res_hi[key] = paths
        return res_hi
    best_lo, res_lo = _search(m, o, (lo, hi), False, want_paths)
    if best_lo == 2:
        return res_lo
    # At most one die can be used: the larger one if it can be [000 r12, 004].
    return res_hi if best_hi == 1 else res_lo


def _add_chains(
    m: list[int], o: list[int], lo: int, hi: int, results: dict[_Key, list[_Path]], want: bool
) -> None:
    """Add each checker's ``src/mid/dst`` trip that plays the small die first.

    Only called with two or more checkers outside the home board, so neither step
    can bear off.
    """
    for src in range(24, lo + hi, -1):
        if not m[src]:
            continue
        mid = src - lo
        dst = mid - hi
        c_mid = o[mid]
        c_dst = o[dst]
        if c_mid >= 2 or c_dst >= 2:
            continue
        hits = (1 << mid if c_mid else 0) | (1 << dst if c_dst else 0)
        m[src] -= 1
        m[dst] += 1
        key = (tuple(m), hits)
        m[dst] -= 1
        m[src] += 1
        path = ((src, mid, c_mid == 1), (mid, dst, c_dst == 1))
        if key in results:
            if want:
                results[key].append(path)
        else:
            results[key] = [path] if want else []


def _result_positions(pos: Position, keys: Iterable[_Key]) -> list[Position]:
    """Positions from raw results: the mover's slots 1..25 are its board as is."""
    turn = pos.turn
    opp_board = pos.boards[1 - turn]
    out = []
    for slots, hits in keys:
        mover_board = slots[1:]
        if hits:
            opp = list(opp_board)
            point = 1
            mask = hits >> 1
            while mask:
                if mask & 1:
                    opp[24 - point] = 0
                    opp[BAR] += 1
                mask >>= 1
                point += 1
            theirs = tuple(opp)
        else:
            theirs = opp_board
        if turn:
            out.append(_trusted(theirs, mover_board, 1))
        else:
            out.append(_trusted(mover_board, theirs, 0))
    return out


def legal_positions(pos: Position, dice: Sequence[int]) -> list[Position]:
    """Every distinct position a legal play of ``dice`` can leave (mover still on roll).

    When no checker can move, the single unchanged position.
    """
    return _result_positions(pos, _raw_results(pos, dice, False))


def legal_plays(pos: Position, dice: Sequence[int]) -> dict[Position, tuple[Play, ...]]:
    """Each distinct legal result with the distinct plays that reach it.

    When no checker can move the unchanged position maps to the empty play.
    """
    out: dict[Position, tuple[Play, ...]] = {}
    raw = _raw_results(pos, dice, True)
    make = Move._make
    for after, paths in zip(_result_positions(pos, raw), raw.values(), strict=True):
        # Raw moves sorted in reverse are in canonical order: source, then
        # destination, highest first.
        distinct = sorted({tuple(sorted(path, reverse=True)) for path in paths}, reverse=True)
        out[after] = tuple(Play(tuple(map(make, moves))) for moves in distinct)
    return out


def dice_used(plays: dict[Position, tuple[Play, ...]]) -> int:
    """How many dice the longest of ``plays`` (:func:`legal_plays`) moves: as many as
    a legal play must use [000 r10a].

    >>> dice_used(legal_plays(Position.initial(), (6, 6)))
    4
    """
    return max((len(p) for ps in plays.values() for p in ps), default=0)


# --- reading plays written as text ----------------------------------------------------

_POINT = r"(?:bar|off|\d{1,2})"
_TOKEN = re.compile(rf"^({_POINT}\*?(?:/{_POINT}\*?)+)(?:\((\d)\))?$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class WrittenMove:
    """A move as written: maybe several dice at once (XG's ``24/13``), maybe repeated."""

    src: int
    dst: int
    hits: tuple[int, ...]  # points marked with ``*`` (the landing point and any stop)
    stops: tuple[int, ...] = ()  # every point written, ``src`` to ``dst`` (24/18/13)


def parse_play_text(text: str) -> list[WrittenMove]:
    """Parse the notation of ``.mat`` files and of players: syntax only, no rules.

    Accepts GNU Backgammon's ``25/22 6/0 13/7*``, XG/Galaxy's ``bar/22 6/off``,
    ``24/18*/13`` (a checker stopping and hitting on the way) and ``13/7(2)``.

    >>> [(w.src, w.dst) for w in parse_play_text("bar/22 13/7(2) 6/off")]
    [(25, 22), (13, 7), (13, 7), (6, 0)]
    """
    moves: list[WrittenMove] = []
    for token in text.split():
        match = _TOKEN.match(token)
        if not match:
            raise IllegalPlayError(f"cannot read move {token!r} in {text!r}")
        parts = match.group(1).split("/")
        repeat = int(match.group(2) or 1)
        points: list[int] = []
        hits: list[int] = []
        for i, part in enumerate(parts):
            hit = part.endswith("*")
            name = part.rstrip("*").lower()
            if name == "bar":
                value = BAR_POINT
            elif name == "off":
                value = OFF_POINT
            else:
                value = int(name)
            if not 0 <= value <= 25:
                raise IllegalPlayError(f"no point {value} in move {token!r}")
            if i == 0 and value == OFF_POINT:
                raise IllegalPlayError(f"a move cannot start off the board: {token!r}")
            if i > 0 and value == BAR_POINT:
                raise IllegalPlayError(f"a move cannot end on the bar: {token!r}")
            if i > 0 and value >= points[-1]:
                raise IllegalPlayError(f"move {token!r} goes backwards")
            if hit:
                hits.append(value)
            points.append(value)
        for _ in range(repeat):
            moves.append(WrittenMove(points[0], points[-1], tuple(hits), tuple(points)))
    return moves


def _hit_points(before: Position, after: Position) -> frozenset[int]:
    """Mover-numbered points where an opposing checker was hit between two positions."""
    opp_before = before.boards[1 - before.turn]
    opp_after = after.boards[1 - after.turn]
    return frozenset(25 - (j + 1) for j in range(24) if opp_after[j] < opp_before[j])


def apply_written(pos: Position, written: Sequence[WrittenMove]) -> Position:
    """Move the checkers as written, without the rules (mover still on roll).

    Each move lifts a checker from its source and puts it on its destination,
    hitting a single opposing checker there. Raises :class:`IllegalPlayError` when
    a source has no checker left.
    """
    mover = list(pos.boards[pos.turn])
    opp = list(pos.boards[1 - pos.turn])
    for w in written:
        src = BAR if w.src == BAR_POINT else w.src - 1
        if mover[src] == 0:
            raise IllegalPlayError(f"no checker on {w.src}")
        mover[src] -= 1
        if w.dst != OFF_POINT:
            mover[w.dst - 1] += 1
            opp_index = 24 - w.dst  # the mover's point p is the opponent's 25 - p
            if opp[opp_index] == 1:
                opp[opp_index] = 0
                opp[BAR] += 1
    return Position.from_boards(mover, opp, pos.turn)


def play_result(pos: Position, dice: Sequence[int], text: str) -> Position:
    """The position after the written play, which must be legal for ``dice``.

    Raises :class:`IllegalPlayError` naming the play, the roll and the position
    when the text names no legal play.
    """
    return resolve_play(pos, dice, text)[0]


def resolve_play(
    pos: Position,
    dice: Sequence[int],
    text: str,
    plays: dict[Position, tuple[Play, ...]] | None = None,
) -> tuple[Position, Play]:
    """The result and the legal play that the written play denotes.

    ``plays``: ``legal_plays(pos, dice)`` when the caller has it already.
    """
    written = parse_play_text(text)
    if plays is None:
        plays = legal_plays(pos, dice)
    d1, d2 = _check_dice(dice)
    where = f"for {d1}{d2} in {pos.position_id()} (player {pos.turn} on roll)"
    # The written moves' net effect on the mover's checkers.
    try:
        target = apply_written(pos, written).boards[pos.turn]
    except IllegalPlayError as exc:
        raise IllegalPlayError(f"illegal play {text!r} {where}: {exc}") from None
    marked = frozenset(h for w in written for h in w.hits)
    candidates = [after for after in plays if after.boards[pos.turn] == target]
    if not candidates:
        used = max((len(p) for ps in plays.values() for p in ps), default=0)
        hint = (
            f"no legal play leaves that board ({len(plays)} legal results, each using "
            f"{used} {'die' if used == 1 else 'dice'})"
            if used
            else "no checker can move"
        )
        raise IllegalPlayError(f"illegal play {text!r} {where}: {hint}")
    if len(candidates) > 1:
        # The same checkers can end up alike by different stops, hitting different
        # blots. Written one die per move, the stops are in the text (Galaxy writes
        # hits unmarked); otherwise the '*' marks decide.
        legs = sorted((w.src, w.dst) for w in written)
        by_legs = [
            after
            for after in candidates
            if any(sorted((m.src, m.dst) for m in p.moves) == legs for p in plays[after])
        ]
        pool = by_legs if by_legs else candidates
        if len(pool) > 1:
            pool = [after for after in pool if _hit_points(pos, after) == marked]
        if len(pool) != 1:
            raise IllegalPlayError(
                f"ambiguous play {text!r} {where}: mark the hits with '*' to choose"
            )
        candidates = pool
    after = candidates[0]
    return after, _closest_written(plays[after], written)


def _closest_written(plays: tuple[Play, ...], written: list[WrittenMove]) -> Play:
    """Of equivalent plays, the one whose moves share most endpoints with the text."""
    ends = {(w.src, w.dst) for w in written}
    return max(plays, key=lambda p: sum((m.src, m.dst) in ends for m in p.moves))


# --- inference from observed positions -----------------------------------------------


@dataclass(frozen=True, slots=True)
class Suggestion:
    """A legal result near an observed position."""

    position: Position
    distance: int  # checkers out of place
    plays: tuple[Play, ...]


@dataclass(frozen=True, slots=True)
class PlayInference:
    """What :func:`infer_play` found: the plays (empty when illegal) and suggestions."""

    plays: tuple[Play, ...]
    nearest: tuple[Suggestion, ...]

    @property
    def is_legal(self) -> bool:
        return bool(self.plays)


def checkers_out_of_place(a: Position, b: Position) -> int:
    """How many checkers would have to move to turn ``a`` into ``b``.

    Counted per player over the 24 points, the bar and the borne-off tray; when
    the totals differ (a checker seen twice or missed) the larger side counts.
    """
    total = 0
    for p in (0, 1):
        more = less = 0
        for x, y in zip(a.boards[p], b.boards[p], strict=True):
            if y > x:
                more += y - x
            else:
                less += x - y
        off_a, off_b = a.off(p), b.off(p)
        if off_b > off_a:
            more += off_b - off_a
        else:
            less += off_a - off_b
        total += max(more, less)
    return total


def infer_play(
    before: Position, dice: Sequence[int], after: Position, *, suggestions: int = 3
) -> PlayInference:
    """The plays that turn ``before`` into ``after`` with ``dice``.

    ``after`` is compared by its checkers only (who is on roll does not matter).
    An empty ``plays`` means no legal play leads there; ``nearest`` then ranks the
    closest legal results, fewest checkers out of place first — what a referee
    shows as suggestions.
    """
    results = legal_plays(before, dice)
    seen = after.with_turn(before.turn)
    found = results.get(seen)
    if found is not None:
        return PlayInference(found, ())
    ranked = sorted(
        (
            Suggestion(pos, checkers_out_of_place(seen, pos), plays)
            for pos, plays in results.items()
        ),
        key=lambda s: (s.distance, s.position.position_id()),
    )
    return PlayInference((), tuple(ranked[:suggestions]))
