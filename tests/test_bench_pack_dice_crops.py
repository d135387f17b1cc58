"""bench/pack_dice_crops.py: dice crop folders packed into one small folder that the
die reader's training reads as it reads the folders themselves."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from gammoneye.datasets.train_dice import load_dice

REPO = Path(__file__).resolve().parents[1]


def _bench():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("pack", REPO / "bench" / "pack_dice_crops.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _folder(path: Path, rows: list[tuple[int, bool, float, bool]]) -> None:
    (path / "dice").mkdir(parents=True)
    lines = []
    for k, (value, cocked, box, truncated) in enumerate(rows):
        img = np.zeros((64, 64, 3), np.uint8)
        img[16:48, 16:48] = 30 * value  # a square whose shade is the face
        cv2.imwrite(str(path / "dice" / f"{k:04d}-0.png"), img)
        lines.append(json.dumps({"file": f"dice/{k:04d}-0.png", "value": value,
                                 "cocked": cocked, "box_px": box, "truncated": truncated}))
    (path / "dice.jsonl").write_text("\n".join(lines) + "\n")


def test_packed_dice_keep_every_nth_readable_die_with_its_label(tmp_path: Path) -> None:
    _folder(tmp_path / "a", [(1, False, 12.0, False), (2, True, 13.0, False),
                             (3, False, 8.0, False), (4, False, 15.0, True),
                             (5, False, 20.0, False), (6, True, 11.0, False)])
    _folder(tmp_path / "b", [(6, False, 16.5, False)])
    out = tmp_path / "packed"
    assert _bench().main([str(tmp_path / "a"), str(tmp_path / "b"), "--out", str(out)]) == 0
    x, y = load_dice([out], min_box_px=10.0)
    # the 8 px die and the one cut off by the picture's edge are left out
    assert y.tolist() == [0, 7, 4, 11, 5]
    assert x.shape == (5, 48, 48, 3)
    assert abs(int(x[0, 24, 24, 0]) - 30) <= 3 and abs(int(x[2, 24, 24, 0]) - 150) <= 3
    out2 = tmp_path / "every2"
    assert _bench().main([str(tmp_path / "a"), "--out", str(out2), "--every", "2"]) == 0
    assert load_dice([out2], min_box_px=10.0)[1].tolist() == [0, 4]  # rows 0, 2 (8 px), 4
    with pytest.raises(SystemExit):  # a packed folder is not packed over
        _bench().main([str(tmp_path / "b"), "--out", str(out)])
