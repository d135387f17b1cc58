"""Helpers for the tests of ``bench/`` scripts: load one as its own module, and
render the small clip they measure."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from gammoneye.datasets.render.clip import ClipConfig, render_clip

REPO = Path(__file__).resolve().parents[1]


def load_bench(name: str) -> ModuleType:
    """``bench/<name>.py`` as a module named ``name``, its neighbours importable as
    when it runs as a script."""
    if str(REPO / "bench") not in sys.path:
        sys.path.insert(0, str(REPO / "bench"))
    spec = importlib.util.spec_from_file_location(name, REPO / "bench" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def render_testbed_clip(out: Path) -> Path:
    """The testbed match's first game rendered at one frame a second, no faults,
    into ``out``."""
    render_clip(
        ClipConfig(
            mat_text=(REPO / "service" / "data" / "testbed_match.mat").read_text(),
            mat_name="testbed.mat",
            out=out,
            seed=5,
            games=(1,),
            faults="none",
            fps=1.0,
        ),
        workers=2,
    )
    return out
