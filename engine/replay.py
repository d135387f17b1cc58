"""Replaying transcripts through the rules: ``.mat`` → checked match, events, canonical ``.mat``.

:func:`replay` walks a :class:`~.matfile.MatchRecord` action by action through
:class:`~.match.MatchState`: every play must be legal for its roll
(:func:`~.moves.resolve_play`), every cube action allowed, every game's result and
the scores written at each game's start must add up. Nothing stops at the first
problem: each is reported with its game, move number, player and line, and the
replay goes on (an illegal play is recorded as one that stood, when the board it
leaves is still possible).

The same walk gives the lossless event log (:meth:`Replay.events`) and the
canonical transcript (:meth:`Replay.canonical_record`: one move per die in GNU
Backgammon's numbers, Galaxy's ``Losses`` turned into the winner's ``Wins``).
:func:`record_from_events` goes back from events to a transcript.

>>> text = '''
...  1 point match
...
...  Game 1
...  alice : 0                      bob : 0
...   1)                             63: 24/18 13/10
...   2) 42: 8/3 6/2                 11: 6/5 6/5 6/5 6/5
...       Wins 1 point
... '''
>>> result = replay_mat(text)
>>> problem = result.problems[0]
>>> problem.line, problem.player, problem.message.split(" in ")[0]
(7, 0, "illegal play '8/3 6/2' for 42")
>>> [e.play for e in result.entries if e.kind == "roll"]
['24/18 13/10', '8/3 6/2', '6/5 6/5 6/5 6/5']
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .events import (
    SCHEMA_VERSION,
    DoubleEvent,
    DropEvent,
    Event,
    FlagClearedEvent,
    FlagEvent,
    GameEndEvent,
    GameStartEvent,
    MatchEndEvent,
    MatchStartEvent,
    MoveEvent,
    ResignAcceptEvent,
    ResignEvent,
    RollEvent,
    TakeEvent,
    withdrawn_seqs,
)
from .match import MatchRuleError, MatchState, Phase
from .matchid import encode_match_id, encode_xgid
from .matfile import Action, GameRecord, MatchRecord, MatProblem, read_mat
from .moves import (
    IllegalPlayError,
    apply_written,
    dice_used,
    legal_plays,
    parse_play_text,
    resolve_play,
)
from .position import Position, PositionError
from .rules import RuleProfile, get_profile


@dataclass(frozen=True, slots=True)
class ReplayProblem:
    """Something in a transcript that the rules or the arithmetic do not accept."""

    line: int
    game: int
    move_number: int
    player: int | None
    message: str

    def describe(self, players: tuple[str, str] = ("player 0", "player 1")) -> str:
        where = [f"game {self.game}"] if self.game else []  # game 0: a syntax problem
        if self.move_number:
            where.append(f"move {self.move_number}")
        if self.player is not None:
            where.append(players[self.player])
        parts = [f"line {self.line}", ", ".join(where), self.message]
        return ": ".join(part for part in parts if part)


@dataclass(frozen=True, slots=True)
class ReplayEntry:
    """One action as replayed: the state it was taken in and what it did.

    ``state`` is the state the action applies to — for a roll, after the dice are
    down and before the play, which is what GNU Backgammon's IDs describe.
    """

    game: int
    move_number: int
    line: int
    player: int
    kind: str  # roll, double, take, drop, win, lose
    state: MatchState
    #: Which action of its game (``GameRecord.actions[index]``) this is.
    index: int = 0
    dice: tuple[int, int] | None = None
    play: str = ""  # canonical gnubg text ("" for no move); the written text when illegal
    written: str = ""  # the text as the transcript has it
    after: Position | None = None  # the board after a play, mover still on roll
    legal: bool = True
    choices: int = 0  # distinct legal results of the roll
    #: The state once the action is done (None while a game could not be followed).
    state_after: MatchState | None = None

    @property
    def position_id(self) -> str:
        return self.state.position.position_id()

    @property
    def match_id(self) -> str:
        return encode_match_id(self.state.match_info())

    @property
    def xgid(self) -> str:
        return encode_xgid(self.state.position, self.state.match_info())

    def move_event(self, seq: int, **common: Any) -> MoveEvent:
        """The ``move`` event of a roll that was played (``common``: ``t``, ``frame``,
        ``source``, ``note``)."""
        if self.dice is None or self.after is None:
            raise ValueError(f"entry {self.kind!r} at line {self.line} is no played roll")
        return MoveEvent(
            seq=seq,
            player=self.player,
            dice=self.dice,
            play=self.play,
            before=self.position_id,
            after=self.after.position_id(),
            legal=self.legal,
            **common,
        )


@dataclass(frozen=True, slots=True)
class Replay:
    """What :func:`replay` found."""

    record: MatchRecord
    profile: RuleProfile
    entries: tuple[ReplayEntry, ...]
    problems: tuple[ReplayProblem, ...]
    #: The state after the last action.
    final: MatchState
    #: States at the end of each game, in order (for results and events).
    game_ends: tuple[MatchState, ...] = ()
    parse_problems: tuple[MatProblem, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.problems and not self.parse_problems

    @property
    def turns(self) -> int:
        return sum(e.kind == "roll" for e in self.entries)

    def all_problems(self) -> list[ReplayProblem]:
        """Syntax problems (as game 0) and rule problems, in line order."""
        parsed = [ReplayProblem(p.line, 0, 0, None, p.message) for p in self.parse_problems]
        return sorted([*parsed, *self.problems], key=lambda p: p.line)

    def canonical_record(self) -> MatchRecord:
        """The transcript in one canonical form (see the module docstring).

        Actions the replay could not follow (after a problem) are kept as written.
        """
        replayed = {(e.game, e.index): e for e in self.entries}
        games = []
        for game in self.record.games:
            actions = []
            for index, original in enumerate(game.actions):
                if original.kind == "lose":
                    continue  # the winner's "Wins" carries the result
                entry = replayed.get((game.number, index))
                play = original.play if entry is None else entry.play
                # gnubg never writes Galaxy's " and the match"; the score says it.
                actions.append(dataclasses.replace(original, play=play, and_match=False))
            games.append(dataclasses.replace(game, actions=tuple(_renumber(actions))))
        return dataclasses.replace(self.record, games=tuple(games))

    def events(self) -> list[Event]:
        """The replayed match as an event log (``source`` = ``"transcript"``)."""
        return _events_of(self)


def replay_mat(text: str, profile: str | RuleProfile = "wbf") -> Replay:
    """Read (leniently) and replay a ``.mat`` transcript."""
    record, problems = read_mat(text)
    result = replay(record, profile)
    return dataclasses.replace(result, parse_problems=tuple(problems))


def _profile_for(record: MatchRecord, profile: str | RuleProfile) -> RuleProfile:
    rules = get_profile(profile) if isinstance(profile, str) else profile
    tags = {k.lower(): v.strip().lower() for k, v in record.tags}
    if tags.get("crawford") == "off" and rules.crawford:
        rules = dataclasses.replace(rules, crawford=False)
    return rules


def replay(record: MatchRecord, profile: str | RuleProfile = "wbf") -> Replay:
    """Replay a parsed transcript through the rules; see the module docstring."""
    rules = _profile_for(record, profile)
    walker = _Walker(record, rules)
    for game in record.games:
        if not walker.game(game):
            break
    return Replay(
        record=record,
        profile=rules,
        entries=tuple(walker.entries),
        problems=tuple(walker.problems),
        final=walker.state,
        game_ends=tuple(walker.game_ends),
    )


class _LostTrack(Exception):
    """The board after a play cannot be known: the rest of the game is skipped."""


class _Walker:
    def __init__(self, record: MatchRecord, rules: RuleProfile) -> None:
        self.record = record
        self.state = MatchState.new(record.match_length, rules)
        self.entries: list[ReplayEntry] = []
        self.problems: list[ReplayProblem] = []
        self.game_ends: list[MatchState] = []

    def problem(self, line: int, game: int, move: int, player: int | None, msg: str) -> None:
        self.problems.append(ReplayProblem(line, game, move, player, msg))

    def problem_at(self, game: GameRecord, action: Action, msg: str) -> None:
        self.problem(action.line, game.number, action.move_number, action.player, msg)

    def game(self, game: GameRecord) -> bool:
        """Replay one game; False when the match cannot go on."""
        state = self.state
        if state.phase is Phase.MATCH_OVER:
            self.problem(game.line, game.number, 0, None, "a game after the match was won")
            return False
        if state.phase is Phase.GAME_OVER:
            state = state.next_game()
        elif state.phase is not Phase.START or game.number != state.game_number:
            # A previous game that never ended, or an excerpt of a match that begins
            # at a later game: start this one from its written score.
            state = dataclasses.replace(
                MatchState.new(self.record.match_length, state.profile),
                score=game.score,
                game_number=game.number,
            )
        if game.score != state.score:
            self.problem(
                game.line,
                game.number,
                0,
                None,
                f"score written {game.score[0]}-{game.score[1]}, "
                f"the results before it add up to {state.score[0]}-{state.score[1]}",
            )
        if not game.actions:
            self.problem(game.line, game.number, 0, None, "a game with no moves")
            self.state = state
            return True
        state = state.start_game(game.actions[0].player)
        for index, action in enumerate(game.actions):
            try:
                state = self.action(game, index, state)
            except (MatchRuleError, IllegalPlayError, PositionError) as exc:
                self.problem_at(game, action, str(exc))
                continue
            except _LostTrack:
                break
            last = self.entries[-1] if self.entries else None
            if last is not None and (last.game, last.index) == (game.number, index):
                self.entries[-1] = dataclasses.replace(last, state_after=state)
        if state.phase in (Phase.GAME_OVER, Phase.MATCH_OVER):
            self.game_ends.append(state)
        self.state = state
        return True

    def action(self, game: GameRecord, index: int, state: MatchState) -> MatchState:
        action = game.actions[index]
        kind = action.kind
        entry = ReplayEntry(
            game.number, action.move_number, action.line, action.player, kind, state, index
        )
        if kind == "roll":
            if action.dice is None:  # read_mat never gives this; guard for hand-built records
                raise IllegalPlayError("a roll without dice")
            state = state.roll(*action.dice, player=action.player)
            plays = legal_plays(state.position, action.dice)
            if action.play.strip():
                try:
                    after, play = resolve_play(state.position, action.dice, action.play, plays)
                except IllegalPlayError as exc:
                    self.problem_at(game, action, str(exc))
                    return self.illegal_play(game, index, state)
                text = play.mat_text()
            elif index + 1 < len(game.actions) and game.actions[index + 1].kind in ("win", "lose"):
                # Rolled, then resigned before playing (gnubg writes the bare roll).
                self.entries.append(
                    dataclasses.replace(entry, state=state, dice=action.dice, choices=len(plays))
                )
                return state
            else:
                after = state.position
                if after not in plays:
                    used = dice_used(plays)
                    self.problem_at(
                        game,
                        action,
                        f"no move written for {action.dice[0]}{action.dice[1]}, but legal "
                        f"plays use {used} dice",
                    )
                    return self.illegal_play(game, index, state)  # he left his checkers
                text = ""
            entry = dataclasses.replace(
                entry,
                state=state,
                dice=action.dice,
                play=text,
                written=action.play,
                after=after,
                choices=len(plays),
            )
            self.entries.append(entry)
            return state.play(after)
        self.entries.append(entry)
        if kind == "double":
            doubled = state.double(action.player, action.cube)
            for note in doubled.notes:
                self.problem_at(game, action, note.message)
            return doubled
        if kind == "take":
            return state.take(player=action.player)
        if kind == "drop":
            return state.drop(player=action.player)
        if kind == "lose":
            # Galaxy: the loser's column says "Losses N points" when he resigns.
            return self.result(game, action, state, winner=1 - action.player)
        return self.result(game, action, state, winner=action.player)

    def result(
        self, game: GameRecord, action: Action, state: MatchState, winner: int
    ) -> MatchState:
        points = action.points or 0
        if state.phase in (Phase.GAME_OVER, Phase.MATCH_OVER):
            last = state.last_result
            if last is not None and (last.winner != winner or last.points != points):
                self.problem_at(
                    game,
                    action,
                    f"written: player {winner} wins {points}; the game gives player "
                    f"{last.winner} {last.points} ({last.reason}, cube {last.cube_value})",
                )
        else:
            # "Wins N points" while the game is on: a resignation [000 r21, 001 4.5].
            state = state.end_game_by_resignation(winner, points)
        if action.and_match and state.phase is not Phase.MATCH_OVER:
            self.problem_at(
                game,
                action,
                f"written 'and the match', but the score is {state.score[0]}-{state.score[1]}"
                f" of {self.record.match_length}",
            )
        return state

    def illegal_play(self, game: GameRecord, index: int, state: MatchState) -> MatchState:
        """Let an illegal play stand (as the rules do once the opponent rolls), or
        give up on the game (:class:`_LostTrack`) when its board is impossible."""
        action = game.actions[index]
        try:
            written = parse_play_text(action.play)
            after = apply_written(state.position, written)
            stood = state.accept_illegal_play(after)
        except (IllegalPlayError, MatchRuleError, PositionError):
            self.problem_at(
                game, action, "cannot follow the game past this play; skipping to the next game"
            )
            raise _LostTrack from None
        self.entries.append(
            ReplayEntry(
                game.number,
                action.move_number,
                action.line,
                action.player,
                "roll",
                state,
                index,
                dice=action.dice,
                play=" ".join(f"{w.src}/{w.dst}" for w in written),
                written=action.play,
                after=after,
                legal=False,
            )
        )
        return stood


def _renumber(actions: Sequence[Action]) -> list[Action]:
    """Move numbers as a ``.mat`` lays them out: the left player opens each line."""
    out: list[Action] = []
    number = 1
    left = right = False
    for action in actions:
        if action.kind in ("win", "lose"):
            out.append(dataclasses.replace(action, move_number=number))
            continue
        if (action.player == 0 and (left or right)) or (action.player == 1 and right):
            number += 1
            left = right = False
        if action.player == 0:
            left = True
        else:
            right = True
        out.append(dataclasses.replace(action, move_number=number))
    return out


# --- events -------------------------------------------------------------------------------


def _events_of(result: Replay) -> list[Event]:
    record = result.record
    out: list[Event] = []

    def add(cls: type[Event], **fields: object) -> None:
        out.append(cls(seq=len(out), source="transcript", **fields))  # type: ignore[arg-type]

    add(
        MatchStartEvent,
        schema_version=SCHEMA_VERSION,
        match_length=record.match_length,
        players=record.players,
        profile=result.profile.name,
        tags=record.tags,
    )
    ends = {state.game_number: state for state in result.game_ends}
    last_of_game = {entry.game: i for i, entry in enumerate(result.entries)}
    current = 0
    for i, entry in enumerate(result.entries):
        if entry.game != current:
            current = entry.game
            add(
                GameStartEvent,
                game=entry.game,
                score=entry.state.score,
                crawford=entry.state.is_crawford_game,
                # A transcript says who moved first, never the opening dice.
                first_player=entry.state.position.turn,
            )
        if entry.kind == "roll" and entry.dice is not None:
            add(RollEvent, player=entry.player, dice=entry.dice)
        if entry.kind == "roll" and entry.dice is not None and entry.after is not None:
            out.append(entry.move_event(len(out), source="transcript"))
        elif entry.kind == "double":
            value = 2 * entry.state.cube_value
            requested = None
            action_cube = _action_cube(record, entry)
            if action_cube is not None and action_cube != value:
                requested = action_cube
            add(DoubleEvent, player=entry.player, value=value, requested_value=requested)
        elif entry.kind == "take":
            add(TakeEvent, player=entry.player, value=entry.state.offered_cube or 2)
        elif entry.kind == "drop":
            add(DropEvent, player=entry.player)
        end = ends.get(entry.game)
        if end is not None and last_of_game[entry.game] == i:
            last = end.last_result
            if last is not None:
                if last.reason == "resign":
                    add(ResignEvent, player=1 - last.winner, level=last.multiplier)
                    add(ResignAcceptEvent, player=last.winner)
                add(GameEndEvent, game=entry.game, **last.end_fields())
                if end.phase is Phase.MATCH_OVER:
                    add(MatchEndEvent, winner=last.winner, score=end.score)
    return out


def _action_cube(record: MatchRecord, entry: ReplayEntry) -> int | None:
    for game in record.games:
        if game.number == entry.game:
            return game.actions[entry.index].cube
    return None


def record_from_events(events: Sequence[Event]) -> MatchRecord:
    """The ``.mat`` record of an event log (what the format can hold of it).

    Moves, cube actions and results are kept; invalid rolls, flags and corrections
    have no place in a ``.mat`` and are left out, and so are events an observer
    withdrew (:func:`~gammoneye.engine.events.withdrawn_seqs`). An illegal play that stood is
    written as it was made; an illegal play whose flag was cleared as ``corrected``
    is replaced by the move that follows it (the player redoing his turn with the
    same dice [000 r19]).
    """
    start = next((e for e in events if isinstance(e, MatchStartEvent)), None)
    if start is None:
        raise ValueError("an event log needs a match_start event to become a .mat")
    games: list[GameRecord] = []
    actions: list[Action] = []
    game_start: GameStartEvent | None = None

    def close() -> None:
        if game_start is not None:
            games.append(
                GameRecord(
                    game_start.game,
                    game_start.score,
                    start.players,
                    tuple(_renumber(actions)),
                    0,
                )
            )

    pending: RollEvent | None = None  # a roll not (yet) followed by its move
    # doubles made while the opponent was still moving [001 4.4(v)]: written before
    # their answer, after the play (a game the play ends leaves them out)
    early: list[DoubleEvent] = []
    flagged: dict[str, int] = {}  # flag_id -> index in actions of the play it flagged
    redo: int | None = None  # index of a corrected play: the next move replaces it

    def flush_roll() -> None:
        nonlocal pending
        if pending is not None:  # rolled, then resigned before moving
            actions.append(Action(pending.player, "roll", 0, 0, dice=pending.dice))
            pending = None

    withdrawn = withdrawn_seqs(events)
    for event in events:
        if event.seq in withdrawn:
            continue
        if isinstance(event, RollEvent):
            flush_roll()
            pending = event
            continue
        if isinstance(event, MoveEvent):
            pending = None
            action = Action(event.player, "roll", 0, 0, dice=event.dice, play=event.play)
            if redo is not None and actions[redo].player == event.player:
                actions[redo] = action
            else:
                actions.append(action)
            redo = None
            continue
        if isinstance(event, FlagEvent) and event.kind == "illegal_play" and actions:
            flagged[event.flag_id] = len(actions) - 1
            continue
        if isinstance(event, FlagClearedEvent) and event.how == "corrected":
            redo = flagged.pop(event.flag_id, None)
            continue
        if (
            isinstance(event, DoubleEvent)
            and pending is not None
            and pending.player != event.player
        ):
            early.append(event)
            continue
        if isinstance(event, (TakeEvent, DropEvent)):
            actions.extend(Action(d.player, "double", 0, 0, cube=d.value) for d in early)
        if isinstance(event, (GameStartEvent, TakeEvent, DropEvent, GameEndEvent)):
            early.clear()
        if isinstance(event, (GameStartEvent, DoubleEvent, TakeEvent, DropEvent, GameEndEvent)):
            flush_roll()
        if isinstance(event, GameStartEvent):
            close()
            game_start = event
            actions = []
        elif isinstance(event, DoubleEvent):
            actions.append(Action(event.player, "double", 0, 0, cube=event.value))
        elif isinstance(event, TakeEvent):
            actions.append(Action(event.player, "take", 0, 0))
        elif isinstance(event, DropEvent):
            actions.append(Action(event.player, "drop", 0, 0))
        elif isinstance(event, GameEndEvent):
            actions.append(Action(event.winner, "win", 0, 0, points=event.points))
    flush_roll()
    close()
    return MatchRecord(start.match_length, start.players, start.tags, tuple(games))
