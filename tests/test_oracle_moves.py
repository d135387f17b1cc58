"""Differential test of the legal-play generator against GNU Backgammon (gnubg-nn).

20,000 (position, roll) pairs from seeded random games must give identical sets of
resulting positions. ``bench/engine_bench.py`` runs the same check on 200,000.
"""

from __future__ import annotations

import os

import pytest

from gammoneye.datasets.games import random_turns

from oracle import agrees_with_gnubg, load_gnubg_nn

PAIRS = int(os.environ.get("GAMMONEYE_ORACLE_PAIRS", "20000"))


@pytest.mark.oracle
def test_legal_results_match_gnubg() -> None:
    gnubg_nn = load_gnubg_nn()
    mismatches = []
    checked = 0
    for turn in random_turns(seed=20261122, limit=PAIRS):
        checked += 1
        if not agrees_with_gnubg(gnubg_nn, turn.before, turn.dice):
            mismatches.append((turn.before.position_id(), turn.before.turn, turn.dice))
    assert checked == PAIRS
    assert not mismatches, f"{len(mismatches)} of {checked} differ, first: {mismatches[:5]}"
