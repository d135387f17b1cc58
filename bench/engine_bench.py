"""Rules-engine benchmark: correctness against gnubg-nn at scale, and speed.

Prints, in one run:
  1. the differential check: identical sets of resulting positions on --pairs
     (position, roll) pairs from seeded random games (default 200,000);
  2. ms per legal-results call, GammonEye vs gnubg-nn on the same positions,
     interleaved rounds (best of --rounds), and the ratios:
       - gnubg-nn ``moves()`` alone (its internal keys, the reference of issue #2),
       - gnubg-nn ``moves()`` plus Position IDs (the output `engine legal` gives),
       - GammonEye ``legal_positions()`` (frozen Position objects),
       - GammonEye ``legal_positions()`` plus Position IDs;
  3. the time to replay the longest shared .mat transcript (best of --rounds).

Usage: python bench/engine_bench.py [--pairs N] [--timing-pairs N] [--rounds N]
gnubg-nn is a GPL test/benchmark oracle (pip install gnubg-nn), never imported by
the package.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from gammoneye.datasets.games import random_turns  # noqa: E402
from gammoneye.engine.moves import legal_positions  # noqa: E402

from oracle import agrees_with_gnubg  # noqa: E402

MAT_DIR = ROOT.parent / "shared" / "data" / "mat"


def differential(gnubg_nn: object, pairs: int, seed: int) -> None:
    start = time.perf_counter()
    mismatches = 0
    first: list[str] = []
    checked = 0
    for turn in random_turns(seed=seed, limit=pairs):
        if not agrees_with_gnubg(gnubg_nn, turn.before, turn.dice):
            mismatches += 1
            if len(first) < 5:
                first.append(f"{turn.before.position_id()} {turn.dice}")
        checked += 1
        if checked % 20000 == 0:
            print(f"  ... {checked:,} pairs, {mismatches} mismatches", file=sys.stderr)
    took = time.perf_counter() - start
    print(f"differential vs gnubg-nn: {checked:,} pairs (seed {seed}), {mismatches} mismatches"
          f" ({took:.1f} s)")
    for line in first:
        print(f"  mismatch: {line}")


def timing(gnubg_nn, pairs: int, rounds: int, seed: int) -> None:  # type: ignore[no-untyped-def]
    turns = list(random_turns(seed=seed, limit=pairs))
    cases = [(t.before, t.dice) for t in turns]
    boards = [(pos.gnubg_board(), d[0], d[1]) for pos, d in cases]
    moves = gnubg_nn.moves
    to_id = gnubg_nn.position_id
    from_key = gnubg_nn.board_from_position_key

    def gnubg_raw() -> None:
        for board, d1, d2 in boards:
            moves(board, d1, d2)

    def gnubg_ids() -> None:
        for board, d1, d2 in boards:
            [to_id([list(h) for h in from_key(k)]) for k in moves(board, d1, d2)]

    def ours_raw() -> None:
        for pos, dice in cases:
            legal_positions(pos, dice)

    def ours_ids() -> None:
        for pos, dice in cases:
            [p.position_id() for p in legal_positions(pos, dice)]

    runs: dict[str, Callable[[], None]] = {
        "gnubg-nn moves()": gnubg_raw,
        "gnubg-nn moves() + Position IDs": gnubg_ids,
        "GammonEye legal_positions()": ours_raw,
        "GammonEye legal_positions() + Position IDs": ours_ids,
    }
    best = {name: float("inf") for name in runs}
    for _ in range(rounds):
        for name, fn in runs.items():  # interleaved, so machine noise hits all alike
            t0 = time.perf_counter()
            fn()
            best[name] = min(best[name], time.perf_counter() - t0)
    n = len(cases)
    doubles = sum(d[0] == d[1] for _, d in cases)
    print(f"timing: {n:,} (position, roll) pairs ({doubles:,} doubles), best of {rounds} rounds")
    for name, seconds in best.items():
        print(f"  {name:<44} {seconds / n * 1e3:8.4f} ms/call")
    raw = best["GammonEye legal_positions()"] / best["gnubg-nn moves()"]
    same = (
        best["GammonEye legal_positions() + Position IDs"]
        / best["gnubg-nn moves() + Position IDs"]
    )
    print(f"  ratio GammonEye / gnubg-nn, moves() alone:          {raw:6.1f}x  (target <= 5x)")
    print(f"  ratio GammonEye / gnubg-nn, both to Position IDs:   {same:6.1f}x")


def replay_timing(rounds: int) -> None:
    try:
        from gammoneye.engine.replay import replay_mat
    except ImportError:
        print("replay: gammoneye.engine.replay not available")
        return
    files = sorted(MAT_DIR.glob("*.mat"), key=lambda p: p.stat().st_size)
    if not files:
        print(f"replay: no .mat files in {MAT_DIR}")
        return
    longest = files[-1]
    text = longest.read_text(encoding="utf-8")
    best = float("inf")
    report = None
    for _ in range(rounds):
        t0 = time.perf_counter()
        report = replay_mat(text)
        best = min(best, time.perf_counter() - t0)
    assert report is not None
    print(
        f"replay of the longest shared .mat ({longest.name}, {report.turns} turns, "
        f"{len(report.problems)} problems): {best:.4f} s best of {rounds} (target <= 0.2 s)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=200_000, help="differential pairs")
    parser.add_argument("--timing-pairs", type=int, default=20_000, help="pairs timed")
    parser.add_argument("--rounds", type=int, default=3, help="timing rounds (best kept)")
    parser.add_argument("--seed", type=int, default=1, help="random-games seed")
    args = parser.parse_args()
    try:
        import gnubg_nn
    except ImportError:
        sys.exit("gnubg-nn is not installed: pip install gnubg-nn (test-only oracle)")
    if args.pairs:
        differential(gnubg_nn, args.pairs, args.seed)
    timing(gnubg_nn, args.timing_pairs, args.rounds, args.seed + 1)
    replay_timing(max(args.rounds, 5))


if __name__ == "__main__":
    main()
