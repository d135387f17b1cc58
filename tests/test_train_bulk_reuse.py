"""``train_bulk --render-only``, and a later run with the same ``--work`` keeping the
runs already made (several trainings share one rendering on a lent GPU machine).
Needs no torch: nothing is trained."""

from __future__ import annotations

import json
from pathlib import Path

from gammoneye.datasets import train_bulk


def test_a_run_made_before_is_kept_and_one_made_otherwise_is_made_again(
    tmp_path: Path,
) -> None:
    work, out = tmp_path / "work", tmp_path / "out"
    common = ["--work", str(work), "--out", str(out), "--runs", "2", "--n", "2",
              "--pile-runs", "0", "--processes", "2", "--render-only"]
    assert train_bulk.main([*common, "--seed", "9101", "--only", "cube"]) == 0
    made = json.loads((work / "run001" / train_bulk.DONE).read_text())
    assert made["seed"] == 9102 and made["crops"] and not made["detector"]
    crops = work / "run000" / "crops" / "cube.jsonl"
    assert crops.exists()
    before = crops.stat().st_mtime_ns

    assert train_bulk.main([*common, "--seed", "9101", "--only", "dice"]) == 0
    log = (out / "train_bulk.log").read_text()
    assert log.count(f"stills made before ({train_bulk.DONE}), kept") == 2
    assert "nothing trained" in log
    assert crops.stat().st_mtime_ns == before  # not cut again

    # the detector's dataset was not made the first time: it is made now, of the
    # same stills, and the crops are kept
    assert train_bulk.main([*common, "--seed", "9101", "--only", "detector"]) == 0
    made = json.loads((work / "run000" / train_bulk.DONE).read_text())
    assert made["detector"] and made["crops"] and (work / "run000" / "detector").is_dir()
    assert crops.stat().st_mtime_ns == before

    # another seed is another run, whatever the folder holds
    job = train_bulk._Job(work / "run000", 2, 9999, detector=True)
    assert not train_bulk._made(job)
    assert train_bulk._made(train_bulk._Job(work / "run000", 2, 9101, detector=True))
