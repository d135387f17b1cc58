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


def test_packed_dice_are_those_training_takes_from_the_folders(tmp_path: Path) -> None:
    """The packer keeps what load_dice learns from: a row with no box size is kept by
    both (the packer dropped it once), a small or cut-off die by neither."""
    _folder(tmp_path / "a", [(3, False, 8.0, False), (4, True, 15.0, False),
                             (5, False, 30.0, True)])
    rows = [json.loads(line) for line in (tmp_path / "a" / "dice.jsonl").read_text().splitlines()]
    rows.append({"file": rows[0]["file"], "value": 2, "cocked": False})  # no box_px
    (tmp_path / "a" / "dice.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = tmp_path / "packed"
    assert _bench().main([str(tmp_path / "a"), "--out", str(out)]) == 0
    want = load_dice([tmp_path / "a"], min_box_px=10.0)[1].tolist()
    assert want == [9, 1]
    assert load_dice([out], min_box_px=10.0)[1].tolist() == want


def test_packed_photos_cut_the_same_dice_as_the_photos(tmp_path: Path) -> None:
    """Each photo cut round its dice, its labels moved: the crops training cuts from
    the packed photos are those of the photos (but for the JPEG saved again)."""
    from gammoneye.datasets.train_dice import load_photo_dice

    src = tmp_path / "photos"
    src.mkdir()
    rng = np.random.default_rng(7)
    for k, boxes in enumerate([[(2, 0.30, 0.40, 0.08, 0.10), (4, 0.62, 0.55, 0.07, 0.09)],
                               [(0, 0.85, 0.20, 0.06, 0.08)]]):
        img = cv2.GaussianBlur(rng.integers(0, 255, (240, 320, 3)).astype(np.uint8), (9, 9), 3)
        cv2.imwrite(str(src / f"p{k}.jpg"), img, [cv2.IMWRITE_JPEG_QUALITY, 98])
        (src / f"p{k}.txt").write_text("".join(" ".join(map(str, b)) + "\n" for b in boxes))
    (src / "empty.txt").write_text("")  # no die: left out
    cv2.imwrite(str(src / "empty.jpg"), np.zeros((20, 20, 3), np.uint8))
    out = tmp_path / "packed"
    assert _bench().main(["--photos", str(src), "--out", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["p0.jpg", "p0.txt", "p1.jpg", "p1.txt"]
    assert cv2.imread(str(out / "p0.jpg")).shape[1] < 320  # cut round its dice
    x0, y0 = load_photo_dice(src)
    x1, y1 = load_photo_dice(out)
    assert y0.tolist() == y1.tolist() == [2, 4, 0]
    assert np.abs(x0.astype(int) - x1.astype(int)).mean() < 4
    with pytest.raises(SystemExit):  # photos and crop folders are not packed together
        _bench().main([str(out), "--photos", str(src), "--out", str(tmp_path / "o")])


def test_hard_dice_are_kept_whatever_row_every_falls_on(tmp_path: Path) -> None:
    """``--hard P`` keeps the dice the shipped reader gives their true face less than
    P besides every n-th: crops labelled with the face the reader likes least are
    kept, those labelled with its best are thinned as --every says."""
    from gammoneye.vision.dice import DiceReader

    rows = [(1 + k % 6, False, 14.0 + k, False) for k in range(8)]
    _folder(tmp_path / "a", rows)
    imgs = np.stack([cv2.resize(cv2.imread(str(p)), (48, 48), interpolation=cv2.INTER_AREA)
                     for p in sorted((tmp_path / "a" / "dice").iterdir())])
    values, _ = DiceReader.load().read(imgs)
    best, worst = values.argmax(axis=1), values.argmin(axis=1)
    assert values.max(axis=1).min() > values.min(axis=1).max()
    hard = float(values.max(axis=1).min() + values.min(axis=1).max()) / 2
    # even rows labelled with the reader's best face, odd rows with its worst
    labels = [int(best[k] if k % 2 == 0 else worst[k]) + 1 for k in range(8)]
    index = tmp_path / "a" / "dice.jsonl"
    lines = [json.loads(line) for line in index.read_text().splitlines()]
    relabelled = zip(lines, labels, strict=True)
    index.write_text("".join(json.dumps({**r, "value": v}) + "\n" for r, v in relabelled))
    out = tmp_path / "packed"
    argv = [str(tmp_path / "a"), "--out", str(out), "--every", "4", "--hard", str(hard)]
    assert _bench().main(argv) == 0
    kept = [json.loads(line)["box_px"] for line in (out / "dice.jsonl").read_text().splitlines()]
    assert kept == [14.0, 15.0, 17.0, 18.0, 19.0, 21.0]  # rows 0 and 4 by --every, odd rows hard
    with pytest.raises(SystemExit):
        _bench().main([str(tmp_path / "a"), "--out", str(tmp_path / "o"), "--hard", "1.5"])
