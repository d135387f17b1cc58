"""The JSON event log: every event type round-trips, validates against the schema,
and bad lines are reported with their line number and field."""

from __future__ import annotations

import doctest
import json
import re
import types
from pathlib import Path
from types import EllipsisType
from typing import Annotated, Any, Literal, Union, get_args, get_origin

import jsonschema
import pytest
from hypothesis import given
from hypothesis import strategies as st

from gammoneye.engine import events
from gammoneye.engine._annotated import field_hints
from gammoneye.engine.events import (
    EVENT_LOG_SCHEMA,
    EVENT_TYPES,
    SCHEMA_VERSION,
    AcceptedIllegalEvent,
    CorrectionEvent,
    DoubleEvent,
    DropEvent,
    Event,
    EventBase,
    EventLogError,
    FlagClearedEvent,
    FlagEvent,
    FlagSuggestion,
    GameEndEvent,
    GameStartEvent,
    MatchEndEvent,
    MatchStartEvent,
    MoveEvent,
    OpeningRollEvent,
    Pattern,
    Range,
    ResignAcceptEvent,
    ResignEvent,
    ResignRejectEvent,
    RollEvent,
    RollInvalidEvent,
    TakeEvent,
    dumps_event,
    loads_event,
    read_event_log,
    schema_json,
)

REPO = Path(__file__).resolve().parents[1]
START = "4HPwATDgc/ABMA"  # the opening position, player 0 on roll
AFTER_31 = "4HPwATCwZ/ABMA"  # after 8/5 6/5, still player 0 on roll

VALIDATOR = jsonschema.Draft202012Validator(EVENT_LOG_SCHEMA)

# One event of each type, with the line dumps_event writes for it.
EXAMPLES: list[tuple[Event, str]] = [
    (
        MatchStartEvent(
            seq=0,
            t=0.0,
            source="observer",
            match_length=5,
            players=("alice", "bob"),
            profile="wbf",
            tags=(("Site", "Ulm"),),
            schema_version=1,
        ),
        '{"type":"match_start","seq":0,"t":0.0,"source":"observer","schema_version":1,'
        '"match_length":5,"players":["alice","bob"],"profile":"wbf","tags":[["Site","Ulm"]]}',
    ),
    (
        GameStartEvent(seq=1, game=1, score=(0, 0), crawford=False, first_player=None),
        '{"type":"game_start","seq":1,"game":1,"score":[0,0],"crawford":false,"first_player":null}',
    ),
    (
        OpeningRollEvent(seq=2, frame=162, source="camera", dice=(3, 1)),
        '{"type":"opening_roll","seq":2,"frame":162,"source":"camera","dice":[3,1]}',
    ),
    (
        RollEvent(seq=3, player=1, dice=(6, 4), frame="cam0/000481.jpg"),
        '{"type":"roll","seq":3,"frame":"cam0/000481.jpg","player":1,"dice":[6,4]}',
    ),
    (
        RollInvalidEvent(seq=4, player=0, dice=None, reasons=("cocked", "wrong_half")),
        '{"type":"roll_invalid","seq":4,"player":0,"dice":null,"reasons":["cocked","wrong_half"]}',
    ),
    (
        MoveEvent(
            seq=5, player=0, dice=(3, 1), play="8/5 6/5", before=START, after=AFTER_31, legal=True
        ),
        '{"type":"move","seq":5,"player":0,"dice":[3,1],"play":"8/5 6/5",'
        '"before":"4HPwATDgc/ABMA","after":"4HPwATCwZ/ABMA","legal":true}',
    ),
    (
        DoubleEvent(seq=6, player=1, value=2, requested_value=4),
        '{"type":"double","seq":6,"player":1,"value":2,"requested_value":4}',
    ),
    (TakeEvent(seq=7, player=0, value=2), '{"type":"take","seq":7,"player":0,"value":2}'),
    (
        DropEvent(seq=8, player=0, note="too strong"),
        '{"type":"drop","seq":8,"player":0,"note":"too strong"}',
    ),
    (ResignEvent(seq=9, player=1, level=2), '{"type":"resign","seq":9,"player":1,"level":2}'),
    (ResignAcceptEvent(seq=10, player=0), '{"type":"resign_accept","seq":10,"player":0}'),
    (ResignRejectEvent(seq=11, player=0), '{"type":"resign_reject","seq":11,"player":0}'),
    (
        GameEndEvent(seq=12, game=1, winner=1, points=4, multiplier=2, cube=2, reason="resign"),
        '{"type":"game_end","seq":12,"game":1,"winner":1,"points":4,"multiplier":2,"cube":2,'
        '"reason":"resign"}',
    ),
    (
        MatchEndEvent(seq=13, winner=1, score=(2, 5)),
        '{"type":"match_end","seq":13,"winner":1,"score":[2,5]}',
    ),
    (
        FlagEvent(
            seq=14,
            flag_id="g1-1",
            kind="illegal_play",
            player=0,
            message="13/7 is not a play of 52",
            rule="000 r10a",
            suggestions=(FlagSuggestion("13/11 11/6", "4HPhQSCwz+ABMA"),),
        ),
        '{"type":"flag","seq":14,"flag_id":"g1-1","kind":"illegal_play","player":0,'
        '"message":"13/7 is not a play of 52","rule":"000 r10a",'
        '"suggestions":[{"play":"13/11 11/6","after":"4HPhQSCwz+ABMA"}]}',
    ),
    (
        FlagClearedEvent(seq=15, flag_id="g1-1", how="accepted"),
        '{"type":"flag_cleared","seq":15,"flag_id":"g1-1","how":"accepted"}',
    ),
    (
        CorrectionEvent(seq=16, data={"dice": [6, 4], "why": None}, target_seq=3),
        '{"type":"correction","seq":16,"data":{"dice":[6,4],"why":null},"target_seq":3}',
    ),
    (
        AcceptedIllegalEvent(
            seq=17, player=0, play="13/7", before=START, after="4HPhQSCw1+ABMA", flag_id="g1-1"
        ),
        '{"type":"accepted_illegal","seq":17,"player":0,"play":"13/7",'
        '"before":"4HPwATDgc/ABMA","after":"4HPhQSCw1+ABMA","flag_id":"g1-1"}',
    ),
]


def test_doctests() -> None:
    assert doctest.testmod(events).failed == 0


def test_examples_cover_every_event_type() -> None:
    assert sorted(type(e).TYPE for e, _ in EXAMPLES) == sorted(EVENT_TYPES)


@pytest.mark.parametrize(("event", "line"), EXAMPLES, ids=[e.TYPE for e, _ in EXAMPLES])
def test_round_trip(event: Event, line: str) -> None:
    assert dumps_event(event) == line
    assert loads_event(line) == event
    assert EventBase.from_dict(event.to_dict()) == event
    assert type(event).from_dict(json.loads(line)) == event


@pytest.mark.parametrize(("event", "line"), EXAMPLES, ids=[e.TYPE for e, _ in EXAMPLES])
def test_examples_validate_against_the_schema(event: Event, line: str) -> None:
    VALIDATOR.validate(json.loads(line))


def test_schema_is_valid_draft_2020_12() -> None:
    jsonschema.Draft202012Validator.check_schema(EVENT_LOG_SCHEMA)
    assert EVENT_LOG_SCHEMA["$defs"]["match_start"]["properties"]["schema_version"]["maximum"] == (
        SCHEMA_VERSION
    )


def test_committed_schema_file_is_current() -> None:
    committed = (REPO / "engine" / "event_log.schema.json").read_text(encoding="utf-8")
    assert committed == schema_json(), (
        "engine/event_log.schema.json is stale: regenerate it with\n"
        '  python -c "from gammoneye.engine.events import schema_json; '
        "print(schema_json(), end='')\" > engine/event_log.schema.json"
    )


def test_optional_fields_are_left_out_and_null_reads_the_same() -> None:
    event = RollEvent(seq=1, player=0, dice=(1, 2))
    assert event.to_dict() == {"type": "roll", "seq": 1, "player": 0, "dice": [1, 2]}
    with_nulls = '{"type":"roll","seq":1,"t":null,"frame":null,"source":null,"note":null,' + (
        '"player":0,"dice":[1,2]}'
    )
    assert loads_event(with_nulls) == event
    VALIDATOR.validate(json.loads(with_nulls))
    # Fields with defaults other than None are always written.
    assert (
        "tags"
        in MatchStartEvent(
            seq=0, schema_version=1, match_length=1, players=("a", "b"), profile="wbf"
        ).to_dict()
    )


def test_construction_checks_and_normalises() -> None:
    event = RollInvalidEvent(seq=0, player=1, dice=[2, 3], reasons=["premature"])  # type: ignore[arg-type]
    assert event.dice == (2, 3)
    assert event.reasons == ("premature",)
    assert hash(event) == hash(
        RollInvalidEvent(seq=0, player=1, dice=(2, 3), reasons=("premature",))
    )
    with pytest.raises(
        EventLogError, match=r"roll: field 'player': expected an integer 0\.\.1, got 2"
    ) as info:
        RollEvent(seq=0, player=2, dice=(1, 1))
    assert info.value.field == "player"
    assert info.value.line is None
    with pytest.raises(EventLogError, match="suggestion: field 'after'") as info:
        FlagSuggestion("13/11 11/6", "nope")
    assert info.value.field == "after"
    with pytest.raises(TypeError, match="abstract"):
        EventBase(seq=0)


def test_game_end_points_are_multiplier_times_cube() -> None:
    with pytest.raises(
        EventLogError,
        match=r"game_end: field 'points': expected multiplier x cube = 1 x 2 = 2, got 5",
    ) as info:
        GameEndEvent(seq=1, game=1, winner=0, points=5, multiplier=1, cube=2, reason="drop")
    assert info.value.field == "points"
    ok = GameEndEvent(seq=1, game=1, winner=0, points=6, multiplier=3, cube=2, reason="bearoff")
    assert ok.points == 6


def test_suggestions_are_checked_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A suggestion read from JSON is checked by the flag's check alone, not again when
    the FlagSuggestion is made."""
    play_regex = get_args(field_hints(FlagSuggestion)["play"])[1].regex
    checked: list[str] = []
    fullmatch = re.fullmatch

    def spy(pattern: Any, string: Any, flags: Any = 0) -> Any:
        if pattern == play_regex:
            checked.append(string)
        return fullmatch(pattern, string, flags)

    monkeypatch.setattr(re, "fullmatch", spy)
    line = dumps_event(EXAMPLES[14][0])
    assert loads_event(line) == EXAMPLES[14][0]
    assert checked == ["13/11 11/6"]


# Too deep for Python's json (recursive): refused as "nested too deep", not RecursionError.
# At 990 levels json.loads may or may not cope (it depends on the stack in use): the field
# is named only where the line was read.
DEEP = 990
TOO_DEEP: list[tuple[str, str, str | EllipsisType | None]] = [
    ("brackets", "[" * 100_000, None),
    ("deep array", "[" * DEEP + "]" * DEEP, ...),
    (
        "correction data",
        '{"type":"correction","seq":1,"target_seq":null,"data":'
        + '{"a":' * DEEP
        + "1"
        + "}" * DEEP
        + "}",
        ...,
    ),
    ("array, 500 deep", "[" * 500 + "]" * 500, None),
    (
        "correction data, 500 deep",
        '{"type":"correction","seq":1,"target_seq":null,"data":'
        + '{"a":' * 500
        + "1"
        + "}" * 500
        + "}",
        "data",
    ),
    (
        "correction data, a list 500 deep",
        '{"type":"correction","seq":1,"target_seq":null,"data":' + "[" * 500 + "]" * 500 + "}",
        "data",
    ),
    ("note", '{"type":"drop","seq":1,"player":0,"note":' + "[" * 500 + "]" * 500 + "}", "note"),
]


@pytest.mark.parametrize(("name", "line", "field"), TOO_DEEP, ids=[r[0] for r in TOO_DEEP])
def test_too_deep_nesting_is_an_event_log_error(
    name: str, line: str, field: str | EllipsisType | None
) -> None:
    with pytest.raises(EventLogError, match="nested too deep") as info:
        loads_event(line, line=3)
    assert info.value.line == 3
    if field is not ...:
        assert info.value.field == field
    log = dumps_event(EXAMPLES[0][0]) + "\n" + line + "\n"
    found, problems = read_event_log(log)
    assert found == [EXAMPLES[0][0]]
    assert [p.line for p in problems] == [2]
    assert "nested too deep" in problems[0].message
    with pytest.raises(EventLogError, match="nested too deep") as info:
        read_event_log(log, strict=True)
    assert info.value.line == 2


def test_too_deep_data_is_refused_when_made() -> None:
    data: dict[str, Any] = {}
    for _ in range(DEEP):
        data = {"a": data}
    with pytest.raises(EventLogError, match="field 'data': nested too deep") as info:
        CorrectionEvent(seq=1, data=data, target_seq=None)
    assert info.value.field == "data"
    deep_list: list[Any] = []
    for _ in range(DEEP):
        deep_list = [deep_list]
    with pytest.raises(EventLogError, match="field 'player': expected an integer, got ") as info:
        DropEvent(seq=1, player=deep_list)  # type: ignore[arg-type]
    assert info.value.field == "player"


def test_nesting_up_to_the_limit_reads() -> None:
    data: dict[str, Any] = {}
    for _ in range(events.MAX_DEPTH - 1):
        data = {"a": data}
    event = CorrectionEvent(seq=1, data=data, target_seq=None)
    assert loads_event(dumps_event(event)) == event
    with pytest.raises(EventLogError, match="nested too deep"):
        CorrectionEvent(seq=1, data={"a": data}, target_seq=None)


# --- bad lines ---------------------------------------------------------------------------

MOVE = '"player":0,"dice":[3,1],"play":"8/5 6/5","before":"4HPwATDgc/ABMA","after":"4HPwATCwZ/ABMA"'

# (name, line, words in the message, field at fault; None for the line as a whole)
BAD_LINES = [
    ("not JSON", '{"type": "roll", ', "not JSON", None),
    ("not an object", "[1, 2]", "an event is a JSON object, got [1, 2]", None),
    ("NaN", '{"type":"roll","seq":1,"t":NaN,"player":0,"dice":[1,2]}', "NaN is not JSON", None),
    ("no type", '{"seq":1}', "missing field 'type'", "type"),
    ("unknown type", '{"type":"rol","seq":1}', "unknown event type 'rol'", "type"),
    ("missing field", '{"type":"roll","seq":1,"player":0}', "roll: missing field 'dice'", "dice"),
    ("missing seq", '{"type":"drop","player":0}', "drop: missing field 'seq'", "seq"),
    (
        "unknown field",
        '{"type":"drop","seq":1,"player":0,"colour":"red"}',
        "drop: unknown field 'colour'",
        "colour",
    ),
    (
        "die out of range",
        '{"type":"roll","seq":1,"player":0,"dice":[0,2]}',
        "field 'dice[0]': expected an integer 1..6, got 0",
        "dice[0]",
    ),
    (
        "three dice",
        '{"type":"roll","seq":1,"player":0,"dice":[1,2,3]}',
        "field 'dice': expected 2 items, got [1, 2, 3]",
        "dice",
    ),
    (
        "bool for int",
        '{"type":"drop","seq":1,"player":true}',
        "field 'player': expected an integer, got true",
        "player",
    ),
    (
        "string for int",
        '{"type":"drop","seq":"1","player":0}',
        "field 'seq': expected an integer, got \"1\"",
        "seq",
    ),
    (
        "negative seq",
        '{"type":"drop","seq":-1,"player":0}',
        "field 'seq': expected an integer >= 0, got -1",
        "seq",
    ),
    (
        "unknown roll fault",
        '{"type":"roll_invalid","seq":1,"player":0,"dice":null,"reasons":["wobbly"]}',
        "field 'reasons[0]': expected one of 'cocked'",
        "reasons[0]",
    ),
    (
        "unknown source",
        '{"type":"drop","seq":1,"player":0,"source":"drone"}',
        "field 'source': expected one of 'camera', 'observer', 'transcript'; got \"drone\" or null",
        "source",
    ),
    (
        "bad position id",
        '{"type":"move","seq":1,' + MOVE.replace("4HPwATCwZ/ABMA", "XGID=abc") + ',"legal":true}',
        "field 'after': expected a GNU Position ID",
        "after",
    ),
    (
        "play in XG notation",
        '{"type":"move","seq":1,' + MOVE.replace("8/5 6/5", "bar/22") + ',"legal":true}',
        "field 'play': expected a play in gnubg's numbers",
        "play",
    ),
    (
        "legal missing",
        '{"type":"move","seq":1,' + MOVE + "}",
        "move: missing field 'legal'",
        "legal",
    ),
    (
        "resign level 4",
        '{"type":"resign","seq":1,"player":0,"level":4}',
        "field 'level': expected an integer 1..3, got 4",
        "level",
    ),
    (
        "newer schema version",
        '{"type":"match_start","seq":0,"schema_version":2,"match_length":5,'
        '"players":["a","b"],"profile":"wbf"}',
        "field 'schema_version': expected an integer 1..1, got 2",
        "schema_version",
    ),
    (
        "suggestion without after",
        '{"type":"flag","seq":1,"flag_id":"f","kind":"other","player":null,"message":"m",'
        '"rule":"","suggestions":[{"play":"13/7"}]}',
        "field 'suggestions[0].after': missing",
        "suggestions[0].after",
    ),
    (
        "correction data not an object",
        '{"type":"correction","seq":1,"data":[1],"target_seq":null}',
        "field 'data': expected a JSON object",
        "data",
    ),
    (
        "infinite time",
        '{"type":"drop","seq":1,"player":0,"t":1e999}',
        "field 't': expected a finite number",
        "t",
    ),
    (
        "integer time too large for a float",
        '{"type":"roll","seq":1,"player":0,"dice":[6,4],"t":' + "9" * 400 + "}",
        "field 't': expected a finite number, got an integer too large for a float",
        "t",
    ),
    (
        "bad suggestion play",
        '{"type":"flag","seq":1,"flag_id":"f","kind":"other","player":null,"message":"m",'
        '"rule":"","suggestions":[{"play":"13/7","after":"4HPhQSCwz+ABMA"},'
        '{"play":"bar/7","after":"4HPhQSCwz+ABMA"}]}',
        "flag: field 'suggestions[1].play': expected a play in gnubg's numbers",
        "suggestions[1].play",
    ),
    (
        "game_end points not multiplier x cube",
        '{"type":"game_end","seq":1,"game":1,"winner":0,"points":5,"multiplier":1,"cube":2,'
        '"reason":"drop"}',
        "game_end: field 'points': expected multiplier x cube = 1 x 2 = 2, got 5",
        "points",
    ),
]

# Lines the reader refuses for what JSON Schema cannot say: numbers beyond a float
# (Python's json reads them; strict JSON has no NaN or infinity), a rule across fields.
BEYOND_THE_SCHEMA = {
    "NaN",
    "infinite time",
    "integer time too large for a float",
    "game_end points not multiplier x cube",
}


@pytest.mark.parametrize(
    ("name", "line", "words", "field"), BAD_LINES, ids=[r[0] for r in BAD_LINES]
)
def test_bad_line_names_the_line_and_field(
    name: str, line: str, words: str, field: str | None
) -> None:
    with pytest.raises(EventLogError) as info:
        loads_event(line, line=12)
    assert info.value.line == 12
    assert str(info.value).startswith("line 12: ")
    assert words in str(info.value)
    assert info.value.field == field


@pytest.mark.parametrize(
    ("name", "line", "words", "field"), BAD_LINES, ids=[r[0] for r in BAD_LINES]
)
def test_schema_rejects_what_the_reader_rejects(
    name: str, line: str, words: str, field: str | None
) -> None:
    try:
        data = json.loads(line)
    except ValueError:
        return  # not JSON at all: nothing for a schema to say
    if name in BEYOND_THE_SCHEMA:
        assert VALIDATOR.is_valid(data)  # the reader's own checks are the stricter
        return
    assert not VALIDATOR.is_valid(data)


def test_read_event_log_reports_line_numbers() -> None:
    log = "\n".join(
        [
            '{"type":"game_start","seq":0,"game":1,"score":[0,0],"crawford":false,"first_player":null}',
            "",
            '{"type":"roll","seq":1,"player":0,"dice":[3,1]}',
            '{"type":"roll","seq":2,"player":0,"dice":[3,9]}',
            "not json",
            '{"type":"roll","seq":1,"player":1,"dice":[6,4]}',
            '{"type":"drop","seq":5,"player":1}',
            "",
        ]
    )
    found, problems = read_event_log(log)
    assert [e.seq for e in found] == [0, 1, 5]
    assert [(p.line, p.message.split(":")[0]) for p in problems] == [
        (4, "roll"),
        (5, "not JSON (Expecting value"),
        (6, "seq 1 does not follow 1"),
    ]
    with pytest.raises(EventLogError) as info:
        read_event_log(log, strict=True)
    assert info.value.line == 4


def test_read_event_log_windows_line_endings_and_bom() -> None:
    log = "\ufeff" + "\r\n".join(line for _, line in EXAMPLES) + "\r\n"
    found, problems = read_event_log(log)
    assert problems == []
    assert found == [e for e, _ in EXAMPLES]


# --- the documentation's examples ---------------------------------------------------------


def doc_blocks() -> list[str]:
    text = (REPO / "docs" / "event-log.md").read_text(encoding="utf-8")
    return re.findall(r"```jsonl\n(.*?)```", text, re.S)


def test_documented_logs_read_and_validate() -> None:
    blocks = doc_blocks()
    assert len(blocks) == 2
    seen: set[str] = set()
    for block in blocks:
        found, problems = read_event_log(block)
        assert problems == []
        assert len(found) == block.count("\n")
        for line, event in zip(block.splitlines(), found, strict=True):
            VALIDATOR.validate(json.loads(line))
            assert dumps_event(event) == line  # the docs show exactly what we write
            seen.add(event.TYPE)
    assert seen == set(EVENT_TYPES)


def test_documented_game_is_consistent_with_the_engine() -> None:
    """The example's positions and plays are what the rules give (not made up)."""
    from gammoneye.engine.moves import resolve_play
    from gammoneye.engine.position import Position

    found, _ = read_event_log(doc_blocks()[0])
    for event in found:
        if isinstance(event, MoveEvent) and event.legal:
            before = Position.from_position_id(event.before, turn=event.player)
            after, play = resolve_play(before, event.dice, event.play)
            assert after.position_id() == event.after
            assert play.mat_text() == event.play


# --- property: any valid event survives dumps/loads -----------------------------------------

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)


def strategy_for(hint: Any) -> st.SearchStrategy[Any]:
    """Values of a field type, read from the same annotations the module checks."""
    origin = get_origin(hint)
    if origin is Annotated:
        base, *extras = get_args(hint)
        for extra in extras:
            if isinstance(extra, Range):
                high = extra.maximum if extra.maximum is not None else 10**9
                return st.integers(extra.minimum, high)
            if isinstance(extra, Pattern):
                return st.from_regex(extra.regex, fullmatch=True)
        return strategy_for(base)
    if origin is Union or origin is types.UnionType:
        return st.one_of([strategy_for(arg) for arg in get_args(hint)])
    if origin is Literal:
        return st.sampled_from(get_args(hint))
    if hint is type(None):
        return st.none()
    simple: dict[Any, st.SearchStrategy[Any]] = {
        bool: st.booleans(),
        int: st.integers(-(2**40), 2**40),
        float: st.floats(allow_nan=False, allow_infinity=False),
        str: st.text(max_size=12),
    }
    if hint in simple:
        return simple[hint]
    if origin is tuple:
        args = get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return st.lists(strategy_for(args[0]), max_size=4).map(tuple)
        return st.tuples(*(strategy_for(arg) for arg in args))
    if origin is dict:
        return st.dictionaries(st.text(max_size=6), JSON_VALUES, max_size=4)
    if hint is FlagSuggestion:
        return st.builds(
            FlagSuggestion,
            play=strategy_for(field_hints(FlagSuggestion)["play"]),
            after=strategy_for(field_hints(FlagSuggestion)["after"]),
        )
    raise TypeError(f"no strategy for {hint!r}")


def event_strategy(cls: type[Event]) -> st.SearchStrategy[Event]:
    hints = field_hints(cls)
    fields = {name: strategy_for(hints[name]) for name in hints if name != "TYPE"}
    if cls is GameEndEvent:  # a rule across fields: points = multiplier x cube
        return st.fixed_dictionaries(fields).map(
            lambda kw: cls(**{**kw, "points": kw["multiplier"] * kw["cube"]})
        )
    return st.builds(cls, **fields)


ANY_EVENT = st.sampled_from(sorted(EVENT_TYPES.values(), key=lambda c: c.TYPE)).flatmap(
    event_strategy
)


@given(ANY_EVENT)
def test_dumps_loads_round_trip(event: Event) -> None:
    line = dumps_event(event)
    assert "\n" not in line
    assert loads_event(line) == event
    VALIDATOR.validate(json.loads(line))


@given(st.lists(ANY_EVENT, max_size=6))
def test_a_written_log_reads_back(batch: list[Event]) -> None:
    import dataclasses

    numbered = [dataclasses.replace(e, seq=i) for i, e in enumerate(batch)]
    text = "".join(dumps_event(e) + "\n" for e in numbered)
    assert read_event_log(text) == (numbered, [])
