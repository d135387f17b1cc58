"""The match's rules as an immutable state machine: cube, score, Crawford, game ends.

Every action returns a new :class:`MatchState` or raises :class:`MatchRuleError`,
whose ``code`` says which rule forbids it (``RULES.md`` §5-6). The actions have
``can_*`` twins that return that code, or ``None`` when the action is allowed, so a
referee can flag an illegal action without catching exceptions.

A game goes ``START`` → (opening) → ``MOVE`` ⇄ ``ROLL`` → ... → ``GAME_OVER`` (or
``MATCH_OVER``); a double passes through ``DOUBLED``, a resignation offer through
``RESIGN_OFFERED``. The score is updated when a game ends (the scoreboard of
[001 4.7]); :meth:`MatchState.next_game` then sets up the next game.

>>> state = MatchState.new(3, "wbf").opening_roll(3, 1)  # player 0 rolled the 3: he starts
>>> state.phase, state.position.turn, state.dice
(<Phase.MOVE: 'move'>, 0, (3, 1))
>>> after = Position.from_position_id("4HPwATCwZ/ABMA")  # 8/5 6/5, making the 5-point
>>> state = state.play(after)
>>> state.position.turn, state.can_double(0), state.can_double(1)
(1, 'not_your_turn', None)
>>> state = state.double(1, new_value=4)  # the wrong level is corrected [001 4.4(vi)]
>>> state.offered_cube, [note.code.value for note in state.notes]
(2, ['cube_level_corrected'])
>>> state = state.drop()
>>> state.phase, state.score, state.last_result.reason  # the pre-double value [001 4.4(iii)]
(<Phase.GAME_OVER: 'game_over'>, (0, 1), 'drop')
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from .matchid import MAX_CUBE_LOG2, GameState, MatchInfo
from .matchtypes import GameResult as GameResult
from .matchtypes import MatchRuleError as MatchRuleError
from .matchtypes import Note as Note
from .matchtypes import Phase as Phase
from .matchtypes import Resignation as Resignation
from .matchtypes import ResultReason as ResultReason
from .matchtypes import RuleCode as RuleCode
from .moves import legal_positions
from .position import CHECKERS, Position
from .rules import WBF, RuleProfile, get_profile

_PLAYING = (Phase.ROLL, Phase.DOUBLED, Phase.MOVE, Phase.RESIGN_OFFERED)


@dataclass(frozen=True, slots=True)
class MatchState:
    """One moment of a match. Immutable: every action returns a new state.

    ``position.turn`` is the player on roll (while a double or a resignation is
    pending, too). ``score`` already includes a finished game's result.
    """

    profile: RuleProfile
    #: 0: unlimited (money play; no Crawford game, no dead cube).
    match_length: int
    score: tuple[int, int] = (0, 0)
    game_number: int = 1
    is_crawford_game: bool = False
    #: The Crawford game has been played (post-Crawford games).
    crawford_done: bool = False
    cube_value: int = 1
    #: ``None`` when the cube is centred.
    cube_owner: int | None = None
    position: Position = field(default_factory=Position.initial)
    phase: Phase = Phase.START
    dice: tuple[int, int] | None = None
    #: The cube value on offer while ``phase`` is ``DOUBLED``.
    offered_cube: int | None = None
    #: The resignation on offer; once the game is over, the accepted one (if any).
    resignation: Resignation | None = None
    last_result: GameResult | None = None
    #: Plays made in the current game (0 until the opening roll has been played).
    turns_played: int = 0
    #: A player who doubled before the mover finished: the double is offered as soon
    #: as the play is done [001 4.4(v)].
    early_double_by: int | None = None
    #: The player on roll has attempted a roll that was invalid (cocked, wrong half...):
    #: he must roll again and may no longer double [001 4.4(ii), 002].
    roll_attempted: bool = False
    #: What the action that produced this state corrected or recorded.
    notes: tuple[Note, ...] = ()

    # --- construction -------------------------------------------------------------------
    @classmethod
    def new(cls, match_length: int | None = None, profile: RuleProfile | str = WBF) -> MatchState:
        """A match before its first game; ``None`` takes the profile's default length."""
        rules = get_profile(profile) if isinstance(profile, str) else profile
        length = rules.default_match_length if match_length is None else match_length
        if length is None:
            raise MatchRuleError(
                RuleCode.NO_MATCH_LENGTH,
                f"profile {rules.name!r} sets the match length per match: give one",
            )
        if length < 0:
            raise MatchRuleError(RuleCode.NO_MATCH_LENGTH, f"match length {length} is negative")
        return cls(profile=rules, match_length=length)

    # --- derived facts --------------------------------------------------------------------
    @property
    def on_roll(self) -> int:
        return self.position.turn

    def is_cube_dead(self, player: int) -> bool:
        """The player owns the cube at a level that already wins him the match [001 4.4(vii)]."""
        return (
            self.match_length > 0
            and self.cube_owner == player
            and self.score[player] + self.cube_value >= self.match_length
        )

    def _next_is_crawford(self) -> bool:
        """Whether the game after this one is the Crawford game [001 4.4(iv)]."""
        return (
            self.profile.crawford
            and self.match_length > 0
            and self.phase is not Phase.MATCH_OVER
            and not (self.crawford_done or self.is_crawford_game)
            and self.match_length - 1 in self.score
        )

    def match_info(self) -> MatchInfo:
        """The match context for a GNU Backgammon Match ID or an XGID.

        Follows GNU Backgammon's conventions: while a double or a resignation is
        pending the opponent is ``turn``; once a game is over the score includes its
        result. The Crawford flag is the game's own until :meth:`next_game`, as gnubg
        shows a replayed match (in live play gnubg shows the next game's at once).
        """
        on_roll = self.position.turn
        turn = on_roll
        state = GameState.PLAYING
        resign = 0
        if self.phase is Phase.START:
            state = GameState.NONE
        elif self.phase is Phase.DOUBLED:
            turn = 1 - on_roll
        elif self.phase is Phase.RESIGN_OFFERED and self.resignation is not None:
            turn = 1 - self.resignation.player
            resign = self.resignation.level
        elif self.phase in (Phase.GAME_OVER, Phase.MATCH_OVER) and self.last_result is not None:
            result = self.last_result
            if result.reason == "bearoff":
                state = GameState.OVER
            elif result.reason == "drop":
                state, turn = GameState.DROPPED, 1 - result.winner
            else:
                # An accepted offer leaves the acceptor to act; a resignation recorded
                # without an offer (a transcript's "Wins N points") leaves the player on
                # roll: both as GNU Backgammon has them.
                state, resign = GameState.RESIGNED, result.multiplier
                if self.resignation is not None:
                    turn = 1 - self.resignation.player
        return MatchInfo(
            cube_value=self.cube_value,
            cube_owner=self.cube_owner,
            dice_owner=on_roll,
            crawford=self.is_crawford_game,
            game_state=state,
            turn=turn,
            double_offered=self.phase is Phase.DOUBLED,
            resign_offered=resign,
            dice=self.dice or (0, 0),
            match_length=self.match_length,
            score=self.score,
        )

    # --- checks: each returns the error an action would raise, or None ----------------
    def _where(self) -> str:
        return (
            f"(game {self.game_number}, score {self.score[0]}-{self.score[1]}"
            f"{f' to {self.match_length}' if self.match_length else ''}, {self.phase.value})"
        )

    def _error(self, code: RuleCode, message: str) -> MatchRuleError:
        return MatchRuleError(code, f"{message} {self._where()}")

    def _phase_error(self, allowed: tuple[Phase, ...], action: str) -> MatchRuleError | None:
        if self.phase in allowed:
            return None
        code, why = {
            Phase.START: (RuleCode.GAME_NOT_STARTED, "the game has not started"),
            Phase.ROLL: (RuleCode.NOT_ROLLED, "the dice have not been rolled"),
            Phase.DOUBLED: (RuleCode.DOUBLE_PENDING, "a double awaits take or drop"),
            Phase.MOVE: (RuleCode.ALREADY_ROLLED, "the dice have been rolled"),
            Phase.RESIGN_OFFERED: (RuleCode.RESIGNATION_PENDING, "a resignation awaits an answer"),
            Phase.GAME_OVER: (RuleCode.GAME_OVER, "the game is over"),
            Phase.MATCH_OVER: (RuleCode.MATCH_OVER, "the match is over"),
        }[self.phase]
        if self.phase in _PLAYING:
            if not any(phase in _PLAYING for phase in allowed):
                code, why = RuleCode.GAME_IN_PROGRESS, "a game is on"
            elif allowed == (Phase.DOUBLED,):
                code, why = RuleCode.NO_DOUBLE, "no double is offered"
            elif allowed == (Phase.RESIGN_OFFERED,):
                code, why = RuleCode.NO_RESIGNATION, "no resignation is offered"
        return self._error(code, f"cannot {action}: {why}")

    def _player_error(
        self, player: int | None, expected: int, action: str
    ) -> MatchRuleError | None:
        if player is None or player == expected:
            return None
        return self._error(
            RuleCode.NOT_YOUR_TURN, f"player {player} cannot {action}: it is player {expected}'s"
        )

    def _start_error(self, first_player: int) -> MatchRuleError | None:
        blocked = self._phase_error((Phase.START,), "start a game")
        if blocked is not None:
            return blocked
        if first_player not in (0, 1):
            raise ValueError(f"player must be 0 or 1, got {first_player!r}")
        winner = self.last_result.winner if self.last_result else None
        if self.profile.later_games == "previous_winner" and winner not in (None, first_player):
            return self._error(
                RuleCode.WRONG_OPENER,
                f"player {winner} won the last game and opens this one [000 r22]",
            )
        return None

    def _opening_error(self) -> MatchRuleError | None:
        if (
            self.phase is Phase.START
            and self.profile.later_games == "previous_winner"
            and self.last_result is not None
        ):
            return self._error(
                RuleCode.NO_OPENING_ROLL,
                f"no opening roll: player {self.last_result.winner} won the last game "
                "and opens this one [000 r22]",
            )
        return self._start_error(0)

    def _double_error(self, player: int) -> MatchRuleError | None:
        if self.phase in (Phase.START, Phase.GAME_OVER, Phase.MATCH_OVER):
            return self._phase_error((), "double")
        if not self.profile.cube:
            return self._error(
                RuleCode.NO_CUBE_IN_PROFILE,
                f"no doubling cube under the {self.profile.name} rules [000 r7]",
            )
        if self.is_crawford_game:
            return self._error(
                RuleCode.CRAWFORD_GAME, "no doubling in the Crawford game [001 4.4(i),(iv)]"
            )
        if player != self.on_roll:
            if player not in (0, 1):
                raise ValueError(f"player must be 0 or 1, got {player!r}")
            # While the opponent is still moving a double is valid [001 4.4(v)]; when
            # he has not rolled it is simply not this player's turn [001 4.4(ii)].
            if self.phase is not Phase.MOVE:
                return self._error(
                    RuleCode.NOT_YOUR_TURN,
                    f"player {player} cannot double: player {self.on_roll} is on roll "
                    "[001 4.4(ii)]",
                )
            if self.early_double_by is not None:
                return self._error(
                    RuleCode.DOUBLE_PENDING, f"player {player} has doubled already [001 4.4(v)]"
                )
            return self._cube_error(player)
        if self.phase is Phase.MOVE:
            return self._error(
                RuleCode.ALREADY_ROLLED,
                f"player {player} cannot double: a double comes before any attempt to roll "
                "[001 4.4(ii)]",
            )
        blocked = self._phase_error((Phase.ROLL,), "double")
        if blocked is not None:
            return blocked
        if self.roll_attempted:
            return self._error(
                RuleCode.ALREADY_ROLLED,
                f"player {player} cannot double: an invalid roll is an attempt to roll too "
                "[001 4.4(ii), 002]",
            )
        if self.turns_played == 0 and self._opening_roll_decides():
            return self._error(RuleCode.OPENING, "no doubling before the opening roll is played")
        return self._cube_error(player)

    def _opening_roll_decides(self) -> bool:
        """Whether this game's first turn is an opening roll [000 r8, r22; RULES.md §9]."""
        return self.game_number == 1 or self.profile.later_games == "opening_roll"

    def _cube_error(self, player: int) -> MatchRuleError | None:
        """Whether ``player`` may turn the cube as it stands (owner, dead cube, limit)."""
        if self.cube_owner is not None and self.cube_owner != player:
            return self._error(
                RuleCode.CUBE_NOT_YOURS,
                f"player {player} cannot double: player {self.cube_owner} owns the cube "
                "[001 4.4(iii)]",
            )
        if self.is_cube_dead(player):
            return self._error(
                RuleCode.DEAD_CUBE,
                f"player {player}'s cube at {self.cube_value} already wins him the match: "
                "it is dead [001 4.4(vii)]",
            )
        if self.cube_value.bit_length() > MAX_CUBE_LOG2:
            return self._error(RuleCode.CUBE_LIMIT, f"cannot double a cube of {self.cube_value}")
        return None

    def _resign_error(self, player: int, level: int) -> MatchRuleError | None:
        blocked = self._phase_error((Phase.ROLL, Phase.MOVE), "resign")
        if blocked is not None:
            return blocked
        if player not in (0, 1):
            raise ValueError(f"player must be 0 or 1, got {player!r}")
        if level not in self._levels():
            return self._error(
                RuleCode.BAD_RESIGN_LEVEL,
                f"cannot resign at level {level!r}: the levels are {self._levels()} "
                "(1 single, 2 gammon, 3 backgammon) [000 r21, 001 4.5]",
            )
        return None

    def _levels(self) -> tuple[int, ...]:
        # Without backgammons [000 s3] one resigns a single game or a gammon [000 r21].
        return (1, 2, 3) if self.profile.backgammons else (1, 2)

    def _play_error(self, after: Position) -> MatchRuleError | None:
        blocked = self._phase_error((Phase.MOVE,), "play")
        if blocked is not None or self.dice is None:
            return blocked
        if after.with_turn(self.on_roll) not in legal_positions(self.position, self.dice):
            d1, d2 = self.dice
            return self._error(
                RuleCode.ILLEGAL_PLAY,
                f"no legal play of {d1}-{d2} turns {self.position!r} into {after!r} [000 r10-r16]",
            )
        return None

    def _illegal_play_error(self, after: Position) -> MatchRuleError | None:
        blocked = self._phase_error((Phase.MOVE,), "play")
        if blocked is not None:
            return blocked
        problems = after.problems()
        mover, opponent = self.on_roll, 1 - self.on_roll
        if after.off(opponent) != self.position.off(opponent):
            problems.append(f"player {opponent}'s borne-off checkers changed")
        # The opponent's checkers only move when hit: blots go to the bar.
        hit, by_hits = changed_by_hits(self.position, after, opponent)
        if not by_hits:
            problems.append(f"player {opponent}'s checkers moved other than by hits")
        most = 4 if self.dice is None or self.dice[0] == self.dice[1] else 2
        if len(hit) > most:
            problems.append(f"{len(hit)} checkers hit with {most} moves")
        borne = after.off(mover) - self.position.off(mover)
        if not 0 <= borne <= most:
            problems.append(f"player {mover} bore off {borne} checkers with {most} moves")
        if problems:
            return self._error(
                RuleCode.IMPOSSIBLE_POSITION, f"{after!r} cannot stand: {'; '.join(problems)}"
            )
        return None

    # --- the questions a referee asks ----------------------------------------------------
    def can_start_game(self, first_player: int) -> RuleCode | None:
        """``None`` if :meth:`start_game` is allowed now, else the reason's code."""
        return _code(self._start_error(first_player))

    def can_opening_roll(self) -> RuleCode | None:
        """``None`` if :meth:`opening_roll` is allowed now (dice aside), else the reason's code."""
        return _code(self._opening_error())

    def can_roll(self, player: int | None = None) -> RuleCode | None:
        """``None`` if :meth:`roll` is allowed now, else the reason's code."""
        return _code(self._roll_error(player))

    def can_play(self, after: Position) -> RuleCode | None:
        """``None`` if :meth:`play` of ``after`` is allowed now, else the reason's code."""
        return _code(self._play_error(after))

    def can_accept_illegal_play(self, after: Position) -> RuleCode | None:
        return _code(self._illegal_play_error(after))

    def can_double(self, player: int) -> RuleCode | None:
        """``None`` when ``player`` may double now, else the reason's code.

        >>> MatchState.new(5).opening_roll(6, 1).can_double(0)
        'already_rolled'
        """
        return _code(self._double_error(player))

    def can_take(self, player: int | None = None) -> RuleCode | None:
        """``None`` if :meth:`take` is allowed now, else the reason's code."""
        return _code(self._answer_error(player, "take"))

    def can_drop(self, player: int | None = None) -> RuleCode | None:
        """``None`` if :meth:`drop` is allowed now, else the reason's code."""
        return _code(self._answer_error(player, "drop"))

    def can_resign(self, player: int, level: int) -> RuleCode | None:
        """``None`` if :meth:`resign` is allowed now, else the reason's code."""
        return _code(self._resign_error(player, level))

    def can_accept_resignation(self, player: int | None = None) -> RuleCode | None:
        """``None`` if :meth:`accept_resignation` is allowed now, else the reason's code."""
        return _code(self._resignation_answer_error(player, "accept the resignation"))

    def can_reject_resignation(self, player: int | None = None) -> RuleCode | None:
        """``None`` if :meth:`reject_resignation` is allowed now, else the reason's code."""
        return _code(self._resignation_answer_error(player, "reject the resignation"))

    def can_next_game(self) -> RuleCode | None:
        """``None`` if :meth:`next_game` is allowed now, else the reason's code."""
        return _code(self._phase_error((Phase.GAME_OVER,), "start the next game"))

    def _roll_error(self, player: int | None) -> MatchRuleError | None:
        if self.phase in _PLAYING and player is not None and player != self.on_roll:
            early = ""
            if self.phase is Phase.MOVE:
                # Rolling before the opponent has finished [RULES.md §2]
                early = (
                    f" (under {self.profile.name} an early roll stands: record the play, "
                    "then the roll [001 4.1(v)(a)])"
                    if self.profile.premature_roll_stands
                    else f" (under {self.profile.name} an early roll is void [000 r9, 002])"
                )
            return self._error(
                RuleCode.NOT_YOUR_TURN,
                f"player {player} cannot roll: player {self.on_roll} is on roll{early}",
            )
        return self._phase_error((Phase.ROLL,), "roll")

    def _answer_error(self, player: int | None, action: str) -> MatchRuleError | None:
        return self._phase_error((Phase.DOUBLED,), action) or self._player_error(
            player, 1 - self.on_roll, action
        )

    def _resignation_answer_error(self, player: int | None, action: str) -> MatchRuleError | None:
        blocked = self._phase_error((Phase.RESIGN_OFFERED,), action)
        if blocked is not None or self.resignation is None:
            return blocked
        return self._player_error(player, 1 - self.resignation.player, action)

    # --- actions ----------------------------------------------------------------------------
    def start_game(self, first_player: int) -> MatchState:
        """Start the game with ``first_player`` on roll: the winner of the opening roll
        [000 r8], or under ``later_games="previous_winner"`` the last game's winner
        [000 r22]. Next: :meth:`roll` (no double before the first play)."""
        _raise(self._start_error(first_player))
        return replace(
            self,
            position=Position.initial(turn=first_player),
            phase=Phase.ROLL,
            dice=None,
            turns_played=0,
            notes=(),
        )

    def opening_roll(self, die0: int, die1: int, *, lower_starts: bool = False) -> MatchState:
        """Each player rolls one die (``die0`` player 0's); the higher die starts and
        plays both numbers [000 r8]; ties are re-rolled (code ``opening_tie``). With
        ``lower_starts`` (agreed beforehand [000 r8]) the lower die starts."""
        _raise(self._opening_error())
        dice = _check_dice(die0, die1, self)
        if die0 == die1:
            raise self._error(RuleCode.OPENING_TIE, f"opening roll {die0}-{die1} is a tie: re-roll")
        first = 0 if (die0 > die1) != lower_starts else 1
        return replace(self.start_game(first), phase=Phase.MOVE, dice=dice)

    def roll(self, d1: int, d2: int, *, player: int | None = None) -> MatchState:
        """The player on roll rolls ``d1``-``d2``; ``player`` (if given) is checked."""
        _raise(self._roll_error(player))
        dice = _check_dice(d1, d2, self)
        return replace(self, phase=Phase.MOVE, dice=dice, roll_attempted=False, notes=())

    def invalid_roll(self, *, player: int | None = None) -> MatchState:
        """The player on roll rolled, but not validly (a cocked die, the wrong half, a
        die on a checker or off the board [001 4.1(iv), 000 r9]): he rolls again, and
        having tried to roll he may no longer double [001 4.4(ii), 002]."""
        _raise(self._roll_error(player))
        if self.phase is not Phase.ROLL:
            raise self._error(
                RuleCode.ALREADY_ROLLED, "the dice are already down: no roll to repeat"
            )
        return replace(self, roll_attempted=True, notes=())

    def reread_dice(self, d1: int, d2: int) -> MatchState:
        """The dice down are ``d1``-``d2`` after all: a roll misread and put right
        before its play (a camera that read a 5 where the play shows a 3)."""
        if self.phase is not Phase.MOVE:
            raise self._error(RuleCode.NOT_ROLLED, "no dice are down to read again")
        return replace(self, dice=_check_dice(d1, d2, self))

    def play(self, after: Position) -> MatchState:
        """The play that leaves ``after`` (compared by checkers; who is on roll in
        ``after`` does not matter). It must be legal for the dice; then the turn
        passes, or the game ends when the mover has borne off all his checkers."""
        _raise(self._play_error(after))
        return self._finish_turn(after.with_turn(self.on_roll), ())

    def accept_illegal_play(self, after: Position) -> MatchState:
        """Record a play that stands although illegal: nobody corrected it before the
        opponent rolled or doubled [001 4.2(iii)(a)]. ``after`` must still be a
        possible position (no point held by both players, the opponent's borne-off
        checkers unchanged)."""
        _raise(self._illegal_play_error(after))
        result = after.with_turn(self.on_roll)
        notes: tuple[Note, ...] = ()
        if self.dice is not None and result not in legal_positions(self.position, self.dice):
            notes = (
                Note(
                    RuleCode.ILLEGAL_PLAY_STANDS,
                    f"illegal play by player {self.on_roll} stands [001 4.2(iii)(a)]",
                ),
            )
        return self._finish_turn(result, notes)

    def resync(self, after: Position, *, turn_passes: bool = True) -> MatchState:
        """End the turn with the board as it stands, when no play of this turn can
        have made it: turns went by unrecorded (a camera missed them). Only a
        position that can stand on a board at all (:meth:`Position.problems`) is
        taken; the opponent is on roll next, as after any play, or — with
        ``turn_passes`` false, when the board shows the opponent played last — the
        player on roll is again.

        >>> state = MatchState.new(5).opening_roll(3, 1)
        >>> later = Position.from_position_id("4HPwATDgc/ABMA", turn=0)
        >>> after = state.resync(later)
        >>> after.on_roll, after.position.position_id() == later.with_turn(1).position_id()
        (1, True)
        >>> after.notes[0].code
        'position_from_board'
        """
        _raise(self._phase_error((Phase.MOVE,), "take the position from the board"))
        problems = after.problems()
        if problems:
            _raise(
                self._error(
                    RuleCode.IMPOSSIBLE_POSITION,
                    f"{after!r} cannot stand: {'; '.join(problems)}",
                )
            )
        note = Note(
            RuleCode.POSITION_FROM_BOARD,
            f"player {self.on_roll}'s turn ends with the position taken from the board",
        )
        if turn_passes:
            return self._finish_turn(after.with_turn(self.on_roll), (note,))
        # the opponent's turn was the last: he is "the mover" of the board's result
        opponent = 1 - self.on_roll
        passed = replace(self, position=self.position.swapped_turn(), dice=None)
        return passed._finish_turn(after.with_turn(opponent), (note,))

    def _finish_turn(self, result: Position, notes: tuple[Note, ...]) -> MatchState:
        mover = self.on_roll
        if result.off(mover) == CHECKERS:
            multiplier = result.result_multiplier(mover, backgammons=self.profile.backgammons)
            # A pending early double lapses with the game.
            ended = replace(
                self,
                position=result.swapped_turn(),
                dice=None,
                early_double_by=None,
                notes=notes,
            )
            return ended._end_game(mover, multiplier, "bearoff")
        if self.early_double_by is not None:
            # The doubler is on roll now, with his double on the table [001 4.4(v)].
            return replace(
                self,
                position=result.swapped_turn(),
                phase=Phase.DOUBLED,
                offered_cube=2 * self.cube_value,
                dice=None,
                turns_played=self.turns_played + 1,
                early_double_by=None,
                notes=notes,
            )
        return replace(
            self,
            position=result.swapped_turn(),
            phase=Phase.ROLL,
            dice=None,
            turns_played=self.turns_played + 1,
            notes=notes,
        )

    def double(self, player: int, new_value: int | None = None) -> MatchState:
        """``player`` offers the cube. Allowed on his own turn before rolling
        [001 4.4(ii)], by the cube's owner or with the cube centred [001 4.4(iii)],
        not in the Crawford game [001 4.4(i),(iv)], not with a dead cube
        [001 4.4(vii)], not without a cube [000 r7]. A ``new_value`` other than the
        next level is corrected to it and reported in ``notes`` [001 4.4(vi)].

        A double while the opponent is still moving is valid [001 4.4(v)]: it is kept
        in ``early_double_by`` and offered (phase ``DOUBLED``) as soon as he has
        played; the note ``early_double`` says so."""
        _raise(self._double_error(player))
        offered = 2 * self.cube_value
        notes: tuple[Note, ...] = ()
        if new_value is not None and new_value != offered:
            notes = (
                Note(
                    RuleCode.CUBE_LEVEL_CORRECTED,
                    f"player {player} turned the cube to {new_value}; the proper level is "
                    f"{offered} [001 4.4(vi)]",
                ),
            )
        if player != self.on_roll:
            early = Note(
                RuleCode.EARLY_DOUBLE,
                f"player {player} doubled before player {self.on_roll} finished moving: the "
                "double stands and is answered once the play is done [001 4.4(v)]",
            )
            return replace(self, early_double_by=player, notes=(*notes, early))
        return replace(self, phase=Phase.DOUBLED, offered_cube=offered, notes=notes)

    def take(self, *, player: int | None = None) -> MatchState:
        """The opponent takes: he owns the cube at the new level [001 4.4(iii)]."""
        _raise(self._answer_error(player, "take"))
        taker = 1 - self.on_roll
        return replace(
            self,
            phase=Phase.ROLL,
            cube_value=self.offered_cube or 2 * self.cube_value,
            cube_owner=taker,
            offered_cube=None,
            notes=(),
        )

    def drop(self, *, player: int | None = None) -> MatchState:
        """The opponent passes: the doubler wins the value before the double
        [001 4.4(iii)]."""
        _raise(self._answer_error(player, "drop"))
        passed = replace(self, offered_cube=None, notes=())
        return passed._end_game(self.on_roll, 1, "drop")

    def resign(self, player: int, level: int) -> MatchState:
        """``player`` offers to resign a single game (1), a gammon (2) or a backgammon
        (3); either player, at any time in the game [000 r21, 001 4.5]."""
        _raise(self._resign_error(player, level))
        return replace(
            self,
            phase=Phase.RESIGN_OFFERED,
            resignation=Resignation(player, level, self.phase),
            notes=(),
        )

    def accept_resignation(self, *, player: int | None = None) -> MatchState:
        """The opponent accepts: he wins the offered level times the cube [000 r21]."""
        offer = self._answered_resignation(player, "accept the resignation")
        # The offer stays on record: it is how the game ended.
        return replace(self, notes=())._end_game(1 - offer.player, offer.level, "resign")

    def reject_resignation(self, *, player: int | None = None) -> MatchState:
        """The opponent refuses: the game goes on where it stood [000 r21]."""
        offer = self._answered_resignation(player, "reject the resignation")
        return replace(self, phase=offer.resume, resignation=None, notes=())

    def _answered_resignation(self, player: int | None, action: str) -> Resignation:
        _raise(self._resignation_answer_error(player, action))
        if self.resignation is None:  # a RESIGN_OFFERED state built by hand without one
            raise self._error(RuleCode.NO_RESIGNATION, f"cannot {action}: none is recorded")
        return self.resignation

    def end_game_by_resignation(self, winner: int, points: int) -> MatchState:
        """End the game as a transcript records it ("Wins N points" mid-game): the
        points decide the level (``points`` = cube * level)."""
        _raise(self._phase_error((Phase.ROLL, Phase.MOVE, Phase.RESIGN_OFFERED), "resign"))
        if winner not in (0, 1):
            raise ValueError(f"winner must be 0 or 1, got {winner!r}")
        offer = self.resignation if self.phase is Phase.RESIGN_OFFERED else None
        if offer is not None and offer.player == winner:
            raise self._error(
                RuleCode.WRONG_WINNER,
                f"player {winner} offered to resign: he cannot win by resignation",
            )
        level, rest = divmod(points, self.cube_value)
        if rest or level not in self._levels():
            raise self._error(
                RuleCode.BAD_POINTS,
                f"{points} points with the cube at {self.cube_value} is no resignation level "
                f"{self._levels()} [000 r21, 001 4.5]",
            )
        return replace(self, notes=())._end_game(winner, level, "resign")

    def _end_game(self, winner: int, multiplier: int, reason: ResultReason) -> MatchState:
        # The dice stay as they were (a resignation after rolling), as GNU Backgammon's do.
        points = multiplier * self.cube_value
        result = GameResult(winner, points, multiplier, self.cube_value, reason)
        score = list(self.score)
        score[winner] += points
        over = self.match_length > 0 and score[winner] >= self.match_length
        return replace(
            self,
            score=(score[0], score[1]),
            phase=Phase.MATCH_OVER if over else Phase.GAME_OVER,
            last_result=result,
        )

    def next_game(self) -> MatchState:
        """Set up the next game after ``GAME_OVER``: Crawford status (the first game
        after a player reaches match length - 1 is the Crawford game [001 4.4(iv)]),
        the cube back to 1 in the middle [001 4.4(i)], phase ``START``."""
        _raise(self._phase_error((Phase.GAME_OVER,), "start the next game"))
        crawford = self._next_is_crawford()
        opener = self.last_result.winner if self.last_result else 0
        return replace(
            self,
            game_number=self.game_number + 1,
            is_crawford_game=crawford,
            crawford_done=self.crawford_done or self.is_crawford_game,
            cube_value=1,
            cube_owner=None,
            position=Position.initial(turn=opener),
            phase=Phase.START,
            dice=None,
            offered_cube=None,
            resignation=None,
            turns_played=0,
            early_double_by=None,
            notes=(),
        )


def changed_by_hits(before: Position, after: Position, player: int) -> tuple[list[int], bool]:
    """The points (0..23) where ``player``'s checkers differ between the two, and
    whether each difference is a blot of his hit: gone from its point, and one more
    of his on the bar for each (borne-off checkers are not looked at)."""
    b, a = before.boards[player], after.boards[player]
    changed = [i for i in range(24) if a[i] != b[i]]
    by_hits = all(b[i] == 1 and a[i] == 0 for i in changed) and a[24] - b[24] == len(changed)
    return changed, by_hits


def _code(error: MatchRuleError | None) -> RuleCode | None:
    return None if error is None else error.code


def _raise(error: MatchRuleError | None) -> None:
    if error is not None:
        raise error


def _check_dice(d1: int, d2: int, state: MatchState) -> tuple[int, int]:
    if not all(isinstance(d, int) and 1 <= d <= 6 for d in (d1, d2)):
        raise state._error(RuleCode.BAD_DICE, f"dice must be 1..6, got {d1!r}-{d2!r}")
    return d1, d2
