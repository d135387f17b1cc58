"""The ``gammoneye`` command line.

Every sub-command has ``--help``. Heavy modules are imported inside the commands
that need them, so ``gammoneye --help`` stays instant.
"""

from __future__ import annotations

import typer

from gammoneye import __version__
from gammoneye.service import engine_cli

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
