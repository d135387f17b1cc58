"""Training small image classifiers on CPU, exported to ONNX for OpenCV's DNN module.

Vision's readers (point counter, dice) are small CNNs on fixed-size crops. This is
their one trainer: seeded, with the photometric augmentation real pictures need
(gain per channel, brightness, horizontal flips where the crop allows), optional
oversampling of rare classes, and an ONNX export (opset 13, batch axis dynamic)
that OpenCV reads. Needs torch (the ``train`` extra).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

U8 = NDArray[np.uint8]


class TrainError(ValueError):
    """Missing crops, or torch not installed."""


def read_crops(
    folders: Sequence[Path],
    index: str,
    size: tuple[int, int],
    keep: Callable[[dict[str, Any]], bool] = lambda item: True,
) -> Iterator[tuple[U8, dict[str, Any]]]:
    """The crops ``render export-crops`` listed in ``index`` (``points.jsonl``, ...) of
    each folder that ``keep`` accepts, resized to ``size`` (width, height), with their
    index entries."""
    for folder in folders:
        path = folder / index
        if not path.exists():
            raise TrainError(
                f"{folder} has no {index}: make it with 'gammoneye render export-crops'"
            )
        for line in path.read_text().splitlines():
            item = json.loads(line)
            if not keep(item):
                continue
            img = cv2.imread(str(folder / item["file"]), cv2.IMREAD_COLOR)
            if img is None:
                raise TrainError(f"cannot read {folder / item['file']}")
            if (img.shape[1], img.shape[0]) != size:
                img = cv2.resize(img, size, interpolation=cv2.INTER_AREA)
            yield img, item


def _net(height: int, width: int, classes: int) -> Any:
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
        nn.Linear(64 * (height // 8) * (width // 8), 128),
        nn.ReLU(),
        nn.Dropout(0.2),
        nn.Linear(128, classes),
    )


@dataclass(frozen=True)
class TrainSummary:
    samples: int
    epochs: int
    seconds: float
    train_accuracy: float


def train_classifier(
    images: U8,
    labels: NDArray[np.int64],
    classes: int,
    out: Path,
    *,
    epochs: int,
    seed: int,
    weights: NDArray[np.int64] | None = None,
    flips: bool = True,
    turns: bool = False,
    batch: int = 128,
    log: Callable[[str], None] = print,
) -> TrainSummary:
    """Train on ``images`` (N, H, W, 3) BGR uint8 with ``labels`` in 0..classes-1 and
    write ONNX to ``out``. ``weights``: how many times each sample is drawn per epoch
    (rare classes more often). ``flips``: the crop's meaning survives a left-right flip;
    ``turns``: and quarter turns (square crops seen from above)."""
    try:
        import torch
    except ImportError:
        raise TrainError("training needs torch: pip install -e '.[train]'") from None
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    n, height, width, _ = images.shape
    x_all = torch.from_numpy(images).permute(0, 3, 1, 2).contiguous()
    y_all = torch.from_numpy(labels)
    net = _net(height, width, classes)
    opt = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=1e-4)
    pool = np.repeat(np.arange(n), weights) if weights is not None else np.arange(n)
    steps = epochs * ((len(pool) + batch - 1) // batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    loss_fn = torch.nn.CrossEntropyLoss()
    start = time.perf_counter()
    correct = 0
    for epoch in range(epochs):
        order = rng.permutation(pool)
        net.train()
        correct, total_loss = 0, 0.0
        for i in range(0, len(order), batch):
            idx = torch.from_numpy(order[i : i + batch])
            xb = x_all[idx].float() / 255.0
            # light and colour vary more in real pictures than in any render set
            gain = torch.empty(len(idx), 3, 1, 1).uniform_(0.7, 1.3)
            bias = torch.empty(len(idx), 1, 1, 1).uniform_(-0.12, 0.12)
            xb = (xb * gain + bias).clamp(0, 1)
            if flips:
                flip = torch.rand(len(idx)) < 0.5
                xb[flip] = xb[flip].flip(3)
            if turns:  # square crops of things seen from above: any quarter turn
                k = int(torch.randint(0, 4, (1,)))
                xb = torch.rot90(xb, k, dims=(2, 3))
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
            f"epoch {epoch + 1}/{epochs}: loss {total_loss / len(order):.4f}, train accuracy "
            f"{correct / len(order):.4f} ({time.perf_counter() - start:.0f} s)"
        )
    net.eval()
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(
        net,
        (torch.zeros(1, 3, height, width),),
        str(out),
        input_names=["crop"],
        output_names=["logits"],
        opset_version=13,
        dynamo=False,
        dynamic_axes={"crop": {0: "n"}, "logits": {0: "n"}},
    )
    return TrainSummary(n, epochs, time.perf_counter() - start, correct / max(len(pool), 1))
