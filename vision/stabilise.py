"""The stabiliser: a view counts only when it has held for a while.

Frames come in one by one, each with a key saying what it shows (checkers, dice,
cube) or ``None`` while the table is not settled (motion, a hand over it). A view is
passed on when ``agree`` of the last ``window`` settled frames show the same key and
it differs from the last view passed on; any unsettled frame starts the count again.
So a die nudged for a frame, or a one-frame misreading, never reaches the referee.

>>> s = Stabiliser(agree=2, window=3)
>>> [s.push(k, k) for k in ("a", "b", "a", "a", "a", None, "a", "a")]
[None, None, 'a', None, None, None, None, None]
"""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable
from typing import Generic, TypeVar

T = TypeVar("T")


class Stabiliser(Generic[T]):
    def __init__(self, agree: int = 2, window: int = 3) -> None:
        if not 1 <= agree <= window:
            raise ValueError(f"need 1 <= agree <= window, got agree={agree}, window={window}")
        self.agree, self.window = agree, window
        self._recent: deque[tuple[Hashable, T]] = deque(maxlen=window)
        self._last: Hashable | None = None
        self._passed_since_motion = False

    @property
    def waiting(self) -> bool:
        """True until a view has been passed on since the table last moved: the caller
        can skip reading frames while this is False."""
        return not self._passed_since_motion

    def reset(self) -> None:
        """The table moved: the views seen so far no longer count."""
        self._recent.clear()
        self._passed_since_motion = False

    def remember(self, key: Hashable) -> None:
        """Go on as if the view ``key`` had just been passed on: after a restart, the
        view the caller last acted on is not passed on again until something else was.

        >>> s = Stabiliser(agree=2, window=3)
        >>> s.remember("a")
        >>> s.waiting, [s.push(k, k) for k in ("a", "a", "b", "b")]
        (False, [None, None, None, 'b'])
        """
        self._recent.clear()
        self._last = key
        self._passed_since_motion = True

    def push(self, key: Hashable | None, item: T) -> T | None:
        """One frame's key (``None``: not settled) and what to pass on; returns the
        item when its view has just become stable and is new."""
        if key is None:
            self.reset()
            return None
        self._recent.append((key, item))
        if sum(1 for k, _ in self._recent if k == key) < self.agree:
            return None
        self._passed_since_motion = True
        if key == self._last:
            return None
        self._last = key
        return item
