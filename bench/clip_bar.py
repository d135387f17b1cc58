"""The bar of rendered clips' still frames as the board reader reads it, against the
clips' truth.

Every n-th still frame (no hand over the table, nothing in the air, no roll under
way: the clip's truth) is read with the board calibrated as the referee's is (the
field's corners from ``clip.json``), each reader colour named for its player by the
first still frame that reads as the opening layout. For each frame: whether the bar's
count of each side is the truth's, split by whether the truth has checkers on the bar
and whether dice lie down. ``--before-dice`` also fits the bar to fifteen a side of
the points as first read, before a die or the cube standing on a pile has that
point's colour read again (the reader before session 79): the frames where the two
differ, and which of them is the truth's.

    python bench/clip_bar.py clips/s87 clips/s88 clips/s89 --every 3 --dice-only --before-dice

A tool to measure a change to how the bar is read on the pictures the referee reads.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import cv2
from clip_dice import still_frames  # this folder's, run as a script

from gammoneye.service.referee import CameraEyes, SourceError, rendered_clips
from gammoneye.vision.read import bar_and_off
from gammoneye.vision.selfcal import match_opening

#: Still frames looked at, from the clip's start, for one that reads as the opening.
OPENING_LOOKS = 60


@dataclass
class Tally:
    frames: int = 0
    right: int = 0
    #: frames whose truth has checkers on the bar, and of those read right
    held: int = 0
    held_right: int = 0
    #: frames with an empty bar read with checkers on it
    empty_read_full: int = 0
    #: frames with dice down, and of those read right
    dice: int = 0
    dice_right: int = 0
    #: ``--before-dice``: frames where the bar fitted before the dice were read
    #: differs, and which of the two is the truth's
    differ: int = 0
    now_right: int = 0
    before_right: int = 0

    def add(self, other: Tally) -> None:
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))

    def line(self, before_dice: bool) -> str:
        def pct(a: int, b: int) -> str:
            return f"{100 * a / b:.2f} % ({a}/{b})" if b else "-"

        out = (
            f"frames {self.frames}, bar right {pct(self.right, self.frames)};"
            f" with checkers on it {pct(self.held_right, self.held)};"
            f" empty, read with checkers {pct(self.empty_read_full, self.frames - self.held)};"
            f" with dice down {pct(self.dice_right, self.dice)}"
        )
        if before_dice:
            out += (
                f"; fitted before the dice: differs in {self.differ},"
                f" now right {self.now_right}, before right {self.before_right}"
            )
        return out


def _names(eyes: CameraEyes, clip: Path, rows: list[dict[str, Any]]) -> dict[int, str] | None:
    """Each player's colour name in the reader's readings, from the first still frame
    of ``rows`` that reads as the opening layout; None where none does."""
    for row in still_frames(rows)[:OPENING_LOOKS]:
        image = cv2.imread(str(clip / "frames" / f"{row['frame']:06d}.jpg"), cv2.IMREAD_COLOR)
        profile = None if image is None else eyes._profile(image)
        if profile is None:
            continue
        reading = eyes.reader.read(image, profile)
        found = match_opening(reading)
        if found.points_agreeing == 24:
            other = next(c for c in reading.colours if c != found.bottom_colour)
            return {eyes.bottom_player: found.bottom_colour, 1 - eyes.bottom_player: other}
    return None


@contextmanager
def _first_points(reader: Any) -> Iterator[list[Any]]:
    """Keep what the reader's points step last returned, before any die is read
    (``_read_points``), in the list given."""
    kept: list[Any] = []
    inner = reader._read_points

    def keeping(*args: Any, **kw: Any) -> Any:
        out = inner(*args, **kw)
        kept[:] = [out]
        return out

    reader._read_points = keeping
    try:
        yield kept
    finally:
        reader._read_points = inner


def measure(clip: Path, every: int, dice_only: bool = False, wrong: bool = False) -> Tally | None:
    """Read every ``every``-th still frame of ``clip`` (only those with dice down where
    ``dice_only``) and tally its bar; None where no frame reads as the opening.
    ``wrong``: print each frame whose bar reads wrong."""
    meta = json.loads((clip / "clip.json").read_text("utf-8"))
    rows = [json.loads(line) for line in (clip / "frames.jsonl").read_text().splitlines()]
    eyes = CameraEyes(meta["bottom_player"], meta.get("field_corners_px"))
    eyes.reader.reuse_still = False  # every frame's points read afresh
    names = _names(eyes, clip, rows)
    if names is None:
        return None
    tally = Tally()
    frames = [r for r in still_frames(rows) if r.get("dice") or not dice_only][::every]
    with _first_points(eyes.reader) as kept:
        for row in frames:
            image = cv2.imread(str(clip / "frames" / f"{row['frame']:06d}.jpg"), cv2.IMREAD_COLOR)
            profile = None if image is None else eyes._profile(image)
            if profile is None:
                continue
            reading = eyes.reader.read(image, profile)
            truth = {names[p]: row["checkers"][p][24] for p in (0, 1)}
            now = {c: reading.bar.get(c, 0) for c in truth}
            right = now == truth
            if wrong and not right:
                print(f"  {clip.name} frame {row['frame']} ({row['t']:.1f} s): {now} for {truth}")
            tally.frames += 1
            tally.right += right
            if any(truth.values()):
                tally.held += 1
                tally.held_right += right
            elif any(now.values()):
                tally.empty_read_full += 1
            if row.get("dice"):
                tally.dice += 1
                tally.dice_right += right
            points, counted, either = kept[0][:3]
            before = bar_and_off(points, counted, either)[0]
            before = {c: before.get(c, 0) for c in truth}
            if before != now:
                tally.differ += 1
                tally.now_right += right
                tally.before_right += before == truth
    return tally


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("clips", type=Path, nargs="+", help="rendered clips or folders of them")
    ap.add_argument("--every", type=int, default=10, help="read every n-th still frame")
    ap.add_argument("--dice-only", action="store_true", help="only still frames with dice down")
    ap.add_argument(
        "--before-dice",
        action="store_true",
        help="also fit the bar to the points as read before the dice, and print where that differs",
    )
    ap.add_argument("--wrong", action="store_true", help="print each frame whose bar reads wrong")
    args = ap.parse_args(argv)
    if args.every < 1:
        ap.error("--every must be 1 or more")
    try:
        clips = rendered_clips(args.clips)
    except SourceError as e:
        ap.error(str(e))
    total = Tally()
    for clip in clips:
        t = measure(clip, args.every, args.dice_only, args.wrong)
        if t is None:
            print(f"{clip.name}: no still frame reads as the opening layout; left out")
            continue
        print(f"{clip.name}: {t.line(args.before_dice)}", flush=True)
        total.add(t)
    print(f"all: {total.line(args.before_dice)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
