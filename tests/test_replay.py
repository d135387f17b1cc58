"""Replaying transcripts: the shared matches, problems found, canonical export, events,
and GNU Backgammon as the oracle for the export and for the IDs along a match."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from gammoneye.engine.events import EVENT_LOG_SCHEMA, dumps_event, read_event_log
from gammoneye.engine.matchid import encode_match_id
from gammoneye.engine.matfile import write_mat
from gammoneye.engine.replay import Replay, record_from_events, replay_mat

from transcripts import GOOD_GAME

REPO = Path(__file__).resolve().parents[1]
SHARED_MAT = REPO.parent / "shared" / "data" / "mat"
DEMO_MAT = REPO / "service" / "data" / "demo_match.mat"


def transcripts() -> list[Path]:
    files = sorted(SHARED_MAT.glob("*.mat")) if SHARED_MAT.is_dir() else []
    return [*files, DEMO_MAT]


TRANSCRIPTS = transcripts()
IDS = [p.name for p in TRANSCRIPTS]


def moves_and_results(result: Replay) -> list[tuple[object, ...]]:
    """What must survive any export: each play, cube action and game result."""
    out: list[tuple[object, ...]] = []
    for entry in result.entries:
        if entry.kind in ("roll", "double", "take", "drop"):
            out.append((entry.game, entry.kind, entry.player, entry.dice, entry.play))
    for end in result.game_ends:
        last = end.last_result
        assert last is not None
        out.append((end.game_number, "result", last.winner, last.points, end.score))
    return out


def test_shared_transcripts_are_present() -> None:
    if not SHARED_MAT.is_dir():
        pytest.skip(f"shared data not found at {SHARED_MAT}")
    assert len(TRANSCRIPTS) >= 8


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=IDS)
def test_transcript_replays_with_no_problem(path: Path) -> None:
    result = replay_mat(path.read_text(encoding="utf-8"))
    assert result.all_problems() == []
    assert result.ok
    assert result.turns > 0
    # Every match here is complete: someone reached the match length.
    assert max(result.final.score) >= result.record.match_length
    assert len(result.game_ends) == len(result.record.games)


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=IDS)
def test_canonical_export_replays_to_the_same_match(path: Path) -> None:
    original = replay_mat(path.read_text(encoding="utf-8"))
    canonical = write_mat(original.canonical_record())
    again = replay_mat(canonical)
    assert again.ok, again.all_problems()
    assert moves_and_results(again) == moves_and_results(original)
    # Canonical means a fixed point.
    assert write_mat(again.canonical_record()) == canonical


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=IDS)
def test_event_log_round_trip(path: Path) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    original = replay_mat(path.read_text(encoding="utf-8"))
    events = original.events()
    lines = [dumps_event(e) for e in events]
    validator = jsonschema.Draft202012Validator(EVENT_LOG_SCHEMA)
    for line in lines:
        validator.validate(json.loads(line))
    assert [e.seq for e in events] == list(range(len(events)))
    parsed, problems = read_event_log("\n".join(lines) + "\n")
    assert problems == []
    assert write_mat(record_from_events(parsed)) == write_mat(original.canonical_record())


@pytest.mark.parametrize(
    ("old", "new", "line", "error"),
    [
        (None, None, None, None),
        ("31: 8/5 6/5", "31: 8/4 6/5", 6, "illegal play '8/4 6/5' for 31"),
        ("31: 8/5 6/5", "31: 8/5", 6, "each using 2 dice"),
        ("31: 8/5 6/5", "31:", 6, "no move written for 31"),
        ("41: 13/9 24/23", "41: 13/9 24/23 6/5", 5, "illegal play"),
        ("Wins 1 point", "Wins 2 points", 7, "written: player 1 wins 2"),
        ("Drops", "Takes", 7, "no resignation level"),  # after a take, 1 point is no level
        ("Doubles => 2", "Doubles => 4", 6, "proper level is 2"),
        ("Wins 1 point", "Wins 1 point and the match", 7, "and the match"),
    ],
)
def test_problems_are_reported_with_their_line(
    old: str | None, new: str | None, line: int | None, error: str | None
) -> None:
    text = GOOD_GAME if old is None or new is None else GOOD_GAME.replace(old, new, 1)
    result = replay_mat(text)
    problems = result.all_problems()
    if error is None:
        assert problems == []
        return
    assert problems, "the broken transcript replayed clean"
    assert any(p.line == line and error in p.message for p in problems), problems


def test_wrong_score_in_game_header() -> None:
    text = (
        GOOD_GAME
        + """
 Game 2
 alice : 0                      bob : 2
  1) 31: 8/5 6/5                 41: 13/9 24/23
      Wins 1 point
"""
    )
    problems = replay_mat(text).all_problems()
    assert [(p.line, p.game) for p in problems] == [(9, 2)]
    assert "score written 0-2, the results before it add up to 0-1" in problems[0].message


def test_double_in_crawford_game_is_a_problem() -> None:
    # bob reaches 2 of 3 points: game 3 is the Crawford game [001 4.4(i),(iv)].
    games = [
        GOOD_GAME.split(" Game 1")[1].replace("0                      bob : 0", score)
        for score in (
            "0                      bob : 0",
            "0                      bob : 1",
            "0                      bob : 2",
        )
    ]
    text = " 3 point match\n" + "".join(
        f"\n Game {n}{body}" for n, body in enumerate(games, start=1)
    )
    problems = replay_mat(text).all_problems()
    assert problems
    first = problems[0]
    assert (first.line, first.game, first.player) == (18, 3, 1), text
    assert "Crawford" in first.message


def test_illegal_play_stands_and_replay_goes_on() -> None:
    text = GOOD_GAME.replace("31: 8/5 6/5", "31: 8/4 6/5")
    result = replay_mat(text)
    illegal = [e for e in result.entries if not e.legal]
    assert len(illegal) == 1 and illegal[0].line == 6
    # The double and drop after it were still followed.
    assert result.final.score == (0, 1)


def test_galaxy_unmarked_hit_follows_the_written_stops() -> None:
    # Galaxy writes "25/24 24/21" without '*': stopping on 24 hits the blot there.
    text = """ 3 point match

 Game 1
 alice : 0                       bob : 0
  1)                             64: 24/18 13/9
  2) 53: 13/8 6/1                31: 25/24 24/21
      Wins 1 point
"""
    result = replay_mat(text)
    entry = [e for e in result.entries if e.kind == "roll"][-1]
    assert entry.play == "25/24* 24/21"
    assert entry.after is not None and entry.after.bar(0) == 1


# --- GNU Backgammon as the oracle -------------------------------------------------------


@pytest.mark.oracle
@pytest.mark.parametrize("path", TRANSCRIPTS, ids=IDS)
def test_gnubg_reimports_the_canonical_export(
    path: Path, tmp_path: Path, gnubg_binary: Path
) -> None:
    import gnubg_cli

    original = replay_mat(path.read_text(encoding="utf-8"))
    ours = tmp_path / "ours.mat"
    ours.write_text(write_mat(original.canonical_record()), encoding="utf-8")
    theirs = tmp_path / "gnubg.mat"
    output = gnubg_cli.roundtrip_mat(ours, theirs, binary=gnubg_binary)
    assert "Unrecognised" not in output
    again = replay_mat(theirs.read_text(encoding="utf-8"))
    assert again.ok, again.all_problems()
    assert moves_and_results(again) == moves_and_results(original)


@pytest.mark.oracle
@pytest.mark.parametrize("path", TRANSCRIPTS, ids=IDS)
def test_ids_along_the_match_agree_with_gnubg(path: Path, gnubg_binary: Path) -> None:
    import gnubg_cli

    steps = gnubg_cli.gnubg_ids_after_each_move(path, binary=gnubg_binary)
    result = replay_mat(path.read_text(encoding="utf-8"))
    theirs = [s for s in steps if s.action == "move"]
    ours = [e for e in result.entries if e.kind == "roll" and e.after is not None]
    assert len(ours) == len(theirs)
    for step, entry in zip(theirs, ours, strict=True):
        where = f"game {entry.game} line {entry.line}"
        assert step.position_id_before == entry.position_id, where
        assert step.dice is not None and tuple(sorted(step.dice)) == tuple(sorted(entry.dice or ()))
        assert entry.state_after is not None
        assert step.match_id == encode_match_id(entry.state_after.match_info()), where


def test_replay_report_mentions_players() -> None:
    result = replay_mat(GOOD_GAME.replace("31: 8/5 6/5", "31: 8/4 6/5"))
    problem = result.all_problems()[0]
    assert problem.describe(result.record.players).startswith("line 6: game 1, move 2, alice:")
    assert dataclasses.asdict(problem)["line"] == 6


def test_canonical_export_keeps_what_could_not_be_followed() -> None:
    # bob "rolls" out of turn on line 6: the replay cannot follow it, the export keeps it.
    text = GOOD_GAME.replace("2) 31: 8/5 6/5", "2)                             ").replace(
        "Doubles => 2", "52: 13/8 13/11"
    )
    result = replay_mat(text)
    assert result.all_problems()
    written = write_mat(result.canonical_record())
    assert "52: 13/8 13/11" in written


def test_an_unplayed_roll_is_one_problem_not_a_cascade() -> None:
    # alice writes nothing for her 3-1: that stands as an illegal play (she moved
    # nothing) and the double, the drop and the result after it still follow.
    result = replay_mat(GOOD_GAME.replace("31: 8/5 6/5", "31:"))
    assert [(p.line, p.player) for p in result.all_problems()] == [(6, 0)]
    assert result.final.score == (0, 1)


def _docs_example_events() -> list[object]:
    """The short game of docs/event-log.md: Alice's illegal 13/7 is flagged, corrected."""
    text = (REPO / "docs" / "event-log.md").read_text()
    block = text.split("```jsonl\n", 1)[1].split("```", 1)[0]
    events, problems = read_event_log(block)
    assert problems == []
    return events  # type: ignore[return-value]


def test_a_corrected_illegal_play_is_replaced_by_the_redone_move() -> None:
    record = record_from_events(_docs_example_events())  # type: ignore[arg-type]
    plays = [(a.player, a.dice, a.play) for a in record.games[0].actions if a.kind == "roll"]
    assert plays == [
        (0, (3, 1), "8/5 6/5"),
        (1, (6, 4), "24/18 13/9"),
        (0, (5, 2), "13/11 13/8"),
        (1, (6, 6), "13/7 13/7 8/2 8/2"),
    ]


def test_an_illegal_play_without_a_correction_stays() -> None:
    events = [e for e in _docs_example_events() if type(e).__name__ != "FlagClearedEvent"]
    record = record_from_events(events)  # type: ignore[arg-type]
    plays = [a.play for a in record.games[0].actions if a.kind == "roll"]
    assert plays == ["8/5 6/5", "24/18 13/9", "13/7", "13/11 13/8", "13/7 13/7 8/2 8/2"]


def test_an_excerpt_starting_at_a_later_game_replays_from_its_score() -> None:
    # games 2.. of the demo match, as a recording that began late would hold them
    full = DEMO_MAT.read_text()
    head, _, rest = full.partition(" Game 1\n")
    excerpt = head + " Game 2\n" + rest.split(" Game 2\n", 1)[1]
    result = replay_mat(excerpt)
    assert result.ok, [p.describe() for p in result.all_problems()]
    whole = replay_mat(full)
    later = [(e.game, e.kind, e.player, e.dice, e.play) for e in whole.entries if e.game > 1]
    assert [(e.game, e.kind, e.player, e.dice, e.play) for e in result.entries] == later
    assert replay_mat(head + " Game 3\n" + rest.split(" Game 3\n", 1)[1]).ok
