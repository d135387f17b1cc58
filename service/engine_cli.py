"""``gammoneye engine ...``: the rules engine from the command line.

Text in, text out; the machine-readable shapes (JSON lines) are contracts that
benchmarks and tools depend on — see each command's help.
"""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any, TextIO

import typer

from gammoneye.engine.moves import IllegalPlayError, legal_plays, legal_positions
from gammoneye.engine.position import Position, PositionError

app = typer.Typer(
    help="The rules engine: legal plays, positions, transcripts (.mat) and event logs.",
    no_args_is_help=True,
)


def parse_position(text: str, turn: int | None = None) -> Position:
    """A GNU Position ID (14 characters) or an XGID, as typed by a user."""
    text = text.strip()
    if text.upper().startswith("XGID=") or ":" in text or len(text) == 26:
        pos = Position.from_xgid(text if ":" in text else f"{text}:0:0:1:00:0:0:0:0:10")
        return pos if turn is None else pos.with_turn(turn)
    return Position.from_position_id(text, 0 if turn is None else turn)


def _legal_line(line: str) -> dict[str, Any]:
    try:
        request = json.loads(line)
    except json.JSONDecodeError as exc:
        return {"error": f"not JSON: {exc.msg} at column {exc.colno}"}
    if not isinstance(request, dict):
        return {"error": 'expected an object {"position": ..., "dice": [d1, d2]}'}
    position_id = request.get("position")
    dice = request.get("dice")
    if not isinstance(position_id, str):
        return {"error": '"position" must be a GNU Position ID string'}
    if (
        not isinstance(dice, list)
        or len(dice) != 2
        or not all(isinstance(d, int) and not isinstance(d, bool) for d in dice)
    ):
        return {"error": '"dice" must be a list of two integers 1..6'}
    try:
        pos = Position.from_position_id(position_id)
        results = legal_positions(pos, (dice[0], dice[1]))
    except (PositionError, ValueError) as exc:
        return {"error": str(exc)}
    return {"results": [p.position_id() for p in results]}


def serve_legal(lines: TextIO, out: TextIO) -> int:
    """Answer each request line; returns the number of error lines written."""
    errors = 0
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        answer = _legal_line(line)
        if "error" in answer:
            errors += 1
            answer["line"] = number
        out.write(json.dumps(answer, separators=(",", ":")) + "\n")
        out.flush()
    return errors


@app.command()
def legal() -> None:
    """Every legal result for positions and rolls read as JSON lines on stdin.

    Each input line: {"position": "<GNU Position ID>", "dice": [d1, d2]} with the
    player on roll encoded second, as GNU Backgammon does. Each output line:
    {"results": ["<GNU Position ID>", ...]}: every distinct position a legal play
    leaves, still encoded from the mover's side (not swapped) — when no play is
    possible, the input position alone. A bad line gets {"error": "...", "line": N}
    and the stream goes on.

    Example:

      echo '{"position": "4HPwATDgc/ABMA", "dice": [3, 1]}' | gammoneye engine legal
    """
    serve_legal(sys.stdin, sys.stdout)


PositionArg = Annotated[
    str, typer.Argument(help="A GNU Position ID (e.g. 4HPwATDgc/ABMA) or an XGID.")
]


def _load(position: str) -> Position:
    try:
        return parse_position(position)
    except PositionError as exc:
        raise typer.BadParameter(str(exc), param_hint="POSITION") from None


@app.command()
def show(position: PositionArg) -> None:
    """Draw a position, with its pip counts, Position ID and XGID board."""
    pos = _load(position)
    typer.echo(pos.diagram())
    typer.echo(f"Position ID: {pos.position_id()}")
    try:
        typer.echo(f"XGID board:  {pos.xgid_board()}")
    except PositionError as exc:
        typer.echo(f"XGID board:  none ({exc})")
    for problem in pos.problems():
        typer.echo(f"problem: {problem}")


@app.command()
def plays(
    position: PositionArg,
    dice: Annotated[str, typer.Argument(help="The roll, e.g. 31 or 3-1.")],
) -> None:
    """List every legal play of a roll, grouped by the position it leaves.

    Example: gammoneye engine plays 4HPwATDgc/ABMA 31
    """
    pos = _load(position)
    digits = [c for c in dice if c.isdigit()]
    if len(digits) != 2 or not all("1" <= c <= "6" for c in digits):
        raise typer.BadParameter(f"expected two dice 1..6, got {dice!r}", param_hint="DICE")
    roll = (int(digits[0]), int(digits[1]))
    try:
        results = legal_plays(pos, roll)
    except (IllegalPlayError, ValueError) as exc:
        raise typer.BadParameter(str(exc)) from None
    typer.echo(f"{len(results)} distinct results for {roll[0]}{roll[1]}:")
    for after, ways in results.items():
        texts = " = ".join(str(p) or "(no move)" for p in ways)
        typer.echo(f"  {after.position_id()}  {texts}")
