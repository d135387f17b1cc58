"""Match clips: fault specs, illegal plays of every kind, the ground truth's consistency
with the source transcript, the files written, resuming, and the CLI's errors."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gammoneye.datasets.render.clip import ClipConfig, build_script, parse_games, render_clip
from gammoneye.datasets.render.clipscript import (
    ALL_KINDS,
    ILLEGAL_KINDS,
    ROLL_FAULTS,
    ClipError,
    FaultPlan,
    illegal_play,
)
from gammoneye.engine.events import (
    FlagClearedEvent,
    FlagEvent,
    MoveEvent,
    RollEvent,
    RollInvalidEvent,
    read_event_log,
)
from gammoneye.engine.matfile import write_mat
from gammoneye.engine.moves import legal_positions
from gammoneye.engine.position import Position
from gammoneye.engine.replay import record_from_events, replay_mat
from gammoneye.service.cli import app

REPO = Path(__file__).resolve().parents[1]
TESTBED = REPO / "service" / "data" / "testbed_match.mat"


def entries_of(text: str, games: tuple[int, ...]) -> list[tuple[object, ...]]:
    return [
        (e.game, e.kind, e.player, e.dice, e.play)
        for e in replay_mat(text).entries
        if e.game in games
    ]


# --- specs ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "rates", "every", "error"),
    [
        ("none", {}, False, None),
        ("", {}, False, None),
        ("cocked=0.1", {"cocked": 0.1}, False, None),
        ("roll=0.2", dict.fromkeys(ROLL_FAULTS, 0.2), False, None),
        (
            "illegal=0.05,takeback=1",
            {**dict.fromkeys(ILLEGAL_KINDS, 0.05), "takeback": 1.0},
            False,
            None,
        ),
        ("all", dict.fromkeys(ALL_KINDS, 0.04), True, None),
        ("all:0.5", dict.fromkeys(ALL_KINDS, 0.5), True, None),
        ("cocked=2", None, False, "not in 0..1"),
        ("cocked=x", None, False, "bad rate"),
        ("bogus=0.1", None, False, "unknown fault kind 'bogus'"),
        ("allx", None, False, "bad fault spec"),
    ],
)
def test_fault_spec(
    spec: str, rates: dict[str, float] | None, every: bool, error: str | None
) -> None:
    if error:
        with pytest.raises(ClipError, match=error):
            FaultPlan.parse(spec)
        return
    plan = FaultPlan.parse(spec)
    assert plan.rates == rates
    assert plan.every_kind is every


@pytest.mark.parametrize(
    ("text", "games", "error"),
    [
        ("all", (), None),
        ("3", (1, 2, 3), None),
        ("2-4", (2, 3, 4), None),
        ("1,5", (1, 5), None),
        ("0", None, "numbered from 1"),
        ("a-b", None, "bad --games"),
    ],
)
def test_parse_games(text: str, games: tuple[int, ...] | None, error: str | None) -> None:
    if error:
        with pytest.raises(ClipError, match=error):
            parse_games(text)
    else:
        assert parse_games(text) == games


# --- illegal plays -----------------------------------------------------------------------
# Positions from the testbed match (GNU Position ID, player on roll), each offering
# one kind; the play the clip makes must be one the engine calls illegal.


@pytest.mark.parametrize(
    ("kind", "position_id", "turn", "dice", "real", "expected"),
    [
        # opening 64 played 24/18 18/14; moving the second stop one pip further
        ("wrong_distance", "4HPwATDgc/ABMA", 1, (6, 4), [(24, 18), (18, 14)], [(24, 18), (18, 13)]),
        ("early_bear_off", "4HPwATDgc/ABMA", 1, (6, 4), [(24, 18), (18, 14)], [(6, 0)]),
        ("unplayed_die", "4HPwATDgc/ABMA", 1, (6, 4), [(24, 18), (18, 14)], [(24, 18)]),
        # 24/19 lands on the opponent's 6-point (five checkers)
        ("blocked_point", "4HPwBSDgc/ABMA", 0, (5, 4), [(24, 20), (13, 8)], [(24, 19)]),
        # a checker on the bar, and 24/23 moved instead of entering
        (
            "bar_not_first",
            "0OfgAyDg8+ABUA",
            0,
            (1, 1),
            [(25, 24), (24, 23), (6, 5), (6, 5)],
            [(24, 23)],
        ),
        # only one die can be played: the 2 (25/23*); entering with the 1 is illegal
        ("smaller_die", "tW0bAAT/AAAAAQ", 1, (2, 1), [(25, 23)], [(25, 24)]),
    ],
)
def test_illegal_play_of_each_kind(
    kind: str,
    position_id: str,
    turn: int,
    dice: tuple[int, int],
    real: list[tuple[int, int]],
    expected: list[tuple[int, int]],
) -> None:
    before = Position.from_position_id(position_id, turn=turn)
    moves = illegal_play(kind, before, dice, real)
    assert moves == expected
    board = [list(before.boards[0]), list(before.boards[1])]
    mover, opp = board[turn], board[1 - turn]
    for src, dst in moves:
        mover[24 if src == 25 else src - 1] -= 1
        if dst:
            mover[dst - 1] += 1
            if opp[24 - dst] == 1:
                opp[24 - dst], opp[24] = 0, opp[24] + 1
    if kind != "blocked_point":  # both players on one point is no position at all
        after = Position((tuple(board[0]), tuple(board[1])), turn)
        assert after not in legal_positions(before, dice)


def test_no_illegal_play_where_the_kind_cannot_happen() -> None:
    start = Position.initial(turn=0)
    assert illegal_play("bar_not_first", start, (3, 1), [(8, 5), (6, 5)]) is None
    assert illegal_play("smaller_die", start, (3, 1), [(8, 5), (6, 5)]) is None


# --- the script of a 3-game clip ----------------------------------------------------------


@pytest.fixture(scope="module")
def testbed_script():  # type: ignore[no-untyped-def]
    text = TESTBED.read_text()
    cfg = ClipConfig(
        mat_text=text,
        mat_name="testbed",
        out=Path("/nonexistent"),
        seed=5,
        games=(2, 3, 4),
        faults="all",
        fps=4.0,
    )
    script, _look, _replay = build_script(cfg)
    return text, script


def test_every_fault_kind_happens_in_the_testbed_games(testbed_script) -> None:  # type: ignore[no-untyped-def]
    _, script = testbed_script
    kinds = Counter(f["kind"] for f in script.faults)
    assert script.not_injected == ()
    assert set(kinds) == set(ALL_KINDS)


def test_ground_truth_replays_to_the_source_games(testbed_script) -> None:  # type: ignore[no-untyped-def]
    text, script = testbed_script
    mat = write_mat(record_from_events(script.events))
    again = replay_mat(mat)
    assert again.ok, [p.describe() for p in again.all_problems()]
    assert entries_of(mat, (2, 3, 4)) == entries_of(text, (2, 3, 4))


def test_a_checker_on_the_bar_stands_beside_the_cube_not_under_it(testbed_script) -> None:  # type: ignore[no-untyped-def]
    """The cube is put in the middle of the bar at the start; a checker hit later
    stands beside it, as a player puts it (under it, it was hidden while the truth had
    it on the bar: s40 clip 3501 at 34 s; 571 of the testbed's 1,424 such frames)."""
    import math

    from gammoneye.datasets.render.clip import frame_checkers
    from gammoneye.datasets.render.placing import cube_spot

    _, script = testbed_script
    setup = script.setup
    both = 0
    for frame in script.frames:
        spot = cube_spot(setup.geometry, frame.cube)
        bar = [c for c in frame_checkers(setup, frame) if c.where == "bar"]
        if spot and bar:
            both += 1
            [(cx, cy, cr)] = spot
            assert all(math.hypot(c.x - cx, c.y - cy) >= c.radius + cr for c in bar), frame
    assert both > 100  # the testbed hits often while the cube lies in the middle


def test_faults_are_marked_in_the_event_log(testbed_script) -> None:  # type: ignore[no-untyped-def]
    _, script = testbed_script
    events = script.events
    by_seq = {e.seq: e for e in events}
    for fault in script.faults:
        if fault["kind"] == "takeback":  # legal: no event, only its frame
            assert fault["seq"] is None and fault["frame"] < len(script.frames)
            continue
        marked = by_seq[fault["seq"]]
        if fault["kind"] in ILLEGAL_KINDS:
            assert isinstance(marked, FlagEvent) and marked.kind == "illegal_play"
            assert marked.rule == ILLEGAL_KINDS[fault["kind"]]
            # the illegal move before it, the correction and the redone move after it
            before = events[marked.seq - 1]
            assert isinstance(before, MoveEvent) and not before.legal
            cleared = next(e for e in events[marked.seq :] if isinstance(e, FlagClearedEvent))
            assert cleared.flag_id == marked.flag_id and cleared.how == "corrected"
            redo = events[cleared.seq + 1]
            assert isinstance(redo, MoveEvent) and redo.legal and redo.player == before.player
        elif fault["kind"] == "premature" and fault["stands"]:
            assert isinstance(marked, RollEvent) and "stands" in (marked.note or "")
        else:
            assert isinstance(marked, RollInvalidEvent)
            assert marked.reasons == (fault["kind"],)


def test_event_times_follow_the_frames(testbed_script) -> None:  # type: ignore[no-untyped-def]
    _, script = testbed_script
    frames = [e.frame for e in script.events]
    assert frames == sorted(frames)  # type: ignore[type-var]
    assert all(e.t == pytest.approx(e.frame / script.fps) for e in script.events)  # type: ignore[operator]
    assert frames[-1] < len(script.frames)  # type: ignore[operator]


def test_lifting_the_dice_ends_the_turn(testbed_script) -> None:  # type: ignore[no-untyped-def]
    # A move is recorded at the frame where its dice leave the table [001 4.1(vi)(a)]
    _, script = testbed_script
    moves = [e for e in script.events if isinstance(e, MoveEvent) and e.legal]
    lifted = 0
    for move in moves:
        f = script.frames[move.frame]  # type: ignore[index]
        if not any(d.owner == move.player for d in f.dice):
            lifted += 1
    # a premature roll that stands ends the turn while the mover's dice are still down
    assert lifted >= len(moves) - sum(1 for f in script.faults if f["kind"] == "premature")


# --- rendering -----------------------------------------------------------------------------


def _small(out: Path, **kw: object) -> ClipConfig:
    text = TESTBED.read_text()
    args: dict[str, object] = dict(
        mat_text=text,
        mat_name="testbed.mat",
        out=out,
        seed=3,
        games=(1,),
        faults="cocked=0.5,illegal=0.1",
        fps=1.0,
        width=320,
        height=180,
    )
    args.update(kw)
    return ClipConfig(**args)  # type: ignore[arg-type]


def test_render_writes_frames_and_truth(tmp_path: Path) -> None:
    out = tmp_path / "clip"
    summary = render_clip(_small(out), workers=2)
    frames = sorted((out / "frames").glob("*.jpg"))
    assert len(frames) == summary.frames > 50
    truth = (out / "frames.jsonl").read_text().splitlines()
    assert len(truth) == summary.frames
    first = json.loads(truth[0])
    assert set(first) == {"frame", "t", "phase", "hands", "checkers", "in_air", "dice", "cube"}
    events, problems = read_event_log((out / "events.jsonl").read_text(), strict=True)
    assert problems == [] and len(events) == summary.events
    manifest = json.loads((out / "clip.json").read_text())
    assert manifest["frames"] == summary.frames and manifest["games"] == [1]
    assert replay_mat((out / "match.mat").read_text()).ok


def test_same_seed_same_frames_and_resume(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    render_clip(_small(a, games=(1,)), workers=1)
    render_clip(_small(b, games=(1,)), workers=2)
    names = sorted(p.name for p in (a / "frames").iterdir())
    assert names == sorted(p.name for p in (b / "frames").iterdir())
    assert all((a / "frames" / n).read_bytes() == (b / "frames" / n).read_bytes() for n in names)
    assert (a / "events.jsonl").read_bytes() == (b / "events.jsonl").read_bytes()
    # a crash lost two frames: running again renders exactly those
    (a / "frames" / names[5]).unlink()
    (a / "frames" / names[-1]).unlink()
    seen: list[int] = []
    render_clip(_small(a, games=(1,)), workers=1, progress=seen.append)
    assert sum(seen) == len(names) and (a / "frames" / names[5]).exists()


# --- the command line ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--faults", "bogus=1"], "unknown fault kind 'bogus'"),
        (["--games", "9"], "no game 6"),
        (["--profile", "fide"], "fide"),
    ],
)
def test_clip_cli_errors(tmp_path: Path, args: list[str], message: str) -> None:
    result = CliRunner().invoke(
        app, ["render", "clip", "--mat", str(TESTBED), "--out", str(tmp_path / "o"), *args]
    )
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output


def test_clip_cli_missing_mat(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app, ["render", "clip", "--mat", str(tmp_path / "nope.mat"), "--out", str(tmp_path / "o")]
    )
    assert result.exit_code == 2
    assert "no such file" in result.output


def _luma(bgr: tuple[int, int, int]) -> float:
    return 0.114 * bgr[0] + 0.587 * bgr[1] + 0.299 * bgr[2]


def test_every_players_dice_have_pips_that_show() -> None:
    """Both players' dice are a colour of DICE_COLOURS with that colour's own pips,
    never one colour's body with another's pips (black pips on a black die)."""
    import numpy as np

    from gammoneye.datasets.render.clip import clip_look
    from gammoneye.datasets.render.styles import DICE_COLOURS

    pairs = {(tuple(body), tuple(pips)) for _, body, pips in DICE_COLOURS}
    assert min(abs(_luma(b) - _luma(p)) for b, p in pairs) > 100
    bodies = set()
    for seed in range(40):
        cfg = ClipConfig(mat_text="", mat_name="", out=Path("unused"), seed=seed)
        look = clip_look(cfg, np.random.default_rng([seed, 0xC11]))
        for d in look.setup.dice_looks:
            assert (tuple(d.body), tuple(d.pips)) in pairs, (seed, d)
        a, b = look.setup.dice_looks
        bodies.add(a.body != b.body)
    assert bodies == {True, False}  # some matches have two colours of dice, some one
