"""The runnable examples in the docstrings of the public modules still run."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import gammoneye.datasets
import gammoneye.engine

MODULES = sorted(
    f"{package.__name__}.{info.name}"
    for package in (gammoneye.engine, gammoneye.datasets)
    for info in pkgutil.iter_modules(package.__path__)
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
