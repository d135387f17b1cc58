"""Writing a ``.mat`` transcript in the one canonical form, the layout of GNU
Backgammon's ``export match mat`` (:func:`write_mat`), and a play in gnubg's
numbers (:func:`gnubg_moves`).

Import both from :mod:`gammoneye.engine.matfile`, which re-exports them.
"""

from __future__ import annotations

from itertools import pairwise

from .matrecord import Action, GameRecord, MatchRecord
from .moves import parse_play_text

#: Column where GNU Backgammon starts the right player's actions (after ``%3d) `` and
#: a 27-character left column and a space).
RIGHT_COLUMN = 33
_LEFT_WIDTH = 27
_SCORE_WIDTH = 31  # gnubg pads " name0 : s0" to this width before the second name
_WIN_INDENT = 6  # "      Wins ..." for the left player


def gnubg_moves(play: str, dice: tuple[int, int]) -> list[str]:
    """The moves of ``play`` in GNU Backgammon's numeric form, one die per move where
    that needs no rules.

    ``bar``/``off`` become ``25``/``0``, ``13/7(2)`` is written twice, a checker's
    stops (``24/18*/13``) become separate moves, and with doubles a move over several
    dice is cut into single dice. A non-double move over both dice (XG's ``24/13``
    for 65) stays as written: which die came first depends on the position (GNU
    Backgammon's import splits it).

    >>> gnubg_moves("bar/22 24/18*/13 6/off", (3, 5))
    ['25/22', '24/18*', '18/13', '6/0']
    >>> gnubg_moves("13/5(2)", (4, 4))
    ['13/9', '9/5', '13/9', '9/5']
    >>> gnubg_moves("24/13", (6, 5))
    ['24/13']
    """
    out: list[str] = []
    # parse_play_text raises IllegalPlayError (a ValueError) on bad syntax.
    for move in parse_play_text(play):
        for src, dst in pairwise(move.stops):
            out.extend(_single_dice(src, dst, dst in move.hits, dice))
    return out


def _single_dice(src: int, dst: int, hit: bool, dice: tuple[int, int]) -> list[str]:
    star = "*" if hit else ""
    die = dice[0]
    if dice[0] == dice[1] and src - dst > die:
        points = list(range(src, dst, -die))  # src, src - die, ... while above dst
        if dst == 0 or (src - dst) % die == 0:
            # With doubles each stop is a die further (a bear-off ends with the rest).
            points.append(dst)
            if len(points) - 1 <= 4:
                moves = [f"{a}/{b}" for a, b in pairwise(points)]
                return [*moves[:-1], moves[-1] + star]
    return [f"{src}/{dst}{star}"]


def _roll_cell(action: Action, where: str) -> str:
    if action.dice is None:
        raise ValueError(f"{where}: a roll needs dice")
    d0, d1 = action.dice
    if not (1 <= d0 <= 6 and 1 <= d1 <= 6):
        raise ValueError(f"{where}: dice {action.dice!r} out of range 1..6")
    try:
        moves = gnubg_moves(action.play, action.dice) if action.play.strip() else []
    except ValueError as e:
        raise ValueError(f"{where}: {e}") from e
    # The higher die first, as every transcript we have writes a roll (its dice have no
    # order; gnubg keeps the order it read). gnubg ends every move with a space except
    # a fourth one ("66: " for a dance).
    return (
        f"{max(d0, d1)}{min(d0, d1)}: " + "".join(m + " " for m in moves[:3]) + " ".join(moves[3:])
    )


def _result_text(action: Action, where: str) -> str:
    if action.points is None:
        raise ValueError(f"{where}: 'Wins' needs points")
    unit = "point" if action.points == 1 else "points"
    return f"Wins {action.points} {unit}" + (" and the match" if action.and_match else "")


def _check_name(name: str, what: str) -> None:
    if ":" in name or "\n" in name or "\r" in name or not name.strip():
        raise ValueError(f"{what} {name!r} cannot be written: names need text and no ':'")


def _write_game(game: GameRecord, out: list[str]) -> None:
    for i, name in enumerate(game.players):
        _check_name(name, f"game {game.number}: player {i} name")
    out.append(f" Game {game.number}")
    first = f"{game.players[0]} : {game.score[0]}"
    # gnubg pads to 31; a longer name would run into the next one, so keep a space.
    out.append(
        f" {first:<{_SCORE_WIDTH}}{'' if len(first) < _SCORE_WIDTH else ' '}"
        f"{game.players[1]} : {game.score[1]}"
    )
    open_line: str | None = None  # the left column written, the right one not yet
    open_is_drop = False
    move_number = 1
    cube = 1
    for action in game.actions:
        where = f"game {game.number}, {action.kind} by player {action.player}"
        if action.kind == "lose":
            continue  # Galaxy's "Losses": gnubg does not read it; the "Wins" says it all
        if action.kind == "win":
            text = _result_text(action, where)
            if action.player == 0:
                if open_line is not None:
                    out.append(open_line)
                    open_line = None
                    move_number += 1
                out.append(" " * _WIN_INDENT + text)
            elif open_line is not None:
                # gnubg keeps the space that ends the left column after a drop.
                out.append(f"{open_line} {text}{' ' if open_is_drop else ''}")
                open_line = None
                move_number += 1
            else:
                out.append(" " * (RIGHT_COLUMN + 1) + text)
            continue
        if action.kind == "roll":
            cell = _roll_cell(action, where)
        elif action.kind == "double":
            cube = action.cube if action.cube is not None else cube * 2
            cell = f" Doubles => {cube}"
        elif action.kind == "take":
            cell = " Takes"
        else:
            cell = " Drops"
        if action.player == 0:
            if open_line is not None:  # two left actions in a row: end the line
                out.append(open_line)
                move_number += 1
            open_line = f"{move_number:3d}) {cell:<{_LEFT_WIDTH}} "
            open_is_drop = action.kind == "drop"
        else:
            if open_line is None:
                open_line = f"{move_number:3d}) " + " " * (_LEFT_WIDTH + 1)
            out.append(open_line + cell)
            open_line = None
            move_number += 1
    if open_line is not None:
        out.append(open_line)
    out.append("")


def write_mat(record: MatchRecord) -> str:
    """The transcript in GNU Backgammon's ``.mat`` layout (one canonical form).

    Header tags as ``; [Tag "value"]`` lines, then any header comments as ``; text``,
    a blank line (none of this when there are no tags or comments); `` N point
    match`` and a blank line; per game `` Game N``, the score line, numbered lines of
    ``%3d) `` + the left action padded to 27 columns + a space + the right action,
    then the ``Wins`` line in the winner's column and a blank line.

    Rolls are written ``41: `` + the moves, one die per move in gnubg's numbers
    (see :func:`gnubg_moves`), each followed by a space except a fourth; cube
    actions ``Doubles => N`` (the next value when ``cube`` is None), ``Takes``,
    ``Drops``; results ``Wins N point(s)`` (`` and the match`` when ``and_match``).

    What differs from gnubg's own export, and why:

    * ``lose`` actions (Galaxy's ``Losses``) are not written: gnubg rejects the line
      ("Unrecognised move") and the other player's ``Wins`` carries the result.
    * Every game ends with a blank line and every line with a newline; gnubg leaves
      an unfinished last game's open line unterminated.
    * No blank line before ``N point match`` without tags (gnubg 1.07 writes one; older
      versions, like the one that wrote ``lassehjorthmadsen_test-match01.mat``, do not),
      and comments follow the tags without gnubg's blank line between.
    * A first name and score longer than 31 characters get one space before the
      second name (gnubg runs them together, and then cannot read its own file).

    Raises ``ValueError`` for what the format cannot hold: a roll without dice, a
    play that is not move notation, a ``Wins`` without points, a name with ``:``.

    >>> record = MatchRecord(1, ("alice", "bob"), (), (GameRecord(1, (0, 0), ("alice", "bob"), (
    ...     Action(0, "roll", 0, 1, dice=(1, 3), play="8/5 6/5"),
    ...     Action(1, "roll", 0, 1, dice=(6, 6), play="24/18(2) 13/7(2)"),
    ...     Action(0, "double", 0, 2, cube=2),
    ...     Action(1, "drop", 0, 2),
    ...     Action(0, "win", 0, 2, points=1, and_match=True)), 0),))
    >>> print(write_mat(record), end="")
     1 point match
    <BLANKLINE>
     Game 1
     alice : 0                      bob : 0
      1) 31: 8/5 6/5                 66: 24/18 24/18 13/7 13/7
      2)  Doubles => 2                Drops
          Wins 1 point and the match
    <BLANKLINE>
    """
    out: list[str] = []
    for key, value in record.tags:
        if '"' in value or "\n" in value or "\r" in value or not key or '"' in key:
            raise ValueError(f"header tag {key!r} = {value!r} cannot be written as a tag")
        out.append(f'; [{key} "{value}"]')
    for comment in record.comments:
        if "\n" in comment or "\r" in comment:
            raise ValueError(f"header comment {comment!r} spans lines")
        out.append(f"; {comment}")
    if record.tags or record.comments:
        out.append("")
    out.append(f" {record.match_length} point match")
    out.append("")
    for game in record.games:
        _write_game(game, out)
    return "\n".join(out) + "\n"
