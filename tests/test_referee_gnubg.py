"""The ``match.mat`` the referee writes for a clean clip imports into GNU Backgammon
and matches the source transcript move for move (issue 5).

A clip of two games of a real match is refereed with its ground truth as the camera
(:class:`~gammoneye.service.referee.TruthEyes`: vision set aside), the transcript
written as ``gammoneye referee`` writes it (``MatchFiles``, after every batch of
events). GNU Backgammon imports it and exports it again; in every game the dice, the
cube actions and the result must be the source's, as written, and every play must
leave the position the source's play leaves, as GNU Backgammon reads both (a play's
notation may differ where a checker's path cannot be seen: 13/7 7/3 or 13/9 9/3).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gammoneye.datasets.render.clip import ClipConfig, write_clip_truth
from gammoneye.engine.matfile import read_mat
from gammoneye.engine.referee import Referee
from gammoneye.service.journal import MatchFiles
from gammoneye.service.referee import TruthEyes, clip_referee_config, read_truth, run_referee

import gnubg_cli

pytestmark = pytest.mark.oracle

# Games 1-2 of a human match: hits, bear-offs, doubles taken, a redouble dropped;
# 84 plays, 4,610 frames at 10 fps.
SOURCE = "kevung_charlot1-charlot2_7p.mat"
GAMES = (1, 2)
SEED = 5


def _actions(text: str, where: str) -> list[tuple[object, ...]]:
    """Each game's score, players and actions as (player, kind, dice, cube, points),
    from a transcript read strictly."""
    record, problems = read_mat(text)
    assert not problems, f"{where}: {problems}"
    return [
        (
            game.score,
            game.players,
            [(a.player, a.kind, a.dice, a.cube, a.points) for a in game.actions],
        )
        for game in record.games
    ]


def _positions(path: Path, binary: Path) -> list[tuple[object, ...]]:
    """GNU Backgammon's reading of a transcript: after each record, who did what with
    which dice, and the Position ID and Match ID it leaves."""
    return [
        (s.game, s.action, s.player, s.dice, s.position_id, s.match_id)
        for s in gnubg_cli.gnubg_ids_after_each_move(path, binary=binary)
    ]


def test_the_referees_mat_imports_into_gnubg_and_matches_the_source(
    gnubg_binary: Path, mat_dir: Path, tmp_path: Path
) -> None:
    src = mat_dir / SOURCE
    clip = tmp_path / "clip"
    write_clip_truth(ClipConfig(src.read_text("utf-8"), src.name, clip, seed=SEED, games=GAMES))
    truth = read_truth(clip)
    ref = Referee(clip_referee_config(clip, truth), t=0.0)
    outputs = MatchFiles(tmp_path / "out")
    outputs.write(ref.events)
    eyes = TruthEyes(clip)
    observer = [e for e in truth if e.source == "observer" and e.TYPE != "match_start"]
    stats = run_referee(
        eyes.frames(),
        eyes,
        ref,
        observer=observer,
        on_events=lambda new: outputs.write(ref.events),
    )
    assert not stats.refused
    assert not [e for e in ref.events if e.TYPE in ("flag", "roll_invalid")], "a clean clip"
    ours = tmp_path / "out" / "match.mat"

    exported = tmp_path / "ours-by-gnubg.mat"
    said = gnubg_cli.roundtrip_mat(ours, exported, binary=gnubg_binary)
    assert "Unrecognised" not in said, said[-2000:]
    source = tmp_path / "source-by-gnubg.mat"
    gnubg_cli.roundtrip_mat(src, source, binary=gnubg_binary)

    # The dice (as written: the higher die first), the cube and the results, action for
    # action, in gnubg's export.
    got = _actions(exported.read_text("utf-8"), "gnubg's export of ours")
    want = _actions(source.read_text("utf-8"), "gnubg's export of the source")
    want = [want[n - 1] for n in GAMES]
    assert len(got) == len(GAMES)
    for n, (g, w) in enumerate(zip(got, want, strict=True), start=GAMES[0]):
        assert g[:2] == w[:2], f"game {n}: score and players"
        assert len(g[2]) == len(w[2]), f"game {n}: {len(g[2])} actions, the source {len(w[2])}"
        for i, (a, b) in enumerate(zip(g[2], w[2], strict=True)):  # type: ignore[call-overload]
            assert a == b, f"game {n}, action {i}"
    # The plays: the position each leaves, as gnubg reads both. (The notation may differ
    # where the checker's path cannot be seen: a 64 played 13/3 is 13/7 7/3 or 13/9 9/3.)
    ids = _positions(exported, gnubg_binary)
    source_ids = [s for s in _positions(source, gnubg_binary) if s[0] + 1 in GAMES]
    assert len(ids) == len(source_ids) > 80
    for step, (a, b) in enumerate(zip(ids, source_ids, strict=True)):
        assert a == b, f"record {step} of games {GAMES}"
    assert re.search(r"^ 7 point match$", exported.read_text("utf-8"), re.M)
