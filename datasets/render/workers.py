"""Running a renderer's work in processes (one worker state per process, built once),
and writing its results whole.

Stills and clip frames are pure functions of their options and an index, so work can
go to any process in any order; results come back as they are done.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TypeVar

C = TypeVar("C")
T = TypeVar("T")


def atomic_write(path: Path, data: bytes | str) -> None:
    """Write a whole file or nothing: a crash never leaves half a picture or label,
    which a resumed run would take for done."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    os.replace(tmp, path)


def run_workers(
    init: Callable[[C], None],
    work: Callable[[T], int],
    cfg: C,
    items: Sequence[T],
    workers: int,
    chunksize: int = 1,
) -> Iterator[int]:
    """``work(item)`` for every item, after ``init(cfg)`` in each process; yields what
    each call returns, in the order they finish. One worker runs here, in-process."""
    if not items:
        return
    if workers <= 1:
        init(cfg)
        for item in items:
            yield work(item)
        return
    # Not fork: a process that has run OpenCV (or any native thread pool) may hold a
    # lock at the moment of the fork that no thread will ever free in the child, which
    # then hangs (seen in a test run that rendered after reading frames). A fork server
    # forks from a clean process; spawn is the portable fallback.
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    with ctx.Pool(workers, initializer=init, initargs=(cfg,)) as pool:
        yield from pool.imap_unordered(work, items, chunksize=chunksize)
