"""What the cube reading gets wrong on labelled stills: its place, its face, by where
the cube lies.

Reads every still of each run as ``gammoneye eval vision --calibrated`` does and, for
each labelled cube, notes the place and face said against the label's. Prints the
wrong places (``None``: no cube found) and, by the kind of place (centre, a side,
offered), how many cubes were placed and read right.

    python bench/cube_places.py renders/held_styles renders/held_seeds
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path
from typing import Any

import gammoneye.vision.evaluate as ev
from gammoneye.vision.read import BoardReader


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("runs", type=Path, nargs="+", help="labelled stills runs")
    args = ap.parse_args()
    seen: list[tuple[str, str | None, bool, bool]] = []
    compare = ev._compare_cube

    def noted(reading: Any, label: dict[str, Any], report: Any, case: Any) -> None:
        cubes, value_right, place_right = (
            report.cubes,
            report.cube_value_right,
            report.cube_place_right,
        )
        compare(reading, label, report, case)
        if report.cubes != cubes:
            said = None if reading.cube is None else reading.cube.place
            seen.append(
                (
                    label["cube"]["place"],
                    said,
                    report.cube_place_right > place_right,
                    report.cube_value_right > value_right,
                )
            )

    ev._compare_cube = noted  # type: ignore[assignment]
    reader = BoardReader.load()
    for run in args.runs:
        seen.clear()
        ev.evaluate_vision(run, reader, calibrated=True)
        wrong = Counter((truth, said) for truth, said, place, _ in seen if not place)
        print(f"{run}: {len(seen)} cubes; wrong places (label, said): {dict(wrong)}")
        kinds = Counter(
            (truth if truth in ("centre", "offered") else "side", place, value)
            for truth, _, place, value in seen
        )
        for kind in ("centre", "side", "offered"):
            n = sum(v for k, v in kinds.items() if k[0] == kind)
            both = kinds[(kind, True, True)]
            face = sum(v for k, v in kinds.items() if k[0] == kind and k[2])
            print(f"  {kind:8s} {n:4d} cubes: face right {face}, face and place right {both}")


if __name__ == "__main__":
    main()
