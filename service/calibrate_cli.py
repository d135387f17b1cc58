"""``gammoneye calibrate IMAGE``: find the playing field in a camera's picture and save it.

OpenCV and the finder are imported inside the command, so ``gammoneye --help`` stays
instant.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from gammoneye.service.cliutil import fail


def parse_corners(text: str) -> list[tuple[float, float]]:
    """``"x,y x,y x,y x,y"`` (spaces or semicolons between corners).

    >>> parse_corners("10,20 30,40; 50,60 70,80")
    [(10.0, 20.0), (30.0, 40.0), (50.0, 60.0), (70.0, 80.0)]
    """
    parts = text.replace(";", " ").split()
    try:
        corners = [(float(x), float(y)) for x, y in (p.split(",") for p in parts)]
    except ValueError:
        raise typer.BadParameter(
            f"{text!r}: expected four corners 'x,y x,y x,y x,y' in pixels", param_hint="--corners"
        ) from None
    if len(corners) != 4:
        raise typer.BadParameter(
            f"{text!r}: expected 4 corners, got {len(corners)}", param_hint="--corners"
        )
    return corners


def calibrate(
    image: Annotated[Path, typer.Argument(help="A picture from the camera, board in view.")],
    corners: Annotated[
        str | None,
        typer.Option(
            "--corners",
            help="The playing field's four corners 'x,y x,y x,y x,y' "
            "(any order), instead of finding them.",
        ),
    ] = None,
    out: Annotated[Path, typer.Option("--out", help="Where to save the calibration.")] = Path(
        "calibration.json"
    ),
    show: Annotated[
        Path | None,
        typer.Option(
            "--show",
            help="Also write a PNG: the picture with the field marked, and "
            "the field from above with the points numbered.",
        ),
    ] = None,
    bottom_player: Annotated[
        int | None,
        typer.Option(
            "--bottom-player",
            min=0,
            max=1,
            help="Player (0 or 1) at the field's "
            "bottom side in the --show picture, if you know it.",
        ),
    ] = None,
    home: Annotated[
        str, typer.Option("--home", help="That player's home board: right or left.")
    ] = "right",
    markers: Annotated[
        bool,
        typer.Option(
            "--markers",
            help="Take the corners from the four printed markers (gammoneye markers).",
        ),
    ] = False,
    opening: Annotated[
        bool,
        typer.Option(
            "--opening",
            help="The picture shows the opening position: learn from it who sits "
            "where, where the home boards are and the bar's width.",
        ),
    ] = False,
    dark_player: Annotated[
        int,
        typer.Option(
            "--dark-player",
            min=0,
            max=1,
            help="With --opening: the player (0 or 1) of the darker checkers.",
        ),
    ] = 0,
) -> None:
    """Find the playing field in IMAGE (no markers needed) and save a calibration.

    The calibration (JSON) holds the field's four corners, the bar's share of the
    field's width (measured in the picture), which side is which once known, and a
    reference to notice later when the board or the camera has moved.
    If the field is not found, give its corners by hand with --corners (the inner
    corners of the frame around both halves and the bar, trays left out).

    Examples:

      gammoneye calibrate frame.jpg --show check.png

      gammoneye calibrate frame.jpg --corners "212,630 1090,640 1010,118 260,101"

      gammoneye calibrate opening.jpg --opening --dark-player 1

      gammoneye calibrate frame.jpg --markers
    """
    import cv2
    import numpy as np

    from gammoneye.calibration.boardspace import CalibrationError, Orientation
    from gammoneye.calibration.profile import CalibrationProfile

    if home not in ("right", "left"):
        raise typer.BadParameter(f"{home!r}: expected right or left", param_hint="--home")
    picture = cv2.imread(str(image), cv2.IMREAD_COLOR)
    if picture is None:
        raise fail(f"cannot read a picture from {image}")
    size = (picture.shape[1], picture.shape[0])
    try:
        if markers:
            from gammoneye.calibration.markers import find_markers

            at = find_markers(picture)
            if at is None:
                raise fail(
                    f"no markers in {image}: print them with 'gammoneye markers sheet.png' "
                    "and lay one at each corner of the field"
                )
            profile = CalibrationProfile.from_corners(at, size, source="markers", image=picture)
        elif corners is not None:
            profile = CalibrationProfile.from_corners(
                np.array(parse_corners(corners)), size, source="manual", image=picture
            )
        else:
            from gammoneye.calibration.find import find_field

            found = find_field(picture)
            if found is None:
                raise fail(
                    f"no board found in {image}; give the playing field's corners with "
                    "--corners 'x,y x,y x,y x,y'"
                )
            profile = CalibrationProfile.from_corners(
                found.corners_px,
                size,
                source="auto",
                score=found.score,
                long_side_first=True,
                image=picture,
            )
        from dataclasses import replace

        from gammoneye.calibration.barwidth import fit_bar_fraction

        fraction = fit_bar_fraction(picture, profile.corners())
        if fraction is not None:
            profile = replace(profile, bar_fraction=fraction)
        if opening:
            from gammoneye.vision.classifier import ModelError
            from gammoneye.vision.read import BoardReader
            from gammoneye.vision.selfcal import learn_from_opening

            try:
                learned = learn_from_opening(
                    BoardReader.load(), picture, profile, dark_player=dark_player
                )
            except ModelError as exc:
                raise fail(str(exc)) from None
            if learned.profile is None:
                raise fail(learned.message)
            profile = learned.profile
            typer.echo(learned.message)
        if bottom_player is not None:
            profile = replace(profile, orientation=Orientation(bottom_player, home == "right"))
        profile.save(out)
    except CalibrationError as exc:
        raise fail(str(exc)) from None
    c = profile.corners().round(1).tolist()
    how = "found" if profile.source == "auto" else "given"
    score = f", score {profile.score:.2f}" if profile.score is not None else ""
    typer.echo(f"field corners ({how}{score}): {c}")
    typer.echo(
        f"bar: {profile.bar_fraction:.3f} of the field's width"
        + (
            " (measured in the picture)"
            if fraction is not None
            else " (not measured: no points seen)"
        )
    )
    typer.echo(f"saved {out}")
    if show is not None:
        sheet = _check_picture(picture, profile, profile.orientation or Orientation())
        show.parent.mkdir(parents=True, exist_ok=True)
        if not cv2.imwrite(str(show), sheet):
            raise fail(f"cannot write {show}")
        typer.echo(f"wrote {show}")


def _check_picture(picture, profile, orientation):  # type: ignore[no-untyped-def]
    """The picture with the field outlined beside the field from above, side by side."""
    import cv2
    import numpy as np

    marked = picture.copy()
    quad = np.round(profile.corners()).astype(np.int32)
    cv2.polylines(marked, [quad], True, (0, 255, 0), 2, cv2.LINE_AA)
    cv2.circle(marked, tuple(int(v) for v in quad[0]), 8, (0, 0, 255), -1)  # c0: bottom-left
    space = profile.space()
    board = space.draw_grid(profile.warp(picture), orientation)
    h = 600
    left = cv2.resize(marked, (int(marked.shape[1] * h / marked.shape[0]), h))
    right = cv2.resize(board, (int(board.shape[1] * h / board.shape[0]), h))
    return np.hstack([left, right])


def markers(
    out: Annotated[Path, typer.Argument(help="The PNG to write (A4 at 300 dpi).")],
    size: Annotated[
        float, typer.Option("--size", min=1.0, max=8.0, help="Marker width in cm.")
    ] = 4.0,
) -> None:
    """Write a printable sheet of the four corner markers for hard setups.

    Print it at 100 %, cut the markers out and lay each on the rail at a corner of
    the playing field, a corner of its black square on the field's corner: 0
    bottom-left, 1 bottom-right, 2 top-right, 3 top-left, seen from the player who
    sits at the bottom. Then: gammoneye calibrate frame.jpg --markers

    Example:

      gammoneye markers markers.png
    """
    import cv2

    from gammoneye.calibration.markers import marker_sheet

    out.parent.mkdir(parents=True, exist_ok=True)
    if not cv2.imwrite(str(out), marker_sheet(size)):
        raise fail(f"cannot write {out}")
    typer.echo(f"wrote {out}: print at 100 % on A4")
