"""Rule profiles: the settings of RULES.md §9, with their sources, and lookup by name."""

from __future__ import annotations

import dataclasses

import pytest

from gammoneye.engine.rules import (
    PROFILES,
    TURN_END_CLOCK,
    TURN_END_LIFT_DICE,
    TURN_END_SIGNAL,
    RuleProfile,
    RuleProfileError,
    get_profile,
)

SETTINGS = [
    f.name for f in dataclasses.fields(RuleProfile) if f.name not in ("name", "description")
]
SETTINGS.remove("sources")


@pytest.mark.parametrize(
    ("name", "setting", "expected"),
    [
        # RULES.md §9, one row per cell of the table.
        ("wbf", "cube", True),  # [001 4.4]
        ("konstanz", "cube", False),  # [000 r7]
        ("club", "cube", True),  # [002, 004]
        ("wbf", "crawford", True),  # [001 4.4(i),(iv)]
        ("konstanz", "crawford", False),  # no cube [000 r7]
        ("club", "crawford", True),  # [004]
        ("wbf", "backgammons", True),  # [002, 004]
        ("konstanz", "backgammons", False),  # counts 2 [000 s3, r20]
        ("club", "backgammons", True),
        ("wbf", "dice_half", "right"),  # [001 4.1(iv)(a)]
        ("konstanz", "dice_half", "same"),  # [000 r9]
        ("club", "dice_half", "right"),  # [002]
        ("wbf", "die_on_checker_invalid", True),
        ("konstanz", "die_on_checker_invalid", True),  # [000 r9]
        ("club", "die_on_checker_invalid", True),
        ("wbf", "premature_roll_stands", True),  # [001 4.1(v)(a)]
        ("konstanz", "premature_roll_stands", False),  # [000 r9]
        ("club", "premature_roll_stands", False),  # [002]
        ("wbf", "turn_ends_by", (TURN_END_LIFT_DICE, TURN_END_CLOCK)),  # [001 4.1(vi)]
        ("konstanz", "turn_ends_by", (TURN_END_SIGNAL, TURN_END_LIFT_DICE)),  # [000 r18]
        ("club", "turn_ends_by", (TURN_END_LIFT_DICE,)),  # [002]
        ("wbf", "later_games", "opening_roll"),
        ("konstanz", "later_games", "previous_winner"),  # [000 r22]
        ("club", "later_games", "opening_roll"),
        ("wbf", "default_match_length", None),
        ("konstanz", "default_match_length", 3),  # [000 r22]
        ("club", "default_match_length", None),
        ("wbf", "clock", "optional"),  # [001 3.5(v)]
        ("konstanz", "clock", "none"),
        ("club", "clock", "none"),
    ],
)
def test_profile_settings_follow_rules_md(name: str, setting: str, expected: object) -> None:
    assert getattr(PROFILES[name], setting) == expected


@pytest.mark.parametrize("name", sorted(PROFILES))
def test_every_setting_cites_a_source(name: str) -> None:
    profile = PROFILES[name]
    assert profile.name == name
    assert profile.description
    assert set(profile.sources) == set(SETTINGS)
    for setting, tag in profile.sources.items():
        assert tag and tag[:3].isdigit(), f"{name}.{setting}: {tag!r} is not a source tag"


@pytest.mark.parametrize(
    ("text", "expected", "error"),
    [
        ("wbf", "wbf", None),
        ("Konstanz", "konstanz", None),
        ("  club\n", "club", None),
        ("fibs", None, "unknown rule profile 'fibs' (valid: club, konstanz, wbf)"),
        ("", None, "unknown rule profile ''"),
    ],
)
def test_get_profile(text: str, expected: str | None, error: str | None) -> None:
    if error is None:
        assert get_profile(text) is PROFILES[expected or ""]
        return
    with pytest.raises(RuleProfileError, match=error.replace("(", r"\(").replace(")", r"\)")):
        get_profile(text)
    assert issubclass(RuleProfileError, ValueError)


def test_profiles_are_frozen_and_read_only() -> None:
    wbf = PROFILES["wbf"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        wbf.cube = False  # type: ignore[misc]
    with pytest.raises(TypeError):
        wbf.sources["cube"] = "nothing"  # type: ignore[index]
    with pytest.raises(TypeError):
        PROFILES["mine"] = wbf  # type: ignore[index]


def test_profiles_are_hashable_and_compare_by_value() -> None:
    wbf = PROFILES["wbf"]
    copy = dataclasses.replace(wbf)
    assert copy == wbf
    assert hash(copy) == hash(wbf)
    assert dataclasses.replace(wbf, name="house") != wbf
