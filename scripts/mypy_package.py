"""Type-check the ``gammoneye`` package as it is installed, from the source folders.

``pyproject.toml`` maps top-level folders onto sub-packages (folder ``engine/`` is
``gammoneye.engine``). mypy cannot see that mapping: run from the repository root it
finds ``./gammoneye`` without its sub-packages and, with ``ignore_missing_imports``,
silently checks none of them; an editable install does not help either, because
setuptools implements it with an import hook that mypy does not run.

So this script builds the installed layout out of symlinks under
``build/mypy-path/`` (anew on every run, so new files are always seen), runs
``mypy -p gammoneye`` there with the project's configuration, and rewrites the paths in
mypy's messages back to the real files (``engine/position.py``, not
``gammoneye/engine/position.py``).

Usage: ``python scripts/mypy_package.py [extra mypy arguments]``; exits with mypy's
status.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TREE = ROOT / "build" / "mypy-path"
PACKAGE = "gammoneye"


def package_dirs() -> dict[str, str]:
    """The ``[tool.setuptools.package-dir]`` table: package name -> folder."""
    with (ROOT / "pyproject.toml").open("rb") as f:
        table = tomllib.load(f)["tool"]["setuptools"]["package-dir"]
    return {str(name): str(folder) for name, folder in table.items()}


def build_tree(mapping: dict[str, str]) -> None:
    """Lay out every mapped package under TREE as it would sit in site-packages."""
    shutil.rmtree(TREE, ignore_errors=True)
    for name in sorted(mapping, key=lambda n: n.count(".")):
        source = ROOT / mapping[name]
        target = TREE.joinpath(*name.split("."))
        nested = {n.split(".")[name.count(".") + 1] for n in mapping if n.startswith(name + ".")}
        if not nested:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.symlink_to(source, target_is_directory=True)
            continue
        # A package with mapped sub-packages is a real folder: link its own files,
        # leaving the sub-package names to their own mapping.
        target.mkdir(parents=True, exist_ok=True)
        for child in source.iterdir():
            if child.name not in nested and child.name != "__pycache__":
                (target / child.name).symlink_to(child)


def main(argv: list[str]) -> int:
    mapping = package_dirs()
    build_tree(mapping)
    command = [
        sys.executable,
        "-m",
        "mypy",
        "--config-file",
        str(ROOT / "pyproject.toml"),
        "--cache-dir",
        str(ROOT / ".mypy_cache"),
        "-p",
        PACKAGE,
        *argv,
    ]
    result = subprocess.run(command, cwd=TREE, capture_output=True, text=True, check=False)
    # Longest package path first, so gammoneye/engine/ wins over gammoneye/.
    prefixes = sorted(
        ((name.replace(".", "/") + "/", folder + "/") for name, folder in mapping.items()),
        key=lambda pair: -len(pair[0]),
    )
    pattern = re.compile(r"^(" + "|".join(re.escape(p) for p, _ in prefixes) + ")", re.MULTILINE)
    real = dict(prefixes)
    for stream, text in ((sys.stdout, result.stdout), (sys.stderr, result.stderr)):
        stream.write(pattern.sub(lambda m: real[m.group(1)], text))
        stream.flush()
    return result.returncode


if __name__ == "__main__":
    os.chdir(ROOT)
    sys.exit(main(sys.argv[1:]))
