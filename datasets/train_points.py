"""Train the point counter: a small CNN that reads how many checkers stand on a point.

Input: the upright point strips of ``gammoneye render export-crops`` (base at the
bottom, 32 x 128 pixels, BGR), output: a distribution over 0..15 checkers. Colour is
not its job: which of the board's two colours a pile has is read against the colours
learned from the opening position.

Training needs the ``train`` extra (torch); the trained net is exported to ONNX and
read at run time by OpenCV's DNN module (:mod:`gammoneye.vision.points`), so the
runtime needs no torch. Everything is seeded; the command that made the committed
model is in ``vision/models/README.md``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

INPUT_W, INPUT_H = 32, 128
CLASSES = 16  # 0..15 checkers

U8 = NDArray[np.uint8]


class TrainError(ValueError):
    """Missing crops, or torch not installed."""


def load_strips(
    folders: Sequence[Path], skip_hidden: bool = True
) -> tuple[U8, NDArray[np.int64], list[dict[str, Any]]]:
    """The point strips of the crop folders: images (N, H, W, 3), counts (N,), index;
    with ``skip_hidden`` not those a hand covers (``hand_overlap`` > 0.2)."""
    images: list[U8] = []
    counts: list[int] = []
    meta: list[dict[str, Any]] = []
    for folder in folders:
        index = folder / "points.jsonl"
        if not index.exists():
            raise TrainError(
                f"{folder} has no points.jsonl: make it with 'gammoneye render export-crops'"
            )
        for line in index.read_text().splitlines():
            item = json.loads(line)
            if skip_hidden and item.get("hand_overlap", 0.0) > 0.2:
                continue  # under a hand: no picture can tell the count
            img = cv2.imread(str(folder / item["file"]), cv2.IMREAD_COLOR)
            if img is None:
                raise TrainError(f"cannot read {folder / item['file']}")
            if img.shape[:2] != (INPUT_H, INPUT_W):
                img = cv2.resize(img, (INPUT_W, INPUT_H), interpolation=cv2.INTER_AREA)
            images.append(img)
            counts.append(min(int(item["count"]), CLASSES - 1))
            meta.append(item)
    if not images:
        raise TrainError("no point strips in " + ", ".join(str(f) for f in folders))
    return np.stack(images), np.array(counts, np.int64), meta


def _net() -> Any:
    import torch.nn as nn

    def block(cin: int, cout: int, pool: bool) -> list[Any]:
        layers: list[Any] = [
            nn.Conv2d(cin, cout, 3, padding=1, bias=False),
            nn.BatchNorm2d(cout),
            nn.ReLU(),
        ]
        return [*layers, nn.MaxPool2d(2)] if pool else layers

    return nn.Sequential(
        *block(3, 16, True),
        *block(16, 32, True),
        *block(32, 64, True),
        *block(64, 64, False),
        nn.Flatten(),
        nn.Linear(64 * (INPUT_H // 8) * (INPUT_W // 8), 128),
        nn.ReLU(),
        nn.Dropout(0.2),
        nn.Linear(128, CLASSES),
    )


@dataclass(frozen=True)
class TrainSummary:
    samples: int
    epochs: int
    seconds: float
    train_accuracy: float


def train(
    folders: Sequence[Path],
    out: Path,
    *,
    epochs: int = 8,
    seed: int = 0,
    batch: int = 128,
    log: Callable[[str], None] = print,
) -> TrainSummary:
    """Train on the strips of ``folders`` and write the ONNX model to ``out``."""
    images, counts, _ = load_strips(folders)  # first: bad crops fail fast, torch or not
    try:
        import torch
    except ImportError:
        raise TrainError("training needs torch: pip install -e '.[train]'") from None
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    x_all = torch.from_numpy(images).permute(0, 3, 1, 2).contiguous()  # uint8 NCHW
    y_all = torch.from_numpy(counts)
    net = _net()
    opt = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=1e-4)
    loss_fn = torch.nn.CrossEntropyLoss()
    start = time.perf_counter()
    correct = 0
    # tall piles are rare in play but must be read: each epoch sees them more often
    weight = np.where(counts >= 6, 6, np.where(counts >= 4, 2, 1))
    pool = np.repeat(np.arange(len(images)), weight)
    steps = epochs * ((len(pool) + batch - 1) // batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    for epoch in range(epochs):
        order = rng.permutation(pool)
        net.train()
        correct = 0
        total_loss = 0.0
        for i in range(0, len(order), batch):
            idx = torch.from_numpy(order[i : i + batch])
            xb = x_all[idx].float() / 255.0
            # light and colour vary more in real pictures than in any render set
            gain = torch.empty(len(idx), 3, 1, 1).uniform_(0.7, 1.3)
            bias = torch.empty(len(idx), 1, 1, 1).uniform_(-0.12, 0.12)
            xb = (xb * gain + bias).clamp(0, 1)
            flip = torch.rand(len(idx)) < 0.5
            xb[flip] = xb[flip].flip(3)
            yb = y_all[idx]
            logits = net(xb)
            loss = loss_fn(logits, yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total_loss += float(loss.detach()) * len(idx)
            correct += int((logits.argmax(1) == yb).sum())
        log(
            f"epoch {epoch + 1}/{epochs}: loss {total_loss / len(order):.4f}, "
            f"train accuracy {correct / len(order):.4f} ({time.perf_counter() - start:.0f} s)"
        )
    net.eval()
    out.parent.mkdir(parents=True, exist_ok=True)
    dummy = torch.zeros(1, 3, INPUT_H, INPUT_W)
    torch.onnx.export(
        net,
        (dummy,),
        str(out),
        input_names=["strip"],
        output_names=["logits"],
        opset_version=13,
        dynamo=False,
        dynamic_axes={"strip": {0: "n"}, "logits": {0: "n"}},
    )
    return TrainSummary(len(images), epochs, time.perf_counter() - start, correct / len(pool))
