"""What the command modules share: how a command fails on bad input."""

from __future__ import annotations

import typer


def fail(message: str) -> typer.Exit:
    """Print ``error: message`` on stderr; raise the result to exit with status 2 (bad
    input), never with a traceback."""
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(2)
