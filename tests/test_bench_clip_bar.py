"""bench/clip_bar.py: the bar of a rendered clip's still frames is read and scored
against the clip's truth, each reader colour named for its player by the opening."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from gammoneye.datasets.render.clip import ClipConfig, render_clip

REPO = Path(__file__).resolve().parents[1]


def _bench():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("clip_bar", REPO / "bench" / "clip_bar.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_the_bar_of_a_clips_still_frames_is_scored_against_its_truth(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    clip = tmp_path / "clip"
    render_clip(
        ClipConfig(
            mat_text=(REPO / "service" / "data" / "testbed_match.mat").read_text(),
            mat_name="testbed.mat",
            out=clip,
            seed=5,
            games=(1,),
            faults="none",
            fps=1.0,
        ),
        workers=2,
    )
    bench = _bench()
    tally = bench.measure(clip, 1)
    assert tally is not None and tally.frames >= 20
    assert tally.right >= 0.9 * tally.frames
    assert 0 <= tally.held_right <= tally.held <= tally.frames
    assert tally.now_right + tally.before_right <= 2 * tally.differ
    with_dice = bench.measure(clip, 1, dice_only=True, wrong=True)
    assert with_dice is not None and with_dice.frames == with_dice.dice == tally.dice
    # each frame read wrong printed, and none else
    printed = capsys.readouterr().out
    assert printed.count(" frame ") == with_dice.frames - with_dice.right
    both = bench.Tally()
    both.add(tally)
    both.add(with_dice)
    assert (both.frames, both.right) == (
        tally.frames + with_dice.frames,
        tally.right + with_dice.right,
    )


def test_clip_bar_refuses_what_is_no_clip(tmp_path: Path) -> None:
    bench = _bench()
    with pytest.raises(SystemExit):
        bench.main([str(tmp_path / "none")])  # nothing there
    with pytest.raises(SystemExit):
        bench.main([str(tmp_path)])  # a folder without clips
    with pytest.raises(SystemExit):
        bench.main([str(REPO / "tests"), "--every", "0"])
