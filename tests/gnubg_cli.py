"""Drive Debian's GNU Backgammon (``/usr/games/gnubg``) as a test oracle.

Test-only: GNU Backgammon is GPL, so it runs as a separate program and the
``gammoneye`` package never imports or links it. Tests get the binary through the
``gnubg_binary`` fixture in ``conftest.py`` (which skips where it is missing) and import
this module as ``import gnubg_cli`` (``tests/`` is on ``sys.path`` under pytest).

What was checked, with GNU Backgammon 1.07.001 (Debian 12 package ``gnubg``):

Running it
    ``gnubg -t -q -r -c FILE`` runs the commands in FILE without the GUI (``-t``),
    sound (``-q``) or ``~/.gnubgrc`` (``-r``) and exits. ``gnubg -t -q -r -p FILE.py``
    runs a Python script inside gnubg with its ``gnubg`` module (Python 3.11).
    It exits 0 even when a command fails: ``import mat "/missing"`` prints
    ``/missing: No such file or directory`` on stderr, an unknown command prints
    ``Unknown keyword `...'.`` on stderr, and an unparsable line in a ``.mat`` prints
    ``Unrecognised move "Losses 1 point" in .mat file.`` on **stdout**. So check the
    result (the file written, the IDs printed), never the exit status alone.
    Every run prints a banner, and ``import`` prints the final board. It writes
    ``~/.gnubg/``, so the helpers point ``HOME`` at a temporary folder.
    ``set confirm new off`` / ``set confirm save off`` stop it asking before it drops
    a match in progress or overwrites a file. (With no terminal on stdin it overwrote
    without asking anyway; the helpers export to a fresh path all the same.)

Round trip (``import mat`` then ``export match mat``), as seen on ../shared/data/mat/:
    - The moves of a play are rewritten in gnubg's order, highest starting point
      first (``41: 13/9 24/23`` -> ``41: 24/23 13/9``); the ``*`` of a hit goes on
      the first move in that order that lands on the hit point (``63: 6/3* 9/3`` ->
      ``63: 9/3* 6/3``), and is added where the source left it out (``6/2`` ->
      ``6/2*``).
    - Every move line ends with a space; the score line pads the first name to a
      fixed column (``' klara : 0' + spaces + 'lasse : 0'``); the match-length line
      is `` 5 point match`` (leading space); ``Wins 2 point`` becomes
      ``Wins 2 points``; a blank line follows each game's result.
    - Header tags other than the ones gnubg knows (``Site``, ``EventDate``, ...) are
      dropped (Backgammon Galaxy's ``Match ID``, ``Player 1``, ``Elo``, ...), and a
      missing ``EventDate`` is filled with **today's date**: compare exports with
      that line removed.
    - A game that ends with ``Wins N points`` while the loser still has checkers on
      the board is read as a resignation (``'resigned': True`` in ``gnubg.match()``).
    - Player names came back unchanged in all seven files.
    - Exporting gnubg's own export again changes nothing: its writer is canonical.
      The four gnubg-made files (``kevung_*``, ``generated_*``) come back line for
      line once trailing spaces, the date, move order and ``*`` placement are set
      aside (``tests/test_gnubg_cli.py`` checks this).

Position ID and Match ID
    ``show board`` prints ``Position ID: ...`` and ``Match ID   : ...`` above the
    board; there is no ``show matchid``. In Python mode ``gnubg.positionid()`` and
    ``gnubg.matchid()`` give the current ones. After ``import mat`` the current
    position is the end of the match; ``first game`` goes back to the start of the
    first game (printing ``No game in progress.``, and ``gnubg.positionid()`` raises
    there until the first ``next``), ``next`` steps one record (a move, double, take,
    drop, resign, or dice set) and stops at the end of a game, ``next game`` starts the next one.
    ``gnubg.match(0, 1, 0, 0)`` lists every record with ``board``, the Position ID
    *before* a move (from the mover's side). :func:`gnubg_ids_after_each_move` uses
    these. In ``gnubg.match()``, ``'X'`` is the player written first in the
    ``.mat`` (player 0), while ``show board`` draws that player as ``O``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

GNUBG = Path("/usr/games/gnubg")

_JSON_MARK = "GAMMONEYE-JSON "


class GnubgError(RuntimeError):
    """GNU Backgammon failed, or did not produce what was asked for."""


@dataclass(frozen=True)
class GnubgRun:
    stdout: str
    stderr: str


@dataclass(frozen=True)
class GnubgStep:
    """One record of an imported match, with gnubg's IDs after it.

    ``player`` is gnubg's name for the side (``"X"``: the first player of the
    ``.mat``, ``"O"``: the second). ``move`` is gnubg's tuple of (from, to) pairs, in
    the mover's numbering, 25 the bar and 0 off. ``position_id_before`` is gnubg's
    ``board`` for the record (absent for some records, such as a resignation);
    ``position_id``/``match_id`` are the IDs once the record is played, with the next
    roll not yet known.
    """

    game: int
    index: int
    action: str
    player: str | None
    dice: tuple[int, int] | None
    move: tuple[tuple[int, int], ...] | None
    position_id_before: str | None
    position_id: str
    match_id: str


def _run(args: list[str], workdir: Path, timeout: float, binary: Path) -> GnubgRun:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(HOME=str(workdir), LANG="C.UTF-8", LC_ALL="C.UTF-8")
    try:
        result = subprocess.run(
            [str(binary), "-t", "-q", "-r", *args],
            cwd=workdir,
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired as e:
        raise GnubgError(f"{binary} {' '.join(args)}: no exit after {timeout}s") from e
    if result.returncode != 0:
        raise GnubgError(
            f"{binary} {' '.join(args)} exited {result.returncode}:\n{result.stderr[-2000:]}"
        )
    return GnubgRun(result.stdout, result.stderr)


def run_gnubg(commands: list[str], timeout: float = 60, *, binary: Path = GNUBG) -> GnubgRun:
    """Run gnubg commands (one per item) in a fresh gnubg; return stdout and stderr."""
    with tempfile.TemporaryDirectory(prefix="gnubg-") as tmp:
        workdir = Path(tmp)
        script = workdir / "commands.txt"
        script.write_text("".join(f"{command}\n" for command in commands), encoding="utf-8")
        return _run(["-c", str(script)], workdir, timeout, binary)


def run_gnubg_script(commands: list[str], timeout: float = 60, *, binary: Path = GNUBG) -> str:
    """Run gnubg commands (one per item) and return what gnubg printed on stdout.

    >>> "Position ID" in run_gnubg_script(["show board"])  # doctest: +SKIP
    True
    """
    return run_gnubg(commands, timeout, binary=binary).stdout


def roundtrip_mat(src: Path, dst: Path, *, timeout: float = 60, binary: Path = GNUBG) -> str:
    """Import ``src`` into gnubg and write it back out as ``dst``; return gnubg's stdout.

    The file goes through a temporary folder under plain names, so any path works
    (no quoting inside gnubg commands) and gnubg never meets an existing file.
    Raises :class:`GnubgError` when gnubg writes nothing.
    """
    if not src.is_file():
        raise FileNotFoundError(src)
    with tempfile.TemporaryDirectory(prefix="gnubg-") as tmp:
        workdir = Path(tmp)
        shutil.copyfile(src, workdir / "in.mat")
        script = workdir / "commands.txt"
        script.write_text(
            "set confirm new off\n"
            "set confirm save off\n"
            'import mat "in.mat"\n'
            'export match mat "out.mat"\n',
            encoding="utf-8",
        )
        run = _run(["-c", str(script)], workdir, timeout, binary)
        out = workdir / "out.mat"
        if not out.is_file():
            raise GnubgError(f"gnubg wrote no .mat for {src}:\n{run.stderr}{run.stdout[-2000:]}")
        shutil.copyfile(out, dst)
    return run.stdout


_IDS_SCRIPT = """
import json
import gnubg

gnubg.command("set confirm new off")
gnubg.command('import mat "in.mat"')
match = gnubg.match(0, 1, 0, 0)
games = match["games"] if match else []
gnubg.command("first game")
for game_no, game in enumerate(games):
    if game_no:
        gnubg.command("next game")
    for index, record in enumerate(game["game"]):
        gnubg.command("next")
        step = {
            "game": game_no,
            "index": index,
            "action": record.get("action"),
            "player": record.get("player"),
            "dice": record.get("dice"),
            "move": record.get("move"),
            "position_id_before": record.get("board"),
            "position_id": gnubg.positionid(),
            "match_id": gnubg.matchid(),
        }
        print(MARK + json.dumps(step), flush=True)
print(MARK + json.dumps({"done": len(games)}), flush=True)
"""


def gnubg_ids_after_each_move(
    src: Path, *, timeout: float = 120, binary: Path = GNUBG
) -> list[GnubgStep]:
    """Import the ``.mat`` file ``src`` and return gnubg's IDs after each record.

    Records (``action``) are ``move``, ``double``, ``take``, ``drop``, ``resign`` and
    ``set`` (dice rolled and nothing played, as before a resignation), in match order; see
    :class:`GnubgStep`. Raises :class:`GnubgError` when gnubg reads no game or the
    script inside gnubg fails.
    """
    if not src.is_file():
        raise FileNotFoundError(src)
    with tempfile.TemporaryDirectory(prefix="gnubg-") as tmp:
        workdir = Path(tmp)
        shutil.copyfile(src, workdir / "in.mat")
        script = workdir / "ids.py"
        script.write_text(f"MARK = {_JSON_MARK!r}\n{_IDS_SCRIPT}", encoding="utf-8")
        run = _run(["-p", str(script)], workdir, timeout, binary)
    steps = []
    games_done = None
    for line in run.stdout.splitlines():
        if not line.startswith(_JSON_MARK):
            continue
        raw = json.loads(line[len(_JSON_MARK) :])
        if "done" in raw:
            games_done = raw["done"]
            continue
        steps.append(
            GnubgStep(
                game=raw["game"],
                index=raw["index"],
                action=raw["action"],
                player=raw["player"],
                dice=tuple(raw["dice"]) if raw["dice"] else None,
                move=tuple(tuple(pair) for pair in raw["move"]) if raw["move"] else None,
                position_id_before=raw["position_id_before"],
                position_id=raw["position_id"],
                match_id=raw["match_id"],
            )
        )
    # gnubg exits 0 even when the script raised, so the script signs off when done.
    if games_done is None or not steps:
        raise GnubgError(
            f"gnubg read no game from {src}, or its script failed:\n"
            f"{run.stderr[-2000:]}{run.stdout[-2000:]}"
        )
    return steps
