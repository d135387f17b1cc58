"""The ``gammoneye`` command line.

Every sub-command has ``--help``. Heavy modules are imported inside the commands
that need them, so ``gammoneye --help`` stays instant.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from gammoneye import __version__
from gammoneye.service import (
    calibrate_cli,
    engine_cli,
    referee_cli,
    render_cli,
    train_cli,
    vision_cli,
)

app = typer.Typer(
    help=(
        "GammonEye: a camera referee for physical backgammon.\n\n"
        "Start with `gammoneye demo` (no camera needed). The rules engine is under "
        "`gammoneye engine`."
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


@app.command()
def demo(
    mat: Annotated[
        Path | None,
        typer.Option("--mat", help="Replay this .mat instead of the bundled 7-point match."),
    ] = None,
    out: Annotated[
        Path, typer.Option("--out", help="Folder for the transcript and event log.")
    ] = Path("gammoneye-demo"),
    delay: Annotated[
        float, typer.Option("--delay", min=0.0, help="Seconds to pause after each action.")
    ] = 0.0,
    game: Annotated[int | None, typer.Option("--game", min=1, help="Show only this game.")] = None,
    boards: Annotated[
        bool, typer.Option("--boards/--no-boards", help="Draw the board before each play.")
    ] = True,
) -> None:
    """Watch GammonEye's rules engine referee a whole match — no camera needed.

    Replays a bundled GNU Backgammon self-play match (or --mat FILE): the board
    before every play, the play and how many legal alternatives the roll had,
    cube actions, Crawford, scores, and any illegal move or wrong score. Writes
    the canonical match.mat and the events.jsonl event log into --out.

    Examples:

      gammoneye demo --game 1 --delay 0.5

      gammoneye demo --mat my_match.mat --no-boards
    """
    from gammoneye.service.demo import bundled_match_text, run_demo
    from gammoneye.service.engine_cli import read_text_file

    text = bundled_match_text() if mat is None else read_text_file(mat)
    result = run_demo(text, out, echo=typer.echo, delay_s=delay, boards=boards, only_game=game)
    raise typer.Exit(0 if result.ok else 1)


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
