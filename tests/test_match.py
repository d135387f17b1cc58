"""MatchState: the match's rules (RULES.md §5-6) as a state machine, checked against GNU Backgammon.

The recorded sequences were played in GNU Backgammon 1.07.001 with both players human
and automatic rolls, moves and games off (``gnubg -t -q -r -p script.py``; after each
command the script printed ``gnubg.matchid()`` and ``gnubg.positionid()``). gnubg is
player 0 and "root" player 1; gnubg's ``resign`` is made by the player on roll.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gammoneye.engine.match import (
    GameResult,
    MatchRuleError,
    MatchState,
    Phase,
    Resignation,
    RuleCode,
)
from gammoneye.engine.matchid import GameState, decode_match_id, encode_match_id
from gammoneye.engine.moves import legal_plays, play_result
from gammoneye.engine.position import Position
from gammoneye.engine.rules import KONSTANZ, WBF

from boards import make_position

START_ID = "4HPwATDgc/ABMA"


def apply(state: MatchState, step: str) -> MatchState:
    """Run one step written as text; ``;`` chains several.

    ``opening D0 D1`` (player 0's die first), ``roll D1 D2``, ``play MOVES``, ``double``,
    ``take``, ``drop``, ``resign LEVEL`` (by the player on roll), ``accept``, ``reject``,
    ``next`` (next game), ``refused CODE`` (the player on roll may not double: gnubg
    refused too; nothing changes). Test-only edits, standing in for gnubg's ``set``
    commands: ``board POSITION_ID`` and ``dice D1 D2``.
    """
    for part in step.split(";"):
        word, _, rest = part.strip().partition(" ")
        args = rest.split()
        if word == "opening":
            state = state.opening_roll(int(args[0]), int(args[1]))
        elif word == "roll":
            state = state.roll(int(args[0]), int(args[1]))
        elif word == "play":
            assert state.dice is not None
            state = state.play(play_result(state.position, state.dice, rest))
        elif word == "double":
            state = state.double(state.on_roll)
        elif word == "take":
            state = state.take()
        elif word == "drop":
            state = state.drop()
        elif word == "resign":
            state = state.resign(state.on_roll, int(args[0]))
        elif word == "accept":
            state = state.accept_resignation()
        elif word == "reject":
            state = state.reject_resignation()
        elif word == "next":
            state = state.next_game()
        elif word == "refused":
            assert state.can_double(state.on_roll) == args[0]
        elif word == "board":
            state = dataclasses.replace(
                state, position=Position.from_position_id(args[0], turn=state.on_roll)
            )
        elif word == "dice":
            state = dataclasses.replace(state, dice=(int(args[0]), int(args[1])))
        else:
            raise AssertionError(f"unknown step {part!r}")
    return state


# `set seed 7`, `new match 3`, then the commands in the first column. The opening rolls
# were gnubg 1 / root 2, gnubg 5 / root 2 (game 2) and gnubg 3 / root 6 (game 3).
GNUBG_MATCH = [
    ("new match 3", "opening 1 2", "cAllAAAAAAAE", START_ID),
    ("move 13/11 6/5", "play 13/11 6/5", "MAFgAAAAAAAE", "0HPkATDgc/ABMA"),
    ("double", "double", "MBlgAAAAAAAE", "0HPkATDgc/ABMA"),
    ("take", "take", "EQFgAAAAAAAE", "0HPkATDgc/ABMA"),
    ("set dice 6 5", "roll 6 5", "EQF3AAAAAAAE", "0HPkATDgc/ABMA"),
    ("move 24/18 18/13", "play 24/18 18/13", "UQlgAAAAAAAE", "4HPwAyDQc+QBMA"),
    ("double", "double", "URFgAAAAAAAE", "4HPwAyDQc+QBMA"),  # a redouble to 4
    ("drop", "drop", "0QRgAAAAEAAE", "4HPwAyDQc+QBMA"),  # root wins 2: 0-2
    ("new game", "next; opening 5 2", "sIFqAAAAEAAE", START_ID),  # the Crawford game
    # gnubg: "Doubling is forbidden by the Crawford rule"
    ("double", "refused crawford_game", "sIFqAAAAEAAE", START_ID),
    ("resign single", "resign 1", "sKlqAAAAEAAE", START_ID),  # after rolling 5-2
    ("reject", "reject", "sIFqAAAAEAAE", START_ID),
    ("move 13/8 13/11", "play 13/8 13/11", "8AlgAAAAEAAE", "4PPIATDgc/ABMA"),
    ("set dice 3 1", "roll 3 1", "8IllAAAAEAAE", "4PPIATDgc/ABMA"),
    ("resign single", "resign 1", "8KFlAAAAEAAE", "4PPIATDgc/ABMA"),
    ("accept", "accept", "cKNlABAAEAAE", "4PPIATDgc/ABMA"),  # 1-2
    ("new game", "next; opening 3 6", "cAlvABAAEAAE", START_ID),  # post-Crawford
    ("move 24/18 13/10", "play 24/18 13/10", "MAFgABAAEAAE", "4HPiQSDgc/ABMA"),
    ("double", "double", "MBlgABAAEAAE", "4HPiQSDgc/ABMA"),
    ("take", "take", "EQFgABAAEAAE", "4HPiQSDgc/ABMA"),
    ("set dice 4 2", "roll 4 2", "EQFqABAAEAAE", "4HPiQSDgc/ABMA"),
    ("move 8/4 6/4", "play 8/4 6/4", "UQlgABAAEAAE", "mGfwATDgc+JBIA"),
    # gnubg: "The cube is dead; you can't double any more." (root owns 2 at 2-away... 1-away)
    ("double", "refused dead_cube", "UQlgABAAEAAE", "mGfwATDgc+JBIA"),
    ("set dice 6 6", "roll 6 6", "UQl7ABAAEAAE", "mGfwATDgc+JBIA"),
    ("move 13/7 13/7 13/7 13/7", "play 13/7(4)", "EQFgABAAEAAE", "4HsnQCCYZ/ABMA"),
    ("resign single", "resign 1", "ESlgABAAEAAE", "4HsnQCCYZ/ABMA"),
    ("accept", "accept", "EStgABAAIAAE", "4HsnQCCYZ/ABMA"),  # root: 2 + 2 = 4 of 3
]

# `set seed 7`, `new match 3`, then: bear-offs that end games with a gammon and a backgammon.
GNUBG_BEAROFFS = [
    ("new match 3", "opening 1 2", "cAllAAAAAAAE", START_ID),
    # root: two checkers on his 1-point; gnubg: all 15 on his 6-point
    ("set board 4P8PAAADAAAAAA", "board 4P8PAAADAAAAAA", "cAllAAAAAAAE", "4P8PAAADAAAAAA"),
    ("set dice 2 1", "dice 2 1", "cAllAAAAAAAE", "4P8PAAADAAAAAA"),
    ("move 1/0 1/0", "play 1/0 1/0", "sAJgAAAAEAAE", "AAAAwP8fAAAAAA"),  # gammon: 0-2
    ("new game", "next; opening 5 2", "sIFqAAAAEAAE", START_ID),
    # gnubg: two checkers on his 1-point; root: 14 on his 6-point, one on his 21-point
    ("set board 4P8HAAQDAAAAAA", "board 4P8HAAQDAAAAAA", "sIFqAAAAEAAE", "4P8HAAQDAAAAAA"),
    ("set dice 2 1", "dice 2 1", "sAFlAAAAEAAE", "4P8HAAQDAAAAAA"),
    ("move 1/0 1/0", "play 1/0 1/0", "cApgADAAEAAE", "AAAAwP8PAAgAAA"),  # backgammon: 3-2
]


@pytest.mark.parametrize("sequence", [GNUBG_MATCH, GNUBG_BEAROFFS], ids=["match", "bearoffs"])
def test_match_ids_equal_gnubgs_step_by_step(sequence: list[tuple[str, str, str, str]]) -> None:
    state = MatchState.new(3, WBF)
    for command, step, match_id, position_id in sequence:
        state = apply(state, step)
        expected = decode_match_id(match_id)
        if state.phase in (Phase.GAME_OVER, Phase.MATCH_OVER):
            # Once a game is over, gnubg's live play already shows the next game's
            # Crawford flag; gnubg replaying a saved match (test_transcripts_replayed_...)
            # shows the finished game's, and so do we.
            expected = dataclasses.replace(expected, crawford=state.is_crawford_game)
        assert encode_match_id(state.match_info()) == encode_match_id(expected), command
        assert state.position.position_id() == position_id, command


def test_the_recorded_match_ends_as_gnubg_says() -> None:
    state = MatchState.new(3, WBF)
    results = []
    for _command, step, _match_id, _position_id in GNUBG_MATCH:
        state = apply(state, step)
        if state.phase in (Phase.GAME_OVER, Phase.MATCH_OVER):
            results.append(state.last_result)
    assert results == [
        GameResult(winner=1, points=2, multiplier=1, cube_value=2, reason="drop"),
        GameResult(winner=0, points=1, multiplier=1, cube_value=1, reason="resign"),
        GameResult(winner=1, points=2, multiplier=1, cube_value=2, reason="resign"),
    ]
    assert state.phase is Phase.MATCH_OVER
    assert state.score == (1, 4)  # the winner's full score, past the match length
    assert state.can_next_game() == "match_over"


# --- state builders --------------------------------------------------------------------------


def rolling(**changes: object) -> MatchState:
    """Player 0 to roll or double in game 1 of a 7-point match, after the opening."""
    base = MatchState.new(7, WBF).start_game(0)
    return dataclasses.replace(base, turns_played=1, **changes)  # type: ignore[arg-type]


def moving(dice: tuple[int, int] = (3, 1), **changes: object) -> MatchState:
    return rolling(**changes).roll(*dice)


def doubled(**changes: object) -> MatchState:
    return rolling(**changes).double(0)


def resigning(level: int = 1, player: int = 1, **changes: object) -> MatchState:
    return rolling(**changes).resign(player, level)


def over(**changes: object) -> MatchState:
    """Game 1 is over: player 1 dropped player 0's double."""
    return doubled(**changes).drop()


# --- doubling --------------------------------------------------------------------------------


def test_early_double_is_offered_once_the_play_is_done() -> None:
    # Player 1 doubles while player 0 is still moving: valid, and player 0 finishes
    # his move knowing of it [001 4.4(v)].
    state = moving((3, 1)).double(1)
    assert state.phase is Phase.MOVE and state.early_double_by == 1
    assert [n.code for n in state.notes] == ["early_double"]
    assert state.can_roll(1) == "not_your_turn"
    after = next(iter(legal_plays(state.position, (3, 1))))
    state = state.play(after)
    assert state.phase is Phase.DOUBLED and state.on_roll == 1
    assert state.offered_cube == 2 and state.early_double_by is None
    assert state.can_roll(1) is not None  # the answer comes first
    taken = state.take(player=0)
    assert (taken.cube_value, taken.cube_owner, taken.phase) == (2, 0, Phase.ROLL)
    assert taken.on_roll == 1


def test_early_double_at_a_wrong_level_is_corrected() -> None:
    state = moving((3, 1)).double(1, new_value=8)
    assert [n.code for n in state.notes] == ["cube_level_corrected", "early_double"]
    state = state.play(next(iter(legal_plays(state.position, (3, 1)))))
    assert state.offered_cube == 2


@pytest.mark.parametrize(
    ("state", "player", "code"),
    [
        (rolling(), 0, None),
        (rolling(), 1, "not_your_turn"),  # only on his own turn [001 4.4(ii)]
        (moving(), 0, "already_rolled"),  # before any attempt to roll [001 4.4(ii)]
        (moving(), 1, None),  # early: before the opponent finished, valid [001 4.4(v)]
        (moving().double(1), 1, "double_pending"),
        (moving(cube_value=2, cube_owner=0), 1, "cube_not_yours"),  # early, still his cube?
        (moving(is_crawford_game=True, score=(6, 2)), 1, "crawford_game"),
        (doubled(), 0, "double_pending"),
        (doubled(), 1, "not_your_turn"),  # no beavers in a match [001 4.4(viii)]
        (resigning(), 0, "resignation_pending"),
        (MatchState.new(7), 0, "game_not_started"),
        (MatchState.new(7).start_game(0), 0, "opening"),  # the opening roll comes first
        (over(), 0, "game_over"),
        (rolling(phase=Phase.MATCH_OVER), 0, "match_over"),
        (rolling(profile=KONSTANZ), 0, "no_cube_in_profile"),  # [000 r7]
        (rolling(is_crawford_game=True, score=(6, 2)), 0, "crawford_game"),  # [001 4.4(iv)]
        (rolling(crawford_done=True, score=(2, 6)), 0, None),  # post-Crawford: the trailer
        (rolling(cube_value=2, cube_owner=1), 0, "cube_not_yours"),  # [001 4.4(iii)]
        (rolling(cube_value=2, cube_owner=0), 0, None),  # a redouble
        (rolling(cube_value=2, cube_owner=0, score=(4, 0)), 0, None),  # 4 + 2 < 7
        (rolling(cube_value=2, cube_owner=0, score=(5, 0)), 0, "dead_cube"),  # [001 4.4(vii)]
        (rolling(cube_value=8, cube_owner=0, score=(0, 6)), 0, "dead_cube"),
        # Only an owned cube can be dead [001 4.4(vii)]; gnubg also refuses a centred one.
        (rolling(crawford_done=True, score=(6, 5)), 0, None),
        (rolling(match_length=0, cube_value=64, cube_owner=0, score=(90, 0)), 0, None),
        (rolling(cube_value=2**15, cube_owner=0, match_length=0), 0, "cube_limit"),
    ],
)
def test_can_double(state: MatchState, player: int, code: str | None) -> None:
    assert state.can_double(player) == code
    if code is None:
        after = state.double(player)
        if player != state.on_roll:  # an early double waits for the play [001 4.4(v)]
            assert (after.phase, after.early_double_by) == (Phase.MOVE, player)
            return
        assert after.phase is Phase.DOUBLED
        assert after.offered_cube == 2 * state.cube_value
        assert after.cube_value == state.cube_value  # the cube changes on the take
        return
    with pytest.raises(MatchRuleError) as caught:
        state.double(player)
    assert caught.value.code == code
    assert isinstance(caught.value, ValueError)
    if code in ("crawford_game", "dead_cube", "cube_not_yours", "no_cube_in_profile"):
        assert "[00" in str(caught.value)  # cites its rule


@pytest.mark.parametrize(
    ("new_value", "notes"),
    [
        (None, []),
        (2, []),
        (4, ["cube_level_corrected"]),  # [001 4.4(vi)]
        (64, ["cube_level_corrected"]),
        (1, ["cube_level_corrected"]),
    ],
)
def test_a_wrong_cube_level_is_corrected(new_value: int | None, notes: list[str]) -> None:
    state = rolling().double(0, new_value=new_value)
    assert state.offered_cube == 2
    assert [note.code for note in state.notes] == notes
    taken = state.take()
    assert (taken.cube_value, taken.cube_owner, taken.notes) == (2, 1, ())


def test_take_and_drop() -> None:
    state = rolling(cube_value=2, cube_owner=0).double(0)
    taken = state.take(player=1)
    assert (taken.phase, taken.cube_value, taken.cube_owner, taken.on_roll) == (
        Phase.ROLL,
        4,
        1,
        0,  # the doubler rolls next
    )
    dropped = state.drop(player=1)
    # The passer loses the value before the double [001 4.4(iii)].
    assert dropped.last_result == GameResult(0, 2, 1, 2, "drop")
    assert dropped.score == (2, 0)
    assert dropped.phase is Phase.GAME_OVER
    info = dropped.match_info()
    assert (info.game_state, info.turn, info.cube_value) == (GameState.DROPPED, 1, 2)


# --- the other actions, each with its check --------------------------------------------------

Action = Callable[[MatchState], MatchState]
Check = Callable[[MatchState], "str | None"]


@pytest.mark.parametrize(
    ("state", "action", "check", "code"),
    [
        # roll
        (rolling(), lambda s: s.roll(6, 6), lambda s: s.can_roll(), None),
        (rolling(), lambda s: s.roll(6, 6, player=1), lambda s: s.can_roll(1), "not_your_turn"),
        (moving(), lambda s: s.roll(6, 6), lambda s: s.can_roll(), "already_rolled"),
        # the opponent rolls before the mover has finished [001 4.1(v)(a), 000 r9]
        (moving(), lambda s: s.roll(6, 6, player=1), lambda s: s.can_roll(1), "not_your_turn"),
        (doubled(), lambda s: s.roll(6, 6), lambda s: s.can_roll(), "double_pending"),
        (MatchState.new(7), lambda s: s.roll(6, 6), lambda s: s.can_roll(), "game_not_started"),
        (over(), lambda s: s.roll(6, 6), lambda s: s.can_roll(), "game_over"),
        (rolling(), lambda s: s.roll(7, 1), lambda s: None, "bad_dice"),
        (rolling(), lambda s: s.roll(0, 1), lambda s: None, "bad_dice"),
        # take / drop
        (doubled(), lambda s: s.take(player=0), lambda s: s.can_take(0), "not_your_turn"),
        (doubled(), lambda s: s.drop(player=0), lambda s: s.can_drop(0), "not_your_turn"),
        (rolling(), lambda s: s.take(), lambda s: s.can_take(), "no_double"),
        (rolling(), lambda s: s.drop(), lambda s: s.can_drop(), "no_double"),
        (over(), lambda s: s.take(), lambda s: s.can_take(), "game_over"),
        # resign [000 r21, 001 4.5]: either player, at any time of the game
        (rolling(), lambda s: s.resign(1, 1), lambda s: s.can_resign(1, 1), None),
        (moving(), lambda s: s.resign(0, 2), lambda s: s.can_resign(0, 2), None),
        (rolling(), lambda s: s.resign(0, 3), lambda s: s.can_resign(0, 3), None),
        (rolling(), lambda s: s.resign(0, 0), lambda s: s.can_resign(0, 0), "bad_resign_level"),
        (rolling(), lambda s: s.resign(0, 4), lambda s: s.can_resign(0, 4), "bad_resign_level"),
        # no backgammons under Konstanz [000 s3]: one resigns a single game or a gammon
        (
            rolling(profile=KONSTANZ),
            lambda s: s.resign(0, 3),
            lambda s: s.can_resign(0, 3),
            "bad_resign_level",
        ),
        (doubled(), lambda s: s.resign(1, 1), lambda s: s.can_resign(1, 1), "double_pending"),
        (
            resigning(),
            lambda s: s.resign(0, 1),
            lambda s: s.can_resign(0, 1),
            "resignation_pending",
        ),
        (over(), lambda s: s.resign(0, 1), lambda s: s.can_resign(0, 1), "game_over"),
        # accept / reject
        (
            resigning(player=1),
            lambda s: s.accept_resignation(player=0),
            lambda s: s.can_accept_resignation(0),
            None,
        ),
        (
            resigning(player=1),
            lambda s: s.accept_resignation(player=1),
            lambda s: s.can_accept_resignation(1),
            "not_your_turn",
        ),
        (
            resigning(player=1),
            lambda s: s.reject_resignation(player=1),
            lambda s: s.can_reject_resignation(1),
            "not_your_turn",
        ),
        (
            rolling(),
            lambda s: s.accept_resignation(),
            lambda s: s.can_accept_resignation(),
            "no_resignation",
        ),
        (
            rolling(),
            lambda s: s.reject_resignation(),
            lambda s: s.can_reject_resignation(),
            "no_resignation",
        ),
        # next game / start
        (over(), lambda s: s.next_game(), lambda s: s.can_next_game(), None),
        (rolling(), lambda s: s.next_game(), lambda s: s.can_next_game(), "game_in_progress"),
        (rolling(), lambda s: s.start_game(0), lambda s: s.can_start_game(0), "game_in_progress"),
        (over(), lambda s: s.start_game(0), lambda s: s.can_start_game(0), "game_over"),
        (
            rolling(),
            lambda s: s.opening_roll(3, 1),
            lambda s: s.can_opening_roll(),
            "game_in_progress",
        ),
        (
            MatchState.new(7),
            lambda s: s.opening_roll(4, 4),
            lambda s: s.can_opening_roll(),
            "opening_tie",
        ),
        (MatchState.new(7), lambda s: s.opening_roll(4, 9), lambda s: None, "bad_dice"),
    ],
)
def test_actions_and_their_checks(
    state: MatchState, action: Action, check: Check, code: str | None
) -> None:
    # A check cannot know the dice: "opening_tie" and "bad_dice" show only on the action.
    if code not in ("opening_tie", "bad_dice"):
        assert check(state) == code
    if code is None:
        action(state)
        return
    with pytest.raises(MatchRuleError) as caught:
        action(state)
    assert caught.value.code == code
    assert "(game 1, score " in str(caught.value)  # says where the match stands


# --- play ------------------------------------------------------------------------------------


def test_play_passes_the_turn() -> None:
    state = MatchState.new(7).opening_roll(3, 1)  # player 0 wins the opening [000 r8]
    after = play_result(state.position, (3, 1), "8/5 6/5")
    played = state.play(after.swapped_turn())  # who is on roll in `after` does not matter
    assert played.phase is Phase.ROLL
    assert played.position == after.swapped_turn()
    assert played.position.turn == 1 and played.dice is None and played.turns_played == 1
    assert played.can_double(1) is None


def test_opening_roll() -> None:
    high = MatchState.new(7).opening_roll(2, 5)
    assert (high.position.turn, high.dice, high.phase) == (1, (2, 5), Phase.MOVE)
    # Players may agree that the lower die starts [000 r8].
    low = MatchState.new(7).opening_roll(2, 5, lower_starts=True)
    assert low.position.turn == 0


@pytest.mark.parametrize(
    ("dice", "text", "code"),
    [
        ((3, 1), "8/5 6/5", None),
        ((3, 1), "13/9 6/5", "illegal_play"),  # a 4 and a 1 for a 3-1
        ((3, 1), "8/5", "illegal_play"),  # both dice must be played [000 r12]
        ((6, 6), "24/18 24/18 13/7 13/7", None),
        ((6, 6), "24/18 24/18 13/7", "illegal_play"),
    ],
)
def test_play_must_be_legal(dice: tuple[int, int], text: str, code: str | None) -> None:
    state = rolling().roll(*dice)
    mover = list(state.position.boards[0])
    for move in text.split():
        src, dst = (int(p) for p in move.split("/"))
        mover[src - 1] -= 1
        mover[dst - 1] += 1
    after = Position((tuple(mover), state.position.boards[1]), 0)
    assert state.can_play(after) == code
    if code is None:
        assert state.play(after).phase is Phase.ROLL
        return
    with pytest.raises(MatchRuleError, match="no legal play of") as caught:
        state.play(after)
    assert caught.value.code == code
    # It can stand, though, once the opponent has rolled [001 4.2(iii)(a)].
    stood = state.accept_illegal_play(after)
    assert stood.position == after.swapped_turn()
    assert [note.code for note in stood.notes] == ["illegal_play_stands"]


def test_a_dance_is_the_unchanged_position() -> None:
    # Player 0 on the bar against a closed board (his points 19-24): 6-6 cannot enter.
    closed = make_position(
        {6: 5, 8: 4, 13: 5}, {12: 3, 19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2}, mover_bar=1, turn=0
    )
    state = dataclasses.replace(rolling(), position=closed).roll(6, 6)
    assert list(legal_plays(closed, (6, 6))) == [closed]
    assert state.play(closed).position == closed.swapped_turn()


@pytest.mark.parametrize(
    ("after", "problem"),
    [
        # both players on player 0's 24-point
        (make_position({24: 2, 13: 5, 8: 3, 6: 5}, {24: 1, 1: 1}, turn=0), "both players"),
        # player 1 has a checker fewer: borne off by someone else
        (
            make_position({24: 2, 13: 5, 8: 3, 6: 5}, {1: 2, 12: 5, 17: 3, 19: 4}, turn=0),
            "borne-off checkers changed",
        ),
    ],
)
def test_an_impossible_position_cannot_stand(after: Position, problem: str) -> None:
    state = moving()
    with pytest.raises(MatchRuleError, match=problem) as caught:
        state.accept_illegal_play(after)
    assert caught.value.code == "impossible_position"


# --- game ends -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("loser", "profile", "cube", "multiplier"),
    [
        # `loser`: player 1's checkers, on his own points (the rest borne off)
        ({19: 1}, WBF, 1, 1),  # 14 borne off: a single game
        ({6: 14}, WBF, 2, 1),  # one borne off: a single game, times the cube
        ({6: 15}, WBF, 1, 2),  # none borne off: a gammon [002, 004]
        ({6: 14, 20: 1}, WBF, 4, 3),  # and one in the winner's home board: a backgammon
        ({6: 14, 20: 1}, KONSTANZ, 1, 2),  # no backgammon under Konstanz [000 s3, r20]
    ],
)
def test_bearing_off_the_last_checker(
    loser: dict[int, int], profile: object, cube: int, multiplier: int
) -> None:
    # Player 0 (on roll) has one checker left on his 1-point; `loser` is in player 1's
    # numbering. The cube is player 1's.
    opponent = {25 - point: n for point, n in loser.items()}
    pos = make_position({1: 1}, opponent, turn=0)
    state = dataclasses.replace(
        rolling(profile=profile, cube_value=cube, cube_owner=None if cube == 1 else 1),
        position=pos,
    ).roll(2, 1)
    done = state.play(play_result(pos, (2, 1), "1/0"))
    assert done.last_result == GameResult(0, cube * multiplier, multiplier, cube, "bearoff")
    assert done.score == (cube * multiplier, 0)
    assert done.match_info().game_state is GameState.OVER
    assert done.position.turn == 1  # the turn passed, as gnubg has it


# --- resignations ----------------------------------------------------------------------------


def test_resignation_accepted_and_rejected() -> None:
    state = moving(dice=(6, 5), cube_value=2, cube_owner=1).resign(0, 2)
    assert state.phase is Phase.RESIGN_OFFERED
    assert state.resignation == Resignation(0, 2, Phase.MOVE)
    info = state.match_info()
    assert (info.resign_offered, info.turn, info.dice_owner, info.dice) == (2, 1, 0, (6, 5))
    back = state.reject_resignation(player=1)
    assert (back.phase, back.dice, back.resignation) == (Phase.MOVE, (6, 5), None)
    won = state.accept_resignation(player=1)
    # The offered level times the cube [000 r21]
    assert won.last_result == GameResult(1, 4, 2, 2, "resign")
    assert won.score == (0, 4)
    assert won.match_info().game_state is GameState.RESIGNED


@pytest.mark.parametrize(
    ("state", "winner", "points", "result", "code"),
    [
        (rolling(), 1, 1, GameResult(1, 1, 1, 1, "resign"), None),
        (moving(cube_value=2, cube_owner=0), 0, 4, GameResult(0, 4, 2, 2, "resign"), None),
        (rolling(cube_value=2, cube_owner=0), 0, 6, GameResult(0, 6, 3, 2, "resign"), None),
        (rolling(cube_value=2, cube_owner=0), 0, 3, None, "bad_points"),
        (rolling(cube_value=2, cube_owner=0), 0, 8, None, "bad_points"),
        (rolling(profile=KONSTANZ), 0, 3, None, "bad_points"),  # [000 s3]
        (resigning(player=1), 0, 1, GameResult(0, 1, 1, 1, "resign"), None),
        (resigning(player=1), 1, 1, None, "wrong_winner"),
        (doubled(), 0, 1, None, "double_pending"),
        (over(), 0, 1, None, "game_over"),
    ],
)
def test_end_game_by_resignation(
    state: MatchState, winner: int, points: int, result: GameResult | None, code: str | None
) -> None:
    if code is None:
        done = state.end_game_by_resignation(winner, points)
        assert done.last_result == result
        assert done.score[winner] == state.score[winner] + points
        return
    with pytest.raises(MatchRuleError) as caught:
        state.end_game_by_resignation(winner, points)
    assert caught.value.code == code


# --- Crawford and the match end --------------------------------------------------------------


def _win(state: MatchState, winner: int, points: int) -> MatchState:
    """Play a game of the match that ``winner`` wins by ``points`` (1 to 3)."""
    if state.phase is Phase.GAME_OVER:
        state = state.next_game()
    if state.profile.later_games == "previous_winner" and state.last_result is not None:
        state = state.start_game(state.last_result.winner)
    else:
        state = state.opening_roll(5, 3)
    return state.end_game_by_resignation(winner, points)


@pytest.mark.parametrize(
    ("length", "games", "crawford_flags"),
    [
        # (winner, points) per game; then (is_crawford_game, crawford_done) of each next game
        (
            5,
            [(0, 2), (0, 2), (1, 1), (1, 3)],
            [(False, False), (True, False), (False, True), (False, True)],
        ),
        (3, [(1, 2), (0, 1)], [(True, False), (False, True)]),
        (2, [(0, 1)], [(True, False)]),
        (7, [(0, 3), (1, 3), (0, 3)], [(False, False), (False, False), (True, False)]),
        (
            7,
            [(0, 3), (1, 2), (1, 1), (0, 3)],
            [(False, False), (False, False), (False, False), (True, False)],
        ),
    ],
)
def test_crawford_game_is_the_first_after_reaching_one_away(
    length: int, games: list[tuple[int, int]], crawford_flags: list[tuple[bool, bool]]
) -> None:
    # [001 4.4(iv)]: the first game after a player gets to one point short of the match
    state = MatchState.new(length)
    assert (state.is_crawford_game, state.crawford_done) == (False, False)
    for (winner, points), flags in zip(games, crawford_flags, strict=True):
        state = _win(state, winner, points)
        assert state.phase is Phase.GAME_OVER
        state = state.next_game()
        assert (state.is_crawford_game, state.crawford_done) == flags
        assert state.match_info().crawford == flags[0]
        assert (state.cube_value, state.cube_owner) == (1, None)  # [001 4.4(i)]


def test_the_match_ends_when_a_player_reaches_the_length() -> None:
    state = _win(MatchState.new(3), 1, 2)
    state = _win(state, 1, 3)
    assert state.phase is Phase.MATCH_OVER
    assert state.score == (0, 5)
    assert state.match_info().game_state is GameState.RESIGNED
    for check in (state.can_next_game(), state.can_roll(), state.can_double(0)):
        assert check == "match_over"


def test_money_play_never_ends_and_has_no_crawford() -> None:
    state = MatchState.new(0)
    for _ in range(5):
        state = _win(state, 0, 3)
        assert state.phase is Phase.GAME_OVER
        state = state.next_game()
        assert not state.is_crawford_game
    assert state.score == (15, 0)


def test_konstanz_matches() -> None:
    state = MatchState.new(profile="konstanz")
    assert state.match_length == 3  # [000 r22]
    state = state.opening_roll(2, 6)
    assert state.can_double(1) == "no_cube_in_profile"  # [000 r7]
    state = state.end_game_by_resignation(1, 2).next_game()
    assert not state.is_crawford_game  # no cube, no Crawford rule
    # The winner opens the next game himself, with no opening roll [000 r22].
    assert state.can_opening_roll() == "no_opening_roll"
    with pytest.raises(MatchRuleError, match=r"\[000 r22\]") as caught:
        state.start_game(0)
    assert caught.value.code == "wrong_opener"
    state = state.start_game(1)
    assert (state.phase, state.on_roll) == (Phase.ROLL, 1)
    assert state.roll(4, 2).phase is Phase.MOVE


@pytest.mark.parametrize(
    ("length", "profile", "code"),
    [
        (None, WBF, "no_match_length"),
        (-1, WBF, "no_match_length"),
        (None, KONSTANZ, None),
        (5, "club", None),
    ],
)
def test_new_match(length: int | None, profile: object, code: str | None) -> None:
    if code is None:
        state = MatchState.new(length, profile)  # type: ignore[arg-type]
        assert (state.phase, state.score, state.game_number) == (Phase.START, (0, 0), 1)
        assert state.match_info().game_state is GameState.NONE
        return
    with pytest.raises(MatchRuleError) as caught:
        MatchState.new(length, profile)  # type: ignore[arg-type]
    assert caught.value.code == code


def test_unknown_profile_name() -> None:
    with pytest.raises(ValueError, match="unknown rule profile 'fibs'"):
        MatchState.new(5, "fibs")


def test_states_are_immutable() -> None:
    state = rolling()
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.phase = Phase.MOVE  # type: ignore[misc]
    assert state.roll(3, 1) is not state and state.phase is Phase.ROLL


def test_rule_codes_are_strings() -> None:
    code: str = RuleCode.DEAD_CUBE
    assert code == "dead_cube"
    assert repr(RuleCode.DEAD_CUBE) == "'dead_cube'"
    assert MatchRuleError(RuleCode.DEAD_CUBE, "x").code == "dead_cube"


# --- random matches: every check agrees with its action; invariants hold ---------------------


def _random_step(state: MatchState, rng: random.Random) -> MatchState:
    """Try one random action; its check must predict whether it is allowed."""
    player = rng.randint(0, 1)
    level = rng.randint(1, 3)
    d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
    o1, o2 = rng.sample(range(1, 7), 2)
    options: list[tuple[str | None, Action]] = [
        (state.can_roll(player), lambda s: s.roll(d1, d2, player=player)),
        (state.can_double(player), lambda s: s.double(player)),
        (state.can_take(player), lambda s: s.take(player=player)),
        (state.can_drop(player), lambda s: s.drop(player=player)),
        (state.can_resign(player, level), lambda s: s.resign(player, level)),
        (state.can_accept_resignation(player), lambda s: s.accept_resignation(player=player)),
        (state.can_reject_resignation(player), lambda s: s.reject_resignation(player=player)),
        (state.can_next_game(), lambda s: s.next_game()),
        (state.can_opening_roll(), lambda s: s.opening_roll(o1, o2)),
        (state.can_start_game(player), lambda s: s.start_game(player)),
    ]
    if state.phase is Phase.MOVE and state.dice is not None:
        after = rng.choice(list(legal_plays(state.position, state.dice)))
        options += [(state.can_play(after), lambda s: s.play(after))] * 6
    code, action = rng.choice(options)
    if code is None:
        return action(state)
    with pytest.raises(MatchRuleError) as caught:
        action(state)
    assert caught.value.code == code
    return state


@settings(max_examples=60)
@given(st.integers(0, 2**32), st.sampled_from(["wbf", "konstanz", "club"]))
def test_random_matches_keep_the_invariants(seed: int, profile: str) -> None:
    rng = random.Random(seed)
    state = MatchState.new(rng.choice([0, 1, 3, 5]), profile)
    points = 0
    for _ in range(200):
        before = state
        state = _random_step(state, rng)
        for player in (0, 1):
            assert sum(state.position.boards[player]) + state.position.off(player) == 15
            assert state.score[player] >= before.score[player]
        if state.last_result is not before.last_result and state.last_result is not None:
            points += state.last_result.points
            assert state.last_result.points <= 3 * state.cube_value
        assert sum(state.score) == points
        info = state.match_info()
        assert decode_match_id(encode_match_id(info)).score == state.score
        if state.is_crawford_game:
            assert (state.cube_value, state.cube_owner) == (1, None)
        if state.phase is Phase.MATCH_OVER:
            assert state.match_length and max(state.score) >= state.match_length
        if not state.profile.cube:
            assert state.cube_value == 1


# --- live oracle: the gnubg-made transcripts, record by record -------------------------------

GNUBG_MADE = [
    "generated_gnubg_selfplay_7p_seed1.mat",
    "kevung_charlot1-charlot2_7p.mat",
    "kevung_gnubg_roll_then_resign_1p.mat",
    "kevung_gnubg_selfplay_drops_7p.mat",
]


@pytest.mark.oracle
@pytest.mark.parametrize("name", GNUBG_MADE)
def test_transcripts_replayed_give_gnubgs_ids(name: str, gnubg_binary: Path, mat_dir: Path) -> None:
    """gnubg imports the .mat; we replay its records and compare the IDs after each."""
    import gnubg_cli  # the tests' gnubg driver

    steps = gnubg_cli.gnubg_ids_after_each_move(mat_dir / name, binary=gnubg_binary)
    length = decode_match_id(steps[0].match_id).match_length
    state = MatchState.new(length, WBF)
    game = 0
    for step in steps:
        if step.game != game:
            state, game = state.next_game(), step.game
        player = 0 if step.player == "X" else 1  # gnubg's X is the .mat's first column
        if step.action in ("move", "set"):
            assert step.dice is not None
            if state.phase is Phase.START:
                state = state.start_game(player)
            state = state.roll(*step.dice, player=player)
            if step.action == "move":
                after = Position.from_position_id(step.position_id, turn=1 - player)
                state = state.play(after)
        elif step.action == "double":
            state = state.double(player)
        elif step.action == "take":
            state = state.take(player=player)
        elif step.action == "drop":
            state = state.drop(player=player)
        elif step.action == "resign":
            # .mat says only "Wins N points": take N from gnubg's new score
            final = decode_match_id(step.match_id).score
            state = state.end_game_by_resignation(
                1 - player, final[1 - player] - state.score[1 - player]
            )
        else:
            raise AssertionError(f"unknown gnubg record {step}")
        where = f"{name} game {step.game + 1} record {step.index}: {step.action}"
        assert encode_match_id(state.match_info()) == step.match_id, where
        assert state.position.position_id() == step.position_id, where


# --- review fixes: invalid rolls, impossible "illegal plays", doubling before the first roll


def test_invalid_roll_ends_the_right_to_double() -> None:
    # A cocked roll still counts as having rolled for doubling [001 4.4(ii), 002].
    state = rolling().invalid_roll(player=0)
    assert state.phase is Phase.ROLL and state.roll_attempted
    assert state.can_double(0) == "already_rolled"
    with pytest.raises(MatchRuleError, match="attempt to roll"):
        state.double(0)
    rolled = state.roll(3, 1)
    assert not rolled.roll_attempted
    # The next turn starts afresh: player 1 may double.
    after = rolled.play(next(iter(legal_plays(rolled.position, (3, 1)))))
    assert after.can_double(1) is None


@pytest.mark.parametrize(
    ("state", "player", "code"),
    [
        (rolling(), 1, "not_your_turn"),
        (moving(), 0, "already_rolled"),
        (doubled(), 0, "double_pending"),
    ],
)
def test_invalid_roll_needs_the_player_on_roll_before_the_dice(
    state: MatchState, player: int, code: str
) -> None:
    with pytest.raises(MatchRuleError) as caught:
        state.invalid_roll(player=player)
    assert caught.value.code == code


def _moved(state: MatchState, player: int, changes: dict[int, int]) -> Position:
    """``state.position`` with ``player``'s counts changed by ``changes`` (index: delta)."""
    boards = [list(state.position.boards[0]), list(state.position.boards[1])]
    for index, delta in changes.items():
        boards[player][index] += delta
    return Position((tuple(boards[0]), tuple(boards[1])), state.position.turn)


@pytest.mark.parametrize(
    ("player", "changes", "error"),
    [
        (0, {}, None),  # nothing moved: an illegal play (the 3-1 unplayed) that can stand
        (0, {7: -1, 2: 1}, None),  # 8/3 with a 3-1: illegal, but a real board
        (0, {i: -n for i, n in enumerate(Position.initial().boards[0]) if n}, "bore off 15"),
        (1, {5: -1, 4: 1}, "other than by hits"),  # the opponent's checker moved
        (0, {5: -3}, "bore off 3 checkers with 2 moves"),
    ],
)
def test_an_illegal_play_stands_only_if_a_player_could_have_made_it(
    player: int, changes: dict[int, int], error: str | None
) -> None:
    state = moving((3, 1))
    after = _moved(state, player, changes)
    if error is None:
        stood = state.accept_illegal_play(after)
        assert [n.code for n in stood.notes] == ["illegal_play_stands"]
        return
    with pytest.raises(MatchRuleError, match=error) as caught:
        state.accept_illegal_play(after)
    assert caught.value.code == "impossible_position"


def test_doubling_before_the_first_roll_only_without_an_opening_roll() -> None:
    # Game 1 starts with the opening roll: no double before it is played.
    first = MatchState.new(7, WBF).start_game(0)
    assert first.can_double(0) == "opening"
    # A later game that the previous winner opens by rolling himself (no opening roll):
    # he may double before his first roll [001 4.4(ii)].
    club_like = dataclasses.replace(WBF, later_games="previous_winner")
    later = dataclasses.replace(
        MatchState.new(7, club_like).start_game(0), game_number=2
    )
    assert later.can_double(0) is None
