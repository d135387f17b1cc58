"""Shared fixtures and settings for the whole test suite.

- ``SHARED``: the project's shared folder, a sibling of the repository checkout
  (``../shared``), which holds the real match transcripts under ``data/mat/``.
- ``mat_dir``: that transcript folder; tests that need it skip where it is absent.
- ``gnubg_binary``: Debian's GNU Backgammon, the oracle; tests that need it skip where
  it is not installed (``scripts/setup`` installs it). Drive it with ``tests/gnubg_cli.py``.
- Hypothesis runs derandomized (seeded from each test) under every profile, so a run is
  repeatable; profile ``ci`` (chosen when the environment sets ``CI``, as CI does with
  ``CI=true``) tries 200 examples a test, ``dev`` Hypothesis's default 100.
  ``HYPOTHESIS_PROFILE=name`` picks one explicitly.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
MAT_DIR = SHARED / "data" / "mat"
GNUBG = Path("/usr/games/gnubg")

# No deadlines anywhere, and CI also skips the too-slow health check: both measure
# wall time, which on a loaded 2-core CI machine turns into flaky failures.
settings.register_profile(
    "ci",
    derandomize=True,
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", derandomize=True, deadline=None)
_ON_CI = os.environ.get("CI", "").lower() not in ("", "0", "false")
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if _ON_CI else "dev"))


@pytest.fixture(scope="session")
def mat_dir() -> Path:
    """The folder of real ``.mat`` transcripts in the shared folder."""
    if not MAT_DIR.is_dir():
        pytest.skip(f"match transcripts not found at {MAT_DIR} (the shared folder beside the repo)")
    return MAT_DIR


@pytest.fixture(scope="session")
def gnubg_binary() -> Path:
    """The GNU Backgammon executable, used as an oracle."""
    if not os.access(GNUBG, os.X_OK):
        pytest.skip("GNU Backgammon not installed: run scripts/setup")
    return GNUBG
