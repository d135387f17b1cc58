"""``gammoneye render ...``: synthetic, labelled pictures of backgammon boards.

The renderer (``datasets/render``) is imported inside each command, so ``--help``
stays instant and the engine commands never load OpenCV.
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from gammoneye.service.cliutil import fail

app = typer.Typer(
    help=(
        "Synthetic scenes with ground truth: labelled stills for training and "
        "evaluation, contact sheets, and whole match clips with injected faults."
    ),
    no_args_is_help=True,
)


@app.command()
def stills(
    n: Annotated[int, typer.Option("--n", min=1, help="How many images.")],
    out: Annotated[
        Path, typer.Option("--out", help="Output folder (images/, labels/, manifest.json).")
    ],
    seed: Annotated[int, typer.Option("--seed", help="Same seed, same bytes.")] = 0,
    width: Annotated[int, typer.Option("--width", min=64, help="Image width in pixels.")] = 1280,
    height: Annotated[int, typer.Option("--height", min=64, help="Image height in pixels.")] = 720,
    style: Annotated[
        list[str] | None,
        typer.Option("--style", help="Use only this board style (repeat for several)."),
    ] = None,
    exclude_style: Annotated[
        list[str] | None,
        typer.Option(
            "--exclude-style", help="Never use this board style (e.g. hold it out for tests)."
        ),
    ] = None,
    mat: Annotated[
        list[Path] | None,
        typer.Option("--mat", help="Also draw positions from these .mat files or folders."),
    ] = None,
    first: Annotated[int, typer.Option("--first", min=0, help="Index of the first image.")] = 0,
    closeups: Annotated[
        float,
        typer.Option(
            "--closeups",
            min=0.0,
            max=1.0,
            help="Share of pictures taken close to the dice (28-90 px per die).",
        ),
    ] = 0.0,
    piles: Annotated[
        float,
        typer.Option(
            "--piles",
            min=0.0,
            max=1.0,
            help="Share of positions with one or two piles of 5-15 checkers on each side "
            "(for training the point counter on tall piles).",
        ),
    ] = 0.0,
    workers: Annotated[
        int, typer.Option("--workers", min=0, help="Processes (0: one per CPU core).")
    ] = 0,
) -> None:
    """Render N labelled stills (JPEG + one JSON label each) into OUT.

    Each image shows a random board style, position (seeded random games, real
    transcripts, edge cases such as 10+ checkers on a point), dice (flat, cocked,
    wrong half, on a checker, off the board), cube, hands, clutter, camera and light.
    The label format is docs/render-labels.md. An interrupted run resumes: run the
    same command again.

    Examples:

      gammoneye render stills --n 200 --out renders/train --seed 1

      gammoneye render stills --n 50 --out renders/heldout --seed 99 --style casino_red_felt

      gammoneye render stills --n 500 --out renders/real-play --mat ../shared/data/mat

      gammoneye render stills --n 1500 --out renders/piles --seed 111 --piles 1
    """
    from gammoneye.datasets.render.stills import StillsConfig, StillsError, render_stills

    cfg = StillsConfig(
        n=n,
        out=out,
        seed=seed,
        width=width,
        height=height,
        styles=tuple(style or ()),
        exclude_styles=tuple(exclude_style or ()),
        mats=tuple(mat or ()),
        first=first,
        closeups=closeups,
        piles=piles,
    )
    try:
        with typer.progressbar(length=n, label="rendering", file=None) as bar:
            summary = render_stills(cfg, workers=workers or None, progress=bar.update)
    except (StillsError, ValueError) as exc:
        raise fail(str(exc)) from None
    typer.echo(
        f"wrote {summary.written} stills to {out} in {summary.seconds:.1f} s "
        f"({summary.per_second:.1f} per second)"
        + (f"; {summary.skipped} already there" if summary.skipped else "")
    )


@app.command()
def sheet(
    folder: Annotated[Path, typer.Argument(help="A stills run (or any folder of images).")],
    out: Annotated[Path, typer.Option("--out", help="The PNG to write.")] = Path("sheet.png"),
    n: Annotated[int, typer.Option("--n", min=1, help="How many images.")] = 24,
    cols: Annotated[int, typer.Option("--cols", min=1, help="Images per row.")] = 6,
    tile_width: Annotated[
        int, typer.Option("--tile-width", min=64, help="Width of one tile, pixels.")
    ] = 320,
    boxes: Annotated[bool, typer.Option("--boxes", help="Draw each image's labels on it.")] = False,
    beside: Annotated[
        Path | None,
        typer.Option("--beside", help="A folder of real photos to show under the renders."),
    ] = None,
    beside_n: Annotated[int, typer.Option("--beside-n", min=1, help="How many of those.")] = 12,
    dice: Annotated[
        bool, typer.Option("--dice", help="Tiles are crops around the labelled dice.")
    ] = False,
) -> None:
    """Write a PNG contact sheet of a folder of images.

    Examples:

      gammoneye render sheet renders/train --out sheet.png --boxes

      gammoneye render sheet renders/train --beside ../shared/data/dice-photos/Valid

      gammoneye render sheet renders/train --dice --beside ../shared/data/dice-photos/Valid
    """
    import cv2

    from gammoneye.datasets.render.sheet import SheetError, contact_sheet

    try:
        img = contact_sheet(
            folder,
            n=n,
            cols=cols,
            tile_width=tile_width,
            boxes=boxes,
            beside=beside,
            beside_n=beside_n,
            dice=dice,
        )
    except SheetError as exc:
        raise fail(str(exc)) from None
    out.parent.mkdir(parents=True, exist_ok=True)
    if not cv2.imwrite(str(out), img):
        raise fail(f"cannot write {out}")
    typer.echo(f"wrote {out} ({img.shape[1]}x{img.shape[0]})")


class YoloTask(StrEnum):
    objects = "objects"
    dice = "dice"
    dicecube = "dicecube"


@app.command("export-yolo")
def export_yolo(
    run: Annotated[Path, typer.Argument(help="A stills run (images/, labels/).")],
    out: Annotated[
        Path, typer.Option("--out", help="The dataset folder to create (absent or empty).")
    ],
    task: Annotated[
        YoloTask,
        typer.Option(
            "--task",
            help="objects: checker, die, cocked_die, cube. dicecube: die, cocked_die, "
            "cube. dice: 1..6 (top face) and cocked.",
        ),
    ] = YoloTask.objects,
    val_fraction: Annotated[
        float,
        typer.Option(
            "--val-fraction", min=0.0, max=0.9, help="Share of the images held out for val."
        ),
    ] = 0.1,
    seed: Annotated[int, typer.Option("--seed", help="Same seed, same split.")] = 0,
    min_visible: Annotated[
        float,
        typer.Option(
            "--min-visible",
            min=0.0,
            max=1.0,
            help="Leave out objects of which a hand leaves less than this fraction visible.",
        ),
    ] = 0.5,
) -> None:
    """Convert a stills run into an ultralytics YOLO detection dataset in OUT.

    Writes images/{train,val}/ (hard links to the run's images, copies where the
    file system cannot link), labels/{train,val}/*.txt (class cx cy w h, normalised)
    and data.yaml. The split is by image and depends only on --seed. Objects
    outside the image or mostly under a hand are left out; objects cut by the
    image border keep their clipped box. Classes per task: docs/render-labels.md.

    Examples:

      gammoneye render export-yolo renders/train --out yolo/objects

      gammoneye render export-yolo renders/train --out yolo/dice --task dice --val-fraction 0.2

      yolo detect train data=yolo/objects/data.yaml model=yolo11n.yaml imgsz=640
    """
    from gammoneye.datasets.render.yolo import YoloExportError
    from gammoneye.datasets.render.yolo import export_yolo as export

    try:
        summary = export(
            run,
            out,
            task=task.value,
            val_fraction=val_fraction,
            seed=seed,
            min_visible=min_visible,
        )
    except YoloExportError as exc:
        raise fail(str(exc)) from None
    counts = ", ".join(f"{name} {k}" for name, k in summary.objects.items())
    typer.echo(
        f"wrote {summary.images['train']} train + {summary.images['val']} val images to {out} "
        f"({counts}; {summary.skipped} left out)"
    )


@app.command()
def clip(
    mat: Annotated[Path, typer.Option("--mat", help="The match to render (.mat).")],
    out: Annotated[Path, typer.Option("--out", help="Output folder (frames/, events.jsonl, ...).")],
    seed: Annotated[int, typer.Option("--seed", help="Board, camera, light and faults.")] = 0,
    games: Annotated[
        str, typer.Option("--games", help="Which games: N (1..N), A-B, A,B,C or all.")
    ] = "all",
    faults: Annotated[
        str,
        typer.Option(
            "--faults",
            help=(
                "none; all (every kind, each forced early); all:RATE; or kind=rate,... with "
                "kinds wrong_distance, blocked_point, bar_not_first, early_bear_off, "
                "smaller_die, unplayed_die (or illegal=RATE for all six), cocked, wrong_half, "
                "on_checker, premature (or roll=RATE), takeback."
            ),
        ),
    ] = "none",
    fps: Annotated[
        float, typer.Option("--fps", min=1.0, max=60.0, help="Frames per second.")
    ] = 10.0,
    profile: Annotated[
        str, typer.Option("--profile", help="Rule profile: wbf, konstanz or club.")
    ] = "wbf",
    width: Annotated[int, typer.Option("--width", min=64, help="Frame width in pixels.")] = 1280,
    height: Annotated[int, typer.Option("--height", min=64, help="Frame height in pixels.")] = 720,
    style: Annotated[
        str | None, typer.Option("--style", help="Board style (default: random).")
    ] = None,
    workers: Annotated[
        int, typer.Option("--workers", min=0, help="Processes (0: one per core).")
    ] = 0,
) -> None:
    """Render a match as a frame sequence from a fixed camera, with ground truth.

    Dice tumble in and settle, a hand moves the checkers one by one, dice are lifted
    to end the turn, the cube is turned and moved. --faults injects illegal plays
    (flagged when the dice are lifted, then corrected), invalid rolls (re-rolled),
    premature rolls and moves taken back. Writes frames/NNNNNN.jpg, events.jsonl
    (ground truth in the engine's event-log format), frames.jsonl (per-frame truth),
    faults.json, match.mat and clip.json. An interrupted render resumes.

    Examples:

      gammoneye render clip --mat ../shared/data/mat/kevung_charlot1-charlot2_7p.mat \\
          --games 1-3 --faults all --out clips/charlot --seed 4

      gammoneye render clip --mat match.mat --games 1 --fps 15 --out clips/g1
    """
    from gammoneye.datasets.render.clip import ClipConfig, parse_games, render_clip
    from gammoneye.datasets.render.clipscript import ClipError
    from gammoneye.engine.rules import RuleProfileError
    from gammoneye.service.engine_cli import read_text_file

    text = read_text_file(mat)
    try:
        cfg = ClipConfig(
            mat_text=text,
            mat_name=mat.name,
            out=out,
            seed=seed,
            games=parse_games(games),
            faults=faults,
            fps=fps,
            profile=profile,
            width=width,
            height=height,
            style=style,
        )
        bar_holder: dict[str, object] = {}

        def started(frames: int) -> None:
            typer.echo(f"{frames} frames ({frames / fps:.0f} s of video) to render")
            bar = typer.progressbar(length=frames, label="rendering")
            bar.__enter__()
            bar_holder["bar"] = bar

        def step(k: int) -> None:
            bar_holder["bar"].update(k)  # type: ignore[attr-defined]

        try:
            summary = render_clip(cfg, workers=workers or None, progress=step, on_script=started)
        finally:
            if "bar" in bar_holder:
                bar_holder["bar"].__exit__(None, None, None)  # type: ignore[attr-defined]
    except (ClipError, RuleProfileError, ValueError) as exc:
        raise fail(str(exc)) from None
    kinds = ", ".join(f"{k} {v}" for k, v in sorted(summary.faults.items())) or "none"
    typer.echo(
        f"wrote {summary.frames} frames ({summary.video_seconds:.0f} s at {fps:g} fps) and "
        f"{summary.events} events to {out} in {summary.seconds:.0f} s; faults: {kinds}"
    )
    if summary.not_injected:
        typer.echo(f"no chance in these games for: {', '.join(summary.not_injected)}")


#: What a packed clip keeps besides its video: the ground truth and the transcript.
PACKED_FILES = ("clip.json", "events.jsonl", "frames.jsonl", "faults.json", "match.mat")


@app.command()
def pack(
    clip: Annotated[Path, typer.Argument(help="A rendered clip (gammoneye render clip).")],
    out: Annotated[Path, typer.Option("--out", help="Folder for the packed clip.")],
) -> None:
    """Pack a rendered clip small: its frames as one MP4 video (video.mp4, MPEG-4 part 2,
    which OpenCV writes and reads everywhere) beside its ground truth. The referee, the
    service and `eval referee` read a packed clip like the original.

    The demo's bundled clip (service/data/demo-clip) was made so:

      gammoneye render clip --mat ../shared/data/mat/kevung_gnubg_selfplay_drops_7p.mat \
          --games 1 --faults all --seed 5 --width 800 --height 450 --out /tmp/demo-src
      gammoneye render pack /tmp/demo-src --out service/data/demo-clip
    """
    import json
    import shutil

    import cv2

    frames = sorted((clip / "frames").glob("*.jpg"))
    if not (clip / "clip.json").is_file() or not frames:
        raise fail(f"{clip} is no rendered clip with frames (clip.json, frames/*.jpg)")
    meta = json.loads((clip / "clip.json").read_text("utf-8"))
    first = cv2.imread(str(frames[0]))
    height, width = first.shape[:2]
    out.mkdir(parents=True, exist_ok=True)
    video = out / "video.mp4"
    writer = cv2.VideoWriter(
        str(video), cv2.VideoWriter_fourcc(*"mp4v"), float(meta.get("fps", 10.0)), (width, height)
    )
    if not writer.isOpened():
        raise fail("OpenCV cannot write MPEG-4 video here")
    try:
        with typer.progressbar(frames, label="packing") as bar:
            for path in bar:
                writer.write(cv2.imread(str(path)))
    finally:
        writer.release()
    for name in PACKED_FILES:
        if (clip / name).is_file():
            shutil.copyfile(clip / name, out / name)
    size = video.stat().st_size / 1e6
    typer.echo(f"wrote {out}: {len(frames)} frames in {size:.1f} MB of video, and the truth")


@app.command("export-crops")
def export_crops_command(
    run: Annotated[Path, typer.Argument(help="A stills run (images/, labels/).")],
    out: Annotated[Path, typer.Option("--out", help="The folder to create (absent or empty).")],
    strip: Annotated[
        str, typer.Option("--strip", help="Size of a point strip, WIDTHxHEIGHT pixels.")
    ] = "64x256",
    square: Annotated[int, typer.Option("--square", min=16, help="Side of a die/cube crop.")] = 64,
    jitter: Annotated[
        float,
        typer.Option(
            "--jitter",
            min=0.0,
            max=0.1,
            help="Field-corner noise, share of its diagonal (imitates calibration).",
        ),
    ] = 0.01,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the jitter.")] = 0,
    only: Annotated[
        list[str] | None,
        typer.Option(
            "--only",
            help="Cut only this kind: points, bar, dice or cube (repeat; default: all). "
            "Dice alone are cut about 10 times faster than everything.",
        ),
    ] = None,
) -> None:
    """Cut a stills run into training crops: point strips, dice, the cube.

    Point strips are cut through the field's homography, base at the bottom, with the
    count, colour and owner of their checkers (points.jsonl); dice and cube crops are
    squares around their boxes (dice.jsonl: value, cocked, tilt; cube.jsonl: value,
    place). These are what vision's small models read (DESIGN.md).

    Examples:

      gammoneye render export-crops renders/train --out crops/train

      gammoneye render export-crops renders/closeups --out crops/closeups --only dice
    """
    from gammoneye.datasets.render.crops import KINDS, CropConfig, CropError, export_crops

    unknown = sorted(set(only or ()) - set(KINDS))
    if unknown:
        raise typer.BadParameter(
            f"{', '.join(unknown)}: choose from {', '.join(KINDS)}", param_hint="--only"
        )

    try:
        w, h = (int(v) for v in strip.lower().split("x"))
        if w < 8 or h < 8:
            raise ValueError
    except ValueError:
        raise typer.BadParameter(
            f"{strip!r}: expected WIDTHxHEIGHT, e.g. 64x256", param_hint="--strip"
        ) from None
    labels = run / "labels"
    total = len(list(labels.glob("*.json"))) if labels.is_dir() else 0
    try:
        with typer.progressbar(length=max(total, 1), label="cutting") as bar:
            summary = export_crops(
                run,
                out,
                CropConfig((w, h), square, jitter, seed, frozenset(only or KINDS)),
                bar.update,
            )
    except CropError as exc:
        raise fail(str(exc)) from None
    typer.echo(
        f"cut {summary.points} point strips, {summary.dice} dice and {summary.cubes} cubes "
        f"from {summary.images} stills into {out}"
    )
