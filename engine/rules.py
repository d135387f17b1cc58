"""Rule profiles: the settings in which the rule sources disagree, as plain data.

``RULES.md`` §9 names three profiles. Each setting carries the source tag that
decides it (``RuleProfile.sources``), so a flag raised under a profile can cite
its rule.

=========================  ==================  ====================  ==================
setting                    ``wbf`` (001, 003)  ``konstanz`` (000)    ``club`` (002, 004)
=========================  ==================  ====================  ==================
doubling cube              yes                 no [000 r7]           yes
Crawford rule              yes [001 4.4(iv)]   no (no cube)          yes [004]
backgammon scores 3        yes [002, 004]      no, 2 [000 s3, r20]   yes [002, 004]
dice must land in          roller's right      both in one half      roller's right
die on a checker           invalid             invalid [000 r9]      invalid
roll before opponent done  stands [001 4.1(v)] re-roll [000 r9]     re-roll [002]
turn ends by               lifting dice/clock  signal/lifting dice   lifting dice
opening of later games     opening roll        previous winner       opening roll
default match length       set per match       3 [000 r22]           set per match
clock                      optional            none                  none
=========================  ==================  ====================  ==================

>>> profile = get_profile("konstanz")
>>> profile.cube, profile.backgammons, profile.default_match_length
(False, False, 3)
>>> profile.sources["later_games"]
'000 r22'
>>> sorted(PROFILES)
['club', 'konstanz', 'wbf']
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

DiceHalf = Literal["right", "same"]
LaterGames = Literal["opening_roll", "previous_winner"]
Clock = Literal["optional", "none"]

#: Ways a turn can end (``RuleProfile.turn_ends_by``) [RULES.md §4].
TURN_END_LIFT_DICE = "lift_dice"
TURN_END_CLOCK = "clock"
TURN_END_SIGNAL = "signal"


class RuleProfileError(ValueError):
    """An unknown rule profile name."""


@dataclass(frozen=True, slots=True)
class RuleProfile:
    """One named set of rule settings [RULES.md §9]; the referee takes one per match.

    ``sources`` maps each setting's field name to the source tag that decides it.
    """

    name: str
    description: str
    #: The doubling cube is in play [000 r7 says no for Konstanz].
    cube: bool
    #: The Crawford rule applies [001 4.4(iv)].
    crawford: bool
    #: A backgammon scores 3 (else it counts as a gammon) [000 s3, r20].
    backgammons: bool
    #: ``"right"``: both dice flat in the half to the roller's right [001 4.1(iv)(a)];
    #: ``"same"``: both dice in one half, either [000 r9].
    dice_half: DiceHalf
    #: A die resting on a checker makes the roll invalid [000 r9].
    die_on_checker_invalid: bool
    #: A roll made before the opponent finished his turn stands [001 4.1(v)(a)]
    #: (else it is invalid and re-rolled [000 r9, 002]).
    premature_roll_stands: bool
    #: The actions that end a turn (``TURN_END_*``) [001 4.1(vi), 000 r18].
    turn_ends_by: tuple[str, ...]
    #: Who opens the second and later games of a match [000 r22].
    later_games: LaterGames
    #: The match length when none is agreed; ``None``: set per match.
    default_match_length: int | None
    #: Whether a clock may be used [001 3.5(v)].
    clock: Clock
    sources: Mapping[str, str] = field(default_factory=dict, hash=False)

    def __post_init__(self) -> None:
        # A read-only view, so a profile (shared module data) cannot be changed in place.
        object.__setattr__(self, "sources", MappingProxyType(dict(self.sources)))


WBF = RuleProfile(
    name="wbf",
    description="WBF-style tournament rules (German translation, Ulm club; Berlin 2017)",
    cube=True,
    crawford=True,
    backgammons=True,
    dice_half="right",
    die_on_checker_invalid=True,
    premature_roll_stands=True,
    turn_ends_by=(TURN_END_LIFT_DICE, TURN_END_CLOCK),
    later_games="opening_roll",
    default_match_length=None,
    clock="optional",
    sources={
        "cube": "001 4.4",
        "crawford": "001 4.4(i),(iv)",
        "backgammons": "002, 004",
        "dice_half": "001 4.1(iv)(a)",
        "die_on_checker_invalid": "000 r9, RULES.md §9",
        "premature_roll_stands": "001 4.1(v)(a)",
        "turn_ends_by": "001 4.1(vi)(a),(b)",
        "later_games": "000 r8, 002, 004",
        "default_match_length": "004, 003",
        "clock": "001 3.5(v), 003",
    },
)

KONSTANZ = RuleProfile(
    name="konstanz",
    description="Konstanz New Year tournament 2014: no cube, matches to 3, winner opens",
    cube=False,
    crawford=False,
    backgammons=False,
    dice_half="same",
    die_on_checker_invalid=True,
    premature_roll_stands=False,
    turn_ends_by=(TURN_END_SIGNAL, TURN_END_LIFT_DICE),
    later_games="previous_winner",
    default_match_length=3,
    clock="none",
    sources={
        "cube": "000 r7",
        "crawford": "000 r7",
        "backgammons": "000 s3, r20",
        "dice_half": "000 r9",
        "die_on_checker_invalid": "000 r9",
        "premature_roll_stands": "000 r9",
        "turn_ends_by": "000 r18",
        "later_games": "000 r22",
        "default_match_length": "000 r22",
        "clock": "000",
    },
)

CLUB = RuleProfile(
    name="club",
    description="Club rules (forum rules page; club introduction)",
    cube=True,
    crawford=True,
    backgammons=True,
    dice_half="right",
    die_on_checker_invalid=True,
    premature_roll_stands=False,
    turn_ends_by=(TURN_END_LIFT_DICE,),
    later_games="opening_roll",
    default_match_length=None,
    clock="none",
    sources={
        "cube": "002, 004",
        "crawford": "004",
        "backgammons": "002, 004",
        "dice_half": "002",
        "die_on_checker_invalid": "000 r9, RULES.md §9",
        "premature_roll_stands": "002",
        "turn_ends_by": "002",
        "later_games": "002, 004",
        "default_match_length": "004",
        "clock": "002, 004",
    },
)

#: The profiles by name.
PROFILES: Mapping[str, RuleProfile] = MappingProxyType(
    {profile.name: profile for profile in (WBF, KONSTANZ, CLUB)}
)


def get_profile(name: str) -> RuleProfile:
    """The profile called ``name`` (case and surrounding blanks ignored).

    >>> get_profile(" WBF ").premature_roll_stands
    True
    >>> try:
    ...     get_profile("fibs")
    ... except RuleProfileError as exc:
    ...     print(exc)
    unknown rule profile 'fibs' (valid: club, konstanz, wbf)
    """
    profile = PROFILES.get(name.strip().lower())
    if profile is None:
        valid = ", ".join(sorted(PROFILES))
        raise RuleProfileError(f"unknown rule profile {name!r} (valid: {valid})")
    return profile
