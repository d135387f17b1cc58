"""``gammoneye vision ...``: read a picture of a board, or find the dice in any picture;
``gammoneye eval vision``: measure the reader on labelled renders.

The JSON printed by ``vision read --json`` and ``vision dice --json`` is a contract
(issue 4; ``docs/vision.md``): benchmarks parse it.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from gammoneye.service.cliutil import fail

app = typer.Typer(
    help="Read pictures: the whole board (vision read) or only the dice (vision dice).",
    no_args_is_help=True,
)


def _image(path: Path) -> Any:
    import cv2

    if not path.is_file():
        raise fail(f"no such picture: {path}")
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise fail(f"{path} is not a picture OpenCV can read (JPEG, PNG, ...)")
    return image


@app.command("read")
def read(
    image: Annotated[Path, typer.Argument(help="A picture of the board (JPEG, PNG, ...).")],
    calibration: Annotated[
        Path | None,
        typer.Option(
            "--calibration",
            help="A calibration from 'gammoneye calibrate' (else the field is found in "
            "the picture).",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    show: Annotated[
        Path | None, typer.Option("--show", help="Also write a PNG with the reading drawn on it.")
    ] = None,
) -> None:
    """Read a settled picture: checkers on every point, the bar, borne off, the dice
    and the cube.

    Points are numbered 1..24 for the player sitting at the field's bottom side
    (the side of the first corner in board.corners_px), home board on the right
    unless the calibration says otherwise; colours are 'dark' and 'light'. Borne-off
    counts are inferred (15 checkers a side). Exits with status 2 when no board is
    found: calibrate with corners then.

    Examples:

      gammoneye vision read frame.jpg --json

      gammoneye vision read frame.jpg --calibration calibration.json --show read.png
    """
    from gammoneye.calibration.boardspace import CalibrationError
    from gammoneye.calibration.profile import CalibrationProfile
    from gammoneye.vision.classifier import ModelError
    from gammoneye.vision.read import BoardReader, NoBoardError

    picture = _image(image)
    profile = None
    if calibration is not None:
        try:
            profile = CalibrationProfile.load(calibration)
        except (OSError, CalibrationError) as exc:
            raise fail(f"cannot use calibration {calibration}: {exc}") from None
    try:
        reading = BoardReader.load().read(picture, profile)
    except NoBoardError as exc:
        raise fail(str(exc)) from None
    except ModelError as exc:
        raise fail(str(exc)) from None
    if show is not None:
        import cv2

        from gammoneye.vision.draw import draw_reading

        if not cv2.imwrite(str(show), draw_reading(picture, reading)):
            raise fail(f"cannot write {show}")
    if as_json:
        typer.echo(json.dumps(reading.to_json()))
        return
    for line in reading_lines(reading):
        typer.echo(line)


def reading_lines(reading: Any) -> list[str]:
    """A reading for people."""
    cells = []
    for p in reading.points:
        colour, n = p.best()
        if n:
            cells.append(f"{p.number}:{n}{colour[0]}")
    out = [
        "points (number:count, d = dark, l = light): " + (" ".join(cells) or "none"),
        "bar: " + ", ".join(f"{c} {n}" for c, n in reading.bar.items()),
        "off (inferred): " + ", ".join(f"{c} {n}" for c, n in reading.off.items()),
    ]
    for d in reading.dice:
        out.append(
            f"die {d.value()} (p {d.values[d.value()]:.2f})"
            + (" COCKED" if d.cocked >= 0.5 else "")
            + f", {d.half or 'off the board'}"
            + (", on a checker" if d.on_checker >= 0.5 else "")
        )
    if reading.cube is not None:
        out.append(f"cube {reading.cube.value()} ({reading.cube.place})")
    return out


@app.command("dice")
def dice(
    image: Annotated[Path, typer.Argument(help="Any picture with dice in it.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON list.")] = False,
) -> None:
    """Find every die anywhere in a picture, no board needed, and read it: value, how
    sure, cocked or flat, and its box [x1, y1, x2, y2] in pixels.

    Example:

      gammoneye vision dice photo.jpg --json
    """

    from gammoneye.vision.classifier import ModelError
    from gammoneye.vision.detector import DiceCubeDetector
    from gammoneye.vision.dice import DiceReader

    picture = _image(image)
    try:
        detector, reader = DiceCubeDetector.load(), DiceReader.load()
    except ModelError as exc:
        raise fail(str(exc)) from None
    found = [d for d in detector.detect_anywhere(picture) if d.kind != "cube"]
    read, _ = reader.read_boxes(picture, [d.box for d in found])  # none found: none read
    out = [
        {
            "value": int(v.argmax()) + 1,
            "p": round(float(v.max()), 4),
            "cocked": d.cocked_probability(c) >= 0.5,
            "image_box": [round(x, 1) for x in d.box],
        }
        for d, v, c in zip(found, read.values, read.cocked, strict=True)
    ]
    if as_json:
        typer.echo(json.dumps(out))
        return
    if not out:
        typer.echo("no dice found")
    for item in out:
        typer.echo(
            f"{item['value']} (p {item['p']:.2f}){' COCKED' if item['cocked'] else ''} at "
            f"{item['image_box']}"
        )


def eval_vision(
    run: Annotated[Path, typer.Argument(help="A labelled stills run ('gammoneye render stills').")],
    calibrated: Annotated[
        bool,
        typer.Option(
            "--calibrated",
            help="Take the field from the labels (a calibrated match) instead of finding it.",
        ),
    ] = False,
    limit: Annotated[
        int | None, typer.Option("--limit", min=1, help="Read only the first N pictures.")
    ] = None,
    sheet: Annotated[
        Path | None,
        typer.Option("--sheet", help="Write a contact sheet (PNG) of the worst pictures."),
    ] = None,
) -> None:
    """Measure the board reader on labelled renders (or any folder in the same label
    format): per-point error, exact boards, dice value accuracy, cocked recall and
    false alarms, cube value and place, latency p50/p95 and the motion gate's rate.

    Example:

      gammoneye render stills --n 300 --seed 202 --style casino_red_felt --out renders/heldout

      gammoneye eval vision renders/heldout --sheet worst.png
    """
    from gammoneye.vision.classifier import ModelError
    from gammoneye.vision.evaluate import EvalError, evaluate_vision
    from gammoneye.vision.read import BoardReader

    if not run.is_dir():
        raise fail(f"no such folder: {run}")
    n = len(list((run / "labels").glob("*.json")))
    try:
        reader = BoardReader.load()
        with typer.progressbar(length=min(n, limit or n), label="reading", file=sys.stderr) as bar:
            report = evaluate_vision(
                run, reader, calibrated=calibrated, limit=limit, progress=bar.update
            )
    except (EvalError, ModelError) as exc:
        raise fail(str(exc)) from None
    for line in report.lines():
        typer.echo(line)
    if sheet is not None:
        from gammoneye.vision.draw import worst_sheet

        worst_sheet(run, report, sheet, reader, calibrated=calibrated)
        typer.echo(f"wrote {sheet}")
