"""The referee (engine/referee.py) and its loop (service/referee.py), driven by rendered
clips' ground truth: every injected fault must be called, nothing else."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from gammoneye.datasets.render.clip import ClipConfig, parse_games, write_clip_truth
from gammoneye.engine.events import (
    CorrectionEvent,
    Event,
    FlagEvent,
    MoveEvent,
    RollEvent,
    dumps_event,
    read_event_log,
)
from gammoneye.engine.match import Phase
from gammoneye.engine.position import Position
from gammoneye.engine.referee import (
    ExactCheckers,
    Referee,
    RefereeConfig,
    SeenCube,
    SeenDie,
    Sighting,
    broken_rule,
    describe_change,
)
from gammoneye.engine.replay import record_from_events
from gammoneye.service.cli import app
from gammoneye.service.journal import Journal, JournalError
from gammoneye.service.referee import (
    CameraEyes,
    Frame,
    RefereeStep,
    TruthEyes,
    clip_referee_config,
    read_truth,
    run_referee,
)
from gammoneye.service.referee_eval import LATE_FLAG_S, compare_events

REPO = Path(__file__).resolve().parents[1]
TESTBED = REPO / "service" / "data" / "testbed_match.mat"
CHARLOT = REPO.parent / "shared" / "data" / "mat" / "kevung_charlot1-charlot2_7p.mat"


def _clip(tmp: Path, mat: Path, games: str, seed: int, profile: str = "wbf") -> Path:
    out = tmp / f"{mat.stem}-{seed}-{profile}"
    cfg = ClipConfig(
        mat.read_text("utf-8"),
        mat.name,
        out,
        seed=seed,
        games=parse_games(games),
        faults="all",
        profile=profile,
    )
    write_clip_truth(cfg)
    return out


def _run(clip: Path) -> tuple[list, Referee]:
    truth = read_truth(clip)
    ref = Referee(clip_referee_config(clip, truth), t=0.0)
    eyes = TruthEyes(clip)
    observer = [e for e in truth if e.source == "observer" and e.TYPE != "match_start"]
    stats = run_referee(eyes.frames(), eyes, ref, observer=observer)
    assert not stats.refused
    return truth, ref


@pytest.fixture(scope="module")
def testbed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # games 2-4 of the testbed offer every fault kind, smaller_die included
    return _clip(tmp_path_factory.mktemp("clips"), TESTBED, "2-4", 7)


def test_truth_clip_is_refereed_exactly(testbed: Path) -> None:
    truth, ref = _run(testbed)
    score = compare_events(truth, ref.events)
    fig = score.figures()
    assert score.plays > 150 and fig["plays_exact_pct"] == 100.0 and score.plays_extra == 0
    assert score.cube > 0 and fig["cube_right_pct"] == 100.0
    assert fig["game_ends_right_pct"] == 100.0
    # every kind of illegal play and of invalid roll was injected, and each was called
    assert set(score.flags) == {
        "bar_not_first",
        "blocked_point",
        "early_bear_off",
        "smaller_die",
        "unplayed_die",
        "wrong_distance",
    }
    assert score.flags_found == score.flags and score.our_flags == sum(score.flags.values())
    assert {"cocked", "wrong_half", "on_checker"} <= set(score.invalid)
    assert score.invalid_found == score.invalid and score.false_invalid == 0
    assert fig["flag_latency_p95_s"] is not None and fig["flag_latency_p95_s"] <= 0.5


def test_eval_names_the_plays_it_could_not_match(testbed: Path) -> None:
    """The problems list each play of the truth not transcribed and each of ours not
    in the truth: a play recorded with a die misread is both."""
    truth = read_truth(testbed)
    moves = [i for i, e in enumerate(truth) if isinstance(e, MoveEvent) and e.legal and e.play]
    i = moves[len(moves) // 2]
    played = truth[i]
    assert isinstance(played, MoveEvent)
    other = (6, 5) if sorted(played.dice) != [5, 6] else (4, 3)
    ours = [*truth[:i], replace(played, dice=other), *truth[i + 1 :]]
    score = compare_events(truth, ours)
    assert score.plays_right == score.plays - 1
    t = f"t={played.t:.1f}"
    named = f"player {played.player} {max(played.dice)}{min(played.dice)} {played.play}"
    assert f"{t}: play missed: {named}" in score.problems
    misread = f"player {played.player} {other[0]}{other[1]} {played.play}"
    assert f"{t}: play not in the truth: {misread}" in score.problems
    assert compare_events(truth, truth).problems == []


def test_eval_names_a_flag_raised_too_late(testbed: Path) -> None:
    """A flag found, but more than LATE_FLAG_S after the dice were lifted, is named."""
    truth = read_truth(testbed)
    i = next(i for i, e in enumerate(truth) if isinstance(e, FlagEvent))
    flag = truth[i]
    assert isinstance(flag, FlagEvent) and flag.t is not None
    for delay, named in ((LATE_FLAG_S - 0.1, False), (LATE_FLAG_S + 0.2, True)):
        ours = [*truth[:i], replace(flag, t=flag.t + delay), *truth[i + 1 :]]
        score = compare_events(truth, ours)
        late = [p for p in score.problems if "flag late" in p]
        assert score.our_flags_true == score.our_flags  # found either way
        assert bool(late) == named, late
    assert late == [
        f"t={flag.t:.1f}: flag late by {LATE_FLAG_S + 0.2:.2f} s ({flag.note}): {flag.message}"
    ]


def test_eval_counts_a_double_flagged_that_no_one_made(testbed: Path) -> None:
    """A flag of another kind than an illegal play (an illegal double) that the truth
    does not have is a false flag, counted and named; the truth's own are found."""
    truth = read_truth(testbed)
    i = next(i for i, e in enumerate(truth) if isinstance(e, MoveEvent) and e.t is not None)
    at = truth[i].t
    assert at is not None
    false = FlagEvent(
        seq=10_000,
        t=at,
        flag_id="x1",
        kind="illegal_double",
        player=1,
        message="no doubling in the Crawford game",
        rule="001 4.4(i),(iv)",
        suggestions=(),
        note="crawford_game",
    )
    score = compare_events(truth, [*truth[:i], false, *truth[i:]])
    fig = score.figures()
    assert score.false_other_flags == 1 and fig["other_flags_false"] == 1
    assert fig["other_flags_by_kind"] == {"illegal_double": "0/0 (ours 1)"}
    assert (
        f"t={at:.1f}: flag not in the truth (illegal_double): no doubling in the Crawford game"
        in score.problems
    )
    assert score.our_flags_true == score.our_flags  # the illegal plays' figures as they were
    # the same flag in the truth too: found, none false
    both = [*truth[:i], false, *truth[i:]]
    score = compare_events(both, both)
    assert score.false_other_flags == 0 and score.other_flags_found == {"illegal_double": 1}
    assert score.problems == []


def test_eval_leaves_out_what_a_correction_withdrew(testbed: Path) -> None:
    """A play recorded wrong, withdrawn by a correction and recorded again right, is
    judged as the transcript has it: right, with nothing extra."""
    truth = read_truth(testbed)
    i = next(i for i, e in enumerate(truth) if isinstance(e, MoveEvent) and e.legal and e.play)
    played = truth[i]
    assert isinstance(played, MoveEvent)
    other = (6, 5) if sorted(played.dice) != [5, 6] else (4, 3)
    wrong = replace(played, dice=other, seq=10_000)  # seqs of their own: the truth's stay
    fix = CorrectionEvent(
        seq=10_001, data={"action": "rejudge", "withdraws": [10_000]}, target_seq=10_000
    )
    ours = [*truth[:i], wrong, fix, *truth[i:]]
    score = compare_events(truth, ours)
    assert (score.plays_right, score.plays_extra, score.problems) == (score.plays, 0, [])
    kept = [*ours[: i + 1], *ours[i + 2 :]]  # without the correction, the wrong play counts
    assert compare_events(truth, kept).plays_extra == 1


def test_eval_dates_a_flag_recorded_again_from_when_it_first_went_up(testbed: Path) -> None:
    """A flag withdrawn with the plays before it and recorded again under its id some
    seconds later (a close call settled by the flagged play put right) was up all the
    while: its latency is from when it first went up, not from its second record. A
    flag of another id withdrawn early does not date the one recorded."""
    truth = read_truth(testbed)
    i = next(i for i, e in enumerate(truth) if isinstance(e, FlagEvent))
    flag = truth[i]
    assert isinstance(flag, FlagEvent) and flag.t is not None
    first = replace(flag, seq=10_000)
    fix = CorrectionEvent(
        seq=10_001, data={"action": "rejudge", "withdraws": [10_000]}, target_seq=10_000
    )
    again = replace(flag, t=flag.t + LATE_FLAG_S + 3.0)
    ours = [*truth[:i], first, fix, again, *truth[i + 1 :]]
    score = compare_events(truth, ours)
    assert score.our_flags_true == score.our_flags
    assert not [p for p in score.problems if "flag late" in p]
    other = replace(first, flag_id="elsewhere")
    score = compare_events(truth, [*truth[:i], other, fix, again, *truth[i + 1 :]])
    assert [p for p in score.problems if "flag late" in p]


def test_premature_roll_is_rerolled_under_club(tmp_path: Path) -> None:
    clip = _clip(tmp_path, CHARLOT, "1-2", 3, profile="club")
    truth, ref = _run(clip)
    score = compare_events(truth, ref.events)
    assert score.invalid.get("premature", 0) >= 1
    assert score.invalid_found == score.invalid and score.false_invalid == 0
    assert score.plays_right == score.plays and score.flags_found == score.flags


def test_resume_after_a_crash_goes_on_as_if_nothing_happened(testbed: Path, tmp_path: Path) -> None:
    truth, whole = _run(testbed)
    cut = next(i for i, e in enumerate(whole.events) if e.TYPE == "flag") + 1  # a flag is open
    with Journal(tmp_path / "journal.sqlite") as journal:
        journal.append(whole.events[:cut])
    with Journal(tmp_path / "journal.sqlite") as journal:  # "restarted"
        earlier = journal.events()
        with pytest.raises(JournalError):
            journal.append(earlier[-1:])  # the same seq twice is refused
    assert [dumps_event(e) for e in earlier] == [dumps_event(e) for e in whole.events[:cut]]
    resumed = Referee.resume(whole.config, earlier)
    assert resumed.flag is not None and resumed.state == _state_after(whole, cut)
    # feed the rest of the clip from the frame after the cut
    after_t = whole.events[cut - 1].t or 0.0
    eyes = TruthEyes(testbed)
    frames = (f for f in eyes.frames() if f.t > after_t)
    observer = [
        e
        for e in truth
        if e.source == "observer" and e.TYPE != "match_start" and (e.t or 0) > after_t
    ]
    run_referee(frames, eyes, resumed, observer=observer)
    rest = [dumps_event(e) for e in resumed.events[cut:]]
    assert rest == [dumps_event(e) for e in whole.events[cut:]]


def _state_after(ref: Referee, n: int):  # type: ignore[no-untyped-def]
    return Referee.resume(ref.config, ref.events[:n]).state


def test_rules_constrained_decoding_picks_the_legal_play_under_noise() -> None:
    ref = Referee(RefereeConfig(match_length=3, bottom_player=0))
    start = Position.initial()
    ref.see(Sighting(ExactCheckers(start)))
    ref.see(
        Sighting(ExactCheckers(start), dice=(SeenDie(3, half="right"), SeenDie(1, half="left")))
    )
    played = Position.from_position_id("4HPwATCwZ/ABMA")  # 8/5 6/5

    class OneOff:
        """Sure of the play but for one point, read one checker short (weakly)."""

        def log_likelihood(self, position: Position) -> float:
            return -2.0 * min(3, _out_of_place(played, position)) - (
                0.5 if position == played else 0
            )

        def ceiling(self) -> float:
            return 0.0

        def guess(self, turn: int) -> Position | None:
            return None

    events = ref.see(Sighting(OneOff()))
    assert [e.TYPE for e in events] == ["move"]
    move = events[0]
    assert isinstance(move, MoveEvent) and move.legal and move.after == played.position_id()


def _out_of_place(a: Position, b: Position) -> int:
    from gammoneye.engine.moves import checkers_out_of_place

    return checkers_out_of_place(a, b)


def test_an_illegal_play_is_flagged_with_suggestions_and_cleared_when_corrected() -> None:
    ref = Referee(RefereeConfig(match_length=3, bottom_player=1))
    start = Position.initial()
    ref.see(Sighting(ExactCheckers(start)))
    # player 1 sits at the bottom: his right half is "right"; player 0's die is "left"
    ref.see(
        Sighting(ExactCheckers(start), dice=(SeenDie(5, half="left"), SeenDie(2, half="right")))
    )
    assert ref.state.on_roll == 0 and ref.state.dice == (5, 2)
    wrong = Position.from_position_id("4HPwATDgc/ABMA", turn=0)
    wrong = Position((tuple(_moved(wrong.boards[0], 13, 7)), wrong.boards[1]), 0)  # 13/7: 6 pips
    events = ref.see(Sighting(ExactCheckers(wrong)))
    assert [e.TYPE for e in events] == ["move", "flag"]
    flag = events[1]
    assert flag.kind == "illegal_play" and flag.player == 0 and len(flag.suggestions) == 3
    assert flag.rule == "000 r10a"
    # the player corrects the board to 13/8 13/11
    right = Position((tuple(_moved(_moved(start.boards[0], 13, 8), 13, 11)), start.boards[1]), 0)
    events = ref.see(Sighting(ExactCheckers(right)))
    assert [e.TYPE for e in events] == ["flag_cleared", "move"]
    assert events[0].how == "corrected" and events[1].legal


def _moved(board: tuple[int, ...], src: int, dst: int) -> list[int]:
    out = list(board)
    out[src - 1] -= 1
    out[dst - 1] += 1
    return out


def test_an_illegal_play_stands_once_the_opponent_rolls() -> None:
    ref = Referee(RefereeConfig(match_length=3))
    start = Position.initial()
    ref.see(Sighting(ExactCheckers(start)))
    ref.see(
        Sighting(ExactCheckers(start), dice=(SeenDie(4, half="right"), SeenDie(2, half="left")))
    )
    wrong = Position((tuple(_moved(start.boards[0], 13, 6)), start.boards[1]), 0)  # 7 pips
    ref.see(Sighting(ExactCheckers(wrong)))
    events = ref.see(
        Sighting(ExactCheckers(wrong), dice=(SeenDie(6, half="left"), SeenDie(1, half="left")))
    )
    assert [e.TYPE for e in events] == ["accepted_illegal", "flag_cleared", "roll"]
    assert events[1].how == "accepted" and ref.state.on_roll == 1 and ref.state.dice == (6, 1)


def test_an_illegal_play_stands_once_the_opponent_doubles() -> None:
    """Player 0 plays 13/6 with 42 (flagged); player 1 doubles instead of rolling: the
    play stands [001 4.2(iii)(a)] and the double is taken, whether the cube is seen
    offered in a view after the flag or already in the view that raised it, the next
    view then showing the pass (s38 clip 3303 at 231 s)."""

    def flagged(cube_then: SeenCube) -> tuple[Referee, Position]:
        ref = Referee(RefereeConfig(match_length=3))
        start = Position.initial()
        centre = SeenCube(64, "centre")
        ref.see(Sighting(ExactCheckers(start), cube=centre))
        dice = (SeenDie(4, half="right"), SeenDie(2, half="left"))
        ref.see(Sighting(ExactCheckers(start), dice=dice, cube=centre))
        wrong = Position((tuple(_moved(start.boards[0], 13, 6)), start.boards[1]), 0)
        events = ref.see(Sighting(ExactCheckers(wrong), cube=cube_then))
        assert [e.TYPE for e in events] == ["move", "flag"]
        return ref, wrong

    ref, wrong = flagged(SeenCube(64, "centre"))
    events = ref.see(Sighting(ExactCheckers(wrong), cube=SeenCube(2, "offered")))
    assert [e.TYPE for e in events] == ["accepted_illegal", "flag_cleared", "double"]
    assert events[1].how == "accepted" and events[2].player == 1
    assert Referee.resume(ref.config, ref.events).state == ref.state
    # offered in the view that flagged the play, passed by the next view
    ref, wrong = flagged(SeenCube(2, "offered"))
    events = ref.see(Sighting(ExactCheckers(wrong), cube=SeenCube(64, "centre")))
    assert [e.TYPE for e in events][:4] == ["accepted_illegal", "flag_cleared", "double", "drop"]
    assert ref.state.phase is Phase.GAME_OVER and ref.state.score == (0, 1)
    # the cube unmoved: the flag stands
    ref, wrong = flagged(SeenCube(64, "centre"))
    assert ref.see(Sighting(ExactCheckers(wrong), cube=SeenCube(64, "centre"))) == []
    assert ref.flag is not None
    # one die down and a cube "offered" in the field: the roll's other die boxed as
    # the cube (s56 clip 5101), no double; the flag stands and the cube is where it lay
    ref, wrong = flagged(SeenCube(64, "centre"))
    die = SeenDie(4, half=ref.right_half(0), at=(20.0, 3.0))
    as_cube = SeenCube(2, "offered", p=0.3)
    for _ in range(2):
        assert ref.see(Sighting(ExactCheckers(wrong), dice=(die,), cube=as_cube)) == []
    assert ref.flag is not None and ref.state.cube_value == 1
    assert ref.see(Sighting(ExactCheckers(wrong), cube=SeenCube(64, "centre"))) == []


def test_a_play_flagged_in_the_view_of_the_opponents_roll_waits_for_the_next_view() -> None:
    """The view after player 0's play already shows player 1's roll, one die on a
    checker hiding it, so the play reads illegal. The roll is not taken (it would make
    the play stand) until the next view: the roll made again away from the checkers,
    the board reads as the legal play played, and the flag is cleared (s12 clip 971)."""
    ref, start = _opened_52()
    played = Position((tuple(_moved(_moved(start.boards[0], 13, 8), 13, 11)), start.boards[1]), 0)
    misread = Position((tuple(_moved(played.boards[0], 8, 7)), played.boards[1]), 0)
    on_checker = (SeenDie(6, half="left"), SeenDie(3, half="left"))
    events = ref.see(Sighting(ExactCheckers(misread), dice=on_checker))
    assert [e.TYPE for e in events] == ["move", "flag"]
    assert ref.state.dice == (5, 2) and ref.flag is not None
    again = (SeenDie(4, half="left", at=(-20.0, 0.0)), SeenDie(1, half="left", at=(-25.0, 0.0)))
    events = ref.see(Sighting(ExactCheckers(played), dice=again))
    assert [e.TYPE for e in events] == ["flag_cleared", "move", "roll"]
    assert events[0].how == "corrected" and events[1].legal and events[2].dice == (4, 1)
    # the play was illegal after all: it stands once a later view still shows it
    ref, start = _opened_52()
    wrong = Position((tuple(_moved(start.boards[0], 13, 7)), start.boards[1]), 0)  # 6 pips
    roll = (SeenDie(6, half="left"), SeenDie(1, half="left"))
    assert [e.TYPE for e in ref.see(Sighting(ExactCheckers(wrong), dice=roll))] == ["move", "flag"]
    moving = Position((wrong.boards[0], tuple(_moved(start.boards[1], 13, 7))), 0)
    events = ref.see(Sighting(ExactCheckers(moving), dice=roll))
    assert [e.TYPE for e in events][:3] == ["accepted_illegal", "flag_cleared", "roll"]
    assert ref.state.on_roll == 1 and ref.state.dice == (6, 1)


def _opened_52() -> tuple[Referee, Position]:
    """Player 0 on roll with 52 at the opening (player 0 at the bottom)."""
    ref = Referee(RefereeConfig(match_length=3))
    start = Position.initial()
    ref.see(Sighting(ExactCheckers(start)))
    ref.see(
        Sighting(ExactCheckers(start), dice=(SeenDie(5, half="right"), SeenDie(2, half="left")))
    )
    assert ref.state.on_roll == 0 and ref.state.dice == (5, 2)
    return ref, start


def _player_1_rolls(*dice: SeenDie) -> tuple[Referee, Position]:
    """Player 0 opened 52 and played 13/8 13/11; player 1 rolls ``dice``."""
    ref, start = _opened_52()
    p0 = Position((tuple(_moved(_moved(start.boards[0], 13, 8), 13, 11)), start.boards[1]), 0)
    ref.see(Sighting(ExactCheckers(p0)))
    ref.see(Sighting(ExactCheckers(p0), dice=dice))
    return ref, p0


def _player_1_plays(dice: tuple[SeenDie, SeenDie], *moves: tuple[int, int]) -> list[Event]:
    """The events of player 1's play of checker ``moves`` (his numbers, from, to) after
    rolling ``dice`` (:func:`_player_1_rolls`)."""
    ref, p0 = _player_1_rolls(*dice)
    board = p0.boards[1]
    for src, dst in moves:
        board = tuple(_moved(board, src, dst))
    return ref.see(Sighting(ExactCheckers(Position((p0.boards[0], board), 1))))


def test_an_observer_corrects_a_flagged_play_to_a_suggestion() -> None:
    ref, start = _opened_52()
    wrong = Position((tuple(_moved(start.boards[0], 13, 7)), start.boards[1]), 0)  # 6 pips
    flag = ref.see(Sighting(ExactCheckers(wrong)))[1]
    pick = flag.suggestions[1]
    events = ref.correct_play(pick.after)
    assert [e.TYPE for e in events] == ["correction", "flag_cleared", "move"]
    assert events[0].target_seq == flag.seq - 1 and events[1].how == "corrected"
    assert events[2].legal and events[2].after == pick.after and events[2].source == "observer"
    assert ref.flag is None and ref.state.on_roll == 1
    # the .mat keeps the corrected play in place of the illegal one
    game = record_from_events(ref.events).games[0]
    assert [a.play for a in game.actions if a.play] == [events[2].play]
    # and a restart from the log stands where the referee stands
    again = Referee.resume(ref.config, ref.events)
    assert again.state == ref.state and again.flag is None


def test_an_observer_replaces_a_misread_legal_play_until_the_opponent_rolls() -> None:
    ref, start = _opened_52()
    read = Position((tuple(_moved(_moved(start.boards[0], 13, 8), 13, 11)), start.boards[1]), 0)
    move = ref.see(Sighting(ExactCheckers(read)))[0]
    assert move.legal and ref.state.on_roll == 1
    real = Position((tuple(_moved(_moved(start.boards[0], 13, 8), 6, 4)), start.boards[1]), 0)
    events = ref.correct_play(real.position_id())
    assert [e.TYPE for e in events] == ["correction", "move"]
    assert events[0].data["withdraws"] == [move.seq] and events[1].play == "13/8 6/4"
    assert events[1].after == real.position_id() and ref.state.on_roll == 1
    game = record_from_events(ref.events).games[0]
    assert [a.play for a in game.actions if a.play] == ["13/8 6/4"]
    with pytest.raises(ValueError, match="no legal result"):
        ref.correct_play(start.position_id())  # no move at all is not a 52
    # the opponent rolls: the play can no longer be corrected
    ref.see(Sighting(ExactCheckers(real), dice=(SeenDie(3, half="left"), SeenDie(1, half="left"))))
    assert ref.state.dice == (3, 1)
    with pytest.raises(ValueError, match="no longer"):
        ref.correct_play(read.position_id())


def test_undo_withdraws_the_last_observer_action_and_survives_a_restart() -> None:
    ref, start = _opened_52()
    wrong = Position((tuple(_moved(start.boards[0], 13, 7)), start.boards[1]), 0)  # 6 pips
    flag = ref.see(Sighting(ExactCheckers(wrong)))[1]
    accepted = ref.accept_illegal_play(source="observer")
    assert [e.TYPE for e in accepted] == ["accepted_illegal", "flag_cleared"]
    assert ref.flag is None and ref.state.on_roll == 1
    undo = ref.undo()
    assert undo[0].data["withdraws"] == [e.seq for e in accepted]
    assert ref.flag is not None and ref.flag.flag_id == flag.flag_id
    assert ref.state.on_roll == 0 and ref.state.dice == (5, 2)
    again = Referee.resume(ref.config, ref.events)
    assert again.state == ref.state and again.flag is not None
    with pytest.raises(ValueError, match="nothing to undo"):
        ref.undo()  # the last events are the camera's
    # a resignation and its acceptance (which ends the game) are undone as one action
    ref.dismiss_flag()
    ref.undo()
    assert ref.flag is not None
    ref.resign(0, 1)
    ended = ref.answer_resignation(True)
    assert [e.TYPE for e in ended] == ["resign_accept", "game_end"]
    assert all(e.source == "observer" for e in ended)
    ref.undo()
    assert ref.state.phase.name == "MOVE" and ref.state.score == (0, 0)


def test_a_wrong_half_roll_among_dice_left_down_is_seen() -> None:
    """club: player 0 rolls before player 1 lifted his dice (premature, rolled again
    [000 r9]); his new roll lands in the wrong half, beside player 1's dice still down
    there. Those stale dice are ignored, the new ones are not [001 4.1(iv)(a)]."""
    ref = Referee(RefereeConfig(profile="club", match_length=3))
    start = Position.initial()
    ref.see(Sighting(ExactCheckers(start)))
    opening = (SeenDie(5, half="right", at=(20.0, 0.0)), SeenDie(2, half="left", at=(-20.0, 0.0)))
    ref.see(Sighting(ExactCheckers(start), dice=opening))
    p0 = Position((tuple(_moved(_moved(start.boards[0], 13, 8), 13, 11)), start.boards[1]), 0)
    assert ref.see(Sighting(ExactCheckers(p0)))[0].legal
    his = (SeenDie(6, half="left", at=(-20.0, 5.0)), SeenDie(1, half="left", at=(-25.0, 5.0)))
    assert ref.see(Sighting(ExactCheckers(p0), dice=his))[0].TYPE == "roll"
    p1 = Position((p0.boards[0], tuple(_moved(_moved(p0.boards[1], 13, 7), 8, 7))), 1)
    early = (SeenDie(4, half="right", at=(20.0, 5.0)), SeenDie(3, half="right", at=(25.0, 5.0)))
    events = ref.see(Sighting(ExactCheckers(p1), dice=his + early))
    assert [e.TYPE for e in events] == ["move", "roll_invalid"]
    assert events[1].reasons == ("premature",) and events[1].player == 0
    wrong = (SeenDie(5, half="left", at=(-10.0, -5.0)), SeenDie(2, half="left", at=(-5.0, -5.0)))
    events = ref.see(Sighting(ExactCheckers(p1), dice=his + wrong))
    assert [e.TYPE for e in events] == ["roll_invalid"]
    assert events[0].reasons == ("wrong_half",) and events[0].dice == (5, 2)


def _after_opening_then_rolled(p: float) -> tuple[Referee, Position]:
    """Player 0 opened with 52 (13/8 13/11); player 1 rolled, read 65 with
    probability ``p`` per die."""
    ref, start = _opened_52()
    p0 = Position((tuple(_moved(_moved(start.boards[0], 13, 8), 13, 11)), start.boards[1]), 0)
    ref.see(Sighting(ExactCheckers(p0)))
    dice = (SeenDie(6, p=p, half="left"), SeenDie(5, p=p, half="left"))
    assert ref.see(Sighting(ExactCheckers(p0), dice=dice))[0].TYPE == "roll"
    # he really rolled 42 and made his 4-point: 8/4 6/4
    p1 = Position((p0.boards[0], tuple(_moved(_moved(p0.boards[1], 8, 4), 6, 4))), 1)
    return ref, p1


def test_dice_read_unsure_are_read_again_from_the_play() -> None:
    ref, p1 = _after_opening_then_rolled(0.4)
    events = ref.see(Sighting(ExactCheckers(p1)))
    assert [e.TYPE for e in events] == ["correction", "move"]
    assert events[0].data == {"action": "reread_dice", "dice": [4, 2], "read": [6, 5]}
    assert events[1].legal and events[1].dice == (4, 2) and events[1].play == "8/4 6/4"
    game = record_from_events(ref.events).games[0]
    assert game.actions[-1].dice == (4, 2)
    again = Referee.resume(ref.config, ref.events)  # a restart keeps the roll read again
    assert again.state == ref.state


def _opening_misread(p: float) -> tuple[Referee, Position]:
    """The opening roll read 5 (player 0) and 2 (player 1) with probability ``p`` per
    die: player 0 would start. Really player 0 rolled 3 and player 1 rolled 4, and
    player 1 played 43 as 24/20 13/10."""
    ref = Referee(RefereeConfig(match_length=3))
    start = Position.initial()
    ref.see(Sighting(ExactCheckers(start)))
    dice = (SeenDie(5, p=p, half="right"), SeenDie(2, p=p, half="left"))
    assert [e.TYPE for e in ref.see(Sighting(ExactCheckers(start), dice=dice))] == ["opening_roll"]
    assert ref.state.on_roll == 0
    played = Position((start.boards[0], tuple(_moved(_moved(start.boards[1], 24, 20), 13, 10))), 1)
    return ref, played


def test_an_opening_roll_read_unsure_is_read_again_and_the_other_player_starts() -> None:
    """[000 r8] the higher die starts: a misread opening roll named the wrong player,
    whose first play then fits none of his results. The roll is read again from the
    play, the old opening_roll withdrawn, and the play recorded as player 1's."""
    ref, played = _opening_misread(0.5)
    opening_seq = ref.events[-1].seq
    events = ref.see(Sighting(ExactCheckers(played)))
    assert [e.TYPE for e in events] == ["correction", "opening_roll", "move"]
    assert events[0].data == {
        "action": "reread_dice",
        "dice": [3, 4],
        "read": [5, 2],
        "withdraws": [opening_seq],
    }
    assert events[1].dice == (3, 4)
    assert events[2].legal and events[2].player == 1 and sorted(events[2].dice) == [3, 4]
    assert ref.state.on_roll == 0 and ref.state.turns_played == 1
    first = record_from_events(ref.events).games[0].actions[0]
    assert first.player == 1 and sorted(first.dice) == [3, 4]
    again = Referee.resume(ref.config, ref.events)  # a restart keeps the opening read again
    assert again.state == ref.state


def test_an_opening_roll_read_surely_is_believed_and_the_play_flagged() -> None:
    ref, played = _opening_misread(0.98)
    events = ref.see(Sighting(ExactCheckers(played)))
    assert "correction" not in [e.TYPE for e in events]
    assert any(e.TYPE == "flag" for e in events)


def test_an_illegal_first_play_by_the_other_player_reads_the_opening_again() -> None:
    """[000 r8, r10a] The opening roll read 5 (player 0) and 2 (player 1), the 2 at 0.6:
    player 0 would start. Player 1's checkers move (24/20 13/9, no play of any opening
    roll), player 0's stand: player 1 started, his die misread, and played illegally.
    The opening is read again as the likeliest roll he starts with, 56 (the 2 misread
    as his 6, player 0's 5 kept), and his play is flagged, not player 0's standing
    still (s49 clip 4402 at 321 s). Read surely, the dice are believed."""

    def first_play(p: float) -> tuple[Referee, list[Event]]:
        ref = Referee(RefereeConfig(match_length=3))
        start = Position.initial()
        ref.see(Sighting(ExactCheckers(start)))
        dice = (SeenDie(5, p=0.98, half="right"), SeenDie(2, p=p, half="left"))
        ref.see(Sighting(ExactCheckers(start), dice=dice))
        mine = _moved(_moved(start.boards[1], 24, 20), 13, 9)
        return ref, ref.see(Sighting(ExactCheckers(Position((start.boards[0], tuple(mine)), 1))))

    ref, events = first_play(0.6)
    assert [e.TYPE for e in events] == ["correction", "opening_roll", "move", "flag"]
    assert events[0].data["action"] == "reread_dice" and events[1].dice == (5, 6)
    assert events[2].player == 1 and not events[2].legal and events[2].play == "24/20 13/9"
    assert events[3].player == 1 and ref.flag is not None and ref.flag.player == 1
    again = Referee.resume(ref.config, ref.events)  # a restart keeps the opening read again
    assert again.state == ref.state
    ref, events = first_play(0.98)
    assert "correction" not in [e.TYPE for e in events]
    assert [e.player for e in events if e.TYPE == "flag"] == [0]


def test_dice_read_surely_are_believed_and_the_play_flagged() -> None:
    ref, p1 = _after_opening_then_rolled(0.98)
    events = ref.see(Sighting(ExactCheckers(p1)))
    assert [e.TYPE for e in events] == ["move", "flag"] and not events[0].legal


def test_one_die_read_fairly_surely_is_believed_and_the_play_flagged() -> None:
    """Player 1's 65 read with a 6 at 0.95 and a 5 at 0.85; he plays 8/2 6/4, a play
    of 62 (the 5 misread) or an illegal play. A 5 read at 0.85 is a 2 with 0.03, under
    1/20 of what was read: an illegal play is the likelier, and it is flagged. At 0.6
    the 2 is 0.08, over 1/20 of 0.6: the die is read again."""

    def play(p5: float) -> list[str]:
        ref, p0 = _player_1_rolls(SeenDie(6, p=0.95, half="left"), SeenDie(5, p=p5, half="left"))
        p1 = Position((p0.boards[0], tuple(_moved(_moved(p0.boards[1], 8, 2), 6, 4))), 1)
        return [e.TYPE for e in ref.see(Sighting(ExactCheckers(p1)))]

    assert play(0.85) == ["move", "flag"]
    assert play(0.6) == ["correction", "move"]


def test_a_double_read_as_another_roll_and_played_as_the_double_is_read_again() -> None:
    """Player 1's 66 read as 64, the 4 at 0.82 (a 6 with 0.036, under 1/20 of that);
    he plays four sixes. An illegal play would move twice the checkers the roll
    allows, which players do not do: the 4 is read again as a 6."""
    ref, p0 = _player_1_rolls(SeenDie(6, p=0.95, half="left"), SeenDie(4, p=0.82, half="left"))
    board = p0.boards[1]
    for src, dst in ((24, 18), (24, 18), (13, 7), (13, 7)):
        board = tuple(_moved(board, src, dst))
    events = ref.see(Sighting(ExactCheckers(Position((p0.boards[0], board), 1))))
    assert [e.TYPE for e in events] == ["correction", "move"]
    assert events[1].dice == (6, 6) and events[1].legal


def test_a_miscount_that_a_double_would_make_legal_is_flagged_not_read_again() -> None:
    """Player 1's 52 read, the 5 at 0.74 and a 2 under 0.01 (s68 clip 6403 at 435 s);
    he plays 24/22 13/7, the 5 counted as a 6, the board that of 24/22 13/11 11/9 9/7
    of a 22. Two checkers and one pip past the roll: a miscount of the dice as read,
    not a double played as one, so the read keeps the odds of any die misread and
    the play is flagged. So is 8/4 of a 41, its 1 left unplayed, where four 1s would
    make it legal (s67 clip 6303 at 377 s)."""
    five = SeenDie(5, p=0.74, half="left", values=(0.25, 0.004, 0.0, 0.0, 0.74, 0.006))
    events = _player_1_plays((SeenDie(2, p=0.96, half="left"), five), (24, 22), (13, 7))
    assert [e.TYPE for e in events] == ["move", "flag"]
    assert events[0].dice == (2, 5) and not events[0].legal

    four = SeenDie(4, p=0.8, half="left", values=(0.0, 0.18, 0.0, 0.8, 0.0, 0.02))
    events = _player_1_plays((SeenDie(1, p=0.99, half="left"), four), (8, 4))
    assert [e.TYPE for e in events] == ["move", "flag"]
    assert events[0].dice == (1, 4) and events[1].rule == "000 r12"


def test_a_roll_read_as_a_double_and_played_as_the_roll_is_read_again() -> None:
    """Player 1's 62 read as 66, the 2 at 0.96 (s35 clip 3003 at 296 s); he plays
    13/7 13/11. As a play of 66, which he could play in full, it would leave two of
    its four dice unplayed, which players do not do: the second 6 is read again as a
    2. Read at 0.999, the die is believed and the play flagged."""

    def play(p: float) -> list[str]:
        ref, p0 = _player_1_rolls(SeenDie(6, p=0.99, half="left"), SeenDie(6, p=p, half="left"))
        board = tuple(_moved(_moved(p0.boards[1], 13, 7), 13, 11))
        events = ref.see(Sighting(ExactCheckers(Position((p0.boards[0], board), 1))))
        if events and events[-1].TYPE == "move" and events[-1].legal:
            assert sorted(events[-1].dice) == [2, 6]
        return [e.TYPE for e in events]

    assert play(0.96) == ["correction", "move"]
    assert play(0.999) == ["move", "flag"]


def test_a_double_played_with_a_die_left_unplayed_is_flagged_not_read_again() -> None:
    """Player 1's 11 read with a 1 at 0.99 and a 1 at 0.96 (its 2 at 0.03); he plays
    24/23 23/22 6/5, three of the four 1s, the board the same as 24/22 6/5 of a 21.
    A roll read as a double and played as another roll is read again only where the
    play is no part of the double (see above): three of its dice are, the fourth left
    unplayed, an illegal play players make (s60 clip 5602 at 67.6 s). It is flagged.
    The 13/7 13/11 of a 62 read as 66 is still read again."""
    unsure = SeenDie(1, p=0.96, half="left", values=(0.96, 0.03, 0.0025, 0.0025, 0.0025, 0.0025))
    events = _player_1_plays((SeenDie(1, p=0.99, half="left"), unsure), (24, 22), (6, 5))
    assert [e.TYPE for e in events] == ["move", "flag"]
    assert events[0].dice == (1, 1) and not events[0].legal
    assert events[1].rule == "000 r12"


@pytest.mark.parametrize(("p4", "flagged"), [(0.07, True), (0.2, False)])
def test_a_double_with_a_die_left_that_a_roll_one_die_off_plays_weighs_as_a_die_left(
    p4: float, flagged: bool
) -> None:
    """s132 clip 12902 at 35.9 s: player 0's 22, one 2 read at 0.76 with a 4 at 0.07;
    he played 13/11 11/9 6/4, three of the four 2s, the board that of 13/9 6/4 of a
    42. The 4 is a twelfth as likely as the 2: over the twentieth any misread must
    reach beside an illegal play, so the dice were read again as 42 and the play
    recorded; flagged only 7 s later when he put it right. A double played with a die
    left is the roll as read with a die left, as with any roll, and a misread must
    reach ``UNPLAYED_LOG_ODDS`` (0.15) there: flagged. With the 4 at 0.2 (a quarter of
    the 2), the dice are read again."""
    unsure = SeenDie(2, p=0.76, half="left", values=(0.16, 0.76, 0.0, p4, 0.0, 0.01))
    events = _player_1_plays((SeenDie(2, p=1.0, half="left"), unsure), (13, 9), (6, 4))
    if flagged:
        assert [e.TYPE for e in events] == ["move", "flag"]
        assert events[0].dice == (2, 2) and not events[0].legal
        assert events[1].rule == "000 r12"
    else:
        assert [e.TYPE for e in events] == ["correction", "move"]
        assert sorted(events[0].data["dice"]) == [2, 4] and events[1].legal


def test_a_roll_played_with_one_die_left_is_flagged_unless_the_other_roll_is_likely() -> None:
    """Player 1's 61 read unsure, the 6 at 0.72 (its 5 at 0.06) and the 1 at 0.60; he
    plays 13/7, the 6 alone, the 1 left unplayed [000 r12]. The board is 13/8 8/7 of a
    51 too, and the 5 is 1/12 as likely as the 6: more than the 1/20 a misread must
    reach beside an illegal play. But the play is the roll as read with a die left,
    an illegal play players do make, and a checker's trip through both dice of a
    roll one die off landing just there is the coincidence (s62 clip 5802 at 160 s).
    It is flagged. Where the 5 is half as likely as the 6, the dice are read again."""
    one = SeenDie(1, p=0.6, half="left", values=(0.6, 0.1, 0.1, 0.1, 0.05, 0.05))
    six = SeenDie(6, p=0.72, half="left", values=(0.02, 0.05, 0.05, 0.1, 0.06, 0.72))
    ref, p0 = _player_1_rolls(six, one)
    played = Position((p0.boards[0], tuple(_moved(p0.boards[1], 13, 7))), 1)
    events = ref.see(Sighting(ExactCheckers(played)))
    assert [e.TYPE for e in events] == ["move", "flag"]
    assert events[0].dice == (6, 1) and not events[0].legal
    assert events[1].rule == "000 r12"
    likely = SeenDie(6, p=0.6, half="left", values=(0.02, 0.02, 0.03, 0.03, 0.3, 0.6))
    ref, p0 = _player_1_rolls(likely, one)
    events = ref.see(Sighting(ExactCheckers(played)))
    assert [e.TYPE for e in events] == ["correction", "move"]
    assert events[0].data["dice"] in ([5, 1], [1, 5]) and events[1].legal


def test_a_die_left_unplayed_weighs_against_a_roll_two_dice_off_as_a_whole() -> None:
    """Player 1's 43 read unsure, the 3 at 0.79 (its 1 at 0.18) and the 4 at 0.62 (its
    2 at 0.36); he plays 13/10, the 3 alone, the 4 left unplayed [000 r12]. The board
    is 13/11 11/10 of a 21 too, and each die of the 21 is more than 0.15 as likely as
    the one read, but the 21 as a whole is 0.13 as likely as the 43: it is flagged
    (s162 clip 15901 at 179.2 s: taken for the 21 and flagged only when put right).
    Where the 21 is nearly as likely as the 43, the dice are read again."""

    def play(three: SeenDie, four: SeenDie) -> list[Event]:
        ref, p0 = _player_1_rolls(three, four)
        played = Position((p0.boards[0], tuple(_moved(p0.boards[1], 13, 10))), 1)
        return ref.see(Sighting(ExactCheckers(played)))

    three = SeenDie(3, p=0.79, half="left", values=(0.18, 0.02, 0.79, 0.0, 0.01, 0.0))
    four = SeenDie(4, p=0.62, half="left", values=(0.01, 0.36, 0.0, 0.62, 0.01, 0.0))
    events = play(three, four)
    assert [e.TYPE for e in events] == ["move", "flag"]
    assert sorted(events[0].dice) == [3, 4] and not events[0].legal
    assert events[1].rule == "000 r12"

    three = SeenDie(3, p=0.5, half="left", values=(0.45, 0.02, 0.5, 0.0, 0.03, 0.0))
    four = SeenDie(4, p=0.5, half="left", values=(0.01, 0.45, 0.0, 0.5, 0.04, 0.0))
    events = play(three, four)
    assert [e.TYPE for e in events] == ["correction", "move"]
    assert sorted(events[0].data["dice"]) == [1, 2] and events[1].legal


def test_a_play_through_both_dice_of_a_roll_one_die_off_is_a_misread_at_a_sixth() -> None:
    """Player 1's 41 read as 45, the 1 read as a 5 at 0.82 (its 1 at 0.13) on every
    view; he plays 13/12 12/8, the board of 13/8 of the 45 with its 4 left unplayed.
    The 1 is 0.16 times as likely as the 5: over ``UNPLAYED_LOG_ODDS`` (0.15), the dice
    are read again and the play recorded, not flagged (s75 clip 7202 at 295.5 s, and
    s71 clip 6701 at 369.8 s at 0.17). At a twelfth (s62 clip 5802) it is flagged."""
    four = SeenDie(4, p=0.99, half="left")
    five = SeenDie(5, p=0.82, half="left", values=(0.13, 0.01, 0.02, 0.01, 0.82, 0.01))
    ref, p0 = _player_1_rolls(four, five)
    played = Position((p0.boards[0], tuple(_moved(p0.boards[1], 13, 8))), 1)
    events = ref.see(Sighting(ExactCheckers(played)))
    assert [e.TYPE for e in events] == ["correction", "move"]
    assert sorted(events[0].data["dice"]) == [1, 4] and events[1].legal


def test_a_roll_made_where_the_movers_dice_lay_is_a_new_roll_not_his_read_again() -> None:
    """Player 1's 43 read surely (the 4 at 0.88, its 2 at 0.11) where it lay; he plays
    it and lifts his dice unseen, and player 0 rolls 62 in player 1's half, its dice a
    centimetre from where the 43 lay, read at 0.98 and 0.93. Both dice read surely as
    other numbers than two read surely are a new roll, not the 43 read again (s61 clip
    5702 at 315 s: the 43 put right to 62, its play flagged and the invalid roll
    missed). One die read again so is still the roll read again (s17 clip 1202), and
    both with the board unmoved are too (``test_referee_camera_misses``, s35 clip
    3004)."""
    half = "left"  # player 1's right half
    three = SeenDie(3, p=1.0, half=half, at=(-20.2, -11.2))
    four = SeenDie(4, p=0.88, half=half, at=(-15.2, 7.2), values=(0.01, 0.11, 0.0, 0.88, 0.0, 0.0))
    ref, p0 = _player_1_rolls(three, four)
    assert ref.state.dice == (3, 4) and ref.state.on_roll == 1
    played = Position((p0.boards[0], tuple(_moved(_moved(p0.boards[1], 24, 21), 24, 20))), 1)
    theirs = (
        SeenDie(6, p=0.93, half=half, at=(-18.6, -10.8)),
        SeenDie(2, p=0.98, half=half, at=(-15.5, 7.4)),
    )
    events = ref.see(Sighting(ExactCheckers(played), dice=theirs))
    assert [e.TYPE for e in events] == ["move", "roll_invalid"]
    assert events[0].legal and events[0].dice == (3, 4)
    assert events[1].player == 0 and events[1].reasons == ("wrong_half",)
    # one die read again as another number where it lay is his roll read again
    ref, p0 = _player_1_rolls(three, SeenDie(5, p=0.96, half=half, at=(-15.2, 7.2)))
    again = (three, SeenDie(4, p=0.99, half=half, at=(-15.4, 7.3)))
    events = ref.see(Sighting(ExactCheckers(played), dice=again))
    assert [e.TYPE for e in events] == ["correction"] and sorted(events[0].data["dice"]) == [3, 4]
    assert sorted(ref.state.dice or ()) == [3, 4] and ref.state.on_roll == 1


def test_a_flagged_play_put_right_as_a_play_of_another_roll_reads_the_dice_again() -> None:
    """Player 1's 62 read as 65, the 5 at 0.85; he plays 13/9 13/7, illegal with
    either, and is flagged. He puts it right as 13/11 13/7: illegal with the 65,
    legal with the 62. A die read at 0.85 is the 2 with 0.03, under 1/20 of the 5, so
    a first play like it is flagged (see above); but a second illegal play in a row,
    after the flag, is the rarer (s35 clip 3003 at 25 s): the die is read again."""
    ref, p0 = _player_1_rolls(SeenDie(6, p=0.95, half="left"), SeenDie(5, p=0.85, half="left"))
    first = Position((p0.boards[0], tuple(_moved(_moved(p0.boards[1], 13, 7), 13, 9))), 1)
    assert [e.TYPE for e in ref.see(Sighting(ExactCheckers(first)))] == ["move", "flag"]
    right = Position((p0.boards[0], tuple(_moved(_moved(p0.boards[1], 13, 7), 13, 11))), 1)
    events = ref.see(Sighting(ExactCheckers(right)))
    assert [e.TYPE for e in events] == ["flag_cleared", "correction", "move"]
    assert events[1].data["action"] == "reread_dice" and events[1].data["dice"] == [6, 2]
    assert events[2].legal and events[2].dice == (6, 2) and ref.flag is None
    assert Referee.resume(ref.config, ref.events).state == ref.state


def test_invalid_rolls_by_profile() -> None:
    wbf = Referee(RefereeConfig(profile="wbf", match_length=3))
    konstanz = Referee(RefereeConfig(profile="konstanz"))
    both_left = [SeenDie(3, half="left"), SeenDie(5, half="left")]
    split = [SeenDie(3, half="left"), SeenDie(5, half="right")]
    assert wbf.roll_faults(0, both_left) == ["wrong_half"]  # player 0's right is "right"
    assert wbf.roll_faults(1, both_left) == []
    assert konstanz.roll_faults(0, both_left) == []
    assert konstanz.roll_faults(0, split) == ["different_halves"]
    assert wbf.roll_faults(0, [SeenDie(3, cocked=0.9), SeenDie(5)]) == ["cocked"]
    assert wbf.roll_faults(0, [SeenDie(3, on_checker=0.8), SeenDie(5)]) == ["on_checker"]
    assert wbf.roll_faults(0, [SeenDie(3, half=None), SeenDie(5)]) == ["off_board"]


def _crawford_game_after_the_opening_play() -> tuple[Referee, Position, SeenCube]:
    """The Crawford game of a 3-point match, the opening roll (31) played, the cube
    in the middle."""
    ref = Referee(RefereeConfig(match_length=3, score=(2, 0), game=2, crawford=True))
    start = Position.initial()
    cube = SeenCube(64, "centre")
    ref.see(Sighting(ExactCheckers(start), cube=cube))
    ref.see(
        Sighting(
            ExactCheckers(start),
            dice=(SeenDie(3, half="right"), SeenDie(1, half="left")),
            cube=cube,
        )
    )
    played = Position.from_position_id("4HPwATCwZ/ABMA")
    ref.see(Sighting(ExactCheckers(played), cube=cube))
    return ref, played, cube


def test_a_double_in_the_crawford_game_is_flagged() -> None:
    ref, played, _ = _crawford_game_after_the_opening_play()
    events = ref.see(Sighting(ExactCheckers(played), cube=SeenCube(2, "offered")))
    assert [e.TYPE for e in events] == ["flag"]
    assert events[0].kind == "illegal_double" and events[0].rule == "001 4.4(i),(iv)"


def test_a_cube_back_from_away_offered_in_the_crawford_game_is_flagged_if_seen_again() -> None:
    """The Crawford game, the cube set aside (no view shows it): a cube seen offered
    in one view alone, then gone, was a die or two boxed as the cube (s75 clip 7201 at
    685.7 s: a 1 and a cocked 4 leaning on it): no illegal double is flagged. Seen
    again on the next view, on offer or taken, it was the cube, and the illegal double
    is flagged then [001 4.4(i),(iv)]."""
    ref, played, _ = _crawford_game_after_the_opening_play()
    for _ in range(4):
        assert ref.see(Sighting(ExactCheckers(played))) == []  # the cube set aside
    offered = SeenCube(64, "offered", p=0.4)
    assert ref.see(Sighting(ExactCheckers(played), cube=offered)) == []
    assert ref.see(Sighting(ExactCheckers(played))) == []
    assert ref.flag is None and ref.state.phase is Phase.ROLL and ref.state.on_roll == 1
    assert ref.see(Sighting(ExactCheckers(played), cube=offered)) == []
    events = ref.see(Sighting(ExactCheckers(played), cube=SeenCube(2, "offered")))
    assert [e.TYPE for e in events] == ["flag"] and events[0].kind == "illegal_double"
    assert events[0].player == 1 and events[0].rule == "001 4.4(i),(iv)"


def test_a_cube_offered_beside_one_die_of_the_roll_is_that_die() -> None:
    """s56 clip 5101 at 699 s: in the Crawford game, player 1 rolled 42; the 2 was
    boxed as the cube and, lying in the field, read as a cube offered beside the 4.
    A double comes before the roll [001 4.4]: one die down and a cube offered is the
    roll's other die, not a double to flag. Both dice seen, the roll stands."""
    ref, played, cube = _crawford_game_after_the_opening_play()
    assert ref.state.on_roll == 1
    half = ref.right_half(1)
    four = SeenDie(4, half=half, at=(-20.0, 3.0))
    as_cube = SeenCube(2, "offered", p=0.3)
    for _ in range(2):
        assert ref.see(Sighting(ExactCheckers(played), dice=(four,), cube=as_cube)) == []
    two = SeenDie(2, half=half, at=(-25.0, 3.0))
    events = ref.see(Sighting(ExactCheckers(played), dice=(four, two), cube=cube))
    assert [e.TYPE for e in events] == ["roll"] and events[0].dice == (4, 2)
    # and while he plays it (s56 clip 5101 at 769 s), no double after rolling either
    assert ref.see(Sighting(ExactCheckers(played), dice=(four,), cube=as_cube)) == []
    assert ref.flag is None and ref.state.phase is Phase.MOVE


def test_describe_and_classify_illegal_plays() -> None:
    start = Position.initial()
    early = Position((tuple(_off(start.boards[0], 6)), start.boards[1]), 0)
    assert describe_change(start, early) == "6/0"
    assert broken_rule(start, (6, 4), early) == "000 r16"
    short = Position((tuple(_moved(start.boards[0], 13, 11)), start.boards[1]), 0)
    assert broken_rule(start, (6, 2), short) == "000 r12"
    assert broken_rule(start, (6, 2), None) == "000 r13"


def _off(board: tuple[int, ...], src: int) -> list[int]:
    out = list(board)
    out[src - 1] -= 1
    return out


def test_eval_referee_cli_prints_the_figures(testbed: Path) -> None:
    result = CliRunner().invoke(
        app, ["eval", "referee", str(testbed), "--vision", "truth", "--json"]
    )
    assert result.exit_code == 0, result.output
    fig = json.loads(result.stdout[result.stdout.index("{") :])
    assert fig["plays_exact_pct"] == 100.0 and fig["flag_recall_pct"] == 100.0
    assert fig["invalid_false_alarm_pct"] == 0.0 and fig["vision"] == "truth"


def test_eval_referee_keeps_our_event_log_of_each_clip(testbed: Path, tmp_path: Path) -> None:
    keep = tmp_path / "kept"
    result = CliRunner().invoke(
        app, ["eval", "referee", str(testbed), "--vision", "truth", "--keep", str(keep)]
    )
    assert result.exit_code == 0, result.output
    ours, problems = read_event_log((keep / testbed.name / "events.jsonl").read_text("utf-8"))
    assert not problems and any(isinstance(e, MoveEvent) for e in ours)
    decided = [json.loads(line) for line in (keep / testbed.name / "decided.jsonl").open()]
    seqs = {e.seq for e in ours}
    assert decided and all(d["seq"] in seqs and d["at"] >= 0 for d in decided)


def test_eval_referee_refuses_a_folder_without_clips(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["eval", "referee", str(tmp_path), "--vision", "truth"])
    assert result.exit_code != 0 and "no rendered clip" in result.output


def test_eval_referee_says_a_truth_only_clip_has_no_frames_to_read(testbed: Path) -> None:
    result = CliRunner().invoke(app, ["eval", "referee", str(testbed), "--vision", "camera"])
    assert result.exit_code != 0 and "holds no frames" in result.output
    assert "try --vision truth" in result.output and "Traceback" not in result.output


def _opening_frames(folder: Path, copies: int) -> Path:
    """``copies`` identical renders of the opening (no hands, no dice), a still table."""
    import cv2
    import numpy as np

    from gammoneye.datasets.render.draw import Renderer
    from gammoneye.datasets.render.sampling import sample_scene
    from gammoneye.datasets.render.styles import style_named

    rng = np.random.default_rng([4242, 0])
    scene = sample_scene(rng, Position.initial(), "opening", style=style_named("casino_red_felt"))
    scene = replace(scene, hands=(), dice=())
    image = Renderer().render(scene).image
    folder.mkdir(parents=True)
    for i in range(copies):
        cv2.imwrite(str(folder / f"{i:06d}.png"), image)
    return folder


@pytest.mark.parametrize("calibrated", [True, False])
def test_referee_cli_reads_frames_and_writes_the_match(tmp_path: Path, calibrated: bool) -> None:
    """The camera path end to end: gate, reader (with a calibration file, or finding the
    field), stabiliser, referee, journal and files. The opening layout starts a game."""
    frames = _opening_frames(tmp_path / "frames", 6)
    args = ["referee", str(frames), "--out", str(tmp_path / "out"), "--match-length", "3"]
    if calibrated:
        import cv2

        from gammoneye.calibration.find import find_field
        from gammoneye.calibration.profile import CalibrationProfile

        image = cv2.imread(str(frames / "000000.png"))
        found = find_field(image)
        assert found is not None
        profile = CalibrationProfile.from_corners(
            found.corners_px, (image.shape[1], image.shape[0]), long_side_first=True
        )
        (tmp_path / "cal.json").write_text(profile.to_json())
        args += ["--calibration", str(tmp_path / "cal.json")]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    lines = (tmp_path / "out" / "events.jsonl").read_text().splitlines()
    assert [json.loads(line)["type"] for line in lines] == ["match_start", "game_start"]
    assert (tmp_path / "out" / "journal.sqlite").is_file()


def _opening_with_dice_image() -> np.ndarray:
    """A render of the opening layout with four dice lying on the field, no hands."""
    from gammoneye.datasets.render.draw import Renderer
    from gammoneye.datasets.render.sampling import sample_scene
    from gammoneye.datasets.render.styles import style_named

    rng = np.random.default_rng([4242, 3])
    scene = sample_scene(rng, Position.initial(), "opening", style=style_named("casino_red_felt"))
    return Renderer().render(replace(scene, hands=())).image


def test_the_camera_eyes_weigh_how_surely_each_die_they_see_is_read() -> None:
    eyes = CameraEyes(0)
    seen = eyes.look(Frame(0, 0.0, _opening_with_dice_image()))
    assert seen is not None and len(seen.dice) == 4
    confidence = eyes.dice_confidence
    assert confidence.seen == 4
    assert confidence.overall == pytest.approx(sum(d.p for d in seen.dice) / 4, abs=1e-6)
    assert confidence.mean is None  # too few dice yet to tell the players anything
    assert eyes.unsure_looks == 0


def test_referee_cli_tells_the_players_when_the_dice_are_read_unsurely(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Dice read less surely than ``UNSURE_MEAN`` on average are said on the terminal
    as they are read; here every read counts as unsure."""
    import cv2

    import gammoneye.vision.dice as dice

    monkeypatch.setattr(dice, "UNSURE_MEAN", 1.01)
    monkeypatch.setattr(dice, "CONFIDENCE_LEAST", 4)
    frames = tmp_path / "frames"
    frames.mkdir()
    image = _opening_with_dice_image()
    for i in range(4):
        cv2.imwrite(str(frames / f"{i:06d}.png"), image)
    args = ["referee", str(frames), "--out", str(tmp_path / "out"), "--match-length", "3"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    said = "the dice are read unsurely (mean 1.00 over the last 4 dice read; 1.01 or more"
    assert f"frame 1: {said}" in result.output  # the first settled reading
    assert result.output.count("read unsurely") == 1  # said once, not every frame


class _FlickeringEyes:
    """A still table at the opening, then both opening dice down; the detector finds
    the small die in only some frames, and not in the first ones."""

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern  # per frame: "0" no dice yet, "1" one die found, "2" both
        self.looked = 0

    def settled(self, frame: Frame, between_games: bool = False) -> bool:
        # the dice thrown between frames 2 and 3: the table moved
        return int(frame.ref) != 3

    def look(self, frame: Frame) -> Sighting:
        self.looked += 1
        board = ExactCheckers(Position.initial())
        big, small = SeenDie(4, half="right"), SeenDie(1, half="left")
        i = int(frame.ref)
        dice = ((), (big,), (big, small))[int(self.pattern[i])]
        return Sighting(board, dice, t=i / 10, frame=i)


@pytest.mark.parametrize(
    "pattern",
    [
        "0001112121211111111",
        # s142 clip 13902 at 18.3 s: a roll's second die, touching the first, found in
        # half the frames from 0.5 s after the view of the first alone was passed
        "0001111111121211111111",
    ],
)
def test_a_die_found_in_later_frames_of_a_still_table_is_seen(pattern: str) -> None:
    eyes = _FlickeringEyes(pattern)
    ref = Referee(RefereeConfig(match_length=5), t=0.0)
    frames = [Frame(i, i / 10, None) for i in range(len(eyes.pattern))]
    run_referee(frames, eyes, ref, realtime=False)  # type: ignore[arg-type]
    rolls = [e for e in ref.events if e.TYPE == "opening_roll"]
    assert [sorted(e.dice) for e in rolls] == [[1, 4]]
    # looking again is bounded: the table was read a few frames after each view only
    assert eyes.looked < len(eyes.pattern)


class _UnsureEyes:
    """A still table at the opening, then both opening dice down, small: each frame
    reads them differently, no two frames alike (s26fix clip 2101 at 258 s, s31 clip
    2603 at 162 s)."""

    READS = (
        ((5, 0.6), (2, 0.6)),
        ((3, 0.55), None),  # the small die not found at all
        ((5, 0.7), (6, 0.55)),
        ((5, 0.4), (2, 0.6)),
    )

    def settled(self, frame: Frame, between_games: bool = False) -> bool:
        return int(frame.ref) != 3  # the dice thrown between frames 2 and 3

    def look(self, frame: Frame) -> Sighting:
        board = ExactCheckers(Position.initial())
        i = int(frame.ref)
        if i < 3:
            return Sighting(board, t=i / 10, frame=i)
        big, small = self.READS[(i - 4) % len(self.READS)]
        dice = [SeenDie(big[0], big[1], half="right", at=(20.0, 0.0))]
        if small is not None:
            dice.append(SeenDie(small[0], small[1], half="left", at=(-20.0, 0.3 * (i % 2))))
        return Sighting(board, tuple(dice), t=i / 10, frame=i)


def test_dice_whose_numbers_flicker_are_read_from_four_still_frames() -> None:
    """No two frames agree on the dice: their numbers flicker and the small die is
    missed in one. After FUSE_FRAMES such frames of one still table the view is
    passed on, each die followed by its place and its number read from the frames
    that found it (the mean of each face's probability)."""
    from gammoneye.service.referee import FUSE_FRAMES

    frames = [Frame(i, i / 10, None) for i in range(4 + 2 * FUSE_FRAMES)]
    ref = Referee(RefereeConfig(match_length=5), t=0.0)
    run_referee(frames, _UnsureEyes(), ref, realtime=False)  # type: ignore[arg-type]
    rolls = [e for e in ref.events if e.TYPE == "opening_roll"]
    assert [sorted(e.dice) for e in rolls] == [[2, 5]]
    assert rolls[0].t == pytest.approx((4 + FUSE_FRAMES - 1) / 10)  # no sooner


class _CubeFlickerEyes:
    """A still table after the dice were lifted, the cube taken at 2 on the bottom
    player's side; the cube reader's surety of the 2 flickers frame by frame."""

    def __init__(self, reads: list[tuple[int, float]]) -> None:
        self.reads = reads  # per frame after the first (the table moving): face, p

    def settled(self, frame: Frame, between_games: bool = False) -> bool:
        return int(frame.ref) != 0

    def look(self, frame: Frame) -> Sighting:
        i = int(frame.ref)
        value, p = self.reads[i - 1]
        cube = SeenCube(value, "bottom", p)
        return Sighting(ExactCheckers(Position.initial()), (), cube, t=i / 10, frame=i)


class _Views:
    """Stands in for the referee: keeps the views passed to it."""

    def __init__(self) -> None:
        self.state = Referee(RefereeConfig(match_length=5)).state
        self.events: list[Event] = []
        self.seen: list[Sighting] = []

    def see(self, sighting: Sighting) -> list[Event]:
        self.seen.append(sighting)
        return []


def test_a_cube_read_surely_then_unsurely_on_a_still_table_keeps_its_face() -> None:
    """The cube reader reads the cube's 2 surely, then unsurely (s76 clip 7301 at
    177.7 s): the table has not moved, so the second frame shows the cube read
    surely, agrees with the first, and the view is passed a frame sooner (there a
    flag 0.55 s after the dice were lifted, over the 0.5 s allowed)."""
    from gammoneye.engine.referee import SURE_CUBE_FACE

    sure, unsure = SURE_CUBE_FACE + 0.05, SURE_CUBE_FACE - 0.1
    frames = [Frame(i, i / 10, None) for i in range(4)]
    views = _Views()
    step = RefereeStep(_CubeFlickerEyes([(2, sure), (2, unsure), (2, unsure)]), views)  # type: ignore[arg-type]
    for f in frames:
        step(f)
    assert [v.frame for v in views.seen] == [2]
    assert views.seen[0].cube == SeenCube(2, "bottom") and views.seen[0].cube.p == sure
    # an unsure read of another face is no such cube: the view waits for two alike
    views = _Views()
    step = RefereeStep(_CubeFlickerEyes([(2, sure), (4, unsure), (4, unsure)]), views)  # type: ignore[arg-type]
    for f in frames:
        step(f)
    assert [v.frame for v in views.seen] == [3]
    assert views.seen[0].cube is not None and views.seen[0].cube.p == unsure
    # nor is a cube read surely before the table last moved
    views = _Views()
    eyes = _CubeFlickerEyes([(2, sure), (2, unsure), (2, unsure), (2, unsure), (2, unsure)])
    step = RefereeStep(eyes, views)  # type: ignore[arg-type]
    for i in (0, 1, 0, 3, 4):  # frame 0 again: the table moved after frame 1
        step(Frame(i, i / 10, None))
    assert [v.frame for v in views.seen] == [4] and views.seen[0].cube.p == unsure


class _PlayThenStillEyes:
    """The table from frame 0: moving (a play being made, the dice lifted), then the
    board after it, still; every frame is read as ``after``."""

    def __init__(self, after: Position, moving: int) -> None:
        self.after, self.moving = after, moving

    def settled(self, frame: Frame, between_games: bool = False) -> bool:
        return int(frame.ref) >= self.moving

    def look(self, frame: Frame) -> Sighting:
        i = int(frame.ref)
        return Sighting(ExactCheckers(self.after), t=i / 10, frame=i)


def test_a_resignation_waits_for_the_camera_to_see_the_play_before_it() -> None:
    """The last play is made and the dice lifted; half a second later, before the
    camera's view of the play has settled, the observer says the other player
    resigns (the rendered clips' timing; s76 clip 7304 at 336.1 s). The play is
    recorded first, then the resignation ends the game; an observer's event that the
    camera never catches up with is applied ``OBSERVER_WAIT_S`` after it came."""
    from gammoneye.engine.events import ResignAcceptEvent, ResignEvent
    from gammoneye.engine.moves import legal_plays
    from gammoneye.service.referee import OBSERVER_WAIT_S

    def opened() -> tuple[Referee, Position]:
        ref = Referee(RefereeConfig(match_length=5), t=0.0)
        board = ExactCheckers(Position.initial())
        ref.see(Sighting(board))
        dice = (SeenDie(4, half="right", at=(20.0, 0.0)), SeenDie(1, half="left", at=(-20.0, 0.0)))
        ref.see(Sighting(board, dice))
        state = ref.state
        assert state.phase is Phase.MOVE and state.dice is not None
        after = next(iter(legal_plays(state.position, state.dice)))
        return ref, after

    ref, after = opened()
    mover = ref.state.on_roll
    resign = [
        ResignEvent(seq=0, source="observer", player=1 - mover, level=1, t=0.75),
        ResignAcceptEvent(seq=0, source="observer", player=mover, t=0.75),
    ]
    # moving until frame 7 (0.7 s); the view settles at frame 8 and is passed at 9
    frames = [Frame(i, i / 10, None) for i in range(20)]
    run_referee(frames, _PlayThenStillEyes(after, 7), ref, observer=resign, realtime=False)  # type: ignore[arg-type]
    types = [e.TYPE for e in ref.events]
    assert "move" in types and types.index("move") < types.index("resign")
    assert types[-1] == "game_end"
    # a table that never settles: the resignation is applied all the same, in time
    ref, after = opened()
    frames = [Frame(i, i / 10, None) for i in range(40)]
    eyes = _PlayThenStillEyes(after, 99)
    stats = run_referee(frames, eyes, ref, observer=resign, realtime=False)  # type: ignore[arg-type]
    ended = [d.at for d in stats.decisions if d.event.TYPE == "game_end"]
    assert "move" not in [e.TYPE for e in ref.events] and len(ended) == 1
    assert 0.75 + OBSERVER_WAIT_S <= ended[0] < 0.75 + OBSERVER_WAIT_S + 0.1


def test_the_first_game_starts_with_a_die_lying_about() -> None:
    """The match's first view shows the opening layout and something read as a die on
    the bar (s32 clip 2703: the cube just put there, read a 2 at 0.96), and no view
    without it comes before the opening roll: the game starts all the same, and the
    opening roll then seen is recorded. Between games it is otherwise: dice that are
    no opening roll may be the last game's, and the next game waits for the board."""
    ref = Referee(RefereeConfig(match_length=5))
    board = ExactCheckers(Position.initial())
    bar = SeenDie(2, 0.96, half="bar", at=(0.0, 7.0))
    assert [e.TYPE for e in ref.see(Sighting(board, (bar,)))] == ["game_start"]
    opening = (SeenDie(5, half="right", at=(20.0, 0.0)), SeenDie(2, half="left", at=(-20.0, 0.0)))
    events = ref.see(Sighting(board, (*opening, bar)))
    assert [e.TYPE for e in events] == ["opening_roll"] and events[0].dice == (5, 2)


class _FailingOnce(Referee):
    """A referee that fails part way through judging its first view with dice (a
    fault of its own), after emitting an event."""

    failed = False

    def see(self, sighting: Sighting) -> list[Event]:
        if sighting.dice and not self.failed:
            self.failed = True
            self._emit(RollEvent, player=0, dice=(4, 1))
            raise RuntimeError("a fault in judging")
        return super().see(sighting)


def test_a_view_the_referee_fails_to_judge_is_skipped_and_the_match_goes_on() -> None:
    eyes = _FlickeringEyes("0001112121211111111")
    ref = _FailingOnce(RefereeConfig(match_length=5), t=0.0)
    frames = [Frame(i, i / 10, None) for i in range(len(eyes.pattern))]
    stats = run_referee(frames, eyes, ref, realtime=False)  # type: ignore[arg-type]
    assert ref.failed and len(stats.refused) == 1
    assert "view not judged (RuntimeError: a fault in judging)" in stats.refused[0]
    # the half-judged view left nothing behind: the record replays, the referee as it
    assert "roll" not in [e.TYPE for e in ref.events]
    assert Referee.resume(ref.config, ref.events).state == ref.state
    # and the views after it are judged: both opening dice, seen later
    assert [sorted(e.dice) for e in ref.events if e.TYPE == "opening_roll"] == [[1, 4]]


def test_real_time_takes_the_newest_frame_the_moment_the_loop_is_free(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """At real-time playback the loop behaves as behind the service's grabber, which
    keeps the newest frame: a frame that came while the loop was busy is judged as
    soon as it is free (not the next frame to arrive after that), one overtaken by a
    newer frame is dropped, and a decision is timed when its frame's judging ended.
    Frames every 0.125 s, each judged in 0.1875 s (binary fractions: exact)."""
    import types

    import gammoneye.service.referee as loop

    clock = [0.0]
    judged: list[int] = []

    def step(self: object, frame: Frame) -> list[object]:
        judged.append(int(frame.ref))
        clock[0] += 0.1875
        return ["decided"] if frame.ref == 2 else []

    monkeypatch.setattr(loop.RefereeStep, "__call__", step)
    monkeypatch.setattr(loop, "time", types.SimpleNamespace(perf_counter=lambda: clock[0]))
    frames = [Frame(i, i * 0.125, None) for i in range(8)]
    stats = run_referee(frames, None, None, realtime=True)  # type: ignore[arg-type]
    assert judged == [0, 1, 2, 4, 5, 7]
    assert stats.dropped == 2 and stats.frames == 6
    # frame 2 (t 0.25) waited for frame 1, taken at 0.375, judged by 0.5625
    assert [d.at for d in stats.decisions] == [0.5625]
    judged.clear()
    stats = run_referee(frames, None, None, realtime=False)  # type: ignore[arg-type]
    assert judged == list(range(8)) and stats.dropped == 0
    assert [d.at for d in stats.decisions] == [0.25]


class _ScriptEyes:
    """Frame ``i`` shows ``script[i]``: a sighting on a still table, or ``None`` while
    the table moves."""

    def __init__(self, script: list[Sighting | None]) -> None:
        self.script = script

    def settled(self, frame: Frame, between_games: bool = False) -> bool:
        return self.script[int(frame.ref)] is not None

    def look(self, frame: Frame) -> Sighting | None:
        return self.script[int(frame.ref)]


def test_dice_lifted_off_the_board_last_seen_are_judged_on_the_first_still_frame() -> None:
    """The play made, the table still with the dice on it (a view passed), the dice
    lifted: the first still frame that shows the same checkers and no dice is the
    turn's end, judged at once (the checkers already held over the frames before the
    dice were lifted). A board that changed with them waits for two frames alike, and
    so does everything with ``LIFTED_AT_ONCE`` off."""
    import gammoneye.service.referee as loop
    from gammoneye.engine.events import MoveEvent
    from gammoneye.engine.moves import legal_plays

    start = ExactCheckers(Position.initial())
    dice = (SeenDie(4, half="right", at=(20.0, 0.0)), SeenDie(1, half="left", at=(-20.0, 0.0)))

    def played(after_lift: Position | None) -> tuple[Referee, list[float]]:
        ref = Referee(RefereeConfig(match_length=5), t=0.0)
        ref.see(Sighting(start))
        ref.see(Sighting(start, dice))  # the opening roll: 41
        state = ref.state
        assert state.phase is Phase.MOVE and state.dice is not None
        after = next(iter(legal_plays(state.position, state.dice)))
        board = ExactCheckers(after)
        lifted = ExactCheckers(after if after_lift is None else after_lift)
        script: list[Sighting | None] = [None, Sighting(board, dice), Sighting(board, dice)]
        script += [None, Sighting(lifted), Sighting(lifted), Sighting(lifted)]
        step = RefereeStep(_ScriptEyes(script), ref)  # type: ignore[arg-type]
        moved = []
        for i in range(len(script)):
            if any(isinstance(e, MoveEvent) for e in step(Frame(i, i / 10, None))):
                moved.append(i / 10)
        return ref, moved

    ref, moved = played(None)
    assert moved == [0.4] and ref.state.phase is Phase.ROLL
    try:
        loop.LIFTED_AT_ONCE = False
        _, moved = played(None)
        assert moved == [0.5]
    finally:
        loop.LIFTED_AT_ONCE = True
    # a checker moved as the dice were lifted: the new board waits for a second frame
    ref0 = Referee(RefereeConfig(match_length=5), t=0.0)
    ref0.see(Sighting(start))
    ref0.see(Sighting(start, dice))
    state = ref0.state
    assert state.dice is not None
    other = list(legal_plays(state.position, state.dice))[1]
    _, moved = played(other)
    assert moved == [0.5]


@pytest.mark.parametrize(
    ("stray", "at_once"),
    [
        (SeenDie(3, p=0.62, half="left", at=(-7.0, 18.0)), True),
        # read surely: a die, not a checker's ring; it waits for frames alike
        (SeenDie(3, p=0.95, half="left", at=(-7.0, 18.0)), False),
        # where a die of the roll lay: a die of the roll still down
        (SeenDie(3, p=0.62, half="left", at=(-20.5, 0.5)), False),
    ],
)
def test_dice_lifted_beside_a_checker_ring_read_as_a_die_are_judged_on_the_first_still_frame(
    stray: SeenDie, at_once: bool
) -> None:
    """The dice lifted, and a checker's ring read as a lone die, unsure, its number
    flickering from frame to frame where no die of the roll lay: no two frames agree,
    yet the turn's end is judged on the first (s194 clip 19102 at 35.1 s: a white
    checker's ring read as a 3 at 0.62, then as a 1 at 0.52; its illegal play was
    flagged four frames after the dice were lifted, 0.54 s). A die read surely, or one
    lying where a die of the roll lay, waits, as does everything with
    ``LIFTED_STRAY_DIE`` off."""
    import gammoneye.service.referee as loop
    from gammoneye.engine.events import MoveEvent
    from gammoneye.engine.moves import legal_plays

    start = ExactCheckers(Position.initial())
    dice = (SeenDie(4, half="right", at=(20.0, 0.0)), SeenDie(1, half="left", at=(-20.0, 0.0)))

    def played() -> list[float]:
        ref = Referee(RefereeConfig(match_length=5), t=0.0)
        ref.see(Sighting(start))
        ref.see(Sighting(start, dice))  # the opening roll: 41
        state = ref.state
        assert state.phase is Phase.MOVE and state.dice is not None
        board = ExactCheckers(next(iter(legal_plays(state.position, state.dice))))
        flicker = [stray, replace(stray, value=1, p=stray.p - 0.1), None, stray]
        script: list[Sighting | None] = [None, Sighting(board, dice), Sighting(board, dice)]
        script += [None] + [Sighting(board, () if d is None else (d,)) for d in flicker]
        step = RefereeStep(_ScriptEyes(script), ref)  # type: ignore[arg-type]
        moved = []
        for i in range(len(script)):
            if any(isinstance(e, MoveEvent) for e in step(Frame(i, i / 10, None))):
                moved.append(i / 10)
        assert ref.state.phase is Phase.ROLL
        return moved

    assert played() == ([0.4] if at_once else [0.6])
    try:
        loop.LIFTED_STRAY_DIE = False
        assert played() == [0.6]
    finally:
        loop.LIFTED_STRAY_DIE = True


def test_the_eyes_tell_the_moving_frame_an_arm_has_just_left() -> None:
    """The frame that moved because an arm withdrew (none in it, one in the frame
    before) is told apart (``arm_left``): the table may be still from the next frame.
    A frame still moving with the arm in it, or moving with no arm before it either
    (dice tumbling), is not."""
    field = [[400, 200], [880, 200], [880, 520], [400, 520]]
    eyes = CameraEyes(0, field, reader=object())
    table = np.full((720, 1280, 3), 60, np.uint8)
    table[170:550, 370:910] = 150
    arm, arm2 = table.copy(), table.copy()
    arm[300:340, 0:700] = 200
    arm2[320:360, 0:650] = 200
    die = table.copy()
    die[300:312, 500:512] = 250
    left = []
    for i, picture in enumerate([table, table, arm, arm2, table, table, die, table]):
        eyes.settled(Frame(i, i / 10, picture))
        left.append(eyes.arm_left)
    assert left == [False, False, False, False, True, False, False, False]


class _ArmEyes(CameraEyes):
    """Camera eyes whose frames are scripted: ``None`` a frame the arm just left (the
    table moving), else a sighting on a still table; each picture read ahead kept."""

    def __init__(self, script: list[Sighting | None]) -> None:
        super().__init__(0, reader=object())
        self.script, self.ahead = script, []

    def settled(self, frame: Frame, *, between_games: bool = False) -> bool:
        self.arm_left = self.script[int(frame.ref)] is None
        return not self.arm_left

    def look(self, frame: Frame) -> Sighting | None:
        return self.script[int(frame.ref)]

    def prepare(self, frame: Frame) -> None:
        self.ahead.append(frame.ref)


def test_the_picture_an_arm_just_left_is_read_ahead_while_the_mover_is_to_play() -> None:
    """The dice lifted, the arm withdrawn: that frame is read ahead of the still ones
    (``READ_AHEAD``, :meth:`CameraEyes.prepare`) while the mover is to play, so that
    the next, showing the same, is read from what the reader kept. Not before the
    roll (nothing to flag then), nor with ``READ_AHEAD`` off."""
    import gammoneye.service.referee as loop

    start = ExactCheckers(Position.initial())
    dice = (SeenDie(4, half="right", at=(20.0, 0.0)), SeenDie(1, half="left", at=(-20.0, 0.0)))
    ref = Referee(RefereeConfig(match_length=5), t=0.0)
    script: list[Sighting | None] = [None, Sighting(start), Sighting(start), None]
    script += [Sighting(start, dice), Sighting(start, dice), None]
    eyes = _ArmEyes(script)
    step = RefereeStep(eyes, ref)
    for i in range(len(script)):
        step(Frame(i, i / 10, None))
        if i == 3:
            assert ref.state.phase is Phase.START and eyes.ahead == []
    assert ref.state.phase is Phase.MOVE and eyes.ahead == [6]
    try:
        loop.READ_AHEAD = False
        step(Frame(6, 0.7, None))
        assert eyes.ahead == [6]
    finally:
        loop.READ_AHEAD = True
    step(Frame(6, 0.8, None))
    assert eyes.ahead == [6, 6]
