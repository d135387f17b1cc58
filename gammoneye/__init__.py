"""GammonEye: a camera referee for physical backgammon.

The code lives in the top-level folders ``engine/``, ``vision/``, ``calibration/``,
``service/`` and ``datasets/``; ``pyproject.toml`` installs each of them as a
sub-package of this one (folder ``engine/`` imports as ``gammoneye.engine``), so the
generic folder names never clash with other installed packages.
"""

__version__ = "0.1.0"
