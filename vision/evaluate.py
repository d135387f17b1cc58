"""``gammoneye eval vision``: the board reader measured on labelled renders.

Each still of a stills run (``render stills``; label format in
``docs/render-labels.md``) is read as ``vision read`` reads a picture: the field
found in the picture (or, with ``calibrated``, taken from the label, as a match
calibrated once would have it). The reading is compared with the label:

- **points**: each read point is matched to the label's point whose base is nearest
  in the picture (so the comparison does not depend on the numbering), and the read
  colour names are matched to the label's colours once per picture (the names are
  the reader's own). A point is wrong when its count or, if occupied, its colour is.
  A picture whose field is not found counts 24 wrong points. Points under a
  hand's box are left out: no camera sees them, and the referee waits for a
  settled frame (no hand) anyway;
- **exact boards**: every point, and the bar, right, among the pictures with no
  hand over a point (a field not found counts as wrong);
- **dice**: each die in the label (in the picture, at most half under a hand) is
  matched to the nearest detection within its size; value accuracy counts flat dice
  (a missed die is wrong); cocked recall counts cocked dice called cocked; false
  alarms are flat dice called cocked, plus detections matching no die;
- **cube**: value and place, where the label shows a cube;
- **latency**: per picture, the whole read and the recognition alone (without
  finding the field), and the motion gates' rate on the same pictures (the whole
  picture's and the board's, both on every frame, as the referee runs them).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from gammoneye.calibration.boardspace import canonical_corners

from .crops import box_cover
from .read import BoardReader, NoBoardError, ReadTimings
from .reading import BoardReading

F64 = NDArray[np.float64]

PLACE = {"centre": "centre", "offered": "offered"}


class EvalError(ValueError):
    """A folder that is not a labelled stills run."""


@dataclass
class Case:
    """One picture's result, kept for the worst-cases sheet."""

    image: str
    found: bool
    wrong_points: int
    bar_right: bool
    dice_wrong: int
    cube_wrong: bool
    notes: list[str] = field(default_factory=list)

    @property
    def badness(self) -> float:
        return (
            (0 if self.found else 100)
            + self.wrong_points
            + 2 * self.dice_wrong
            + self.cube_wrong
            + (not self.bar_right)
        )


@dataclass
class VisionReport:
    pictures: int = 0
    found: int = 0
    points: int = 0  # points measured: not under a hand
    hidden_points: int = 0
    wrong_points: int = 0
    clear_pictures: int = 0  # no point under a hand (a settled frame)
    exact: int = 0
    dice_flat: int = 0
    dice_flat_right: int = 0
    dice_missed: int = 0
    cocked: int = 0
    cocked_found: int = 0
    flat_called_cocked: int = 0
    extra_dice: int = 0
    dice_matched: int = 0  # labelled dice a detection matched
    dice_half_right: int = 0
    on_checker: int = 0  # matched dice lying on a checker
    on_checker_found: int = 0  # ... called on a checker
    off_checker: int = 0  # matched dice not on a checker
    off_checker_called: int = 0  # ... called on a checker (a false alarm)
    bar_pictures: int = 0  # pictures with checkers on the bar
    bar_pictures_right: int = 0  # ... whose bar is read right (both colours)
    empty_bar_wrong: int = 0  # pictures with an empty bar read with checkers on it
    cubes: int = 0
    cube_value_right: int = 0
    cube_place_right: int = 0
    total_ms: list[float] = field(default_factory=list)
    recognition_ms: list[float] = field(default_factory=list)
    gate_fps: float = 0.0
    cases: list[Case] = field(default_factory=list)

    def lines(self) -> list[str]:
        def pct(a: int, b: int) -> str:
            return f"{a / b * 100:.2f} % ({a}/{b})" if b else "n/a (none)"

        on_checker_right = self.on_checker_found + self.off_checker - self.off_checker_called
        out = [
            f"pictures: {self.pictures}; field found: {pct(self.found, self.pictures)}",
            f"per-point error: {pct(self.wrong_points, self.points)} "
            f"({self.hidden_points} points under a hand left out)",
            "exact boards (24 points and the bar; pictures with no hand over a point): "
            f"{pct(self.exact, self.clear_pictures)}",
            "dice value accuracy (flat dice, missed = wrong): "
            f"{pct(self.dice_flat_right, self.dice_flat)}; "
            f"dice missed {self.dice_missed}, extra detections {self.extra_dice}",
            f"cocked recall: {pct(self.cocked_found, self.cocked)}; false alarms (flat called "
            f"cocked): {pct(self.flat_called_cocked, self.dice_flat)}",
            f"dice found: half (left, right, bar, off) right "
            f"{pct(self.dice_half_right, self.dice_matched)}; on a checker or not right "
            f"{pct(on_checker_right, self.dice_matched)}; on a checker: recall "
            f"{pct(self.on_checker_found, self.on_checker)}, false alarms "
            f"{pct(self.off_checker_called, self.off_checker)}",
            f"bar: read right in {pct(self.bar_pictures_right, self.bar_pictures)} of the "
            f"pictures with checkers on it; checkers read on an empty bar in "
            f"{pct(self.empty_bar_wrong, self.pictures - self.bar_pictures)}",
            f"cube value: {pct(self.cube_value_right, self.cubes)}; cube place: "
            f"{pct(self.cube_place_right, self.cubes)}",
        ]
        if self.total_ms:
            t, r = np.array(self.total_ms), np.array(self.recognition_ms)
            out.append(
                f"latency per picture: read p50 {np.percentile(t, 50):.0f} ms, p95 "
                f"{np.percentile(t, 95):.0f} ms; recognition without finding the field p50 "
                f"{np.percentile(r, 50):.0f} ms, p95 {np.percentile(r, 95):.0f} ms"
            )
        if self.gate_fps:
            out.append(f"motion gate (whole picture and board): {self.gate_fps:.0f} frames/s")
        return out


def _under_hand(polygon: list[list[float]], label: dict[str, Any]) -> bool:
    """A hand's box covers more than a fifth of the point's box."""
    hands = (h["box"] for h in label.get("hands", []) if h.get("box"))
    return box_cover(np.array(polygon, np.float64), hands) > 0.2


def _label_points(label: dict[str, Any]) -> tuple[F64, list[tuple[str | None, int]]]:
    cells = {
        p["number"]: (p["colour"] if p["count"] else None, p["count"])
        for p in label["position"]["points"]
    }
    regions = label["regions"]["points"]
    return np.array([r["base_px"] for r in regions], np.float64), [
        cells[r["number"]] for r in regions
    ]


def _colour_map(
    reading: BoardReading, bases: F64, truth: list[tuple[str | None, int]]
) -> dict[str, str]:
    """Our colour name -> the label's, the way that agrees on most checkers."""
    votes: dict[tuple[str, str], int] = {}
    for p in reading.points:
        colour, n = p.best()
        if colour is None or p.image_xy is None:
            continue
        j = int(np.argmin(np.linalg.norm(bases - np.array(p.image_xy), axis=1)))
        t_colour, t_n = truth[j]
        if t_colour is not None:
            votes[(colour, t_colour)] = votes.get((colour, t_colour), 0) + min(n, t_n)
    names = sorted({t for t, _ in truth if t is not None})
    a, b = reading.colours
    best, best_score = {}, -1
    for first in names or ["?"]:
        rest = [x for x in names if x != first] or ["?"]
        mapping = {a: first, b: rest[0]}
        score = sum(votes.get((k, v), 0) for k, v in mapping.items())
        if score > best_score:
            best, best_score = mapping, score
    return best


def compare(reading: BoardReading, label: dict[str, Any], report: VisionReport, case: Case) -> None:
    bases, truth = _label_points(label)
    colours = _colour_map(reading, bases, truth)
    wrong = hidden = 0
    regions = label["regions"]["points"]
    for p in reading.points:
        assert p.image_xy is not None
        j = int(np.argmin(np.linalg.norm(bases - np.array(p.image_xy), axis=1)))
        if _under_hand(regions[j]["polygon_px"], label):
            hidden += 1
            continue
        colour, n = p.best()
        t_colour, t_n = truth[j]
        if n != t_n or (n and colours.get(colour or "", "") != t_colour):
            wrong += 1
    case.wrong_points = wrong
    report.wrong_points += wrong
    report.points += 24 - hidden
    report.hidden_points += hidden
    players = {q["player"]: q["colour"] for q in label["position"]["players"]}
    bar_truth = {players[k]: label["position"]["bar"][k] for k in (0, 1)}
    bar_read = {colours.get(c, c): n for c, n in reading.bar.items()}
    case.bar_right = all(bar_read.get(c, 0) == n for c, n in bar_truth.items()) and all(
        bar_truth.get(c, 0) == n for c, n in bar_read.items()
    )
    if any(bar_truth.values()):
        report.bar_pictures += 1
        report.bar_pictures_right += int(case.bar_right)
    else:
        report.empty_bar_wrong += int(not case.bar_right)
    if hidden:
        case.notes.append(f"{hidden} points under a hand")
    else:
        report.clear_pictures += 1
        report.exact += int(wrong == 0 and case.bar_right)
    _compare_dice(reading, label, report, case)
    _compare_cube(reading, label, report, case)


def _compare_dice(
    reading: BoardReading, label: dict[str, Any], report: VisionReport, case: Case
) -> None:
    truth = [d for d in label["dice"] if d["box"] and d["in_image"] and d["hidden_by_hand"] <= 0.5]
    used: set[int] = set()
    for d in truth:
        x0, y0, x1, y1 = d["box"]
        size = max(x1 - x0, y1 - y0)
        centre = np.array(d["centre_px"] if d.get("centre_px") else [(x0 + x1) / 2, (y0 + y1) / 2])
        match = None
        for k, r in enumerate(reading.dice):
            if k in used or r.image_xy is None:
                continue
            dist = float(np.linalg.norm(np.array(r.image_xy) - centre))
            if dist <= size and (match is None or dist < match[0]):
                match = (dist, k)
        said = reading.dice[match[1]] if match else None
        if match:
            used.add(match[1])
        else:
            report.dice_missed += 1
        if said is not None:
            report.dice_matched += 1
            half = d["board_half"]
            if half in ("left", "right") and not _seen_from_bottom(reading, label):
                half = "right" if half == "left" else "left"
            report.dice_half_right += int(said.half == half)
            called = said.on_checker >= 0.5
            if d["on_checker"]:
                report.on_checker += 1
                report.on_checker_found += int(called)
            else:
                report.off_checker += 1
                report.off_checker_called += int(called)
        if d["cocked"]:
            report.cocked += 1
            if said is not None and said.cocked >= 0.5:
                report.cocked_found += 1
            else:
                case.dice_wrong += 1
        else:
            report.dice_flat += 1
            right = said is not None and said.value() == d["value"] and said.cocked < 0.5
            report.dice_flat_right += int(right)
            if said is not None and said.cocked >= 0.5:
                report.flat_called_cocked += 1
            case.dice_wrong += int(not right)
    extra = len(reading.dice) - len(used)
    report.extra_dice += extra
    case.dice_wrong += extra


def _seen_from_bottom(reading: BoardReading, label: dict[str, Any]) -> bool:
    """Whether the reader's bottom side is the label's bottom seat's side (else the
    top seat's, and left and right swap): the label's field corner nearest the
    reading's first corner is the bottom-left one."""
    field = np.array(label["board"]["field_corners_px"] or [[0, 0]] * 4, np.float64)
    first = np.array(reading.corners_px[0]) if reading.corners_px else field[0]
    return int(np.argmin(np.linalg.norm(field - first, axis=1))) == 0


def _compare_cube(
    reading: BoardReading, label: dict[str, Any], report: VisionReport, case: Case
) -> None:
    cube = label.get("cube")
    if not cube or not cube["box"] or not cube["in_image"] or cube["hidden_by_hand"] > 0.5:
        return
    report.cubes += 1
    place = cube["place"]
    if place.startswith("player"):
        place = "bottom" if int(place[-1]) == label["position"]["bottom_player"] else "top"
        if not _seen_from_bottom(reading, label):
            # the reader's bottom is the side of the label's top seat (as for halves)
            place = "top" if place == "bottom" else "bottom"
    said = reading.cube
    value_ok = said is not None and said.value() == cube["value"]
    place_ok = said is not None and said.place == place
    report.cube_value_right += int(value_ok)
    report.cube_place_right += int(place_ok)
    case.cube_wrong = not (value_ok and place_ok)


def evaluate_vision(
    run: Path,
    reader: BoardReader,
    *,
    calibrated: bool = False,
    limit: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> VisionReport:
    """Read every labelled still of ``run`` and compare (see the module's doc)."""
    files = sorted((run / "labels").glob("*.json"))
    if not files:
        raise EvalError(
            f"{run} is not a labelled stills run: no labels/*.json "
            "(make one with 'gammoneye render stills')"
        )
    report = VisionReport()
    from .gate import MotionGate

    # the two gates the referee's eyes run on every frame: the whole picture's and the
    # board's (one field for the run, as in a match: that of the first still with one)
    gate, board_gate = MotionGate(), None
    gate_time, gate_frames = 0.0, 0
    for path in files[:limit]:
        label = json.loads(path.read_text())
        image = cv2.imread(str(run / label["image"]), cv2.IMREAD_COLOR)
        if image is None:
            raise EvalError(f"cannot read {run / label['image']}")
        if board_gate is None and label["board"]["field_corners_px"] is not None:
            board_gate = MotionGate.on_board(label["board"]["field_corners_px"])
        start = time.perf_counter()
        gate.update(image)
        if board_gate is not None:
            board_gate.update(image)
        gate_time += time.perf_counter() - start
        gate_frames += 1
        report.pictures += 1
        case = Case(label["image"], True, 24, False, 0, False)
        timings = ReadTimings()
        field_px = label["board"]["field_corners_px"]
        try:
            if calibrated and field_px is not None:
                corners = canonical_corners(
                    np.array(field_px, np.float64),
                    (image.shape[1], image.shape[0]),
                    long_side_first=True,
                )
                reading = reader.read(image, corners=corners, timings=timings)
            else:
                reading = reader.read(image, timings=timings)
        except NoBoardError:
            case.found = False
            report.wrong_points += 24
            report.points += 24
            report.clear_pictures += 1
            report.cases.append(case)
            if progress:
                progress(1)
            continue
        report.found += 1
        report.total_ms.append(timings.total)
        report.recognition_ms.append(timings.recognition)
        compare(reading, label, report, case)
        report.cases.append(case)
        if progress:
            progress(1)
    report.gate_fps = gate_frames / gate_time if gate_time else 0.0
    return report
