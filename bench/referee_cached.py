"""``gammoneye eval referee --every-frame --problems``, with each frame's board
reading kept on disk, for work on the referee alone.

Reading the board is most of what an every-frame run costs (1,271 readings of
about 70 ms in a 4-minute clip). The referee's own work is small, so when only
the referee changes, a second run can take each frame's reading from the first:

    python bench/referee_cached.py clips/s28 --cache /tmp/views

The first run reads every frame it looks at and keeps the readings in
``CACHE/<clip>.pkl``; later runs read only frames not kept (the referee may look
at others). What is kept is the view before rail marks are taken out
(:class:`~gammoneye.vision.sighting.BoardMarks` learns over time, so it runs live),
and what the eyes learnt from the opening (colours, side, lens). A cache made
under other vision code or models is not used: its fingerprint (the files of
``vision/``, ``calibration/`` and ``service/referee.py``) must match. The
figures are the eval's; latency and frame rate mean nothing here and are left out.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import hashlib
import json
import pickle
import sys
from pathlib import Path
from typing import Any

from gammoneye.engine.referee import Referee, SeenDie, Sighting
from gammoneye.service.referee import (
    CameraEyes,
    Frame,
    SourceError,
    clip_referee_config,
    open_source,
    read_truth,
    rendered_clips,
    run_referee,
)
from gammoneye.service.referee_eval import RefereeScore, compare_events

ROOT = Path(__file__).resolve().parent.parent


@functools.cache  # once a run: the code it runs is the code it started with
def fingerprint() -> str:
    """What the readings depend on: the vision code and models, calibration, the eyes."""
    h = hashlib.sha1()
    files = sorted((ROOT / "vision").rglob("*.py")) + sorted((ROOT / "vision").rglob("*.onnx"))
    files += [*sorted((ROOT / "calibration").rglob("*.py")), ROOT / "service" / "referee.py"]
    for f in files:
        h.update(str(f.relative_to(ROOT)).encode())
        h.update(f.read_bytes())
    return h.hexdigest()


def _defaults_for_new_fields(cls: type) -> None:
    """Let readings kept before ``cls`` (a frozen dataclass with slots) had all its
    fields load with the defaults of those added since (``Sighting.arms``, session 59;
    ``SeenDie.pooled``, session 60): such a class unpickles field by field, in order,
    and leaves the rest unset."""
    setstate = cls.__setstate__  # type: ignore[attr-defined]

    def with_defaults(self: Any, state: list[Any]) -> None:
        setstate(self, state)
        for f in dataclasses.fields(cls)[len(state) :]:
            default = f.default_factory() if f.default is dataclasses.MISSING else f.default  # type: ignore[misc]
            object.__setattr__(self, f.name, default)

    cls.__setstate__ = with_defaults  # type: ignore[attr-defined]


_defaults_for_new_fields(SeenDie)
_defaults_for_new_fields(Sighting)


def load_store(path: Path, *, any_code: bool = False) -> dict[str, Any]:
    """The readings kept in ``path``, or an empty store when there are none or they
    were made under other vision code (unless ``any_code``)."""
    fp = fingerprint()
    if path.is_file():
        kept: dict[str, Any] = pickle.loads(path.read_bytes())
        if kept.get("fingerprint") == fp or any_code:
            return kept
        print(f"{path}: made under other vision code, read again", file=sys.stderr)
    return {"fingerprint": fp, "looks": {}}


class CachedEyes(CameraEyes):
    """Camera eyes that take a frame's view from ``store`` when it holds one."""

    def __init__(self, *args: Any, store: dict[str, Any], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.store = store
        self.hits = 0

    def look(self, frame: Frame) -> Sighting | None:
        looks: dict[Any, Sighting | None] = self.store["looks"]
        learnt = self.store.get("learnt")
        if frame.ref in looks:
            self.hits += 1
            seen = looks[frame.ref]
            if seen is None:
                return None
            if self.colours is None and learnt is not None:
                marks: Any = self.marks
                self.restore(learnt)
                self.marks = marks
            return self.marks.clean(seen)
        captured: list[Sighting] = []
        clean = self.marks.clean

        def keep(seen: Sighting) -> Sighting:
            captured.append(seen)
            return seen

        self.marks.clean = keep  # type: ignore[method-assign]
        try:
            out = super().look(frame)
        finally:
            del self.marks.clean
        seen = captured[0] if out is not None and captured else None
        looks[frame.ref] = seen
        if self.colours is not None and learnt is None:
            self.store["learnt"] = self.snapshot()
        return None if seen is None else clean(seen)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("clips", type=Path, nargs="+", help="clips, or folders of clips")
    ap.add_argument("--cache", type=Path, required=True, help="folder of kept readings")
    ap.add_argument(
        "--any-code",
        action="store_true",
        help="use kept readings made under other code too: for a change that leaves "
        "each frame's reading as it was (the stabiliser's key, the referee); "
        "frames not kept are read and kept with them",
    )
    args = ap.parse_args()
    args.cache.mkdir(parents=True, exist_ok=True)
    total = RefereeScore()
    try:
        clips = rendered_clips(args.clips)
    except SourceError as e:
        sys.exit(str(e))
    for clip in clips:
        path = args.cache / f"{clip.name}.pkl"
        store = load_store(path, any_code=args.any_code)
        truth = read_truth(clip)
        config = clip_referee_config(clip, truth)
        ref = Referee(config, t=0.0)
        observer = [e for e in truth if e.source == "observer" and e.TYPE != "match_start"]
        meta = json.loads((clip / "clip.json").read_text("utf-8"))
        eyes = CachedEyes(config.bottom_player, meta.get("field_corners_px"), store=store)
        kept_before = len(store["looks"])
        try:
            stats = run_referee(
                open_source(str(clip)), eyes, ref, observer=observer, realtime=False
            )
        finally:
            # kept even when the referee fails part way: what was read is not read again
            if len(store["looks"]) != kept_before:
                tmp = path.with_suffix(".tmp")
                tmp.write_bytes(pickle.dumps(store))
                tmp.replace(path)
        decided = {id(d.event): d.at for d in stats.decisions}
        score = compare_events(truth, ref.events, decided_at=decided)
        total.add(score)
        print(
            f"{clip.name}: {score.summary()}; views kept {eyes.hits}, read {eyes.reads};"
            f" field found again {eyes.refound}, found elsewhere and kept {eyes.kept}"
        )
        for p in stats.refused + score.problems:
            print(f"  {p}")
    figures = total.figures()
    for key, value in figures.items():
        if key.startswith("flag_latency") or key == "loop_fps":
            continue
        print(f"{key:26s} {value:.2f}" if isinstance(value, float) else f"{key:26s} {value}")


if __name__ == "__main__":
    main()
