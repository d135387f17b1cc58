"""The installed package: one ``gammoneye`` import package, its layers, its command.

The import checks run in a subprocess started in an empty folder, so the repository
root is not on ``sys.path`` and only what is installed can be imported.
"""

from __future__ import annotations

import importlib
import json
import os
import shutil
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

import gammoneye

LAYERS = ["engine", "vision", "calibration", "service", "datasets"]


def _run_outside_repo(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run(
        args, cwd=cwd, env=env, capture_output=True, text=True, timeout=60, check=False
    )


def _console_script() -> str:
    # Installed beside the interpreter in a virtual environment; PATH otherwise.
    beside = Path(sys.executable).with_name("gammoneye")
    found = str(beside) if beside.exists() else shutil.which("gammoneye")
    if found is None:
        pytest.fail("console script 'gammoneye' not installed: run scripts/setup")
    return found


def test_version_matches_the_installed_distribution() -> None:
    assert gammoneye.__version__ == metadata.version("gammoneye")


@pytest.mark.parametrize("layer", LAYERS)
def test_layer_imports_as_a_subpackage(layer: str) -> None:
    module = importlib.import_module(f"gammoneye.{layer}")
    assert module.__file__ is not None
    assert Path(module.__file__).parent.name == layer


def test_console_script_help(tmp_path: Path) -> None:
    result = _run_outside_repo([_console_script(), "--help"], tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Usage" in result.stdout


def test_python_dash_m_gammoneye_help(tmp_path: Path) -> None:
    result = _run_outside_repo([sys.executable, "-m", "gammoneye", "--help"], tmp_path)
    assert result.returncode == 0, result.stderr


def test_no_generic_top_level_names_leak(tmp_path: Path) -> None:
    # A name found elsewhere (Hugging Face 'datasets', say) is not ours; one found
    # at our folder (the repo in an editable install, site-packages otherwise) is a leak.
    probe = """
import importlib.util, json, sys
from pathlib import Path
import gammoneye
ours = {Path(sys.argv[1]).resolve(), Path(gammoneye.__file__).resolve().parents[1]}
found = {}
for name in sys.argv[2:]:
    spec = importlib.util.find_spec(name)
    places = list(spec.submodule_search_locations or []) if spec else []
    if spec and spec.origin:
        places.append(str(Path(spec.origin).parent))
    found[name] = sorted({p for p in places if Path(p).resolve().parent in ours})
print(json.dumps(found))
"""
    repo = Path(__file__).resolve().parents[1]
    result = _run_outside_repo([sys.executable, "-c", probe, str(repo), *LAYERS], tmp_path)
    assert result.returncode == 0, result.stderr
    leaks = {name: places for name, places in json.loads(result.stdout).items() if places}
    assert leaks == {}, f"generic top-level names importable from our folders: {leaks}"
