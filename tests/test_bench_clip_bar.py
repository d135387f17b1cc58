"""bench/clip_bar.py: the bar of a rendered clip's still frames is read and scored
against the clip's truth, each reader colour named for its player by the opening."""

from __future__ import annotations

from pathlib import Path

import pytest
from benches import REPO, load_bench, render_testbed_clip


def test_the_bar_of_a_clips_still_frames_is_scored_against_its_truth(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    clip = render_testbed_clip(tmp_path / "clip")
    bench = load_bench("clip_bar")
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
    bench = load_bench("clip_bar")
    with pytest.raises(SystemExit):
        bench.main([str(tmp_path / "none")])  # nothing there
    with pytest.raises(SystemExit):
        bench.main([str(tmp_path)])  # a folder without clips
    with pytest.raises(SystemExit):
        bench.main([str(REPO / "tests"), "--every", "0"])
