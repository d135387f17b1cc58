"""The shipped die reader on real dice photos it was not trained on, and its shapes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from gammoneye.datasets.train_dice import load_photo_dice
from gammoneye.vision.dice import DiceReader, evaluate_dice

VALID = Path(__file__).resolve().parents[2] / "shared" / "data" / "dice-photos" / "Valid"


@pytest.mark.skipif(not VALID.is_dir(), reason=f"real dice photos not found at {VALID}")
def test_reads_the_held_out_real_photos() -> None:
    crops, classes = load_photo_dice(VALID)
    report = evaluate_dice(DiceReader.load(), "valid", crops, classes)
    assert report.n == 255
    # measured 99.61 % (vision/models/README.md); far lower means a broken model or crop
    assert report.value_accuracy >= 0.98, report.line()
    assert report.flat_alarms <= 0.02 * report.flat, report.line()


def test_values_and_cocked_are_probabilities() -> None:
    values, cocked = DiceReader.load().read(np.full((5, 70, 70, 3), 200, np.uint8))
    assert values.shape == (5, 6) and np.allclose(values.sum(axis=1), 1)
    assert ((cocked >= 0) & (cocked <= 1)).all()
