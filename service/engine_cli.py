"""``gammoneye engine ...``: the rules engine from the command line.

Text in, text out; the machine-readable shapes (JSON lines) are contracts that
benchmarks and tools depend on — see each command's help.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any, TextIO

import typer

from gammoneye.engine.events import dumps_event, read_event_log
from gammoneye.engine.matfile import write_mat
from gammoneye.engine.moves import legal_plays, legal_positions
from gammoneye.engine.position import Position, PositionError
from gammoneye.engine.replay import Replay, ReplayEntry, record_from_events, replay_mat
from gammoneye.engine.replay import replay as replay_record

app = typer.Typer(
    help="The rules engine: legal plays, positions, transcripts (.mat) and event logs.",
    no_args_is_help=True,
)


def parse_position(text: str) -> Position:
    """A GNU Position ID (14 characters) or an XGID (or its 26-character board)."""
    text = text.strip()
    if text.upper().startswith("XGID=") or ":" in text or len(text) == 26:
        return Position.from_xgid(text if ":" in text else f"{text}:0:0:1:00:0:0:0:0:10")
    return Position.from_position_id(text)


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
    except ValueError as exc:  # PositionError, or dice out of range
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
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None
    typer.echo(f"{len(results)} distinct results for {roll[0]}{roll[1]}:")
    for after, ways in results.items():
        texts = " = ".join(str(p) or "(no move)" for p in ways)
        typer.echo(f"  {after.position_id()}  {texts}")


# --- transcripts ------------------------------------------------------------------------


def read_text_file(path: Path) -> str:
    """A transcript's text, or exit 2 with a clear message (no traceback)."""
    try:
        return path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise typer.BadParameter(f"no such file: {path}", param_hint="FILE") from None
    except IsADirectoryError:
        raise typer.BadParameter(f"{path} is a folder, not a file", param_hint="FILE") from None
    except UnicodeDecodeError as exc:
        raise typer.BadParameter(
            f"{path} is not UTF-8 text (byte {exc.start}): is it a .mat file?", param_hint="FILE"
        ) from None


def count_of(n: int, noun: str) -> str:
    """``1 game``, ``2 games``: a count with its noun."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _entry_json(entry: ReplayEntry, players: tuple[str, str]) -> dict[str, Any]:
    out: dict[str, Any] = {
        "game": entry.game,
        "move": entry.move_number,
        "line": entry.line,
        "player": entry.player,
        "name": players[entry.player],
        "action": entry.kind,
    }
    if entry.kind == "roll":
        out["dice"] = list(entry.dice) if entry.dice else None
        out["play"] = entry.play
        out["legal"] = entry.legal
    out["position_id"] = entry.position_id
    out["match_id"] = entry.match_id
    try:
        out["xgid"] = entry.xgid
    except ValueError as exc:  # a board XGID cannot hold (after an illegal play)
        out["xgid"] = None
        out["xgid_error"] = str(exc)
    return out


FileArg = Annotated[Path, typer.Argument(help="A .mat transcript (GNU Backgammon, XG, Galaxy).")]
ProfileOpt = Annotated[
    str, typer.Option("--profile", help="Rule profile: wbf, konstanz or club (RULES.md §9).")
]


def _replay_file(path: Path, profile: str) -> Replay:
    text = read_text_file(path)
    try:
        return replay_mat(text, profile)
    except ValueError as exc:  # an unknown profile, a record the rules cannot start
        raise typer.BadParameter(str(exc)) from None


@app.command()
def replay(
    file: FileArg,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print every action with its IDs as JSON.")
    ] = False,
    profile: ProfileOpt = "wbf",
) -> None:
    """Replay a match through the rules; exit 0 only when all of it is legal.

    Checks every play against its roll, every cube action, each game's result and
    the score written at the start of each game. Each problem is listed with its
    line, game, move number and player. With --json: one object with "moves" (per
    action: player, dice, play, and the GNU Position ID, Match ID and XGID before
    it) and "problems".

    Example: gammoneye engine replay match.mat
    """
    result = _replay_file(file, profile)
    players = result.record.players
    problems = result.all_problems()
    if as_json:
        doc = {
            "file": str(file),
            "match_length": result.record.match_length,
            "players": list(players),
            "ok": result.ok,
            "final_score": list(result.final.score),
            "moves": [_entry_json(e, players) for e in result.entries],
            "problems": [
                {
                    "line": p.line,
                    "game": p.game,
                    "move": p.move_number,
                    "player": p.player,
                    "message": p.message,
                }
                for p in problems
            ],
        }
        typer.echo(json.dumps(doc, indent=1))
    else:
        length = result.record.match_length
        games = len(result.record.games)
        typer.echo(
            f"{file}: {length}-point match, {players[0]} vs {players[1]}, "
            f"{count_of(games, 'game')}, {count_of(result.turns, 'turn')}; "
            f"score {result.final.score[0]}-{result.final.score[1]}"
        )
        for p in problems:
            typer.echo(f"  {p.describe(players)}")
        verdict = "all moves legal, scores add up"
        typer.echo(verdict if result.ok else count_of(len(problems), "problem"))
    raise typer.Exit(0 if result.ok else 1)


@app.command()
def convert(
    file: Annotated[
        Path, typer.Argument(help="A .mat transcript, or a JSON event log (.jsonl/.json).")
    ],
    to: Annotated[str, typer.Option("--to", help="Output format: mat or json.")],
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write here instead of stdout.")
    ] = None,
    profile: ProfileOpt = "wbf",
) -> None:
    """Convert between .mat and the JSON event log.

    --to mat writes the one canonical .mat that GNU Backgammon imports (one move per
    die, gnubg's numbers, results as "Wins N points"); --to json writes the event
    log, one JSON object per line (docs/event-log.md). Problems found on the way
    are listed on stderr; the conversion still happens and exits 1.

    Example: gammoneye engine convert galaxy.mat --to mat -o clean.mat
    """
    if to not in ("mat", "json"):
        raise typer.BadParameter(f"expected mat or json, got {to!r}", param_hint="--to")
    text = read_text_file(file)
    problems: list[str] = []
    if file.suffix.lower() in (".jsonl", ".json") or text.lstrip().startswith("{"):
        events, log_problems = read_event_log(text)
        problems += [f"line {p.line}: {p.message}" for p in log_problems]
        try:
            record = record_from_events(events)
        except ValueError as exc:
            raise typer.BadParameter(str(exc), param_hint="FILE") from None
        result = replay_record(record, profile)
    else:
        result = _replay_file(file, profile)
    problems += [p.describe(result.record.players) for p in result.all_problems()]
    if to == "mat":
        body = write_mat(result.canonical_record())
    else:
        body = "".join(dumps_event(e) + "\n" for e in result.events())
    if output is None:
        sys.stdout.write(body)
    else:
        write_atomically(output, body)
        typer.echo(f"wrote {output}", err=True)
    for problem in problems:
        typer.echo(f"problem: {problem}", err=True)
    raise typer.Exit(1 if problems else 0)


def write_atomically(path: Path, text: str) -> None:
    """Write via a temporary file and rename, so a crash never leaves half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


@app.command()
def demo(
    mat: Annotated[
        Path | None,
        typer.Option("--mat", help="Replay this .mat instead of the bundled 7-point match."),
    ] = None,
    out: Annotated[
        Path, typer.Option("--out", help="Folder for the transcript and event log.")
    ] = Path("gammoneye-engine-demo"),
    delay: Annotated[
        float, typer.Option("--delay", min=0.0, help="Seconds to pause after each action.")
    ] = 0.0,
    game: Annotated[int | None, typer.Option("--game", min=1, help="Show only this game.")] = None,
    boards: Annotated[
        bool, typer.Option("--boards/--no-boards", help="Draw the board before each play.")
    ] = True,
) -> None:
    """Replay a whole match through the rules engine, board by board.

    Replays a bundled GNU Backgammon self-play match (or --mat FILE): the board
    before every play, the play and how many legal alternatives the roll had,
    cube actions, Crawford, scores, and any illegal move or wrong score. Writes
    the canonical match.mat and the events.jsonl event log into --out.

    Examples:

      gammoneye engine demo --game 1 --delay 0.5

      gammoneye engine demo --mat my_match.mat --no-boards
    """
    from gammoneye.service.demo import bundled_match_text, run_demo
    from gammoneye.service.engine_cli import read_text_file

    text = bundled_match_text() if mat is None else read_text_file(mat)
    result = run_demo(text, out, echo=typer.echo, delay_s=delay, boards=boards, only_game=game)
    raise typer.Exit(0 if result.ok else 1)
