"""How surely a die lying still is read when its reads over several frames are fused.

The referee reads a roll from a few still frames and weighs a die's faces as the die
reader gives them: a play that is illegal with the dice as read but legal with a roll
one die off is taken for a misread where the other face is at least
``engine.referee.ILLEGAL_LOG_ODDS`` (1/20) as likely as the face read. Small dice far
from the camera are read unsure in every frame, often the right face at 0.5-0.8, so
their illegal plays pass as misreads. This bench reads every ``--every``-th still frame
of rendered clips (the clip's truth: dice down, no hand; the board calibrated as the
referee's is), follows each die of each roll from frame to frame (the truth's dice,
matched by their place in the picture as ``bench/clip_dice.py`` does), and fuses the
first ``n`` reads of each die by several rules:

- ``mean``: the mean of the faces' probabilities (what ``vision.sighting.fused_dice``
  does over a view's frames);
- ``geo``: the normalised geometric mean (a log-linear pool at weight ``1/n``);
- ``sqrt``: a log-linear pool at weight ``1/sqrt(n)`` a read (reads partly
  independent);
- ``prod``: the normalised product (reads independent).

For each rule and ``n`` it prints, over the dice followed for ``n`` reads or more:
the share whose fused best face is right; **blind**: dice read right whose likeliest
other face is still 1/20 or more as likely (an illegal play that such a face would make
legal passes as a misread); **sure-wrong**: dice read wrong whose true face is under
1/20 as likely as the face read (a legal play of the true roll flagged, or a roll
recorded wrong).

    python bench/die_fusion.py clips/s62/selfplay_7p_seed7916-5802 --dump /tmp/f.jsonl
    python bench/die_fusion.py --load /tmp/f.jsonl          # the figures again, no reading

A die is followed only while the truth's dice stay as they are (the same numbers in
the same places); a roll's first frames, as the dice come to rest, count with the rest.
"""

from __future__ import annotations

import argparse
import json
import math
from collections import defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from clip_dice import HALF_DIE_CM, MATCH_PX, _project, still_rows  # this folder's, run as a script

from gammoneye.datasets.render.camera import Camera
from gammoneye.service.referee import CameraEyes

#: As ``engine.referee.ILLEGAL_LOG_ODDS``: a face under this share as likely as the
#: face read is no misread the referee will take.
ODDS = 0.05
NS = (1, 2, 4, 8, 16)
#: Sizes (px) the dice are split by.
SIZES = ((0, 14), (14, 20), (20, 999))


def read_clip(clip: Path, every: int) -> Iterable[dict[str, Any]]:
    """One record per die found on every ``every``-th still frame with dice: the roll
    it belongs to (its truth's dice, rounded), which of them it is, its true value and
    size in the picture, and the faces read."""
    meta = json.loads((clip / "clip.json").read_text("utf-8"))
    camera = Camera.from_dict(meta["camera"])
    rows = [json.loads(line) for line in (clip / "frames.jsonl").read_text().splitlines()]
    eyes = CameraEyes(meta["bottom_player"], meta.get("field_corners_px"))
    for row in still_rows(rows)[::every]:
        truth = [d for d in row["dice"] if d.get("at") is not None]
        image = cv2.imread(str(clip / "frames" / f"{row['frame']:06d}.jpg"), cv2.IMREAD_COLOR)
        if image is None or not truth:
            continue
        profile = eyes._profile(image)
        if profile is None:
            continue
        reading = eyes.reader.read(image, profile)
        roll = json.dumps(sorted((d["value"], [round(a, 1) for a in d["at"]]) for d in truth))
        centres = _project(camera, [tuple(d["at"]) for d in truth], HALF_DIE_CM)
        sides = _project(
            camera, [(d["at"][0] + HALF_DIE_CM, d["at"][1]) for d in truth], HALF_DIE_CM
        )
        used: set[int] = set()
        for k, (d, c, s) in enumerate(zip(truth, centres, sides, strict=True)):
            best, dist = None, MATCH_PX
            for j, r in enumerate(reading.dice):
                if j in used or r.image_xy is None:
                    continue
                e = float(np.hypot(r.image_xy[0] - c[0], r.image_xy[1] - c[1]))
                if e < dist:
                    best, dist = j, e
            if best is None:
                continue
            used.add(best)
            r = reading.dice[best]
            yield {
                "clip": clip.name,
                "frame": row["frame"],
                "roll": roll,
                "die": k,
                "value": d["value"],
                "cocked": bool(d.get("cocked")),
                "size": round(2 * float(np.linalg.norm(s - c)), 1),
                "faces": [round(float(r.values.get(v, 0.0)), 5) for v in range(1, 7)],
            }


def _pool(reads: np.ndarray, weight: float) -> np.ndarray:
    """The log-linear pool of ``reads`` (n, 6), each at ``weight``, normalised."""
    logs = weight * np.log(np.clip(reads, 1e-4, 1.0)).sum(axis=0)
    p = np.exp(logs - logs.max())
    return np.asarray(p / p.sum())


RULES: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "mean": lambda r: np.asarray(r.mean(axis=0)),
    "geo": lambda r: _pool(r, 1.0 / len(r)),
    "sqrt": lambda r: _pool(r, 1.0 / math.sqrt(len(r))),
    "prod": lambda r: _pool(r, 1.0),
}


def tracks(records: Iterable[dict[str, Any]]) -> list[tuple[int, float, np.ndarray]]:
    """Each die of each roll, followed: (true value, median size, faces in frame order)."""
    by: dict[tuple[str, str, int], list[dict[str, Any]]] = defaultdict(list)
    for r in records:
        if not r["cocked"]:
            by[(r["clip"], r["roll"], r["die"])].append(r)
    out = []
    for seq in by.values():
        seq.sort(key=lambda r: r["frame"])
        faces = np.array([r["faces"] for r in seq], np.float64)
        out.append((seq[0]["value"], float(np.median([r["size"] for r in seq])), faces))
    return out


def report(found: list[tuple[int, float, np.ndarray]], sizes: tuple[float, float]) -> None:
    """Print each rule's figures at each ``n`` for the dice of ``sizes`` (px)."""
    chosen = [t for t in found if sizes[0] <= t[1] < sizes[1]]
    print(f"dice of {sizes[0]:g}-{sizes[1]:g} px: {len(chosen)} followed")
    print(f"  {'n':>3} {'dice':>5}  " + "  ".join(f"{k:>22}" for k in RULES))
    print(f"  {'':>3} {'':>5}  " + "  ".join(f"{'right blind sure-wrong':>22}" for _ in RULES))
    for n in NS:
        some = [(v, f[:n]) for v, _, f in chosen if len(f) >= n]
        if not some:
            continue
        cells = []
        for rule in RULES.values():
            right = blind = sure_wrong = 0
            for v, reads in some:
                p = rule(reads)
                top = int(np.argmax(p))
                if top == v - 1:
                    right += 1
                    other = max(p[k] for k in range(6) if k != top)
                    blind += other >= ODDS * p[top]
                else:
                    sure_wrong += p[v - 1] < ODDS * p[top]
            m = len(some)
            cells.append(
                f"{100 * right / m:6.2f}% {100 * blind / m:5.2f}% {100 * sure_wrong / m:6.2f}%"
            )
        print(f"  {n:>3} {len(some):>5}  " + "  ".join(f"{c:>22}" for c in cells))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("clips", type=Path, nargs="*", help="rendered clips (gammoneye render clip)")
    ap.add_argument("--every", type=int, default=1, help="read every n-th still frame with dice")
    ap.add_argument("--dump", type=Path, help="write each die read here (JSON lines)")
    ap.add_argument("--load", type=Path, action="append", default=[], help="reads dumped before")
    args = ap.parse_args()
    if not args.clips and not args.load:
        ap.error("give clips to read, or --load reads dumped before")
    records: list[dict[str, Any]] = []
    for path in args.load:
        records += [json.loads(line) for line in path.read_text("utf-8").splitlines()]
    out = args.dump.open("w", encoding="utf-8") if args.dump else None
    for clip in args.clips:
        n = 0
        for rec in read_clip(clip, args.every):
            records.append(rec)
            n += 1
            if out is not None:
                out.write(json.dumps(rec) + "\n")
                out.flush()
        print(f"{clip.name}: {n} dice read")
    if out is not None:
        out.close()
    found = tracks(records)
    for sizes in ((0.0, 999.0), *SIZES):
        report(found, sizes)


if __name__ == "__main__":
    main()
