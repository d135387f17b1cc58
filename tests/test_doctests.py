"""The runnable examples in the docstrings of the public modules still run."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import gammoneye.calibration
import gammoneye.datasets
import gammoneye.engine
import gammoneye.vision

MODULES = sorted(
    info.name
    for package in (gammoneye.engine, gammoneye.datasets, gammoneye.calibration, gammoneye.vision)
    for info in pkgutil.walk_packages(package.__path__, prefix=f"{package.__name__}.")
    if not info.ispkg
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
