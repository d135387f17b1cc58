"""Dice lying on a checker, seen from a low camera: where their footprint stands against
the pile under them, as the board plane puts it (``DieReading.over``) and with the die
lifted by a checker's height (``DieReading.over_raised``); the evidence for the
referee's ``_on_checker``.

For each rendered clip, the frames half a second into each still stretch of dice at
rest (no hand, nothing in the air) are read as the referee's eyes read them (the
field's corners from ``clip.json``, which way the points run learnt from the
opening); each flat die read is matched to the truth's die
within ``--near`` cm, and the point it stands over is looked up in the truth's
checkers (as the referee knows them from the position confirmed). Prints, for the
dice on a checker and the dice beside a pile (over a point with checkers), how far
outside the pile each stands both ways (``engine.referee.pile_outside``, checker
diameters, < 0 inside), and how many each rule calls on a checker.

Usage: python bench/on_checker_raised.py CLIP_OR_SET [...] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from gammoneye.calibration.boardspace import BoardSpace
from gammoneye.engine.referee import DIE_FAULT_P, on_checker_p, pile_outside
from gammoneye.service.referee import CameraEyes, SourceError, open_source, rendered_clips
from gammoneye.vision.read import BoardReader
from gammoneye.vision.sighting import _place_cm

SPACE = (1000, 800)
SIGNS = ((1, -1), (1, 1), (-1, 1), (-1, -1))


def still_frames(rows: list[dict[str, Any]], after: int = 5) -> list[int]:
    """``after`` frames into the first run of settled frames with dice at rest and no
    hand of each new lie of the dice: the roll as it lies before any checker is moved
    (as the referee judges it), not the dice lying on after the play."""

    def key(r: dict[str, Any]) -> Any:
        if r["phase"] != "settled" or r["hands"] or r["in_air"] or not r["dice"]:
            return None
        return tuple((d["value"], tuple(d["at"])) for d in r["dice"])

    out, run, taken = [], 0, None
    for k in range(len(rows)):
        kk = key(rows[k])
        run = run + 1 if kk is not None and k and key(rows[k - 1]) == kk else int(kk is not None)
        if run == after + 1 and kk != taken:
            out.append(k)
            taken = kk
    return out


def learnt_profile(clip: Path, bottom: int, corners: Any) -> Any:
    """The calibration the referee's eyes learn from the clip's opening (which way
    the points run: a die's point is numbered as the referee numbers it)."""
    eyes = CameraEyes(bottom, corners)
    for frame in open_source(str(clip)):
        if eyes.settled(frame):
            eyes.look(frame)
            if eyes.colours is not None:
                return eyes.profile
        if frame.t > 60:
            break
    return None


def count_at(checkers: list[list[int]], bottom: int, n: int) -> int:
    return checkers[bottom][n - 1] or checkers[1 - bottom][24 - n]


def rows_of(clip: Path, reader: BoardReader, near: float) -> list[dict[str, Any]]:
    meta = json.loads((clip / "clip.json").read_text("utf-8"))
    frames = [json.loads(line) for line in (clip / "frames.jsonl").open(encoding="utf-8")]
    bottom = int(meta["bottom_player"])
    size = (int(meta["width"]), int(meta["height"]))
    profile = learnt_profile(clip, bottom, meta["field_corners_px"])
    if profile is None:
        print(f"{clip.name}: the opening was never read; left out")
        return []
    h = BoardSpace().homography(np.array(meta["field_corners_px"], np.float64), size)
    out = []
    for k in still_frames(frames):
        image = cv2.imread(str(clip / "frames" / f"{k:06d}.jpg"), cv2.IMREAD_COLOR)
        if image is None:
            continue
        reading = reader.read(image, profile)
        truth = frames[k]["dice"]
        for d in reading.dice:
            at = _place_cm(d.image_xy, h, SPACE)
            if at is None or d.over is None:
                continue
            # the truth's board cm and ours may differ in the axes' signs (the seat at
            # the bottom, a mirrored board): the nearest die either way
            dist = [
                min(np.hypot(at[0] - sx * t["at"][0], at[1] - sy * t["at"][1]) for sx, sy in SIGNS)
                for t in truth
            ]
            j = int(np.argmin(dist))
            if dist[j] > near or truth[j]["cocked"]:
                continue
            n, depth, side = d.over
            count = count_at(frames[k]["checkers"], bottom, n)
            raised = None
            if d.over_raised is not None:
                rn, rdepth, rside = d.over_raised
                rcount = count_at(frames[k]["checkers"], bottom, rn)
                if rcount:
                    raised = (
                        pile_outside(rdepth, rside, rcount),
                        on_checker_p(rdepth, rside, rcount),
                    )
            if not count and raised is None:
                continue
            out.append(
                {
                    "clip": clip.name,
                    "t": frames[k]["t"],
                    "on": bool(truth[j]["on_checker"]),
                    "outside": pile_outside(depth, side, count) if count else None,
                    "p": on_checker_p(depth, side, count),
                    "raised_outside": None if raised is None else raised[0],
                    "p_raised": 0.0 if raised is None else raised[1],
                }
            )
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("clips", type=Path, nargs="+", help="rendered clips, or folders of them")
    ap.add_argument("--near", type=float, default=3.0, help="cm within which a die is the truth's")
    ap.add_argument("--json", type=Path, help="also write every row here")
    args = ap.parse_args()
    try:
        clips = rendered_clips(args.clips)
    except SourceError as e:
        ap.error(str(e))
    reader = BoardReader.load()
    reader.points_within_fifteen = False
    rows: list[dict[str, Any]] = []
    for clip in clips:
        got = rows_of(clip, reader, args.near)
        rows += got
        on = [r for r in got if r["on"]]
        print(
            f"{clip.name}: {len(got)} flat dice over checkers, {len(on)} on one; called on: "
            f"plane {sum(r['p'] >= DIE_FAULT_P for r in on)}, "
            f"either {sum(max(r['p'], r['p_raised']) >= DIE_FAULT_P for r in on)}; beside "
            f"called on: plane {sum(r['p'] >= DIE_FAULT_P for r in got if not r['on'])}, "
            f"either {sum(max(r['p'], r['p_raised']) >= DIE_FAULT_P for r in got if not r['on'])}",
            flush=True,
        )
    if args.json:
        args.json.write_text(json.dumps(rows))
    on = [r for r in rows if r["on"]]
    beside = [r for r in rows if not r["on"]]
    for name, pick in (
        ("plane", lambda r: r["p"]),
        ("raised", lambda r: r["p_raised"]),
        ("either", lambda r: max(r["p"], r["p_raised"])),
    ):
        print(
            f"{name:7}: on a checker called {sum(pick(r) >= DIE_FAULT_P for r in on)}/{len(on)}, "
            f"beside called {sum(pick(r) >= DIE_FAULT_P for r in beside)}/{len(beside)}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
