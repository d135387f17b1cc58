"""``gammoneye eval referee``: the referee's events against a clip's ground truth.

The two event logs are aligned, not compared line by line (a referee may see a roll
a frame later, or write an equivalent play differently):

- **plays**: each legal ``move`` of the truth is matched, in order, to one of ours
  with the same player, dice (in any order) and resulting position; a play is
  transcribed exactly when it is matched (the problems list the others, both ways);
- **cube actions**: ``double``/``take``/``drop`` by player, in order;
- **illegal-play flags**: a truth ``flag`` is found when we raised an
  ``illegal_play`` flag for the same player within ``FLAG_WINDOW`` seconds; its
  latency is our flag's time minus the truth's (the frame where the dice were
  lifted); one over ``LATE_FLAG_S`` is named among the problems. Recall by fault
  kind (the truth flag's ``note``), precision over all ours;
- **invalid rolls**: truth ``roll_invalid`` events against ours, by player and time;
  a false alarm is one of ours that matches none, counted against all valid rolls;
- **other flags** (``illegal_double``, ``other``): ours against the truth's of the same
  kind, by player and time; one of ours that matches none is a false flag, named
  among the problems (a die read as the cube offered in the Crawford game is a
  double flagged that no one made).

Our events withdrawn by a later ``correction`` (a play replaced, plays recorded
again) are left out, as the transcript leaves them out: the record is what is judged.
A flag of ours recorded again so (the same ``flag_id``, kept up meanwhile) dates from
when it first went up.
"""

from __future__ import annotations

import difflib
import statistics
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from gammoneye.engine.events import (
    DoubleEvent,
    DropEvent,
    Event,
    FlagEvent,
    GameEndEvent,
    MoveEvent,
    RollEvent,
    RollInvalidEvent,
    TakeEvent,
    withdrawn_seqs,
)

#: How far (seconds) our flag or invalid roll may be from the truth's and still match:
#: from a little before (the truth's frame may be the hand's, ours the settled one's)
#: to well after.
FLAG_WINDOW = (-1.0, 5.0)
#: A flag found later than this after the dice were lifted is named among the problems
#: (issue 5's bound on flag latency).
LATE_FLAG_S = 0.5


def _aligned(a: Sequence[Hashable], b: Sequence[Hashable]) -> int:
    matcher = difflib.SequenceMatcher(None, list(a), list(b), autojunk=False)
    return sum(block.size for block in matcher.get_matching_blocks())


def _play(e: MoveEvent) -> str:
    """A play as a problem line names it: player, dice and the play written."""
    return f"player {e.player} {max(e.dice)}{min(e.dice)} {e.play or 'no move'}"


def _move_key(e: MoveEvent) -> tuple[Any, ...]:
    return (e.player, tuple(sorted(e.dice)), e.after)


@dataclass
class RefereeScore:
    """How one run of the referee compares with the truth (counts add up over clips)."""

    plays: int = 0
    plays_right: int = 0
    plays_extra: int = 0
    cube: int = 0
    cube_right: int = 0
    game_ends: int = 0
    game_ends_right: int = 0
    flags: dict[str, int] = field(default_factory=dict)  # truth illegal plays by kind
    flags_found: dict[str, int] = field(default_factory=dict)
    our_flags: int = 0
    our_flags_true: int = 0
    invalid: dict[str, int] = field(default_factory=dict)  # truth invalid rolls by reason
    invalid_found: dict[str, int] = field(default_factory=dict)
    valid_rolls: int = 0
    false_invalid: int = 0
    other_flags: dict[str, int] = field(default_factory=dict)  # truth's, by kind
    other_flags_found: dict[str, int] = field(default_factory=dict)
    our_other_flags: dict[str, int] = field(default_factory=dict)
    false_other_flags: int = 0
    latencies: list[float] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def add(self, other: RefereeScore) -> None:
        """Add ``other``'s counts to these: numbers summed, per-kind counts summed by
        kind, lists joined."""
        for f in fields(self):
            mine, theirs = getattr(self, f.name), getattr(other, f.name)
            if isinstance(mine, dict):
                for k, v in theirs.items():
                    mine[k] = mine.get(k, 0) + v
            elif isinstance(mine, list):
                mine += theirs
            else:
                setattr(self, f.name, mine + theirs)

    # --- the figures -----------------------------------------------------------------------
    @staticmethod
    def _pct(n: int, d: int) -> float | None:
        return None if d == 0 else 100.0 * n / d

    def summary(self) -> str:
        """One clip's figures in a line: plays, cube actions, flags, invalid rolls."""
        return (
            f"plays {self.plays_right}/{self.plays}, cube {self.cube_right}/{self.cube}, "
            f"flags found {sum(self.flags_found.values())}/{sum(self.flags.values())} "
            f"(ours {self.our_flags}), invalid rolls "
            f"{sum(self.invalid_found.values())}/{sum(self.invalid.values())}, "
            f"false invalid {self.false_invalid}, other flags "
            f"{sum(self.other_flags_found.values())}/{sum(self.other_flags.values())} "
            f"(ours {sum(self.our_other_flags.values())}, false {self.false_other_flags})"
        )

    def figures(self) -> dict[str, Any]:
        lat = sorted(self.latencies)

        def q(p: float) -> float | None:
            if not lat:
                return None
            return lat[min(len(lat) - 1, round(p * (len(lat) - 1)))]

        return {
            "plays": self.plays,
            "plays_exact_pct": self._pct(self.plays_right, self.plays),
            "plays_extra": self.plays_extra,
            "cube_actions": self.cube,
            "cube_right_pct": self._pct(self.cube_right, self.cube),
            "game_ends_right_pct": self._pct(self.game_ends_right, self.game_ends),
            "illegal_plays": sum(self.flags.values()),
            "flag_recall_pct": self._pct(sum(self.flags_found.values()), sum(self.flags.values())),
            "flag_recall_by_kind": {
                k: f"{self.flags_found.get(k, 0)}/{n}" for k, n in sorted(self.flags.items())
            },
            "flag_precision_pct": self._pct(self.our_flags_true, self.our_flags),
            "our_flags": self.our_flags,
            "invalid_rolls": sum(self.invalid.values()),
            "invalid_recall_pct": self._pct(
                sum(self.invalid_found.values()), sum(self.invalid.values())
            ),
            "invalid_recall_by_reason": {
                k: f"{self.invalid_found.get(k, 0)}/{n}" for k, n in sorted(self.invalid.items())
            },
            "invalid_false_alarm_pct": self._pct(self.false_invalid, self.valid_rolls),
            "other_flags_by_kind": {
                k: f"{self.other_flags_found.get(k, 0)}/{self.other_flags.get(k, 0)}"
                f" (ours {self.our_other_flags.get(k, 0)})"
                for k in sorted(set(self.other_flags) | set(self.our_other_flags))
            },
            "other_flags_false": self.false_other_flags,
            "flag_latency_p50_s": q(0.5),
            "flag_latency_p95_s": q(0.95),
            "flag_latency_max_s": lat[-1] if lat else None,
            "flag_latency_mean_s": statistics.fmean(lat) if lat else None,
        }


def _matched_in_time(
    truth: Sequence[tuple[float, int, Any]], ours: Sequence[tuple[float, int, Any]]
) -> list[tuple[int, int]]:
    """Greedy one-to-one matching by player and time window: (truth index, our index)."""
    used: set[int] = set()
    pairs = []
    for i, (t, player, _) in enumerate(truth):
        best = None
        for j, (u, p, _) in enumerate(ours):
            if j in used or p != player:
                continue
            dt = u - t
            if FLAG_WINDOW[0] <= dt <= FLAG_WINDOW[1] and (best is None or abs(dt) < best[0]):
                best = (abs(dt), j)
        if best is not None:
            used.add(best[1])
            pairs.append((i, best[1]))
    return pairs


def compare_events(
    truth: Sequence[Event],
    ours: Sequence[Event],
    *,
    decided_at: Mapping[int, float] | None = None,
) -> RefereeScore:
    """Score our events against the truth's (see the module docstring).
    ``decided_at`` maps ``id(event)`` of ours to when it was decided (else its ``t``)."""
    score = RefereeScore()
    when = decided_at or {}
    # a flag recorded again (its play withdrawn and made again, the flag kept up under
    # its id) was raised when it first went up
    raised: dict[str, float] = {}
    for e in ours:
        if isinstance(e, FlagEvent):
            first = when.get(id(e), e.t or 0.0)
            raised[e.flag_id] = min(raised.get(e.flag_id, first), first)
    gone = withdrawn_seqs(ours)
    ours = [e for e in ours if e.seq not in gone]

    def at(e: Event) -> float:
        return when.get(id(e), e.t or 0.0)

    t_plays = [e for e in truth if isinstance(e, MoveEvent) and e.legal]
    o_plays = [e for e in ours if isinstance(e, MoveEvent) and e.legal]
    t_moves, o_moves = [_move_key(e) for e in t_plays], [_move_key(e) for e in o_plays]
    matcher = difflib.SequenceMatcher(None, t_moves, o_moves, autojunk=False)
    score.plays = len(t_moves)
    score.plays_right = sum(block.size for block in matcher.get_matching_blocks())
    score.plays_extra = max(0, len(o_moves) - score.plays_right)
    for tag, i0, i1, j0, j1 in matcher.get_opcodes():
        if tag == "equal":
            continue
        for e in t_plays[i0:i1]:
            score.problems.append(f"t={at(e):.1f}: play missed: {_play(e)}")
        for e in o_plays[j0:j1]:
            score.problems.append(f"t={at(e):.1f}: play not in the truth: {_play(e)}")

    cube_types = (DoubleEvent, TakeEvent, DropEvent)
    t_cube = [(e.TYPE, e.player) for e in truth if isinstance(e, cube_types)]
    o_cube = [(e.TYPE, e.player) for e in ours if isinstance(e, cube_types)]
    score.cube = len(t_cube)
    score.cube_right = _aligned(t_cube, o_cube)

    t_ends = [(e.game, e.winner, e.points) for e in truth if isinstance(e, GameEndEvent)]
    o_ends = [(e.game, e.winner, e.points) for e in ours if isinstance(e, GameEndEvent)]
    score.game_ends = len(t_ends)
    score.game_ends_right = _aligned(t_ends, o_ends)

    def flags(
        events: Sequence[Event], kind: str = "illegal_play", first: Mapping[str, float] = {}
    ) -> list[tuple[float, int, Any]]:
        return [
            (min(at(e), first.get(e.flag_id, at(e))), e.player if e.player is not None else -1, e)
            for e in events
            if isinstance(e, FlagEvent) and e.kind == kind
        ]

    def unmatched(
        pairs: list[tuple[int, int]],
        t_list: Sequence[tuple[float, int, Any]],
        o_list: Sequence[tuple[float, int, Any]],
        ours_text: str,
        missed_text: Any,
    ) -> None:
        """Name ours that match none of the truth's, then the truth's none of ours."""
        found_truth, found_ours = {a for a, _ in pairs}, {b for _, b in pairs}
        for j, (t, _who, e) in enumerate(o_list):
            if j not in found_ours:
                score.problems.append(f"t={t:.1f}: flag not in the truth{ours_text}: {e.message}")
        for i, (t, player, e) in enumerate(t_list):
            if i not in found_truth:
                score.problems.append(f"t={t:.1f}: {missed_text(e)} by {player}")

    t_flags, o_flags = flags(truth), flags(ours, first=raised)
    for _, _, e in t_flags:
        kind = e.note or "illegal_play"
        score.flags[kind] = score.flags.get(kind, 0) + 1
    pairs = _matched_in_time(t_flags, o_flags)
    for i, j in pairs:
        kind = t_flags[i][2].note or "illegal_play"
        score.flags_found[kind] = score.flags_found.get(kind, 0) + 1
        late = o_flags[j][0] - t_flags[i][0]
        score.latencies.append(late)
        if late > LATE_FLAG_S:
            message = o_flags[j][2].message
            score.problems.append(
                f"t={t_flags[i][0]:.1f}: flag late by {late:.2f} s ({kind}): {message}"
            )
    score.our_flags = len(o_flags)
    score.our_flags_true = len(pairs)
    unmatched(pairs, t_flags, o_flags, "", lambda e: f"missed illegal play ({e.note})")

    kinds = {e.kind for e in (*truth, *ours) if isinstance(e, FlagEvent)} - {"illegal_play"}
    for kind in sorted(kinds):
        t_other, o_other = flags(truth, kind), flags(ours, kind, raised)
        other_pairs = _matched_in_time(t_other, o_other)
        score.other_flags[kind] = len(t_other)
        score.other_flags_found[kind] = len(other_pairs)
        score.our_other_flags[kind] = len(o_other)
        score.false_other_flags += len(o_other) - len(other_pairs)
        unmatched(
            other_pairs, t_other, o_other, f" ({kind})", lambda e, k=kind: f"missed flag ({k})"
        )

    def invalid(events: Sequence[Event]) -> list[tuple[float, int, Any]]:
        return [(at(e), e.player, e) for e in events if isinstance(e, RollInvalidEvent)]

    t_inv, o_inv = invalid(truth), invalid(ours)
    for _, _, e in t_inv:
        for r in e.reasons:
            score.invalid[r] = score.invalid.get(r, 0) + 1
    inv_pairs = _matched_in_time(t_inv, o_inv)
    for i, _ in inv_pairs:
        for r in t_inv[i][2].reasons:
            score.invalid_found[r] = score.invalid_found.get(r, 0) + 1
    score.valid_rolls = sum(isinstance(e, RollEvent) for e in truth)
    matched_ours = {b for _, b in inv_pairs}
    score.false_invalid = len(o_inv) - len(matched_ours)
    for j, (t, _who, e) in enumerate(o_inv):
        if j not in matched_ours:
            why = f" ({e.note})" if e.note else ""
            score.problems.append(
                f"t={t:.1f}: invalid roll not in the truth: {list(e.reasons)}{why}"
            )
    matched_truth = {a for a, _ in inv_pairs}
    for i, (t, player, e) in enumerate(t_inv):
        if i not in matched_truth:
            score.problems.append(f"t={t:.1f}: missed invalid roll {list(e.reasons)} by {player}")
    return score
