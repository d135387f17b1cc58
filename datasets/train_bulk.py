"""Render, cut and train the die reader, the point counter and the cube reader in one
run, at a scale a 2-core laptop cannot reach: made for a machine with many cores and
a GPU.

Each of ``--runs`` stills runs (``--n`` stills each, seeds ``--seed`` + k, the held-out
styles excluded) is rendered and cut into crops by its own process; a share of the
runs have tall piles (``--pile-runs``, as ``render stills --piles 1``). Then the cube
reader, the die reader and the point counter are trained on all the crops (the die
reader also on the real photos of ``--photos``), on the GPU where torch sees one, from
scratch or, with ``--from-shipped``, from the models in ``vision/models/``. Every
finished epoch's models are copied to ``--out`` so a run cut short still leaves models.

    python -m gammoneye.datasets.train_bulk --work /tmp/bulk --out models/ \\
        --runs 16 --n 1000 --seed 7001 --photos ../shared/data/dice-photos/Train

The command that made a shipped model is in ``vision/models/README.md``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import shutil
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

#: Board styles no training run may see: the held-out stills of ``eval vision`` keep
#: them unseen (``docs/vision-benchmarks.md``).
HELD_OUT_STYLES = ("casino_red_felt", "olive_leather")
#: What it trains (``--only``), in this order; the readers by default, the detector
#: only when asked for.
READERS = ("dice", "points", "cube")
TRAINABLE = (*READERS, "detector")
#: Written in a run's folder once it is rendered and cut: what was made (:func:`_made`).
DONE = "made.json"


@dataclass(frozen=True)
class _Job:
    """One stills run: where, how many, its seed, its share of tall piles and of
    close-ups, and what to make of it (crops for the readers, a detector dataset)."""

    folder: Path
    n: int
    seed: int
    piles: float = 0.0
    closeups: float = 0.0
    crops: bool = True
    detector: bool = False
    hard_repeats: int = 2


def _made_before(job: _Job) -> dict[str, Any]:
    """What an earlier run of this command (``--work`` kept) left in ``job``'s folder:
    its ``crops`` and ``detector`` flags where its stills are those ``job`` renders
    (same number, seed, piles, close-ups), else nothing."""
    try:
        done = json.loads((job.folder / DONE).read_text())
    except (OSError, ValueError):
        return {}
    same = ("n", "seed", "piles", "closeups", "hard_repeats")
    if not isinstance(done, dict) or any(done.get(k) != getattr(job, k) for k in same):
        return {}
    return {"crops": bool(done.get("crops")), "detector": bool(done.get("detector"))}


def _made(job: _Job) -> bool:
    """Whether ``job``'s folder holds all it asks for, made before (:func:`_made_before`)."""
    done = _made_before(job)
    return bool(done) and done["crops"] >= job.crops and done["detector"] >= job.detector


def _render_and_cut(job: _Job) -> tuple[str, int, float]:
    """One stills run rendered and cut into crops of every kind, and made into a
    detector dataset when asked (one process). What an earlier run made of the same
    stills (:func:`_made_before`) is kept: the stills, their crops, their dataset.
    Returns the folder, how many stills were rendered now (0: none) and the time."""
    import cv2

    from .render.crops import CropConfig, export_crops
    from .render.stills import StillsConfig, render_stills

    cv2.setNumThreads(1)
    start = time.perf_counter()
    before = _made_before(job)
    made = dict(before) or {"crops": False, "detector": False}
    run, crops = job.folder / "stills", job.folder / "crops"
    if not before:
        (job.folder / DONE).unlink(missing_ok=True)
        cfg = StillsConfig(
            n=job.n,
            out=run,
            seed=job.seed,
            exclude_styles=HELD_OUT_STYLES,
            piles=job.piles,
            closeups=job.closeups,
        )
        render_stills(cfg, workers=1)
    if job.crops and not made["crops"]:
        if crops.exists():
            shutil.rmtree(crops)
        export_crops(run, crops, CropConfig(seed=job.seed))
        made["crops"] = True
    if job.detector and not made["detector"]:
        from .train_detector import build_dataset

        det = job.folder / "detector"
        if det.exists():
            shutil.rmtree(det)
        build_dataset([run], [], det, seed=job.seed, hard_repeats=job.hard_repeats)
        made["detector"] = True
    stills = {k: v for k, v in asdict(job).items() if k not in ("folder", "crops", "detector")}
    (job.folder / DONE).write_text(json.dumps({**stills, **made}))
    return str(job.folder), 0 if before else job.n, time.perf_counter() - start


def _load(job: tuple[str, Path, int]) -> tuple[Any, Any, list[dict[str, Any]]]:
    """One crop folder's crops of one kind (``dice``, ``points`` with the bar's
    halves, ``cube``; dice and cubes at ``size`` pixels square): images, classes, and
    the strips' index entries (points only)."""
    import cv2

    from .train_cube import load_cubes
    from .train_dice import TRAIN_MIN_BOX_PX, load_dice
    from .train_points import load_strips

    cv2.setNumThreads(1)
    kind, folder, size = job
    if kind == "points":
        return load_strips([folder], with_bar=True)
    if kind == "dice":
        x, y = load_dice([folder], TRAIN_MIN_BOX_PX, size=size)
    else:
        x, y = load_cubes([folder], size=size)
    return x, y, []


def _gather(
    pool: Any, kind: str, folders: list[Path], size: int = 48
) -> tuple[Any, Any, list[dict[str, Any]]]:
    """Every folder's crops of ``kind``, loaded by the pool's processes, put together."""
    parts = pool.map(_load, [(kind, f, size) for f in folders])
    x = np.concatenate([p[0] for p in parts])
    y = np.concatenate([p[1] for p in parts])
    return x, y, [m for p in parts for m in p[2]]


def _copier(out: Path, name: str, log: Any) -> Any:
    def keep(epoch: int, path: Path) -> None:
        shutil.copyfile(path, out / name)
        log(f"{name}: epoch {epoch} model copied to {out / name}")

    return keep


def _shipped(name: str) -> Path:
    """A model shipped in ``vision/models/``, to go on training from."""
    from ..vision.classifier import model_path

    return model_path(name)


def _start(args: Any, name: str) -> Path | None:
    """The model a reader's training goes on from: the one of that name in
    ``--from-models``, or the shipped one with ``--from-shipped``; ``None`` (from
    scratch) otherwise, or where there is none of that name."""
    from ..vision.classifier import ModelError

    if args.from_models is not None:
        path: Path = args.from_models / name
        return path if path.is_file() else None
    if not args.from_shipped:
        return None
    try:
        return _shipped(name)
    except ModelError:
        return None


def _shipped_detector(out: Path, shards: list[Path], log: Any) -> Path:
    """The shipped detector as trainable weights (``out``), its norms measured on
    a few of the first shard's training canvases (:func:`.train_detector.weights_from_onnx`)."""
    import cv2

    from ..vision.detector import MODEL
    from .train_detector import weights_from_onnx

    files = sorted((shards[0] / "images" / "train").glob("*.jpg"))[:32]
    canvases = [c for c in (cv2.imread(str(f), cv2.IMREAD_COLOR) for f in files) if c is not None]
    gap = weights_from_onnx(_shipped(MODEL), out, canvases)
    log(f"detector: going on from the shipped {MODEL} (outputs differ by at most {gap:.2g})")
    return out


def _train_detector(args: Any, shards: list[Path], procs: int, log: Any) -> None:
    """The detector on every run's dataset and the photos, on the GPU where torch
    sees one; ``last.pt`` is copied to ``--out`` at every save, the ONNX at the end.
    With ``--detector-again`` it is trained a second time from the first's best
    weights, with a new learning-rate schedule (``dicecube2*`` in ``--out``)."""
    from .train_detector import build_dataset, merge_datasets, train

    start = time.perf_counter()
    if args.photos:
        photos = args.work / "detector_photos"
        if photos.exists():
            shutil.rmtree(photos)
        build_dataset([], args.photos, photos, seed=args.seed, photo_repeats=args.photo_repeats)
        shards = [*shards, photos]
    data = merge_datasets(shards, args.work / "detector_all")
    log(f"detector: dataset of {len(shards)} shards ({time.perf_counter() - start:.0f} s)")

    from .training import pick_device

    device = "0" if pick_device(args.device).startswith("cuda") else "cpu"  # ultralytics' names
    weights = None
    if args.from_shipped:
        weights = _shipped_detector(args.work / "detector_shipped.pt", shards, log)
    stages = [(args.detector_epochs, args.detector_hours, "")]
    if args.detector_again:
        stages.append((args.detector_epochs, args.detector_again, "2"))
    for epochs, hours, tag in stages:
        name = f"dicecube{tag}"

        def keep(epoch: int, path: Path, name: str = name) -> None:
            shutil.copyfile(path, args.out / f"{name}_last.pt")
            if (path.parent / "best.pt").is_file():
                shutil.copyfile(path.parent / "best.pt", args.out / f"{name}_best.pt")
            log(f"detector: epoch {epoch} weights copied to {args.out}")

        summary = train(
            data,
            args.out / f"{name}.onnx",
            epochs=epochs,
            hours=hours,
            seed=0,
            batch=args.detector_batch,
            workdir=args.work / f"detector_runs{tag}",
            device=device,
            workers=args.detector_workers or max(2, min(procs - 2, 16)),
            weights=weights,
            on_save=keep,
            log=log,
        )
        log(f"detector{tag}: {summary}")
        weights = args.work / f"detector_runs{tag}" / "train" / "weights" / "best.pt"


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m gammoneye.datasets.train_bulk",
        description=__doc__.split("\n\n")[0] if __doc__ else None,
    )
    ap.add_argument("--work", type=Path, required=True, help="folder for renders and crops")
    ap.add_argument("--out", type=Path, required=True, help="folder for the trained models")
    ap.add_argument("--runs", type=int, default=16, help="stills runs, one process each")
    ap.add_argument("--n", type=int, default=1000, help="stills per run")
    ap.add_argument("--pile-runs", type=int, default=4, help="how many runs have tall piles")
    ap.add_argument("--seed", type=int, default=7001, help="seed of the first run")
    ap.add_argument(
        "--photos",
        type=Path,
        action="append",
        default=[],
        help="real dice photos with YOLO labels (repeat)",
    )
    ap.add_argument(
        "--crops",
        type=Path,
        action="append",
        default=[],
        help="more crop folders (repeat) whose dice the die reader learns beside the "
        "runs' own: dice cut from clips' frames (bench/clip_dice.py --crops), or "
        "render export-crops folders",
    )
    ap.add_argument("--dice-epochs", type=int, default=30)
    ap.add_argument(
        "--dice-lr",
        type=float,
        default=None,
        help="the die reader's peak learning rate (default: train dice's, lower when "
        "going on from a model)",
    )
    ap.add_argument("--dice-arch", default="wider")
    ap.add_argument("--points-epochs", type=int, default=12)
    ap.add_argument("--points-arch", default="small")
    ap.add_argument("--dice-size", type=int, default=48, help="the die reader's input side")
    ap.add_argument("--cube-epochs", type=int, default=60)
    ap.add_argument("--cube-arch", default="wide")
    ap.add_argument("--cube-size", type=int, default=48, help="the cube reader's input side")
    ap.add_argument(
        "--no-turns",
        action="store_true",
        help="train the die and cube readers without quarter turns (crops keep the "
        "picture's up): the partners read beside the turned ones, written as "
        "dice_upright.onnx and cube_upright.onnx (with --from-shipped, going on from the "
        "shipped partner, or the turned model where none is shipped)",
    )
    ap.add_argument(
        "--render-only",
        action="store_true",
        help="render and cut, train nothing (runs already made, with --work kept, are "
        "not made again: several trainings can share one rendering)",
    )
    ap.add_argument(
        "--closeup-runs",
        type=int,
        default=0,
        help="how many runs (after the pile runs) have half their stills close-ups",
    )
    ap.add_argument(
        "--only",
        choices=TRAINABLE,
        action="append",
        default=[],
        help="train only this (repeat); default the three readers, not the detector",
    )
    ap.add_argument(
        "--detector-hours",
        type=float,
        default=None,
        help="train the detector this long (ultralytics' time bound) ...",
    )
    ap.add_argument("--detector-epochs", type=int, default=30, help="... or this many epochs")
    ap.add_argument(
        "--detector-again",
        type=float,
        default=None,
        help="then train again from the best weights this many hours (a new schedule; "
        "dicecube2.onnx)",
    )
    ap.add_argument(
        "--detector-workers", type=int, default=0, help="data loader processes (0: cores - 2)"
    )
    ap.add_argument("--detector-batch", type=int, default=64)
    ap.add_argument(
        "--photo-repeats", type=int, default=2, help="draw each photo this many times (detector)"
    )
    ap.add_argument(
        "--hard-repeats",
        type=int,
        default=2,
        help="draw each still with a die the detector misses most this many times",
    )
    ap.add_argument(
        "--from-shipped",
        action="store_true",
        help="go on training the models shipped in vision/models/ instead of starting "
        "from scratch (each with the same network: keep the --*-arch defaults)",
    )
    ap.add_argument(
        "--from-models",
        type=Path,
        default=None,
        help="as --from-shipped, from the models of the same names in this folder (a "
        "reader with no model there starts from scratch)",
    )
    ap.add_argument("--device", default="auto", help="cpu, cuda or auto")
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--processes", type=int, default=0, help="0: one per core")
    args = ap.parse_args(argv)
    if args.runs < 1 or args.n < 1 or not 0 <= args.pile_runs <= args.runs:
        ap.error("--runs and --n must be at least 1, --pile-runs at most --runs")
    if not 0 <= args.closeup_runs <= args.runs - args.pile_runs:
        ap.error("--closeup-runs: at most the runs that are no pile runs")
    if args.from_models is not None and not args.from_models.is_dir():
        ap.error(f"--from-models {args.from_models}: no such folder")
    for folder in args.photos:
        if not folder.is_dir():
            ap.error(f"--photos {folder}: no such folder")
    for folder in args.crops:
        if not (folder / "dice.jsonl").is_file():
            ap.error(f"--crops {folder}: no dice.jsonl there (not a crop folder)")
    if args.dice_lr is not None and not 0 < args.dice_lr < 1:
        ap.error("--dice-lr must lie between 0 and 1")

    from . import train_cube, train_dice, train_points
    from .training import TrainError, pick_device

    if not args.render_only:
        try:  # before minutes of rendering
            pick_device(args.device)
        except TrainError as exc:
            ap.error(f"--device: {exc}")

    args.out.mkdir(parents=True, exist_ok=True)
    logfile = (args.out / "train_bulk.log").open("a")

    def log(line: str) -> None:
        print(line, flush=True)
        logfile.write(line + "\n")
        logfile.flush()

    log(f"train_bulk: {' '.join(sys.argv[1:] if argv is None else argv)}")
    procs = args.processes or multiprocessing.cpu_count()
    only = set(args.only) or set(READERS)
    jobs = [
        _Job(
            args.work / f"run{k:03d}",
            args.n,
            args.seed + k,
            piles=1.0 if k < args.pile_runs else 0.0,
            closeups=0.5 if args.pile_runs <= k < args.pile_runs + args.closeup_runs else 0.0,
            crops=bool(only & set(READERS)),
            detector="detector" in only,
            hard_repeats=args.hard_repeats,
        )
        for k in range(args.runs)
    ]
    start = time.perf_counter()
    ctx = multiprocessing.get_context("forkserver")
    with ctx.Pool(min(procs, len(jobs))) as pool:
        rendered = 0
        for done, (folder, n, secs) in enumerate(pool.imap_unordered(_render_and_cut, jobs), 1):
            rendered += n
            if n:
                log(f"[{done}/{len(jobs)}] {folder}: {n} stills rendered and cut in {secs:.0f} s")
            else:
                log(f"[{done}/{len(jobs)}] {folder}: stills made before ({DONE}), kept")
        log(f"rendered and cut {rendered} stills in {time.perf_counter() - start:.0f} s")
        if args.render_only:
            log("train_bulk: --render-only, nothing trained")
            return 0
        folders = [job.folder / "crops" for job in jobs]
        common: dict[str, Any] = {"seed": 0, "device": args.device, "batch": args.batch, "log": log}
        readers: tuple[tuple[str, str, str, Any, int, str], ...] = (
            ("cube", "cube.onnx", "crops", train_cube.fit, args.cube_epochs, args.cube_arch),
            (
                "dice",
                "dice.onnx",
                "rendered crops",
                train_dice.fit,
                args.dice_epochs,
                args.dice_arch,
            ),
            (
                "points",
                "point_counts.onnx",
                "strips",
                train_points.fit,
                args.points_epochs,
                args.points_arch,
            ),
        )
        for kind, model, what, fit, epochs, arch in readers:
            if kind not in only:
                continue
            size = {"dice": args.dice_size, "cube": args.cube_size}.get(kind, 0)
            # the die reader also learns from the dice of --crops (clips' frames)
            more = args.crops if kind == "dice" else []
            x, y, meta = _gather(pool, kind, [*folders, *more], size)
            log(
                f"{kind}: {len(x)} {what} loaded"
                + (f" ({len(more)} --crops folders among them)" if more else "")
                + f" ({time.perf_counter() - start:.0f} s)"
            )
            # the die reader also learns from the photos; the point counter weighs the bar
            extra: dict[str, Any] = {
                "dice": {"photos": args.photos, "max_lr": args.dice_lr},
                "points": {"meta": meta},
            }.get(kind, {})
            init = _start(args, model)
            if args.no_turns and kind in ("dice", "cube"):
                extra = {**extra, "turns": False}
                model = model.replace(".onnx", "_upright.onnx")
                init = _start(args, model) or init
            summary = fit(
                x,
                y,
                out=args.out / f"{model}.part",
                epochs=epochs,
                arch=arch,
                init=init,
                checkpoint=_copier(args.out, model, log),
                **extra,
                **common,
            )
            log(f"{kind}: {summary}")
    if "detector" in only:
        _train_detector(args, [job.folder / "detector" for job in jobs], procs, log)
    log(f"train_bulk: done in {time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
