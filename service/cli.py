"""The ``gammoneye`` command line (placeholder, filled in by the CLI work)."""

import typer

app = typer.Typer(help="GammonEye: a camera referee for physical backgammon.")


@app.callback()
def _root() -> None:
    """GammonEye command line."""


def main() -> None:
    app()
