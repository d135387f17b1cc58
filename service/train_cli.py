"""``gammoneye train ...`` and ``gammoneye eval ...``: vision's models, made and measured.

Training needs the ``train`` extra (``pip install -e '.[train]'``: torch); evaluation
runs on the shipped ONNX models with OpenCV alone.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from gammoneye.service.cliutil import fail

train_app = typer.Typer(
    help="Train vision's models on rendered crops (needs the train extra).", no_args_is_help=True
)
eval_app = typer.Typer(help="Measure vision's models on labelled renders.", no_args_is_help=True)


#: ``--views`` of the readers' eval commands.
ViewsOption = Annotated[
    list[int] | None,
    typer.Option(
        "--views",
        min=1,
        max=4,
        help="Quarter turns of each crop read and averaged (repeat to compare; "
        "default: what vision uses).",
    ),
]
#: ``--val`` of the readers' train commands.
ValOption = Annotated[
    list[Path] | None,
    typer.Option("--val", help="Held-out crops whose accuracy is printed every epoch."),
]

#: ``--init`` of the readers' train commands.
InitOption = Annotated[
    Path | None,
    typer.Option(
        "--init",
        exists=True,
        dir_okay=False,
        help="Go on training this reader (an ONNX model the same command wrote).",
    ),
]


#: ``--arch`` of the readers' train commands.
ArchOption = Annotated[
    str | None,
    typer.Option(
        "--arch",
        help="Network size: small, wide, wider, or wide4 / wider4 with a fourth pool for 64 px "
        "crops (datasets/training.py ARCHS; default: "
        "the reader's own). --init needs the arch of the model it starts from.",
    ),
]
#: ``--device`` of the readers' train commands.
DeviceOption = Annotated[
    str,
    typer.Option(
        "--device",
        help="Where to train: cpu, cuda, or auto (the GPU where torch sees one).",
    ),
]


def _arch(arch: str | None) -> None:
    from gammoneye.datasets.training import ARCHS

    if arch is not None and arch not in ARCHS:
        raise fail(f"--arch {arch}: not one of {', '.join(ARCHS)}")


def _views(n: int, upright: bool = False) -> str:
    turned = f"{n} view{'s' if n > 1 else ''}"
    return f"turned at {turned} + upright at 1, faces averaged" if upright else turned


@train_app.command("points")
def train_points(
    crops: Annotated[
        list[Path], typer.Option("--crops", help="A folder from 'render export-crops' (repeat).")
    ],
    out: Annotated[Path, typer.Option("--out", help="The ONNX model to write.")] = Path(
        "vision/models/point_counts.onnx"
    ),
    epochs: Annotated[int, typer.Option("--epochs", min=1, help="Passes over the strips.")] = 8,
    seed: Annotated[int, typer.Option("--seed", help="Seeds torch and the shuffling.")] = 0,
    arch: ArchOption = None,
    device: DeviceOption = "cpu",
) -> None:
    """Train the point counter (0..15 checkers per point strip) and export it to ONNX.

    Example (the shipped model, see vision/models/README.md):

      gammoneye render stills --n 2000 --out renders/train --seed 101

      gammoneye render export-crops renders/train --out crops/train

      gammoneye train points --crops crops/train --epochs 8 --seed 0
    """
    from gammoneye.datasets.train_points import TrainError, train

    _arch(arch)
    try:
        summary = train(
            crops,
            out,
            epochs=epochs,
            seed=seed,
            arch=arch or "small",
            device=device,
            log=typer.echo,
        )
    except TrainError as exc:
        raise fail(str(exc)) from None
    typer.echo(
        f"trained on {summary.samples} strips in {summary.seconds:.0f} s "
        f"(train accuracy {summary.train_accuracy:.4f}); wrote {out}"
    )


@eval_app.command("points")
def eval_points(
    crops: Annotated[
        list[Path], typer.Option("--crops", help="A folder from 'render export-crops' (repeat).")
    ],
    model: Annotated[
        Path | None, typer.Option("--model", help="The ONNX model (default: the shipped one).")
    ] = None,
) -> None:
    """Measure the point counter on labelled strips: per-point error, error by count
    and by board style, and the time to read the 24 points of one picture.

    Example:

      gammoneye eval points --crops crops/heldout
    """
    from gammoneye.datasets.train_points import TrainError
    from gammoneye.vision.points import ModelError, PointCounter, evaluate

    try:
        counter = PointCounter.load(model)
        report = evaluate(counter, crops)
    except (TrainError, ModelError) as exc:
        raise fail(str(exc)) from None
    for line in report.lines():
        typer.echo(line)


@train_app.command("dice")
def train_dice(
    crops: Annotated[
        list[Path], typer.Option("--crops", help="A folder from 'render export-crops' (repeat).")
    ],
    photos: Annotated[
        list[Path] | None,
        typer.Option("--photos", help="Real dice photos with YOLO labels to learn from too."),
    ] = None,
    val: ValOption = None,
    out: Annotated[Path, typer.Option("--out", help="The ONNX model to write.")] = Path(
        "vision/models/dice.onnx"
    ),
    epochs: Annotated[int, typer.Option("--epochs", min=1, help="Passes over the crops.")] = 10,
    seed: Annotated[int, typer.Option("--seed", help="Seeds torch and the shuffling.")] = 0,
    init: InitOption = None,
    arch: ArchOption = None,
    device: DeviceOption = "cpu",
    turns: Annotated[
        bool,
        typer.Option(
            "--turns/--no-turns",
            help="Show each crop at a random quarter turn (the shipped reader is read at"
            " four turns, vision.dice.VIEWS). Off: crops keep the picture's up, where a"
            " die's top lies above the faces turned to the camera (a trial, to be read"
            " at one view; docs/vision-benchmarks.md, session 27).",
        ),
    ] = True,
    lr: Annotated[
        float | None,
        typer.Option(
            "--lr",
            min=1e-6,
            max=1e-1,
            help="Peak learning rate of the one-cycle schedule (default 1.5e-3 from"
            " scratch, 7e-4 with --init). Lower keeps more of an --init model.",
        ),
    ] = None,
) -> None:
    """Train the die reader (face 1..6, flat or cocked) and export it to ONNX.

    Example (the shipped model, see vision/models/README.md):

      gammoneye train dice --crops crops/train --photos ../shared/data/dice-photos/Train
    """
    from gammoneye.datasets.train_dice import TrainError, train

    _arch(arch)
    try:
        summary = train(
            crops,
            out,
            photos=photos or (),
            val=val or (),
            epochs=epochs,
            seed=seed,
            init=init,
            arch=arch or "wide",
            device=device,
            turns=turns,
            max_lr=lr,
            log=typer.echo,
        )
    except TrainError as exc:
        raise fail(str(exc)) from None
    typer.echo(f"trained on {summary.samples} dice in {summary.seconds:.0f} s; wrote {out}")


@eval_app.command("dice")
def eval_dice(
    crops: Annotated[
        list[Path] | None,
        typer.Option("--crops", help="Rendered dice: a folder from 'render export-crops'."),
    ] = None,
    photos: Annotated[
        list[Path] | None,
        typer.Option("--photos", help="Real dice photos with YOLO labels (e.g. .../Valid)."),
    ] = None,
    model: Annotated[
        Path | None, typer.Option("--model", help="The ONNX model (default: the shipped one).")
    ] = None,
    found: Annotated[
        bool,
        typer.Option(
            "--found/--true-boxes",
            help="On photos, also find the dice with the detector first, as 'vision dice' does.",
        ),
    ] = True,
    views: ViewsOption = None,
    upright: Annotated[
        Path | None,
        typer.Option(
            "--upright",
            help="The upright network read beside --model (with no --model: the shipped pair).",
        ),
    ] = None,
) -> None:
    """Measure the die reader: value accuracy, cocked recall and false alarms, on
    rendered dice and on real photos (cut at their labelled boxes; on photos also
    found by the detector first, end to end). The turned network is measured alone at
    each number of views, then, where there is one, with its upright partner (the
    faces averaged, as the referee reads them; vision/dice.py).

    Example:

      gammoneye eval dice --crops crops/heldout --photos ../shared/data/dice-photos/Valid
    """
    from gammoneye.datasets.train_dice import TrainError, load_dice, load_photo_dice
    from gammoneye.vision.dice import VIEWS, DiceReader, ModelError, evaluate_dice

    if not crops and not photos:
        raise typer.BadParameter("give --crops and/or --photos", param_hint="--crops")
    try:
        shipped = DiceReader.load(model, upright=upright)
        # the turned network alone at each number of views, then the pair
        readers = [DiceReader(shipped.classifier, v) for v in views or [VIEWS]]
        if shipped.upright is not None:
            readers.append(DiceReader(shipped.classifier, readers[-1].views, shipped.upright))
        reader = readers[-1]
        # cut at the larger network's input (each reads them at its own)
        size = max(c.height for c in (shipped.classifier, shipped.upright) if c is not None)
        for folder in crops or []:
            x, y = load_dice([folder], size=size)
            for r in readers:
                name = f"rendered {folder}, {_views(r.views, r.upright is not None)}"
                typer.echo(evaluate_dice(r, name, x, y).line())
        for folder in photos or []:
            x, y = load_photo_dice(folder, size=size)
            for r in readers:
                name = f"photos {folder} (true boxes), {_views(r.views, r.upright is not None)}"
                typer.echo(evaluate_dice(r, name, x, y).line())
            if found:
                from gammoneye.vision.detector import DiceCubeDetector
                from gammoneye.vision.dice import evaluate_found

                report = evaluate_found(DiceCubeDetector.load(), reader, folder)
                typer.echo(f"photos {folder} (found by the detector): {report.line()}")
    except (TrainError, ModelError) as exc:
        raise fail(str(exc)) from None


@train_app.command("cube")
def train_cube(
    crops: Annotated[
        list[Path], typer.Option("--crops", help="A folder from 'render export-crops' (repeat).")
    ],
    val: ValOption = None,
    out: Annotated[Path, typer.Option("--out", help="The ONNX model to write.")] = Path(
        "vision/models/cube.onnx"
    ),
    epochs: Annotated[int, typer.Option("--epochs", min=1, help="Passes over the crops.")] = 15,
    seed: Annotated[int, typer.Option("--seed", help="Seeds torch and the shuffling.")] = 0,
    init: InitOption = None,
    turns: Annotated[
        bool,
        typer.Option(
            "--turns/--no-turns",
            help="Show each crop at a random quarter turn too (the shipped cube.onnx, read"
            " at four turns). Off: crops keep the picture's up, where the face on top lies"
            " above the side faces a low camera sees (a partner read beside cube.onnx at one"
            " view, 'eval cube --partner').",
        ),
    ] = True,
    arch: ArchOption = None,
    size: Annotated[
        int,
        typer.Option(
            "--size",
            min=16,
            max=256,
            help="The crops' side in pixels, as the network reads them (the shipped"
            " cube readers: 64; a numeral there is 8-12 px).",
        ),
    ] = 64,
    device: DeviceOption = "cpu",
) -> None:
    """Train the cube reader (the face up: 64, 2, 4, 8, 16, 32) and export it to ONNX.

    The defaults train the kind of network shipped (wider4 at 64 px); the shipped
    models were trained on a GPU with 'python -m gammoneye.datasets.train_bulk', whose
    commands are in vision/models/README.md. On a CPU, 'wide' at 48 px is quicker.

    Examples:

      gammoneye train cube --crops crops/train --epochs 40
      gammoneye train cube --crops crops/train --no-turns --out cube_upright.onnx
      gammoneye train cube --crops crops/train --arch wide --size 48 --epochs 15
    """
    from gammoneye.datasets.train_cube import TrainError, train

    _arch(arch)
    try:
        summary = train(
            crops,
            out,
            val=val or (),
            epochs=epochs,
            seed=seed,
            init=init,
            turns=turns,
            arch=arch or "wider4",
            size=size,
            device=device,
            log=typer.echo,
        )
    except TrainError as exc:
        raise fail(str(exc)) from None
    typer.echo(f"trained on {summary.samples} cubes in {summary.seconds:.0f} s; wrote {out}")


@eval_app.command("cube")
def eval_cube(
    crops: Annotated[
        list[Path],
        typer.Option(
            "--crops", help="Rendered cubes: a folder from 'render export-crops' (repeat)."
        ),
    ],
    model: Annotated[
        Path | None, typer.Option("--model", help="The ONNX model (default: the shipped one).")
    ] = None,
    views: ViewsOption = None,
    partner: Annotated[
        Path | None,
        typer.Option(
            "--partner",
            help="A network trained with --no-turns, read beside --model (or the shipped"
            " one) at one view and averaged with it; measured after --model alone.",
        ),
    ] = None,
) -> None:
    """Measure the cube reader on labelled crops cut at the cube's true box (finding
    the cube is the detector's part; 'eval vision' measures both): the share of
    faces read right, overall and face by face.

    Example:

      gammoneye eval cube --crops crops/heldout --views 1 --views 4
    """
    from gammoneye.datasets.train_cube import TrainError, load_cubes
    from gammoneye.vision.cube import VIEWS, CubeReader, ModelError, evaluate_cube

    try:
        shipped = CubeReader.load(model, partner=partner)
        readers = [CubeReader(shipped.classifier, v) for v in views or [VIEWS]]
        if shipped.partner is not None:
            readers.append(
                CubeReader(shipped.classifier, readers[-1].views, partner=shipped.partner)
            )
        for folder in crops:
            x, y = load_cubes([folder], size=shipped.classifier.height)
            for r in readers:
                typer.echo(f"{folder}, {_views(r.views, r.partner is not None)}:")
                for line in evaluate_cube(r, x, y):
                    typer.echo(line)
    except (TrainError, ModelError) as exc:
        raise fail(str(exc)) from None


@train_app.command("detector")
def train_detector(
    stills: Annotated[
        list[Path], typer.Option("--stills", help="A stills run ('render stills'; repeat).")
    ],
    photos: Annotated[
        list[Path] | None,
        typer.Option("--photos", help="Real dice photos with YOLO labels to learn from too."),
    ] = None,
    work: Annotated[
        Path,
        typer.Option("--work", help="Folder for the dataset and ultralytics' run (new or empty)."),
    ] = Path("runs/detector"),
    out: Annotated[Path, typer.Option("--out", help="The ONNX model to write.")] = Path(
        "vision/models/dicecube.onnx"
    ),
    epochs: Annotated[int, typer.Option("--epochs", min=1, help="Passes over the images.")] = 6,
    seed: Annotated[int, typer.Option("--seed", help="Seeds the dataset and the training.")] = 0,
    start: Annotated[
        Path | None,
        typer.Option(
            "--from",
            help="Go on training these weights: an earlier run's best.pt, or an exported "
            "model (.onnx, e.g. the shipped vision/models/dicecube.onnx).",
        ),
    ] = None,
    lr0: Annotated[
        float | None,
        typer.Option(
            "--lr0",
            min=0.0,
            help="Initial learning rate, with AdamW (default: ultralytics chooses the "
            "optimizer and rate for the run's length: AdamW at 0.0014 for short runs).",
        ),
    ] = None,
    photo_repeats: Annotated[
        int,
        typer.Option("--photo-repeats", min=1, help="Draw each real photo this many times."),
    ] = 2,
    hard_repeats: Annotated[
        int,
        typer.Option(
            "--hard-repeats",
            min=1,
            help="Draw each still with a die on a checker, off the board or cocked against "
            "a checker or the board's rim this many times (dice the detector misses most).",
        ),
    ] = 1,
) -> None:
    """Train the dice and cube detector (ultralytics YOLO from the model YAML in
    datasets/models/, no pretrained weights, offline) and export it to ONNX.

    The stills are warped onto the board canvas the detector sees at run time
    (close-ups and some whole pictures scaled onto it); the photos' dice become
    class 'die'.

    Example (the shipped model, see vision/models/README.md):

      gammoneye train detector --stills renders/train --photos
      ../shared/data/dice-photos/Train --epochs 6

    Going on from the shipped model (its network is read back from the ONNX file;
    its batch norms get the statistics of the first training canvases):

      gammoneye train detector --from vision/models/dicecube.onnx --stills
      renders/det_a --work runs/det --out dicecube-new.onnx --epochs 5
    """
    import cv2

    from gammoneye.datasets.train_detector import (
        TrainError,
        build_dataset,
        train,
        weights_from_onnx,
    )

    dataset = work / "dataset"
    if start is not None and not start.is_file():
        raise fail(f"no such weights to start from: {start}")  # before minutes of dataset
    try:
        with typer.progressbar(
            length=sum(len(list((s / "labels").glob("*.json"))) for s in stills),
            label="building the dataset",
            file=sys.stderr,
        ) as bar:
            counts = build_dataset(
                stills,
                photos or [],
                dataset,
                seed=seed,
                photo_repeats=photo_repeats,
                hard_repeats=hard_repeats,
                progress=bar.update,
            )
        typer.echo(
            f"dataset: {counts['train']} train and {counts['val']} val images "
            f"({counts['hard']} more draws of stills with a die on a checker, off the "
            f"board or cocked against something), {counts['objects']} objects"
        )
        if start is not None and start.suffix.lower() == ".onnx":
            first = sorted((dataset / "images" / "train").glob("r*.jpg"))[:32]
            canvases = [
                c for c in (cv2.imread(str(f), cv2.IMREAD_COLOR) for f in first) if c is not None
            ]
            unfolded = work / "from_onnx.pt"
            diff = weights_from_onnx(start, unfolded, canvases)
            typer.echo(f"read {start} back into {unfolded} (outputs differ by {diff:.2g} at most)")
            start = unfolded
        summary = train(
            dataset,
            out,
            epochs=epochs,
            seed=seed,
            workdir=work,
            weights=start,
            lr0=lr0,
            log=typer.echo,
        )
    except TrainError as exc:
        raise fail(str(exc)) from None
    typer.echo(f"trained on {summary.images} images in {summary.seconds:.0f} s; wrote {out}")
