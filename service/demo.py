"""``gammoneye demo``: watch the referee's rules engine follow a whole match.

Until the camera referee lands, the demo replays a bundled transcript (a 7-point
GNU Backgammon self-play match, made by ``scripts/make-demo-match``) through the
rules engine, drawing the board before every play with what the engine knows
about it: the legal alternatives, pip counts, cube, score, Crawford, the GNU IDs.
It ends by writing the canonical ``.mat`` and the JSON event log — the files the
referee will write for a real match.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from importlib import resources
from pathlib import Path

from gammoneye.engine.events import dumps_event
from gammoneye.engine.match import MatchState, Phase
from gammoneye.engine.matfile import write_mat
from gammoneye.engine.replay import Replay, ReplayEntry, replay_mat
from gammoneye.service.engine_cli import count_of, write_atomically

DEMO_MATCH = "demo_match.mat"


def bundled_match_text() -> str:
    return resources.files("gammoneye.service").joinpath("data", DEMO_MATCH).read_text("utf-8")


def _describe(entry: ReplayEntry, players: tuple[str, str]) -> str:
    who = players[entry.player]
    state = entry.state
    if entry.kind == "roll" and entry.dice is not None:
        d1, d2 = entry.dice
        if not entry.legal:
            return f"{who} rolls {d1}-{d2} and plays {entry.written}: ILLEGAL (it stood)"
        if entry.after is None:
            return f"{who} rolls {d1}-{d2} and resigns before moving"
        if not entry.play:
            return f"{who} rolls {d1}-{d2}: no legal move"
        only = entry.choices == 1
        tail = "the only legal play" if only else f"one of {entry.choices} legal results"
        return f"{who} rolls {d1}-{d2} and plays {entry.play}  ({tail})"
    if entry.kind == "double":
        return f"{who} doubles to {2 * state.cube_value}"
    if entry.kind == "take":
        return f"{who} takes: owns the cube at {state.offered_cube or 2 * state.cube_value}"
    if entry.kind == "drop":
        return f"{who} drops"
    return ""


def _board(entry: ReplayEntry, players: tuple[str, str]) -> str:
    state = entry.state
    # Always from the second player's side, like GNU Backgammon's board: it does not flip.
    board = state.position.diagram(names=players, perspective=1)
    if state.is_crawford_game:
        cube = "no cube (Crawford game)"
    elif state.cube_owner is None:
        cube = f"cube {state.cube_value} in the middle"
    else:
        cube = f"cube {state.cube_value} owned by {players[state.cube_owner]}"
    return f"{board}\n {cube}   Position ID {entry.position_id}   Match ID {entry.match_id}"


def _game_result(end: MatchState, players: tuple[str, str]) -> str:
    last = end.last_result
    if last is None:
        return ""
    kind = {1: "a single game", 2: "a gammon", 3: "a backgammon"}[last.multiplier]
    how = {
        "bearoff": f"bearing off ({kind})",
        "drop": "the dropped double",
        "resign": f"resignation ({kind})",
    }[last.reason]
    return (
        f"  -> {players[last.winner]} wins {count_of(last.points, 'point')} by {how}, "
        f"cube {last.cube_value}; score {end.score[0]}-{end.score[1]}"
    )


def _header(entry: ReplayEntry, result: Replay) -> str:
    state = entry.state
    players = result.record.players
    crawford = "  CRAWFORD GAME" if state.is_crawford_game else ""
    return (
        f"=== Game {entry.game}: {players[0]} {state.score[0]} - {state.score[1]} "
        f"{players[1]}  ({result.record.match_length}-point match){crawford}"
    )


def run_demo(
    text: str,
    out_dir: Path,
    *,
    echo: Callable[[str], None],
    delay_s: float = 0.0,
    boards: bool = True,
    only_game: int | None = None,
) -> Replay:
    """Replay ``text`` on the terminal and write the transcripts into ``out_dir``.

    Board diagrams show the point numbers of the second player (``X``, at the bottom).
    """
    result = replay_mat(text)
    players = result.record.players
    ends = {state.game_number: state for state in result.game_ends}
    shown = [e for e in result.entries if only_game is None or e.game == only_game]
    for i, entry in enumerate(shown):
        if i == 0 or shown[i - 1].game != entry.game:
            echo("")
            echo(_header(entry, result))
        if entry.kind not in ("win", "lose"):
            if boards and entry.kind == "roll":
                echo("")
                echo(_board(entry, players))
            echo(f" {entry.move_number:>3}) {_describe(entry, players)}")
            for problem in result.problems:
                if problem.line == entry.line and problem.player == entry.player:
                    echo(f"      problem: {problem.message}")
            if delay_s > 0:
                time.sleep(delay_s)
        last_of_game = i + 1 == len(shown) or shown[i + 1].game != entry.game
        if last_of_game and entry.game in ends:
            echo(_game_result(ends[entry.game], players))
    final = result.final
    if final.phase is Phase.MATCH_OVER and final.last_result is not None:
        winner = players[final.last_result.winner]
        echo(f"{winner} wins the match {final.score[0]}-{final.score[1]}.")
    out_dir.mkdir(parents=True, exist_ok=True)
    mat_path = out_dir / "match.mat"
    events_path = out_dir / "events.jsonl"
    write_atomically(mat_path, write_mat(result.canonical_record()))
    write_atomically(events_path, "".join(dumps_event(e) + "\n" for e in result.events()))
    verdict = "every play legal" if result.ok else count_of(len(result.all_problems()), "problem")
    echo("")
    echo(f"{result.turns} turns checked: {verdict}.")
    echo(f"transcript (GNU Backgammon / XG import): {mat_path}")
    echo(f"event log (JSON lines, docs/event-log.md): {events_path}")
    return result
