"""The ``gammoneye`` command line.

Every sub-command has ``--help``. Heavy modules are imported inside the commands
that need them, so ``gammoneye --help`` stays instant.
"""

from __future__ import annotations

import typer

from gammoneye import __version__
from gammoneye.service import (
    calibrate_cli,
    engine_cli,
    referee_cli,
    render_cli,
    serve_cli,
    train_cli,
    vision_cli,
)

app = typer.Typer(
    help=(
        "GammonEye: a camera referee for physical backgammon.\n\n"
        "Start with `gammoneye demo` (no camera needed): it referees a bundled clip and "
        "serves the observer page and the OBS overlay. `gammoneye serve` does the same for "
        "cameras; the rules engine is under `gammoneye engine`."
    ),
    no_args_is_help=True,
    rich_markup_mode=None,
)
app.add_typer(engine_cli.app, name="engine")
app.add_typer(render_cli.app, name="render")
app.command(name="calibrate")(calibrate_cli.calibrate)
app.command(name="markers")(calibrate_cli.markers)
app.add_typer(train_cli.train_app, name="train")
app.add_typer(train_cli.eval_app, name="eval")
app.add_typer(vision_cli.app, name="vision")
train_cli.eval_app.command("vision")(vision_cli.eval_vision)
train_cli.eval_app.command("referee")(referee_cli.eval_referee)
app.command(name="referee")(referee_cli.referee)
app.command(name="serve")(serve_cli.serve)
app.command(name="demo")(serve_cli.demo)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"gammoneye {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version."
    ),
) -> None:
    """GammonEye command line."""


def main() -> None:
    app()
