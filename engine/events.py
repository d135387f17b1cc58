"""The JSON event log (``events.jsonl``): one JSON object per line, lossless.

A ``.mat`` transcript keeps only what GNU Backgammon can replay. The event log keeps
everything the referee saw and decided: invalid rolls and why, flags with the rule
broken and the suggested plays, how each flag was cleared, corrections, illegal plays
the players let stand, timestamps and frame references. ``docs/event-log.md``
describes the format with an example.

Every event is a frozen dataclass with ``seq`` (0-based, strictly increasing in a
log), optional ``t`` (seconds), ``frame`` (a frame number or name), ``source``
(``camera``, ``observer``, ``transcript``) and ``note``, plus its own fields. The
field types are the single source of truth: the same annotations drive the checks
in :func:`loads_event` and generate :data:`EVENT_LOG_SCHEMA` (JSON Schema, draft
2020-12), so the two cannot disagree (``engine/_annotated.py`` reads them).

>>> event = RollEvent(seq=3, player=1, dice=(6, 4), t=12.5)
>>> line = dumps_event(event)
>>> line
'{"type":"roll","seq":3,"t":12.5,"player":1,"dice":[6,4]}'
>>> loads_event(line) == event
True
>>> try:
...     loads_event('{"type":"roll","seq":3,"player":1,"dice":[6,7]}', line=9)
... except EventLogError as e:
...     print(e)
line 9: roll: field 'dice[1]': expected an integer 1..6, got 7
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Literal

from ._annotated import MAX_DEPTH as MAX_DEPTH
from ._annotated import (
    BadValue,
    check_fields,
    is_required,
    object_schema,
    short_text,
    to_json,
)
from ._annotated import Doc as Doc
from ._annotated import Pattern as Pattern
from ._annotated import Range as Range

#: Version of the event log format; written in every ``match_start`` event.
SCHEMA_VERSION = 1

SCHEMA_ID = f"urn:gammoneye:event-log:{SCHEMA_VERSION}"


class EventLogError(ValueError):
    """An event or a log line that is not what the format says.

    ``line`` is the line number in the log (None outside a log), ``field`` the
    field at fault (None when the line as a whole is wrong).
    """

    def __init__(self, message: str, *, line: int | None = None, field: str | None = None) -> None:
        super().__init__(f"line {line}: {message}" if line is not None else message)
        self.message = message
        self.line = line
        self.field = field


@dataclass(frozen=True, slots=True)
class EventLogProblem:
    """A line :func:`read_event_log` could not read, and why."""

    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


# --- the vocabulary of field types -----------------------------------------------------


Player = Annotated[int, Range(0, 1)]
Die = Annotated[int, Range(1, 6)]
Dice = tuple[Die, Die]
Count = Annotated[int, Range(0)]
Score = tuple[Count, Count]
CubeValue = Annotated[int, Range(1)]
#: A GNU Backgammon Position ID: 14 characters of base64.
PositionId = Annotated[
    str, Pattern(r"^[A-Za-z0-9+/]{14}$", "a GNU Position ID (14 base64 characters)")
]
#: A play in GNU Backgammon's numbers (``25/22 6/0 13/7*``); empty for none.
PlayText = Annotated[
    str,
    Pattern(
        r"^(?:[0-9]{1,2}/[0-9]{1,2}\*?(?: [0-9]{1,2}/[0-9]{1,2}\*?)*)?$",
        "a play in gnubg's numbers ('25/22 6/0 13/7*') or ''",
    ),
]
Source = Literal["camera", "observer", "transcript"]
RollFault = Literal[
    "cocked", "wrong_half", "different_halves", "on_checker", "off_board", "premature"
]
FlagKind = Literal["illegal_play", "illegal_double", "invalid_roll", "other"]
ClearedHow = Literal["corrected", "accepted", "dismissed"]
GameEndReason = Literal["bearoff", "drop", "resign"]
JSONObject = dict[str, Any]


# --- the events ------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class EventBase:
    """What every event has; the concrete events below add their own fields."""

    TYPE: ClassVar[str] = ""

    seq: Annotated[Count, Doc("position in the log: 0-based, strictly increasing")]
    t: Annotated[float | None, Doc("seconds (wall clock or video time)")] = None
    frame: Annotated[str | int | None, Doc("the frame the event was read from")] = None
    source: Annotated[Source | None, Doc("who reported it")] = None
    note: Annotated[str | None, Doc("free text")] = None

    def __post_init__(self) -> None:
        if not self.TYPE:
            raise TypeError("EventBase is abstract: make one of the EVENT_TYPES")
        _check_fields(self, self.TYPE)

    def to_dict(self) -> dict[str, Any]:
        """The event as a JSON object: ``type`` first, optional fields left out while
        they are None.

        >>> DropEvent(seq=7, player=0).to_dict()
        {'type': 'drop', 'seq': 7, 'player': 0}
        """
        out: dict[str, Any] = {"type": self.TYPE}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if value is None and f.default is None:
                continue
            out[f.name] = to_json(value)
        if "note" in out:  # the free text reads best last
            out["note"] = out.pop("note")
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Event:
        """The event a JSON object describes; on :class:`EventBase` any event type.

        Raises :class:`EventLogError` naming the field for an unknown type, a missing
        or unknown field, or a value of the wrong type or range.

        >>> EventBase.from_dict({"type": "take", "seq": 4, "player": 1, "value": 2})
        TakeEvent(seq=4, t=None, frame=None, source=None, note=None, player=1, value=2)
        """
        if not isinstance(data, Mapping):
            raise EventLogError(f"an event is a JSON object, got {short_text(data)}")
        kind = data.get("type")
        if not isinstance(kind, str):
            raise EventLogError(
                f"missing field 'type' (one of {sorted(EVENT_TYPES)})", field="type"
            )
        event_cls = EVENT_TYPES.get(kind)
        if event_cls is None:
            raise EventLogError(
                f"unknown event type {kind!r}; expected one of {sorted(EVENT_TYPES)}", field="type"
            )
        if cls is not EventBase and event_cls is not cls:
            raise EventLogError(f"expected type {cls.TYPE!r}, got {kind!r}", field="type")
        fields = {f.name: f for f in dataclasses.fields(event_cls)}
        for name in data:
            if name != "type" and name not in fields:
                raise EventLogError(f"{kind}: unknown field {name!r}", field=name)
        kwargs: dict[str, Any] = {}
        for name, f in fields.items():
            if name in data:
                kwargs[name] = data[name]
            elif is_required(f):
                raise EventLogError(f"{kind}: missing field {name!r}", field=name)
        return event_cls(**kwargs)


def _check_fields(obj: EventBase | FlagSuggestion, what: str) -> None:
    """Check the fields of the event or suggestion ``obj`` (``what``, for the message)
    against their types and store the converted values (lists become tuples)."""
    values = {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)}
    try:
        checked = check_fields(type(obj), values)
    except BadValue as e:
        raise EventLogError(f"{what}: field {e.where!r}: {e.message}", field=e.where) from None
    for name, value in checked.items():
        if value is not values[name]:
            object.__setattr__(obj, name, value)


@dataclass(frozen=True, kw_only=True)
class MatchStartEvent(EventBase):
    """A match begins: who plays, to how many points, under which rule profile."""

    TYPE: ClassVar[str] = "match_start"
    schema_version: Annotated[
        int, Range(1, SCHEMA_VERSION), Doc("version of this format (SCHEMA_VERSION)")
    ]
    match_length: Annotated[Count, Doc("points to win; 0 = unlimited")]
    players: Annotated[tuple[str, str], Doc("player 0 (left column of a .mat), player 1")]
    profile: Annotated[str, Doc("rule profile name (RULES.md section 9), e.g. 'wbf'")]
    tags: Annotated[tuple[tuple[str, str], ...], Doc("header tags [name, value] as in a .mat")] = ()


@dataclass(frozen=True, kw_only=True)
class GameStartEvent(EventBase):
    """A game begins at a score; ``first_player`` is known when no opening roll decides."""

    TYPE: ClassVar[str] = "game_start"
    game: Annotated[int, Range(1), Doc("game number, from 1")]
    score: Annotated[Score, Doc("points of player 0 and player 1 before the game")]
    crawford: Annotated[bool, Doc("this is the Crawford game")]
    first_player: Annotated[
        Player | None, Doc("who moves first; null when an opening roll decides")
    ]


@dataclass(frozen=True, kw_only=True)
class OpeningRollEvent(EventBase):
    """The opening roll: player 0's die and player 1's die [000 r8]."""

    TYPE: ClassVar[str] = "opening_roll"
    dice: Annotated[Dice, Doc("[player 0's die, player 1's die]")]


@dataclass(frozen=True, kw_only=True)
class RollEvent(EventBase):
    """A valid roll."""

    TYPE: ClassVar[str] = "roll"
    player: Annotated[Player, Doc("who rolled")]
    dice: Annotated[Dice, Doc("the two dice")]


@dataclass(frozen=True, kw_only=True)
class RollInvalidEvent(EventBase):
    """A roll that must be repeated, with every reason seen [001 4.1(iv), 000 r9]."""

    TYPE: ClassVar[str] = "roll_invalid"
    player: Annotated[Player, Doc("who rolled")]
    dice: Annotated[Dice | None, Doc("the dice as read, null when unreadable")]
    reasons: Annotated[tuple[RollFault, ...], Doc("why the roll is invalid")]


@dataclass(frozen=True, kw_only=True)
class MoveEvent(EventBase):
    """A completed turn: the play and the positions before and after it.

    Both Position IDs are written with the mover on roll (as GNU Backgammon encodes
    a position before and after the mover's play).
    """

    TYPE: ClassVar[str] = "move"
    player: Annotated[Player, Doc("who moved")]
    dice: Annotated[Dice, Doc("the roll played")]
    play: Annotated[PlayText, Doc("gnubg's text of the play ('25/22 6/0 13/7*'), '' for none")]
    before: Annotated[PositionId, Doc("Position ID before the play, mover on roll")]
    after: Annotated[PositionId, Doc("Position ID after the play, still with the mover on roll")]
    legal: Annotated[bool, Doc("whether the play is legal for the roll")]


@dataclass(frozen=True, kw_only=True)
class DoubleEvent(EventBase):
    """A double; ``requested_value`` when the cube was turned to a wrong level [001 4.4(vi)]."""

    TYPE: ClassVar[str] = "double"
    player: Annotated[Player, Doc("who doubled")]
    value: Annotated[CubeValue, Doc("the cube value offered (the proper next level)")]
    requested_value: Annotated[
        CubeValue | None, Doc("the level the cube was turned to, if wrong")
    ] = None


@dataclass(frozen=True, kw_only=True)
class TakeEvent(EventBase):
    """A double taken: the taker owns the cube at ``value``."""

    TYPE: ClassVar[str] = "take"
    player: Annotated[Player, Doc("who took")]
    value: Annotated[CubeValue, Doc("the cube value now")]


@dataclass(frozen=True, kw_only=True)
class DropEvent(EventBase):
    """A double dropped (passed): the game ends [001 4.4(iii)]."""

    TYPE: ClassVar[str] = "drop"
    player: Annotated[Player, Doc("who dropped")]


@dataclass(frozen=True, kw_only=True)
class ResignEvent(EventBase):
    """An offer to resign a single game (1), a gammon (2) or a backgammon (3) [001 4.5]."""

    TYPE: ClassVar[str] = "resign"
    player: Annotated[Player, Doc("who offers to resign")]
    level: Annotated[int, Range(1, 3), Doc("1 single game, 2 gammon, 3 backgammon")]


@dataclass(frozen=True, kw_only=True)
class ResignAcceptEvent(EventBase):
    """The resignation is accepted."""

    TYPE: ClassVar[str] = "resign_accept"
    player: Annotated[Player, Doc("who accepts")]


@dataclass(frozen=True, kw_only=True)
class ResignRejectEvent(EventBase):
    """The resignation is refused; play goes on."""

    TYPE: ClassVar[str] = "resign_reject"
    player: Annotated[Player, Doc("who refuses")]


@dataclass(frozen=True, kw_only=True)
class GameEndEvent(EventBase):
    """A game is over: ``points`` = ``multiplier`` x ``cube``."""

    TYPE: ClassVar[str] = "game_end"
    game: Annotated[int, Range(1), Doc("game number")]
    winner: Annotated[Player, Doc("who won")]
    points: Annotated[Count, Doc("points won")]
    multiplier: Annotated[int, Range(1, 3), Doc("1 single, 2 gammon, 3 backgammon")]
    cube: Annotated[CubeValue, Doc("cube value at the end")]
    reason: Annotated[GameEndReason, Doc("how the game ended")]

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.points != self.multiplier * self.cube:  # a rule the schema cannot say
            raise EventLogError(
                f"{self.TYPE}: field 'points': expected multiplier x cube = {self.multiplier}"
                f" x {self.cube} = {self.multiplier * self.cube}, got {self.points}",
                field="points",
            )


@dataclass(frozen=True, kw_only=True)
class MatchEndEvent(EventBase):
    """The match is over."""

    TYPE: ClassVar[str] = "match_end"
    winner: Annotated[Player, Doc("who won the match")]
    score: Annotated[Score, Doc("final score of player 0 and player 1")]


@dataclass(frozen=True, slots=True)
class FlagSuggestion:
    """A legal play the referee proposes instead of an illegal one."""

    play: Annotated[PlayText, Doc("gnubg's text of the play")]
    after: Annotated[PositionId, Doc("Position ID after it, mover on roll")]

    def __post_init__(self) -> None:
        _check_fields(self, "suggestion")


@dataclass(frozen=True, kw_only=True)
class FlagEvent(EventBase):
    """The referee raises a flag: something the players should look at."""

    TYPE: ClassVar[str] = "flag"
    flag_id: Annotated[str, Doc("names the flag in flag_cleared and accepted_illegal events")]
    kind: Annotated[FlagKind, Doc("what is wrong")]
    player: Annotated[Player | None, Doc("whose action it is, null if nobody's")]
    message: Annotated[str, Doc("for people")]
    rule: Annotated[str, Doc("the RULES.md tag broken, e.g. '000 r13'; '' if none")]
    suggestions: Annotated[tuple[FlagSuggestion, ...], Doc("closest legal plays, best first")] = ()


@dataclass(frozen=True, kw_only=True)
class FlagClearedEvent(EventBase):
    """A flag is settled."""

    TYPE: ClassVar[str] = "flag_cleared"
    flag_id: Annotated[str, Doc("the flag")]
    how: Annotated[ClearedHow, Doc("corrected on the board, accepted as is, or dismissed")]


@dataclass(frozen=True, kw_only=True)
class CorrectionEvent(EventBase):
    """The observer corrects something; ``data`` says what, ``target_seq`` which event."""

    TYPE: ClassVar[str] = "correction"
    data: Annotated[JSONObject, Doc("what was corrected (free JSON object)")]
    target_seq: Annotated[Count | None, Doc("seq of the event corrected, null if none")]


@dataclass(frozen=True, kw_only=True)
class AcceptedIllegalEvent(EventBase):
    """An illegal play that stands: the opponent rolled before it was corrected
    [001 4.2(iii)(a)]."""

    TYPE: ClassVar[str] = "accepted_illegal"
    player: Annotated[Player, Doc("who made the play")]
    play: Annotated[PlayText, Doc("gnubg's text of the play as made, '' if unknown")]
    before: Annotated[PositionId, Doc("Position ID before, mover on roll")]
    after: Annotated[PositionId, Doc("Position ID after, mover on roll")]
    flag_id: Annotated[str, Doc("the flag raised for it")]


Event = (
    MatchStartEvent
    | GameStartEvent
    | OpeningRollEvent
    | RollEvent
    | RollInvalidEvent
    | MoveEvent
    | DoubleEvent
    | TakeEvent
    | DropEvent
    | ResignEvent
    | ResignAcceptEvent
    | ResignRejectEvent
    | GameEndEvent
    | MatchEndEvent
    | FlagEvent
    | FlagClearedEvent
    | CorrectionEvent
    | AcceptedIllegalEvent
)

#: Every event class by its ``type``.
EVENT_TYPES: dict[str, type[Event]] = {
    cls.TYPE: cls
    for cls in (
        MatchStartEvent,
        GameStartEvent,
        OpeningRollEvent,
        RollEvent,
        RollInvalidEvent,
        MoveEvent,
        DoubleEvent,
        TakeEvent,
        DropEvent,
        ResignEvent,
        ResignAcceptEvent,
        ResignRejectEvent,
        GameEndEvent,
        MatchEndEvent,
        FlagEvent,
        FlagClearedEvent,
        CorrectionEvent,
        AcceptedIllegalEvent,
    )
}


# --- reading and writing lines ---------------------------------------------------------


def withdrawn_seqs(events: Sequence[Event]) -> set[int]:
    """The seqs of events an observer took back: a ``correction`` whose ``data`` has
    ``withdraws: [seq, ...]`` (an undo, or a play replaced by the one really made).
    Withdrawn events stay in the log, which is append-only; whoever rebuilds the match
    from it (the referee on resume, the ``.mat`` writer) skips them."""
    out: set[int] = set()
    for event in events:
        if isinstance(event, CorrectionEvent):
            seqs = event.data.get("withdraws")
            if isinstance(seqs, list):
                out.update(s for s in seqs if isinstance(s, int) and s < event.seq)
    return out


def dumps_event(event: Event) -> str:
    """One log line (compact JSON, no newline).

    >>> dumps_event(GameStartEvent(seq=1, game=1, score=(0, 0), crawford=False,
    ...                            first_player=None))
    '{"type":"game_start","seq":1,"game":1,"score":[0,0],"crawford":false,"first_player":null}'
    """
    return json.dumps(event.to_dict(), separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def loads_event(text: str, *, line: int | None = None) -> Event:
    """The event on one log line; ``line`` numbers the errors.

    >>> loads_event('{"type": "drop", "seq": 8, "player": 0}')
    DropEvent(seq=8, t=None, frame=None, source=None, note=None, player=0)
    >>> try:
    ...     loads_event('{"type": "drop", "seq": 8}', line=4)
    ... except EventLogError as e:
    ...     print(e, e.field)
    line 4: drop: missing field 'player' player
    """
    try:
        data = json.loads(text, parse_constant=_reject_constant)
    except ValueError as e:
        raise EventLogError(f"not JSON ({e}): {_excerpt(text)}", line=line) from None
    except RecursionError:  # far deeper than MAX_DEPTH: Python's json recurses
        raise EventLogError(
            f"nested too deep (more than {MAX_DEPTH} levels): {_excerpt(text)}", line=line
        ) from None
    try:
        return EventBase.from_dict(data)
    except EventLogError as e:
        raise EventLogError(e.message, line=line, field=e.field) from None


def _excerpt(text: str) -> str:
    return repr(text if len(text) <= 60 else text[:57] + "...")


def read_event_log(text: str, *, strict: bool = False) -> tuple[list[Event], list[EventLogProblem]]:
    """Every event of a log, and the problems: lines that are not events, ``seq`` not
    increasing, a ``schema_version`` this reader does not know.

    Blank lines are skipped. Lenient: a bad line is reported and left out. With
    ``strict=True`` the first problem raises :class:`EventLogError`.

    >>> log = '{"type":"roll","seq":0,"player":0,"dice":[3,1]}\\n{"type":"roll","seq":0}\\n'
    >>> events, problems = read_event_log(log)
    >>> len(events), [str(p) for p in problems]
    (1, ["line 2: roll: missing field 'player'"])
    """
    events: list[Event] = []
    problems: list[EventLogProblem] = []

    def problem(number: int, message: str) -> None:
        if strict:
            raise EventLogError(message, line=number)
        problems.append(EventLogProblem(number, message))

    last_seq: int | None = None
    for number, raw in enumerate(text.removeprefix("\ufeff").split("\n"), start=1):
        line = raw.strip()
        if not line:
            continue
        try:
            event = loads_event(line, line=number)
        except EventLogError as e:
            problem(number, e.message)
            continue
        if last_seq is not None and event.seq <= last_seq:
            problem(number, f"seq {event.seq} does not follow {last_seq}: seq must increase")
            continue
        last_seq = event.seq
        events.append(event)
    return events, problems


# --- the JSON Schema ---------------------------------------------------------------------


def _event_schema(cls: type[Event]) -> dict[str, Any]:
    schema = object_schema(cls, {"type": {"const": cls.TYPE}})
    doc = " ".join((cls.__doc__ or "").split())
    return {"description": doc, **schema}


def _build_schema() -> dict[str, Any]:
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "GammonEye event log line",
        "description": (
            "One line of a GammonEye events.jsonl log: a JSON object whose 'type' "
            f"names the event. Format version {SCHEMA_VERSION} (schema_version in "
            "match_start)."
        ),
        "type": "object",
        "required": ["type", "seq"],
        "properties": {"type": {"enum": sorted(EVENT_TYPES)}},
        "allOf": [
            {
                "if": {"properties": {"type": {"const": name}}},
                "then": {"$ref": f"#/$defs/{name}"},
            }
            for name in sorted(EVENT_TYPES)
        ],
        "$defs": {name: _event_schema(cls) for name, cls in sorted(EVENT_TYPES.items())},
    }


#: JSON Schema (draft 2020-12) for one line of the log, generated from the dataclasses.
EVENT_LOG_SCHEMA: dict[str, Any] = _build_schema()


def schema_json() -> str:
    """:data:`EVENT_LOG_SCHEMA` as the text committed in ``engine/event_log.schema.json``."""
    return json.dumps(EVENT_LOG_SCHEMA, indent=2, ensure_ascii=False) + "\n"
