"""bench/clip_dice.py: the dice of a rendered clip's still frames are found where the
clip's camera puts them, read, and cut for training with the truth's labels."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from benches import load_bench, render_testbed_clip

from gammoneye.vision.classifier import model_path


def test_dice_of_a_clip_are_matched_read_and_cut(tmp_path: Path) -> None:
    clip = render_testbed_clip(tmp_path / "clip")
    bench = load_bench("clip_dice")
    crops = tmp_path / "crops"
    (crops / "dice").mkdir(parents=True)
    with (crops / "dice.jsonl").open("w") as index:
        tally = bench.measure(clip, 2, crops, index, np.random.default_rng(0))
    assert tally.n >= 10
    assert tally.found >= 0.8 * tally.n  # projected truth and found dice meet
    assert tally.right >= 0.8 * tally.found
    # every die read falls in one band of how sure the reader was
    bands = tally.calibration()
    assert sum(int(line.split()[2]) for line in bands) == tally.read
    both = bench.Tally()
    both.add(tally)
    both.add(tally)
    assert (both.read, len(both.best_p), sum(both.best_right)) == (
        2 * tally.read,
        2 * tally.read,
        2 * tally.right,
    )
    # the dice found are boxed as the detector boxed them, at a die's size
    assert 0 < len(tally.box_px) <= tally.found
    assert all(4 < px < 80 for px in tally.box_px)
    assert "boxed at" in tally.line()
    # each die read is counted once, by its owner, its true face and the face read
    assert tally.confusion.sum() == tally.read
    assert np.trace(tally.confusion, axis1=1, axis2=2).sum() == tally.right
    assert (tally.sure_confusion <= tally.confusion).all()
    assert (both.confusion == 2 * tally.confusion).all()
    lines = tally.confusion_lines()
    shown = [o for o in (0, 1) if tally.confusion[o].sum()]
    assert len(lines) == 7 * len(shown)
    first = tally.confusion[shown[0]]
    assert f"{int(np.trace(first))} / {int(first.sum())} read right" in lines[0]
    entries = [json.loads(line) for line in (crops / "dice.jsonl").read_text().splitlines()]
    assert 0 < len(entries) <= tally.found
    assert all((crops / e["file"]).is_file() and e["value"] in range(1, 7) for e in entries)
    # the crops carry the truth's values, not the reader's
    truth = [json.loads(line) for line in (clip / "frames.jsonl").read_text().splitlines()]
    values = {v for r in truth for v in (d["value"] for d in r["dice"])}
    assert {e["value"] for e in entries} <= values


def test_an_upright_reader_named_is_read_with_the_shipped_turned_one(tmp_path: Path) -> None:
    """``--upright-model`` puts a candidate in dice_upright.onnx's place: the shipped
    one named there reads exactly as by default, another network reads otherwise."""
    clip = render_testbed_clip(tmp_path / "clip")
    bench = load_bench("clip_dice")
    rng = np.random.default_rng(0)
    default = bench.measure(clip, 4, None, None, rng)
    named = bench.measure(clip, 4, None, None, rng, upright_model=model_path("dice_upright.onnx"))
    other = bench.measure(clip, 4, None, None, rng, upright_model=model_path("dice.onnx"))
    assert default.read >= 5
    assert named.best_p == default.best_p and named.right == default.right
    assert other.read == default.read  # the same dice found: only the faces change
    assert other.best_p != default.best_p
