"""bench/confidence_bands.py: the reads are split by how sure the reader was, and
each band says how often it was right."""

from __future__ import annotations

import doctest
import importlib.util
import re
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def _bands():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location(
        "confidence_bands", REPO / "bench" / "confidence_bands.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_every_read_falls_in_one_band_and_each_band_counts_its_right_reads() -> None:
    bands = _bands()
    p = [0.0, 0.3, 0.5, 0.69, 0.7, 0.9, 0.95, 0.985, 0.99, 1.0]
    right = [False, False, True, False, True, False, True, True, True, True]
    lines = bands.band_lines(p, right)
    rows = [
        re.match(r"p (\S+)-(\S+): +(\d+) read, mean p (\S+), right +(\S+) %", line)
        for line in lines
    ]
    assert all(rows), lines
    counts = {(m[1], m[2]): (int(m[3]), float(m[4]), float(m[5])) for m in rows if m}
    assert sum(n for n, _, _ in counts.values()) == len(p)  # 0.0 and 1.0 included
    assert counts[("0.00", "0.50")] == (2, 0.15, 0.0)
    assert counts[("0.50", "0.70")] == (2, 0.595, 50.0)
    assert counts[("0.90", "0.95")] == (1, 0.9, 0.0)
    assert counts[("0.99", "1.00")] == (2, 0.995, 100.0)
    assert ("0.80", "0.90") not in counts  # nothing read there: no line
    assert len(lines) == 7


def test_no_read_no_band_and_mismatched_answers_are_refused() -> None:
    bands = _bands()
    assert bands.band_lines([], []) == []
    with pytest.raises(ValueError, match="3 probabilities against 2 answers"):
        bands.band_lines([0.5, 0.6, 0.7], [True, False])


def test_docstring_example() -> None:
    result = doctest.testmod(_bands())
    assert result.attempted and not result.failed
