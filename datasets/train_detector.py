"""Train vision's dice and cube detector (ultralytics YOLO) and export it to ONNX.

The detector sees what it will see at run time (:mod:`gammoneye.vision.detector`):

- a rendered still's field warped onto the board canvas, from its true field
  corners jittered like a calibration's error, turned round half the time;
- a close-up still, or now and then a whole still, scaled onto the canvas (what
  ``vision dice`` does with an image it finds no board in);
- a real dice photo (YOLO labels, face classes) scaled onto the canvas, its dice
  class ``die``.

Training runs from a model YAML with no pretrained weights and no plots, offline:
nothing is downloaded.
"""

from __future__ import annotations

import contextlib
import inspect
import json
import os
import shutil
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from gammoneye.vision.detector import (
    CANVAS_H,
    CANVAS_W,
    CLASSES,
    box_through,
    canvas_homography,
    letterbox,
    to_canvas,
)
from gammoneye.vision.dice import yolo_boxes

from .render.labels import LABEL_SCHEMA, LABEL_VERSION
from .render.scene import hash_name
from .training import TrainError

F64 = NDArray[np.float64]
U8 = NDArray[np.uint8]
#: Boxes smaller than this on the canvas (pixels) are left out.
MIN_BOX = 5.0
__all__ = [
    "DetectorSummary",
    "TrainError",
    "build_dataset",
    "export_onnx",
    "merge_datasets",
    "train",
    "weights_from_onnx",
]


def _yolo_line(cls: int, box: F64) -> str | None:
    x0, y0, x1, y1 = np.clip(box, 0, [CANVAS_W, CANVAS_H, CANVAS_W, CANVAS_H])
    if min(x1 - x0, y1 - y0) < MIN_BOX:
        return None
    return (
        f"{cls} {(x0 + x1) / 2 / CANVAS_W:.6f} {(y0 + y1) / 2 / CANVAS_H:.6f} "
        f"{(x1 - x0) / CANVAS_W:.6f} {(y1 - y0) / CANVAS_H:.6f}"
    )


def _objects(label: dict[str, Any]) -> list[tuple[int, F64]]:
    out = []
    for d in label["dice"]:
        if d["box"] and d["in_image"] and d["hidden_by_hand"] <= 0.5:
            out.append((1 if d["cocked"] else 0, np.array(d["box"], np.float64)))
    cube = label.get("cube")
    if cube and cube["box"] and cube["in_image"] and cube["hidden_by_hand"] <= 0.5:
        out.append((2, np.array(cube["box"], np.float64)))
    return out


def _hard(die: dict[str, Any]) -> bool:
    """A die lying on a checker, off the board, or cocked against a checker, the
    board's rail or its edge: the dice the first detectors found least often
    (``bench/detector_recall.py``: a third to two thirds of them, against nine in ten
    flat dice lying free)."""
    if die["cocked"]:
        return die.get("leaning_on") in ("checker", "rail", "edge")
    return bool(die.get("on_checker") or die.get("off_board"))


def still_sample(
    image: U8, label: dict[str, Any], rng: np.random.Generator, whole: float = 0.15
) -> tuple[U8, list[str]]:
    """One training canvas of a rendered still and its YOLO lines."""
    field = label["board"].get("field_corners_px")
    size = (image.shape[1], image.shape[0])
    if field is None or rng.random() < whole:
        h = letterbox(size)
    else:
        corners = np.array(field, np.float64)
        diag = float(np.linalg.norm(corners[2] - corners[0]))
        corners = corners + rng.normal(0, 0.008 * diag, corners.shape)
        if rng.random() < 0.5:
            corners = corners[[2, 3, 0, 1]]
        h = canvas_homography(corners, ordered=True)
    lines = [_yolo_line(c, box_through(b, h)) for c, b in _objects(label)]
    return to_canvas(image, h), [x for x in lines if x]


def photo_sample(image: U8, txt: str) -> tuple[U8, list[str]]:
    """A real dice photo on the canvas; every die (YOLO face class) becomes ``die``."""
    ih, iw = image.shape[:2]
    h = letterbox((iw, ih))
    lines = []
    for _, box in yolo_boxes(txt, iw, ih):
        line = _yolo_line(0, box_through(np.array(box), h))
        if line:
            lines.append(line)
    return to_canvas(image, h), lines


def _names_yaml() -> str:
    """The ``names:`` block of a dataset's ``data.yaml``: the detector's classes."""
    names = "".join(f"  {i}: {json.dumps(n)}\n" for i, n in enumerate(CLASSES))
    return f"names:\n{names}"


def _yolo(what: str) -> Any:
    """ultralytics' ``YOLO``, imported offline (nothing is fetched); a clear error
    where the train extra is not installed."""
    os.environ["YOLO_OFFLINE"] = "true"  # "1" is not offline to older ultralytics
    try:
        from ultralytics import YOLO
    except ImportError:
        raise TrainError(f"{what} needs the train extra: pip install -e '.[train]'") from None
    return YOLO


def build_dataset(
    runs: Sequence[Path],
    photos: Sequence[Path],
    out: Path,
    *,
    seed: int = 0,
    photo_repeats: int = 2,
    hard_repeats: int = 1,
    val_every: int = 20,
    progress: Callable[[int], None] | None = None,
) -> dict[str, int]:
    """Write a YOLO dataset (images/, labels/, data.yaml) of canvases into ``out``:
    every still of the stills ``runs``, every labelled photo of ``photos`` (drawn
    ``photo_repeats`` times). A still with a die the detector finds least often
    (:func:`_hard`: invalid rolls the referee must see) is drawn ``hard_repeats``
    times, each with its own jitter and turn. One image in
    ``val_every`` goes to val (all draws of a picture go to the same split)."""
    if out.exists() and any(out.iterdir()):
        raise TrainError(f"{out} is not empty: choose a new folder")
    for split in ("train", "val"):
        (out / "images" / split).mkdir(parents=True, exist_ok=True)
        (out / "labels" / split).mkdir(parents=True, exist_ok=True)
    counts = {"train": 0, "val": 0, "objects": 0, "hard": 0}

    def write(name: str, canvas: U8, lines: list[str], key: str | None = None) -> None:
        split = "val" if hash_name(key or name) % val_every == 0 else "train"
        cv2.imwrite(
            str(out / "images" / split / f"{name}.jpg"), canvas, [cv2.IMWRITE_JPEG_QUALITY, 92]
        )
        (out / "labels" / split / f"{name}.txt").write_text("".join(f"{x}\n" for x in lines))
        counts[split] += 1
        counts["objects"] += len(lines)

    for r, run in enumerate(runs):
        files = sorted((run / "labels").glob("*.json"))
        if not files:
            raise TrainError(f"{run} is not a stills run: no labels/*.json")
        for path in files:
            label = json.loads(path.read_text())
            if label.get("schema") != LABEL_SCHEMA or label.get("version") != LABEL_VERSION:
                raise TrainError(f"{path}: not a version {LABEL_VERSION} render label")
            image = cv2.imread(str(run / label["image"]), cv2.IMREAD_COLOR)
            if image is None:
                raise TrainError(f"{path}: cannot read its image")
            rng = np.random.default_rng([seed, r, hash_name(path.stem)])
            name = f"r{r}_{path.stem}"
            write(name, *still_sample(image, label, rng))
            hard = any(_hard(d) and d["box"] and d["in_image"] for d in label["dice"])
            for k in range(1, hard_repeats if hard else 1):
                write(f"{name}_{k}", *still_sample(image, label, rng), key=name)
                counts["hard"] += 1
            if progress:
                progress(1)
    for p, folder in enumerate(photos):
        txts = sorted(folder.glob("*.txt"))
        if not any(t.with_suffix(".jpg").exists() for t in txts):
            raise TrainError(f"no labelled photos (NAME.jpg with NAME.txt) in {folder}")
        for txt in txts:
            jpg = txt.with_suffix(".jpg")
            image = cv2.imread(str(jpg), cv2.IMREAD_COLOR) if jpg.exists() else None
            if image is None:
                continue
            canvas, lines = photo_sample(image, txt.read_text())
            for k in range(photo_repeats):
                write(f"p{p}_{txt.stem}_{k}", canvas, lines, key=f"p{p}_{txt.stem}")
    (out / "data.yaml").write_text(
        f"path: {json.dumps(str(out.resolve()))}\ntrain: images/train\nval: images/val\n"
        f"{_names_yaml()}"
    )
    return counts


def _train_images(data: Path) -> int:
    """How many training images a ``data.yaml`` names (one folder or a list)."""
    import yaml  # ultralytics' own need: there wherever training runs

    spec = yaml.safe_load(data.read_text())
    base = Path(spec.get("path") or data.parent)
    folders = spec["train"] if isinstance(spec["train"], list) else [spec["train"]]
    return sum(len(list((base / f).glob("*.jpg"))) for f in folders)


def merge_datasets(shards: Sequence[Path], out: Path) -> Path:
    """A ``data.yaml`` in ``out`` that trains and validates on every one of ``shards``
    (datasets of :func:`build_dataset`, made side by side by separate processes);
    returns ``out``, to be given to :func:`train`."""
    train_dirs: list[str] = []
    val_dirs: list[str] = []
    for shard in shards:
        if not (shard / "data.yaml").is_file():
            raise TrainError(f"{shard} is no detector dataset: no data.yaml")
        for split, dirs in (("train", train_dirs), ("val", val_dirs)):
            folder = shard / "images" / split
            if any(folder.glob("*.jpg")):
                dirs.append(json.dumps(str(folder.resolve())))
    if not train_dirs or not val_dirs:
        raise TrainError("the shards hold no training or no validation images")
    out.mkdir(parents=True, exist_ok=True)
    (out / "data.yaml").write_text(
        f"train: [{', '.join(train_dirs)}]\nval: [{', '.join(val_dirs)}]\n{_names_yaml()}"
    )
    return out


def weights_from_onnx(
    onnx_path: Path,
    out: Path,
    canvases: Sequence[U8],
    *,
    model: str = str(Path(__file__).parent / "models" / "dicecube-yolo.yaml"),
) -> float:
    """Trainable ultralytics weights (``out``, a ``.pt``) holding the network of an
    exported detector (``onnx_path``), so that training can go on from a shipped
    model whose ``best.pt`` is gone. Returns the largest difference between the two
    networks' outputs on ``canvases``.

    The export folds each batch norm into the convolution before it (weight ``W``,
    bias ``b``). Unfolded as it is (a norm of mean 0 and variance 1) the network is
    the same when evaluated but not when trained: a norm in training normalises by
    the batch's own statistics, which are not 0 and 1, and every layer after it
    would start off changed. So the canvases' statistics of each convolution's output
    (``m``, ``v``, measured with the norms as identities) go into its norm as its
    running statistics, with scale ``sqrt(v + eps)`` and shift ``m + b``: the same
    function evaluated, and nearly the same under a training batch like those
    canvases."""
    YOLO = _yolo("training")
    try:
        import onnx
        import torch
        from onnx import numpy_helper
    except ImportError:
        raise TrainError("training needs the train extra: pip install -e '.[train]'") from None
    if not canvases:
        raise TrainError("no canvases to measure the network's statistics on")
    try:
        graph = onnx.load(str(onnx_path)).graph
    except Exception as exc:  # onnx raises several kinds on a bad file
        raise TrainError(f"cannot read {onnx_path} as an ONNX model: {exc}") from None
    folded = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    net = YOLO(model, task="detect")
    body: Any = net.model  # typed loosely by ultralytics
    modules = dict(body.named_modules())
    norms: dict[str, tuple[Any, Any]] = {}  # norm's name -> (norm, folded bias)
    with torch.no_grad():
        for name, module in modules.items():
            if not isinstance(module, torch.nn.Conv2d):
                continue
            weight = folded.get(f"{name}.weight")
            if weight is None or tuple(weight.shape) != tuple(module.weight.shape):
                raise TrainError(f"{onnx_path} is not a {Path(model).name} network ({name})")
            module.weight.copy_(torch.from_numpy(weight.copy()))
            bias = folded.get(f"{name}.bias")
            parent = modules.get(name.rpartition(".")[0])
            norm: Any = getattr(parent, "bn", None) if name.endswith(".conv") else None
            if isinstance(norm, torch.nn.BatchNorm2d):
                if bias is None:
                    raise TrainError(f"{onnx_path}: {name} has no folded bias")
                norm.weight.fill_(1.0)
                norm.bias.copy_(torch.from_numpy(bias.copy()))
                stats: Any = norm  # running statistics are typed optional
                stats.running_mean.zero_()
                stats.running_var.fill_(1.0 - norm.eps)
                norms[name.rpartition(".")[0] + ".bn"] = (norm, bias)
            elif bias is not None and module.bias is not None:
                module.bias.copy_(torch.from_numpy(bias.copy()))
            elif (bias is None) != (module.bias is None):
                raise TrainError(f"{onnx_path} is not a {Path(model).name} network ({name})")
    x = torch.from_numpy(
        np.stack([c[:, :, ::-1].transpose(2, 0, 1) for c in canvases]).astype(np.float32) / 255.0
    )
    seen: dict[str, tuple[Any, Any]] = {}

    def watch(name: str) -> Callable[..., None]:
        def hook(_module: Any, inputs: tuple[Any, ...]) -> None:
            z = inputs[0]
            seen[name] = (z.mean(dim=(0, 2, 3)), z.var(dim=(0, 2, 3), unbiased=False))

        return hook

    body.eval()
    handles = [norm.register_forward_pre_hook(watch(n)) for n, (norm, _) in norms.items()]
    with torch.no_grad():
        before = body(x)[0]
    for h in handles:
        h.remove()
    with torch.no_grad():
        for name, (norm, bias) in norms.items():
            mean, var = seen[name]
            norm.weight.copy_(torch.sqrt(var + norm.eps))
            norm.bias.copy_(mean + torch.from_numpy(bias.copy()))
            norm.running_mean.copy_(mean)
            norm.running_var.copy_(var)
        after = body(x)[0]
    out.parent.mkdir(parents=True, exist_ok=True)
    net.save(str(out))
    return float((after - before).abs().max())


@contextlib.contextmanager
def _torchscript_onnx() -> Iterator[None]:
    """ONNX export by torch's TorchScript exporter, as ultralytics before 8.3.19x
    expects: torch 2.9 and later export with dynamo by default, which needs
    onnxscript and does not write opset 12."""
    import torch

    real = torch.onnx.export
    if "dynamo" not in inspect.signature(real).parameters:
        yield
        return

    def export(*args: Any, **kwargs: Any) -> Any:
        kwargs.setdefault("dynamo", False)
        return real(*args, **kwargs)

    torch.onnx.export = export
    try:
        yield
    finally:
        torch.onnx.export = real


def export_onnx(weights: Path, out: Path) -> Path:
    """The ONNX model (opset 12, the board canvas's fixed size) of trained
    ultralytics ``weights`` (a ``best.pt`` or ``last.pt``), written to ``out``."""
    YOLO = _yolo("exporting")
    if not weights.is_file():
        raise TrainError(f"no such weights: {weights}")
    with _torchscript_onnx():
        exported = YOLO(str(weights)).export(
            format="onnx", imgsz=(CANVAS_H, CANVAS_W), opset=12, simplify=False, dynamic=False
        )
    out.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(exported, out)
    return out


@dataclass(frozen=True)
class DetectorSummary:
    images: int
    seconds: float
    metrics: dict[str, float]


def train(
    dataset: Path,
    out: Path,
    *,
    epochs: int = 30,
    seed: int = 0,
    model: str = str(Path(__file__).parent / "models" / "dicecube-yolo.yaml"),
    batch: int = 16,
    workdir: Path | None = None,
    device: str = "cpu",
    weights: Path | None = None,
    lr0: float | None = None,
    workers: int = 2,
    hours: float | None = None,
    on_save: Callable[[int, Path], None] | None = None,
    log: Callable[[str], None] = print,
) -> DetectorSummary:
    """Train from ``model`` (a YAML of ultralytics' or a path; no pretrained weights),
    or go on training our own earlier ``weights`` (a ``best.pt`` of an earlier
    run), on ``dataset`` (:func:`build_dataset` or :func:`merge_datasets`) and write
    the ONNX model to ``out``. ``hours``, when given, bounds the training by time
    instead of ``epochs`` (ultralytics fits its learning-rate schedule to it);
    ``workers`` are the data loader's processes; ``on_save`` is called with the
    epoch and the run's ``last.pt`` each time ultralytics saves it, so that a run
    cut short still leaves weights."""
    YOLO = _yolo("training")
    data = dataset / "data.yaml"
    if not data.is_file():
        raise TrainError(f"{dataset} has no data.yaml: make it with build_dataset")
    work = workdir or (out.parent / "detector-runs")
    start = time.perf_counter()
    if weights is not None and not weights.is_file():
        raise TrainError(f"no such weights to start from: {weights}")
    net = YOLO(str(weights) if weights is not None else model, task="detect")
    if on_save is not None:
        keep = on_save

        def saved(trainer: Any) -> None:
            keep(int(trainer.epoch) + 1, Path(trainer.last))

        net.add_callback("on_model_save", saved)
    timed = {"time": hours} if hours is not None else {}
    result = net.train(
        **timed,
        data=str(data),
        epochs=epochs,
        imgsz=CANVAS_W,
        batch=batch,
        device=device,
        workers=workers,
        cache="ram",
        seed=seed,
        deterministic=True,
        # our own earlier weights when given (a local file: nothing is downloaded)
        pretrained=str(weights) if weights is not None else False,
        # ultralytics' "auto" ignores lr0: a rate given is AdamW's
        optimizer="auto" if lr0 is None else "AdamW",
        lr0=0.01 if lr0 is None else lr0,
        plots=False,
        amp=False,
        project=str(work.resolve()),
        name="train",
        exist_ok=True,
        verbose=False,
        fliplr=0.5,
        flipud=0.0,
        mosaic=0.5,
        close_mosaic=max(1, epochs // 5),
        degrees=0.0,
        scale=0.3,
        hsv_h=0.02,
        hsv_s=0.5,
        hsv_v=0.4,
    )
    best = work / "train" / "weights" / "best.pt"
    export_onnx(best, out)
    metrics = {k: float(v) for k, v in (getattr(result, "results_dict", None) or {}).items()}
    n = _train_images(data)
    log(f"wrote {out}")
    return DetectorSummary(n, time.perf_counter() - start, metrics)
