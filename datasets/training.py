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


#: Per network size: the channels of the four conv blocks, the dense layer's units, its
#: dropout, and how many of the blocks end in a 2 x 2 max pool (the first ones).
#: ``small`` reads point strips; ``wide`` reads dice and the cube, whose pips and
#: numerals at 15-25 px need more filters.
ARCHS: dict[str, tuple[tuple[int, int, int, int], int, float, int]] = {
    "small": ((16, 32, 64, 64), 128, 0.2, 3),
    "wide": ((32, 64, 128, 128), 192, 0.3, 3),
    # twice the filters of ``wide`` at its widest: for many more training crops than
    # a CPU can go through (trained on a GPU, ``datasets/train_bulk.py``)
    "wider": ((48, 96, 192, 256), 256, 0.3, 3),
    # for 64 px crops (twice the pixels of 48): a fourth pool keeps the dense layer
    # as it is at 48 px with three (``wider`` at 64 px is a 19 MB model)
    "wide4": ((32, 64, 128, 128), 192, 0.3, 4),
    "wider4": ((48, 96, 192, 256), 256, 0.3, 4),
}


def _net(height: int, width: int, classes: int, arch: str = "small") -> Any:
    import torch.nn as nn

    def block(cin: int, cout: int, pool: bool) -> list[Any]:
        layers: list[Any] = [
            nn.Conv2d(cin, cout, 3, padding=1, bias=False),
            nn.BatchNorm2d(cout),
            nn.ReLU(),
        ]
        return [*layers, nn.MaxPool2d(2)] if pool else layers

    (c1, c2, c3, c4), hidden, drop, pools = ARCHS[arch]
    shrink = 2**pools
    return nn.Sequential(
        *block(3, c1, pools > 0),
        *block(c1, c2, pools > 1),
        *block(c2, c3, pools > 2),
        *block(c3, c4, pools > 3),
        nn.Flatten(),
        nn.Linear(c4 * (height // shrink) * (width // shrink), hidden),
        nn.ReLU(),
        nn.Dropout(drop),
        nn.Linear(hidden, classes),
    )


def _recolour(xb: Any) -> Any:
    """Per picture of a batch (N, 3, H, W) in 0..1: channels in a random order (half of
    them), grey (1 in 5), inverted (1 in 5)."""
    import torch

    n, dev = len(xb), xb.device
    perm = torch.argsort(torch.rand(n, 3, device=dev), dim=1)  # a random order each
    keep = torch.rand(n, device=dev) < 0.5
    perm[keep] = torch.arange(3, device=dev)
    xb = torch.gather(xb, 1, perm[:, :, None, None].expand_as(xb))
    grey = torch.rand(n, device=dev) < 0.2
    xb[grey] = xb[grey].mean(dim=1, keepdim=True).expand(-1, 3, -1, -1)
    inv = torch.rand(n, device=dev) < 0.2
    xb[inv] = 1.0 - xb[inv]
    return xb


def _zoom(xb: Any, low: float, high: float, shift: float) -> Any:
    """Per picture of a batch (N, 3, H, W): seen as if its box had been ``low`` to
    ``high`` times the object's size (above 1 the object shrinks, the edge pixels
    stretched outwards) and its centre off by up to ``shift`` of the crop's half
    side: the boxes a detector draws at run time are never the labelled ones."""
    import torch
    import torch.nn.functional as F

    n, dev = len(xb), xb.device
    z = torch.empty(n, device=dev).uniform_(low, high)
    theta = torch.zeros(n, 2, 3, device=dev)
    theta[:, 0, 0] = z
    theta[:, 1, 1] = z
    theta[:, :, 2] = torch.empty(n, 2, device=dev).uniform_(-shift, shift)
    grid = F.affine_grid(theta, list(xb.shape), align_corners=False)
    return F.grid_sample(xb, grid, mode="bilinear", padding_mode="border", align_corners=False)


def _warm_start(net: Any, path: Path, sample: Any) -> None:
    """Start ``net`` from an ONNX model this module exported for the same network
    (same ``arch``, input and classes). The export folded each batch norm into its
    convolution, so the convolutions take the folded weights and each batch norm is
    set, from ``sample`` (N, 3, H, W in 0..1), to pass its input through unchanged
    plus the folded bias, in training (batch statistics) and in eval mode alike."""
    import onnx
    import torch
    from onnx import numpy_helper

    if not path.is_file():
        raise TrainError(f"--init {path}: no such file")
    try:
        model = onnx.load(str(path))
    except Exception as exc:  # protobuf's DecodeError and friends: not an ONNX file
        raise TrainError(f"--init {path}: not an ONNX model ({exc})") from None
    init = {t.name: numpy_helper.to_array(t).copy() for t in model.graph.initializer}
    convs = [(n.input[1], n.input[2]) for n in model.graph.node if n.op_type == "Conv"]
    gemms = [(n.input[1], n.input[2]) for n in model.graph.node if n.op_type == "Gemm"]
    layers = list(net)
    conv_at = [i for i, m in enumerate(layers) if isinstance(m, torch.nn.Conv2d)]
    dense_at = [i for i, m in enumerate(layers) if isinstance(m, torch.nn.Linear)]
    if len(convs) != len(conv_at) or len(gemms) != len(dense_at):
        raise TrainError(f"{path} is not a model of this network (--init)")
    try:
        with torch.no_grad():
            x = sample
            done = 0
            for (w, b), i in zip(convs, conv_at, strict=True):
                for m in layers[done:i]:
                    x = m(x)
                conv, bn = layers[i], layers[i + 1]
                conv.weight.copy_(torch.from_numpy(init[w]))
                x = conv(x)
                mean, var = x.mean(dim=(0, 2, 3)), x.var(dim=(0, 2, 3), unbiased=False)
                bn.running_mean.copy_(mean)
                bn.running_var.copy_(var)
                bn.weight.copy_(torch.sqrt(var + bn.eps))
                bn.bias.copy_(mean + torch.from_numpy(init[b]))
                x = bn(x)
                done = i + 2
            for (w, b), i in zip(gemms, dense_at, strict=True):
                layers[i].weight.copy_(torch.from_numpy(init[w]))
                layers[i].bias.copy_(torch.from_numpy(init[b]))
    except (KeyError, RuntimeError) as exc:
        raise TrainError(f"{path} is not a model of this network (--init): {exc}") from None


def _accuracy(net: Any, images: U8, labels: NDArray[np.int64], device: str = "cpu") -> float:
    """Share of ``images`` whose top class is their label (the net in eval mode)."""
    import torch

    right = 0
    with torch.no_grad():
        for i in range(0, len(images), 256):
            x = torch.from_numpy(images[i : i + 256]).to(device).permute(0, 3, 1, 2).float()
            y = torch.from_numpy(labels[i : i + 256]).to(device)
            right += int((net(x / 255.0).argmax(1) == y).sum())
    return right / max(len(images), 1)


def _export(net: Any, height: int, width: int, out: Path) -> None:
    """Write ``net`` (a copy of it on the CPU, in eval mode) to ``out`` as ONNX."""
    import copy

    import torch

    net.eval()
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(
        copy.deepcopy(net).cpu(),
        (torch.zeros(1, 3, height, width),),
        str(out),
        input_names=["crop"],
        output_names=["logits"],
        opset_version=13,
        dynamo=False,
        dynamic_axes={"crop": {0: "n"}, "logits": {0: "n"}},
    )


def pick_device(device: str) -> str:
    """``auto``: the GPU where torch sees one (CUDA), else the CPU; else ``device``,
    which torch must know and, for CUDA, see (TrainError otherwise)."""
    import torch

    if device == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    try:
        kind = torch.device(device).type
    except RuntimeError:
        raise TrainError(f"device {device!r}: not one torch knows (cpu, cuda, auto)") from None
    if kind == "cuda" and not torch.cuda.is_available():
        raise TrainError(f"device {device!r}: torch sees no CUDA GPU here (use cpu or auto)")
    return device


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
    recolour: bool = False,
    arch: str = "small",
    max_lr: float = 3e-3,
    val: tuple[U8, NDArray[np.int64]] | None = None,
    init: Path | None = None,
    zoom: tuple[float, float, float] | None = None,
    device: str = "cpu",
    checkpoint: Callable[[int, Path], None] | None = None,
    log: Callable[[str], None] = print,
) -> TrainSummary:
    """Train on ``images`` (N, H, W, 3) BGR uint8 with ``labels`` in 0..classes-1 and
    write ONNX to ``out``. ``weights``: how many times each sample is drawn per epoch
    (rare classes more often). ``flips``: the crop's meaning survives a left-right flip;
    ``turns``: and quarter turns (square crops seen from above). ``recolour``: the
    class does not depend on colour, so channels are shuffled, pictures turned grey
    or inverted now and then (a white die with black pips inverts to a black die with
    white pips), so the net cannot lean on the colours of the few sets it saw.
    ``arch``: a key of :data:`ARCHS`. ``max_lr``: the one-cycle schedule's peak
    learning rate. ``val``: held-out images and labels whose accuracy is logged after
    every epoch (to see over- or underfitting; it does not steer training). ``init``:
    an ONNX model of the same network to go on from (:func:`_warm_start`). ``zoom``:
    (low, high, shift) of :func:`_zoom`, for crops cut at boxes a detector draws.
    ``device``: where to train (``cpu``, ``cuda``, or ``auto`` for the GPU where there
    is one); the crops are moved there whole. ``checkpoint(epoch, path)``: called after
    every epoch with the model of that epoch exported to ``out`` (a long run killed
    midway still leaves its last epoch's model)."""
    try:
        import torch
    except ImportError:
        raise TrainError("training needs torch: pip install -e '.[train]'") from None
    device = pick_device(device)
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    n, height, width, _ = images.shape
    x_all = torch.from_numpy(images).permute(0, 3, 1, 2).contiguous().to(device)
    y_all = torch.from_numpy(labels).to(device)
    net = _net(height, width, classes, arch)
    if init is not None:
        pick = rng.permutation(n)[:1024]
        sample = torch.from_numpy(images[pick]).permute(0, 3, 1, 2).float() / 255.0
        _warm_start(net, init, sample)
        if val is not None:
            net.eval()
            log(f"from {init}: held-out accuracy {_accuracy(net, *val):.4f}")
    net = net.to(device)
    opt = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=1e-4)
    pool = np.repeat(np.arange(n), weights) if weights is not None else np.arange(n)
    steps = epochs * ((len(pool) + batch - 1) // batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=max_lr, total_steps=steps)
    loss_fn = torch.nn.CrossEntropyLoss()
    start = time.perf_counter()
    correct = 0
    for epoch in range(epochs):
        order = torch.from_numpy(rng.permutation(pool)).to(device)
        net.train()
        right = torch.zeros((), dtype=torch.int64, device=device)
        loss_sum = torch.zeros((), device=device)
        for i in range(0, len(order), batch):
            idx = order[i : i + batch]
            m = len(idx)
            xb = x_all[idx].float() / 255.0
            # light and colour vary more in real pictures than in any render set
            gain = torch.empty(m, 3, 1, 1, device=device).uniform_(0.7, 1.3)
            bias = torch.empty(m, 1, 1, 1, device=device).uniform_(-0.12, 0.12)
            xb = (xb * gain + bias).clamp(0, 1)
            if recolour:
                xb = _recolour(xb)
            if zoom is not None:
                xb = _zoom(xb, *zoom)
            if flips:
                flip = torch.rand(m, device=device) < 0.5
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
            loss_sum += loss.detach() * m  # summed on the device: no wait per step
            right += (logits.argmax(1) == yb).sum()
        correct = int(right)
        held = ""
        if val is not None:
            net.eval()
            held = f", held-out accuracy {_accuracy(net, *val, device=device):.4f}"
        log(
            f"epoch {epoch + 1}/{epochs}: loss {float(loss_sum) / len(order):.4f}, train "
            f"accuracy {correct / len(order):.4f}{held} ({time.perf_counter() - start:.0f} s)"
        )
        if checkpoint is not None:
            _export(net, height, width, out)
            checkpoint(epoch + 1, out)
    if checkpoint is None or not epochs:  # else the last epoch's export is the model
        _export(net, height, width, out)
    return TrainSummary(n, epochs, time.perf_counter() - start, correct / max(len(pool), 1))
