"""A stills run as an ultralytics YOLO detection dataset.

Reads the JSON labels of a run (``RUN/labels/*.json``, format in
``docs/render-labels.md``) and writes::

    OUT/images/{train,val}/NNNNNN.jpg   hard links to the run's images (copies where
                                        the file system cannot link)
    OUT/labels/{train,val}/NNNNNN.txt   one line per object: ``class cx cy w h``,
                                        normalised to 0..1
    OUT/data.yaml                       path, train, val, names
    OUT/export.json                     the options and counts of this export

Two tasks, each a tuple of class names (the index is the class id):
``objects`` finds checkers, flat dice, cocked dice and the cube; ``dicecube`` the same without
the checkers (vision's dice and cube detector); ``dice`` reads a die's top value
(``1`` .. ``6``) or calls it ``cocked``. Every die counts, off the
board too. An object is left out when nothing of it is in the image or a hand hides
more of it than ``min_visible`` allows; a truncated one keeps its clipped box.

The split is by image, never by object, and depends only on the seed and the image
names: the same run and seed give the same split on any machine.

>>> label = {"width": 100, "height": 50, "checkers": [], "cube": None, "dice": [
...     {"value": 5, "cocked": False, "box": [10, 10, 20, 30], "in_image": True,
...      "hidden_by_hand": 0.0}]}
>>> yolo_lines(label, "dice")
['4 0.150000 0.400000 0.100000 0.400000']
>>> yolo_lines(label, "objects")
['1 0.150000 0.400000 0.100000 0.400000']
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .labels import LABEL_SCHEMA, LABEL_VERSION

TASKS: dict[str, tuple[str, ...]] = {
    "objects": ("checker", "die", "cocked_die", "cube"),
    "dice": ("1", "2", "3", "4", "5", "6", "cocked"),
    "dicecube": ("die", "cocked_die", "cube"),
}
SPLITS = ("train", "val")


class YoloExportError(ValueError):
    """A run that cannot be exported (not a stills run, unknown label version, ...)."""


@dataclass(frozen=True)
class YoloSummary:
    images: dict[str, int]  # per split
    objects: dict[str, int]  # per class name
    skipped: int  # objects left out: outside the image or hidden by a hand


def _class_ids(label: Mapping[str, Any], task: str) -> Iterator[tuple[int, Mapping[str, Any]]]:
    """(class id, object) for every object of the label that the task knows."""
    if task == "objects":
        for c in label["checkers"]:
            yield 0, c
        for d in label["dice"]:
            yield (2 if d["cocked"] else 1), d
        if label.get("cube") is not None:
            yield 3, label["cube"]
    elif task == "dicecube":
        for d in label["dice"]:
            yield (1 if d["cocked"] else 0), d
        if label.get("cube") is not None:
            yield 2, label["cube"]
    elif task == "dice":
        for d in label["dice"]:
            yield (6 if d["cocked"] else int(d["value"]) - 1), d
    else:
        raise YoloExportError(f"unknown task {task!r}; expected one of {list(TASKS)}")


def _kept(obj: Mapping[str, Any], min_visible: float) -> bool:
    return bool(obj["in_image"]) and 1.0 - float(obj["hidden_by_hand"]) >= min_visible


def yolo_lines(label: Mapping[str, Any], task: str, min_visible: float = 0.5) -> list[str]:
    """The YOLO lines of one label: ``class cx cy w h``, normalised to the image."""
    w, h = float(label["width"]), float(label["height"])
    lines = []
    for cls, obj in _class_ids(label, task):
        if not _kept(obj, min_visible):
            continue
        x0, y0, x1, y1 = (float(v) for v in obj["box"])
        lines.append(
            f"{cls} {(x0 + x1) / 2 / w:.6f} {(y0 + y1) / 2 / h:.6f} "
            f"{(x1 - x0) / w:.6f} {(y1 - y0) / h:.6f}"
        )
    return lines


def split_of(names: list[str], val_fraction: float, seed: int) -> dict[str, str]:
    """``"train"`` or ``"val"`` per image name: the ``round(n * val_fraction)`` names
    (at least one, and never all, when the fraction is positive and there are two or
    more) that rank first by a hash of seed and name.

    >>> split_of(["a.jpg", "b.jpg", "c.jpg"], 0.3, seed=1)
    {'a.jpg': 'val', 'b.jpg': 'train', 'c.jpg': 'train'}
    """
    if not 0.0 <= val_fraction < 1.0:
        raise YoloExportError(f"val fraction must be in [0, 1), got {val_fraction}")
    n = len(names)
    k = round(n * val_fraction)
    if val_fraction > 0 and n >= 2:
        k = min(max(k, 1), n - 1)

    def rank(name: str) -> bytes:
        return hashlib.sha256(f"{seed}:{name}".encode()).digest()

    val = set(sorted(names, key=rank)[:k])
    return {name: ("val" if name in val else "train") for name in names}


def read_labels(run: Path) -> dict[str, dict[str, Any]]:
    """Every label of a stills run by file name, checked for schema and version."""
    folder = run / "labels"
    if not folder.is_dir():
        raise YoloExportError(f"{run} is not a stills run: it has no labels/ folder")
    labels = {}
    for path in sorted(folder.glob("*.json")):
        try:
            label = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise YoloExportError(f"{path}: not a readable JSON label ({exc})") from None
        schema = label.get("schema") if isinstance(label, dict) else None
        version = label.get("version") if isinstance(label, dict) else None
        if schema != LABEL_SCHEMA or version != LABEL_VERSION:
            raise YoloExportError(
                f"{path}: label schema {schema!r} version {version!r}; this export reads "
                f"{LABEL_SCHEMA!r} version {LABEL_VERSION} only"
            )
        if not (run / label["image"]).is_file():
            raise YoloExportError(f"{path}: its image {label['image']} is missing")
        labels[path.name] = label
    if not labels:
        raise YoloExportError(f"{run} is not a stills run: {folder} holds no labels")
    return labels


def _link_or_copy(src: Path, dst: Path) -> None:
    try:
        os.link(src, dst)
    except OSError:
        shutil.copyfile(src, dst)


def _data_yaml(out: Path, names: tuple[str, ...]) -> str:
    # JSON strings are valid YAML double-quoted scalars: safe for any path, and the
    # dice names stay strings ("1"), not numbers
    lines = [
        f"path: {json.dumps(str(out.resolve()))}",
        "train: images/train",
        "val: images/val",
        "names:",
        *(f"  {i}: {json.dumps(name)}" for i, name in enumerate(names)),
    ]
    return "\n".join(lines) + "\n"


def export_yolo(
    run: Path,
    out: Path,
    *,
    task: str = "objects",
    val_fraction: float = 0.1,
    seed: int = 0,
    min_visible: float = 0.5,
) -> YoloSummary:
    """Write the YOLO dataset of stills run ``run`` into ``out``, which must not exist
    or be empty. Everything is read and checked before the first file is written."""
    if task not in TASKS:
        raise YoloExportError(f"unknown task {task!r}; expected one of {list(TASKS)}")
    if not 0.0 <= min_visible <= 1.0:
        raise YoloExportError(f"min visible must be in [0, 1], got {min_visible}")
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise YoloExportError(f"{out} exists and is not empty; choose another --out or delete it")
    labels = read_labels(run)
    splits = split_of(list(labels), val_fraction, seed)
    names = TASKS[task]

    for split in SPLITS:
        (out / "images" / split).mkdir(parents=True, exist_ok=True)
        (out / "labels" / split).mkdir(parents=True, exist_ok=True)
    images: Counter[str] = Counter({s: 0 for s in SPLITS})
    objects: Counter[str] = Counter({name: 0 for name in names})
    skipped = 0
    for label_name, label in labels.items():
        split = splits[label_name]
        src = run / label["image"]
        stem = Path(label_name).stem
        _link_or_copy(src, out / "images" / split / f"{stem}{src.suffix}")
        lines = yolo_lines(label, task, min_visible)
        (out / "labels" / split / f"{stem}.txt").write_text("".join(f"{x}\n" for x in lines))
        images[split] += 1
        objects.update(names[int(x.split()[0])] for x in lines)
        skipped += sum(1 for _ in _class_ids(label, task)) - len(lines)
    (out / "data.yaml").write_text(_data_yaml(out, names))
    summary = YoloSummary(dict(images), dict(objects), skipped)
    record = {
        "run": str(run.resolve()),
        "task": task,
        "val_fraction": val_fraction,
        "seed": seed,
        "min_visible": min_visible,
        "label_schema": LABEL_SCHEMA,
        "label_version": LABEL_VERSION,
        "images": summary.images,
        "objects": summary.objects,
        "skipped": summary.skipped,
    }
    (out / "export.json").write_text(json.dumps(record, indent=2) + "\n")
    return summary
