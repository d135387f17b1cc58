"""Follow the referee through a rendered clip, view by view, against the clip's truth.

For each view the stabiliser passes to the referee (every frame read, as
``gammoneye eval referee --every-frame``), one line: the time, the dice as read
(value; "c" where taken as cocked and the cocked probability from 0.2; how sure;
half) beside the dice of the clip's truth at that frame, and whether the checkers'
best reading is the truth's; then the events the referee made of it. The truth's
own events are printed where they fall, prefixed ``truth``. Only what lies between
``--start`` and ``--end`` (seconds) is printed; the referee still sees the whole clip
from its start, as it must.

    python bench/referee_trace.py clips/s21/selfplay_5p_seed3711-1601 --start 90 --end 110

A tool to look at failures that ``eval referee --problems`` names: what the camera
saw, what the referee made of it, what happened.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from gammoneye.datasets.render.cliptruth import read_truth_rows, truth_sighting
from gammoneye.engine.events import Event
from gammoneye.engine.position import BAR, Position
from gammoneye.engine.referee import Referee, SeenDie
from gammoneye.service.referee import (
    CameraEyes,
    RefereeStep,
    clip_referee_config,
    open_source,
    read_truth,
)


def _die(d: SeenDie, faces: bool = False) -> str:
    # "c" for a die the referee takes as cocked, its probability when it is not nil
    cocked = ("c" if d.cocked >= 0.5 else "") + (f"{d.cocked:.2f}" if d.cocked >= 0.2 else "")
    at = "" if d.at is None else f"@{d.at[0]:+.0f},{d.at[1]:+.0f}"
    # the reader's probability of every face, 1 to 6, where asked for
    shown = "[" + " ".join(f"{v:.2f}" for v in d.faces()) + "]" if faces else ""
    return f"{d.value}{cocked}({d.p:.2f},{d.half or 'off'}{at}){shown}"


def _event(e: Event) -> str:
    data = e.to_dict()
    skip = {"seq", "t", "frame", "source", "schema_version", "suggestions", "before", "after"}
    return " ".join(f"{k}={v}" for k, v in data.items() if k not in skip)


def _differences(seen: Position, want: Position) -> str:
    """Where the checkers read differ from the truth's, per player's own point
    numbers (``p0 13: 4 for 5``: four of player 0's checkers read on his 13-point,
    five there); 25 is the bar."""
    out = []
    for p in (0, 1):
        for i in range(25):
            a, b = seen.boards[p][i], want.boards[p][i]
            if a != b:
                out.append(f"p{p} {25 if i == BAR else i + 1}: {a} for {b}")
    return ", ".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("clip", type=Path, help="a rendered clip (gammoneye render clip)")
    ap.add_argument("--start", type=float, default=0.0, help="print from this time (s)")
    ap.add_argument("--end", type=float, default=1e9, help="print up to this time (s)")
    ap.add_argument(
        "--cache",
        type=Path,
        help="take the frames' readings from bench/referee_cached.py's folder where kept",
    )
    ap.add_argument(
        "--any-code",
        action="store_true",
        help="use the kept readings even if vision's code changed (a change that leaves them)",
    )
    ap.add_argument(
        "--pixels",
        action="store_true",
        help="also print where in the picture each die of the reading lies",
    )
    ap.add_argument(
        "--faces",
        action="store_true",
        help="also print the reader's probability of each face, 1 to 6, for every die seen",
    )
    args = ap.parse_args(argv)
    clip: Path = args.clip
    if not (clip / "clip.json").is_file():
        ap.error(f"{clip} is no rendered clip (no clip.json)")

    truth = read_truth(clip)
    rows = {row["frame"]: row for row in read_truth_rows(clip)}
    config = clip_referee_config(clip, truth)
    meta = json.loads((clip / "clip.json").read_text("utf-8"))
    eyes: CameraEyes
    if args.cache is not None:
        sys.path.insert(0, str(Path(__file__).parent))
        from referee_cached import CachedEyes, load_store

        store = load_store(args.cache / f"{clip.name}.pkl", any_code=args.any_code)
        eyes = CachedEyes(config.bottom_player, meta.get("field_corners_px"), store=store)
    else:
        eyes = CameraEyes(config.bottom_player, meta.get("field_corners_px"))
    referee = Referee(config, t=0.0)
    step = RefereeStep(eyes, referee)
    pending = [e for e in truth if e.source != "observer" or e.TYPE == "match_start"]
    observer = sorted(
        (e for e in truth if e.source == "observer" and e.TYPE != "match_start"),
        key=lambda e: e.t or 0.0,
    )

    def shown(t: float) -> bool:
        return bool(args.start <= t <= args.end)

    last: Any = None
    for frame in open_source(str(clip)):
        t = frame.t
        while pending and (pending[0].t or 0.0) <= t:
            e = pending.pop(0)
            if shown(e.t or 0.0):
                print(f"  truth t={e.t:.1f} {e.TYPE} {_event(e)}")
        while observer and (observer[0].t or 0.0) <= t:
            for e in referee.observe(observer.pop(0)):
                if shown(t):
                    print(f"    ours {e.TYPE} {_event(e)}")
        new = step(frame)
        if step.last is not last:
            last = step.last
            if shown(t) and last is not None:
                row = rows.get(frame.ref if isinstance(frame.ref, int) else int(frame.ref))
                seen = " ".join(_die(d, args.faces) for d in last.dice) or "-"
                true_dice = ""
                board = "?"
                ts = None if row is None else truth_sighting(row, config.bottom_player)
                if ts is not None:
                    true_dice = " ".join(_die(d) for d in ts.dice) or "-"
                    guess = last.checkers.guess(referee.state.position.turn)
                    want = ts.checkers.guess(referee.state.position.turn)
                    board = "board ok" if guess == want else "board OFF"
                    if guess != want and guess is not None and want is not None:
                        board += " (" + _differences(guess, want) + ")"
                    if want is not None:
                        mine = referee.state.position.boards
                        same = {mine, mine[::-1]} & {want.boards}
                        board += ", match ok" if same else ", match OFF"
                cube = "" if last.cube is None else f" cube {last.cube.value}/{last.cube.place}"
                print(
                    f"view t={t:.1f} f={frame.ref}: dice {seen} | truth {true_dice} | {board}{cube}"
                )
                reading = getattr(eyes, "last_reading", None)
                if args.pixels and reading is not None:
                    print(
                        "      in the picture: "
                        + " ".join(
                            f"{d.value()}@({d.image_xy[0]:.0f},{d.image_xy[1]:.0f})"
                            for d in reading.dice
                            if d.image_xy is not None
                        )
                    )
        for e in new:
            if shown(t):
                print(f"    ours {e.TYPE} {_event(e)}")
        if t > args.end:
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
