"""Render, cut and train the die reader, the point counter and the cube reader in one
run, at a scale a 2-core laptop cannot reach: made for a machine with many cores and
a GPU.

Each of ``--runs`` stills runs (``--n`` stills each, seeds ``--seed`` + k, the held-out
styles excluded) is rendered and cut into crops by its own process; a share of the
runs have tall piles (``--pile-runs``, as ``render stills --piles 1``). Then the die
reader, the point counter and the cube reader are trained on all the crops (the die reader also on
the real photos of ``--photos``), on the GPU where torch sees one. Every finished
epoch's models are copied to ``--out`` so a run cut short still leaves models.

    python -m gammoneye.datasets.train_bulk --work /tmp/bulk --out models/ \\
        --runs 16 --n 1000 --seed 7001 --photos ../shared/data/dice-photos/Train

The command that made a shipped model is in ``vision/models/README.md``.
"""

from __future__ import annotations

import argparse
import multiprocessing
import shutil
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

#: Board styles no training run may see: the held-out stills of ``eval vision`` keep
#: them unseen (``docs/vision-benchmarks.md``).
HELD_OUT_STYLES = ("casino_red_felt", "olive_leather")
#: What it trains (``--only``), in this order.
READERS = ("dice", "points", "cube")


def _render_and_cut(job: tuple[Path, int, int, float]) -> tuple[str, int, float]:
    """One stills run rendered and cut into crops of every kind (one process)."""
    import cv2

    from .render.crops import CropConfig, export_crops
    from .render.stills import StillsConfig, render_stills

    cv2.setNumThreads(1)
    folder, n, seed, piles = job
    start = time.perf_counter()
    run, crops = folder / "stills", folder / "crops"
    cfg = StillsConfig(n=n, out=run, seed=seed, exclude_styles=HELD_OUT_STYLES, piles=piles)
    render_stills(cfg, workers=1)
    if crops.exists():
        shutil.rmtree(crops)
    export_crops(run, crops, CropConfig(seed=seed))
    return str(folder), n, time.perf_counter() - start


def _load(job: tuple[str, Path]) -> tuple[Any, Any, list[dict[str, Any]]]:
    """One crop folder's crops of one kind (``dice``, ``points`` with the bar's
    halves, ``cube``): images, classes, and the strips' index entries (points only)."""
    import cv2

    from .train_cube import load_cubes
    from .train_dice import TRAIN_MIN_BOX_PX, load_dice
    from .train_points import load_strips

    cv2.setNumThreads(1)
    kind, folder = job
    if kind == "points":
        return load_strips([folder], with_bar=True)
    x, y = load_dice([folder], TRAIN_MIN_BOX_PX) if kind == "dice" else load_cubes([folder])
    return x, y, []


def _gather(pool: Any, kind: str, folders: list[Path]) -> tuple[Any, Any, list[dict[str, Any]]]:
    """Every folder's crops of ``kind``, loaded by the pool's processes, put together."""
    parts = pool.map(_load, [(kind, f) for f in folders])
    x = np.concatenate([p[0] for p in parts])
    y = np.concatenate([p[1] for p in parts])
    return x, y, [m for p in parts for m in p[2]]


def _copier(out: Path, name: str, log: Any) -> Any:
    def keep(epoch: int, path: Path) -> None:
        shutil.copyfile(path, out / name)
        log(f"{name}: epoch {epoch} model copied to {out / name}")

    return keep


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
    ap.add_argument("--photos", type=Path, action="append", default=[],
                    help="real dice photos with YOLO labels (repeat)")
    ap.add_argument("--dice-epochs", type=int, default=30)
    ap.add_argument("--dice-arch", default="wider")
    ap.add_argument("--points-epochs", type=int, default=12)
    ap.add_argument("--points-arch", default="small")
    ap.add_argument("--cube-epochs", type=int, default=60)
    ap.add_argument("--cube-arch", default="wide")
    ap.add_argument("--only", choices=READERS, action="append", default=[],
                    help="train only this reader (repeat); default all three")
    ap.add_argument("--device", default="auto", help="cpu, cuda or auto")
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--processes", type=int, default=0, help="0: one per core")
    args = ap.parse_args(argv)
    if args.runs < 1 or args.n < 1 or not 0 <= args.pile_runs <= args.runs:
        ap.error("--runs and --n must be at least 1, --pile-runs at most --runs")
    for folder in args.photos:
        if not folder.is_dir():
            ap.error(f"--photos {folder}: no such folder")

    from . import train_cube, train_dice, train_points
    from .training import TrainError, pick_device

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
    jobs = [
        (args.work / f"run{k:03d}", args.n, args.seed + k, 1.0 if k < args.pile_runs else 0.0)
        for k in range(args.runs)
    ]
    start = time.perf_counter()
    ctx = multiprocessing.get_context("forkserver")
    with ctx.Pool(min(procs, len(jobs))) as pool:
        for done, (folder, n, secs) in enumerate(pool.imap_unordered(_render_and_cut, jobs), 1):
            log(f"[{done}/{len(jobs)}] {folder}: {n} stills rendered and cut in {secs:.0f} s")
        log(f"rendered and cut {args.runs * args.n} stills in {time.perf_counter() - start:.0f} s")
        folders = [job[0] / "crops" for job in jobs]
        only = set(args.only) or set(READERS)
        if "dice" in only:
            x, y, _ = _gather(pool, "dice", folders)
            log(f"dice: {len(x)} rendered crops loaded ({time.perf_counter() - start:.0f} s)")
            summary = train_dice.fit(
                x, y, args.out / "dice.onnx.part", photos=args.photos,
                epochs=args.dice_epochs, seed=0, arch=args.dice_arch, device=args.device,
                batch=args.batch, checkpoint=_copier(args.out, "dice.onnx", log), log=log,
            )
            log(f"dice: {summary}")
        if "points" in only:
            x, y, meta = _gather(pool, "points", folders)
            log(f"points: {len(x)} strips loaded ({time.perf_counter() - start:.0f} s)")
            summary = train_points.fit(
                x, y, meta, args.out / "point_counts.onnx.part",
                epochs=args.points_epochs, seed=0, arch=args.points_arch, device=args.device,
                batch=args.batch, checkpoint=_copier(args.out, "point_counts.onnx", log),
                log=log,
            )
            log(f"points: {summary}")
        if "cube" in only:
            x, y, _ = _gather(pool, "cube", folders)
            log(f"cube: {len(x)} crops loaded ({time.perf_counter() - start:.0f} s)")
            summary = train_cube.fit(
                x, y, args.out / "cube.onnx.part", epochs=args.cube_epochs, seed=0,
                arch=args.cube_arch, device=args.device, batch=args.batch,
                checkpoint=_copier(args.out, "cube.onnx", log), log=log,
            )
            log(f"cube: {summary}")
    log(f"train_bulk: done in {time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
