"""How surely the bar's counts are read: in the readings ``bench/referee_cached.py``
kept, each idle view with no hands over the table (the clip's truth says so), the
checkers each player has on the bar against the count read there.

    python bench/bar_reads.py /tmp/views_s4*/ --clips clips

prints, for each (true count, count read), how many player-views. Only what was
kept is counted: views the referee's loop read.
"""

from __future__ import annotations

import argparse
import pickle
from collections import Counter
from pathlib import Path

from gammoneye.datasets.render.cliptruth import read_truth_rows
from gammoneye.engine.position import BAR


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("caches", type=Path, nargs="+", help="folders of kept readings")
    ap.add_argument("--clips", type=Path, default=Path("clips"), help="where the clips are")
    args = ap.parse_args()
    counts: Counter[tuple[int, int]] = Counter()
    for cache in args.caches:
        for kept in sorted(cache.glob("*.pkl")):
            found = sorted(args.clips.glob(f"*/{kept.stem}/events.jsonl"))
            if not found:
                continue
            rows = {r["frame"]: r for r in read_truth_rows(found[0].parent)}
            store = pickle.loads(kept.read_bytes())
            for ref, seen in store["looks"].items():
                row = rows.get(ref) if isinstance(ref, int) else None
                colours = getattr(seen.checkers, "colours", None) if seen is not None else None
                if row is None or colours is None or row["phase"] != "idle" or row["hands"]:
                    continue
                for player in (0, 1):
                    read = seen.checkers.reading.bar.get(colours[player], 0)
                    counts[(row["checkers"][player][BAR], read)] += 1
    for (true, read), n in sorted(counts.items()):
        print(f"on the bar {true}, read {read}: {n}")


if __name__ == "__main__":
    main()
